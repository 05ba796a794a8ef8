//! EXXIT pictures: the world of tiles cropped to its extent with outer space around it, stacks
//! as layered discs showing their height, every nameable cell labelled `q,r`, and the last move.
//! The cell labels are small, so the coordinates are also written large (20–24 px, legible on a
//! phone) on the rim, in a ring of cells beyond outer space, like the axes of a chart: each row of
//! equal `r` is named left of it (`r-2`), each diagonal of equal `q` (running down to the right,
//! marked by a tick) below it (`q1`), or at their other ends where that side is crowded; the cell
//! `1,-2` is where diagonal `q1` crosses row `r-2`.

use std::collections::{BTreeMap, BTreeSet};

use image::RgbaImage;

use super::canvas::{centred_baseline, text_width, Align, Canvas, FontKind, PictureCache, Rgb8A};
use super::header::{draw_header, Header, HEADER_H, MARGIN};
use super::{Palette, Theme};
use crate::games::{Colour, GameKind, Outcome};
use crate::hex::Hex;
use crate::i18n::Lang;
use crate::text;

/// The move that led to the position shown.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum LastMove {
    /// A dance of destruction (X12): the stack left `from`; its discs landed on `landings`, in
    /// order (the last may be an outer-space cell, X14).
    Dance {
        from: Hex,
        landings: Vec<Hex>,
    },
    /// An expansion (X16, or an expert setup tile): the cells that became tiles, the picked one
    /// first, then the chain.
    Expand {
        cells: Vec<Hex>,
    },
    /// A disc placed from hand (X17).
    Place(Hex),
    Pass,
    Swap,
}

/// Everything an EXXIT picture shows. Tests and adapters build it by hand.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct View {
    /// The world: each tile and its colour (First = silver, Second = red).
    pub tiles: Vec<(Hex, Colour)>,
    /// Stacks, each listed bottom to top (X3). Stacks off the tiles stand in outer space.
    pub stacks: Vec<(Hex, Vec<Colour>)>,
    /// Discs in hand, by colour index (silver, red).
    pub hands: [u32; 2],
    /// Tiles left in the supply.
    pub supply: u32,
    /// Current score by colour index (X20).
    pub score: [u32; 2],
    pub to_move: Colour,
    pub outcome: Option<Outcome>,
    /// Player names by colour index (silver, red).
    pub players: [String; 2],
    pub last: Option<LastMove>,
    /// The last move in words for the status line (may be empty).
    pub caption: String,
    /// The language of the words drawn (English by default).
    pub lang: Lang,
}

impl Default for View {
    /// An empty world (the expert setup before its first tile), Silver to move.
    fn default() -> View {
        View {
            tiles: Vec::new(),
            stacks: Vec::new(),
            hands: [8, 8],
            supply: 39,
            score: [0, 0],
            to_move: Colour::First,
            outcome: None,
            players: [String::new(), String::new()],
            last: None,
            caption: String::new(),
            lang: Lang::EN,
        }
    }
}

impl View {
    /// The empty outer-space cells and stacks' cells without a tile: every cell without a tile
    /// that touches the world (X2), in order.
    pub fn outer_space(&self) -> Vec<Hex> {
        let tiles: BTreeSet<Hex> = self.tiles.iter().map(|t| t.0).collect();
        let mut out = BTreeSet::new();
        for t in &tiles {
            for n in t.neighbours() {
                if !tiles.contains(&n) {
                    out.insert(n);
                }
            }
        }
        out.into_iter().collect()
    }
}

/// Minimum picture width in pixels (wider only for very long worlds).
pub const MIN_WIDTH: u32 = 900;
/// Maximum picture width in pixels.
pub const MAX_WIDTH: u32 = 1400;
const MAX_R: f32 = 50.0;
const MIN_R: f32 = 17.0;
const MAX_BOARD_H: f32 = 860.0;
const SQRT3: f32 = 1.732_050_8;
/// Below this hex radius, rim labels of neighbouring diagonals cannot stand side by side.
const CROWDED_R: f32 = 34.0;
/// Stack layers drawn at most; the written height tells the rest.
const MAX_LAYERS: usize = 6;

fn unit(h: Hex) -> (f32, f32) {
    (SQRT3 * (h.q as f32 + h.r as f32 / 2.0), 1.5 * h.r as f32)
}

/// The part of the plane a picture shows, in units of the hex radius.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Extent {
    min: (f32, f32),
    max: (f32, f32),
}

impl Extent {
    /// The extent of one view: its tiles, outer space, stacks and last move.
    pub fn of(view: &View) -> Extent {
        let mut cells: Vec<Hex> = view.tiles.iter().map(|t| t.0).collect();
        cells.extend(view.outer_space());
        cells.extend(view.stacks.iter().map(|s| s.0));
        match &view.last {
            Some(LastMove::Dance { from, landings }) => {
                cells.push(*from);
                cells.extend(landings.iter().copied());
            }
            Some(LastMove::Expand { cells: c }) => cells.extend(c.iter().copied()),
            Some(LastMove::Place(h)) => cells.push(*h),
            _ => {}
        }
        if cells.is_empty() {
            cells.push(Hex::ORIGIN);
        }
        let nameable: Vec<Hex> = view
            .tiles
            .iter()
            .map(|t| t.0)
            .chain(view.outer_space())
            .collect();
        let rim = rim_cells(&nameable);
        cells.extend(rim.iter().map(|(_, _, h)| h[0]));
        let e = Extent::around(&cells);
        if layout(e).r >= CROWDED_R {
            return e;
        }
        // Small cells: the rim labels of neighbouring diagonals need room to alternate between
        // the first and the second cell beyond their ends.
        cells.extend(
            rim.iter()
                .filter(|(line, _, _)| matches!(line, RimLine::Diagonal(_)))
                .map(|(_, _, h)| h[1]),
        );
        Extent::around(&cells)
    }

