//! The FIDE (Dutch) system: one round's pairing, bracket by bracket (see the module
//! documentation of [`crate::pairings`] for what is exact and what is limited).
//!
//! One procedure, kept whole on purpose: the colour preferences, the quality criteria, the
//! candidates of a bracket (transpositions and exchanges) and the search among them are the
//! steps of C.04.3 in its order, and each step reads the one before; split across files, the
//! rules' order would be lost to the reader.

use std::collections::HashMap;

use super::matching::{matching_size, max_weight_matching, Bits, Lex};
use super::trf::{Colour, Tournament};
use super::{Game, PairingError, Pairings};

/// How many sets of downfloaters of one size are listed in a bracket before the sets are
/// searched for instead (see [`Engine::floatable_sets`]).
const FLOATER_SETS: usize = 4000;
/// How many sets of floaters of one size the search for them returns.
const VALID_SETS: usize = 20_000;
/// How many exchanges of one size between S1 and S2 are generated for a remainder.
const EXCHANGES: usize = 100_000;
/// The largest bracket whose pairs' criteria are kept in a table (6.8 MB at 256 players).
const COST_TABLE: usize = 256;
/// How many steps the quick search of a bracket (see [`Search`]) runs before the bracket is
/// built by weighted matchings instead ([`Construction`]); both give the same pairing.
const QUICK_STEPS: u64 = 20_000;

#[cfg(test)]
thread_local! {
    /// How many brackets were built by weighted matchings ([`Construction`]).
    pub(crate) static CONSTRUCTED: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
    /// How often the quick search and the construction, both run on a bracket of at most 64
    /// players, chose different pairings.
    pub(crate) static DISAGREED: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
    /// How often the construction by one matching over a bracket and every player below chose
    /// another pairing than the listed sets of downfloaters.
    pub(crate) static JOINT_DISAGREED: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
    /// How many brackets were built by the joint matching, and how many of two or more
    /// downfloaters were built both ways.
    pub(crate) static JOINT_BUILT: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
    pub(crate) static JOINT_CHECKED: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
    /// How many last brackets paired moved-down players with one another.
    pub(crate) static MDPS_MET: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Strength {
    None,
    Mild,
    Strong,
    Absolute,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Float {
    None,
    Down,
    Up,
}

/// A player as the pairing of the next round sees them.
#[derive(Clone, Debug)]
struct Player {
    rank: u32,
    /// The pairing number the initial colour (5.2.5) reads: the player's place in the order of
    /// the starting ranks among the players paired so far (see [`colour_numbers`]).
    colour_number: u32,
    /// The score in half points.
    score: u32,
    /// The colours of the games played, in order.
    colours: Vec<Colour>,
    /// Whites minus blacks.
    difference: i32,
    strength: Strength,
    preference: Option<Colour>,
    bye_eligible: bool,
    /// Rounds without a game played (byes, forfeits, absences).
    unplayed: u32,
    /// The float of the previous round and of the round before.
    floats: [Float; 2],
    topscorer: bool,
}

fn preference(colours: &[Colour]) -> (Strength, Option<Colour>, i32) {
    let difference: i32 = colours
        .iter()
        .map(|c| if *c == Colour::White { 1 } else { -1 })
        .sum();
    let Some(&last) = colours.last() else {
        return (Strength::None, None, 0);
    };
    let twice = colours.len() >= 2 && colours[colours.len() - 2] == last;
    let (strength, colour) = if difference > 1 {
        (Strength::Absolute, Colour::Black)
    } else if difference < -1 {
        (Strength::Absolute, Colour::White)
    } else if twice {
        (Strength::Absolute, last.opposite())
    } else if difference == 1 {
        (Strength::Strong, Colour::Black)
    } else if difference == -1 {
        (Strength::Strong, Colour::White)
    } else {
        (Strength::Mild, last.opposite())
    };
    (strength, Some(colour), difference)
}

/// The pairing numbers of the entrants (in the order of `tournament.entrants`) for the initial
/// colour (5.2.5). The starting ranks are provisional while players enter late (General Handling
/// Rules, Article 2), so the number counts only the players who have taken part in the pairing:
/// those paired in this round, and those given an opponent or the pairing-allocated bye in an
/// earlier one. A player who has never been paired (absent from the start, with byes entered in
/// advance, or a late entry not paired yet) takes no number, and the players below move up.
/// An entrant without a number gets 0.
pub(super) fn colour_numbers(tournament: &Tournament) -> Vec<u32> {
    let entrants = &tournament.entrants;
    let mut by_rank: Vec<usize> = (0..entrants.len()).collect();
    by_rank.sort_by_key(|&i| entrants[i].rank);
    let mut numbers = vec![0; entrants.len()];
    let mut next = 0;
    for i in by_rank {
        let e = &entrants[i];
        let paired_before = e.rounds.iter().any(|r| {
            r.opponent.is_some()
                || matches!(
                    r.outcome,
                    // `+` without an opponent is how older files write the pairing bye.
                    super::trf::Outcome::PairingBye | super::trf::Outcome::ForfeitWin
                )
        });
        if e.paired_next || paired_before {
            next += 1;
            numbers[i] = next;
        }
    }
    numbers
}

/// Pairs the next round of a tournament by the Dutch system.
pub fn pair(tournament: &Tournament) -> Result<Pairings, PairingError> {
    let done = tournament.rounds_played();
    let round = done as u32 + 1;
    if let Some(total) = tournament.total_rounds {
        if round > total {
            return Err(PairingError::TournamentOver { rounds: total });
        }
    }
    let final_round = tournament.total_rounds == Some(round);
    let index: HashMap<u32, usize> = tournament
        .entrants
        .iter()
        .enumerate()
        .map(|(i, e)| (e.rank, i))
        .collect();
    // Scores before each round, for the floats.
    let mut before = vec![vec![0u32; done + 1]; tournament.entrants.len()];
    for (i, e) in tournament.entrants.iter().enumerate() {
        for k in 0..done {
            let points = e.rounds.get(k).map_or(0, |r| r.outcome.half_points());
            before[i][k + 1] = before[i][k] + points;
        }
    }
    let float_of = |i: usize, k: usize| -> Float {
        let Some(entry) = tournament.entrants[i].rounds.get(k) else {
            return Float::None;
        };
        if entry.played() {
            let j = index[&entry.opponent.expect("a played game has an opponent")];
            match before[i][k].cmp(&before[j][k]) {
                std::cmp::Ordering::Greater => Float::Down,
                std::cmp::Ordering::Less => Float::Up,
                std::cmp::Ordering::Equal => Float::None,
            }
        } else if entry.outcome.half_points() > 0 {
            Float::Down
        } else {
            Float::None
        }
    };
    let numbers = colour_numbers(tournament);
    let mut players = Vec::new();
    let mut played_against: Vec<Vec<u32>> = Vec::new();
    for (i, e) in tournament.entrants.iter().enumerate() {
        if !e.paired_next {
            continue;
        }
        let colours: Vec<Colour> = e
            .rounds
            .iter()
            .filter(|r| r.played())
            .filter_map(|r| r.colour)
            .collect();
        let (strength, preference, difference) = preference(&colours);
        let score = before[i][done];
        players.push(Player {
            rank: e.rank,
            colour_number: numbers[i],
            score,
            difference,
            strength,
            preference,
            colours,
            bye_eligible: !e.rounds.iter().any(|r| {
                r.opponent.is_none() && r.outcome.half_points() == 2
                    || r.outcome == super::trf::Outcome::ForfeitWin
            }),
            unplayed: (0..done)
                .filter(|&k| !e.rounds.get(k).is_some_and(|r| r.played()))
                .count() as u32,
            floats: [
                if done >= 1 {
                    float_of(i, done - 1)
                } else {
                    Float::None
                },
                if done >= 2 {
                    float_of(i, done - 2)
                } else {
                    Float::None
                },
            ],
            topscorer: final_round && score > done as u32,
        });
        played_against.push(
            e.rounds
                .iter()
                .filter(|r| r.played())
                .filter_map(|r| r.opponent)
                .collect(),
        );
    }
    // Pairing order (1.2): score, then pairing number.
    let mut order: Vec<usize> = (0..players.len()).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(players[i].score), players[i].rank));
    let players: Vec<Player> = order.iter().map(|&i| players[i].clone()).collect();
    let played_against: Vec<Vec<u32>> = order.iter().map(|&i| played_against[i].clone()).collect();
    let engine = Engine::new(players, &played_against, tournament.initial_colour)?;
    engine.run()
}

/// A criteria vector of a candidate, compared lexicographically (smaller is better): C10 to
/// C17 in its first [`PLAIN`] words, then C18–C21 in `(N - PLAIN) / 4` words each, the most
/// significant first (see [`Levels`]).
type Key<const N: usize> = [u64; N];

/// The words of C10–C17 in a [`Key`].
const PLAIN: usize = 8;

/// The most words a criterion of C18–C21 takes (4,096 bits).
const MAX_WORDS: usize = 64;

/// The score differences of the repeated floats (C18–C21) as numbers that add up pair by pair
/// and compare as the rules compare them: as lists sorted from the highest difference. Each
/// difference that can occur in the bracket has bits of its own, wide enough for the most
/// players who can have it, the higher differences in the higher bits; a player with difference
/// `d` adds one at the lowest bit of `d`'s field. Two lists of the same length (C14–C17 are
/// equal before these are weighed) then compare as their numbers do. The number takes as many
/// 64-bit words as its fields need (no field across two words, so a sum never carries from one
/// word to the next and the words compare in order as the number does).
struct Levels {
    /// (difference, word, shift), the differences ascending; word 0 the least significant.
    fields: Vec<(u32, usize, u32)>,
    /// The words the fields take.
    words: usize,
    /// When they would take more than [`MAX_WORDS`] (more than about a thousand different
    /// scores among one bracket's MDPs), the differences themselves are summed instead.
    summed: bool,
}

impl Levels {
    /// `counts`: each difference that can occur and how many players can have it.
    fn new(mut counts: Vec<(u32, u32)>) -> Levels {
        counts.sort_unstable();
        let mut merged: Vec<(u32, u32)> = Vec::new();
        for (d, c) in counts {
            match merged.last_mut() {
                Some((last, n)) if *last == d => *n += c,
                _ => merged.push((d, c)),
            }
        }
        let (mut word, mut shift) = (0, 0);
        let mut fields = Vec::with_capacity(merged.len());
        for (d, c) in merged {
            let width = u32::BITS - c.leading_zeros();
            if shift + width > u64::BITS {
                word += 1;
                shift = 0;
            }
            fields.push((d, word, shift));
            shift += width;
        }
        let words = word + 1;
        Levels {
            fields,
            words: words.min(MAX_WORDS),
            summed: words > MAX_WORDS,
        }
    }

    /// Adds one player with score difference `d` to the criterion `c` (0 to 3 for C18 to C21)
    /// of `key`.
    fn add_to<const N: usize>(&self, key: &mut Key<N>, c: usize, d: u32) {
        let per = (N - PLAIN) / 4;
        let last = PLAIN + (c + 1) * per - 1;
        if self.summed {
            key[last] += u64::from(d);
        } else if let Some(&(_, word, shift)) = self.fields.iter().find(|f| f.0 == d) {
            key[last - word] += 1 << shift;
        }
    }
}

fn add<const N: usize>(a: &Key<N>, b: &Key<N>) -> Key<N> {
    let mut k = *a;
    for (x, y) in k.iter_mut().zip(b) {
        *x += y;
    }
    k
}

