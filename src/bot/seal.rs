//! Seals on the buttons that answer a request (a takeback, a call-off, a deletion to confirm): a short keyed digest of
//! what the request names, so that an answer is acted on only for a request this bot made. A
//! button made up with the right game and position, but without the seal, changes nothing.
//!
//! The key is the bot token, which every process of the bot shares and nobody else holds; a new
//! token (after a reset) makes the open requests' buttons stale, which is what a reset is for.

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

use crate::play::actions::Stamp;

/// Makes and checks seals. Cheap to clone.
#[derive(Clone)]
pub struct Sealer {
    key: Vec<u8>,
}

/// What a request names: its kind, game, position, and (for a call-off) the proposer's seat.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Request {
    Takeback {
        game: i64,
        at: Stamp,
    },
    CallOff {
        game: i64,
        at: Stamp,
        seat: u8,
    },
    /// A member's confirmation, asked at `at` (Unix seconds), of deleting their data.
    Forget {
        user: u64,
        at: i64,
    },
}

impl Sealer {
    pub fn new(secret: &str) -> Sealer {
        Sealer {
            key: secret.as_bytes().to_vec(),
        }
    }

    /// The seal of `request`: the first 64 bits of its HMAC-SHA-256 under the key.
    pub fn seal(&self, request: Request) -> u64 {
        let text = match request {
            Request::Takeback { game, at } => {
                format!("hexcord takeback {game} {} {}", at.ply, at.takebacks)
            }
            Request::CallOff { game, at, seat } => {
                format!("hexcord call-off {game} {} {} {seat}", at.ply, at.takebacks)
            }
            Request::Forget { user, at } => format!("hexcord forget {user} {at}"),
        };
        let mut mac = match Hmac::<Sha256>::new_from_slice(&self.key) {
            Ok(mac) => mac,
            // HMAC takes a key of any length.
            Err(_) => return 0,
        };
        mac.update(text.as_bytes());
        let code = mac.finalize().into_bytes();
        let mut first = [0u8; 8];
        first.copy_from_slice(&code[..8]);
        u64::from_be_bytes(first)
    }

    /// Whether `seal` is `request`'s.
    pub fn holds(&self, request: Request, seal: u64) -> bool {
        self.seal(request) == seal
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seal_names_its_request_and_its_key() {
        let a = Sealer::new("token-a");
        let at = Stamp {
            ply: 3,
            takebacks: 1,
        };
        let tb = Request::Takeback { game: 9, at };
        let seal = a.seal(tb);
        assert!(a.holds(tb, seal));
        // Another position, game, kind or key: another seal.
        for other in [
            Request::Takeback {
                game: 9,
                at: Stamp {
                    ply: 3,
                    takebacks: 2,
                },
            },
            Request::Takeback { game: 10, at },
            Request::CallOff {
                game: 9,
                at,
                seat: 0,
            },
        ] {
            assert!(!a.holds(other, seal), "{other:?}");
        }
        assert!(!Sealer::new("token-b").holds(tb, seal));
    }
}
