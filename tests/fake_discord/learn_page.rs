//! The learn page in a real headless browser, on the real binary in local play (no Discord):
//! the line hexcord prints and its first page offer the course; inpHeXion's first stage is
//! walked only by clicking the board, a named wrong move first (refused with its reason, tried
//! again), each level done with its stars and Next, in English and in Japanese; the progress is
//! kept in the browser, so a reload opens the next stage's first level. The page at desktop
//! width is compared with `tests/data/web/learn-page.png`; `HEXCORD_BLESS=1 cargo test --test
//! fake_discord learn_page` stores it, and README's picture `assets/learn-page.png`.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use fantoccini::{Client, Locator};
use hexcord::games::{Game, GameKind};
use hexcord::i18n::{tr, Lang, Text};
use hexcord::learn::{self, Place, Verdict};
use serde_json::{json, Value};

use crate::web_page::{compare_screenshot, js, until, Driver, Local};

/// The legal move `notation` of `game` as the page gets it (its steps' cells).
fn legal(game: &Game, notation: &str, lang: Lang) -> Value {
    let (moves, _) = hexcord::web::state::legal_moves(lang, game);
    let found = moves
        .into_iter()
        .find(|m| m.notation == notation)
        .unwrap_or_else(|| panic!("`{notation}` is legal"));
    serde_json::to_value(found).expect("json")
}

