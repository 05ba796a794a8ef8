//! Time in correspondence play: deadlines, reminders, vacations and how time left reads.
//!
//! Games with a time control ([`crate::db::GameClock`]) keep their turns with the one clock
//! function, [`crate::time_control::turn_times`]: [`off_time`] gathers when a player's clock
//! stops (weekends off in their zone, the game's pauses, their vacations), [`start_turn`] gives a
//! new turn's deadline and first reminder, and [`time_left_in_turn`] what the player to move has
//! left. Games stored before time controls keep the fixed rules below ([`deadline_after`]).

use super::Refusal;
use crate::db::{self, Conn, DbError, GameClock, GameRow, GuildId, UserId};
use crate::time_control::{self, OffTime, Turn, TurnTimes};

/// How long an open challenge waits for an answer.
pub const CHALLENGE_TTL_SECS: i64 = 24 * 3600;

pub use crate::time_control::DAY;

/// The time per move when the challenge does not choose one.
pub const DEFAULT_DAYS_PER_MOVE: i64 = 3;

/// Vacation days a player may take in any 365 days.
pub const VACATION_DAYS_PER_YEAR: i64 = 30;

/// When the player to move loses on time after a move at `now`: a full turn, counted from the
/// end of their vacation when they are away.
pub fn deadline_after(now: i64, seconds_per_move: i64, vacation_until: Option<i64>) -> i64 {
    vacation_until.map_or(now, |v| v.max(now)) + seconds_per_move
}

/// When the second reminder of a turn is due: a quarter of the time per move before the
/// deadline, at most a day before it.
pub fn last_reminder_before(seconds_per_move: i64) -> i64 {
    (seconds_per_move / 4).min(DAY)
}

/// Which reminder is due with `left` seconds to the deadline and `sent` already sent this turn:
/// the new count of reminders sent, or `None`. The first comes when half the time is left, the
/// second near the end; a bot that was down past both sends only the second.
pub fn reminder_due(seconds_per_move: i64, left: i64, sent: i64) -> Option<i64> {
    if left <= 0 {
        return None;
    }
    if sent < 2 && left <= last_reminder_before(seconds_per_move) {
        return Some(2);
    }
    if sent < 1 && left <= seconds_per_move / 2 {
        return Some(1);
    }
    None
}

/// Why a vacation of `days` is refused at a moment when the player is away until `away_until`
/// (if away) and took `used_seconds` of vacation in the last 365 days.
pub fn vacation_refusal(days: i64, away_until: Option<i64>, used_seconds: i64) -> Refusal {
    if let Some(until) = away_until {
        return Refusal::new(crate::text!("vacation-already", until = until));
    }
    let used = (used_seconds + DAY - 1) / DAY;
    let left = (VACATION_DAYS_PER_YEAR - used).max(0);
    Refusal::new(crate::text!(
        "vacation-too-long",
        left = left,
        cap = VACATION_DAYS_PER_YEAR,
        used = used,
        days = days
    ))
}

/// Where a clock runs: the game (`None` before it is stored: no pauses yet) and its server (whose
/// time zone is the default of its members).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockPlace {
    pub game: Option<i64>,
    pub guild: Option<GuildId>,
}

impl ClockPlace {
    /// The place of a stored game.
    pub fn of(row: &GameRow) -> ClockPlace {
        ClockPlace {
            game: Some(row.id),
            guild: row.guild_id,
        }
    }
}

/// When `player`'s clock stops in a game at `place` with `clock`: weekends in their time zone
/// (else their server's, else UTC) when the game takes weekends off, the game's agreed pauses,
/// and the player's vacations that end after `since`.
pub async fn off_time(
    conn: &mut Conn,
    place: ClockPlace,
    clock: &GameClock,
    player: UserId,
    since: i64,
) -> Result<OffTime, DbError> {
    let weekends = if clock.weekends_off {
        let own = db::fetch_time_settings(&mut *conn, player).await?.time_zone;
        let zone = match (own, place.guild) {
            (Some(z), _) => Some(z),
            (None, Some(g)) => db::fetch_server_clock(&mut *conn, g).await?.time_zone,
            (None, None) => None,
        };
        Some(zone.unwrap_or(chrono_tz::UTC))
    } else {
        None
    };
    let mut spans = match place.game {
        Some(game) => db::pause_spans(&mut *conn, game).await?,
        None => Vec::new(),
    };
    spans.extend(db::vacation_spans(&mut *conn, player, since).await?);
    Ok(OffTime::new(weekends, spans))
}

/// The next reminder of a turn after `sent` reminders: `None` when none is left before the
/// deadline.
pub fn next_reminder(times: &TurnTimes, sent: i64) -> Option<i64> {
    let i = usize::try_from(sent).ok()?;
    times
        .reminders
        .get(i)
        .copied()
        .filter(|&r| r < times.deadline)
}

/// The seat (0 or 1) of `player` in `players`.
pub fn seat_of(players: [UserId; 2], player: UserId) -> usize {
    usize::from(players[0] != player)
}

