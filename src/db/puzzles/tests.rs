//! Puzzles, attempts and puzzle ratings on both backends.

use super::*;
use crate::db::testing::both_backends;
use crate::db::{self, ChannelId, NewGame, Pool};
use crate::games::Game;

const ANN: UserId = UserId(u64::MAX - 7);
const BOB: UserId = UserId(9_001);
const GUILD: GuildId = GuildId(77);

/// A puzzle on the position after `ply` moves of a game of `variant` (each the first legal
/// move), its solution the first legal move there, of `difficulty`.
fn puzzle(variant: &str, ply: usize, difficulty: u8) -> Puzzle {
    let mut game = Game::new(Options::parse_line(variant).unwrap());
    for _ in 0..ply {
        let mv = game.legal_moves()[0];
        game.play(mv).unwrap();
    }
    let pos = game.position();
    Puzzle {
        variant: variant.to_string(),
        position: pos.to_line(),
        to_move: pos.to_move().index() as u8,
        solution: vec![game.legal_moves()[0].to_string()],
        difficulty,
        chance: 0.9,
        second: 0.2,
        source: Source {
            game: None,
            ply,
            played: Some("x".into()),
        },
        proof: None,
    }
}

async fn stored_game(pool: &Pool) -> i64 {
    db::insert_game(
        pool,
        &NewGame {
            guild_id: Some(GUILD),
            channel_id: ChannelId(5),
            options: &Options::parse_line("inphexion size=5").unwrap(),
            players: [ANN, BOB],
            rated: true,
            now: 10,
            seconds_per_move: 86_400,
            deadline_at: None,
            clock: None,
        },
    )
    .await
    .unwrap()
}

async fn finish(pool: &Pool, attempt: i64, from: i64, solved: bool, now: i64) -> Option<Rated> {
    let mut tx = pool.begin().await.unwrap();
    let rated = finish_attempt(&mut tx, attempt, from, solved, now)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    rated
}

both_backends! {
    async fn a_position_is_stored_once_with_its_origin_and_read_back(pool) {
        for (id, name) in [(ANN, "ann"), (BOB, "bob")] {
            db::upsert_player(&pool, id, name, 1).await.unwrap();
        }
        let game = stored_game(&pool).await;
        let from_game = puzzle("inphexion size=5", 4, 2);
        let origin = Origin::Game { game, players: [ANN, BOB] };
        let id = store_puzzle(&pool, &from_game, origin, 100).await.unwrap().unwrap();
        // The same position again, even from elsewhere: nothing added, nothing changed.
        assert_eq!(store_puzzle(&pool, &from_game, Origin::Starter, 200).await.unwrap(), None);
        let row = fetch_puzzle(&pool, id).await.unwrap().unwrap();
        assert_eq!(row.origin, origin);
        assert_eq!(row.kind, GameKind::Inphexion);
        assert_eq!(row.created_at, 100);
        assert_eq!(row.rating, start_rating(2));
        assert_eq!(row.rating.rating, 1300.0);
        let mut want = from_game.clone();
        want.source.game = Some(game);
        assert_eq!(row.puzzle, want);
        assert_eq!(row.puzzle.game().unwrap().position().to_line(), from_game.position);
        // A batch: new ones counted, known ones left as they were; an unknown variant is
        // refused.
        let batch = [from_game.clone(), puzzle("exxit tiles=19", 3, 5), puzzle("inphexion size=5", 6, 1)];
        let mut conn = pool.acquire().await.unwrap();
        assert_eq!(store_puzzles(&mut conn, &batch, Origin::Starter, 300).await.unwrap(), 2);
        assert_eq!(store_puzzles(&mut conn, &batch, Origin::Starter, 400).await.unwrap(), 0);
        let mut odd = puzzle("inphexion size=5", 8, 1);
        odd.variant = "chess".into();
        assert_eq!(store_puzzle(&pool, &odd, Origin::Starter, 1).await.unwrap(), None);
        assert_eq!(count_puzzles(&pool, None).await.unwrap(), 3);
        assert_eq!(count_puzzles(&pool, Some(GameKind::Exxit)).await.unwrap(), 1);
        assert_eq!(fetch_puzzle(&pool, id).await.unwrap().unwrap().created_at, 100);
        // A damaged row reads as absent and is never offered.
        sqlx::query("UPDATE puzzles SET solution = '[not json' WHERE id = $1")
            .bind(id)
            .execute(&pool)
            .await
            .unwrap();
        assert_eq!(fetch_puzzle(&pool, id).await.unwrap(), None);
        let offered = next_puzzle(&mut conn, ANN, GUILD, Some(GameKind::Inphexion)).await.unwrap();
        assert!(offered.is_some_and(|p| p.id != id));
    }
}

