//! Tournaments: create, join, leave, start, pair a round, withdraw, and what happens when one
//! of their games ends.
//!
//! - **Games** of a round start as ordinary games ([`start_game`]: the same threads, deadlines,
//!   reminders, takebacks, ratings when the event is rated), each tagged by its pairing.
//! - **Rounds**: a Swiss round is paired by the Dutch system ([`crate::pairings::pair`]) when
//!   every game of the round before has ended; a round robin is paired whole at the start by the
//!   Berger tables, every game starting at once. The event ends when its last round is decided:
//!   its final standings name the winner.
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
//!   withdraw a player.
//! - **Standings** ([`crate::standings`]) follow every Swiss round and close the event, in
//!   words and as a picture (drawn when posted: [`Target::Standings`]); the event's card is
//!   edited to show its count and state ([`Target::Card`]).
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
use crate::standings::{self, Format, Round, Standing};
use crate::text;
use crate::time_control::TimeControl;

/// The most players a tournament takes.
pub const MAX_PLAYERS: i64 = 256;
/// The most players a round robin takes (each plays all the others at once).
pub const MAX_ROUND_ROBIN_PLAYERS: i64 = 16;
/// The most rounds of a Swiss event.
pub const MAX_ROUNDS: i64 = 20;
/// The longest name of a tournament, in characters.
pub const MAX_NAME_CHARS: usize = 80;
/// How long a process holds the claim on advancing an event (ms).
const ADVANCE_LEASE_MS: i64 = 60_000;
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
    let most = match req.format {
        TournamentFormat::Swiss => MAX_PLAYERS,
        _ => MAX_ROUND_ROBIN_PLAYERS,
    };
    if let Some(max) = req.max_players {
        if !(2..=most).contains(&max) {
            return Err(Error::refused(text!(
                "tournament-bad-limit",
                max = max,
                most = most
            )));
        }
    }
    match (req.format, req.rounds) {
        (TournamentFormat::Swiss, None) => {
            return Err(Error::refused(text!("tournament-rounds-needed")))
        }
        (TournamentFormat::Swiss, Some(r)) => {
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
        (_, Some(_)) => return Err(Error::refused(text!("tournament-rounds-swiss-only"))),
        (_, None) => {}
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

/// The name of a tournament's thread: `🏆 #3 Autumn cup` (Discord allows 100 characters).
pub fn tournament_thread_name(id: i64, name: &str) -> String {
    let full = format!("🏆 #{id} {name}");
    if full.chars().count() <= 100 {
        full
    } else {
        let mut short: String = full.chars().take(99).collect();
        short.push('…');
        short
    }
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
    match t.format {
        TournamentFormat::Swiss => {
            text!("tournament-format-swiss", rounds = t.rounds.unwrap_or(0))
        }
        TournamentFormat::RoundRobin => text!("tournament-format-round-robin"),
        TournamentFormat::DoubleRoundRobin => text!("tournament-format-double-round-robin"),
    }
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
        if t.format.round_robin() || 2 * t.rounds_paired >= rounds {
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

/// Who asks to start an event by hand.
#[derive(Clone, Copy, Debug)]
pub struct Starter {
    pub user: UserId,
    pub guild: Option<GuildId>,
    /// They manage the server or its events.
    pub manager: bool,
}

/// Starts tournament `id`: by hand (its creator or a manager; `by`), or at the end of sign-up
/// (`by` is `None`, from the timers). With too few players a start by hand is refused and one
/// at the end of sign-up calls the event off. The first round (a round robin: every round) is
/// paired in the same transaction.
pub async fn start_tournament(core: &Core, id: i64, by: Option<Starter>) -> Result<(), Error> {
    let now = core.clock.now();
    let mut tx = core.pool.begin().await?;
    let t = match by {
        Some(s) => {
            let t = take(&mut tx, id, s.guild).await?;
            if s.user != t.creator_id && !s.manager {
                return Err(Error::refused(text!(
                    "tournament-start-not-allowed",
                    name = t.name.clone()
                )));
            }
            t
        }
        None => db::take_tournament(&mut tx, id)
            .await?
            .ok_or_else(|| anyhow::anyhow!("tournament {id} vanished"))?,
    };
    closed(&t)?;
    if t.status != TournamentStatus::Signup {
        return Err(Error::refused(text!(
            "tournament-already-started",
            name = t.name.clone()
        )));
    }
    let players = db::tournament_players(&mut *tx, id).await?;
    let n = players.len() as i64;
    let rounds = match t.format {
        TournamentFormat::Swiss => t.rounds.unwrap_or(1),
        f => {
            pairings::berger(n.max(0) as u32, f == TournamentFormat::DoubleRoundRobin).len() as i64
        }
    };
    let needed = match t.format {
        TournamentFormat::Swiss => rounds + 1,
        _ => 2,
    };
    let lang = crate::play::server_lang(&mut *tx, Some(t.guild_id)).await?;
    if n < needed {
        if by.is_some() {
            return Err(Error::refused(text!(
                "tournament-too-few",
                name = t.name.clone(),
                count = n,
                needed = needed
            )));
        }
        if !db::close_tournament(
            &mut *tx,
            id,
            t.version,
            TournamentStatus::Cancelled,
            None,
            now,
        )
        .await?
        {
            return Ok(());
        }
        let line = text!(
            "tournament-called-off",
            name = t.name.clone(),
            count = n,
            needed = needed
        )
        .render(lang);
        let all = players.iter().map(|p| p.player_id).collect();
        db::enqueue(&mut *tx, None, &notice(&t, lang, line, all)).await?;
        enqueue_card(&mut tx, id, lang).await?;
        tx.commit().await?;
        core.wake_delivery();
        info!(tournament = id, "called off: too few players");
        return Ok(());
    }
    if !db::start_tournament(&mut *tx, id, t.version, rounds, now).await? {
        return match by {
            Some(_) => Err(DbError::Conflict(id).into()),
            // Started by another process meanwhile.
            None => Ok(()),
        };
    }
    let t = db::fetch_tournament(&mut *tx, id)
        .await?
        .ok_or_else(|| anyhow::anyhow!("tournament {id} vanished"))?;
    let line = text!(
        "tournament-begins",
        name = t.name.clone(),
        count = n,
        format = format_words(&t)
    )
    .render(lang);
    db::enqueue(&mut *tx, None, &notice(&t, lang, line, Vec::new())).await?;
    pair_or_finish(&mut tx, &t, &players, &[], lang, now).await?;
    enqueue_card(&mut tx, id, lang).await?;
    tx.commit().await?;
    core.wake_delivery();
    info!(tournament = id, players = n, "tournament started");
    Ok(())
}

/// What advancing an event did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Advanced {
    /// Another process holds the claim, or the event is not waiting for a round.
    Nothing,
    /// Round `n` was paired.
    Round(i64),
    /// The event ended.
    Finished,
}

/// Pairs the next round of tournament `id` once every paired game is decided, or ends it after
/// its last round: claimed first, so that one process does it, and stored in one transaction
/// checked against the event's version.
pub async fn advance(core: &Core, id: i64) -> Result<Advanced, Error> {
    let now_ms = db::now_ms();
    let until = now_ms + ADVANCE_LEASE_MS;
    if !db::claim_advance(&core.pool, id, now_ms, until).await? {
        return Ok(Advanced::Nothing);
    }
    let done = advance_claimed(core, id).await;
    // Stored: the claim went with the round. Not stored: give it back for the next try.
    if !matches!(done, Ok(Advanced::Round(_))) {
        db::release_advance(&core.pool, id, until).await?;
    }
    done
}

async fn advance_claimed(core: &Core, id: i64) -> Result<Advanced, Error> {
    let now = core.clock.now();
    let mut tx = core.pool.begin().await?;
    // Taken first: the transaction writes from its start (SQLite cannot turn a read transaction
    // into a write after another connection wrote).
    let Some(t) = db::take_tournament(&mut tx, id).await? else {
        return Ok(Advanced::Nothing);
    };
    if t.status != TournamentStatus::Running {
        return Ok(Advanced::Nothing);
    }
    let pairings = db::tournament_pairings(&mut *tx, id).await?;
    if pairings.iter().any(|p| p.result.is_none()) {
        return Ok(Advanced::Nothing);
    }
    let players = db::tournament_players(&mut *tx, id).await?;
    let lang = crate::play::server_lang(&mut *tx, Some(t.guild_id)).await?;
    let last = t.rounds_paired >= t.rounds.unwrap_or(0);
    if t.rounds_paired > 0 && t.format == TournamentFormat::Swiss && !last {
        // The standings after the round just decided.
        let content = standings_text(&mut tx, &t, &players, &pairings, lang, t.rounds_paired)
            .await?
            .render(lang);
        let mut standings = notice(&t, lang, content, Vec::new());
        standings.target = Target::Standings {
            channel: t.channel_id,
            tournament: t.id,
            round: t.rounds_paired,
        };
        db::enqueue(&mut *tx, None, &standings).await?;
    }
    let advanced = pair_or_finish(&mut tx, &t, &players, &pairings, lang, now).await?;
    enqueue_card(&mut tx, id, lang).await?;
    tx.commit().await?;
    core.wake_delivery();
    Ok(advanced)
}

/// In the caller's transaction: pairs the next round of running event `t` (a round robin: all
/// of them), starting its games, or, after its last round or when no valid pairing exists,
/// closes it with its final standings.
async fn pair_or_finish(
    tx: &mut Conn,
    t: &TournamentRow,
    players: &[TournamentPlayer],
    pairings: &[PairingRow],
    lang: Lang,
    now: i64,
) -> Result<Advanced, Error> {
    let rounds = t.rounds.unwrap_or(0);
    let active: Vec<&TournamentPlayer> = players
        .iter()
        .filter(|p| p.withdrawn_round.is_none())
        .collect();
    let planned = if t.rounds_paired >= rounds || active.len() < 2 {
        None
    } else if t.format == TournamentFormat::Swiss {
        match pairings::pair(&dutch_input(t, players, pairings)) {
            Ok(round) => Some(vec![(
                t.rounds_paired + 1,
                round.games,
                round.bye.map(|b| (b, 2)),
            )]),
            Err(pairings::PairingError::NoValidPairing) => None,
            Err(e @ pairings::PairingError::TournamentOver { .. }) => {
                return Err(anyhow::anyhow!("tournament {}: {e}", t.id).into())
            }
        }
    } else {
        let table = pairings::berger(
            players.len() as u32,
            t.format == TournamentFormat::DoubleRoundRobin,
        );
        Some(
            table
                .into_iter()
                .enumerate()
                .map(|(r, round)| (r as i64 + 1, round.games, round.bye.map(|b| (b, 0))))
                .collect(),
        )
    };
    let Some(planned) = planned else {
        finish(tx, t, players, pairings, lang, now).await?;
        return Ok(Advanced::Finished);
    };
    let mut last = t.rounds_paired;
    for (round, games, bye) in planned {
        let player = |rank: u32| players.get(rank as usize - 1).map(|p| p.player_id);
        let mut lines = Vec::new();
        let mut pinged = Vec::new();
        let mut board = 0;
        for g in &games {
            let (Some(white), Some(black)) = (player(g.white), player(g.black)) else {
                return Err(anyhow::anyhow!("tournament {}: no player {g:?}", t.id).into());
            };
            board += 1;
            let place = ClockPlace {
                game: None,
                guild: Some(t.guild_id),
            };
            let (deadline, clock) = first_turn(
                tx,
                place,
                t.time_control,
                t.weekends_off,
                white,
                t.seconds_per_move,
                now,
            )
            .await?;
            let new = NewGame {
                guild_id: Some(t.guild_id),
                channel_id: t.channel_id,
                options: &t.options,
                players: [white, black],
                rated: t.rated,
                now,
                seconds_per_move: t.seconds_per_move,
                deadline_at: Some(deadline),
                clock,
            };
            let intro = text!(
                "tournament-game-intro",
                name = t.name.clone(),
                round = round
            );
            let game = start_game(tx, &new, None, Some(intro)).await?;
            db::insert_pairing(
                &mut *tx,
                t.id,
                &NewPairing {
                    round,
                    board,
                    white,
                    black: Some(black),
                    bye_halves: None,
                    game_id: Some(game),
                },
            )
            .await?;
            lines.push(
                text!(
                    "tournament-pairing-line",
                    game = game,
                    white = mention(white),
                    black = mention(black)
                )
                .render(lang),
            );
            pinged.extend([white, black]);
        }
        if let Some((rank, halves)) = bye {
            let Some(who) = player(rank) else {
                return Err(anyhow::anyhow!("tournament {}: no player {rank}", t.id).into());
            };
            board += 1;
            db::insert_pairing(
                &mut *tx,
                t.id,
                &NewPairing {
                    round,
                    board,
                    white: who,
                    black: None,
                    bye_halves: Some(halves),
                    game_id: None,
                },
            )
            .await?;
            lines.push(
                text!(
                    "tournament-bye-line",
                    who = mention(who),
                    points = standings::Score::<2>(halves as u32).to_string()
                )
                .render(lang),
            );
        }
        let content = text!(
            "tournament-round",
            name = t.name.clone(),
            round = round,
            rounds = rounds,
            lines = lines.join("\n")
        )
        .render(lang);
        db::enqueue(&mut *tx, None, &notice(t, lang, content, pinged)).await?;
        last = round;
    }
    if !db::record_round_paired(&mut *tx, t.id, t.version, last, now).await? {
        return Err(DbError::Conflict(t.id).into());
    }
    info!(tournament = t.id, round = last, "round paired");
    Ok(Advanced::Round(last))
}

/// Closes running event `t` with its final standings, naming the winner.
async fn finish(
    tx: &mut Conn,
    t: &TournamentRow,
    players: &[TournamentPlayer],
    pairings: &[PairingRow],
    lang: Lang,
    now: i64,
) -> Result<(), Error> {
    let (table, _) = table_of(t, players, pairings, t.rounds_paired);
    let winner = table
        .first()
        .and_then(|s| players.get(s.player))
        .map(|p| p.player_id);
    if !db::close_tournament(
        &mut *tx,
        t.id,
        t.version,
        TournamentStatus::Finished,
        winner,
        now,
    )
    .await?
    {
        return Err(DbError::Conflict(t.id).into());
    }
    let standings = standings_text(tx, t, players, pairings, lang, t.rounds_paired).await?;
    let content = text!(
        "tournament-final",
        name = t.name.clone(),
        winner = winner.map(mention).unwrap_or_default(),
        table = standings
    )
    .render(lang);
    let all = players.iter().map(|p| p.player_id).collect();
    let mut last = notice(t, lang, content, all);
    last.target = Target::Standings {
        channel: t.channel_id,
        tournament: t.id,
        round: t.rounds_paired,
    };
    db::enqueue(&mut *tx, None, &last).await?;
    if let Some(thread) = t.thread_id {
        // The event's channel hears of its end too; the table is in its thread.
        let line = text!(
            "tournament-result-line",
            name = t.name.clone(),
            winner = winner.map(mention).unwrap_or_default(),
            thread = format!("<#{thread}>")
        )
        .render(lang);
        let mut result = notice(t, lang, line, Vec::new());
        result.target = Target::Channel {
            channel: t.channel_id,
        };
        db::enqueue(&mut *tx, None, &result).await?;
    }
    info!(tournament = t.id, winner = ?winner, "tournament finished");
    Ok(())
}

/// Player `p`'s pairing in `round`.
fn pairing_in(pairings: &[PairingRow], round: i64, p: UserId) -> Option<&PairingRow> {
    pairings
        .iter()
        .find(|x| x.round == round && (x.white_id == p || x.black_id == Some(p)))
}

/// The event as the Dutch system reads it: the players by seed (their starting ranks), each
/// round's games, byes and absences.
fn dutch_input(
    t: &TournamentRow,
    players: &[TournamentPlayer],
    pairings: &[PairingRow],
) -> pairings::Tournament {
    let rank: HashMap<UserId, u32> = players
        .iter()
        .enumerate()
        .map(|(i, p)| (p.player_id, i as u32 + 1))
        .collect();
    let entrants = players
        .iter()
        .enumerate()
        .map(|(i, p)| pairings::Entrant {
            rank: i as u32 + 1,
            name: p.player_id.to_string(),
            rounds: (1..=t.rounds_paired)
                .map(|round| match pairing_in(pairings, round, p.player_id) {
                    None => pairings::RoundEntry::ABSENT,
                    Some(x) => dutch_entry(x, p.player_id, &rank),
                })
                .collect(),
            paired_next: p.withdrawn_round.is_none(),
        })
        .collect();
    pairings::Tournament {
        entrants,
        total_rounds: t.rounds.map(|r| r as u32),
        initial_colour: pairings::Colour::White,
    }
}

fn dutch_entry(x: &PairingRow, p: UserId, rank: &HashMap<UserId, u32>) -> pairings::RoundEntry {
    use pairings::Outcome as O;
    let Some(black) = x.black_id else {
        let outcome = match x.bye_halves {
            Some(2) => O::PairingBye,
            Some(1) => O::HalfBye,
            _ => O::ZeroBye,
        };
        return pairings::RoundEntry {
            opponent: None,
            colour: None,
            outcome,
        };
    };
    let white = x.white_id == p;
    let opponent = if white { black } else { x.white_id };
    let won = |side_white: bool| side_white == white;
    let outcome = match x.result {
        Some(PairingResult::White) => [O::Loss, O::Win][usize::from(won(true))],
        Some(PairingResult::Black) => [O::Loss, O::Win][usize::from(won(false))],
        Some(PairingResult::Draw) => O::Draw,
        Some(PairingResult::WhiteForfeit) => {
            [O::ForfeitLoss, O::ForfeitWin][usize::from(won(true))]
        }
        Some(PairingResult::BlackForfeit) => {
            [O::ForfeitLoss, O::ForfeitWin][usize::from(won(false))]
        }
        Some(PairingResult::Void) | Some(PairingResult::Bye) | None => {
            return pairings::RoundEntry::ABSENT
        }
    };
    pairings::RoundEntry {
        opponent: rank.get(&opponent).copied(),
        colour: Some(if white {
            pairings::Colour::White
        } else {
            pairings::Colour::Black
        }),
        outcome,
    }
}

/// The standings of event `t` after `round` rounds, best first, with the format they follow.
pub fn table_of(
    t: &TournamentRow,
    players: &[TournamentPlayer],
    pairings: &[PairingRow],
    round: i64,
) -> (Vec<Standing>, Format) {
    let index: HashMap<UserId, usize> = players
        .iter()
        .enumerate()
        .map(|(i, p)| (p.player_id, i))
        .collect();
    let entrants: Vec<standings::Entrant> = players
        .iter()
        .map(|p| {
            standings::Entrant::new(
                (1..=round)
                    .map(|r| match pairing_in(pairings, r, p.player_id) {
                        None => Round::Absent,
                        Some(x) => standings_round(x, p.player_id, &index),
                    })
                    .collect(),
            )
        })
        .collect();
    let format = match t.format {
        TournamentFormat::Swiss => Format::Swiss,
        _ => Format::RoundRobin,
    };
    (standings::standings(format, &entrants), format)
}

fn standings_round(x: &PairingRow, p: UserId, index: &HashMap<UserId, usize>) -> Round {
    let Some(black) = x.black_id else {
        return Round::Bye {
            halves: x.bye_halves.unwrap_or(0).clamp(0, 2) as u32,
        };
    };
    let white = x.white_id == p;
    let Some(&opponent) = index.get(if white { &black } else { &x.white_id }) else {
        return Round::Absent;
    };
    let mine = |side_white: bool| side_white == white;
    match x.result {
        Some(PairingResult::White) if mine(true) => Round::Won { opponent },
        Some(PairingResult::Black) if mine(false) => Round::Won { opponent },
        Some(PairingResult::White | PairingResult::Black) => Round::Lost { opponent },
        Some(PairingResult::Draw) => Round::Drawn { opponent },
        Some(PairingResult::WhiteForfeit) if mine(true) => Round::ForfeitWon { opponent },
        Some(PairingResult::BlackForfeit) if mine(false) => Round::ForfeitWon { opponent },
        Some(PairingResult::WhiteForfeit | PairingResult::BlackForfeit) => {
            Round::ForfeitLost { opponent }
        }
        Some(PairingResult::Void | PairingResult::Bye) | None => Round::Absent,
    }
}

/// The players' names, by seed.
async fn names_of(tx: &mut Conn, players: &[TournamentPlayer]) -> Result<Vec<String>, Error> {
    let mut names = Vec::with_capacity(players.len());
    for p in players {
        names.push(
            db::fetch_player_name(&mut *tx, p.player_id)
                .await?
                .unwrap_or_else(|| "?".to_string()),
        );
    }
    Ok(names)
}

/// The standings after `round` rounds as text: a title, then one line a player.
async fn standings_text(
    tx: &mut Conn,
    t: &TournamentRow,
    players: &[TournamentPlayer],
    pairings: &[PairingRow],
    _lang: Lang,
    round: i64,
) -> Result<Text, Error> {
    let (table, format) = table_of(t, players, pairings, round);
    let names = names_of(tx, players).await?;
    Ok(standings_words(t, players, &names, &table, format, round))
}

/// The standings `table` of `t` after `round` rounds in words.
fn standings_words(
    t: &TournamentRow,
    players: &[TournamentPlayer],
    names: &[String],
    table: &[Standing],
    format: Format,
    round: i64,
) -> Text {
    let mut lines = Vec::new();
    for s in table {
        let (Some(p), Some(name)) = (players.get(s.player), names.get(s.player)) else {
            continue;
        };
        let name = match p.withdrawn_round {
            Some(_) => text!("tournament-withdrawn-name", name = name.clone()),
            None => Text::raw(name.clone()),
        };
        let line = match format {
            Format::Swiss => text!(
                "tournament-standing-swiss",
                rank = s.rank as i64,
                name = name,
                points = s.points.to_string(),
                games = s.games as i64,
                buchholz = s.buchholz_cut1.to_string(),
                sb = s.sonneborn_berger.to_string()
            ),
            Format::RoundRobin => text!(
                "tournament-standing-round-robin",
                rank = s.rank as i64,
                name = name,
                points = s.points.to_string(),
                games = s.games as i64,
                direct = s.direct.to_string(),
                sb = s.sonneborn_berger.to_string(),
                wins = s.wins as i64
            ),
        };
        lines.push(line);
    }
    let mut list = Text::raw(String::new());
    for (i, line) in lines.into_iter().enumerate() {
        list = if i == 0 {
            line
        } else {
            text!("tournament-line-break", before = list, after = line)
        };
    }
    text!(
        "tournament-standings",
        name = t.name.clone(),
        round = round,
        lines = list
    )
}

/// A tournament's standings as they stand (the rounds decided so far), for
/// `/tournament standings`: the table, the names by seed, and the same in words.
#[derive(Clone, Debug)]
pub struct StandingsView {
    pub tournament: TournamentRow,
    /// The last round whose every pairing is decided (0 before any).
    pub round: i64,
    pub format: Format,
    pub table: Vec<Standing>,
    /// The players' names by seed (the table's `player` indexes them).
    pub names: Vec<String>,
    pub text: Text,
}

/// The standings of tournament `id` of server `guild` as they stand.
pub async fn show_standings(
    core: &Core,
    id: i64,
    guild: Option<GuildId>,
) -> Result<StandingsView, Error> {
    let t = fetch(&core.pool, id).await?;
    if guild != Some(t.guild_id) {
        return Err(Error::refused(text!("tournament-other-server", id = id)));
    }
    let players = db::tournament_players(&core.pool, id).await?;
    let pairings = db::tournament_pairings(&core.pool, id).await?;
    let round = (1..=t.rounds_paired)
        .take_while(|&r| {
            pairings
                .iter()
                .filter(|p| p.round == r)
                .all(|p| p.result.is_some())
        })
        .last()
        .unwrap_or(0);
    let mut conn = core.pool.acquire().await?;
    let names = names_of(&mut conn, &players).await?;
    let (table, format) = table_of(&t, &players, &pairings, round);
    let text = if t.status == TournamentStatus::Signup {
        card(&t, players.len() as i64)
    } else {
        standings_words(&t, &players, &names, &table, format, round)
    };
    Ok(StandingsView {
        tournament: t,
        round,
        format,
        table,
        names,
        text,
    })
}

/// The standings of tournament `id` after `round` rounds, for its picture.
pub async fn standings_after(
    pool: &crate::db::Pool,
    id: i64,
    round: i64,
) -> Result<StandingsView, Error> {
    let t = fetch(pool, id).await?;
    let players = db::tournament_players(pool, id).await?;
    let pairings = db::tournament_pairings(pool, id).await?;
    let mut conn = pool.acquire().await?;
    let names = names_of(&mut conn, &players).await?;
    let (table, format) = table_of(&t, &players, &pairings, round);
    let text = standings_words(&t, &players, &names, &table, format, round);
    Ok(StandingsView {
        tournament: t,
        round,
        format,
        table,
        names,
        text,
    })
}

/// The tournament a command means in server `guild`: the one named, else the newest taking
/// players or under way.
pub async fn tournament_here(core: &Core, guild: GuildId, id: Option<i64>) -> Result<i64, Error> {
    if let Some(id) = id {
        return Ok(id);
    }
    db::tournaments_of(
        &core.pool,
        guild,
        &[TournamentStatus::Signup, TournamentStatus::Running],
    )
    .await?
    .first()
    .map(|t| t.id)
    .ok_or_else(|| Error::refused(text!("tournament-none-here")))
}

/// Why a player leaves a running event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Withdrawal {
    /// They asked.
    Asked,
    /// They lost [`TIMEOUTS_TO_WITHDRAW`] tournament games on time.
    OnTime,
}

/// `user` withdraws from running tournament `id` (from server `guild`; `None` when the
/// withdrawal is the rules', after losses on time).
pub async fn withdraw(
    core: &Core,
    id: i64,
    guild: Option<GuildId>,
    user: UserId,
    why: Withdrawal,
) -> Result<Text, Error> {
    let now = core.clock.now();
    let mut tx = core.pool.begin().await?;
    let t = match why {
        Withdrawal::Asked => take(&mut tx, id, guild).await?,
        Withdrawal::OnTime => db::take_tournament(&mut tx, id)
            .await?
            .ok_or_else(|| anyhow::anyhow!("tournament {id} vanished"))?,
    };
    closed(&t)?;
    if t.status == TournamentStatus::Signup {
        return Err(Error::refused(text!(
            "tournament-withdraw-not-started",
            name = t.name.clone()
        )));
    }
    let players = db::tournament_players(&mut *tx, id).await?;
    match players.iter().find(|p| p.player_id == user) {
        None => {
            return Err(Error::refused(text!(
                "tournament-not-joined",
                name = t.name.clone()
            )))
        }
        Some(p) if p.withdrawn_round.is_some() => {
            return Err(Error::refused(text!(
                "tournament-already-withdrawn",
                name = t.name.clone()
            )))
        }
        Some(_) => {}
    }
    db::withdraw_tournament_player(&mut *tx, id, user, t.rounds_paired).await?;
    // Their undecided games: resigned in Swiss, called off and forfeited in a round robin.
    let open: Vec<PairingRow> = db::tournament_pairings(&mut *tx, id)
        .await?
        .into_iter()
        .filter(|p| p.result.is_none() && (p.white_id == user || p.black_id == Some(user)))
        .collect();
    let mut ended = Vec::new();
    for p in &open {
        let Some(game_id) = p.game_id else { continue };
        // Read on its own connection (a game is loaded in a read transaction of its own); the
        // write below applies only while the game is still as read.
        let mut conn = core.pool.acquire().await?;
        let Some((row, game)) = db::load_game(&mut conn, game_id).await? else {
            continue;
        };
        drop(conn);
        if row.status != GameStatus::Active {
            continue;
        }
        let opponent = row.opponent_of(user);
        let (finish, result, intro) = if t.format.round_robin() {
            let opponent_white = p.white_id == opponent;
            (
                Finish {
                    kind: row.kind(),
                    result: GameResult::Aborted {
                        by: text!("tournament-withdrawal-by").render(Lang::EN),
                    },
                    winner_id: None,
                },
                PairingResult::forfeit_for(if opponent_white {
                    crate::games::Colour::First
                } else {
                    crate::games::Colour::Second
                }),
                text!(
                    "tournament-forfeited",
                    who = mention(user),
                    winner = mention(opponent)
                ),
            )
        } else {
            let Some(loser) = colour_of(&row, &game, user) else {
                continue;
            };
            let finish = win_for(&row, &game, loser.other(), Reason::Resignation);
            let result = PairingResult::of_game(&finish, row.players);
            (finish, result, text!("resigned", who = mention(user)))
        };
        store_ending(&mut tx, &row, &game, &finish, intro, now).await?;
        db::decide_pairing(&mut *tx, p.id, result).await?;
        ended.push(row.id);
    }
    if !db::touch_tournament(&mut *tx, id, t.version, now).await? {
        return Err(DbError::Conflict(id).into());
    }
    let lang = crate::play::server_lang(&mut *tx, Some(t.guild_id)).await?;
    let line = match why {
        Withdrawal::Asked => text!(
            "tournament-withdrew",
            who = mention(user),
            name = t.name.clone()
        ),
        Withdrawal::OnTime => text!(
            "tournament-withdrawn-on-time",
            who = mention(user),
            name = t.name.clone(),
            losses = TIMEOUTS_TO_WITHDRAW
        ),
    }
    .render(lang);
    db::enqueue(&mut *tx, None, &notice(&t, lang, line, Vec::new())).await?;
    enqueue_card(&mut tx, id, lang).await?;
    core.commit_changes(tx, &ended).await?;
    info!(tournament = id, %user, ?why, "withdrew");
    if let Err(e) = advance(core, id).await {
        error!(tournament = id, "cannot advance after a withdrawal: {e:#}");
    }
    Ok(text!("tournament-you-withdrew", name = t.name.clone()))
}

/// After game `game` ended (its result stored with [`db::record_tournament_game`] in the
/// transaction that ended it): when it is a tournament game, withdraws a player who has now lost
/// [`TIMEOUTS_TO_WITHDRAW`] games on time, and advances the event when the round is complete.
/// Failures are logged: the timers' scan ([`advance_due`]) takes the event up again.
pub async fn after_game(core: &Core, game: i64) {
    let pairing = match db::pairing_of_game(&core.pool, game).await {
        Ok(Some(p)) => p,
        Ok(None) => return,
        Err(e) => {
            error!(game, "cannot read the game's tournament: {e:#}");
            return;
        }
    };
    let id = pairing.tournament_id;
    if let Ok(players) = db::tournament_players(&core.pool, id).await {
        for p in players.iter().filter(|p| {
            p.withdrawn_round.is_none()
                && p.timeouts >= TIMEOUTS_TO_WITHDRAW
                && (p.player_id == pairing.white_id || Some(p.player_id) == pairing.black_id)
        }) {
            if let Err(e) = withdraw(core, id, None, p.player_id, Withdrawal::OnTime).await {
                error!(tournament = id, "cannot withdraw a player on time: {e:#}");
            }
        }
    }
    if let Err(e) = advance(core, id).await {
        error!(tournament = id, "cannot advance: {e:#}");
    }
}

/// The timers' part: starts the events whose sign-up ended, and advances those whose round is
/// complete (after a restart, or a process that died while pairing). Returns how many changed.
pub async fn advance_due(core: &Core) -> Result<usize, DbError> {
    let mut changed = 0;
    for id in db::tournaments_to_start(&core.pool, core.clock.now()).await? {
        match start_tournament(core, id, None).await {
            Ok(()) => changed += 1,
            Err(Error::Refused(_)) => {}
            Err(e) => error!(tournament = id, "cannot start: {e:#}"),
        }
    }
    for id in db::tournaments_to_advance(&core.pool, db::now_ms()).await? {
        match advance(core, id).await {
            Ok(Advanced::Nothing) => {}
            Ok(_) => changed += 1,
            Err(e) => error!(tournament = id, "cannot advance: {e:#}"),
        }
    }
    Ok(changed)
}

#[cfg(test)]
mod tests;
