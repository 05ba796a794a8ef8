//! The web board over HTTP, on SQLite and PostgreSQL: the router driven request by request
//! (tower's `oneshot`), with a real database, real actions and the real event streams.

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

use super::{router, Web, CSP};
use crate::clock::Clock;
use crate::db::testing::both_backends;
use crate::db::{self, ChannelId, GuildId, Pool, UserId};
use crate::games::Options;
use crate::play::actions::{self, Answered, ChallengeRequest, Core};
use crate::play::links;
use crate::play::terms::ChallengeAnswer;

const T0: i64 = 1_800_000_000;
const ANN: UserId = UserId(11);
const BOB: UserId = UserId(u64::MAX - 3);
const EVE: UserId = UserId(99);

/// A core over `pool` at a fixed time, with ann, bob and eve known.
async fn core(pool: Pool) -> Core {
    for (id, name) in [(ANN, "ann"), (BOB, "bob"), (EVE, "eve")] {
        db::upsert_player(&pool, id, name, T0).await.unwrap();
    }
    Core::new(pool, Clock::fixed(T0).0)
}

/// A game of `line` between ann (first to move) and bob, started through the actions.
async fn started(core: &Core, line: &str) -> i64 {
    let req = ChallengeRequest {
        guild_id: Some(GuildId(7)),
        channel_id: ChannelId(8),
        challenger: ANN,
        opponent: BOB,
        options: Options::parse_line(line).unwrap(),
        rated: false,
        seconds_per_move: 86_400,
        challenger_first: true,
        rematch_of: None,
        time_control: None,
        weekends_off: None,
    };
    let c = actions::open_challenge(core, &req).await.unwrap();
    match actions::answer_challenge(core, c, BOB, ChallengeAnswer::Accept)
        .await
        .unwrap()
    {
        Answered::Started { game, .. } => game,
        other => panic!("{other:?}"),
    }
}

fn app(core: &Core) -> Router {
    router(Web::new(core.clone(), Arc::new(OnceLock::new())))
}

/// A request: `GET` without a body, `POST` with `body` as JSON; `token` as the Bearer header.
fn request(path: &str, token: Option<&str>, body: Option<Value>) -> Request<Body> {
    let mut r = Request::builder().uri(path);
    if let Some(t) = token {
        r = r.header(header::AUTHORIZATION, format!("Bearer {t}"));
    }
    match body {
        None => r.body(Body::empty()).unwrap(),
        Some(b) => r
            .method("POST")
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(b.to_string()))
            .unwrap(),
    }
}

/// Sends a request; its status, headers' checks and body.
async fn send(app: &Router, req: Request<Body>) -> (StatusCode, String, String) {
    let res = app.clone().oneshot(req).await.unwrap();
    let h = res.headers();
    assert_eq!(h[header::CONTENT_SECURITY_POLICY], CSP);
    assert_eq!(h[header::X_CONTENT_TYPE_OPTIONS], "nosniff");
    assert_eq!(h[header::REFERRER_POLICY], "no-referrer");
    let status = res.status();
    let kind = h
        .get(header::CONTENT_TYPE)
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    let body = res.into_body().collect().await.unwrap().to_bytes();
    (status, kind, String::from_utf8(body.to_vec()).unwrap())
}

async fn json(app: &Router, req: Request<Body>) -> (StatusCode, Value) {
    let (status, kind, body) = send(app, req).await;
    assert!(kind.starts_with("application/json"), "{kind}: {body}");
    (status, serde_json::from_str(&body).unwrap())
}

fn error_of(v: &Value) -> &str {
    v["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error in {v}"))
}

async fn mv(
    app: &Router,
    id: i64,
    token: &str,
    notation: &str,
    version: i64,
) -> (StatusCode, Value) {
    let body = serde_json::json!({ "move": notation, "version": version });
    json(
        app,
        request(&format!("/api/game/{id}/move"), Some(token), Some(body)),
    )
    .await
}

async fn version(core: &Core, id: i64) -> i64 {
    db::fetch_game(&core.pool, id)
        .await
        .unwrap()
        .unwrap()
        .version
}

both_backends! {
    /// Pages and files with their headers; errors are short HTML pages, never a trace.
    async fn the_page_and_its_files_carry_the_security_headers(pool) {
        let core = core(pool).await;
        let id = started(&core, "inphexion size=5").await;
        let app = app(&core);
        let (status, kind, body) = send(&app, request(&format!("/game/{id}"), None, None)).await;
        assert_eq!(status, StatusCode::OK);
        assert!(kind.starts_with("text/html"), "{kind}");
        assert!(body.contains("<html"), "{body}");
        // No inline script or style: everything the page needs is a file of its own.
        assert!(!body.contains("<script>") && !body.contains("style="), "{body}");
        for (name, want) in [("game.js", "text/javascript"), ("game.css", "text/css")] {
            let (status, kind, body) = send(&app, request(&format!("/assets/{name}"), None, None)).await;
            assert_eq!(status, StatusCode::OK, "{name}");
            assert!(kind.starts_with(want), "{name}: {kind}");
            assert!(!body.is_empty());
        }
        for path in ["/game/9999", "/game/x", "/nowhere", "/assets/.keep", "/assets/none.js"] {
            let (status, kind, body) = send(&app, request(path, None, None)).await;
            assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
            assert!(kind.starts_with("text/html"), "{path}: {kind}");
            assert!(body.len() < 1000 && !body.contains("<script"), "{body}");
        }
        let (_, _, body) = send(&app, request("/game/9999", None, None)).await;
        assert!(body.contains("There is no game #9999"), "{body}");
        let mut ja = request("/nowhere", None, None);
        ja.headers_mut().insert(header::ACCEPT_LANGUAGE, "ja".parse().unwrap());
        let (_, _, body) = send(&app, ja).await;
        assert!(body.contains("このページはありません"), "{body}");
        let (status, kind, css) = send(&app, request("/assets/theme.css", None, None)).await;
        assert_eq!(status, StatusCode::OK);
        assert!(kind.starts_with("text/css"), "{kind}");
        assert!(css.contains("prefers-color-scheme: dark"), "{css}");
        // A body past the limit is refused before it is read.
        let big = serde_json::json!({ "move": "x".repeat(crate::web::MAX_BODY), "version": 0 });
        let (status, _, _) =
            send(&app, request(&format!("/api/game/{id}/move"), Some("t"), Some(big))).await;
        assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    }
}

both_backends! {
    /// A finished game's state carries its stored analysis (the one `/analysis` makes: default
    /// budget, seeded by the game's number) with the values stored, the line smoothed as the
    /// Discord chart draws it and each turning point in words; a game in play or not analysed
    /// carries none, on the public state anyone may read.
    async fn the_state_carries_a_finished_games_stored_analysis(pool) {
        use crate::analysis::{Analysis, AnalysisBudget, MoveAnalysis, PositionAnalysis};
        let core = core(pool).await;
        let id = started(&core, "inphexion size=5").await;
        let other = started(&core, "inphexion size=5").await;
        for game in [id, other] {
            actions::play_move(&core, game, ANN, "c3", None).await.unwrap();
        }
        let chances = [0.55, 0.2];
        let stored = Analysis {
            game: "inphexion".into(),
            budget: AnalysisBudget::DEFAULT.for_kind(crate::games::GameKind::Inphexion),
            seed: id as u64,
            positions: chances
                .iter()
                .enumerate()
                .map(|(ply, &first_chance)| PositionAnalysis { ply, first_chance, best: None })
                .collect(),
            moves: vec![MoveAnalysis {
                number: 1,
                mover: 0,
                played: "c3".into(),
                better: Some("b2".into()),
                before: 0.55,
                after: 0.2,
                loss: 0.35,
            }],
            turning_points: vec![1],
        };
        db::store_analysis(&core.pool, id, &stored, T0).await.unwrap();
        let app = app(&core);
        let state_of = |game: i64, accept: &'static str| {
            let mut req = request(&format!("/api/game/{game}/state"), None, None);
            req.headers_mut().insert(header::ACCEPT_LANGUAGE, accept.parse().unwrap());
            req
        };
        // In play: nothing that could help a player.
        let (status, v) = json(&app, state_of(id, "en")).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert!(v["analysis"].is_null(), "{v}");
        for game in [id, other] {
            actions::resign(&core, game, BOB).await.unwrap();
        }
        let (_, v) = json(&app, state_of(other, "en")).await;
        assert!(v["analysis"].is_null(), "not analysed: {v}");
        let (_, v) = json(&app, state_of(id, "en")).await;
        let a = &v["analysis"];
        assert_eq!(a["first_chance"], serde_json::json!(chances), "{a}");
        let line = crate::render::chart::smoothed(&chances);
        assert_eq!(a["line"], serde_json::json!(line), "{a}");
        assert_ne!(line, chances.to_vec());
        let turning = a["turning"].as_array().unwrap();
        assert_eq!(turning.len(), 1, "{a}");
        assert_eq!(turning[0]["number"], 1);
        assert_eq!(turning[0]["mover"], 0);
        assert_eq!(turning[0]["before"], 0.55);
        assert_eq!(turning[0]["after"], 0.2);
        let label = turning[0]["label"].as_str().unwrap();
        assert!(label == "Move 1 (white): Place a disc on c3. Chance to win 55 % → 20 %.", "{label}");
        let (_, v) = json(&app, state_of(id, "ja")).await;
        let label = v["analysis"]["turning"][0]["label"].as_str().unwrap();
        assert!(label.starts_with("1手目") && label.contains("55 % → 20 %"), "{label}");
    }
}

both_backends! {
    /// The board after any number of the moves played, for the page's step through them; a
    /// position the game has not reached, or not a number, is refused in words.
    async fn earlier_positions_are_served_and_later_ones_refused(pool) {
        let core = core(pool).await;
        let id = started(&core, "inphexion size=5").await;
        actions::play_move(&core, id, ANN, "c3", None).await.unwrap();
        let app = app(&core);
        let (_, now) = json(&app, request(&format!("/api/game/{id}/state"), None, None)).await;
        for ply in [0, 1] {
            let (status, v) = json(&app, request(&format!("/api/game/{id}/board/{ply}"), None, None)).await;
            assert_eq!(status, StatusCode::OK, "{v}");
            assert_eq!(v["ply"], ply);
            let svg = v["svg"].as_str().unwrap();
            assert!(svg.starts_with("<svg"), "{svg}");
            // The last one is the live position's board; the start is another.
            assert_eq!(svg == now["svg"].as_str().unwrap(), ply == 1, "ply {ply}");
        }
        for ply in ["2", "-1", "x"] {
            let (status, v) = json(&app, request(&format!("/api/game/{id}/board/{ply}"), None, None)).await;
            assert_eq!(status, StatusCode::NOT_FOUND, "{ply}: {v}");
            assert!(error_of(&v).contains(&format!("#{id}")), "{v}");
        }
    }
}

