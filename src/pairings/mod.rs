//! Tournament pairings: Swiss rounds by the FIDE (Dutch) system and round robins by the Berger
//! tables. A pure library: no Discord, no SQL. `hexcord pairings FILE` is its command line.
//!
//! - [`trf`] reads a FIDE TRF file (TRF-2026: player lines, `142`, `152`, `240`; or the older
//!   `XXR`, `XXC`) into a [`Tournament`].
//! - [`pair`] pairs the next round of a [`Tournament`] by the Dutch system.
//! - [`berger()`] gives the rounds of a single or double round robin.
//! - [`format`](mod@format) puts each tournament format (Swiss, round robin) behind one interface: its
//!   rounds, pairing, tie-breaks, withdrawals and end; see there for adding a format.
//!
//! ```
//! use hexcord::pairings::{self, trf};
//!
//! let mut text = String::new();
//! for rank in 1..=4 {
//!     text.push_str(&format!("001 {rank:>4}      Player {rank}\n"));
//! }
//! text.push_str("XXR 3\nXXC white1\n");
//! let round = pairings::pair(&trf::parse(&text).unwrap()).unwrap();
//! assert_eq!(round.to_string(), "2\n1 3\n4 2\n");
//! ```
//!
//! # The Dutch system
//!
//! The rules are those of FIDE C.04.3 as approved in 2025 and applied from February 2026, with
//! the basic rules of C.04.1. A round is paired bracket by bracket, from the highest score down:
//! a bracket is a scoregroup with the players moved down (MDPs) from the bracket above.
//!
//! **Exact.**
//! - The order (1.2: score, then pairing number), scoregroups and brackets; MDPs paired first
//!   (S1: the MDPs to be paired, S2: the residents), the remainder paired as a homogeneous
//!   bracket; S1 = the first MaxPairs players of a homogeneous bracket.
//! - The absolute criteria always hold: C1 (no two players meet twice: only games played over
//!   the board count, so a forfeited pairing may be repeated), C2 (no pairing-allocated bye to a
//!   player who already had one, a full-point bye or a forfeit win), C3 (two non-topscorers with
//!   the same absolute colour preference never meet).
//! - C4 and C5: every bracket's downfloaters leave a round that can still be completed, with the
//!   bye going to an eligible player of the lowest score for which a complete round exists. This
//!   is checked with maximum matchings (Edmonds' blossom algorithm) over every player still
//!   unpaired, so the round is paired whenever a pairing exists; when none does, the error is
//!   [`PairingError::NoValidPairing`]. A set in which every player may meet at least half of
//!   the others needs no matching (Dirac's theorem gives a Hamiltonian cycle, so all of them
//!   pair, or all but one when they are odd), so the large scoregroups of a large field are
//!   checked by counting partners.
//! - C6 (the number of pairs), C7 (the downfloaters' scores, highest first), C8 (the next
//!   bracket: the most pairs it can make with these downfloaters while every bracket below it
//!   can still complete the round, then its PSD, the scores of the MDPs it must leave unpaired,
//!   highest first), C9 (the fewest unplayed rounds for the bye's receiver: weighed, before the
//!   colours, by the brackets it applies to, those that downfloat exactly one player who
//!   receives the bye: the last bracket, or one whose only downfloater may receive it while
//!   every player below pairs among themselves; a bracket that also floats players to meet
//!   those below does not weigh it), the colour
//!   criteria C10–C13 (the topscorers' colour difference beyond ±2 and third colour in a row,
//!   colour preferences, strong colour preferences; a player with an absolute preference counts
//!   among the strong ones), the float criteria C14–C17 (a resident downfloating, or a resident
//!   paired with an MDP upfloating, as in the previous round or the one before) and C18–C21
//!   (their score differences, as lists sorted from the highest: an MDP who downfloated then
//!   counts with the difference to its opponent when paired and, when it floats on, with its
//!   score less one point below the bracket's lowest). Floats come from the rounds played: in a
//!   game between different scores the higher scored player downfloated and the other
//!   upfloated, and a player who scored more than a loss without playing downfloated.
//! - The order of the candidates (Article 4): the MDP-exchanges with the Limbo (highest scores,
//!   then lowest sequence numbers), the transpositions of S2 in lexicographic order, the
//!   exchanges between S1 and S2 (fewest players, smallest difference of the sums of the
//!   numbers in the remainder, highest number out of S1, lowest out of S2). The candidate
//!   chosen is the best by the criteria and, among equals, the first in that order, by one of
//!   two methods that give the same candidate:
//!   - a quick search runs through the candidates in that order admitting only the best vector
//!     conceivable (a "perfect" candidate), a branch cut as soon as a lower bound of its vector
//!     (the pairs so far, each remaining player's cheapest partner, and the colour preferences
//!     that cannot all be granted since a pair has one White) is above it; the first candidate
//!     it reaches is the rules' own. Most brackets end here, round 1 of any size among them.
//!   - when the quick search finds none within a few thousand steps, or would have to skip
//!     candidates, the bracket is built by weighted matchings (Edmonds' blossom algorithm,
//!     O(n³), with C10–C21 in their order as the weight and the downfloaters as partners of
//!     dummy players): the bracket's best vector first, then the candidate fixed step by step
//!     in the rules' order (the MDPs paired, their opponents, the number and the sum of the
//!     exchanges, the players exchanged, the opponents of S1 one by one), each step keeping
//!     the first choice with which that vector stays reachable. A bracket of n players costs
//!     O(n⁴), whatever its history.
//! - Colours by the allocation rules (5.2): both preferences, the stronger one (both absolute:
//!   the wider colour difference), alternation from the latest round in which the colours
//!   differed (unplayed rounds left out), the higher ranked player's preference, and the initial
//!   colour (`XXC`) to the higher ranked player when their pairing number is odd. That number
//!   counts only the players who have taken part in the pairing (paired in this round, or given
//!   an opponent or the pairing-allocated bye before): one who has never been paired (absent from
//!   the start, byes entered in advance, a late entry) takes none, and those below move up.
//! - The bye, when the number of players is odd, is what the last bracket leaves unpaired: the
//!   lowest ranked eligible player of the lowest score, unless the criteria say otherwise.
//! - C18–C21 as lists of score differences compared from the highest: each difference that can
//!   occur in a bracket has a field of its own, as wide as the players who can have it need, in
//!   as many 64-bit words as the bracket's differences take (up to 4,096 bits a criterion).
//! - The downfloaters of a scoregroup too large for every set of one size to be listed (more
//!   than 4,000): the sets are searched for, a branch cut as soon as a maximum matching shows
//!   that the players left cannot make the pairs the bracket needs, so the time goes to the
//!   sets that leave a pairable bracket, and those are weighed by C7–C9; C8 looks at the next
//!   bracket's own downfloaters in the same way.
//! - When they are more than that search returns (20,000 sets of one size, or more than 4,000
//!   sets of MDPs, in the bracket or in the next one for C8), no set is left out: the bracket is
//!   built by one maximum-weight matching over it and every player below it (with a dummy
//!   player for the bye), C4 (every player matched), C6 (the pairs of the bracket), C7 (the
//!   floaters' scores) and C8 (the pairs of the next bracket, then the scores of the floaters
//!   it leaves unpaired) in the weight above C10–C21, a floater being a player of the bracket
//!   matched below it: the floaters fall out of the matching instead of being listed, and the
//!   candidate is then fixed in the rules' order as above, one matching a step, so a bracket of
//!   n players above l players costs O(n (n + l)³). C9 is not weighed there: it applies to a
//!   single downfloater, whose sets are always listed (up to 20,000 residents). The tests build
//!   every bracket of their random rounds that is not the last and does not float exactly one
//!   player (with at most 96 players in it and below it) both ways, and the two agree.
//! - Moved-down players never meet one another in a bracket (they are paired with residents),
//!   but in the last bracket they may, so that a round that can be completed always is: when
//!   they must, the bracket is built by the weighted matchings with those pairs allowed, by the
//!   same criteria and order. Such a pair counts for C18 and C20 the higher MDP's score
//!   difference to its opponent, and its lower scored MDP upfloats (C15, C17, and C19, C21
//!   with the same difference).
//! - In a bracket of more than 256 players (fewer when C18–C21 take more than a word each) the
//!   pairs' criteria are computed when needed rather than kept in a table, so memory stays
//!   linear.
//! - The tests check, on random tournaments (3 to 64 players, and 256 players over 9 rounds),
//!   that both methods choose the same candidate in every bracket of up to 64 players the quick
//!   search completes, and that round 1 of 1,000 and 3,000 players is the rules' own (`cargo
//!   bench --bench pairings` times a 256-player round, round 1 of 1,000 and 3,000 players, and
//!   round 5 of 3,000 players).
//!
//! **Approximated** (the first two in brackets beyond any event's size):
//! - The lists of scores of C7 and C8 in the joint matching take fields of 240 bits in all
//!   (each score of the bracket as wide as its players need: about a hundred different scores
//!   in one bracket); past that the sets are listed as above, up to 20,000 of one size.
//! - C18–C21 beyond 4,096 bits a criterion (about a thousand different scores among one
//!   bracket's MDPs): their sums are compared.
//! - Only the scores of the results are used (win 1, draw ½, loss 0): no acceleration, no
//!   tournament-specific points (`XXS`).

