//! The games' words in the reader's language: colours, results, time left. Each returns a
//! [`Text`] rendered where the reader is known.

use crate::db::{ChallengeStatus, GameResult, GameRow, GameStatus};
use crate::games::{Colour, GameKind, Options, Outcome};
use crate::i18n::Text;
use crate::text;

/// A colour's name in `kind` (white/black, silver/red).
pub fn colour(kind: GameKind, c: Colour) -> Text {
    Text::new(kind.colour_text(c))
}

/// How a game was decided, by colour (where no player is named, e.g. a picture's alt text):
/// `red wins on score 16–10 (both passed)`, `draw on score 20–20`. The words after the colour are
/// the picture's ([`crate::render::how_decided`]).
pub fn outcome(kind: GameKind, o: &Outcome) -> Text {
    let how = crate::render::how_decided(o);
    match o.winner {
        Some(c) => text!("outcome-win", winner = colour(kind, c), how = how),
        None if o.reason == crate::games::Reason::CalledOff => how,
        None => text!("outcome-draw", how = how),
    }
}

/// A game's size in words, without its name: `7×7`, `39 tiles`.
pub fn board_size(options: &Options) -> Text {
    size_words(options.kind(), options.size())
}

/// Size `value` of the size option of `kind` in words ([`board_size`]).
pub fn size_words(kind: GameKind, value: u8) -> Text {
    let size = kind.size_option();
    Text::new(size.text).with(size.word, value)
}

/// A variant in words, for every text that names one: `inpHeXion 7×7, pie rule`,
/// `EXXIT 39 tiles, expert set-up` (never the engine's `inphexion size=7 pie`).
pub fn variant(options: &Options) -> Text {
    let kind = options.kind();
    let named = text!("variant", game = kind.title(), size = board_size(options));
    kind.flags()
        .iter()
        .filter(|flag| options.flag(flag.word))
        .fold(named, |words, flag| {
            text!("variant-and", variant = words, flag = Text::new(flag.text))
        })
}

/// A mention of a user. A member who had their data deleted reads "a former member" wherever the
/// text is rendered ([`crate::i18n`]).
pub fn mention(user: crate::db::UserId) -> String {
    format!("<@{user}>")
}

/// A member's name as `lang` shows it: their display name as stored, "a former member" for one who
/// had their data deleted, or `unknown()` when none is stored.
pub fn name_in(
    lang: crate::i18n::Lang,
    name: Option<crate::db::Name>,
    unknown: impl FnOnce() -> String,
) -> String {
    match name {
        Some(crate::db::Name::Named(name)) => name,
        Some(crate::db::Name::Former) => crate::i18n::tr(lang, "former-member"),
        None => unknown(),
    }
}

/// A stored result in words, naming the players: `<@1> (red) beat <@2> on score 16–10 (both
/// passed)`, `<@1> and <@2> drew by repetition…`, `aborted by agreement`.
pub fn result(row: &GameRow, r: &GameResult) -> Text {
    result_naming(row, r, &mention)
}

/// [`result`] with the players named by `name` (a mention in Discord, a display name on a page).
pub fn result_naming(
    row: &GameRow,
    r: &GameResult,
    name: &dyn Fn(crate::db::UserId) -> String,
) -> Text {
    match r {
        GameResult::Decided(o) => {
            let how = crate::render::how_decided(o);
            // The winner is stored by person (colours may have been swapped by the pie rule).
            let winner = match (o.winner, row.winner_id) {
                (Some(c), Some(w)) => Some((c, w)),
                (Some(c), None) => Some((c, row.players[c.index()])),
                (None, _) => None,
            };
            match winner {
                Some((c, w)) => text!(
                    "players-beat",
                    winner = text!(
                        "player-colour",
                        who = name(w),
                        colour = colour(row.kind(), c)
                    ),
                    loser = name(row.opponent_of(w)),
                    how = how
                ),
                None => text!(
                    "players-drew",
                    a = name(row.players[0]),
                    b = name(row.players[1]),
                    how = how
                ),
            }
        }
        GameResult::Aborted { by } if by == "agreement" => text!("result-aborted-by-agreement"),
        GameResult::Aborted { by } => text!("result-aborted-by", by = by.as_str()),
    }
}

/// How a stored game stands in words: its result, else its status.
pub fn row_result(row: &GameRow) -> Text {
    row_result_naming(row, &mention)
}

