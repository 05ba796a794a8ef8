//! Picture cost: drawing plus PNG encoding, for a 7×7 inpHeXion middle game and a 39-tile EXXIT
//! world. Run with `CARGO_TARGET_DIR=/work/target-release cargo bench --bench render`.
use criterion::{criterion_group, criterion_main, Criterion};
use hexcord::render::{encode_png, exxit, inphexion, Theme};

fn bench(c: &mut Criterion) {
    let inph = inphexion::samples::relocation();
    let exx = exxit::samples::full_world();
    for theme in Theme::ALL {
        let a = encode_png(&inphexion::draw(&inph, theme)).unwrap_or_default();
        let b = encode_png(&exxit::draw(&exx, theme)).unwrap_or_default();
        println!(
            "{} theme: inpHeXion 7×7 PNG {} bytes, EXXIT 39 tiles PNG {} bytes",
            theme.name(),
            a.len(),
            b.len()
        );
    }
    c.bench_function("inphexion 7x7 draw", |b| {
        b.iter(|| inphexion::draw(&inph, Theme::Dark))
    });
    c.bench_function("inphexion 7x7 draw+png", |b| {
        b.iter(|| encode_png(&inphexion::draw(&inph, Theme::Dark)))
    });
    c.bench_function("exxit 39 tiles draw", |b| {
        b.iter(|| exxit::draw(&exx, Theme::Dark))
    });
    c.bench_function("exxit 39 tiles draw+png", |b| {
        b.iter(|| encode_png(&exxit::draw(&exx, Theme::Dark)))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