    fn around(cells: &[Hex]) -> Extent {
        // Keep absurd coordinates from making an absurd picture: clamp to a window.
        let mut e = Extent {
            min: (f32::MAX, f32::MAX),
            max: (f32::MIN, f32::MIN),
        };
        for h in cells {
            let (x, y) = unit(Hex::new(h.q.clamp(-200, 200), h.r.clamp(-200, 200)));
            e.min = (e.min.0.min(x - 0.87), e.min.1.min(y - 1.0));
            e.max = (e.max.0.max(x + 0.87), e.max.1.max(y + 1.0));
        }
        e
    }

    /// The smallest extent holding both.
    pub fn union(self, other: Extent) -> Extent {
        Extent {
            min: (self.min.0.min(other.min.0), self.min.1.min(other.min.1)),
            max: (self.max.0.max(other.max.0), self.max.1.max(other.max.1)),
        }
    }
}

/// Pixel geometry of a picture.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Layout {
    pub r: f32,
    pub ox: f32,
    pub oy: f32,
    pub width: u32,
    pub height: u32,
}

pub(crate) fn layout(e: Extent) -> Layout {
    let ext_w = (e.max.0 - e.min.0).max(1.0);
    let ext_h = (e.max.1 - e.min.1).max(1.0);
    let fit = ((MIN_WIDTH as f32 - 2.0 * MARGIN) / ext_w)
        .min(MAX_BOARD_H / ext_h)
        .clamp(MIN_R, MAX_R);
    // Never wider than the maximum width nor absurdly tall, even for absurd worlds.
    let r = fit
        .min((MAX_WIDTH as f32 - 2.0 * MARGIN) / ext_w)
        .min(2.0 * MAX_BOARD_H / ext_h)
        .max(1.0);
    let width = ((ext_w * r + 2.0 * MARGIN).ceil() as u32).clamp(MIN_WIDTH, MAX_WIDTH);
    let board_h = ext_h * r;
    let height = (HEADER_H as f32 + board_h + 2.0 * MARGIN).ceil() as u32;
    let ox = (width as f32 - ext_w * r) / 2.0 - e.min.0 * r;
    let oy = HEADER_H as f32 + MARGIN - e.min.1 * r;
    Layout {
        r,
        ox,
        oy,
        width,
        height,
    }
}

impl Layout {
    pub fn centre(&self, h: Hex) -> (f32, f32) {
        let (x, y) = unit(h);
        (self.ox + x * self.r, self.oy + y * self.r)
    }

    fn hexagon(&self, h: Hex, radius: f32) -> Vec<(f32, f32)> {
        let (cx, cy) = self.centre(h);
        hexagon_at(cx, cy, radius)
    }

    /// Disc radius.
    pub fn disc(&self) -> f32 {
        self.r * 0.56
    }

    /// Vertical lift per stacked disc.
    fn layer(&self) -> f32 {
        (self.r * 0.085).max(2.0)
    }

    /// Centre of the top face of a stack of `h` discs.
    pub fn top_face(&self, at: Hex, h: usize) -> (f32, f32) {
        let (x, y) = self.centre(at);
        let shown = h.clamp(1, MAX_LAYERS);
        (x, y - self.r * 0.12 - (shown - 1) as f32 * self.layer())
    }

    /// The baseline centre and size of a cell's `q,r` label.
    fn label(&self, at: Hex) -> (f32, f32, f32) {
        let (x, y) = self.centre(at);
        let size = (self.r * 0.25).clamp(9.0, 13.0);
        (x, centred_baseline(size, y + self.r * 0.66), size)
    }
}

fn hexagon_at(cx: f32, cy: f32, radius: f32) -> Vec<(f32, f32)> {
    (0..6)
        .map(|i| {
            let a = std::f32::consts::PI / 180.0 * (60.0 * i as f32 - 90.0);
            (cx + radius * a.cos(), cy + radius * a.sin())
        })
        .collect()
}

fn disc_colours(p: &Palette, c: Colour) -> (Rgb8A, Rgb8A, Rgb8A) {
    match c {
        Colour::First => (p.silver_disc, p.silver_rim, p.label_on_silver),
        Colour::Second => (p.red_disc, p.red_rim, p.label_on_red),
    }
}

/// One disc seen from above, slightly tilted: a rim then a face.
fn paint_disc(c: &mut Canvas, p: &Palette, cx: f32, cy: f32, r: f32, col: Colour) {
    let (face, rim, _) = disc_colours(p, col);
    c.fill_circle(cx, cy, r, rim);
    c.fill_circle(cx, cy, r - (r * 0.10).max(1.5), face);
    c.ring(
        cx,
        cy,
        r * 0.68,
        (r * 0.06).max(1.0),
        Rgb8A { a: 70, ..rim },
    );
}

