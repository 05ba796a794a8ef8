//! What the bot shows: board pictures (rendered off the async runtime) and texts.

use anyhow::anyhow;
use poise::serenity_prelude as serenity;
use sqlx::SqlitePool;
use std::sync::OnceLock;
use tokio::sync::Semaphore;

use super::logic::{mention, player_of, player_to_move};
use super::BotError;
use crate::db::{fetch_player_name, GameRow, GameStatus};
use crate::games::{Colour, Game, GameKind};
use crate::render::{render_png, Theme};

/// The players' names by colour, for the picture.
pub async fn names_by_colour(
    pool: &SqlitePool,
    row: &GameRow,
    game: &Game,
) -> Result<[String; 2], BotError> {
    let mut names = [String::new(), String::new()];
    for c in Colour::BOTH {
        let id = player_of(row, game, c);
        names[c.index()] = fetch_player_name(pool, id)
            .await?
            .unwrap_or_else(|| format!("player {}", c.index() + 1));
    }
    Ok(names)
}

/// How many pictures are drawn at once: every core but one, so that the async runtime always
/// has a core left for answering interactions, and few picture buffers are alive at a time.
/// Pictures beyond that wait their turn (the interaction was deferred before).
fn drawing_permits() -> &'static Semaphore {
    static PERMITS: OnceLock<Semaphore> = OnceLock::new();
    PERMITS.get_or_init(|| {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Semaphore::new(cores.saturating_sub(1).max(1))
    })
}

/// Runs `draw` on a blocking thread once a drawing permit is free.
pub async fn draw<T, E>(draw: impl FnOnce() -> Result<T, E> + Send + 'static) -> Result<T, BotError>
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
        .map_err(|e| BotError::Internal(anyhow!("{e}")))
}

/// The board picture of `game` at `ply` (the current position when `None`), rendered off the
/// async runtime.
pub async fn picture(
    game: Game,
    ply: Option<usize>,
    names: [String; 2],
) -> Result<Vec<u8>, BotError> {
    draw(move || render_png(&game, ply, &names, Theme::default())).await
}

/// Who a posted board mentions.
pub enum Notify {
    /// The player to move (or both players once the game is over).
    ToMove,
    /// Both players.
    Players,
    /// Both players but this one (the bot itself).
    AllBut(u64),
}

/// Posts game `id`'s current board in its channel (not as an interaction's answer): `intro`
/// (if not empty) above the usual caption, `last` the move just played. The message becomes the
/// game's board message.
pub async fn post_board(
    http: &serenity::Http,
    pool: &SqlitePool,
    id: i64,
    intro: &str,
    last: Option<(u64, &str)>,
    notify: Notify,
) -> Result<(), BotError> {
    let mut conn = pool.acquire().await?;
    let (row, game) = crate::db::load_game(&mut conn, id)
        .await?
        .ok_or_else(|| anyhow!("game {id} vanished"))?;
    drop(conn);
    let names = names_by_colour(pool, &row, &game).await?;
    let caption = board_caption(&row, &game, last);
    let caption = if intro.is_empty() {
        caption
    } else {
        format!("{intro}\n{caption}")
    };
    let over = row.status != GameStatus::Active || game.is_over();
    let users: Vec<u64> = match notify {
        Notify::ToMove if !over => vec![player_to_move(&row, &game)],
        Notify::ToMove | Notify::Players => row.players.to_vec(),
        Notify::AllBut(bot) => row.players.iter().copied().filter(|&p| p != bot).collect(),
    };
    let png = picture(game, None, names).await?;
    let message = serenity::ChannelId::new(row.channel_id)
        .send_message(
            http,
            serenity::CreateMessage::new()
                .content(caption)
                .add_file(serenity::CreateAttachment::bytes(png, "board.png"))
                .allowed_mentions(
                    serenity::CreateAllowedMentions::new()
                        .users(users.into_iter().map(serenity::UserId::new)),
                ),
        )
        .await?;
    crate::db::set_board_message(pool, id, message.id.get()).await?;
    Ok(())
}

