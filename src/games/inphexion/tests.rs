//! One test per rule (I1–I19), on hand-built positions.
use super::*;
use crate::games::{Outcome, Reason};
use rand::{rngs::SmallRng, SeedableRng};

fn opts(words: &str) -> Options {
    Options::parse(&words.split_whitespace().collect::<Vec<_>>()).expect("valid options")
}

/// A position from its board and side to move; the hands follow from the board (I4).
fn pos(words: &str, board: &str, to_move: &str) -> Position {
    let o = opts(words);
    let init = o.initial_hand() as usize;
    let w = init - board.matches('w').count();
    let b = init - board.matches('b').count();
    Position::from_line(&o, &format!("{board}|to-move {to_move}|hand {w}/{b}"))
        .unwrap_or_else(|e| panic!("{board}: {e}"))
}

fn legal(p: &Position) -> Vec<String> {
    let mut l = MoveList::new();
    p.legal_moves(&mut l);
    let mut v: Vec<String> = l.iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

fn play(p: &mut Position, text: &str) {
    let m = p.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    p.check_move(&m).unwrap_or_else(|e| panic!("{text}: {e}"));
    p.play(&m);
}

fn illegal(p: &Position, text: &str) -> String {
    let m = p.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    p.check_move(&m).expect_err(text).why
}

fn at(p: &Position, cell: &str) -> Option<Piece> {
    let m = Move::place(Hex::new(0, 0))
        .and(p.parse_move(cell).ok())
        .expect("cell");
    p.cell(m.placed().expect("a cell"))
}

#[test]
fn i1_sizes_four_to_eleven() {
    for n in 4..=11u8 {
        let o = opts(&format!("size={n}"));
        let p = Position::new(&o);
        assert_eq!(legal(&p).len(), n as usize * n as usize);
    }
    assert_eq!(Options::parse(&[]).map(|o| o.size), Ok(7));
    assert_eq!(
        Options::parse(&["size=3"]),
        Err(OptionError::Bad("size=3 (I1: size 4 to 11)".to_string()))
    );
    assert!(matches!(
        Options::parse(&["size=12"]),
        Err(OptionError::Bad(_))
    ));
    assert!(matches!(
        Options::parse(&["SIZE=x"]),
        Err(OptionError::Bad(_))
    ));
    assert_eq!(
        Options::parse(&["bogus"]),
        Err(OptionError::Unknown("bogus".to_string()))
    );
    assert_eq!(
        opts("NEUTRAL free-reply Pie size=9").words(),
        vec!["size=9", "pie", "free-reply", "neutral"]
    );
}

#[test]
fn i2_cells_and_neighbours() {
    // A disc on c3 moves to exactly its six neighbours (c±1, r), (c, r±1), (c+1, r−1), (c−1, r+1).
    let p = pos("size=5", "...../...../..w../...../.....", "black");
    assert_eq!(
        legal(&p),
        ["c3-b3", "c3-b4", "c3-c2", "c3-c4", "c3-d2", "c3-d3"]
    );
    assert_eq!(cell_name(Hex::new(0, 0)), "a1");
    assert_eq!(cell_name(Hex::new(10, 10)), "k11");
    // The top-left corner a1 has two neighbours, the top-right corner three.
    let p = pos("size=5", "w..../...../...../...../.....", "black");
    assert_eq!(legal(&p), ["a1-a2", "a1-b1"]);
    let p = pos("size=5", "....w/...../...../...../.....", "black");
    assert_eq!(legal(&p), ["e1-d1", "e1-d2", "e1-e2"]);
}

#[test]
fn i3_white_joins_top_and_bottom_black_left_and_right() {
    // A white column joins rows 1 and 5: White has won.
    let p = pos("size=5", "b.w../b.w../b.w../b.w../..w..", "black");
    assert_eq!(
        p.outcome(),
        Some(Outcome::win(Colour::First, Reason::Connection))
    );
    assert_eq!(p.winning_chain().map(|c| c.len()), Some(5));
    // The same shape in black joins nothing of Black's.
    let p = pos("size=5", "w.b../w.b../w.b../..b../..bww", "white");
    assert!(p.outcome().is_none());
    // A black row joins columns a and e.
    let p = pos("size=5", "w..../bbbbb/...../...../w.www", "white");
    assert_eq!(
        p.outcome(),
        Some(Outcome::win(Colour::Second, Reason::Connection))
    );
}

#[test]
fn i4_hands_and_no_disc_no_move() {
    assert_eq!(Position::new(&opts("size=7")).hand(Colour::First), 25);
    assert_eq!(
        Position::new(&opts("size=7 neutral")).hand(Colour::Second),
        24
    );
    assert_eq!(Position::new(&opts("size=4")).hand(Colour::Second), 8);
    let mut p = Position::new(&opts("size=5"));
    play(&mut p, "c3");
    assert_eq!((p.hand(Colour::First), p.hand(Colour::Second)), (12, 13));
    play(&mut p, "c3-d3");
    assert_eq!((p.hand(Colour::First), p.hand(Colour::Second)), (12, 12));
    // Hands that do not match the board are refused.
    let o = opts("size=5");
    let e = Position::from_line(&o, "...../...../..w../...../.....|to-move black|hand 13/13");
    assert!(e.is_err());
}

#[test]
fn i5_white_first_places_anywhere() {
    let mut p = Position::new(&opts("size=5 pie free-reply"));
    assert_eq!(p.to_move(), Colour::First);
    assert!(p.is_first_placement());
    assert!(illegal(&p, "a1-a2").contains("(I5)"));
    play(&mut p, "e5");
    assert_eq!(at(&p, "e5"), Some(Piece::White));
    assert_eq!(p.to_move(), Colour::Second);
    // Only the first move is a placement.
    play(&mut p, "e5-e4");
    assert!(illegal(&p, "a1").contains("(I5)"));
}

#[test]
fn i6_regular_move_moves_an_opponent_disc_and_places_on_its_cell() {
    let mut p = pos("size=5", "...../.w.../..b../...../.b.w.", "white");
    play(&mut p, "c3-d3");
    assert_eq!(at(&p, "c3"), Some(Piece::White));
    assert_eq!(at(&p, "d3"), Some(Piece::Black));
    assert_eq!(p.to_move(), Colour::Second);
    let p = pos("size=5", "...../.w.../..b../...../.b.w.", "white");
    assert!(illegal(&p, "b2-b3").contains("own disc"));
    assert!(illegal(&p, "a1-a2").contains("no disc"));
    assert!(illegal(&p, "c3-e3").contains("(I6)"));
    assert!(illegal(&p, "b5-a5 b5>a1").contains("(I10)"));
    // A disc with no empty neighbour cannot be moved.
    let p = pos("size=5", "bw.../w..../...../...../....b", "white");
    assert!(!legal(&p).iter().any(|m| m.starts_with("a1-")));
    assert!(illegal(&p, "a1-b2").contains("(I6)"));
}

#[test]
fn i7_pie_swap_uses_up_blacks_first_turn() {
    let mut p = Position::new(&opts("size=5 pie free-reply"));
    assert!(illegal(&p, "swap").contains("(I7)"));
    play(&mut p, "c3");
    assert!(legal(&p).contains(&"swap".to_string()));
    play(&mut p, "swap");
    assert_eq!(p.to_move(), Colour::Second);
    assert_eq!(
        p.to_line(),
        "...../...../..w../...../.....|to-move black|hand 12/13|swapped"
    );
    let l = legal(&p);
    assert_eq!(l, ["c3-b3", "c3-b4", "c3-c2", "c3-c4", "c3-d2", "c3-d3"]);
    assert!(illegal(&p, "swap").contains("(I7)"));
    let back = Position::from_line(p.options(), &p.to_line()).expect("valid line");
    assert_eq!(back, p);
    play(&mut p, "c3-c4");
    assert!(!p.to_line().contains("swapped"));
    let p = {
        let mut p = Position::new(&opts("size=5"));
        play(&mut p, "c3");
        p
    };
    assert!(illegal(&p, "swap").contains("pie"));
}

#[test]
fn i8_free_reply_places_black_anywhere_on_blacks_first_turn() {
    let mut p = Position::new(&opts("size=5 free-reply"));
    play(&mut p, "c3");
    let l = legal(&p);
    assert_eq!(l.len(), 24 + 6);
    assert!(illegal(&p, "c3").contains("not empty"));
    play(&mut p, "A1");
    assert_eq!(at(&p, "a1"), Some(Piece::Black));
    assert_eq!(p.to_move(), Colour::First);
    assert!(illegal(&p, "b1").contains("(I8)"));
    let p = pos("size=5", "...../...../..w../...../.....", "black");
    assert!(illegal(&p, "a1").contains("(I8)"));
}

#[test]
fn i9_surround_counts_the_edge_and_breaks_on_empty_own_or_neutral() {
    // e5 (corner) between white d5 and e4: surrounded, so relocated.
    let p = pos("size=5", "...../...../...../....w/...b.", "white");
    let l = legal(&p);
    assert!(l.contains(&"d5-e5 e5>a1".to_string()));
    assert_eq!(l.iter().filter(|m| m.starts_with("d5-e5")).count(), 22);
    // With the neutral disc next to it, the black disc is not surrounded.
    let p = pos("size=5 neutral", "ww.../...../...../....n/...bb", "white");
    assert!(legal(&p).iter().all(|m| !m.contains('>')));
}

#[test]
fn i10_only_newly_surrounded_discs_move() {
    // a1 is already surrounded by White; d5-c5 surrounds e5 anew: only e5 is relocated.
    let p = pos("size=5", "bw.../w..../...../....w/...bb", "white");
    let l: Vec<String> = legal(&p)
        .into_iter()
        .filter(|m| m.starts_with("d5-c5"))
        .collect();
    assert_eq!(l.len(), 25 - 7);
    assert!(l.iter().all(|m| m.starts_with("d5-c5 e5>")));
    assert!(
        illegal(&p, "d5-c5").contains("d5-c5 relocates e5: give its destination, e.g. d5-c5 e5>")
    );
    assert!(illegal(&p, "d5-c5 e5>a1").contains("empty"));
    assert!(illegal(&p, "d5-c5 e5>e5").contains("lifted"));
    assert!(illegal(&p, "d5-c5 e5>c1 a1>c2").contains("does not relocate a1"));
    let mut q = p.clone();
    play(&mut q, "d5-c5 e5>c1");
    assert_eq!(at(&q, "c1"), Some(Piece::Black));
    assert_eq!(at(&q, "e5"), None);
    assert_eq!(at(&q, "a1"), Some(Piece::Black));
}

#[test]
fn i11_adjacent_enclosed_discs_stay() {
    // c5-b5 encloses the pair d5 e5 with white c5 d4 e4: neither is surrounded.
    let mut p = pos("size=5", "w..../...../...../...ww/..bbb", "white");
    let l = legal(&p);
    assert!(l.contains(&"c5-b5".to_string()));
    assert!(l.iter().all(|m| !m.contains('>')));
    play(&mut p, "c5-b5");
    assert_eq!(at(&p, "d5"), Some(Piece::Black));
    assert_eq!(at(&p, "e5"), Some(Piece::Black));
}

#[test]
fn i12_movers_own_surrounded_disc_stays() {
    // White's e3-e4 leaves its own e5 surrounded by black d5 and e4: it stays.
    let mut p = pos("size=5", "w..../...../....b/...../...bw", "white");
    play(&mut p, "e3-e4");
    assert_eq!(at(&p, "e5"), Some(Piece::White));
    // Nor does Black relocate it later: it was surrounded before Black's move (I10 decision).
    assert!(legal(&p).iter().all(|m| !m.contains("e5>")));
    play(&mut p, "a1-b1");
    assert_eq!(at(&p, "e5"), Some(Piece::White));
}

#[test]
fn i13_relocated_disc_surrounded_again_stays() {
    let mut p = pos("size=5", ".w..b/w..../...../....w/...bb", "white");
    play(&mut p, "d5-c5 e5>a1");
    assert_eq!(at(&p, "a1"), Some(Piece::Black));
    play(&mut p, "e4-e5");
    // a1 is surrounded by White but was before White's next move: not relocated.
    assert!(legal(&p).iter().all(|m| !m.contains("a1>")));
}

#[test]
fn i14_relocation_impossible_loses() {
    // a2-b1 surrounds white b1 and a3; only e5 is empty: White wins at once.
    let mut p = pos("size=5", "b.bwb/wbwwb/wbwww/bbbbw/wwwb.", "black");
    let l = legal(&p);
    assert!(l.contains(&"a2-b1".to_string()));
    assert!(illegal(&p, "a2-b1 b1>e5 a3>e5").contains("(I14)"));
    play(&mut p, "a2-b1");
    assert_eq!(
        p.outcome(),
        Some(Outcome::win(Colour::First, Reason::RelocationImpossible))
    );
    assert_eq!(at(&p, "b1"), Some(Piece::White));
    assert_eq!(at(&p, "a3"), Some(Piece::White));
    assert_eq!(p.to_move(), Colour::First);
    assert!(legal(&p).is_empty());
}

#[test]
fn i15_neutral_disc() {
    let mut p = Position::new(&opts("size=5 neutral"));
    assert_eq!(at(&p, "c3"), Some(Piece::Neutral));
    assert_eq!(p.hand(Colour::First), 12);
    assert!(illegal(&p, "a1").contains("(I15)"));
    assert_eq!(
        legal(&p),
        ["c3-b3", "c3-b4", "c3-c2", "c3-c4", "c3-d2", "c3-d3"]
    );
    play(&mut p, "c3-c4");
    assert_eq!(at(&p, "c3"), Some(Piece::White));
    // Black may move the neutral disc too.
    assert!(legal(&p).contains(&"c4-c5".to_string()));
    // The neutral disc is relocated when surrounded: e5 between white d5 and e4.
    let p = pos("size=5 neutral", "b..../w..../...../....w/...bn", "white");
    assert!(legal(&p).contains(&"d5-c5 e5>a3".to_string()));
    // It never counts toward a connection.
    let p = pos("size=5 neutral", "b.w../b.w../b.n../b.w../..w..", "white");
    assert!(p.outcome().is_none() || p.outcome().map(|o| o.reason) == Some(Reason::NoLegalMove));
    assert!(Options::parse(&["size=6", "neutral"]).is_err());
    assert!(Position::from_line(
        &opts("size=5"),
        "..n../...../...../...../.....|to-move white|hand 13/13"
    )
    .is_err());
    assert!(Position::from_line(
        &opts("size=5 neutral"),
        "...../...../...../...../.....|to-move white|hand 12/12"
    )
    .is_err());
}

#[test]
fn i16_first_connection_check_comes_before_relocation() {
    // b4-b5 completes Black's chain and would surround b5: the game ends, nothing moves.
    let mut p = pos("size=5", "...../.b..b/wwwbw/wwbww/b.bb.", "black");
    let l = legal(&p);
    assert!(l.contains(&"b4-b5".to_string()));
    assert!(l.iter().all(|m| !m.starts_with("b4-b5 ")));
    assert!(illegal(&p, "b4-b5 b5>a1").contains("(I16)"));
    play(&mut p, "b4-b5");
    assert_eq!(
        p.outcome(),
        Some(Outcome::win(Colour::Second, Reason::Connection))
    );
    assert_eq!(at(&p, "b5"), Some(Piece::White));
    // The turn still passes.
    assert_eq!(p.to_move(), Colour::First);
    assert!(p.to_line().ends_with("|to-move white|hand 5/5"));
}

#[test]
fn i17_completing_the_opponents_chain_loses() {
    let mut p = pos("size=5", ".wbbb/...bb/.bwbw/bwwwb/wwwwb", "white");
    play(&mut p, "c1-c2");
    assert_eq!(
        p.outcome(),
        Some(Outcome::win(Colour::Second, Reason::Connection))
    );
    let chain = p.winning_chain().expect("a chain");
    assert!(chain.contains(p.rhombus().index(Hex::new(2, 1)).expect("c2")));
}

#[test]
fn i18_no_legal_move_loses() {
    let mut p = pos("size=5", "...../...../...../...ww/..wbb", "black");
    play(&mut p, "e4-e3");
    assert_eq!(
        p.outcome(),
        Some(Outcome::win(Colour::Second, Reason::NoLegalMove))
    );
    assert_eq!(p.to_move(), Colour::First);
    assert!(legal(&p).is_empty());
    // The same position set up directly is over too.
    let q = Position::from_line(p.options(), &p.to_line()).expect("valid");
    assert_eq!(q.outcome(), p.outcome());
}

#[test]
fn i19_no_draws() {
    let mut rng = SmallRng::seed_from_u64(19);
    for n in [4u8, 5, 6, 7] {
        for _ in 0..200 {
            let mut p = Position::new(&opts(&format!("size={n}")));
            let o = p.playout(&mut rng);
            assert!(o.winner.is_some());
        }
    }
}

#[test]
fn notation_is_tolerant_and_errors_are_clear() {
    let p = pos("size=5", "bw.../w..../...../....w/...bb", "white");
    let a = p.parse_move("D5 - c5   E5 > c1").expect("parses");
    assert_eq!(a.to_string(), "d5-c5 e5>c1");
    let m = p.parse_move("c3-d3 e5>a1 b2>c1 a4>b4").expect("parses");
    assert_eq!(m.to_string(), "c3-d3 a4>b4 b2>c1 e5>a1");
    assert!(p.parse_move("f1").is_err());
    assert!(p.parse_move("c3-").is_err());
    assert!(p.parse_move("c3-d3 e5").is_err());
    assert!(p.parse_move("c3-d3 e5>a1 e5>a2").is_err());
    assert!(p.parse_move("").is_err());
    assert!(p.parse_move("3c").is_err());
    assert_eq!(p.parse_move("SWAP").map(|m| m.is_swap()), Ok(true));
}

#[test]
fn from_line_rejects_what_the_rules_cannot_hold() {
    let o = opts("size=5");
    let bad = [
        ("...../...../...../.....|to-move white|hand 13/13", "rows"),
        (
            "...../...../...../...../....|to-move white|hand 13/13",
            "row 5",
        ),
        (
            "...../...../..x../...../.....|to-move white|hand 13/13",
            "letter",
        ),
        (
            "...../...../..w../...../.....|to-move black|hand 13/13",
            "hand",
        ),
        (
            "...../...../..w../...../.....|to-move white|hand 12/13",
            "black is to move",
        ),
        (
            "...../...../..b../...../.....|to-move white|hand 13/12",
            "cannot occur",
        ),
        ("...../...../..w../...../.....|to-move black", "missing"),
        (
            "...../...../..w../...../.....|to-move black|hand 12/13|swapped",
            "pie",
        ),
        (
            "...../...../..w../...../.....|to-move black|hand 12/13|bogus",
            "unexpected",
        ),
        (
            "...../...../..w../...../.....|to-move red|hand 12/13",
            "white or black",
        ),
    ];
    for (line, why) in bad {
        let e = Position::from_line(&o, line).expect_err(line);
        assert!(e.why.contains(why), "{line}: {}", e.why);
    }
    let e = Position::from_line(
        &opts("size=5 pie"),
        "...../...../..w../...../b....|to-move white|hand 12/12|swapped",
    )
    .expect_err("swapped after black moved");
    assert!(e.why.contains("(I7)"));
    // Empty board: White's placement (I5); one white disc, black to move: Black's first turn.
    let p = Position::from_line(
        &opts("size=5 pie"),
        "...../...../...../...../.....|to-move white|hand 13/13",
    )
    .expect("start");
    assert_eq!(p, Position::new(&opts("size=5 pie")));
    let p = Position::from_line(
        &opts("size=5 pie"),
        "...../...../...w./...../.....|to-move black|hand 12/13",
    )
    .expect("first turn");
    assert!(legal(&p).contains(&"swap".to_string()));
}

#[test]
fn relocation_errors_name_what_is_wrong() {
    let q = pos(
        "size=7",
        "bw...../w....../......./......./......./......w/.....bb",
        "white",
    );
    assert!(illegal(&q, "f7-e7").contains("relocates g7"));
    assert!(illegal(&q, "f7-e7 g7>a3 a1>a4").contains("does not relocate a1"));
    assert!(illegal(&q, "f7-e7 g7>b1").contains("empty cell"));
    // e4-e5 surrounds the moved disc on e5 and black e3: both are relocated.
    let r = pos("size=5", "bb.../....w/...wb/...wb/...w.", "white");
    let l = legal(&r);
    assert_eq!(l.iter().filter(|m| m.starts_with("e4-e5")).count(), 16 * 15);
    assert!(l.contains(&"e4-e5 e3>a2 e5>a3".to_string()));
    assert!(illegal(&r, "e4-e5 e5>a2 e3>a2").contains("different empty cell"));
    assert!(illegal(&r, "e4-e5 e3>a2").contains("relocates e3 and e5: give every destination"));
    assert!(illegal(&r, "e4-e5").contains("e.g. e4-e5 e3>"));
}

#[test]
fn diagram_shows_every_row_shifted() {
    let p = pos("size=5 neutral", "b..../w..../..n../....w/...b.", "white");
    let d = p.diagram();
    println!("{d}");
    let rows: Vec<&str> = d
        .lines()
        .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .collect();
    assert_eq!(rows.len(), 5);
    assert!(rows[0].contains("b . . . ."));
    assert!(rows[4].contains(". . . b ."));
    // Each row starts one column further right than the one above.
    let col = |l: &str| l.find(['.', 'w', 'b', 'n']).unwrap_or(0);
    assert_eq!(col(rows[1]), col(rows[0]) + 1);
    assert!(d.contains("white to move"));
}

#[test]
fn decisive_playouts_take_a_win_in_one() {
    // White wins at once by a regular move (the placement joins rows 1 and 5, I17).
    let o = opts("size=5");
    let p = Position::from_line(&o, "...w./..wwb/wbbbw/wwb../wbbb.|to-move white|hand 5/5")
        .expect("valid position");
    assert!(p.winning_regular().is_some());
    for seed in 0..20 {
        let mut q = p.clone();
        let o = q.playout_decisive(&mut SmallRng::seed_from_u64(seed));
        assert_eq!(o.winner, Some(Colour::First), "seed {seed}");
        assert_eq!(o.reason, Reason::Connection, "seed {seed}");
    }
    // The move found is legal and wins.
    let (from, to) = p.winning_regular().expect("a winning move");
    let mut q = p.clone();
    let mv = q.bare_regular(from, to);
    q.check_move(&mv).expect("legal");
    q.play(&mv);
    assert_eq!(q.outcome().map(|o| o.winner), Some(Some(Colour::First)));
}

#[test]
fn decisive_playouts_end_games_by_the_rules() {
    let start = Position::new(&Options::default());
    let mut rng = SmallRng::seed_from_u64(3);
    for _ in 0..200 {
        let mut p = start.clone();
        let o = p.playout_decisive(&mut rng);
        assert_eq!(p.outcome(), Some(o));
    }
}

#[test]
fn playouts_play_the_random_steps_on_every_board_and_variant() {
    // `playout` takes a 64-bit path on boards up to 8×8: it must play the very moves that
    // `random_step` plays from the same random numbers, to the same final position.
    for n in 4u8..=9 {
        for words in [
            "",
            "pie",
            "free-reply",
            "neutral",
            "pie free-reply",
            "pie neutral",
        ] {
            if n % 2 == 0 && words.contains("neutral") {
                continue; // I15: an odd size only.
            }
            let o = opts(&format!("size={n} {words}"));
            // The neutral disc's turn among several relocated discs is rare: more games.
            let games = if words.contains("neutral") { 2500 } else { 150 };
            for seed in 0..games {
                let mut a = Position::new(&o);
                let got = a.playout(&mut SmallRng::seed_from_u64(seed));
                let mut b = Position::new(&o);
                let mut rng = SmallRng::seed_from_u64(seed);
                while b.outcome().is_none() {
                    b.random_step(&mut rng).expect("a game in play has a move");
                }
                assert_eq!(Some(got), b.outcome(), "size={n} {words} seed {seed}");
                assert_eq!(a, b, "size={n} {words} seed {seed}");
            }
        }
    }
}
