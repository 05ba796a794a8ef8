//! Correspondence clocks: the time controls a game can have, and the one function that turns a
//! turn's bank into its deadline and reminders around the time when no clock runs.
//!
//! A game's [`TimeControl`] is either a fixed time per move (each turn starts with the same
//! bank) or a Fischer clock counted in days: each player starts with a bank, gains an increment
//! after each of their moves, and never holds more than the cap. A turn starts with the bank of
//! the player to move; the clock runs except during [`OffTime`]: a weekend off (Saturday 00:00 to
//! Monday 00:00 in a time zone, so daylight-saving changes make it 47 or 49 hours) and pauses.
//! [`turn_times`] gives the instant the bank runs out and the instants of its two reminders (half
//! of the bank left, then a quarter of it, at most a day); [`OffTime::running_between`] gives how
//! much of the bank a stretch of time used. All instants are Unix seconds; nothing here reads a
//! clock or panics on odd input (an instant outside the calendar's range has no weekends).

use chrono::{DateTime, Datelike, Days, LocalResult, NaiveDate, NaiveDateTime, TimeZone, Timelike};
use chrono_tz::Tz;

/// Seconds in a day.
pub const DAY: i64 = 24 * 3600;

/// The longest bank any time control may hold: 60 days.
pub const MAX_BANK: i64 = 60 * DAY;

/// How a game's time is kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// Every turn has the same time.
    PerMove { seconds: i64 },
    /// A bank of `initial` seconds, `increment` more after each own move, never above `cap`.
    Fischer {
        initial: i64,
        increment: i64,
        cap: i64,
    },
}

/// Why a time control cannot be used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BadTimeControl {
    #[error("a bank must be more than nothing and at most {} days", MAX_BANK / DAY)]
    Bank,
    #[error("an increment cannot be negative or above the cap")]
    Increment,
    #[error("the cap must be at least the initial bank and at most {} days", MAX_BANK / DAY)]
    Cap,
    #[error("not a time control: {0:?}")]
    Unreadable(&'static str),
}

impl TimeControl {
    /// A fixed time per move, checked.
    pub fn per_move(seconds: i64) -> Result<TimeControl, BadTimeControl> {
        if seconds <= 0 || seconds > MAX_BANK {
            return Err(BadTimeControl::Bank);
        }
        Ok(TimeControl::PerMove { seconds })
    }

    /// A Fischer clock, checked: `0 < initial <= cap <= MAX_BANK`, `0 <= increment <= cap`.
    pub fn fischer(initial: i64, increment: i64, cap: i64) -> Result<TimeControl, BadTimeControl> {
        if initial <= 0 || initial > MAX_BANK {
            return Err(BadTimeControl::Bank);
        }
        if cap < initial || cap > MAX_BANK {
            return Err(BadTimeControl::Cap);
        }
        if increment < 0 || increment > cap {
            return Err(BadTimeControl::Increment);
        }
        Ok(TimeControl::Fischer {
            initial,
            increment,
            cap,
        })
    }

    /// The bank each player starts the game with.
    pub fn initial_bank(&self) -> i64 {
        match *self {
            TimeControl::PerMove { seconds } => seconds,
            TimeControl::Fischer { initial, .. } => initial,
        }
    }

    /// The bank a player keeps for their next turn after moving with `left` seconds left: the
    /// full time per move, or what was left plus the increment, at most the cap.
    pub fn bank_after_move(&self, left: i64) -> i64 {
        match *self {
            TimeControl::PerMove { seconds } => seconds,
            TimeControl::Fischer { increment, cap, .. } => {
                left.max(0).saturating_add(increment).min(cap)
            }
        }
    }

    /// How the control is stored: `per-move:SECONDS` or `fischer:INITIAL:INCREMENT:CAP`.
    pub fn encode(&self) -> String {
        match *self {
            TimeControl::PerMove { seconds } => format!("per-move:{seconds}"),
            TimeControl::Fischer {
                initial,
                increment,
                cap,
            } => format!("fischer:{initial}:{increment}:{cap}"),
        }
    }

