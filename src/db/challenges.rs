//! Challenges: an invitation to play, open until accepted, declined, withdrawn or expired.
//!
//! A challenge names its opponent, or none: an *open challenge*, which any member of its server
//! but its challenger may accept, within its [`RatingRange`]. An open challenge keeps no
//! opponent once accepted: its game ([`Challenge::game_id`]) says who took it. Accepting claims
//! the challenge with one conditional write ([`claim_challenge`]) in the transaction that starts
//! the game, so two members (or two processes) accepting at once start one game.

use super::{DbRow, Executor};
use sqlx::{FromRow, Row};

use super::{decode_each, ChannelId, DbError, GuildId, MessageId, UserId};
use crate::games::{GameKind, Options};
use crate::time_control::TimeControl;

/// Where a challenge stands.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ChallengeStatus {
    Open,
    Accepted,
    Declined,
    Withdrawn,
    Expired,
}

impl ChallengeStatus {
    pub const fn as_str(self) -> &'static str {
        match self {
            ChallengeStatus::Open => "open",
            ChallengeStatus::Accepted => "accepted",
            ChallengeStatus::Declined => "declined",
            ChallengeStatus::Withdrawn => "withdrawn",
            ChallengeStatus::Expired => "expired",
        }
    }

    fn parse(s: &str) -> Option<ChallengeStatus> {
        Some(match s {
            "open" => ChallengeStatus::Open,
            "accepted" => ChallengeStatus::Accepted,
            "declined" => ChallengeStatus::Declined,
            "withdrawn" => ChallengeStatus::Withdrawn,
            "expired" => ChallengeStatus::Expired,
            _ => return None,
        })
    }
}

/// The ratings (in the server's pool for the challenge's game) a member may have to accept an
/// open challenge; both bounds included, either may be absent.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct RatingRange {
    pub min: Option<i64>,
    pub max: Option<i64>,
}

impl RatingRange {
    /// Any rating.
    pub const ANY: RatingRange = RatingRange {
        min: None,
        max: None,
    };

    /// Whether `rating` (rounded to a whole number, as members see it) lies within the range.
    pub fn admits(self, rating: f64) -> bool {
        let shown = rating.round();
        self.min.is_none_or(|m| shown >= m as f64) && self.max.is_none_or(|m| shown <= m as f64)
    }

    /// Whether the range bounds anything.
    pub fn is_any(self) -> bool {
        self == RatingRange::ANY
    }
}

/// A stored challenge.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Challenge {
    pub id: i64,
    pub guild_id: Option<GuildId>,
    pub channel_id: ChannelId,
    pub challenger_id: UserId,
    /// The member challenged; `None` for an open challenge (any member of the server).
    pub opponent_id: Option<UserId>,
    pub options: Options,
    pub rated: bool,
    pub status: ChallengeStatus,
    pub message_id: Option<MessageId>,
    pub game_id: Option<i64>,
    pub created_at: i64,
    pub expires_at: i64,
    /// The time per move of the game it starts.
    pub seconds_per_move: i64,
    /// The challenger takes the first seat (moves first); not so in a rematch they offer after
    /// having moved first.
    pub challenger_first: bool,
    /// The game this challenge offers a rematch of.
    pub rematch_of: Option<i64>,
    /// The time control of the game it starts (`None`: stored before time controls, the fixed
    /// `seconds_per_move`).
    pub time_control: Option<TimeControl>,
    /// The game it starts takes weekends off.
    pub weekends_off: bool,
    /// Who may accept an open challenge, by rating.
    pub ratings: RatingRange,
}

