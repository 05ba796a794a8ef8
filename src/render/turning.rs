//! A turning point of an analysed game as separate pictures, each readable in Discord's preview
//! (which shows a tall picture tiny): the board before the move, after the move played, and after
//! the move the analysis preferred, each under a heading that says the move in words. The boards
//! share one scale, so that they compare at a glance.

use image::imageops;
use image::RgbaImage;

#[cfg(test)]
use super::canvas::text_width;
use super::canvas::{wrap_text, Align, Canvas, FontKind};
use super::{render_at_one_scale, RenderError, Theme};
use crate::games::Game;
use crate::i18n::Lang;
use crate::play::picker::{describe, describe_notation};

/// The size of a heading's words (at least [`super::canvas::min_text`] of the widest board).
const HEADING_SIZE: f32 = 26.0;
/// The height of a heading's line.
const LINE: u32 = 34;
/// Lines a heading takes at most (more is cut with "…").
const HEADING_LINES: usize = 2;
const GAP: u32 = 16;

/// The pictures of the turning point at move `number` (1-based) of `game`: the board before it,
/// after it, and after `better` (notation) instead when that is a legal move there, each under its
/// heading. Words in `lang`.
pub fn turning_point_images(
    lang: Lang,
    game: &Game,
    number: usize,
    better: Option<&str>,
    players: &[String; 2],
    theme: Theme,
) -> Result<Vec<RgbaImage>, RenderError> {
    let no_such = RenderError::NoSuchPly {
        ply: number,
        len: game.ply(),
    };
    let before_ply = number.checked_sub(1).ok_or(RenderError::NoSuchPly {
        ply: 0,
        len: game.ply(),
    })?;
    let played = game.moves().get(before_ply).ok_or(no_such)?;
    let position = game.position_at(before_ply).ok_or(RenderError::NoSuchPly {
        ply: before_ply,
        len: game.ply(),
    })?;
    let mut headings = vec![
        crate::text!("render-turning-before", number = number).render(lang),
        crate::text!(
            "render-turning-played",
            number = number,
            mv = describe(lang, &position, played)
        )
        .render(lang),
    ];
    let alternative = better.and_then(|b| Some((instead(game, before_ply, b)?, b)));
    let mut shots = vec![(game, before_ply), (game, number)];
    if let Some((alt, notation)) = &alternative {
        let words =
            describe_notation(lang, &position, notation).unwrap_or_else(|| notation.to_string());
        headings
            .push(crate::text!("render-turning-better", number = number, mv = words).render(lang));
        shots.push((alt, alt.ply()));
    }
    let pictures = render_at_one_scale(lang, &shots, players, theme)?;
    let p = theme.palette();
    Ok(headings
        .iter()
        .zip(&pictures)
        .map(|(heading, board)| {
            // As wide as the board, so that its words are as large on a phone as a board's.
            let width = board.width();
            let lines = wrap(heading, width.saturating_sub(2 * GAP) as f32);
            let top = GAP + LINE * lines.len() as u32 + GAP / 2;
            let mut c = Canvas::new(width, top + board.height(), p.bg);
            for (i, line) in lines.iter().enumerate() {
                c.text(
                    FontKind::Bold,
                    HEADING_SIZE,
                    width as f32 / 2.0,
                    (GAP + LINE * i as u32 + 26) as f32,
                    Align::Centre,
                    line,
                    p.text,
                );
            }
            imageops::overlay(&mut c.img, board, 0, i64::from(top));
            c.img
        })
        .collect())
}

/// A heading in lines at most `width` wide, at most [`HEADING_LINES`] of them.
fn wrap(text: &str, width: f32) -> Vec<String> {
    wrap_text(FontKind::Bold, HEADING_SIZE, text, width, HEADING_LINES)
}

