//! Seeks: a member asks for a game in a server — any of several variants, any time per move
//! within a range — and is matched at once with a compatible open seek of another member there
//! (the nearest rating first), or their seek waits, open, until a member matches or accepts it,
//! they withdraw it, or it expires ([`expire_seeks`]). A matched seek starts its game through
//! the start of every agreed game ([`super::challenges`]): the seek is claimed by one
//! conditional write in the transaction that starts the game, so two members (or two
//! processes) taking one seek at once start one game.

use std::ops::RangeInclusive;

use tracing::info;

use super::challenges::{clock_of, edit_card_now, enqueue_edit, start_agreed, Agreed, Claim};
use super::game::Core;
use crate::db::{self, ChannelId, GuildId, NewSeek, Seek, SeekStatus, UserId};
use crate::games::Options;
use crate::i18n::Text;
use crate::play::access::mention;
use crate::play::schedule::DAY;
use crate::play::Error;
use crate::text;

/// Open seeks one member may have at once.
pub const MAX_OPEN_SEEKS: i64 = 5;

/// The most variants one seek names (each has its Accept button on the seek's card, beside
/// Withdraw: Discord's row holds five).
pub const MAX_SEEK_VARIANTS: usize = 4;

/// The days per move a seek may name, at least and at most.
pub const SEEK_DAYS: RangeInclusive<i64> = 1..=14;

/// How long a seek stays open, at least and at most (24 hours unless its author chooses).
pub const SEEK_LASTS: RangeInclusive<i64> = super::OPEN_CHALLENGE_LASTS;

/// What a new seek needs.
#[derive(Clone, Debug)]
pub struct SeekRequest {
    pub guild_id: GuildId,
    /// Where it was asked for: a game it matches at once is played there.
    pub channel_id: ChannelId,
    pub player: UserId,
    /// The variants the member would play, in their order.
    pub variants: Vec<Options>,
    /// The days per move they would play, both included.
    pub days: RangeInclusive<i64>,
    pub rated: bool,
    /// How long it stays open unmatched, within [`SEEK_LASTS`].
    pub lasts: i64,
    /// The standing seek it is made from, if any: its card is then queued (nobody is there to
    /// show it), where it was asked for when the server has no seek channel.
    pub standing: Option<Standing>,
    /// Matched with members of other servers too ([`seek`]): such a game is played in the two
    /// members' direct messages with the bot.
    pub anywhere: bool,
}

/// The standing seek a seek is made from.
#[derive(Clone, Copy, Debug)]
pub struct Standing {
    pub id: i64,
    /// The games it keeps its member in.
    pub keep: i64,
}

/// What became of a new seek.
#[derive(Clone, Debug)]
pub enum Sought {
    /// Matched at once: game `game` started (its first board is queued); `text` says so. A game
    /// across servers is played in direct messages, and its text names no one of the other
    /// server.
    Matched { game: i64, text: Text },
    /// Stored, open. Its card is queued for the server's seek channel `posted_in`, pinging the
    /// seek roles of its games (a standing seek's, without a seek channel, for the channel it
    /// was asked for); otherwise (`None`), the card is to be shown where the seek was asked for.
    Open {
        seek: Seek,
        posted_in: Option<ChannelId>,
    },
}

/// Refuses a seek whose terms conflict: no variant or too many, one named twice, days per move
/// outside [`SEEK_DAYS`] or reversed.
pub fn check_seek_terms(variants: &[Options], days: &RangeInclusive<i64>) -> Result<(), Error> {
    if variants.is_empty() || variants.len() > MAX_SEEK_VARIANTS {
        return Err(Error::refused(text!(
            "seek-variant-count",
            max = MAX_SEEK_VARIANTS as i64
        )));
    }
    for (i, v) in variants.iter().enumerate() {
        if variants[..i].contains(v) {
            return Err(Error::refused(text!(
                "seek-variant-twice",
                variant = crate::play::words::variant(v)
            )));
        }
    }
    let (min, max) = (*days.start(), *days.end());
    if !SEEK_DAYS.contains(&min) || !SEEK_DAYS.contains(&max) {
        return Err(Error::refused(text!(
            "seek-days-bounds",
            min = *SEEK_DAYS.start(),
            max = *SEEK_DAYS.end()
        )));
    }
    if min > max {
        return Err(Error::refused(text!(
            "seek-days-reversed",
            min = min,
            max = max
        )));
    }
    Ok(())
}

/// The game two seeks agree on, if any: the first variant of `stored`'s (the older seek's)
/// order that `variants` names too, at the fewest days per move both would play; `None` when
/// they differ on rating or share no variant or time.
pub fn agreement(
    stored: &Seek,
    variants: &[Options],
    days: &RangeInclusive<i64>,
    rated: bool,
) -> Option<(Options, i64)> {
    if stored.rated != rated {
        return None;
    }
    let low = (*stored.days.start()).max(*days.start());
    let high = (*stored.days.end()).min(*days.end());
    if low > high {
        return None;
    }
    let variant = stored.variants.iter().find(|v| variants.contains(v))?;
    Some((variant.clone(), low))
}

