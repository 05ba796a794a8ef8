//! The discs, the won chain and the last move, drawn over the empty board.

use super::layout::Layout;
use super::{LastMove, Piece, View};
use crate::games::Colour;
use crate::hex::Hex;
use std::cell::Cell;
use std::sync::Arc;

use crate::render::canvas::{Canvas, Patch, Rgb8A};
use crate::render::picture_cache::Memo;
use crate::render::Palette;

/// Paints one disc.
pub(super) fn paint_disc(c: &mut Canvas, p: &Palette, cx: f32, cy: f32, r: f32, piece: Piece) {
    c.fill_circle(
        cx,
        cy + r * 0.10,
        r * 1.02,
        Rgb8A {
            a: 70,
            ..p.contrast
        },
    );
    match piece {
        Piece::White => {
            c.fill_circle(cx, cy, r, p.white_rim);
            c.fill_circle(cx, cy, r - (r * 0.09).max(1.5), p.white_disc);
        }
        Piece::Black => {
            c.fill_circle(cx, cy, r, p.black_rim);
            c.fill_circle(cx, cy, r - (r * 0.07).max(1.2), p.black_disc);
            c.ring(
                cx,
                cy,
                r * 0.72,
                (r * 0.07).max(1.0),
                Rgb8A {
                    a: 50,
                    ..p.white_disc
                },
            );
            c.fill_circle(
                cx - r * 0.34,
                cy - r * 0.36,
                r * 0.22,
                Rgb8A {
                    a: 60,
                    ..p.white_disc
                },
            );
        }
        Piece::Neutral => {
            c.fill_circle(cx, cy, r, p.neutral_rim);
            c.fill_circle(cx, cy, r - (r * 0.09).max(1.5), p.neutral_disc);
            // A cross-hair marker so it never relies on its hue.
            let k = r * 0.5;
            let w = (r * 0.14).max(1.5);
            c.line((cx - k, cy), (cx + k, cy), w, p.white_disc);
            c.line((cx, cy - k), (cx, cy + k), w, p.white_disc);
        }
    }
}

pub(super) fn piece_of(col: Colour) -> Piece {
    match col {
        Colour::First => Piece::White,
        Colour::Second => Piece::Black,
    }
}

thread_local! {
    /// Whether discs are copied from their first drawing (off only to compare with fresh ones).
    pub(super) static KEEP_DISCS: Cell<bool> = const { Cell::new(true) };
}

/// The won chain, the discs and the last move, over the empty board.
pub(super) fn draw_pieces(c: &mut Canvas, p: &Palette, l: &Layout, view: &View) {
    let (n, r) = (l.n, l.r);
    // The won chain: a gold band under the discs.
    let chain = &view.winning_chain;
    for (i, a) in chain.iter().enumerate() {
        for b in &chain[i + 1..] {
            if a.is_adjacent(*b) {
                c.line(l.centre(*a), l.centre(*b), r * 0.42, p.win);
            }
        }
    }
    // Discs. A disc on the empty board is the same pixels every time: each is drawn once per
    // size, colours and cell, then copied (not over a won chain, which lies under them).
    static DISCS: Memo<(usize, i32, Hex, Piece), Arc<Patch>> = Memo::new(2048);
    let dr = l.disc();
    let stamped = chain.is_empty() && KEEP_DISCS.with(|k| k.get());
    for row in 0..n {
        for col in 0..n {
            let h = Hex::new(col, row);
            if let Some(piece) = view.get(h) {
                let (x, y) = l.centre(h);
                if stamped {
                    // The shadow reaches 1.12 radii below the centre; neighbours' discs never
                    // touch the same pixels.
                    let k = dr * 1.2 + 3.0;
                    let area = (
                        (x - k).floor() as i32,
                        (y - k).floor() as i32,
                        (x + k).ceil() as i32 + 1,
                        (y + k).ceil() as i32 + 1,
                    );
                    let palette: *const Palette = p;
                    c.stamp(&DISCS, (palette as usize, n, h, piece), area, |c| {
                        paint_disc(c, p, x, y, dr, piece)
                    });
                } else {
                    paint_disc(c, p, x, y, dr, piece);
                }
            }
        }
    }
    for h in chain {
        let (x, y) = l.centre(*h);
        c.ring(x, y, dr + r * 0.10, r * 0.16, p.win);
    }
    draw_last(c, p, l, view);
}

