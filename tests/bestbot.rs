//! Boardspace's EXXIT robots, checked against their description
//! ([`hexcord::ai::boardspace`]'s docs): the evaluation's terms on hand-made positions, the
//! search's root value against a plain minimax with the same evaluation, move ordering, passes,
//! a single legal move and the opening randomisation.
use hexcord::ai::boardspace::{
    self, aux, children, combine, evaluate, make, order, player_values, search, search_to, topped,
    Kind, Robot,
};
use hexcord::games::exxit::{Move, MoveList, Options, Position};
use hexcord::games::Colour;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

const SILVER: Colour = Colour::First;
const RED: Colour = Colour::Second;

fn pos(variant: &[&str], line: &str) -> Position {
    let o = Options::parse(variant).expect("options");
    Position::from_line(&o, line).unwrap_or_else(|e| panic!("{line}: {e}"))
}

/// A row of tiles on (0,0) … (n−1,0), silver on the first `silver` cells and red on the rest,
/// as position-line cells, with `extra` cells appended (they replace row cells given again).
fn row(n: i32, silver: i32, extra: &[&str]) -> String {
    let mut cells: Vec<String> = Vec::new();
    for q in 0..n {
        let cell = format!("{q},0");
        if let Some(e) = extra.iter().find(|e| e.starts_with(&format!("{cell}:"))) {
            cells.push(e.to_string());
        } else {
            cells.push(format!("{cell}:{}", if q < silver { 1 } else { 2 }));
        }
    }
    for e in extra {
        if !cells.iter().any(|c| c == e) {
            cells.push(e.to_string());
        }
    }
    cells.join(" ")
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

const START: &str = "0,-1:1 1,-1:1 0,0:2 1,-2:2|tiles 35|hand 8/8|to-move silver";

#[test]
fn island_score_and_reserve_at_the_start() {
    let p = pos(&[], START);
    // Silver: one island of 2 (2 + 2 = 4); red: two islands of 1 (1 + 1 + 1 = 3).
    assert_eq!(p.score(), [4, 3]);
    for r in [Robot::Weakbot, Robot::Dumbot] {
        assert_eq!(player_values(&p, r), [4.0, 3.0]);
        assert_eq!(evaluate(&p, SILVER, 1, r), 1.0);
        assert_eq!(evaluate(&p, RED, 1, r), -1.0);
    }
    // Smartbot and Bestbot add 0.5 a disc in hand: 4 + 4 against 3 + 4.
    for r in [Robot::Smartbot, Robot::Bestbot] {
        assert_eq!(player_values(&p, r), [8.0, 7.0]);
        assert_eq!(evaluate(&p, SILVER, 1, r), 1.0);
    }
    assert_eq!(aux(&p), 1.0);
}

#[test]
fn topped_tiles_count_only_stacks_on_tiles() {
    // Silver tops its own tile and a red tile; red tops one tile and an outer-space stack.
    let p = pos(
        &[],
        "0,-1:1/1 1,-1:1 0,0:2/21 1,-2:2/2 2,-2:./2|tiles 35|hand 6/5|to-move red",
    );
    assert_eq!(topped(&p), [2, 1]);
    let v = player_values(&p, Robot::Bestbot);
    assert!(close(v[0], 4.0 - 0.1 * 2.0 + 0.5 * 6.0), "{v:?}");
    assert!(close(v[1], 3.0 - 0.1 * 1.0 + 0.5 * 5.0), "{v:?}");
    assert!(close(evaluate(&p, SILVER, 2, Robot::Bestbot), 6.8 - 5.4));
    assert!(close(evaluate(&p, RED, 2, Robot::Smartbot), 5.4 - 6.8));
    // Dumbot sees the islands only.
    assert_eq!(evaluate(&p, SILVER, 2, Robot::Dumbot), 1.0);
}

#[test]
fn aux_weight_shrinks_over_the_last_ten_tiles() {
    // 33 tiles laid of 39: aux = (39 − 33) / 10.
    let line = row(33, 20, &["25,0:2/1", "26,0:2/1", "5,0:1/2"]) + "|tiles 6|hand 6/7|to-move red";
    let p = pos(&[], &line);
    assert!(close(aux(&p), 0.6));
    assert_eq!(topped(&p), [2, 1]);
    // Silver: one island of 20 (40); red: one of 13 (26).
    assert_eq!(p.score(), [40, 26]);
    let v = player_values(&p, Robot::Bestbot);
    assert!(close(v[0], 40.0 - 0.1 * 0.6 * 2.0 + 3.0), "{v:?}");
    assert!(close(v[1], 26.0 - 0.1 * 0.6 * 1.0 + 3.5), "{v:?}");
    // 28 laid: still 1 (28 + 10 < 39); 29 laid: (39 − 29) / 10 = 1 as well; 30: 0.9.
    for (n, want) in [(28, 1.0), (29, 1.0), (30, 0.9)] {
        let line = row(n, 10, &[]) + &format!("|tiles {}|hand 8/8|to-move red", 39 - n);
        assert!(close(aux(&pos(&[], &line)), want), "{n} tiles");
    }
}

#[test]
fn a_won_game_is_worth_more_when_sooner() {
    // The supply is empty: silver (40) beats red (26).
    let line = row(39, 20, &[]) + "|tiles 0|hand 8/8|to-move red";
    let p = pos(&[], &line);
    assert!(p.is_over());
    for r in Robot::ALL {
        assert_eq!(evaluate(&p, SILVER, 3, r), 1000.25);
        assert_eq!(evaluate(&p, RED, 3, r), -1000.25);
        assert_eq!(evaluate(&p, SILVER, 0, r), 1001.0);
        assert!(evaluate(&p, SILVER, 1, r) > evaluate(&p, SILVER, 2, r));
    }
    assert_eq!(combine(1000.5, 1000.25), -100.0 + 0.25);
    assert_eq!(combine(1000.5, 3.0), 1000.5);
    assert_eq!(combine(3.0, 1000.5), -1000.5);
    assert_eq!(combine(5.0, 3.0), 2.0);
}

/// The value of the node at `ply` for its side to move by plain minimax: the robot's children
/// (a pass keeps the side to move), leaves at the horizon or at the end of the game.
fn minimax(p: &Position, ply: u32, horizon: u32, robot: Robot) -> f64 {
    let me = p.to_move();
    let mut list = MoveList::new();
    p.legal_moves(&mut list);
    let mut best = f64::NEG_INFINITY;
    for &mv in list.as_slice() {
        let c = make(p, mv);
        let v = if c.is_over() || ply + 1 >= horizon {
            evaluate(&c, me, ply + 1, robot)
        } else if c.to_move() == me {
            minimax(&c, ply + 1, horizon, robot)
        } else {
            -minimax(&c, ply + 1, horizon, robot)
        };
        if v > best {
            best = v;
        }
    }
    best
}

/// Positions from seeded random games of the given variant, every few plies.
fn sample(variant: &[&str], games: u64, every: u32) -> Vec<Position> {
    let o = Options::parse(variant).expect("options");
    let mut out = Vec::new();
    let mut list = MoveList::new();
    for g in 0..games {
        let mut rng = SmallRng::seed_from_u64(g);
        let mut p = Position::new(&o);
        let mut ply = 0;
        while !p.is_over() {
            if ply % every == every - 1 {
                out.push(p.clone());
            }
            p.legal_moves(&mut list);
            let mv = list.as_slice()[rng.random_range(0..list.len())];
            p.play(&mv);
            ply += 1;
        }
    }
    out
}

fn check_against_minimax(p: &Position, robot: Robot, horizon: u32) {
    let c = search_to(p, robot, horizon, None, 0).expect("a move");
    let mut list = MoveList::new();
    p.legal_moves(&mut list);
    if list.len() == 1 {
        return;
    }
    let want = minimax(p, 0, horizon, robot);
    assert_eq!(c.value, want, "{robot} to {horizon} in {}", p.to_line());
    assert_eq!(c.root[0].1, want);
    // The move played has that value.
    let child = make(p, c.mv);
    let me = p.to_move();
    let v = if child.is_over() || horizon == 1 {
        evaluate(&child, me, 1, robot)
    } else if child.to_move() == me {
        minimax(&child, 1, horizon, robot)
    } else {
        -minimax(&child, 1, horizon, robot)
    };
    assert_eq!(v, want, "{} in {}", c.mv, p.to_line());
}

#[test]
fn root_value_equals_minimax_on_sampled_positions() {
    for p in sample(&["tiles=19"], 6, 7) {
        check_against_minimax(&p, Robot::Weakbot, 2);
        check_against_minimax(&p, Robot::Dumbot, 3);
        check_against_minimax(&p, Robot::Bestbot, 3);
    }
    for p in sample(&["tiles=39"], 2, 13) {
        check_against_minimax(&p, Robot::Smartbot, 2);
        check_against_minimax(&p, Robot::Bestbot, 3);
    }
}

#[test]
fn root_value_equals_minimax_deeper_near_the_end() {
    // Few tiles left: the end of the game lies within the horizon.
    let mut n = 0;
    for p in sample(&["tiles=19"], 4, 3) {
        if p.supply() <= 3 {
            check_against_minimax(&p, Robot::Bestbot, 4);
            n += 1;
        }
    }
    assert!(n > 0);
}

/// Silver holds no disc and has no dance or expansion: it can only pass.
const SILVER_PASSES: &str =
    "0,-1:1 1,-1:1 0,0:2 1,-2:2 -1,-1:./11111111|tiles 35|hand 0/8|to-move silver";

#[test]
fn a_pass_keeps_the_turn_in_the_search() {
    let p = pos(&[], SILVER_PASSES);
    let mut list = MoveList::new();
    p.legal_moves(&mut list);
    assert_eq!(list.as_slice(), &[Move::Pass]);
    let c = make(&p, Move::Pass);
    assert_eq!(c, p);
    assert_eq!(c.to_move(), SILVER);
    // The only legal move is played at once, without a search.
    let r = search(&p, Robot::Bestbot, None, 0).expect("a move");
    assert_eq!(r.mv, Move::Pass);
    assert_eq!(r.nodes, 1);
    // Red to move: after red's move silver passes, and passes again, to the horizon.
    let red = pos(&[], &SILVER_PASSES.replace("to-move silver", "to-move red"));
    for h in 1..=4 {
        check_against_minimax(&red, Robot::Bestbot, h);
    }
    let r = search_to(&red, Robot::Dumbot, 3, None, 0).expect("a move");
    let after = make(&red, r.mv);
    // Silver's passes change nothing: the value is red's static value after its move.
    assert_eq!(r.value, -evaluate(&after, SILVER, 3, Robot::Dumbot));
}

/// 18 of 19 tiles laid; an expansion on 1,−1 lays the last and ends the game.
fn one_tile_left() -> Position {
    let line = row(18, 9, &["1,-1:./1"]) + "|tiles 1|hand 7/8|to-move silver";
    pos(&["tiles=19"], &line)
}

#[test]
fn game_ending_moves_first_then_leaves_then_the_rest() {
    let p = one_tile_left();
    let mut kids = children(&p, 1, 3, Robot::Dumbot, None);
    assert_eq!(kids.len(), 19);
    order(&mut kids);
    assert_eq!(kids[0].mv, Move::Expand(hexcord::hex::Hex::new(1, -1)));
    assert_eq!(kids[0].kind, Kind::GameOver);
    assert_eq!(kids[0].value, 1000.5);
    assert!(kids[1..].iter().all(|c| c.kind == Kind::Inner));
    assert!(kids[1..].windows(2).all(|w| w[0].value >= w[1].value));
    // At the horizon every child is a leaf: sorted by value alone.
    let mut leaves = children(&p, 1, 1, Robot::Dumbot, None);
    assert!(leaves.iter().all(|c| c.kind != Kind::Inner));
    order(&mut leaves);
    assert!(leaves.windows(2).all(|w| w[0].value >= w[1].value));
    // Game-ending moves come first even when worse than the leaves... and leaves before inner
    // nodes whatever their values.
    let mut mixed = vec![
        boardspace::Child {
            mv: Move::Pass,
            value: 9.0,
            kind: Kind::Inner,
        },
        boardspace::Child {
            mv: Move::Swap,
            value: 1.0,
            kind: Kind::Leaf,
        },
        boardspace::Child {
            mv: Move::Place(hexcord::hex::Hex::new(0, 0)),
            value: -5.0,
            kind: Kind::GameOver,
        },
        boardspace::Child {
            mv: Move::Place(hexcord::hex::Hex::new(1, 0)),
            value: 3.0,
            kind: Kind::Leaf,
        },
    ];
    order(&mut mixed);
    let kinds: Vec<Kind> = mixed.iter().map(|c| c.kind).collect();
    assert_eq!(kinds, [Kind::GameOver, Kind::Leaf, Kind::Leaf, Kind::Inner]);
    assert_eq!(mixed[1].value, 3.0);
}

#[test]
fn a_leaf_reaching_the_bound_stops_its_siblings() {
    let p = one_tile_left();
    let all = children(&p, 1, 1, Robot::Dumbot, None);
    // Nothing reaches an infinite bound.
    assert_eq!(
        children(&p, 1, 1, Robot::Dumbot, Some(f64::INFINITY)).len(),
        all.len()
    );
    // Every leaf reaches a bound below all values: only the first is made.
    assert_eq!(children(&p, 1, 1, Robot::Dumbot, Some(-1e9)).len(), 1);
    // The list ends at the first leaf reaching the bound.
    let bound = all[all.len() / 2].value;
    let first = all
        .iter()
        .position(|c| c.value >= bound)
        .expect("one reaches it");
    let cut = children(&p, 1, 1, Robot::Dumbot, Some(bound));
    assert_eq!(cut.len(), first + 1);
    assert_eq!(&cut[..], &all[..=first]);
    // Inner children never stop the list.
    let inner = children(&p, 1, 3, Robot::Dumbot, Some(-1e9));
    assert_eq!(
        inner.len(),
        1,
        "the game-ending expansion comes first and is a leaf"
    );
    let q = pos(&[], START);
    assert_eq!(children(&q, 1, 3, Robot::Dumbot, Some(-1e9)).len(), 4);
}

#[test]
fn all_leaves_take_the_best_without_search() {
    let p = pos(&[], START);
    let kids = children(&p, 1, 1, Robot::Bestbot, None);
    let best = kids
        .iter()
        .map(|c| c.value)
        .fold(f64::NEG_INFINITY, f64::max);
    let r = search_to(&p, Robot::Bestbot, 1, None, 0).expect("a move");
    assert_eq!(r.value, best);
    assert_eq!(r.nodes, kids.len() as u64);
}

#[test]
fn the_opening_is_drawn_among_the_first_moves() {
    let mut p = pos(&[], START);
    // A few plies in, so there are more than a handful of moves.
    for text in ["0,0", "0,-1", "1,-2", "1,-1"] {
        let mv = p.parse_move(text).expect("move");
        p.play(&mv);
    }
    let best = search(&p, Robot::Dumbot, None, 0).expect("a move");
    let n = best.root.len();
    assert!(n >= 4, "{n} root moves");
    for m in [5u32, 12, 16] {
        let width = (20 - m as usize).min(n);
        let mut seen = std::collections::HashSet::new();
        for seed in 0..60 {
            let r = search(&p, Robot::Dumbot, Some(m), seed).expect("a move");
            let k = r
                .root
                .iter()
                .position(|(mv, _)| *mv == r.mv)
                .expect("a root move");
            assert!(k < width, "move {m}: picked the {k}th");
            seen.insert(k);
        }
        assert!(seen.len() >= width.min(4), "move {m}: {seen:?}");
    }
    // From move 18 on, and with randomisation off, the best.
    for seed in 0..10 {
        assert_eq!(
            search(&p, Robot::Dumbot, Some(18), seed)
                .expect("a move")
                .mv,
            best.mv
        );
        assert_eq!(
            search(&p, Robot::Dumbot, None, seed).expect("a move").mv,
            best.mv
        );
    }
    assert_eq!(best.root[0].1, best.value);
}

#[test]
fn robots_have_their_horizons_and_names() {
    let h: Vec<u32> = Robot::ALL.iter().map(|r| r.horizon()).collect();
    assert_eq!(h, [2, 3, 5, 8]);
    for r in Robot::ALL {
        assert_eq!(r.name().parse::<Robot>(), Ok(r));
    }
    assert!("Bestbot".parse::<Robot>().is_ok());
    assert!("megabot".parse::<Robot>().is_err());
}

#[test]
fn repetition_is_unknown_to_the_robot() {
    // The forced cycle of the rule tests (X19): the start comes back every eight plies.
    let start = "2,-3:1/1 2,-2:2/2 2,-1:1/21 2,0:2 3,-4:./222222|tiles 35|hand 6/0|to-move red";
    let cycle = [
        "2,-2-2,-3",
        "2,-1-2,-3",
        "pass",
        "2,-3-2,-2",
        "2,-1-2,0",
        "2,-2-2,0",
        "pass",
        "2,0-2,-1",
    ];
    let mut p = pos(&[], start);
    for m in cycle.iter().cycle().take(15) {
        let mv = p.parse_move(m).expect("move");
        p.play(&mv);
    }
    let last = p.parse_move(cycle[7]).expect("move");
    let mut real = p.clone();
    real.play(&last);
    assert_eq!(
        real.outcome().map(|o| o.reason),
        Some(hexcord::games::Reason::Repetition)
    );
    // To the robot the game goes on from the same position.
    let c = make(&p, last);
    assert!(c.outcome().is_none());
    assert_eq!(c.to_line(), real.to_line());
    let mut list = MoveList::new();
    c.legal_moves(&mut list);
    assert_eq!(list.as_slice(), &[c.parse_move(cycle[0]).expect("move")]);
    // The search goes through the cycle (red's forced passes keep red to move, so the line
    // differs from the game's) and still agrees with minimax.
    let red = pos(&[], start);
    for h in 1..=6 {
        check_against_minimax(&red, Robot::Bestbot, h);
    }
}

#[test]
fn the_arena_knows_the_robots() {
    use hexcord::arena::{self, Match, PlayerSpec};
    use hexcord::games::Options as GameOptions;
    for r in Robot::ALL {
        let spec: PlayerSpec = r.name().parse().expect("a player");
        assert_eq!(spec, PlayerSpec::Robot(r));
        assert_eq!(spec.to_string(), r.name());
    }
    let m = Match {
        options: GameOptions::parse_line("exxit tiles=19").expect("variant"),
        a: PlayerSpec::Robot(Robot::Dumbot),
        b: PlayerSpec::Random,
        games: 4,
        seed: 5,
        threads: 1,
        progress: false,
    };
    let r = arena::run(&m).expect("a match");
    assert_eq!(r.games(), 4);
    assert!(r.wins >= 3, "{r}");
    // Medians count the moves with a choice only.
    assert!(!r.move_times[0].is_empty());
    assert!(r.move_times[0].len() as u64 <= r.moves_a);
    assert!(r.move_times[1].len() as u64 <= r.moves_b);
    let wrong = Match {
        options: GameOptions::parse_line("inphexion size=5").expect("variant"),
        ..m
    };
    assert!(arena::run(&wrong).is_err());
}