/// Refuses a member on vacation at `now` a seek or a seek's game: it would start their clock
/// while they are away.
async fn check_not_away(core: &Core, player: UserId, now: i64) -> Result<(), Error> {
    if let Some(until) = db::vacation_until(&core.pool, player, now).await? {
        return Err(Error::refused(text!("seek-on-vacation", until = until)));
    }
    Ok(())
}

/// A member's rating in rating pool `guild` (a server's, or that of the games outside servers)
/// for the game of `options` (a member without one counts as [`crate::rating::Rating::START`]).
async fn rating_of(
    core: &Core,
    guild: GuildId,
    options: &Options,
    player: UserId,
) -> Result<f64, Error> {
    Ok(db::fetch_rating(&core.pool, guild, options.kind(), player)
        .await?
        .map_or(crate::rating::Rating::START.rating, |r| r.rating))
}

/// Refuses a game between `a` and `b` when either blocks the other (`/block`).
pub(super) async fn check_not_blocked(core: &Core, a: UserId, b: UserId) -> Result<(), Error> {
    if db::blocked_between(&core.pool, a, b).await? {
        return Err(Error::refused(text!("blocked-pair")));
    }
    Ok(())
}

/// `req.player` seeks a game. Matched at once with the compatible open seek of another member
/// of the server whose rating (in the agreed game) is nearest theirs, the oldest first among
/// equals; a seek taken meanwhile by someone else is passed over for the next. With
/// `req.anywhere`, and none of the server's matching, the seeks of other servers made to be
/// matched anywhere come next, the nearest rating first in the pool of games outside servers
/// ([`crate::play::chats::RATINGS`]): such a game is played in the two members' direct messages
/// ([`crate::play::seats::IN_DIRECT`]). Never with a member either blocks, nor one on vacation.
/// Otherwise the seek is stored, within [`MAX_OPEN_SEEKS`] of its member (their row taken
/// first, so that seeks asked for at once are counted one after the other). Refused across
/// servers where the server's moderators keep it out.
pub async fn seek(core: &Core, req: &SeekRequest) -> Result<Sought, Error> {
    check_seek_terms(&req.variants, &req.days)?;
    if !SEEK_LASTS.contains(&req.lasts) {
        return Err(anyhow::anyhow!("a seek lasting {} s", req.lasts).into());
    }
    let now = core.clock.now();
    check_not_away(core, req.player, now).await?;
    if req.anywhere && db::pool_closed(&core.pool, req.guild_id).await? {
        return Err(Error::refused(text!("seek-pool-closed")));
    }
    let here = db::open_seeks(&core.pool, db::SeeksOf::Server(req.guild_id), now).await?;
    let mut rounds = vec![(Some(req.guild_id), here)];
    if req.anywhere {
        let there = db::open_seeks_anywhere(&core.pool, req.guild_id, now).await?;
        rounds.push((None, there));
    }
    for (pool, seeks) in rounds {
        let rating_pool = pool.unwrap_or(crate::play::chats::RATINGS);
        let mut ranked = Vec::new();
        for stored in seeks {
            if stored.player_id == req.player {
                continue;
            }
            let Some((options, days)) = agreement(&stored, &req.variants, &req.days, req.rated)
            else {
                continue;
            };
            if author_away(core, &stored, now).await?.is_some()
                || db::blocked_between(&core.pool, stored.player_id, req.player).await?
            {
                continue;
            }
            let theirs = rating_of(core, rating_pool, &options, stored.player_id).await?;
            let mine = rating_of(core, rating_pool, &options, req.player).await?;
            ranked.push(((theirs - mine).abs(), stored, options, days));
        }
        // Nearest rating first; the oldest seek among equals (the list came oldest first).
        ranked.sort_by(|a, b| a.0.total_cmp(&b.0));
        for (_, stored, options, days) in ranked {
            let at = match pool {
                Some(_) => Taken {
                    channel: req.channel_id,
                    pressed: false,
                    across: false,
                },
                None => Taken {
                    channel: crate::play::seats::IN_DIRECT,
                    pressed: false,
                    across: true,
                },
            };
            let started = start_seek_game(core, &stored, req.player, &options, days, at).await?;
            let Some(game) = started else {
                continue;
            };
            let options = crate::play::words::variant(&options);
            let days = days_text(&(days..=days));
            if at.across {
                let text = text!(
                    "seek-matched-across",
                    who = mention(req.player),
                    game = game,
                    options = options,
                    days = days
                );
                return Ok(Sought::Matched { game, text });
            }
            let text = text!(
                "seek-matched-at-once",
                who = mention(req.player),
                author = mention(stored.player_id),
                game = game,
                options = options,
                days = days
            );
            if req.standing.is_some() {
                // Nobody asked just now: both are told where the game is played.
                announce_in_game(
                    core,
                    req.guild_id,
                    req.channel_id,
                    game,
                    &text,
                    [req.player, stored.player_id],
                )
                .await?;
            }
            return Ok(Sought::Matched { game, text });
        }
    }
    let mut tx = core.pool.begin().await?;
    db::take_players(&mut tx, &[req.player]).await?;
    let open = db::count_open_seeks(&mut *tx, req.player, now).await?;
    if open >= MAX_OPEN_SEEKS {
        return Err(Error::refused(text!("seek-too-many", open = open)));
    }
    // The game it starts is played where its card is: the server's seek channel, if it has one.
    let seek_channel = db::fetch_seek_channel(&mut *tx, req.guild_id).await?;
    let posted_in = seek_channel.or(req.standing.map(|_| req.channel_id));
    let id = db::insert_seek(
        &mut *tx,
        &NewSeek {
            guild_id: req.guild_id,
            channel_id: posted_in.unwrap_or(req.channel_id),
            player_id: req.player,
            variants: &req.variants,
            days: req.days.clone(),
            rated: req.rated,
            now,
            expires_at: now + req.lasts,
            standing_id: req.standing.map(|s| s.id),
            anywhere: req.anywhere,
        },
    )
    .await?;
    let stored = db::fetch_seek(&mut *tx, id)
        .await?
        .ok_or_else(|| anyhow::anyhow!("seek {id} vanished while storing"))?;
    if let Some(channel) = posted_in {
        let keep = req.standing.map(|s| s.keep);
        enqueue_card(&mut tx, &stored, channel, keep, seek_channel.is_some()).await?;
    }
    tx.commit().await?;
    if posted_in.is_some() {
        core.wake_delivery();
    }
    info!(seek = id, "seek stored");
    Ok(Sought::Open {
        seek: stored,
        posted_in,
    })
}

