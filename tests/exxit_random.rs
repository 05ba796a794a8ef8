//! Random EXXIT games from the start of each length, checking invariants as they go.
use hexcord::games::exxit::{MoveList, Options, Position};
use hexcord::games::{Colour, Reason};
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::SeedableRng;

fn check_invariants(p: &Position, tiles: u32) {
    for c in Colour::BOTH {
        let on_board: u32 = p.stacks().map(|(_, s)| s.count(c)).sum();
        assert_eq!(on_board + p.hand(c), 8, "discs of {c:?} in {}", p.to_line());
    }
    assert_eq!(
        p.tiles().count() as u32 + p.supply(),
        tiles,
        "{}",
        p.to_line()
    );
    for (h, _) in p.stacks() {
        if p.tile_at(h).is_none() {
            assert!(
                p.is_outer_space(h),
                "stack on {h} off the world: {}",
                p.to_line()
            );
        }
    }
}

fn run(tiles: u8, games: u32, seed: u64) {
    let options = Options::parse(&[&format!("tiles={tiles}")]).expect("options");
    let start = Position::new(&options);
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut list = MoveList::new();
    let mut longest = 0;
    for g in 0..games {
        let mut p = start.clone();
        let mut ply = 0u32;
        while let Some(mv) = p.random_move(&mut rng, &mut list) {
            // Every drawn move is legal: listed by the generator and accepted by the checker.
            let mut legal = MoveList::new();
            p.legal_moves(&mut legal);
            assert!(legal.contains(&mv), "{mv} in {}", p.to_line());
            assert_eq!(p.check_move(&mv), Ok(()), "{mv} in {}", p.to_line());
            p.play(&mv);
            ply += 1;
            assert!(ply < 5000, "game {g} does not end");
            check_invariants(&p, tiles as u32);
            if ply.is_multiple_of(8) || p.is_over() {
                let back = Position::from_line(&options, &p.to_line())
                    .unwrap_or_else(|e| panic!("{}: {e}", p.to_line()));
                assert_eq!(back.to_line(), p.to_line());
                // A line cannot carry an end by repetition or by the second pass (the protocol
                // writes only `|passes 1`); every other position reads back whole.
                let reason = p.outcome().map(|o| o.reason);
                if reason != Some(Reason::Repetition) && reason != Some(Reason::Passes) {
                    assert_eq!(back, p);
                }
            }
        }
        assert!(p.outcome().is_some());
        longest = longest.max(ply);
    }
    assert!(longest > 10);
}

#[test]
fn random_games_39() {
    run(39, 10_000, 39);
}

#[test]
fn random_games_29() {
    run(29, 10_000, 29);
}

#[test]
fn random_games_19() {
    run(19, 10_000, 19);
}

proptest! {
    #[test]
    fn notation_round_trips(q in -60i32..60, r in -60i32..60, q2 in -60i32..60, r2 in -60i32..60,
                            kind in 0u8..5) {
        use hexcord::games::exxit::Move;
        use hexcord::hex::Hex;
        let (a, b) = (Hex::new(q, r), Hex::new(q2, r2));
        let mv = match kind {
            0 => Move::Place(a),
            1 => Move::Expand(a),
            2 => Move::Dance { from: a, target: b },
            3 => Move::Pass,
            _ => Move::Swap,
        };
        let p = Position::new(&Options::default());
        let text = mv.to_string();
        prop_assert_eq!(p.parse_move(&text), Ok(mv));
        let spaced: String = text.chars().flat_map(|c| [c, ' ']).collect();
        prop_assert_eq!(p.parse_move(&spaced.to_uppercase()), Ok(mv));
    }

    #[test]
    fn position_lines_round_trip_along_random_games(seed in any::<u64>(), plies in 0usize..200) {
        let options = Options::parse(&["tiles=19", "pie"]).expect("options");
        let mut p = Position::new(&options);
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut list = MoveList::new();
        for _ in 0..plies {
            match p.random_move(&mut rng, &mut list) {
                Some(m) => p.play(&m),
                None => break,
            }
        }
        let back = Position::from_line(&options, &p.to_line()).expect("round trip");
        prop_assert_eq!(back.to_line(), p.to_line());
    }
}
