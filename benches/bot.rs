//! The bot under load, through the fake Discord of `tests/fake_discord/`: the real `hexcord`
//! binary with a database of many stored games, and many games played at once.
//!
//! `cargo bench --bench bot` measures, with 10,000 finished games stored and 50 games played at
//! the same time (each by its own pair of members, moves sent as fast as the answers come):
//! - the time from sending a `/move` INTERACTION_CREATE on the gateway to the bot's interaction
//!   callback arriving at the fake REST API (p50, p99, max), and the same for autocomplete;
//! - the time from a move's commit to its board being posted by the delivery queue (p50, p99,
//!   from the queue's own timestamps);
//! - the time `/games` takes for a member with 200 active games;
//! - the bot's resident memory (VmRSS, and the peak VmHWM) at the end, from `/proc`;
//! - what putting an answer in words costs: a board's caption with its alt text and a refusal,
//!   formatted from the Fluent files in English and in Japanese (mean per answer);
//! - what a member playing the bot waits for its reply while analyses queue: the bot's own moves
//!   have their own search threads, so seven analyses asked for first do not hold it up (the
//!   reply's time with none queued and with seven, in process, on a database file).
//!
//! Run without `--bench` (as `cargo test --all-targets` does), it plays a small version of the
//! same scenario as a check that the benchmark works, without reporting figures.

#[allow(dead_code)]
#[path = "../tests/fake_discord/discord.rs"]
mod discord;
#[allow(dead_code)]
#[path = "../tests/fake_discord/server.rs"]
mod server;
// The spec checker's own unit tests are not run from here.
#[allow(dead_code, unused_imports)]
#[path = "../tests/fake_discord/spec.rs"]
mod spec;

use std::time::{Duration, Instant};

use discord::{Bot, Discord, Member, MEMBER_PERMS};
use hexcord::db::{self, ChannelId, GuildId, UserId};
use hexcord::games::{Game, GameKind, Options};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use server::{Recorded, APP_ID, GUILD_ID};

struct Scale {
    stored: usize,
    active: usize,
    /// Moves per game in each round; the first round with members pausing before each move
    /// like people do, the second with none.
    moves_per_round: usize,
    /// The longest pause before a move in the first round (each pause is uniform up to this).
    think: Duration,
}

fn main() {
    let full = std::env::args().any(|a| a == "--bench");
    let scale = if full {
        Scale {
            stored: 10_000,
            active: 50,
            moves_per_round: 8,
            think: Duration::from_secs(2),
        }
    } else {
        Scale {
            stored: 200,
            active: 4,
            moves_per_round: 2,
            think: Duration::from_millis(100),
        }
    };
    message_formatting(if full { 20_000 } else { 2_000 });
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("tokio runtime");
    rt.block_on(bot_reply_behind_analyses(full));
    rt.block_on(run(scale, full));
}

