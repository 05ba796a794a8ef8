//! The coordinates written large on the rim: each row and diagonal named once, where its label
//! fits without covering another label; and the part of the plane a view's picture shows
//! ([`Extent::of`]), which makes room for them.

use std::collections::BTreeMap;

use super::layout::{layout, rim_cells, Extent, Layout, Rect, RimLine, RIM_SIZE};
use super::{LastMove, View};
use crate::games::Colour;
use crate::hex::Hex;
use crate::render::canvas::{centred_baseline, text_width, Align, Canvas, FontKind};
use crate::render::header::header_height;
use crate::render::Palette;

/// The extent of a picture is fitted to its rim labels: they are what decides how much room
/// beyond the cells it takes.
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
        let tiles: BTreeMap<Hex, Colour> = view.tiles.iter().copied().collect();
        let space = view.outer_space();
        // First room for every place a rim label may take; then only for the places they took,
        // again at the larger scale that gives, as long as every line keeps its label.
        let mut all = cells.clone();
        all.extend(rim_cells(&nameable).iter().flat_map(|(_, _, h)| *h));
        let mut e = Extent::around(&all);
        let mut named = rim_labels(&layout(e), &tiles, &space);
        for _ in 0..3 {
            let mut used = cells.clone();
            used.extend(named.iter().map(|x| x.cell));
            let next = Extent::around(&used);
            if next == e {
                break;
            }
            let again = rim_labels(&layout(next), &tiles, &space);
            if again.len() < named.len() {
                break;
            }
            (e, named) = (next, again);
        }
        e
    }
}

/// A rim label: the line it names, its size, the baseline of its left end, and the box it covers
/// (left, top, right, bottom).
#[derive(Clone, Copy, PartialEq, Debug)]
pub(crate) struct RimLabel {
    pub line: RimLine,
    pub size: f32,
    pub at: (f32, f32),
    pub bounds: Rect,
    /// The cell it stands on.
    pub cell: Hex,
    /// The cell at the end of the line it names, next to it.
    pub end: Hex,
}

impl RimLabel {
    /// The size of the coordinate's letter before the number.
    pub(crate) fn letter_size(&self) -> f32 {
        self.size * LETTER
    }

    /// A diagonal's tick: a short segment from just outside the label towards the end of the
    /// line it names (`None` for a row).
    pub(crate) fn tick(&self, l: &Layout) -> Option<((f32, f32), (f32, f32))> {
        let RimLine::Diagonal(_) = self.line else {
            return None;
        };
        let (x0, y0) = l.centre(self.cell);
        let (x1, y1) = l.centre(self.end);
        let len = ((x1 - x0).powi(2) + (y1 - y0).powi(2)).sqrt().max(1.0);
        let (ux, uy) = ((x1 - x0) / len, (y1 - y0) / len);
        // Leave the label's box through its top or bottom edge, then a little further.
        let out = if uy < -1e-3 {
            (self.bounds.1 - y0) / uy
        } else if uy > 1e-3 {
            (self.bounds.3 - y0) / uy
        } else {
            0.0
        };
        let a = (out + 3.0).max(l.r * 0.62);
        let b = a + (l.r * 0.33).max(5.0);
        Some(((x0 + ux * a, y0 + uy * a), (x0 + ux * b, y0 + uy * b)))
    }
}

/// The letter's size beside the number's (at [`RIM_SIZE`], still at least
/// [`crate::render::canvas::min_text`] of the picture's width).
const LETTER: f32 = 0.84;

/// The rim labels of a world, laid out: each line takes the first of its cells (see
/// [`rim_cells`]) where the label fits in the picture without overlapping one already placed.
pub(crate) fn rim_labels(
    l: &Layout,
    tiles: &BTreeMap<Hex, Colour>,
    space: &[Hex],
) -> Vec<RimLabel> {
    let nameable: Vec<Hex> = tiles.keys().chain(space.iter()).copied().collect();
    let size = RIM_SIZE;
    let small = size * LETTER;
    // The cells' own names (see `draw_world`) are in the way too.
    let taken: Vec<Rect> = nameable
        .iter()
        .filter_map(|h| l.name(*h).map(|n| n.backing))
        .collect();
    // And the cells themselves (their circumcircles, a little inside): labels stand beyond them.
    let cells: Vec<(f32, f32)> = nameable.iter().map(|h| l.centre(*h)).collect();
    let off_cells = |b: &Rect| {
        cells.iter().all(|&(x, y)| {
            let dx = x - x.clamp(b.0, b.2);
            let dy = y - y.clamp(b.1, b.3);
            dx * dx + dy * dy >= (l.r * 0.95).powi(2)
        })
    };
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
                && bounds.1 >= header_height(l.width) as f32
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
            if inside && placed.iter().all(apart) && taken.iter().all(clear) && off_cells(&bounds) {
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
pub(super) fn draw_rim_label(c: &mut Canvas, p: &Palette, l: &Layout, label: &RimLabel) {
    if let Some((a, b)) = label.tick(l) {
        c.line(a, b, 2.0, p.text_dim);
    }
    let small = label.letter_size();
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
