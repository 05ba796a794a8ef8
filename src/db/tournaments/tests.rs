//! Tournaments, players and pairings stored and read back on both databases.

use super::super::*;
use crate::db::testing::both_backends;
use crate::games::{Colour, GameKind, Outcome, Reason};

async fn players(pool: &Pool, ids: &[u64]) {
    for &id in ids {
        upsert_player(pool, UserId(id), &format!("p{id}"), 0)
            .await
            .expect("player");
    }
}

fn swiss<'a>(options: &'a crate::games::Options) -> NewTournament<'a> {
    NewTournament {
        guild_id: GuildId(5),
        channel_id: ChannelId(6),
        creator_id: UserId(1),
        name: "Spring cup",
        options,
        format: TournamentFormat::SWISS,
        rounds: Some(3),
        seconds_per_move: 86_400,
        rated: true,
        max_players: Some(8),
        starts_at: Some(1_000),
        now: 100,
        time_control: None,
        weekends_off: false,
    }
}

both_backends! {
    async fn a_tournament_keeps_its_settings_players_and_state(pool) {
        players(&pool, &[1, 2, 3, 4]).await;
        let options = crate::games::Options::parse_line("exxit").expect("options");
        let id = insert_tournament(&pool, &swiss(&options)).await.expect("insert");
        let t = fetch_tournament(&pool, id).await.expect("fetch").expect("row");
        assert_eq!(
            (t.name.as_str(), t.format, t.rounds, t.status, t.rounds_paired, t.version),
            ("Spring cup", TournamentFormat::SWISS, Some(3), TournamentStatus::Signup, 0, 0)
        );
        assert_eq!(t.options, options);
        assert_eq!((t.max_players, t.starts_at, t.rated), (Some(8), Some(1_000), true));
        assert_eq!(t.place(), ChannelId(6));
        set_tournament_message(&pool, id, MessageId(77)).await.expect("message");
        set_tournament_thread(&pool, id, Some(ChannelId(78)))
            .await
            .expect("thread");
        let t = fetch_tournament(&pool, id).await.expect("fetch").expect("row");
        assert_eq!(t.message_id, Some(MessageId(77)));
        assert_eq!(t.place(), ChannelId(78));
        assert_eq!(
            tournaments_of(&pool, GuildId(5), &[TournamentStatus::Signup])
                .await
                .expect("list")
                .len(),
            1
        );
        assert!(tournaments_of(&pool, GuildId(9), &[TournamentStatus::Signup])
            .await
            .expect("list")
            .is_empty());
        // Seeds in order of joining; a second join of one member is refused by the schema.
        for p in [2, 3, 4] {
            insert_tournament_player(&pool, id, UserId(p), 0, 200).await.expect("join");
        }
        insert_tournament_player(&pool, id, UserId(3), 0, 200)
            .await
            .expect_err("joined twice");
        assert!(delete_tournament_player(&pool, id, UserId(3)).await.expect("leave"));
        assert!(!delete_tournament_player(&pool, id, UserId(3)).await.expect("leave"));
        insert_tournament_player(&pool, id, UserId(3), 1, 300).await.expect("join");
        let seeds: Vec<(UserId, i64, i64)> = tournament_players(&pool, id)
            .await
            .expect("players")
            .iter()
            .map(|p| (p.player_id, p.seed, p.joined_round))
            .collect();
        assert_eq!(seeds, [(UserId(2), 1, 0), (UserId(4), 3, 0), (UserId(3), 4, 1)]);
        // Due to start once sign-up ends; started once, at its version only.
        assert!(tournaments_to_start(&pool, 999).await.expect("due").is_empty());
        assert_eq!(tournaments_to_start(&pool, 1_000).await.expect("due"), [id]);
        assert!(!start_tournament(&pool, id, 5, 3, 1_000).await.expect("stale"));
        assert!(start_tournament(&pool, id, 0, 3, 1_000).await.expect("start"));
        assert!(!start_tournament(&pool, id, 1, 3, 1_000).await.expect("twice"));
        assert!(tournaments_to_start(&pool, 2_000).await.expect("due").is_empty());
        // Withdrawn once.
        assert!(withdraw_tournament_player(&pool, id, UserId(4), 1).await.expect("w"));
        assert!(!withdraw_tournament_player(&pool, id, UserId(4), 2).await.expect("w"));
        // Server setting: closed by default.
        assert!(!tournaments_open(&pool, GuildId(5)).await.expect("open"));
        set_tournaments_open(&pool, GuildId(5), true, 5).await.expect("set");
        assert!(tournaments_open(&pool, GuildId(5)).await.expect("open"));
        set_tournaments_open(&pool, GuildId(5), false, 6).await.expect("set");
        assert!(!tournaments_open(&pool, GuildId(5)).await.expect("open"));
        // A format or status the code does not know is refused by the schema.
        sqlx::query("UPDATE tournaments SET format = 'knockout' WHERE id = $1")
            .bind(id)
            .execute(&pool)
            .await
            .expect_err("unknown format");
    }
}