/// A stack: the lower discs show as edges below the top one, the top shows the height.
fn paint_stack(c: &mut Canvas, p: &Palette, l: &Layout, at: Hex, discs: &[Colour]) {
    if discs.is_empty() {
        return;
    }
    let (x, y) = l.centre(at);
    let r = l.disc();
    let shown = &discs[discs.len().saturating_sub(MAX_LAYERS)..];
    // Shadow.
    c.fill_circle(
        x,
        y + r * 0.12 - l.r * 0.12,
        r * 1.04,
        Rgb8A {
            a: 80,
            ..p.contrast
        },
    );
    for (i, col) in shown.iter().enumerate() {
        let cy = y - l.r * 0.12 - i as f32 * l.layer();
        let (face, rim, _) = disc_colours(p, *col);
        c.fill_circle(x, cy, r, rim);
        if i + 1 < shown.len() {
            // Side band of a lower disc: its own colour, outlined by the rim.
            c.fill_circle(x, cy, r - (r * 0.10).max(1.5), face);
        }
    }
    let (tx, ty) = l.top_face(at, discs.len());
    let top = discs[discs.len() - 1];
    paint_disc(c, p, tx, ty, r, top);
    if discs.len() > 1 {
        let (_, _, ink) = disc_colours(p, top);
        let label = discs.len().to_string();
        let size = if label.len() > 1 { r * 0.82 } else { r * 0.95 };
        c.text(
            FontKind::Bold,
            size,
            tx,
            centred_baseline(size, ty),
            Align::Centre,
            &label,
            ink,
        );
    }
}

/// A label box drawn on the picture: the cell and its pixel rectangle (left, top, right, bottom).
pub(crate) type LabelBox = (Hex, (f32, f32, f32, f32));

/// Draws an EXXIT position, cropped to its own extent.
pub fn draw(view: &View, theme: Theme) -> RgbaImage {
    draw_in(view, theme, Extent::of(view)).0
}

/// Draws a sequence of positions on one common frame (for replays: the world does not jump).
pub fn draw_sequence(views: &[View], theme: Theme) -> Vec<RgbaImage> {
    let Some(first) = views.first() else {
        return Vec::new();
    };
    let e = views
        .iter()
        .skip(1)
        .fold(Extent::of(first), |e, v| e.union(Extent::of(v)));
    views.iter().map(|v| draw_in(v, theme, e).0).collect()
}

pub(crate) fn draw_in(view: &View, theme: Theme, e: Extent) -> (RgbaImage, Vec<LabelBox>) {
    let p = theme.palette();
    let l = layout(e);
    let tiles: BTreeMap<Hex, Colour> = view.tiles.iter().copied().collect();
    let space = view.outer_space();
    // The tiles and outer space change only with expansions, so successive positions of a game
    // share them; they lie below the header.
    static WORLDS: PictureCache<WorldKey> = PictureCache::new();
    let key = WorldKey {
        theme,
        size: (l.width, l.height),
        frame: [l.r.to_bits(), l.ox.to_bits(), l.oy.to_bits()],
        tiles: tiles.iter().map(|(h, c)| (*h, *c)).collect(),
    };
    let base = WORLDS.get_or_draw(key, || {
        let mut c = Canvas::new(l.width, l.height, p.bg);
        draw_tiles(&mut c, p, &l, &tiles, &space);
        c.img
    });
    let mut c = Canvas::from_image(base);
    let header = Header {
        kind: GameKind::Exxit,
        players: [&view.players[0], &view.players[1]],
        stats: [
            text!(
                "render-hand-score",
                hand = view.hands[0],
                score = view.score[0]
            )
            .render(view.lang),
            text!(
                "render-hand-score",
                hand = view.hands[1],
                score = view.score[1]
            )
            .render(view.lang),
        ],
        to_move: view.to_move,
        outcome: view.outcome,
        centre: Some((
            crate::i18n::tr(view.lang, "render-supply"),
            view.supply.to_string(),
        )),
        caption: &view.caption,
        lang: view.lang,
    };
    draw_header(&mut c, p, &header, &|c, x, y, r, col| {
        paint_disc(c, p, x, y, r * 0.95, col)
    });
    let labels = draw_world(&mut c, p, &l, view, &tiles, &space);
    (c.img, labels)
}

/// Which line of cells a rim label names.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum RimLine {
    /// The cells `q,r` of this `r`.
    Row(i32),
    /// The cells `q,r` of this `q`.
    Diagonal(i32),
}

impl RimLine {
    fn letter(self) -> &'static str {
        match self {
            RimLine::Row(_) => "r",
            RimLine::Diagonal(_) => "q",
        }
    }

    fn number(self) -> i32 {
        match self {
            RimLine::Row(n) | RimLine::Diagonal(n) => n,
        }
    }
}

/// A rim label: the line it names, its size, the baseline of its left end, and the box it covers
/// (left, top, right, bottom).
#[derive(Clone, Copy, PartialEq, Debug)]
pub(crate) struct RimLabel {
    pub line: RimLine,
    pub size: f32,
    pub at: (f32, f32),
    pub bounds: (f32, f32, f32, f32),
    /// The cell it stands on.
    pub cell: Hex,
    /// The cell at the end of the line it names, next to it.
    pub end: Hex,
}

