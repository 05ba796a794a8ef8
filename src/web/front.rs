//! The pages for visitors: the front page (`GET /`: what hexcord is, the rules, the link to
//! invite the bot) and each game's rules with pictures (`GET /rules/{game}`, its pictures at
//! `GET /rules/{game}/{figure}.png`), in the reader's language: `?lang=` when the bot speaks it,
//! else the browser's `Accept-Language`, else English.
//!
//! The rules are the `/rules` command's texts (`rules-{game}` in `rules.ftl`, Discord's markdown
//! turned into HTML), with the pictures' captions beside them; the pictures are the renderer's,
//! of a few positions reached by real moves ([`GameKind::figures`]), drawn once per language and kept.
//!
//! Discord opens an Activity at `/` with `frame_id` in the query: that request gets the game page
//! (`assets::activity_page`) when the Activity is on.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};

pub use super::assets::rules_path;
use super::assets::{doc_page, error_page, escape, not_found_page, rules_links};
use super::texts::{lang_code, page_lang, query_value};
use super::Web;
use crate::games::{Colour, Game, GameKind, Options};
use crate::i18n::{tr, Lang, Text};
use crate::text;

/// The permissions the bot asks for when invited (README, "Invite the bot"): View Channels,
/// Send Messages, Embed Links, Attach Files, Create Public Threads, Send Messages in Threads and
/// Manage Threads.
pub const INVITE_PERMISSIONS: u64 = 326_417_565_696;

/// The address that invites the application `app_id` to a server with [`INVITE_PERMISSIONS`].
pub fn invite_url(app_id: impl std::fmt::Display) -> String {
    format!(
        "https://discord.com/oauth2/authorize?client_id={app_id}&scope=bot+applications.commands&permissions={INVITE_PERMISSIONS}"
    )
}

/// `GET /`: the Activity's page when Discord opens it (`frame_id` in the query) and the Activity
/// is on; in local play, its games ([`super::local`]); else the front page.
pub async fn front(State(web): State<Arc<Web>>, uri: Uri, headers: HeaderMap) -> Response {
    if web.activity.is_some() && query_value(&uri, "frame_id").is_some() {
        return super::assets::activity_page(State(web), headers).await;
    }
    let lang = page_lang(&uri, &headers);
    if web.local {
        return super::local::front(&web, lang).await;
    }
    let rules = rules_links(lang);
    let invite = match web.app_id.get() {
        Some(id) => format!(
            "<p><a class=\"invite\" href=\"{}\">{}</a></p>",
            escape(&invite_url(id)),
            escape(&tr(lang, "front-invite"))
        ),
        None => format!("<p>{}</p>", escape(&tr(lang, "front-invite-later"))),
    };
    let body = format!(
        "<h1>hexcord</h1><p>{about}</p><h2>{rules_head}</h2><ul>{rules}</ul>{learn}{invite}",
        about = escape(&tr(lang, "front-about")),
        rules_head = escape(&tr(lang, "front-rules-head")),
        learn = super::learn::links_section(lang),
    );
    doc_page(lang, "hexcord", &body)
}

/// `GET /rules/{game}`: a game's rules with its pictures.
pub async fn rules(Path(game): Path<String>, uri: Uri, headers: HeaderMap) -> Response {
    let lang = page_lang(&uri, &headers);
    let Ok(kind) = game.parse::<GameKind>() else {
        return not_found_page(lang);
    };
    let q = format!("?lang={}", lang_code(lang));
    let figures: String = kind
        .figures()
        .iter()
        .map(|f| {
            let caption = escape(&Text::new(f.caption).render(lang));
            format!(
                "<figure><img src=\"{path}/{name}.png{q}\" alt=\"{caption}\">\
                 <figcaption>{caption}</figcaption></figure>",
                path = rules_path(kind),
                name = f.name,
            )
        })
        .collect();
    let title = text!("front-rules-link", game = kind.title()).render(lang);
    let body = format!(
        "<p><a href=\"/{q}\">hexcord</a></p><h1>{title}</h1><p>{learn}</p>{rules}{figures}",
        title = escape(&title),
        learn = super::learn::link(kind, lang),
        rules = markdown_html(&tr(lang, kind.rules_text())),
    );
    doc_page(lang, &title, &body)
}

