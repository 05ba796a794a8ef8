//! Members' data on request (`/privacy`), and servers the bot left.
//!
//! [`MEMBER_DATA`] is the one list of the columns that hold a member's Discord user id, each with
//! what deleting the member's data does to it: [`member_data`] reads what it lists, and
//! [`forget_member`] acts on it. A test reads the schema and fails when a column named like a
//! member (`…user…`, `…player…`) is missing from the list.
//!
//! **A former member.** Deleting erases the member's ratings, settings, vacations, private links,
//! follows, private notes and conditional moves, puzzle attempts and puzzle ratings, the course's progress (`/learn`), their seeks (open
//! ones are no longer matched) and standing seeks (none is made again), the members they block,
//! the daily
//! puzzles they set for a server (which stops them), the direct messages the bot sent
//! them (the delivery queue `user:<id>`, see [`dm_queue`]; those still to be sent go out first),
//! and leaves a tombstone in `players`: the name and language erased, `forgotten_at` set. Their
//! games, moves, tournament results and the puzzles cut from their games stay, by user id only (a
//! puzzle's credit then reads "anonymous"), so that opponents keep their records and standings
//! (nobody's score or tiebreak changes), as do other members' blocks of them (which protect those
//! members); every text that names them then reads "a former member" (a
//! name lookup gives [`Name::Former`], and a mention of a tombstoned id is replaced where texts are
//! rendered, [`crate::i18n`]). A member with a game in play or an open tournament entry is asked to
//! finish or leave it first. A tombstoned member who uses hexcord again starts afresh: their next
//! command stores their name again (their earlier games are theirs by id, as before).
//!
//! **Servers the bot left**: [`note_bot_left`] records when; [`servers_to_clear`] gives those
//! gone longer than the grace period and [`clear_server`] removes their settings
//! ([`SERVER_SETTINGS`]); [`note_bot_joined`] cancels it when the bot is added back.

use super::{Conn, DbError, Executor, GuildId, UserId};
use crate::games::GameKind;

/// What deleting a member's data does to a column holding their user id.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Fate {
    /// The member's row stays as a tombstone: their name and language erased.
    Tombstone,
    /// The rows are deleted.
    Erased,
    /// The rows stay (the records of games and tournaments other members played), by id only.
    Kept,
}

/// A column holding a member's user id.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct MemberColumn {
    pub table: &'static str,
    pub column: &'static str,
    pub fate: Fate,
}

const fn col(table: &'static str, column: &'static str, fate: Fate) -> MemberColumn {
    MemberColumn {
        table,
        column,
        fate,
    }
}

/// Every column of the schema that holds a member's user id, by table.
pub const MEMBER_DATA: &[MemberColumn] = &[
    col("players", "id", Fate::Tombstone),
    col("player_settings", "player_id", Fate::Erased),
    col("vacations", "player_id", Fate::Erased),
    col("ratings", "player_id", Fate::Erased),
    col("followers", "user_id", Fate::Erased),
    col("web_tokens", "user_id", Fate::Erased),
    col("inbox_tokens", "user_id", Fate::Erased),
    col("game_notes", "user_id", Fate::Erased),
    col("conditional_moves", "user_id", Fate::Erased),
    col("puzzle_attempts", "player_id", Fate::Erased),
    col("puzzle_ratings", "player_id", Fate::Erased),
    col("learn_progress", "player_id", Fate::Erased),
    col("learn_attempts", "player_id", Fate::Erased),
    // A seek is a wish to play, not a record: deleted (a game it started keeps its players).
    col("seeks", "player_id", Fate::Erased),
    col("standing_seeks", "player_id", Fate::Erased),
    // The servers they were seen in (the lobby's): gone with their data.
    col("server_members", "user_id", Fate::Erased),
    // The members they block: gone with their data.
    col("blocks", "user_id", Fate::Erased),
    // The daily puzzle a moderator set stops with their data.
    col("daily_puzzles", "set_by_user_id", Fate::Erased),
    col("games", "first_player_id", Fate::Kept),
    col("games", "second_player_id", Fate::Kept),
    col("games", "winner_id", Fate::Kept),
    col("games", "to_move_id", Fate::Kept),
    col("moves", "player_id", Fate::Kept),
    col("takebacks", "player_id", Fate::Kept),
    col("game_pauses", "proposed_by", Fate::Kept),
    col("game_pauses", "resume_by", Fate::Kept),
    col("challenges", "challenger_id", Fate::Kept),
    col("challenges", "opponent_id", Fate::Kept),
    col("tournaments", "creator_id", Fate::Kept),
    col("tournaments", "winner_id", Fate::Kept),
    col("tournament_players", "player_id", Fate::Kept),
    col("tournament_pairings", "white_id", Fate::Kept),
    col("tournament_pairings", "black_id", Fate::Kept),
    col("puzzles", "first_player_id", Fate::Kept),
    col("puzzles", "second_player_id", Fate::Kept),
    // Another member's block of them stays: it protects that member, by id only.
    col("blocks", "blocked_user_id", Fate::Kept),
];

