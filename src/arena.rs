//! Matches between two players: the built-in searchers at any budget, a random mover, the EXXIT
//! sparring partners (Boardspace's robots `weakbot`, `dumbot`, `smartbot`, `bestbot`, and a plain
//! `alphabeta:D`), or any external program speaking the engine protocol. A front end on `games/`
//! and `ai/`, like the engine.
//!
//! [`run`] plays N games with alternating colours (player A has the first colour in even-numbered
//! games) and returns A's wins, losses and draws with the score and its 95 % confidence interval,
//! and each side's median time per move over the moves with a choice.
//!
//! # Measuring a level's strength
//!
//! `hexcord arena --game "inphexion size=7" --a hard --b medium --games 100 --seed 7 --threads 2`
//! is how every strength figure of the README was taken; `--threads` plays that many games at once
//! (use 1 when a player searches on several threads itself, as inpHeXion's `hard` does). The
//! targets the levels are held to, over 100 games: `easy` at least 95 % against `random`,
//! `medium` at least 75 % against `easy`, `hard` at least 65 % against `medium`, in both games; in
//! EXXIT also against Boardspace's robots ([`crate::ai::boardspace`], rebuilt from their published
//! description), the only public EXXIT robots: `easy` at least Dumbot's strength (over 60 games
//! each it scores 78 % against Dumbot, 51 % against Smartbot, 22 % against Bestbot), `medium` and
//! `hard` above Bestbot's.
//!
//! - The times per move are wall-clock: on a loaded machine they say little, the results stay
//!   exact (the searches are reproducible, see [`crate::ai`]).
//! - Against an older build, wrap its engine in a script that gives its `genmove` the old level's
//!   budget and stops at `quit`, and play it as `engine:SCRIPT`, e.g.
//!   `sed -u -e 's/^genmove /genmove playouts=30000 ms=4000 /' -e '/^quit/q' | hexcord-old engine`.
//! - `playouts:N`, `nodes:N` and `ms:N` try a budget before it becomes a level's; `fixed:N`
//!   is `nodes:N` always playing its best move, without the levels' variety between games;
//!   `cargo run --release --example exxit_depth -- NODES GAMES` shows how deep the alpha-beta
//!   search gets within a budget.

use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::str::FromStr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::ai::boardspace::{self, Robot};
use crate::ai::{alphabeta, choose, deep, Budget, Level};
use crate::games::{Colour, GameKind, Move, Options, Position};

/// Who plays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerSpec {
    /// Uniformly random legal moves.
    Random,
    /// The search at a level's budget for the game.
    Level(Level),
    /// The search with this many playouts.
    Playouts(u32),
    /// The search for this many milliseconds.
    Millis(u64),
    /// EXXIT's alpha-beta search ([`crate::ai::deep`]) within this many evaluated positions,
    /// varied by the seed among near-equal moves as the levels are.
    Nodes(u64),
    /// The same search always playing its best move (the analysis' search; the levels before
    /// they varied their play).
    Fixed(u64),
    /// The EXXIT alpha-beta searcher to this depth.
    AlphaBeta(u32),
    /// One of Boardspace's EXXIT robots, opening randomisation on.
    Robot(Robot),
    /// An external program (and its arguments) speaking the engine protocol.
    Engine(Vec<String>),
}

