//! The one background task: losses on time, reminders and challenge expiry.
//!
//! Everything it acts on is a row: a game's `deadline_at` and `reminders_sent`, a challenge's
//! `expires_at`. Each scan asks the database what is due at the clock's time and claims each
//! item with a conditional write (the game's version, the reminder count, the challenge's
//! status) before announcing it, so a restart, a bot that was down when a deadline passed, or two
//! scans overlapping handle every item exactly once. [`scan`] decides and stores; [`deliver`]
//! posts the messages.

use std::time::Duration;

use poise::serenity_prelude as serenity;
use sqlx::SqlitePool;
use tracing::{error, info, warn};

use super::logic::{finish_by_timeout, format_left, mention, player_to_move, reminder_due};
use super::present::{post_board, Notify};
use super::BotError;
use crate::clock::Clock;
use crate::db::{self, Challenge, DbError, GameRow, ReminderMode};

/// Something a scan did that people should hear about.
#[derive(Clone, Debug, PartialEq)]
pub enum Notice {
    /// The game ended on time; `loser` ran out.
    TimedOut { game: i64, loser: u64 },
    /// `player` is to move in `game` with `left` seconds to go.
    Reminder {
        game: GameRow,
        player: u64,
        mode: ReminderMode,
        left: i64,
    },
    /// An open challenge ran out without an answer.
    Expired(Challenge),
}

/// Applies everything due at `now`: timeouts (rated ones update the ratings in the same
/// transaction), reminders, expired challenges. Returns what to announce.
pub async fn scan(pool: &SqlitePool, now: i64) -> Result<Vec<Notice>, DbError> {
    let mut notices = Vec::new();
    for row in db::games_past_deadline(pool, now).await? {
        let mut conn = pool.acquire().await?;
        let (row, game) = match db::load_game(&mut conn, row.id).await {
            Ok(Some(found)) => found,
            Ok(None) => continue,
            Err(e @ DbError::Corrupt { .. }) => {
                error!("cannot time out: {e}");
                continue;
            }
            Err(e) => return Err(e),
        };
        let loser = player_to_move(&row, &game);
        let finish = finish_by_timeout(&row, &game);
        let mut tx = pool.begin().await?;
        if db::time_out_game(&mut *tx, row.id, row.version, &finish, now).await? {
            crate::rating::apply_result(&mut tx, row.id).await?;
            tx.commit().await?;
            info!(game = row.id, loser, "lost on time");
            notices.push(Notice::TimedOut {
                game: row.id,
                loser,
            });
        }
    }
    for row in db::games_needing_reminders(pool, now).await? {
        let Some(deadline) = row.deadline_at else {
            continue;
        };
        let left = deadline - now;
        let Some(to) = reminder_due(row.seconds_per_move, left, row.reminders_sent) else {
            continue;
        };
        let mut conn = pool.acquire().await?;
        let (row, game) = match db::load_game(&mut conn, row.id).await {
            Ok(Some(found)) => found,
            Ok(None) => continue,
            Err(e @ DbError::Corrupt { .. }) => {
                error!("cannot remind: {e}");
                continue;
            }
            Err(e) => return Err(e),
        };
        if !db::claim_reminder(pool, row.id, row.version, row.reminders_sent, to).await? {
            continue;
        }
        let player = player_to_move(&row, &game);
        let mode = db::fetch_reminder_mode(pool, player).await?;
        if mode != ReminderMode::Off {
            notices.push(Notice::Reminder {
                game: row,
                player,
                mode,
                left,
            });
        }
    }
    for c in db::expire_challenges(pool, now).await? {
        notices.push(Notice::Expired(c));
    }
    Ok(notices)
}

/// The reminder's text.
pub fn reminder_text(game: &GameRow, player: u64, left: i64) -> String {
    let opponent = game
        .players
        .iter()
        .copied()
        .find(|&p| p != player)
        .unwrap_or(player);
    let kind = game
        .kind
        .parse::<crate::games::GameKind>()
        .map_or("", |k| k.title());
    format!(
        "⏰ Reminder: {}, it is your move in **{kind}** game #{} against {} in <#{}>. {} left{}. Play with `/move`; `/settings` turns reminders off.",
        mention(player),
        game.id,
        mention(opponent),
        game.channel_id,
        format_left(left),
        game.deadline_at
            .map(|d| format!(" (until <t:{d}:f>)"))
            .unwrap_or_default(),
    )
}

/// Posts what a scan found. Failures are logged; the item stays handled (a reminder is not sent
/// twice).
pub async fn deliver(http: &serenity::Http, pool: &SqlitePool, notice: Notice) {
    let what = format!("{notice:?}");
    if let Err(e) = try_deliver(http, pool, notice).await {
        match e {
            BotError::User(text) => warn!("could not announce {what}: {text}"),
            BotError::Internal(e) => error!("could not announce {what}: {e:#}"),
        }
    }
}