both_backends! {
    /// The public state, and a player's with their link: seat, and legal moves on their turn
    /// only, each step with its cell; in the player's language.
    async fn the_state_is_public_or_the_link_holders(pool) {
        let core = core(pool).await;
        let id = started(&core, "inphexion size=5").await;
        let app = app(&core);
        let (status, public) = json(&app, request(&format!("/api/game/{id}/state"), None, None)).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(public["id"], id);
        assert_eq!(public["kind"], "inphexion");
        assert_eq!(public["variant"], "5×5");
        assert_eq!(public["version"], 0);
        assert_eq!(public["lang"], "en");
        assert_eq!(public["players"][0]["name"], "ann");
        assert_eq!(public["players"][1]["name"], "bob");
        assert_eq!(public["to_move"], 0);
        assert_eq!(public["status"], format!("ann ({}) to move", public["players"][0]["colour"].as_str().unwrap()));
        assert_eq!(public["result"], Value::Null);
        // What the picture's header says each holds, for a page that leaves it out.
        assert_eq!(public["players"][0]["holds"], "13 in hand");
        assert_eq!(public["players"][1]["holds"], "13 in hand");
        assert_eq!(public["supply"], Value::Null);
        let exxit = started(&core, "exxit").await;
        let (_, e) = json(&app, request(&format!("/api/game/{exxit}/state"), None, None)).await;
        assert!(e["players"][0]["holds"].as_str().unwrap().starts_with("hand 8 · score "), "{e}");
        assert!(e["supply"].as_str().unwrap().starts_with("Supply: "), "{e}");
        let deadline = db::fetch_game(&core.pool, id).await.unwrap().unwrap().deadline_at.unwrap();
        assert_eq!(public["deadline"], crate::web::state::utc_time(deadline));
        assert_eq!(public["you"], Value::Null);
        assert_eq!(public["legal"], serde_json::json!([]));
        assert!(public["texts"].is_object());
        let svg = public["svg"].as_str().unwrap();
        assert!(svg.starts_with("<svg") && !svg.contains("target"), "{svg}");

        let ann = links::issue(&core.pool, id, ANN, T0).await.unwrap();
        let bob = links::issue(&core.pool, id, BOB, T0).await.unwrap();
        assert_eq!(ann.len(), 64);
        assert_ne!(ann, bob);
        let (_, mine) = json(&app, request(&format!("/api/game/{id}/state"), Some(&ann), None)).await;
        assert_eq!(mine["you"]["seat"], 0);
        let legal = mine["legal"].as_array().unwrap();
        assert_eq!(legal.len(), 25, "every cell of the empty 5×5 board");
        let c3 = legal.iter().find(|l| l["notation"] == "c3").unwrap();
        assert_eq!(c3["steps"][0]["key"], "place:c3");
        let cell = c3["steps"][0]["cell"].as_str().unwrap();
        let (q, r) = cell.split_once(',').unwrap();
        assert_eq!(
            crate::games::inphexion::cell_name(crate::hex::Hex { q: q.parse().unwrap(), r: r.parse().unwrap() }),
            "c3"
        );
        assert!(c3["words"].as_str().unwrap().contains("c3"));
        // Every cell a legal move's step chooses is a target on the player's board.
        let svg = mine["svg"].as_str().unwrap();
        assert!(svg.contains(&format!("data-cell=\"{cell}\"")), "{svg}");
        assert_eq!(svg.matches("class=\"cell target\"").count(), 25, "{svg}");
        let (_, theirs) = json(&app, request(&format!("/api/game/{id}/state"), Some(&bob), None)).await;
        assert_eq!(theirs["you"]["seat"], 1);
        assert_eq!(theirs["legal"], serde_json::json!([]));

        // The player's language as the bot speaks to them in Discord; else the browser's.
        db::note_player_locale(&core.pool, BOB, "ja").await.unwrap();
        let (_, ja) = json(&app, request(&format!("/api/game/{id}/state"), Some(&bob), None)).await;
        assert_eq!(ja["lang"], "ja");
        assert!(ja["status"].as_str().unwrap().contains("の手番"), "{}", ja["status"]);
        let mut browser = request(&format!("/api/game/{id}/state"), None, None);
        browser.headers_mut().insert(header::ACCEPT_LANGUAGE, "ja-JP,en;q=0.5".parse().unwrap());
        let (_, ja) = json(&app, browser).await;
        assert_eq!(ja["lang"], "ja");
        assert_eq!(ja["variant"], "5×5");

        let (status, v) = json(&app, request("/api/game/4242/state", None, None)).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        assert!(error_of(&v).contains("4242"), "{v}");
    }
}

both_backends! {
    /// A move by link goes through the action as `/move` does (its board is queued for
    /// Discord); every refusal says why in words and changes nothing.
    async fn moves_by_link_and_every_refusal(pool) {
        let core = core(pool).await;
        let id = started(&core, "inphexion size=5").await;
        let other = started(&core, "inphexion size=5").await;
        let app = app(&core);
        let ann = links::issue(&core.pool, id, ANN, T0).await.unwrap();
        let bob = links::issue(&core.pool, id, BOB, T0).await.unwrap();
        let ann_other = links::issue(&core.pool, other, ANN, T0).await.unwrap();
        // A link made for a member who does not play the game (by hand: none is ever given).
        let eve = "e".repeat(64);
        db::insert_web_token(&core.pool, &links::token_hash(&eve), id, EVE, T0).await.unwrap();
        let boards = || async {
            sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM announcements WHERE game_id = $1")
                .bind(id)
                .fetch_one(&core.pool)
                .await
                .unwrap()
        };
        let queued = boards().await;

        let no_token = json(&app, request(&format!("/api/game/{id}/move"), None, Some(serde_json::json!({"move": "c3", "version": 0})))).await;
        assert_eq!(no_token.0, StatusCode::UNAUTHORIZED);
        assert!(error_of(&no_token.1).contains("private link"), "{}", no_token.1);
        let forged = mv(&app, id, &"0".repeat(64), "c3", 0).await;
        assert_eq!(forged.0, StatusCode::FORBIDDEN);
        assert!(error_of(&forged.1).contains("not valid"), "{}", forged.1);
        let garbage = mv(&app, id, "abc", "c3", 0).await;
        assert_eq!(garbage.0, StatusCode::FORBIDDEN);
        let wrong_game = mv(&app, id, &ann_other, "c3", 0).await;
        assert_eq!(wrong_game.0, StatusCode::FORBIDDEN);
        assert!(error_of(&wrong_game.1).contains(&format!("game #{other}")), "{}", wrong_game.1);
        let wrong_player = mv(&app, id, &eve, "c3", 0).await;
        assert_eq!(wrong_player.0, StatusCode::FORBIDDEN);
        assert!(error_of(&wrong_player.1).contains("does not play"), "{}", wrong_player.1);
        let not_your_turn = mv(&app, id, &bob, "c3", 0).await;
        assert_eq!(not_your_turn.0, StatusCode::FORBIDDEN);
        let illegal = mv(&app, id, &ann, "z9", 0).await;
        assert_eq!(illegal.0, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(error_of(&illegal.1).starts_with("z9 cannot be played"), "{}", illegal.1);
        let stale = mv(&app, id, &ann, "c3", 3).await;
        assert_eq!(stale.0, StatusCode::CONFLICT);
        assert!(error_of(&stale.1).contains("changed"), "{}", stale.1);
        let bad = json(&app, request(&format!("/api/game/{id}/move"), Some(&bob), Some(serde_json::json!({"mv": 1})))).await;
        assert_eq!(bad.0, StatusCode::BAD_REQUEST);
        assert_eq!(version(&core, id).await, 0, "nothing changed");
        assert_eq!(boards().await, queued);

        // The preview: the move in words, nothing stored.
        let (status, preview) = json(&app, request(&format!("/api/game/{id}/preview"), Some(&ann), Some(serde_json::json!({"move": "c3"})))).await;
        assert_eq!(status, StatusCode::OK, "{preview}");
        assert!(preview["words"].as_str().unwrap().contains("c3"), "{preview}");
        assert!(preview["svg"].is_string());
        let (status, _) = json(&app, request(&format!("/api/game/{id}/preview"), Some(&bob), Some(serde_json::json!({"move": "c3"})))).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        assert_eq!(version(&core, id).await, 0);

        let (status, played) = mv(&app, id, &ann, "c3", 0).await;
        assert_eq!(status, StatusCode::OK, "{played}");
        assert_eq!(played["ok"], true);
        assert!(played["text"].as_str().unwrap().contains("You played"), "{played}");
        assert_eq!(version(&core, id).await, 1);
        assert!(boards().await > queued, "the board is queued for Discord");
        // Bob reads his refusals in Japanese, as the bot speaks to him.
        db::note_player_locale(&core.pool, BOB, "ja").await.unwrap();
        let stale = mv(&app, id, &bob, "a1", 0).await;
        assert_eq!(stale.0, StatusCode::CONFLICT);
        assert!(error_of(&stale.1).contains("対局"), "{}", stale.1);

        // Too many posts from one link: 429 until its bucket refills. (A new link: the
        // refusals above took from the first one's bucket too.)
        let bob = links::issue(&core.pool, id, BOB, T0).await.unwrap();
        let mut statuses = Vec::new();
        for _ in 0..(crate::web::limit::BURST as usize + 1) {
            statuses.push(mv(&app, id, &bob, "zz", 1).await.0);
        }
        assert!(statuses[..crate::web::limit::BURST as usize].iter().all(|s| *s == StatusCode::UNPROCESSABLE_ENTITY), "{statuses:?}");
        assert_eq!(statuses.last(), Some(&StatusCode::TOO_MANY_REQUESTS));
        let limited = mv(&app, id, &bob, "a1", 1).await;
        assert_eq!(limited.0, StatusCode::TOO_MANY_REQUESTS);
        assert!(error_of(&limited.1).contains("数秒"), "{}", limited.1);
        assert_eq!(version(&core, id).await, 1);

        // The game ends: the links expire for moves, and still show the player's view.
        actions::resign(&core, id, BOB).await.unwrap();
        let expired = mv(&app, id, &ann, "a1", 1).await;
        assert_eq!(expired.0, StatusCode::FORBIDDEN);
        assert!(error_of(&expired.1).contains("expired"), "{}", expired.1);
        let (status, view) = json(&app, request(&format!("/api/game/{id}/state"), Some(&ann), None)).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(view["you"]["seat"], 0);
        assert_eq!(view["to_move"], Value::Null);
        assert!(view["result"].is_string());
        assert_eq!(view["legal"], serde_json::json!([]));
        assert_eq!(view["moves"][0]["notation"], "c3");
    }
}

/// Reads the event stream until its next `state` event; its data as JSON.
async fn next_state(body: &mut Body, buffer: &mut String) -> Value {
    let read = async {
        loop {
            if let Some(end) = buffer.find("\n\n") {
                let event: String = buffer.drain(..end + 2).collect();
                if event.lines().any(|l| l == "event: state") {
                    let data: String = event
                        .lines()
                        .filter_map(|l| {
                            l.strip_prefix("data: ").or_else(|| l.strip_prefix("data:"))
                        })
                        .collect();
                    return serde_json::from_str::<Value>(&data).unwrap();
                }
                continue;
            }
            let frame = body.frame().await.expect("the stream goes on").unwrap();
            if let Ok(data) = frame.into_data() {
                buffer.push_str(std::str::from_utf8(&data).unwrap());
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(10), read)
        .await
        .expect("a state event in time")
}

/// Opens the event stream of game `id`.
async fn stream(app: &Router, id: i64) -> Body {
    let res = app
        .clone()
        .oneshot(request(&format!("/api/game/{id}/events"), None, None))
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()[header::CONTENT_TYPE], "text/event-stream");
    assert_eq!(res.headers()[header::CONTENT_SECURITY_POLICY], CSP);
    res.into_body()
}

both_backends! {
    /// The stream sends the public state at once, then after each change: one made through
    /// the action as `/move` does, one from another page, a takeback-free ending.
    async fn the_event_stream_follows_every_change(pool) {
        let core = core(pool).await;
        let id = started(&core, "inphexion size=5").await;
        let other = started(&core, "inphexion size=5").await;
        let app = app(&core);
        let mut body = stream(&app, id).await;
        let mut buf = String::new();
        let first = next_state(&mut body, &mut buf).await;
        assert_eq!(first["version"], 0);
        assert_eq!(first["you"], Value::Null);
        // Another game's change is not this stream's.
        actions::play_move(&core, other, ANN, "c3", None).await.unwrap();
        actions::play_move(&core, id, ANN, "c3", None).await.unwrap();
        let after = next_state(&mut body, &mut buf).await;
        assert_eq!(after["id"], id);
        assert_eq!(after["version"], 1);
        assert_eq!(after["moves"][0]["notation"], "c3");
        let bob = links::issue(&core.pool, id, BOB, T0).await.unwrap();
        let (status, v) = mv(&app, id, &bob, "c3-d3", 1).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let after = next_state(&mut body, &mut buf).await;
        assert_eq!(after["version"], 2);
        assert_eq!(after["legal"], serde_json::json!([]));
        actions::resign(&core, id, ANN).await.unwrap();
        let over = next_state(&mut body, &mut buf).await;
        assert_eq!(over["to_move"], Value::Null);
        assert!(over["result"].is_string(), "{over}");
        // Every change raises the revision, the ending too (its version stays).
        assert_eq!(over["version"], 2);
        let revisions: Vec<i64> = [&first, &after, &over]
            .iter()
            .map(|s| s["revision"].as_i64().expect("a revision"))
            .collect();
        assert!(revisions.windows(2).all(|w| w[0] < w[1]), "{revisions:?}");
    }
}

/// Two processes on one PostgreSQL database: a change made by one reaches the event stream
/// served by the other (`LISTEN`/`NOTIFY`, sent with the commit).
#[tokio::test]
async fn a_change_in_another_process_reaches_the_stream() {
    let (pool_a, url) = db::testing::pg_db().await;
    let a = core(pool_a).await;
    let b = Core::new(db::connect(&url).await.unwrap(), Clock::fixed(T0).0);
    let listening = b.changes.listening();
    b.changes.listen(&url);
    tokio::time::timeout(Duration::from_secs(10), listening)
        .await
        .expect("b listens");
    let id = started(&a, "exxit tiles=19").await;
    let app_b = app(&b);
    let mut body = stream(&app_b, id).await;
    let mut buf = String::new();
    let first = next_state(&mut body, &mut buf).await;
    assert_eq!(first["version"], 0);
    assert_eq!(first["kind"], "exxit");
    let moves = actions::load(&a.pool, id)
        .await
        .unwrap()
        .1
        .legal_notations();
    actions::play_move(&a, id, ANN, moves[0].as_str(), None)
        .await
        .unwrap();
    let after = next_state(&mut body, &mut buf).await;
    assert_eq!(after["version"], 1);
}

/// The web board with the Activity on: Discord's API at an address nobody answers, the
/// application's public key of `key`.
/// A `PUT` of `body` as JSON to `path`, with `token` as the Bearer header.
fn put(path: &str, token: Option<&str>, body: &str) -> Request<Body> {
    let mut r = Request::builder().uri(path).method("PUT");
    if let Some(t) = token {
        r = r.header(header::AUTHORIZATION, format!("Bearer {t}"));
    }
    r.header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_string()))
        .unwrap()
}

