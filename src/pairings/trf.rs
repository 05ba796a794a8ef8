//! The tournament as the pairing needs it, and its reading from a FIDE Tournament Report File
//! (TRF-2026, which keeps TRF-16's player lines; the older extension lines of pairing programs
//! are read too).
//!
//! What is read:
//!
//! - Player lines `001`: the starting rank in columns 5–8, the name in 15–47, then one block of
//!   ten columns a round from column 92: the opponent's starting rank (`0000` for none) in
//!   columns 92–95, the colour (`w`, `b` or `-`) in 97 and the result in 99. Results: `1` `=` `0`
//!   (and `W` `D` `L`, games of less than one move) are played games; `+` and `-` are forfeits
//!   (not played: they count neither for rematches nor for colours); `U` is a pairing-allocated
//!   bye, `F` a full-point bye, `H` a half-point bye, `Z` a zero-point bye.
//! - `142 n` (or the older `XXR n`): the number of rounds (needed to know the final round and
//!   its topscorers).
//! - `152 W` or `152 B` (or the older `XXC white1` / `XXC black1`): the colour of the first
//!   player in round 1 (default white).
//! - `240 T RRR PPPP …` (TRF-2026's bye records): a full (`F`), half (`H`) or zero-point (`Z`)
//!   bye in round `RRR` for the players listed. In a round played, it fills the players' empty
//!   entry (a game there is an error); in the next round, it takes them out of its pairing;
//!   later rounds are not paired yet and are ignored.
//!
//! What is written ([`Tournament::to_trf_headed`], `/tournament export`): the event's name
//! (`012`), its number of players (`062`), its kind (`092`), its tie-breaks by their FIDE codes
//! (`202`), the rounds (`142`) and the initial colour (`152`), the player lines, then `XXR` and
//! `XXC` again for pairing programs that read only those.
//!
//! The rounds played are those up to the last one in which any player has an opponent or a
//! pairing-allocated bye. An entry in the round after that one (a bye or an absence entered in
//! advance) takes the player out of the pairing; a round missing from a line counts as a
//! zero-point round not played (a late entry). The score is counted from the results (a win,
//! `+`, `U` and `F` one point; a draw and `H` half a point); the points column is not read.
//! Comment lines (`###`) and every other line are ignored.

use std::collections::HashMap;
use std::fmt;

use thiserror::Error;

/// A colour in a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Colour {
    White,
    Black,
}

impl Colour {
    /// The other colour.
    pub fn opposite(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
}

/// What one round was for one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// A game won (`1`, or `W`).
    Win,
    /// A game drawn (`=`, or `D`).
    Draw,
    /// A game lost (`0`, or `L`).
    Loss,
    /// Won by forfeit (`+`): not played.
    ForfeitWin,
    /// Lost by forfeit (`-`): not played.
    ForfeitLoss,
    /// The pairing-allocated bye (`U`): one point.
    PairingBye,
    /// A full-point bye (`F`).
    FullBye,
    /// A half-point bye (`H`).
    HalfBye,
    /// A zero-point bye (`Z`), or a round missing from the line.
    ZeroBye,
}

impl Outcome {
    /// The result's code in a TRF file.
    pub fn code(self) -> char {
        match self {
            Outcome::Win => '1',
            Outcome::Draw => '=',
            Outcome::Loss => '0',
            Outcome::ForfeitWin => '+',
            Outcome::ForfeitLoss => '-',
            Outcome::PairingBye => 'U',
            Outcome::FullBye => 'F',
            Outcome::HalfBye => 'H',
            Outcome::ZeroBye => 'Z',
        }
    }

    fn from_code(c: char) -> Option<Outcome> {
        Some(match c {
            '1' | 'W' => Outcome::Win,
            '=' | 'D' => Outcome::Draw,
            '0' | 'L' => Outcome::Loss,
            '+' => Outcome::ForfeitWin,
            '-' => Outcome::ForfeitLoss,
            'U' => Outcome::PairingBye,
            'F' => Outcome::FullBye,
            'H' => Outcome::HalfBye,
            'Z' => Outcome::ZeroBye,
            _ => return None,
        })
    }

