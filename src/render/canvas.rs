//! Drawing operations for board pictures, in floating-point pixel coordinates, over an opaque
//! [`RgbaImage`]. The shapes are drawn by imageproc:
//!
//! - filled polygons (hex cells, arrow heads, the bodies of thick lines) by
//!   [`draw_antialiased_polygon_mut`];
//! - thin lines by [`draw_antialiased_line_segment_mut`];
//! - text by [`draw_text_mut`], in the fonts of [`super::fonts`] (DejaVu Sans, with Noto Sans CJK
//!   JP for Japanese), which also measures it.
//!
//! Each shape is first drawn as a coverage mask (a [`GrayImage`] the size of its bounding box)
//! and then laid onto the picture in the shape's colour, so translucent colours blend properly
//! (imageproc writes a polygon's inside pixels as they are) and coverage is snapped to eighths:
//! edges stay smooth to the eye and the picture keeps few distinct colours, which makes the PNG
//! several times smaller. Discs, rings and rounded boxes, which imageproc draws only aliased or
//! not at all, come from [`super::round`].

use ab_glyph::{Font, PxScale, ScaleFont};
use image::{GrayImage, Luma, Rgba, RgbaImage};
use imageproc::drawing::{
    draw_antialiased_line_segment_mut, draw_antialiased_polygon_mut, draw_text_mut,
};
use imageproc::point::Point;

use super::fonts::Fonts;
#[cfg(test)]
use super::picture_cache::note_drawn;
use super::picture_cache::{recording, Memo};
use super::round;

pub use super::colour::{hex, Rgb8A};
pub use super::fonts::{
    centred_baseline, fit_text, fonts, text_width, wrap_text, FontKind, CJK_EM,
};

/// Horizontal text alignment.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Align {
    Left,
    Centre,
}

/// An image of one opaque colour.
fn filled(width: u32, height: u32, c: Rgb8A) -> RgbaImage {
    RgbaImage::from_pixel(width, height, Rgba([c.r, c.g, c.b, 255]))
}

/// A picture and the operations that draw on it.
pub struct Canvas {
    pub img: RgbaImage,
    fonts: Option<&'static Fonts>,
}

/// Strokes at most this wide are imageproc's one-pixel anti-aliased lines; wider ones are
/// polygons with round caps.
const HAIRLINE: f32 = 1.6;

/// Combines coverage masks: imageproc's blend of a shape's colour into what a mask holds.
fn cover(fg: Luma<u8>, bg: Luma<u8>, weight: f32) -> Luma<u8> {
    let v = f32::from(bg.0[0]) + (f32::from(fg.0[0]) - f32::from(bg.0[0])) * weight;
    Luma([v.round().clamp(0.0, 255.0) as u8])
}

/// What the coverage of a drawn text depends on.
#[derive(PartialEq, Eq, Hash)]
struct TextKey {
    kind: FontKind,
    /// The size, as bits.
    size: u32,
    text: String,
    /// Where each run of one font starts, relative to the first, in whole pixels.
    runs: Vec<(i32, i32)>,
}

/// The coverage of a drawn text, and where its first run starts in it.
struct Glyphs {
    mask: GrayImage,
    /// The mask's top-left pixel relative to the first run's origin.
    at: (i32, i32),
}

/// What a drawing changed in a box of a picture: the new pixels, row by row, fully transparent
/// where the drawing left the picture alone (pictures are opaque). Laid again on the same
/// background it gives the same pixels as drawing again.
pub(crate) struct Patch {
    x0: i32,
    y0: i32,
    width: usize,
    px: Vec<[u8; 4]>,
    /// The box's pixels before the drawing, for patches laid only over the same background
    /// ([`Canvas::stamp_over`]); empty otherwise.
    under: Vec<[u8; 4]>,
}

/// The smallest font size a player reads on a phone: [`PHONE_MIN`] px when the picture is shown
/// [`PHONE_WIDTH`] px wide, in the pixels of a picture `width` wide. Sizes are font sizes (the
/// em), as type is measured; see `picture_cache::record_texts` (the tests' measure).
pub fn min_text(width: u32) -> f32 {
    PHONE_MIN * width as f32 / PHONE_WIDTH
}