/// Where the labels of every row and diagonal of `nameable` cells may go, in order of choice:
/// each line, the cell at its end, and the cells just beyond that end and the next one out.
/// Diagonals are named below their lower end and rows left of their left end, like the axes of
/// a chart; a line crowded out there is named at its other end.
fn rim_cells(nameable: &[Hex]) -> Vec<(RimLine, Hex, [Hex; 2])> {
    let mut rows: BTreeMap<i32, (i32, i32)> = BTreeMap::new();
    let mut diagonals: BTreeMap<i32, (i32, i32)> = BTreeMap::new();
    for h in nameable {
        let e = rows.entry(h.r).or_insert((h.q, h.q));
        *e = (e.0.min(h.q), e.1.max(h.q));
        let e = diagonals.entry(h.q).or_insert((h.r, h.r));
        *e = (e.0.min(h.r), e.1.max(h.r));
    }
    let mut out = Vec::with_capacity(2 * (rows.len() + diagonals.len()));
    for (&q, &(_, hi)) in &diagonals {
        let end = Hex::new(q, hi);
        out.push((
            RimLine::Diagonal(q),
            end,
            [Hex::new(q, hi + 1), Hex::new(q, hi + 2)],
        ));
    }
    for (&r, &(lo, _)) in &rows {
        let end = Hex::new(lo, r);
        out.push((
            RimLine::Row(r),
            end,
            [Hex::new(lo - 1, r), Hex::new(lo - 2, r)],
        ));
    }
    for (&q, &(lo, _)) in &diagonals {
        let end = Hex::new(q, lo);
        out.push((
            RimLine::Diagonal(q),
            end,
            [Hex::new(q, lo - 1), Hex::new(q, lo - 2)],
        ));
    }
    for (&r, &(_, hi)) in &rows {
        let end = Hex::new(hi, r);
        out.push((
            RimLine::Row(r),
            end,
            [Hex::new(hi + 1, r), Hex::new(hi + 2, r)],
        ));
    }
    out
}

/// The rim labels of a world, laid out: each line takes the first of its cells (see
/// [`rim_cells`]) where the label fits in the picture without overlapping one already placed.
pub(crate) fn rim_labels(
    l: &Layout,
    tiles: &BTreeMap<Hex, Colour>,
    space: &[Hex],
) -> Vec<RimLabel> {
    let nameable: Vec<Hex> = tiles.keys().chain(space.iter()).copied().collect();
    // At least 20 px: a 900 px picture shows about 360 px wide on a phone.
    let size = (l.r * 0.45).clamp(20.0, 24.0);
    let small = size * 0.7;
    // The cells' own labels (see `draw_world`) are in the way too.
    let taken: Vec<(f32, f32, f32, f32)> = nameable
        .iter()
        .map(|h| {
            let (x, y, size) = l.label(*h);
            let w = text_width(FontKind::Regular, size, &h.to_string());
            (
                x - w / 2.0 - 2.0,
                y - size,
                x + w / 2.0 + 2.0,
                y + size * 0.3,
            )
        })
        .collect();
    let mut placed: Vec<RimLabel> = Vec::new();
    for (line, end, cells) in rim_cells(&nameable) {
        if placed.iter().any(|p| p.line == line) {
            continue;
        }
        let number = line.number().to_string();
        let w_letter = text_width(FontKind::Regular, small, line.letter());
        let w = w_letter + 1.0 + text_width(FontKind::Bold, size, &number);
        let cap = size * 0.73;
        for h in cells {
            let (cx, cy) = l.centre(h);
            let baseline = centred_baseline(size, cy);
            let bounds = (
                cx - w / 2.0,
                baseline - cap - 2.0,
                cx + w / 2.0,
                baseline + 2.0,
            );
            let inside = bounds.0 >= 0.0
                && bounds.2 <= l.width as f32
                && bounds.1 >= HEADER_H as f32
                && bounds.3 <= l.height as f32;
            let apart = |o: &RimLabel| {
                let b = o.bounds;
                bounds.2 + 6.0 <= b.0
                    || b.2 + 6.0 <= bounds.0
                    || bounds.3 + 2.0 <= b.1
                    || b.3 + 2.0 <= bounds.1
            };
            let clear = |b: &(f32, f32, f32, f32)| {
                bounds.2 <= b.0 || b.2 <= bounds.0 || bounds.3 <= b.1 || b.3 <= bounds.1
            };
            if inside && placed.iter().all(apart) && taken.iter().all(clear) {
                placed.push(RimLabel {
                    line,
                    size,
                    at: (cx - w / 2.0, baseline),
                    bounds,
                    cell: h,
                    end,
                });
                break;
            }
        }
    }
    placed
}

/// Draws a rim label: the coordinate's letter small, its value large; a diagonal's label has a
/// short tick pointing along the diagonal.
fn draw_rim_label(c: &mut Canvas, p: &Palette, l: &Layout, label: &RimLabel) {
    if let RimLine::Diagonal(_) = label.line {
        let (x0, y0) = l.centre(label.cell);
        let (x1, y1) = l.centre(label.end);
        let len = ((x1 - x0).powi(2) + (y1 - y0).powi(2)).sqrt().max(1.0);
        let (ux, uy) = ((x1 - x0) / len, (y1 - y0) / len);
        let (a, b) = (l.r * 0.62, l.r * 0.95);
        c.line(
            (x0 + ux * a, y0 + uy * a),
            (x0 + ux * b, y0 + uy * b),
            2.0,
            p.text_dim,
        );
    }
    let small = label.size * 0.7;
    let (x, y) = label.at;
    let letter = c.text(
        FontKind::Regular,
        small,
        x,
        y,
        Align::Left,
        label.line.letter(),
        p.text_dim,
    );
    c.text(
        FontKind::Bold,
        label.size,
        letter.2 + 1.0,
        y,
        Align::Left,
        &label.line.number().to_string(),
        p.text_dim,
    );
}

/// What the tiles and outer space of a picture depend on.
#[derive(PartialEq)]
struct WorldKey {
    theme: Theme,
    size: (u32, u32),
    /// The layout's radius and origin, as bits.
    frame: [u32; 3],
    tiles: Vec<(Hex, Colour)>,
}

