//! Tournament standings: each player's points and tiebreaks from the rounds so far, and their
//! ranking. Pure functions over the rounds (no Discord, no SQL); an event's [`Rules`] (which
//! tie-breaks, in which order, and how unplayed rounds count for them) come from its format
//! ([`crate::pairings::format`]).
//!
//! - **Points** count every round: a win 1, a draw ½, a loss 0; a forfeit win 1 and a forfeit
//!   loss 0; a bye what the event gives it (1 for a Swiss pairing bye, ½ for a late join, 0 in a
//!   round robin).
//! - **Tiebreaks** ([`Tiebreak`]). `games` counts only games played over the board.
//!   - [`Unplayed::Article16`] (Swiss: **Buchholz cut-1**, then **Sonneborn–Berger**): the
//!     unplayed rounds (byes, forfeits, absences, the rounds after a withdrawal) count as FIDE's
//!     Tie-Break Regulations (2023, Article 16) have them:
//!     - a player's own unplayed round counts as a game against a dummy opponent whose score is
//!       the player's own final score, with the points the round gave (so a forfeit win or the
//!       pairing bye adds the player's own score to Sonneborn–Berger, a forfeit loss nothing);
//!     - an opponent's score is their points, except that a requested bye (a half-point or
//!       zero-point bye, an absence) followed only by voluntary unplayed rounds counts as a draw:
//!       a player who withdraws does not lower their opponents' tiebreaks;
//!     - the cut of Buchholz cut-1 takes a voluntary unplayed round (a requested bye, an absence
//!       or a forfeit loss) first, the one worth least if there are several, and the lowest
//!       contribution otherwise.
//!   - [`Unplayed::GamesOnly`] (round robin: **direct encounter**, the points scored among the
//!     players tied on points, used only when each of them has played each other; then
//!     Sonneborn–Berger over the games played, then the number of **wins**): only the games
//!     played count, against the opponents' points.
//! - Players equal on points and every tiebreak share a rank; among them the list keeps the
//!   starting order.
//!
//! Points are kept exactly, in halves (and Sonneborn–Berger in quarters); [`Score`] shows them
//! as players read them: `2½`, `3`.
//!
//! ```
//! use hexcord::standings::{standings, Entrant, Round, Rules, Tiebreak, Unplayed};
//! let win = |opponent| Round::Won { opponent };
//! let loss = |opponent| Round::Lost { opponent };
//! // Three players, one round robin: 0 beats 1 and 2, 1 beats 2.
//! let entrants = vec![
//!     Entrant::new(vec![win(1), win(2), Round::Bye { halves: 0 }]),
//!     Entrant::new(vec![loss(0), Round::Bye { halves: 0 }, win(2)]),
//!     Entrant::new(vec![Round::Bye { halves: 0 }, loss(0), loss(1)]),
//! ];
//! let rules = Rules {
//!     tiebreaks: &[Tiebreak::DirectEncounter, Tiebreak::SonnebornBerger, Tiebreak::Wins],
//!     unplayed: Unplayed::GamesOnly,
//! };
//! let table = standings(&rules, &entrants);
//! assert_eq!(table.iter().map(|s| s.player).collect::<Vec<_>>(), [0, 1, 2]);
//! assert_eq!(table[0].points.to_string(), "2");
//! ```

use std::cmp::Ordering;
use std::fmt;

use crate::i18n::Arg;

/// How an event ranks players equal on points: its tie-breaks in their order, and how unplayed
/// rounds count for them.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Rules {
    pub tiebreaks: &'static [Tiebreak],
    pub unplayed: Unplayed,
}

/// How the unplayed rounds (byes, forfeits, absences) count for the tie-breaks.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Unplayed {
    /// As FIDE's Tie-Break Regulations (2023, Article 16) have them: a dummy opponent with the
    /// player's own score, opponents' scores adjusted for requested byes at the end.
    Article16,
    /// Only the games played over the board count, against the opponents' points.
    GamesOnly,
}

