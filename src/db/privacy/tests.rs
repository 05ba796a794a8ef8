//! Deleting a member's data on both backends: what goes, what stays, and the schema's columns
//! that name members all in [`MEMBER_DATA`].

use super::*;
use crate::db::testing::both_backends;
use crate::db::{self, ChannelId, Finish, GameStatus, NewGame, Pool};
use crate::games::{Colour, Options, Outcome};

const ANN: UserId = UserId(u64::MAX - 101);
const BOB: UserId = UserId(9_001);
const CAT: UserId = UserId(9_002);
const GUILD: GuildId = GuildId(77);

/// A rated game of `p` against `q` in `GUILD`, started at `at`; won by the first seat when
/// `finish`, else left in play.
async fn game(pool: &Pool, p: UserId, q: UserId, at: i64, finish: bool) -> i64 {
    let options = Options::parse_line("inphexion size=5").unwrap();
    let id = db::insert_game(
        pool,
        &NewGame {
            guild_id: Some(GUILD),
            channel_id: ChannelId(88),
            options: &options,
            players: [p, q],
            rated: true,
            now: at,
            seconds_per_move: 86_400,
            deadline_at: Some(at + 86_400),
            clock: None,
        },
    )
    .await
    .unwrap();
    if finish {
        let mut tx = pool.begin().await.unwrap();
        let done = Finish {
            kind: options.kind(),
            result: db::GameResult::Decided(Outcome::win(
                Colour::First,
                crate::games::Reason::Resignation,
            )),
            winner_id: Some(p),
        };
        db::finish_game(&mut *tx, id, 0, &done, at + 10)
            .await
            .unwrap();
        db::apply_result(&mut tx, id).await.unwrap();
        tx.commit().await.unwrap();
    }
    id
}

async fn count(pool: &Pool, sql: &'static str, user: UserId) -> i64 {
    sqlx::query_scalar(sql)
        .bind(user)
        .fetch_one(pool)
        .await
        .unwrap()
}

async fn forget(pool: &Pool, user: UserId, now: i64) -> Forgotten {
    let mut tx = pool.begin().await.unwrap();
    let done = forget_member(&mut tx, user, now).await.unwrap();
    tx.commit().await.unwrap();
    done
}