fn dashed_hexagon(c: &mut Canvas, pts: &[(f32, f32)], w: f32, dash: f32, colour: Rgb8A) {
    for i in 0..pts.len() {
        c.dashed_line(
            pts[i],
            pts[(i + 1) % pts.len()],
            w,
            dash,
            dash * 0.8,
            colour,
        );
    }
}

/// Outer space, the tiles and the rim labels.
fn draw_tiles(
    c: &mut Canvas,
    p: &Palette,
    l: &Layout,
    tiles: &BTreeMap<Hex, Colour>,
    space: &[Hex],
) {
    let r = l.r;
    // Outer space: dark hollows with dashed rims.
    for h in space {
        c.fill_convex(&l.hexagon(*h, r - 2.0), p.space);
        dashed_hexagon(c, &l.hexagon(*h, r - 3.0), 1.5, r * 0.18, p.space_line);
    }
    // Tiles. Red tiles carry an inner border so they differ by pattern, not only by hue.
    let line = (r * 0.07).max(1.2);
    for (h, col) in tiles {
        let (fill, edge) = match col {
            Colour::First => (p.silver_tile, p.silver_tile_line),
            Colour::Second => (p.red_tile, p.red_tile_line),
        };
        c.fill_convex(&l.hexagon(*h, r + 0.3), edge);
        c.fill_convex(&l.hexagon(*h, r - line), fill);
        if *col == Colour::Second {
            let inner = l.hexagon(*h, r * 0.80);
            for i in 0..6 {
                c.line(
                    inner[i],
                    inner[(i + 1) % 6],
                    (r * 0.05).max(1.0),
                    Rgb8A { a: 150, ..edge },
                );
            }
        }
    }
    for label in rim_labels(l, tiles, space) {
        draw_rim_label(c, p, l, &label);
    }
}

/// Everything over the tiles: the last move, labels and stacks. Returns the label boxes.
fn draw_world(
    c: &mut Canvas,
    p: &Palette,
    l: &Layout,
    view: &View,
    tiles: &BTreeMap<Hex, Colour>,
    space: &[Hex],
) -> Vec<LabelBox> {
    let r = l.r;
    let line = (r * 0.07).max(1.2);
    // Expansion: the new tiles outlined.
    if let Some(LastMove::Expand { cells }) = &view.last {
        for (i, h) in cells.iter().enumerate() {
            let pts = l.hexagon(*h, r - line * 2.5);
            let w = if i == 0 { r * 0.13 } else { r * 0.09 };
            for k in 0..6 {
                c.line(
                    pts[k],
                    pts[(k + 1) % 6],
                    w + 3.0,
                    Rgb8A {
                        a: 200,
                        ..p.contrast
                    },
                );
            }
            for k in 0..6 {
                c.line(pts[k], pts[(k + 1) % 6], w, p.last);
            }
        }
    }
    // The dance path goes under the stacks.
    if let Some(LastMove::Dance { from, landings }) = &view.last {
        if let Some(end) = landings.last() {
            let a = l.centre(*from);
            let b = l.centre(*end);
            let (dx, dy) = (b.0 - a.0, b.1 - a.1);
            let len = (dx * dx + dy * dy).sqrt().max(1e-3);
            let (ux, uy) = (dx / len, dy / len);
            let tip = (b.0 + ux * l.disc() * 1.05, b.1 + uy * l.disc() * 1.05);
            let w = (r * 0.16).max(3.0);
            c.arrow(a, tip, w + 4.0, r * 0.5 + 4.0, p.contrast);
            c.arrow(a, tip, w, r * 0.5, p.last);
        }
        // Where the dance started: a dashed ghost.
        let (x, y) = l.centre(*from);
        let ghost = l.disc();
        for i in 0..16 {
            if i % 2 == 0 {
                let t0 = i as f32 / 16.0 * std::f32::consts::TAU;
                let t1 = (i + 1) as f32 / 16.0 * std::f32::consts::TAU;
                c.line(
                    (x + ghost * t0.cos(), y + ghost * t0.sin()),
                    (x + ghost * t1.cos(), y + ghost * t1.sin()),
                    (r * 0.09).max(2.0),
                    p.last,
                );
            }
        }
    }
    // Labels on every nameable cell.
    let mut boxes = Vec::new();
    for h in tiles.keys().chain(space.iter()) {
        let (x, y, size) = l.label(*h);
        let (ink, under) = match tiles.get(h) {
            Some(Colour::First) => (p.label_on_silver, p.silver_tile),
            Some(Colour::Second) => (p.label_on_red, p.red_tile),
            None => (p.label_on_space, p.space),
        };
        let text = h.to_string();
        let w = text_width(FontKind::Regular, size, &text);
        // A backing in the cell's own colour keeps the label clear of arrows and outlines.
        let cap = size * 0.73;
        c.round_rect(
            x - w / 2.0 - 2.0,
            y - cap - 2.5,
            w + 4.0,
            cap + 5.0,
            3.0,
            Rgb8A { a: 220, ..under },
        );
        let b = c.text(FontKind::Regular, size, x, y, Align::Centre, &text, ink);
        boxes.push((*h, (x - w / 2.0, b.1, x + w / 2.0, b.3)));
    }
    // Stacks, back rows first so lifted discs overlap correctly.
    let mut stacks: Vec<&(Hex, Vec<Colour>)> = view.stacks.iter().collect();
    stacks.sort_by_key(|(h, _)| (h.r, h.q));
    for (h, discs) in stacks {
        paint_stack(c, p, l, *h, discs);
    }
    // Rings on the stacks the last move touched.
    let height = |h: Hex| {
        view.stacks
            .iter()
            .find(|s| s.0 == h)
            .map_or(1, |s| s.1.len())
    };
    let ring = |c: &mut Canvas, h: Hex, w: f32| {
        let (x, y) = l.top_face(h, height(h));
        c.ring(
            x,
            y,
            l.disc() + r * 0.08,
            w + 3.0,
            Rgb8A {
                a: 200,
                ..p.contrast
            },
        );
        c.ring(x, y, l.disc() + r * 0.08, w, p.last);
    };
    match &view.last {
        Some(LastMove::Place(h)) => ring(c, *h, (r * 0.11).max(2.5)),
        Some(LastMove::Dance { landings, .. }) => {
            for h in landings {
                ring(c, *h, (r * 0.07).max(2.0));
            }
        }
        _ => {}
    }
    boxes
}

