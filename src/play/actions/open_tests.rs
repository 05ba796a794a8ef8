//! Open challenges on a real database: who may take one, its rating range, its end (withdrawn,
//! expired, taken), and two members accepting at once (SQLite and PostgreSQL).

use super::*;
use std::sync::atomic::Ordering;

use crate::clock::Clock;
use crate::db::{self, ChallengeStatus, ChannelId, GuildId, RatingRange, Target, UserId};
use crate::games::{GameKind, Options};
use crate::i18n::{Lang, Text};
use crate::play::schedule::DAY;
use crate::play::terms::ChallengeAnswer;
use crate::play::{Error, Refusal};

const T0: i64 = 1_800_000_000;
const ANN: UserId = UserId(11);
const BOB: UserId = UserId(u64::MAX - 3);
const CAT: UserId = UserId(33);
const GUILD: GuildId = GuildId(7);

async fn core_on(pool: db::Pool) -> (Core, std::sync::Arc<std::sync::atomic::AtomicI64>) {
    for (id, name) in [(ANN, "ann"), (BOB, "bob"), (CAT, "cat")] {
        db::upsert_player(&pool, id, name, T0).await.unwrap();
    }
    let (clock, handle) = Clock::fixed(T0);
    (Core::new(pool, clock), handle)
}

fn request(ratings: RatingRange, lasts: i64) -> OpenChallengeRequest {
    OpenChallengeRequest {
        guild_id: GUILD,
        channel_id: ChannelId(8),
        challenger: ANN,
        options: Options::parse_line("exxit tiles=39").unwrap(),
        rated: true,
        seconds_per_move: DAY,
        time_control: None,
        weekends_off: None,
        ratings,
        lasts,
    }
}

/// The refusal's words in English (panics on anything else).
fn refusal<T: std::fmt::Debug>(r: Result<T, Error>) -> String {
    match r {
        Err(Error::Refused(Refusal(t))) => t.render(Lang::EN),
        other => panic!("not a refusal: {other:?}"),
    }
}

async fn games(core: &Core) -> i64 {
    sqlx::query_scalar("SELECT count(*) FROM games")
        .fetch_one(&core.pool)
        .await
        .unwrap()
}

async fn status(core: &Core, id: i64) -> ChallengeStatus {
    db::fetch_challenge(&core.pool, id)
        .await
        .unwrap()
        .unwrap()
        .status
}

async fn rate(core: &Core, player: UserId, rating: f64) {
    let row = db::RatingRow {
        guild_id: GUILD,
        kind: GameKind::Exxit,
        player_id: player,
        rating,
        deviation: 80.0,
        volatility: 0.06,
        games: 20,
        wins: 10,
        losses: 10,
        draws: 0,
        updated_at: T0,
    };
    db::store_rating(&core.pool, &row).await.unwrap();
}

#[tokio::test]
async fn a_third_member_takes_an_open_challenge_and_a_late_one_is_told_who() {
    let (pool, _file) = db::testing::temp_db().await;
    let (core, _clock) = core_on(pool).await;
    let c = open_challenge_to_all(&core, &request(RatingRange::ANY, DAY))
        .await
        .unwrap();
    assert_eq!((c.opponent_id, c.expires_at), (None, T0 + DAY));
    let card = open_challenge_card(&c).render(Lang::EN);
    assert!(
        card.starts_with("<@11> is looking for an opponent: **EXXIT 39 tiles")
            && card.contains("Any member may accept until <t:")
            && card.len() <= 2000,
        "{card}"
    );
    // Its challenger cannot take it: nothing changes.
    let own = answer_challenge(&core, c.id, ANN, ChallengeAnswer::Accept).await;
    assert!(refusal(own).contains("your own open challenge"));
    let decline = answer_challenge(&core, c.id, CAT, ChallengeAnswer::Decline).await;
    assert!(refusal(decline).contains("no one declines"));
    let withdraw = answer_challenge(&core, c.id, CAT, ChallengeAnswer::Withdraw).await;
    assert!(refusal(withdraw).contains("Only the member who made"));
    assert_eq!(
        (status(&core, c.id).await, games(&core).await),
        (ChallengeStatus::Open, 0)
    );
    // Cat takes it: the game starts as from any challenge, Ann to move first.
    let Answered::Started { game, text } =
        answer_challenge(&core, c.id, CAT, ChallengeAnswer::Accept)
            .await
            .unwrap()
    else {
        panic!("not started");
    };
    assert_eq!(
        text.render(Lang::EN),
        format!("<@33> accepted the open challenge of <@11>: game #{game} (EXXIT 39 tiles) starts below.")
    );
    let (row, _) = load(&core.pool, game).await.unwrap();
    assert_eq!(
        (row.players, row.to_move, row.rated),
        ([ANN, CAT], Some(ANN), true)
    );
    let stored = db::fetch_challenge(&core.pool, c.id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (stored.status, stored.game_id),
        (ChallengeStatus::Accepted, Some(game))
    );
    // Bob, late, is told who took it; Ann cannot withdraw it any more.
    let late = refusal(answer_challenge(&core, c.id, BOB, ChallengeAnswer::Accept).await);
    assert_eq!(
        late,
        format!("<@33> accepted this open challenge first: it is game #{game}. To post your own, use `/challenge` without `opponent`.")
    );
    let withdraw = answer_challenge(&core, c.id, ANN, ChallengeAnswer::Withdraw).await;
    assert!(refusal(withdraw).contains("accepted this open challenge first"));
    assert_eq!(games(&core).await, 1);
}

