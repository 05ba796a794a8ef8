//! `hexcord engine`: a line-based text protocol on standard input and output, for playing or
//! analysing offline, for matches between engines, and for checking the rules from outside the
//! code (the transcripts in `tests/data/protocol/` are replayed against the real binary).
//!
//! # The exchange
//!
//! The engine reads one command per line from standard input and writes one answer per command
//! to standard output, in the style of the Go Text Protocol:
//!
//! - an answer that reports success starts with `= `, one that reports a failure with `? `;
//! - every answer is followed by exactly one empty line (an answer may itself span several
//!   lines, as `board` and `record` do, but never contains an empty line);
//! - blank lines and lines whose first character is `#` are comments: no answer at all;
//! - command words are case-insensitive;
//! - no input may make the engine panic or hang, and a command that fails leaves the state
//!   exactly as it was before it.
//!
//! # Commands
//!
//! Options and move notation are those of the rules: [`crate::games::inphexion`] (I1…I19 and
//! its "Move notation") and [`crate::games::exxit`] (X1…X20 and its "Move notation").
//!
//! - **`new GAME [OPTION…]`** starts a new game and answers `= ok`. GAME is `inphexion` or
//!   `exxit`; the options are the rules' variant words, as in `new inphexion size=7 pie
//!   free-reply neutral` or `new exxit tiles=29 pie expert`. A game or option word the engine
//!   does not know fails with `? unknown option: …`; a known option with a value the rules do
//!   not allow (`size=3`, or `neutral` on an even size) fails with `? bad option: …`.
//! - **`play MOVE`** plays a move for the side to move and answers it in canonical notation,
//!   `= MOVE` (so `play C3 - D3` answers `= c3-d3`). A move the rules forbid fails with
//!   `? illegal move: WHY`, text that cannot be read as a move with `? bad notation: WHY`; the
//!   reason names the rule number where one applies.
//! - **`legal`** answers `= ` followed by every legal move in canonical notation, sorted by byte
//!   order, separated by single spaces; just `= ` once the game is over. An inpHeXion move with
//!   relocations contains spaces itself (`c3-d3 e5>a1`): a token with `>` in it belongs to the
//!   move before it.
//! - **`status`** answers `= to-move COLOUR` while the game goes on (`= to-move silver`), or
//!   `= over RESULT` once it is over, where RESULT is `COLOUR wins: WHY` or `draw: WHY`. WHY is
//!   `connection`, `no legal move`, `relocation impossible` or `resignation`, or for a game
//!   decided by the EXXIT score `score A-B` (the winner's score first), followed by ` (passes)`
//!   or ` (repetition)` when two passes or a threefold repetition ended it: for example
//!   `= over white wins: connection`, `= over red wins: score 34-25`,
//!   `= over draw: score 20-20`, `= over red wins: score 30-28 (repetition)`. The move that
//!   ends a game still passes the turn, so `position` then shows the other colour to move.
//! - **`board`** answers `= ` and then, on the following lines, a readable text diagram of the
//!   position (its layout is free).
//! - **`position`** answers `= ` and the position on one line, in a canonical form: equal
//!   positions give equal lines.
//!   - inpHeXion: the rows from top to bottom joined by `/`, one character a cell (`.` empty,
//!     `w` white, `b` black, `n` the neutral disc); then `|to-move COLOUR`; then
//!     `|hand W/B` (White's hand, then Black's); then `|swapped`, only in the position right
//!     after a swap (when Black's first turn is used up). For example
//!     `...../...../..bw./...../.....|to-move white|hand 12/12`.
//!   - EXXIT: every cell holding a tile or a stack, as `q,r:T` or `q,r:T/S`, sorted by q and
//!     then r as numbers and separated by single spaces. T is `1` (silver tile), `2` (red tile)
//!     or `.` (no tile: outer space); S lists the stack's discs from the bottom up, `1` for
//!     silver and `2` for red. Then `|tiles N` (the supply), `|hand S/R` (silver's hand, then
//!     red's) and `|to-move COLOUR`; then `|passes 1` only when the last move was a pass, and
//!     `|swapped` only right after a swap. For example
//!     `-1,1:./2 0,-1:1/12 0,0:2 1,-2:2 1,-1:1|tiles 35|hand 7/7|to-move red`.
//! - **`setpos POSITION`** replaces the current position by one written in the `position`
//!   format, much like a FEN in chess, and answers `= ok`. The game and its options are those
//!   of the last `new`; the history starts afresh from the new position. A position the rules
//!   cannot produce fails with `? bad position: WHY` and changes nothing. For inpHeXion that is
//!   a wrong number of rows or cells, an unknown letter, a neutral disc without the `neutral`
//!   variant (or none with it), hands other than the initial hand minus that colour's discs on
//!   the board, or a side to move that does not fit the counts (White moves exactly when both
//!   colours have as many discs). For EXXIT: more discs or tiles than exist, hands that do not
//!   make 8 per colour together with the discs on the board, a stack on a cell next to no
//!   tile, or a supply that does not match the tiles in the world.
//! - **`record`** answers `= ` and then the game record: the variant line, then one move per
//!   line.
//! - **`load`** reads the game record written on the lines that follow it, up to an empty line,
//!   and answers `= ok`, or `? …` naming the first line that is wrong (then nothing is loaded).
//! - **`undo`** takes back the last move and answers `= ok`, or `? nothing to undo`.
//! - **`resign`**: the player to move resigns; `= ok`.
//! - **`genmove [playouts=N] [ms=N] [seed=N]`**: the engine's AI chooses a move for the side to
//!   move, plays it and answers `= MOVE`.
//! - **`perft N`** answers `= COUNT`, the number of move sequences of length N from the
//!   current position (a sequence that reaches the end of the game counts once and stops
//!   there).
//! - **`render PATH`** writes the PNG picture the bot would post for this position to PATH and
//!   answers `= PATH`.
//! - **`quit`** answers `= bye` and exits with status 0; the end of the input does the same
//!   (answering `= bye` too).
//!
//! Canonical moves look like this: inpHeXion `d4`, `swap`, `c3-d3`, `c3-d3 e5>a1 f2>b7`;
//! EXXIT `0,1`, `1,0-3,-2`, `+2,-1`, `pass`, `swap`.
//!
//! The text after `? illegal move:`, `? bad notation:`, `? bad option:`, `? unknown option:`
//! and `? bad position:` is free (hexcord's explains itself and cites the rule); everything
//! else is exact, as the transcripts in `tests/data/protocol/` show.
//!
//! ## What hexcord adds
//!
//! - `genmove` also takes `nodes=N` (the positions an alpha-beta search may evaluate). Without
//!   any budget it searches as the bot's medium level; whatever is asked, it thinks at most
//!   [`GENMOVE_MAX_MS`] milliseconds and [`GENMOVE_MAX_PLAYOUTS`] playouts. On a finished game
//!   it fails with `? the game is over (…)`.
//! - `perft` refuses, with `? too deep: …`, a depth that would visit more than
//!   [`PERFT_BUDGET`] positions.
//! - `analyse [budget=N] [seed=N]` answers the analysis of the game so far as JSON on one line
//!   ([`crate::analysis::analyse`]).
//! - An unknown command fails with `? unknown command: …`, an argument given to a command that
//!   takes none with `? unexpected argument: …`, a malformed `genmove`, `perft` or `analyse`
//!   argument with `? bad argument: …`, and a line longer than [`MAX_LINE`] bytes or not
//!   UTF-8 text with `? unreadable line: …`.
//! - `render` writes only regular files (through a temporary file renamed over the target), so
//!   it can neither block on a FIFO nor write into a device.
//!
//! # Example session
//!
//! Commands as typed, each followed by the engine's answer and its empty line:
//!
//! ```text
//! new inphexion size=5
//! = ok
//!
//! play c3
//! = c3
//!
//! play C3 - D3
//! = c3-d3
//!
//! position
//! = ...../...../..bw./...../.....|to-move white|hand 12/12
//!
//! legal
//! = c3-b3 c3-b4 c3-c2 c3-c4 c3-d2
//!
//! play e5
//! ? illegal move: a disc is placed from hand only on White's first move (I5) or Black's free reply (I8); a regular move is FROM-TO (I6)
//!
//! undo
//! = ok
//!
//! position
//! = ...../...../..w../...../.....|to-move black|hand 12/13
//!
//! perft 2
//! = 30
//!
//! new exxit
//! = ok
//!
//! legal
//! = 0,-1 0,0 1,-1 1,-2
//!
//! play 0,0
//! = 0,0
//!
//! status
//! = to-move red
//!
//! play 5,5
//! ? illegal move: 5,5 is not an empty tile of the world (X17)
//!
//! quit
//! = bye
//!
//! ```

