//! The JSON API of the page: the state, its live stream, a move's preview and the move.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Instant;

use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::Extension;
use axum::Json;
use serde::Deserialize;

use super::answer::{bearer, read_json, Failure};
use super::server::{Client, Conn};
use super::texts::{accepted_lang, reader_lang};
use super::{state, Web};
use crate::db::{DbError, GameRow, UserId};
use crate::games::Game;
use crate::i18n::{Lang, Text};
use crate::play::links::{self, Holder};
use crate::play::{access, actions, picker, Error};
use crate::text;

/// The game of the path, loaded: unknown or malformed ids are refused (404).
async fn load(web: &Web, id: &str, lang: Lang) -> Result<(GameRow, Game), Failure> {
    let Ok(id) = id.parse::<i64>() else {
        return Err(Failure::new(
            StatusCode::NOT_FOUND,
            lang,
            text!("web-not-found"),
        ));
    };
    actions::load(&web.core.pool, id)
        .await
        .map_err(|e| Failure::of(e, StatusCode::NOT_FOUND, lang, id))
}

/// The link's player, when the request carries a token: refused (403) when the token is
/// forged, another game's, or its member does not play this game. An Activity's session names
/// a member, who plays their side of a game they play and watches any other (`None`).
async fn holder(
    web: &Web,
    row: &GameRow,
    headers: &HeaderMap,
    lang: Lang,
) -> Result<Option<Holder>, Failure> {
    match bearer(headers) {
        None => Ok(None),
        Some(session) if super::activity::is_session(session) => {
            let user = super::activity::session_member(web, session, lang)?;
            Ok(row.players.contains(&user).then_some(Holder {
                user,
                expired: row.status != crate::db::GameStatus::Active,
            }))
        }
        Some(token) => links::holder(&web.core.pool, row, token, web.core.clock.now())
            .await
            .map(Some)
            .map_err(|e| Failure::of(e, StatusCode::FORBIDDEN, lang, row.id)),
    }
}

/// The reader's language: the link's player's, else the browser's.
async fn lang_for(
    web: &Web,
    row: &GameRow,
    holder: Option<Holder>,
    headers: &HeaderMap,
) -> Result<Lang, Failure> {
    let browser = accepted_lang(headers).unwrap_or_default();
    reader_lang(
        &web.core.pool,
        holder.map(|h| h.user),
        row.guild_id,
        headers,
    )
    .await
    .map_err(|e: DbError| Failure::of(e.into(), StatusCode::SERVICE_UNAVAILABLE, browser, row.id))
}