both_backends! {
    async fn deleting_erases_ratings_and_settings_and_keeps_the_games(pool) {
        for (id, name) in [(ANN, "ann"), (BOB, "bob"), (CAT, "cat")] {
            db::upsert_player(&pool, id, name, 1).await.unwrap();
        }
        db::note_player_locale(&pool, ANN, "ja").await.unwrap();
        let won = game(&pool, ANN, BOB, 100, true).await;
        let lost = game(&pool, BOB, ANN, 200, true).await;
        game(&pool, BOB, CAT, 300, true).await;
        let playing = game(&pool, ANN, CAT, 400, false).await;
        db::store_settings(&pool, ANN, db::Settings { notify: db::NotifyMode::Dm, reminders: false }, 5)
            .await
            .unwrap();
        db::store_time_zone(&pool, ANN, Some(chrono_tz::Asia::Tokyo), 5).await.unwrap();
        db::insert_vacation(&pool, ANN, 10, 20).await.unwrap();
        db::insert_inbox_token(&pool, "ab", ANN, 5).await.unwrap();
        db::insert_web_token(&pool, "cd", playing, ANN, 5).await.unwrap();
        // Direct messages to Ann: one sent, one still to send; and one to Bob.
        for (queue, status) in [(dm_queue(ANN), "sent"), (dm_queue(ANN), "pending"), (dm_queue(BOB), "sent")] {
            sqlx::query(
                "INSERT INTO announcements (queue, body, status, next_attempt_at, created_at)
                 VALUES ($1, '{}', $2, 0, 0)",
            )
            .bind(queue)
            .bind(status)
            .execute(&pool)
            .await
            .unwrap();
        }
        let mut conn = pool.acquire().await.unwrap();
        db::toggle_follow(&mut conn, playing, BOB, 5).await.unwrap();
        db::toggle_follow(&mut conn, lost, ANN, 5).await.unwrap();
        // Private notes: Ann's on two games, Bob's on the one he follows.
        db::store_note(&pool, lost, ANN, "a plan", 5).await.unwrap();
        db::store_note(&pool, playing, ANN, "another", 5).await.unwrap();
        db::store_note(&pool, playing, BOB, "bob's own", 5).await.unwrap();
        // An open seek of Ann's.
        let seeking = [Options::parse_line("inphexion size=7").unwrap()];
        let seek = db::insert_seek(
            &pool,
            &db::NewSeek {
                guild_id: GUILD,
                channel_id: ChannelId(88),
                player_id: ANN,
                variants: &seeking,
                days: 1..=3,
                rated: true,
                now: 5,
                expires_at: 5_000,
                standing_id: None,
                anywhere: true,
            },
        )
        .await
        .unwrap();
        // And a standing seek of hers.
        let standing = db::insert_standing_seek(
            &pool,
            &db::NewStandingSeek {
                guild_id: GUILD,
                channel_id: ChannelId(88),
                player_id: ANN,
                variants: &seeking,
                days: 1..=3,
                rated: true,
                keep: 2,
                lasts: 86_400,
                now: 5,
            },
        )
        .await
        .unwrap();

        // Ann blocks Bob, and Bob blocks Ann.
        assert!(db::block(&pool, ANN, BOB, 5).await.unwrap());
        assert!(db::block(&pool, BOB, ANN, 5).await.unwrap());

        // What is shown: everything above.
        let shown = member_data(&mut conn, ANN).await.unwrap();
        assert_eq!(shown.name.as_deref(), Some("ann"));
        assert_eq!(shown.locale.as_deref(), Some("ja"));
        assert_eq!((shown.in_play.clone(), shown.over), (vec![playing], 2));
        assert_eq!(shown.ratings.len(), 1);
        assert_eq!((shown.ratings[0].guild, shown.ratings[0].games), (GUILD, 2));
        assert_eq!(shown.time_zone.as_deref(), Some("Asia/Tokyo"));
        assert!(shown.rows.contains(&("announcements", 1)), "{:?}", shown.rows);
        assert!(shown.rows.contains(&("game_notes", 2)), "{:?}", shown.rows);
        assert!(shown.rows.contains(&("seeks", 1)), "{:?}", shown.rows);
        assert!(shown.rows.contains(&("standing_seeks", 1)), "{:?}", shown.rows);
        assert!(shown.rows.contains(&("blocks", 2)), "{:?}", shown.rows);
        for table in ["player_settings", "vacations", "followers", "web_tokens", "inbox_tokens", "moves"] {
            let listed = shown.rows.iter().any(|(t, _)| *t == table);
            assert_eq!(listed, table != "moves", "{table}: {:?}", shown.rows);
        }
        drop(conn);

        // A game in play: refused, nothing changed.
        let before = count(&pool, "SELECT COUNT(*) FROM ratings WHERE player_id = $1", ANN).await;
        assert_eq!(
            forget(&pool, ANN, 1_000).await,
            Forgotten::Blocked { games: vec![playing], tournaments: vec![] }
        );
        assert_eq!(count(&pool, "SELECT COUNT(*) FROM ratings WHERE player_id = $1", ANN).await, before);
        assert_eq!(fetch_name(&pool, ANN).await.unwrap(), Some(Name::Named("ann".into())));

        // The game over, the deletion goes through.
        let mut tx = pool.begin().await.unwrap();
        let done = Finish {
            kind: crate::games::GameKind::Inphexion,
            result: db::GameResult::Decided(Outcome::win(Colour::Second, crate::games::Reason::Resignation)),
            winner_id: Some(CAT),
        };
        db::finish_game(&mut *tx, playing, 0, &done, 500).await.unwrap();
        db::apply_result(&mut tx, playing).await.unwrap();
        tx.commit().await.unwrap();
        let bob_before = db::fetch_rating(&pool, GUILD, crate::games::GameKind::Inphexion, BOB).await.unwrap();
        assert!(matches!(forget(&pool, ANN, 1_000).await, Forgotten::Done { erased } if erased >= 6));
        for sql in [
            "SELECT COUNT(*) FROM ratings WHERE player_id = $1",
            "SELECT COUNT(*) FROM player_settings WHERE player_id = $1",
            "SELECT COUNT(*) FROM vacations WHERE player_id = $1",
            "SELECT COUNT(*) FROM inbox_tokens WHERE user_id = $1",
            "SELECT COUNT(*) FROM web_tokens WHERE user_id = $1",
            "SELECT COUNT(*) FROM followers WHERE user_id = $1",
            "SELECT COUNT(*) FROM game_notes WHERE user_id = $1",
            "SELECT COUNT(*) FROM seeks WHERE player_id = $1",
            "SELECT COUNT(*) FROM standing_seeks WHERE player_id = $1",
            "SELECT COUNT(*) FROM players WHERE id = $1 AND (name <> '' OR locale IS NOT NULL)",
        ] {
            assert_eq!(count(&pool, sql, ANN).await, 0, "{sql}");
        }
        let dms = |user| {
            let pool = pool.clone();
            async move {
                sqlx::query_scalar::<_, String>("SELECT status FROM announcements WHERE queue = $1")
                    .bind(dm_queue(user))
                    .fetch_all(&pool)
                    .await
                    .unwrap()
            }
        };
        assert_eq!(dms(ANN).await, ["pending"], "what was sent to Ann is gone; the rest goes out");
        assert_eq!(dms(BOB).await, ["sent"]);
        // Her seek is gone: nobody is matched with a former member.
        assert_eq!(db::fetch_seek(&pool, seek).await.unwrap(), None);
        // Her standing seek too: none is made for her again.
        assert_eq!(db::fetch_standing_seek(&pool, standing).await.unwrap(), None);
        // Her blocks are gone; Bob's block of her stays (it protects him).
        assert_eq!(count(&pool, "SELECT COUNT(*) FROM blocks WHERE user_id = $1", ANN).await, 0);
        assert_eq!(db::blocked_by(&pool, BOB).await.unwrap(), [ANN]);
        // Others' rows stay; the games stay, with their results, by id.
        assert_eq!(count(&pool, "SELECT COUNT(*) FROM followers WHERE user_id = $1", BOB).await, 1);
        assert_eq!(db::fetch_note(&pool, playing, BOB).await.unwrap().as_deref(), Some("bob's own"));
        assert_eq!(
            count(&pool, "SELECT COUNT(*) FROM games WHERE first_player_id = $1 OR second_player_id = $1", ANN).await,
            3
        );
        let row = db::fetch_game(&pool, won).await.unwrap().unwrap();
        assert_eq!((row.status, row.winner_id), (GameStatus::Finished, Some(ANN)));
        assert_eq!(fetch_name(&pool, ANN).await.unwrap(), Some(Name::Former));
        assert_eq!(fetch_name(&pool, BOB).await.unwrap(), Some(Name::Named("bob".into())));
        assert!(former_members(&pool).await.unwrap().contains(&ANN));
        let mut conn = pool.acquire().await.unwrap();
        let after = member_data(&mut conn, ANN).await.unwrap();
        assert!(after.name.is_none() && after.ratings.is_empty() && after.time_zone.is_none());
        assert_eq!(after.over, 3);
        // The opponent's rating is as it was, also when the ratings are rebuilt from the games;
        // the former member gets none back.
        let bob = || db::fetch_rating(&pool, GUILD, crate::games::GameKind::Inphexion, BOB);
        assert_eq!(bob().await.unwrap(), bob_before);
        let mut tx = pool.begin().await.unwrap();
        db::recompute_ratings(&mut tx).await.unwrap();
        tx.commit().await.unwrap();
        assert_eq!(bob().await.unwrap(), bob_before);
        assert_eq!(count(&pool, "SELECT COUNT(*) FROM ratings WHERE player_id = $1", ANN).await, 0);

        // Coming back starts afresh: named again.
        db::upsert_player(&pool, ANN, "ann again", 2_000).await.unwrap();
        assert_eq!(fetch_name(&pool, ANN).await.unwrap(), Some(Name::Named("ann again".into())));
        assert!(!former_members(&pool).await.unwrap().contains(&ANN));
    }
}

