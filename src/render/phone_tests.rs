//! Every text of every picture kind, measured as a phone shows the picture (360 px wide): boards
//! of both games (the largest included), replays, turning points, standings and the analysis
//! chart, in both themes and both languages. `HEXCORD_PICS=DIR` also writes the pictures
//! measured into `DIR`, for review.

use image::RgbaImage;

use super::canvas::{min_text, PHONE_MIN, PHONE_WIDTH};
use super::game_tests::random_game;
use super::picture_cache::{record_texts, DrawnText};
use super::*;
use crate::games::Options;
use crate::pairings::format::TournamentFormat;
use crate::standings::{standings, Entrant, Round};

/// A picture kind drawn in one theme and language: its name, the picture and the texts drawn.
type Case = (String, RgbaImage, Vec<DrawnText>);

fn names(lang: Lang) -> [String; 2] {
    if lang == Lang::EN {
        ["Alexandra".to_string(), "Bob".to_string()]
    } else {
        ["山田 花子".to_string(), "さくら".to_string()]
    }
}

/// A game of `line` played at random for at most `plies` moves.
fn game(line: &str, seed: u64, plies: usize) -> Game {
    random_game(Options::parse_line(line).expect("options"), seed, plies)
}

fn boards(lang: Lang, theme: Theme) -> Vec<Case> {
    let mut out = Vec::new();
    let players = names(lang);
    let mut inph = vec![
        ("inphexion-opening", inphexion::samples::opening()),
        ("inphexion-relocation", inphexion::samples::relocation()),
        ("inphexion-won", inphexion::samples::won()),
        ("inphexion-4x4", inphexion::samples::small()),
        ("inphexion-11x11", inphexion::samples::large()),
    ];
    for (name, v) in &mut inph {
        v.lang = lang;
        v.players = players.clone();
        let (img, drawn) = record_texts(|| inphexion::draw(v, theme));
        out.push((name.to_string(), img, drawn));
    }
    let mut exx = vec![
        ("exxit-start", exxit::samples::start()),
        ("exxit-dance", exxit::samples::dance()),
        ("exxit-big-stacks", exxit::samples::big_stacks()),
        ("exxit-expansion", exxit::samples::expansion()),
        ("exxit-long-thin-world", exxit::samples::long_line()),
        ("exxit-full-world", exxit::samples::full_world()),
    ];
    for (name, v) in &mut exx {
        v.lang = lang;
        v.players = players.clone();
        let (img, drawn) = record_texts(|| exxit::draw(v, theme));
        out.push((name.to_string(), img, drawn));
    }
    // Whole games as they are posted: the largest inpHeXion board, a full EXXIT world.
    for (name, line, seed, plies) in [
        ("inphexion-11x11-game", "inphexion size=11", 21, 60),
        ("exxit-39-game", "exxit tiles=39", 22, 120),
    ] {
        let g = game(line, seed, plies);
        let (img, drawn) = record_texts(|| render_image_in(lang, &g, None, &players, theme));
        out.push((name.to_string(), img.expect("a board"), drawn));
    }
    out
}

fn replays(lang: Lang, theme: Theme) -> Vec<Case> {
    let players = names(lang);
    [
        ("inphexion-replay", "inphexion size=11", 23, 30),
        ("exxit-replay", "exxit tiles=39", 24, 80),
    ]
    .into_iter()
    .map(|(name, line, seed, plies)| {
        let g = game(line, seed, plies);
        let (gif, drawn) = record_texts(|| replay_in(lang, &g, &players, theme));
        let img = image::load_from_memory(&gif.expect("a replay"))
            .expect("a GIF")
            .to_rgba8();
        (name.to_string(), img, drawn)
    })
    .collect()
}

fn turning_points(lang: Lang, theme: Theme) -> Vec<Case> {
    let players = names(lang);
    let mut out = Vec::new();
    for (name, line, seed, plies) in [
        ("inphexion-turning", "inphexion size=11", 25, 40),
        ("exxit-turning", "exxit tiles=39", 26, 60),
    ] {
        let g = game(line, seed, plies);
        let number = g.ply() - 2;
        let played = g.moves()[number - 1].to_string();
        let better = g
            .position_at(number - 1)
            .expect("the position")
            .legal_notations()
            .into_iter()
            .find(|m| *m != played);
        // Each picture's texts: the heading and its board are drawn for each picture.
        let (pictures, drawn) = record_texts(|| {
            turning_point_images(lang, &g, number, better.as_deref(), &players, theme)
        });
        let pictures = pictures.expect("the pictures");
        assert!(pictures.len() >= 2, "{name}");
        let width = pictures.iter().map(RgbaImage::width).min().unwrap_or(0);
        assert!(pictures.iter().all(|p| p.width() == width), "{name}");
        if let Some(first) = pictures.into_iter().next() {
            out.push((name.to_string(), first, drawn));
        }
    }
    out
}

