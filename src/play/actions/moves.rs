//! Playing a move: a member's (typed, or built by the picker or a page) or the bot's.

use tracing::info;

use super::game::{enqueue_board, finish_after_move, load, row_after, Core};
use crate::db::{self, DbError, GameRow, MoveRecord, UserId};
use crate::games::{Game, Move};
use crate::i18n::Text;
use crate::play::access::{check_in_time, check_may_move, player_to_move};
use crate::play::schedule::{deadline_after, seat_of, start_turn, time_left_in_turn, ClockPlace};
use crate::play::{Error, Refusal};

/// A move played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    pub game: i64,
    /// The ply it made (1 for the first move).
    pub ply: i64,
    pub notation: String,
    /// The game ended with it.
    pub over: bool,
    /// The game is played against the bot (which answers next).
    pub against_bot: bool,
    /// Another game waiting for the same player's move (the one with the earliest deadline), for
    /// a Next game button.
    pub next_game: Option<i64>,
    /// The notices of the conditional moves played at once after it ([`crate::play::plans`]),
    /// in order: the opponent's planned reply, then any reply planned to that one.
    pub replies: Vec<Text>,
}

impl Played {
    /// The answer to the player who made it, whichever way they chose it: the move in words
    /// (`words`), its notation, and where its board follows (`place`: the game's thread, or its
    /// channel).
    pub fn answer(&self, words: String, place: crate::db::ChannelId) -> crate::i18n::Text {
        crate::text!(
            "you-played",
            words = words,
            mv = self.notation.clone(),
            game = self.game,
            n = self.ply,
            place = place.to_string()
        )
    }
}

/// A move as a front end has it: typed text, read against the position, or a move already
/// built (by the picker, a page or the bot's search), which is not parsed again.
#[derive(Clone, Copy, Debug)]
pub enum Chosen<'a> {
    Typed(&'a str),
    Move(Move),
}

impl<'a> From<&'a str> for Chosen<'a> {
    fn from(text: &'a str) -> Chosen<'a> {
        Chosen::Typed(text)
    }
}

impl<'a> From<&'a String> for Chosen<'a> {
    fn from(text: &'a String) -> Chosen<'a> {
        Chosen::Typed(text)
    }
}

impl From<Move> for Chosen<'_> {
    fn from(mv: Move) -> Self {
        Chosen::Move(mv)
    }
}

/// Plays `chosen` for `player` in game `id`. `seen` is the number of moves the player saw (the
/// bot's search position); a move on a position that changed since is refused.
pub async fn play_move<'a>(
    core: &Core,
    id: i64,
    player: UserId,
    chosen: impl Into<Chosen<'a>>,
    seen: Option<i64>,
) -> Result<Played, Error> {
    let loaded = load(&core.pool, id).await?;
    if seen.is_some_and(|s| s != loaded.1.ply() as i64) {
        return Err(DbError::Conflict(id).into());
    }
    play_move_on(core, loaded, player, chosen.into()).await
}

/// Plays `chosen` for `player` on a game the caller has just loaded (and shown, or checked):
/// the move is stored only if the game is still at that position (its version).
pub async fn play_move_on(
    core: &Core,
    loaded: (GameRow, Game),
    player: UserId,
    chosen: Chosen<'_>,
) -> Result<Played, Error> {
    play_move_as(core, loaded, player, chosen, None).await
}

/// Plays `notation` for `player` in game `id` as the conditional move they entered ahead
/// ([`crate::play::plans`]): the same action as any move, its board announced with `intro`.
pub async fn play_planned(
    core: &Core,
    id: i64,
    player: UserId,
    notation: &str,
    intro: Text,
) -> Result<Played, Error> {
    let loaded = load(&core.pool, id).await?;
    play_move_as(core, loaded, player, Chosen::Typed(notation), Some(intro)).await
}

