//! Discord's limits on what the bot sends, in one place: the length of each text Discord shows
//! (a message, an autocomplete suggestion, a button, a menu, an embed, a thread's name, a
//! picture's description), how many of each thing a message may carry, and how large an upload
//! may be. Discord refuses a whole request that breaks one of them (an autocomplete answer with
//! one label too long shows the member no suggestion at all), so every text that can grow (a
//! member's name, a game's result) goes through [`fit`] on its way out.
//!
//! Lengths count characters (Unicode scalar values), as Discord does. Each number is the one
//! Discord's OpenAPI description states, checked by this module's test against the project's
//! copy of it (`tests/data/discord/openapi-subset.json`); where the description states none, or
//! a looser one than Discord enforces, the comment cites Discord's documentation instead. The
//! fake Discord of the end-to-end tests checks every request the bot makes against these same
//! numbers.

use unicode_segmentation::UnicodeSegmentation;

/// A message's text (`content`). The description states 2,000 for messages sent through an
/// interaction's webhook, but 4,000 for channel messages, a length that only members with Nitro
/// may send; Discord's documentation (Message resource, Create Message: "up to 2000
/// characters") holds bots to 2,000 everywhere.
pub const CONTENT: usize = 2000;

/// Suggestions in one autocomplete answer.
pub const CHOICES: usize = 25;
/// An autocomplete suggestion's (or a command choice's) label, at least 1 character.
pub const CHOICE_NAME: usize = 100;
/// A suggestion's string value. The description states 6,000; Discord's documentation
/// (Application Commands, Application Command Option Choice Structure: "up to 100 characters
/// if string") states 100.
pub const CHOICE_STRING_VALUE: usize = 100;

/// A button's or a select menu's `custom_id`.
pub const CUSTOM_ID: usize = 100;
/// A button's label.
pub const BUTTON_LABEL: usize = 80;
/// A select menu option's label, at least 1 character.
pub const SELECT_OPTION_LABEL: usize = 100;
/// A select menu option's value, at least 1 character.
pub const SELECT_OPTION_VALUE: usize = 100;
/// A select menu option's description.
pub const SELECT_OPTION_DESCRIPTION: usize = 100;
/// A select menu's placeholder.
pub const SELECT_PLACEHOLDER: usize = 150;
/// Options of one select menu.
pub const SELECT_OPTIONS: usize = 25;
/// Action rows of a message. The description states 40 components of any kind (messages with
/// the newer layout components); Discord's documentation (Components, Action Row: "up to 5
/// Action Rows" for messages without the `IS_COMPONENTS_V2` flag, as all of the bot's are)
/// states 5.
pub const ACTION_ROWS: usize = 5;
/// Buttons in one action row.
pub const ROW_BUTTONS: usize = 5;

/// Embeds of one message.
pub const EMBEDS: usize = 10;
/// An embed's title.
pub const EMBED_TITLE: usize = 256;
/// An embed's description.
pub const EMBED_DESCRIPTION: usize = 4096;
/// Fields of one embed.
pub const EMBED_FIELDS: usize = 25;
/// An embed field's name.
pub const EMBED_FIELD_NAME: usize = 256;
/// An embed field's value.
pub const EMBED_FIELD_VALUE: usize = 1024;
/// An embed footer's text.
pub const EMBED_FOOTER: usize = 2048;
/// An embed author's name.
pub const EMBED_AUTHOR: usize = 256;
/// All the texts of a message's embeds together (titles, descriptions, field names and values,
/// footers, authors). Not in the description; Discord's documentation (Message resource, Embed
/// Limits: "the combined sum of characters … must not exceed 6000").
pub const EMBED_TOTAL: usize = 6000;

/// Files attached to one message.
pub const ATTACHMENTS: usize = 10;
/// An attachment's description (a picture's alt text).
pub const ATTACHMENT_DESCRIPTION: usize = 1024;
/// An attachment's file name, at least 1 character.
pub const ATTACHMENT_FILENAME: usize = 1024;
/// Bytes of one uploaded file. Not in the description; Discord's documentation (Reference,
/// Uploading Files) sets the default upload limit, for servers without boosts and for direct
/// messages, at 10 MiB, and each interaction carries the limit in force as
/// `attachment_size_limit`.
pub const UPLOAD_BYTES: usize = 10 * 1024 * 1024;

/// A thread's name, at least 1 character.
pub const THREAD_NAME: usize = 100;

/// A command's name (and each of its translations), 1 to 32 characters. Discord's
/// documentation (Application Commands, Application Command Naming) adds what the description
/// does not state: letters, digits, `-`, `_` and `'` only, in lower case where the letter has
/// one ([`command_name_ok`]).
pub const COMMAND_NAME: usize = 32;
/// A command's description (and each of its translations).
pub const COMMAND_DESCRIPTION: usize = 100;
/// Options of a command (or of a subcommand).
pub const COMMAND_OPTIONS: usize = 25;
/// An option's name (and each translation), 1 to 32 characters, named as commands are.
pub const OPTION_NAME: usize = 32;
/// An option's description (and each translation), 1 to 100 characters.
pub const OPTION_DESCRIPTION: usize = 100;
/// A modal's title, 1 to 45 characters.
pub const MODAL_TITLE: usize = 45;

