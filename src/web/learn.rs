//! Learn to play on the page: the course ([`crate::learn`]) at `/learn`, level by level, the
//! board clicked as on a game's page.
//!
//! - `GET /learn`: the page (`assets/web/learn.html`); `?game=` chooses the game, `?lang=` the
//!   language (else a member's language in Discord, else the browser's).
//! - `POST /api/learn/open` `{"game"}`: the learner's level of that game ([`View`]).
//! - `POST /api/learn/move` `{"game", "move", …}`: a move in it, answered in place: refused or
//!   missed with the reason in words (try again), answered by the opponent's reply, or the level
//!   done with its stars and the next level's button.
//!
//! Who keeps the progress:
//! - a member, arriving through their private link (`#t=`: the inbox link `/learn` gives in
//!   Discord, [`crate::play::links::issue_inbox`]) or inside the Activity (its session): stored as
//!   `/learn` stores it, by the same actions ([`crate::play::learn::open_level`],
//!   [`crate::play::learn::answer_level`]); a move names the attempt's `version`, so a move from
//!   a page left behind (the level moved on in Discord or another tab) is refused (409) and
//!   changes nothing. A forged, mistyped or expired link is refused (403) with words.
//! - anyone else (local play, a visitor): the browser. The page keeps the levels done and their
//!   stars (`localStorage`) and sends them with `open` (`"done"`), and the level's key, moves and
//!   tries with each move (`"level"`, `"moves"`, `"tries"`), judged as a member's move is
//!   ([`crate::play::learn::answer_unstored`]); a level no longer in the course is refused (409).

use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};

use super::answer::{bearer, read_json, Failure};
use super::front::inline_html;
use super::state::{self, Legal};
use super::texts::{accepted_lang, lang_code, query_value, reader_lang, texts_with_prefix};
use super::Web;
use crate::db::UserId;
use crate::games::{Colour, Game, GameKind};
use crate::i18n::{tr, Lang, Text};
use crate::learn::{self, Place};
use crate::play::learn::{self as actions, Answered, Played};
use crate::play::{links, Error};
use crate::text;

/// The page.
pub const PAGE: &str = "learn.html";

/// The prefix of the page's own words (`page.ftl`).
const PREFIX: &str = "learn-page-";

/// The most moves tried at one level the page may claim (beyond, one star all the same).
const MAX_TRIES: i64 = 10_000;

/// The address of the learn page of `kind` under `public_url` (a member's `token` in the
/// fragment, which no server or log sees).
pub fn learn_url(public_url: &str, kind: GameKind, token: Option<&str>) -> String {
    let base = public_url.trim_end_matches('/');
    match token {
        Some(t) => format!("{base}/learn?game={}#t={t}", kind.name()),
        None => format!("{base}/learn?game={}", kind.name()),
    }
}

/// The learn page's address for `kind` in `lang`, on this server.
pub fn learn_path(kind: GameKind, lang: Lang) -> String {
    format!("/learn?game={}&lang={}", kind.name(), lang_code(lang))
}

/// What the page shows: the level (or none when the game's course is done), what was said
/// about the last move, and the progress.
#[derive(Serialize, Debug)]
pub struct View {
    pub lang: &'static str,
    pub game: &'static str,
    pub title: &'static str,
    /// The page's words (`learn-page-…`, keyed without it).
    pub texts: BTreeMap<String, String>,
    /// Whether the progress is a member's (stored), else the browser's to keep.
    pub member: bool,
    pub level: Option<LevelView>,
    pub said: Option<Said>,
    pub progress: Progress,
}

/// A level as it stands.
#[derive(Serialize, Debug)]
pub struct LevelView {
    /// The level's key (`inphexion/first-disc`), which a browser keeps when it is done.
    pub key: String,
    /// The game, the stage and the level with their places (HTML).
    pub heading: String,
    /// The goal (HTML).
    pub goal: String,
    pub you_play: String,
    /// The board, its clickable cells marked.
    pub svg: String,
    /// The learner's legal moves with their steps (none once the level is done).
    pub legal: Vec<Legal>,
    /// The moves so far, replies included, and the moves tried (a browser sends them back).
    pub moves: Vec<String>,
    pub tries: i64,
    /// The member's attempt's version, which their next move names (0 in a browser).
    pub version: i64,
    /// The level is done: the Next button opens the next one (when `next`).
    pub done: bool,
    pub next: bool,
}

