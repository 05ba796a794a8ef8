//! Tournament standings: each player's points and tiebreaks from the rounds so far, and their
//! ranking. Pure functions over the rounds (no Discord, no SQL), for Swiss and round-robin
//! events.
//!
//! - **Points** count every round: a win 1, a draw ½, a loss 0; a forfeit win 1 and a forfeit
//!   loss 0; a bye what the event gives it (1 for a Swiss pairing bye, ½ for a late join, 0 in a
//!   round robin).
//! - **Tiebreaks** count only games actually played: a forfeit or a bye is not a game, so it adds
//!   nothing to an opponent's Buchholz or to anyone's Sonneborn–Berger, and `games` counts only
//!   played games.
//!   - Swiss: **Buchholz cut-1** (the opponents' final points, without the lowest), then
//!     **Sonneborn–Berger** (each opponent's final points times the result against them).
//!   - Round robin: **direct encounter** (the points scored among the players tied on points,
//!     used only when each of them has played each other), then Sonneborn–Berger, then the
//!     number of **wins**.
//! - Players equal on points and every tiebreak share a rank; among them the list keeps the
//!   starting order.
//!
//! Points are kept exactly, in halves (and Sonneborn–Berger in quarters); [`Score`] shows them
//! as players read them: `2½`, `3`.
//!
//! ```
//! use hexcord::standings::{standings, Entrant, Format, Round};
//! let win = |opponent| Round::Won { opponent };
//! let loss = |opponent| Round::Lost { opponent };
//! // Three players, one round robin: 0 beats 1 and 2, 1 beats 2.
//! let entrants = vec![
//!     Entrant::new(vec![win(1), win(2), Round::Bye { halves: 0 }]),
//!     Entrant::new(vec![loss(0), Round::Bye { halves: 0 }, win(2)]),
//!     Entrant::new(vec![Round::Bye { halves: 0 }, loss(0), loss(1)]),
//! ];
//! let table = standings(Format::RoundRobin, &entrants);
//! assert_eq!(table.iter().map(|s| s.player).collect::<Vec<_>>(), [0, 1, 2]);
//! assert_eq!(table[0].points.to_string(), "2");
//! ```

use std::cmp::Ordering;
use std::fmt;

/// How the event is paired, which decides its tiebreaks.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Format {
    Swiss,
    RoundRobin,
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
    /// Swiss: Buchholz cut-1, in half points.
    pub buchholz_cut1: Score<2>,
    /// Sonneborn–Berger, in quarter points.
    pub sonneborn_berger: Score<4>,
    /// Round robin: points among the players tied on points (when they all met), in halves.
    pub direct: Score<2>,
}

impl Standing {
    /// The tiebreaks of `format` in their order, compared after the points.
    fn key(&self, format: Format) -> [u32; 3] {
        match format {
            Format::Swiss => [self.buchholz_cut1.0, self.sonneborn_berger.0, 0],
            Format::RoundRobin => [self.direct.0, self.sonneborn_berger.0, self.wins],
        }
    }
}

/// The standings of `entrants` (every entrant's rounds in order), best first.
pub fn standings(format: Format, entrants: &[Entrant]) -> Vec<Standing> {
    let points: Vec<u32> = entrants
        .iter()
        .map(|e| e.rounds.iter().map(|r| r.halves()).sum())
        .collect();
    let opponent_points = |r: &Round| {
        r.played()
            .map(|(o, scored)| (points.get(o).copied().unwrap_or(0), scored))
    };
    let mut table: Vec<Standing> = entrants
        .iter()
        .enumerate()
        .map(|(player, e)| {
            let played: Vec<(u32, u32)> = e.rounds.iter().filter_map(opponent_points).collect();
            let mut opponents: Vec<u32> = played.iter().map(|&(p, _)| p).collect();
            opponents.sort_unstable();
            let buchholz: u32 = opponents.iter().skip(1).sum();
            Standing {
                player,
                rank: 0,
                points: Score(points[player]),
                games: played.len() as u32,
                wins: played.iter().filter(|&&(_, s)| s == 2).count() as u32,
                buchholz_cut1: Score(buchholz),
                sonneborn_berger: Score(played.iter().map(|&(p, s)| p * s).sum()),
                direct: Score(0),
            }
        })
        .collect();
    if format == Format::RoundRobin {
        direct_encounters(entrants, &mut table);
    }
    let order = |a: &Standing, b: &Standing| {
        b.points
            .cmp(&a.points)
            .then_with(|| b.key(format).cmp(&a.key(format)))
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
    use proptest::prelude::*;

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
        let table = standings(Format::Swiss, &entrants);
        let order: Vec<usize> = table.iter().map(|s| s.player).collect();
        assert_eq!(order, [0, 1, 2, 3]);
        let s2 = table.iter().find(|s| s.player == 2).unwrap();
        assert_eq!((s2.points.0, s2.games, s2.wins), (2, 1, 0));
        let s0 = &table[0];
        // Opponents 1 (1 point) and 3 (0): cut-1 leaves 1.
        assert_eq!((s0.buchholz_cut1.0, s0.sonneborn_berger.0), (2, 4));
        // 1 and 2 are both on 1 point (2 halves); 1 beat 2 but the tiebreaks decide: 1's
        // opponents 0 (4 halves) and 2 (2): cut-1 4; 2's only played opponent is 1: cut-1 0.
        assert_eq!(table[1].player, 1);
        assert!(table[1].rank < table[2].rank);
    }

    /// A round robin of three with every game drawn: all share first place.
    #[test]
    fn complete_ties_share_a_rank_in_starting_order() {
        let entrants = vec![
            Entrant::new(vec![drawn(1), drawn(2)]),
            Entrant::new(vec![drawn(0), drawn(2)]),
            Entrant::new(vec![drawn(0), drawn(1)]),
        ];
        let table = standings(Format::RoundRobin, &entrants);
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
        let table = standings(Format::RoundRobin, &entrants);
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
        let table = standings(Format::RoundRobin, &entrants);
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
        fn standings_are_a_ranking(entrants in tournament(), swiss in any::<bool>()) {
            let format = if swiss { Format::Swiss } else { Format::RoundRobin };
            let table = standings(format, &entrants);
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
