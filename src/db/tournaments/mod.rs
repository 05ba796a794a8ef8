//! Tournaments: the events of a server, their players, and the pairings of their rounds.
//!
//! - A **tournament** row holds the event's settings (game and options, format, rounds, time per
//!   move, rating, player limit, end of sign-up), where it stands (`signup`, `running`,
//!   `finished`, `cancelled`; the rounds paired so far) and a `version` raised by every change,
//!   so that each change is written only while the event is where its writer saw it.
//! - A **player** has a seed (the starting rank, in order of joining), the rounds paired when they
//!   joined (a late join) and when they withdrew, and their tournament losses on time.
//! - A **pairing** is one game or one bye of a round. A game's pairing names it (`game_id`): that
//!   is the tag of a game with its tournament and round, read where a game ends
//!   ([`record_tournament_game`]).
//! - **Advancing a round** is claimed ([`claim_advance`], a lease in Unix milliseconds, as the bot
//!   turns are) so that one process computes it, and stored in one transaction that checks the
//!   event's version ([`record_round_paired`]): two processes never pair a round twice, and a
//!   process killed while pairing leaves nothing stored, its claim running out.

use sqlx::{FromRow, Row};

use super::{ChannelId, Conn, DbError, DbRow, Executor, GuildId, MessageId, UserId};
use crate::db::{Finish, GameResult};
use crate::games::{Colour, Options};
use crate::time_control::TimeControl;

/// How an event is paired: stored by its id, its behaviour in [`crate::pairings::format`].
pub use crate::pairings::format::TournamentFormat;

/// Where an event stands.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TournamentStatus {
    /// Taking sign-ups.
    Signup,
    Running,
    /// Over: its final standings were announced.
    Finished,
    /// Called off (too few players at the start).
    Cancelled,
}

impl TournamentStatus {
    pub const fn as_str(self) -> &'static str {
        match self {
            TournamentStatus::Signup => "signup",
            TournamentStatus::Running => "running",
            TournamentStatus::Finished => "finished",
            TournamentStatus::Cancelled => "cancelled",
        }
    }

    fn parse(s: &str) -> Option<TournamentStatus> {
        Some(match s {
            "signup" => TournamentStatus::Signup,
            "running" => TournamentStatus::Running,
            "finished" => TournamentStatus::Finished,
            "cancelled" => TournamentStatus::Cancelled,
            _ => return None,
        })
    }
}

fn decode_error(column: &str, why: String) -> sqlx::Error {
    sqlx::Error::ColumnDecode {
        index: column.into(),
        source: why.into(),
    }
}

/// A stored tournament.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TournamentRow {
    pub id: i64,
    pub guild_id: GuildId,
    pub channel_id: ChannelId,
    pub creator_id: UserId,
    pub name: String,
    /// The variant of its games.
    pub options: Options,
    pub format: TournamentFormat,
    /// Swiss: the rounds chosen; round robin: its table's, once started.
    pub rounds: Option<i64>,
    pub seconds_per_move: i64,
    pub rated: bool,
    pub max_players: Option<i64>,
    /// The end of sign-up, when the event starts by itself.
    pub starts_at: Option<i64>,
    pub status: TournamentStatus,
    pub rounds_paired: i64,
    pub winner_id: Option<UserId>,
    pub message_id: Option<MessageId>,
    pub thread_id: Option<ChannelId>,
    pub version: i64,
    pub created_at: i64,
    pub updated_at: i64,
    pub finished_at: Option<i64>,
    /// The time control of its games (`None`: the fixed `seconds_per_move`).
    pub time_control: Option<TimeControl>,
    /// Its games take weekends off.
    pub weekends_off: bool,
    /// An organiser paused its next round: nothing is paired, and it does not end, until resumed.
    pub paused: bool,
}

impl TournamentRow {
    /// Where its announcements go: its thread, else its channel.
    pub fn place(&self) -> ChannelId {
        self.thread_id.unwrap_or(self.channel_id)
    }
}

