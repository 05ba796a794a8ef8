//! Local play: hexcord without Discord. With no `DISCORD_TOKEN`, `hexcord` runs [`run`]: the
//! database and the web board alone, on `WEB_ADDR`, and prints one line saying where to play.
//!
//! `GET /` then offers a new game of either game, with the variants `/play` offers, against the
//! bot at each level (moving first or second) or between two players at one screen, and lists
//! the games stored, those in play first. `POST /local/new` starts a game through the play
//! layer ([`crate::play::local::start`], the actions `/play` uses) and `POST /local/game/{id}`
//! opens a stored one; both answer `303 See Other` to the game page with a link token in the
//! address's fragment, so the game is played on the same page, through the same move endpoint,
//! as in Discord; the bot answers as it does there. A form value that is not one of the page's
//! choices is refused with a page saying which (400) and starts nothing; so is a form posted from
//! another site (its `Sec-Fetch-Site` or `Origin`; 403). With a token these routes answer 404.
//!
//! The page binds only to `WEB_ADDR` (default `127.0.0.1:8787`, this machine alone; when that
//! is in use, the next free port, which the line names: [`listen`]): anyone who can open it can
//! play, so it is meant for the operator's own machine. A `WEB_ADDR` set explicitly is kept: in
//! use, hexcord stops and says so.

use std::collections::HashMap;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};

use super::assets::{doc_page, escape, not_found_page, rules_links};
use super::texts::{lang_code, page_lang};
use super::Web;
use crate::ai::Level;
use crate::config::Config;
use crate::db::{GameRow, GameStatus, UserId};
use crate::games::{GameKind, Options};
use crate::i18n::{tr, Lang, Text};
use crate::play::actions::{Core, MAX_BOT_GAMES};
use crate::play::local::{self, Against, NewGame};
use crate::play::opponent::Opponent;
use crate::play::terms::{foreign_option, foreign_option_names, options_from};
use crate::play::Error;
use crate::text;

/// Local play: the database, the bot as a player and the web board on `WEB_ADDR`; prints the
/// one line saying where to play, then serves until stopped.
pub async fn run(config: Config) -> anyhow::Result<()> {
    crate::i18n::load().map_err(|e| anyhow::anyhow!("the locale files: {e}"))?;
    let Some(addr) = config.web_addr else {
        anyhow::bail!(
            "WEB_ADDR=off leaves nothing to play on without DISCORD_TOKEN: leave WEB_ADDR unset \
             (or give an address), or put DISCORD_TOKEN=… in .env to run on Discord"
        );
    };
    let pool = crate::db::connect(&config.database_url).await?;
    let clock = match &config.clock_file {
        Some(path) => crate::clock::Clock::File(path.clone()),
        None => crate::clock::Clock::System,
    };
    let core = Core::new(pool, clock);
    core.changes.listen(&config.database_url);
    let listener = listen(addr, config.web_addr_is_default).await?;
    let bound = listener.local_addr()?;
    let opponent = Opponent::new(core.clone(), local::BOT, local::BOT_NAME);
    // Its first look, at once, takes up the bot's turns left when hexcord last stopped.
    tokio::spawn(opponent.clone().watch(config.timer_interval));
    let web = Web::local(core, opponent);
    let taken = (bound != addr).then_some(addr);
    println!("{}", start_line(bound, taken));
    super::serve(listener, web).await?;
    Ok(())
}

/// Ports tried after the default one is found taken, before any free port the system gives.
pub const NEXT_PORTS: u16 = 20;

/// The listener of local play at `addr`. When `addr` is the default (`WEB_ADDR` unset) and
/// taken, the next free port of the same address is taken instead (within [`NEXT_PORTS`], then
/// any the system gives), as development servers do; an address the user set that cannot be
/// listened on is an error naming it.
pub async fn listen(
    addr: std::net::SocketAddr,
    is_default: bool,
) -> anyhow::Result<tokio::net::TcpListener> {
    let cannot = |e: std::io::Error| {
        anyhow::anyhow!(
            "WEB_ADDR={addr}: cannot listen there ({e}); set WEB_ADDR to another address and \
             port, or leave it unset to take a free one"
        )
    };
    let e = match tokio::net::TcpListener::bind(addr).await {
        Ok(listener) => return Ok(listener),
        Err(e) if is_default && e.kind() == std::io::ErrorKind::AddrInUse => e,
        Err(e) => return Err(cannot(e)),
    };
    let next = (1..=NEXT_PORTS).filter_map(|n| addr.port().checked_add(n));
    for port in next.chain([0]) {
        let mut other = addr;
        other.set_port(port);
        if let Ok(listener) = tokio::net::TcpListener::bind(other).await {
            return Ok(listener);
        }
    }
    Err(cannot(e))
}

