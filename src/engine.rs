//! `hexcord engine`: the text protocol of `protocol.md` on standard input and output.
//!
//! One command a line; every answer starts with `= ` (success) or `? ` (failure) and ends with an
//! empty line. A failed command leaves the state exactly as it was. Nothing read may panic or
//! hang the engine: deep `perft` requests are refused once they pass a node budget.

use std::io::{self, BufRead, Write};
use std::path::Path;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::ai::{self, Budget, Level};
use crate::games::{Game, GameKind, Options, Position};
use crate::render::{self, Theme};

/// Leaf positions a single `perft` may count before it gives up.
const PERFT_BUDGET: u64 = 200_000_000;

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
            game: Game::new(Options::default_for(GameKind::Inphexion)),
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

    /// Executes one line. `more` yields the lines that follow, for `load`, which reads a record
    /// up to an empty line.
    pub fn execute(&mut self, line: &str, more: &mut dyn FnMut() -> Option<String>) -> Step {
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
            "quit" => return Step::Quit(Reply::ok("bye")),
            _ => Reply::fail(format!(
                "unknown command: {cmd} (commands: new, play, legal, status, board, position, \
                 setpos, record, load, undo, resign, genmove, perft, render, quit)"
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

    fn cmd_load(&mut self, rest: &str, more: &mut dyn FnMut() -> Option<String>) -> Reply {
        let mut text = String::new();
        while let Some(line) = more() {
            if line.trim().is_empty() {
                break;
            }
            text.push_str(&line);
            text.push('\n');
        }
        if !rest.is_empty() {
            return Reply::fail("load takes no arguments: the record follows on the next lines");
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
        let usage = "genmove [playouts=N] [ms=N] [seed=N]";
        let mut seed = None;
        let mut budget = Budget {
            playouts: None,
            millis: None,
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
                _ => return Reply::fail(format!("bad argument: {word} ({usage})")),
            }
        }
        if budget.playouts.is_none() && budget.millis.is_none() {
            budget = self
                .default_budget
                .unwrap_or_else(|| Level::Medium.budget_for(self.game.kind()));
        }
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
        let mut budget = PERFT_BUDGET;
        match perft_within(self.game.position(), depth, &mut budget) {
            Some(n) => Reply::ok(n.to_string()),
            None => Reply::fail(format!(
                "perft {depth} would count more than {PERFT_BUDGET} positions; try a smaller depth"
            )),
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
        match std::fs::write(Path::new(rest), png) {
            Ok(()) => Reply::ok(rest),
            Err(e) => Reply::fail(format!("cannot write {rest}: {e}")),
        }
    }
}

fn no_args(rest: &str, f: impl FnOnce() -> Reply) -> Reply {
    if rest.is_empty() {
        f()
    } else {
        Reply::fail(format!("unexpected argument: {rest}"))
    }
}

/// Perft that stops (returning `None`) once more than `budget` leaves have been counted. The last
/// two plies are counted by the game's own fast perft.
fn perft_within(pos: &Position, depth: u32, budget: &mut u64) -> Option<u64> {
    if depth <= 2 || pos.outcome().is_some() {
        let n = pos.perft(depth);
        *budget = budget.checked_sub(n)?;
        return Some(n);
    }
    let mut total = 0;
    for mv in pos.legal_moves() {
        let mut next = pos.clone();
        next.play(&mv).ok()?;
        total += perft_within(&next, depth - 1, budget)?;
    }
    Some(total)
}

/// Runs the protocol until `quit` or the end of input.
pub fn run(input: impl BufRead, mut output: impl Write, engine: &mut Engine) -> io::Result<()> {
    let mut lines = input.lines();
    loop {
        let line = match lines.next() {
            None => {
                writeln!(output, "= bye\n")?;
                output.flush()?;
                return Ok(());
            }
            Some(Ok(l)) => l,
            // Bytes that are not UTF-8: answer, and go on with the next line.
            Some(Err(e)) if e.kind() == io::ErrorKind::InvalidData => {
                writeln!(output, "? unreadable line: not UTF-8 text\n")?;
                output.flush()?;
                continue;
            }
            Some(Err(e)) => return Err(e),
        };
        let mut more = || lines.next().and_then(Result::ok);
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