/// Queues in `tx` seek `s`'s card for `channel` (in the server's language), saying it keeps its
/// author in `keep` games when it is made from a standing seek; in the server's seek channel
/// (`ping`), it mentions the seek roles of its games.
async fn enqueue_card(
    tx: &mut db::Conn,
    s: &Seek,
    channel: ChannelId,
    keep: Option<i64>,
    ping: bool,
) -> Result<(), Error> {
    let guild = Some(s.guild_id);
    let lang = crate::play::server_lang(&mut *tx, guild).await?;
    let roles: Vec<db::RoleId> = match ping {
        true => db::seek_roles(&mut *tx, s.guild_id)
            .await?
            .into_iter()
            .filter(|(kind, _)| s.variants.iter().any(|v| v.kind() == *kind))
            .map(|(_, role)| role)
            .collect(),
        false => Vec::new(),
    };
    let pings: Vec<String> = roles.iter().map(|r| format!("<@&{r}>")).collect();
    let card = seek_card(s, keep).render(lang);
    let content = match pings.is_empty() {
        true => card,
        false => format!("{} {card}", pings.join(" ")),
    };
    let post = db::Announcement {
        target: db::Target::Seek {
            channel,
            seek: s.id,
            roles,
        },
        content,
        mentions: Vec::new(),
        board: None,
        concerned: vec![s.player_id],
        lang: lang.tag().to_string(),
    };
    db::enqueue(&mut *tx, None, &post).await?;
    Ok(())
}

/// Where and how a seek was taken.
#[derive(Clone, Copy, Debug)]
struct Taken {
    /// Where its game is played.
    channel: ChannelId,
    /// From its card's button, whose answer then says who took it (matched by a seek, or
    /// accepted in the lobby, the card's edit is queued).
    pressed: bool,
    /// Matched by a seek of another server: the game is played in direct messages, outside
    /// servers (rated in their pool), and the card names nobody of the other server.
    across: bool,
}

/// Starts the game of open seek `stored` against `taker`: `options` at `days` per move, played
/// where `at` says; its author takes the first seat (they waited). Matched by another seek, the
/// seek's card (if shown) then says who took it. Across servers, both members are told by
/// direct message that the game started, before its first board. `None` when someone took the
/// seek first.
async fn start_seek_game(
    core: &Core,
    stored: &Seek,
    taker: UserId,
    options: &Options,
    days: i64,
    at: Taken,
) -> Result<Option<i64>, Error> {
    let channel = at.channel;
    let guild = (!at.across).then_some(stored.guild_id);
    let players = [stored.player_id, taker];
    let mut conn = core.pool.acquire().await?;
    let (control, weekends_off) = clock_of(&mut conn, None, days * DAY, None, guild).await?;
    drop(conn);
    let across = match at.across {
        true => started_across(core, players, options, days).await?,
        false => Vec::new(),
    };
    let notices = |game: i64| across.iter().map(|told| told.notice(game)).collect();
    // The thread starts from the seek's card when the game is played where the card is.
    let from = stored.message_id.filter(|_| channel == stored.channel_id);
    let agreed = Agreed {
        guild_id: guild,
        channel_id: channel,
        options,
        rated: stored.rated,
        seconds_per_move: days * DAY,
        time_control: Some(control),
        weekends_off,
        players,
        from,
        notices: Some(&notices),
    };
    let Some(game) = start_agreed(core, &agreed, Claim::Seek(stored.id)).await? else {
        return Ok(None);
    };
    info!(seek = stored.id, game, across = at.across, "seek matched");
    if !at.pressed && stored.message_id.is_some() {
        let text = match at.across {
            true => text!(
                "seek-matched-elsewhere",
                author = mention(stored.player_id),
                options = crate::play::words::variant(options)
            ),
            false => matched_text(stored, taker, game, options),
        };
        edit_card_now(
            core,
            Some(stored.guild_id),
            stored.channel_id,
            stored.message_id,
            &text,
        )
        .await?;
    }
    Ok(Some(game))
}

