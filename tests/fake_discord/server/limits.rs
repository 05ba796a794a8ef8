//! Discord's limits on what a bot sends, checked on every request the bot makes: messages and
//! their edits, interaction answers and follow-ups, autocomplete answers, command
//! registrations, threads, and the files attached. The numbers are the bot's own
//! (`hexcord::bot::limits`, each checked there against Discord's OpenAPI description); the walk
//! covers what the spec check misses: limits Discord enforces more tightly than the description
//! states (a message's 2,000 characters, a string suggestion's value, five action rows, the
//! embeds' total, upload sizes, command names), mention markup where Discord shows it as digits
//! (suggestions, buttons, menus, thread names), and an Entry Point command in a server's
//! registration, which Discord refuses.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use hexcord::bot::limits as l;
use serde_json::{json, Value};

/// Every breach of Discord's limits in a request to `path` (under `/api/v10`) with `body` (its
/// JSON, or a multipart request's `payload_json`) and `files` (part name, bytes).
pub(super) fn breaches(
    method: &str,
    path: &str,
    body: Option<&Value>,
    files: &[(String, Vec<u8>)],
) -> Vec<String> {
    let mut walk = Walk {
        at: format!("{method} {path}"),
        found: Vec::new(),
    };
    if files.len() > l::ATTACHMENTS {
        walk.breach(
            "",
            format!("{} files (at most {})", files.len(), l::ATTACHMENTS),
        );
    }
    for (name, bytes) in files {
        if bytes.len() > l::UPLOAD_BYTES {
            walk.breach(
                name,
                format!("{} bytes (at most {})", bytes.len(), l::UPLOAD_BYTES),
            );
        }
    }
    let null = Value::Null;
    let body = body.unwrap_or(&null);
    let segs: Vec<&str> = path.trim_matches('/').split('/').collect();
    match (method, segs.as_slice()) {
        ("PUT", ["applications", _, "guilds", _, "commands"]) => {
            for (i, c) in items(body).enumerate() {
                if c["type"].as_u64() == Some(4) {
                    walk.breach(
                        &format!("/{i}"),
                        "an Entry Point command (type 4) in a server's registration: Discord \
                         takes it only globally"
                            .into(),
                    );
                }
                walk.command(&format!("/{i}"), c);
            }
        }
        ("PUT", ["applications", _, "commands"]) => {
            for (i, c) in items(body).enumerate() {
                walk.command(&format!("/{i}"), c);
            }
        }
        ("POST", ["interactions", _, _, "callback"]) => {
            let data = &body["data"];
            match body["type"].as_u64() {
                Some(8) => walk.choices("/data/choices", &data["choices"], l::CHOICES),
                Some(9) => {
                    walk.text("/data/title", &data["title"], 1, l::MODAL_TITLE);
                    walk.text("/data/custom_id", &data["custom_id"], 1, l::CUSTOM_ID);
                }
                _ if data.is_object() => walk.message("/data", data),
                _ => {}
            }
        }
        ("POST", ["webhooks", ..])
        | ("PATCH", ["webhooks", ..])
        | ("POST", ["channels", _, "messages"])
        | ("PATCH", ["channels", _, "messages", _]) => walk.message("", body),
        ("POST", ["channels", _, "threads"])
        | ("POST", ["channels", _, "messages", _, "threads"]) => {
            walk.label("/name", &body["name"], 1, l::THREAD_NAME);
        }
        ("PATCH", ["channels", _]) if !body["name"].is_null() => {
            walk.label("/name", &body["name"], 1, l::THREAD_NAME);
        }
        _ => {}
    }
    walk.found
}

/// Whether a server's registration carries an Entry Point command.
pub(super) fn entry_point_in(body: &Value) -> bool {
    items(body).any(|c| c["type"].as_u64() == Some(4))
}

/// Discord's answer to an Entry Point command in a server's registration.
pub(super) fn entry_point_refused() -> Response {
    (
        StatusCode::BAD_REQUEST,
        Json(json!({
            "message": "Invalid Form Body", "code": 50035,
            "errors": {"0": {"type": {"_errors": [{
                "code": "APPLICATION_COMMAND_TYPE_INVALID",
                "message": "Primary entry point commands can only be created globally"
            }]}}}
        })),
    )
        .into_response()
}

fn items(v: &Value) -> impl Iterator<Item = &Value> {
    v.as_array().into_iter().flatten()
}

/// Characters, as Discord counts a text's length.
fn chars(s: &str) -> usize {
    s.chars().count()
}

