//! Compact PNGs: pictures are reduced to at most 256 colours and written as indexed PNGs.
//!
//! Board pictures are flat colours plus anti-aliased edges whose coverage is snapped to a few
//! steps (see the canvas), so a few hundred colours describe them. The most frequent become
//! the palette; rarer edge shades take the nearest palette colour.

use std::io::Write;

use image::RgbaImage;

use super::RenderError;

/// The palette (RGB triples) and one index per pixel.
pub(crate) struct Indexed {
    pub palette: Vec<[u8; 3]>,
    pub indices: Vec<u8>,
    /// The index of fully transparent pixels, when there are any (one past the colours).
    pub transparent: Option<u8>,
}

/// Reduces a picture to at most 256 colours (exactly, when it has no more).
pub(crate) fn quantise(img: &RgbaImage) -> Indexed {
    quantise_to(img, 256)
}

/// Reduces a picture to at most `max` colours (65 ≤ `max` ≤ 256). Fully transparent pixels get
/// an index of their own after the colours (so pass 255 when there may be some).
pub(crate) fn quantise_to(img: &RgbaImage, max: usize) -> Indexed {
    let max = max.clamp(65, 256);
    let raw = img.as_raw();
    // Pixels as little-endian words (alpha in the top byte), compared whole: the picture is
    // made of long runs of one colour.
    let words = || {
        raw.chunks_exact(4)
            .map(|p| u32::from_le_bytes([p[0], p[1], p[2], p[3]]))
    };
    let mut counts = ColourTable::new();
    let mut prev = 0u32;
    let mut run = 0u32;
    for w in words() {
        if w == prev {
            run += 1;
        } else {
            if run > 0 && prev >> 24 != 0 {
                *counts.slot(prev & 0xff_ffff) += run;
            }
            prev = w;
            run = 1;
        }
    }
    if run > 0 && prev >> 24 != 0 {
        *counts.slot(prev & 0xff_ffff) += run;
    }
    let rgb = |c: u32| [c as u8, (c >> 8) as u8, (c >> 16) as u8];
    let mut by_count: Vec<([u8; 3], u32)> = counts.entries().map(|(c, n)| (rgb(c), n)).collect();
    by_count.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let palette: Vec<[u8; 3]> = if by_count.len() <= max {
        by_count.iter().map(|c| c.0).collect()
    } else {
        // The most frequent colours, plus a coarse 4×4×4 grid so that no colour is far from
        // some entry (pictures with gradients stay recognisable).
        let mut p: Vec<[u8; 3]> = by_count.iter().take(max - 64).map(|c| c.0).collect();
        for r in 0..4u8 {
            for g in 0..4u8 {
                for b in 0..4u8 {
                    p.push([r * 85, g * 85, b * 85]);
                }
            }
        }
        p
    };
    let pack = |c: &[u8; 3]| u32::from(c[2]) << 16 | u32::from(c[1]) << 8 | u32::from(c[0]);
    // Colour → palette index; the table stores index + 1 (0 = not yet assigned).
    let mut index = ColourTable::new();
    for (i, c) in palette.iter().enumerate().rev() {
        *index.slot(pack(c)) = i as u32 + 1;
    }
    for (c, _) in &by_count {
        let slot = index.slot(pack(c));
        if *slot != 0 {
            continue;
        }
        let nearest = palette
            .iter()
            .enumerate()
            .min_by_key(|(_, p)| {
                let d = |a: u8, b: u8| (i32::from(a) - i32::from(b)).pow(2);
                d(c[0], p[0]) + d(c[1], p[1]) + d(c[2], p[2])
            })
            .map_or(0, |(i, _)| i as u32);
        *slot = nearest + 1;
    }
    let clear = palette.len().min(255) as u8;
    let mut any_clear = false;
    let mut indices = vec![0u8; raw.len() / 4];
    let mut last = None;
    let mut last_i = 0u8;
    for (out, w) in indices.iter_mut().zip(words()) {
        if last != Some(w) {
            last = Some(w);
            last_i = if w >> 24 == 0 {
                any_clear = true;
                clear
            } else {
                index.get(w & 0xff_ffff).saturating_sub(1) as u8
            };
        }
        *out = last_i;
    }
    let mut palette = palette;
    let transparent = any_clear.then(|| {
        if palette.len() <= usize::from(clear) {
            palette.push([0, 0, 0]);
        }
        clear
    });
    Indexed {
        palette,
        indices,
        transparent,
    }
}

