//! Two bot processes on one PostgreSQL database share the shards and the work: each move and
//! board once.

use std::time::Instant;

use serde_json::json;

use crate::common::{boards_seen, move_without_the_bot, posts_with, DAY};
use crate::discord::{Bot, Discord, ANN, BOB, CAT};
use crate::server;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_share_the_shards_and_the_work() {
    use server::Fault;
    use std::time::Duration;
    let started = Instant::now();
    let t0: i64 = 1_900_000_000;
    let mut d = Discord::start_with_clock("shards", t0).await;
    // One PostgreSQL database (a throwaway cluster the test starts) for both processes, which
    // start at the same moment: the migrations are applied once, not raced.
    d.db_url = hexcord::db::testing::new_pg_database().await;
    let shard = |range: &'static str| [("SHARD_COUNT", "2"), ("SHARD_RANGE", range)];
    let mut first = Bot::start_with(&d, &shard("0")).await;
    let mut second = Bot::start_with(&d, &shard("1")).await;
    d.fake.wait_ready(2).await;
    // Each process identified with its own shard, and the commands were registered once.
    let registrations = |d: &Discord| {
        d.fake
            .state
            .requests
            .lock()
            .unwrap()
            .iter()
            .filter(|r| r.method == "PUT" && r.path.ends_with("/commands"))
            .count()
    };
    assert_eq!(registrations(&d), 1);

    // A game in each server: each server's commands reach the process running its shard.
    let size5 = json!({"name": "size", "type": 4, "value": 5});
    let one_day = json!({"name": "days_per_move", "type": 4, "value": 0});
    let mut games = Vec::new();
    for server in 0..2 {
        d.in_server(server);
        // One day per move in the first server, the default (three) in the second.
        let options = [vec![size5.clone(), one_day.clone()], vec![size5.clone()]];
        let ch = d.challenge(&ANN, &BOB, "inphexion", &options[server]).await;
        let g = d.accept(&BOB, &ch).await;
        games.push(d.play_suggested(&g).await);
    }
    // And a game against the bot in the first server.
    d.in_server(0);
    let versus_bot = d
        .play_bot(&CAT, "inphexion", 0, std::slice::from_ref(&size5))
        .await;
    assert_eq!(versus_bot.to_move, CAT.id);
    {
        let dispatched = d.fake.state.dispatched.lock().unwrap();
        assert!(dispatched.get(&0).is_some_and(|&n| n > 0), "{dispatched:?}");
        assert!(dispatched.get(&1).is_some_and(|&n| n > 0), "{dispatched:?}");
    }

    // The first server's process is killed (kill -9) while it posts a board: the board stays
    // queued, and the other process posts it once the first one's claim has run out.
    d.in_server(0);
    let (thread, _) = d.fake.thread_of(games[0].id).expect("the game's thread");
    d.fake.inject(Fault {
        method: "POST",
        path: format!("/channels/{thread}/messages"),
        status: 500,
        body: json!({"message": "held", "code": 0}),
        retry_after: None,
        times: 1,
        delay: Duration::from_secs(60),
    });
    let ply = d.send_suggested(&games[0]).await;
    let wait = Instant::now();
    while d.fake.state.held.load(std::sync::atomic::Ordering::SeqCst) == 0 {
        assert!(wait.elapsed() < Duration::from_secs(20), "the board post");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    first.kill().await;
    let game_ref = format!("game #{} ", games[0].id);
    d.board_post(0, games[0].id, ply).await;
    // The bot's turn comes in that server's game while its process is dead: the other process
    // takes the turn and plays, once.
    let from = d.fake.request_count();
    move_without_the_bot(&d, versus_bot.id, &CAT).await;
    let after_bot = d.bot_move(from, &versus_bot).await;
    assert_eq!(after_bot.to_move, CAT.id);
    assert_eq!(d.move_count(versus_bot.id).await, 2);
    // And its deadline passes while nothing runs its server's shard: the other process times
    // the game out and posts the result there, once.
    let from = d.fake.request_count();
    d.set_clock(t0 + DAY + 60);
    d.posted(from, Some(server::CHANNEL_ID), "ran out of time")
        .await;
    assert_eq!(d.game_status(games[0].id).await, "finished");

    // The first process comes back: nothing is posted twice.
    let from = d.fake.request_count();
    let first_again = Bot::start_with(&d, &shard("0")).await;
    d.fake.wait_ready(3).await;
    d.fake
        .wait_for(from, "the commands registered again", |r| {
            r.method == "PUT" && r.path.ends_with("/commands")
        })
        .await;
    // Both servers are served again, members of both acting at once.
    let (turn, _) = tokio::join!(d.command_in(0, &CAT, "turn", vec![]), async {
        d.in_server(1);
        d.play_suggested(&games[1]).await
    });
    assert!(
        turn.ephemeral && turn.content.contains(&format!("#{}", versus_bot.id)),
        "{turn:?}"
    );
    assert_eq!(boards_seen(&d, games[0].id, ply), 1);
    assert_eq!(boards_seen(&d, versus_bot.id, 2), 1);
    assert_eq!(d.move_count(versus_bot.id).await, 2);
    assert_eq!(posts_with(&d, &[&game_ref, "ran out of time"]), 1);
    drop(first_again);
    d.end(&mut second, "shards", started).await;
}
