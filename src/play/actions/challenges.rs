//! Starting games: challenges (open, answer, expire), rematches, and games against the bot.
//!
//! A challenge names its opponent ([`open_challenge`]), or is open to every member of its
//! server but its challenger ([`open_challenge_to_all`]), within a rating range and for a time
//! its challenger chooses. Both count against [`MAX_OPEN_CHALLENGES`], expire by the same timer
//! ([`expire_challenges`]) and are answered by the same action ([`answer_challenge`]): accepting
//! claims the challenge with one conditional write in the transaction that starts the game, so
//! two members accepting an open challenge at once start one game.

use tracing::info;

use super::game::{enqueue_board, load, open_thread, start_game, Core};
use crate::ai::Level;
use crate::db::{
    self, Announcement, Challenge, ChallengeStatus, ChannelId, GameStatus, GuildId, NewChallenge,
    NewGame, RatingRange, Target, UserId,
};
use crate::games::{Game, Options};
use crate::i18n::Text;
use crate::play::access::mention;
use crate::play::schedule::{first_turn, ClockPlace, DAY};
use crate::play::terms::{
    check_challenge_answer, check_rating_range, rating_range, ChallengeAnswer,
};
use crate::play::Error;
use crate::text;
use crate::time_control::TimeControl;

/// Open challenges one member may have at once.
pub const MAX_OPEN_CHALLENGES: i64 = 10;

/// How long an open challenge stays open, at least and at most (24 hours unless its challenger
/// chooses: [`crate::play::schedule::CHALLENGE_TTL_SECS`]).
pub const OPEN_CHALLENGE_LASTS: std::ops::RangeInclusive<i64> = 3600..=7 * DAY;

/// Active games one member may have against the bot at once.
pub const MAX_BOT_GAMES: i64 = 3;

/// Closes the challenges whose time ran out; their messages lose their buttons. Returns them.
pub async fn expire_challenges(core: &Core) -> Result<Vec<Challenge>, Error> {
    let now = core.clock.now();
    let mut tx = core.pool.begin().await?;
    let expired = db::expire_challenges(&mut *tx, now).await?;
    for c in &expired {
        enqueue_card_edit(&mut tx, c, &expired_text(c)).await?;
    }
    tx.commit().await?;
    if !expired.is_empty() {
        core.wake_delivery();
    }
    Ok(expired)
}

/// What the message of challenge `c` says once it expired.
fn expired_text(c: &Challenge) -> Text {
    let options = crate::play::words::variant(&c.options);
    match c.opponent_id {
        Some(opponent) => text!(
            "challenge-expired",
            challenger = mention(c.challenger_id),
            opponent = mention(opponent),
            options = options
        ),
        None => text!(
            "open-challenge-expired",
            challenger = mention(c.challenger_id),
            options = options
        ),
    }
}

/// Queues in `tx` the edit that replaces the message showing challenge `c` by `text`, without its
/// buttons (nothing when its message is unknown). A challenge in a direct or group chat is left
/// as it is: the bot may not edit a message there outside an interaction (its buttons answer
/// that the challenge ended).
async fn enqueue_card_edit(tx: &mut db::Conn, c: &Challenge, text: &Text) -> Result<(), Error> {
    enqueue_edit(tx, c.guild_id, c.channel_id, c.message_id, text).await
}

/// Queues in `tx` the edit that replaces `message` in `channel` of server `guild` (a card: a
/// challenge's, a seek's) by `text`, without its buttons; nothing when the message is unknown or
/// outside a server.
pub(super) async fn enqueue_edit(
    tx: &mut db::Conn,
    guild: Option<GuildId>,
    channel: ChannelId,
    message: Option<db::MessageId>,
    text: &Text,
) -> Result<(), Error> {
    let (Some(message), Some(_)) = (message, guild) else {
        return Ok(());
    };
    let lang = crate::play::server_lang(&mut *tx, guild).await?;
    let edit = Announcement {
        target: Target::Edit { channel, message },
        content: text.render(lang),
        mentions: Vec::new(),
        board: None,
        concerned: Vec::new(),
        lang: lang.tag().to_string(),
    };
    db::enqueue(&mut *tx, None, &edit).await?;
    Ok(())
}

