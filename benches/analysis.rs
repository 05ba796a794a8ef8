//! Analysis time at the default budget on one core, for a 40-move inpHeXion game (7×7) and a
//! 130-move EXXIT game (39 tiles), both played by the AI: `cargo bench --bench analysis`.
//! One run each (an analysis takes seconds), with the time per position.
use std::time::Instant;

use hexcord::ai::{self, Budget};
use hexcord::analysis::{analyse, AnalysisBudget};
use hexcord::games::{Game, Options};

/// The first `plies` moves of a game between two quick AI players (the first game, by seed, that
/// lasts that long).
fn played(line: &str, plies: usize, budget: Budget) -> Game {
    let mut game = Game::new(Options::parse_line(line).expect("valid options"));
    for first_seed in 1..50 {
        game = played_from(line, plies, budget, first_seed * 1000);
        if game.ply() >= plies {
            break;
        }
    }
    game
}

fn played_from(line: &str, plies: usize, budget: Budget, first_seed: u64) -> Game {
    let mut game = Game::new(Options::parse_line(line).expect("valid options"));
    let mut seed = first_seed;
    while game.ply() < plies && !game.is_over() {
        let Some(mv) = ai::choose(game.position(), budget, seed) else {
            break;
        };
        if game.play(mv).is_err() {
            break;
        }
        seed += 1;
    }
    game
}

/// CPU seconds this process has used (Linux: `/proc/self/stat`, in ticks of 1/100 s), which
/// stays close to the quiet-machine time when other work loads the cores.
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return f64::NAN;
    };
    // Fields after the command name, which ends with the last `)`.
    let rest = stat.rsplit_once(')').map_or("", |r| r.1);
    let f: Vec<f64> = rest
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    // utime and stime are fields 14 and 15 of the line: 10 and 11 here, the state letter
    // (not a number) having been dropped.
    match (f.get(10), f.get(11)) {
        (Some(u), Some(s)) => (u + s) / 100.0,
        _ => f64::NAN,
    }
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --all-targets` runs this binary without it,
    // and then a short game at a small budget only checks that it works.
    if !std::env::args().any(|a| a == "--bench") {
        let game = played("inphexion size=4", 6, Budget::playouts(50));
        let a = analyse(&game, AnalysisBudget::uniform(200), 1, |_, _| {});
        assert_eq!(a.moves.len(), game.ply());
        return;
    }
    let games = [
        (
            "inpHeXion 7x7",
            played("inphexion size=7", 40, Budget::playouts(400)),
        ),
        ("EXXIT 39 tiles", played("exxit", 130, Budget::nodes(3_000))),
    ];
    for (name, game) in &games {
        let start = Instant::now();
        let cpu = cpu_seconds();
        let a = analyse(game, AnalysisBudget::DEFAULT, 1, |_, _| {});
        let secs = start.elapsed().as_secs_f64();
        let cpu = cpu_seconds() - cpu;
        println!(
            "{name}: {} moves, {} positions analysed in {secs:.2} s wall, {cpu:.2} s CPU \
             ({:.0} ms a position; budget {} per position); turning points {:?}",
            game.ply(),
            a.positions.len(),
            secs * 1000.0 / a.positions.len() as f64,
            a.budget,
            a.turning_points
        );
    }
}
