//! Tournaments on real databases (SQLite and PostgreSQL): refusals that change nothing, a Swiss
//! event with a late join and a withdrawal, a double round robin with losses on time, and rounds
//! advanced once by processes racing.

use std::collections::HashSet;

use super::*;
use crate::clock::Clock;
use crate::db::{Pool, TournamentFormat as F};
use crate::play::actions::{resign, time_out};
use crate::play::schedule::DAY;
use crate::play::Refusal;

const T0: i64 = 1_800_000_000;
const GUILD: GuildId = GuildId(7);
const CHANNEL: ChannelId = ChannelId(8);
const ORGANISER: UserId = UserId(1);

fn member(n: u64) -> UserId {
    UserId(100 + n)
}

async fn core_on(pool: Pool) -> (Core, std::sync::Arc<std::sync::atomic::AtomicI64>) {
    db::upsert_player(&pool, ORGANISER, "organiser", T0)
        .await
        .expect("organiser");
    for n in 1..=8 {
        db::upsert_player(&pool, member(n), &format!("m{n}"), T0)
            .await
            .expect("member");
    }
    let (clock, handle) = Clock::fixed(T0);
    (Core::new(pool, clock), handle)
}

fn request(format: F, rounds: Option<i64>, max: Option<i64>) -> TournamentRequest {
    TournamentRequest {
        guild_id: GUILD,
        channel_id: CHANNEL,
        creator: ORGANISER,
        manager: true,
        name: "Autumn cup".to_string(),
        options: Options::parse_line("inphexion size=5").expect("options"),
        format,
        rounds,
        seconds_per_move: DAY,
        rated: true,
        max_players: max,
        starts_at: None,
        time_control: None,
        weekends_off: None,
    }
}

/// The message id of a refusal (panics on anything else).
fn refused<T: std::fmt::Debug>(r: Result<T, Error>) -> String {
    match r {
        Err(Error::Refused(Refusal(t))) => t.id.to_string(),
        other => panic!("expected a refusal, got {other:?}"),
    }
}

/// Everything stored about tournaments, to check that a refusal changed nothing.
async fn snapshot(pool: &Pool) -> (Vec<(i64, i64)>, i64, i64, i64) {
    let t: Vec<(i64, i64)> = sqlx::query_as("SELECT id, version FROM tournaments ORDER BY id")
        .fetch_all(pool)
        .await
        .expect("tournaments");
    let count = |sql: &'static str| async move {
        sqlx::query_scalar::<_, i64>(sql)
            .fetch_one(pool)
            .await
            .expect("count")
    };
    (
        t,
        count("SELECT COUNT(*) FROM tournament_players").await,
        count("SELECT COUNT(*) FROM tournament_pairings").await,
        count("SELECT COUNT(*) FROM games").await,
    )
}

async fn announcements(pool: &Pool) -> Vec<String> {
    let rows = sqlx::query("SELECT * FROM announcements ORDER BY id")
        .fetch_all(pool)
        .await
        .expect("announcements");
    rows.iter()
        .map(|r| {
            <db::QueuedAnnouncement as sqlx::FromRow<_>>::from_row(r)
                .expect("announcement")
                .body
                .content
        })
        .collect()
}

/// Plays out every undecided game of `round`: the player on the second seat resigns, unless
/// `loser` names another.
async fn finish_round(core: &Core, id: i64, round: i64, loser: impl Fn(&PairingRow) -> UserId) {
    let pairings = db::tournament_pairings(&core.pool, id)
        .await
        .expect("pairings");
    for p in pairings
        .iter()
        .filter(|p| p.round == round && p.result.is_none())
    {
        let game = p.game_id.expect("a game");
        resign(core, game, loser(p)).await.expect("resign");
    }
}

fn black(p: &PairingRow) -> UserId {
    p.black_id.expect("a game")
}

async fn tournament(core: &Core, id: i64) -> TournamentRow {
    db::fetch_tournament(&core.pool, id)
        .await
        .expect("fetch")
        .expect("tournament")
}