/// What a new challenge needs.
#[derive(Clone, Debug)]
pub struct ChallengeRequest {
    pub guild_id: Option<GuildId>,
    pub channel_id: ChannelId,
    pub challenger: UserId,
    pub opponent: UserId,
    pub options: Options,
    pub rated: bool,
    pub seconds_per_move: i64,
    /// The challenger moves first (not so in a rematch that swaps the colours).
    pub challenger_first: bool,
    /// The game a rematch follows.
    pub rematch_of: Option<i64>,
    /// A Fischer clock or another time control (`None`: `seconds_per_move` for every move).
    pub time_control: Option<TimeControl>,
    /// Whether the game takes weekends off (`None`: as the server's setting says).
    pub weekends_off: Option<bool>,
}

/// Opens a challenge, within the caps: [`MAX_OPEN_CHALLENGES`] per member, one per pair of
/// members and game kind; refused between two members when either blocks the other. Returns its id. The two members' rows are taken first, so that
/// challenges asked for at the same moment are counted one after the other.
pub async fn open_challenge(core: &Core, req: &ChallengeRequest) -> Result<i64, Error> {
    let now = core.clock.now();
    let kind = req.options.kind();
    super::seeks::check_not_blocked(core, req.challenger, req.opponent).await?;
    let mut tx = core.pool.begin().await?;
    db::take_players(&mut tx, &[req.challenger, req.opponent]).await?;
    if let Some(c) =
        db::find_open_challenge(&mut *tx, req.challenger, req.opponent, kind, now).await?
    {
        return Err(Error::refused(text!(
            "challenge-already-open",
            game = kind.title(),
            opponent = mention(req.opponent),
            id = c.id
        )));
    }
    check_cap(&mut tx, req.challenger, now).await?;
    let (time_control, weekends_off) = clock_of(
        &mut tx,
        req.time_control,
        req.seconds_per_move,
        req.weekends_off,
        req.guild_id,
    )
    .await?;
    let id = db::insert_challenge(
        &mut *tx,
        &NewChallenge {
            guild_id: req.guild_id,
            channel_id: req.channel_id,
            challenger_id: req.challenger,
            opponent_id: Some(req.opponent),
            options: &req.options,
            rated: req.rated,
            now,
            expires_at: now + crate::play::schedule::CHALLENGE_TTL_SECS,
            seconds_per_move: req.seconds_per_move,
            challenger_first: req.challenger_first,
            rematch_of: req.rematch_of,
            time_control,
            weekends_off,
            ratings: RatingRange::ANY,
        },
    )
    .await?;
    tx.commit().await?;
    Ok(id)
}

/// Refuses a new challenge of `challenger` when they have [`MAX_OPEN_CHALLENGES`] open already
/// (named or open to all). Call it in the transaction that stores it, their row taken first.
async fn check_cap(tx: &mut db::Conn, challenger: UserId, now: i64) -> Result<(), Error> {
    let open = db::count_open_challenges(&mut *tx, challenger, now).await?;
    if open >= MAX_OPEN_CHALLENGES {
        return Err(Error::refused(text!("too-many-challenges", open = open)));
    }
    Ok(())
}

/// The time control and weekends off of a new challenge: as asked, else `seconds_per_move` for
/// every move and the server's setting.
pub(super) async fn clock_of(
    tx: &mut db::Conn,
    time_control: Option<TimeControl>,
    seconds_per_move: i64,
    weekends_off: Option<bool>,
    guild: Option<GuildId>,
) -> Result<(TimeControl, bool), Error> {
    let time_control = match time_control {
        Some(c) => c,
        None => TimeControl::per_move(seconds_per_move)
            .map_err(|e| anyhow::anyhow!("time per move {seconds_per_move} s: {e}"))?,
    };
    let weekends_off = match (weekends_off, guild) {
        (Some(w), _) => w,
        (None, Some(g)) => db::fetch_server_clock(&mut *tx, g).await?.weekends_off,
        (None, None) => false,
    };
    Ok((time_control, weekends_off))
}

