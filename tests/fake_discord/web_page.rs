//! The web page of a game in a real headless browser: Debian's `chromium` through
//! `chromedriver`, driven with fantoccini. A small axum server in the test serves the page's
//! embedded files (`assets/web/`, `theme.css` from `render::svg::theme_css`) and the JSON State
//! of real games (the board from `render::svg::board`, the legal moves' steps from
//! `play::picker::steps`, the page's words from `page.ftl`), with the same routes and headers as
//! the bot's web server (its Content-Security-Policy forbids inline script and style, so the page
//! breaks if it uses either). Two players play a whole game of each kind only by clicking cells
//! and buttons (and once by keyboard, once refused), and a third page watches every move arrive
//! live. Then the same with the real bot and the fake Discord: the players open the page from the
//! Move button's private links, the fake Discord receives every board, and the watcher's page at
//! phone (360 px) and desktop width is compared with the stored screenshots in `tests/data/web/`.
//!
//! The screenshots are compared with a tolerance, so that font hinting does not make the test
//! flaky: the same size, and at most 3% of the pixels differing by more than 64 in a channel.
//! To refresh them after a deliberate change of the page, run
//! `HEXCORD_BLESS=1 cargo test --test fake_discord web_page` and look at the pictures in
//! `tests/data/web/` (and `assets/web-board.png`, README's picture) before committing.

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::path::PathBuf;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use fantoccini::{Client, ClientBuilder, Locator};
use hexcord::games::{Game, Options};
use hexcord::hex::Hex;
use hexcord::i18n::Lang;
use hexcord::play::picker;
use hexcord::render::svg;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use tokio::sync::broadcast;

const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
     connect-src 'self'; base-uri 'none'; frame-ancestors 'self' https://discord.com \
     https://ptb.discord.com https://canary.discord.com https://discordapp.com \
     https://ptb.discordapp.com https://canary.discordapp.com https://pax.discord.com \
     https://staging.discord.co https://*.discordsays.com";

/// The page's files, embedded as the bot embeds them.
fn asset(name: &str) -> Option<(&'static str, String)> {
    Some(match name {
        "game.js" => (
            "text/javascript; charset=utf-8",
            include_str!("../../assets/web/game.js").to_string(),
        ),
        "picker.js" => (
            "text/javascript; charset=utf-8",
            include_str!("../../assets/web/picker.js").to_string(),
        ),
        "game.css" => (
            "text/css; charset=utf-8",
            include_str!("../../assets/web/game.css").to_string(),
        ),
        "theme.css" => ("text/css; charset=utf-8", svg::theme_css()),
        _ => return None,
    })
}

const PAGE: &str = include_str!("../../assets/web/game.html");

/// One game the test server holds.
struct Table {
    game: Game,
    version: u64,
    /// One more at every change, as the bot's `games.revision`.
    revision: u64,
    players: [String; 2],
    tokens: [String; 2],
    lang: Lang,
    deadline: Option<String>,
    /// Each player's time for their next turn, in seconds, with a time control.
    banks: [Option<i64>; 2],
    /// The next move post is refused with these words (a refusal shown on the page).
    refuse_next: Option<String>,
}

#[derive(Clone)]
struct Shared {
    tables: Arc<Mutex<BTreeMap<i64, Table>>>,
    changes: broadcast::Sender<i64>,
}

/// The page's words in `lang`: every `page-` message, keyed without `page-`.
fn page_texts(lang: Lang) -> BTreeMap<String, String> {
    let catalog = hexcord::i18n::catalog();
    include_str!("../../assets/locales/en-US/page.ftl")
        .lines()
        .filter_map(|l| l.split_once(" = ").map(|(id, _)| id.trim()))
        .filter(|id| id.starts_with("page-"))
        .filter_map(|id| {
            let words = catalog.get_exact(lang, id, None)?;
            Some((id.trim_start_matches("page-").to_string(), words))
        })
        .collect()
}

/// A step's cell from its key (`push:c3`, `rel:e5>a1`, `lay:-1,0`), or none for a button.
fn step_cell(step: &picker::Step) -> Option<Hex> {
    if step.button {
        return None;
    }
    let (_, at) = step.key.split_once(':')?;
    let at = at.rsplit('>').next()?;
    if let Some((q, r)) = at.split_once(',') {
        return Some(Hex::new(q.parse().ok()?, r.parse().ok()?));
    }
    let mut chars = at.chars();
    let col = chars.next()?;
    let row: i32 = chars.as_str().parse().ok()?;
    Some(Hex::new(i32::from(col as u8) - i32::from(b'a'), row - 1))
}

fn legal_of(table: &Table) -> Vec<Value> {
    let pos = table.game.position();
    table
        .game
        .legal_moves()
        .iter()
        .map(|m| {
            let steps: Vec<Value> = picker::steps(pos, m)
                .iter()
                .map(|s| {
                    json!({
                        "cell": step_cell(s).map(|h| format!("{},{}", h.q, h.r)),
                        "key": s.key,
                        "label": s.label.render(table.lang),
                    })
                })
                .collect();
            json!({
                "notation": m.to_string(),
                "words": picker::describe(table.lang, pos, m),
                "steps": steps,
            })
        })
        .collect()
}

fn state_of(id: i64, table: &Table, seat: Option<usize>) -> Value {
    let game = &table.game;
    let to_move = (!game.is_over()).then(|| game.position().to_move().index());
    let theirs = seat.is_some() && seat == to_move;
    let legal = if theirs { legal_of(table) } else { Vec::new() };
    let targets: Vec<Hex> = legal
        .iter()
        .flat_map(|m| m["steps"].as_array().cloned().unwrap_or_default())
        .filter_map(|s| {
            let (q, r) = s["cell"].as_str()?.split_once(',')?;
            Some(Hex::new(q.parse().ok()?, r.parse().ok()?))
        })
        .collect();
    let svg = svg::board(table.lang, game, None, &table.players, &targets).expect("svg");
    let colours = match game.kind() {
        hexcord::games::GameKind::Inphexion => ["White", "Black"],
        hexcord::games::GameKind::Exxit => ["Silver", "Red"],
    };
    let positions = game.positions();
    let moves: Vec<Value> = game
        .moves()
        .iter()
        .enumerate()
        .map(|(i, m)| {
            json!({
                "ply": i + 1,
                "notation": m.to_string(),
                "words": picker::describe(table.lang, &positions[i], m),
            })
        })
        .collect();
    let status = match to_move {
        Some(s) => format!("{} ({}) to move", table.players[s], colours[s]),
        None => game.status(),
    };
    // The players sit by colour here, the first colour's first.
    let (holds, supply) = hexcord::web::state::header_words(table.lang, game, &table.players);
    json!({
        "id": id,
        "kind": match game.kind() {
            hexcord::games::GameKind::Inphexion => "inphexion",
            hexcord::games::GameKind::Exxit => "exxit",
        },
        "variant": game.options().to_string(),
        "version": table.version,
        "revision": table.revision,
        "lang": if table.lang.tag().starts_with("ja") { "ja" } else { "en" },
        "players": [
            {"name": table.players[0], "colour": colours[0], "bank": table.banks[0], "holds": holds[0]},
            {"name": table.players[1], "colour": colours[1], "bank": table.banks[1], "holds": holds[1]},
        ],
        "supply": supply,
        "to_move": to_move,
        "deadline": if to_move.is_some() { table.deadline.clone() } else { None },
        "status": status,
        "result": game.is_over().then(|| game.status()),
        "moves": moves,
        "svg": svg,
        "you": seat.map(|s| json!({"seat": s})),
        "legal": legal,
        "texts": page_texts(table.lang),
    })
}

fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::AUTHORIZATION)?
        .to_str()
        .ok()?
        .strip_prefix("Bearer ")
}

fn refuse(status: StatusCode, words: &str) -> Response {
    (status, Json(json!({"error": words}))).into_response()
}

/// A token for no player of the game.
struct BadToken;

impl IntoResponse for BadToken {
    fn into_response(self) -> Response {
        refuse(
            StatusCode::FORBIDDEN,
            "This link is not valid for this game.",
        )
    }
}

/// The seat a request's token is for (none without a token).
fn seat_of(table: &Table, headers: &HeaderMap) -> Result<Option<usize>, BadToken> {
    match bearer(headers) {
        None => Ok(None),
        Some(t) => table
            .tokens
            .iter()
            .position(|k| k == t)
            .map(Some)
            .ok_or(BadToken),
    }
}

async fn page(State(s): State<Shared>, Path(id): Path<i64>) -> Response {
    if !s.tables.lock().unwrap().contains_key(&id) {
        return (StatusCode::NOT_FOUND, "no such game").into_response();
    }
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], PAGE).into_response()
}

