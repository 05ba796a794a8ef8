//! Tournaments: create, join, leave, start, pair a round, withdraw, and what happens when one
//! of their games ends.
//!
//! - **Games** of a round start as ordinary games ([`start_game`]: the same threads, deadlines,
//!   reminders, takebacks, ratings when the event is rated), each tagged by its pairing.
//! - **Formats**: everything that differs between a Swiss event and a round robin (its rounds,
//!   pairing, byes, late entries, withdrawals, tie-breaks, export kind, end) is asked of its
//!   format ([`crate::pairings::format::Format`]); nothing here names one. Adding a format is
//!   one implementation and one registration there.
//! - **Rounds**: when every game of the round before has ended, the format pairs what comes
//!   next: a Swiss round by the Dutch system ([`crate::pairings::pair`]); a round robin is
//!   paired whole at the start by the Berger tables, every game starting at once. The event
//!   ends when its format says it is over: its final standings name the winner.
//! - **Advancing** (the start, each next round, the end) is claimed in the database
//!   ([`db::claim_advance`]) and stored in one transaction with the round's games and
//!   announcements, checked against the event's version: two processes never pair a round twice,
//!   and a process killed while pairing leaves nothing stored (its claim runs out and the timers'
//!   scan, [`advance_due`], takes the event up again).
//! - **Byes**: 1 point in Swiss (the pairing-allocated bye), 0 in a round robin; a late joiner
//!   (Swiss only, while fewer than half the rounds are paired) gets a ½-point bye for each round
//!   already paired.
//! - **Withdrawals**: a withdrawing player's game in progress is resigned (Swiss) and they are
//!   paired no more; in a round robin their undecided games are called off and scored as
//!   forfeits, which are not played games for the tiebreaks. Two tournament games lost on time
//!   withdraw a player, and so does leaving the event's server (after their Swiss game in
//!   progress).
//! - **Organisers** (its creator, members who manage the server or its events) call an event
//!   off, pause and resume its next round, remove a player and correct a result: see
//!   [`cancel_tournament`], [`pause_round`], [`remove_player`], [`correct_result`]. An event
//!   called off (by them, or with too few players at the end of sign-up) is closed by one
//!   function, which tells its players and edits its card.
//! - **Standings** ([`crate::standings`], by the format's ranking) follow every round paired
//!   after another (Swiss) and close the event, in words and as a picture (drawn when posted:
//!   [`Target::Standings`]); the event's card is edited to show its count and state
//!   ([`Target::Card`]). The event's page on the web board reads it as it stands
//!   ([`event_now`]).
//!
//! Every announcement goes through the delivery queue, in the server's language. Where the
//! server wants threads, the event gets its own, opened on its card ([`card_posted`]): its
//! rounds, pairings, byes and standings are posted there ([`Target::Tournament`]), its result
//! in its channel too; a thread that cannot be opened or refuses posts leaves them in the channel.

use std::collections::HashMap;

use tracing::{error, info};

use super::game::{start_game, store_ending, win_for, Core};
use crate::db::{
    self, Announcement, ChannelId, Conn, DbError, Finish, GameResult, GameStatus, GuildId, NewGame,
    NewPairing, NewTournament, PairingResult, PairingRow, Target, TournamentFormat,
    TournamentPlayer, TournamentRow, TournamentStatus, UserId,
};
use crate::games::{Options, Reason};
use crate::i18n::{Lang, Text};
use crate::pairings;
use crate::play::access::{colour_of, mention};
use crate::play::schedule::{first_turn, ClockPlace};
use crate::play::Error;
use crate::standings::{self, Round, Standing};
use crate::text;
use crate::time_control::TimeControl;

mod export;
mod organise;
mod rounds;
mod table;
mod withdraw;

pub use export::*;
pub use organise::*;
pub use rounds::*;
pub use table::*;
pub use withdraw::*;

