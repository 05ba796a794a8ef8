//! Drives the real `hexcord engine` binary over stdin/stdout with the protocol transcripts of
//! `tests/data/protocol/` and other exchanges.

use std::io::Write;
use std::process::{Command, Stdio};

/// Runs `hexcord engine` on `input` and returns everything it wrote.
fn run_engine(input: &str) -> String {
    run_engine_bytes(input.as_bytes())
}

/// Runs `hexcord engine` on `input` (any bytes) and returns everything it wrote; fails if it
/// takes longer than a minute.
fn run_engine_bytes(input: &[u8]) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hexcord"))
        .arg("engine")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the hexcord binary starts");
    let id = child.id();
    let (done, finished) = std::sync::mpsc::channel::<()>();
    // A watchdog: an engine that hangs is killed (by its id) and the test fails.
    let watchdog = std::thread::spawn(move || {
        if finished
            .recv_timeout(std::time::Duration::from_secs(60))
            .is_err()
        {
            let _ = Command::new("kill").arg(id.to_string()).status();
            return true;
        }
        false
    });
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(input)
        .expect("the engine reads its input");
    let out = child.wait_with_output().expect("the engine finishes");
    let _ = done.send(());
    assert!(!watchdog.join().expect("watchdog"), "the engine hung");
    assert!(out.status.success(), "engine exit status {:?}", out.status);
    assert!(
        out.stderr.is_empty(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("the engine writes UTF-8")
}

/// One command of a transcript and the answer lines it expects.
struct Exchange {
    command: String,
    answer: Vec<String>,
}

/// Splits a transcript into sessions (a comment containing "fresh engine" starts a new one), each
/// a list of exchanges.
fn parse_transcript(text: &str) -> Vec<Vec<Exchange>> {
    let mut sessions = vec![Vec::new()];
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        if line.starts_with('#') {
            if line.contains("fresh engine") {
                sessions.push(Vec::new());
            }
            continue;
        }
        if line.is_empty() {
            continue;
        }
        let mut answer = Vec::new();
        for a in lines.by_ref() {
            if a.is_empty() {
                break;
            }
            answer.push(a.to_string());
        }
        sessions
            .last_mut()
            .expect("there is always a session")
            .push(Exchange {
                command: line.to_string(),
                answer,
            });
    }
    sessions
}

/// Failure answers match on their category (`? illegal move`), successes exactly.
fn comparable(line: &str) -> &str {
    match line.strip_prefix("? ") {
        Some(rest) => match rest.find(':') {
            Some(i) => &line[..i + 2],
            None => line,
        },
        None => line,
    }
}

fn check_transcript(name: &str, text: &str) {
    for (s, session) in parse_transcript(text).iter().enumerate() {
        let input: String = session.iter().map(|e| format!("{}\n", e.command)).collect();
        let output = run_engine(&format!("{input}quit\n"));
        let mut blocks: Vec<Vec<&str>> =
            output.split("\n\n").map(|b| b.lines().collect()).collect();
        // The output ends with "= bye" and its empty line.
        assert_eq!(
            blocks.pop(),
            Some(vec![]),
            "{name}: output ends with an empty line"
        );
        assert_eq!(
            blocks.pop(),
            Some(vec!["= bye"]),
            "{name}: quit answers bye"
        );
        assert_eq!(
            blocks.len(),
            session.len(),
            "{name} session {s}: one answer per command"
        );
        for (e, got) in session.iter().zip(&blocks) {
            let want: Vec<&str> = e.answer.iter().map(|l| comparable(l)).collect();
            let got: Vec<&str> = got.iter().map(|l| comparable(l)).collect();
            assert_eq!(got, want, "{name} session {s}: answer to `{}`", e.command);
        }
    }
}

#[test]
fn engine_reproduces_the_inphexion_transcript() {
    check_transcript("inphexion.txt", include_str!("data/protocol/inphexion.txt"));
}

#[test]
fn engine_reproduces_the_exxit_transcript() {
    check_transcript("exxit.txt", include_str!("data/protocol/exxit.txt"));
}