async fn assets(Path(name): Path<String>) -> Response {
    match asset(&name) {
        Some((kind, body)) => ([(header::CONTENT_TYPE, kind)], body).into_response(),
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

async fn state(State(s): State<Shared>, Path(id): Path<i64>, headers: HeaderMap) -> Response {
    let tables = s.tables.lock().unwrap();
    let Some(table) = tables.get(&id) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    match seat_of(table, &headers) {
        Ok(seat) => Json(state_of(id, table, seat)).into_response(),
        Err(r) => r.into_response(),
    }
}

async fn events(
    State(s): State<Shared>,
    Path(id): Path<i64>,
) -> Sse<impl futures_util::Stream<Item = Result<Event, Infallible>>> {
    let rx = s.changes.subscribe();
    let first = {
        let tables = s.tables.lock().unwrap();
        tables.get(&id).map(|t| state_of(id, t, None).to_string())
    };
    let stream =
        futures_util::stream::unfold((rx, first, s), move |(mut rx, first, s)| async move {
            if let Some(data) = first {
                return Some((
                    Ok(Event::default().event("state").data(data)),
                    (rx, None, s),
                ));
            }
            loop {
                match rx.recv().await {
                    // The test cuts every stream: the pages connect again.
                    Ok(CUT) => return None,
                    Ok(changed) if changed == id => {
                        let data = {
                            let tables = s.tables.lock().unwrap();
                            tables.get(&id).map(|t| state_of(id, t, None).to_string())
                        }?;
                        return Some((
                            Ok(Event::default().event("state").data(data)),
                            (rx, None, s),
                        ));
                    }
                    Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => continue,
                    Err(broadcast::error::RecvError::Closed) => return None,
                }
            }
        });
    Sse::new(stream).keep_alive(KeepAlive::default())
}

async fn preview(
    State(s): State<Shared>,
    Path(id): Path<i64>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> Response {
    let tables = s.tables.lock().unwrap();
    let Some(table) = tables.get(&id) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let Ok(Some(seat)) = seat_of(table, &headers) else {
        return refuse(StatusCode::FORBIDDEN, "Only a player may preview a move.");
    };
    if table.game.is_over() || table.game.position().to_move().index() != seat {
        return refuse(StatusCode::CONFLICT, "It is not your turn.");
    }
    let mut after = table.game.clone();
    let Ok(m) = after.play_text(body["move"].as_str().unwrap_or("")) else {
        return refuse(StatusCode::BAD_REQUEST, "That move is not legal here.");
    };
    let words = picker::describe(table.lang, table.game.position(), &m);
    let svg = svg::board(table.lang, &after, None, &table.players, &[]).expect("svg");
    Json(json!({"svg": svg, "words": words})).into_response()
}

async fn play(
    State(s): State<Shared>,
    Path(id): Path<i64>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> Response {
    let answer = {
        let mut tables = s.tables.lock().unwrap();
        let Some(table) = tables.get_mut(&id) else {
            return StatusCode::NOT_FOUND.into_response();
        };
        let seat = match seat_of(table, &headers) {
            Ok(Some(seat)) => seat,
            Ok(None) => return refuse(StatusCode::UNAUTHORIZED, "Open the board from your link."),
            Err(r) => return r.into_response(),
        };
        if let Some(words) = table.refuse_next.take() {
            return refuse(StatusCode::CONFLICT, &words);
        }
        if table.game.is_over() || table.game.position().to_move().index() != seat {
            return refuse(StatusCode::CONFLICT, "It is not your turn.");
        }
        if body["version"].as_u64() != Some(table.version) {
            return refuse(StatusCode::CONFLICT, "The game changed; look again.");
        }
        let mut game = table.game.clone();
        let Ok(m) = game.play_text(body["move"].as_str().unwrap_or("")) else {
            return refuse(StatusCode::BAD_REQUEST, "That move is not legal here.");
        };
        let words = picker::describe(table.lang, table.game.position(), &m);
        table.game = game;
        table.version += 1;
        table.revision += 1;
        json!({"ok": true, "text": format!("Played: {words}")})
    };
    let _ = s.changes.send(id);
    Json(answer).into_response()
}

/// The board after the first `ply` moves.
async fn board_at(State(s): State<Shared>, Path((id, ply)): Path<(i64, usize)>) -> Response {
    let tables = s.tables.lock().unwrap();
    let Some(t) = tables.get(&id) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    if ply > t.game.ply() {
        return refuse(StatusCode::NOT_FOUND, "There is no such position.");
    }
    let svg = svg::board(t.lang, &t.game, Some(ply), &t.players, &[]).expect("svg");
    Json(json!({ "ply": ply, "svg": svg })).into_response()
}

/// Sent on `changes`, ends every event stream.
const CUT: i64 = -1;

/// The stand-in for the bot's web server, on a free port of 127.0.0.1.
async fn serve(shared: Shared) -> String {
    let app = Router::new()
        .route("/game/{id}", get(page))
        .route("/assets/{name}", get(assets))
        .route("/api/game/{id}/state", get(state))
        .route("/api/game/{id}/events", get(events))
        .route("/api/game/{id}/board/{ply}", get(board_at))
        .route("/api/game/{id}/preview", post(preview))
        .route("/api/game/{id}/move", post(play))
        .layer(axum::middleware::map_response(
            |mut r: Response| async move {
                let h = r.headers_mut();
                h.insert(
                    header::CONTENT_SECURITY_POLICY,
                    HeaderValue::from_static(CSP),
                );
                h.insert(
                    header::X_CONTENT_TYPE_OPTIONS,
                    HeaderValue::from_static("nosniff"),
                );
                h.insert(
                    header::REFERRER_POLICY,
                    HeaderValue::from_static("no-referrer"),
                );
                r
            },
        ))
        .with_state(shared);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    format!("http://{addr}")
}

/// chromedriver on a free port, stopped when dropped.
pub struct Driver {
    child: tokio::process::Child,
    url: String,
}

impl Driver {
    pub async fn start() -> Driver {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let child = tokio::process::Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .expect("chromedriver runs (Debian: apt-get install chromium chromium-driver)");
        let url = format!("http://127.0.0.1:{port}");
        let started = Instant::now();
        while tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .is_err()
        {
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "chromedriver did not start"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        Driver { child, url }
    }

    /// A new headless browser window of `width`×`height` CSS pixels.
    pub async fn browser(&self, width: u32, height: u32) -> Client {
        self.browser_with(width, height, &[]).await
    }

    /// [`Driver::browser`] with more of Chromium's switches (`--force-dark-mode`, …).
    pub async fn browser_with(&self, width: u32, height: u32, more: &[&str]) -> Client {
        self.browser_of(width, height, more, json!({})).await
    }

    /// A phone's browser: a touch screen of `width`×`height` CSS pixels.
    pub async fn phone(&self, width: u32, height: u32) -> Client {
        let metrics = json!({"width": width, "height": height, "pixelRatio": 1.0, "touch": true});
        self.browser_of(
            width,
            height,
            &[],
            json!({ "mobileEmulation": { "deviceMetrics": metrics } }),
        )
        .await
    }

    async fn browser_of(&self, width: u32, height: u32, more: &[&str], options: Value) -> Client {
        let mut caps = serde_json::Map::new();
        let mut args = vec![
            "--headless=new".to_string(),
            "--no-sandbox".to_string(),
            "--disable-gpu".to_string(),
            "--disable-dev-shm-usage".to_string(),
            "--hide-scrollbars".to_string(),
            "--force-device-scale-factor=1".to_string(),
            "--lang=en-US".to_string(),
            "--force-color-profile=srgb".to_string(),
            "--font-render-hinting=none".to_string(),
            format!("--window-size={width},{height}"),
        ];
        args.extend(more.iter().map(|a| a.to_string()));
        let mut options = options;
        let phone = options.get("mobileEmulation").is_some();
        options["args"] = json!(args);
        caps.insert("goog:chromeOptions".to_string(), options);
        let client = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
            .capabilities(caps)
            .connect(&self.url)
            .await
            .expect("a browser session");
        if !phone {
            resize(&client, width, height).await;
        }
        client
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.start_kill();
    }
}

/// Makes the page's viewport `width`×`height` CSS pixels.
pub async fn resize(c: &Client, width: u32, height: u32) {
    c.set_window_size(width, height).await.expect("resize");
    // The window includes no browser chrome in headless mode, but make sure of the viewport.
    let inner = c
        .execute("return [window.innerWidth, window.innerHeight];", vec![])
        .await
        .expect("viewport");
    let (iw, ih) = (
        inner[0].as_u64().unwrap_or(0) as u32,
        inner[1].as_u64().unwrap_or(0) as u32,
    );
    if (iw, ih) != (width, height) && iw > 0 {
        c.set_window_size(2 * width - iw, 2 * height - ih)
            .await
            .expect("resize");
    }
}

pub async fn js(c: &Client, script: &str) -> Value {
    c.execute(script, vec![]).await.expect("script runs")
}

/// Waits until `script` returns true in the page.
pub async fn until(c: &Client, what: &str, script: &str) {
    let started = Instant::now();
    loop {
        if js(c, script).await == Value::Bool(true) {
            return;
        }
        assert!(
            started.elapsed() < Duration::from_secs(15),
            "waited in vain for {what}"
        );
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

/// How many moves the page lists.
const MOVES_SHOWN: &str = "return document.querySelectorAll('#moves li:not(.none)').length";

pub async fn moves_shown(c: &Client) -> usize {
    js(c, MOVES_SHOWN).await.as_u64().unwrap_or(0) as usize
}

/// The smallest width or height of the cells that may be clicked next, in CSS pixels.
const SMALLEST_TARGET: &str = "const r = [...document.querySelectorAll('#board .target.next')]\
     .map(g => g.getBoundingClientRect()); \
     return r.length ? Math.min(...r.map(b => Math.min(b.width, b.height))) : -1;";

/// Plays `mv` on the page of the player to move, only by clicking (or, when `keyboard`, with
/// Tab-focus and Enter), then Confirm.
pub async fn click_move(c: &Client, legal: &Value, keyboard: bool) {
    click_steps(c, legal, keyboard).await;
    until(
        c,
        "the preview and Confirm",
        "const b = document.querySelector('#controls button.primary'); \
         return b !== null && !b.disabled && !document.getElementById('preview').hidden \
         && document.querySelector('#preview-board svg') !== null",
    )
    .await;
    c.find(Locator::Css("#controls button.primary"))
        .await
        .expect("Confirm")
        .click()
        .await
        .expect("click Confirm");
}

/// No touch screen (a mouse chooses the smallest cells at once), or the hint to tap to zoom.
const MOUSE_OR_ZOOM: &str = "const touch = navigator.maxTouchPoints > 0 \
     || matchMedia('(pointer: coarse)').matches; \
     return !touch || !document.getElementById('zoom-hint').hidden";

/// A tap of a finger on the element of `css`: a touch, where `click` is a mouse's.
pub async fn tap(c: &Client, css: &str) {
    use fantoccini::actions::{InputSource, PointerAction, TouchActions, MOUSE_BUTTON_LEFT};
    // A finger reaches only what is on the screen.
    js(
        c,
        &format!(
            "document.querySelector({}).scrollIntoView({{ block: 'nearest' }}); return true",
            json!(css)
        ),
    )
    .await;
    let element = c.find(Locator::Css(css)).await.expect("the element to tap");
    let finger = TouchActions::new("finger".to_string())
        .then(PointerAction::MoveToElement {
            element,
            duration: None,
            x: 0.0,
            y: 0.0,
        })
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        })
        .then(PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        });
    c.perform_actions(finger).await.expect("tap");
}

/// Where the page's cells are smaller than a fingertip (and it speaks of taps: a touch
/// screen), zooms in on the cell of `css` (a tap there), first back to the whole board if it is
/// zoomed in elsewhere.
async fn zoom_to(c: &Client, css: &str) {
    let script = format!(
        "const g = document.querySelector('{css}'); \
         const s = document.querySelector('#board svg').getBoundingClientRect(); \
         if (!document.getElementById('zoom-out').hidden) {{ \
           const r = g.getBoundingClientRect(); \
           const x = r.left + r.width / 2, y = r.top + r.height / 2; \
           return x > s.left && x < s.right && y > s.top && y < s.bottom ? 'ok' : 'out'; }} \
         return document.getElementById('zoom-hint').hidden ? 'ok' : 'zoom';"
    );
    let mut how = js(c, &script).await;
    if how == json!("out") {
        c.find(Locator::Css("#zoom-out"))
            .await
            .expect("Whole board")
            .click()
            .await
            .expect("click");
        how = js(c, &script).await;
    }
    if how == json!("zoom") {
        tap(c, css).await;
        until(
            c,
            "the zoom",
            "return !document.getElementById('zoom-out').hidden",
        )
        .await;
        let smallest = js(c, SMALLEST_TARGET).await.as_f64().unwrap_or(-1.0);
        assert!(
            smallest >= 44.0,
            "zoomed in, touch targets of {smallest} px"
        );
    }
}

/// Chooses `mv`'s cells (or its button) on the page of the player to move, up to its preview.
pub async fn click_steps(c: &Client, legal: &Value, keyboard: bool) {
    let steps: Vec<&Value> = legal["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .filter(|s| !s["cell"].is_null())
        .collect();
    if steps.is_empty() {
        // A move by button alone (pass, swap).
        let words = legal["words"].as_str().expect("words");
        until(
            c,
            "the move's button",
            &format!(
                "return [...document.querySelectorAll('#controls button.move')]\
                 .some(b => b.textContent === {})",
                json!(words)
            ),
        )
        .await;
        let buttons = c
            .find_all(Locator::Css("#controls button.move"))
            .await
            .expect("buttons");
        for b in buttons {
            if b.text().await.expect("text") == words {
                b.click().await.expect("click");
                break;
            }
        }
    }
    for step in steps {
        let cell = step["cell"].as_str().expect("cell");
        let css = format!("#board .target.next[data-cell=\"{cell}\"]");
        until(
            c,
            &format!("cell {cell} to be offered"),
            &format!("return document.querySelector('{css}') !== null"),
        )
        .await;
        let label = js(
            c,
            &format!("return document.querySelector('{css}').getAttribute('aria-label')"),
        )
        .await;
        let label = label.as_str().unwrap_or_default();
        assert!(
            label.contains(step["label"].as_str().unwrap_or("")),
            "{cell} is labelled with what it does: {label}"
        );
        if !keyboard {
            zoom_to(c, &css).await;
        }
        // The page may redraw the board between finding a cell and clicking it: find it again.
        let mut tries = 0;
        loop {
            let target = c.find(Locator::Css(&css)).await.expect("target");
            let done = if keyboard {
                js(
                    c,
                    &format!("document.querySelector('{css}').focus(); return true"),
                )
                .await;
                target.send_keys("\u{E007}").await
            } else {
                target.click().await
            };
            match done {
                Ok(()) => break,
                Err(e) if tries < 5 => {
                    tries += 1;
                    eprintln!("{cell}: {e}; again");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                Err(e) => panic!("{cell}: {e}"),
            }
        }
    }
}

/// A PNG compared with a stored one: the same size, and at most 3% of its pixels differing by
/// more than 64 in a channel (font hinting and anti-aliasing move a few pixels, a changed page
/// many). `HEXCORD_BLESS=1` stores it instead.
pub fn compare_screenshot(png: &[u8], name: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("tests/data/web/{name}.png"));
    let shot = image::load_from_memory(png).expect("a PNG").to_rgba8();
    if std::env::var_os("HEXCORD_BLESS").is_some() {
        std::fs::create_dir_all(path.parent().expect("dir")).expect("mkdir");
        let small = hexcord::render::encode_png(&shot).expect("encode");
        std::fs::write(&path, small).expect("write the screenshot");
        return;
    }
    let stored = image::open(&path)
        .unwrap_or_else(|e| {
            panic!(
                "{}: {e} (HEXCORD_BLESS=1 cargo test --test fake_discord web_page stores it)",
                path.display()
            )
        })
        .to_rgba8();
    assert_eq!(
        stored.dimensions(),
        shot.dimensions(),
        "{name}: the page's size changed"
    );
    let differ = stored
        .pixels()
        .zip(shot.pixels())
        .filter(|(a, b)| (0..3).any(|i| a.0[i].abs_diff(b.0[i]) > 64))
        .count();
    let total = (shot.width() * shot.height()) as usize;
    assert!(
        differ * 100 <= total * 3,
        "{name}: {differ} of {total} pixels differ from {} (HEXCORD_BLESS=1 refreshes it)",
        path.display()
    );
}

fn new_table(line: &str, lang: Lang) -> Table {
    Table {
        game: Game::new(Options::parse_line(line).expect("options")),
        version: 0,
        revision: 0,
        players: ["Alice".to_string(), "Bob".to_string()],
        tokens: [
            "Z8k3pQ2vX9mL4rT7wY1nB6cD5fG0hJ2s".to_string(),
            "aS4dF7gH1jK3lQ9wE2rT6yU8iO5pZ0xC".to_string(),
        ],
        lang,
        deadline: None,
        banks: [None, None],
        refuse_next: None,
    }
}

/// Two players play a whole game only by clicking on their pages while a third page watches.
#[allow(clippy::too_many_arguments)]
async fn play_a_game(
    s: &Shared,
    base: &str,
    id: i64,
    players: &[Client; 2],
    watcher: &Client,
    rng: &mut SmallRng,
    max_plies: usize,
) {
    let tokens = s.tables.lock().unwrap()[&id].tokens.clone();
    for (seat, c) in players.iter().enumerate() {
        c.goto(&format!("{base}/game/{id}#t={}", tokens[seat]))
            .await
            .expect("open the board");
    }
    watcher
        .goto(&format!("{base}/game/{id}"))
        .await
        .expect("watch");
    for c in players.iter().chain([watcher]) {
        until(
            c,
            "the board",
            "return document.querySelector('#board svg') !== null",
        )
        .await;
    }
    // The watcher follows the event stream: it can never move.
    assert_eq!(
        js(
            watcher,
            "return document.querySelectorAll('#board .target').length"
        )
        .await,
        json!(0)
    );
    let mut ply = 0;
    loop {
        let (over, seat, legal, version) = {
            let tables = s.tables.lock().unwrap();
            let t = &tables[&id];
            let seat = t.game.position().to_move().index();
            (t.game.is_over(), seat, legal_of(t), t.version)
        };
        if over || ply >= max_plies {
            break;
        }
        let mover = &players[seat];
        until(
            mover,
            "the player's page to offer the move",
            &format!(
                "return document.querySelectorAll('#moves li:not(.none)').length === {ply} \
                 && (document.querySelector('#board .target.next') !== null \
                 || document.querySelector('#controls button.move') !== null)"
            ),
        )
        .await;
        if ply == 0 {
            let smallest = js(mover, SMALLEST_TARGET).await.as_f64().unwrap_or(-1.0);
            // Large enough to touch, or on a touch screen a tap zooms in until they are
            // (`click_move`); a mouse chooses at once.
            let zooms = js(mover, MOUSE_OR_ZOOM).await;
            assert!(
                smallest >= 44.0 || zooms == json!(true),
                "touch targets of {smallest} px"
            );
        }
        let chosen = &legal[rng.random_range(0..legal.len())];
        // One refusal shown in words, then the same move again.
        if ply == 1 {
            s.tables
                .lock()
                .unwrap()
                .get_mut(&id)
                .expect("table")
                .refuse_next = Some("Not now: the game is busy.".to_string());
            click_move(mover, chosen, false).await;
            until(
                mover,
                "the refusal in words",
                "const a = document.getElementById('alert'); \
                 return !a.hidden && a.textContent.includes('Not now: the game is busy.')",
            )
            .await;
            assert_eq!(s.tables.lock().unwrap()[&id].version, version);
        }
        click_move(mover, chosen, ply == 2).await;
        ply += 1;
        let started = Instant::now();
        until(
            watcher,
            "the watcher to see the move",
            &format!("{MOVES_SHOWN} === {ply}"),
        )
        .await;
        let seen = started.elapsed();
        assert!(seen < Duration::from_secs(5), "{seen:?}");
        assert_eq!(s.tables.lock().unwrap()[&id].version, version + 1);
        // The watcher's screen reader hears the move.
        let words = chosen["words"].as_str().unwrap_or("");
        until(
            watcher,
            "the move announced",
            &format!(
                "return document.getElementById('announce').textContent.includes({})",
                json!(words)
            ),
        )
        .await;
    }
    for c in players.iter().chain([watcher]) {
        assert_eq!(moves_shown(c).await, ply);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_plays_whole_games_by_clicking_and_shows_them_live() {
    let (changes, _) = broadcast::channel(64);
    let shared = Shared {
        tables: Arc::new(Mutex::new(BTreeMap::new())),
        changes,
    };
    let base = serve(shared.clone()).await;
    {
        let mut tables = shared.tables.lock().unwrap();
        tables.insert(1, new_table("inphexion size=4", Lang::EN));
        let mut exxit = new_table("exxit tiles=19", Lang::EN);
        // Two days and three hours from now: the page counts it down.
        let deadline = std::time::SystemTime::now() + Duration::from_secs(2 * 86400 + 3 * 3600);
        exxit.deadline = Some(rfc3339(deadline));
        tables.insert(2, exxit);
    }
    // The page's weight: every file and the spectator's State with its board.
    let http = |path: String| {
        let addr = base.trim_start_matches("http://").to_string();
        async move {
            use tokio::io::{AsyncReadExt, AsyncWriteExt};
            let mut stream = tokio::net::TcpStream::connect(&addr)
                .await
                .expect("connect");
            let request =
                format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
            stream.write_all(request.as_bytes()).await.expect("send");
            let mut answer = Vec::new();
            stream.read_to_end(&mut answer).await.expect("read");
            let text = String::from_utf8_lossy(&answer);
            let (head, body) = text.split_once("\r\n\r\n").expect("an HTTP answer");
            assert!(head.starts_with("HTTP/1.1 200"), "{path}: {head}");
            assert!(
                head.to_ascii_lowercase().contains(&format!(
                    "content-security-policy: {}",
                    CSP.to_ascii_lowercase()
                )),
                "{path}: {head}"
            );
            body.len()
        }
    };
    let mut bytes = 0;
    for path in [
        "/game/2".to_string(),
        "/assets/game.js".to_string(),
        "/assets/picker.js".to_string(),
        "/assets/game.css".to_string(),
        "/assets/theme.css".to_string(),
        "/api/game/2/state".to_string(),
    ] {
        bytes += http(path).await;
    }
    // 60 kB before the analysis chart (about 3 kB of script) joined the page; 69 kB with the
    // notes box and Plan ahead (about 5 kB of script and markup); 77.5 kB with Previous and
    // Next, what the players hold on a narrow screen, and the live stream closed while the page
    // is left (about 2.5 kB); 78.5 kB with the course's link in the Activity's list of games
    // (about 0.5 kB).
    assert!(bytes <= 79_000, "the page with its board is {bytes} bytes");
    eprintln!("web page: {bytes} bytes with its board (EXXIT, 19 tiles, spectator)");

    let driver = Driver::start().await;
    let players = [
        driver.browser(360, 800).await,
        driver.browser(360, 800).await,
    ];
    let watcher = driver.browser(1280, 900).await;
    let mut rng = SmallRng::seed_from_u64(27);
    play_a_game(&shared, &base, 1, &players, &watcher, &mut rng, 200).await;
    assert!(shared.lock_game_over(1), "the inpHeXion game ends");
    watcher
        .goto(&format!("{base}/game/2"))
        .await
        .expect("watch");
    until(
        &watcher,
        "the time left counting down",
        "const t = document.getElementById('deadline-left').textContent;          return !document.getElementById('deadline').hidden && /^2d 0[23]:\\d\\d:\\d\\d$/.test(t)",
    )
    .await;
    play_a_game(&shared, &base, 2, &players, &watcher, &mut rng, 400).await;
    assert!(shared.lock_game_over(2), "the EXXIT game ends");
    until(
        &watcher,
        "the result",
        "return !document.getElementById('result').hidden",
    )
    .await;

    for c in players.into_iter().chain([watcher]) {
        let _ = c.close().await;
    }
}

/// A time as `2026-11-27T09:00:00Z`.
fn rfc3339(t: std::time::SystemTime) -> String {
    let secs = t
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    serenity::model::Timestamp::from_unix_timestamp(secs)
        .expect("a time")
        .to_string()
}

impl Shared {
    fn lock_game_over(&self, id: i64) -> bool {
        self.tables.lock().unwrap()[&id].game.is_over()
    }
}

/// A GET of `url` (`http://host:port/path`), with the link's token when there is one: the
/// status and the body as JSON.
pub async fn get_json(url: &str, token: Option<&str>) -> (u16, Value) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let rest = url.strip_prefix("http://").expect("an http address");
    let (host, path) = rest.split_once('/').expect("a path");
    let mut socket = tokio::net::TcpStream::connect(host).await.expect("connect");
    let auth = token
        .map(|t| format!("Authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    let request =
        format!("GET /{path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n{auth}\r\n");
    socket.write_all(request.as_bytes()).await.expect("send");
    let mut answer = String::new();
    socket.read_to_string(&mut answer).await.expect("read");
    let (head, body) = answer.split_once("\r\n\r\n").expect("a head and a body");
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("a status");
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

/// The real bot with the fake Discord: two players play a whole game of each kind only by
/// clicking on the page their private links open, a third page watches every move arrive live,
/// and the fake Discord receives every board.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bots_page_plays_whole_games_by_clicking_and_discord_gets_every_board() {
    use crate::common::boards_seen;
    use crate::discord::{components_of, Bot, Discord, ANN, BOB};
    let started = Instant::now();
    let d = Discord::start("web_page").await;
    let mut bot = Bot::start(&d).await;
    d.fake.wait_ready(1).await;
    let driver = Driver::start().await;
    let pages = [
        driver.browser(360, 800).await,
        driver.browser(360, 800).await,
    ];
    let watcher = driver.browser(1280, 900).await;
    let mut rng = SmallRng::seed_from_u64(2027);
    let size4 = json!({"name": "size", "type": 4, "value": 4});
    let tiles19 = json!({"name": "tiles", "type": 4, "value": 2});
    for (kind, option) in [("inphexion", size4), ("exxit", tiles19)] {
        let ch = d.challenge(&ANN, &BOB, kind, &[option]).await;
        let game = d.accept(&BOB, &ch).await;
        let board = d.last_board(game.id);
        let watch = components_of(&board["components"])
            .find(|c| c["label"] == "Watch live")
            .and_then(|c| c["url"].as_str())
            .unwrap_or_else(|| panic!("no Watch live link: {board}"))
            .to_string();
        let api = watch.replace("/game/", "/api/game/");
        watcher.goto(&watch).await.expect("watch");
        until(
            &watcher,
            "the board",
            "return document.querySelector('#board svg') !== null",
        )
        .await;
        // The players' links, by seat, as each first has the move.
        let mut tokens: [Option<String>; 2] = [None, None];
        let mut ply = 0usize;
        loop {
            let (_, public) = get_json(&format!("{api}/state"), None).await;
            let Some(seat) = public["to_move"].as_u64().map(|s| s as usize) else {
                break;
            };
            assert!(ply < 400, "{kind}: the game goes on and on");
            if tokens[seat].is_none() {
                // The member to move opens the board from the Move button's private link.
                let board = d.last_board(game.id);
                let mut link = None;
                for who in [&ANN, &BOB] {
                    let picker = d.press_move(who, &board).await;
                    let open = components_of(&picker.components)
                        .find(|c| c["label"] == "Open the board")
                        .and_then(|c| c["url"].as_str())
                        .map(str::to_string);
                    if let Some(open) = open {
                        let token = open
                            .split_once("#t=")
                            .map(|(_, t)| t.to_string())
                            .expect("a token");
                        let (_, mine) = get_json(&format!("{api}/state"), Some(&token)).await;
                        if mine["you"]["seat"].as_u64() == Some(seat as u64) {
                            link = Some((open, token));
                            break;
                        }
                    }
                }
                let (open, token) =
                    link.unwrap_or_else(|| panic!("{kind}: no link for seat {seat}"));
                pages[seat].goto(&open).await.expect("open the board");
                tokens[seat] = Some(token);
            }
            let token = tokens[seat].as_deref();
            let (status, mine) = get_json(&format!("{api}/state"), token).await;
            assert_eq!(status, 200, "{mine}");
            let legal = mine["legal"].as_array().cloned().unwrap_or_default();
            assert!(!legal.is_empty(), "{kind}: the mover has moves: {mine}");
            let chosen = legal[rng.random_range(0..legal.len())].clone();
            let page = &pages[seat];
            until(
                page,
                "the player's page to offer the move",
                &format!(
                    "return document.querySelectorAll('#moves li:not(.none)').length === {ply} \
                     && (document.querySelector('#board .target.next') !== null \
                     || document.querySelector('#controls button.move') !== null)"
                ),
            )
            .await;
            if ply < 2 {
                let smallest = js(page, SMALLEST_TARGET).await.as_f64().unwrap_or(-1.0);
                // Large enough to touch, or on a touch screen a tap zooms in until they are
                // (`click_move`); a mouse chooses at once.
                let zooms = js(page, MOUSE_OR_ZOOM).await;
                assert!(
                    smallest >= 44.0 || zooms == json!(true),
                    "touch targets of {smallest} px"
                );
            }
            click_move(page, &chosen, ply == 3).await;
            ply += 1;
            // The watcher sees it live; a post refused for speed (429) is tried again.
            let started_move = Instant::now();
            loop {
                let shown = moves_shown(&watcher).await;
                if shown == ply {
                    break;
                }
                let refused = js(
                    page,
                    "const a = document.getElementById('alert'); \
                     return !a.hidden && a.dataset.kind === 'refusal'",
                )
                .await;
                if refused == Value::Bool(true) {
                    tokio::time::sleep(EVERY_POST).await;
                    until(
                        page,
                        "the move offered again",
                        "return document.querySelector('#board .target.next') !== null \
                         || document.querySelector('#controls button.move') !== null",
                    )
                    .await;
                    click_move(page, &chosen, false).await;
                }
                assert!(
                    started_move.elapsed() < Duration::from_secs(20),
                    "{kind}: move {ply} never reached the watcher"
                );
                tokio::time::sleep(Duration::from_millis(25)).await;
            }
            // And Discord receives the board.
            let waited = Instant::now();
            while boards_seen(&d, game.id, ply as i64) == 0 {
                assert!(
                    waited.elapsed() < Duration::from_secs(15),
                    "{kind}: no board of move {ply} in Discord"
                );
                tokio::time::sleep(Duration::from_millis(25)).await;
            }
            if kind == "inphexion" && ply == 4 {
                screenshots(&watcher).await;
            }
        }
        until(
            &watcher,
            "the result",
            "return !document.getElementById('result').hidden",
        )
        .await;
        eprintln!("{kind}: {ply} moves played by clicking, each seen live and posted");
    }
    for c in pages.into_iter().chain([watcher]) {
        let _ = c.close().await;
    }
    d.end(&mut bot, "web_page", started).await;
}

/// The front page and both games' rules pages of the real bot, on a phone (390×844) in English
/// and in Japanese (asked by the browser's `Accept-Language`, and by `?lang=`): nothing wider than
/// the screen, every picture loaded, the invitation with the application's id and permissions,
/// and `/help` in Discord linking each rules page.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_front_page_and_the_rules_read_well_on_a_phone_in_both_languages() {
    use crate::discord::{components_of, Bot, Discord, ANN};
    let started = Instant::now();
    let d = Discord::start("front_page").await;
    let mut bot = Bot::start(&d).await;
    d.fake.wait_ready(1).await;
    let help = d.command(&ANN, "help", vec![]).await;
    let links: Vec<String> = components_of(&help.components)
        .filter_map(|c| c["url"].as_str().map(str::to_string))
        .collect();
    let base = links
        .iter()
        .find_map(|l| l.strip_suffix("/rules/inphexion"))
        .unwrap_or_else(|| panic!("/help links no rules page: {help:?}"))
        .to_string();
    assert_eq!(
        links,
        [
            format!("{base}/rules/inphexion"),
            format!("{base}/rules/exxit")
        ]
    );
    let invite = format!(
        "https://discord.com/oauth2/authorize?client_id={}&scope=bot+applications.commands&permissions=326417565696",
        crate::server::APP_ID
    );
    let driver = Driver::start().await;
    for (lang, switches, query, words) in [
        ("en", &[][..], "", "Discord bot"),
        ("ja", &["--accept-lang=ja"][..], "", "ボット"),
        ("ja", &[][..], "?lang=ja", "ボット"),
    ] {
        let c = driver.browser_with(390, 844, switches).await;
        for path in ["/", "/rules/inphexion", "/rules/exxit"] {
            let t = Instant::now();
            c.goto(&format!("{base}{path}{query}"))
                .await
                .expect("open the page");
            until(
                &c,
                "the pictures",
                "return document.readyState === 'complete' \
                 && [...document.images].every(i => i.complete)",
            )
            .await;
            let loaded = t.elapsed();
            let page = js(
                &c,
                "return { lang: document.documentElement.lang, \
                 text: document.body.innerText, \
                 wide: document.documentElement.scrollWidth, \
                 screen: window.innerWidth, \
                 pictures: [...document.images].map(i => i.naturalWidth), \
                 shown: [...document.images].map(i => i.getBoundingClientRect().right), \
                 links: [...document.links].map(a => a.href) };",
            )
            .await;
            let what = format!("{path}{query} ({lang})");
            assert_eq!(page["lang"], lang, "{what}");
            assert!(
                page["wide"].as_u64() <= page["screen"].as_u64(),
                "{what}: scrolls sideways: {page}"
            );
            assert_eq!(page["screen"], 390, "{what}");
            let pictures = page["pictures"].as_array().cloned().unwrap_or_default();
            let links = page["links"].as_array().cloned().unwrap_or_default();
            let has_link = |l: &str| links.iter().any(|a| a.as_str() == Some(l));
            if path == "/" {
                assert!(
                    page["text"].as_str().unwrap_or("").contains(words),
                    "{what}: {page}"
                );
                assert!(pictures.is_empty(), "{what}");
                assert!(has_link(&invite), "{what}: no invitation {invite}: {page}");
                for game in ["inphexion", "exxit"] {
                    let rules = format!("{base}/rules/{game}?lang={lang}");
                    assert!(has_link(&rules), "{what}: no link to {rules}: {page}");
                }
            } else {
                assert_eq!(pictures.len(), 3, "{what}: {page}");
                assert!(
                    pictures.iter().all(|w| w.as_u64() > Some(0)),
                    "{what}: a picture did not load: {page}"
                );
                let shown = page["shown"].as_array().cloned().unwrap_or_default();
                assert!(
                    shown.iter().all(|r| r.as_f64() <= Some(390.0)),
                    "{what}: {page}"
                );
                assert!(has_link(&format!("{base}/?lang={lang}")), "{what}: {page}");
            }
            eprintln!(
                "{what}: loaded in {} ms, {} px wide, pictures {:?} px wide",
                loaded.as_millis(),
                page["wide"],
                pictures
            );
        }
        let _ = c.close().await;
    }
    d.end(&mut bot, "front_page", started).await;
}

/// The watcher's page at phone and desktop width, compared with the stored pictures (and, with
/// `HEXCORD_BLESS=1`, README's picture written from the desktop one).
async fn screenshots(watcher: &Client) {
    resize(watcher, 360, 900).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    compare_screenshot(
        &watcher.screenshot().await.expect("screenshot"),
        "page-phone",
    );
    resize(watcher, 1280, 900).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let desktop = watcher.screenshot().await.expect("screenshot");
    compare_screenshot(&desktop, "page-desktop");
    if std::env::var_os("HEXCORD_BLESS").is_some() {
        let img = image::load_from_memory(&desktop).expect("png").to_rgba8();
        let small = hexcord::render::encode_png(&img).expect("encode");
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/web-board.png");
        std::fs::write(path, small).expect("write README's picture");
    }
}

/// How long the bot's web server makes a link wait after a burst of posts.
pub const EVERY_POST: Duration = Duration::from_millis(2100);

/// Plays the first legal move of game `id` as if in Discord, telling no open page: a page that
/// has not heard of it since is stale.
fn move_unseen(s: &Shared, id: i64) {
    let mut tables = s.tables.lock().unwrap();
    let t = tables.get_mut(&id).expect("table");
    let mv = t.game.legal_moves()[0];
    t.game.play(mv).expect("a legal move");
    t.version += 1;
    t.revision += 1;
}

/// A stale page (it missed a move) whose move is refused at its preview then shows the game as
/// it stands; after its event stream is cut, every page connects again and shows what changed
/// meanwhile.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stale_page_shows_the_game_as_it_stands_after_a_refusal_and_a_reconnect() {
    let (changes, _) = broadcast::channel(64);
    let shared = Shared {
        tables: Arc::new(Mutex::new(BTreeMap::new())),
        changes,
    };
    let base = serve(shared.clone()).await;
    let table = new_table("inphexion size=4", Lang::EN);
    let token = table.tokens[0].clone();
    shared.tables.lock().unwrap().insert(1, table);
    let driver = Driver::start().await;
    let player = driver.browser(390, 844).await;
    let watcher = driver.browser(390, 844).await;
    player
        .goto(&format!("{base}/game/1#t={token}"))
        .await
        .expect("open the board");
    watcher
        .goto(&format!("{base}/game/1"))
        .await
        .expect("watch");
    let offered = "return document.querySelector('#board .target.next') !== null";
    until(&player, "the moves offered", offered).await;
    until(
        &watcher,
        "the board",
        "return document.querySelector('#board svg') !== null",
    )
    .await;
    // Alice moves in Discord, and no page hears of it: hers still offers the moves before it.
    let before = legal_of(&shared.tables.lock().unwrap()[&1]);
    move_unseen(&shared, 1);
    click_steps(&player, &before[0], false).await;
    until(
        &player,
        "the refusal in words",
        "const a = document.getElementById('alert'); \
         return !a.hidden && a.dataset.kind === 'refusal' && a.textContent.includes('not your turn')",
    )
    .await;
    // Then the game as it stands: her move listed, nothing to click, Bob to move.
    until(
        &player,
        "the position after the refusal",
        &format!(
            "{MOVES_SHOWN} === 1 && document.querySelector('#board .target.next') === null \
             && document.getElementById('status').textContent.startsWith('Bob')"
        ),
    )
    .await;
    assert_eq!(moves_shown(&watcher).await, 0, "the watcher is stale too");
    // Bob moves unseen too, then every stream is cut: both pages connect again and catch up.
    move_unseen(&shared, 1);
    let _ = shared.changes.send(CUT);
    until(
        &player,
        "Alice's turn after the reconnect",
        &format!("{MOVES_SHOWN} === 2 && document.querySelector('#board .target.next') !== null"),
    )
    .await;
    until(
        &watcher,
        "both moves after the reconnect",
        &format!("{MOVES_SHOWN} === 2"),
    )
    .await;
    for c in [player, watcher] {
        let _ = c.close().await;
    }
}

/// An EXXIT game with 39 tiles played at random up to its last move but one: about the largest
/// world the rules let a game reach, with moves still to make.
fn late_exxit(rng: &mut SmallRng) -> Game {
    let options = Options::parse_line("exxit tiles=39").expect("options");
    let mut game = Game::new(options.clone());
    let mut moves = Vec::new();
    while !game.is_over() && moves.len() < 600 {
        let legal = game.legal_moves();
        let mv = legal[rng.random_range(0..legal.len())];
        game.play(mv).expect("a legal move");
        moves.push(mv);
    }
    // The latest position before the end with a cell to click.
    let clickable = |g: &Game| {
        !g.is_over()
            && g.legal_moves().iter().any(|m| {
                picker::steps(g.position(), m)
                    .iter()
                    .any(|s| step_cell(s).is_some())
            })
    };
    (0..moves.len())
        .rev()
        .map(|n| {
            let mut late = Game::new(options.clone());
            for mv in &moves[..n] {
                late.play(*mv).expect("a legal move");
            }
            late
        })
        .find(clickable)
        .expect("a position with a cell to click")
}

/// Where the page overflows at its size: the page's width beyond the window's, and the board's
/// box beyond the window's edges (at the top of the page).
const OVERFLOW: &str = "const r = document.querySelector('#board svg').getBoundingClientRect(); \
     return { page: document.documentElement.scrollWidth - window.innerWidth, \
       left: -r.left, top: -r.top, right: r.right - window.innerWidth, \
       bottom: r.bottom - window.innerHeight, width: r.width };";

/// The contrast of a clickable cell's marks against what a cell may hold (WCAG's ratio), the
/// weaker of the dark ink and the light halo being hidden by the other: `{worst, ink_halo,
/// dashed_next, solid_chosen}`. `unders` are the palette's names of the cell's possible colours.
fn contrast_script(unders: &[&str]) -> String {
    format!(
        "const rgb = (css) => {{ const e = document.createElement('span'); \
           e.style.color = css; document.body.append(e); \
           const c = getComputedStyle(e).color; e.remove(); \
           return c.match(/[\\d.]+/g).slice(0, 3).map(Number); }}; \
         const lum = (c) => {{ const f = (v) => {{ v /= 255; \
           return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); }}; \
           return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); }}; \
         const ratio = (a, b) => {{ const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); \
           return (x + 0.05) / (y + 0.05); }}; \
         const g = document.querySelector('#board .target.next'); \
         const shape = getComputedStyle(g.querySelector('use:not(.mark)')); \
         const ink = rgb(shape.stroke); \
         const halo = rgb(getComputedStyle(g.querySelector('use.halo')).stroke); \
         const dot = g.querySelector('.dot') !== null; \
         let worst = 99; \
         for (const name of {}) {{ const u = rgb(`var(--hx-${{name}})`); \
           worst = Math.min(worst, Math.max(ratio(ink, u), ratio(halo, u))); }} \
         return {{ worst, ink_halo: ratio(ink, halo), dot, \
           dashed: shape.strokeDasharray !== 'none', \
           last: ratio(ink, rgb('var(--hx-last)')) }};",
        json!(unders)
    )
}

/// The board of each game's largest variant fits the window at phone, tablet and desktop sizes
/// without scrolling; where its cells come out smaller than a fingertip, a tap zooms in on the
/// part tapped until they are not. The clickable cells' marks stand out against any cell in
/// light and dark colours, and the chosen cells are told apart by shape and number.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_board_fits_every_window_and_its_marks_stand_out() {
    let (changes, _) = broadcast::channel(64);
    let shared = Shared {
        tables: Arc::new(Mutex::new(BTreeMap::new())),
        changes,
    };
    let base = serve(shared.clone()).await;
    let mut rng = SmallRng::seed_from_u64(42);
    let mut exxit = new_table("exxit tiles=39", Lang::EN);
    exxit.game = late_exxit(&mut rng);
    exxit.version = exxit.game.ply() as u64;
    exxit.revision = exxit.version;
    let games: [(i64, Table, &[&str]); 2] = [
        (
            1,
            new_table("inphexion size=7", Lang::EN),
            &["cell", "white-disc", "black-disc"],
        ),
        (2, exxit, &["space", "silver-tile", "red-tile", "bg"]),
    ];
    let driver = Driver::start().await;
    let light = driver.browser(390, 844).await;
    let dark = driver.browser_with(390, 844, &["--force-dark-mode"]).await;
    let pics = std::env::var_os("HEXCORD_WEB_PICS").map(PathBuf::from);
    for (id, table, unders) in games {
        let seat = table.game.position().to_move().index();
        let link = format!("{base}/game/{id}#t={}", table.tokens[seat]);
        shared.tables.lock().unwrap().insert(id, table);
        for (scheme, page) in [("light", &light), ("dark", &dark)] {
            page.goto(&link).await.expect("open the board");
            until(
                page,
                &format!("game {id} ({scheme}): the moves offered"),
                "return document.querySelector('#board .target.next') !== null",
            )
            .await;
            for (w, h) in [(360, 640), (390, 844), (768, 1024), (1280, 800)] {
                resize(page, w, h).await;
                js(page, "window.scrollTo(0, 0); return true").await;
                tokio::time::sleep(Duration::from_millis(200)).await;
                let over = js(page, OVERFLOW).await;
                for edge in ["page", "left", "top", "right", "bottom"] {
                    assert!(
                        over[edge].as_f64().unwrap_or(99.0) <= 0.5,
                        "game {id} at {w}×{h}: {edge} overflows: {over}"
                    );
                }
                assert!(
                    over["width"].as_f64().unwrap_or(0.0) >= (w.min(h) as f64) * 0.6,
                    "game {id} at {w}×{h}: the board does not fill its room: {over}"
                );
                let smallest = js(page, SMALLEST_TARGET).await.as_f64().unwrap_or(-1.0);
                eprintln!(
                    "game {id} ({scheme}) at {w}×{h}: the board {} px wide, cells of {smallest:.0} px",
                    over["width"]
                );
                if smallest < 44.0 {
                    // No touch screen here: no hint to tap; a tap all the same zooms.
                    let hint = "return document.getElementById('zoom-hint').hidden";
                    assert_eq!(js(page, hint).await, json!(true), "game {id} at {w}×{h}");
                    tap(page, "#board .target.next").await;
                    until(
                        page,
                        "the zoom",
                        "return !document.getElementById('zoom-out').hidden",
                    )
                    .await;
                    let zoomed = js(page, SMALLEST_TARGET).await.as_f64().unwrap_or(-1.0);
                    eprintln!(
                        "game {id} ({scheme}) at {w}×{h}: zoomed in, cells of {zoomed:.0} px"
                    );
                    assert!(
                        zoomed >= 44.0 || zoomed >= smallest * 2.9,
                        "game {id} at {w}×{h}: {smallest} px cells, {zoomed} px zoomed in"
                    );
                    let over = js(page, OVERFLOW).await;
                    assert!(over["page"].as_f64().unwrap_or(99.0) <= 0.5, "{over}");
                    assert_eq!(
                        js(
                            page,
                            "return document.querySelectorAll('#board .target.chosen').length"
                        )
                        .await,
                        json!(0),
                        "a tap that zooms chooses nothing"
                    );
                    if let (Some(dir), (390, 844), true) = (&pics, (w, h), scheme == "light") {
                        std::fs::create_dir_all(dir).expect("mkdir");
                        let png = page.screenshot().await.expect("screenshot");
                        std::fs::write(dir.join(format!("game{id}-zoomed.png")), png)
                            .expect("write");
                    }
                    page.find(Locator::Css("#zoom-out"))
                        .await
                        .expect("Whole board")
                        .click()
                        .await
                        .expect("click");
                    until(
                        page,
                        "the whole board again",
                        "return document.getElementById('zoom-out').hidden",
                    )
                    .await;
                } else {
                    assert!(
                        js(page, "return document.getElementById('zoom-hint').hidden").await
                            == json!(true),
                        "game {id} at {w}×{h}: no zoom with {smallest} px cells"
                    );
                }
                if let (Some(dir), (390, 844), true) = (&pics, (w, h), scheme == "light") {
                    std::fs::create_dir_all(dir).expect("mkdir");
                    let png = page.screenshot().await.expect("screenshot");
                    std::fs::write(dir.join(format!("game{id}.png")), png).expect("write");
                    // What the page was made of, to show it again with other pages' files.
                    let token = link.split_once("#t=").map(|(_, t)| t.to_string());
                    let api = format!("{base}/api/game/{id}/state");
                    let (_, state) = get_json(&api, token.as_deref()).await;
                    std::fs::write(dir.join(format!("state{id}.json")), state.to_string())
                        .expect("write");
                    std::fs::write(dir.join("theme.css"), svg::theme_css()).expect("write");
                }
            }
            // The marks: dark ink on a light halo (or the other way round), dashed, with a dot,
            // and not the last move's cyan.
            let marks = js(page, &contrast_script(unders)).await;
            eprintln!("game {id} ({scheme}): the marks' contrast {marks}");
            assert!(
                marks["worst"].as_f64().unwrap_or(0.0) >= 3.0
                    && marks["ink_halo"].as_f64().unwrap_or(0.0) >= 3.0
                    && marks["last"].as_f64().unwrap_or(0.0) >= 1.5,
                "game {id}: marks too faint: {marks}"
            );
            assert!(
                marks["dashed"] == json!(true) && marks["dot"] == json!(true),
                "{marks}"
            );
        }
        // A chosen cell: a solid outline and its number in the path (a move of two cells or
        // more; choosing one cell of a single-cell move would preview it).
        let legal = legal_of(&shared.tables.lock().unwrap()[&id]);
        if let Some(two) = legal.iter().find(|m| {
            m["steps"]
                .as_array()
                .is_some_and(|s| s.iter().filter(|s| !s["cell"].is_null()).count() >= 2)
        }) {
            let first = two["steps"]
                .as_array()
                .and_then(|s| s.iter().find(|s| !s["cell"].is_null()))
                .and_then(|s| s["cell"].as_str())
                .expect("a cell")
                .to_string();
            resize(&light, 1280, 800).await;
            let css = format!("#board .target.next[data-cell=\"{first}\"]");
            // A mouse click chooses at once, however small the cells.
            light
                .find(Locator::Css(&css))
                .await
                .expect("the cell")
                .click()
                .await
                .expect("click");
            let chosen = format!("#board .target.chosen[data-cell=\"{first}\"]");
            until(
                &light,
                "the chosen cell",
                &format!("return document.querySelector('{chosen}') !== null"),
            )
            .await;
            let look = js(
                &light,
                &format!(
                    "const g = document.querySelector('{chosen}'); \
                     return [getComputedStyle(g.querySelector('use:not(.mark)')).strokeDasharray, \
                       g.querySelector('.number') && g.querySelector('.number').textContent];"
                ),
            )
            .await;
            assert_eq!(look, json!(["none", "1"]), "game {id}: the chosen cell");
        }
    }
    // On a touch screen the page speaks of taps, not keys.
    let touch = driver.phone(390, 844).await;
    let link = format!(
        "{base}/game/1#t={}",
        shared.tables.lock().unwrap()[&1].tokens[0]
    );
    touch.goto(&link).await.expect("open the board");
    until(
        &touch,
        "the touch words",
        "return document.getElementById('keys').textContent.startsWith('Tap')",
    )
    .await;
    for c in [light, dark, touch] {
        let _ = c.close().await;
    }
}

/// Every change of a game reaches every open page, in order: both players' pages and a
/// spectator's, for a move, a takeback and a resignation made in Discord, in each game.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_change_of_a_game_reaches_every_open_page() {
    use crate::common::opt_str;
    use crate::discord::{components_of, member, Bot, Discord, Pressable, ANN, BOB};
    let started = Instant::now();
    let d = Discord::start("web_changes").await;
    let mut bot = Bot::start(&d).await;
    d.fake.wait_ready(1).await;
    let driver = Driver::start().await;
    let pages = [
        driver.browser(390, 844).await,
        driver.browser(390, 844).await,
        driver.browser(1280, 800).await,
    ];
    let link_of = |answer: &crate::discord::Answer| {
        components_of(&answer.components)
            .find(|c| c["label"] == "Open the board")
            .and_then(|c| c["url"].as_str())
            .map(str::to_string)
            .unwrap_or_else(|| panic!("no private link: {answer:?}"))
    };
    let size4 = json!({"name": "size", "type": 4, "value": 4});
    let tiles19 = json!({"name": "tiles", "type": 4, "value": 2});
    for (kind, option) in [("inphexion", size4), ("exxit", tiles19)] {
        let ch = d.challenge(&ANN, &BOB, kind, &[option]).await;
        let game = d.accept(&BOB, &ch).await;
        let first = member(game.to_move);
        let second = if first.id == ANN.id { &BOB } else { &ANN };
        let board = d.last_board(game.id);
        let watch = components_of(&board["components"])
            .find(|c| c["label"] == "Watch live")
            .and_then(|c| c["url"].as_str())
            .unwrap_or_else(|| panic!("no Watch live link: {board}"))
            .to_string();
        let api = watch.replace("/game/", "/api/game/");
        // The first mover opens their board, then moves in Discord.
        let open = link_of(&d.press_move(first, &board).await);
        let token = open
            .split_once("#t=")
            .map(|(_, t)| t.to_string())
            .expect("a token");
        pages[0].goto(&open).await.expect("open the board");
        pages[2].goto(&watch).await.expect("watch");
        let (_, mine) = get_json(&format!("{api}/state"), Some(&token)).await;
        let mv = mine["legal"][0]["notation"]
            .as_str()
            .expect("a move")
            .to_string();
        let played = d.command(first, "move", vec![opt_str("move", &mv)]).await;
        assert!(played.content.contains(&mv), "{kind}: {played:?}");
        let board = d.last_board(game.id);
        let open = link_of(&d.press_move(second, &board).await);
        pages[1].goto(&open).await.expect("open the board");
        let every = |what: &'static str, script: String| {
            let pages = &pages;
            async move {
                for (i, page) in pages.iter().enumerate() {
                    until(page, &format!("{kind}: page {i}: {what}"), &script).await;
                }
            }
        };
        every("the move", format!("{MOVES_SHOWN} === 1")).await;
        // The first mover takes it back with the other's agreement: every page shows none.
        let game_opt = json!({"name": "game", "type": 3, "value": game.id.to_string()});
        let ask = d.command(first, "takeback", vec![game_opt]).await;
        let ask = Pressable::from_answer(&ask, &d.fake);
        d.answer_challenge(second, &ask, "tbyes", "taken back")
            .await;
        every(
            "the takeback",
            "return document.querySelectorAll('#moves li.none').length === 1".to_string(),
        )
        .await;
        until(
            &pages[0],
            &format!("{kind}: the first mover's moves offered again"),
            "return document.querySelector('#board .target.next') !== null \
             || document.querySelector('#controls button.move') !== null",
        )
        .await;
        // The second resigns from Discord: every page shows the result, nobody to move.
        let ans = d.press(second, &Pressable::resign(game.id), "resign").await;
        assert!(!ans.content.is_empty(), "{ans:?}");
        every(
            "the resignation",
            "return !document.getElementById('result').hidden \
             && document.querySelector('#players .tag.turn') === null \
             && document.querySelector('#board .target.next') === null"
                .to_string(),
        )
        .await;
    }
    for c in pages {
        let _ = c.close().await;
    }
    d.end(&mut bot, "web_changes", started).await;
}

/// The move list steps through earlier positions, by click and by arrow keys, and back to the
/// live one; each player's clock is beside their name, the mover's counting down; a new move
/// arrives marked fresh (animated unless the reader asks for less motion); the move sound is off
/// until turned on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_move_list_steps_through_the_game_and_the_clocks_run() {
    let (changes, _) = broadcast::channel(64);
    let shared = Shared {
        tables: Arc::new(Mutex::new(BTreeMap::new())),
        changes,
    };
    let base = serve(shared.clone()).await;
    let mut table = new_table("inphexion size=4", Lang::EN);
    let deadline = std::time::SystemTime::now() + Duration::from_secs(3 * 3600);
    table.deadline = Some(rfc3339(deadline));
    table.banks = [Some(86_400 + 2 * 3600); 2];
    shared.tables.lock().unwrap().insert(1, table);
    for _ in 0..3 {
        move_unseen(&shared, 1);
    }
    let seat = shared.tables.lock().unwrap()[&1]
        .game
        .position()
        .to_move()
        .index();
    let token = shared.tables.lock().unwrap()[&1].tokens[seat].clone();
    let driver = Driver::start().await;
    let page = driver.browser(1280, 800).await;
    page.goto(&format!("{base}/game/1#t={token}"))
        .await
        .expect("open the board");
    let offered = "return document.querySelector('#board .target.next') !== null";
    until(&page, "the moves offered", offered).await;
    // The clocks: the mover's counting down from 3 hours, the other's bank of 1 day 2 hours.
    let clock = |s: usize| {
        format!("return document.querySelector('#players .clock[data-seat=\"{s}\"]').textContent")
    };
    until(
        &page,
        "the mover's clock",
        &format!(
            "return /^(02:59:5\\d|03:00:00)$/.test(({})())",
            clock(seat).replace("return ", "() => ")
        ),
    )
    .await;
    assert_eq!(js(&page, &clock(1 - seat)).await, json!("1d 02:00:00"));
    let live = js(
        &page,
        "return document.querySelector('#board svg').outerHTML",
    )
    .await;
    // The first move, clicked in the list: its position, nothing to click, the way back.
    page.find(Locator::Css("#moves button.step[data-ply=\"1\"]"))
        .await
        .expect("move 1")
        .click()
        .await
        .expect("click");
    let reviewing = |words: &str| {
        format!(
            "return !document.getElementById('review').hidden \
             && document.getElementById('review-words').textContent === {} \
             && document.querySelector('#board svg') !== null \
             && document.querySelector('#board .target.next') === null",
            json!(words)
        )
    };
    until(
        &page,
        "the position after move 1",
        &reviewing("Position after move 1"),
    )
    .await;
    let earlier = js(
        &page,
        "return document.querySelector('#board svg').outerHTML",
    )
    .await;
    assert_ne!(earlier, live, "an earlier board");
    // The arrow keys: back to the start, then on to move 2.
    let key = |k: &'static str| {
        let page = &page;
        async move {
            page.find(Locator::Css("body"))
                .await
                .expect("body")
                .send_keys(k)
                .await
                .expect("a key");
        }
    };
    key("\u{E012}").await; // ←
    until(&page, "the start", &reviewing("Position at the start")).await;
    key("\u{E014}").await; // →
    key("\u{E014}").await;
    until(
        &page,
        "the position after move 2",
        &reviewing("Position after move 2"),
    )
    .await;
    assert_eq!(
        js(
            &page,
            "return document.querySelector('#moves [aria-current]').dataset.ply"
        )
        .await,
        json!("2")
    );
    // Escape: the live position, moves to click again.
    key("\u{E00C}").await;
    until(
        &page,
        "the live position",
        "return document.getElementById('review').hidden \
         && document.querySelector('#board .target.next') !== null",
    )
    .await;
    // The sound is off until the reader turns it on, and stays as they left it.
    assert_eq!(
        js(
            &page,
            "return document.getElementById('sound').getAttribute('aria-pressed')"
        )
        .await,
        json!("false")
    );
    page.find(Locator::Css("#sound"))
        .await
        .expect("sound")
        .click()
        .await
        .expect("click");
    assert_eq!(
        js(
            &page,
            "return [document.getElementById('sound').getAttribute('aria-pressed'), \
                   localStorage.getItem('hexcord-sound')]"
        )
        .await,
        json!(["true", "on"])
    );
    // A new move arrives marked fresh, its marks animated.
    let legal = legal_of(&shared.tables.lock().unwrap()[&1]);
    click_move(&page, &legal[0], false).await;
    until(
        &page,
        "the new move, fresh",
        &format!(
            "{MOVES_SHOWN} === 4 && document.getElementById('board').classList.contains('fresh')"
        ),
    )
    .await;
    let animated = js(
        &page,
        "const m = document.querySelector('#board .s-last'); \
         return m ? getComputedStyle(m).animationName : 'no mark'",
    )
    .await;
    assert_eq!(animated, json!("pg-arrive"));
    let _ = page.close().await;
}

/// The real bot with the fake Discord: Ann has three games (two waiting for her, one day and
/// three days per move, one waiting for Bob). She opens her inbox from `/games`' private link,
/// sees the two in deadline order, plays the first in place (the game's page in the inbox's
/// frame, with the inbox's token), and it leaves her list; Bob's move in the third adds it live;
/// a forged token shows a refusal and no game.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_inbox_lists_the_games_waiting_least_time_first_and_plays_them_in_place() {
    use crate::discord::{components_of, Bot, Discord, ANN, BOB};
    let started = Instant::now();
    let d = Discord::start("web_inbox").await;
    let mut bot = Bot::start(&d).await;
    d.fake.wait_ready(1).await;
    let size4 = json!({"name": "size", "type": 4, "value": 4});
    let days = |n: i64| json!({"name": "days_per_move", "type": 4, "value": n});
    // DaysChoice: 0 is one day, 1 three days.
    let mut ids = Vec::new();
    for (who, other, per_move) in [(&ANN, &BOB, 1), (&ANN, &BOB, 0), (&BOB, &ANN, 1)] {
        let ch = d
            .challenge(who, other, "inphexion", &[size4.clone(), days(per_move)])
            .await;
        ids.push(d.accept(other, &ch).await.id);
    }
    let [three_days, one_day, bobs] = ids[..] else {
        unreachable!()
    };
    let games = d.command(&ANN, "games", vec![]).await;
    assert!(games.ephemeral, "the inbox's link is private: {games:?}");
    let link = components_of(&games.components)
        .find_map(|c| c["url"].as_str().filter(|u| u.contains("/inbox#t=")))
        .unwrap_or_else(|| panic!("no inbox link under /games: {games:?}"))
        .to_string();
    // Asking about another member gives no link to one's inbox.
    let bobs_games = d
        .command_with(
            &ANN,
            "games",
            vec![json!({"name": "user", "type": 6, "value": BOB.id.to_string()})],
            &[&BOB],
        )
        .await;
    assert!(
        !bobs_games.components.to_string().contains("/inbox"),
        "{bobs_games:?}"
    );

    let driver = Driver::start().await;
    let page = driver.browser(1280, 900).await;
    page.goto(&link).await.expect("open the inbox");
    const LISTED: &str = "return [...document.querySelectorAll('#games button')]\
         .map(b => Number(b.dataset.game))";
    let listed = |want: Vec<i64>| {
        let want = serde_json::to_string(&want).unwrap_or_default();
        format!("const l = (() => {{ {LISTED}; }})(); return JSON.stringify(l) === '{want}'")
    };
    until(
        &page,
        "the two games, one day first",
        &listed(vec![one_day, three_days]),
    )
    .await;
    let words = js(&page, "return document.getElementById('games').textContent").await;
    let words = words.as_str().unwrap_or_default().to_string();
    assert!(
        words.contains(&format!("#{one_day} inpHeXion")) && words.contains("Time left"),
        "{words}"
    );
    // Played in place: the game's own page in the frame, with the inbox's token.
    page.find(Locator::Css(&format!(
        "#games button[data-game='{one_day}']"
    )))
    .await
    .expect("the game's entry")
    .click()
    .await
    .expect("choose it");
    let frame = page.find(Locator::Id("frame")).await.expect("the frame");
    frame.enter_frame().await.expect("enter the frame");
    until(
        &page,
        "the board offering Ann's move",
        "return document.querySelector('#board .target.next') !== null",
    )
    .await;
    let token = link.split_once("#t=").map(|(_, t)| t).expect("a token");
    let web = link.split_once("/inbox").map(|(b, _)| b).expect("the base");
    let (status, mine) = get_json(&format!("{web}/api/game/{one_day}/state"), Some(token)).await;
    assert_eq!(status, 200, "{mine}");
    assert_eq!(
        mine["you"]["seat"],
        json!(0),
        "the inbox's token plays Ann's seat"
    );
    let legal = mine["legal"][0].clone();
    click_move(&page, &legal, false).await;
    until(
        &page,
        "the move shown",
        "return document.querySelectorAll('#moves li:not(.none)').length === 1",
    )
    .await;
    page.enter_parent_frame().await.expect("back to the inbox");
    until(
        &page,
        "the game played gone from the list",
        &listed(vec![three_days]),
    )
    .await;
    assert_eq!(d.move_count(one_day).await, 1);

    // Bob moves in Discord: the game waiting for Ann comes into her list live.
    let (_, public) = get_json(&format!("{web}/api/game/{bobs}/state"), None).await;
    assert_eq!(public["to_move"], json!(0), "{public}");
    let pool = hexcord::db::connect(&d.db_url).await.expect("db");
    let (_, game) = hexcord::play::actions::load(&pool, bobs)
        .await
        .expect("the game");
    pool.close().await;
    let mv = game.legal_notations()[0].clone();
    let played = d
        .command(
            &BOB,
            "move",
            vec![
                json!({"name": "move", "type": 3, "value": mv}),
                json!({"name": "game", "type": 3, "value": bobs.to_string()}),
            ],
        )
        .await;
    assert!(!played.content.is_empty(), "{played:?}");
    until(
        &page,
        "Bob's game added live",
        &listed(vec![three_days, bobs]),
    )
    .await;

    // A forged token: a refusal in words, no game, nothing else asked.
    let forged = format!("{web}/inbox#t={}", "0f".repeat(32));
    page.goto(&forged).await.expect("forged link");
    until(
        &page,
        "the refusal",
        "const a = document.getElementById('alert'); \
         return !a.hidden && a.textContent.includes('not valid')",
    )
    .await;
    assert_eq!(js(&page, LISTED).await, json!([]));
    assert_eq!(
        js(&page, "return document.getElementById('frame').hidden").await,
        json!(true)
    );
    let (status, refused) = get_json(&format!("{web}/api/game/{three_days}/state"), None).await;
    assert_eq!(status, 200, "{refused}");
    let _ = page.close().await;
    d.end(&mut bot, "web_inbox", started).await;
}