/// A tie-break, with its code in FIDE's Tie-Break Regulations (as TRF-2026's `202` line lists
/// them) and its words.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Tiebreak {
    /// Buchholz cut-1 (`BH/C1`): the opponents' scores but the lowest.
    BuchholzCut1,
    /// Sonneborn–Berger (`SB`).
    SonnebornBerger,
    /// Direct encounter (`DE`): the points among the players tied, when all of them met.
    DirectEncounter,
    /// Games won over the board (`WON`).
    Wins,
}

impl Tiebreak {
    /// Its code in FIDE's Tie-Break Regulations.
    pub fn fide_code(self) -> &'static str {
        match self {
            Tiebreak::BuchholzCut1 => "BH/C1",
            Tiebreak::SonnebornBerger => "SB",
            Tiebreak::DirectEncounter => "DE",
            Tiebreak::Wins => "WON",
        }
    }

    /// Its value in `s`, compared after the points (the higher, the better).
    fn value(self, s: &Standing) -> u32 {
        match self {
            Tiebreak::BuchholzCut1 => s.buchholz_cut1.0,
            Tiebreak::SonnebornBerger => s.sonneborn_berger.0,
            Tiebreak::DirectEncounter => s.direct.0,
            Tiebreak::Wins => s.wins,
        }
    }

    /// Its value in `s` as players read it.
    pub fn shown(self, s: &Standing) -> String {
        match self {
            Tiebreak::BuchholzCut1 => s.buchholz_cut1.to_string(),
            Tiebreak::SonnebornBerger => s.sonneborn_berger.to_string(),
            Tiebreak::DirectEncounter => s.direct.to_string(),
            Tiebreak::Wins => s.wins.to_string(),
        }
    }

    /// The variable naming it in a standings line's words, and its value there.
    pub fn argument(self, s: &Standing) -> (&'static str, Arg) {
        match self {
            Tiebreak::BuchholzCut1 => ("buchholz", s.buchholz_cut1.to_string().into()),
            Tiebreak::SonnebornBerger => ("sb", s.sonneborn_berger.to_string().into()),
            Tiebreak::DirectEncounter => ("direct", s.direct.to_string().into()),
            Tiebreak::Wins => ("wins", (s.wins as i64).into()),
        }
    }

    /// The heading of its column in the standings picture (a message id).
    pub fn picture_heading(self) -> &'static str {
        match self {
            Tiebreak::BuchholzCut1 => "render-standings-buchholz",
            Tiebreak::SonnebornBerger => "render-standings-sonneborn",
            Tiebreak::DirectEncounter => "render-standings-direct",
            Tiebreak::Wins => "render-standings-wins",
        }
    }

    /// The heading of its column on the event's web page (a message id).
    pub fn page_heading(self) -> &'static str {
        match self {
            Tiebreak::BuchholzCut1 => "web-tournament-col-buchholz",
            Tiebreak::SonnebornBerger => "web-tournament-col-sb",
            Tiebreak::DirectEncounter => "web-tournament-col-direct",
            Tiebreak::Wins => "web-tournament-col-wins",
        }
    }

    /// Every tie-break (for the tests of their words).
    pub const ALL: [Tiebreak; 4] = [
        Tiebreak::BuchholzCut1,
        Tiebreak::SonnebornBerger,
        Tiebreak::DirectEncounter,
        Tiebreak::Wins,
    ];
}

/// One round of one player.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Round {
    /// A game played and won against `opponent` (an index into the entrants).
    Won { opponent: usize },
    /// A game played and drawn.
    Drawn { opponent: usize },
    /// A game played and lost.
    Lost { opponent: usize },
    /// Won without play: the opponent did not play (withdrew, lost on not starting).
    ForfeitWon { opponent: usize },
    /// Lost without play.
    ForfeitLost { opponent: usize },
    /// A bye worth `halves` half points.
    Bye { halves: u32 },
    /// Not paired this round (withdrawn, or not yet joined): nothing.
    Absent,
}

impl Round {
    /// The half points this round scores.
    pub fn halves(self) -> u32 {
        match self {
            Round::Won { .. } | Round::ForfeitWon { .. } => 2,
            Round::Drawn { .. } => 1,
            Round::Bye { halves } => halves,
            Round::Lost { .. } | Round::ForfeitLost { .. } | Round::Absent => 0,
        }
    }