impl FromStr for PlayerSpec {
    type Err = String;
    fn from_str(s: &str) -> Result<PlayerSpec, String> {
        let s = s.trim();
        let usage = "random, beginner, easy, medium, hard, weakbot, dumbot, smartbot, bestbot, \
             playouts:N, ms:N, nodes:N, fixed:N, alphabeta:D or engine:PROGRAM ARGS";
        if s.eq_ignore_ascii_case("random") {
            return Ok(PlayerSpec::Random);
        }
        if let Ok(level) = s.parse::<Level>() {
            return Ok(PlayerSpec::Level(level));
        }
        if let Ok(robot) = s.parse::<Robot>() {
            return Ok(PlayerSpec::Robot(robot));
        }
        let Some((key, value)) = s.split_once(':') else {
            return Err(format!("unknown player `{s}` ({usage})"));
        };
        let number = |what: &str| -> Result<u64, String> {
            match value.trim().parse::<u64>() {
                Ok(n) if n > 0 => Ok(n),
                _ => Err(format!("`{s}`: {what} takes a positive whole number")),
            }
        };
        match key.trim().to_ascii_lowercase().as_str() {
            "playouts" => Ok(PlayerSpec::Playouts(
                number("playouts")?.min(u32::MAX as u64) as u32,
            )),
            "ms" => Ok(PlayerSpec::Millis(number("ms")?)),
            "nodes" => Ok(PlayerSpec::Nodes(number("nodes")?)),
            "fixed" => Ok(PlayerSpec::Fixed(number("fixed")?)),
            "alphabeta" => {
                let d = number("alphabeta")?;
                if d > 20 {
                    return Err(format!("`{s}`: depth at most 20"));
                }
                Ok(PlayerSpec::AlphaBeta(d as u32))
            }
            "engine" => {
                let words: Vec<String> = value.split_whitespace().map(String::from).collect();
                if words.is_empty() {
                    return Err(format!("`{s}`: engine needs a program"));
                }
                Ok(PlayerSpec::Engine(words))
            }
            _ => Err(format!("unknown player `{s}` ({usage})")),
        }
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Random => f.write_str("random"),
            PlayerSpec::Level(l) => f.write_str(l.name()),
            PlayerSpec::Playouts(n) => write!(f, "playouts:{n}"),
            PlayerSpec::Millis(n) => write!(f, "ms:{n}"),
            PlayerSpec::Nodes(n) => write!(f, "nodes:{n}"),
            PlayerSpec::Fixed(n) => write!(f, "fixed:{n}"),
            PlayerSpec::AlphaBeta(d) => write!(f, "alphabeta:{d}"),
            PlayerSpec::Robot(r) => f.write_str(r.name()),
            PlayerSpec::Engine(w) => write!(f, "engine:{}", w.join(" ")),
        }
    }
}

/// What goes wrong in a match.
#[derive(Debug, thiserror::Error)]
pub enum ArenaError {
    #[error("{0}")]
    Spec(String),
    #[error("engine `{program}`: {why}")]
    Engine { program: String, why: String },
}

/// A match's settings.
#[derive(Clone, Debug)]
pub struct Match {
    pub options: Options,
    pub a: PlayerSpec,
    pub b: PlayerSpec,
    pub games: u32,
    pub seed: u64,
    pub threads: usize,
    /// Print the running tally to standard error after each game.
    pub progress: bool,
}

/// The result of a match, from player A's side.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ArenaResult {
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
    /// A's wins with the first colour (White/Silver).
    pub wins_as_first: u32,
    /// Moves played in all games.
    pub moves: u64,
    /// Time each player spent choosing moves, and their number of moves.
    pub time_a: Duration,
    pub moves_a: u64,
    pub time_b: Duration,
    pub moves_b: u64,
    /// The time of each move with a choice (more than one legal move), per player (A, B).
    pub move_times: [Vec<Duration>; 2],
    /// Games that differ from every other game of the match in some move (a repeated game
    /// counts once): how much the players vary their play.
    pub different: u32,
}

impl ArenaResult {
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// A's mean score: 1 a win, ½ a draw.
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.0;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / n as f64
    }

    /// The median time per move with a choice of player A (`0`) or B (`1`).
    pub fn median(&self, player: usize) -> Duration {
        let mut t = self.move_times[player].clone();
        if t.is_empty() {
            return Duration::ZERO;
        }
        t.sort_unstable();
        t[t.len() / 2]
    }

    /// The half-width of the 95 % confidence interval of [`ArenaResult::score`] (normal
    /// approximation with the sample variance of the per-game scores).
    pub fn margin95(&self) -> f64 {
        let n = self.games() as f64;
        if n < 2.0 {
            return 1.0;
        }
        let m = self.score();
        let sq = self.wins as f64 * (1.0 - m).powi(2)
            + self.draws as f64 * (0.5 - m).powi(2)
            + self.losses as f64 * m.powi(2);
        let var = sq / (n - 1.0);
        1.96 * (var / n).sqrt()
    }
}

