//! `hexcord puzzles`: puzzles from game records and from the bot's games against itself, as
//! JSON lines.

use std::process::Command;

use hexcord::ai::{self, Budget};
use hexcord::games::{Colour, Game, Options};
use hexcord::puzzles::Puzzle;

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("hexcord-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn hexcord(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_hexcord"))
        .args(args)
        .env("DATABASE_URL", "sqlite::memory:")
        .output()
        .expect("hexcord runs")
}

/// Silver to move in EXXIT with two tiles left: only the expansion at 2,-2 wins.
const EXXIT_ONE_WIN: &str = "-2,-1:1/12 -2,0:1 -2,1:./1 -2,2:./1 -1,-2:./1 -1,-1:2/22 -1,0:2 \
    -1,1:1/2 0,-1:1 0,0:2 0,1:2 1,-3:1 1,-2:2 1,-1:1 1,0:2/21 2,-3:1/2 2,-2:1 2,-1:2 2,0:2/1 \
    3,-1:2|tiles 2|hand 2/2|to-move silver";

/// The game from [`EXXIT_ONE_WIN`] where Silver misses the win and loses: the first other move
/// after which the AI's moves end in Red's win.
fn missed_win() -> (Game, String) {
    let options = Options::parse_line("exxit tiles=19").unwrap();
    let start = Game::from_position(options, EXXIT_ONE_WIN).unwrap();
    for mv in start.legal_moves() {
        if mv.to_string() == "2,-2" {
            continue;
        }
        let mut game = start.clone();
        game.play(mv).unwrap();
        while !game.is_over() {
            let reply = ai::choose(game.position(), Budget::nodes(5_000), 1).unwrap();
            game.play(reply).unwrap();
        }
        if game.outcome().unwrap().winner == Some(Colour::Second) {
            return (game, mv.to_string());
        }
    }
    panic!("no move loses");
}

