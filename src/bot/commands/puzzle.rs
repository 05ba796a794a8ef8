//! `/puzzle`: puzzles cut from games ([`crate::puzzles`]), solved privately with the Move
//! button's picker, and the pool's puzzle leaderboard.
//!
//! `/puzzle solve [game]` answers privately with the member's puzzle ([`puzzles::give_puzzle`]):
//! its board, the side to move, its difficulty and where it comes from ("from A vs B, move N",
//! anonymous for a member who had their data deleted, or the starter set), and the picker. Its
//! buttons name the member's attempt and the step of the line they were made at
//! ([`crate::bot::custom_id::Component::PuzzlePick`]); each answer goes through [`puzzles::answer_puzzle`], which refuses
//! another member's press, an old step and an attempt already over. `/puzzle leaderboard` posts
//! the pool's best puzzle ratings. Servers have one pool each; direct messages and group chats
//! share one ([`crate::play::chats::RATINGS`]), as game ratings do.

use poise::serenity_prelude as serenity;
use poise::CreateReply;

use super::{lang, public_lang, remember_author, GameChoice, PrivateView};
use crate::bot::limits::{self, fit};
use crate::bot::picker_view::{picker_parts, Target};
use crate::bot::{BotError, Context, Data};
use crate::db::{self, GuildId, Origin, PuzzleRow, Rated, UserId};
use crate::games::{Game, GameKind};
use crate::i18n::{tr, Lang, Text};
use crate::play::access::mention;
use crate::play::picker::{self, Path};
use crate::play::puzzles::{self, Answered};
use crate::render::Theme;
use crate::text;

/// Members listed by `/puzzle leaderboard`.
pub const LEADERBOARD: i64 = 10;

/// Puzzles: solve one; the leaderboard.
#[poise::command(
    slash_command,
    subcommands("solve", "leaderboard"),
    subcommand_required
)]
pub async fn puzzle(_ctx: Context<'_>) -> Result<(), BotError> {
    Ok(())
}

/// The pool of puzzle ratings here: the server's, or the one of direct messages and chats.
fn pool_here(guild: Option<serenity::GuildId>) -> GuildId {
    guild.map_or(crate::play::chats::RATINGS, GuildId::from)
}

/// A puzzle near your puzzle rating that you never tried, solved privately.
#[poise::command(slash_command)]
pub async fn solve(ctx: Context<'_>, game: Option<GameChoice>) -> Result<(), BotError> {
    let me = remember_author(&ctx).await?;
    let kind = game.map(GameKind::from);
    let shown = give(ctx.data(), lang(&ctx), me, ctx.guild_id(), kind).await?;
    ctx.send(shown.reply()).await?;
    Ok(())
}

/// The puzzle `/puzzle solve` gives `user` in server `guild` (of `kind`, or either game): the
/// one under way, else one near their puzzle rating that they never tried.
pub(crate) async fn give(
    data: &Data,
    lang: Lang,
    user: UserId,
    guild: Option<serenity::GuildId>,
    kind: Option<GameKind>,
) -> Result<PrivateView, BotError> {
    let now = data.core.clock.now();
    let given = puzzles::give_puzzle(&data.core.pool, user, pool_here(guild), kind, now).await?;
    let head = if given.resumed {
        text!("puzzle-resumed")
    } else {
        text!("puzzle-new")
    };
    puzzle_message(
        lang,
        data,
        &given.puzzle,
        given.attempt.id,
        given.attempt.step,
        &Path::default(),
        Some(head.render(lang)),
        guild.map(GuildId::from),
    )
    .await
}

/// The best puzzle solvers here: rating, puzzles solved, best streak.
#[poise::command(slash_command)]
pub async fn leaderboard(ctx: Context<'_>) -> Result<(), BotError> {
    remember_author(&ctx).await?;
    let guild = pool_here(ctx.guild_id());
    let pool = &ctx.data().core.pool;
    let rows = db::puzzle_leaderboard(pool, guild, LEADERBOARD).await?;
    if rows.is_empty() {
        return Err(crate::play::Refusal::new(text!("puzzle-leaderboard-empty")).into());
    }
    let lang = public_lang(&ctx).await?;
    let lines: Vec<String> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            text!(
                "puzzle-leaderboard-line",
                place = i + 1,
                player = mention(r.player_id),
                rating = format!("{:.0}", r.rating),
                solved = r.solved,
                failed = r.failed,
                best = r.best_streak
            )
            .render(lang)
        })
        .collect();
    let embed = serenity::CreateEmbed::new()
        .title(tr(lang, "puzzle-leaderboard-title"))
        .description(fit(&lines.join("\n"), limits::EMBED_DESCRIPTION));
    ctx.send(
        CreateReply::default()
            .embed(embed)
            .allowed_mentions(serenity::CreateAllowedMentions::new()),
    )
    .await?;
    Ok(())
}