/// The width at which a phone shows a picture (CSS pixels of a portrait phone).
pub const PHONE_WIDTH: f32 = 360.0;

/// The smallest font size, in pixels at [`PHONE_WIDTH`], of any text a player must read.
pub const PHONE_MIN: f32 = 9.0;

/// Texts drawn once: cell and board labels, names and the header's words come back in every
/// picture.
static TEXTS: Memo<TextKey, std::sync::Arc<Glyphs>> = Memo::new(1024);

impl Canvas {
    /// A canvas of the given size filled with `bg`.
    pub fn new(width: u32, height: u32, bg: Rgb8A) -> Canvas {
        Canvas {
            img: filled(width, height, bg),
            fonts: fonts(),
        }
    }

    /// A canvas over an existing picture.
    pub fn from_image(img: RgbaImage) -> Canvas {
        Canvas {
            img,
            fonts: fonts(),
        }
    }

    pub fn width(&self) -> u32 {
        self.img.width()
    }

    /// An empty coverage mask for the pixels from `(left, top)` to `(right, bottom)` (widened to
    /// whole pixels and clipped to the picture), with the picture position of its top-left
    /// pixel; `None` when nothing of it lies inside.
    fn mask(&self, left: f32, top: f32, right: f32, bottom: f32) -> Option<(i32, i32, GrayImage)> {
        let (x0, y0, x1, y1) = self.clip(left, top, right, bottom)?;
        Some((x0, y0, GrayImage::new((x1 - x0) as u32, (y1 - y0) as u32)))
    }

    /// The box of [`Canvas::mask`]: `(x0, y0, x1, y1)`, the right and bottom edges excluded.
    fn clip(&self, left: f32, top: f32, right: f32, bottom: f32) -> Option<(i32, i32, i32, i32)> {
        let x0 = (left.floor() as i32).max(0);
        let y0 = (top.floor() as i32).max(0);
        let x1 = (right.ceil() as i32 + 1).min(self.img.width() as i32);
        let y1 = (bottom.ceil() as i32 + 1).min(self.img.height() as i32);
        (x1 > x0 && y1 > y0).then_some((x0, y0, x1, y1))
    }

    /// Lays `mask`, whose top-left pixel is at `(x0, y0)`, onto the picture in colour `c`.
    fn paint(&mut self, x0: i32, y0: i32, mask: &GrayImage, c: Rgb8A) {
        let w = self.img.width() as usize;
        let buf = self.img.as_mut();
        for (y, row) in mask
            .as_raw()
            .chunks_exact(mask.width() as usize)
            .enumerate()
        {
            let start = ((y0 as usize + y) * w + x0 as usize) * 4;
            let px = &mut buf[start..start + row.len() * 4];
            for (p, &m) in px.chunks_exact_mut(4).zip(row) {
                if m != 0 {
                    round::mix_px(p, c, round::level(c, f32::from(m) / 255.0));
                }
            }
        }
    }

    /// Lays the part of `mask`, whose top-left pixel is at `(mx, my)`, that lies within the
    /// picture's box `(x0, y0)`–`(x1, y1)` onto the picture in colour `c`.
    fn paint_part(
        &mut self,
        (mx, my): (i32, i32),
        mask: &GrayImage,
        (x0, y0, x1, y1): (i32, i32, i32, i32),
        c: Rgb8A,
    ) {
        let x0 = x0.max(mx).max(0);
        let y0 = y0.max(my).max(0);
        let x1 = x1
            .min(mx + mask.width() as i32)
            .min(self.img.width() as i32);
        let y1 = y1
            .min(my + mask.height() as i32)
            .min(self.img.height() as i32);
        if x1 <= x0 || y1 <= y0 {
            return;
        }
        let (w, mw) = (self.img.width() as usize, mask.width() as usize);
        let span = (x1 - x0) as usize;
        let buf = self.img.as_mut();
        let raw = mask.as_raw();
        for y in y0..y1 {
            let m = ((y - my) as usize) * mw + (x0 - mx) as usize;
            let start = (y as usize * w + x0 as usize) * 4;
            let px = &mut buf[start..start + span * 4];
            for (p, &k) in px.chunks_exact_mut(4).zip(&raw[m..m + span]) {
                if k != 0 {
                    round::mix_px(p, c, round::level(c, f32::from(k) / 255.0));
                }
            }
        }
    }

