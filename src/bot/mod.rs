//! The Discord front end: the slash commands ([`commands`]), the buttons and the picker's menus
//! ([`components`], with their `custom_id` codec in [`custom_id`] and the picker's messages in
//! `picker_view`), the delivery task that posts the queued announcements ([`delivery`]), why
//! Discord refused a post ([`failure`]), Discord's limits on what the bot sends ([`limits`]), the
//! seals on answer buttons ([`seal`]), and here the framework set-up: [`run`] checks the locale
//! files, opens the database (running the migrations), registers the commands (in the process
//! running shard 0), connects this process's shards, and runs the delivery and timer tasks beside
//! the gateway.
//!
//! Thin on purpose: commands and buttons read what Discord sent, call a [`crate::play::actions`]
//! function (which decides, stores and queues the announcements in one transaction) and answer the
//! interaction. The [`crate::play::timers`] task and the bot [`crate::play::opponent`] call actions
//! too. A refusal ([`crate::play::Refusal`]) is answered privately, in the member's language, with
//! what to do instead; an internal failure is logged with its cause and the member sees a short
//! apology; when the database cannot be reached, the member is told that nothing was done
//! ([`crate::play::Error::storage_unavailable`]). [`BotError`] is the play layer's
//! [`crate::play::Error`].

pub mod chats;
pub mod commands;
pub mod components;
pub mod custom_id;
pub mod delivery;
pub mod failure;
pub mod limits;
mod picker_view;
pub mod rest;
pub mod seal;

use std::sync::{Arc, OnceLock};

use poise::serenity_prelude as serenity;
use tracing::{error, info, warn};

use crate::clock::Clock;
use crate::config::Config;
use crate::db::DbError;
use crate::i18n::Lang;
use crate::metrics::{Interaction, METRICS};
use crate::play::{access, actions, opponent, timers};
use actions::Core;

/// Discord ids between serenity's types and the rows' ([`crate::db::UserId`] …). A stored id
/// is never 0 (rows holding 0 do not decode), so the way back to serenity, whose ids are
/// non-zero, cannot fail; should a 0 reach it anyway, it becomes id 1, which Discord answers
/// as unknown instead of the bot panicking.
macro_rules! id_conversions {
    ($($name:ident),*) => {$(
        impl From<serenity::$name> for crate::db::$name {
            fn from(id: serenity::$name) -> Self {
                crate::db::$name(id.get())
            }
        }

        impl From<crate::db::$name> for serenity::$name {
            fn from(id: crate::db::$name) -> Self {
                serenity::$name::new(id.get().max(1))
            }
        }
    )*};
}
id_conversions!(UserId, ChannelId, GuildId, MessageId);

/// What every command and handler can reach.
pub struct Data {
    /// The database, the clock and the delivery bell: what actions need.
    pub core: Core,
    /// The bot as a player in `/play` games.
    pub opponent: opponent::Opponent,
    /// Seals the buttons that answer a request.
    pub seals: seal::Sealer,
    /// The web board's address for players (`PUBLIC_URL`), when it runs.
    pub web_url: Option<String>,
    /// The game page also opens inside Discord (an Activity): boards in play offer it.
    pub activity: bool,
    /// The budget of requests to Discord shared with the delivery ([`rest::Pacer`]).
    pub pacer: Arc<rest::Pacer>,
}

/// The bot's error is the play layer's: a refusal, answered privately, or an internal failure.
pub use crate::play::Error as BotError;

impl From<serenity::Error> for BotError {
    fn from(e: serenity::Error) -> BotError {
        BotError::Internal(e.into())
    }
}

pub type Context<'a> = poise::Context<'a, Data, BotError>;

