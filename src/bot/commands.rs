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

fn author_name(ctx: &Context<'_>) -> String {
    ctx.author().display_name().to_string()
}

async fn remember_author(ctx: &Context<'_>) -> Result<u64, BotError> {
    let id = ctx.author().id.get();
    db::upsert_player(&ctx.data().pool, id, &author_name(ctx), db::now()).await?;
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
    let now = db::now();
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
        },
    )
    .await?;
    let text = format!(
        "{}, {} challenges you to **{}** (`{line}`), {}. {} plays {} and moves first.\nAccept or decline below (open for 24 hours).",
        mention(opponent.id.get()),
        mention(me),
        kind.title(),
        if rated { "rated" } else { "unrated" },
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
    let now = db::now();
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
        },
    )
    .await?;
    db::insert_bot_game(&mut *tx, id, level.name()).await?;
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
    let mut tx = ctx.data().pool.begin().await?;
    db::record_move(
        &mut tx,
        row.id,
        expected,
        &notation,
        me,
        db::now(),
        finish.as_ref(),
    )
    .await?;
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
                "• #{} **{}** {} vs {} · move {} · {} to move{link}",
                row.id,
                game.kind().title(),
                mention(row.players[0]),
                mention(row.players[1]),
                game.ply() + 1,
                mention(player_to_move(&row, &game)),
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
#[poise::command(slash_command)]
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
    db::finish_game(&ctx.data().pool, id, &finish, db::now()).await?;
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
