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
    let c = catalog();
    for command in commands {
        let name = command.name.to_string();
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

    #[test]
    fn names_and_descriptions_are_read_in_a_language() {
        let commands = super::super::all();
        let challenge = commands.iter().find(|c| c.name == "challenge").unwrap();
        assert_eq!(command_name(challenge, Lang::EN), "challenge");
        assert_eq!(command_name(challenge, ja()), "挑戦");
        assert!(command_description(challenge, ja()).contains("対局"));
        assert_eq!(option_name(&challenge.parameters[0], ja()), "相手");
    }
}