async fn impossible_settings_and_bad_requests_are_refused_and_change_nothing(pool: Pool) {
    let (core, _clock) = core_on(pool).await;
    let before = snapshot(&core.pool).await;
    let cases = [
        (
            request(F::SWISS, Some(2), Some(2)),
            "tournament-too-many-rounds",
        ),
        (
            request(F::SWISS, Some(8), Some(8)),
            "tournament-too-many-rounds",
        ),
        (request(F::SWISS, None, None), "tournament-rounds-needed"),
        (request(F::SWISS, Some(0), None), "tournament-bad-rounds"),
        (
            request(F::ROUND_ROBIN, Some(3), None),
            "tournament-rounds-swiss-only",
        ),
        (
            request(F::ROUND_ROBIN, None, Some(40)),
            "tournament-bad-limit",
        ),
        (request(F::SWISS, Some(3), Some(1)), "tournament-bad-limit"),
        (
            TournamentRequest {
                name: "  ".into(),
                ..request(F::SWISS, Some(3), None)
            },
            "tournament-bad-name",
        ),
        (
            TournamentRequest {
                starts_at: Some(T0 - 1),
                ..request(F::SWISS, Some(3), None)
            },
            "tournament-start-past",
        ),
        (
            TournamentRequest {
                manager: false,
                ..request(F::SWISS, Some(3), None)
            },
            "tournament-create-not-allowed",
        ),
    ];
    for (req, want) in cases {
        assert_eq!(refused(create_tournament(&core, &req).await), want);
    }
    assert_eq!(snapshot(&core.pool).await, before);
    // A server may open creation to everyone.
    db::set_tournaments_open(&core.pool, GUILD, true, T0)
        .await
        .expect("open");
    let (id, card) = create_tournament(
        &core,
        &TournamentRequest {
            manager: false,
            creator: member(1),
            ..request(F::SWISS, Some(2), Some(3))
        },
    )
    .await
    .expect("created");
    let words = card.render(Lang::EN);
    assert!(
        words.contains("Autumn cup") && words.contains("Swiss, 2 rounds"),
        "{words}"
    );
    assert!(words.contains("Players: 0 of 3"), "{words}");
    assert!(card.render(Lang::of("ja")).contains("スイス式 2ラウンド"));
    // Joins and leaves: twice, full, another server, not in, started.
    for n in 1..=3 {
        let e = join_tournament(&core, id, Some(GUILD), member(n))
            .await
            .expect("join");
        assert_eq!(e.players, n as i64);
    }
    let before = snapshot(&core.pool).await;
    let refusals = [
        (
            refused(join_tournament(&core, id, Some(GUILD), member(1)).await),
            "tournament-already-joined",
        ),
        (
            refused(join_tournament(&core, id, Some(GUILD), member(4)).await),
            "tournament-full",
        ),
        (
            refused(join_tournament(&core, id, Some(GuildId(99)), member(4)).await),
            "tournament-other-server",
        ),
        (
            refused(join_tournament(&core, id, None, member(4)).await),
            "tournament-other-server",
        ),
        (
            refused(join_tournament(&core, id + 50, Some(GUILD), member(4)).await),
            "tournament-not-found",
        ),
        (
            refused(leave_tournament(&core, id, Some(GUILD), member(5)).await),
            "tournament-not-joined",
        ),
        (
            refused(withdraw(&core, id, Some(GUILD), member(1), Withdrawal::Asked).await),
            "tournament-withdraw-not-started",
        ),
        (
            refused(
                start_tournament(
                    &core,
                    id,
                    Some(Starter {
                        user: member(2),
                        guild: Some(GUILD),
                        manager: false,
                    }),
                )
                .await,
            ),
            "tournament-start-not-allowed",
        ),
    ];
    for (got, want) in refusals {
        assert_eq!(got, want);
    }
    assert_eq!(snapshot(&core.pool).await, before);
    // Leaving frees the place; two players cannot play two Swiss rounds.
    leave_tournament(&core, id, Some(GUILD), member(3))
        .await
        .expect("leave");
    let creator = Starter {
        user: member(1),
        guild: Some(GUILD),
        manager: false,
    };
    let before = snapshot(&core.pool).await;
    assert_eq!(
        refused(start_tournament(&core, id, Some(creator)).await),
        "tournament-too-few"
    );
    assert_eq!(snapshot(&core.pool).await, before);
    join_tournament(&core, id, Some(GUILD), member(4))
        .await
        .expect("join");
    start_tournament(&core, id, Some(creator))
        .await
        .expect("start");
    assert_eq!(
        refused(leave_tournament(&core, id, Some(GUILD), member(1)).await),
        "tournament-leave-started"
    );
    assert_eq!(
        refused(start_tournament(&core, id, Some(creator)).await),
        "tournament-already-started"
    );
    // Two rounds of three: half the rounds are paired at once, so no late join.
    let t = tournament(&core, id).await;
    assert_eq!((t.status, t.rounds_paired), (TournamentStatus::Running, 1));
    assert_eq!(
        refused(join_tournament(&core, id, Some(GUILD), member(5)).await),
        "tournament-started"
    );
}

async fn a_swiss_event_with_a_late_join_and_a_withdrawal_runs_to_its_winner(pool: Pool) {
    let (core, _clock) = core_on(pool).await;
    let (id, _) = create_tournament(&core, &request(F::SWISS, Some(3), Some(8)))
        .await
        .expect("created");
    for n in 1..=4 {
        join_tournament(&core, id, Some(GUILD), member(n))
            .await
            .expect("join");
    }
    let organiser = Starter {
        user: ORGANISER,
        guild: Some(GUILD),
        manager: true,
    };
    start_tournament(&core, id, Some(organiser))
        .await
        .expect("start");
    let round1 = db::tournament_pairings(&core.pool, id)
        .await
        .expect("pairings");
    assert_eq!(round1.len(), 2, "{round1:?}");
    // Dutch round 1 of four: 1–3, 4–2 (the first seed White).
    let seats: Vec<(UserId, Option<UserId>)> =
        round1.iter().map(|p| (p.white_id, p.black_id)).collect();
    assert_eq!(
        seats,
        [(member(1), Some(member(3))), (member(4), Some(member(2)))]
    );
    // Each game is an ordinary, rated game with its deadline, in the tournament's channel.
    for p in &round1 {
        let row = db::fetch_game(&core.pool, p.game_id.expect("game"))
            .await
            .expect("game")
            .expect("row");
        assert!(row.rated && row.deadline_at == Some(T0 + DAY));
        assert_eq!(row.channel_id, CHANNEL);
    }
    // A late join while round 1 is played: a ½-point bye for it.
    let e = join_tournament(&core, id, Some(GUILD), member(5))
        .await
        .expect("late join");
    assert_eq!(e.players, 5);
    finish_round(&core, id, 1, black).await;
    // Round 2 was paired when round 1's last game ended: five players, two games and a bye.
    let t = tournament(&core, id).await;
    assert_eq!(t.rounds_paired, 2);
    let all = db::tournament_pairings(&core.pool, id)
        .await
        .expect("pairings");
    let round2: Vec<&PairingRow> = all.iter().filter(|p| p.round == 2).collect();
    assert_eq!(round2.iter().filter(|p| p.black_id.is_some()).count(), 2);
    let byes: Vec<&&PairingRow> = round2.iter().filter(|p| p.black_id.is_none()).collect();
    assert_eq!(byes.len(), 1);
    assert_eq!(byes[0].bye_halves, Some(2));
    // A member withdraws during round 2: their game is resigned, they are paired no more.
    let quitter = round2
        .iter()
        .find_map(|p| p.black_id)
        .expect("a game in round 2");
    let text = withdraw(&core, id, Some(GUILD), quitter, Withdrawal::Asked)
        .await
        .expect("withdraw");
    assert_eq!(text.id, "tournament-you-withdrew");
    assert_eq!(
        refused(withdraw(&core, id, Some(GUILD), quitter, Withdrawal::Asked).await),
        "tournament-already-withdrawn"
    );
    // Half the rounds are paired: no more late joins.
    assert_eq!(
        refused(join_tournament(&core, id, Some(GUILD), member(6)).await),
        "tournament-started"
    );
    finish_round(&core, id, 2, black).await;
    let t = tournament(&core, id).await;
    assert_eq!(t.rounds_paired, 3);
    let all = db::tournament_pairings(&core.pool, id)
        .await
        .expect("pairings");
    let round3: Vec<&PairingRow> = all.iter().filter(|p| p.round == 3).collect();
    assert!(round3
        .iter()
        .all(|p| p.white_id != quitter && p.black_id != Some(quitter)));
    assert_eq!(round3.len(), 2, "four players left: two games");
    finish_round(&core, id, 3, black).await;
    // Over: the winner is named and the event closed.
    let t = tournament(&core, id).await;
    assert_eq!(t.status, TournamentStatus::Finished);
    let players = db::tournament_players(&core.pool, id)
        .await
        .expect("players");
    let all = db::tournament_pairings(&core.pool, id)
        .await
        .expect("pairings");
    let table = table_of(&t, &players, &all, 3);
    assert_eq!(
        t.winner_id,
        Some(players[table[0].player].player_id),
        "{table:?}"
    );
    // The Dutch system's absolute rules held: no rematch, at most one pairing-allocated bye.
    let mut met = HashSet::new();
    for p in all.iter().filter(|p| p.game_id.is_some()) {
        let pair = (p.white_id.min(black(p)), p.white_id.max(black(p)));
        assert!(met.insert(pair), "a rematch: {pair:?}");
    }
    let mut byes = HashSet::new();
    for p in all.iter().filter(|p| p.bye_halves == Some(2)) {
        assert!(byes.insert(p.white_id), "two byes for {}", p.white_id);
    }
    // The late joiner's round 1: a ½-point bye.
    assert!(all
        .iter()
        .any(|p| p.round == 1 && p.white_id == member(5) && p.bye_halves == Some(1)));
    let said = announcements(&core.pool).await.join("\n");
    for want in [
        "begins with 4 players",
        "round 1 of 3",
        "joins **Autumn cup** late",
        "standings after round 1",
        "standings after round 2",
        "withdrew from **Autumn cup**",
        "(withdrawn)",
        "Buchholz cut-1",
        "is over. The winner:",
    ] {
        assert!(said.contains(want), "{want:?} missing from:\n{said}");
    }
    // Nothing more to do; the event takes no one.
    assert_eq!(
        advance(&core, id).await.expect("advance"),
        Advanced::Nothing
    );
    assert_eq!(
        refused(join_tournament(&core, id, Some(GUILD), member(7)).await),
        "tournament-over"
    );
}