/// `game` with its moves up to `ply` and then `mv` (none when `mv` is not legal there).
fn instead(game: &Game, ply: usize, mv: &str) -> Option<Game> {
    let mut g = Game::new(game.options().clone());
    for m in game.moves().get(..ply)? {
        g.play(*m).ok()?;
    }
    g.play_text(mv).ok()?;
    Some(g)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Options;

    #[test]
    fn a_turning_point_is_a_picture_per_board_with_the_better_one_last() {
        let mut game = Game::new(Options::parse_line("inphexion size=5").unwrap());
        for _ in 0..4 {
            let mv = *game.legal_moves().last().unwrap();
            game.play(mv).unwrap();
        }
        let players = ["ann".to_string(), "bob".to_string()];
        // A move with another choice than the one played.
        let (number, better) = (1..=4)
            .find_map(|n| {
                let played = game.moves()[n - 1].to_string();
                let other = game
                    .position_at(n - 1)?
                    .legal_notations()
                    .into_iter()
                    .find(|m| *m != played)?;
                Some((n, other))
            })
            .unwrap();
        let three = turning_point_images(
            Lang::EN,
            &game,
            number,
            Some(&better),
            &players,
            Theme::Dark,
        )
        .unwrap();
        let two =
            turning_point_images(Lang::EN, &game, number, None, &players, Theme::Dark).unwrap();
        assert_eq!((three.len(), two.len()), (3, 2));
        // Each picture is about a board's shape, never a tall strip: Discord previews it whole.
        for img in &three {
            assert!(img.height() < img.width() * 3 / 2, "{:?}", img.dimensions());
            assert_eq!(img.dimensions(), three[0].dimensions());
        }
        assert_eq!(two[1], three[1]);
        // An illegal "better" move is left out rather than drawn.
        let bad =
            turning_point_images(Lang::EN, &game, number, Some("zz99"), &players, Theme::Dark)
                .unwrap();
        assert_eq!(bad.len(), 2);
        assert!(matches!(
            turning_point_images(Lang::EN, &game, 9, None, &players, Theme::Dark),
            Err(RenderError::NoSuchPly { .. })
        ));
        assert!(turning_point_images(Lang::EN, &game, 0, None, &players, Theme::Dark).is_err());
    }

    #[test]
    fn headings_wrap_between_words_and_fit() {
        let long =
            "Move 47 played: Push the disc on b3 to c3, relocate e5 to a1, relocate d2 to a2";
        let lines = wrap(long, 500.0);
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(long.starts_with(&format!("{} ", lines[0])), "{lines:?}");
        for l in &lines {
            assert!(text_width(FontKind::Bold, HEADING_SIZE, l) <= 500.0, "{l}");
        }
        assert_eq!(wrap("Before move 3", 500.0), vec!["Before move 3"]);
        let ja = wrap(
            "47手目の実戦：b3 のディスクを c3 へ押し出す、e5 を a1 へ移す",
            300.0,
        );
        assert_eq!(ja.len(), 2, "{ja:?}");
    }

    #[test]
    fn exxit_boards_of_a_turning_point_share_one_frame() {
        let game = crate::render::game_tests::random_game(
            Options::parse_line("exxit tiles=19").unwrap(),
            3,
            14,
        );
        let players = ["ann".to_string(), "bob".to_string()];
        let shots = [(&game, 1), (&game, 8), (&game, game.ply())];
        let pictures = render_at_one_scale(Lang::EN, &shots, &players, Theme::Light).unwrap();
        assert_eq!(pictures.len(), 3);
        assert!(
            pictures
                .iter()
                .all(|p| p.dimensions() == pictures[0].dimensions()),
            "{:?}",
            pictures
                .iter()
                .map(RgbaImage::dimensions)
                .collect::<Vec<_>>()
        );
        // Drawn alone, the early world fills the picture at a larger scale: another picture.
        let alone = crate::render::render_image(&game, Some(1), &players, Theme::Light).unwrap();
        assert_eq!(alone.width(), pictures[0].width());
        assert_ne!(
            alone, pictures[0],
            "the early board is drawn on the common frame"
        );
    }
}
