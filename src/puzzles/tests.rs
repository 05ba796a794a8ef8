use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::*;
use crate::games::Options;

/// A small budget: the tests' positions are near the end, where it sees enough.
const SMALL: PuzzleBudget = PuzzleBudget {
    playouts: 800,
    nodes: 5_000,
};

/// Red to move in EXXIT with two tiles left: one expansion wins at once (the position of the
/// alpha-beta search's test), but most other moves win too, a turn later.
const EXXIT_MANY_WINS: &str = "-2,-1:1/12 -2,0:1 -2,1:./1 -2,2:./1 -1,-2:./1 -1,-1:2/22 -1,0:2 \
    -1,1:1 0,-1:1 0,0:2/11 0,1:2 1,-3:1 1,-2:2 1,-1:1 1,0:2/2 2,-3:1 2,-2:1 2,-1:2 2,0:2 \
    3,-1:2|tiles 2|hand 2/4|to-move red";

/// Silver to move in EXXIT with two tiles left: only the expansion at 2,-2 wins.
const EXXIT_ONE_WIN: &str = "-2,-1:1/12 -2,0:1 -2,1:./1 -2,2:./1 -1,-2:./1 -1,-1:2/22 -1,0:2 \
    -1,1:1/2 0,-1:1 0,0:2 0,1:2 1,-3:1 1,-2:2 1,-1:1 1,0:2/21 2,-3:1/2 2,-2:1 2,-1:2 2,0:2/1 \
    3,-1:2|tiles 2|hand 2/2|to-move silver";

/// Black to move in inpHeXion: one move keeps the win, and after White's best reply one move
/// again.
const INPHEXION_LINE: &str = "bbbw./wbbw./bwwww/bwwb./.....|to-move black|hand 4/5";

fn position(variant: &str, line: &str) -> Position {
    Position::from_line(&Options::parse_line(variant).unwrap(), line).unwrap()
}

/// The moves of `pos` that win at once for the side to move.
fn winning_moves(pos: &Position) -> Vec<Move> {
    let me = pos.to_move();
    pos.legal_moves()
        .into_iter()
        .filter(|m| {
            let mut p = pos.clone();
            p.play(m).is_ok() && p.outcome().is_some_and(|o| o.winner == Some(me))
        })
        .collect()
}

#[test]
fn a_position_with_one_winning_move_becomes_a_puzzle() {
    let pos = position("exxit tiles=19", EXXIT_ONE_WIN);
    let p = puzzle_at(&pos, SMALL, 1).expect("a puzzle");
    assert_eq!(p.solution[0], "2,-2", "{p:?}");
    assert_eq!((p.variant.as_str(), p.to_move), ("exxit tiles=19", 0));
    assert_eq!(p.chance, 1.0, "{p:?}");
    assert!(p.second <= p.chance - MARGIN, "{p:?}");
    // Checked apart from the generator, with ten times its budget: the answer wins, every
    // other move is worse than even.
    let me = pos.to_move();
    let big = PuzzleBudget {
        playouts: 8_000,
        nodes: 50_000,
    };
    for m in pos.legal_moves() {
        let c = chance_after(&pos, m, me, big, 5);
        if m.to_string() == "2,-2" {
            assert_eq!(c, 1.0);
        } else {
            assert!(c < KEEP, "{m}: {c}");
        }
    }
    // The position read back is the one given.
    assert_eq!(p.game().unwrap().position().to_line(), pos.to_line());
    check_line(&p, SMALL);
}

#[test]
fn a_position_with_two_equally_good_moves_is_no_puzzle() {
    // Positions where the side to move has exactly two wins at once, from seeded random games.
    let mut tried = 0;
    for seed in 0..200u64 {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut game = Game::new(Options::parse_line("inphexion size=5").unwrap());
        while !game.is_over() {
            if winning_moves(game.position()).len() == 2 {
                assert_eq!(puzzle_at(game.position(), SMALL, seed), None);
                assert_eq!(only_move(game.position(), SMALL, seed), None);
                tried += 1;
                break;
            }
            let moves = game.legal_moves();
            game.play(moves[rng.random_range(0..moves.len())]).unwrap();
        }
        if tried == 3 {
            break;
        }
    }
    assert_eq!(tried, 3);
    // Red wins with many moves (one at once, the others a turn later).
    let many = position("exxit tiles=19", EXXIT_MANY_WINS);
    assert_eq!(winning_moves(&many).len(), 1);
    assert_eq!(only_move(&many, SMALL, 1), None);
    // The start: every move about as good as the next.
    let start = Position::new(&Options::parse_line("inphexion size=5").unwrap());
    assert_eq!(only_move(&start, SMALL, 1), None);
}

