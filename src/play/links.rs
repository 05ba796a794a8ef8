//! Private links to a game's web board: a player's token, made when they ask for the board in
//! Discord, lets whoever holds the link play that player's moves in that game from the page.
//!
//! A token is 256 bits from the operating system's random source, written as 64 hex digits;
//! only its SHA-256 is stored (`web_tokens`), so the database never holds a usable link. A token
//! names one player and one game (and so one server), and stops working when the game ends.
//! Checking a token ([`holder`]) tells a forged or mistyped one, another game's, a member who
//! does not play the game, and an ended game apart, each in the reader's language.

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
    let mut bytes = [0u8; 32];
    rand::TryRngCore::try_fill_bytes(&mut rand::rngs::OsRng, &mut bytes)
        .map_err(|e| anyhow::anyhow!("the system's random source: {e}"))?;
    let token: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    db::delete_ended_web_tokens(pool).await?;
    db::insert_web_token(pool, &token_hash(&token), game, user, now).await?;
    Ok(token)
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

/// Whose link `token` is, for game `row`: a refusal in words
/// when it is forged or mistyped, another game's, or its member does not play this one.
pub async fn holder(pool: &Pool, row: &GameRow, token: &str) -> Result<Holder, Error> {
    let unknown = || Error::refused(text!("web-token-unknown"));
    // A token is 64 hex digits; anything else is not looked up.
    if token.len() != 64 || !token.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(unknown());
    }
    let Some((for_game, user)) = db::web_token_holder(pool, &token_hash(token)).await? else {
        return Err(unknown());
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
    Ok(Holder {
        user,
        expired: row.status != GameStatus::Active,
    })
}
