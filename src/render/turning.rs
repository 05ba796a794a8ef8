//! A turning point of an analysed game in one picture: three small boards side by side, the
//! position before the move, after the move played, and after the move the analysis preferred,
//! each under a heading.

use image::imageops::{self, FilterType};
use image::RgbaImage;

use super::canvas::{fit_text, Align, Canvas, FontKind};
use super::{render_image_in, RenderError, Theme};
use crate::games::Game;
use crate::i18n::Lang;

/// The height of each small board.
const BOARD_HEIGHT: u32 = 340;
/// Room above the boards for their headings.
const HEADING: u32 = 40;
const GAP: u32 = 16;

/// The turning point at move `number` (1-based) of `game`: boards before it, after it, and
/// after `better` instead (when the analysis found a better move that is legal there). Words in
/// `lang`.
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
    let mut panels = vec![
        (
            crate::text!("render-turning-before", number = number).render(lang),
            render_image_in(lang, game, Some(before_ply), players, theme)?,
        ),
        (
            crate::text!(
                "render-turning-played",
                number = number,
                mv = played.as_str()
            )
            .render(lang),
            render_image_in(lang, game, Some(number), players, theme)?,
        ),
    ];
    if let Some(alternative) = better.and_then(|b| instead(game, before_ply, b)) {
        panels.push((
            crate::text!(
                "render-turning-better",
                number = number,
                mv = better.unwrap_or("")
            )
            .render(lang),
            render_image_in(lang, &alternative, None, players, theme)?,
        ));
    }
    let smalls: Vec<(String, RgbaImage)> = panels
        .into_iter()
        .map(|(heading, img)| {
            let w = (img.width() * BOARD_HEIGHT / img.height().max(1)).max(1);
            (
                heading,
                imageops::resize(&img, w, BOARD_HEIGHT, FilterType::Triangle),
            )
        })
        .collect();
    let width = smalls.iter().map(|(_, i)| i.width() + GAP).sum::<u32>() + GAP;
    let p = theme.palette();
    let mut c = Canvas::new(width, HEADING + BOARD_HEIGHT + GAP, p.bg);
    let mut x = GAP;
    for (heading, img) in &smalls {
        let w = img.width() as f32;
        let text = fit_text(FontKind::Bold, 20.0, heading, w);
        c.text(
            FontKind::Bold,
            20.0,
            x as f32 + w / 2.0,
            28.0,
            Align::Centre,
            &text,
            p.text,
        );
        imageops::overlay(&mut c.img, img, i64::from(x), i64::from(HEADING));
        x += img.width() + GAP;
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
        assert_eq!(three.height(), HEADING + BOARD_HEIGHT + GAP);
        assert!(
            three.width() > two.width() * 4 / 3,
            "{} {}",
            three.width(),
            two.width()
        );
        // An illegal "better" move is left out rather than drawn.
        let bad = turning_point_image(Lang::EN, &game, number, Some("zz99"), &players, Theme::Dark)
            .unwrap();
        assert_eq!(bad.width(), two.width());
        assert!(matches!(
            turning_point_image(Lang::EN, &game, 9, None, &players, Theme::Dark),
            Err(RenderError::NoSuchPly { .. })
        ));
        assert!(turning_point_image(Lang::EN, &game, 0, None, &players, Theme::Dark).is_err());
    }
}