#[test]
fn record_then_load_restores_the_game() {
    let out =
        run_engine("new inphexion size=5 pie\nplay c3\nplay swap\nplay c3-d3\nrecord\nposition\n");
    let blocks: Vec<&str> = out.split("\n\n").collect();
    assert_eq!(blocks[4], "= inphexion size=5 pie\nc3\nswap\nc3-d3");
    let position = blocks[5];
    let out2 =
        run_engine("new exxit\nload\ninphexion size=5 pie\nc3\nswap\nc3-d3\n\nposition\nstatus\n");
    let blocks2: Vec<&str> = out2.split("\n\n").collect();
    assert_eq!(blocks2[1], "= ok");
    assert_eq!(blocks2[2], position);
    assert!(blocks2[3].starts_with("= to-move "), "{}", blocks2[3]);
}

#[test]
fn a_bad_record_names_its_line_and_changes_nothing() {
    let out = run_engine("new exxit\nplay 0,0\nload\nexxit tiles=39\n0,0\n7,7\n\nposition\n");
    let blocks: Vec<&str> = out.split("\n\n").collect();
    assert!(blocks[2].starts_with("? line 3:"), "{}", blocks[2]);
    assert!(blocks[3].starts_with("= 0,-1:1 0,0:2/1 "), "{}", blocks[3]);
}

#[test]
fn failures_change_nothing_and_junk_is_answered() {
    let out = run_engine(
        "new inphexion size=4\nplay b2\nposition\nplay zz9\nplay b2-b2\nfrobnicate\nsetpos nonsense\nperft x\n\n# comment\nposition\nundo\nundo\nundo\n",
    );
    let blocks: Vec<&str> = out.split("\n\n").collect();
    let pos = blocks[2];
    assert!(blocks[3].starts_with("? bad notation: "), "{}", blocks[3]);
    assert!(blocks[4].starts_with("? "), "{}", blocks[4]);
    assert!(
        blocks[5].starts_with("? unknown command: frobnicate"),
        "{}",
        blocks[5]
    );
    assert!(blocks[6].starts_with("? bad position: "), "{}", blocks[6]);
    assert!(blocks[7].starts_with("? "), "{}", blocks[7]);
    assert_eq!(blocks[8], pos);
    assert_eq!(blocks[9], "= ok");
    assert_eq!(blocks[10], "? nothing to undo");
}

#[test]
fn genmove_is_repeatable_with_a_seed_and_plays_legal_moves() {
    let script = "new exxit tiles=19\ngenmove seed=7\ngenmove seed=8\ngenmove seed=9\nrecord\n";
    let a = run_engine(script);
    let b = run_engine(script);
    assert_eq!(a, b);
    let blocks: Vec<&str> = a.split("\n\n").collect();
    for b in &blocks[1..4] {
        assert!(b.starts_with("= "), "{b}");
    }
}

#[test]
fn analyse_answers_the_analysis_as_json_and_refuses_bad_arguments() {
    let script = "new inphexion size=4\nplay a1\ngenmove seed=1\nanalyse budget=300 seed=3\n\
                  analyse budget=x\nanalyse fast\n";
    let out = run_engine(script);
    let blocks: Vec<&str> = out.split("\n\n").collect();
    let json = blocks[3].strip_prefix("= ").expect("analyse succeeds");
    let a: serde_json::Value = serde_json::from_str(json).expect("one line of JSON");
    assert_eq!(a["game"], "inphexion");
    assert_eq!(a["budget"], 300);
    assert_eq!(a["positions"].as_array().map(Vec::len), Some(3));
    assert_eq!(a["moves"][0]["played"], "a1");
    assert!(
        blocks[1].starts_with("= ") && blocks[2].starts_with("= "),
        "{out}"
    );
    assert!(a["turning_points"].is_array());
    assert!(blocks[4].starts_with("? "), "{}", blocks[4]);
    assert!(blocks[5].starts_with("? "), "{}", blocks[5]);
    assert_eq!(out, run_engine(script));
}

