//! Seeks: a member's wish to play, in one server, any of several variants at any time per move
//! within a range. A compatible seek of another member is matched at once; otherwise it waits,
//! open, until a member matches or accepts it, its author withdraws it, or it expires.
//!
//! Matching or accepting a seek claims it with one conditional write ([`claim_seek`]) in the
//! transaction that starts the game, so two members (or two processes) taking one seek at once
//! start one game.

use super::{DbRow, Executor};
use sqlx::{FromRow, Row};

use super::{decode_each, ChannelId, DbError, GuildId, MessageId, RoleId, UserId};
use crate::games::{GameKind, Options};

/// Where a seek stands.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SeekStatus {
    Open,
    Matched,
    Withdrawn,
    Expired,
}

impl SeekStatus {
    pub const fn as_str(self) -> &'static str {
        match self {
            SeekStatus::Open => "open",
            SeekStatus::Matched => "matched",
            SeekStatus::Withdrawn => "withdrawn",
            SeekStatus::Expired => "expired",
        }
    }

    fn parse(s: &str) -> Option<SeekStatus> {
        Some(match s {
            "open" => SeekStatus::Open,
            "matched" => SeekStatus::Matched,
            "withdrawn" => SeekStatus::Withdrawn,
            "expired" => SeekStatus::Expired,
            _ => return None,
        })
    }
}

/// The variants' option lines as one column: `|` between them (no option line holds one).
const SEPARATOR: char = '|';

/// A stored seek.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Seek {
    pub id: i64,
    pub guild_id: GuildId,
    /// Where the game it starts is played (and its card is, once posted).
    pub channel_id: ChannelId,
    pub player_id: UserId,
    /// The variants its author would play, in their order (at least one).
    pub variants: Vec<Options>,
    /// The days per move its author would play, both included.
    pub days: std::ops::RangeInclusive<i64>,
    pub rated: bool,
    pub status: SeekStatus,
    pub message_id: Option<MessageId>,
    pub game_id: Option<i64>,
    pub created_at: i64,
    pub expires_at: i64,
    /// The standing seek it was made from, if any.
    pub standing_id: Option<i64>,
    /// Its author lets it be matched with members of other servers (a game in direct messages).
    pub anywhere: bool,
}

/// The variants of column `variants` (their option lines joined by [`SEPARATOR`]): at least one.
fn decode_variants(row: &DbRow) -> Result<Vec<Options>, sqlx::Error> {
    let line: String = row.try_get("variants")?;
    let variants = line
        .split(SEPARATOR)
        .map(Options::parse_line)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| sqlx::Error::ColumnDecode {
            index: "variants".into(),
            source: format!("`{line}`: {e}").into(),
        })?;
    if variants.is_empty() {
        return Err(sqlx::Error::ColumnDecode {
            index: "variants".into(),
            source: "no variant".into(),
        });
    }
    Ok(variants)
}

/// Variants as column `variants` holds them.
fn encode_variants(variants: &[Options]) -> String {
    let lines: Vec<String> = variants.iter().map(Options::to_string).collect();
    lines.join(&SEPARATOR.to_string())
}

impl<'r> FromRow<'r, DbRow> for Seek {
    fn from_row(row: &'r DbRow) -> Result<Self, sqlx::Error> {
        let status: String = row.try_get("status")?;
        let min: i64 = row.try_get("min_days")?;
        let max: i64 = row.try_get("max_days")?;
        Ok(Seek {
            id: row.try_get("id")?,
            guild_id: row.try_get("guild_id")?,
            channel_id: row.try_get("channel_id")?,
            player_id: row.try_get("player_id")?,
            variants: decode_variants(row)?,
            days: min..=max,
            rated: super::get_flag(row, "rated")?,
            status: SeekStatus::parse(&status).ok_or_else(|| sqlx::Error::ColumnDecode {
                index: "status".into(),
                source: format!("unknown seek status `{status}`").into(),
            })?,
            message_id: row.try_get("message_id")?,
            game_id: row.try_get("game_id")?,
            created_at: row.try_get("created_at")?,
            expires_at: row.try_get("expires_at")?,
            standing_id: row.try_get("standing_id")?,
            anywhere: super::get_flag(row, "anywhere")?,
        })
    }
}

