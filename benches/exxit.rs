//! Complete random 39-tile EXXIT games from the start (uniform over legal moves).
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use hexcord::games::exxit::{MoveList, Options, Position};
use rand::rngs::SmallRng;
use rand::SeedableRng;

fn random_games(c: &mut Criterion) {
    let start = Position::new(&Options::default());
    let mut rng = SmallRng::seed_from_u64(1);
    let mut list = MoveList::new();
    let mut group = c.benchmark_group("exxit");
    group.throughput(Throughput::Elements(1));
    // One position reset from the start for each game, as a search's playouts do.
    let mut p = start.clone();
    group.bench_function("random game tiles=39", |b| {
        b.iter(|| {
            p.clone_from(&start);
            p.playout(&mut rng, &mut list)
        })
    });
    group.finish();
}

criterion_group!(benches, random_games);
criterion_main!(benches);