/// A daily puzzle's Solve, the press checked and the attempt given
/// ([`crate::play::daily::give_daily`]): the puzzle privately, as `/puzzle solve` shows it.
pub(crate) async fn show_daily(
    ctx: &serenity::Context,
    data: &Data,
    press: &serenity::ComponentInteraction,
    attempt: &db::AttemptRow,
    p: &PuzzleRow,
) -> Result<(), BotError> {
    let lang = Lang::of(&press.locale);
    let head = text!("daily-puzzle-solving").render(lang);
    let guild = press.guild_id.map(GuildId::from);
    let shown = puzzle_message(
        lang,
        data,
        p,
        attempt.id,
        attempt.step,
        &Path::default(),
        Some(head),
        guild,
    )
    .await?;
    shown.answer(ctx, press).await
}

/// Who the puzzle comes from, in words: "from A vs B, move N" (a member who had their data
/// deleted is anonymous), or the starter set.
async fn source_words(data: &Data, lang: Lang, p: &PuzzleRow) -> Result<Text, BotError> {
    match p.origin {
        Origin::Starter => Ok(text!("puzzle-from-starter")),
        Origin::Game { players, .. } => {
            let mut names = Vec::with_capacity(2);
            for who in players {
                let name = match db::fetch_name(&data.core.pool, who).await? {
                    Some(db::Name::Named(n)) => crate::i18n::excerpt(&n),
                    _ => tr(lang, "puzzle-anonymous"),
                };
                names.push(name);
            }
            Ok(text!(
                "puzzle-from-game",
                a = names[0].as_str(),
                b = names[1].as_str(),
                number = p.puzzle.source.ply + 1
            ))
        }
    }
}

/// The theme of pictures here.
async fn theme_here(data: &Data, guild: Option<GuildId>) -> Result<Theme, BotError> {
    Ok(crate::play::server_theme(&data.core.pool, guild).await?)
}

/// A puzzle's board at `game`, as the member solving it sees it, as an attachment named `name`.
async fn board_file(
    lang: Lang,
    theme: Theme,
    p: &PuzzleRow,
    game: Game,
    name: &str,
) -> Result<serenity::CreateAttachment, BotError> {
    let (png, alt) = puzzles::picture(lang, theme, game, Some(p.puzzle.solver())).await?;
    Ok(serenity::CreateAttachment::bytes(png, name.to_string())
        .description(fit(&alt, limits::ATTACHMENT_DESCRIPTION)))
}

/// The puzzle at `step` moves of its line with its picker at `path`: `head` first, then the
/// puzzle (number, game, difficulty, source, side to move), its board, and the preview of a
/// chosen move.
#[allow(clippy::too_many_arguments)] // what the message shows, each from its caller
async fn puzzle_message(
    lang: Lang,
    data: &Data,
    p: &PuzzleRow,
    attempt: i64,
    step: i64,
    path: &Path,
    head: Option<String>,
    guild: Option<GuildId>,
) -> Result<PrivateView, BotError> {
    let game = position(p, step)?;
    let kind = game.kind();
    let mut title = head.map(|h| format!("{h}\n")).unwrap_or_default();
    title.push_str(
        &text!(
            "puzzle-title",
            id = p.id,
            game = kind.title(),
            variant = crate::play::words::variant(game.options()),
            difficulty = p.puzzle.difficulty,
            source = source_words(data, lang, p).await?
        )
        .render(lang),
    );
    title.push('\n');
    title.push_str(
        &text!(
            "puzzle-to-move",
            colour = crate::play::words::colour(kind, p.puzzle.solver()),
            moves = p.puzzle.solver_moves()
        )
        .render(lang),
    );
    let target = Target::Puzzle { attempt, step };
    let Some(parts) = picker_parts(lang, &game, target, path, title, Vec::new()) else {
        return Err(BotError::refused(text!("puzzle-stale")));
    };
    let theme = theme_here(data, guild).await?;
    let mut files = vec![board_file(lang, theme, p, game.clone(), "puzzle.png").await?];
    if let Some(mv) = parts.chosen {
        let mut after = game;
        after
            .play(mv)
            .map_err(|e| anyhow::anyhow!("the picker's move does not play: {e}"))?;
        files.push(board_file(lang, theme, p, after, "preview.png").await?);
    }
    Ok(PrivateView {
        text: fit(&parts.text, limits::CONTENT),
        rows: parts.rows,
        files,
    })
}

