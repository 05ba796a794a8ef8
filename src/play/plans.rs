//! Conditional moves: a player whose opponent is to move enters replies ahead — "if they play
//! X, I play Y" — several moves deep and in several branches, a tree stored per game and player
//! ([`crate::db::fetch_plans`]), seen by nobody else.
//!
//! - **Entering** ([`plan`]): a line of moves from the current position, the opponent's and the
//!   player's alternately, the opponent's first and the player's last; each is checked legal in
//!   the position it would arise in. A line replaces the branch it contradicts (another reply
//!   where it passes) and extends one it continues. At most [`MAX_LINES`] lines of at most
//!   [`MAX_LINE_MOVES`] moves. Not in games against the bot or local games.
//! - **Playing** ([`after_move`], called by [`crate::play::actions::play_move_on`] after every
//!   move that does not end the game): when the opponent's move starts a branch, its reply is
//!   played at once by the same action as any move, its board announced as a conditional move;
//!   the deeper lines of that branch stay. A move off every branch clears the tree, and the
//!   player is told so by direct message.
//! - **A takeback** clears both players' trees: they answer positions that no longer come.
//! - After the game, `/record` shows its caller what they still had planned.
//! - **Where**: `/move move:d4 if:c3` (`if: c3; d4; e5` for a deeper line, `move:-` removes the
//!   line), and on the game's page, where **Plan on the board** turns the board into a preview
//!   ("Planning — not played"): the opponent's move, the reply and deeper are clicked, then
//!   **Save line**.

use std::future::Future;
use std::pin::Pin;

use serde::{Deserialize, Serialize};
use tracing::{info, warn};

use crate::db::{self, Announcement, GameRow, Target, UserId};
use crate::games::Game;
use crate::i18n::{Lang, Text};
use crate::play::access::{check_player, mention, player_to_move};
use crate::play::actions::{self, Core, Played};
use crate::play::{Error, Refusal};
use crate::text;

/// The most lines a player keeps planned in one game.
pub const MAX_LINES: usize = 32;
/// The most moves (both players') in one line.
pub const MAX_LINE_MOVES: usize = 20;

/// A player's tree of conditional moves: its lines from the position after `at_ply` moves, each
/// the opponent's move then the reply, alternately (canonical notations).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Plans {
    pub at_ply: i64,
    pub lines: Vec<Vec<String>>,
}

/// Is `a` a prefix of `b` (or equal)?
fn is_prefix(a: &[String], b: &[String]) -> bool {
    a.len() <= b.len() && a.iter().zip(b).all(|(x, y)| x == y)
}

/// Does `b` give another reply than `a` where they pass the same opponent's moves?
fn contradicts(a: &[String], b: &[String]) -> bool {
    a.iter()
        .zip(b)
        .position(|(x, y)| x != y)
        .is_some_and(|i| i % 2 == 1)
}

impl Plans {
    /// Adds `line` (the opponent's move first, an even number of moves): lines it contradicts
    /// or continues give way to it; a line it is part of keeps it.
    pub fn add(&mut self, line: Vec<String>) {
        self.lines
            .retain(|l| !(contradicts(l, &line) || is_prefix(l, &line) && l.len() < line.len()));
        if !self.lines.iter().any(|l| is_prefix(&line, l)) {
            self.lines.push(line);
        }
    }

    /// The reply to the opponent's `played`, and the tree after it (the deeper lines of its
    /// branch); `None` when `played` is off every branch.
    pub fn answer(&self, played: &str) -> Option<(String, Plans)> {
        let reply = self
            .lines
            .iter()
            .find(|l| l.first().is_some_and(|m| m == played))?
            .get(1)?
            .clone();
        let lines = self
            .lines
            .iter()
            .filter(|l| l.len() > 2 && l[0] == played && l[1] == reply)
            .map(|l| l[2..].to_vec())
            .collect();
        Some((
            reply,
            Plans {
                at_ply: self.at_ply + 2,
                lines,
            },
        ))
    }

    /// Removes the lines beginning with `prefix` (a whole branch): whether any was.
    pub fn remove(&mut self, prefix: &[String]) -> bool {
        let before = self.lines.len();
        self.lines.retain(|l| !is_prefix(prefix, l));
        self.lines.len() != before
    }