    /// Runs `draw`, which draws only within the box `(x0, y0)`–`(x1, y1)`, or lays the patch that
    /// it made the first time `key` was drawn. The key must name everything the box holds
    /// before the drawing (the background) and everything drawn: then the pixels are the same as
    /// drawing again, for the cost of a copy.
    pub(crate) fn stamp<K: std::hash::Hash + Eq>(
        &mut self,
        patches: &Memo<K, std::sync::Arc<Patch>>,
        key: K,
        area: (i32, i32, i32, i32),
        draw: impl FnOnce(&mut Canvas),
    ) {
        let Some(area) = self.clip_box(area) else {
            return draw(self);
        };
        if recording() {
            return draw(self);
        }
        let mut drew = false;
        let patch = patches.get_or(key, || {
            drew = true;
            std::sync::Arc::new(self.draw_patch(area, Vec::new(), draw))
        });
        if !drew {
            self.lay(&patch);
        }
    }

    /// Like [`Canvas::stamp`] for a drawing whose background the key does not name: the patch
    /// keeps the box's pixels from before its drawing and is laid only where the box holds the
    /// same pixels again; elsewhere `draw` runs (and its patch replaces the stored one).
    pub(crate) fn stamp_over<K: std::hash::Hash + Eq>(
        &mut self,
        patches: &Memo<K, std::sync::Arc<Patch>>,
        key: K,
        area: (i32, i32, i32, i32),
        draw: impl FnOnce(&mut Canvas),
    ) {
        let Some(area) = self.clip_box(area) else {
            return draw(self);
        };
        if recording() {
            return draw(self);
        }
        let under = self.box_pixels(area);
        if let Some(patch) = patches.get(&key) {
            if (patch.x0, patch.y0, patch.width) == (area.0, area.1, (area.2 - area.0) as usize)
                && patch.under == under
            {
                return self.lay(&patch);
            }
        }
        let patch = self.draw_patch(area, under, draw);
        patches.insert(key, std::sync::Arc::new(patch));
    }

    /// The box `(x0, y0)`–`(x1, y1)` cut to the picture, if anything is left.
    fn clip_box(&self, (x0, y0, x1, y1): (i32, i32, i32, i32)) -> Option<(i32, i32, i32, i32)> {
        let x0 = x0.max(0);
        let y0 = y0.max(0);
        let x1 = x1.min(self.img.width() as i32);
        let y1 = y1.min(self.img.height() as i32);
        (x1 > x0 && y1 > y0).then_some((x0, y0, x1, y1))
    }

    /// The pixels of a box within the picture, row by row.
    fn box_pixels(&self, (x0, y0, x1, y1): (i32, i32, i32, i32)) -> Vec<[u8; 4]> {
        let (w, width) = (self.img.width() as usize, (x1 - x0) as usize);
        let raw = self.img.as_raw();
        (y0..y1)
            .flat_map(|y| {
                let start = (y as usize * w + x0 as usize) * 4;
                raw[start..start + width * 4].chunks_exact(4)
            })
            .map(|p| [p[0], p[1], p[2], p[3]])
            .collect()
    }

    /// Runs `draw` and returns what it changed in the box (within the picture).
    fn draw_patch(
        &mut self,
        area: (i32, i32, i32, i32),
        under: Vec<[u8; 4]>,
        draw: impl FnOnce(&mut Canvas),
    ) -> Patch {
        let fresh;
        let before = if under.is_empty() {
            fresh = self.box_pixels(area);
            &fresh
        } else {
            &under
        };
        draw(self);
        let after = self.box_pixels(area);
        let px = after
            .iter()
            .zip(before)
            .map(|(a, b)| if a == b { [0; 4] } else { *a })
            .collect();
        Patch {
            x0: area.0,
            y0: area.1,
            width: (area.2 - area.0) as usize,
            px,
            under,
        }
    }

