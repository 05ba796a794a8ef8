//! The actions on a real database file: each decision, each refusal, and races.

use super::*;
use std::sync::Arc;

use crate::clock::Clock;
use crate::db::testing::temp_db;
use crate::db::{self, Announcement, ChannelId, GameStatus, GuildId, Target, UserId};
use crate::games::Options;
use crate::i18n::Lang;
use crate::play::access::mention;
use crate::play::schedule::DAY;
use crate::play::terms::ChallengeAnswer;
use crate::play::{Error, Refusal};

const T0: i64 = 1_800_000_000;
const ANN: UserId = UserId(11);
const BOB: UserId = UserId(u64::MAX - 3);

async fn core_at(
    t: i64,
) -> (
    Core,
    Arc<std::sync::atomic::AtomicI64>,
    db::testing::TempFile,
) {
    let (pool, file) = temp_db().await;
    for (id, name) in [(ANN, "ann"), (BOB, "bob")] {
        db::upsert_player(&pool, id, name, T0).await.unwrap();
    }
    let (clock, handle) = Clock::fixed(t);
    (Core::new(pool, clock), handle, file)
}

async fn started(core: &Core, line: &str, rated: bool) -> i64 {
    started_in(core, Some(GuildId(7)), line, rated).await
}

/// A game between Ann and Bob started in server `guild`, or in a chat (`None`).
async fn started_in(core: &Core, guild: Option<GuildId>, line: &str, rated: bool) -> i64 {
    let req = ChallengeRequest {
        guild_id: guild,
        channel_id: ChannelId(8),
        challenger: ANN,
        opponent: BOB,
        options: Options::parse_line(line).unwrap(),
        rated,
        seconds_per_move: DAY,
        challenger_first: true,
        rematch_of: None,
        time_control: None,
        weekends_off: None,
    };
    let c = open_challenge(core, &req).await.unwrap();
    match answer_challenge(core, c, BOB, ChallengeAnswer::Accept)
        .await
        .unwrap()
    {
        Answered::Started { game, .. } => game,
        other => panic!("{other:?}"),
    }
}

async fn queued(core: &Core) -> Vec<Announcement> {
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
        .collect()
}

#[tokio::test]
async fn a_takeback_needs_the_opponent_and_gives_the_clock_back() {
    let (core, clock, _f) = core_at(T0).await;
    let id = started(&core, "inphexion size=5", true).await;
    let at = |t: i64| clock.store(t, std::sync::atomic::Ordering::SeqCst);
    at(T0 + 600);
    play_move(&core, id, ANN, "c3", None).await.unwrap();
    let refused = ask_takeback(&core, id, BOB).await.unwrap_err();
    assert!(
        matches!(&refused, Error::Refused(Refusal(t)) if t.render(crate::i18n::Lang::EN).contains("your turn")),
        "{refused:?}"
    );
    let (ply, text) = ask_takeback(&core, id, ANN).await.unwrap();
    assert_eq!(ply.ply, 1);
    let text = text.render(Lang::EN);
    // The move in words, not in notation.
    assert!(text.contains("move 1 of game"), "{text}");
    assert!(text.contains(": Place a disc on c3."), "{text}");
    assert!(!text.contains('`'), "{text}");
    // Only the opponent answers; a decline changes nothing.
    assert!(answer_takeback(&core, id, ply, ANN, true).await.is_err());
    answer_takeback(&core, id, ply, BOB, false).await.unwrap();
    assert_eq!(load(&core.pool, id).await.unwrap().1.ply(), 1);
    at(T0 + 900);
    answer_takeback(&core, id, ply, BOB, true).await.unwrap();
    let (row, game) = load(&core.pool, id).await.unwrap();
    assert_eq!((game.ply(), row.version, row.to_move), (0, 0, Some(ANN)));
    // The board before it says which move was taken back, in words.
    let board = queued(&core)
        .await
        .pop()
        .expect("the board before the move");
    assert!(
        board
            .content
            .contains("took back move 1: Place a disc on c3."),
        "{}",
        board.content
    );
    // Ann had a day less 600 s left when she moved: she has it again from now.
    assert_eq!(row.deadline_at, Some(T0 + 900 + DAY - 600));
    let kept: (i64, String) =
        sqlx::query_as("SELECT ply, notation FROM takebacks WHERE game_id = $1")
            .bind(id)
            .fetch_one(&core.pool)
            .await
            .unwrap();
    assert_eq!(kept, (1, "c3".to_string()));
    // An answer to the same request again is stale.
    let stale = answer_takeback(&core, id, ply, BOB, true)
        .await
        .unwrap_err();
    assert!(
        matches!(&stale, Error::Refused(Refusal(t)) if t.render(crate::i18n::Lang::EN).contains("moved on")),
        "{stale:?}"
    );
    play_move(&core, id, ANN, "b2", Some(0)).await.unwrap();
    assert_eq!(
        load(&core.pool, id).await.unwrap().1.moves()[0].to_string(),
        "b2"
    );
}