both_backends! {
    async fn rounds_are_paired_once_and_results_recorded_with_the_game(pool) {
        players(&pool, &[1, 2, 3, 4]).await;
        let options = crate::games::Options::parse_line("inphexion size=5").expect("options");
        let id = insert_tournament(&pool, &swiss(&options)).await.expect("insert");
        for p in [1, 2, 3] {
            insert_tournament_player(&pool, id, UserId(p), 0, 200).await.expect("join");
        }
        assert!(start_tournament(&pool, id, 0, 2, 1_000).await.expect("start"));
        // Not advancing while it has no round: the first is due at once.
        assert_eq!(tournaments_to_advance(&pool, 0).await.expect("due"), [id]);
        // One process claims the advance; another is refused until the claim runs out.
        assert!(claim_advance(&pool, id, 1_000, 2_000).await.expect("claim"));
        assert!(!claim_advance(&pool, id, 1_500, 2_500).await.expect("claim"));
        assert!(tournaments_to_advance(&pool, 1_500).await.expect("due").is_empty());
        assert_eq!(tournaments_to_advance(&pool, 2_000).await.expect("due"), [id]);
        release_advance(&pool, id, 9_999).await.expect("not ours");
        assert!(!claim_advance(&pool, id, 1_500, 2_500).await.expect("claim"));
        release_advance(&pool, id, 2_000).await.expect("ours");
        assert!(claim_advance(&pool, id, 1_500, 2_500).await.expect("claim"));
        // The round and its game, stored in one transaction with the round's number.
        let game = insert_game(
            &pool,
            &NewGame {
                guild_id: Some(GuildId(5)),
                channel_id: ChannelId(6),
                options: &options,
                players: [UserId(1), UserId(2)],
                rated: true,
                now: 1_000,
                seconds_per_move: 86_400,
                deadline_at: Some(87_400),
                clock: None,
            },
        )
        .await
        .expect("game");
        let mut tx = pool.begin().await.expect("tx");
        let t = fetch_tournament(&mut *tx, id).await.expect("fetch").expect("row");
        let pairing = NewPairing {
            round: 1,
            board: 1,
            white: UserId(1),
            black: Some(UserId(2)),
            bye_halves: None,
            game_id: Some(game),
        };
        insert_pairing(&mut *tx, id, &pairing).await.expect("pairing");
        let bye = NewPairing {
            board: 2,
            white: UserId(3),
            black: None,
            bye_halves: Some(2),
            game_id: None,
            ..pairing
        };
        insert_pairing(&mut *tx, id, &bye).await.expect("bye");
        assert!(record_round_paired(&mut *tx, id, t.version, 1, 1_000).await.expect("round"));
        tx.commit().await.expect("commit");
        // A second process with the version it read before cannot store the round again.
        assert!(!record_round_paired(&pool, id, t.version, 1, 1_000).await.expect("again"));
        let t = fetch_tournament(&pool, id).await.expect("fetch").expect("row");
        assert_eq!(t.rounds_paired, 1);
        // The claim went with the round; the round waits for its game.
        assert!(tournaments_to_advance(&pool, 0).await.expect("due").is_empty());
        let rows = tournament_pairings(&pool, id).await.expect("pairings");
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[1].result, Some(PairingResult::Bye));
        assert_eq!(rows[1].bye_halves, Some(2));
        assert_eq!(rows[0].result, None);
        // A bye without its worth, or a game with one, is refused.
        insert_pairing(&pool, id, &NewPairing { board: 3, bye_halves: None, ..bye })
            .await
            .expect_err("a bye needs its worth");
        // The game ends on time: the pairing takes the result, the loser a timeout.
        let finish = Finish {
            kind: GameKind::Inphexion,
            result: GameResult::Decided(Outcome::win(Colour::Second, Reason::Timeout)),
            winner_id: Some(UserId(2)),
        };
        let mut conn = pool.acquire().await.expect("conn");
        let seats = [UserId(1), UserId(2)];
        assert_eq!(
            record_tournament_game(&mut conn, game, seats, &finish).await.expect("record"),
            Some(id)
        );
        // Recorded once.
        record_tournament_game(&mut conn, game, seats, &finish).await.expect("again");
        assert_eq!(
            record_tournament_game(&mut conn, game + 1, seats, &finish).await.expect("none"),
            None
        );
        drop(conn);
        let rows = tournament_pairings(&pool, id).await.expect("pairings");
        assert_eq!(rows[0].result, Some(PairingResult::Black));
        assert_eq!(pairing_of_game(&pool, game).await.expect("tag").map(|p| p.round), Some(1));
        let timeouts: Vec<i64> = tournament_players(&pool, id)
            .await
            .expect("players")
            .iter()
            .map(|p| p.timeouts)
            .collect();
        assert_eq!(timeouts, [1, 0, 0]);
        assert_eq!(tournaments_to_advance(&pool, 0).await.expect("due"), [id]);
        // Closed once, with its winner.
        let t = fetch_tournament(&pool, id).await.expect("fetch").expect("row");
        assert!(close_tournament(&pool, id, t.version, TournamentStatus::Finished, Some(UserId(2)), 5)
            .await
            .expect("close"));
        assert!(!close_tournament(&pool, id, t.version + 1, TournamentStatus::Cancelled, None, 5)
            .await
            .expect("closed"));
        let t = fetch_tournament(&pool, id).await.expect("fetch").expect("row");
        assert_eq!((t.status, t.winner_id), (TournamentStatus::Finished, Some(UserId(2))));
        assert!(tournaments_to_advance(&pool, 0).await.expect("due").is_empty());
    }
}

#[test]
fn a_game_result_reads_as_the_pairing_result() {
    let seats = [UserId(1), UserId(2)];
    let finish = |result, winner_id| Finish {
        kind: GameKind::Exxit,
        result,
        winner_id,
    };
    let win = GameResult::Decided(Outcome::win(Colour::First, Reason::Resignation));
    assert_eq!(
        PairingResult::of_game(&finish(win.clone(), Some(UserId(1))), seats),
        PairingResult::White
    );
    assert_eq!(
        PairingResult::of_game(&finish(win, Some(UserId(2))), seats),
        PairingResult::Black
    );
    let aborted = GameResult::Aborted { by: "mod".into() };
    assert_eq!(
        PairingResult::of_game(&finish(aborted, None), seats),
        PairingResult::Void
    );
    assert_eq!(
        PairingResult::forfeit_for(Colour::Second),
        PairingResult::BlackForfeit
    );
    for r in [
        "white",
        "black",
        "draw",
        "white_forfeit",
        "black_forfeit",
        "void",
        "bye",
    ] {
        assert_eq!(PairingResult::parse(r).map(PairingResult::as_str), Some(r));
    }
}