    /// Whether a game was played over the board (it counts for rematches and colours).
    pub fn played(self) -> bool {
        matches!(self, Outcome::Win | Outcome::Draw | Outcome::Loss)
    }

    /// The points scored, in half points.
    pub fn half_points(self) -> u32 {
        match self {
            Outcome::Win | Outcome::ForfeitWin | Outcome::PairingBye | Outcome::FullBye => 2,
            Outcome::Draw | Outcome::HalfBye => 1,
            Outcome::Loss | Outcome::ForfeitLoss | Outcome::ZeroBye => 0,
        }
    }

    /// The result the opponent of a pairing has.
    fn mirrored(self) -> Option<Outcome> {
        Some(match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Loss => Outcome::Win,
            Outcome::Draw => Outcome::Draw,
            Outcome::ForfeitWin => Outcome::ForfeitLoss,
            Outcome::ForfeitLoss => Outcome::ForfeitWin,
            _ => return None,
        })
    }
}

/// One round of one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoundEntry {
    /// The opponent's starting rank, if the player was paired.
    pub opponent: Option<u32>,
    /// The colour, for a game (also kept for a forfeit, where it does not count).
    pub colour: Option<Colour>,
    pub outcome: Outcome,
}

impl RoundEntry {
    /// A round not played and not scored.
    pub const ABSENT: RoundEntry = RoundEntry {
        opponent: None,
        colour: None,
        outcome: Outcome::ZeroBye,
    };

    /// Whether the game of this round was played over the board.
    pub fn played(&self) -> bool {
        self.opponent.is_some() && self.outcome.played()
    }
}

/// A player and their rounds so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entrant {
    /// The starting rank (the pairing number).
    pub rank: u32,
    pub name: String,
    /// One entry for each round played so far.
    pub rounds: Vec<RoundEntry>,
    /// Whether the player is paired in the next round (false when a bye or an absence was
    /// entered for it in advance, or after a withdrawal). Once the last round is played there is
    /// no next round: the TRF has no cell for it, and [`parse`] reads true.
    pub paired_next: bool,
}

impl Entrant {
    /// The score in half points.
    pub fn half_points(&self) -> u32 {
        self.rounds.iter().map(|r| r.outcome.half_points()).sum()
    }
}

/// A tournament: its players by starting rank and what is known of its schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tournament {
    /// The players, by starting rank (ascending).
    pub entrants: Vec<Entrant>,
    /// The number of rounds, when known (`XXR`).
    pub total_rounds: Option<u32>,
    /// The colour of the first player in round 1 (`XXC`), the "initial colour".
    pub initial_colour: Colour,
}

/// What a TRF file says of its event beside the pairings ([`Tournament::to_trf_headed`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct Heading<'a> {
    /// The event's name (`012`).
    pub name: &'a str,
    /// Its kind in words (`092`), empty for none.
    pub kind: &'a str,
    /// Its tie-breaks in order, by their codes in FIDE's Tie-Break Regulations (`202`).
    pub tiebreaks: &'a [&'a str],
}

impl Tournament {
    /// A tournament of `players` players (ranks 1 to `players`, named `Player N`) before round 1.
    pub fn new(players: u32, total_rounds: Option<u32>) -> Tournament {
        Tournament {
            entrants: (1..=players)
                .map(|rank| Entrant {
                    rank,
                    name: format!("Player {rank}"),
                    rounds: Vec::new(),
                    paired_next: true,
                })
                .collect(),
            total_rounds,
            initial_colour: Colour::White,
        }
    }

    /// The number of rounds played so far.
    pub fn rounds_played(&self) -> usize {
        self.entrants
            .iter()
            .map(|e| e.rounds.len())
            .max()
            .unwrap_or(0)
    }

