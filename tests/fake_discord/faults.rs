//! Faults survived: unknown buttons, a flood of challenges, rate limits, refused posts, a kill -9
//! between a move and its board, a full disk, a garbled row and a vacation asked too late.

use std::time::Instant;

use serde_json::json;

use crate::common::{boards_seen, db_value, opt_str, DAY};
use crate::discord::{self, Bot, Discord, Member, ANN, BOB, CAT, MOD};
use crate::server;

/// Members who only receive challenges (the flood below).
fn guest(i: u64) -> Member {
    Member {
        id: 960_000_000_000_000_000 + i,
        name: "guest",
        bot: false,
        permissions: discord::MEMBER_PERMS,
    }
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

    // Choices and numbers Discord never offers (a forged or stale command): refused privately,
    // naming the option, and nothing is created.
    for (option, value, needle) in [
        (
            "days_per_move",
            99,
            "`days_per_move` of `/challenge` was none of its choices",
        ),
        (
            "days_per_move",
            -1,
            "`days_per_move` of `/challenge` was none of its choices",
        ),
        (
            "days_per_move",
            10000,
            "`days_per_move` of `/challenge` was none of its choices",
        ),
        (
            "clock",
            99,
            "`clock` of `/challenge` was none of its choices",
        ),
        (
            "clock",
            -1,
            "`clock` of `/challenge` was none of its choices",
        ),
        (
            "clock",
            10000,
            "`clock` of `/challenge` was none of its choices",
        ),
        (
            "tiles",
            3,
            "`tiles` of `/challenge` was none of its choices",
        ),
        ("size", 99, "`size` of `/challenge` must be from 4 to 11"),
        ("size", -1, "`size` of `/challenge` must be from 4 to 11"),
    ] {
        let forged = json!({"name": option, "type": 4, "value": value});
        d.refused_challenge(&ANN, &BOB, "inphexion", &[forged], needle)
            .await;
    }
    let forged_game = json!({"name": "game", "type": 4, "value": 2});
    d.refused(
        &ANN,
        "play",
        vec![forged_game, json!({"name": "level", "type": 4, "value": 0})],
        "`game` of `/play` was none",
    )
    .await;
    d.refused(
        &ANN,
        "settings",
        vec![json!({"name": "digest_hour", "type": 4, "value": 24})],
        "`digest_hour` of `/settings` must be from 0 to 23",
    )
    .await;
    d.refused(
        &ANN,
        "leaderboard",
        vec![
            json!({"name": "game", "type": 4, "value": 0}),
            json!({"name": "page", "type": 4, "value": 0}),
        ],
        "`page` of `/leaderboard` must be at least 1",
    )
    .await;
    d.refused(
        &ANN,
        "pause",
        vec![json!({"name": "days", "type": 3, "value": "3"})],
        "could not read `days` of `/pause`",
    )
    .await;

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
                    c.contains("Missing Permissions") && c.contains(&discord::move_marker(ply))
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

/// Moves made faster than their boards are posted (here while a post hangs, then fails): the
/// boards queued behind one another go as one post of the latest position, naming every move in
/// turn; each move is shown once, in order, and the player to move now is the one mentioned.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn boards_of_moves_queued_at_once_go_as_one() {
    use server::Fault;
    use std::time::Duration;
    let d = Discord::start("fold").await;
    let _bot = Bot::start(&d).await;
    d.fake.wait_ready(1).await;
    let off = d
        .command(
            &MOD,
            "server",
            vec![json!({"name": "threads", "type": 4, "value": 1})],
        )
        .await;
    assert!(off.ephemeral && off.content.contains("off"), "{off:?}");
    let posts = format!("/channels/{}/messages", server::CHANNEL_ID);
    let size5 = json!({"name": "size", "type": 4, "value": 5});
    let ch = d.challenge(&ANN, &BOB, "inphexion", &[size5]).await;
    let g = d.accept(&BOB, &ch).await;
    let g = d.play_suggested(&g).await;
    // The next board's post hangs, then fails: the next two moves queue behind it meanwhile.
    d.fake.inject(Fault {
        method: "POST",
        path: posts.clone(),
        status: 500,
        body: json!({"message": "held", "code": 0}),
        retry_after: None,
        times: 1,
        delay: Duration::from_millis(1500),
    });
    let from = d.fake.request_count();
    let mut plies = vec![d.send_suggested(&g).await];
    let wait = Instant::now();
    while d.fake.state.held.load(std::sync::atomic::Ordering::SeqCst) == 0 {
        assert!(
            wait.elapsed() < Duration::from_secs(20),
            "the board post was sent"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let other = |id: u64| if id == ANN.id { BOB.id } else { ANN.id };
    let mut state = discord::GameState {
        id: g.id,
        to_move: other(g.to_move),
        caption: String::new(),
    };
    for _ in 0..2 {
        plies.push(d.send_suggested(&state).await);
        state.to_move = other(state.to_move);
    }
    // The held board goes alone when tried again; the two boards behind it go as one.
    let alone = d.board_post(from, g.id, plies[0]).await;
    let last = discord::move_marker(plies[2]);
    let (_, folded) = d
        .fake
        .wait_for(from, "the board of the last two moves", |r| {
            r.is_new_post()
                && r.json
                    .as_ref()
                    .and_then(|j| j["content"].as_str())
                    .is_some_and(|c| c.contains(&last))
        })
        .await;
    assert!(folded.at >= alone.at, "the boards are posted in order");
    let body = folded.json.clone().unwrap_or_default();
    let content = body["content"].as_str().unwrap_or("");
    assert_eq!(
        discord::caption_plies(content),
        [plies[1] as usize, plies[2] as usize],
        "{content}"
    );
    assert_eq!(folded.files.len(), 1, "{content}");
    let shown = discord::parse_state(content);
    assert_eq!(
        (shown.id, shown.to_move),
        (g.id, state.to_move),
        "{content}"
    );
    assert_eq!(discord::users_of(&body), [state.to_move], "{body}");
    let alt = body["attachments"][0]["description"].as_str().unwrap_or("");
    assert!(alt.contains(&format!("after move {}", plies[2])), "{alt}");
    for &ply in &plies {
        assert_eq!(boards_seen(&d, g.id, ply), 1, "move {ply} shown once");
    }
    // Nothing is left to post, and the folded board shares the post's message.
    let wait = Instant::now();
    loop {
        let pending = db_value(
            &d,
            "SELECT COUNT(*) FROM announcements WHERE game_id = $1 AND status = 'pending'",
            g.id,
        )
        .await;
        if pending == Some(0) {
            break;
        }
        assert!(
            wait.elapsed() < Duration::from_secs(10),
            "{pending:?} still queued"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let sharing = db_value(
        &d,
        "SELECT COUNT(*) FROM announcements WHERE game_id = $1 AND status = 'sent'
            AND message_id = (SELECT message_id FROM announcements WHERE game_id = $1
                               ORDER BY id DESC LIMIT 1)",
        g.id,
    )
    .await;
    assert_eq!(sharing, Some(2), "the last two boards are one message");
}