/// What a new open challenge needs: any member of server `guild_id` but its challenger may
/// accept it, within `ratings`, for `lasts` seconds.
#[derive(Clone, Debug)]
pub struct OpenChallengeRequest {
    pub guild_id: GuildId,
    pub channel_id: ChannelId,
    pub challenger: UserId,
    pub options: Options,
    pub rated: bool,
    pub seconds_per_move: i64,
    /// A Fischer clock or another time control (`None`: `seconds_per_move` for every move).
    pub time_control: Option<TimeControl>,
    /// Whether the game takes weekends off (`None`: as the server's setting says).
    pub weekends_off: Option<bool>,
    /// The ratings (in the server's pool for the game) of who may accept it.
    pub ratings: RatingRange,
    /// How long it stays open, within [`OPEN_CHALLENGE_LASTS`].
    pub lasts: i64,
}

/// Opens a challenge to every member of a server, within [`MAX_OPEN_CHALLENGES`] of its
/// challenger (their row taken first, as [`open_challenge`] does); the challenger moves first.
/// Returns it as stored.
pub async fn open_challenge_to_all(
    core: &Core,
    req: &OpenChallengeRequest,
) -> Result<Challenge, Error> {
    check_rating_range(req.ratings)?;
    if !OPEN_CHALLENGE_LASTS.contains(&req.lasts) {
        return Err(anyhow::anyhow!("an open challenge lasting {} s", req.lasts).into());
    }
    let now = core.clock.now();
    let mut tx = core.pool.begin().await?;
    db::take_players(&mut tx, &[req.challenger]).await?;
    check_cap(&mut tx, req.challenger, now).await?;
    let guild = Some(req.guild_id);
    let (time_control, weekends_off) = clock_of(
        &mut tx,
        req.time_control,
        req.seconds_per_move,
        req.weekends_off,
        guild,
    )
    .await?;
    let id = db::insert_challenge(
        &mut *tx,
        &NewChallenge {
            guild_id: guild,
            channel_id: req.channel_id,
            challenger_id: req.challenger,
            opponent_id: None,
            options: &req.options,
            rated: req.rated,
            now,
            expires_at: now + req.lasts,
            seconds_per_move: req.seconds_per_move,
            challenger_first: true,
            rematch_of: None,
            time_control,
            weekends_off,
            ratings: req.ratings,
        },
    )
    .await?;
    let stored = db::fetch_challenge(&mut *tx, id)
        .await?
        .ok_or_else(|| anyhow::anyhow!("challenge {id} vanished while opening"))?;
    tx.commit().await?;
    info!(challenge = id, "open challenge posted");
    Ok(stored)
}

/// The words of open challenge `c`'s message: its terms, who may accept it, and until when.
pub fn open_challenge_card(c: &Challenge) -> Text {
    let kind = c.options.kind();
    let control = c.time_control.unwrap_or(TimeControl::PerMove {
        seconds: c.seconds_per_move,
    });
    text!(
        "open-challenge-card",
        challenger = mention(c.challenger_id),
        options = crate::play::words::variant(&c.options),
        rated = if c.rated { "yes" } else { "no" },
        clock = crate::play::words::time_control(control, c.weekends_off),
        colour = crate::play::words::colour(kind, crate::games::Colour::First),
        ranged = if c.ratings.is_any() { "no" } else { "yes" },
        range = rating_range(c.ratings),
        game = kind.title(),
        until = c.expires_at
    )
}

