//! The daily puzzle's settings and posts on both backends.

use super::*;
use crate::db::testing::both_backends;
use crate::db::{self, Origin, Pool};
use crate::games::{Game, Options};
use crate::puzzles::{Puzzle, Source};

const GUILD: GuildId = GuildId(u64::MAX - 1);
const OTHER: GuildId = GuildId(78);
const MOD: UserId = UserId(u64::MAX - 9);
const ANN: UserId = UserId(21);
const BOB: UserId = UserId(22);

/// Stores a puzzle on the position after `ply` first legal moves of a 5×5 inpHeXion game: its
/// number.
async fn stored_puzzle(pool: &Pool, ply: usize) -> i64 {
    let variant = "inphexion size=5";
    let mut game = Game::new(Options::parse_line(variant).unwrap());
    for _ in 0..ply {
        let mv = game.legal_moves()[0];
        game.play(mv).unwrap();
    }
    let pos = game.position();
    let puzzle = Puzzle {
        variant: variant.to_string(),
        position: pos.to_line(),
        to_move: pos.to_move().index() as u8,
        solution: vec![game.legal_moves()[0].to_string()],
        difficulty: 2,
        chance: 0.9,
        second: 0.2,
        source: Source::default(),
        proof: None,
    };
    db::store_puzzle(pool, &puzzle, Origin::Starter, 1)
        .await
        .unwrap()
        .unwrap()
}

fn post(guild: GuildId, day: i64, puzzle: i64) -> DailyPost {
    DailyPost {
        guild,
        day,
        puzzle,
        channel: ChannelId(5),
        message: None,
        posted_at: day * 86_400 + 9 * 3600,
    }
}

async fn claim(pool: &Pool, p: &DailyPost) -> bool {
    let mut conn = pool.acquire().await.unwrap();
    claim_daily_post(&mut conn, p).await.unwrap()
}

both_backends! {
    async fn a_setting_is_stored_changed_listed_and_stopped(pool) {
        assert_eq!(fetch_daily_puzzle(&pool, GUILD).await.unwrap(), None);
        set_daily_puzzle(&pool, GUILD, ChannelId(5), 9, MOD, 1).await.unwrap();
        set_daily_puzzle(&pool, GUILD, ChannelId(6), 23, ANN, 2).await.unwrap();
        let d = fetch_daily_puzzle(&pool, GUILD).await.unwrap().unwrap();
        assert_eq!(
            d,
            DailyPuzzle { guild: GUILD, channel: ChannelId(6), hour: 23, set_by: ANN, exhausted: false }
        );
        db::store_server_clock(
            &pool,
            GUILD,
            db::ServerClock { time_zone: crate::time_control::time_zone("Asia/Tokyo"), weekends_off: false },
            3,
        )
        .await
        .unwrap();
        set_daily_puzzle(&pool, OTHER, ChannelId(7), 0, MOD, 2).await.unwrap();
        let listed = scheduled_daily_puzzles(&pool).await.unwrap();
        assert_eq!(listed.len(), 2);
        let mine = listed.iter().find(|s| s.daily.guild == GUILD).unwrap();
        assert_eq!(mine.time_zone.map(|z| z.name()), Some("Asia/Tokyo"));
        assert_eq!(mine.last_day, None);
        let other = listed.iter().find(|s| s.daily.guild == OTHER).unwrap();
        assert_eq!((other.time_zone, other.daily.hour), (None, 0));
        assert!(stop_daily_puzzle(&pool, GUILD).await.unwrap());
        assert!(!stop_daily_puzzle(&pool, GUILD).await.unwrap());
        assert_eq!(fetch_daily_puzzle(&pool, GUILD).await.unwrap(), None);
    }
}