fn min_each<const N: usize>(a: &Key<N>, b: &Key<N>) -> Key<N> {
    let mut k = *a;
    for (x, y) in k.iter_mut().zip(b) {
        *x = (*x).min(*y);
    }
    k
}

/// The score differences of the repeated floats in a bracket (see [`Levels`]): those of the
/// downfloats and of the upfloats, in the previous round and the one before.
struct FloatLevels {
    down: [Levels; 2],
    up: [Levels; 2],
    /// The bracket's lowest score.
    lowest: u32,
}

impl FloatLevels {
    /// The score differences of the repeated floats (C18–C21). An MDP who downfloated in the
    /// round considered receives the same downfloat again whatever happens: its score
    /// difference is that of its pair when it is paired here, and when it floats on, its score
    /// less one point below the bracket's lowest score (the PSD's definition), as for a
    /// resident who floats. A resident who upfloated then and meets an MDP has the difference
    /// of their two scores.
    ///
    /// When the moved-down players may meet one another (`meet`: the last bracket), an MDP
    /// paired with another has the difference to its opponent's score (none below it), and the
    /// lower scored of the two upfloats with that difference.
    fn new(engine: &Engine, members: &[usize], mdps: usize, meet: bool) -> FloatLevels {
        let player = |x: usize| &engine.players[members[x]];
        let lowest = members
            .iter()
            .map(|&m| engine.players[m].score)
            .min()
            .unwrap_or(0);
        // The differences MDP `x` can have against another MDP (each distinct one once: the
        // MDP meets one opponent).
        let against_mdps = |x: usize, below_only: bool| {
            let mut d: Vec<u32> = (0..mdps)
                .filter(|&y| y != x && (!below_only || player(y).score < player(x).score))
                .map(|y| player(x).score.saturating_sub(player(y).score))
                .collect();
            d.sort_unstable();
            d.dedup();
            d
        };
        let levels = |k: usize| {
            let mut down = Vec::new();
            let mut up = Vec::new();
            for x in 0..members.len() {
                let p = player(x);
                if p.floats[k] == Float::Down {
                    if x < mdps {
                        down.push((p.score - lowest, 1));
                        if meet {
                            down.extend(against_mdps(x, false).into_iter().map(|d| (d, 1)));
                        }
                    }
                    down.push((p.score + 2 - lowest, 1));
                }
                if x < mdps {
                    up.push((p.score - lowest, 1));
                    if meet {
                        up.extend(against_mdps(x, true).into_iter().map(|d| (d, 1)));
                    }
                }
            }
            (Levels::new(down), Levels::new(up))
        };
        let [(down_1, up_1), (down_2, up_2)] = [levels(0), levels(1)];
        FloatLevels {
            down: [down_1, down_2],
            up: [up_1, up_2],
            lowest,
        }
    }

    /// The words each of C18–C21 needs.
    fn words(&self) -> usize {
        self.down
            .iter()
            .chain(&self.up)
            .map(|l| l.words)
            .max()
            .unwrap_or(1)
    }
}

/// The part of a bracket's quality decided by its set of downfloaters, before the colours:
/// C7 (their scores, highest first), C8 (the pairs the next bracket can make, negated, then the
/// scores of the downfloaters it must leave unpaired, highest first), C9 (the bye's unplayed
/// games).
type FloaterKey = (Vec<u32>, u32, Vec<u32>, u32);

/// A bracket's pairing found by the search: its key, its pairs and its downfloaters (local).
type Candidate<const N: usize> = (Key<N>, Vec<(usize, usize)>, Bits);

struct Engine {
    players: Vec<Player>,
    adj: Vec<Bits>,
    /// Players who may get the bye (C2) with the lowest possible score (C5).
    bye_ok: Bits,
    initial: Colour,
    /// Set when a bracket's sets of downfloaters were more than are listed (see [`Joint`]).
    cut: std::cell::Cell<bool>,
}

impl Engine {
    fn new(
        players: Vec<Player>,
        played_against: &[Vec<u32>],
        initial: Colour,
    ) -> Result<Engine, PairingError> {
        let n = players.len();
        let mut adj = vec![Bits::new(n); n];
        for i in 0..n {
            for j in i + 1..n {
                let (a, b) = (&players[i], &players[j]);
                let rematch = played_against[i].contains(&b.rank);
                let same_absolute = !a.topscorer
                    && !b.topscorer
                    && a.strength == Strength::Absolute
                    && b.strength == Strength::Absolute
                    && a.preference == b.preference;
                if !rematch && !same_absolute {
                    adj[i].insert(j);
                    adj[j].insert(i);
                }
            }
        }
        let mut engine = Engine {
            players,
            adj,
            bye_ok: Bits::new(n),
            initial,
            cut: std::cell::Cell::new(false),
        };
        let all = Bits::from_iter(n, 0..n);
        if n.is_multiple_of(2) {
            if !engine.pairable(&all, None, None) {
                return Err(PairingError::NoValidPairing);
            }
            return Ok(engine);
        }
        // C5: the lowest score the bye can go to with the round still complete.
        let mut scores: Vec<u32> = engine
            .players
            .iter()
            .filter(|p| p.bye_eligible)
            .map(|p| p.score)
            .collect();
        scores.sort_unstable();
        scores.dedup();
        for s in scores {
            let ok = Bits::from_iter(
                n,
                (0..n).filter(|&i| engine.players[i].bye_eligible && engine.players[i].score <= s),
            );
            if engine.pairable(&all, None, Some(&ok)) {
                engine.bye_ok = ok;
                return Ok(engine);
            }
        }
        Err(PairingError::NoValidPairing)
    }

    fn n(&self) -> usize {
        self.players.len()
    }

    /// Dirac's condition: every player of `set` has partners (no two of `apart` meeting) among
    /// at least half of the set, so the set has a Hamiltonian cycle (when it has 3 or more).
    fn dirac(&self, set: &Bits, apart: Option<&Bits>) -> bool {
        let count = set.len();
        let apart = apart.map(|a| Bits::from_iter(self.n(), a.iter().filter(|&i| set.contains(i))));
        set.iter().all(|v| {
            let mut d = self.adj[v].common(set);
            if let Some(a) = &apart {
                if a.contains(v) {
                    d -= self.adj[v].common(a);
                }
            }
            2 * d >= count
        })
    }

    /// Whether the players of `set` can all be paired (but one of `bye`, when they are odd),
    /// no two of `apart` meeting.
    fn pairable(&self, set: &Bits, apart: Option<&Bits>, bye: Option<&Bits>) -> bool {
        let count = set.len();
        if count == 0 {
            return true;
        }
        let apart = apart.map(|a| Bits::from_iter(self.n(), a.iter().filter(|&i| set.contains(i))));
        let degree = |v: usize, set: &Bits| {
            let mut d = self.adj[v].common(set);
            if let Some(a) = &apart {
                if a.contains(v) {
                    d -= self.adj[v].common(a);
                }
            }
            d
        };
        if count.is_multiple_of(2) {
            // Dirac: a minimum degree of half the vertices gives a Hamiltonian cycle.
            if set.iter().all(|v| 2 * degree(v, set) >= count) {
                return true;
            }
            return self.blossom_perfect(set, apart.as_ref(), None);
        }
        let Some(bye) = bye else { return false };
        let candidates: Vec<usize> = set.iter().filter(|&v| bye.contains(v)).collect();
        let Some(&last) = candidates.last() else {
            return false;
        };
        let mut rest = set.clone();
        rest.remove(last);
        let apart_ok = apart.as_ref().is_none_or(|a| !a.contains(last));
        if apart_ok && rest.iter().all(|v| 2 * degree(v, &rest) >= count - 1) {
            return true;
        }
        self.blossom_perfect(set, apart.as_ref(), Some(&candidates))
    }

    fn blossom_perfect(&self, set: &Bits, apart: Option<&Bits>, bye: Option<&[usize]>) -> bool {
        let (adj, vertices) = self.local_graph(set, apart, bye);
        matching_size(&adj) * 2 == vertices
    }

    /// The graph induced by `set` (with a dummy vertex joined to `bye`, if given), no edges
    /// between two of `apart`; and its number of vertices.
    fn local_graph(
        &self,
        set: &Bits,
        apart: Option<&Bits>,
        bye: Option<&[usize]>,
    ) -> (Vec<Vec<usize>>, usize) {
        let members: Vec<usize> = set.iter().collect();
        let mut local = vec![usize::MAX; self.n()];
        for (k, &v) in members.iter().enumerate() {
            local[v] = k;
        }
        let mut adj: Vec<Vec<usize>> = members
            .iter()
            .map(|&v| {
                self.adj[v]
                    .iter()
                    .filter(|&u| set.contains(u))
                    .filter(|&u| !apart.is_some_and(|a| a.contains(u) && a.contains(v)))
                    .map(|u| local[u])
                    .collect()
            })
            .collect();
        if let Some(bye) = bye {
            let dummy = adj.len();
            adj.push(bye.iter().map(|&v| local[v]).collect());
            for &v in bye {
                adj[local[v]].push(dummy);
            }
        }
        let vertices = adj.len();
        (adj, vertices)
    }

    /// The number of pairs of a maximum matching of `set`, no two of `apart` meeting.
    fn max_pairs(&self, set: &Bits, apart: Option<&Bits>) -> usize {
        let count = set.len();
        if count.is_multiple_of(2) {
            if self.pairable(set, apart, None) {
                return count / 2;
            }
        } else if count >= 3 && self.dirac(set, apart) {
            // A Hamiltonian cycle of an odd number of players pairs all but one.
            return count / 2;
        }
        let (adj, _) = self.local_graph(set, apart, None);
        matching_size(&adj)
    }

    /// The sets of `size` of the players `candidates` who, floated with `base`, leave the rest
    /// of `set` pairable (no two of `apart` meeting): their places in `candidates`, at most
    /// [`VALID_SETS`] of them, those of the lowest ranked (the last candidates) first. A branch is cut as soon as the
    /// players left cannot make the pairs the rest needs (a maximum matching), so the time goes
    /// to the sets that are valid, however many the invalid ones.
    fn floatable_sets(
        &self,
        set: &Bits,
        apart: Option<&Bits>,
        base: &Bits,
        candidates: &[usize],
        size: usize,
    ) -> Vec<Vec<usize>> {
        let mut rest = set.clone();
        for v in base.iter() {
            rest.remove(v);
        }
        let mut out = Vec::new();
        let Some(needed) = rest.len().checked_sub(size) else {
            return out;
        };
        let mut search = FloatableSearch {
            rest,
            apart,
            candidates,
            size,
            needed: needed / 2,
            chosen: Vec::new(),
            out: &mut out,
        };
        search.from(self, candidates.len());
        if out.len() >= VALID_SETS {
            self.cut.set(true);
        }
        out
    }

    /// Whether the players of `set` can complete the round (C4), the bye going to a player of
    /// the lowest possible score (C5).
    fn completable(&self, set: &Bits) -> bool {
        self.pairable(set, None, Some(&self.bye_ok))
    }

