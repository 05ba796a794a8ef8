//! What an event's organisers do while it runs: call it off, pause and resume its next round,
//! remove a player, correct a result entered wrongly; and the withdrawal of a member who leaves
//! the server.
//!
//! Organisers are the event's creator and the members who manage the server or its events (the
//! same rule as starting it by hand); anyone else is refused and nothing changes. Every change
//! is announced in the event's thread (or channel) through the delivery queue.
//!
//! A **correction** changes the stored result of a decided game of the event (not the game's own
//! record, nor the ratings it moved): the standings follow at once, and so does every round
//! paired after it. Rounds already paired stay as they are, as a tournament director keeps
//! pairings already published; the answer and the announcement say so.

use super::*;

/// Whether `by` may run event `t`: its creator, or a member who manages the server or its
/// events, in its own server.
fn organises(t: &TournamentRow, by: &Starter) -> bool {
    by.guild == Some(t.guild_id) && (by.user == t.creator_id || by.manager)
}

fn not_organiser(t: &TournamentRow) -> Error {
    Error::refused(text!("tournament-organisers-only", name = t.name.clone()))
}

/// Takes event `id` for an organiser's change: refused when `by` does not run it or it is over.
async fn take_as_organiser(tx: &mut Conn, id: i64, by: &Starter) -> Result<TournamentRow, Error> {
    let t = take(tx, id, by.guild).await?;
    if !organises(&t, by) {
        return Err(not_organiser(&t));
    }
    closed(&t)?;
    Ok(t)
}

/// Game `game_id` as stored, when it is still being played (read on a connection of its own, as
/// a game is loaded in a read transaction of its own).
async fn active_game(
    core: &Core,
    game_id: i64,
) -> Result<Option<(db::GameRow, crate::games::Game)>, Error> {
    let mut conn = core.pool.acquire().await?;
    Ok(db::load_game(&mut conn, game_id)
        .await?
        .filter(|(row, _)| row.status == GameStatus::Active))
}

/// An organiser calls off tournament `id`, taking sign-ups or under way: its games in progress
/// end without a result, nobody wins it, and its players are told.
pub async fn cancel_tournament(core: &Core, id: i64, by: Starter) -> Result<Text, Error> {
    let now = core.clock.now();
    let mut tx = core.pool.begin().await?;
    let t = take_as_organiser(&mut tx, id, &by).await?;
    let mut ended = Vec::new();
    for p in db::tournament_pairings(&mut *tx, id).await? {
        if p.result.is_some() {
            continue;
        }
        if let Some(game_id) = p.game_id {
            if let Some((row, game)) = active_game(core, game_id).await? {
                let finish = Finish {
                    kind: row.kind(),
                    result: GameResult::Aborted {
                        by: text!("tournament-cancellation-by").render(Lang::EN),
                    },
                    winner_id: None,
                };
                let intro = text!("tournament-game-called-off", name = t.name.clone());
                store_ending(&mut tx, &row, &game, &finish, intro, now).await?;
                ended.push(row.id);
            }
        }
        db::decide_pairing(&mut *tx, p.id, PairingResult::Void).await?;
    }
    let line = text!(
        "tournament-cancelled",
        name = t.name.clone(),
        who = mention(by.user),
        games = ended.len() as i64
    );
    if !call_off(&mut tx, &t, line, now).await? {
        return Err(DbError::Conflict(id).into());
    }
    core.commit_changes(tx, &ended).await?;
    info!(tournament = id, by = %by.user, games = ended.len(), "tournament called off");
    Ok(text!("tournament-you-cancelled", name = t.name.clone()))
}

/// An organiser pauses (`pause`) or resumes the next round of running tournament `id`. While
/// paused, the games under way go on but no round is paired and the event does not end;
/// resuming pairs the next round at once when the current one is decided.
pub async fn pause_round(core: &Core, id: i64, by: Starter, pause: bool) -> Result<Text, Error> {
    let now = core.clock.now();
    let mut tx = core.pool.begin().await?;
    let t = take_as_organiser(&mut tx, id, &by).await?;
    if t.status != TournamentStatus::Running {
        return Err(Error::refused(text!(
            "tournament-not-running",
            name = t.name.clone()
        )));
    }
    if t.paused == pause {
        let name = t.name.clone();
        return Err(Error::refused(if pause {
            text!("tournament-already-paused", name = name)
        } else {
            text!("tournament-not-paused", name = name)
        }));
    }
    if !db::set_tournament_paused(&mut *tx, id, t.version, pause, now).await? {
        return Err(DbError::Conflict(id).into());
    }
    let lang = crate::play::server_lang(&mut *tx, Some(t.guild_id)).await?;
    let line = if pause {
        text!(
            "tournament-paused",
            name = t.name.clone(),
            who = mention(by.user),
            round = t.rounds_paired + 1
        )
    } else {
        text!(
            "tournament-resumed",
            name = t.name.clone(),
            who = mention(by.user),
            round = t.rounds_paired + 1
        )
    }
    .render(lang);
    db::enqueue(&mut *tx, None, &notice(&t, lang, line, Vec::new())).await?;
    tx.commit().await?;
    core.wake_delivery();
    info!(tournament = id, by = %by.user, pause, "next round paused or resumed");
    if !pause {
        if let Err(e) = advance(core, id).await {
            error!(tournament = id, "cannot advance after resuming: {e:#}");
        }
    }
    Ok(if pause {
        text!("tournament-you-paused", name = t.name.clone())
    } else {
        text!("tournament-you-resumed", name = t.name.clone())
    })
}

