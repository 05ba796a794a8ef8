//! Sample pictures of interesting situations, written to a directory for review.

use std::io;
use std::path::{Path, PathBuf};

use super::{encode_png, exxit, inphexion, replay_gif, Theme};

/// Writes a PNG of each sample situation in both themes, and a replay GIF, into `dir`
/// (created if missing). Returns the paths written.
pub fn gallery(dir: &Path) -> io::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir)?;
    let mut written = Vec::new();
    let inph: [(&str, inphexion::View); 5] = [
        ("opening", inphexion::samples::opening()),
        ("relocation", inphexion::samples::relocation()),
        ("won-chain", inphexion::samples::won()),
        ("4x4", inphexion::samples::small()),
        ("11x11", inphexion::samples::large()),
    ];
    let exx: [(&str, exxit::View); 6] = [
        ("start", exxit::samples::start()),
        ("dance-into-space", exxit::samples::dance()),
        ("big-stacks", exxit::samples::big_stacks()),
        ("expansion-chain", exxit::samples::expansion()),
        ("long-thin-world", exxit::samples::long_line()),
        ("full-world", exxit::samples::full_world()),
    ];
    let to_io = |e: super::RenderError| io::Error::other(e.to_string());
    for theme in Theme::ALL {
        for (name, v) in &inph {
            let path = dir.join(format!("inphexion-{name}-{}.png", theme.name()));
            std::fs::write(
                &path,
                encode_png(&inphexion::draw(v, theme)).map_err(to_io)?,
            )?;
            written.push(path);
        }
        for (name, v) in &exx {
            let path = dir.join(format!("exxit-{name}-{}.png", theme.name()));
            std::fs::write(&path, encode_png(&exxit::draw(v, theme)).map_err(to_io)?)?;
            written.push(path);
        }
    }
    let views: Vec<exxit::View> = exx[..4].iter().map(|(_, v)| v.clone()).collect();
    let frames = exxit::draw_sequence(&views, Theme::Dark);
    let path = dir.join("exxit-replay-dark.gif");
    std::fs::write(&path, replay_gif(&frames).map_err(to_io)?)?;
    written.push(path);
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gallery_writes_decodable_pictures() {
        let dir = std::env::temp_dir().join(format!("hexcord-gallery-{}", std::process::id()));
        let paths = gallery(&dir).unwrap();
        assert_eq!(paths.len(), 23);
        for p in &paths {
            let bytes = std::fs::read(p).unwrap();
            let img = image::load_from_memory(&bytes).unwrap();
            assert!(img.width() >= exxit::WIDTH, "{}", p.display());
            if p.extension().is_some_and(|e| e == "png") {
                assert!(
                    bytes.len() < 150_000,
                    "{} is {} bytes",
                    p.display(),
                    bytes.len()
                );
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// How two pictures of one size differ: the largest difference of a colour channel, and the
    /// number of pixels that differ at all.
    fn difference(a: &image::RgbaImage, b: &image::RgbaImage) -> (u8, usize) {
        a.pixels()
            .zip(b.pixels())
            .fold((0, 0), |(most, n), (p, q)| {
                let d = (0..3).map(|i| p.0[i].abs_diff(q.0[i])).max().unwrap_or(0);
                (most.max(d), n + usize::from(d > 0))
            })
    }

    #[test]
    fn differences_are_measured() {
        let a = image::RgbaImage::from_pixel(4, 3, image::Rgba([10, 20, 30, 255]));
        let mut b = a.clone();
        assert_eq!(difference(&a, &b), (0, 0));
        b.put_pixel(1, 1, image::Rgba([10, 27, 30, 255]));
        b.put_pixel(3, 2, image::Rgba([9, 20, 30, 255]));
        assert_eq!(difference(&a, &b), (7, 2));
    }

    /// Where the reference pictures are committed.
    fn references() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/render")
    }

    /// Every gallery position in the dark theme, and two in the light one, match the committed
    /// reference PNGs: no channel of a pixel differs by more than 48, except on at most 0.2 % of
    /// the pixels (anti-aliasing may shift by a pixel between compilers' floating point).
    /// `HEXCORD_BLESS=1 cargo test --lib render::gallery` rewrites the references: look at them
    /// before committing.
    /// The EXXIT reference positions: every gallery position in the dark theme, one in the
    /// light theme and one in Japanese.
    fn exxit_cases() -> Vec<(String, exxit::View, Theme)> {
        let exx = [
            ("start", exxit::samples::start()),
            ("dance-into-space", exxit::samples::dance()),
            ("big-stacks", exxit::samples::big_stacks()),
            ("expansion-chain", exxit::samples::expansion()),
            ("long-thin-world", exxit::samples::long_line()),
            ("full-world", exxit::samples::full_world()),
        ];
        let mut cases: Vec<(String, exxit::View, Theme)> = exx
            .iter()
            .map(|(name, v)| (format!("exxit-{name}-dark"), v.clone(), Theme::Dark))
            .collect();
        cases.push((
            "exxit-dance-into-space-light".into(),
            exx[1].1.clone(),
            Theme::Light,
        ));
        // Japanese words and names (Noto Sans CJK JP beside DejaVu).
        let ja = crate::i18n::Lang::of("ja");
        let mut v = exx[1].1.clone();
        v.lang = ja;
        v.players = ["さくら".into(), "Bob".into()];
        let words = crate::text!("words-dance-space", from = "1,1", onto = "-1,-1");
        v.caption = crate::text!("render-move", ply = 23, mv = words).render(ja);
        cases.push(("exxit-dance-into-space-ja-dark".into(), v, Theme::Dark));
        cases
    }

    /// The committed reference picture `name`.
    fn reference(name: &str) -> Option<image::RgbaImage> {
        let bytes = std::fs::read(references().join(format!("{name}.png"))).ok()?;
        Some(image::load_from_memory(&bytes).ok()?.to_rgba8())
    }

    /// The height in pixels of the tallest column of ink in `rect` of `img` (less a pixel left
    /// and right, where a backing's rounded corners show what lies under them): pixels that
    /// differ from the rectangle's most common colour (its background) by more than 40 % of the
    /// largest difference there.
    fn ink_height(img: &image::RgbaImage, rect: (f32, f32, f32, f32)) -> u32 {
        let (w, h) = img.dimensions();
        let clamp = |v: f32, max: u32| (v.round().max(0.0) as u32).min(max);
        let (x0, x1) = (clamp(rect.0 + 1.0, w), clamp(rect.2 - 1.0, w));
        let (y0, y1) = (clamp(rect.1, h), clamp(rect.3, h));
        let rgb = |x: u32, y: u32| {
            let p = img.get_pixel(x, y).0;
            [p[0], p[1], p[2]]
        };
        let mut counts: std::collections::BTreeMap<[u8; 3], usize> = Default::default();
        for y in y0..y1 {
            for x in x0..x1 {
                *counts.entry(rgb(x, y)).or_default() += 1;
            }
        }
        let Some(bg) = counts.iter().max_by_key(|c| *c.1).map(|c| *c.0) else {
            return 0;
        };
        let diff = |p: [u8; 3]| (0..3).map(|i| p[i].abs_diff(bg[i])).max().unwrap_or(0);
        let strongest = counts.keys().map(|p| diff(*p)).max().unwrap_or(0);
        let threshold = (u32::from(strongest) * 2 / 5).max(20);
        (x0..x1)
            .filter_map(|x| {
                let mut rows = (y0..y1).filter(|&y| u32::from(diff(rgb(x, y))) > threshold);
                let first = rows.next()?;
                Some(rows.next_back().unwrap_or(first) - first + 1)
            })
            .max()
            .unwrap_or(0)
    }

    #[test]
    fn ink_is_measured() {
        let mut img = image::RgbaImage::from_pixel(20, 20, image::Rgba([30, 30, 30, 255]));
        for y in 4..13 {
            img.put_pixel(8, y, image::Rgba([200, 200, 200, 255]));
        }
        // A faint pixel below is no ink.
        img.put_pixel(8, 15, image::Rgba([60, 60, 60, 255]));
        assert_eq!(ink_height(&img, (2.0, 2.0, 18.0, 18.0)), 9);
        assert_eq!(ink_height(&img, (2.0, 6.0, 18.0, 18.0)), 7);
    }

    /// Every label of every EXXIT reference picture is readable on a phone: scaled to
    /// [`exxit::PHONE_WIDTH`], the digits are at least 7 px high; and no stack, nor a ring of
    /// the last move, covers one.
    #[test]
    fn exxit_labels_are_readable_on_a_phone_and_uncovered() {
        let mut failures = Vec::new();
        for (name, v, _) in exxit_cases() {
            let Some(img) = reference(&name) else {
                failures.push(format!("{name}: no reference"));
                continue;
            };
            let e = exxit::Extent::of(&v);
            let l = exxit::layout::layout(e);
            assert_eq!(img.dimensions(), (l.width, l.height), "{name}");
            let s = exxit::PHONE_WIDTH / img.width() as f32;
            let phone = image::imageops::resize(
                &img,
                exxit::PHONE_WIDTH as u32,
                (img.height() as f32 * s).round() as u32,
                image::imageops::FilterType::CatmullRom,
            );
            let boxes = exxit::label_boxes(&v, e);
            assert!(!boxes.is_empty(), "{name}");
            let circles = exxit::stack_circles(&v, &l);
            let mut lowest = u32::MAX;
            for b in &boxes {
                let g = b.glyphs;
                let ink = ink_height(&phone, (g.0 * s, g.1 * s, g.2 * s, g.3 * s));
                lowest = lowest.min(ink);
                if ink < 7 {
                    failures.push(format!("{name}: {b:?} is {ink} px high on a phone"));
                }
                let r = b.covers;
                for &(x, y, radius) in &circles {
                    let (dx, dy) = (x - x.clamp(r.0, r.2), y - y.clamp(r.1, r.3));
                    if dx * dx + dy * dy < radius * radius {
                        failures.push(format!("{name}: {b:?} under a disc at ({x}, {y})"));
                    }
                }
            }
            println!(
                "{name}: {} labels, digits at least {lowest} px high on a phone",
                boxes.len()
            );
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    /// Every gallery position in the dark theme, and two in the light one, match the committed
    /// reference PNGs: no channel of a pixel differs by more than 48, except on at most 0.2 % of
    /// the pixels (anti-aliasing may shift by a pixel between compilers' floating point).
    /// `HEXCORD_BLESS=1 cargo test --lib render::gallery` rewrites the references: look at them
    /// before committing.
    #[test]
    fn pictures_match_their_references() {
        let mut cases: Vec<(String, image::RgbaImage)> = Vec::new();
        let inph = [
            ("opening", inphexion::samples::opening()),
            ("relocation", inphexion::samples::relocation()),
            ("won-chain", inphexion::samples::won()),
            ("4x4", inphexion::samples::small()),
            ("11x11", inphexion::samples::large()),
        ];
        for (name, v) in &inph {
            cases.push((
                format!("inphexion-{name}-dark"),
                inphexion::draw(v, Theme::Dark),
            ));
        }
        cases.push((
            "inphexion-relocation-light".into(),
            inphexion::draw(&inph[1].1, Theme::Light),
        ));
        // Japanese words and names (Noto Sans CJK JP beside DejaVu).
        let ja = crate::i18n::Lang::of("ja");
        let mut v = inph[2].1.clone();
        v.lang = ja;
        v.players = ["山田 花子".into(), "Bob".into()];
        let words = crate::text!("words-push", from = "e4", to = "f4");
        v.caption = crate::text!("render-move", ply = 16, mv = words).render(ja);
        cases.push((
            "inphexion-won-chain-ja-dark".into(),
            inphexion::draw(&v, Theme::Dark),
        ));
        for (name, v, theme) in exxit_cases() {
            cases.push((name, exxit::draw(&v, theme)));
        }
        let bless = std::env::var_os("HEXCORD_BLESS").is_some();
        let mut failures = Vec::new();
        for (name, img) in cases {
            let path = references().join(format!("{name}.png"));
            let png = encode_png(&img).unwrap();
            if bless {
                std::fs::create_dir_all(references()).unwrap();
                std::fs::write(&path, &png).unwrap();
                continue;
            }
            let got = image::load_from_memory(&png).unwrap().to_rgba8();
            let Some(want) = reference(&name) else {
                failures.push(format!("{name}: no reference at {}", path.display()));
                continue;
            };
            if got.dimensions() != want.dimensions() {
                failures.push(format!(
                    "{name}: {:?} instead of {:?}",
                    got.dimensions(),
                    want.dimensions()
                ));
                continue;
            }
            let off = got
                .pixels()
                .zip(want.pixels())
                .filter(|(a, b)| (0..3).any(|i| a.0[i].abs_diff(b.0[i]) > 48))
                .count();
            let (most, differing) = difference(&got, &want);
            println!("{name}: {differing} pixels differ, by at most {most} in a channel");
            let allowed = (got.width() * got.height()) as usize / 500;
            if off > allowed {
                failures.push(format!("{name}: {off} pixels differ (at most {allowed})"));
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }
}
