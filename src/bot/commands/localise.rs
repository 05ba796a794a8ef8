//! The commands as Discord shows them, in every language, from the `.ftl` files
//! (`commands.ftl`): applied to [`super::all`] before registration.
//!
//! Message ids: `cmd-<command>` is a command's description and its `.name` attribute its
//! name; `opt-<command>-<option>` the same for an option; `choice-<option>-<n>` the name of an
//! option's n-th choice. English descriptions and choice names replace the code's; English
//! names stay the code's (the code reads options by them), and a test checks that the files
//! agree with them.

use std::borrow::Cow;

use crate::bot::{BotError, Data};
use crate::i18n::{catalog, Lang};

type Command = poise::Command<Data, BotError>;

fn command_id(command: &str) -> String {
    format!("cmd-{command}")
}

fn option_id(command: &str, option: &str) -> String {
    format!("opt-{command}-{option}")
}

fn choice_id(option: &str, index: usize) -> String {
    format!("choice-{option}-{index}")
}

/// Sets every command's English descriptions and choice names, and adds the localised names and
/// descriptions of every other language.
pub fn localise(commands: &mut [Command]) {
    for command in commands {
        let key = command.name.to_string();
        localise_one(command, &key);
    }
}

/// One command (`key`: its name, or `command-subcommand` for a subcommand) and its
/// subcommands.
fn localise_one(command: &mut Command, key: &str) {
    let c = catalog();
    {
        let name = key.to_string();
        let id = command_id(&name);
        if let Some(d) = c.get_exact(Lang::EN, &id, None) {
            command.description = Some(d.into());
        }
        for lang in c.others() {
            let tag = Cow::Borrowed(lang.tag());
            if let Some(n) = c.get_exact(lang, &id, Some("name")) {
                command
                    .name_localizations
                    .to_mut()
                    .push((tag.clone(), n.into()));
            }
            if let Some(d) = c.get_exact(lang, &id, None) {
                command
                    .description_localizations
                    .to_mut()
                    .push((tag, d.into()));
            }
        }
        for p in &mut command.parameters {
            let id = option_id(&name, &p.name);
            if let Some(d) = c.get_exact(Lang::EN, &id, None) {
                p.description = Some(d.into());
            }
            let option = p.name.to_string();
            for (i, choice) in p.choices.to_mut().iter_mut().enumerate() {
                let id = choice_id(&option, i);
                if let Some(n) = c.get_exact(Lang::EN, &id, None) {
                    choice.name = n.into();
                }
                for lang in c.others() {
                    if let Some(n) = c.get_exact(lang, &id, None) {
                        choice
                            .localizations
                            .to_mut()
                            .push((Cow::Borrowed(lang.tag()), n.into()));
                    }
                }
            }
            for lang in c.others() {
                let tag = Cow::Borrowed(lang.tag());
                if let Some(n) = c.get_exact(lang, &id, Some("name")) {
                    p.name_localizations.to_mut().push((tag.clone(), n.into()));
                }
                if let Some(d) = c.get_exact(lang, &id, None) {
                    p.description_localizations.to_mut().push((tag, d.into()));
                }
            }
        }
    }
    for sub in &mut command.subcommands {
        let sub_key = format!("{key}-{}", sub.name);
        localise_one(sub, &sub_key);
    }
}

/// A command's name in `lang` (its Discord localisation, else its name).
pub fn command_name(command: &Command, lang: Lang) -> &str {
    localised(&command.name_localizations, lang).unwrap_or(&command.name)
}

/// A command's description in `lang`.
pub fn command_description(command: &Command, lang: Lang) -> &str {
    localised(&command.description_localizations, lang)
        .or(command.description.as_deref())
        .unwrap_or("")
}

/// An option's name in `lang`.
pub fn option_name(option: &poise::CommandParameter<Data, BotError>, lang: Lang) -> &str {
    localised(&option.name_localizations, lang).unwrap_or(&option.name)
}

