//! Solving puzzles ([`crate::puzzles`]): the starter set, a member's next puzzle, and each answer
//! checked against the puzzle's line. Storage is [`crate::db`]'s (`puzzles`, `puzzle_attempts`,
//! `puzzle_ratings`); `/puzzle` is the bot's front end.
//!
//! - **The starter set** ([`STARTER`], `assets/puzzles/starter.jsonl`, one [`Puzzle`] a line, as
//!   `hexcord puzzles` writes them) is imported at every start ([`import_starter`]): positions
//!   already stored are kept as they are, ratings untouched, so the import adds only new lines;
//!   a starter puzzle no longer shipped (dropped when proven to have a second answer) is retired,
//!   never given or posted again.
//! - **Found after `/analysis`**: the puzzles of a game just analysed are found in the
//!   background, with the analysis' budget and seed, proven by search to the end as every
//!   puzzle is ([`crate::puzzles::prove_line`]), and stored with the game and its players
//!   ([`find_later`]); the analysis' answer does not wait for them.
//! - **A member's puzzle** ([`give_puzzle`]): their attempt still open in the pool, else the
//!   puzzle nearest their puzzle rating that they never tried ([`crate::db::next_puzzle`]), which
//!   starts their attempt: only the first attempt at a puzzle counts.
//! - **An answer** ([`answer_puzzle`]) is judged against the line ([`judge`]): the right move (or
//!   any move that wins at once) goes on, the opponent's replies are played by the bot, and the
//!   last right move solves it; any other move fails it. Solved or failed, the member's puzzle
//!   rating and the puzzle's are updated by Glicko-2, once, with the member's streak
//!   ([`crate::db::finish_attempt`]).
//!
//! The attempt row keeps how far the member got (`step`), so a restart loses nothing; an answer
//! names the step it was made at, so a second press, an old picker or another member's press
//! changes nothing.

use crate::db::{
    self, AttemptRow, AttemptStatus, Conn, DbError, GuildId, Origin, Pool, PuzzleRow, Rated, UserId,
};
use crate::games::{Colour, Game, GameKind, Move};
use crate::i18n::{tr, Lang};
use crate::puzzles::Puzzle;
use crate::render::Theme;
use crate::text;

use super::{Error, Refusal};

/// The starter set: puzzles from games of the bot against itself, so that a new server has
/// puzzles on its first day.
pub const STARTER: &str = include_str!("../../assets/puzzles/starter.jsonl");

/// The puzzles of a set written as JSON lines (blank lines skipped); a line that is no puzzle,
/// or whose position does not replay, is an error naming its line.
pub fn parse_set(text: &str) -> Result<Vec<Puzzle>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let p: Puzzle = serde_json::from_str(line).map_err(|e| format!("line {}: {e}", i + 1))?;
        at_step(&p, p.solution.len()).map_err(|e| format!("line {}: {e}", i + 1))?;
        out.push(p);
    }
    Ok(out)
}

/// Imports the starter set ([`STARTER`]): new positions are added with their starting rating,
/// those stored already stay as they are. Returns how many were added. Run at start.
pub async fn import_starter(conn: &mut Conn, now: i64) -> Result<usize, Error> {
    let set = parse_set(STARTER).map_err(|e| anyhow::anyhow!("the starter puzzles: {e}"))?;
    let added = db::store_puzzles(conn, &set, Origin::Starter, now).await?;
    let retired = db::retire_starter_puzzles(conn, &set, now).await?;
    if retired > 0 {
        tracing::info!(retired, "starter puzzles no longer shipped retired");
    }
    Ok(added)
}

/// Stores the puzzles found in stored game `game`, credited to its `players`. Returns how many
/// were new.
pub async fn store_found(
    pool: &Pool,
    game: i64,
    players: [UserId; 2],
    found: &[Puzzle],
    now: i64,
) -> Result<usize, DbError> {
    let mut conn = pool.acquire().await?;
    let found: Vec<Puzzle> = found
        .iter()
        .cloned()
        .map(|mut p| {
            p.source.game = Some(game);
            p
        })
        .collect();
    db::store_puzzles(&mut conn, &found, Origin::Game { game, players }, now).await
}

/// Runs `find` (the puzzles of stored game `game`, [`crate::puzzles::find`]) on a blocking
/// thread, off the async runtime, then stores what it found credited to `players`
/// ([`store_found`]). Nobody waits for it: the result (how many were new) is logged, and so is a
/// failure, with the game's number.
pub fn find_later<F>(
    core: &super::actions::Core,
    game: i64,
    players: [UserId; 2],
    find: F,
) -> tokio::task::JoinHandle<Option<usize>>
where
    F: FnOnce() -> Vec<Puzzle> + Send + 'static,
{
    let (pool, clock) = (core.pool.clone(), core.clock.clone());
    tokio::spawn(async move {
        let found = match tokio::task::spawn_blocking(find).await {
            Ok(found) => found,
            Err(e) => {
                tracing::error!(game, "finding the game's puzzles failed: {e}");
                return None;
            }
        };
        match store_found(&pool, game, players, &found, clock.now()).await {
            Ok(added) => {
                tracing::info!(
                    game,
                    found = found.len(),
                    added,
                    "the game's puzzles stored"
                );
                Some(added)
            }
            Err(e) => {
                tracing::error!(
                    game,
                    found = found.len(),
                    "the game's puzzles could not be stored: {e}"
                );
                None
            }
        }
    })
}

