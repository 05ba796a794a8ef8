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
#[cfg(test)]
fn quantise(img: &RgbaImage) -> Indexed {
    quantise_to(img, 256)
}

/// Reduces a picture to at most `max` colours (65 ≤ `max` ≤ 256). Fully transparent pixels get
/// an index of their own after the colours (so pass 255 when there may be some).
///
/// One pass finds the runs of equal pixels and numbers their colours; the indices are then
/// written run by run.
pub(crate) fn quantise_to(img: &RgbaImage, max: usize) -> Indexed {
    quantise_rows(img, max, false)
}

/// [`quantise_to`], the indices written as a PNG's unfiltered image data when `png_rows`: each
/// row preceded by its filter byte, 0 (none).
fn quantise_rows(img: &RgbaImage, max: usize, png_rows: bool) -> Indexed {
    let max = max.clamp(65, 256);
    let runs = runs_of(img.as_raw());
    let rgb = |c: u32| [c as u8, (c >> 8) as u8, (c >> 16) as u8];
    let mut by_count: Vec<(u32, u32)> = runs
        .colours
        .iter()
        .zip(&runs.counts)
        .filter(|(c, _)| **c != CLEAR)
        .map(|(&c, &n)| (c, n))
        .collect();
    by_count.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(rgb(a.0).cmp(&rgb(b.0))));
    let palette = choose_palette(&by_count, max, rgb);
    // Packed colour → palette index + 1.
    let mut index = ColourTable::new();
    for (i, c) in palette.iter().enumerate().rev() {
        *index.slot(pack(c)) = i as u32 + 1;
    }
    let clear = palette.len().min(255) as u8;
    let near = Nearest::new(&palette);
    // Colour number → palette index.
    let remap: Vec<u8> = runs
        .colours
        .iter()
        .map(|&c| match c {
            CLEAR => clear,
            c => match index.get(c) {
                0 => near.find(rgb(c)),
                i => (i - 1) as u8,
            },
        })
        .collect();
    let any_clear = runs.colours.contains(&CLEAR);
    // The indices row by row: a PNG's rows each after its filter byte, 0 (none); otherwise all
    // the pixels as one row without one.
    let n = img.as_raw().len() / 4;
    let row = if png_rows { img.width() as usize } else { n };
    let len = n + if png_rows { img.height() as usize } else { 0 };
    let mut indices = vec![0u8; len + SPLAT];
    // Where the next index goes, and how much of its row is written.
    let (mut at, mut x) = (0, 0);
    for &(run, id) in &runs.runs {
        let (mut run, v) = (run as usize, remap[id as usize]);
        while run > 0 {
            if png_rows && x == 0 {
                indices[at] = 0;
                at += 1;
            }
            let take = run.min(row - x);
            splat(&mut indices, at, take, v);
            at += take;
            run -= take;
            x += take;
            if x == row {
                x = 0;
            }
        }
    }
    indices.truncate(len);
    finish(palette, indices, any_clear, clear)
}

/// Room left after the indices for [`splat`]'s overshoot.
const SPLAT: usize = 16;

/// Writes `len` copies of `v` at `at`. Most runs are short (edges): those are written as one
/// 16-byte block, the bytes past the run overwritten by the next run or cut off at the end,
/// which is cheaper than a call to `fill` per run.
#[inline]
fn splat(buf: &mut [u8], at: usize, len: usize, v: u8) {
    if len <= SPLAT {
        buf[at..at + SPLAT].copy_from_slice(&[v; SPLAT]);
    } else {
        buf[at..at + len].fill(v);
    }
}

/// Marks fully transparent pixels among the packed colours (no RGB colour has bit 24 set).
const CLEAR: u32 = 1 << 24;

/// A picture as runs of equal pixels, its colours numbered in order of first appearance.
struct Runs {
    /// Each run's length and colour number.
    runs: Vec<(u32, u32)>,
    /// The packed `0xBBGGRR` colour (or [`CLEAR`]) of each number.
    colours: Vec<u32>,
    /// The number of pixels of each colour.
    counts: Vec<u32>,
}

