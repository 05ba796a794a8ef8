//! Walks the protocol transcript tests/data/protocol/exxit.txt through `hexcord::games::Game`.
use hexcord::games::{Game, Options};

fn answer(game: &mut Game, cmd: &str) -> String {
    let (verb, rest) = cmd.split_once(' ').unwrap_or((cmd, ""));
    match verb {
        "new" => match Options::parse_line(rest) {
            Ok(o) => {
                *game = Game::new(o);
                "= ok".to_string()
            }
            Err(e) => format!("? {e}"),
        },
        "legal" => format!("= {}", game.legal_notations().join(" ")),
        "play" => match game.play_text(rest) {
            Ok(m) => format!("= {m}"),
            Err(e) => format!("? {e}"),
        },
        "position" => format!("= {}", game.position().to_line()),
        "status" => format!("= {}", game.status()),
        "perft" => {
            let n: u32 = rest.trim().parse().expect("perft depth");
            format!("= {}", game.position().perft(n))
        }
        other => panic!("the transcript uses an unknown command {other}"),
    }
}

#[test]
fn exxit_transcript_is_reproduced() {
    let text = std::fs::read_to_string("tests/data/protocol/exxit.txt").expect("transcript");
    let mut lines = text.lines().filter(|l| !l.starts_with('#'));
    let mut game = Game::new(Options::parse_line("exxit").expect("options"));
    let mut commands = 0;
    while let Some(cmd) = lines.next() {
        if cmd.trim().is_empty() {
            continue;
        }
        let expected = lines.next().expect("an answer follows each command");
        let got = answer(&mut game, cmd);
        if let Some(prefix) = expected.strip_prefix("? ") {
            // The text after the error kind is free.
            let kind = prefix.split(':').next().unwrap_or("");
            assert!(
                got.starts_with(&format!("? {kind}:")),
                "{cmd}: {got} vs {expected}"
            );
        } else {
            assert_eq!(got, expected, "after command `{cmd}`");
        }
        if cmd.starts_with("legal") {
            let moves: Vec<&str> = got[2..].split(' ').filter(|s| !s.is_empty()).collect();
            let mut sorted = moves.clone();
            sorted.sort_unstable();
            assert_eq!(moves, sorted, "legal lists are sorted");
        }
        commands += 1;
    }
    assert!(commands > 40);
}

#[test]
fn the_illegal_place_names_rule_x17() {
    let mut game = Game::new(Options::parse_line("exxit").expect("options"));
    let e = game.play_text("5,5").expect_err("illegal");
    assert_eq!(
        e.to_string(),
        "illegal move: 5,5 is not an empty tile of the world (X17)"
    );
}
