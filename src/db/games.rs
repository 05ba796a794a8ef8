//! Games and their moves. A game's position is never stored: it is rebuilt from the moves by
//! the rules ([`load_game`]), and a record that does not replay is reported as [`DbError::Corrupt`].

use super::{backend_of, Backend, Conn, DbRow, Executor};
use sqlx::{FromRow, Row};

use super::{decode_each, ChannelId, DbError, GuildId, MessageId, UserId};
use crate::games::{Game, GameKind, Options, Outcome};

/// Where a game stands.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GameStatus {
    Active,
    Finished,
    Aborted,
}

impl GameStatus {
    pub const fn as_str(self) -> &'static str {
        match self {
            GameStatus::Active => "active",
            GameStatus::Finished => "finished",
            GameStatus::Aborted => "aborted",
        }
    }

    fn parse(s: &str) -> Option<GameStatus> {
        Some(match s {
            "active" => GameStatus::Active,
            "finished" => GameStatus::Finished,
            "aborted" => GameStatus::Aborted,
            _ => return None,
        })
    }
}

/// How a game that is over ended, as `games.result` stores it: the rules' outcome in the
/// protocol's words (`red wins: score 34-25`), or `aborted by NAME`. Read back into this type
/// where the row is read, so a result that is neither does not decode.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum GameResult {
    /// Decided by the rules, a resignation or the clock.
    Decided(Outcome),
    /// Called off by a moderator (named): no result.
    Aborted { by: String },
}

impl GameResult {
    const ABORTED: &'static str = "aborted by ";

    /// The stored text (also what players read).
    pub fn describe(&self, kind: GameKind) -> String {
        match self {
            GameResult::Decided(o) => o.describe(kind),
            GameResult::Aborted { by } => format!("{}{by}", Self::ABORTED),
        }
    }

    /// A stored text read back (`None` when it is neither an outcome nor an abort).
    pub fn parse(kind: GameKind, text: &str) -> Option<GameResult> {
        match text.strip_prefix(Self::ABORTED) {
            Some(by) => Some(GameResult::Aborted { by: by.to_string() }),
            None => Outcome::parse(kind, text).map(GameResult::Decided),
        }
    }
}

/// A stored game (without its moves).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct GameRow {
    pub id: i64,
    pub guild_id: Option<GuildId>,
    pub channel_id: ChannelId,
    /// The variant (its kind is [`GameRow::kind`]).
    pub options: Options,
    /// The players by seat: seat 0 starts with the first colour.
    pub players: [UserId; 2],
    pub rated: bool,
    pub status: GameStatus,
    pub result: Option<GameResult>,
    pub winner_id: Option<UserId>,
    pub board_message_id: Option<MessageId>,
    /// The number of moves stored.
    pub version: i64,
    pub created_at: i64,
    pub updated_at: i64,
    pub finished_at: Option<i64>,
    /// The time each player has for a move.
    pub seconds_per_move: i64,
    /// When the player to move loses on time; `None` once the game is over.
    pub deadline_at: Option<i64>,
    /// Reminders already sent for the current turn.
    pub reminders_sent: i64,
    /// The player to move while the game is active.
    pub to_move: Option<UserId>,
    /// Why the game's last announcement could not be posted in its channel, if it could not.
    pub delivery_fault: Option<String>,
    /// The thread where the game is played, once opened (`None`: in its channel).
    pub thread_id: Option<ChannelId>,
}

impl GameRow {
    pub fn kind(&self) -> GameKind {
        self.options.kind()
    }

    /// Where the game is played: its thread, else its channel.
    pub fn place(&self) -> ChannelId {
        self.thread_id.unwrap_or(self.channel_id)
    }

    /// How the game ended in words (`red wins: score 34-25`, `aborted by …`); its status word
    /// while it has no result.
    pub fn result_text(&self) -> String {
        match &self.result {
            Some(r) => r.describe(self.kind()),
            None => self.status.as_str().to_string(),
        }
    }

    /// The other player of the game.
    pub fn opponent_of(&self, player: UserId) -> UserId {
        if self.players[0] == player {
            self.players[1]
        } else {
            self.players[0]
        }
    }
}

fn decode_error(column: &str, why: String) -> sqlx::Error {
    sqlx::Error::ColumnDecode {
        index: column.into(),
        source: why.into(),
    }
}

