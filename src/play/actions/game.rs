//! What every action shares: the actions' [`Core`], loading a game, the board announced after a change, the game's thread, and storing the end of a game.

use std::sync::Arc;

use crate::db::Pool;
use tokio::sync::Notify;

use crate::clock::Clock;
use crate::db::{
    self, Announcement, BoardAt, DbError, Finish, GameResult, GameRow, GameStatus, Target, UserId,
};
use crate::games::{Game, Outcome, Reason};
use crate::i18n::{Lang, Text};
use crate::play::access::{mention, player_of, player_to_move};
use crate::play::present::board_caption;
use crate::play::Error;
use crate::text;

/// The position a request is about (a takeback, a call-off): its ply and how many moves of the
/// game were taken back before it. The same ply reached again after a takeback is another
/// position, so an old request never applies to it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Stamp {
    pub ply: i64,
    pub takebacks: i64,
}

impl Stamp {
    /// Game `id` as it stands at `ply` moves.
    pub async fn of(pool: &Pool, id: i64, ply: i64) -> Result<Stamp, DbError> {
        let takebacks = crate::db::count_takebacks(pool, id).await?;
        Ok(Stamp { ply, takebacks })
    }
}

/// What the actions work on: the database, the clock, and the bell that wakes the delivery task
/// when something was queued. Cheap to clone.
#[derive(Clone)]
pub struct Core {
    pub pool: Pool,
    pub clock: Clock,
    pub queued: Arc<Notify>,
    /// Tells front ends that show games live of every committed change.
    pub changes: crate::play::changes::Changes,
}

impl Core {
    pub fn new(pool: Pool, clock: Clock) -> Core {
        Core {
            pool,
            clock,
            queued: Arc::new(Notify::new()),
            changes: crate::play::changes::Changes::new(),
        }
    }

    /// Commits the transaction of a change of game `game` that queued its board: other processes
    /// hear of it with the commit (PostgreSQL's `NOTIFY`, sent only if it commits), this one
    /// right after; then the delivery task is woken. The one place where a game's changes are
    /// told.
    pub(super) async fn commit_change(
        &self,
        tx: sqlx::Transaction<'static, sqlx::Any>,
        game: i64,
    ) -> Result<(), DbError> {
        self.commit_changes(tx, &[game]).await
    }

    /// [`Core::commit_change`] for a transaction that changed several games (a tournament
    /// withdrawal ends each of the player's games at once).
    pub(super) async fn commit_changes(
        &self,
        mut tx: sqlx::Transaction<'static, sqlx::Any>,
        games: &[i64],
    ) -> Result<(), DbError> {
        for &game in games {
            db::notify_game_changed(&mut tx, game, self.changes.origin()).await?;
        }
        tx.commit().await?;
        for &game in games {
            self.changes.publish(game);
        }
        self.wake_delivery();
        Ok(())
    }

    /// Tells the delivery task that announcements wait.
    pub(crate) fn wake_delivery(&self) {
        self.queued.notify_one();
    }
}

/// A stored game with its position, or a user mistake when there is none.
pub async fn load(pool: &Pool, id: i64) -> Result<(GameRow, Game), Error> {
    let mut conn = pool.acquire().await?;
    db::load_game(&mut conn, id)
        .await?
        .ok_or_else(|| Error::refused(text!("no-such-game", game = id)))
}

/// The row as it stands after `game` (the stored row plus the change not yet written), for the
/// caption of the announcement written with the change.
pub(super) fn row_after(
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
pub(super) fn board_announcement(
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
            reminder: false,
        }),
        concerned: row.players.to_vec(),
        lang: lang.tag().to_string(),
    }
}

