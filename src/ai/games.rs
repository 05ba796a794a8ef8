//! [`SearchGame`] for each game's position.

use rand::rngs::SmallRng;

use super::{value_for, SearchGame};
use crate::games::{exxit, inphexion, Colour, Outcome};

impl SearchGame for inphexion::Position {
    type Move = inphexion::Move;

    fn to_move(&self) -> Colour {
        inphexion::Position::to_move(self)
    }

    fn outcome(&self) -> Option<Outcome> {
        inphexion::Position::outcome(self)
    }

    fn legal_moves(&self, out: &mut Vec<inphexion::Move>) {
        let mut list = inphexion::MoveList::new();
        inphexion::Position::legal_moves(self, &mut list);
        out.clear();
        out.extend_from_slice(list.as_slice());
    }

    fn play(&mut self, mv: inphexion::Move) {
        inphexion::Position::play(self, &mv);
    }

    fn playout(&mut self, rng: &mut SmallRng) -> Outcome {
        inphexion::Position::playout(self, rng)
    }

    /// Playouts where a player who can win at once does so
    /// ([`inphexion::Position::playout_decisive`]).
    fn strong_playout_value(&mut self, rng: &mut SmallRng) -> f64 {
        value_for(&self.playout_decisive(rng), Colour::First)
    }

    /// The cell where the mover's disc goes: a placement's cell, or the cell a regular move
    /// moves the opponent's disc from (I6).
    fn amaf_cell(&self, mv: inphexion::Move) -> Option<u8> {
        let cell = match mv.kind() {
            inphexion::MoveKind::Place(c) => c,
            inphexion::MoveKind::Regular { from, .. } => from,
            _ => return None,
        };
        self.cell_index(cell)
    }

    fn held(&self) -> [u128; 2] {
        [self.discs(Colour::First).0, self.discs(Colour::Second).0]
    }
}

impl SearchGame for exxit::Position {
    type Move = exxit::Move;

    fn to_move(&self) -> Colour {
        exxit::Position::to_move(self)
    }

    fn outcome(&self) -> Option<Outcome> {
        exxit::Position::outcome(self)
    }

    fn legal_moves(&self, out: &mut Vec<exxit::Move>) {
        let mut list = exxit::MoveList::new();
        exxit::Position::legal_moves(self, &mut list);
        out.clear();
        out.extend_from_slice(list.as_slice());
    }

    fn play(&mut self, mv: exxit::Move) {
        exxit::Position::play(self, &mv);
    }

    fn playout(&mut self, rng: &mut SmallRng) -> Outcome {
        let mut buf = exxit::MoveList::new();
        exxit::Position::playout(self, rng, &mut buf)
    }

    /// Random moves for at most `CUT` (16) plies, then the island score (X20) as a win
    /// probability: a logistic of the score difference.
    fn playout_value(&mut self, rng: &mut SmallRng) -> f64 {
        // Scratch space for the expert setup only: no allocation otherwise.
        let mut buf = exxit::MoveList::default();
        self.random_plies(rng, CUT, &mut buf);
        if let Some(o) = exxit::Position::outcome(self) {
            return value_for(&o, Colour::First);
        }
        let s = self.score();
        let d = s[0] as f64 - s[1] as f64;
        1.0 / (1.0 + (-d / SCALE).exp())
    }
}

/// Plies an EXXIT playout runs before the evaluation decides.
const CUT: u32 = 16;
/// Score points for a factor e in the odds.
const SCALE: f64 = 3.0;