/// The puzzle's game after `step` moves of its line.
pub fn at_step(puzzle: &Puzzle, step: usize) -> Result<Game, String> {
    let mut game = puzzle.game()?;
    for text in puzzle.solution.iter().take(step) {
        game.play_text(text)
            .map_err(|e| format!("the line's move `{text}` does not play: {e}"))?;
    }
    Ok(game)
}

/// A puzzle's line from its move `from` to `to` (exclusive) in words, each move read on its own
/// position and followed by its notation, the solver's words in bold, joined by arrows:
/// `**Place a disc on d4** (d4) → Place a disc on c5 (c5)`. `/puzzle`'s answers and the daily
/// puzzle's solution say a line so. Should the line stop replaying (a corrupt row), the rest is
/// its notation, turns alternating.
pub fn line_words(lang: Lang, puzzle: &Puzzle, from: usize, to: usize) -> String {
    let solver = puzzle.solver();
    let mut game = at_step(puzzle, from).ok();
    let mut out = Vec::new();
    for (i, text) in puzzle.solution.iter().enumerate().take(to).skip(from) {
        // The solver moves first; after that, whoever the replayed position says.
        let (words, mine) = match &game {
            Some(g) => (
                super::picker::describe_notation(lang, g.position(), text),
                g.position().to_move() == solver,
            ),
            None => (None, i % 2 == 0),
        };
        out.push(match (words, mine) {
            (Some(w), true) => format!("**{w}** ({text})"),
            (Some(w), false) => format!("{w} ({text})"),
            (None, true) => format!("**{text}**"),
            (None, false) => text.clone(),
        });
        if let Some(g) = &mut game {
            if g.play_text(text).is_err() {
                game = None;
            }
        }
    }
    out.join(" → ")
}

/// A puzzle's board at `game` as a PNG, with its description for screen readers ("Puzzle:
/// EXXIT, red to move"). With `solver`, the players read "You" and hexcord (the member's
/// private view); without, they read the colours' names (a daily post, seen by everyone).
pub async fn picture(
    lang: Lang,
    theme: Theme,
    game: Game,
    solver: Option<Colour>,
) -> Result<(Vec<u8>, String), Error> {
    let kind = game.kind();
    let names = match solver {
        Some(solver) => {
            let mut names = [String::new(), String::new()];
            names[solver.index()] = tr(lang, "puzzle-you");
            names[solver.other().index()] = "hexcord".to_string();
            names
        }
        None => [Colour::First, Colour::Second].map(|c| super::words::colour(kind, c).render(lang)),
    };
    let alt = text!(
        "puzzle-alt",
        game = kind.title(),
        colour = super::words::colour(kind, game.position().to_move())
    )
    .render(lang);
    let png = super::present::picture(lang, theme, game, None, names).await?;
    Ok((png, alt))
}

/// How a move answered a puzzle at some step.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Verdict {
    /// Right, and the line goes on: the opponent's replies that follow (the bot plays them), and
    /// the step the solver is at then.
    Right { replies: Vec<String>, step: usize },
    /// Right, and the puzzle is solved (the line's last move, or a move that wins at once).
    Solved,
    /// Not the move.
    Wrong,
}

/// Judges `mv` played at `step` moves of the puzzle's line (a position where the solver is to
/// move).
pub fn judge(puzzle: &Puzzle, step: usize, mv: Move) -> Result<Verdict, String> {
    let game = at_step(puzzle, step)?;
    let solver = puzzle.solver();
    let mut after = game.clone();
    after
        .play(mv)
        .map_err(|e| format!("`{mv}` is not legal: {e}"))?;
    if after.outcome().is_some_and(|o| o.winner == Some(solver)) {
        return Ok(Verdict::Solved);
    }
    if puzzle.solution.get(step) != Some(&mv.to_string()) {
        return Ok(Verdict::Wrong);
    }
    let mut next = step + 1;
    let mut replies = Vec::new();
    while next < puzzle.solution.len() && after.position().to_move() != solver {
        let reply = &puzzle.solution[next];
        after
            .play_text(reply)
            .map_err(|e| format!("the line's reply `{reply}` does not play: {e}"))?;
        replies.push(reply.clone());
        next += 1;
    }
    if next >= puzzle.solution.len() || after.outcome().is_some() {
        return Ok(Verdict::Solved);
    }
    Ok(Verdict::Right {
        replies,
        step: next,
    })
}

/// A puzzle given to a member.
#[derive(Clone, PartialEq, Debug)]
pub struct Given {
    pub attempt: AttemptRow,
    pub puzzle: PuzzleRow,
    /// Their attempt was open already (taken up again where they left it).
    pub resumed: bool,
}

