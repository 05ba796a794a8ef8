//! The game's verbs, each in one place: start a game from an accepted challenge or against the
//! bot, apply a move (a member's or the bot's), resign, abort, lose on time, remind, expire
//! challenges, take a vacation, open a challenge.
//!
//! Each action decides on the stored state, then stores the change and queues what must be
//! announced (`db::enqueue`) in **one transaction**, guarded by the game's version (the ply
//! count) or the row's status, so two actions racing on one game cannot both apply. Nothing here
//! talks to Discord: commands, buttons, timers and the bot opponent call these and answer the
//! interaction; the delivery task posts the queue. Every decision is testable with a database
//! file alone.

use std::sync::Arc;

use crate::db::Pool;
use tokio::sync::Notify;
use tracing::info;

use super::access::{
    check_in_time, check_may_move, check_player, colour_of, mention, player_of, player_to_move,
    Refusal,
};
use super::present::board_caption;
use super::schedule::{deadline_after, reminder_due, DAY, VACATION_DAYS_PER_YEAR};
use super::terms::{check_challenge_answer, ChallengeAnswer};
use super::BotError;
use crate::ai::Level;
use crate::clock::Clock;
use crate::db::{
    self, Announcement, BoardAt, Challenge, ChallengeStatus, ChannelId, DbError, Finish,
    GameResult, GameRow, GameStatus, GuildId, MoveRecord, NewChallenge, NewGame, Target, UserId,
};
use crate::games::{Game, Options, Outcome, Reason};
use crate::i18n::{Lang, Text};
use crate::text;

/// Open challenges one member may have at once.
pub const MAX_OPEN_CHALLENGES: i64 = 10;

/// Active games one member may have against the bot at once.
pub const MAX_BOT_GAMES: i64 = 3;

/// What the actions work on: the database, the clock, and the bell that wakes the delivery task
/// when something was queued. Cheap to clone.
#[derive(Clone)]
pub struct Core {
    pub pool: Pool,
    pub clock: Clock,
    pub queued: Arc<Notify>,
}

impl Core {
    pub fn new(pool: Pool, clock: Clock) -> Core {
        Core {
            pool,
            clock,
            queued: Arc::new(Notify::new()),
        }
    }

    /// Tells the delivery task that announcements wait.
    fn wake_delivery(&self) {
        self.queued.notify_one();
    }
}

/// A stored game with its position, or a user mistake when there is none.
pub async fn load(pool: &Pool, id: i64) -> Result<(GameRow, Game), BotError> {
    let mut conn = pool.acquire().await?;
    db::load_game(&mut conn, id)
        .await?
        .ok_or_else(|| BotError::User(text!("no-such-game", game = id)))
}

/// The row as it stands after `game` (the stored row plus the change not yet written), for the
/// caption of the announcement written with the change.
fn row_after(
    row: &GameRow,
    game: &Game,
    finish: Option<&Finish>,
    deadline: Option<i64>,
) -> GameRow {
    let mut next = row.clone();
    next.version = game.ply() as i64;
    match finish {
        Some(f) => {
            next.status = f.status();
            next.result = Some(f.result.clone());
            next.winner_id = f.winner_id;
            next.deadline_at = None;
            next.to_move = None;
        }
        None => {
            next.deadline_at = deadline;
            next.to_move = Some(player_to_move(row, game));
        }
    }
    next
}

/// The public board of a game at its current ply: `intro` above the caption, mentioning the
/// player to move (or both players once it is over).
fn board_announcement(
    lang: Lang,
    row: &GameRow,
    game: &Game,
    intro: Option<&Text>,
    last: Option<(UserId, &str)>,
) -> Announcement {
    let caption = board_caption(lang, row, game, last);
    let content = match intro {
        None => caption,
        Some(intro) => format!("{}\n{caption}", intro.render(lang)),
    };
    let mentions = match row.to_move {
        Some(p) if row.status == GameStatus::Active => vec![p],
        _ => row.players.to_vec(),
    };
    Announcement {
        target: Target::Game {
            game: row.id,
            channel: row.channel_id,
        },
        content,
        mentions,
        board: Some(BoardAt {
            game: row.id,
            ply: game.ply() as i64,
            current: true,
        }),
        concerned: row.players.to_vec(),
        lang: lang.tag().to_string(),
    }
}

/// Queues the board of a game (in the transaction of the change it shows), telling the player
/// to move as they chose in `/settings`: the board's mention in the channel, a direct message
/// with the board and its Move button, or both. A final board mentions the game's followers.
async fn enqueue_board(
    tx: &mut crate::db::Conn,
    row: &GameRow,
    game: &Game,
    intro: Option<Text>,
    last: Option<(UserId, &str)>,
) -> Result<(), DbError> {
    let lang = super::server_lang(&mut *tx, row.guild_id).await?;
    let mut board = board_announcement(lang, row, game, intro.as_ref(), last);
    if row.status != GameStatus::Active {
        let followers = db::followers_of(&mut *tx, row.id).await?;
        if !followers.is_empty() {
            let names: Vec<String> = followers.iter().map(|&u| mention(u)).collect();
            board.content.push('\n');
            board
                .content
                .push_str(&text!("following", names = names.join(" ")).render(lang));
            board.mentions.extend(followers);
        }
    }
    let to_move = row.to_move.filter(|_| row.status == GameStatus::Active);
    if let Some(player) = to_move {
        let notify = db::fetch_settings(&mut *tx, player).await?.notify;
        if notify.direct() {
            if !notify.in_channel() {
                board.mentions.retain(|&u| u != player);
            }
            // In the player's own language, unless the channel tells them after all.
            let dm_lang = match notify.in_channel() {
                true => super::member_lang(&mut *tx, player).await?,
                false => lang,
            };
            let direct = Announcement {
                target: Target::Direct {
                    user: player,
                    // With their direct messages closed, the channel tells them after all.
                    or_channel: (!notify.in_channel()).then_some(row.place()),
                },
                content: text!(
                    "your-move-direct",
                    who = mention(player),
                    game = row.id,
                    place = row.place().to_string()
                )
                .render(dm_lang),
                mentions: vec![player],
                board: board.board.map(|b| BoardAt {
                    current: false,
                    ..b
                }),
                concerned: vec![player],
                lang: dm_lang.tag().to_string(),
            };
            db::enqueue(&mut *tx, Some(row.id), &board).await?;
            db::enqueue(&mut *tx, Some(row.id), &direct).await?;
            return Ok(());
        }
    }
    db::enqueue(&mut *tx, Some(row.id), &board).await?;
    if row.status != GameStatus::Active {
        close_thread(tx, row, lang).await?;
    }
    Ok(())
}

