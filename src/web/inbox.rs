//! A member's inbox: one page listing every game waiting for their move, across servers, the
//! least time left first, each playable in place on the game's own page.
//!
//! - `GET /inbox`: the page (`assets/web/inbox.html`), opened from a private link
//!   ([`crate::play::links::inbox_url`], from `/games` or a reminder's button) whose token, in
//!   the address's fragment, names the member.
//! - `GET /api/inbox/events`: Server-Sent Events with `Authorization: Bearer <token>`: the list
//!   ([`Inbox`]) at connect and again whenever a game the member plays changes (an opponent's
//!   move adds a game, the member's own move removes it). A forged, mistyped or expired token is
//!   refused (403) with words and nothing else.
//!
//! The page shows the chosen game's board in a frame of the game's page (`/game/{id}`) with the
//! same token: the inbox token plays the member's side of any game they play
//! ([`crate::play::links::holder`]), so the board is the one page's code.

use std::convert::Infallible;
use std::sync::Arc;

use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::Extension;
use serde::Serialize;

use super::answer::{bearer, Failure};
use super::server::{Client, Conn};
use super::texts::{accepted_lang, page_texts, reader_lang, texts_with_prefix};
use super::{state, Web};
use crate::db::{self, GameRow, UserId};
use crate::i18n::Lang;
use crate::play::{links, Error};
use crate::text;

/// The page of the inbox.
pub const PAGE: &str = "inbox.html";

/// The prefix of the inbox page's own words (`page.ftl`).
const PREFIX: &str = "inbox-page-";

/// The inbox as the page reads it.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct Inbox {
    pub lang: &'static str,
    pub games: Vec<Entry>,
}

/// A game waiting for the member's move.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct Entry {
    pub id: i64,
    /// The game's name: `inpHeXion`, `EXXIT`.
    pub title: &'static str,
    pub variant: String,
    pub opponent: String,
    /// The move the member is to play (1 is the game's first).
    #[serde(rename = "move")]
    pub number: i64,
    /// When the member's time runs out (UTC), `null` without a deadline.
    pub deadline: Option<String>,
    /// The game in words: its number, name, size, opponent and move.
    pub words: String,
}

/// The games of `rows` waiting for `user`'s move, the earliest deadline first, those without a
/// deadline last (each group in the order the games began).
pub fn waiting(rows: Vec<GameRow>, user: UserId) -> Vec<GameRow> {
    let mut rows: Vec<GameRow> = rows
        .into_iter()
        .filter(|r| r.status == db::GameStatus::Active && r.to_move == Some(user))
        .collect();
    rows.sort_by_key(|r| (r.deadline_at.is_none(), r.deadline_at, r.id));
    rows
}

/// `user`'s inbox in `lang`.
pub async fn build(web: &Web, user: UserId, lang: Lang) -> Result<Inbox, Error> {
    let pool = &web.core.pool;
    let rows = waiting(db::active_games_of(pool, None, user).await?, user);
    let mut games = Vec::with_capacity(rows.len());
    for row in rows {
        let opponent = row.opponent_of(user);
        let name = db::fetch_name(pool, opponent).await?;
        let opponent = crate::play::words::name_in(lang, name, || format!("#{opponent}"));
        let variant = state::variant_words(lang, &row.options);
        let words = text!(
            "inbox-game",
            game = row.id,
            title = row.kind().title(),
            variant = variant.clone(),
            opponent = opponent.clone(),
            move = row.version + 1
        )
        .render(lang);
        games.push(Entry {
            id: row.id,
            title: row.kind().title(),
            variant,
            opponent,
            number: row.version + 1,
            deadline: row.deadline_at.map(state::utc_time),
            words,
        });
    }
    Ok(Inbox {
        lang: super::texts::lang_code(lang),
        games,
    })
}