/// What is needed to store a seek.
#[derive(Clone, Debug)]
pub struct NewSeek<'a> {
    pub guild_id: GuildId,
    pub channel_id: ChannelId,
    pub player_id: UserId,
    pub variants: &'a [Options],
    pub days: std::ops::RangeInclusive<i64>,
    pub rated: bool,
    pub now: i64,
    pub expires_at: i64,
    /// The standing seek it is made from, if any.
    pub standing_id: Option<i64>,
    /// Matched with members of other servers too.
    pub anywhere: bool,
}

/// Stores an open seek; returns its id.
pub async fn insert_seek(ex: impl Executor<'_>, s: &NewSeek<'_>) -> Result<i64, DbError> {
    let id = sqlx::query_scalar(
        "INSERT INTO seeks (guild_id, channel_id, player_id, variants, min_days, max_days, rated,
                            status, created_at, expires_at, standing_id, anywhere)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'open', $8, $9, $10, $11)
         RETURNING id",
    )
    .bind(s.guild_id)
    .bind(s.channel_id)
    .bind(s.player_id)
    .bind(encode_variants(s.variants))
    .bind(*s.days.start())
    .bind(*s.days.end())
    .bind(i64::from(s.rated))
    .bind(s.now)
    .bind(s.expires_at)
    .bind(s.standing_id)
    .bind(i64::from(s.anywhere))
    .fetch_one(ex)
    .await?;
    Ok(id)
}

pub async fn fetch_seek(ex: impl Executor<'_>, id: i64) -> Result<Option<Seek>, DbError> {
    Ok(sqlx::query_as("SELECT * FROM seeks WHERE id = $1")
        .bind(id)
        .fetch_optional(ex)
        .await?)
}

/// Whose open seeks [`open_seeks`] reads.
#[derive(Clone, Copy, Debug)]
pub enum SeeksOf {
    /// Server `guild`'s.
    Server(GuildId),
    /// A member's, in every server.
    Player(UserId),
    /// Those made from a standing seek.
    Standing(i64),
}

/// The open, unexpired seeks of `of`, oldest first.
pub async fn open_seeks(
    ex: impl Executor<'_>,
    of: SeeksOf,
    now: i64,
) -> Result<Vec<Seek>, DbError> {
    let column = match of {
        SeeksOf::Server(_) => "guild_id",
        SeeksOf::Player(_) => "player_id",
        SeeksOf::Standing(_) => "standing_id",
    };
    // `column` is one of three static names.
    let sql = format!(
        "SELECT * FROM seeks WHERE {column} = $1 AND status = 'open' AND expires_at > $2
          ORDER BY id"
    );
    let query = sqlx::query(sqlx::AssertSqlSafe(sql));
    let query = match of {
        SeeksOf::Server(g) => query.bind(g),
        SeeksOf::Player(p) => query.bind(p),
        SeeksOf::Standing(s) => query.bind(s),
    };
    let rows = query.bind(now).fetch_all(ex).await?;
    Ok(decode_each("seeks", &rows))
}

/// The open, unexpired seeks that may be matched across servers with a seek of server `guild`:
/// made to be (`anywhere`), in other servers that do not keep out, oldest first; none when
/// `guild` itself keeps out.
pub async fn open_seeks_anywhere(
    ex: impl Executor<'_>,
    guild: GuildId,
    now: i64,
) -> Result<Vec<Seek>, DbError> {
    let rows = sqlx::query(
        "SELECT s.* FROM seeks s
           LEFT JOIN server_settings g ON g.guild_id = s.guild_id
          WHERE s.anywhere = 1 AND s.status = 'open' AND s.expires_at > $2 AND s.guild_id <> $1
            AND COALESCE(g.pool_closed, 0) = 0
            AND NOT EXISTS (SELECT 1 FROM server_settings h
                             WHERE h.guild_id = $1 AND h.pool_closed = 1)
          ORDER BY s.id",
    )
    .bind(guild)
    .bind(now)
    .fetch_all(ex)
    .await?;
    Ok(decode_each("seeks", &rows))
}