/// `GET /api/game/{id}/state`: the public state, or with a link the player's.
pub async fn state(
    State(web): State<Arc<Web>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, Failure> {
    let browser = accepted_lang(&headers).unwrap_or_default();
    let (row, game) = load(&web, &id, browser).await?;
    let holder = holder(&web, &row, &headers, browser).await?;
    let lang = lang_for(&web, &row, holder, &headers).await?;
    let view = state::build(&web.core.pool, &row, &game, lang, holder.map(|h| h.user))
        .await
        .map_err(|e| Failure::of(e, StatusCode::INTERNAL_SERVER_ERROR, lang, row.id))?;
    Ok(([(header::CACHE_CONTROL, "no-store")], Json(view)).into_response())
}

/// `GET /api/game/{id}/board/{ply}`: the board after the first `ply` moves, `{"ply", "svg"}`;
/// a ply the game has not reached is refused (404).
pub async fn board_at(
    State(web): State<Arc<Web>>,
    Path((id, ply)): Path<(String, String)>,
    headers: HeaderMap,
) -> Result<Response, Failure> {
    let lang = accepted_lang(&headers).unwrap_or_default();
    let (row, game) = load(&web, &id, lang).await?;
    let ply = ply
        .parse::<usize>()
        .ok()
        .filter(|&p| p <= game.ply())
        .ok_or_else(|| {
            Failure::new(
                StatusCode::NOT_FOUND,
                lang,
                text!("web-no-such-ply", game = row.id),
            )
        })?;
    let names = crate::play::present::names_by_colour(&web.core.pool, &row, &game, lang)
        .await
        .map_err(|e| Failure::of(e, StatusCode::INTERNAL_SERVER_ERROR, lang, row.id))?;
    let svg = state::board_svg(lang, &game, Some(ply), &names, &[])
        .map_err(|e| Failure::of(e, StatusCode::INTERNAL_SERVER_ERROR, lang, row.id))?;
    Ok((
        [(header::CACHE_CONTROL, "no-store")],
        Json(serde_json::json!({ "ply": ply, "svg": svg })),
    )
        .into_response())
}

/// `GET /api/game/{id}/events`: the public state now and after every change of the game; a
/// seat among the server's live streams is held while it lasts ([`super::server`]).
pub async fn events(
    State(web): State<Arc<Web>>,
    Path(id): Path<String>,
    conn: Option<Extension<Conn>>,
    client: Option<Extension<Client>>,
    headers: HeaderMap,
) -> Result<Response, Failure> {
    let lang = accepted_lang(&headers).unwrap_or_default();
    let seat = match (conn, client) {
        (Some(Extension(conn)), Some(Extension(client))) => Some(conn.gate.stream(&client, lang)?),
        _ => None,
    };
    // Subscribed before the first state is read: no change falls between the two.
    let changes = web.core.changes.subscribe();
    let (row, _) = load(&web, &id, lang).await?;
    let id = row.id;
    let stream = futures_util::stream::unfold(
        (web, changes, None::<Arc<String>>, true, seat),
        move |(web, mut changes, last, first, seat)| async move {
            let mut first = first;
            loop {
                if !first {
                    match changes.recv().await {
                        Ok(game) if game != id => continue,
                        Ok(_) | Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
                        Err(tokio::sync::broadcast::error::RecvError::Closed) => return None,
                    }
                }
                first = false;
                let json = match public_state(&web, id, lang).await {
                    Ok(json) => json,
                    Err(e) => {
                        tracing::warn!(game = id, "web events: {e:#}");
                        continue;
                    }
                };
                // A change heard twice (from this process and through the database) is sent once.
                if last.as_ref() == Some(&json) {
                    continue;
                }
                let event = Event::default().event("state").data(json.as_str());
                return Some((
                    Ok::<Event, Infallible>(event),
                    (web, changes, Some(json), false, seat),
                ));
            }
        },
    );
    Ok(Sse::new(stream)
        .keep_alive(KeepAlive::default())
        .into_response())
}

/// A public state as JSON, with the stored game's revision it was built from (one more at every
/// change of the game).
#[derive(Clone)]
pub struct Shared {
    revision: i64,
    json: Arc<String>,
}

/// Public states kept at most (each some tens of kilobytes); beyond, they are built again.
const KEPT: usize = 1000;

/// Game `id`'s public state in `lang` as JSON: the one last built when the stored game has not
/// changed since (one query), else built and kept for the other pages.
async fn public_state(web: &Web, id: i64, lang: Lang) -> Result<Arc<String>, Error> {
    let row = crate::db::fetch_game(&web.core.pool, id)
        .await?
        .ok_or_else(|| Error::refused(text!("web-no-such-game", game = id)))?;
    let kept = web
        .public
        .lock()
        .ok()
        .and_then(|m| m.get(&(id, lang)).cloned());
    if let Some(kept) = kept.filter(|k| k.revision == row.revision) {
        return Ok(kept.json);
    }
    let (row, game) = actions::load(&web.core.pool, id).await?;
    let built = state::build(&web.core.pool, &row, &game, lang, None).await?;
    let json =
        Arc::new(serde_json::to_string(&built).map_err(|e| Error::Internal(anyhow::anyhow!(e)))?);
    if let Ok(mut m) = web.public.lock() {
        if m.len() >= KEPT {
            m.clear();
        }
        m.insert(
            (id, lang),
            Shared {
                revision: row.revision,
                json: json.clone(),
            },
        );
    }
    Ok(json)
}

/// The body of a preview or a move.
#[derive(Deserialize)]
struct MoveBody {
    #[serde(rename = "move")]
    mv: String,
    version: Option<i64>,
}

/// The game, the link's player (who may act) and their language, for a preview or a move.
async fn actor(
    web: &Web,
    id: &str,
    headers: &HeaderMap,
) -> Result<(GameRow, Game, UserId, Lang, String), Failure> {
    let browser = accepted_lang(headers).unwrap_or_default();
    let (row, game) = load(web, id, browser).await?;
    let Some(token) = bearer(headers).map(str::to_string) else {
        return Err(Failure::new(
            StatusCode::UNAUTHORIZED,
            browser,
            text!("web-token-missing", game = row.id),
        ));
    };
    let holder = holder(web, &row, headers, browser).await?.ok_or_else(|| {
        if super::activity::is_session(&token) {
            Failure::new(
                StatusCode::FORBIDDEN,
                browser,
                text!("activity-not-player", game = row.id),
            )
        } else {
            Failure::new(
                StatusCode::UNAUTHORIZED,
                browser,
                text!("web-token-missing", game = row.id),
            )
        }
    })?;
    let lang = lang_for(web, &row, Some(holder), headers).await?;
    holder
        .check_active(row.id)
        .map_err(|r| Failure::new(StatusCode::FORBIDDEN, lang, r.0))?;
    Ok((row, game, holder.user, lang, token))
}

/// A turn of the link's budget of moves and saves (`web.limiter`); refused (429) with when to
/// ask again.
pub(super) fn take_turn(web: &Web, token: &str, lang: Lang) -> Result<(), Failure> {
    web.limiter
        .take(&links::token_hash(token), Instant::now())
        .map_err(|wait| {
            Failure::new(StatusCode::TOO_MANY_REQUESTS, lang, text!("web-too-many"))
                .retry_after(wait)
        })
}

/// `POST /api/game/{id}/preview`: the board after a move, not stored.
pub async fn preview(
    State(web): State<Arc<Web>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, Failure> {
    let (row, game, user, lang, _) = actor(&web, &id, &headers).await?;
    let body = read_json::<MoveBody>(&body, lang)?;
    access::check_may_move(&row, &game, user)
        .map_err(|r| Failure::new(StatusCode::FORBIDDEN, lang, r.0))?;
    let before = game.position().clone();
    let mut after = game.clone();
    let mv = after.play_text(&body.mv).map_err(|e| {
        Failure::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            lang,
            text!(
                "web-move-illegal",
                input = crate::i18n::excerpt(&body.mv),
                game = row.id,
                error = crate::i18n::excerpt_to(&e.to_string(), 4 * crate::i18n::EXCERPT_CHARS)
            ),
        )
    })?;
    let words = picker::describe(lang, &before, &mv);
    let names = crate::play::present::names_by_colour(&web.core.pool, &row, &game, lang)
        .await
        .map_err(|e| Failure::of(e, StatusCode::INTERNAL_SERVER_ERROR, lang, row.id))?;
    let svg = state::board_svg(lang, &after, None, &names, &[])
        .map_err(|e| Failure::of(e, StatusCode::INTERNAL_SERVER_ERROR, lang, row.id))?;
    Ok((
        [(header::CACHE_CONTROL, "no-store")],
        Json(serde_json::json!({ "svg": svg, "words": words })),
    )
        .into_response())
}

/// `POST /api/game/{id}/move`: plays the move through the same action as `/move`, on the
/// version the page showed.
pub async fn play(
    State(web): State<Arc<Web>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, Failure> {
    let (row, game, user, lang, token) = actor(&web, &id, &headers).await?;
    take_turn(&web, &token, lang)?;
    let body = read_json::<MoveBody>(&body, lang)?;
    let id = row.id;
    let Some(version) = body.version else {
        return Err(Failure::new(
            StatusCode::BAD_REQUEST,
            lang,
            text!("web-bad-request", why = "version"),
        ));
    };
    if version != game.ply() as i64 {
        return Err(Failure::of(
            DbError::Conflict(id).into(),
            StatusCode::CONFLICT,
            lang,
            id,
        ));
    }
    access::check_may_move(&row, &game, user)
        .map_err(|r| Failure::new(StatusCode::FORBIDDEN, lang, r.0))?;
    let before = game.position().clone();
    // Outside Discord, the confirmation says nothing of boards posted there.
    let played_id = match crate::play::local::is_local(&row) {
        true => "web-played-local",
        false => "web-played",
    };
    let chosen = actions::Chosen::Typed(&body.mv);
    let played = match web.opponent.get() {
        Some(opponent) => opponent.member_moves((row, game), user, chosen).await,
        None => actions::play_move_on(&web.core, (row, game), user, chosen).await,
    };
    let played = played.map_err(|e| match e {
        Error::Refused(r) if r.0.id == "game-changed" => {
            Failure::new(StatusCode::CONFLICT, lang, r.0)
        }
        // The same refusal as `/move`'s, without its advice to type the command.
        Error::Refused(r) if r.0.id == "move-cannot-be-played" => Failure::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            lang,
            Text {
                id: "web-move-illegal".into(),
                args: r.0.args,
            },
        ),
        e => Failure::of(e, StatusCode::UNPROCESSABLE_ENTITY, lang, id),
    })?;
    let words = before
        .parse_move(&played.notation)
        .map(|mv| picker::describe(lang, &before, &mv))
        .unwrap_or_else(|_| played.notation.clone());
    let confirmation = Text::new(played_id)
        .with("words", words)
        .with("mv", played.notation.clone())
        .with("game", id)
        .with("n", played.ply);
    Ok((
        [(header::CACHE_CONTROL, "no-store")],
        Json(serde_json::json!({ "ok": true, "text": confirmation.render(lang) })),
    )
        .into_response())
}

/// The member whose private notes a request reads or writes: a link's player, or an
/// Activity's member; refused without either (401), or with a token that is not for this game
/// (403). Whether they may keep notes on it is [`crate::play::notes::check_note_taker`]'s.
async fn note_author(
    web: &Web,
    row: &GameRow,
    headers: &HeaderMap,
    lang: Lang,
) -> Result<(UserId, String), Failure> {
    let Some(token) = bearer(headers).map(str::to_string) else {
        return Err(Failure::new(
            StatusCode::UNAUTHORIZED,
            lang,
            text!("web-token-missing", game = row.id),
        ));
    };
    let user = if super::activity::is_session(&token) {
        super::activity::session_member(web, &token, lang)?
    } else {
        links::holder(&web.core.pool, row, &token, web.core.clock.now())
            .await
            .map_err(|e| Failure::of(e, StatusCode::FORBIDDEN, lang, row.id))?
            .user
    };
    Ok((user, token))
}

/// The notes a page shows or saves: `{"notes": "…", "max": n}`.
fn notes_answer(notes: &str, saved: Option<String>) -> Response {
    (
        [(header::CACHE_CONTROL, "no-store")],
        Json(serde_json::json!({
            "notes": notes,
            "max": crate::play::notes::MAX_NOTE_CHARS,
            "saved": saved,
        })),
    )
        .into_response()
}

/// `GET /api/game/{id}/notes`: the private notes of the request's member on the game (only
/// theirs; refused, 403, to a member who neither plays nor follows it).
pub async fn notes(
    State(web): State<Arc<Web>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, Failure> {
    let browser = accepted_lang(&headers).unwrap_or_default();
    let (row, _) = load(&web, &id, browser).await?;
    let (user, _) = note_author(&web, &row, &headers, browser).await?;
    let lang = lang_for(
        &web,
        &row,
        Some(Holder {
            user,
            expired: false,
        }),
        &headers,
    )
    .await?;
    let pool = &web.core.pool;
    crate::play::notes::check_note_taker(pool, &row, user)
        .await
        .map_err(|e| Failure::of(e, StatusCode::FORBIDDEN, lang, row.id))?;
    let notes = crate::play::notes::notes_of(pool, row.id, user)
        .await
        .map_err(|e| Failure::of(e, StatusCode::INTERNAL_SERVER_ERROR, lang, row.id))?;
    Ok(notes_answer(notes.as_deref().unwrap_or(""), None))
}

/// The body of a notes' save.
#[derive(Deserialize)]
struct NotesBody {
    notes: String,
}

/// `PUT /api/game/{id}/notes` with `{"notes": "…"}`: replaces the request's member's private
/// notes on the game (empty deletes them); too long, or by a member who neither plays nor
/// follows it, refused (422, 403) and nothing stored.
pub async fn save_notes(
    State(web): State<Arc<Web>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, Failure> {
    let browser = accepted_lang(&headers).unwrap_or_default();
    let (row, _) = load(&web, &id, browser).await?;
    let (user, token) = note_author(&web, &row, &headers, browser).await?;
    let lang = lang_for(
        &web,
        &row,
        Some(Holder {
            user,
            expired: false,
        }),
        &headers,
    )
    .await?;
    take_turn(&web, &token, lang)?;
    let body = read_json::<NotesBody>(&body, lang)?;
    let pool = &web.core.pool;
    let stored =
        crate::play::notes::save_notes(pool, &row, user, &body.notes, web.core.clock.now())
            .await
            .map_err(|e| match e {
                crate::play::Error::Refused(r) if r.0.id == "notes-not-yours" => {
                    Failure::new(StatusCode::FORBIDDEN, lang, r.0)
                }
                e => Failure::of(e, StatusCode::UNPROCESSABLE_ENTITY, lang, row.id),
            })?;
    let saved = text!("page-notes-saved").render(lang);
    Ok(notes_answer(&stored, Some(saved)))
}

/// The conditional moves a page shows its player: `{"lines": [[…]], "text": "…"}`.
async fn plans_answer(
    web: &Web,
    id: i64,
    user: UserId,
    lang: Lang,
    said: Option<Text>,
) -> Result<Response, Failure> {
    let plans = crate::play::plans::plans_of(&web.core.pool, id, user)
        .await
        .map_err(|e| Failure::of(e.into(), StatusCode::INTERNAL_SERVER_ERROR, lang, id))?;
    let lines = plans.as_ref().map(|p| p.lines.clone()).unwrap_or_default();
    Ok((
        [(header::CACHE_CONTROL, "no-store")],
        Json(serde_json::json!({
            "lines": lines,
            "text": crate::play::plans::shown(id, plans.as_ref()).render(lang),
            "said": said.map(|t| t.render(lang)),
        })),
    )
        .into_response())
}

/// `GET /api/game/{id}/plans`: the link's player's own conditional moves in the game (never
/// the opponent's).
pub async fn plans(
    State(web): State<Arc<Web>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, Failure> {
    let (row, _, user, lang, _) = actor(&web, &id, &headers).await?;
    plans_answer(&web, row.id, user, lang, None).await
}

/// `GET /api/game/{id}/plans/preview?line=c3;d4`: the board after the line (moves separated by
/// `;`, the opponent's first; none for the current position) in the state's shape
/// ([`state::build_planned`]), with the legal moves of whoever is to move there: the page's
/// preview board for entering a line. For the link's player while their opponent is to move, as
/// planning itself ([`crate::play::plans::check_may_plan`]); a move that cannot be played where
/// it would arise is refused (422).
pub async fn plan_preview(
    State(web): State<Arc<Web>>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Result<Response, Failure> {
    let (row, game, user, lang, _) = actor(&web, &id, &headers).await?;
    let refused = |e: Error| Failure::of(e, StatusCode::UNPROCESSABLE_ENTITY, lang, row.id);
    crate::play::plans::check_may_plan(&web.core, &row, &game, user)
        .await
        .map_err(refused)?;
    let typed = form_urlencoded::parse(query.as_deref().unwrap_or("").as_bytes())
        .find(|(k, _)| k == "line")
        .map(|(_, v)| v.into_owned())
        .unwrap_or_default();
    let typed: Vec<&str> = typed
        .split(';')
        .map(str::trim)
        .filter(|m| !m.is_empty())
        .collect();
    let (_, after) =
        crate::play::plans::play_line(&row, &game, user, &typed).map_err(|r| refused(r.into()))?;
    let view = state::build_planned(&web.core.pool, &row, &after, lang, user)
        .await
        .map_err(|e| Failure::of(e, StatusCode::INTERNAL_SERVER_ERROR, lang, row.id))?;
    Ok(([(header::CACHE_CONTROL, "no-store")], Json(view)).into_response())
}

/// The body of a line planned or removed: `{"line": ["c3", "d4", …]}`.
#[derive(Deserialize)]
struct LineBody {
    line: Vec<String>,
}

/// `POST /api/game/{id}/plans` with `{"line": [theirs, yours, …]}`: plans the line by the same
/// action as `/move … if:` ([`crate::play::plans::plan`]); refused (422), nothing stored.
pub async fn add_plan(
    State(web): State<Arc<Web>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, Failure> {
    let (row, _, user, lang, token) = actor(&web, &id, &headers).await?;
    take_turn(&web, &token, lang)?;
    let body = read_json::<LineBody>(&body, lang)?;
    let line: Vec<&str> = body.line.iter().map(String::as_str).collect();
    let said = crate::play::plans::plan(&web.core, row.id, user, &line)
        .await
        .map_err(|e| Failure::of(e, StatusCode::UNPROCESSABLE_ENTITY, lang, row.id))?;
    plans_answer(&web, row.id, user, lang, Some(said)).await
}

/// `DELETE /api/game/{id}/plans` with `{"line": [...]}`: removes the branch beginning with the
/// line (every branch when it is empty).
pub async fn remove_plan(
    State(web): State<Arc<Web>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, Failure> {
    let (row, _, user, lang, _) = actor(&web, &id, &headers).await?;
    let body = read_json::<LineBody>(&body, lang)?;
    let line: Vec<&str> = body.line.iter().map(String::as_str).collect();
    let said = crate::play::plans::remove_plan(&web.core, row.id, user, &line)
        .await
        .map_err(|e| Failure::of(e, StatusCode::UNPROCESSABLE_ENTITY, lang, row.id))?;
    plans_answer(&web, row.id, user, lang, Some(said)).await
}