impl<'r> FromRow<'r, DbRow> for Challenge {
    fn from_row(row: &'r DbRow) -> Result<Self, sqlx::Error> {
        let status: String = row.try_get("status")?;
        Ok(Challenge {
            id: row.try_get("id")?,
            guild_id: row.try_get("guild_id")?,
            channel_id: row.try_get("channel_id")?,
            challenger_id: row.try_get("challenger_id")?,
            opponent_id: row.try_get("opponent_id")?,
            options: {
                let line: String = row.try_get("options")?;
                Options::parse_line(&line).map_err(|e| sqlx::Error::ColumnDecode {
                    index: "options".into(),
                    source: format!("`{line}`: {e}").into(),
                })?
            },
            rated: super::get_flag(row, "rated")?,
            status: ChallengeStatus::parse(&status).ok_or_else(|| sqlx::Error::ColumnDecode {
                index: "status".into(),
                source: format!("unknown challenge status `{status}`").into(),
            })?,
            message_id: row.try_get("message_id")?,
            game_id: row.try_get("game_id")?,
            created_at: row.try_get("created_at")?,
            expires_at: row.try_get("expires_at")?,
            seconds_per_move: row.try_get("seconds_per_move")?,
            challenger_first: super::get_flag(row, "challenger_first")?,
            rematch_of: row.try_get("rematch_of")?,
            time_control: match row.try_get::<Option<String>, _>("time_control")? {
                None => None,
                Some(stored) => {
                    Some(
                        TimeControl::decode(&stored).map_err(|e| sqlx::Error::ColumnDecode {
                            index: "time_control".into(),
                            source: format!("`{stored}`: {e}").into(),
                        })?,
                    )
                }
            },
            weekends_off: super::get_flag(row, "weekends_off")?,
            ratings: RatingRange {
                min: row.try_get("min_rating")?,
                max: row.try_get("max_rating")?,
            },
        })
    }
}

/// What is needed to create a challenge.
#[derive(Clone, Debug)]
pub struct NewChallenge<'a> {
    pub guild_id: Option<GuildId>,
    pub channel_id: ChannelId,
    pub challenger_id: UserId,
    /// `None`: an open challenge.
    pub opponent_id: Option<UserId>,
    pub options: &'a Options,
    pub rated: bool,
    pub now: i64,
    pub expires_at: i64,
    pub seconds_per_move: i64,
    pub challenger_first: bool,
    pub rematch_of: Option<i64>,
    pub time_control: TimeControl,
    pub weekends_off: bool,
    pub ratings: RatingRange,
}

/// Stores an open challenge; returns its id.
pub async fn insert_challenge(ex: impl Executor<'_>, c: &NewChallenge<'_>) -> Result<i64, DbError> {
    let id = sqlx::query_scalar(
        "INSERT INTO challenges (guild_id, channel_id, challenger_id, opponent_id, options, rated,
                                 status, created_at, expires_at, seconds_per_move,
                                 challenger_first, rematch_of, time_control, weekends_off,
                                 min_rating, max_rating)
         VALUES ($1, $2, $3, $4, $5, $6, 'open', $7, $8, $9, $10, $11, $12, $13, $14, $15)
         RETURNING id",
    )
    .bind(c.guild_id)
    .bind(c.channel_id)
    .bind(c.challenger_id)
    .bind(c.opponent_id)
    .bind(c.options.to_string())
    .bind(i64::from(c.rated))
    .bind(c.now)
    .bind(c.expires_at)
    .bind(c.seconds_per_move)
    .bind(i64::from(c.challenger_first))
    .bind(c.rematch_of)
    .bind(c.time_control.encode())
    .bind(i64::from(c.weekends_off))
    .bind(c.ratings.min)
    .bind(c.ratings.max)
    .fetch_one(ex)
    .await?;
    Ok(id)
}

pub async fn fetch_challenge(ex: impl Executor<'_>, id: i64) -> Result<Option<Challenge>, DbError> {
    Ok(sqlx::query_as("SELECT * FROM challenges WHERE id = $1")
        .bind(id)
        .fetch_optional(ex)
        .await?)
}

/// An open, unexpired challenge between `a` and `b` (either way) for the same game kind.
pub async fn find_open_challenge(
    ex: impl Executor<'_>,
    a: UserId,
    b: UserId,
    kind: GameKind,
    now: i64,
) -> Result<Option<Challenge>, DbError> {
    let rows = sqlx::query(
        "SELECT * FROM challenges
         WHERE status = 'open' AND expires_at > $4
           AND ((challenger_id = $1 AND opponent_id = $2) OR (challenger_id = $2 AND opponent_id = $1))
           AND (options = $3 OR options LIKE $3 || ' %')
         ORDER BY id",
    )
    .bind(a)
    .bind(b)
    .bind(kind.name())
    .bind(now)
    .fetch_all(ex)
    .await?;
    Ok(decode_each("challenges", &rows).into_iter().next())
}

