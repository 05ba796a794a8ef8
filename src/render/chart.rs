//! The chart of an analysed game: the first colour's winning chance as an area rising from the
//! bottom in that colour, the second colour's as the rest from the top in its own colour, so
//! both read at every move (the curve smoothed, [`smoothed`]); the turning points marked with a
//! line, the chances found before and after the move (the values the analysis' text states, as
//! found, not smoothed) joined by a stroke, and a badge with the move's number. The colours, fonts and panels are the board pictures'.

use image::RgbaImage;

use super::canvas::{
    centred_baseline, fit_text, min_text, text_width, Align, Canvas, FontKind, Rgb8A, CJK_EM,
};
use super::{Draw, Palette, Theme};
use crate::games::{on_game, GameKind};
use crate::i18n::{tr, Lang};

/// Picture size in pixels.
pub const WIDTH: u32 = 900;
pub const HEIGHT: u32 = 460;

/// The size of the legend's, the scale's and the badges' words: [`min_text`] of the width or
/// more (Japanese too, whose em is [`CJK_EM`] of the size), 9 px at least when a phone shows the
/// chart 360 px wide.
const TEXT: f32 = 25.0;

/// A turning point: the move number (the position after it is `ply` = number) and who played it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Mark {
    pub ply: usize,
    /// 0 first colour, 1 second.
    pub mover: u8,
}

/// Everything the chart shows.
#[derive(Clone, PartialEq, Debug)]
pub struct View {
    pub kind: GameKind,
    /// Player names by colour (first, second).
    pub players: [String; 2],
    /// The first colour's chance (0–1) at each position, from the start.
    pub first_chance: Vec<f64>,
    pub marks: Vec<Mark>,
}

/// Plot area: left, top, right, bottom.
const PLOT: (f32, f32, f32, f32) = (84.0, 108.0, 876.0, 378.0);

/// The colours of the two sides' areas and the ink on them.
fn side_colours(p: &Palette, kind: GameKind) -> [Rgb8A; 2] {
    on_game!(kind, GameKind, G => G::side_colours(p))
}

fn colour_name(lang: Lang, kind: GameKind, i: usize) -> String {
    let c = if i == 0 {
        crate::games::Colour::First
    } else {
        crate::games::Colour::Second
    };
    super::header::colour_title(lang, kind, c)
}

/// The chances as drawn: each position's weighed with its neighbours' (¼, ½, ¼; the ends ⅔,
/// ⅓). A search's chance leans towards the side to move, so the raw values zigzag from move to
/// move; this weighting cancels a zigzag of period two exactly and keeps steady trends.
pub fn smoothed(chances: &[f64]) -> Vec<f64> {
    let n = chances.len();
    (0..n)
        .map(|k| {
            let at = |i: usize| chances[i];
            match (k.checked_sub(1), (k + 1 < n).then_some(k + 1)) {
                (Some(a), Some(b)) => (at(a) + 2.0 * at(k) + at(b)) / 4.0,
                (None, Some(b)) => (2.0 * at(k) + at(b)) / 3.0,
                (Some(a), None) => (at(a) + 2.0 * at(k)) / 3.0,
                (None, None) => at(k),
            }
        })
        .collect()
}

/// Draws the chart, its words in English.
pub fn draw(view: &View, theme: Theme) -> RgbaImage {
    draw_in(view, theme, Lang::EN)
}