/// What one player of a game matched across servers is told by direct message, in their own
/// language, as it starts: against whom (by display name) and who moves first.
struct StartedAcross {
    me: UserId,
    lang: crate::i18n::Lang,
    opponent: String,
    /// `you` or `opponent`.
    first: &'static str,
    options: Text,
    days: Text,
}

impl StartedAcross {
    /// The direct message telling of game `game`.
    fn notice(&self, game: i64) -> db::Announcement {
        let text = text!(
            "seek-across-started",
            who = mention(self.me),
            opponent = self.opponent.clone(),
            first = self.first,
            game = game,
            options = self.options.clone(),
            days = self.days.clone()
        );
        db::Announcement {
            target: db::Target::Direct {
                user: self.me,
                or_channel: None,
            },
            content: text.render(self.lang),
            mentions: vec![self.me],
            board: None,
            concerned: vec![self.me],
            lang: self.lang.tag().to_string(),
        }
    }
}

/// What each of `players` (the first moving first) of a game matched across servers is told as
/// it starts ([`StartedAcross`]): read before the game's transaction, whose first statement then
/// writes (SQLite cannot turn a reading transaction into a writing one once another connection
/// wrote). The player to move then gets the board as every game outside servers gives it.
async fn started_across(
    core: &Core,
    players: [UserId; 2],
    options: &Options,
    days: i64,
) -> Result<Vec<StartedAcross>, Error> {
    let mut told = Vec::new();
    for (me, them) in [(players[0], players[1]), (players[1], players[0])] {
        let lang = crate::play::member_lang(&core.pool, me).await?;
        // By their Discord display name: the two may share no server, where a mention shows.
        let name = db::fetch_name(&core.pool, them).await?;
        told.push(StartedAcross {
            me,
            lang,
            opponent: crate::play::words::name_in(lang, name, || mention(them)),
            first: match players[0] == me {
                true => "you",
                false => "opponent",
            },
            options: crate::play::words::variant(options),
            days: days_text(&(days..=days)),
        });
    }
    Ok(told)
}

/// What seek `s`'s card says once `taker` matched it with game `game` of `options`.
fn matched_text(s: &Seek, taker: UserId, game: i64, options: &Options) -> Text {
    text!(
        "seek-matched",
        who = mention(taker),
        author = mention(s.player_id),
        game = game,
        options = crate::play::words::variant(options)
    )
}

/// `user` accepts variant `variant` (its place in the seek's list) of open seek `id`, at the
/// fewest days per move its author named; the game is played where the seek's card is.
/// `from_card`: pressed on the card, whose answer shows its new words; otherwise (the web
/// board's lobby) the card's edit is queued. Refused to its author, to a member on vacation, and
/// once the seek is closed (a late press is told who took it). Returns the game and the card's
/// new words.
pub async fn accept_seek(
    core: &Core,
    id: i64,
    user: UserId,
    variant: usize,
    from_card: bool,
) -> Result<(i64, Text), Error> {
    let now = core.clock.now();
    let s = open_seek(core, id, now).await?;
    if s.player_id == user {
        return Err(Error::refused(text!("seek-own")));
    }
    let options = s
        .variants
        .get(variant)
        .ok_or_else(|| Error::refused(text!("stale-button")))?
        .clone();
    check_not_away(core, user, now).await?;
    if let Some(why) = author_away(core, &s, now).await? {
        return Err(Error::refused(why));
    }
    check_not_blocked(core, s.player_id, user).await?;
    let days = *s.days.start();
    let at = Taken {
        channel: s.channel_id,
        pressed: from_card,
        across: false,
    };
    match start_seek_game(core, &s, user, &options, days, at).await? {
        Some(game) => {
            if s.standing_id.is_some() {
                // Its author may still want more games.
                refill_standing_of(core, s.player_id, s.guild_id).await;
            }
            Ok((game, matched_text(&s, user, game, &options)))
        }
        None => Err(closed(core, id).await),
    }
}

/// `user` withdraws open seek `id` (theirs alone), and stops the standing seek it was made
/// from, if any. Returns the card's new words.
pub async fn withdraw_seek(core: &Core, id: i64, user: UserId) -> Result<Text, Error> {
    let now = core.clock.now();
    let s = open_seek(core, id, now).await?;
    if s.player_id != user {
        return Err(Error::refused(text!("seek-withdraw-own")));
    }
    if !db::close_seek(&core.pool, id, SeekStatus::Withdrawn).await? {
        return Err(closed(core, id).await);
    }
    info!(seek = id, "seek withdrawn");
    if let Some(standing) = s.standing_id {
        // Withdrawn, it would be made again: its standing seek stops with it.
        db::delete_standing_seek(&core.pool, standing).await?;
        info!(standing, "standing seek stopped");
    }
    Ok(withdrawn_text(&s))
}