/// What was said about the last move or the level opened.
#[derive(Serialize, Debug)]
pub struct Said {
    /// `wrong` (refused or missed: try again), `reply` (the move and the opponent's answer),
    /// `done` (with `stars`), or `note` (a level taken up, or one gone).
    pub kind: &'static str,
    /// The words (HTML).
    pub html: String,
    pub stars: Option<u8>,
    /// At the end of a stage or of the course: what comes next (HTML).
    pub more: Vec<String>,
}

/// The learner's progress in one game.
#[derive(Serialize, Debug)]
pub struct Progress {
    pub done: usize,
    pub total: usize,
    pub stars: u32,
    pub most: usize,
    /// In words.
    pub words: String,
}

/// A request to open a level.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OpenBody {
    game: String,
    /// A browser's levels done, with their stars.
    #[serde(default)]
    done: BTreeMap<String, u8>,
}

/// A move.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveBody {
    game: String,
    #[serde(rename = "move")]
    mv: String,
    /// A member's attempt's version.
    #[serde(default)]
    version: Option<i64>,
    /// A browser's level, moves and tries.
    #[serde(default)]
    level: Option<String>,
    #[serde(default)]
    moves: Vec<String>,
    #[serde(default)]
    tries: i64,
    /// A browser's levels done (for the progress and the next level).
    #[serde(default)]
    done: BTreeMap<String, u8>,
}

/// `GET /learn`: the page.
pub async fn page(uri: Uri, headers: HeaderMap) -> Response {
    let lang = super::texts::page_lang(&uri, &headers);
    super::assets::file(PAGE).unwrap_or_else(|| super::assets::not_found_page(lang))
}

/// Who asks, and in which language: a member (their link or Activity session; refused 403 when
/// forged, mistyped or expired), else nobody (the browser keeps the progress).
async fn learner(
    web: &Web,
    uri: &Uri,
    headers: &HeaderMap,
) -> Result<(Option<UserId>, Lang), Failure> {
    let asked = query_value(uri, "lang").map(|_| super::texts::page_lang(uri, headers));
    let browser = asked.or_else(|| accepted_lang(headers)).unwrap_or_default();
    let Some(token) = bearer(headers) else {
        return Ok((None, browser));
    };
    let user = if super::activity::is_session(token) {
        super::activity::session_member(web, token, browser)?
    } else {
        links::inbox_holder(&web.core.pool, token, web.core.clock.now())
            .await
            .map_err(|e| Failure::of(e, StatusCode::FORBIDDEN, browser, 0))?
    };
    let lang = match asked {
        Some(lang) => lang,
        None => reader_lang(&web.core.pool, Some(user), None, headers)
            .await
            .map_err(|e| Failure::of(e.into(), StatusCode::SERVICE_UNAVAILABLE, browser, 0))?,
    };
    Ok((Some(user), lang))
}

/// The game a request names: refused (400) when it is not one.
fn game_of(name: &str, lang: Lang) -> Result<GameKind, Failure> {
    name.parse::<GameKind>().map_err(|_| {
        Failure::new(
            StatusCode::BAD_REQUEST,
            lang,
            text!("learn-web-no-game", game = crate::i18n::excerpt(name)),
        )
    })
}

/// A refusal of the play layer (a stale attempt, a level gone) as 409, anything else logged.
fn failure(e: Error, lang: Lang) -> Failure {
    Failure::of(e, StatusCode::CONFLICT, lang, 0)
}

