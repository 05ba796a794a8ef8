//! The tournament formats behind one interface: what an event of each format does, asked of
//! its [`Format`] and of nothing else.
//!
//! A format says how many rounds an event has for its players, pairs its next rounds from what
//! was played ([`Format::pair`]), ranks its players ([`Format::ranking`]: its tie-breaks with
//! their FIDE codes and their words), names itself in a TRF file (`092`), treats a withdrawing
//! player's games ([`Format::withdrawn_games`]), takes late entries or not, and says when the
//! event is over. The event's code (`crate::play::actions` for its rounds, withdrawals and
//! export; `/tournament`, the standings picture and the event's web page) asks these and never
//! names a format. Each format is stored by its [`Format::id`] ([`TournamentFormat::parse`]).
//!
//! The formats: [`Swiss`] (the Dutch system, [`super::pair`]) and [`RoundRobin`] (the Berger
//! tables, [`super::berger()`], single or double).
//!
//! # Adding a tournament format
//!
//! 1. **One implementation**: a type implementing [`Format`] (here, or in a module of its own
//!    under `src/pairings/`, its pairing engine beside it). Its pairing reads the event as a
//!    [`Tournament`] (the players by seed, every round's games, byes and absences, who is
//!    paired next: the same model a TRF file holds) and returns the rounds to start now, by
//!    starting rank.
//! 2. **One registration**: its entry in [`FORMATS`] (its place there is its place among
//!    `/tournament create`'s choices: add it at the end, as Discord's choices are numbered).
//! 3. **Its words**, in `assets/locales/en-US` and `assets/locales/ja`: its choice
//!    (`choice-format-N` in `commands.ftl`, N its place in [`FORMATS`]), its name in the event's
//!    card ([`Format::words`]), and, for a new way of ranking, its tie-breaks' words
//!    ([`Ranking`]). `every_format_speaks_both_languages` checks that they exist.
//!
//! Nothing else changes: the database stores the id, and the commands, rounds, withdrawals,
//! standings (text, picture, web page) and exports follow the format's answers.

use std::fmt;
use std::ops::Deref;

use super::trf::Tournament;
use super::{berger, dutch, Game, PairingError};
use crate::i18n::Text;
use crate::standings::{Rules, Tiebreak, Unplayed};
use crate::text;

/// A round a format pairs: its number, its games by starting rank, and its bye (the player's
/// starting rank and the half points it gives).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairedRound {
    pub round: i64,
    pub games: Vec<Game>,
    pub bye: Option<(u32, i64)>,
}

/// What becomes of the undecided games of a player who withdraws (or is withdrawn).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WithdrawnGames {
    /// Their game in progress is resigned, and they are paired no more; a member who left the
    /// event's server plays it out (or runs out of time).
    Resigned,
    /// Their undecided games (a round robin pairs them all at the start) are called off and
    /// scored as forfeits, which are not games played for the tie-breaks.
    Forfeited,
}

/// How a format ranks its players, and how its standings are worded and drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ranking {
    /// Its tie-breaks in order (their FIDE codes go into an export's `202` line) and how
    /// unplayed rounds count for them.
    pub rules: Rules,
    /// The tie-breaks in words, under the standings picture's title (a message id).
    pub words: &'static str,
    /// One player's line of the standings in words (a message id): `rank`, `name`, `points`,
    /// `games`, and each tie-break by [`Tiebreak::argument`].
    pub line: &'static str,
    /// The least width (px, on the picture's 900) of each tie-break's column, as `rules`.
    pub picture_widths: &'static [f32],
}

/// A tournament format. See the module's documentation for adding one.
pub trait Format: Sync {
    /// Its name in the database (never changed once used).
    fn id(&self) -> &'static str;

    /// Its choice in `/tournament create`, in the code's English (the shown names come from
    /// `choice-format-N`).
    fn choice(&self) -> &'static str;