/// Replays `p`'s line from its position: every move legal, and each solver move the one good
/// move of its position.
fn check_line(p: &Puzzle, budget: PuzzleBudget) {
    let mut game = p.game().unwrap();
    let solver = p.solver();
    assert_eq!(game.position().to_move(), solver);
    let mut solver_moves = 0;
    for (k, text) in p.solution.iter().enumerate() {
        let before = game.position().clone();
        if before.to_move() == solver {
            solver_moves += 1;
            let v = only_move(&before, budget, 99).unwrap_or_else(|| panic!("{k}: {p:?}"));
            assert_eq!(v.mv.to_string(), *text, "{k}: {p:?}");
        }
        game.play_text(text)
            .unwrap_or_else(|e| panic!("{k} {text}: {e}"));
    }
    // A line ends with the solver's move (or the game's end).
    let last = game.positions()[game.ply() - 1].to_move();
    assert!(last == solver || game.is_over());
    assert_eq!(p.solver_moves(), solver_moves);
}

#[test]
fn a_several_move_puzzle_replays_its_line() {
    let pos = position("inphexion size=5", INPHEXION_LINE);
    let p = puzzle_at(&pos, SMALL, 7).expect("a puzzle");
    assert!(p.solution.len() >= 3, "{p:?}");
    assert!(p.solver_moves() >= 2, "{p:?}");
    check_line(&p, SMALL);
    // Seeded: the same again.
    assert_eq!(puzzle_at(&pos, SMALL, 7), Some(p));
}

#[test]
fn a_missed_win_in_a_game_becomes_a_puzzle_with_its_source() {
    // Silver plays its worst move instead of the win, then both sides play the AI's moves to
    // the end; the analysis marks the miss and the puzzle names it.
    let options = Options::parse_line("exxit tiles=19").unwrap();
    let mut game = Game::from_position(options, EXXIT_ONE_WIN).unwrap();
    let pos = game.position().clone();
    let me = pos.to_move();
    let missed = pos
        .legal_moves()
        .into_iter()
        .min_by(|a, b| {
            chance_after(&pos, *a, me, SMALL, 1).total_cmp(&chance_after(&pos, *b, me, SMALL, 1))
        })
        .unwrap();
    game.play(missed).unwrap();
    while !game.is_over() {
        let mv = crate::ai::choose(game.position(), crate::ai::Budget::nodes(5_000), 1).unwrap();
        game.play(mv).unwrap();
    }
    let a = analysis::analyse(&game, SMALL, 3, |_, _| {});
    let found = find(&game, &a, SMALL, 3);
    let p = found.first().unwrap_or_else(|| panic!("{}", a.table()));
    assert_eq!(p.solution[0], "2,-2");
    assert_eq!(
        p.source,
        Source {
            game: None,
            ply: 0,
            played: Some(missed.to_string())
        }
    );
    let json = serde_json::to_string(p).unwrap();
    assert_eq!(&serde_json::from_str::<Puzzle>(&json).unwrap(), p);
    // Seeded: the same again.
    assert_eq!(find(&game, &a, SMALL, 3), found);
}

#[test]
fn exxit_judges_decided_positions_and_smaller_losses() {
    let m = |before: f64, loss: f64, better: bool| MoveAnalysis {
        number: 1,
        mover: 0,
        played: "0,0".into(),
        better: better.then(|| "1,-1".to_string()),
        before,
        after: before - loss,
        loss,
    };
    // A big loss: a candidate in both games; a small one, or a certain win kept, in EXXIT only.
    assert!(candidate(&m(0.6, 0.2, true), false) && candidate(&m(0.6, 0.2, true), true));
    assert!(!candidate(&m(0.6, 0.06, true), false) && candidate(&m(0.6, 0.06, true), true));
    assert!(!candidate(&m(1.0, 0.0, false), false) && candidate(&m(1.0, 0.0, false), true));
    assert!(!candidate(&m(0.6, 0.0, false), true));
    assert!(!candidate(&m(0.6, 0.04, true), true));
    assert!(proves_wins(GameKind::Exxit) && !proves_wins(GameKind::Inphexion));
}

