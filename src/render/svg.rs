//! Board pictures as SVG, for the web page: the same picture as the PNG, from the same layouts
//! (`inphexion::layout`, `exxit::layout`: one geometry, two outputs) and the same palettes.
//!
//! - [`board`]`(lang, &Game, ply, players, targets)`: the position after `ply` moves (`None`: now)
//!   with its header (players, what they hold, the tile supply, whose turn or the result), the
//!   coordinates and the last move marked; over it, a hit area for every cell of `targets`:
//!   `<g class="cell target" data-cell="q,r"><title>c3</title>…</g>`, a hexagon the size of
//!   the cell, for the page to make clickable.
//! - [`theme_css`]: the colours as CSS custom properties (`--hx-<palette field>`, light by
//!   default, dark under `prefers-color-scheme: dark`) and the class rules the SVG uses.
//!
//! The SVG holds no `style` attribute or element (the page's Content-Security-Policy forbids
//! inline styles): colours are classes (`f-<colour>` fills, `s-<colour>` strokes), everything else
//! presentation attributes. Its root carries `data-cell-size`, the width of a cell in the SVG's
//! units, so a page can scale the board until a cell is large enough to touch, and
//! `data-board-top`, where the board begins below the header, so a narrow page that shows the
//! players and the status itself can leave the header out. Repeated shapes
//! (cells, tiles, hit areas) are one `<polygon>` in `<defs>` used by `<use>`, which keeps an
//! 11×11 board or a large EXXIT world to a few tens of kilobytes.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use super::canvas::{centred_baseline, fit_text, text_width, FontKind};
use super::header::{
    card_width, card_x, colour_title, status_text, Header, CARD_H, CARD_TOP, HEADER_H,
};
use super::Draw;
use super::{inphexion, Palette, RenderError, Theme};
use crate::games::{on_game, Colour, Game};
use crate::hex::Hex;
use crate::i18n::{tr, Lang};
use crate::text;

const SQRT3: f32 = 1.732_050_8;

/// The SVG of one position of a game: the position after `ply` moves (`None`: the current one,
/// with a resignation or timeout shown as the result), the move that led to it marked, and a hit
/// area on every cell of `targets`. `players` are by seat, as for [`super::render_png`].
pub fn board(
    lang: Lang,
    game: &Game,
    ply: Option<usize>,
    players: &[String; 2],
    targets: &[Hex],
) -> Result<String, RenderError> {
    let len = game.ply();
    let ply = ply.unwrap_or(len);
    let pos = game
        .position_at(ply)
        .ok_or(RenderError::NoSuchPly { ply, len })?;
    let before = ply.checked_sub(1).and_then(|i| game.position_at(i));
    Ok(on_game!(&*pos, Position(p), G => {
        G::svg(&super::view_of::<G>(lang, game, ply, p, before.as_deref(), players), targets)
    }))
}

/// A game whose board the web board draws as SVG, from the view its picture is drawn from.
trait BoardSvg: Draw {
    /// The SVG of the view, with a hit area on every cell of `targets`.
    fn svg(view: &Self::View, targets: &[Hex]) -> String;
}

impl BoardSvg for crate::games::inphexion::Inphexion {
    fn svg(view: &inphexion::View, targets: &[Hex]) -> String {
        inphexion_svg(view, targets)
    }
}

impl BoardSvg for crate::games::exxit::Exxit {
    fn svg(view: &super::exxit::View, targets: &[Hex]) -> String {
        exxit_svg(view, targets)
    }
}

