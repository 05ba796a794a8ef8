//! Correspondence time on a clock the test moves: a Fischer game across a weekend off, the Next
//! game button, a pause proposed, accepted and ended by both players, and a daily digest sent
//! once (also after a restart) to a member with three games waiting, the least time first.

use std::time::Instant;

use serde_json::{json, Value};

use crate::common::{self, db_value, opt_str, posts_where, DAY, HOUR};
use crate::discord::{self, Bot, Discord, Member, ANN, BOB, CAT, MOD};

/// Friday 15 March 2030, 12:00 UTC.
const FRIDAY_NOON: i64 = 1_899_806_400;
/// Saturday 00:00 and Monday 00:00 UTC after it.
const SATURDAY: i64 = FRIDAY_NOON + 12 * HOUR;
const MONDAY: i64 = SATURDAY + 2 * DAY;

/// A stored integer of game `id` (`None` when NULL).
async fn game_value(d: &Discord, column: &str, id: i64) -> Option<i64> {
    let sql = match column {
        "deadline_at" => "SELECT deadline_at FROM games WHERE id = $1",
        "first_bank" => "SELECT first_bank FROM games WHERE id = $1",
        other => panic!("no column {other} here"),
    };
    db_value(d, sql, id).await
}

/// A legal move of game `id` as it stands, and the ply it makes.
async fn a_legal_move(d: &Discord, id: i64) -> (String, i64) {
    let pool = hexcord::db::connect(&d.db_url).await.expect("db");
    let mut conn = pool.acquire().await.expect("connection");
    let (_, game) = hexcord::db::load_game(&mut conn, id)
        .await
        .expect("load")
        .expect("the game");
    (game.legal_notations()[0].clone(), game.ply() as i64 + 1)
}

/// `who` moves in game `id` with `/move`; the answer, once the board after it is posted.
async fn play(d: &Discord, who: &Member, id: i64) -> discord::Answer {
    let (mv, ply) = a_legal_move(d, id).await;
    let from = d.fake.request_count();
    let ans = d
        .command(
            who,
            "move",
            vec![opt_str("move", &mv), opt_str("game", &id.to_string())],
        )
        .await;
    assert!(ans.ephemeral, "{ans:?}");
    d.board_post(from, id, ply).await;
    ans
}