both_backends! {
    async fn a_member_gets_unseen_puzzles_near_their_rating_and_is_rated_once_each(pool) {
        for (id, name) in [(ANN, "ann"), (BOB, "bob")] {
            db::upsert_player(&pool, id, name, 1).await.unwrap();
        }
        let mut conn = pool.acquire().await.unwrap();
        let mut ids = Vec::new();
        // Difficulties 1..5 (ratings 1100..1900), and one EXXIT puzzle of difficulty 3.
        for d in 1..=5u8 {
            let p = puzzle("inphexion size=5", 2 * d as usize, d);
            ids.push(store_puzzle(&mut *conn, &p, Origin::Starter, 1).await.unwrap().unwrap());
        }
        let exxit = store_puzzle(&mut *conn, &puzzle("exxit tiles=19", 2, 3), Origin::Starter, 1)
            .await
            .unwrap()
            .unwrap();
        // A new member (1500) gets the nearest: difficulty 3, the lower id of the two at 1500.
        let first = next_puzzle(&mut conn, ANN, GUILD, None).await.unwrap().unwrap();
        assert_eq!(first.id, ids[2]);
        let only_exxit = next_puzzle(&mut conn, ANN, GUILD, Some(GameKind::Exxit)).await.unwrap();
        assert_eq!(only_exxit.map(|p| p.id), Some(exxit));

        // Ann starts it: a second start is refused; her open attempt is there to take up again.
        let attempt = start_attempt(&mut *conn, first.id, ANN, GUILD, 50).await.unwrap().unwrap();
        assert_eq!(start_attempt(&mut *conn, first.id, ANN, GUILD, 51).await.unwrap(), None);
        let open = open_attempt(&mut *conn, ANN, GUILD).await.unwrap().unwrap();
        assert_eq!((open.id, open.status, open.step, open.puzzle_id), (attempt, AttemptStatus::Open, 0, first.id));
        assert_eq!(open_attempt(&mut *conn, ANN, GuildId(78)).await.unwrap(), None);
        // Once attempted, it is never offered again.
        let next = next_puzzle(&mut conn, ANN, GUILD, Some(GameKind::Inphexion)).await.unwrap().unwrap();
        assert_ne!(next.id, first.id);
        // Moving on: once from each step (a second press changes nothing).
        assert!(advance_attempt(&mut *conn, attempt, 0, 2).await.unwrap());
        assert!(!advance_attempt(&mut *conn, attempt, 0, 2).await.unwrap());
        drop(conn);
        // Finishing at a step it is not at changes nothing.
        assert_eq!(finish(&pool, attempt, 0, true, 60).await, None);
        let solved = finish(&pool, attempt, 2, true, 60).await.unwrap();
        assert_eq!(finish(&pool, attempt, 2, true, 61).await, None, "rated once");
        assert_eq!(solved.before, PuzzleRatingRow::new(GUILD, ANN, 60));
        assert!(solved.after.rating > 1500.0);
        assert_eq!((solved.after.solved, solved.after.failed, solved.after.streak, solved.after.best_streak), (1, 0, 1, 1));
        assert!(solved.puzzle.rating < 1500.0, "the puzzle lost: {:?}", solved.puzzle);
        let stored = fetch_puzzle(&pool, first.id).await.unwrap().unwrap();
        assert_eq!(stored.rating, solved.puzzle);
        let row = fetch_attempt(&pool, attempt).await.unwrap().unwrap();
        assert_eq!((row.status, row.finished_at), (AttemptStatus::Solved, Some(60)));
        assert_eq!(fetch_puzzle_rating(&pool, GUILD, ANN).await.unwrap().unwrap(), solved.after);

        // Two more solved, then one failed: the streak reaches 3 and goes back to 0, the best
        // stays.
        let mut conn = pool.acquire().await.unwrap();
        let mut last = solved;
        for (i, ok) in [true, true, false].into_iter().enumerate() {
            let p = next_puzzle(&mut conn, ANN, GUILD, Some(GameKind::Inphexion)).await.unwrap().unwrap();
            // Near her rating, which has risen: the easy ones are left for later.
            let a = start_attempt(&mut *conn, p.id, ANN, GUILD, 100).await.unwrap().unwrap();
            let mut tx = sqlx::Connection::begin(&mut *conn).await.unwrap();
            last = finish_attempt(&mut tx, a, 0, ok, 100 + i as i64).await.unwrap().unwrap();
            tx.commit().await.unwrap();
        }
        assert_eq!((last.after.solved, last.after.failed, last.after.streak, last.after.best_streak), (3, 1, 0, 3));
        assert!(last.after.rating < last.before.rating);

        // Bob in another pool (the chat pool) and in Ann's: separate tables.
        let chat = crate::play::chats::RATINGS;
        let b = start_attempt(&mut *conn, ids[0], BOB, chat, 5).await.unwrap().unwrap();
        let mut tx = sqlx::Connection::begin(&mut *conn).await.unwrap();
        finish_attempt(&mut tx, b, 0, false, 6).await.unwrap().unwrap();
        tx.commit().await.unwrap();
        let board = puzzle_leaderboard(&pool, GUILD, 10).await.unwrap();
        assert_eq!(board.iter().map(|r| r.player_id).collect::<Vec<_>>(), [ANN]);
        let chat_board = puzzle_leaderboard(&pool, chat, 10).await.unwrap();
        assert_eq!(chat_board.iter().map(|r| (r.player_id, r.failed)).collect::<Vec<_>>(), [(BOB, 1)]);
        let b2 = start_attempt(&mut *conn, exxit, BOB, GUILD, 7).await.unwrap().unwrap();
        let mut tx = sqlx::Connection::begin(&mut *conn).await.unwrap();
        finish_attempt(&mut tx, b2, 0, true, 8).await.unwrap().unwrap();
        tx.commit().await.unwrap();
        let board = puzzle_leaderboard(&pool, GUILD, 10).await.unwrap();
        assert_eq!(board.len(), 2);
        assert!(board[0].rating >= board[1].rating);
        assert_eq!(puzzle_leaderboard(&pool, GUILD, 1).await.unwrap().len(), 1);

        // Every puzzle attempted: none left.
        for p in ids.iter().chain([&exxit]) {
            let _ = start_attempt(&mut *conn, *p, ANN, GUILD, 9).await.unwrap();
        }
        assert_eq!(next_puzzle(&mut conn, ANN, GUILD, None).await.unwrap(), None);
    }
}