/// Open seek `id`, or the refusal saying what became of it (one whose time ran out is closed
/// now).
async fn open_seek(core: &Core, id: i64, now: i64) -> Result<Seek, Error> {
    let s = db::fetch_seek(&core.pool, id)
        .await?
        .ok_or_else(|| Error::refused(text!("seek-gone")))?;
    if s.status != SeekStatus::Open {
        return Err(closed(core, id).await);
    }
    if now >= s.expires_at {
        db::close_seek(&core.pool, id, SeekStatus::Expired).await?;
        return Err(Error::refused(text!("seek-closed", status = "expired")));
    }
    Ok(s)
}

/// The refusal of a press on seek `id` once it is closed: who took it, or how it closed.
async fn closed(core: &Core, id: i64) -> Error {
    let s = match db::fetch_seek(&core.pool, id).await {
        Ok(Some(s)) => s,
        Ok(None) => return Error::refused(text!("seek-gone")),
        Err(e) => return e.into(),
    };
    if let (SeekStatus::Matched, Some(game)) = (s.status, s.game_id) {
        if let Ok(Some(row)) = db::fetch_game(&core.pool, game).await {
            return Error::refused(text!(
                "seek-taken",
                who = mention(row.opponent_of(s.player_id)),
                game = game
            ));
        }
    }
    Error::refused(text!("seek-closed", status = s.status.as_str()))
}

/// Closes the seeks whose time ran out; their cards lose their buttons. Returns how many.
pub async fn expire_seeks(core: &Core) -> Result<usize, Error> {
    let now = core.clock.now();
    let mut tx = core.pool.begin().await?;
    let expired = db::expire_seeks(&mut *tx, now).await?;
    for s in &expired {
        let text = text!(
            "seek-expired",
            author = mention(s.player_id),
            variants = variants_text(&s.variants)
        );
        enqueue_edit(&mut tx, Some(s.guild_id), s.channel_id, s.message_id, &text).await?;
    }
    tx.commit().await?;
    if !expired.is_empty() {
        core.wake_delivery();
    }
    Ok(expired.len())
}

/// Variants in words, joined by "or".
pub fn variants_text(variants: &[Options]) -> Text {
    let mut words = variants.iter().map(crate::play::words::variant);
    let first = words.next().unwrap_or_else(|| text!("rating-range-any"));
    words.fold(first, |all, next| {
        text!("seek-or", first = all, then = next)
    })
}

/// Days per move in words: `3 days a move`, `1–3 days a move`.
pub fn days_text(days: &RangeInclusive<i64>) -> Text {
    match (*days.start(), *days.end()) {
        (min, max) if min == max => text!("seek-days-one", days = min),
        (min, max) => text!("seek-days-range", min = min, max = max),
    }
}

/// The words of open seek `s`'s card: who seeks what, until when any member may accept, and,
/// made from a standing seek, how many games it keeps its author in (`keep`).
pub fn seek_card(s: &Seek, keep: Option<i64>) -> Text {
    text!(
        "seek-card",
        author = mention(s.player_id),
        variants = variants_text(&s.variants),
        rated = if s.rated { "yes" } else { "no" },
        days = days_text(&s.days),
        until = s.expires_at,
        keep = keep.unwrap_or(0),
        anywhere = if s.anywhere { "yes" } else { "no" }
    )
}

/// Queues `text` in the thread of game `game` (else in `channel`, its channel), pinging
/// `players`.
async fn announce_in_game(
    core: &Core,
    guild: GuildId,
    channel: ChannelId,
    game: i64,
    text: &Text,
    players: [UserId; 2],
) -> Result<(), Error> {
    // Read before the transaction, whose first statement then writes (SQLite cannot turn a
    // reading transaction into a writing one once another connection wrote).
    let lang = crate::play::server_lang(&core.pool, Some(guild)).await?;
    let post = db::Announcement {
        target: db::Target::Game { game, channel },
        content: text.render(lang),
        mentions: players.to_vec(),
        board: None,
        concerned: Vec::new(),
        lang: lang.tag().to_string(),
    };
    db::enqueue(&core.pool, Some(game), &post).await?;
    core.wake_delivery();
    Ok(())
}

/// The games a standing seek may keep its member in, at least and at most.
pub const STANDING_KEEP: RangeInclusive<i64> = 1..=10;

/// Standing seeks one member may have in one server.
pub const MAX_STANDING_SEEKS: usize = 3;

/// How long a process holds a standing seek while making a seek from it: another process may
/// take it up after that time if the first died meanwhile.
const STANDING_CLAIM_SECS: i64 = 300;

/// A new standing seek, and what its first check made.
#[derive(Clone, Debug)]
pub struct Stood {
    pub id: i64,
    pub refill: Refill,
}

/// What a check of a standing seek did.
#[derive(Clone, Debug)]
pub enum Refill {
    /// Another process is checking it, or it was stopped.
    Busy,
    /// Its member is on vacation: no seek is made until they are back, and its open one is
    /// withdrawn.
    Away,
    /// One of its seeks is open: it waits for an opponent.
    Waiting,
    /// Its member has `games` active games of its variants, as many as it keeps them in.
    Enough { games: i64 },
    /// Seeks made from it, each matched at once or stored (the last), in order.
    Made(Vec<Sought>),
}

