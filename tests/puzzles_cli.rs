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
}
