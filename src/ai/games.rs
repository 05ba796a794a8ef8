//! [`SearchGame`] for each game's position.

use rand::rngs::SmallRng;

use super::SearchGame;
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
}