/// Splits RGBA bytes into runs of equal pixels (compared eight at a time).
fn runs_of(raw: &[u8]) -> Runs {
    let n = raw.len() / 4;
    let word = |i: usize| u32::from_le_bytes(raw[4 * i..4 * i + 4].try_into().expect("four bytes"));
    let quad =
        |i: usize| u128::from_le_bytes(raw[4 * i..4 * i + 16].try_into().expect("sixteen bytes"));
    let mut runs = Vec::with_capacity(n / 8);
    let mut colours: Vec<u32> = Vec::new();
    let mut counts: Vec<u32> = Vec::new();
    // Packed colour → number + 1.
    let mut table = ColourTable::new();
    // Recently seen pixels and their number + 1 (0 = empty), in front of the table: edges
    // alternate between a few colours.
    let mut recent = [(0u32, 0u32); 256];
    let mut i = 0;
    while i < n {
        let w = word(i);
        let four = u128::from(w) * 0x0000_0001_0000_0001_0000_0001_0000_0001;
        // Four pixels at a time; in the first four that differ, the lowest differing bit tells
        // where the run ends (pixel `j` is the lowest of the four words).
        let mut j = i + 1;
        loop {
            if j + 4 > n {
                while j < n && word(j) == w {
                    j += 1;
                }
                break;
            }
            let x = quad(j) ^ four;
            if x != 0 {
                j += (x.trailing_zeros() / 32) as usize;
                break;
            }
            j += 4;
        }
        let h = (w.wrapping_mul(0x9E37_79B1) >> 24) as usize;
        let id = if recent[h].1 != 0 && recent[h].0 == w {
            recent[h].1 - 1
        } else {
            let key = if w >> 24 == 0 { CLEAR } else { w & 0xff_ffff };
            let slot = table.slot(key);
            if *slot == 0 {
                colours.push(key);
                counts.push(0);
                *slot = colours.len() as u32;
            }
            recent[h] = (w, *slot);
            *slot - 1
        };
        counts[id as usize] += (j - i) as u32;
        runs.push(((j - i) as u32, id));
        i = j;
    }
    Runs {
        runs,
        colours,
        counts,
    }
}

fn pack(c: &[u8; 3]) -> u32 {
    u32::from(c[2]) << 16 | u32::from(c[1]) << 8 | u32::from(c[0])
}

/// The palette for colours listed by decreasing count: all of them when they fit, else the most
/// frequent plus a coarse 4×4×4 grid so that no colour is far from some entry (pictures with
/// gradients stay recognisable).
fn choose_palette(
    by_count: &[(u32, u32)],
    max: usize,
    rgb: impl Fn(u32) -> [u8; 3],
) -> Vec<[u8; 3]> {
    if by_count.len() <= max {
        return by_count.iter().map(|c| rgb(c.0)).collect();
    }
    let mut p: Vec<[u8; 3]> = by_count.iter().take(max - 64).map(|c| rgb(c.0)).collect();
    for r in 0..4u8 {
        for g in 0..4u8 {
            for b in 0..4u8 {
                p.push([r * 85, g * 85, b * 85]);
            }
        }
    }
    p
}

/// Nearest-colour search over a palette of at most 256 entries: the entries sorted by red, the
/// search going out from the colour's red both ways and stopping where the red difference alone
/// is larger than the best distance found. The distance and the index are packed in one key so
/// that a plain minimum finds the nearest entry, the first of equals, as a scan of every entry
/// would.
struct Nearest {
    /// Red, green, blue and palette index, by red then index.
    by_red: Vec<[i32; 4]>,
}

impl Nearest {
    fn new(palette: &[[u8; 3]]) -> Nearest {
        let mut by_red: Vec<[i32; 4]> = palette
            .iter()
            .take(256)
            .enumerate()
            .map(|(i, p)| [i32::from(p[0]), i32::from(p[1]), i32::from(p[2]), i as i32])
            .collect();
        by_red.sort_unstable();
        Nearest { by_red }
    }

    fn find(&self, c: [u8; 3]) -> u8 {
        let (cr, cg, cb) = (i32::from(c[0]), i32::from(c[1]), i32::from(c[2]));
        let start = self.by_red.partition_point(|e| e[0] < cr);
        // At most 3 · 255² < 2²⁴: room for the index in the low byte.
        let mut best = u32::MAX;
        let mut visit = |e: &[i32; 4]| {
            let dr = e[0] - cr;
            if (dr * dr) as u32 > best >> 8 {
                return false;
            }
            let (dg, db) = (e[1] - cg, e[2] - cb);
            let d = (dr * dr + dg * dg + db * db) as u32;
            best = best.min(d << 8 | e[3] as u32);
            true
        };
        for e in &self.by_red[start..] {
            if !visit(e) {
                break;
            }
        }
        for e in self.by_red[..start].iter().rev() {
            if !visit(e) {
                break;
            }
        }
        if best == u32::MAX {
            0
        } else {
            best as u8
        }
    }
}

