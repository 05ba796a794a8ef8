//! Times drawing and PNG encoding of the benchmark pictures separately (median of N runs).
use std::time::Instant;

use hexcord::render::{encode_png, exxit, inphexion, Theme};

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(50);
    let inph = inphexion::samples::relocation();
    let exx = exxit::samples::full_world();
    let time = |f: &dyn Fn() -> image::RgbaImage| {
        let (mut draw, mut enc, mut size) = (Vec::new(), Vec::new(), 0);
        let mut first = 0.0;
        for _ in 0..n {
            let t = Instant::now();
            let img = f();
            let t1 = Instant::now();
            size = encode_png(&img).map(|p| p.len()).unwrap_or(0);
            let t2 = Instant::now();
            if draw.is_empty() {
                first = (t2 - t).as_secs_f64() * 1e3;
            }
            draw.push((t1 - t).as_secs_f64() * 1e3);
            enc.push((t2 - t1).as_secs_f64() * 1e3);
        }
        (median(draw), median(enc), size, first)
    };
    for theme in Theme::ALL {
        for (name, f) in [
            (
                "inpHeXion 7x7",
                &(|| inphexion::draw(&inph, theme)) as &dyn Fn() -> _,
            ),
            ("EXXIT 39 tiles", &|| exxit::draw(&exx, theme)),
        ] {
            let (d, e, size, first) = time(f);
            println!(
                "{name}, {} theme: draw {d:.2} ms, encode {e:.2} ms, total {:.2} ms (first, uncached: {first:.2} ms), PNG {size} bytes",
                theme.name(),
                d + e
            );
        }
    }
}