/// An organiser's hands: pause, correct, resume, remove, a member leaving, cancel; a member who
/// does not run the event is refused each of them and nothing changes.
async fn organisers_pause_correct_remove_and_cancel_and_a_member_leaves(pool: Pool) {
    let (core, _clock) = core_on(pool).await;
    let (id, _) = create_tournament(&core, &request(F::SWISS, Some(3), None))
        .await
        .expect("created");
    for n in 1..=6 {
        join_tournament(&core, id, Some(GUILD), member(n))
            .await
            .expect("join");
    }
    let organiser = Starter {
        user: ORGANISER,
        guild: Some(GUILD),
        manager: false,
    };
    start_tournament(&core, id, Some(organiser))
        .await
        .expect("start");
    // A player who manages nothing, and the organiser from another server: refused.
    let stranger = Starter {
        user: member(1),
        guild: Some(GUILD),
        manager: false,
    };
    let elsewhere = Starter {
        guild: Some(GuildId(99)),
        ..organiser
    };
    let round1 = db::tournament_pairings(&core.pool, id)
        .await
        .expect("pairings");
    let game1 = round1[0].game_id.expect("a game");
    let before = snapshot(&core.pool).await;
    for by in [stranger, elsewhere] {
        let want = if by.guild == Some(GUILD) {
            "tournament-organisers-only"
        } else {
            "tournament-other-server"
        };
        assert_eq!(refused(cancel_tournament(&core, id, by).await), want);
        assert_eq!(refused(pause_round(&core, id, by, true).await), want);
        assert_eq!(refused(remove_player(&core, id, by, member(2)).await), want);
        assert_eq!(
            refused(correct_result(&core, game1, by, PairingResult::Draw).await),
            want
        );
    }
    // Nothing decided yet to correct; no such tournament game.
    assert_eq!(
        refused(correct_result(&core, game1, organiser, PairingResult::Draw).await),
        "tournament-game-undecided"
    );
    assert_eq!(
        refused(correct_result(&core, 9999, organiser, PairingResult::Draw).await),
        "tournament-not-its-game"
    );
    assert_eq!(
        refused(pause_round(&core, id, organiser, false).await),
        "tournament-not-paused"
    );
    assert_eq!(
        snapshot(&core.pool).await,
        before,
        "refusals changed nothing"
    );

    // Paused: round 1 ends, round 2 waits, and the timers' scan leaves it.
    let text = pause_round(&core, id, organiser, true)
        .await
        .expect("pause");
    assert_eq!(text.id, "tournament-you-paused");
    assert_eq!(
        refused(pause_round(&core, id, organiser, true).await),
        "tournament-already-paused"
    );
    finish_round(&core, id, 1, black).await;
    assert_eq!(tournament(&core, id).await.rounds_paired, 1);
    assert_eq!(advance_due(&core).await.expect("scan"), 0);
    assert_eq!(tournament(&core, id).await.rounds_paired, 1);

    // A correction before round 2 is paired: round 2 follows it. Board 1's White won; now Black
    // did, so the two meet in round 2's score groups as the corrected scores say.
    let text = correct_result(&core, game1, organiser, PairingResult::Black)
        .await
        .expect("correct");
    assert_eq!(text.id, "tournament-you-corrected");
    assert_eq!(
        refused(correct_result(&core, game1, organiser, PairingResult::Black).await),
        "tournament-result-unchanged"
    );
    let stored = db::pairing_of_game(&core.pool, game1)
        .await
        .expect("pairing")
        .expect("row");
    assert_eq!(stored.result, Some(PairingResult::Black));

    // Resumed: round 2 is paired at once, on the corrected result.
    let text = pause_round(&core, id, organiser, false)
        .await
        .expect("resume");
    assert_eq!(text.id, "tournament-you-resumed");
    let t = tournament(&core, id).await;
    assert_eq!((t.rounds_paired, t.paused), (2, false));
    let players = db::tournament_players(&core.pool, id)
        .await
        .expect("players");
    let all = db::tournament_pairings(&core.pool, id)
        .await
        .expect("pairings");
    let round2: Vec<PairingRow> = all.iter().filter(|p| p.round == 2).cloned().collect();
    // The Dutch system on the stored (corrected) results pairs round 2 as stored.
    let r1: Vec<PairingRow> = all.iter().filter(|p| p.round == 1).cloned().collect();
    let expected = pairings::pair(&pairing_input(&t, &players, &r1, 1)).expect("pairs");
    let rank = |u: UserId| players.iter().position(|p| p.player_id == u).expect("seed") as u32 + 1;
    let got: Vec<(u32, u32)> = round2
        .iter()
        .map(|p| (rank(p.white_id), rank(black(p))))
        .collect();
    let want: Vec<(u32, u32)> = expected.games.iter().map(|g| (g.white, g.black)).collect();
    assert_eq!(got, want);
    // …which differs from what the result first entered would have given.
    let mut uncorrected = r1.clone();
    uncorrected[0].result = Some(PairingResult::White);
    let first = pairings::pair(&pairing_input(&t, &players, &uncorrected, 1)).expect("pairs");
    let first: Vec<(u32, u32)> = first.games.iter().map(|g| (g.white, g.black)).collect();
    assert_ne!(first, want);

    // Correcting round 1 now changes the standings, not round 2's pairings (the answer says so).
    let text = correct_result(&core, game1, organiser, PairingResult::Draw)
        .await
        .expect("correct again");
    assert_eq!(text.id, "tournament-line-break");
    assert!(text.render(Lang::EN).contains("stay as they are"));
    let after: Vec<PairingRow> = db::tournament_pairings(&core.pool, id)
        .await
        .expect("pairings")
        .into_iter()
        .filter(|p| p.round == 2)
        .collect();
    assert_eq!(after, round2);

    // Removed by the organiser: their round-2 game is resigned and they are paired no more.
    let removed = round2[0].white_id;
    let text = remove_player(&core, id, organiser, removed)
        .await
        .expect("remove");
    assert_eq!(text.id, "tournament-you-removed");
    let row = db::fetch_game(&core.pool, round2[0].game_id.expect("game"))
        .await
        .expect("game")
        .expect("row");
    assert_ne!(row.status, GameStatus::Active);
    assert_eq!(
        refused(remove_player(&core, id, organiser, removed).await),
        "tournament-player-withdrawn"
    );
    assert_eq!(
        refused(remove_player(&core, id, organiser, member(8)).await),
        "tournament-not-a-player"
    );
    // A member who leaves the server: withdrawn, their game in progress played out.
    let leaver = round2[1].white_id;
    assert_eq!(member_left(&core, GUILD, leaver).await, 1);
    assert_eq!(member_left(&core, GUILD, leaver).await, 0);
    let players = db::tournament_players(&core.pool, id)
        .await
        .expect("players");
    assert!(players
        .iter()
        .any(|p| p.player_id == leaver && p.withdrawn_round == Some(2)));
    let game = round2[1].game_id.expect("game");
    let row = db::fetch_game(&core.pool, game)
        .await
        .expect("game")
        .expect("row");
    assert_eq!(row.status, GameStatus::Active, "played out");

    // Called off: the games in progress end without a result, nobody wins.
    let text = cancel_tournament(&core, id, organiser)
        .await
        .expect("cancel");
    assert_eq!(text.id, "tournament-you-cancelled");
    let t = tournament(&core, id).await;
    assert_eq!((t.status, t.winner_id), (TournamentStatus::Cancelled, None));
    let row = db::fetch_game(&core.pool, game)
        .await
        .expect("game")
        .expect("row");
    assert_ne!(row.status, GameStatus::Active);
    let all = db::tournament_pairings(&core.pool, id)
        .await
        .expect("pairings");
    assert!(all.iter().all(|p| p.result.is_some()), "{all:?}");
    assert_eq!(
        all.iter()
            .filter(|p| p.result == Some(PairingResult::Void))
            .count(),
        2,
        "the two games still in progress: {all:?}"
    );
    assert_eq!(
        refused(cancel_tournament(&core, id, organiser).await),
        "tournament-over"
    );
    let said = announcements(&core.pool).await.join("\n");
    for want in [
        "paused **Autumn cup**",
        "resumed **Autumn cup**",
        "corrected the result of game",
        "stay as they are",
        "is removed from **Autumn cup**",
        "left the server and is withdrawn",
        "is called off by <@1>",
    ] {
        assert!(said.contains(want), "{want:?} missing from:\n{said}");
    }
}

