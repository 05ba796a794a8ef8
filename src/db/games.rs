//! Stored games: their rows and moves as read back, a new game, and a game loaded whole. A game's
//! position is never stored: it is rebuilt from the moves by the rules ([`load_game`]), and a
//! record that does not replay is reported as [`DbError::Corrupt`]. Moves are stored in `moves`,
//! deadlines kept in `deadlines`, games listed in `listings`, and where a game is shown in
//! `places`.

use super::{backend_of, Backend, Conn, DbRow, Executor};
use sqlx::{FromRow, Row};

use super::{ChannelId, DbError, GuildId, MessageId, UserId};
use crate::games::{Game, GameKind, Options, Outcome};
use crate::time_control::TimeControl;

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
    /// One more at every committed change of the game ([`crate::db::notify_game_changed`]).
    pub revision: i64,
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
    /// The game's clock (`None`: the fixed `seconds_per_move` of games stored before time
    /// controls, and games without a clock).
    pub clock: Option<GameClock>,
}

/// A game's clock when it has a time control.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct GameClock {
    pub control: TimeControl,
    /// The clock stops from Saturday 00:00 to Monday 00:00 in the time zone of the player to move.
    pub weekends_off: bool,
    /// Each seat's bank: the seat to move's is what its current turn started with, the other's
    /// what its next turn starts with.
    pub banks: [i64; 2],
    /// When the current turn's clock started.
    pub turn_started_at: i64,
    /// When the next reminder of the current turn is due (`None`: none is left).
    pub remind_at: Option<i64>,
}

impl GameClock {
    /// Reads the clock columns of a game row: `None` when it has no time control; an error
    /// naming the column when a value cannot be a clock.
    fn from_row(row: &DbRow) -> Result<Option<GameClock>, sqlx::Error> {
        let Some(stored) = row.try_get::<Option<String>, _>("time_control")? else {
            return Ok(None);
        };
        let control = TimeControl::decode(&stored)
            .map_err(|e| decode_error("time_control", format!("`{stored}`: {e}")))?;
        let bank = |column: &str| -> Result<i64, sqlx::Error> {
            match row.try_get::<Option<i64>, _>(column)? {
                Some(b) if b >= 0 => Ok(b),
                Some(b) => Err(decode_error(column, format!("a negative bank ({b} s)"))),
                None => Err(decode_error(
                    column,
                    "a game with a time control without a bank".into(),
                )),
            }
        };
        Ok(Some(GameClock {
            control,
            weekends_off: super::get_flag(row, "weekends_off")?,
            banks: [bank("first_bank")?, bank("second_bank")?],
            turn_started_at: row
                .try_get::<Option<i64>, _>("turn_started_at")?
                .ok_or_else(|| {
                    decode_error(
                        "turn_started_at",
                        "a game with a time control without its turn's start".into(),
                    )
                })?,
            remind_at: row.try_get("remind_at")?,
        }))
    }
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
            revision: row.try_get("revision")?,
            created_at: row.try_get("created_at")?,
            updated_at: row.try_get("updated_at")?,
            finished_at: row.try_get("finished_at")?,
            seconds_per_move: row.try_get("seconds_per_move")?,
            deadline_at: row.try_get("deadline_at")?,
            reminders_sent: row.try_get("reminders_sent")?,
            to_move: row.try_get("to_move_id")?,
            delivery_fault: row.try_get("delivery_fault")?,
            thread_id: row.try_get("thread_id")?,
            clock: GameClock::from_row(row)?,
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
    /// The clock, with its first turn starting at `now` (`None`: the fixed `seconds_per_move`).
    pub clock: Option<GameClock>,
}