both_backends! {
    /// Private notes on the page: a link's player keeps theirs, and nobody else reads them (the
    /// opponent's link, another game's link, no link, the public state, a watching Activity
    /// member); a follower's Activity session keeps its own; too long or malformed, refused in
    /// the reader's language and nothing stored.
    async fn private_notes_are_their_authors_alone(pool) {
        let key = ed25519_dalek::SigningKey::from_bytes(&[7u8; 32]);
        let core = core(pool).await;
        let id = started(&core, "inphexion size=5").await;
        let other = started(&core, "inphexion size=5").await;
        let (app, web) = activity_app(&core, &key);
        let notes = format!("/api/game/{id}/notes");
        let ann = links::issue(&core.pool, id, ANN, T0).await.unwrap();
        let bob = links::issue(&core.pool, id, BOB, T0).await.unwrap();
        let ann_other = links::issue(&core.pool, other, ANN, T0).await.unwrap();
        const SECRET: &str = "If they cut at c3, answer d4 — keep this to myself";
        let body = serde_json::json!({ "notes": format!("  {SECRET}\n") }).to_string();
        let (status, saved) = json(&app, put(&notes, Some(&ann), &body)).await;
        assert_eq!(status, StatusCode::OK, "{saved}");
        assert_eq!(saved["notes"], SECRET, "stored trimmed");
        assert_eq!(saved["max"], crate::play::notes::MAX_NOTE_CHARS);
        assert_eq!(saved["saved"], "Notes saved.");
        let (status, read) = json(&app, request(&notes, Some(&ann), None)).await;
        assert_eq!((status, read["notes"].as_str()), (StatusCode::OK, Some(SECRET)), "{read}");

        // The opponent reads their own (none), and no state shows Ann's: not the public one,
        // not Bob's, not even Ann's own (the notes are no part of the game's state).
        let (status, read) = json(&app, request(&notes, Some(&bob), None)).await;
        assert_eq!((status, read["notes"].as_str()), (StatusCode::OK, Some("")), "{read}");
        let state = format!("/api/game/{id}/state");
        for token in [None, Some(bob.as_str()), Some(ann.as_str())] {
            let (status, _, body) = send(&app, request(&state, token, None)).await;
            assert_eq!(status, StatusCode::OK);
            assert!(!body.contains("keep this to myself"), "{token:?}: {body}");
        }
        // No link, another game's link, a forged one: refused, nothing shown.
        let (status, body) = json(&app, request(&notes, None, None)).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
        let (status, body) = json(&app, request(&notes, Some(&ann_other), None)).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
        assert!(!body.to_string().contains("keep this"), "{body}");
        let (status, body) = json(&app, put(&notes, None, &body_of("mine now"))).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
        let (status, body) = json(&app, put(&notes, Some(&ann_other), &body_of("mine now"))).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{body}");

        // An Activity member watching, not following: refused; once following, their own.
        let activity = web.activity.as_ref().unwrap();
        let eve = activity.session(EVE, T0 + 60);
        let (status, body) = json(&app, request(&notes, Some(&eve), None)).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
        assert!(error_of(&body).contains("follow"), "{body}");
        let (status, body) = json(&app, put(&notes, Some(&eve), &body_of("eve's"))).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
        assert_eq!(db::fetch_note(&core.pool, id, EVE).await.unwrap(), None);
        let mut conn = core.pool.acquire().await.unwrap();
        db::toggle_follow(&mut conn, id, EVE, T0).await.unwrap();
        drop(conn);
        let (status, read) = json(&app, request(&notes, Some(&eve), None)).await;
        assert_eq!((status, read["notes"].as_str()), (StatusCode::OK, Some("")), "{read}");
        let (status, _) = json(&app, put(&notes, Some(&eve), &body_of("eve's"))).await;
        assert_eq!(status, StatusCode::OK);
        let (_, read) = json(&app, request(&notes, Some(&ann), None)).await;
        assert_eq!(read["notes"], SECRET);

        // Too long: refused with the figures, in the reader's language; nothing changed.
        let long = "あ".repeat(crate::play::notes::MAX_NOTE_CHARS + 1);
        let (status, body) = json(&app, put(&notes, Some(&ann), &body_of(&long))).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert!(error_of(&body).contains("1501 characters") && error_of(&body).contains("1500"), "{body}");
        db::note_player_locale(&core.pool, BOB, "ja").await.unwrap();
        let (status, body) = json(&app, put(&notes, Some(&bob), &body_of(&long))).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert!(error_of(&body).contains("上限の1500文字"), "{body}");
        let (status, body) = json(&app, put(&notes, Some(&ann), "{\"text\": 1}")).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert_eq!(db::fetch_note(&core.pool, id, ANN).await.unwrap().as_deref(), Some(SECRET));
        assert_eq!(db::fetch_note(&core.pool, id, BOB).await.unwrap(), None);
        // Just at the cap: kept. Emptied: deleted.
        let full = "あ".repeat(crate::play::notes::MAX_NOTE_CHARS);
        let (status, _) = json(&app, put(&notes, Some(&ann), &body_of(&full))).await;
        assert_eq!(status, StatusCode::OK);
        let (status, _) = json(&app, put(&notes, Some(&ann), &body_of(" "))).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(db::fetch_note(&core.pool, id, ANN).await.unwrap(), None);
        assert_eq!(db::fetch_note(&core.pool, id, EVE).await.unwrap().as_deref(), Some("eve's"));
    }
}

/// `{"notes": text}`.
fn body_of(text: &str) -> String {
    serde_json::json!({ "notes": text }).to_string()
}

/// A request with `method` and `body` as JSON, `token` as the Bearer header.
fn with_body(method: &str, path: &str, token: Option<&str>, body: Value) -> Request<Body> {
    let mut r = Request::builder().uri(path).method(method);
    if let Some(t) = token {
        r = r.header(header::AUTHORIZATION, format!("Bearer {t}"));
    }
    r.header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_string()))
        .unwrap()
}

both_backends! {
    /// Conditional moves from the page: the player waiting plans lines (checked legal where they
    /// would arise), lists and deletes branches; the opponent's move on a branch is answered at
    /// once, one off every branch clears them; the opponent reads only their own (none), and
    /// nobody without a link reads any.
    async fn conditional_moves_from_the_page(pool) {
        let core = core(pool).await;
        let id = started(&core, "inphexion size=5").await;
        let app = app(&core);
        let ann = links::issue(&core.pool, id, ANN, T0).await.unwrap();
        let bob = links::issue(&core.pool, id, BOB, T0).await.unwrap();
        let plans = format!("/api/game/{id}/plans");
        let legal = |line: Vec<String>| {
            let pool = core.pool.clone();
            async move {
                let (_, mut game) = actions::load(&pool, id).await.unwrap();
                for m in &line {
                    game.play_text(m).unwrap();
                }
                game.legal_notations().into_iter().filter(|m| m != "swap").collect::<Vec<_>>()
            }
        };
        let a = legal(vec![]).await;
        let b1 = legal(vec![a[0].clone()]).await[0].clone();
        let c0 = legal(vec![a[0].clone(), b1.clone()]).await[0].clone();
        // Bob's deeper reply leaves Ann two moves or more (one to miss the next branch with).
        let mut d1 = String::new();
        for m in legal(vec![a[0].clone(), b1.clone(), c0.clone()]).await {
            d1 = m.clone();
            if legal(vec![a[0].clone(), b1.clone(), c0.clone(), m]).await.len() >= 2 {
                break;
            }
        }
        let b2 = legal(vec![a[1].clone()]).await[0].clone();

        let post = |token: &str, line: Vec<&str>| {
            with_body("POST", &plans, Some(token), serde_json::json!({ "line": line }))
        };
        let (status, body) = json(&app, post(&bob, vec![&a[0], &b1, &c0, &d1])).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["lines"], serde_json::json!([[a[0], b1, c0, d1]]));
        assert!(body["said"].as_str().unwrap().contains("Planned"), "{body}");
        let (status, body) = json(&app, post(&bob, vec![&a[1], &b2])).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["lines"].as_array().unwrap().len(), 2, "{body}");
        // Refused: an illegal reply, an odd line, the player to move; nothing stored.
        for (token, line, needle) in [
            (&bob, vec![a[0].as_str(), "z9"], "cannot be played"),
            (&bob, vec![a[0].as_str()], "your opponent's move and your reply"),
            (&ann, vec![a[0].as_str(), b1.as_str()], "your move"),
        ] {
            let (status, body) = json(&app, post(token, line)).await;
            assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
            assert!(error_of(&body).contains(needle), "{body}");
        }
        // The opponent, and a reader without a link, never read them.
        let (status, body) = json(&app, request(&plans, Some(&ann), None)).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(body["lines"], serde_json::json!([]));
        let (status, body) = json(&app, request(&plans, None, None)).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
        for token in [None, Some(ann.as_str())] {
            let (_, _, state) = send(&app, request(&format!("/api/game/{id}/state"), token, None)).await;
            assert!(!state.contains(&format!("{} → {b1}", a[0])), "{state}");
        }
        let (status, body) = json(&app, request(&plans, Some(&bob), None)).await;
        assert_eq!(status, StatusCode::OK);
        assert!(body["text"].as_str().unwrap().contains(&format!("{} → {b2}", a[1])), "{body}");

        // A branch deleted.
        let delete = with_body("DELETE", &plans, Some(&bob), serde_json::json!({ "line": [a[1]] }));
        let (status, body) = json(&app, delete).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["lines"], serde_json::json!([[a[0], b1, c0, d1]]));

        // A branch hit from the page: Ann's move, then Bob's reply at once.
        let (status, body) = mv(&app, id, &ann, &a[0], 0).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(version(&core, id).await, 2);
        let moves = db::fetch_moves(&core.pool, id).await.unwrap();
        assert_eq!((moves[1].notation.as_str(), moves[1].player_id), (b1.as_str(), BOB));
        let (_, body) = json(&app, request(&plans, Some(&bob), None)).await;
        assert_eq!(body["lines"], serde_json::json!([[c0, d1]]), "the deeper line stays");
        let (status, body) = mv(&app, id, &ann, &c0, 2).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(version(&core, id).await, 4, "several deep");
        let (_, body) = json(&app, request(&plans, Some(&bob), None)).await;
        assert_eq!(body["lines"], serde_json::json!([]));

        // A branch missed: cleared.
        let e = legal(vec![]).await;
        let f = legal(vec![e[0].clone()]).await[0].clone();
        let (status, _) = json(&app, post(&bob, vec![&e[0], &f])).await;
        assert_eq!(status, StatusCode::OK);
        let (status, body) = mv(&app, id, &ann, &e[1], 4).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(version(&core, id).await, 5);
        let (_, body) = json(&app, request(&plans, Some(&bob), None)).await;
        assert_eq!(body["lines"], serde_json::json!([]));
    }
}

