use super::*;
use crate::games::Options;
use crate::i18n::Lang;

fn game(options: &str, position: &str) -> Game {
    Game::from_position(Options::parse_line(options).unwrap(), position).unwrap()
}

fn inphexion_budget() -> Budget {
    Budget::playouts(300)
}

#[test]
fn a_winning_move_is_given_as_the_win() {
    let g = game(
        "inphexion size=5",
        "..w../b.w../..b../..w.b/..wb.|to-move white|hand 9/9",
    );
    let h = hint(&g, inphexion_budget(), 1).unwrap();
    assert_eq!(h.why, Why::Wins);
    let mut after = g.clone();
    after.play(h.mv).unwrap();
    assert_eq!(after.outcome().unwrap().winner, Some(Colour::First));
}

#[test]
fn a_threat_to_connect_is_named_and_the_hint_stops_it() {
    // Black connects a3–e3 by pushing the white disc on c3 and taking its place.
    let g = game(
        "inphexion size=5",
        "ww..b/...../bbwbb/...../b.www|to-move white|hand 7/7",
    );
    for seed in 0..4 {
        let h = hint(&g, inphexion_budget(), seed).unwrap();
        assert_eq!(
            h.threat,
            Some(Threat::Connects {
                cells: vec!["c3".to_string()]
            })
        );
        assert_eq!(h.why, Why::Stops, "{}", h.mv);
        // Whatever Black answers, Black does not win at once.
        let mut after = g.clone();
        after.play(h.mv).unwrap();
        for reply in after.legal_moves() {
            let mut t = after.clone();
            t.play(reply).unwrap();
            assert_ne!(
                t.outcome().and_then(|o| o.winner),
                Some(Colour::Second),
                "{reply}"
            );
        }
    }
}

#[test]
fn chains_lacking_cells_are_counted_through_any_cell_not_ones_own() {
    let empty = game(
        "inphexion size=5",
        "...../...../...../...../.....|to-move white|hand 13/13",
    );
    assert_eq!(lacking(empty.position(), Colour::First), 5);
    assert_eq!(lacking(empty.position(), Colour::Second), 5);
    // White's column c1–c4 lacks only c5; Black's row 3 must go through c3 (one cell it lacks
    // there, the white disc to push) and four more.
    let column = game(
        "inphexion size=5",
        "..w../..w../..w../..w../b.bbb|to-move white|hand 9/9",
    );
    assert_eq!(lacking(column.position(), Colour::First), 1);
    assert_eq!(lacking(column.position(), Colour::Second), 1);
}

#[test]
fn a_quiet_move_says_how_close_each_chain_is() {
    let g = game(
        "inphexion size=5",
        "...../...../..w../...../.....|to-move black|hand 12/13",
    );
    let h = hint(&g, inphexion_budget(), 3).unwrap();
    assert_eq!(h.threat, None);
    let Why::Closer { mine, theirs } = h.why else {
        panic!("{:?}", h.why);
    };
    let mut after = g.position().clone();
    after.play(&h.mv).unwrap();
    assert_eq!(mine, lacking(&after, Colour::Second));
    assert_eq!(theirs, lacking(&after, Colour::First));
    assert!(mine <= 4 && theirs <= 5, "{mine} {theirs}");
}

#[test]
fn exxit_hints_name_the_dance_the_tiles_and_the_score() {
    // A dance is compulsory: the only legal move.
    let dance = game(
        "exxit tiles=19",
        "0,-1:1 0,0:2/1 1,-2:2 1,-1:1/2|tiles 15|hand 7/7|to-move silver",
    );
    let h = hint(&dance, Budget::nodes(2_000), 1).unwrap();
    assert!(
        matches!(h.mv, Move::Exxit(exxit::Move::Dance { .. })),
        "{}",
        h.mv
    );
    assert!(
        matches!(h.why, Why::Only | Why::Dance { .. }),
        "{:?}",
        h.why
    );
    // Red lays a tile: the score before and after, red's first (red's two tiles apart score
    // 2 + 1, silver's joined pair 4).
    let tile = game(
        "exxit tiles=19",
        "0,-1:1 0,0:2 1,-2:2 1,-1:1/122 1,0:./1|tiles 15|hand 6/6|to-move red",
    );
    let h = hint(&tile, Budget::nodes(2_000), 1).unwrap();
    if let Why::Tiles {
        laid,
        before,
        after,
    } = &h.why
    {
        assert!(*laid >= 1);
        assert_eq!(*before, [3, 4]);
        assert!(after[0] > before[0], "{after:?}");
    } else {
        assert!(
            matches!(h.why, Why::Builds { .. } | Why::Dance { .. }),
            "{:?}",
            h.why
        );
    }
}

#[test]
fn hints_read_in_both_languages() {
    let g = game(
        "inphexion size=5",
        "ww..b/...../bbwbb/...../b.www|to-move white|hand 7/7",
    );
    let h = hint(&g, inphexion_budget(), 1).unwrap();
    for lang in [Lang::EN, Lang::of("ja")] {
        let words = h.text(&g).render(lang);
        assert!(words.contains(&h.mv.to_string()), "{words}");
        assert!(words.contains("c3"), "{words}");
        assert!(!words.contains("coach-"), "{words}");
    }
}