use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::ai::{self, Budget, Level};
use crate::games::{Game, GameKind, Options, Position};
use crate::render::{self, Theme};

/// Positions a single `perft` may visit (play a move into, or count the moves of) before it
/// answers `? too deep`: a few seconds of work at most.
pub const PERFT_BUDGET: u64 = 2_000_000;
/// The longest `genmove` may think, whatever `ms=` asks (milliseconds).
pub const GENMOVE_MAX_MS: u64 = 60_000;
/// The most playouts a `genmove` may run. The search tree grows by one node per playout, so
/// this bounds its memory too.
pub const GENMOVE_MAX_PLAYOUTS: u32 = 500_000;
/// The most an `analyse` may search per position (playouts or evaluated positions).
pub const ANALYSE_MAX_BUDGET: u64 = 500_000;
/// The most Monte-Carlo playouts an inpHeXion `analyse` runs in all (about a minute).
pub const ANALYSE_MAX_PLAYOUTS: u64 = 15_000_000;
/// The most positions an EXXIT `analyse` evaluates in all (about a minute).
pub const ANALYSE_MAX_NODES: u64 = 300_000_000;
/// The longest line read (bytes); longer lines are answered with a failure and skipped.
pub const MAX_LINE: usize = 1 << 20;

/// One answer: success or failure, and its text (which may span several lines).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Reply {
    pub ok: bool,
    pub text: String,
}