impl<'r> FromRow<'r, DbRow> for GameRow {
    fn from_row(row: &'r DbRow) -> Result<Self, sqlx::Error> {
        let status: String = row.try_get("status")?;
        let kind: String = row.try_get("kind")?;
        let line: String = row.try_get("options")?;
        let options = Options::parse_line(&line)
            .map_err(|e| decode_error("options", format!("`{line}`: {e}")))?;
        if kind.parse::<GameKind>().ok() != Some(options.kind()) {
            return Err(decode_error(
                "kind",
                format!("kind `{kind}` does not match the options `{line}`"),
            ));
        }
        let kind = options.kind();
        Ok(GameRow {
            id: row.try_get("id")?,
            guild_id: row.try_get("guild_id")?,
            channel_id: row.try_get("channel_id")?,
            options,
            players: [
                row.try_get("first_player_id")?,
                row.try_get("second_player_id")?,
            ],
            rated: super::get_flag(row, "rated")?,
            status: GameStatus::parse(&status)
                .ok_or_else(|| decode_error("status", format!("unknown game status `{status}`")))?,
            result: match row.try_get::<Option<String>, _>("result")? {
                None => None,
                Some(text) => Some(GameResult::parse(kind, &text).ok_or_else(|| {
                    decode_error("result", format!("`{text}` is not a game result"))
                })?),
            },
            winner_id: row.try_get("winner_id")?,
            board_message_id: row.try_get("board_message_id")?,
            version: row.try_get("version")?,
            created_at: row.try_get("created_at")?,
            updated_at: row.try_get("updated_at")?,
            finished_at: row.try_get("finished_at")?,
            seconds_per_move: row.try_get("seconds_per_move")?,
            deadline_at: row.try_get("deadline_at")?,
            reminders_sent: row.try_get("reminders_sent")?,
            to_move: row.try_get("to_move_id")?,
            delivery_fault: row.try_get("delivery_fault")?,
            thread_id: row.try_get("thread_id")?,
        })
    }
}

/// One stored move.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct StoredMove {
    pub ply: i64,
    pub notation: String,
    pub player_id: UserId,
    pub played_at: i64,
}

impl<'r> FromRow<'r, DbRow> for StoredMove {
    fn from_row(row: &'r DbRow) -> Result<Self, sqlx::Error> {
        Ok(StoredMove {
            ply: row.try_get("ply")?,
            notation: row.try_get("notation")?,
            player_id: row.try_get("player_id")?,
            played_at: row.try_get("played_at")?,
        })
    }
}

/// What is needed to start a game.
#[derive(Clone, Debug)]
pub struct NewGame<'a> {
    pub guild_id: Option<GuildId>,
    pub channel_id: ChannelId,
    pub options: &'a Options,
    pub players: [UserId; 2],
    pub rated: bool,
    pub now: i64,
    pub seconds_per_move: i64,
    /// When the first player loses on time (`None`: no clock, as against the bot).
    pub deadline_at: Option<i64>,
}

/// How a game ends, for [`record_move`] and [`finish_game`].
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Finish {
    /// The game's kind, which names the colours in the stored result.
    pub kind: GameKind,
    pub result: GameResult,
    pub winner_id: Option<UserId>,
}

impl Finish {
    /// The status the game takes.
    pub fn status(&self) -> GameStatus {
        match self.result {
            GameResult::Decided(_) => GameStatus::Finished,
            GameResult::Aborted { .. } => GameStatus::Aborted,
        }
    }

    /// The result as stored.
    pub fn text(&self) -> String {
        self.result.describe(self.kind)
    }
}

/// Stores a new active game (the first seat to move); returns its id.
pub async fn insert_game(ex: impl Executor<'_>, g: &NewGame<'_>) -> Result<i64, DbError> {
    let id = sqlx::query_scalar(
        "INSERT INTO games (guild_id, channel_id, kind, options, first_player_id,
                            second_player_id, rated, status, version, created_at, updated_at,
                            seconds_per_move, deadline_at, to_move_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'active', 0, $8, $8, $9, $10, $5) RETURNING id",
    )
    .bind(g.guild_id)
    .bind(g.channel_id)
    .bind(g.options.kind().name())
    .bind(g.options.to_string())
    .bind(g.players[0])
    .bind(g.players[1])
    .bind(i64::from(g.rated))
    .bind(g.now)
    .bind(g.seconds_per_move)
    .bind(g.deadline_at)
    .fetch_one(ex)
    .await?;
    Ok(id)
}

