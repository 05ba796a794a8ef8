//! The slow reference rules (tests/reference/) checked against the protocol transcripts, the perft
//! data files and a few hand-made positions, rule by rule.

mod reference;

use reference::{check_transcript, exxit, inphexion};

#[test]
fn reference_reproduces_transcripts() {
    for name in ["inphexion", "exxit"] {
        let path = format!(
            "{}/tests/data/protocol/{name}.txt",
            env!("CARGO_MANIFEST_DIR")
        );
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
        let n = check_transcript(name, &text);
        assert!(n > 20, "{path}: only {n} exchanges");
    }
}

/// Reads a data file of perft lines `VARIANT | DEPTH | COUNT [| DISTINCT]`; fails clearly when
/// the file is absent.
fn perft_lines(name: &str) -> Vec<(String, u32, u64, Option<usize>)> {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("the perft data file {path} is missing or unreadable: {e}"));
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let parts: Vec<&str> = line.split('|').map(str::trim).collect();
        assert!(
            parts.len() == 3 || parts.len() == 4,
            "{path}:{}: expected `VARIANT | DEPTH | COUNT [| DISTINCT]`",
            i + 1
        );
        let depth = parts[1]
            .parse()
            .unwrap_or_else(|_| panic!("{path}:{}: depth", i + 1));
        let count = parts[2]
            .parse()
            .unwrap_or_else(|_| panic!("{path}:{}: count", i + 1));
        let distinct = parts.get(3).map(|d| {
            d.parse()
                .unwrap_or_else(|_| panic!("{path}:{}: distinct", i + 1))
        });
        out.push((parts[0].to_string(), depth, count, distinct));
    }
    assert!(!out.is_empty(), "{path} holds no perft line");
    out
}

#[test]
fn reference_matches_perft_files() {
    for (variant, depth, count, distinct) in perft_lines("inphexion_perft.txt") {
        let r = inphexion::Ref::new(&variant).unwrap_or_else(|e| panic!("{variant}: {e}"));
        assert_eq!(r.perft(depth), count, "{variant} perft {depth}");
        assert_eq!(
            distinct, None,
            "{variant}: inpHeXion lines have no DISTINCT column"
        );
    }
    for (variant, depth, count, distinct) in perft_lines("exxit_perft.txt") {
        let r = exxit::Ref::new(&variant).unwrap_or_else(|e| panic!("{variant}: {e}"));
        assert_eq!(r.perft(depth), count, "{variant} perft {depth}");
        let d = distinct.unwrap_or_else(|| panic!("{variant} {depth}: DISTINCT missing"));
        assert_eq!(r.distinct(depth), d, "{variant} distinct {depth}");
    }
}

fn inphexion_at(variant: &str, line: &str) -> inphexion::Ref {
    inphexion::Ref::from_position(variant, line).unwrap_or_else(|e| panic!("{line}: {e}"))
}

fn exxit_at(variant: &str, line: &str) -> exxit::Ref {
    exxit::Ref::from_position(variant, line).unwrap_or_else(|e| panic!("{line}: {e}"))
}

#[test]
fn i2_i6_neighbours_of_corners_edges_and_inside() {
    // Depth 2 on an empty board counts the empty neighbours of every first disc: corners a1
    // and d4 have 2, corners d1 and a4 have 3, the 8 other edge cells 4, the 4 inner cells 6.
    let r = inphexion::Ref::new("inphexion size=4").unwrap();
    assert_eq!(r.perft(2), 2 + 2 + 3 + 3 + 8 * 4 + 4 * 6);
}

#[test]
fn i7_swap_uses_up_blacks_first_turn() {
    let mut r = inphexion::Ref::new("inphexion size=5 pie free-reply").unwrap();
    r.play("d5").unwrap();
    assert!(r.legal().contains(&"swap".to_string()));
    r.play("swap").unwrap();
    assert_eq!(
        r.position_line(),
        "...../...../...../...../...w.|to-move black|hand 12/13|swapped"
    );
    assert_eq!(r.legal(), ["d5-c5", "d5-d4", "d5-e4", "d5-e5"]);
}

