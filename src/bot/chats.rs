//! The Discord side of play in direct messages and group chats (what Discord allows there, and
//! how hexcord plays within it: [`crate::play::chats`]).
//!
//! The bot speaks in a chat only in answers to interactions, so the boards a server would get
//! as posts come with the answers there ([`board_answer`]): a move's answer, the acceptance of a
//! challenge, a move made with the picker (a public follow-up of the press, within the token's
//! 15 minutes). Who may be sent a direct message of the bot's own is noted from each interaction
//! ([`may_be_reached`]).

use poise::serenity_prelude as serenity;
use serenity::{AuthorizingIntegrationOwner, InteractionContext};

use super::{BotError, Data};
use crate::db::{self, GameRow};
use crate::games::Game;
use crate::i18n::{Lang, Text};
use crate::play::actions::Played;
use crate::play::present::{alt_text, board_caption, caption_since, names_by_colour, picture};
use crate::text;

/// Whether an interaction of `user` shows that the bot may send them a direct message of its
/// own: they installed hexcord to their account, act in a server that installed it, or in the
/// bot's own direct messages.
pub fn may_be_reached(
    user: serenity::UserId,
    context: Option<InteractionContext>,
    owners: &serenity::AuthorizingIntegrationOwners,
) -> bool {
    let installed = owners.0.iter().any(|o| match o {
        AuthorizingIntegrationOwner::UserInstall(u) => *u == user,
        AuthorizingIntegrationOwner::GuildInstall(g) => g.is_some(),
        _ => false,
    });
    // Before Discord sent contexts, every interaction came from a server or the bot's messages.
    installed || matches!(context, Some(InteractionContext::BotDm) | None)
}

/// A board as an answer shows it: the caption (after `intro`), the picture with its alt text,
/// and the Move button while the game is in play.
pub struct BoardAnswer {
    pub content: String,
    pub picture: serenity::CreateAttachment,
    pub buttons: Option<serenity::CreateActionRow>,
}

/// The board of game `row` as it stands (or after `shown` moves), in `lang`, for an answer;
/// `since` names the moves from that ply on (from 1: the move just made and the replies that
/// followed it at once), each by its player with its notation, as posted boards do.
pub async fn board_answer(
    data: &Data,
    lang: Lang,
    row: &GameRow,
    game: Game,
    shown: Option<usize>,
    intro: Option<String>,
    since: Option<usize>,
) -> Result<BoardAnswer, BotError> {
    let pool = &data.core.pool;
    let names = names_by_colour(pool, row, &game, lang).await?;
    let mut caption = match since {
        Some(first) => caption_since(lang, row, &game, first),
        None => board_caption(lang, row, &game, None),
    };
    if let Some(p) = shown {
        let showing = text!("answer-showing-move", ply = p, moves = game.ply());
        caption = format!("{caption}\n{}", showing.render(lang));
    }
    let content = match intro {
        Some(intro) => format!("{intro}\n{caption}"),
        None => caption,
    };
    let alt = alt_text(lang, row.id, &game, shown.unwrap_or(game.ply()));
    let theme = crate::play::server_theme(pool, row.guild_id).await?;
    let in_play = row.status == db::GameStatus::Active && shown.is_none();
    let png = picture(lang, theme, game, shown, names).await?;
    let buttons = in_play.then(|| {
        super::picker_view::move_button_row(lang, row, data.web_url.as_deref(), data.activity)
    });
    Ok(BoardAnswer {
        content: crate::bot::limits::fit(&content, crate::bot::limits::CONTENT),
        picture: serenity::CreateAttachment::bytes(png, "board.png").description(alt),
        buttons,
    })
}

