//! The terms of a challenge: its options checked against the rules, who may challenge whom,
//! and who may answer it (an open challenge: any member but its challenger, within its rating
//! range).

use super::access::mention;
use super::Refusal;
use crate::db::UserId;
use crate::db::{Challenge, ChallengeStatus, RatingRange};
use crate::games::{GameKind, Options};
use crate::text;

/// The options a `/challenge` gave, before checking them against the rules.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChosenOptions {
    pub size: Option<i64>,
    pub pie: Option<bool>,
    pub free_reply: Option<bool>,
    pub neutral: Option<bool>,
    pub tiles: Option<i64>,
    pub expert: Option<bool>,
}

impl ChosenOptions {
    /// The size options given, by the word of the game they belong to ([`crate::games::SizeOption`]).
    fn sizes(&self) -> [(&'static str, Option<i64>); 2] {
        [("size", self.size), ("tiles", self.tiles)]
    }

    /// The on/off options given, by their name in Discord's commands (the option word with `_`).
    fn flags(&self) -> [(&'static str, Option<bool>); 4] {
        [
            ("pie", self.pie),
            ("free_reply", self.free_reply),
            ("neutral", self.neutral),
            ("expert", self.expert),
        ]
    }
}

/// The game's options from the choices made, refused with the rules' reason when they do not
/// fit the game.
pub fn build_options(kind: GameKind, chosen: &ChosenOptions) -> Result<Options, Refusal> {
    let foreign = |name: &str| foreign_option(kind, name);
    let size_word = kind.size_option().word;
    let mut size = None;
    for (word, value) in chosen.sizes() {
        match value {
            Some(v) if word == size_word => size = Some(v),
            Some(_) => return Err(foreign(word)),
            None => {}
        }
    }
    let mut flags = Vec::new();
    for (name, value) in chosen.flags() {
        let Some(on) = value else { continue };
        let flag = kind
            .flags()
            .iter()
            .find(|f| f.word.replace('-', "_") == name)
            .ok_or_else(|| foreign(name))?;
        if on {
            flags.push(flag.word);
        }
    }
    options_from(kind, size, &flags)
}

/// The refusal of option `name` (a size option's word, or an on/off option's with `_`) that
/// another game has but `kind` has not.
pub fn foreign_option(kind: GameKind, name: &str) -> Refusal {
    Refusal::new(text!(
        "option-not-of-game",
        option = name,
        game = kind.title()
    ))
}

/// The option names of every game (size words, and on/off options with `_`) that `kind` has not.
pub fn foreign_option_names(kind: GameKind) -> Vec<String> {
    let names = |k: GameKind| {
        let flags = k.flags().iter().map(|f| f.word.replace('-', "_"));
        std::iter::once(k.size_option().word.to_string()).chain(flags)
    };
    let own: Vec<String> = names(kind).collect();
    let mut foreign: Vec<String> = GameKind::ALL
        .into_iter()
        .flat_map(names)
        .filter(|n| !own.contains(n))
        .collect();
    foreign.sort_unstable();
    foreign.dedup();
    foreign
}

/// The options of `kind` with its size option set to `size` (the default when `None`) and the
/// on/off options `flags` (option words) on; refused with the rules' reason when they do not fit.
pub fn options_from(kind: GameKind, size: Option<i64>, flags: &[&str]) -> Result<Options, Refusal> {
    let mut words: Vec<String> = Vec::new();
    if let Some(s) = size {
        words.push(format!("{}={s}", kind.size_option().word));
    }
    words.extend(flags.iter().map(|f| f.to_string()));
    let refs: Vec<&str> = words.iter().map(String::as_str).collect();
    Options::parse(kind, &refs).map_err(|e| {
        Refusal::new(text!(
            "options-do-not-fit",
            game = kind.title(),
            error = e.to_string(),
            name = kind.name()
        ))
    })
}

/// May `challenger` challenge `opponent`? `duplicate` is an open challenge already made for the
/// same pair and variant.
pub fn check_challenge(
    challenger: UserId,
    opponent: UserId,
    opponent_is_bot: bool,
) -> Result<(), Refusal> {
    if challenger == opponent {
        return Err(Refusal::new(text!("challenge-yourself")));
    }
    if opponent_is_bot {
        return Err(Refusal::new(text!("challenge-a-bot")));
    }
    Ok(())
}

/// An open challenge's rating range, as `/challenge` gave it: each bound a rating (0 to
/// [`MAX_RATING`]), the lower not above the upper.
pub fn check_rating_range(range: RatingRange) -> Result<(), Refusal> {
    let valid = |r: Option<i64>| r.is_none_or(|r| (0..=MAX_RATING).contains(&r));
    if !valid(range.min) || !valid(range.max) {
        return Err(Refusal::new(text!(
            "open-challenge-range-bounds",
            max = MAX_RATING
        )));
    }
    if let (Some(min), Some(max)) = (range.min, range.max) {
        if min > max {
            return Err(Refusal::new(text!(
                "open-challenge-range-reversed",
                min = min,
                max = max
            )));
        }
    }
    Ok(())
}

/// The highest rating bound an open challenge may name.
pub const MAX_RATING: i64 = 4000;

/// A rating range in words: `from 1400 to 1800`, `1400 or more`, `up to 1800`, `any`.
pub fn rating_range(range: RatingRange) -> crate::i18n::Text {
    match (range.min, range.max) {
        (Some(min), Some(max)) => text!("rating-range-between", min = min, max = max),
        (Some(min), None) => text!("rating-range-at-least", min = min),
        (None, Some(max)) => text!("rating-range-at-most", max = max),
        (None, None) => text!("rating-range-any"),
    }
}

/// What a button does to a challenge.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ChallengeAnswer {
    Accept,
    Decline,
    Withdraw,
}

/// May `user` answer the challenge so at time `now`? `Err` says why not. An expired challenge
/// gives [`ChallengeStatus::Expired`] as the status to store.
pub fn check_challenge_answer(
    c: &Challenge,
    user: UserId,
    answer: ChallengeAnswer,
    now: i64,
) -> Result<(), (Refusal, Option<ChallengeStatus>)> {
    if c.status != ChallengeStatus::Open {
        return Err((
            Refusal::new(text!(
                "challenge-not-open",
                status = super::words::challenge_status(c.status)
            )),
            None,
        ));
    }
    match (answer, c.opponent_id) {
        (ChallengeAnswer::Accept, None) if user == c.challenger_id => {
            return Err((Refusal::new(text!("open-challenge-own")), None))
        }
        // An open challenge has no Decline button: whoever does not want it leaves it.
        (ChallengeAnswer::Decline, None) => {
            return Err((Refusal::new(text!("open-challenge-no-decline")), None))
        }
        (ChallengeAnswer::Accept | ChallengeAnswer::Decline, Some(opponent))
            if user != opponent =>
        {
            return Err((
                Refusal::new(text!("challenge-for-another", who = mention(opponent))),
                None,
            ))
        }
        (ChallengeAnswer::Withdraw, _) if user != c.challenger_id => {
            return Err((Refusal::new(text!("challenge-withdraw-own")), None))
        }
        _ => {}
    }
    if now >= c.expires_at {
        return Err((
            Refusal::new(text!("challenge-expired-answer")),
            Some(ChallengeStatus::Expired),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::{ChannelId, GuildId};

    fn challenge(status: ChallengeStatus) -> Challenge {
        Challenge {
            id: 9,
            guild_id: Some(GuildId(1)),
            channel_id: ChannelId(2),
            challenger_id: UserId(10),
            opponent_id: Some(UserId(20)),
            options: Options::parse_line("exxit tiles=39").unwrap(),
            rated: false,
            status,
            message_id: None,
            game_id: None,
            created_at: 0,
            expires_at: 100,
            seconds_per_move: 86400,
            challenger_first: true,
            rematch_of: None,
            time_control: None,
            weekends_off: false,
            ratings: RatingRange::ANY,
        }
    }

    #[test]
    fn challenges_to_oneself_and_bots_are_refused() {
        assert!(check_challenge(UserId(1), UserId(1), false)
            .unwrap_err()
            .0
            .render(crate::i18n::Lang::EN)
            .contains("yourself"));
        assert!(check_challenge(UserId(1), UserId(2), true)
            .unwrap_err()
            .0
            .render(crate::i18n::Lang::EN)
            .contains("Bots"));
        assert_eq!(check_challenge(UserId(1), UserId(2), false), Ok(()));
    }

    #[test]
    fn only_the_right_member_answers_a_challenge() {
        let c = challenge(ChallengeStatus::Open);
        assert!(check_challenge_answer(&c, UserId(20), ChallengeAnswer::Accept, 50).is_ok());
        assert!(check_challenge_answer(&c, UserId(20), ChallengeAnswer::Decline, 50).is_ok());
        assert!(check_challenge_answer(&c, UserId(10), ChallengeAnswer::Withdraw, 50).is_ok());
        assert!(check_challenge_answer(&c, UserId(10), ChallengeAnswer::Accept, 50).is_err());
        assert!(check_challenge_answer(&c, UserId(30), ChallengeAnswer::Decline, 50).is_err());
        assert!(check_challenge_answer(&c, UserId(20), ChallengeAnswer::Withdraw, 50).is_err());
        let (_, store) =
            check_challenge_answer(&c, UserId(20), ChallengeAnswer::Accept, 100).unwrap_err();
        assert_eq!(store, Some(ChallengeStatus::Expired));
        let closed = challenge(ChallengeStatus::Declined);
        let (why, store) =
            check_challenge_answer(&closed, UserId(20), ChallengeAnswer::Accept, 50).unwrap_err();
        assert!(why.0.render(crate::i18n::Lang::EN).contains("declined"));
        assert_eq!(store, None);
    }

    #[test]
    fn anyone_but_its_challenger_accepts_an_open_challenge() {
        let c = Challenge {
            opponent_id: None,
            ..challenge(ChallengeStatus::Open)
        };
        let said = |user: u64, answer| {
            check_challenge_answer(&c, UserId(user), answer, 50)
                .map_err(|(why, store)| (why.0.render(crate::i18n::Lang::EN), store))
        };
        assert_eq!(said(30, ChallengeAnswer::Accept), Ok(()));
        assert_eq!(said(10, ChallengeAnswer::Withdraw), Ok(()));
        let (own, store) = said(10, ChallengeAnswer::Accept).unwrap_err();
        assert!(own.contains("your own open challenge"), "{own}");
        assert_eq!(store, None);
        let (decline, _) = said(30, ChallengeAnswer::Decline).unwrap_err();
        assert!(decline.contains("no one declines"), "{decline}");
        let (withdraw, _) = said(30, ChallengeAnswer::Withdraw).unwrap_err();
        assert!(withdraw.contains("Only the member who made"), "{withdraw}");
        let (late, store) =
            check_challenge_answer(&c, UserId(30), ChallengeAnswer::Accept, 100).unwrap_err();
        assert!(late.0.render(crate::i18n::Lang::EN).contains("expired"));
        assert_eq!(store, Some(ChallengeStatus::Expired));
    }

    #[test]
    fn rating_ranges_are_checked_and_read_as_words() {
        let range = |min, max| RatingRange { min, max };
        assert_eq!(check_rating_range(range(Some(1400), Some(1800))), Ok(()));
        assert_eq!(check_rating_range(range(None, Some(0))), Ok(()));
        assert_eq!(check_rating_range(RatingRange::ANY), Ok(()));
        let reversed = check_rating_range(range(Some(1800), Some(1400))).unwrap_err();
        assert!(reversed.0.render(crate::i18n::Lang::EN).contains("1800"));
        assert!(check_rating_range(range(Some(-1), None)).is_err());
        assert!(check_rating_range(range(None, Some(MAX_RATING + 1))).is_err());
        // A rating is compared as members see it: rounded.
        assert!(range(Some(1400), Some(1800)).admits(1399.5));
        assert!(!range(Some(1400), Some(1800)).admits(1399.4));
        assert!(!range(Some(1400), Some(1800)).admits(1800.5));
        assert!(range(None, None).admits(0.0));
        let en = |r| rating_range(r).render(crate::i18n::Lang::EN);
        assert_eq!(en(range(Some(1400), Some(1800))), "from 1400 to 1800");
        assert_eq!(en(range(Some(1400), None)), "1400 or more");
        assert_eq!(en(range(None, Some(1800))), "up to 1800");
    }

    #[test]
    fn options_of_the_other_game_are_refused_before_the_rules_see_them() {
        let tiles = ChosenOptions {
            tiles: Some(29),
            ..Default::default()
        };
        assert!(build_options(GameKind::Inphexion, &tiles)
            .unwrap_err()
            .0
            .render(crate::i18n::Lang::EN)
            .contains("tiles"));
        let size = ChosenOptions {
            size: Some(7),
            ..Default::default()
        };
        assert!(build_options(GameKind::Exxit, &size)
            .unwrap_err()
            .0
            .render(crate::i18n::Lang::EN)
            .contains("size"));
    }

    #[test]
    fn the_options_of_other_games_are_named_from_the_registry() {
        assert_eq!(
            foreign_option_names(GameKind::Inphexion),
            ["expert", "tiles"]
        );
        assert_eq!(
            foreign_option_names(GameKind::Exxit),
            ["free_reply", "neutral", "size"]
        );
        let neutral = ChosenOptions {
            neutral: Some(false),
            ..Default::default()
        };
        let why = build_options(GameKind::Exxit, &neutral).unwrap_err();
        assert!(why
            .0
            .render(crate::i18n::Lang::EN)
            .contains("`neutral` is not an option of EXXIT"));
        let flags = ChosenOptions {
            tiles: Some(29),
            expert: Some(true),
            pie: Some(false),
            ..Default::default()
        };
        assert_eq!(
            build_options(GameKind::Exxit, &flags).unwrap().to_string(),
            "exxit tiles=29 expert"
        );
    }

    #[test]
    fn valid_choices_become_the_variant_line() {
        let inph = ChosenOptions {
            size: Some(5),
            pie: Some(true),
            ..Default::default()
        };
        assert_eq!(
            build_options(GameKind::Inphexion, &inph)
                .unwrap()
                .to_string(),
            "inphexion size=5 pie"
        );
        let exxit = ChosenOptions {
            tiles: Some(19),
            ..Default::default()
        };
        assert_eq!(
            build_options(GameKind::Exxit, &exxit).unwrap().to_string(),
            "exxit tiles=19"
        );
        let even_neutral = ChosenOptions {
            size: Some(6),
            neutral: Some(true),
            ..Default::default()
        };
        let why = build_options(GameKind::Inphexion, &even_neutral).unwrap_err();
        assert!(
            why.0.render(crate::i18n::Lang::EN).contains("do not fit"),
            "{why:?}"
        );
    }
}
