//! The options a command receives, checked against their declaration before it runs: Discord
//! sends only the choices, ranges and lengths a command declares, so a value outside them (a
//! choice that is none of the command's, a number out of its range, a text too long, a value of
//! another kind) is forged or stale. It is refused, in the member's language and naming the
//! option, and the command does not run: nothing changes.
//!
//! The declaration read is the one Discord is given at registration
//! ([`poise::CommandParameter::create_as_slash_command_option`]), so the limits are written once,
//! on the command's parameters (`#[min]`, `#[max]`, `#[max_length]`, a choice enum).

use poise::serenity_prelude as serenity;
use serde_json::Value;
use tracing::info;

use super::localise;
use crate::bot::{BotError, Context, Data};
use crate::i18n::{Lang, Text};
use crate::play::Refusal;
use crate::text;

type Parameter = poise::CommandParameter<Data, BotError>;

/// What is wrong with an option's value.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Fault {
    /// None of the option's choices.
    NotAChoice,
    /// A number outside `min..=max`.
    Range { min: Option<f64>, max: Option<f64> },
    /// A text with fewer than `min` or more than `max` characters.
    Length { min: Option<u64>, max: Option<u64> },
    /// Not the kind of value the option takes (a text for a number …).
    Kind,
}

/// The framework's check before every command (not its suggestions): refuses the first option
/// that its declaration does not allow.
pub async fn check(ctx: Context<'_>) -> Result<bool, BotError> {
    let poise::Context::Application(actx) = ctx else {
        return Ok(true);
    };
    if actx.interaction_type == poise::CommandInteractionType::Autocomplete {
        return Ok(true);
    }
    for arg in actx.args {
        let Some(param) = actx
            .command()
            .parameters
            .iter()
            .find(|p| p.name == arg.name)
        else {
            continue;
        };
        if let Some(fault) = declared(param).and_then(|d| fault(&d, &arg.value)) {
            info!(
                command = %actx.command().qualified_name,
                option = %param.name,
                ?fault,
                "an option's value that Discord does not offer"
            );
            return Err(refusal(ctx, param, fault).into());
        }
    }
    Ok(true)
}

/// An option's declaration as Discord is given it (its `type`, `choices`, `min_value` …).
fn declared(param: &Parameter) -> Option<Value> {
    serde_json::to_value(param.create_as_slash_command_option()?).ok()
}

/// What is wrong with `value` for an option declared as `declared`, if anything.
pub(super) fn fault(declared: &Value, value: &serenity::ResolvedValue<'_>) -> Option<Fault> {
    use serenity::ResolvedValue as V;
    // Discord's option types: 3 text, 4 integer, 5 yes/no, 10 number.
    let sent = match value {
        V::String(_) => 3,
        V::Integer(_) => 4,
        V::Boolean(_) => 5,
        V::Number(_) => 10,
        // Members, channels, attachments … are checked by the framework as it reads them.
        _ => return None,
    };
    let kind = declared["type"].as_u64()?;
    if [3, 4, 5, 10].contains(&kind) && kind != sent {
        return Some(Fault::Kind);
    }
    if let Some(choices) = declared["choices"].as_array().filter(|c| !c.is_empty()) {
        let offered = choices.iter().any(|c| match value {
            V::String(s) => c["value"].as_str() == Some(*s),
            V::Integer(n) => c["value"].as_i64() == Some(*n),
            V::Number(x) => c["value"].as_f64() == Some(*x),
            _ => true,
        });
        return (!offered).then_some(Fault::NotAChoice);
    }
    // Bounds are declared as numbers with a fraction (`4.0`), integers' too.
    let (min, max) = (
        declared["min_value"].as_f64(),
        declared["max_value"].as_f64(),
    );
    let x = match value {
        V::Integer(n) => *n as f64,
        V::Number(x) => *x,
        _ => 0.0,
    };
    let outside = matches!(value, V::Integer(_) | V::Number(_))
        && (!x.is_finite() || min.is_some_and(|m| x < m) || max.is_some_and(|m| x > m));
    if outside {
        return Some(Fault::Range { min, max });
    }
    if let V::String(s) = value {
        let (min, max) = (
            declared["min_length"].as_u64(),
            declared["max_length"].as_u64(),
        );
        let n = s.chars().count() as u64;
        if min.is_some_and(|m| n < m) || max.is_some_and(|m| n > m) {
            return Some(Fault::Length { min, max });
        }
    }
    None
}