/// The line telling a mover in a chat that the player now to move could not be told by direct
/// message (Discord lets the bot write only to members who share a server with it or installed
/// hexcord): they see the board at the chat's next answer. `None` when they were told, or the
/// game is no chat game or over.
pub async fn not_told(data: &Data, row: &GameRow) -> Result<Option<Text>, BotError> {
    if !crate::play::chats::is_chat_game(row) || row.status != db::GameStatus::Active {
        return Ok(None);
    }
    let Some(next) = row.to_move else {
        return Ok(None);
    };
    if next == data.opponent.bot_id() || db::is_reachable(&data.core.pool, next).await? {
        return Ok(None);
    }
    Ok(Some(text!(
        "chat-opponent-not-told",
        who = crate::play::access::mention(next)
    )))
}

/// The game `id` as it stands now, when it is a chat game: its board is answered in the chat.
pub async fn chat_game(data: &Data, id: i64) -> Result<Option<(GameRow, Game)>, BotError> {
    let (row, game) = crate::play::actions::load(&data.core.pool, id).await?;
    Ok(crate::play::chats::is_chat_game(&row).then_some((row, game)))
}

/// The board of chat game `id` after a change made by an interaction (a challenge accepted, a
/// move typed or made with the picker), for the chat: its caption after `intro`, mentioning the
/// player to move. After a move (`played`), the board names it and every move that followed it
/// at once (the opponent's conditional reply, marked by its notice as a server's board is, or
/// the bot's), each by its player. `None` for a game of a server, whose board is posted.
pub async fn board_for_chat(
    data: &Data,
    lang: Lang,
    id: i64,
    intro: Option<String>,
    played: Option<&Played>,
) -> Result<Option<(BoardAnswer, serenity::CreateAllowedMentions)>, BotError> {
    let Some((row, game)) = chat_game(data, id).await? else {
        return Ok(None);
    };
    let mut lines: Vec<String> = intro.into_iter().collect();
    lines.extend(
        played
            .iter()
            .flat_map(|p| &p.replies)
            .map(|r| r.render(lang)),
    );
    lines.extend(not_told(data, &row).await?.map(|line| line.render(lang)));
    let intro = (!lines.is_empty()).then(|| lines.join("\n"));
    let since = played.and_then(|p| usize::try_from(p.ply).ok());
    let mentioned: Vec<serenity::UserId> = match row.to_move {
        Some(p) if row.status == db::GameStatus::Active => vec![p.into()],
        _ => row.players.iter().map(|&p| p.into()).collect(),
    };
    let shown = board_answer(data, lang, &row, game, None, intro, since).await?;
    Ok(Some((
        shown,
        serenity::CreateAllowedMentions::new().users(mentioned),
    )))
}

#[cfg(test)]
mod tests {
    use super::may_be_reached;
    use poise::serenity_prelude as sp;
    use sp::{
        AuthorizingIntegrationOwner, AuthorizingIntegrationOwners as Owners, InteractionContext,
    };

    /// The bot may write to a member who installed hexcord, acts in a server that installed it,
    /// or in the bot's own direct messages; not to one who only presses in someone else's chat.
    #[test]
    fn who_may_be_written_to() {
        let ann = sp::UserId::new(11);
        let eve = sp::UserId::new(12);
        let through_ann = Owners(vec![AuthorizingIntegrationOwner::UserInstall(ann)]);
        let chat = Some(InteractionContext::PrivateChannel);
        assert!(may_be_reached(ann, chat, &through_ann));
        assert!(!may_be_reached(eve, chat, &through_ann));
        let server = Owners(vec![AuthorizingIntegrationOwner::GuildInstall(Some(
            sp::GuildId::new(5),
        ))]);
        assert!(may_be_reached(
            eve,
            Some(InteractionContext::Guild),
            &server
        ));
        // A server the command reached only through Ann's installation: Eve is not known there.
        assert!(!may_be_reached(
            eve,
            Some(InteractionContext::Guild),
            &through_ann
        ));
        let bot_dm = Owners(vec![AuthorizingIntegrationOwner::GuildInstall(None)]);
        assert!(may_be_reached(
            eve,
            Some(InteractionContext::BotDm),
            &bot_dm
        ));
    }
}