/// [`play_move_on`], the board announced with `intro` when there is one. After a move that does
/// not end the game, the next player's conditional reply follows ([`crate::play::plans`]).
async fn play_move_as(
    core: &Core,
    (row, mut game): (GameRow, Game),
    player: UserId,
    chosen: Chosen<'_>,
    intro: Option<Text>,
) -> Result<Played, Error> {
    let id = row.id;
    check_may_move(&row, &game, player)?;
    let now = core.clock.now();
    check_in_time(&row, now)?;
    let expected = game.ply() as i64;
    let mv = match chosen {
        Chosen::Typed(text) => game.play_text(text).map_err(|e| e.to_string()),
        Chosen::Move(mv) => game.play(mv).map(|()| mv).map_err(|e| e.to_string()),
    }
    .map_err(|error| {
        let input = match chosen {
            Chosen::Typed(text) => crate::i18n::excerpt(text),
            Chosen::Move(mv) => mv.to_string(),
        };
        Refusal::new(crate::text!(
            "move-cannot-be-played",
            input = input,
            game = id,
            error = crate::i18n::excerpt_to(&error, 4 * crate::i18n::EXCERPT_CHARS)
        ))
    })?;
    let notation = mv.to_string();
    let finish = finish_after_move(&row, &game);
    let next = player_to_move(&row, &game);
    let against_bot = db::fetch_bot_level(&core.pool, id).await?.is_some();
    // Games against the bot, and local games, have no clock.
    let (deadline, clock, left_before) = match row.clock {
        _ if against_bot || crate::play::local::is_local(&row) => (None, None, None),
        None => {
            let away = db::vacation_until(&core.pool, next, now).await?;
            (
                Some(deadline_after(now, row.seconds_per_move, away)),
                None,
                None,
            )
        }
        Some(mut clock) => {
            // The mover keeps what they had left (with the increment, up to the cap); the next
            // player's turn starts with their own bank.
            let mut conn = core.pool.acquire().await?;
            let left = time_left_in_turn(&mut conn, &row, &clock, player, now).await?;
            let seat = seat_of(row.players, player);
            clock.banks[seat] = clock.control.bank_after_move(left);
            let place = ClockPlace::of(&row);
            let next_seat = seat_of(row.players, next);
            let deadline = start_turn(&mut conn, place, &mut clock, next_seat, next, now).await?;
            (Some(deadline), Some(clock), Some(left))
        }
    };
    let mut after = row_after(&row, &game, finish.as_ref(), deadline);
    if finish.is_none() {
        after.clock = clock.or(after.clock);
    }
    let mut tx = core.pool.begin().await?;
    db::record_move(
        &mut tx,
        &MoveRecord {
            game: id,
            expected_version: expected,
            notation: &notation,
            player,
            now,
            finish: finish.as_ref(),
            next_deadline: deadline,
            next_to_move: next,
            clock,
            left_before,
        },
    )
    .await?;
    if let Some(f) = &finish {
        db::apply_result(&mut tx, id).await?;
        db::record_tournament_game(&mut tx, id, row.players, f).await?;
    }
    enqueue_board(&mut tx, &after, &game, intro, Some((player, &notation))).await?;
    core.commit_change(tx, id).await?;
    crate::metrics::METRICS.move_played();
    info!(game = id, ply = expected + 1, mv = %notation, "move played");
    if finish.is_some() {
        super::after_game(core, id).await;
    }
    let mut replies = Vec::new();
    if finish.is_none() && !against_bot && !crate::play::local::is_local(&row) {
        // A failed conditional reply leaves the move played: the next player moves as usual.
        match crate::play::plans::after_move(core, id, next, expected, &notation).await {
            Ok(Some((notice, reply))) => {
                replies.push(notice);
                replies.extend(reply.replies);
            }
            Ok(None) => {}
            Err(e) => {
                // Its player was not told to move on the board before it: the board again tells them.
                tracing::warn!(game = id, "conditional move not played: {e}");
                let (row, game) = load(&core.pool, id).await?;
                let mut tx = core.pool.begin().await?;
                enqueue_board(&mut tx, &row, &game, None, None).await?;
                core.commit_change(tx, id).await?;
            }
        }
    }
    let next_game = db::next_game_waiting_for(&core.pool, player, id).await?;
    Ok(Played {
        game: id,
        ply: expected + 1,
        notation,
        over: finish.is_some(),
        against_bot,
        next_game,
        replies,
    })
}