/// How many open, unexpired seeks `player` has.
pub async fn count_open_seeks(
    ex: impl Executor<'_>,
    player: UserId,
    now: i64,
) -> Result<i64, DbError> {
    Ok(sqlx::query_scalar(
        "SELECT count(*) FROM seeks WHERE status = 'open' AND player_id = $1 AND expires_at > $2",
    )
    .bind(player)
    .bind(now)
    .fetch_one(ex)
    .await?)
}

/// Claims open seek `id` for the game about to start, unless its time ran out at `now`: `false`
/// when it was no longer open (someone else matched it, or it was withdrawn or expired first).
/// Call it in the transaction that starts the game, then [`set_seek_game`]: of two transactions
/// claiming one seek, the second waits for the first and finds it taken.
pub async fn claim_seek(ex: impl Executor<'_>, id: i64, now: i64) -> Result<bool, DbError> {
    let done = sqlx::query(
        "UPDATE seeks SET status = 'matched' WHERE id = $1 AND status = 'open' AND expires_at > $2",
    )
    .bind(id)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Records the game that matched seek `id`.
pub async fn set_seek_game(ex: impl Executor<'_>, id: i64, game: i64) -> Result<(), DbError> {
    sqlx::query("UPDATE seeks SET game_id = $2 WHERE id = $1")
        .bind(id)
        .bind(game)
        .execute(ex)
        .await?;
    Ok(())
}

/// Remembers the message showing seek `id` (its card) and the channel it is in, where the game
/// it starts is then played.
pub async fn set_seek_message(
    ex: impl Executor<'_>,
    id: i64,
    channel: ChannelId,
    message: MessageId,
) -> Result<(), DbError> {
    sqlx::query("UPDATE seeks SET channel_id = $2, message_id = $3 WHERE id = $1")
        .bind(id)
        .bind(channel)
        .bind(message)
        .execute(ex)
        .await?;
    Ok(())
}

/// Closes open seek `id` as `status` (withdrawn or expired). `false` when it was no longer open.
pub async fn close_seek(
    ex: impl Executor<'_>,
    id: i64,
    status: SeekStatus,
) -> Result<bool, DbError> {
    let done = sqlx::query("UPDATE seeks SET status = $2 WHERE id = $1 AND status = 'open'")
        .bind(id)
        .bind(status.as_str())
        .execute(ex)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// Closes every open seek whose time ran out at `now`; returns them (each once).
pub async fn expire_seeks(ex: impl Executor<'_>, now: i64) -> Result<Vec<Seek>, DbError> {
    let rows = sqlx::query(
        "UPDATE seeks SET status = 'expired' WHERE status = 'open' AND expires_at <= $1
         RETURNING *",
    )
    .bind(now)
    .fetch_all(ex)
    .await?;
    Ok(decode_each("seeks", &rows))
}

/// Makes `channel` server `guild`'s seek channel, where seeks left unmatched are posted.
pub async fn set_seek_channel(
    ex: impl Executor<'_>,
    guild: GuildId,
    channel: ChannelId,
    now: i64,
) -> Result<(), DbError> {
    sqlx::query(
        "INSERT INTO seek_channels (guild_id, channel_id, updated_at) VALUES ($1, $2, $3)
         ON CONFLICT (guild_id) DO UPDATE SET channel_id = excluded.channel_id,
                                              updated_at = excluded.updated_at",
    )
    .bind(guild)
    .bind(channel)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
}

/// Server `guild` no longer posts seeks in a channel of its own. `false` when it had none.
pub async fn clear_seek_channel(ex: impl Executor<'_>, guild: GuildId) -> Result<bool, DbError> {
    let done = sqlx::query("DELETE FROM seek_channels WHERE guild_id = $1")
        .bind(guild)
        .execute(ex)
        .await?;
    Ok(done.rows_affected() > 0)
}

/// Server `guild`'s seek channel, if it has one.
pub async fn fetch_seek_channel(
    ex: impl Executor<'_>,
    guild: GuildId,
) -> Result<Option<ChannelId>, DbError> {
    Ok(
        sqlx::query_scalar("SELECT channel_id FROM seek_channels WHERE guild_id = $1")
            .bind(guild)
            .fetch_optional(ex)
            .await?,
    )
}

/// Sets the role server `guild` pings with a seek of `kind` (`None`: no role).
pub async fn set_seek_role(
    ex: impl Executor<'_>,
    guild: GuildId,
    kind: GameKind,
    role: Option<RoleId>,
    now: i64,
) -> Result<(), DbError> {
    match role {
        Some(role) => sqlx::query(
            "INSERT INTO seek_roles (guild_id, kind, role_id, updated_at) VALUES ($1, $2, $3, $4)
             ON CONFLICT (guild_id, kind) DO UPDATE SET role_id = excluded.role_id,
                                                        updated_at = excluded.updated_at",
        )
        .bind(guild)
        .bind(kind)
        .bind(role)
        .bind(now)
        .execute(ex)
        .await?,
        None => {
            sqlx::query("DELETE FROM seek_roles WHERE guild_id = $1 AND kind = $2")
                .bind(guild)
                .bind(kind)
                .execute(ex)
                .await?
        }
    };
    Ok(())
}

/// Server `guild`'s seek roles, by game, in the registry's order of games.
pub async fn seek_roles(
    ex: impl Executor<'_>,
    guild: GuildId,
) -> Result<Vec<(GameKind, RoleId)>, DbError> {
    let mut roles: Vec<(GameKind, RoleId)> =
        sqlx::query_as("SELECT kind, role_id FROM seek_roles WHERE guild_id = $1")
            .bind(guild)
            .fetch_all(ex)
            .await?;
    roles.sort_by_key(|(kind, _)| GameKind::ALL.iter().position(|k| k == kind));
    Ok(roles)
}

/// A stored standing seek: its member wants to be kept in `keep` games of its variants in its
/// server; a seek with its terms is made whenever they have fewer and none of its seeks is open.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct StandingSeek {
    pub id: i64,
    pub guild_id: GuildId,
    /// Where it was asked for: its seeks' cards are posted there without a seek channel.
    pub channel_id: ChannelId,
    pub player_id: UserId,
    pub variants: Vec<Options>,
    pub days: std::ops::RangeInclusive<i64>,
    pub rated: bool,
    /// The active games of its variants in its server its member wants.
    pub keep: i64,
    /// How long each of its seeks stays open, in seconds.
    pub lasts: i64,
    pub created_at: i64,
}

impl<'r> FromRow<'r, DbRow> for StandingSeek {
    fn from_row(row: &'r DbRow) -> Result<Self, sqlx::Error> {
        let min: i64 = row.try_get("min_days")?;
        let max: i64 = row.try_get("max_days")?;
        Ok(StandingSeek {
            id: row.try_get("id")?,
            guild_id: row.try_get("guild_id")?,
            channel_id: row.try_get("channel_id")?,
            player_id: row.try_get("player_id")?,
            variants: decode_variants(row)?,
            days: min..=max,
            rated: super::get_flag(row, "rated")?,
            keep: row.try_get("keep")?,
            lasts: row.try_get("lasts")?,
            created_at: row.try_get("created_at")?,
        })
    }
}

/// What is needed to store a standing seek.
#[derive(Clone, Debug)]
pub struct NewStandingSeek<'a> {
    pub guild_id: GuildId,
    pub channel_id: ChannelId,
    pub player_id: UserId,
    pub variants: &'a [Options],
    pub days: std::ops::RangeInclusive<i64>,
    pub rated: bool,
    pub keep: i64,
    pub lasts: i64,
    pub now: i64,
}

