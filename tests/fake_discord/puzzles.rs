//! `/puzzle`: a member solves a puzzle of several moves with the picker, fails another, sees
//! their puzzle rating and streak change; another member's press and an old picker change
//! nothing; the leaderboard lists them. In a chat, the chat's own pool and table; in Japanese,
//! `/パズル` and its texts.

use std::time::Instant;

use serde_json::{json, Value};

use crate::discord::{components_of, Answer, Bot, Discord, Member, ANN, BOB, CAT};
use hexcord::db::{self, Origin, UserId};
use hexcord::games::{Game, Move, Options};
use hexcord::i18n::Lang;
use hexcord::puzzles::{Puzzle, Source};

/// A puzzle on inpHeXion 5×5 after `ply` moves (each the first legal move), whose line is the
/// next `len` first legal moves: the line is what the answers are checked against.
fn puzzle(ply: usize, len: usize) -> Puzzle {
    let mut game = Game::new(Options::parse_line("inphexion size=5").expect("variant"));
    for _ in 0..ply {
        let mv = game.legal_moves()[0];
        game.play(mv).expect("a legal move");
    }
    let start = game.position().clone();
    let mut solution = Vec::new();
    for _ in 0..len {
        let mv = game.legal_moves()[0];
        solution.push(mv.to_string());
        game.play(mv).expect("a legal move");
    }
    Puzzle {
        variant: "inphexion size=5".into(),
        position: start.to_line(),
        to_move: start.to_move().index() as u8,
        solution,
        difficulty: 3,
        chance: 0.9,
        second: 0.2,
        source: Source {
            game: None,
            ply,
            played: None,
        },
        proof: None,
    }
}

/// The puzzle's game after `step` moves of its line.
fn at(p: &Puzzle, step: usize) -> Game {
    hexcord::play::puzzles::at_step(p, step).expect("the line replays")
}

fn legal(game: &Game, notation: &str) -> Move {
    game.legal_moves()
        .into_iter()
        .find(|m| m.to_string() == notation)
        .expect("a legal move")
}

/// A legal move at `step` of the puzzle's line other than the line's: a wrong answer.
fn wrong_move(p: &Puzzle, step: usize) -> Move {
    at(p, step)
        .legal_moves()
        .into_iter()
        .find(|m| m.to_string() != p.solution[step])
        .expect("another move")
}

/// `/puzzle <sub>`.
fn sub(name: &str, options: Vec<Value>) -> Vec<Value> {
    vec![json!({"name": name, "type": 1, "options": options})]
}

/// Plays `mv` in the puzzle picker of `ans` as a member would: each step's option (or the row
/// it is in, where the menu is narrowed), then Play. Returns Play's answer.
pub(crate) async fn pick(d: &Discord, who: &Member, ans: &Answer, game: &Game, mv: Move) -> Answer {
    pick_in(d, who, ans, game, mv, Lang::EN).await
}