#[tokio::test]
async fn the_rating_range_counts_a_member_without_a_rating_as_a_newcomer() {
    let (pool, _file) = db::testing::temp_db().await;
    let (core, _clock) = core_on(pool).await;
    rate(&core, BOB, 1712.4).await;
    let range = RatingRange {
        min: Some(1400),
        max: Some(1600),
    };
    let c = open_challenge_to_all(&core, &request(range, DAY))
        .await
        .unwrap();
    assert!(open_challenge_card(&c)
        .render(Lang::EN)
        .contains("Any member rated from 1400 to 1600 in EXXIT here may accept until"));
    let out = refusal(answer_challenge(&core, c.id, BOB, ChallengeAnswer::Accept).await);
    assert_eq!(
        out,
        "This open challenge is for members rated from 1400 to 1600 in EXXIT here; your rating is 1712."
    );
    assert_eq!(status(&core, c.id).await, ChallengeStatus::Open);
    // Cat has no EXXIT rating here: 1500, within.
    let started = answer_challenge(&core, c.id, CAT, ChallengeAnswer::Accept).await;
    assert!(
        matches!(started, Ok(Answered::Started { .. })),
        "{started:?}"
    );
    // Above 1600 only: Cat (1500) is refused, Bob (1712) accepted.
    let high = RatingRange {
        min: Some(1600),
        max: None,
    };
    let c = open_challenge_to_all(&core, &request(high, DAY))
        .await
        .unwrap();
    let out = refusal(answer_challenge(&core, c.id, CAT, ChallengeAnswer::Accept).await);
    assert!(
        out.contains("rated 1600 or more") && out.ends_with("your rating is 1500."),
        "{out}"
    );
    let started = answer_challenge(&core, c.id, BOB, ChallengeAnswer::Accept).await;
    assert!(
        matches!(started, Ok(Answered::Started { .. })),
        "{started:?}"
    );
    // A reversed range is refused before anything is stored.
    let reversed = RatingRange {
        min: Some(1800),
        max: Some(1200),
    };
    let before = games(&core).await;
    let out = refusal(open_challenge_to_all(&core, &request(reversed, DAY)).await);
    assert!(out.contains("(1800) is above the highest (1200)"), "{out}");
    let open: i64 = sqlx::query_scalar("SELECT count(*) FROM challenges WHERE status = 'open'")
        .fetch_one(&core.pool)
        .await
        .unwrap();
    assert_eq!((open, games(&core).await), (0, before));
}

#[tokio::test]
async fn an_open_challenge_ends_withdrawn_or_expired_and_its_card_says_so() {
    let (pool, _file) = db::testing::temp_db().await;
    let (core, clock) = core_on(pool).await;
    // Withdrawn by its challenger.
    let c = open_challenge_to_all(&core, &request(RatingRange::ANY, DAY))
        .await
        .unwrap();
    let Answered::Closed(text) = answer_challenge(&core, c.id, ANN, ChallengeAnswer::Withdraw)
        .await
        .unwrap()
    else {
        panic!("not closed");
    };
    assert_eq!(
        text.render(Lang::EN),
        "<@11> withdrew their open challenge (EXXIT 39 tiles)."
    );
    let taken = refusal(answer_challenge(&core, c.id, CAT, ChallengeAnswer::Accept).await);
    assert!(taken.contains("withdrawn"), "{taken}");
    // Lasting an hour, by the expiry timer: its card loses its buttons through the queue.
    let short = open_challenge_to_all(&core, &request(RatingRange::ANY, 3600))
        .await
        .unwrap();
    db::set_challenge_message(&core.pool, short.id, db::MessageId(500))
        .await
        .unwrap();
    clock.store(T0 + 3599, Ordering::SeqCst);
    assert!(expire_challenges(&core).await.unwrap().is_empty());
    clock.store(T0 + 3600, Ordering::SeqCst);
    let expired = expire_challenges(&core).await.unwrap();
    assert_eq!(expired.iter().map(|c| c.id).collect::<Vec<_>>(), [short.id]);
    let edits = edits_of(&core, 500).await;
    assert_eq!(
        edits,
        ["The open challenge of <@11> (EXXIT 39 tiles) expired: nobody accepted it."]
    );
    // Pressed after its time but before the timer: refused, closed, and its card edited.
    let c = open_challenge_to_all(&core, &request(RatingRange::ANY, 3600))
        .await
        .unwrap();
    db::set_challenge_message(&core.pool, c.id, db::MessageId(501))
        .await
        .unwrap();
    clock.store(T0 + 3600 + 3600, Ordering::SeqCst);
    let late = refusal(answer_challenge(&core, c.id, CAT, ChallengeAnswer::Accept).await);
    assert!(late.contains("expired"), "{late}");
    assert_eq!(status(&core, c.id).await, ChallengeStatus::Expired);
    assert_eq!(edits_of(&core, 501).await.len(), 1);
    assert_eq!(games(&core).await, 0);
    // Longer than a week, or shorter than an hour: not offered (an internal mistake).
    assert!(matches!(
        open_challenge_to_all(&core, &request(RatingRange::ANY, 8 * DAY)).await,
        Err(Error::Internal(_))
    ));
}