    /// Lays a patch: its changed pixels replace the picture's.
    fn lay(&mut self, patch: &Patch) {
        if patch.width == 0 {
            return;
        }
        let w = self.img.width() as usize;
        let buf = self.img.as_mut();
        for (dy, row) in patch.px.chunks_exact(patch.width).enumerate() {
            let start = ((patch.y0 as usize + dy) * w + patch.x0 as usize) * 4;
            let Some(dst) = buf.get_mut(start..start + row.len() * 4) else {
                return;
            };
            for (d, p) in dst.chunks_exact_mut(4).zip(row) {
                if p[3] != 0 {
                    d.copy_from_slice(p);
                }
            }
        }
    }

    /// Fills a polygon (vertices in either winding order; the shapes drawn are convex).
    pub fn fill_convex(&mut self, pts: &[(f32, f32)], c: Rgb8A) {
        if pts.len() < 3 || c.a == 0 {
            return;
        }
        let (minx, maxx) = pts.iter().fold((f32::MAX, f32::MIN), |(lo, hi), p| {
            (lo.min(p.0), hi.max(p.0))
        });
        let (miny, maxy) = pts.iter().fold((f32::MAX, f32::MIN), |(lo, hi), p| {
            (lo.min(p.1), hi.max(p.1))
        });
        if !(minx.is_finite() && maxx.is_finite() && miny.is_finite() && maxy.is_finite()) {
            return;
        }
        // Vertices are whole pixels for imageproc: the pixel whose centre is nearest.
        let mut poly: Vec<Point<i32>> = Vec::with_capacity(pts.len());
        for &(x, y) in pts {
            let p = Point::new((x - 0.5).round() as i32, (y - 0.5).round() as i32);
            if poly.last() != Some(&p) {
                poly.push(p);
            }
        }
        while poly.len() > 1 && poly.first() == poly.last() {
            poly.pop();
        }
        if poly.len() < 3 {
            return;
        }
        let Some((x0, y0, mut mask)) = self.mask(minx - 1.0, miny - 1.0, maxx + 1.0, maxy + 1.0)
        else {
            return;
        };
        for p in &mut poly {
            p.x -= x0;
            p.y -= y0;
        }
        draw_antialiased_polygon_mut(&mut mask, &poly, Luma([255]), cover);
        self.paint(x0, y0, &mask, c);
    }

    /// Fills a disc.
    pub fn fill_circle(&mut self, cx: f32, cy: f32, r: f32, c: Rgb8A) {
        round::disc(&mut self.img, cx, cy, r, c);
    }

    /// A circle outline of the given stroke width, centred on radius `r`.
    pub fn ring(&mut self, cx: f32, cy: f32, r: f32, width: f32, c: Rgb8A) {
        round::ring(&mut self.img, cx, cy, r, width, c);
    }

    /// A segment of the given width: imageproc's anti-aliased line when it is thin, a polygon
    /// with round caps otherwise.
    pub fn line(&mut self, a: (f32, f32), b: (f32, f32), width: f32, c: Rgb8A) {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let len = (dx * dx + dy * dy).sqrt();
        if !len.is_finite() || c.a == 0 {
            return;
        }
        if width <= HAIRLINE {
            let Some((x0, y0, mut mask)) = self.mask(
                a.0.min(b.0) - 1.0,
                a.1.min(b.1) - 1.0,
                a.0.max(b.0) + 1.0,
                a.1.max(b.1) + 1.0,
            ) else {
                return;
            };
            let at = |p: (f32, f32)| {
                (
                    (p.0 - 0.5).round() as i32 - x0,
                    (p.1 - 0.5).round() as i32 - y0,
                )
            };
            draw_antialiased_line_segment_mut(&mut mask, at(a), at(b), Luma([255]), cover);
            self.paint(x0, y0, &mask, c);
            return;
        }
        let half = width / 2.0;
        if len > 0.5 {
            let (nx, ny) = (-dy / len * half, dx / len * half);
            // The body and both caps in one mask, so a translucent line is not darker where
            // they overlap.
            let Some((x0, y0, mut mask)) = self.mask(
                a.0.min(b.0) - half - 1.0,
                a.1.min(b.1) - half - 1.0,
                a.0.max(b.0) + half + 1.0,
                a.1.max(b.1) + half + 1.0,
            ) else {
                return;
            };
            let corner = |x: f32, y: f32| {
                Point::new((x - 0.5).round() as i32 - x0, (y - 0.5).round() as i32 - y0)
            };
            let poly = [
                corner(a.0 + nx, a.1 + ny),
                corner(b.0 + nx, b.1 + ny),
                corner(b.0 - nx, b.1 - ny),
                corner(a.0 - nx, a.1 - ny),
            ];
            if poly[0] != poly[1] && poly[1] != poly[2] {
                draw_antialiased_polygon_mut(&mut mask, &poly, Luma([255]), cover);
            }
            let (ox, oy) = (x0 as f32, y0 as f32);
            round::disc_mask(&mut mask, a.0 - ox, a.1 - oy, half);
            round::disc_mask(&mut mask, b.0 - ox, b.1 - oy, half);
            self.paint(x0, y0, &mask, c);
        } else {
            round::disc(&mut self.img, a.0, a.1, half, c);
        }
    }

