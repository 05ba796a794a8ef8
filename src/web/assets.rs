//! The page and its files, embedded from `assets/web/` at build time, the short HTML pages
//! of errors, and the frame of the other short pages (the front page, local play's).

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use include_dir::{include_dir, Dir};

use super::texts::accepted_lang;
use super::Web;
use crate::games::GameKind;
use crate::i18n::{Lang, Text};
use crate::text;

/// The page's files.
pub(super) static FILES: Dir<'_> = include_dir!("$CARGO_MANIFEST_DIR/assets/web");

/// The page of a game.
pub const PAGE: &str = "game.html";

/// A file's Content-Type, by its extension.
pub fn content_type(name: &str) -> &'static str {
    match name.rsplit('.').next().unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "json" => "application/json",
        "woff2" => "font/woff2",
        "txt" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// `text` with `&`, `<`, `>`, `"` and `'` escaped for HTML.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The address of a game's rules page on the web board.
pub fn rules_path(kind: GameKind) -> String {
    format!("/rules/{}", kind.name())
}

/// A page of ours: `title`, then `body` (HTML), in `lang`.
pub(super) fn doc_page(lang: Lang, title: &str, body: &str) -> Response {
    let html = format!(
        "<!doctype html>\n<html lang=\"{lang}\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{title}</title><link rel=\"stylesheet\" href=\"/assets/theme.css\">\
         <link rel=\"stylesheet\" href=\"/assets/game.css\"></head>\
         <body><main class=\"doc\">{body}</main></body></html>\n",
        lang = super::texts::lang_code(lang),
        title = escape(title),
    );
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        html,
    )
        .into_response()
}

/// The links to each game's rules page, as list items, in `lang`.
pub(super) fn rules_links(lang: Lang) -> String {
    let q = format!("?lang={}", super::texts::lang_code(lang));
    GameKind::ALL
        .iter()
        .map(|k| {
            format!(
                "<li><a href=\"{path}{q}\">{text}</a></li>",
                path = rules_path(*k),
                text = escape(&text!("front-rules-link", game = k.title()).render(lang)),
            )
        })
        .collect()
}

/// The page for an address that names nothing here, in `lang`.
pub fn not_found_page(lang: Lang) -> Response {
    error_page(StatusCode::NOT_FOUND, lang, &text!("web-not-found"))
}

/// A short HTML page saying what went wrong, in `lang`.
pub fn error_page(status: StatusCode, lang: Lang, why: &Text) -> Response {
    let body = format!(
        "<!doctype html>\n<html lang=\"{}\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>hexcord</title><link rel=\"stylesheet\" href=\"/assets/game.css\"></head>\
         <body><main class=\"error\"><h1>hexcord</h1><p>{}</p></main></body></html>\n",
        super::texts::lang_code(lang),
        escape(&why.render(lang))
    );
    (
        status,
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        body,
    )
        .into_response()
}

/// Any address the web board does not serve.
pub async fn not_found(headers: HeaderMap) -> Response {
    let lang = accepted_lang(&headers).unwrap_or_default();
    not_found_page(lang)
}

/// `GET /game/{id}`: the page, for a game that exists.
pub async fn page(
    State(web): State<Arc<Web>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Response {
    let lang = accepted_lang(&headers).unwrap_or_default();
    let Ok(id) = id.parse::<i64>() else {
        return not_found_page(lang);
    };
    match crate::db::fetch_game(&web.core.pool, id).await {
        Ok(Some(_)) => {}
        Ok(None) => {
            return error_page(
                StatusCode::NOT_FOUND,
                lang,
                &text!("web-no-such-game", game = id),
            )
        }
        Err(e) => {
            let e = crate::play::Error::from(e);
            tracing::error!(game = id, "web page: {e:#}");
            return error_page(
                StatusCode::SERVICE_UNAVAILABLE,
                lang,
                &Text::new(e.apology_id()),
            );
        }
    }
    file(PAGE).unwrap_or_else(|| not_found_page(lang))
}

/// `GET /inbox`: a member's inbox page (its token, in the fragment, is checked by its API).
pub async fn inbox_page(headers: HeaderMap) -> Response {
    let lang = accepted_lang(&headers).unwrap_or_default();
    file(super::inbox::PAGE).unwrap_or_else(|| not_found_page(lang))
}

/// `GET /`: the page as Discord's client opens it for an Activity (with the frame's query), when
/// the Activity is on; its files are named from the page's own folder, so that it works under
/// Discord's proxy prefix (`/.proxy/`) too.
pub async fn activity_page(State(web): State<Arc<Web>>, headers: HeaderMap) -> Response {
    let lang = accepted_lang(&headers).unwrap_or_default();
    let page = FILES
        .get_file(PAGE)
        .and_then(|f| f.contents_utf8())
        .filter(|_| web.activity.is_some());
    match page {
        Some(html) => (
            [
                (header::CONTENT_TYPE, content_type(PAGE)),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            html.replace("\"../assets/", "\"assets/"),
        )
            .into_response(),
        None => not_found_page(lang),
    }
}

/// `GET /assets/{name}`: a file of the page, or the board's colours (`theme.css`).
pub async fn asset(Path(name): Path<String>, headers: HeaderMap) -> Response {
    if name == "theme.css" {
        return (
            [
                (header::CONTENT_TYPE, content_type(&name)),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            crate::render::svg::theme_css(),
        )
            .into_response();
    }
    match file(&name) {
        Some(r) => r,
        None => not_found(headers).await,
    }
}

/// An embedded file by its name (no folders, no hidden files).
pub(super) fn file(name: &str) -> Option<Response> {
    if name.starts_with('.') || name.contains(['/', '\\']) {
        return None;
    }
    let f = FILES.get_file(name)?;
    Some(
        (
            [
                (header::CONTENT_TYPE, content_type(name)),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            f.contents(),
        )
            .into_response(),
    )
}