/// The board's stylesheet: every palette colour as a custom property, light by default and dark
/// under `prefers-color-scheme: dark`, and the rules for the SVG's classes.
pub fn theme_css() -> String {
    let mut css = String::from("/* The board's colours, from the pictures' palettes. */\n");
    let vars = |p: &Palette| {
        p.entries()
            .into_iter()
            .map(|(name, c)| {
                format!(
                    "--hx-{}:#{:02x}{:02x}{:02x};",
                    name.replace('_', "-"),
                    c.r,
                    c.g,
                    c.b
                )
            })
            .collect::<String>()
    };
    let _ = writeln!(
        css,
        ":root{{color-scheme:light dark;{}}}",
        vars(Theme::Light.palette())
    );
    let _ = writeln!(
        css,
        "@media (prefers-color-scheme: dark){{:root{{{}}}}}",
        vars(Theme::Dark.palette())
    );
    for (name, _) in Theme::Light.palette().entries() {
        let name = name.replace('_', "-");
        let _ = writeln!(css, ".hx .s-{name}{{fill:none;stroke:var(--hx-{name})}}");
    }
    for (name, _) in Theme::Light.palette().entries() {
        let name = name.replace('_', "-");
        let _ = writeln!(css, ".hx .f-{name}{{fill:var(--hx-{name})}}");
    }
    css.push_str(concat!(
        ".hx{display:block;width:100%;height:auto;background:var(--hx-bg)}\n",
        ".hx text{font-family:\"DejaVu Sans\",\"Noto Sans CJK JP\",Verdana,sans-serif}\n",
        ".hx .b{font-weight:bold}\n",
        ".hx .target{pointer-events:none}\n",
        ".hx .target use{fill:transparent;stroke:none}\n",
        ".hx .target.next{pointer-events:all;cursor:pointer}\n",
        ".hx .target.next use{fill:var(--hx-last);fill-opacity:.22;",
        "stroke:var(--hx-last);stroke-width:3}\n",
        ".hx .target.next:hover use,.hx .target.next:focus use{fill-opacity:.45;",
        "stroke:var(--hx-win);stroke-width:5}\n",
        ".hx .target:focus{outline:none}\n",
        ".hx .target.chosen use{fill:var(--hx-win);fill-opacity:.35;",
        "stroke:var(--hx-win);stroke-width:4}\n",
    ));
    css
}

/// A number as SVG wants it: one decimal at most.
fn num(out: &mut String, v: f32) {
    let v = if v.is_finite() { v } else { 0.0 };
    let tenths = (v * 10.0).round() as i64;
    if tenths % 10 == 0 {
        let _ = write!(out, "{}", tenths / 10);
    } else {
        let sign = if tenths < 0 { "-" } else { "" };
        let a = tenths.abs();
        let _ = write!(out, "{sign}{}.{}", a / 10, a % 10);
    }
}

fn escape(out: &mut String, s: &str) {
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
}

/// A palette colour's class name part: `white_disc` → `white-disc`.
fn cls(name: &str) -> String {
    name.replace('_', "-")
}

/// An SVG being written.
struct Svg {
    out: String,
    /// The prefix of this picture's shape ids.
    id: String,
}

impl Svg {
    fn new(width: u32, height: u32, kind: &str, r: f32, label: &str) -> Svg {
        let mut out = String::with_capacity(32 * 1024);
        let _ = write!(
            out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"hx hx-{kind}\" viewBox=\"0 0 {width} {height}\" data-board-top=\"{HEADER_H}\" data-cell-size=\""
        );
        num(&mut out, SQRT3 * r);
        out.push_str("\" aria-label=\"");
        escape(&mut out, label);
        out.push_str("\">");
        let _ = write!(
            out,
            "<rect class=\"f-bg\" width=\"{width}\" height=\"{height}\"/>"
        );
        Svg {
            out,
            id: format!("h{}", (r * 10.0).round() as i64),
        }
    }

    fn pts(&mut self, pts: &[(f32, f32)]) {
        for (i, p) in pts.iter().enumerate() {
            if i > 0 {
                self.out.push(' ');
            }
            num(&mut self.out, p.0);
            self.out.push(',');
            num(&mut self.out, p.1);
        }
    }

    fn polygon(&mut self, pts: &[(f32, f32)], attrs: &str) {
        self.out.push_str("<polygon points=\"");
        self.pts(pts);
        let _ = write!(self.out, "\" {attrs}/>");
    }

