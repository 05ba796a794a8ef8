//! Helpers the scenarios share: options, database reads, counts of posts, a move worth
//! playing, and a move made while no bot hears it.

use rand::rngs::SmallRng;
use rand::Rng;
use serde_json::json;

use crate::discord::{Discord, Member};
use crate::server::Recorded;

pub fn opt_str(name: &str, value: &str) -> serde_json::Value {
    json!({"name": name, "type": 3, "value": value})
}

pub const HOUR: i64 = 3600;
pub const DAY: i64 = 24 * HOUR;

pub async fn db_value(d: &Discord, sql: &'static str, id: i64) -> Option<i64> {
    let pool = hexcord::db::connect(&d.db_url).await.expect("db");
    let v = sqlx::query_scalar(sql)
        .bind(id)
        .fetch_one(&pool)
        .await
        .expect("query");
    pool.close().await;
    v
}

/// The new posts since request `from` that `keep` picks: messages members saw, so a post repeated
/// with the same nonce (the bot killed after posting, before marking it sent) counts once.
pub fn posts_where(d: &Discord, from: usize, keep: impl Fn(&Recorded) -> bool) -> Vec<Recorded> {
    d.fake
        .state
        .requests
        .lock()
        .unwrap()
        .iter()
        .skip(from)
        .filter(|r| r.is_new_post() && keep(r))
        .cloned()
        .collect()
}

/// A recorded request's message text ("" when it has none).
pub fn content(r: &Recorded) -> &str {
    r.json
        .as_ref()
        .and_then(|j| j["content"].as_str())
        .unwrap_or("")
}

/// The posts members saw whose content contains every one of `needles`.
pub fn posts_with(d: &Discord, needles: &[&str]) -> usize {
    posts_where(d, 0, |r| {
        let c = content(r);
        !c.is_empty() && needles.iter().all(|n| c.contains(n))
    })
    .len()
}

/// The board posts of move `ply` of `game` that members saw (new posts, not repeated nonces).
pub fn boards_seen(d: &Discord, game: i64, ply: i64) -> usize {
    posts_with(
        d,
        &[&format!("game #{game} "), &crate::discord::move_marker(ply)],
    )
}

/// A test on a move's notation and words.
type MoveTest = dyn Fn(&str, &str) -> bool;

/// A move for the picker games: the kinds of move the picker must handle come first (swap,
/// relocations, expansions with a chain, any expansion), each most of the time, else any move.
pub fn interesting_move(game: &hexcord::games::Game, rng: &mut SmallRng) -> hexcord::games::Move {
    use hexcord::play::picker::describe;
    let moves = game.legal_moves();
    let words: Vec<String> = moves
        .iter()
        .map(|m| describe(hexcord::i18n::Lang::EN, game.position(), m))
        .collect();
    let kinds: [&MoveTest; 4] = [
        &|n, _| n == "swap",
        &|n, _| n.contains('>'),
        &|_, w| w.contains("chain"),
        &|n, _| n.starts_with('+'),
    ];
    for kind in kinds {
        let set: Vec<usize> = (0..moves.len())
            .filter(|&i| kind(&moves[i].to_string(), &words[i]))
            .collect();
        if !set.is_empty() && rng.random_bool(0.7) {
            return moves[set[rng.random_range(0..set.len())]];
        }
    }
    moves[rng.random_range(0..moves.len())]
}

/// `who` plays the first legal move of game `id` through the same action as `/move` (the move
/// and its board queued in one transaction), straight on the database, while no bot process
/// hears it.
pub async fn move_without_the_bot(d: &Discord, id: i64, who: &Member) {
    let pool = hexcord::db::connect(&d.db_url).await.expect("db");
    let mut conn = pool.acquire().await.expect("connection");
    let (row, game) = hexcord::db::load_game(&mut conn, id)
        .await
        .expect("load")
        .expect("the game");
    drop(conn);
    let mv = game.legal_notations()[0].clone();
    let core = hexcord::play::actions::Core::new(pool.clone(), hexcord::clock::Clock::System);
    hexcord::play::actions::play_move(
        &core,
        row.id,
        hexcord::db::UserId(who.id),
        &mv,
        Some(game.ply() as i64),
    )
    .await
    .expect("the member's move");
    pool.close().await;
}