/// The most rounds of a Swiss event.
pub const MAX_ROUNDS: i64 = 20;
/// The longest name of a tournament, in characters.
pub const MAX_NAME_CHARS: usize = 80;
/// How long a process holds the claim on advancing an event (ms).
const ADVANCE_LEASE_MS: i64 = 60_000;
/// How many times [`advance`] looks again at a round that became due while it held the claim.
const ADVANCE_TRIES: usize = 3;
/// Tournament games lost on time that withdraw a player.
pub const TIMEOUTS_TO_WITHDRAW: i64 = 2;

/// What a new tournament needs.
#[derive(Clone, Debug)]
pub struct TournamentRequest {
    pub guild_id: GuildId,
    pub channel_id: ChannelId,
    pub creator: UserId,
    /// The creator manages the server or its events.
    pub manager: bool,
    pub name: String,
    pub options: Options,
    pub format: TournamentFormat,
    /// Swiss only: the number of rounds.
    pub rounds: Option<i64>,
    pub seconds_per_move: i64,
    pub rated: bool,
    pub max_players: Option<i64>,
    /// The end of sign-up (Unix seconds); `None`: started by hand.
    pub starts_at: Option<i64>,
    /// A Fischer clock or another time control (`None`: `seconds_per_move` for every move).
    pub time_control: Option<TimeControl>,
    /// Whether its games take weekends off (`None`: as the server's setting says).
    pub weekends_off: Option<bool>,
}

/// Checks a request's settings: a refusal names the first that cannot work.
fn check_settings(req: &TournamentRequest, now: i64) -> Result<(), Error> {
    let name = req.name.trim();
    if name.is_empty() || name.chars().count() > MAX_NAME_CHARS || name.contains('\n') {
        return Err(Error::refused(text!(
            "tournament-bad-name",
            max = MAX_NAME_CHARS as i64
        )));
    }
    let most = req.format.max_players();
    if let Some(max) = req.max_players {
        if !(2..=most).contains(&max) {
            return Err(Error::refused(text!(
                "tournament-bad-limit",
                max = max,
                most = most
            )));
        }
    }
    match (req.format.rounds_chosen(), req.rounds) {
        (true, None) => return Err(Error::refused(text!("tournament-rounds-needed"))),
        (true, Some(r)) => {
            if !(1..=MAX_ROUNDS).contains(&r) {
                return Err(Error::refused(text!(
                    "tournament-bad-rounds",
                    rounds = r,
                    most = MAX_ROUNDS
                )));
            }
            if let Some(max) = req.max_players.filter(|&max| r > max - 1) {
                return Err(Error::refused(text!(
                    "tournament-too-many-rounds",
                    rounds = r,
                    players = max
                )));
            }
        }
        (false, Some(_)) => return Err(Error::refused(text!("tournament-rounds-swiss-only"))),
        (false, None) => {}
    }
    if req.seconds_per_move <= 0 {
        return Err(anyhow::anyhow!("time per move {} s", req.seconds_per_move).into());
    }
    if req.starts_at.is_some_and(|at| at <= now) {
        return Err(Error::refused(text!("tournament-start-past")));
    }
    Ok(())
}

/// Creates a tournament taking sign-ups; by default only members who manage the server or its
/// events may, unless the server opened it to everyone. Returns its id and its card (the text
/// of its announcement, which the front end posts with Join and Leave buttons and records with
/// [`db::set_tournament_message`]).
pub async fn create_tournament(core: &Core, req: &TournamentRequest) -> Result<(i64, Text), Error> {
    let now = core.clock.now();
    if !req.manager && !db::tournaments_open(&core.pool, req.guild_id).await? {
        return Err(Error::refused(text!("tournament-create-not-allowed")));
    }
    check_settings(req, now)?;
    let time_control = match req.time_control {
        Some(c) => c,
        None => TimeControl::per_move(req.seconds_per_move)
            .map_err(|e| anyhow::anyhow!("time per move {} s: {e}", req.seconds_per_move))?,
    };
    let weekends_off = match req.weekends_off {
        Some(w) => w,
        None => {
            db::fetch_server_clock(&core.pool, req.guild_id)
                .await?
                .weekends_off
        }
    };
    let id = db::insert_tournament(
        &core.pool,
        &NewTournament {
            guild_id: req.guild_id,
            channel_id: req.channel_id,
            creator_id: req.creator,
            name: req.name.trim(),
            options: &req.options,
            format: req.format,
            rounds: req.rounds,
            seconds_per_move: req.seconds_per_move,
            rated: req.rated,
            max_players: req.max_players,
            starts_at: req.starts_at,
            now,
            time_control: Some(time_control),
            weekends_off,
        },
    )
    .await?;
    let t = fetch(&core.pool, id).await?;
    info!(tournament = id, "tournament created");
    Ok((id, card(&t, 0)))
}