async fn try_deliver(
    http: &serenity::Http,
    pool: &SqlitePool,
    notice: Notice,
) -> Result<(), BotError> {
    match notice {
        Notice::TimedOut { game, loser } => {
            let intro = format!("{} ran out of time.", mention(loser));
            post_board(http, pool, game, &intro, None, Notify::Players).await?;
        }
        Notice::Reminder {
            game,
            player,
            mode,
            left,
        } => {
            let text = reminder_text(&game, player, left);
            let message = || {
                serenity::CreateMessage::new()
                    .content(text.clone())
                    .allowed_mentions(
                        serenity::CreateAllowedMentions::new()
                            .users([serenity::UserId::new(player)]),
                    )
            };
            if mode == ReminderMode::Dm {
                let sent = async {
                    let dm = serenity::UserId::new(player)
                        .create_dm_channel(http)
                        .await?;
                    dm.id.send_message(http, message()).await
                }
                .await;
                match sent {
                    Ok(_) => return Ok(()),
                    // Direct messages closed: remind in the game's channel instead.
                    Err(e) => info!(
                        player,
                        "no direct message possible ({e}); reminding in the channel"
                    ),
                }
            }
            serenity::ChannelId::new(game.channel_id)
                .send_message(http, message())
                .await?;
        }
        Notice::Expired(c) => {
            if let Some(message) = c.message_id {
                let text = format!(
                    "The challenge of {} to {} (`{}`) expired without an answer.",
                    mention(c.challenger_id),
                    mention(c.opponent_id),
                    c.options
                );
                serenity::ChannelId::new(c.channel_id)
                    .edit_message(
                        http,
                        serenity::MessageId::new(message),
                        serenity::EditMessage::new()
                            .content(text)
                            .components(Vec::new())
                            .allowed_mentions(serenity::CreateAllowedMentions::new()),
                    )
                    .await?;
            }
        }
    }
    Ok(())
}