/// Whether `s` holds mention markup (`<@1>`, `<@!1>`, `<@&1>`, `<#1>`), which Discord renders
/// only in a message's text.
fn has_mention(s: &str) -> bool {
    s.match_indices('<').any(|(i, _)| {
        let rest = &s[i + 1..];
        let Some(rest) = rest
            .strip_prefix("@!")
            .or_else(|| rest.strip_prefix("@&"))
            .or_else(|| rest.strip_prefix('@'))
            .or_else(|| rest.strip_prefix('#'))
        else {
            return false;
        };
        let digits = rest.chars().take_while(char::is_ascii_digit).count();
        digits > 0 && rest[digits..].starts_with('>')
    })
}

struct Walk {
    at: String,
    found: Vec<String>,
}

impl Walk {
    fn breach(&mut self, at: &str, why: String) {
        self.found
            .push(format!("{} body{at}: {why} (Discord's limits)", self.at));
    }

    /// A text, when present, of `min` to `max` characters.
    fn text(&mut self, at: &str, v: &Value, min: usize, max: usize) {
        if let Some(s) = v.as_str() {
            let n = chars(s);
            if n < min || n > max {
                self.breach(at, format!("{n} characters (from {min} to {max}): {s:?}"));
            }
        }
    }

    /// A text shown as plain words (a label, a name): [`Walk::text`] and no mention markup.
    fn label(&mut self, at: &str, v: &Value, min: usize, max: usize) {
        self.text(at, v, min, max);
        if let Some(s) = v.as_str().filter(|s| has_mention(s)) {
            self.breach(
                at,
                format!("mention markup where Discord shows its digits: {s:?}"),
            );
        }
    }

    /// At most `max` items, when present.
    fn count(&mut self, at: &str, v: &Value, max: usize) {
        if let Some(list) = v.as_array().filter(|list| list.len() > max) {
            self.breach(at, format!("{} items (at most {max})", list.len()));
        }
    }

    /// Choices: an autocomplete answer's or a command option's.
    fn choices(&mut self, at: &str, v: &Value, max: usize) {
        self.count(at, v, max);
        for (i, c) in items(v).enumerate() {
            let here = format!("{at}/{i}");
            self.label(&format!("{here}/name"), &c["name"], 1, l::CHOICE_NAME);
            self.text(
                &format!("{here}/value"),
                &c["value"],
                0,
                l::CHOICE_STRING_VALUE,
            );
            for (lang, name) in c["name_localizations"].as_object().into_iter().flatten() {
                self.label(
                    &format!("{here}/name_localizations/{lang}"),
                    name,
                    1,
                    l::CHOICE_NAME,
                );
            }
        }
    }

    /// A command or an option's name (and translations) and description (and translations).
    fn names(&mut self, at: &str, c: &Value, name_max: usize, description: (usize, usize)) {
        let mut names: Vec<(String, &Value)> = vec![(format!("{at}/name"), &c["name"])];
        for (lang, name) in c["name_localizations"].as_object().into_iter().flatten() {
            names.push((format!("{at}/name_localizations/{lang}"), name));
        }
        for (here, name) in names {
            match name.as_str() {
                Some(s) if l::command_name_ok(s) && chars(s) <= name_max => {}
                _ => self.breach(&here, format!("not a command or option name: {name}")),
            }
        }
        let (min, max) = description;
        self.text(&format!("{at}/description"), &c["description"], min, max);
        for (lang, d) in c["description_localizations"]
            .as_object()
            .into_iter()
            .flatten()
        {
            self.text(&format!("{at}/description_localizations/{lang}"), d, 1, max);
        }
    }

    /// A command in a registration, its options and theirs.
    fn command(&mut self, at: &str, c: &Value) {
        // A slash command needs a description; an Entry Point's may be empty.
        let min = usize::from(c["type"].as_u64().unwrap_or(1) == 1);
        self.names(at, c, l::COMMAND_NAME, (min, l::COMMAND_DESCRIPTION));
        self.options(&format!("{at}/options"), &c["options"]);
    }

    fn options(&mut self, at: &str, v: &Value) {
        self.count(at, v, l::COMMAND_OPTIONS);
        for (i, o) in items(v).enumerate() {
            let here = format!("{at}/{i}");
            self.names(&here, o, l::OPTION_NAME, (1, l::OPTION_DESCRIPTION));
            self.choices(&format!("{here}/choices"), &o["choices"], l::CHOICES);
            self.options(&format!("{here}/options"), &o["options"]);
        }
    }