/// The line local play starts with: where to play (and, when the default address was `taken`,
/// that it was), and how to run on Discord instead.
pub fn start_line(bound: std::net::SocketAddr, taken: Option<std::net::SocketAddr>) -> String {
    let shown = |mut at: std::net::SocketAddr| {
        if at.ip().is_unspecified() {
            at.set_ip(std::net::Ipv4Addr::LOCALHOST.into());
        }
        at
    };
    let instead = taken.map_or(String::new(), |t| {
        format!(" ({} is in use, so another port was taken)", shown(t))
    });
    format!(
        "hexcord: playing locally (no DISCORD_TOKEN): open http://{at}/ to play{instead} (anyone \
         who can open it can), or http://{at}/learn to learn the games first; to run on Discord, \
         put DISCORD_TOKEN=… in .env (README, \"Running the bot\").",
        at = shown(bound)
    )
}

/// `GET /` in local play: new games of each game, the stored games, the rules.
pub async fn front(web: &Web, lang: Lang) -> Response {
    let games = match games_list(&web.core, lang).await {
        Ok(games) => games,
        Err(e) => return failure(e, lang),
    };
    let forms: String = GameKind::ALL
        .iter()
        .map(|&k| new_game_form(k, lang))
        .collect();
    let body = format!(
        "<h1>hexcord</h1><p>{about}</p>{learn}{forms}<h2>{games_head}</h2>{games}\
         <h2>{rules_head}</h2><ul>{rules}</ul><p>{discord}</p>",
        about = escape(&tr(lang, "local-about")),
        learn = super::learn::links_section(lang),
        games_head = escape(&tr(lang, "local-games-head")),
        rules_head = escape(&tr(lang, "front-rules-head")),
        rules = rules_links(lang),
        discord = escape(&tr(lang, "local-discord")),
    );
    doc_page(lang, "hexcord", &body)
}

/// An `<option>`, selected or not.
fn option(value: &str, words: &str, selected: bool) -> String {
    format!(
        "<option value=\"{}\"{}>{}</option>",
        escape(value),
        if selected { " selected" } else { "" },
        escape(words)
    )
}

/// A labelled checkbox for a flag of the variant, worded as the variant names it.
fn flag(name: &str, words_id: &'static str, lang: Lang) -> String {
    format!(
        "<p><label><input type=\"checkbox\" name=\"{name}\" value=\"on\"> {}</label></p>",
        escape(&tr(lang, words_id))
    )
}

/// The form that starts a game of `kind`: the opponent, who moves first, the variant.
fn new_game_form(kind: GameKind, lang: Lang) -> String {
    let opponents: String = Level::ALL
        .iter()
        .map(|&l| {
            let words = text!("local-against-bot", level = crate::play::words::level(l));
            option(l.name(), &words.render(lang), l == Level::Easy)
        })
        .chain([option(HOT_SEAT, &tr(lang, "local-hot-seat"), false)])
        .collect();
    let order = [("yes", "local-first"), ("no", "local-second")]
        .iter()
        .map(|(v, id)| option(v, &tr(lang, id), *v == "yes"))
        .collect::<String>();
    let size = kind.size_option();
    let default = Options::default_for(kind).size();
    let sizes: String = size
        .values
        .iter()
        .map(|&n| {
            let words = crate::play::words::size_words(kind, n).render(lang);
            option(&n.to_string(), &words, n == default)
        })
        .collect();
    let flags: String = kind
        .flags()
        .iter()
        .map(|f| flag(&f.word.replace('-', "_"), f.text, lang))
        .collect();
    let variant = format!(
        "<p><label>{} <select name=\"{}\">{sizes}</select></label></p>{flags}",
        escape(&tr(lang, size.label)),
        size.word,
    );
    format!(
        "<section class=\"new-game\" id=\"new-{name}\"><h2>{head}</h2>\
         <form method=\"post\" action=\"/local/new?lang={code}\">\
         <input type=\"hidden\" name=\"game\" value=\"{name}\">\
         <p><label>{opponent} <select name=\"against\">{opponents}</select></label></p>\
         <p><label>{order_words} <select name=\"first\">{order}</select></label></p>\
         {variant}<p><button type=\"submit\">{start}</button></p></form></section>",
        name = kind.name(),
        head = escape(&text!("local-new-head", game = kind.title()).render(lang)),
        code = lang_code(lang),
        opponent = escape(&tr(lang, "local-opponent")),
        order_words = escape(&tr(lang, "local-order")),
        start = escape(&tr(lang, "local-start")),
    )
}

