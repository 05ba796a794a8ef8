//! When things go wrong: a database outage, a locked thread, a stale or made-up request answer,
//! a challenge that cannot be read back, and hostile input. Every member is answered in time,
//! privately where it is about them, and nothing is played behind anyone's back.

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::discord::{self, member, Bot, Discord, Pressable, ANN, BOB, CAT};
use crate::server::{self, Fault, APP_ID};

/// Discord's deadline for the first answer to an interaction.
const DEADLINE: Duration = Duration::from_secs(3);

fn game_option(value: &str) -> Value {
    json!({"name": "game", "type": 3, "value": value})
}

/// Ends a test whose faults make the bot log warnings: the requests kept to Discord's spec, and
/// every problem the bot logged is one of `expected` (nothing panicked).
async fn end_with_warnings(d: &Discord, bot: &mut Bot, expected: &[&str]) {
    bot.kill().await;
    let v = d.fake.violations();
    assert!(v.is_empty(), "requests that break Discord's spec: {v:#?}");
    let unexpected: Vec<String> = d
        .log_problems()
        .into_iter()
        .filter(|l| l.contains("panicked") || !expected.iter().any(|e| l.contains(e)))
        .collect();
    assert!(
        unexpected.is_empty(),
        "the bot logged problems: {unexpected:#?}"
    );
}

/// PostgreSQL stops in the middle of a game: `/move`, the Move button, `/board`, `/challenge`
/// and autocomplete are each answered within Discord's 3 s, saying nothing was played; the move
/// refused then is never stored later; play resumes once the server is back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_outage_is_answered_and_plays_nothing() {
    let cluster = hexcord::db::testing::own_cluster("outage");
    let mut d = Discord::start("outage").await;
    d.db_url = cluster.new_database("hexcord").await;
    let mut bot = Bot::start(&d).await;
    d.fake.wait_ready(1).await;
    let size5 = json!({"name": "size", "type": 4, "value": 5});
    let ch = d.challenge(&ANN, &BOB, "inphexion", &[size5]).await;
    let game = d.accept(&BOB, &ch).await;
    let game = d.play_suggested(&game).await;
    assert_eq!(d.move_count(game.id).await, 1);
    let board = d.last_board(game.id);
    let who = member(game.to_move);

    cluster.stop();
    let unavailable = |ans: &discord::Answer, what: &str| {
        assert!(
            ans.ephemeral && ans.content.contains("nothing was played"),
            "{what}: {ans:?}"
        );
    };
    let timed = Instant::now();
    let ans = d
        .command(
            who,
            "move",
            vec![
                json!({"name": "move", "type": 3, "value": "a1"}),
                game_option(&game.id.to_string()),
            ],
        )
        .await;
    assert!(
        timed.elapsed() < DEADLINE,
        "/move took {:?}",
        timed.elapsed()
    );
    unavailable(&ans, "/move");
    let timed = Instant::now();
    let ans = d.press_move(who, &board).await;
    assert!(
        timed.elapsed() < DEADLINE,
        "Move took {:?}",
        timed.elapsed()
    );
    unavailable(&ans, "the Move button");
    let timed = Instant::now();
    let ans = d
        .command(who, "board", vec![game_option(&game.id.to_string())])
        .await;
    assert!(
        timed.elapsed() < DEADLINE,
        "/board took {:?}",
        timed.elapsed()
    );
    unavailable(&ans, "/board");
    let timed = Instant::now();
    let ans = d
        .command_with(
            &CAT,
            "challenge",
            vec![
                json!({"name": "opponent", "type": 6, "value": ANN.id.to_string()}),
                json!({"name": "game", "type": 4, "value": 1}),
            ],
            &[&ANN],
        )
        .await;
    assert!(
        timed.elapsed() < DEADLINE,
        "/challenge took {:?}",
        timed.elapsed()
    );
    unavailable(&ans, "/challenge");
    let timed = Instant::now();
    let suggestions = d
        .autocomplete(
            who,
            "move",
            vec![
                json!({"name": "move", "type": 3, "value": "", "focused": true}),
                game_option(&game.id.to_string()),
            ],
        )
        .await;
    assert!(
        timed.elapsed() < DEADLINE,
        "autocomplete took {:?}",
        timed.elapsed()
    );
    assert!(suggestions.is_empty(), "{suggestions:?}");

    // Back: the move refused during the outage is not played, not even later.
    cluster.start();
    let back = Instant::now();
    loop {
        let ans = d
            .command(who, "board", vec![game_option(&game.id.to_string())])
            .await;
        if !ans.content.contains("nothing was played") {
            break;
        }
        assert!(
            back.elapsed() < Duration::from_secs(60),
            "the bot never came back: {ans:?}"
        );
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert_eq!(
        d.move_count(game.id).await,
        1,
        "nothing was played meanwhile"
    );
    let after = d.play_suggested(&game).await;
    assert_eq!(d.move_count(game.id).await, 2);
    assert_ne!(after.to_move, game.to_move);
    end_with_warnings(
        &d,
        &mut bot,
        &[
            "internal error",
            "button failed",
            "cannot record",
            "suggestions failed",
            "delivery",
            "timer",
            "announcement",
            "database",
            "pool",
            "connection",
            "turns",
        ],
    )
    .await;
}