    /// A message: its text, embeds, components and attachments.
    fn message(&mut self, at: &str, m: &Value) {
        self.text(&format!("{at}/content"), &m["content"], 0, l::CONTENT);
        self.embeds(&format!("{at}/embeds"), &m["embeds"]);
        let rows = format!("{at}/components");
        self.count(&rows, &m["components"], l::ACTION_ROWS);
        for (i, row) in items(&m["components"]).enumerate() {
            let row_at = format!("{rows}/{i}/components");
            let parts = &row["components"];
            let buttons = items(parts).filter(|c| c["type"] == 2).count();
            if buttons > l::ROW_BUTTONS {
                self.breach(
                    &row_at,
                    format!("{buttons} buttons (at most {})", l::ROW_BUTTONS),
                );
            }
            for (j, c) in items(parts).enumerate() {
                self.component(&format!("{row_at}/{j}"), c);
            }
        }
        let files = format!("{at}/attachments");
        self.count(&files, &m["attachments"], l::ATTACHMENTS);
        for (i, a) in items(&m["attachments"]).enumerate() {
            let here = format!("{files}/{i}");
            self.text(
                &format!("{here}/description"),
                &a["description"],
                0,
                l::ATTACHMENT_DESCRIPTION,
            );
            self.text(
                &format!("{here}/filename"),
                &a["filename"],
                1,
                l::ATTACHMENT_FILENAME,
            );
        }
    }

    /// A button or a select menu.
    fn component(&mut self, at: &str, c: &Value) {
        self.text(&format!("{at}/custom_id"), &c["custom_id"], 1, l::CUSTOM_ID);
        match c["type"].as_u64() {
            Some(2) => self.label(&format!("{at}/label"), &c["label"], 0, l::BUTTON_LABEL),
            Some(3..=8) => {
                self.label(
                    &format!("{at}/placeholder"),
                    &c["placeholder"],
                    0,
                    l::SELECT_PLACEHOLDER,
                );
                let options = format!("{at}/options");
                self.count(&options, &c["options"], l::SELECT_OPTIONS);
                for (i, o) in items(&c["options"]).enumerate() {
                    let here = format!("{options}/{i}");
                    self.label(
                        &format!("{here}/label"),
                        &o["label"],
                        1,
                        l::SELECT_OPTION_LABEL,
                    );
                    self.text(
                        &format!("{here}/value"),
                        &o["value"],
                        1,
                        l::SELECT_OPTION_VALUE,
                    );
                    self.label(
                        &format!("{here}/description"),
                        &o["description"],
                        0,
                        l::SELECT_OPTION_DESCRIPTION,
                    );
                }
            }
            _ => {}
        }
    }