    /// The lines in words for their author: `1. c3 → d4 → e5 → f6`, one a line.
    pub fn listing(&self) -> String {
        self.lines
            .iter()
            .enumerate()
            .map(|(i, l)| format!("{}. `{}`", i + 1, l.join(" → ")))
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// Whether `user`'s conditional moves answer `played`, the move made at ply `at_ply` of game
/// `id`: their reply follows at once, so the board before it does not tell them to move.
pub async fn will_answer(
    ex: impl db::Executor<'_>,
    id: i64,
    user: UserId,
    at_ply: i64,
    played: &str,
) -> Result<bool, db::DbError> {
    Ok(plans_of(ex, id, user)
        .await?
        .is_some_and(|p| p.at_ply == at_ply && p.answer(played).is_some()))
}

/// `user`'s conditional moves in game `id`, as stored (none: an empty tree). Unreadable rows
/// count as none.
pub async fn plans_of(
    ex: impl db::Executor<'_>,
    id: i64,
    user: UserId,
) -> Result<Option<Plans>, db::DbError> {
    let Some((at_ply, lines)) = db::fetch_plans(ex, id, user).await? else {
        return Ok(None);
    };
    match serde_json::from_str::<Vec<Vec<String>>>(&lines) {
        Ok(lines) if !lines.is_empty() => Ok(Some(Plans { at_ply, lines })),
        Ok(_) => Ok(None),
        Err(e) => {
            warn!(game = id, "unreadable conditional moves ignored: {e}");
            Ok(None)
        }
    }
}

async fn store(
    ex: impl db::Executor<'_>,
    id: i64,
    user: UserId,
    plans: Option<&Plans>,
    now: i64,
) -> Result<(), Error> {
    let json = match plans.filter(|p| !p.lines.is_empty()) {
        Some(p) => Some((
            p.at_ply,
            serde_json::to_string(&p.lines).map_err(|e| Error::Internal(e.into()))?,
        )),
        None => None,
    };
    let plans = json.as_ref().map(|(at, l)| (*at, l.as_str()));
    db::store_plans(ex, id, user, plans, now).await?;
    Ok(())
}

/// May `user` plan ahead in game `row` now: a player of a game in play on Discord, not against
/// the bot, while the opponent is to move.
pub async fn check_may_plan(
    core: &Core,
    row: &GameRow,
    game: &Game,
    user: UserId,
) -> Result<(), Error> {
    check_player(row, user)?;
    if db::fetch_bot_level(&core.pool, row.id).await?.is_some() || crate::play::local::is_local(row)
    {
        return Err(Refusal::new(text!("plans-not-here", game = row.id)).into());
    }
    if player_to_move(row, game) == user {
        return Err(Refusal::new(text!("plans-your-move", game = row.id)).into());
    }
    Ok(())
}

/// Reads `typed` (the opponent's move first, the player's last, alternately) as a line from
/// `game`'s position: each move legal where it would be played, by the right player. The
/// canonical notations, and the position at the end.
pub fn read_line(
    row: &GameRow,
    game: &Game,
    user: UserId,
    typed: &[&str],
) -> Result<(Vec<String>, Game), Refusal> {
    if typed.len() < 2 || !typed.len().is_multiple_of(2) || typed.len() > MAX_LINE_MOVES {
        return Err(Refusal::new(text!(
            "plans-line-length",
            game = row.id,
            max = MAX_LINE_MOVES
        )));
    }
    play_line(row, game, user, typed)
}

/// Plays `typed` from `game`'s position as the start of a line being entered (any length up to
/// [`MAX_LINE_MOVES`], the opponent's move first): each move checked as [`read_line`] does.
/// The canonical notations, and the position at the end.
pub fn play_line(
    row: &GameRow,
    game: &Game,
    user: UserId,
    typed: &[&str],
) -> Result<(Vec<String>, Game), Refusal> {
    if typed.len() > MAX_LINE_MOVES {
        return Err(Refusal::new(text!(
            "plans-line-length",
            game = row.id,
            max = MAX_LINE_MOVES
        )));
    }
    let mut line = Vec::with_capacity(typed.len());
    let mut g = game.clone();
    for (i, text) in typed.iter().enumerate() {
        let theirs = i % 2 == 0;
        let mover = player_to_move(row, &g);
        if g.is_over() || (mover == user) == theirs {
            return Err(Refusal::new(text!(
                "plans-line-ends",
                game = row.id,
                input = crate::i18n::excerpt(text),
                n = i + 1
            )));
        }
        let mv = g.play_text(text).map_err(|e| {
            Refusal::new(text!(
                "plans-illegal",
                game = row.id,
                input = crate::i18n::excerpt(text),
                n = i + 1,
                error = crate::i18n::excerpt_to(&e.to_string(), 4 * crate::i18n::EXCERPT_CHARS)
            ))
        })?;
        line.push(mv.to_string());
    }
    Ok((line, g))
}

/// Adds the line `typed` to `user`'s conditional moves in game `id` (see the module's text).
/// The answer names the line and how many they keep; refused, nothing changes.
pub async fn plan(core: &Core, id: i64, user: UserId, typed: &[&str]) -> Result<Text, Error> {
    let (row, game) = actions::load(&core.pool, id).await?;
    check_may_plan(core, &row, &game, user).await?;
    let (line, _) = read_line(&row, &game, user, typed)?;
    let at_ply = game.ply() as i64;
    let mut plans = plans_of(&core.pool, id, user)
        .await?
        .filter(|p| p.at_ply == at_ply)
        .unwrap_or(Plans {
            at_ply,
            lines: Vec::new(),
        });
    plans.add(line.clone());
    if plans.lines.len() > MAX_LINES {
        return Err(Refusal::new(text!("plans-too-many", game = id, max = MAX_LINES)).into());
    }
    store(&core.pool, id, user, Some(&plans), core.clock.now()).await?;
    Ok(text!(
        "plans-added",
        game = id,
        line = line.join(" → "),
        count = plans.lines.len()
    ))
}

/// Removes the branch beginning with `typed` from `user`'s conditional moves in game `id`
/// (all of them when `typed` is empty).
pub async fn remove_plan(
    core: &Core,
    id: i64,
    user: UserId,
    typed: &[&str],
) -> Result<Text, Error> {
    let (row, game) = actions::load(&core.pool, id).await?;
    check_player(&row, user)?;
    let Some(mut plans) = plans_of(&core.pool, id, user).await? else {
        return Ok(text!("plans-none", game = id));
    };
    // The branch as the player typed it, read as the line it would be.
    let mut prefix = Vec::new();
    let mut g = game.clone();
    for text in typed {
        match g.play_text(text) {
            Ok(mv) => prefix.push(mv.to_string()),
            Err(_) => prefix.push(text.trim().to_string()),
        }
    }
    if !typed.is_empty() && !plans.remove(&prefix) {
        return Err(Refusal::new(text!(
            "plans-no-branch",
            game = id,
            line = prefix.join(" → ")
        ))
        .into());
    }
    if typed.is_empty() {
        plans.lines.clear();
    }
    store(&core.pool, id, user, Some(&plans), core.clock.now()).await?;
    Ok(text!("plans-removed", game = id, count = plans.lines.len()))
}

/// `plans` of their author in game `game`, for them alone.
pub fn shown(game: i64, plans: Option<&Plans>) -> Text {
    match plans {
        Some(p) => text!("plans-shown", game = game, lines = p.listing()),
        None => text!("plans-none", game = game),
    }
}

/// A conditional reply played at once: the notice its board shows, and the move.
pub type Reply = (Text, Played);

/// After the opponent of `author` played `played` in game `id` (from the position after
/// `at_ply` moves): the reply `author` planned to it, played at once by the same action as any
/// move, returned with the notice its board shows; or, off every branch, their tree cleared and
/// they are told. Nothing when they planned nothing.
pub fn after_move<'a>(
    core: &'a Core,
    id: i64,
    author: UserId,
    at_ply: i64,
    played: &'a str,
) -> Pin<Box<dyn Future<Output = Result<Option<Reply>, Error>> + Send + 'a>> {
    Box::pin(async move {
        let Some(plans) = plans_of(&core.pool, id, author).await? else {
            return Ok(None);
        };
        let now = core.clock.now();
        // The opponent's move in words, as the game has it now.
        let (_, game) = actions::load(&core.pool, id).await?;
        let words = actions::last_in_words(&game).unwrap_or_else(|| Text::raw(played));
        let answer = (plans.at_ply == at_ply)
            .then(|| plans.answer(played))
            .flatten();
        let Some((reply, rest)) = answer else {
            let mut tx = core.pool.begin().await?;
            store(&mut *tx, id, author, None, now).await?;
            let lang = crate::play::member_lang(&mut *tx, author).await?;
            let notice = Announcement {
                target: Target::Direct {
                    user: author,
                    or_channel: None,
                },
                content: text!(
                    "plans-missed",
                    game = id,
                    words = words,
                    mv = played.to_string()
                )
                .render(lang),
                mentions: Vec::new(),
                board: None,
                concerned: Vec::new(),
                lang: lang.tag().to_string(),
            };
            db::enqueue(&mut *tx, None, &notice).await?;
            tx.commit().await?;
            core.wake_delivery();
            info!(
                game = id,
                "conditional moves cleared: a move off every branch"
            );
            return Ok(None);
        };
        store(&core.pool, id, author, Some(&rest), now).await?;
        let intro = text!(
            "plans-played",
            who = mention(author),
            words = words,
            mv = played.to_string()
        );
        match actions::play_planned(core, id, author, &reply, intro.clone()).await {
            Ok(done) => {
                info!(game = id, mv = %reply, "conditional move played");
                Ok(Some((intro, done)))
            }
            Err(e) => {
                store(&core.pool, id, author, None, now).await?;
                Err(e)
            }
        }
    })
}

