//! The fast inpHeXion engine (through `hexcord::games`) against the slow reference rules of
//! tests/reference/: seeded random games over every size and variant, compared at every ply.

mod reference;

use hexcord::games::{Game, Options};
use reference::inphexion::Ref;
use reference::Rng;

/// Legal lists are compared in full up to this many moves…
const FULL_LIST_MAX: u64 = 3_000;
/// …and by their number up to this many (relocation lists grow as permutations).
const COUNT_MAX: u64 = 100_000;
/// Depth of the perft comparisons at some plies of the first games.
const PERFT_DEPTH: u32 = 2;
/// Every game ends by the rules long before this; a safety net against a hang.
const PLY_LIMIT: usize = 400;

/// What the random games are compared with: the engine, or the reference itself read back
/// from its own position lines.
trait Subject: Sized + Clone {
    fn start(variant: &str) -> Self;
    fn from_position(variant: &str, line: &str) -> Result<Self, String>;
    fn line(&self) -> String;
    fn status(&self) -> String;
    fn legal(&self) -> Vec<String>;
    fn legal_count(&self) -> u64;
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
    fn legal_count(&self) -> u64 {
        self.legal_moves().len() as u64
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

/// The reference, always re-read from its own position line after each move (checks the line
/// format both ways); the outcome that a line cannot show (I14) is kept from the played game.
#[derive(Clone)]
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
    fn legal_count(&self) -> u64 {
        self.played.legal_count()
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
        if !self.played.is_over() {
            // A position that is not over reads back with the same moves.
            if reread.legal_count() != self.played.legal_count() {
                return Err(format!("{line}: legal moves differ once read back"));
            }
            self.played = reread;
        }
        Ok(mv.to_string())
    }
}

fn variants() -> Vec<String> {
    let mut v = Vec::new();
    for n in 4..=11 {
        let mut flags = vec!["", " pie", " free-reply", " pie free-reply"];
        if n % 2 == 1 {
            flags.extend([" neutral", " pie free-reply neutral"]);
        }
        for f in flags {
            v.push(format!("inphexion size={n}{f}"));
        }
    }
    v
}

/// Compares the subject with the reference: position line, status and legal moves.
fn compare<S: Subject>(at: &str, s: &S, r: &Ref) {
    assert_eq!(s.line(), r.position_line(), "{at}: position");
    assert_eq!(s.status(), r.status(), "{at}: status");
    let count = r.legal_count();
    if count <= FULL_LIST_MAX {
        assert_eq!(s.legal(), r.legal(), "{at}: legal moves");
    } else if count <= COUNT_MAX {
        assert_eq!(s.legal_count(), count, "{at}: number of legal moves");
    }
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
            if r.size() <= 6 && ply % 7 == 0 && g < 4 && !r.is_over() {
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

/// Runs every variant; small boards get more games than large ones.
fn all_variants<S: Subject>(scale: u64, setpos_every: usize) -> Vec<String> {
    let mut endings = Vec::new();
    for (i, v) in variants().iter().enumerate() {
        let n: u64 = v["inphexion size=".len()..]
            .split(' ')
            .next()
            .and_then(|x| x.parse().ok())
            .unwrap_or(7);
        let games = (scale * 64 / (n * n)).max(1);
        let t = std::time::Instant::now();
        endings.extend(random_games::<S>(v, games, i as u64 + 1, setpos_every));
        println!("{v}: {games} games in {:.2}s", t.elapsed().as_secs_f64());
    }
    endings
}

#[test]
fn engine_matches_reference_in_random_games() {
    let endings = all_variants::<Game>(30, 3);
    for kind in ["connection", "relocation impossible", "no legal move"] {
        let n = endings.iter().filter(|e| e.ends_with(kind)).count();
        println!("{n} games ended by {kind}");
    }
}

#[test]
fn reference_lines_read_back_in_random_games() {
    let endings = all_variants::<RoundTrip>(4, 1);
    assert!(endings.iter().any(|e| e.ends_with("connection")));
    for kind in ["connection", "relocation impossible", "no legal move"] {
        let n = endings.iter().filter(|e| e.ends_with(kind)).count();
        println!("{n} games ended by {kind}");
    }
}

/// A random position of `n`×`n` with `empties` empty cells and consistent counts, or None when
/// the rules refuse it.
fn crowded_position(rng: &mut Rng, n: usize, empties: usize, neutral: bool) -> Option<String> {
    let discs = n * n - empties - usize::from(neutral);
    let white = discs.div_ceil(2);
    let black = discs - white;
    let mut cells: Vec<char> = std::iter::repeat_n('w', white)
        .chain(std::iter::repeat_n('b', black))
        .chain(std::iter::repeat_n('.', empties))
        .chain(std::iter::repeat_n('n', usize::from(neutral)))
        .collect();
    for i in (1..cells.len()).rev() {
        cells.swap(i, rng.below(i + 1));
    }
    let rows: Vec<String> = cells.chunks(n).map(|c| c.iter().collect()).collect();
    let hand = (n * n).div_ceil(2) - usize::from(neutral);
    let side = if white == black { "white" } else { "black" };
    Some(format!(
        "{}|to-move {side}|hand {}/{}",
        rows.join("/"),
        hand.checked_sub(white)?,
        hand.checked_sub(black)?
    ))
}

/// Nearly full boards, where relocations can be impossible (I14), hands run out (I4) and moves
/// complete chains (I17): every legal move is played in both from the same position.
fn crowded_positions<S: Subject>(positions: usize) -> [usize; 2] {
    let mut rng = Rng::new(99);
    let (mut tried, mut impossible) = (0, 0);
    while tried < positions {
        let n = 4 + rng.below(4);
        let neutral = n % 2 == 1 && rng.below(2) == 0;
        let variant = format!(
            "inphexion size={n}{}",
            if neutral { " neutral" } else { "" }
        );
        let empties = 1 + rng.below(4);
        let Some(line) = crowded_position(&mut rng, n, empties, neutral) else {
            continue;
        };
        let Ok(r) = Ref::from_position(&variant, &line) else {
            continue;
        };
        tried += 1;
        let s = S::from_position(&variant, &line)
            .unwrap_or_else(|e| panic!("{variant}: setpos {line}: {e}"));
        compare(&format!("{variant} at {line}"), &s, &r);
        for mv in r.legal() {
            let at = format!("{variant} at {line} after {mv}");
            let (mut r2, mut s2) = (r.clone(), s.clone());
            r2.play(&mv)
                .unwrap_or_else(|e| panic!("{at}: reference: {e}"));
            let echoed = s2
                .play(&mv)
                .unwrap_or_else(|e| panic!("{at}: refused: {e}"));
            assert_eq!(echoed, mv, "{at}: canonical notation");
            compare(&at, &s2, &r2);
            if r2.status().ends_with("relocation impossible") {
                impossible += 1;
            }
        }
    }
    [tried, impossible]
}

#[test]
fn engine_matches_reference_on_crowded_boards() {
    let [tried, impossible] = crowded_positions::<Game>(5_000);
    println!("{tried} positions, {impossible} moves with impossible relocation");
}

#[test]
fn reference_lines_read_back_on_crowded_boards() {
    let [_, impossible] = crowded_positions::<RoundTrip>(2_000);
    assert!(
        impossible > 0,
        "no position with an impossible relocation (I14)"
    );
}
