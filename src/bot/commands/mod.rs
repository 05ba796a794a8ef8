//! The slash commands, one module per group. [`all`] is the one list of them: registration,
//! `/help` and the README check read it. Their names, descriptions and choices in every language
//! come from `assets/locales/<language>/commands.ftl` (`localise`). How to add a command: see
//! [the crate's front page](crate).

mod analysis;
mod board;
mod challenge;
pub(crate) mod checked;
pub(crate) mod learn;
pub(crate) mod localise;
mod moderation;
mod play;
mod privacy;
pub(crate) mod puzzle;
mod ratings;
mod seek;
mod settings;
mod tournament;

use crate::db::{ChannelId, GuildId, UserId};
use poise::serenity_prelude as serenity;

use super::{limits, BotError, Context, Data};
use crate::ai::Level;
use crate::db::{self, GameRow, GameStatus};
use crate::games::{Game, GameKind};
use crate::i18n::{tr, Lang};
use crate::play::access::{choose_game, parse_game_ref, suggest_moves};
use crate::play::actions;
use crate::text;

/// Every command, in the order `/help` lists them, with its texts in every language and the
/// places Discord offers it ([`Reach`]).
pub fn all() -> Vec<poise::Command<Data, BotError>> {
    let mut commands = declared();
    localise::localise(&mut commands);
    for c in &mut commands {
        reach(&c.name).apply(c);
    }
    commands
}

/// The commands as the code declares them (descriptions from their doc comments).
fn declared() -> Vec<poise::Command<Data, BotError>> {
    vec![
        challenge::challenge(),
        seek::seek(),
        seek::block(),
        challenge::play(),
        play::move_(),
        board::board(),
        play::resign(),
        play::takeback(),
        play::call_off(),
        play::pause(),
        play::resume(),
        board::follow(),
        board::note(),
        board::games(),
        board::turn(),
        ratings::leaderboard(),
        ratings::profile(),
        board::record(),
        board::replay(),
        analysis::analysis(),
        puzzle::puzzle(),
        settings::settings(),
        settings::vacation(),
        privacy::privacy(),
        board::rules(),
        learn::learn(),
        board::help(),
        tournament::tournament(),
        moderation::abort(),
        moderation::server(),
        moderation::daily_puzzle(),
        moderation::seeks(),
    ]
}

/// Where Discord offers a command.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Reach {
    /// In servers that invited the bot, and (installed to a member's account) in direct messages
    /// and group chats: the commands of play between two members.
    Anywhere,
    /// Only in servers that invited the bot: server settings, tournaments, moderation, what
    /// lives in a server's channels (threads to follow, a server's table).
    Servers,
}

/// The commands offered outside servers too ([`Reach::Anywhere`]), by their names in the code.
const ANYWHERE: &[&str] = &[
    "challenge",
    "play",
    "move",
    "board",
    "resign",
    "takeback",
    "calloff",
    "pause",
    "resume",
    "games",
    "turn",
    "profile",
    "record",
    "replay",
    "puzzle",
    "settings",
    "vacation",
    "privacy",
    "note",
    "rules",
    "learn",
    "help",
    "block",
];

/// Where command `name` (its name in the code) is offered.
pub fn reach(name: &str) -> Reach {
    match ANYWHERE.contains(&name) {
        true => Reach::Anywhere,
        false => Reach::Servers,
    }
}

impl Reach {
    /// Sets the command's `integration_types` (installed to a server, to a member) and
    /// `contexts` (a server, the bot's direct messages, other direct and group chats).
    fn apply(self, command: &mut poise::Command<Data, BotError>) {
        use serenity::{InstallationContext as Install, InteractionContext as Used};
        let (install, used) = match self {
            Reach::Anywhere => (
                vec![Install::Guild, Install::User],
                vec![Used::Guild, Used::BotDm, Used::PrivateChannel],
            ),
            Reach::Servers => (vec![Install::Guild], vec![Used::Guild]),
        };
        command.install_context = Some(install);
        command.interaction_context = Some(used);
    }
}