/// The name of a tournament's thread: `🏆 #3 Autumn cup`, fitted to Discord's limit.
pub fn tournament_thread_name(id: i64, name: &str) -> String {
    crate::bot::limits::fit(&format!("🏆 #{id} {name}"), crate::bot::limits::THREAD_NAME)
}

/// Records the message showing tournament `id`'s card and, when its server wants threads,
/// queues the opening of the tournament's thread on it: its rounds, pairings, byes and standings
/// are posted there (the delivery falls back to its channel when the thread cannot be opened or
/// refuses posts).
pub async fn card_posted(core: &Core, id: i64, message: db::MessageId) -> Result<(), Error> {
    let mut tx = core.pool.begin().await?;
    db::set_tournament_message(&mut *tx, id, message).await?;
    let t = fetch(&mut *tx, id).await?;
    if db::fetch_server_settings(&mut *tx, t.guild_id)
        .await?
        .threads
    {
        let open = Announcement {
            target: Target::OpenTournamentThread {
                tournament: id,
                channel: t.channel_id,
                message,
            },
            content: tournament_thread_name(id, &t.name),
            mentions: Vec::new(),
            board: None,
            concerned: Vec::new(),
            lang: crate::i18n::FALLBACK.to_string(),
        };
        db::enqueue(&mut *tx, None, &open).await?;
    }
    tx.commit().await?;
    core.wake_delivery();
    Ok(())
}

/// A tournament's card: its settings, how many have joined and when it starts.
pub fn card(t: &TournamentRow, players: i64) -> Text {
    let limit = match t.max_players {
        Some(max) => text!("tournament-count-of", count = players, max = max),
        None => text!("tournament-count", count = players),
    };
    let start = match (t.status, t.starts_at) {
        (TournamentStatus::Signup, Some(at)) => text!("tournament-starts-at", at = at),
        (TournamentStatus::Signup, None) => text!("tournament-starts-by-hand"),
        (TournamentStatus::Running, _) => text!(
            "tournament-running",
            round = t.rounds_paired,
            rounds = t.rounds.unwrap_or(0)
        ),
        (TournamentStatus::Finished, _) => text!("tournament-finished"),
        (TournamentStatus::Cancelled, _) => text!("tournament-cancelled-state"),
    };
    text!(
        "tournament-card",
        id = t.id,
        name = t.name.clone(),
        format = format_words(t),
        options = crate::play::words::variant(&t.options),
        time = crate::play::words::time_control(
            t.time_control.unwrap_or(TimeControl::PerMove {
                seconds: t.seconds_per_move
            }),
            t.weekends_off
        ),
        rated = if t.rated {
            text!("rated")
        } else {
            text!("unrated")
        },
        players = limit,
        start = start
    )
}

fn format_words(t: &TournamentRow) -> Text {
    t.format.words(t.rounds.unwrap_or(0))
}

async fn fetch(ex: impl db::Executor<'_>, id: i64) -> Result<TournamentRow, Error> {
    db::fetch_tournament(ex, id)
        .await?
        .ok_or_else(|| Error::refused(text!("tournament-not-found", id = id)))
}