/// The open, unexpired challenges to every member of server `guild`, oldest first.
pub async fn open_challenges_to_all(
    ex: impl Executor<'_>,
    guild: GuildId,
    now: i64,
) -> Result<Vec<Challenge>, DbError> {
    let rows = sqlx::query(
        "SELECT * FROM challenges
          WHERE guild_id = $1 AND opponent_id IS NULL AND status = 'open' AND expires_at > $2
          ORDER BY id",
    )
    .bind(guild)
    .bind(now)
    .fetch_all(ex)
    .await?;
    Ok(decode_each("challenges", &rows))
}

/// How many open, unexpired challenges `challenger` has made.
pub async fn count_open_challenges(
    ex: impl Executor<'_>,
    challenger: UserId,
    now: i64,
) -> Result<i64, DbError> {
    Ok(sqlx::query_scalar(
        "SELECT count(*) FROM challenges WHERE status = 'open' AND challenger_id = $1 AND expires_at > $2",
    )
    .bind(challenger)
    .bind(now)
    .fetch_one(ex)
    .await?)
}

/// Remembers the message showing the challenge (with its buttons).
pub async fn set_challenge_message(
    ex: impl Executor<'_>,
    id: i64,
    message_id: MessageId,
) -> Result<(), DbError> {
    sqlx::query("UPDATE challenges SET message_id = $2 WHERE id = $1")
        .bind(id)
        .bind(message_id)
        .execute(ex)
        .await?;
    Ok(())
}

/// Remembers `message_id` as the message showing the challenge, unless one is known already:
/// a challenge posted by the delivery can be answered from its message before the delivery has
/// stored it.
pub async fn remember_challenge_message(
    ex: impl Executor<'_>,
    id: i64,
    message_id: MessageId,
) -> Result<(), DbError> {
    sqlx::query("UPDATE challenges SET message_id = $2 WHERE id = $1 AND message_id IS NULL")
        .bind(id)
        .bind(message_id)
        .execute(ex)
        .await?;
    Ok(())
}

/// Closes every open challenge whose time ran out at `now`; returns them (each once: a second
/// scan finds them closed).
pub async fn expire_challenges(ex: impl Executor<'_>, now: i64) -> Result<Vec<Challenge>, DbError> {
    let rows = sqlx::query(
        "UPDATE challenges SET status = 'expired' WHERE status = 'open' AND expires_at <= $1
         RETURNING *",
    )
    .bind(now)
    .fetch_all(ex)
    .await?;
    Ok(decode_each("challenges", &rows))
}