/// A moderator locks a game's thread: the next boards go to the game's channel (never only by
/// direct message), the moderators are told once, naming the thread.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_locked_thread_sends_the_game_to_its_channel() {
    let d = Discord::start("locked").await;
    let mut bot = Bot::start(&d).await;
    d.fake.wait_ready(1).await;
    let size5 = json!({"name": "size", "type": 4, "value": 5});
    let ch = d.challenge(&ANN, &BOB, "inphexion", &[size5]).await;
    let mut game = d.accept(&BOB, &ch).await;
    let (thread, _) = d.fake.thread_of(game.id).expect("the game's thread");
    d.fake.inject(Fault {
        method: "POST",
        path: format!("/channels/{thread}/messages"),
        status: 400,
        body: json!({"message": "Thread is locked", "code": 50083}),
        retry_after: None,
        times: 1_000,
        delay: Duration::ZERO,
    });
    let channel = format!("/channels/{}/messages", server::CHANNEL_ID);
    let from = d.fake.request_count();
    for _ in 0..2 {
        let before = d.fake.request_count();
        let ply = d.send_suggested(&game).await;
        let (_, post) = d
            .fake
            .wait_for(before, &format!("move {ply} in the channel"), |r| {
                r.is_new_post() && r.path == channel && !r.files.is_empty()
            })
            .await;
        let body = post.json.unwrap_or(Value::Null);
        game = discord::parse_state(body["content"].as_str().unwrap_or(""));
    }
    let requests = d.fake.state.requests.lock().unwrap()[from..].to_vec();
    let notices: Vec<String> = requests
        .iter()
        .filter(|r| r.is_new_post() && r.path == channel)
        .filter_map(|r| r.json.as_ref()?["content"].as_str().map(str::to_string))
        .filter(|c| c.contains("Moderators"))
        .collect();
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert!(notices[0].contains(&format!("<#{thread}>")), "{notices:?}");
    let direct = requests
        .iter()
        .filter(|r| r.method == "POST" && r.path == "/users/@me/channels")
        .count();
    assert_eq!(direct, 0, "no board went only by direct message");
    end_with_warnings(&d, &mut bot, &["thread refused"]).await;
}

