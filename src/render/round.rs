//! Anti-aliased round shapes, the one kind of drawing imageproc lacks: its circles
//! (`draw_filled_circle_mut`, `draw_hollow_circle_mut`) are aliased, with a whole-pixel centre and
//! radius and a one-pixel outline, and it has no rounded rectangles nor strokes wider than a
//! pixel. Discs (the pieces, the round caps of thick lines), rings (highlights) and rounded boxes
//! (the header's cards and badges) are drawn here from a signed distance: a pixel whose centre
//! lies half a pixel inside the edge is fully covered, half a pixel outside untouched, and the
//! band between is blended linearly. Coverage is snapped to eighths as for every other shape
//! (see the canvas).

use image::{GrayImage, RgbaImage};

use super::colour::Rgb8A;

/// Steps of coverage (see [`level`]).
const LEVELS: f32 = 8.0;

/// The opacity with which `c` paints a pixel it covers by `cov` (0–1), in eighths (0–8).
#[inline]
pub(super) fn level(c: Rgb8A, cov: f32) -> u32 {
    // Rounds to nearest (the product is never negative).
    (cov * (c.a as f32 / 255.0) * LEVELS + 0.5) as u32
}

/// Paints one pixel (RGBA bytes) with `c` at opacity `k` eighths: exact integer arithmetic,
/// the result rounded to nearest.
#[inline]
pub(super) fn mix_px(px: &mut [u8], c: Rgb8A, k: u32) {
    if k == 0 {
        return;
    }
    if k >= 8 {
        px.copy_from_slice(&[c.r, c.g, c.b, 255]);
        return;
    }
    let inv = 8 - k;
    let mix = |d: u8, s: u8| ((u32::from(d) * inv + u32::from(s) * k + 4) >> 3) as u8;
    px[0] = mix(px[0], c.r);
    px[1] = mix(px[1], c.g);
    px[2] = mix(px[2], c.b);
    px[3] = 255;
}

/// A round shape's reach: for the row of pixel centres at height `fy`, the horizontal range
/// outside which no pixel centre is within `reach` of `(cx, cy)`, with a margin against
/// rounding (the pixels in the margin are measured exactly).
fn round_rows(cx: f32, cy: f32, reach: f32) -> impl Fn(f32) -> (f32, f32) {
    move |fy| {
        let dy = fy - cy;
        let h2 = reach * reach - dy * dy;
        if h2 < 0.0 {
            (cx, cx - 1.0)
        } else {
            let h = h2.sqrt() + 0.05;
            (cx - h, cx + h)
        }
    }
}

/// Every row's whole width: for shapes without a cheaper reach.
fn whole_rows(_: f32) -> (f32, f32) {
    (f32::NEG_INFINITY, f32::INFINITY)
}

/// Calls `put(x, y, coverage)` for every pixel of a `width`×`height` picture within the box
/// `(left, top, right, bottom)` that the shape of signed distance `dist` (negative inside)
/// touches. `reach(fy)` bounds where, in the row of pixel centres at height `fy`, those centres
/// can be (the pixels beyond are untouched: `dist` ≥ ½ there, or beyond the stroke). Rows are
/// scanned from both ends towards the first fully covered pixel or, for outlines (`hollow`),
/// towards the first pixel past the stroke, so the inside of a filled shape is a single run
/// `put_run(y, x0, x1)`.
fn shade(
    (width, height): (u32, u32),
    (left, top, right, bottom): (f32, f32, f32, f32),
    dist: impl Fn(f32, f32) -> f32,
    reach: impl Fn(f32) -> (f32, f32),
    hollow: Option<f32>,
    mut put: impl FnMut(u32, u32, f32),
    mut put_run: impl FnMut(u32, u32, u32),
) {
    if !(left.is_finite() && top.is_finite() && right.is_finite() && bottom.is_finite()) {
        return;
    }
    let x0 = (left.floor() as i64).clamp(0, i64::from(width)) as u32;
    let x1 = (right.ceil() as i64 + 1).clamp(0, i64::from(width)) as u32;
    let y0 = (top.floor() as i64).clamp(0, i64::from(height)) as u32;
    let y1 = (bottom.ceil() as i64 + 1).clamp(0, i64::from(height)) as u32;
    let coverage = |d: f32| match hollow {
        Some(half) => (half - d.abs() + 0.5).clamp(0.0, 1.0),
        None => (0.5 - d).clamp(0.0, 1.0),
    };
    // Where a row's scan from either end stops.
    let deep = match hollow {
        Some(half) => -(half + 0.5),
        None => -0.5,
    };
    for y in y0..y1 {
        let fy = y as f32 + 0.5;
        let (from, to) = reach(fy);
        // Pixel x's centre is x + ½; the casts saturate.
        let row_x0 = ((from - 0.5).floor().max(0.0) as u32).max(x0);
        let row_x1 = ((to + 0.5).ceil().max(0.0) as u32).min(x1);
        let mut lo = row_x0;
        while lo < row_x1 {
            let d = dist(lo as f32 + 0.5, fy);
            if d <= deep {
                break;
            }
            let cov = coverage(d);
            if cov > 0.0 {
                put(lo, y, cov);
            }
            lo += 1;
        }
        let mut hi = row_x1;
        while hi > lo {
            let d = dist((hi - 1) as f32 + 0.5, fy);
            if d <= deep {
                break;
            }
            let cov = coverage(d);
            if cov > 0.0 {
                put(hi - 1, y, cov);
            }
            hi -= 1;
        }
        if hollow.is_none() && hi > lo {
            put_run(y, lo, hi);
        }
    }
}