    /// Embeds: each text within its limit, and all of them together within the total.
    fn embeds(&mut self, at: &str, v: &Value) {
        self.count(at, v, l::EMBEDS);
        let mut total = 0;
        let mut text = |walk: &mut Walk, here: String, v: &Value, max: usize| {
            walk.text(&here, v, 0, max);
            total += v.as_str().map_or(0, chars);
        };
        for (i, e) in items(v).enumerate() {
            let here = format!("{at}/{i}");
            text(self, format!("{here}/title"), &e["title"], l::EMBED_TITLE);
            text(
                self,
                format!("{here}/description"),
                &e["description"],
                l::EMBED_DESCRIPTION,
            );
            text(
                self,
                format!("{here}/footer/text"),
                &e["footer"]["text"],
                l::EMBED_FOOTER,
            );
            text(
                self,
                format!("{here}/author/name"),
                &e["author"]["name"],
                l::EMBED_AUTHOR,
            );
            self.count(&format!("{here}/fields"), &e["fields"], l::EMBED_FIELDS);
            for (j, f) in items(&e["fields"]).enumerate() {
                let field = format!("{here}/fields/{j}");
                text(
                    self,
                    format!("{field}/name"),
                    &f["name"],
                    l::EMBED_FIELD_NAME,
                );
                text(
                    self,
                    format!("{field}/value"),
                    &f["value"],
                    l::EMBED_FIELD_VALUE,
                );
            }
        }
        if total > l::EMBED_TOTAL {
            self.breach(
                at,
                format!(
                    "{total} characters in the embeds together (at most {})",
                    l::EMBED_TOTAL
                ),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn autocomplete(label: &str) -> Value {
        json!({"type": 8, "data": {"choices": [{"name": label, "value": "3"}]}})
    }

    fn found(method: &str, path: &str, body: &Value) -> Vec<String> {
        breaches(method, path, Some(body), &[])
    }

    const CALLBACK: &str = "/interactions/1/token/callback";

    #[test]
    fn an_autocomplete_label_past_100_characters_is_a_breach() {
        assert!(found("POST", CALLBACK, &autocomplete(&"x".repeat(100))).is_empty());
        let long = found("POST", CALLBACK, &autocomplete(&"x".repeat(101)));
        assert_eq!(long.len(), 1, "{long:?}");
        assert!(long[0].contains("/data/choices/0/name"), "{long:?}");
        assert_eq!(found("POST", CALLBACK, &autocomplete("")).len(), 1);
        let mention = found(
            "POST",
            CALLBACK,
            &autocomplete("#3 <@930000000000000001> won"),
        );
        assert!(mention[0].contains("mention markup"), "{mention:?}");
        let many: Vec<Value> = (0..26).map(|i| json!({"name": "a", "value": i})).collect();
        let many = json!({"type": 8, "data": {"choices": many}});
        assert_eq!(found("POST", CALLBACK, &many).len(), 1);
        let value =
            json!({"type": 8, "data": {"choices": [{"name": "a", "value": "v".repeat(101)}]}});
        assert_eq!(found("POST", CALLBACK, &value).len(), 1);
    }

    #[test]
    fn messages_are_walked_wherever_they_are_sent() {
        let long = json!({"content": "x".repeat(2001)});
        for (method, path) in [
            ("POST", "/channels/1/messages"),
            ("PATCH", "/channels/1/messages/2"),
            ("POST", "/webhooks/1/token"),
            ("PATCH", "/webhooks/1/token/messages/@original"),
        ] {
            assert_eq!(found(method, path, &long).len(), 1, "{method} {path}");
        }
        let answer = json!({"type": 4, "data": long});
        assert_eq!(found("POST", CALLBACK, &answer).len(), 1);
        let button =
            |label: &str| json!({"type": 2, "style": 1, "label": label, "custom_id": "hx:a"});
        let rows = |n: usize, per_row: usize| {
            json!({"content": "a", "components": (0..n).map(|_| json!({"type": 1,
                "components": (0..per_row).map(|_| button("ok")).collect::<Vec<_>>()}))
                .collect::<Vec<_>>()})
        };
        assert!(found("POST", "/channels/1/messages", &rows(5, 5)).is_empty());
        assert_eq!(found("POST", "/channels/1/messages", &rows(6, 1)).len(), 1);
        assert_eq!(found("POST", "/channels/1/messages", &rows(1, 6)).len(), 1);
        let label = json!({"components": [{"type": 1, "components": [button(&"b".repeat(81))]}]});
        assert_eq!(found("POST", "/channels/1/messages", &label).len(), 1);
        let menu = json!({"components": [{"type": 1, "components": [{"type": 3, "custom_id": "hx:p",
            "placeholder": "p".repeat(151),
            "options": [{"label": "l".repeat(101), "value": "v"}]}]}]});
        assert_eq!(found("POST", "/channels/1/messages", &menu).len(), 2);
        let alt = json!({"attachments": [{"id": 0, "filename": "a.png", "description": "d".repeat(1025)}]});
        assert_eq!(found("POST", "/webhooks/1/token", &alt).len(), 1);
        let embed = json!({"embeds": [{"title": "t".repeat(257), "description": "d".repeat(4096),
            "fields": [{"name": "n", "value": "v".repeat(1025)}, {"name": "n", "value": "v".repeat(1000)}]}]});
        // The title, the first field's value, and the total.
        assert_eq!(found("POST", "/channels/1/messages", &embed).len(), 3);
        let big = vec![("files[0]".to_string(), vec![0u8; l::UPLOAD_BYTES + 1])];
        assert_eq!(
            breaches("POST", "/channels/1/messages", Some(&json!({})), &big).len(),
            1
        );
    }

    #[test]
    fn registrations_threads_and_names_are_walked() {
        let command = |kind: u64, name: &str| {
            json!({"name": name, "type": kind, "description": "Show a board",
                   "options": [{"type": 3, "name": "game", "description": "Which game"}]})
        };
        let global = "/applications/1/commands";
        let guild = "/applications/1/guilds/2/commands";
        let list = json!([command(1, "board"), command(4, "launch")]);
        assert!(found("PUT", global, &list).is_empty());
        assert!(entry_point_in(&list));
        assert_eq!(found("PUT", guild, &list).len(), 1);
        assert!(found("PUT", guild, &json!([command(1, "board")])).is_empty());
        assert_eq!(found("PUT", global, &json!([command(1, "Board")])).len(), 1);
        let thread = json!({"name": "n".repeat(101)});
        assert_eq!(found("POST", "/channels/1/threads", &thread).len(), 1);
        assert_eq!(
            found(
                "POST",
                "/channels/1/messages/2/threads",
                &json!({"name": "#3 <@12> vs <@13>"})
            )
            .len(),
            1
        );
        assert!(has_mention("a <#123> b") && has_mention("<@!5>") && has_mention("<@&5>"));
        assert!(!has_mention("a < b") && !has_mention("<@>") && !has_mention("<@x>"));
    }
}