/// Stores a new active game (the first seat to move); returns its id.
pub async fn insert_game(ex: impl Executor<'_>, g: &NewGame<'_>) -> Result<i64, DbError> {
    let id = sqlx::query_scalar(
        "INSERT INTO games (guild_id, channel_id, kind, options, first_player_id,
                            second_player_id, rated, status, version, created_at, updated_at,
                            seconds_per_move, deadline_at, to_move_id, time_control,
                            weekends_off, first_bank, second_bank, turn_started_at, remind_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'active', 0, $8, $8, $9, $10, $5, $11, $12, $13, $14,
                 $15, $16) RETURNING id",
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
    .bind(g.clock.map(|c| c.control.encode()))
    .bind(i64::from(g.clock.is_some_and(|c| c.weekends_off)))
    .bind(g.clock.map(|c| c.banks[0]))
    .bind(g.clock.map(|c| c.banks[1]))
    .bind(g.clock.map(|c| c.turn_started_at))
    .bind(g.clock.and_then(|c| c.remind_at))
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

/// How many games are in play (not finished or aborted), for monitoring: an indexed count.
pub async fn count_games_in_play(ex: impl Executor<'_>) -> Result<i64, DbError> {
    Ok(
        sqlx::query_scalar("SELECT COUNT(*) FROM games WHERE status = 'active'")
            .fetch_one(ex)
            .await?,
    )
}

/// The numbers of the finished games, oldest first (`hexcord puzzles --database`).
pub async fn finished_game_ids(ex: impl Executor<'_>) -> Result<Vec<i64>, DbError> {
    Ok(
        sqlx::query_scalar("SELECT id FROM games WHERE status = 'finished' ORDER BY id")
            .fetch_all(ex)
            .await?,
    )
}

pub async fn fetch_moves(ex: impl Executor<'_>, game: i64) -> Result<Vec<StoredMove>, DbError> {
    Ok(
        sqlx::query_as("SELECT * FROM moves WHERE game_id = $1 ORDER BY ply")
            .bind(game)
            .fetch_all(ex)
            .await?,
    )
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
    let mut game = Game::from_record(&record_text(row, moves))
        .map_err(|e| corrupt(format!("the record does not replay: {e}")))?;
    if row.status == GameStatus::Active && game.is_over() {
        return Err(corrupt(format!(
            "stored as active but the moves end it ({})",
            game.status()
        )));
    }
    // An ending the moves do not show (a resignation, a loss on time, a call-off) is the
    // game's too: its final position shows the result, not a player to move.
    let off_board = match (row.status, &row.result) {
        (GameStatus::Active, _) => None,
        (GameStatus::Aborted, _) => Some(Outcome::called_off()),
        (GameStatus::Finished, Some(GameResult::Decided(o))) => Some(*o),
        (GameStatus::Finished, _) => None,
    };
    if let Some(o) = off_board.filter(|_| !game.is_over()) {
        game.conclude(o)
            .map_err(|e| corrupt(format!("the stored result does not apply: {e}")))?;
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

/// A test game: EXXIT (39 tiles) between ann (1, to move) and bob (`u64::MAX`), in server 5,
/// channel 6, unrated, 100 s per move; the game of the tests of games, moves and listings.
#[cfg(test)]
pub(super) async fn game_with_players(pool: &super::Pool) -> i64 {
    super::upsert_player(pool, UserId(1), "ann", 0)
        .await
        .unwrap();
    super::upsert_player(pool, UserId(u64::MAX), "bob", 0)
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
            clock: None,
        },
    )
    .await
    .unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::testing::both_backends;
    use crate::games::{Colour, Reason};

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
        async fn clocks_read_back_and_damaged_ones_are_named(pool) {
            let old = game_with_players(&pool).await;
            // A game stored without a time control keeps its fixed time per move.
            assert_eq!(fetch_game(&pool, old).await.unwrap().unwrap().clock, None);
            let clock = GameClock {
                control: TimeControl::fischer(3 * 86_400, 86_400, 7 * 86_400).unwrap(),
                weekends_off: true,
                banks: [3 * 86_400, 86_400],
                turn_started_at: 10,
                remind_at: Some(500),
            };
            let id = insert_game(
                &pool,
                &NewGame {
                    guild_id: Some(GuildId(5)),
                    channel_id: ChannelId(6),
                    options: &Options::parse_line("inphexion size=5").unwrap(),
                    players: [UserId(1), UserId(u64::MAX)],
                    rated: false,
                    now: 10,
                    seconds_per_move: 86_400,
                    deadline_at: Some(1_000),
                    clock: Some(clock),
                },
            )
            .await
            .unwrap();
            assert_eq!(fetch_game(&pool, id).await.unwrap().unwrap().clock, Some(clock));
            for (set, column) in [
                ("time_control = 'fischer:1:2'", "time_control"),
                ("time_control = 'fischer:5:1:2'", "time_control"),
                ("first_bank = NULL", "first_bank"),
                ("second_bank = -4", "second_bank"),
                ("turn_started_at = NULL", "turn_started_at"),
            ] {
                let restore = "UPDATE games SET time_control = 'fischer:259200:86400:604800',
                                 first_bank = 259200, second_bank = 86400, turn_started_at = 10
                               WHERE id = $1";
                sqlx::query(restore).bind(id).execute(&pool).await.unwrap();
                let damage = format!("UPDATE games SET {set} WHERE id = $1");
                sqlx::query(sqlx::AssertSqlSafe(damage))
                    .bind(id)
                    .execute(&pool)
                    .await
                    .unwrap();
                let err = fetch_game(&pool, id).await.unwrap_err().to_string();
                assert!(err.contains(column), "{set}: {err}");
            }
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
