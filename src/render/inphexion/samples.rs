//! Hand-built sample views (used by the gallery, the tests and the benchmarks).

use super::*;
use crate::games::Reason;

fn names(v: &mut View, a: &str, b: &str) {
    v.players = [a.to_string(), b.to_string()];
}

/// White's first placement on 7×7.
pub fn opening() -> View {
    let mut v = View::empty(7);
    names(&mut v, "Alice", "Bob");
    v.set(Hex::new(3, 3), Some(Piece::White));
    v.hands[0] -= 1;
    v.to_move = Colour::Second;
    v.last = Some(LastMove::Placement(Hex::new(3, 3)));
    v.caption = "Move 1: d4".to_string();
    v
}

/// A 7×7 middle game whose last move relocated two discs.
pub fn relocation() -> View {
    let mut v = View::empty(7);
    names(&mut v, "Alice", "Bob the Builder");
    let whites = [
        (1, 1),
        (2, 3),
        (3, 3),
        (4, 2),
        (3, 5),
        (5, 4),
        (0, 6),
        (2, 2),
    ];
    let blacks = [
        (1, 2),
        (2, 4),
        (4, 4),
        (5, 1),
        (6, 3),
        (1, 5),
        (3, 1),
        (4, 3),
    ];
    for (q, r) in whites {
        v.set(Hex::new(q, r), Some(Piece::White));
    }
    for (q, r) in blacks {
        v.set(Hex::new(q, r), Some(Piece::Black));
    }
    v.hands = [17, 17];
    v.to_move = Colour::First;
    // Black moved the white disc c4 → c5? Use c3-c4 style: from (2,2)… keep it simple:
    v.set(Hex::new(4, 3), Some(Piece::Black));
    v.set(Hex::new(5, 3), Some(Piece::White));
    v.last = Some(LastMove::Regular {
        from: Hex::new(4, 3),
        to: Hex::new(5, 3),
        relocations: vec![
            (Hex::new(6, 0), Hex::new(0, 3)),
            (Hex::new(4, 6), Hex::new(6, 6)),
        ],
    });
    v.set(Hex::new(0, 3), Some(Piece::White));
    v.set(Hex::new(6, 6), Some(Piece::White));
    v.caption = "Move 16: e4-f4 e7>g7 g1>a4".to_string();
    v
}

/// A won game: Black joined left and right.
pub fn won() -> View {
    let mut v = View::empty(7);
    names(&mut v, "Alice", "Bob");
    let chain = [(0, 3), (1, 3), (2, 3), (3, 2), (4, 2), (5, 1), (6, 1)];
    let others_b = [(1, 5), (4, 4), (5, 5), (2, 1)];
    let whites = [
        (3, 3),
        (2, 4),
        (4, 3),
        (5, 2),
        (1, 2),
        (6, 0),
        (3, 1),
        (0, 4),
        (3, 5),
        (6, 2),
    ];
    for (q, r) in chain.iter().chain(others_b.iter()) {
        v.set(Hex::new(*q, *r), Some(Piece::Black));
    }
    for (q, r) in whites {
        v.set(Hex::new(q, r), Some(Piece::White));
    }
    v.hands = [15, 14];
    v.to_move = Colour::First;
    v.outcome = Some(Outcome::win(Colour::Second, Reason::Connection));
    v.winning_chain = chain.iter().map(|&(q, r)| Hex::new(q, r)).collect();
    v.last = Some(LastMove::Regular {
        from: Hex::new(3, 2),
        to: Hex::new(3, 1),
        relocations: vec![],
    });
    v.caption = "Move 21: d3-d2".to_string();
    v
}

/// A small 4×4 board with the neutral-style disc and Black to move.
pub fn small() -> View {
    let mut v = View::empty(4);
    names(&mut v, "Ann", "Zed");
    v.set(Hex::new(1, 1), Some(Piece::White));
    v.set(Hex::new(2, 1), Some(Piece::Black));
    v.set(Hex::new(1, 2), Some(Piece::White));
    v.set(Hex::new(2, 2), Some(Piece::White));
    v.hands = [5, 7];
    v.to_move = Colour::Second;
    v.last = Some(LastMove::Regular {
        from: Hex::new(2, 2),
        to: Hex::new(2, 1),
        relocations: vec![],
    });
    v.caption = "Move 3: c3-c2".to_string();
    v
}

/// An 11×11 board, busy, with the neutral disc.
pub fn large() -> View {
    let mut v = View::empty(11);
    names(&mut v, "a_very_long_discord_username_indeed", "Short");
    let mut seed = 7u32;
    for r in 0..11 {
        for q in 0..11 {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
            let piece = match (seed >> 16) % 5 {
                0 | 1 => Some(Piece::White),
                2 | 3 => Some(Piece::Black),
                _ => None,
            };
            v.set(Hex::new(q, r), piece);
        }
    }
    v.set(Hex::new(5, 5), Some(Piece::Neutral));
    v.hands = [20, 21];
    v.to_move = Colour::Second;
    v.last = Some(LastMove::Regular {
        from: Hex::new(7, 3),
        to: Hex::new(7, 4),
        relocations: vec![(Hex::new(0, 0), Hex::new(10, 10))],
    });
    v.set(Hex::new(7, 3), Some(Piece::White));
    v.set(Hex::new(7, 4), Some(Piece::Black));
    v.set(Hex::new(0, 0), None);
    v.set(Hex::new(10, 10), Some(Piece::Black));
    v.caption = "Move 58: h4-h5 a1>k11".to_string();
    v
}
