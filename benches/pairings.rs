//! Swiss pairing speed: round 5 of a 9-round, 256-player tournament by the Dutch system (target
//! under 50 ms), after four rounds paired by the same engine with random results (seeded), and
//! the last round of the same tournament (topscorers). `cargo bench --bench pairings`.
use std::collections::HashMap;

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use hexcord::pairings::{pair, Colour, Outcome, RoundEntry, Tournament};
use rand::{rngs::SmallRng, Rng, SeedableRng};

/// Plays `rounds` rounds of a tournament of `players` players, paired by the engine, with
/// random results (a win for either colour, a draw, now and then a forfeit).
fn played(players: u32, total: u32, rounds: u32, seed: u64) -> Tournament {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut t = Tournament::new(players, Some(total));
    for _ in 0..rounds {
        let round = pair(&t).expect("a pairing");
        let mut entries: HashMap<u32, RoundEntry> = HashMap::new();
        for g in &round.games {
            let x: f64 = rng.random();
            let (w, b) = if x < 0.4 {
                (Outcome::Win, Outcome::Loss)
            } else if x < 0.8 {
                (Outcome::Loss, Outcome::Win)
            } else if x < 0.98 {
                (Outcome::Draw, Outcome::Draw)
            } else {
                (Outcome::ForfeitWin, Outcome::ForfeitLoss)
            };
            let entry = |opponent, colour, outcome| RoundEntry {
                opponent: Some(opponent),
                colour: Some(colour),
                outcome,
            };
            entries.insert(g.white, entry(g.black, Colour::White, w));
            entries.insert(g.black, entry(g.white, Colour::Black, b));
        }
        if let Some(bye) = round.bye {
            let entry = RoundEntry {
                opponent: None,
                colour: None,
                outcome: Outcome::PairingBye,
            };
            entries.insert(bye, entry);
        }
        t.push_round(|rank| entries[&rank]);
    }
    t
}

fn swiss(c: &mut Criterion) {
    let mut g = c.benchmark_group("dutch_256_players");
    g.sample_size(20);
    let round5 = played(256, 9, 4, 1);
    g.bench_function("round_5_of_9", |b| b.iter(|| black_box(pair(&round5))));
    let odd = played(255, 9, 4, 2);
    g.bench_function("round_5_of_9_odd", |b| b.iter(|| black_box(pair(&odd))));
    let last = played(256, 9, 8, 3);
    g.bench_function("round_9_of_9", |b| b.iter(|| black_box(pair(&last))));
    g.finish();
}

criterion_group!(benches, swiss);
criterion_main!(benches);