/// An organiser removes `player` from running tournament `id`: as a withdrawal (their undecided
/// games end as the format says: resigned in Swiss, forfeited in a round robin), announced as a
/// removal.
pub async fn remove_player(
    core: &Core,
    id: i64,
    by: Starter,
    player: UserId,
) -> Result<Text, Error> {
    let t = fetch(&core.pool, id).await?;
    if by.guild != Some(t.guild_id) {
        return Err(Error::refused(text!("tournament-other-server", id = id)));
    }
    if !organises(&t, &by) {
        return Err(not_organiser(&t));
    }
    withdraw(core, id, by.guild, player, Withdrawal::Removed).await
}

/// An organiser corrects the result of tournament game `game` to `result` (the first seat being
/// White). The standings follow; rounds paired after it stay as they are (the answer says so),
/// later ones are paired on the corrected result.
pub async fn correct_result(
    core: &Core,
    game: i64,
    by: Starter,
    result: PairingResult,
) -> Result<Text, Error> {
    let now = core.clock.now();
    if matches!(result, PairingResult::Bye | PairingResult::Void) {
        return Err(anyhow::anyhow!("a correction to {result:?}").into());
    }
    let Some(pairing) = db::pairing_of_game(&core.pool, game).await? else {
        return Err(Error::refused(text!(
            "tournament-not-its-game",
            game = game
        )));
    };
    let id = pairing.tournament_id;
    let mut tx = core.pool.begin().await?;
    let t = take_as_organiser(&mut tx, id, &by).await?;
    // Read again in the transaction: the game may have ended, or been corrected, meanwhile.
    let Some(p) = db::tournament_pairings(&mut *tx, id)
        .await?
        .into_iter()
        .find(|p| p.id == pairing.id)
    else {
        return Err(anyhow::anyhow!("pairing {} vanished", pairing.id).into());
    };
    let (Some(was), Some(black)) = (p.result, p.black_id) else {
        return Err(Error::refused(text!(
            "tournament-game-undecided",
            game = game
        )));
    };
    if was == result {
        return Err(Error::refused(text!(
            "tournament-result-unchanged",
            game = game
        )));
    }
    if !db::correct_pairing(&mut *tx, p.id, was, result).await? {
        return Err(DbError::Conflict(id).into());
    }
    if !db::touch_tournament(&mut *tx, id, t.version, now).await? {
        return Err(DbError::Conflict(id).into());
    }
    let lang = crate::play::server_lang(&mut *tx, Some(t.guild_id)).await?;
    let kept = p.round < t.rounds_paired;
    let words = |r: PairingResult| result_words(r, p.white_id, black);
    let line = text!(
        "tournament-corrected",
        name = t.name.clone(),
        who = mention(by.user),
        game = game,
        round = p.round,
        was = words(was),
        now = words(result)
    );
    let line = if kept {
        text!(
            "tournament-line-break",
            before = line,
            after = text!("tournament-pairings-kept", round = t.rounds_paired)
        )
    } else {
        line
    }
    .render(lang);
    db::enqueue(
        &mut *tx,
        None,
        &notice(&t, lang, line, vec![p.white_id, black]),
    )
    .await?;
    tx.commit().await?;
    core.wake_delivery();
    info!(tournament = id, game, ?was, ?result, "result corrected");
    let answer = text!("tournament-you-corrected", game = game, now = words(result));
    Ok(if kept {
        text!(
            "tournament-line-break",
            before = answer,
            after = text!("tournament-pairings-kept", round = t.rounds_paired)
        )
    } else {
        answer
    })
}

/// A result in words, naming its players: `@a wins against @b`, `@a – @b drawn`…
fn result_words(r: PairingResult, white: UserId, black: UserId) -> Text {
    let (w, b) = (mention(white), mention(black));
    match r {
        PairingResult::White => text!("tournament-result-win", winner = w, loser = b),
        PairingResult::Black => text!("tournament-result-win", winner = b, loser = w),
        PairingResult::WhiteForfeit => text!("tournament-result-forfeit", winner = w, loser = b),
        PairingResult::BlackForfeit => text!("tournament-result-forfeit", winner = b, loser = w),
        PairingResult::Draw => text!("tournament-result-draw", a = w, b = b),
        PairingResult::Void | PairingResult::Bye => text!("tournament-result-void", a = w, b = b),
    }
}

/// Member `user` left server `guild`: they are withdrawn from each of its running events where
/// they still play, after their game in progress where the format resigns a withdrawing
/// player's games (Swiss; a round robin forfeits their undecided games, as a withdrawal does).
/// Returns how many events they were withdrawn from; failures are logged.
pub async fn member_left(core: &Core, guild: GuildId, user: UserId) -> usize {
    let running = match db::tournaments_of(&core.pool, guild, &[TournamentStatus::Running]).await {
        Ok(list) => list,
        Err(e) => {
            error!(%guild, "cannot read the server's tournaments: {e:#}");
            return 0;
        }
    };
    let mut withdrawn = 0;
    for t in running {
        let playing = match db::tournament_players(&core.pool, t.id).await {
            Ok(players) => players
                .iter()
                .any(|p| p.player_id == user && p.withdrawn_round.is_none()),
            Err(e) => {
                error!(tournament = t.id, "cannot read its players: {e:#}");
                continue;
            }
        };
        if !playing {
            continue;
        }
        match withdraw(core, t.id, None, user, Withdrawal::LeftServer).await {
            Ok(_) => withdrawn += 1,
            Err(Error::Refused(_)) => {}
            Err(e) => error!(tournament = t.id, %user, "cannot withdraw a member who left: {e:#}"),
        }
    }
    withdrawn
}