/// The tables in [`MEMBER_DATA`], each once, in its order.
pub fn member_tables() -> Vec<&'static str> {
    let mut tables: Vec<&'static str> = Vec::new();
    for c in MEMBER_DATA {
        if !tables.contains(&c.table) {
            tables.push(c.table);
        }
    }
    tables
}

/// The delivery queue of the direct messages to `user`: its sent rows hold what the bot told them.
pub fn dm_queue(user: UserId) -> String {
    format!("user:{user}")
}

/// The tables holding a server's settings (and the members seen in it), removed a grace period
/// after the bot left it.
pub const SERVER_SETTINGS: &[&str] = &[
    "server_settings",
    "moderator_notices",
    "daily_puzzles",
    "daily_puzzle_posts",
    "seek_channels",
    "seek_roles",
    "server_members",
];

/// A member's name as texts show it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Name {
    /// Their display name as last seen.
    Named(String),
    /// A member who had their data deleted.
    Former,
}

/// A player's name, when known: [`Name::Former`] for a member who had their data deleted.
pub async fn fetch_name(ex: impl Executor<'_>, id: UserId) -> Result<Option<Name>, DbError> {
    let row: Option<(String, Option<i64>)> =
        sqlx::query_as("SELECT name, forgotten_at FROM players WHERE id = $1")
            .bind(id)
            .fetch_optional(ex)
            .await?;
    Ok(row.map(|(name, forgotten)| match forgotten {
        Some(_) => Name::Former,
        None => Name::Named(name),
    }))
}

/// The members who had their data deleted (their mentions read "a former member").
pub async fn former_members(ex: impl Executor<'_>) -> Result<Vec<UserId>, DbError> {
    Ok(
        sqlx::query_scalar("SELECT id FROM players WHERE forgotten_at IS NOT NULL")
            .fetch_all(ex)
            .await?,
    )
}

/// One rating of a member.
#[derive(Clone, PartialEq, Debug)]
pub struct HeldRating {
    pub guild: GuildId,
    pub kind: GameKind,
    pub rating: f64,
    pub games: i64,
}

