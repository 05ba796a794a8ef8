//! The web board: a page per game, served by the bot's own process, where the game's players
//! click their moves and anyone watches it live.
//!
//! A peer of [`crate::bot`] over the play layer (it imports neither serenity nor poise): an axum
//! server on the bot's tokio runtime, started with the bot when `WEB_ADDR` is not `off`.
//!
//! - `GET /game/{id}`: the page (`assets/web/game.html`, embedded with the other files of
//!   `assets/web/`, served under `/assets/`; `/assets/theme.css` is the board's colours).
//! - `GET /api/game/{id}/state`: the game as JSON ([`state`]): players, whose turn, deadline, the
//!   moves in words, the board as SVG, and, for the player to move holding their link, the legal
//!   moves step by step with each step's cell.
//! - `GET /api/game/{id}/events`: Server-Sent Events, the public state at connect and after every
//!   committed change of the game, whoever made it ([`crate::play::changes`]).
//! - `GET /tournament/{id}`: a tournament's page, following it live ([`tournament`]).
//! - `GET /api/game/{id}/board/{ply}`: the board after the game's first `ply` moves, as SVG, for
//!   the page's step through earlier positions.
//! - `POST /api/game/{id}/preview` and `…/move`: a move from the page, checked and played by the
//!   same action as `/move` ([`crate::play::actions::play_move_on`]: the same version check,
//!   the same delivery queue). Move posts are limited per link ([`limit`]).
//! - `GET`/`PUT /api/game/{id}/notes`: the private notes of the link's player or the Activity's
//!   member who plays or follows the game ([`crate::play::notes`]); nobody else's, never in the
//!   state.
//! - `GET`/`POST`/`DELETE /api/game/{id}/plans`: the link's player's conditional moves: listed,
//!   a line planned, a branch removed ([`crate::play::plans`]); never the opponent's.
//! - `GET /api/game/{id}/plans/preview?line=…`: the preview board of a line being planned, with
//!   the legal moves of whoever is to move after it (the page's Plan ahead mode).
//!
//! - `GET /`: the front page; `GET /rules/{game}` and its pictures: each game's rules
//!   ([`front`]).
//! - Local play, without Discord ([`local`]): `GET /` offers new games and lists the stored
//!   ones, `POST /local/new` starts one, `POST /local/game/{id}` opens one; each then goes to the
//!   game page with a link that plays it.
//! - `GET /learn`, `POST /api/learn/open` and `…/move`: the course, level by level, on the board
//!   ([`learn`]); the progress a member's (their link or the Activity) or the browser's.
//! - `GET /inbox`, `GET /api/inbox/events`: a member's inbox, every game waiting for their move
//!   ([`inbox`]).
//! - `GET /api/lobby`, `POST /api/lobby/accept`: the open seeks and challenges of the member's
//!   servers on the inbox page, each with its Accept ([`lobby`]).
//! - `GET /?frame_id=…` (the page), `GET /api/activity`, `GET /api/activity/games`, `POST /api/token`,
//!   `POST /api/activity/session` (a session renewed):
//!   the same page inside Discord, as an Activity ([`activity`]), when `DISCORD_CLIENT_SECRET`
//!   is set.
//!
//! - `GET /healthz` and `GET /metrics`: health and figures for monitoring ([`crate::metrics`]).
//!
//! With `DISCORD_PUBLIC_KEY` set, a request carrying Discord's Activity proxy headers is served
//! only when they are signed by the application's key and current ([`proxy`]).
//!
//! Who may act is said by the link's token ([`crate::play::links`]), sent as
//! `Authorization: Bearer`; the page has it from its address's fragment, which no server or log
//! sees. No request is logged with its headers, so a token never reaches a log. Every response
//! carries a Content-Security-Policy (nothing from another origin, no inline script or style),
//! `nosniff` and `no-referrer`; errors are short pages (HTML) or `{"error": …}` (JSON) in the
//! reader's language ([`texts::reader_lang`]), never a trace. Request bodies are limited to
//! [`MAX_BODY`] bytes.
//!
//! The server ([`server`]) faces strangers: a request's head must arrive within 10 s (also the
//! longest a connection stays idle), its body within 15 s (else 408); connections and live
//! streams are capped below the process's limit of open files (raised to the hard limit at
//! start-up), live streams also per client (a quarter of them at most, as one address may be a
//! whole household or a carrier's many customers; a page closes its stream when it is left), and
//! one past a cap is closed (a connection) or answered 503 with `Retry-After` (a stream). Sign-ins (`POST /api/token`) are limited per
//! client and in all, and malformed codes refused, before anything is sent to Discord
//! ([`activity`]).
//!
//! # The page, for players
//!
//! The SVG board comes in the reader's light or dark colours, with whose turn, the deadline, the
//! moves in words and the result, updated live at every change (moves, takebacks, endings,
//! pauses) and read again after a refusal or a lost connection. With their own link (**Open the
//! board**, from the Move button or `/board`; it expires with the game) a player clicks a legal
//! move, sees a preview and confirms; everyone else watches read-only. The board fills the window
//! without scrolling, from a 360 px phone to a desktop. Cells to click have a dashed outline and
//! a dot, chosen ones a solid outline and their number (the last move: cyan rings and arrows);
//! Back and Cancel undo. Cells are buttons for the keyboard and screen readers; where they come
//! out smaller than a fingertip, a tap zooms in on that part of the board (a mouse chooses at
//! once). On a narrow screen the picture's header is left out and the players' panel says what
//! each player holds (and EXXIT's tile supply). Each player's clock is beside their name; a move
//! in the list, Previous and Next (or ← →) show the positions before; a move sound can be turned
//! on. The inbox (`/inbox`, a private link working 7 days) lists every game waiting
//! for the member's move on every server, least time left first, live, and plays the chosen one
//! in place.
//!
//! # Putting it on the internet (for operators)
//!
//! Links are offered to members only when they can open them: with `PUBLIC_URL` set, or a
//! `WEB_ADDR` others reach. A tunnel needs no domain (`cloudflared tunnel --url
//! http://127.0.0.1:8787` prints an `https://….trycloudflare.com` address for `PUBLIC_URL`); with
//! a domain of one's own, Caddy gives TLS:
//!
//! ```text
//! # /etc/caddy/Caddyfile
//! hexcord.example.org {
//!     reverse_proxy 127.0.0.1:8787 {
//!         flush_interval -1    # live updates pass at once
//!     }
//! }
//! ```
//!
//! With several processes, each has its own `WEB_ADDR` behind the proxy: any process serves any
//! game, and live updates cross processes through PostgreSQL. For more connections than the
//! caps allow, raise the limit of open files (systemd's `LimitNOFILE=`).