/// The real binary with no Discord setting (no token, no `.env`): local play on a free port,
/// over a new SQLite file in a folder of its own. Its standard output is read line by line.
pub struct Local {
    child: tokio::process::Child,
    lines: tokio::io::Lines<tokio::io::BufReader<tokio::process::ChildStdout>>,
    dir: PathBuf,
    pub base: String,
}

impl Local {
    pub async fn start(name: &str) -> Local {
        use tokio::io::AsyncBufReadExt;
        let dir = std::env::temp_dir().join(format!("hexcord-local-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let log = std::fs::File::create(dir.join("hexcord.log")).expect("log file");
        let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_hexcord"));
        for (key, _) in hexcord::config::SETTINGS {
            command.env_remove(key);
        }
        let mut child = command
            .current_dir(&dir)
            .env(
                "DATABASE_URL",
                format!("sqlite://{}", dir.join("hexcord.db").display()),
            )
            .env("WEB_ADDR", format!("127.0.0.1:{port}"))
            .stdout(Stdio::piped())
            .stderr(Stdio::from(log))
            .kill_on_drop(true)
            .spawn()
            .expect("the hexcord binary starts");
        let stdout = child.stdout.take().expect("its standard output");
        let lines = tokio::io::BufReader::new(stdout).lines();
        Local {
            child,
            lines,
            dir,
            base: format!("http://127.0.0.1:{port}"),
        }
    }

    /// The next line hexcord prints, within `within`.
    pub async fn line(&mut self, within: Duration) -> Option<String> {
        tokio::time::timeout(within, self.lines.next_line())
            .await
            .ok()
            .and_then(|l| l.expect("standard output"))
    }

    /// Stops hexcord: it printed nothing more, and logged no warning or error.
    pub async fn end(mut self) {
        let _ = self.child.kill().await;
        let rest = self.line(Duration::from_secs(5)).await;
        assert_eq!(rest, None, "more than one line printed");
        let log = std::fs::read_to_string(self.dir.join("hexcord.log")).unwrap_or_default();
        assert!(log.trim().is_empty(), "hexcord logged: {log}");
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// How many moves the page lists, as an expression.
const SHOWN: &str = "document.querySelectorAll('#moves li:not(.none)').length";

/// Starts hexcord locally and checks its one line; the browser opens `/`.
async fn local_front(name: &str, c: &Client) -> Local {
    let mut local = Local::start(name).await;
    let line = local
        .line(Duration::from_secs(60))
        .await
        .expect("a line saying where to play");
    assert!(
        line.starts_with("hexcord: playing locally")
            && line.contains(&format!("open {}/ to play", local.base))
            && line.contains("DISCORD_TOKEN=… in .env"),
        "{line}"
    );
    c.goto(&format!("{}/", local.base)).await.expect("open /");
    until(
        c,
        "the front page's forms",
        "return document.querySelectorAll('form[action^=\"/local/new\"]').length === 2",
    )
    .await;
    local
}

/// Chooses `value` in the select `name` of the new-game form of `game`.
async fn choose(c: &Client, game: &str, name: &str, value: &str) {
    c.find(Locator::Css(&format!(
        "#new-{game} select[name=\"{name}\"]"
    )))
    .await
    .expect("the select")
    .select_by_value(value)
    .await
    .expect("choose");
}

/// Presses the new-game form's Start (or a game's Open, `css`), then waits for the game page:
/// its id and link token.
async fn to_game_page(c: &Client, css: &str) -> (i64, String) {
    c.find(Locator::Css(css))
        .await
        .expect("the button")
        .click()
        .await
        .expect("click");
    until(
        c,
        "the game page",
        "return /^\\/game\\/\\d+$/.test(location.pathname) && location.hash.startsWith('#t=') \
         && document.querySelector('#board svg') !== null",
    )
    .await;
    let at = js(c, "return [location.pathname, location.hash]").await;
    let id = at[0]
        .as_str()
        .and_then(|p| p.strip_prefix("/game/"))
        .expect("a game page");
    let token = at[1]
        .as_str()
        .and_then(|h| h.strip_prefix("#t="))
        .expect("a token");
    (id.parse().expect("an id"), token.to_string())
}

/// Local play, with no Discord setting: the one line printed, then a game against the bot
/// started from `/` (the bot moving first) and played to its end only by clicking, its result
/// on the page and the game listed on `/` as finished.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn local_play_a_game_against_the_bot_to_its_end_by_clicking() {
    let started = Instant::now();
    let driver = Driver::start().await;
    let c = driver.browser(1280, 900).await;
    let local = local_front("bot", &c).await;
    choose(&c, "inphexion", "against", "easy").await;
    choose(&c, "inphexion", "first", "no").await;
    choose(&c, "inphexion", "size", "4").await;
    let (id, token) = to_game_page(&c, "#new-inphexion button[type=submit]").await;
    let api = format!("{}/api/game/{id}", local.base);
    let mut rng = SmallRng::seed_from_u64(43);
    let mut mine = 0;
    loop {
        let (status, state) = get_json(&format!("{api}/state"), Some(&token)).await;
        assert_eq!(status, 200, "{state}");
        assert_eq!(state["you"]["seat"], 1, "you play second: {state}");
        let ply = state["moves"].as_array().map_or(0, Vec::len);
        assert!(ply < 200, "the game goes on and on");
        match state["to_move"].as_u64() {
            None => break,
            // The bot's turn: it answers by itself.
            Some(0) => {
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
            Some(_) => {}
        }
        let legal = state["legal"].as_array().cloned().unwrap_or_default();
        assert!(!legal.is_empty(), "{state}");
        until(
            &c,
            "the page to offer the move",
            &format!(
                "return {SHOWN} === {ply} \
                 && (document.querySelector('#board .target.next') !== null \
                 || document.querySelector('#controls button.move') !== null)"
            ),
        )
        .await;
        click_move(&c, &legal[rng.random_range(0..legal.len())], false).await;
        mine += 1;
        until(&c, "the move shown", &format!("return {SHOWN} > {ply}")).await;
    }
    let (_, state) = get_json(&format!("{api}/state"), None).await;
    let result = state["result"].as_str().expect("a result").to_string();
    until(
        &c,
        "the result on the page",
        &format!(
            "const r = document.getElementById('result'); return !r.hidden && r.textContent.includes({})",
            json!(result)
        ),
    )
    .await;
    let plies = state["moves"].as_array().map_or(0, Vec::len);
    assert!(mine > 0 && plies >= 2 * mine - 1, "{mine} of {plies} moves");
    // Stored: `/` lists it as finished, with its result.
    c.goto(&format!("{}/", local.base)).await.expect("open /");
    let listed = js(
        &c,
        &format!(
            "const li = document.querySelector('li[data-game=\"{id}\"]'); \
             return li && [li.dataset.status, li.textContent]"
        ),
    )
    .await;
    assert_eq!(listed[0], "finished", "{listed}");
    let shown = listed[1].as_str().unwrap_or_default();
    assert!(
        shown.contains("You") && shown.contains("hexcord"),
        "{shown}"
    );
    eprintln!(
        "a game against the bot: {plies} moves ({mine} clicked), {result}; {:?}",
        started.elapsed()
    );
    // Healthy without a gateway to wait for: local play has none.
    c.goto(&format!("{}/healthz", local.base))
        .await
        .expect("open /healthz");
    let health = js(&c, "return document.body.innerText.trim();").await;
    assert_eq!(health, "ok", "{health}");
    let _ = c.close().await;
    local.end().await;
}

/// Local play, two players at one screen: the one page plays both sides by clicking, and the
/// game, listed on `/`, opens again there and goes on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn local_play_two_players_at_one_screen() {
    let driver = Driver::start().await;
    let c = driver.browser(1280, 900).await;
    let local = local_front("hot_seat", &c).await;
    choose(&c, "exxit", "against", "two").await;
    choose(&c, "exxit", "tiles", "19").await;
    let (id, token) = to_game_page(&c, "#new-exxit button[type=submit]").await;
    let api = format!("{}/api/game/{id}", local.base);
    let mut rng = SmallRng::seed_from_u64(44);
    let mut token = token;
    for ply in 0..7usize {
        if ply == 4 {
            // Back to `/`, where the game is in play, and opened again from there.
            c.goto(&format!("{}/", local.base)).await.expect("open /");
            let status = js(
                &c,
                &format!("return document.querySelector('li[data-game=\"{id}\"]').dataset.status"),
            )
            .await;
            assert_eq!(status, "active");
            let (again, fresh) =
                to_game_page(&c, &format!("li[data-game=\"{id}\"] button[type=submit]")).await;
            assert_eq!(again, id);
            token = fresh;
        }
        let (_, state) = get_json(&format!("{api}/state"), Some(&token)).await;
        let seat = state["to_move"].as_u64().expect("in play");
        assert_eq!(seat, ply as u64 % 2, "{state}");
        // Whoever is to move plays from this page.
        assert_eq!(state["you"]["seat"], seat, "{state}");
        let legal = state["legal"].as_array().cloned().unwrap_or_default();
        until(
            &c,
            "the page to offer the move",
            &format!(
                "return {SHOWN} === {ply} \
                 && document.querySelector('.seat-{seat} .you') !== null \
                 && (document.querySelector('#board .target.next') !== null \
                 || document.querySelector('#controls button.move') !== null)"
            ),
        )
        .await;
        click_move(&c, &legal[rng.random_range(0..legal.len())], false).await;
        until(
            &c,
            "the move shown",
            &format!("return {SHOWN} === {}", ply + 1),
        )
        .await;
    }
    let (_, state) = get_json(&format!("{api}/state"), None).await;
    let players: Vec<&str> = state["players"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| p["name"].as_str())
        .collect();
    assert_eq!(players, ["You", "Player 2"]);
    assert_eq!(state["moves"].as_array().map(Vec::len), Some(7));
    let _ = c.close().await;
    local.end().await;
}

/// The notes box of a game's page: shown to the page's player (their link), saved to the server
/// and there again after a reload; a spectator's page (no link) has none, and the game's public
/// state never carries them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_notes_box_keeps_the_players_notes_and_spectators_see_none() {
    let driver = Driver::start().await;
    let c = driver.browser(1280, 900).await;
    let local = local_front("notes", &c).await;
    choose(&c, "inphexion", "against", "easy").await;
    choose(&c, "inphexion", "size", "4").await;
    let (id, token) = to_game_page(&c, "#new-inphexion button[type=submit]").await;
    until(
        &c,
        "the notes box",
        "return !document.getElementById('notes').hidden",
    )
    .await;
    let heading = js(
        &c,
        "return document.getElementById('notes-heading').textContent",
    )
    .await;
    assert_eq!(heading, "Your private notes");
    c.execute(
        "const t = document.getElementById('notes-text'); \
         t.value = 'Keep the centre; the bot likes edges'; \
         t.dispatchEvent(new Event('input')); \
         document.getElementById('notes-save').click();",
        vec![],
    )
    .await
    .expect("type and save");
    until(
        &c,
        "the notes saved",
        "return document.getElementById('notes-said').textContent === 'Notes saved.'",
    )
    .await;
    c.refresh().await.expect("reload");
    until(
        &c,
        "the notes again after a reload",
        "return document.getElementById('notes-text').value === 'Keep the centre; the bot likes edges'",
    )
    .await;
    // A spectator: the page without the link.
    c.goto(&format!("{}/game/{id}", local.base))
        .await
        .expect("open as a spectator");
    until(
        &c,
        "the board",
        "return document.querySelector('#board svg') !== null",
    )
    .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let hidden = js(&c, "return document.getElementById('notes').hidden").await;
    assert_eq!(hidden, Value::Bool(true));
    let (status, state) = get_json(&format!("{}/api/game/{id}/state", local.base), None).await;
    assert_eq!(status, 200);
    assert!(!state.to_string().contains("likes edges"), "{state}");
    let (status, notes) =
        get_json(&format!("{}/api/game/{id}/notes", local.base), Some(&token)).await;
    assert_eq!(
        (status, notes["notes"].as_str()),
        (200, Some("Keep the centre; the bot likes edges"))
    );
    let _ = c.close().await;
    local.end().await;
}

/// Plan ahead on the page's board: in a game between two members, the waiting player presses
/// "Plan on the board", clicks their opponent's expected move and their reply on the preview
/// board (marked as not played; nothing is played meanwhile), saves the line and sees it listed;
/// when the opponent plays the expected move, the reply is played at once and shown live.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_line_planned_by_clicking_on_the_preview_board_is_played_when_it_comes() {
    use crate::common::opt_str;
    use crate::discord::{components_of, Bot, Discord, ANN, BOB};
    let started = Instant::now();
    let d = Discord::start("web_plans").await;
    let mut bot = Bot::start(&d).await;
    d.fake.wait_ready(1).await;
    let size4 = json!({"name": "size", "type": 4, "value": 4});
    let ch = d.challenge(&ANN, &BOB, "inphexion", &[size4]).await;
    let game = d.accept(&BOB, &ch).await;
    let id = game.id;
    assert_eq!(game.to_move, ANN.id);
    let board = d.last_board(id);
    let watch = components_of(&board["components"])
        .find(|c| c["label"] == "Watch live")
        .and_then(|c| c["url"].as_str())
        .unwrap_or_else(|| panic!("no Watch live link: {board}"))
        .to_string();
    let base = watch.replace(&format!("/game/{id}"), "");
    // Bob's own link, as /board gives it him.
    let pool = hexcord::db::connect(&d.db_url).await.expect("db");
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("time")
        .as_secs() as i64;
    let token = hexcord::play::links::issue(&pool, id, hexcord::db::UserId(BOB.id), now)
        .await
        .expect("Bob's link");
    pool.close().await;

    let driver = Driver::start().await;
    let c = driver.browser(1280, 900).await;
    c.goto(&format!("{watch}#t={token}"))
        .await
        .expect("open Bob's page");
    until(
        &c,
        "the Plan ahead box",
        "return !document.getElementById('plans').hidden \
         && document.getElementById('plans-board').textContent === 'Plan on the board'",
    )
    .await;
    c.find(Locator::Id("plans-board"))
        .await
        .expect("the button")
        .click()
        .await
        .expect("start planning");
    until(
        &c,
        "the preview board's banner",
        "return !document.getElementById('plan-banner').hidden \
         && document.getElementById('plan-banner').textContent.startsWith('Planning — not played')",
    )
    .await;
    // Ann's expected move, then Bob's reply, clicked as moves are, from the preview's offers.
    let mut line: Vec<String> = Vec::new();
    for prompt in [
        "Click the move you expect from your opponent.",
        "Click your reply.",
    ] {
        until(
            &c,
            "the prompt",
            &format!(
                "return document.getElementById('prompt').textContent === {}",
                json!(prompt)
            ),
        )
        .await;
        let url = format!(
            "{base}/api/game/{id}/plans/preview?line={}",
            line.join("%3B")
        );
        let (status, preview) = get_json(&url, Some(&token)).await;
        assert_eq!(status, 200, "{preview}");
        let legal = preview["legal"]
            .as_array()
            .expect("legal moves")
            .iter()
            .find(|m| {
                m["notation"] != "swap" && m["steps"].as_array().is_some_and(|s| !s.is_empty())
            })
            .unwrap_or_else(|| panic!("no move to click: {preview}"))
            .clone();
        click_steps(&c, &legal, false).await;
        line.push(legal["notation"].as_str().expect("notation").to_string());
        let shown = line.join(" → ");
        until(
            &c,
            "the line on the banner",
            &format!(
                "return document.getElementById('plan-banner').textContent.endsWith({})",
                json!(shown)
            ),
        )
        .await;
    }
    assert_eq!(moves_shown(&c).await, 0, "nothing is played while planning");
    until(
        &c,
        "Save line",
        "const b = document.querySelector('#controls button.primary'); \
         return b !== null && !b.disabled && b.textContent === 'Save line'",
    )
    .await;
    c.find(Locator::Css("#controls button.primary"))
        .await
        .expect("Save line")
        .click()
        .await
        .expect("save");
    let listed = format!("{} → {}", line[0], line[1]);
    until(
        &c,
        "the line listed, and the live board back",
        &format!(
            "return document.getElementById('plans-list').textContent.includes({}) \
             && document.getElementById('plan-banner').hidden",
            json!(listed)
        ),
    )
    .await;
    // Ann plays the expected move: Bob's reply follows at once, on Bob's page too.
    let answer = d
        .command(
            &ANN,
            "move",
            vec![opt_str("move", &line[0]), opt_str("game", &id.to_string())],
        )
        .await;
    assert!(!answer.content.contains("cannot"), "{answer:?}");
    until(
        &c,
        "both moves on the page",
        &format!(
            "return [...document.querySelectorAll('#moves .notation')].map(n => n.textContent)\
             .join(' ') === {}",
            json!(line.join(" "))
        ),
    )
    .await;
    let (status, plans) = get_json(&format!("{base}/api/game/{id}/plans"), Some(&token)).await;
    assert_eq!(
        (status, plans["lines"].clone()),
        (200, json!([])),
        "{plans}"
    );
    let _ = c.close().await;
    d.end(&mut bot, "web_plans", started).await;
}

/// The test server with `tables` under ids 1, 2, …; its address and what it holds.
async fn serve_tables(tables: Vec<Table>) -> (String, Shared) {
    let (changes, _) = broadcast::channel(64);
    let shared = Shared {
        tables: Arc::new(Mutex::new(
            tables
                .into_iter()
                .enumerate()
                .map(|(i, t)| (i as i64 + 1, t))
                .collect(),
        )),
        changes,
    };
    (serve(shared.clone()).await, shared)
}

/// A table of `line` after its first `n` legal moves (the first of each position).
fn table_after(line: &str, lang: Lang, n: usize) -> Table {
    let mut table = new_table(line, lang);
    for _ in 0..n {
        let mv = table.game.legal_moves()[0];
        table.game.play(mv).expect("a legal move");
    }
    table.version = n as u64;
    table.revision = n as u64;
    table
}

/// The link of the player to move in game `id`.
fn mover_link(base: &str, shared: &Shared, id: i64) -> String {
    let tables = shared.tables.lock().unwrap();
    let table = &tables[&id];
    let seat = table.game.position().to_move().index();
    format!("{base}/game/{id}#t={}", table.tokens[seat])
}

/// As first loaded at 1280×800 (sized once, no resize since), the board of an 11×11 inpHeXion
/// and of a late EXXIT game fits the window: it is sized after the prompt above it is written.
/// On a desktop (1024×600, no touch screen) the cells of 11×11 are smaller than a fingertip, yet
/// there is no hint to tap and a mouse click chooses the cell at once; a tap of a finger zooms
/// in. On a phone the hint says to tap, and a tap zooms.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_board_fits_as_first_loaded_and_only_a_touch_zooms() {
    let mut rng = SmallRng::seed_from_u64(42);
    let mut exxit = new_table("exxit tiles=39", Lang::EN);
    exxit.game = late_exxit(&mut rng);
    exxit.version = exxit.game.ply() as u64;
    exxit.revision = exxit.version;
    let (base, shared) = serve_tables(vec![new_table("inphexion size=11", Lang::EN), exxit]).await;
    let driver = Driver::start().await;
    let offered = "return document.querySelector('#board .target.next') !== null";
    for id in [1, 2] {
        let page = driver.browser(1280, 800).await;
        page.goto(&mover_link(&base, &shared, id))
            .await
            .expect("open the board");
        until(&page, "the moves offered", offered).await;
        // Whatever comes after the first State (the live mark) has come too.
        tokio::time::sleep(Duration::from_millis(500)).await;
        let over = js(&page, OVERFLOW).await;
        eprintln!("game {id} as first loaded at 1280×800: {over}");
        for edge in ["page", "left", "top", "right", "bottom"] {
            assert!(
                over[edge].as_f64().unwrap_or(99.0) <= 0.5,
                "game {id} as first loaded at 1280×800: {edge} overflows: {over}"
            );
        }
        assert!(over["width"].as_f64().unwrap_or(0.0) >= 480.0, "{over}");
        let _ = page.close().await;
    }