/// Gives `user` a puzzle in pool `guild` (a server, or [`super::chats::RATINGS`]): their attempt
/// still open there, else the nearest to their puzzle rating they never tried, of game `kind`
/// when given.
pub async fn give_puzzle(
    pool: &Pool,
    user: UserId,
    guild: GuildId,
    kind: Option<GameKind>,
    now: i64,
) -> Result<Given, Error> {
    let mut conn = pool.acquire().await?;
    if let Some(attempt) = db::open_attempt(&mut *conn, user, guild).await? {
        let same_kind = |p: &PuzzleRow| kind.is_none_or(|k| p.kind == k);
        match db::fetch_puzzle(&mut *conn, attempt.puzzle_id).await? {
            Some(puzzle) if same_kind(&puzzle) => {
                return Ok(Given {
                    attempt,
                    puzzle,
                    resumed: true,
                })
            }
            Some(_) => {}
            // A puzzle that cannot be read (reported) is left; the member gets another.
            None => {}
        }
    }
    // Two requests at once may pick the same puzzle: the second start is refused by the
    // database, and that member gets the next one.
    for _ in 0..3 {
        let Some(puzzle) = db::next_puzzle(&mut conn, user, guild, kind).await? else {
            let none = match kind {
                Some(k) => text!("puzzle-none-left-of", game = k.title()),
                None => text!("puzzle-none-left"),
            };
            return Err(Refusal::new(none).into());
        };
        if let Some(id) = db::start_attempt(&mut *conn, puzzle.id, user, guild, now).await? {
            let Some(attempt) = db::fetch_attempt(&mut *conn, id).await? else {
                break;
            };
            return Ok(Given {
                attempt,
                puzzle,
                resumed: false,
            });
        }
    }
    Err(anyhow::anyhow!("no puzzle could be started for {user}").into())
}

/// `user`'s open attempt `attempt` at `step` moves of its line, with its puzzle: refused (nothing
/// changes) when it is someone else's, over, or no longer at `step` (an old picker).
pub async fn open_at(
    pool: &Pool,
    attempt: i64,
    user: UserId,
    step: i64,
) -> Result<(AttemptRow, PuzzleRow), Error> {
    let Some(row) = db::fetch_attempt(pool, attempt).await? else {
        return Err(Error::refused(text!("puzzle-gone")));
    };
    if row.player_id != user {
        return Err(Error::refused(text!("puzzle-not-yours")));
    }
    if row.status != AttemptStatus::Open {
        return Err(Error::refused(text!("puzzle-over")));
    }
    if row.step != step {
        return Err(Error::refused(text!("puzzle-stale")));
    }
    let Some(puzzle) = db::fetch_puzzle(pool, row.puzzle_id).await? else {
        return Err(Error::refused(text!("puzzle-gone")));
    };
    Ok((row, puzzle))
}

/// What an answer did.
#[derive(Clone, PartialEq, Debug)]
pub enum Answered {
    /// Right, and the line goes on: the bot's replies (in notation) were played, and the member
    /// is to move at `step`.
    Next {
        puzzle: PuzzleRow,
        attempt: i64,
        replies: Vec<String>,
        step: i64,
    },
    /// Over: solved or failed, rated.
    Done {
        puzzle: PuzzleRow,
        solved: bool,
        /// The step the answer was made at (for the line shown after a wrong move).
        step: i64,
        rated: Rated,
    },
}

/// `user` answers their attempt `attempt`, seen at `step` moves of its line, with `mv`: the one
/// place where an answer is judged, the attempt moved on or ended, and the ratings updated.
pub async fn answer_puzzle(
    pool: &Pool,
    attempt: i64,
    user: UserId,
    step: i64,
    mv: Move,
    now: i64,
) -> Result<Answered, Error> {
    let (_, puzzle) = open_at(pool, attempt, user, step).await?;
    let at = usize::try_from(step).map_err(|_| anyhow::anyhow!("step {step}"))?;
    let verdict = judge(&puzzle.puzzle, at, mv).map_err(|e| {
        db::report_bad_row("puzzles", puzzle.id, &e);
        Error::refused(text!("puzzle-gone"))
    })?;
    let solved = match verdict {
        Verdict::Right { replies, step: to } => {
            if !db::advance_attempt(pool, attempt, step, to as i64).await? {
                return Err(Error::refused(text!("puzzle-stale")));
            }
            return Ok(Answered::Next {
                puzzle,
                attempt,
                replies,
                step: to as i64,
            });
        }
        Verdict::Solved => true,
        Verdict::Wrong => false,
    };
    let mut tx = pool.begin().await?;
    let Some(rated) = db::finish_attempt(&mut tx, attempt, step, solved, now).await? else {
        return Err(Error::refused(text!("puzzle-stale")));
    };
    tx.commit().await?;
    Ok(Answered::Done {
        puzzle,
        solved,
        step,
        rated,
    })
}

#[cfg(test)]
mod tests;