    /// The colours of a pair by the colour allocation rules (5.2): (white, black).
    fn colours(&self, a: usize, b: usize) -> (usize, usize) {
        // `a` is the higher ranked (a lower index in pairing order).
        let (a, b) = if a < b { (a, b) } else { (b, a) };
        let (pa, pb) = (&self.players[a], &self.players[b]);
        let give = |colour: Colour| {
            if colour == Colour::White {
                (a, b)
            } else {
                (b, a)
            }
        };
        match (pa.preference, pb.preference) {
            // 5.2.1: both preferences granted (a player without one takes the other colour).
            (Some(x), Some(y)) if x != y => return give(x),
            (Some(x), None) => return give(x),
            (None, Some(y)) => return give(y.opposite()),
            (None, None) => {}
            (Some(x), Some(_)) => {
                // 5.2.2: the stronger preference; both absolute: the wider colour difference.
                if pa.strength != pb.strength {
                    return if pa.strength > pb.strength {
                        give(x)
                    } else {
                        give(x.opposite())
                    };
                }
                if pa.strength == Strength::Absolute && pa.difference.abs() != pb.difference.abs() {
                    return if pa.difference.abs() > pb.difference.abs() {
                        give(x)
                    } else {
                        give(x.opposite())
                    };
                }
                // 5.2.3: alternate from the latest round in which their colours differed.
                for (ca, cb) in pa.colours.iter().rev().zip(pb.colours.iter().rev()) {
                    if ca != cb {
                        return give(ca.opposite());
                    }
                }
                // 5.2.4: the higher ranked player's preference.
                return give(x);
            }
        }
        // 5.2.5: the initial colour to the higher ranked player if their number is odd.
        if pa.colour_number % 2 == 1 {
            give(self.initial)
        } else {
            give(self.initial.opposite())
        }
    }

    /// The colour criteria (C10–C13) and the upfloat counts (C15, C17) of a pair; `upfloat`
    /// when the lower ranked player meets an MDP of a higher score (and so upfloats).
    fn pair_key(&self, a: usize, b: usize, upfloat: bool) -> [u64; PLAIN] {
        let mut key = [0; PLAIN];
        let (white, black) = self.colours(a, b);
        let top = self.players[a].topscorer || self.players[b].topscorer;
        for (v, got) in [(white, Colour::White), (black, Colour::Black)] {
            let p = &self.players[v];
            if top {
                let d = p.difference + if got == Colour::White { 1 } else { -1 };
                if d.abs() > 2 {
                    key[0] += 1;
                }
                let n = p.colours.len();
                if n >= 2 && p.colours[n - 1] == got && p.colours[n - 2] == got {
                    key[1] += 1;
                }
            }
            if p.preference.is_some_and(|c| c != got) {
                key[2] += 1;
                if p.strength >= Strength::Strong {
                    key[3] += 1;
                }
            }
        }
        if upfloat {
            // The lower ranked upfloats.
            let r = &self.players[a.max(b)];
            if r.floats[0] == Float::Up {
                key[5] += 1;
            }
            if r.floats[1] == Float::Up {
                key[7] += 1;
            }
        }
        key
    }

    fn run(&self) -> Result<Pairings, PairingError> {
        let n = self.n();
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for i in 0..n {
            match groups.last_mut() {
                Some(g) if self.players[g[0]].score == self.players[i].score => g.push(i),
                _ => groups.push(vec![i]),
            }
        }
        let mut lower = Bits::from_iter(n, 0..n);
        let mut moved: Vec<usize> = Vec::new();
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        for (gi, group) in groups.iter().enumerate() {
            for &v in group {
                lower.remove(v);
            }
            let mut members = moved.clone();
            members.extend(group);
            let last = gi + 1 == groups.len();
            let (bracket_pairs, floaters) =
                self.bracket(&members, moved.len(), &lower, groups.get(gi + 1), last)?;
            pairs.extend(bracket_pairs);
            moved = floaters;
        }
        if moved.len() > 1 {
            return Err(PairingError::NoValidPairing);
        }
        let mut games: Vec<Game> = pairs
            .iter()
            .map(|&(a, b)| {
                let (w, bl) = self.colours(a, b);
                Game {
                    white: self.players[w].rank,
                    black: self.players[bl].rank,
                }
            })
            .collect();
        // Board order: the higher score in the pair, the sum of scores, the higher ranked.
        let by_rank: HashMap<u32, &Player> = self.players.iter().map(|p| (p.rank, p)).collect();
        let info = |g: &Game| {
            let (w, b) = (by_rank[&g.white], by_rank[&g.black]);
            (
                std::cmp::Reverse(w.score.max(b.score)),
                std::cmp::Reverse(w.score + b.score),
                w.rank.min(b.rank),
            )
        };
        games.sort_by_key(info);
        Ok(Pairings {
            games,
            bye: moved.first().map(|&v| self.players[v].rank),
        })
    }

    /// Pairs one bracket: its members (global indices, in pairing order, the first `mdps` of them
    /// moved down), the players of the lower scoregroups, the next scoregroup. Returns the pairs
    /// and the downfloaters.
    #[allow(clippy::type_complexity)]
    fn bracket(
        &self,
        members: &[usize],
        mdps: usize,
        lower: &Bits,
        next: Option<&Vec<usize>>,
        last: bool,
    ) -> Result<(Vec<(usize, usize)>, Vec<usize>), PairingError> {
        let n = self.n();
        let b = members.len();
        let set = Bits::from_iter(n, members.iter().copied());
        // In the last bracket moved-down players may meet (nothing lies below to take them).
        let apart =
            (!last && mdps > 1).then(|| Bits::from_iter(n, members[..mdps].iter().copied()));
        let max_pairs = self.max_pairs(&set, apart.as_ref());
        let residents = b - mdps;
        self.cut.set(false);
        // Whether a joint matching can take the bracket when its sets are cut (then the sets
        // are not weighed past the cut).
        let joint_fits = !last
            && next.is_some()
            && ScoreFields::new(members.iter().map(|&m| self.players[m].score)).is_some();
        // The candidate sets of downfloaters (local indices), by size (C6), the best by C7–C9.
        let mut allowed: Vec<(Bits, FloaterKey)> = Vec::new();
        // The bracket built by one matching over it and every player below (see [`Joint`]),
        // when its sets of downfloaters are more than are listed.
        let mut joint: Option<Joint> = None;
        let mut k = b - 2 * max_pairs;
        while k <= b {
            let mut found: Vec<(Bits, Bits)> = Vec::new();
            for j in 0..=k.min(mdps) {
                if k - j > residents {
                    continue;
                }
                if last && k > 1 {
                    continue;
                }
                let mdp_sets = combinations(mdps, j, FLOATER_SETS);
                if binomial(mdps, j) > FLOATER_SETS as u64 {
                    self.cut.set(true);
                }
                // Every set of residents when they are few; otherwise only those that leave the
                // rest pairable, found by a search.
                let listed = binomial(residents, k - j).saturating_mul(mdp_sets.len() as u64)
                    <= FLOATER_SETS as u64;
                let all_sets = if listed {
                    combinations(residents, k - j, FLOATER_SETS)
                } else {
                    Vec::new()
                };
                for m in &mdp_sets {
                    let searched;
                    let resident_sets = if listed {
                        &all_sets
                    } else {
                        let base = Bits::from_iter(n, m.iter().map(|&x| members[x]));
                        searched = self.floatable_sets(
                            &set,
                            apart.as_ref(),
                            &base,
                            &members[mdps..],
                            k - j,
                        );
                        &searched
                    };
                    if joint_fits && self.cut.get() {
                        break;
                    }
                    for r in resident_sets {
                        let local: Vec<usize> = m
                            .iter()
                            .copied()
                            .chain(r.iter().map(|&x| mdps + x))
                            .collect();
                        if last && local.len() > 1 {
                            continue;
                        }
                        let floaters = Bits::from_iter(n, local.iter().map(|&x| members[x]));
                        let mut rest = set.clone();
                        for v in floaters.iter() {
                            rest.remove(v);
                        }
                        if !self.pairable(&rest, apart.as_ref(), None) {
                            continue;
                        }
                        if !self.completable(&floaters.union(lower)) {
                            continue;
                        }
                        found.push((Bits::from_iter(b, local), floaters));
                    }
                }
            }
            if let (true, Some(next)) = (self.cut.get(), next.filter(|_| !last)) {
                joint = Joint::new(self, members, lower, next);
                if joint.is_some() {
                    break;
                }
            }
            if !found.is_empty() {
                // C7 first: the rest of the key is weighed only among the sets it leaves equal.
                let scores = |f: &Bits| {
                    let mut s: Vec<u32> = f.iter().map(|v| self.players[v].score).collect();
                    s.sort_unstable_by(|a, b| b.cmp(a));
                    s
                };
                let best_scores = found.iter().map(|f| scores(&f.1)).min().expect("not empty");
                let keyed: Vec<(Bits, FloaterKey)> = found
                    .into_iter()
                    .filter(|f| scores(&f.1) == best_scores)
                    .map(|(local, floaters)| {
                        let key = self.floater_key(&floaters, next, lower, last);
                        (local, key)
                    })
                    .collect();
                let best = keyed.iter().map(|f| &f.1).min().expect("not empty").clone();
                allowed = keyed.into_iter().filter(|f| f.1 == best).collect();
                break;
            }
            k += 2;
        }
        // More sets than are listed (C8 may list the next bracket's sets too): the bracket is
        // built by one matching over it and every player below, C6–C8 in its weight.
        if let (true, None, Some(next)) = (self.cut.get(), &joint, next.filter(|_| !last)) {
            joint = Joint::new(self, members, lower, next);
        }
        let cut = joint.is_some();
        // The tests build every bracket of a small round both ways (C9 aside: it is weighed
        // for a single downfloater only, whose sets are always listed).
        #[cfg(test)]
        if let (false, Some(next), Some((first, _))) = (cut, next, allowed.first()) {
            if !last && first.len() != 1 && b + lower.len() <= 96 {
                joint = Joint::new(self, members, lower, next);
            }
        }
        if allowed.is_empty() && !cut {
            return Err(PairingError::NoValidPairing);
        }
        let joint = joint.as_ref().map(|j| (j, cut));
        // C18–C21 take as many words as the bracket's score differences need.
        let levels = FloatLevels::new(self, members, mdps, last && mdps > 1);
        let chosen = match levels.words() {
            1 => self.choose::<12, 16, 22>(members, mdps, &allowed, last, levels, joint),
            2..=4 => self.choose::<24, 28, 34>(members, mdps, &allowed, last, levels, joint),
            5..=16 => self.choose::<72, 76, 82>(members, mdps, &allowed, last, levels, joint),
            _ => self.choose::<264, 268, 274>(members, mdps, &allowed, last, levels, joint),
        };
        let Some((pairs, floaters)) = chosen else {
            return Err(PairingError::NoValidPairing);
        };
        Ok((
            pairs
                .into_iter()
                .map(|(x, y)| (members[x], members[y]))
                .collect(),
            floaters.iter().map(|x| members[x]).collect(),
        ))
    }

    /// The bracket's pairs and downfloaters (local) among the allowed sets, with C18–C21 in
    /// keys of `N` words (`M`, `N` and four, for the weights of the matchings; `J`, `M` and
    /// [`PREFIX`] less one, for those of a [`Joint`] matching). With `joint` and its flag set,
    /// the bracket is built by the joint matching, the allowed sets left aside.
    #[allow(clippy::type_complexity)]
    fn choose<const N: usize, const M: usize, const J: usize>(
        &self,
        members: &[usize],
        mdps: usize,
        allowed: &[(Bits, FloaterKey)],
        last: bool,
        levels: FloatLevels,
        joint: Option<(&Joint, bool)>,
    ) -> Option<(Vec<(usize, usize)>, Bits)> {
        let mut search = Search::<N>::new(self, members, mdps, allowed, last, levels);
        if let Some((joint, true)) = joint {
            #[cfg(test)]
            JOINT_BUILT.with(|l| l.set(l.get() + 1));
            let mut construction = Construction::<N, M, J>::new(&search);
            construction.joint = Some(joint);
            if let Some(built) = construction.build() {
                return Some(built);
            }
        }
        if allowed.is_empty() {
            return None;
        }
        let chosen = self.choose_listed::<N, M, J>(&mut search, last);
        #[cfg(test)]
        if let (Some((joint, false)), Some((pairs, floaters))) = (joint, &chosen) {
            let mut construction = Construction::<N, M, J>::new(&search);
            construction.joint = Some(joint);
            let built = construction.build();
            if built.as_ref().map(|(p, f)| (sorted(p), f)) != Some((sorted(pairs), floaters)) {
                JOINT_DISAGREED.with(|l| l.set(l.get() + 1));
            }
            if floaters.len() >= 2 {
                JOINT_CHECKED.with(|l| l.set(l.get() + 1));
            }
        }
        chosen
    }