/// [`pick`] in a member's language `lang` (the picker's words and its Play button are theirs).
pub(crate) async fn pick_in(
    d: &Discord,
    who: &Member,
    ans: &Answer,
    game: &Game,
    mv: Move,
    lang: Lang,
) -> Answer {
    let play_label = hexcord::i18n::tr(lang, "button-play");
    let steps = hexcord::play::picker::steps(game.position(), &mv);
    let mut ans = ans.clone();
    for _ in 0..4 * steps.len() + 4 {
        assert!(ans.ephemeral, "a puzzle is private: {ans:?}");
        let shown = d.shown(&ans);
        let parts: Vec<Value> = components_of(&ans.components).cloned().collect();
        if let Some(play) = parts.iter().find(|c| c["label"] == play_label.as_str()) {
            assert_eq!(ans.files.len(), 2, "the board and the preview: {ans:?}");
            let id = play["custom_id"].as_str().unwrap_or("").to_string();
            return d.press_id(who, &shown, &id).await;
        }
        let menu = parts.iter().find(|c| c["type"] == 3);
        let menu_id = menu.and_then(|m| m["custom_id"].as_str()).unwrap_or("");
        let options: Vec<&Value> = menu
            .and_then(|m| m["options"].as_array())
            .map(|o| o.iter().collect())
            .unwrap_or_default();
        let mut next = None;
        for step in &steps {
            let label = step.label.render(lang);
            if let Some(o) = options.iter().find(|o| o["label"] == label.as_str()) {
                next = Some(("select", o["value"].as_str().unwrap_or("").to_string()));
                break;
            }
            if let Some(b) = parts
                .iter()
                .find(|c| c["type"] == 2 && c["label"] == label.as_str())
            {
                next = Some(("press", b["custom_id"].as_str().unwrap_or("").to_string()));
                break;
            }
        }
        if next.is_none() {
            next = steps.iter().find_map(|s| {
                let g = s.group.as_ref()?.render(lang);
                let o = options.iter().find(|o| {
                    o["label"]
                        .as_str()
                        .is_some_and(|l| l.starts_with(&format!("{g} (")))
                })?;
                Some(("select", o["value"].as_str().unwrap_or("").to_string()))
            });
        }
        ans = match next {
            Some(("select", value)) => d.select(who, &shown, menu_id, &value).await,
            Some((_, id)) => d.press_id(who, &shown, &id).await,
            None => panic!("`{mv}` is not offered: {ans:?}"),
        };
        assert_eq!(
            ans.callback_type, 7,
            "a picker step updates its message: {ans:?}"
        );
    }
    panic!("the picker never offered Play");
}

