//! What a member keeps for themselves on a game: private notes (`/note`, and with `/record`
//! after the game), and conditional moves (`/move … if:`). Their author reads them, always
//! privately; the opponent, another member and the channel never do.

use std::time::Instant;

use serde_json::{json, Value};

use crate::common::opt_str;
use crate::discord::{Answer, Bot, Discord, Member, ANN, BOB, CAT};
use crate::server::{Recorded, APP_ID};

/// Every request the bot made whose body holds `needle`, as (method, path, flags).
fn carrying(d: &Discord, needle: &str) -> Vec<(String, String, u64)> {
    d.fake
        .state
        .requests
        .lock()
        .unwrap()
        .iter()
        .filter(|r| {
            r.json
                .as_ref()
                .is_some_and(|j| j.to_string().contains(needle))
        })
        .map(|r| {
            let j = r.json.as_ref().unwrap_or(&Value::Null);
            let flags = j["data"]["flags"]
                .as_u64()
                .or(j["flags"].as_u64())
                .unwrap_or(0);
            (r.method.clone(), r.path.clone(), flags)
        })
        .collect()
}

async fn note_rows(d: &Discord, game: i64) -> Vec<(i64, String)> {
    let pool = hexcord::db::connect(&d.db_url).await.expect("db");
    let rows =
        sqlx::query_as("SELECT user_id, body FROM game_notes WHERE game_id = $1 ORDER BY user_id")
            .bind(game)
            .fetch_all(&pool)
            .await
            .expect("notes");
    pool.close().await;
    rows
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn notes_are_shown_to_their_author_alone() {
    let started = Instant::now();
    let d = Discord::start("notes").await;
    let mut bot = Bot::start(&d).await;
    d.fake.wait_ready(1).await;
    let size5 = json!({"name": "size", "type": 4, "value": 5});
    let ch = d.challenge(&ANN, &BOB, "inphexion", &[size5]).await;
    let game = d.accept(&BOB, &ch).await;
    let id = game.id.to_string();
    const SECRET: &str = "Ann's plan: cut them off at the top";

    // Ann notes a line, then another: each answered to her alone.
    let ans = d
        .command(
            &ANN,
            "note",
            vec![opt_str("game", &id), opt_str("text", SECRET)],
        )
        .await;
    assert!(ans.ephemeral, "{ans:?}");
    assert!(
        ans.content.contains(&format!("Noted on game #{id}")),
        "{ans:?}"
    );
    let ans = d
        .command(
            &ANN,
            "note",
            vec![opt_str("game", &id), opt_str("text", "then the swap")],
        )
        .await;
    assert!(
        ans.ephemeral && ans.content.contains("of 1500 characters"),
        "{ans:?}"
    );
    let shown = d.command(&ANN, "note", vec![opt_str("game", &id)]).await;
    assert!(shown.ephemeral, "{shown:?}");
    assert!(
        shown.content.contains(SECRET) && shown.content.contains("then the swap"),
        "{shown:?}"
    );

    // The opponent sees only their own (none); a member who neither plays nor follows is
    // refused, and keeps notes once following.
    let bob = d.command(&BOB, "note", vec![opt_str("game", &id)]).await;
    assert!(bob.ephemeral && bob.content.contains("no notes"), "{bob:?}");
    assert!(!bob.content.contains("plan"), "{bob:?}");
    d.refused(
        &CAT,
        "note",
        vec![opt_str("game", &id), opt_str("text", "mine")],
        "follow",
    )
    .await;
    let cat = d.command(&CAT, "note", vec![opt_str("game", &id)]).await;
    assert!(cat.ephemeral && cat.content.contains("no notes"), "{cat:?}");
    let follow = d.command(&CAT, "follow", vec![opt_str("game", &id)]).await;
    assert!(follow.ephemeral, "{follow:?}");
    let cat = d
        .command(
            &CAT,
            "note",
            vec![opt_str("game", &id), opt_str("text", "Cat watches")],
        )
        .await;
    assert!(cat.ephemeral && cat.content.contains("Noted"), "{cat:?}");
    let cat = d.command(&CAT, "note", vec![opt_str("game", &id)]).await;
    assert!(
        cat.content.contains("Cat watches") && !cat.content.contains("plan"),
        "{cat:?}"
    );

    // Past the cap: refused with the figures, in English and in Japanese; nothing stored.
    let long = "x".repeat(1000);
    let before = note_rows(&d, game.id).await;
    let ok = d
        .command(
            &BOB,
            "note",
            vec![opt_str("game", &id), opt_str("text", &long)],
        )
        .await;
    assert!(ok.content.contains("1000 of 1500"), "{ok:?}");
    let after_first = note_rows(&d, game.id).await;
    d.refused(
        &BOB,
        "note",
        vec![opt_str("game", &id), opt_str("text", &long)],
        "2001 characters",
    )
    .await;
    d.speak("ja");
    d.refused(
        &BOB,
        "note",
        vec![opt_str("game", &id), opt_str("text", &long)],
        "上限の1500文字",
    )
    .await;
    let ja = d.command(&ANN, "note", vec![opt_str("game", &id)]).await;
    assert!(
        ja.content.contains("非公開メモ") && ja.content.contains(SECRET),
        "{ja:?}"
    );
    d.speak("en-US");
    assert_eq!(note_rows(&d, game.id).await, after_first);
    assert_eq!(after_first.len(), before.len() + 1);

    // The game ends; /record is public, and the caller's notes follow for them alone.
    d.resign(&BOB, &game).await;
    let from = d.fake.request_count();
    let record = d.command(&ANN, "record", vec![opt_str("game", &id)]).await;
    assert!(!record.ephemeral && record.files.len() == 1, "{record:?}");
    assert!(!record.content.contains(SECRET), "{record:?}");
    let hook = format!("/webhooks/{APP_ID}/");
    let (_, follow_up) = d
        .fake
        .wait_for(from, "Ann's notes after the record", |r: &Recorded| {
            r.method == "POST" && r.path.starts_with(&hook)
        })
        .await;
    let body = follow_up.json.clone().unwrap_or(Value::Null);
    assert!(
        body["content"].as_str().is_some_and(|c| c.contains(SECRET)),
        "{body}"
    );
    assert_eq!(
        body["flags"].as_u64().unwrap_or(0) & 64,
        64,
        "private: {body}"
    );
    // Bob's /record carries his notes, not Ann's; Cat's his own.
    let from = d.fake.request_count();
    let record = d.command(&BOB, "record", vec![opt_str("game", &id)]).await;
    assert!(!record.ephemeral, "{record:?}");
    let (_, bobs) = d
        .fake
        .wait_for(from, "Bob's notes after the record", |r: &Recorded| {
            r.method == "POST" && r.path.starts_with(&hook)
        })
        .await;
    let body = bobs.json.clone().unwrap_or(Value::Null);
    assert!(
        body["content"]
            .as_str()
            .is_some_and(|c| c.contains(&long) && !c.contains("plan")),
        "{body}"
    );

    // Wherever the secret went, it went privately to Ann: interaction answers and follow-ups
    // flagged ephemeral, never a message in a channel.
    let sent = carrying(&d, "cut them off");
    assert_eq!(sent.len(), 3, "shown twice and with the record: {sent:?}");
    for (method, path, flags) in &sent {
        assert!(
            method == "POST" && (path.starts_with("/interactions/") || path.starts_with(&hook)),
            "{method} {path}"
        );
        assert_eq!(flags & 64, 64, "not private: {method} {path}");
    }
    d.end(&mut bot, "notes", started).await;
}

/// The legal moves (no swap) of game `id` after `line` from its position now.
async fn legal_after(d: &Discord, id: i64, line: &[&str]) -> Vec<String> {
    let pool = hexcord::db::connect(&d.db_url).await.expect("db");
    let (_, mut game) = hexcord::play::actions::load(&pool, id)
        .await
        .expect("the game");
    pool.close().await;
    for m in line {
        game.play_text(m).expect("a legal line");
    }
    game.legal_notations()
        .into_iter()
        .filter(|m| m != "swap")
        .collect()
}

/// `/move` as `who` in game `id`: `mv`, planned as the reply to `expected` when given.
async fn move_cmd(d: &Discord, who: &Member, id: i64, mv: &str, expected: Option<&str>) -> Answer {
    let mut options = vec![opt_str("move", mv), opt_str("game", &id.to_string())];
    if let Some(e) = expected {
        options.push(opt_str("if", e));
    }
    d.command(who, "move", options).await
}

/// Conditional moves through `/move … if:`: a branch hit (its reply posted at once as a
/// conditional move, board and all), a branch several deep, a branch missed (the author told
/// privately), and a takeback after a conditional reply; the opponent never sees a plan.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn conditional_moves_through_move() {
    let started = Instant::now();
    let d = Discord::start("plans").await;
    let mut bot = Bot::start(&d).await;
    d.fake.wait_ready(1).await;
    let size5 = json!({"name": "size", "type": 4, "value": 5});
    let ch = d.challenge(&ANN, &BOB, "inphexion", &[size5]).await;
    let game = d.accept(&BOB, &ch).await;
    let id = game.id;
    assert_eq!(game.to_move, ANN.id);
    let a = legal_after(&d, id, &[]).await;
    let b1 = legal_after(&d, id, &[&a[0]]).await[0].clone();
    let c = legal_after(&d, id, &[&a[0], &b1]).await;
    // Bob's deeper reply leaves Ann two moves or more (one to miss his next branch with).
    let mut d1 = String::new();
    for m in legal_after(&d, id, &[&a[0], &b1, &c[0]]).await {
        d1 = m.clone();
        if legal_after(&d, id, &[&a[0], &b1, &c[0], &m]).await.len() >= 2 {
            break;
        }
    }

    // Bob plans while Ann is to move: privately; Ann may not (it is her move); a line illegal
    // where it would arise is refused.
    let ans = move_cmd(&d, &BOB, id, &b1, Some(&a[0])).await;
    assert!(ans.ephemeral && ans.content.contains("Planned"), "{ans:?}");
    let deep = format!("{}; {b1}; {}", a[0], c[0]);
    let ans = move_cmd(&d, &BOB, id, &d1, Some(&deep)).await;
    assert!(
        ans.ephemeral && ans.content.contains("1 line planned"),
        "{ans:?}"
    );
    d.refused(
        &ANN,
        "move",
        vec![
            opt_str("move", &b1),
            opt_str("game", &id.to_string()),
            opt_str("if", &a[0]),
        ],
        "your move",
    )
    .await;
    d.refused(
        &BOB,
        "move",
        vec![
            opt_str("move", "z9"),
            opt_str("game", &id.to_string()),
            opt_str("if", &a[0]),
        ],
        "cannot be played",
    )
    .await;

    // A branch hit: Ann's move is answered at once, posted as Bob's conditional move.
    let from = d.fake.request_count();
    let ans = move_cmd(&d, &ANN, id, &a[0], None).await;
    assert!(
        ans.ephemeral && ans.content.contains("You played"),
        "{ans:?}"
    );
    let posted = d.posted(from, None, "conditional move").await;
    assert_eq!(posted.files.len(), 1, "the board with its picture");
    let caption = posted
        .json
        .as_ref()
        .and_then(|j| j["content"].as_str())
        .unwrap_or("");
    assert!(
        caption.contains(&crate::discord::move_marker(2)),
        "{caption}"
    );
    assert_eq!(d.move_count(id).await, 2);
    // Several deep: the next pair of the line.
    let from = d.fake.request_count();
    move_cmd(&d, &ANN, id, &c[0], None).await;
    let posted = d.posted(from, None, "conditional move").await;
    let caption = posted
        .json
        .as_ref()
        .and_then(|j| j["content"].as_str())
        .unwrap_or("");
    assert!(
        caption.contains(&crate::discord::move_marker(4)),
        "{caption}"
    );
    assert_eq!(d.move_count(id).await, 4);

    // A branch missed: Bob's plans are cleared, and he is told by direct message.
    let e = legal_after(&d, id, &[]).await;
    let f = legal_after(&d, id, &[&e[0]]).await[0].clone();
    move_cmd(&d, &BOB, id, &f, Some(&e[0])).await;
    let from = d.fake.request_count();
    move_cmd(&d, &ANN, id, &e[1], None).await;
    d.posted(from, None, "are cleared").await;
    assert_eq!(d.move_count(id).await, 5);

    // A takeback after a conditional reply: Ann's planned reply is taken back with Bob's
    // agreement, and her deeper line goes with it.
    let g = legal_after(&d, id, &[]).await[0].clone();
    let h = legal_after(&d, id, &[&g]).await[0].clone();
    let i = legal_after(&d, id, &[&g, &h]).await[0].clone();
    let j = legal_after(&d, id, &[&g, &h, &i]).await[0].clone();
    let ans = move_cmd(&d, &ANN, id, &j, Some(&format!("{g}; {h}; {i}"))).await;
    assert!(ans.content.contains("Planned"), "{ans:?}");
    let from = d.fake.request_count();
    move_cmd(&d, &BOB, id, &g, None).await;
    d.posted(from, None, "conditional move").await;
    assert_eq!(d.move_count(id).await, 7);
    let ask = d
        .command(&ANN, "takeback", vec![opt_str("game", &id.to_string())])
        .await;
    let ask = crate::discord::Pressable::from_answer(&ask, &d.fake);
    let from = d.fake.request_count();
    d.answer_challenge(&BOB, &ask, "tbyes", "taken back").await;
    d.posted(from, None, "took back move 7").await;
    assert_eq!(d.move_count(id).await, 6);
    let left = crate::common::db_value(
        &d,
        "SELECT COUNT(*) FROM conditional_moves WHERE game_id = $1",
        id,
    )
    .await;
    assert_eq!(left, Some(0), "stale plans cleared");
    // The opponent never saw a plan: each line went only to its author's private answers.
    for line in [
        format!("{} → {b1} → {} → {d1}", a[0], c[0]),
        format!("{g} → {h} → {i} → {j}"),
    ] {
        let sent = carrying(&d, &line);
        assert!(!sent.is_empty(), "{line}");
        for (method, path, flags) in &sent {
            assert!(
                method == "POST" && path.starts_with("/interactions/"),
                "{method} {path}"
            );
            assert_eq!(flags & 64, 64, "not private: {method} {path}");
        }
    }
    let ans = move_cmd(&d, &ANN, id, &h, None).await;
    assert!(ans.content.contains("You played"), "{ans:?}");
    assert_eq!(
        d.move_count(id).await,
        7,
        "played by Ann herself, nothing followed"
    );

    // After the game, the record tells Ann what she still had planned, privately.
    let k = legal_after(&d, id, &[]).await;
    let l = legal_after(&d, id, &[&k[0]]).await[0].clone();
    move_cmd(&d, &ANN, id, &l, Some(&k[0])).await;
    let state = crate::discord::GameState {
        id,
        to_move: BOB.id,
        caption: String::new(),
    };
    d.resign(&BOB, &state).await;
    let from = d.fake.request_count();
    d.command(&ANN, "record", vec![opt_str("game", &id.to_string())])
        .await;
    let hook = format!("/webhooks/{APP_ID}/");
    let (_, follow_up) = d
        .fake
        .wait_for(from, "Ann's plans after the record", |r: &Recorded| {
            r.method == "POST" && r.path.starts_with(&hook)
        })
        .await;
    let body = follow_up.json.clone().unwrap_or(Value::Null);
    let content = body["content"].as_str().unwrap_or("");
    assert!(
        content.contains("conditional moves") && content.contains(&l),
        "{body}"
    );
    assert_eq!(
        body["flags"].as_u64().unwrap_or(0) & 64,
        64,
        "private: {body}"
    );
    d.end(&mut bot, "plans", started).await;
}