impl View {
    /// The view of an engine position. `last` is the move that led to it with the position it
    /// was played on (needed to know where a dance's discs landed); `players` are by seat:
    /// `players[0]` started with Silver, and after a pie swap (X8) the names follow their new
    /// colours. The caption names the last move.
    pub fn from_position(
        pos: &crate::games::exxit::Position,
        last: Option<(&crate::games::exxit::Position, &crate::games::exxit::Move)>,
        players: &[String; 2],
    ) -> View {
        use crate::games::exxit::Move;
        let mut v = View {
            tiles: pos.tiles().collect(),
            stacks: pos
                .stacks()
                .map(|(h, s)| (h, s.discs().collect()))
                .collect(),
            hands: [pos.hand(Colour::First), pos.hand(Colour::Second)],
            supply: pos.supply(),
            score: pos.score(),
            to_move: pos.to_move(),
            outcome: pos.outcome(),
            players: if pos.swapped() {
                [players[1].clone(), players[0].clone()]
            } else {
                players.clone()
            },
            last: None,
            caption: String::new(),
            lang: Lang::EN,
        };
        if let Some((before, m)) = last {
            v.last = Some(match *m {
                Move::Dance { from, .. } => LastMove::Dance {
                    from,
                    landings: before.effects(m),
                },
                Move::Expand(_) => LastMove::Expand {
                    cells: before.effects(m),
                },
                Move::Place(h) => LastMove::Place(h),
                Move::Pass => LastMove::Pass,
                Move::Swap => LastMove::Swap,
            });
            v.caption = text!("render-last-move", mv = m.to_string()).render(v.lang);
        }
        v
    }
}

/// Hand-built sample views (used by the gallery, the tests and the benchmarks).
pub mod samples {
    use super::*;
    use crate::games::Reason;

    const S: Colour = Colour::First;
    const R: Colour = Colour::Second;

    fn base() -> View {
        View {
            tiles: vec![
                (Hex::new(0, -1), S),
                (Hex::new(1, -1), S),
                (Hex::new(0, 0), R),
                (Hex::new(1, -2), R),
            ],
            stacks: vec![],
            hands: [8, 8],
            supply: 35,
            score: [4, 4],
            to_move: S,
            outcome: None,
            players: ["Alice".to_string(), "Bob".to_string()],
            last: None,
            caption: String::new(),
            lang: Lang::EN,
        }
    }

    /// The standard setup (X5).
    pub fn start() -> View {
        base()
    }

    /// A middle game: a dance that dropped its last discs into outer space.
    pub fn dance() -> View {
        let mut v = base();
        for (q, r, c) in [
            (2, -2, S),
            (2, -1, R),
            (-1, 0, S),
            (-1, 1, R),
            (0, 1, R),
            (1, 0, S),
            (2, -3, S),
            (0, -2, R),
            (-1, -1, S),
            (3, -2, R),
            (1, 1, S),
        ] {
            v.tiles.push((Hex::new(q, r), c));
        }
        v.stacks = vec![
            (Hex::new(0, 0), vec![R, S]),
            (Hex::new(1, -1), vec![S, R, S]),
            (Hex::new(-1, 1), vec![R]),
            (Hex::new(2, -2), vec![R]),
            (Hex::new(3, -1), vec![S, S]),
            (Hex::new(-2, 0), vec![R, R, S]),
        ];
        v.hands = [3, 5];
        v.supply = 24;
        v.score = [12, 9];
        v.to_move = R;
        v.last = Some(LastMove::Dance {
            from: Hex::new(1, 1),
            landings: vec![Hex::new(1, 0), Hex::new(1, -1), Hex::new(1, -2)],
        });
        v.stacks.push((Hex::new(1, 0), vec![S]));
        v.stacks.push((Hex::new(1, -2), vec![S]));
        v.caption = "Move 23: 1,1-1,-1".to_string();
        v
    }

    /// Big stacks: 8 and 16 high, and a stack in outer space.
    pub fn big_stacks() -> View {
        let mut v = dance();
        v.stacks = vec![
            (Hex::new(0, 0), [S, R].repeat(4)),
            (Hex::new(1, -1), [R, R, S, S].repeat(4)),
            (Hex::new(-1, 1), vec![R; 3]),
            (Hex::new(2, -4), vec![S, S, R, R, R]),
            (Hex::new(3, -3), vec![S, R]),
            (Hex::new(1, 0), vec![S]),
        ];
        v.last = Some(LastMove::Place(Hex::new(1, 0)));
        v.caption = "Move 61: 1,0".to_string();
        v.to_move = R;
        v
    }