    let desk = driver.browser(1024, 600).await;
    desk.goto(&mover_link(&base, &shared, 1))
        .await
        .expect("open the board");
    until(&desk, "the moves offered", offered).await;
    let smallest = js(&desk, SMALLEST_TARGET).await.as_f64().unwrap_or(-1.0);
    assert!(
        smallest > 0.0 && smallest < 44.0,
        "11×11 at 1024×600: cells of {smallest} px"
    );
    let hidden = |id: &str| format!("return document.getElementById('{id}').hidden");
    assert_eq!(
        js(&desk, &hidden("zoom-hint")).await,
        json!(true),
        "no hint to tap"
    );
    let first = js(
        &desk,
        "return document.querySelector('#board .target.next').getAttribute('data-cell')",
    )
    .await;
    let cell = &format!(
        "#board .target.next[data-cell=\"{}\"]",
        first.as_str().expect("a cell")
    );
    desk.find(Locator::Css(cell))
        .await
        .expect("the cell")
        .click()
        .await
        .expect("click");
    until(
        &desk,
        "the move chosen by a click, its preview",
        "return !document.getElementById('preview').hidden",
    )
    .await;
    assert_eq!(js(&desk, &hidden("zoom-out")).await, json!(true), "no zoom");
    // Cancel, then a finger's tap: it zooms in and chooses nothing.
    let cancel = c_button(&desk, "Cancel").await;
    cancel.click().await.expect("Cancel");
    until(&desk, "the board again", offered).await;
    tap(&desk, cell).await;
    until(
        &desk,
        "the zoom by a tap",
        "return !document.getElementById('zoom-out').hidden",
    )
    .await;
    assert_eq!(
        js(
            &desk,
            "return document.querySelectorAll('#board .target.chosen').length \
             + (document.getElementById('preview').hidden ? 0 : 1)"
        )
        .await,
        json!(0),
        "a tap that zooms chooses nothing"
    );
    let _ = desk.close().await;

