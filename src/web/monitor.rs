//! `GET /healthz` and `GET /metrics` ([`crate::metrics`]): who may read the figures, and the
//! answers' forms.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};

use super::answer::Failure;
use super::server::peer_of;
use super::texts::accepted_lang;
use super::Web;
use crate::metrics::{self, METRICS};

/// The text format's media type.
const EXPOSITION: &str = "text/plain; version=0.0.4; charset=utf-8";

/// `GET /healthz`: `200 ok`, or `503` with what is not ready, one a line.
pub async fn healthz(State(web): State<Arc<Web>>) -> Response {
    let not_ready = metrics::health(&web.core.pool, !web.local).await;
    let (status, body) = if not_ready.is_empty() {
        (StatusCode::OK, "ok\n".to_string())
    } else {
        (StatusCode::SERVICE_UNAVAILABLE, not_ready.join("\n") + "\n")
    };
    (
        status,
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        body,
    )
        .into_response()
}

/// Whether `request` may read the figures: it comes from this machine and no reverse proxy
/// forwarded it, or it carries `METRICS_TOKEN` as its bearer token.
fn may_read(web: &Web, request: &Request) -> bool {
    let headers = request.headers();
    if let Some(token) = web.metrics_token.get() {
        let given = headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok());
        if metrics::bearer_matches(given, token) {
            return true;
        }
    }
    let forwarded = ["x-forwarded-for", "forwarded", "x-real-ip"]
        .iter()
        .any(|h| headers.contains_key(*h));
    peer_of(request).is_some_and(|peer| peer.ip().is_loopback()) && !forwarded
}

/// `GET /metrics`: the figures in Prometheus' text format, to those who may read them.
pub async fn metrics(State(web): State<Arc<Web>>, request: Request) -> Response {
    if !may_read(&web, &request) {
        let lang = accepted_lang(request.headers()).unwrap_or_default();
        return Failure::new(
            StatusCode::FORBIDDEN,
            lang,
            crate::text!("web-metrics-forbidden"),
        )
        .into_response();
    }
    let live = web.gate.get().map(|g| g.live()).unwrap_or_default();
    let body = metrics::render(&METRICS, &web.core.pool, live).await;
    (
        [
            (header::CONTENT_TYPE, EXPOSITION),
            (header::CACHE_CONTROL, "no-store"),
        ],
        body,
    )
        .into_response()
}