    /// An expansion whose chain converted three cells.
    pub fn expansion() -> View {
        let mut v = dance();
        v.tiles.push((Hex::new(-2, 1), R));
        v.tiles.push((Hex::new(-2, 0), R));
        v.tiles.push((Hex::new(-2, 2), R));
        v.stacks.retain(|s| s.0 != Hex::new(-2, 0));
        v.stacks.push((Hex::new(-3, 2), vec![S]));
        v.last = Some(LastMove::Expand {
            cells: vec![Hex::new(-2, 1), Hex::new(-2, 0), Hex::new(-2, 2)],
        });
        v.supply = 21;
        v.score = [12, 15];
        v.caption = "Move 24: +-2,1".to_string();
        v.to_move = S;
        v
    }

    /// A full world: all 39 tiles in one blob, discs spread over it and in outer space.
    pub fn full_world() -> View {
        let mut v = base();
        v.tiles.clear();
        let mut seed = 11u32;
        let mut rnd = || {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
            (seed >> 16) % 1000
        };
        // Cells within distance 3 of the origin (37) plus two more.
        for q in -3..=3i32 {
            for r in -3..=3i32 {
                let h = Hex::new(q, r);
                if h.distance(Hex::ORIGIN) <= 3 {
                    v.tiles.push((h, if rnd() % 2 == 0 { S } else { R }));
                }
            }
        }
        v.tiles.push((Hex::new(4, -2), S));
        v.tiles.push((Hex::new(-4, 2), R));
        let cells: Vec<Hex> = v.tiles.iter().map(|t| t.0).collect();
        v.stacks.clear();
        for h in cells.iter().step_by(3) {
            let n = 1 + (rnd() % 4) as usize;
            let discs = (0..n).map(|_| if rnd() % 2 == 0 { S } else { R }).collect();
            v.stacks.push((*h, discs));
        }
        v.stacks.push((Hex::new(0, 4), vec![R, S]));
        v.stacks.push((Hex::new(-4, 0), vec![S]));
        v.supply = 0;
        v.hands = [2, 1];
        v.score = [44, 38];
        v.to_move = R;
        v.last = Some(LastMove::Place(Hex::new(1, 1)));
        v.stacks.retain(|s| s.0 != Hex::new(1, 1));
        v.stacks.push((Hex::new(1, 1), vec![S]));
        v.caption = "Move 70: 1,1".to_string();
        v
    }