pub mod berger;
pub mod dutch;
pub mod format;
mod matching;
pub mod trf;

#[cfg(test)]
mod tests;

use std::fmt;

use thiserror::Error;

pub use berger::{berger, RoundRobinRound};
pub use dutch::pair;
pub use trf::{parse, Colour, Entrant, Outcome, RoundEntry, Tournament, TrfError, TrfErrorKind};

/// A game of a round, by starting rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Game {
    pub white: u32,
    pub black: u32,
}

/// A round's pairing: its games in board order and the pairing-allocated bye, if any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pairings {
    pub games: Vec<Game>,
    pub bye: Option<u32>,
}

/// The pairing as the pairing programs print it: the number of lines that follow, one line
/// `white black` a game and `N 0` for the bye.
impl fmt::Display for Pairings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.games.len() + usize::from(self.bye.is_some()))?;
        for g in &self.games {
            writeln!(f, "{} {}", g.white, g.black)?;
        }
        if let Some(b) = self.bye {
            writeln!(f, "{b} 0")?;
        }
        Ok(())
    }
}

/// Why a round cannot be paired.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PairingError {
    /// No pairing satisfies the absolute criteria (C1–C3) for every player to be paired.
    #[error("no valid pairing exists")]
    NoValidPairing,
    /// All the rounds (`XXR`) have been played.
    #[error("all {rounds} rounds have been played")]
    TournamentOver { rounds: u32 },
}
