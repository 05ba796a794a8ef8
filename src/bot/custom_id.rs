//! What a button's or menu's `custom_id` says: `hx:<verb>:<game or challenge>…`, written by
//! [`Component::encode`] and read back by [`Component::parse`], which refuses whatever this bot
//! did not write. The id carries all the state a press needs (the picker's path of choices, a
//! request's position and seal), so a button keeps working after a restart.

use crate::play::actions::Stamp;
use crate::play::picker::Path;

/// Buttons and menus, and what their `custom_id` says. The id carries all the state the press
/// needs, so a button keeps working after a restart.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Component {
    Accept(i64),
    Decline(i64),
    Withdraw(i64),
    Resign(i64),
    KeepPlaying(i64),
    /// The Move button under a board: opens a picker for the player to move.
    Move(i64),
    /// A picker step: game, the number of moves it was opened on, the choices so far. On a
    /// select menu, the option chosen is added to the path.
    Pick {
        game: i64,
        ply: i64,
        path: Path,
    },
    /// Plays the move the path completes.
    Play {
        game: i64,
        ply: i64,
        path: Path,
    },
    /// Closes a picker.
    Cancel(i64),
    /// In a coached game's picker: the coach's hint for the position on `ply` moves.
    Hint {
        game: i64,
        ply: i64,
    },
    /// Under a board of a game in play: opens the game page inside Discord (an Activity).
    Launch(i64),
    /// Under a finished game's board: offers its players a rematch.
    Rematch(i64),
    /// Under a board of a game in play: follow it (or stop).
    Follow(i64),
    /// Under a reminder of a game: the presser's private link to their inbox.
    Inbox(i64),
    /// Under a tournament's card: join it.
    Join(i64),
    /// Under a tournament's card: leave it before it starts.
    Leave(i64),
    /// The opponent's answer to a takeback of the move that made position `at`.
    Takeback {
        game: i64,
        at: Stamp,
        accept: bool,
        /// The request's seal ([`crate::bot::seal`]).
        seal: u64,
    },
    /// The other player's answer to pause proposal `pause` (the action checks who answers).
    Pause {
        pause: i64,
        accept: bool,
    },
    /// The other player's answer to `seat`'s proposal, at position `at`, to call the game off.
    CallOff {
        game: i64,
        at: Stamp,
        seat: u8,
        accept: bool,
        /// The proposal's seal ([`crate::bot::seal`]).
        seal: u64,
    },
    /// A puzzle's picker step: the member's attempt ([`crate::db::AttemptRow`]), the moves of
    /// its line played when the picker opened, the choices so far (as [`Component::Pick`]).
    PuzzlePick {
        attempt: i64,
        step: i64,
        path: Path,
    },
    /// Answers the puzzle with the move the path completes.
    PuzzlePlay {
        attempt: i64,
        step: i64,
        path: Path,
    },
    /// A level's picker step (`/learn`): the member whose level it is, their attempt's version
    /// when the picker opened ([`crate::db::LearnAttempt`]), the choices so far.
    LearnPick {
        user: u64,
        version: i64,
        path: Path,
    },
    /// Plays the move the path completes in the member's level.
    LearnPlay {
        user: u64,
        version: i64,
        path: Path,
    },
    /// Under a finished level: the member's next level of that game.
    LearnNext {
        user: u64,
        kind: crate::games::GameKind,
    },
    /// Under the last level of a stage: what to try next in that game ([`StageOffer`]).
    LearnOffer {
        user: u64,
        kind: crate::games::GameKind,
        offer: StageOffer,
    },
    /// Under a server's daily puzzle: solve puzzle `puzzle` privately (the press is checked
    /// against the server's daily posts, [`crate::play::daily`]).
    DailySolve(i64),
    /// Under a seek's card: accept seek `seek` in its `variant`-th variant (from 0).
    SeekAccept {
        seek: i64,
        variant: u8,
    },
    /// Under a seek's card: its author withdraws it.
    SeekWithdraw(i64),
    /// Under a server's seek roles: take the role (or drop it).
    SeekRole(u64),
    /// `/privacy delete`'s confirmation: member `user` asked at `at` (Unix seconds) to delete
    /// their data.
    Forget {
        user: u64,
        at: i64,
        /// The request's seal ([`crate::bot::seal`]).
        seal: u64,
    },
}

/// What the end of a stage of the course offers, beside a challenge to a member (which needs
/// a name: the stage's words point to `/challenge`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum StageOffer {
    /// A coached game against the bot at `beginner`.
    Bot,
    /// A puzzle of that game near the member's puzzle rating.
    Puzzle,
}