/// `POST /api/learn/open`: the learner's level of the game.
pub async fn open(
    State(web): State<Arc<Web>>,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, Failure> {
    let (member, lang) = learner(&web, &uri, &headers).await?;
    let asked: OpenBody = read_json(&body, lang)?;
    let kind = game_of(&asked.game, lang)?;
    let view = match member {
        Some(user) => open_member(&web, user, kind, lang).await?,
        None => {
            let done = asked.done;
            match learn::next_open(kind, &|key| done.contains_key(key)) {
                Some(place) => {
                    let level =
                        playing(lang, &place, Vec::new(), 0, 0).map_err(|e| failure(e, lang))?;
                    view(lang, kind, false, Some(level), None, &done)
                }
                None => all_done(lang, kind, false, &done),
            }
        }
    };
    Ok(json(view))
}

/// A member's level of `kind`: the one they are playing, else the next.
async fn open_member(web: &Web, user: UserId, kind: GameKind, lang: Lang) -> Result<View, Failure> {
    let pool = &web.core.pool;
    let done: BTreeMap<String, u8> = actions::progress(pool, user)
        .await
        .map_err(|e| failure(e, lang))?
        .into_iter()
        .collect();
    let under_way = crate::db::fetch_learn_attempt(pool, user)
        .await
        .map_err(|e| failure(e.into(), lang))?
        .and_then(|a| learn::find(&a.level))
        .is_some_and(|p| p.kind == kind);
    if !under_way && learn::next_open(kind, &|key| done.contains_key(key)).is_none() {
        return Ok(all_done(lang, kind, true, &done));
    }
    let opened = actions::open_level(pool, user, Some(kind), web.core.clock.now())
        .await
        .map_err(|e| failure(e, lang))?;
    let a = opened.attempt;
    let level =
        playing(lang, &opened.place, a.moves, a.tries, a.version).map_err(|e| failure(e, lang))?;
    let said = opened.head.map(|h| note(lang, &h));
    Ok(view(lang, kind, true, Some(level), said, &done))
}

/// `POST /api/learn/move`: a move in the learner's level, answered in place.
pub async fn play(
    State(web): State<Arc<Web>>,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, Failure> {
    let (member, lang) = learner(&web, &uri, &headers).await?;
    let asked: MoveBody = read_json(&body, lang)?;
    let kind = game_of(&asked.game, lang)?;
    let view = match member {
        Some(user) => play_member(&web, user, kind, &asked, lang).await?,
        None => play_unstored(kind, &asked, lang)?,
    };
    Ok(json(view))
}

/// A member's move, stored by `/learn`'s action.
async fn play_member(
    web: &Web,
    user: UserId,
    kind: GameKind,
    asked: &MoveBody,
    lang: Lang,
) -> Result<View, Failure> {
    let pool = &web.core.pool;
    let Some(version) = asked.version else {
        return Err(failure(Error::refused(text!("learn-web-stale")), lang));
    };
    let stale = |e: Error| match e {
        Error::Refused(r) if r.0.id == "learn-stale" => {
            failure(Error::refused(text!("learn-web-stale")), lang)
        }
        e => failure(e, lang),
    };
    let (a, place) = actions::open_at(pool, user, version).await.map_err(stale)?;
    if place.kind != kind {
        return Err(failure(Error::refused(text!("learn-web-stale")), lang));
    }
    let before = level_game(&place, &a.moves).map_err(|e| failure(e, lang))?;
    let answered = actions::answer_level(pool, user, version, &asked.mv, web.core.clock.now())
        .await
        .map_err(stale)?;
    let done: BTreeMap<String, u8> = actions::progress(pool, user)
        .await
        .map_err(|e| failure(e, lang))?
        .into_iter()
        .collect();
    let (level, said) = match answered {
        Answered::Again {
            place,
            attempt,
            why,
        } => {
            let level = playing(lang, &place, attempt.moves, attempt.tries, attempt.version)
                .map_err(|e| failure(e, lang))?;
            (level, wrong(lang, &why))
        }
        Answered::Next {
            place,
            attempt,
            mv,
            reply,
        } => {
            let said = replied(lang, &before, &mv, &reply);
            let level = playing(lang, &place, attempt.moves, attempt.tries, attempt.version)
                .map_err(|e| failure(e, lang))?;
            (level, said)
        }
        Answered::Done {
            place,
            moves,
            stars,
            next,
        } => finished(lang, &place, &before, moves, stars, next.is_some())
            .map_err(|e| failure(e, lang))?,
    };
    Ok(view(lang, kind, true, Some(level), Some(said), &done))
}

/// A browser's move: judged as a member's, nothing stored.
fn play_unstored(kind: GameKind, asked: &MoveBody, lang: Lang) -> Result<View, Failure> {
    let Some(key) = asked.level.as_deref() else {
        return Err(failure(Error::refused(text!("learn-gone")), lang));
    };
    let tries = asked.tries.clamp(0, MAX_TRIES);
    let (place, played) = actions::answer_unstored(key, &asked.moves, tries, &asked.mv)
        .map_err(|e| failure(e, lang))?;
    if place.kind != kind {
        return Err(failure(Error::refused(text!("learn-gone")), lang));
    }
    let before = level_game(&place, &asked.moves).map_err(|e| failure(e, lang))?;
    let mut done = asked.done.clone();
    let (level, said) = match played {
        Played::Again { moves, tries, why } => {
            let level = playing(lang, &place, moves, tries, 0).map_err(|e| failure(e, lang))?;
            (level, wrong(lang, &why))
        }
        Played::Next {
            moves,
            tries,
            mv,
            reply,
        } => {
            let said = replied(lang, &before, &mv, &reply);
            let level = playing(lang, &place, moves, tries, 0).map_err(|e| failure(e, lang))?;
            (level, said)
        }
        Played::Done { moves, stars } => {
            let best = done.get(&place.key()).copied().unwrap_or(0).max(stars);
            done.insert(place.key(), best);
            let next = learn::next_open(kind, &|k| done.contains_key(k)).is_some();
            finished(lang, &place, &before, moves, stars, next).map_err(|e| failure(e, lang))?
        }
    };
    Ok(view(lang, kind, false, Some(level), Some(said), &done))
}

/// The level's game after `moves`; a level that does not replay is logged and refused as gone.
fn level_game(place: &Place, moves: &[String]) -> Result<Game, Error> {
    learn::replay(place.level, moves).map_err(|e| {
        tracing::error!(level = %place.key(), "a level does not replay: {e}");
        Error::refused(text!("learn-gone"))
    })
}

/// A level under way after `moves` (just opened, a wrong move tried again, or the reply
/// played): its view, to be played on.
fn playing(
    lang: Lang,
    place: &Place,
    moves: Vec<String>,
    tries: i64,
    version: i64,
) -> Result<LevelView, Error> {
    let game = level_game(place, &moves)?;
    level_view(lang, place, &game, moves, tries, version, false, false)
}

/// The board of a level as the learner sees it ("You" and hexcord), its `targets` clickable.
fn board(
    lang: Lang,
    game: &Game,
    learner: Colour,
    targets: &[crate::hex::Hex],
) -> Result<String, Error> {
    let mut names = [String::new(), String::new()];
    names[learner.index()] = tr(lang, "puzzle-you");
    names[learner.other().index()] = "hexcord".to_string();
    state::board_svg(lang, game, None, &names, targets)
}

/// A level at `game` (after `moves`): with its legal moves, unless it is `done`.
#[allow(clippy::too_many_arguments)] // what the page shows of a level, each from its caller
fn level_view(
    lang: Lang,
    place: &Place,
    game: &Game,
    moves: Vec<String>,
    tries: i64,
    version: i64,
    done: bool,
    next: bool,
) -> Result<LevelView, Error> {
    let learner = place.start().map_err(|e| {
        tracing::error!(level = %place.key(), "a level does not start: {e}");
        Error::refused(text!("learn-gone"))
    })?;
    let learner = learner.position().to_move();
    let (legal, targets) = match done || game.is_over() {
        true => (Vec::new(), Vec::new()),
        false => state::legal_moves(lang, game),
    };
    let stages = learn::stages(place.kind);
    let heading = text!(
        "learn-title",
        game = place.kind.title(),
        stage = place.stage + 1,
        stages = stages.len(),
        name = place.stage_title(),
        level = place.index + 1,
        levels = place.stage().levels.len()
    );
    Ok(LevelView {
        key: place.key(),
        heading: inline_html(&heading.render(lang)),
        goal: inline_html(&place.goal().render(lang)),
        you_play: text!(
            "learn-you-play",
            colour = crate::play::words::colour(place.kind, learner)
        )
        .render(lang),
        svg: board(lang, game, learner, &targets)?,
        legal,
        moves,
        tries,
        version,
        done,
        next,
    })
}

/// A refused or missed move: why, and try again.
fn wrong(lang: Lang, why: &Text) -> Said {
    Said {
        kind: "wrong",
        html: inline_html(&text!("learn-wrong", why = why.clone()).render(lang)),
        stars: None,
        more: Vec::new(),
    }
}

/// The learner's move and the opponent's reply, in words.
fn replied(lang: Lang, before: &Game, mv: &str, reply: &str) -> Said {
    let mut after = before.clone();
    let reply_words = match after.play_text(mv) {
        Ok(_) => actions::move_words(lang, &after, reply),
        Err(_) => reply.to_string(),
    };
    let words = text!(
        "learn-reply",
        mine = actions::move_words(lang, before, mv),
        reply = reply_words
    );
    Said {
        kind: "reply",
        html: inline_html(&words.render(lang)),
        stars: None,
        more: Vec::new(),
    }
}

/// A head said when a level opens (taken up where it was left, or the one played is gone).
fn note(lang: Lang, head: &Text) -> Said {
    Said {
        kind: "note",
        html: inline_html(&head.render(lang)),
        stars: None,
        more: Vec::new(),
    }
}

/// A level done: the board after the last move, the stars, and at the end of a stage or of the
/// course what comes next.
fn finished(
    lang: Lang,
    place: &Place,
    before: &Game,
    moves: Vec<String>,
    stars: u8,
    next: bool,
) -> Result<(LevelView, Said), Error> {
    let last = moves.last().cloned().unwrap_or_default();
    let game = level_game(place, &moves)?;
    let words = actions::done_text(lang, before, &last, stars);
    let mut more = Vec::new();
    if place.ends_stage() {
        more.push(
            text!(
                "learn-web-stage-done",
                name = place.stage_title(),
                game = place.kind.title()
            )
            .render(lang),
        );
    }
    if !next {
        more.push(text!("learn-course-done", game = place.kind.title()).render(lang));
    }
    let level = level_view(lang, place, &game, moves, 0, 0, true, next)?;
    Ok((
        level,
        Said {
            kind: "done",
            html: inline_html(&words.render(lang)),
            stars: Some(stars),
            more: more.iter().map(|m| inline_html(m)).collect(),
        },
    ))
}

/// The view of a game whose course the learner finished.
fn all_done(lang: Lang, kind: GameKind, member: bool, done: &BTreeMap<String, u8>) -> View {
    let said = note(lang, &text!("learn-all-done-of", game = kind.title()));
    view(lang, kind, member, None, Some(said), done)
}

/// The whole view, with the progress in `kind` from `done` (keys and stars, any game's).
fn view(
    lang: Lang,
    kind: GameKind,
    member: bool,
    level: Option<LevelView>,
    said: Option<Said>,
    done: &BTreeMap<String, u8>,
) -> View {
    let places = learn::places(kind);
    let keys: HashSet<String> = places.iter().map(Place::key).collect();
    let mine: Vec<u8> = done
        .iter()
        .filter(|(k, _)| keys.contains(*k))
        .map(|(_, &s)| s)
        .collect();
    let stars: u32 = mine.iter().map(|&s| u32::from(s.min(3))).sum();
    let words = text!(
        "learn-web-progress",
        game = kind.title(),
        done = mine.len(),
        total = places.len(),
        stars = stars,
        most = 3 * places.len()
    )
    .render(lang);
    View {
        lang: lang_code(lang),
        game: kind.name(),
        title: kind.title(),
        texts: texts_with_prefix(lang, PREFIX),
        member,
        level,
        said,
        progress: Progress {
            done: mine.len(),
            total: places.len(),
            stars,
            most: 3 * places.len(),
            words,
        },
    }
}

/// A view as the API's answer (never cached).
fn json(view: View) -> Response {
    ([(header::CACHE_CONTROL, "no-store")], Json(view)).into_response()
}

/// The links to each game's course, as a section of a page (the front page, local play's).
pub(super) fn links_section(lang: Lang) -> String {
    let items: String = GameKind::ALL
        .iter()
        .map(|&k| format!("<li>{}</li>", link(k, lang)))
        .collect();
    format!(
        "<section class=\"learn-links\"><h2>{head}</h2><p>{about}</p><ul>{items}</ul></section>",
        head = super::assets::escape(&tr(lang, "learn-web-head")),
        about = super::assets::escape(&tr(lang, "learn-web-about")),
    )
}

/// The link to `kind`'s course, in `lang`.
pub(super) fn link(kind: GameKind, lang: Lang) -> String {
    format!(
        "<a class=\"learn\" href=\"{}\">{}</a>",
        super::assets::escape(&learn_path(kind, lang)),
        super::assets::escape(&text!("learn-web-link", game = kind.title()).render(lang)),
    )
}