/// `shade` onto a picture in colour `c`.
fn shade_image(
    img: &mut RgbaImage,
    bounds: (f32, f32, f32, f32),
    dist: impl Fn(f32, f32) -> f32,
    reach: impl Fn(f32) -> (f32, f32),
    hollow: Option<f32>,
    c: Rgb8A,
) {
    if c.a == 0 {
        return;
    }
    let size = img.dimensions();
    let w = size.0 as usize;
    let buf = std::cell::RefCell::new(img.as_mut());
    shade(
        size,
        bounds,
        dist,
        reach,
        hollow,
        |x, y, cov| {
            let i = (y as usize * w + x as usize) * 4;
            mix_px(&mut buf.borrow_mut()[i..i + 4], c, level(c, cov));
        },
        |y, x0, x1| {
            let k = level(c, 1.0);
            let (s, e) = (
                (y as usize * w + x0 as usize) * 4,
                (y as usize * w + x1 as usize) * 4,
            );
            for p in buf.borrow_mut()[s..e].chunks_exact_mut(4) {
                mix_px(p, c, k);
            }
        },
    );
}

/// A filled disc of radius `r` centred on `(cx, cy)`.
pub(super) fn disc(img: &mut RgbaImage, cx: f32, cy: f32, r: f32, c: Rgb8A) {
    if r <= 0.0 {
        return;
    }
    let dist = |x: f32, y: f32| ((x - cx) * (x - cx) + (y - cy) * (y - cy)).sqrt() - r;
    let b = (cx - r - 1.0, cy - r - 1.0, cx + r + 1.0, cy + r + 1.0);
    shade_image(img, b, dist, round_rows(cx, cy, r + 0.5), None, c);
}

/// Adds a disc to a coverage mask (each pixel keeps the larger coverage).
pub(super) fn disc_mask(mask: &mut GrayImage, cx: f32, cy: f32, r: f32) {
    if r <= 0.0 {
        return;
    }
    let size = mask.dimensions();
    let w = size.0 as usize;
    let dist = |x: f32, y: f32| ((x - cx) * (x - cx) + (y - cy) * (y - cy)).sqrt() - r;
    let b = (cx - r - 1.0, cy - r - 1.0, cx + r + 1.0, cy + r + 1.0);
    let buf = std::cell::RefCell::new(mask.as_mut());
    shade(
        size,
        b,
        dist,
        round_rows(cx, cy, r + 0.5),
        None,
        |x, y, cov| {
            let p = &mut buf.borrow_mut()[y as usize * w + x as usize];
            *p = (*p).max((cov * 255.0).round() as u8);
        },
        |y, x0, x1| {
            buf.borrow_mut()[y as usize * w + x0 as usize..y as usize * w + x1 as usize].fill(255)
        },
    );
}

/// A circle outline of stroke `width` centred on radius `r`.
pub(super) fn ring(img: &mut RgbaImage, cx: f32, cy: f32, r: f32, width: f32, c: Rgb8A) {
    let half = width / 2.0;
    if half <= 0.0 {
        return;
    }
    let dist = |x: f32, y: f32| ((x - cx) * (x - cx) + (y - cy) * (y - cy)).sqrt() - r;
    let o = r + half + 1.0;
    shade_image(
        img,
        (cx - o, cy - o, cx + o, cy + o),
        dist,
        round_rows(cx, cy, r + half + 0.5),
        Some(half),
        c,
    );
}