/// What hexcord stores about a member.
#[derive(Clone, PartialEq, Debug, Default)]
pub struct MemberData {
    /// Their name and Discord language as last seen (`None`: never stored, or deleted).
    pub name: Option<String>,
    pub locale: Option<String>,
    /// Their games in play (ids), and how many are over (finished or aborted).
    pub in_play: Vec<i64>,
    pub over: i64,
    pub ratings: Vec<HeldRating>,
    /// The time zone in their settings.
    pub time_zone: Option<String>,
    /// Rows naming them in each other table of [`MEMBER_DATA`] (those with any), in its order,
    /// then the direct messages sent to them (`announcements`, [`dm_queue`]).
    pub rows: Vec<(&'static str, i64)>,
    /// Tournaments they are entered in that are still open (signing up or running).
    pub open_entries: Vec<i64>,
}

impl MemberData {
    /// Whether nothing at all is stored.
    pub fn is_empty(&self) -> bool {
        self.name.is_none()
            && self.in_play.is_empty()
            && self.over == 0
            && self.ratings.is_empty()
            && self.rows.is_empty()
    }
}

/// `SELECT COUNT(*) FROM table WHERE col1 = $1 OR col2 = $1 …` over the table's columns in
/// [`MEMBER_DATA`] (static names only).
fn count_sql(table: &str) -> String {
    let cond: Vec<String> = MEMBER_DATA
        .iter()
        .filter(|c| c.table == table)
        .map(|c| format!("{} = $1", c.column))
        .collect();
    format!("SELECT COUNT(*) FROM {table} WHERE {}", cond.join(" OR "))
}

/// The open tournament entries of `user`: tournaments signing up or running they did not leave.
async fn open_entries(conn: &mut Conn, user: UserId) -> Result<Vec<i64>, DbError> {
    Ok(sqlx::query_scalar(
        "SELECT tp.tournament_id FROM tournament_players tp
           JOIN tournaments t ON t.id = tp.tournament_id
          WHERE tp.player_id = $1 AND tp.withdrawn_round IS NULL
            AND t.status IN ('signup', 'running')
          ORDER BY tp.tournament_id",
    )
    .bind(user)
    .fetch_all(&mut *conn)
    .await?)
}

/// The member's games in play.
async fn games_in_play(conn: &mut Conn, user: UserId) -> Result<Vec<i64>, DbError> {
    Ok(sqlx::query_scalar(
        "SELECT id FROM games WHERE status = 'active'
            AND (first_player_id = $1 OR second_player_id = $1) ORDER BY id",
    )
    .bind(user)
    .fetch_all(&mut *conn)
    .await?)
}

/// Everything hexcord stores about `user`, read from [`MEMBER_DATA`]'s tables.
pub async fn member_data(conn: &mut Conn, user: UserId) -> Result<MemberData, DbError> {
    let mut data = MemberData::default();
    let player: Option<(String, Option<String>, Option<i64>)> =
        sqlx::query_as("SELECT name, locale, forgotten_at FROM players WHERE id = $1")
            .bind(user)
            .fetch_optional(&mut *conn)
            .await?;
    if let Some((name, locale, None)) = player {
        data.name = Some(name);
        data.locale = locale;
    }
    data.in_play = games_in_play(conn, user).await?;
    data.over = sqlx::query_scalar(
        "SELECT COUNT(*) FROM games WHERE status <> 'active'
            AND (first_player_id = $1 OR second_player_id = $1)",
    )
    .bind(user)
    .fetch_one(&mut *conn)
    .await?;
    let ratings: Vec<(GuildId, GameKind, f64, i64)> = sqlx::query_as(
        "SELECT guild_id, kind, rating, games FROM ratings WHERE player_id = $1
          ORDER BY guild_id, kind",
    )
    .bind(user)
    .fetch_all(&mut *conn)
    .await?;
    data.ratings = ratings
        .into_iter()
        .map(|(guild, kind, rating, games)| HeldRating {
            guild,
            kind,
            rating,
            games,
        })
        .collect();
    data.time_zone = sqlx::query_scalar::<_, Option<String>>(
        "SELECT time_zone FROM player_settings WHERE player_id = $1",
    )
    .bind(user)
    .fetch_optional(&mut *conn)
    .await?
    .flatten();
    for table in member_tables() {
        if matches!(table, "players" | "games" | "ratings") {
            continue;
        }
        let n: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(count_sql(table)))
            .bind(user)
            .fetch_one(&mut *conn)
            .await?;
        if n > 0 {
            data.rows.push((table, n));
        }
    }
    let sent: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM announcements WHERE queue = $1 AND status <> 'pending'",
    )
    .bind(dm_queue(user))
    .fetch_one(&mut *conn)
    .await?;
    if sent > 0 {
        data.rows.push(("announcements", sent));
    }
    data.open_entries = open_entries(conn, user).await?;
    Ok(data)
}

