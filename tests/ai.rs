//! The AI: wins in one, blocks, repeatability, levels against each other, the arena and the
//! EXXIT alpha-beta searcher.
use hexcord::ai::{alphabeta, choose, Budget, Level};
use hexcord::arena::{self, Match, PlayerSpec};
use hexcord::games::{GameKind, Move, Options, Position};

fn position(variant: &str, line: &str) -> Position {
    let options = Options::parse_line(variant).expect("variant");
    Position::from_line(&options, line).expect("position")
}

/// Whether `mv` wins at once for the side to move.
fn wins_at_once(p: &Position, mv: &Move) -> bool {
    let me = p.to_move();
    let mut q = p.clone();
    q.play(mv).expect("legal");
    q.outcome().is_some_and(|o| o.winner == Some(me))
}

/// Whether after `mv` the opponent has a move that wins at once.
fn lets_opponent_win(p: &Position, mv: &Move) -> bool {
    let mut q = p.clone();
    q.play(mv).expect("legal");
    if let Some(o) = q.outcome() {
        return o.winner == Some(q.to_move());
    }
    q.legal_moves().iter().any(|r| wins_at_once(&q, r))
}

/// Checks that exactly one of many moves wins at once, and that the AI plays it at every level's
/// smallest budget and with several seeds.
fn assert_finds_only_win(variant: &str, line: &str) {
    let p = position(variant, line);
    let moves = p.legal_moves();
    let winners: Vec<&Move> = moves.iter().filter(|m| wins_at_once(&p, m)).collect();
    assert_eq!(
        winners.len(),
        1,
        "{line}: one winning move among {}",
        moves.len()
    );
    assert!(moves.len() >= 5, "{line}: a real choice");
    for seed in 0..4 {
        let mv = choose(&p, Budget::playouts(20), seed).expect("a move");
        assert_eq!(&mv, winners[0], "seed {seed}");
    }
}

/// Checks that most moves let the opponent win at once and that the AI plays one that does not.
fn assert_blocks(variant: &str, line: &str) {
    let p = position(variant, line);
    let moves = p.legal_moves();
    let losing = moves.iter().filter(|m| lets_opponent_win(&p, m)).count();
    assert!(
        losing * 2 > moves.len(),
        "{line}: {losing} of {} lose",
        moves.len()
    );
    assert!(losing < moves.len(), "{line}: some move holds");
    assert!(
        !moves.iter().any(|m| wins_at_once(&p, m)),
        "{line}: no win in one"
    );
    for seed in 0..4 {
        let mv = choose(&p, Budget::playouts(50), seed).expect("a move");
        assert!(
            !lets_opponent_win(&p, &mv),
            "seed {seed}: {mv} lets the opponent win"
        );
    }
}

#[test]
fn inphexion_takes_the_only_winning_move() {
    assert_finds_only_win("inphexion size=5", INPH_WIN);
}

#[test]
fn inphexion_blocks_the_opponents_win_in_one() {
    assert_blocks("inphexion size=5", INPH_BLOCK);
}

#[test]
fn exxit_takes_the_only_winning_move() {
    assert_finds_only_win("exxit tiles=19", EXXIT_WIN);
}

#[test]
fn alphabeta_takes_the_only_winning_move() {
    let p = position("exxit tiles=19", EXXIT_WIN);
    let Position::Exxit(e) = &p else {
        panic!("an EXXIT position")
    };
    let c = alphabeta::search(e, 2, 1).expect("a move");
    assert!(wins_at_once(&p, &Move::Exxit(c.mv)), "{}", c.mv);
}

#[test]
fn equal_seeds_give_equal_moves() {
    // Monte-Carlo in both games, and EXXIT's alpha-beta (`medium` and `hard`).
    let searches = [
        (GameKind::Inphexion, Budget::playouts(300)),
        (GameKind::Exxit, Budget::playouts(300)),
        (GameKind::Exxit, Budget::nodes(3_000)),
    ];
    for (kind, budget) in searches {
        let mut p = Position::new(&Options::default_for(kind));
        for ply in 0..4u64 {
            let a = choose(&p, budget, 11 + ply).expect("a move");
            let b = choose(&p, budget, 11 + ply).expect("a move");
            assert_eq!(a, b, "{} {budget:?} ply {ply}", kind.name());
            p.play(&a).expect("legal");
        }
    }
}

