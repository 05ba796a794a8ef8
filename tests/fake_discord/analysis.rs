//! A finished game is analysed: the chart, its turning points, the stored analysis, and the
//! puzzles found in it afterwards, credited to its players.

use std::time::Instant;

use rand::rngs::SmallRng;
use rand::SeedableRng;
use serde_json::json;

use crate::common::{db_value, interesting_move, opt_str};
use crate::discord::{self, member, parse_state, Bot, Discord, ANN, BOB, CAT};
use crate::server;
use crate::web_page::{js, until, Driver};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_is_analysed() {
    let started = Instant::now();
    let d = Discord::start("analysis").await;
    let mut bot = Bot::start(&d).await;
    d.fake.wait_ready(1).await;
    let size5 = json!({"name": "size", "type": 4, "value": 5});
    let ch = d.challenge(&ANN, &BOB, "inphexion", &[size5]).await;
    let game = d.accept(&BOB, &ch).await;
    let which = || vec![json!({"name": "game", "type": 3, "value": game.id.to_string()})];
    // A game in which a player misses their only win in one and the opponent then wins; analysis
    // is refused while it is played, even to a spectator, privately and storing nothing.
    let mut rng = SmallRng::seed_from_u64(3);
    let mut state = game.clone();
    let mut missed = None;
    loop {
        let now = stored_game(&d, game.id).await;
        if now.is_over() {
            break;
        }
        if now.ply() == 2 {
            d.refused(&CAT, "analysis", which(), "still being played")
                .await;
            d.refused(&ANN, "analysis", which(), "still being played")
                .await;
        }
        let pos = now.position();
        let wins = winning_moves(pos);
        let mv = match (missed, wins.first()) {
            (Some(_), Some(win)) => *win,
            (None, Some(_)) if wins.len() == 1 => {
                // The only winning move missed (a puzzle): a move that does not win, after which
                // the opponent wins at once.
                let blunder = pos.legal_moves().into_iter().find(|m| {
                    let mut p = pos.clone();
                    !wins.contains(m) && p.play(m).is_ok() && !winning_moves(&p).is_empty()
                });
                match blunder {
                    Some(m) => {
                        missed = Some(now.ply() + 1);
                        m
                    }
                    None => interesting_move(&now, &mut rng),
                }
            }
            _ => interesting_move(&now, &mut rng),
        };
        state = play_text(&d, &state, &mv.to_string()).await;
    }
    let missed = missed.expect("a game with a missed win");
    // The first request shows its progress, then the chart and the turning points' boards.
    let from = d.fake.request_count();
    let first = d.command(&CAT, "analysis", which()).await;
    assert!(!first.ephemeral, "{first:?}");
    assert!(first.content.contains("Analysing game"), "{first:?}");
    let (_, done) = d
        .fake
        .wait_for(from, "the analysis", |r| {
            r.method == "PATCH"
                && r.path
                    .starts_with(&format!("/webhooks/{}/", server::APP_ID))
                && !r.files.is_empty()
        })
        .await;
    let content = done
        .json
        .as_ref()
        .and_then(|j| j["content"].as_str())
        .unwrap_or("")
        .to_string();
    assert!(
        content.contains(&format!("Analysis of game #{}", game.id)),
        "{content}"
    );
    eprintln!("the analysis: {content}");
    let pictures: Vec<image::DynamicImage> = done
        .files
        .iter()
        .map(|(_, png)| image::load_from_memory(png).expect("a picture"))
        .collect();
    assert_eq!(pictures[0].width(), 900, "the chart first");
    // Each turning point is named in the text, its moves in words, and has a picture of each
    // board (before, played, better), each no taller than wide by half: Discord previews it
    // whole. The missed win is the first.
    let named = content.matches("Better:").count();
    assert!(named >= 1, "{content}");
    assert!(
        (1 + 2 * named..=1 + 3 * named).contains(&pictures.len()),
        "{} pictures: {content}",
        pictures.len()
    );
    assert!(pictures.len() <= 10, "Discord shows 10 attachments at most");
    assert!(pictures[1..].iter().all(|p| p.height() < p.width() * 3 / 2));
    let first_point = content.lines().nth(1).unwrap_or("");
    assert!(
        first_point.starts_with(&format!("• Move {missed} (")),
        "move {missed} missed a win: {content}"
    );
    let record = stored_game(&d, game.id).await;
    let notation = record.moves()[missed - 1].to_string();
    let before = record.position_at(missed - 1).expect("the position");
    let words = hexcord::play::picker::describe(
        hexcord::i18n::Lang::EN,
        &before,
        &record.moves()[missed - 1],
    );
    assert!(
        first_point.contains(&format!("**{words}**"))
            && !first_point.contains(&format!("**{notation}**")),
        "the move in words, not `{notation}`: {first_point}"
    );
    assert_eq!(
        db_value(
            &d,
            "SELECT count(*) FROM analyses WHERE game_id = $1",
            game.id
        )
        .await,
        Some(1)
    );
    // The game's puzzles are found in the background, with the analysis' budget and seed, and
    // stored credited to Ann and Bob: what the generator finds in the stored analysis.
    let budget = hexcord::analysis::AnalysisBudget::DEFAULT;
    let seed = game.id as u64;
    let pool = hexcord::db::connect(&d.db_url).await.expect("db");
    let analysis =
        hexcord::db::fetch_analysis(&pool, game.id, budget.for_kind(record.kind()), seed)
            .await
            .expect("read the analysis")
            .expect("the stored analysis");
    let want = {
        let record = record.clone();
        tokio::task::spawn_blocking(move || {
            hexcord::puzzles::find(&record, &analysis, budget, seed)
        })
        .await
        .expect("the generator")
    };
    assert!(!want.is_empty(), "the game has a puzzle");
    let mut credited = 0;
    for p in &want {
        let waited = Instant::now();
        let row: (String, Option<i64>, Option<i64>, Option<i64>, String) = loop {
            let row = sqlx::query_as(
                "SELECT origin, game_id, first_player_id, second_player_id, solution \
                 FROM puzzles WHERE variant = $1 AND position = $2",
            )
            .bind(&p.variant)
            .bind(&p.position)
            .fetch_optional(&pool)
            .await
            .expect("puzzles");
            if let Some(row) = row {
                break row;
            }
            assert!(
                waited.elapsed() < std::time::Duration::from_secs(120),
                "the puzzle at move {} was never stored",
                p.source.ply + 1
            );
            tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        };
        let (origin, game_id, first, second, solution) = row;
        if origin == "starter" {
            continue; // the same position in the starter set, stored first
        }
        credited += 1;
        assert_eq!(game_id, Some(game.id));
        let mut players = [first, second];
        players.sort();
        let mut want_players = [Some(ANN.id as i64), Some(BOB.id as i64)];
        want_players.sort();
        assert_eq!(players, want_players, "credited to the game's players");
        assert_eq!(
            serde_json::from_str::<Vec<String>>(&solution).expect("a line"),
            p.solution
        );
    }
    assert!(credited > 0, "a puzzle of this game, credited to it");
    pool.close().await;
    // Asked again: stored, so the answer comes at once with the same pictures.
    let again = d.command(&ANN, "analysis", which()).await;
    assert!(!again.ephemeral);
    assert_eq!(again.content, content);
    assert_eq!(
        again.files,
        done.files
            .iter()
            .map(|(_, f)| f.clone())
            .collect::<Vec<_>>()
    );
    assert_eq!(
        db_value(
            &d,
            "SELECT count(*) FROM analyses WHERE game_id = $1",
            game.id
        )
        .await,
        Some(1)
    );
    // The game's page shows the same analysis as a chart on a phone: its turning points, named
    // in words, open their move's position; Escape goes back to the game as it ended.
    let help = d.command(&ANN, "help", vec![]).await;
    let base = discord::components_of(&help.components)
        .find_map(|c| {
            c["url"]
                .as_str()
                .and_then(|u| u.strip_suffix("/rules/inphexion"))
                .map(str::to_string)
        })
        .unwrap_or_else(|| panic!("no web board in /help: {help:?}"));
    let driver = Driver::start().await;
    let page = driver.phone(390, 844).await;
    page.goto(&format!("{base}/game/{}", game.id))
        .await
        .expect("open the game's page");
    until(
        &page,
        "the chart",
        "return !document.getElementById('chart').hidden \
         && document.querySelectorAll('#chart-plot .turn').length > 0",
    )
    .await;
    let chart = js(
        &page,
        "return { turns: [...document.querySelectorAll('#chart-plot .turn')] \
             .map(t => [Number(t.dataset.ply), t.getAttribute('aria-label')]), \
         wide: document.documentElement.scrollWidth, screen: window.innerWidth, \
         chartRight: document.getElementById('chart-plot').getBoundingClientRect().right }",
    )
    .await;
    assert!(
        chart["wide"].as_u64() <= chart["screen"].as_u64()
            && chart["chartRight"].as_f64() <= Some(390.0),
        "scrolls sideways: {chart}"
    );
    let turns = chart["turns"].as_array().cloned().unwrap_or_default();
    assert_eq!(turns.len(), named, "as many as the text names: {chart}");
    let missed_turn = turns
        .iter()
        .find(|t| t[0].as_u64() == Some(missed as u64))
        .unwrap_or_else(|| panic!("no turning point at move {missed}: {chart}"));
    let label = missed_turn[1].as_str().unwrap_or_default();
    assert!(
        label.contains(&words) && !label.contains(&format!(" {notation}.")),
        "{label}"
    );
    page.find(fantoccini::Locator::Css(&format!(
        "#chart-plot .turn[data-ply=\"{missed}\"]"
    )))
    .await
    .expect("the missed win's point")
    .click()
    .await
    .expect("click");
    until(
        &page,
        "the missed win's position",
        &format!(
            "return !document.getElementById('review').hidden \
             && document.getElementById('review-words').textContent === 'Position after move {missed}'"
        ),
    )
    .await;
    page.find(fantoccini::Locator::Css("body"))
        .await
        .expect("body")
        .send_keys("\u{E00C}")
        .await
        .expect("Escape");
    until(
        &page,
        "the game as it ended",
        "return document.getElementById('review').hidden",
    )
    .await;
    let _ = page.close().await;
    d.end(&mut bot, "analysis", started).await;
}