    let phone = driver.phone(390, 844).await;
    phone
        .goto(&mover_link(&base, &shared, 1))
        .await
        .expect("open the board");
    until(
        &phone,
        "the hint to tap",
        "const h = document.getElementById('zoom-hint'); \
         return !h.hidden && h.textContent.includes('tap')",
    )
    .await;
    tap(&phone, cell).await;
    until(
        &phone,
        "the zoom by a tap",
        "return !document.getElementById('zoom-out').hidden",
    )
    .await;
    let zoomed = js(&phone, SMALLEST_TARGET).await.as_f64().unwrap_or(-1.0);
    assert!(zoomed >= 44.0, "zoomed in, cells of {zoomed} px");
    let _ = phone.close().await;
}

/// The button of the controls whose words are `words`.
async fn c_button(c: &Client, words: &str) -> fantoccini::elements::Element {
    for b in c
        .find_all(Locator::Css("#controls button"))
        .await
        .expect("buttons")
    {
        if b.text().await.expect("text") == words {
            return b;
        }
    }
    panic!("no button {words}");
}

/// Whether the element of `css` is shown (laid out with a size).
fn shown(css: &str) -> String {
    format!(
        "const e = document.querySelector('{css}'); \
         return e !== null && e.getClientRects().length > 0"
    )
}