/// The bot's reply in a game against it, with no analysis running and with seven asked for just
/// before the member's move (each a whole 40-move inpHeXion game at the analysis budget).
/// Without a budget of their own the reply waited for the analyses (22.9 s with seven queued,
/// against 0.2 s); checked here: with seven it stays within a few times the quiet reply.
async fn bot_reply_behind_analyses(full: bool) {
    use hexcord::play::actions::{self, BotGameRequest, Chosen, Core};
    use hexcord::play::opponent::Opponent;
    const MEMBER: UserId = UserId(11);
    const BOT: UserId = UserId(12);
    let (pool, _file) = db::testing::temp_db().await;
    for (id, name) in [(MEMBER, "ann"), (BOT, "hexcord")] {
        db::upsert_player(&pool, id, name, 1_800_000_000)
            .await
            .expect("a player");
    }
    let core = Core::new(pool.clone(), hexcord::clock::Clock::System);
    let opponent = Opponent::new(core.clone(), BOT, "hexcord");
    let mut rng = SmallRng::seed_from_u64(7);
    let mut analysed = Game::new(Options::default_for(GameKind::Inphexion));
    while analysed.ply() < 40 && !analysed.is_over() {
        let moves = analysed.legal_moves();
        let mv = moves[rng.random_range(0..moves.len())];
        analysed.play(mv).expect("a legal move");
    }
    let runs = if full { 5 } else { 1 };
    // The check (without `--bench`) keeps the analyses short: they still take the search
    // threads for the whole reply.
    let budget = if full {
        hexcord::analysis::AnalysisBudget::DEFAULT
    } else {
        hexcord::analysis::AnalysisBudget {
            playouts: 3_000,
            ..hexcord::analysis::AnalysisBudget::DEFAULT
        }
    };
    let mut report = Vec::new();
    for queued in [0usize, 7] {
        let mut times = Vec::new();
        for _ in 0..runs {
            let id = actions::start_bot_game(
                &core,
                &BotGameRequest {
                    guild_id: Some(GuildId(1)),
                    channel_id: ChannelId(2),
                    member: MEMBER,
                    bot: BOT,
                    options: Options::default_for(GameKind::Inphexion),
                    level: hexcord::ai::Level::Medium,
                    member_first: true,
                    coached: false,
                },
            )
            .await
            .expect("a game against the bot");
            let analyses: Vec<_> = (0..queued)
                .map(|i| {
                    let opponent = opponent.clone();
                    let game = analysed.clone();
                    tokio::spawn(async move {
                        opponent
                            .run_search(move || {
                                hexcord::analysis::analyse(&game, budget, i as u64, |_, _| {})
                            })
                            .await
                    })
                })
                .collect();
            // Let the analyses take their places first.
            tokio::time::sleep(Duration::from_millis(50)).await;
            let loaded = actions::load(&pool, id).await.expect("the game");
            let first = loaded.1.legal_moves()[0];
            let asked = Instant::now();
            opponent
                .member_moves(loaded, MEMBER, Chosen::Move(first))
                .await
                .expect("the member's move");
            loop {
                let row = db::fetch_game(&pool, id).await.expect("read").expect("row");
                if row.version >= 2 {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
            times.push(asked.elapsed());
            // The game ends; the analyses are left to finish before the next run.
            actions::resign(&core, id, MEMBER).await.expect("resign");
            for a in analyses {
                let _ = a.await;
            }
        }
        times.sort();
        report.push((queued, times[times.len() / 2]));
    }
    let (quiet, busy) = (report[0].1, report[1].1);
    if full {
        println!(
            "the bot's reply (medium, inpHeXion 7x7): {quiet:.2?} with no analysis running, {busy:.2?} with seven queued (median of {runs})"
        );
    }
    assert!(
        busy < quiet * 4 + Duration::from_millis(500),
        "the bot's reply waited for the analyses: {busy:?} against {quiet:?}"
    );
}

/// Formats `n` answers in each language (a board caption with its alt text, and a refusal) and
/// reports the mean time per answer.
fn message_formatting(n: usize) {
    use hexcord::i18n::{self, Lang};
    use hexcord::play::present::{alt_text, board_caption};
    i18n::load().expect("the locale files load");
    let mut game = Game::new(Options::default_for(GameKind::Exxit));
    for _ in 0..20 {
        let mv = game.legal_moves()[0];
        game.play(mv).expect("a legal move");
    }
    let row = db::GameRow {
        id: 12,
        guild_id: Some(GuildId(1)),
        channel_id: ChannelId(2),
        options: Options::default_for(GameKind::Exxit),
        players: [UserId(3), UserId(4)],
        rated: true,
        status: db::GameStatus::Active,
        result: None,
        winner_id: None,
        board_message_id: None,
        version: 20,
        revision: 0,
        created_at: 0,
        updated_at: 0,
        finished_at: None,
        seconds_per_move: 86_400,
        deadline_at: Some(1_900_000_000),
        reminders_sent: 0,
        to_move: Some(UserId(3)),
        delivery_fault: None,
        thread_id: None,
        clock: None,
    };
    for tag in ["en-US", "ja"] {
        let lang = Lang::of(tag);
        let start = Instant::now();
        let mut bytes = 0;
        for _ in 0..n {
            bytes += board_caption(lang, &row, &game, Some((UserId(4), "0,1"))).len();
            bytes += alt_text(lang, row.id, &game, game.ply()).len();
            bytes += hexcord::text!("not-a-game-number", input = "12x")
                .render(lang)
                .len();
        }
        let per = start.elapsed() / n as u32;
        assert!(bytes > 0);
        println!("message formatting ({tag}): {per:.1?} per answer (caption, alt text, refusal)");
    }
}

fn member(id: u64) -> Member {
    Member {
        id,
        name: Box::leak(format!("player{}", id % 10_000).into_boxed_str()),
        bot: false,
        permissions: MEMBER_PERMS,
    }
}

/// Stores `n` finished random games between 200 players of the server, as the bot would have
/// stored them.
async fn seed(url: &str, n: usize) {
    let pool = db::connect(url).await.expect("database");
    let mut rng = SmallRng::seed_from_u64(7);
    let players: Vec<UserId> = (0..200)
        .map(|i| UserId(940_000_000_000_000_000 + i))
        .collect();
    let now = hexcord::clock::unix_now() - 30 * 86_400;
    for &p in &players {
        db::upsert_player(&pool, p, &format!("seeded{}", p.get() % 1000), now)
            .await
            .expect("player");
    }
    let mut tx = pool.begin().await.expect("transaction");
    for i in 0..n {
        let kind = if i % 4 == 3 {
            GameKind::Exxit
        } else {
            GameKind::Inphexion
        };
        let options = Options::default_for(kind);
        let a = players[rng.random_range(0..players.len())];
        let b = loop {
            let b = players[rng.random_range(0..players.len())];
            if b != a {
                break b;
            }
        };
        let at = now + i as i64;
        let id = db::insert_game(
            &mut *tx,
            &db::NewGame {
                guild_id: Some(GuildId(GUILD_ID)),
                channel_id: ChannelId(server::CHANNEL_ID),
                options: &options,
                players: [a, b],
                rated: true,
                now: at,
                seconds_per_move: 3 * 86_400,
                deadline_at: Some(at + 3 * 86_400),
                clock: None,
            },
        )
        .await
        .expect("game");
        let mut game = Game::new(options);
        let mut ply = 0;
        while game.outcome().is_none() && ply < 400 {
            let moves = game.legal_moves();
            let mv = moves[rng.random_range(0..moves.len())];
            game.play(mv).expect("a legal move");
            let mover = if ply % 2 == 0 { a } else { b };
            let finish = game.outcome().map(|o| db::Finish {
                kind,
                result: db::GameResult::Decided(o),
                winner_id: o.winner.map(|c| if c.index() == 0 { a } else { b }),
            });
            db::record_move(
                &mut tx,
                &db::MoveRecord {
                    game: id,
                    expected_version: ply,
                    notation: &mv.to_string(),
                    player: mover,
                    now: at,
                    finish: finish.as_ref(),
                    next_deadline: Some(at + 3 * 86_400),
                    next_to_move: if ply % 2 == 0 { b } else { a },
                    clock: None,
                    left_before: None,
                },
            )
            .await
            .expect("move");
            ply += 1;
        }
    }
    // One member with many active games (for `/games`).
    let busy = players[0];
    for (k, &other) in players[1..].iter().cycle().take(BUSY_GAMES).enumerate() {
        db::insert_game(
            &mut *tx,
            &db::NewGame {
                guild_id: Some(GuildId(GUILD_ID)),
                channel_id: ChannelId(server::CHANNEL_ID),
                options: &Options::default_for(GameKind::Exxit),
                players: [busy, other],
                rated: true,
                now: now + k as i64,
                seconds_per_move: 14 * 86_400,
                deadline_at: Some(hexcord::clock::unix_now() + 14 * 86_400),
                clock: None,
            },
        )
        .await
        .expect("busy game");
    }
    tx.commit().await.expect("commit");
    pool.close().await;
}

/// Active games of the busiest member.
const BUSY_GAMES: usize = 200;

/// Sends one interaction; returns the time until the bot's callback reached the fake, the
/// callback's body, and (after a deferral) the follow-up message's body.
async fn timed(d: &Discord, token: String, event: Value) -> (Duration, Value, Option<Value>) {
    let from = d.fake.request_count();
    let sent = Instant::now();
    d.fake.dispatch("INTERACTION_CREATE", event);
    let callback = format!("/{token}/callback");
    let (_, cb) = d
        .fake
        .wait_for(from, "a callback", |r| {
            r.method == "POST" && r.path.ends_with(&callback)
        })
        .await;
    let took = sent.elapsed();
    let body = cb.json.unwrap_or(Value::Null);
    if body["type"].as_u64() != Some(5) {
        return (took, body, None);
    }
    let hook = format!("/webhooks/{APP_ID}/{token}");
    let (_, follow) = d
        .fake
        .wait_for(from, "a follow-up", |r: &Recorded| {
            r.method == "POST" && r.path == hook
        })
        .await;
    (took, body, follow.json)
}

/// Plays `moves` moves of one game, each time taking the first suggestion of autocomplete.
/// Returns the callback times of the moves and of the autocompletes.
async fn play(
    d: &Discord,
    players: [&Member; 2],
    game: i64,
    mut to_move: u64,
    moves: usize,
    think: Duration,
) -> (Vec<Duration>, Vec<Duration>, u64) {
    let mut move_times = Vec::new();
    let mut complete_times = Vec::new();
    let mut rng = SmallRng::seed_from_u64(game as u64);
    for _ in 0..moves {
        if !think.is_zero() {
            tokio::time::sleep(think.mul_f64(rng.random::<f64>())).await;
        }
        let who = *players
            .iter()
            .find(|m| m.id == to_move)
            .unwrap_or_else(|| panic!("game #{game}: <@{to_move}> plays in no seat"));
        let gid = game.to_string();
        let data = d.command_data(
            "move",
            vec![
                json!({"name": "move", "type": 3, "value": "", "focused": true}),
                json!({"name": "game", "type": 3, "value": gid}),
            ],
            &[],
        );
        let (token, event) = d.interaction(4, who, data, None);
        let (took, body, _) = timed(d, token, event).await;
        complete_times.push(took);
        let first = body["data"]["choices"][0]["value"]
            .as_str()
            .unwrap_or_else(|| panic!("game #{game}: no suggestion in {body}"))
            .to_string();
        let data = d.command_data(
            "move",
            vec![
                json!({"name": "move", "type": 3, "value": first}),
                json!({"name": "game", "type": 3, "value": gid}),
            ],
            &[],
        );
        let from = d.fake.request_count();
        let (token, event) = d.interaction(2, who, data, None);
        let (took, body, _) = timed(d, token, event).await;
        move_times.push(took);
        let answer = body["data"]["content"].as_str().unwrap_or("");
        assert!(
            answer.contains("You played"),
            "move {first} in game #{game} was not played: {body}"
        );
        // "… in game #12, move 7. The board follows …"
        let ply = answer
            .split(", move ")
            .nth(1)
            .and_then(|s| s.split(|c: char| !c.is_ascii_digit()).next())
            .and_then(|s| s.parse::<i64>().ok())
            .unwrap_or_else(|| panic!("no move number in {answer}"));
        let post = d.board_post(from, game, ply).await;
        let caption = post.json.unwrap_or(Value::Null)["content"]
            .as_str()
            .unwrap_or("")
            .to_string();
        if caption.contains("Game over") {
            to_move = 0;
            break;
        }
        to_move = discord::parse_state(&caption).to_move;
    }
    (move_times, complete_times, to_move)
}

/// Plays `moves` moves of one game with the Move button and the picker (a random legal move
/// each time). Returns the time of every picker interaction, those of the steps that showed the
/// preview picture apart, and who moves next (0 once the game is over).
async fn play_picked(
    d: &Discord,
    pool: &db::Pool,
    players: [&Member; 2],
    game: i64,
    moves: usize,
    think: Duration,
) -> (Vec<Duration>, Vec<Duration>, u64) {
    let mut steps_times = Vec::new();
    let mut preview_times = Vec::new();
    let mut rng = SmallRng::seed_from_u64(game as u64 ^ 0x5eed);
    let mut to_move = 0;
    for _ in 0..moves {
        if !think.is_zero() {
            tokio::time::sleep(think.mul_f64(rng.random::<f64>())).await;
        }
        let mut conn = pool.acquire().await.expect("connection");
        let (row, g) = db::load_game(&mut conn, game)
            .await
            .expect("the game loads")
            .expect("the game exists");
        drop(conn);
        let (Some(next), db::GameStatus::Active) = (row.to_move, row.status) else {
            return (steps_times, preview_times, 0);
        };
        let who = *players
            .iter()
            .find(|m| m.id == next.get())
            .unwrap_or_else(|| panic!("game #{game}: {next} plays in no seat"));
        let board = d.last_board(game);
        let legal = g.legal_moves();
        let mv = legal[rng.random_range(0..legal.len())];
        let steps = hexcord::play::picker::steps(g.position(), &mv);
        let from = d.fake.request_count();
        let (played, times) = d.pick_move_timed(who, &board, &steps).await;
        assert!(played.content.contains("You played"), "{played:?}");
        for (t, preview) in times {
            if preview {
                preview_times.push(t);
            } else {
                steps_times.push(t);
            }
        }
        let post = d.board_post(from, game, g.ply() as i64 + 1).await;
        let caption = post.json.unwrap_or(Value::Null)["content"]
            .as_str()
            .unwrap_or("")
            .to_string();
        if caption.contains("Game over") {
            return (steps_times, preview_times, 0);
        }
        to_move = discord::parse_state(&caption).to_move;
    }
    (steps_times, preview_times, to_move)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let k = ((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len()) - 1;
    sorted[k]
}

fn summary(name: &str, mut times: Vec<Duration>) -> String {
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    format!(
        "{name}: {} samples, p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        times.len(),
        ms(percentile(&times, 0.50)),
        ms(percentile(&times, 0.99)),
        ms(times.last().copied().unwrap_or_default())
    )
}

/// VmRSS and VmHWM of a process in KiB, from /proc.
fn memory(pid: u32) -> (u64, u64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

async fn run(scale: Scale, full: bool) {
    let d = Discord::start("bench").await;
    let t = Instant::now();
    seed(&d.db_url, scale.stored).await;
    eprintln!("stored {} games in {:.1?}", scale.stored, t.elapsed());
    let bot = Bot::start(&d).await;
    d.fake.wait_ready(1).await;
    let pid = bot.pid().expect("the bot runs");

    // The active games: one pair of members each, half of each kind.
    let members: Vec<Member> = (0..2 * scale.active as u64)
        .map(|i| member(950_000_000_000_000_000 + i))
        .collect();
    let mut games = Vec::new();
    for (k, pair) in members.chunks(2).enumerate() {
        let kind = if k % 2 == 0 { "inphexion" } else { "exxit" };
        let ch = d.challenge(&pair[0], &pair[1], kind, &[]).await;
        let state = d.accept(&pair[1], &ch).await;
        games.push((k, state.id, state.to_move));
    }
    let (rss_before, _) = memory(pid);
    if full {
        println!(
            "{} stored games; {} games played at once; bot memory {:.1} MB resident",
            scale.stored,
            scale.active,
            rss_before as f64 / 1024.0
        );
    }

    let pool = hexcord::db::connect(&d.db_url).await.expect("db");
    for (round, think) in [("members pause", scale.think), ("no pause", Duration::ZERO)] {
        let first = db::last_announcement(&pool).await.expect("queue");
        let t = Instant::now();
        let runs = games.iter().map(|&(k, id, to_move)| {
            let pair = [&members[2 * k], &members[2 * k + 1]];
            play(&d, pair, id, to_move, scale.moves_per_round, think)
        });
        let results = futures_join_all(runs).await;
        let elapsed = t.elapsed();
        let mut move_times = Vec::new();
        let mut complete_times = Vec::new();
        for ((m, c, next), g) in results.into_iter().zip(games.iter_mut()) {
            move_times.extend(m);
            complete_times.extend(c);
            g.2 = next;
        }
        // Finished games play no more.
        games.retain(|g| g.2 != 0);
        let (rss, hwm) = memory(pid);
        if full {
            println!(
                "round `{round}` (pauses up to {think:.1?}): {} moves in {elapsed:.1?}",
                move_times.len()
            );
            println!(
                "  {}",
                summary("/move INTERACTION_CREATE → callback", move_times.clone())
            );
            println!(
                "  {}",
                summary("autocomplete INTERACTION_CREATE → callback", complete_times)
            );
            println!(
                "  bot memory: {:.1} MB resident, peak {:.1} MB",
                rss as f64 / 1024.0,
                hwm as f64 / 1024.0
            );
        }
        // The delivery queue: from each change's commit to its post.
        let delays: Vec<Duration> = db::delivery_delays(&pool, first)
            .await
            .expect("delays")
            .into_iter()
            .map(|ms| Duration::from_millis(ms.max(0) as u64))
            .collect();
        assert!(!delays.is_empty(), "boards were posted by the queue");
        if full {
            println!(
                "  {}",
                summary("move commit → board posted by the queue", delays)
            );
        }
        assert!(
            move_times.len() >= games.len(),
            "every game got its moves: {}",
            move_times.len()
        );
    }
    // The Move button and its picker, members pausing before each move.
    let t = Instant::now();
    let runs = games.iter().map(|&(k, id, _)| {
        let pair = [&members[2 * k], &members[2 * k + 1]];
        play_picked(&d, &pool, pair, id, scale.moves_per_round, scale.think)
    });
    let results = futures_join_all(runs).await;
    let elapsed = t.elapsed();
    let mut step_times = Vec::new();
    let mut preview_times = Vec::new();
    for (s, p, _) in results {
        step_times.extend(s);
        preview_times.extend(p);
    }
    assert!(
        !preview_times.is_empty(),
        "moves were played with the picker"
    );
    if full {
        println!(
            "round `Move button` (pauses up to {:.1?}): {} picker interactions in {elapsed:.1?}",
            scale.think,
            step_times.len() + preview_times.len()
        );
        println!(
            "  {}",
            summary("picker step (Move, menus, Play) → callback", step_times)
        );
        println!(
            "  {}",
            summary(
                "last step with the preview picture → callback",
                preview_times
            )
        );
    }
    pool.close().await;
    // `/games` of the member with many active games.
    let busy = member(940_000_000_000_000_000);
    let mut games_times = Vec::new();
    for _ in 0..if full { 20 } else { 2 } {
        let data = d.command_data("games", vec![], &[]);
        let (token, event) = d.interaction(2, &busy, data, None);
        let (took, body, _) = timed(&d, token, event).await;
        assert!(
            body["data"]["content"]
                .as_str()
                .is_some_and(|c| c.contains("more.")),
            "{body}"
        );
        games_times.push(took);
    }
    if full {
        println!(
            "  {}",
            summary(
                &format!("/games with {BUSY_GAMES} active games → callback"),
                games_times
            )
        );
    }
    let problems = d.log_problems();
    let violations = d.fake.violations();
    if full {
        println!("warnings in the bot's log: {}", problems.len());
        for p in problems.iter().take(5) {
            println!("  {}", p.chars().take(300).collect::<String>());
        }
    } else {
        assert!(
            problems.is_empty(),
            "the bot logged problems: {problems:#?}"
        );
    }
    assert!(
        violations.is_empty(),
        "requests off the spec: {violations:#?}"
    );
    drop(bot);
}

/// Runs the futures concurrently on this task and collects their results in order.
async fn futures_join_all<F: std::future::Future>(futs: impl Iterator<Item = F>) -> Vec<F::Output> {
    let mut set: Vec<std::pin::Pin<Box<F>>> = futs.map(Box::pin).collect();
    let mut out: Vec<Option<F::Output>> = set.iter().map(|_| None).collect();
    std::future::poll_fn(|cx| {
        let mut pending = false;
        for (f, o) in set.iter_mut().zip(out.iter_mut()) {
            if o.is_none() {
                match f.as_mut().poll(cx) {
                    std::task::Poll::Ready(v) => *o = Some(v),
                    std::task::Poll::Pending => pending = true,
                }
            }
        }
        if pending {
            std::task::Poll::Pending
        } else {
            std::task::Poll::Ready(())
        }
    })
    .await;
    out.into_iter().flatten().collect()
}