/// Ann asks twice to take back `c3`; Bob accepts the first; Ann plays `b2` on the same ply; Bob
/// then accepts the second, older request: it names `c3`, which is gone, so `b2` stays.
#[tokio::test]
async fn an_old_takeback_request_never_undoes_another_move() {
    let (core, _clock, _f) = core_at(T0).await;
    let id = started(&core, "inphexion size=5", true).await;
    play_move(&core, id, ANN, "c3", None).await.unwrap();
    let (first, _) = ask_takeback(&core, id, ANN).await.unwrap();
    let (second, _) = ask_takeback(&core, id, ANN).await.unwrap();
    answer_takeback(&core, id, first, BOB, true).await.unwrap();
    play_move(&core, id, ANN, "b2", None).await.unwrap();
    let stale = answer_takeback(&core, id, second, BOB, true)
        .await
        .unwrap_err();
    assert!(
        matches!(&stale, Error::Refused(Refusal(t)) if t.render(Lang::EN).contains("moved on")),
        "{stale:?}"
    );
    let (row, game) = load(&core.pool, id).await.unwrap();
    assert_eq!(
        (row.version, game.moves()[0].to_string()),
        (1, "b2".to_string())
    );
    // A call-off proposed before a takeback does not apply to the position played again.
    let (proposal, _) = propose_call_off(&core, id, ANN).await.unwrap();
    let (request, _) = ask_takeback(&core, id, ANN).await.unwrap();
    answer_takeback(&core, id, request, BOB, true)
        .await
        .unwrap();
    play_move(&core, id, ANN, "b2", None).await.unwrap();
    assert!(answer_call_off(&core, id, proposal, ANN, BOB, true)
        .await
        .is_err());
    assert_eq!(
        load(&core.pool, id).await.unwrap().0.status,
        GameStatus::Active
    );
}

/// A resignation confirmed while the opponent's move lands is still a resignation: the two race
/// many times, and every resignation ends the game.
#[tokio::test]
async fn a_resignation_racing_a_move_still_resigns() {
    let (core, _clock, _f) = core_at(T0).await;
    for _ in 0..10 {
        let id = started(&core, "inphexion size=5", false).await;
        play_move(&core, id, ANN, "c3", None).await.unwrap();
        let bob_moves = play_move(&core, id, BOB, "b2", None);
        let ann_resigns = resign(&core, id, ANN);
        let (_, resigned) = tokio::join!(bob_moves, ann_resigns);
        resigned.unwrap();
        let (row, _) = load(&core.pool, id).await.unwrap();
        assert_ne!(row.status, GameStatus::Active);
        assert_eq!(row.winner_id, Some(BOB));
    }
}

#[tokio::test]
async fn a_game_is_called_off_only_early_and_only_by_agreement() {
    let (core, _t, _f) = core_at(T0).await;
    let id = started(&core, "inphexion size=5", true).await;
    let (ply, _) = propose_call_off(&core, id, BOB).await.unwrap();
    assert!(
        answer_call_off(&core, id, ply, BOB, BOB, true)
            .await
            .is_err(),
        "not the proposer"
    );
    answer_call_off(&core, id, ply, BOB, ANN, false)
        .await
        .unwrap();
    assert_eq!(
        load(&core.pool, id).await.unwrap().0.status,
        GameStatus::Active
    );
    play_move(&core, id, ANN, "c3", None).await.unwrap();
    let stale = answer_call_off(&core, id, ply, BOB, ANN, true)
        .await
        .unwrap_err();
    assert!(
        matches!(&stale, Error::Refused(Refusal(t)) if t.render(crate::i18n::Lang::EN).contains("moved on")),
        "{stale:?}"
    );
    let (ply, _) = propose_call_off(&core, id, ANN).await.unwrap();
    answer_call_off(&core, id, ply, ANN, BOB, true)
        .await
        .unwrap();
    let (row, _) = load(&core.pool, id).await.unwrap();
    assert_eq!(row.status, GameStatus::Aborted);
    assert_eq!(row.result_text(), "aborted by agreement");
    assert!(db::fetch_rating(
        &core.pool,
        GuildId(7),
        crate::games::GameKind::Inphexion,
        ANN
    )
    .await
    .unwrap()
    .is_none());
    // Later in a game it is too late.
    let id = started(&core, "inphexion size=5", true).await;
    for (who, mv) in [(ANN, "c3"), (BOB, "c3-c2"), (ANN, "b2"), (BOB, "d4")] {
        if play_move(&core, id, who, mv, None).await.is_err() {
            let (_, game) = load(&core.pool, id).await.unwrap();
            let any = game.legal_notations()[0].clone();
            play_move(&core, id, who, &any, None).await.unwrap();
        }
    }
    let late = propose_call_off(&core, id, ANN).await.unwrap_err();
    assert!(
        matches!(&late, Error::Refused(Refusal(t)) if t.render(crate::i18n::Lang::EN).contains("under way")),
        "{late:?}"
    );
}