impl Component {
    pub fn encode(&self) -> String {
        let (verb, id) = match self {
            Component::Accept(id) => ("accept", id),
            Component::Decline(id) => ("decline", id),
            Component::Withdraw(id) => ("withdraw", id),
            Component::Resign(id) => ("resign", id),
            Component::KeepPlaying(id) => ("keep", id),
            Component::Move(id) => ("move", id),
            Component::Cancel(id) => ("cancel", id),
            Component::Rematch(id) => ("rematch", id),
            Component::Follow(id) => ("follow", id),
            Component::Launch(id) => ("launch", id),
            Component::Inbox(id) => ("inbox", id),
            Component::Join(id) => ("tjoin", id),
            Component::Leave(id) => ("tleave", id),
            Component::DailySolve(id) => ("daily", id),
            Component::SeekWithdraw(id) => ("unseek", id),
            Component::SeekAccept { seek, variant } => return format!("hx:seek{variant}:{seek}"),
            Component::SeekRole(role) => return format!("hx:srole:{role}"),
            Component::Pause { pause, accept } => {
                return format!("hx:{}:{pause}", if *accept { "pzyes" } else { "pzno" })
            }
            Component::Pick { game, ply, path } => {
                return format!("hx:pick:{game}:{ply}:{}", path.encode())
            }
            Component::Play { game, ply, path } => {
                return format!("hx:play:{game}:{ply}:{}", path.encode())
            }
            Component::Hint { game, ply } => return format!("hx:hint:{game}:{ply}"),
            Component::PuzzlePick {
                attempt,
                step,
                path,
            } => return format!("hx:zpick:{attempt}:{step}:{}", path.encode()),
            Component::PuzzlePlay {
                attempt,
                step,
                path,
            } => return format!("hx:zplay:{attempt}:{step}:{}", path.encode()),
            Component::LearnPick {
                user,
                version,
                path,
            } => return format!("hx:lpick:{user}:{version}:{}", path.encode()),
            Component::LearnPlay {
                user,
                version,
                path,
            } => return format!("hx:lplay:{user}:{version}:{}", path.encode()),
            Component::LearnNext { user, kind } => {
                return format!("hx:lnext:{user}:{}", kind.name())
            }
            Component::LearnOffer { user, kind, offer } => {
                let verb = match offer {
                    StageOffer::Bot => "lbot",
                    StageOffer::Puzzle => "lpuz",
                };
                return format!("hx:{verb}:{user}:{}", kind.name());
            }
            Component::Takeback {
                game,
                at,
                accept,
                seal,
            } => {
                let verb = if *accept { "tbyes" } else { "tbno" };
                return format!("hx:{verb}:{game}:{}:{}:{seal:016x}", at.ply, at.takebacks);
            }
            Component::Forget { user, at, seal } => {
                return format!("hx:forget:{user}:{at}:{seal:016x}");
            }
            Component::CallOff {
                game,
                at,
                seat,
                accept,
                seal,
            } => {
                let verb = if *accept { "offyes" } else { "offno" };
                return format!(
                    "hx:{verb}:{game}:{}:{seat}:{}:{seal:016x}",
                    at.ply, at.takebacks
                );
            }
        };
        format!("hx:{verb}:{id}")
    }