    /// A dashed segment (round-capped dashes of length `dash`, gaps of `gap`).
    pub fn dashed_line(
        &mut self,
        a: (f32, f32),
        b: (f32, f32),
        width: f32,
        dash: f32,
        gap: f32,
        c: Rgb8A,
    ) {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let len = (dx * dx + dy * dy).sqrt();
        if len < 1e-3 || dash + gap <= 0.0 {
            return;
        }
        let (ux, uy) = (dx / len, dy / len);
        let mut s = 0.0;
        while s < len {
            let e = (s + dash).min(len);
            self.line(
                (a.0 + ux * s, a.1 + uy * s),
                (a.0 + ux * e, a.1 + uy * e),
                width,
                c,
            );
            s = e + gap;
        }
    }

    /// An arrow from `a` to `b` whose head ends at `b`.
    pub fn arrow(&mut self, a: (f32, f32), b: (f32, f32), width: f32, head: f32, c: Rgb8A) {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let len = (dx * dx + dy * dy).sqrt();
        if len < 1e-3 {
            return;
        }
        let (ux, uy) = (dx / len, dy / len);
        let base = (b.0 - ux * head, b.1 - uy * head);
        self.line(a, (base.0 + ux, base.1 + uy), width, c);
        let w = head * 0.62;
        self.fill_convex(
            &[
                b,
                (base.0 - uy * w, base.1 + ux * w),
                (base.0 + uy * w, base.1 - ux * w),
            ],
            c,
        );
    }

    /// A filled rectangle with rounded corners.
    pub fn round_rect(&mut self, x: f32, y: f32, w: f32, h: f32, radius: f32, c: Rgb8A) {
        round::rounded_box(&mut self.img, (x, y, w, h), radius, None, c);
    }

    /// A rounded rectangle outline.
    #[allow(clippy::too_many_arguments)]
    pub fn round_rect_outline(
        &mut self,
        x: f32,
        y: f32,
        w: f32,
        h: f32,
        radius: f32,
        width: f32,
        c: Rgb8A,
    ) {
        round::rounded_box(&mut self.img, (x, y, w, h), radius, Some(width), c);
    }

