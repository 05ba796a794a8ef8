//! Glicko-2 ratings (the `skillratings` crate), one table per server and game kind.
//!
//! Each rated game is its own rating period: both players are updated when it ends (win, loss,
//! draw, resignation, timeout; aborted games do not count). The order in which results were
//! applied is stored with the games (`rating_seq`), so [`crate::db::recompute_ratings`] rebuilds
//! exactly the stored table from the games alone (`hexcord recompute-ratings`); rated games that
//! ended before a database had ratings are applied at start-up, in the order they ended
//! ([`crate::db::apply_pending`]). This module is the maths only; the tables are `db`'s.

use skillratings::glicko2::{glicko2, glicko2_rating_period, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;

/// A rating deviation above this marks a player as provisional (not enough games yet to trust
/// the rating). A new player starts at 350 and drops below 110 after about ten games.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// Glickman's system constant τ (his paper suggests 0.3–1.2; 0.5 is the crate's default).
const TAU: f64 = 0.5;

/// A Glicko-2 rating.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

impl Rating {
    /// Where every player starts: 1500 ± 350, volatility 0.06.
    pub const START: Rating = Rating {
        rating: 1500.0,
        deviation: 350.0,
        volatility: 0.06,
    };

    pub fn is_provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }

    fn glicko(self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }

    fn from_glicko(g: Glicko2Rating) -> Rating {
        Rating {
            rating: g.rating,
            deviation: g.deviation,
            volatility: g.volatility,
        }
    }
}

fn config() -> Glicko2Config {
    Glicko2Config {
        tau: TAU,
        ..Glicko2Config::new()
    }
}

/// How a game went for the first player given.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Score {
    Win,
    Loss,
    Draw,
}

impl Score {
    fn outcome(self) -> Outcomes {
        match self {
            Score::Win => Outcomes::WIN,
            Score::Loss => Outcomes::LOSS,
            Score::Draw => Outcomes::DRAW,
        }
    }
}

/// Both players' ratings after one game between them (`score` is `a`'s).
pub fn after_game(a: Rating, b: Rating, score: Score) -> (Rating, Rating) {
    let (na, nb) = glicko2(&a.glicko(), &b.glicko(), &score.outcome(), &config());
    (Rating::from_glicko(na), Rating::from_glicko(nb))
}

/// A player's rating after a rating period of several games.
pub fn after_period(player: Rating, results: &[(Rating, Score)]) -> Rating {
    let results: Vec<(Glicko2Rating, Outcomes)> = results
        .iter()
        .map(|(r, s)| (r.glicko(), s.outcome()))
        .collect();
    Rating::from_glicko(glicko2_rating_period(&player.glicko(), &results, &config()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(rating: f64, deviation: f64) -> Rating {
        Rating {
            rating,
            deviation,
            volatility: 0.06,
        }
    }

    /// The worked example of Glickman's "Example of the Glicko-2 system" (2013).
    #[test]
    fn glickmans_example() {
        let player = r(1500.0, 200.0);
        let results = [
            (r(1400.0, 30.0), Score::Win),
            (r(1550.0, 100.0), Score::Loss),
            (r(1700.0, 300.0), Score::Loss),
        ];
        let new = after_period(player, &results);
        assert!((new.rating - 1464.06).abs() < 0.01, "{new:?}");
        assert!((new.deviation - 151.52).abs() < 0.01, "{new:?}");
        assert!((new.volatility - 0.05999).abs() < 0.00001, "{new:?}");
    }

    #[test]
    fn a_win_raises_and_a_loss_lowers_and_draws_are_symmetric() {
        let (w, l) = after_game(Rating::START, Rating::START, Score::Win);
        assert!(w.rating > 1500.0 && l.rating < 1500.0);
        assert!((w.rating - 1500.0 + (l.rating - 1500.0)).abs() < 1e-9);
        assert!(w.deviation < 350.0);
        let (a, b) = after_game(Rating::START, Rating::START, Score::Draw);
        assert!((a.rating - 1500.0).abs() < 1e-9 && (b.rating - 1500.0).abs() < 1e-9);
        assert!(Rating::START.is_provisional());
        assert!(!r(1500.0, 100.0).is_provisional());
    }
}