/// Which game (a choice in Discord): the registry's games, by their titles, in its order.
#[derive(Clone, Copy, Debug)]
pub struct GameChoice(pub GameKind);

impl poise::ChoiceParameter for GameChoice {
    fn list() -> std::borrow::Cow<'static, [poise::CommandParameterChoice]> {
        GameKind::ALL
            .iter()
            .map(|k| poise::CommandParameterChoice {
                __non_exhaustive: (),
                name: k.title().into(),
                localizations: std::borrow::Cow::Borrowed(&[]),
            })
            .collect()
    }

    fn from_index(index: usize) -> Option<GameChoice> {
        GameKind::ALL.get(index).copied().map(GameChoice)
    }

    fn from_name(name: &str) -> Option<GameChoice> {
        GameKind::ALL
            .into_iter()
            .find(|k| k.title().eq_ignore_ascii_case(name))
            .map(GameChoice)
    }

    fn name(&self) -> &'static str {
        self.0.title()
    }

    fn localized_name(&self, _locale: &str) -> Option<&'static str> {
        None
    }
}

impl From<GameChoice> for GameKind {
    fn from(c: GameChoice) -> GameKind {
        c.0
    }
}

/// EXXIT's length (X6).
#[derive(Clone, Copy, Debug, poise::ChoiceParameter)]
pub enum TilesChoice {
    #[name = "39 (standard)"]
    Standard,
    #[name = "29 (blitz)"]
    Blitz,
    #[name = "19 (beginner)"]
    Beginner,
}

impl TilesChoice {
    fn count(self) -> i64 {
        match self {
            TilesChoice::Standard => 39,
            TilesChoice::Blitz => 29,
            TilesChoice::Beginner => 19,
        }
    }
}

/// The bot's strength in `/play` (a choice in Discord): [`Level::ALL`], weakest first, named
/// by `choice-level-<n>` ([`crate::play::words::level`]).
#[derive(Clone, Copy, Debug)]
pub struct LevelChoice(pub Level);

impl poise::ChoiceParameter for LevelChoice {
    fn list() -> std::borrow::Cow<'static, [poise::CommandParameterChoice]> {
        Level::ALL
            .iter()
            .map(|l| poise::CommandParameterChoice {
                __non_exhaustive: (),
                name: l.name().into(),
                localizations: std::borrow::Cow::Borrowed(&[]),
            })
            .collect()
    }

    fn from_index(index: usize) -> Option<LevelChoice> {
        Level::ALL.get(index).copied().map(LevelChoice)
    }

    fn from_name(name: &str) -> Option<LevelChoice> {
        name.parse().ok().map(LevelChoice)
    }

    fn name(&self) -> &'static str {
        self.0.name()
    }

    fn localized_name(&self, _locale: &str) -> Option<&'static str> {
        None
    }
}

impl From<LevelChoice> for Level {
    fn from(c: LevelChoice) -> Level {
        c.0
    }
}

/// The time per move (chosen at the challenge).
#[derive(Clone, Copy, Debug, poise::ChoiceParameter)]
pub enum DaysChoice {
    #[name = "1 day"]
    One,
    #[name = "3 days (default)"]
    Three,
    #[name = "7 days"]
    Seven,
    #[name = "14 days"]
    Fourteen,
}

impl DaysChoice {
    fn days(self) -> i64 {
        match self {
            DaysChoice::One => 1,
            DaysChoice::Three => 3,
            DaysChoice::Seven => 7,
            DaysChoice::Fourteen => 14,
        }
    }
}

/// How a game's time is kept (chosen at the challenge or the tournament): days per move, or one
/// of the Fischer presets ([`crate::time_control::PRESETS`], in order).
#[derive(Clone, Copy, Debug, poise::ChoiceParameter)]
pub enum ClockChoice {
    #[name = "days per move (default)"]
    PerMove,
    #[name = "Fischer: 1 day + 1 a move, at most 3"]
    Fischer1,
    #[name = "Fischer: 3 days + 1 a move, at most 7"]
    Fischer3,
    #[name = "Fischer: 7 days + 2 a move, at most 14"]
    Fischer7,
}