/// The line under a board: the last move, then whose turn it is or the result.
pub fn board_caption(row: &GameRow, game: &Game, last: Option<(u64, &str)>) -> String {
    let kind = game.kind();
    let mut text = format!(
        "**{}** game #{} · {} vs {}",
        kind.title(),
        row.id,
        mention(row.players[0]),
        mention(row.players[1])
    );
    if let Some((who, mv)) = last {
        text.push_str(&format!(
            "\n{} played `{mv}` (move {}).",
            mention(who),
            game.ply()
        ));
    }
    match (row.status, game.outcome()) {
        (GameStatus::Active, None) => {
            let c = game.position().to_move();
            text.push_str(&format!(
                "\n{} ({}) to move: `/move`.",
                mention(player_to_move(row, game)),
                kind.colour_name(c)
            ));
            if let Some(d) = row.deadline_at {
                text.push_str(&format!(" Time runs out <t:{d}:R>."));
            }
        }
        _ => {
            let result = row
                .result
                .clone()
                .or_else(|| game.outcome().map(|o| o.describe(kind)));
            text.push_str(&format!(
                "\nGame over: {}.",
                result.as_deref().unwrap_or("finished")
            ));
            if let Some(w) = row.winner_id {
                text.push_str(&format!(" Congratulations {}!", mention(w)));
            }
        }
    }
    text
}

/// A short summary of a game's rules.
pub fn rules_text(kind: GameKind) -> &'static str {
    match kind {
        GameKind::Inphexion => concat!(
            "**inpHeXion** — a Hex-like connection game on a rhombus (7×7 by default, 4–11).\n",
            "• White connects top and bottom, Black left and right; White starts by placing a disc.\n",
            "• A regular move pushes one opponent disc to an empty neighbour and puts one of your ",
            "own discs on the cell it left (`c3-d3`).\n",
            "• Discs that become surrounded are relocated by their owner's opponent (`c3-d3 e5>a1`).\n",
            "• You win by joining your two edges; a player with no legal move loses.\n",
            "• Options: `size`, `pie` (Black may swap after the first disc), `free_reply`, `neutral`.\n",
            "Play with `/move`: the suggestions list only legal moves."
        ),
        GameKind::Exxit => concat!(
            "**EXXIT** — build the world from hexagonal tiles and score islands.\n",
            "• Each turn: a *dance of destruction* if one is possible (move a stack along a line, ",
            "dropping discs one per cell onto an opponent stack), otherwise build: lay a tile to ",
            "expand the world, or place a disc (`0,1`); otherwise pass.\n",
            "• The game ends when the tiles run out, after two passes in a row, or on a third repetition; ",
            "the higher island score wins.\n",
            "• Options: `tiles` (39, 29 or 19), `expert` (players lay the first six tiles), `pie`.\n",
            "Play with `/move`: the suggestions list only legal moves."
        ),
    }
}

pub const HELP: &str = concat!(
    "**hexcord** — play inpHeXion and EXXIT here.\n",
    "• `/challenge opponent game [options] [rated] [days_per_move]` — invite a member; they accept or decline with the buttons. Running out of time loses the game.\n",
    "• `/play game level [first] [options]` — play against me (easy, medium or hard; unrated, no clock).\n",
    "• `/move move [game]` — play; the suggestions list only legal moves.\n",
    "• `/board [game] [ply]` — show a board (a past position with `ply`).\n",
    "• `/resign [game]` — give up (asks for confirmation).\n",
    "• `/games [user]` — active games with whose turn it is, the time left and links to their boards.\n",
    "• `/turn` — the games of this server where it is your move.\n",
    "• `/leaderboard game [page]` — the server's ratings; `/profile [user]` — ratings, record, recent games.\n",
    "• `/record game` — the game record; `/replay game` — the game as an animated picture.\n",
    "• `/settings [reminders]` — reminders in the channel, by direct message, or off; `/vacation days` — pause your deadlines.\n",
    "• `/rules game` — a short summary of the rules.\n",
    "• `/abort game` — moderators (Manage Server) end a game without result."
);
