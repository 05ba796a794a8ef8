//! A turning point of an analysed game in one picture: three boards one under the other at one
//! scale (readable at a phone's width), the position before the move, after the move played, and
//! after the move the analysis preferred, each under a heading.

use image::imageops::{self, FilterType};
use image::RgbaImage;

use super::canvas::{fit_text, Align, Canvas, FontKind};
use super::{render_at_one_scale, RenderError, Theme};
use crate::games::Game;
use crate::i18n::Lang;

/// The width of each board: the boards are stacked, so that a phone shows each at its width. An
/// EXXIT board (720 px) shrinks by a ninth: its digits stay 7.6 px high on a phone.
const BOARD_WIDTH: u32 = 640;
/// Room above each board for its heading.
const HEADING: u32 = 40;
const GAP: u32 = 16;

/// The turning point at move `number` (1-based) of `game`: boards before it, after it, and
/// after `better` instead (when the analysis found a better move that is legal there), one under
/// the other at one scale. Words in `lang`.
pub fn turning_point_image(
    lang: Lang,
    game: &Game,
    number: usize,
    better: Option<&str>,
    players: &[String; 2],
    theme: Theme,
) -> Result<RgbaImage, RenderError> {
    let before_ply = number.checked_sub(1).ok_or(RenderError::NoSuchPly {
        ply: 0,
        len: game.ply(),
    })?;
    let played = game
        .moves()
        .get(before_ply)
        .ok_or(RenderError::NoSuchPly {
            ply: number,
            len: game.ply(),
        })?
        .to_string();
    let mut headings = vec![
        crate::text!("render-turning-before", number = number).render(lang),
        crate::text!(
            "render-turning-played",
            number = number,
            mv = played.as_str()
        )
        .render(lang),
    ];
    let alternative = better.and_then(|b| instead(game, before_ply, b));
    let mut shots = vec![(game, before_ply), (game, number)];
    if let Some(alt) = &alternative {
        headings.push(
            crate::text!(
                "render-turning-better",
                number = number,
                mv = better.unwrap_or("")
            )
            .render(lang),
        );
        shots.push((alt, alt.ply()));
    }
    let pictures = render_at_one_scale(lang, &shots, players, theme)?;
    // One factor for all: the pictures share a size, so they share a scale.
    let widest = pictures
        .iter()
        .map(RgbaImage::width)
        .max()
        .unwrap_or(1)
        .max(1);
    let smalls: Vec<RgbaImage> = pictures
        .iter()
        .map(|img| {
            let w = (img.width() * BOARD_WIDTH / widest).max(1);
            let h = (img.height() * BOARD_WIDTH / widest).max(1);
            imageops::resize(img, w, h, FilterType::Triangle)
        })
        .collect();
    let height = smalls
        .iter()
        .map(|i| HEADING + i.height() + GAP)
        .sum::<u32>()
        + GAP;
    let p = theme.palette();
    let mut c = Canvas::new(BOARD_WIDTH + 2 * GAP, height, p.bg);
    let mut y = GAP;
    for (heading, img) in headings.iter().zip(&smalls) {
        let w = BOARD_WIDTH as f32;
        let text = fit_text(FontKind::Bold, 22.0, heading, w);
        c.text(
            FontKind::Bold,
            22.0,
            GAP as f32 + w / 2.0,
            (y + 28) as f32,
            Align::Centre,
            &text,
            p.text,
        );
        let x = GAP + (BOARD_WIDTH - img.width().min(BOARD_WIDTH)) / 2;
        imageops::overlay(&mut c.img, img, i64::from(x), i64::from(y + HEADING));
        y += HEADING + img.height() + GAP;
    }
    Ok(c.img)
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
    fn a_turning_point_shows_three_boards_with_the_better_one_last() {
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
        let three = turning_point_image(
            Lang::EN,
            &game,
            number,
            Some(&better),
            &players,
            Theme::Dark,
        )
        .unwrap();
        let two =
            turning_point_image(Lang::EN, &game, number, None, &players, Theme::Dark).unwrap();
        // Stacked: one width, a third board adds a third of the height.
        assert_eq!(three.width(), BOARD_WIDTH + 2 * GAP);
        assert_eq!(two.width(), three.width());
        assert!(
            three.height() > two.height() * 4 / 3,
            "{} {}",
            three.height(),
            two.height()
        );
        // An illegal "better" move is left out rather than drawn.
        let bad = turning_point_image(Lang::EN, &game, number, Some("zz99"), &players, Theme::Dark)
            .unwrap();
        assert_eq!(bad.dimensions(), two.dimensions());
        assert!(matches!(
            turning_point_image(Lang::EN, &game, 9, None, &players, Theme::Dark),
            Err(RenderError::NoSuchPly { .. })
        ));
        assert!(turning_point_image(Lang::EN, &game, 0, None, &players, Theme::Dark).is_err());
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
