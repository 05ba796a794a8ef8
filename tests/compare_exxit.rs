//! The fast EXXIT engine (through `hexcord::games`) against the slow reference rules of
//! tests/reference/: seeded random games over every variant, compared at every ply.

mod reference;

use hexcord::games::{Game, Options};
use reference::exxit::Ref;
use reference::Rng;

/// Depth of the perft comparisons at some plies of the first games.
const PERFT_DEPTH: u32 = 3;
/// Every game ends by the rules long before this; a safety net against a hang.
const PLY_LIMIT: usize = 3_000;

/// What the random games are compared with: the engine, or the reference read back from its
/// own position lines.
trait Subject: Sized {
    fn start(variant: &str) -> Self;
    fn from_position(variant: &str, line: &str) -> Result<Self, String>;
    fn line(&self) -> String;
    fn status(&self) -> String;
    fn legal(&self) -> Vec<String>;
    fn play(&mut self, mv: &str) -> Result<String, String>;
    fn perft(&self, depth: u32) -> u64;
}

impl Subject for Game {
    fn start(variant: &str) -> Game {
        let options = Options::parse_line(variant)
            .unwrap_or_else(|e| panic!("engine refused {variant}: {e}"));
        Game::new(options)
    }
    fn from_position(variant: &str, line: &str) -> Result<Game, String> {
        let options = Options::parse_line(variant).map_err(|e| e.to_string())?;
        Game::from_position(options, line).map_err(|e| e.to_string())
    }
    fn line(&self) -> String {
        self.position().to_line()
    }
    fn status(&self) -> String {
        Game::status(self)
    }
    fn legal(&self) -> Vec<String> {
        self.legal_notations()
    }
    fn perft(&self, depth: u32) -> u64 {
        self.position().perft(depth)
    }
    fn play(&mut self, mv: &str) -> Result<String, String> {
        self.play_text(mv)
            .map(|m| m.to_string())
            .map_err(|e| e.to_string())
    }
}

/// The reference, checking after each move that its position line reads back to the same line
/// and, while the game goes on, the same legal moves (the history for X19 stays in `played`).
struct RoundTrip {
    variant: String,
    played: Ref,
}

impl Subject for RoundTrip {
    fn start(variant: &str) -> RoundTrip {
        RoundTrip {
            variant: variant.to_string(),
            played: Ref::new(variant).unwrap_or_else(|e| panic!("{variant}: {e}")),
        }
    }
    fn from_position(variant: &str, line: &str) -> Result<RoundTrip, String> {
        Ok(RoundTrip {
            variant: variant.to_string(),
            played: Ref::from_position(variant, line)?,
        })
    }
    fn line(&self) -> String {
        self.played.position_line()
    }
    fn status(&self) -> String {
        self.played.status()
    }
    fn legal(&self) -> Vec<String> {
        self.played.legal()
    }
    fn perft(&self, depth: u32) -> u64 {
        Ref::from_position(&self.variant, &self.played.position_line())
            .map(|r| r.perft(depth))
            .unwrap_or(0)
    }
    fn play(&mut self, mv: &str) -> Result<String, String> {
        self.played.play(mv)?;
        let line = self.played.position_line();
        let reread = Ref::from_position(&self.variant, &line)?;
        if reread.position_line() != line {
            return Err(format!("{line} reads back as {}", reread.position_line()));
        }
        if !self.played.is_over() && reread.legal() != self.played.legal() {
            return Err(format!("{line}: legal moves differ once read back"));
        }
        Ok(mv.to_string())
    }
}

fn variants() -> Vec<String> {
    let mut v = Vec::new();
    for tiles in [39, 29, 19] {
        for flags in ["", " pie", " expert", " expert pie"] {
            v.push(format!("exxit tiles={tiles}{flags}"));
        }
    }
    v
}

fn compare<S: Subject>(at: &str, s: &S, r: &Ref) {
    assert_eq!(s.line(), r.position_line(), "{at}: position");
    assert_eq!(s.status(), r.status(), "{at}: status");
    assert_eq!(s.legal(), r.legal(), "{at}: legal moves");
}

/// Plays `games` seeded random games of `variant` in both, comparing at every ply; every
/// `setpos_every`-th ply also compares both read from the position line. Returns the endings.
fn random_games<S: Subject>(
    variant: &str,
    games: u64,
    seed: u64,
    setpos_every: usize,
) -> Vec<String> {
    let mut endings = Vec::new();
    for g in 0..games {
        let mut rng = Rng::new(seed.wrapping_mul(1_000_003).wrapping_add(g));
        let mut r = Ref::new(variant).unwrap_or_else(|e| panic!("{variant}: {e}"));
        let mut s = S::start(variant);
        let mut moves: Vec<String> = Vec::new();
        for ply in 0..PLY_LIMIT {
            let at = format!("{variant} game {g} after [{}]", moves.join(", "));
            compare(&at, &s, &r);
            if ply % setpos_every == 0 {
                let line = r.position_line();
                let sr = Ref::from_position(variant, &line)
                    .unwrap_or_else(|e| panic!("{at}: reference setpos: {e}"));
                let ss = S::from_position(variant, &line)
                    .unwrap_or_else(|e| panic!("{at}: setpos {line}: {e}"));
                compare(&format!("{at} (setpos)"), &ss, &sr);
            }
            if ply % 9 == 0 && g < 5 && !r.is_over() {
                // Perft from a position reached in play (a finished game counts 1).
                assert_eq!(s.perft(PERFT_DEPTH), r.perft(PERFT_DEPTH), "{at}: perft");
            }
            let Some(mv) = r.random_move(&mut |k| rng.below(k)) else {
                endings.push(r.status());
                break;
            };
            r.play(&mv)
                .unwrap_or_else(|e| panic!("{at}: reference refused its own {mv}: {e}"));
            let echoed = s
                .play(&mv)
                .unwrap_or_else(|e| panic!("{at}: {mv} refused: {e}"));
            assert_eq!(echoed, mv, "{at}: canonical notation");
            moves.push(mv);
        }
        assert!(
            r.is_over(),
            "{variant} game {g}: no end after {PLY_LIMIT} plies"
        );
    }
    endings
}

fn all_variants<S: Subject>(games: u64, setpos_every: usize) -> Vec<String> {
    let mut endings = Vec::new();
    for (i, v) in variants().iter().enumerate() {
        let t = std::time::Instant::now();
        endings.extend(random_games::<S>(v, games, i as u64 + 101, setpos_every));
        println!("{v}: {games} games in {:.2}s", t.elapsed().as_secs_f64());
    }
    endings
}

#[test]
fn engine_matches_reference_in_random_games() {
    let endings = all_variants::<Game>(100, 3);
    for kind in ["(passes)", "(repetition)"] {
        let n = endings.iter().filter(|e| e.ends_with(kind)).count();
        println!("{n} games ended by {kind}");
    }
}

#[test]
fn reference_lines_read_back_in_random_games() {
    let endings = all_variants::<RoundTrip>(20, 1);
    assert!(endings.iter().any(|e| e.starts_with("over ")));
    for kind in ["(passes)", "(repetition)"] {
        let n = endings.iter().filter(|e| e.ends_with(kind)).count();
        println!("{n} games ended by {kind}");
    }
}