    /// Reads what [`TimeControl::encode`] wrote, checking it as when it was made.
    pub fn decode(stored: &str) -> Result<TimeControl, BadTimeControl> {
        let numbers = |rest: &str| -> Result<Vec<i64>, BadTimeControl> {
            rest.split(':')
                .map(|n| {
                    n.parse::<i64>()
                        .map_err(|_| BadTimeControl::Unreadable("a number"))
                })
                .collect()
        };
        if let Some(rest) = stored.strip_prefix("per-move:") {
            match numbers(rest)?[..] {
                [seconds] => TimeControl::per_move(seconds),
                _ => Err(BadTimeControl::Unreadable("per-move takes one number")),
            }
        } else if let Some(rest) = stored.strip_prefix("fischer:") {
            match numbers(rest)?[..] {
                [initial, increment, cap] => TimeControl::fischer(initial, increment, cap),
                _ => Err(BadTimeControl::Unreadable("fischer takes three numbers")),
            }
        } else {
            Err(BadTimeControl::Unreadable("per-move or fischer"))
        }
    }
}

/// A named time control offered to players.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Preset {
    /// The name in commands and storage of settings, e.g. `fischer-3-1-7`.
    pub key: &'static str,
    pub control: TimeControl,
}

/// The Fischer presets, shortest first.
pub const PRESETS: [Preset; 3] = [
    Preset {
        key: "fischer-1-1-3",
        control: TimeControl::Fischer {
            initial: DAY,
            increment: DAY,
            cap: 3 * DAY,
        },
    },
    Preset {
        key: "fischer-3-1-7",
        control: TimeControl::Fischer {
            initial: 3 * DAY,
            increment: DAY,
            cap: 7 * DAY,
        },
    },
    Preset {
        key: "fischer-7-2-14",
        control: TimeControl::Fischer {
            initial: 7 * DAY,
            increment: 2 * DAY,
            cap: 14 * DAY,
        },
    },
];

/// The preset named `key`.
pub fn preset(key: &str) -> Option<Preset> {
    PRESETS.into_iter().find(|p| p.key == key)
}

/// A time zone by its IANA name (`Asia/Tokyo`), case as written in the database of zones.
pub fn time_zone(name: &str) -> Option<Tz> {
    name.trim().parse().ok()
}

/// Up to `limit` IANA zone names containing `part` (any case), for autocompletion; names that
/// start with it come first.
pub fn time_zones_matching(part: &str, limit: usize) -> Vec<&'static str> {
    let part = part.trim().to_lowercase();
    let names = chrono_tz::TZ_VARIANTS.iter().map(|tz| tz.name());
    let (mut first, mut then): (Vec<_>, Vec<_>) = names
        .filter(|n| n.to_lowercase().contains(&part))
        .partition(|n| n.to_lowercase().starts_with(&part));
    first.append(&mut then);
    first.truncate(limit);
    first
}

/// The local day (days since 1970-01-01) and hour of instant `t` in `tz`.
pub fn local_day_and_hour(tz: Tz, t: i64) -> Option<(i64, u8)> {
    let local = DateTime::from_timestamp(t, 0)?.with_timezone(&tz);
    let day = local
        .date_naive()
        .signed_duration_since(NaiveDate::from_ymd_opt(1970, 1, 1)?)
        .num_days();
    Some((day, u8::try_from(local.hour()).ok()?))
}

