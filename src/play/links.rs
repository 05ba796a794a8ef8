//! Private links to a game's web board: a player's token, made when they ask for the board in
//! Discord, lets whoever holds the link play that player's moves in that game from the page.
//!
//! A token is 256 bits from the operating system's random source, written as 64 hex digits;
//! only its SHA-256 is stored (`web_tokens`), so the database never holds a usable link. A token
//! names one player and one game (and so one server), and stops working when the game ends.
//! Checking a token ([`holder`]) tells a forged or mistyped one, another game's, a member who
//! does not play the game, and an ended game apart, each in the reader's language.
//!
//! A member's inbox link ([`issue_inbox`], from `/games` or a reminder's button) is a token of
//! the same kind naming only the member: it opens their inbox (every game waiting for their
//! move, across servers) and plays their side of any game they play, for [`INBOX_DAYS`] days.

use sha2::{Digest, Sha256};

use crate::db::{self, GameRow, GameStatus, Pool, UserId};
use crate::play::{Error, Refusal};
use crate::text;

/// The SHA-256 of a token, in hex: what is stored.
pub fn token_hash(token: &str) -> String {
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A new token for `user` in game `game`, stored hashed. The links of ended games are deleted
/// on the way.
pub async fn issue(pool: &Pool, game: i64, user: UserId, now: i64) -> Result<String, Error> {
    let token = new_token()?;
    db::delete_ended_web_tokens(pool).await?;
    db::insert_web_token(pool, &token_hash(&token), game, user, now).await?;
    Ok(token)
}

/// How many days an inbox link works.
pub const INBOX_DAYS: i64 = 7;

/// 256 random bits as 64 hex digits.
fn new_token() -> Result<String, Error> {
    let mut bytes = [0u8; 32];
    rand::TryRngCore::try_fill_bytes(&mut rand::rngs::OsRng, &mut bytes)
        .map_err(|e| anyhow::anyhow!("the system's random source: {e}"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Whether `token` looks like one (64 hex digits): anything else is not looked up.
fn well_formed(token: &str) -> bool {
    token.len() == 64 && token.bytes().all(|b| b.is_ascii_hexdigit())
}

/// A new inbox token for `user`, stored hashed. Expired inbox links are deleted on the way.
pub async fn issue_inbox(pool: &Pool, user: UserId, now: i64) -> Result<String, Error> {
    let token = new_token()?;
    db::delete_inbox_tokens_before(pool, now - INBOX_DAYS * 86_400).await?;
    db::insert_inbox_token(pool, &token_hash(&token), user, now).await?;
    Ok(token)
}

/// The address of a member's inbox under `public_url`, with `token` in its fragment.
pub fn inbox_url(public_url: &str, token: &str) -> String {
    format!("{}/inbox#t={token}", public_url.trim_end_matches('/'))
}

/// The member whose inbox `token` opens: a refusal in words when it is forged, mistyped or
/// expired.
pub async fn inbox_holder(pool: &Pool, token: &str, now: i64) -> Result<UserId, Error> {
    let member = match well_formed(token) {
        true => inbox_member(pool, token, now).await?,
        false => None,
    };
    member.ok_or_else(|| Error::refused(text!("inbox-token-unknown")))
}

/// The member of a well-formed inbox token, `None` when there is no such link; refused when it
/// expired.
async fn inbox_member(pool: &Pool, token: &str, now: i64) -> Result<Option<UserId>, Error> {
    match db::inbox_token_holder(pool, &token_hash(token)).await? {
        None => Ok(None),
        Some((_, made)) if now - made >= INBOX_DAYS * 86_400 => Err(Error::refused(text!(
            "inbox-token-expired",
            days = INBOX_DAYS
        ))),
        Some((user, _)) => Ok(Some(user)),
    }
}

/// The address of game `game`'s page under `public_url`, with `token` in its fragment (which a
/// browser never sends to a server, so it reaches no log).
pub fn board_url(public_url: &str, game: i64, token: Option<&str>) -> String {
    let base = public_url.trim_end_matches('/');
    match token {
        Some(t) => format!("{base}/game/{game}#t={t}"),
        None => format!("{base}/game/{game}"),
    }
}

/// The player a token lets act in a game.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Holder {
    pub user: UserId,
    /// The game is over: the link shows the player's view but plays nothing.
    pub expired: bool,
}

impl Holder {
    /// The refusal of a move or preview through this link, if it may not act.
    pub fn check_active(&self, game: i64) -> Result<(), Refusal> {
        if self.expired {
            Err(Refusal::new(text!("web-token-expired", game = game)))
        } else {
            Ok(())
        }
    }
}

/// Whose link `token` is, for game `row` at `now`: a game's link, or a member's inbox link for
/// any game they play. A refusal in words when it is forged or mistyped, another game's, an
/// expired inbox link, or its member does not play this one. The link of a local game of two
/// players at one screen plays for whoever is to move ([`crate::play::local`]).
pub async fn holder(pool: &Pool, row: &GameRow, token: &str, now: i64) -> Result<Holder, Error> {
    let unknown = || Error::refused(text!("web-token-unknown"));
    if !well_formed(token) {
        return Err(unknown());
    }
    let Some((for_game, user)) = db::web_token_holder(pool, &token_hash(token)).await? else {
        let user = inbox_member(pool, token, now).await?.ok_or_else(unknown)?;
        if !row.players.contains(&user) {
            return Err(Error::refused(text!("web-token-not-player", game = row.id)));
        }
        return Ok(Holder {
            user,
            expired: row.status != GameStatus::Active,
        });
    };
    if for_game != row.id {
        return Err(Error::refused(text!(
            "web-token-other-game",
            game = row.id,
            other = for_game
        )));
    }
    if !row.players.contains(&user) {
        return Err(Error::refused(text!("web-token-not-player", game = row.id)));
    }
    // Two players at one screen: the game's link plays for whoever is to move.
    let user = match row.to_move {
        Some(next) if crate::play::seats::is_hot_seat(row) => next,
        _ => user,
    };
    Ok(Holder {
        user,
        expired: row.status != GameStatus::Active,
    })
}