fn localised<'a>(
    list: &'a [(Cow<'static, str>, Cow<'static, str>)],
    lang: Lang,
) -> Option<&'a str> {
    list.iter()
        .find(|(tag, _)| tag == lang.tag())
        .map(|(_, text)| text.as_ref())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// Discord's rule for command and option names: lowercase letters and digits of any
    /// script, `-` and `_`, 1 to 32 characters.
    fn valid_name(name: &str) -> bool {
        let n = name.chars().count();
        (1..=32).contains(&n)
            && name == name.to_lowercase()
            && name
                .chars()
                .all(|c| c == '-' || c == '_' || c.is_alphanumeric())
    }

    fn valid_text(text: &str) -> bool {
        (1..=100).contains(&text.chars().count())
    }

    fn ja() -> Lang {
        let ja = Lang::of("ja");
        assert_eq!(ja.tag(), "ja");
        ja
    }

    fn get(list: &[(Cow<'static, str>, Cow<'static, str>)], tag: &str) -> Option<String> {
        list.iter()
            .find(|(t, _)| t == tag)
            .map(|(_, v)| v.to_string())
    }

    #[test]
    fn every_command_option_and_choice_has_its_japanese_localisation() {
        let commands = super::super::all();
        let mut command_names = BTreeSet::new();
        for c in &commands {
            let name = get(&c.name_localizations, "ja").unwrap_or_default();
            assert!(valid_name(&name), "/{}: `{name}`", c.name);
            assert!(
                command_names.insert(name.clone()),
                "/{}: `{name}` twice",
                c.name
            );
            let desc = get(&c.description_localizations, "ja").unwrap_or_default();
            assert!(valid_text(&desc), "/{}: `{desc}`", c.name);
            assert!(
                valid_text(c.description.as_deref().unwrap_or("")),
                "/{}",
                c.name
            );
            for p in &c.parameters {
                let desc = p.description.as_deref().unwrap_or("");
                assert!(valid_text(desc), "/{} {}", c.name, p.name);
            }
            let mut option_names = BTreeSet::new();
            for p in &c.parameters {
                let name = get(&p.name_localizations, "ja").unwrap_or_default();
                assert!(valid_name(&name), "/{} {}: `{name}`", c.name, p.name);
                assert!(
                    option_names.insert(name.clone()),
                    "/{}: `{name}` twice",
                    c.name
                );
                let desc = get(&p.description_localizations, "ja").unwrap_or_default();
                assert!(valid_text(&desc), "/{} {}: `{desc}`", c.name, p.name);
                for choice in p.choices.iter() {
                    let name = get(&choice.localizations, "ja").unwrap_or_default();
                    assert!(valid_text(&name), "/{} {}: `{name}`", c.name, p.name);
                    assert!(valid_text(&choice.name), "/{} {}", c.name, p.name);
                }
            }
        }
        assert_eq!(command_names.len(), commands.len());
    }

    /// Every command a text cites (`/name option:value` in backticks) is named as that language
    /// registers it: the command's name and its options' names in the same language.
    #[test]
    fn texts_cite_commands_by_their_registered_names() {
        let commands = super::super::all();
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/locales");
        let mut cited = 0;
        for lang_dir in std::fs::read_dir(dir).expect("locales") {
            let lang_dir = lang_dir.expect("a language").path();
            let tag = lang_dir
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or("")
                .to_string();
            let lang = Lang::of(&tag);
            for file in std::fs::read_dir(&lang_dir).expect("files") {
                let path = file.expect("a file").path();
                let text = std::fs::read_to_string(&path).expect("ftl");
                for (i, quoted) in text.split('`').enumerate() {
                    // Odd pieces are inside backticks.
                    let Some(call) = quoted.strip_prefix('/').filter(|_| i % 2 == 1) else {
                        continue;
                    };
                    if call.starts_with('{') {
                        continue; // a placeable: the code passes the localised name
                    }
                    // Placeables (`{ $id }`) stand for values: left out.
                    let mut bare = String::new();
                    let mut depth = 0;
                    for ch in call.chars() {
                        match ch {
                            '{' => depth += 1,
                            '}' => depth -= 1,
                            _ if depth == 0 => bare.push(ch),
                            _ => {}
                        }
                    }
                    let mut words = bare.split_whitespace();
                    let name = words.next().unwrap_or("");
                    let command = commands
                        .iter()
                        .find(|c| command_name(c, lang) == name)
                        .unwrap_or_else(|| {
                            panic!("{}: `/{call}` cites no {tag} command", path.display())
                        });
                    for word in words {
                        let option = word.split(':').next().unwrap_or("");
                        assert!(
                            command
                                .parameters
                                .iter()
                                .any(|p| option_name(p, lang) == option),
                            "{}: `/{call}`: /{name} has no {tag} option `{option}`",
                            path.display()
                        );
                    }
                    cited += 1;
                }
            }
        }
        assert!(cited > 20, "{cited} commands cited");
    }

    /// Every message of the files is a command, option or choice of the code, and the English
    /// names are the code's.
    #[test]
    fn the_files_name_the_commands_of_the_code() {
        let c = catalog();
        for command in super::super::all() {
            let id = command_id(&command.name);
            assert_eq!(
                c.get_exact(Lang::EN, &id, Some("name")).as_deref(),
                Some(command.name.as_ref()),
                "{id}.name"
            );
            assert!(c.get_exact(ja(), &id, None).is_some(), "{id}");
            for p in &command.parameters {
                let id = option_id(&command.name, &p.name);
                assert_eq!(
                    c.get_exact(Lang::EN, &id, Some("name")).as_deref(),
                    Some(p.name.as_ref()),
                    "{id}.name"
                );
                assert_eq!(
                    c.get_exact(Lang::EN, &id, None).as_deref(),
                    p.description.as_deref(),
                    "{id}"
                );
                for i in 0..p.choices.len() {
                    let id = choice_id(&p.name, i);
                    assert!(c.get_exact(Lang::EN, &id, None).is_some(), "{id}");
                }
                assert!(
                    c.get_exact(Lang::EN, &choice_id(&p.name, p.choices.len()), None)
                        .is_none()
                        || p.choices.is_empty(),
                    "more choices in the files than in /{} {}",
                    command.name,
                    p.name
                );
            }
        }
    }

    /// The `.ftl` files of the commands, by language.
    fn files() -> [(&'static str, &'static str); 4] {
        [
            (
                "en-US",
                include_str!("../../../assets/locales/en-US/commands.ftl"),
            ),
            (
                "en-US",
                include_str!("../../../assets/locales/en-US/rules.ftl"),
            ),
            (
                "ja",
                include_str!("../../../assets/locales/ja/commands.ftl"),
            ),
            ("ja", include_str!("../../../assets/locales/ja/rules.ftl")),
        ]
    }

    /// Each message of the files with the variables it uses.
    fn messages(source: &str) -> Vec<(String, BTreeSet<String>)> {
        let res = fluent_syntax::parser::parse(source).expect("the file parses");
        let mut out = Vec::new();
        for entry in res.body {
            if let fluent_syntax::ast::Entry::Message(m) = entry {
                let mut vars = BTreeSet::new();
                let text = source;
                // Variables as written (`$name`), from the id to the next line that is not
                // indented (nor a select's end).
                let start = text.find(&format!("\n{} =", m.id.name)).unwrap_or(0) + 1;
                let end = text[start..]
                    .match_indices('\n')
                    .map(|(i, _)| start + i)
                    .find(|&i| !text[i + 1..].starts_with([' ', '}']))
                    .unwrap_or(text.len());
                for (i, _) in text[start..end].match_indices('$') {
                    let name: String = text[start + i + 1..]
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
                        .collect();
                    vars.insert(name);
                }
                out.push((m.id.name.to_string(), vars));
            }
        }
        out
    }

    fn has_japanese(text: &str) -> bool {
        text.chars().any(|c| {
            matches!(c, '\u{3040}'..='\u{30ff}' | '\u{4e00}'..='\u{9fff}' | '\u{ff00}'..='\u{ffef}')
        })
    }

    /// Every message renders whole with its arguments (no variable left, no bare id), and the
    /// Japanese one has Japanese words and no English sentence.
    #[test]
    fn every_message_renders_in_every_language() {
        for (tag, source) in files() {
            let lang = Lang::of(tag);
            for (id, vars) in messages(source) {
                let mut args = fluent_bundle::FluentArgs::new();
                for v in &vars {
                    args.set(v.clone(), fluent_bundle::FluentValue::from(2));
                }
                let text = catalog().get(lang, &id, None, Some(&args));
                assert!(!text.is_empty() && text != id, "{tag} {id}");
                assert!(
                    !text.contains('{') && !text.contains('$'),
                    "{tag} {id}: {text}"
                );
                // A name (a game's) may read the same in both.
                let same = text == catalog().get(Lang::EN, &id, None, Some(&args));
                if tag == "ja" && !same && !id.starts_with("cmd-") && !id.starts_with("opt-") {
                    assert!(has_japanese(&text), "{tag} {id}: {text}");
                }
                if tag == "ja" {
                    for word in ["the ", " you", " game", " move", "Your "] {
                        assert!(!text.contains(word), "{tag} {id}: {text}");
                    }
                }
            }
        }
    }

    /// `source` with each reference to another message (`{ cmd-board.name }`) replaced by
    /// that message in `lang`.
    fn with_references_resolved(source: &str, lang: Lang) -> String {
        let mut out = String::new();
        let mut rest = source;
        while let Some(start) = rest.find("{ ") {
            let Some(len) = rest[start..].find(" }") else {
                break;
            };
            let inner = &rest[start + 2..start + len];
            if inner.contains(char::is_whitespace) {
                // Not a reference: a selector (`{ $rated ->`) or a placeable further on.
                out.push_str(&rest[..start + 2]);
                rest = &rest[start + 2..];
                continue;
            }
            let (id, attr) = match inner.split_once('.') {
                Some((id, attr)) => (id, Some(attr)),
                None => (inner, None),
            };
            out.push_str(&rest[..start]);
            match catalog().get_exact(lang, id, attr) {
                Some(text) if !inner.starts_with('$') => out.push_str(&text),
                _ => out.push_str(&rest[start..start + len + 2]),
            }
            rest = &rest[start + len + 2..];
        }
        out.push_str(rest);
        out
    }

    /// A command named in a text (`/name option`) is a command of that language, with that
    /// option.
    #[test]
    fn texts_name_commands_as_that_language_does() {
        let commands = super::super::all();
        for (tag, source) in files() {
            let lang = Lang::of(tag);
            let texts: String = source
                .lines()
                .filter(|l| !l.starts_with('#'))
                .collect::<Vec<_>>()
                .join("\n");
            let texts = with_references_resolved(&texts, lang);
            let source = texts.as_str();
            for (i, _) in source.match_indices("`/") {
                let quoted = &source[i + 2..];
                let quoted = &quoted[..quoted.find('`').expect("a closed code span")];
                let mut words = quoted.split(' ');
                let name = words.next().unwrap_or("");
                let command = commands
                    .iter()
                    .find(|c| command_name(c, lang) == name)
                    .unwrap_or_else(|| panic!("{tag}: no command `/{name}`"));
                if let Some(option) = words.next() {
                    assert!(
                        command
                            .parameters
                            .iter()
                            .any(|p| option_name(p, lang) == option)
                            || command
                                .subcommands
                                .iter()
                                .any(|s| command_name(s, lang) == option),
                        "{tag}: `/{quoted}`"
                    );
                }
            }
        }
    }

    #[test]
    fn english_answers_read_as_before() {
        let exxit = crate::games::Options::parse_line("exxit tiles=39 pie").unwrap();
        let challenge = crate::text!(
            "answer-challenge",
            opponent = "<@2>",
            challenger = "<@1>",
            options = crate::play::words::variant(&exxit),
            rated = "yes",
            clock = crate::play::words::time_control(
                crate::time_control::TimeControl::PerMove { seconds: 86_400 },
                false
            ),
            colour = "Silver",
            hours = 24
        );
        assert_eq!(
            challenge.render(Lang::EN),
            "<@2>, <@1> challenges you to **EXXIT 39 tiles, pie rule**, rated, 1 day per move. \
             <@1> plays Silver and moves first.\nAccept or decline below (open for 24 hours)."
        );
        let in_ja = challenge.render(ja());
        assert!(
            in_ja.starts_with(
                "<@2>、<@1> から **EXXIT タイル 39枚、パイルール** の対局の申し込みです。"
            ),
            "{in_ja}"
        );
        let profile = crate::text!(
            "answer-profile-rating",
            rating = "1500",
            deviation = "350",
            provisional = "yes",
            games = 1,
            wins = 1,
            losses = 0,
            draws = 0
        );
        assert_eq!(
            profile.render(Lang::EN),
            "**1500** ±350 (provisional)\n1 game: 1 won, 0 lost, 0 drawn"
        );
        let line = crate::text!(
            "answer-recent-line",
            game = 3,
            title = "EXXIT",
            opponent = "<@2>",
            verdict = "lost",
            result = "34–25",
            rated = "no"
        );
        assert_eq!(
            line.render(Lang::EN),
            "#3 EXXIT vs <@2>: lost (34–25), unrated"
        );
        let games =
            crate::text!("answer-suggest-game", game = 4, title = "EXXIT", move = 7, mine = "yes");
        assert_eq!(games.render(Lang::EN), "#4 EXXIT, move 7, your move");
        let games =
            crate::text!("answer-suggest-game", game = 4, title = "EXXIT", move = 7, mine = "no");
        assert_eq!(games.render(Lang::EN), "#4 EXXIT, move 7");
        let rules = crate::i18n::tr(Lang::EN, "rules-exxit");
        assert!(
            rules.starts_with("**EXXIT** — build") && rules.contains("\n**Moves**"),
            "{rules}"
        );
        let rules = crate::i18n::tr(ja(), "rules-exxit");
        assert!(
            rules.starts_with("**EXXIT")
                && rules.contains("破壊ダンス")
                && rules.contains("外宇宙"),
            "{rules}"
        );
    }

    #[test]
    fn names_and_descriptions_are_read_in_a_language() {
        let commands = super::super::all();
        let challenge = commands.iter().find(|c| c.name == "challenge").unwrap();
        assert_eq!(command_name(challenge, Lang::EN), "challenge");
        assert_eq!(command_name(challenge, ja()), "挑戦");
        assert!(command_description(challenge, ja()).contains("対局"));
        let opponent = challenge
            .parameters
            .iter()
            .find(|p| p.name == "opponent")
            .unwrap();
        assert_eq!(option_name(opponent, ja()), "相手");
        assert!(challenge.parameters[0].required && !opponent.required);
        // Discord refuses a command whose required options do not come first.
        for c in &commands {
            let optional = c.parameters.iter().skip_while(|p| p.required);
            for p in optional {
                assert!(
                    !p.required,
                    "/{}: `{}` after an optional option",
                    c.name, p.name
                );
            }
        }
    }

    /// A pass is "passed", not "played the move pass", in both languages.
    #[test]
    fn a_pass_is_confirmed_as_a_pass() {
        let played = |words: &str, mv: &str| {
            crate::text!(
                "you-played",
                words = words,
                mv = mv,
                game = 4,
                n = 12,
                place = "9"
            )
        };
        let pass = played("パス", "pass").render(ja());
        assert!(pass.contains("対局 #4 の12手目にパスしました。"), "{pass}");
        assert!(!pass.contains("`pass`"), "{pass}");
        let disc = played("c3 に置く", "c3").render(ja());
        assert!(
            disc.contains("対局 #4 の12手目を指しました：c3 に置く（`c3`）。"),
            "{disc}"
        );
        let en = played("pass", "pass").render(Lang::EN);
        assert!(en.starts_with("You passed in game #4, move 12."), "{en}");
    }
}
