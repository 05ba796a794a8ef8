//! The games' words in the reader's language: colours, results, time left. Each returns a
//! [`Text`] rendered where the reader is known.

use crate::db::{ChallengeStatus, GameResult, GameRow, GameStatus};
use crate::games::{Colour, GameKind, Outcome, Reason};
use crate::i18n::Text;
use crate::text;

/// A colour's name in `kind` (white/black, silver/red).
pub fn colour(kind: GameKind, c: Colour) -> Text {
    match (kind, c) {
        (GameKind::Inphexion, Colour::First) => text!("colour-white"),
        (GameKind::Inphexion, Colour::Second) => text!("colour-black"),
        (GameKind::Exxit, Colour::First) => text!("colour-silver"),
        (GameKind::Exxit, Colour::Second) => text!("colour-red"),
    }
}

/// How a game was decided: `white wins: connection`, `red wins: score 34-25 (passes)`.
pub fn outcome(kind: GameKind, o: &Outcome) -> Text {
    let (a, b) = match (o.winner, o.score) {
        (Some(Colour::Second), Some(s)) => (s[1], s[0]),
        (_, Some(s)) => (s[0], s[1]),
        (_, None) => (0, 0),
    };
    let why = match (o.reason, o.score) {
        (Reason::Connection, _) => text!("reason-connection"),
        (Reason::NoLegalMove, _) => text!("reason-no-legal-move"),
        (Reason::RelocationImpossible, _) => text!("reason-relocation-impossible"),
        (Reason::Resignation, _) => text!("reason-resignation"),
        (Reason::Timeout, _) => text!("reason-timeout"),
        (Reason::Score, Some(_)) => text!("reason-score", a = a, b = b),
        (Reason::Passes, Some(_)) => text!("reason-score-passes", a = a, b = b),
        (Reason::Repetition, Some(_)) => text!("reason-score-repetition", a = a, b = b),
        (Reason::Score | Reason::Passes | Reason::Repetition, None) => text!("reason-no-score"),
    };
    match o.winner {
        Some(c) => text!("outcome-win", winner = colour(kind, c), why = why),
        None => text!("outcome-draw", why = why),
    }
}

/// A stored result in words.
pub fn result(kind: GameKind, r: &GameResult) -> Text {
    match r {
        GameResult::Decided(o) => outcome(kind, o),
        GameResult::Aborted { by } if by == "agreement" => text!("result-aborted-by-agreement"),
        GameResult::Aborted { by } => text!("result-aborted-by", by = by.as_str()),
    }
}

/// How a stored game stands in words: its result, else its status.
pub fn row_result(row: &GameRow) -> Text {
    match (&row.result, row.status) {
        (Some(r), _) => result(row.kind(), r),
        (None, GameStatus::Active) => text!("status-active"),
        (None, GameStatus::Finished) => text!("status-finished"),
        (None, GameStatus::Aborted) => text!("status-aborted"),
    }
}

/// A challenge's state in words.
pub fn challenge_status(s: ChallengeStatus) -> Text {
    match s {
        ChallengeStatus::Open => text!("challenge-status-open"),
        ChallengeStatus::Accepted => text!("challenge-status-accepted"),
        ChallengeStatus::Declined => text!("challenge-status-declined"),
        ChallengeStatus::Withdrawn => text!("challenge-status-withdrawn"),
        ChallengeStatus::Expired => text!("challenge-status-expired"),
    }
}

/// A level of the bot's play.
pub fn level(l: crate::ai::Level) -> Text {
    match l {
        crate::ai::Level::Easy => text!("level-easy"),
        crate::ai::Level::Medium => text!("level-medium"),
        crate::ai::Level::Hard => text!("level-hard"),
    }
}

/// A duration left: `2 d 3 h`, `5 h 10 min`, `less than a minute`.
pub fn time_left(seconds: i64) -> Text {
    use crate::play::schedule::DAY;
    if seconds <= 0 {
        return text!("left-none");
    }
    let (d, h, m) = (seconds / DAY, seconds % DAY / 3600, seconds % 3600 / 60);
    match (d, h, m) {
        (0, 0, 0) => text!("left-under-a-minute"),
        (0, 0, m) => text!("left-minutes", m = m),
        (0, h, m) => text!("left-hours", h = h, m = m),
        (d, 0, _) => text!("left-days", d = d),
        (d, h, _) => text!("left-days-hours", d = d, h = h),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;
    use crate::play::schedule::DAY;

    #[test]
    fn english_words_are_the_stored_ones() {
        // The English result reads as the text the database stores.
        for kind in GameKind::ALL {
            for o in [
                Outcome::win(Colour::First, Reason::Connection),
                Outcome::win(Colour::Second, Reason::Timeout),
                Outcome::by_score(Reason::Passes, [30, 31]),
                Outcome::by_score(Reason::Repetition, [20, 20]),
            ] {
                assert_eq!(outcome(kind, &o).render(Lang::EN), o.describe(kind));
            }
        }
        let en = |s| time_left(s).render(Lang::EN);
        assert_eq!(en(3 * 3600 + 120), "3 h 2 min");
        assert_eq!(en(2 * DAY + 5 * 3600 + 7), "2 d 5 h");
        assert_eq!(en(3 * DAY), "3 d");
        assert_eq!(en(12 * 60 + 5), "12 min");
        assert_eq!(en(30), "less than a minute");
        assert_eq!(en(-5), "no time left");
    }

    #[test]
    fn japanese_words() {
        let ja = Lang::of("ja");
        let o = Outcome::win(Colour::Second, Reason::Resignation);
        let text = outcome(GameKind::Exxit, &o).render(ja);
        assert!(text.contains("赤"), "{text}");
        assert_eq!(time_left(90).render(ja), "1分");
    }
}
