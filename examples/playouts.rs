//! Plays N seeded random games and prints a checksum of the outcomes, for instruction counts
//! (`valgrind --tool=callgrind`) and for checking that a speed-up leaves the games unchanged.
//! `cargo run --release --example playouts -- exxit|inphexion [N [lines]]`
use std::hash::{DefaultHasher, Hash, Hasher};
use std::time::Instant;

use hexcord::games::{exxit, inphexion};
use rand::rngs::SmallRng;
use rand::SeedableRng;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let game = args.get(1).map(String::as_str).unwrap_or("exxit");
    let n: u32 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1000);
    // `lines`: also hash each final position line (slower, a stronger check).
    let lines = args.get(3).is_some_and(|s| s == "lines");
    let mut rng = SmallRng::seed_from_u64(1);
    let mut h = DefaultHasher::new();
    let t = Instant::now();
    match game {
        "exxit" => {
            let start = exxit::Position::new(&exxit::Options::default());
            let mut list = exxit::MoveList::new();
            let mut p = start.clone();
            for _ in 0..n {
                p.clone_from(&start);
                p.playout(&mut rng, &mut list).hash(&mut h);
                if lines {
                    p.to_line().hash(&mut h);
                }
            }
        }
        "inphexion" => {
            let start = inphexion::Position::new(&inphexion::Options::default());
            for _ in 0..n {
                let mut p = start.clone();
                p.playout(&mut rng).hash(&mut h);
                if lines {
                    p.to_line().hash(&mut h);
                }
            }
        }
        _ => {
            eprintln!("usage: playouts exxit|inphexion [N [lines]]");
            return;
        }
    }
    let s = t.elapsed().as_secs_f64();
    println!(
        "{game}: {n} games, checksum {:016x}, {:.1} µs/game ({:.0} games/s)",
        h.finish(),
        s * 1e6 / n as f64,
        n as f64 / s
    );
}