/// The member of the request's inbox token, and their language: refused (403) when there is
/// none, or it is forged, mistyped or expired.
pub(super) async fn member(web: &Web, headers: &HeaderMap) -> Result<(UserId, Lang), Failure> {
    let browser = accepted_lang(headers).unwrap_or_default();
    let refused = |e: Error| match e {
        Error::Refused(r) => Failure::new(StatusCode::FORBIDDEN, browser, r.0),
        e => Failure::of(e, StatusCode::SERVICE_UNAVAILABLE, browser, 0),
    };
    let Some(token) = bearer(headers) else {
        return Err(refused(Error::refused(text!("inbox-token-unknown"))));
    };
    let user = links::inbox_holder(&web.core.pool, token, web.core.clock.now())
        .await
        .map_err(refused)?;
    let lang = reader_lang(&web.core.pool, Some(user), None, headers)
        .await
        .map_err(|e| refused(e.into()))?;
    Ok((user, lang))
}

/// `GET /api/inbox/events`: the member's inbox now and after every change of a game they play;
/// a seat among the server's live streams is held while it lasts.
pub(super) async fn events(
    State(web): State<Arc<Web>>,
    conn: Option<Extension<Conn>>,
    client: Option<Extension<Client>>,
    headers: HeaderMap,
) -> Result<Response, Failure> {
    let (user, lang) = member(&web, &headers).await?;
    let seat = match (conn, client) {
        (Some(Extension(conn)), Some(Extension(client))) => Some(conn.gate.stream(&client, lang)?),
        _ => None,
    };
    // Subscribed before the first list is read: no change falls between the two.
    let changes = web.core.changes.subscribe();
    let texts = (page_texts(lang), texts_with_prefix(lang, PREFIX));
    let stream = futures_util::stream::unfold(
        (web, changes, None::<String>, true, seat),
        move |(web, mut changes, last, first, seat)| {
            let texts = texts.clone();
            async move {
                let mut first = first;
                loop {
                    if !first {
                        match changes.recv().await {
                            Ok(game) => match db::fetch_game(&web.core.pool, game).await {
                                Ok(Some(row)) if !row.players.contains(&user) => continue,
                                _ => {}
                            },
                            Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
                            Err(tokio::sync::broadcast::error::RecvError::Closed) => return None,
                        }
                    }
                    let inbox = match build(&web, user, lang).await {
                        Ok(inbox) => inbox,
                        Err(e) => {
                            tracing::warn!(%user, "web inbox: {e:#}");
                            first = false;
                            continue;
                        }
                    };
                    let mut json = serde_json::json!(inbox);
                    if first {
                        json["texts"] = serde_json::json!(texts.0);
                        json["inbox_texts"] = serde_json::json!(texts.1);
                    }
                    let json = json.to_string();
                    first = false;
                    // A change that leaves the list as it was sends nothing.
                    let games = serde_json::json!(inbox.games).to_string();
                    if last.as_ref() == Some(&games) {
                        continue;
                    }
                    let event = Event::default().event("inbox").data(json);
                    return Some((
                        Ok::<Event, Infallible>(event),
                        (web, changes, Some(games), false, seat),
                    ));
                }
            }
        },
    );
    Ok((
        [(header::CACHE_CONTROL, "no-store")],
        Sse::new(stream).keep_alive(KeepAlive::default()),
    )
        .into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_games_waiting_come_least_time_left_first_and_without_deadline_last() {
        let me = UserId(1);
        let other = UserId(2);
        let mut template = crate::play::access::tests::row(db::GameStatus::Active);
        template.players = [me, other];
        let row = |id: i64, to_move: UserId, deadline: Option<i64>| {
            let mut r = template.clone();
            r.id = id;
            r.to_move = Some(to_move);
            r.deadline_at = deadline;
            r
        };
        let mut ended = row(7, me, Some(10));
        ended.status = db::GameStatus::Finished;
        let rows = vec![
            row(1, me, None),
            row(2, me, Some(500)),
            row(3, other, Some(100)),
            row(4, me, Some(200)),
            row(5, me, None),
            ended,
            row(6, me, Some(200)),
        ];
        let ids: Vec<i64> = waiting(rows, me).iter().map(|r| r.id).collect();
        assert_eq!(ids, vec![4, 6, 2, 1, 5]);
    }
}