/// `req.player` asks to be kept in `keep` games of `req`'s variants in its server: the standing
/// seek is stored and checked at once ([`refill`]). Refused, nothing stored, with terms a seek
/// refuses, `keep` outside [`STANDING_KEEP`], on vacation, with [`MAX_STANDING_SEEKS`] in the
/// server already, with a standing seek naming one of the same variants, and when its first seek
/// is refused (too many open seeks).
pub async fn stand(core: &Core, req: &SeekRequest, keep: i64) -> Result<Stood, Error> {
    check_seek_terms(&req.variants, &req.days)?;
    if !STANDING_KEEP.contains(&keep) {
        return Err(Error::refused(text!(
            "standing-keep-bounds",
            min = *STANDING_KEEP.start(),
            max = *STANDING_KEEP.end()
        )));
    }
    if !SEEK_LASTS.contains(&req.lasts) {
        return Err(anyhow::anyhow!("a standing seek's seeks lasting {} s", req.lasts).into());
    }
    let now = core.clock.now();
    check_not_away(core, req.player, now).await?;
    let mut tx = core.pool.begin().await?;
    db::take_players(&mut tx, &[req.player]).await?;
    let mine = db::standing_seeks_of(&mut *tx, req.player, req.guild_id).await?;
    if mine.len() >= MAX_STANDING_SEEKS {
        return Err(Error::refused(text!(
            "standing-too-many",
            max = MAX_STANDING_SEEKS as i64
        )));
    }
    for v in &req.variants {
        if mine.iter().any(|s| s.variants.contains(v)) {
            return Err(Error::refused(text!(
                "standing-twice",
                variant = crate::play::words::variant(v)
            )));
        }
    }
    let id = db::insert_standing_seek(
        &mut *tx,
        &db::NewStandingSeek {
            guild_id: req.guild_id,
            channel_id: req.channel_id,
            player_id: req.player,
            variants: &req.variants,
            days: req.days.clone(),
            rated: req.rated,
            keep,
            lasts: req.lasts,
            now,
        },
    )
    .await?;
    tx.commit().await?;
    info!(standing = id, keep, "standing seek stored");
    match refill(core, id).await {
        Ok(refill) => Ok(Stood { id, refill }),
        Err(e) => {
            // Its first seek refused: it was never set.
            db::delete_standing_seek(&core.pool, id).await?;
            Err(e)
        }
    }
}

/// Checks standing seek `id`: while its member is not on vacation (during one, its open seek is
/// withdrawn), has fewer active games of its
/// variants in its server than it keeps them in, and none of its seeks is open, a seek with its
/// terms is made ([`seek`]), again as long as each is matched at once. One process at a time
/// checks it (claimed with one conditional write, [`db::claim_standing_seek`]), so that two
/// never make two seeks from it.
pub async fn refill(core: &Core, id: i64) -> Result<Refill, Error> {
    let now = core.clock.now();
    if !db::claim_standing_seek(&core.pool, id, now, now + STANDING_CLAIM_SECS).await? {
        return Ok(Refill::Busy);
    }
    let done = refill_claimed(core, id, now).await;
    if let Err(e) = db::release_standing_seek(&core.pool, id).await {
        // Its claim lapses by itself.
        tracing::warn!(standing = id, "cannot release a standing seek: {e}");
    }
    done
}

async fn refill_claimed(core: &Core, id: i64, now: i64) -> Result<Refill, Error> {
    let Some(s) = db::fetch_standing_seek(&core.pool, id).await? else {
        return Ok(Refill::Busy);
    };
    if db::vacation_until(&core.pool, s.player_id, now)
        .await?
        .is_some()
    {
        pause(core, &s, now).await?;
        return Ok(Refill::Away);
    }
    if !db::open_seeks(&core.pool, db::SeeksOf::Standing(id), now)
        .await?
        .is_empty()
    {
        return Ok(Refill::Waiting);
    }
    let mut made = Vec::new();
    // Each seek matched at once adds a game: at most `keep` of them.
    for _ in 0..s.keep {
        let games =
            db::count_active_games_of(&core.pool, s.guild_id, s.player_id, &s.variants).await?;
        if games >= s.keep {
            break;
        }
        let sought = seek(
            core,
            &SeekRequest {
                guild_id: s.guild_id,
                channel_id: s.channel_id,
                player: s.player_id,
                variants: s.variants.clone(),
                days: s.days.clone(),
                rated: s.rated,
                anywhere: false,
                lasts: s.lasts,
                standing: Some(Standing { id, keep: s.keep }),
            },
        )
        .await?;
        info!(standing = id, "seek made from a standing seek");
        let open = matches!(sought, Sought::Open { .. });
        made.push(sought);
        if open {
            break;
        }
    }
    if made.is_empty() {
        let games =
            db::count_active_games_of(&core.pool, s.guild_id, s.player_id, &s.variants).await?;
        return Ok(Refill::Enough { games });
    }
    Ok(Refill::Made(made))
}