    /// Its name in the event's card and announcements, with `rounds` its rounds (chosen, or its
    /// table's once started; 0 before).
    fn words(&self, rounds: i64) -> Text;

    /// Its kind in a TRF file (`092`).
    fn trf_kind(&self) -> &'static str;

    /// The most players it takes.
    fn max_players(&self) -> i64;

    /// Whether its organiser chooses the number of rounds (else the players decide it).
    fn rounds_chosen(&self) -> bool;

    /// Its number of rounds for `players` players at the start, `chosen` the organiser's
    /// choice (when [`Format::rounds_chosen`]).
    fn rounds(&self, players: u32, chosen: Option<i64>) -> i64;

    /// The fewest players with whom an event of `rounds` rounds can start.
    fn players_needed(&self, rounds: i64) -> i64;

    /// Whether a player may still join once `paired` of its `rounds` rounds are paired (with a
    /// ½-point bye for each).
    fn takes_late_entries(&self, paired: i64, rounds: i64) -> bool;

    /// The rounds to start now of the event `event` (its first `paired` rounds played; all
    /// its players by seed), as many as it pairs at once. [`PairingError::NoValidPairing`] ends
    /// the event.
    fn pair(&self, event: &Tournament, paired: i64) -> Result<Vec<PairedRound>, PairingError>;

    /// Whether the event is over once its paired rounds are decided: `paired` of its `rounds`
    /// rounds, `active` players not withdrawn.
    fn is_over(&self, paired: i64, rounds: i64, active: usize) -> bool {
        paired >= rounds || active < 2
    }

    /// What becomes of a withdrawing player's undecided games.
    fn withdrawn_games(&self) -> WithdrawnGames;

    /// How it ranks its players.
    fn ranking(&self) -> &'static Ranking;
}

/// Swiss rounds by the Dutch system, the number of rounds chosen; the pairing-allocated bye is
/// worth a point; late entries while fewer than half the rounds are paired.
#[derive(Clone, Copy, Debug)]
pub struct Swiss;

const SWISS_RANKING: Ranking = Ranking {
    rules: Rules {
        tiebreaks: &[Tiebreak::BuchholzCut1, Tiebreak::SonnebornBerger],
        unplayed: Unplayed::Article16,
    },
    words: "render-standings-swiss",
    line: "tournament-standing-swiss",
    picture_widths: &[175.0, 100.0],
};

impl Format for Swiss {
    fn id(&self) -> &'static str {
        "swiss"
    }

    fn choice(&self) -> &'static str {
        "Swiss"
    }

    fn words(&self, rounds: i64) -> Text {
        text!("tournament-format-swiss", rounds = rounds)
    }

    fn trf_kind(&self) -> &'static str {
        "Swiss system (Dutch)"
    }

    fn max_players(&self) -> i64 {
        256
    }

    fn rounds_chosen(&self) -> bool {
        true
    }

    fn rounds(&self, _players: u32, chosen: Option<i64>) -> i64 {
        chosen.unwrap_or(1)
    }

    fn players_needed(&self, rounds: i64) -> i64 {
        rounds + 1
    }

    fn takes_late_entries(&self, paired: i64, rounds: i64) -> bool {
        2 * paired < rounds
    }

    fn pair(&self, event: &Tournament, paired: i64) -> Result<Vec<PairedRound>, PairingError> {
        let round = dutch::pair(event)?;
        Ok(vec![PairedRound {
            round: paired + 1,
            games: round.games,
            bye: round.bye.map(|b| (b, 2)),
        }])
    }

    fn withdrawn_games(&self) -> WithdrawnGames {
        WithdrawnGames::Resigned
    }

    fn ranking(&self) -> &'static Ranking {
        &SWISS_RANKING
    }
}

/// Everyone meets everyone (`double`: twice, once with each colour) by the Berger tables, every
/// round paired and started at once; a bye is worth nothing; no late entries.
#[derive(Clone, Copy, Debug)]
pub struct RoundRobin {
    pub double: bool,
}

