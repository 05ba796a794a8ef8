//! Standing seeks on a real database: what is refused, a seek made again when a game ends and
//! not while on vacation, and two processes checking one standing seek at once (SQLite and
//! PostgreSQL).

use super::*;
use std::sync::atomic::Ordering;

use crate::clock::Clock;
use crate::db::{self, ChannelId, GuildId, SeekStatus, UserId};
use crate::games::Options;
use crate::i18n::Lang;
use crate::play::schedule::DAY;
use crate::play::{Error, Refusal};

const T0: i64 = 1_800_000_000;
const ANN: UserId = UserId(11);
const BOB: UserId = UserId(u64::MAX - 3);
const GUILD: GuildId = GuildId(7);

async fn core_on(pool: db::Pool) -> (Core, std::sync::Arc<std::sync::atomic::AtomicI64>) {
    for (id, name) in [(ANN, "ann"), (BOB, "bob")] {
        db::upsert_player(&pool, id, name, T0).await.unwrap();
    }
    let (clock, handle) = Clock::fixed(T0);
    (Core::new(pool, clock), handle)
}

fn request(player: UserId, lines: &[&str]) -> SeekRequest {
    SeekRequest {
        guild_id: GUILD,
        channel_id: ChannelId(8),
        player,
        variants: lines
            .iter()
            .map(|l| Options::parse_line(l).unwrap())
            .collect(),
        days: 3..=3,
        rated: true,
        lasts: DAY,
        standing: None,
        anywhere: false,
    }
}

fn refusal<T: std::fmt::Debug>(r: Result<T, Error>) -> String {
    match r {
        Err(Error::Refused(Refusal(t))) => t.render(Lang::EN),
        other => panic!("not a refusal: {other:?}"),
    }
}

async fn open_of(core: &Core, standing: i64) -> Vec<db::Seek> {
    db::open_seeks(
        &core.pool,
        db::SeeksOf::Standing(standing),
        core.clock.now(),
    )
    .await
    .unwrap()
}

async fn count(core: &Core, sql: &'static str) -> i64 {
    sqlx::query_scalar(sql).fetch_one(&core.pool).await.unwrap()
}

/// Closes the open seeks of standing seek `id` behind its back (as another process would).
async fn close_its_seeks(core: &Core, id: i64) {
    for s in open_of(core, id).await {
        db::close_seek(&core.pool, s.id, SeekStatus::Withdrawn)
            .await
            .unwrap();
    }
}

#[tokio::test]
async fn a_standing_seek_refuses_bad_terms_and_is_made_again_after_a_game_but_not_on_vacation() {
    let (pool, _file) = db::testing::temp_db().await;
    let (core, clock) = core_on(pool).await;
    let exxit = ["exxit tiles=39"];
    for keep in [0, 11] {
        let why = refusal(stand(&core, &request(ANN, &exxit), keep).await);
        assert!(why.contains("from 1 to 10"), "{why}");
    }
    db::insert_vacation(&core.pool, ANN, T0 - 10, T0 + DAY)
        .await
        .unwrap();
    assert!(refusal(stand(&core, &request(ANN, &exxit), 1).await).contains("on vacation"));
    assert_eq!(count(&core, "SELECT count(*) FROM standing_seeks").await, 0);
    clock.store(T0 + DAY, Ordering::SeqCst);

    // Set with nobody seeking: its seek is stored, its card queued here.
    let stood = stand(&core, &request(ANN, &exxit), 1).await.unwrap();
    let id = stood.id;
    assert!(
        matches!(&stood.refill, Refill::Made(m) if matches!(m[..], [Sought::Open { posted_in: Some(ChannelId(8)), .. }])),
        "{stood:?}"
    );
    let why = refusal(
        stand(
            &core,
            &request(ANN, &["inphexion size=7", "exxit tiles=39"]),
            2,
        )
        .await,
    );
    assert!(why.contains("standing seek for EXXIT"), "{why}");
    assert!(matches!(refill(&core, id).await.unwrap(), Refill::Waiting));

    // Bob's seek matches it: Ann has her game, so no other seek is made.
    let bob = seek(&core, &request(BOB, &exxit)).await.unwrap();
    let Sought::Matched { game, .. } = bob else {
        panic!("{bob:?}")
    };
    assert!(open_of(&core, id).await.is_empty());
    assert!(matches!(
        refill(&core, id).await.unwrap(),
        Refill::Enough { games: 1 }
    ));

    // The game ends: her seek is made again.
    resign(&core, game, BOB).await.unwrap();
    assert_eq!(open_of(&core, id).await.len(), 1);

    // On vacation, its open seek is withdrawn and none is made; back, it is.
    let now = core.clock.now();
    db::insert_vacation(&core.pool, ANN, now, now + DAY)
        .await
        .unwrap();
    assert!(matches!(refill(&core, id).await.unwrap(), Refill::Away));
    assert!(open_of(&core, id).await.is_empty());
    clock.store(now + DAY + 1, Ordering::SeqCst);
    assert_eq!(
        crate::play::timers::scan(&core)
            .await
            .unwrap()
            .standing_seeks,
        1
    );
    assert_eq!(open_of(&core, id).await.len(), 1);

    // Withdrawn from its card, it stops.
    let s = open_of(&core, id).await.remove(0);
    let words = withdraw_seek(&core, s.id, ANN)
        .await
        .unwrap()
        .render(Lang::EN);
    assert!(words.contains("standing seek is stopped"), "{words}");
    assert_eq!(count(&core, "SELECT count(*) FROM standing_seeks").await, 0);
    assert!(matches!(refill(&core, id).await.unwrap(), Refill::Busy));
}

