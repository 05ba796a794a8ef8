//! The bot under load, end to end: the real binary against the fake Discord of the end-to-end
//! test, many games at once, each player moving as soon as the previous move is answered.
//! Reports moves per second, the `/move` answer time (p50, p99), the delivery delay (from each
//! move's answer to the post of the board that shows it in the game's thread, p50, p99; the
//! boards of moves queued at once are folded into one post naming them all) and how many board
//! posts carried the moves.
//!
//! `cargo bench --bench scale` (release build): 500 inpHeXion 7×7 games, 12 moves each, first on
//! the embedded SQLite file with one process, then on PostgreSQL (a throwaway cluster started
//! from the installed server binaries) with two processes, one gateway shard of two each, the
//! games split between a server on each shard. `SCALE_GAMES` and `SCALE_MOVES` change the load;
//! `SCALE_SETUPS=sqlite` or `SCALE_SETUPS=postgres` runs one set-up only.
//! Every run checks that each game's boards were posted in the order of its moves. Under
//! `cargo test --all-targets` it runs a small load once (4 games × 6 moves), checking that every
//! move was answered and its board posted, in order.

#[allow(dead_code)]
#[path = "../tests/fake_discord/discord.rs"]
mod discord;
#[allow(dead_code)]
#[path = "../tests/fake_discord/server.rs"]
mod server;
#[allow(dead_code, unused_imports)]
#[path = "../tests/fake_discord/spec.rs"]
mod spec;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use discord::{member, Bot, Discord, ANN, BOB};
use hexcord::games::{Game, Options};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::json;

/// What one run measured.
struct Report {
    setup: String,
    games: usize,
    moves: usize,
    seconds: f64,
    answer_ms: Vec<f64>,
    delivery_ms: Vec<f64>,
    /// The board posts that showed the moves.
    posts: usize,
    /// From the first of those posts to the last.
    posting_s: f64,
    /// Requests the fake Discord answered 429: for the global limit, for a route's limit.
    global_429: u64,
    route_429: u64,
    /// Requests Discord counts as invalid (401, 403, 429).
    invalid: u64,
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

impl Report {
    fn print(&mut self) {
        self.answer_ms.sort_by(f64::total_cmp);
        self.delivery_ms.sort_by(f64::total_cmp);
        println!(
            "{}: {} games, {} moves in {:.1} s: {:.1} moves/s; /move answered in p50 {:.0} ms, p99 {:.0} ms; board posted after the answer in p50 {:.0} ms, p99 {:.0} ms ({} posts, {:.1} posts/s); 429s: {} global, {} per route; invalid requests {}",
            self.setup,
            self.games,
            self.moves,
            self.seconds,
            self.moves as f64 / self.seconds,
            percentile(&self.answer_ms, 0.5),
            percentile(&self.answer_ms, 0.99),
            percentile(&self.delivery_ms, 0.5),
            percentile(&self.delivery_ms, 0.99),
            self.posts,
            self.posts as f64 / self.posting_s.max(0.001),
            self.global_429,
            self.route_429,
            self.invalid,
        );
    }
}

/// One game's moves, played as fast as they are answered; returns (ply, sent, answered) per move.
async fn play(
    d: Arc<Discord>,
    server: usize,
    id: i64,
    first: u64,
    moves: usize,
    seed: u64,
) -> Vec<(usize, Instant, Instant)> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut mirror = Game::new(Options::parse_line("inphexion size=7").expect("options"));
    let second = if first == ANN.id { BOB.id } else { ANN.id };
    let mut out = Vec::with_capacity(moves);
    for _ in 0..moves {
        if mirror.is_over() {
            break;
        }
        let legal = mirror.legal_notations();
        let mv = legal[rng.random_range(0..legal.len())].clone();
        let who = if mirror.ply().is_multiple_of(2) {
            first
        } else {
            second
        };
        let sent = Instant::now();
        let ans = d
            .command_in(
                server,
                member(who),
                "move",
                vec![
                    json!({"name": "move", "type": 3, "value": mv}),
                    json!({"name": "game", "type": 3, "value": id.to_string()}),
                ],
            )
            .await;
        let answered = Instant::now();
        assert!(ans.content.contains("You played"), "game {id}: {ans:?}");
        mirror.play_text(&mv).expect("the move the bot accepted");
        out.push((mirror.ply(), sent, answered));
    }
    out
}

/// Where the bot runs: one process on an SQLite file, or two processes (a shard each) on one
/// PostgreSQL database.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Setup {
    OneOnSqlite,
    TwoOnPostgres,
}

impl Setup {
    /// Its name in `SCALE_SETUPS`.
    fn key(self) -> &'static str {
        match self {
            Setup::OneOnSqlite => "sqlite",
            Setup::TwoOnPostgres => "postgres",
        }
    }

    fn name(self) -> &'static str {
        match self {
            Setup::OneOnSqlite => "one process on SQLite",
            Setup::TwoOnPostgres => "two processes (a shard each) on PostgreSQL",
        }
    }
}