impl fmt::Display for ArenaResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let per = |t: Duration, n: u64| {
            if n == 0 {
                0.0
            } else {
                t.as_secs_f64() * 1000.0 / n as f64
            }
        };
        write!(
            f,
            "games {}: A wins {} ({} as first), losses {}, draws {}; score {:.1} % ± {:.1} % (95 %); \
             ms/move A {:.1}, B {:.1} (median with a choice A {:.1}, B {:.1}); moves/game {:.1}; \
             {} different games",
            self.games(),
            self.wins,
            self.wins_as_first,
            self.losses,
            self.draws,
            100.0 * self.score(),
            100.0 * self.margin95(),
            per(self.time_a, self.moves_a),
            per(self.time_b, self.moves_b),
            self.median(0).as_secs_f64() * 1000.0,
            self.median(1).as_secs_f64() * 1000.0,
            self.moves as f64 / self.games().max(1) as f64,
            self.different,
        )
    }
}

/// One game's result for A.
struct GameResult {
    /// 1 win, 0 draw, -1 loss.
    result: i8,
    a_first: bool,
    moves: u64,
    time: [Duration; 2],
    count: [u64; 2],
    move_times: [Vec<Duration>; 2],
    /// The moves played, in notation.
    record: Vec<String>,
}

/// Plays the match. Fails on a bad player for the game or an engine that misbehaves.
pub fn run(m: &Match) -> Result<ArenaResult, ArenaError> {
    for p in [&m.a, &m.b] {
        if matches!(
            p,
            PlayerSpec::AlphaBeta(_)
                | PlayerSpec::Robot(_)
                | PlayerSpec::Nodes(_)
                | PlayerSpec::Fixed(_)
        ) && m.options.kind() != GameKind::Exxit
        {
            return Err(ArenaError::Spec(format!(
                "`{p}` plays EXXIT only, not {}",
                m.options.kind().name()
            )));
        }
    }
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Result<GameResult, ArenaError>>> = Mutex::new(Vec::new());
    let threads = m.threads.clamp(1, 64).min(m.games.max(1) as usize);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= m.games as usize {
                    break;
                }
                let r = play_game(m, i as u64);
                let failed = r.is_err();
                if let Ok(mut v) = results.lock() {
                    v.push(r);
                    if m.progress {
                        let (mut w, mut l, mut d) = (0, 0, 0);
                        for g in v.iter().flatten() {
                            match g.result {
                                1 => w += 1,
                                -1 => l += 1,
                                _ => d += 1,
                            }
                        }
                        eprintln!("after {} games: A +{w} -{l} ={d}", v.len());
                    }
                }
                if failed {
                    next.store(m.games as usize, Ordering::Relaxed);
                    break;
                }
            });
        }
    });
    let results = results.into_inner().unwrap_or_default();
    let mut out = ArenaResult::default();
    let mut records = std::collections::HashSet::new();
    for r in results {
        let g = r?;
        if records.insert(g.record) {
            out.different += 1;
        }
        match g.result {
            1 => {
                out.wins += 1;
                if g.a_first {
                    out.wins_as_first += 1;
                }
            }
            -1 => out.losses += 1,
            _ => out.draws += 1,
        }
        out.moves += g.moves;
        out.time_a += g.time[0];
        out.moves_a += g.count[0];
        out.time_b += g.time[1];
        out.moves_b += g.count[1];
        let [ta, tb] = g.move_times;
        out.move_times[0].extend(ta);
        out.move_times[1].extend(tb);
    }
    Ok(out)
}

/// A player during one game.
enum Player {
    Builtin(PlayerSpec),
    Engine(EngineProcess),
}

