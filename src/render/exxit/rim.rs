//! The coordinates written large on the rim: each row and diagonal named once, where its label
//! fits without covering another label.

use std::collections::BTreeMap;

use super::layout::{rim_cells, Layout, RimLine};
use crate::games::Colour;
use crate::hex::Hex;
use crate::render::canvas::{centred_baseline, text_width, Align, Canvas, FontKind};
use crate::render::header::HEADER_H;
use crate::render::Palette;

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
pub(super) fn draw_rim_label(c: &mut Canvas, p: &Palette, l: &Layout, label: &RimLabel) {
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
