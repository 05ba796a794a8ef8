//! The world drawn: outer space and the tiles under the rim labels, then the last move, the cells'
//! labels and the stacks over them.

use std::collections::BTreeMap;

use super::layout::Layout;
use super::pieces::stamp_stack;
use super::rim::{draw_rim_label, rim_labels};
use super::{LastMove, View};
use crate::games::Colour;
use crate::hex::Hex;
use crate::render::canvas::{Align, Canvas, FontKind, Rgb8A};
use crate::render::Palette;

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
pub(super) fn draw_tiles(
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

/// Everything over the tiles: the last move, the cells' names and the stacks.
pub(super) fn draw_world(
    c: &mut Canvas,
    p: &Palette,
    l: &Layout,
    view: &View,
    tiles: &BTreeMap<Hex, Colour>,
    space: &[Hex],
) {
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
            let a = l.base(*from);
            let b = l.base(*end);
            let (dx, dy) = (b.0 - a.0, b.1 - a.1);
            let len = (dx * dx + dy * dy).sqrt().max(1e-3);
            let (ux, uy) = (dx / len, dy / len);
            let tip = (b.0 + ux * l.disc() * 1.05, b.1 + uy * l.disc() * 1.05);
            let w = (r * 0.16).max(3.0);
            c.arrow(a, tip, w + 4.0, r * 0.5 + 4.0, p.contrast);
            c.arrow(a, tip, w, r * 0.5, p.last);
        }
        // Where the dance started: a dashed ghost.
        let (x, y) = l.base(*from);
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
    // Names on every nameable cell, when the cells are large enough.
    for h in tiles.keys().chain(space.iter()) {
        let Some(name) = l.name(*h) else {
            break;
        };
        let (ink, under) = match tiles.get(h) {
            Some(Colour::First) => (p.label_on_silver, p.silver_tile),
            Some(Colour::Second) => (p.label_on_red, p.red_tile),
            None => (p.label_on_space, p.space),
        };
        // An opaque backing in the cell's own colour, over the dance line and the outlines of
        // an expansion: nothing drawn before covers a name.
        let b = name.backing;
        c.round_rect(b.0, b.1, b.2 - b.0, b.3 - b.1, 3.0, under);
        c.text(
            FontKind::Regular,
            name.size,
            name.x,
            name.baseline,
            Align::Centre,
            &name.text,
            ink,
        );
    }
    // Stacks, back rows first so lifted discs overlap correctly.
    let mut stacks: Vec<&(Hex, Vec<Colour>)> = view.stacks.iter().collect();
    stacks.sort_by_key(|(h, _)| (h.r, h.q));
    for (h, discs) in stacks {
        stamp_stack(c, p, l, *h, discs);
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
        let radius = l.ring_radius(w);
        c.ring(
            x,
            y,
            radius,
            w + 3.0,
            Rgb8A {
                a: 200,
                ..p.contrast
            },
        );
        c.ring(x, y, radius, w, p.last);
    };
    match &view.last {
        Some(LastMove::Place(h)) => ring(c, *h, l.ring_width(true)),
        Some(LastMove::Dance { landings, .. }) => {
            for h in landings {
                ring(c, *h, l.ring_width(false));
            }
        }
        _ => {}
    }
}