fn play_game(m: &Match, index: u64) -> Result<GameResult, ArenaError> {
    let a_first = index.is_multiple_of(2);
    let game_seed = m
        .seed
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(index.wrapping_mul(0xD1B5_4A32_D192_ED03));
    let mut rng = SmallRng::seed_from_u64(game_seed);
    let mut players = [open(&m.a, &m.options)?, open(&m.b, &m.options)?];
    let mut position = Position::new(&m.options);
    let mut moves = 0u64;
    let mut time = [Duration::ZERO; 2];
    let mut count = [0u64; 2];
    let mut move_times: [Vec<Duration>; 2] = [Vec::new(), Vec::new()];
    let mut record = Vec::new();
    while position.outcome().is_none() {
        let first_to_move = position.to_move() == Colour::First;
        let who = if first_to_move == a_first { 0 } else { 1 };
        let choice = position.legal_moves().len() > 1;
        let start = Instant::now();
        let seed = rng.random::<u64>();
        let mv = choose_move(&mut players[who], &position, moves, seed)?;
        let took = start.elapsed();
        time[who] += took;
        count[who] += 1;
        if choice {
            move_times[who].push(took);
        }
        if let Err(e) = position.play(&mv) {
            return Err(player_error(
                &players[who],
                format!("illegal move {mv}: {e}"),
            ));
        }
        if let Player::Engine(e) = &mut players[1 - who] {
            e.tell(&mv)?;
        }
        record.push(mv.to_string());
        moves += 1;
    }
    for p in &mut players {
        if let Player::Engine(e) = p {
            e.quit();
        }
    }
    let a_colour = if a_first {
        Colour::First
    } else {
        Colour::Second
    };
    let result = match position.outcome().and_then(|o| o.winner) {
        Some(w) if w == a_colour => 1,
        Some(_) => -1,
        None => 0,
    };
    Ok(GameResult {
        result,
        a_first,
        moves,
        time,
        count,
        move_times,
        record,
    })
}

fn player_error(p: &Player, why: String) -> ArenaError {
    match p {
        Player::Engine(e) => ArenaError::Engine {
            program: e.program.clone(),
            why,
        },
        Player::Builtin(s) => ArenaError::Spec(format!("`{s}`: {why}")),
    }
}

fn open(spec: &PlayerSpec, options: &Options) -> Result<Player, ArenaError> {
    match spec {
        PlayerSpec::Engine(words) => Ok(Player::Engine(EngineProcess::start(words, options)?)),
        s => Ok(Player::Builtin(s.clone())),
    }
}

/// A move for the player; `ply` moves have been played.
fn choose_move(
    p: &mut Player,
    position: &Position,
    ply: u64,
    seed: u64,
) -> Result<Move, ArenaError> {
    let spec = match p {
        Player::Engine(e) => return e.genmove(position, seed),
        Player::Builtin(s) => s.clone(),
    };
    let mv = match spec {
        PlayerSpec::Random => {
            let moves = position.legal_moves();
            if moves.is_empty() {
                None
            } else {
                let mut rng = SmallRng::seed_from_u64(seed);
                Some(moves[rng.random_range(0..moves.len())])
            }
        }
        PlayerSpec::Level(l) => choose(position, l.budget_for(position.kind()), seed),
        PlayerSpec::Playouts(n) => choose(position, Budget::playouts(n), seed),
        PlayerSpec::Millis(ms) => choose(
            position,
            Budget {
                playouts: None,
                millis: Some(ms),
                nodes: None,
            },
            seed,
        ),
        PlayerSpec::Nodes(n) => choose(position, Budget::nodes(n), seed),
        PlayerSpec::Fixed(n) => match position {
            Position::Exxit(p) => deep::search(p, n, None, None).map(|c| Move::Exxit(c.mv)),
            Position::Inphexion(_) => None,
        },
        PlayerSpec::AlphaBeta(d) => match position {
            Position::Exxit(p) => alphabeta::search(p, d, seed).map(|c| Move::Exxit(c.mv)),
            Position::Inphexion(_) => None,
        },
        PlayerSpec::Robot(r) => match position {
            Position::Exxit(p) => {
                let move_number = u32::try_from(ply + 1).unwrap_or(u32::MAX);
                boardspace::search(p, r, Some(move_number), seed).map(|c| Move::Exxit(c.mv))
            }
            Position::Inphexion(_) => None,
        },
        PlayerSpec::Engine(_) => None,
    };
    mv.ok_or_else(|| player_error(p, "found no move in a game in play".into()))
}