/// Games between the levels (here with small budgets: EXXIT's alpha-beta for `medium` and
/// `hard`, Monte-Carlo for the others) differ from seed to seed, in both games; the alpha-beta
/// search without the seed's variety plays one game again and again.
#[test]
fn games_differ_from_seed_to_seed_in_both_games() {
    for (variant, a, b) in [
        ("inphexion size=5", "playouts:300", "playouts:30"),
        ("exxit tiles=19", "playouts:200", "playouts:20"),
        ("exxit tiles=19", "nodes:3000", "nodes:1000"),
    ] {
        let r = play_match(variant, a, b, 6);
        assert_eq!(r.different, 6, "{variant}, {a} against {b}: {r}");
    }
    // One game with each colour.
    let r = play_match("exxit tiles=19", "fixed:3000", "fixed:1000", 4);
    assert_eq!(r.different, 2, "{r}");
}

fn play_match(variant: &str, a: &str, b: &str, games: u32) -> arena::ArenaResult {
    let m = Match {
        options: Options::parse_line(variant).expect("variant"),
        a: a.parse().expect("player a"),
        b: b.parse().expect("player b"),
        games,
        seed: 5,
        threads: 2,
        progress: false,
    };
    arena::run(&m).expect("the match runs")
}

#[test]
fn easy_beats_random_in_both_games() {
    let r = play_match("inphexion size=7", "easy", "random", 10);
    assert!(r.wins >= 9, "inphexion: {r}");
    let r = play_match("exxit tiles=19", "easy", "random", 10);
    assert!(r.wins >= 9, "exxit: {r}");
}

/// `beginner` beats random moves in both games (against `easy` it loses most games: README's
/// benchmarks, 40 games in each game).
#[test]
fn beginner_beats_random_in_both_games() {
    for variant in ["inphexion size=7", "exxit tiles=19"] {
        let r = play_match(variant, "beginner", "random", 8);
        assert!(r.wins >= 7, "{variant}: {r}");
    }
    let r = play_match("exxit tiles=19", "beginner", "easy", 8);
    assert!(r.wins <= 2, "{r}");
}

/// A level against the one below, with budgets scaled down by the same ratio (about 10×).
#[test]
fn a_bigger_budget_beats_a_smaller_one_in_both_games() {
    let r = play_match("inphexion size=5", "playouts:300", "playouts:30", 16);
    assert!(r.wins >= 11, "inphexion: {r}");
    let r = play_match("exxit tiles=19", "playouts:200", "playouts:20", 12);
    assert!(r.wins >= 8, "exxit: {r}");
}

#[test]
fn alphabeta_beats_random() {
    let r = play_match("exxit tiles=19", "alphabeta:2", "random", 6);
    assert!(r.wins >= 5, "{r}");
}

#[test]
fn alphabeta_is_for_exxit_only() {
    for a in [
        PlayerSpec::AlphaBeta(3),
        PlayerSpec::Nodes(1000),
        PlayerSpec::Fixed(1000),
    ] {
        let m = Match {
            options: Options::parse_line("inphexion").expect("variant"),
            a,
            b: PlayerSpec::Random,
            games: 2,
            seed: 1,
            threads: 1,
            progress: false,
        };
        assert!(arena::run(&m).is_err());
    }
}

/// EXXIT's `medium` search (alpha-beta by whole turns, a small budget here) against the
/// Monte-Carlo search `easy` uses and against Boardspace's Dumbot.
#[test]
fn exxit_alphabeta_levels_beat_easy_and_dumbot() {
    let r = play_match("exxit tiles=19", "nodes:5000", "easy", 8);
    assert!(r.wins >= 6, "{r}");
    let r = play_match("exxit tiles=19", "nodes:5000", "dumbot", 8);
    assert!(r.wins >= 6, "{r}");
}

