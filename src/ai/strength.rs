//! The bot's levels rated on the scale of members' ratings, from matches.
//!
//! `assets/bot-ratings.json` holds the results of matches between the levels (and, in EXXIT,
//! Boardspace's robots) in each game's usual variant: levels one and two apart, colours
//! alternating. `hexcord arena --ladder --games N` plays the file's pairings again
//! and prints the file anew. The ratings are the maximum-likelihood fit of those results (the Bradley–Terry
//! model, on the logistic scale Glicko-2 and Elo share: 400 points = 10 to 1), with one virtual
//! draw in every pairing so that a one-sided match still gives a finite difference, placed so
//! that `beginner`, the level for newcomers, stands at a new member's rating (1500). Each
//! rating's deviation is the fit's standard error relative to `beginner`.
//!
//! `/play` shows each level's rating and, without a level, offers the level nearest the
//! member's own rating in that game.

use std::collections::{BTreeMap, HashMap};
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use super::Level;
use crate::games::{GameKind, Options};

/// Where `beginner` stands: a new member's rating.
pub const ANCHOR: f64 = 1500.0;

/// Logistic scale: a difference of `SCALE * ln(10)`… points is 10 to 1; 400 / ln 10.
const SCALE: f64 = 400.0 / std::f64::consts::LN_10;

/// One match's result, from player A's side.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchResult {
    pub a: String,
    pub b: String,
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
}

/// A game's matches.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameMatches {
    /// The variant line they were played in.
    pub variant: String,
    /// How they were played (the command).
    pub command: String,
    pub matches: Vec<MatchResult>,
}

/// The file: each game's matches.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ladder {
    pub games: Vec<GameMatches>,
}

/// A player's fitted rating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Strength {
    pub rating: f64,
    /// The standard error relative to `beginner` (0 for `beginner` itself).
    pub deviation: f64,
    /// Games behind it (virtual draws not counted).
    pub games: u32,
}

/// Fits ratings to `matches`: every player named in them, `anchor` at [`ANCHOR`]. Players not
/// connected to `anchor` by matches are left out.
pub fn fit(matches: &[MatchResult], anchor: &str) -> BTreeMap<String, Strength> {
    let mut names: Vec<&str> = matches
        .iter()
        .flat_map(|m| [m.a.as_str(), m.b.as_str()])
        .collect();
    names.sort_unstable();
    names.dedup();
    let n = names.len();
    let index = |s: &str| names.binary_search(&s).ok();
    // Points (wins + half draws) and games of i against j, one virtual draw in each pairing.
    let mut points = vec![vec![0.0f64; n]; n];
    let mut played = vec![vec![0.0f64; n]; n];
    let mut games = vec![0u32; n];
    for m in matches {
        let (Some(i), Some(j)) = (index(&m.a), index(&m.b)) else {
            continue;
        };
        if i == j {
            continue;
        }
        let total = m.wins + m.losses + m.draws;
        if played[i][j] == 0.0 && total > 0 {
            // The virtual draw.
            points[i][j] += 0.5;
            points[j][i] += 0.5;
            played[i][j] += 1.0;
            played[j][i] += 1.0;
        }
        points[i][j] += m.wins as f64 + 0.5 * m.draws as f64;
        points[j][i] += m.losses as f64 + 0.5 * m.draws as f64;
        played[i][j] += total as f64;
        played[j][i] += total as f64;
        games[i] += total;
        games[j] += total;
    }
    // Players reached from the anchor through matches.
    let Some(root) = index(anchor) else {
        return BTreeMap::new();
    };
    let mut reached = vec![false; n];
    let mut stack = vec![root];
    reached[root] = true;
    while let Some(i) = stack.pop() {
        for j in 0..n {
            if played[i][j] > 0.0 && !reached[j] {
                reached[j] = true;
                stack.push(j);
            }
        }
    }
    let members: Vec<usize> = (0..n).filter(|&i| reached[i]).collect();
    // Minorisation–maximisation (Hunter, 2004): strengths γ, γ_i = W_i / Σ_j n_ij / (γ_i + γ_j).
    let mut gamma = vec![1.0f64; n];
    for _ in 0..10_000 {
        let mut change = 0.0f64;
        for &i in &members {
            let won: f64 = members.iter().map(|&j| points[i][j]).sum();
            let denominator: f64 = members
                .iter()
                .filter(|&&j| played[i][j] > 0.0)
                .map(|&j| played[i][j] / (gamma[i] + gamma[j]))
                .sum();
            if denominator > 0.0 {
                let next = won / denominator;
                change = change.max((next.ln() - gamma[i].ln()).abs());
                gamma[i] = next;
            }
        }
        let norm = gamma[root];
        for &i in &members {
            gamma[i] /= norm;
        }
        if change < 1e-10 {
            break;
        }
    }
    // Standard errors: the inverse of the Fisher information with the anchor fixed.
    let others: Vec<usize> = members.iter().copied().filter(|&i| i != root).collect();
    let k = others.len();
    let mut info = vec![vec![0.0f64; k]; k];
    for (a, &i) in others.iter().enumerate() {
        for &j in &members {
            if played[i][j] == 0.0 {
                continue;
            }
            let p = gamma[i] / (gamma[i] + gamma[j]);
            let w = played[i][j] * p * (1.0 - p);
            info[a][a] += w;
            if let Some(b) = others.iter().position(|&o| o == j) {
                info[a][b] -= w;
            }
        }
    }
    let variance = invert(info);
    let mut out = BTreeMap::new();
    for &i in &members {
        let deviation = match others.iter().position(|&o| o == i) {
            Some(a) => variance
                .as_ref()
                .map_or(f64::INFINITY, |v| SCALE * v[a][a].max(0.0).sqrt()),
            None => 0.0,
        };
        out.insert(
            names[i].to_string(),
            Strength {
                rating: ANCHOR + SCALE * gamma[i].ln(),
                deviation,
                games: games[i],
            },
        );
    }
    out
}