    /// Whether the round is a bye the player asked for or a round they were away (Article 16's
    /// requested byes): a half-point or zero-point bye, an absence, a round after withdrawing.
    /// The pairing bye (a full point) is not one.
    fn requested_bye(self) -> bool {
        matches!(self, Round::Bye { halves: 0 | 1 } | Round::Absent)
    }

    /// Whether the round is a voluntary unplayed round: a requested bye or a forfeit loss.
    fn voluntary_unplayed(self) -> bool {
        self.requested_bye() || matches!(self, Round::ForfeitLost { .. })
    }

    /// The opponent of a game actually played, with the half points scored against them.
    pub fn played(self) -> Option<(usize, u32)> {
        match self {
            Round::Won { opponent } => Some((opponent, 2)),
            Round::Drawn { opponent } => Some((opponent, 1)),
            Round::Lost { opponent } => Some((opponent, 0)),
            _ => None,
        }
    }
}

/// A player of the event, in starting order (the index is the starting rank less one).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Entrant {
    pub rounds: Vec<Round>,
}

impl Entrant {
    pub fn new(rounds: Vec<Round>) -> Entrant {
        Entrant { rounds }
    }
}

/// Points (or a tiebreak) counted exactly in units of `1 / DENOMINATOR`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Default)]
pub struct Score<const DENOMINATOR: u32>(pub u32);

impl<const D: u32> fmt::Display for Score<D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let whole = self.0 / D;
        let rest = self.0 % D;
        let fraction = match (D, rest) {
            (_, 0) => "",
            (2, 1) | (4, 2) => "½",
            (4, 1) => "¼",
            (4, 3) => "¾",
            _ => "+",
        };
        match (whole, fraction) {
            (0, part) if !part.is_empty() => f.write_str(part),
            (w, part) => write!(f, "{w}{part}"),
        }
    }
}

/// One line of the standings.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Standing {
    /// The entrant (index into the entrants given).
    pub player: usize,
    /// 1 for the leaders; equal players share a rank.
    pub rank: usize,
    pub points: Score<2>,
    /// Games actually played.
    pub games: u32,
    pub wins: u32,
    /// Buchholz cut-1, in half points.
    pub buchholz_cut1: Score<2>,
    /// Sonneborn–Berger, in quarter points.
    pub sonneborn_berger: Score<4>,
    /// Points among the players tied on points (when they all met), in halves; 0 unless the
    /// rules rank by direct encounter.
    pub direct: Score<2>,
}

impl Standing {
    /// The tie-breaks of `rules` in their order, compared after the points.
    fn key<'a>(&'a self, rules: &'a Rules) -> impl Iterator<Item = u32> + 'a {
        rules.tiebreaks.iter().map(|t| t.value(self))
    }
}

/// The standings of `entrants` (every entrant's rounds in order) by `rules`, best first.
pub fn standings(rules: &Rules, entrants: &[Entrant]) -> Vec<Standing> {
    let points: Vec<u32> = entrants
        .iter()
        .map(|e| e.rounds.iter().map(|r| r.halves()).sum())
        .collect();
    // The scores the opponents' tiebreaks read: by Article 16, adjusted for the requested byes
    // at the end; otherwise the points.
    let opponent_score: Vec<u32> = match rules.unplayed {
        Unplayed::Article16 => entrants.iter().map(|e| adjusted_score(&e.rounds)).collect(),
        Unplayed::GamesOnly => points.clone(),
    };
    let mut table: Vec<Standing> = entrants
        .iter()
        .enumerate()
        .map(|(player, e)| {
            let own = points[player];
            let played: Vec<(u32, u32)> = e
                .rounds
                .iter()
                .filter_map(|r| r.played())
                .map(|(o, scored)| (opponent_score.get(o).copied().unwrap_or(0), scored))
                .collect();
            let (buchholz_cut1, sonneborn_berger) = match rules.unplayed {
                Unplayed::Article16 => article16_tiebreaks(&e.rounds, own, &opponent_score),
                Unplayed::GamesOnly => {
                    let mut opponents: Vec<u32> = played.iter().map(|&(p, _)| p).collect();
                    opponents.sort_unstable();
                    (
                        opponents.iter().skip(1).sum(),
                        played.iter().map(|&(p, s)| p * s).sum(),
                    )
                }
            };
            Standing {
                player,
                rank: 0,
                points: Score(own),
                games: played.len() as u32,
                wins: played.iter().filter(|&&(_, s)| s == 2).count() as u32,
                buchholz_cut1: Score(buchholz_cut1),
                sonneborn_berger: Score(sonneborn_berger),
                direct: Score(0),
            }
        })
        .collect();
    if rules.tiebreaks.contains(&Tiebreak::DirectEncounter) {
        direct_encounters(entrants, &mut table);
    }
    let order = |a: &Standing, b: &Standing| {
        b.points
            .cmp(&a.points)
            .then_with(|| b.key(rules).cmp(a.key(rules)))
    };
    table.sort_by(|a, b| order(a, b).then(a.player.cmp(&b.player)));
    for i in 0..table.len() {
        table[i].rank = if i > 0 && order(&table[i - 1], &table[i]) == Ordering::Equal {
            table[i - 1].rank
        } else {
            i + 1
        };
    }
    table
}