/// `user`, a player of finished game `id`, offers the other player a rematch: a challenge with
/// the colours swapped (the second seat moves first) and the same options, rating and time per
/// move. Returns the challenge and its text.
pub async fn offer_rematch(
    core: &Core,
    id: i64,
    user: UserId,
) -> Result<(i64, Text, db::GameRow), Error> {
    let (row, _) = load(&core.pool, id).await?;
    if !row.players.contains(&user) {
        return Err(Error::refused(text!("rematch-players-only", game = id)));
    }
    if row.status == GameStatus::Active {
        return Err(Error::refused(text!("game-still-played", game = id)));
    }
    if db::fetch_bot_level(&core.pool, id).await?.is_some() {
        return Err(Error::refused(text!("rematch-against-bot")));
    }
    let opponent = row.opponent_of(user);
    let req = ChallengeRequest {
        guild_id: row.guild_id,
        channel_id: row.channel_id,
        challenger: user,
        opponent,
        options: row.options.clone(),
        rated: row.rated,
        seconds_per_move: row.seconds_per_move,
        // The old second seat starts.
        challenger_first: user == row.players[1],
        rematch_of: Some(id),
        time_control: row.clock.map(|c| c.control),
        weekends_off: Some(row.clock.is_some_and(|c| c.weekends_off)),
    };
    let challenge = open_challenge(core, &req).await?;
    let first = row.players[1];
    let kind = row.kind();
    let text = text!(
        "rematch-offered",
        opponent = mention(opponent),
        who = mention(user),
        game = id,
        options = crate::play::words::variant(&row.options),
        rated = if row.rated {
            text!("rated")
        } else {
            text!("unrated")
        },
        first = mention(first),
        colour = crate::play::words::colour(kind, crate::games::Colour::First),
        hours = crate::play::schedule::CHALLENGE_TTL_SECS / 3600
    );
    Ok((challenge, text, row))
}

/// Queues rematch offer `challenge` (offered by `by` after game `row`, in words `text`) for the
/// game's channel, in the language `lang`: posted by the delivery with its buttons, like every
/// other post of the bot; refused for good, it is withdrawn and `by` told. A challenge that
/// could not be queued is withdrawn at once (nobody will see it), and the failure returned.
pub async fn queue_rematch_offer(
    core: &Core,
    challenge: i64,
    row: &db::GameRow,
    by: UserId,
    text: &Text,
    lang: crate::i18n::Lang,
) -> Result<(), Error> {
    let offer = Announcement {
        target: Target::Rematch {
            channel: row.channel_id,
            challenge,
        },
        content: text.render(lang),
        mentions: vec![row.opponent_of(by)],
        board: None,
        concerned: vec![by],
        lang: lang.tag().to_string(),
    };
    if let Err(e) = db::enqueue(&core.pool, None, &offer).await {
        let _ = db::close_challenge(&core.pool, challenge, ChallengeStatus::Withdrawn, None).await;
        return Err(e.into());
    }
    core.wake_delivery();
    Ok(())
}

/// How a challenge was answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answered {
    /// Declined or withdrawn: the text replacing the challenge.
    Closed(Text),
    /// Accepted: game `game` started (its first board is queued).
    Started { game: i64, text: Text },
}