/// Round `round`'s games and bye as seeds, as the bot stored them.
fn stored_round(
    players: &[TournamentPlayer],
    all: &[PairingRow],
    round: i64,
) -> pairings::Pairings {
    let seed = |u: UserId| players.iter().position(|p| p.player_id == u).expect("seed") as u32 + 1;
    pairings::Pairings {
        games: all
            .iter()
            .filter(|p| p.round == round && p.black_id.is_some())
            .map(|p| pairings::Game {
                white: seed(p.white_id),
                black: seed(black(p)),
            })
            .collect(),
        bye: all
            .iter()
            .find(|p| p.round == round && p.bye_halves == Some(2))
            .map(|p| seed(p.white_id)),
    }
}

/// The export read back by `hexcord pairings`' own functions pairs each next round as the bot
/// did: with a bye, a draw (by correction), a forfeit and a withdrawal on the way.
async fn an_export_read_back_pairs_each_next_round_as_the_bot_did(pool: Pool) {
    let (core, _clock) = core_on(pool).await;
    let (id, _) = create_tournament(&core, &request(F::SWISS, Some(4), None))
        .await
        .expect("created");
    for n in 1..=7 {
        join_tournament(&core, id, Some(GUILD), member(n))
            .await
            .expect("join");
    }
    let organiser = Starter {
        user: ORGANISER,
        guild: Some(GUILD),
        manager: true,
    };
    assert_eq!(
        refused(export_tournament(&core, id, Some(GUILD)).await),
        "tournament-export-not-started"
    );
    start_tournament(&core, id, Some(organiser))
        .await
        .expect("start");
    assert_eq!(
        refused(export_tournament(&core, id, Some(GuildId(99))).await),
        "tournament-other-server"
    );
    let e = export_tournament(&core, id, Some(GUILD))
        .await
        .expect("export");
    assert_eq!(
        (e.rounds, e.file_name.clone()),
        (0, format!("tournament-{id}.trf"))
    );
    let players = db::tournament_players(&core.pool, id)
        .await
        .expect("players");
    let all = db::tournament_pairings(&core.pool, id)
        .await
        .expect("pairings");
    let read = pairings::parse(&e.trf).expect("reads");
    assert_eq!(
        pairings::pair(&read).expect("pairs"),
        stored_round(&players, &all, 1)
    );
    for round in 1..=3 {
        let all = db::tournament_pairings(&core.pool, id)
            .await
            .expect("pairings");
        let games: Vec<&PairingRow> = all
            .iter()
            .filter(|p| p.round == round && p.game_id.is_some())
            .collect();
        match round {
            // A draw, entered by correction after the game, the next round paused meanwhile.
            1 => {
                pause_round(&core, id, organiser, true)
                    .await
                    .expect("pause");
                finish_round(&core, id, 1, black).await;
                correct_result(
                    &core,
                    games[0].game_id.expect("game"),
                    organiser,
                    PairingResult::Draw,
                )
                .await
                .expect("corrected");
                pause_round(&core, id, organiser, false)
                    .await
                    .expect("resume");
            }
            // A withdrawal during the round: their game resigned, absent from round 3.
            2 => {
                withdraw(&core, id, Some(GUILD), games[1].white_id, Withdrawal::Asked)
                    .await
                    .expect("withdraw");
                finish_round(&core, id, 2, |p| p.white_id).await;
            }
            _ => finish_round(&core, id, round, black).await,
        }
        let all = db::tournament_pairings(&core.pool, id)
            .await
            .expect("pairings");
        let players = db::tournament_players(&core.pool, id)
            .await
            .expect("players");
        assert_eq!(tournament(&core, id).await.rounds_paired, round + 1);
        let e = export_tournament(&core, id, Some(GUILD))
            .await
            .expect("export");
        assert_eq!(e.rounds, round);
        assert!(
            e.trf.starts_with(
                "012 Autumn cup\n062 7\n092 Swiss system (Dutch)\n202 BH/C1,SB\n142 4\n152 W\n"
            ),
            "{}",
            e.trf
        );
        assert!(
            e.trf.contains(" m1 ") && e.trf.contains("XXR 4"),
            "{}",
            e.trf
        );
        let read = pairings::parse(&e.trf).expect("reads");
        assert_eq!(
            pairings::pair(&read).expect("pairs"),
            stored_round(&players, &all, round + 1),
            "round {}:\n{}",
            round + 1,
            e.trf
        );
    }
    let e = export_tournament(&core, id, Some(GUILD))
        .await
        .expect("export");
    assert!(e.trf.contains(" = "), "the draw: {}", e.trf);
    assert!(e.trf.contains("0000 - U"), "the bye: {}", e.trf);
}