#[tokio::test]
async fn a_rematch_swaps_the_seats_and_keeps_the_terms() {
    let (core, _t, _f) = core_at(T0).await;
    let id = started(&core, "exxit tiles=19 pie", true).await;
    let refused = offer_rematch(&core, id, ANN).await.unwrap_err();
    assert!(
        matches!(&refused, Error::Refused(Refusal(t)) if t.render(crate::i18n::Lang::EN).contains("still being played"))
    );
    resign(&core, id, BOB).await.unwrap();
    let stranger = offer_rematch(&core, id, UserId(99)).await.unwrap_err();
    assert!(
        matches!(&stranger, Error::Refused(Refusal(t)) if t.render(crate::i18n::Lang::EN).contains("Only the players"))
    );
    // Either player may offer it; Ann sat first, so Bob starts the rematch.
    let (c, text, _) = offer_rematch(&core, id, ANN).await.unwrap();
    let text = text.render(Lang::EN);
    assert!(text.contains(&format!("game #{id}")), "{text}");
    assert!(
        offer_rematch(&core, id, BOB).await.is_err(),
        "one offer at a time"
    );
    let Answered::Started { game, .. } = answer_challenge(&core, c, BOB, ChallengeAnswer::Accept)
        .await
        .unwrap()
    else {
        panic!("the rematch starts");
    };
    let (old, _) = load(&core.pool, id).await.unwrap();
    let (new, _) = load(&core.pool, game).await.unwrap();
    assert_eq!(new.players, [BOB, ANN]);
    assert_eq!(new.to_move, Some(BOB));
    assert_eq!(
        (new.options.clone(), new.rated, new.seconds_per_move),
        (old.options, old.rated, old.seconds_per_move)
    );
    let ch = db::fetch_challenge(&core.pool, c).await.unwrap().unwrap();
    assert_eq!((ch.rematch_of, ch.challenger_first), (Some(id), false));
}

#[tokio::test]
async fn a_server_without_threads_plays_in_the_channel() {
    let (core, _t, _f) = core_at(T0).await;
    let off = db::ServerSettings { threads: false };
    db::store_server_settings(&core.pool, GuildId(7), off, T0)
        .await
        .unwrap();
    let id = started(&core, "exxit", false).await;
    let q = queued(&core).await;
    assert_eq!(q.len(), 1, "{q:?}");
    assert_eq!(
        q[0].target,
        Target::Game {
            game: id,
            channel: ChannelId(8)
        }
    );
}

#[test]
fn thread_names_fit_discord() {
    use crate::games::GameKind;
    assert_eq!(
        thread_name(12, GameKind::Exxit, ["alice", "bob"]),
        "#12 EXXIT · alice vs bob"
    );
    let long = "名".repeat(80);
    let name = thread_name(7, GameKind::Inphexion, [&long, &long]);
    // Cut after " vs ", the space dropped before the ellipsis.
    assert_eq!(name.chars().count(), 99);
    assert!(
        name.starts_with("#7 inpHeXion · 名") && name.ends_with("名 vs…"),
        "{name}"
    );
}