/// Stores a standing seek; returns its id.
pub async fn insert_standing_seek(
    ex: impl Executor<'_>,
    s: &NewStandingSeek<'_>,
) -> Result<i64, DbError> {
    let id = sqlx::query_scalar(
        "INSERT INTO standing_seeks (guild_id, channel_id, player_id, variants, min_days,
                                     max_days, rated, keep, lasts, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
         RETURNING id",
    )
    .bind(s.guild_id)
    .bind(s.channel_id)
    .bind(s.player_id)
    .bind(encode_variants(s.variants))
    .bind(*s.days.start())
    .bind(*s.days.end())
    .bind(i64::from(s.rated))
    .bind(s.keep)
    .bind(s.lasts)
    .bind(s.now)
    .fetch_one(ex)
    .await?;
    Ok(id)
}

pub async fn fetch_standing_seek(
    ex: impl Executor<'_>,
    id: i64,
) -> Result<Option<StandingSeek>, DbError> {
    Ok(sqlx::query_as("SELECT * FROM standing_seeks WHERE id = $1")
        .bind(id)
        .fetch_optional(ex)
        .await?)
}

/// `player`'s standing seeks in server `guild`, oldest first.
pub async fn standing_seeks_of(
    ex: impl Executor<'_>,
    player: UserId,
    guild: GuildId,
) -> Result<Vec<StandingSeek>, DbError> {
    let rows = sqlx::query(
        "SELECT * FROM standing_seeks WHERE player_id = $1 AND guild_id = $2 ORDER BY id",
    )
    .bind(player)
    .bind(guild)
    .fetch_all(ex)
    .await?;
    Ok(decode_each("standing_seeks", &rows))
}