async fn a_double_round_robin_with_two_losses_on_time_runs_to_its_end(pool: Pool) {
    let (core, clock) = core_on(pool).await;
    let (id, _) = create_tournament(&core, &request(F::DOUBLE_ROUND_ROBIN, None, Some(4)))
        .await
        .expect("created");
    for n in 1..=4 {
        join_tournament(&core, id, Some(GUILD), member(n))
            .await
            .expect("join");
    }
    let organiser = Starter {
        user: ORGANISER,
        guild: Some(GUILD),
        manager: true,
    };
    start_tournament(&core, id, Some(organiser))
        .await
        .expect("start");
    // Every game of the six rounds starts at once; each pair meets twice, once with each colour.
    let t = tournament(&core, id).await;
    assert_eq!((t.rounds, t.rounds_paired), (Some(6), 6));
    let all = db::tournament_pairings(&core.pool, id)
        .await
        .expect("pairings");
    assert_eq!(all.len(), 12);
    assert!(all.iter().all(|p| p.game_id.is_some()));
    let colours: HashSet<(UserId, UserId)> = all.iter().map(|p| (p.white_id, black(p))).collect();
    assert_eq!(colours.len(), 12);
    // Member 4 lets two of their games, where they are to move, run out of time.
    let slow = member(4);
    let theirs: Vec<i64> = all
        .iter()
        .filter(|p| p.white_id == slow)
        .filter_map(|p| p.game_id)
        .collect();
    assert!(theirs.len() >= 2);
    clock.store(T0 + DAY + 1, std::sync::atomic::Ordering::SeqCst);
    assert!(time_out(&core, theirs[0]).await.expect("time out"));
    let players = db::tournament_players(&core.pool, id)
        .await
        .expect("players");
    assert!(players.iter().all(|p| p.withdrawn_round.is_none()));
    assert!(time_out(&core, theirs[1]).await.expect("time out"));
    // Withdrawn: their other games are called off and scored as forfeits.
    let players = db::tournament_players(&core.pool, id)
        .await
        .expect("players");
    let p4 = players.iter().find(|p| p.player_id == slow).expect("slow");
    assert_eq!((p4.timeouts, p4.withdrawn_round), (2, Some(6)));
    let all = db::tournament_pairings(&core.pool, id)
        .await
        .expect("pairings");
    let forfeits = all
        .iter()
        .filter(|p| {
            matches!(
                p.result,
                Some(PairingResult::WhiteForfeit | PairingResult::BlackForfeit)
            )
        })
        .count();
    assert_eq!(forfeits, 4, "{all:?}");
    for p in all
        .iter()
        .filter(|p| p.white_id == slow || black(p) == slow)
    {
        let row = db::fetch_game(&core.pool, p.game_id.expect("game"))
            .await
            .expect("game")
            .expect("row");
        assert_ne!(row.status, GameStatus::Active);
    }
    // The others play out: the lower seed wins each game.
    let pairings = db::tournament_pairings(&core.pool, id)
        .await
        .expect("pairings");
    for p in pairings.iter().filter(|p| p.result.is_none()) {
        let loser = if p.white_id > black(p) {
            p.white_id
        } else {
            black(p)
        };
        resign(&core, p.game_id.expect("game"), loser)
            .await
            .expect("resign");
    }
    let t = tournament(&core, id).await;
    assert_eq!(t.status, TournamentStatus::Finished);
    assert_eq!(t.winner_id, Some(member(1)));
    let players = db::tournament_players(&core.pool, id)
        .await
        .expect("players");
    let all = db::tournament_pairings(&core.pool, id)
        .await
        .expect("pairings");
    let table = table_of(&t, &players, &all, 6);
    // A double round robin ranks as a round robin does.
    assert_eq!(t.format.ranking(), TournamentFormat::ROUND_ROBIN.ranking());
    let points: Vec<String> = table.iter().map(|s| s.points.to_string()).collect();
    // Each of members 1–3 scores 2 against member 4 (on time or by forfeit); among themselves
    // the lower seed won: 6, 4, 2, 0.
    assert_eq!(points, ["6", "4", "2", "0"], "{table:?}");
    // Forfeits are not games: member 4 played only the two games lost on time.
    let last = &table[3];
    assert_eq!(players[last.player].player_id, slow);
    assert_eq!(last.games, 2);
    let said = announcements(&core.pool).await.join("\n");
    for want in [
        "lost 2 games of **Autumn cup** on time",
        "by forfeit",
        "direct encounter",
    ] {
        assert!(said.contains(want), "{want:?} missing from:\n{said}");
    }
    // Its export names its kind and its tie-breaks by FIDE's codes.
    let e = export_tournament(&core, id, Some(GUILD))
        .await
        .expect("export");
    assert!(
        e.trf
            .starts_with("012 Autumn cup\n062 4\n092 Double round robin\n202 DE,SB,WON\n142 6\n"),
        "{}",
        e.trf
    );
}