    /// Draws one line of text; `x` is the left edge, centre or right edge by `align`, and `y`
    /// the baseline. Returns the box it covered `(left, top, right, bottom)`.
    #[allow(clippy::too_many_arguments)]
    pub fn text(
        &mut self,
        kind: FontKind,
        size: f32,
        x: f32,
        y: f32,
        align: Align,
        s: &str,
        c: Rgb8A,
    ) -> (f32, f32, f32, f32) {
        let Some(fonts) = self.fonts else {
            return (x, y, x, y);
        };
        let w = text_width(kind, size, s);
        let left = match align {
            Align::Left => x,
            Align::Centre => x - w / 2.0,
        };
        let runs = fonts.runs(kind, s);
        #[cfg(test)]
        if !s.trim().is_empty() {
            let em = runs
                .iter()
                .filter(|r| !r.text.trim().is_empty())
                .map(|r| r.em(size))
                .fold(size, f32::min);
            note_drawn(s, em);
        }
        let (mut ascent, mut descent) = (0.0f32, 0.0f32);
        for run in &runs {
            let scaled = run.font.as_scaled(run.px(size));
            ascent = ascent.max(scaled.ascent());
            descent = descent.min(scaled.descent());
        }
        if runs.is_empty() {
            let scaled = fonts.get(kind).as_scaled(PxScale::from(size));
            (ascent, descent) = (scaled.ascent(), scaled.descent());
        }
        let top = y - ascent;
        // Room for glyphs that reach beyond the font's ascent or descent.
        let margin = (size * 0.25).ceil();
        let Some((x0, y0, x1, y1)) = self.clip(
            left - margin,
            top - margin,
            left + w + margin,
            y - descent + margin,
        ) else {
            return (left, top, left + w, y - descent);
        };
        // Each run on the common baseline `y`, its glyphs placed from a whole pixel.
        let mut origins = Vec::with_capacity(runs.len());
        let mut run_left = left;
        for run in &runs {
            let run_top = y - run.font.as_scaled(run.px(size)).ascent();
            origins.push((run_left.round() as i32, run_top.round() as i32));
            run_left += run.width(size);
        }
        let Some(&(ox, oy)) = origins.first() else {
            return (left, top, left + w, y - descent);
        };
        // The glyphs' coverage depends only on the words, the size and where the runs start
        // relative to the first: drawn once, then laid wherever the words go. The stored mask
        // is the one of this first drawing widened by two pixels on each side, which holds the
        // mask of any later drawing of the same words (its box moves by less than a pixel
        // relative to the glyphs).
        let key = TextKey {
            kind,
            size: size.to_bits(),
            text: s.to_string(),
            runs: origins.iter().map(|&(x, y)| (x - ox, y - oy)).collect(),
        };
        let glyphs = TEXTS.get_or(key, || {
            // The whole box, also where it leaves the picture.
            let (bx0, by0) = (
                (left - margin).floor() as i32,
                (top - margin).floor() as i32,
            );
            let bx1 = (left + w + margin).ceil() as i32 + 1;
            let by1 = (y - descent + margin).ceil() as i32 + 1;
            let (mx, my) = (bx0 - 2 - ox, by0 - 2 - oy);
            let mut m =
                GrayImage::new((bx1 - bx0 + 4).max(0) as u32, (by1 - by0 + 4).max(0) as u32);
            for (run, &(rx, ry)) in runs.iter().zip(&origins) {
                draw_text_mut(
                    &mut m,
                    Luma([255]),
                    rx - ox - mx,
                    ry - oy - my,
                    run.px(size),
                    run.font,
                    run.text,
                );
            }
            std::sync::Arc::new(Glyphs {
                mask: m,
                at: (mx, my),
            })
        });
        let (gx, gy) = (ox + glyphs.at.0, oy + glyphs.at.1);
        self.paint_part((gx, gy), &glyphs.mask, (x0, y0, x1, y1), c);
        (left, top, left + w, y - descent)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Text drawn as before the glyphs were kept: its runs straight into a mask of the box.
    fn text_drawn_directly(
        c: &mut Canvas,
        kind: FontKind,
        size: f32,
        (x, y): (f32, f32),
        s: &str,
        colour: Rgb8A,
    ) {
        let Some(fonts) = c.fonts else {
            panic!("fonts load")
        };
        let w = text_width(kind, size, s);
        let runs = fonts.runs(kind, s);
        let (mut ascent, mut descent) = (0.0f32, 0.0f32);
        for run in &runs {
            let scaled = run.font.as_scaled(run.px(size));
            ascent = ascent.max(scaled.ascent());
            descent = descent.min(scaled.descent());
        }
        let margin = (size * 0.25).ceil();
        let Some((x0, y0, mut mask)) = c.mask(
            x - margin,
            y - ascent - margin,
            x + w + margin,
            y - descent + margin,
        ) else {
            return;
        };
        let mut run_left = x;
        for run in &runs {
            let run_top = y - run.font.as_scaled(run.px(size)).ascent();
            draw_text_mut(
                &mut mask,
                Luma([255]),
                run_left.round() as i32 - x0,
                run_top.round() as i32 - y0,
                run.px(size),
                run.font,
                run.text,
            );
            run_left += run.width(size);
        }
        c.paint(x0, y0, &mask, colour);
    }

    /// Texts whose glyphs were kept from an earlier drawing are the same pixels as texts drawn
    /// afresh: at every fraction of a pixel, in mixed scripts, and cut by the picture's edges.
    #[test]
    fn kept_glyphs_draw_the_same_pixels() {
        let texts = [
            (FontKind::Regular, 13.5, "1,-2"),
            (FontKind::Bold, 22.0, "Alice (White)"),
            (FontKind::Bold, 19.0, "山田 花子 (白) の手番"),
            (FontKind::Regular, 19.0, "   ·   23手目: 1,1-1,-1"),
        ];
        let colour = hex(0xf2f3f5);
        for (kind, size, s) in texts {
            for step in 0..10 {
                let f = step as f32 / 10.0;
                for (x, y) in [
                    (20.0 + f, 40.0 + f * 0.7),
                    (-7.0 - f, 12.0 + f),
                    (150.0 + f, 58.0),
                ] {
                    let mut kept = Canvas::new(220, 64, hex(0x2b2d31));
                    kept.text(kind, size, x, y, Align::Left, s, colour);
                    let mut fresh = Canvas::new(220, 64, hex(0x2b2d31));
                    text_drawn_directly(&mut fresh, kind, size, (x, y), s, colour);
                    assert!(kept.img == fresh.img, "{s:?} at ({x}, {y})");
                }
            }
        }
    }

    #[test]
    fn filled_hexagon_covers_its_centre_and_not_its_outside() {
        let mut c = Canvas::new(100, 100, hex(0x000000));
        let pts: Vec<(f32, f32)> = (0..6)
            .map(|i| {
                let a = std::f32::consts::PI / 3.0 * i as f32 + 0.5;
                (50.0 + 30.0 * a.cos(), 50.0 + 30.0 * a.sin())
            })
            .collect();
        c.fill_convex(&pts, hex(0xffffff));
        assert_eq!(c.img.get_pixel(50, 50).0, [255, 255, 255, 255]);
        assert_eq!(c.img.get_pixel(50, 10).0, [0, 0, 0, 255]);
        assert_eq!(c.img.get_pixel(5, 50).0, [0, 0, 0, 255]);
        // The edge is blended, neither colour.
        let edge = c
            .img
            .pixels()
            .filter(|p| p.0[0] > 0 && p.0[0] < 255)
            .count();
        assert!(edge >= 60, "anti-aliased edge pixels: {edge}");
    }

    /// The canvas's polygons and text are imageproc's: the same pixels as imageproc's own
    /// functions drawing white on black, coverage snapped to eighths.
    #[test]
    fn polygons_and_text_are_imageprocs() {
        let snap = |v: u8| {
            let k = round::level(hex(0xffffff), f32::from(v) / 255.0);
            ((255 * k + 4) >> 3) as u8
        };
        let pts = [(20.3, 10.8), (70.6, 18.2), (55.1, 60.9), (12.7, 44.4)];
        let mut c = Canvas::new(90, 80, hex(0x000000));
        c.fill_convex(&pts, hex(0xffffff));
        let mut want = GrayImage::new(90, 80);
        let poly: Vec<Point<i32>> = pts
            .iter()
            .map(|&(x, y)| Point::new((x - 0.5).round() as i32, (y - 0.5).round() as i32))
            .collect();
        draw_antialiased_polygon_mut(&mut want, &poly, Luma([255]), cover);
        for (x, y, p) in want.enumerate_pixels() {
            assert_eq!(c.img.get_pixel(x, y).0[0], snap(p.0[0]), "({x}, {y})");
        }
        let mut c = Canvas::new(200, 50, hex(0x000000));
        c.text(
            FontKind::Regular,
            20.0,
            10.0,
            30.0,
            Align::Left,
            "q,r 1,-2",
            hex(0xffffff),
        );
        let mut want = GrayImage::new(200, 50);
        let Some(f) = fonts() else {
            panic!("fonts load")
        };
        let ascent = f
            .get(FontKind::Regular)
            .as_scaled(PxScale::from(20.0))
            .ascent();
        let top = (30.0 - ascent).round() as i32;
        draw_text_mut(
            &mut want,
            Luma([255]),
            10,
            top,
            PxScale::from(20.0),
            f.get(FontKind::Regular),
            "q,r 1,-2",
        );
        for (x, y, p) in want.enumerate_pixels() {
            assert_eq!(c.img.get_pixel(x, y).0[0], snap(p.0[0]), "({x}, {y})");
        }
    }

    #[test]
    fn translucent_lines_blend_evenly_and_shapes_clip() {
        let mut c = Canvas::new(60, 40, hex(0x000000));
        c.line(
            (-10.0, 20.0),
            (70.0, 20.0),
            8.0,
            Rgb8A {
                a: 128,
                ..hex(0xffffff)
            },
        );
        // Half way, in eighths: 4/8 of 255.
        assert_eq!(c.img.get_pixel(30, 20).0, [128, 128, 128, 255]);
        assert_eq!(c.img.get_pixel(0, 20).0, [128, 128, 128, 255]);
        assert_eq!(c.img.get_pixel(30, 5).0, [0, 0, 0, 255]);
        c.line((5.0, 35.5), (55.0, 35.5), 1.0, hex(0xffffff));
        assert!(c.img.get_pixel(30, 35).0[0] > 100);
    }

    #[test]
    fn text_is_drawn_where_it_is_measured() {
        let mut c = Canvas::new(200, 60, hex(0x000000));
        let (l, t, r, b) = c.text(
            FontKind::Bold,
            24.0,
            100.0,
            40.0,
            Align::Centre,
            "Hex 12",
            hex(0xffffff),
        );
        assert!((r - l - text_width(FontKind::Bold, 24.0, "Hex 12")).abs() < 0.01);
        let lit: Vec<(u32, u32)> = c
            .img
            .enumerate_pixels()
            .filter(|p| p.2 .0[0] > 128)
            .map(|p| (p.0, p.1))
            .collect();
        assert!(lit.len() > 100);
        for (x, y) in lit {
            assert!(x as f32 >= l - 2.0 && x as f32 <= r + 2.0, "{x}");
            assert!(y as f32 >= t - 2.0 && y as f32 <= b + 2.0, "{y}");
        }
    }

    /// Japanese text is drawn (lit pixels where it is measured), Latin text inside it keeps
    /// DejaVu, and text without Japanese is one DejaVu run.
    #[test]
    fn japanese_text_is_drawn_with_the_japanese_font() {
        let Some(f) = fonts() else {
            panic!("fonts load")
        };
        let runs = f.runs(FontKind::Bold, "Alice（白）の手番");
        assert_eq!(runs.len(), 2);
        assert!(std::ptr::eq(runs[0].font, f.get(FontKind::Bold)));
        assert_eq!((runs[0].text, runs[0].scale), ("Alice", 1.0));
        assert!(
            runs[1].scale > 1.1 && runs[1].scale < 1.3,
            "{}",
            runs[1].scale
        );
        assert_eq!(f.runs(FontKind::Regular, "Move 12: c3-d3 · 5–4").len(), 1);
        let mut c = Canvas::new(300, 60, hex(0x000000));
        let s = "山田（白）の手番";
        let (l, t, r, b) = c.text(
            FontKind::Bold,
            24.0,
            150.0,
            40.0,
            Align::Centre,
            s,
            hex(0xffffff),
        );
        // About one em (0.92 of DejaVu's 20.6 px) per character.
        assert!(r - l > 8.0 * 17.0 && r - l < 8.0 * 21.0, "{}", r - l);
        let lit: Vec<(u32, u32)> = c
            .img
            .enumerate_pixels()
            .filter(|p| p.2 .0[0] > 128)
            .map(|p| (p.0, p.1))
            .collect();
        assert!(lit.len() > 400, "{} lit pixels", lit.len());
        for (x, y) in lit {
            assert!(x as f32 >= l - 2.0 && x as f32 <= r + 2.0, "{x}");
            assert!(y as f32 >= t - 2.0 && y as f32 <= b + 2.0, "{y}");
        }
    }
}