/// Every standing seek's id, oldest first.
pub async fn standing_seek_ids(ex: impl Executor<'_>) -> Result<Vec<i64>, DbError> {
    Ok(
        sqlx::query_scalar("SELECT id FROM standing_seeks ORDER BY id")
            .fetch_all(ex)
            .await?,
    )
}

/// Claims standing seek `id` for making a seek from it until `until`, unless another process
/// holds it at `now`: `false` when it is held (or gone). Of two processes claiming it at once,
/// one gets it; [`release_standing_seek`] frees it, and a claim whose process died lapses at
/// `until`.
pub async fn claim_standing_seek(
    ex: impl Executor<'_>,
    id: i64,
    now: i64,
    until: i64,
) -> Result<bool, DbError> {
    let done =
        sqlx::query("UPDATE standing_seeks SET busy_until = $3 WHERE id = $1 AND busy_until <= $2")
            .bind(id)
            .bind(now)
            .bind(until)
            .execute(ex)
            .await?;
    Ok(done.rows_affected() == 1)
}

/// Frees standing seek `id` claimed with [`claim_standing_seek`].
pub async fn release_standing_seek(ex: impl Executor<'_>, id: i64) -> Result<(), DbError> {
    sqlx::query("UPDATE standing_seeks SET busy_until = 0 WHERE id = $1")
        .bind(id)
        .execute(ex)
        .await?;
    Ok(())
}