#[test]
fn i8_free_reply_places_on_any_empty_cell() {
    let mut r = inphexion::Ref::new("inphexion size=5 free-reply").unwrap();
    r.play("c3").unwrap();
    let legal = r.legal();
    assert_eq!(legal.len(), 24 + 6);
    assert!(legal.contains(&"a1".to_string()) && !legal.contains(&"c3".to_string()));
    r.play("a1").unwrap();
    assert_eq!(
        r.position_line(),
        "b..../...../..w../...../.....|to-move white|hand 12/12"
    );
}

#[test]
fn i10_newly_surrounded_disc_goes_to_any_other_empty_cell() {
    // White moves the black a2 into the corner a1, places on a2: a1 is surrounded by b1 and a2.
    let r = inphexion_at(
        "inphexion size=4",
        ".w../b.../..../....|to-move white|hand 7/7",
    );
    let legal = r.legal();
    let with: Vec<&String> = legal.iter().filter(|m| m.starts_with("a2-a1")).collect();
    assert_eq!(with.len(), 16 - 3);
    assert!(with
        .iter()
        .all(|m| m.starts_with("a2-a1 a1>") && !m.ends_with(">a1")));
    let mut r = r;
    r.play("a2-a1 a1>d4").unwrap();
    assert_eq!(
        r.position_line(),
        ".w../w.../..../...b|to-move black|hand 6/7"
    );
}

#[test]
fn i10_discs_surrounded_before_the_move_stay() {
    // a1 (black) is already surrounded by white; no white move relocates it.
    let r = inphexion_at(
        "inphexion size=4",
        "bw../w.../..b./....|to-move white|hand 6/6",
    );
    let legal = r.legal();
    assert_eq!(legal.len(), 6);
    assert!(legal.iter().all(|m| !m.contains('>')), "{legal:?}");
}

#[test]
fn i15_neutral_disc_is_everyones_opponent_disc() {
    let mut r = inphexion::Ref::new("inphexion size=5 neutral").unwrap();
    assert_eq!(
        r.legal(),
        ["c3-b3", "c3-b4", "c3-c2", "c3-c4", "c3-d2", "c3-d3"]
    );
    r.play("c3-c4").unwrap();
    assert_eq!(
        r.position_line(),
        "...../...../..w../..n../.....|to-move black|hand 11/12"
    );
    assert!(r.legal().contains(&"c4-b5".to_string()));
}

#[test]
fn i17_completing_the_opponents_chain_loses() {
    let mut r = inphexion_at(
        "inphexion size=4",
        "bw.b/.w.b/.w../..w.|to-move black|hand 4/5",
    );
    assert_eq!(r.status(), "to-move black");
    r.play("c4-b4").unwrap();
    assert_eq!(
        r.position_line(),
        "bw.b/.w.b/.w../.wb.|to-move white|hand 4/4"
    );
    assert_eq!(r.status(), "over white wins: connection");
    assert!(r.legal().is_empty());
}

#[test]
fn i1_i15_bad_options_are_refused() {
    assert!(inphexion::Ref::new("inphexion size=3")
        .unwrap_err()
        .starts_with("bad option:"));
    assert!(inphexion::Ref::new("inphexion size=12")
        .unwrap_err()
        .starts_with("bad option:"));
    assert!(inphexion::Ref::new("inphexion size=6 neutral")
        .unwrap_err()
        .starts_with("bad option:"));
    assert!(inphexion::Ref::new("inphexion bogus")
        .unwrap_err()
        .starts_with("unknown option:"));
}

#[test]
fn x8_red_may_swap_after_silvers_first_move_only() {
    let mut r = exxit::Ref::new("exxit tiles=39 pie").unwrap();
    assert!(!r.legal().contains(&"swap".to_string()));
    r.play("0,0").unwrap();
    assert_eq!(r.legal(), ["0,-1", "1,-1", "1,-2", "swap"]);
    r.play("swap").unwrap();
    assert_eq!(
        r.position_line(),
        "0,-1:1 0,0:2/1 1,-2:2 1,-1:1|tiles 35|hand 7/8|to-move red|swapped"
    );
    assert_eq!(r.legal(), ["0,-1", "1,-1", "1,-2"]);
}