/// Two processes (each its own pool) check one standing seek at the same moment: one seek is
/// made from it, and with another member's seek waiting, one game starts.
async fn two_processes_refill_at_once(first: db::Pool, second: db::Pool) {
    let (one, _clock) = core_on(first).await;
    let two = Core::new(second, Clock::fixed(T0).0);
    let exxit = ["exxit tiles=39"];
    let id = stand(&one, &request(ANN, &exxit), 1).await.unwrap().id;
    let both = |one: &Core, two: &Core| {
        let (one, two) = (one.clone(), two.clone());
        async move {
            let a = tokio::spawn(async move { refill(&one, id).await });
            let b = tokio::spawn(async move { refill(&two, id).await });
            (a.await.unwrap().unwrap(), b.await.unwrap().unwrap())
        }
    };
    for round in 0..5 {
        close_its_seeks(&one, id).await;
        let done = both(&one, &two).await;
        assert_eq!(open_of(&one, id).await.len(), 1, "round {round}: {done:?}");
    }
    // Bob's seek waits; both processes check Ann's standing seek: one game starts.
    close_its_seeks(&one, id).await;
    assert!(matches!(
        seek(&one, &request(BOB, &exxit)).await.unwrap(),
        Sought::Open { .. }
    ));
    let done = both(&one, &two).await;
    assert_eq!(
        count(&one, "SELECT count(*) FROM games").await,
        1,
        "{done:?}"
    );
    assert!(open_of(&one, id).await.is_empty());
    assert_eq!(
        count(&one, "SELECT count(*) FROM seeks WHERE status = 'open'").await,
        0
    );
}

#[tokio::test]
async fn two_processes_checking_a_standing_seek_make_one_seek_on_sqlite() {
    let (first, file) = db::testing::temp_db().await;
    let second = db::connect(&format!("sqlite://{}", file.0.display()))
        .await
        .unwrap();
    two_processes_refill_at_once(first, second).await;
}

#[tokio::test]
async fn two_processes_checking_a_standing_seek_make_one_seek_on_postgres() {
    let (first, url) = db::testing::pg_db().await;
    let second = db::connect(&url).await.unwrap();
    two_processes_refill_at_once(first, second).await;
}

/// An ordinary seek is withdrawn when its member goes on vacation (its card says why), and a seek
/// whose member is away is neither matched nor accepted: it is withdrawn then.
#[tokio::test]
async fn seeks_are_withdrawn_by_a_vacation_and_never_matched_while_away() {
    let (pool, _file) = db::testing::temp_db().await;
    let (core, clock) = core_on(pool).await;
    let seven = ["inphexion size=7"];
    let Sought::Open { seek: first, .. } = seek(&core, &request(ANN, &seven)).await.unwrap() else {
        panic!("nobody else seeks");
    };
    db::set_seek_message(&core.pool, first.id, ChannelId(8), db::MessageId(50))
        .await
        .unwrap();
    let v = take_vacation(&core, ANN, 1).await.unwrap();
    assert_eq!(v.seeks_withdrawn, 1);
    let stored = db::fetch_seek(&core.pool, first.id).await.unwrap().unwrap();
    assert_eq!(stored.status, SeekStatus::Withdrawn);
    assert_eq!(
        count(
            &core,
            "SELECT count(*) FROM announcements WHERE body LIKE '%is on vacation: their seek%'"
        )
        .await,
        1
    );

    // Back; Bob's seek is left open by a vacation recorded behind its back.
    clock.store(T0 + 2 * DAY, Ordering::SeqCst);
    let Sought::Open { seek: bobs, .. } = seek(&core, &request(BOB, &seven)).await.unwrap() else {
        panic!("Ann's seek was withdrawn");
    };
    db::insert_vacation(&core.pool, BOB, T0 + 2 * DAY, T0 + 3 * DAY)
        .await
        .unwrap();
    // Ann's compatible seek is not matched with it: posted, and Bob's is withdrawn.
    let anns = seek(&core, &request(ANN, &seven)).await.unwrap();
    assert!(matches!(anns, Sought::Open { .. }), "{anns:?}");
    let stored = db::fetch_seek(&core.pool, bobs.id).await.unwrap().unwrap();
    assert_eq!(stored.status, SeekStatus::Withdrawn);
    assert_eq!(count(&core, "SELECT count(*) FROM games").await, 0);
}