both_backends! {
    /// The preview board of a line being planned: the position after the line with the legal
    /// moves of whoever is to move there (those of the game there), for the waiting player only;
    /// an illegal line is refused with its reason, and nothing is stored.
    async fn a_planned_line_previewed(pool) {
        let core = core(pool).await;
        let id = started(&core, "inphexion size=5").await;
        let app = app(&core);
        let ann = links::issue(&core.pool, id, ANN, T0).await.unwrap();
        let bob = links::issue(&core.pool, id, BOB, T0).await.unwrap();
        let preview = |line: &str| format!("/api/game/{id}/plans/preview?line={line}");
        let after = |line: Vec<String>| {
            let pool = core.pool.clone();
            async move {
                let (_, mut game) = actions::load(&pool, id).await.unwrap();
                for m in &line {
                    game.play_text(m).unwrap();
                }
                game
            }
        };
        let notations = |body: &Value| {
            let mut v: Vec<String> = body["legal"]
                .as_array()
                .unwrap()
                .iter()
                .map(|l| l["notation"].as_str().unwrap().to_string())
                .collect();
            v.sort();
            v
        };
        let sorted = |game: &crate::games::Game| {
            let mut v = game.legal_notations();
            v.sort();
            v
        };
        // The current position: Ann's (the opponent's) moves, offered to Bob.
        let now = after(vec![]).await;
        let (status, body) = json(&app, request(&preview(""), Some(&bob), None)).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(notations(&body), sorted(&now));
        assert_eq!(body["to_move"], 0, "{body}");
        assert_eq!(body["you"]["seat"], 1, "{body}");
        // One and two moves deep: Bob's replies, then Ann's again, each with their steps.
        let a = now.legal_notations()[0].clone();
        let one = after(vec![a.clone()]).await;
        let (status, body) = json(&app, request(&preview(&a), Some(&bob), None)).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(notations(&body), sorted(&one));
        assert_eq!(body["to_move"], 1, "{body}");
        assert!(body["legal"][0]["steps"].as_array().is_some_and(|s| !s.is_empty()), "{body}");
        assert_eq!(body["moves"].as_array().unwrap().len(), 1, "{body}");
        let b = one.legal_notations()[0].clone();
        let two = after(vec![a.clone(), b.clone()]).await;
        let line = format!("{a}%3B{b}");
        let (status, body) = json(&app, request(&preview(&line), Some(&bob), None)).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(notations(&body), sorted(&two));
        assert_eq!(body["to_move"], 0, "{body}");
        assert_ne!(sorted(&two), sorted(&now), "the position has changed");
        // Refused: an illegal move; the opponent (to move); a reader without a link.
        let (status, body) = json(&app, request(&preview(&format!("{a}%3Bz9")), Some(&bob), None)).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert!(error_of(&body).contains("Move 2 of the line (`z9`) cannot be played"), "{body}");
        let (status, body) = json(&app, request(&preview(&a), Some(&ann), None)).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert!(error_of(&body).contains("It is your move"), "{body}");
        assert!(body.get("legal").is_none(), "{body}");
        let (status, body) = json(&app, request(&preview(&a), None, None)).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
        assert!(body.get("legal").is_none(), "{body}");
        // Nothing was played or planned.
        assert_eq!(version(&core, id).await, 0);
        assert_eq!(crate::play::plans::plans_of(&core.pool, id, BOB).await.unwrap(), None);
    }
}

fn activity_app(core: &Core, key: &ed25519_dalek::SigningKey) -> (Router, Arc<Web>) {
    let config = crate::config::Config::from_lookup(|k| {
        (k == "DISCORD_CLIENT_SECRET").then(|| "the-client-secret-of-the-test".to_string())
    })
    .unwrap();
    let activity = super::activity::Activity::new(
        config.client_secret.unwrap(),
        Some("http://127.0.0.1:9"),
        Arc::new(OnceLock::new()),
        Some(key.verifying_key().to_bytes()),
    )
    .unwrap();
    let web = Web::with_activity(
        core.clone(),
        Arc::new(OnceLock::new()),
        Some(activity),
        Arc::new(OnceLock::new()),
    );
    (router(web.clone()), web)
}

/// Where Discord's client opens an Activity: `/` with the frame's query.
const LAUNCH: &str = "/?instance_id=i-1&location_id=gc-1&launch_id=1&frame_id=f-1&platform=desktop";

/// A request for `path` from a browser asking for `accept` (`Accept-Language`).
fn in_lang(path: &str, accept: &str) -> Request<Body> {
    let mut r = request(path, None, None);
    r.headers_mut()
        .insert(header::ACCEPT_LANGUAGE, accept.parse().unwrap());
    r
}

both_backends! {
    /// The front page and the rules pages: found or not, in the language asked (`?lang=` first,
    /// then `Accept-Language`, else English), the invitation once the application's id is known,
    /// and the pictures as PNG.
    async fn the_front_page_and_the_rules_pages_answer_in_the_readers_language(pool) {
        let core = core(pool).await;
        let web = Web::new(core.clone(), Arc::new(OnceLock::new()));
        let app = router(web.clone());
        let (status, kind, body) = send(&app, request("/", None, None)).await;
        assert_eq!(status, StatusCode::OK);
        assert!(kind.starts_with("text/html"), "{kind}");
        assert!(body.contains("<html lang=\"en\">") && body.contains("Discord bot"), "{body}");
        assert!(body.contains("href=\"/rules/inphexion?lang=en\""), "{body}");
        assert!(body.contains("once it has connected") && !body.contains("oauth2"), "{body}");
        web.app_id.set(4242).unwrap();
        let (_, _, body) = send(&app, in_lang("/", "ja,en;q=0.5")).await;
        assert!(body.contains("<html lang=\"ja\">") && body.contains("ボット"), "{body}");
        let invite = crate::web::front::invite_url(4242).replace('&', "&amp;");
        assert!(body.contains(&invite), "{body}");
        assert!(invite.contains("client_id=4242") && invite.contains("permissions=326417565696"));

        for (game, en, ja) in [
            ("inphexion", "White connects top and bottom", "白は上辺と下辺を"),
            ("exxit", "dance of destruction", "破壊ダンス"),
        ] {
            let path = format!("/rules/{game}");
            let (status, kind, body) = send(&app, request(&path, None, None)).await;
            assert_eq!(status, StatusCode::OK, "{path}");
            assert!(kind.starts_with("text/html"), "{kind}");
            assert!(body.contains(en) && body.contains("<li>") && body.contains("<strong>"), "{body}");
            assert!(!body.contains("**"), "markdown left in {path}: {body}");
            let pictures: Vec<&str> = body
                .split("<img src=\"")
                .skip(1)
                .filter_map(|s| s.split('"').next())
                .collect();
            assert_eq!(pictures.len(), 3, "{body}");
            for (path, accept) in [(format!("{path}?lang=ja"), "en"), (path.clone(), "ja")] {
                let (status, _, body) = send(&app, in_lang(&path, accept)).await;
                assert_eq!(status, StatusCode::OK, "{path}");
                assert!(body.contains("<html lang=\"ja\">") && body.contains(ja), "{path}: {body}");
            }
            for picture in pictures {
                let res = app.clone().oneshot(request(picture, None, None)).await.unwrap();
                assert_eq!(res.status(), StatusCode::OK, "{picture}");
                assert_eq!(res.headers()[header::CONTENT_TYPE], "image/png", "{picture}");
                let bytes = res.into_body().collect().await.unwrap().to_bytes();
                assert!(bytes.starts_with(b"\x89PNG"), "{picture}");
            }
        }
        // An unknown language is English; unknown games and pictures are not found, in words.
        let (_, _, body) = send(&app, in_lang("/rules/exxit?lang=xx", "fr")).await;
        assert!(body.contains("<html lang=\"en\">"), "{body}");
        for path in [
            "/rules/chess",
            "/rules/exxit/start",
            "/rules/exxit/nothing.png",
            "/rules/chess/start.png",
            "/rules/exxit/start.png/more",
        ] {
            let (status, kind, body) = send(&app, in_lang(path, "ja")).await;
            assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
            assert!(kind.starts_with("text/html") && body.contains("このページはありません"), "{path}: {body}");
        }
    }
}

/// A form posted to `path` from a page of this server (as a browser says it).
fn form(path: &str, body: &str) -> Request<Body> {
    Request::builder()
        .method("POST")
        .uri(path)
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .header("sec-fetch-site", "same-origin")
        .body(Body::from(body.to_string()))
        .unwrap()
}

/// Every game stored, and every announcement queued.
async fn stored(pool: &Pool) -> (i64, i64) {
    let games = sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM games")
        .fetch_one(pool)
        .await
        .unwrap();
    let queued = sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM announcements")
        .fetch_one(pool)
        .await
        .unwrap();
    (games, queued)
}

/// The game and the token of a `303 See Other` to a game page.
fn game_page_of(res: &axum::response::Response) -> (i64, String) {
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    let to = res.headers()[header::LOCATION].to_str().unwrap();
    let (path, token) = to.split_once("#t=").unwrap_or_else(|| panic!("{to}"));
    let id = path.strip_prefix("/game/").unwrap().parse().unwrap();
    (id, token.to_string())
}

