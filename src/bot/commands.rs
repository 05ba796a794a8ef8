//! The slash commands.

use poise::serenity_prelude as serenity;
use poise::CreateReply;

use super::logic::{
    self, build_options, check_challenge, check_may_move, check_player, choose_game, mention,
    parse_game_ref, player_to_move, suggest_moves, ChosenOptions, Component, Refusal,
};
use super::opponent::MAX_BOT_GAMES;
use super::present::{board_caption, names_by_colour, picture, rules_text, HELP};
use super::{BotError, Context, Data};
use crate::ai::Level;
use crate::db::{self, GameRow, GameStatus, NewChallenge};
use crate::games::{Game, GameKind};

pub fn all() -> Vec<poise::Command<Data, BotError>> {
    vec![
        challenge(),
        play(),
        move_(),
        board(),
        resign(),
        games(),
        rules(),
        help(),
        abort(),
        turn(),
        settings(),
        vacation(),
        leaderboard(),
        profile(),
        record(),
        replay(),
    ]
}

/// Which game (a choice in Discord).
#[derive(Clone, Copy, Debug, poise::ChoiceParameter)]
pub enum GameChoice {
    #[name = "inpHeXion"]
    Inphexion,
    #[name = "EXXIT"]
    Exxit,
}

impl From<GameChoice> for GameKind {
    fn from(c: GameChoice) -> GameKind {
        match c {
            GameChoice::Inphexion => GameKind::Inphexion,
            GameChoice::Exxit => GameKind::Exxit,
        }
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

/// The bot's strength in `/play`.
#[derive(Clone, Copy, Debug, poise::ChoiceParameter)]
pub enum LevelChoice {
    #[name = "easy"]
    Easy,
    #[name = "medium"]
    Medium,
    #[name = "hard"]
    Hard,
}

impl From<LevelChoice> for Level {
    fn from(c: LevelChoice) -> Level {
        match c {
            LevelChoice::Easy => Level::Easy,
            LevelChoice::Medium => Level::Medium,
            LevelChoice::Hard => Level::Hard,
        }
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

/// How a player wants to be reminded (a choice in Discord).
#[derive(Clone, Copy, Debug, poise::ChoiceParameter)]
pub enum RemindersChoice {
    #[name = "mention me in the game's channel"]
    Channel,
    #[name = "send me a direct message"]
    Dm,
    #[name = "off"]
    Off,
}

impl From<RemindersChoice> for db::ReminderMode {
    fn from(c: RemindersChoice) -> db::ReminderMode {
        match c {
            RemindersChoice::Channel => db::ReminderMode::Channel,
            RemindersChoice::Dm => db::ReminderMode::Dm,
            RemindersChoice::Off => db::ReminderMode::Off,
        }
    }
}

fn author_name(ctx: &Context<'_>) -> String {
    ctx.author().display_name().to_string()
}

async fn remember_author(ctx: &Context<'_>) -> Result<u64, BotError> {
    let id = ctx.author().id.get();
    db::upsert_player(
        &ctx.data().pool,
        id,
        &author_name(ctx),
        ctx.data().clock.now(),
    )
    .await?;
    Ok(id)
}

/// Loads a stored game and replays it. Unknown game: a user mistake.
pub(super) async fn load(data: &Data, id: i64) -> Result<(GameRow, Game), BotError> {
    let mut conn = data.pool.acquire().await?;
    db::load_game(&mut conn, id).await?.ok_or_else(|| {
        BotError::User(format!(
            "There is no game #{id}. `/games` lists the active ones."
        ))
    })
}

/// The caller's active games in this channel, replayed.
async fn my_games_here(
    data: &Data,
    channel: u64,
    user: u64,
) -> Result<Vec<(GameRow, Game)>, BotError> {
    let rows = db::active_games_in_channel(&data.pool, channel, user).await?;
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        out.push(load(data, row.id).await?);
    }
    Ok(out)
}

/// The game a command means: the one named (checked to be in this channel), or the caller's
/// only (or only waiting) game here.
async fn pick_game(
    ctx: &Context<'_>,
    user: u64,
    requested: Option<&str>,
    prefer_my_turn: bool,
) -> Result<(GameRow, Game), BotError> {
    let channel = ctx.channel_id().get();
    if let Some(text) = requested {
        let id = parse_game_ref(text)?;
        let (row, game) = load(ctx.data(), id).await?;
        if row.channel_id != channel {
            return Err(BotError::User(format!(
                "Game #{id} is played in <#{}>: use the command there.",
                row.channel_id
            )));
        }
        return Ok((row, game));
    }
    let mut mine = my_games_here(ctx.data(), channel, user).await?;
    let rows: Vec<GameRow> = mine.iter().map(|(r, _)| r.clone()).collect();
    let my_turn = |r: &GameRow| {
        prefer_my_turn
            && mine
                .iter()
                .any(|(row, g)| row.id == r.id && player_to_move(row, g) == user)
    };
    let id = choose_game(&rows, None, &my_turn)?.id;
    let at = mine.iter().position(|(r, _)| r.id == id).unwrap_or(0);
    Ok(mine.swap_remove(at))
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

async fn autocomplete_move(
    ctx: Context<'_>,
    partial: &str,
) -> serenity::CreateAutocompleteResponse {
    let user = ctx.author().id.get();
    let requested = option_str(&ctx, "game").filter(|s| !s.trim().is_empty());
    let choices = match pick_game(&ctx, user, requested, true).await {
        Ok((row, game)) if row.status == GameStatus::Active => suggest_moves(&game, partial, 25)
            .into_iter()
            .map(|n| serenity::AutocompleteChoice::new(n.clone(), n))
            .collect(),
        Ok(_) => Vec::new(),
        Err(BotError::User(_)) => Vec::new(),
        Err(BotError::Internal(e)) => {
            tracing::error!("move suggestions failed: {e:#}");
            Vec::new()
        }
    };
    serenity::CreateAutocompleteResponse::new().set_choices(choices)
}

async fn autocomplete_game(
    ctx: Context<'_>,
    partial: &str,
) -> serenity::CreateAutocompleteResponse {
    let user = ctx.author().id.get();
    let choices = match my_games_here(ctx.data(), ctx.channel_id().get(), user).await {
        Ok(games) => games
            .iter()
            .filter_map(|(row, game)| {
                let turn = if player_to_move(row, game) == user {
                    ", your move"
                } else {
                    ""
                };
                let label = format!(
                    "#{} {}, move {}{turn}",
                    row.id,
                    game.kind().title(),
                    game.ply() + 1
                );
                label
                    .to_lowercase()
                    .contains(&partial.trim().trim_start_matches('#').to_lowercase())
                    .then(|| serenity::AutocompleteChoice::new(label, row.id.to_string()))
            })
            .take(25)
            .collect(),
        Err(e) => {
            tracing::error!("game suggestions failed: {e}");
            Vec::new()
        }
    };
    serenity::CreateAutocompleteResponse::new().set_choices(choices)
}

/// Suggestions for `/record` and `/replay`: the caller's games here, then their recently
/// finished games in this server.
async fn autocomplete_finished(
    ctx: Context<'_>,
    partial: &str,
) -> serenity::CreateAutocompleteResponse {
    let user = ctx.author().id.get();
    let typed = partial.trim().trim_start_matches('#').to_lowercase();
    let mut rows = Vec::new();
    let found = async {
        rows.extend(
            db::active_games_in_channel(&ctx.data().pool, ctx.channel_id().get(), user).await?,
        );
        if let Some(g) = ctx.guild_id() {
            rows.extend(db::recent_games_of(&ctx.data().pool, g.get(), user, 20).await?);
        }
        Ok::<(), db::DbError>(())
    }
    .await;
    if let Err(e) = found {
        tracing::error!("game suggestions failed: {e}");
    }
    let choices = rows
        .iter()
        .filter_map(|row| {
            let title = row
                .kind
                .parse::<GameKind>()
                .map_or(row.kind.as_str(), |k| k.title());
            let state = match row.status {
                GameStatus::Active => "active".to_string(),
                _ => row.result.clone().unwrap_or_else(|| "finished".to_string()),
            };
            let label = format!("#{} {title}, {} moves, {state}", row.id, row.version);
            label
                .to_lowercase()
                .contains(&typed)
                .then(|| serenity::AutocompleteChoice::new(label, row.id.to_string()))
        })
        .take(25)
        .collect();
    serenity::CreateAutocompleteResponse::new().set_choices(choices)
}

/// Challenge a member to a game.
// Each parameter is one Discord option of the command.
#[allow(clippy::too_many_arguments)]
#[poise::command(slash_command)]
pub async fn challenge(
    ctx: Context<'_>,
    #[description = "Who to play"] opponent: serenity::User,
    #[description = "Which game"] game: GameChoice,
    #[description = "inpHeXion: board size (7 is standard)"]
    #[min = 4]
    #[max = 11]
    size: Option<i64>,
    #[description = "Pie rule: the second player may swap after the first move"] pie: Option<bool>,
    #[description = "inpHeXion: Black's first disc may go anywhere"] free_reply: Option<bool>,
    #[description = "inpHeXion: a neutral disc in the centre (odd sizes)"] neutral: Option<bool>,
    #[description = "EXXIT: number of tiles"] tiles: Option<TilesChoice>,
    #[description = "EXXIT: players lay the first six tiles"] expert: Option<bool>,
    #[description = "Counts for the server's ratings (default: yes)"] rated: Option<bool>,
    #[description = "Time for each move (default: 3 days); running out loses the game"]
    days_per_move: Option<DaysChoice>,
) -> Result<(), BotError> {
    let me = remember_author(&ctx).await?;
    if opponent.id.get() == ctx.data().opponent.bot_id() {
        return Err(BotError::User(
            "To play against me, use `/play` and choose a level.".to_string(),
        ));
    }
    check_challenge(me, opponent.id.get(), opponent.bot, None)?;
    let kind = GameKind::from(game);
    let chosen = ChosenOptions {
        size,
        pie,
        free_reply,
        neutral,
        tiles: tiles.map(TilesChoice::count),
        expert,
    };
    let options = build_options(kind, &chosen)?;
    let line = options.to_string();
    let days = days_per_move.map_or(logic::DEFAULT_DAYS_PER_MOVE, DaysChoice::days);
    let now = ctx.data().clock.now();
    let pool = &ctx.data().pool;
    let duplicate = db::find_open_challenge(pool, me, opponent.id.get(), &line, now).await?;
    check_challenge(me, opponent.id.get(), opponent.bot, duplicate.as_ref())?;
    db::upsert_player(pool, opponent.id.get(), opponent.display_name(), now).await?;
    let rated = rated.unwrap_or(true);
    let id = db::insert_challenge(
        pool,
        &NewChallenge {
            guild_id: ctx.guild_id().map(|g| g.get()),
            channel_id: ctx.channel_id().get(),
            challenger_id: me,
            opponent_id: opponent.id.get(),
            options: &line,
            rated,
            now,
            expires_at: now + logic::CHALLENGE_TTL_SECS,
            seconds_per_move: days * logic::DAY,
        },
    )
    .await?;
    let text = format!(
        "{}, {} challenges you to **{}** (`{line}`), {}, {days} day{} per move. {} plays {} and moves first.\nAccept or decline below (open for 24 hours).",
        mention(opponent.id.get()),
        mention(me),
        kind.title(),
        if rated { "rated" } else { "unrated" },
        if days == 1 { "" } else { "s" },
        mention(me),
        kind.colour_name(crate::games::Colour::First),
    );
    let buttons = serenity::CreateActionRow::Buttons(vec![
        serenity::CreateButton::new(Component::Accept(id).encode())
            .label("Accept")
            .style(serenity::ButtonStyle::Success),
        serenity::CreateButton::new(Component::Decline(id).encode())
            .label("Decline")
            .style(serenity::ButtonStyle::Danger),
        serenity::CreateButton::new(Component::Withdraw(id).encode())
            .label("Withdraw")
            .style(serenity::ButtonStyle::Secondary),
    ]);
    let reply = CreateReply::default()
        .content(text)
        .components(vec![buttons])
        .allowed_mentions(serenity::CreateAllowedMentions::new().users([opponent.id]));
    let handle = ctx.send(reply).await?;
    let message = handle.message().await?;
    db::set_challenge_message(pool, id, message.id.get()).await?;
    Ok(())
}

/// Play a game against me, the bot, at the level you choose.
#[allow(clippy::too_many_arguments)]
#[poise::command(slash_command)]
pub async fn play(
    ctx: Context<'_>,
    #[description = "Which game"] game: GameChoice,
    #[description = "How strong I play"] level: LevelChoice,
    #[description = "You move first (default: yes)"] first: Option<bool>,
    #[description = "inpHeXion: board size (7 is standard)"]
    #[min = 4]
    #[max = 11]
    size: Option<i64>,
    #[description = "Pie rule: the second player may swap after the first move"] pie: Option<bool>,
    #[description = "inpHeXion: Black's first disc may go anywhere"] free_reply: Option<bool>,
    #[description = "inpHeXion: a neutral disc in the centre (odd sizes)"] neutral: Option<bool>,
    #[description = "EXXIT: number of tiles"] tiles: Option<TilesChoice>,
    #[description = "EXXIT: players lay the first six tiles"] expert: Option<bool>,
) -> Result<(), BotError> {
    let me = remember_author(&ctx).await?;
    let kind = GameKind::from(game);
    let level = Level::from(level);
    let chosen = ChosenOptions {
        size,
        pie,
        free_reply,
        neutral,
        tiles: tiles.map(TilesChoice::count),
        expert,
    };
    let options = build_options(kind, &chosen)?;
    let line = options.to_string();
    let data = ctx.data();
    let bot = data.opponent.bot_id();
    if db::count_active_bot_games(&data.pool, me).await? >= MAX_BOT_GAMES {
        return Err(BotError::User(format!(
            "You already have {MAX_BOT_GAMES} games against me: finish or `/resign` one first (`/games` lists them)."
        )));
    }
    let now = data.clock.now();
    db::upsert_player(&data.pool, bot, data.opponent.name(), now).await?;
    let players = if first.unwrap_or(true) {
        [me, bot]
    } else {
        [bot, me]
    };
    let mut tx = data.pool.begin().await?;
    let id = db::insert_game(
        &mut *tx,
        &db::NewGame {
            guild_id: ctx.guild_id().map(|g| g.get()),
            channel_id: ctx.channel_id().get(),
            kind: kind.name(),
            options: &line,
            players,
            rated: false,
            now,
            // Cleared by `insert_bot_game`: games against the bot have no clock.
            seconds_per_move: logic::DAY,
            deadline_at: now,
        },
    )
    .await?;
    db::insert_bot_game(&mut tx, id, level.name()).await?;
    tx.commit().await?;
    tracing::info!(
        game = id,
        level = level.name(),
        "game against the bot started"
    );

    ctx.defer().await?;
    let (row, game) = load(data, id).await?;
    let names = names_by_colour(&data.pool, &row, &game).await?;
    let caption = format!(
        "{} plays me at level **{}** (`{line}`, unrated).\n{}",
        mention(me),
        level.name(),
        board_caption(&row, &game, None)
    );
    let png = picture(game.clone(), None, names).await?;
    let reply = CreateReply::default()
        .content(caption)
        .attachment(serenity::CreateAttachment::bytes(png, "board.png"))
        .allowed_mentions(serenity::CreateAllowedMentions::new().users([ctx.author().id]));
    let handle = ctx.send(reply).await?;
    let message = handle.message().await?;
    db::set_board_message(&data.pool, id, message.id.get()).await?;
    data.opponent.wake(id);
    Ok(())
}

/// Play a move in your game in this channel.
#[poise::command(slash_command, rename = "move")]
pub async fn move_(
    ctx: Context<'_>,
    #[description = "Your move: pick one of the suggestions"]
    #[autocomplete = "autocomplete_move"]
    #[rename = "move"]
    text: String,
    #[description = "Which game, when you have several here"]
    #[autocomplete = "autocomplete_game"]
    game: Option<String>,
) -> Result<(), BotError> {
    let me = remember_author(&ctx).await?;
    let (row, mut played) = pick_game(&ctx, me, game.as_deref(), true).await?;
    check_may_move(&row, &played, me)?;
    logic::check_in_time(&row, ctx.data().clock.now())?;
    let expected = played.ply() as i64;
    let mv = played.play_text(&text).map_err(|e| {
        Refusal::new(format!(
            "`{}` cannot be played in game #{}: {e}. Type `/move` and pick one of the suggestions.",
            text.trim(),
            row.id
        ))
    })?;
    let notation = mv.to_string();
    let finish = logic::finish_after_move(&row, &played);
    let now = ctx.data().clock.now();
    let next = player_to_move(&row, &played);
    let away = db::vacation_until(&ctx.data().pool, next, now).await?;
    // Games against the bot have no clock.
    let deadline = match db::fetch_bot_level(&ctx.data().pool, row.id).await? {
        Some(_) => None,
        None => Some(logic::deadline_after(now, row.seconds_per_move, away)),
    };
    let mut tx = ctx.data().pool.begin().await?;
    db::record_move(
        &mut tx,
        row.id,
        expected,
        &notation,
        me,
        now,
        finish.as_ref(),
        deadline,
    )
    .await?;
    if finish.is_some() {
        crate::rating::apply_result(&mut tx, row.id).await?;
    }
    tx.commit().await?;
    tracing::info!(game = row.id, ply = expected + 1, mv = %notation, "move played");

    // Decided and stored: from here the answer is the public board.
    ctx.defer().await?;
    let (row, game) = load(ctx.data(), row.id).await?;
    let names = names_by_colour(&ctx.data().pool, &row, &game).await?;
    let caption = board_caption(&row, &game, Some((me, &notation)));
    let png = picture(game.clone(), None, names).await?;
    let notify: Vec<serenity::UserId> = if row.status == GameStatus::Active {
        vec![serenity::UserId::new(player_to_move(&row, &game))]
    } else {
        row.players
            .iter()
            .map(|&p| serenity::UserId::new(p))
            .collect()
    };
    let reply = CreateReply::default()
        .content(caption)
        .attachment(serenity::CreateAttachment::bytes(png, "board.png"))
        .allowed_mentions(serenity::CreateAllowedMentions::new().users(notify));
    let handle = ctx.send(reply).await?;
    let message = handle.message().await?;
    db::set_board_message(&ctx.data().pool, row.id, message.id.get()).await?;
    if row.status == GameStatus::Active {
        ctx.data().opponent.wake(row.id);
    }
    Ok(())
}

/// Show a game's board, now or after a given number of moves.
#[poise::command(slash_command)]
pub async fn board(
    ctx: Context<'_>,
    #[description = "Which game (a number; default: yours here)"]
    #[autocomplete = "autocomplete_game"]
    game: Option<String>,
    #[description = "Show the position after this many moves"]
    #[min = 0]
    ply: Option<i64>,
) -> Result<(), BotError> {
    let me = remember_author(&ctx).await?;
    let (row, played) = match game.as_deref() {
        Some(text) => {
            let id = parse_game_ref(text)?;
            let (row, g) = load(ctx.data(), id).await?;
            if row.guild_id != ctx.guild_id().map(|g| g.get()) {
                return Err(BotError::User(format!(
                    "There is no game #{id} in this server."
                )));
            }
            (row, g)
        }
        None => pick_game(&ctx, me, None, false).await?,
    };
    let shown = match ply {
        None => None,
        Some(p) if p >= 0 && p as usize <= played.ply() => Some(p as usize),
        Some(p) => {
            return Err(BotError::User(format!(
                "Game #{} has {} moves: pick a `ply` from 0 to {} (you asked for {p}).",
                row.id,
                played.ply(),
                played.ply()
            )))
        }
    };
    ctx.defer().await?;
    let names = names_by_colour(&ctx.data().pool, &row, &played).await?;
    let mut caption = board_caption(&row, &played, None);
    if let Some(p) = shown {
        caption = format!(
            "{caption}\nShowing the position after move {p} of {}.",
            played.ply()
        );
    }
    let png = picture(played, shown, names).await?;
    let reply = CreateReply::default()
        .content(caption)
        .attachment(serenity::CreateAttachment::bytes(png, "board.png"))
        .allowed_mentions(serenity::CreateAllowedMentions::new());
    ctx.send(reply).await?;
    Ok(())
}

/// Resign a game (asks for confirmation).
#[poise::command(slash_command)]
pub async fn resign(
    ctx: Context<'_>,
    #[description = "Which game, when you have several here"]
    #[autocomplete = "autocomplete_game"]
    game: Option<String>,
) -> Result<(), BotError> {
    let me = remember_author(&ctx).await?;
    let (row, _) = pick_game(&ctx, me, game.as_deref(), false).await?;
    check_player(&row, me)?;
    let buttons = serenity::CreateActionRow::Buttons(vec![
        serenity::CreateButton::new(Component::Resign(row.id).encode())
            .label("Resign")
            .style(serenity::ButtonStyle::Danger),
        serenity::CreateButton::new(Component::KeepPlaying(row.id).encode())
            .label("Keep playing")
            .style(serenity::ButtonStyle::Secondary),
    ]);
    let reply = CreateReply::default()
        .content(format!(
            "Really resign game #{}? Your opponent wins.",
            row.id
        ))
        .components(vec![buttons])
        .ephemeral(true);
    ctx.send(reply).await?;
    Ok(())
}

/// List active games (yours, or a member's) in this server.
#[poise::command(slash_command)]
pub async fn games(
    ctx: Context<'_>,
    #[description = "Whose games (default: yours)"] user: Option<serenity::User>,
) -> Result<(), BotError> {
    let me = remember_author(&ctx).await?;
    let who = user.as_ref().map_or(me, |u| u.id.get());
    let guild = ctx.guild_id().map(|g| g.get());
    let rows = db::active_games_of(&ctx.data().pool, guild, who).await?;
    let now = ctx.data().clock.now();
    let text = if rows.is_empty() {
        format!(
            "{} has no active game here. `/challenge` someone!",
            mention(who)
        )
    } else {
        let mut lines = vec![format!("Active games of {}:", mention(who))];
        for row in rows {
            let (row, game) = load(ctx.data(), row.id).await?;
            let link = match (row.guild_id, row.board_message_id) {
                (Some(g), Some(m)) => format!(
                    " · [board](https://discord.com/channels/{g}/{}/{m})",
                    row.channel_id
                ),
                _ => format!(" · in <#{}>", row.channel_id),
            };
            lines.push(format!(
                "• #{} **{}** {} vs {} · move {} · {} to move{}{link}",
                row.id,
                game.kind().title(),
                mention(row.players[0]),
                mention(row.players[1]),
                game.ply() + 1,
                mention(player_to_move(&row, &game)),
                time_left(&row, now),
            ));
        }
        lines.join("\n")
    };
    let reply = CreateReply::default()
        .content(text)
        .ephemeral(true)
        .allowed_mentions(serenity::CreateAllowedMentions::new());
    ctx.send(reply).await?;
    Ok(())
}

/// A short summary of a game's rules, with its starting board.
#[poise::command(slash_command)]
pub async fn rules(
    ctx: Context<'_>,
    #[description = "Which game"] game: GameChoice,
) -> Result<(), BotError> {
    let kind = GameKind::from(game);
    ctx.defer_ephemeral().await?;
    let start = Game::new(crate::games::Options::default_for(kind));
    let names = [
        kind.colour_name(crate::games::Colour::First).to_string(),
        kind.colour_name(crate::games::Colour::Second).to_string(),
    ];
    let png = picture(start, None, names).await?;
    let reply = CreateReply::default()
        .content(rules_text(kind))
        .attachment(serenity::CreateAttachment::bytes(png, "start.png"))
        .ephemeral(true);
    ctx.send(reply).await?;
    Ok(())
}

/// How to play with this bot.
#[poise::command(slash_command)]
pub async fn help(ctx: Context<'_>) -> Result<(), BotError> {
    ctx.send(CreateReply::default().content(HELP).ephemeral(true))
        .await?;
    Ok(())
}

/// Moderators: end a game in this server without a result.
#[poise::command(slash_command, default_member_permissions = "MANAGE_GUILD")]
pub async fn abort(
    ctx: Context<'_>,
    #[description = "The game number"] game: String,
) -> Result<(), BotError> {
    let id = parse_game_ref(&game)?;
    let manage = match ctx {
        poise::Context::Application(actx) => actx
            .interaction
            .member
            .as_ref()
            .and_then(|m| m.permissions)
            .is_some_and(|p| p.manage_guild()),
        poise::Context::Prefix(_) => false,
    };
    let (row, _) = load(ctx.data(), id).await?;
    logic::may_abort(manage, &row, ctx.guild_id().map(|g| g.get()))?;
    let finish = db::Finish {
        status: GameStatus::Aborted,
        result: format!("aborted by {}", author_name(&ctx)),
        winner_id: None,
    };
    db::finish_game(&ctx.data().pool, id, &finish, ctx.data().clock.now()).await?;
    let reply = CreateReply::default()
        .content(format!(
            "Game #{id} ({} vs {}) was aborted by a moderator; it has no result.",
            mention(row.players[0]),
            mention(row.players[1])
        ))
        .allowed_mentions(serenity::CreateAllowedMentions::new());
    ctx.send(reply).await?;
    Ok(())
}

/// ` · 2 d 5 h left` for an active game with a deadline.
fn time_left(row: &GameRow, now: i64) -> String {
    match row.deadline_at {
        Some(d) if row.status == GameStatus::Active => {
            format!(" · {} left", logic::format_left(d - now))
        }
        _ => String::new(),
    }
}

/// The server a command is used in; commands about a server's games need one.
fn server(ctx: &Context<'_>) -> Result<u64, BotError> {
    ctx.guild_id().map(|g| g.get()).ok_or_else(|| {
        BotError::User("This command works in a server, not in direct messages.".into())
    })
}

/// A game of this server named by the user (active or finished).
async fn game_in_server(ctx: &Context<'_>, text: &str) -> Result<(GameRow, Game), BotError> {
    let id = parse_game_ref(text)?;
    let (row, game) = load(ctx.data(), id).await?;
    if row.guild_id != ctx.guild_id().map(|g| g.get()) {
        return Err(BotError::User(format!(
            "There is no game #{id} in this server."
        )));
    }
    Ok((row, game))
}

/// List the games of this server where it is your move, with the time left.
#[poise::command(slash_command)]
pub async fn turn(ctx: Context<'_>) -> Result<(), BotError> {
    let me = remember_author(&ctx).await?;
    let guild = server(&ctx)?;
    let rows = db::active_games_of(&ctx.data().pool, Some(guild), me).await?;
    let now = ctx.data().clock.now();
    let mut lines = Vec::new();
    for row in rows {
        let (row, game) = load(ctx.data(), row.id).await?;
        if player_to_move(&row, &game) != me {
            continue;
        }
        let opponent = row.players.iter().copied().find(|&p| p != me).unwrap_or(me);
        let link = match row.board_message_id {
            Some(m) => format!(
                " · [board](https://discord.com/channels/{guild}/{}/{m})",
                row.channel_id
            ),
            None => String::new(),
        };
        lines.push(format!(
            "• #{} **{}** vs {} in <#{}> · move {}{}{link}",
            row.id,
            game.kind().title(),
            mention(opponent),
            row.channel_id,
            game.ply() + 1,
            time_left(&row, now),
        ));
    }
    let text = if lines.is_empty() {
        "It is not your move in any game here. `/games` lists your active games.".to_string()
    } else {
        format!("Your move in:\n{}", lines.join("\n"))
    };
    let reply = CreateReply::default()
        .content(text)
        .ephemeral(true)
        .allowed_mentions(serenity::CreateAllowedMentions::new());
    ctx.send(reply).await?;
    Ok(())
}

/// Your settings: how you are reminded of your moves.
#[poise::command(slash_command)]
pub async fn settings(
    ctx: Context<'_>,
    #[description = "Reminders before your time per move runs out"] reminders: Option<
        RemindersChoice,
    >,
) -> Result<(), BotError> {
    let me = remember_author(&ctx).await?;
    let pool = &ctx.data().pool;
    if let Some(choice) = reminders {
        db::set_reminder_mode(pool, me, choice.into(), ctx.data().clock.now()).await?;
    }
    let text = match db::fetch_reminder_mode(pool, me).await? {
        db::ReminderMode::Channel => "Reminders: a mention in the game's channel, when half your time for a move is left and again near the end.",
        db::ReminderMode::Dm => "Reminders: a direct message (or, when I cannot send you one, a mention in the game's channel), when half your time for a move is left and again near the end.",
        db::ReminderMode::Off => "Reminders: off. Your deadlines still apply (`/turn` shows them).",
    };
    let text = if reminders.is_some() {
        format!("Saved. {text}")
    } else {
        format!("{text}\nChange it with `/settings reminders`.")
    };
    ctx.send(CreateReply::default().content(text).ephemeral(true))
        .await?;
    Ok(())
}

/// Take a vacation: your deadlines are paused for that many days.
#[poise::command(slash_command)]
pub async fn vacation(
    ctx: Context<'_>,
    #[description = "How many days"]
    #[min = 1]
    #[max = 30]
    days: i64,
) -> Result<(), BotError> {
    let me = remember_author(&ctx).await?;
    let now = ctx.data().clock.now();
    let pool = &ctx.data().pool;
    let away = db::vacation_until(pool, me, now).await?;
    let used_seconds = db::vacation_seconds_since(pool, me, now - 365 * logic::DAY).await?;
    let used = (used_seconds + logic::DAY - 1) / logic::DAY;
    logic::check_vacation(days, away, used)?;
    let seconds = days * logic::DAY;
    // The games where the caller is to move get their deadline moved by the vacation; in the
    // others the opponent's move gives a deadline counted from the vacation's end.
    let mut waiting = Vec::new();
    for row in db::active_games_of(pool, None, me).await? {
        let (row, game) = load(ctx.data(), row.id).await?;
        if player_to_move(&row, &game) == me {
            waiting.push(row);
        }
    }
    let mut tx = pool.begin().await?;
    db::insert_vacation(&mut *tx, me, now, now + seconds).await?;
    let mut paused = 0;
    for row in &waiting {
        if db::extend_deadline(&mut *tx, row.id, row.version, seconds).await? {
            paused += 1;
        }
    }
    tx.commit().await?;
    let plural = |n: i64| if n == 1 { "" } else { "s" };
    let left = logic::VACATION_DAYS_PER_YEAR - used - days;
    let text = format!(
        "Enjoy your vacation! Until <t:{}:f> your deadlines are paused ({paused} game{} waiting for your move got {days} more day{}). Vacation days left in the next 365 days: {left}.",
        now + seconds,
        plural(paused),
        plural(days),
    );
    ctx.send(CreateReply::default().content(text).ephemeral(true))
        .await?;
    Ok(())
}

/// One leaderboard line.
fn rating_line(place: i64, r: &db::RatingRow) -> String {
    let rating = crate::rating::Rating::from(r);
    format!(
        "{place}. {} **{:.0}**{} ±{:.0} · {} game{} ({}–{}–{})",
        mention(r.player_id),
        r.rating,
        if rating.is_provisional() { "?" } else { "" },
        r.deviation,
        r.games,
        if r.games == 1 { "" } else { "s" },
        r.wins,
        r.losses,
        r.draws,
    )
}

/// The server's rating table for a game.
#[poise::command(slash_command)]
pub async fn leaderboard(
    ctx: Context<'_>,
    #[description = "Which game"] game: GameChoice,
    #[description = "Page (10 players a page)"]
    #[min = 1]
    page: Option<i64>,
) -> Result<(), BotError> {
    let guild = server(&ctx)?;
    let kind = GameKind::from(game);
    let pool = &ctx.data().pool;
    let total = db::count_ratings(pool, guild, kind.name()).await?;
    if total == 0 {
        let reply = CreateReply::default()
            .content(format!(
                "No rated {} game has been finished in this server yet. `/challenge` someone!",
                kind.title()
            ))
            .ephemeral(true);
        ctx.send(reply).await?;
        return Ok(());
    }
    let (offset, pages) = logic::leaderboard_page(total, page.unwrap_or(1))?;
    let rows = db::top_ratings(pool, guild, kind.name(), logic::LEADERBOARD_PAGE, offset).await?;
    let lines: Vec<String> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| rating_line(offset + i as i64 + 1, r))
        .collect();
    let embed = serenity::CreateEmbed::new()
        .title(format!("{} leaderboard", kind.title()))
        .description(lines.join("\n"))
        .footer(serenity::CreateEmbedFooter::new(format!(
            "Page {} of {pages} · Glicko-2 rating ± deviation · ? = provisional (deviation over {:.0}) · wins–losses–draws",
            offset / logic::LEADERBOARD_PAGE + 1,
            crate::rating::PROVISIONAL_DEVIATION
        )));
    let reply = CreateReply::default()
        .embed(embed)
        .allowed_mentions(serenity::CreateAllowedMentions::new());
    ctx.send(reply).await?;
    Ok(())
}

/// A player's ratings, record and recent games in this server.
#[poise::command(slash_command)]
pub async fn profile(
    ctx: Context<'_>,
    #[description = "Whose profile (default: yours)"] user: Option<serenity::User>,
) -> Result<(), BotError> {
    let me = remember_author(&ctx).await?;
    let guild = server(&ctx)?;
    let who = user.as_ref().map_or(me, |u| u.id.get());
    let pool = &ctx.data().pool;
    let name = db::fetch_player_name(pool, who)
        .await?
        .unwrap_or_else(|| "this member".to_string());
    let mut embed = serenity::CreateEmbed::new().title(name);
    let ratings = db::ratings_of(pool, guild, who).await?;
    if ratings.is_empty() {
        embed = embed.description(format!("{} has no rated game here yet.", mention(who)));
    } else {
        embed = embed.description(mention(who));
    }
    for r in &ratings {
        let title = r
            .kind
            .parse::<GameKind>()
            .map_or(r.kind.clone(), |k| k.title().to_string());
        let rating = crate::rating::Rating::from(r);
        embed = embed.field(
            title,
            format!(
                "**{:.0}** ±{:.0}{}\n{} game{}: {} won, {} lost, {} drawn",
                r.rating,
                r.deviation,
                if rating.is_provisional() {
                    " (provisional)"
                } else {
                    ""
                },
                r.games,
                if r.games == 1 { "" } else { "s" },
                r.wins,
                r.losses,
                r.draws
            ),
            true,
        );
    }
    let recent = db::recent_games_of(pool, guild, who, 5).await?;
    if !recent.is_empty() {
        let lines: Vec<String> = recent
            .iter()
            .map(|g| {
                let opponent = g.players.iter().copied().find(|&p| p != who).unwrap_or(who);
                let verdict = match g.winner_id {
                    Some(w) if w == who => "won",
                    Some(_) => "lost",
                    None => "drew",
                };
                let title = g
                    .kind
                    .parse::<GameKind>()
                    .map_or(g.kind.clone(), |k| k.title().to_string());
                format!(
                    "#{} {title} vs {}: {verdict} ({}){}",
                    g.id,
                    mention(opponent),
                    g.result.as_deref().unwrap_or("finished"),
                    if g.rated { "" } else { ", unrated" }
                )
            })
            .collect();
        embed = embed.field("Recent games", lines.join("\n"), false);
    }
    let reply = CreateReply::default()
        .embed(embed)
        .ephemeral(true)
        .allowed_mentions(serenity::CreateAllowedMentions::new());
    ctx.send(reply).await?;
    Ok(())
}

/// Attach a game's record (readable by `hexcord engine`'s `load`).
#[poise::command(slash_command)]
pub async fn record(
    ctx: Context<'_>,
    #[description = "The game number"]
    #[autocomplete = "autocomplete_finished"]
    game: String,
) -> Result<(), BotError> {
    let (row, _) = game_in_server(&ctx, &game).await?;
    let moves = db::fetch_moves(&ctx.data().pool, row.id).await?;
    let text = db::record_text(&row, &moves);
    let reply = CreateReply::default()
        .content(format!(
            "The record of game #{} ({} moves): the variant line, then one move a line. Load it with `hexcord engine` (`load`) or draw it with `hexcord render`.",
            row.id,
            moves.len()
        ))
        .attachment(serenity::CreateAttachment::bytes(
            text.into_bytes(),
            format!("game-{}.txt", row.id),
        ))
        .allowed_mentions(serenity::CreateAllowedMentions::new());
    ctx.send(reply).await?;
    Ok(())
}

/// The largest file Discord accepts from a bot in any server (10 MiB).
const MAX_ATTACHMENT: usize = 10 << 20;

/// Attach a game as an animated picture.
#[poise::command(slash_command)]
pub async fn replay(
    ctx: Context<'_>,
    #[description = "The game number"]
    #[autocomplete = "autocomplete_finished"]
    game: String,
) -> Result<(), BotError> {
    let (row, played) = game_in_server(&ctx, &game).await?;
    ctx.defer().await?;
    let names = names_by_colour(&ctx.data().pool, &row, &played).await?;
    let gif = super::present::draw(move || {
        crate::render::replay(&played, &names, crate::render::Theme::default())
    })
    .await?;
    if gif.len() > MAX_ATTACHMENT {
        return Err(BotError::User(format!(
            "The replay of game #{} is too large to attach ({} MB). `/record` gives the record; `hexcord render --replay` draws it.",
            row.id,
            gif.len() >> 20
        )));
    }
    let reply = CreateReply::default()
        .content(format!("Game #{}, move by move.", row.id))
        .attachment(serenity::CreateAttachment::bytes(
            gif,
            format!("game-{}.gif", row.id),
        ))
        .allowed_mentions(serenity::CreateAllowedMentions::new());
    ctx.send(reply).await?;
    Ok(())
}
