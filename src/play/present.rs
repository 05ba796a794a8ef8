//! What the bot shows: board pictures (rendered off the async runtime) and texts.

use crate::db::UserId;
use crate::db::{Conn, Pool};
use anyhow::anyhow;
use std::sync::OnceLock;
use tokio::sync::Semaphore;

use super::access::{mention, player_of, player_to_move};
use super::words;
use super::Error;
use super::Refusal;
use crate::db::{fetch_name, GameRow, GameStatus};
use crate::games::{Colour, Game};
use crate::i18n::Lang;
use crate::render::{render_png_in, Theme};
use crate::text;

/// The players' names by colour, for the picture, in `lang` (where a name is "a former member").
pub async fn names_by_colour(
    pool: &Pool,
    row: &GameRow,
    game: &Game,
    lang: Lang,
) -> Result<[String; 2], Error> {
    let mut conn = pool.acquire().await?;
    names_of(&mut conn, row, game, lang).await
}

/// [`names_by_colour`], read on connection `conn`.
pub async fn names_of(
    conn: &mut Conn,
    row: &GameRow,
    game: &Game,
    lang: Lang,
) -> Result<[String; 2], Error> {
    let mut names = [String::new(), String::new()];
    for c in Colour::BOTH {
        let id = player_of(row, game, c);
        let name = fetch_name(&mut *conn, id).await?;
        names[c.index()] = words::name_in(lang, name, || format!("#{}", c.index() + 1));
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

/// The board picture of `game` at `ply` (the current position when `None`) in `theme`,
/// rendered off the async runtime.
pub async fn picture(
    lang: Lang,
    theme: Theme,
    game: Game,
    ply: Option<usize>,
    names: [String; 2],
) -> Result<Vec<u8>, Error> {
    draw(move || render_png_in(lang, &game, ply, &names, theme)).await
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
    let score = match position.score() {
        Some(s) => text!(
            "alt-score",
            first = words::colour(kind, Colour::First),
            a = s[0],
            b = s[1],
            second = words::colour(kind, Colour::Second)
        )
        .render(lang),
        None => String::new(),
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

/// The line under a board: the last move (played by `who`, in notation `mv`), then whose turn
/// it is or the result.
pub fn board_caption(
    lang: Lang,
    row: &GameRow,
    game: &Game,
    last: Option<(UserId, &str)>,
) -> String {
    let played = last.map(|(who, mv)| played_lines(lang, game, game.ply(), who, mv));
    caption_with(lang, row, game, played)
}

/// The caption of a board showing every move of `game` from move `first` (from 1) to the
/// latest, each named with its player and its notation, as [`folded_caption`] names the moves
/// of boards folded into one: the board shown once after a move and the replies that followed
/// it at once (a conditional move, the bot's). No move is named when `game` has none from
/// `first` on (taken back since).
pub fn caption_since(lang: Lang, row: &GameRow, game: &Game, first: usize) -> String {
    let named: Vec<String> = (first.max(1)..=game.ply())
        .filter_map(|ply| move_lines(lang, row, game, ply))
        .collect();
    caption_with(
        lang,
        row,
        game,
        (!named.is_empty()).then(|| named.join("\n")),
    )
}

/// [`board_caption`] with `played`, the lines naming the moves shown, under its head.
fn caption_with(lang: Lang, row: &GameRow, game: &Game, played: Option<String>) -> String {
    let kind = game.kind();
    let mut lines = vec![text!(
        "caption-head",
        game = kind.title(),
        id = row.id,
        a = mention(row.players[0]),
        b = mention(row.players[1])
    )
    .render(lang)];
    lines.extend(played);
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

/// The words of a board a newer one replaced, which showed `game` after `ply` moves and said
/// `caption` ([`board_caption`]): its caption without its last line (whose turn it was, or the
/// result), then what happened next: the next move in words and who played it, the move taken
/// back, or the end of the game. `None` when nothing happened since (the caption stands).
pub fn superseded_caption(
    lang: Lang,
    row: &GameRow,
    game: &Game,
    caption: &str,
    ply: usize,
) -> Option<String> {
    let next = if let Some(m) = game.moves().get(ply) {
        let p = game.position_at(ply)?;
        let who = super::access::player_at(row, game, ply, p.to_move());
        text!(
            "caption-then-moved",
            n = ply + 1,
            who = mention(who),
            words = crate::play::picker::describe(lang, &p, m)
        )
    } else if game.ply() < ply {
        text!("caption-then-taken-back", n = ply)
    } else if row.status != GameStatus::Active {
        let result = match &row.result {
            Some(r) => words::result(row, r),
            None => text!("status-finished"),
        };
        text!("caption-then-over", result = result)
    } else {
        return None;
    };
    let kept = caption.rsplit_once('\n').map_or("", |(head, _)| head);
    let next = next.render(lang);
    Some(if kept.is_empty() {
        next
    } else {
        format!("{kept}\n{next}")
    })
}

/// The lines of a board's caption naming move `ply` of `game` (from 1), played by `who`, whose
/// notation is `mv`: the move in words, read against the position before it, and its notation in
/// small print.
fn played_lines(lang: Lang, game: &Game, ply: usize, who: UserId, mv: &str) -> String {
    let words = ply.checked_sub(1).and_then(|before| {
        let m = game.moves().get(before)?;
        let p = game.position_at(before)?;
        Some(crate::play::picker::describe(lang, &p, m))
    });
    let played = text!(
        "caption-played",
        who = mention(who),
        words = words.unwrap_or_else(|| mv.to_string()),
        n = ply
    );
    let notation = text!("caption-notation", mv = mv);
    format!("{}\n{}", played.render(lang), notation.render(lang))
}

/// [`played_lines`] of move `ply` of `game` (from 1), its player and notation read from the
/// game; `None` when it has no such move.
fn move_lines(lang: Lang, row: &GameRow, game: &Game, ply: usize) -> Option<String> {
    let before = ply.checked_sub(1)?;
    let mv = game.moves().get(before)?;
    let colour = game.position_at(before)?.to_move();
    let who = super::access::player_at(row, game, before, colour);
    Some(played_lines(lang, game, ply, who, &mv.to_string()))
}

/// The caption of one board for several moves queued at once: `captions` are the captions of the
/// boards of moves `first`, `first + 1`, … of `game` (as [`board_caption`] wrote them, in `lang`),
/// the last one the latest position. It is the last caption naming every move in turn; `None`
/// when one of them is not a move's caption (a board after a takeback, say) or names another
/// move, and the boards are not to be folded into one.
pub fn folded_caption(
    lang: Lang,
    row: &GameRow,
    game: &Game,
    first: usize,
    captions: &[&str],
) -> Option<String> {
    let (last, _) = captions.split_last()?;
    let mut named = Vec::with_capacity(captions.len());
    for (i, caption) in captions.iter().enumerate() {
        let lines = move_lines(lang, row, game, first.checked_add(i)?)?;
        if !caption.contains(&lines) {
            return None;
        }
        named.push(lines);
    }
    let own = named.last()?;
    Some(last.replacen(own.as_str(), &named.join("\n"), 1))
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

    /// The captions of the boards of moves in a row fold into the last one, naming every move
    /// in turn by its player (across a pie swap, which exchanges the players' colours); captions
    /// out of turn, or one naming no move, are not folded. One board for the moves since a
    /// ply ([`caption_since`]) reads as the folded one.
    #[test]
    fn captions_of_moves_in_a_row_fold_into_the_last() {
        use crate::games::Options;
        use crate::play::access::tests::row;
        for lang in [Lang::EN, Lang::of("ja")] {
            let mut r = row(GameStatus::Active);
            r.options = Options::parse_line("inphexion size=5 pie").unwrap();
            let mut game = Game::new(r.options.clone());
            let mut captions = Vec::new();
            let mut played = Vec::new();
            for i in 0..4 {
                let legal = game.legal_notations();
                let mv = match legal.iter().find(|m| *m == "swap") {
                    Some(swap) if i == 1 => swap.clone(),
                    _ => legal[i % legal.len()].clone(),
                };
                let who = player_to_move(&r, &game);
                game.play_text(&mv).unwrap();
                let caption = board_caption(lang, &r, &game, Some((who, &mv)));
                played.push(played_lines(lang, &game, game.ply(), who, &mv));
                captions.push(caption);
            }
            assert_eq!(game.moves()[1].to_string(), "swap");
            let all: Vec<&str> = captions.iter().map(String::as_str).collect();
            // Moves 2 to 4 into one: the last board's caption, naming the three.
            let folded = folded_caption(lang, &r, &game, 2, &all[1..]).unwrap();
            let expected = captions[3].replacen(&played[3], &played[1..].join("\n"), 1);
            assert_eq!(folded, expected);
            assert_ne!(folded, captions[3]);
            // A board shown once after move 2 and the replies that followed it at once reads
            // the same, each move by its player with its notation in small print.
            assert_eq!(caption_since(lang, &r, &game, 2), expected);
            for (i, lines) in played.iter().enumerate().skip(1) {
                let notation = text!("caption-notation", mv = game.moves()[i].to_string());
                assert!(lines.ends_with(&notation.render(lang)), "{lines}");
            }
            assert_eq!(caption_since(lang, &r, &game, 4), captions[3]);
            // No move from there on (taken back since): no move named.
            assert_eq!(
                caption_since(lang, &r, &game, 5),
                board_caption(lang, &r, &game, None)
            );
            // The head line and the player to move now are the last board's.
            let head = |c: &str| c.lines().next().unwrap_or("").to_string();
            assert_eq!(head(&folded), head(&captions[3]));
            assert!(folded.ends_with(captions[3].lines().last().unwrap()));
            // Out of turn, or a caption naming no move, or a move not played yet: not folded.
            assert_eq!(folded_caption(lang, &r, &game, 1, &all[1..]), None);
            assert_eq!(folded_caption(lang, &r, &game, 1, &[all[0], all[2]]), None);
            let no_move = board_caption(lang, &r, &game, None);
            assert_eq!(
                folded_caption(lang, &r, &game, 3, &[all[2], &no_move]),
                None
            );
            assert_eq!(folded_caption(lang, &r, &game, 4, &[all[3], all[3]]), None);
        }
    }

    /// An old board's words say what followed it, never whose turn it was: the next move by its
    /// player, the move taken back, or the end.
    #[test]
    fn a_replaced_board_says_what_happened_next() {
        use crate::games::Options;
        use crate::play::access::tests::row;
        for lang in [Lang::EN, Lang::of("ja")] {
            let mut r = row(GameStatus::Active);
            r.deadline_at = Some(1_900_000_000);
            r.options = Options::parse_line("inphexion size=5").unwrap();
            let mut game = Game::new(r.options.clone());
            let first = player_to_move(&r, &game);
            game.play_text("c3").unwrap();
            let at_one = board_caption(lang, &r, &game, Some((first, "c3")));
            let second = player_to_move(&r, &game);
            let to_move = at_one.lines().last().unwrap_or("").to_string();
            assert!(to_move.contains("<t:1900000000:R>"), "{at_one}");
            // Nothing since: the words stand.
            assert_eq!(superseded_caption(lang, &r, &game, &at_one, 1), None);
            let mv = game.legal_notations()[0].clone();
            let before = game.position().clone();
            game.play_text(&mv).unwrap();
            let next = superseded_caption(lang, &r, &game, &at_one, 1).unwrap();
            assert!(!next.contains(&to_move), "{next}");
            assert!(
                next.starts_with(at_one.rsplit_once('\n').unwrap().0),
                "{next}"
            );
            let words = crate::play::picker::describe(lang, &before, &game.moves()[1]);
            let last = next.lines().last().unwrap_or("");
            assert!(
                last.contains(&mention(second)) && last.contains(&words) && last.contains('2'),
                "{next}"
            );
            // Taken back below the board's move; the game over after it.
            let mut short = Game::new(r.options.clone());
            assert!(superseded_caption(lang, &r, &short, &at_one, 1)
                .unwrap()
                .ends_with(&text!("caption-then-taken-back", n = 1).render(lang)));
            short.play_text("c3").unwrap();
            let mut over = row(GameStatus::Finished);
            over.options = r.options.clone();
            let ended = superseded_caption(lang, &over, &short, &at_one, 1).unwrap();
            assert!(
                ended.lines().last().unwrap_or("").starts_with("⏭"),
                "{ended}"
            );
            assert!(!ended.contains(&to_move), "{ended}");
        }
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