/// Claims open challenge `id` for the game about to start, unless its time ran out at `now`:
/// `false` when it was no longer open (someone else accepted, declined, withdrew or expired it
/// first). Call it in the transaction that starts the game, then [`set_challenge_game`]: of two
/// transactions claiming one challenge, the second waits for the first and finds it taken.
pub async fn claim_challenge(ex: impl Executor<'_>, id: i64, now: i64) -> Result<bool, DbError> {
    let done = sqlx::query(
        "UPDATE challenges SET status = 'accepted'
          WHERE id = $1 AND status = 'open' AND expires_at > $2",
    )
    .bind(id)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Records the game that accepted challenge `id` started.
pub async fn set_challenge_game(ex: impl Executor<'_>, id: i64, game: i64) -> Result<(), DbError> {
    sqlx::query("UPDATE challenges SET game_id = $2 WHERE id = $1")
        .bind(id)
        .bind(game)
        .execute(ex)
        .await?;
    Ok(())
}

/// Closes an open challenge. `false` when it was no longer open (someone else closed it first).
pub async fn close_challenge(
    ex: impl Executor<'_>,
    id: i64,
    status: ChallengeStatus,
    game_id: Option<i64>,
) -> Result<bool, DbError> {
    let done = sqlx::query(
        "UPDATE challenges SET status = $2, game_id = $3 WHERE id = $1 AND status = 'open'",
    )
    .bind(id)
    .bind(status.as_str())
    .bind(game_id)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::testing::both_backends;
    use crate::db::upsert_player;

    both_backends! {
        async fn a_challenge_closes_once(pool) {
            let (a, b) = (UserId(u64::MAX - 1), UserId(42));
            upsert_player(&pool, a, "a", 0).await.unwrap();
            upsert_player(&pool, b, "b", 0).await.unwrap();
            let exxit = Options::parse_line("exxit tiles=39").unwrap();
            let new = NewChallenge {
                guild_id: Some(GuildId(7)),
                channel_id: ChannelId(8),
                challenger_id: a,
                opponent_id: Some(b),
                options: &exxit,
                rated: true,
                now: 100,
                expires_at: 200,
                seconds_per_move: 86400,
                challenger_first: true,
                rematch_of: None,
                time_control: TimeControl::PerMove { seconds: 86400 },
                weekends_off: false,
                ratings: RatingRange::ANY,
            };
            let id = insert_challenge(&pool, &new).await.unwrap();
            let c = fetch_challenge(&pool, id).await.unwrap().unwrap();
            assert_eq!((c.challenger_id, c.opponent_id), (a, Some(b)));
            assert_eq!(c.status, ChallengeStatus::Open);
            assert!(c.rated);
            // Found for the pair and game kind, either way round, until it expires.
            for (x, y) in [(a, b), (b, a)] {
                let dup = find_open_challenge(&pool, x, y, GameKind::Exxit, 150)
                    .await
                    .unwrap();
                assert_eq!(dup.map(|c| c.id), Some(id));
            }
            assert!(find_open_challenge(&pool, a, b, GameKind::Exxit, 250)
                .await
                .unwrap()
                .is_none());
            assert!(find_open_challenge(&pool, a, b, GameKind::Inphexion, 150)
                .await
                .unwrap()
                .is_none());
            assert_eq!(count_open_challenges(&pool, a, 150).await.unwrap(), 1);
            assert_eq!(count_open_challenges(&pool, b, 150).await.unwrap(), 0);
            assert!(close_challenge(&pool, id, ChallengeStatus::Declined, None)
                .await
                .unwrap());
            assert!(
                !close_challenge(&pool, id, ChallengeStatus::Accepted, Some(3))
                    .await
                    .unwrap()
            );
            let c = fetch_challenge(&pool, id).await.unwrap().unwrap();
            assert_eq!(c.status, ChallengeStatus::Declined);
            assert_eq!(c.game_id, None);
        }
    }

    both_backends! {
        async fn two_claims_of_an_open_challenge_start_one_game(pool) {
            let (ann, bob, cat) = (UserId(1), UserId(u64::MAX - 2), UserId(3));
            for p in [ann, bob, cat] {
                upsert_player(&pool, p, "p", 0).await.unwrap();
            }
            let exxit = Options::parse_line("exxit tiles=39").unwrap();
            let open = NewChallenge {
                guild_id: Some(GuildId(7)),
                channel_id: ChannelId(8),
                challenger_id: ann,
                opponent_id: None,
                options: &exxit,
                rated: true,
                now: 100,
                expires_at: 200,
                seconds_per_move: 86400,
                challenger_first: true,
                rematch_of: None,
                time_control: TimeControl::PerMove { seconds: 86400 },
                weekends_off: false,
                ratings: RatingRange { min: Some(1400), max: None },
            };
            let id = insert_challenge(&pool, &open).await.unwrap();
            let c = fetch_challenge(&pool, id).await.unwrap().unwrap();
            assert_eq!(c.opponent_id, None);
            assert_eq!(c.ratings, RatingRange { min: Some(1400), max: None });
            // It counts against its challenger's cap, and is no pair's challenge.
            assert_eq!(count_open_challenges(&pool, ann, 150).await.unwrap(), 1);
            assert!(find_open_challenge(&pool, ann, bob, GameKind::Exxit, 150)
                .await
                .unwrap()
                .is_none());
            let bobs = crate::db::NewGame {
                guild_id: Some(GuildId(7)),
                channel_id: ChannelId(8),
                options: &exxit,
                players: [ann, bob],
                rated: true,
                now: 150,
                seconds_per_move: 86400,
                deadline_at: None,
                clock: None,
            };
            // Bob claims it; Cat's claim, made while Bob's transaction is open, waits for it
            // and then finds the challenge taken.
            let mut first = pool.begin().await.unwrap();
            assert!(claim_challenge(&mut *first, id, 150).await.unwrap());
            let second = tokio::spawn({
                let pool = pool.clone();
                let exxit = exxit.clone();
                async move {
                    let mut tx = pool.begin().await.unwrap();
                    let claimed = claim_challenge(&mut *tx, id, 150).await.unwrap();
                    if claimed {
                        let g = crate::db::NewGame {
                            guild_id: Some(GuildId(7)),
                            channel_id: ChannelId(8),
                            options: &exxit,
                            players: [ann, cat],
                            rated: true,
                            now: 150,
                            seconds_per_move: 86400,
                            deadline_at: None,
                            clock: None,
                        };
                        let started = crate::db::insert_game(&mut *tx, &g).await.unwrap();
                        set_challenge_game(&mut *tx, id, started).await.unwrap();
                    }
                    tx.commit().await.unwrap();
                    claimed
                }
            });
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            let started = crate::db::insert_game(&mut *first, &bobs).await.unwrap();
            set_challenge_game(&mut *first, id, started).await.unwrap();
            first.commit().await.unwrap();
            assert!(!second.await.unwrap(), "the second claim finds it taken");
            let games: i64 = sqlx::query_scalar("SELECT count(*) FROM games")
                .fetch_one(&pool)
                .await
                .unwrap();
            assert_eq!(games, 1);
            let c = fetch_challenge(&pool, id).await.unwrap().unwrap();
            assert_eq!((c.status, c.game_id, c.opponent_id), (ChallengeStatus::Accepted, Some(started), None));
            assert_eq!(count_open_challenges(&pool, ann, 150).await.unwrap(), 0);
            // A challenge whose time ran out cannot be claimed, even before the expiry timer
            // closes it.
            let late = insert_challenge(&pool, &open).await.unwrap();
            assert!(!claim_challenge(&pool, late, 200).await.unwrap());
            assert!(claim_challenge(&pool, late, 199).await.unwrap());
        }
    }

    both_backends! {
        async fn challenges_expire_once(pool) {
            upsert_player(&pool, UserId(1), "a", 0).await.unwrap();
            upsert_player(&pool, UserId(2), "b", 0).await.unwrap();
            let exxit = Options::parse_line("exxit tiles=39").unwrap();
            let new = |expires_at| NewChallenge {
                guild_id: None,
                channel_id: ChannelId(8),
                challenger_id: UserId(1),
                opponent_id: Some(UserId(2)),
                options: &exxit,
                rated: false,
                now: 0,
                expires_at,
                seconds_per_move: 86400,
                challenger_first: true,
                rematch_of: None,
                time_control: TimeControl::PerMove { seconds: 86400 },
                weekends_off: false,
                ratings: RatingRange::ANY,
            };
            let early = insert_challenge(&pool, &new(100)).await.unwrap();
            let late = insert_challenge(&pool, &new(300)).await.unwrap();
            assert!(expire_challenges(&pool, 99).await.unwrap().is_empty());
            let gone: Vec<i64> = expire_challenges(&pool, 100)
                .await
                .unwrap()
                .iter()
                .map(|c| c.id)
                .collect();
            assert_eq!(gone, [early]);
            assert!(expire_challenges(&pool, 200).await.unwrap().is_empty());
            let c = fetch_challenge(&pool, late).await.unwrap().unwrap();
            assert_eq!(c.status, ChallengeStatus::Open);
            assert_eq!(c.seconds_per_move, 86400);
        }
    }
}
