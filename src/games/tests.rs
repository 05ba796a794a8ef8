//! The protocol texts of outcomes, rule numbers in errors, game names.
use super::*;

#[test]
fn every_outcome_text_reads_back_as_the_same_outcome() {
    let reasons = [
        Reason::Connection,
        Reason::NoLegalMove,
        Reason::RelocationImpossible,
        Reason::Resignation,
        Reason::Timeout,
    ];
    for kind in [GameKind::Inphexion, GameKind::Exxit] {
        for c in Colour::BOTH {
            for r in reasons {
                let o = Outcome::win(c, r);
                assert_eq!(Outcome::parse(kind, &o.describe(kind)), Some(o));
            }
        }
        for r in [Reason::Score, Reason::Passes, Reason::Repetition] {
            for score in [[0, 0], [25, 34], [34, 25], [20, 20], [u32::MAX, 7]] {
                let o = Outcome::by_score(r, score);
                assert_eq!(Outcome::parse(kind, &o.describe(kind)), Some(o), "{o:?}");
            }
        }
        let off = Outcome::called_off();
        assert_eq!(off.describe(kind), "no result: called off");
        assert_eq!(Outcome::parse(kind, &off.describe(kind)), Some(off));
    }
    // Anything else is not an outcome: a colour of the other game, unknown words, bad scores.
    for text in [
        "white wins: connection x",
        "black wins: connection",
        "draw",
        "silver wins: score 3-",
        "silver wins: score 3-4 (again)",
        "silver wins: score -3-4",
        "aborted by mod",
        "",
    ] {
        assert_eq!(Outcome::parse(GameKind::Exxit, text), None, "{text}");
    }
}

#[test]
fn outcome_texts_follow_the_protocol() {
    let k = GameKind::Exxit;
    assert_eq!(
        Outcome::by_score(Reason::Score, [25, 34]).describe(k),
        "red wins: score 34-25"
    );
    assert_eq!(
        Outcome::by_score(Reason::Score, [20, 20]).describe(k),
        "draw: score 20-20"
    );
    assert_eq!(
        Outcome::by_score(Reason::Repetition, [28, 30]).describe(k),
        "red wins: score 30-28 (repetition)"
    );
    assert_eq!(
        Outcome::win(Colour::First, Reason::Resignation).describe(k),
        "silver wins: resignation"
    );
    assert_eq!(
        Outcome::win(Colour::Second, Reason::NoLegalMove).describe(GameKind::Inphexion),
        "black wins: no legal move"
    );
}

#[test]
fn illegal_moves_name_their_rule() {
    let mut game = Game::new(Options::default_for(GameKind::Exxit));
    let e = game.play_text("5,5").expect_err("illegal");
    assert_eq!(
        e.to_string(),
        "illegal move: 5,5 is not an empty tile of the world (X17)"
    );
    let mut game = Game::new(Options::default_for(GameKind::Inphexion));
    game.play_text("d4").expect("White's first placement");
    let e = game
        .play_text("e5")
        .expect_err("a placement on a regular turn");
    assert!(e.to_string().contains("(I6)"), "{e}");
    assert_eq!(game.ply(), 1);
}

#[test]
fn game_kinds_parse_case_insensitively() {
    assert_eq!("InpHeXion".parse::<GameKind>(), Ok(GameKind::Inphexion));
    assert_eq!("EXXIT".parse::<GameKind>(), Ok(GameKind::Exxit));
    assert!("chess".parse::<GameKind>().is_err());
}