fn standings_pictures(lang: Lang, theme: Theme) -> Vec<Case> {
    // Eight players: a round robin where the lower number wins and every third game is drawn.
    let n = 8;
    let mut rounds = vec![Vec::new(); n];
    for a in 0..n {
        for b in a + 1..n {
            let (ra, rb) = if (a + b) % 3 == 0 {
                (Round::Drawn { opponent: b }, Round::Drawn { opponent: a })
            } else {
                (Round::Won { opponent: b }, Round::Lost { opponent: a })
            };
            rounds[a].push(ra);
            rounds[b].push(rb);
        }
    }
    let entrants: Vec<Entrant> = rounds.into_iter().map(Entrant::new).collect();
    let names: Vec<String> = (0..n)
        .map(|i| match (lang == Lang::EN, i % 3) {
            (true, 0) => format!("Maximilian Fairweather {i}"),
            (true, _) => format!("player {i}"),
            (false, 0) => format!("山田 花子 {i}"),
            (false, _) => format!("さくら {i}"),
        })
        .collect();
    // The last player withdrew: their name carries the mark.
    let withdrawn: Vec<bool> = (0..n).map(|i| i == n - 1).collect();
    [TournamentFormat::ROUND_ROBIN, TournamentFormat::SWISS]
        .into_iter()
        .map(|format| {
            let table = standings(&format.ranking().rules, &entrants);
            let marks = standings::Marks {
                round: (n - 1) as i64,
                withdrawn: &withdrawn,
            };
            let (img, drawn) = record_texts(|| {
                standings::standings_image(
                    lang,
                    "Spring cup 2026",
                    format,
                    &table,
                    &names,
                    marks,
                    theme,
                )
            });
            (format!("standings-{format:?}"), img, drawn)
        })
        .collect()
}

fn chart(lang: Lang, theme: Theme) -> Vec<Case> {
    let first_chance: Vec<f64> = (0..=120)
        .map(|k| 0.5 + 0.45 * (f64::from(k) / 9.0).sin())
        .collect();
    let view = chart::View {
        kind: crate::games::GameKind::Exxit,
        players: names(lang),
        first_chance,
        marks: [14, 47, 48, 95]
            .into_iter()
            .map(|ply| chart::Mark { ply, mover: 0 })
            .collect(),
    };
    let (img, drawn) = record_texts(|| chart::draw_in(&view, theme, lang));
    vec![("chart".to_string(), img, drawn)]
}

/// No text on any picture is smaller than [`PHONE_MIN`] px at [`PHONE_WIDTH`]: its font size
/// (the em; see [`super::picture_cache::record_texts`] for why not the cap height) times 360 over the
/// picture's final width (a turning point's board is inside a wider picture; a replay is as wide
/// as its widest frame).
#[test]
fn every_text_is_readable_on_a_phone() {
    let out = std::env::var_os("HEXCORD_PICS").map(std::path::PathBuf::from);
    let mut failures = Vec::new();
    let mut measured = 0;
    for theme in Theme::ALL {
        for lang in [Lang::EN, Lang::of("ja")] {
            let cases = [
                boards(lang, theme),
                replays(lang, theme),
                turning_points(lang, theme),
                standings_pictures(lang, theme),
                chart(lang, theme),
            ]
            .concat();
            for (name, img, drawn) in cases {
                let name = format!("{name}-{}-{}", lang.tag(), theme.name());
                assert!(drawn.len() >= 3, "{name}: {} texts recorded", drawn.len());
                let width = img.width();
                assert!(width > 0, "{name}");
                let least = drawn.iter().map(|t| t.em).fold(f32::INFINITY, f32::min);
                for t in &drawn {
                    let phone = t.em * PHONE_WIDTH / width as f32;
                    if phone < PHONE_MIN {
                        failures.push(format!(
                            "{name} ({width} px wide): {:?} at {:.1} px, {phone:.1} px on a phone",
                            t.text, t.em
                        ));
                    }
                }
                assert!(min_text(width) * PHONE_WIDTH / width as f32 >= PHONE_MIN - 1e-4);
                println!(
                    "{name}: {width}×{} px, {} texts, the smallest {least:.1} px ({:.1} px on a phone)",
                    img.height(),
                    drawn.len(),
                    least * PHONE_WIDTH / width as f32
                );
                measured += drawn.len();
                if let Some(dir) = &out {
                    std::fs::create_dir_all(dir).expect("the pictures' folder");
                    let png = encode_png(&img).expect("a PNG");
                    std::fs::write(dir.join(format!("{name}.png")), png).expect("a picture");
                }
            }
        }
    }
    assert!(measured > 1000, "{measured} texts measured");
    assert!(
        failures.is_empty(),
        "{} texts too small on a phone:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
