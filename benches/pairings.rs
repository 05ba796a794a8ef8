//! Swiss pairing speed: round 5 of a 9-round, 256-player tournament by the Dutch system (target
//! under 50 ms), after four rounds paired by the same engine with random results (seeded), and
//! the last round of the same tournament (topscorers); and the standings of 64 players: the
//! table with its tiebreaks, and its picture as a PNG (target under 20 ms); round 1 of 1,000 and
//! 3,000 players, and round 5 of 3,000 players (target under 5 s). `cargo bench --bench pairings
//! [-- FILTER]`.
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

/// Round 1 of a large field: one scoregroup of every player (target under 5 s for 3,000).
fn round_one(c: &mut Criterion) {
    let mut g = c.benchmark_group("dutch_round_1");
    g.sample_size(10);
    for players in [1000, 3000] {
        let t = Tournament::new(players, Some(9));
        g.bench_function(format!("{players}_players"), |b| {
            b.iter(|| black_box(pair(&t)))
        });
    }
    g.finish();
}

/// A later round of a large field: round 5 of 3,000 players, after four rounds paired by the
/// engine with random results (target under 5 s).
fn later_round(c: &mut Criterion) {
    let mut g = c.benchmark_group("dutch_3000_players");
    g.sample_size(10);
    let t = played(3000, 9, 4, 5);
    g.bench_function("round_5_of_9", |b| b.iter(|| black_box(pair(&t))));
    g.finish();
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

/// A round robin of `n` players with mixed results: the lower starting number wins, every third
/// game is drawn and every fifth goes the other way.
fn round_robin(n: usize) -> Vec<hexcord::standings::Entrant> {
    use hexcord::standings::{Entrant, Round};
    let mut rounds = vec![Vec::new(); n];
    for a in 0..n {
        for b in a + 1..n {
            let (ra, rb) = match (a * 7 + b * 3) % 15 {
                0 | 3 | 6 | 9 | 12 => (Round::Drawn { opponent: b }, Round::Drawn { opponent: a }),
                5 | 10 => (Round::Lost { opponent: b }, Round::Won { opponent: a }),
                _ => (Round::Won { opponent: b }, Round::Lost { opponent: a }),
            };
            rounds[a].push(ra);
            rounds[b].push(rb);
        }
    }
    rounds.into_iter().map(Entrant::new).collect()
}

fn standings(c: &mut Criterion) {
    use hexcord::pairings::format::TournamentFormat;
    use hexcord::render::{standings::standings_png, Theme};
    use hexcord::standings::standings;
    let format = TournamentFormat::ROUND_ROBIN;
    let mut g = c.benchmark_group("standings_64_players");
    g.sample_size(20);
    let entrants = round_robin(64);
    let names: Vec<String> = (0..64).map(|i| format!("player number {i}")).collect();
    g.bench_function("table", |b| {
        b.iter(|| black_box(standings(&format.ranking().rules, &entrants)))
    });
    let table = standings(&format.ranking().rules, &entrants);
    g.bench_function("picture_png", |b| {
        b.iter(|| {
            black_box(standings_png(
                hexcord::i18n::Lang::EN,
                "Spring cup",
                format,
                &table,
                &names,
                hexcord::render::standings::Marks {
                    round: 63,
                    withdrawn: &[],
                },
                Theme::Dark,
            ))
        })
    });
    g.finish();
}

criterion_group!(benches, swiss, round_one, later_round, standings);
criterion_main!(benches);