impl ClockChoice {
    /// The preset chosen (`None`: days per move).
    fn control(self) -> Option<crate::time_control::TimeControl> {
        let preset = |i: usize| crate::time_control::PRESETS.get(i).map(|p| p.control);
        match self {
            ClockChoice::PerMove => None,
            ClockChoice::Fischer1 => preset(0),
            ClockChoice::Fischer3 => preset(1),
            ClockChoice::Fischer7 => preset(2),
        }
    }
}

/// How often a member hears of games waiting for them (a choice in Discord).
#[derive(Clone, Copy, Debug, PartialEq, Eq, poise::ChoiceParameter)]
pub enum NotificationsChoice {
    #[name = "a notice for each move"]
    PerMove,
    #[name = "one daily digest (at digest_hour)"]
    Digest,
    #[name = "none"]
    None,
}

/// How a player hears that it is their turn (a choice in Discord).
#[derive(Clone, Copy, Debug, poise::ChoiceParameter)]
pub enum NotifyChoice {
    #[name = "mention me in the game's channel"]
    Channel,
    #[name = "send me a direct message with the board"]
    Dm,
    #[name = "both"]
    Both,
}

impl From<NotifyChoice> for db::NotifyMode {
    fn from(c: NotifyChoice) -> db::NotifyMode {
        match c {
            NotifyChoice::Channel => db::NotifyMode::Channel,
            NotifyChoice::Dm => db::NotifyMode::Dm,
            NotifyChoice::Both => db::NotifyMode::Both,
        }
    }
}

/// A setting on or off (a choice in Discord).
#[derive(Clone, Copy, Debug, PartialEq, Eq, poise::ChoiceParameter)]
pub enum OnOff {
    #[name = "on"]
    On,
    #[name = "off"]
    Off,
}

/// The colours of a server's pictures (a choice in Discord).
#[derive(Clone, Copy, Debug, PartialEq, Eq, poise::ChoiceParameter)]
pub enum ThemeChoice {
    #[name = "dark"]
    Dark,
    #[name = "light"]
    Light,
}

impl From<ThemeChoice> for crate::render::Theme {
    fn from(c: ThemeChoice) -> crate::render::Theme {
        match c {
            ThemeChoice::Dark => crate::render::Theme::Dark,
            ThemeChoice::Light => crate::render::Theme::Light,
        }
    }
}

/// The server a game or challenge started here belongs to: the interaction's, when hexcord is
/// installed there (its bot is a member). In a chat, or in a server the command reached only
/// through the member's own installation (where the bot may not post either), none: the game
/// is played as in a chat ([`crate::play::chats`]).
pub(super) fn game_server(ctx: &Context<'_>) -> Option<GuildId> {
    let guild = ctx.guild_id()?;
    let poise::Context::Application(actx) = ctx else {
        return Some(GuildId::from(guild));
    };
    server_of(
        Some(guild),
        &actx.interaction.authorizing_integration_owners,
    )
}

/// [`game_server`] of any interaction: its server `guild`, when `owners` (the installations it
/// came through) include the server's own.
pub(crate) fn server_of(
    guild: Option<serenity::GuildId>,
    owners: &serenity::AuthorizingIntegrationOwners,
) -> Option<GuildId> {
    let guild = guild?;
    let installed = owners.0.is_empty()
        || owners.0.iter().any(|o| {
            matches!(o, serenity::AuthorizingIntegrationOwner::GuildInstall(Some(g)) if *g == guild)
        });
    installed.then(|| GuildId::from(guild))
}

/// The caller's language (for answers only they see).
pub(super) fn lang(ctx: &Context<'_>) -> Lang {
    ctx.locale().map(Lang::of).unwrap_or_default()
}