    /// A shape of `<defs>`, centred on the origin, named `{id}{name}`.
    fn def(&mut self, name: &str, pts: &[(f32, f32)], attrs: &str) {
        let _ = write!(self.out, "<polygon id=\"{}{name}\" points=\"", self.id);
        self.pts(pts);
        let _ = write!(self.out, "\" {attrs}/>");
    }

    fn use_at(&mut self, name: &str, at: (f32, f32), attrs: &str) {
        let _ = write!(self.out, "<use href=\"#{}{name}\" x=\"", self.id);
        num(&mut self.out, at.0);
        self.out.push_str("\" y=\"");
        num(&mut self.out, at.1);
        let _ = write!(self.out, "\" {attrs}/>");
    }

    fn circle(&mut self, c: (f32, f32), r: f32, attrs: &str) {
        self.out.push_str("<circle cx=\"");
        num(&mut self.out, c.0);
        self.out.push_str("\" cy=\"");
        num(&mut self.out, c.1);
        self.out.push_str("\" r=\"");
        num(&mut self.out, r.max(0.0));
        let _ = write!(self.out, "\" {attrs}/>");
    }

    /// A filled circle of a palette colour, with an opacity below 255.
    fn disc(&mut self, c: (f32, f32), r: f32, colour: &str, alpha: u8) {
        let attrs = if alpha == 255 {
            format!("class=\"f-{}\"", cls(colour))
        } else {
            format!(
                "class=\"f-{}\" fill-opacity=\"{:.2}\"",
                cls(colour),
                f32::from(alpha) / 255.0
            )
        };
        self.circle(c, r, &attrs);
    }

    /// A ring of a palette colour centred on radius `r`.
    fn ring(&mut self, c: (f32, f32), r: f32, width: f32, colour: &str, alpha: u8) {
        let mut attrs = format!("class=\"s-{}\" stroke-width=\"", cls(colour));
        num(&mut attrs, width);
        attrs.push('"');
        if alpha != 255 {
            let _ = write!(attrs, " stroke-opacity=\"{:.2}\"", f32::from(alpha) / 255.0);
        }
        self.circle(c, r, &attrs);
    }

    fn line(&mut self, a: (f32, f32), b: (f32, f32), width: f32, colour: &str, extra: &str) {
        self.out.push_str("<line x1=\"");
        num(&mut self.out, a.0);
        self.out.push_str("\" y1=\"");
        num(&mut self.out, a.1);
        self.out.push_str("\" x2=\"");
        num(&mut self.out, b.0);
        self.out.push_str("\" y2=\"");
        num(&mut self.out, b.1);
        let _ = write!(
            self.out,
            "\" class=\"s-{}\" stroke-linecap=\"round\" stroke-width=\"",
            cls(colour)
        );
        num(&mut self.out, width);
        let _ = write!(self.out, "\"{extra}/>");
    }

    /// An arrow from `a` to its tip `b`, as `Canvas::arrow` draws it.
    fn arrow(&mut self, a: (f32, f32), b: (f32, f32), width: f32, head: f32, colour: &str) {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let len = (dx * dx + dy * dy).sqrt();
        if len < 1e-3 {
            return;
        }
        let (ux, uy) = (dx / len, dy / len);
        let base = (b.0 - ux * head, b.1 - uy * head);
        self.line(a, (base.0 + ux, base.1 + uy), width, colour, "");
        let w = head * 0.62;
        self.polygon(
            &[
                b,
                (base.0 - uy * w, base.1 + ux * w),
                (base.0 + uy * w, base.1 - ux * w),
            ],
            &format!("class=\"f-{}\"", cls(colour)),
        );
    }

    /// A rounded rectangle; `class` names its fill and stroke.
    fn rect(&mut self, (x, y, w, h): (f32, f32, f32, f32), radius: f32, attrs: &str) {
        self.out.push_str("<rect x=\"");
        num(&mut self.out, x);
        self.out.push_str("\" y=\"");
        num(&mut self.out, y);
        self.out.push_str("\" width=\"");
        num(&mut self.out, w.max(0.0));
        self.out.push_str("\" height=\"");
        num(&mut self.out, h.max(0.0));
        self.out.push_str("\" rx=\"");
        num(&mut self.out, radius);
        let _ = write!(self.out, "\" {attrs}/>");
    }

