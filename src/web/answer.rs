//! What every handler of the web board shares: the bearer token a request carries, its JSON
//! body ([`read_json`]), and the refusal it answers ([`Failure`], `{"error": …}` in the reader's
//! language).

use std::time::Duration;

use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;

use crate::i18n::{Lang, Text};
use crate::play::Error;

/// Reads a request's JSON body as a `T`; anything else is refused (400) with what was wrong.
pub(super) fn read_json<T: serde::de::DeserializeOwned>(
    body: &[u8],
    lang: Lang,
) -> Result<T, Failure> {
    serde_json::from_slice::<T>(body).map_err(|e| {
        Failure::new(
            StatusCode::BAD_REQUEST,
            lang,
            crate::text!(
                "web-bad-request",
                why = crate::i18n::excerpt_to(&e.to_string(), 4 * crate::i18n::EXCERPT_CHARS)
            ),
        )
    })
}

/// A refusal or failure of the API, as `{"error": "…"}` in the reader's language.
pub struct Failure {
    status: StatusCode,
    text: Text,
    lang: Lang,
    /// When to ask again (`Retry-After`, in whole seconds, at least one).
    retry_after: Option<Duration>,
}

impl Failure {
    pub(super) fn new(status: StatusCode, lang: Lang, text: Text) -> Failure {
        Failure {
            status,
            text,
            lang,
            retry_after: None,
        }
    }

    /// The refusal, answered with `Retry-After: wait`.
    pub(super) fn retry_after(mut self, wait: Duration) -> Failure {
        self.retry_after = Some(wait);
        self
    }

    /// An error of the play layer: a refusal as `status`, anything else logged and apologised
    /// for.
    pub(super) fn of(e: Error, status: StatusCode, lang: Lang, game: i64) -> Failure {
        match e {
            Error::Refused(r) => Failure::new(status, lang, r.0),
            e @ Error::Internal(_) => {
                tracing::error!(game, "web: {e:#}");
                let status = if e.storage_unavailable() {
                    StatusCode::SERVICE_UNAVAILABLE
                } else {
                    StatusCode::INTERNAL_SERVER_ERROR
                };
                Failure::new(status, lang, Text::new(e.apology_id()))
            }
        }
    }
}

impl IntoResponse for Failure {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.text.render(self.lang) });
        let mut response = (
            self.status,
            [(header::CACHE_CONTROL, "no-store")],
            Json(body),
        )
            .into_response();
        if let Some(wait) = self.retry_after {
            let secs = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(secs.max(1)));
        }
        response
    }
}

/// The token of `Authorization: Bearer <token>`, if the request has one.
pub(super) fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| token.trim())
        .filter(|t| !t.is_empty())
}
