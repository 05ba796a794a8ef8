//! The SVG board's tests: every position parses, targets sit where the PNG puts the cells.

use super::*;
use crate::games::{exxit as xg, inphexion as ig, Move, Options, Position};

fn random_game(line: &str, seed: u64, max_plies: usize) -> Game {
    let options = Options::parse_line(line).expect("options");
    crate::render::game_tests::random_game(options, seed, max_plies)
}

fn players() -> [String; 2] {
    ["Alice <&>".to_string(), "ボブ".to_string()]
}

/// The cells a player clicks for the legal moves: every cell of every move.
fn target_cells(game: &Game) -> Vec<Hex> {
    let mut cells = BTreeSet::new();
    for m in game.legal_moves() {
        match m {
            Move::Inphexion(m) => match m.kind() {
                ig::MoveKind::Place(h) => {
                    cells.insert(h);
                }
                ig::MoveKind::Swap => {}
                ig::MoveKind::Regular { from, to } => {
                    cells.insert(from);
                    cells.insert(to);
                    cells.extend(m.relocations().map(|(_, d)| d));
                }
            },
            Move::Exxit(m) => match m {
                xg::Move::Dance { from, target } => {
                    cells.insert(from);
                    cells.insert(target);
                }
                xg::Move::Expand(h) | xg::Move::Place(h) => {
                    cells.insert(h);
                }
                xg::Move::Pass | xg::Move::Swap => {}
            },
        }
    }
    cells.into_iter().collect()
}

/// The hit areas of an SVG: each cell and the centre its hexagon is drawn at.
fn hit_areas(doc: &roxmltree::Document) -> Vec<(Hex, (f32, f32))> {
    doc.descendants()
        .filter(|n| n.has_tag_name("g") && n.attribute("class") == Some("cell target"))
        .map(|g| {
            let cell = g.attribute("data-cell").expect("data-cell");
            let (q, r) = cell.split_once(',').expect("q,r");
            let hex = Hex::new(q.parse().expect("q"), r.parse().expect("r"));
            let title = g.children().find(|c| c.has_tag_name("title"));
            assert!(
                title.and_then(|t| t.text()).is_some_and(|t| !t.is_empty()),
                "{cell} has a title"
            );
            let u = g.children().find(|c| c.has_tag_name("use")).expect("use");
            let at = |a: &str| {
                u.attribute(a)
                    .expect("x and y")
                    .parse::<f32>()
                    .expect("number")
            };
            (hex, (at("x"), at("y")))
        })
        .collect()
}

fn check<'a>(svg: &'a str, what: &str) -> roxmltree::Document<'a> {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("{what}: {e}"));
    for n in doc.descendants() {
        assert!(!n.has_tag_name("style"), "{what}: a <style> element");
        assert!(!n.has_tag_name("script"), "{what}: a <script> element");
        assert!(n.attribute("style").is_none(), "{what}: a style attribute");
        // Every colour is a class the theme defines.
        for class in n.attribute("class").unwrap_or("").split_whitespace() {
            if let Some(colour) = class.strip_prefix("f-").or(class.strip_prefix("s-")) {
                assert!(
                    Theme::Light
                        .palette()
                        .entries()
                        .iter()
                        .any(|(name, _)| cls(name) == colour),
                    "{what}: unknown colour class {class}"
                );
            }
        }
    }
    doc
}

