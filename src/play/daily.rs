//! The daily puzzle: a server's moderators choose a channel and an hour (`/daily_puzzle`), and
//! each day at that hour, in the server's time zone, the timers ([`super::timers`]) post there a
//! puzzle never posted in the server before, with its picture, the side to move, its difficulty
//! and a Solve button (members solve it privately, as with `/puzzle`; the first attempt counts
//! for their puzzle rating). The day's post first gives the previous puzzle's solution, in
//! words, and who solved it (names, no pings).
//!
//! - **Once a day.** The post's row ([`crate::db::claim_daily_post`]: one per server and local
//!   day, one per server and puzzle) is written in the transaction that queues the messages, so a
//!   restart or two processes never post twice the same day, and never the same puzzle twice in
//!   a server. The local day and hour come from the clock ([`crate::clock`]) and the server's time
//!   zone (`/server timezone`, UTC without one), as the daily digest's do: DST changes neither
//!   skip nor repeat a day.
//! - **None left.** When every puzzle was posted in the server, the channel is told once, with
//!   the last puzzle's solution ([`crate::db::claim_daily_exhausted`]), and the post comes back
//!   with the next new puzzle.
//! - **Failures.** The posts go through the delivery queue ([`crate::db::Target::DailyPuzzle`]
//!   draws the picture when it is posted); a post Discord refuses for good (the channel gone, a
//!   permission removed) is told by direct message to the moderator who chose the setting, as
//!   every refused post is told to the members concerned.

use tracing::{error, info};

use super::actions::Core;
use super::Error;
use crate::db::{self, Announcement, DailyPost, DailyPuzzle, Target};
use crate::i18n::{Lang, Text};
use crate::text;
use crate::time_control::local_day_and_hour;

/// Posts the daily puzzles due at the clock's time: in each server whose hour has come today
/// (in its time zone) with no post yet today. Returns how many were queued; one server's
/// failure is logged and never stops the others.
pub async fn post_daily_puzzles(core: &Core) -> Result<usize, Error> {
    let now = core.clock.now();
    let mut posted = 0;
    for scheduled in db::scheduled_daily_puzzles(&core.pool).await? {
        let zone = scheduled.time_zone.unwrap_or(chrono_tz::UTC);
        let Some((day, hour)) = local_day_and_hour(zone, now) else {
            continue;
        };
        if hour < scheduled.daily.hour || scheduled.last_day.is_some_and(|d| d >= day) {
            continue;
        }
        match post_daily(core, &scheduled.daily, day, now).await {
            Ok(true) => posted += 1,
            Ok(false) => {}
            Err(e) => error!(guild = %scheduled.daily.guild, "cannot post the daily puzzle: {e:?}"),
        }
    }
    Ok(posted)
}

/// Claims and queues `daily`'s post of local day `day`: the previous puzzle's solution, then
/// the new puzzle. `false` when another scan claimed the day first, or no puzzle is left (the
/// channel is then told once).
async fn post_daily(core: &Core, daily: &DailyPuzzle, day: i64, now: i64) -> Result<bool, Error> {
    let guild = daily.guild;
    let mut tx = core.pool.begin().await?;
    let lang = super::server_lang(&mut *tx, Some(guild)).await?;
    let say = |content: String| Announcement {
        target: Target::Channel {
            channel: daily.channel,
        },
        content,
        mentions: Vec::new(),
        board: None,
        concerned: vec![daily.set_by],
        lang: lang.tag().to_string(),
    };
    // The previous puzzle's solution, unless it was given with the notice that none is left.
    let previous = match daily.exhausted {
        true => None,
        false => db::daily_post_before(&mut *tx, guild, day).await?,
    };
    let Some(puzzle_id) = db::next_daily_puzzle(&mut *tx, guild).await? else {
        if db::claim_daily_exhausted(&mut *tx, guild, now).await? {
            if let Some(previous) = &previous {
                let solution = solution_text(&mut tx, previous, lang).await?;
                db::enqueue(&mut *tx, None, &say(solution.render(lang))).await?;
                take_buttons(&mut tx, previous, &say).await?;
            }
            let none = say(text!("daily-puzzle-none-left").render(lang));
            db::enqueue(&mut *tx, None, &none).await?;
            tx.commit().await?;
            core.wake_delivery();
            info!(%guild, "no daily puzzle left to post");
        }
        return Ok(false);
    };
    let post = DailyPost {
        guild,
        day,
        puzzle: puzzle_id,
        channel: daily.channel,
        message: None,
        posted_at: now,
    };
    if !db::claim_daily_post(&mut tx, &post).await? {
        return Ok(false);
    }
    let puzzle = db::fetch_puzzle(&mut *tx, puzzle_id)
        .await?
        .ok_or_else(|| anyhow::anyhow!("puzzle {puzzle_id} vanished"))?;
    if let Some(previous) = &previous {
        let solution = solution_text(&mut tx, previous, lang).await?;
        db::enqueue(&mut *tx, None, &say(solution.render(lang))).await?;
        take_buttons(&mut tx, previous, &say).await?;
    }
    let announcement = Announcement {
        target: Target::DailyPuzzle {
            channel: daily.channel,
            guild,
            day,
            puzzle: puzzle_id,
        },
        ..say(puzzle_text(&puzzle.puzzle)?.render(lang))
    };
    db::enqueue(&mut *tx, None, &announcement).await?;
    tx.commit().await?;
    core.wake_delivery();
    info!(%guild, day, puzzle = puzzle_id, "daily puzzle queued");
    Ok(true)
}