#[tokio::test]
async fn a_move_is_stored_with_its_board_in_one_transaction() {
    let (core, _t, _f) = core_at(T0).await;
    let id = started(&core, "inphexion size=5", false).await;
    let start = queued(&core).await;
    assert_eq!(start.len(), 2);
    // The game's thread opens first, with its players, then the board goes there.
    assert_eq!(
        start[0].target,
        Target::OpenThread {
            game: id,
            channel: ChannelId(8),
            from: None
        }
    );
    assert_eq!(start[0].content, format!("#{id} inpHeXion · ann vs bob"));
    assert_eq!(start[0].concerned, [ANN, BOB]);
    assert_eq!(
        start[1].target,
        Target::Game {
            game: id,
            channel: ChannelId(8)
        }
    );
    assert_eq!(start[1].mentions, [ANN], "the first player is pinged");
    // Refusals change nothing.
    for (who, text, needle) in [
        (BOB, "c3", "not your turn"),
        (ANN, "zz9", "cannot be played"),
    ] {
        let e = play_move(&core, id, who, text, None).await.unwrap_err();
        assert!(
            matches!(&e, Error::Refused(Refusal(t)) if t.render(crate::i18n::Lang::EN).contains(needle)),
            "{e:?}"
        );
    }
    let played = play_move(&core, id, ANN, "c3", None).await.unwrap();
    assert_eq!(
        (played.ply, played.notation.as_str(), played.over),
        (1, "c3", false)
    );
    let row = db::fetch_game(&core.pool, id).await.unwrap().unwrap();
    assert_eq!((row.version, row.to_move), (1, Some(BOB)));
    let q = queued(&core).await;
    assert_eq!(q.len(), 3);
    assert_eq!(q[2].board.map(|b| b.ply), Some(1));
    // The move in words, its notation in small print.
    assert!(
        q[2].content.contains(&format!(
            "Move 1 · {}: Place a disc on c3\n-# `c3`",
            mention(ANN)
        )),
        "{}",
        q[2].content
    );
    assert_eq!(q[2].mentions, [BOB]);
    // A move on a position the mover did not see is refused.
    let stale = play_move(&core, id, BOB, "c3-d3", Some(0))
        .await
        .unwrap_err();
    assert!(
        matches!(&stale, Error::Refused(Refusal(t)) if t.render(crate::i18n::Lang::EN).contains("changed")),
        "{stale:?}"
    );
}

#[tokio::test]
async fn resigning_and_timing_out_end_the_game_once_with_one_announcement() {
    let (core, clock, _f) = core_at(T0).await;
    let id = started(&core, "inphexion size=5", true).await;
    assert!(!time_out(&core, id).await.unwrap(), "not yet");
    clock.store(T0 + DAY, std::sync::atomic::Ordering::SeqCst);
    assert!(time_out(&core, id).await.unwrap());
    assert!(!time_out(&core, id).await.unwrap(), "only once");
    let row = db::fetch_game(&core.pool, id).await.unwrap().unwrap();
    assert_eq!(
        (row.status, row.winner_id, row.to_move),
        (GameStatus::Finished, Some(BOB), None)
    );
    let e = resign(&core, id, ANN).await.unwrap_err();
    assert!(
        matches!(&e, Error::Refused(Refusal(t)) if t.render(crate::i18n::Lang::EN).contains("over")),
        "{e:?}"
    );
    let q = queued(&core).await;
    assert_eq!(q.len(), 5);
    assert!(q[2].content.contains("ran out of time"));
    assert_eq!(q[2].mentions, [ANN, BOB]);
    // Then one line in the channel (when the game has a thread), and the thread archived.
    let at = ChannelId(8);
    assert_eq!(
        (&q[3].target, &q[4].target),
        (
            &Target::Parent {
                game: id,
                channel: at
            },
            &Target::Archive {
                game: id,
                channel: at
            }
        )
    );
    assert!(
        q[3].content.contains(&format!(
            "{} (black) beat {} on time.",
            mention(BOB),
            mention(ANN)
        )),
        "{}",
        q[3].content
    );
    assert!(q[3].mentions.is_empty(), "the line pings nobody");
    // Rated: both players have a rating now.
    assert!(db::fetch_rating(
        &core.pool,
        GuildId(7),
        crate::games::GameKind::Inphexion,
        BOB
    )
    .await
    .unwrap()
    .is_some());
}

#[tokio::test]
async fn a_vacation_never_revives_a_lost_game_and_its_cap_holds_under_concurrency() {
    let (core, clock, _f) = core_at(T0).await;
    let id = started(&core, "inphexion size=5", false).await;
    // Ann's deadline passed; her vacation leaves it alone.
    clock.store(T0 + DAY + 5, std::sync::atomic::Ordering::SeqCst);
    let v = take_vacation(&core, ANN, 3).await.unwrap();
    assert_eq!(v.paused, 0);
    assert!(time_out(&core, id).await.unwrap(), "still lost on time");
    // Four requests for 30 days at once: one is taken.
    let (core2, _t2, _f2) = core_at(T0).await;
    let results = futures_all(&core2).await;
    assert_eq!(
        results.iter().filter(|r| r.is_ok()).count(),
        1,
        "{results:?}"
    );
    let used = db::vacation_seconds_since(&core2.pool, BOB, T0 - 365 * DAY)
        .await
        .unwrap();
    assert_eq!(used, 30 * DAY);
}

