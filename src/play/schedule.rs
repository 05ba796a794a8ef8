//! Time in correspondence play: deadlines, reminders, vacations and how time left reads.

use super::Refusal;

/// How long an open challenge waits for an answer.
pub const CHALLENGE_TTL_SECS: i64 = 24 * 3600;

pub const DAY: i64 = 24 * 3600;

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