#[test]
fn every_position_parses_with_one_hit_area_per_target_where_the_layout_puts_the_cell() {
    let games = [
        ("inphexion size=4", 1, 60),
        ("inphexion size=5 neutral pie", 2, 60),
        ("inphexion size=7 free-reply", 3, 40),
        ("inphexion size=11", 4, 12),
        ("exxit tiles=19", 5, 60),
        ("exxit tiles=19 expert pie", 6, 60),
        ("exxit tiles=39", 7, 30),
    ];
    for (line, seed, plies) in games {
        let game = random_game(line, seed, plies);
        assert!(game.ply() > 3, "{line}");
        for ply in 0..=game.ply() {
            let svg = board(Lang::EN, &game, Some(ply), &players(), &[]).expect("svg");
            let doc = check(&svg, line);
            assert!(hit_areas(&doc).is_empty());
        }
        // The position now, with its legal moves' cells as targets.
        let targets = target_cells(&game);
        let svg = board(Lang::EN, &game, None, &players(), &targets).expect("svg");
        let doc = check(&svg, line);
        let areas = hit_areas(&doc);
        let cells: Vec<Hex> = areas.iter().map(|a| a.0).collect();
        assert_eq!(cells, targets, "{line}: one hit area per target");
        let centre: Box<dyn Fn(Hex) -> (f32, f32)> = match game.position() {
            Position::Inphexion(p) => {
                let v = inphexion::View::from_position(p, None, &players());
                // The PNG's geometry below the SVG's own header.
                let l = inphexion::layout::layout_below(&v, HEADER_H);
                Box::new(move |h| l.centre(h))
            }
            Position::Exxit(p) => {
                let before = game.ply().checked_sub(1).and_then(|i| game.position_at(i));
                let v = super::super::view_of::<crate::games::exxit::Exxit>(
                    Lang::EN,
                    &game,
                    game.ply(),
                    p,
                    before.as_deref(),
                    &players(),
                );
                let l = crate::render::exxit::layout::layout(crate::render::exxit::Extent::of(&v));
                Box::new(move |h| l.centre(h))
            }
        };
        for (h, (x, y)) in areas {
            let (cx, cy) = centre(h);
            assert!(
                (x - cx).abs() <= 0.05 && (y - cy).abs() <= 0.05,
                "{line}: {h} at {x},{y}, the PNG's layout puts it at {cx},{cy}"
            );
        }
        let size = svg.len();
        assert!(size < 40_000, "{line}: {size} bytes");
    }
}

/// The picture is the PNG's: the same size, and a cell of the same size, less what the PNG's
/// header grows by on a picture wider than the header's design (the page scales the SVG's
/// header itself).
#[test]
fn the_svg_has_the_pngs_size_and_cells() {
    for line in ["inphexion size=7", "exxit tiles=19"] {
        let game = random_game(line, 11, 8);
        let png = super::super::render_image(&game, None, &players(), Theme::Dark).expect("png");
        let svg = board(Lang::EN, &game, None, &players(), &[]).expect("svg");
        let doc = check(&svg, line);
        let root = doc.root_element();
        assert_eq!(
            root.attribute("viewBox"),
            Some(
                format!(
                    "0 0 {} {}",
                    png.width(),
                    png.height() - (crate::render::header::header_height(png.width()) - HEADER_H)
                )
                .as_str()
            ),
            "{line}"
        );
        let cell: f32 = root
            .attribute("data-cell-size")
            .and_then(|s| s.parse().ok())
            .expect("data-cell-size");
        assert!(cell > 30.0, "{line}: {cell}");
        let top = HEADER_H.to_string();
        assert_eq!(root.attribute("data-board-top"), Some(top.as_str()));
    }
}

#[test]
fn words_are_in_the_language_asked_and_escaped() {
    let game = random_game("exxit tiles=19", 3, 5);
    let ja = board(Lang::of("ja"), &game, None, &players(), &[]).expect("svg");
    let en = board(Lang::EN, &game, None, &players(), &[]).expect("svg");
    assert!(ja.contains("の手番") || ja.contains("勝"), "{ja}");
    assert!(en.contains("Alice &lt;&amp;&gt;"));
    assert_ne!(ja, en);
    assert!(matches!(
        board(Lang::EN, &game, Some(99), &players(), &[]),
        Err(RenderError::NoSuchPly { ply: 99, .. })
    ));
}

#[test]
fn the_theme_names_every_colour_light_and_dark() {
    let css = theme_css();
    let (light, dark) = css
        .split_once("@media (prefers-color-scheme: dark)")
        .expect("dark");
    for (theme, part) in [(Theme::Light, light), (Theme::Dark, dark)] {
        for (name, c) in theme.palette().entries() {
            let var = format!("--hx-{}:#{:02x}{:02x}{:02x};", cls(name), c.r, c.g, c.b);
            assert!(part.contains(&var), "{var} in the {} part", theme.name());
        }
    }
    for (name, _) in Theme::Dark.palette().entries() {
        assert!(css.contains(&format!(".hx .f-{}{{", cls(name))));
        assert!(css.contains(&format!(".hx .s-{}{{", cls(name))));
    }
    assert_eq!(css.matches('{').count(), css.matches('}').count());
}
