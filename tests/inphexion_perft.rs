//! Perft counts from the start against tests/data/inphexion_perft.txt (the slow reference of
//! tests/reference/ checks the same file in tests/reference_rules.rs).
use hexcord::games::inphexion::{Options, Position};

fn options(line: &str) -> Options {
    let mut words = line.split_whitespace();
    assert_eq!(words.next(), Some("inphexion"), "variant line `{line}`");
    Options::parse(&words.collect::<Vec<_>>()).expect("valid options")
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