/// The pictures drawn so far, by game, figure and language.
type Drawn = Mutex<HashMap<(GameKind, &'static str, Lang), Arc<Vec<u8>>>>;

/// `GET /rules/{game}/{figure}.png`: a picture of a rules page.
pub async fn picture(
    Path((game, file)): Path<(String, String)>,
    uri: Uri,
    headers: HeaderMap,
) -> Response {
    static DRAWN: OnceLock<Drawn> = OnceLock::new();
    let lang = page_lang(&uri, &headers);
    let figure = game.parse::<GameKind>().ok().and_then(|kind| {
        let name = file.strip_suffix(".png")?;
        kind.figures()
            .iter()
            .find(|f| f.name == name)
            .map(|f| (kind, f))
    });
    let Some((kind, figure)) = figure else {
        return not_found_page(lang);
    };
    let drawn = DRAWN.get_or_init(Drawn::default);
    let key = (kind, figure.name, lang);
    let kept = drawn.lock().ok().and_then(|d| d.get(&key).cloned());
    let png = match kept {
        Some(png) => Ok(png),
        None => tokio::task::spawn_blocking(move || draw(kind, figure, lang))
            .await
            .map_err(|e| e.to_string())
            .and_then(|r| r)
            .map(Arc::new),
    };
    match png {
        Ok(png) => {
            if let Ok(mut d) = drawn.lock() {
                d.insert(key, png.clone());
            }
            (
                [
                    (header::CONTENT_TYPE, "image/png"),
                    (header::CACHE_CONTROL, "max-age=86400"),
                ],
                png.as_ref().clone(),
            )
                .into_response()
        }
        Err(e) => {
            tracing::error!(
                game = kind.name(),
                figure = figure.name,
                "rules picture: {e}"
            );
            error_page(
                StatusCode::INTERNAL_SERVER_ERROR,
                lang,
                &text!("web-picture-failed"),
            )
        }
    }
}

/// The PNG of `figure`: its moves played from the default start, drawn in `lang`.
fn draw(kind: GameKind, figure: &crate::games::Figure, lang: Lang) -> Result<Vec<u8>, String> {
    let mut game = Game::new(Options::default_for(kind));
    for mv in figure.moves {
        game.play_text(mv).map_err(|e| format!("{mv}: {e}"))?;
    }
    let names = Colour::BOTH.map(|c| crate::play::words::colour(kind, c).render(lang));
    crate::render::render_png_in(lang, &game, None, &names, crate::render::Theme::default())
        .map_err(|e| e.to_string())
}

/// Discord's markdown of the rules texts as HTML: lines starting with `• ` as a list, others as
/// paragraphs; `**bold**`, `*emphasis*` and `` `code` `` inline; everything else escaped.
fn markdown_html(text: &str) -> String {
    let mut out = String::new();
    let mut in_list = false;
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        match line.strip_prefix("• ") {
            Some(item) => {
                if !in_list {
                    out.push_str("<ul>");
                    in_list = true;
                }
                out.push_str(&format!("<li>{}</li>", inline_html(item)));
            }
            None => {
                if in_list {
                    out.push_str("</ul>");
                    in_list = false;
                }
                out.push_str(&format!("<p>{}</p>", inline_html(line)));
            }
        }
    }
    if in_list {
        out.push_str("</ul>");
    }
    out
}

/// One line's inline markdown as HTML (a mark unclosed, or with a space inside it, is shown as
/// it is).
pub(super) fn inline_html(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while !rest.is_empty() {
        let mark = [("`", "code"), ("**", "strong"), ("*", "em")]
            .into_iter()
            .find_map(|(m, tag)| {
                let inner = rest.strip_prefix(m)?;
                let end = inner
                    .find(m)
                    .filter(|&e| e > 0 && !inner.starts_with(' ') && !inner[..e].ends_with(' '))?;
                Some((m.len(), end, tag))
            });
        match mark {
            Some((len, end, tag)) => {
                let inner = &rest[len..len + end];
                let inner = if tag == "code" {
                    escape(inner)
                } else {
                    inline_html(inner)
                };
                out.push_str(&format!("<{tag}>{inner}</{tag}>"));
                rest = &rest[2 * len + end..];
            }
            None => {
                let c = rest.chars().next().unwrap_or(' ');
                out.push_str(&escape(&c.to_string()));
                rest = &rest[c.len_utf8()..];
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rules_markdown_becomes_html() {
        assert_eq!(
            markdown_html("**Moves** & `a<b`:\n• *one* — `d4`\n• two\nend"),
            "<p><strong>Moves</strong> &amp; <code>a&lt;b</code>:</p>\
             <ul><li><em>one</em> — <code>d4</code></li><li>two</li></ul><p>end</p>"
        );
        assert_eq!(inline_html("a * b ** c"), "a * b ** c");
    }

    #[test]
    fn every_figure_is_reached_by_legal_moves_and_drawn() {
        for kind in GameKind::ALL {
            for f in kind.figures() {
                let png = draw(kind, f, Lang::EN).unwrap_or_else(|e| panic!("{e}"));
                assert!(png.starts_with(b"\x89PNG"), "{}", f.name);
            }
        }
    }

    /// README's invitation is this one, with `APP_ID` for the application's id.
    #[test]
    fn readme_invites_with_the_same_permissions() {
        let readme = include_str!("../../README.md");
        assert!(
            readme.contains(&invite_url("APP_ID")),
            "README lacks {}",
            invite_url("APP_ID")
        );
    }
}
