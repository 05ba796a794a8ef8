//! Starting an event and pairing its rounds: the start by hand or at the end of sign-up, each
//! next round when the one before is decided, the end with the final standings, and the timers' scan
//! that takes up events a restart or a dead process left waiting.

use super::*;

/// Who asks to start an event by hand.
#[derive(Clone, Copy, Debug)]
pub struct Starter {
    pub user: UserId,
    pub guild: Option<GuildId>,
    /// They manage the server or its events.
    pub manager: bool,
}

/// Starts tournament `id`: by hand (its creator or a manager; `by`), or at the end of sign-up
/// (`by` is `None`, from the timers). With too few players a start by hand is refused and one
/// at the end of sign-up calls the event off. The first round (a round robin: every round) is
/// paired in the same transaction.
pub async fn start_tournament(core: &Core, id: i64, by: Option<Starter>) -> Result<(), Error> {
    let now = core.clock.now();
    let mut tx = core.pool.begin().await?;
    let t = match by {
        Some(s) => {
            let t = take(&mut tx, id, s.guild).await?;
            if s.user != t.creator_id && !s.manager {
                return Err(Error::refused(text!(
                    "tournament-start-not-allowed",
                    name = t.name.clone()
                )));
            }
            t
        }
        None => db::take_tournament(&mut tx, id)
            .await?
            .ok_or_else(|| anyhow::anyhow!("tournament {id} vanished"))?,
    };
    closed(&t)?;
    if t.status != TournamentStatus::Signup {
        return Err(Error::refused(text!(
            "tournament-already-started",
            name = t.name.clone()
        )));
    }
    let players = db::tournament_players(&mut *tx, id).await?;
    let n = players.len() as i64;
    let rounds = t.format.rounds(n.max(0) as u32, t.rounds);
    let needed = t.format.players_needed(rounds);
    if n < needed {
        if by.is_some() {
            return Err(Error::refused(text!(
                "tournament-too-few",
                name = t.name.clone(),
                count = n,
                needed = needed
            )));
        }
        let line = text!(
            "tournament-called-off",
            name = t.name.clone(),
            count = n,
            needed = needed
        );
        // Not closed: another process moved it on meanwhile.
        if !call_off(&mut tx, &t, line, now).await? {
            return Ok(());
        }
        tx.commit().await?;
        core.wake_delivery();
        info!(tournament = id, "called off: too few players");
        return Ok(());
    }
    let lang = crate::play::server_lang(&mut *tx, Some(t.guild_id)).await?;
    if !db::start_tournament(&mut *tx, id, t.version, rounds, now).await? {
        return match by {
            Some(_) => Err(DbError::Conflict(id).into()),
            // Started by another process meanwhile.
            None => Ok(()),
        };
    }
    let t = db::fetch_tournament(&mut *tx, id)
        .await?
        .ok_or_else(|| anyhow::anyhow!("tournament {id} vanished"))?;
    let line = text!(
        "tournament-begins",
        name = t.name.clone(),
        count = n,
        format = format_words(&t)
    )
    .render(lang);
    db::enqueue(&mut *tx, None, &notice(&t, lang, line, Vec::new())).await?;
    let paired = pair_or_finish(&mut tx, &t, &players, &[], lang, now).await?;
    enqueue_card(&mut tx, id, lang).await?;
    tx.commit().await?;
    core.wake_delivery();
    info!(tournament = id, players = n, "tournament started");
    paired.log(id);
    Ok(())
}

/// What advancing an event did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Advanced {
    /// Another process holds the claim, or the event is not waiting for a round.
    Nothing,
    /// Round `n` was paired.
    Round(i64),
    /// The event ended.
    Finished,
}

/// Pairs the next round of tournament `id` once every paired game is decided, or ends it after
/// its last round: claimed first, so that one process does it, and stored in one transaction
/// checked against the event's version.
///
/// A process that finds the claim taken does nothing; so the holder, when it found nothing to
/// do, looks again once it has given the claim back: the last game of a round ending in another
/// process while this one held the claim (and read the round before that game's end) is not
/// left to the timers' scan.
pub async fn advance(core: &Core, id: i64) -> Result<Advanced, Error> {
    for _ in 0..ADVANCE_TRIES {
        let now_ms = db::now_ms();
        let until = now_ms + ADVANCE_LEASE_MS;
        if !db::claim_advance(&core.pool, id, now_ms, until).await? {
            return Ok(Advanced::Nothing);
        }
        let done = advance_claimed(core, id).await;
        // Stored: the claim went with the round. Not stored: give it back for the next try.
        if matches!(done, Ok(Advanced::Round(_))) {
            return done;
        }
        db::release_advance(&core.pool, id, until).await?;
        match done {
            Ok(Advanced::Nothing) if db::tournament_due(&core.pool, id).await? => continue,
            other => return other,
        }
    }
    Ok(Advanced::Nothing)
}