    /// The entrant of a starting rank.
    pub fn entrant(&self, rank: u32) -> Option<&Entrant> {
        self.entrants
            .binary_search_by_key(&rank, |e| e.rank)
            .ok()
            .map(|i| &self.entrants[i])
    }

    /// Adds a round: every entrant gets `entry(rank)` (the caller keeps both sides of a game
    /// consistent), and all are paired in the next round again.
    pub fn push_round(&mut self, mut entry: impl FnMut(u32) -> RoundEntry) {
        let n = self.rounds_played();
        for e in &mut self.entrants {
            e.rounds.resize(n, RoundEntry::ABSENT);
            e.rounds.push(entry(e.rank));
            e.paired_next = true;
        }
    }

    /// The tournament as a TRF-2026 file with `heading`'s lines first (`012`, `062`, `092`,
    /// `202`), then [`Tournament::to_trf`]'s, which [`parse`] reads back.
    pub fn to_trf_headed(&self, heading: &Heading<'_>) -> String {
        let line = |text: &str| -> String {
            text.chars()
                .filter(|c| !c.is_control())
                .collect::<String>()
                .trim()
                .to_string()
        };
        let mut out = format!("012 {}\n062 {}\n", line(heading.name), self.entrants.len());
        if !heading.kind.is_empty() {
            out.push_str(&format!("092 {}\n", line(heading.kind)));
        }
        if !heading.tiebreaks.is_empty() {
            out.push_str(&format!("202 {}\n", heading.tiebreaks.join(",")));
        }
        out.push_str(&self.to_trf());
        out
    }

    /// The tournament as a TRF file (`142`, `152`, the player lines, then `XXR` and `XXC` for
    /// pairing programs that read only those), which [`parse`] reads back.
    pub fn to_trf(&self) -> String {
        let mut out = String::new();
        if let Some(r) = self.total_rounds {
            out.push_str(&format!("142 {r}\n"));
        }
        out.push_str(match self.initial_colour {
            Colour::White => "152 W\n",
            Colour::Black => "152 B\n",
        });
        // A player not paired in the next round has a zero-point bye there, when there is one:
        // a finished event has no cell past its last round.
        let next_round = self
            .total_rounds
            .is_none_or(|r| self.rounds_played() < r as usize);
        for e in &self.entrants {
            let points = e.half_points();
            let mut line = format!(
                "001 {:>4}      {:<33} {:>4} {:>3} {:>11} {:>10} {:>2}.{} {:>4}",
                e.rank,
                e.name.chars().take(33).collect::<String>(),
                "",
                "",
                "",
                "",
                points / 2,
                if points % 2 == 1 { 5 } else { 0 },
                ""
            );
            debug_assert_eq!(line.chars().count(), 89);
            for r in &e.rounds {
                let colour = match r.colour {
                    Some(Colour::White) => 'w',
                    Some(Colour::Black) => 'b',
                    None => '-',
                };
                line.push_str(&format!(
                    "  {:04} {} {}",
                    r.opponent.unwrap_or(0),
                    colour,
                    r.outcome.code()
                ));
            }
            if !e.paired_next && next_round {
                line.push_str("  0000 - Z");
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        if let Some(r) = self.total_rounds {
            out.push_str(&format!("XXR {r}\n"));
        }
        out.push_str(match self.initial_colour {
            Colour::White => "XXC white1\n",
            Colour::Black => "XXC black1\n",
        });
        out
    }
}

/// Why a TRF file cannot be read: the line (counted from 1) and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("line {line}: {kind}")]
pub struct TrfError {
    pub line: usize,
    pub kind: TrfErrorKind,
}

/// What is wrong with a TRF line.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TrfErrorKind {
    #[error("no player lines (001)")]
    NoPlayers,
    #[error("the starting rank (columns 5-8) is not a number from 1 to 9999: {0:?}")]
    BadRank(String),
    #[error("starting rank {0} appears twice")]
    DuplicateRank(u32),
    #[error("round {round}: the opponent (columns {column}-{}) is not a number: {text:?}", column + 3)]
    BadOpponent {
        round: usize,
        column: usize,
        text: String,
    },
    #[error("round {round}: the colour (column {column}) is not w, b or -: {found:?}")]
    BadColour {
        round: usize,
        column: usize,
        found: char,
    },
    #[error("round {round}: the result (column {column}) is not one of 1 0 = + - W D L U H F Z: {found:?}")]
    BadResult {
        round: usize,
        column: usize,
        found: char,
    },
    #[error("round {round}: a game needs an opponent and a colour (w or b)")]
    GameWithoutOpponent { round: usize },
    #[error("round {round}: a bye ({code}) has no opponent, but {opponent} is given")]
    ByeWithOpponent {
        round: usize,
        code: char,
        opponent: u32,
    },
    #[error("round {round}: the player is their own opponent")]
    OwnOpponent { round: usize },
    #[error("round {round}: opponent {opponent} has no player line")]
    UnknownOpponent { round: usize, opponent: u32 },
    #[error("round {round}: opponent {opponent}'s line does not show the same game ({detail})")]
    Inconsistent {
        round: usize,
        opponent: u32,
        detail: &'static str,
    },
    #[error("142 (or XXR): the number of rounds is not a positive number: {0:?}")]
    BadRounds(String),
    #[error("152 (or XXC): expected W or B (white1 or black1), found {0:?}")]
    BadInitialColour(String),
    #[error("240: expected a bye type (F, H or Z), a round and players, found {0:?}")]
    BadByeRecord(String),
    #[error("240: round {round}: player {player} has no player line")]
    UnknownByePlayer { round: usize, player: u32 },
    #[error("240: round {round}: player {player} has another entry in that round")]
    ByeOverEntry { round: usize, player: u32 },
}

fn err(line: usize, kind: TrfErrorKind) -> TrfError {
    TrfError { line, kind }
}

/// Characters of a line by column (1-based); beyond the end, spaces.
struct Columns<'a>(&'a [char]);