/// `user` answers challenge `id`; none is accepted between two members when either blocks the
/// other. An open challenge is accepted by any member but its challenger whose rating (in the server's pool for its game; a member without one counts as
/// [`crate::rating::Rating::START`]) lies within its range; a late press is told who took it.
pub async fn answer_challenge(
    core: &Core,
    id: i64,
    user: UserId,
    answer: ChallengeAnswer,
) -> Result<Answered, Error> {
    let now = core.clock.now();
    let challenge = db::fetch_challenge(&core.pool, id)
        .await?
        .ok_or_else(|| Error::refused(text!("challenge-gone", id = id)))?;
    if let Some(taken) = taken_by(core, &challenge).await? {
        return Err(taken);
    }
    if let Err((refusal, store)) = check_challenge_answer(&challenge, user, answer, now) {
        if let Some(status) = store {
            let mut tx = core.pool.begin().await?;
            if db::close_challenge(&mut *tx, id, status, None).await? {
                enqueue_card_edit(&mut tx, &challenge, &expired_text(&challenge)).await?;
            }
            tx.commit().await?;
            core.wake_delivery();
        }
        return Err(refusal.into());
    }
    let gone = || Error::refused(text!("challenge-answered-meanwhile", id = id));
    let c = &challenge;
    let options = || crate::play::words::variant(&c.options);
    if answer != ChallengeAnswer::Accept {
        let (status, text) = match (answer, c.opponent_id) {
            (ChallengeAnswer::Decline, Some(opponent)) => (
                ChallengeStatus::Declined,
                text!(
                    "challenge-declined",
                    opponent = mention(opponent),
                    challenger = mention(c.challenger_id),
                    options = options()
                ),
            ),
            (_, Some(opponent)) => (
                ChallengeStatus::Withdrawn,
                text!(
                    "challenge-withdrawn",
                    challenger = mention(c.challenger_id),
                    opponent = mention(opponent),
                    options = options()
                ),
            ),
            // Only its challenger withdraws an open challenge (checked above).
            (_, None) => (
                ChallengeStatus::Withdrawn,
                text!(
                    "open-challenge-withdrawn",
                    challenger = mention(c.challenger_id),
                    options = options()
                ),
            ),
        };
        if !db::close_challenge(&core.pool, id, status, None).await? {
            return Err(gone());
        }
        return Ok(Answered::Closed(text));
    }
    if c.opponent_id.is_none() {
        check_rating(core, c, user).await?;
    }
    let opponent = c.opponent_id.unwrap_or(user);
    super::seeks::check_not_blocked(core, c.challenger_id, opponent).await?;
    // The first seat moves first: their clock starts now (after their vacation, if away).
    let players = if c.challenger_first {
        [c.challenger_id, opponent]
    } else {
        [opponent, c.challenger_id]
    };
    let agreed = Agreed {
        guild_id: c.guild_id,
        channel_id: c.channel_id,
        options: &c.options,
        rated: c.rated,
        seconds_per_move: c.seconds_per_move,
        time_control: c.time_control,
        weekends_off: c.weekends_off,
        players,
        from: c.message_id,
        notices: None,
    };
    let Some(game_id) = start_agreed(core, &agreed, Claim::Challenge(id)).await? else {
        let now_stored = db::fetch_challenge(&core.pool, id).await?;
        if let Some(taken) = match &now_stored {
            Some(c) => taken_by(core, c).await?,
            None => None,
        } {
            return Err(taken);
        }
        return Err(gone());
    };
    info!(challenge = id, game = game_id, "challenge accepted");
    let text = match c.opponent_id {
        Some(opponent) => text!(
            "challenge-accepted",
            opponent = mention(opponent),
            challenger = mention(c.challenger_id),
            game = game_id,
            options = options()
        ),
        None => text!(
            "open-challenge-accepted",
            who = mention(user),
            challenger = mention(c.challenger_id),
            game = game_id,
            options = options()
        ),
    };
    Ok(Answered::Started {
        game: game_id,
        text,
    })
}

/// `user` accepts open challenge `id` away from its card (the web board's lobby), as
/// [`answer_challenge`] does; the card's edit, which a press on it would have answered, is
/// queued. Returns the game and the card's new words.
pub async fn accept_off_card(core: &Core, id: i64, user: UserId) -> Result<(i64, Text), Error> {
    let Answered::Started { game, text } =
        answer_challenge(core, id, user, ChallengeAnswer::Accept).await?
    else {
        return Err(anyhow::anyhow!("challenge {id} accepted without a game").into());
    };
    let c = db::fetch_challenge(&core.pool, id)
        .await?
        .ok_or_else(|| anyhow::anyhow!("challenge {id} vanished once accepted"))?;
    edit_card_now(core, c.guild_id, c.channel_id, c.message_id, &text).await?;
    Ok((game, text))
}

/// Queues, on its own, the edit that replaces card `message` by `text` ([`enqueue_edit`]), and
/// wakes the delivery.
pub(super) async fn edit_card_now(
    core: &Core,
    guild: Option<GuildId>,
    channel: ChannelId,
    message: Option<db::MessageId>,
    text: &Text,
) -> Result<(), Error> {
    // One write: no transaction (a reading one could not write once another connection wrote,
    // on SQLite).
    let mut conn = core.pool.acquire().await?;
    enqueue_edit(&mut conn, guild, channel, message, text).await?;
    drop(conn);
    core.wake_delivery();
    Ok(())
}