/// Game `id` as stored.
async fn stored_game(d: &Discord, id: i64) -> hexcord::games::Game {
    let pool = hexcord::db::connect(&d.db_url).await.expect("db");
    let mut conn = pool.acquire().await.expect("connection");
    let (_, game) = hexcord::db::load_game(&mut conn, id)
        .await
        .expect("load")
        .expect("the game");
    drop(conn);
    pool.close().await;
    game
}

/// The moves of `pos` that win at once for the side to move.
fn winning_moves(pos: &hexcord::games::Position) -> Vec<hexcord::games::Move> {
    let me = pos.to_move();
    pos.legal_moves()
        .into_iter()
        .filter(|m| {
            let mut p = pos.clone();
            p.play(m).is_ok() && p.outcome().is_some_and(|o| o.winner == Some(me))
        })
        .collect()
}

/// The player to move plays `text` with `/move`; returns the game as its board then shows it.
async fn play_text(d: &Discord, state: &discord::GameState, text: &str) -> discord::GameState {
    let from = d.fake.request_count();
    let ans = d
        .command(
            member(state.to_move),
            "move",
            vec![
                opt_str("move", text),
                opt_str("game", &state.id.to_string()),
            ],
        )
        .await;
    assert!(
        ans.content.contains("You played") || ans.content.contains("You passed"),
        "{text}: {ans:?}"
    );
    let ply = d.move_count(state.id).await;
    let post = d.board_post(from, state.id, ply).await;
    let content = post.json.unwrap_or_default()["content"]
        .as_str()
        .unwrap_or("")
        .to_string();
    parse_state(&content)
}
