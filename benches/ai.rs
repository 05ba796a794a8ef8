//! The AI's speed: playouts per second in each game, and the time per move at each level from
//! a position a few moves into the game.
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use hexcord::ai::boardspace::{self, Robot};
use hexcord::ai::{self, Level, SearchGame};
use hexcord::games::{exxit, inphexion, GameKind, Options, Position};
use rand::rngs::SmallRng;
use rand::SeedableRng;

fn playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("ai playouts");
    group.throughput(Throughput::Elements(1));
    let mut rng = SmallRng::seed_from_u64(1);
    let inph = inphexion::Position::new(&inphexion::Options::default());
    group.bench_function("inphexion size=7", |b| {
        b.iter(|| SearchGame::playout(&mut inph.clone(), &mut rng))
    });
    let ex = exxit::Position::new(&exxit::Options::default());
    group.bench_function("exxit tiles=39", |b| {
        b.iter(|| SearchGame::playout(&mut ex.clone(), &mut rng))
    });
    group.finish();
}

/// A position after `plies` random moves.
fn opening(kind: GameKind, plies: u32) -> Position {
    let mut p = Position::new(&Options::default_for(kind));
    let mut rng = SmallRng::seed_from_u64(3);
    for _ in 0..plies {
        let moves = p.legal_moves();
        if moves.is_empty() || p.outcome().is_some() {
            break;
        }
        let k = rand::Rng::random_range(&mut rng, 0..moves.len());
        if p.play(&moves[k]).is_err() {
            break;
        }
    }
    p
}

fn levels(c: &mut Criterion) {
    let mut group = c.benchmark_group("ai move");
    group.sample_size(10);
    for kind in GameKind::ALL {
        let p = opening(kind, 8);
        for level in Level::ALL {
            let budget = level.budget_for(kind);
            group.bench_function(format!("{} {}", kind.name(), level.name()), |b| {
                b.iter(|| ai::choose(&p, budget, 5))
            });
        }
    }
    // Boardspace's robots (no opening randomisation), EXXIT only.
    if let Position::Exxit(e) = opening(GameKind::Exxit, 8) {
        for robot in Robot::ALL {
            group.bench_function(format!("exxit {robot}"), |b| {
                b.iter(|| boardspace::search(&e, robot, None, 5))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, playouts, levels);
criterion_main!(benches);