#[test]
fn player_specs_parse_and_print() {
    for s in [
        "random",
        "beginner",
        "easy",
        "medium",
        "hard",
        "playouts:500",
        "ms:200",
        "nodes:20000",
        "fixed:20000",
        "alphabeta:8",
    ] {
        let p: PlayerSpec = s.parse().expect(s);
        assert_eq!(p.to_string(), s);
    }
    assert_eq!(
        "HARD".parse::<PlayerSpec>(),
        Ok(PlayerSpec::Level(Level::Hard))
    );
    assert_eq!(
        "engine:prog engine --x".parse::<PlayerSpec>(),
        Ok(PlayerSpec::Engine(vec![
            "prog".into(),
            "engine".into(),
            "--x".into()
        ]))
    );
    for bad in [
        "",
        "strong",
        "playouts:",
        "playouts:0",
        "ms:x",
        "nodes:0",
        "fixed:-1",
        "alphabeta:99",
        "engine:",
    ] {
        assert!(bad.parse::<PlayerSpec>().is_err(), "{bad}");
    }
}

#[test]
fn arena_plays_an_external_engine_over_the_protocol() {
    let exe = env!("CARGO_BIN_EXE_hexcord");
    let r = play_match(
        "inphexion size=4",
        &format!("engine:{exe} engine"),
        "random",
        2,
    );
    assert_eq!(r.games(), 2);
    let r = play_match(
        "exxit tiles=19",
        "random",
        &format!("engine:{exe} engine"),
        2,
    );
    assert_eq!(r.games(), 2);
    assert!(r.moves_b > 0);
}

#[test]
fn a_missing_engine_is_an_error() {
    let m = Match {
        options: Options::parse_line("exxit").expect("variant"),
        a: "engine:/nonexistent/hexcord-engine".parse().expect("spec"),
        b: PlayerSpec::Random,
        games: 2,
        seed: 1,
        threads: 1,
        progress: false,
    };
    assert!(arena::run(&m).is_err());
}

#[test]
fn hard_budgets_stay_within_five_seconds() {
    for kind in GameKind::ALL {
        for pair in Level::ALL.windows(2) {
            let (lo, hi) = (pair[0].budget_for(kind), pair[1].budget_for(kind));
            // Each level searches more than the one below: more playouts, more evaluated
            // positions, or alpha-beta (EXXIT's medium and hard) above Monte-Carlo.
            let more = match (lo.nodes, hi.nodes) {
                (None, None) => hi.playouts > lo.playouts,
                (None, Some(_)) => true,
                (Some(a), Some(b)) => b > a,
                (Some(_), None) => false,
            };
            assert!(more, "{} {:?}", kind.name(), pair);
        }
        let hard = Level::Hard.budget_for(kind);
        assert!(hard.millis.is_some_and(|ms| ms <= 5_000));
    }
}

// Positions met in random games (size-5 inpHeXion, 19-tile EXXIT); the tests above check what
// makes each one interesting (one winning move, or most moves letting the opponent win at once).
const INPH_WIN: &str = "...w./..wwb/wbbbw/wwb../wbbb.|to-move white|hand 5/5";
const INPH_BLOCK: &str = "...w./..wb./wbbw./wwb../.wbb.|to-move black|hand 6/7";
const EXXIT_WIN: &str = "-2,-1:1/12 -2,0:1 -2,1:./1 -2,2:./1 -1,-2:./1 -1,-1:2/22 -1,0:2 \
    -1,1:1 0,-1:1 0,0:2/11 0,1:2 1,-3:1 1,-2:2 1,-1:1 1,0:2/2 2,-3:1 2,-2:1 2,-1:2 2,0:2 3,-1:2\
    |tiles 2|hand 2/4|to-move red";
