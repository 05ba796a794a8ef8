//! `/privacy`: what hexcord stores about the member (`show`), and deleting it (`delete`, after a
//! sealed confirmation button, [`crate::bot::components`]). Both answer privately and store
//! nothing: looking does not record the member. What is read and deleted is
//! [`crate::db::MEMBER_DATA`]'s; what deletion does is [`crate::db::forget_member`]'s.

use poise::serenity_prelude as serenity;

use super::lang;
use crate::bot::components::Component;
use crate::bot::seal::Request;
use crate::bot::{BotError, Context};
use crate::db::{self, MemberData, UserId};
use crate::i18n::{tr, Lang, Text};
use crate::play::actions::{forget_refusal, FORGET_CONFIRM_SECS};
use crate::play::Refusal;
use crate::text;

/// The most ratings listed one by one; the rest are counted.
const RATINGS_LISTED: usize = 12;

/// Your stored data; delete it.
#[poise::command(slash_command, subcommands("show", "delete"), subcommand_required)]
pub async fn privacy(_ctx: Context<'_>) -> Result<(), BotError> {
    Ok(())
}

/// What hexcord stores about you (only you see it).
#[poise::command(slash_command)]
pub async fn show(ctx: Context<'_>) -> Result<(), BotError> {
    let me = UserId::from(ctx.author().id);
    let mut conn = ctx.data().core.pool.acquire().await?;
    let data = db::member_data(&mut conn, me).await?;
    drop(conn);
    super::answer_privately(&ctx, report(&data, lang(&ctx))).await
}

/// Delete what hexcord stores about you (asks to confirm).
#[poise::command(slash_command)]
pub async fn delete(ctx: Context<'_>) -> Result<(), BotError> {
    let me = UserId::from(ctx.author().id);
    let lang = lang(&ctx);
    let data = ctx.data();
    let mut conn = data.core.pool.acquire().await?;
    let held = db::member_data(&mut conn, me).await?;
    drop(conn);
    // Said at once; the press checks again when it deletes.
    if let Some(why) = forget_refusal(&held.in_play, &held.open_entries) {
        return Err(Refusal::new(why).into());
    }
    let at = data.core.clock.now();
    let seal = data.seals.seal(Request::Forget { user: me.0, at });
    let button = serenity::CreateButton::new(
        Component::Forget {
            user: me.0,
            at,
            seal,
        }
        .encode(),
    )
    .label(tr(lang, "button-privacy-delete"))
    .style(serenity::ButtonStyle::Danger);
    let text = text!("privacy-confirm", minutes = FORGET_CONFIRM_SECS / 60).render(lang);
    super::answer_privately_with(
        &ctx,
        text,
        Some(serenity::CreateActionRow::Buttons(vec![button])),
    )
    .await
}

/// What is stored, in words, one line a kind, within one message.
pub fn report(data: &MemberData, lang: Lang) -> String {
    if data.is_empty() {
        return tr(lang, "privacy-nothing");
    }
    let mut lines: Vec<Text> = Vec::new();
    if let Some(name) = &data.name {
        lines.push(text!("privacy-name", name = crate::i18n::excerpt(name)));
    }
    if let Some(locale) = &data.locale {
        lines.push(text!(
            "privacy-locale",
            locale = crate::i18n::excerpt(locale)
        ));
    }
    let playing = data.in_play.len() as i64;
    if playing + data.over > 0 {
        lines.push(text!(
            "privacy-games",
            total = playing + data.over,
            playing = playing,
            over = data.over
        ));
    }
    for r in data.ratings.iter().take(RATINGS_LISTED) {
        lines.push(text!(
            "privacy-rating",
            game = r.kind.title(),
            server = r.guild.to_string(),
            rating = r.rating.round() as i64,
            games = r.games
        ));
    }
    if data.ratings.len() > RATINGS_LISTED {
        lines.push(text!(
            "answer-and-more",
            count = data.ratings.len() - RATINGS_LISTED
        ));
    }
    if let Some(zone) = &data.time_zone {
        lines.push(text!("privacy-time-zone", zone = zone.as_str()));
    }
    for &(table, count) in &data.rows {
        lines.push(Text::dynamic(format!("privacy-table-{table}")).with("count", count));
    }
    let mut out = tr(lang, "privacy-head");
    for line in lines {
        out.push('\n');
        out.push_str(&line.render(lang));
    }
    out.push_str("\n\n");
    out.push_str(&tr(lang, "privacy-foot"));
    crate::bot::limits::fit(&out, crate::bot::limits::CONTENT)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every table of `MEMBER_DATA` has its line in every language (the report names each).
    #[test]
    fn every_table_of_member_data_has_its_words() {
        for lang in [Lang::EN, Lang::of("ja")] {
            let mut tables = db::member_tables();
            tables.push("announcements");
            for table in tables {
                if matches!(table, "players" | "games" | "ratings") {
                    continue;
                }
                let line = Text::dynamic(format!("privacy-table-{table}"))
                    .with("count", 3)
                    .render(lang);
                assert!(line.starts_with('•'), "{table} in {lang:?}: {line}");
            }
        }
        let data = MemberData {
            name: Some("ann".into()),
            in_play: vec![4],
            over: 2,
            rows: vec![("vacations", 1), ("tournament_players", 2)],
            ..MemberData::default()
        };
        let en = report(&data, Lang::EN);
        for want in [
            "**ann**",
            "Games: 3 (1 in play, 2 over)",
            "Vacations: 1",
            "Tournament entries: 2",
            "a former member",
        ] {
            assert!(en.contains(want), "{want:?} not in {en}");
        }
        let ja = report(&data, Lang::of("ja"));
        assert!(
            ja.contains("対局：3局") && ja.contains("元メンバー"),
            "{ja}"
        );
        assert_eq!(
            report(&MemberData::default(), Lang::EN),
            "hexcord stores nothing about you."
        );
    }
}