impl Reply {
    fn ok(text: impl Into<String>) -> Reply {
        Reply {
            ok: true,
            text: text.into(),
        }
    }

    fn fail(text: impl Into<String>) -> Reply {
        Reply {
            ok: false,
            text: text.into(),
        }
    }

    /// The answer as written on the wire, without the closing empty line.
    pub fn to_wire(&self) -> String {
        format!("{} {}", if self.ok { "=" } else { "?" }, self.text)
    }
}

/// What the engine should do after a line.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Step {
    /// Nothing to answer (blank line or comment).
    Silent,
    Answer(Reply),
    /// Answer, then stop.
    Quit(Reply),
}

/// The engine's state: the game being played and the random generator behind `genmove`.
pub struct Engine {
    game: Game,
    rng: SmallRng,
    /// What `genmove` searches when it is given no budget (`None`: the medium level).
    default_budget: Option<Budget>,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

impl Engine {
    /// An engine holding a fresh game of inpHeXion with default options (until `new`).
    pub fn new() -> Engine {
        Engine {
            game: Game::new(Options::default_for(GameKind::DEFAULT)),
            rng: SmallRng::seed_from_u64(0),
            default_budget: None,
        }
    }

    /// Sets what `genmove` searches when it is given no budget.
    pub fn with_default_budget(mut self, budget: Budget) -> Engine {
        self.default_budget = Some(budget);
        self
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Executes one line. `more` yields the lines that follow, as bytes, for `load`, which reads
    /// a record up to an empty line (and refuses it whole if a line is not UTF-8).
    pub fn execute(&mut self, line: &str, more: &mut dyn FnMut() -> Option<Vec<u8>>) -> Step {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return Step::Silent;
        }
        let (cmd, rest) = match line.split_once(char::is_whitespace) {
            Some((c, r)) => (c, r.trim()),
            None => (line, ""),
        };
        let reply = match cmd.to_ascii_lowercase().as_str() {
            "new" => self.cmd_new(rest),
            "play" => self.cmd_play(rest),
            "legal" => no_args(rest, || Reply::ok(self.game.legal_notations().join(" "))),
            "status" => no_args(rest, || Reply::ok(self.game.status())),
            "board" => no_args(rest, || Reply::ok(self.board())),
            "position" => no_args(rest, || Reply::ok(self.game.position().to_line())),
            "setpos" => self.cmd_setpos(rest),
            "record" => no_args(rest, || {
                Reply::ok(self.game.record().trim_end().to_string())
            }),
            "load" => self.cmd_load(rest, more),
            "undo" => no_args(rest, || {
                if self.game.undo() {
                    Reply::ok("ok")
                } else {
                    Reply::fail("nothing to undo")
                }
            }),
            "resign" => no_args(rest, || match self.game.resign() {
                Ok(()) => Reply::ok("ok"),
                Err(e) => Reply::fail(e.to_string()),
            }),
            "genmove" => self.cmd_genmove(rest),
            "perft" => self.cmd_perft(rest),
            "render" => self.cmd_render(rest),
            "analyse" => self.cmd_analyse(rest),
            "quit" => return Step::Quit(Reply::ok("bye")),
            _ => Reply::fail(format!(
                "unknown command: {cmd} (commands: new, play, legal, status, board, position, \
                 setpos, record, load, undo, resign, genmove, perft, render, analyse, quit)"
            )),
        };
        Step::Answer(reply)
    }