both_backends! {
    async fn a_server_left_is_cleared_after_its_grace_unless_the_bot_came_back(pool) {
        let (gone, back) = (GuildId(5), GuildId(6));
        for g in [gone, back] {
            db::store_server_settings(&pool, g, db::ServerSettings { threads: false }, 1).await.unwrap();
        }
        note_bot_left(&pool, gone, 100).await.unwrap();
        note_bot_left(&pool, back, 100).await.unwrap();
        // A second event for the same departure keeps the first time.
        note_bot_left(&pool, gone, 150).await.unwrap();
        assert!(note_bot_joined(&pool, back).await.unwrap());
        assert!(!note_bot_joined(&pool, back).await.unwrap());
        assert!(servers_to_clear(&pool, 99).await.unwrap().is_empty());
        assert_eq!(servers_to_clear(&pool, 100).await.unwrap(), [gone]);
        let mut tx = pool.begin().await.unwrap();
        assert!(clear_server(&mut tx, gone, 100).await.unwrap());
        assert!(!clear_server(&mut tx, back, 100).await.unwrap());
        tx.commit().await.unwrap();
        let threads = |g| db::fetch_server_settings(&pool, g);
        assert!(threads(gone).await.unwrap().threads, "back to the defaults");
        assert!(!threads(back).await.unwrap().threads, "kept");
        assert!(servers_to_clear(&pool, i64::MAX).await.unwrap().is_empty());
    }
}