/// The stored attempts: (member, status, step), in order.
async fn attempts(d: &Discord) -> Vec<(i64, String, i64)> {
    let pool = db::connect(&d.db_url).await.expect("db");
    let rows = sqlx::query_as("SELECT player_id, status, step FROM puzzle_attempts ORDER BY id")
        .fetch_all(&pool)
        .await
        .expect("attempts");
    pool.close().await;
    rows
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_member_solves_a_puzzle_fails_another_and_leads_the_table() {
    let started = Instant::now();
    let d = Discord::start("puzzles").await;
    // Two puzzles cut from a game of Ann and Bob: one of three moves to find (two replies), one of
    // one. Stored before the bot starts; the starter set it imports is taken out afterwards, so
    // that these are the only ones.
    let (long, short) = (puzzle(4, 5), puzzle(10, 1));
    let pool = db::connect(&d.db_url).await.expect("db");
    for m in [&ANN, &BOB] {
        db::upsert_player(&pool, UserId(m.id), m.name, 1)
            .await
            .expect("player");
    }
    let game = db::insert_game(
        &pool,
        &db::NewGame {
            guild_id: Some(db::GuildId(d.guild())),
            channel_id: db::ChannelId(d.channel()),
            options: &Options::parse_line("inphexion size=5").expect("variant"),
            players: [UserId(ANN.id), UserId(BOB.id)],
            rated: true,
            now: 1,
            seconds_per_move: 86_400,
            deadline_at: None,
            clock: None,
        },
    )
    .await
    .expect("game");
    let origin = Origin::Game {
        game,
        players: [UserId(ANN.id), UserId(BOB.id)],
    };
    let mut ids = Vec::new();
    for p in [&long, &short] {
        let id = db::store_puzzle(&pool, p, origin, 1).await.expect("store");
        ids.push(id.expect("a new puzzle"));
    }
    pool.close().await;
    let mut bot = Bot::start(&d).await;
    d.fake.wait_ready(1).await;
    let pool = db::connect(&d.db_url).await.expect("db");
    sqlx::query("DELETE FROM puzzles WHERE origin = 'starter'")
        .execute(&pool)
        .await
        .expect("starter set out");
    pool.close().await;

    // Cat's puzzle: the long one, privately, with its board, source and side to move.
    let first = d.command(&CAT, "puzzle", sub("solve", vec![])).await;
    assert!(first.ephemeral, "{first:?}");
    for want in [
        format!("Puzzle #{}", ids[0]),
        "difficulty 3/5".to_string(),
        format!("from ann vs bob, move {}", 5),
        "to move".to_string(),
        "3 moves to find".to_string(),
    ] {
        assert!(
            first.content.contains(&want),
            "{want:?} in {}",
            first.content
        );
    }
    assert_eq!(first.files.len(), 1);
    assert!(first.files[0].starts_with(b"\x89PNG"));
    let alt = first.raw["attachments"][0]["description"]
        .as_str()
        .unwrap_or("");
    assert!(
        alt.starts_with("Puzzle: inpHeXion, ") && alt.ends_with(" to move"),
        "{alt}"
    );

    // Bob presses Cat's picker: refused privately, nothing changes.
    let before = attempts(&d).await;
    assert_eq!(before, [(CAT.id as i64, "open".to_string(), 0)]);
    let any = components_of(&first.components)
        .find_map(|c| c["custom_id"].as_str())
        .expect("a picker component")
        .to_string();
    assert!(any.starts_with("hx:zpick:"), "{any}");
    let refused = d.press_id(&BOB, &d.shown(&first), &any).await;
    assert!(
        refused.ephemeral && refused.callback_type == 4,
        "{refused:?}"
    );
    assert!(refused.content.contains("another member's"), "{refused:?}");
    assert_eq!(attempts(&d).await, before);

    // Right: the bot replies, and the next position comes with the picker.
    let right = pick(
        &d,
        &CAT,
        &first,
        &at(&long, 0),
        legal(&at(&long, 0), &long.solution[0]),
    )
    .await;
    assert_eq!(right.callback_type, 7, "{right:?}");
    assert!(
        right.content.contains("Right:") && right.content.contains("I reply:"),
        "{right:?}"
    );
    assert_eq!(right.files.len(), 1);
    assert_eq!(attempts(&d).await, [(CAT.id as i64, "open".to_string(), 2)]);
    // The first picker again (an old step): refused, nothing played.
    let old = d.press_id(&CAT, &d.shown(&first), &any).await;
    assert!(old.content.contains("earlier step"), "{old:?}");
    assert_eq!(attempts(&d).await, [(CAT.id as i64, "open".to_string(), 2)]);
    // Asked again meanwhile: the same puzzle, where Cat left it.
    let again = d.command(&CAT, "puzzle", sub("solve", vec![])).await;
    assert!(again.content.contains("where you left it"), "{again:?}");
    let right2 = pick(
        &d,
        &CAT,
        &again,
        &at(&long, 2),
        legal(&at(&long, 2), &long.solution[2]),
    )
    .await;
    assert!(right2.content.contains("Right:"), "{right2:?}");
    let solved = pick(
        &d,
        &CAT,
        &right2,
        &at(&long, 4),
        legal(&at(&long, 4), &long.solution[4]),
    )
    .await;
    assert!(solved.content.contains("**Solved**"), "{solved:?}");
    assert!(
        solved.content.contains("Puzzle rating 1500 → "),
        "{solved:?}"
    );
    assert!(solved.content.contains("streak 1 (best 1)"), "{solved:?}");
    assert_eq!(solved.components, json!([]), "nothing more to press");

    // The short one: a wrong move fails it; the right line is shown in words.
    let second = d.command(&CAT, "puzzle", sub("solve", vec![])).await;
    assert!(
        second.content.contains(&format!("Puzzle #{}", ids[1])),
        "{second:?}"
    );
    let start = at(&short, 0);
    let wrong = wrong_move(&short, 0);
    let failed = pick(&d, &CAT, &second, &start, wrong).await;
    assert!(failed.content.contains("Not this time"), "{failed:?}");
    let right_words =
        hexcord::play::picker::describe_notation(Lang::EN, start.position(), &short.solution[0])
            .expect("the right move");
    assert!(failed.content.contains(&right_words), "{failed:?}");
    assert!(failed.content.contains("streak 0 (best 1)"), "{failed:?}");
    assert_eq!(
        attempts(&d).await,
        [
            (CAT.id as i64, "solved".to_string(), 4),
            (CAT.id as i64, "failed".to_string(), 0)
        ]
    );

    // None left for Cat; the leaderboard shows her.
    let none = d.command(&CAT, "puzzle", sub("solve", vec![])).await;
    assert!(
        none.ephemeral && none.content.contains("tried every puzzle"),
        "{none:?}"
    );
    let table = d.command(&ANN, "puzzle", sub("leaderboard", vec![])).await;
    assert!(!table.ephemeral, "{table:?}");
    let text = table.embeds[0]["description"].as_str().unwrap_or("");
    assert!(text.starts_with(&format!("1. <@{}> **", CAT.id)), "{text}");
    assert!(
        text.contains("1 solved, 1 failed · best streak 1"),
        "{text}"
    );

    // In a chat (Ann installed the app), the chat's own pool: Ann gets a puzzle there, privately,
    // and its table lists her alone, not Cat's results in the server.
    d.enter_chat(&ANN, &[&ANN, &CAT]);
    assert!(d.offered(&ANN, "puzzle"), "/puzzle reaches chats");
    let in_chat = d.command(&ANN, "puzzle", sub("solve", vec![])).await;
    assert!(in_chat.ephemeral, "{in_chat:?}");
    let (id, p) = if in_chat.content.contains(&format!("Puzzle #{}", ids[1])) {
        (ids[1], &short)
    } else {
        (ids[0], &long)
    };
    assert!(
        in_chat.content.contains(&format!("Puzzle #{id}")),
        "{in_chat:?}"
    );
    let answered = pick(&d, &ANN, &in_chat, &at(p, 0), wrong_move(p, 0)).await;
    assert!(answered.content.contains("Not this time"), "{answered:?}");
    let chat_table = d.command(&ANN, "puzzle", sub("leaderboard", vec![])).await;
    let text = chat_table.embeds[0]["description"].as_str().unwrap_or("");
    assert!(text.contains("0 solved, 1 failed"), "{chat_table:?}");
    assert!(
        text.starts_with(&format!("1. <@{}> **", ANN.id)) && !text.contains(&CAT.id.to_string()),
        "{text}"
    );
    let pool = db::connect(&d.db_url).await.expect("db");
    let pools: Vec<i64> =
        sqlx::query_scalar("SELECT guild_id FROM puzzle_attempts WHERE player_id = $1")
            .bind(ANN.id as i64)
            .fetch_all(&pool)
            .await
            .expect("attempts");
    pool.close().await;
    assert_eq!(
        pools,
        [hexcord::play::chats::RATINGS.0 as i64],
        "Ann's attempt is the chat pool's"
    );

    // In Japanese, under its Japanese name: `/パズル 解く` reads Japanese, its picture too.
    d.in_chat(None);
    d.speak("ja");
    let registered = d
        .fake
        .state
        .registered
        .lock()
        .unwrap()
        .get("puzzle")
        .cloned();
    let registered = registered.expect("/puzzle registered");
    assert_eq!(
        registered["name_localizations"]["ja"], "パズル",
        "{registered}"
    );
    let ja = d.command(&BOB, "puzzle", sub("solve", vec![])).await;
    assert!(
        ja.ephemeral && ja.content.contains("パズル #") && ja.content.contains("の手番"),
        "{ja:?}"
    );
    let alt = ja.raw["attachments"][0]["description"]
        .as_str()
        .unwrap_or("");
    assert!(alt.starts_with("パズル：inpHeXion、"), "{alt}");

    d.end(&mut bot, "puzzles end-to-end", started).await;
}
