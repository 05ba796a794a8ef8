//! The lobby on the inbox page: the open seeks and challenges of the member's servers, each
//! with its Accept ([`crate::play::lobby`]).
//!
//! - `GET /api/lobby` with the inbox's token (`Authorization: Bearer <token>`): the offers
//!   ([`Lobby`]).
//! - `POST /api/lobby/accept` with the same token and `{"kind": "seek" | "challenge", "id": …,
//!   "variant": …}`: the game starts where the card is (`{"game": …, "text": …}`), or the refusal
//!   in words (403: not the member's server; 409: taken, withdrawn or expired, their own, out of
//!   their rating range, on vacation). Each accept takes a turn of the token's budget.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};

use super::answer::{bearer, read_json, Failure};
use super::{inbox, state, Web};
use crate::play::lobby::{self, Offered};

/// The lobby as the page reads it.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct Lobby {
    pub offers: Vec<Entry>,
}

/// An open seek or challenge.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct Entry {
    /// `seek` or `challenge`.
    pub kind: &'static str,
    pub id: i64,
    pub server: String,
    pub author: String,
    /// The reader's own: shown without Accept.
    pub mine: bool,
    pub words: String,
    /// The Accept buttons' labels, by variant.
    pub choices: Vec<String>,
    /// When it closes (UTC).
    pub expires: String,
}

/// What an accept names.
#[derive(Deserialize)]
struct Accept {
    kind: String,
    id: i64,
    #[serde(default)]
    variant: usize,
}

/// `GET /api/lobby`.
pub(super) async fn offers(
    State(web): State<Arc<Web>>,
    headers: HeaderMap,
) -> Result<Response, Failure> {
    let (user, lang) = inbox::member(&web, &headers).await?;
    let offers = lobby::offers(&web.core, user, lang)
        .await
        .map_err(|e| Failure::of(e, StatusCode::FORBIDDEN, lang, 0))?;
    let offers = offers
        .into_iter()
        .map(|o| {
            let (kind, id) = match o.what {
                Offered::Seek(id) => ("seek", id),
                Offered::Challenge(id) => ("challenge", id),
            };
            Entry {
                kind,
                id,
                server: o.server,
                author: o.author,
                mine: o.mine,
                words: o.words,
                choices: o.choices,
                expires: state::utc_time(o.expires_at),
            }
        })
        .collect();
    Ok((
        [(header::CACHE_CONTROL, "no-store")],
        Json(Lobby { offers }),
    )
        .into_response())
}

/// `POST /api/lobby/accept`.
pub(super) async fn accept(
    State(web): State<Arc<Web>>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, Failure> {
    let (user, lang) = inbox::member(&web, &headers).await?;
    if let Some(token) = bearer(&headers) {
        super::api::take_turn(&web, token, lang)?;
    }
    let body = read_json::<Accept>(&body, lang)?;
    let what = match body.kind.as_str() {
        "seek" => Offered::Seek(body.id),
        "challenge" => Offered::Challenge(body.id),
        _ => {
            return Err(Failure::new(
                StatusCode::BAD_REQUEST,
                lang,
                crate::text!("web-bad-request", why = "kind"),
            ))
        }
    };
    let (game, text) = lobby::accept(&web.core, user, what, body.variant)
        .await
        .map_err(|e| match e {
            crate::play::Error::Refused(r) if r.0.id == "lobby-not-member" => {
                Failure::new(StatusCode::FORBIDDEN, lang, r.0)
            }
            e => Failure::of(e, StatusCode::CONFLICT, lang, 0),
        })?;
    Ok((
        [(header::CACHE_CONTROL, "no-store")],
        Json(serde_json::json!({ "game": game, "text": text.render(lang) })),
    )
        .into_response())
}