/// Clicks `mv`'s cells on the board (or its button), the way a learner does.
async fn click(c: &Client, mv: &Value) {
    let cells: Vec<&str> = mv["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .filter_map(|s| s["cell"].as_str())
        .collect();
    if cells.is_empty() {
        let words = mv["words"].as_str().expect("words");
        let script = format!(
            "const b = [...document.querySelectorAll('#controls button.move')]\
             .find(b => b.textContent === {}); if (b) b.click(); return Boolean(b)",
            json!(words)
        );
        until(c, "the move's button", &script).await;
        return;
    }
    for cell in cells {
        let css = format!("#board .target.next[data-cell=\"{cell}\"]");
        until(
            c,
            &format!("cell {cell} to be offered"),
            &format!("return document.querySelector('{css}') !== null"),
        )
        .await;
        c.find(Locator::Css(&css))
            .await
            .expect("the cell")
            .click()
            .await
            .expect("click the cell");
    }
}

/// What the page says about the last move: its kind and words.
async fn said(c: &Client, kind: &str) -> String {
    until(
        c,
        &format!("the answer `{kind}`"),
        &format!(
            "const s = document.getElementById('said'); \
             return !s.hidden && s.dataset.kind === '{kind}' \
             && document.getElementById('learn').getAttribute('aria-busy') !== 'true'"
        ),
    )
    .await;
    js(c, "return document.getElementById('said').innerText")
        .await
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// Waits for level `key` on the page, ready to be played.
async fn at_level(c: &Client, key: &str) {
    until(
        c,
        &format!("level {key}"),
        &format!(
            "return document.getElementById('level').dataset.level === '{key}' \
             && document.querySelector('#board .target.next') !== null"
        ),
    )
    .await;
}

/// The page's text of `id`'s element.
async fn text_of(c: &Client, id: &str) -> String {
    js(
        c,
        &format!("return document.getElementById('{id}').innerText"),
    )
    .await
    .as_str()
    .unwrap_or_default()
    .to_string()
}

/// A message rendered plainly (the page shows Discord's bold as bold, without its marks).
fn plain(text: &Text, lang: Lang) -> String {
    text.render(lang).replace("**", "").replace('`', "")
}

/// Walks inpHeXion's first stage on the page in `lang`, from its first level shown: each named
/// wrong move that the board offers first (refused with its reason), then the solution; the
/// stars and Next checked at every level. `shoot` takes the page's picture after the first
/// wrong move.
async fn first_stage(c: &Client, lang: Lang, shoot: bool) {
    let kind = GameKind::Inphexion;
    let stages = learn::stages(kind);
    let places: Vec<Place> = learn::places(kind)
        .into_iter()
        .filter(|p| p.stage == 0)
        .collect();
    let mut refused = 0;
    for place in &places {
        let level = place.level;
        at_level(c, &place.key()).await;
        let heading = text_of(c, "level-heading").await;
        let title = learn::stages(kind)[0].id.clone();
        let expected = plain(
            &hexcord::text!(
                "learn-title",
                game = kind.title(),
                stage = 1,
                stages = stages.len(),
                name = place.stage_title(),
                level = place.index + 1,
                levels = place.stage().levels.len()
            ),
            lang,
        );
        assert_eq!(heading.trim(), expected.trim(), "{title}");
        assert_eq!(
            text_of(c, "goal").await.trim(),
            plain(&place.goal(), lang).trim()
        );
        let start = place.start().expect("the level starts");
        let mut tries = 0;
        // The named wrong moves that are legal (the board offers only legal moves).
        for w in &level.wrong {
            let Some(mv) = start
                .legal_moves()
                .into_iter()
                .find(|m| m.to_string() == w.mv)
            else {
                continue;
            };
            click(c, &legal(&start, &mv.to_string(), lang)).await;
            tries += 1;
            refused += 1;
            let words = said(c, "wrong").await;
            let why = Text::dynamic(format!("learn-inphexion-{}-{}", level.id, w.why));
            let expected = plain(&hexcord::text!("learn-wrong", why = why), lang);
            assert_eq!(words.trim(), expected.trim());
            assert!(
                js(c, "return document.getElementById('stars').hidden").await == json!(true),
                "no stars for a wrong move"
            );
            if shoot {
                screenshot(c).await;
            }
            // Tried again from the same position.
            at_level(c, &place.key()).await;
        }
        let mut played: Vec<String> = Vec::new();
        for (i, m) in level.solution.iter().enumerate() {
            let game = learn::replay(level, &played).expect("replays");
            let notation = game.position().parse_move(m).expect("a move").to_string();
            click(c, &legal(&game, &notation, lang)).await;
            tries += 1;
            match learn::judge(place, &played, m, tries).expect("judged") {
                Verdict::Next { mv, reply } => {
                    let words = said(c, "reply").await;
                    assert!(
                        words.contains(&reply),
                        "the reply {reply} is shown: {words}"
                    );
                    played.extend([mv, reply]);
                }
                Verdict::Done { stars, .. } => {
                    assert_eq!(i + 1, level.solution.len());
                    said(c, "done").await;
                    let shown =
                        js(c, "return document.getElementById('stars').dataset.stars").await;
                    assert_eq!(shown, json!(stars.to_string()), "{}", place.key());
                    assert_eq!(stars, learn::stars(level.target, tries));
                }
                other => panic!("{}: {other:?}", place.key()),
            }
        }
        let said_all = text_of(c, "said").await;
        if place.ends_stage() {
            let done = hexcord::text!(
                "learn-web-stage-done",
                name = place.stage_title(),
                game = kind.title()
            );
            assert!(
                said_all.contains(plain(&done, lang).trim()),
                "the stage's end is said: {said_all}"
            );
        }
        // Next opens the following level.
        let next = tr(lang, "learn-page-next");
        let script = format!(
            "const b = document.querySelector('#controls button.primary'); \
             return b !== null && b.textContent === {}",
            json!(next)
        );
        until(c, "Next level", &script).await;
        c.find(Locator::Css("#controls button.primary"))
            .await
            .expect("Next level")
            .click()
            .await
            .expect("click Next");
    }
    assert!(
        refused >= 1,
        "the first stage names a wrong move the board offers"
    );
    // Every level of the stage is kept in the browser with its stars.
    let kept = js(
        c,
        "return JSON.parse(localStorage.getItem('hexcord-learn') || '{}')",
    )
    .await;
    for p in &places {
        assert!(kept[p.key()].as_u64().is_some(), "{} kept: {kept}", p.key());
    }
}

/// The page's picture, compared with the stored one (and README's, with `HEXCORD_BLESS=1`).
async fn screenshot(c: &Client) {
    tokio::time::sleep(Duration::from_millis(300)).await;
    let png = c.screenshot().await.expect("screenshot");
    compare_screenshot(&png, "learn-page");
    if std::env::var_os("HEXCORD_BLESS").is_some() {
        let img = image::load_from_memory(&png).expect("png").to_rgba8();
        let small = hexcord::render::encode_png(&img).expect("encode");
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/learn-page.png");
        std::fs::write(path, small).expect("write README's picture");
    }
}

/// Local play offers the course (its line and its first page); inpHeXion's first stage is
/// walked on the learn page in English and in Japanese, and a reload opens the next level.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_learn_page_walks_the_first_stage_in_both_languages_and_keeps_the_progress() {
    let started = Instant::now();
    let driver = Driver::start().await;
    for (code, lang) in [("en", Lang::EN), ("ja", Lang::of("ja"))] {
        let c = driver.browser(900, 1000).await;
        let mut local = Local::start(&format!("learn-{code}")).await;
        let line = local
            .line(Duration::from_secs(60))
            .await
            .expect("a line saying where to play");
        assert!(
            line.contains(&format!("{}/learn", local.base)),
            "the line offers the course: {line}"
        );
        // The first page offers the course of each game, in its language.
        let q = if code == "en" {
            String::new()
        } else {
            format!("?lang={code}")
        };
        c.goto(&format!("{}/{q}", local.base))
            .await
            .expect("open /");
        let link = format!("a.learn[href=\"/learn?game=inphexion&lang={code}\"]");
        until(
            &c,
            "the course's link",
            &format!("return document.querySelector('{link}') !== null"),
        )
        .await;
        let words = c
            .find(Locator::Css(&link))
            .await
            .expect("the link")
            .text()
            .await
            .expect("its words");
        assert_eq!(
            words,
            hexcord::text!("learn-web-link", game = "inpHeXion").render(lang)
        );
        c.find(Locator::Css(&link))
            .await
            .expect("the link")
            .click()
            .await
            .expect("click");
        at_level(&c, "inphexion/first-disc").await;
        assert_eq!(
            js(&c, "return document.documentElement.lang").await,
            json!(code)
        );
        assert_eq!(
            text_of(&c, "kept").await.trim(),
            tr(lang, "learn-page-kept-browser")
        );
        first_stage(&c, lang, code == "en").await;
        // The progress is the browser's: a reload opens the next stage's first level.
        let second = learn::places(GameKind::Inphexion)
            .into_iter()
            .find(|p| p.stage == 1)
            .expect("a second stage");
        at_level(&c, &second.key()).await;
        c.refresh().await.expect("reload");
        at_level(&c, &second.key()).await;
        let progress = text_of(&c, "progress").await;
        let done = learn::stages(GameKind::Inphexion)[0].levels.len();
        assert!(
            progress.contains(&done.to_string()),
            "the progress counts the stage's levels: {progress}"
        );
        c.close().await.expect("close");
        local.end().await;
    }
    eprintln!("learn page: {:?}", started.elapsed());
}
