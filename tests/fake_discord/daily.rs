//! The daily puzzle on a clock the test moves: a moderator sets it (a member may not, a channel
//! that refuses the bot is told at once), the hour passes and the post appears with its picture
//! and Solve button, a member solves it privately, the next day's post gives the solution and
//! the solver's name (no ping) before the new puzzle, a restart posts nothing twice, the first
//! puzzle never comes again, and a refused post reaches the moderator by direct message. In
//! Japanese too, in the server's time zone.

use std::time::Instant;

use serde_json::{json, Value};

use crate::common::{posts_where, DAY, HOUR};
use crate::discord::{self, Bot, Discord, ANN, BOB, MOD};
use crate::server::{Fault, Recorded};

/// Monday 18 March 2030, 08:00 UTC.
const MONDAY_8: i64 = 1_900_051_200;

/// Stores puzzles on real positions of 5×5 inpHeXion (after 0, 1, … first legal moves), their
/// solution the first legal move there, before the bot starts: their numbers and solutions.
/// They come from a finished game of cat's and mod's in the server (the bot retires starter
/// puzzles it no longer ships, so these are not stored as starter ones).
async fn seed_puzzles(d: &Discord, n: usize) -> Vec<(i64, hexcord::puzzles::Puzzle)> {
    use hexcord::db::{self, ChannelId, GuildId, UserId};
    use hexcord::games::{Game, GameKind, Options};
    let pool = db::connect(&d.db_url).await.expect("db");
    let players = [UserId(discord::CAT.id), UserId(discord::MOD.id)];
    for (id, name) in players.iter().zip(["cat", "mod"]) {
        db::upsert_player(&pool, *id, name, 1)
            .await
            .expect("player");
    }
    let game = db::insert_game(
        &pool,
        &db::NewGame {
            guild_id: Some(GuildId(crate::server::GUILD_ID)),
            channel_id: ChannelId(crate::server::CHANNEL_ID),
            options: &Options::parse_line("inphexion size=5").expect("options"),
            players,
            rated: false,
            now: 1,
            seconds_per_move: 86_400,
            deadline_at: None,
            clock: None,
        },
    )
    .await
    .expect("game");
    let mut tx = pool.begin().await.expect("tx");
    let done = db::Finish {
        kind: GameKind::Inphexion,
        result: db::GameResult::Aborted { by: "mod".into() },
        winner_id: None,
    };
    db::finish_game(&mut *tx, game, 0, &done, 1)
        .await
        .expect("finished");
    tx.commit().await.expect("commit");
    let origin = db::Origin::Game { game, players };
    let mut stored = Vec::new();
    for ply in 0..n {
        let variant = "inphexion size=5";
        let mut game = Game::new(Options::parse_line(variant).unwrap());
        for _ in 0..ply {
            let mv = game.legal_moves()[0];
            game.play(mv).unwrap();
        }
        let pos = game.position();
        let answer = game.legal_notations()[0].clone();
        let puzzle = hexcord::puzzles::Puzzle {
            variant: variant.to_string(),
            position: pos.to_line(),
            to_move: pos.to_move().index() as u8,
            solution: vec![answer],
            difficulty: 2,
            chance: 0.9,
            second: 0.1,
            source: hexcord::puzzles::Source::default(),
            proof: None,
        };
        let id = db::store_puzzle(&pool, &puzzle, origin, 1)
            .await
            .expect("store")
            .expect("a new puzzle");
        stored.push((id, puzzle));
    }
    pool.close().await;
    stored
}

fn daily_opts(hour: i64) -> Vec<Value> {
    vec![json!({"name": "hour", "type": 4, "value": hour})]
}

/// The daily posts of puzzle `id` members saw.
fn daily_posts_of(d: &Discord, id: i64) -> Vec<Recorded> {
    let custom = format!("hx:daily:{id}");
    posts_where(d, 0, |r| {
        r.json
            .as_ref()
            .is_some_and(|j| j["components"].to_string().contains(&custom))
    })
}

/// Waits for the daily post of puzzle `id` after request `from`.
async fn daily_post(d: &Discord, from: usize, id: i64) -> Recorded {
    let custom = format!("hx:daily:{id}");
    let (_, r) = d
        .fake
        .wait_for(from, &format!("the daily post of puzzle {id}"), |r| {
            r.is_new_post()
                && r.json
                    .as_ref()
                    .is_some_and(|j| j["components"].to_string().contains(&custom))
        })
        .await;
    r
}