/// The name of a game's thread: `#12 inpHeXion · alice vs bob` (Discord allows 100 characters).
pub fn thread_name(id: i64, kind: crate::games::GameKind, names: [&str; 2]) -> String {
    let name = format!("#{id} {} · {} vs {}", kind.title(), names[0], names[1]);
    if name.chars().count() <= 100 {
        name
    } else {
        let mut short: String = name.chars().take(99).collect();
        short.push('…');
        short
    }
}

/// Queues the opening of a new game's thread (before its first board), when its server wants
/// threads: started from the challenge's message `from` when there is one, its players added.
async fn open_thread(
    tx: &mut crate::db::Conn,
    row: &GameRow,
    from: Option<db::MessageId>,
    bot: Option<UserId>,
) -> Result<(), DbError> {
    let Some(guild) = row.guild_id else {
        return Ok(());
    };
    if !db::fetch_server_settings(&mut *tx, guild).await?.threads {
        return Ok(());
    }
    let mut names = [String::new(), String::new()];
    for (name, &player) in names.iter_mut().zip(&row.players) {
        *name = db::fetch_player_name(&mut *tx, player)
            .await?
            .unwrap_or_else(|| "?".to_string());
    }
    let open = Announcement {
        target: Target::OpenThread {
            game: row.id,
            channel: row.channel_id,
            from,
        },
        content: thread_name(row.id, row.kind(), [&names[0], &names[1]]),
        mentions: Vec::new(),
        board: None,
        concerned: row
            .players
            .iter()
            .copied()
            .filter(|&p| Some(p) != bot)
            .collect(),
        lang: crate::i18n::FALLBACK.to_string(),
    };
    db::enqueue(&mut *tx, Some(row.id), &open).await?;
    Ok(())
}

/// After the final board of a game played in a thread: the result as one line in the game's
/// channel, then the thread archived (both skipped by the delivery when there is no thread).
async fn close_thread(tx: &mut crate::db::Conn, row: &GameRow, lang: Lang) -> Result<(), DbError> {
    let who = match row.winner_id {
        Some(w) => text!(
            "players-beat",
            winner = mention(w),
            loser = mention(row.opponent_of(w))
        ),
        None => text!(
            "players-vs",
            a = mention(row.players[0]),
            b = mention(row.players[1])
        ),
    };
    let thread = match row.thread_id {
        Some(t) => Text::raw(format!("<#{t}>")),
        None => text!("its-thread"),
    };
    let line = text!(
        "result-line",
        game = row.kind().title(),
        id = row.id,
        who = who,
        result = super::words::row_result(row),
        thread = thread
    )
    .render(lang);
    let parent = Announcement {
        target: Target::Parent {
            game: row.id,
            channel: row.channel_id,
        },
        content: line,
        mentions: Vec::new(),
        board: None,
        concerned: Vec::new(),
        lang: lang.tag().to_string(),
    };
    db::enqueue(&mut *tx, Some(row.id), &parent).await?;
    let archive = Announcement {
        target: Target::Archive {
            game: row.id,
            channel: row.channel_id,
        },
        content: String::new(),
        mentions: Vec::new(),
        board: None,
        concerned: Vec::new(),
        lang: lang.tag().to_string(),
    };
    db::enqueue(&mut *tx, Some(row.id), &archive).await?;
    Ok(())
}

/// How the game stands after a move: `Some` when it has just ended.
pub fn finish_after_move(row: &GameRow, game: &Game) -> Option<Finish> {
    let outcome = game.outcome()?;
    Some(Finish {
        kind: game.kind(),
        result: GameResult::Decided(outcome),
        winner_id: outcome.winner.map(|c| player_of(row, game, c)),
    })
}

/// A win of `winner`'s colour for `reason`.
fn win_for(row: &GameRow, game: &Game, winner: crate::games::Colour, reason: Reason) -> Finish {
    Finish {
        kind: game.kind(),
        result: GameResult::Decided(Outcome::win(winner, reason)),
        winner_id: Some(player_of(row, game, winner)),
    }
}

/// A move played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    pub game: i64,
    /// The ply it made (1 for the first move).
    pub ply: i64,
    pub notation: String,
    /// The game ended with it.
    pub over: bool,
    /// The game is played against the bot (which answers next).
    pub against_bot: bool,
}

/// Plays `text` for `player` in game `id`. `seen` is the number of moves the player saw (the
/// bot's search position); a move on a position that changed since is refused.
pub async fn play_move(
    core: &Core,
    id: i64,
    player: UserId,
    text: &str,
    seen: Option<i64>,
) -> Result<Played, BotError> {
    let (row, mut game) = load(&core.pool, id).await?;
    check_may_move(&row, &game, player)?;
    let now = core.clock.now();
    check_in_time(&row, now)?;
    let expected = game.ply() as i64;
    if seen.is_some_and(|s| s != expected) {
        return Err(DbError::Conflict(id).into());
    }
    let mv = game.play_text(text).map_err(|e| {
        Refusal::new(crate::text!(
            "move-cannot-be-played",
            input = text.trim(),
            game = id,
            error = e.to_string()
        ))
    })?;
    let notation = mv.to_string();
    let finish = finish_after_move(&row, &game);
    let next = player_to_move(&row, &game);
    let against_bot = db::fetch_bot_level(&core.pool, id).await?.is_some();
    // Games against the bot have no clock.
    let deadline = if against_bot {
        None
    } else {
        let away = db::vacation_until(&core.pool, next, now).await?;
        Some(deadline_after(now, row.seconds_per_move, away))
    };
    let after = row_after(&row, &game, finish.as_ref(), deadline);
    let mut tx = core.pool.begin().await?;
    db::record_move(
        &mut tx,
        &MoveRecord {
            game: id,
            expected_version: expected,
            notation: &notation,
            player,
            now,
            finish: finish.as_ref(),
            next_deadline: deadline,
            next_to_move: next,
        },
    )
    .await?;
    if finish.is_some() {
        db::apply_result(&mut tx, id).await?;
    }
    enqueue_board(&mut tx, &after, &game, None, Some((player, &notation))).await?;
    tx.commit().await?;
    core.wake_delivery();
    info!(game = id, ply = expected + 1, mv = %notation, "move played");
    Ok(Played {
        game: id,
        ply: expected + 1,
        notation,
        over: finish.is_some(),
        against_bot,
    })
}

/// Resigns game `id` for `player`.
pub async fn resign(core: &Core, id: i64, player: UserId) -> Result<(), BotError> {
    let (row, game) = load(&core.pool, id).await?;
    check_player(&row, player)?;
    let loser = colour_of(&row, &game, player)
        .ok_or_else(|| anyhow::anyhow!("player {player} has no colour in game {id}"))?;
    let finish = win_for(&row, &game, loser.other(), Reason::Resignation);
    end_game(
        core,
        &row,
        &game,
        &finish,
        text!("resigned", who = mention(player)),
    )
    .await?;
    info!(game = id, "resigned");
    Ok(())
}