/// The seed of [`a_real_exxit_game_gives_a_puzzle`]'s game.
const EXXIT_GAME_SEED: u64 = 4;
/// Its budget: enough for the alpha-beta search to prove the endgame's wins.
const EXXIT_BUDGET: PuzzleBudget = PuzzleBudget {
    playouts: 800,
    nodes: 50_000,
};

#[test]
fn a_real_exxit_game_gives_a_puzzle() {
    // The bot against itself at `medium` in the short variant: two seeds give two games.
    let options = Options::parse_line("exxit tiles=19").unwrap();
    let game = self_play(&options, Level::Medium, EXXIT_GAME_SEED);
    let other = self_play(&options, Level::Medium, EXXIT_GAME_SEED + 1);
    assert!(game.is_over() && other.is_over());
    assert_ne!(game.moves(), other.moves());
    let a = analysis::analyse(&game, EXXIT_BUDGET, 1, |_, _| {});
    let found = find(&game, &a, EXXIT_BUDGET, 1);
    let p = found
        .first()
        .unwrap_or_else(|| panic!("none in\n{}", a.table()));
    let positions = game.positions();
    assert_eq!(p.position, positions[p.source.ply].to_line());
    assert_eq!(
        p.source.played,
        Some(game.moves()[p.source.ply].to_string())
    );
    assert!((1..=5).contains(&p.difficulty), "{p:?}");
    check_line(p, EXXIT_BUDGET);
    // No position twice, neither as a puzzle nor inside an earlier puzzle's line.
    let mut seen: Vec<String> = Vec::new();
    for p in &found {
        assert!(!seen.contains(&p.position), "{p:?}");
        seen.extend(p.line_positions());
    }
}

/// The puzzle of `line` from `pos` (the rest as [`puzzle_at`] fills it).
fn puzzle_of(pos: &Position, line: &[&str]) -> Puzzle {
    Puzzle {
        variant: pos.options().to_string(),
        position: pos.to_line(),
        to_move: pos.to_move().index() as u8,
        solution: line.iter().map(|m| m.to_string()).collect(),
        difficulty: 1,
        chance: 1.0,
        second: 0.0,
        source: Source::default(),
        proof: None,
    }
}

/// Whether the side to move wins `pos` against any defence, by plain minimax to the end (no
/// table, no pruning): the prover's reference.
fn minimax_wins(pos: &Position) -> bool {
    let me = pos.to_move();
    pos.legal_moves().into_iter().any(|m| {
        let mut p = pos.clone();
        p.play(&m).expect("legal");
        match p.outcome() {
            Some(o) => o.winner == Some(me),
            None => p.to_move() == me && minimax_wins(&p) || p.to_move() != me && !minimax_wins(&p),
        }
    })
}

#[test]
fn the_prover_agrees_with_plain_minimax() {
    // Positions of seeded random 4×4 games a few plies before their end, every move judged.
    let options = Options::parse_line("inphexion size=4").unwrap();
    let (mut wins, mut unique, mut refuted) = (0, 0, 0);
    for seed in 0..40u64 {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut game = Game::new(options.clone());
        let mut plies = Vec::new();
        while !game.is_over() {
            plies.push(game.position().clone());
            let moves = game.legal_moves();
            game.play(moves[rng.random_range(0..moves.len())]).unwrap();
        }
        let Some(pos) = plies.iter().rev().nth(4) else {
            continue;
        };
        // The winning moves by minimax; each move's one-move line judged by the prover.
        let winning: Vec<String> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| {
                let mut after = pos.clone();
                after.play(m).unwrap();
                match after.outcome() {
                    Some(o) => o.winner == Some(pos.to_move()),
                    None => !minimax_wins(&after),
                }
            })
            .map(|m| m.to_string())
            .collect();
        for m in pos.legal_moves() {
            let m = m.to_string();
            let found = prove(&puzzle_of(pos, &[&m]), u64::MAX).unwrap();
            if winning == [m.clone()] {
                assert_eq!((found.stands, found.proof), (1, Some(Proof::Exact)), "{m}");
                unique += 1;
            } else {
                let mut said = found.winning.clone();
                said.sort();
                let mut expected = winning.clone();
                expected.sort();
                assert_eq!((found.stands, found.refuted_at), (0, Some(0)), "{m}");
                assert_eq!(said, expected, "{m}");
                refuted += 1;
            }
        }
        wins += usize::from(!winning.is_empty());
    }
    // Won and lost positions, moves proven and refuted.
    assert!(wins > 5 && wins < 35, "{wins} won positions");
    assert!(
        unique > 3 && refuted > 50,
        "{unique} proven, {refuted} refuted"
    );
}