/// The inverse of a small symmetric positive-definite matrix (Gauss–Jordan), `None` when singular.
fn invert(mut m: Vec<Vec<f64>>) -> Option<Vec<Vec<f64>>> {
    let n = m.len();
    let mut inv: Vec<Vec<f64>> = (0..n)
        .map(|i| (0..n).map(|j| if i == j { 1.0 } else { 0.0 }).collect())
        .collect();
    for c in 0..n {
        let pivot = (c..n).max_by(|&a, &b| m[a][c].abs().total_cmp(&m[b][c].abs()))?;
        if m[pivot][c].abs() < 1e-12 {
            return None;
        }
        m.swap(c, pivot);
        inv.swap(c, pivot);
        let d = m[c][c];
        for j in 0..n {
            m[c][j] /= d;
            inv[c][j] /= d;
        }
        for r in 0..n {
            if r != c {
                let f = m[r][c];
                if f != 0.0 {
                    for j in 0..n {
                        m[r][j] -= f * m[c][j];
                        inv[r][j] -= f * inv[c][j];
                    }
                }
            }
        }
    }
    Some(inv)
}

/// The measured ladder ([`Ladder`] in `assets/bot-ratings.json`).
pub fn measured() -> &'static Ladder {
    static LADDER: OnceLock<Ladder> = OnceLock::new();
    LADDER.get_or_init(|| {
        // The file is part of the build and checked by the tests; an unreadable one (never
        // shipped) leaves the levels unrated rather than stopping the bot.
        serde_json::from_str(include_str!("../../assets/bot-ratings.json"))
            .unwrap_or(Ladder { games: Vec::new() })
    })
}

/// Every player's fitted rating in each game, from [`measured`].
fn fitted() -> &'static HashMap<GameKind, BTreeMap<String, Strength>> {
    static FITTED: OnceLock<HashMap<GameKind, BTreeMap<String, Strength>>> = OnceLock::new();
    FITTED.get_or_init(|| {
        measured()
            .games
            .iter()
            .filter_map(|g| {
                let kind = Options::parse_line(&g.variant).ok()?.kind();
                Some((kind, fit(&g.matches, Level::Beginner.name())))
            })
            .collect()
    })
}

/// A level's rating in a game, when measured.
pub fn of(kind: GameKind, level: Level) -> Option<Strength> {
    fitted().get(&kind)?.get(level.name()).copied()
}