/// `user` follows game `id` (in server `guild`), or stops following it: `true` when they now
/// follow it, with the game. Followers are mentioned with the result.
pub async fn toggle_follow(
    core: &Core,
    id: i64,
    user: UserId,
    guild: Option<GuildId>,
) -> Result<(bool, db::GameRow), BotError> {
    let (row, _) = load(&core.pool, id).await?;
    if guild.is_none() || row.guild_id != guild {
        return Err(BotError::User(text!("game-not-in-this-server", game = id)));
    }
    if row.status != GameStatus::Active {
        return Err(BotError::User(text!(
            "game-over-replay",
            game = id,
            result = super::words::row_result(&row)
        )));
    }
    let mut conn = core.pool.acquire().await?;
    let following = db::toggle_follow(&mut conn, id, user, core.clock.now()).await?;
    Ok((following, row))
}

/// A game may be called off by agreement only while neither player has made two moves.
pub const CALL_OFF_BEFORE_PLY: usize = 4;

/// `player` proposes to call off game `id`, which has barely started. Returns the ply and the
/// text of the proposal (the opponent agrees or not with buttons).
pub async fn propose_call_off(
    core: &Core,
    id: i64,
    player: UserId,
) -> Result<(i64, Text), BotError> {
    let (row, game) = load(&core.pool, id).await?;
    check_player(&row, player)?;
    if game.ply() >= CALL_OFF_BEFORE_PLY {
        return Err(BotError::User(text!("call-off-too-late", game = id)));
    }
    let text = text!(
        "call-off-proposed",
        opponent = mention(row.opponent_of(player)),
        who = mention(player),
        game = id
    );
    Ok((game.ply() as i64, text))
}

/// The other player of game `id` answers `proposer`'s call-off made at `ply` moves.
pub async fn answer_call_off(
    core: &Core,
    id: i64,
    ply: i64,
    proposer: UserId,
    user: UserId,
    accept: bool,
) -> Result<Text, BotError> {
    let (row, game) = load(&core.pool, id).await?;
    check_player(&row, user)?;
    if user == proposer || !row.players.contains(&proposer) {
        return Err(BotError::User(text!(
            "only-they-answer-proposal",
            who = mention(row.opponent_of(user))
        )));
    }
    if game.ply() as i64 != ply {
        return Err(BotError::User(text!("call-off-moved-on", game = id)));
    }
    if !accept {
        return Ok(text!("call-off-declined", who = mention(user), game = id));
    }
    let finish = Finish {
        kind: row.kind(),
        result: GameResult::Aborted {
            by: "agreement".to_string(),
        },
        winner_id: None,
    };
    let intro = text!(
        "called-off",
        game = id,
        a = mention(row.players[0]),
        b = mention(row.players[1])
    );
    end_game(core, &row, &game, &finish, intro).await?;
    info!(game = id, "called off by agreement");
    Ok(text!("call-off-done", game = id))
}

/// A moderator (`manage_guild`) in server `guild` aborts game `id`: it ends without a result.
pub async fn abort(
    core: &Core,
    id: i64,
    moderator: &str,
    manage_guild: bool,
    guild: Option<GuildId>,
) -> Result<(), BotError> {
    let (row, game) = load(&core.pool, id).await?;
    super::access::may_abort(manage_guild, &row, guild)?;
    let finish = Finish {
        kind: row.kind(),
        result: GameResult::Aborted {
            by: moderator.to_string(),
        },
        winner_id: None,
    };
    let intro = text!(
        "aborted-by-moderator",
        game = id,
        a = mention(row.players[0]),
        b = mention(row.players[1])
    );
    end_game(core, &row, &game, &finish, intro).await?;
    info!(game = id, "aborted");
    Ok(())
}

/// `player` asks to take back their last move of game `id`, before the opponent has answered
/// it. Returns the ply asked about and the text of the request (the opponent accepts or
/// declines with buttons). Games against the bot have none: it answers at once.
pub async fn ask_takeback(core: &Core, id: i64, player: UserId) -> Result<(i64, Text), BotError> {
    let (row, game) = load(&core.pool, id).await?;
    check_player(&row, player)?;
    let last = game.moves().last().map(ToString::to_string);
    let (Some(last), false) = (last, row.to_move == Some(player)) else {
        return Err(BotError::User(text!("takeback-your-turn", game = id)));
    };
    if db::fetch_bot_level(&core.pool, id).await?.is_some() {
        return Err(BotError::User(text!("takeback-against-bot")));
    }
    let ply = game.ply() as i64;
    let opponent = row.opponent_of(player);
    let text = text!(
        "takeback-asked",
        opponent = mention(opponent),
        who = mention(player),
        ply = ply,
        mv = last,
        game = id
    );
    Ok((ply, text))
}

/// The opponent answers a takeback request for move `ply` of game `id`. Accepted, the move is
/// undone (kept in the game's takebacks) and the board before it announced.
pub async fn answer_takeback(
    core: &Core,
    id: i64,
    ply: i64,
    user: UserId,
    accept: bool,
) -> Result<Text, BotError> {
    let (row, mut game) = load(&core.pool, id).await?;
    check_player(&row, user)?;
    if game.ply() as i64 != ply {
        return Err(BotError::User(text!(
            "takeback-moved-on",
            game = id,
            ply = ply
        )));
    }
    if row.to_move != Some(user) {
        return Err(BotError::User(text!(
            "only-they-answer-request",
            who = mention(row.opponent_of(user))
        )));
    }
    let asker = row.opponent_of(user);
    if !accept {
        return Ok(text!(
            "takeback-declined",
            who = mention(user),
            ply = ply,
            game = id
        ));
    }
    let taken = game
        .moves()
        .last()
        .map(ToString::to_string)
        .unwrap_or_default();
    if !game.undo() {
        return Err(anyhow::anyhow!("game {id} has no move to undo").into());
    }
    let now = core.clock.now();
    let mut tx = core.pool.begin().await?;
    db::take_back_move(&mut tx, id, ply, now).await?;
    let after = db::fetch_game(&mut *tx, id)
        .await?
        .ok_or_else(|| anyhow::anyhow!("game {id} vanished during a takeback"))?;
    let intro = text!(
        "took-back",
        asker = mention(asker),
        ply = ply,
        mv = taken,
        who = mention(user)
    );
    enqueue_board(&mut tx, &after, &game, Some(intro), None).await?;
    tx.commit().await?;
    core.wake_delivery();
    info!(game = id, ply, "move taken back");
    Ok(text!("takeback-done", ply = ply, game = id))
}