#[test]
fn x7_expert_setup_puts_six_tiles_then_silver_plays() {
    let mut r = exxit::Ref::new("exxit tiles=19 expert").unwrap();
    assert_eq!(r.position_line(), "|tiles 19|hand 8/8|to-move silver");
    assert_eq!(r.legal(), ["+0,0"]);
    for m in ["+0,0", "+1,0", "+2,0", "+3,0", "+4,0", "+5,0"] {
        r.play(m).unwrap();
    }
    assert_eq!(
        r.position_line(),
        "0,0:1 1,0:2 2,0:1 3,0:2 4,0:1 5,0:2|tiles 13|hand 8/8|to-move silver"
    );
    assert_eq!(r.legal(), ["0,0", "1,0", "2,0", "3,0", "4,0", "5,0"]);
}

#[test]
fn x14_outer_space_cell_must_be_empty() {
    let v = "exxit tiles=39";
    let free = exxit_at(
        v,
        "0,-1:1/11 0,0:2 1,-2:2 1,-1:1/2|tiles 35|hand 6/7|to-move silver",
    );
    assert_eq!(free.legal(), ["0,-1-1,-1"]);
    let mut after = free.clone();
    after.play("0,-1-1,-1").unwrap();
    assert_eq!(
        after.position_line(),
        "0,-1:1 0,0:2 1,-2:2 1,-1:1/21 2,-1:./1|tiles 35|hand 6/7|to-move red"
    );
    let blocked = exxit_at(
        v,
        "0,-1:1/11 0,0:2 1,-2:2 1,-1:1/2 2,-1:./2|tiles 35|hand 6/6|to-move silver",
    );
    assert_eq!(blocked.legal(), ["0,0", "1,-2"]);
}

#[test]
fn x16_expansion_chain_converts_stacks_that_now_touch_two_tiles() {
    let mut r = exxit_at(
        "exxit tiles=39",
        "-1,0:./2 -1,1:./1 0,-1:1 0,0:2 1,-2:2 1,-1:1|tiles 35|hand 7/7|to-move silver",
    );
    assert_eq!(r.legal(), ["+-1,0", "0,-1", "0,0", "1,-1", "1,-2"]);
    r.play("+-1,0").unwrap();
    assert_eq!(
        r.position_line(),
        "-1,0:1 -1,1:1 0,-1:1 0,0:2 1,-2:2 1,-1:1|tiles 33|hand 8/8|to-move red"
    );
}

#[test]
fn x18_x19_x20_two_passes_end_the_game_by_score() {
    let mut r = exxit_at(
        "exxit tiles=39",
        "-1,-1:./22222222 0,-1:1 0,0:2 1,-2:2 1,-1:1 2,-1:./11111111|tiles 35|hand 0/0|to-move silver",
    );
    assert_eq!(r.legal(), ["pass"]);
    r.play("pass").unwrap();
    assert!(r.position_line().ends_with("|to-move red|passes 1"));
    assert_eq!(r.status(), "to-move red");
    r.play("pass").unwrap();
    // Silver: one island of 2 (4 points); red: two islands of 1 (2 + 1).
    assert_eq!(r.status(), "over silver wins: score 4-3 (passes)");
    assert!(r.legal().is_empty());
}

#[test]
fn x20_largest_island_counts_double() {
    let mut cells = Vec::new();
    for q in 0..10 {
        cells.push(format!("{q},0:1"));
    }
    for q in (0..4).chain(5..10) {
        cells.push(format!("{q},2:2"));
    }
    cells.sort_by_key(|c| {
        let (q, rest) = c.split_once(',').unwrap_or(("0", "0"));
        (q.parse::<i32>().unwrap_or(0), rest.to_string())
    });
    let line = format!("{}|tiles 0|hand 8/8|to-move red", cells.join(" "));
    let r = exxit_at("exxit tiles=19", &line);
    assert_eq!(r.status(), "over silver wins: score 20-14");
}

#[test]
fn i14_too_few_destinations_lose_and_the_discs_stay() {
    // White's b2-a2 surrounds the black discs on a2 (moved) and c1 (b2 turned white); one
    // empty cell (b4) is left for two discs.
    let mut r = inphexion_at(
        "inphexion size=4",
        "wwbw/.bww/wwbb/b.bb|to-move white|hand 1/1",
    );
    assert!(r.legal().contains(&"b2-a2".to_string()));
    r.play("b2-a2").unwrap();
    assert_eq!(
        r.position_line(),
        "wwbw/bwww/wwbb/b.bb|to-move black|hand 0/1"
    );
    assert_eq!(r.status(), "over black wins: relocation impossible");
}
