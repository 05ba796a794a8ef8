//! Ending a game early: resignation, a call-off by agreement, a moderator's abort, and loss on time.

use tracing::info;

use super::after_game;
use super::game::{end_game, enqueue_board, load, row_after, win_for, Core, Stamp};
use crate::db::{self, DbError, Finish, GameResult, GameStatus, GuildId, UserId};
use crate::games::Reason;
use crate::i18n::Text;
use crate::play::access::{check_player, colour_of, mention, player_of};
use crate::play::Error;
use crate::text;

/// Resigns game `id` for `player`.
///
/// A resignation does not depend on the position: when a move lands between reading the game and
/// storing the resignation, the game is read again and the resignation stored on the new
/// position, while the game is still in play.
pub async fn resign(core: &Core, id: i64, player: UserId) -> Result<(), Error> {
    const ATTEMPTS: usize = 5;
    for _ in 0..ATTEMPTS {
        let (row, game) = load(&core.pool, id).await?;
        check_player(&row, player)?;
        let loser = colour_of(&row, &game, player)
            .ok_or_else(|| anyhow::anyhow!("player {player} has no colour in game {id}"))?;
        let finish = win_for(&row, &game, loser.other(), Reason::Resignation);
        let intro = text!("resigned", who = mention(player));
        match end_game(core, &row, &game, &finish, intro).await {
            Err(DbError::Conflict(_)) => continue,
            done => done?,
        }
        info!(game = id, "resigned");
        after_game(core, id).await;
        return Ok(());
    }
    Err(DbError::Conflict(id).into())
}

/// A game may be called off by agreement only while neither player has made two moves.
pub const CALL_OFF_BEFORE_PLY: usize = 4;

/// `player` proposes to call off game `id`, which has barely started. Returns the position it is
/// about and the text of the proposal (the opponent agrees or not with buttons).
pub async fn propose_call_off(
    core: &Core,
    id: i64,
    player: UserId,
) -> Result<(Stamp, Text), Error> {
    let (row, game) = load(&core.pool, id).await?;
    check_player(&row, player)?;
    if game.ply() >= CALL_OFF_BEFORE_PLY {
        return Err(Error::refused(text!("call-off-too-late", game = id)));
    }
    let text = text!(
        "call-off-proposed",
        opponent = mention(row.opponent_of(player)),
        who = mention(player),
        game = id
    );
    Ok((Stamp::of(&core.pool, id, game.ply() as i64).await?, text))
}

/// The other player of game `id` answers `proposer`'s call-off made at position `at`; one made
/// on another position (moves played or taken back since) is refused.
pub async fn answer_call_off(
    core: &Core,
    id: i64,
    at: Stamp,
    proposer: UserId,
    user: UserId,
    accept: bool,
) -> Result<Text, Error> {
    let (row, game) = load(&core.pool, id).await?;
    check_player(&row, user)?;
    if user == proposer || !row.players.contains(&proposer) {
        return Err(Error::refused(text!(
            "only-they-answer-proposal",
            who = mention(row.opponent_of(user))
        )));
    }
    if Stamp::of(&core.pool, id, game.ply() as i64).await? != at {
        return Err(Error::refused(text!("call-off-moved-on", game = id)));
    }
    if !accept {
        return Ok(text!("call-off-declined", who = mention(user), game = id));
    }
    let finish = Finish {
        kind: row.kind(),
        result: GameResult::Aborted {
            by: "agreement".to_string(),
        },
        winner_id: None,
    };
    let intro = text!(
        "called-off",
        game = id,
        a = mention(row.players[0]),
        b = mention(row.players[1])
    );
    end_game(core, &row, &game, &finish, intro).await?;
    info!(game = id, "called off by agreement");
    after_game(core, id).await;
    Ok(text!("call-off-done", game = id))
}

/// A moderator (`manage_guild`) in server `guild` aborts game `id`: it ends without a result.
pub async fn abort(
    core: &Core,
    id: i64,
    moderator: &str,
    manage_guild: bool,
    guild: Option<GuildId>,
) -> Result<(), Error> {
    let (row, game) = load(&core.pool, id).await?;
    crate::play::access::may_abort(manage_guild, &row, guild)?;
    let finish = Finish {
        kind: row.kind(),
        result: GameResult::Aborted {
            by: moderator.to_string(),
        },
        winner_id: None,
    };
    let intro = text!(
        "aborted-by-moderator",
        game = id,
        a = mention(row.players[0]),
        b = mention(row.players[1])
    );
    end_game(core, &row, &game, &finish, intro).await?;
    info!(game = id, "aborted");
    after_game(core, id).await;
    Ok(())
}

/// Ends game `id` on time when its deadline has passed: `true` when it did (a move that came
/// first, or another scan, leaves it alone).
pub async fn time_out(core: &Core, id: i64) -> Result<bool, Error> {
    let now = core.clock.now();
    let (row, game) = load(&core.pool, id).await?;
    if row.status != GameStatus::Active || row.deadline_at.is_none_or(|d| d > now) {
        return Ok(false);
    }
    let loser_colour = game.position().to_move();
    let loser = player_of(&row, &game, loser_colour);
    let finish = win_for(&row, &game, loser_colour.other(), Reason::Timeout);
    let after = row_after(&row, &game, Some(&finish), None);
    let mut tx = core.pool.begin().await?;
    if !db::time_out_game(&mut *tx, id, row.version, &finish, now).await? {
        return Ok(false);
    }
    db::apply_result(&mut tx, id).await?;
    db::record_tournament_game(&mut tx, id, row.players, &finish).await?;
    let intro = text!("ran-out-of-time", who = mention(loser));
    enqueue_board(&mut tx, &after, &game, Some(intro), None).await?;
    core.commit_change(tx, id).await?;
    info!(game = id, %loser, "lost on time");
    after_game(core, id).await;
    Ok(true)
}
