//! Renders and encodes the benchmark pictures N times (for profiling).
use hexcord::render::{encode_png, exxit, inphexion, Theme};

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(5);
    let inph = inphexion::samples::relocation();
    let exx = exxit::samples::full_world();
    let mut total = 0;
    for _ in 0..n {
        let a = encode_png(&inphexion::draw(&inph, Theme::Dark)).unwrap_or_default();
        let b = encode_png(&exxit::draw(&exx, Theme::Dark)).unwrap_or_default();
        total += a.len() + b.len();
        if let Some(dir) = std::env::args().nth(2) {
            let _ = std::fs::write(format!("{dir}/inph.png"), &a);
            let _ = std::fs::write(format!("{dir}/exxit.png"), &b);
        }
    }
    println!("{total}");
}
