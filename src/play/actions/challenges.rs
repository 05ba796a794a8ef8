//! Starting games: challenges (open, answer, expire), rematches, and games against the bot.

use tracing::info;

use super::game::{enqueue_board, load, open_thread, start_game, Core};
use crate::ai::Level;
use crate::db::{
    self, Announcement, Challenge, ChallengeStatus, ChannelId, GameStatus, GuildId, NewChallenge,
    NewGame, Target, UserId,
};
use crate::games::{Game, Options};
use crate::i18n::Text;
use crate::play::access::mention;
use crate::play::schedule::{first_turn, ClockPlace, DAY};
use crate::play::terms::{check_challenge_answer, ChallengeAnswer};
use crate::play::Error;
use crate::text;
use crate::time_control::TimeControl;

/// Open challenges one member may have at once.
pub const MAX_OPEN_CHALLENGES: i64 = 10;

/// Active games one member may have against the bot at once.
pub const MAX_BOT_GAMES: i64 = 3;

/// Closes the challenges whose time ran out; their messages lose their buttons. Returns them.
pub async fn expire_challenges(core: &Core) -> Result<Vec<Challenge>, Error> {
    let now = core.clock.now();
    let mut tx = core.pool.begin().await?;
    let expired = db::expire_challenges(&mut *tx, now).await?;
    for c in &expired {
        // A challenge in a direct or group chat is left as it is: the bot may not edit a message
        // there outside an interaction (its buttons answer that the challenge expired).
        if c.guild_id.is_none() {
            continue;
        }
        if let Some(message) = c.message_id {
            let lang = crate::play::server_lang(&mut *tx, c.guild_id).await?;
            let edit = Announcement {
                target: Target::Edit {
                    channel: c.channel_id,
                    message,
                },
                content: text!(
                    "challenge-expired",
                    challenger = mention(c.challenger_id),
                    opponent = mention(c.opponent_id),
                    options = crate::play::words::variant(&c.options)
                )
                .render(lang),
                mentions: Vec::new(),
                board: None,
                concerned: Vec::new(),
                lang: lang.tag().to_string(),
            };
            db::enqueue(&mut *tx, None, &edit).await?;
        }
    }
    tx.commit().await?;
    if !expired.is_empty() {
        core.wake_delivery();
    }
    Ok(expired)
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
/// members and game kind. Returns its id. The two members' rows are taken first, so that
/// challenges asked for at the same moment are counted one after the other.
pub async fn open_challenge(core: &Core, req: &ChallengeRequest) -> Result<i64, Error> {
    let now = core.clock.now();
    let kind = req.options.kind();
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
    let open = db::count_open_challenges(&mut *tx, req.challenger, now).await?;
    if open >= MAX_OPEN_CHALLENGES {
        return Err(Error::refused(text!("too-many-challenges", open = open)));
    }
    let time_control = match req.time_control {
        Some(c) => c,
        None => TimeControl::per_move(req.seconds_per_move)
            .map_err(|e| anyhow::anyhow!("time per move {} s: {e}", req.seconds_per_move))?,
    };
    let weekends_off = match (req.weekends_off, req.guild_id) {
        (Some(w), _) => w,
        (None, Some(g)) => db::fetch_server_clock(&mut *tx, g).await?.weekends_off,
        (None, None) => false,
    };
    let id = db::insert_challenge(
        &mut *tx,
        &NewChallenge {
            guild_id: req.guild_id,
            channel_id: req.channel_id,
            challenger_id: req.challenger,
            opponent_id: req.opponent,
            options: &req.options,
            rated: req.rated,
            now,
            expires_at: now + crate::play::schedule::CHALLENGE_TTL_SECS,
            seconds_per_move: req.seconds_per_move,
            challenger_first: req.challenger_first,
            rematch_of: req.rematch_of,
            time_control,
            weekends_off,
        },
    )
    .await?;
    tx.commit().await?;
    Ok(id)
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

/// `user` answers challenge `id`.
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
    if let Err((refusal, store)) = check_challenge_answer(&challenge, user, answer, now) {
        if let Some(status) = store {
            db::close_challenge(&core.pool, id, status, None).await?;
        }
        return Err(refusal.into());
    }
    let gone = || Error::refused(text!("challenge-answered-meanwhile", id = id));
    let c = &challenge;
    if answer != ChallengeAnswer::Accept {
        let (status, text) = match answer {
            ChallengeAnswer::Decline => (
                ChallengeStatus::Declined,
                text!(
                    "challenge-declined",
                    opponent = mention(c.opponent_id),
                    challenger = mention(c.challenger_id),
                    options = crate::play::words::variant(&c.options)
                ),
            ),
            _ => (
                ChallengeStatus::Withdrawn,
                text!(
                    "challenge-withdrawn",
                    challenger = mention(c.challenger_id),
                    opponent = mention(c.opponent_id),
                    options = crate::play::words::variant(&c.options)
                ),
            ),
        };
        if !db::close_challenge(&core.pool, id, status, None).await? {
            return Err(gone());
        }
        return Ok(Answered::Closed(text));
    }
    // The first seat moves first: their clock starts now (after their vacation, if away).
    let players = if c.challenger_first {
        [c.challenger_id, c.opponent_id]
    } else {
        [c.opponent_id, c.challenger_id]
    };
    // Read before the transaction, whose first statement then writes (SQLite).
    let mut conn = core.pool.acquire().await?;
    let place = ClockPlace {
        game: None,
        guild: c.guild_id,
    };
    let (deadline, clock) = first_turn(
        &mut conn,
        place,
        c.time_control,
        c.weekends_off,
        players[0],
        c.seconds_per_move,
        now,
    )
    .await?;
    drop(conn);
    let mut tx = core.pool.begin().await?;
    let new = NewGame {
        guild_id: c.guild_id,
        channel_id: c.channel_id,
        options: &c.options,
        players,
        rated: c.rated,
        now,
        seconds_per_move: c.seconds_per_move,
        deadline_at: Some(deadline),
        clock,
    };
    let game_id = start_game(&mut tx, &new, c.message_id, None).await?;
    if !db::close_challenge(&mut *tx, id, ChallengeStatus::Accepted, Some(game_id)).await? {
        return Err(gone());
    }
    core.commit_change(tx, game_id).await?;
    info!(challenge = id, game = game_id, "challenge accepted");
    Ok(Answered::Started {
        game: game_id,
        text: text!(
            "challenge-accepted",
            opponent = mention(c.opponent_id),
            challenger = mention(c.challenger_id),
            game = game_id,
            options = crate::play::words::variant(&c.options)
        ),
    })
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
    db::insert_bot_game(&mut tx, id, req.level).await?;
    let row = db::fetch_game(&mut *tx, id)
        .await?
        .ok_or_else(|| anyhow::anyhow!("game {id} vanished while starting"))?;
    let game = Game::new(req.options.clone());
    let intro = text!(
        "plays-me",
        who = mention(req.member),
        level = crate::play::words::level(req.level),
        options = crate::play::words::variant(&req.options)
    );
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
    let id = start_game(&mut tx, &new, None, None).await?;
    core.commit_change(tx, id).await?;
    info!(game = id, "hot-seat game started");
    Ok(id)
}