    fn cmd_new(&mut self, rest: &str) -> Reply {
        let mut words = rest.split_whitespace();
        let Some(kind) = words.next() else {
            return Reply::fail("missing game: new inphexion|exxit [OPTION…]");
        };
        let kind: GameKind = match kind.parse() {
            Ok(k) => k,
            Err(e) => return Reply::fail(e.to_string()),
        };
        let words: Vec<&str> = words.collect();
        match Options::parse(kind, &words) {
            Ok(options) => {
                self.game = Game::new(options);
                Reply::ok("ok")
            }
            Err(e) => Reply::fail(e.to_string()),
        }
    }

    fn cmd_play(&mut self, rest: &str) -> Reply {
        if rest.is_empty() {
            return Reply::fail("bad notation: missing move: play MOVE");
        }
        match self.game.play_text(rest) {
            Ok(mv) => Reply::ok(mv.to_string()),
            Err(e) => Reply::fail(e.to_string()),
        }
    }

    fn board(&self) -> String {
        let mut out = String::new();
        for line in self.game.position().diagram().lines() {
            // An empty line would end the answer early.
            if !line.trim().is_empty() {
                out.push('\n');
                out.push_str(line.trim_end());
            }
        }
        out.push('\n');
        out.push_str(&self.game.status());
        out
    }

    fn cmd_setpos(&mut self, rest: &str) -> Reply {
        if rest.is_empty() {
            return Reply::fail("bad position: missing position: setpos POSITION");
        }
        match Game::from_position(self.game.options().clone(), rest) {
            Ok(game) => {
                self.game = game;
                Reply::ok("ok")
            }
            Err(e) => Reply::fail(format!("bad position: {e}")),
        }
    }

    fn cmd_load(&mut self, rest: &str, more: &mut dyn FnMut() -> Option<Vec<u8>>) -> Reply {
        // The whole record is read first, as bytes, so that a bad line never lets the rest of
        // the record run as commands.
        let mut lines = Vec::new();
        while let Some(line) = more() {
            if String::from_utf8_lossy(&line).trim().is_empty() {
                break;
            }
            lines.push(line);
        }
        if !rest.is_empty() {
            return Reply::fail("load takes no arguments: the record follows on the next lines");
        }
        let mut text = String::new();
        for (n, line) in lines.iter().enumerate() {
            let Ok(line) = std::str::from_utf8(line) else {
                return Reply::fail(format!(
                    "line {}: not UTF-8 text; nothing was loaded",
                    n + 1
                ));
            };
            text.push_str(line);
            text.push('\n');
        }
        match Game::from_record(&text) {
            Ok(game) => {
                self.game = game;
                Reply::ok("ok")
            }
            Err(e) => Reply::fail(e.to_string()),
        }
    }

