//! A small anti-aliased painter over an opaque [`RgbaImage`].
//!
//! Every shape is convex (or a union of convex pieces), so coverage comes from a signed distance:
//! a pixel whose centre lies half a pixel inside the edge is fully covered, half a pixel outside
//! is untouched, and the band between is blended linearly. Filled polygons and discs are drawn
//! span by span, so only the pixels near an edge pay for the distance computation.

use ab_glyph::{Font, FontRef, PxScale, ScaleFont};
use image::{Rgba, RgbaImage};

/// A colour with alpha (straight, not premultiplied).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Rgb8A {
    pub r: u8,
    pub g: u8,
    pub b: u8,
    pub a: u8,
}

/// An opaque colour from `0xRRGGBB`.
pub const fn hex(c: u32) -> Rgb8A {
    Rgb8A {
        r: (c >> 16) as u8,
        g: (c >> 8) as u8,
        b: c as u8,
        a: 255,
    }
}

/// Horizontal text alignment.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Align {
    Left,
    Centre,
}

/// Which of the embedded DejaVu faces.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum FontKind {
    Regular,
    Bold,
}

/// The embedded fonts (DejaVu Sans and Sans Bold).
pub struct Fonts {
    regular: FontRef<'static>,
    bold: FontRef<'static>,
}

impl Fonts {
    fn get(&self, kind: FontKind) -> &FontRef<'static> {
        match kind {
            FontKind::Regular => &self.regular,
            FontKind::Bold => &self.bold,
        }
    }
}

/// The fonts, parsed once. `None` only if the embedded font data were unreadable, in which case
/// pictures are drawn without text rather than failing.
pub fn fonts() -> Option<&'static Fonts> {
    static FONTS: std::sync::OnceLock<Option<Fonts>> = std::sync::OnceLock::new();
    FONTS
        .get_or_init(|| {
            Some(Fonts {
                regular: FontRef::try_from_slice(dejavu::sans::regular()).ok()?,
                bold: FontRef::try_from_slice(dejavu::sans::bold()).ok()?,
            })
        })
        .as_ref()
}

/// An image of one opaque colour.
fn filled(width: u32, height: u32, c: Rgb8A) -> RgbaImage {
    let px = [c.r, c.g, c.b, 255];
    let mut buf = vec![0u8; width as usize * height as usize * 4];
    fill_pixels(&mut buf, px);
    RgbaImage::from_raw(width, height, buf)
        .unwrap_or_else(|| RgbaImage::from_pixel(width, height, Rgba(px)))
}

/// Sets every pixel of `buf` (RGBA bytes) to `px`.
fn fill_pixels(buf: &mut [u8], px: [u8; 4]) {
    // Whole pixels at a time when the buffer is aligned for them (it always is in practice).
    match bytemuck::try_cast_slice_mut::<u8, u32>(buf) {
        Ok(words) => words.fill(u32::from_ne_bytes(px)),
        Err(_) => {
            for p in buf.chunks_exact_mut(4) {
                p.copy_from_slice(&px);
            }
        }
    }
}

/// Pictures drawn once per process and copied afterwards: the parts of a board picture that
/// many positions share (the empty board of a size, the tiles of a world). At most `KEEP`
/// entries, the oldest dropped first; safe to use from several threads.
pub struct PictureCache<K> {
    entries: std::sync::Mutex<Vec<(K, std::sync::Arc<RgbaImage>)>>,
}

impl<K: PartialEq> PictureCache<K> {
    const KEEP: usize = 6;

    pub const fn new() -> PictureCache<K> {
        PictureCache {
            entries: std::sync::Mutex::new(Vec::new()),
        }
    }

    /// A copy of the picture stored under `key`, drawn by `draw` when there is none.
    pub fn get_or_draw(&self, key: K, draw: impl FnOnce() -> RgbaImage) -> RgbaImage {
        let lock = || self.entries.lock().unwrap_or_else(|e| e.into_inner());
        let found = lock()
            .iter()
            .find(|e| e.0 == key)
            .map(|e| std::sync::Arc::clone(&e.1));
        if let Some(img) = found {
            return (*img).clone();
        }
        let img = draw();
        let mut entries = lock();
        if !entries.iter().any(|e| e.0 == key) {
            if entries.len() >= Self::KEEP {
                entries.remove(0);
            }
            entries.push((key, std::sync::Arc::new(img.clone())));
        }
        img
    }
}