async fn futures_all(core: &Core) -> Vec<Result<Vacation, String>> {
    let mut set = tokio::task::JoinSet::new();
    for _ in 0..4 {
        let core = core.clone();
        set.spawn(async move {
            take_vacation(&core, BOB, 30)
                .await
                .map_err(|e| format!("{e:?}"))
        });
    }
    let mut out = Vec::new();
    while let Some(r) = set.join_next().await {
        out.push(r.unwrap());
    }
    out
}

#[tokio::test]
async fn challenges_are_capped_per_member_and_per_pair() {
    let (core, _t, _f) = core_at(T0).await;
    let mut req = ChallengeRequest {
        guild_id: Some(GuildId(7)),
        channel_id: ChannelId(8),
        challenger: ANN,
        opponent: BOB,
        options: Options::parse_line("exxit tiles=39").unwrap(),
        rated: true,
        seconds_per_move: DAY,
        challenger_first: true,
        rematch_of: None,
        time_control: None,
        weekends_off: None,
    };
    open_challenge(&core, &req).await.unwrap();
    // The same pair and game, either way round, with other options: refused.
    req.options = Options::parse_line("exxit tiles=19").unwrap();
    let again = open_challenge(&core, &req).await.unwrap_err();
    assert!(
        matches!(&again, Error::Refused(Refusal(t)) if t.render(crate::i18n::Lang::EN).contains("already an open")),
        "{again:?}"
    );
    (req.challenger, req.opponent) = (BOB, ANN);
    assert!(open_challenge(&core, &req).await.is_err());
    (req.challenger, req.opponent) = (ANN, BOB);
    req.options = Options::parse_line("inphexion size=7").unwrap();
    open_challenge(&core, &req).await.unwrap();
    for n in 0..8u64 {
        req.opponent = UserId(1000 + n);
        db::upsert_player(&core.pool, req.opponent, "x", T0)
            .await
            .unwrap();
        open_challenge(&core, &req).await.unwrap();
    }
    req.opponent = UserId(2000);
    db::upsert_player(&core.pool, req.opponent, "x", T0)
        .await
        .unwrap();
    let flood = open_challenge(&core, &req).await.unwrap_err();
    assert!(
        matches!(&flood, Error::Refused(Refusal(t)) if t.render(crate::i18n::Lang::EN).contains("10 open challenges")),
        "{flood:?}"
    );
}

/// The results of tasks started together, and how many succeeded.
async fn settled<T>(
    tasks: Vec<tokio::task::JoinHandle<Result<T, Error>>>,
) -> (usize, Vec<Result<T, Error>>) {
    let mut results = Vec::new();
    for t in tasks {
        results.push(t.await.unwrap());
    }
    (results.iter().filter(|r| r.is_ok()).count(), results)
}

/// Requests arriving together are counted one after the other: the caps hold.
async fn caps_hold_when_requests_arrive_together(pool: db::Pool) {
    let others: Vec<UserId> = (0..14).map(|n| UserId(3000 + n)).collect();
    let me = UserId(999);
    for &id in [ANN, BOB, me].iter().chain(&others) {
        db::upsert_player(&pool, id, "x", T0).await.unwrap();
    }
    let core = Core::new(pool, Clock::fixed(T0).0);
    let req = |challenger, opponent| ChallengeRequest {
        guild_id: Some(GuildId(7)),
        channel_id: ChannelId(8),
        challenger,
        opponent,
        options: Options::parse_line("inphexion size=7").unwrap(),
        rated: true,
        seconds_per_move: DAY,
        challenger_first: true,
        rematch_of: None,
        time_control: None,
        weekends_off: None,
    };
    let refused = |results: &[Result<i64, Error>], text: &str| {
        results
            .iter()
            .filter(|r| {
                matches!(r, Err(Error::Refused(crate::play::Refusal(t))) if t.render(crate::i18n::Lang::EN).contains(text))
            })
            .count()
    };
    // Fourteen challenges by one member at once: ten open.
    let tasks: Vec<_> = others
        .iter()
        .map(|&o| {
            let (core, req) = (core.clone(), req(ANN, o));
            tokio::spawn(async move { open_challenge(&core, &req).await })
        })
        .collect();
    let (opened, results) = settled(tasks).await;
    assert_eq!(opened, 10, "{results:?}");
    assert_eq!(refused(&results, "10 open challenges"), 4, "{results:?}");
    // Two members challenging each other at once: one challenge.
    let (a, b) = (
        tokio::spawn({
            let (core, req) = (core.clone(), req(BOB, others[0]));
            async move { open_challenge(&core, &req).await }
        }),
        tokio::spawn({
            let (core, req) = (core.clone(), req(others[0], BOB));
            async move { open_challenge(&core, &req).await }
        }),
    );
    let (opened, results) = settled(vec![a, b]).await;
    assert_eq!(opened, 1, "{results:?}");
    assert_eq!(refused(&results, "already an open"), 1, "{results:?}");
    // Six games against the bot at once: three.
    let tasks: Vec<_> = (0..6)
        .map(|_| {
            let core = core.clone();
            let req = BotGameRequest {
                guild_id: Some(GuildId(7)),
                channel_id: ChannelId(8),
                member: BOB,
                bot: me,
                options: Options::parse_line("inphexion size=7").unwrap(),
                level: crate::ai::Level::Easy,
                member_first: true,
                coached: false,
            };
            tokio::spawn(async move { start_bot_game(&core, &req).await })
        })
        .collect();
    let (started, results) = settled(tasks).await;
    assert_eq!(started, 3, "{results:?}");
    assert_eq!(
        db::count_active_bot_games(&core.pool, BOB).await.unwrap(),
        3
    );
}