async fn a_round_is_paired_once_by_processes_racing_and_after_a_dead_claim(pool: Pool) {
    let (core, clock) = core_on(pool).await;
    let (id, _) = create_tournament(&core, &request(F::SWISS, Some(2), None))
        .await
        .expect("created");
    for n in 1..=4 {
        join_tournament(&core, id, Some(GUILD), member(n))
            .await
            .expect("join");
    }
    let organiser = Starter {
        user: ORGANISER,
        guild: Some(GUILD),
        manager: true,
    };
    start_tournament(&core, id, Some(organiser))
        .await
        .expect("start");
    // Round 1 decided without the hook (as if the process died after the last game ended).
    let round1 = db::tournament_pairings(&core.pool, id)
        .await
        .expect("pairings");
    for p in &round1 {
        db::decide_pairing(&core.pool, p.id, PairingResult::White)
            .await
            .expect("decide");
    }
    // A process that claimed the advance and died: nobody advances until its claim runs out.
    let now = db::now_ms();
    assert!(db::claim_advance(&core.pool, id, now, now + 50)
        .await
        .expect("claim"));
    assert_eq!(advance(&core, id).await.expect("held"), Advanced::Nothing);
    tokio::time::sleep(std::time::Duration::from_millis(60)).await;
    // Two processes at once: one pairs round 2, the other does nothing.
    let other = Core::new(core.pool.clone(), core.clock.clone());
    let (a, b) = tokio::join!(advance(&core, id), advance(&other, id));
    let mut got = [a.expect("first"), b.expect("second")];
    got.sort_by_key(|g| matches!(g, Advanced::Round(_)));
    assert_eq!(got, [Advanced::Nothing, Advanced::Round(2)]);
    let all = db::tournament_pairings(&core.pool, id)
        .await
        .expect("pairings");
    assert_eq!(all.iter().filter(|p| p.round == 2).count(), 2);
    // The timers' scan finds nothing more to do while round 2 is played.
    assert_eq!(advance_due(&core).await.expect("scan"), 0);
    // A sign-up that ends with too few players calls the event off at the deadline.
    let (late, _) = create_tournament(
        &core,
        &TournamentRequest {
            starts_at: Some(T0 + 3600),
            ..request(F::ROUND_ROBIN, None, None)
        },
    )
    .await
    .expect("created");
    join_tournament(&core, late, Some(GUILD), member(1))
        .await
        .expect("join");
    assert_eq!(advance_due(&core).await.expect("scan"), 0);
    clock.store(T0 + 3600, std::sync::atomic::Ordering::SeqCst);
    assert_eq!(advance_due(&core).await.expect("scan"), 1);
    let t = tournament(&core, late).await;
    assert_eq!(t.status, TournamentStatus::Cancelled);
    assert!(announcements(&core.pool)
        .await
        .iter()
        .any(|a| a.contains("is called off: 1 signed up, 2 were needed")));
}

async fn an_odd_round_robin_gives_a_bye_worth_nothing_each_round(pool: Pool) {
    let (core, _clock) = core_on(pool).await;
    let (id, _) = create_tournament(&core, &request(F::ROUND_ROBIN, None, None))
        .await
        .expect("created");
    for n in 1..=3 {
        join_tournament(&core, id, Some(GUILD), member(n))
            .await
            .expect("join");
    }
    let organiser = Starter {
        user: ORGANISER,
        guild: Some(GUILD),
        manager: true,
    };
    start_tournament(&core, id, Some(organiser))
        .await
        .expect("start");
    let all = db::tournament_pairings(&core.pool, id)
        .await
        .expect("pairings");
    // Three rounds, each one game and one bye worth 0; everyone sits out once.
    assert_eq!(tournament(&core, id).await.rounds, Some(3));
    let byes: Vec<UserId> = all
        .iter()
        .filter(|p| p.black_id.is_none())
        .map(|p| p.white_id)
        .collect();
    assert!(all
        .iter()
        .filter(|p| p.black_id.is_none())
        .all(|p| p.bye_halves == Some(0)));
    assert_eq!(byes.iter().collect::<HashSet<_>>().len(), 3);
    // A draw-free event: the lower seed wins each game.
    for p in all.iter().filter(|p| p.result.is_none()) {
        let loser = p.white_id.max(black(p));
        resign(&core, p.game_id.expect("game"), loser)
            .await
            .expect("resign");
    }
    let t = tournament(&core, id).await;
    assert_eq!(
        (t.status, t.winner_id),
        (TournamentStatus::Finished, Some(member(1)))
    );
    let players = db::tournament_players(&core.pool, id)
        .await
        .expect("players");
    let all = db::tournament_pairings(&core.pool, id)
        .await
        .expect("pairings");
    let table = table_of(&t, &players, &all, 3);
    let points: Vec<String> = table.iter().map(|s| s.points.to_string()).collect();
    assert_eq!(points, ["2", "1", "0"]);
}

