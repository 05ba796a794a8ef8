//! Under Discord's rate limits (the fake enforces them, serenity's limiter runs as in
//! production): a burst of games stays under the global limit, and every board a newer one
//! replaced loses its buttons, even when Discord refuses the edit for a while.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::json;

use crate::discord::{caption_plies, Bot, Discord, ANN, BOB};
use crate::server::Fault;

/// Waits until no board that a newer one replaced shows buttons.
async fn no_stale_buttons(d: &Discord, within: Duration) {
    let deadline = Instant::now() + within;
    loop {
        let left = d.fake.superseded_with_buttons();
        if left.is_empty() {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "boards replaced by newer ones still show their buttons: {left:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn old_boards_lose_their_buttons_although_discord_refuses_for_a_while() {
    let d = Discord::start("pacing-retire").await;
    let mut bot = Bot::start(&d).await;
    d.fake.wait_ready(1).await;
    let started = Instant::now();
    let ch = d.challenge(&ANN, &BOB, "inphexion", &[]).await;
    let mut g = d.accept(&BOB, &ch).await;
    g = d.play_suggested(&g).await;
    let (thread, _) = d.fake.thread_of(g.id).expect("the game's thread");
    // The next edits of old boards in the thread fail: twice a server error, then a 429 for
    // the route with Retry-After (serenity waits and sends again).
    let edits = format!("/channels/{thread}/messages/*");
    for (status, retry_after) in [(502, None), (502, None), (429, Some(0.3))] {
        d.fake.inject(Fault {
            method: "PATCH",
            path: edits.clone(),
            status,
            body: json!({"message": "refused for a while", "code": 0, "retry_after": 0.3, "global": false}),
            retry_after,
            times: 1,
            delay: Duration::ZERO,
        });
    }
    for _ in 0..3 {
        g = d.play_suggested(&g).await;
    }
    // The backoff of the delivery queue: 1 s, then 2 s.
    no_stale_buttons(&d, Duration::from_secs(30)).await;
    // Every refusal was met: the edits were made, refused and tried again.
    assert!(
        d.fake
            .state
            .faults
            .lock()
            .unwrap()
            .iter()
            .all(|f| f.times == 0),
        "every refusal was met"
    );
    d.end(&mut bot, "pacing-retire", started).await;
}

/// Plays a burst of `games` games between Ann and Bob, `moves` moves each, all at once, while
/// Discord answers the post of the first game's next board only after 15 s, longer than a
/// delivery's lease (`LEASE_MS`), while the burst's other boards go on. Checks that each game's
/// boards came out once each and in order (each shows later moves than the one before, the last
/// shows the last move, no post was sent twice), that only each game's latest board keeps its
/// buttons, and that the global limit held (with `processes` bot processes).
async fn burst(d: &Arc<Discord>, processes: usize, games: usize, moves: usize) {
    let mut states = Vec::new();
    for _ in 0..games {
        let ch = d.challenge(&ANN, &BOB, "inphexion", &[]).await;
        states.push(d.accept(&BOB, &ch).await);
    }
    let from = d.fake.request_count();
    let ids: Vec<i64> = states.iter().map(|g| g.id).collect();
    let (thread, _) = d.fake.thread_of(ids[0]).expect("the game's thread");
    d.fake.inject(Fault {
        method: "POST",
        path: format!("/channels/{thread}/messages"),
        status: 200,
        body: json!({}),
        retry_after: None,
        times: 1,
        delay: Duration::from_secs(15),
    });
    let players: Vec<_> = states
        .into_iter()
        .enumerate()
        .map(|(i, mut g)| {
            let d = d.clone();
            tokio::spawn(async move {
                for m in 0..moves {
                    g = d.play_suggested(&g).await;
                    // The slow game's next move is made before the late answer comes, the rest
                    // after it.
                    while i == 0 && m == 1 && d.fake.state.held.load(Ordering::SeqCst) > 0 {
                        tokio::time::sleep(Duration::from_millis(20)).await;
                    }
                }
            })
        })
        .collect();
    for p in players {
        p.await.expect("a game's moves");
    }
    no_stale_buttons(d, Duration::from_secs(60)).await;
    let requests = d.fake.state.requests.lock().unwrap()[from..].to_vec();
    assert!(
        requests.iter().all(|r| !r.duplicate),
        "a post was sent again after it was made"
    );
    for id in ids {
        let game_ref = format!("game #{id} ");
        let shown: Vec<usize> = requests
            .iter()
            .filter(|r| r.is_new_post() && r.files.len() == 1)
            .filter_map(|r| r.json.as_ref()?["content"].as_str())
            .filter(|c| c.contains(&game_ref))
            .flat_map(caption_plies)
            .collect();
        assert!(
            shown.windows(2).all(|w| w[0] < w[1]) && shown.last() == Some(&moves),
            "game #{id}'s boards showed moves {shown:?}, not 1 to {moves} once each in order"
        );
    }
    let limits = &d.fake.state.limits;
    assert_eq!(limits.global_429(), 0, "requests over the global limit");
    // Each process's limiter knows a channel's bucket from its own answers only: processes
    // posting in one channel at once may meet its limit, and wait as Discord says. Nothing else
    // is refused.
    let route_429 = if processes == 1 {
        0
    } else {
        limits.route_429()
    };
    assert_eq!(
        limits.invalid(),
        route_429,
        "requests Discord counts as invalid"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_burst_of_games_stays_under_discords_global_limit() {
    let d = Discord::start("pacing-burst").await;
    let mut bot = Bot::start(&d).await;
    d.fake.wait_ready(1).await;
    let started = Instant::now();
    let d = Arc::new(d);
    burst(&d, 1, 16, 5).await;
    d.end(&mut bot, "pacing-burst", started).await;
}

/// Two processes (a shard each) on one PostgreSQL database share the delivery of one server's
/// burst: each board still goes out once, in order, whichever process takes it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_burst_shared_by_two_processes_posts_each_board_once_in_order() {
    let mut d = Discord::start("pacing-two").await;
    d.db_url = hexcord::db::testing::new_pg_database().await;
    let shard = |range: &'static str| [("SHARD_COUNT", "2"), ("SHARD_RANGE", range)];
    let mut first = Bot::start_with(&d, &shard("0")).await;
    let mut second = Bot::start_with(&d, &shard("1")).await;
    d.fake.wait_ready(2).await;
    let started = Instant::now();
    let d = Arc::new(d);
    burst(&d, 2, 24, 6).await;
    first.kill().await;
    d.end(&mut second, "pacing-two", started).await;
}