/// The words for the record's private follow-up: the caller's notes and what they still had
/// planned, if any.
pub fn record_extras(
    game: i64,
    notes: Option<&str>,
    plans: Option<&Plans>,
    lang: Lang,
) -> Option<String> {
    let mut parts = Vec::new();
    if let Some(notes) = notes {
        parts.push(crate::play::notes::shown(game, Some(notes)).render(lang));
    }
    if let Some(plans) = plans {
        parts.push(shown(game, Some(plans)).render(lang));
    }
    (!parts.is_empty()).then(|| parts.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(moves: &str) -> Vec<String> {
        moves.split(' ').map(str::to_string).collect()
    }

    #[test]
    fn a_tree_grows_branches_replaces_contradictions_and_answers() {
        let mut p = Plans {
            at_ply: 4,
            lines: Vec::new(),
        };
        p.add(line("a1 b1"));
        p.add(line("a1 b1 c1 d1"));
        assert_eq!(p.lines, [line("a1 b1 c1 d1")], "a line continued");
        p.add(line("a1 b1"));
        assert_eq!(p.lines.len(), 1, "a part of a line adds nothing");
        p.add(line("a1 b1 c2 d2"));
        p.add(line("a2 b2"));
        assert_eq!(p.lines.len(), 3);
        // Another reply to a1: its branch is replaced.
        p.add(line("a1 b9"));
        assert_eq!(p.lines, [line("a2 b2"), line("a1 b9")]);
        p.add(line("a1 b9 c1 d1"));
        p.add(line("a1 b9 c2 d2"));
        let (reply, rest) = p.answer("a1").unwrap();
        assert_eq!(reply, "b9");
        assert_eq!(rest.at_ply, 6);
        assert_eq!(rest.lines, [line("c1 d1"), line("c2 d2")]);
        let (reply, rest) = rest.answer("c2").unwrap();
        assert_eq!((reply.as_str(), rest.lines.len()), ("d2", 0));
        assert!(p.answer("zz").is_none(), "off every branch");
        assert!(p.remove(&line("a1")));
        assert_eq!(p.lines, [line("a2 b2")]);
        assert!(!p.remove(&line("a7")));
        assert_eq!(p.listing(), "1. `a2 → b2`");
    }

    use crate::clock::Clock;
    use crate::db::{ChannelId, GuildId};
    use crate::games::Options;
    use crate::play::actions::{answer_challenge, open_challenge, Answered, ChallengeRequest};
    use crate::play::terms::ChallengeAnswer;

    const ANN: UserId = UserId(11);
    const BOB: UserId = UserId(u64::MAX - 3);

    async fn game_of_ann_and_bob() -> (Core, i64, db::testing::TempFile) {
        let (pool, file) = db::testing::temp_db().await;
        for (id, name) in [(ANN, "ann"), (BOB, "bob")] {
            db::upsert_player(&pool, id, name, 1_800_000_000)
                .await
                .unwrap();
        }
        let core = Core::new(pool, Clock::fixed(1_800_000_000).0);
        let req = ChallengeRequest {
            guild_id: Some(GuildId(7)),
            channel_id: ChannelId(8),
            challenger: ANN,
            opponent: BOB,
            options: Options::parse_line("inphexion size=5").unwrap(),
            rated: false,
            seconds_per_move: 86_400,
            challenger_first: true,
            rematch_of: None,
            time_control: None,
            weekends_off: None,
        };
        let c = open_challenge(&core, &req).await.unwrap();
        let id = match answer_challenge(&core, c, BOB, ChallengeAnswer::Accept)
            .await
            .unwrap()
        {
            Answered::Started { game, .. } => game,
            other => panic!("{other:?}"),
        };
        (core, id, file)
    }

    /// Legal moves of the position after `line` from game `id`'s, other than a swap.
    async fn moves_after(core: &Core, id: i64, line: &[&str]) -> Vec<String> {
        let (_, mut game) = actions::load(&core.pool, id).await.unwrap();
        for m in line {
            game.play_text(m).unwrap();
        }
        game.legal_notations()
            .into_iter()
            .filter(|m| m != "swap")
            .collect()
    }

    /// A legal move after `line` after which the next player has two moves or more.
    async fn branching(core: &Core, id: i64, line: &[&str]) -> String {
        let options = moves_after(core, id, line).await;
        for m in &options {
            let mut next: Vec<&str> = line.to_vec();
            next.push(m);
            if moves_after(core, id, &next).await.len() >= 2 {
                return m.clone();
            }
        }
        options[0].clone()
    }

    async fn moves_of(core: &Core, id: i64) -> Vec<String> {
        db::fetch_moves(&core.pool, id)
            .await
            .unwrap()
            .into_iter()
            .map(|m| m.notation)
            .collect()
    }

    async fn board_texts(core: &Core) -> Vec<String> {
        sqlx::query_scalar("SELECT body FROM announcements ORDER BY id")
            .fetch_all(&core.pool)
            .await
            .unwrap()
    }

    #[tokio::test]
    async fn a_branch_hit_several_deep_then_missed_then_taken_back() {
        let (core, id, _f) = game_of_ann_and_bob().await;
        let a = moves_after(&core, id, &[]).await;
        let (a1, a2) = (a[0].clone(), a[1].clone());
        let b1 = moves_after(&core, id, &[&a1]).await[0].clone();
        let c1 = moves_after(&core, id, &[&a1, &b1]).await[0].clone();
        let d1 = branching(&core, id, &[&a1, &b1, &c1]).await;
        let b2 = moves_after(&core, id, &[&a2]).await[0].clone();

        // Ann is to move: she may not plan; Bob may, legal lines only, nothing stored otherwise.
        let refused = plan(&core, id, ANN, &[&a1, &b1]).await.unwrap_err();
        assert!(
            matches!(&refused, Error::Refused(r) if r.0.id == "plans-your-move"),
            "{refused}"
        );
        let refused = plan(&core, id, BOB, &[&a1, "z99"]).await.unwrap_err();
        assert!(
            matches!(&refused, Error::Refused(r) if r.0.id == "plans-illegal"),
            "{refused}"
        );
        let refused = plan(&core, id, BOB, &[&a1]).await.unwrap_err();
        assert!(
            matches!(&refused, Error::Refused(r) if r.0.id == "plans-line-length"),
            "{refused}"
        );
        assert_eq!(plans_of(&core.pool, id, BOB).await.unwrap(), None);
        plan(&core, id, BOB, &[&a1, &b1, &c1, &d1]).await.unwrap();
        let added = plan(&core, id, BOB, &[&a2, &b2]).await.unwrap();
        assert!(
            added.render(Lang::EN).contains("2 lines planned"),
            "{added:?}"
        );
        let mine =
            shown(id, plans_of(&core.pool, id, BOB).await.unwrap().as_ref()).render(Lang::EN);
        assert!(
            mine.contains(&format!("{a1} → {b1} → {c1} → {d1}")),
            "{mine}"
        );

        // A branch hit: Ann's move is answered at once by Bob's reply, announced as his
        // conditional move; the deeper line stays.
        let played = actions::play_move(&core, id, ANN, a1.as_str(), None)
            .await
            .unwrap();
        assert_eq!(played.ply, 1);
        assert_eq!(moves_of(&core, id).await, [a1.clone(), b1.clone()]);
        let boards = board_texts(&core).await;
        let last = boards.last().unwrap();
        assert!(
            last.contains("conditional move") && last.contains(&a1),
            "{last}"
        );
        let left = plans_of(&core.pool, id, BOB).await.unwrap().unwrap();
        assert_eq!(
            (left.at_ply, left.lines.clone()),
            (2, vec![vec![c1.clone(), d1.clone()]])
        );
        // Several deep: the next pair too.
        actions::play_move(&core, id, ANN, c1.as_str(), None)
            .await
            .unwrap();
        assert_eq!(moves_of(&core, id).await.len(), 4);
        assert_eq!(moves_of(&core, id).await[3], d1);
        assert_eq!(
            plans_of(&core.pool, id, BOB).await.unwrap(),
            None,
            "the tree is used up"
        );

        // A branch missed: Bob's plans are cleared and he is told privately.
        let e = moves_after(&core, id, &[]).await;
        let f = moves_after(&core, id, &[&e[0]]).await[0].clone();
        plan(&core, id, BOB, &[&e[0], &f]).await.unwrap();
        let before = board_texts(&core).await.len();
        actions::play_move(&core, id, ANN, e[1].as_str(), None)
            .await
            .unwrap();
        assert_eq!(moves_of(&core, id).await.len(), 5, "no reply played");
        assert_eq!(plans_of(&core.pool, id, BOB).await.unwrap(), None);
        let told = board_texts(&core).await;
        let dm = told[before..]
            .iter()
            .find(|b| b.contains("are cleared"))
            .unwrap_or_else(|| panic!("{told:?}"));
        assert!(dm.contains(&BOB.0.to_string()), "{dm}");

        // A takeback after a conditional reply: Ann plans now; Bob's move is answered, Ann's
        // reply taken back on request, and what was planned deeper is cleared as stale.
        let g = moves_after(&core, id, &[]).await[0].clone();
        let h = moves_after(&core, id, &[&g]).await[0].clone();
        let i = moves_after(&core, id, &[&g, &h]).await[0].clone();
        let j = moves_after(&core, id, &[&g, &h, &i]).await[0].clone();
        // (Bob is to move: Ann plans.)
        plan(&core, id, ANN, &[&g, &h, &i, &j]).await.unwrap();
        actions::play_move(&core, id, BOB, g.as_str(), None)
            .await
            .unwrap();
        assert_eq!(moves_of(&core, id).await.len(), 7);
        assert!(plans_of(&core.pool, id, ANN).await.unwrap().is_some());
        let (at, _) = actions::ask_takeback(&core, id, ANN).await.unwrap();
        actions::answer_takeback(&core, id, at, BOB, true)
            .await
            .unwrap();
        assert_eq!(moves_of(&core, id).await.len(), 6);
        assert_eq!(
            plans_of(&core.pool, id, ANN).await.unwrap(),
            None,
            "stale plans cleared"
        );
        // Ann moves again herself, as usual.
        let k = moves_after(&core, id, &[]).await[0].clone();
        actions::play_move(&core, id, ANN, k.as_str(), None)
            .await
            .unwrap();
        assert_eq!(moves_of(&core, id).await.len(), 7);
    }
}
