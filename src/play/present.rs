//! What the bot shows: board pictures (rendered off the async runtime) and texts.

use crate::db::Pool;
use crate::db::UserId;
use anyhow::anyhow;
use std::sync::OnceLock;
use tokio::sync::Semaphore;

use super::access::{mention, player_of, player_to_move};
use super::words;
use super::Error;
use super::Refusal;
use crate::db::{fetch_player_name, GameRow, GameStatus};
use crate::games::{Colour, Game};
use crate::i18n::Lang;
use crate::render::{render_png_in, Theme};
use crate::text;

/// The players' names by colour, for the picture.
pub async fn names_by_colour(
    pool: &Pool,
    row: &GameRow,
    game: &Game,
) -> Result<[String; 2], Error> {
    let mut names = [String::new(), String::new()];
    for c in Colour::BOTH {
        let id = player_of(row, game, c);
        names[c.index()] = fetch_player_name(pool, id)
            .await?
            .unwrap_or_else(|| format!("#{}", c.index() + 1));
    }
    Ok(names)
}

/// How many pictures are drawn at once: one per core. Drawing runs on the blocking threads, off
/// the async runtime, and a picture takes about 2 ms of a core, so the runtime still gets its
/// turn for answering interactions; the bound keeps few picture buffers alive at a time. Pictures
/// beyond that wait their turn (the interaction was deferred before). Within a game the boards
/// are still posted in order: the delivery posts a game's announcements one at a time.
pub fn drawing_threads() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get())
}

fn drawing_permits() -> &'static Semaphore {
    static PERMITS: OnceLock<Semaphore> = OnceLock::new();
    PERMITS.get_or_init(|| Semaphore::new(drawing_threads()))
}

