//! Leaving a running event: by asking, by the rules after losses on time, removed by an
//! organiser, or on leaving the server.

use super::*;
use crate::pairings::format::WithdrawnGames;

/// The tournament a command means in server `guild`: the one named, else the newest taking
/// players or under way.
pub async fn tournament_here(core: &Core, guild: GuildId, id: Option<i64>) -> Result<i64, Error> {
    if let Some(id) = id {
        return Ok(id);
    }
    db::tournaments_of(
        &core.pool,
        guild,
        &[TournamentStatus::Signup, TournamentStatus::Running],
    )
    .await?
    .first()
    .map(|t| t.id)
    .ok_or_else(|| Error::refused(text!("tournament-none-here")))
}

/// Why a player leaves a running event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Withdrawal {
    /// They asked.
    Asked,
    /// They lost [`TIMEOUTS_TO_WITHDRAW`] tournament games on time.
    OnTime,
    /// An organiser removed them ([`remove_player`] checks who may).
    Removed,
    /// They left the event's server: where the format resigns a withdrawing player's games
    /// (Swiss), their game in progress is played out (or runs out of time); they are paired no
    /// more.
    LeftServer,
}

/// `user` withdraws from running tournament `id` (from server `guild`; `None` when the
/// withdrawal is the rules', after losses on time or on leaving the server). Their undecided
/// games end as the format says ([`WithdrawnGames`]: resigned in Swiss, forfeited in a round
/// robin), except a resigned game in progress of a member who left the server, which is played
/// out.
pub async fn withdraw(
    core: &Core,
    id: i64,
    guild: Option<GuildId>,
    user: UserId,
    why: Withdrawal,
) -> Result<Text, Error> {
    let now = core.clock.now();
    let mut tx = core.pool.begin().await?;
    let t = match why {
        Withdrawal::Asked | Withdrawal::Removed => take(&mut tx, id, guild).await?,
        Withdrawal::OnTime | Withdrawal::LeftServer => db::take_tournament(&mut tx, id)
            .await?
            .ok_or_else(|| anyhow::anyhow!("tournament {id} vanished"))?,
    };
    closed(&t)?;
    if t.status == TournamentStatus::Signup {
        return Err(Error::refused(text!(
            "tournament-withdraw-not-started",
            name = t.name.clone()
        )));
    }
    let players = db::tournament_players(&mut *tx, id).await?;
    let theirs = why == Withdrawal::Asked;
    match players.iter().find(|p| p.player_id == user) {
        None if theirs => {
            return Err(Error::refused(text!(
                "tournament-not-joined",
                name = t.name.clone()
            )))
        }
        None => {
            return Err(Error::refused(text!(
                "tournament-not-a-player",
                who = mention(user),
                name = t.name.clone()
            )))
        }
        Some(p) if p.withdrawn_round.is_some() && theirs => {
            return Err(Error::refused(text!(
                "tournament-already-withdrawn",
                name = t.name.clone()
            )))
        }
        Some(p) if p.withdrawn_round.is_some() => {
            return Err(Error::refused(text!(
                "tournament-player-withdrawn",
                who = mention(user),
                name = t.name.clone()
            )))
        }
        Some(_) => {}
    }
    db::withdraw_tournament_player(&mut *tx, id, user, t.rounds_paired).await?;
    // Their undecided games, as the format has them: resigned (but played out by a member who
    // left the server), or called off and forfeited.
    let forfeited = t.format.withdrawn_games() == WithdrawnGames::Forfeited;
    let plays_on = why == Withdrawal::LeftServer && !forfeited;
    let open: Vec<PairingRow> = db::tournament_pairings(&mut *tx, id)
        .await?
        .into_iter()
        .filter(|p| p.result.is_none() && (p.white_id == user || p.black_id == Some(user)))
        .filter(|_| !plays_on)
        .collect();
    let mut ended = Vec::new();
    for p in &open {
        let Some(game_id) = p.game_id else { continue };
        // Read on its own connection (a game is loaded in a read transaction of its own); the
        // write below applies only while the game is still as read.
        let mut conn = core.pool.acquire().await?;
        let Some((row, game)) = db::load_game(&mut conn, game_id).await? else {
            continue;
        };
        drop(conn);
        if row.status != GameStatus::Active {
            continue;
        }
        let opponent = row.opponent_of(user);
        let (finish, result, intro) = if forfeited {
            let opponent_white = p.white_id == opponent;
            (
                Finish {
                    kind: row.kind(),
                    result: GameResult::Aborted {
                        by: text!("tournament-withdrawal-by").render(Lang::EN),
                    },
                    winner_id: None,
                },
                PairingResult::forfeit_for(if opponent_white {
                    crate::games::Colour::First
                } else {
                    crate::games::Colour::Second
                }),
                text!(
                    "tournament-forfeited",
                    who = mention(user),
                    winner = mention(opponent)
                ),
            )
        } else {
            let Some(loser) = colour_of(&row, &game, user) else {
                continue;
            };
            let finish = win_for(&row, &game, loser.other(), Reason::Resignation);
            let result = PairingResult::of_game(&finish, row.players);
            (finish, result, text!("resigned", who = mention(user)))
        };
        store_ending(&mut tx, &row, &game, &finish, intro, now).await?;
        db::decide_pairing(&mut *tx, p.id, result).await?;
        ended.push(row.id);
    }
    if !db::touch_tournament(&mut *tx, id, t.version, now).await? {
        return Err(DbError::Conflict(id).into());
    }
    let lang = crate::play::server_lang(&mut *tx, Some(t.guild_id)).await?;
    let line = match why {
        Withdrawal::Asked => text!(
            "tournament-withdrew",
            who = mention(user),
            name = t.name.clone()
        ),
        Withdrawal::OnTime => text!(
            "tournament-withdrawn-on-time",
            who = mention(user),
            name = t.name.clone(),
            losses = TIMEOUTS_TO_WITHDRAW
        ),
        Withdrawal::Removed => text!(
            "tournament-removed",
            who = mention(user),
            name = t.name.clone()
        ),
        Withdrawal::LeftServer => text!(
            "tournament-left-server",
            who = mention(user),
            name = t.name.clone()
        ),
    }
    .render(lang);
    db::enqueue(&mut *tx, None, &notice(&t, lang, line, Vec::new())).await?;
    enqueue_card(&mut tx, id, lang).await?;
    core.commit_changes(tx, &ended).await?;
    info!(tournament = id, %user, ?why, "withdrew");
    if let Err(e) = advance(core, id).await {
        error!(tournament = id, "cannot advance after a withdrawal: {e:#}");
    }
    Ok(match why {
        Withdrawal::Asked => text!("tournament-you-withdrew", name = t.name.clone()),
        _ => text!(
            "tournament-you-removed",
            who = mention(user),
            name = t.name.clone()
        ),
    })
}
