//! Private notes: a player, or a member following a game (in a server), keeps notes on it that
//! nobody else ever reads: by `/note`, on the game's page (with their link or an Activity's
//! session), and after the game with its record (`/record`, answered to them privately).
//!
//! One text per member and game, at most [`MAX_NOTE_CHARS`] characters: `/note` adds a line to
//! it, the page edits it whole; empty, it is deleted. The notes are no part of the game's state:
//! they change nothing another reader sees, and no announcement or live update names them.

use crate::db::{self, GameRow, Pool, UserId};
use crate::i18n::Text;
use crate::play::{Error, Refusal};
use crate::text;

/// The longest notes a member keeps on one game, in characters (they are shown in one Discord
/// message with a heading).
pub const MAX_NOTE_CHARS: usize = 1500;

/// May `user` keep notes on game `row`: a player, or a member following it (`/follow`, in a
/// server: a chat's games are not followed, and the refusal there names the players alone).
pub async fn check_note_taker(pool: &Pool, row: &GameRow, user: UserId) -> Result<(), Error> {
    if row.players.contains(&user) || db::is_following(pool, row.id, user).await? {
        return Ok(());
    }
    let place = match crate::play::chats::is_chat_game(row) {
        true => "chat",
        false => "server",
    };
    Err(Refusal::new(text!("notes-not-yours", game = row.id, place = place)).into())
}

/// The refusal of notes longer than [`MAX_NOTE_CHARS`]; nothing is stored.
fn check_length(game: i64, body: &str) -> Result<(), Refusal> {
    let chars = body.chars().count();
    if chars > MAX_NOTE_CHARS {
        return Err(Refusal::new(text!(
            "notes-too-long",
            game = game,
            chars = chars,
            max = MAX_NOTE_CHARS
        )));
    }
    Ok(())
}

/// `user`'s notes on game `id` (only ever shown to them).
pub async fn notes_of(pool: &Pool, id: i64, user: UserId) -> Result<Option<String>, Error> {
    Ok(db::fetch_note(pool, id, user).await?)
}

/// Adds `line` at the end of `user`'s notes on game `row`; the answer says how much room is
/// left. Refused (nothing stored) for a member who neither plays nor follows the game, for a
/// blank line, and past [`MAX_NOTE_CHARS`].
pub async fn add_note(
    pool: &Pool,
    row: &GameRow,
    user: UserId,
    line: &str,
    now: i64,
) -> Result<Text, Error> {
    check_note_taker(pool, row, user).await?;
    let line = line.trim();
    if line.is_empty() {
        return Err(Refusal::new(text!("notes-blank", game = row.id)).into());
    }
    let body = match db::fetch_note(pool, row.id, user).await? {
        Some(before) => format!("{before}\n{line}"),
        None => line.to_string(),
    };
    check_length(row.id, &body)?;
    db::store_note(pool, row.id, user, &body, now).await?;
    Ok(text!(
        "notes-added",
        game = row.id,
        chars = body.chars().count(),
        max = MAX_NOTE_CHARS
    ))
}

/// Replaces `user`'s notes on game `row` by `body` (trimmed; empty deletes them). Refused as
/// [`add_note`] is; the notes stored are returned.
pub async fn save_notes(
    pool: &Pool,
    row: &GameRow,
    user: UserId,
    body: &str,
    now: i64,
) -> Result<String, Error> {
    check_note_taker(pool, row, user).await?;
    let body = body.trim();
    check_length(row.id, body)?;
    db::store_note(pool, row.id, user, body, now).await?;
    Ok(body.to_string())
}

/// `notes` of their author on game `game`, as shown to them alone (by `/note` and with the
/// record): a heading, then the notes quoted; or that they keep none.
pub fn shown(game: i64, notes: Option<&str>) -> Text {
    match notes {
        Some(notes) => text!("notes-shown", game = game, notes = notes.to_string()),
        None => text!("notes-none", game = game),
    }
}