async fn on_error(err: poise::FrameworkError<'_, Data, BotError>) {
    match err {
        // A refusal by the command, or by the check of its options before it ran.
        poise::FrameworkError::Command { error, ctx, .. }
        | poise::FrameworkError::CommandCheckFailed {
            error: Some(error),
            ctx,
            ..
        } => {
            let lang = ctx.locale().map(Lang::of).unwrap_or_default();
            let text = match &error {
                BotError::Refused(r) => r.0.render(lang),
                e @ BotError::Internal(_) => {
                    error!(command = %ctx.command().name, "internal error: {e:#}");
                    crate::i18n::tr(lang, e.apology_id())
                }
            };
            reply_privately(ctx, text).await;
            answered(ctx).await;
        }
        poise::FrameworkError::ArgumentParse {
            error, input, ctx, ..
        } => {
            info!(command = %ctx.command().qualified_name, "an option could not be read: {error}");
            let lang = ctx.locale().map(Lang::of).unwrap_or_default();
            let command = commands::checked::command_path(ctx, lang);
            let option = input
                .as_deref()
                .and_then(|i| commands::checked::option_of_input(ctx, i, lang));
            let text = match option {
                Some(option) => {
                    crate::text!("option-unreadable", option = option, command = command)
                }
                None => crate::text!("option-unreadable-unnamed", command = command),
            };
            reply_privately(ctx, text.render(lang)).await;
            answered(ctx).await;
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
                let lang = ctx.locale().map(Lang::of).unwrap_or_default();
                reply_privately(ctx, crate::i18n::tr(lang, "apology")).await;
                answered(ctx).await;
            }
        }
    }
}

/// When a slash command was received: set by the first check, before anything else runs.
struct Received(std::time::Instant);

/// Counts the command of `ctx` answered, with the time since it was received ([`METRICS`]).
async fn answered(ctx: Context<'_>) {
    let took = ctx
        .invocation_data::<Received>()
        .await
        .map(|r| r.0.elapsed());
    if let Some(took) = took {
        METRICS.answered(Interaction::Command, took);
    }
}

/// Notes when the command of `ctx` was received, then runs the commands' checks.
async fn receive_command(ctx: Context<'_>) -> Result<bool, BotError> {
    ctx.set_invocation_data(Received(std::time::Instant::now()))
        .await;
    commands::checked::check(ctx).await
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
        let received = std::time::Instant::now();
        components::handle(framework.serenity_context, framework.user_data, press).await;
        METRICS.answered(Interaction::Component, received.elapsed());
    }
    // Whether this shard is connected, for `/healthz` and `/metrics`.
    let shard = framework.serenity_context.shard_id.0;
    match event {
        serenity::FullEvent::Ready { .. } | serenity::FullEvent::Resume { .. } => {
            METRICS.shard_connected(shard, true);
        }
        serenity::FullEvent::ShardStageUpdate { event } => METRICS.shard_connected(
            event.shard_id.0,
            event.new == serenity::ConnectionStage::Connected,
        ),
        _ => {}
    }
    // The bot removed from a server (not a server unavailable for a while): its settings go
    // after a grace period (the timers' scan), unless the bot is added back (any GUILD_CREATE,
    // also those at each start, cancels it).
    if let serenity::FullEvent::GuildDelete { incomplete, .. } = event {
        if !incomplete.unavailable {
            let core = &framework.user_data.core;
            let guild = crate::db::GuildId::from(incomplete.id);
            match crate::db::note_bot_left(&core.pool, guild, core.clock.now()).await {
                Ok(()) => info!(%guild, "removed from a server: its settings go in 30 days"),
                Err(e) => warn!(%guild, "cannot record leaving a server: {e}"),
            }
        }
    }
    if let serenity::FullEvent::GuildCreate { guild, .. } = event {
        let core = &framework.user_data.core;
        let id = crate::db::GuildId::from(guild.id);
        match crate::db::note_bot_joined(&core.pool, id).await {
            Ok(true) => info!(guild = %id, "added back to a server: its settings stay"),
            Ok(false) => {}
            Err(e) => warn!(guild = %id, "cannot record joining a server: {e}"),
        }
        // Its name, shown beside its seeks and challenges in the web board's lobby.
        if let Err(e) =
            crate::db::note_server_name(&core.pool, id, &guild.name, core.clock.now()).await
        {
            warn!(guild = %id, "cannot record a server's name: {e}");
        }
    }
    if let serenity::FullEvent::GuildMemberRemoval { guild_id, user, .. } = event {
        let core = &framework.user_data.core;
        let (guild, member) = (
            crate::db::GuildId::from(*guild_id),
            crate::db::UserId::from(user.id),
        );
        if let Err(e) = crate::db::forget_server_member(&core.pool, guild, member).await {
            warn!(%guild, %member, "cannot forget a member who left: {e}");
        }
        let withdrawn = crate::play::actions::member_left(
            core,
            crate::db::GuildId::from(*guild_id),
            crate::db::UserId::from(user.id),
        )
        .await;
        if withdrawn > 0 {
            info!(guild = %guild_id, user = %user.id, withdrawn, "a member who left is withdrawn");
        }
    }
    Ok(())
}