/// What ends a text cut by [`fit`].
pub const ELLIPSIS: char = '…';

/// `text` as it is when it has at most `max` characters; else cut after the last whole
/// grapheme (a letter with its accents, an emoji with its modifiers: never inside one) that
/// leaves room for [`ELLIPSIS`], spaces before the cut dropped, and the ellipsis added.
pub fn fit(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let Some(room) = max.checked_sub(1) else {
        return String::new();
    };
    let mut used = 0;
    let mut end = 0;
    for (at, grapheme) in text.grapheme_indices(true) {
        let n = grapheme.chars().count();
        if used + n > room {
            break;
        }
        used += n;
        end = at + grapheme.len();
    }
    let mut cut = text[..end].trim_end().to_string();
    cut.push(ELLIPSIS);
    cut
}

/// Whether `name` may name a command or an option: 1 to [`COMMAND_NAME`] characters, each a
/// letter, a digit (or a mark that belongs to one), `-`, `_` or `'`, no letter in upper case.
pub fn command_name_ok(name: &str) -> bool {
    let n = name.chars().count();
    (1..=COMMAND_NAME).contains(&n)
        && name.chars().all(|c| {
            (c.is_alphanumeric() || matches!(c, '-' | '_' | '\'') || is_mark(c))
                && !c.is_uppercase()
        })
}

