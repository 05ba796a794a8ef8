//! Where things go in an EXXIT picture: the part of the plane it shows ([`Extent`]; a view's own,
//! fitted to its rim labels, is [`Extent::of`] in [`super::rim`]), the size of its cells and
//! their pixel positions ([`Layout`]), and the cells of the rim where the rows and diagonals may
//! be named.

use std::collections::BTreeMap;

use crate::hex::Hex;
use crate::render::canvas::{centred_baseline, text_width, FontKind};
use crate::render::header::{header_height, MARGIN};

/// The width of every EXXIT picture in pixels: a phone shows it at half size ([`PHONE_WIDTH`]),
/// a desktop at up to about 550 px. The world is cropped to its extent and scaled to fill it.
pub const WIDTH: u32 = 720;

/// The width at which a phone shows a picture: what the sizes of the words are chosen for.
pub use crate::render::canvas::PHONE_WIDTH;

/// The largest hex radius (the first positions of a game).
const MAX_R: f32 = 72.0;

/// The board's height at most (a world taller than wide is scaled down to it).
const MAX_BOARD_H: f32 = 760.0;

/// From this hex radius on, every cell's `q,r` fits in it at [`NAME_SIZE`], above a smaller stack;
/// below it, cells are too small for a readable name and only the rim names rows and diagonals.
pub(crate) const NAMED_R: f32 = 46.0;

/// The font size of a cell's name: digits 16 px high, 8 px on a phone.
pub(crate) const NAME_SIZE: f32 = 22.0;

/// The font size of a rim label's number (bold digits 16 px high, 8 px on a phone).
pub(crate) const RIM_SIZE: f32 = 22.0;

/// A rectangle in pixels: left, top, right, bottom.
pub(crate) type Rect = (f32, f32, f32, f32);

const SQRT3: f32 = 1.732_050_8;

/// Stack layers drawn at most; the written height tells the rest.
pub(crate) const MAX_LAYERS: usize = 6;

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
    /// The extent holding `cells`.
    pub(super) fn around(cells: &[Hex]) -> Extent {
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
    // The extent fills the width, unless the world is taller than wide or very small.
    let r = ((WIDTH as f32 - 2.0 * MARGIN) / ext_w)
        .min(MAX_BOARD_H / ext_h)
        .clamp(1.0, MAX_R);
    let width = WIDTH;
    let board_h = ext_h * r;
    let header = header_height(width) as f32;
    let height = (header + board_h + 2.0 * MARGIN).ceil() as u32;
    let ox = (width as f32 - ext_w * r) / 2.0 - e.min.0 * r;
    let oy = header + MARGIN - e.min.1 * r;
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

    pub(crate) fn hexagon(&self, h: Hex, radius: f32) -> Vec<(f32, f32)> {
        let (cx, cy) = self.centre(h);
        hexagon_at(cx, cy, radius)
    }

    /// Whether the cells are large enough to carry their names (see [`NAMED_R`]).
    pub(crate) fn named(&self) -> bool {
        self.r >= NAMED_R
    }

    /// Disc radius: smaller when the cell carries its name below the stack.
    pub fn disc(&self) -> f32 {
        if self.named() {
            self.r * 0.38
        } else {
            self.r * 0.56
        }
    }

    /// Vertical lift per stacked disc.
    pub(crate) fn layer(&self) -> f32 {
        if self.named() {
            (self.r * 0.045).max(1.5)
        } else {
            (self.r * 0.085).max(2.0)
        }
    }

    /// Centre of the bottom disc of a stack: raised above the cell's name when it has one.
    pub(crate) fn base(&self, at: Hex) -> (f32, f32) {
        let (x, y) = self.centre(at);
        let lift = if self.named() { 0.26 } else { 0.12 };
        (x, y - self.r * lift)
    }

    /// Centre of the top face of a stack of `h` discs.
    pub fn top_face(&self, at: Hex, h: usize) -> (f32, f32) {
        let (x, y) = self.base(at);
        let shown = h.clamp(1, MAX_LAYERS);
        (x, y - (shown - 1) as f32 * self.layer())
    }

    /// The circles a stack of `h` discs covers, its shadow included: (x, y, radius).
    pub(crate) fn stack_circles(&self, at: Hex, h: usize) -> Vec<(f32, f32, f32)> {
        let (x, y) = self.base(at);
        let r = self.disc();
        let mut out = vec![(x, y + r * 0.12, r * 1.04)];
        for i in 0..h.clamp(1, MAX_LAYERS) {
            out.push((x, y - i as f32 * self.layer(), r));
        }
        out
    }

    /// The width of the last move's ring on a stack: wider for a disc placed than for a dance's
    /// landings.
    pub(crate) fn ring_width(&self, placed: bool) -> f32 {
        if placed {
            (self.r * 0.11).max(2.5)
        } else {
            (self.r * 0.07).max(2.0)
        }
    }

    /// The last move's ring on a stack's top face: its radius for a stroke `w` wide, on the
    /// disc's rim so that it covers nothing beyond the disc (its dark edge reaches 1.5 px out).
    pub(crate) fn ring_radius(&self, w: f32) -> f32 {
        (self.disc() - w / 2.0).max(w / 2.0)
    }

    /// Where a cell's `q,r` name goes, below its stack; `None` when the cells are too small for
    /// readable names.
    pub(crate) fn name(&self, at: Hex) -> Option<CellName> {
        if !self.named() {
            return None;
        }
        let (x, y) = self.centre(at);
        let size = NAME_SIZE;
        let text = at.to_string();
        let w = text_width(FontKind::Regular, size, &text);
        let baseline = centred_baseline(size, y + self.r * 0.45);
        let cap = size * 0.73;
        Some(CellName {
            x,
            baseline,
            size,
            backing: (
                x - w / 2.0 - 2.0,
                baseline - cap - 2.5,
                x + w / 2.0 + 2.0,
                baseline + 2.5,
            ),
            text,
        })
    }
}

/// A cell's name laid out: centred on `x` on `baseline`, on a backing of the cell's colour.
pub(crate) struct CellName {
    pub x: f32,
    pub baseline: f32,
    pub size: f32,
    pub text: String,
    /// The backing: what the name covers.
    pub backing: Rect,
}

fn hexagon_at(cx: f32, cy: f32, radius: f32) -> Vec<(f32, f32)> {
    (0..6)
        .map(|i| {
            let a = std::f32::consts::PI / 180.0 * (60.0 * i as f32 - 90.0);
            (cx + radius * a.cos(), cy + radius * a.sin())
        })
        .collect()
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
    pub(crate) fn letter(self) -> &'static str {
        match self {
            RimLine::Row(_) => "r",
            RimLine::Diagonal(_) => "q",
        }
    }

    pub(crate) fn number(self) -> i32 {
        match self {
            RimLine::Row(n) | RimLine::Diagonal(n) => n,
        }
    }
}

/// Where the labels of every row and diagonal of `nameable` cells may go, in order of choice:
/// each line, the cell at its end, and the cells just beyond that end and the next one out.
/// Diagonals are named below their lower end and rows left of their left end, like the axes of
/// a chart; a line crowded out there is named at its other end.
pub(crate) fn rim_cells(nameable: &[Hex]) -> Vec<(RimLine, Hex, [Hex; 2])> {
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