/// The commands as Discord's API takes them: `default_member_permissions` (which hides `/abort`
/// from members without Manage Server) as the integer the API's request schema names, where the
/// serenity builder writes the number as a string.
pub(crate) fn command_list<U, E>(
    commands: &[poise::Command<U, E>],
) -> anyhow::Result<serde_json::Value> {
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

/// The Activity's Entry Point command (`/launch` in the App Launcher): Discord launches the game
/// page itself (handler 2), which then opens the channel's game or the member's. Registered
/// globally when Activities are on: Discord refuses a global registration of an app with
/// Activities that leaves its Entry Point command out, and takes Entry Point commands in no
/// server's registration.
fn entry_point() -> serde_json::Value {
    let ja = crate::i18n::Lang::of("ja");
    let en = crate::i18n::Lang::EN;
    let attr = |lang, name| {
        crate::i18n::catalog()
            .get_exact(lang, "entry-point", Some(name))
            .unwrap_or_default()
    };
    serde_json::json!({
        "name": attr(en, "name"),
        "name_localizations": {"ja": attr(ja, "name")},
        "description": crate::i18n::tr(en, "entry-point"),
        "description_localizations": {"ja": crate::i18n::tr(ja, "entry-point")},
        "type": 4,
        "handler": 2,
    })
}

/// What is registered where: the development server's list (when there is one) and the global
/// list (when there is one to send).
#[derive(Debug, PartialEq)]
struct Registrations {
    guild: Option<(u64, serde_json::Value)>,
    global: Option<serde_json::Value>,
}

/// The slash commands `list` go to the development server, or else globally. The Activity's
/// Entry Point command, when `activity` is on, always goes globally: with a development server,
/// the global list is it alone.
fn registrations(list: serde_json::Value, dev_guild: Option<u64>, activity: bool) -> Registrations {
    let entry = activity.then(entry_point);
    match dev_guild {
        Some(g) => Registrations {
            guild: Some((g, list)),
            global: entry.map(|e| serde_json::Value::Array(vec![e])),
        },
        None => {
            let mut list = list;
            if let (Some(e), Some(all)) = (entry, list.as_array_mut()) {
                all.push(e);
            }
            Registrations {
                guild: None,
                global: Some(list),
            }
        }
    }
}

/// Registers the slash commands in the development server, or globally, and the Activity's
/// Entry Point command globally when `activity` is on.
async fn register<U, E>(
    http: &serenity::Http,
    commands: &[poise::Command<U, E>],
    dev_guild: Option<u64>,
    activity: bool,
) -> anyhow::Result<()> {
    let to = registrations(command_list(commands)?, dev_guild, activity);
    if let Some((g, list)) = &to.guild {
        http.create_guild_commands(serenity::GuildId::new(*g), list)
            .await?;
    }
    if let Some(list) = &to.global {
        http.create_global_commands(list).await?;
    }
    Ok(())
}

/// Stores who is to move in active games stored before that was kept with them (a replay each,
/// once). A game that does not replay is reported and left alone.
async fn backfill_turns(pool: &crate::db::Pool) -> Result<(), DbError> {
    for id in crate::db::games_without_turn(pool).await? {
        match actions::load(pool, id).await {
            Ok((row, game)) => {
                let to_move = access::player_to_move(&row, &game);
                crate::db::set_to_move(pool, id, row.version, to_move).await?;
            }
            Err(e) => crate::db::report_bad_row("games", id, &format!("{e:?}")),
        }
    }
    Ok(())
}

/// The bot: opens the database (running the migrations), registers the commands, connects, and
/// runs until the connection ends. The delivery and timer tasks run beside it.
pub async fn run(config: Config) -> anyhow::Result<()> {
    // A write past a file size limit fails like one to a full disk: as an I/O error the bot
    // survives (the write is refused, and retried later), not as SIGXFSZ ending the process.
    #[cfg(unix)]
    let _file_size_signal =
        tokio::signal::unix::signal(tokio::signal::unix::SignalKind::from_raw(25))?;
    // Every language's texts parse before anything is registered or posted: a broken file stops
    // the bot here instead of showing message ids to members.
    crate::i18n::load().map_err(|e| anyhow::anyhow!("the locale files: {e}"))?;
    let pool = crate::db::connect(&config.database_url).await?;
    info!(database = %crate::db::redact_url(&config.database_url), "database ready");
    let rated = crate::db::apply_pending(&mut *pool.acquire().await?).await?;
    if rated > 0 {
        info!(
            games = rated,
            "results of earlier games applied to the ratings"
        );
    }
    backfill_turns(&pool).await?;

    let clock = match &config.clock_file {
        Some(path) => {
            info!(file = %path.display(), "the clock is read from a file (tests only)");
            Clock::File(path.clone())
        }
        None => Clock::System,
    };
    let core = Core::new(pool.clone(), clock);
    // The starter puzzles: new positions added, stored ones (and their ratings) kept.
    let now = core.clock.now();
    match crate::play::puzzles::import_starter(&mut *pool.acquire().await?, now).await {
        Ok(0) => {}
        Ok(added) => info!(puzzles = added, "starter puzzles added"),
        Err(e) => error!("the starter puzzles could not be imported: {e}"),
    }
    core.changes.listen(&config.database_url);
    let web_opponent: Arc<OnceLock<opponent::Opponent>> = Arc::new(OnceLock::new());
    // The application's id, for the Activity's sign-in and the front page's invitation: Discord
    // says it when the bot connects.
    let app_id: Arc<OnceLock<u64>> = Arc::new(OnceLock::new());
    let activity = match (&config.client_secret, config.web_addr) {
        (Some(secret), Some(_)) => Some(crate::web::activity::Activity::new(
            secret.clone(),
            config.api_base.as_deref(),
            app_id.clone(),
            config.public_key,
        )?),
        _ => None,
    };
    let activity_set = activity.is_some();
    let web_url = match listen_web(config.web_addr, config.web_addr_is_default).await? {
        Listening::Off => None,
        Listening::Elsewhere(addr) => config.page_url(addr),
        Listening::Here(listener) => {
            let bound = listener.local_addr()?;
            let url = config.page_url(bound);
            match &url {
                Some(url) => info!(listen = %bound, url = %url, "web board ready"),
                None => info!(
                    listen = %bound,
                    "web board ready, but only on this machine: members get no links to it \
                     until PUBLIC_URL says where they open it (README, \"The web board\")"
                ),
            }
            let web = crate::web::Web::with_activity(
                core.clone(),
                web_opponent.clone(),
                activity,
                app_id.clone(),
            );
            if let Some(token) = &config.metrics_token {
                let _ = web.metrics_token.set(token.expose().to_string());
            }
            tokio::spawn(async move {
                if let Err(e) = crate::web::serve(listener, web).await {
                    error!("the web board stopped: {e}");
                }
            });
            url
        }
    };
    // The Activity is offered (its Entry Point command, its Play in Discord button) only where
    // the page is: with no address members can open, neither is.
    let activity_on = activity_set && web_url.is_some();
    let me: Arc<OnceLock<crate::db::UserId>> = Arc::new(OnceLock::new());
    let data_core = core.clone();
    let data_me = me.clone();
    let data_web_url = web_url.clone();
    let seals = seal::Sealer::new(config.token()?.expose());
    let dev_guild = config.dev_guild_id;
    let shards = config.shards;
    METRICS.expect_shards(shards.last + 1 - shards.first);
    let timer_interval = config.timer_interval;
    let pacer = rest::Pacer::for_shards(shards.last + 1 - shards.first, shards.count);
    let data_pacer = pacer.clone();
    let options = poise::FrameworkOptions {
        commands: commands::all(),
        on_error: |err| Box::pin(on_error(err)),
        command_check: Some(|ctx| Box::pin(receive_command(ctx))),
        post_command: |ctx| Box::pin(answered(ctx)),
        event_handler: |framework, event| Box::pin(event_handler(framework, event)),
        ..Default::default()
    };
    let framework = poise::Framework::builder()
        .options(options)
        .initialize_owners(false)
        .setup(move |ctx, ready, framework| {
            Box::pin(async move {
                // One registration for all processes: by the one running shard 0.
                if shards.runs_first() {
                    register(
                        &ctx.http,
                        &framework.options().commands,
                        dev_guild,
                        activity_on,
                    )
                    .await?;
                    info!(user = %ready.user.name, %shards, "connected; commands registered");
                } else {
                    info!(
                        user = %ready.user.name,
                        %shards,
                        "connected; the commands are registered by the process running shard 0"
                    );
                }
                let _ = data_me.set(ready.user.id.into());
                let _ = app_id.set(ready.application.id.get());
                let opponent = opponent::Opponent::new(
                    data_core.clone(),
                    ready.user.id.into(),
                    &ready.user.name,
                );
                // Its first look, at once, takes up the turns that came while the bot was down.
                tokio::spawn(opponent.clone().watch(timer_interval));
                let _ = web_opponent.set(opponent.clone());
                Ok(Data {
                    core: data_core,
                    opponent,
                    seals,
                    web_url: data_web_url,
                    activity: activity_on,
                    pacer: data_pacer,
                })
            })
        })
        .build();

    let mut intents = serenity::GatewayIntents::GUILDS;
    if config.members_intent {
        // Privileged: members leaving a server (they are withdrawn from its tournaments).
        intents |= serenity::GatewayIntents::GUILD_MEMBERS;
    }
    let mut client = serenity::ClientBuilder::new_with_http(rest::client(&config)?, intents)
        .framework(framework)
        .event_handler(rest::RateLimitWatch {
            pacer: pacer.clone(),
        })
        .await?;
    let delivery = delivery::Delivery {
        pool: crate::db::connect_side(&config.database_url, delivery::CONNECTIONS).await?,
        http: client.http.clone(),
        queued: core.queued.clone(),
        me,
        web_url,
        activity: activity_on,
        pacer: pacer.clone(),
        held: Default::default(),
    };
    let timer_task = timers::run(core, config.timer_interval);
    let gateway = async {
        if shards.runs_all() {
            client.start_shards(shards.count).await
        } else {
            // serenity's range is first..last with `last` included.
            client
                .start_shard_range(shards.first..shards.last, shards.count)
                .await
        }
    };
    tokio::select! {
        r = gateway => r?,
        () = timer_task => {}
        () = delivery.run() => {}
    }
    Ok(())
}

/// Where this process's web board stands after [`listen_web`].
enum Listening {
    /// `WEB_ADDR=off`.
    Off,
    /// Listening at this address.
    Here(tokio::net::TcpListener),
    /// The default address is taken (most likely by another hexcord process on this machine, a
    /// second shard or the process this one replaces): that process serves every game's page,
    /// since pages are read from the shared database.
    Elsewhere(std::net::SocketAddr),
}

/// Listens for the web board. An address the operator chose that cannot be had stops hexcord
/// with one line saying why; the default address already in use leaves this process without the
/// page, said once in the log.
async fn listen_web(
    addr: Option<std::net::SocketAddr>,
    is_default: bool,
) -> anyhow::Result<Listening> {
    let Some(addr) = addr else {
        return Ok(Listening::Off);
    };
    match tokio::net::TcpListener::bind(addr).await {
        Ok(listener) => Ok(Listening::Here(listener)),
        Err(e) if is_default && e.kind() == std::io::ErrorKind::AddrInUse => {
            warn!(
                addr = %addr,
                "the web board's default address is in use (another hexcord process?): this process runs without it; set WEB_ADDR to give it its own"
            );
            Ok(Listening::Elsewhere(addr))
        }
        Err(e) => Err(anyhow::anyhow!(
            "WEB_ADDR={addr}: cannot listen there ({e}); choose another address and port, or `WEB_ADDR=off`"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn types(list: &serde_json::Value) -> Vec<u64> {
        list.as_array()
            .into_iter()
            .flatten()
            .map(|c| c["type"].as_u64().unwrap_or(1))
            .collect()
    }

    /// The Entry Point command (type 4) is registered globally, never in a server: with a
    /// development server, the slash commands go there and the Entry Point alone globally.
    #[test]
    fn the_entry_point_is_registered_globally_only() {
        let list = command_list(&commands::all()).expect("the commands as JSON");
        let n = types(&list).len();
        assert!(n >= 8 && types(&list).iter().all(|&t| t == 1), "{list}");

        let dev = registrations(list.clone(), Some(5), true);
        let (guild, in_guild) = dev.guild.expect("the server's list");
        assert_eq!((guild, types(&in_guild).len()), (5, n));
        assert!(!types(&in_guild).contains(&4), "{in_guild}");
        let global = dev.global.expect("the global list");
        assert_eq!(types(&global), vec![4]);
        assert_eq!(global[0]["name"], "launch");

        let everywhere = registrations(list.clone(), None, true);
        assert_eq!(everywhere.guild, None);
        let global = everywhere.global.expect("the global list");
        assert_eq!(types(&global).iter().filter(|&&t| t == 4).count(), 1);
        assert_eq!(types(&global).len(), n + 1);

        // Without Activities, nothing global is touched while a development server is set.
        let plain = registrations(list.clone(), Some(5), false);
        assert_eq!(plain.global, None);
        assert_eq!(registrations(list.clone(), None, false).global, Some(list));
    }

    /// A second process on the machine finds the default address taken and runs without the
    /// page; an address the operator chose that is taken stops hexcord with a clear line.
    #[tokio::test]
    async fn a_taken_default_web_address_is_left_to_the_other_process() {
        let first = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let taken = first.local_addr().unwrap();
        match listen_web(Some(taken), true).await {
            Ok(Listening::Elsewhere(at)) => assert_eq!(at, taken),
            _ => panic!("the default address in use must leave the page to the other process"),
        }
        let Err(e) = listen_web(Some(taken), false).await else {
            panic!("a chosen address in use must stop hexcord");
        };
        let said = e.to_string();
        assert!(
            said.starts_with(&format!("WEB_ADDR={taken}: cannot listen there")),
            "{said}"
        );
        drop(first);
        assert!(matches!(
            listen_web(Some(taken), true).await,
            Ok(Listening::Here(_))
        ));
        assert!(matches!(listen_web(None, true).await, Ok(Listening::Off)));
    }
}