    fn cmd_genmove(&mut self, rest: &str) -> Reply {
        let usage = "genmove [playouts=N] [nodes=N] [ms=N] [seed=N]";
        let mut seed = None;
        let mut budget = Budget {
            playouts: None,
            millis: None,
            nodes: None,
        };
        for word in rest.split_whitespace() {
            let Some((key, value)) = word.split_once('=') else {
                return Reply::fail(format!("bad argument: {word} ({usage})"));
            };
            let Ok(n) = value.parse::<u64>() else {
                return Reply::fail(format!("bad argument: {word} ({key} takes a whole number)"));
            };
            match key.to_ascii_lowercase().as_str() {
                "seed" => seed = Some(n),
                "playouts" => budget.playouts = Some(n.clamp(1, u32::MAX as u64) as u32),
                "ms" => budget.millis = Some(n.max(1)),
                "nodes" => budget.nodes = Some(n.max(1)),
                _ => return Reply::fail(format!("bad argument: {word} ({usage})")),
            }
        }
        if budget.playouts.is_none() && budget.millis.is_none() && budget.nodes.is_none() {
            budget = self
                .default_budget
                .unwrap_or_else(|| Level::Medium.budget_for(self.game.kind()));
        }
        let budget = capped(budget);
        if let Some(o) = self.game.outcome() {
            return Reply::fail(format!(
                "the game is over ({})",
                o.describe(self.game.kind())
            ));
        }
        let seed = seed.unwrap_or_else(|| self.rng.random());
        let Some(mv) = ai::choose(self.game.position(), budget, seed) else {
            return Reply::fail("no legal move");
        };
        match self.game.play(mv) {
            Ok(()) => Reply::ok(mv.to_string()),
            Err(e) => Reply::fail(format!("illegal move: {e}")),
        }
    }

    fn cmd_perft(&mut self, rest: &str) -> Reply {
        let Ok(depth) = rest.parse::<u32>() else {
            return Reply::fail(format!("bad argument: perft N takes a depth, not `{rest}`"));
        };
        if self.game.resigned().is_some() {
            return Reply::ok("1");
        }
        match perft_bounded(self.game.position(), depth, PERFT_BUDGET) {
            Some(n) => Reply::ok(n.to_string()),
            None => Reply::fail(format!(
                "too deep: perft {depth} would visit more than {PERFT_BUDGET} positions; try a \
                 smaller depth"
            )),
        }
    }

    /// `analyse [budget=N] [seed=N]`: the analysis of the game so far
    /// ([`crate::analysis::analyse`]) as JSON on one line; the budget is capped at
    /// [`ANALYSE_MAX_BUDGET`] per position and [`ANALYSE_MAX_PLAYOUTS`] or [`ANALYSE_MAX_NODES`]
    /// in all.
    fn cmd_analyse(&mut self, rest: &str) -> Reply {
        use crate::analysis::{analyse, AnalysisBudget};
        let usage = "analyse [budget=N] [seed=N]";
        let (mut budget, mut seed) = (AnalysisBudget::DEFAULT, 1);
        for word in rest.split_whitespace() {
            let Some((key, value)) = word.split_once('=') else {
                return Reply::fail(format!("bad argument: {word} ({usage})"));
            };
            let Ok(n) = value.parse::<u64>() else {
                return Reply::fail(format!("bad argument: {word} ({key} takes a whole number)"));
            };
            match key.to_ascii_lowercase().as_str() {
                "budget" => budget = AnalysisBudget::uniform(n.min(ANALYSE_MAX_BUDGET)),
                "seed" => seed = n,
                _ => return Reply::fail(format!("bad argument: {word} ({usage})")),
            }
        }
        // About a minute at most, whatever the game's length: the budget per position is
        // lowered to fit the total.
        let positions = self.game.ply() as u64 + 1;
        let budget = AnalysisBudget {
            playouts: budget
                .playouts
                .min((ANALYSE_MAX_PLAYOUTS / positions).clamp(1, u64::from(u32::MAX)) as u32),
            nodes: budget.nodes.min((ANALYSE_MAX_NODES / positions).max(1)),
        };
        let analysis = analyse(&self.game, budget, seed, |_, _| {});
        match serde_json::to_string(&analysis) {
            Ok(json) => Reply::ok(json),
            Err(e) => Reply::fail(format!("cannot write the analysis: {e}")),
        }
    }