/// A player of a finished event has their data deleted: the standings keep every score and
/// tiebreak, name them "a former member" (in words and in the export), and the others as before.
async fn a_former_member_keeps_their_place_in_the_standings(pool: Pool) {
    let (core, _clock) = core_on(pool).await;
    let (id, _) = create_tournament(&core, &request(F::ROUND_ROBIN, None, None))
        .await
        .expect("created");
    for n in 1..=4 {
        join_tournament(&core, id, Some(GUILD), member(n))
            .await
            .expect("join");
    }
    let organiser = Starter {
        user: ORGANISER,
        guild: Some(GUILD),
        manager: true,
    };
    start_tournament(&core, id, Some(organiser))
        .await
        .expect("start");
    // The higher seed wins, except that member 4 beats member 1.
    let all = db::tournament_pairings(&core.pool, id)
        .await
        .expect("pairings");
    for p in all.iter().filter(|p| p.result.is_none()) {
        let pair = [p.white_id, black(p)];
        let loser = if pair.contains(&member(1)) && pair.contains(&member(4)) {
            member(1)
        } else {
            p.white_id.max(black(p))
        };
        resign(&core, p.game_id.expect("game"), loser)
            .await
            .expect("resign");
    }
    assert_eq!(
        tournament(&core, id).await.status,
        TournamentStatus::Finished
    );
    let before = show_standings(&core, id, Some(GUILD))
        .await
        .expect("standings");
    let export_before = export_tournament(&core, id, Some(GUILD))
        .await
        .expect("export");
    let leaving = member(2);
    let mut tx = core.pool.begin().await.expect("begin");
    let done = db::forget_member(&mut tx, leaving, T0)
        .await
        .expect("forget");
    tx.commit().await.expect("commit");
    assert!(matches!(done, db::Forgotten::Done { .. }), "{done:?}");
    let after = show_standings(&core, id, Some(GUILD))
        .await
        .expect("standings");
    assert_eq!(
        after.table, before.table,
        "every score and tiebreak as before"
    );
    let entrants = db::tournament_players(&core.pool, id)
        .await
        .expect("players");
    for (i, p) in entrants.iter().enumerate() {
        let want = if p.player_id == leaving {
            "a former member".to_string()
        } else {
            before.names[i].clone()
        };
        assert_eq!(after.names[i], want, "seed {}", i + 1);
    }
    let words = after.text.render(Lang::EN);
    assert!(
        words.contains("a former member") && !words.contains("m2"),
        "{words}"
    );
    let export = export_tournament(&core, id, Some(GUILD))
        .await
        .expect("export");
    assert!(export.trf.contains("a former member"), "{}", export.trf);
    assert!(
        export_before.trf.contains("m2") && !export.trf.contains("m2"),
        "{}",
        export.trf
    );
    assert_eq!(
        export.trf.lines().count(),
        export_before.trf.lines().count()
    );
}

/// Every queued announcement: where it goes and what it says.
async fn queued(pool: &Pool) -> Vec<(Target, String)> {
    let rows = sqlx::query("SELECT * FROM announcements ORDER BY id")
        .fetch_all(pool)
        .await
        .expect("announcements");
    rows.iter()
        .map(|r| {
            let body = <db::QueuedAnnouncement as sqlx::FromRow<_>>::from_row(r)
                .expect("announcement")
                .body;
            (body.target, body.content)
        })
        .collect()
}

async fn a_tournament_thread_opens_on_its_card_and_takes_its_rounds(pool: Pool) {
    let (core, _clock) = core_on(pool).await;
    // Threads off: the card opens none.
    db::store_server_settings(&core.pool, GUILD, db::ServerSettings { threads: false }, T0)
        .await
        .expect("threads off");
    let (quiet, _) = create_tournament(&core, &request(F::ROUND_ROBIN, None, None))
        .await
        .expect("created");
    card_posted(&core, quiet, db::MessageId(40))
        .await
        .expect("card");
    assert_eq!(
        tournament(&core, quiet).await.message_id,
        Some(db::MessageId(40))
    );
    assert!(queued(&core.pool).await.is_empty());
    // Threads on: one opens on the card, named after the event.
    db::store_server_settings(&core.pool, GUILD, db::ServerSettings { threads: true }, T0)
        .await
        .expect("threads on");
    let (id, _) = create_tournament(&core, &request(F::ROUND_ROBIN, None, None))
        .await
        .expect("created");
    card_posted(&core, id, db::MessageId(50))
        .await
        .expect("card");
    assert_eq!(
        queued(&core.pool).await,
        [(
            Target::OpenTournamentThread {
                tournament: id,
                channel: CHANNEL,
                message: db::MessageId(50),
            },
            format!("🏆 #{id} Autumn cup")
        )]
    );
    assert_eq!(
        tournament_thread_name(3, &"x".repeat(120)).chars().count(),
        100
    );
    // Once it is open, the rounds and standings go to it; the result also to the channel.
    db::set_tournament_thread(&core.pool, id, Some(ChannelId(60)))
        .await
        .expect("thread");
    for n in 1..=2 {
        join_tournament(&core, id, Some(GUILD), member(n))
            .await
            .expect("join");
    }
    let organiser = Starter {
        user: ORGANISER,
        guild: Some(GUILD),
        manager: true,
    };
    start_tournament(&core, id, Some(organiser))
        .await
        .expect("start");
    finish_round(&core, id, 1, black).await;
    assert_eq!(
        tournament(&core, id).await.status,
        TournamentStatus::Finished
    );
    let all = queued(&core.pool).await;
    let in_thread = Target::Tournament {
        tournament: id,
        channel: CHANNEL,
    };
    assert!(
        all.iter()
            .any(|(t, c)| *t == in_thread && c.contains("round 1 of 1")),
        "{all:?}"
    );
    assert!(
        all.iter().any(|(t, c)| matches!(
            t,
            Target::Standings { tournament, channel: CHANNEL, .. } if *tournament == id
        ) && c.contains("is over")),
        "{all:?}"
    );
    assert!(
        all.iter()
            .any(|(t, c)| *t == Target::Channel { channel: CHANNEL }
                && c.contains("final standings are in <#60>")),
        "{all:?}"
    );
}