/// Ann asks twice to take back her move; Bob accepts the first; Ann moves again; Bob's press on
/// the second, older request is refused and her new move stays. A made-up answer (no seal)
/// changes nothing either.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_old_or_made_up_takeback_answer_changes_nothing() {
    let started = Instant::now();
    let d = Discord::start("takebacks").await;
    let mut bot = Bot::start(&d).await;
    d.fake.wait_ready(1).await;
    let size5 = json!({"name": "size", "type": 4, "value": 5});
    let ch = d.challenge(&ANN, &BOB, "inphexion", &[size5]).await;
    let game = d.accept(&BOB, &ch).await;
    let mover = member(game.to_move);
    let other = if mover.id == ANN.id { &BOB } else { &ANN };
    let game_opt = game_option(&game.id.to_string());
    let played = d.play_suggested(&game).await;
    let first = d.command(mover, "takeback", vec![game_opt.clone()]).await;
    let second = d.command(mover, "takeback", vec![game_opt.clone()]).await;
    let first = Pressable::from_answer(&first, &d.fake);
    let second = Pressable::from_answer(&second, &d.fake);
    d.answer_challenge(other, &first, "tbyes", "taken back")
        .await;
    assert_eq!(d.move_count(game.id).await, 0);
    let again = d.play_suggested(&game).await;
    assert_eq!(d.move_count(game.id).await, 1);
    d.refused_press(other, &second, "tbyes", "moved on").await;
    assert_eq!(d.move_count(game.id).await, 1);
    // A made-up answer for the same position, without the request's seal.
    let forged = format!("hx:tbyes:{}:1:1:0000000000000000", game.id);
    d.refused_press(
        other,
        &Pressable::button("tbyes", &forged),
        "tbyes",
        "no longer valid",
    )
    .await;
    assert_eq!(d.move_count(game.id).await, 1);
    assert_eq!(again.to_move, played.to_move);
    d.end(&mut bot, "takebacks", started).await;
}

/// Reading back a posted challenge fails (HTTP 500, three times): it shows with live buttons,
/// so it stays open, and Accept starts the game.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_not_read_back_stays_open() {
    let d = Discord::start("readback").await;
    let mut bot = Bot::start(&d).await;
    d.fake.wait_ready(1).await;
    d.fake.inject(Fault {
        method: "GET",
        path: format!("/webhooks/{APP_ID}/*"),
        status: 500,
        body: json!({"message": "Internal Server Error", "code": 0}),
        retry_after: None,
        times: 3,
        delay: Duration::ZERO,
    });
    let ch = d.challenge(&ANN, &BOB, "exxit", &[]).await;
    let game = d.accept(&BOB, &ch).await;
    assert_eq!(d.game_status(game.id).await, "active");
    end_with_warnings(&d, &mut bot, &["could not be read back"]).await;
}

/// Input far past what Discord lets a member type, and numbers that are not whole: each is
/// answered (the answer fits in a message) and changes nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn long_and_odd_options_are_answered() {
    let started = Instant::now();
    let d = Discord::start("options").await;
    let mut bot = Bot::start(&d).await;
    d.fake.wait_ready(1).await;
    let size5 = json!({"name": "size", "type": 4, "value": 5});
    let ch = d.challenge(&ANN, &BOB, "inphexion", &[size5]).await;
    let game = d.accept(&BOB, &ch).await;
    let who = member(game.to_move);
    let long_move = "c".repeat(1_500);
    d.refused(
        who,
        "move",
        vec![
            json!({"name": "move", "type": 3, "value": long_move}),
            game_option(&game.id.to_string()),
        ],
        "`move` of `/move` must have at most 100 characters",
    )
    .await;
    let long_game = "7".repeat(3_000);
    for command in ["move", "board", "follow", "record", "replay", "analysis"] {
        let mut options = vec![game_option(&long_game)];
        if command == "move" {
            options.push(json!({"name": "move", "type": 3, "value": "c3"}));
        }
        let needle = format!("`game` of `/{command}` must have at most 20 characters");
        d.refused(who, command, options, &needle).await;
    }
    for odd in ["1e9", "12abc", "+1", "#"] {
        d.refused(who, "board", vec![game_option(odd)], "not a game number")
            .await;
    }
    assert_eq!(d.move_count(game.id).await, 0);
    d.end(&mut bot, "options", started).await;
}