/// The server's language (for public messages); outside servers, the caller's.
pub(super) async fn public_lang(ctx: &Context<'_>) -> Result<Lang, BotError> {
    match ctx.guild_id() {
        Some(g) => {
            Ok(crate::play::server_lang(&ctx.data().core.pool, Some(GuildId::from(g))).await?)
        }
        None => Ok(lang(ctx)),
    }
}

/// The author's permissions in the channel, as Discord sends them with each command (none
/// outside a server).
pub(super) fn author_permissions(ctx: &Context<'_>) -> Option<serenity::Permissions> {
    match ctx {
        poise::Context::Application(actx) => {
            actx.interaction.member.as_ref().and_then(|m| m.permissions)
        }
        poise::Context::Prefix(_) => None,
    }
}

pub(super) fn author_name(ctx: &Context<'_>) -> String {
    ctx.author().display_name().to_string()
}

pub(super) async fn remember_author(ctx: &Context<'_>) -> Result<UserId, BotError> {
    let id = UserId::from(ctx.author().id);
    let core = &ctx.data().core;
    db::upsert_player(&core.pool, id, &author_name(ctx), core.clock.now()).await?;
    if let poise::Context::Application(actx) = ctx {
        let i = actx.interaction;
        if crate::bot::chats::may_be_reached(
            ctx.author().id,
            i.context,
            &i.authorizing_integration_owners,
        ) {
            db::note_reachable(&core.pool, id).await?;
        }
        crate::play::note_locales(
            &core.pool,
            id,
            ctx.guild_id().map(GuildId::from),
            &i.locale,
            i.guild_locale.as_deref(),
            core.clock.now(),
        )
        .await?;
    }
    Ok(id)
}

/// Answers the caller privately (in their language: see [`lang`]), pinging nobody.
pub(super) async fn answer_privately(ctx: &Context<'_>, text: String) -> Result<(), BotError> {
    answer_privately_with(ctx, text, None).await
}

/// [`answer_privately`], with a row of buttons under the text when there is one. A text longer
/// than a message may be (a long tree of conditional moves, a long list) is cut to fit
/// ([`limits::fit`]) rather than refused whole by Discord.
pub(super) async fn answer_privately_with(
    ctx: &Context<'_>,
    text: String,
    buttons: Option<serenity::CreateActionRow>,
) -> Result<(), BotError> {
    let mut reply = poise::CreateReply::default()
        .content(limits::fit(&text, limits::CONTENT))
        .ephemeral(true)
        .allowed_mentions(serenity::CreateAllowedMentions::new());
    if let Some(row) = buttons {
        reply = reply.components(vec![row]);
    }
    ctx.send(reply).await?;
    Ok(())
}

/// The game a command means: the one named (checked to be in this channel), or the caller's
/// only (or only waiting) game here. Whose turn it is comes from the stored rows: no game is
/// replayed to choose.
/// New games start in a channel, not inside another game's thread.
pub(super) async fn not_in_a_game_thread(ctx: &Context<'_>) -> Result<(), BotError> {
    not_a_game_thread(&ctx.data().core.pool, ChannelId::from(ctx.channel_id())).await
}

/// Refuses `channel` when it is a game's thread (where only that game is played).
pub(crate) async fn not_a_game_thread(pool: &db::Pool, channel: ChannelId) -> Result<(), BotError> {
    match db::game_of_thread(pool, channel).await? {
        None => Ok(()),
        Some(id) => {
            let (row, _) = actions::load(pool, id).await?;
            Err(crate::play::Refusal::new(text!(
                "answer-thread-of-game",
                game = id,
                channel = row.channel_id.to_string()
            ))
            .into())
        }
    }
}