/// The command as the member typed it, in `lang`: `tournament create`.
pub(crate) fn command_path(ctx: Context<'_>, lang: Lang) -> String {
    ctx.parent_commands()
        .iter()
        .copied()
        .chain([ctx.command()])
        .map(|c| localise::command_name(c, lang))
        .collect::<Vec<_>>()
        .join(" ")
}

/// An option's name as the member's Discord shows it, set in code.
pub(crate) fn option_ref(param: &Parameter, lang: Lang) -> String {
    format!("`{}`", localise::option_name(param, lang))
}

/// The largest integer Discord takes (2^53 - 1): the framework declares it as the bound of an
/// integer option that has none.
const LARGEST: f64 = 9_007_199_254_740_991.0;

/// A bound as the member reads it (`4`, not `4.0`), or none for Discord's own limit.
fn shown(bound: Option<f64>) -> Option<String> {
    bound.filter(|b| b.abs() < LARGEST).map(number)
}

/// A number as the member reads it: `4`, not `4.0`.
fn number(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        (x as i64).to_string()
    } else {
        x.to_string()
    }
}

/// `min..=max` in words (either may be open).
fn range(min: Option<String>, max: Option<String>) -> Text {
    match (min, max) {
        (Some(min), Some(max)) => text!("option-range-between", min = min, max = max),
        (Some(min), None) => text!("option-range-at-least", min = min),
        (None, Some(max)) => text!("option-range-at-most", max = max),
        // Never: a value is outside a range only when the range has a bound.
        (None, None) => Text::raw(""),
    }
}

/// The refusal of `fault` in `param`'s value, for the member who typed the command.
fn refusal(ctx: Context<'_>, param: &Parameter, fault: Fault) -> Refusal {
    let lang = super::lang(&ctx);
    let option = option_ref(param, lang);
    let command = command_path(ctx, lang);
    Refusal::new(match fault {
        Fault::NotAChoice => text!("option-not-a-choice", option = option, command = command),
        Fault::Range { min, max } => text!(
            "option-out-of-range",
            option = option,
            command = command,
            range = range(shown(min), shown(max))
        ),
        Fault::Length { min, max } => text!(
            "option-bad-length",
            option = option,
            command = command,
            range = range(min.map(|n| n.to_string()), max.map(|n| n.to_string()))
        ),
        Fault::Kind => text!("option-unreadable", option = option, command = command),
    })
}

/// The option of this command whose value reads `input` (one the framework could not read), as
/// the member's Discord names it.
pub(crate) fn option_of_input(ctx: Context<'_>, input: &str, lang: Lang) -> Option<String> {
    use serenity::ResolvedValue as V;
    let poise::Context::Application(actx) = ctx else {
        return None;
    };
    let arg = actx.args.iter().find(|a| match &a.value {
        V::String(s) => *s == input,
        V::Integer(n) => n.to_string() == input,
        V::Number(x) => x.to_string() == input,
        V::Boolean(b) => b.to_string() == input,
        _ => false,
    })?;
    let param = actx
        .command()
        .parameters
        .iter()
        .find(|p| p.name == arg.name)?;
    Some(option_ref(param, lang))
}

#[cfg(test)]
mod tests {
    use super::*;
    use poise::serenity_prelude::ResolvedValue as V;