/// The queued edits of message `message`: their words.
async fn edits_of(core: &Core, message: u64) -> Vec<String> {
    let rows = sqlx::query("SELECT * FROM announcements ORDER BY id")
        .fetch_all(&core.pool)
        .await
        .unwrap();
    rows.iter()
        .map(|r| {
            <db::QueuedAnnouncement as sqlx::FromRow<_>>::from_row(r)
                .unwrap()
                .body
        })
        .filter(
            |a| matches!(a.target, Target::Edit { message: m, .. } if m == db::MessageId(message)),
        )
        .map(|a| a.content)
        .collect()
}

#[tokio::test]
async fn open_and_named_challenges_share_one_cap() {
    let (pool, _file) = db::testing::temp_db().await;
    let (core, _clock) = core_on(pool).await;
    for _ in 0..MAX_OPEN_CHALLENGES - 1 {
        open_challenge_to_all(&core, &request(RatingRange::ANY, DAY))
            .await
            .unwrap();
    }
    let named = ChallengeRequest {
        guild_id: Some(GUILD),
        channel_id: ChannelId(8),
        challenger: ANN,
        opponent: BOB,
        options: Options::parse_line("inphexion size=7").unwrap(),
        rated: true,
        seconds_per_move: DAY,
        challenger_first: true,
        rematch_of: None,
        time_control: None,
        weekends_off: None,
    };
    open_challenge(&core, &named).await.unwrap();
    let flood = refusal(open_challenge_to_all(&core, &request(RatingRange::ANY, DAY)).await);
    assert!(flood.contains("10 open challenges"), "{flood}");
}

/// Two members accepting one open challenge at the same moment, each press handled by its own
/// process (its own pool of connections to the database): one game starts, the other member is
/// told who took it.
async fn two_processes_accept_at_once(first: db::Pool, second: db::Pool) {
    let (one, _clock) = core_on(first).await;
    let two = Core::new(second, Clock::fixed(T0).0);
    for round in 0..5 {
        let c = open_challenge_to_all(&one, &request(RatingRange::ANY, DAY))
            .await
            .unwrap();
        let press = |core: &Core, who: UserId| {
            let core = core.clone();
            tokio::spawn(async move {
                answer_challenge(&core, c.id, who, ChallengeAnswer::Accept).await
            })
        };
        let (bob, cat) = (press(&one, BOB), press(&two, CAT));
        let results = [bob.await.unwrap(), cat.await.unwrap()];
        let started: Vec<(i64, Text)> = results
            .iter()
            .filter_map(|r| match r {
                Ok(Answered::Started { game, text }) => Some((*game, text.clone())),
                _ => None,
            })
            .collect();
        assert_eq!(started.len(), 1, "round {round}: {results:?}");
        let (game, text) = &started[0];
        let taker = if text.render(Lang::EN).starts_with("<@33>") {
            CAT
        } else {
            BOB
        };
        let refused = results.into_iter().find(|r| r.is_err()).unwrap();
        assert_eq!(
            refusal(refused),
            format!("{} accepted this open challenge first: it is game #{game}. To post your own, use `/challenge` without `opponent`.", crate::play::access::mention(taker)),
            "round {round}"
        );
        assert_eq!(games(&one).await, round + 1);
        let (row, _) = load(&one.pool, *game).await.unwrap();
        assert_eq!(row.players, [ANN, taker]);
    }
}

#[tokio::test]
async fn two_processes_accepting_at_once_start_one_game_on_sqlite() {
    let (first, file) = db::testing::temp_db().await;
    let second = db::connect(&format!("sqlite://{}", file.0.display()))
        .await
        .unwrap();
    two_processes_accept_at_once(first, second).await;
}

#[tokio::test]
async fn two_processes_accepting_at_once_start_one_game_on_postgres() {
    let (first, url) = db::testing::pg_db().await;
    let second = db::connect(&url).await.unwrap();
    two_processes_accept_at_once(first, second).await;
}