impl<'r> FromRow<'r, DbRow> for TournamentRow {
    fn from_row(row: &'r DbRow) -> Result<Self, sqlx::Error> {
        let line: String = row.try_get("options")?;
        let options = Options::parse_line(&line)
            .map_err(|e| decode_error("options", format!("`{line}`: {e}")))?;
        let kind: String = row.try_get("kind")?;
        if kind.parse::<crate::games::GameKind>().ok() != Some(options.kind()) {
            return Err(decode_error(
                "kind",
                format!("kind `{kind}` does not match the options `{line}`"),
            ));
        }
        let format: String = row.try_get("format")?;
        let status: String = row.try_get("status")?;
        Ok(TournamentRow {
            id: row.try_get("id")?,
            guild_id: row.try_get("guild_id")?,
            channel_id: row.try_get("channel_id")?,
            creator_id: row.try_get("creator_id")?,
            name: row.try_get("name")?,
            options,
            format: TournamentFormat::parse(&format)
                .ok_or_else(|| decode_error("format", format!("unknown format `{format}`")))?,
            rounds: row.try_get("rounds")?,
            seconds_per_move: row.try_get("seconds_per_move")?,
            rated: super::get_flag(row, "rated")?,
            max_players: row.try_get("max_players")?,
            starts_at: row.try_get("starts_at")?,
            status: TournamentStatus::parse(&status)
                .ok_or_else(|| decode_error("status", format!("unknown status `{status}`")))?,
            rounds_paired: row.try_get("rounds_paired")?,
            winner_id: row.try_get("winner_id")?,
            message_id: row.try_get("message_id")?,
            thread_id: row.try_get("thread_id")?,
            version: row.try_get("version")?,
            created_at: row.try_get("created_at")?,
            updated_at: row.try_get("updated_at")?,
            finished_at: row.try_get("finished_at")?,
            time_control: match row.try_get::<Option<String>, _>("time_control")? {
                None => None,
                Some(stored) => Some(
                    TimeControl::decode(&stored)
                        .map_err(|e| decode_error("time_control", format!("`{stored}`: {e}")))?,
                ),
            },
            weekends_off: super::get_flag(row, "weekends_off")?,
            paused: super::get_flag(row, "paused")?,
        })
    }
}

/// What a new tournament needs.
#[derive(Clone, Debug)]
pub struct NewTournament<'a> {
    pub guild_id: GuildId,
    pub channel_id: ChannelId,
    pub creator_id: UserId,
    pub name: &'a str,
    pub options: &'a Options,
    pub format: TournamentFormat,
    pub rounds: Option<i64>,
    pub seconds_per_move: i64,
    pub rated: bool,
    pub max_players: Option<i64>,
    pub starts_at: Option<i64>,
    pub now: i64,
    /// `None`: `seconds_per_move` for every move.
    pub time_control: Option<TimeControl>,
    pub weekends_off: bool,
}

/// Stores a new tournament taking sign-ups; returns its id.
pub async fn insert_tournament(
    ex: impl Executor<'_>,
    t: &NewTournament<'_>,
) -> Result<i64, DbError> {
    Ok(sqlx::query_scalar(
        "INSERT INTO tournaments (guild_id, channel_id, creator_id, name, kind, options, format,
                                  rounds, seconds_per_move, rated, max_players, starts_at,
                                  status, created_at, updated_at, time_control, weekends_off)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 'signup', $13, $13, $14, $15)
         RETURNING id",
    )
    .bind(t.guild_id)
    .bind(t.channel_id)
    .bind(t.creator_id)
    .bind(t.name)
    .bind(t.options.kind().name())
    .bind(t.options.to_string())
    .bind(t.format.as_str())
    .bind(t.rounds)
    .bind(t.seconds_per_move)
    .bind(i64::from(t.rated))
    .bind(t.max_players)
    .bind(t.starts_at)
    .bind(t.now)
    .bind(t.time_control.map(|c| c.encode()))
    .bind(i64::from(t.weekends_off))
    .fetch_one(ex)
    .await?)
}