async fn advance_claimed(core: &Core, id: i64) -> Result<Advanced, Error> {
    let now = core.clock.now();
    let mut tx = core.pool.begin().await?;
    // Taken first: the transaction writes from its start (SQLite cannot turn a read transaction
    // into a write after another connection wrote).
    let Some(t) = db::take_tournament(&mut tx, id).await? else {
        return Ok(Advanced::Nothing);
    };
    if t.status != TournamentStatus::Running {
        return Ok(Advanced::Nothing);
    }
    let pairings = db::tournament_pairings(&mut *tx, id).await?;
    if pairings.iter().any(|p| p.result.is_none()) {
        return Ok(Advanced::Nothing);
    }
    let players = db::tournament_players(&mut *tx, id).await?;
    let lang = crate::play::server_lang(&mut *tx, Some(t.guild_id)).await?;
    let last = t.rounds_paired >= t.rounds.unwrap_or(0);
    if t.rounds_paired > 0 && !last {
        // The standings after the round just decided (a format pairing every round at once has
        // none before its end).
        let content = standings_text(&mut tx, &t, &players, &pairings, lang, t.rounds_paired)
            .await?
            .render(lang);
        let mut standings = notice(&t, lang, content, Vec::new());
        standings.target = Target::Standings {
            channel: t.channel_id,
            tournament: t.id,
            round: t.rounds_paired,
        };
        db::enqueue(&mut *tx, None, &standings).await?;
    }
    let paired = pair_or_finish(&mut tx, &t, &players, &pairings, lang, now).await?;
    enqueue_card(&mut tx, id, lang).await?;
    tx.commit().await?;
    core.wake_delivery();
    paired.log(id);
    Ok(paired.advanced)
}

/// What [`pair_or_finish`] did, logged once its transaction is committed (a transaction rolled
/// back paired and finished nothing).
struct Paired {
    advanced: Advanced,
    /// The winner, when the event ended.
    winner: Option<UserId>,
}

impl Paired {
    fn log(&self, tournament: i64) {
        match self.advanced {
            Advanced::Round(round) => info!(tournament, round, "round paired"),
            Advanced::Finished => info!(tournament, winner = ?self.winner, "tournament finished"),
            Advanced::Nothing => {}
        }
    }
}