pub(super) async fn pick_game(
    ctx: &Context<'_>,
    user: UserId,
    requested: Option<&str>,
    prefer_my_turn: bool,
) -> Result<(GameRow, Game), BotError> {
    let channel = ChannelId::from(ctx.channel_id());
    let pool = &ctx.data().core.pool;
    if let Some(text) = requested {
        let id = parse_game_ref(text)?;
        let (row, game) = actions::load(pool, id).await?;
        let guild = ctx.guild_id().map(GuildId::from);
        // A game named can be played from any channel of its server.
        if row.channel_id != channel
            && row.thread_id != Some(channel)
            && (guild.is_none() || row.guild_id != guild)
        {
            return Err(crate::play::Refusal::new(text!(
                "answer-game-elsewhere",
                game = id,
                channel = row.place().to_string()
            ))
            .into());
        }
        return Ok((row, game));
    }
    // In a game's thread, the game is the thread's.
    if let Some(id) = db::game_of_thread(pool, channel).await? {
        return actions::load(pool, id).await;
    }
    let rows = db::active_games_in_channel(pool, channel, user).await?;
    let my_turn = |r: &GameRow| prefer_my_turn && r.to_move == Some(user);
    let id = choose_game(&rows, None, &my_turn)?.id;
    actions::load(pool, id).await
}

fn option_str<'a>(ctx: &'a Context<'_>, name: &str) -> Option<&'a str> {
    let poise::Context::Application(actx) = ctx else {
        return None;
    };
    actx.interaction.data.options.iter().find_map(|o| {
        if o.name != name {
            return None;
        }
        match &o.value {
            serenity::CommandDataOptionValue::String(s) => Some(s.as_str()),
            serenity::CommandDataOptionValue::Autocomplete { value, .. } => Some(value.as_str()),
            _ => None,
        }
    })
}

/// An autocomplete suggestion: `label` is what the member reads (in words: Discord shows a
/// mention there as its digits), fitted to Discord's limit on it.
pub(super) fn suggestion(
    label: &str,
    value: impl Into<serde_json::Value>,
) -> serenity::AutocompleteChoice {
    serenity::AutocompleteChoice::new(limits::fit(label, limits::CHOICE_NAME), value)
}

/// An autocomplete answer of at most Discord's number of suggestions.
pub(super) fn suggestions(
    mut choices: Vec<serenity::AutocompleteChoice>,
) -> serenity::CreateAutocompleteResponse {
    choices.truncate(limits::CHOICES);
    serenity::CreateAutocompleteResponse::new().set_choices(choices)
}

/// Legal moves in words (the notation is what is sent) for the caller's games: the one in the
/// `game` option, or every game here where it is their turn, each then prefixed with its number.
/// A caller who is waiting gets one entry saying for whom.
pub(super) async fn autocomplete_move(
    ctx: Context<'_>,
    partial: &str,
) -> serenity::CreateAutocompleteResponse {
    let user = UserId::from(ctx.author().id);
    let lang = lang(&ctx);
    let requested = option_str(&ctx, "game").filter(|s| !s.trim().is_empty());
    let pool = &ctx.data().core.pool;
    let found = async {
        let rows = match requested {
            Some(text) => vec![pick_game(&ctx, user, Some(text), true).await?.0],
            None => db::active_games_in_channel(pool, ChannelId::from(ctx.channel_id()), user)
                .await?
                .into_iter()
                .filter(|r| r.status == GameStatus::Active)
                .collect(),
        };
        let mine: Vec<&GameRow> = rows.iter().filter(|r| r.to_move == Some(user)).collect();
        let Some(first) = mine.first() else {
            let Some(waiting) = rows.iter().find_map(|r| r.to_move.map(|p| (r.id, p))) else {
                return Ok::<_, BotError>(Vec::new());
            };
            let name = db::fetch_name(pool, waiting.1).await?;
            let name = crate::play::words::name_in(lang, name, || tr(lang, "answer-your-opponent"));
            return Ok(vec![suggestion(
                &text!("answer-suggest-waiting", game = waiting.0, name = name).render(lang),
                WAITING,
            )]);
        };
        let several = mine.len() > 1;
        let each = (limits::CHOICES / mine.len()).max(1);
        let mut choices = Vec::new();
        for row in if several { mine.clone() } else { vec![*first] } {
            let (_, game) = actions::load(pool, row.id).await?;
            let lang = crate::i18n::Lang::of(ctx.locale().unwrap_or_default());
            for s in suggest_moves(lang, &game, partial, each) {
                let (label, value) = if several {
                    (
                        format!("#{} · {}", row.id, s.words),
                        format!("#{} {}", row.id, s.notation),
                    )
                } else {
                    (s.words, s.notation)
                };
                choices.push(suggestion(&label, value));
            }
        }
        Ok(choices)
    }
    .await;
    let choices = match found {
        Ok(c) => c,
        Err(BotError::Refused(crate::play::Refusal(_))) => Vec::new(),
        Err(BotError::Internal(e)) => {
            tracing::error!("move suggestions failed: {e:#}");
            Vec::new()
        }
    };
    suggestions(choices)
}