#[tokio::test]
async fn caps_hold_when_requests_arrive_together_on_sqlite() {
    let (pool, _file) = temp_db().await;
    caps_hold_when_requests_arrive_together(pool).await;
}

#[tokio::test]
async fn caps_hold_when_requests_arrive_together_on_postgres() {
    let (pool, _url) = db::testing::pg_db().await;
    caps_hold_when_requests_arrive_together(pool).await;
}

#[tokio::test]
async fn reminders_follow_the_stored_turn_and_mode() {
    let (core, clock, _f) = core_at(T0).await;
    let id = started(&core, "inphexion size=5", false).await;
    assert!(!remind(&core, id).await.unwrap());
    clock.store(T0 + DAY / 2, std::sync::atomic::Ordering::SeqCst);
    assert!(remind(&core, id).await.unwrap());
    assert!(!remind(&core, id).await.unwrap(), "once");
    let dm = db::Settings {
        notify: db::NotifyMode::Dm,
        reminders: true,
    };
    db::store_settings(&core.pool, ANN, dm, T0).await.unwrap();
    clock.store(T0 + DAY - 60, std::sync::atomic::Ordering::SeqCst);
    assert!(remind(&core, id).await.unwrap());
    let q = queued(&core).await;
    assert_eq!(
        q[2].target,
        Target::Game {
            game: id,
            channel: ChannelId(8)
        }
    );
    assert_eq!(
        q[3].target,
        Target::Direct {
            user: ANN,
            or_channel: Some(ChannelId(8))
        }
    );
}

/// Every ending draws its final board with the result, never a player to move: a resignation,
/// a loss on time, a call-off by agreement and a moderator's abort, in the picture's status line
/// (its SVG twin), the PNG and the alt text, in both languages.
#[tokio::test]
async fn every_ending_draws_its_final_board_with_the_result() {
    let (core, clock, _f) = core_at(T0).await;
    let resigned = started(&core, "inphexion size=5", true).await;
    play_move(&core, resigned, ANN, "c3", None).await.unwrap();
    resign(&core, resigned, BOB).await.unwrap();
    let timed = started(&core, "exxit tiles=19", false).await;
    let agreed = started(&core, "inphexion size=5", false).await;
    let (at, _) = propose_call_off(&core, agreed, ANN).await.unwrap();
    answer_call_off(&core, agreed, at, ANN, BOB, true)
        .await
        .unwrap();
    let aborted = started(&core, "exxit tiles=19", false).await;
    abort(&core, aborted, "mod", true, Some(GuildId(7)))
        .await
        .unwrap();
    clock.store(T0 + DAY, std::sync::atomic::Ordering::SeqCst);
    assert!(time_out(&core, timed).await.unwrap());

    let names = ["ann".to_string(), "bob".to_string()];
    let cases = [
        (
            resigned,
            "ann (White) wins by resignation",
            "ann（白）の勝ち（投了）",
            "after move 1: white wins by resignation",
        ),
        (
            timed,
            "bob (Red) wins on time",
            "bob（赤）の勝ち（時間切れ）",
            "at the start: red wins on time",
        ),
        (
            agreed,
            "Called off: no result",
            "中止（勝敗なし）",
            "at the start: called off, no result",
        ),
        (
            aborted,
            "Called off: no result",
            "中止（勝敗なし）",
            "at the start: called off, no result",
        ),
    ];
    for (id, status, status_ja, alt) in cases {
        let (_, game) = load(&core.pool, id).await.unwrap();
        assert!(game.is_over(), "game {id}");
        let svg = crate::render::svg::board(Lang::EN, &game, None, &names, &[]).unwrap();
        assert!(svg.contains(status), "game {id}: {status} not in the board");
        assert!(!svg.contains("to move"), "game {id}: a player to move");
        let svg = crate::render::svg::board(Lang::of("ja"), &game, None, &names, &[]).unwrap();
        assert!(
            svg.contains(status_ja),
            "game {id}: {status_ja} not in the board"
        );
        assert!(!svg.contains("手番"), "game {id}: a player to move");
        let png =
            crate::render::render_png(&game, None, &names, crate::render::Theme::Light).unwrap();
        assert!(png.starts_with(b"\x89PNG"), "game {id}");
        let text = crate::play::present::alt_text(Lang::EN, id, &game, game.ply());
        assert!(text.contains(alt), "game {id}: {text}");
    }
}