    /// The declaration of option `option` of command `path` (`tournament create`), as registered.
    fn declaration(path: &str, option: &str) -> Value {
        let commands = super::super::all();
        let mut names = path.split(' ');
        let first = names.next().unwrap_or_default();
        let mut command = commands
            .iter()
            .find(|c| c.name == first)
            .unwrap_or_else(|| panic!("no /{first}"));
        for sub in names {
            command = command
                .subcommands
                .iter()
                .find(|c| c.name == sub)
                .unwrap_or_else(|| panic!("no /{path}"));
        }
        let param = command
            .parameters
            .iter()
            .find(|p| p.name == option)
            .unwrap_or_else(|| panic!("no {option} in /{path}"));
        declared(param).unwrap_or_else(|| panic!("{option} of /{path} is not declared"))
    }

    #[test]
    fn choices_out_of_their_list_are_faults() {
        for (path, option, count) in [
            ("challenge", "days_per_move", 4),
            ("challenge", "clock", 4),
            ("challenge", "game", 2),
            ("challenge", "tiles", 3),
            ("play", "level", 4),
            ("settings", "notifications", 3),
            ("tournament create", "clock", 4),
        ] {
            let d = declaration(path, option);
            for n in 0..count {
                assert_eq!(fault(&d, &V::Integer(n)), None, "{path} {option} {n}");
            }
            for n in [count, 99, -1, 10000, i64::MIN, i64::MAX] {
                assert_eq!(
                    fault(&d, &V::Integer(n)),
                    Some(Fault::NotAChoice),
                    "{path} {option} {n}"
                );
            }
            assert_eq!(fault(&d, &V::String("1")), Some(Fault::Kind));
        }
    }

    #[test]
    fn numbers_out_of_their_range_and_texts_too_long_are_faults() {
        let size = declaration("challenge", "size");
        for n in 4..=11 {
            assert_eq!(fault(&size, &V::Integer(n)), None);
        }
        for n in [3, 12, -1, 99, 10000] {
            assert_eq!(
                fault(&size, &V::Integer(n)),
                Some(Fault::Range {
                    min: Some(4.0),
                    max: Some(11.0)
                }),
                "{n}"
            );
        }
        let page = declaration("leaderboard", "page");
        assert_eq!(fault(&page, &V::Integer(10000)), None);
        assert_eq!(
            fault(&page, &V::Integer(0)),
            Some(Fault::Range {
                min: Some(1.0),
                max: Some(LARGEST)
            })
        );
        assert_eq!(fault(&page, &V::Boolean(true)), Some(Fault::Kind));
        let name = declaration("tournament create", "name");
        assert_eq!(fault(&name, &V::String(&"x".repeat(80))), None);
        assert_eq!(
            fault(&name, &V::String(&"x".repeat(81))),
            Some(Fault::Length {
                min: None,
                max: Some(80)
            })
        );
        assert_eq!(fault(&name, &V::Integer(3)), Some(Fault::Kind));
    }

    /// Every option of every command has a declaration the check reads.
    #[test]
    fn bounds_read_as_written() {
        assert_eq!(number(4.0), "4");
        assert_eq!(number(-1.0), "-1");
        assert_eq!(number(0.5), "0.5");
        assert_eq!(shown(Some(LARGEST)), None);
        assert_eq!(shown(Some(-LARGEST)), None);
        assert_eq!(shown(Some(720.0)).as_deref(), Some("720"));
    }

    #[test]
    fn every_option_has_a_declaration_to_check() {
        fn all_params(c: &poise::Command<Data, BotError>, out: &mut Vec<Value>) {
            out.extend(c.parameters.iter().map(|p| {
                declared(p).unwrap_or_else(|| panic!("{} of /{}", p.name, c.qualified_name))
            }));
            for sub in &c.subcommands {
                all_params(sub, out);
            }
        }
        let mut params = Vec::new();
        for c in super::super::all() {
            all_params(&c, &mut params);
        }
        assert!(params.len() > 30, "{}", params.len());
        assert!(params.iter().all(|d| d["type"].as_u64().is_some()));
    }
}
