//! Notation round trips for moves of random positions: canonical text parses back to the same
//! move, and so do variants with other spacing, letter case and relocation order.
use hexcord::games::inphexion::{MoveList, Options, Position};
use proptest::prelude::*;
use rand::{rngs::SmallRng, seq::SliceRandom, Rng, SeedableRng};

/// A random position of a random variant after `plies` random moves (or fewer if it ends).
fn position(seed: u64, size: u8, plies: u32, flags: u8) -> Position {
    let o = Options {
        size,
        pie: flags & 1 != 0,
        free_reply: flags & 2 != 0,
        neutral: size % 2 == 1 && flags & 4 != 0,
    };
    let mut p = Position::new(&o);
    let mut rng = SmallRng::seed_from_u64(seed);
    for _ in 0..plies {
        let before = p.clone();
        if p.random_step(&mut rng).is_none() || p.outcome().is_some() {
            return before;
        }
    }
    p
}

/// The same move written differently: relocations shuffled, spaces sprinkled, case changed.
fn variant(canonical: &str, rng: &mut SmallRng) -> String {
    let mut parts: Vec<&str> = canonical.split(' ').collect();
    parts[1..].shuffle(rng);
    let joined = parts.join(" ");
    let mut out = String::new();
    for ch in joined.chars() {
        for _ in 0..rng.random_range(0..3) {
            out.push(' ');
        }
        out.push(if rng.random_bool(0.5) {
            ch.to_ascii_uppercase()
        } else {
            ch
        });
    }
    out.push_str(&" ".repeat(rng.random_range(0..3)));
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn notation_round_trips(seed in any::<u64>(), size in 4u8..=11, plies in 0u32..60, flags in 0u8..8) {
        let p = position(seed, size, plies, flags);
        let mut list = MoveList::new();
        p.legal_moves(&mut list);
        let mut rng = SmallRng::seed_from_u64(seed ^ 0x5eed);
        // Every move of small lists, a sample of large ones.
        let step = (list.len() / 200).max(1);
        for m in list.iter().step_by(step) {
            let text = m.to_string();
            prop_assert_eq!(p.parse_move(&text), Ok(*m));
            let v = variant(&text, &mut rng);
            prop_assert_eq!(p.parse_move(&v), Ok(*m), "variant `{}` of `{}`", v, text);
            prop_assert_eq!(p.check_move(m), Ok(()));
        }
    }
}