both_backends! {
    async fn privacy_lists_and_deletes_attempts_and_puzzle_ratings_and_credits_become_anonymous(pool) {
        for (id, name) in [(ANN, "ann"), (BOB, "bob")] {
            db::upsert_player(&pool, id, name, 1).await.unwrap();
        }
        let game = stored_game(&pool).await;
        let mut tx = pool.begin().await.unwrap();
        let done = db::Finish {
            kind: GameKind::Inphexion,
            result: db::GameResult::Aborted { by: "mod".into() },
            winner_id: None,
        };
        db::finish_game(&mut *tx, game, 0, &done, 20).await.unwrap();
        tx.commit().await.unwrap();
        let origin = Origin::Game { game, players: [ANN, BOB] };
        let credited = store_puzzle(&pool, &puzzle("inphexion size=5", 4, 3), origin, 30).await.unwrap().unwrap();
        let other = store_puzzle(&pool, &puzzle("inphexion size=5", 6, 3), Origin::Starter, 30).await.unwrap().unwrap();
        for (p, who) in [(credited, BOB), (other, ANN), (credited, ANN)] {
            let a = start_attempt(&pool, p, who, GUILD, 40).await.unwrap().unwrap();
            finish(&pool, a, 0, true, 41).await.unwrap();
        }
        let mut conn = pool.acquire().await.unwrap();
        let shown = db::member_data(&mut conn, ANN).await.unwrap();
        for want in [("puzzle_attempts", 2), ("puzzle_ratings", 1), ("puzzles", 1)] {
            assert!(shown.rows.contains(&want), "{want:?}: {:?}", shown.rows);
        }
        drop(conn);
        let mut tx = pool.begin().await.unwrap();
        assert!(matches!(db::forget_member(&mut tx, ANN, 50).await.unwrap(), db::Forgotten::Done { .. }));
        tx.commit().await.unwrap();
        let mut conn = pool.acquire().await.unwrap();
        let after = db::member_data(&mut conn, ANN).await.unwrap();
        assert_eq!(after.rows, [("puzzles", 1)], "only the credit stays, by id");
        assert_eq!(fetch_puzzle_rating(&pool, GUILD, ANN).await.unwrap(), None);
        assert!(fetch_puzzle_rating(&pool, GUILD, BOB).await.unwrap().is_some());
        let row = fetch_puzzle(&pool, credited).await.unwrap().unwrap();
        assert_eq!(row.origin, origin);
        assert_eq!(db::fetch_name(&pool, ANN).await.unwrap(), Some(db::Name::Former));
        // Her attempts are gone: the puzzles are new to her again.
        assert!(next_puzzle(&mut conn, ANN, GUILD, None).await.unwrap().is_some());
        assert_eq!(puzzle_leaderboard(&pool, GUILD, 10).await.unwrap().len(), 1);
    }
}