/// Starts the turn of the player in `seat` (`player`) at `now` with their bank in `clock` (its
/// `turn_started_at` and `remind_at` are set to match): the turn's deadline.
pub async fn start_turn(
    conn: &mut Conn,
    place: ClockPlace,
    clock: &mut GameClock,
    seat: usize,
    player: UserId,
    now: i64,
) -> Result<i64, DbError> {
    let off = off_time(conn, place, clock, player, now).await?;
    let times = time_control::turn_times(
        Turn {
            started_at: now,
            bank: clock.banks.get(seat).copied().unwrap_or(0),
        },
        &off,
    );
    clock.turn_started_at = now;
    clock.remind_at = next_reminder(&times, 0);
    Ok(times.deadline)
}

/// The first turn of a new game at `place` whose first seat is `first`: its deadline, and the
/// game's clock when it has a time control (else the fixed `seconds_per_move` from the end of
/// the player's vacation, as for games stored before time controls).
pub async fn first_turn(
    conn: &mut Conn,
    place: ClockPlace,
    control: Option<time_control::TimeControl>,
    weekends_off: bool,
    first: UserId,
    seconds_per_move: i64,
    now: i64,
) -> Result<(i64, Option<GameClock>), DbError> {
    let Some(control) = control else {
        let away = db::vacation_until(&mut *conn, first, now).await?;
        return Ok((deadline_after(now, seconds_per_move, away), None));
    };
    let bank = control.initial_bank();
    let mut clock = GameClock {
        control,
        weekends_off,
        banks: [bank, bank],
        turn_started_at: now,
        remind_at: None,
    };
    let deadline = start_turn(conn, place, &mut clock, 0, first, now).await?;
    Ok((deadline, Some(clock)))
}

/// The current turn of `player` (to move) in `row` with `clock`, the time off of that player,
/// and the turn's instants.
pub async fn current_turn(
    conn: &mut Conn,
    row: &GameRow,
    clock: &GameClock,
    player: UserId,
) -> Result<(Turn, OffTime, TurnTimes), DbError> {
    let off = off_time(
        conn,
        ClockPlace::of(row),
        clock,
        player,
        clock.turn_started_at,
    )
    .await?;
    let turn = Turn {
        started_at: clock.turn_started_at,
        bank: clock.banks[seat_of(row.players, player)],
    };
    let times = time_control::turn_times(turn, &off);
    Ok((turn, off, times))
}

/// What `player` has left of their turn at `now`.
pub async fn time_left_in_turn(
    conn: &mut Conn,
    row: &GameRow,
    clock: &GameClock,
    player: UserId,
    now: i64,
) -> Result<i64, DbError> {
    let (turn, off, _) = current_turn(conn, row, clock, player).await?;
    Ok(time_control::time_left(turn, &off, now))
}

/// What the player to move of active game `row` has left at `now`: their bank left with a time
/// control (the clock stopped on weekends off and pauses), else the time to the deadline. `None`
/// without a clock or once the game is over.
pub async fn time_left_of(
    conn: &mut Conn,
    row: &GameRow,
    now: i64,
) -> Result<Option<i64>, DbError> {
    let (Some(deadline), Some(player)) = (row.deadline_at, row.to_move) else {
        return Ok(None);
    };
    if row.status != db::GameStatus::Active {
        return Ok(None);
    }
    Ok(Some(match &row.clock {
        Some(clock) => time_left_in_turn(conn, row, clock, player, now).await?,
        None => (deadline - now).max(0),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reminders_come_at_half_time_and_near_the_end_once_each() {
        let day = DAY;
        assert_eq!(reminder_due(day, 13 * 3600, 0), None);
        assert_eq!(reminder_due(day, 12 * 3600, 0), Some(1));
        assert_eq!(reminder_due(day, 12 * 3600, 1), None);
        assert_eq!(reminder_due(day, 6 * 3600, 1), Some(2));
        assert_eq!(reminder_due(day, 6 * 3600, 2), None);
        // Down past both: only the second.
        assert_eq!(reminder_due(day, 3600, 0), Some(2));
        assert_eq!(reminder_due(day, 0, 0), None);
        assert_eq!(last_reminder_before(14 * day), day);
        assert_eq!(last_reminder_before(3 * day), 18 * 3600);
    }

    #[test]
    fn deadlines_wait_for_the_end_of_a_vacation() {
        assert_eq!(deadline_after(100, 50, None), 150);
        assert_eq!(deadline_after(100, 50, Some(400)), 450);
        assert_eq!(deadline_after(100, 50, Some(20)), 150);
    }

    #[test]
    fn vacation_refusals_say_what_is_left() {
        assert!(vacation_refusal(31, None, 0)
            .0
            .render(crate::i18n::Lang::EN)
            .contains("1 to 30"));
        assert!(vacation_refusal(5, None, 26 * DAY)
            .0
            .render(crate::i18n::Lang::EN)
            .contains("1 to 4"));
        assert!(vacation_refusal(5, None, 26 * DAY - 5)
            .0
            .render(crate::i18n::Lang::EN)
            .contains("you took 26"));
        assert!(vacation_refusal(1, Some(500), 0)
            .0
            .render(crate::i18n::Lang::EN)
            .contains("already on vacation"));
    }
}