both_backends! {
    /// Local play's routes: a form value that is not one of the page's choices, or a form from
    /// another site, is refused in words and starts nothing; a good one starts the game and goes
    /// to its page with a link that plays it (both sides at one screen), listed on `/`; nothing
    /// is queued for Discord; with a token (not local) the routes are not there.
    async fn local_play_refuses_bad_forms_and_starts_and_opens_games(pool) {
        use crate::play::local;
        let core = core(pool.clone()).await;
        let bot = crate::play::opponent::Opponent::new(core.clone(), local::BOT, local::BOT_NAME);
        let app = router(Web::local(core.clone(), bot));
        let (_, _, page) = send(&app, request("/", None, None)).await;
        assert!(page.contains("action=\"/local/new?lang=en\"") && page.contains("No games yet"), "{page}");
        for (body, says) in [
            ("", "“” is not a choice for game"),
            ("game=chess&against=easy", "“chess” is not a choice for game"),
            ("game=inphexion&against=godlike", "“godlike” is not a choice for against"),
            ("game=inphexion", "is not a choice for against"),
            ("game=inphexion&against=easy&first=maybe", "“maybe” is not a choice for first"),
            ("game=inphexion&against=easy&size=3", "“3” is not a choice for size"),
            ("game=inphexion&against=easy&size=12", "“12” is not a choice for size"),
            ("game=inphexion&against=two&size=x", "“x” is not a choice for size"),
            ("game=inphexion&against=easy&pie=yes", "“yes” is not a choice for pie"),
            ("game=exxit&against=hard&tiles=20", "“20” is not a choice for tiles"),
            ("game=exxit&against=easy&size=5", "`size` is not an option of EXXIT"),
            ("game=inphexion&against=easy&tiles=39", "`tiles` is not an option of inpHeXion"),
            ("game=inphexion&against=two&size=6&neutral=on", "neutral needs an odd size"),
            ("game=inphexion&against=easy&size=%FF", "is not a choice for size"),
        ] {
            let (status, kind, page) = send(&app, form("/local/new", body)).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {page}");
            assert!(kind.starts_with("text/html"), "{kind}");
            assert!(page.contains(&crate::web::assets::escape(says)), "{body}: {page}");
            assert!(page.contains("href=\"/?lang=en\""), "{body}: {page}");
            assert_eq!(stored(&pool).await, (0, 0), "{body}");
        }
        // In Japanese when the page was.
        let (_, _, page) = send(&app, form("/local/new?lang=ja", "game=exxit&against=easy&tiles=7")).await;
        assert!(page.contains("<html lang=\"ja\">") && page.contains("選択肢にありません"), "{page}");
        // From another site.
        let good = "game=inphexion&against=two&size=4&pie=on";
        for (name, value) in [("sec-fetch-site", "cross-site"), ("origin", "http://elsewhere.example")] {
            let mut req = form("/local/new", good);
            req.headers_mut().remove("sec-fetch-site");
            req.headers_mut().insert(name, value.parse().unwrap());
            req.headers_mut().insert(header::HOST, "127.0.0.1:8787".parse().unwrap());
            let (status, _, page) = send(&app, req).await;
            assert_eq!(status, StatusCode::FORBIDDEN, "{page}");
            assert!(page.contains("sent from another site"), "{page}");
        }
        assert_eq!(stored(&pool).await, (0, 0));

        // Two players at one screen: the one link plays whoever is to move.
        let res = app.clone().oneshot(form("/local/new", good)).await.unwrap();
        let (id, token) = game_page_of(&res);
        let row = db::fetch_game(&core.pool, id).await.unwrap().unwrap();
        assert!(local::is_hot_seat(&row), "{row:?}");
        assert_eq!((row.players, row.rated, row.deadline_at), ([local::YOU, local::PLAYER_TWO], false, None));
        assert_eq!(row.options, Options::parse_line("inphexion size=4 pie").unwrap());
        for seat in [0, 1, 0] {
            let (status, state) = json(&app, request(&format!("/api/game/{id}/state"), Some(&token), None)).await;
            assert_eq!(status, StatusCode::OK, "{state}");
            assert_eq!(state["you"]["seat"], seat, "{state}");
            let legal = state["legal"][0]["notation"].as_str().unwrap().to_string();
            let (status, played) = mv(&app, id, &token, &legal, state["version"].as_i64().unwrap()).await;
            assert_eq!(status, StatusCode::OK, "{played}");
            let said = played["text"].as_str().unwrap();
            assert!(said.starts_with("You played") && !said.contains("Discord"), "{said}");
        }
        let row = db::fetch_game(&core.pool, id).await.unwrap().unwrap();
        assert_eq!((row.version, row.deadline_at), (3, None));
        // Listed on `/`, and opened again with a new link; nothing queued for Discord.
        let (_, _, page) = send(&app, request("/", None, None)).await;
        assert!(page.contains(&format!("<li data-game=\"{id}\" data-status=\"active\">")), "{page}");
        assert!(page.contains("You vs Player 2 — Player 2 to move"), "{page}");
        let res = app.clone().oneshot(form(&format!("/local/game/{id}"), "")).await.unwrap();
        let (again, other) = game_page_of(&res);
        assert_eq!(again, id);
        assert_ne!(other, token);
        assert_eq!(stored(&pool).await, (1, 0));

        // Games that are not local, or not there, are not opened.
        let theirs = started(&core, "inphexion size=5").await;
        for path in [format!("/local/game/{theirs}"), "/local/game/999".into(), "/local/game/x".into()] {
            let (status, _, page) = send(&app, form(&path, "")).await;
            assert_eq!(status, StatusCode::NOT_FOUND, "{path}: {page}");
        }
        // Against the bot, within `/play`'s cap, said without Discord's commands.
        for _ in 0..actions::MAX_BOT_GAMES {
            let res = app.clone().oneshot(form("/local/new", "game=exxit&against=easy&tiles=19")).await.unwrap();
            let (id, _) = game_page_of(&res);
            let row = db::fetch_game(&core.pool, id).await.unwrap().unwrap();
            assert_eq!(row.players, [local::YOU, local::BOT]);
            assert_eq!(db::fetch_bot_level(&core.pool, id).await.unwrap(), Some(crate::ai::Level::Easy));
        }
        let (status, _, page) = send(&app, form("/local/new", "game=exxit&against=medium")).await;
        assert_eq!(status, StatusCode::CONFLICT, "{page}");
        assert!(page.contains("3 games against hexcord in play") && !page.contains("/resign"), "{page}");
        let (games, queued) = stored(&pool).await;
        assert_eq!((games, queued), (5, 2), "the other game's board and thread alone are queued");

        // With a token, no local play.
        let discord = crate::web::tests::app(&core);
        let (_, _, page) = send(&discord, request("/", None, None)).await;
        assert!(!page.contains("/local/new") && page.contains("Discord bot"), "{page}");
        let (status, _, _) = send(&discord, form("/local/new", good)).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        let (status, _, _) = send(&discord, form(&format!("/local/game/{id}"), "")).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        assert_eq!(stored(&pool).await.0, 5);
    }
}

both_backends! {
    /// Inside Discord: the page at `/?frame_id=…` (and under `/.proxy/`) with relative files, the
    /// application's id once known, sessions that play their member's side or watch, and
    /// Discord's proxy signature checked; with the Activity off, none of it exists.
    async fn the_activity_serves_the_page_signs_members_in_and_checks_the_proxy(pool) {
        use ed25519_dalek::Signer;
        let core = core(pool).await;
        let id = started(&core, "inphexion size=5").await;
        let off = app(&core);
        let (status, _, body) = send(&off, request(LAUNCH, None, None)).await;
        assert_eq!(status, StatusCode::OK);
        assert!(!body.contains("game.js") && body.contains("/rules/exxit"), "{body}");
        let (status, body) = json(&off, request("/api/activity", None, None)).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        assert!(error_of(&body).contains("not set up"), "{body}");

        let key = ed25519_dalek::SigningKey::from_bytes(&[5u8; 32]);
        let (app, web) = activity_app(&core, &key);
        let (status, _, body) = send(&app, request("/", None, None)).await;
        assert_eq!(status, StatusCode::OK);
        assert!(!body.contains("game.js"), "the front page, not the Activity's: {body}");
        for path in [LAUNCH, "/.proxy/"] {
            let (status, kind, body) = send(&app, request(path, None, None)).await;
            assert_eq!(status, StatusCode::OK, "{path}");
            assert!(kind.starts_with("text/html"), "{kind}");
            assert!(body.contains("\"assets/game.js\"") && !body.contains("../assets/"), "{body}");
        }
        let (status, body) = json(&app, request("/api/activity", None, None)).await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
        let activity = web.activity.as_ref().unwrap();
        activity.app_id.set(4242).unwrap();
        let (status, body) = json(&app, request("/api/activity", None, None)).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["client_id"], "4242");
        assert!(body["texts"]["signing-in"].is_string(), "{body}");

        // Sessions: the player's side, a watcher's, forged ones; under the proxy prefix too.
        let ann = activity.session(ANN, T0 + 60);
        let eve = activity.session(EVE, T0 + 60);
        let state = format!("/.proxy/api/game/{id}/state");
        let (status, body) = json(&app, request(&state, Some(&ann), None)).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["you"]["seat"], 0);
        assert!(!body["legal"].as_array().unwrap().is_empty());
        let (status, body) = json(&app, request(&state, Some(&eve), None)).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert!(body["you"].is_null());
        let (status, body) = mv(&app, id, &eve, "c3", 0).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
        assert!(error_of(&body).contains("watching"), "{body}");
        let stale = activity.session(ANN, T0);
        let forged = eve.replacen(&EVE.0.to_string(), &ANN.0.to_string(), 1);
        for token in [stale.as_str(), forged.as_str()] {
            let (status, body) = json(&app, request(&state, Some(token), None)).await;
            assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
            assert!(error_of(&body).contains("not valid any more"), "{body}");
        }
        // A session renewed: a valid one for one lasting a day from now, under the proxy prefix
        // too; a stale, forged or missing one is refused and nothing issued.
        for path in ["/api/activity/session", "/.proxy/api/activity/session"] {
            let renew = request(path, Some(&ann), Some(serde_json::json!({})));
            let (status, body) = json(&app, renew).await;
            assert_eq!(status, StatusCode::OK, "{body}");
            assert_eq!(body["expires_in"], crate::web::activity::SESSION_SECS, "{body}");
            let renewed = body["session"].as_str().unwrap();
            assert_eq!(activity.member(renewed, T0 + 61), Some(ANN), "past the old expiry");
            assert_eq!(activity.member(&ann, T0 + 61), None);
            let (status, body) = json(&app, request(&state, Some(renewed), None)).await;
            assert_eq!(status, StatusCode::OK, "{body}");
            assert_eq!(body["you"]["seat"], 0);
        }
        for token in [Some(stale.as_str()), Some(forged.as_str()), Some("ab".repeat(32).as_str()), None] {
            let renew = request("/api/activity/session", token, Some(serde_json::json!({})));
            let (status, body) = json(&app, renew).await;
            assert_eq!(status, StatusCode::UNAUTHORIZED, "{token:?}: {body}");
            assert!(error_of(&body).contains("not valid any more"), "{body}");
            assert!(body.get("session").is_none(), "{body}");
        }
        // The sign-in: a body that is not one, and Discord out of reach.
        let (status, _) = json(&app, request("/api/token", None, Some(serde_json::json!({})))).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        let code = serde_json::json!({"code": "abc"});
        let (status, body) = json(&app, request("/api/token", None, Some(code))).await;
        assert_eq!(status, StatusCode::BAD_GATEWAY, "{body}");
        assert!(error_of(&body).contains("could not be reached"), "{body}");

        // Discord's proxy headers: the application's signature passes, another's is refused.
        let signed = |k: &ed25519_dalek::SigningKey| {
            let payload = format!(r#"{{"created_at":{},"expires_at":{}}}"#, T0 - 5, T0 + 60);
            let sig: String =
                k.sign(payload.as_bytes()).to_bytes().iter().map(|b| format!("{b:02x}")).collect();
            let mut r = request(&state, None, None);
            let h = r.headers_mut();
            use base64::Engine;
            let b64 = base64::engine::general_purpose::STANDARD.encode(payload.as_bytes());
            h.insert(crate::web::proxy::PAYLOAD, b64.parse().unwrap());
            h.insert(crate::web::proxy::SIGNATURE, sig.parse().unwrap());
            h.insert(crate::web::proxy::TIMESTAMP, (T0 - 5).to_string().parse().unwrap());
            r
        };
        let (status, _) = json(&app, signed(&key)).await;
        assert_eq!(status, StatusCode::OK);
        let forger = ed25519_dalek::SigningKey::from_bytes(&[6u8; 32]);
        let (status, body) = json(&app, signed(&forger)).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
        assert!(error_of(&body).contains("signature is not valid"), "{body}");
    }
}