    /// `None` for an id this bot did not make.
    pub fn parse(custom_id: &str) -> Option<Component> {
        let mut parts = custom_id.split(':');
        if parts.next()? != "hx" {
            return None;
        }
        let verb = parts.next()?;
        let id: i64 = parts.next()?.parse().ok()?;
        if id <= 0 {
            return None;
        }
        let count = |part: Option<&str>| part?.parse::<i64>().ok().filter(|&n| n >= 0);
        let seal = |part: Option<&str>| {
            let part = part.filter(|p| p.len() == 16)?;
            u64::from_str_radix(part, 16).ok()
        };
        if let "offyes" | "offno" = verb {
            let ply = count(parts.next())?;
            let seat: u8 = parts.next()?.parse().ok().filter(|&s| s < 2)?;
            let takebacks = count(parts.next())?;
            let seal = seal(parts.next())?;
            if parts.next().is_some() {
                return None;
            }
            return Some(Component::CallOff {
                game: id,
                at: Stamp { ply, takebacks },
                seat,
                accept: verb == "offyes",
                seal,
            });
        }
        if verb == "hint" {
            let ply = count(parts.next())?;
            if parts.next().is_some() {
                return None;
            }
            return Some(Component::Hint { game: id, ply });
        }
        if let "lnext" | "lbot" | "lpuz" = verb {
            let kind = parts.next()?.parse().ok()?;
            if parts.next().is_some() {
                return None;
            }
            let user = u64::try_from(id).ok()?;
            return Some(match verb {
                "lnext" => Component::LearnNext { user, kind },
                "lbot" => Component::LearnOffer {
                    user,
                    kind,
                    offer: StageOffer::Bot,
                },
                _ => Component::LearnOffer {
                    user,
                    kind,
                    offer: StageOffer::Puzzle,
                },
            });
        }
        if verb == "forget" {
            let at = count(parts.next())?;
            let seal = seal(parts.next())?;
            if parts.next().is_some() {
                return None;
            }
            return Some(Component::Forget {
                user: u64::try_from(id).ok()?,
                at,
                seal,
            });
        }
        if let "tbyes" | "tbno" = verb {
            let ply = count(parts.next()).filter(|&p| p > 0)?;
            let takebacks = count(parts.next())?;
            let seal = seal(parts.next())?;
            if parts.next().is_some() {
                return None;
            }
            return Some(Component::Takeback {
                game: id,
                at: Stamp { ply, takebacks },
                accept: verb == "tbyes",
                seal,
            });
        }
        if let "pick" | "play" | "zpick" | "zplay" | "lpick" | "lplay" = verb {
            let ply: i64 = parts.next()?.parse().ok().filter(|&p| p >= 0)?;
            let path = Path::parse(parts.next()?)?;
            if parts.next().is_some() {
                return None;
            }
            return Some(match verb {
                "pick" => Component::Pick {
                    game: id,
                    ply,
                    path,
                },
                "play" => Component::Play {
                    game: id,
                    ply,
                    path,
                },
                "zpick" => Component::PuzzlePick {
                    attempt: id,
                    step: ply,
                    path,
                },
                "lpick" => Component::LearnPick {
                    user: u64::try_from(id).ok()?,
                    version: ply,
                    path,
                },
                "lplay" => Component::LearnPlay {
                    user: u64::try_from(id).ok()?,
                    version: ply,
                    path,
                },
                _ => Component::PuzzlePlay {
                    attempt: id,
                    step: ply,
                    path,
                },
            });
        }
        if parts.next().is_some() {
            return None;
        }
        if let Some(variant) = verb.strip_prefix("seek") {
            let variant: u8 = variant.parse().ok()?;
            return (usize::from(variant) < crate::play::actions::MAX_SEEK_VARIANTS
                && variant.to_string() == verb["seek".len()..])
                .then_some(Component::SeekAccept { seek: id, variant });
        }
        Some(match verb {
            "accept" => Component::Accept(id),
            "decline" => Component::Decline(id),
            "withdraw" => Component::Withdraw(id),
            "resign" => Component::Resign(id),
            "keep" => Component::KeepPlaying(id),
            "move" => Component::Move(id),
            "cancel" => Component::Cancel(id),
            "rematch" => Component::Rematch(id),
            "follow" => Component::Follow(id),
            "launch" => Component::Launch(id),
            "inbox" => Component::Inbox(id),
            "tjoin" => Component::Join(id),
            "tleave" => Component::Leave(id),
            "daily" => Component::DailySolve(id),
            "unseek" => Component::SeekWithdraw(id),
            "srole" => Component::SeekRole(u64::try_from(id).ok()?),
            "pzyes" | "pzno" => Component::Pause {
                pause: id,
                accept: verb == "pzyes",
            },
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::picker::Token;

    #[test]
    fn custom_ids_round_trip_and_foreign_ids_are_ignored() {
        for c in [
            Component::Accept(1),
            Component::Decline(22),
            Component::Withdraw(333),
            Component::Resign(i64::MAX),
            Component::KeepPlaying(5),
            Component::Move(6),
            Component::Cancel(7),
            Component::Join(8),
            Component::Leave(9),
            Component::Rematch(10),
            Component::Follow(13),
            Component::Launch(14),
            Component::Inbox(15),
            Component::DailySolve(16),
            Component::Hint { game: 17, ply: 0 },
            Component::Hint { game: 18, ply: 33 },
            Component::Takeback {
                game: 11,
                at: Stamp {
                    ply: 3,
                    takebacks: 2,
                },
                accept: true,
                seal: u64::MAX,
            },
            Component::Takeback {
                game: 11,
                at: Stamp {
                    ply: 3,
                    takebacks: 0,
                },
                accept: false,
                seal: 0,
            },
            Component::CallOff {
                game: 12,
                at: Stamp {
                    ply: 0,
                    takebacks: 1,
                },
                seat: 1,
                accept: true,
                seal: 0x0123_4567_89ab_cdef,
            },
            Component::Forget {
                user: 930_000_000_000_000_001,
                at: 1_900_000_000,
                seal: 0xfedc_ba98_7654_3210,
            },
            Component::Pick {
                game: 8,
                ply: 0,
                path: Path::default(),
            },
            Component::Play {
                game: 9,
                ply: 120,
                path: Path(vec![Token::Group(3), Token::Pick(24), Token::Pick(0)]),
            },
            Component::PuzzlePick {
                attempt: 16,
                step: 0,
                path: Path::default(),
            },
            Component::PuzzlePlay {
                attempt: 17,
                step: 4,
                path: Path(vec![Token::Pick(2), Token::Pick(0)]),
            },
            Component::LearnPick {
                user: 930_000_000_000_000_001,
                version: 1,
                path: Path::default(),
            },
            Component::LearnPlay {
                user: 930_000_000_000_000_001,
                version: 40,
                path: Path(vec![Token::Group(1), Token::Pick(3)]),
            },
            Component::LearnNext {
                user: 930_000_000_000_000_001,
                kind: crate::games::GameKind::Exxit,
            },
            Component::LearnOffer {
                user: 930_000_000_000_000_001,
                kind: crate::games::GameKind::Inphexion,
                offer: StageOffer::Bot,
            },
            Component::LearnOffer {
                user: 930_000_000_000_000_001,
                kind: crate::games::GameKind::Exxit,
                offer: StageOffer::Puzzle,
            },
            Component::SeekAccept {
                seek: 18,
                variant: 3,
            },
            Component::SeekWithdraw(19),
            Component::SeekRole(930_000_000_000_000_002),
        ] {
            assert_eq!(Component::parse(&c.encode()), Some(c.clone()));
            assert!(c.encode().len() <= crate::bot::limits::CUSTOM_ID, "{c:?}");
        }
        // The longest picker path (inpHeXion: two steps and six relocations, each narrowed,
        // from menus of at most 25 options) in a game numbered in the billions fits Discord's
        // limit on a custom_id.
        let longest = Component::Play {
            game: 1_000_000_000,
            ply: 999,
            path: Path(
                (0..9)
                    .flat_map(|_| [Token::Group(24), Token::Pick(24)])
                    .collect(),
            ),
        };
        let Component::Play { path, .. } = longest.clone() else {
            unreachable!()
        };
        let puzzle = Component::PuzzlePlay {
            attempt: 1_000_000_000,
            step: 99,
            path,
        };
        for longest in [longest, puzzle] {
            assert_eq!(Component::parse(&longest.encode()), Some(longest.clone()));
            assert!(
                longest.encode().len() <= crate::bot::limits::CUSTOM_ID,
                "{longest:?}"
            );
        }
        assert_eq!(
            Component::parse("hx:pick:4:2:g1.3"),
            Some(Component::Pick {
                game: 4,
                ply: 2,
                path: Path(vec![Token::Group(1), Token::Pick(3)])
            })
        );
        assert_eq!(Component::Accept(7).encode(), "hx:accept:7");
        assert_eq!(Component::Join(7).encode(), "hx:tjoin:7");
        for bad in [
            "",
            "hx",
            "hx:accept",
            "hx:accept:x",
            "hx:accept:0",
            "hx:accept:-1",
            "hx:fly:3",
            "hx:seek4:3",
            "hx:seek01:3",
            "hx:seek:3",
            "xx:accept:3",
            "hx:accept:3:4",
            "hx:move:3:4",
            "hx:tjoin:0",
            "hx:tjoin:3:4",
            "hx:tleave:x",
            "hx:pick:3",
            "hx:pick:3:-1:",
            "hx:pick:3:1:x",
            "hx:play:3:1:1:2",
            "hx:zpick:0:0:",
            "hx:zplay:3:-2:1",
            "hx:zplay:3:1:1:2",
            "hx:tbyes:3",
            "hx:tbno:3:0",
            "hx:tbyes:3:1:2:4",
            "hx:tbno:3:1:-1:0123456789abcdef",
            "hx:offyes:3:1",
            "hx:offyes:3:1:2:0:0123456789abcdef",
            "hx:offno:3:1:0:0:0123456789abcdef:0",
            "hx:tbyes:3:1:0:0123456789abcdeg",
            "hx:tbyes:3:1:0:123456789abcdef",
            "hx:forget:3:100",
            "hx:lnext:3",
            "hx:lnext:3:chess",
            "hx:lnext:3:exxit:1",
            "hx:lbot:3",
            "hx:lpuz:3:go",
            "hx:lbot:-3:exxit",
            "hx:lpuz:3:exxit:0",
            "hx:lpick:0:1:",
            "hx:lplay:3:-1:",
            "hx:forget:3:-1:0123456789abcdef",
            "hx:forget:0:100:0123456789abcdef",
            "hx:forget:3:100:0123456789abcdef:0",
            // Requests from before they named their position and had a seal: stale.
            "hx:tbyes:3:1",
            "hx:offno:3:1:0",
            "hx:tbyes:3:1:0",
        ] {
            assert_eq!(Component::parse(bad), None, "{bad}");
        }
    }
}