    /// Text with its baseline at `y`; `anchor` is `start`, `middle` or `end`.
    fn text(&mut self, at: (f32, f32), size: f32, attrs: &str, anchor: &str, s: &str) {
        self.out.push_str("<text x=\"");
        num(&mut self.out, at.0);
        self.out.push_str("\" y=\"");
        num(&mut self.out, at.1);
        self.out.push_str("\" font-size=\"");
        num(&mut self.out, size);
        let _ = write!(self.out, "\" {attrs}");
        if anchor != "start" {
            let _ = write!(self.out, " text-anchor=\"{anchor}\"");
        }
        self.out.push('>');
        escape(&mut self.out, s);
        self.out.push_str("</text>");
    }

    /// The hit areas, one per target cell, over everything else.
    fn targets(
        &mut self,
        targets: &[Hex],
        centre: impl Fn(Hex) -> (f32, f32),
        name: fn(Hex) -> String,
    ) {
        let unique: BTreeSet<Hex> = targets.iter().copied().collect();
        for h in unique {
            let _ = write!(
                self.out,
                "<g class=\"cell target\" data-cell=\"{},{}\"><title>",
                h.q, h.r
            );
            escape(&mut self.out, &name(h));
            self.out.push_str("</title>");
            self.use_at("t", centre(h), "");
            self.out.push_str("</g>");
        }
    }

    fn finish(mut self) -> String {
        self.out.push_str("</svg>");
        self.out
    }
}

/// A hexagon of circumradius `radius` centred on the origin, pointy side up, as the layouts draw
/// cells.
fn hexagon(radius: f32) -> Vec<(f32, f32)> {
    (0..6)
        .map(|i| {
            let a = std::f32::consts::PI / 180.0 * (60.0 * i as f32 - 90.0);
            (radius * a.cos(), radius * a.sin())
        })
        .collect()
}

/// The header: a card per player (their piece, name, what they hold, a badge), the figure
/// between them (the EXXIT tile supply) and the status line.
/// Paints a small piece of a colour: (picture, centre, radius, colour).
type Icon<'a> = &'a dyn Fn(&mut Svg, (f32, f32), f32, Colour);