/// `GET path` from the bot's web board at `addr`, retried until it listens; status and body.
async fn monitor_get(addr: &str, path: &str) -> (u16, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let since = Instant::now();
    let mut socket = loop {
        match tokio::net::TcpStream::connect(addr).await {
            Ok(s) => break s,
            Err(e) => {
                assert!(since.elapsed() < Duration::from_secs(60), "{addr}: {e}");
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
    };
    let request = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    socket.write_all(request.as_bytes()).await.expect("send");
    let mut answer = String::new();
    socket.read_to_string(&mut answer).await.expect("read");
    let (head, body) = answer.split_once("\r\n\r\n").expect("a head and a body");
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("a status");
    (status, body.to_string())
}

/// Polls `/healthz` until it answers `status`; its body then.
async fn health_becomes(addr: &str, status: u16) -> String {
    let since = Instant::now();
    loop {
        let (now, body) = monitor_get(addr, "/healthz").await;
        if now == status {
            return body;
        }
        assert!(
            since.elapsed() < Duration::from_secs(60),
            "/healthz still answers {now}: {body}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A sample's value in a `/metrics` scrape.
fn sample(scrape: &str, series: &str) -> f64 {
    scrape
        .lines()
        .find_map(|l| l.strip_prefix(series)?.strip_prefix(' ')?.parse().ok())
        .unwrap_or_else(|| panic!("no {series} in:\n{scrape}"))
}

/// `/healthz` says 503 and why while the gateway is not ready (the commands' registration held
/// by a 429) and while the database is down, 200 `ok` when both are; `/metrics` counts the 429,
/// the connected shard and a command answered.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_waits_for_the_gateway_and_the_database() {
    let cluster = hexcord::db::testing::own_cluster("health");
    let mut d = Discord::start("health").await;
    d.db_url = cluster.new_database("hexcord").await;
    // Registration comes before the bot takes its first event: a 429 holds it for 3 s.
    d.fake.inject(Fault {
        method: "PUT",
        path: format!("/applications/{APP_ID}/guilds/{}/commands", server::GUILD_ID),
        status: 429,
        body: json!({"message": "You are being rate limited.", "retry_after": 3.0, "global": false}),
        retry_after: Some(3.0),
        times: 1,
        delay: Duration::ZERO,
    });
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let addr = format!("127.0.0.1:{port}");
    let mut bot = Bot::start_with(
        &d,
        &[
            ("WEB_ADDR", addr.as_str()),
            ("PUBLIC_URL", &format!("http://{addr}")),
        ],
    )
    .await;
    let (status, body) = monitor_get(&addr, "/healthz").await;
    assert_eq!(status, 503, "{body}");
    assert!(body.contains("gateway"), "{body}");
    assert!(!body.contains("database"), "{body}");

    d.fake.wait_ready(1).await;
    assert_eq!(health_becomes(&addr, 200).await, "ok\n");
    let ans = d.command(&ANN, "help", vec![]).await;
    assert!(!ans.content.is_empty(), "{ans:?}");
    let (status, scrape) = monitor_get(&addr, "/metrics").await;
    assert_eq!(status, 200, "{scrape}");
    assert!(
        sample(
            &scrape,
            "hexcord_discord_rate_limited_total{scope=\"route\"}"
        ) >= 1.0
    );
    assert_eq!(
        sample(&scrape, "hexcord_gateway_shards{state=\"connected\"}"),
        1.0
    );
    assert!(
        sample(
            &scrape,
            "hexcord_interactions_answered_total{kind=\"command\"}"
        ) >= 1.0
    );
    assert_eq!(sample(&scrape, "hexcord_database_up"), 1.0);

    // The database stops: not ready, saying so; back once it is.
    cluster.stop();
    let body = health_becomes(&addr, 503).await;
    assert!(body.contains("database"), "{body}");
    assert!(!body.contains("gateway"), "{body}");
    let (status, scrape) = monitor_get(&addr, "/metrics").await;
    assert_eq!(status, 200, "{scrape}");
    assert_eq!(sample(&scrape, "hexcord_database_up"), 0.0);
    cluster.start();
    assert_eq!(health_becomes(&addr, 200).await, "ok\n");
    end_with_warnings(
        &d,
        &mut bot,
        &[
            "rate limit",
            "database",
            "pool",
            "connection",
            "delivery",
            "timer",
            "announcement",
        ],
    )
    .await;
}