both_backends! {
    async fn one_post_a_day_and_never_the_same_puzzle_twice_in_a_server(pool) {
        set_daily_puzzle(&pool, GUILD, ChannelId(5), 9, MOD, 1).await.unwrap();
        let first = stored_puzzle(&pool, 0).await;
        let second = stored_puzzle(&pool, 1).await;
        assert_eq!(next_daily_puzzle(&pool, GUILD).await.unwrap(), Some(first));
        assert!(claim(&pool, &post(GUILD, 100, first)).await);
        // The same day again (a restart, another process): refused, whatever the puzzle.
        assert!(!claim(&pool, &post(GUILD, 100, second)).await);
        // The same puzzle another day: refused too; the choice skips it.
        assert!(!claim(&pool, &post(GUILD, 101, first)).await);
        assert_eq!(next_daily_puzzle(&pool, GUILD).await.unwrap(), Some(second));
        // Another server has its own posts.
        assert_eq!(next_daily_puzzle(&pool, OTHER).await.unwrap(), Some(first));
        assert!(claim(&pool, &post(OTHER, 100, first)).await);
        assert!(claim(&pool, &post(GUILD, 101, second)).await);
        assert_eq!(next_daily_puzzle(&pool, GUILD).await.unwrap(), None);

        let listed = scheduled_daily_puzzles(&pool).await.unwrap();
        assert_eq!(listed[0].last_day, Some(101));
        let before = daily_post_before(&pool, GUILD, 101).await.unwrap().unwrap();
        assert_eq!((before.day, before.puzzle, before.message), (100, first, None));
        set_daily_post_message(&pool, GUILD, 100, MessageId(u64::MAX - 5)).await.unwrap();
        let of = daily_post_of(&pool, GUILD, first).await.unwrap().unwrap();
        assert_eq!(of.message, Some(MessageId(u64::MAX - 5)));
        assert_eq!(daily_post_before(&pool, GUILD, 100).await.unwrap(), None);
        assert_eq!(
            daily_post_before(&pool, GUILD, i64::MAX).await.unwrap().map(|p| p.puzzle),
            Some(second)
        );
        assert_eq!(daily_post_of(&pool, OTHER, second).await.unwrap(), None);
    }
}

both_backends! {
    async fn no_puzzle_left_is_told_once_until_the_next_post(pool) {
        set_daily_puzzle(&pool, GUILD, ChannelId(5), 9, MOD, 1).await.unwrap();
        assert!(claim_daily_exhausted(&pool, GUILD, 10).await.unwrap());
        assert!(!claim_daily_exhausted(&pool, GUILD, 11).await.unwrap());
        assert!(fetch_daily_puzzle(&pool, GUILD).await.unwrap().unwrap().exhausted);
        let p = stored_puzzle(&pool, 2).await;
        assert!(claim(&pool, &post(GUILD, 3, p)).await);
        assert!(!fetch_daily_puzzle(&pool, GUILD).await.unwrap().unwrap().exhausted);
        assert!(claim_daily_exhausted(&pool, GUILD, 12).await.unwrap());
        // A server without the setting has nothing to claim.
        assert!(!claim_daily_exhausted(&pool, OTHER, 12).await.unwrap());
    }
}

both_backends! {
    async fn the_solvers_are_the_first_attempts_solved_since_the_post(pool) {
        let p = stored_puzzle(&pool, 0).await;
        for (id, name) in [(ANN, "ann"), (BOB, "bob"), (MOD, "mod")] {
            db::upsert_player(&pool, id, name, 1).await.unwrap();
        }
        // Bob tried it before the post (through /puzzle), Ann after; the moderator failed.
        let bob = db::start_attempt(&pool, p, BOB, GUILD, 50).await.unwrap().unwrap();
        let ann = db::start_attempt(&pool, p, ANN, GUILD, 150).await.unwrap().unwrap();
        let m = db::start_attempt(&pool, p, MOD, GUILD, 160).await.unwrap().unwrap();
        for (attempt, solved) in [(bob, true), (ann, true), (m, false)] {
            let status = if solved { "solved" } else { "failed" };
            sqlx::query("UPDATE puzzle_attempts SET status = $2, finished_at = 170 WHERE id = $1")
                .bind(attempt)
                .bind(status)
                .execute(&pool)
                .await
                .unwrap();
        }
        assert_eq!(daily_solvers(&pool, GUILD, p, 100).await.unwrap(), vec![ANN]);
        assert_eq!(daily_solvers(&pool, GUILD, p, 0).await.unwrap().len(), 2);
        assert!(daily_solvers(&pool, OTHER, p, 0).await.unwrap().is_empty());
    }
}

both_backends! {
    async fn a_damaged_setting_is_left_out_of_the_scan(pool) {
        set_daily_puzzle(&pool, GUILD, ChannelId(5), 9, MOD, 1).await.unwrap();
        set_daily_puzzle(&pool, OTHER, ChannelId(6), 9, MOD, 1).await.unwrap();
        sqlx::query("UPDATE daily_puzzles SET hour = 31 WHERE guild_id = $1")
            .bind(OTHER)
            .execute(&pool)
            .await
            .unwrap();
        let listed = scheduled_daily_puzzles(&pool).await.unwrap();
        assert_eq!(listed.len(), 1);
        assert_eq!(listed[0].daily.guild, GUILD);
        assert!(fetch_daily_puzzle(&pool, OTHER).await.is_err());
    }
}
