//! Rule tests, named after the rules X1–X20 of [`crate::games::exxit`].
use super::*;
use crate::games::{Colour, OptionError, Reason};

fn opts(words: &[&str]) -> Options {
    Options::parse(words).expect("valid options")
}

fn pos(line: &str) -> Position {
    Position::from_line(&Options::default(), line)
        .unwrap_or_else(|e| panic!("bad test position {line}: {e}"))
}

fn legal(p: &Position) -> Vec<String> {
    let mut l = MoveList::new();
    p.legal_moves(&mut l);
    let mut v: Vec<String> = l.iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

fn play(p: &mut Position, text: &str) {
    let mv = p.parse_move(text).expect("notation");
    p.check_move(&mv)
        .unwrap_or_else(|e| panic!("{text} refused in {}: {e}", p.to_line()));
    p.play(&mv);
}

fn refusal(p: &Position, text: &str) -> String {
    let mv = p.parse_move(text).expect("notation");
    match p.check_move(&mv) {
        Ok(()) => panic!("{text} accepted in {}", p.to_line()),
        Err(e) => e.why,
    }
}

/// The same position as `line` (cells in any order), as canonical text.
fn canon(line: &str) -> String {
    pos(line).to_line()
}

/// `n` empty filler tiles far from the action (row r = 12), to bring the supply down.
fn filler(n: i32) -> String {
    (0..n)
        .map(|k| format!(" {},12:2", k - 18))
        .collect::<String>()
}

#[test]
fn x1_eight_discs_each_and_thirty_nine_tiles() {
    let p = Position::new(&Options::default());
    assert_eq!(p.hand(Colour::First), 8);
    assert_eq!(p.hand(Colour::Second), 8);
    assert_eq!(p.supply() as usize + p.tiles().count(), 39);
    let nine = "0,0:2/111111111 1,0:1|tiles 37|hand 0/8|to-move red";
    let e = Position::from_line(&Options::default(), nine).expect_err("nine silver discs");
    assert!(e.why.contains("X1"), "{}", e.why);
    let hands = "0,0:2/11 1,0:1|tiles 37|hand 7/8|to-move red";
    assert!(Position::from_line(&Options::default(), hands).is_err());
}

#[test]
fn x2_outer_space_is_the_empty_border_of_the_world() {
    let p = Position::new(&Options::default());
    assert!(p.is_outer_space(Hex::new(-1, 0)));
    assert!(p.is_outer_space(Hex::new(2, -2)));
    assert!(
        !p.is_outer_space(Hex::new(0, 0)),
        "a tile is world, not outer space"
    );
    assert!(!p.is_outer_space(Hex::new(5, 5)));
    let far = "0,0:2 1,0:1 3,0:./1|tiles 37|hand 7/8|to-move red";
    let e = Position::from_line(&Options::default(), far).expect_err("stack touching no tile");
    assert!(e.why.contains("touches no tile"), "{}", e.why);
}

#[test]
fn x3_a_stack_belongs_to_its_top_disc() {
    // Silver's disc lies under red's: the stack is red's, silver has nothing to dance with.
    let p = pos("0,0:1/12 1,0:2/2 2,0:1|tiles 36|hand 7/6|to-move silver");
    let st = p.stack_at(Hex::new(0, 0)).expect("stack");
    assert_eq!(st.owner(), Colour::Second);
    assert_eq!(
        st.discs().collect::<Vec<_>>(),
        [Colour::First, Colour::Second]
    );
    assert_eq!(legal(&p), ["2,0"]);
    assert!(refusal(&p, "0,0-1,0").contains("X3"));
}

#[test]
fn x4_dances_go_in_all_six_directions() {
    let p = pos(
        "-1,0:1/2 -1,1:1/2 0,-1:1/2 0,0:2/1 0,1:1/2 1,-1:1/2 1,0:1/2\
         |tiles 32|hand 7/2|to-move silver",
    );
    let mut want = vec![
        "0,0--1,0", "0,0--1,1", "0,0-0,-1", "0,0-0,1", "0,0-1,-1", "0,0-1,0",
    ];
    want.sort();
    assert_eq!(legal(&p), want);
}

#[test]
fn x5_standard_setup_is_the_diamond() {
    let p = Position::new(&Options::default());
    assert_eq!(
        p.to_line(),
        "0,-1:1 0,0:2 1,-2:2 1,-1:1|tiles 35|hand 8/8|to-move silver"
    );
    assert_eq!(p.to_move(), Colour::First);
    assert_eq!(legal(&p), ["0,-1", "0,0", "1,-1", "1,-2"]);
}

#[test]
fn x6_shorter_games_have_smaller_supplies() {
    assert_eq!(Position::new(&opts(&["tiles=29"])).supply(), 25);
    assert_eq!(Position::new(&opts(&["TILES=19"])).supply(), 15);
    assert_eq!(
        Options::parse(&["tiles=20"]),
        Err(OptionError::Bad("tiles=20 (X6: 39, 29 or 19)".to_string()))
    );
    assert_eq!(
        Options::parse(&["colour"]),
        Err(OptionError::Unknown("colour".to_string()))
    );
    assert_eq!(
        opts(&["pie", "Expert", "tiles=19"]).words(),
        ["tiles=19", "expert", "pie"]
    );
    assert_eq!(Options::default().words(), ["tiles=39"]);
}

#[test]
fn x7_expert_setup_lays_six_tiles_alternately() {
    let o = opts(&["expert"]);
    let mut p = Position::new(&o);
    assert_eq!(p.to_line(), "|tiles 39|hand 8/8|to-move silver");
    assert_eq!(legal(&p), ["+0,0"]);
    assert!(refusal(&p, "+1,0").contains("X7"));
    play(&mut p, "+0,0");
    assert_eq!(p.to_move(), Colour::Second);
    assert_eq!(legal(&p).len(), 6);
    assert!(refusal(&p, "+2,0").contains("X7"), "not touching a tile");
    assert!(
        refusal(&p, "1,0").contains("X7"),
        "no discs during the setup"
    );
    for m in ["+1,0", "+-1,0", "+2,0", "+0,1", "+0,-1"] {
        play(&mut p, m);
    }
    assert!(!p.in_setup());
    assert_eq!(p.to_move(), Colour::First);
    assert_eq!(p.supply(), 33);
    assert_eq!(p.tile_at(Hex::new(0, 0)), Some(Colour::First));
    assert_eq!(p.tile_at(Hex::new(1, 0)), Some(Colour::Second));
    assert_eq!(p.tile_at(Hex::new(0, -1)), Some(Colour::Second));
    assert_eq!(legal(&p), ["-1,0", "0,-1", "0,0", "0,1", "1,0", "2,0"]);
    let back = Position::from_line(&o, &p.to_line()).expect("round trip");
    assert_eq!(back, p);
}

#[test]
fn x8_pie_red_may_swap_after_silvers_first_move() {
    let mut p = Position::new(&opts(&["pie"]));
    assert!(!legal(&p).contains(&"swap".to_string()));
    play(&mut p, "0,0");
    assert!(legal(&p).contains(&"swap".to_string()));
    play(&mut p, "swap");
    assert_eq!(p.to_move(), Colour::Second);
    assert!(p.to_line().ends_with("|to-move red|swapped"));
    assert!(refusal(&p, "swap").contains("X8"));
    let again = Position::from_line(&opts(&["pie"]), &p.to_line()).expect("round trip");
    assert_eq!(again, p);
    play(&mut p, "1,-1");
    assert!(!p.to_line().contains("swapped"));
    assert!(!legal(&p).contains(&"swap".to_string()));
    // Without the variant there is no swap.
    let mut q = Position::new(&Options::default());
    play(&mut q, "0,0");
    assert!(refusal(&q, "swap").contains("X8"));
    // Expert and pie: the swap answers silver's first disc after the setup.
    let mut e = Position::new(&opts(&["expert", "pie"]));
    for m in ["+0,0", "+1,0", "+-1,0", "+2,0", "+0,1", "+0,-1"] {
        assert!(!legal(&e).contains(&"swap".to_string()));
        play(&mut e, m);
    }
    play(&mut e, "0,0");
    assert!(legal(&e).contains(&"swap".to_string()));
}

#[test]
fn x9_handicap_setups_are_not_options() {
    assert!(matches!(
        Options::parse(&["handicap"]),
        Err(OptionError::Unknown(_))
    ));
}

#[test]
fn x10_a_dance_is_compulsory() {
    let p = pos("0,0:1/11 1,0:2/2 2,0:1|tiles 36|hand 6/7|to-move silver");
    assert_eq!(legal(&p), ["0,0-1,0"]);
    assert!(refusal(&p, "2,0").contains("X10"));
}

#[test]
fn x10_dances_into_outer_space_take_priority() {
    let line = "0,0:1/11 1,0:2/2 2,0:1 0,2:1/11 1,2:2/2|tiles 34|hand 4/6|to-move silver";
    let p = pos(line);
    assert_eq!(legal(&p), ["0,2-1,2"]);
    assert!(refusal(&p, "0,0-1,0").contains("X10"));
    // With a tile on 2,2 neither dance reaches outer space: both are legal.
    let p = pos(&format!("2,2:1 {line}").replace("tiles 34", "tiles 33"));
    assert_eq!(legal(&p), ["0,0-1,0", "0,2-1,2"]);
}

#[test]
fn x11_build_is_expand_or_place_at_will() {
    let p =
        pos("-1,0:./2 0,-1:1/12 0,0:2/2 1,-3:./1 1,-2:2 1,-1:1|tiles 35|hand 6/5|to-move silver");
    assert_eq!(legal(&p), ["+-1,0", "1,-1", "1,-2"]);
}

#[test]
fn x12_discs_drop_bottom_first_from_the_neighbour() {
    let mut p = pos("0,0:1/211 1,0:2/2 2,0:1 3,0:2 4,0:1|tiles 34|hand 6/6|to-move silver");
    assert_eq!(legal(&p), ["0,0-1,0"]);
    let mv = p.parse_move("0,0-1,0").expect("notation");
    assert_eq!(
        p.effects(&mv),
        [Hex::new(1, 0), Hex::new(2, 0), Hex::new(3, 0)]
    );
    play(&mut p, "0,0-1,0");
    assert_eq!(
        p.to_line(),
        canon("0,0:1 1,0:2/22 2,0:1/1 3,0:2/1 4,0:1|tiles 34|hand 6/6|to-move red")
    );
}

#[test]
fn x12_stacks_in_outer_space_do_not_dance() {
    // Silver's outer-space stack on 2,0 lines up with red's stack on 1,0 but may not dance.
    let p = pos("0,0:1 1,0:2/2 2,0:./11|tiles 37|hand 6/7|to-move silver");
    assert_eq!(legal(&p), ["0,0"]);
    assert!(refusal(&p, "2,0-1,0").contains("X12"));
}

#[test]
fn x13_an_own_stack_blocks_the_dance() {
    let blocked = "0,0:1/111 1,0:2/1 2,0:1/22 3,0:2 4,0:1|tiles 34|hand 4/6|to-move silver";
    let p = pos(blocked);
    assert_eq!(legal(&p), ["3,0", "4,0"]);
    let why = refusal(&p, "0,0-2,0");
    assert!(why.contains("blocks") && why.contains("X13"), "{why}");
    let free = pos("0,0:1/111 1,0:2 2,0:1/22 3,0:2 4,0:1|tiles 34|hand 5/6|to-move silver");
    assert_eq!(legal(&free), ["0,0-2,0"]);
}

#[test]
fn x13_a_gap_blocks_the_dance() {
    let p = pos("0,0:1/11 2,0:1/2 3,0:2|tiles 36|hand 6/7|to-move silver");
    assert_eq!(legal(&p), ["3,0"]);
    let why = refusal(&p, "0,0-2,0");
    assert!(why.contains("no tile") && why.contains("X13"), "{why}");
}

#[test]
fn x13_target_no_taller_and_within_reach() {
    let taller = pos("0,0:1/1 1,0:2/22 2,0:1|tiles 36|hand 7/6|to-move silver");
    assert_eq!(legal(&taller), ["2,0"]);
    assert!(refusal(&taller, "0,0-1,0").contains("X13"));
    let far = "0,0:1/11 1,0:2 2,0:1 3,0:2/2 4,0:1|tiles 34|hand 6/7|to-move silver";
    assert_eq!(legal(&pos(far)), ["1,0", "2,0", "4,0"]);
    let near = "0,0:1/11 1,0:2 2,0:1/2 3,0:2 4,0:1|tiles 34|hand 6/7|to-move silver";
    let mut p = pos(near);
    assert_eq!(legal(&p), ["0,0-2,0"]);
    play(&mut p, "0,0-2,0");
    assert_eq!(
        p.to_line(),
        canon("0,0:1 1,0:2/1 2,0:1/21 3,0:2 4,0:1|tiles 34|hand 6/7|to-move red")
    );
}

#[test]
fn x13_discs_beyond_the_target_land_on_occupied_tiles() {
    let mut p = pos("0,0:1/111 1,0:2/2 2,0:1/2 3,0:2 4,0:1|tiles 34|hand 5/6|to-move silver");
    assert_eq!(legal(&p), ["0,0-1,0"]);
    play(&mut p, "0,0-1,0");
    assert_eq!(
        p.to_line(),
        canon("0,0:1 1,0:2/21 2,0:1/21 3,0:2/1 4,0:1|tiles 34|hand 5/6|to-move red")
    );
}

#[test]
fn x14_remaining_discs_fall_into_outer_space_as_one_stack() {
    let mut p = pos("0,0:1/211 1,0:2/2|tiles 37|hand 6/6|to-move silver");
    assert_eq!(legal(&p), ["0,0-1,0"]);
    play(&mut p, "0,0-1,0");
    assert_eq!(
        p.to_line(),
        canon("0,0:1 1,0:2/22 2,0:./11|tiles 37|hand 6/6|to-move red")
    );
}

#[test]
fn x14_outer_space_cell_must_be_empty() {
    let p = pos("0,0:1/211 1,0:2/2 2,0:./2|tiles 37|hand 6/5|to-move silver");
    assert_eq!(legal(&p), ["pass"]);
    let why = refusal(&p, "0,0-1,0");
    assert!(why.contains("X14"), "{why}");
}

#[test]
fn x15_dances_remove_no_disc_and_covered_stacks_change_owner() {
    let mut p = pos("0,0:1/11 1,0:2/2 2,0:1/22|tiles 36|hand 6/5|to-move silver");
    play(&mut p, "0,0-1,0");
    let count = |p: &Position, c: Colour| -> u32 {
        p.stacks().map(|(_, s)| s.count(c)).sum::<u32>() + p.hand(c)
    };
    assert_eq!(count(&p, Colour::First), 8);
    assert_eq!(count(&p, Colour::Second), 8);
    let covered = p.stack_at(Hex::new(2, 0)).expect("stack");
    assert_eq!(covered.owner(), Colour::First);
    assert_eq!(covered.height(), 3);
}

/// Outer-space stacks on 1,-1 (touching two tiles), 0,-1 and 2,-1 (one tile each until
/// 1,-1 becomes a tile).
const CHAIN: &str = "0,0:1 1,0:2 1,-1:./2 0,-1:./1 2,-1:./12";

#[test]
fn x16_expansion_chains_and_returns_discs() {
    let mut p = pos(&format!("{CHAIN}|tiles 37|hand 6/6|to-move silver"));
    assert_eq!(legal(&p), ["+1,-1", "0,0", "1,0"]);
    let why = refusal(&p, "+0,-1");
    assert!(why.contains("X16"), "{why}");
    let mv = p.parse_move("+1,-1").expect("notation");
    assert_eq!(
        p.effects(&mv),
        [Hex::new(1, -1), Hex::new(0, -1), Hex::new(2, -1)]
    );
    play(&mut p, "+1,-1");
    assert_eq!(
        p.to_line(),
        canon("0,0:1 1,0:2 1,-1:1 0,-1:1 2,-1:1|tiles 34|hand 8/8|to-move red")
    );
}

#[test]
fn x16_chain_stops_when_the_supply_runs_out() {
    // 37 tiles lie already: the supply of 2 runs out after 1,-1 and its W neighbour 0,-1.
    let line = format!("{CHAIN}{}|tiles 2|hand 6/6|to-move silver", filler(35));
    let mut p = pos(&line);
    play(&mut p, "+1,-1");
    assert_eq!(p.supply(), 0);
    assert_eq!(p.tile_at(Hex::new(0, -1)), Some(Colour::First));
    assert_eq!(p.tile_at(Hex::new(2, -1)), None);
    assert_eq!(p.stack_at(Hex::new(2, -1)).map(|s| s.height()), Some(2));
    assert_eq!(p.hand(Colour::First), 7);
    assert_eq!(p.hand(Colour::Second), 7);
    // X19: the game ends at once; the turn still passes.
    let o = p.outcome().expect("over");
    assert_eq!(o.reason, Reason::Score);
    assert_eq!(p.to_move(), Colour::Second);
    assert!(legal(&p).is_empty());
}

#[test]
fn x17_discs_go_on_empty_tiles_only() {
    let p = Position::new(&Options::default());
    assert_eq!(
        refusal(&p, "5,5"),
        "5,5 is not an empty tile of the world (X17)"
    );
    assert!(refusal(&p, "-1,0").contains("X17"), "outer space");
    let q = pos("0,0:2/1 1,0:1|tiles 37|hand 7/8|to-move red");
    assert!(refusal(&q, "0,0").contains("X17"), "occupied");
    let empty_hand = pos("0,0:2/11111111 2,0:1|tiles 37|hand 0/8|to-move silver");
    assert!(refusal(&empty_hand, "2,0").contains("X17"));
}

#[test]
fn x18_pass_only_when_nothing_else_is_possible() {
    let mut p = pos("0,0:1/11111111 1,0:2|tiles 37|hand 0/8|to-move silver");
    assert_eq!(legal(&p), ["pass"]);
    play(&mut p, "pass");
    assert_eq!(
        p.to_line(),
        "0,0:1/11111111 1,0:2|tiles 37|hand 0/8|to-move red|passes 1"
    );
    assert!(refusal(&p, "pass").contains("X18"));
    play(&mut p, "1,0");
    assert!(!p.to_line().contains("passes"));
}

#[test]
fn x19_two_passes_end_the_game_and_equal_scores_draw() {
    let mut p = pos("0,0:1/11111111 2,0:2/22222222|tiles 37|hand 0/0|to-move silver");
    play(&mut p, "pass");
    assert!(p.outcome().is_none());
    play(&mut p, "pass");
    let o = p.outcome().expect("over");
    assert_eq!(o.reason, Reason::Passes);
    assert_eq!(o.winner, None);
    assert_eq!(o.score, Some([2, 2]));
    assert_eq!(p.to_move(), Colour::First);
    // The line marks only that the last move was a pass (protocol: `|passes 1`).
    assert!(
        p.to_line().ends_with("|to-move silver|passes 1"),
        "{}",
        p.to_line()
    );
}

#[test]
fn x19_a_forced_cycle_ends_by_repetition() {
    // A column of four tiles; red has no disc in hand, red's six others stand in outer space
    // on 3,-4 (touching one tile). Every move is forced and the position comes back every
    // eight plies: red dances, silver dances, red passes, silver dances, red dances, silver
    // dances, red passes, silver dances.
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
    let mut p = pos(start);
    for round in 0..2 {
        for (k, m) in cycle.iter().enumerate() {
            assert!(
                p.outcome().is_none(),
                "over too early: round {round}, move {k}"
            );
            assert_eq!(legal(&p), [*m], "round {round}, move {k}: forced");
            play(&mut p, m);
        }
        assert_eq!(p.to_line(), canon(start), "back after round {round}");
    }
    // The start position has now occurred for the third time.
    let o = p.outcome().expect("over by repetition");
    assert_eq!(o.reason, Reason::Repetition);
    assert_eq!(o.score, Some([3, 3]));
    assert_eq!(o.winner, None);
    assert!(legal(&p).is_empty());
}

#[test]
fn x20_largest_island_counts_double() {
    let p = pos("0,0:1 1,0:1 2,0:1 0,2:1 1,2:1 5,5:2|tiles 33|hand 8/8|to-move silver");
    assert_eq!(p.score(), [3 * 2 + 2, 2]);
    let start = Position::new(&Options::default());
    // Two single silver tiles touch each other: one island of 2 (4 points); reds are apart.
    assert_eq!(start.score(), [4, 3]);
}

#[test]
fn notation_is_tolerant_and_canonical() {
    let p = Position::new(&Options::default());
    let cases = [
        ("+ -1 , 0", "+-1,0"),
        ("0,-1-1,-2", "0,-1-1,-2"),
        ("-1,0--2,1", "-1,0--2,1"),
        (" 1 , 0 - 3 , -2 ", "1,0-3,-2"),
        ("PASS", "pass"),
        ("Swap", "swap"),
        ("0,1", "0,1"),
    ];
    for (text, want) in cases {
        assert_eq!(p.parse_move(text).expect(text).to_string(), want);
    }
    for bad in ["", "1", "1,", "a,b", "1,2-", "+1,2,3", "1,2x", "99999,1"] {
        assert!(p.parse_move(bad).is_err(), "{bad}");
    }
}

#[test]
fn position_lines_reject_what_the_rules_cannot_hold() {
    let o = Options::default();
    for (line, why) in [
        ("0,0:1 1,0:2|tiles 36|hand 8/8|to-move red", "supply"),
        ("0,0:1 1,0:2|tiles 37|hand 8/8", "to-move"),
        ("0,0:1 1,0:3|tiles 37|hand 8/8|to-move red", "tile"),
        ("0,0:1 0,0:2|tiles 37|hand 8/8|to-move red", "twice"),
        ("0,0:1 1,0:./|tiles 38|hand 8/8|to-move red", "stack"),
        ("0,0:1/13 1,0:2|tiles 37|hand 8/8|to-move red", "discs"),
        ("0,0:1 1,0:2|tiles 37|hand 8/8|to-move red|swapped", "pie"),
        ("0,0:1 90,0:2|tiles 37|hand 8/8|to-move red", "far"),
        (
            "0,0:1/1 1,0:2/1 2,0:1/1 3,0:2/1 4,0:1/1 5,0:2/1 6,0:1/1 7,0:2/1 8,0:1/1 9,0:2/1\
             |tiles 29|hand 0/8|to-move red",
            "X1",
        ),
    ] {
        let e = Position::from_line(&o, line).expect_err(line);
        assert!(e.why.contains(why), "{line}: {}", e.why);
    }
}

#[test]
fn diagram_shows_tiles_stacks_and_hands() {
    let p =
        pos("-1,0:./2 0,-1:1/12 0,0:2/2 1,-3:./1 1,-2:2 1,-1:1|tiles 35|hand 6/5|to-move silver");
    let d = p.diagram();
    assert!(d.contains("stack 0,-1: sr"), "{d}");
    assert!(d.contains("supply 35"), "{d}");
    assert!(d.contains("silver to move"), "{d}");
    // The second line says what the letters mean.
    let legend = d.lines().nth(1).unwrap_or_default();
    assert!(legend.starts_with("legend: s/r silver/red tile"), "{d}");
}

#[test]
fn perft_counts_sequences_and_distinct_positions() {
    let p = Position::new(&Options::default());
    assert_eq!(p.perft(1), 4);
    assert_eq!(p.perft(4), 34);
    // 4 silver discs, then red answers on the 3 other tiles: 12 sequences, all distinct.
    assert_eq!(p.perft(2), 12);
    assert_eq!(p.distinct_successors(2), 12);
    assert!(p.distinct_successors(4) <= 34);
}

#[test]
fn random_moves_are_uniform_over_the_legal_moves() {
    use rand::SeedableRng;
    let mut rng = rand::rngs::SmallRng::seed_from_u64(3);
    let mut buf = MoveList::new();
    for line in [
        "-1,0:./2 0,-1:1/12 0,0:2/2 1,-3:./1 1,-2:2 1,-1:1|tiles 35|hand 6/5|to-move silver",
        "0,0:1/11 1,0:2/2 2,0:1 0,2:1/11 1,2:2/2 2,2:1|tiles 33|hand 4/6|to-move silver",
        "0,-1:1 0,0:2/1 1,-2:2 1,-1:1|tiles 35|hand 7/8|to-move red",
    ] {
        let p = Position::from_line(&opts(&["pie"]), line).expect("position");
        let want = legal(&p);
        let mut counts = std::collections::BTreeMap::new();
        for _ in 0..4000 {
            let m = p.random_move(&mut rng, &mut buf).expect("a move");
            *counts.entry(m.to_string()).or_insert(0u32) += 1;
        }
        assert_eq!(counts.keys().cloned().collect::<Vec<_>>(), want, "{line}");
        let fair = 4000 / want.len() as u32;
        for (m, n) in counts {
            assert!(
                n > fair * 3 / 4 && n < fair * 5 / 4,
                "{m}: {n} of 4000 in {line}"
            );
        }
    }
}

#[test]
fn clone_from_and_the_stack_index_follow_every_move() {
    use rand::SeedableRng;
    let mut rng = rand::rngs::SmallRng::seed_from_u64(11);
    let mut buf = MoveList::new();
    // A scratch position reused across many positions of random games: after `clone_from`
    // every cell, list and counter equals the source's, whatever the scratch held before.
    let mut scratch = Position::new(&opts(&["expert"]));
    for game in 0..60 {
        let o = if game % 3 == 0 {
            opts(&["expert", "pie"])
        } else {
            opts(&[])
        };
        let mut p = Position::new(&o);
        while let Some(m) = p.random_move(&mut rng, &mut buf) {
            p.play(&m);
            assert!(p.stack_index_ok(), "stack index after {m}: {}", p.to_line());
            let reread = Position::from_line(&o, &p.to_line()).expect("own line");
            assert!(reread.stack_index_ok(), "stack index of {}", p.to_line());
            scratch.clone_from(&p);
            assert!(scratch.cells == p.cells, "cells differ after {m}");
            assert_eq!(scratch, p);
            assert_eq!(scratch.history, p.history);
            let seen = p.history.iter().fold(0u64, |m, k| m | 1 << (k >> 58));
            assert_eq!((scratch.seen, p.seen), (seen, seen));
            assert_eq!(scratch.to_line(), p.to_line());
            assert_eq!(scratch.empty, p.empty);
            assert_eq!(scratch.hash, p.hash);
        }
    }
}

#[test]
fn random_plies_play_the_moves_random_move_draws() {
    use rand::SeedableRng;
    let mut buf = MoveList::new();
    for (seed, words, n) in [
        (1u64, &[][..], 16u32),
        (2, &["expert", "pie"][..], 16),
        (3, &["pie"][..], 400),
        (4, &["tiles=19"][..], 7),
    ] {
        let o = opts(words);
        let mut slow = Position::new(&o);
        let mut fast = Position::new(&o);
        // Several rounds from the same two positions, each side with its own equal generator.
        let mut a = rand::rngs::SmallRng::seed_from_u64(seed);
        let mut b = rand::rngs::SmallRng::seed_from_u64(seed);
        for _ in 0..6 {
            let mut played = 0;
            while played < n {
                let Some(m) = slow.random_move(&mut a, &mut buf) else {
                    break;
                };
                slow.play(&m);
                played += 1;
            }
            fast.random_plies(&mut b, n, &mut buf);
            assert_eq!(fast, slow, "seed {seed}");
            assert_eq!(fast.history, slow.history, "seed {seed}");
            assert_eq!(fast.to_line(), slow.to_line());
        }
        // 6 × 400 plies reach the end: `random_plies` stops there as `random_move` does.
        if n >= 400 {
            assert!(slow.is_over() && fast.is_over(), "seed {seed}");
        }
    }
}

#[test]
fn playouts_on_every_processor_path_play_the_same_games() {
    use rand::SeedableRng;
    // `playout` takes a path compiled for AVX2 where the processor has it: the same games as
    // the baseline path (and, on other processors, the baseline twice).
    let mut buf = MoveList::new();
    for o in [opts(&[]), opts(&["expert", "pie"]), opts(&["tiles=19"])] {
        for seed in 0..200 {
            let mut a = Position::new(&o);
            let mut b = Position::new(&o);
            let got = a.playout(&mut rand::rngs::SmallRng::seed_from_u64(seed), &mut buf);
            let want = b.playout_inline::<false, _>(
                &mut rand::rngs::SmallRng::seed_from_u64(seed),
                &mut buf,
            );
            assert_eq!(got, want, "seed {seed}");
            assert_eq!(a, b, "seed {seed}");
            assert_eq!(a.to_line(), b.to_line(), "seed {seed}");
        }
    }
}