/// Ends a game without a move (resignation, abort), with its final board announced.
async fn end_game(
    core: &Core,
    row: &GameRow,
    game: &Game,
    finish: &Finish,
    intro: Text,
) -> Result<(), BotError> {
    let after = row_after(row, game, Some(finish), None);
    let mut tx = core.pool.begin().await?;
    db::finish_game(&mut *tx, row.id, row.version, finish, core.clock.now()).await?;
    db::apply_result(&mut tx, row.id).await?;
    enqueue_board(&mut tx, &after, game, Some(intro), None).await?;
    tx.commit().await?;
    core.wake_delivery();
    Ok(())
}

/// Ends game `id` on time when its deadline has passed: `true` when it did (a move that came
/// first, or another scan, leaves it alone).
pub async fn time_out(core: &Core, id: i64) -> Result<bool, BotError> {
    let now = core.clock.now();
    let (row, game) = load(&core.pool, id).await?;
    if row.status != GameStatus::Active || row.deadline_at.is_none_or(|d| d > now) {
        return Ok(false);
    }
    let loser_colour = game.position().to_move();
    let loser = player_of(&row, &game, loser_colour);
    let finish = win_for(&row, &game, loser_colour.other(), Reason::Timeout);
    let after = row_after(&row, &game, Some(&finish), None);
    let mut tx = core.pool.begin().await?;
    if !db::time_out_game(&mut *tx, id, row.version, &finish, now).await? {
        return Ok(false);
    }
    db::apply_result(&mut tx, id).await?;
    let intro = text!("ran-out-of-time", who = mention(loser));
    enqueue_board(&mut tx, &after, &game, Some(intro), None).await?;
    tx.commit().await?;
    core.wake_delivery();
    info!(game = id, %loser, "lost on time");
    Ok(true)
}

/// The reminder's text.
pub fn reminder_text(game: &GameRow, player: UserId, left: i64) -> Text {
    let common = |t: Text| {
        t.with("who", mention(player))
            .with("game", game.kind().title())
            .with("id", game.id)
            .with("opponent", mention(game.opponent_of(player)))
            .with("place", game.place().to_string())
            .with("left", super::words::time_left(left))
    };
    match game.deadline_at {
        Some(d) => common(text!("reminder-until", until = d)),
        None => common(text!("reminder")),
    }
}

/// Sends the reminder due in game `id`, if one is: `true` when one was queued.
pub async fn remind(core: &Core, id: i64) -> Result<bool, BotError> {
    let now = core.clock.now();
    let Some(row) = db::fetch_game(&core.pool, id).await? else {
        return Ok(false);
    };
    let (Some(deadline), Some(player), GameStatus::Active) =
        (row.deadline_at, row.to_move, row.status)
    else {
        return Ok(false);
    };
    let left = deadline - now;
    let Some(to) = reminder_due(row.seconds_per_move, left, row.reminders_sent) else {
        return Ok(false);
    };
    // Reminders go where the player hears of their turn (`/settings`), unless switched off.
    let settings = db::fetch_settings(&core.pool, player).await?;
    let mut targets = Vec::new();
    if settings.reminders && settings.notify.in_channel() {
        targets.push(Target::Game {
            game: row.id,
            channel: row.channel_id,
        });
    }
    if settings.reminders && settings.notify.direct() {
        targets.push(Target::Direct {
            user: player,
            // With their direct messages closed, only the game's place is left.
            or_channel: (!settings.notify.in_channel()).then_some(row.place()),
        });
    }
    let mut tx = core.pool.begin().await?;
    if !db::claim_reminder(&mut *tx, &row, to).await? {
        return Ok(false);
    }
    for target in &targets {
        // A direct message in the player's language; in the game's place, the server's.
        let lang = match target {
            Target::Direct { .. } => super::member_lang(&mut *tx, player).await?,
            _ => super::server_lang(&mut *tx, row.guild_id).await?,
        };
        let reminder = Announcement {
            target: target.clone(),
            content: reminder_text(&row, player, left).render(lang),
            mentions: vec![player],
            board: None,
            concerned: vec![player],
            lang: lang.tag().to_string(),
        };
        db::enqueue(&mut *tx, Some(id), &reminder).await?;
    }
    tx.commit().await?;
    if !targets.is_empty() {
        core.wake_delivery();
        info!(game = id, %player, "reminder queued");
    }
    Ok(!targets.is_empty())
}

