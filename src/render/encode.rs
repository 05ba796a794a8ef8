//! Compact PNGs: pictures are reduced to at most 256 colours and written as indexed PNGs.
//!
//! Board pictures are flat colours plus anti-aliased edges whose coverage is snapped to a few
//! steps (see the canvas), so a few hundred colours describe them. The most frequent become
//! the palette; rarer edge shades take the nearest palette colour.

use std::collections::HashMap;

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
    let mut counts: HashMap<[u8; 3], u32> = HashMap::new();
    let mut prev = [0u8; 3];
    let mut run = 0u32;
    for px in raw.chunks_exact(4) {
        if px[3] == 0 {
            continue;
        }
        let c = [px[0], px[1], px[2]];
        if c == prev && run > 0 {
            run += 1;
        } else {
            if run > 0 {
                *counts.entry(prev).or_insert(0) += run;
            }
            prev = c;
            run = 1;
        }
    }
    if run > 0 {
        *counts.entry(prev).or_insert(0) += run;
    }
    let mut by_count: Vec<([u8; 3], u32)> = counts.into_iter().collect();
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
    let mut index: HashMap<[u8; 3], u8> = HashMap::with_capacity(by_count.len());
    for (i, c) in palette.iter().enumerate().rev() {
        index.insert(*c, i as u8);
    }
    for (c, _) in &by_count {
        if index.contains_key(c) {
            continue;
        }
        let nearest = palette
            .iter()
            .enumerate()
            .min_by_key(|(_, p)| {
                let d = |a: u8, b: u8| (i32::from(a) - i32::from(b)).pow(2);
                d(c[0], p[0]) + d(c[1], p[1]) + d(c[2], p[2])
            })
            .map_or(0, |(i, _)| i as u8);
        index.insert(*c, nearest);
    }
    let mut indices = Vec::with_capacity(raw.len() / 4);
    let mut last = ([0u8; 3], 0u8, false);
    let clear = palette.len().min(255) as u8;
    let mut any_clear = false;
    for px in raw.chunks_exact(4) {
        if px[3] == 0 {
            indices.push(clear);
            any_clear = true;
            continue;
        }
        let c = [px[0], px[1], px[2]];
        if last.2 && last.0 == c {
            indices.push(last.1);
            continue;
        }
        let i = index.get(&c).copied().unwrap_or(0);
        last = (c, i, true);
        indices.push(i);
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
        // Runs of one palette index compress best unfiltered; level 2 is near the best size
        // for a fraction of the time.
        enc.set_deflate_compression(png::DeflateCompression::Level(2));
        enc.set_filter(png::Filter::NoFilter);
        let mut w = enc.write_header()?;
        w.write_image_data(&q.indices)?;
        w.finish()?;
    }
    Ok(out)
}