/// On a phone (360 px wide) the picture's header is left out, and the players' panel says what
/// it said: EXXIT's hands, scores and tile supply, inpHeXion's discs in hand, in the page's
/// language. Wider, the header shows them and the panel does not repeat them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_a_phone_the_players_panel_says_what_the_pictures_header_holds() {
    let mut rng = SmallRng::seed_from_u64(7);
    let mut exxit = new_table("exxit tiles=39", Lang::EN);
    exxit.game = late_exxit(&mut rng);
    exxit.version = exxit.game.ply() as u64;
    exxit.revision = exxit.version;
    let (base, shared) = serve_tables(vec![
        exxit,
        table_after("inphexion size=7", Lang::of("ja"), 3),
    ])
    .await;
    let driver = Driver::start().await;
    let phone = driver.phone(360, 740).await;
    let wide = driver.browser(1280, 800).await;
    for id in [1, 2] {
        let (holds, supply) = {
            let tables = shared.tables.lock().unwrap();
            let t = &tables[&id];
            hexcord::web::state::header_words(t.lang, &t.game, &t.players)
        };
        assert!(holds.iter().all(|h| !h.is_empty()));
        let link = format!("{base}/game/{id}");
        for page in [&phone, &wide] {
            page.goto(&link).await.expect("open the board");
            until(
                page,
                "the board",
                "return document.querySelector('#board svg') !== null",
            )
            .await;
        }
        // The phone: no header in the picture, the panel says it.
        let cropped = js(
            &phone,
            "return document.querySelector('#board svg').viewBox.baseVal.y",
        )
        .await;
        assert!(
            cropped.as_f64().unwrap_or(0.0) > 0.0,
            "game {id}: {cropped}"
        );
        let said = js(
            &phone,
            "return [...document.querySelectorAll('#players .holds')]\
             .filter(e => e.getClientRects().length > 0).map(e => e.textContent)",
        )
        .await;
        assert_eq!(said, json!(holds), "game {id} on a phone");
        assert_eq!(
            js(&phone, &shown("#supply")).await,
            json!(supply.is_some()),
            "game {id}"
        );
        if let Some(supply) = &supply {
            assert_eq!(
                js(
                    &phone,
                    "return document.getElementById('supply').textContent"
                )
                .await,
                json!(supply)
            );
            assert!(supply.starts_with("Supply: "), "{supply}");
        } else {
            assert!(holds[0].contains("手持ち"), "{holds:?}");
        }
        // Wide: the picture's header says it, the panel does not repeat it.
        let header = js(
            &wide,
            "return document.querySelector('#board svg').viewBox.baseVal.y",
        )
        .await;
        assert_eq!(header.as_f64(), Some(0.0), "game {id}: {header}");
        assert_eq!(js(&wide, &shown("#players .holds")).await, json!(false));
        assert_eq!(js(&wide, &shown("#supply")).await, json!(false));
    }
    for page in [phone, wide] {
        let _ = page.close().await;
    }
}

