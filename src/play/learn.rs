//! Learn to play, stored ([`crate::learn`] judges, [`crate::db`]'s `learn_*` tables keep): a
//! member's next level ([`open_level`]) and each of their moves answered ([`answer_level`]).
//!
//! A member plays one level at a time; their attempt row keeps its moves, the moves they tried
//! and a version that every change bumps. A picker names the version it was opened at, so a
//! second press, an old picker or a level that no longer exists changes nothing and is answered
//! in words. `/learn` is the bot's front end.

use std::collections::HashMap;

use crate::db::{self, LearnAttempt, Pool, UserId};
use crate::games::{Game, GameKind};
use crate::i18n::{Lang, Text};
use crate::learn::{self, Place, Verdict};
use crate::text;

use super::Error;

/// A level opened for a member.
#[derive(Clone, Debug)]
pub struct Opened {
    pub place: Place,
    pub attempt: LearnAttempt,
    /// What to say first: the level was taken up where it was left, or the one being played is
    /// no longer in the course.
    pub head: Option<Text>,
}

/// A move in words, read on `game` before it: "Push the disc on c3 to d3 (c3-d3)".
pub fn move_words(lang: Lang, game: &Game, notation: &str) -> String {
    match super::picker::describe_notation(lang, game.position(), notation) {
        Some(w) => format!("{w} ({notation})"),
        None => notation.to_string(),
    }
}

/// A level done with `last`, played on `before`: the move in words and the stars earned (★★☆),
/// as `/learn` and the learn page both say it.
pub fn done_text(lang: Lang, before: &Game, last: &str, stars: u8) -> Text {
    let shown: String = (0..3).map(|i| if i < stars { '★' } else { '☆' }).collect();
    text!(
        "learn-done",
        words = move_words(lang, before, last),
        stars = shown
    )
}

/// The levels `user` finished, with their best stars, by key.
pub async fn progress(pool: &Pool, user: UserId) -> Result<HashMap<String, u8>, Error> {
    Ok(db::learn_progress(pool, user).await?.into_iter().collect())
}

/// `user`'s level: the one they are playing (of `kind` when given), else the first they have
/// not finished (of `kind`, else of the first game with one left).
pub async fn open_level(
    pool: &Pool,
    user: UserId,
    kind: Option<GameKind>,
    now: i64,
) -> Result<Opened, Error> {
    let mut head = None;
    if let Some(a) = db::fetch_learn_attempt(pool, user).await? {
        if !a.level.is_empty() {
            match learn::find(&a.level) {
                Some(place) if kind.is_none_or(|k| k == place.kind) => {
                    if learn::replay(place.level, &a.moves).is_ok() {
                        return Ok(Opened {
                            place,
                            attempt: a,
                            head: Some(text!("learn-resumed")),
                        });
                    }
                    head = Some(text!("learn-gone"));
                }
                Some(_) => {}
                None => head = Some(text!("learn-gone")),
            }
        }
    }
    let done = progress(pool, user).await?;
    let kinds = kind.map_or(GameKind::ALL.to_vec(), |k| vec![k]);
    let Some(place) = kinds
        .iter()
        .find_map(|&k| learn::next_open(k, &|key| done.contains_key(key)))
    else {
        return Err(Error::refused(match kind {
            Some(k) => text!("learn-all-done-of", game = k.title()),
            None => text!("learn-all-done"),
        }));
    };
    let version = db::start_learn_attempt(pool, user, &place.key(), now).await?;
    Ok(Opened {
        place,
        attempt: LearnAttempt {
            player_id: user,
            level: place.key(),
            moves: Vec::new(),
            tries: 0,
            version,
        },
        head,
    })
}