/// Queues the removal of `previous`'s Solve button (its solution is out), once it was posted.
async fn take_buttons(
    tx: &mut db::Conn,
    previous: &DailyPost,
    say: &impl Fn(String) -> Announcement,
) -> Result<(), Error> {
    if let Some(message) = previous.message {
        let take = Announcement {
            target: Target::TakeButtons {
                channel: previous.channel,
                message,
            },
            ..say(String::new())
        };
        db::enqueue(&mut *tx, None, &take).await?;
    }
    Ok(())
}

/// The words of a daily post: the game, the side to move, the difficulty.
pub fn puzzle_text(puzzle: &crate::puzzles::Puzzle) -> Result<Text, Error> {
    let game = puzzle.game().map_err(|e| anyhow::anyhow!(e))?;
    let kind = game.kind();
    Ok(text!(
        "daily-puzzle",
        game = kind.title(),
        colour = super::words::colour(kind, puzzle.solver()),
        difficulty = i64::from(puzzle.difficulty)
    ))
}

/// The most solvers a daily solution names, first solvers first; the others are counted ("and
/// 90 more"), so that the post stays within Discord's 2,000 characters with the longest names
/// (32 characters) and a long line in words.
pub const NAMED_SOLVERS: usize = 30;

/// The previous post's news: its puzzle's solution in words and who solved it (names, never
/// mentions; at most [`NAMED_SOLVERS`]), from the members' first attempts in the server since it
/// was posted.
async fn solution_text(tx: &mut db::Conn, previous: &DailyPost, lang: Lang) -> Result<Text, Error> {
    let Some(stored) = db::fetch_puzzle(&mut *tx, previous.puzzle).await? else {
        return Err(anyhow::anyhow!("puzzle {} vanished", previous.puzzle).into());
    };
    let line = super::puzzles::line_words(lang, &stored.puzzle, 0, stored.puzzle.solution.len());
    let solvers = db::daily_solvers(
        &mut *tx,
        previous.guild,
        previous.puzzle,
        previous.posted_at,
    )
    .await?;
    let count = solvers.len();
    let mut names = Vec::with_capacity(count.min(NAMED_SOLVERS));
    for user in solvers.into_iter().take(NAMED_SOLVERS) {
        let name = db::fetch_name(&mut *tx, user).await?;
        names.push(super::words::name_in(lang, name, || {
            crate::i18n::tr(lang, "former-member")
        }));
    }
    let mut named = names.join(", ");
    if count > names.len() {
        let more = text!("daily-puzzle-more", count = (count - names.len()) as i64);
        named.push_str(&more.render(lang));
    }
    let solved = if names.is_empty() {
        text!("daily-puzzle-nobody")
    } else {
        text!(
            "daily-puzzle-solved-by",
            count = count as i64,
            names = named
        )
    };
    Ok(text!("daily-puzzle-solution", line = line, solved = solved))
}