fn header(svg: &mut Svg, w: f32, h: &Header, icon: Icon) {
    let card_w = card_width(w, h.centre.is_some());
    let top = CARD_TOP;
    for col in Colour::BOTH {
        let x = card_x(w, card_w, col);
        let active = h.outcome.is_none() && h.to_move == col;
        let winner = h.outcome.is_some_and(|o| o.winner == Some(col));
        let edge = if active {
            "class=\"f-panel s-last\" stroke-width=\"3\""
        } else if winner {
            "class=\"f-panel s-win\" stroke-width=\"3\""
        } else {
            "class=\"f-panel s-panel-edge\" stroke-width=\"1.5\""
        };
        svg.rect((x, top, card_w, CARD_H), 12.0, edge);
        icon(svg, (x + 38.0, top + CARD_H / 2.0), 22.0, col);
        let badge = if active {
            Some((tr(h.lang, "render-badge-to-move"), "last"))
        } else if winner {
            Some((tr(h.lang, "render-badge-winner"), "win"))
        } else if h.outcome.is_some_and(|o| o.winner.is_none()) {
            Some((tr(h.lang, "render-badge-draw"), "text_dim"))
        } else {
            None
        };
        let mut text_right = x + card_w - 14.0;
        if let Some((label, colour)) = badge {
            let bw = text_width(FontKind::Bold, 13.0, &label) + 18.0;
            let bx = x + card_w - 12.0 - bw;
            svg.rect(
                (bx, top + 12.0, bw, 24.0),
                12.0,
                &format!("class=\"f-{}\"", cls(colour)),
            );
            svg.text(
                (bx + bw / 2.0, centred_baseline(13.0, top + 24.0)),
                13.0,
                "class=\"b f-contrast\"",
                "middle",
                &label,
            );
            text_right = bx - 8.0;
        }
        let tx = x + 72.0;
        let name = h.players[col.index()].trim();
        let name = if name.is_empty() {
            colour_title(h.lang, h.kind, col)
        } else {
            name.to_string()
        };
        let name = fit_text(FontKind::Bold, 22.0, &name, text_right - tx);
        svg.text((tx, top + 33.0), 22.0, "class=\"b f-text\"", "start", &name);
        let stats = text!(
            "render-stats",
            colour = colour_title(h.lang, h.kind, col),
            stats = &h.stats[col.index()]
        )
        .render(h.lang);
        let stats = fit_text(FontKind::Regular, 16.0, &stats, x + card_w - 14.0 - tx);
        svg.text(
            (tx, top + 62.0),
            16.0,
            "class=\"f-text-dim\"",
            "start",
            &stats,
        );
    }
    if let Some((label, value)) = &h.centre {
        let cx = w / 2.0;
        svg.text(
            (cx, top + 26.0),
            12.0,
            "class=\"b f-text-dim\"",
            "middle",
            label,
        );
        svg.text(
            (cx, top + 62.0),
            30.0,
            "class=\"b f-text\"",
            "middle",
            value,
        );
    }
    let status = status_text(h);
    let colour = if h.outcome.is_some() { "win" } else { "text" };
    let _ = write!(
        svg.out,
        "<text x=\"{}\" y=\"{}\" font-size=\"19\" text-anchor=\"middle\"><tspan class=\"b f-{colour}\">",
        w / 2.0,
        top + CARD_H + 30.0
    );
    escape(&mut svg.out, &status);
    svg.out.push_str("</tspan>");
    if !h.caption.is_empty() {
        svg.out.push_str("<tspan class=\"f-text-dim\"> · ");
        escape(&mut svg.out, h.caption);
        svg.out.push_str("</tspan>");
    }
    svg.out.push_str("</text>");
}

// ---------------------------------------------------------------------------------------------
// inpHeXion

fn inphexion_disc(svg: &mut Svg, c: (f32, f32), r: f32, piece: inphexion::Piece) {
    use inphexion::Piece;
    svg.disc((c.0, c.1 + r * 0.10), r * 1.02, "contrast", 70);
    match piece {
        Piece::White => {
            svg.disc(c, r, "white_rim", 255);
            svg.disc(c, r - (r * 0.09).max(1.5), "white_disc", 255);
        }
        Piece::Black => {
            svg.disc(c, r, "black_rim", 255);
            svg.disc(c, r - (r * 0.07).max(1.2), "black_disc", 255);
            svg.ring(c, r * 0.72, (r * 0.07).max(1.0), "white_disc", 50);
            svg.disc((c.0 - r * 0.34, c.1 - r * 0.36), r * 0.22, "white_disc", 60);
        }
        Piece::Neutral => {
            svg.disc(c, r, "neutral_rim", 255);
            svg.disc(c, r - (r * 0.09).max(1.5), "neutral_disc", 255);
            let k = r * 0.5;
            let w = (r * 0.14).max(1.5);
            svg.line((c.0 - k, c.1), (c.0 + k, c.1), w, "white_disc", "");
            svg.line((c.0, c.1 - k), (c.0, c.1 + k), w, "white_disc", "");
        }
    }
}

fn inphexion_piece(col: Colour) -> inphexion::Piece {
    match col {
        Colour::First => inphexion::Piece::White,
        Colour::Second => inphexion::Piece::Black,
    }
}

/// A ring in the last-move colour with a contrasting edge.
fn mark_ring(svg: &mut Svg, at: (f32, f32), radius: f32, width: f32) {
    svg.ring(at, radius, width + 3.0, "contrast", 200);
    svg.ring(at, radius, width, "last", 255);
}