pub mod activity;
mod answer;
mod api;
mod assets;
pub mod front;
pub mod inbox;
pub mod learn;
pub mod limit;
pub mod lobby;
pub mod local;
mod monitor;
pub mod proxy;
pub mod server;
pub mod state;
#[cfg(test)]
mod tests;
pub mod texts;
pub mod tournament;

use std::sync::{Arc, OnceLock};

use axum::extract::DefaultBodyLimit;
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;

use crate::play::actions::Core;
use crate::play::opponent::Opponent;

pub use server::{serve, serve_with, Limits};

/// The largest request body accepted (a move is a few dozen bytes; a member's notes, at most
/// [`crate::play::notes::MAX_NOTE_CHARS`] characters, up to four bytes each).
pub const MAX_BODY: usize = 8192;

/// The Content-Security-Policy of every response: the page may be framed by Discord's clients
/// (stable, PTB and Canary on discord.com and discordapp.com, pax.discord.com, staging: the
/// origins the Embedded App SDK 2.5.0 hears) and their Activity hosts. Two origins the SDK also
/// hears are left out: `null` (an opaque origin, which no frame policy can name) and
/// `http://localhost:3333` (Discord's own development client: admitted, any local page on that
/// port could frame the game page).
pub const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; frame-ancestors 'self' https://discord.com https://ptb.discord.com https://canary.discord.com https://discordapp.com https://ptb.discordapp.com https://canary.discordapp.com https://pax.discord.com https://staging.discord.co https://*.discordsays.com";

/// What the web board's handlers share.
pub struct Web {
    /// What actions need: the database, the clock, the delivery bell, the changes.
    pub core: Core,
    /// The bot as a player, once connected: a move from the page in a game against the bot
    /// wakes it, as one from Discord does.
    pub opponent: Arc<OnceLock<Opponent>>,
    limiter: limit::Limiter,
    /// The public state last sent of each game, by language, with what it was built from: the
    /// streams of one game's pages share it instead of each building it again.
    public: std::sync::Mutex<std::collections::HashMap<(i64, crate::i18n::Lang), api::Shared>>,
    /// The game page inside Discord, when `DISCORD_CLIENT_SECRET` is set.
    pub activity: Option<activity::Activity>,
    /// The application's id, once the bot has connected: the front page's invitation.
    pub app_id: Arc<OnceLock<u64>>,
    /// `METRICS_TOKEN`, when set: `/metrics` answers anyone presenting it ([`crate::metrics`]).
    pub metrics_token: OnceLock<String>,
    /// The server's gate, once it serves: its live connections and streams for `/metrics`.
    gate: OnceLock<Arc<server::Gate>>,
    /// Local play, without Discord: `/` starts and lists the games ([`local`]).
    pub local: bool,
}

impl Web {
    pub fn new(core: Core, opponent: Arc<OnceLock<Opponent>>) -> Arc<Web> {
        Web::with_activity(core, opponent, None, Arc::new(OnceLock::new()))
    }