/// A box `(x, y, w, h)` with corners rounded by `radius`: filled, or its outline of the given
/// stroke width.
pub(super) fn rounded_box(
    img: &mut RgbaImage,
    (x, y, w, h): (f32, f32, f32, f32),
    radius: f32,
    stroke: Option<f32>,
    c: Rgb8A,
) {
    let r = radius.min(w / 2.0).min(h / 2.0).max(0.0);
    let dist = |fx: f32, fy: f32| {
        let qx = (fx - (x + w / 2.0)).abs() - (w / 2.0 - r);
        let qy = (fy - (y + h / 2.0)).abs() - (h / 2.0 - r);
        let outside = (qx.max(0.0).powi(2) + qy.max(0.0).powi(2)).sqrt();
        outside + qx.max(qy).min(0.0) - r
    };
    let half = stroke.map(|s| s / 2.0);
    let m = half.unwrap_or(0.0) + 1.0;
    shade_image(
        img,
        (x - m, y - m, x + w + m, y + h + m),
        dist,
        whole_rows,
        half,
        c,
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::canvas::hex;

    #[test]
    fn blending_rounds_like_the_float_formula() {
        for k in 0..=8u32 {
            for d in (0..=255u8).step_by(5) {
                for s in [0u8, 1, 77, 200, 255] {
                    let mut px = [d, d, d, 255];
                    mix_px(
                        &mut px,
                        Rgb8A {
                            r: s,
                            g: s,
                            b: s,
                            a: 255,
                        },
                        k,
                    );
                    let a = k as f32 / 8.0;
                    let want = if k == 0 {
                        d
                    } else {
                        (d as f32 + (s as f32 - d as f32) * a + 0.5) as u8
                    };
                    assert_eq!(px[0], want, "d={d} s={s} k={k}");
                }
            }
        }
    }

    /// Scanning only a round shape's reach in each row changes no pixel: discs and rings at
    /// many centres, radii and strokes (some cut by the picture's edges) are drawn the same
    /// as when every row is scanned across the whole box.
    #[test]
    fn reach_leaves_out_only_untouched_pixels() {
        let c = hex(0xd04020);
        for i in 0..400 {
            let f = i as f32;
            let (cx, cy) = ((f * 0.37) % 44.0 - 2.0, (f * 0.53) % 44.0 - 2.0);
            let r = 0.2 + (f * 1.73) % 17.0;
            let half = 0.3 + (f * 0.29) % 3.0;
            let dist = |x: f32, y: f32| ((x - cx) * (x - cx) + (y - cy) * (y - cy)).sqrt() - r;
            let blank = || RgbaImage::from_pixel(40, 40, image::Rgba([20, 30, 40, 255]));
            let (mut fast, mut full) = (blank(), blank());
            disc(&mut fast, cx, cy, r, c);
            let b = (cx - r - 1.0, cy - r - 1.0, cx + r + 1.0, cy + r + 1.0);
            shade_image(&mut full, b, dist, whole_rows, None, c);
            assert!(fast == full, "disc {cx} {cy} {r}");
            let (mut fast, mut full) = (blank(), blank());
            ring(&mut fast, cx, cy, r, half * 2.0, c);
            let o = r + half + 1.0;
            let b = (cx - o, cy - o, cx + o, cy + o);
            shade_image(&mut full, b, dist, whole_rows, Some(half), c);
            assert!(fast == full, "ring {cx} {cy} {r} {half}");
        }
    }

    #[test]
    fn discs_are_anti_aliased_and_clipped() {
        let mut img = RgbaImage::from_pixel(40, 40, image::Rgba([0, 0, 0, 255]));
        disc(&mut img, 0.0, 0.0, 30.0, hex(0xff0000));
        disc(&mut img, 30.0, 30.0, 5.0, hex(0x00ff00));
        assert_eq!(img.get_pixel(2, 2).0, [255, 0, 0, 255]);
        assert_eq!(img.get_pixel(30, 30).0, [0, 255, 0, 255]);
        assert_eq!(img.get_pixel(39, 39).0, [0, 0, 0, 255]);
        let partial = img.pixels().filter(|p| p.0[1] > 0 && p.0[1] < 255).count();
        assert!(partial >= 12, "{partial}");
    }

    #[test]
    fn rings_and_box_outlines_leave_their_inside_alone() {
        let mut img = RgbaImage::from_pixel(60, 60, image::Rgba([0, 0, 0, 255]));
        ring(&mut img, 30.0, 30.0, 20.0, 3.0, hex(0xffffff));
        assert_eq!(img.get_pixel(30, 30).0, [0, 0, 0, 255]);
        assert_eq!(img.get_pixel(50, 30).0, [255, 255, 255, 255]);
        rounded_box(
            &mut img,
            (5.0, 5.0, 50.0, 50.0),
            8.0,
            Some(2.0),
            hex(0x00ff00),
        );
        assert_eq!(img.get_pixel(30, 5).0, [0, 255, 0, 255]);
        assert_eq!(img.get_pixel(30, 30).0, [0, 0, 0, 255]);
        rounded_box(&mut img, (5.0, 5.0, 50.0, 50.0), 8.0, None, hex(0x0000ff));
        assert_eq!(img.get_pixel(30, 30).0, [0, 0, 255, 255]);
        assert_eq!(img.get_pixel(5, 5).0, [0, 0, 0, 255]);
    }
}