#[test]
fn a_record_with_a_missed_win_gives_its_puzzle() {
    let dir = temp_dir("puzzles");
    let (game, missed) = missed_win();
    let record = dir.join("missed.txt");
    std::fs::write(&record, game.record()).unwrap();
    let out = hexcord(&["puzzles", record.to_str().unwrap(), "--budget", "5000"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let puzzles: Vec<Puzzle> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("a puzzle a line"))
        .collect();
    let p = puzzles.first().unwrap_or_else(|| panic!("none: {stderr}"));
    assert_eq!(p.solution[0], "2,-2");
    assert_eq!(
        (p.source.ply, p.source.played.as_deref()),
        (0, Some(&*missed))
    );
    assert_eq!(p.position, game.positions()[0].to_line());
    assert!((1..=5).contains(&p.difficulty));
    assert!(stderr.contains("from 1 games"), "{stderr}");
    // Into a file, the same lines.
    let file = dir.join("out.jsonl");
    let out = hexcord(&[
        "puzzles",
        record.to_str().unwrap(),
        "--budget",
        "5000",
        "-o",
        file.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    assert_eq!(std::fs::read_to_string(&file).unwrap(), stdout);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn self_played_games_give_puzzles_that_replay() {
    let out = hexcord(&[
        "puzzles",
        "--self-play",
        "3",
        "--game",
        "inphexion size=5",
        "--level",
        "easy",
        "--budget",
        "400",
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("from 3 games"), "{stderr}");
    // A line a game as it goes.
    assert!(stderr.contains("3/3 self-play 3: "), "{stderr}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    for line in stdout.lines() {
        let p: Puzzle = serde_json::from_str(line).expect("a puzzle a line");
        let mut game = p.game().expect("its position reads");
        for mv in &p.solution {
            game.play_text(mv).expect("its line is legal");
        }
        assert_eq!(p.source.game, None);
    }
}

#[test]
fn a_set_is_proven_and_what_stands_is_written_with_its_proof() {
    // Silver's only win, and the same position answered with a move that does not win.
    let options = Options::parse_line("exxit tiles=19").unwrap();
    let game = Game::from_position(options, EXXIT_ONE_WIN).unwrap();
    let wrong = game
        .legal_moves()
        .into_iter()
        .map(|m| m.to_string())
        .find(|m| m != "2,-2")
        .unwrap();
    let line = |answer: &str| {
        format!(
            r#"{{"variant":"exxit tiles=19","position":"{EXXIT_ONE_WIN}","to_move":0,"solution":["{answer}"],"difficulty":1,"chance":1.0,"second":0.0,"source":{{"game":null,"ply":0,"played":null}}}}"#
        )
    };
    let dir = temp_dir("prove");
    let set = dir.join("set.jsonl");
    std::fs::write(&set, format!("{}\n{}\n", line("2,-2"), line(&wrong))).unwrap();
    let out = hexcord(&["puzzles", "--prove", set.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("1 of 2 puzzles stand"), "{stderr}");
    assert!(
        stderr.contains("line 2 ") && stderr.contains("dropped"),
        "{stderr}"
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let kept: Vec<Puzzle> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("a puzzle a line"))
        .collect();
    assert_eq!(kept.len(), 1, "{stdout}");
    assert_eq!(kept[0].solution, ["2,-2"]);
    assert_eq!(kept[0].proof, Some(hexcord::puzzles::Proof::Exact));
    // A line that is no puzzle: refused, naming it, nothing written.
    std::fs::write(&set, format!("{}\nnot a puzzle\n", line("2,-2"))).unwrap();
    let file = dir.join("out.jsonl");
    let out = hexcord(&[
        "puzzles",
        "--prove",
        set.to_str().unwrap(),
        "-o",
        file.to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("line 2"));
    assert!(!file.exists());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_input_is_refused_with_a_message() {
    let out = hexcord(&["puzzles"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--self-play"));
    let out = hexcord(&["puzzles", "/nonexistent/record.txt"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read"));
    let out = hexcord(&["puzzles", "--self-play", "1", "--level", "great"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--level"));
    let out = hexcord(&["puzzles", "--self-play", "1", "--budget", "0"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--budget"));
    let out = hexcord(&["puzzles", "--prove", "/dev/null", "--proof-budget", "0"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--proof-budget"));
}

/// Stores `game` (finished) between players 1 and 2; returns its number.
async fn store(pool: &hexcord::db::Pool, game: &Game) -> i64 {
    use hexcord::db::{self, ChannelId, Finish, GameResult, MoveRecord, NewGame, UserId};
    let players = [UserId(1), UserId(2)];
    let id = db::insert_game(
        pool,
        &NewGame {
            guild_id: None,
            channel_id: ChannelId(1),
            options: game.options(),
            players,
            rated: false,
            now: 0,
            seconds_per_move: 86400,
            deadline_at: None,
            clock: None,
        },
    )
    .await
    .unwrap();
    let positions = game.positions();
    let mut conn = pool.acquire().await.unwrap();
    for (k, mv) in game.moves().iter().enumerate() {
        let mover = players[positions[k].to_move().index()];
        let last = k + 1 == game.ply();
        let finish = game.outcome().map(|o| Finish {
            kind: game.kind(),
            winner_id: o.winner.map(|w| players[w.index()]),
            result: GameResult::Decided(o),
        });
        db::record_move(
            &mut conn,
            &MoveRecord {
                game: id,
                expected_version: k as i64,
                notation: &mv.to_string(),
                player: mover,
                now: k as i64,
                finish: finish.as_ref().filter(|_| last),
                next_deadline: None,
                next_to_move: players[positions[k + 1].to_move().index()],
                clock: None,
                left_before: None,
            },
        )
        .await
        .unwrap();
    }
    id
}

#[tokio::test]
async fn the_finished_games_of_the_database_give_puzzles_with_their_numbers() {
    let (pool, file) = hexcord::db::testing::temp_db().await;
    for p in [1, 2] {
        hexcord::db::upsert_player(&pool, hexcord::db::UserId(p), "p", 0)
            .await
            .unwrap();
    }
    // The bot's easy games against itself (the self-play test's), stored as finished games,
    // and one left unfinished, which is not read.
    let options = Options::parse_line("inphexion size=5").unwrap();
    let mut ids = Vec::new();
    for seed in 1..=3 {
        let game = hexcord::puzzles::self_play(&options, ai::Level::Easy, seed);
        ids.push((store(&pool, &game).await, game));
    }
    let (_, first) = &ids[0];
    let mut unfinished = Game::new(options.clone());
    for mv in &first.moves()[..first.ply() - 1] {
        unfinished.play(*mv).unwrap();
    }
    let open = store(&pool, &unfinished).await;
    let url = format!("sqlite://{}", file.0.display());
    let out = Command::new(env!("CARGO_BIN_EXE_hexcord"))
        .args(["puzzles", "--database", "--budget", "400"])
        .env("DATABASE_URL", &url)
        .output()
        .expect("hexcord runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("from 3 games"), "{stderr}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(!stdout.is_empty(), "{stderr}");
    for line in stdout.lines() {
        let p: Puzzle = serde_json::from_str(line).expect("a puzzle a line");
        let id = p.source.game.expect("the game's number");
        assert_ne!(id, open);
        let (_, game) = ids.iter().find(|(i, _)| *i == id).expect("a stored game");
        assert_eq!(p.position, game.positions()[p.source.ply].to_line());
        assert_eq!(
            p.source.played,
            Some(game.moves()[p.source.ply].to_string())
        );
    }
}

/// The starter set a new server begins with (its command: `hexcord::puzzles`' docs).
const STARTER: &str = include_str!("../assets/puzzles/starter.jsonl");
/// Puzzles of each game the starter set holds at least.
const STARTER_PER_GAME: usize = 12;

#[test]
fn the_starter_set_replays_and_has_both_games() {
    use std::collections::{BTreeSet, HashMap};
    let mut per_game: HashMap<String, (usize, BTreeSet<u8>)> = HashMap::new();
    let mut positions = BTreeSet::new();
    for (k, line) in STARTER.lines().enumerate() {
        let p: Puzzle = serde_json::from_str(line).unwrap_or_else(|e| panic!("line {k}: {e}"));
        let mut game = p.game().unwrap_or_else(|e| panic!("line {k}: {e}"));
        assert!(!game.is_over(), "line {k}");
        // The solver moves first, and the line ends with a solver's move or the game's end.
        assert_eq!(game.position().to_move(), p.solver(), "line {k}");
        assert!(!p.solution.is_empty(), "line {k}");
        let mut last = p.solver();
        for mv in &p.solution {
            assert!(!game.is_over(), "line {k}: {mv} after the end");
            last = game.position().to_move();
            game.play_text(mv)
                .unwrap_or_else(|e| panic!("line {k}: {mv}: {e}"));
        }
        assert!(last == p.solver() || game.is_over(), "line {k}");
        // Self-played: no stored game, so no players to credit.
        assert_eq!(p.source.game, None, "line {k}");
        assert!((1..=5).contains(&p.difficulty), "line {k}");
        assert!(p.chance >= p.second, "line {k}");
        assert!(
            positions.insert((p.variant.clone(), p.position.clone())),
            "line {k}: a position twice"
        );
        // Every line says how far it is proven.
        assert!(p.proof.is_some(), "line {k}: no proof");
        let kind = game.kind().name().to_string();
        let entry = per_game.entry(kind).or_default();
        entry.0 += 1;
        entry.1.insert(p.difficulty);
    }
    for kind in ["inphexion", "exxit"] {
        let (n, difficulties) = per_game.get(kind).cloned().unwrap_or_default();
        assert!(n >= STARTER_PER_GAME, "{kind}: {n} puzzles");
        assert!(
            difficulties.len() >= 2,
            "{kind}: difficulties {difficulties:?}"
        );
    }
}

/// The starter set's proofs hold: every inpHeXion puzzle (and every EXXIT one marked `exact`) is
/// proven again by search to the end, a unique winning move at each of the solver's moves.
/// EXXIT's `budget N` lines are those the search could not decide within N positions a move.
#[test]
fn the_starter_set_is_proven_again() {
    use hexcord::puzzles::{prove, Proof, PROOF_NODES};
    let (mut inphexion, mut exxit_exact) = (0, 0);
    for (k, line) in STARTER.lines().enumerate() {
        let p: Puzzle = serde_json::from_str(line).unwrap_or_else(|e| panic!("line {k}: {e}"));
        let is_inphexion = p.variant.starts_with("inphexion");
        if is_inphexion {
            assert_eq!(p.proof, Some(Proof::Exact), "line {k}");
            inphexion += 1;
        } else if p.proof == Some(Proof::Exact) {
            exxit_exact += 1;
        } else {
            assert!(matches!(p.proof, Some(Proof::Budget(_))), "line {k}");
            continue;
        }
        let found = prove(&p, PROOF_NODES).unwrap_or_else(|e| panic!("line {k}: {e}"));
        assert_eq!(
            (found.refuted_at, found.stands, found.proof),
            (None, p.solution.len(), Some(Proof::Exact)),
            "line {k}: {:?} win",
            found.winning
        );
    }
    assert!(inphexion >= STARTER_PER_GAME && exxit_exact >= 1);
}