/// `user`'s attempt at `version`, with its level: refused (nothing changes) when it has moved on
/// (an old picker) or its level is no longer in the course.
pub async fn open_at(
    pool: &Pool,
    user: UserId,
    version: i64,
) -> Result<(LearnAttempt, Place), Error> {
    let Some(a) = db::fetch_learn_attempt(pool, user).await? else {
        return Err(Error::refused(text!("learn-stale")));
    };
    if a.version != version || a.level.is_empty() {
        return Err(Error::refused(text!("learn-stale")));
    }
    let Some(place) = learn::find(&a.level) else {
        return Err(Error::refused(text!("learn-gone")));
    };
    Ok((a, place))
}

/// What a member's move did.
#[derive(Clone, Debug)]
pub enum Answered {
    /// Not played (refused), or the level starts again (missed): why, and the attempt as it is
    /// now.
    Again {
        place: Place,
        attempt: LearnAttempt,
        why: Text,
    },
    /// Played, and the opponent replied: the attempt goes on.
    Next {
        place: Place,
        attempt: LearnAttempt,
        mv: String,
        reply: String,
    },
    /// The level is done: its moves to the end, the stars, and the next level of the game.
    Done {
        place: Place,
        moves: Vec<String>,
        stars: u8,
        next: Option<Place>,
    },
}

/// A move judged ([`learn::judge`]), before anything is stored: the moves of the level after
/// it and the tries counted.
#[derive(Clone, Debug)]
pub enum Played {
    /// Not played (refused), or the level starts again (missed): why, and the moves now.
    Again {
        moves: Vec<String>,
        tries: i64,
        why: Text,
    },
    /// Played, and the opponent replied.
    Next {
        moves: Vec<String>,
        tries: i64,
        mv: String,
        reply: String,
    },
    /// The level is done: its moves to the end and the stars.
    Done { moves: Vec<String>, stars: u8 },
}

/// `mv` (move text) played in `place`'s level after `moves` (replies included), `tries` moves
/// tried before it: judged once. A level that does not replay is logged and refused as gone.
pub fn play(place: &Place, moves: &[String], tries: i64, mv: &str) -> Result<Played, Error> {
    let tries = tries.saturating_add(1);
    let verdict = learn::judge(
        place,
        moves,
        mv,
        usize::try_from(tries).unwrap_or(usize::MAX),
    )
    .map_err(|e| {
        tracing::error!(level = %place.key(), "a level does not replay: {e}");
        Error::refused(text!("learn-gone"))
    })?;
    Ok(match verdict {
        Verdict::Done { mv, stars } => {
            let mut moves = moves.to_vec();
            moves.push(mv);
            Played::Done { moves, stars }
        }
        Verdict::Next { mv, reply } => {
            let mut moves = moves.to_vec();
            moves.push(mv.clone());
            moves.push(reply.clone());
            Played::Next {
                moves,
                tries,
                mv,
                reply,
            }
        }
        Verdict::Refused { why } => Played::Again {
            moves: moves.to_vec(),
            tries,
            why,
        },
        Verdict::Missed { why } => Played::Again {
            moves: Vec::new(),
            tries,
            why,
        },
    })
}

/// A move in a level played where nothing is stored (in the browser: local play, a visitor
/// without a member's link), the page keeping the level's key, its moves and tries: the same
/// judgement as [`answer_level`]'s. Refused (nothing to change) when the level is no longer in
/// the course or its moves do not replay there.
pub fn answer_unstored(
    key: &str,
    moves: &[String],
    tries: i64,
    mv: &str,
) -> Result<(Place, Played), Error> {
    let gone = || Error::refused(text!("learn-gone"));
    let place = learn::find(key).ok_or_else(gone)?;
    if learn::replay(place.level, moves).is_err() {
        return Err(gone());
    }
    let played = play(&place, moves, tries.max(0), mv)?;
    Ok((place, played))
}