    /// [`Engine::choose`] among the allowed sets.
    #[allow(clippy::type_complexity)]
    fn choose_listed<const N: usize, const M: usize, const J: usize>(
        &self,
        search: &mut Search<'_, N>,
        last: bool,
    ) -> Option<(Vec<(usize, usize)>, Bits)> {
        let chosen = if search.quick() {
            let found = search.best.take();
            #[cfg(test)]
            if search.b() <= 64 {
                // Two exact methods: the same pairing.
                let built = Construction::<N, M, J>::new(search).build();
                if built.as_ref().map(|(p, f)| (sorted(p), f))
                    != found.as_ref().map(|(_, p, f)| (sorted(p), f))
                {
                    DISAGREED.with(|l| l.set(l.get() + 1));
                }
            }
            found.map(|(_, pairs, floaters)| (pairs, floaters))
        } else {
            #[cfg(test)]
            CONSTRUCTED.with(|l| l.set(l.get() + 1));
            Construction::<N, M, J>::new(search).build()
        };
        // In the last bracket nothing lies below to take the moved-down players the structure
        // of S1 and S2 cannot pair (those who may only meet one another): they meet there, the
        // pairing chosen by the same criteria and order.
        match chosen {
            None if last => {
                #[cfg(test)]
                MDPS_MET.with(|l| l.set(l.get() + 1));
                let mut construction = Construction::<N, M, J>::new(search);
                construction.mdps_meet = true;
                construction.build()
            }
            chosen => chosen,
        }
    }

    fn floater_key(
        &self,
        floaters: &Bits,
        next: Option<&Vec<usize>>,
        lower: &Bits,
        last: bool,
    ) -> FloaterKey {
        let mut scores: Vec<u32> = floaters.iter().map(|v| self.players[v].score).collect();
        scores.sort_unstable_by(|a, b| b.cmp(a));
        let (mut next_pairs, mut left_unpaired) = (0, Vec::new());
        if let (Some(next), false) = (next, last) {
            if floaters.len() > 0 {
                (next_pairs, left_unpaired) = self.next_bracket(floaters, next, lower);
            }
        }
        (
            scores,
            u32::MAX - next_pairs,
            left_unpaired,
            self.bye_unplayed(floaters, lower, last),
        )
    }

    /// C9: the unplayed rounds of the bye's receiver, weighed only where the rules apply it, in
    /// a bracket that downfloats exactly one player who will receive the bye: the last bracket's
    /// one unpaired player, or a bracket's only downfloater who may receive the bye (its score
    /// is the bye's, C5, so every player below it pairs among themselves). A bracket that sends
    /// down several players, one to receive the bye and the others to meet players below, does
    /// not weigh it: there the colours come first. 0 when it does not apply.
    fn bye_unplayed(&self, floaters: &Bits, lower: &Bits, last: bool) -> u32 {
        if floaters.len() != 1 || (!last && lower.len() % 2 == 1) {
            return 0;
        }
        let f = floaters.iter().next().expect("one floater");
        if self.bye_ok.contains(f) {
            self.players[f].unplayed
        } else {
            0
        }
    }

    /// C8: how well the next bracket can be paired with these downfloaters as its MDPs, every
    /// bracket below it still able to complete the round (C4 looks at the whole rest of the
    /// round, not only at the next bracket): the most pairs it can make, and with that many
    /// pairs, the scores of the MDPs it must leave unpaired, highest first (the fewer and the
    /// lower, the lower its PSD). `lower` holds the players below the current bracket.
    fn next_bracket(&self, floaters: &Bits, next: &[usize], lower: &Bits) -> (u32, Vec<u32>) {
        let n = self.n();
        let mut below = lower.clone();
        for &g in next {
            below.remove(g);
        }
        let next_last = below.len() == 0;
        let set = Bits::from_iter(n, next.iter().copied()).union(floaters);
        let apart = (!next_last && floaters.len() > 1).then(|| floaters.clone());
        let mdps: Vec<usize> = floaters.iter().collect();
        let mut pairs = self.max_pairs(&set, apart.as_ref());
        loop {
            let k = set.len() - 2 * pairs;
            // The MDPs the next bracket may leave unpaired, best first.
            let mut left: Vec<(Vec<u32>, Vec<usize>)> = Vec::new();
            for j in 0..=k.min(mdps.len()) {
                if k - j > next.len() {
                    continue;
                }
                if binomial(mdps.len(), j) > FLOATER_SETS as u64 {
                    self.cut.set(true);
                }
                for c in combinations(mdps.len(), j, FLOATER_SETS) {
                    let mut s: Vec<u32> = c.iter().map(|&x| self.players[mdps[x]].score).collect();
                    s.sort_unstable_by(|a, b| b.cmp(a));
                    left.push((s, c.iter().map(|&x| mdps[x]).collect()));
                }
            }
            left.sort();
            for (scores, unpaired_mdps) in left {
                let r = k - unpaired_mdps.len();
                let base = Bits::from_iter(n, unpaired_mdps.iter().copied());
                let sets = if binomial(next.len(), r) <= FLOATER_SETS as u64 {
                    combinations(next.len(), r, FLOATER_SETS)
                } else {
                    self.floatable_sets(&set, apart.as_ref(), &base, next, r)
                };
                for c in sets {
                    let mut down = base.clone();
                    for x in c {
                        down.insert(next[x]);
                    }
                    let mut rest = set.clone();
                    for v in down.iter() {
                        rest.remove(v);
                    }
                    if self.pairable(&rest, apart.as_ref(), None)
                        && self.completable(&down.union(&below))
                    {
                        return (pairs as u32, scores);
                    }
                }
            }
            if pairs == 0 {
                return (0, mdps.iter().map(|&v| self.players[v].score).collect());
            }
            pairs -= 1;
        }
    }
}

/// The state of [`Engine::floatable_sets`].
struct FloatableSearch<'a, 'o> {
    rest: Bits,
    apart: Option<&'a Bits>,
    candidates: &'a [usize],
    size: usize,
    needed: usize,
    chosen: Vec<usize>,
    out: &'o mut Vec<Vec<usize>>,
}

impl FloatableSearch<'_, '_> {
    /// Adds the sets that choose the rest of their players among the first `end` candidates.
    fn from(&mut self, engine: &Engine, end: usize) {
        if self.out.len() >= VALID_SETS || engine.max_pairs(&self.rest, self.apart) < self.needed {
            return;
        }
        if self.chosen.len() == self.size {
            self.out.push(self.chosen.clone());
            return;
        }
        // From the lowest ranked up: when there are more sets than are returned, those that
        // float the lowest ranked players come first, as they do in the candidates' order.
        for i in (0..end).rev() {
            if i + 1 < self.size - self.chosen.len() {
                break;
            }
            self.rest.remove(self.candidates[i]);
            self.chosen.push(i);
            self.from(engine, i);
            self.chosen.pop();
            self.rest.insert(self.candidates[i]);
            if self.out.len() >= VALID_SETS {
                return;
            }
        }
    }
}

#[cfg(test)]
fn sorted(pairs: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let mut pairs: Vec<(usize, usize)> = pairs.iter().map(|&(x, y)| (x.min(y), x.max(y))).collect();
    pairs.sort_unstable();
    pairs
}

/// The first `limit` subsets of `size` elements of `0..n`, in lexicographic order.
fn combinations(n: usize, size: usize, limit: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    if size > n {
        return out;
    }
    let mut c: Vec<usize> = (0..size).collect();
    loop {
        out.push(c.clone());
        if out.len() >= limit {
            return out;
        }
        let mut i = size;
        loop {
            if i == 0 {
                return out;
            }
            i -= 1;
            if c[i] < n - size + i {
                c[i] += 1;
                for j in i + 1..size {
                    c[j] = c[j - 1] + 1;
                }
                break;
            }
        }
    }
}

/// The number of subsets of `size` elements of a set of `n`, saturating at `u64::MAX`.
fn binomial(n: usize, size: usize) -> u64 {
    if size > n {
        return 0;
    }
    let size = size.min(n - size) as u128;
    let mut c: u128 = 1;
    for i in 0..size {
        // Exact at every step: c is then C(n - size + i + 1, i + 1).
        c = c * (n as u128 - size + i + 1) / (i + 1);
        if c > u128::from(u64::MAX) {
            return u64::MAX;
        }
    }
    c as u64
}

/// A bracket's candidates in the order of the rules (Articles 3 and 4), with their criteria
/// C10–C21, and the quick search among them.
///
/// The quick search is a depth-first run through the candidates in that order that admits only
/// the best vector conceivable (each criterion at its lower bound): a branch is cut when a lower
/// bound of its vector is above that one. The first candidate it reaches is the rules' own; most
/// brackets (round 1 of any size among them) end there. When it finds none within its steps,
/// [`Construction`] builds the bracket.
struct Search<'a, const N: usize> {
    engine: &'a Engine,
    members: &'a [usize],
    mdps: usize,
    costs: PairCosts<N>,
    /// The lowest cost of each criterion over the partners each player may have.
    row_min: Vec<Key<N>>,
    /// Each player's wishes: White, Black, White strongly, Black strongly.
    wishes: Vec<[u32; 4]>,
    /// The downfloater sets allowed (equal by C6–C9) and their part of the key (C14, C16, C18,
    /// C20): the sum of each floater's part.
    allowed: HashMap<Bits, Key<N>>,
    float_part: Vec<Key<N>>,
    allowed_residents: Vec<Bits>,
    floater_min: Key<N>,
    /// The best key conceivable: reaching it ends the search.
    bound: Key<N>,
    /// The number of MDPs paired and of resident downfloaters, equal in every allowed set.
    paired_mdps: usize,
    floating_residents: usize,
    best: Option<Candidate<N>>,
    steps: u64,
    /// Set when the quick search would have to skip candidates.
    incomplete: bool,
    limbo: Vec<usize>,
}