/// [`row_result`] with the players named by `name` (where a mention would show as digits: an
/// autocomplete suggestion).
pub fn row_result_naming(row: &GameRow, name: &dyn Fn(crate::db::UserId) -> String) -> Text {
    match (&row.result, row.status) {
        (Some(r), _) => result_naming(row, r, name),
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

/// A level of the bot's play: its `/play` choice's name, `choice-level-<n>` for the n-th of
/// [`crate::ai::Level::ALL`] (a test checks every level's in every language).
pub fn level(l: crate::ai::Level) -> Text {
    let n = crate::ai::Level::ALL
        .iter()
        .position(|&x| x == l)
        .unwrap_or_default();
    Text::dynamic(format!("choice-level-{n}"))
}

/// A time control in words: `3 days per move`, `Fischer clock: 3 d + 1 d a move, at most 7 d`,
/// followed by `weekends off` when the game takes them.
pub fn time_control(control: crate::time_control::TimeControl, weekends_off: bool) -> Text {
    use crate::play::schedule::DAY;
    use crate::time_control::TimeControl;
    let clock = match control {
        TimeControl::PerMove { seconds } if seconds % DAY == 0 => {
            text!("clock-per-move-days", days = seconds / DAY)
        }
        TimeControl::PerMove { seconds } => text!("clock-per-move", time = time_left(seconds)),
        TimeControl::Fischer {
            initial,
            increment,
            cap,
        } => text!(
            "clock-fischer",
            initial = time_left(initial),
            increment = time_left(increment),
            cap = time_left(cap)
        ),
    };
    if weekends_off {
        text!("clock-weekends-off", clock = clock)
    } else {
        clock
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
    use crate::db::UserId;
    use crate::i18n::Lang;
    use crate::play::schedule::DAY;

    fn finished(kind: &str, o: Outcome, winner: Option<u64>) -> GameRow {
        let mut row = crate::play::access::tests::row(GameStatus::Finished);
        row.options = crate::games::Options::parse_line(kind).expect("options");
        row.players = [UserId(1), UserId(2)];
        row.winner_id = winner.map(UserId);
        row.result = Some(GameResult::Decided(o));
        row
    }

    #[test]
    fn every_level_has_its_name_in_every_language() {
        let ja = Lang::of("ja");
        let mut names = Vec::new();
        for l in crate::ai::Level::ALL {
            let id = format!("choice-level-{}", names.len());
            // English: the level's own name, as the commands and the engine take it.
            assert_eq!(level(l).render(Lang::EN), l.name());
            let ja_name = level(l).render(ja);
            assert!(ja_name != id && ja_name != l.name(), "{ja_name}");
            names.push(ja_name);
        }
        names.sort();
        names.dedup();
        assert_eq!(names.len(), crate::ai::Level::ALL.len(), "{names:?}");
    }

    #[test]
    fn results_read_as_sentences_naming_the_players() {
        use crate::games::Reason;
        let en = |row: &GameRow| row_result(row).render(Lang::EN);
        let ja = |row: &GameRow| row_result(row).render(Lang::of("ja"));
        // Red (the second colour) won by score after both passed: its score first.
        let row = finished(
            "exxit",
            Outcome::by_score(Reason::Passes, [10, 16]),
            Some(2),
        );
        assert_eq!(
            en(&row),
            "<@2> (red) beat <@1> on score 16–10 (both passed)"
        );
        assert_eq!(
            ja(&row),
            "<@2>（赤） が <@1> に勝ちました（得点 16–10、連続パス）"
        );
        // After a colour swap the winner is the stored person, whatever their seat.
        let swapped = finished(
            "inphexion size=5",
            Outcome::win(Colour::First, Reason::Resignation),
            Some(2),
        );
        assert_eq!(en(&swapped), "<@2> (white) beat <@1> by resignation");
        let draw = finished(
            "exxit",
            Outcome::by_score(Reason::Repetition, [20, 20]),
            None,
        );
        assert_eq!(en(&draw), "<@1> and <@2> drew on score 20–20 (repetition)");
        // Where no player is named, the colour is.
        let o = Outcome::win(Colour::First, Reason::Connection);
        assert_eq!(
            outcome(GameKind::Inphexion, &o).render(Lang::EN),
            "white wins by connection"
        );
        // No text keeps the engine's wording ("wins:", "(passes)").
        for row in [&row, &swapped, &draw] {
            assert!(
                !en(row).contains(':') && !en(row).contains("passes"),
                "{}",
                en(row)
            );
        }
    }

    #[test]
    fn times_left_in_words() {
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
        let o = Outcome::win(Colour::Second, crate::games::Reason::Resignation);
        let text = outcome(GameKind::Exxit, &o).render(ja);
        assert!(text.contains("赤"), "{text}");
        assert_eq!(time_left(90).render(ja), "1分");
    }

    /// Every text that names a variant names it in words, in both languages.
    #[test]
    fn variants_read_as_words() {
        let ja = Lang::of("ja");
        for (line, en, jp) in [
            ("inphexion size=7", "inpHeXion 7×7", "inpHeXion 7×7"),
            (
                "inphexion size=9 pie neutral",
                "inpHeXion 9×9, pie rule, neutral centre disc",
                "inpHeXion 9×9、パイルール、中立ディスク",
            ),
            ("exxit tiles=39", "EXXIT 39 tiles", "EXXIT タイル 39枚"),
            (
                "exxit tiles=19 expert",
                "EXXIT 19 tiles, expert set-up",
                "EXXIT タイル 19枚、上級",
            ),
        ] {
            let options = crate::games::Options::parse_line(line).expect("options");
            assert_eq!(variant(&options).render(Lang::EN), en);
            assert_eq!(variant(&options).render(ja), jp);
        }
    }
}