/// A Fischer game (3 days + 1 a move, at most 7): banks grow with the increment up to the cap, a
/// takeback gives back exactly what the mover had, and a vacation stops the clock.
#[tokio::test]
async fn fischer_banks_takebacks_and_vacations() {
    let (core, clock, _f) = core_at(T0).await;
    let req = ChallengeRequest {
        guild_id: Some(GuildId(7)),
        channel_id: ChannelId(8),
        challenger: ANN,
        opponent: BOB,
        options: Options::parse_line("inphexion size=5").unwrap(),
        rated: false,
        seconds_per_move: DAY,
        challenger_first: true,
        rematch_of: None,
        time_control: crate::time_control::preset("fischer-3-1-7").map(|p| p.control),
        weekends_off: Some(false),
    };
    let c = open_challenge(&core, &req).await.unwrap();
    let Answered::Started { game: id, .. } =
        answer_challenge(&core, c, BOB, ChallengeAnswer::Accept)
            .await
            .unwrap()
    else {
        panic!("not started")
    };
    let at = |t: i64| clock.store(t, std::sync::atomic::Ordering::SeqCst);
    let row = |core: &Core| {
        let pool = core.pool.clone();
        async move { db::fetch_game(&pool, id).await.unwrap().unwrap() }
    };
    assert_eq!(row(&core).await.deadline_at, Some(T0 + 3 * DAY));
    // Ann moves after a day: 2 days left + 1 = 3; Bob has his 3 days from now.
    at(T0 + DAY);
    play_move(&core, id, ANN, "c3", None).await.unwrap();
    let r = row(&core).await;
    let clock_of = |r: &db::GameRow| r.clock.expect("a clock");
    assert_eq!(clock_of(&r).banks, [3 * DAY, 3 * DAY]);
    assert_eq!(r.deadline_at, Some(T0 + 4 * DAY));
    // Taken back an hour later: Ann has exactly her 2 days again, from now.
    at(T0 + DAY + 3600);
    let (ply, _) = ask_takeback(&core, id, ANN).await.unwrap();
    answer_takeback(&core, id, ply, BOB, true).await.unwrap();
    let r = row(&core).await;
    assert_eq!(clock_of(&r).banks[0], 2 * DAY);
    assert_eq!(r.deadline_at, Some(T0 + DAY + 3600 + 2 * DAY));
    // Ann goes on vacation for 5 days: her clock stops until it ends.
    take_vacation(&core, ANN, 5).await.unwrap();
    let r = row(&core).await;
    assert_eq!(r.deadline_at, Some(T0 + DAY + 3600 + 7 * DAY));
    // Back and moving at once: the 2 days left (the vacation took none) + 1.
    at(T0 + DAY + 3600 + 5 * DAY);
    play_move(&core, id, ANN, "c3", None).await.unwrap();
    assert_eq!(clock_of(&row(&core).await).banks[0], 3 * DAY);
}

