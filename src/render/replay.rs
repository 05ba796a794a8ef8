//! Animated replays: one GIF frame per position.

use image::{Rgba, RgbaImage};

use super::RenderError;

/// The most frames a replay holds; longer sequences keep the first and last pictures and an even
/// selection between them.
pub const MAX_REPLAY_FRAMES: usize = 120;
/// How long each position shows, in milliseconds.
pub const FRAME_MS: u32 = 900;
/// How long the last position shows before the loop starts again.
pub const LAST_FRAME_MS: u32 = 3500;

/// The indices of `len` pictures kept when at most `max` may be shown: evenly spread, always
/// the first and the last.
pub(crate) fn pick_frames(len: usize, max: usize) -> Vec<usize> {
    if len <= max {
        return (0..len).collect();
    }
    if max < 2 {
        return (len - 1..len).take(max).collect();
    }
    let mut out: Vec<usize> = (0..max)
        .map(|i| (i * (len - 1) + (max - 1) / 2) / (max - 1))
        .collect();
    out.dedup();
    out
}

/// Encodes pictures as a looping animated GIF: one frame per picture, a pause on the last.
/// Pictures of different sizes are centred on the largest. After the first frame only the
/// rectangle that changed is stored, which keeps long replays small and quick to encode.
pub fn replay_gif(frames: &[RgbaImage]) -> Result<Vec<u8>, RenderError> {
    if frames.is_empty() {
        return Err(RenderError::Empty("a replay needs at least one picture"));
    }
    let keep = pick_frames(frames.len(), MAX_REPLAY_FRAMES);
    let limit = u32::from(u16::MAX);
    let w = frames
        .iter()
        .map(|f| f.width())
        .max()
        .unwrap_or(1)
        .clamp(1, limit);
    let h = frames
        .iter()
        .map(|f| f.height())
        .max()
        .unwrap_or(1)
        .clamp(1, limit);
    let mut out = Vec::new();
    {
        let mut enc = gif::Encoder::new(&mut out, w as u16, h as u16, &[])?;
        enc.set_repeat(gif::Repeat::Infinite)?;
        let mut previous: Option<RgbaImage> = None;
        for (k, &i) in keep.iter().enumerate() {
            let full = pad(&frames[i], w, h);
            // The rectangle that differs from the previous picture (1×1 when nothing does).
            let (x0, y0, x1, y1) = match &previous {
                None => (0, 0, w, h),
                Some(prev) => changed_box(prev, &full).unwrap_or((0, 0, 1, 1)),
            };
            let mut part = image::imageops::crop_imm(&full, x0, y0, x1 - x0, y1 - y0).to_image();
            // Inside the rectangle, pixels that did not change are left transparent: long
            // runs of one index compress to almost nothing.
            if let Some(prev) = &previous {
                for (x, y, px) in part.enumerate_pixels_mut() {
                    if prev.get_pixel(x + x0, y + y0) == px {
                        *px = Rgba([0, 0, 0, 0]);
                    }
                }
            }
            let q = super::encode::quantise_to(&part, 255);
            let ms = if k + 1 == keep.len() {
                LAST_FRAME_MS
            } else {
                FRAME_MS
            };
            let frame = gif::Frame {
                left: x0 as u16,
                top: y0 as u16,
                width: part.width() as u16,
                height: part.height() as u16,
                delay: (ms / 10) as u16,
                dispose: gif::DisposalMethod::Keep,
                palette: Some(q.palette.concat()),
                transparent: q.transparent,
                buffer: std::borrow::Cow::Owned(q.indices),
                ..gif::Frame::default()
            };
            enc.write_frame(&frame)?;
            previous = Some(full);
        }
    }
    Ok(out)
}

/// The bounding box `(x0, y0, x1, y1)` (exclusive ends) of the pixels that differ.
fn changed_box(a: &RgbaImage, b: &RgbaImage) -> Option<(u32, u32, u32, u32)> {
    let (w, h) = b.dimensions();
    let row = (w * 4) as usize;
    let (mut x0, mut y0, mut x1, mut y1) = (w, h, 0, 0);
    for (y, (ra, rb)) in a
        .as_raw()
        .chunks_exact(row)
        .zip(b.as_raw().chunks_exact(row))
        .enumerate()
    {
        if ra == rb {
            continue;
        }
        let pairs = || ra.chunks_exact(4).zip(rb.chunks_exact(4));
        let first = pairs().position(|(p, q)| p != q);
        let last = pairs().rposition(|(p, q)| p != q);
        if let (Some(f), Some(l)) = (first, last) {
            x0 = x0.min(f as u32);
            x1 = x1.max(l as u32 + 1);
            y0 = y0.min(y as u32);
            y1 = y1.max(y as u32 + 1);
        }
    }
    (x1 > x0 && y1 > y0).then_some((x0, y0, x1, y1))
}

/// `img` centred on a `w`×`h` canvas filled with its own top-left colour (the background).
fn pad(img: &RgbaImage, w: u32, h: u32) -> RgbaImage {
    if img.dimensions() == (w, h) {
        let mut out = img.clone();
        for px in out.pixels_mut() {
            px.0[3] = 255;
        }
        return out;
    }
    let bg = img
        .get_pixel_checked(0, 0)
        .copied()
        .unwrap_or(Rgba([0, 0, 0, 255]));
    let mut out = RgbaImage::from_pixel(w, h, Rgba([bg.0[0], bg.0[1], bg.0[2], 255]));
    let dx = (w.saturating_sub(img.width())) / 2;
    let dy = (h.saturating_sub(img.height())) / 2;
    for (x, y, px) in img.enumerate_pixels() {
        if x + dx < w && y + dy < h {
            out.put_pixel(x + dx, y + dy, Rgba([px.0[0], px.0[1], px.0[2], 255]));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::codecs::gif::GifDecoder;
    use image::AnimationDecoder;

    #[test]
    fn frame_selection_keeps_both_ends() {
        assert_eq!(pick_frames(3, 120), vec![0, 1, 2]);
        let p = pick_frames(500, 120);
        assert_eq!(p.len(), 120);
        assert_eq!(p[0], 0);
        assert_eq!(*p.last().unwrap(), 499);
        assert!(p.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn gif_decodes_with_one_frame_per_picture() {
        let frames: Vec<RgbaImage> = (0..5u8)
            .map(|i| {
                RgbaImage::from_fn(40 + u32::from(i), 30, |x, y| {
                    if x / 8 == u32::from(i) {
                        Rgba([200, 40, 40, 255])
                    } else {
                        Rgba([20, (y * 4) as u8, 90, 255])
                    }
                })
            })
            .collect();
        let gif = replay_gif(&frames).unwrap();
        let dec = GifDecoder::new(std::io::Cursor::new(&gif)).unwrap();
        let decoded = dec.into_frames().collect_frames().unwrap();
        assert_eq!(decoded.len(), 5);
        // The last frame lingers.
        let (n, d) = decoded[4].delay().numer_denom_ms();
        assert_eq!(n / d, LAST_FRAME_MS);
        // The composed last frame shows the last picture (centred): its red band at x = 32..40 + 2.
        let last = decoded[4].buffer();
        assert_eq!(last.dimensions(), (44, 30));
        let px = last.get_pixel(2 + 34, 10).0;
        assert!(px[0] > 150 && px[1] < 90, "{px:?}");
    }

    #[test]
    fn empty_replay_is_an_error() {
        assert!(matches!(replay_gif(&[]), Err(RenderError::Empty(_))));
    }
}