pub async fn fetch_tournament(
    ex: impl Executor<'_>,
    id: i64,
) -> Result<Option<TournamentRow>, DbError> {
    Ok(sqlx::query_as("SELECT * FROM tournaments WHERE id = $1")
        .bind(id)
        .fetch_optional(ex)
        .await?)
}

/// Takes tournament `id`'s row for the rest of the transaction (PostgreSQL does not serialise
/// writers as SQLite does), so that joins and withdrawals arriving together are decided one
/// after the other; then reads it.
pub async fn take_tournament(conn: &mut Conn, id: i64) -> Result<Option<TournamentRow>, DbError> {
    sqlx::query("UPDATE tournaments SET version = version WHERE id = $1")
        .bind(id)
        .execute(&mut *conn)
        .await?;
    fetch_tournament(&mut *conn, id).await
}

/// The tournaments of a server in these statuses, newest first.
pub async fn tournaments_of(
    ex: impl Executor<'_>,
    guild: GuildId,
    statuses: &[TournamentStatus],
) -> Result<Vec<TournamentRow>, DbError> {
    let rows = sqlx::query("SELECT * FROM tournaments WHERE guild_id = $1 ORDER BY id DESC")
        .bind(guild)
        .fetch_all(ex)
        .await?;
    Ok(super::decode_each::<TournamentRow>("tournaments", &rows)
        .into_iter()
        .filter(|t| statuses.contains(&t.status))
        .collect())
}

/// Records the message announcing tournament `id` (with its Join and Leave buttons).
pub async fn set_tournament_message(
    ex: impl Executor<'_>,
    id: i64,
    message: MessageId,
) -> Result<(), DbError> {
    sqlx::query("UPDATE tournaments SET message_id = $2 WHERE id = $1")
        .bind(id)
        .bind(message)
        .execute(ex)
        .await?;
    Ok(())
}

/// Records the thread of tournament `id`'s announcements (`None`: back to its channel).
pub async fn set_tournament_thread(
    ex: impl Executor<'_>,
    id: i64,
    thread: Option<ChannelId>,
) -> Result<(), DbError> {
    sqlx::query("UPDATE tournaments SET thread_id = $2 WHERE id = $1")
        .bind(id)
        .bind(thread)
        .execute(ex)
        .await?;
    Ok(())
}