/// Queues the board of a game (in the transaction of the change it shows), telling the player
/// to move as they chose in `/settings`: the board's mention in the channel, a direct message
/// with the board and its Move button, or both. A final board mentions the game's followers.
pub(super) async fn enqueue_board(
    tx: &mut crate::db::Conn,
    row: &GameRow,
    game: &Game,
    intro: Option<Text>,
    last: Option<(UserId, &str)>,
) -> Result<(), DbError> {
    // A local game is shown on its page alone: nothing for Discord (no board, no direct
    // message, no thread to close).
    if crate::play::local::is_local(row) {
        return Ok(());
    }
    let to_move = row.to_move.filter(|_| row.status == GameStatus::Active);
    // The player to move whose conditional reply answers this move is not told: their reply
    // follows at once ([`crate::play::plans`]), and the board after it tells the mover.
    let answering = match (to_move, last) {
        (Some(player), Some((mover, played))) if player != mover => {
            let at_ply = game.ply() as i64 - 1;
            crate::play::plans::will_answer(&mut *tx, row.id, player, at_ply, played).await?
        }
        _ => false,
    };
    if crate::play::chats::is_chat_game(row) {
        return enqueue_chat_board(tx, row, game, intro, last, answering).await;
    }
    let lang = crate::play::server_lang(&mut *tx, row.guild_id).await?;
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
    // Members who take a daily digest, or no notices, are not told of each move.
    let quiet = answering
        || match to_move {
            Some(player) => matches!(
            db::fetch_time_settings(&mut *tx, player).await,
                Ok(t) if t.notifications != db::Notifications::PerMove
            ),
            None => false,
        };
    if let (Some(player), true) = (to_move, quiet) {
        board.mentions.retain(|&u| u != player);
    }
    if let Some(player) = to_move.filter(|_| !quiet) {
        let notify = db::fetch_settings(&mut *tx, player).await?.notify;
        if notify.direct() {
            if !notify.in_channel() {
                board.mentions.retain(|&u| u != player);
            }
            // In the player's own language, unless the channel tells them after all.
            let dm_lang = match notify.in_channel() {
                true => crate::play::member_lang(&mut *tx, player).await?,
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

/// The board of a game played in a direct or group chat ([`crate::play::chats`]), where the bot
/// may not post: the chat sees it in the answer to the interaction that made the change. The
/// player now to move (both players at the end) gets it by the bot's own direct message, in
/// their language, when Discord lets the bot write to them and they take a notice per move;
/// nobody else is written to.
async fn enqueue_chat_board(
    tx: &mut crate::db::Conn,
    row: &GameRow,
    game: &Game,
    intro: Option<Text>,
    last: Option<(UserId, &str)>,
    answering: bool,
) -> Result<(), DbError> {
    let told: Vec<UserId> = match row.to_move.filter(|_| row.status == GameStatus::Active) {
        Some(_) if answering => Vec::new(),
        Some(player) => {
            let quiet = matches!(
                db::fetch_time_settings(&mut *tx, player).await,
                Ok(t) if t.notifications != db::Notifications::PerMove
            );
            if quiet {
                Vec::new()
            } else {
                vec![player]
            }
        }
        None => {
            let mut both = row.players.to_vec();
            both.dedup();
            both
        }
    };
    for player in told {
        if !db::is_reachable(&mut *tx, player).await? {
            continue;
        }
        let lang = crate::play::member_lang(&mut *tx, player).await?;
        let mut direct = board_announcement(lang, row, game, intro.as_ref(), last);
        direct.target = Target::Direct {
            user: player,
            or_channel: None,
        };
        direct.mentions = vec![player];
        direct.concerned = vec![player];
        direct.board = direct.board.map(|b| BoardAt {
            current: false,
            ..b
        });
        db::enqueue(&mut *tx, Some(row.id), &direct).await?;
    }
    Ok(())
}

/// The name of a game's thread: `#12 inpHeXion · alice vs bob`, fitted to Discord's limit.
pub fn thread_name(id: i64, kind: crate::games::GameKind, names: [&str; 2]) -> String {
    let name = format!("#{id} {} · {} vs {}", kind.title(), names[0], names[1]);
    crate::bot::limits::fit(&name, crate::bot::limits::THREAD_NAME)
}

/// Queues the opening of a new game's thread (before its first board), when its server wants
/// threads: started from the challenge's message `from` when there is one, its players added.
pub(super) async fn open_thread(
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
    let lang = crate::play::server_lang(&mut *tx, Some(guild)).await?;
    let mut names = [String::new(), String::new()];
    for (name, &player) in names.iter_mut().zip(&row.players) {
        let stored = db::fetch_name(&mut *tx, player).await?;
        *name = crate::play::words::name_in(lang, stored, || "?".to_string());
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
pub(super) async fn close_thread(
    tx: &mut crate::db::Conn,
    row: &GameRow,
    lang: Lang,
) -> Result<(), DbError> {
    let thread = match row.thread_id {
        Some(t) => Text::raw(format!("<#{t}>")),
        None => text!("its-thread"),
    };
    let line = text!(
        "result-line",
        game = row.kind().title(),
        id = row.id,
        result = crate::play::words::row_result(row),
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

/// The announcements of a game as it starts, made from its id and queued before its first board
/// (the notices of a game matched across servers, which introduce the board).
pub(super) type Notices<'a> = &'a (dyn Fn(i64) -> Vec<Announcement> + Send + Sync);

/// Starts a game between two members in the caller's transaction: stores it, queues the opening
/// of its thread (where its server wants threads; started from the message `from` when there is
/// one), then the announcements `before` makes, then its first board, under `intro`. Returns its
/// id. Challenges and tournaments start their games through it.
pub(super) async fn start_game(
    tx: &mut crate::db::Conn,
    new: &db::NewGame<'_>,
    from: Option<db::MessageId>,
    intro: Option<Text>,
    before: Option<Notices<'_>>,
) -> Result<i64, Error> {
    let id = db::insert_game(&mut *tx, new).await?;
    let row = db::fetch_game(&mut *tx, id)
        .await?
        .ok_or_else(|| anyhow::anyhow!("game {id} vanished while starting"))?;
    let game = Game::new(new.options.clone());
    open_thread(tx, &row, from, None).await?;
    for notice in before.map(|make| make(id)).unwrap_or_default() {
        db::enqueue(&mut *tx, Some(id), &notice).await?;
    }
    enqueue_board(tx, &row, &game, intro, None).await?;
    Ok(id)
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
pub(super) fn win_for(
    row: &GameRow,
    game: &Game,
    winner: crate::games::Colour,
    reason: Reason,
) -> Finish {
    Finish {
        kind: game.kind(),
        result: GameResult::Decided(Outcome::win(winner, reason)),
        winner_id: Some(player_of(row, game, winner)),
    }
}

/// Ends a game without a move (resignation, abort), with its final board announced; a
/// tournament game's pairing takes the result in the same transaction (the caller then calls
/// [`super::after_game`]).
pub(super) async fn end_game(
    core: &Core,
    row: &GameRow,
    game: &Game,
    finish: &Finish,
    intro: Text,
) -> Result<(), DbError> {
    let mut tx = core.pool.begin().await?;
    store_ending(&mut tx, row, game, finish, intro, core.clock.now()).await?;
    db::record_tournament_game(&mut tx, row.id, row.players, finish).await?;
    core.commit_change(tx, row.id).await
}

/// The writes of a game's ending inside `tx`: the result stored on the version read, the ratings
/// applied, the final board queued with `intro`. [`end_game`] and a tournament withdrawal (which
/// ends several games in one transaction) both end games through it.
pub(super) async fn store_ending(
    tx: &mut crate::db::Conn,
    row: &GameRow,
    game: &Game,
    finish: &Finish,
    intro: Text,
    now: i64,
) -> Result<(), DbError> {
    let after = row_after(row, game, Some(finish), None);
    db::finish_game(&mut *tx, row.id, row.version, finish, now).await?;
    db::apply_result(tx, row.id).await?;
    enqueue_board(tx, &after, game, Some(intro), None).await
}
