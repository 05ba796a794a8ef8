//! The web board served by the real bot: the links its boards and its picker give, the page's
//! state over HTTP, and a move played from the page posted in Discord like any other.

use std::time::Instant;

use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::discord::{components_of, member, Bot, Discord, ANN, BOB};

/// One HTTP/1.1 request to `url` (`http://host:port/path`); the status and the body as JSON.
async fn http(method: &str, url: &str, token: &str, body: Option<Value>) -> (u16, Value) {
    let rest = url.strip_prefix("http://").expect("an http address");
    let (host, path) = rest.split_once('/').expect("a path");
    let mut socket = tokio::net::TcpStream::connect(host).await.expect("connect");
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let request = format!(
        "{method} /{path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nAuthorization: Bearer {token}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    socket.write_all(request.as_bytes()).await.expect("send");
    let mut answer = String::new();
    socket.read_to_string(&mut answer).await.expect("read");
    let (head, body) = answer.split_once("\r\n\r\n").expect("a head and a body");
    assert!(
        head.contains("content-security-policy: default-src 'self'"),
        "{head}"
    );
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("a status");
    (status, serde_json::from_str(body).expect("JSON"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_from_the_page_is_posted_in_discord() {
    let started = Instant::now();
    let d = Discord::start("web").await;
    let mut bot = Bot::start(&d).await;
    d.fake.wait_ready(1).await;
    let size5 = json!({"name": "size", "type": 4, "value": 5});
    let ch = d.challenge(&ANN, &BOB, "inphexion", &[size5]).await;
    let game = d.accept(&BOB, &ch).await;
    let board = d.last_board(game.id);
    // Every board links to the game's page; the mover's picker to their own link.
    let watch = components_of(&board["components"])
        .find(|c| c["label"] == "Watch live")
        .and_then(|c| c["url"].as_str())
        .unwrap_or_else(|| panic!("no Watch live link: {board}"))
        .to_string();
    assert!(
        watch.starts_with("http://127.0.0.1:") && watch.ends_with(&format!("/game/{}", game.id)),
        "{watch}"
    );
    let picker = d.press_move(member(game.to_move), &board).await;
    assert!(picker.ephemeral, "{picker:?}");
    let open = components_of(&picker.components)
        .find(|c| c["label"] == "Open the board")
        .and_then(|c| c["url"].as_str())
        .unwrap_or_else(|| panic!("no private link: {picker:?}"))
        .to_string();
    let token = open
        .strip_prefix(&format!("{watch}#t="))
        .unwrap_or_else(|| panic!("{open}"));
    assert_eq!(token.len(), 64);
    let api = watch.replace("/game/", "/api/game/");
    let (status, state) = http("GET", &format!("{api}/state"), token, None).await;
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["version"], 0);
    let mv = state["legal"][0]["notation"]
        .as_str()
        .unwrap_or_else(|| panic!("no legal moves for the mover: {state}"))
        .to_string();
    let from = d.fake.request_count();
    let body = json!({"move": mv, "version": 0});
    let (status, played) = http("POST", &format!("{api}/move"), token, Some(body)).await;
    assert_eq!(status, 200, "{played}");
    assert_eq!(played["ok"], true);
    let posted = d.posted(from, None, &format!("-# `{mv}`")).await;
    assert!(
        posted.files.len() == 1,
        "the board is posted with its picture"
    );
    let caption = posted.json.as_ref().and_then(|j| j["content"].as_str());
    assert!(
        caption.is_some_and(|c| c.contains(&crate::discord::move_marker(1))),
        "{caption:?}"
    );
    // The same move again: the page's version is stale now, and nothing more is posted.
    let body = json!({"move": mv, "version": 0});
    let (status, refused) = http("POST", &format!("{api}/move"), token, Some(body)).await;
    assert_eq!(status, 409, "{refused}");
    d.end(&mut bot, "web", started).await;
    // The link's secret reached no log line.
    let log = std::fs::read_to_string(d.dir.join("bot.log")).expect("the bot's log");
    assert!(log.contains("web board ready"), "{log}");
    assert!(!log.contains(token), "the token is in the log");
}

/// With the web board listening only on this machine and no `PUBLIC_URL`, members get no links
/// that could not open (no Watch live, no Open the board), and the operator is told once what
/// to set.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_web_board_nobody_else_can_reach_is_offered_to_nobody() {
    let started = Instant::now();
    let d = Discord::start("web_local").await;
    let mut bot = Bot::start_with(&d, &[("PUBLIC_URL", "")]).await;
    d.fake.wait_ready(1).await;
    let size5 = json!({"name": "size", "type": 4, "value": 5});
    let ch = d.challenge(&ANN, &BOB, "inphexion", &[size5]).await;
    let game = d.accept(&BOB, &ch).await;
    let board = d.last_board(game.id);
    let links: Vec<&Value> = components_of(&board["components"])
        .filter(|c| c["url"].is_string())
        .collect();
    assert!(links.is_empty(), "links that cannot open: {links:?}");
    let picker = d.press_move(member(game.to_move), &board).await;
    let links: Vec<&Value> = components_of(&picker.components)
        .filter(|c| c["url"].is_string())
        .collect();
    assert!(links.is_empty(), "links that cannot open: {links:?}");
    d.end(&mut bot, "web_local", started).await;
    let log = std::fs::read_to_string(d.dir.join("bot.log")).expect("the bot's log");
    assert_eq!(
        log.matches("until PUBLIC_URL says where they open it")
            .count(),
        1,
        "{log}"
    );
}