/// The form value of the opponent "two players at one screen".
const HOT_SEAT: &str = "two";

/// The stored local games as a list, each with its button that opens it.
async fn games_list(core: &Core, lang: Lang) -> Result<String, Error> {
    let games = local::games(core).await?;
    if games.is_empty() {
        return Ok(format!("<p>{}</p>", escape(&tr(lang, "local-no-games"))));
    }
    let mut names: HashMap<UserId, String> = HashMap::new();
    let mut items = String::new();
    for row in &games {
        for &p in &row.players {
            if let std::collections::hash_map::Entry::Vacant(unnamed) = names.entry(p) {
                let name = crate::db::fetch_player_name(&core.pool, p).await?;
                unnamed.insert(name.unwrap_or_else(|| "?".to_string()));
            }
        }
        let name = |u: UserId| names.get(&u).cloned().unwrap_or_default();
        items.push_str(&game_item(row, &name, lang));
    }
    Ok(format!("<ul class=\"local-games\">{items}</ul>"))
}

/// One stored game in the list: what it is, how it stands, and its Open button.
fn game_item(row: &GameRow, name: &dyn Fn(UserId) -> String, lang: Lang) -> String {
    let status = match row.to_move {
        Some(next) if row.status == GameStatus::Active => {
            text!("local-to-move", name = name(next))
        }
        _ => crate::play::words::row_result_naming(row, name),
    };
    let line = text!(
        "local-game",
        id = row.id,
        variant = crate::play::words::variant(&row.options),
        first = name(row.players[0]),
        second = name(row.players[1]),
        status = status
    );
    format!(
        "<li data-game=\"{id}\" data-status=\"{status}\"><form method=\"post\" \
         action=\"/local/game/{id}?lang={code}\">{line} <button type=\"submit\">{open}</button>\
         </form></li>",
        id = row.id,
        status = row.status.as_str(),
        code = lang_code(lang),
        line = escape(&line.render(lang)),
        open = escape(&tr(lang, "local-open")),
    )
}

/// The new game a form asks for; a value that is not one of the page's choices is refused,
/// naming the field.
pub fn read_new_game(body: &[u8]) -> Result<NewGame, Text> {
    let fields: HashMap<String, String> = form_urlencoded::parse(body).into_owned().collect();
    let get = |key: &str| {
        fields
            .get(key)
            .map(String::as_str)
            .filter(|v| !v.is_empty())
    };
    let bad = |field: &str, value: &str| {
        text!(
            "local-bad-value",
            field = field.to_string(),
            value = crate::i18n::excerpt(value)
        )
    };
    let kind = match get("game") {
        Some(v) => v.parse::<GameKind>().map_err(|_| bad("game", v))?,
        None => return Err(bad("game", "")),
    };
    let against = match get("against") {
        Some(HOT_SEAT) => Against::HotSeat,
        Some(v) => Level::ALL
            .into_iter()
            .find(|l| l.name() == v)
            .map(Against::Bot)
            .ok_or_else(|| bad("against", v))?,
        None => return Err(bad("against", "")),
    };
    let you_first = match get("first") {
        None | Some("yes") => true,
        Some("no") => false,
        Some(v) => return Err(bad("first", v)),
    };
    let word = kind.size_option().word;
    let size = match get(word) {
        None => None,
        Some(v) => Some(
            v.parse::<u8>()
                .ok()
                .filter(|n| kind.size_option().values.contains(n))
                .ok_or_else(|| bad(word, v))?
                .into(),
        ),
    };
    let mut flags = Vec::new();
    for f in kind.flags() {
        let name = f.word.replace('-', "_");
        match get(&name) {
            None => {}
            Some("on") => flags.push(f.word),
            Some(v) => return Err(bad(&name, v)),
        }
    }
    if let Some(name) = foreign_option_names(kind)
        .into_iter()
        .find(|n| get(n).is_some())
    {
        return Err(foreign_option(kind, &name).0);
    }
    let options = options_from(kind, size, &flags).map_err(|r| r.0)?;
    Ok(NewGame {
        options,
        against,
        you_first,
    })
}