pub async fn fetch_game(ex: impl Executor<'_>, id: i64) -> Result<Option<GameRow>, DbError> {
    Ok(sqlx::query_as("SELECT * FROM games WHERE id = $1")
        .bind(id)
        .fetch_optional(ex)
        .await?)
}

pub async fn fetch_moves(ex: impl Executor<'_>, game: i64) -> Result<Vec<StoredMove>, DbError> {
    Ok(
        sqlx::query_as("SELECT * FROM moves WHERE game_id = $1 ORDER BY ply")
            .bind(game)
            .fetch_all(ex)
            .await?,
    )
}

/// Active games of `user` in `channel` (or in their thread `channel`), oldest first. Unreadable rows are reported and left out.
pub async fn active_games_in_channel(
    ex: impl Executor<'_>,
    channel: ChannelId,
    user: UserId,
) -> Result<Vec<GameRow>, DbError> {
    let rows = sqlx::query(
        "SELECT * FROM games WHERE status = 'active' AND (channel_id = $1 OR thread_id = $1)
           AND (first_player_id = $2 OR second_player_id = $2) ORDER BY id",
    )
    .bind(channel)
    .bind(user)
    .fetch_all(ex)
    .await?;
    Ok(decode_each("games", &rows))
}

/// Active games of `user` in a server (or, without one, anywhere), oldest first. Unreadable rows
/// are reported and left out.
pub async fn active_games_of(
    ex: impl Executor<'_>,
    guild: Option<GuildId>,
    user: UserId,
) -> Result<Vec<GameRow>, DbError> {
    let rows = sqlx::query(
        "SELECT * FROM games WHERE status = 'active'
           AND ($1 IS NULL OR guild_id = $1)
           AND (first_player_id = $2 OR second_player_id = $2) ORDER BY id",
    )
    .bind(guild)
    .bind(user)
    .fetch_all(ex)
    .await?;
    Ok(decode_each("games", &rows))
}

/// A move to store: ply `expected_version + 1` of `game`.
#[derive(Clone, Debug)]
pub struct MoveRecord<'a> {
    pub game: i64,
    /// The number of moves the mover saw: the write applies only while it still holds.
    pub expected_version: i64,
    pub notation: &'a str,
    pub player: UserId,
    pub now: i64,
    /// How the game ends with this move, if it does.
    pub finish: Option<&'a Finish>,
    /// When the next player loses on time (`None`: no clock).
    pub next_deadline: Option<i64>,
    /// The player to move after it (ignored when the move ends the game).
    pub next_to_move: UserId,
}

/// Stores a move, in one statement group that first claims the game: when another write got
/// there first (another move, a resignation), nothing is stored and the answer is
/// [`DbError::Conflict`]. Call it inside a transaction. The reminders of the new turn start again.
pub async fn record_move(conn: &mut Conn, m: &MoveRecord<'_>) -> Result<(), DbError> {
    let finish = m.finish;
    // The move first, with the mover's deadline as it stood (for a takeback): written only
    // while the game is still where the mover saw it.
    let stored = sqlx::query(
        "INSERT INTO moves (game_id, ply, notation, player_id, played_at, deadline_before)
         SELECT $1, $2 + 1, $3, $4, $5, deadline_at FROM games
          WHERE id = $1 AND version = $2 AND status = 'active'",
    )
    .bind(m.game)
    .bind(m.expected_version)
    .bind(m.notation)
    .bind(m.player)
    .bind(m.now)
    .execute(&mut *conn)
    .await
    .map_err(|e| match e {
        // PostgreSQL: a move stored meanwhile by another transaction, from the same snapshot.
        sqlx::Error::Database(ref d) if d.is_unique_violation() => DbError::Conflict(m.game),
        other => DbError::from(other),
    })?;
    if stored.rows_affected() != 1 {
        return Err(DbError::Conflict(m.game));
    }
    let claimed = sqlx::query(
        "UPDATE games SET version = version + 1, updated_at = $3,
                status = COALESCE($4, status), result = COALESCE($5, result),
                winner_id = COALESCE($6, winner_id),
                finished_at = CASE WHEN $4 IS NULL THEN finished_at ELSE $3 END,
                deadline_at = CASE WHEN $4 IS NULL THEN $7 ELSE NULL END,
                to_move_id = CASE WHEN $4 IS NULL THEN $8 ELSE NULL END,
                reminders_sent = 0
         WHERE id = $1 AND version = $2 AND status = 'active'",
    )
    .bind(m.game)
    .bind(m.expected_version)
    .bind(m.now)
    .bind(finish.map(|f| f.status().as_str()))
    .bind(finish.map(Finish::text))
    .bind(finish.and_then(|f| f.winner_id))
    .bind(m.next_deadline)
    .bind(m.next_to_move)
    .execute(&mut *conn)
    .await?;
    if claimed.rows_affected() != 1 {
        return Err(DbError::Conflict(m.game));
    }
    Ok(())
}