/// Takes tournament `id` in the transaction, refusing one of another server.
async fn take(tx: &mut Conn, id: i64, guild: Option<GuildId>) -> Result<TournamentRow, Error> {
    let t = db::take_tournament(tx, id)
        .await?
        .ok_or_else(|| Error::refused(text!("tournament-not-found", id = id)))?;
    if guild != Some(t.guild_id) {
        return Err(Error::refused(text!("tournament-other-server", id = id)));
    }
    Ok(t)
}

fn closed(t: &TournamentRow) -> Result<(), Error> {
    if matches!(
        t.status,
        TournamentStatus::Finished | TournamentStatus::Cancelled
    ) {
        return Err(Error::refused(text!(
            "tournament-over",
            name = t.name.clone()
        )));
    }
    Ok(())
}

/// A line in the tournament's thread (or its channel, without one).
fn notice(t: &TournamentRow, lang: Lang, content: String, mentions: Vec<UserId>) -> Announcement {
    Announcement {
        target: Target::Tournament {
            tournament: t.id,
            channel: t.channel_id,
        },
        content,
        mentions,
        board: None,
        concerned: Vec::new(),
        lang: lang.tag().to_string(),
    }
}

/// Queues the edit of tournament `id`'s card (when it was posted) to show it as it now stands:
/// its count, its state. In the transaction of the change.
async fn enqueue_card(tx: &mut Conn, id: i64, lang: Lang) -> Result<(), Error> {
    let Some(t) = db::fetch_tournament(&mut *tx, id).await? else {
        return Ok(());
    };
    let Some(message) = t.message_id else {
        return Ok(());
    };
    let players = db::tournament_players(&mut *tx, id)
        .await?
        .iter()
        .filter(|p| p.withdrawn_round.is_none())
        .count() as i64;
    let edit = Announcement {
        target: Target::Card {
            channel: t.channel_id,
            message,
            tournament: id,
        },
        content: card(&t, players).render(lang),
        mentions: Vec::new(),
        board: None,
        concerned: Vec::new(),
        lang: lang.tag().to_string(),
    };
    db::enqueue(&mut *tx, None, &edit).await?;
    Ok(())
}

/// In the caller's transaction: closes event `t` (as read there) as called off, nobody winning
/// it, tells all its players `line` and edits its card. Returns `false`, writing nothing, when
/// the event changed since it was read (another process moved it on).
async fn call_off(tx: &mut Conn, t: &TournamentRow, line: Text, now: i64) -> Result<bool, Error> {
    if !db::close_tournament(
        &mut *tx,
        t.id,
        t.version,
        TournamentStatus::Cancelled,
        None,
        now,
    )
    .await?
    {
        return Ok(false);
    }
    let lang = crate::play::server_lang(&mut *tx, Some(t.guild_id)).await?;
    let all = db::tournament_players(&mut *tx, t.id)
        .await?
        .iter()
        .map(|p| p.player_id)
        .collect();
    let line = line.render(lang);
    db::enqueue(&mut *tx, None, &notice(t, lang, line, all)).await?;
    enqueue_card(tx, t.id, lang).await?;
    Ok(true)
}

/// What a join or a leave changed: the event and how many are in it now (for its card).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entered {
    pub tournament: TournamentRow,
    pub players: i64,
    /// The answer to the member.
    pub text: Text,
}