/// Scans every `every` (the first scan at once, catching up on what happened while the bot was
/// down) and announces what it found. Runs until the bot stops.
pub async fn run(
    http: std::sync::Arc<serenity::Http>,
    pool: SqlitePool,
    clock: Clock,
    every: Duration,
) {
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        match scan(&pool, clock.now()).await {
            Ok(notices) => {
                for n in notices {
                    deliver(&http, &pool, n).await;
                }
            }
            Err(e) => error!("timer scan failed: {e}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::logic::DAY;
    use crate::db::testing::temp_db;
    use crate::db::{GameStatus, NewChallenge, NewGame};

    const T0: i64 = 1_800_000_000;
    const ANN: u64 = 11;
    const BOB: u64 = u64::MAX - 3;

    async fn setup(pool: &SqlitePool, rated: bool) -> i64 {
        crate::db::upsert_player(pool, ANN, "ann", T0)
            .await
            .unwrap();
        crate::db::upsert_player(pool, BOB, "bob", T0)
            .await
            .unwrap();
        crate::db::insert_game(
            pool,
            &NewGame {
                guild_id: Some(77),
                channel_id: 88,
                kind: "inphexion",
                options: "inphexion size=5",
                players: [ANN, BOB],
                rated,
                now: T0,
                seconds_per_move: DAY,
                deadline_at: T0 + DAY,
            },
        )
        .await
        .unwrap()
    }

    fn reminded(notices: &[Notice]) -> Vec<(i64, u64)> {
        notices
            .iter()
            .filter_map(|n| match n {
                Notice::Reminder { game, player, .. } => Some((game.id, *player)),
                _ => None,
            })
            .collect()
    }

    #[tokio::test]
    async fn reminders_then_a_loss_on_time_each_once_across_restarts() {
        let (pool, _f) = temp_db().await;
        let id = setup(&pool, true).await;
        // Nothing before half time; each scan below may come from a restarted bot.
        assert!(scan(&pool, T0 + 11 * 3600).await.unwrap().is_empty());
        let first = scan(&pool, T0 + 12 * 3600).await.unwrap();
        assert_eq!(reminded(&first), [(id, ANN)]);
        assert!(scan(&pool, T0 + 12 * 3600 + 60).await.unwrap().is_empty());
        let second = scan(&pool, T0 + 18 * 3600).await.unwrap();
        assert_eq!(reminded(&second), [(id, ANN)]);
        assert!(scan(&pool, T0 + 20 * 3600).await.unwrap().is_empty());
        // The deadline passes while the bot is down; the next scan ends the game once.
        let out = scan(&pool, T0 + DAY + 5000).await.unwrap();
        assert_eq!(
            out,
            [Notice::TimedOut {
                game: id,
                loser: ANN
            }]
        );
        assert!(scan(&pool, T0 + DAY + 6000).await.unwrap().is_empty());
        let row = db::fetch_game(&pool, id).await.unwrap().unwrap();
        assert_eq!(row.status, GameStatus::Finished);
        assert_eq!(row.winner_id, Some(BOB));
        assert_eq!(row.result.as_deref(), Some("black wins: timeout"));
        assert_eq!(row.deadline_at, None);
        // Rated: both players have a rating now, the winner above the loser.
        let ann = db::fetch_rating(&pool, 77, "inphexion", ANN)
            .await
            .unwrap()
            .unwrap();
        let bob = db::fetch_rating(&pool, 77, "inphexion", BOB)
            .await
            .unwrap()
            .unwrap();
        assert!(bob.rating > 1500.0 && ann.rating < 1500.0);
        assert_eq!((bob.wins, ann.losses, bob.games), (1, 1, 1));
    }

    #[tokio::test]
    async fn a_move_restarts_the_turn_and_its_reminders() {
        let (pool, _f) = temp_db().await;
        let id = setup(&pool, false).await;
        assert_eq!(
            reminded(&scan(&pool, T0 + 13 * 3600).await.unwrap()),
            [(id, ANN)]
        );
        let now = T0 + 14 * 3600;
        let mut tx = pool.begin().await.unwrap();
        db::record_move(&mut tx, id, 0, "c3", ANN, now, None, Some(now + DAY))
            .await
            .unwrap();
        tx.commit().await.unwrap();
        // The old deadline no longer applies; Bob gets his own reminder at his half time.
        assert!(scan(&pool, T0 + DAY + 60).await.unwrap().is_empty());
        assert_eq!(
            reminded(&scan(&pool, now + 12 * 3600).await.unwrap()),
            [(id, BOB)]
        );
        // Unrated: a loss on time leaves the ratings alone.
        let out = scan(&pool, now + DAY).await.unwrap();
        assert_eq!(
            out,
            [Notice::TimedOut {
                game: id,
                loser: BOB
            }]
        );
        assert!(db::all_ratings(&pool).await.unwrap().is_empty());
    }

    #[tokio::test]
    async fn reminders_turned_off_are_not_sent_and_a_late_scan_sends_one() {
        let (pool, _f) = temp_db().await;
        let id = setup(&pool, false).await;
        // Down past both reminder times: only the second comes.
        let late = scan(&pool, T0 + 20 * 3600).await.unwrap();
        assert_eq!(reminded(&late), [(id, ANN)]);
        assert!(scan(&pool, T0 + 21 * 3600).await.unwrap().is_empty());

        let (pool, _g) = temp_db().await;
        setup(&pool, false).await;
        db::set_reminder_mode(&pool, ANN, ReminderMode::Off, T0)
            .await
            .unwrap();
        assert!(scan(&pool, T0 + 12 * 3600).await.unwrap().is_empty());
        assert!(scan(&pool, T0 + 20 * 3600).await.unwrap().is_empty());
    }

    #[tokio::test]
    async fn a_vacation_pauses_the_deadline() {
        let (pool, _f) = temp_db().await;
        let id = setup(&pool, false).await;
        // Ann goes away for two days at T0 + 1 h: her deadline moves by two days.
        db::insert_vacation(&pool, ANN, T0 + 3600, T0 + 3600 + 2 * DAY)
            .await
            .unwrap();
        assert!(db::extend_deadline(&pool, id, 0, 2 * DAY).await.unwrap());
        assert!(scan(&pool, T0 + DAY + 60).await.unwrap().is_empty());
        assert_eq!(
            db::fetch_game(&pool, id).await.unwrap().unwrap().status,
            GameStatus::Active
        );
        let out = scan(&pool, T0 + 3 * DAY).await.unwrap();
        assert!(
            out.contains(&Notice::TimedOut {
                game: id,
                loser: ANN
            }),
            "{out:?}"
        );
    }

    #[tokio::test]
    async fn open_challenges_expire_once() {
        let (pool, _f) = temp_db().await;
        setup(&pool, false).await;
        let c = db::insert_challenge(
            &pool,
            &NewChallenge {
                guild_id: Some(77),
                channel_id: 88,
                challenger_id: ANN,
                opponent_id: BOB,
                options: "exxit tiles=39",
                rated: true,
                now: T0,
                expires_at: T0 + 100,
                seconds_per_move: DAY,
            },
        )
        .await
        .unwrap();
        assert!(scan(&pool, T0 + 99).await.unwrap().is_empty());
        let out = scan(&pool, T0 + 100).await.unwrap();
        assert!(
            matches!(out.as_slice(), [Notice::Expired(x)] if x.id == c),
            "{out:?}"
        );
        assert!(scan(&pool, T0 + 200).await.unwrap().is_empty());
    }

    #[test]
    fn the_reminder_names_the_game_and_the_time_left() {
        let row = GameRow {
            id: 5,
            guild_id: Some(1),
            channel_id: 2,
            options: "exxit tiles=39".into(),
            players: [10, 20],
            rated: true,
            status: crate::db::GameStatus::Active,
            result: None,
            winner_id: None,
            board_message_id: None,
            version: 3,
            created_at: 0,
            updated_at: 0,
            finished_at: None,
            kind: "exxit".into(),
            seconds_per_move: DAY,
            deadline_at: Some(DAY),
            reminders_sent: 0,
        };
        let text = reminder_text(&row, 20, 6 * 3600);
        assert!(text.contains("<@20>") && text.contains("<@10>"), "{text}");
        assert!(text.contains("EXXIT") && text.contains("#5") && text.contains("6 h 0 min"));
    }
}
