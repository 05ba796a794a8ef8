//! 10,000 random inpHeXion games over every size and variant, checking invariants as they go.
use hexcord::games::inphexion::{MoveList, Options, Position};
use hexcord::games::Colour;
use rand::{rngs::SmallRng, Rng, SeedableRng};

#[test]
fn ten_thousand_random_games_keep_the_invariants() {
    let mut rng = SmallRng::seed_from_u64(2026);
    let mut list = MoveList::new();
    let mut outcomes = std::collections::HashMap::new();
    for g in 0..10_000u32 {
        let size = 4 + (g % 8) as u8;
        let o = Options {
            size,
            pie: g / 8 % 2 == 1,
            free_reply: g / 16 % 2 == 1,
            neutral: size % 2 == 1 && g / 32 % 2 == 1,
        };
        let mut p = Position::new(&o);
        let total = 2 * o.initial_hand() + u32::from(o.neutral);
        let mut plies = 0;
        while p.outcome().is_none() {
            // Discs on the board plus in hand stay constant.
            let on_board = p.discs(Colour::First).len()
                + p.discs(Colour::Second).len()
                + p.neutral_disc().len();
            assert_eq!(
                on_board + p.hand(Colour::First) + p.hand(Colour::Second),
                total
            );
            // The position line reads back to the same position.
            let line = p.to_line();
            let back = Position::from_line(&o, &line).unwrap_or_else(|e| panic!("{line}: {e}"));
            assert_eq!(back, p, "{line}");
            // Moves come from the fast random generator, and must be in the legal list;
            // every fourth game plays from the list instead.
            let m = if g % 4 == 0 {
                p.legal_moves(&mut list);
                list.as_slice()[rng.random_range(0..list.len())]
            } else {
                let m = p.random_move(&mut rng).expect("a game in play has a move");
                if size <= 7 || plies % 8 == 0 {
                    p.legal_moves(&mut list);
                    assert!(list.contains(&m), "{m} at {line}");
                }
                m
            };
            assert_eq!(p.check_move(&m), Ok(()), "{m} at {line}");
            assert_eq!(p.parse_move(&m.to_string()), Ok(m));
            let mover = p.to_move();
            p.play(&m);
            if !m.is_swap() {
                assert_eq!(p.to_move(), mover.other(), "the turn passes after {m}");
            }
            plies += 1;
            assert!(plies <= 2 * total + 2, "game too long");
        }
        p.legal_moves(&mut list);
        assert!(list.is_empty());
        let out = p.outcome().expect("over");
        assert!(out.winner.is_some(), "no draws (I19)");
        *outcomes.entry(format!("{:?}", out.reason)).or_insert(0) += 1;
    }
    // Every way to end a game occurs.
    assert_eq!(outcomes.len(), 3, "{outcomes:?}");
}