/// What [`forget_member`] did.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Forgotten {
    /// Deleted: the rows erased, and the tombstone left.
    Done { erased: u64 },
    /// Nothing changed: the member has these games in play, or is entered in these open
    /// tournaments.
    Blocked {
        games: Vec<i64>,
        tournaments: Vec<i64>,
    },
}

/// Deletes `user`'s data as [`MEMBER_DATA`] says (see the module's text), unless they have a game
/// in play or an open tournament entry. Their open challenges are withdrawn. Call it in a
/// transaction: it takes the member's row first, so a game started meanwhile waits for it.
pub async fn forget_member(conn: &mut Conn, user: UserId, now: i64) -> Result<Forgotten, DbError> {
    super::take_players(&mut *conn, &[user]).await?;
    let games = games_in_play(conn, user).await?;
    let tournaments = open_entries(conn, user).await?;
    if !games.is_empty() || !tournaments.is_empty() {
        return Ok(Forgotten::Blocked { games, tournaments });
    }
    let mut erased = 0;
    for c in MEMBER_DATA.iter().filter(|c| c.fate == Fate::Erased) {
        let sql = format!("DELETE FROM {} WHERE {} = $1", c.table, c.column);
        erased += sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(user)
            .execute(&mut *conn)
            .await?
            .rows_affected();
    }
    erased += sqlx::query("DELETE FROM announcements WHERE queue = $1 AND status <> 'pending'")
        .bind(dm_queue(user))
        .execute(&mut *conn)
        .await?
        .rows_affected();
    sqlx::query(
        "UPDATE challenges SET status = 'withdrawn'
          WHERE status = 'open' AND (challenger_id = $1 OR opponent_id = $1)",
    )
    .bind(user)
    .execute(&mut *conn)
    .await?;
    sqlx::query("UPDATE players SET name = '', locale = NULL, reachable = 0, forgotten_at = $2 WHERE id = $1")
        .bind(user)
        .bind(now)
        .execute(&mut *conn)
        .await?;
    Ok(Forgotten::Done { erased })
}

/// Records that the bot was removed from `guild` at `now` (kept when already recorded: the
/// grace period counts from the first removal).
pub async fn note_bot_left(ex: impl Executor<'_>, guild: GuildId, now: i64) -> Result<(), DbError> {
    sqlx::query(
        "INSERT INTO server_departures (guild_id, left_at) VALUES ($1, $2)
         ON CONFLICT (guild_id) DO NOTHING",
    )
    .bind(guild)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
}

/// The bot is in `guild` (again): its settings stay. `true` when a removal was cancelled.
pub async fn note_bot_joined(ex: impl Executor<'_>, guild: GuildId) -> Result<bool, DbError> {
    Ok(
        sqlx::query("DELETE FROM server_departures WHERE guild_id = $1")
            .bind(guild)
            .execute(ex)
            .await?
            .rows_affected()
            > 0,
    )
}

/// The servers the bot left at or before `before`, whose settings are due for removal.
pub async fn servers_to_clear(ex: impl Executor<'_>, before: i64) -> Result<Vec<GuildId>, DbError> {
    Ok(sqlx::query_scalar(
        "SELECT guild_id FROM server_departures WHERE left_at <= $1 ORDER BY guild_id",
    )
    .bind(before)
    .fetch_all(ex)
    .await?)
}

/// Removes the settings of server `guild` ([`SERVER_SETTINGS`]) if the bot's departure recorded
/// at or before `before` still stands (the bot was not added back meanwhile): `true` when
/// removed. Call it in a transaction.
pub async fn clear_server(conn: &mut Conn, guild: GuildId, before: i64) -> Result<bool, DbError> {
    let done = sqlx::query("DELETE FROM server_departures WHERE guild_id = $1 AND left_at <= $2")
        .bind(guild)
        .bind(before)
        .execute(&mut *conn)
        .await?;
    if done.rows_affected() == 0 {
        return Ok(false);
    }
    for table in SERVER_SETTINGS {
        let sql = format!("DELETE FROM {table} WHERE guild_id = $1");
        sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(guild)
            .execute(&mut *conn)
            .await?;
    }
    Ok(true)
}

#[cfg(test)]
mod tests;