/// In a chat, where everyone sees every board, a game is not followed: a member who presses an
/// old board's Follow is told so, and one who does not play it is told that only its players
/// keep notes (no advice to follow it). A server's game is followed, and its refusal of notes
/// names following.
#[tokio::test]
async fn games_in_chats_are_not_followed_and_notes_name_their_players() {
    let (core, _, _file) = core_at(T0).await;
    let eve = UserId(12);
    db::upsert_player(&core.pool, eve, "eve", T0).await.unwrap();
    let chat = started_in(&core, None, "inphexion size=5", true).await;
    let Err(Error::Refused(Refusal(why))) = toggle_follow(&core, chat, eve, None).await else {
        panic!("a chat game is followed");
    };
    assert_eq!(why.id, "follow-not-in-chats");
    let (row, _) = load(&core.pool, chat).await.unwrap();
    let Err(Error::Refused(Refusal(why))) =
        crate::play::notes::check_note_taker(&core.pool, &row, eve).await
    else {
        panic!("notes for a member who does not play");
    };
    for lang in [Lang::EN, Lang::of("ja")] {
        let said = why.render(lang);
        assert!(!said.contains('/'), "no command to follow it: {said}");
    }
    crate::play::notes::check_note_taker(&core.pool, &row, ANN)
        .await
        .unwrap();

    let server = started(&core, "inphexion size=5", true).await;
    let (row, _) = load(&core.pool, server).await.unwrap();
    let Err(Error::Refused(Refusal(why))) =
        crate::play::notes::check_note_taker(&core.pool, &row, eve).await
    else {
        panic!("notes for a member who neither plays nor follows");
    };
    for lang in [Lang::EN, Lang::of("ja")] {
        let said = why.render(lang);
        assert!(said.contains('/'), "the command to follow it: {said}");
    }
    let (following, _) = toggle_follow(&core, server, eve, Some(GuildId(7)))
        .await
        .unwrap();
    assert!(following);
    crate::play::notes::check_note_taker(&core.pool, &row, eve)
        .await
        .unwrap();
}

/// A conditional reply played at once after a move comes back with it, as the notice its board
/// shows (the chat's board, made from the move, names it).
/// The player whose conditional reply answers a move is not told to move by the board before
/// their reply (it follows at once); after a move they planned nothing for, they are.
#[tokio::test]
async fn a_planned_reply_spares_its_player_the_turn_notice() {
    let (core, _, _file) = core_at(T0).await;
    let id = started_in(&core, Some(GuildId(5)), "inphexion size=5", true).await;
    let dm = db::Settings {
        notify: db::NotifyMode::Dm,
        reminders: true,
    };
    db::store_settings(&core.pool, BOB, dm, T0).await.unwrap();
    let to_bob = |q: &[Announcement]| {
        q.iter()
            .filter(|a| matches!(a.target, Target::Direct { user, .. } if user == BOB))
            .count()
    };
    let (_, game) = load(&core.pool, id).await.unwrap();
    let first = game.legal_notations()[0].clone();
    let mut after = game.clone();
    after.play_text(&first).unwrap();
    let reply = after.legal_notations()[0].clone();
    crate::play::plans::plan(&core, id, BOB, &[&first, &reply])
        .await
        .unwrap();
    let before = to_bob(&queued(&core).await);
    let played = play_move(&core, id, ANN, first.as_str(), None)
        .await
        .unwrap();
    assert_eq!(played.replies.len(), 1, "{played:?}");
    let q = queued(&core).await;
    assert_eq!(
        to_bob(&q),
        before,
        "no notice before the planned reply: {q:#?}"
    );
    let board = q
        .iter()
        .rev()
        .find(|a| a.content.contains(&mention(ANN)) && !a.mentions.is_empty())
        .expect("the board after the reply tells Ann");
    assert!(!board.mentions.contains(&BOB), "{board:#?}");
    // A move Bob planned nothing for: he is told, by direct message as he chose.
    let (_, game) = load(&core.pool, id).await.unwrap();
    let next = game.legal_notations()[0].clone();
    play_move(&core, id, ANN, next.as_str(), None)
        .await
        .unwrap();
    assert_eq!(to_bob(&queued(&core).await), before + 1);
}

#[tokio::test]
async fn a_conditional_reply_comes_back_with_the_move_it_answers() {
    let (core, _, _file) = core_at(T0).await;
    let id = started_in(&core, None, "inphexion size=5", true).await;
    let (_, game) = load(&core.pool, id).await.unwrap();
    let first = game.legal_notations()[0].clone();
    let mut after = game.clone();
    after.play_text(&first).unwrap();
    let reply = after.legal_notations()[0].clone();
    crate::play::plans::plan(&core, id, BOB, &[&first, &reply])
        .await
        .unwrap();
    let played = play_move(&core, id, ANN, first.as_str(), None)
        .await
        .unwrap();
    assert_eq!(played.ply, 1);
    assert_eq!(played.replies.len(), 1, "{played:?}");
    let notice = played.replies[0].render(Lang::EN);
    assert!(
        played.replies[0].id == "plans-played" && notice.contains(&mention(BOB)),
        "{notice}"
    );
    let (_, game) = load(&core.pool, id).await.unwrap();
    assert_eq!(game.ply(), 2);
    assert_eq!(game.moves()[1].to_string(), reply);
    // A move nobody planned a reply to: none.
    let next = game.legal_notations()[0].clone();
    let played = play_move(&core, id, ANN, next.as_str(), None)
        .await
        .unwrap();
    assert!(played.replies.is_empty(), "{played:?}");
}
