//! End-to-end: the real `hexcord` binary against a fake Discord (tests/fake_discord/server.rs),
//! driven by INTERACTION_CREATE events as Discord sends them, every request checked against
//! Discord's OpenAPI description.

mod discord;
mod recovery;
mod server;
mod spec;

use std::time::Instant;

use discord::{member, parse_state, Bot, Discord, Member, ANN, BOB, CAT, MOD, OTHER_BOT};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::json;

fn opt_str(name: &str, value: &str) -> serde_json::Value {
    json!({"name": name, "type": 3, "value": value})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn inphexion_game_with_restart_race_and_bad_inputs() {
    let started = Instant::now();
    let d = Discord::start("inphexion").await;
    let mut bot = Bot::start(&d).await;
    d.fake.wait_ready(1).await;

    // Help, and commands without a game.
    let help = d.command(&ANN, "help", vec![]).await;
    assert!(
        help.ephemeral && help.content.contains("/challenge"),
        "{help:?}"
    );
    d.refused(&ANN, "move", vec![opt_str("move", "d4")], "no active game")
        .await;
    d.refused_challenge(&ANN, &ANN, "inphexion", &[], "yourself")
        .await;
    d.refused_challenge(&ANN, &OTHER_BOT, "inphexion", &[], "Bots")
        .await;
    d.refused_challenge(
        &ANN,
        &BOB,
        "exxit",
        &[json!({"name": "size", "type": 4, "value": 5})],
        "size",
    )
    .await;

    // A challenge, refused to a stranger, then accepted.
    let ch = d
        .challenge(
            &ANN,
            &BOB,
            "inphexion",
            &[json!({"name": "size", "type": 4, "value": 5})],
        )
        .await;
    d.refused_challenge(
        &ANN,
        &BOB,
        "inphexion",
        &[json!({"name": "size", "type": 4, "value": 5})],
        "already an open",
    )
    .await;
    d.refused_press(&CAT, &ch, "accept", "for <@").await;
    d.refused_press(&ANN, &ch, "accept", "for <@").await;
    let game = d.accept(&BOB, &ch).await;
    assert_eq!(game.to_move, ANN.id, "the challenger moves first");

    // Mistakes: each answered privately, nothing changes.
    d.refused(&BOB, "move", vec![opt_str("move", "a1")], "not your turn")
        .await;
    d.refused(
        &ANN,
        "move",
        vec![opt_str("move", "zz99")],
        "cannot be played",
    )
    .await;
    d.refused(
        &CAT,
        "move",
        vec![opt_str("move", "a1"), opt_str("game", &game.id.to_string())],
        "not yours",
    )
    .await;
    d.refused(
        &ANN,
        "move",
        vec![opt_str("move", "a1"), opt_str("game", "#999")],
        "no game #999",
    )
    .await;
    d.refused(
        &ANN,
        "board",
        vec![json!({"name": "ply", "type": 4, "value": 50})],
        "pick a `ply`",
    )
    .await;
    // `/abort` is shown only to members with Manage Server (0x20); a member who calls it
    // anyway (Discord lets server owners override this) is refused by the bot.
    let (_, registration) = d
        .fake
        .wait_for(0, "the commands' registration", |r| {
            r.method == "PUT" && r.path.ends_with("/commands")
        })
        .await;
    let registered = registration.json.expect("the commands as JSON");
    for command in registered.as_array().expect("a list of commands") {
        let expected = if command["name"] == "abort" || command["name"] == "server" {
            json!(32)
        } else {
            serde_json::Value::Null
        };
        assert_eq!(
            command
                .get("default_member_permissions")
                .cloned()
                .unwrap_or_default(),
            expected,
            "{command}"
        );
    }
    d.refused(
        &CAT,
        "abort",
        vec![opt_str("game", &game.id.to_string())],
        "moderators",
    )
    .await;
    d.refused_press(
        &CAT,
        &discord::Pressable::resign(game.id),
        "resign",
        "not yours",
    )
    .await;

    // A few moves, then two moves at the same moment: exactly one applies.
    let mut state = game.clone();
    for _ in 0..3 {
        state = d.play_suggested(&state).await;
    }
    d.race(&state).await;
    let mut state = d.current(&state).await;

    // A challenge made before a restart is accepted after it.
    let later = d.challenge(&ANN, &CAT, "exxit", &[]).await;
    bot.kill().await;
    let mut bot = Bot::restart(&d, bot).await;
    d.fake.wait_ready(2).await;
    state = d.play_suggested(&state).await;
    let other = d.accept(&CAT, &later).await;

    // Play to the end.
    let finished = d.play_out(state, 400).await;
    d.refused(
        &ANN,
        "move",
        vec![
            opt_str("move", "a1"),
            opt_str("game", &finished.id.to_string()),
        ],
        "is over",
    )
    .await;
    let past = d
        .command(
            &BOB,
            "board",
            vec![
                opt_str("game", &finished.id.to_string()),
                json!({"name": "ply", "type": 4, "value": 1}),
            ],
        )
        .await;
    assert!(!past.ephemeral && past.files.len() == 1, "{past:?}");
    let games = d.command(&ANN, "games", vec![]).await;
    assert!(
        games.ephemeral && games.content.contains(&format!("#{}", other.id)),
        "{games:?}"
    );

    // A moderator aborts the other game; the channel hears of it.
    let from = d.fake.request_count();
    let aborted = d
        .command(&MOD, "abort", vec![opt_str("game", &other.id.to_string())])
        .await;
    assert!(
        aborted.ephemeral && aborted.content.contains("aborted"),
        "{aborted:?}"
    );
    d.posted(from, Some(server::CHANNEL_ID), "was aborted by a moderator")
        .await;
    assert_eq!(d.game_status(other.id).await, "aborted");

    d.end(&mut bot, "inphexion end-to-end", started).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn exxit_games_to_the_end_and_by_resignation() {
    let started = Instant::now();
    let d = Discord::start("exxit").await;
    let mut bot = Bot::start(&d).await;
    d.fake.wait_ready(1).await;

    let rules = d
        .command(
            &CAT,
            "rules",
            vec![json!({"name": "game", "type": 4, "value": 1})],
        )
        .await;
    assert!(
        rules.ephemeral && rules.files.len() == 1 && rules.content.contains("EXXIT"),
        "{rules:?}"
    );

    let tiles19 = json!({"name": "tiles", "type": 4, "value": 2});
    let ch = d
        .challenge(&BOB, &ANN, "exxit", std::slice::from_ref(&tiles19))
        .await;
    d.refused_press(&ANN, &ch, "withdraw", "withdraw").await;
    let game = d.accept(&ANN, &ch).await;
    assert_eq!(game.to_move, BOB.id);
    let finished = d.play_out(game, 400).await;
    assert_eq!(d.game_status(finished.id).await, "finished");

    // Withdrawn and declined challenges.
    let ch = d.challenge(&BOB, &ANN, "exxit", &[]).await;
    d.answer_challenge(&BOB, &ch, "withdraw", "withdrew").await;
    d.refused_press(&ANN, &ch, "accept", "no longer open").await;
    let ch = d.challenge(&BOB, &ANN, "exxit", &[]).await;
    d.answer_challenge(&ANN, &ch, "decline", "declined").await;

    // Resignation with confirmation.
    let ch = d.challenge(&BOB, &ANN, "exxit", &[tiles19]).await;
    let game = d.accept(&ANN, &ch).await;
    let state = d.play_suggested(&game).await;
    d.resign(&ANN, &state).await;
    assert_eq!(d.game_status(state.id).await, "finished");
    assert_eq!(d.winner(state.id).await, Some(BOB.id));

    d.end(&mut bot, "exxit end-to-end", started).await;
}

const DAY: i64 = 24 * 3600;

/// Where `needle` first appears in `text` (panics when missing).
fn at(text: &str, needle: &str) -> usize {
    text.find(needle)
        .unwrap_or_else(|| panic!("`{needle}` not in {text:?}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn correspondence_timeout_reminders_and_leaderboard() {
    let started = Instant::now();
    // The bot reads the time from a file the test moves forward: no real waiting.
    let t0: i64 = 1_900_000_000;
    let d = Discord::start_with_clock("corr", t0).await;
    let mut bot = Bot::start(&d).await;
    d.fake.wait_ready(1).await;
    let size5 = json!({"name": "size", "type": 4, "value": 5});
    let one_day = json!({"name": "days_per_move", "type": 4, "value": 0});
    let inphexion = json!({"name": "game", "type": 4, "value": 0});
    let channel = Some(server::CHANNEL_ID);

    // A rated game with one day per move.
    let ch = d
        .challenge(&ANN, &BOB, "inphexion", &[size5.clone(), one_day.clone()])
        .await;
    assert!(
        ch.message["content"]
            .as_str()
            .is_some_and(|c| c.contains("1 day per move")),
        "{:?}",
        ch.message
    );
    let g1 = d.accept(&BOB, &ch).await;
    let games = d.command(&ANN, "games", vec![]).await;
    assert!(games.content.contains("1 d left"), "{games:?}");
    let turn = d.command(&ANN, "turn", vec![]).await;
    assert!(
        turn.ephemeral && turn.content.contains(&format!("#{}", g1.id)),
        "{turn:?}"
    );
    let turn = d.command(&BOB, "turn", vec![]).await;
    assert!(turn.content.contains("not your move"), "{turn:?}");

    // Half the time gone: Ann is reminded in the channel, once.
    let from = d.fake.request_count();
    d.set_clock(t0 + DAY / 2 + 60);
    let reminder = d.posted(from, channel, "Reminder").await;
    let body = reminder.json.clone().unwrap_or_default();
    assert!(
        body["content"]
            .as_str()
            .is_some_and(|c| c.contains(&format!("<@{}>", ANN.id))),
        "{body}"
    );
    assert_eq!(discord::users_of(&body), [ANN.id]);
    // The reminder shows the board and its Move button.
    assert_eq!(reminder.files.len(), 1, "the board comes with the reminder");
    assert!(
        discord::components_of(&body["components"])
            .any(|c| c["custom_id"] == format!("hx:move:{}", g1.id).as_str()),
        "{body}"
    );

    // The bot is down when the deadline passes; after the restart Ann loses on time, once.
    bot.kill().await;
    d.set_clock(t0 + DAY + 60);
    let from = d.fake.request_count();
    let mut bot = Bot::restart(&d, bot).await;
    let timeout = d.posted(from, channel, "ran out of time").await;
    assert_eq!(timeout.files.len(), 1, "the final board comes with it");
    d.fake.wait_ready(2).await;
    assert_eq!(d.game_status(g1.id).await, "finished");
    assert_eq!(d.winner(g1.id).await, Some(BOB.id));

    // More rated games: Bob and Ann each beat Cat.
    for (winner, loser) in [(&BOB, &CAT), (&ANN, &CAT)] {
        let ch = d
            .challenge(winner, loser, "inphexion", std::slice::from_ref(&size5))
            .await;
        let g = d.accept(loser, &ch).await;
        d.resign(loser, &g).await;
    }
    let timeouts: usize = d
        .fake
        .state
        .requests
        .lock()
        .unwrap()
        .iter()
        .filter(|r| {
            r.is_new_post()
                && r.json.as_ref().is_some_and(|j| {
                    j["content"]
                        .as_str()
                        .is_some_and(|c| c.contains("ran out of time"))
                })
        })
        .count();
    assert_eq!(timeouts, 1, "the loss on time is announced once");
    let reminders_for_ann: usize = d
        .fake
        .state
        .requests
        .lock()
        .unwrap()
        .iter()
        // Messages members saw: a post repeated with the same nonce (the bot was killed right
        // after posting, before marking it sent) is shown once by Discord.
        .filter(|r| {
            r.is_new_post()
                && r.json.as_ref().is_some_and(|j| {
                    j["content"].as_str().is_some_and(|c| {
                        c.contains("Reminder") && c.contains(&format!("<@{}>", ANN.id))
                    })
                })
        })
        .count();
    assert_eq!(
        reminders_for_ann, 1,
        "no reminder twice, none after the end"
    );

    // The table: Bob (2 wins), Ann (1–1), Cat (2 losses), all provisional.
    let lb = d
        .command(&CAT, "leaderboard", vec![inphexion.clone()])
        .await;
    assert!(!lb.ephemeral, "{lb:?}");
    let table = lb.embeds[0]["description"]
        .as_str()
        .unwrap_or("")
        .to_string();
    let (b, a, c) = (
        at(&table, &format!("<@{}>", BOB.id)),
        at(&table, &format!("<@{}>", ANN.id)),
        at(&table, &format!("<@{}>", CAT.id)),
    );
    assert!(b < a && a < c, "{table}");
    assert!(
        table.starts_with("1. ") && table.contains("(provisional)"),
        "{table}"
    );
    d.refused(
        &CAT,
        "leaderboard",
        vec![
            inphexion.clone(),
            json!({"name": "page", "type": 4, "value": 2}),
        ],
        "pick a `page`",
    )
    .await;
    let profile = d.command(&BOB, "profile", vec![]).await;
    let shown = profile.embeds.to_string();
    assert!(
        shown.contains("2 won") && shown.contains("provisional"),
        "{shown}"
    );

    // The finished game: its record, its replay, a past position.
    let suggested = d
        .autocomplete(
            &ANN,
            "record",
            vec![json!({"name": "game", "type": 3, "value": "", "focused": true})],
        )
        .await;
    assert!(suggested.contains(&g1.id.to_string()), "{suggested:?}");
    let g1_ref = opt_str("game", &g1.id.to_string());
    let rec = d.command(&ANN, "record", vec![g1_ref.clone()]).await;
    assert!(
        rec.files.len() == 1 && rec.files[0].starts_with(b"inphexion size=5\n"),
        "{rec:?}"
    );
    let rep = d.command(&ANN, "replay", vec![g1_ref.clone()]).await;
    assert!(rep.files.len() == 1 && rep.files[0].starts_with(b"GIF8"));
    let past = d
        .command(
            &CAT,
            "board",
            vec![g1_ref, json!({"name": "ply", "type": 4, "value": 0})],
        )
        .await;
    assert!(!past.ephemeral && past.files.len() == 1, "{past:?}");

    // Cat wants to hear of their turn (and reminders) both in the channel and by direct
    // message; Bob's vacation is refused beyond the limit.
    let set = d
        .command(
            &CAT,
            "settings",
            vec![json!({"name": "notify", "type": 4, "value": 2})],
        )
        .await;
    assert!(set.ephemeral && set.content.contains("Saved"), "{set:?}");
    d.refused(
        &BOB,
        "vacation",
        vec![json!({"name": "days", "type": 4, "value": 40})],
        "vacation",
    )
    .await;
    let away = d
        .command(
            &BOB,
            "vacation",
            vec![json!({"name": "days", "type": 4, "value": 2})],
        )
        .await;
    assert!(
        away.ephemeral
            && away.content.contains("Enjoy")
            && away.content.contains("left in the next 365 days: 28"),
        "{away:?}"
    );
    d.refused(
        &BOB,
        "vacation",
        vec![json!({"name": "days", "type": 4, "value": 1})],
        "already on vacation",
    )
    .await;
    let unrated = json!({"name": "rated", "type": 5, "value": false});
    let ch = d
        .challenge(&CAT, &BOB, "inphexion", &[size5, one_day, unrated])
        .await;
    let from = d.fake.request_count();
    let g4 = d.accept(&BOB, &ch).await;
    assert_eq!(g4.to_move, CAT.id);
    let fake = &d.fake;
    let direct = |needle: &'static str| {
        move |r: &server::Recorded| {
            r.is_new_post()
                && !fake.in_channel(&r.path, server::CHANNEL_ID)
                && r.json
                    .as_ref()
                    .is_some_and(|j| j["content"].as_str().is_some_and(|c| c.contains(needle)))
        }
    };
    let (_, turn) = d
        .fake
        .wait_for(
            from,
            "Cat's turn by direct message",
            direct("your move in game #"),
        )
        .await;
    assert_eq!(
        turn.files.len(),
        1,
        "the board comes with the direct message"
    );
    let body = turn.json.unwrap_or_default();
    assert!(
        discord::components_of(&body["components"]).any(|c| c["label"] == "Move"),
        "{body}"
    );
    let open = d.challenge(&ANN, &BOB, "exxit", &[]).await;
    let from = d.fake.request_count();
    d.set_clock(t0 + DAY + 60 + DAY / 2 + 120);
    d.fake
        .wait_for(from, "a reminder by direct message", direct("Reminder"))
        .await;
    d.posted(from, channel, "Reminder").await;
    assert!(d
        .fake
        .state
        .requests
        .lock()
        .unwrap()
        .iter()
        .skip(from)
        .any(|r| r.method == "POST" && r.path == "/users/@me/channels"));

    // A day later: the unanswered challenge has expired (its buttons are gone) and Cat lost
    // the unrated game on time, which leaves the table alone.
    let from = d.fake.request_count();
    d.set_clock(t0 + 3 * DAY);
    let (_, edit) = d
        .fake
        .wait_for(from, "the expired challenge", |r| {
            r.method == "PATCH"
                && r.path.starts_with("/channels/")
                && r.json
                    .as_ref()
                    .is_some_and(|j| j["content"].as_str().is_some_and(|c| c.contains("expired")))
        })
        .await;
    assert_eq!(edit.json.unwrap_or_default()["components"], json!([]));
    d.posted(from, channel, "ran out of time").await;
    assert_eq!(d.winner(g4.id).await, Some(BOB.id));
    d.refused_press(&BOB, &open, "accept", "no longer open")
        .await;
    let lb2 = d.command(&CAT, "leaderboard", vec![inphexion]).await;
    assert_eq!(lb2.embeds[0]["description"].as_str(), Some(table.as_str()));

    d.end(&mut bot, "correspondence end-to-end", started).await;
}

/// The bot's own account, as a member would pick it as `opponent`.
const HEXCORD: Member = Member {
    id: server::BOT_ID,
    name: "hexcord",
    bot: true,
    permissions: discord::MEMBER_PERMS,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_against_the_bot() {
    let d = Discord::start("versus-bot").await;
    let mut bot = Bot::start(&d).await;
    d.fake.wait_ready(1).await;

    // Challenging the bot's account points to `/play`.
    d.refused_challenge(&ANN, &HEXCORD, "inphexion", &[], "/play")
        .await;

    // Ann moves first on a 5×5 board against `easy`; the bot answers each move on its own.
    let size = json!({"name": "size", "type": 4, "value": 5});
    let mut state = d.play_bot(&ANN, "inphexion", 0, &[size]).await;
    assert_eq!(state.to_move, ANN.id, "the member moves first by default");
    let id = state.id;
    for _ in 0..40 {
        let from = d.fake.request_count();
        state = d.play_suggested(&state).await;
        if state.caption.contains("Game over") {
            break;
        }
        assert_eq!(state.to_move, server::BOT_ID, "{state:?}");
        // While the bot thinks (or right after), it is not Ann's turn.
        state = d.bot_move(from, &state).await;
        if state.caption.contains("Game over") {
            break;
        }
        assert_eq!(state.to_move, ANN.id, "{state:?}");
    }
    assert!(state.caption.contains("Game over"), "{state:?}");
    assert_ne!(d.game_status(id).await, "active");

    // An EXXIT game where the bot moves first, interrupted by a restart before its first
    // move can be seen: after the restart the bot resumes and plays it.
    let from = d.fake.request_count();
    let first = json!({"name": "first", "type": 5, "value": false});
    let tiles = json!({"name": "tiles", "type": 4, "value": 2});
    let started = d.play_bot(&BOB, "exxit", 1, &[first, tiles]).await;
    assert_eq!(started.to_move, server::BOT_ID, "{started:?}");
    let after_first = d.bot_move(from, &started).await;
    assert_eq!(after_first.to_move, BOB.id, "{after_first:?}");
    // The bot stops, and Bob's move is stored while it is down (as when the bot stops right
    // after storing a move): after the restart the bot finds its turn and plays.
    bot.kill().await;
    move_without_the_bot(&d, after_first.id, &BOB).await;
    let from = d.fake.request_count();
    let bot = Bot::restart(&d, bot).await;
    d.fake.wait_ready(2).await;
    // Bob's board, queued while the bot was down, is posted after the restart.
    d.board_post(from, after_first.id, 2).await;
    let resumed = d.bot_move(from, &after_first).await;
    assert_eq!(resumed.to_move, BOB.id, "{resumed:?}");
    assert_eq!(d.move_count(after_first.id).await, 3);

    // Games against the bot are unrated and have no clock.
    let pool = hexcord::db::connect(&d.db_url).await.expect("db");
    let rows: Vec<(i64, Option<i64>)> =
        sqlx::query_as("SELECT rated, deadline_at FROM games ORDER BY id")
            .fetch_all(&pool)
            .await
            .expect("games");
    pool.close().await;
    assert!(rows.iter().all(|r| *r == (0, None)), "{rows:?}");

    assert!(d.fake.violations().is_empty(), "{:#?}", d.fake.violations());
    assert!(d.log_problems().is_empty(), "{:#?}", d.log_problems());
    drop(bot);
}

/// Members who only receive challenges (the flood below).
fn guest(i: u64) -> Member {
    Member {
        id: 960_000_000_000_000_000 + i,
        name: "guest",
        bot: false,
        permissions: discord::MEMBER_PERMS,
    }
}

/// The board posts of move `ply` of `game` that members saw (new posts, not repeated nonces).
fn boards_seen(d: &Discord, game: i64, ply: i64) -> usize {
    posts_with(d, &[&format!("game #{game} "), &format!("(move {ply})")])
}

async fn db_value(d: &Discord, sql: &'static str, id: i64) -> Option<i64> {
    let pool = hexcord::db::connect(&d.db_url).await.expect("db");
    let v = sqlx::query_scalar(sql)
        .bind(id)
        .fetch_one(&pool)
        .await
        .expect("query");
    pool.close().await;
    v
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn faults_are_survived() {
    use server::Fault;
    use std::time::Duration;
    let started = Instant::now();
    let t0: i64 = 1_900_000_000;
    let d = Discord::start_with_clock("faults", t0).await;
    let mut bot = Bot::start(&d).await;
    d.fake.wait_ready(1).await;
    // Faults of the channel itself: games here are played in the channel.
    let off = d
        .command(
            &MOD,
            "server",
            vec![json!({"name": "threads", "type": 4, "value": 1})],
        )
        .await;
    assert!(off.ephemeral && off.content.contains("off"), "{off:?}");
    let posts = format!("/channels/{}/messages", server::CHANNEL_ID);
    let channel = Some(server::CHANNEL_ID);
    let size5 = json!({"name": "size", "type": 4, "value": 5});
    let one_day = json!({"name": "days_per_move", "type": 4, "value": 0});

    // Buttons the bot does not know, or whose challenge is gone: a private answer each.
    for (verb, custom, needle) in [
        ("teleport", "hx:teleport:3", "no longer valid"),
        ("other", "another-bot:7", "no longer valid"),
        ("accept", "hx:accept:999", "does not exist"),
        ("resign", "hx:resign:999", "no game #999"),
    ] {
        d.refused_press(
            &ANN,
            &discord::Pressable::button(verb, custom),
            verb,
            needle,
        )
        .await;
    }

    // A flood of challenges: ten stay open, the next is refused; one per pair and game.
    for i in 0..10 {
        d.challenge(&CAT, &guest(i), "exxit", &[]).await;
    }
    d.refused_challenge(&CAT, &guest(10), "exxit", &[], "10 open challenges")
        .await;
    d.refused_challenge(&guest(3), &CAT, "exxit", &[], "already an open")
        .await;

    let ch = d
        .challenge(&ANN, &BOB, "inphexion", &[size5.clone(), one_day.clone()])
        .await;
    let g1 = d.accept(&BOB, &ch).await;
    let ch = d
        .challenge(&ANN, &MOD, "inphexion", &[size5.clone(), one_day.clone()])
        .await;
    let g2 = d.accept(&MOD, &ch).await;

    // Rate limited (429 with retry_after): the board goes through after the wait.
    d.fake.inject(Fault {
        method: "POST",
        path: posts.clone(),
        status: 429,
        body: json!({"message": "You are being rate limited.", "retry_after": 1.0, "global": false}),
        retry_after: Some(1.0),
        times: 1,
        delay: Duration::ZERO,
    });
    let from = d.fake.request_count();
    let s1 = d.play_suggested(&g1).await;
    {
        let reqs = d.fake.state.requests.lock().unwrap();
        let limited = reqs[from..]
            .iter()
            .find(|r| r.status == 429)
            .expect("the post was rate limited");
        let board = reqs[from..]
            .iter()
            .find(|r| r.is_new_post() && r.path == posts)
            .expect("the board");
        assert!(
            board.at.duration_since(limited.at) >= Duration::from_millis(900),
            "the post waited for retry_after"
        );
    }

    // Posts refused (403 Missing Permissions): both players are told by direct message, with
    // the board and what is missing where; `/games` marks the game.
    d.fake.inject(Fault::missing_permissions(posts.clone(), 1));
    let from = d.fake.request_count();
    let ply = d.send_suggested(&s1).await;
    let told = |r: &server::Recorded| {
        r.is_new_post()
            && r.path != posts
            && r.files.len() == 1
            && r.json.as_ref().is_some_and(|j| {
                j["content"].as_str().is_some_and(|c| {
                    c.contains("Missing Permissions") && c.contains(&format!("(move {ply})"))
                })
            })
    };
    let wait = Instant::now();
    while d.fake.state.requests.lock().unwrap()[from..]
        .iter()
        .filter(|r| told(r))
        .count()
        < 2
    {
        assert!(
            wait.elapsed() < Duration::from_secs(30),
            "both players are told by direct message"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let dms = d
        .fake
        .state
        .requests
        .lock()
        .unwrap()
        .iter()
        .skip(from)
        .filter(|r| r.method == "POST" && r.path == "/users/@me/channels")
        .count();
    assert_eq!(dms, 2, "each player is told");
    let listed = d.command(&ANN, "games", vec![]).await;
    assert!(
        listed.content.contains("⚠️") && listed.content.contains("Send Messages"),
        "{listed:?}"
    );
    let s1 = d.current(&s1).await;
    let s1 = d.play_suggested(&s1).await;
    // The mark goes once a board is posted there again (stored just after the post).
    let wait = Instant::now();
    loop {
        let listed = d.command(&ANN, "games", vec![]).await;
        if !listed.content.contains("⚠️") {
            break;
        }
        assert!(
            wait.elapsed() < Duration::from_secs(10),
            "posting works again: {listed:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    // kill -9 between a move's commit and its board post: after the restart the board is
    // posted exactly once.
    d.fake.inject(Fault {
        method: "POST",
        path: posts.clone(),
        status: 500,
        body: json!({"message": "held", "code": 0}),
        retry_after: None,
        times: 1,
        delay: Duration::from_secs(60),
    });
    let ply = d.send_suggested(&s1).await;
    let wait = Instant::now();
    while d.fake.state.held.load(std::sync::atomic::Ordering::SeqCst) == 0 {
        assert!(
            wait.elapsed() < Duration::from_secs(20),
            "the board post was sent"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    bot.kill().await;
    let from = d.fake.request_count();
    let mut bot = Bot::restart(&d, bot).await;
    let post = d.board_post(from, s1.id, ply).await;
    let s1 = discord::parse_state(
        post.json.unwrap_or_default()["content"]
            .as_str()
            .unwrap_or(""),
    );
    assert_eq!(boards_seen(&d, s1.id, ply), 1, "posted exactly once");
    d.fake.wait_ready(2).await;

    // A full disk, then space back: the bot recovers without a restart.
    bot.limit_file_size(Some(1));
    let who = discord::member(s1.to_move);
    let game_ref = opt_str("game", &s1.id.to_string());
    let mut focused = opt_str("move", "");
    focused["focused"] = json!(true);
    let choices = d
        .autocomplete(who, "move", vec![focused, game_ref.clone()])
        .await;
    let stored = d.move_count(s1.id).await;
    let refused = d
        .command(who, "move", vec![opt_str("move", &choices[0]), game_ref])
        .await;
    assert!(
        refused.ephemeral && refused.content.contains("Sorry, something went wrong"),
        "the write fails: {refused:?}"
    );
    assert_eq!(d.move_count(s1.id).await, stored, "nothing was stored");
    bot.limit_file_size(None);
    let s1 = d.play_suggested(&s1).await;
    assert_eq!(d.move_count(s1.id).await, stored + 1);

    // One garbled row (text where a number belongs): the other games still remind and time
    // out, and listings leave it out.
    let pool = hexcord::db::connect(&d.db_url).await.expect("db");
    sqlx::query("UPDATE games SET version = 'garbled' WHERE id = $1")
        .bind(g2.id)
        .execute(&pool)
        .await
        .expect("garble");
    pool.close().await;
    let listed = d.command(&MOD, "games", vec![]).await;
    assert!(
        listed.ephemeral && listed.content.contains("no active game"),
        "{listed:?}"
    );
    let deadline = db_value(&d, "SELECT deadline_at FROM games WHERE id = $1", s1.id)
        .await
        .expect("a deadline");
    let from = d.fake.request_count();
    d.set_clock(deadline - DAY / 4);
    d.posted(from, channel, "Reminder").await;

    // `/vacation` once the deadline has passed (the timer not yet run): the deadline stays,
    // and the game is lost on time.
    bot.kill().await;
    let mut bot = Bot::start_with(&d, &[("TIMER_INTERVAL_MS", "3600000")]).await;
    d.fake.wait_ready(3).await;
    // The timer's first scan runs at start (before the deadline); the next is an hour away.
    tokio::time::sleep(Duration::from_secs(2)).await;
    d.set_clock(deadline + 5);
    let who = discord::member(s1.to_move);
    let v = d
        .command(
            who,
            "vacation",
            vec![json!({"name": "days", "type": 4, "value": 3})],
        )
        .await;
    assert!(v.content.contains("0 games waiting"), "{v:?}");
    assert_eq!(
        db_value(&d, "SELECT deadline_at FROM games WHERE id = $1", s1.id).await,
        Some(deadline)
    );
    bot.kill().await;
    let from = d.fake.request_count();
    let mut bot = Bot::start(&d).await;
    d.posted(from, channel, "ran out of time").await;
    assert_eq!(d.game_status(s1.id).await, "finished");
    d.fake.wait_ready(4).await;

    // Four `/vacation 30` at once: one is taken, the yearly cap holds.
    let events: Vec<(String, serde_json::Value)> = (0..4)
        .map(|_| {
            let data = d.command_data(
                "vacation",
                vec![json!({"name": "days", "type": 4, "value": 30})],
                &[],
            );
            d.interaction(2, &CAT, data, None)
        })
        .collect();
    let from = d.fake.request_count();
    for (_, e) in &events {
        d.fake.dispatch("INTERACTION_CREATE", e.clone());
    }
    let mut taken = 0;
    for (token, _) in &events {
        let cb = format!("/{token}/callback");
        let (_, r) = d
            .fake
            .wait_for(from, "a vacation's answer", |r| r.path.ends_with(&cb))
            .await;
        let text = r.json.unwrap_or_default()["data"]["content"]
            .as_str()
            .unwrap_or("")
            .to_string();
        if text.contains("Enjoy") {
            taken += 1;
        } else {
            assert!(text.contains("vacation"), "{text}");
        }
    }
    assert_eq!(taken, 1);
    assert_eq!(
        db_value(
            &d,
            "SELECT SUM(ends_at - starts_at) FROM vacations WHERE player_id = $1",
            CAT.id as i64
        )
        .await,
        Some(30 * DAY)
    );

    bot.kill().await;
    let v = d.fake.violations();
    assert!(v.is_empty(), "requests that break Discord's spec: {v:#?}");
    eprintln!("faults end-to-end took {:?}", started.elapsed());
}

/// `who` takes the first choice a picker answer offers (its menu's first option, else its first
/// button).
async fn choose_first(d: &Discord, who: &Member, ans: &discord::Answer) -> discord::Answer {
    let shown = d.shown(ans);
    let parts: Vec<serde_json::Value> = discord::components_of(&ans.components).cloned().collect();
    let id = |c: &serde_json::Value| c["custom_id"].as_str().unwrap_or("").to_string();
    match parts.iter().find(|c| c["type"] == 3) {
        Some(menu) => {
            let value = menu["options"][0]["value"].as_str().unwrap_or("");
            d.select(who, &shown, &id(menu), value).await
        }
        None => {
            let button = parts.first().expect("a choice");
            d.press_id(who, &shown, &id(button)).await
        }
    }
}

/// A test on a move's notation and words.
type MoveTest = dyn Fn(&str, &str) -> bool;

/// A move for the picker games: the kinds of move the picker must handle come first (swap,
/// relocations, expansions with a chain, any expansion), each most of the time, else any move.
fn interesting_move(game: &hexcord::games::Game, rng: &mut SmallRng) -> hexcord::games::Move {
    use hexcord::play::picker::describe;
    let moves = game.legal_moves();
    let words: Vec<String> = moves
        .iter()
        .map(|m| describe(hexcord::i18n::Lang::EN, game.position(), m))
        .collect();
    let kinds: [&MoveTest; 4] = [
        &|n, _| n == "swap",
        &|n, _| n.contains('>'),
        &|_, w| w.contains("chain"),
        &|n, _| n.starts_with('+'),
    ];
    for kind in kinds {
        let set: Vec<usize> = (0..moves.len())
            .filter(|&i| kind(&moves[i].to_string(), &words[i]))
            .collect();
        if !set.is_empty() && rng.random_bool(0.7) {
            return moves[set[rng.random_range(0..set.len())]];
        }
    }
    moves[rng.random_range(0..moves.len())]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_played_with_the_move_button() {
    let started = Instant::now();
    let d = Discord::start("picker").await;
    let mut bot = Bot::start(&d).await;
    d.fake.wait_ready(1).await;
    let pool = hexcord::db::connect(&d.db_url).await.expect("db");
    let pie = json!({"name": "pie", "type": 5, "value": true});
    let games = [
        (
            "inphexion",
            json!({"name": "size", "type": 4, "value": 7}),
            0,
        ),
        ("exxit", json!({"name": "tiles", "type": 4, "value": 2}), 0),
    ];
    for (kind, size, seed) in games {
        let ch = d.challenge(&ANN, &BOB, kind, &[size, pie.clone()]).await;
        let first = d.accept(&BOB, &ch).await;
        let mut board = d.last_board(first.id);
        // Cat follows the inpHeXion game; the EXXIT one she follows and then stops following.
        let game_ref = json!({"name": "game", "type": 3, "value": first.id.to_string()});
        let follow = d.command(&CAT, "follow", vec![game_ref]).await;
        assert!(
            follow.ephemeral && follow.content.contains("You follow"),
            "{follow:?}"
        );
        if kind == "exxit" {
            // Stopped with the board's Follow button.
            let button = discord::components_of(&board["components"])
                .find(|c| c["label"] == "Follow")
                .and_then(|c| c["custom_id"].as_str())
                .unwrap_or_default()
                .to_string();
            let stop = d.press_id(&CAT, &d.shown_post(&board), &button).await;
            assert!(
                stop.ephemeral && stop.content.contains("no longer follow"),
                "{stop:?}"
            );
        }
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut seen: Vec<(String, String)> = Vec::new();
        let mut stale = None;
        loop {
            let mut conn = pool.acquire().await.expect("connection");
            let (_, game) = hexcord::db::load_game(&mut conn, first.id)
                .await
                .expect("the game loads")
                .expect("the game exists");
            drop(conn);
            // Every board carries its picture's description.
            let alt = board["attachments"][0]["description"]
                .as_str()
                .unwrap_or("");
            assert!(alt.contains(&format!("game #{}", first.id)), "{board}");
            if game.is_over() {
                let labels: Vec<&str> = discord::components_of(&board["components"])
                    .filter_map(|c| c["label"].as_str())
                    .collect();
                assert_eq!(labels, ["Rematch"], "the final board: {board}");
                let cat = format!("<@{}>", CAT.id);
                let followed = board["content"]
                    .as_str()
                    .unwrap_or("")
                    .contains(&format!("Following: {cat}"));
                assert_eq!(followed, kind == "inphexion", "{board}");
                assert_eq!(
                    discord::users_of(&board).contains(&CAT.id),
                    followed,
                    "{board}"
                );
                // A stranger cannot ask for it; a player offers the other the colours swapped.
                let rematch = discord::components_of(&board["components"])
                    .find_map(|c| c["custom_id"].as_str())
                    .unwrap_or_default()
                    .to_string();
                let shown = d.shown_post(&board);
                let stranger = d.press_id(&CAT, &shown, &rematch).await;
                assert!(
                    stranger.ephemeral && stranger.content.contains("Only the players"),
                    "{stranger:?}"
                );
                let offer = d.press_id(&ANN, &shown, &rematch).await;
                assert!(
                    !offer.ephemeral && offer.content.contains("rematch"),
                    "{offer:?}"
                );
                assert!(offer.allowed_users.contains(&BOB.id), "{offer:?}");
                let again = d.press_id(&ANN, &shown, &rematch).await;
                assert!(
                    again.content.contains("already an open"),
                    "one offer at a time: {again:?}"
                );
                let offer = discord::Pressable::from_answer(&offer, &d.fake);
                if kind == "inphexion" {
                    d.answer_challenge(&BOB, &offer, "decline", "declined")
                        .await;
                } else {
                    // Ann sat first: in the rematch Bob moves first.
                    let next = d.accept(&BOB, &offer).await;
                    assert_eq!(next.to_move, BOB.id, "{next:?}");
                }
                break;
            }
            let state = parse_state(board["content"].as_str().unwrap_or(""));
            let mover = member(state.to_move);
            let waiting = if mover.id == ANN.id { &BOB } else { &ANN };
            if game.ply() == 1 {
                // The waiting player and a stranger get a short private answer.
                let not_now = d.press_move(waiting, &board).await;
                assert!(
                    not_now.ephemeral && not_now.content.contains("not yours"),
                    "{not_now:?}"
                );
                let stranger = d.press_move(&CAT, &board).await;
                assert!(
                    stranger.ephemeral && stranger.content.contains("/challenge"),
                    "{stranger:?}"
                );
            }
            // A picker opened before the third move is used only after the fourth: it plays
            // nothing and offers a fresh one.
            if game.ply() == 2 {
                stale = Some(d.press_move(mover, &board).await);
            }
            if game.ply() == 4 {
                let old = stale.take().expect("the picker opened before move 3");
                let late = choose_first(&d, mover, &old).await;
                assert!(
                    late.content.contains("has changed")
                        && late.content.contains("Nothing was played"),
                    "{late:?}"
                );
                let parts: Vec<serde_json::Value> =
                    discord::components_of(&late.components).cloned().collect();
                let fresh = parts
                    .iter()
                    .find(|c| c["label"] == "Fresh picker")
                    .expect("a fresh picker");
                let again = d
                    .press_id(
                        mover,
                        &d.shown(&late),
                        fresh["custom_id"].as_str().unwrap_or(""),
                    )
                    .await;
                assert!(again.content.contains("your move"), "{again:?}");
                assert_eq!(
                    d.move_count(first.id).await,
                    4,
                    "the stale picker played nothing"
                );
                // The other player pressing in this picker (a forged press) changes nothing.
                let forged = choose_first(&d, waiting, &again).await;
                assert!(forged.content.contains("not yours"), "{forged:?}");
            }
            let mv = interesting_move(&game, &mut rng);
            let steps = hexcord::play::picker::steps(game.position(), &mv);
            seen.push((
                mv.to_string(),
                hexcord::play::picker::describe(hexcord::i18n::Lang::EN, game.position(), &mv),
            ));
            let from = d.fake.request_count();
            let played = d.pick_move(mover, &board, &steps).await;
            assert!(
                played.content.contains("You played")
                    && played.content.contains(&format!("`{mv}`")),
                "{played:?}"
            );
            board = d
                .board_post(from, first.id, game.ply() as i64 + 1)
                .await
                .json
                .expect("a board body");
        }
        let has = |f: &dyn Fn(&(String, String)) -> bool| seen.iter().any(f);
        if kind == "inphexion" {
            assert!(has(&|(n, _)| n == "swap"), "{seen:?}");
            assert!(has(&|(n, _)| n.contains('>')), "a relocation: {seen:?}");
            assert!(
                has(&|(n, _)| n.contains('-') && !n.contains('>')),
                "{seen:?}"
            );
        } else {
            for needle in [
                "Swap",
                "Pass",
                "Dance",
                "falls into space",
                "Lay a tile",
                "by chain",
                "Place a disc",
            ] {
                assert!(
                    has(&|(_, w)| w.contains(needle)),
                    "no `{needle}` in {seen:?}"
                );
            }
        }
        eprintln!("{kind}: {} moves played with the picker", seen.len());
    }
    pool.close().await;

    // Two games in one channel: `/move` suggests, in words, the moves of every game where it is
    // the caller's turn, each with its number; the waiting player is told whose turn it is.
    let five = json!({"name": "size", "type": 4, "value": 5});
    let ch = d.challenge(&CAT, &ANN, "inphexion", &[five]).await;
    let one = d.accept(&ANN, &ch).await;
    let ch = d.challenge(&CAT, &BOB, "exxit", &[]).await;
    let two = d.accept(&BOB, &ch).await;
    let cat_first = |g: &discord::GameState| g.to_move == CAT.id;
    assert!(
        cat_first(&one) && cat_first(&two),
        "the challenger starts: {one:?} {two:?}"
    );
    let empty = json!({"name": "move", "type": 3, "value": "", "focused": true});
    let both = d
        .autocomplete_choices(&CAT, "move", vec![empty.clone()])
        .await;
    for g in [one.id, two.id] {
        let tag = format!("#{g} · ");
        assert!(
            both.iter()
                .any(|(label, value)| label.starts_with(&tag)
                    && value.starts_with(&format!("#{g} "))),
            "game #{g} in {both:?}"
        );
    }
    assert!(
        both.iter()
            .any(|(label, _)| label.contains("Place a disc on ")),
        "{both:?}"
    );
    let (label, value) = both
        .iter()
        .find(|(_, v)| v.starts_with(&format!("#{} ", two.id)))
        .cloned()
        .expect("an EXXIT suggestion");
    let played = d.command(&CAT, "move", vec![opt_str("move", &value)]).await;
    assert!(
        played.content.contains(&format!("game #{}", two.id)),
        "{label} → {played:?}"
    );
    assert_eq!(d.move_count(two.id).await, 1);
    // Cat takes it back with Bob's agreement: the board before it is posted again.
    let game_two = json!({"name": "game", "type": 3, "value": two.id.to_string()});
    d.refused(&BOB, "takeback", vec![game_two.clone()], "your turn")
        .await;
    let ask = d.command(&CAT, "takeback", vec![game_two]).await;
    assert!(
        !ask.ephemeral && ask.allowed_users.contains(&BOB.id),
        "{ask:?}"
    );
    let ask = discord::Pressable::from_answer(&ask, &d.fake);
    d.refused_press(&CAT, &ask, "tbyes", "Only").await;
    let from = d.fake.request_count();
    d.answer_challenge(&BOB, &ask, "tbyes", "taken back").await;
    d.posted(from, Some(server::CHANNEL_ID), "took back move 1")
        .await;
    assert_eq!(d.move_count(two.id).await, 0);
    // Ann and Cat call off game one by agreement: no result.
    let game_one = json!({"name": "game", "type": 3, "value": one.id.to_string()});
    let offer = d.command(&ANN, "calloff", vec![game_one]).await;
    assert!(
        !offer.ephemeral && offer.allowed_users.contains(&CAT.id),
        "{offer:?}"
    );
    let offer = discord::Pressable::from_answer(&offer, &d.fake);
    d.refused_press(&ANN, &offer, "offyes", "Only").await;
    d.answer_challenge(&CAT, &offer, "offyes", "called off")
        .await;
    assert_eq!(d.game_status(one.id).await, "aborted");
    let waiting = d.autocomplete_choices(&ANN, "move", vec![empty]).await;
    assert_eq!(waiting.len(), 1, "{waiting:?}");
    assert!(waiting[0].0.starts_with("Not your turn"), "{waiting:?}");
    d.refused(
        &ANN,
        "move",
        vec![opt_str("move", &waiting[0].1)],
        "not your turn",
    )
    .await;

    d.end(&mut bot, "picker end-to-end", started).await;
}

/// The new posts (not repeated nonces) in exactly `channel` from request `from` on: their bodies.
fn posts_in(d: &Discord, from: usize, channel: u64) -> Vec<serde_json::Value> {
    let path = format!("/channels/{channel}/messages");
    d.fake.state.requests.lock().unwrap()[from..]
        .iter()
        .filter(|r| r.is_new_post() && r.path == path)
        .filter_map(|r| r.json.clone())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thread_for_each_game() {
    let started = Instant::now();
    let d = Discord::start("threads").await;
    let mut bot = Bot::start(&d).await;
    d.fake.wait_ready(1).await;
    let channel = server::CHANNEL_ID;
    let size4 = json!({"name": "size", "type": 4, "value": 4});

    // Accepted, the game gets a public thread started from the challenge message, named after
    // the game, with both players in it; its first board goes there.
    let ch = d
        .challenge(&ANN, &BOB, "inphexion", std::slice::from_ref(&size4))
        .await;
    // (The bot stores the challenge message's id just after showing it; a member cannot press
    // that fast.)
    for _ in 0..100 {
        let stored = "SELECT count(*) FROM challenges WHERE id = $1 AND message_id IS NOT NULL";
        if db_value(&d, stored, 1).await == Some(1) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let from = d.fake.request_count();
    let game = d.accept(&BOB, &ch).await;
    let (thread, t) = d.fake.thread_of(game.id).expect("the game's thread");
    assert_eq!(t.parent, channel);
    assert_eq!(t.name, format!("#{} inpHeXion · ann vs bob", game.id));
    let challenge_message = db_value(
        &d,
        "SELECT message_id FROM challenges WHERE game_id = $1",
        game.id,
    )
    .await;
    assert_eq!(t.from.map(|m| m as i64), challenge_message, "{t:?}");
    assert!(
        t.members.contains(&ANN.id) && t.members.contains(&BOB.id),
        "{t:?}"
    );
    assert_eq!(
        posts_in(&d, from, thread).len(),
        1,
        "the first board is in the thread"
    );
    assert!(
        posts_in(&d, from, channel).is_empty(),
        "nothing more in the channel"
    );

    // Inside the thread, commands need no game option; new games start in the channel.
    d.act_in(thread);
    let cat_board = d.command(&CAT, "board", vec![]).await;
    assert!(
        cat_board.content.contains(&format!("game #{}", game.id)) && cat_board.files.len() == 1,
        "{cat_board:?}"
    );
    d.refused_challenge(&ANN, &CAT, "exxit", &[], "belongs to game")
        .await;
    let follow = d
        .command(&CAT, "follow", vec![opt_str("game", &game.id.to_string())])
        .await;
    assert!(follow.content.contains("You follow"), "{follow:?}");
    assert!(d
        .fake
        .thread_of(game.id)
        .unwrap()
        .1
        .members
        .contains(&CAT.id));
    let empty = json!({"name": "move", "type": 3, "value": "", "focused": true});
    let choices = d.autocomplete_choices(&ANN, "move", vec![empty]).await;
    assert!(!choices.is_empty(), "suggestions without the game option");
    let from = d.fake.request_count();
    let played = d
        .command(&ANN, "move", vec![opt_str("move", &choices[0].1)])
        .await;
    assert!(played.content.contains("You played"), "{played:?}");
    d.board_post(from, game.id, 1).await;
    assert_eq!(
        posts_in(&d, from, thread).len(),
        1,
        "{:?}",
        posts_in(&d, from, channel)
    );
    // Ann asks to take it back (no game option in the thread); Bob declines: it stands.
    let ask = d.command(&ANN, "takeback", vec![]).await;
    assert!(ask.allowed_users.contains(&BOB.id), "{ask:?}");
    let ask = discord::Pressable::from_answer(&ask, &d.fake);
    d.answer_challenge(&BOB, &ask, "tbno", "declined").await;
    assert_eq!(d.move_count(game.id).await, 1);

    // Bob resigns from the thread: the final board (with Cat, who follows) in the thread, one
    // line in the channel, and the thread archived.
    let from = d.fake.request_count();
    let resign = d.command(&BOB, "resign", vec![]).await;
    let p = discord::Pressable::from_answer(&resign, &d.fake);
    d.press(&BOB, &p, "resign").await;
    let line = d.posted(from, Some(channel), "🏁").await;
    assert_eq!(line.path, format!("/channels/{channel}/messages"));
    let line = line.json.unwrap_or_default();
    assert!(
        line["content"]
            .as_str()
            .is_some_and(|c| c.contains(&format!("<@{}> beat <@{}>", ANN.id, BOB.id))
                && c.contains(&format!("<#{thread}>"))),
        "{line}"
    );
    let last = posts_in(&d, from, thread);
    let final_board = last.last().expect("the final board in the thread").clone();
    let text = final_board["content"].as_str().unwrap_or("");
    assert!(
        text.contains("Game over")
            && text.contains("/replay game:")
            && text.contains("/record game:"),
        "{text}"
    );
    assert!(
        discord::users_of(&final_board).contains(&CAT.id),
        "{final_board}"
    );
    for _ in 0..100 {
        if d.fake.thread_of(game.id).unwrap().1.archived {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert!(d.fake.thread_of(game.id).unwrap().1.archived, "archived");

    // The Rematch button pressed in the thread offers the rematch in the channel; accepted, the
    // new game gets its own thread from that message.
    let rematch = discord::components_of(&final_board["components"])
        .find(|c| c["label"] == "Rematch")
        .and_then(|c| c["custom_id"].as_str())
        .expect("a Rematch button")
        .to_string();
    // First the channel refuses the offer: Ann is told why, privately, and the offer is
    // withdrawn (it does not count as open).
    d.fake.inject(server::Fault::missing_permissions(
        format!("/channels/{channel}/messages"),
        1,
    ));
    let refused = d
        .press_id(&ANN, &d.shown_post(&final_board), &rematch)
        .await;
    assert!(
        refused.ephemeral
            && refused.content.contains("Missing Permissions")
            && refused.content.contains("withdrawn"),
        "{refused:?}"
    );
    let from = d.fake.request_count();
    let offered = d
        .press_id(&ANN, &d.shown_post(&final_board), &rematch)
        .await;
    assert!(
        offered.ephemeral && offered.content.contains(&format!("<#{channel}>")),
        "{offered:?}"
    );
    let offer = posts_in(&d, from, channel);
    assert_eq!(offer.len(), 1, "{offer:?}");
    d.act_in(channel);
    let mut ids = std::collections::HashMap::new();
    for c in discord::components_of(&offer[0]["components"]) {
        if let Some(id) = c["custom_id"].as_str() {
            ids.insert(
                id.split(':').nth(1).unwrap_or("").to_string(),
                id.to_string(),
            );
        }
    }
    let offer = discord::Pressable {
        message: d.shown_post(&offer[0]),
        ids,
    };
    let next = d.accept(&BOB, &offer).await;
    assert_eq!(next.to_move, BOB.id, "colours swapped");
    let (t2_id, t2) = d.fake.thread_of(next.id).expect("the rematch's thread");
    assert!(t2.from.is_some() && t2.parent == channel, "{t2:?}");

    // The thread refuses a post (Send Messages in Threads taken away): the game goes on in the
    // channel, and the moderators are told once.
    d.fake.inject(server::Fault::missing_permissions(
        format!("/channels/{t2_id}/messages"),
        1,
    ));
    let from = d.fake.request_count();
    let next = d.play_suggested(&next).await;
    assert!(
        posts_in(&d, from, channel).iter().any(|p| p["content"]
            .as_str()
            .is_some_and(|c| c.contains(&format!("game #{} ", next.id)))),
        "the board in the channel"
    );
    d.posted(from, Some(channel), "Send Messages in Threads")
        .await;
    assert_eq!(
        db_value(&d, "SELECT thread_id FROM games WHERE id = $1", next.id).await,
        None
    );

    // A game against the bot gets a thread of its own (no challenge message).
    let against = d.play_bot(&CAT, "exxit", 0, &[]).await;
    let (_, t3) = d.fake.thread_of(against.id).expect("the bot game's thread");
    assert!(t3.from.is_none(), "{t3:?}");
    assert_eq!(
        t3.members,
        [server::BOT_ID, CAT.id],
        "the bot opens it; Cat is added"
    );

    // Without the permission to open threads, games are played in the channel and the
    // moderators are told once, naming it.
    for path in [
        format!("/channels/{channel}/messages/*"),
        format!("/channels/{channel}/threads"),
    ] {
        d.fake.inject(server::Fault::missing_permissions(path, 2));
    }
    let from = d.fake.request_count();
    let mut fallback = Vec::new();
    for (who, other) in [(&ANN, &CAT), (&BOB, &CAT)] {
        let ch = d
            .challenge(who, other, "inphexion", std::slice::from_ref(&size4))
            .await;
        fallback.push(d.accept(other, &ch).await);
    }
    for g in &fallback {
        assert!(d.fake.thread_of(g.id).is_none(), "no thread for #{}", g.id);
    }
    d.posted(from, Some(channel), "Create Public Threads").await;
    let here = posts_in(&d, from, channel);
    let notices = here
        .iter()
        .filter(|p| {
            p["content"]
                .as_str()
                .is_some_and(|c| c.contains("Moderators"))
        })
        .count();
    assert_eq!(notices, 1, "told once: {here:?}");
    for g in &fallback {
        let tag = format!("game #{} ", g.id);
        assert!(
            here.iter()
                .any(|p| p["content"].as_str().is_some_and(|c| c.contains(&tag))),
            "the board of #{} in the channel: {here:?}",
            g.id
        );
    }

    // Moderators turn threads off: the next game stays in the channel.
    d.refused(
        &ANN,
        "server",
        vec![json!({"name": "threads", "type": 4, "value": 1})],
        "manage the server",
    )
    .await;
    let off = d
        .command(
            &MOD,
            "server",
            vec![json!({"name": "threads", "type": 4, "value": 1})],
        )
        .await;
    assert!(off.ephemeral && off.content.contains("off"), "{off:?}");
    let ch = d.challenge(&CAT, &MOD, "exxit", &[]).await;
    let plain = d.accept(&MOD, &ch).await;
    assert!(d.fake.thread_of(plain.id).is_none());

    bot.kill().await;
    let v = d.fake.violations();
    assert!(v.is_empty(), "requests that break Discord's spec: {v:#?}");
    // The only problems logged are the refusals above, once each.
    let problems = d.log_problems();
    let expected = [
        "the game's thread refused a message",
        "could not post",
        "cannot open a game's thread",
        "cannot open a game's thread",
    ];
    assert_eq!(problems.len(), expected.len(), "{problems:#?}");
    for needle in expected {
        assert!(
            problems.iter().any(|p| p.contains(needle)),
            "{needle}: {problems:#?}"
        );
    }
    eprintln!("threads end-to-end took {:?}", started.elapsed());
}

/// Whether a text is Japanese: kana or kanji present, and no bare message id.
fn japanese(text: &str) -> bool {
    let kana_or_kanji = text
        .chars()
        .any(|c| matches!(c, '\u{3040}'..='\u{30ff}' | '\u{4e00}'..='\u{9fff}'));
    // A message id: lowercase words joined by hyphens (`caption-head`), shown when a text is
    // missing.
    let bare_id = text.split_whitespace().any(|w| {
        let parts: Vec<&str> = w.split('-').collect();
        parts.len() > 1
            && parts
                .iter()
                .all(|p| p.len() > 1 && p.chars().all(|c| c.is_ascii_lowercase()))
    });
    kana_or_kanji && !bare_id
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_japanese_server_reads_japanese() {
    let started = Instant::now();
    let d = Discord::start("japanese").await;
    let mut bot = Bot::start(&d).await;
    d.fake.wait_ready(1).await;
    d.speak("ja");
    // Every command, option and choice is registered with its Japanese name and description.
    let (_, registration) = d
        .fake
        .wait_for(0, "the commands' registration", |r| {
            r.method == "PUT" && r.path.ends_with("/commands")
        })
        .await;
    let registered = registration.json.expect("the commands as JSON");
    for command in registered.as_array().expect("a list of commands") {
        for field in ["name_localizations", "description_localizations"] {
            let ja = command[field]["ja"].as_str().unwrap_or("");
            assert!(!ja.is_empty(), "{field} of {command}");
        }
        assert!(japanese(
            command["description_localizations"]["ja"]
                .as_str()
                .unwrap_or("")
        ));
        for option in command["options"].as_array().into_iter().flatten() {
            for field in ["name_localizations", "description_localizations"] {
                assert!(option[field]["ja"].is_string(), "{field} of {option}");
            }
            for choice in option["choices"].as_array().into_iter().flatten() {
                assert!(choice["name_localizations"]["ja"].is_string(), "{choice}");
            }
        }
    }
    let size5 = json!({"name": "size", "type": 4, "value": 5});
    let ch = d.challenge(&ANN, &BOB, "inphexion", &[size5]).await;
    let challenge_text = ch.message["content"].as_str().unwrap_or("").to_string();
    assert!(japanese(&challenge_text), "{challenge_text}");
    let game = d.accept(&BOB, &ch).await;
    // The first board: caption, alt text and buttons in Japanese.
    let board = d.last_board(game.id);
    let caption = board["content"].as_str().unwrap_or("");
    assert!(japanese(caption), "{caption}");
    let alt = board["attachments"][0]["description"]
        .as_str()
        .unwrap_or("");
    assert!(japanese(alt), "{alt}");
    let labels: Vec<&str> = discord::components_of(&board["components"])
        .filter_map(|c| c["label"].as_str())
        .collect();
    assert_eq!(labels, ["指す", "観戦"], "{board}");
    // The player waiting is told in Japanese; the picker speaks Japanese, menus included.
    let waiting = if game.to_move == ANN.id { &BOB } else { &ANN };
    let mover = member(game.to_move);
    let not_now = d.press_move(waiting, &board).await;
    eprintln!("NOT NOW {not_now:?}");
    assert!(
        not_now.ephemeral && japanese(&not_now.content),
        "{not_now:?}"
    );
    let picker = d.press_move(mover, &board).await;
    assert!(japanese(&picker.content), "{picker:?}");
    let options: Vec<String> = discord::components_of(&picker.components)
        .flat_map(|c| c["options"].as_array().cloned().unwrap_or_default())
        .filter_map(|o| o["label"].as_str().map(str::to_string))
        .collect();
    assert!(!options.is_empty(), "{picker:?}");
    assert!(options.iter().all(|o| japanese(o)), "{options:?}");
    // Autocomplete labels in words, in Japanese; the values stay notation.
    let empty = json!({"name": "move", "type": 3, "value": "", "focused": true});
    let choices = d.autocomplete_choices(mover, "move", vec![empty]).await;
    assert!(!choices.is_empty());
    assert!(
        choices.iter().all(|(label, _)| japanese(label)),
        "{choices:?}"
    );
    assert!(
        choices.iter().all(|(_, value)| value.is_ascii()),
        "{choices:?}"
    );
    // A wrong move is refused in Japanese, and nothing changes.
    d.refused(mover, "move", vec![opt_str("move", "zz9")], "指せません")
        .await;
    // A move played: the answer and the next board in Japanese.
    let from = d.fake.request_count();
    let played = d
        .command(mover, "move", vec![opt_str("move", &choices[0].1)])
        .await;
    assert!(played.ephemeral, "{played:?}");
    let next = d.posted(from, Some(server::CHANNEL_ID), "指しました").await;
    let text = next.json.unwrap_or_default()["content"]
        .as_str()
        .unwrap_or("")
        .to_string();
    assert!(japanese(&text), "{text}");
    // An English member of the same server reads their private answers in English (the one
    // who just moved is now waiting).
    d.speak("en-US");
    let english = d.press_move(mover, &d.last_board(game.id)).await;
    assert!(
        english.ephemeral && !japanese(&english.content) && english.content.contains("turn"),
        "{english:?}"
    );
    d.end(&mut bot, "japanese end-to-end", started).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_is_analysed() {
    let started = Instant::now();
    let d = Discord::start("analysis").await;
    let mut bot = Bot::start(&d).await;
    d.fake.wait_ready(1).await;
    let size5 = json!({"name": "size", "type": 4, "value": 5});
    let ch = d.challenge(&ANN, &BOB, "inphexion", &[size5]).await;
    let game = d.accept(&BOB, &ch).await;
    let which = || vec![json!({"name": "game", "type": 3, "value": game.id.to_string()})];
    // A game in which a player misses a win in one and the opponent then wins; analysis is
    // refused while it is played, even to a spectator, privately and storing nothing.
    let mut rng = SmallRng::seed_from_u64(3);
    let mut state = game.clone();
    let mut missed = None;
    loop {
        let now = stored_game(&d, game.id).await;
        if now.is_over() {
            break;
        }
        if now.ply() == 2 {
            d.refused(&CAT, "analysis", which(), "still being played")
                .await;
            d.refused(&ANN, "analysis", which(), "still being played")
                .await;
        }
        let pos = now.position();
        let wins = winning_moves(pos);
        let mv = match (missed, wins.first()) {
            (Some(_), Some(win)) => *win,
            (None, Some(_)) => {
                // A move that does not win, after which the opponent wins at once.
                let blunder = pos.legal_moves().into_iter().find(|m| {
                    let mut p = pos.clone();
                    !wins.contains(m) && p.play(m).is_ok() && !winning_moves(&p).is_empty()
                });
                match blunder {
                    Some(m) => {
                        missed = Some(now.ply() + 1);
                        m
                    }
                    None => interesting_move(&now, &mut rng),
                }
            }
            _ => interesting_move(&now, &mut rng),
        };
        state = play_text(&d, &state, &mv.to_string()).await;
    }
    let missed = missed.expect("a game with a missed win");
    // The first request shows its progress, then the chart and the turning points' boards.
    let from = d.fake.request_count();
    let first = d.command(&CAT, "analysis", which()).await;
    assert!(!first.ephemeral, "{first:?}");
    assert!(first.content.contains("Analysing game"), "{first:?}");
    let (_, done) = d
        .fake
        .wait_for(from, "the analysis", |r| {
            r.method == "PATCH"
                && r.path
                    .starts_with(&format!("/webhooks/{}/", server::APP_ID))
                && !r.files.is_empty()
        })
        .await;
    let content = done
        .json
        .as_ref()
        .and_then(|j| j["content"].as_str())
        .unwrap_or("")
        .to_string();
    assert!(
        content.contains(&format!("Analysis of game #{}", game.id)),
        "{content}"
    );
    eprintln!("the analysis: {content}");
    let pictures: Vec<image::DynamicImage> = done
        .files
        .iter()
        .map(|(_, png)| image::load_from_memory(png).expect("a picture"))
        .collect();
    assert_eq!(pictures[0].width(), 900, "the chart first");
    // Each turning point is named in the text and has its picture of three boards side by
    // side; the missed win is the first.
    let named = content.matches("Better:").count();
    assert!(named >= 1, "{content}");
    assert_eq!(pictures.len(), 1 + named, "{content}");
    assert!(pictures[1..].iter().all(|p| p.width() > 2 * p.height()));
    let first_point = content.lines().nth(1).unwrap_or("");
    assert!(
        first_point.contains(&format!("Move **{missed}. ")),
        "move {missed} missed a win: {content}"
    );
    assert_eq!(
        db_value(
            &d,
            "SELECT count(*) FROM analyses WHERE game_id = $1",
            game.id
        )
        .await,
        Some(1)
    );
    // Asked again: stored, so the answer comes at once with the same pictures.
    let again = d.command(&ANN, "analysis", which()).await;
    assert!(!again.ephemeral);
    assert_eq!(again.content, content);
    assert_eq!(
        again.files,
        done.files
            .iter()
            .map(|(_, f)| f.clone())
            .collect::<Vec<_>>()
    );
    assert_eq!(
        db_value(
            &d,
            "SELECT count(*) FROM analyses WHERE game_id = $1",
            game.id
        )
        .await,
        Some(1)
    );
    d.end(&mut bot, "analysis", started).await;
}

/// `who` plays the first legal move of game `id` through the same action as `/move` (the move
/// and its board queued in one transaction), straight on the database, while no bot process
/// hears it.
async fn move_without_the_bot(d: &Discord, id: i64, who: &Member) {
    let pool = hexcord::db::connect(&d.db_url).await.expect("db");
    let mut conn = pool.acquire().await.expect("connection");
    let (row, game) = hexcord::db::load_game(&mut conn, id)
        .await
        .expect("load")
        .expect("the game");
    drop(conn);
    let mv = game.legal_notations()[0].clone();
    let core = hexcord::play::actions::Core::new(pool.clone(), hexcord::clock::Clock::System);
    hexcord::play::actions::play_move(
        &core,
        row.id,
        hexcord::db::UserId(who.id),
        &mv,
        Some(game.ply() as i64),
    )
    .await
    .expect("the member's move");
    pool.close().await;
}

/// Game `id` as stored.
async fn stored_game(d: &Discord, id: i64) -> hexcord::games::Game {
    let pool = hexcord::db::connect(&d.db_url).await.expect("db");
    let mut conn = pool.acquire().await.expect("connection");
    let (_, game) = hexcord::db::load_game(&mut conn, id)
        .await
        .expect("load")
        .expect("the game");
    drop(conn);
    pool.close().await;
    game
}

/// The moves of `pos` that win at once for the side to move.
fn winning_moves(pos: &hexcord::games::Position) -> Vec<hexcord::games::Move> {
    let me = pos.to_move();
    pos.legal_moves()
        .into_iter()
        .filter(|m| {
            let mut p = pos.clone();
            p.play(m).is_ok() && p.outcome().is_some_and(|o| o.winner == Some(me))
        })
        .collect()
}

/// The player to move plays `text` with `/move`; returns the game as its board then shows it.
async fn play_text(d: &Discord, state: &discord::GameState, text: &str) -> discord::GameState {
    let from = d.fake.request_count();
    let ans = d
        .command(
            member(state.to_move),
            "move",
            vec![
                opt_str("move", text),
                opt_str("game", &state.id.to_string()),
            ],
        )
        .await;
    assert!(ans.content.contains("You played"), "{text}: {ans:?}");
    let ply = d.move_count(state.id).await;
    let post = d.board_post(from, state.id, ply).await;
    let content = post.json.unwrap_or_default()["content"]
        .as_str()
        .unwrap_or("")
        .to_string();
    parse_state(&content)
}

/// The posts members saw whose content contains every one of `needles`.
fn posts_with(d: &Discord, needles: &[&str]) -> usize {
    d.fake
        .state
        .requests
        .lock()
        .unwrap()
        .iter()
        .filter(|r| {
            r.is_new_post()
                && r.json
                    .as_ref()
                    .and_then(|j| j["content"].as_str())
                    .is_some_and(|c| needles.iter().all(|n| c.contains(n)))
        })
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_share_the_shards_and_the_work() {
    use server::Fault;
    use std::time::Duration;
    let started = Instant::now();
    let t0: i64 = 1_900_000_000;
    let mut d = Discord::start_with_clock("shards", t0).await;
    // One PostgreSQL database (a throwaway cluster the test starts) for both processes, which
    // start at the same moment: the migrations are applied once, not raced.
    d.db_url = hexcord::db::testing::new_pg_database().await;
    let shard = |range: &'static str| [("SHARD_COUNT", "2"), ("SHARD_RANGE", range)];
    let mut first = Bot::start_with(&d, &shard("0")).await;
    let mut second = Bot::start_with(&d, &shard("1")).await;
    d.fake.wait_ready(2).await;
    // Each process identified with its own shard, and the commands were registered once.
    let registrations = |d: &Discord| {
        d.fake
            .state
            .requests
            .lock()
            .unwrap()
            .iter()
            .filter(|r| r.method == "PUT" && r.path.ends_with("/commands"))
            .count()
    };
    assert_eq!(registrations(&d), 1);

    // A game in each server: each server's commands reach the process running its shard.
    let size5 = json!({"name": "size", "type": 4, "value": 5});
    let one_day = json!({"name": "days_per_move", "type": 4, "value": 0});
    let mut games = Vec::new();
    for server in 0..2 {
        d.in_server(server);
        // One day per move in the first server, the default (three) in the second.
        let options = [vec![size5.clone(), one_day.clone()], vec![size5.clone()]];
        let ch = d.challenge(&ANN, &BOB, "inphexion", &options[server]).await;
        let g = d.accept(&BOB, &ch).await;
        games.push(d.play_suggested(&g).await);
    }
    // And a game against the bot in the first server.
    d.in_server(0);
    let versus_bot = d
        .play_bot(&CAT, "inphexion", 0, std::slice::from_ref(&size5))
        .await;
    assert_eq!(versus_bot.to_move, CAT.id);
    {
        let dispatched = d.fake.state.dispatched.lock().unwrap();
        assert!(dispatched.get(&0).is_some_and(|&n| n > 0), "{dispatched:?}");
        assert!(dispatched.get(&1).is_some_and(|&n| n > 0), "{dispatched:?}");
    }

    // The first server's process is killed (kill -9) while it posts a board: the board stays
    // queued, and the other process posts it once the first one's claim has run out.
    d.in_server(0);
    let (thread, _) = d.fake.thread_of(games[0].id).expect("the game's thread");
    d.fake.inject(Fault {
        method: "POST",
        path: format!("/channels/{thread}/messages"),
        status: 500,
        body: json!({"message": "held", "code": 0}),
        retry_after: None,
        times: 1,
        delay: Duration::from_secs(60),
    });
    let ply = d.send_suggested(&games[0]).await;
    let wait = Instant::now();
    while d.fake.state.held.load(std::sync::atomic::Ordering::SeqCst) == 0 {
        assert!(wait.elapsed() < Duration::from_secs(20), "the board post");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    first.kill().await;
    let game_ref = format!("game #{} ", games[0].id);
    d.board_post(0, games[0].id, ply).await;
    // The bot's turn comes in that server's game while its process is dead: the other process
    // takes the turn and plays, once.
    let from = d.fake.request_count();
    move_without_the_bot(&d, versus_bot.id, &CAT).await;
    let after_bot = d.bot_move(from, &versus_bot).await;
    assert_eq!(after_bot.to_move, CAT.id);
    assert_eq!(d.move_count(versus_bot.id).await, 2);
    // And its deadline passes while nothing runs its server's shard: the other process times
    // the game out and posts the result there, once.
    let from = d.fake.request_count();
    d.set_clock(t0 + DAY + 60);
    d.posted(from, Some(server::CHANNEL_ID), "ran out of time")
        .await;
    assert_eq!(d.game_status(games[0].id).await, "finished");

    // The first process comes back: nothing is posted twice.
    let from = d.fake.request_count();
    let first_again = Bot::start_with(&d, &shard("0")).await;
    d.fake.wait_ready(3).await;
    d.fake
        .wait_for(from, "the commands registered again", |r| {
            r.method == "PUT" && r.path.ends_with("/commands")
        })
        .await;
    // Both servers are served again, members of both acting at once.
    let (turn, _) = tokio::join!(d.command_in(0, &CAT, "turn", vec![]), async {
        d.in_server(1);
        d.play_suggested(&games[1]).await
    });
    assert!(
        turn.ephemeral && turn.content.contains(&format!("#{}", versus_bot.id)),
        "{turn:?}"
    );
    assert_eq!(boards_seen(&d, games[0].id, ply), 1);
    assert_eq!(boards_seen(&d, versus_bot.id, 2), 1);
    assert_eq!(d.move_count(versus_bot.id).await, 2);
    assert_eq!(posts_with(&d, &[&game_ref, "ran out of time"]), 1);
    drop(first_again);
    d.end(&mut second, "shards", started).await;
}