/// On a phone, the Previous and Next buttons step through the moves without a keyboard: from
/// the move list into the positions before, then on the board's own bar, back to the live
/// position; each is disabled where there is no move that way. Both languages' words.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_a_phone_previous_and_next_step_through_the_moves() {
    let (base, _shared) = serve_tables(vec![
        table_after("inphexion size=5", Lang::EN, 3),
        table_after("inphexion size=5", Lang::of("ja"), 1),
    ])
    .await;
    let driver = Driver::start().await;
    let phone = driver.phone(360, 740).await;
    phone
        .goto(&format!("{base}/game/1"))
        .await
        .expect("open the board");
    until(
        &phone,
        "the moves",
        "return document.querySelectorAll('#moves li:not(.none)').length === 3",
    )
    .await;
    let list = |by: i32| format!("#step-bar button.step-by[data-by=\"{by}\"]");
    let bar = |by: i32| format!("#review button.step-by[data-by=\"{by}\"]");
    let state = |css: &str| {
        format!(
            "const b = document.querySelector('{css}'); \
             return [b.textContent, b.disabled, b.getClientRects().length > 0]"
        )
    };
    assert_eq!(
        js(&phone, &state(&list(-1))).await,
        json!(["← Previous move", false, true])
    );
    assert_eq!(
        js(&phone, &state(&list(1))).await,
        json!(["Next move →", true, true]),
        "nothing after the live position"
    );
    let at = |words: &str| {
        format!(
            "return !document.getElementById('review').hidden \
             && document.getElementById('review-words').textContent === {} \
             && document.querySelector('#board svg') !== null",
            json!(words)
        )
    };
    tap(&phone, &list(-1)).await;
    until(
        &phone,
        "the position after move 2",
        &at("Position after move 2"),
    )
    .await;
    // On the board's bar, one tap at a time, to the start and no further.
    for words in ["Position after move 1", "Position at the start"] {
        tap(&phone, &bar(-1)).await;
        until(&phone, words, &at(words)).await;
    }
    assert_eq!(js(&phone, &state(&bar(-1))).await[1], json!(true));
    assert_eq!(
        js(
            &phone,
            "return document.querySelector('#moves [aria-current]') === null"
        )
        .await,
        json!(true)
    );
    for words in ["Position after move 1", "Position after move 2"] {
        tap(&phone, &bar(1)).await;
        until(&phone, words, &at(words)).await;
    }
    assert_eq!(
        js(
            &phone,
            "return document.querySelector('#moves [aria-current]').dataset.ply"
        )
        .await,
        json!("2")
    );
    tap(&phone, &bar(1)).await;
    until(
        &phone,
        "the live position again",
        "return document.getElementById('review').hidden",
    )
    .await;
    assert_eq!(js(&phone, &state(&list(1))).await[1], json!(true));
    // In Japanese.
    phone
        .goto(&format!("{base}/game/2"))
        .await
        .expect("open the board");
    until(
        &phone,
        "the words in Japanese",
        "const b = document.querySelector('#step-bar button.step-by'); \
         return b !== null && b.textContent === '← 前の手'",
    )
    .await;
    assert_eq!(
        js(&phone, &state(&list(1))).await,
        json!(["次の手 →", true, true])
    );
    let _ = phone.close().await;
}