#[test]
fn resign_ends_the_game_and_undo_takes_it_back() {
    let out = run_engine("new exxit\nresign\nstatus\nlegal\nplay 0,0\nundo\nstatus\n");
    let blocks: Vec<&str> = out.split("\n\n").collect();
    assert_eq!(blocks[1], "= ok");
    assert_eq!(blocks[2], "= over red wins: resignation");
    assert_eq!(blocks[3], "= ");
    assert!(blocks[4].starts_with("? illegal move: "), "{}", blocks[4]);
    assert_eq!(blocks[5], "= ok");
    assert_eq!(blocks[6], "= to-move silver");
}

#[test]
fn end_of_input_says_bye_and_board_has_no_blank_lines() {
    let out = run_engine("new inphexion size=4\nboard\n");
    assert!(out.ends_with("= bye\n\n"), "{out}");
    let blocks: Vec<&str> = out.split("\n\n").collect();
    assert!(blocks[1].starts_with("= \n"), "{}", blocks[1]);
    assert!(blocks[1].lines().count() >= 5, "{}", blocks[1]);
}

#[test]
fn render_writes_the_position_as_a_png() {
    let dir = std::env::temp_dir().join(format!("hexcord-engine-render-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("board.png");
    let out = run_engine(&format!(
        "new inphexion size=5\nplay c3\nrender {}\nrender {}\n",
        path.display(),
        dir.join("missing-dir").join("x.png").display()
    ));
    let blocks: Vec<&str> = out.split("\n\n").collect();
    assert_eq!(blocks[2], format!("= {}", path.display()));
    assert!(blocks[3].starts_with("? cannot write "), "{}", blocks[3]);
    let img = image::open(&path).expect("a decodable PNG").to_rgba8();
    assert!((600..=1400).contains(&img.width()), "width {}", img.width());
    std::fs::remove_dir_all(&dir).ok();
}

/// The EXXIT start position with one more cell (`extra`, e.g. `5,5:./1`) and the hands given.
fn exxit_start_with(extra: &str, hand: &str) -> String {
    format!("{extra} 0,-1:1 0,0:2 1,-2:2 1,-1:1|tiles 35|hand {hand}|to-move silver")
}

/// Coordinates outside the board, at the edges of the integer range among them.
const FAR: [&str; 9] = [
    "-2147483648,0",
    "0,-2147483648",
    "-2147483648,-2147483648",
    "2147483647,2147483647",
    "2147483647,-2147483648",
    "40,0",
    "0,-41",
    "-42,1",
    "99999999999,0",
];

#[test]
fn setpos_refuses_every_cell_outside_the_board() {
    let mut script = String::from("new exxit\n");
    for c in FAR {
        script.push_str(&format!(
            "setpos {}\n",
            exxit_start_with(&format!("{c}:1"), "8/8")
        ));
        script.push_str(&format!(
            "setpos {}\n",
            exxit_start_with(&format!("{c}:2/1"), "7/8")
        ));
        script.push_str(&format!(
            "setpos {}\n",
            exxit_start_with(&format!("{c}:./2"), "8/7")
        ));
    }
    script.push_str("setpos -2147483648,-2147483648:2|tiles 38|hand 8/8|to-move silver\n");
    script.push_str("position\nplay -2147483648,0\nplay 0,0-2147483647,0\nplay +0,-2147483648\n");
    let out = run_engine(&script);
    let blocks: Vec<&str> = out.split("\n\n").collect();
    let n = 3 * FAR.len() + 1;
    for (k, b) in blocks[1..=n].iter().enumerate() {
        assert!(b.starts_with("? bad position: "), "setpos {k}: {b}");
    }
    assert_eq!(
        blocks[n + 1],
        "= 0,-1:1 0,0:2 1,-2:2 1,-1:1|tiles 35|hand 8/8|to-move silver"
    );
    for b in &blocks[n + 2..n + 5] {
        assert!(b.starts_with("? bad notation: "), "{b}");
    }
}

#[test]
fn a_record_with_a_cell_outside_the_board_is_refused_by_load_and_render() {
    let bad = exxit_start_with("-2147483648,0:1", "8/8");
    let out = run_engine(&format!(
        "new inphexion size=5\nload\nexxit tiles=39\nsetpos {bad}\n\nposition\n"
    ));
    let blocks: Vec<&str> = out.split("\n\n").collect();
    assert!(
        blocks[1].starts_with("? line 2: bad position"),
        "{}",
        blocks[1]
    );
    assert!(blocks[2].starts_with("= ....."), "{}", blocks[2]);

    let dir = std::env::temp_dir().join(format!("hexcord-render-far-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let record = dir.join("far.txt");
    std::fs::write(&record, format!("exxit tiles=39\nsetpos {bad}\n")).expect("record");
    let out = Command::new(env!("CARGO_BIN_EXE_hexcord"))
        .arg("render")
        .arg(&record)
        .output()
        .expect("hexcord render runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.contains("bad position"), "{err}");
    assert!(!dir.join("far.png").exists());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn load_refuses_a_record_with_a_line_that_is_not_utf8_whole() {
    let mut input = b"new inphexion size=5\nplay c3\nload\ninphexion size=5\nc3\n".to_vec();
    input.extend_from_slice(b"d4\xff\xfe\nundo\nresign\nplay e5\n\nposition\nstatus\n");
    let out = run_engine_bytes(&input);
    let blocks: Vec<&str> = out.split("\n\n").collect();
    // new, play, load, position, status, bye: nothing of the record ran as a command.
    assert_eq!(blocks.len(), 7, "{out}");
    assert!(blocks[2].starts_with("? line 3: "), "{}", blocks[2]);
    assert_eq!(
        blocks[3],
        "= ...../...../..w../...../.....|to-move black|hand 12/13"
    );
    assert_eq!(blocks[4], "= to-move black");
    // A line that is not UTF-8 outside a record is answered on its own.
    let out = run_engine_bytes(b"new exxit\n\xc3\x28 play\nstatus\n");
    let blocks: Vec<&str> = out.split("\n\n").collect();
    assert!(blocks[1].starts_with("? unreadable line"), "{}", blocks[1]);
    assert_eq!(blocks[2], "= to-move silver");
}

#[test]
fn render_refuses_special_files_and_replaces_regular_ones_whole() {
    let dir = std::env::temp_dir().join(format!("hexcord-render-special-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let fifo = dir.join("fifo");
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let file = dir.join("old.png");
    std::fs::write(&file, b"old").expect("a regular file");
    let out = run_engine(&format!(
        "new exxit\nrender {}\nrender /dev/stdout\nrender {}\nrender {}\nstatus\n",
        fifo.display(),
        dir.display(),
        file.display()
    ));
    let blocks: Vec<&str> = out.split("\n\n").collect();
    assert_eq!(blocks.len(), 8, "{out}");
    for b in &blocks[1..4] {
        assert!(b.starts_with("? cannot write "), "{b}");
    }
    assert_eq!(blocks[4], format!("= {}", file.display()));
    assert_eq!(blocks[5], "= to-move silver");
    image::open(&file).expect("the old file replaced by a PNG");
    let left: Vec<_> = std::fs::read_dir(&dir)
        .expect("dir")
        .map(|e| e.expect("entry").file_name())
        .collect();
    assert_eq!(left.len(), 2, "no temporary file left: {left:?}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn deep_perft_is_refused() {
    // (How quickly is for `cargo bench`: a timed test fails on a loaded machine.)
    let out = run_engine(
        "new inphexion size=7\nperft 50\nperft 4294967295\nnew exxit\nperft 60\nperft 2\n",
    );
    let blocks: Vec<&str> = out.split("\n\n").collect();
    assert!(blocks[1].starts_with("? too deep"), "{}", blocks[1]);
    assert!(blocks[2].starts_with("? too deep"), "{}", blocks[2]);
    assert!(blocks[4].starts_with("? too deep"), "{}", blocks[4]);
    assert_eq!(blocks[5], "= 12");
}
