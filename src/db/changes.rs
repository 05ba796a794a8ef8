//! Committed changes of games, told to every process: on PostgreSQL a `NOTIFY` sent inside the
//! change's own transaction (so it goes out only if the change commits) and a `LISTEN`ing
//! connection per process; SQLite is one process, which needs neither
//! ([`crate::play::changes`] tells its own changes in memory).

use std::time::Duration;

use sqlx::postgres::PgListener;

use super::{backend_of, Backend, Conn, DbError};

/// The PostgreSQL channel of game changes. A notification's payload is `<game> <origin>`: the
/// game's id and the process that made the change.
pub const CHANNEL: &str = "hexcord_games";

/// Marks game `game` changed in the transaction `conn` is in: its revision one more (what tells
/// a page's newer state from an older one), and, when the transaction commits, every process
/// listening told (PostgreSQL; nothing more on SQLite). `origin` names this process, so it can
/// skip its own.
pub async fn notify_game_changed(conn: &mut Conn, game: i64, origin: i64) -> Result<(), DbError> {
    sqlx::query("UPDATE games SET revision = revision + 1 WHERE id = $1")
        .bind(game)
        .execute(&mut *conn)
        .await?;
    if backend_of(conn) == Backend::Postgres {
        sqlx::query("SELECT pg_notify($1, $2)")
            .bind(CHANNEL)
            .bind(format!("{game} {origin}"))
            .execute(&mut *conn)
            .await?;
    }
    Ok(())
}

/// Reads a notification's payload: the game, unless this process (`origin`) made the change or
/// the payload is not ours.
pub fn changed_game(payload: &str, origin: i64) -> Option<i64> {
    let (game, from) = payload.split_once(' ')?;
    let from: i64 = from.parse().ok()?;
    (from != origin).then(|| game.parse().ok()).flatten()
}

/// Listens to the changes of other processes on the PostgreSQL database `url`, calling
/// `changed` with each game's id; runs until the process ends, connecting again (after a second)
/// whenever the connection is lost. `ready` is called each time the listener is connected.
pub async fn listen_game_changes(url: &str, origin: i64, changed: impl Fn(i64), ready: impl Fn()) {
    // The pools opened on this URL took it already: a refusal here is not expected.
    let url = match super::driver_url(url) {
        Ok(url) => url,
        Err(why) => {
            tracing::error!("cannot listen to game changes: DATABASE_URL: {why}");
            return;
        }
    };
    let url = &*url;
    loop {
        match PgListener::connect(url).await {
            Ok(mut listener) => {
                if let Err(e) = listener.listen(CHANNEL).await {
                    tracing::warn!("cannot listen to game changes: {e}");
                } else {
                    ready();
                    loop {
                        match listener.recv().await {
                            Ok(n) => {
                                if let Some(game) = changed_game(n.payload(), origin) {
                                    changed(game);
                                }
                            }
                            Err(e) => {
                                tracing::warn!("game changes: the listening connection: {e}");
                                break;
                            }
                        }
                    }
                }
            }
            Err(e) => tracing::warn!(
                "cannot connect to listen to game changes: {}",
                super::scrub_password(url, &e.to_string())
            ),
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_payload_names_the_game_unless_it_is_our_own() {
        assert_eq!(changed_game("12 7", 3), Some(12));
        assert_eq!(changed_game("12 3", 3), None);
        assert_eq!(changed_game("12", 3), None);
        assert_eq!(changed_game("x 7", 3), None);
    }
}