/// `user`'s attempt at daily puzzle `puzzle` of `guild`, in the server's pool (it counts for
/// their puzzle rating there, as with `/puzzle`), with the puzzle: started now, or taken up
/// while still open. Refused when the press is not on the server's current daily puzzle
/// ([`check_solve`]), or when they tried this puzzle before (only the first attempt counts).
pub async fn give_daily(
    pool: &db::Pool,
    user: db::UserId,
    guild: db::GuildId,
    puzzle: i64,
    now: i64,
) -> Result<(db::AttemptRow, db::PuzzleRow), Error> {
    check_solve(pool, guild, puzzle).await?;
    let Some(stored) = db::fetch_puzzle(pool, puzzle).await? else {
        return Err(super::Refusal::new(text!("daily-puzzle-unknown")).into());
    };
    db::start_attempt(pool, puzzle, user, guild, now).await?;
    let Some(attempt) = db::attempt_at(pool, puzzle, user).await? else {
        return Err(anyhow::anyhow!("the attempt of {user} at puzzle {puzzle} vanished").into());
    };
    if attempt.status != db::AttemptStatus::Open {
        return Err(super::Refusal::new(text!("daily-puzzle-tried")).into());
    }
    Ok((attempt, stored))
}

/// Checks a Solve pressed in `guild` on puzzle `puzzle`: refused when the server never posted
/// it as its daily puzzle (a forged button), or when a newer daily puzzle replaced it (its
/// solution is out).
pub async fn check_solve(pool: &db::Pool, guild: db::GuildId, puzzle: i64) -> Result<(), Error> {
    let Some(post) = db::daily_post_of(pool, guild, puzzle).await? else {
        return Err(super::Refusal::new(text!("daily-puzzle-unknown")).into());
    };
    let latest = db::daily_post_before(pool, guild, i64::MAX).await?;
    if latest.map(|l| l.day) != Some(post.day) {
        return Err(super::Refusal::new(text!("daily-puzzle-over")).into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::Clock;
    use crate::db::testing::temp_db;
    use crate::db::{ChannelId, GuildId, UserId};
    use crate::games::{Game, Options};
    use crate::play::schedule::DAY;
    use std::sync::atomic::Ordering;

    const GUILD: GuildId = GuildId(41);
    const MOD: UserId = UserId(42);
    /// 09:00 in New York on Saturday 9 March 2030 (EST), and on Sunday 10 March (EDT: the
    /// clocks went forward that night).
    const SATURDAY_9: i64 = 1_899_295_200;
    const SUNDAY_9: i64 = 1_899_378_000;

    async fn stored_puzzle(pool: &db::Pool, ply: usize) -> i64 {
        let variant = "inphexion size=5";
        let mut game = Game::new(Options::parse_line(variant).unwrap());
        for _ in 0..ply {
            let mv = game.legal_moves()[0];
            game.play(mv).unwrap();
        }
        let pos = game.position();
        let puzzle = crate::puzzles::Puzzle {
            variant: variant.to_string(),
            position: pos.to_line(),
            to_move: pos.to_move().index() as u8,
            solution: game.legal_notations().into_iter().take(1).collect(),
            difficulty: 3,
            chance: 0.9,
            second: 0.2,
            source: crate::puzzles::Source::default(),
            proof: None,
        };
        db::store_puzzle(pool, &puzzle, db::Origin::Starter, 1)
            .await
            .unwrap()
            .unwrap()
    }

    async fn queued(pool: &db::Pool) -> Vec<Announcement> {
        let bodies: Vec<String> = sqlx::query_scalar("SELECT body FROM announcements ORDER BY id")
            .fetch_all(pool)
            .await
            .unwrap();
        bodies
            .iter()
            .map(|b| serde_json::from_str(b).unwrap())
            .collect()
    }

    /// A solution solved by 120 members names the first 30, counts the others, and fits a
    /// Discord message with the longest names.
    #[tokio::test]
    async fn a_solution_names_the_first_solvers_and_counts_the_rest() {
        let (pool, _f) = temp_db().await;
        let puzzle = stored_puzzle(&pool, 0).await;
        for i in 0..120u64 {
            let user = UserId(1000 + i);
            db::upsert_player(&pool, user, &format!("{i:03}{}", "x".repeat(29)), 1)
                .await
                .unwrap();
            db::start_attempt(&pool, puzzle, user, GUILD, 10 + i as i64)
                .await
                .unwrap();
        }
        sqlx::query("UPDATE puzzle_attempts SET status = 'solved', finished_at = started_at")
            .execute(&pool)
            .await
            .unwrap();
        let previous = DailyPost {
            guild: GUILD,
            day: 1,
            puzzle,
            channel: ChannelId(43),
            message: None,
            posted_at: 5,
        };
        let mut conn = pool.acquire().await.unwrap();
        for lang in [Lang::EN, Lang::of("ja")] {
            let text = solution_text(&mut conn, &previous, lang)
                .await
                .unwrap()
                .render(lang);
            assert!(
                text.chars().count() <= crate::bot::limits::CONTENT,
                "{text}"
            );
            assert!(text.contains("000xxx") && text.contains("029xxx"), "{text}");
            assert!(!text.contains("030xxx"), "{text}");
            if lang == Lang::EN {
                assert!(
                    text.contains("Solved by 120 members: ") && text.ends_with(" and 90 more."),
                    "{text}"
                );
            } else {
                assert!(text.contains("ほか90人"), "{text}");
            }
        }
    }

    /// At the hour in the server's zone (across a change to summer time), once a day whatever
    /// the scans, each puzzle once, the solution before the next, and "none left" said once.
    #[tokio::test]
    async fn posted_at_the_local_hour_once_a_day_each_puzzle_once() {
        let (pool, _f) = temp_db().await;
        let (clock, t) = Clock::fixed(SATURDAY_9 - 60);
        let core = Core::new(pool, clock);
        let pool = &core.pool;
        let first = stored_puzzle(pool, 0).await;
        let second = stored_puzzle(pool, 1).await;
        db::store_server_clock(
            pool,
            GUILD,
            db::ServerClock {
                time_zone: crate::time_control::time_zone("America/New_York"),
                weekends_off: false,
            },
            1,
        )
        .await
        .unwrap();
        db::set_daily_puzzle(pool, GUILD, ChannelId(7), 9, MOD, 1)
            .await
            .unwrap();
        let at = |s: i64| t.store(s, Ordering::SeqCst);
        assert_eq!(post_daily_puzzles(&core).await.unwrap(), 0, "08:59");
        at(SATURDAY_9);
        assert_eq!(post_daily_puzzles(&core).await.unwrap(), 1);
        at(SATURDAY_9 + 3600);
        assert_eq!(post_daily_puzzles(&core).await.unwrap(), 0, "once a day");
        let sent = queued(pool).await;
        assert_eq!(sent.len(), 1);
        assert_eq!(
            sent[0].target,
            Target::DailyPuzzle {
                channel: ChannelId(7),
                guild: GUILD,
                day: db::daily_post_before(pool, GUILD, i64::MAX)
                    .await
                    .unwrap()
                    .unwrap()
                    .day,
                puzzle: first
            }
        );
        assert_eq!(sent[0].concerned, vec![MOD]);
        assert!(
            sent[0].content.contains("difficulty 3/5"),
            "{}",
            sent[0].content
        );
        // Sunday 08:59 local is 12:59 UTC (it was 13:59 UTC on Saturday): not yet.
        at(SUNDAY_9 - 60);
        assert_eq!(post_daily_puzzles(&core).await.unwrap(), 0);
        at(SUNDAY_9);
        assert_eq!(post_daily_puzzles(&core).await.unwrap(), 1);
        let sent = queued(pool).await;
        assert_eq!(sent.len(), 3, "{sent:?}");
        assert!(
            sent[1].content.contains("solution") && sent[1].content.contains("Nobody solved it"),
            "{}",
            sent[1].content
        );
        assert!(sent[1].mentions.is_empty());
        assert!(matches!(sent[2].target, Target::DailyPuzzle { puzzle, .. } if puzzle == second));
        // Monday: none left, said once; Tuesday: nothing.
        at(SUNDAY_9 + DAY);
        assert_eq!(post_daily_puzzles(&core).await.unwrap(), 0);
        at(SUNDAY_9 + 2 * DAY);
        assert_eq!(post_daily_puzzles(&core).await.unwrap(), 0);
        let sent = queued(pool).await;
        assert_eq!(sent.len(), 5, "{sent:?}");
        assert!(sent[3].content.contains("solution"), "{}", sent[3].content);
        assert!(sent[4].content.contains("Every puzzle has been posted"));
        // A new puzzle brings the post back.
        let third = stored_puzzle(pool, 2).await;
        at(SUNDAY_9 + 3 * DAY);
        assert_eq!(post_daily_puzzles(&core).await.unwrap(), 1);
        // Its solution was given already: only the new puzzle.
        let sent = queued(pool).await;
        assert_eq!(sent.len(), 6, "{sent:?}");
        assert!(matches!(
            sent[5].target,
            Target::DailyPuzzle { puzzle, .. } if puzzle == third
        ));
    }
}