    /// A long thin world: 39 tiles in one row, game over on score.
    pub fn long_line() -> View {
        let mut v = base();
        v.tiles = (0..39)
            .map(|q| (Hex::new(q - 19, 0), if q % 3 == 0 { R } else { S }))
            .collect();
        v.stacks = vec![
            (Hex::new(-19, 0), vec![R, S]),
            (Hex::new(0, 0), vec![S; 4]),
            (Hex::new(20, 0), vec![R, R]),
            (Hex::new(5, -1), vec![S]),
        ];
        v.supply = 0;
        v.hands = [1, 6];
        v.score = [40, 26];
        v.outcome = Some(Outcome::by_score(Reason::Score, [40, 26]));
        v.last = Some(LastMove::Expand {
            cells: vec![Hex::new(19, 0)],
        });
        v.caption = "Move 88: +19,0".to_string();
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgba;

    fn px(img: &RgbaImage, at: (f32, f32)) -> [u8; 3] {
        let Rgba([r, g, b, _]) = *img.get_pixel(at.0 as u32, at.1 as u32);
        [r, g, b]
    }

    fn close(a: [u8; 3], b: Rgb8A) -> bool {
        a.iter()
            .zip([b.r, b.g, b.b])
            .all(|(x, y)| x.abs_diff(y) <= 6)
    }

    fn every_sample() -> Vec<View> {
        vec![
            samples::start(),
            samples::dance(),
            samples::big_stacks(),
            samples::expansion(),
            samples::long_line(),
            samples::full_world(),
        ]
    }

    #[test]
    fn pictures_stay_within_bounds() {
        for v in every_sample() {
            let img = draw(&v, Theme::Dark);
            assert!(
                (MIN_WIDTH..=MAX_WIDTH).contains(&img.width()),
                "{}",
                img.width()
            );
            assert!(
                img.height() >= 200 && img.height() <= 1100,
                "{}",
                img.height()
            );
        }
    }

    #[test]
    fn every_nameable_cell_is_labelled_inside_the_picture() {
        for theme in Theme::ALL {
            for v in every_sample() {
                let (img, boxes) = draw_in(&v, theme, Extent::of(&v));
                let want: BTreeSet<Hex> =
                    v.tiles.iter().map(|t| t.0).chain(v.outer_space()).collect();
                let got: BTreeSet<Hex> = boxes.iter().map(|b| b.0).collect();
                assert_eq!(got, want);
                for (h, (x0, y0, x1, y1)) in &boxes {
                    assert!(*x0 >= 0.0 && *y0 >= HEADER_H as f32, "{h:?}");
                    assert!(
                        *x1 <= img.width() as f32 && *y1 <= img.height() as f32,
                        "{h:?}"
                    );
                }
                // No two labels overlap.
                for (i, a) in boxes.iter().enumerate() {
                    for b in &boxes[i + 1..] {
                        let (a, b) = (a.1, b.1);
                        let apart = a.2 <= b.0 || b.2 <= a.0 || a.3 <= b.1 || b.3 <= a.1;
                        assert!(apart, "{a:?} {b:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn every_row_and_diagonal_is_named_on_the_rim_at_20_px() {
        for theme in Theme::ALL {
            for v in every_sample() {
                let (_, boxes) = draw_in(&v, theme, Extent::of(&v));
                let l = layout(Extent::of(&v));
                let tiles: BTreeMap<Hex, Colour> = v.tiles.iter().copied().collect();
                let space = v.outer_space();
                let rim = rim_labels(&l, &tiles, &space);
                for h in tiles.keys().chain(space.iter()) {
                    assert!(
                        rim.iter().any(|x| x.line == RimLine::Row(h.r)),
                        "row {}",
                        h.r
                    );
                    assert!(
                        rim.iter().any(|x| x.line == RimLine::Diagonal(h.q)),
                        "diagonal {}",
                        h.q
                    );
                }
                for x in &rim {
                    assert!(x.size >= 20.0);
                    let a = x.bounds;
                    assert!(a.0 >= 0.0 && a.2 <= l.width as f32, "{x:?}");
                    assert!(a.1 >= HEADER_H as f32 && a.3 <= l.height as f32, "{x:?}");
                    for (h, b) in &boxes {
                        let apart = a.2 <= b.0 || b.2 <= a.0 || a.3 <= b.1 || b.3 <= a.1;
                        assert!(apart, "{x:?} overlaps the label of {h}");
                    }
                }
            }
        }
    }

    #[test]
    fn cells_show_tiles_space_and_stack_tops() {
        let v = samples::dance();
        for theme in Theme::ALL {
            let p = theme.palette();
            let (img, _) = draw_in(&v, theme, Extent::of(&v));
            let l = layout(Extent::of(&v));
            let stacked: BTreeMap<Hex, Colour> = v
                .stacks
                .iter()
                .map(|s| (s.0, *s.1.last().unwrap_or(&Colour::First)))
                .collect();
            // Tiles without stacks: sample just above the centre (the label sits below).
            for (h, col) in &v.tiles {
                if stacked.contains_key(h) || *h == Hex::new(1, 1) {
                    continue;
                }
                let (x, y) = l.centre(*h);
                let want = if *col == Colour::First {
                    p.silver_tile
                } else {
                    p.red_tile
                };
                assert!(
                    close(px(&img, (x, y - l.r * 0.35)), want),
                    "{theme:?} {h:?}"
                );
            }
            // Stacks: the top face's colour shows just inside its rim (the middle holds the height).
            for (h, top) in &stacked {
                let n = v.stacks.iter().find(|s| s.0 == *h).map_or(1, |s| s.1.len());
                let (x, y) = l.top_face(*h, n);
                let want = if *top == Colour::First {
                    p.silver_disc
                } else {
                    p.red_disc
                };
                let at = (x - l.disc() * 0.82, y);
                assert!(
                    close(px(&img, at), want),
                    "{theme:?} {h:?} {:?}",
                    px(&img, at)
                );
            }
            // Empty outer space.
            for h in v.outer_space() {
                if stacked.contains_key(&h) {
                    continue;
                }
                let (x, y) = l.centre(h);
                assert!(
                    close(px(&img, (x, y - l.r * 0.35)), p.space),
                    "{theme:?} {h:?}"
                );
            }
        }
    }

    #[test]
    fn cached_worlds_give_the_same_picture_as_fresh_ones() {
        for theme in Theme::ALL {
            let v = samples::full_world();
            let first = draw(&v, theme);
            for other in [samples::start(), samples::dance(), samples::expansion()] {
                let _ = draw(&other, theme);
            }
            assert!(first == draw(&v, theme), "{theme:?}");
            // The same world with other stacks and another last move shares the cached tiles.
            let mut w = v.clone();
            w.stacks.truncate(2);
            w.last = None;
            let l = layout(Extent::of(&w));
            let tiles: BTreeMap<Hex, Colour> = w.tiles.iter().copied().collect();
            let mut fresh = Canvas::new(l.width, l.height, theme.palette().bg);
            draw_tiles(&mut fresh, theme.palette(), &l, &tiles, &w.outer_space());
            draw_world(
                &mut fresh,
                theme.palette(),
                &l,
                &w,
                &tiles,
                &w.outer_space(),
            );
            let drawn = draw(&w, theme);
            let top = HEADER_H as usize * l.width as usize * 4;
            assert!(
                fresh.img.as_raw()[top..] == drawn.as_raw()[top..],
                "{theme:?}"
            );
        }
    }

    #[test]
    fn stacks_of_sixteen_and_odd_views_never_panic() {
        let mut v = samples::big_stacks();
        v.stacks
            .push((Hex::new(500, -900), vec![Colour::Second; 40]));
        v.stacks.push((Hex::new(0, 1), vec![]));
        v.last = Some(LastMove::Dance {
            from: Hex::new(-400, 3),
            landings: vec![],
        });
        let _ = draw(&v, Theme::Dark);
        let empty = View::default();
        let _ = draw(&empty, Theme::Light);
        let img = draw(&samples::long_line(), Theme::Dark);
        assert!(img.width() <= MAX_WIDTH);
    }

    #[test]
    fn sequences_share_one_frame() {
        let views = vec![samples::start(), samples::dance(), samples::long_line()];
        let imgs = draw_sequence(&views, Theme::Dark);
        assert_eq!(imgs.len(), 3);
        assert!(imgs.iter().all(|i| i.dimensions() == imgs[0].dimensions()));
    }
}