const ROUND_ROBIN_RANKING: Ranking = Ranking {
    rules: Rules {
        tiebreaks: &[
            Tiebreak::DirectEncounter,
            Tiebreak::SonnebornBerger,
            Tiebreak::Wins,
        ],
        unplayed: Unplayed::GamesOnly,
    },
    words: "render-standings-round-robin",
    line: "tournament-standing-round-robin",
    picture_widths: &[110.0, 90.0, 90.0],
};

impl Format for RoundRobin {
    fn id(&self) -> &'static str {
        if self.double {
            "double_round_robin"
        } else {
            "round_robin"
        }
    }

    fn choice(&self) -> &'static str {
        if self.double {
            "double round robin"
        } else {
            "round robin"
        }
    }

    fn words(&self, _rounds: i64) -> Text {
        if self.double {
            text!("tournament-format-double-round-robin")
        } else {
            text!("tournament-format-round-robin")
        }
    }

    fn trf_kind(&self) -> &'static str {
        if self.double {
            "Double round robin"
        } else {
            "Round robin"
        }
    }

    /// Each plays all the others, every game at once.
    fn max_players(&self) -> i64 {
        16
    }

    fn rounds_chosen(&self) -> bool {
        false
    }

    fn rounds(&self, players: u32, _chosen: Option<i64>) -> i64 {
        berger(players, self.double).len() as i64
    }

    fn players_needed(&self, _rounds: i64) -> i64 {
        2
    }

    fn takes_late_entries(&self, _paired: i64, _rounds: i64) -> bool {
        false
    }

    fn pair(&self, event: &Tournament, paired: i64) -> Result<Vec<PairedRound>, PairingError> {
        let players = event.entrants.len() as u32;
        Ok(berger(players, self.double)
            .into_iter()
            .enumerate()
            .map(|(r, round)| PairedRound {
                round: paired + r as i64 + 1,
                games: round.games,
                bye: round.bye.map(|b| (b, 0)),
            })
            .collect())
    }

    fn withdrawn_games(&self) -> WithdrawnGames {
        WithdrawnGames::Forfeited
    }

    fn ranking(&self) -> &'static Ranking {
        &ROUND_ROBIN_RANKING
    }
}

/// An event's format: one of [`FORMATS`], compared and stored by its id, and read through
/// [`Format`] (it dereferences to it).
#[derive(Clone, Copy)]
pub struct TournamentFormat(&'static dyn Format);

impl TournamentFormat {
    pub const SWISS: TournamentFormat = TournamentFormat(&Swiss);
    pub const ROUND_ROBIN: TournamentFormat = TournamentFormat(&RoundRobin { double: false });
    pub const DOUBLE_ROUND_ROBIN: TournamentFormat = TournamentFormat(&RoundRobin { double: true });

    /// Its name in the database.
    pub fn as_str(self) -> &'static str {
        self.0.id()
    }

    /// The registered format stored as `id`.
    pub fn parse(id: &str) -> Option<TournamentFormat> {
        FORMATS.iter().copied().find(|f| f.id() == id)
    }
}

/// Every format, in the order `/tournament create` offers them (Discord numbers its choices:
/// a new format goes at the end).
pub const FORMATS: &[TournamentFormat] = &[
    TournamentFormat::SWISS,
    TournamentFormat::ROUND_ROBIN,
    TournamentFormat::DOUBLE_ROUND_ROBIN,
];

impl Deref for TournamentFormat {
    type Target = dyn Format;

    fn deref(&self) -> &(dyn Format + 'static) {
        self.0
    }
}

impl PartialEq for TournamentFormat {
    fn eq(&self, other: &TournamentFormat) -> bool {
        self.id() == other.id()
    }
}

impl Eq for TournamentFormat {}