impl<'a, const N: usize> Search<'a, N> {
    fn new(
        engine: &'a Engine,
        members: &'a [usize],
        mdps: usize,
        allowed: &[(Bits, FloaterKey)],
        last: bool,
        levels: FloatLevels,
    ) -> Search<'a, N> {
        let b = members.len();
        let player = |x: usize| &engine.players[members[x]];
        let lowest = levels.lowest;
        let mut costs = PairCosts {
            levels,
            mdps,
            last,
            table: None,
        };
        let pair_cost = |x: usize, y: usize| costs.compute(engine, members, x, y);
        let (table, row_min) = if b * b * N <= COST_TABLE * COST_TABLE * 12 {
            let mut table = vec![None; b * b];
            for x in 0..b {
                for y in x + 1..b {
                    let key = pair_cost(x, y);
                    table[x * b + y] = key;
                    table[y * b + x] = key;
                }
            }
            let row_min = (0..b)
                .map(|x| {
                    (0..b)
                        .filter_map(|y| table[x * b + y])
                        .reduce(|m, c| min_each(&m, &c))
                        .unwrap_or([0; N])
                })
                .collect();
            (Some(table), row_min)
        } else {
            let mut row_min: Vec<Option<Key<N>>> = vec![None; b];
            for x in 0..b {
                for y in x + 1..b {
                    if let Some(key) = pair_cost(x, y) {
                        for v in [x, y] {
                            row_min[v] = Some(row_min[v].map_or(key, |m| min_each(&m, &key)));
                        }
                    }
                }
            }
            (
                None,
                row_min.into_iter().map(|m| m.unwrap_or([0; N])).collect(),
            )
        };
        costs.table = table;
        let wishes: Vec<[u32; 4]> = members
            .iter()
            .map(|&m| {
                let p = &engine.players[m];
                let strong = p.strength >= Strength::Strong;
                match p.preference {
                    Some(Colour::White) => [1, 0, u32::from(strong), 0],
                    Some(Colour::Black) => [0, 1, 0, u32::from(strong)],
                    None => [0; 4],
                }
            })
            .collect();
        let mut map = HashMap::new();
        let mut floater_min = [u64::MAX; N];
        let mut bound = [u64::MAX; N];
        // No allowed set: the bracket is built by a joint matching (the quick search not run).
        let first = allowed
            .first()
            .map_or_else(|| Bits::new(b), |a| a.0.clone());
        let paired_mdps = mdps - (0..mdps).filter(|&x| first.contains(x)).count();
        let floating_residents = (mdps..b).filter(|&x| first.contains(x)).count();
        let float_part: Vec<Key<N>> = (0..b)
            .map(|x| {
                let mut key = [0; N];
                let p = player(x);
                for k in 0..2 {
                    if p.floats[k] == Float::Down {
                        // C14, C16: the residents who float as they did; C18, C20: with the
                        // MDPs who float on, their score differences.
                        if x >= mdps {
                            key[4 + 2 * k] += 1;
                        }
                        costs.levels.down[k].add_to(&mut key, 2 * k, p.score + 2 - lowest);
                    }
                }
                key
            })
            .collect();
        for (f, _) in allowed {
            let key = f.iter().fold([0; N], |k, x| add(&k, &float_part[x]));
            floater_min = min_each(&floater_min, &key);
            let mut counts = [0; 4];
            for x in (0..b).filter(|&x| !f.contains(x)) {
                for (c, w) in counts.iter_mut().zip(&wishes[x]) {
                    *c += w;
                }
            }
            let (c12, c13) = wish_bound(&counts, ((b - f.len()) / 2) as u32, 0);
            let mut conceivable = key;
            conceivable[2] = u64::from(c12);
            conceivable[3] = u64::from(c13);
            // The MDPs paired here who downfloated then: their differences are due whoever
            // they meet.
            for x in (0..mdps).filter(|&x| !f.contains(x)) {
                for k in 0..2 {
                    if player(x).floats[k] == Float::Down {
                        costs.levels.down[k].add_to(
                            &mut conceivable,
                            2 * k,
                            player(x).score - lowest,
                        );
                    }
                }
            }
            bound = min_each(&bound, &conceivable);
            map.insert(f.clone(), key);
        }
        let allowed_residents = allowed
            .iter()
            .map(|(f, _)| Bits::from_iter(b, f.iter().filter(|&x| x >= mdps)))
            .collect();
        Search {
            engine,
            members,
            mdps,
            costs,
            row_min,
            wishes,
            allowed: map,
            float_part,
            allowed_residents,
            floater_min,
            bound,
            paired_mdps,
            floating_residents,
            best: None,
            steps: 0,
            incomplete: false,
            limbo: Vec::new(),
        }
    }

    fn b(&self) -> usize {
        self.members.len()
    }

    /// The pair's criteria, or `None` when the two may not meet.
    fn cost(&self, x: usize, y: usize) -> Option<Key<N>> {
        match &self.costs.table {
            Some(table) => table[x * self.b() + y],
            None => self.costs.compute(self.engine, self.members, x, y),
        }
    }

    fn finished(&self) -> bool {
        self.steps > QUICK_STEPS
            || self.incomplete
            || self.best.as_ref().is_some_and(|(k, _, _)| *k == self.bound)
    }

    /// The quick search: one pass in the rules' order admitting only the best vector
    /// conceivable. Whether it found a candidate: that one is then the rules' own (no candidate
    /// has a lower vector, and none before it in order has this one). It gives up, leaving the
    /// bracket to [`Construction`], after [`QUICK_STEPS`] steps or when it would have to skip
    /// candidates (too many exchanges, or MDP selections, to list).
    fn quick(&mut self) -> bool {
        self.pass();
        self.best.is_some()
    }

    fn pass(&mut self) {
        let mdps = self.mdps;
        // 4.3 (exchanges of MDPs with the Limbo): S1 with the highest scores first, then the
        // lowest sequence numbers.
        if binomial(mdps, self.paired_mdps) > FLOATER_SETS as u64 {
            self.incomplete = true;
            return;
        }
        let mut selections = combinations(mdps, self.paired_mdps, FLOATER_SETS);
        let scores = |s: &Vec<usize>| -> Vec<std::cmp::Reverse<u32>> {
            s.iter()
                .map(|&x| std::cmp::Reverse(self.engine.players[self.members[x]].score))
                .collect()
        };
        selections.sort_by(|a, b| scores(a).cmp(&scores(b)).then(a.cmp(b)));
        let limbo_sets: Vec<Vec<usize>> = self
            .allowed
            .keys()
            .map(|f| f.iter().filter(|&x| x < mdps).collect())
            .collect();
        for s1 in selections {
            let limbo: Vec<usize> = (0..mdps).filter(|x| !s1.contains(x)).collect();
            if !limbo_sets.contains(&limbo) {
                continue;
            }
            self.limbo = limbo;
            let mut used = vec![false; self.b()];
            let mut pairs = Vec::new();
            let suffix = self.suffix(&s1);
            let mut counts = [0; 4];
            for x in s1.iter().copied().chain(mdps..self.b()) {
                self.count(&mut counts, x, true);
            }
            // The MDPs to be paired may outnumber the residents (in the last bracket, where they
            // may have to meet one another): this structure then has no candidate.
            let remainder_pairs = (self.b() - mdps)
                .checked_sub(self.paired_mdps + self.floating_residents)
                .map_or(0, |r| r / 2);
            let mut state = Layer {
                counts,
                pairs_after: remainder_pairs as u32,
            };
            self.mdp_pairing(&s1, 0, &mut used, &mut pairs, [0; N], &suffix, &mut state);
            if self.finished() {
                return;
            }
        }
    }

    fn suffix(&self, s1: &[usize]) -> Vec<Key<N>> {
        let mut suffix = vec![[0; N]; s1.len() + 1];
        for i in (0..s1.len()).rev() {
            suffix[i] = add(&suffix[i + 1], &self.row_min[s1[i]]);
        }
        suffix
    }

    fn count(&self, counts: &mut [u32; 4], x: usize, plus: bool) {
        for (c, w) in counts.iter_mut().zip(&self.wishes[x]) {
            if plus {
                *c += w;
            } else {
                *c -= w;
            }
        }
    }

    /// Whether a branch is cut: its lower bound is above the best vector conceivable.
    fn cut_off(
        &mut self,
        partial: &Key<N>,
        rest: &Key<N>,
        state: &Layer,
        pairs_left: usize,
    ) -> bool {
        let mut lower = add(&add(partial, rest), &self.floater_min);
        let (c12, c13) = wish_bound(
            &state.counts,
            pairs_left as u32 + state.pairs_after,
            self.floating_residents as u32,
        );
        lower[2] = lower[2].max(partial[2] + u64::from(c12));
        lower[3] = lower[3].max(partial[3] + u64::from(c13));
        lower > self.bound
    }

    /// 3.3 and 4.1: the MDP-pairing, S1's MDPs with the residents in the order of S2's
    /// transpositions.
    #[allow(clippy::too_many_arguments)]
    fn mdp_pairing(
        &mut self,
        s1: &[usize],
        pos: usize,
        used: &mut Vec<bool>,
        pairs: &mut Vec<(usize, usize)>,
        partial: Key<N>,
        suffix: &[Key<N>],
        state: &mut Layer,
    ) {
        self.steps += 1;
        if self.finished() || self.cut_off(&partial, &suffix[pos], state, s1.len() - pos) {
            return;
        }
        let b = self.b();
        if pos == s1.len() {
            let remainder: Vec<usize> = (self.mdps..b).filter(|&x| !used[x]).collect();
            self.remainder(&remainder, pairs, partial);
            return;
        }
        let x = s1[pos];
        self.count(&mut state.counts, x, false);
        for y in self.mdps..b {
            if used[y] {
                continue;
            }
            let Some(cost) = self.cost(x, y) else {
                continue;
            };
            used[y] = true;
            pairs.push((x, y));
            self.count(&mut state.counts, y, false);
            let next = add(&partial, &cost);
            self.mdp_pairing(s1, pos + 1, used, pairs, next, suffix, state);
            self.count(&mut state.counts, y, true);
            pairs.pop();
            used[y] = false;
            if self.finished() {
                break;
            }
        }
        self.count(&mut state.counts, x, true);
    }

    /// A homogeneous bracket or a remainder: exchanges between S1 and S2 (4.2), and for each the
    /// transpositions of S2 (4.1).
    fn remainder(&mut self, players: &[usize], pairs: &mut Vec<(usize, usize)>, partial: Key<N>) {
        let count = players.len() - self.floating_residents;
        let p = count / 2;
        let (s1, s2) = players.split_at(p);
        let mut counts = [0; 4];
        for &x in players {
            self.count(&mut counts, x, true);
        }
        let mut state = Layer {
            counts,
            pairs_after: 0,
        };
        for size in 0..=p.min(s2.len()) {
            if self.finished() {
                return;
            }
            let Some(list) = exchanges(s1, s2, size) else {
                self.incomplete = true;
                return;
            };
            self.steps += list.len() as u64 / 8;
            for (out, into) in list {
                if self.finished() {
                    return;
                }
                let mut a: Vec<usize> = s1.iter().copied().filter(|x| !out.contains(x)).collect();
                a.extend(&into);
                a.sort_unstable();
                let mut c: Vec<usize> = s2.iter().copied().filter(|x| !into.contains(x)).collect();
                c.extend(&out);
                c.sort_unstable();
                let s2_set = Bits::from_iter(self.b(), c.iter().copied());
                if !self.allowed_residents.iter().any(|f| f.is_subset(&s2_set)) {
                    continue;
                }
                let suffix = self.suffix(&a);
                let mut used = vec![false; self.b()];
                self.transpose(&a, &c, 0, &mut used, pairs, partial, &suffix, &mut state);
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn transpose(
        &mut self,
        s1: &[usize],
        s2: &[usize],
        pos: usize,
        used: &mut Vec<bool>,
        pairs: &mut Vec<(usize, usize)>,
        partial: Key<N>,
        suffix: &[Key<N>],
        state: &mut Layer,
    ) {
        self.steps += 1;
        if self.finished() || self.cut_off(&partial, &suffix[pos], state, s1.len() - pos) {
            return;
        }
        let b = self.b();
        if pos == s1.len() {
            let mut floaters = Bits::from_iter(b, self.limbo.iter().copied());
            for &y in s2 {
                if !used[y] {
                    floaters.insert(y);
                }
            }
            if let Some(part) = self.allowed.get(&floaters) {
                let key = add(&partial, part);
                if key <= self.bound {
                    self.best = Some((key, pairs.clone(), floaters));
                }
            }
            return;
        }
        // The allowed floaters must stay among the players of S2 not yet taken.
        if self.allowed_residents.len() <= 64 {
            let free = Bits::from_iter(b, s2.iter().copied().filter(|&y| !used[y]));
            if !self.allowed_residents.iter().any(|f| f.is_subset(&free)) {
                return;
            }
        }
        let x = s1[pos];
        self.count(&mut state.counts, x, false);
        for &y in s2 {
            if used[y] {
                continue;
            }
            let Some(cost) = self.cost(x, y) else {
                continue;
            };
            used[y] = true;
            pairs.push((x, y));
            self.count(&mut state.counts, y, false);
            let next = add(&partial, &cost);
            self.transpose(s1, s2, pos + 1, used, pairs, next, suffix, state);
            self.count(&mut state.counts, y, true);
            pairs.pop();
            used[y] = false;
            if self.finished() {
                break;
            }
        }
        self.count(&mut state.counts, x, true);
    }
}

/// Where a player of the remainder stands in the exchange between S1 and S2 (4.2): undecided,
/// in S1 after the exchange (paired with a lower ranked player), or in S2 after it (paired with
/// a higher ranked one, or floating).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Open,
    First,
    Second,
}

/// The best pairing of what is left: its vector, its order places, each player's partner
/// (`None` for a floater) and, for a [`Joint`] matching, its part of the weight before C10
/// (empty otherwise).
type Best<const N: usize> = (Key<N>, [i128; 3], Vec<Option<usize>>, Vec<i128>);

/// A bracket built by weighted matchings, in time polynomial in its size: the rules' own
/// candidate (the best by C10–C21, and among equals the first in the order of Article 4).
///
/// A maximum-weight matching (with C10–C21 in their order as its weight, and the floaters as
/// partners of dummy players) gives the best vector reachable under given constraints. The
/// candidate is then fixed step by step in the rules' order, each step keeping the first
/// choice with which the best vector stays reachable:
/// - the MDPs paired (4.3: the highest scores, then the lowest numbers), and their opponents
///   in the order of S2's transpositions;
/// - in the remainder, the fewest exchanges and the smallest difference of the exchanged
///   numbers (weighed as the lowest criteria: every pair's higher ranked player is in S1 after
///   the exchange, so both are sums over the pairs), then the players moved out of S1 from the
///   lowest up and those moved out of S2 from the highest down;
/// - the opponents of S1's players, from the first, in the order of S2 (4.1).
///
/// A step takes one matching, O(n³), so a bracket of n players takes O(n⁴).
struct Construction<'s, 'a, const N: usize, const M: usize, const J: usize> {
    search: &'s Search<'a, N>,
    /// Still to be paired or floated.
    active: Vec<bool>,
    pairs: Vec<(usize, usize)>,
    fixed: Key<N>,
    /// Fixed to float.
    floating: Vec<usize>,
    /// May not float / may only float.
    no_float: Vec<bool>,
    must_float: Vec<bool>,
    side: Vec<Side>,
    /// The floaters as dummy partners: every set of `floaters.1` of `floaters.0` is allowed.
    /// Otherwise each allowed set is tried.
    dummies: Option<(Vec<usize>, usize)>,
    /// Moved-down players may meet one another (the last bracket, when they cannot all be
    /// paired with residents).
    mdps_meet: bool,
    /// The floaters chosen by one matching over the bracket and every player below (see
    /// [`Joint`]) instead of among listed sets.
    joint: Option<&'s Joint>,
    /// The part of the weight of the joint matching (C4–C8) of the pairs fixed.
    fixed_prefix: [i128; PREFIX],
}

impl<'s, 'a, const N: usize, const M: usize, const J: usize> Construction<'s, 'a, N, M, J> {
    fn new(search: &'s Search<'a, N>) -> Construction<'s, 'a, N, M, J> {
        let b = search.b();
        let sets: Vec<&Bits> = search.allowed.keys().collect();
        let size = sets.first().map_or(0, |f| f.len());
        let union = sets.iter().fold(Bits::new(b), |u, f| u.union(f));
        let union: Vec<usize> = union.iter().collect();
        let dummies = (sets.len() > 1
            && sets.iter().all(|f| f.len() == size)
            && binomial(union.len(), size) == sets.len() as u64)
            .then_some((union, size));
        Construction {
            search,
            active: vec![true; b],
            pairs: Vec::new(),
            fixed: [0; N],
            floating: Vec::new(),
            no_float: vec![false; b],
            must_float: vec![false; b],
            side: vec![Side::Open; b],
            dummies,
            mdps_meet: false,
            joint: None,
            fixed_prefix: [0; PREFIX],
        }
    }

    /// Whether `x` and `y` (x < y) may still be paired.
    fn edge(&self, x: usize, y: usize) -> Option<Key<N>> {
        if !self.active[x] || !self.active[y] || self.must_float[x] || self.must_float[y] {
            return None;
        }
        // Moved-down players are paired with residents.
        if y < self.search.mdps && !self.mdps_meet {
            return None;
        }
        if self.side[x] == Side::Second || self.side[y] == Side::First {
            return None;
        }
        self.search.cost(x, y)
    }

    fn may_float(&self, x: usize) -> bool {
        self.active[x] && !self.no_float[x] && self.side[x] != Side::First
    }

    /// The best pairing of the active players under the constraints, `order` giving each pair's
    /// places for the candidates' order (maximised after the criteria).
    fn best(&self, order: &dyn Fn(usize, usize) -> [i128; 3]) -> Option<Best<N>> {
        if let Some(joint) = self.joint {
            return self.best_joint(joint, order);
        }
        let b = self.search.b();
        // A weight: the number of pairs, the criteria C10–C21 (negated: the matching
        // maximises), then three places for the order of the candidates.
        let weight = |key: &Key<N>, places: [i128; 3]| {
            let mut w = [0i128; M];
            w[0] = 1;
            for (v, c) in w[1..=N].iter_mut().zip(key) {
                *v = -i128::from(*c);
            }
            w[N + 1..].copy_from_slice(&places);
            Lex(w)
        };
        let players: Vec<usize> = (0..b).filter(|&x| self.active[x]).collect();
        let mut local = vec![usize::MAX; b];
        for (i, &x) in players.iter().enumerate() {
            local[x] = i;
        }
        let mut edges: Vec<(usize, usize, Lex<M>)> = Vec::new();
        for (i, &x) in players.iter().enumerate() {
            for &y in &players[i + 1..] {
                if let Some(key) = self.edge(x, y) {
                    edges.push((i, local[y], weight(&key, order(x, y))));
                }
            }
        }
        let solve = |floaters: &[usize], count: usize, part: Key<N>| -> Option<Best<N>> {
            let n = players.len() + count;
            let mut all = edges.clone();
            for d in players.len()..n {
                for &x in floaters {
                    all.push((local[x], d, weight(&self.search.float_part[x], [0; 3])));
                }
            }
            let mate = max_weight_matching(n, &all);
            if mate.iter().any(Option::is_none) {
                return None;
            }
            let mut key = add(&self.fixed, &part);
            let mut places = [0i128; 3];
            let mut partner = vec![None; b];
            for (i, &x) in players.iter().enumerate() {
                let j = mate[i].expect("a perfect matching");
                if j >= players.len() {
                    key = add(&key, &self.search.float_part[x]);
                } else if i < j {
                    let y = players[j];
                    key = add(&key, &self.search.cost(x, y).expect("an edge"));
                    for (p, o) in places.iter_mut().zip(order(x, y)) {
                        *p += o;
                    }
                    partner[x] = Some(y);
                    partner[y] = Some(x);
                }
            }
            Some((key, places, partner, Vec::new()))
        };
        let better = |a: &Best<N>, b: &Best<N>| {
            (a.0, std::cmp::Reverse(a.1)) < (b.0, std::cmp::Reverse(b.1))
        };
        let mut found: Option<Best<N>> = None;
        let mut consider = |candidate: Option<Best<N>>| {
            if let Some(c) = candidate {
                if found.as_ref().is_none_or(|f| better(&c, f)) {
                    found = Some(c);
                }
            }
        };
        if players
            .iter()
            .any(|&x| self.must_float[x] && !self.may_float(x))
        {
            return None;
        }
        match &self.dummies {
            Some((union, size)) => {
                let floaters: Vec<usize> = union
                    .iter()
                    .copied()
                    .filter(|&x| self.may_float(x))
                    .collect();
                let count = size.checked_sub(self.floating.len())?;
                let fixed_part = self
                    .floating
                    .iter()
                    .fold([0; N], |k, &x| add(&k, &self.search.float_part[x]));
                consider(solve(&floaters, count, fixed_part));
            }
            None => {
                for (set, part) in &self.search.allowed {
                    let fits = self.floating.iter().all(|&x| set.contains(x))
                        && set
                            .iter()
                            .all(|x| self.floating.contains(&x) || self.may_float(x))
                        && players
                            .iter()
                            .all(|&x| !self.must_float[x] || set.contains(x));
                    if !fits {
                        continue;
                    }
                    // This set's floaters leave; the rest is paired.
                    let mut inner = Construction::<N, M, J> {
                        search: self.search,
                        active: self.active.clone(),
                        pairs: Vec::new(),
                        fixed: add(&self.fixed, part),
                        floating: Vec::new(),
                        no_float: self.no_float.clone(),
                        must_float: vec![false; b],
                        side: self.side.clone(),
                        dummies: Some((Vec::new(), 0)),
                        mdps_meet: self.mdps_meet,
                        joint: None,
                        fixed_prefix: [0; PREFIX],
                    };
                    for x in set.iter() {
                        inner.active[x] = false;
                    }
                    consider(inner.best(order));
                }
            }
        }
        found
    }

    /// [`Construction::best`] by one matching over the bracket and every player below: its
    /// weight the number of pairs (C4: every player below paired, but the bye), the pairs of the
    /// bracket (C6), the floaters' scores (C7), the pairs of the next bracket and the scores of
    /// the floaters it leaves unpaired (C8), then C10–C21 and the order, as [`Construction::best`].
    /// A floater is a player of the bracket paired below (or given the bye).
    fn best_joint(
        &self,
        joint: &Joint,
        order: &dyn Fn(usize, usize) -> [i128; 3],
    ) -> Option<Best<N>> {
        let search = self.search;
        let engine = search.engine;
        let (b, mdps) = (search.b(), search.mdps);
        let players: Vec<usize> = (0..b)
            .filter(|&x| self.active[x] || self.floating.contains(&x))
            .collect();
        let floats = |x: usize| self.floating.contains(&x) || self.may_float(x);
        let base = players.len();
        let mut total = base + joint.lower.len();
        let dummy = (total % 2 == 1).then(|| {
            total += 1;
            total - 1
        });
        let weight = |prefix: &[i128; PREFIX], key: &Key<N>, places: [i128; 3]| {
            let mut w = [0i128; J];
            w[..PREFIX].copy_from_slice(prefix);
            for (v, c) in w[PREFIX..PREFIX + N].iter_mut().zip(key) {
                *v = -i128::from(*c);
            }
            w[PREFIX + N..].copy_from_slice(&places);
            Lex(w)
        };
        let score = |x: usize| engine.players[search.members[x]].score;
        // A player of the bracket who floats: paired in the next bracket or not.
        let floater = |x: usize, in_next: bool| {
            let mut p = [0i128; PREFIX];
            p[0] = 1;
            joint
                .fields
                .subtract(&mut p[C7..C7 + SCORE_WORDS], score(x));
            if in_next {
                p[C8] = 1;
            } else {
                joint
                    .fields
                    .subtract(&mut p[PSD..PSD + SCORE_WORDS], score(x));
            }
            p
        };
        let mut edges: Vec<(usize, usize, Lex<J>)> = Vec::new();
        for (i, &x) in players.iter().enumerate() {
            let gx = search.members[x];
            for (j, &y) in players.iter().enumerate().skip(i + 1) {
                if let Some(key) = self.edge(x, y) {
                    let mut p = [0; PREFIX];
                    p[0] = 1;
                    p[1] = 1;
                    edges.push((i, j, weight(&p, &key, order(x, y))));
                } else if y < mdps
                    && floats(x)
                    && floats(y)
                    && engine.adj[gx].contains(search.members[y])
                {
                    // Two MDPs who float on and meet below: in the next bracket when it is the
                    // last, beyond it otherwise.
                    let mut p = floater(x, false);
                    joint
                        .fields
                        .subtract(&mut p[C7..C7 + SCORE_WORDS], score(y));
                    if joint.next_last {
                        p[PSD..PSD + SCORE_WORDS].fill(0);
                        p[C8] = 1;
                    } else {
                        joint
                            .fields
                            .subtract(&mut p[PSD..PSD + SCORE_WORDS], score(y));
                    }
                    let key = add(&search.float_part[x], &search.float_part[y]);
                    edges.push((i, j, weight(&p, &key, [0; 3])));
                }
            }
            if !floats(x) {
                continue;
            }
            for (l, &v) in joint.lower.iter().enumerate() {
                if engine.adj[gx].contains(v) {
                    let p = floater(x, joint.next[l]);
                    edges.push((i, base + l, weight(&p, &search.float_part[x], [0; 3])));
                }
            }
            if let (Some(d), true) = (dummy, engine.bye_ok.contains(gx)) {
                let p = floater(x, false);
                edges.push((i, d, weight(&p, &search.float_part[x], [0; 3])));
            }
        }
        let zero = [0; N];
        for &(u, v, in_next) in &joint.pairs {
            let mut p = [0; PREFIX];
            p[0] = 1;
            p[C8] = i128::from(in_next);
            edges.push((base + u, base + v, weight(&p, &zero, [0; 3])));
        }
        if let Some(d) = dummy {
            let mut p = [0; PREFIX];
            p[0] = 1;
            for &l in &joint.bye {
                edges.push((base + l, d, weight(&p, &zero, [0; 3])));
            }
        }
        let mate = max_weight_matching(total, &edges);
        if mate.iter().any(Option::is_none) {
            return None;
        }
        let mut matched = vec![false; total];
        let mut sum = Lex([0i128; J]);
        for &(u, v, w) in &edges {
            if mate[u] == Some(v) && !matched[u] {
                matched[u] = true;
                matched[v] = true;
                sum = sum + w;
            }
        }
        let mut key = self.fixed;
        let mut places = [0i128; 3];
        let mut partner = vec![None; b];
        for (i, &x) in players.iter().enumerate() {
            let j = mate[i].expect("a perfect matching");
            if j < base {
                if i < j {
                    let y = players[j];
                    key = add(&key, &search.cost(x, y).expect("an edge"));
                    for (p, o) in places.iter_mut().zip(order(x, y)) {
                        *p += o;
                    }
                    partner[x] = Some(y);
                    partner[y] = Some(x);
                }
            } else {
                key = add(&key, &search.float_part[x]);
            }
        }
        let prefix = sum.0[..PREFIX]
            .iter()
            .zip(&self.fixed_prefix)
            .map(|(a, b)| a + b)
            .collect();
        Some((key, places, partner, prefix))
    }

    fn pair(&mut self, x: usize, y: usize) {
        self.active[x] = false;
        self.active[y] = false;
        self.fixed = add(&self.fixed, &self.search.cost(x, y).expect("an edge"));
        if self.joint.is_some() {
            // A pair of the bracket (C6).
            self.fixed_prefix[0] += 1;
            self.fixed_prefix[1] += 1;
        }
        self.pairs.push((x, y));
    }

    /// Whether the vector (and order places) `target` stays reachable with a change made by `f`;
    /// the change is kept when it does and undone when it does not.
    fn keep_if(
        &mut self,
        target: &(Key<N>, [i128; 3], Vec<i128>),
        order: &dyn Fn(usize, usize) -> [i128; 3],
        f: impl Fn(&mut Self),
    ) -> bool {
        let saved = (
            self.no_float.clone(),
            self.must_float.clone(),
            self.side.clone(),
        );
        f(self);
        if self
            .best(order)
            .is_some_and(|(k, p, _, w)| (k, p) == (target.0, target.1) && w == target.2)
        {
            return true;
        }
        (self.no_float, self.must_float, self.side) = saved;
        false
    }

    /// The bracket's pairs and downfloaters (local), or `None` when no allowed set of floaters
    /// leaves a pairing of the others with moved-down players apart.
    fn build(mut self) -> Option<(Vec<(usize, usize)>, Bits)> {
        let search = self.search;
        let (b, mdps) = (search.b(), search.mdps);
        let none = |_: usize, _: usize| [0i128; 3];
        let (optimum, _, first_partners, prefix) = self.best(&none)?;
        // The number of downfloaters (C6), for a joint matching.
        let joint_size = (0..b).filter(|&x| first_partners[x].is_none()).count();
        let target = (optimum, [0; 3], prefix.clone());
        // The MDPs paired (4.3): the highest scores first, then the lowest numbers, as far as
        // the best vector allows; the others float.
        for x in 0..mdps {
            if !self.keep_if(&target, &none, |c| c.no_float[x] = true) {
                self.must_float[x] = true;
            }
        }
        // Their opponents, MDP by MDP, in the order of S2's transpositions.
        let paired: Vec<usize> = (0..mdps).filter(|&x| self.no_float[x]).collect();
        for x in paired {
            let first = |v: usize, w: usize| {
                if v == x {
                    [0, 0, -(w as i128)]
                } else {
                    [0; 3]
                }
            };
            let (key, _, partner, _) = self.best(&first)?;
            debug_assert_eq!(key, optimum);
            self.pair(x, partner[x]?);
        }
        let floating: Vec<usize> = (0..mdps).filter(|&x| self.must_float[x]).collect();
        for x in floating {
            self.active[x] = false;
            self.floating.push(x);
        }
        // The remainder: S1 its first half (without the residents who float).
        let remainder: Vec<usize> = (mdps..b).filter(|&x| self.active[x]).collect();
        let size = match (&self.dummies, self.joint) {
            (_, Some(_)) => joint_size,
            (Some((_, size)), None) => *size,
            (None, None) => search.allowed.keys().next().map_or(0, |f| f.len()),
        };
        let residents_floating = size - self.floating.len();
        let half = (remainder.len() - residents_floating) / 2;
        let mut place = vec![0; b];
        for (i, &x) in remainder.iter().enumerate() {
            place[x] = i;
        }
        // A pair whose higher ranked player is in S1 needs no exchange; the sum of the higher
        // ranked players' numbers is that of S1 after the exchange.
        let exchange = |x: usize, _: usize| [i128::from(place[x] < half), -(place[x] as i128), 0];
        let (_, places, _, _) = self.best(&exchange)?;
        let target = (optimum, places, prefix);
        let exchanged = half as i128 - places[0];
        // The players moved out of S1: the lowest ranked first.
        let mut left = exchanged;
        for &x in remainder[..half].iter().rev() {
            if left > 0 && self.keep_if(&target, &exchange, |c| c.side[x] = Side::Second) {
                left -= 1;
            } else {
                self.side[x] = Side::First;
            }
        }
        // The players moved out of S2: the highest ranked first.
        let mut left = exchanged;
        for &x in &remainder[half..] {
            if left > 0 && self.keep_if(&target, &exchange, |c| c.side[x] = Side::First) {
                left -= 1;
            } else {
                self.side[x] = Side::Second;
            }
        }
        // S1's opponents in the order of S2 (4.1).
        for x in remainder {
            if self.side[x] != Side::First {
                continue;
            }
            let first = |v: usize, w: usize| {
                if v == x {
                    [0, 0, -(w as i128)]
                } else {
                    [0; 3]
                }
            };
            let (key, _, partner, _) = self.best(&first)?;
            debug_assert_eq!(key, optimum);
            self.pair(x, partner[x]?);
        }
        let mut floaters = Bits::from_iter(b, self.floating.iter().copied());
        for x in (0..b).filter(|&x| self.active[x]) {
            floaters.insert(x);
        }
        (self.joint.is_some() || search.allowed.contains_key(&floaters))
            .then_some((self.pairs, floaters))
    }
}

/// The words of a [`Joint`] matching's weight before C10: the number of pairs, the pairs of the
/// bracket (C6), the floaters' scores (C7, [`SCORE_WORDS`] words), the pairs of the next bracket
/// (C8) and the scores of the floaters it leaves unpaired (its PSD, [`SCORE_WORDS`] words).
const PREFIX: usize = 3 + 2 * SCORE_WORDS;
const C7: usize = 2;
const C8: usize = C7 + SCORE_WORDS;
const PSD: usize = C8 + 1;
/// The words, of [`SCORE_BITS`] bits each, of the lists of scores of C7 and C8.
const SCORE_WORDS: usize = 2;
const SCORE_BITS: u32 = 120;

/// A bracket built by one maximum-weight matching over the bracket and every player below it
/// (the players of the lower scoregroups, and a dummy for the bye when they are odd), the
/// criteria C6–C8 in the weight above C10–C21, so the floaters fall out of the matching instead
/// of being chosen among listed sets: a player of the bracket paired below floats. Every player
/// is matched (C4, with the bye to a player who may receive it, C5); a pair of the bracket counts
/// for C6, a floater's score for C7, a pair of the next bracket (a floater with a player of the
/// next scoregroup, two players of it) for C8 and so does the score of a floater paired beyond
/// it. C9 is not weighed: it applies to a single downfloater, whose sets are always listed.
struct Joint {
    /// The players below the bracket (global), whether each is of the next scoregroup, their
    /// possible pairs (places in `lower`, whether both are of the next scoregroup), and those
    /// who may receive the bye.
    lower: Vec<usize>,
    next: Vec<bool>,
    pairs: Vec<(usize, usize, bool)>,
    bye: Vec<usize>,
    /// Nothing lies below the next scoregroup: floaters of the bracket may meet there.
    next_last: bool,
    fields: ScoreFields,
}

impl Joint {
    /// `None` when the scores of the bracket take more fields than [`SCORE_WORDS`] words hold.
    fn new(engine: &Engine, members: &[usize], lower: &Bits, next: &[usize]) -> Option<Joint> {
        let fields = ScoreFields::new(members.iter().map(|&m| engine.players[m].score))?;
        let lower: Vec<usize> = lower.iter().collect();
        let in_next: Vec<bool> = lower.iter().map(|v| next.contains(v)).collect();
        let mut pairs = Vec::new();
        for (i, &u) in lower.iter().enumerate() {
            for (j, &v) in lower.iter().enumerate().skip(i + 1) {
                if engine.adj[u].contains(v) {
                    pairs.push((i, j, in_next[i] && in_next[j]));
                }
            }
        }
        let bye = (0..lower.len())
            .filter(|&i| engine.bye_ok.contains(lower[i]))
            .collect();
        Some(Joint {
            next_last: in_next.iter().all(|&n| n),
            lower,
            next: in_next,
            pairs,
            bye,
            fields,
        })
    }
}

/// Lists of scores (C7, the PSD of C8) as numbers that add up player by player and compare as
/// the rules compare the lists, sorted from the highest: each score of the bracket has a field
/// as wide as the bracket's players with that score need, the higher scores in the higher bits
/// (as [`Levels`] does for C18–C21), in [`SCORE_WORDS`] words, the most significant first.
struct ScoreFields {
    /// (score, word, shift).
    fields: Vec<(u32, usize, u32)>,
}

impl ScoreFields {
    fn new(scores: impl Iterator<Item = u32>) -> Option<ScoreFields> {
        let mut scores: Vec<u32> = scores.collect();
        scores.sort_unstable();
        let mut fields = Vec::new();
        let (mut word, mut shift) = (0, 0);
        for chunk in scores.chunk_by(|a, b| a == b) {
            let width = u32::BITS - (chunk.len() as u32).leading_zeros();
            if shift + width > SCORE_BITS {
                word += 1;
                shift = 0;
            }
            if word >= SCORE_WORDS {
                return None;
            }
            fields.push((chunk[0], SCORE_WORDS - 1 - word, shift));
            shift += width;
        }
        Some(ScoreFields { fields })
    }

    /// Takes one player with `score` off `words` (a maximum-weight matching: fewer is better).
    fn subtract(&self, words: &mut [i128], score: u32) {
        if let Some(&(_, word, shift)) = self.fields.iter().find(|f| f.0 == score) {
            words[word] -= 1 << shift;
        }
    }
}

/// The criteria of a bracket's pairs: C10–C13 and C15, C17 (from [`Engine::pair_key`]), and the
/// score differences of C18–C21 that a pair brings. Kept in a table for a bracket of up to
/// [`COST_TABLE`] players, computed when asked in a larger one (a table grows with the square
/// of the bracket: 864 MB for 3,000 players).
struct PairCosts<const N: usize> {
    levels: FloatLevels,
    mdps: usize,
    last: bool,
    /// Every pair's criteria, `None` for two players who may not meet.
    table: Option<Vec<Option<Key<N>>>>,
}

impl<const N: usize> PairCosts<N> {
    fn compute(&self, engine: &Engine, members: &[usize], x: usize, y: usize) -> Option<Key<N>> {
        let (x, y) = (x.min(y), x.max(y));
        let (gx, gy) = (members[x], members[y]);
        let mdps = self.mdps;
        if x == y || !engine.adj[gx].contains(gy) || (y < mdps && !self.last) {
            return None;
        }
        let player = |v: usize| &engine.players[members[v]];
        // `y` upfloats when it meets an MDP of a higher score: a resident meeting an MDP, or
        // (in the last bracket) the lower scored of two MDPs.
        let upfloat = x < mdps && player(x).score > player(y).score;
        let mut key = [0; N];
        key[..PLAIN].copy_from_slice(&engine.pair_key(gx, gy, upfloat));
        let levels = &self.levels;
        for k in 0..2 {
            // An MDP who downfloated then: the difference to its opponent's score.
            for (v, o) in [(x, y), (y, x)] {
                if v < mdps && player(v).floats[k] == Float::Down {
                    let d = player(v).score.saturating_sub(player(o).score);
                    levels.down[k].add_to(&mut key, 2 * k, d);
                }
            }
            if upfloat && player(y).floats[k] == Float::Up {
                levels.up[k].add_to(&mut key, 2 * k + 1, player(x).score - player(y).score);
            }
        }
        Some(key)
    }
}

/// What a layer of the search carries down: the wishes of the players not yet paired (White,
/// Black, White strongly, Black strongly) and the pairs still to be made after this layer.
struct Layer {
    counts: [u32; 4],
    pairs_after: u32,
}

/// The fewest colour preferences (all, strong) left ungranted when `pairs` pairs and `floaters`
/// downfloaters are made of players with these wishes: a pair has one White and one Black.
fn wish_bound(counts: &[u32; 4], pairs: u32, floaters: u32) -> (u32, u32) {
    let over = |w: u32, b: u32| w.max(b).saturating_sub(pairs + floaters);
    (over(counts[0], counts[1]), over(counts[2], counts[3]))
}

/// The exchanges of `size` players between S1 and S2 in the order of 4.2: the smallest
/// difference of the sums of sequence numbers, then the highest different number moved out of
/// S1, then the lowest different number moved out of S2. Returns (moved out of S1, out of S2).
fn exchanges(s1: &[usize], s2: &[usize], size: usize) -> Option<Vec<(Vec<usize>, Vec<usize>)>> {
    if size == 0 {
        return Some(vec![(Vec::new(), Vec::new())]);
    }
    // Counted before any is built: a large remainder has far too many to list.
    if binomial(s1.len(), size).saturating_mul(binomial(s2.len(), size)) > EXCHANGES as u64 {
        return None;
    }
    let outs = combinations(s1.len(), size, EXCHANGES);
    let intos = combinations(s2.len(), size, EXCHANGES);
    let mut all = Vec::with_capacity(outs.len() * intos.len());
    for o in &outs {
        let mut out: Vec<usize> = o.iter().map(|&i| s1[i]).collect();
        out.sort_unstable_by(|a, b| b.cmp(a));
        for i in &intos {
            let into: Vec<usize> = i.iter().map(|&k| s2[k]).collect();
            all.push((out.clone(), into));
        }
    }
    // The differences are of the players' numbers in the remainder (BSNs), not of their
    // places in the bracket: the residents paired with MDPs leave gaps in those.
    let bsn = |x: &usize, side: &[usize], base: usize| {
        base + side.binary_search(x).unwrap_or_else(|place| place)
    };
    let diff = |o: &Vec<usize>, i: &Vec<usize>| {
        i.iter().map(|x| bsn(x, s2, s1.len())).sum::<usize>() as i64
            - o.iter().map(|x| bsn(x, s1, 0)).sum::<usize>() as i64
    };
    all.sort_by(|(oa, ia), (ob, ib)| {
        diff(oa, ia)
            .cmp(&diff(ob, ib))
            .then_with(|| ob.cmp(oa))
            .then_with(|| ia.cmp(ib))
    });
    Some(all)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn score_differences_beyond_64_bits_compare_as_the_rules_compare_lists() {
        // 80 differences, each possible for one player: 80 one-bit fields, two words.
        let levels = Levels::new((0..80).map(|d| (d, 1)).collect());
        assert!(!levels.summed);
        assert_eq!(levels.words, 2);
        let key = |c: usize, ds: &[u32]| {
            let mut k = [0u64; 24];
            for &d in ds {
                levels.add_to(&mut k, c, d);
            }
            k
        };
        // The highest difference decides, whatever the sums: [78, 77] is better than [79, 0].
        assert!(key(0, &[78, 77]) < key(0, &[79, 0]));
        assert!(key(0, &[69, 68]) < key(0, &[70, 1]));
        assert!(key(0, &[5, 3]) < key(0, &[5, 4]));
        assert!(key(3, &[63, 62, 61]) < key(3, &[64, 0, 1]));
        // Each criterion keeps to its own words, C18 before C21.
        assert!(key(3, &[79]) < key(0, &[0]));
        assert_eq!(key(1, &[10])[..PLAIN], [0; PLAIN]);
    }

    #[test]
    fn a_field_holds_every_player_who_can_have_its_difference() {
        // Difference 2 possible for 5 players (three bits), 0 and 4 for one each.
        let levels = Levels::new(vec![(2, 3), (0, 1), (2, 2), (4, 1)]);
        let key = |ds: &[u32]| {
            let mut k = [0u64; 12];
            for &d in ds {
                levels.add_to(&mut k, 0, d);
            }
            k
        };
        assert!(key(&[2, 2, 2, 2, 2]) < key(&[4]));
        assert!(key(&[2, 2, 2, 2, 0]) < key(&[2, 2, 2, 2, 2]));
        assert_eq!(key(&[4, 2])[8], key(&[4])[8] + key(&[2])[8]);
    }

    fn player(rank: u32, score: u32, floats: [Float; 2]) -> Player {
        Player {
            rank,
            colour_number: rank,
            score,
            colours: vec![Colour::White, Colour::Black],
            difference: 0,
            strength: Strength::Mild,
            preference: Some(Colour::White),
            bye_eligible: true,
            unplayed: 0,
            floats,
            topscorer: false,
        }
    }

    #[test]
    fn two_mdps_meeting_in_the_last_bracket_float_against_each_other() {
        // The last bracket: MDPs 1 (2 points, downfloated last round) and 2 (1 point,
        // upfloated last round), residents 3 and 4 (0).
        let players = vec![
            player(1, 4, [Float::Down, Float::None]),
            player(2, 2, [Float::Up, Float::None]),
            player(3, 0, [Float::None; 2]),
            player(4, 0, [Float::None; 2]),
        ];
        let engine = Engine::new(players, &[vec![], vec![], vec![], vec![]], Colour::White)
            .expect("pairable");
        let members = [0, 1, 2, 3];
        let costs = PairCosts::<12> {
            levels: FloatLevels::new(&engine, &members, 2, true),
            mdps: 2,
            last: true,
            table: None,
        };
        let mdps_met = costs.compute(&engine, &members, 0, 1).expect("may meet");
        // 2 upfloats against 1 as it did last round (C15), by a point (C19); 1 downfloats
        // again by a point, its difference to its opponent (C18), not to the bracket's lowest.
        let mut expected = [0; 12];
        expected[..PLAIN].copy_from_slice(&engine.pair_key(0, 1, true));
        costs.levels.down[0].add_to(&mut expected, 0, 2);
        costs.levels.up[0].add_to(&mut expected, 1, 2);
        assert_eq!(mdps_met, expected);
        assert_eq!(mdps_met[5], 1);
        assert_ne!(mdps_met[PLAIN..], [0; 4]);
        // Against a resident, 1 downfloats by two points.
        let resident = costs.compute(&engine, &members, 0, 2).expect("may meet");
        let mut expected = [0; 12];
        expected[..PLAIN].copy_from_slice(&engine.pair_key(0, 2, true));
        costs.levels.down[0].add_to(&mut expected, 0, 4);
        assert_eq!(resident, expected);
        assert!(resident[PLAIN..] > mdps_met[PLAIN..]);
        // Two MDPs of one score: neither upfloats.
        let players = vec![
            player(1, 4, [Float::Down, Float::Up]),
            player(2, 4, [Float::Up, Float::Up]),
            player(3, 0, [Float::None; 2]),
            player(4, 0, [Float::None; 2]),
        ];
        let engine = Engine::new(players, &[vec![], vec![], vec![], vec![]], Colour::White)
            .expect("pairable");
        let costs = PairCosts::<12> {
            levels: FloatLevels::new(&engine, &members, 2, true),
            mdps: 2,
            last: true,
            table: None,
        };
        let equal = costs.compute(&engine, &members, 0, 1).expect("may meet");
        assert_eq!(equal[5], 0);
        assert_eq!(equal[7], 0);
    }

    #[test]
    fn too_many_differences_are_summed() {
        let levels = Levels::new((0..5000).map(|d| (d, 1)).collect());
        assert!(levels.summed);
        assert_eq!(levels.words, MAX_WORDS);
    }
}