fn finish(mut palette: Vec<[u8; 3]>, indices: Vec<u8>, any_clear: bool, clear: u8) -> Indexed {
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
}

/// Encodes a picture as an indexed (palette) PNG; the alpha channel is dropped, pictures are
/// opaque.
pub fn encode_png(img: &RgbaImage) -> Result<Vec<u8>, RenderError> {
    let q = quantise_rows(img, 256, true);
    let mut out = Vec::with_capacity(64 * 1024);
    {
        let mut enc = png::Encoder::new(&mut out, img.width(), img.height());
        enc.set_color(png::ColorType::Indexed);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_palette(q.palette.concat());
        let mut w = enc.write_header()?;
        // The image data are compressed in one go and written as a single IDAT chunk: fed row
        // by row through the PNG writer, the compressor's buffers are reset for every row, which
        // cost more than the compression itself. Filter type 0 (none) on every row: runs of one
        // palette index compress best unfiltered.
        // Level 1 (greedy matching) is about 3.5× faster than level 2 for pictures about a
        // quarter larger (still under 100 KB for the largest boards: 91 KB for 11×11). Measured
        // and left: zlib's RLE strategy (2.5× slower), smaller windows (slower and larger), the
        // Up filter (larger) and libdeflate (4× slower at its level 1, a quarter smaller).
        let mut z = flate2::write::ZlibEncoder::new(
            Vec::with_capacity(64 * 1024),
            flate2::Compression::new(1),
        );
        z.write_all(&q.indices).map_err(png::EncodingError::from)?;
        let data = z.finish().map_err(png::EncodingError::from)?;
        w.write_chunk(png::chunk::IDAT, &data)?;
        w.finish()?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::{exxit, inphexion, Theme};

    /// The nearest palette entry by a scan of every entry, the first of equals.
    fn scan(palette: &[[u8; 3]], c: [u8; 3]) -> u8 {
        let d = |p: &[u8; 3]| {
            (0..3)
                .map(|i| (i32::from(p[i]) - i32::from(c[i])).pow(2))
                .sum::<i32>()
        };
        let mut best = 0;
        for (i, p) in palette.iter().enumerate() {
            if d(p) < d(&palette[best]) {
                best = i;
            }
        }
        best as u8
    }

    fn pictures() -> Vec<RgbaImage> {
        let mut out = Vec::new();
        for theme in Theme::ALL {
            out.push(inphexion::draw(&inphexion::samples::relocation(), theme));
            out.push(inphexion::draw(&inphexion::samples::large(), theme));
            out.push(exxit::draw(&exxit::samples::full_world(), theme));
            out.push(exxit::draw(&exxit::samples::dance(), theme));
        }
        out
    }

    /// Every board of both games in both themes decodes to the picture drawn with each colour
    /// replaced by its nearest palette entry (found by scanning every entry): exactly the
    /// picture when it has at most 256 colours.
    #[test]
    fn boards_decode_to_the_drawing_with_nearest_palette_colours() {
        for img in pictures() {
            let q = quantise(&img);
            let png = encode_png(&img).unwrap();
            let back = image::load_from_memory(&png).unwrap().to_rgba8();
            assert_eq!(back.dimensions(), img.dimensions());
            let mut colours = std::collections::BTreeSet::new();
            for (a, b) in img.pixels().zip(back.pixels()) {
                let c = [a.0[0], a.0[1], a.0[2]];
                colours.insert(c);
                let want = q.palette[usize::from(scan(&q.palette, c))];
                assert_eq!([b.0[0], b.0[1], b.0[2]], want, "{c:?}");
            }
            if colours.len() <= 256 {
                assert!(back == img);
            }
        }
    }

    #[test]
    fn the_nearest_entry_is_the_first_of_equals() {
        let palette = [
            [10, 10, 10],
            [200, 0, 0],
            [0, 0, 200],
            [10, 10, 10],
            [110, 0, 0],
        ];
        let near = Nearest::new(&palette);
        for c in [
            [10, 10, 10],
            [155, 0, 0],
            [160, 0, 0],
            [0, 0, 0],
            [255, 255, 255],
            [60, 5, 5],
        ] {
            assert_eq!(near.find(c), scan(&palette, c), "{c:?}");
        }
        assert_eq!(near.find([155, 0, 0]), 1);
        assert_eq!(Nearest::new(&[]).find([1, 2, 3]), 0);
    }
}
