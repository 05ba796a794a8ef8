//! Walks the inpHeXion protocol transcript through the game front (`hexcord::games::Game`) and
//! checks every answer the Position API determines.
use hexcord::games::{Game, GameKind, Options};

fn answer(game: &mut Option<Game>, cmd: &str) -> String {
    let (word, rest) = cmd.split_once(' ').unwrap_or((cmd, ""));
    match word {
        "new" => {
            let mut words = rest.split_whitespace();
            let kind: GameKind = match words.next().unwrap_or("").parse() {
                Ok(k) => k,
                Err(e) => return format!("? {e}"),
            };
            let opts: Vec<&str> = words.collect();
            match Options::parse(kind, &opts) {
                Ok(o) => {
                    *game = Some(Game::new(o));
                    "= ok".to_string()
                }
                Err(e) => format!("? {e}"),
            }
        }
        _ => {
            let g = game.as_mut().expect("a game was started");
            match word {
                "play" => match g.play_text(rest) {
                    Ok(m) => format!("= {m}"),
                    Err(e) => format!("? {e}"),
                },
                "legal" => format!("= {}", g.legal_notations().join(" ")),
                "position" => format!("= {}", g.position().to_line()),
                "status" => format!("= {}", g.status()),
                "undo" => {
                    if g.undo() {
                        "= ok".to_string()
                    } else {
                        "? nothing to undo".to_string()
                    }
                }
                "perft" => format!(
                    "= {}",
                    g.position().perft(rest.trim().parse().expect("depth"))
                ),
                "setpos" => match Game::from_position(g.options().clone(), rest) {
                    Ok(ng) => {
                        *g = ng;
                        "= ok".to_string()
                    }
                    Err(e) => format!("? bad position: {e}"),
                },
                other => panic!("command {other} not covered"),
            }
        }
    }
}

#[test]
fn transcript_is_reproduced_by_the_position_api() {
    let text = include_str!("data/protocol/inphexion.txt");
    let mut lines = text.lines().peekable();
    let mut game = None;
    let mut checked = 0;
    while let Some(line) = lines.next() {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let expected = lines.next().expect("an answer follows each command");
        let got = answer(&mut game, line);
        if let Some(free) = [
            "? illegal move:",
            "? bad notation:",
            "? bad option:",
            "? unknown option:",
        ]
        .iter()
        .find(|p| expected.starts_with(**p))
        {
            assert!(
                got.starts_with(free),
                "`{line}`: expected `{expected}`, got `{got}`"
            );
        } else {
            assert_eq!(got, expected, "command `{line}`");
        }
        checked += 1;
    }
    assert!(checked > 60);
}