async fn run(setup: Setup, games: usize, moves: usize) -> Report {
    let mut d = Discord::start("scale").await;
    let quiet = ("RUST_LOG", "warn");
    let (mut bots, servers) = match setup {
        Setup::OneOnSqlite => (vec![Bot::start_with(&d, &[quiet]).await], 1),
        Setup::TwoOnPostgres => {
            d.db_url = hexcord::db::testing::new_pg_database().await;
            let shard = |range| [quiet, ("SHARD_COUNT", "2"), ("SHARD_RANGE", range)];
            (
                vec![
                    Bot::start_with(&d, &shard("0")).await,
                    Bot::start_with(&d, &shard("1")).await,
                ],
                2,
            )
        }
    };
    d.fake.wait_ready(bots.len() as u64).await;
    // The games, one after another (a pair has one open challenge at a time), spread over the
    // servers.
    let mut started = Vec::with_capacity(games);
    for i in 0..games {
        let server = i % servers;
        d.in_server(server);
        let ch = d.challenge(&ANN, &BOB, "inphexion", &[]).await;
        let g = d.accept(&BOB, &ch).await;
        started.push((server, g.id, g.to_move));
    }
    let d = Arc::new(d);
    let begin = Instant::now();
    let tasks: Vec<_> = started
        .iter()
        .map(|&(server, id, first)| {
            tokio::spawn(play(d.clone(), server, id, first, moves, id as u64))
        })
        .collect();
    let mut answered: HashMap<(i64, usize), Instant> = HashMap::new();
    let mut answer_ms = Vec::new();
    let mut last = begin;
    for (task, &(_, id, _)) in tasks.into_iter().zip(&started) {
        for (ply, sent, at) in task.await.expect("a game's player") {
            answer_ms.push((at - sent).as_secs_f64() * 1000.0);
            answered.insert((id, ply), at);
            last = last.max(at);
        }
    }
    let seconds = (last - begin).as_secs_f64();
    // Every board posted (the queue may still be at work): the delay from each answer.
    let total = answered.len();
    let deadline = Instant::now() + Duration::from_secs(600);
    let (delivery_ms, posts, posting_s) = loop {
        let mut delays = Vec::with_capacity(total);
        let mut posts = 0;
        let (mut first_post, mut last_post) = (None::<Instant>, None::<Instant>);
        // Each game's boards in the order they were posted.
        let mut posted: HashMap<i64, Vec<usize>> = HashMap::new();
        for r in d.fake.state.requests.lock().unwrap().iter() {
            if !r.is_new_post() || r.files.is_empty() {
                continue;
            }
            let Some(content) = r.json.as_ref().and_then(|j| j["content"].as_str()) else {
                continue;
            };
            let state = discord::parse_state(content);
            let mut shown = false;
            for ply in discord::caption_plies(content) {
                if let Some(&at) = answered.get(&(state.id, ply)) {
                    delays.push(r.at.saturating_duration_since(at).as_secs_f64() * 1000.0);
                    posted.entry(state.id).or_default().push(ply);
                    shown = true;
                }
            }
            posts += usize::from(shown);
            if shown {
                first_post = Some(first_post.map_or(r.at, |t| t.min(r.at)));
                last_post = Some(last_post.map_or(r.at, |t| t.max(r.at)));
            }
        }
        if delays.len() >= total {
            for (game, plies) in &posted {
                assert!(
                    plies.windows(2).all(|w| w[0] < w[1]),
                    "game {game}: boards posted out of order: {plies:?}"
                );
            }
            let span = match (first_post, last_post) {
                (Some(a), Some(b)) => (b - a).as_secs_f64(),
                _ => 0.0,
            };
            break (delays, posts, span);
        }
        assert!(
            Instant::now() < deadline,
            "only {} of {total} boards posted",
            delays.len()
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    // Every board a newer one replaced has its buttons taken off (after the posts: the
    // cleanup takes what the budget leaves).
    let deadline = Instant::now() + Duration::from_secs(600);
    loop {
        let left = d.fake.superseded_with_buttons();
        if left.is_empty() {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "{} superseded boards kept their buttons",
            left.len()
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    for bot in &mut bots {
        bot.kill().await;
    }
    let v = d.fake.violations();
    assert!(v.is_empty(), "requests that break Discord's spec: {v:#?}");
    let limits = &d.fake.state.limits;
    // What was refused for the global limit, by route, if anything.
    let mut refused: HashMap<String, usize> = HashMap::new();
    for r in d.fake.state.requests.lock().unwrap().iter() {
        if r.status == 429 {
            let route: Vec<&str> = r
                .path
                .split('/')
                .map(|s| {
                    if s.chars().all(|c| c.is_ascii_digit()) {
                        "{id}"
                    } else {
                        s
                    }
                })
                .collect();
            *refused
                .entry(format!("{} {}", r.method, route.join("/")))
                .or_default() += 1;
        }
    }
    if !refused.is_empty() {
        println!("answered 429: {refused:?}");
    }
    Report {
        setup: setup.name().to_string(),
        games,
        moves: total,
        seconds,
        answer_ms,
        delivery_ms,
        posts,
        posting_s,
        global_429: limits.global_429(),
        route_429: limits.route_429(),
        invalid: limits.invalid(),
    }
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --all-targets` runs this binary without it,
    // and then a small load only checks that every move is answered and posted.
    let bench = std::env::args().any(|a| a == "--bench");
    let setting = |key: &str, default: usize| {
        std::env::var(key)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let (games, moves) = if bench {
        (setting("SCALE_GAMES", 500), setting("SCALE_MOVES", 12))
    } else {
        (4, 6)
    };
    // `SCALE_SETUPS=sqlite` or `postgres` runs one set-up only (default: both).
    let chosen = std::env::var("SCALE_SETUPS").unwrap_or_default();
    let setups: Vec<Setup> = [Setup::OneOnSqlite, Setup::TwoOnPostgres]
        .into_iter()
        .filter(|s| chosen.is_empty() || chosen.split(',').any(|c| c.trim() == s.key()))
        .collect();
    assert!(
        !setups.is_empty(),
        "SCALE_SETUPS names no set-up (sqlite, postgres): {chosen:?}"
    );
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        for setup in setups {
            let mut report = run(setup, games, moves).await;
            assert_eq!(report.moves, games * moves);
            report.print();
            // The bot paces itself under Discord's global limit.
            assert_eq!(
                report.global_429, 0,
                "requests refused for the global limit"
            );
        }
    });
}