/// Withdraws the open seeks of standing seek `s`, its member being on vacation at `now` (a game
/// would start their clock while they are away); their cards say it is paused.
async fn pause(core: &Core, s: &db::StandingSeek, now: i64) -> Result<(), Error> {
    let open = db::open_seeks(&core.pool, db::SeeksOf::Standing(s.id), now).await?;
    if withdraw_while_away(core, open).await? > 0 {
        info!(standing = s.id, "standing seek paused by a vacation");
    }
    Ok(())
}

/// When the author of open seek `s` is on vacation at `now` (a seek left open by a vacation
/// taken elsewhere, or whose withdrawal failed): the seek is withdrawn now, and this says so.
async fn author_away(core: &Core, s: &Seek, now: i64) -> Result<Option<Text>, Error> {
    if db::vacation_until(&core.pool, s.player_id, now)
        .await?
        .is_none()
    {
        return Ok(None);
    }
    withdraw_while_away(core, vec![s.clone()]).await?;
    let variants = variants_text(&s.variants);
    Ok(Some(text!(
        "seek-away",
        author = mention(s.player_id),
        variants = variants
    )))
}

/// Withdraws every open seek of `player`, who has just gone on vacation: a game it started would
/// start their clock while they are away. Their cards say so (a standing seek's, that it is made
/// again when they are back). Returns how many.
pub async fn withdraw_seeks_for_vacation(core: &Core, player: UserId) -> Result<usize, Error> {
    let open = db::open_seeks(&core.pool, db::SeeksOf::Player(player), core.clock.now()).await?;
    let withdrawn = withdraw_while_away(core, open).await?;
    if withdrawn > 0 {
        info!(%player, withdrawn, "seeks withdrawn by a vacation");
    }
    Ok(withdrawn)
}

/// Withdraws open seeks `open`, their member being on vacation, each card's edit queued in the
/// same transaction. Returns how many were still open.
async fn withdraw_while_away(core: &Core, open: Vec<Seek>) -> Result<usize, Error> {
    let mut withdrawn = 0;
    for open in open {
        // Its first statement writes (see `announce_in_game`).
        let mut tx = core.pool.begin().await?;
        if db::close_seek(&mut *tx, open.id, SeekStatus::Withdrawn).await? {
            let variants = variants_text(&open.variants);
            let author = mention(open.player_id);
            let text = match open.standing_id {
                Some(_) => text!("standing-paused", author = author, variants = variants),
                None => text!("seek-away", author = author, variants = variants),
            };
            let guild = Some(open.guild_id);
            enqueue_edit(&mut tx, guild, open.channel_id, open.message_id, &text).await?;
            withdrawn += 1;
        }
        tx.commit().await?;
    }
    if withdrawn > 0 {
        core.wake_delivery();
    }
    Ok(withdrawn)
}

/// Checks the standing seeks of `player` in server `guild` ([`refill`]); failures are logged
/// (the timers check them again).
pub async fn refill_standing_of(core: &Core, player: UserId, guild: GuildId) {
    let mine = match db::standing_seeks_of(&core.pool, player, guild).await {
        Ok(mine) => mine,
        Err(e) => {
            tracing::error!(%player, "cannot read standing seeks: {e}");
            return;
        }
    };
    for s in mine {
        log_refill(s.id, refill(core, s.id).await);
    }
}

fn log_refill(id: i64, done: Result<Refill, Error>) {
    match done {
        Ok(_) => {}
        // Too many open seeks, say: it is tried again later.
        Err(Error::Refused(why)) => {
            info!(
                standing = id,
                "no seek made: {}",
                why.0.render(crate::i18n::Lang::EN)
            )
        }
        Err(Error::Internal(e)) => tracing::error!(standing = id, "cannot check: {e:#}"),
    }
}

/// After game `game` ended: the standing seeks of its players in its server are checked.
pub async fn refill_after_game(core: &Core, game: i64) {
    let row = match db::fetch_game(&core.pool, game).await {
        Ok(Some(row)) => row,
        Ok(None) => return,
        Err(e) => {
            tracing::error!(game, "cannot read a game that ended: {e}");
            return;
        }
    };
    let Some(guild) = row.guild_id else {
        return;
    };
    for player in row.players {
        refill_standing_of(core, player, guild).await;
    }
}

/// The timers' part: checks every standing seek (seeks of theirs matched from their cards,
/// games ended elsewhere, vacations over). Returns how many made a seek.
pub async fn refill_standing_seeks(core: &Core) -> Result<usize, Error> {
    let mut made = 0;
    for id in db::standing_seek_ids(&core.pool).await? {
        let done = refill(core, id).await;
        if matches!(done, Ok(Refill::Made(_))) {
            made += 1;
        }
        log_refill(id, done);
    }
    Ok(made)
}