/// Closes the challenges whose time ran out; their messages lose their buttons. Returns them.
pub async fn expire_challenges(core: &Core) -> Result<Vec<Challenge>, BotError> {
    let now = core.clock.now();
    let mut tx = core.pool.begin().await?;
    let expired = db::expire_challenges(&mut *tx, now).await?;
    for c in &expired {
        if let Some(message) = c.message_id {
            let lang = super::server_lang(&mut *tx, c.guild_id).await?;
            let edit = Announcement {
                target: Target::Edit {
                    channel: c.channel_id,
                    message,
                },
                content: text!(
                    "challenge-expired",
                    challenger = mention(c.challenger_id),
                    opponent = mention(c.opponent_id),
                    options = c.options.to_string()
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

/// A vacation taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Vacation {
    pub until: i64,
    /// Games waiting for the player's move whose deadline moved.
    pub paused: u64,
    /// Vacation days left in the next 365 days.
    pub days_left: i64,
}

/// `player` takes `days` of vacation from now: the deadlines of the games waiting for their move
/// move by as much, unless they have passed already (those games are lost on time). The yearly
/// cap holds under concurrent requests: `db::start_vacation_within_cap` decides them one at a
/// time.
pub async fn take_vacation(core: &Core, player: UserId, days: i64) -> Result<Vacation, BotError> {
    let now = core.clock.now();
    let since = now - 365 * DAY;
    let cap = VACATION_DAYS_PER_YEAR * DAY;
    let seconds = days * DAY;
    let mut tx = core.pool.begin().await?;
    let started = days >= 1
        && db::start_vacation_within_cap(
            &mut tx,
            &db::VacationRequest {
                player,
                starts_at: now,
                seconds,
                counted_since: since,
                cap_seconds: cap,
            },
        )
        .await?;
    if !started {
        drop(tx);
        let away = db::vacation_until(&core.pool, player, now).await?;
        let used = db::vacation_seconds_since(&core.pool, player, since).await?;
        return Err(super::schedule::vacation_refusal(days, away, used).into());
    }
    let paused = db::pause_deadlines(&mut *tx, player, seconds, now).await?;
    tx.commit().await?;
    let used = db::vacation_seconds_since(&core.pool, player, since).await?;
    info!(%player, days, paused, "vacation taken");
    Ok(Vacation {
        until: now + seconds,
        paused,
        days_left: (cap - used).max(0) / DAY,
    })
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
}

/// Opens a challenge, within the caps: [`MAX_OPEN_CHALLENGES`] per member, one per pair of
/// members and game kind. Returns its id. The two members' rows are taken first, so that
/// challenges asked for at the same moment are counted one after the other.
pub async fn open_challenge(core: &Core, req: &ChallengeRequest) -> Result<i64, BotError> {
    let now = core.clock.now();
    let kind = req.options.kind();
    let mut tx = core.pool.begin().await?;
    db::take_players(&mut tx, &[req.challenger, req.opponent]).await?;
    if let Some(c) =
        db::find_open_challenge(&mut *tx, req.challenger, req.opponent, kind, now).await?
    {
        return Err(BotError::User(text!(
            "challenge-already-open",
            game = kind.title(),
            opponent = mention(req.opponent),
            id = c.id
        )));
    }
    let open = db::count_open_challenges(&mut *tx, req.challenger, now).await?;
    if open >= MAX_OPEN_CHALLENGES {
        return Err(BotError::User(text!("too-many-challenges", open = open)));
    }
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
            expires_at: now + super::schedule::CHALLENGE_TTL_SECS,
            seconds_per_move: req.seconds_per_move,
            challenger_first: req.challenger_first,
            rematch_of: req.rematch_of,
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
) -> Result<(i64, Text, db::GameRow), BotError> {
    let (row, _) = load(&core.pool, id).await?;
    if !row.players.contains(&user) {
        return Err(BotError::User(text!("rematch-players-only", game = id)));
    }
    if row.status == GameStatus::Active {
        return Err(BotError::User(text!("game-still-played", game = id)));
    }
    if db::fetch_bot_level(&core.pool, id).await?.is_some() {
        return Err(BotError::User(text!("rematch-against-bot")));
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
    };
    let challenge = open_challenge(core, &req).await?;
    let first = row.players[1];
    let kind = row.kind();
    let text = text!(
        "rematch-offered",
        opponent = mention(opponent),
        who = mention(user),
        game = id,
        options = row.options.to_string(),
        rated = if row.rated {
            text!("rated")
        } else {
            text!("unrated")
        },
        first = mention(first),
        colour = super::words::colour(kind, crate::games::Colour::First),
        hours = super::schedule::CHALLENGE_TTL_SECS / 3600
    );
    Ok((challenge, text, row))
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
) -> Result<Answered, BotError> {
    let now = core.clock.now();
    let challenge = db::fetch_challenge(&core.pool, id)
        .await?
        .ok_or_else(|| BotError::User(text!("challenge-gone", id = id)))?;
    if let Err((refusal, store)) = check_challenge_answer(&challenge, user, answer, now) {
        if let Some(status) = store {
            db::close_challenge(&core.pool, id, status, None).await?;
        }
        return Err(refusal.into());
    }
    let gone = || BotError::User(text!("challenge-answered-meanwhile", id = id));
    let c = &challenge;
    if answer != ChallengeAnswer::Accept {
        let (status, text) = match answer {
            ChallengeAnswer::Decline => (
                ChallengeStatus::Declined,
                text!(
                    "challenge-declined",
                    opponent = mention(c.opponent_id),
                    challenger = mention(c.challenger_id),
                    options = c.options.to_string()
                ),
            ),
            _ => (
                ChallengeStatus::Withdrawn,
                text!(
                    "challenge-withdrawn",
                    challenger = mention(c.challenger_id),
                    opponent = mention(c.opponent_id),
                    options = c.options.to_string()
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
    let away = db::vacation_until(&core.pool, players[0], now).await?;
    let deadline = deadline_after(now, c.seconds_per_move, away);
    let mut tx = core.pool.begin().await?;
    let game_id = db::insert_game(
        &mut *tx,
        &NewGame {
            guild_id: c.guild_id,
            channel_id: c.channel_id,
            options: &c.options,
            players,
            rated: c.rated,
            now,
            seconds_per_move: c.seconds_per_move,
            deadline_at: Some(deadline),
        },
    )
    .await?;
    if !db::close_challenge(&mut *tx, id, ChallengeStatus::Accepted, Some(game_id)).await? {
        return Err(gone());
    }
    let row = db::fetch_game(&mut *tx, game_id)
        .await?
        .ok_or_else(|| anyhow::anyhow!("game {game_id} vanished while starting"))?;
    let game = Game::new(c.options.clone());
    open_thread(&mut tx, &row, c.message_id, None).await?;
    enqueue_board(&mut tx, &row, &game, None, None).await?;
    tx.commit().await?;
    core.wake_delivery();
    info!(challenge = id, game = game_id, "challenge accepted");
    Ok(Answered::Started {
        game: game_id,
        text: text!(
            "challenge-accepted",
            opponent = mention(c.opponent_id),
            challenger = mention(c.challenger_id),
            game = game_id,
            options = c.options.to_string()
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
pub async fn start_bot_game(core: &Core, req: &BotGameRequest) -> Result<i64, BotError> {
    let mut tx = core.pool.begin().await?;
    db::take_players(&mut tx, &[req.member]).await?;
    if db::count_active_bot_games(&mut *tx, req.member).await? >= MAX_BOT_GAMES {
        return Err(BotError::User(text!(
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
        level = super::words::level(req.level),
        options = req.options.to_string()
    );
    open_thread(&mut tx, &row, None, Some(req.bot)).await?;
    enqueue_board(&mut tx, &row, &game, Some(intro), None).await?;
    tx.commit().await?;
    core.wake_delivery();
    info!(
        game = id,
        level = req.level.name(),
        "game against the bot started"
    );
    Ok(id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::testing::temp_db;

    const T0: i64 = 1_800_000_000;
    const ANN: UserId = UserId(11);
    const BOB: UserId = UserId(u64::MAX - 3);

    async fn core_at(
        t: i64,
    ) -> (
        Core,
        Arc<std::sync::atomic::AtomicI64>,
        db::testing::TempFile,
    ) {
        let (pool, file) = temp_db().await;
        for (id, name) in [(ANN, "ann"), (BOB, "bob")] {
            db::upsert_player(&pool, id, name, T0).await.unwrap();
        }
        let (clock, handle) = Clock::fixed(t);
        (Core::new(pool, clock), handle, file)
    }

    async fn started(core: &Core, line: &str, rated: bool) -> i64 {
        let req = ChallengeRequest {
            guild_id: Some(GuildId(7)),
            channel_id: ChannelId(8),
            challenger: ANN,
            opponent: BOB,
            options: Options::parse_line(line).unwrap(),
            rated,
            seconds_per_move: DAY,
            challenger_first: true,
            rematch_of: None,
        };
        let c = open_challenge(core, &req).await.unwrap();
        match answer_challenge(core, c, BOB, ChallengeAnswer::Accept)
            .await
            .unwrap()
        {
            Answered::Started { game, .. } => game,
            other => panic!("{other:?}"),
        }
    }

    async fn queued(core: &Core) -> Vec<Announcement> {
        let rows = sqlx::query("SELECT * FROM announcements ORDER BY id")
            .fetch_all(&core.pool)
            .await
            .unwrap();
        rows.iter()
            .map(|r| {
                <db::QueuedAnnouncement as sqlx::FromRow<_>>::from_row(r)
                    .unwrap()
                    .body
            })
            .collect()
    }

    #[tokio::test]
    async fn a_takeback_needs_the_opponent_and_gives_the_clock_back() {
        let (core, clock, _f) = core_at(T0).await;
        let id = started(&core, "inphexion size=5", true).await;
        let at = |t: i64| clock.store(t, std::sync::atomic::Ordering::SeqCst);
        at(T0 + 600);
        play_move(&core, id, ANN, "c3", None).await.unwrap();
        let refused = ask_takeback(&core, id, BOB).await.unwrap_err();
        assert!(
            matches!(&refused, BotError::User(t) if t.render(crate::i18n::Lang::EN).contains("your turn")),
            "{refused:?}"
        );
        let (ply, text) = ask_takeback(&core, id, ANN).await.unwrap();
        assert_eq!(ply, 1);
        let text = text.render(Lang::EN);
        assert!(text.contains("`c3`"), "{text}");
        // Only the opponent answers; a decline changes nothing.
        assert!(answer_takeback(&core, id, ply, ANN, true).await.is_err());
        answer_takeback(&core, id, ply, BOB, false).await.unwrap();
        assert_eq!(load(&core.pool, id).await.unwrap().1.ply(), 1);
        at(T0 + 900);
        answer_takeback(&core, id, ply, BOB, true).await.unwrap();
        let (row, game) = load(&core.pool, id).await.unwrap();
        assert_eq!((game.ply(), row.version, row.to_move), (0, 0, Some(ANN)));
        // Ann had a day less 600 s left when she moved: she has it again from now.
        assert_eq!(row.deadline_at, Some(T0 + 900 + DAY - 600));
        let kept: (i64, String) =
            sqlx::query_as("SELECT ply, notation FROM takebacks WHERE game_id = $1")
                .bind(id)
                .fetch_one(&core.pool)
                .await
                .unwrap();
        assert_eq!(kept, (1, "c3".to_string()));
        // An answer to the same request again is stale.
        let stale = answer_takeback(&core, id, ply, BOB, true)
            .await
            .unwrap_err();
        assert!(
            matches!(&stale, BotError::User(t) if t.render(crate::i18n::Lang::EN).contains("moved on")),
            "{stale:?}"
        );
        play_move(&core, id, ANN, "b2", Some(0)).await.unwrap();
        assert_eq!(
            load(&core.pool, id).await.unwrap().1.moves()[0].to_string(),
            "b2"
        );
    }

    #[tokio::test]
    async fn a_game_is_called_off_only_early_and_only_by_agreement() {
        let (core, _t, _f) = core_at(T0).await;
        let id = started(&core, "inphexion size=5", true).await;
        let (ply, _) = propose_call_off(&core, id, BOB).await.unwrap();
        assert!(
            answer_call_off(&core, id, ply, BOB, BOB, true)
                .await
                .is_err(),
            "not the proposer"
        );
        answer_call_off(&core, id, ply, BOB, ANN, false)
            .await
            .unwrap();
        assert_eq!(
            load(&core.pool, id).await.unwrap().0.status,
            GameStatus::Active
        );
        play_move(&core, id, ANN, "c3", None).await.unwrap();
        let stale = answer_call_off(&core, id, ply, BOB, ANN, true)
            .await
            .unwrap_err();
        assert!(
            matches!(&stale, BotError::User(t) if t.render(crate::i18n::Lang::EN).contains("moved on")),
            "{stale:?}"
        );
        let (ply, _) = propose_call_off(&core, id, ANN).await.unwrap();
        answer_call_off(&core, id, ply, ANN, BOB, true)
            .await
            .unwrap();
        let (row, _) = load(&core.pool, id).await.unwrap();
        assert_eq!(row.status, GameStatus::Aborted);
        assert_eq!(row.result_text(), "aborted by agreement");
        assert!(db::fetch_rating(
            &core.pool,
            GuildId(7),
            crate::games::GameKind::Inphexion,
            ANN
        )
        .await
        .unwrap()
        .is_none());
        // Later in a game it is too late.
        let id = started(&core, "inphexion size=5", true).await;
        for (who, mv) in [(ANN, "c3"), (BOB, "c3-c2"), (ANN, "b2"), (BOB, "d4")] {
            if play_move(&core, id, who, mv, None).await.is_err() {
                let (_, game) = load(&core.pool, id).await.unwrap();
                let any = game.legal_notations()[0].clone();
                play_move(&core, id, who, &any, None).await.unwrap();
            }
        }
        let late = propose_call_off(&core, id, ANN).await.unwrap_err();
        assert!(
            matches!(&late, BotError::User(t) if t.render(crate::i18n::Lang::EN).contains("under way")),
            "{late:?}"
        );
    }

    #[tokio::test]
    async fn a_rematch_swaps_the_seats_and_keeps_the_terms() {
        let (core, _t, _f) = core_at(T0).await;
        let id = started(&core, "exxit tiles=19 pie", true).await;
        let refused = offer_rematch(&core, id, ANN).await.unwrap_err();
        assert!(
            matches!(&refused, BotError::User(t) if t.render(crate::i18n::Lang::EN).contains("still being played"))
        );
        resign(&core, id, BOB).await.unwrap();
        let stranger = offer_rematch(&core, id, UserId(99)).await.unwrap_err();
        assert!(
            matches!(&stranger, BotError::User(t) if t.render(crate::i18n::Lang::EN).contains("Only the players"))
        );
        // Either player may offer it; Ann sat first, so Bob starts the rematch.
        let (c, text, _) = offer_rematch(&core, id, ANN).await.unwrap();
        let text = text.render(Lang::EN);
        assert!(text.contains(&format!("game #{id}")), "{text}");
        assert!(
            offer_rematch(&core, id, BOB).await.is_err(),
            "one offer at a time"
        );
        let Answered::Started { game, .. } =
            answer_challenge(&core, c, BOB, ChallengeAnswer::Accept)
                .await
                .unwrap()
        else {
            panic!("the rematch starts");
        };
        let (old, _) = load(&core.pool, id).await.unwrap();
        let (new, _) = load(&core.pool, game).await.unwrap();
        assert_eq!(new.players, [BOB, ANN]);
        assert_eq!(new.to_move, Some(BOB));
        assert_eq!(
            (new.options.clone(), new.rated, new.seconds_per_move),
            (old.options, old.rated, old.seconds_per_move)
        );
        let ch = db::fetch_challenge(&core.pool, c).await.unwrap().unwrap();
        assert_eq!((ch.rematch_of, ch.challenger_first), (Some(id), false));
    }

    #[tokio::test]
    async fn a_server_without_threads_plays_in_the_channel() {
        let (core, _t, _f) = core_at(T0).await;
        let off = db::ServerSettings { threads: false };
        db::store_server_settings(&core.pool, GuildId(7), off, T0)
            .await
            .unwrap();
        let id = started(&core, "exxit", false).await;
        let q = queued(&core).await;
        assert_eq!(q.len(), 1, "{q:?}");
        assert_eq!(
            q[0].target,
            Target::Game {
                game: id,
                channel: ChannelId(8)
            }
        );
    }

    #[test]
    fn thread_names_fit_discord() {
        use crate::games::GameKind;
        assert_eq!(
            thread_name(12, GameKind::Exxit, ["alice", "bob"]),
            "#12 EXXIT · alice vs bob"
        );
        let long = "名".repeat(80);
        let name = thread_name(7, GameKind::Inphexion, [&long, &long]);
        assert_eq!(name.chars().count(), 100);
        assert!(name.starts_with("#7 inpHeXion · 名") && name.ends_with('…'));
    }

    #[tokio::test]
    async fn a_move_is_stored_with_its_board_in_one_transaction() {
        let (core, _t, _f) = core_at(T0).await;
        let id = started(&core, "inphexion size=5", false).await;
        let start = queued(&core).await;
        assert_eq!(start.len(), 2);
        // The game's thread opens first, with its players, then the board goes there.
        assert_eq!(
            start[0].target,
            Target::OpenThread {
                game: id,
                channel: ChannelId(8),
                from: None
            }
        );
        assert_eq!(start[0].content, format!("#{id} inpHeXion · ann vs bob"));
        assert_eq!(start[0].concerned, [ANN, BOB]);
        assert_eq!(
            start[1].target,
            Target::Game {
                game: id,
                channel: ChannelId(8)
            }
        );
        assert_eq!(start[1].mentions, [ANN], "the first player is pinged");
        // Refusals change nothing.
        for (who, text, needle) in [
            (BOB, "c3", "not your turn"),
            (ANN, "zz9", "cannot be played"),
        ] {
            let e = play_move(&core, id, who, text, None).await.unwrap_err();
            assert!(
                matches!(&e, BotError::User(t) if t.render(crate::i18n::Lang::EN).contains(needle)),
                "{e:?}"
            );
        }
        let played = play_move(&core, id, ANN, "c3", None).await.unwrap();
        assert_eq!(
            (played.ply, played.notation.as_str(), played.over),
            (1, "c3", false)
        );
        let row = db::fetch_game(&core.pool, id).await.unwrap().unwrap();
        assert_eq!((row.version, row.to_move), (1, Some(BOB)));
        let q = queued(&core).await;
        assert_eq!(q.len(), 3);
        assert_eq!(q[2].board.map(|b| b.ply), Some(1));
        assert!(q[2].content.contains("played `c3`"), "{}", q[2].content);
        assert_eq!(q[2].mentions, [BOB]);
        // A move on a position the mover did not see is refused.
        let stale = play_move(&core, id, BOB, "c3-d3", Some(0))
            .await
            .unwrap_err();
        assert!(
            matches!(&stale, BotError::User(t) if t.render(crate::i18n::Lang::EN).contains("changed")),
            "{stale:?}"
        );
    }

    #[tokio::test]
    async fn resigning_and_timing_out_end_the_game_once_with_one_announcement() {
        let (core, clock, _f) = core_at(T0).await;
        let id = started(&core, "inphexion size=5", true).await;
        assert!(!time_out(&core, id).await.unwrap(), "not yet");
        clock.store(T0 + DAY, std::sync::atomic::Ordering::SeqCst);
        assert!(time_out(&core, id).await.unwrap());
        assert!(!time_out(&core, id).await.unwrap(), "only once");
        let row = db::fetch_game(&core.pool, id).await.unwrap().unwrap();
        assert_eq!(
            (row.status, row.winner_id, row.to_move),
            (GameStatus::Finished, Some(BOB), None)
        );
        let e = resign(&core, id, ANN).await.unwrap_err();
        assert!(
            matches!(&e, BotError::User(t) if t.render(crate::i18n::Lang::EN).contains("over")),
            "{e:?}"
        );
        let q = queued(&core).await;
        assert_eq!(q.len(), 5);
        assert!(q[2].content.contains("ran out of time"));
        assert_eq!(q[2].mentions, [ANN, BOB]);
        // Then one line in the channel (when the game has a thread), and the thread archived.
        let at = ChannelId(8);
        assert_eq!(
            (&q[3].target, &q[4].target),
            (
                &Target::Parent {
                    game: id,
                    channel: at
                },
                &Target::Archive {
                    game: id,
                    channel: at
                }
            )
        );
        assert!(
            q[3].content.contains(&format!(
                "{} beat {} (black wins: timeout)",
                mention(BOB),
                mention(ANN)
            )),
            "{}",
            q[3].content
        );
        assert!(q[3].mentions.is_empty(), "the line pings nobody");
        // Rated: both players have a rating now.
        assert!(db::fetch_rating(
            &core.pool,
            GuildId(7),
            crate::games::GameKind::Inphexion,
            BOB
        )
        .await
        .unwrap()
        .is_some());
    }

    #[tokio::test]
    async fn a_vacation_never_revives_a_lost_game_and_its_cap_holds_under_concurrency() {
        let (core, clock, _f) = core_at(T0).await;
        let id = started(&core, "inphexion size=5", false).await;
        // Ann's deadline passed; her vacation leaves it alone.
        clock.store(T0 + DAY + 5, std::sync::atomic::Ordering::SeqCst);
        let v = take_vacation(&core, ANN, 3).await.unwrap();
        assert_eq!(v.paused, 0);
        assert!(time_out(&core, id).await.unwrap(), "still lost on time");
        // Four requests for 30 days at once: one is taken.
        let (core2, _t2, _f2) = core_at(T0).await;
        let results = futures_all(&core2).await;
        assert_eq!(
            results.iter().filter(|r| r.is_ok()).count(),
            1,
            "{results:?}"
        );
        let used = db::vacation_seconds_since(&core2.pool, BOB, T0 - 365 * DAY)
            .await
            .unwrap();
        assert_eq!(used, 30 * DAY);
    }

    async fn futures_all(core: &Core) -> Vec<Result<Vacation, String>> {
        let mut set = tokio::task::JoinSet::new();
        for _ in 0..4 {
            let core = core.clone();
            set.spawn(async move {
                take_vacation(&core, BOB, 30)
                    .await
                    .map_err(|e| format!("{e:?}"))
            });
        }
        let mut out = Vec::new();
        while let Some(r) = set.join_next().await {
            out.push(r.unwrap());
        }
        out
    }

    #[tokio::test]
    async fn challenges_are_capped_per_member_and_per_pair() {
        let (core, _t, _f) = core_at(T0).await;
        let mut req = ChallengeRequest {
            guild_id: Some(GuildId(7)),
            channel_id: ChannelId(8),
            challenger: ANN,
            opponent: BOB,
            options: Options::parse_line("exxit tiles=39").unwrap(),
            rated: true,
            seconds_per_move: DAY,
            challenger_first: true,
            rematch_of: None,
        };
        open_challenge(&core, &req).await.unwrap();
        // The same pair and game, either way round, with other options: refused.
        req.options = Options::parse_line("exxit tiles=19").unwrap();
        let again = open_challenge(&core, &req).await.unwrap_err();
        assert!(
            matches!(&again, BotError::User(t) if t.render(crate::i18n::Lang::EN).contains("already an open")),
            "{again:?}"
        );
        (req.challenger, req.opponent) = (BOB, ANN);
        assert!(open_challenge(&core, &req).await.is_err());
        (req.challenger, req.opponent) = (ANN, BOB);
        req.options = Options::parse_line("inphexion size=7").unwrap();
        open_challenge(&core, &req).await.unwrap();
        for n in 0..8u64 {
            req.opponent = UserId(1000 + n);
            db::upsert_player(&core.pool, req.opponent, "x", T0)
                .await
                .unwrap();
            open_challenge(&core, &req).await.unwrap();
        }
        req.opponent = UserId(2000);
        db::upsert_player(&core.pool, req.opponent, "x", T0)
            .await
            .unwrap();
        let flood = open_challenge(&core, &req).await.unwrap_err();
        assert!(
            matches!(&flood, BotError::User(t) if t.render(crate::i18n::Lang::EN).contains("10 open challenges")),
            "{flood:?}"
        );
    }

    /// The results of tasks started together, and how many succeeded.
    async fn settled<T>(
        tasks: Vec<tokio::task::JoinHandle<Result<T, BotError>>>,
    ) -> (usize, Vec<Result<T, BotError>>) {
        let mut results = Vec::new();
        for t in tasks {
            results.push(t.await.unwrap());
        }
        (results.iter().filter(|r| r.is_ok()).count(), results)
    }

    /// Requests arriving together are counted one after the other: the caps hold.
    async fn caps_hold_when_requests_arrive_together(pool: db::Pool) {
        let others: Vec<UserId> = (0..14).map(|n| UserId(3000 + n)).collect();
        let me = UserId(999);
        for &id in [ANN, BOB, me].iter().chain(&others) {
            db::upsert_player(&pool, id, "x", T0).await.unwrap();
        }
        let core = Core::new(pool, Clock::fixed(T0).0);
        let req = |challenger, opponent| ChallengeRequest {
            guild_id: Some(GuildId(7)),
            channel_id: ChannelId(8),
            challenger,
            opponent,
            options: Options::parse_line("inphexion size=7").unwrap(),
            rated: true,
            seconds_per_move: DAY,
            challenger_first: true,
            rematch_of: None,
        };
        let refused = |results: &[Result<i64, BotError>], text: &str| {
            results
                .iter()
                .filter(|r| {
                    matches!(r, Err(BotError::User(t)) if t.render(crate::i18n::Lang::EN).contains(text))
                })
                .count()
        };
        // Fourteen challenges by one member at once: ten open.
        let tasks: Vec<_> = others
            .iter()
            .map(|&o| {
                let (core, req) = (core.clone(), req(ANN, o));
                tokio::spawn(async move { open_challenge(&core, &req).await })
            })
            .collect();
        let (opened, results) = settled(tasks).await;
        assert_eq!(opened, 10, "{results:?}");
        assert_eq!(refused(&results, "10 open challenges"), 4, "{results:?}");
        // Two members challenging each other at once: one challenge.
        let (a, b) = (
            tokio::spawn({
                let (core, req) = (core.clone(), req(BOB, others[0]));
                async move { open_challenge(&core, &req).await }
            }),
            tokio::spawn({
                let (core, req) = (core.clone(), req(others[0], BOB));
                async move { open_challenge(&core, &req).await }
            }),
        );
        let (opened, results) = settled(vec![a, b]).await;
        assert_eq!(opened, 1, "{results:?}");
        assert_eq!(refused(&results, "already an open"), 1, "{results:?}");
        // Six games against the bot at once: three.
        let tasks: Vec<_> = (0..6)
            .map(|_| {
                let core = core.clone();
                let req = BotGameRequest {
                    guild_id: Some(GuildId(7)),
                    channel_id: ChannelId(8),
                    member: BOB,
                    bot: me,
                    options: Options::parse_line("inphexion size=7").unwrap(),
                    level: crate::ai::Level::Easy,
                    member_first: true,
                };
                tokio::spawn(async move { start_bot_game(&core, &req).await })
            })
            .collect();
        let (started, results) = settled(tasks).await;
        assert_eq!(started, 3, "{results:?}");
        assert_eq!(
            db::count_active_bot_games(&core.pool, BOB).await.unwrap(),
            3
        );
    }

    #[tokio::test]
    async fn caps_hold_when_requests_arrive_together_on_sqlite() {
        let (pool, _file) = temp_db().await;
        caps_hold_when_requests_arrive_together(pool).await;
    }

    #[tokio::test]
    async fn caps_hold_when_requests_arrive_together_on_postgres() {
        let (pool, _url) = db::testing::pg_db().await;
        caps_hold_when_requests_arrive_together(pool).await;
    }

    #[tokio::test]
    async fn reminders_follow_the_stored_turn_and_mode() {
        let (core, clock, _f) = core_at(T0).await;
        let id = started(&core, "inphexion size=5", false).await;
        assert!(!remind(&core, id).await.unwrap());
        clock.store(T0 + DAY / 2, std::sync::atomic::Ordering::SeqCst);
        assert!(remind(&core, id).await.unwrap());
        assert!(!remind(&core, id).await.unwrap(), "once");
        let dm = db::Settings {
            notify: db::NotifyMode::Dm,
            reminders: true,
        };
        db::store_settings(&core.pool, ANN, dm, T0).await.unwrap();
        clock.store(T0 + DAY - 60, std::sync::atomic::Ordering::SeqCst);
        assert!(remind(&core, id).await.unwrap());
        let q = queued(&core).await;
        assert_eq!(
            q[2].target,
            Target::Game {
                game: id,
                channel: ChannelId(8)
            }
        );
        assert_eq!(
            q[3].target,
            Target::Direct {
                user: ANN,
                or_channel: Some(ChannelId(8))
            }
        );
    }
}
