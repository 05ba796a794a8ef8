//! `/analysis`: a computer analysis of a finished game — the chart of the winning chances and
//! its turning points, their moves in words (as captions say them), each with a picture of the
//! board before the move, after it, and after the better move.
//!
//! Never for a game in play (it would be a second opinion on the next move). The search runs in
//! the bot's search pool ([`crate::play::opponent::Opponent::run_search`]), off the async
//! runtime; its progress is shown by editing the answer, at most every [`PROGRESS_EVERY`]. The
//! result is stored (`analyses`), so asking again is instant; two requests for one game at once
//! make one analysis. A new analysis' puzzles are then found in the background and stored with
//! the game ([`crate::play::puzzles::find_later`]).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use poise::serenity_prelude as serenity;
use poise::CreateReply;

use super::{autocomplete_finished, game_in_server, public_lang};
use crate::analysis::{self, percent, Analysis, AnalysisBudget};
use crate::bot::limits::{self, fit};
use crate::bot::{BotError, Context};
use crate::db::{self, GameStatus};
use crate::games::{Colour, Game};
use crate::i18n::{Lang, Text};
use crate::play::present::{draw, names_by_colour};
use crate::play::words;
use crate::render::{self, Theme};
use crate::text;

// The chart and three boards per turning point stay within Discord's attachments.
const _: () = assert!(3 * analysis::TURNING_POINTS < limits::ATTACHMENTS);

/// How often the answer is edited to show progress.
pub const PROGRESS_EVERY: Duration = Duration::from_secs(2);

/// A finished game's turning points.
#[poise::command(slash_command)]
pub async fn analysis(
    ctx: Context<'_>,
    #[max_length = 20]
    #[autocomplete = "autocomplete_finished"]
    game: String,
) -> Result<(), BotError> {
    let (row, played) = game_in_server(&ctx, &game).await?;
    if row.status == GameStatus::Active {
        return Err(
            crate::play::Refusal::new(text!("answer-analysis-in-play", game = row.id)).into(),
        );
    }
    if played.ply() == 0 {
        return Err(
            crate::play::Refusal::new(text!("answer-analysis-empty", game = row.id)).into(),
        );
    }
    ctx.defer().await?;
    let lang = public_lang(&ctx).await?;
    let pool = &ctx.data().core.pool;
    let kind = played.kind();
    let budget = AnalysisBudget::DEFAULT;
    let seed = row.id as u64;
    // One analysis of a game at a time: a second request waits for the first and finds it stored.
    let lock = game_lock(row.id);
    let guard = lock.lock().await;
    let stored = db::fetch_analysis(pool, row.id, budget.for_kind(kind), seed).await?;
    let (result, progress) = match stored {
        Some(a) if a.moves.len() == played.ply() => (a, None),
        _ => {
            let handle = ctx
                .send(
                    CreateReply::default()
                        .content(progress_text(row.id, 0, played.ply() + 1).render(lang)),
                )
                .await?;
            let a = run(&ctx, &handle, lang, row.id, &played, budget, seed).await?;
            db::store_analysis(pool, row.id, &a, ctx.data().core.clock.now()).await?;
            // Its puzzles, found in the background with the same budget and seed.
            let (game, analysed) = (played.clone(), a.clone());
            crate::play::puzzles::find_later(&ctx.data().core, row.id, row.players, move || {
                crate::puzzles::find(&game, &analysed, budget, seed)
            });
            (a, Some(handle))
        }
    };
    drop(guard);
    let names = names_by_colour(pool, &row, &played, lang).await?;
    let summary = summary(lang, row.id, &played, &result, &names);
    let theme = crate::play::server_theme(pool, row.guild_id).await?;
    let pictures = {
        let (result, played, names) = (result.clone(), played.clone(), names.clone());
        let id = row.id;
        draw(move || pictures(lang, theme, id, &played, &result, &names)).await?
    };
    let mut reply = CreateReply::default()
        .content(fit(&summary, limits::CONTENT))
        .allowed_mentions(serenity::CreateAllowedMentions::new());
    for (name, png, alt) in pictures {
        reply = reply.attachment(
            serenity::CreateAttachment::bytes(png, name)
                .description(fit(&alt, limits::ATTACHMENT_DESCRIPTION)),
        );
    }
    match progress {
        Some(handle) => handle.edit(ctx, reply).await?,
        None => {
            ctx.send(reply).await?;
        }
    }
    Ok(())
}

