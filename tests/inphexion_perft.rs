//! Perft counts from the start (tests/data/inphexion_perft.txt), and the engine against the
//! slow independent reference in tests/common/naive_inphexion.rs.
mod common;

use common::naive_inphexion::Naive;
use hexcord::games::inphexion::{MoveList, Options, Position};
use rand::{rngs::SmallRng, Rng, SeedableRng};

fn options(line: &str) -> Options {
    let mut words = line.split_whitespace();
    assert_eq!(words.next(), Some("inphexion"), "variant line `{line}`");
    Options::parse(&words.collect::<Vec<_>>()).expect("valid options")
}

fn naive(o: &Options) -> Naive {
    Naive::new(o.size as i32, o.pie, o.free_reply, o.neutral)
}

/// (variant line, depth, count) from the data file.
fn data() -> Vec<(String, u32, u64)> {
    include_str!("data/inphexion_perft.txt")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('|').map(str::trim).collect();
            assert_eq!(f.len(), 3, "line `{l}`");
            (
                f[0].to_string(),
                f[1].parse().expect("depth"),
                f[2].parse().expect("count"),
            )
        })
        .collect()
}

#[test]
fn perft_counts_from_the_start_match_the_data_file() {
    let d = data();
    assert!(d.len() >= 10);
    for (variant, depth, count) in d {
        let p = Position::new(&options(&variant));
        assert_eq!(p.perft(depth), count, "{variant} depth {depth}");
    }
}

#[test]
fn the_reference_agrees_with_the_data_file_at_small_counts() {
    for (variant, depth, count) in data() {
        if count <= 150_000 {
            let n = naive(&options(&variant));
            assert_eq!(n.perft(depth), count, "reference: {variant} depth {depth}");
        }
    }
}

#[test]
fn legal_lists_agree_with_the_reference_along_random_games() {
    let mut rng = SmallRng::seed_from_u64(7);
    let variants = [
        "inphexion size=4",
        "inphexion size=5 pie free-reply",
        "inphexion size=5 neutral",
        "inphexion size=6 free-reply",
        "inphexion size=7 neutral pie",
    ];
    let mut list = MoveList::new();
    let mut compared = 0;
    let mut relocating = 0;
    for g in 0..150 {
        let o = options(variants[g % variants.len()]);
        let mut p = Position::new(&o);
        while p.outcome().is_none() {
            p.legal_moves(&mut list);
            let mut mine: Vec<String> = list.iter().map(|m| m.to_string()).collect();
            mine.sort();
            let r = Naive::from_parts(o.size as i32, o.pie, o.free_reply, o.neutral, &p.to_line());
            let mut theirs: Vec<String> = r.moves().into_iter().map(|(m, _)| m).collect();
            theirs.sort();
            assert_eq!(mine, theirs, "at {}", p.to_line());
            compared += 1;
            relocating += usize::from(mine.iter().any(|m| m.contains('>')));
            let m = list.as_slice()[rng.random_range(0..list.len())];
            p.play(&m);
        }
    }
    assert!(compared > 1000);
    assert!(
        relocating > 100,
        "only {relocating} positions with relocations"
    );
}

/// Prints the counts of candidate lines with both counters (run with --ignored --nocapture).
#[test]
#[ignore]
fn print_counts() {
    let lines = [
        ("inphexion size=4", 7),
        ("inphexion size=4 pie free-reply", 6),
        ("inphexion size=5", 6),
        ("inphexion size=5 pie", 6),
        ("inphexion size=5 free-reply", 5),
        ("inphexion size=5 neutral", 6),
        ("inphexion size=5 neutral pie free-reply", 5),
        ("inphexion size=6", 5),
        ("inphexion size=7", 5),
        ("inphexion size=7 neutral", 5),
        ("inphexion size=7 pie free-reply", 4),
    ];
    for (v, max) in lines {
        let o = options(v);
        for d in max - 1..=max {
            let t = std::time::Instant::now();
            let e = Position::new(&o).perft(d);
            let te = t.elapsed();
            let t = std::time::Instant::now();
            let n = naive(&o).perft(d);
            println!(
                "{v} | {d} | {e}   naive {n} {}  ({te:?} / {:?})",
                if e == n { "same" } else { "DIFFERENT" },
                t.elapsed()
            );
        }
    }
}