/// The first instant of local date `day` in `tz`: its midnight, the earlier one when midnight
/// comes twice, and the clock change itself when midnight is skipped. `None` outside the
/// calendar's range.
pub fn start_of_day(tz: Tz, day: NaiveDate) -> Option<i64> {
    let midnight = day.and_hms_opt(0, 0, 0)?;
    match tz.from_local_datetime(&midnight) {
        LocalResult::Single(t) | LocalResult::Ambiguous(t, _) => Some(t.timestamp()),
        LocalResult::None => {
            // Skipped: the first instant whose local time is at least midnight. Local time only
            // jumps forward here, so a search over the surrounding two days finds it.
            let local = |u: i64| -> Option<NaiveDateTime> {
                Some(
                    DateTime::from_timestamp(u, 0)?
                        .with_timezone(&tz)
                        .naive_local(),
                )
            };
            let guess = midnight.and_utc().timestamp();
            let (mut lo, mut hi) = (guess - 2 * DAY, guess + 2 * DAY);
            while hi - lo > 1 {
                let mid = lo + (hi - lo) / 2;
                if local(mid)? >= midnight {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
            Some(hi)
        }
    }
}

/// The weekend (Saturday 00:00 to Monday 00:00 in `tz`) that contains `t` or comes next.
pub fn weekend_from(tz: Tz, t: i64) -> Option<(i64, i64)> {
    let date = DateTime::from_timestamp(t, 0)?
        .with_timezone(&tz)
        .date_naive();
    // Days since the last Saturday: Saturday 0, Sunday 1, Monday 2, … Friday 6.
    let since = (date.weekday().num_days_from_monday() + 2) % 7;
    let saturday = date.checked_sub_days(Days::new(since.into()))?;
    let weekend = |sat: NaiveDate| -> Option<(i64, i64)> {
        Some((
            start_of_day(tz, sat)?,
            start_of_day(tz, sat.checked_add_days(Days::new(2))?)?,
        ))
    };
    let this = weekend(saturday)?;
    if this.1 > t {
        Some(this)
    } else {
        weekend(saturday.checked_add_days(Days::new(7))?)
    }
}

/// How many steps [`OffTime`] takes at most before giving up on an answer (far beyond any bank
/// of [`MAX_BANK`]); past them, the clock is taken to run.
const MAX_STEPS: usize = 10_000;

/// When the clock does not run for the player to move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OffTime {
    /// Weekends off in this time zone.
    pub weekends: Option<Tz>,
    /// Pauses and vacations, `[from, to)`, sorted and merged.
    pauses: Vec<(i64, i64)>,
}

impl OffTime {
    /// No time off: the clock always runs.
    pub fn none() -> OffTime {
        OffTime::default()
    }

    /// Weekends off in `weekends` (when set) and the given pauses `[from, to)` (empty ones are
    /// dropped, overlapping ones merged).
    pub fn new(weekends: Option<Tz>, pauses: impl IntoIterator<Item = (i64, i64)>) -> OffTime {
        let mut all: Vec<(i64, i64)> = pauses.into_iter().filter(|(a, b)| a < b).collect();
        all.sort_unstable();
        let mut merged: Vec<(i64, i64)> = Vec::with_capacity(all.len());
        for (a, b) in all {
            match merged.last_mut() {
                Some(last) if a <= last.1 => last.1 = last.1.max(b),
                _ => merged.push((a, b)),
            }
        }
        OffTime {
            weekends,
            pauses: merged,
        }
    }

    /// The pauses, sorted and merged.
    pub fn pauses(&self) -> &[(i64, i64)] {
        &self.pauses
    }

    /// The earliest-starting single stretch off (a weekend or a pause) that ends after `t`.
    fn next_piece(&self, t: i64) -> Option<(i64, i64)> {
        let weekend = self.weekends.and_then(|tz| weekend_from(tz, t));
        let i = self.pauses.partition_point(|&(_, to)| to <= t);
        let pause = self.pauses.get(i).copied();
        match (weekend, pause) {
            (Some(w), Some(p)) => Some(w.min(p)),
            (w, p) => w.or(p),
        }
    }

    /// The first stretch with the clock stopped that ends after `t` (it may have begun before
    /// `t`), with the weekends and pauses that touch it joined into one.
    pub fn next_off(&self, t: i64) -> Option<(i64, i64)> {
        let (start, mut end) = self.next_piece(t)?;
        for _ in 0..MAX_STEPS {
            match self.next_piece(end) {
                Some((s, e)) if s <= end && e > end => end = e,
                _ => break,
            }
        }
        Some((start, end))
    }

    /// Whether the clock runs at `t`.
    pub fn is_running(&self, t: i64) -> bool {
        self.next_off(t).is_none_or(|(s, _)| s > t)
    }

    /// How many seconds the clock runs in `[from, to)`.
    pub fn running_between(&self, from: i64, to: i64) -> i64 {
        let (mut t, mut run) = (from, 0i64);
        for _ in 0..MAX_STEPS {
            if t >= to {
                return run;
            }
            match self.next_off(t) {
                Some((s, e)) if s < to => {
                    run = run.saturating_add(s.max(t) - t);
                    t = e;
                }
                _ => return run.saturating_add(to - t),
            }
        }
        run.saturating_add(to.saturating_sub(t).max(0))
    }

    /// The first instant at which the clock has run `amount` seconds since `from`.
    pub fn after_running(&self, from: i64, amount: i64) -> i64 {
        let (mut t, mut left) = (from, amount.max(0));
        for _ in 0..MAX_STEPS {
            match self.next_off(t) {
                Some((s, e)) if s.max(t) - t < left => {
                    left -= s.max(t) - t;
                    t = e;
                }
                _ => return t.saturating_add(left),
            }
        }
        t.saturating_add(left)
    }
}

/// One player's turn: when it started and the bank it started with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Turn {
    pub started_at: i64,
    pub bank: i64,
}