/// The live streams the bot's web board holds open now (its `/metrics`, asked from this
/// machine).
async fn streams_open(web: &str) -> u64 {
    let mut socket = tokio::net::TcpStream::connect(web.trim_start_matches("http://"))
        .await
        .expect("connect");
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    socket
        .write_all(b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await
        .expect("ask");
    let mut answer = String::new();
    socket.read_to_string(&mut answer).await.expect("answer");
    answer
        .lines()
        .find_map(|l| l.strip_prefix("hexcord_web_live_streams "))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no count of streams: {answer}"))
}

/// The real bot with the fake Discord: Ann moves between her inbox and a game's page in one
/// tab, a dozen loads and more, then Back and Forward. Each page closes its live stream when it
/// is left (a browser keeps the pages behind Back alive, streams and all), so the bot's web
/// board holds one stream for her at the end, not one per load; and the inbox still shows Bob's
/// move live.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_inbox_stays_live_after_many_page_loads_in_one_tab() {
    use crate::discord::{components_of, Bot, Discord, ANN, BOB};
    let started = Instant::now();
    let d = Discord::start("web_inbox_loads").await;
    let mut bot = Bot::start(&d).await;
    d.fake.wait_ready(1).await;
    let size4 = json!({"name": "size", "type": 4, "value": 4});
    let mut ids = Vec::new();
    for (who, other) in [(&ANN, &BOB), (&BOB, &ANN)] {
        let ch = d
            .challenge(who, other, "inphexion", std::slice::from_ref(&size4))
            .await;
        ids.push(d.accept(other, &ch).await.id);
    }
    let [anns, bobs] = ids[..] else {
        unreachable!()
    };
    let games = d.command(&ANN, "games", vec![]).await;
    let link = components_of(&games.components)
        .find_map(|c| c["url"].as_str().filter(|u| u.contains("/inbox#t=")))
        .unwrap_or_else(|| panic!("no inbox link under /games: {games:?}"))
        .to_string();
    let (web, token) = link.split_once("/inbox#t=").expect("an inbox link");
    let (web, token) = (web.to_string(), token.to_string());
    let driver = Driver::start().await;
    let page = driver.browser(1280, 800).await;
    const LISTED: &str = "return JSON.stringify([...document.querySelectorAll('#games button')]\
         .map(b => Number(b.dataset.game)))";
    let listed = |want: Vec<i64>| {
        format!(
            "return (() => {{ {LISTED}; }})() === {}",
            json!(serde_json::to_string(&want).unwrap_or_default())
        )
    };
    let live = "const l = document.getElementById('live'); \
         return !l.hidden && !l.classList.contains('off')";
    for load in 0..15 {
        if load % 2 == 0 {
            page.goto(&link).await.expect("the inbox");
            until(&page, "Ann's game listed", &listed(vec![anns])).await;
        } else {
            let game = if load % 4 == 1 { anns } else { bobs };
            page.goto(&format!("{web}/game/{game}#t={token}"))
                .await
                .expect("a game's page");
            until(
                &page,
                "the board",
                "return document.querySelector('#board svg') !== null",
            )
            .await;
        }
        until(&page, "the page live", live).await;
    }
    // Back to the last game's page, and Forward to the inbox: back live each time.
    page.back().await.expect("Back");
    until(
        &page,
        "the game's page again",
        "return /\\/game\\/\\d+$/.test(location.pathname)",
    )
    .await;
    until(&page, "the game's page live again", live).await;
    page.forward().await.expect("Forward");
    until(&page, "the inbox again", &listed(vec![anns])).await;
    until(&page, "the inbox live again", live).await;
    // The pages left behind hold no stream: the inbox's alone is open.
    let mut open = streams_open(&web).await;
    let waited = Instant::now();
    while open > 1 && waited.elapsed() < Duration::from_secs(20) {
        tokio::time::sleep(Duration::from_millis(250)).await;
        open = streams_open(&web).await;
    }
    assert_eq!(open, 1, "live streams still open after 15 loads");

    // Bob moves in Discord: his game comes into Ann's inbox live.
    let pool = hexcord::db::connect(&d.db_url).await.expect("db");
    let (_, game) = hexcord::play::actions::load(&pool, bobs)
        .await
        .expect("the game");
    pool.close().await;
    let mv = game.legal_notations()[0].clone();
    let played = d
        .command(
            &BOB,
            "move",
            vec![
                json!({"name": "move", "type": 3, "value": mv}),
                json!({"name": "game", "type": 3, "value": bobs.to_string()}),
            ],
        )
        .await;
    assert!(!played.content.is_empty(), "{played:?}");
    until(&page, "Bob's game added live", &listed(vec![anns, bobs])).await;
    let _ = page.close().await;
    d.end(&mut bot, "web_inbox_loads", started).await;
}

/// Local play with `WEB_ADDR` unset while its default port (8787) is in use: hexcord takes the
/// next free port, as development servers do, and its one line says where and why; the page
/// answers there. With `WEB_ADDR` set to an address in use, it stops with an error naming
/// `WEB_ADDR` and the address.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn local_play_takes_the_next_free_port_when_the_default_is_in_use() {
    use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt};
    let default = hexcord::config::DEFAULT_WEB_ADDR;
    // In use: held here, unless something else holds it already.
    let _held = std::net::TcpListener::bind(default).ok();
    assert!(
        std::net::TcpListener::bind(default).is_err(),
        "{default} is in use"
    );
    let dir = std::env::temp_dir().join(format!("hexcord-local-port-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let hexcord = |web_addr: Option<&str>| {
        let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_hexcord"));
        for (key, _) in hexcord::config::SETTINGS {
            command.env_remove(key);
        }
        command
            .current_dir(&dir)
            .env(
                "DATABASE_URL",
                format!("sqlite://{}", dir.join("hexcord.db").display()),
            )
            .envs(web_addr.map(|a| ("WEB_ADDR", a)))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("the hexcord binary starts")
    };
    let mut child = hexcord(None);
    let stdout = child.stdout.take().expect("its standard output");
    let mut lines = tokio::io::BufReader::new(stdout).lines();
    let line = tokio::time::timeout(Duration::from_secs(60), lines.next_line())
        .await
        .expect("a line in time")
        .expect("standard output")
        .expect("a line saying where to play");
    let at = line
        .split_once("open http://")
        .and_then(|(_, rest)| rest.split_once("/ to play"))
        .map(|(addr, _)| addr.to_string())
        .unwrap_or_else(|| panic!("no address: {line}"));
    assert_ne!(at, default, "{line}");
    assert!(at.starts_with("127.0.0.1:"), "{line}");
    assert!(line.contains(&format!("{default} is in use")), "{line}");
    let mut socket = tokio::net::TcpStream::connect(&at).await.expect("connect");
    socket
        .write_all(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await
        .expect("ask");
    let mut answer = String::new();
    socket.read_to_string(&mut answer).await.expect("answer");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(
        answer.contains("/local/new"),
        "the front page of local play"
    );
    let _ = child.kill().await;

    // Set explicitly, the address is kept: in use, hexcord stops and says so.
    let refused = hexcord(Some(default));
    let out = tokio::time::timeout(Duration::from_secs(60), refused.wait_with_output())
        .await
        .expect("hexcord stops")
        .expect("its output");
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains(&format!("WEB_ADDR={default}: cannot listen there")),
        "{said}"
    );
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