pub(super) fn inphexion_svg(view: &inphexion::View, targets: &[Hex]) -> String {
    use inphexion::layout::{frame, layout_below, BAND, LABEL_ROOM};
    use inphexion::LastMove;
    let l = layout_below(view, HEADER_H);
    let (n, r) = (l.n, l.r);
    let header_words = view.header();
    let mut svg = Svg::new(
        l.width,
        l.height,
        "inphexion",
        r,
        &status_text(&header_words),
    );
    let line = (r * 0.07).max(1.2);
    svg.out.push_str("<defs>");
    // One polygon for a cell: its fill reaches r − line, its edge r + 0.3 (the PNG's two hexagons).
    let mut attrs = String::from("stroke-width=\"");
    num(&mut attrs, line + 0.3);
    attrs.push('"');
    svg.def("c", &hexagon(r - (line - 0.3) / 2.0), &attrs);
    svg.def("t", &hexagon(r), "");
    svg.out.push_str("</defs>");
    header(
        &mut svg,
        l.width as f32,
        &header_words,
        &|s, c, rad, col| inphexion_disc(s, c, rad, inphexion_piece(col)),
    );
    // Edge bands: White's top and bottom, Black's left and right.
    let f = frame(n);
    let to_px = |pt: &(f32, f32)| (l.ox + pt.0 * r, l.oy + pt.1 * r);
    for (i, region) in f.regions.iter().enumerate() {
        let pts: Vec<(f32, f32)> = region.iter().map(to_px).collect();
        let class = if i % 2 == 0 {
            "class=\"f-white-edge\""
        } else {
            "class=\"f-black-edge\""
        };
        svg.polygon(&pts, class);
    }
    let outline: Vec<(f32, f32)> = [
        &f.regions[0][2],
        &f.regions[0][3],
        &f.regions[1][2],
        &f.regions[2][2],
        &f.regions[2][3],
        &f.regions[3][2],
    ]
    .iter()
    .map(|pt| to_px(pt))
    .collect();
    svg.polygon(&outline, "class=\"s-board-outline\" stroke-width=\"1.5\"");
    svg.out.push_str("<g class=\"f-cell s-cell-line\">");
    for row in 0..n {
        for col in 0..n {
            svg.use_at("c", l.centre(Hex::new(col, row)), "");
        }
    }
    svg.out.push_str("</g>");
    // Coordinates: letters above and below, numbers left and right.
    let size = (r * 0.5).clamp(20.0, 24.0);
    let d = (1.0 + BAND) * r;
    svg.out
        .push_str("<g class=\"b f-text-dim\" text-anchor=\"middle\">");
    for col in 0..n {
        let letter = inphexion::cell_name(Hex::new(col, 0))
            .chars()
            .next()
            .map(String::from)
            .unwrap_or_default();
        let (x, y) = l.centre(Hex::new(col, 0));
        let top = (x, centred_baseline(size, y - d - LABEL_ROOM * 0.5));
        svg.text(top, size, "", "start", &letter);
        let (x, y) = l.centre(Hex::new(col, n - 1));
        let bottom = (x, centred_baseline(size, y + d + LABEL_ROOM * 0.5));
        svg.text(bottom, size, "", "start", &letter);
    }
    for row in 0..n {
        let label = (row + 1).to_string();
        let gap = d / 0.866_025_4 + LABEL_ROOM * 0.5;
        let (x, y) = l.centre(Hex::new(0, row));
        svg.text(
            (x - gap, centred_baseline(size, y)),
            size,
            "",
            "start",
            &label,
        );
        let (x, y) = l.centre(Hex::new(n - 1, row));
        svg.text(
            (x + gap, centred_baseline(size, y)),
            size,
            "",
            "start",
            &label,
        );
    }
    svg.out.push_str("</g>");
    // The won chain, the discs, the last move.
    let chain = &view.winning_chain;
    for (i, a) in chain.iter().enumerate() {
        for b in &chain[i + 1..] {
            if a.is_adjacent(*b) {
                svg.line(l.centre(*a), l.centre(*b), r * 0.42, "win", "");
            }
        }
    }
    let dr = l.disc();
    for row in 0..n {
        for col in 0..n {
            let h = Hex::new(col, row);
            if let Some(piece) = view.get(h) {
                inphexion_disc(&mut svg, l.centre(h), dr, piece);
            }
        }
    }
    for h in chain {
        svg.ring(l.centre(*h), dr + r * 0.10, r * 0.16, "win", 255);
    }
    let ring_r = dr + r * 0.10;
    let ring_w = (r * 0.12).max(2.5);
    match &view.last {
        None | Some(LastMove::Swap) => {}
        Some(LastMove::Placement(h)) => mark_ring(&mut svg, l.centre(*h), ring_r, ring_w),
        Some(LastMove::Regular {
            from,
            to,
            relocations,
        }) => {
            for (src, dst) in relocations {
                let a = l.centre(*src);
                let b = l.centre(*dst);
                let ghost = dr * 0.85;
                // Sixteen arcs, every other one drawn: dashes of an eighth of the circle.
                let dash = std::f32::consts::TAU * ghost / 16.0;
                let mut dashes = String::from(" stroke-dasharray=\"");
                num(&mut dashes, dash);
                dashes.push_str("\" fill=\"none\"");
                let mut a_attrs =
                    format!("class=\"s-contrast\" stroke-opacity=\".63\"{dashes} stroke-width=\"");
                num(&mut a_attrs, ring_w * 0.8 + 2.0);
                a_attrs.push('"');
                svg.circle(a, ghost, &a_attrs);
                let mut b_attrs = format!("class=\"s-last\"{dashes} stroke-width=\"");
                num(&mut b_attrs, ring_w * 0.8);
                b_attrs.push('"');
                svg.circle(a, ghost, &b_attrs);
                let (dx, dy) = (b.0 - a.0, b.1 - a.1);
                let len = (dx * dx + dy * dy).sqrt().max(1e-3);
                let (ux, uy) = (dx / len, dy / len);
                let start = (a.0 + ux * ghost, a.1 + uy * ghost);
                let end = (b.0 - ux * (ring_r + ring_w), b.1 - uy * (ring_r + ring_w));
                let w = (r * 0.08).max(2.0);
                let mut dash_attrs = String::from(" stroke-dasharray=\"");
                num(&mut dash_attrs, r * 0.3);
                dash_attrs.push(' ');
                num(&mut dash_attrs, r * 0.2);
                dash_attrs.push('"');
                svg.line(
                    start,
                    end,
                    w + 2.5,
                    "contrast",
                    &format!("{dash_attrs} stroke-opacity=\".67\""),
                );
                svg.line(start, end, w, "last", &dash_attrs);
                svg.arrow(
                    (end.0 - ux * r * 0.4, end.1 - uy * r * 0.4),
                    end,
                    w,
                    r * 0.36,
                    "last",
                );
                mark_ring(&mut svg, b, ring_r, ring_w * 0.8);
            }
            let a = l.centre(*from);
            let b = l.centre(*to);
            mark_ring(&mut svg, a, ring_r, ring_w);
            let (dx, dy) = (b.0 - a.0, b.1 - a.1);
            let len = (dx * dx + dy * dy).sqrt().max(1e-3);
            let (ux, uy) = (dx / len, dy / len);
            let start = (a.0 + ux * dr * 0.15, a.1 + uy * dr * 0.15);
            let end = (b.0 - ux * dr * 0.1, b.1 - uy * dr * 0.1);
            let w = (r * 0.14).max(3.0);
            svg.arrow(start, end, w + 3.5, r * 0.5 + 3.0, "contrast");
            svg.arrow(start, end, w, r * 0.5, "last");
        }
    }
    svg.targets(targets, |h| l.centre(h), inphexion::cell_name);
    svg.finish()
}

mod exxit_board;
pub(super) use exxit_board::exxit_svg;

#[cfg(test)]
mod tests;