/// A player's score as their opponents' tiebreaks read it, in half points (Article 16): the
/// points of each round, but a requested bye followed only by voluntary unplayed rounds (a
/// withdrawal, byes to the end) counts as a draw.
fn adjusted_score(rounds: &[Round]) -> u32 {
    rounds
        .iter()
        .enumerate()
        .map(|(k, r)| {
            let to_the_end = rounds[k + 1..].iter().all(|l| l.voluntary_unplayed());
            if r.requested_bye() && to_the_end {
                1
            } else {
                r.halves()
            }
        })
        .sum()
}

/// Buchholz cut-1 (in half points) and Sonneborn–Berger (in quarter points) by Article 16 of a
/// player with final score `own` (half points), their opponents' scores read from
/// `opponent_score`.
/// Each unplayed round counts as a game against a dummy opponent with the player's own score;
/// the cut takes the least of the voluntary unplayed rounds first (Article 16).
fn article16_tiebreaks(rounds: &[Round], own: u32, opponent_score: &[u32]) -> (u32, u32) {
    // (the opponent's score, the half points scored, whether a voluntary unplayed round)
    let contributions: Vec<(u32, u32, bool)> = rounds
        .iter()
        .map(|r| match r.played() {
            Some((o, scored)) => (opponent_score.get(o).copied().unwrap_or(0), scored, false),
            None => (own, r.halves(), r.voluntary_unplayed()),
        })
        .collect();
    let sonneborn_berger = contributions.iter().map(|&(p, s, _)| p * s).sum();
    let total: u32 = contributions.iter().map(|&(p, _, _)| p).sum();
    let lowest_voluntary = contributions.iter().filter(|c| c.2).map(|c| c.0).min();
    let cut = lowest_voluntary
        .or_else(|| contributions.iter().map(|c| c.0).min())
        .unwrap_or(0);
    (total - cut, sonneborn_berger)
}

