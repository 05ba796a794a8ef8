//! Proofs by search to the end of the game: whether the solver can force a win, whatever the
//! opponent does.
//!
//! A depth-first AND/OR search ([`Prover`]): at the solver's turns one winning move is enough,
//! at the opponent's every move must lose; a move that ends the game decides at once, so each
//! position first plays all its moves and looks for one that wins for its mover before it
//! searches deeper. Proven positions go into a table shared by the whole puzzle, so
//! transpositions and the positions of the line's later steps are searched once. The search
//! counts the positions it expands; past its budget it answers "unknown" rather than guess.
//!
//! - **inpHeXion** has no draws and no repetitions (every turn puts a disc from hand on the
//!   board, I6), so every position is a key of the table: its discs, the side to move and the
//!   swap flag.
//! - **EXXIT** ends on a third repetition (X19), so what follows a position may depend on the
//!   positions before it, since the last placement or expansion. The table keeps only positions
//!   reached by a placement or an expansion (and the puzzle's own position, read from its line
//!   with no history), whose repetition history holds themselves alone. A draw is not a win.

use std::collections::HashMap;
use std::hash::Hash;

use crate::ai::SearchGame;
use crate::games::{exxit, inphexion, Colour};

/// Plies deeper than the start at which a search gives up (unknown): a bound on its recursion,
/// which runs on a stack of [`STACK`] bytes ([`on_stack`]). inpHeXion 5×5 ends within
/// 25 plies; EXXIT's dances can go on far longer.
pub const MAX_PLIES: usize = 400;
/// The stack of the thread a proof runs on.
pub const STACK: usize = 256 << 20;

/// A position the prover can search: a [`SearchGame`] with a key for the table.
pub trait Provable: SearchGame {
    type Key: Hash + Eq;
    /// The table's key of this position, reached by `last` (`None`: the search's start, a
    /// position read from its line). `None` when what follows may depend on earlier positions.
    fn proof_key(&self, last: Option<Self::Move>) -> Option<Self::Key>;
}

impl Provable for inphexion::Position {
    /// White's discs, Black's, the neutral disc, White to move, the swap flag.
    type Key = (u128, u128, u128, bool, bool);

    fn proof_key(&self, _last: Option<inphexion::Move>) -> Option<Self::Key> {
        Some((
            self.discs(Colour::First).0,
            self.discs(Colour::Second).0,
            self.neutral_disc().0,
            self.to_move() == Colour::First,
            self.swapped(),
        ))
    }
}

impl Provable for exxit::Position {
    /// The position line: world, stacks, hands, supply, side to move.
    type Key = String;

    fn proof_key(&self, last: Option<exxit::Move>) -> Option<String> {
        match last {
            None | Some(exxit::Move::Place(_) | exxit::Move::Expand(_)) => Some(self.to_line()),
            Some(_) => None,
        }
    }
}

/// A search for `attacker`'s forced wins, with its table and its budget of expanded positions.
pub struct Prover<G: Provable> {
    attacker: Colour,
    table: HashMap<G::Key, bool>,
    /// Positions expanded so far.
    pub nodes: u64,
    limit: u64,
}

impl<G: Provable> Prover<G> {
    /// A prover of `attacker`'s wins, with an empty table.
    pub fn new(attacker: Colour) -> Prover<G> {
        Prover {
            attacker,
            table: HashMap::new(),
            nodes: 0,
            limit: u64::MAX,
        }
    }

    /// Allows `nodes` more expanded positions from now on (the table is kept).
    pub fn allow(&mut self, nodes: u64) {
        self.limit = self.nodes.saturating_add(nodes);
    }

    /// Whether the attacker wins after `mv` is played in `p`, against any defence: `None` when
    /// the budget ran out first.
    pub fn wins_after(&mut self, p: &G, mv: G::Move) -> Option<bool> {
        let mut child = p.clone();
        child.play(mv);
        self.wins(&child, Some(mv), 1)
    }

    /// Whether the attacker wins from `p` (reached by `last`, `ply` plies from the start),
    /// against any defence.
    fn wins(&mut self, p: &G, last: Option<G::Move>, ply: usize) -> Option<bool> {
        if let Some(o) = p.outcome() {
            return Some(o.winner == Some(self.attacker));
        }
        let key = p.proof_key(last);
        if let Some(v) = key.as_ref().and_then(|k| self.table.get(k)) {
            return Some(*v);
        }
        if self.nodes >= self.limit || ply > MAX_PLIES {
            return None;
        }
        self.nodes += 1;
        let mover = p.to_move();
        // What the mover looks for: a win at the attacker's turns, a refutation at the
        // defender's.
        let goal = mover == self.attacker;
        let mut moves = Vec::new();
        p.legal_moves(&mut moves);
        let mut open: Vec<(G, G::Move)> = Vec::with_capacity(moves.len());
        let mut found = moves.is_empty().then_some(!goal);
        for &mv in &moves {
            let mut child = p.clone();
            child.play(mv);
            match child.outcome() {
                Some(o) if (o.winner == Some(self.attacker)) == goal => {
                    found = Some(goal);
                    break;
                }
                Some(_) => {}
                None => open.push((child, mv)),
            }
        }
        let mut unknown = false;
        if found.is_none() {
            for (child, mv) in &open {
                match self.wins(child, Some(*mv), ply + 1) {
                    Some(v) if v == goal => {
                        found = Some(goal);
                        break;
                    }
                    Some(_) => {}
                    None => unknown = true,
                }
            }
        }
        let value = match found {
            Some(v) => v,
            None if unknown => return None,
            None => !goal,
        };
        if let Some(k) = key {
            self.table.insert(k, value);
        }
        Some(value)
    }
}

/// Runs `f` (a proof) on a thread of its own with a stack of [`STACK`] bytes, so that a deep
/// search neither overflows the caller's stack (a runtime's blocking thread has 2 MiB) nor
/// depends on it. `None` if the thread could not be started or panicked.
pub fn on_stack<T: Send>(f: impl FnOnce() -> T + Send) -> Option<T> {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .name("proof".into())
            .stack_size(STACK)
            .spawn_scoped(s, f)
            .ok()?
            .join()
            .ok()
    })
}
