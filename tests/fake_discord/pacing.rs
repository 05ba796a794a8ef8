//! Under Discord's rate limits (the fake enforces them, serenity's limiter runs as in
//! production): a burst of games stays under the global limit, and every board a newer one
//! replaced loses its buttons, even when Discord refuses the edit for a while.

use std::time::{Duration, Instant};

use serde_json::json;

use crate::discord::{Bot, Discord, ANN, BOB};
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_burst_of_games_stays_under_discords_global_limit() {
    const GAMES: usize = 16;
    const MOVES: usize = 5;
    let d = Discord::start("pacing-burst").await;
    let mut bot = Bot::start(&d).await;
    d.fake.wait_ready(1).await;
    let started = Instant::now();
    let mut games = Vec::new();
    for _ in 0..GAMES {
        let ch = d.challenge(&ANN, &BOB, "inphexion", &[]).await;
        games.push(d.accept(&BOB, &ch).await);
    }
    let d = std::sync::Arc::new(d);
    let players: Vec<_> = games
        .into_iter()
        .map(|mut g| {
            let d = d.clone();
            tokio::spawn(async move {
                for _ in 0..MOVES {
                    g = d.play_suggested(&g).await;
                }
            })
        })
        .collect();
    for p in players {
        p.await.expect("a game's moves");
    }
    no_stale_buttons(&d, Duration::from_secs(60)).await;
    let limits = &d.fake.state.limits;
    assert_eq!(limits.global_429(), 0, "requests over the global limit");
    assert_eq!(limits.invalid(), 0, "requests Discord counts as invalid");
    d.end(&mut bot, "pacing-burst", started).await;
}