/// A start whose transaction does not commit paired nothing: no round is logged as paired, and
/// the event still takes players.
#[tokio::test]
async fn a_round_rolled_back_is_not_logged_as_paired() {
    let (pool, _file) = crate::db::testing::temp_db().await;
    let (core, _) = core_on(pool).await;
    let logs = crate::db::testing::Logs::capture();
    let (id, _) = create_tournament(&core, &request(F::SWISS, Some(2), None))
        .await
        .expect("created");
    for n in 1..=4 {
        join_tournament(&core, id, Some(GUILD), member(n))
            .await
            .expect("join");
    }
    assert!(
        logs.text().contains("joined a tournament"),
        "{}",
        logs.text()
    );
    // The commit fails: each pairing stored leaves a reference to no event, which SQLite checks
    // only at the commit.
    sqlx::raw_sql(
        "CREATE TABLE dangling (t INTEGER REFERENCES tournaments(id) DEFERRABLE INITIALLY DEFERRED);
         CREATE TRIGGER dangle AFTER INSERT ON tournament_pairings
         BEGIN INSERT INTO dangling VALUES (-1); END;",
    )
    .execute(&core.pool)
    .await
    .expect("the trigger");
    let organiser = Starter {
        user: ORGANISER,
        guild: Some(GUILD),
        manager: true,
    };
    let started = start_tournament(&core, id, Some(organiser)).await;
    assert!(started.is_err(), "{started:?}");
    let text = logs.text();
    assert!(!text.contains("round paired"), "{text}");
    assert!(!text.contains("tournament started"), "{text}");
    let t = db::fetch_tournament(&core.pool, id)
        .await
        .expect("read")
        .expect("the event");
    assert_eq!((t.status, t.rounds_paired), (TournamentStatus::Signup, 0));
}

/// Each scenario on a fresh SQLite file and a fresh PostgreSQL database.
macro_rules! on_both {
    ($($name:ident),* $(,)?) => {$(
        mod $name {
            #[tokio::test]
            async fn sqlite() {
                let (pool, _file) = crate::db::testing::temp_db().await;
                super::$name(pool).await;
            }

            #[tokio::test]
            async fn postgres() {
                let (pool, _url) = crate::db::testing::pg_db().await;
                super::$name(pool).await;
            }
        }
    )*};
}

on_both!(
    impossible_settings_and_bad_requests_are_refused_and_change_nothing,
    a_swiss_event_with_a_late_join_and_a_withdrawal_runs_to_its_winner,
    a_double_round_robin_with_two_losses_on_time_runs_to_its_end,
    a_round_is_paired_once_by_processes_racing_and_after_a_dead_claim,
    an_odd_round_robin_gives_a_bye_worth_nothing_each_round,
    a_tournament_thread_opens_on_its_card_and_takes_its_rounds,
    organisers_pause_correct_remove_and_cancel_and_a_member_leaves,
    an_export_read_back_pairs_each_next_round_as_the_bot_did,
    a_former_member_keeps_their_place_in_the_standings,
);

/// Two processes on one PostgreSQL database (each its own pool) end the last two games of a
/// round at the same moment, on threads of their own: the next round is paired exactly once,
/// at once (not left to the timers' scan), in each of many events.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_processes_ending_a_round_together_pair_the_next_round_once_on_postgres() {
    let (pool, url) = crate::db::testing::pg_db().await;
    let (core, _clock) = core_on(pool).await;
    let other = Core::new(
        crate::db::connect(&url).await.expect("second process"),
        core.clock.clone(),
    );
    let organiser = Starter {
        user: ORGANISER,
        guild: Some(GUILD),
        manager: true,
    };
    for _ in 0..12 {
        let (id, _) = create_tournament(&core, &request(F::SWISS, Some(3), None))
            .await
            .expect("created");
        for n in 1..=4 {
            join_tournament(&core, id, Some(GUILD), member(n))
                .await
                .expect("join");
        }
        start_tournament(&core, id, Some(organiser))
            .await
            .expect("start");
        let round1 = db::tournament_pairings(&core.pool, id)
            .await
            .expect("pairings");
        let [a, b] = [&round1[0], &round1[1]].map(|p| (p.game_id.expect("game"), black(p)));
        let (first, second) = (core.clone(), other.clone());
        let barrier = std::sync::Arc::new(tokio::sync::Barrier::new(2));
        let (b1, b2) = (barrier.clone(), barrier);
        let one = tokio::spawn(async move {
            b1.wait().await;
            resign(&first, a.0, a.1).await
        });
        let two = tokio::spawn(async move {
            b2.wait().await;
            resign(&second, b.0, b.1).await
        });
        one.await.expect("joined").expect("resigned");
        two.await.expect("joined").expect("resigned");
        let t = tournament(&core, id).await;
        assert_eq!(t.rounds_paired, 2, "round 2 paired when round 1 ended");
        let all = db::tournament_pairings(&core.pool, id)
            .await
            .expect("pairings");
        assert_eq!(all.iter().filter(|p| p.round == 2).count(), 2, "{all:?}");
        assert_eq!(all.len(), 4, "{all:?}");
        let games: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM tournament_pairings p JOIN games g ON g.id = p.game_id WHERE p.tournament_id = $1")
            .bind(id)
            .fetch_one(&core.pool)
            .await
            .expect("games");
        assert_eq!(games, 4);
    }
    let rounds2 = announcements(&core.pool)
        .await
        .iter()
        .filter(|a| a.contains("round 2 of 3"))
        .count();
    assert_eq!(rounds2, 12, "one announcement of round 2 per event");
}
