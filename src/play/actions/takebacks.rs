//! Taking back the last move, when the opponent agrees.

use tracing::info;

use super::game::{enqueue_board, load, Core, Stamp};
use crate::db::{self, UserId};
use crate::i18n::Text;
use crate::play::access::{check_player, mention};
use crate::play::Error;
use crate::text;

/// `player` asks to take back their last move of game `id`, before the opponent has answered
/// it. Returns the position asked about (the request names its move for good) and the text of
/// the request (the opponent accepts or declines with buttons). Games against the bot have
/// none: it answers at once.
pub async fn ask_takeback(core: &Core, id: i64, player: UserId) -> Result<(Stamp, Text), Error> {
    let (row, game) = load(&core.pool, id).await?;
    check_player(&row, player)?;
    let (Some(last), false) = (last_in_words(&game), row.to_move == Some(player)) else {
        return Err(Error::refused(text!("takeback-your-turn", game = id)));
    };
    if db::fetch_bot_level(&core.pool, id).await?.is_some() {
        return Err(Error::refused(text!("takeback-against-bot")));
    }
    let ply = game.ply() as i64;
    let opponent = row.opponent_of(player);
    let text = text!(
        "takeback-asked",
        opponent = mention(opponent),
        who = mention(player),
        ply = ply,
        words = last,
        game = id
    );
    Ok((Stamp::of(&core.pool, id, ply).await?, text))
}

/// The last move of `game` in words, as captions say it (`None` before the first move).
pub fn last_in_words(game: &crate::games::Game) -> Option<Text> {
    let ply = game.ply().checked_sub(1)?;
    let before = game.position_at(ply)?;
    let mv = game.moves().get(ply)?;
    Some(crate::play::picker::describe_text(&before, mv))
}

/// The opponent answers a takeback request for the move that made position `at` of game `id`.
/// Accepted, the move is undone (kept in the game's takebacks) and the board before it
/// announced. A request whose move is no longer the last one (played again after a takeback
/// is another move) is refused.
pub async fn answer_takeback(
    core: &Core,
    id: i64,
    at: Stamp,
    user: UserId,
    accept: bool,
) -> Result<Text, Error> {
    let (row, mut game) = load(&core.pool, id).await?;
    check_player(&row, user)?;
    let ply = at.ply;
    if Stamp::of(&core.pool, id, game.ply() as i64).await? != at {
        return Err(Error::refused(text!(
            "takeback-moved-on",
            game = id,
            ply = ply
        )));
    }
    if row.to_move != Some(user) {
        return Err(Error::refused(text!(
            "only-they-answer-request",
            who = mention(row.opponent_of(user))
        )));
    }
    let asker = row.opponent_of(user);
    if !accept {
        return Ok(text!(
            "takeback-declined",
            who = mention(user),
            ply = ply,
            game = id
        ));
    }
    let taken = last_in_words(&game).unwrap_or_else(|| Text::raw(""));
    if !game.undo() {
        return Err(anyhow::anyhow!("game {id} has no move to undo").into());
    }
    let now = core.clock.now();
    // With a time control, the mover gets back exactly what they had left when they moved (read
    // before the transaction, whose first statement then writes).
    let restored = match row.clock {
        Some(mut clock) if row.deadline_at.is_some() => {
            use crate::play::schedule::{seat_of, start_turn, ClockPlace};
            let mut conn = core.pool.acquire().await?;
            let seat = seat_of(row.players, asker);
            if let Some(left) = db::left_before_move(&mut *conn, id, ply).await? {
                clock.banks[seat] = left;
            }
            let place = ClockPlace::of(&row);
            let deadline = start_turn(&mut conn, place, &mut clock, seat, asker, now).await?;
            Some((clock, deadline))
        }
        _ => None,
    };
    let mut tx = core.pool.begin().await?;
    db::take_back_move(&mut tx, id, ply, now, restored).await?;
    // Conditional moves answer positions that no longer come.
    db::clear_game_plans(&mut *tx, id).await?;
    let after = db::fetch_game(&mut *tx, id)
        .await?
        .ok_or_else(|| anyhow::anyhow!("game {id} vanished during a takeback"))?;
    let intro = text!(
        "took-back",
        asker = mention(asker),
        ply = ply,
        words = taken,
        who = mention(user)
    );
    enqueue_board(&mut tx, &after, &game, Some(intro), None).await?;
    core.commit_change(tx, id).await?;
    info!(game = id, ply, "move taken back");
    Ok(text!("takeback-done", ply = ply, game = id))
}