impl fmt::Debug for TournamentFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::{catalog, Lang};
    use crate::pairings::{Entrant, RoundEntry};

    /// `n` players who have played nothing yet.
    fn fresh(n: u32) -> Tournament {
        Tournament {
            entrants: (1..=n)
                .map(|rank| Entrant {
                    rank,
                    name: rank.to_string(),
                    rounds: Vec::<RoundEntry>::new(),
                    paired_next: true,
                })
                .collect(),
            total_rounds: Some(3),
            initial_colour: crate::pairings::Colour::White,
        }
    }

    #[test]
    fn formats_are_stored_by_distinct_ids_and_read_back() {
        for (i, f) in FORMATS.iter().enumerate() {
            assert_eq!(TournamentFormat::parse(f.as_str()), Some(*f));
            assert!(FORMATS[..i].iter().all(|g| g.id() != f.id()), "{f:?}");
            assert!(
                FORMATS[..i].iter().all(|g| g.choice() != f.choice()),
                "{f:?}"
            );
        }
        assert_eq!(TournamentFormat::parse("knockout"), None);
        assert_eq!(
            FORMATS.iter().map(|f| f.as_str()).collect::<Vec<_>>(),
            ["swiss", "round_robin", "double_round_robin"],
            "stored ids and Discord's choice numbers never change"
        );
    }

    /// Every word a format names exists in both languages, with the variables its code passes;
    /// its choice has a name in each.
    #[test]
    fn every_format_speaks_both_languages() {
        let c = catalog();
        let ja = Lang::of("ja");
        let rendered = |t: Text| [t.render(Lang::EN), t.render(ja)];
        for (i, f) in FORMATS.iter().enumerate() {
            for lang in [Lang::EN, ja] {
                let choice = format!("choice-format-{i}");
                assert!(c.get_exact(lang, &choice, None).is_some(), "{choice}");
                let r = f.ranking();
                for id in [r.words, r.line] {
                    assert!(c.get_exact(lang, id, None).is_some(), "{id} in {lang:?}");
                }
                for t in r.rules.tiebreaks {
                    for id in [t.picture_heading(), t.page_heading()] {
                        assert!(c.get_exact(lang, id, None).is_some(), "{id} in {lang:?}");
                    }
                }
            }
            for words in rendered(f.words(5)) {
                assert!(!words.contains("tournament-format"), "{words}");
            }
            assert_eq!(
                f.ranking().picture_widths.len(),
                f.ranking().rules.tiebreaks.len()
            );
        }
        assert!(c
            .get_exact(Lang::EN, &format!("choice-format-{}", FORMATS.len()), None)
            .is_none());
    }

    #[test]
    fn a_swiss_pairs_one_round_at_a_time_and_a_round_robin_all_of_them() {
        let event = fresh(5);
        let swiss = TournamentFormat::SWISS.pair(&event, 0).expect("pairs");
        assert_eq!(swiss.len(), 1);
        assert_eq!(swiss[0].round, 1);
        assert_eq!(swiss[0].games.len(), 2);
        assert_eq!(swiss[0].bye.map(|(_, halves)| halves), Some(2));
        let single = TournamentFormat::ROUND_ROBIN
            .pair(&event, 0)
            .expect("pairs");
        assert_eq!(single.len(), 5);
        assert_eq!(
            single.len() as i64,
            TournamentFormat::ROUND_ROBIN.rounds(5, None)
        );
        assert!(single.iter().all(|r| r.bye.is_some_and(|(_, h)| h == 0)));
        let double = TournamentFormat::DOUBLE_ROUND_ROBIN
            .pair(&event, 0)
            .expect("pairs");
        assert_eq!(double.len(), 10);
        assert_eq!(
            double.iter().map(|r| r.round).collect::<Vec<_>>(),
            (1..=10).collect::<Vec<_>>()
        );
        assert_eq!(TournamentFormat::SWISS.rounds(5, Some(3)), 3);
    }
}