fn custom_ids(components: &Value) -> Vec<String> {
    discord::components_of(components)
        .filter_map(|c| c["custom_id"].as_str().map(str::to_string))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fischer_weekends_off_next_game_and_a_pause() {
    let started = Instant::now();
    let d = Discord::start_with_clock("fischer", FRIDAY_NOON).await;
    let mut bot = Bot::start(&d).await;
    d.fake.wait_ready(1).await;
    let size5 = json!({"name": "size", "type": 4, "value": 5});
    // Fischer: 1 day + 1 a move, at most 3; weekends off (UTC: no time zone set).
    let fischer = json!({"name": "clock", "type": 4, "value": 1});
    let weekends = json!({"name": "weekends_off", "type": 5, "value": true});
    let ch = d
        .challenge(&ANN, &BOB, "inphexion", &[size5.clone(), fischer, weekends])
        .await;
    let text = ch.message["content"].as_str().unwrap_or("");
    assert!(
        text.contains("Fischer clock: 1 d + 1 d a move, at most 3 d, weekends off"),
        "{text}"
    );
    let g1 = d.accept(&BOB, &ch).await;
    // Twelve hours to Saturday, then nothing until Monday: the bank runs out Monday noon.
    assert_eq!(
        game_value(&d, "deadline_at", g1.id).await,
        Some(MONDAY + 12 * HOUR)
    );
    // A second game waits for Ann: 7 days + 2 a move, no weekends off (the server's default).
    let long = json!({"name": "clock", "type": 4, "value": 3});
    let ch2 = d
        .challenge(&ANN, &CAT, "inphexion", &[size5.clone(), long])
        .await;
    let g2 = d.accept(&CAT, &ch2).await;
    assert_eq!(
        game_value(&d, "deadline_at", g2.id).await,
        Some(FRIDAY_NOON + 7 * DAY)
    );

    // Sunday noon: the weekend took nothing, Ann moves with 12 hours left and keeps 36.
    d.set_clock(SATURDAY + DAY + 12 * HOUR);
    // `/turn` shows the bank left (12 hours), not the 24 hours to Monday noon.
    let turn = d.command(&ANN, "turn", vec![]).await;
    assert!(turn.content.contains("12 h 0 min left"), "{turn:?}");
    let played = play(&d, &ANN, g1.id).await;
    assert_eq!(
        custom_ids(&played.components),
        [format!("hx:move:{}", g2.id)],
        "the Next game button opens the other game: {played:?}"
    );
    assert_eq!(game_value(&d, "first_bank", g1.id).await, Some(36 * HOUR));
    // Bob's day starts on Monday.
    assert_eq!(
        game_value(&d, "deadline_at", g1.id).await,
        Some(MONDAY + DAY)
    );
    // The Next game button opens the Move flow of game 2.
    let next = d
        .press_id(&ANN, &d.shown(&played), &format!("hx:move:{}", g2.id))
        .await;
    assert!(
        next.ephemeral
            && custom_ids(&next.components)
                .iter()
                .any(|id| id.starts_with(&format!("hx:pick:{}:", g2.id))),
        "{next:?}"
    );

    // Bob proposes a two-day pause; Ann accepts: his deadline moves two days.
    d.set_clock(MONDAY + 6 * HOUR);
    let days = json!({"name": "days", "type": 4, "value": 2});
    let proposal = d
        .command(
            &BOB,
            "pause",
            vec![days, opt_str("game", &g1.id.to_string())],
        )
        .await;
    assert!(
        !proposal.ephemeral && proposal.content.contains("proposes to pause"),
        "{proposal:?}"
    );
    assert_eq!(proposal.allowed_users, [ANN.id]);
    let ids = custom_ids(&proposal.components);
    let accept = ids
        .iter()
        .find(|id| id.starts_with("hx:pzyes:"))
        .expect("an accept button");
    // Bob cannot answer his own proposal.
    let own = d.press_id(&BOB, &d.shown(&proposal), accept).await;
    assert!(own.ephemeral, "{own:?}");
    let answered = d.press_id(&ANN, &d.shown(&proposal), accept).await;
    assert!(answered.content.contains("accepted"), "{answered:?}");
    assert_eq!(
        game_value(&d, "deadline_at", g1.id).await,
        Some(MONDAY + 3 * DAY)
    );
    // A day later both ask to resume: the clock runs again from then.
    d.set_clock(MONDAY + DAY + 6 * HOUR);
    let game = opt_str("game", &g1.id.to_string());
    let asked = d.command(&BOB, "resume", vec![game.clone()]).await;
    assert!(asked.content.contains("wants to resume"), "{asked:?}");
    let resumed = d.command(&ANN, "resume", vec![game]).await;
    assert!(resumed.content.contains("runs again"), "{resumed:?}");
    assert_eq!(
        game_value(&d, "deadline_at", g1.id).await,
        Some(MONDAY + 2 * DAY)
    );
    d.end(&mut bot, "fischer", started).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_daily_digest_least_time_first_sent_once() {
    let started = Instant::now();
    let d = Discord::start_with_clock("digest", FRIDAY_NOON).await;
    let mut bot = Bot::start(&d).await;
    d.fake.wait_ready(1).await;
    // Bob takes one digest a day at 13:00 (UTC) instead of a notice per move.
    let set = d
        .command(
            &BOB,
            "settings",
            vec![
                json!({"name": "notifications", "type": 4, "value": 1}),
                json!({"name": "digest_hour", "type": 4, "value": 13}),
            ],
        )
        .await;
    assert!(set.content.contains("One digest a day at 13:00"), "{set:?}");
    let size5 = json!({"name": "size", "type": 4, "value": 5});
    // Three games wait for Bob: 14, 3 and 7 days per move.
    let mut games = Vec::new();
    for (who, days) in [(&ANN, 3), (&CAT, 1), (&MOD, 2)] {
        let per_move = json!({"name": "days_per_move", "type": 4, "value": days});
        let ch = d
            .challenge(who, &BOB, "inphexion", &[size5.clone(), per_move])
            .await;
        let g = d.accept(&BOB, &ch).await;
        play(&d, who, g.id).await;
        games.push(g.id);
    }
    let [fourteen, three, seven] = games[..] else {
        panic!("three games")
    };
    // Saturday 13:00: one direct message, least time first, with links to the boards.
    let from = d.fake.request_count();
    d.set_clock(SATURDAY + 13 * HOUR);
    let digest = d.posted(from, None, "wait for your move").await;
    let body = digest.json.clone().unwrap_or_default();
    let content = body["content"].as_str().unwrap_or("");
    let at = |id: i64| {
        content
            .find(&format!("#{id} "))
            .unwrap_or_else(|| panic!("game {id} not in {content}"))
    };
    assert!(
        at(three) < at(seven) && at(seven) < at(fourteen),
        "{content}"
    );
    assert!(
        content.contains("https://discord.com/channels/"),
        "{content}"
    );
    // After a restart later that day, no second digest.
    bot.kill().await;
    d.set_clock(SATURDAY + 15 * HOUR);
    let mut bot = Bot::restart(&d, bot).await;
    d.fake.wait_ready(2).await;
    d.set_clock(SATURDAY + 15 * HOUR + 60);
    tokio::time::sleep(std::time::Duration::from_millis(600)).await;
    let digests = posts_where(&d, from, |r| {
        common::content(r).contains("wait for your move")
    })
    .len();
    assert_eq!(digests, 1, "the digest is sent once a day");
    d.end(&mut bot, "digest", started).await;
}