/// Every column of the schema named like a member's id (`…user…_id`, `…player…_id`, `…_by`, or
/// one of the seats and results that hold a user id) is in [`MEMBER_DATA`], and every listed
/// column exists: a migration adding a member's column must say what deletion does to it.
#[tokio::test]
async fn every_column_naming_a_member_is_listed() {
    let (pool, _file) = crate::db::testing::temp_db().await;
    let columns: Vec<(String, String)> = sqlx::query_as(
        "SELECT m.name, p.name FROM sqlite_master m, pragma_table_info(m.name) p
          WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND m.name <> '_sqlx_migrations'",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    assert!(columns.len() > 50, "{columns:?}");
    let seats = [
        "winner_id",
        "white_id",
        "black_id",
        "creator_id",
        "to_move_id",
    ];
    let named_like_a_member = |t: &str, c: &str| {
        ((c.contains("user") || c.contains("player")) && c.ends_with("_id"))
            || c.ends_with("_by")
            || seats.contains(&c)
            || (t == "players" && c == "id")
    };
    let listed = |t: &str, c: &str| MEMBER_DATA.iter().any(|m| m.table == t && m.column == c);
    let missing: Vec<_> = columns
        .iter()
        .filter(|(t, c)| named_like_a_member(t, c) && !listed(t, c))
        .collect();
    assert!(missing.is_empty(), "not in MEMBER_DATA: {missing:?}");
    for m in MEMBER_DATA {
        assert!(
            columns.iter().any(|(t, c)| t == m.table && c == m.column),
            "{m:?} is not in the schema"
        );
    }
    // The check sees a new column: one named like a member, unlisted, is caught.
    assert!(
        named_like_a_member("badges", "awarded_user_id") && !listed("badges", "awarded_user_id")
    );
    assert!(!named_like_a_member("tournaments", "max_players"));
    for table in SERVER_SETTINGS {
        assert!(
            columns.iter().any(|(t, c)| t == table && c == "guild_id"),
            "{table}"
        );
    }
}
