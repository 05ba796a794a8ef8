//! Correspondence time on a clock the test moves: reminders, a loss on time across a restart,
//! the leaderboard, a finished game's record, notices by direct message, vacations and expired
//! challenges; a member's data deleted on request, and a server's settings removed after the
//! bot left it.

use std::time::Instant;

use serde_json::json;

use crate::common::{db_value, opt_str, posts_with, DAY};
use crate::discord::{self, Bot, Discord, Pressable, ANN, BOB, CAT};
use crate::server;

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
    let timeouts = posts_with(&d, &["ran out of time"]);
    assert_eq!(timeouts, 1, "the loss on time is announced once");
    // Messages members saw: a post repeated with the same nonce (the bot was killed right after
    // posting, before marking it sent) is shown once by Discord.
    let reminders_for_ann = posts_with(&d, &["Reminder", &format!("<@{}>", ANN.id)]);
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

/// `/privacy <sub>`.
fn privacy(sub: &str) -> Vec<serde_json::Value> {
    vec![json!({"name": sub, "type": 1, "options": []})]
}

/// A member's data on request: refused while a game is in play; shown; a confirmation that
/// expired, a stranger's press and a forged one change nothing; confirmed, the ratings go and the
/// opponent's board names "a former member". Then the bot is removed from the server: its
/// settings stay through the grace period and go at its end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_member_deletes_their_data_and_a_server_left_is_cleared() {
    let started = Instant::now();
    let t0: i64 = 1_900_000_000;
    let d = Discord::start_with_clock("privacy", t0).await;
    let mut bot = Bot::start(&d).await;
    d.fake.wait_ready(1).await;
    let size5 = json!({"name": "size", "type": 4, "value": 5});
    let ch = d
        .challenge(&ANN, &BOB, "inphexion", std::slice::from_ref(&size5))
        .await;
    let g = d.accept(&BOB, &ch).await;
    let refused = d.command(&ANN, "privacy", privacy("delete")).await;
    assert!(
        refused.ephemeral
            && refused.content.contains("Nothing was deleted")
            && refused.content.contains(&format!("#{}", g.id))
            && refused.components.as_array().is_none_or(|c| c.is_empty()),
        "{refused:?}"
    );
    d.resign(&BOB, &g).await;

    let shown = d.command(&ANN, "privacy", privacy("show")).await;
    assert!(shown.ephemeral, "{shown:?}");
    for want in [
        "**ann**",
        "Games: 1 (0 in play, 1 over)",
        "Rating in inpHeXion on server",
        "Challenges you sent or received: 1",
    ] {
        assert!(
            shown.content.contains(want),
            "{want:?} not in {}",
            shown.content
        );
    }
    let ratings = "SELECT COUNT(*) FROM ratings WHERE player_id = $1";
    let ann = ANN.id as i64;
    assert_eq!(db_value(&d, ratings, ann).await, Some(1));

    // A confirmation left too long expires.
    let ask = d.command(&ANN, "privacy", privacy("delete")).await;
    assert!(
        ask.ephemeral && ask.content.contains("cannot be undone"),
        "{ask:?}"
    );
    let late = Pressable::from_answer(&ask, &d.fake);
    d.set_clock(t0 + 11 * 60);
    d.refused_press(&ANN, &late, "forget", "expired").await;

    // Asked again: a stranger's press and a forged button are refused, nothing changes.
    let ask = d.command(&ANN, "privacy", privacy("delete")).await;
    let p = Pressable::from_answer(&ask, &d.fake);
    d.refused_press(&CAT, &p, "forget", "another member").await;
    let forged = Pressable::button(
        "forget",
        &format!("hx:forget:{}:{}:0123456789abcdef", ANN.id, t0 + 11 * 60),
    );
    d.refused_press(&ANN, &forged, "forget", "no longer valid")
        .await;
    assert_eq!(db_value(&d, ratings, ann).await, Some(1));

    let done = d.press(&ANN, &p, "forget").await;
    assert_eq!(done.callback_type, 7, "{done:?}");
    assert!(done.content.contains("your data is deleted"), "{done:?}");
    assert_eq!(db_value(&d, ratings, ann).await, Some(0));
    assert!(
        db_value(&d, "SELECT forgotten_at FROM players WHERE id = $1", ann)
            .await
            .is_some()
    );

    // Bob's board of the game names Ann "a former member"; his own name stays.
    let board = d
        .command(
            &BOB,
            "board",
            vec![json!({"name": "game", "type": 3, "value": g.id.to_string()})],
        )
        .await;
    assert!(
        board.content.contains("a former member")
            && !board.content.contains(&format!("<@{}>", ANN.id))
            && board.content.contains(&format!("<@{}>", BOB.id)),
        "{board:?}"
    );
    let after = d.command(&ANN, "privacy", privacy("show")).await;
    assert!(
        after.content.contains("Games: 1 (0 in play, 1 over)")
            && !after.content.contains("**ann**")
            && !after.content.contains("Rating"),
        "{after:?}"
    );

    // The bot is removed from the server: its settings (the language seen) stay 30 days.
    let settings = "SELECT COUNT(*) FROM server_settings WHERE guild_id = $1";
    let guild = server::GUILD_ID as i64;
    assert_eq!(db_value(&d, settings, guild).await, Some(1));
    assert!(d
        .fake
        .dispatch("GUILD_DELETE", json!({"id": server::GUILD_ID.to_string()})));
    let gone = "SELECT COUNT(*) FROM server_departures WHERE guild_id = $1";
    for _ in 0..100 {
        if db_value(&d, gone, guild).await == Some(1) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(db_value(&d, gone, guild).await, Some(1));
    d.set_clock(t0 + 29 * DAY);
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    assert_eq!(
        db_value(&d, settings, guild).await,
        Some(1),
        "kept in the grace period"
    );
    d.set_clock(t0 + 31 * DAY);
    for _ in 0..100 {
        if db_value(&d, settings, guild).await == Some(0) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(
        db_value(&d, settings, guild).await,
        Some(0),
        "removed after it"
    );
    assert_eq!(db_value(&d, gone, guild).await, Some(0));
    d.end(&mut bot, "privacy", started).await;
}