/// Fills in each player's points against the others tied with them on points, for the groups
/// of tied players who have all played each other.
fn direct_encounters(entrants: &[Entrant], table: &mut [Standing]) {
    let mut groups: Vec<(u32, Vec<usize>)> = Vec::new();
    for s in table.iter() {
        match groups.iter_mut().find(|(p, _)| *p == s.points.0) {
            Some((_, members)) => members.push(s.player),
            None => groups.push((s.points.0, vec![s.player])),
        }
    }
    for (_, members) in groups.into_iter().filter(|(_, m)| m.len() > 1) {
        let met = |a: usize, b: usize| {
            entrants[a]
                .rounds
                .iter()
                .any(|r| r.played().is_some_and(|(o, _)| o == b))
        };
        let all_met = members
            .iter()
            .all(|&a| members.iter().all(|&b| a == b || met(a, b)));
        if !all_met {
            continue;
        }
        for &a in &members {
            let among: u32 = entrants[a]
                .rounds
                .iter()
                .filter_map(|r| r.played())
                .filter(|(o, _)| members.contains(o))
                .map(|(_, s)| s)
                .sum();
            table[a].direct = Score(among);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pairings::format::TournamentFormat;
    use proptest::prelude::*;

    /// The registered formats' rules.
    fn swiss() -> &'static Rules {
        &TournamentFormat::SWISS.ranking().rules
    }
    fn round_robin() -> &'static Rules {
        &TournamentFormat::ROUND_ROBIN.ranking().rules
    }

    fn won(opponent: usize) -> Round {
        Round::Won { opponent }
    }
    fn lost(opponent: usize) -> Round {
        Round::Lost { opponent }
    }
    fn drawn(opponent: usize) -> Round {
        Round::Drawn { opponent }
    }

    #[test]
    fn scores_read_as_players_write_them() {
        assert_eq!(Score::<2>(5).to_string(), "2½");
        assert_eq!(Score::<2>(1).to_string(), "½");
        assert_eq!(Score::<2>(0).to_string(), "0");
        assert_eq!(Score::<4>(7).to_string(), "1¾");
        assert_eq!(Score::<4>(2).to_string(), "½");
    }

    /// A Swiss event of four after two rounds: 0 and 2 lead on 2; 0's opponents scored more,
    /// so 0 is first on Buchholz cut-1; a forfeit win counts as a point but not as a game.
    #[test]
    fn swiss_ranks_by_points_then_buchholz_cut1_then_sonneborn_berger() {
        let entrants = vec![
            Entrant::new(vec![won(1), won(3)]),
            Entrant::new(vec![lost(0), won(2)]),
            Entrant::new(vec![Round::ForfeitWon { opponent: 3 }, lost(1)]),
            Entrant::new(vec![Round::ForfeitLost { opponent: 2 }, lost(0)]),
        ];
        let table = standings(swiss(), &entrants);
        let order: Vec<usize> = table.iter().map(|s| s.player).collect();
        assert_eq!(order, [0, 1, 2, 3]);
        let s2 = table.iter().find(|s| s.player == 2).unwrap();
        assert_eq!((s2.points.0, s2.games, s2.wins), (2, 1, 0));
        let s0 = &table[0];
        // Opponents 1 (1 point) and 3 (0): cut-1 leaves 1.
        assert_eq!((s0.buchholz_cut1.0, s0.sonneborn_berger.0), (2, 4));
        // 1 and 2 are both on 1 point (2 halves); 1 beat 2 but the tiebreaks decide: 1's
        // opponents 0 (4 halves) and 2 (2): cut-1 4; 2's forfeit win counts as a dummy opponent
        // with 2's own score (2) and 2's opponent 1 has 2: cut-1 2.
        assert_eq!(table[1].player, 1);
        assert!(table[1].rank < table[2].rank);
    }

    /// Five players, three Swiss rounds: a pairing bye, a forfeit and a withdrawal.
    /// Round 1: 0-1 1-0, 2-3 ½-½, 4 the pairing bye. Round 2: 0-4 1-0, 1 wins by forfeit against
    /// 2, 3 the pairing bye. Round 3: 0-3 ½-½, 1-4 1-0, 2 withdrawn (absent).
    /// Points (halves): 0 5, 1 4, 2 1, 3 4, 4 2. For the opponents, 2's absence in the last round
    /// counts as a draw: 2's score is read as 2 halves.
    #[test]
    fn swiss_unplayed_rounds_count_against_a_dummy_with_the_players_own_score() {
        let entrants = vec![
            Entrant::new(vec![won(1), won(4), drawn(3)]),
            Entrant::new(vec![lost(0), Round::ForfeitWon { opponent: 2 }, won(4)]),
            Entrant::new(vec![
                drawn(3),
                Round::ForfeitLost { opponent: 1 },
                Round::Absent,
            ]),
            Entrant::new(vec![drawn(2), Round::Bye { halves: 2 }, drawn(0)]),
            Entrant::new(vec![Round::Bye { halves: 2 }, lost(0), lost(1)]),
        ];
        assert_eq!(adjusted_score(&entrants[2].rounds), 2);
        let table = standings(swiss(), &entrants);
        let of = |p: usize| table.iter().find(|s| s.player == p).unwrap();
        // 0: opponents 1 (4), 4 (2), 3 (4): cut 2 → 8; SB 4·2 + 2·2 + 4·1 = 16.
        assert_eq!((of(0).buchholz_cut1.0, of(0).sonneborn_berger.0), (8, 16));
        // 1: 0 (5), the forfeit win against a dummy with 1's own 4, 4 (2): cut 2 → 9;
        // SB 0 + 4·2 + 2·2 = 12.
        assert_eq!((of(1).buchholz_cut1.0, of(1).sonneborn_berger.0), (9, 12));
        // 2: 3 (4), the forfeit loss and the absence against dummies with 2's own 1 (both
        // voluntary: one of them is cut) → 5; SB 4·1 = 4.
        assert_eq!((of(2).buchholz_cut1.0, of(2).sonneborn_berger.0), (5, 4));
        // 3: 2 (read as 2), the pairing bye against a dummy with 3's own 4, 0 (5): cut 2 → 9;
        // SB 2·1 + 4·2 + 5·1 = 15.
        assert_eq!((of(3).buchholz_cut1.0, of(3).sonneborn_berger.0), (9, 15));
        // 4: the pairing bye against a dummy with 4's own 2, 0 (5), 1 (4): cut 2 → 9; SB 2·2 = 4.
        assert_eq!((of(4).buchholz_cut1.0, of(4).sonneborn_berger.0), (9, 4));
        // 1 and 3 tie on 4 points and 9 Buchholz: Sonneborn–Berger puts 3 first.
        let order: Vec<usize> = table.iter().map(|s| s.player).collect();
        assert_eq!(order, [0, 3, 1, 4, 2]);
        assert_eq!(of(2).games, 1);
    }

    /// Four players, three Swiss rounds. Round 1: 0-1 1-0, 2-3 1-0. Round 2: 0 a half-point bye,
    /// 1-3 1-0, 2 the pairing bye. Round 3: 0-3 1-0, 1-2 ½-½. Points (halves): 0 5, 1 3, 2 5,
    /// 3 0. 0's half-point bye is followed by a game, so it counts as ½ for 0's opponents.
    #[test]
    fn buchholz_cut1_cuts_a_voluntary_unplayed_round_first() {
        let entrants = vec![
            Entrant::new(vec![won(1), Round::Bye { halves: 1 }, won(3)]),
            Entrant::new(vec![lost(0), won(3), drawn(2)]),
            Entrant::new(vec![won(3), Round::Bye { halves: 2 }, drawn(1)]),
            Entrant::new(vec![lost(2), lost(1), lost(0)]),
        ];
        assert_eq!(adjusted_score(&entrants[0].rounds), 5);
        let table = standings(swiss(), &entrants);
        let of = |p: usize| table.iter().find(|s| s.player == p).unwrap();
        // 0: 1 (3), the half-point bye against a dummy with 0's own 5, 3 (0). The bye is cut
        // though 3's 0 is lower: 3. SB 3·2 + 5·1 + 0·2 = 11.
        assert_eq!((of(0).buchholz_cut1.0, of(0).sonneborn_berger.0), (3, 11));
        // 2: 3 (0), the pairing bye (not voluntary) against a dummy with 2's own 5, 1 (3): the
        // lowest is cut: 8. SB 0·2 + 5·2 + 3·1 = 13.
        assert_eq!((of(2).buchholz_cut1.0, of(2).sonneborn_berger.0), (8, 13));
        // 0 and 2 tie on points; 2's Buchholz puts 2 first.
        assert_eq!((table[0].player, table[1].player), (2, 0));
    }

    /// A round robin of three with every game drawn: all share first place.
    #[test]
    fn complete_ties_share_a_rank_in_starting_order() {
        let entrants = vec![
            Entrant::new(vec![drawn(1), drawn(2)]),
            Entrant::new(vec![drawn(0), drawn(2)]),
            Entrant::new(vec![drawn(0), drawn(1)]),
        ];
        let table = standings(round_robin(), &entrants);
        assert!(table.iter().all(|s| s.rank == 1));
        assert_eq!(
            table.iter().map(|s| s.player).collect::<Vec<_>>(),
            [0, 1, 2]
        );
    }

    /// Round robin: two tied on points, and the one who won their game is ahead (direct
    /// encounter), though the other has the better Sonneborn–Berger.
    #[test]
    fn round_robin_ties_go_to_the_direct_encounter_first() {
        // 0 beats 1; 1 beats 2 and 3; 2 beats 0 and 3 draws 0... points: see below.
        let entrants = vec![
            Entrant::new(vec![won(1), lost(2), won(3)]),
            Entrant::new(vec![lost(0), won(2), won(3)]),
            Entrant::new(vec![lost(1), won(0), lost(3)]),
            Entrant::new(vec![lost(0), lost(1), won(2)]),
        ];
        let table = standings(round_robin(), &entrants);
        // 0 and 1 have 2 points each; 0 beat 1.
        assert_eq!((table[0].player, table[1].player), (0, 1));
        assert_eq!((table[0].direct.0, table[1].direct.0), (2, 0));
        assert!(table[0].rank < table[1].rank);
        // 2 and 3 have 1 point each; 3 beat 2.
        assert_eq!((table[2].player, table[3].player), (3, 2));
    }

    /// A withdrawn player's unplayed games are forfeits: points for the others, not games.
    #[test]
    fn forfeits_are_points_but_not_games() {
        let entrants = vec![
            Entrant::new(vec![won(1), Round::ForfeitWon { opponent: 2 }]),
            Entrant::new(vec![lost(0), Round::ForfeitWon { opponent: 2 }]),
            Entrant::new(vec![
                Round::ForfeitLost { opponent: 0 },
                Round::ForfeitLost { opponent: 1 },
            ]),
        ];
        let table = standings(round_robin(), &entrants);
        assert_eq!(table[0].points.0, 4);
        assert_eq!(table[0].games, 1);
        assert_eq!(table[2].games, 0);
        // The forfeit adds nothing to Sonneborn–Berger: 0 beat 1, who has 1 point.
        assert_eq!(table[0].sonneborn_berger.0, 4);
    }

    fn tournament() -> impl Strategy<Value = Vec<Entrant>> {
        // Random round robins of 2–12 players: each pair's result from the seed.
        (2usize..12, any::<u64>()).prop_map(|(n, seed)| {
            let mut rounds = vec![Vec::new(); n];
            let mut s = seed;
            for a in 0..n {
                for b in a + 1..n {
                    s = s
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    let (ra, rb) = match (s >> 33) % 4 {
                        0 => (won(b), lost(a)),
                        1 => (lost(b), won(a)),
                        2 => (drawn(b), drawn(a)),
                        _ => (
                            Round::ForfeitWon { opponent: b },
                            Round::ForfeitLost { opponent: a },
                        ),
                    };
                    rounds[a].push(ra);
                    rounds[b].push(rb);
                }
            }
            rounds.into_iter().map(Entrant::new).collect()
        })
    }

    proptest! {
        /// Every player appears once; points never rise down the table; ranks are 1-based,
        /// never rise, and jump past shared places; the points of all equal the games' total.
        #[test]
        fn standings_are_a_ranking(entrants in tournament(), is_swiss in any::<bool>()) {
            let rules = if is_swiss { swiss() } else { round_robin() };
            let table = standings(rules, &entrants);
            let mut seen: Vec<usize> = table.iter().map(|s| s.player).collect();
            seen.sort_unstable();
            prop_assert_eq!(seen, (0..entrants.len()).collect::<Vec<_>>());
            prop_assert_eq!(table[0].rank, 1);
            for w in table.windows(2) {
                prop_assert!(w[0].points >= w[1].points);
                prop_assert!(w[1].rank >= w[0].rank);
            }
            for (i, s) in table.iter().enumerate() {
                prop_assert!(s.rank <= i + 1);
            }
            let n = entrants.len() as u32;
            let total: u32 = table.iter().map(|s| s.points.0).sum();
            prop_assert_eq!(total, n * (n - 1));
        }
    }
}