/// A ring in the last-move colour with a contrasting edge.
fn mark_ring(c: &mut Canvas, p: &Palette, at: (f32, f32), radius: f32, width: f32) {
    c.ring(
        at.0,
        at.1,
        radius,
        width + 3.0,
        Rgb8A {
            a: 200,
            ..p.contrast
        },
    );
    c.ring(at.0, at.1, radius, width, p.last);
}

fn draw_last(c: &mut Canvas, p: &Palette, l: &Layout, view: &View) {
    let r = l.r;
    let dr = l.disc();
    let ring_r = dr + r * 0.10;
    let ring_w = (r * 0.12).max(2.5);
    match &view.last {
        None | Some(LastMove::Swap) => {}
        Some(LastMove::Placement(h)) => mark_ring(c, p, l.centre(*h), ring_r, ring_w),
        Some(LastMove::Regular {
            from,
            to,
            relocations,
        }) => {
            for (src, dst) in relocations {
                let a = l.centre(*src);
                let b = l.centre(*dst);
                // A dashed ghost where the disc was, a dashed path, a ring where it landed.
                let ghost = dr * 0.85;
                let steps = 16;
                for i in 0..steps {
                    if i % 2 == 0 {
                        let t0 = i as f32 / steps as f32 * std::f32::consts::TAU;
                        let t1 = (i + 1) as f32 / steps as f32 * std::f32::consts::TAU;
                        let pa = (a.0 + ghost * t0.cos(), a.1 + ghost * t0.sin());
                        let pb = (a.0 + ghost * t1.cos(), a.1 + ghost * t1.sin());
                        c.line(
                            pa,
                            pb,
                            ring_w * 0.8 + 2.0,
                            Rgb8A {
                                a: 160,
                                ..p.contrast
                            },
                        );
                        c.line(pa, pb, ring_w * 0.8, p.last);
                    }
                }
                let (dx, dy) = (b.0 - a.0, b.1 - a.1);
                let len = (dx * dx + dy * dy).sqrt().max(1e-3);
                let (ux, uy) = (dx / len, dy / len);
                let start = (a.0 + ux * ghost, a.1 + uy * ghost);
                let end = (b.0 - ux * (ring_r + ring_w), b.1 - uy * (ring_r + ring_w));
                let w = (r * 0.08).max(2.0);
                c.dashed_line(
                    start,
                    end,
                    w + 2.5,
                    r * 0.3,
                    r * 0.2,
                    Rgb8A {
                        a: 170,
                        ..p.contrast
                    },
                );
                c.dashed_line(start, end, w, r * 0.3, r * 0.2, p.last);
                c.arrow(
                    (end.0 - ux * r * 0.4, end.1 - uy * r * 0.4),
                    end,
                    w,
                    r * 0.36,
                    p.last,
                );
                mark_ring(c, p, b, ring_r, ring_w * 0.8);
            }
            // The placed disc is ringed, the moved one gets the arrow.
            let a = l.centre(*from);
            let b = l.centre(*to);
            mark_ring(c, p, a, ring_r, ring_w);
            let (dx, dy) = (b.0 - a.0, b.1 - a.1);
            let len = (dx * dx + dy * dy).sqrt().max(1e-3);
            let (ux, uy) = (dx / len, dy / len);
            let start = (a.0 + ux * dr * 0.15, a.1 + uy * dr * 0.15);
            let end = (b.0 - ux * dr * 0.1, b.1 - uy * dr * 0.1);
            let w = (r * 0.14).max(3.0);
            c.arrow(start, end, w + 3.5, r * 0.5 + 3.0, p.contrast);
            c.arrow(start, end, w, r * 0.5, p.last);
        }
    }
}