#[test]
fn a_line_is_proven_or_refuted_at_its_first_wrong_solver_move() {
    // One winning move in EXXIT: proven; the same line from the position with many wins: not.
    let one = position("exxit tiles=19", EXXIT_ONE_WIN);
    let found = prove(&puzzle_of(&one, &["2,-2"]), PROOF_NODES).unwrap();
    assert_eq!((found.stands, found.proof), (1, Some(Proof::Exact)));
    assert_eq!(found.winning, Vec::<String>::new());
    let many = position("exxit tiles=19", EXXIT_MANY_WINS);
    let at_once = winning_moves(&many)[0].to_string();
    let found = prove(&puzzle_of(&many, &[&at_once]), PROOF_NODES).unwrap();
    assert_eq!(
        (found.stands, found.proof, found.refuted_at),
        (0, None, Some(0))
    );
    assert!(found.winning.len() > 1 && found.winning.contains(&at_once));
    // A move that does not win: refuted, whatever follows.
    let wrong = one
        .legal_moves()
        .into_iter()
        .find(|m| m.to_string() != "2,-2")
        .unwrap();
    let found = prove(&puzzle_of(&one, &[&wrong.to_string()]), PROOF_NODES).unwrap();
    assert_eq!((found.stands, found.refuted_at), (0, Some(0)));
    assert_eq!(found.winning, vec!["2,-2".to_string()]);
    // The inpHeXion line: each solver move proven; cut after its first when its second is
    // replaced by a move that does not win.
    let pos = position("inphexion size=5", INPHEXION_LINE);
    let p = puzzle_at(&pos, SMALL, 7).expect("a puzzle");
    assert_eq!(p.proof, Some(Proof::Exact), "{p:?}");
    let found = prove(&p, PROOF_NODES).unwrap();
    assert_eq!((found.stands, found.refuted_at), (p.solution.len(), None));
    let mut game = p.game().unwrap();
    for mv in &p.solution[..2] {
        game.play_text(mv).unwrap();
    }
    let other = game
        .legal_moves()
        .into_iter()
        .map(|m| m.to_string())
        .find(|m| *m != p.solution[2])
        .unwrap();
    let mut cut = p.clone();
    cut.solution.truncate(2);
    cut.solution.push(other);
    let (kept, found) = keep_proven(&cut, PROOF_NODES, SMALL, 7).unwrap();
    assert_eq!((found.stands, found.refuted_at), (1, Some(2)));
    let kept = kept.expect("its first move stands");
    assert_eq!(kept.solution, p.solution[..1]);
    assert_eq!(kept.proof, Some(Proof::Exact));
}

#[test]
fn a_search_cut_short_says_so() {
    // One position a move: the answer is not decided, nothing else wins at once.
    let pos = position("inphexion size=5", INPHEXION_LINE);
    let p = puzzle_at(&pos, SMALL, 7).expect("a puzzle");
    let found = prove(&p, 1).unwrap();
    assert_eq!(found.proof, Some(Proof::Budget(1)), "{found:?}");
    assert_eq!(found.stands, p.solution.len());
}

#[test]
fn a_proof_reads_and_writes_as_text() {
    for (text, proof) in [
        ("exact", Proof::Exact),
        ("budget 250000", Proof::Budget(250_000)),
    ] {
        assert_eq!(text.parse::<Proof>(), Ok(proof));
        assert_eq!(proof.to_string(), text);
    }
    for bad in ["", "Exact", "budget", "budget x", "budget -1", "proven"] {
        assert!(bad.parse::<Proof>().is_err(), "{bad}");
    }
    let pos = position("exxit tiles=19", EXXIT_ONE_WIN);
    let mut p = puzzle_of(&pos, &["2,-2"]);
    let json = serde_json::to_string(&p).unwrap();
    assert!(!json.contains("proof"), "{json}");
    assert_eq!(serde_json::from_str::<Puzzle>(&json).unwrap(), p);
    p.proof = Some(Proof::Budget(7));
    let json = serde_json::to_string(&p).unwrap();
    assert!(json.ends_with(r#","proof":"budget 7"}"#), "{json}");
    assert_eq!(serde_json::from_str::<Puzzle>(&json).unwrap(), p);
    let bad = json.replace("budget 7", "budget seven");
    assert!(serde_json::from_str::<Puzzle>(&bad).is_err());
}