/// In the caller's transaction: pairs the next rounds of running event `t` (as many as its
/// format pairs at once: a Swiss one, a round robin all), starting their games, or, when its
/// format says it is over or no valid pairing exists, closes it with its final standings.
async fn pair_or_finish(
    tx: &mut Conn,
    t: &TournamentRow,
    players: &[TournamentPlayer],
    pairings: &[PairingRow],
    lang: Lang,
    now: i64,
) -> Result<Paired, Error> {
    let rounds = t.rounds.unwrap_or(0);
    let active: Vec<&TournamentPlayer> = players
        .iter()
        .filter(|p| p.withdrawn_round.is_none())
        .collect();
    let planned = if t.format.is_over(t.rounds_paired, rounds, active.len()) {
        None
    } else {
        let event = pairing_input(t, players, pairings, t.rounds_paired);
        match t.format.pair(&event, t.rounds_paired) {
            Ok(rounds) => Some(rounds),
            Err(pairings::PairingError::NoValidPairing) => None,
            Err(e @ pairings::PairingError::TournamentOver { .. }) => {
                return Err(anyhow::anyhow!("tournament {}: {e}", t.id).into())
            }
        }
    };
    let Some(planned) = planned else {
        let winner = finish(tx, t, players, pairings, lang, now).await?;
        return Ok(Paired {
            advanced: Advanced::Finished,
            winner,
        });
    };
    let mut last = t.rounds_paired;
    for pairings::format::PairedRound { round, games, bye } in planned {
        let player = |rank: u32| players.get(rank as usize - 1).map(|p| p.player_id);
        let mut lines = Vec::new();
        let mut pinged = Vec::new();
        let mut board = 0;
        for g in &games {
            let (Some(white), Some(black)) = (player(g.white), player(g.black)) else {
                return Err(anyhow::anyhow!("tournament {}: no player {g:?}", t.id).into());
            };
            board += 1;
            let place = ClockPlace {
                game: None,
                guild: Some(t.guild_id),
            };
            let (deadline, clock) = first_turn(
                tx,
                place,
                t.time_control,
                t.weekends_off,
                white,
                t.seconds_per_move,
                now,
            )
            .await?;
            let new = NewGame {
                guild_id: Some(t.guild_id),
                channel_id: t.channel_id,
                options: &t.options,
                players: [white, black],
                rated: t.rated,
                now,
                seconds_per_move: t.seconds_per_move,
                deadline_at: Some(deadline),
                clock,
            };
            let intro = text!(
                "tournament-game-intro",
                name = t.name.clone(),
                round = round
            );
            let game = start_game(tx, &new, None, Some(intro), None).await?;
            db::insert_pairing(
                &mut *tx,
                t.id,
                &NewPairing {
                    round,
                    board,
                    white,
                    black: Some(black),
                    bye_halves: None,
                    game_id: Some(game),
                },
            )
            .await?;
            lines.push(
                text!(
                    "tournament-pairing-line",
                    game = game,
                    white = mention(white),
                    black = mention(black)
                )
                .render(lang),
            );
            pinged.extend([white, black]);
        }
        if let Some((rank, halves)) = bye {
            let Some(who) = player(rank) else {
                return Err(anyhow::anyhow!("tournament {}: no player {rank}", t.id).into());
            };
            board += 1;
            db::insert_pairing(
                &mut *tx,
                t.id,
                &NewPairing {
                    round,
                    board,
                    white: who,
                    black: None,
                    bye_halves: Some(halves),
                    game_id: None,
                },
            )
            .await?;
            lines.push(
                text!(
                    "tournament-bye-line",
                    who = mention(who),
                    points = standings::Score::<2>(halves as u32).to_string()
                )
                .render(lang),
            );
        }
        let content = text!(
            "tournament-round",
            name = t.name.clone(),
            round = round,
            rounds = rounds,
            lines = lines.join("\n")
        )
        .render(lang);
        db::enqueue(&mut *tx, None, &notice(t, lang, content, pinged)).await?;
        last = round;
    }
    if !db::record_round_paired(&mut *tx, t.id, t.version, last, now).await? {
        return Err(DbError::Conflict(t.id).into());
    }
    Ok(Paired {
        advanced: Advanced::Round(last),
        winner: None,
    })
}

/// Closes running event `t` with its final standings, naming the winner (returned).
async fn finish(
    tx: &mut Conn,
    t: &TournamentRow,
    players: &[TournamentPlayer],
    pairings: &[PairingRow],
    lang: Lang,
    now: i64,
) -> Result<Option<UserId>, Error> {
    let table = table_of(t, players, pairings, t.rounds_paired);
    let winner = table
        .first()
        .and_then(|s| players.get(s.player))
        .map(|p| p.player_id);
    if !db::close_tournament(
        &mut *tx,
        t.id,
        t.version,
        TournamentStatus::Finished,
        winner,
        now,
    )
    .await?
    {
        return Err(DbError::Conflict(t.id).into());
    }
    let standings = standings_text(tx, t, players, pairings, lang, t.rounds_paired).await?;
    let content = text!(
        "tournament-final",
        name = t.name.clone(),
        winner = winner.map(mention).unwrap_or_default(),
        table = standings
    )
    .render(lang);
    let all = players.iter().map(|p| p.player_id).collect();
    let mut last = notice(t, lang, content, all);
    last.target = Target::Standings {
        channel: t.channel_id,
        tournament: t.id,
        round: t.rounds_paired,
    };
    db::enqueue(&mut *tx, None, &last).await?;
    if let Some(thread) = t.thread_id {
        // The event's channel hears of its end too; the table is in its thread.
        let line = text!(
            "tournament-result-line",
            name = t.name.clone(),
            winner = winner.map(mention).unwrap_or_default(),
            thread = format!("<#{thread}>")
        )
        .render(lang);
        let mut result = notice(t, lang, line, Vec::new());
        result.target = Target::Channel {
            channel: t.channel_id,
        };
        db::enqueue(&mut *tx, None, &result).await?;
    }
    Ok(winner)
}

/// Player `p`'s pairing in `round`.
pub(super) fn pairing_in(pairings: &[PairingRow], round: i64, p: UserId) -> Option<&PairingRow> {
    pairings
        .iter()
        .find(|x| x.round == round && (x.white_id == p || x.black_id == Some(p)))
}