/// The instants of a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnTimes {
    /// When the bank runs out: the player to move loses on time.
    pub deadline: i64,
    /// When half the bank is left, then a quarter of it (at most a day).
    pub reminders: [i64; 2],
}

/// How much of the bank is left when each reminder is due: half of it, then a quarter of it but
/// at most a day.
pub fn reminder_marks(bank: i64) -> [i64; 2] {
    [bank / 2, (bank / 4).min(DAY)]
}

/// The deadline and reminder instants of `turn` with the clock stopped during `off`.
pub fn turn_times(turn: Turn, off: &OffTime) -> TurnTimes {
    let at = |left: i64| off.after_running(turn.started_at, turn.bank - left);
    let [half, quarter] = reminder_marks(turn.bank);
    TurnTimes {
        deadline: at(0),
        reminders: [at(half), at(quarter)],
    }
}

/// The seconds of `turn`'s bank left at `now` (never below zero).
pub fn time_left(turn: Turn, off: &OffTime, now: i64) -> i64 {
    (turn.bank - off.running_between(turn.started_at, now)).max(0)
}

/// Which reminder is due with `left` of `bank` left and `sent` reminders already sent this turn:
/// the new count sent, or `None`. A check that comes after both marks sends only the second.
pub fn reminder_due(bank: i64, left: i64, sent: i64) -> Option<i64> {
    let [half, quarter] = reminder_marks(bank);
    if left <= 0 {
        None
    } else if sent < 2 && left <= quarter {
        Some(2)
    } else if sent < 1 && left <= half {
        Some(1)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const NEW_YORK: Tz = chrono_tz::America::New_York;
    /// Saturday 13 March 2027, 00:00 in New York (EST); clocks go forward the next day.
    const NY_SAT_MARCH: i64 = 1_804_914_000;
    /// Monday 15 March 2027, 00:00 in New York (EDT).
    const NY_MON_MARCH: i64 = 1_805_083_200;
    /// Saturday 6 and Monday 8 November 2027, 00:00 in New York; clocks go back between.
    const NY_SAT_NOV: i64 = 1_825_473_600;
    const NY_MON_NOV: i64 = 1_825_650_000;
    const HOUR: i64 = 3600;

    #[test]
    fn weekends_follow_daylight_saving_changes() {
        assert_eq!(
            weekend_from(NEW_YORK, NY_SAT_MARCH - 5 * DAY),
            Some((NY_SAT_MARCH, NY_MON_MARCH))
        );
        assert_eq!(NY_MON_MARCH - NY_SAT_MARCH, 47 * HOUR);
        assert_eq!(
            weekend_from(NEW_YORK, NY_SAT_NOV + DAY),
            Some((NY_SAT_NOV, NY_MON_NOV))
        );
        assert_eq!(NY_MON_NOV - NY_SAT_NOV, 49 * HOUR);
        // From Monday 00:00 on, the next weekend.
        assert_eq!(
            weekend_from(NEW_YORK, NY_MON_MARCH).map(|w| w.0),
            Some(NY_SAT_MARCH + 7 * DAY - HOUR)
        );
        // A Fischer bank of 3 days started Friday noon runs out Wednesday noon (EDT).
        let off = OffTime::new(Some(NEW_YORK), []);
        let friday_noon = NY_SAT_MARCH - 12 * HOUR;
        let times = turn_times(
            Turn {
                started_at: friday_noon,
                bank: 3 * DAY,
            },
            &off,
        );
        assert_eq!(times.deadline, NY_MON_MARCH + 2 * DAY + 12 * HOUR);
        // 36 hours used (12 on Friday, 24 on Monday), then 54 (to Tuesday 18:00).
        assert_eq!(
            times.reminders,
            [NY_MON_MARCH + DAY, NY_MON_MARCH + DAY + 18 * HOUR]
        );
        assert_eq!(
            time_left(
                Turn {
                    started_at: friday_noon,
                    bank: 3 * DAY
                },
                &off,
                NY_MON_MARCH
            ),
            2 * DAY + 12 * HOUR
        );
    }

    #[test]
    fn a_skipped_midnight_starts_the_day_at_the_change() {
        // São Paulo skipped 4 November 2018 00:00–01:00 (-03 to -02): the day began at 03:00 UTC.
        let day = NaiveDate::from_ymd_opt(2018, 11, 4).expect("date");
        assert_eq!(
            start_of_day(chrono_tz::America::Sao_Paulo, day),
            Some(1_541_300_400)
        );
        // Tokyo has no changes.
        let day = NaiveDate::from_ymd_opt(2027, 3, 13).expect("date");
        assert_eq!(
            start_of_day(chrono_tz::Asia::Tokyo, day),
            Some(1_804_863_600)
        );
        // Far outside the calendar: no weekend, no panic.
        assert_eq!(weekend_from(NEW_YORK, i64::MAX), None);
        let off = OffTime::new(Some(NEW_YORK), [(i64::MIN, i64::MIN + 5)]);
        assert_eq!(off.after_running(i64::MAX - 10, 100), i64::MAX);
        assert_eq!(off.running_between(i64::MIN, i64::MIN + 10), 5);
    }

    #[test]
    fn time_controls_are_checked_and_stored() {
        assert_eq!(
            TimeControl::fischer(3 * DAY, DAY, 2 * DAY),
            Err(BadTimeControl::Cap)
        );
        assert_eq!(
            TimeControl::fischer(0, DAY, 2 * DAY),
            Err(BadTimeControl::Bank)
        );
        assert_eq!(
            TimeControl::fischer(DAY, -1, 2 * DAY),
            Err(BadTimeControl::Increment)
        );
        assert_eq!(
            TimeControl::per_move(MAX_BANK + 1),
            Err(BadTimeControl::Bank)
        );
        for p in PRESETS {
            assert_eq!(TimeControl::decode(&p.control.encode()), Ok(p.control));
            let TimeControl::Fischer {
                initial,
                increment,
                cap,
            } = p.control
            else {
                panic!("{p:?} is not a Fischer clock");
            };
            assert_eq!(TimeControl::fischer(initial, increment, cap), Ok(p.control));
            assert_eq!(preset(p.key), Some(p));
        }
        assert_eq!(
            TimeControl::decode("per-move:86400"),
            Ok(TimeControl::PerMove { seconds: DAY })
        );
        for bad in [
            "",
            "per-move:",
            "per-move:1:2",
            "fischer:1:2",
            "fischer:a:b:c",
            "sandglass:5",
            "per-move:-5",
        ] {
            assert!(TimeControl::decode(bad).is_err(), "{bad}");
        }
        let three = preset("fischer-3-1-7").expect("preset").control;
        assert_eq!(three.bank_after_move(2 * DAY), 3 * DAY);
        assert_eq!(three.bank_after_move(6 * DAY + 5), 7 * DAY);
        assert_eq!(three.bank_after_move(-5), DAY);
        assert_eq!(
            TimeControl::PerMove { seconds: DAY }.bank_after_move(5),
            DAY
        );
    }

    #[test]
    fn local_days_and_hours() {
        // Saturday 13 March 2027 00:00 in Tokyo is 15:00 on Friday in UTC.
        let t = 1_804_863_600;
        let (day, hour) = local_day_and_hour(chrono_tz::Asia::Tokyo, t).expect("in range");
        assert_eq!(hour, 0);
        assert_eq!(local_day_and_hour(chrono_tz::UTC, t), Some((day - 1, 15)));
        assert_eq!(local_day_and_hour(chrono_tz::UTC, 0), Some((0, 0)));
        assert_eq!(local_day_and_hour(chrono_tz::UTC, i64::MAX), None);
    }

    #[test]
    fn zones_by_name_and_part() {
        assert_eq!(time_zone(" Asia/Tokyo "), Some(chrono_tz::Asia::Tokyo));
        assert_eq!(time_zone("Mars/Olympus"), None);
        // Names that start with the part come first.
        let found = time_zones_matching("asia/to", 5);
        assert_eq!(found, ["Asia/Tokyo", "Asia/Tomsk"]);
        let found = time_zones_matching("tok", 5);
        assert_eq!(
            found,
            ["Antarctica/Vostok", "Asia/Tokyo", "Asia/Vladivostok"]
        );
        let europe = time_zones_matching("europe/", 3);
        assert_eq!(europe.len(), 3);
        assert!(
            europe.iter().all(|n| n.starts_with("Europe/")),
            "{europe:?}"
        );
    }

    #[test]
    fn reminders_at_half_then_a_quarter_once_each() {
        assert_eq!(reminder_due(DAY, 13 * HOUR, 0), None);
        assert_eq!(reminder_due(DAY, 12 * HOUR, 0), Some(1));
        assert_eq!(reminder_due(DAY, 12 * HOUR, 1), None);
        assert_eq!(reminder_due(DAY, 6 * HOUR, 1), Some(2));
        assert_eq!(reminder_due(DAY, 6 * HOUR, 2), None);
        assert_eq!(reminder_due(DAY, HOUR, 0), Some(2));
        assert_eq!(reminder_due(DAY, 0, 0), None);
        assert_eq!(reminder_marks(14 * DAY), [7 * DAY, DAY]);
    }

    /// Zones with daylight-saving changes on either side of the year, one with 45-minute
    /// offsets, and UTC.
    const ZONES: [Tz; 6] = [
        chrono_tz::America::New_York,
        chrono_tz::Europe::London,
        chrono_tz::Australia::Sydney,
        chrono_tz::Asia::Kathmandu,
        chrono_tz::America::Sao_Paulo,
        chrono_tz::UTC,
    ];
    /// Steps of the brute-force reckoning: every offset above is a whole number of them.
    const STEP: i64 = 900;
    /// 2017-01-01 .. 2031-01-01, in steps.
    const FROM: i64 = 1_483_228_800 / STEP;
    const TO: i64 = 1_924_992_000 / STEP;

    /// Whether the clock runs at `t`, reckoned from the local weekday alone.
    fn runs_at(tz: Option<Tz>, pauses: &[(i64, i64)], t: i64) -> bool {
        let weekend = tz.is_some_and(|tz| {
            let day = DateTime::from_timestamp(t, 0)
                .expect("in range")
                .with_timezone(&tz)
                .weekday();
            matches!(day, chrono::Weekday::Sat | chrono::Weekday::Sun)
        });
        !weekend && !pauses.iter().any(|&(a, b)| a <= t && t < b)
    }

    fn off_time() -> impl Strategy<Value = (Option<Tz>, Vec<(i64, i64)>)> {
        (
            prop::option::of(prop::sample::select(ZONES.to_vec())),
            prop::collection::vec((FROM..TO, 0i64..14 * 96), 0..4).prop_map(|ps| {
                ps.into_iter()
                    .map(|(a, len)| (a * STEP, (a + len) * STEP))
                    .collect()
            }),
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

        /// The clock runs exactly when it is neither a local weekend nor a pause, step by step.
        #[test]
        fn time_never_runs_in_a_weekend_off_or_a_pause(
            (tz, pauses) in off_time(),
            start in FROM..TO,
            steps in 0i64..20 * 96,
        ) {
            let off = OffTime::new(tz, pauses.clone());
            let (a, b) = (start * STEP, (start + steps) * STEP);
            let brute: i64 = (0..steps)
                .map(|k| a + k * STEP)
                .filter(|&t| runs_at(tz, &pauses, t))
                .count() as i64
                * STEP;
            prop_assert_eq!(off.running_between(a, b), brute);
            for k in 0..steps {
                let t = a + k * STEP;
                prop_assert_eq!(off.is_running(t), runs_at(tz, &pauses, t), "at {}", t);
            }
        }

        /// The deadline is the first instant at which the bank is used up, and time left falls
        /// only while the clock runs.
        #[test]
        fn deadlines_are_when_the_bank_is_used(
            (tz, pauses) in off_time(),
            start in FROM * STEP..TO * STEP,
            bank in 1i64..MAX_BANK / 4,
        ) {
            let off = OffTime::new(tz, pauses.clone());
            let turn = Turn { started_at: start, bank };
            let times = turn_times(turn, &off);
            prop_assert_eq!(off.running_between(start, times.deadline), bank);
            prop_assert!(off.is_running(times.deadline - 1));
            prop_assert_eq!(time_left(turn, &off, times.deadline), 0);
            prop_assert_eq!(time_left(turn, &off, times.deadline - 1), 1);
            let [half, quarter] = reminder_marks(bank);
            prop_assert_eq!(time_left(turn, &off, times.reminders[0]), half);
            prop_assert_eq!(time_left(turn, &off, times.reminders[1]), quarter);
            prop_assert!(times.reminders[0] <= times.reminders[1]);
            prop_assert!(times.reminders[1] <= times.deadline);
        }

        /// Whatever the moves' timing, a Fischer bank stays between nothing and its cap.
        #[test]
        fn a_bank_never_exceeds_its_cap(
            initial in 1i64..=MAX_BANK,
            increment in 0i64..=MAX_BANK,
            extra in 0i64..=MAX_BANK,
            used in prop::collection::vec(-DAY..MAX_BANK + DAY, 1..40),
        ) {
            let cap = (initial + extra).min(MAX_BANK);
            let Ok(control) = TimeControl::fischer(initial, increment.min(cap), cap) else {
                return Err(TestCaseError::fail("a valid control refused"));
            };
            let mut bank = control.initial_bank();
            for u in used {
                let left = (bank - u).min(bank);
                bank = control.bank_after_move(left);
                prop_assert!((0..=cap).contains(&bank), "bank {} cap {}", bank, cap);
            }
        }

        /// Checks at any times send each reminder at most once, never after the deadline, and
        /// the second whenever a check comes between its mark and the deadline.
        #[test]
        fn reminders_are_sent_once(
            (tz, pauses) in off_time(),
            start in FROM * STEP..TO * STEP,
            bank in 1i64..MAX_BANK / 4,
            checks in prop::collection::vec(0i64..MAX_BANK, 0..30),
        ) {
            let off = OffTime::new(tz, pauses);
            let turn = Turn { started_at: start, bank };
            let times = turn_times(turn, &off);
            let mut checks: Vec<i64> = checks.into_iter().map(|c| start + c).collect();
            checks.sort_unstable();
            let mut sent = 0;
            let mut sends = Vec::new();
            for &now in &checks {
                if let Some(to) = reminder_due(bank, time_left(turn, &off, now), sent) {
                    prop_assert!(to > sent && now < times.deadline);
                    prop_assert!(now >= times.reminders[to as usize - 1]);
                    sent = to;
                    sends.push(to);
                }
            }
            prop_assert!(sends.len() <= 2);
            let second_checked = checks
                .iter()
                .any(|&c| c >= times.reminders[1] && c < times.deadline);
            prop_assert_eq!(sends.last() == Some(&2), second_checked);
        }
    }
}