/// `user` joins tournament `id` from server `guild`. While it takes sign-ups, within its limit;
/// a Swiss event already running takes a late joiner while fewer than half its rounds are
/// paired, with a ½-point bye for each round paired already.
pub async fn join_tournament(
    core: &Core,
    id: i64,
    guild: Option<GuildId>,
    user: UserId,
) -> Result<Entered, Error> {
    let now = core.clock.now();
    let mut tx = core.pool.begin().await?;
    let t = take(&mut tx, id, guild).await?;
    closed(&t)?;
    let players = db::tournament_players(&mut *tx, id).await?;
    if players.iter().any(|p| p.player_id == user) {
        return Err(Error::refused(text!(
            "tournament-already-joined",
            name = t.name.clone()
        )));
    }
    let active = players
        .iter()
        .filter(|p| p.withdrawn_round.is_none())
        .count() as i64;
    let late = t.status == TournamentStatus::Running;
    if late {
        let rounds = t.rounds.unwrap_or(0);
        if !t.format.takes_late_entries(t.rounds_paired, rounds) {
            return Err(Error::refused(text!(
                "tournament-started",
                name = t.name.clone()
            )));
        }
    }
    if t.max_players.is_some_and(|max| active >= max) {
        return Err(Error::refused(text!(
            "tournament-full",
            name = t.name.clone(),
            max = t.max_players.unwrap_or(0)
        )));
    }
    db::insert_tournament_player(&mut *tx, id, user, t.rounds_paired, now).await?;
    if late {
        let pairings = db::tournament_pairings(&mut *tx, id).await?;
        for round in 1..=t.rounds_paired {
            let board = pairings
                .iter()
                .filter(|p| p.round == round)
                .map(|p| p.board)
                .max()
                .unwrap_or(0)
                + 1;
            db::insert_pairing(
                &mut *tx,
                id,
                &NewPairing {
                    round,
                    board,
                    white: user,
                    black: None,
                    bye_halves: Some(1),
                    game_id: None,
                },
            )
            .await?;
        }
        let lang = crate::play::server_lang(&mut *tx, Some(t.guild_id)).await?;
        let line = text!(
            "tournament-joined-late",
            who = mention(user),
            name = t.name.clone(),
            rounds = t.rounds_paired
        )
        .render(lang);
        db::enqueue(&mut *tx, None, &notice(&t, lang, line, Vec::new())).await?;
    }
    if !db::touch_tournament(&mut *tx, id, t.version, now).await? {
        return Err(DbError::Conflict(id).into());
    }
    let lang = crate::play::server_lang(&mut *tx, Some(t.guild_id)).await?;
    enqueue_card(&mut tx, id, lang).await?;
    tx.commit().await?;
    core.wake_delivery();
    info!(tournament = id, %user, late, "joined a tournament");
    Ok(Entered {
        players: active + 1,
        text: if late {
            text!(
                "tournament-you-joined-late",
                name = t.name.clone(),
                rounds = t.rounds_paired
            )
        } else {
            text!("tournament-you-joined", name = t.name.clone())
        },
        tournament: fetch(&core.pool, id).await?,
    })
}

/// `user` leaves tournament `id` before it starts (once it runs, they withdraw).
pub async fn leave_tournament(
    core: &Core,
    id: i64,
    guild: Option<GuildId>,
    user: UserId,
) -> Result<Entered, Error> {
    let now = core.clock.now();
    let mut tx = core.pool.begin().await?;
    let t = take(&mut tx, id, guild).await?;
    closed(&t)?;
    if t.status != TournamentStatus::Signup {
        return Err(Error::refused(text!(
            "tournament-leave-started",
            name = t.name.clone()
        )));
    }
    if !db::delete_tournament_player(&mut *tx, id, user).await? {
        return Err(Error::refused(text!(
            "tournament-not-joined",
            name = t.name.clone()
        )));
    }
    if !db::touch_tournament(&mut *tx, id, t.version, now).await? {
        return Err(DbError::Conflict(id).into());
    }
    let players = db::tournament_players(&mut *tx, id).await?.len() as i64;
    let lang = crate::play::server_lang(&mut *tx, Some(t.guild_id)).await?;
    enqueue_card(&mut tx, id, lang).await?;
    tx.commit().await?;
    core.wake_delivery();
    Ok(Entered {
        players,
        text: text!("tournament-you-left", name = t.name.clone()),
        tournament: fetch(&core.pool, id).await?,
    })
}

#[cfg(test)]
mod tests;