    /// The web board, also inside Discord when `activity` is given; `app_id` is the
    /// application's id once the bot knows it.
    pub fn with_activity(
        core: Core,
        opponent: Arc<OnceLock<Opponent>>,
        activity: Option<activity::Activity>,
        app_id: Arc<OnceLock<u64>>,
    ) -> Arc<Web> {
        Arc::new(Web::built(core, opponent, activity, app_id))
    }

    /// The web board of local play ([`local`]): the bot `opponent` answers in its games.
    pub fn local(core: Core, opponent: Opponent) -> Arc<Web> {
        let opponent = Arc::new(OnceLock::from(opponent));
        Arc::new(Web {
            local: true,
            ..Web::built(core, opponent, None, Arc::new(OnceLock::new()))
        })
    }

    fn built(
        core: Core,
        opponent: Arc<OnceLock<Opponent>>,
        activity: Option<activity::Activity>,
        app_id: Arc<OnceLock<u64>>,
    ) -> Web {
        Web {
            core,
            opponent,
            limiter: limit::Limiter::new(limit::BURST, limit::EVERY),
            public: std::sync::Mutex::new(std::collections::HashMap::new()),
            activity,
            app_id,
            metrics_token: OnceLock::new(),
            gate: OnceLock::new(),
            local: false,
        }
    }
}

/// The web board's routes, over `web`, also under `/.proxy/` (the prefix of Discord's Activity
/// proxy, in case it reaches the bot unremoved).
pub fn router(web: Arc<Web>) -> Router {
    let routes = routes();
    Router::new()
        .nest("/.proxy", routes.clone())
        .route("/.proxy/", get(assets::activity_page))
        .merge(routes)
        .merge(monitoring())
        .fallback(assets::not_found)
        .layer(axum::middleware::from_fn(server::read_body))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn_with_state(
            web.clone(),
            check_proxy_signature,
        ))
        .layer(axum::middleware::map_response(security_headers))
        .with_state(web)
}

/// Refuses (401) a request whose Discord proxy headers are forged or stale, when the
/// application's public key is set ([`proxy`]); any other goes on, knowing its
/// [`server::Client`].
async fn check_proxy_signature(
    axum::extract::State(web): axum::extract::State<Arc<Web>>,
    mut request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let mut member = None;
    if let Some(check) = web.activity.as_ref().and_then(|a| a.proxy.as_ref()) {
        let headers = request.headers();
        let get = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
        let checked = check.check(
            get(proxy::PAYLOAD),
            get(proxy::SIGNATURE),
            get(proxy::TIMESTAMP),
            web.core.clock.now(),
        );
        match checked {
            Ok(signed) => member = signed.and_then(|s| s.user),
            Err(why) => {
                tracing::info!(?why, path = %request.uri().path(), "web: a forged Discord proxy signature refused");
                let lang = texts::accepted_lang(headers).unwrap_or_default();
                return answer::Failure::new(
                    axum::http::StatusCode::UNAUTHORIZED,
                    lang,
                    crate::text!("activity-proxy-forged"),
                )
                .into_response();
            }
        }
    }
    let client = server::Client::of(server::peer_of(&request), request.headers(), member);
    request.extensions_mut().insert(client);
    next.run(request).await
}

/// The monitoring routes, outside `/.proxy` ([`crate::metrics`]).
fn monitoring() -> Router<Arc<Web>> {
    Router::new()
        .route("/healthz", get(monitor::healthz))
        .route("/metrics", get(monitor::metrics))
}

fn routes() -> Router<Arc<Web>> {
    Router::new()
        .route("/", get(front::front))
        .route("/rules/{game}", get(front::rules))
        .route("/rules/{game}/{file}", get(front::picture))
        .route("/game/{id}", get(assets::page))
        .route("/tournament/{id}", get(tournament::page))
        .route("/assets/{name}", get(assets::asset))
        .route("/api/game/{id}/state", get(api::state))
        .route("/api/game/{id}/events", get(api::events))
        .route("/api/game/{id}/board/{ply}", get(api::board_at))
        .route("/api/game/{id}/preview", post(api::preview))
        .route("/api/game/{id}/move", post(api::play))
        .route("/api/game/{id}/notes", get(api::notes).put(api::save_notes))
        .route(
            "/api/game/{id}/plans",
            get(api::plans).post(api::add_plan).delete(api::remove_plan),
        )
        .route("/api/game/{id}/plans/preview", get(api::plan_preview))
        .route("/learn", get(learn::page))
        .route("/api/learn/open", post(learn::open))
        .route("/api/learn/move", post(learn::play))
        .route("/inbox", get(assets::inbox_page))
        .route("/api/inbox/events", get(inbox::events))
        .route("/api/lobby", get(lobby::offers))
        .route("/api/lobby/accept", post(lobby::accept))
        .route("/api/activity", get(activity::info))
        .route("/api/activity/games", get(activity::games))
        .route("/api/activity/session", post(activity::renew))
        .route("/api/token", post(activity::token))
        .route("/local/new", post(local::new_game))
        .route("/local/game/{id}", post(local::open_game))
}

/// The headers every response carries.
async fn security_headers(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    response
}