/// Stops standing seek `id`: no more seeks are made from it. `false` when it was gone.
pub async fn delete_standing_seek(ex: impl Executor<'_>, id: i64) -> Result<bool, DbError> {
    let done = sqlx::query("DELETE FROM standing_seeks WHERE id = $1")
        .bind(id)
        .execute(ex)
        .await?;
    Ok(done.rows_affected() == 1)
}
/// How many active games `player` has in server `guild` of one of `variants`.
pub async fn count_active_games_of(
    ex: impl Executor<'_>,
    guild: GuildId,
    player: UserId,
    variants: &[Options],
) -> Result<i64, DbError> {
    let lines: Vec<String> = sqlx::query_scalar(
        "SELECT options FROM games
          WHERE guild_id = $1 AND status = 'active'
            AND (first_player_id = $2 OR second_player_id = $2)",
    )
    .bind(guild)
    .bind(player)
    .fetch_all(ex)
    .await?;
    let of_them = lines
        .iter()
        .filter(|l| Options::parse_line(l).is_ok_and(|o| variants.contains(&o)))
        .count();
    Ok(i64::try_from(of_them).unwrap_or(i64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::testing::both_backends;
    use crate::db::upsert_player;

    fn variants() -> Vec<Options> {
        ["inphexion size=7", "inphexion size=9 pie"]
            .into_iter()
            .map(|l| Options::parse_line(l).unwrap())
            .collect()
    }

    both_backends! {
        async fn seeks_are_stored_found_and_expire_once(pool) {
            let (ann, bob) = (UserId(u64::MAX - 1), UserId(2));
            upsert_player(&pool, ann, "a", 0).await.unwrap();
            upsert_player(&pool, bob, "b", 0).await.unwrap();
            let v = variants();
            let new = |player, expires_at| NewSeek {
                guild_id: GuildId(7),
                channel_id: ChannelId(8),
                player_id: player,
                variants: &v,
                days: 1..=3,
                rated: true,
                now: 100,
                expires_at,
                standing_id: None,
                anywhere: false,
            };
            let anns = insert_seek(&pool, &new(ann, 200)).await.unwrap();
            let bobs = insert_seek(&pool, &new(bob, 300)).await.unwrap();
            let s = fetch_seek(&pool, anns).await.unwrap().unwrap();
            assert_eq!((s.player_id, s.variants.clone(), s.days.clone()), (ann, v.clone(), 1..=3));
            assert_eq!((s.status, s.rated, s.message_id), (SeekStatus::Open, true, None));
            // Each finds the other's, not their own, nor one of another server.
            let found = |who, now| {
                let pool = pool.clone();
                async move {
                    open_seeks(&pool, SeeksOf::Server(GuildId(7)), now)
                        .await
                        .unwrap()
                        .iter()
                        .filter(|s| s.player_id != who)
                        .map(|s| s.id)
                        .collect::<Vec<_>>()
                }
            };
            assert_eq!(found(ann, 150).await, [bobs]);
            assert_eq!(found(bob, 150).await, [anns]);
            assert!(open_seeks(&pool, SeeksOf::Server(GuildId(9)), 150).await.unwrap().is_empty());
            let mine: Vec<i64> = open_seeks(&pool, SeeksOf::Player(ann), 150).await.unwrap().iter().map(|s| s.id).collect();
            assert_eq!(mine, [anns]);
            assert_eq!(found(bob, 200).await, Vec::<i64>::new(), "expired at 200");
            assert_eq!(count_open_seeks(&pool, ann, 150).await.unwrap(), 1);
            set_seek_message(&pool, bobs, ChannelId(11), MessageId(12)).await.unwrap();
            let b = fetch_seek(&pool, bobs).await.unwrap().unwrap();
            assert_eq!((b.channel_id, b.message_id), (ChannelId(11), Some(MessageId(12))));
            let gone: Vec<i64> = expire_seeks(&pool, 200).await.unwrap().iter().map(|s| s.id).collect();
            assert_eq!(gone, [anns]);
            assert!(expire_seeks(&pool, 250).await.unwrap().is_empty());
            assert!(close_seek(&pool, bobs, SeekStatus::Withdrawn).await.unwrap());
            assert!(!close_seek(&pool, bobs, SeekStatus::Withdrawn).await.unwrap());
            assert!(!claim_seek(&pool, bobs, 150).await.unwrap(), "a withdrawn seek is not taken");
        }
    }

    both_backends! {
        async fn a_servers_seek_channel_and_roles_are_kept(pool) {
            let (g, other) = (GuildId(u64::MAX - 3), GuildId(5));
            assert_eq!(fetch_seek_channel(&pool, g).await.unwrap(), None);
            set_seek_channel(&pool, g, ChannelId(10), 1).await.unwrap();
            set_seek_channel(&pool, g, ChannelId(11), 2).await.unwrap();
            assert_eq!(fetch_seek_channel(&pool, g).await.unwrap(), Some(ChannelId(11)));
            assert_eq!(fetch_seek_channel(&pool, other).await.unwrap(), None);
            set_seek_role(&pool, g, GameKind::Exxit, Some(RoleId(u64::MAX - 4)), 1).await.unwrap();
            set_seek_role(&pool, g, GameKind::Inphexion, Some(RoleId(20)), 1).await.unwrap();
            set_seek_role(&pool, g, GameKind::Inphexion, Some(RoleId(21)), 2).await.unwrap();
            assert_eq!(
                seek_roles(&pool, g).await.unwrap(),
                [(GameKind::Inphexion, RoleId(21)), (GameKind::Exxit, RoleId(u64::MAX - 4))]
            );
            set_seek_role(&pool, g, GameKind::Exxit, None, 3).await.unwrap();
            assert_eq!(seek_roles(&pool, g).await.unwrap(), [(GameKind::Inphexion, RoleId(21))]);
            assert!(seek_roles(&pool, other).await.unwrap().is_empty());
            assert!(clear_seek_channel(&pool, g).await.unwrap());
            assert!(!clear_seek_channel(&pool, g).await.unwrap());
            assert_eq!(fetch_seek_channel(&pool, g).await.unwrap(), None);
        }
    }

    both_backends! {
        async fn two_claims_of_a_seek_start_one_game(pool) {
            let (ann, bob, cat) = (UserId(1), UserId(u64::MAX - 2), UserId(3));
            for p in [ann, bob, cat] {
                upsert_player(&pool, p, "p", 0).await.unwrap();
            }
            let v = variants();
            let id = insert_seek(&pool, &NewSeek {
                guild_id: GuildId(7),
                channel_id: ChannelId(8),
                player_id: ann,
                variants: &v,
                days: 1..=3,
                rated: true,
                now: 100,
                expires_at: 200,
                standing_id: None,
                anywhere: false,
            })
            .await
            .unwrap();
            let game = |opponent| crate::db::NewGame {
                guild_id: Some(GuildId(7)),
                channel_id: ChannelId(8),
                options: &v[0],
                players: [ann, opponent],
                rated: true,
                now: 150,
                seconds_per_move: 86400,
                deadline_at: None,
                clock: None,
            };
            // Bob's match claims it; Cat's, made while Bob's transaction is open, waits for it
            // and then finds the seek taken.
            let mut first = pool.begin().await.unwrap();
            assert!(claim_seek(&mut *first, id, 150).await.unwrap());
            let second = tokio::spawn({
                let pool = pool.clone();
                let v = v.clone();
                async move {
                    let mut tx = pool.begin().await.unwrap();
                    let claimed = claim_seek(&mut *tx, id, 150).await.unwrap();
                    if claimed {
                        let g = crate::db::NewGame {
                            guild_id: Some(GuildId(7)),
                            channel_id: ChannelId(8),
                            options: &v[0],
                            players: [ann, cat],
                            rated: true,
                            now: 150,
                            seconds_per_move: 86400,
                            deadline_at: None,
                            clock: None,
                        };
                        let started = crate::db::insert_game(&mut *tx, &g).await.unwrap();
                        set_seek_game(&mut *tx, id, started).await.unwrap();
                    }
                    tx.commit().await.unwrap();
                    claimed
                }
            });
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            let started = crate::db::insert_game(&mut *first, &game(bob)).await.unwrap();
            set_seek_game(&mut *first, id, started).await.unwrap();
            first.commit().await.unwrap();
            assert!(!second.await.unwrap(), "the second claim finds it taken");
            let games: i64 = sqlx::query_scalar("SELECT count(*) FROM games")
                .fetch_one(&pool)
                .await
                .unwrap();
            assert_eq!(games, 1);
            let s = fetch_seek(&pool, id).await.unwrap().unwrap();
            assert_eq!((s.status, s.game_id), (SeekStatus::Matched, Some(started)));
            assert_eq!(count_open_seeks(&pool, ann, 150).await.unwrap(), 0);
            assert!(!close_seek(&pool, id, SeekStatus::Withdrawn).await.unwrap(), "matched stays matched");
        }
    }

    both_backends! {
        async fn a_standing_seek_is_kept_claimed_once_and_stopped(pool) {
            let (ann, bob) = (UserId(u64::MAX - 5), UserId(6));
            upsert_player(&pool, ann, "a", 0).await.unwrap();
            upsert_player(&pool, bob, "b", 0).await.unwrap();
            let v = variants();
            let id = insert_standing_seek(&pool, &NewStandingSeek {
                guild_id: GuildId(u64::MAX - 7),
                channel_id: ChannelId(8),
                player_id: ann,
                variants: &v,
                days: 2..=3,
                rated: false,
                keep: 2,
                lasts: 3600,
                now: 100,
            })
            .await
            .unwrap();
            let s = fetch_standing_seek(&pool, id).await.unwrap().unwrap();
            assert_eq!((s.player_id, s.guild_id, s.variants.clone()), (ann, GuildId(u64::MAX - 7), v.clone()));
            assert_eq!((s.days.clone(), s.rated, s.keep, s.lasts), (2..=3, false, 2, 3600));
            assert_eq!(standing_seeks_of(&pool, ann, s.guild_id).await.unwrap(), std::slice::from_ref(&s));
            assert!(standing_seeks_of(&pool, ann, GuildId(7)).await.unwrap().is_empty());
            assert!(standing_seeks_of(&pool, bob, s.guild_id).await.unwrap().is_empty());
            assert_eq!(standing_seek_ids(&pool).await.unwrap(), [id]);

            // Two claims at once: one holds it until it is released or its time runs out.
            let (a, b) = tokio::join!(
                claim_standing_seek(&pool, id, 200, 260),
                claim_standing_seek(&pool, id, 200, 260)
            );
            assert!(a.unwrap() ^ b.unwrap(), "exactly one claim holds it");
            assert!(!claim_standing_seek(&pool, id, 259, 300).await.unwrap());
            assert!(claim_standing_seek(&pool, id, 260, 300).await.unwrap(), "a lapsed claim");
            release_standing_seek(&pool, id).await.unwrap();
            assert!(claim_standing_seek(&pool, id, 261, 300).await.unwrap());
            release_standing_seek(&pool, id).await.unwrap();

            // Its open seeks, and the games of its variants in its server.
            let seek = insert_seek(&pool, &NewSeek {
                guild_id: s.guild_id,
                channel_id: ChannelId(8),
                player_id: ann,
                variants: &v,
                days: 2..=3,
                rated: false,
                now: 100,
                expires_at: 400,
                standing_id: Some(id),
                anywhere: false,
            })
            .await
            .unwrap();
            assert_eq!(fetch_seek(&pool, seek).await.unwrap().unwrap().standing_id, Some(id));
            let open: Vec<i64> = open_seeks(&pool, SeeksOf::Standing(id), 300).await.unwrap().iter().map(|s| s.id).collect();
            assert_eq!(open, [seek]);
            assert!(open_seeks(&pool, SeeksOf::Standing(id), 400).await.unwrap().is_empty(), "expired");
            let exxit = Options::parse_line("exxit tiles=39").unwrap();
            for (guild, options) in [
                (Some(s.guild_id), &v[1]),
                (Some(s.guild_id), &v[0]),
                (Some(s.guild_id), &exxit),
                (Some(GuildId(7)), &v[0]),
                (None, &v[0]),
            ] {
                crate::db::insert_game(&pool, &crate::db::NewGame {
                    guild_id: guild,
                    channel_id: ChannelId(8),
                    options,
                    players: [bob, ann],
                    rated: false,
                    now: 150,
                    seconds_per_move: 86400,
                    deadline_at: None,
                    clock: None,
                })
                .await
                .unwrap();
            }
            assert_eq!(count_active_games_of(&pool, s.guild_id, ann, &v).await.unwrap(), 2);
            assert_eq!(count_active_games_of(&pool, s.guild_id, bob, &v[..1]).await.unwrap(), 1);
            assert_eq!(count_active_games_of(&pool, GuildId(7), ann, &[exxit]).await.unwrap(), 0);

            assert!(delete_standing_seek(&pool, id).await.unwrap());
            assert!(!delete_standing_seek(&pool, id).await.unwrap());
            assert_eq!(fetch_standing_seek(&pool, id).await.unwrap(), None);
            assert!(!claim_standing_seek(&pool, id, 500, 600).await.unwrap(), "a stopped one");
        }
    }
}
