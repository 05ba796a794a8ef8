//! Hand-built sample views (used by the gallery, the tests and the benchmarks).

use super::*;
use crate::games::Reason;

const S: Colour = Colour::First;
const R: Colour = Colour::Second;

fn base() -> View {
    View {
        tiles: vec![
            (Hex::new(0, -1), S),
            (Hex::new(1, -1), S),
            (Hex::new(0, 0), R),
            (Hex::new(1, -2), R),
        ],
        stacks: vec![],
        hands: [8, 8],
        supply: 35,
        score: [4, 4],
        to_move: S,
        outcome: None,
        players: ["Alice".to_string(), "Bob".to_string()],
        last: None,
        caption: String::new(),
        lang: Lang::EN,
    }
}

/// The standard setup (X5).
pub fn start() -> View {
    base()
}

/// A middle game: a dance that dropped its last discs into outer space.
pub fn dance() -> View {
    let mut v = base();
    for (q, r, c) in [
        (2, -2, S),
        (2, -1, R),
        (-1, 0, S),
        (-1, 1, R),
        (0, 1, R),
        (1, 0, S),
        (2, -3, S),
        (0, -2, R),
        (-1, -1, S),
        (3, -2, R),
        (1, 1, S),
    ] {
        v.tiles.push((Hex::new(q, r), c));
    }
    v.stacks = vec![
        (Hex::new(0, 0), vec![R, S]),
        (Hex::new(1, -1), vec![S, R, S]),
        (Hex::new(-1, 1), vec![R]),
        (Hex::new(2, -2), vec![R]),
        (Hex::new(3, -1), vec![S, S]),
        (Hex::new(-2, 0), vec![R, R, S]),
    ];
    v.hands = [3, 5];
    v.supply = 24;
    v.score = [12, 9];
    v.to_move = R;
    v.last = Some(LastMove::Dance {
        from: Hex::new(1, 1),
        landings: vec![Hex::new(1, 0), Hex::new(1, -1), Hex::new(1, -2)],
    });
    v.stacks.push((Hex::new(1, 0), vec![S]));
    v.stacks.push((Hex::new(1, -2), vec![S]));
    v.caption = "Move 23: 1,1-1,-1".to_string();
    v
}

/// Big stacks: 8 and 16 high, and a stack in outer space.
pub fn big_stacks() -> View {
    let mut v = dance();
    v.stacks = vec![
        (Hex::new(0, 0), [S, R].repeat(4)),
        (Hex::new(1, -1), [R, R, S, S].repeat(4)),
        (Hex::new(-1, 1), vec![R; 3]),
        (Hex::new(2, -4), vec![S, S, R, R, R]),
        (Hex::new(3, -3), vec![S, R]),
        (Hex::new(1, 0), vec![S]),
    ];
    v.last = Some(LastMove::Place(Hex::new(1, 0)));
    v.caption = "Move 61: 1,0".to_string();
    v.to_move = R;
    v
}

/// An expansion whose chain converted three cells.
pub fn expansion() -> View {
    let mut v = dance();
    v.tiles.push((Hex::new(-2, 1), R));
    v.tiles.push((Hex::new(-2, 0), R));
    v.tiles.push((Hex::new(-2, 2), R));
    v.stacks.retain(|s| s.0 != Hex::new(-2, 0));
    v.stacks.push((Hex::new(-3, 2), vec![S]));
    v.last = Some(LastMove::Expand {
        cells: vec![Hex::new(-2, 1), Hex::new(-2, 0), Hex::new(-2, 2)],
    });
    v.supply = 21;
    v.score = [12, 15];
    v.caption = "Move 24: +-2,1".to_string();
    v.to_move = S;
    v
}

/// A full world: all 39 tiles in one blob, discs spread over it and in outer space.
pub fn full_world() -> View {
    let mut v = base();
    v.tiles.clear();
    let mut seed = 11u32;
    let mut rnd = || {
        seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
        (seed >> 16) % 1000
    };
    // Cells within distance 3 of the origin (37) plus two more.
    for q in -3..=3i32 {
        for r in -3..=3i32 {
            let h = Hex::new(q, r);
            if h.distance(Hex::ORIGIN) <= 3 {
                v.tiles.push((h, if rnd() % 2 == 0 { S } else { R }));
            }
        }
    }
    v.tiles.push((Hex::new(4, -2), S));
    v.tiles.push((Hex::new(-4, 2), R));
    let cells: Vec<Hex> = v.tiles.iter().map(|t| t.0).collect();
    v.stacks.clear();
    for h in cells.iter().step_by(3) {
        let n = 1 + (rnd() % 4) as usize;
        let discs = (0..n).map(|_| if rnd() % 2 == 0 { S } else { R }).collect();
        v.stacks.push((*h, discs));
    }
    v.stacks.push((Hex::new(0, 4), vec![R, S]));
    v.stacks.push((Hex::new(-4, 0), vec![S]));
    v.supply = 0;
    v.hands = [2, 1];
    v.score = [44, 38];
    v.to_move = R;
    v.last = Some(LastMove::Place(Hex::new(1, 1)));
    v.stacks.retain(|s| s.0 != Hex::new(1, 1));
    v.stacks.push((Hex::new(1, 1), vec![S]));
    v.caption = "Move 70: 1,1".to_string();
    v
}

/// A long thin world: 39 tiles in one row, game over on score.
pub fn long_line() -> View {
    let mut v = base();
    v.tiles = (0..39)
        .map(|q| (Hex::new(q - 19, 0), if q % 3 == 0 { R } else { S }))
        .collect();
    v.stacks = vec![
        (Hex::new(-19, 0), vec![R, S]),
        (Hex::new(0, 0), vec![S; 4]),
        (Hex::new(20, 0), vec![R, R]),
        (Hex::new(5, -1), vec![S]),
    ];
    v.supply = 0;
    v.hands = [1, 6];
    v.score = [40, 26];
    v.outcome = Some(Outcome::by_score(Reason::Score, [40, 26]));
    v.last = Some(LastMove::Expand {
        cells: vec![Hex::new(19, 0)],
    });
    v.caption = "Move 88: +19,0".to_string();
    v
}