/// The lock of game `id`'s analysis (entries of finished analyses are dropped when unused).
fn game_lock(id: i64) -> Arc<tokio::sync::Mutex<()>> {
    static LOCKS: OnceLock<Mutex<HashMap<i64, Arc<tokio::sync::Mutex<()>>>>> = OnceLock::new();
    let mut locks = LOCKS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    locks.retain(|_, l| Arc::strong_count(l) > 1);
    locks.entry(id).or_default().clone()
}

fn progress_text(game: i64, done: usize, total: usize) -> Text {
    text!(
        "answer-analysis-progress",
        game = game,
        done = done,
        total = total
    )
}

/// Analyses `game` in the search pool, editing `handle`'s message as positions are searched.
async fn run(
    ctx: &Context<'_>,
    handle: &poise::ReplyHandle<'_>,
    lang: Lang,
    id: i64,
    game: &Game,
    budget: AnalysisBudget,
    seed: u64,
) -> Result<Analysis, BotError> {
    let total = game.ply() + 1;
    let (tx, mut rx) = tokio::sync::watch::channel((0usize, total));
    let searched = game.clone();
    let work = ctx.data().opponent.run_search(move || {
        analysis::analyse(&searched, budget, seed, |done, total| {
            tx.send_replace((done, total));
        })
    });
    tokio::pin!(work);
    let mut shown = (0usize, total);
    loop {
        tokio::select! {
            done = &mut work => return done,
            _ = tokio::time::sleep(PROGRESS_EVERY) => {
                let now = *rx.borrow_and_update();
                if now != shown {
                    shown = now;
                    let text = progress_text(id, now.0, now.1).render(lang);
                    if let Err(e) = handle.edit(*ctx, CreateReply::default().content(text)).await {
                        tracing::warn!(game = id, "could not show the analysis' progress: {e}");
                    }
                }
            }
        }
    }
}

/// The answer's words: the game, then each turning point with its better move.
fn summary(lang: Lang, id: i64, game: &Game, a: &Analysis, names: &[String; 2]) -> String {
    let kind = game.kind();
    let mut lines = vec![text!(
        "answer-analysis",
        game = id,
        title = kind.title(),
        first = names[0].as_str(),
        second = names[1].as_str()
    )
    .render(lang)];
    let points: Vec<_> = a
        .turning_points
        .iter()
        .filter_map(|&n| a.move_number(n))
        .collect();
    if points.is_empty() {
        lines.push(
            text!(
                "answer-analysis-no-turning",
                loss = percent(analysis::TURNING_LOSS)
            )
            .render(lang),
        );
    }
    for m in points {
        let mover = usize::from(m.mover.min(1));
        // The moves in words, as captions say them, read against the position before the move.
        let said = |notation: &str| analysis::move_in_words(lang, game, m.number, notation);
        lines.push(
            text!(
                "answer-analysis-turning",
                number = m.number,
                played = said(&m.played),
                colour = words::colour(kind, Colour::BOTH[mover]),
                name = names[mover].as_str(),
                loss = percent(m.loss),
                before = percent(m.before),
                after = percent(m.after),
                better = m.better.as_deref().map_or_else(|| "—".to_string(), said)
            )
            .render(lang),
        );
    }
    lines.join("\n")
}

/// The analysis' pictures: the chart, then each turning point's boards (before, played, better: at
/// most 1 + 3 × [`analysis::TURNING_POINTS`], within Discord's 10 attachments), with file name, PNG
/// and description (for readers who cannot see it).
fn pictures(
    lang: Lang,
    theme: Theme,
    id: i64,
    game: &Game,
    a: &Analysis,
    names: &[String; 2],
) -> Result<Vec<(String, Vec<u8>, String)>, render::RenderError> {
    let title = game.kind().title();
    let mut out = vec![(
        "analysis.png".to_string(),
        analysis::chart_png_in(lang, a, names, theme)?,
        text!("alt-chart", game = title, id = id).render(lang),
    )];
    for m in a.turning_points.iter().filter_map(|&n| a.move_number(n)) {
        let boards =
            render::turning_point_images(lang, game, m.number, m.better.as_deref(), names, theme)?;
        for (k, img) in boards.iter().enumerate() {
            let number = m.number;
            let (file, alt) = match k {
                0 => (
                    "before",
                    text!("alt-turning-before", game = title, id = id, number = number),
                ),
                1 => (
                    "played",
                    text!("alt-turning-played", game = title, id = id, number = number),
                ),
                _ => (
                    "better",
                    text!("alt-turning-better", game = title, id = id, number = number),
                ),
            };
            out.push((
                format!("move-{}-{file}.png", m.number),
                render::encode_png(img)?,
                alt.render(lang),
            ));
        }
    }
    Ok(out)
}