/// An external program speaking the engine protocol.
struct EngineProcess {
    program: String,
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl EngineProcess {
    fn start(words: &[String], options: &Options) -> Result<EngineProcess, ArenaError> {
        let program = words.first().cloned().unwrap_or_default();
        let err = |why: String| ArenaError::Engine {
            program: program.clone(),
            why,
        };
        let mut child = Command::new(&program)
            .args(&words[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| err(format!("cannot start: {e}")))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(err("no pipes".into()));
        };
        let mut e = EngineProcess {
            program: program.clone(),
            child,
            stdin,
            stdout: BufReader::new(stdout),
        };
        let kind = options.kind().name();
        let words = options.words().join(" ");
        e.ask(format!("new {kind} {words}").trim())?;
        Ok(e)
    }

    fn err(&self, why: String) -> ArenaError {
        ArenaError::Engine {
            program: self.program.clone(),
            why,
        }
    }

    /// Sends a command and returns the text after `= ` (the answer's lines joined by newlines).
    fn ask(&mut self, command: &str) -> Result<String, ArenaError> {
        writeln!(self.stdin, "{command}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| self.err(format!("write: {e}")))?;
        let mut answer = String::new();
        loop {
            let mut line = String::new();
            let n = self
                .stdout
                .read_line(&mut line)
                .map_err(|e| self.err(format!("read: {e}")))?;
            if n == 0 {
                return Err(self.err(format!("closed its output after `{command}`")));
            }
            let line = line.trim_end_matches(['\n', '\r']);
            if line.is_empty() {
                if answer.is_empty() {
                    continue;
                }
                break;
            }
            if !answer.is_empty() {
                answer.push('\n');
            }
            answer.push_str(line);
        }
        match answer.strip_prefix("= ").or(answer.strip_prefix("=")) {
            Some(rest) => Ok(rest.trim().to_string()),
            None => Err(self.err(format!("`{command}` answered `{answer}`"))),
        }
    }

    fn tell(&mut self, mv: &Move) -> Result<(), ArenaError> {
        self.ask(&format!("play {mv}")).map(|_| ())
    }

    fn genmove(&mut self, position: &Position, seed: u64) -> Result<Move, ArenaError> {
        let text = self.ask(&format!("genmove seed={seed}"))?;
        position
            .parse_move(&text)
            .map_err(|e| self.err(format!("genmove gave `{text}`: {e}")))
    }

    fn quit(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let _ = self.child.wait();
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Plays again every match of the measured ladder ([`crate::ai::strength`]) with `games` games
/// each, printing progress to standard error, and returns the new ladder to store.
pub fn ladder(
    games: u32,
    seed: u64,
    threads: usize,
) -> Result<crate::ai::strength::Ladder, ArenaError> {
    use crate::ai::strength::{GameMatches, Ladder, MatchResult};
    let measured = crate::ai::strength::measured();
    let mut out = Ladder { games: Vec::new() };
    for game in &measured.games {
        let options = Options::parse_line(&game.variant)
            .map_err(|e| ArenaError::Spec(format!("{}: {e}", game.variant)))?;
        let mut matches = Vec::new();
        for m in &game.matches {
            let one = Match {
                options: options.clone(),
                a: m.a.parse().map_err(ArenaError::Spec)?,
                b: m.b.parse().map_err(ArenaError::Spec)?,
                games,
                seed,
                threads,
                progress: false,
            };
            let r = run(&one)?;
            eprintln!("{}: {} – {}: {r}", game.variant, m.a, m.b);
            matches.push(MatchResult {
                a: m.a.clone(),
                b: m.b.clone(),
                wins: r.wins,
                losses: r.losses,
                draws: r.draws,
            });
        }
        out.games.push(GameMatches {
            variant: game.variant.clone(),
            command: format!(
                "hexcord arena --ladder --games {games} --seed {seed} --threads {threads}"
            ),
            matches,
        });
    }
    Ok(out)
}