/// The value of the suggestion a waiting player sees (never a move).
pub(super) const WAITING: &str = "-";

/// The caller's active games here, their move first marked.
pub(super) async fn autocomplete_game(
    ctx: Context<'_>,
    partial: &str,
) -> serenity::CreateAutocompleteResponse {
    let user = UserId::from(ctx.author().id);
    let lang = lang(&ctx);
    let typed = partial.trim().trim_start_matches('#').to_lowercase();
    let choices = match db::active_games_in_channel(
        &ctx.data().core.pool,
        ChannelId::from(ctx.channel_id()),
        user,
    )
    .await
    {
        Ok(rows) => rows
            .iter()
            .filter_map(|row| {
                let mine = if row.to_move == Some(user) {
                    "yes"
                } else {
                    "no"
                };
                let label = text!(
                    "answer-suggest-game",
                    game = row.id,
                    title = row.kind().title(),
                    move = row.version + 1,
                    mine = mine
                )
                .render(lang);
                label
                    .to_lowercase()
                    .contains(&typed)
                    .then(|| suggestion(&label, row.id.to_string()))
            })
            .take(limits::CHOICES)
            .collect(),
        Err(e) => {
            tracing::error!("game suggestions failed: {e}");
            Vec::new()
        }
    };
    suggestions(choices)
}

/// Suggestions for `/record`, `/replay` and `/analysis`: the caller's games here, then their
/// recently finished games in this server, each result in words: the caller as "you", the
/// other player by name.
pub(super) async fn autocomplete_finished(
    ctx: Context<'_>,
    partial: &str,
) -> serenity::CreateAutocompleteResponse {
    let user = UserId::from(ctx.author().id);
    let lang = lang(&ctx);
    let typed = partial.trim().trim_start_matches('#').to_lowercase();
    let pool = &ctx.data().core.pool;
    let mut rows = Vec::new();
    // The caller is a player of each game: the other player, unnamed, is their opponent.
    let opponent = tr(lang, "answer-your-opponent");
    let mut names = std::collections::HashMap::from([(user, tr(lang, "answer-suggest-you"))]);
    let found = async {
        rows.extend(
            db::active_games_in_channel(pool, ChannelId::from(ctx.channel_id()), user).await?,
        );
        if let Some(g) = ctx.guild_id() {
            rows.extend(db::recent_games_of(pool, g.into(), user, 20).await?);
        }
        for player in rows.iter().flat_map(|r| r.players) {
            if let std::collections::hash_map::Entry::Vacant(slot) = names.entry(player) {
                let name = db::fetch_name(pool, player).await?;
                slot.insert(crate::play::words::name_in(lang, name, || opponent.clone()));
            }
        }
        Ok::<(), db::DbError>(())
    }
    .await;
    if let Err(e) = found {
        tracing::error!("game suggestions failed: {e}");
    }
    let name = |player: UserId| names.get(&player).unwrap_or(&opponent).clone();
    let choices = rows
        .iter()
        .filter_map(|row| {
            let title = row.kind().title();
            let state = match row.status {
                GameStatus::Active => tr(lang, "answer-active"),
                _ => crate::play::words::row_result_naming(row, &name).render(lang),
            };
            let label = text!(
                "answer-suggest-finished",
                game = row.id,
                title = title,
                moves = row.version,
                state = state
            )
            .render(lang);
            label
                .to_lowercase()
                .contains(&typed)
                .then(|| suggestion(&label, row.id.to_string()))
        })
        .take(limits::CHOICES)
        .collect();
    suggestions(choices)
}