/// Runs `draw` on a blocking thread once a drawing permit is free.
pub async fn draw<T, E>(draw: impl FnOnce() -> Result<T, E> + Send + 'static) -> Result<T, Error>
where
    T: Send + 'static,
    E: std::fmt::Display + Send + 'static,
{
    let _permit = drawing_permits()
        .acquire()
        .await
        .map_err(|e| anyhow!("the renderer is closed: {e}"))?;
    tokio::task::spawn_blocking(draw)
        .await
        .map_err(|e| anyhow!("the renderer stopped: {e}"))?
        .map_err(|e| Error::Internal(anyhow!("{e}")))
}

/// The board picture of `game` at `ply` (the current position when `None`), rendered off the
/// async runtime.
pub async fn picture(
    lang: Lang,
    game: Game,
    ply: Option<usize>,
    names: [String; 2],
) -> Result<Vec<u8>, Error> {
    draw(move || render_png_in(lang, &game, ply, &names, Theme::default())).await
}

/// The picture's alt text (the attachment's description, read by screen readers and shown
/// where pictures are off): "EXXIT game #12 after move 40: red to move, score 20–18".
pub fn alt_text(lang: Lang, game_id: i64, game: &Game, ply: usize) -> String {
    let kind = game.kind();
    let Some(position) = game.position_at(ply) else {
        return text!("alt-game", game = kind.title(), id = game_id).render(lang);
    };
    let when = if ply == 0 {
        text!("alt-at-start")
    } else {
        text!("alt-after-move", n = ply)
    };
    let state = match (ply == game.ply(), game.outcome()) {
        (true, Some(o)) => words::outcome(kind, &o),
        _ => text!(
            "alt-to-move",
            colour = words::colour(kind, position.to_move())
        ),
    };
    let score = match &*position {
        crate::games::Position::Exxit(p) => {
            let s = p.score();
            text!(
                "alt-score",
                first = words::colour(kind, Colour::First),
                a = s[0],
                b = s[1],
                second = words::colour(kind, Colour::Second)
            )
            .render(lang)
        }
        crate::games::Position::Inphexion(_) => String::new(),
    };
    text!(
        "alt-text",
        game = kind.title(),
        id = game_id,
        when = when,
        state = state,
        score = score
    )
    .render(lang)
}

/// The line under a board: the last move, then whose turn it is or the result.
pub fn board_caption(
    lang: Lang,
    row: &GameRow,
    game: &Game,
    last: Option<(UserId, &str)>,
) -> String {
    let kind = game.kind();
    let mut lines = vec![text!(
        "caption-head",
        game = kind.title(),
        id = row.id,
        a = mention(row.players[0]),
        b = mention(row.players[1])
    )
    .render(lang)];
    if let Some((who, mv)) = last {
        // The move in words, read against the position before it; its notation in small print.
        let words = match (game.ply().checked_sub(1), game.moves().last()) {
            (Some(before), Some(m)) => game
                .position_at(before)
                .map(|p| crate::play::picker::describe(lang, &p, m)),
            _ => None,
        };
        lines.push(
            text!(
                "caption-played",
                who = mention(who),
                words = words.unwrap_or_else(|| mv.to_string()),
                n = game.ply()
            )
            .render(lang),
        );
        lines.push(text!("caption-notation", mv = mv).render(lang));
    }
    match (row.status, game.outcome()) {
        (GameStatus::Active, None) => {
            let c = game.position().to_move();
            let who = mention(player_to_move(row, game));
            let colour = words::colour(kind, c);
            lines.push(
                match row.deadline_at {
                    Some(d) => text!("caption-to-move-until", who = who, colour = colour, at = d),
                    None => text!("caption-to-move", who = who, colour = colour),
                }
                .render(lang),
            );
        }
        _ => {
            let result = match (&row.result, game.outcome()) {
                (Some(r), _) => words::result(row, r),
                (None, Some(o)) => words::outcome(kind, &o),
                (None, None) => text!("status-finished"),
            };
            lines.push(
                match row.winner_id {
                    Some(_) => text!("caption-over-won", result = result),
                    None => text!("caption-over", result = result),
                }
                .render(lang),
            );
            lines.push(text!("caption-replay", id = row.id).render(lang));
        }
    }
    lines.join("\n")
}

/// Rows per leaderboard page.
pub const LEADERBOARD_PAGE: i64 = 10;

/// The offset of page `page` (from 1) of a table of `total` rows, and the number of pages.
pub fn leaderboard_page(total: i64, page: i64) -> Result<(i64, i64), Refusal> {
    let pages = ((total + LEADERBOARD_PAGE - 1) / LEADERBOARD_PAGE).max(1);
    if page < 1 || page > pages {
        return Err(Refusal::new(crate::text!(
            "leaderboard-pages",
            pages = pages
        )));
    }
    Ok(((page - 1) * LEADERBOARD_PAGE, pages))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// As many pictures are drawn at once as there are cores, never more.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn pictures_are_drawn_one_per_core_at_once() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        use std::sync::Arc;
        use std::time::{Duration, Instant};
        let cores = drawing_threads();
        let running = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let tasks: Vec<_> = (0..cores * 3)
            .map(|i| {
                let (running, most) = (running.clone(), most.clone());
                tokio::spawn(draw(move || {
                    let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                    most.fetch_max(now, Ordering::SeqCst);
                    // Each drawing waits (at most 5 s) until `cores` run together.
                    let until = Instant::now() + Duration::from_secs(5);
                    while most.load(Ordering::SeqCst) < cores && Instant::now() < until {
                        std::thread::sleep(Duration::from_millis(1));
                    }
                    std::thread::sleep(Duration::from_millis(5));
                    running.fetch_sub(1, Ordering::SeqCst);
                    Ok::<usize, String>(i)
                }))
            })
            .collect();
        for (i, t) in tasks.into_iter().enumerate() {
            assert_eq!(t.await.unwrap().unwrap(), i);
        }
        assert_eq!(most.load(Ordering::SeqCst), cores);
    }

    #[test]
    fn leaderboard_pages() {
        assert_eq!(leaderboard_page(0, 1), Ok((0, 1)));
        assert_eq!(leaderboard_page(10, 1), Ok((0, 1)));
        assert_eq!(leaderboard_page(11, 2), Ok((10, 2)));
        let refused = leaderboard_page(11, 3).unwrap_err().0;
        assert!(refused.render(crate::i18n::Lang::EN).contains("1 to 2"));
        assert!(leaderboard_page(11, 0).is_err());
    }
}