both_backends! {
    /// Which game the Activity opens: the game of the thread it was launched in, else the
    /// member's game to move, else the list of their games (none for a member without one).
    async fn the_activity_opens_the_threads_game_or_the_members(pool) {
        let core = core(pool).await;
        let id = started(&core, "inphexion size=5").await;
        let key = ed25519_dalek::SigningKey::from_bytes(&[5u8; 32]);
        let (app, web) = activity_app(&core, &key);
        let activity = web.activity.as_ref().unwrap();
        let games = |who: UserId, channel: &str| {
            let path = format!("/api/activity/games{channel}");
            let mut r = request(&path, None, None);
            r.headers_mut().insert(
                header::AUTHORIZATION,
                format!("Bearer {}", activity.session(who, T0 + 60)).parse().unwrap(),
            );
            r
        };
        // Ann moves first: her game opens at once; Bob chooses among his; Eve has none.
        let (status, body) = json(&app, games(ANN, "")).await;
        assert_eq!((status, &body["game"]), (StatusCode::OK, &serde_json::json!(id)), "{body}");
        let (_, body) = json(&app, games(BOB, "?channel=8")).await;
        let list = body["games"].as_array().unwrap();
        assert_eq!(list.len(), 1, "{body}");
        assert_eq!(list[0]["id"], id);
        assert_eq!(list[0]["your_turn"], false);
        assert_eq!(list[0]["kind"], "inphexion");
        assert_eq!(list[0]["players"], serde_json::json!(["ann", "bob"]));
        let (_, body) = json(&app, games(EVE, "")).await;
        assert_eq!(body["games"], serde_json::json!([]), "{body}");
        // In the game's thread, anyone opens that game.
        db::set_game_thread(&core.pool, id, Some(ChannelId(77))).await.unwrap();
        let (_, body) = json(&app, games(EVE, "?channel=77")).await;
        assert_eq!(body["game"], id, "{body}");
        // Without a session, nothing.
        let (status, _) = json(&app, request("/api/activity/games", None, None)).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
    }
}

// The server itself, over real sockets: its timers and caps.

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use super::server::Limits;

/// Short timers for the tests, and the caps of `files` open files.
fn quick(files: u64) -> Limits {
    Limits {
        header_timeout: Duration::from_millis(800),
        body_timeout: Duration::from_millis(800),
        ..Limits::for_file_limit(files)
    }
}

/// The web board served over a socket with `limits`; its address.
async fn served(core: &Core, limits: Limits) -> std::net::SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let web = Web::new(core.clone(), Arc::new(OnceLock::new()));
    tokio::spawn(super::serve_with(listener, web, limits));
    addr
}

/// A core over a fresh SQLite database (kept with the guard).
async fn sqlite_core() -> (Core, crate::db::testing::TempFile) {
    let (pool, file) = crate::db::testing::temp_db().await;
    (core(pool).await, file)
}

/// How long until the server closes `socket` (reading and dropping what it sends), at most
/// `within`; `None` when it is still open then.
async fn closed_within(socket: &mut TcpStream, within: Duration) -> Option<Duration> {
    let start = std::time::Instant::now();
    let mut buf = [0u8; 4096];
    let read = async {
        loop {
            match socket.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
        }
    };
    tokio::time::timeout(within, read)
        .await
        .ok()
        .map(|()| start.elapsed())
}

/// Reads a response's head (up to the blank line): its status and its lines.
async fn head(socket: &mut TcpStream) -> (u16, String) {
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    let read = async {
        while !head.ends_with(b"\r\n\r\n") {
            match socket.read(&mut byte).await {
                Ok(1) => head.push(byte[0]),
                _ => break,
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(10), read)
        .await
        .expect("a head in time");
    let head = String::from_utf8_lossy(&head).to_ascii_lowercase();
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, head)
}

#[tokio::test]
async fn a_head_trickled_line_by_line_is_cut_off() {
    let (core, _db) = sqlite_core().await;
    let limits = quick(1024);
    let addr = served(&core, limits).await;
    let mut socket = TcpStream::connect(addr).await.unwrap();
    let (mut reader, mut writer) = socket.split();
    let trickle = async {
        let _ = writer.write_all(b"GET / HTTP/1.1\r\n").await;
        for i in 0..40 {
            tokio::time::sleep(Duration::from_millis(200)).await;
            if writer
                .write_all(format!("X-Slow-{i}: a\r\n").as_bytes())
                .await
                .is_err()
            {
                break;
            }
        }
    };
    let start = std::time::Instant::now();
    let cut = async {
        let mut buf = [0u8; 1024];
        while matches!(reader.read(&mut buf).await, Ok(n) if n > 0) {}
        start.elapsed()
    };
    let (cut, ()) = tokio::join!(
        async {
            tokio::time::timeout(Duration::from_secs(5), cut)
                .await
                .expect("the trickled head is cut off")
        },
        trickle
    );
    assert!(
        cut < limits.header_timeout + Duration::from_millis(700),
        "{cut:?}"
    );
}

#[tokio::test]
async fn idle_connections_are_closed_new_or_kept_alive() {
    let (core, _db) = sqlite_core().await;
    let limits = quick(1024);
    let addr = served(&core, limits).await;
    let within = limits.header_timeout + Duration::from_millis(700);
    // A connection that never says anything.
    let mut silent = TcpStream::connect(addr).await.unwrap();
    assert!(
        closed_within(&mut silent, within).await.is_some(),
        "a silent connection stays"
    );
    // A connection kept alive after an answer, then idle.
    let mut kept = TcpStream::connect(addr).await.unwrap();
    kept.write_all(b"GET /assets/theme.css HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    let (status, h) = head(&mut kept).await;
    assert_eq!(status, 200, "{h}");
    assert!(!h.contains("connection: close"), "kept alive: {h}");
    assert!(
        closed_within(&mut kept, within).await.is_some(),
        "an idle connection stays"
    );
}

#[tokio::test]
async fn a_slow_body_is_answered_408_and_a_live_stream_outlasts_the_timers() {
    let (core, _db) = sqlite_core().await;
    let id = started(&core, "inphexion size=5").await;
    let limits = quick(1024);
    let addr = served(&core, limits).await;
    let mut slow = TcpStream::connect(addr).await.unwrap();
    slow.write_all(
        format!(
            "POST /api/game/{id}/move HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{{"
        )
        .as_bytes(),
    )
    .await
    .unwrap();
    let start = std::time::Instant::now();
    let (mut reader, mut writer) = slow.split();
    let drip = async {
        for _ in 0..30 {
            tokio::time::sleep(Duration::from_millis(200)).await;
            if writer.write_all(b" ").await.is_err() {
                break;
            }
        }
    };
    let answer = async {
        let mut all = Vec::new();
        let _ = reader.read_to_end(&mut all).await;
        (String::from_utf8_lossy(&all).to_string(), start.elapsed())
    };
    let ((answer, took), ()) = tokio::join!(
        async {
            tokio::time::timeout(Duration::from_secs(5), answer)
                .await
                .expect("an answer in time")
        },
        drip
    );
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("too slowly"), "{answer}");
    assert!(
        took < limits.body_timeout + Duration::from_millis(700),
        "{took:?}"
    );
    // A live stream is not cut by either timer: it is still open well after both.
    let mut live = TcpStream::connect(addr).await.unwrap();
    live.write_all(format!("GET /api/game/{id}/events HTTP/1.1\r\nHost: x\r\n\r\n").as_bytes())
        .await
        .unwrap();
    let (status, h) = head(&mut live).await;
    assert_eq!(status, 200, "{h}");
    assert!(h.contains("text/event-stream"), "{h}");
    assert_eq!(
        closed_within(&mut live, 3 * limits.header_timeout).await,
        None,
        "the live stream was cut"
    );
}

/// Opens game `id`'s live stream from `from` (as a local reverse proxy forwards it): the
/// connection and the answer's status and head.
async fn open_stream(addr: std::net::SocketAddr, id: i64, from: &str) -> (TcpStream, u16, String) {
    let mut socket = TcpStream::connect(addr).await.unwrap();
    socket
        .write_all(
            format!(
                "GET /api/game/{id}/events HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: {from}\r\n\r\n"
            )
            .as_bytes(),
        )
        .await
        .unwrap();
    let (status, head) = head(&mut socket).await;
    (socket, status, head)
}

#[tokio::test]
async fn live_streams_and_connections_are_capped_below_the_file_limit() {
    let (core, _db) = sqlite_core().await;
    let id = started(&core, "inphexion size=5").await;
    // Under a limit of 64 open files: 16 connections, 12 of them live streams, a quarter of
    // those (3) per client.
    let limits = quick(64);
    assert_eq!(
        (
            limits.connections,
            limits.streams,
            limits.streams_per_client
        ),
        (16, 12, 3)
    );
    let addr = served(&core, limits).await;
    let mut open = Vec::new();
    for _ in 0..3 {
        let (socket, status, h) = open_stream(addr, id, "198.51.100.1").await;
        assert_eq!(status, 200, "{h}");
        open.push(socket);
    }
    // A flood from the same address: refused, with when to try again, holding no more.
    for _ in 0..20 {
        let (_, status, h) = open_stream(addr, id, "198.51.100.1").await;
        assert_eq!(status, 503, "{h}");
        assert!(h.contains("retry-after: 30"), "{h}");
    }
    // The others' streams are all still there for them.
    for from in ["198.51.100.2", "198.51.100.4", "198.51.100.5"] {
        for _ in 0..3 {
            let (socket, status, h) = open_stream(addr, id, from).await;
            assert_eq!(status, 200, "{h}");
            open.push(socket);
        }
    }
    // All twelve taken: a newcomer is refused, in their language.
    let mut ja = TcpStream::connect(addr).await.unwrap();
    ja.write_all(
        format!("GET /api/game/{id}/events HTTP/1.1\r\nHost: x\r\nAccept-Language: ja\r\nX-Forwarded-For: 198.51.100.3\r\nConnection: close\r\n\r\n")
            .as_bytes(),
    )
    .await
    .unwrap();
    let mut answer = Vec::new();
    ja.read_to_end(&mut answer).await.unwrap();
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
    assert!(
        answer.to_ascii_lowercase().contains("retry-after: 30"),
        "{answer}"
    );
    assert!(answer.contains("上限"), "{answer}");
    // Ordinary requests still pass beside the streams.
    let (status, _) = {
        let mut s = TcpStream::connect(addr).await.unwrap();
        s.write_all(b"GET /assets/theme.css HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            .await
            .unwrap();
        head(&mut s).await
    };
    assert_eq!(status, 200);
    // A stream closed gives its seat back.
    drop(open.pop());
    let mut admitted = false;
    for _ in 0..50 {
        let (socket, status, _) = open_stream(addr, id, "198.51.100.3").await;
        if status == 200 {
            open.push(socket);
            admitted = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(admitted, "the seat was not given back");
    // The refused connections are closed by now.
    tokio::time::sleep(Duration::from_millis(200)).await;
    // Connections: 12 streams and 4 idle fill the 16; a 17th is closed unanswered.
    let mut idle = Vec::new();
    for _ in 0..4 {
        idle.push(TcpStream::connect(addr).await.unwrap());
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut extra = TcpStream::connect(addr).await.unwrap();
    let _ = extra
        .write_all(b"GET /assets/theme.css HTTP/1.1\r\nHost: x\r\n\r\n")
        .await;
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(Duration::from_millis(500), extra.read_to_end(&mut answer))
        .await
        .expect("closed at once");
    assert!(answer.is_empty(), "{}", String::from_utf8_lossy(&answer));
}

/// `GET path` over a fresh connection with `extra` header lines; the status and the body.
async fn get_raw(addr: std::net::SocketAddr, path: &str, extra: &str) -> (u16, String) {
    let mut socket = TcpStream::connect(addr).await.unwrap();
    socket
        .write_all(
            format!("GET {path} HTTP/1.1\r\nHost: x\r\n{extra}Connection: close\r\n\r\n")
                .as_bytes(),
        )
        .await
        .unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), socket.read_to_end(&mut answer))
        .await
        .expect("an answer in time")
        .unwrap();
    let answer = String::from_utf8(answer).unwrap();
    let (head, body) = answer.split_once("\r\n\r\n").expect("a head and a body");
    let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap();
    let lower = head.to_ascii_lowercase();
    if status == 200 && path == "/metrics" {
        assert!(
            lower.contains("content-type: text/plain; version=0.0.4"),
            "{head}"
        );
    }
    // Answers are short and whole (no chunked stream): the body is what was sent.
    assert!(!lower.contains("transfer-encoding: chunked"), "{head}");
    (status, body.to_string())
}

/// A sample's labels, in order: name and value each.
type Labels = Vec<(String, String)>;

/// One metric family of a scrape, as a strict reader of the text format (0.0.4) finds it.
#[derive(Debug, Default)]
struct Family {
    help: String,
    kind: String,
    /// Each sample: its full name, its labels in order, its value.
    samples: Vec<(String, Labels, f64)>,
}

fn valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == ':')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':')
}

