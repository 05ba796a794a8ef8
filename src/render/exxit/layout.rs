//! Where things go in an EXXIT picture: the part of the plane it shows ([`Extent`]), the size
//! of its cells and their pixel positions ([`Layout`]), and the cells of the rim where the rows and
//! diagonals may be named.

use std::collections::BTreeMap;

use super::{LastMove, View};
use crate::hex::Hex;
use crate::render::canvas::centred_baseline;
use crate::render::header::{HEADER_H, MARGIN};

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

    pub(crate) fn hexagon(&self, h: Hex, radius: f32) -> Vec<(f32, f32)> {
        let (cx, cy) = self.centre(h);
        hexagon_at(cx, cy, radius)
    }

    /// Disc radius.
    pub fn disc(&self) -> f32 {
        self.r * 0.56
    }

    /// Vertical lift per stacked disc.
    pub(crate) fn layer(&self) -> f32 {
        (self.r * 0.085).max(2.0)
    }

    /// Centre of the top face of a stack of `h` discs.
    pub fn top_face(&self, at: Hex, h: usize) -> (f32, f32) {
        let (x, y) = self.centre(at);
        let shown = h.clamp(1, MAX_LAYERS);
        (x, y - self.r * 0.12 - (shown - 1) as f32 * self.layer())
    }

    /// The baseline centre and size of a cell's `q,r` label.
    pub(crate) fn label(&self, at: Hex) -> (f32, f32, f32) {
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