/// A player's rating in a game's ladder (levels and robots), when measured.
pub fn of_player(kind: GameKind, player: &str) -> Option<Strength> {
    fitted().get(&kind)?.get(player).copied()
}

/// The level whose rating is nearest `rating` in a game (`beginner` when none is measured).
pub fn nearest(kind: GameKind, rating: f64) -> Level {
    Level::ALL
        .into_iter()
        .filter_map(|l| of(kind, l).map(|s| (l, (s.rating - rating).abs())))
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map_or(Level::Beginner, |(l, _)| l)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(a: &str, b: &str, wins: u32, losses: u32, draws: u32) -> MatchResult {
        MatchResult {
            a: a.into(),
            b: b.into(),
            wins,
            losses,
            draws,
        }
    }

    #[test]
    fn the_fit_finds_the_differences_its_scores_say() {
        // 75 % is 191 points; 90 % is 382 points: a chain of two such matches.
        let matches = [result("x", "y", 750, 250, 0), result("y", "z", 900, 100, 0)];
        let r = fit(&matches, "z");
        assert!((r["z"].rating - ANCHOR).abs() < 1e-6);
        let y = r["y"].rating - ANCHOR;
        let x = r["x"].rating - r["y"].rating;
        assert!((y - 381.7).abs() < 2.0, "{y}");
        assert!((x - 190.8).abs() < 2.0, "{x}");
        // More games, smaller deviations; the far end has the larger one.
        assert!(r["x"].deviation > r["y"].deviation && r["y"].deviation > 0.0);
        assert_eq!(r["z"].deviation, 0.0);
        assert_eq!(r["y"].games, 2000);
        let few = fit(
            &[result("x", "y", 75, 25, 0), result("y", "z", 90, 10, 0)],
            "z",
        );
        assert!(few["x"].deviation > 2.5 * r["x"].deviation);
    }

    #[test]
    fn a_one_sided_match_gives_a_finite_rating_and_strangers_are_left_out() {
        let r = fit(
            &[result("a", "b", 40, 0, 0), result("c", "d", 1, 1, 0)],
            "b",
        );
        let a = r["a"].rating - ANCHOR;
        // 40.5 to 0.5: about 763 points, finite.
        assert!(a.is_finite() && (a - 763.0).abs() < 5.0, "{a}");
        assert!(!r.contains_key("c") && !r.contains_key("d"));
        assert!(fit(&[], "b").is_empty());
    }

    #[test]
    fn draws_count_half() {
        let r = fit(&[result("a", "b", 30, 30, 40)], "b");
        assert!((r["a"].rating - ANCHOR).abs() < 1e-6);
    }

    #[test]
    fn every_level_of_both_games_is_rated_in_order_from_the_ladder_it_lists() {
        let ladder = measured();
        for kind in GameKind::ALL {
            let game = ladder
                .games
                .iter()
                .find(|g| Options::parse_line(&g.variant).map(|o| o.kind()) == Ok(kind))
                .unwrap_or_else(|| panic!("no matches of {kind:?}"));
            for m in &game.matches {
                for player in [&m.a, &m.b] {
                    assert!(
                        player.parse::<crate::arena::PlayerSpec>().is_ok(),
                        "{kind:?}: {player}"
                    );
                }
            }
            assert!(game
                .matches
                .iter()
                .all(|m| m.wins + m.losses + m.draws >= 20));
            let ratings: Vec<f64> = Level::ALL
                .into_iter()
                .map(|l| {
                    of(kind, l)
                        .unwrap_or_else(|| panic!("{kind:?} {l:?}"))
                        .rating
                })
                .collect();
            assert!(
                ratings.windows(2).all(|w| w[0] < w[1]),
                "{kind:?}: {ratings:?}"
            );
            assert_eq!(of(kind, Level::Beginner).map(|s| s.rating), Some(ANCHOR));
            // The nearest level: each level's own rating gives it, a newcomer gets `beginner`.
            for l in Level::ALL {
                let s = of(kind, l).expect("rated");
                assert_eq!(nearest(kind, s.rating), l);
            }
            assert_eq!(
                nearest(kind, crate::rating::Rating::START.rating),
                Level::Beginner
            );
        }
    }
}