/// The terms of a game two members agreed on (an accepted challenge, a matched seek).
#[derive(Clone)]
pub(super) struct Agreed<'a> {
    pub guild_id: Option<GuildId>,
    pub channel_id: ChannelId,
    pub options: &'a Options,
    pub rated: bool,
    pub seconds_per_move: i64,
    /// `None`: `seconds_per_move` for every move, from the end of the first player's vacation.
    pub time_control: Option<TimeControl>,
    pub weekends_off: bool,
    /// The first seat (moving first), then the second.
    pub players: [UserId; 2],
    /// The message the game's thread starts from (the challenge's or the seek's card).
    pub from: Option<db::MessageId>,
    /// Announcements queued before the first board (see [`super::game::Notices`]).
    pub notices: Option<super::game::Notices<'a>>,
}

/// What an agreed game is claimed from, with one conditional write in the transaction that
/// starts it: of two claims at once (in one process or two), the second waits for the first,
/// then finds it taken.
#[derive(Clone, Copy, Debug)]
pub(super) enum Claim {
    /// An open challenge.
    Challenge(i64),
    /// An open seek.
    Seek(i64),
}

/// Starts the game of `agreed` once `claim` is taken: its first turn (the first seat's clock
/// starts now, after their vacation if away), its thread, its notices and its first board, in
/// one transaction that records the game on what it was claimed from. `None` when the claim was
/// taken first. The one start of every game two members agreed on.
pub(super) async fn start_agreed(
    core: &Core,
    agreed: &Agreed<'_>,
    claim: Claim,
) -> Result<Option<i64>, Error> {
    let now = core.clock.now();
    // Read before the transaction, whose first statement then writes (SQLite).
    let mut conn = core.pool.acquire().await?;
    let place = ClockPlace {
        game: None,
        guild: agreed.guild_id,
    };
    let (deadline, clock) = first_turn(
        &mut conn,
        place,
        agreed.time_control,
        agreed.weekends_off,
        agreed.players[0],
        agreed.seconds_per_move,
        now,
    )
    .await?;
    drop(conn);
    let mut tx = core.pool.begin().await?;
    // The claim comes first: a second claim waits here for the first transaction.
    let claimed = match claim {
        Claim::Challenge(id) => db::claim_challenge(&mut *tx, id, now).await?,
        Claim::Seek(id) => db::claim_seek(&mut *tx, id, now).await?,
    };
    if !claimed {
        return Ok(None);
    }
    let new = NewGame {
        guild_id: agreed.guild_id,
        channel_id: agreed.channel_id,
        options: agreed.options,
        players: agreed.players,
        rated: agreed.rated,
        now,
        seconds_per_move: agreed.seconds_per_move,
        deadline_at: Some(deadline),
        clock,
    };
    let game_id = start_game(&mut tx, &new, agreed.from, None, agreed.notices).await?;
    match claim {
        Claim::Challenge(id) => db::set_challenge_game(&mut *tx, id, game_id).await?,
        Claim::Seek(id) => db::set_seek_game(&mut *tx, id, game_id).await?,
    }
    core.commit_change(tx, game_id).await?;
    Ok(Some(game_id))
}

/// The refusal for a press on open challenge `c` once a member took it: who, and their game.
/// `None` for any other challenge.
async fn taken_by(core: &Core, c: &Challenge) -> Result<Option<Error>, Error> {
    if c.opponent_id.is_some() || c.status != ChallengeStatus::Accepted {
        return Ok(None);
    }
    let Some(game) = c.game_id else {
        return Ok(None);
    };
    let Some(row) = db::fetch_game(&core.pool, game).await? else {
        return Ok(None);
    };
    Ok(Some(Error::refused(text!(
        "open-challenge-taken",
        who = mention(row.opponent_of(c.challenger_id)),
        game = game
    ))))
}