/// `user` stops their standing seeks in server `guild` that name a variant of `kind`: none is
/// made again, and their open seeks are withdrawn (their cards say so). Returns how many
/// stopped; refused when there was none.
pub async fn stop_standing(
    core: &Core,
    guild: GuildId,
    user: UserId,
    kind: crate::games::GameKind,
) -> Result<usize, Error> {
    let now = core.clock.now();
    let mut stopped = 0;
    for s in db::standing_seeks_of(&core.pool, user, guild).await? {
        if !s.variants.iter().any(|v| v.kind() == kind) {
            continue;
        }
        let mut tx = core.pool.begin().await?;
        if !db::delete_standing_seek(&mut *tx, s.id).await? {
            continue;
        }
        for open in db::open_seeks(&mut *tx, db::SeeksOf::Standing(s.id), now).await? {
            if db::close_seek(&mut *tx, open.id, SeekStatus::Withdrawn).await? {
                let text = withdrawn_text(&open);
                enqueue_edit(
                    &mut tx,
                    Some(guild),
                    open.channel_id,
                    open.message_id,
                    &text,
                )
                .await?;
            }
        }
        tx.commit().await?;
        core.wake_delivery();
        info!(standing = s.id, "standing seek stopped");
        stopped += 1;
    }
    if stopped == 0 {
        return Err(Error::refused(text!("standing-none", game = kind.title())));
    }
    Ok(stopped)
}

/// What withdrawn seek `s`'s card says (stopping its standing seek, when made from one).
fn withdrawn_text(s: &Seek) -> Text {
    text!(
        "seek-withdrawn",
        author = mention(s.player_id),
        variants = variants_text(&s.variants),
        standing = if s.standing_id.is_some() { "yes" } else { "no" }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seek(variants: &[&str], days: RangeInclusive<i64>, rated: bool) -> Seek {
        Seek {
            id: 1,
            guild_id: GuildId(1),
            channel_id: ChannelId(2),
            player_id: UserId(3),
            variants: variants
                .iter()
                .map(|l| Options::parse_line(l).unwrap())
                .collect(),
            days,
            rated,
            status: SeekStatus::Open,
            message_id: None,
            game_id: None,
            created_at: 0,
            expires_at: 100,
            standing_id: None,
            anywhere: false,
        }
    }

    fn options(lines: &[&str]) -> Vec<Options> {
        lines
            .iter()
            .map(|l| Options::parse_line(l).unwrap())
            .collect()
    }

    #[test]
    fn two_seeks_agree_on_the_older_ones_first_shared_variant_and_fewest_days() {
        let stored = seek(&["inphexion size=9", "inphexion size=7"], 2..=5, true);
        let mine = options(&["inphexion size=7", "inphexion size=9"]);
        let (v, days) = agreement(&stored, &mine, &(1..=3), true).unwrap();
        assert_eq!((v.to_string().as_str(), days), ("inphexion size=9", 2));
        // No shared time, rating or variant: no game.
        assert_eq!(agreement(&stored, &mine, &(6..=7), true), None);
        assert_eq!(agreement(&stored, &mine, &(1..=3), false), None);
        let exxit = options(&["exxit tiles=39"]);
        assert_eq!(agreement(&stored, &exxit, &(1..=3), true), None);
        // A flag makes another variant.
        let pie = options(&["inphexion size=7 pie"]);
        assert_eq!(agreement(&stored, &pie, &(1..=3), true), None);
    }

    #[test]
    fn conflicting_seek_terms_are_refused() {
        let en = |r: Result<(), Error>| match r {
            Err(Error::Refused(why)) => why.0.render(crate::i18n::Lang::EN),
            other => panic!("{other:?}"),
        };
        let one = options(&["inphexion size=7"]);
        assert!(check_seek_terms(&one, &(1..=3)).is_ok());
        assert!(
            en(check_seek_terms(&one, &std::ops::RangeInclusive::new(3, 1))).contains("swap them")
        );
        assert!(en(check_seek_terms(&one, &(0..=3))).contains("between 1 and 14"));
        assert!(en(check_seek_terms(&[], &(1..=3))).contains("1 to 4"));
        let twice = options(&["inphexion size=7", "inphexion size=7"]);
        assert!(en(check_seek_terms(&twice, &(1..=3))).contains("twice"));
    }
}

/// What `/block` did.
#[derive(Clone, Debug)]
pub enum Blocked {
    /// `user` blocks the member from now on (`false`: they did already).
    Blocked(bool),
    /// `user` no longer blocks the member (`false`: they did not).
    Unblocked(bool),
}

/// `user` blocks `other` (or, with `undo`, no longer does): the two are never matched, and
/// neither challenges the other nor takes the other's challenge or seek (see `check_not_blocked`).
/// Games in play go on. Refused for oneself and for the bot (`bot`).
pub async fn block(
    core: &Core,
    user: UserId,
    other: UserId,
    bot: UserId,
    undo: bool,
) -> Result<Blocked, Error> {
    if other == user {
        return Err(Error::refused(text!("block-self")));
    }
    if other == bot {
        return Err(Error::refused(text!("block-bot")));
    }
    if undo {
        return Ok(Blocked::Unblocked(
            db::unblock(&core.pool, user, other).await?,
        ));
    }
    let new = db::block(&core.pool, user, other, core.clock.now()).await?;
    info!(blocked = new, "a member blocks another");
    Ok(Blocked::Blocked(new))
}