/// A sample's value: a float, `+Inf`, `-Inf` or `NaN`.
fn sample_value(text: &str) -> Option<f64> {
    match text {
        "+Inf" => Some(f64::INFINITY),
        "-Inf" => Some(f64::NEG_INFINITY),
        "NaN" => Some(f64::NAN),
        t => t.parse().ok(),
    }
}

/// `{a="x",b="y"}` (after the name) as its labels; the rest of the line after it.
fn labels(text: &str) -> Result<(Labels, &str), String> {
    let Some(mut rest) = text.strip_prefix('{') else {
        return Ok((Vec::new(), text));
    };
    let mut out = Vec::new();
    loop {
        if let Some(after) = rest.strip_prefix('}') {
            return Ok((out, after));
        }
        let eq = rest.find('=').ok_or("a label without `=`")?;
        let name = &rest[..eq];
        if !valid_name(name) || name.starts_with("__") {
            return Err(format!("bad label name `{name}`"));
        }
        rest = rest[eq + 1..]
            .strip_prefix('"')
            .ok_or("a label value not quoted")?;
        let mut value = String::new();
        let mut chars = rest.char_indices();
        let end = loop {
            match chars.next() {
                Some((i, '"')) => break i,
                Some((_, '\\')) => match chars.next() {
                    Some((_, 'n')) => value.push('\n'),
                    Some((_, c @ ('\\' | '"'))) => value.push(c),
                    _ => return Err("a bad escape in a label value".into()),
                },
                Some((_, '\n')) | None => return Err("an unterminated label value".into()),
                Some((_, c)) => value.push(c),
            }
        };
        if out.iter().any(|(n, _)| n == name) {
            return Err(format!("label `{name}` twice"));
        }
        out.push((name.to_string(), value));
        rest = &rest[end + 1..];
        rest = rest.strip_prefix(',').unwrap_or(rest);
    }
}

/// Reads a whole scrape strictly: every line a HELP, a TYPE (each once, before the family's
/// samples, families not interleaved) or a sample of the family announced last, with a name its
/// type allows (`_bucket`/`_sum`/`_count` for histograms, `_total` for counters), well-formed
/// labels and a number, no sample twice; histograms' buckets cumulative up to `+Inf`, which
/// equals `_count`; counters and gauges here never negative. Panics with the line at fault.
fn parse_exposition(text: &str) -> std::collections::BTreeMap<String, Family> {
    use std::collections::{BTreeMap, HashSet};
    assert!(text.ends_with('\n'), "the scrape must end with a newline");
    let mut families: BTreeMap<String, Family> = BTreeMap::new();
    let mut current: Option<String> = None;
    let mut seen = HashSet::new();
    for (n, line) in text.lines().enumerate() {
        let fail = |why: &str| -> ! { panic!("line {}: {why}: `{line}`", n + 1) };
        if line.is_empty() {
            fail("an empty line");
        }
        if let Some(comment) = line.strip_prefix("# ") {
            let mut parts = comment.splitn(3, ' ');
            let (word, name, rest) = (parts.next(), parts.next(), parts.next());
            let (Some(word), Some(name)) = (word, name) else {
                fail("a comment without a metric name")
            };
            if !valid_name(name) {
                fail("a bad metric name");
            }
            if current.as_deref() != Some(name) {
                if families.contains_key(name) {
                    fail("a family declared again later");
                }
                current = Some(name.to_string());
            }
            let family = families.entry(name.to_string()).or_default();
            if !family.samples.is_empty() {
                fail("HELP or TYPE after the family's samples");
            }
            match (word, rest) {
                ("HELP", Some(help)) if family.help.is_empty() && !help.trim().is_empty() => {
                    family.help = help.to_string()
                }
                ("TYPE", Some(kind))
                    if family.kind.is_empty()
                        && ["counter", "gauge", "histogram", "summary", "untyped"]
                            .contains(&kind) =>
                {
                    family.kind = kind.to_string()
                }
                _ => fail("a bad, repeated or empty HELP or TYPE"),
            }
            continue;
        }
        if line.starts_with('#') {
            fail("a comment that is neither HELP nor TYPE");
        }
        let name_end = line
            .find(['{', ' '])
            .unwrap_or_else(|| fail("a sample without a value"));
        let name = &line[..name_end];
        if !valid_name(name) {
            fail("a bad sample name");
        }
        let (labels, rest) = labels(&line[name_end..]).unwrap_or_else(|e| fail(&e));
        let value = rest
            .strip_prefix(' ')
            .and_then(|v| {
                let mut parts = v.split(' ');
                let value = sample_value(parts.next()?)?;
                // An optional timestamp (ms), then nothing.
                match (parts.next(), parts.next()) {
                    (None, _) => Some(value),
                    (Some(t), None) if t.parse::<i64>().is_ok() => Some(value),
                    _ => None,
                }
            })
            .unwrap_or_else(|| fail("a bad value"));
        let family_name = current
            .clone()
            .unwrap_or_else(|| fail("a sample without TYPE"));
        let family = families.get_mut(&family_name).unwrap();
        if family.help.is_empty() || family.kind.is_empty() {
            fail("a sample before its family's HELP and TYPE");
        }
        let allowed = match family.kind.as_str() {
            "histogram" => ["_bucket", "_sum", "_count"]
                .iter()
                .any(|s| name == format!("{family_name}{s}")),
            "counter" => name == family_name && name.ends_with("_total"),
            _ => name == family_name,
        };
        if !allowed {
            fail("a sample name its family's type does not allow");
        }
        if name.ends_with("_bucket") && !labels.iter().any(|(l, _)| l == "le") {
            fail("a bucket without `le`");
        }
        if value.is_nan() || value < 0.0 {
            fail("a negative or missing figure");
        }
        if !seen.insert((name.to_string(), labels.clone())) {
            fail("a sample twice");
        }
        family.samples.push((name.to_string(), labels, value));
    }
    for (name, family) in &families {
        assert!(
            !family.help.is_empty() && !family.kind.is_empty(),
            "{name}: HELP and TYPE"
        );
        if family.kind != "histogram" {
            continue;
        }
        // Per label set (without `le`): buckets rising to `+Inf`, which is `_count`.
        let mut series: BTreeMap<Labels, Vec<(f64, f64)>> = BTreeMap::new();
        let mut counts = BTreeMap::new();
        for (sample, labels, value) in &family.samples {
            let rest: Vec<_> = labels.iter().filter(|(l, _)| l != "le").cloned().collect();
            if sample.ends_with("_bucket") {
                let le = labels.iter().find(|(l, _)| l == "le").unwrap();
                let bound = sample_value(&le.1).unwrap_or_else(|| panic!("{name}: le {le:?}"));
                series.entry(rest).or_default().push((bound, *value));
            } else if sample.ends_with("_count") {
                counts.insert(rest, *value);
            }
        }
        assert_eq!(series.len(), counts.len(), "{name}: a _count per series");
        for (rest, buckets) in series {
            assert!(
                buckets
                    .windows(2)
                    .all(|w| w[0].0 < w[1].0 && w[0].1 <= w[1].1),
                "{name} {rest:?}: buckets by rising bound, cumulative: {buckets:?}"
            );
            let last = buckets.last().unwrap();
            assert_eq!(last.0, f64::INFINITY, "{name} {rest:?}: a +Inf bucket");
            assert_eq!(
                Some(&last.1),
                counts.get(&rest),
                "{name} {rest:?}: +Inf = _count"
            );
        }
    }
    families
}

/// The value of `name`'s sample with `labels` (all of them, in any order).
fn figure(
    families: &std::collections::BTreeMap<String, Family>,
    name: &str,
    labels: &[(&str, &str)],
) -> f64 {
    let family = ["", "_bucket", "_sum", "_count"]
        .iter()
        .find_map(|s| families.get(name.strip_suffix(s)?))
        .unwrap_or_else(|| panic!("no family of {name}"));
    family
        .samples
        .iter()
        .find(|(sample, l, _)| {
            sample == name
                && l.len() == labels.len()
                && labels
                    .iter()
                    .all(|(k, v)| l.iter().any(|(a, b)| a == k && b == v))
        })
        .unwrap_or_else(|| panic!("no sample {name} {labels:?}: {family:?}"))
        .2
}

#[test]
fn the_scrape_reader_refuses_what_the_format_does_not_allow() {
    let good = "# HELP a_total A.\n# TYPE a_total counter\na_total 1\n";
    assert_eq!(parse_exposition(good)["a_total"].samples.len(), 1);
    for bad in [
        "a_total 1\n",
        "# HELP a_total A.\n# TYPE a_total counter\na_total one\n",
        "# HELP a_total A.\n# TYPE a_total counter\na_total{x=\"1\" 1\n",
        "# HELP a_total A.\n# TYPE a_total counter\na_total 1\na_total 2\n",
        "# HELP a A.\n# TYPE a counter\na 1\n",
        "# HELP h A.\n# TYPE h histogram\nh_bucket{le=\"1\"} 2\nh_bucket{le=\"+Inf\"} 1\nh_count 1\n",
        "# HELP h A.\n# TYPE h histogram\nh_bucket{le=\"+Inf\"} 2\nh_count 1\n",
        "# HELP g A.\n# TYPE g gauge\ng 1\n# HELP g B.\n",
    ] {
        let refused = std::panic::catch_unwind(|| parse_exposition(bad));
        assert!(refused.is_err(), "accepted: {bad}");
    }
}