/// ` · 2 d 5 h left` for each active game with a clock in `rows` (what the player to move has
/// left of their bank: a weekend off or a pause takes nothing).
pub(super) async fn times_left(
    ctx: &Context<'_>,
    rows: &[GameRow],
    lang: Lang,
) -> Result<Vec<String>, BotError> {
    let now = ctx.data().core.clock.now();
    let mut conn = ctx.data().core.pool.acquire().await?;
    let mut shown = Vec::with_capacity(rows.len());
    for row in rows {
        shown.push(
            match crate::play::schedule::time_left_of(&mut conn, row, now).await? {
                Some(left) => {
                    let left = text!(
                        "answer-time-left",
                        left = crate::play::words::time_left(left)
                    );
                    format!(" · {}", left.render(lang))
                }
                None => String::new(),
            },
        );
    }
    Ok(shown)
}

/// The server a command is used in; commands about a server's games need one.
pub(super) fn server(ctx: &Context<'_>) -> Result<GuildId, BotError> {
    ctx.guild_id()
        .map(GuildId::from)
        .ok_or_else(|| crate::play::Refusal::new(text!("answer-server-only")).into())
}

/// A game of this server named by the user (active or finished).
pub(super) async fn game_in_server(
    ctx: &Context<'_>,
    text: &str,
) -> Result<(GameRow, Game), BotError> {
    let id = parse_game_ref(text)?;
    let (row, game) = actions::load(&ctx.data().core.pool, id).await?;
    if row.guild_id != ctx.guild_id().map(GuildId::from) {
        return Err(crate::play::Refusal::new(text!("answer-no-such-game", game = id)).into());
    }
    Ok((row, game))
}

/// A private message of pictures and buttons (a puzzle, a course's level): its words, button rows
/// and attachments, sent as the answer to a command or in place of the message a button is on.
pub(crate) struct PrivateView {
    pub text: String,
    pub rows: Vec<serenity::CreateActionRow>,
    pub files: Vec<serenity::CreateAttachment>,
}

impl PrivateView {
    /// The message in place of the one whose button was pressed.
    pub(crate) fn response(self) -> serenity::CreateInteractionResponseMessage {
        serenity::CreateInteractionResponseMessage::new()
            .content(self.text)
            .components(self.rows)
            .files(self.files)
            .allowed_mentions(serenity::CreateAllowedMentions::new())
    }

    /// Words alone, seen only by the member.
    pub(crate) fn words(text: String) -> PrivateView {
        PrivateView {
            text,
            rows: Vec::new(),
            files: Vec::new(),
        }
    }

    /// Puts the message in place of the one whose button `press` is.
    pub(crate) async fn update(
        self,
        ctx: &serenity::Context,
        press: &serenity::ComponentInteraction,
    ) -> Result<(), BotError> {
        let response = serenity::CreateInteractionResponse::UpdateMessage(self.response());
        press.create_response(ctx, response).await?;
        Ok(())
    }

    /// A message of its own answering `press`, seen only by the member.
    pub(crate) async fn answer(
        self,
        ctx: &serenity::Context,
        press: &serenity::ComponentInteraction,
    ) -> Result<(), BotError> {
        let response =
            serenity::CreateInteractionResponse::Message(self.response().ephemeral(true));
        press.create_response(ctx, response).await?;
        Ok(())
    }

