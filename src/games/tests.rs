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

/// The registry's games as stored and parsed: the names are those the database and the engine
/// protocol hold, each reads back, and nothing else is a game.
#[test]
fn the_registry_keeps_the_stored_names_and_parses_them_back() {
    let names: Vec<&str> = GameKind::ALL.iter().map(|k| k.name()).collect();
    assert_eq!(names, ["inphexion", "exxit"]);
    assert_eq!(GameKind::ALL.map(|k| k.title()), ["inpHeXion", "EXXIT"]);
    assert_eq!(GameKind::DEFAULT, GameKind::Inphexion);
    for kind in GameKind::ALL {
        assert_eq!(kind.name().parse::<GameKind>(), Ok(kind));
        assert_eq!(kind.name().to_uppercase().parse::<GameKind>(), Ok(kind));
        assert_eq!(kind.to_string(), kind.name());
    }
    let err = "chess".parse::<GameKind>().unwrap_err();
    assert_eq!(
        err.to_string(),
        "unknown option: unknown game chess (the games are inphexion and exxit)"
    );
    assert_eq!(
        [GameKind::Inphexion, GameKind::Exxit].map(|k| Colour::BOTH.map(|c| k.colour_name(c))),
        [["white", "black"], ["silver", "red"]]
    );
}

/// What the registry's enums give for each game is that game's own: its options, positions and
/// moves keep their kind; the size option and the flags the front ends offer are what the rules
/// accept, and each flag shows in the canonical words when on.
#[test]
fn each_game_answers_for_itself_through_the_registry() {
    for kind in GameKind::ALL {
        let options = Options::default_for(kind);
        assert_eq!(options.kind(), kind);
        let size = kind.size_option();
        assert!(size.values.contains(&options.size()), "{kind}");
        for &n in size.values {
            let o = Options::parse(kind, &[&format!("{}={n}", size.word)]).unwrap();
            assert_eq!(o.size(), n, "{kind}");
        }
        for flag in kind.flags() {
            assert!(!options.flag(flag.word), "{kind} {}", flag.word);
            let o = Options::parse(kind, &[flag.word]).unwrap();
            assert!(o.flag(flag.word), "{kind} {}", flag.word);
            assert_eq!(Options::parse_line(&o.to_string()), Ok(o.clone()));
        }
        let mut position = Position::new(&options);
        assert_eq!(
            (position.kind(), position.options()),
            (kind, options.clone())
        );
        let moves = position.legal_moves();
        assert!(!moves.is_empty(), "{kind}");
        assert!(moves.iter().all(|m| m.kind() == kind));
        let first = moves[0];
        let before = position.clone();
        position.play(&first).unwrap();
        assert_ne!(position, before);
        // A move of another game is refused and changes nothing.
        let other = GameKind::ALL.into_iter().find(|&k| k != kind).unwrap();
        let foreign = Position::new(&Options::default_for(other)).legal_moves()[0];
        let after = position.clone();
        assert!(position.play(&foreign).is_err());
        assert_eq!(position, after);
        // Cloning into a position of another game takes its game.
        let mut copy = Position::new(&Options::default_for(other));
        copy.clone_from(&position);
        assert_eq!(copy, position);
    }
    let exxit = Position::new(&Options::default_for(GameKind::Exxit));
    assert!(exxit.score().is_some());
    let inphexion = Position::new(&Options::default_for(GameKind::Inphexion));
    assert_eq!(inphexion.score(), None);
}