/// A map from packed `0xRRGGBB` colours to counters: open addressing with linear probing and a
/// multiplicative hash, much cheaper than a general-purpose map for the few hundred or thousand
/// colours of a picture.
struct ColourTable {
    /// Colour + 1 (0 = empty slot) and its value.
    slots: Vec<(u32, u32)>,
    len: usize,
}

impl ColourTable {
    fn new() -> ColourTable {
        ColourTable {
            slots: vec![(0, 0); 1024],
            len: 0,
        }
    }

    #[inline]
    fn home(&self, c: u32) -> usize {
        (c.wrapping_add(1).wrapping_mul(0x9E37_79B1) >> 8) as usize & (self.slots.len() - 1)
    }

    /// The value of `c`, 0 when absent.
    #[inline]
    fn get(&self, c: u32) -> u32 {
        let mask = self.slots.len() - 1;
        let mut i = self.home(c);
        loop {
            let (k, v) = self.slots[i];
            if k == c + 1 {
                return v;
            }
            if k == 0 {
                return 0;
            }
            i = (i + 1) & mask;
        }
    }

    /// The value of `c`, inserted as 0 when absent.
    #[inline]
    fn slot(&mut self, c: u32) -> &mut u32 {
        if (self.len + 1) * 2 > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = self.home(c);
        loop {
            let k = self.slots[i].0;
            if k == c + 1 {
                break;
            }
            if k == 0 {
                self.slots[i].0 = c + 1;
                self.len += 1;
                break;
            }
            i = (i + 1) & mask;
        }
        &mut self.slots[i].1
    }

    fn grow(&mut self) {
        let bigger = vec![(0, 0); self.slots.len() * 2];
        let old = std::mem::replace(&mut self.slots, bigger);
        self.len = 0;
        for (k, v) in old {
            if k != 0 {
                *self.slot(k - 1) = v;
            }
        }
    }

    fn entries(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.slots
            .iter()
            .filter(|s| s.0 != 0)
            .map(|&(k, v)| (k - 1, v))
    }
}

/// Encodes a picture as an indexed (palette) PNG; the alpha channel is dropped, pictures are
/// opaque.
pub fn encode_png(img: &RgbaImage) -> Result<Vec<u8>, RenderError> {
    let q = quantise(img);
    let mut out = Vec::with_capacity(64 * 1024);
    {
        let mut enc = png::Encoder::new(&mut out, img.width(), img.height());
        enc.set_color(png::ColorType::Indexed);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_palette(q.palette.concat());
        let mut w = enc.write_header()?;
        // The image data are compressed in one go and written as a single IDAT chunk: fed row
        // by row through the PNG writer, the compressor's buffers are reset for every row, which
        // cost more than the compression itself.
        let width = img.width() as usize;
        let mut rows = Vec::with_capacity(q.indices.len() + img.height() as usize);
        if width > 0 {
            for row in q.indices.chunks_exact(width) {
                // Filter type 0 (none): runs of one palette index compress best unfiltered.
                rows.push(0);
                rows.extend_from_slice(row);
            }
        }
        // Level 1 (greedy matching) is about 3.5× faster than level 2 for pictures about a
        // quarter larger (still well under 100 KB for the largest boards).
        let mut z = flate2::write::ZlibEncoder::new(
            Vec::with_capacity(64 * 1024),
            flate2::Compression::new(1),
        );
        z.write_all(&rows).map_err(png::EncodingError::from)?;
        let data = z.finish().map_err(png::EncodingError::from)?;
        w.write_chunk(png::chunk::IDAT, &data)?;
        w.finish()?;
    }
    Ok(out)
}
