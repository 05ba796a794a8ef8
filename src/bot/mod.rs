//! The Discord bot: poise commands, buttons handled from their `custom_id`, answers.
//!
//! Thin on purpose: it reads what Discord sent, asks [`logic`] what is allowed, stores through
//! [`crate::db`] and answers. User mistakes are answered privately with what to do instead;
//! internal failures are logged with their cause and the user sees a short apology.

mod commands;
mod components;
pub mod logic;
mod opponent;
mod present;
pub mod timers;

use std::process::ExitCode;

use poise::serenity_prelude as serenity;
use sqlx::SqlitePool;
use thiserror::Error;
use tracing::{error, info, warn};

use crate::clock::Clock;
use crate::config::Config;
use crate::db::DbError;
use logic::Refusal;

/// What every command and handler can reach.
pub struct Data {
    pub pool: SqlitePool,
    /// The bot as a player in `/play` games.
    pub opponent: opponent::Opponent,
    /// The time the bot acts on (the system clock, or the tests' clock).
    pub clock: Clock,
}

/// A failure while handling an interaction.
#[derive(Debug, Error)]
pub enum BotError {
    /// The user's mistake: shown to them privately, as is.
    #[error("{0}")]
    User(String),
    /// Ours: logged with its cause; the user sees an apology.
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl From<Refusal> for BotError {
    fn from(r: Refusal) -> BotError {
        BotError::User(r.0)
    }
}

impl From<DbError> for BotError {
    fn from(e: DbError) -> BotError {
        match e {
            DbError::Conflict(id) => BotError::User(format!(
                "Game #{id} changed while you were acting (the position is not the one you saw). Look at the new board and try again."
            )),
            other => BotError::Internal(other.into()),
        }
    }
}

impl From<serenity::Error> for BotError {
    fn from(e: serenity::Error) -> BotError {
        BotError::Internal(e.into())
    }
}

impl From<sqlx::Error> for BotError {
    fn from(e: sqlx::Error) -> BotError {
        BotError::Internal(e.into())
    }
}

pub type Context<'a> = poise::Context<'a, Data, BotError>;

/// The apology shown for internal failures.
pub const APOLOGY: &str =
    "Sorry, something went wrong on my side. It has been logged; please try again in a moment.";

async fn on_error(err: poise::FrameworkError<'_, Data, BotError>) {
    match err {
        poise::FrameworkError::Command { error, ctx, .. } => {
            let text = match &error {
                BotError::User(text) => text.clone(),
                BotError::Internal(e) => {
                    error!(command = %ctx.command().name, "internal error: {e:#}");
                    APOLOGY.to_string()
                }
            };
            reply_privately(ctx, text).await;
        }
        poise::FrameworkError::ArgumentParse {
            error, input, ctx, ..
        } => {
            let text = format!(
                "I could not read {}: {error}. Type `/{}` and pick from the suggestions.",
                input.map_or("an option".to_string(), |i| format!("`{i}`")),
                ctx.command().name
            );
            reply_privately(ctx, text).await;
        }
        poise::FrameworkError::Setup { error, .. } => {
            error!("setup failed: {error}");
        }
        poise::FrameworkError::EventHandler { error, event, .. } => {
            error!(
                event = event.snake_case_name(),
                "event handler failed: {error}"
            );
        }
        other => {
            warn!("{other}");
            if let Some(ctx) = other.ctx() {
                reply_privately(ctx, APOLOGY.to_string()).await;
            }
        }
    }
}

async fn reply_privately(ctx: Context<'_>, text: String) {
    let reply = poise::CreateReply::default()
        .content(text)
        .ephemeral(true)
        .allowed_mentions(serenity::CreateAllowedMentions::new());
    if let Err(e) = ctx.send(reply).await {
        warn!("could not send an error answer: {e}");
    }
}

async fn event_handler(
    framework: poise::FrameworkContext<'_, Data, BotError>,
    event: &serenity::FullEvent,
) -> Result<(), BotError> {
    if let serenity::FullEvent::InteractionCreate {
        interaction: serenity::Interaction::Component(press),
    } = event
    {
        components::handle(framework.serenity_context, framework.user_data, press).await;
    }
    Ok(())
}

/// The commands as Discord's API takes them: `default_member_permissions` (which hides `/abort`
/// from members without Manage Server) as the integer the API's request schema names, where the
/// serenity builder writes the number as a string.
fn command_list<U, E>(commands: &[poise::Command<U, E>]) -> anyhow::Result<serde_json::Value> {
    let mut list = serde_json::to_value(poise::builtins::create_application_commands(commands))?;
    for command in list.as_array_mut().into_iter().flatten() {
        if let Some(perms) = command.get_mut("default_member_permissions") {
            if let Some(text) = perms.as_str() {
                let bits: u64 = text
                    .parse()
                    .map_err(|e| anyhow::anyhow!("permissions `{text}`: {e}"))?;
                *perms = serde_json::Value::from(bits);
            }
        }
    }
    Ok(list)
}

/// Registers the slash commands in the development server, or globally.
async fn register<U, E>(
    http: &serenity::Http,
    commands: &[poise::Command<U, E>],
    dev_guild: Option<u64>,
) -> anyhow::Result<()> {
    let list = command_list(commands)?;
    match dev_guild {
        Some(g) => {
            http.create_guild_commands(serenity::GuildId::new(g), &list)
                .await?
        }
        None => http.create_global_commands(&list).await?,
    };
    Ok(())
}

/// The bot: opens the database (running the migrations), registers the commands, connects, and
/// runs until the connection ends.
pub async fn run(config: Config) -> anyhow::Result<()> {
    let pool = crate::db::connect(&config.database_url).await?;
    info!(database = %config.database_url, "database ready");
    let rated = crate::rating::apply_pending(&mut *pool.acquire().await?).await?;
    if rated > 0 {
        info!(
            games = rated,
            "results of earlier games applied to the ratings"
        );
    }

    let clock = match &config.clock_file {
        Some(path) => {
            info!(file = %path.display(), "the clock is read from a file (tests only)");
            Clock::File(path.clone())
        }
        None => Clock::System,
    };
    let data_clock = clock.clone();
    let data_pool = pool.clone();
    let dev_guild = config.dev_guild_id;
    let options = poise::FrameworkOptions {
        commands: commands::all(),
        on_error: |err| Box::pin(on_error(err)),
        event_handler: |framework, event| Box::pin(event_handler(framework, event)),
        ..Default::default()
    };
    let framework = poise::Framework::builder()
        .options(options)
        .initialize_owners(false)
        .setup(move |ctx, ready, framework| {
            Box::pin(async move {
                register(&ctx.http, &framework.options().commands, dev_guild).await?;
                info!(user = %ready.user.name, "connected; commands registered");
                let opponent = opponent::Opponent::new(
                    data_pool.clone(),
                    ctx.http.clone(),
                    ready.user.id.get(),
                    &ready.user.name,
                    data_clock.clone(),
                );
                opponent.resume().await?;
                Ok(Data {
                    pool: data_pool,
                    clock: data_clock,
                    opponent,
                })
            })
        })
        .build();

    let mut http = serenity::HttpBuilder::new(config.discord_token.expose());
    if let Some(base) = &config.api_base {
        http = http.proxy(base.as_str()).ratelimiter_disabled(true);
    }
    let intents = serenity::GatewayIntents::GUILDS;
    let mut client = serenity::ClientBuilder::new_with_http(http.build(), intents)
        .framework(framework)
        .await?;
    let timer_task = timers::run(client.http.clone(), pool, clock, config.timer_interval);
    tokio::select! {
        r = client.start() => r?,
        () = timer_task => {}
    }
    Ok(())
}

/// `hexcord bot`: settings, logs, runtime, then [`run`]. A bad setting is one line on stderr.
pub fn main() -> ExitCode {
    let config = match Config::from_env() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("hexcord: {e}");
            return ExitCode::from(2);
        }
    };
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(ansi)
        .with_writer(std::io::stderr)
        .init();
    // Pictures (and the bot's searches) run on blocking threads. Capping them keeps memory flat
    // when many games ask for pictures at once: the extra work waits in a queue instead of each
    // piece holding its own image buffers and thread.
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .max_blocking_threads(2 * cores + 2)
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("hexcord: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(config)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            error!("{e:#}");
            eprintln!("hexcord: {e:#}");
            ExitCode::FAILURE
        }
    }
}