/// Combining marks of the scripts whose letters take them (Devanagari, Thai, kana's voicing
/// marks…), which Discord's naming rule lets through with their letters.
fn is_mark(c: char) -> bool {
    // A mark extends the grapheme before it: alone, it is not a grapheme of its own start.
    let mut s = String::from('a');
    s.push(c);
    s.graphemes(true).count() == 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    /// Each limit the description states, at the place it states it.
    #[test]
    fn the_limits_are_the_ones_discord_states() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/discord/openapi-subset.json"
        );
        let text = std::fs::read_to_string(path).expect("the spec subset");
        let spec: Value = serde_json::from_str(&text).expect("the spec subset is JSON");
        let schemas = "/components/schemas";
        let stated = [
            (CONTENT, "IncomingWebhookInteractionRequest/properties/content/maxLength"),
            (CONTENT, "IncomingWebhookUpdateRequestPartial/properties/content/maxLength"),
            (
                CHOICES,
                "InteractionApplicationCommandAutocompleteCallbackStringData/properties/choices/maxItems",
            ),
            (
                CHOICES,
                "InteractionApplicationCommandAutocompleteCallbackIntegerData/properties/choices/maxItems",
            ),
            (CHOICE_NAME, "ApplicationCommandOptionStringChoice/properties/name/maxLength"),
            (CHOICE_NAME, "ApplicationCommandOptionIntegerChoice/properties/name/maxLength"),
            (CUSTOM_ID, "ButtonComponentForMessageRequest/properties/custom_id/maxLength"),
            (CUSTOM_ID, "StringSelectComponentForMessageRequest/properties/custom_id/maxLength"),
            (BUTTON_LABEL, "ButtonComponentForMessageRequest/properties/label/maxLength"),
            (SELECT_OPTION_LABEL, "StringSelectOptionForRequest/properties/label/maxLength"),
            (SELECT_OPTION_VALUE, "StringSelectOptionForRequest/properties/value/maxLength"),
            (
                SELECT_OPTION_DESCRIPTION,
                "StringSelectOptionForRequest/properties/description/maxLength",
            ),
            (
                SELECT_PLACEHOLDER,
                "StringSelectComponentForMessageRequest/properties/placeholder/maxLength",
            ),
            (SELECT_OPTIONS, "StringSelectComponentForMessageRequest/properties/options/maxItems"),
            (ROW_BUTTONS, "ActionRowComponentForMessageRequest/properties/components/maxItems"),
            (EMBEDS, "MessageCreateRequest/properties/embeds/maxItems"),
            (EMBEDS, "IncomingWebhookInteractionRequest/properties/embeds/maxItems"),
            (EMBED_TITLE, "RichEmbed/properties/title/maxLength"),
            (EMBED_DESCRIPTION, "RichEmbed/properties/description/maxLength"),
            (EMBED_FIELDS, "RichEmbed/properties/fields/maxItems"),
            (EMBED_FIELD_NAME, "RichEmbedField/properties/name/maxLength"),
            (EMBED_FIELD_VALUE, "RichEmbedField/properties/value/maxLength"),
            (EMBED_FOOTER, "RichEmbedFooter/properties/text/maxLength"),
            (EMBED_AUTHOR, "RichEmbedAuthor/properties/name/maxLength"),
            (ATTACHMENTS, "MessageCreateRequest/properties/attachments/maxItems"),
            (ATTACHMENTS, "IncomingWebhookInteractionRequest/properties/attachments/maxItems"),
            (ATTACHMENT_DESCRIPTION, "MessageAttachmentRequest/properties/description/maxLength"),
            (ATTACHMENT_FILENAME, "MessageAttachmentRequest/properties/filename/maxLength"),
            (THREAD_NAME, "CreateTextThreadWithMessageRequest/properties/name/maxLength"),
            (THREAD_NAME, "CreateTextThreadWithoutMessageRequest/properties/name/maxLength"),
            (COMMAND_NAME, "ApplicationCommandUpdateRequest/properties/name/maxLength"),
            (
                COMMAND_NAME,
                "ApplicationCommandUpdateRequest/properties/name_localizations/additionalProperties/maxLength",
            ),
            (COMMAND_DESCRIPTION, "ApplicationCommandUpdateRequest/properties/description/maxLength"),
            (
                COMMAND_DESCRIPTION,
                "ApplicationCommandUpdateRequest/properties/description_localizations/additionalProperties/maxLength",
            ),
            (COMMAND_OPTIONS, "ApplicationCommandUpdateRequest/properties/options/maxItems"),
            (COMMAND_OPTIONS, "ApplicationCommandSubcommandOption/properties/options/maxItems"),
            (OPTION_NAME, "ApplicationCommandStringOption/properties/name/maxLength"),
            (OPTION_NAME, "ApplicationCommandIntegerOption/properties/name/maxLength"),
            (OPTION_DESCRIPTION, "ApplicationCommandStringOption/properties/description/maxLength"),
            (OPTION_DESCRIPTION, "ApplicationCommandIntegerOption/properties/description/maxLength"),
            (MODAL_TITLE, "ModalInteractionCallbackRequestData/properties/title/maxLength"),
        ];
        for (limit, at) in stated {
            let pointer = format!("{schemas}/{at}");
            assert_eq!(
                spec.pointer(&pointer).and_then(Value::as_u64),
                Some(limit as u64),
                "{pointer}"
            );
        }
        // Where the description is looser than Discord's documentation, the documentation's
        // number is kept (and the description's is still what the comment says).
        let looser = [
            (
                CONTENT,
                4000,
                "MessageCreateRequest/properties/content/maxLength",
            ),
            (
                CHOICE_STRING_VALUE,
                6000,
                "ApplicationCommandOptionStringChoice/properties/value/maxLength",
            ),
            (
                ACTION_ROWS,
                40,
                "MessageCreateRequest/properties/components/maxItems",
            ),
        ];
        for (limit, stated, at) in looser {
            let pointer = format!("{schemas}/{at}");
            assert_eq!(
                spec.pointer(&pointer).and_then(Value::as_u64),
                Some(stated),
                "{pointer}"
            );
            assert!(limit < stated as usize, "{pointer}");
        }
    }

    #[test]
    fn a_text_that_fits_is_kept_whole() {
        assert_eq!(fit("#3 EXXIT", 100), "#3 EXXIT");
        let exactly = "x".repeat(100);
        assert_eq!(fit(&exactly, 100), exactly);
    }

    #[test]
    fn a_long_text_is_cut_to_the_limit_with_an_ellipsis() {
        let long = "x".repeat(101);
        let cut = fit(&long, 100);
        assert_eq!(cut.chars().count(), 100);
        assert!(cut.ends_with(ELLIPSIS), "{cut}");
        // Japanese: cut between characters, counted as characters (not bytes).
        let kana = "対局".repeat(60);
        let cut = fit(&kana, CHOICE_NAME);
        assert_eq!(cut.chars().count(), CHOICE_NAME);
        assert!(kana.starts_with(cut.trim_end_matches(ELLIPSIS)));
        // Spaces before the cut are dropped.
        let spaced = format!("{} {}", "a".repeat(98), "b".repeat(10));
        assert_eq!(fit(&spaced, 100), format!("{}…", "a".repeat(98)));
        assert_eq!(fit("abc", 0), "");
        assert_eq!(fit("abc", 1), "…");
    }

    #[test]
    fn a_cut_never_splits_a_grapheme() {
        // "が" written as か + the combining voicing mark, and a flag (two regional indicators):
        // either whole or left out.
        let decomposed = "か\u{3099}".repeat(60);
        let cut = fit(&decomposed, 100);
        assert!(cut.chars().count() <= 100);
        assert!(!cut.trim_end_matches(ELLIPSIS).ends_with('か'), "{cut:?}");
        let flags = format!("{}{}", "x".repeat(98), "🇯🇵🇯🇵");
        let cut = fit(&flags, 100);
        assert_eq!(cut, format!("{}…", "x".repeat(98)));
        let family = format!("{}{}", "x".repeat(97), "👩\u{200d}👩\u{200d}👧 end");
        let cut = fit(&family, 100);
        assert_eq!(cut, format!("{}…", "x".repeat(97)));
    }

    #[test]
    fn command_names_follow_discords_naming_rule() {
        for good in [
            "board",
            "analysis",
            "days_per_move",
            "挑戦",
            "盤を開く",
            "तारीख़",
            "ok'd",
        ] {
            assert!(command_name_ok(good), "{good}");
        }
        for bad in ["", "Board", "two words", "a/b", &"x".repeat(33), "x!"] {
            assert!(!command_name_ok(bad), "{bad}");
        }
    }
}