/// The event after its first `upto` rounds as its format's pairing reads it (and as its TRF
/// export writes it): the players by seed (their starting ranks), each round's games, byes and
/// absences, and who is paired in round `upto + 1`.
pub(super) fn pairing_input(
    t: &TournamentRow,
    players: &[TournamentPlayer],
    pairings: &[PairingRow],
    upto: i64,
) -> pairings::Tournament {
    let rank: HashMap<UserId, u32> = players
        .iter()
        .enumerate()
        .map(|(i, p)| (p.player_id, i as u32 + 1))
        .collect();
    let entrants = players
        .iter()
        .enumerate()
        .map(|(i, p)| pairings::Entrant {
            rank: i as u32 + 1,
            name: p.player_id.to_string(),
            rounds: (1..=upto)
                .map(|round| match pairing_in(pairings, round, p.player_id) {
                    None => pairings::RoundEntry::ABSENT,
                    Some(x) => round_entry(x, p.player_id, &rank),
                })
                .collect(),
            paired_next: p.withdrawn_round.is_none_or(|w| w > upto),
        })
        .collect();
    pairings::Tournament {
        entrants,
        total_rounds: t.rounds.map(|r| r as u32),
        initial_colour: pairings::Colour::White,
    }
}

fn round_entry(x: &PairingRow, p: UserId, rank: &HashMap<UserId, u32>) -> pairings::RoundEntry {
    use pairings::Outcome as O;
    let Some(black) = x.black_id else {
        let outcome = match x.bye_halves {
            Some(2) => O::PairingBye,
            Some(1) => O::HalfBye,
            _ => O::ZeroBye,
        };
        return pairings::RoundEntry {
            opponent: None,
            colour: None,
            outcome,
        };
    };
    let white = x.white_id == p;
    let opponent = if white { black } else { x.white_id };
    let won = |side_white: bool| side_white == white;
    let outcome = match x.result {
        Some(PairingResult::White) => [O::Loss, O::Win][usize::from(won(true))],
        Some(PairingResult::Black) => [O::Loss, O::Win][usize::from(won(false))],
        Some(PairingResult::Draw) => O::Draw,
        Some(PairingResult::WhiteForfeit) => {
            [O::ForfeitLoss, O::ForfeitWin][usize::from(won(true))]
        }
        Some(PairingResult::BlackForfeit) => {
            [O::ForfeitLoss, O::ForfeitWin][usize::from(won(false))]
        }
        Some(PairingResult::Void) | Some(PairingResult::Bye) | None => {
            return pairings::RoundEntry::ABSENT
        }
    };
    pairings::RoundEntry {
        opponent: rank.get(&opponent).copied(),
        colour: Some(if white {
            pairings::Colour::White
        } else {
            pairings::Colour::Black
        }),
        outcome,
    }
}

/// After game `game` ended (its result stored with [`db::record_tournament_game`] in the
/// transaction that ended it): when it is a tournament game, withdraws a player who has now lost
/// [`TIMEOUTS_TO_WITHDRAW`] games on time, and advances the event when the round is complete.
/// Failures are logged: the timers' scan ([`advance_due`]) takes the event up again.
pub async fn after_game(core: &Core, game: i64) {
    let pairing = match db::pairing_of_game(&core.pool, game).await {
        Ok(Some(p)) => p,
        Ok(None) => return,
        Err(e) => {
            error!(game, "cannot read the game's tournament: {e:#}");
            return;
        }
    };
    let id = pairing.tournament_id;
    if let Ok(players) = db::tournament_players(&core.pool, id).await {
        for p in players.iter().filter(|p| {
            p.withdrawn_round.is_none()
                && p.timeouts >= TIMEOUTS_TO_WITHDRAW
                && (p.player_id == pairing.white_id || Some(p.player_id) == pairing.black_id)
        }) {
            if let Err(e) = withdraw(core, id, None, p.player_id, Withdrawal::OnTime).await {
                error!(tournament = id, "cannot withdraw a player on time: {e:#}");
            }
        }
    }
    if let Err(e) = advance(core, id).await {
        error!(tournament = id, "cannot advance: {e:#}");
    }
}

/// The timers' part: starts the events whose sign-up ended, and advances those whose round is
/// complete (after a restart, or a process that died while pairing). Returns how many changed.
pub async fn advance_due(core: &Core) -> Result<usize, DbError> {
    let mut changed = 0;
    for id in db::tournaments_to_start(&core.pool, core.clock.now()).await? {
        match start_tournament(core, id, None).await {
            Ok(()) => changed += 1,
            Err(Error::Refused(_)) => {}
            Err(e) => error!(tournament = id, "cannot start: {e:#}"),
        }
    }
    for id in db::tournaments_to_advance(&core.pool, db::now_ms()).await? {
        match advance(core, id).await {
            Ok(Advanced::Nothing) => {}
            Ok(_) => changed += 1,
            Err(e) => error!(tournament = id, "cannot advance: {e:#}"),
        }
    }
    Ok(changed)
}