/// Refuses `user` the open challenge `c` when their rating in its server's pool for its game
/// lies outside its range.
async fn check_rating(core: &Core, c: &Challenge, user: UserId) -> Result<(), Error> {
    if c.ratings.is_any() {
        return Ok(());
    }
    let guild = c
        .guild_id
        .ok_or_else(|| anyhow::anyhow!("open challenge {} outside a server", c.id))?;
    let kind = c.options.kind();
    let rating = db::fetch_rating(&core.pool, guild, kind, user)
        .await?
        .map_or(crate::rating::Rating::START.rating, |r| r.rating);
    if c.ratings.admits(rating) {
        return Ok(());
    }
    Err(Error::refused(text!(
        "open-challenge-out-of-range",
        range = rating_range(c.ratings),
        game = kind.title(),
        rating = rating.round() as i64
    )))
}

/// What a game against the bot needs.
#[derive(Clone, Debug)]
pub struct BotGameRequest {
    pub guild_id: Option<GuildId>,
    pub channel_id: ChannelId,
    pub member: UserId,
    pub bot: UserId,
    pub options: Options,
    pub level: Level,
    pub member_first: bool,
    /// A coached game: the member may ask for hints ([`crate::play::coach`]).
    pub coached: bool,
}

/// Starts a game between a member and the bot (unrated, no clock), within [`MAX_BOT_GAMES`] at
/// once (the member's row is taken first, so that games asked for at the same moment are
/// counted one after the other); its first board is queued.
pub async fn start_bot_game(core: &Core, req: &BotGameRequest) -> Result<i64, Error> {
    let mut tx = core.pool.begin().await?;
    db::take_players(&mut tx, &[req.member]).await?;
    if db::count_active_bot_games(&mut *tx, req.member).await? >= MAX_BOT_GAMES {
        return Err(Error::refused(text!(
            "too-many-bot-games",
            max = MAX_BOT_GAMES
        )));
    }
    let now = core.clock.now();
    let players = if req.member_first {
        [req.member, req.bot]
    } else {
        [req.bot, req.member]
    };
    let id = db::insert_game(
        &mut *tx,
        &NewGame {
            guild_id: req.guild_id,
            channel_id: req.channel_id,
            options: &req.options,
            players,
            rated: false,
            now,
            seconds_per_move: DAY,
            deadline_at: None,
            clock: None,
        },
    )
    .await?;
    db::insert_bot_game(&mut tx, id, req.level, req.coached).await?;
    let row = db::fetch_game(&mut *tx, id)
        .await?
        .ok_or_else(|| anyhow::anyhow!("game {id} vanished while starting"))?;
    let game = Game::new(req.options.clone());
    let intro = Text::new(if req.coached {
        "plays-me-coached"
    } else {
        "plays-me"
    })
    .with("who", mention(req.member))
    .with("level", crate::play::words::level(req.level))
    .with("options", crate::play::words::variant(&req.options));
    open_thread(&mut tx, &row, None, Some(req.bot)).await?;
    enqueue_board(&mut tx, &row, &game, Some(intro), None).await?;
    core.commit_change(tx, id).await?;
    info!(
        game = id,
        level = req.level.name(),
        "game against the bot started"
    );
    Ok(id)
}

/// Starts a game between two players sharing one screen on the local web page
/// ([`crate::play::local`]): unrated, no clock, its players `players` (the first moves first).
/// It is stored like any game, through the same start as challenges and tournaments.
pub async fn start_hot_seat_game(
    core: &Core,
    players: [UserId; 2],
    options: &Options,
) -> Result<i64, Error> {
    let mut tx = core.pool.begin().await?;
    let new = NewGame {
        guild_id: None,
        channel_id: crate::play::local::CHANNEL,
        options,
        players,
        rated: false,
        now: core.clock.now(),
        seconds_per_move: DAY,
        deadline_at: None,
        clock: None,
    };
    let id = start_game(&mut tx, &new, None, None, None).await?;
    core.commit_change(tx, id).await?;
    info!(game = id, "hot-seat game started");
    Ok(id)
}
