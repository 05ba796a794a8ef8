//! Round robins by the Berger tables (FIDE C.05, Annex 1).

use super::Game;

/// One round of a round robin: its games (by player number) and, with an odd number of
/// players, the player who meets the dummy and sits out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundRobinRound {
    pub games: Vec<Game>,
    pub bye: Option<u32>,
}

/// The rounds of a round robin of `players` players (numbered from 1), by the Berger tables:
/// `players - 1` rounds for an even number, `players` for an odd one (the dummy, number
/// `players + 1`, gives a bye each round). With `double`, a second cycle follows, the same
/// rounds with the colours reversed. Empty for fewer than two players.
///
/// Round `r` of the table of `n` players (`n` even): the players `1..n` but the last are taken
/// in a circle starting from `1 + (r - 1)·n/2` (modulo `n - 1`); the first of them meets player
/// `n` (White in odd rounds, Black in even ones), and then the second plays White against the
/// last, the third against the last but one, and so on.
pub fn berger(players: u32, double: bool) -> Vec<RoundRobinRound> {
    if players < 2 {
        return Vec::new();
    }
    let n = players + players % 2;
    let circle = n - 1;
    let mut rounds = Vec::new();
    for r in 1..=circle {
        let start = ((r - 1) * (n / 2)) % circle;
        let at = |k: u32| (start + k) % circle + 1;
        let mut games = vec![if r % 2 == 1 {
            Game {
                white: at(0),
                black: n,
            }
        } else {
            Game {
                white: n,
                black: at(0),
            }
        }];
        for k in 1..n / 2 {
            games.push(Game {
                white: at(k),
                black: at(circle - k),
            });
        }
        rounds.push(without_dummy(games, players));
    }
    if double {
        let second: Vec<RoundRobinRound> = rounds
            .iter()
            .map(|round| RoundRobinRound {
                games: round
                    .games
                    .iter()
                    .map(|g| Game {
                        white: g.black,
                        black: g.white,
                    })
                    .collect(),
                bye: round.bye,
            })
            .collect();
        rounds.extend(second);
    }
    rounds
}

fn without_dummy(games: Vec<Game>, players: u32) -> RoundRobinRound {
    let mut bye = None;
    let games = games
        .into_iter()
        .filter(|g| {
            if g.white > players {
                bye = Some(g.black);
                false
            } else if g.black > players {
                bye = Some(g.white);
                false
            } else {
                true
            }
        })
        .collect();
    RoundRobinRound { games, bye }
}