/// The puzzle's game at `step`; a line that does not replay is reported, and the member told.
fn position(p: &PuzzleRow, step: i64) -> Result<Game, BotError> {
    let at = usize::try_from(step).unwrap_or(usize::MAX);
    puzzles::at_step(&p.puzzle, at).map_err(|e| {
        db::report_bad_row("puzzles", p.id, &e);
        BotError::refused(text!("puzzle-gone"))
    })
}

/// The rating change and streak after a puzzle.
fn rated_words(r: &Rated) -> Text {
    let change = (r.after.rating - r.before.rating).round() as i64;
    text!(
        "puzzle-rating-change",
        before = format!("{:.0}", r.before.rating),
        after = format!("{:.0}", r.after.rating),
        change = format!("{change:+}"),
        streak = r.after.streak,
        best = r.after.best_streak
    )
}

/// A press in a puzzle's picker: the next step, the preview of the move chosen, or with `play`
/// the answer (judged once, by [`puzzles::answer_puzzle`]).
pub(crate) async fn picker_press(
    ctx: &serenity::Context,
    data: &Data,
    press: &serenity::ComponentInteraction,
    (attempt, step, path): (i64, i64, Path),
    user: UserId,
    play: bool,
) -> Result<(), BotError> {
    let lang = Lang::of(&press.locale);
    let guild = press.guild_id.map(GuildId::from);
    let pool = &data.core.pool;
    let (_, p) = puzzles::open_at(pool, attempt, user, step).await?;
    let shown = if !play {
        puzzle_message(lang, data, &p, attempt, step, &path, None, guild).await?
    } else {
        let game = position(&p, step)?;
        let Ok(picker::View::Confirm { mv, words, .. }) = picker::view(lang, &game, &path) else {
            return Err(BotError::refused(text!("puzzle-stale")));
        };
        let now = data.core.clock.now();
        match puzzles::answer_puzzle(pool, attempt, user, step, mv, now).await? {
            Answered::Next {
                puzzle,
                replies,
                step: next,
                ..
            } => {
                let from = usize::try_from(step).unwrap_or(0) + 1;
                let said = puzzles::line_words(lang, &puzzle.puzzle, from, from + replies.len());
                let head = text!("puzzle-right", words = words, replies = said).render(lang);
                puzzle_message(
                    lang,
                    data,
                    &puzzle,
                    attempt,
                    next,
                    &Path::default(),
                    Some(head),
                    guild,
                )
                .await?
            }
            Answered::Done {
                puzzle,
                solved,
                step,
                rated,
            } => {
                let at = usize::try_from(step).unwrap_or(0);
                let text = if solved {
                    text!(
                        "puzzle-solved",
                        id = puzzle.id,
                        words = words,
                        rating = rated_words(&rated)
                    )
                } else {
                    let line =
                        puzzles::line_words(lang, &puzzle.puzzle, at, puzzle.puzzle.solution.len());
                    text!(
                        "puzzle-failed",
                        id = puzzle.id,
                        words = words,
                        line = line,
                        rating = rated_words(&rated)
                    )
                };
                let mut after = game;
                let mut files = Vec::new();
                if solved && after.play(mv).is_ok() {
                    let theme = theme_here(data, guild).await?;
                    files.push(board_file(lang, theme, &puzzle, after, "puzzle.png").await?);
                }
                PrivateView {
                    text: fit(&text.render(lang), limits::CONTENT),
                    rows: Vec::new(),
                    files,
                }
            }
        }
    };
    shown.update(ctx, press).await
}
