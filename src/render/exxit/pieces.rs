//! Discs and stacks, seen from above and slightly tilted.

use std::cell::Cell;
use std::sync::Arc;

use super::layout::{Layout, MAX_LAYERS};
use crate::games::Colour;
use crate::hex::Hex;
use crate::render::canvas::{
    centred_baseline, min_text, text_width, Align, Canvas, FontKind, Patch, Rgb8A,
};
use crate::render::picture_cache::Memo;
use crate::render::Palette;

thread_local! {
    /// Whether stacks are copied from an earlier drawing (off only to compare with fresh ones).
    pub(super) static KEEP_STACKS: Cell<bool> = const { Cell::new(true) };
}

fn disc_colours(p: &Palette, c: Colour) -> (Rgb8A, Rgb8A, Rgb8A) {
    match c {
        Colour::First => (p.silver_disc, p.silver_rim, p.label_on_silver),
        Colour::Second => (p.red_disc, p.red_rim, p.label_on_red),
    }
}

/// One disc seen from above, slightly tilted: a rim then a face.
pub(super) fn paint_disc(c: &mut Canvas, p: &Palette, cx: f32, cy: f32, r: f32, col: Colour) {
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
pub(super) fn paint_stack(c: &mut Canvas, p: &Palette, l: &Layout, at: Hex, discs: &[Colour]) {
    if discs.is_empty() {
        return;
    }
    let r = l.disc();
    let shown = &discs[discs.len().saturating_sub(MAX_LAYERS)..];
    let circles = l.stack_circles(at, shown.len());
    // Shadow.
    if let Some(&(x, y, radius)) = circles.first() {
        c.fill_circle(
            x,
            y,
            radius,
            Rgb8A {
                a: 80,
                ..p.contrast
            },
        );
    }
    for (i, (col, &(x, cy, _))) in shown.iter().zip(circles.iter().skip(1)).enumerate() {
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
        let natural = if label.len() > 1 { r * 0.82 } else { r * 0.95 };
        let size = natural.max(min_text(l.width));
        // On discs too small for a readable number (the largest worlds), the layers alone show
        // the height.
        if size > r * 1.25 || text_width(FontKind::Bold, size, &label) > r * 1.7 {
            return;
        }
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

/// [`paint_stack`], or a copy of its earlier drawing: a stack is the same pixels wherever the
/// same discs stand on the same pixels, so each is drawn once and copied afterwards while what
/// lies under it is unchanged (successive boards of a game redraw only the stacks that moved).
pub(super) fn stamp_stack(c: &mut Canvas, p: &Palette, l: &Layout, at: Hex, discs: &[Colour]) {
    static STACKS: Memo<(usize, [u32; 4], Vec<Colour>), Arc<Patch>> = Memo::new(512);
    if discs.is_empty() || !KEEP_STACKS.with(|k| k.get()) {
        return paint_stack(c, p, l, at, discs);
    }
    let circles = l.stack_circles(at, discs.len());
    // Everything a stack draws lies within its circles (a disc touches pixels up to half a pixel
    // past its edge; the height is written on the top disc).
    let (mut x0, mut y0, mut x1, mut y1) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
    for &(x, y, radius) in &circles {
        (x0, y0) = (x0.min(x - radius), y0.min(y - radius));
        (x1, y1) = (x1.max(x + radius), y1.max(y + radius));
    }
    let area = (
        x0.floor() as i32 - 2,
        y0.floor() as i32 - 2,
        x1.ceil() as i32 + 3,
        y1.ceil() as i32 + 3,
    );
    let (bx, by) = l.base(at);
    let palette: *const Palette = p;
    let key = (
        palette as usize,
        [l.disc(), l.layer(), bx, by].map(f32::to_bits),
        discs.to_vec(),
    );
    c.stamp_over(&STACKS, key, area, |c| paint_stack(c, p, l, at, discs));
}