/// Whether a form was posted from a page of this server: the browser says so (`Sec-Fetch-Site`),
/// or its `Origin` is this host; a client that says neither (not a browser) is let through.
fn same_origin(headers: &HeaderMap) -> bool {
    let value = |name| {
        headers
            .get(name)
            .and_then(|v: &header::HeaderValue| v.to_str().ok())
    };
    if let Some(site) = value("sec-fetch-site") {
        return site == "same-origin" || site == "none";
    }
    match (value(header::ORIGIN.as_str()), value(header::HOST.as_str())) {
        // Sent as `null` by browsers under `Referrer-Policy: no-referrer`.
        (None | Some("null"), _) => true,
        (Some(origin), Some(host)) => {
            origin.strip_prefix("http://") == Some(host)
                || origin.strip_prefix("https://") == Some(host)
        }
        (Some(_), None) => false,
    }
}

/// A refusal as a page, with the way back to the games.
fn refused(status: StatusCode, lang: Lang, why: &Text) -> Response {
    let body = format!(
        "<h1>hexcord</h1><p class=\"alert\" role=\"alert\">{}</p><p><a href=\"/?lang={}\">{}</a></p>",
        escape(&why.render(lang)),
        lang_code(lang),
        escape(&tr(lang, "local-back")),
    );
    (status, doc_page(lang, "hexcord", &body)).into_response()
}

/// A failure of the play layer as a page: a refusal as such, anything else logged.
fn failure(e: Error, lang: Lang) -> Response {
    match e {
        Error::Refused(r) => refused(StatusCode::BAD_REQUEST, lang, &r.0),
        e => {
            tracing::error!("local play: {e:#}");
            let status = match e.storage_unavailable() {
                true => StatusCode::SERVICE_UNAVAILABLE,
                false => StatusCode::INTERNAL_SERVER_ERROR,
            };
            refused(status, lang, &Text::new(e.apology_id()))
        }
    }
}

/// To the game page, with the link that plays it.
fn to_game(id: i64, token: &str) -> Response {
    (
        StatusCode::SEE_OTHER,
        [
            (header::LOCATION, format!("/game/{id}#t={token}")),
            (header::CACHE_CONTROL, "no-store".to_string()),
        ],
    )
        .into_response()
}

/// What every local route checks first: local play is on (else 404) and the form comes from
/// this server's page (else 403). `Some`: the refusal.
fn check(web: &Web, headers: &HeaderMap, lang: Lang) -> Option<Response> {
    if !web.local {
        return Some(not_found_page(lang));
    }
    if !same_origin(headers) {
        return Some(refused(
            StatusCode::FORBIDDEN,
            lang,
            &text!("local-other-site"),
        ));
    }
    None
}

/// `POST /local/new`: starts the game the form asks for, then goes to its page.
pub async fn new_game(
    State(web): State<Arc<Web>>,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let lang = page_lang(&uri, &headers);
    if let Some(refusal) = check(&web, &headers, lang) {
        return refusal;
    }
    let new = match read_new_game(&body) {
        Ok(new) => new,
        Err(why) => return refused(StatusCode::BAD_REQUEST, lang, &why),
    };
    let Some(bot) = web.opponent.get() else {
        return failure(anyhow::anyhow!("local play without its bot").into(), lang);
    };
    match local::start(&web.core, bot, &new, lang).await {
        Ok((id, token)) => to_game(id, &token),
        // `/play`'s cap, said without its advice to use Discord's commands.
        Err(Error::Refused(r)) if r.0.id == "too-many-bot-games" => refused(
            StatusCode::CONFLICT,
            lang,
            &text!("local-too-many-bot-games", max = MAX_BOT_GAMES),
        ),
        Err(e) => failure(e, lang),
    }
}

/// `POST /local/game/{id}`: opens a stored local game on its page (any other is not found).
pub async fn open_game(
    State(web): State<Arc<Web>>,
    Path(id): Path<String>,
    uri: Uri,
    headers: HeaderMap,
) -> Response {
    let lang = page_lang(&uri, &headers);
    if let Some(refusal) = check(&web, &headers, lang) {
        return refusal;
    }
    let Ok(id) = id.parse::<i64>() else {
        return not_found_page(lang);
    };
    match local::open(&web.core, id).await {
        Ok(token) => to_game(id, &token),
        Err(Error::Refused(r)) => refused(StatusCode::NOT_FOUND, lang, &r.0),
        Err(e) => failure(e, lang),
    }
}