/// Draws the chart, its words (title, legend, axis) in `lang`.
pub fn draw_in(view: &View, theme: Theme, lang: Lang) -> RgbaImage {
    debug_assert!(TEXT * CJK_EM >= min_text(WIDTH));
    let p = theme.palette();
    let mut c = Canvas::new(WIDTH, HEIGHT, p.bg);
    let sides = side_colours(p, view.kind);
    let (left, top, right, bottom) = PLOT;
    let h = bottom - top;
    // Title and legend.
    c.text(
        FontKind::Bold,
        28.0,
        16.0,
        36.0,
        Align::Left,
        &tr(lang, "render-chart-title"),
        p.text,
    );
    c.text(
        FontKind::Regular,
        TEXT,
        16.0,
        74.0,
        Align::Left,
        &fit_text(
            FontKind::Regular,
            TEXT,
            &tr(lang, "render-chart-subtitle"),
            WIDTH as f32 - 32.0,
        ),
        p.text_dim,
    );
    let mut x = WIDTH as f32 - 16.0;
    for i in [1usize, 0] {
        let name = fit_text(
            FontKind::Bold,
            TEXT,
            &crate::text!(
                "render-player",
                name = &view.players[i],
                colour = colour_name(lang, view.kind, i)
            )
            .render(lang),
            230.0,
        );
        let w = text_width(FontKind::Bold, TEXT, &name);
        x -= w;
        c.text(
            FontKind::Bold,
            TEXT,
            x,
            centred_baseline(TEXT, 34.0),
            Align::Left,
            &name,
            p.text,
        );
        x -= 30.0;
        c.round_rect(x, 23.0, 22.0, 22.0, 5.0, sides[i]);
        c.round_rect_outline(x, 23.0, 22.0, 22.0, 5.0, 1.5, p.panel_edge);
        x -= 24.0;
    }
    // The second colour fills the plot; the first colour's area rises from the bottom.
    c.round_rect(
        left - 2.0,
        top - 2.0,
        right - left + 4.0,
        h + 4.0,
        4.0,
        p.panel_edge,
    );
    c.round_rect(left, top, right - left, h, 2.0, sides[1]);
    let n = view.first_chance.len();
    let span = (n.saturating_sub(1)).max(1) as f32;
    let px = |ply: usize| left + (right - left) * ply as f32 / span;
    let py = |chance: f64| bottom - h * chance.clamp(0.0, 1.0) as f32;
    let chances = smoothed(&view.first_chance);
    let curve: Vec<(f32, f32)> = chances
        .iter()
        .enumerate()
        .map(|(k, &v)| (px(k), py(v)))
        .collect();
    if curve.len() >= 2 {
        let mut area = Vec::with_capacity(curve.len() + 2);
        area.push((left, bottom));
        area.extend_from_slice(&curve);
        area.push((right, bottom));
        c.fill_convex(&area, sides[0]);
    } else if let Some(&(_, y)) = curve.first() {
        c.round_rect(left, y, right - left, bottom - y, 0.0, sides[0]);
    }
    // Half way, and the scale.
    c.dashed_line(
        (left, (top + bottom) / 2.0),
        (right, (top + bottom) / 2.0),
        1.5,
        6.0,
        6.0,
        p.panel_edge,
    );
    for (v, label) in [(1.0, "100%"), (0.5, "50%"), (0.0, "0%")] {
        c.text(
            FontKind::Regular,
            TEXT,
            left - 8.0 - text_width(FontKind::Regular, TEXT, label),
            centred_baseline(TEXT, py(v)),
            Align::Left,
            label,
            p.text_dim,
        );
    }
    // Move numbers along the bottom.
    let moves = n.saturating_sub(1);
    let step = [5usize, 10, 20, 25, 50, 100]
        .into_iter()
        .find(|s| moves / s <= 12)
        .unwrap_or(200);
    let mut k = 0;
    while k <= moves {
        let label = k.to_string();
        c.text(
            FontKind::Regular,
            TEXT,
            px(k),
            bottom + 28.0,
            Align::Centre,
            &label,
            p.text_dim,
        );
        k += step;
    }
    c.text(
        FontKind::Regular,
        TEXT,
        (left + right) / 2.0,
        bottom + 60.0,
        Align::Centre,
        &tr(lang, "render-chart-axis"),
        p.text_dim,
    );
    // The curve over both areas, in a contrast colour and the text colour.
    for w in curve.windows(2) {
        c.line(w[0], w[1], 4.5, p.contrast);
    }
    for w in curve.windows(2) {
        c.line(w[0], w[1], 2.0, p.text);
    }
    // Turning points: a line, the chances the analysis found before and after the move (the
    // values its text states, not the smoothed curve's) joined by a stroke, a badge with the
    // move number.
    let mut badges: Vec<(f32, f32)> = Vec::new();
    for m in &view.marks {
        let (Some(&before), Some(&after)) = (
            m.ply.checked_sub(1).and_then(|k| view.first_chance.get(k)),
            view.first_chance.get(m.ply),
        ) else {
            continue;
        };
        let (x, y) = (px(m.ply), py(after));
        let from = (px(m.ply - 1), py(before));
        c.line(
            (x, top + 24.0),
            (x, bottom),
            2.0,
            Rgb8A { a: 200, ..p.last },
        );
        c.line(from, (x, y), 5.0, p.contrast);
        c.line(from, (x, y), 2.5, p.last);
        c.fill_circle(from.0, from.1, 6.5, p.contrast);
        c.fill_circle(from.0, from.1, 4.5, p.last);
        c.fill_circle(x, y, 8.5, p.contrast);
        c.fill_circle(x, y, 6.0, p.last);
        let label = m.ply.to_string();
        let w = text_width(FontKind::Bold, TEXT, &label) + 16.0;
        // Badges side by side never overlap: move a badge down when it would.
        let mut bx = (x - w / 2.0).clamp(left, right - w);
        let mut by = top - 16.0;
        while badges
            .iter()
            .any(|&(ox, oy)| (ox - bx).abs() < w + 4.0 && (oy - by).abs() < 32.0)
        {
            by += 34.0;
        }
        bx = bx.max(0.0);
        badges.push((bx, by));
        c.round_rect(bx, by, w, 32.0, 16.0, p.last);
        c.text(
            FontKind::Bold,
            TEXT,
            bx + w / 2.0,
            centred_baseline(TEXT, by + 16.0),
            Align::Centre,
            &label,
            p.bg,
        );
    }
    c.img
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The chart for `ja` has its words in Japanese: the title and the axis differ from the
    /// English chart's, the plot does not.
    #[test]
    fn the_chart_for_ja_has_japanese_words() {
        let view = View {
            kind: GameKind::Inphexion,
            players: ["山田".into(), "Bob".into()],
            first_chance: vec![0.5, 0.6, 0.9, 0.2],
            marks: vec![],
        };
        let en = draw(&view, Theme::Dark);
        let ja = draw_in(&view, Theme::Dark, Lang::of("ja"));
        let differ = |x0: u32, y0: u32, x1: u32, y1: u32| {
            (y0..y1)
                .flat_map(|y| (x0..x1).map(move |x| (x, y)))
                .filter(|&(x, y)| en.get_pixel(x, y) != ja.get_pixel(x, y))
                .count()
        };
        assert!(differ(0, 0, 400, 70) > 300, "title");
        assert!(differ(300, PLOT.3 as u32 + 26, 600, HEIGHT) > 50, "axis");
        assert_eq!(
            differ(
                PLOT.0 as u32 + 4,
                PLOT.1 as u32 + 4,
                PLOT.2 as u32 - 4,
                PLOT.3 as u32 - 4
            ),
            0
        );
        assert_eq!(tr(Lang::of("ja"), "render-chart-title"), "勝率");
    }

    #[test]
    fn the_areas_show_each_side_and_marks_are_drawn() {
        let view = View {
            kind: GameKind::Exxit,
            players: ["Alice".into(), "Bob".into()],
            first_chance: vec![0.5, 0.6, 0.9, 0.2, 0.1, 0.0],
            marks: vec![Mark { ply: 3, mover: 0 }],
        };
        for theme in Theme::ALL {
            let p = theme.palette();
            let img = draw(&view, theme);
            assert_eq!(img.dimensions(), (WIDTH, HEIGHT));
            let at = |x: f32, y: f32| img.get_pixel(x as u32, y as u32).0;
            let span = 5.0;
            let x_of = |k: f32| PLOT.0 + (PLOT.2 - PLOT.0) * k / span;
            let h = PLOT.3 - PLOT.1;
            // Near the bottom at move 2 (90 % for Silver): silver; near the top: red.
            let silver = at(x_of(2.0), PLOT.3 - 5.0);
            assert_eq!(
                &silver[..3],
                &[p.silver_tile.r, p.silver_tile.g, p.silver_tile.b]
            );
            let red = at(x_of(4.5), PLOT.1 + h * 0.3);
            assert_eq!(&red[..3], &[p.red_tile.r, p.red_tile.g, p.red_tile.b]);
        }
    }

    /// A turning point's dots sit at the chances the analysis found, not on the smoothed curve.
    #[test]
    fn turning_points_show_the_values_found() {
        let first_chance = vec![0.5, 0.6, 0.9, 0.2, 0.5, 0.4];
        let view = View {
            kind: GameKind::Inphexion,
            players: ["Alice".into(), "Bob".into()],
            first_chance: first_chance.clone(),
            marks: vec![Mark { ply: 3, mover: 0 }],
        };
        let p = Theme::Dark.palette();
        let img = draw(&view, Theme::Dark);
        let (left, top, right, bottom) = PLOT;
        let x = left + (right - left) * 3.0 / 5.0;
        let y_of = |v: f64| bottom - (bottom - top) * v as f32;
        let last = [p.last.r, p.last.g, p.last.b];
        let at = |y: f32| img.get_pixel(x as u32, y as u32).0;
        assert_eq!(&at(y_of(0.2))[..3], &last, "the dot at the 20 % found");
        // The smoothed curve passes at (0.9 + 0.4 + 0.5) / 4 = 45 %: no dot there.
        let smooth = smoothed(&first_chance)[3];
        assert!((smooth - 0.45).abs() < 1e-9);
        assert_ne!(&at(y_of(smooth))[..3], &last);
        let x0 = left + (right - left) * 2.0 / 5.0;
        assert_eq!(
            &img.get_pixel(x0 as u32, y_of(0.9) as u32).0[..3],
            &last,
            "the dot at the 90 % before the move"
        );
    }

    #[test]
    fn the_move_by_move_zigzag_is_smoothed_away() {
        let zigzag: Vec<f64> = (0..12)
            .map(|k| if k % 2 == 0 { 0.7 } else { 0.3 })
            .collect();
        let s = smoothed(&zigzag);
        assert_eq!(s.len(), zigzag.len());
        for v in &s[1..s.len() - 1] {
            assert!((v - 0.5).abs() < 1e-9, "{s:?}");
        }
        // A steady trend keeps its values; single points and empty games pass through.
        let ramp: Vec<f64> = (0..10).map(|k| f64::from(k) / 10.0).collect();
        for (a, b) in smoothed(&ramp)[1..9].iter().zip(&ramp[1..9]) {
            assert!((a - b).abs() < 1e-9);
        }
        assert_eq!(smoothed(&[0.25]), vec![0.25]);
        assert!(smoothed(&[]).is_empty());
    }
}