/// `/metrics` from a running server, read with a strict reader of the text format: every family
/// named with its HELP and TYPE, and the figures following what happens (a move, an answer, a
/// live stream); only this machine or the token's holder may read it.
#[tokio::test]
async fn the_metrics_are_prometheus_text_and_follow_what_happens() {
    use crate::metrics::{Interaction, METRICS};
    let (core, _db) = sqlite_core().await;
    let id = started(&core, "inphexion size=5").await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let web = Web::new(core.clone(), Arc::new(OnceLock::new()));
    let token = "a-monitoring-token-0123456789";
    web.metrics_token.set(token.to_string()).unwrap();
    tokio::spawn(super::serve_with(listener, web, quick(1024)));

    let (status, body) = get_raw(addr, "/metrics", "").await;
    assert_eq!(status, 200, "{body}");
    let before = parse_exposition(&body);
    for (name, kind) in [
        ("hexcord_database_up", "gauge"),
        ("hexcord_games_in_play", "gauge"),
        ("hexcord_moves_total", "counter"),
        ("hexcord_interactions_answered_total", "counter"),
        ("hexcord_interaction_latency_seconds", "histogram"),
        ("hexcord_delivery_queue_length", "gauge"),
        ("hexcord_delivery_queue_oldest_age_seconds", "gauge"),
        ("hexcord_database_connections", "gauge"),
        ("hexcord_discord_rate_limited_total", "counter"),
        ("hexcord_gateway_shards", "gauge"),
        ("hexcord_web_connections", "gauge"),
        ("hexcord_web_live_streams", "gauge"),
    ] {
        let family = before.get(name).unwrap_or_else(|| panic!("no {name}"));
        assert_eq!(family.kind, kind, "{name}");
    }
    assert_eq!(figure(&before, "hexcord_database_up", &[]), 1.0);
    assert_eq!(figure(&before, "hexcord_games_in_play", &[]), 1.0);
    // The game's first board waits in the delivery queue (no Discord here).
    assert!(figure(&before, "hexcord_delivery_queue_length", &[]) >= 1.0);
    // This scrape's own connection.
    assert!(figure(&before, "hexcord_web_connections", &[]) >= 1.0);
    assert_eq!(figure(&before, "hexcord_web_live_streams", &[]), 0.0);
    for scope in ["global", "route"] {
        figure(
            &before,
            "hexcord_discord_rate_limited_total",
            &[("scope", scope)],
        );
    }

    // A move from the page, an answered button, a live stream.
    let ann = links::issue(&core.pool, id, ANN, T0).await.unwrap();
    let (status, played) = mv(&app(&core), id, &ann, "c3", 0).await;
    assert_eq!(status, StatusCode::OK, "{played}");
    METRICS.answered(Interaction::Component, Duration::from_millis(40));
    let (_stream, status, h) = open_stream(addr, id, "198.51.100.9").await;
    assert_eq!(status, 200, "{h}");

    let (status, body) = get_raw(addr, "/metrics", "").await;
    assert_eq!(status, 200, "{body}");
    let after = parse_exposition(&body);
    let rose = |name: &str, labels: &[(&str, &str)]| {
        figure(&after, name, labels) - figure(&before, name, labels)
    };
    assert!(rose("hexcord_moves_total", &[]) >= 1.0);
    let component = [("kind", "component")];
    assert!(rose("hexcord_interactions_answered_total", &component) >= 1.0);
    assert!(rose("hexcord_interaction_latency_seconds_count", &component) >= 1.0);
    assert!(rose("hexcord_interaction_latency_seconds_sum", &component) >= 0.04);
    assert!(
        rose(
            "hexcord_interaction_latency_seconds_bucket",
            &[("kind", "component"), ("le", "0.05")]
        ) >= 1.0
    );
    assert_eq!(figure(&after, "hexcord_web_live_streams", &[]), 1.0);

    // Forwarded by a proxy on this machine: a stranger, refused unless they hold the token.
    let forwarded = "X-Forwarded-For: 203.0.113.5\r\n";
    let (status, body) = get_raw(addr, "/metrics", forwarded).await;
    assert_eq!(status, 403, "{body}");
    assert!(body.contains("METRICS_TOKEN"), "{body}");
    assert!(!body.contains("hexcord_"), "{body}");
    let wrong = format!("{forwarded}Authorization: Bearer {token}x\r\n");
    assert_eq!(get_raw(addr, "/metrics", &wrong).await.0, 403);
    let right = format!("{forwarded}Authorization: Bearer {token}\r\n");
    let (status, body) = get_raw(addr, "/metrics", &right).await;
    assert_eq!(status, 200);
    parse_exposition(&body);

    // No gateway runs in this test: not ready, and why.
    let (status, body) = get_raw(addr, "/healthz", forwarded).await;
    assert_eq!(status, 503, "{body}");
    assert!(body.contains("gateway"), "{body}");
    assert!(!body.contains("database"), "{body}");
}

/// Local play's address: the default one in use, the next free port of the same address is
/// taken and the line names both; an address the user set that is in use stops hexcord with an
/// error naming `WEB_ADDR`.
#[tokio::test]
async fn local_play_takes_the_next_free_port_only_in_place_of_the_default() {
    use super::local::{listen, start_line};
    let held = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let taken = held.local_addr().unwrap();
    let other = listen(taken, true).await.expect("another port");
    let bound = other.local_addr().unwrap();
    assert_eq!(bound.ip(), taken.ip());
    assert_ne!(bound.port(), taken.port());
    let line = start_line(bound, Some(taken));
    assert!(
        line.contains(&format!("open http://{bound}/ to play"))
            && line.contains(&format!("{taken} is in use")),
        "{line}"
    );
    assert!(!start_line(bound, None).contains("in use"));
    let e = listen(taken, false)
        .await
        .expect_err("the address set is kept");
    let e = e.to_string();
    assert!(
        e.starts_with(&format!("WEB_ADDR={taken}: cannot listen there")),
        "{e}"
    );
    drop(held);
}

/// A post to the learn API (`path` with its query), with `token` as the Bearer header.
async fn learn_post(
    app: &Router,
    path: &str,
    token: Option<&str>,
    body: Value,
) -> (StatusCode, Value) {
    json(
        app,
        request(&format!("/api/learn/{path}"), token, Some(body)),
    )
    .await
}

both_backends! {
    /// The learn page in a browser (no member): the first level of inpHeXion, a wrong move
    /// refused with the level's words, the right one done with its stars, the next level opened
    /// from the levels the browser kept; in Japanese with `?lang=ja`. A level no longer in the
    /// course and moves that do not replay are refused (409) in words.
    async fn the_learn_api_judges_a_browsers_moves_and_opens_its_next_level(pool) {
        let core = core(pool).await;
        let app = app(&core);
        let (status, kind, body) = send(&app, request("/learn", None, None)).await;
        assert_eq!(status, StatusCode::OK);
        assert!(kind.starts_with("text/html"), "{kind}");
        assert!(body.contains("assets/learn.js") && !body.contains("<script>"), "{body}");
        let (status, v) = learn_post(&app, "open", None, serde_json::json!({"game": "inphexion"})).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let level = &v["level"];
        assert_eq!(level["key"], "inphexion/first-disc");
        assert_eq!(v["member"], false);
        assert!(level["svg"].as_str().unwrap().starts_with("<svg"));
        assert!(level["legal"].as_array().unwrap().iter().any(|m| m["notation"] == "c3"));
        assert!(level["heading"].as_str().unwrap().contains("stage 1/"), "{v}");
        assert_eq!(v["texts"]["next"], "Next level");
        let (_, wrong) = learn_post(&app, "move", None, serde_json::json!({
            "game": "inphexion", "move": "a1", "level": "inphexion/first-disc",
            "moves": [], "tries": 0,
        })).await;
        assert_eq!(wrong["said"]["kind"], "wrong", "{wrong}");
        let corner = crate::i18n::tr(crate::i18n::Lang::EN, "learn-inphexion-first-disc-corner");
        assert!(wrong["said"]["html"].as_str().unwrap().contains(&corner[..20]), "{wrong}");
        assert_eq!(wrong["level"]["tries"], 1);
        assert_eq!(wrong["level"]["key"], "inphexion/first-disc");
        let (_, done) = learn_post(&app, "move", None, serde_json::json!({
            "game": "inphexion", "move": "c3", "level": "inphexion/first-disc",
            "moves": [], "tries": 1,
        })).await;
        assert_eq!(done["said"]["kind"], "done", "{done}");
        assert_eq!(done["said"]["stars"], 2);
        assert_eq!(done["level"]["done"], true);
        assert_eq!(done["level"]["next"], true);
        assert_eq!(done["level"]["legal"].as_array().unwrap().len(), 0);
        assert_eq!(done["progress"]["done"], 1);
        let (_, next) = learn_post(&app, "open?lang=ja", None, serde_json::json!({
            "game": "inphexion", "done": {"inphexion/first-disc": 2},
        })).await;
        assert_eq!(next["level"]["key"], "inphexion/white-connects");
        assert_eq!(next["lang"], "ja");
        assert!(next["level"]["heading"].as_str().unwrap().contains("ステージ1/"), "{next}");
        assert_eq!(next["texts"]["next"], "次のレベル");
        // Bad input: a level gone, moves that do not play there, a game that is none.
        let (status, gone) = learn_post(&app, "move", None, serde_json::json!({
            "game": "inphexion", "move": "c3", "level": "inphexion/retired", "moves": [], "tries": 0,
        })).await;
        assert_eq!(status, StatusCode::CONFLICT);
        assert_eq!(error_of(&gone), crate::i18n::tr(crate::i18n::Lang::EN, "learn-gone"));
        let (status, _) = learn_post(&app, "move", None, serde_json::json!({
            "game": "inphexion", "move": "c3", "level": "inphexion/first-disc",
            "moves": ["z9"], "tries": 0,
        })).await;
        assert_eq!(status, StatusCode::CONFLICT);
        let (status, none) = learn_post(&app, "open", None, serde_json::json!({"game": "chess"})).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert!(error_of(&none).contains("chess"), "{none}");
    }
}

both_backends! {
    /// A member on the learn page with their private link: their level and every move stored by
    /// `/learn`'s actions, so `/learn` and `/profile` see it; a move from a page left behind (a
    /// stale version) and a forged link are refused in words and change nothing.
    async fn the_learn_api_keeps_a_members_progress_and_refuses_stale_and_forged_requests(pool) {
        let core = core(pool.clone()).await;
        let app = app(&core);
        let token = links::issue_inbox(&pool, ANN, T0).await.unwrap();
        let open = serde_json::json!({"game": "inphexion"});
        let (status, v) = learn_post(&app, "open", Some(&token), open.clone()).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v["member"], true);
        assert_eq!(v["level"]["key"], "inphexion/first-disc");
        let version = v["level"]["version"].as_i64().unwrap();
        let (_, wrong) = learn_post(&app, "move", Some(&token), serde_json::json!({
            "game": "inphexion", "move": "a1", "version": version,
        })).await;
        assert_eq!(wrong["said"]["kind"], "wrong", "{wrong}");
        assert_eq!(wrong["level"]["version"], version + 1);
        let before = db::fetch_learn_attempt(&pool, ANN).await.unwrap().unwrap();
        assert_eq!((before.tries, before.version), (1, version + 1));
        // The page left behind names the old version: refused, nothing changes.
        let (status, stale) = learn_post(&app, "move", Some(&token), serde_json::json!({
            "game": "inphexion", "move": "c3", "version": version,
        })).await;
        assert_eq!(status, StatusCode::CONFLICT);
        assert_eq!(error_of(&stale), crate::i18n::tr(crate::i18n::Lang::EN, "learn-web-stale"));
        assert_eq!(db::fetch_learn_attempt(&pool, ANN).await.unwrap(), Some(before));
        assert!(db::learn_progress(&pool, ANN).await.unwrap().is_empty());
        // A forged link: refused, nothing read or written.
        let forged = "ab".repeat(32);
        let (status, refused) = learn_post(&app, "move", Some(&forged), serde_json::json!({
            "game": "inphexion", "move": "c3", "version": version + 1,
        })).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        assert_eq!(error_of(&refused), crate::i18n::tr(crate::i18n::Lang::EN, "inbox-token-unknown"));
        assert!(db::learn_progress(&pool, ANN).await.unwrap().is_empty());
        let (_, done) = learn_post(&app, "move", Some(&token), serde_json::json!({
            "game": "inphexion", "move": "c3", "version": version + 1,
        })).await;
        assert_eq!(done["said"]["kind"], "done", "{done}");
        assert_eq!(done["said"]["stars"], 2);
        assert_eq!(
            db::learn_progress(&pool, ANN).await.unwrap(),
            vec![("inphexion/first-disc".to_string(), 2)]
        );
        let (_, next) = learn_post(&app, "open", Some(&token), open).await;
        assert_eq!(next["level"]["key"], "inphexion/white-connects");
        assert_eq!(next["progress"]["done"], 1);
    }
}

both_backends! {
    /// The ways to the course: the front page, local play's, and each game's rules page link to
    /// its learn page in the reader's language.
    async fn the_front_and_rules_pages_link_to_the_learn_page(pool) {
        let core = core(pool).await;
        let app = app(&core);
        let (_, _, front) = send(&app, request("/?lang=ja", None, None)).await;
        assert!(front.contains("href=\"/learn?game=inphexion&amp;lang=ja\""), "{front}");
        assert!(front.contains("href=\"/learn?game=exxit&amp;lang=ja\""), "{front}");
        let (_, _, rules) = send(&app, request("/rules/exxit", None, None)).await;
        assert!(rules.contains("href=\"/learn?game=exxit&amp;lang=en\""), "{rules}");
        let local = router(Web::local(
            core.clone(),
            crate::play::opponent::Opponent::new(core.clone(), crate::play::local::BOT, "hexcord"),
        ));
        let (_, _, page) = send(&local, request("/", None, None)).await;
        assert!(page.contains("href=\"/learn?game=inphexion&amp;lang=en\""), "{page}");
    }
}