/// How many moves of game `id` were taken back so far. With the ply, it names one move for good:
/// the same ply played again after a takeback is another move.
pub async fn count_takebacks(ex: impl Executor<'_>, game: i64) -> Result<i64, DbError> {
    Ok(
        sqlx::query_scalar("SELECT COUNT(*) FROM takebacks WHERE game_id = $1")
            .bind(game)
            .fetch_one(ex)
            .await?,
    )
}

/// Takes back move `ply` of active game `game` (its last): the move goes to the game's
/// takebacks, its player is to move again with the time they had left when they made it
/// (counted from `now`; a full turn when that is not known). [`DbError::Conflict`] when the
/// game is no longer at `ply` moves.
pub async fn take_back_move(conn: &mut Conn, game: i64, ply: i64, now: i64) -> Result<(), DbError> {
    let kept = sqlx::query(
        "INSERT INTO takebacks (game_id, ply, notation, player_id, played_at, taken_back_at)
         SELECT m.game_id, m.ply, m.notation, m.player_id, m.played_at, $3
           FROM moves m JOIN games g ON g.id = m.game_id
          WHERE m.game_id = $1 AND m.ply = $2 AND g.version = $2 AND g.status = 'active'",
    )
    .bind(game)
    .bind(ply)
    .bind(now)
    .execute(&mut *conn)
    .await?;
    if kept.rows_affected() != 1 {
        return Err(DbError::Conflict(game));
    }
    sqlx::query(
        "UPDATE games SET version = version - 1, updated_at = $3, reminders_sent = 0,
                to_move_id = (SELECT player_id FROM moves WHERE game_id = $1 AND ply = $2),
                deadline_at = CASE WHEN deadline_at IS NULL THEN NULL ELSE $3 + COALESCE(
                    (SELECT deadline_before - played_at FROM moves WHERE game_id = $1 AND ply = $2),
                    seconds_per_move) END
         WHERE id = $1",
    )
    .bind(game)
    .bind(ply)
    .bind(now)
    .execute(&mut *conn)
    .await?;
    sqlx::query("DELETE FROM moves WHERE game_id = $1 AND ply = $2")
        .bind(game)
        .bind(ply)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// `user` starts following game `game` (`true`), or stops when they already did (`false`).
pub async fn toggle_follow(
    conn: &mut Conn,
    game: i64,
    user: UserId,
    now: i64,
) -> Result<bool, DbError> {
    let stopped = sqlx::query("DELETE FROM followers WHERE game_id = $1 AND user_id = $2")
        .bind(game)
        .bind(user)
        .execute(&mut *conn)
        .await?;
    if stopped.rows_affected() > 0 {
        return Ok(false);
    }
    // Two presses at the same moment both mean "follow": the second finds the row there.
    sqlx::query(
        "INSERT INTO followers (game_id, user_id, since) VALUES ($1, $2, $3)
         ON CONFLICT (game_id, user_id) DO NOTHING",
    )
    .bind(game)
    .bind(user)
    .bind(now)
    .execute(&mut *conn)
    .await?;
    Ok(true)
}

/// The members following game `game`, longest first.
pub async fn followers_of(ex: impl Executor<'_>, game: i64) -> Result<Vec<UserId>, DbError> {
    Ok(sqlx::query_scalar(
        "SELECT user_id FROM followers WHERE game_id = $1 ORDER BY since, user_id",
    )
    .bind(game)
    .fetch_all(ex)
    .await?)
}

/// Ends an active game without a move (resignation, abort) while it is still at `version`.
/// [`DbError::Conflict`] when it moved on or is no longer active.
pub async fn finish_game(
    ex: impl Executor<'_>,
    game: i64,
    version: i64,
    finish: &Finish,
    now: i64,
) -> Result<(), DbError> {
    let done = sqlx::query(
        "UPDATE games SET status = $2, result = $3, winner_id = $4, finished_at = $5, updated_at = $5,
                          deadline_at = NULL, to_move_id = NULL
         WHERE id = $1 AND status = 'active' AND version = $6",
    )
    .bind(game)
    .bind(finish.status().as_str())
    .bind(finish.text())
    .bind(finish.winner_id)
    .bind(now)
    .bind(version)
    .execute(ex)
    .await?;
    if done.rows_affected() != 1 {
        return Err(DbError::Conflict(game));
    }
    Ok(())
}

/// Ends an active game on time: only when it is still at `version` and its deadline has passed
/// at `now`, so a move that arrived first (or a second scan) leaves it alone. `false` when it
/// did not apply.
pub async fn time_out_game(
    ex: impl Executor<'_>,
    game: i64,
    version: i64,
    finish: &Finish,
    now: i64,
) -> Result<bool, DbError> {
    let done = sqlx::query(
        "UPDATE games SET status = $3, result = $4, winner_id = $5, finished_at = $6, updated_at = $6,
                          deadline_at = NULL, to_move_id = NULL
         WHERE id = $1 AND version = $2 AND status = 'active' AND deadline_at <= $6",
    )
    .bind(game)
    .bind(version)
    .bind(finish.status().as_str())
    .bind(finish.text())
    .bind(finish.winner_id)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Ids of active games whose deadline has passed at `now`, oldest deadline first. Only ids are
/// read, so one unreadable row cannot stop the scan.
pub async fn games_past_deadline(ex: impl Executor<'_>, now: i64) -> Result<Vec<i64>, DbError> {
    Ok(sqlx::query_scalar(
        "SELECT id FROM games WHERE status = 'active' AND CAST(deadline_at AS BIGINT) = deadline_at
           AND deadline_at <= $1
         ORDER BY deadline_at, id",
    )
    .bind(now)
    .fetch_all(ex)
    .await?)
}

/// Ids of active games with at most half their time per move left and fewer than two reminders
/// sent: the candidates for a reminder.
pub async fn games_needing_reminders(ex: impl Executor<'_>, now: i64) -> Result<Vec<i64>, DbError> {
    Ok(sqlx::query_scalar(
        "SELECT id FROM games WHERE status = 'active' AND reminders_sent < 2
           AND CAST(deadline_at AS BIGINT) = deadline_at AND CAST(seconds_per_move AS BIGINT) = seconds_per_move
           AND deadline_at > $1 AND deadline_at - $1 <= seconds_per_move / 2
         ORDER BY deadline_at, id",
    )
    .bind(now)
    .fetch_all(ex)
    .await?)
}

/// Marks that the reminders of the current turn went from those `row` counts to `to`: `false`
/// when the game moved on or another scan marked it first (then nothing is to be sent).
pub async fn claim_reminder(
    ex: impl Executor<'_>,
    row: &GameRow,
    to: i64,
) -> Result<bool, DbError> {
    let done = sqlx::query(
        "UPDATE games SET reminders_sent = $4
         WHERE id = $1 AND version = $2 AND reminders_sent = $3 AND status = 'active'",
    )
    .bind(row.id)
    .bind(row.version)
    .bind(row.reminders_sent)
    .bind(to)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Moves later by `seconds` the deadlines of the active games where `player` is to move and
/// whose deadline has not passed at `now` (a vacation); returns how many moved. A deadline that
/// has passed stays: that game is lost on time.
pub async fn pause_deadlines(
    ex: impl Executor<'_>,
    player: UserId,
    seconds: i64,
    now: i64,
) -> Result<u64, DbError> {
    let done = sqlx::query(
        "UPDATE games SET deadline_at = deadline_at + $2
         WHERE status = 'active' AND to_move_id = $1 AND CAST(deadline_at AS BIGINT) = deadline_at
           AND deadline_at > $3",
    )
    .bind(player)
    .bind(seconds)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(done.rows_affected())
}

/// Records the thread where a game is played (`None`: back to its channel).
pub async fn set_game_thread(
    ex: impl Executor<'_>,
    game: i64,
    thread: Option<ChannelId>,
) -> Result<(), DbError> {
    sqlx::query("UPDATE games SET thread_id = $2 WHERE id = $1")
        .bind(game)
        .bind(thread)
        .execute(ex)
        .await?;
    Ok(())
}

/// The game played in thread `channel`, if it is a game's thread.
pub async fn game_of_thread(
    ex: impl Executor<'_>,
    channel: ChannelId,
) -> Result<Option<i64>, DbError> {
    Ok(
        sqlx::query_scalar("SELECT id FROM games WHERE thread_id = $1")
            .bind(channel)
            .fetch_optional(ex)
            .await?,
    )
}

/// Records (or clears, with `None`) why a game's announcements cannot reach its channel.
pub async fn set_delivery_fault(
    ex: impl Executor<'_>,
    game: i64,
    fault: Option<&str>,
) -> Result<(), DbError> {
    sqlx::query("UPDATE games SET delivery_fault = $2 WHERE id = $1")
        .bind(game)
        .bind(fault)
        .execute(ex)
        .await?;
    Ok(())
}

/// Active games stored before the player to move was kept with them: their ids.
pub async fn games_without_turn(ex: impl Executor<'_>) -> Result<Vec<i64>, DbError> {
    Ok(sqlx::query_scalar(
        "SELECT id FROM games WHERE status = 'active' AND to_move_id IS NULL ORDER BY id",
    )
    .fetch_all(ex)
    .await?)
}

/// Stores the player to move of an active game at `version`.
pub async fn set_to_move(
    ex: impl Executor<'_>,
    game: i64,
    version: i64,
    player: UserId,
) -> Result<bool, DbError> {
    let done = sqlx::query(
        "UPDATE games SET to_move_id = $3 WHERE id = $1 AND version = $2 AND status = 'active'",
    )
    .bind(game)
    .bind(version)
    .bind(player)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Finished games of `user` in a server, the most recent first.
pub async fn recent_games_of(
    ex: impl Executor<'_>,
    guild: GuildId,
    user: UserId,
    limit: i64,
) -> Result<Vec<GameRow>, DbError> {
    let rows = sqlx::query(
        "SELECT * FROM games WHERE status = 'finished' AND guild_id = $1
           AND (first_player_id = $2 OR second_player_id = $2)
         ORDER BY finished_at DESC, id DESC LIMIT $3",
    )
    .bind(guild)
    .bind(user)
    .bind(limit)
    .fetch_all(ex)
    .await?;
    Ok(decode_each("games", &rows))
}

/// Remembers the message that shows the game's current board (posted where it belongs, so any
/// delivery fault is over).
pub async fn set_board_message(
    ex: impl Executor<'_>,
    game: i64,
    message_id: MessageId,
) -> Result<(), DbError> {
    sqlx::query("UPDATE games SET board_message_id = $2, delivery_fault = NULL WHERE id = $1")
        .bind(game)
        .bind(message_id)
        .execute(ex)
        .await?;
    Ok(())
}

/// The game record text of a stored game: the variant line then its moves.
pub fn record_text(row: &GameRow, moves: &[StoredMove]) -> String {
    let mut text = row.options.to_string();
    text.push('\n');
    for m in moves {
        text.push_str(&m.notation);
        text.push('\n');
    }
    text
}

/// Rebuilds a stored game by replaying its moves through the rules, checking that the plies are
/// numbered 1…n, that n is the stored version, and that the status agrees with the position.
pub fn replay(row: &GameRow, moves: &[StoredMove]) -> Result<Game, DbError> {
    let corrupt = |why: String| DbError::Corrupt { game: row.id, why };
    for (i, m) in moves.iter().enumerate() {
        if m.ply != i as i64 + 1 {
            return Err(corrupt(format!(
                "move {} is stored as ply {}",
                i + 1,
                m.ply
            )));
        }
    }
    if row.version != moves.len() as i64 {
        return Err(corrupt(format!(
            "version {} but {} moves stored",
            row.version,
            moves.len()
        )));
    }
    let game = Game::from_record(&record_text(row, moves))
        .map_err(|e| corrupt(format!("the record does not replay: {e}")))?;
    if row.status == GameStatus::Active && game.is_over() {
        return Err(corrupt(format!(
            "stored as active but the moves end it ({})",
            game.status()
        )));
    }
    Ok(game)
}

/// A stored game with its position rebuilt. `None` when there is no such game.
pub async fn load_game(conn: &mut Conn, id: i64) -> Result<Option<(GameRow, Game)>, DbError> {
    // One read transaction: the game row and its moves come from the same snapshot, even while
    // another connection stores or takes back a move. SQLite's read transaction keeps one
    // snapshot; PostgreSQL's default (read committed) takes one per statement, so it is asked
    // for repeatable read.
    let backend = backend_of(conn);
    let mut tx = sqlx::Connection::begin(&mut *conn).await?;
    if backend == Backend::Postgres {
        sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            .execute(&mut *tx)
            .await?;
    }
    let Some(row) = fetch_game(&mut *tx, id).await? else {
        return Ok(None);
    };
    let moves = fetch_moves(&mut *tx, id).await?;
    tx.commit().await?;
    let game = replay(&row, &moves)?;
    Ok(Some((row, game)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::testing::both_backends;
    use crate::db::upsert_player;
    use crate::db::Pool;
    use crate::games::{Colour, Reason};

    /// A move of game 1 (the only one in these tests) that does not end it.
    fn mv(
        expected_version: i64,
        notation: &str,
        player: UserId,
        now: i64,
        next_deadline: Option<i64>,
    ) -> MoveRecord<'_> {
        MoveRecord {
            game: 1,
            expected_version,
            notation,
            player,
            now,
            finish: None,
            next_deadline,
            next_to_move: UserId(1),
        }
    }

    async fn game_with_players(pool: &Pool) -> i64 {
        upsert_player(pool, UserId(1), "ann", 0).await.unwrap();
        upsert_player(pool, UserId(u64::MAX), "bob", 0)
            .await
            .unwrap();
        insert_game(
            pool,
            &NewGame {
                guild_id: Some(GuildId(5)),
                channel_id: ChannelId(6),
                options: &Options::parse_line("exxit tiles=39").unwrap(),
                players: [UserId(1), UserId(u64::MAX)],
                rated: false,
                now: 10,
                seconds_per_move: 100,
                deadline_at: Some(110),
            },
        )
        .await
        .unwrap()
    }

    both_backends! {
        async fn a_move_applies_once_for_one_version(pool) {
            let id = game_with_players(&pool).await;
            let mut tx = pool.begin().await.unwrap();
            record_move(&mut tx, &mv(0, "0,1", UserId(1), 11, Some(111)))
                .await
                .unwrap();
            tx.commit().await.unwrap();
            let mut tx = pool.begin().await.unwrap();
            let again = record_move(&mut tx, &mv(0, "1,1", UserId(1), 12, Some(112))).await;
            assert!(
                matches!(again, Err(DbError::Conflict(g)) if g == id),
                "{again:?}"
            );
            drop(tx);
            let row = fetch_game(&pool, id).await.unwrap().unwrap();
            assert_eq!(row.version, 1);
            let moves = fetch_moves(&pool, id).await.unwrap();
            assert_eq!(moves.len(), 1);
            assert_eq!(moves[0].notation, "0,1");
            assert_eq!(moves[0].player_id, UserId(1));
        }
    }

    both_backends! {
        async fn racing_moves_apply_once(pool) {
            let id = game_with_players(&pool).await;
            let attempt = |pool: Pool, text: &'static str| async move {
                let mut tx = pool.begin().await?;
                record_move(&mut tx, &mv(0, text, UserId(u64::MAX), 20, Some(120))).await?;
                tx.commit().await?;
                Ok::<(), DbError>(())
            };
            let (a, b) = tokio::join!(
                tokio::spawn(attempt(pool.clone(), "0,1")),
                tokio::spawn(attempt(pool.clone(), "1,0"))
            );
            let results = [a.unwrap(), b.unwrap()];
            assert_eq!(
                results.iter().filter(|r| r.is_ok()).count(),
                1,
                "{results:?}"
            );
            assert!(results
                .iter()
                .any(|r| matches!(r, Err(DbError::Conflict(_)))));
            assert_eq!(fetch_moves(&pool, id).await.unwrap().len(), 1);
        }
    }

    both_backends! {
        async fn finishing_is_refused_once_the_game_is_over(pool) {
            let id = game_with_players(&pool).await;
            let finish = Finish {
                kind: GameKind::Exxit,
                result: GameResult::Decided(Outcome::win(Colour::Second, Reason::Resignation)),
                winner_id: Some(UserId(u64::MAX)),
            };
            finish_game(&pool, id, 0, &finish, 30).await.unwrap();
            assert!(matches!(
                finish_game(&pool, id, 0, &finish, 31).await,
                Err(DbError::Conflict(_))
            ));
            let mut tx = pool.begin().await.unwrap();
            assert!(matches!(
                record_move(&mut tx, &mv(0, "0,1", UserId(1), 32, Some(132))).await,
                Err(DbError::Conflict(_))
            ));
            drop(tx);
            let row = fetch_game(&pool, id).await.unwrap().unwrap();
            assert_eq!(row.status, GameStatus::Finished);
            assert_eq!(row.winner_id, Some(UserId(u64::MAX)));
            assert_eq!(row.finished_at, Some(30));
            assert_eq!(row.result, Some(finish.result.clone()));
            assert_eq!(row.result_text(), "red wins: resignation");
            assert!(active_games_of(&pool, Some(GuildId(5)), UserId(1))
                .await
                .unwrap()
                .is_empty());
            // A result that is no result (edited by hand) makes the row unreadable, not a game with
            // a made-up ending.
            for garbled in ["red wins", "white wins: connection", "aborted", "score 3-4"] {
                sqlx::query("UPDATE games SET result = $2 WHERE id = $1")
                    .bind(id)
                    .bind(garbled)
                    .execute(&pool)
                    .await
                    .unwrap();
                let e = fetch_game(&pool, id).await.unwrap_err().to_string();
                assert!(e.contains("is not a game result"), "{garbled}: {e}");
            }
        }
    }

    #[test]
    fn results_read_back_as_written() {
        for kind in [GameKind::Inphexion, GameKind::Exxit] {
            for r in [
                GameResult::Aborted {
                    by: "Mod: 🦀".into(),
                },
                GameResult::Decided(Outcome::by_score(Reason::Passes, [3, 9])),
                GameResult::Decided(Outcome::win(Colour::First, Reason::Timeout)),
            ] {
                assert_eq!(GameResult::parse(kind, &r.describe(kind)), Some(r));
            }
        }
    }

    both_backends! {
        async fn active_games_are_found_by_channel_and_server(pool) {
            let id = game_with_players(&pool).await;
            let ids = |v: Vec<GameRow>| v.into_iter().map(|g| g.id).collect::<Vec<_>>();
            assert_eq!(
                ids(
                    active_games_in_channel(&pool, ChannelId(6), UserId(u64::MAX))
                        .await
                        .unwrap()
                ),
                [id]
            );
            assert!(active_games_in_channel(&pool, ChannelId(7), UserId(1))
                .await
                .unwrap()
                .is_empty());
            assert_eq!(
                ids(active_games_of(&pool, Some(GuildId(5)), UserId(1))
                    .await
                    .unwrap()),
                [id]
            );
            assert_eq!(
                ids(active_games_of(&pool, None, UserId(1)).await.unwrap()),
                [id]
            );
            assert!(active_games_of(&pool, Some(GuildId(4)), UserId(1))
                .await
                .unwrap()
                .is_empty());
            set_board_message(&pool, id, MessageId(u64::MAX - 1))
                .await
                .unwrap();
            let row = fetch_game(&pool, id).await.unwrap().unwrap();
            assert_eq!(row.board_message_id, Some(MessageId(u64::MAX - 1)));
            assert_eq!(row.players, [UserId(1), UserId(u64::MAX)]);
        }
    }

    both_backends! {
        async fn a_game_loads_whole_while_moves_are_stored_and_taken_back(pool) {
            // The row and the moves are read from one snapshot: a move stored or taken back
            // between the two reads never makes a sound game look damaged.
            let id = game_with_players(&pool).await;
            let first = Game::new(Options::parse_line("exxit tiles=39").unwrap()).legal_notations()[0].clone();
            let writer = {
                let pool = pool.clone();
                tokio::spawn(async move {
                    for round in 0..150 {
                        let mut tx = pool.begin().await.unwrap();
                        record_move(&mut tx, &mv(0, &first, UserId(1), 11 + round, Some(111)))
                            .await
                            .unwrap();
                        tx.commit().await.unwrap();
                        let mut tx = pool.begin().await.unwrap();
                        take_back_move(&mut tx, id, 1, 12 + round).await.unwrap();
                        tx.commit().await.unwrap();
                    }
                })
            };
            let mut conn = pool.acquire().await.unwrap();
            let mut loads = 0;
            while !writer.is_finished() {
                let (row, game) = load_game(&mut conn, id).await.unwrap().unwrap();
                assert_eq!(game.ply() as i64, row.version);
                loads += 1;
            }
            writer.await.unwrap();
            assert!(loads > 0);
        }
    }

    both_backends! {
        async fn a_damaged_record_is_reported(pool) {
            let id = game_with_players(&pool).await;
            // A version that disagrees with the moves stored is found before any replay.
            sqlx::query("UPDATE games SET version = 3 WHERE id = $1")
                .bind(id)
                .execute(&pool)
                .await
                .unwrap();
            let mut conn = pool.acquire().await.unwrap();
            let err = load_game(&mut conn, id).await.unwrap_err();
            assert!(
                matches!(err, DbError::Corrupt { game, .. } if game == id),
                "{err}"
            );
            assert!(load_game(&mut conn, id + 100).await.unwrap().is_none());
        }
    }
}