/// The painter: an image plus drawing operations in floating-point pixel coordinates.
pub struct Canvas {
    pub img: RgbaImage,
    fonts: Option<&'static Fonts>,
}

/// Steps of coverage (see [`level`]).
const LEVELS: f32 = 8.0;

/// The opacity with which `c` paints a pixel it covers by `cov` (0–1), in eighths (0–8).
/// Coverage is snapped to eighths: edges stay smooth to the eye, and the picture keeps few
/// distinct colours, which makes the PNG several times smaller.
#[inline]
fn level(c: Rgb8A, cov: f32) -> u32 {
    // Rounds to nearest (the product is never negative).
    (cov * (c.a as f32 / 255.0) * LEVELS + 0.5) as u32
}

/// `x.floor() as i32` without a call into the maths library (the baseline x86-64 target has
/// no rounding instruction): the truncation, one less for negative non-integers.
#[inline]
fn ifloor(x: f32) -> i32 {
    let t = x as i32;
    t.saturating_sub(i32::from(x < t as f32))
}

/// `x.ceil() as i32`, as [`ifloor`].
#[inline]
fn iceil(x: f32) -> i32 {
    let t = x as i32;
    t.saturating_add(i32::from(x > t as f32))
}

/// Paints one pixel (RGBA bytes) with `c` at opacity `k` eighths: exact integer arithmetic,
/// the result rounded to nearest.
#[inline]
fn mix_px(px: &mut [u8], c: Rgb8A, k: u32) {
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

/// A half-plane `a·x + b·y + c ≥ 0` with `(a, b)` of unit length: the signed distance inside.
#[derive(Clone, Copy)]
struct Edge {
    a: f32,
    b: f32,
    c: f32,
}

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

    /// Blends `c` into the pixel at `(x, y)`, which must lie inside the image.
    #[inline]
    fn blend(&mut self, x: i32, y: i32, c: Rgb8A, cov: f32) {
        let k = level(c, cov);
        if k == 0 {
            return;
        }
        let i = (y as usize * self.img.width() as usize + x as usize) * 4;
        mix_px(&mut self.img.as_mut()[i..i + 4], c, k);
    }

    /// Blends `c` at full coverage into pixels `x0..x1` of row `y` (all inside the image).
    fn blend_span(&mut self, y: i32, x0: i32, x1: i32, c: Rgb8A) {
        if x1 <= x0 {
            return;
        }
        let k = level(c, 1.0);
        if k >= 8 {
            self.fill_span(y, x0, x1, c);
            return;
        }
        if k == 0 {
            return;
        }
        let w = self.img.width() as usize;
        let start = (y as usize * w + x0 as usize) * 4;
        let end = (y as usize * w + x1 as usize) * 4;
        for p in self.img.as_mut()[start..end].chunks_exact_mut(4) {
            mix_px(p, c, k);
        }
    }

    /// Rows `y0..y1` clipped to the image.
    fn rows(&self, top: f32, bottom: f32) -> std::ops::Range<i32> {
        let y0 = ifloor(top).max(0);
        let y1 = iceil(bottom).min(self.img.height() as i32);
        y0..y1.max(y0)
    }

    fn cols(&self, left: f32, right: f32) -> (i32, i32) {
        let x0 = ifloor(left).max(0);
        let x1 = iceil(right).min(self.img.width() as i32);
        (x0, x1.max(x0))
    }

    /// Sets pixels `x0..x1` of row `y` (all inside the image) to the opaque colour `c`: the
    /// same as blending them at full coverage, without the per-pixel arithmetic.
    fn fill_span(&mut self, y: i32, x0: i32, x1: i32, c: Rgb8A) {
        let w = self.img.width() as usize;
        let start = (y as usize * w + x0 as usize) * 4;
        let end = (y as usize * w + x1 as usize) * 4;
        fill_pixels(&mut self.img.as_mut()[start..end], [c.r, c.g, c.b, 255]);
    }

    /// Fills a convex polygon (vertices in either winding order).
    pub fn fill_convex(&mut self, pts: &[(f32, f32)], c: Rgb8A) {
        if pts.len() < 3 || c.a == 0 {
            return;
        }
        // Orientation: make every edge's inside positive.
        let area: f32 = (0..pts.len())
            .map(|i| {
                let (x0, y0) = pts[i];
                let (x1, y1) = pts[(i + 1) % pts.len()];
                x0 * y1 - x1 * y0
            })
            .sum();
        let sign = if area >= 0.0 { 1.0 } else { -1.0 };
        let mut edges: Vec<Edge> = Vec::with_capacity(pts.len());
        for i in 0..pts.len() {
            let (x0, y0) = pts[i];
            let (x1, y1) = pts[(i + 1) % pts.len()];
            let (dx, dy) = (x1 - x0, y1 - y0);
            let len = (dx * dx + dy * dy).sqrt();
            if len < 1e-6 {
                continue;
            }
            // Inside is to the left for positive area in y-down coordinates when sign = 1.
            let a = -dy / len * sign;
            let b = dx / len * sign;
            edges.push(Edge {
                a,
                b,
                c: -(a * x0 + b * y0),
            });
        }
        let (minx, maxx) = pts.iter().fold((f32::MAX, f32::MIN), |(lo, hi), p| {
            (lo.min(p.0), hi.max(p.0))
        });
        let (miny, maxy) = pts.iter().fold((f32::MAX, f32::MIN), |(lo, hi), p| {
            (lo.min(p.1), hi.max(p.1))
        });
        let (bx0, bx1) = self.cols(minx - 1.0, maxx + 1.0);
        for y in self.rows(miny - 1.0, maxy + 1.0) {
            let py = y as f32 + 0.5;
            // Span where every distance ≥ -0.5 (touched) and ≥ 0.5 (full).
            let (mut lo_t, mut hi_t) = (bx0 as f32, bx1 as f32);
            let (mut lo_f, mut hi_f) = (bx0 as f32, bx1 as f32);
            let mut empty = false;
            for e in &edges {
                let k = e.b * py + e.c; // distance = a·x + k
                if e.a.abs() < 1e-6 {
                    if k < -0.5 {
                        empty = true;
                    }
                    if k < 0.5 {
                        hi_f = lo_f - 1.0;
                    }
                } else if e.a > 0.0 {
                    lo_t = lo_t.max((-0.5 - k) / e.a);
                    lo_f = lo_f.max((0.5 - k) / e.a);
                } else {
                    hi_t = hi_t.min((-0.5 - k) / e.a);
                    hi_f = hi_f.min((0.5 - k) / e.a);
                }
            }
            if empty || lo_t > hi_t {
                continue;
            }
            // Pixel centres px + 0.5 within [lo, hi].
            let xt0 = ifloor(lo_t - 0.5).max(bx0);
            let xt1 = (iceil(hi_t - 0.5) + 1).min(bx1);
            let (xf0, xf1) = if lo_f <= hi_f {
                (
                    iceil(lo_f - 0.5).max(xt0),
                    (ifloor(hi_f - 0.5) + 1).min(xt1),
                )
            } else {
                (xt0, xt0)
            };
            let (xf0, xf1) = if xf1 > xf0 { (xf0, xf1) } else { (xt0, xt0) };
            self.blend_span(y, xf0, xf1, c);
            // Only the pixels outside the full span pay for the distances.
            for x in (xt0..xf0).chain(xf1.max(xt0)..xt1) {
                let px = x as f32 + 0.5;
                let d = edges
                    .iter()
                    .map(|e| e.a * px + e.b * py + e.c)
                    .fold(f32::MAX, f32::min);
                let cov = (d + 0.5).clamp(0.0, 1.0);
                if cov > 0.0 {
                    self.blend(x, y, c, cov);
                }
            }
        }
    }

    /// Fills a disc.
    pub fn fill_circle(&mut self, cx: f32, cy: f32, r: f32, c: Rgb8A) {
        if r <= 0.0 || c.a == 0 {
            return;
        }
        let (bx0, bx1) = self.cols(cx - r - 1.0, cx + r + 1.0);
        for y in self.rows(cy - r - 1.0, cy + r + 1.0) {
            let dy = y as f32 + 0.5 - cy;
            let outer = (r + 0.5) * (r + 0.5) - dy * dy;
            if outer <= 0.0 {
                continue;
            }
            let half_t = outer.sqrt();
            let inner = (r - 0.5).max(0.0).powi(2) - dy * dy;
            let half_f = if inner > 0.0 { inner.sqrt() } else { -1.0 };
            let x0 = ifloor(cx - half_t - 0.5).max(bx0);
            let x1 = (iceil(cx + half_t - 0.5) + 1).min(bx1).max(x0);
            // Pixels whose centre lies within `half_f` of the centre line are fully covered.
            let (xi0, xi1) = if half_f > 0.001 {
                let a = (ifloor(cx - half_f + 0.001 - 0.5) + 1).clamp(x0, x1);
                let b = iceil(cx + half_f - 0.001 - 0.5).clamp(a, x1);
                (a, b)
            } else {
                (x1, x1)
            };
            self.blend_span(y, xi0, xi1, c);
            for x in (x0..xi0).chain(xi1..x1) {
                let dx = x as f32 + 0.5 - cx;
                let d = (dx * dx + dy * dy).sqrt();
                let cov = (r - d + 0.5).clamp(0.0, 1.0);
                if cov > 0.0 {
                    self.blend(x, y, c, cov);
                }
            }
        }
    }

    /// A circle outline of the given stroke width, centred on radius `r`.
    pub fn ring(&mut self, cx: f32, cy: f32, r: f32, width: f32, c: Rgb8A) {
        let half = width / 2.0;
        let ro = r + half + 1.0;
        let ri = (r - half - 1.0).max(0.0);
        for y in self.rows(cy - ro, cy + ro) {
            let dy = y as f32 + 0.5 - cy;
            let outer = (ro * ro - dy * dy).max(0.0).sqrt();
            let inner = if dy.abs() < ri {
                (ri * ri - dy * dy).sqrt()
            } else {
                0.0
            };
            // The two arcs of this row, left and right of the hole (one span when the row
            // misses the hole).
            let spans = if inner > 3.0 {
                [
                    (cx - outer, cx - inner + 1.0),
                    (cx + inner - 1.0, cx + outer),
                ]
            } else {
                [(cx - outer, cx + outer), (0.0, -1.0)]
            };
            for (lo, hi) in spans {
                if hi < lo {
                    continue;
                }
                let (x0, x1) = self.cols(lo - 1.0, hi + 1.0);
                for x in x0..x1 {
                    let dx = x as f32 + 0.5 - cx;
                    let d = (dx * dx + dy * dy).sqrt();
                    let cov = (half - (d - r).abs() + 0.5).clamp(0.0, 1.0);
                    if cov > 0.0 {
                        self.blend(x, y, c, cov);
                    }
                }
            }
        }
    }

    /// A thick segment with round caps.
    pub fn line(&mut self, a: (f32, f32), b: (f32, f32), width: f32, c: Rgb8A) {
        let half = width / 2.0;
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let len2 = (dx * dx + dy * dy).max(1e-6);
        let reach = half + 1.0;
        for y in self.rows(a.1.min(b.1) - reach, a.1.max(b.1) + reach) {
            let py = y as f32 + 0.5;
            // Only the part of the segment within `reach` rows of this one can touch it.
            let (t0, t1) = if dy.abs() < 1e-3 {
                (0.0, 1.0)
            } else {
                let ta = ((py - reach - a.1) / dy).clamp(0.0, 1.0);
                let tb = ((py + reach - a.1) / dy).clamp(0.0, 1.0);
                (ta.min(tb), ta.max(tb))
            };
            let xa = a.0 + dx * t0;
            let xb = a.0 + dx * t1;
            let (bx0, bx1) = self.cols(xa.min(xb) - reach, xa.max(xb) + reach);
            for x in bx0..bx1 {
                let px = x as f32 + 0.5;
                let t = (((px - a.0) * dx + (py - a.1) * dy) / len2).clamp(0.0, 1.0);
                let (qx, qy) = (a.0 + t * dx - px, a.1 + t * dy - py);
                let d = (qx * qx + qy * qy).sqrt();
                let cov = (half - d + 0.5).clamp(0.0, 1.0);
                if cov > 0.0 {
                    self.blend(x, y, c, cov);
                }
            }
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
        if len < 1e-3 {
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
        let r = radius.min(w / 2.0).min(h / 2.0).max(0.0);
        let (bx0, bx1) = self.cols(x - 1.0, x + w + 1.0);
        let d = |fx: f32, fy: f32| rounded_box_distance(fx, fy, x, y, w, h, r);
        for py in self.rows(y - 1.0, y + h + 1.0) {
            let fy = py as f32 + 0.5;
            // The distance grows away from the box's centre line, so the fully covered pixels
            // (distance ≤ −½) form one span: edges are computed from both ends inwards.
            let mut lo = bx0;
            while lo < bx1 {
                let dist = d(lo as f32 + 0.5, fy);
                if dist <= -0.5 {
                    break;
                }
                let cov = (0.5 - dist).clamp(0.0, 1.0);
                if cov > 0.0 {
                    self.blend(lo, py, c, cov);
                }
                lo += 1;
            }
            let mut hi = bx1;
            while hi > lo {
                let dist = d((hi - 1) as f32 + 0.5, fy);
                if dist <= -0.5 {
                    break;
                }
                let cov = (0.5 - dist).clamp(0.0, 1.0);
                if cov > 0.0 {
                    self.blend(hi - 1, py, c, cov);
                }
                hi -= 1;
            }
            self.blend_span(py, lo, hi, c);
        }
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
        let r = radius.min(w / 2.0).min(h / 2.0).max(0.0);
        let half = width / 2.0;
        let (bx0, bx1) = self.cols(x - half - 1.0, x + w + half + 1.0);
        let d = |fx: f32, fy: f32| rounded_box_distance(fx, fy, x, y, w, h, r);
        for py in self.rows(y - half - 1.0, y + h + half + 1.0) {
            let fy = py as f32 + 0.5;
            // Pixels deep inside (distance ≤ −(half + ½)) are untouched and form one span:
            // the outline is computed from both ends inwards.
            let deep = -(half + 0.5);
            let mut lo = bx0;
            while lo < bx1 {
                let dist = d(lo as f32 + 0.5, fy);
                if dist <= deep {
                    break;
                }
                let cov = (half - dist.abs() + 0.5).clamp(0.0, 1.0);
                if cov > 0.0 {
                    self.blend(lo, py, c, cov);
                }
                lo += 1;
            }
            let mut hi = bx1;
            while hi > lo {
                let dist = d((hi - 1) as f32 + 0.5, fy);
                if dist <= deep {
                    break;
                }
                let cov = (half - dist.abs() + 0.5).clamp(0.0, 1.0);
                if cov > 0.0 {
                    self.blend(hi - 1, py, c, cov);
                }
                hi -= 1;
            }
        }
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
        let font = fonts.get(kind);
        let scaled = font.as_scaled(PxScale::from(size));
        let w = text_width(kind, size, s);
        let left = match align {
            Align::Left => x,
            Align::Centre => x - w / 2.0,
        };
        let mut caret = left;
        let mut prev = None;
        for ch in s.chars() {
            let id = scaled.glyph_id(ch);
            if let Some(p) = prev {
                caret += scaled.kern(p, id);
            }
            let glyph = id.with_scale_and_position(size, ab_glyph::point(caret, y));
            caret += scaled.h_advance(id);
            prev = Some(id);
            if let Some(outline) = font.outline_glyph(glyph) {
                let bb = outline.px_bounds();
                let (ox, oy) = (bb.min.x as i32, bb.min.y as i32);
                let (iw, ih) = (self.img.width() as i32, self.img.height() as i32);
                outline.draw(|gx, gy, v| {
                    let (px, py) = (ox + gx as i32, oy + gy as i32);
                    if px >= 0 && py >= 0 && px < iw && py < ih {
                        self.blend(px, py, c, v.clamp(0.0, 1.0));
                    }
                });
            }
        }
        (left, y - scaled.ascent(), left + w, y - scaled.descent())
    }
}

/// The signed distance from `(fx, fy)` to the box at `(x, y)` of size `w`×`h` with corners
/// rounded by `r` (negative inside).
#[inline]
fn rounded_box_distance(fx: f32, fy: f32, x: f32, y: f32, w: f32, h: f32, r: f32) -> f32 {
    let qx = (fx - (x + w / 2.0)).abs() - (w / 2.0 - r);
    let qy = (fy - (y + h / 2.0)).abs() - (h / 2.0 - r);
    let outside = (qx.max(0.0).powi(2) + qy.max(0.0).powi(2)).sqrt();
    outside + qx.max(qy).min(0.0) - r
}

/// The advance width of a line of text in pixels.
pub fn text_width(kind: FontKind, size: f32, s: &str) -> f32 {
    let Some(fonts) = fonts() else {
        return 0.0;
    };
    let scaled = fonts.get(kind).as_scaled(PxScale::from(size));
    let _ = &scaled;
    let mut w = 0.0;
    let mut prev = None;
    for ch in s.chars() {
        let id = scaled.glyph_id(ch);
        if let Some(p) = prev {
            w += scaled.kern(p, id);
        }
        w += scaled.h_advance(id);
        prev = Some(id);
    }
    w
}

/// Shortens `s` with an ellipsis until it fits in `max` pixels.
pub fn fit_text(kind: FontKind, size: f32, s: &str, max: f32) -> String {
    if text_width(kind, size, s) <= max {
        return s.to_string();
    }
    let mut chars: Vec<char> = s.chars().collect();
    while !chars.is_empty() {
        chars.pop();
        let t: String = chars.iter().collect::<String>() + "…";
        if text_width(kind, size, &t) <= max {
            return t;
        }
    }
    String::new()
}

/// The baseline that vertically centres digits and capitals on `cy`.
pub fn centred_baseline(size: f32, cy: f32) -> f32 {
    cy + size * 0.365
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn integer_floor_and_ceil_match_the_float_ones() {
        for i in -4000..4000 {
            let x = i as f32 * 0.37 - 0.5;
            assert_eq!(ifloor(x), x.floor() as i32, "{x}");
            assert_eq!(iceil(x), x.ceil() as i32, "{x}");
        }
        for x in [
            0.0,
            -0.0,
            3.0,
            -3.0,
            1e12,
            -1e12,
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
        ] {
            assert_eq!(ifloor(x), x.floor() as i32, "{x}");
            assert_eq!(iceil(x), x.ceil() as i32, "{x}");
        }
    }

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

    #[test]
    fn the_picture_cache_draws_once_and_stays_bounded() {
        let cache: PictureCache<u32> = PictureCache::new();
        let draws = std::cell::Cell::new(0);
        let draw = |v: u8| {
            draws.set(draws.get() + 1);
            RgbaImage::from_pixel(2, 2, Rgba([v, 0, 0, 255]))
        };
        assert_eq!(cache.get_or_draw(1, || draw(1)).get_pixel(0, 0).0[0], 1);
        assert_eq!(cache.get_or_draw(1, || draw(9)).get_pixel(0, 0).0[0], 1);
        assert_eq!(draws.get(), 1);
        for k in 2..=PictureCache::<u32>::KEEP as u32 + 1 {
            cache.get_or_draw(k, || draw(k as u8));
        }
        // The oldest entry was dropped: it is drawn again.
        let before = draws.get();
        cache.get_or_draw(1, || draw(1));
        assert_eq!(draws.get(), before + 1);
    }

    #[test]
    fn circles_are_anti_aliased_and_clipped() {
        let mut c = Canvas::new(40, 40, hex(0x000000));
        c.fill_circle(0.0, 0.0, 30.0, hex(0xff0000));
        c.fill_circle(30.0, 30.0, 5.0, hex(0x00ff00));
        assert_eq!(c.img.get_pixel(2, 2).0, [255, 0, 0, 255]);
        assert_eq!(c.img.get_pixel(30, 30).0, [0, 255, 0, 255]);
        assert_eq!(c.img.get_pixel(39, 39).0, [0, 0, 0, 255]);
        let partial = c
            .img
            .pixels()
            .filter(|p| p.0[1] > 0 && p.0[1] < 255)
            .count();
        assert!(partial >= 12, "{partial}");
    }
}
