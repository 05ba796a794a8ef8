//! inpHeXion speed: random 7×7 playouts (standard and `neutral`) and legal-move generation on a
//! midgame position. `cargo bench --bench inphexion`.
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use hexcord::games::inphexion::{MoveList, Options, Position};
use rand::{rngs::SmallRng, SeedableRng};

fn playouts(c: &mut Criterion) {
    let mut g = c.benchmark_group("inphexion_playout_7x7");
    g.throughput(Throughput::Elements(1));
    for (name, neutral) in [("standard", false), ("neutral", true)] {
        let start = Position::new(&Options {
            neutral,
            ..Options::default()
        });
        let mut rng = SmallRng::seed_from_u64(1);
        g.bench_function(name, |b| {
            b.iter(|| {
                let mut p = start.clone();
                black_box(p.playout(&mut rng))
            })
        });
    }
    g.finish();
}

fn legal(c: &mut Criterion) {
    let mut rng = SmallRng::seed_from_u64(3);
    // A midgame: 20 random plies into a 7×7 game that is still going on.
    let p = loop {
        let mut p = Position::new(&Options::default());
        for _ in 0..20 {
            p.random_step(&mut rng);
        }
        if p.outcome().is_none() {
            break p;
        }
    };
    let mut list = MoveList::new();
    c.bench_function("inphexion_legal_moves_7x7_midgame", |b| {
        b.iter(|| {
            black_box(&p).legal_moves(&mut list);
            black_box(list.len())
        })
    });
}

criterion_group!(benches, playouts, legal);
criterion_main!(benches);