/// Raises tournament `id`'s version, if it is still `version`: `false` when another change got
/// there first.
pub async fn touch_tournament(
    ex: impl Executor<'_>,
    id: i64,
    version: i64,
    now: i64,
) -> Result<bool, DbError> {
    let done = sqlx::query(
        "UPDATE tournaments SET version = version + 1, updated_at = $3
          WHERE id = $1 AND version = $2",
    )
    .bind(id)
    .bind(version)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Starts tournament `id` (taking sign-ups, at `version`) with `rounds` rounds.
pub async fn start_tournament(
    ex: impl Executor<'_>,
    id: i64,
    version: i64,
    rounds: i64,
    now: i64,
) -> Result<bool, DbError> {
    let done = sqlx::query(
        "UPDATE tournaments SET status = 'running', rounds = $3, version = version + 1,
                updated_at = $4
          WHERE id = $1 AND version = $2 AND status = 'signup'",
    )
    .bind(id)
    .bind(version)
    .bind(rounds)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Records that tournament `id` (at `version`, running) has its rounds up to `round` paired, and
/// gives back any claim on advancing it. `false`, and nothing written, when another process or
/// change got there first: the caller's transaction is then rolled back whole.
pub async fn record_round_paired(
    ex: impl Executor<'_>,
    id: i64,
    version: i64,
    round: i64,
    now: i64,
) -> Result<bool, DbError> {
    let done = sqlx::query(
        "UPDATE tournaments SET rounds_paired = $3, version = version + 1, updated_at = $4,
                advancing_until = NULL
          WHERE id = $1 AND version = $2 AND status = 'running' AND rounds_paired < $3",
    )
    .bind(id)
    .bind(version)
    .bind(round)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Closes tournament `id` (at `version`): `finished` with its winner, or `cancelled`.
pub async fn close_tournament(
    ex: impl Executor<'_>,
    id: i64,
    version: i64,
    status: TournamentStatus,
    winner: Option<UserId>,
    now: i64,
) -> Result<bool, DbError> {
    let done = sqlx::query(
        "UPDATE tournaments SET status = $3, winner_id = $4, version = version + 1,
                updated_at = $5, finished_at = $5, advancing_until = NULL
          WHERE id = $1 AND version = $2 AND status IN ('signup', 'running')",
    )
    .bind(id)
    .bind(version)
    .bind(status.as_str())
    .bind(winner)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Pauses (`true`) or resumes tournament `id`'s next round, if it is running at `version`:
/// whether this call changed it.
pub async fn set_tournament_paused(
    ex: impl Executor<'_>,
    id: i64,
    version: i64,
    paused: bool,
    now: i64,
) -> Result<bool, DbError> {
    let done = sqlx::query(
        "UPDATE tournaments SET paused = $3, version = version + 1, updated_at = $4
          WHERE id = $1 AND version = $2 AND status = 'running' AND paused <> $3",
    )
    .bind(id)
    .bind(version)
    .bind(i64::from(paused))
    .bind(now)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Claims the advancing of tournament `id` until `until_ms`, unless another claim holds at
/// `now_ms` or the event is paused: whether this caller has it.
pub async fn claim_advance(
    ex: impl Executor<'_>,
    id: i64,
    now_ms: i64,
    until_ms: i64,
) -> Result<bool, DbError> {
    let done = sqlx::query(
        "UPDATE tournaments SET advancing_until = $3
          WHERE id = $1 AND status = 'running' AND paused = 0
            AND (advancing_until IS NULL OR advancing_until <= $2)",
    )
    .bind(id)
    .bind(now_ms)
    .bind(until_ms)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Gives back the caller's own claim (`until_ms`) on advancing tournament `id`.
pub async fn release_advance(ex: impl Executor<'_>, id: i64, until_ms: i64) -> Result<(), DbError> {
    sqlx::query(
        "UPDATE tournaments SET advancing_until = NULL WHERE id = $1 AND advancing_until = $2",
    )
    .bind(id)
    .bind(until_ms)
    .execute(ex)
    .await?;
    Ok(())
}

/// Tournaments taking sign-ups whose sign-up ended by `now`.
pub async fn tournaments_to_start(ex: impl Executor<'_>, now: i64) -> Result<Vec<i64>, DbError> {
    Ok(sqlx::query_scalar(
        "SELECT id FROM tournaments
          WHERE status = 'signup' AND starts_at IS NOT NULL AND starts_at <= $1 ORDER BY id",
    )
    .bind(now)
    .fetch_all(ex)
    .await?)
}

/// Running tournaments whose paired rounds are all decided (the next round, or the end, is due)
/// and that nobody is advancing at `now_ms`.
pub async fn tournaments_to_advance(
    ex: impl Executor<'_>,
    now_ms: i64,
) -> Result<Vec<i64>, DbError> {
    Ok(sqlx::query_scalar(
        "SELECT t.id FROM tournaments t
          WHERE t.status = 'running' AND t.paused = 0
            AND (t.advancing_until IS NULL OR t.advancing_until <= $1)
            AND NOT EXISTS (SELECT 1 FROM tournament_pairings p
                             WHERE p.tournament_id = t.id AND p.result IS NULL)
          ORDER BY t.id",
    )
    .bind(now_ms)
    .fetch_all(ex)
    .await?)
}

/// Whether running tournament `id` (not paused) has every paired round decided: its next round,
/// or its end, is due.
pub async fn tournament_due(ex: impl Executor<'_>, id: i64) -> Result<bool, DbError> {
    let due: Option<i64> = sqlx::query_scalar(
        "SELECT t.id FROM tournaments t
          WHERE t.id = $1 AND t.status = 'running' AND t.paused = 0
            AND NOT EXISTS (SELECT 1 FROM tournament_pairings p
                             WHERE p.tournament_id = t.id AND p.result IS NULL)",
    )
    .bind(id)
    .fetch_optional(ex)
    .await?;
    Ok(due.is_some())
}

/// A player of a tournament.
#[derive(Clone, PartialEq, Eq, Debug, FromRow)]
pub struct TournamentPlayer {
    pub player_id: UserId,
    /// The starting rank, in order of joining (gaps where someone left before the start).
    pub seed: i64,
    /// The rounds paired when they joined (0: before the start).
    pub joined_round: i64,
    /// The rounds paired when they withdrew.
    pub withdrawn_round: Option<i64>,
    pub timeouts: i64,
}

/// Adds `player` to tournament `id` after the others, `joined_round` rounds into it.
pub async fn insert_tournament_player(
    ex: impl Executor<'_>,
    id: i64,
    player: UserId,
    joined_round: i64,
    now: i64,
) -> Result<(), DbError> {
    sqlx::query(
        "INSERT INTO tournament_players (tournament_id, player_id, seed, joined_round, joined_at)
         SELECT $1, $2, COALESCE(MAX(seed), 0) + 1, $3, $4
           FROM tournament_players WHERE tournament_id = $1",
    )
    .bind(id)
    .bind(player)
    .bind(joined_round)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
}

/// Takes `player` off tournament `id` (before its start): whether they were in it.
pub async fn delete_tournament_player(
    ex: impl Executor<'_>,
    id: i64,
    player: UserId,
) -> Result<bool, DbError> {
    let done =
        sqlx::query("DELETE FROM tournament_players WHERE tournament_id = $1 AND player_id = $2")
            .bind(id)
            .bind(player)
            .execute(ex)
            .await?;
    Ok(done.rows_affected() == 1)
}

/// The players of tournament `id`, by seed.
pub async fn tournament_players(
    ex: impl Executor<'_>,
    id: i64,
) -> Result<Vec<TournamentPlayer>, DbError> {
    Ok(sqlx::query_as(
        "SELECT player_id, seed, joined_round, withdrawn_round, timeouts
           FROM tournament_players WHERE tournament_id = $1 ORDER BY seed",
    )
    .bind(id)
    .fetch_all(ex)
    .await?)
}

/// Withdraws `player` from tournament `id` after `round` rounds: whether they were still in.
pub async fn withdraw_tournament_player(
    ex: impl Executor<'_>,
    id: i64,
    player: UserId,
    round: i64,
) -> Result<bool, DbError> {
    let done = sqlx::query(
        "UPDATE tournament_players SET withdrawn_round = $3
          WHERE tournament_id = $1 AND player_id = $2 AND withdrawn_round IS NULL",
    )
    .bind(id)
    .bind(player)
    .bind(round)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// How a pairing was decided.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PairingResult {
    /// The first seat (White) won the game.
    White,
    Black,
    Draw,
    /// The first seat won without play (the other withdrew).
    WhiteForfeit,
    BlackForfeit,
    /// Nobody scores and no game counts (a game called off).
    Void,
    /// A bye, worth its `bye_halves`.
    Bye,
}

impl PairingResult {
    pub const fn as_str(self) -> &'static str {
        match self {
            PairingResult::White => "white",
            PairingResult::Black => "black",
            PairingResult::Draw => "draw",
            PairingResult::WhiteForfeit => "white_forfeit",
            PairingResult::BlackForfeit => "black_forfeit",
            PairingResult::Void => "void",
            PairingResult::Bye => "bye",
        }
    }

    fn parse(s: &str) -> Option<PairingResult> {
        Some(match s {
            "white" => PairingResult::White,
            "black" => PairingResult::Black,
            "draw" => PairingResult::Draw,
            "white_forfeit" => PairingResult::WhiteForfeit,
            "black_forfeit" => PairingResult::BlackForfeit,
            "void" => PairingResult::Void,
            "bye" => PairingResult::Bye,
            _ => return None,
        })
    }

    /// The result of a game that ended as `finish` said, the first seat being White.
    pub fn of_game(finish: &Finish, seats: [UserId; 2]) -> PairingResult {
        match (&finish.result, finish.winner_id) {
            (GameResult::Aborted { .. }, _) => PairingResult::Void,
            (GameResult::Decided(_), None) => PairingResult::Draw,
            (GameResult::Decided(_), Some(w)) if w == seats[0] => PairingResult::White,
            (GameResult::Decided(_), Some(_)) => PairingResult::Black,
        }
    }

    /// A win without play for `colour`.
    pub fn forfeit_for(colour: Colour) -> PairingResult {
        match colour {
            Colour::First => PairingResult::WhiteForfeit,
            Colour::Second => PairingResult::BlackForfeit,
        }
    }
}

/// One game or bye of a round.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PairingRow {
    pub id: i64,
    pub tournament_id: i64,
    pub round: i64,
    pub board: i64,
    /// The first seat; the player of a bye.
    pub white_id: UserId,
    /// `None` for a bye.
    pub black_id: Option<UserId>,
    /// A bye's worth in half points.
    pub bye_halves: Option<i64>,
    pub game_id: Option<i64>,
    pub result: Option<PairingResult>,
}

impl<'r> FromRow<'r, DbRow> for PairingRow {
    fn from_row(row: &'r DbRow) -> Result<Self, sqlx::Error> {
        let result = match row.try_get::<Option<String>, _>("result")? {
            None => None,
            Some(r) => Some(
                PairingResult::parse(&r)
                    .ok_or_else(|| decode_error("result", format!("unknown result `{r}`")))?,
            ),
        };
        Ok(PairingRow {
            id: row.try_get("id")?,
            tournament_id: row.try_get("tournament_id")?,
            round: row.try_get("round")?,
            board: row.try_get("board")?,
            white_id: row.try_get("white_id")?,
            black_id: row.try_get("black_id")?,
            bye_halves: row.try_get("bye_halves")?,
            game_id: row.try_get("game_id")?,
            result,
        })
    }
}

/// A pairing to store: a game (`black` set), or a bye worth `bye_halves`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct NewPairing {
    pub round: i64,
    pub board: i64,
    pub white: UserId,
    pub black: Option<UserId>,
    pub bye_halves: Option<i64>,
    pub game_id: Option<i64>,
}

/// Stores a pairing of tournament `id`; a bye is decided at once. Returns its id.
pub async fn insert_pairing(
    ex: impl Executor<'_>,
    id: i64,
    p: &NewPairing,
) -> Result<i64, DbError> {
    let result = p.black.is_none().then_some(PairingResult::Bye.as_str());
    Ok(sqlx::query_scalar(
        "INSERT INTO tournament_pairings (tournament_id, round, board, white_id, black_id,
                                          bye_halves, game_id, result)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id",
    )
    .bind(id)
    .bind(p.round)
    .bind(p.board)
    .bind(p.white)
    .bind(p.black)
    .bind(p.bye_halves)
    .bind(p.game_id)
    .bind(result)
    .fetch_one(ex)
    .await?)
}

/// Every pairing of tournament `id`, by round and board.
pub async fn tournament_pairings(
    ex: impl Executor<'_>,
    id: i64,
) -> Result<Vec<PairingRow>, DbError> {
    Ok(sqlx::query_as(
        "SELECT * FROM tournament_pairings WHERE tournament_id = $1 ORDER BY round, board",
    )
    .bind(id)
    .fetch_all(ex)
    .await?)
}

/// The pairing game `game` was started for, if it is a tournament game.
pub async fn pairing_of_game(
    ex: impl Executor<'_>,
    game: i64,
) -> Result<Option<PairingRow>, DbError> {
    Ok(
        sqlx::query_as("SELECT * FROM tournament_pairings WHERE game_id = $1")
            .bind(game)
            .fetch_optional(ex)
            .await?,
    )
}

/// Decides pairing `id`, if it is still undecided: whether this call did.
pub async fn decide_pairing(
    ex: impl Executor<'_>,
    id: i64,
    result: PairingResult,
) -> Result<bool, DbError> {
    let done =
        sqlx::query("UPDATE tournament_pairings SET result = $2 WHERE id = $1 AND result IS NULL")
            .bind(id)
            .bind(result.as_str())
            .execute(ex)
            .await?;
    Ok(done.rows_affected() == 1)
}

/// Corrects decided pairing `id` (a game) from `was` to `result`: whether this call did (`false`
/// when it was not decided as `was`, or is a bye).
pub async fn correct_pairing(
    ex: impl Executor<'_>,
    id: i64,
    was: PairingResult,
    result: PairingResult,
) -> Result<bool, DbError> {
    let done = sqlx::query(
        "UPDATE tournament_pairings SET result = $3
          WHERE id = $1 AND result = $2 AND black_id IS NOT NULL",
    )
    .bind(id)
    .bind(was.as_str())
    .bind(result.as_str())
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Where a game ends (in the transaction that ends it): when it is a tournament game, its
/// pairing takes the result and a loss on time counts against the loser. Returns the
/// tournament, if any.
pub async fn record_tournament_game(
    conn: &mut Conn,
    game: i64,
    seats: [UserId; 2],
    finish: &Finish,
) -> Result<Option<i64>, DbError> {
    let Some(pairing) = pairing_of_game(&mut *conn, game).await? else {
        return Ok(None);
    };
    let result = PairingResult::of_game(finish, seats);
    if !decide_pairing(&mut *conn, pairing.id, result).await? {
        return Ok(Some(pairing.tournament_id));
    }
    let on_time = matches!(
        &finish.result,
        GameResult::Decided(o) if o.reason == crate::games::Reason::Timeout
    );
    if let (true, Some(winner)) = (on_time, finish.winner_id) {
        let loser = if winner == seats[0] {
            seats[1]
        } else {
            seats[0]
        };
        sqlx::query(
            "UPDATE tournament_players SET timeouts = timeouts + 1
              WHERE tournament_id = $1 AND player_id = $2",
        )
        .bind(pairing.tournament_id)
        .bind(loser)
        .execute(&mut *conn)
        .await?;
    }
    Ok(Some(pairing.tournament_id))
}

/// Whether anyone in server `guild` may create tournaments (else only those who manage the
/// server or its events).
pub async fn tournaments_open(ex: impl Executor<'_>, guild: GuildId) -> Result<bool, DbError> {
    let open: Option<i64> =
        sqlx::query_scalar("SELECT tournaments_open FROM server_settings WHERE guild_id = $1")
            .bind(guild)
            .fetch_optional(ex)
            .await?;
    Ok(open.unwrap_or(0) != 0)
}

/// Opens the creation of tournaments in server `guild` to everyone, or closes it again.
pub async fn set_tournaments_open(
    ex: impl Executor<'_>,
    guild: GuildId,
    open: bool,
    now: i64,
) -> Result<(), DbError> {
    sqlx::query(
        "INSERT INTO server_settings (guild_id, tournaments_open, updated_at) VALUES ($1, $2, $3)
         ON CONFLICT (guild_id) DO UPDATE SET tournaments_open = excluded.tournaments_open,
                                              updated_at = excluded.updated_at",
    )
    .bind(guild)
    .bind(i64::from(open))
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests;