    fn cmd_render(&mut self, rest: &str) -> Reply {
        if rest.is_empty() {
            return Reply::fail("missing path: render PATH");
        }
        let players = ["Player 1".to_string(), "Player 2".to_string()];
        let png = match render::render_png(&self.game, None, &players, Theme::default()) {
            Ok(png) => png,
            Err(e) => return Reply::fail(format!("cannot draw this position: {e}")),
        };
        match write_file(Path::new(rest), &png) {
            Ok(()) => Reply::ok(rest),
            Err(e) => Reply::fail(format!("cannot write {rest}: {e}")),
        }
    }
}

/// Writes `bytes` to `path` through a temporary file beside it, renamed over it at the end, so
/// that nothing ever blocks on or streams into a special file: a target that exists must be a
/// regular file; FIFOs, devices, directories, sockets and symbolic links (which the rename would
/// replace, `/dev/stdout` among them) are refused. Also used by `hexcord render -o PATH`.
pub fn write_file(path: &Path, bytes: &[u8]) -> io::Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if !m.file_type().is_file() => {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "it exists and is not a regular file (nor a new path)",
            ))
        }
        Ok(_) => {}
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    let Some(name) = path.file_name() else {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "the path names no file",
        ));
    };
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(name);
    tmp_name.push(format!(".{}-{n}.tmp", std::process::id()));
    let tmp = dir.join(tmp_name);
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp)
        .and_then(|mut f| f.write_all(bytes))
        .and_then(|()| std::fs::rename(&tmp, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// `budget` within the caps of `genmove`: at most [`GENMOVE_MAX_MS`] of thinking and
/// [`GENMOVE_MAX_PLAYOUTS`] playouts (the search tree grows by one node per playout, so this
/// bounds its memory), whatever was asked.
fn capped(budget: Budget) -> Budget {
    Budget {
        millis: Some(
            budget
                .millis
                .map_or(GENMOVE_MAX_MS, |ms| ms.min(GENMOVE_MAX_MS)),
        ),
        playouts: Some(
            budget
                .playouts
                .map_or(GENMOVE_MAX_PLAYOUTS, |n| n.min(GENMOVE_MAX_PLAYOUTS)),
        ),
        // The alpha-beta search keeps one position per ply searched: its memory is bounded
        // whatever the budget, its time by the cap above.
        nodes: budget.nodes,
    }
}

fn no_args(rest: &str, f: impl FnOnce() -> Reply) -> Reply {
    if rest.is_empty() {
        f()
    } else {
        Reply::fail(format!("unexpected argument: {rest}"))
    }
}

/// Perft within a budget of visited positions, or `None` when it would need more. Depths are
/// counted one after the other (1, 2, …, `depth`), all from the same budget, and a depth whose
/// estimated work (the last depth's work times the last growth in the count) exceeds what is
/// left is refused before it starts, so that a request far too deep is refused at once.
fn perft_bounded(pos: &Position, depth: u32, budget: u64) -> Option<u64> {
    let mut left = budget;
    // One position per ply, reused (`clone_from`) for every move tried there.
    let mut scratch = vec![pos.clone(); depth.min(64) as usize];
    let mut last_count = 1u64;
    let mut count = 1;
    for d in 1..=depth {
        let before = left;
        count = perft_within(pos, d, &mut left, &mut scratch)?;
        let work = before - left;
        if d < depth {
            let growth = count.div_ceil(last_count.max(1));
            if work.saturating_mul(growth) > left {
                return None;
            }
        }
        last_count = count;
    }
    Some(count)
}

/// Perft that stops (returning `None`) once it has visited more than `budget` positions. The
/// last ply is counted by the game's own perft (the length of the move list).
fn perft_within(
    pos: &Position,
    depth: u32,
    budget: &mut u64,
    scratch: &mut [Position],
) -> Option<u64> {
    *budget = budget.checked_sub(1)?;
    if depth <= 1 || pos.outcome().is_some() {
        return Some(pos.perft(depth));
    }
    // `perft_bounded` refuses depths beyond the scratch (64 plies) long before.
    let (next, rest) = scratch.split_first_mut()?;
    let mut total = 0;
    for mv in pos.legal_moves() {
        next.clone_from(pos);
        next.play(&mv).ok()?;
        total += perft_within(next, depth - 1, budget, rest)?;
    }
    Some(total)
}

/// One line of input as bytes, without its end (`\n` or `\r\n`); `None` at the end of input.
/// A line longer than [`MAX_LINE`] is read to its end but comes back as `Err(())`.
fn read_line(input: &mut impl BufRead) -> io::Result<Option<Result<Vec<u8>, ()>>> {
    let mut buf = Vec::new();
    let mut too_long = false;
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            if buf.is_empty() && !too_long {
                return Ok(None);
            }
            break;
        }
        let (used, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        if !too_long {
            let keep = &chunk[..used];
            if buf.len() + keep.len() > MAX_LINE + 2 {
                too_long = true;
                buf = Vec::new();
            } else {
                buf.extend_from_slice(keep);
            }
        }
        input.consume(used);
        if done {
            break;
        }
    }
    if too_long {
        return Ok(Some(Err(())));
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
        if buf.last() == Some(&b'\r') {
            buf.pop();
        }
    }
    Ok(Some(Ok(buf)))
}

/// Runs the protocol until `quit` or the end of input.
pub fn run(mut input: impl BufRead, mut output: impl Write, engine: &mut Engine) -> io::Result<()> {
    loop {
        let line = match read_line(&mut input)? {
            None => {
                writeln!(output, "= bye\n")?;
                output.flush()?;
                return Ok(());
            }
            Some(Ok(l)) => String::from_utf8(l),
            Some(Err(())) => {
                writeln!(output, "? unreadable line: longer than {MAX_LINE} bytes\n")?;
                output.flush()?;
                continue;
            }
        };
        // Bytes that are not UTF-8: answer, and go on with the next line.
        let Ok(line) = line else {
            writeln!(output, "? unreadable line: not UTF-8 text\n")?;
            output.flush()?;
            continue;
        };
        // Within a record, an overlong line reads as one that is not UTF-8: refused.
        let mut more = || {
            read_line(&mut input)
                .ok()
                .flatten()
                .map(|l| l.unwrap_or_else(|()| vec![0xff]))
        };
        match engine.execute(&line, &mut more) {
            Step::Silent => {}
            Step::Answer(r) => {
                writeln!(output, "{}\n", r.to_wire())?;
                output.flush()?;
            }
            Step::Quit(r) => {
                writeln!(output, "{}\n", r.to_wire())?;
                output.flush()?;
                return Ok(());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_game_is_named_as_one() {
        let mut engine = Engine::new();
        let reply = engine.cmd_new("chess").to_wire();
        assert!(
            reply.starts_with("? unknown option: unknown game chess"),
            "{reply}"
        );
        assert!(reply.contains("inphexion and exxit"), "{reply}");
        assert_eq!(engine.cmd_new("exxit").to_wire(), "= ok");
    }

    #[test]
    fn genmove_budgets_are_capped_in_time_and_tree_size() {
        let huge = capped(Budget {
            playouts: None,
            millis: Some(999_999_999),
            nodes: Some(u64::MAX),
        });
        assert_eq!(huge.millis, Some(GENMOVE_MAX_MS));
        assert_eq!(huge.playouts, Some(GENMOVE_MAX_PLAYOUTS));
        let small = capped(Budget::playouts(300));
        assert_eq!(small.playouts, Some(300));
        assert_eq!(small.millis, Some(GENMOVE_MAX_MS));
        let both = capped(Budget {
            playouts: Some(u32::MAX),
            millis: Some(250),
            nodes: None,
        });
        assert_eq!(both.playouts, Some(GENMOVE_MAX_PLAYOUTS));
        assert_eq!(both.millis, Some(250));
    }

    #[test]
    fn perft_counts_within_the_budget_and_refuses_beyond_it_at_once() {
        let game = Game::new(Options::default_for(GameKind::Inphexion));
        let pos = game.position();
        assert_eq!(perft_bounded(pos, 2, PERFT_BUDGET), Some(pos.perft(2)));
        assert_eq!(perft_bounded(pos, 0, PERFT_BUDGET), Some(1));
        // Refused from the growth of the counts, long before the budget is spent (how fast is
        // a matter for `cargo bench`, not for a timed test).
        assert_eq!(perft_bounded(pos, 50, PERFT_BUDGET), None);
        assert_eq!(perft_bounded(pos, u32::MAX, PERFT_BUDGET), None);
        // A budget too small for the depth asked.
        assert_eq!(perft_bounded(pos, 3, 100), None);
    }

    #[test]
    fn lines_are_read_as_bytes_and_overlong_ones_refused() {
        let mut long = vec![b'x'; MAX_LINE + 10];
        long.extend_from_slice(b"\nstatus\r\n\xff\n");
        let mut input = &long[..];
        assert_eq!(read_line(&mut input).unwrap(), Some(Err(())));
        assert_eq!(read_line(&mut input).unwrap(), Some(Ok(b"status".to_vec())));
        assert_eq!(read_line(&mut input).unwrap(), Some(Ok(vec![0xff])));
        assert_eq!(read_line(&mut input).unwrap(), None);
    }
}