/// The post is a real PNG with its description, and its one button is Solve.
fn check_post(post: &Recorded, id: i64, label: &str) {
    assert_eq!(post.files.len(), 1, "one picture: {post:?}");
    assert!(
        post.files[0].1.starts_with(b"\x89PNG\r\n\x1a\n") && post.files[0].1.len() > 1000,
        "a real PNG"
    );
    let body = post.json.as_ref().expect("a JSON body");
    let ids: Vec<&str> = discord::components_of(&body["components"])
        .filter_map(|c| c["custom_id"].as_str())
        .collect();
    assert_eq!(ids, [format!("hx:daily:{id}")], "{body}");
    assert!(body["components"].to_string().contains(label), "{body}");
    assert!(
        body["attachments"][0]["description"]
            .as_str()
            .is_some_and(|a| !a.is_empty()),
        "{body}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_daily_puzzle_posted_solved_and_answered_the_next_day() {
    let started = Instant::now();
    let d = Discord::start_with_clock("daily", MONDAY_8).await;
    let puzzles = seed_puzzles(&d, 2).await;
    let (first, first_puzzle) = puzzles[0].clone();
    let first_answer = first_puzzle.solution[0].clone();
    let (second, _) = puzzles[1].clone();
    let mut bot = Bot::start(&d).await;
    d.fake.wait_ready(1).await;
    let channel = d.channel();
    let posts = format!("/channels/{channel}/messages");

    // A member may not set it; nothing is saved.
    let refused = d.command(&ANN, "daily_puzzle", daily_opts(9)).await;
    assert!(
        refused.ephemeral && refused.content.contains("manage the server"),
        "{refused:?}"
    );
    // A channel that refuses the bot is told at once, and nothing is saved.
    d.fake.inject(Fault::missing_permissions(posts.clone(), 1));
    let denied = d.command(&MOD, "daily_puzzle", daily_opts(9)).await;
    assert!(
        denied.ephemeral
            && denied.content.contains("Nothing saved")
            && denied.content.contains(&format!("<#{channel}>")),
        "{denied:?}"
    );
    let unset = d.command(&MOD, "daily_puzzle", vec![]).await;
    assert!(unset.content.contains("no daily puzzle"), "{unset:?}");
    // The moderator sets it: checked by a post in the channel.
    let from = d.fake.request_count();
    let saved = d.command(&MOD, "daily_puzzle", daily_opts(9)).await;
    assert!(
        saved.ephemeral && saved.content.contains("9:00 (UTC"),
        "{saved:?}"
    );
    d.posted(from, Some(channel), "every day at 9:00").await;

    // 09:00: the first puzzle (the hour itself is checked in hexcord::play::daily's tests).
    assert!(daily_posts_of(&d, first).is_empty());
    let from = d.fake.request_count();
    d.set_clock(MONDAY_8 + HOUR);
    let post = daily_post(&d, from, first).await;
    check_post(&post, first, "Solve");
    let text = post.json.as_ref().unwrap()["content"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        text.contains("Daily puzzle") && text.contains("difficulty 2/5"),
        "{text}"
    );
    let message = d.shown_post(post.json.as_ref().unwrap());

    // Ann solves it privately, with the puzzle's picker.
    let solving = d
        .press_id(&ANN, &message, &format!("hx:daily:{first}"))
        .await;
    assert!(
        solving.ephemeral && solving.files.len() == 1 && solving.content.contains("daily puzzle"),
        "{solving:?}"
    );
    let game = hexcord::play::puzzles::at_step(&first_puzzle, 0).expect("the puzzle replays");
    let mv = game
        .legal_moves()
        .into_iter()
        .find(|m| m.to_string() == first_answer)
        .expect("a legal answer");
    let solved = crate::puzzles::pick(&d, &ANN, &solving, &game, mv).await;
    assert!(solved.content.contains("Solved"), "{solved:?}");
    // Only the first attempt counts: pressing again is refused.
    let again = d
        .press_id(&ANN, &message, &format!("hx:daily:{first}"))
        .await;
    assert!(
        again.ephemeral && again.content.contains("tried this puzzle already"),
        "{again:?}"
    );

    // A restart the same day posts nothing again.
    bot = Bot::restart(&d, bot).await;
    d.fake.wait_ready(2).await;
    d.set_clock(MONDAY_8 + 5 * HOUR);
    // (Had it posted again, the second puzzle would have gone today, with the solution.)

    // Tuesday 09:00: the solution and Ann's name (no ping), then the second puzzle.
    let from = d.fake.request_count();
    d.set_clock(MONDAY_8 + DAY + HOUR);
    let solution = d.posted(from, Some(channel), "solution").await;
    let body = solution.json.as_ref().unwrap();
    let said = body["content"].as_str().unwrap();
    assert!(
        said.contains(&format!("** ({first_answer})")) && said.contains("Solved by 1 member: ann"),
        "{said}"
    );
    assert!(!said.contains("<@"), "{said}");
    assert!(
        body["allowed_mentions"]["users"]
            .as_array()
            .is_none_or(|u| u.is_empty())
            && !body["allowed_mentions"]["parse"]
                .to_string()
                .contains("users"),
        "no pings: {body}"
    );
    let new = daily_post(&d, from, second).await;
    check_post(&new, second, "Solve");
    assert!(solution.at <= new.at, "the solution comes first");
    // Yesterday's Solve: its button was taken off, and an old press is told it is over.
    let late = d
        .press_id(&BOB, &message, &format!("hx:daily:{first}"))
        .await;
    assert!(
        late.ephemeral && late.content.contains("is over"),
        "{late:?}"
    );
    // A forged Solve for a puzzle never posted here changes nothing.
    let forged_message = d.shown_post(&json!({
        "content": "x",
        "components": [{"type": 1, "components": [{"type": 2, "style": 1, "label": "Solve",
                                                   "custom_id": "hx:daily:999"}]}]
    }));
    let forged = d.press_id(&BOB, &forged_message, "hx:daily:999").await;
    assert!(
        forged.ephemeral && forged.content.contains("not one of this server's"),
        "{forged:?}"
    );

    // Wednesday: the next puzzle (one of the starter set's, imported at start-up) with Tuesday's
    // solution is refused for good, and reaches the moderator. ("None left", said once, is
    // checked in hexcord::play::daily's tests: the starter set is never used up here.)
    d.fake.inject(Fault::missing_permissions(posts.clone(), 1));
    let from = d.fake.request_count();
    d.set_clock(MONDAY_8 + 2 * DAY + HOUR);
    let (_, told) = d
        .fake
        .wait_for(from, "the moderator told by direct message", |r| {
            r.is_new_post()
                && r.path != posts
                && r.json.as_ref().is_some_and(|j| {
                    j["content"].as_str().is_some_and(|c| {
                        c.contains("Missing Permissions") && c.contains("solution")
                    })
                })
        })
        .await;
    assert!(told.path.starts_with("/channels/"), "{told:?}");
    // The moderator reads the setting.
    d.set_clock(MONDAY_8 + 3 * DAY + HOUR);
    let state = d.command(&BOB, "daily_puzzle", vec![]).await;
    assert!(
        state.ephemeral && state.content.contains(&format!("<#{channel}>")),
        "{state:?}"
    );
    // The first puzzle was never posted again.
    assert_eq!(daily_posts_of(&d, first).len(), 1);
    assert_eq!(daily_posts_of(&d, second).len(), 1);

    bot.kill().await;
    let v = d.fake.violations();
    assert!(v.is_empty(), "requests that break Discord's spec: {v:#?}");
    let problems = d.log_problems();
    assert!(
        problems.len() == 1 && problems[0].contains("cannot post in a channel"),
        "only the refusal: {problems:#?}"
    );
    eprintln!("daily end-to-end took {:?}", started.elapsed());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_japanese_servers_daily_puzzle_comes_at_its_own_hour() {
    let started = Instant::now();
    // Sunday 17 March 2030, 23:30 UTC: 08:30 on Monday in Tokyo.
    let d = Discord::start_with_clock("daily-ja", MONDAY_8 - 8 * HOUR - 30 * 60).await;
    let puzzles = seed_puzzles(&d, 1).await;
    let mut bot = Bot::start(&d).await;
    d.fake.wait_ready(1).await;
    d.speak("ja");
    let zone = d
        .command(
            &MOD,
            "server",
            vec![crate::common::opt_str("timezone", "Asia/Tokyo")],
        )
        .await;
    assert!(zone.ephemeral, "{zone:?}");
    let from = d.fake.request_count();
    let saved = d.command(&MOD, "daily_puzzle", daily_opts(9)).await;
    assert!(saved.content.contains("9:00（Asia/Tokyo"), "{saved:?}");
    d.posted(from, Some(d.channel()), "今日のパズルを出します")
        .await;
    assert!(
        daily_posts_of(&d, puzzles[0].0).is_empty(),
        "08:30 in Tokyo"
    );
    let from = d.fake.request_count();
    d.set_clock(MONDAY_8 - 8 * HOUR);
    let post = daily_post(&d, from, puzzles[0].0).await;
    check_post(&post, puzzles[0].0, "解く");
    let text = post.json.as_ref().unwrap()["content"].as_str().unwrap();
    assert!(
        text.contains("今日のパズル") && text.contains("難易度 2/5"),
        "{text}"
    );
    d.end(&mut bot, "daily in Japanese", started).await;
}