impl Columns<'_> {
    fn at(&self, col: usize) -> char {
        self.0.get(col - 1).copied().unwrap_or(' ')
    }
    fn range(&self, from: usize, to: usize) -> String {
        (from..=to).map(|c| self.at(c)).collect()
    }
}

struct RawEntry {
    opponent: u32,
    colour: Option<Colour>,
    outcome: Outcome,
}

/// Reads a TRF file (see the module's documentation for what is read).
pub fn parse(text: &str) -> Result<Tournament, TrfError> {
    let mut raw: Vec<(usize, u32, String, Vec<Option<RawEntry>>)> = Vec::new();
    let mut total_rounds = None;
    let mut initial_colour = Colour::White;
    let mut seen: HashMap<u32, usize> = HashMap::new();
    // Bye records (`240`): their line, the bye, the round (from 1) and the players.
    let mut byes: Vec<(usize, Outcome, usize, Vec<u32>)> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let number = i + 1;
        let line = line.trim_end_matches('\r');
        let tag = line.get(..4);
        if tag == Some("142 ") {
            let value = line[4..].trim();
            match value.parse::<u32>() {
                Ok(n) if n > 0 => total_rounds = Some(n),
                _ => return Err(err(number, TrfErrorKind::BadRounds(value.to_string()))),
            }
        } else if tag == Some("152 ") {
            initial_colour = match line[4..].trim() {
                "W" | "w" => Colour::White,
                "B" | "b" => Colour::Black,
                other => {
                    return Err(err(
                        number,
                        TrfErrorKind::BadInitialColour(other.to_string()),
                    ))
                }
            };
        } else if tag == Some("240 ") {
            let bad = || err(number, TrfErrorKind::BadByeRecord(line.to_string()));
            let mut tokens = line[4..].split_whitespace();
            let outcome = match tokens.next() {
                Some("F" | "f") => Outcome::FullBye,
                Some("H" | "h") => Outcome::HalfBye,
                Some("Z" | "z") => Outcome::ZeroBye,
                _ => return Err(bad()),
            };
            let round = tokens
                .next()
                .and_then(|r| r.parse::<usize>().ok())
                .filter(|&r| r > 0)
                .ok_or_else(bad)?;
            let players = tokens
                .map(|p| p.parse::<u32>().ok().filter(|&p| p > 0))
                .collect::<Option<Vec<u32>>>()
                .filter(|p| !p.is_empty())
                .ok_or_else(bad)?;
            byes.push((number, outcome, round, players));
        } else if let Some(rest) = line.strip_prefix("XXR") {
            let value = rest.trim();
            match value.parse::<u32>() {
                Ok(n) if n > 0 => total_rounds = Some(n),
                _ => return Err(err(number, TrfErrorKind::BadRounds(value.to_string()))),
            }
        } else if let Some(rest) = line.strip_prefix("XXC") {
            let mut found = None;
            for token in rest.split_whitespace() {
                match token.to_ascii_lowercase().as_str() {
                    "white1" => found = Some(Colour::White),
                    "black1" => found = Some(Colour::Black),
                    "rank" => {}
                    _ => {
                        return Err(err(
                            number,
                            TrfErrorKind::BadInitialColour(token.to_string()),
                        ))
                    }
                }
            }
            match found {
                Some(c) => initial_colour = c,
                None => {
                    return Err(err(
                        number,
                        TrfErrorKind::BadInitialColour(rest.trim().to_string()),
                    ))
                }
            }
        } else if line.starts_with("001") {
            let chars: Vec<char> = line.chars().collect();
            let cols = Columns(&chars);
            let rank_text = cols.range(5, 8);
            let rank = match rank_text.trim().parse::<u32>() {
                Ok(r) if (1..=9999).contains(&r) => r,
                _ => return Err(err(number, TrfErrorKind::BadRank(rank_text))),
            };
            if seen.insert(rank, number).is_some() {
                return Err(err(number, TrfErrorKind::DuplicateRank(rank)));
            }
            let name = cols.range(15, 47).trim().to_string();
            let mut entries = Vec::new();
            let mut round = 0;
            loop {
                let start = 92 + 10 * round;
                if start > chars.len() {
                    break;
                }
                round += 1;
                let block = cols.range(start, start + 7);
                if block.trim().is_empty() {
                    entries.push(None);
                    continue;
                }
                let opp_text = cols.range(start, start + 3);
                let opponent = if opp_text.trim().is_empty() {
                    0
                } else {
                    opp_text.trim().parse::<u32>().map_err(|_| {
                        err(
                            number,
                            TrfErrorKind::BadOpponent {
                                round,
                                column: start,
                                text: opp_text.clone(),
                            },
                        )
                    })?
                };
                let colour = match cols.at(start + 5) {
                    'w' | 'W' => Some(Colour::White),
                    'b' | 'B' => Some(Colour::Black),
                    '-' | ' ' => None,
                    found => {
                        return Err(err(
                            number,
                            TrfErrorKind::BadColour {
                                round,
                                column: start + 5,
                                found,
                            },
                        ))
                    }
                };
                let code = cols.at(start + 7);
                let outcome = Outcome::from_code(code).ok_or_else(|| {
                    err(
                        number,
                        TrfErrorKind::BadResult {
                            round,
                            column: start + 7,
                            found: code,
                        },
                    )
                })?;
                if outcome.played() && (opponent == 0 || colour.is_none()) {
                    return Err(err(number, TrfErrorKind::GameWithoutOpponent { round }));
                }
                if outcome.mirrored().is_none() && opponent != 0 {
                    return Err(err(
                        number,
                        TrfErrorKind::ByeWithOpponent {
                            round,
                            code,
                            opponent,
                        },
                    ));
                }
                if opponent == rank {
                    return Err(err(number, TrfErrorKind::OwnOpponent { round }));
                }
                entries.push(Some(RawEntry {
                    opponent,
                    colour,
                    outcome,
                }));
            }
            raw.push((number, rank, name, entries));
        }
    }
    if raw.is_empty() {
        return Err(err(text.lines().count().max(1), TrfErrorKind::NoPlayers));
    }
    // The rounds played: up to the last with a pairing (an opponent or the pairing-allocated bye).
    let mut played_rounds = 0;
    for (_, _, _, entries) in &raw {
        for (k, e) in entries.iter().enumerate() {
            if let Some(e) = e {
                if e.opponent != 0 || e.outcome == Outcome::PairingBye {
                    played_rounds = played_rounds.max(k + 1);
                }
            }
        }
    }
    // The bye records: into the rounds played, or out of the next round's pairing.
    for (number, outcome, round, players) in &byes {
        for &player in players {
            let Some(at) = raw.iter().position(|r| r.1 == player) else {
                return Err(err(
                    *number,
                    TrfErrorKind::UnknownByePlayer {
                        round: *round,
                        player,
                    },
                ));
            };
            if *round > played_rounds + 1 {
                continue;
            }
            let entries = &mut raw[at].3;
            if entries.len() < *round {
                entries.resize_with(*round, || None);
            }
            match &entries[round - 1] {
                None => {}
                Some(e) if e.opponent == 0 && e.outcome == *outcome => {}
                Some(_) => {
                    return Err(err(
                        *number,
                        TrfErrorKind::ByeOverEntry {
                            round: *round,
                            player,
                        },
                    ))
                }
            }
            entries[round - 1] = Some(RawEntry {
                opponent: 0,
                colour: None,
                outcome: *outcome,
            });
        }
    }
    // Both sides of every pairing agree.
    let index: HashMap<u32, usize> = raw.iter().enumerate().map(|(i, r)| (r.1, i)).collect();
    for (number, _rank, _, entries) in &raw {
        for (k, e) in entries.iter().enumerate().take(played_rounds) {
            let Some(e) = e else { continue };
            if e.opponent == 0 {
                continue;
            }
            let round = k + 1;
            let Some(&j) = index.get(&e.opponent) else {
                return Err(err(
                    *number,
                    TrfErrorKind::UnknownOpponent {
                        round,
                        opponent: e.opponent,
                    },
                ));
            };
            let inconsistent = |detail| {
                err(
                    *number,
                    TrfErrorKind::Inconsistent {
                        round,
                        opponent: e.opponent,
                        detail,
                    },
                )
            };
            let Some(Some(other)) = raw[j].3.get(k) else {
                return Err(inconsistent("no entry for that round"));
            };
            if other.opponent != *_rank {
                return Err(inconsistent("another opponent"));
            }
            let double_forfeit =
                e.outcome == Outcome::ForfeitLoss && other.outcome == Outcome::ForfeitLoss;
            if Some(other.outcome) != e.outcome.mirrored() && !double_forfeit {
                return Err(inconsistent("the results do not match"));
            }
            if e.outcome.played() && other.colour != e.colour.map(Colour::opposite) {
                return Err(inconsistent("the colours do not differ"));
            }
        }
    }
    let mut entrants: Vec<Entrant> = raw
        .into_iter()
        .map(|(_, rank, name, entries)| {
            let rounds = (0..played_rounds)
                .map(|k| match entries.get(k) {
                    Some(Some(e)) => RoundEntry {
                        opponent: (e.opponent != 0).then_some(e.opponent),
                        colour: e.colour,
                        outcome: e.outcome,
                    },
                    _ => RoundEntry::ABSENT,
                })
                .collect();
            let paired_next = !matches!(entries.get(played_rounds), Some(Some(_)));
            Entrant {
                rank,
                name,
                rounds,
                paired_next,
            }
        })
        .collect();
    entrants.sort_by_key(|e| e.rank);
    Ok(Tournament {
        entrants,
        total_rounds,
        initial_colour,
    })
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Colour::White => "white",
            Colour::Black => "black",
        })
    }
}