    /// The answer to a command, seen only by the member.
    pub(crate) fn reply(self) -> poise::CreateReply {
        let mut reply = poise::CreateReply::default()
            .content(self.text)
            .components(self.rows)
            .ephemeral(true)
            .allowed_mentions(serenity::CreateAllowedMentions::new());
        for file in self.files {
            reply = reply.attachment(file);
        }
        reply
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A public web board's address, with the slash `PUBLIC_URL` may end with.
    const URL: &str = "https://hexcord.example.org/";

    /// One source for the command list: `/help` is built from it, and README names each.
    #[test]
    fn help_and_readme_list_every_command() {
        let commands = all();
        let help = board::help_text(&commands, Lang::EN);
        let readme = include_str!("../../../README.md");
        for c in &commands {
            assert!(
                help.contains(&format!("`/{}", c.name)),
                "/help lacks /{}",
                c.name
            );
            let desc = c.description.as_deref().unwrap_or("");
            assert!(!desc.is_empty() && help.contains(desc), "/{}", c.name);
            for lang in [Lang::EN, Lang::of("ja")] {
                let text = board::help_text(&commands, lang);
                assert!(
                    text.chars().count() <= crate::bot::limits::CONTENT,
                    "/help in {lang:?}: {} characters",
                    text.chars().count()
                );
            }
            assert!(
                readme.contains(&format!("`/{}", c.name)),
                "README's command list lacks /{}",
                c.name
            );
        }
        assert_eq!(help.lines().count(), commands.len() + 1);
        let ja = board::help_text(&commands, Lang::of("ja"));
        assert!(
            ja.contains("`/挑戦 ゲーム [相手] […]") && ja.contains("対局"),
            "{ja}"
        );
        assert_eq!(ja.lines().count(), commands.len() + 1);
    }

    /// With the web board public, `/help` has a button to each game's rules page there; without,
    /// none.
    #[test]
    fn help_links_the_rules_pages_when_the_web_board_is_public() {
        for lang in [Lang::EN, Lang::of("ja")] {
            assert!(board::help_buttons(lang, None).is_none());
            let row = board::help_buttons(lang, Some(URL)).unwrap();
            let row = serde_json::to_value(&row).unwrap();
            let buttons = row["components"].as_array().unwrap();
            assert_eq!(buttons.len(), 2, "{row}");
            for (button, kind) in buttons.iter().zip(crate::games::GameKind::ALL) {
                let url = format!("https://hexcord.example.org/rules/{}", kind.name());
                assert_eq!(button["url"], url.as_str(), "{row}");
                assert!(
                    button["label"].as_str().unwrap().contains(kind.title()),
                    "{row}"
                );
            }
        }
    }

    /// The commands of play between two members are offered everywhere, installed to a server
    /// or to a member, in a server, the bot's direct messages and group chats; server settings,
    /// tournaments and moderation only in servers. Every name in [`ANYWHERE`] is a command.
    #[test]
    fn commands_of_play_reach_direct_messages_and_the_others_stay_in_servers() {
        let commands = all();
        for name in ANYWHERE {
            assert!(
                commands.iter().any(|c| c.name == *name),
                "/{name} is no command"
            );
        }
        let list = crate::bot::command_list(&commands).expect("the commands as JSON");
        let places = |name: &str| {
            let c = list
                .as_array()
                .into_iter()
                .flatten()
                .find(|c| c["name"] == name)
                .unwrap_or_else(|| panic!("/{name} not registered"));
            (c["integration_types"].clone(), c["contexts"].clone())
        };
        for name in [
            "challenge",
            "move",
            "board",
            "resign",
            "games",
            "profile",
            "help",
        ] {
            assert_eq!(
                places(name),
                (serde_json::json!([0, 1]), serde_json::json!([0, 1, 2])),
                "/{name}"
            );
        }
        for name in ["tournament", "server", "abort", "leaderboard", "follow"] {
            assert_eq!(reach(name), Reach::Servers, "/{name}");
            assert_eq!(
                places(name),
                (serde_json::json!([0]), serde_json::json!([0])),
                "/{name}"
            );
        }
    }

    /// A command's doc comment is its English description in the files.
    #[test]
    fn doc_comments_are_the_english_descriptions() {
        for (declared, registered) in declared().iter().zip(all()) {
            assert_eq!(
                declared.description, registered.description,
                "/{}: its doc comment and `cmd-{}` differ",
                declared.name, declared.name
            );
        }
    }
}
