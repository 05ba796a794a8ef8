//! The page's words and the reader's language.
//!
//! [`page_texts`] gives every message of the language's `page.ftl` (ids `page-…`), so a new text
//! of the page is only a new line there. [`reader_lang`] chooses the language of every text a
//! reader gets: a link's player reads the bot's language for them in Discord (the one their
//! client last showed, else their server's), anyone else their browser's `Accept-Language`
//! among the bot's languages, else English.

use std::collections::BTreeMap;

use axum::http::{header, HeaderMap, Uri};

use crate::db::{self, DbError, GuildId, Pool, UserId};
use crate::i18n::{catalog, Lang, Text};

/// The prefix of the page's message ids.
const PREFIX: &str = "page-";

/// Every `page-` message of `lang` (else English), keyed by its id without `page-`.
pub fn page_texts(lang: Lang) -> BTreeMap<String, String> {
    texts_with_prefix(lang, PREFIX)
}

/// Every message of `lang` (else English) whose id starts with `prefix`, keyed by its id
/// without it.
pub fn texts_with_prefix(lang: Lang, prefix: &str) -> BTreeMap<String, String> {
    catalog()
        .message_ids(Lang::EN, prefix)
        .map(|id| {
            let text = Text {
                id: id.to_string().into(),
                args: Vec::new(),
            };
            (id[prefix.len()..].to_string(), text.render(lang))
        })
        .collect()
}

/// `en` or `ja`: a language's primary subtag, as the JSON State names it.
pub fn lang_code(lang: Lang) -> &'static str {
    let tag = lang.tag();
    tag.split('-').next().unwrap_or(tag)
}

/// The first of the browser's languages (`Accept-Language`, in its order of preference) that
/// the bot speaks.
pub fn accepted_lang(headers: &HeaderMap) -> Option<Lang> {
    let value = headers.get(header::ACCEPT_LANGUAGE)?.to_str().ok()?;
    let primaries: Vec<String> = catalog()
        .tags()
        .map(|t| t.split('-').next().unwrap_or(t).to_ascii_lowercase())
        .collect();
    let mut asked: Vec<(f32, usize, &str)> = value
        .split(',')
        .enumerate()
        .filter_map(|(i, part)| {
            let mut bits = part.split(';');
            let tag = bits.next()?.trim();
            let q = bits
                .find_map(|b| b.trim().strip_prefix("q="))
                .map_or(Some(1.0), |q| q.trim().parse::<f32>().ok())?;
            (q > 0.0 && !tag.is_empty()).then_some((q, i, tag))
        })
        .collect();
    asked.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    asked.into_iter().find_map(|(_, _, tag)| {
        let primary = tag.split('-').next().unwrap_or(tag).to_ascii_lowercase();
        primaries.contains(&primary).then(|| Lang::of(tag))
    })
}

/// The language of a reader: a link's player (`player`, in a game of server `guild`) as the bot
/// speaks to them in Discord, else the browser's, else English.
pub async fn reader_lang(
    pool: &Pool,
    player: Option<UserId>,
    guild: Option<GuildId>,
    headers: &HeaderMap,
) -> Result<Lang, DbError> {
    if let Some(user) = player {
        if let Some(locale) = db::player_locale(pool, user).await? {
            return Ok(Lang::of(&locale));
        }
        if let Some(g) = guild {
            if let Some(language) = db::server_language(pool, g).await? {
                return Ok(Lang::of(&language));
            }
        }
    }
    Ok(accepted_lang(headers).unwrap_or_default())
}

/// The reader's language: `?lang=` when the bot speaks it, else the browser's, else English.
pub fn page_lang(uri: &Uri, headers: &HeaderMap) -> Lang {
    let asked = query_value(uri, "lang").and_then(|tag| {
        let primary = tag.split('-').next().unwrap_or(tag).to_ascii_lowercase();
        catalog()
            .tags()
            .any(|t| {
                t.split('-')
                    .next()
                    .unwrap_or(t)
                    .eq_ignore_ascii_case(&primary)
            })
            .then(|| Lang::of(tag))
    });
    asked.or_else(|| accepted_lang(headers)).unwrap_or_default()
}

/// The value of `key` in the address's query, when present.
pub(super) fn query_value<'a>(uri: &'a Uri, key: &str) -> Option<&'a str> {
    uri.query()?
        .split('&')
        .find_map(|pair| pair.strip_prefix(key)?.strip_prefix('='))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn the_browser_language_is_taken_in_its_order_of_preference() {
        let ja = Lang::of("ja");
        let of = |v: &str| {
            let mut h = HeaderMap::new();
            h.insert(header::ACCEPT_LANGUAGE, HeaderValue::from_str(v).unwrap());
            accepted_lang(&h)
        };
        assert_eq!(of("ja,en;q=0.8"), Some(ja));
        assert_eq!(of("fr-FR, en-GB;q=0.5, ja;q=0.7"), Some(ja));
        assert_eq!(of("en-GB,ja;q=0.9"), Some(Lang::EN));
        assert_eq!(of("fr, de"), None);
        assert_eq!(of("ja;q=0, en"), Some(Lang::EN));
        assert_eq!(accepted_lang(&HeaderMap::new()), None);
        assert_eq!(lang_code(ja), "ja");
        assert_eq!(lang_code(Lang::EN), "en");
    }

    #[test]
    fn the_page_texts_are_every_page_message_in_each_language() {
        let en = page_texts(Lang::EN);
        let ja = page_texts(Lang::of("ja"));
        assert_eq!(en.keys().collect::<Vec<_>>(), ja.keys().collect::<Vec<_>>());
        assert!(en.keys().all(|k| !k.starts_with(PREFIX)));
    }
}