/// `user` plays `mv` (move text) in their attempt at `version`: judged once ([`play`]),
/// stored, and the level finished or moved on.
pub async fn answer_level(
    pool: &Pool,
    user: UserId,
    version: i64,
    mv: &str,
    now: i64,
) -> Result<Answered, Error> {
    let (a, place) = open_at(pool, user, version).await?;
    let stale = || Error::refused(text!("learn-stale"));
    let (moves, tries, why) = match play(&place, &a.moves, a.tries, mv)? {
        Played::Done { moves, stars } => {
            let mut tx = pool.begin().await?;
            if !db::end_learn_attempt(&mut *tx, user, version, now).await? {
                return Err(stale());
            }
            db::record_learn_level(&mut *tx, user, &place.key(), stars, now).await?;
            tx.commit().await?;
            let done = progress(pool, user).await?;
            let next = learn::next_open(place.kind, &|key| done.contains_key(key));
            return Ok(Answered::Done {
                place,
                moves,
                stars,
                next,
            });
        }
        Played::Next {
            moves,
            tries,
            mv,
            reply,
        } => {
            if !db::update_learn_attempt(pool, user, version, &moves, tries, now).await? {
                return Err(stale());
            }
            let attempt = LearnAttempt {
                moves,
                tries,
                version: version + 1,
                ..a
            };
            return Ok(Answered::Next {
                place,
                attempt,
                mv,
                reply,
            });
        }
        Played::Again { moves, tries, why } => (moves, tries, why),
    };
    if !db::update_learn_attempt(pool, user, version, &moves, tries, now).await? {
        return Err(stale());
    }
    Ok(Answered::Again {
        place,
        attempt: LearnAttempt {
            moves,
            tries,
            version: version + 1,
            ..a
        },
        why,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::testing::both_backends;

    both_backends! {
        async fn a_member_walks_the_first_stage_with_a_wrong_move(pool) {
            let ann = UserId(u64::MAX - 9);
            db::upsert_player(&pool, ann, "ann", 1).await.unwrap();
            let opened = open_level(&pool, ann, Some(GameKind::Inphexion), 1).await.unwrap();
            assert_eq!(opened.place.key(), "inphexion/first-disc");
            let v = opened.attempt.version;
            // The named wrong move: refused, the attempt moves on (a try counted).
            let Answered::Again { attempt, why, .. } =
                answer_level(&pool, ann, v, "a1", 2).await.unwrap()
            else {
                panic!("a1 is not the goal")
            };
            assert_eq!(why.id, "learn-inphexion-first-disc-corner");
            assert_eq!(attempt.tries, 1);
            // The old picker is stale now.
            assert!(matches!(
                answer_level(&pool, ann, v, "c3", 3).await,
                Err(Error::Refused(_))
            ));
            let Answered::Done { stars, next, .. } =
                answer_level(&pool, ann, attempt.version, "c3", 3).await.unwrap()
            else {
                panic!("c3 is the goal")
            };
            assert_eq!(stars, 2);
            assert_eq!(next.map(|n| n.key()).as_deref(), Some("inphexion/white-connects"));
            // The next /learn opens the next level; a level left half-played is taken up again.
            let opened = open_level(&pool, ann, None, 4).await.unwrap();
            assert_eq!(opened.place.key(), "inphexion/white-connects");
            let again = open_level(&pool, ann, None, 5).await.unwrap();
            assert_eq!(again.attempt.version, opened.attempt.version);
            assert_eq!(again.head.map(|h| h.id.into_owned()).as_deref(), Some("learn-resumed"));
            // A level that is no longer in the course: said, and the next one opened.
            let version = db::start_learn_attempt(&pool, ann, "inphexion/retired", 6).await.unwrap();
            assert!(matches!(answer_level(&pool, ann, version, "c3", 7).await, Err(Error::Refused(_))));
            let opened = open_level(&pool, ann, None, 8).await.unwrap();
            assert_eq!(opened.head.map(|h| h.id.into_owned()).as_deref(), Some("learn-gone"));
            assert_eq!(opened.place.key(), "inphexion/white-connects");
            assert_eq!(progress(&pool, ann).await.unwrap().get("inphexion/first-disc"), Some(&2));
        }
    }
}
