//! Every text a person reads, in their language: Project Fluent bundles built from the `.ftl`
//! files under `assets/locales/<language>/` (embedded in the binary, parsed once at start).
//!
//! A language is a folder: adding `assets/locales/fr/` adds French, with no code to change.
//! Texts are [`Text`] values — a message id and its arguments — made where the words are decided
//! and rendered where the reader is known ([`Text::render`]), so one action's answer reads in
//! the language of whoever receives it. A language that lacks a message falls back to English.
//!
//! # Which language
//!
//! - An answer only the member sees (a refusal, the picker, `/move` suggestions): their Discord
//!   client's language (`ctx.locale()`).
//! - A public message (a challenge, a board, a result, a moderator notice): the server's, as
//!   [`crate::play::server_lang`] gives it: the one moderators chose with `/server language`, else
//!   the server's Discord language as last seen.
//! - A direct message (a turn notice, a reminder, a delivery problem): the member's language as
//!   last seen ([`crate::play::member_lang`]). A queued announcement stores its language, and its
//!   picture and buttons follow it.
//!
//! # The files
//!
//! Each language folder holds `bot.ftl` (answers, announcements, buttons, menus), `commands.ftl`
//! (command, option and choice names and descriptions, read by `bot::commands::localise` before the
//! commands are registered, and the commands' answers), `render.ftl` (the words drawn in pictures)
//! `rules.ftl` (`/rules`) and `page.ftl` (every word of the web page, `assets/web/`, read
//! without variables and sent to the page with its game's state). Bidirectional isolation marks are off, so mentions, code spans and
//! links reach Discord untouched. Tests check that every language has the same message ids and
//! variables, that every message renders in every language, that every id the code uses exists,
//! and, end to end, that a Japanese server reads Japanese boards, buttons, menus and refusals while
//! an English member gets English answers. Putting an answer into words costs about 30 µs. A
//! mention of a member who had their data deleted reads "a former member"
//! ([`note_former_members`]), and the place of a game matched across servers, which is no
//! channel, reads "your direct messages" ([`crate::play::seats::IN_DIRECT`]). How to
//! add a text or a language: see [the crate's front page](crate).

use std::borrow::Cow;
use std::sync::OnceLock;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use include_dir::{include_dir, Dir};
use unic_langid::LanguageIdentifier;

/// The `.ftl` files, one folder per language.
static LOCALES: Dir<'_> = include_dir!("$CARGO_MANIFEST_DIR/assets/locales");

/// The language every text exists in, and the fallback for any other.
pub const FALLBACK: &str = "en-US";

type Bundle = FluentBundle<FluentResource>;

/// The languages, each with its bundle; the fallback first.
pub struct Catalog {
    langs: Vec<(String, Bundle)>,
    /// Each language's message ids, in the order of its files.
    ids: Vec<Vec<String>>,
}

/// A language the bot speaks (an index into the catalog; the default is English).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Lang(usize);

static CATALOG: OnceLock<Catalog> = OnceLock::new();

/// Parses every language (call once at start, so a broken file stops the bot at once).
pub fn load() -> Result<&'static Catalog, String> {
    if let Some(c) = CATALOG.get() {
        return Ok(c);
    }
    let built = Catalog::build()?;
    Ok(CATALOG.get_or_init(|| built))
}

/// The catalog (parsed on first use when [`load`] was not called).
pub fn catalog() -> &'static Catalog {
    CATALOG.get_or_init(|| match Catalog::build() {
        Ok(c) => c,
        Err(e) => {
            // The files are embedded and checked by the tests: this is a build gone wrong.
            tracing::error!("the locale files do not load: {e}");
            Catalog {
                langs: Vec::new(),
                ids: Vec::new(),
            }
        }
    })
}

impl Catalog {
    fn build() -> Result<Catalog, String> {
        let mut langs = Vec::new();
        for dir in LOCALES.dirs() {
            let tag = dir
                .path()
                .file_name()
                .and_then(|n| n.to_str())
                .ok_or_else(|| format!("bad locale folder {:?}", dir.path()))?;
            let id: LanguageIdentifier = tag
                .parse()
                .map_err(|e| format!("locale folder `{tag}`: {e}"))?;
            let mut bundle = Bundle::new_concurrent(vec![id]);
            // Mentions, code spans and links must reach Discord untouched.
            bundle.set_use_isolating(false);
            let mut files: Vec<_> = dir
                .files()
                .filter(|f| f.path().extension().is_some_and(|e| e == "ftl"))
                .collect();
            files.sort_by_key(|f| f.path());
            let mut ids = Vec::new();
            for file in files {
                let text = file
                    .contents_utf8()
                    .ok_or_else(|| format!("{:?} is not UTF-8", file.path()))?;
                let resource = FluentResource::try_new(text.to_string())
                    .map_err(|(_, errors)| format!("{:?}: {errors:?}", file.path()))?;
                ids.extend(resource.entries().filter_map(|entry| match entry {
                    fluent_syntax::ast::Entry::Message(m) => Some(m.id.name.to_string()),
                    _ => None,
                }));
                bundle
                    .add_resource(resource)
                    .map_err(|errors| format!("{:?}: {errors:?}", file.path()))?;
            }
            langs.push(((tag.to_string(), bundle), ids));
        }
        langs.sort_by_key(|((tag, _), _)| (tag != FALLBACK, tag.clone()));
        if langs.first().map(|((t, _), _)| t.as_str()) != Some(FALLBACK) {
            return Err(format!("no `{FALLBACK}` folder under assets/locales"));
        }
        let (langs, ids) = langs.into_iter().unzip();
        Ok(Catalog { langs, ids })
    }

    /// The languages' tags, the fallback first.
    pub fn tags(&self) -> impl Iterator<Item = &str> {
        self.langs.iter().map(|(t, _)| t.as_str())
    }

    /// The ids of `lang`'s messages that start with `prefix`, in the order of its files.
    pub fn message_ids<'a>(
        &'a self,
        lang: Lang,
        prefix: &'a str,
    ) -> impl Iterator<Item = &'a str> + 'a {
        self.ids
            .get(lang.0)
            .into_iter()
            .flatten()
            .map(String::as_str)
            .filter(move |id| id.starts_with(prefix))
    }

    /// Every language but the fallback.
    pub fn others(&self) -> impl Iterator<Item = Lang> + '_ {
        (1..self.langs.len()).map(Lang)
    }

    /// The language for a Discord locale (`ja`, `en-GB`, `pt-BR` …): the same tag, else the same
    /// language, else English.
    pub fn lang(&self, locale: &str) -> Lang {
        let primary = |t: &str| t.split('-').next().unwrap_or("").to_ascii_lowercase();
        self.langs
            .iter()
            .position(|(t, _)| t.eq_ignore_ascii_case(locale))
            .or_else(|| {
                self.langs
                    .iter()
                    .position(|(t, _)| primary(t) == primary(locale))
            })
            .map(Lang)
            .unwrap_or_default()
    }

    fn format(
        &self,
        lang: Lang,
        id: &str,
        attr: Option<&str>,
        args: Option<&FluentArgs>,
    ) -> Option<String> {
        let (_, bundle) = self.langs.get(lang.0)?;
        let message = bundle.get_message(id)?;
        let pattern = match attr {
            Some(a) => message.get_attribute(a)?.value(),
            None => message.value()?,
        };
        let mut errors = Vec::new();
        let text = bundle.format_pattern(pattern, args, &mut errors);
        if !errors.is_empty() {
            tracing::warn!(
                id,
                lang = self.langs[lang.0].0,
                "a text has errors: {errors:?}"
            );
        }
        Some(text.into_owned())
    }

    /// Message `id` (or its attribute `attr`) in `lang`, else in English; the bare id (logged)
    /// when no language has it.
    pub fn get(
        &self,
        lang: Lang,
        id: &str,
        attr: Option<&str>,
        args: Option<&FluentArgs>,
    ) -> String {
        self.format(lang, id, attr, args)
            .or_else(|| self.format(Lang::default(), id, attr, args))
            .unwrap_or_else(|| {
                tracing::warn!(id, "no text has this message id");
                id.to_string()
            })
    }

    /// Message `id` (or its attribute) in `lang` only: `None` where that language lacks it.
    pub fn get_exact(&self, lang: Lang, id: &str, attr: Option<&str>) -> Option<String> {
        self.format(lang, id, attr, None)
    }
}

impl Lang {
    /// English, the fallback.
    pub const EN: Lang = Lang(0);

    /// The language for a Discord locale.
    pub fn of(locale: &str) -> Lang {
        catalog().lang(locale)
    }

    /// Its tag (`en-US`, `ja`), as Discord names locales.
    pub fn tag(self) -> &'static str {
        catalog()
            .langs
            .get(self.0)
            .map_or(FALLBACK, |(t, _)| t.as_str())
    }
}

/// An argument of a [`Text`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arg {
    Str(String),
    Num(i64),
    /// A text rendered in the same language (a result inside a sentence …).
    Text(Box<Text>),
}

macro_rules! arg_from_numbers {
    ($($t:ty),*) => {$(
        impl From<$t> for Arg {
            fn from(n: $t) -> Arg {
                Arg::Num(i64::try_from(n).unwrap_or(i64::MAX))
            }
        }
    )*};
}
arg_from_numbers!(i64, i32, u32, u64, usize, u8, u16);

impl From<String> for Arg {
    fn from(s: String) -> Arg {
        Arg::Str(s)
    }
}

impl From<&String> for Arg {
    fn from(s: &String) -> Arg {
        Arg::Str(s.clone())
    }
}

impl From<&str> for Arg {
    fn from(s: &str) -> Arg {
        Arg::Str(s.to_string())
    }
}

impl From<Text> for Arg {
    fn from(t: Text) -> Arg {
        Arg::Text(Box::new(t))
    }
}

/// A text to show: a message id of the `.ftl` files and its arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Text {
    pub id: Cow<'static, str>,
    pub args: Vec<(&'static str, Arg)>,
}

impl std::fmt::Display for Text {
    /// In English (for logs).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.render(Lang::EN))
    }
}

impl Text {
    /// Words not (yet) in the `.ftl` files, shown as they are in every language.
    pub fn raw(text: impl Into<String>) -> Text {
        Text {
            id: Cow::Borrowed(""),
            args: vec![("raw", Arg::Str(text.into()))],
        }
    }

    pub fn new(id: &'static str) -> Text {
        Text {
            id: Cow::Borrowed(id),
            args: Vec::new(),
        }
    }

    /// A text whose message id is made at run time (one per item of a list, as
    /// `privacy-table-<table>`): where it is made, a test checks that every id exists.
    pub fn dynamic(id: String) -> Text {
        Text {
            id: Cow::Owned(id),
            args: Vec::new(),
        }
    }

    /// The same text with one more argument.
    pub fn with(mut self, name: &'static str, value: impl Into<Arg>) -> Text {
        self.args.push((name, value.into()));
        self
    }

    /// The text in `lang`.
    pub fn render(&self, lang: Lang) -> String {
        if self.id.is_empty() {
            return match self.args.first() {
                Some((_, Arg::Str(s))) => unmention_former(lang, s),
                _ => String::new(),
            };
        }
        let mut args = FluentArgs::new();
        for (name, value) in &self.args {
            let v: FluentValue = match value {
                Arg::Str(s) => unmention_former(lang, s).into(),
                Arg::Num(n) => (*n).into(),
                Arg::Text(t) => t.render(lang).into(),
            };
            args.set(*name, v);
        }
        let out = catalog().get(lang, &self.id, None, Some(&args));
        name_direct_place(lang, out)
    }
}

/// `s` with each mention of the place of the games matched across servers
/// ([`crate::play::seats::IN_DIRECT`], no channel) replaced by "your direct messages" in `lang`.
fn name_direct_place(lang: Lang, s: String) -> String {
    let place = format!("<#{}>", crate::play::seats::IN_DIRECT);
    match s.contains(&place) {
        true => s.replace(&place, &tr(lang, "place-direct")),
        false => s,
    }
}

/// The members who had their data deleted, by user id ([`note_former_members`]).
fn former_members() -> &'static std::sync::RwLock<std::collections::HashSet<u64>> {
    static FORMER: OnceLock<std::sync::RwLock<std::collections::HashSet<u64>>> = OnceLock::new();
    FORMER.get_or_init(Default::default)
}

/// Adds members who had their data deleted (`/privacy`, [`crate::db::forget_member`]): a
/// mention of one (`<@id>`) in a text's argument then reads "a former member" in the reader's
/// language, wherever the text names them. Called by the deletion itself and, for deletions made
/// by other processes, by the timers' scan; a member who comes back is taken out when their name
/// is stored again ([`note_member_returned`]).
pub fn note_former_members(ids: impl IntoIterator<Item = u64>) {
    let mut set = match former_members().write() {
        Ok(set) => set,
        Err(poisoned) => poisoned.into_inner(),
    };
    set.extend(ids);
}

/// A member who had their data deleted uses hexcord again: they are named again.
pub fn note_member_returned(id: u64) {
    let mut set = match former_members().write() {
        Ok(set) => set,
        Err(poisoned) => poisoned.into_inner(),
    };
    set.remove(&id);
}

/// `s` with each mention of a former member replaced by "a former member" in `lang`.
fn unmention_former(lang: Lang, s: &str) -> String {
    if !s.contains("<@") {
        return s.to_string();
    }
    let set = match former_members().read() {
        Ok(set) => set,
        Err(poisoned) => poisoned.into_inner(),
    };
    if set.is_empty() {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(at) = rest.find("<@") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        let id = after[..digits].parse::<u64>().ok();
        match (id, after[digits..].starts_with('>')) {
            (Some(id), true) if set.contains(&id) => {
                out.push_str(&tr(lang, "former-member"));
                rest = &after[digits + 1..];
            }
            _ => {
                out.push_str("<@");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// A [`Text`]: `text!` with a message id, then `name = value` for each argument.
#[macro_export]
macro_rules! text {
    ($id:literal $(, $name:ident = $value:expr)* $(,)?) => {
        $crate::i18n::Text::new($id)$(.with(stringify!($name), $value))*
    };
}

/// The longest part of a member's input a text repeats, in characters.
pub const EXCERPT_CHARS: usize = 40;

/// What a text repeats of a member's input: trimmed, on one line, without backticks (which would
/// end the code span it is shown in), and cut to [`EXCERPT_CHARS`] characters with "…", so that
/// an answer quoting it always fits in a message.
pub fn excerpt(input: &str) -> String {
    excerpt_to(input, EXCERPT_CHARS)
}

/// [`excerpt`] cut to `chars` characters: for a reason that may quote the input at length.
pub fn excerpt_to(input: &str, chars: usize) -> String {
    let clean: String = input
        .trim()
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .filter(|&c| c != '`')
        .collect();
    match clean.char_indices().nth(chars) {
        Some((cut, _)) => format!("{}…", &clean[..cut]),
        None => clean,
    }
}

/// Message `id` in `lang`, without arguments.
pub fn tr(lang: Lang, id: &'static str) -> String {
    Text::new(id).render(lang)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{BTreeMap, BTreeSet};

    use fluent_syntax::ast;

    #[test]
    fn excerpts_are_short_and_safe_in_a_code_span() {
        assert_eq!(excerpt("  c3 "), "c3");
        assert_eq!(excerpt("a`b\nc"), "ab c");
        let long = "x".repeat(3000);
        let e = excerpt(&long);
        assert_eq!(e.chars().count(), EXCERPT_CHARS + 1);
        assert!(e.ends_with('…'));
        // Cut on a character, never inside one.
        let kana = "あ".repeat(100);
        assert_eq!(excerpt(&kana).chars().count(), EXCERPT_CHARS + 1);
    }

    /// Message ids (with attributes as `id.attr`) and the variables each uses, of one language.
    fn messages(tag: &str) -> BTreeMap<String, BTreeSet<String>> {
        fn vars_of_pattern(p: &ast::Pattern<&str>, out: &mut BTreeSet<String>) {
            for el in &p.elements {
                if let ast::PatternElement::Placeable { expression } = el {
                    vars_of_expression(expression, out);
                }
            }
        }
        fn vars_of_expression(e: &ast::Expression<&str>, out: &mut BTreeSet<String>) {
            match e {
                ast::Expression::Select { selector, variants } => {
                    vars_of_inline(selector, out);
                    for v in variants {
                        vars_of_pattern(&v.value, out);
                    }
                }
                ast::Expression::Inline(i) => vars_of_inline(i, out),
            }
        }
        fn vars_of_inline(i: &ast::InlineExpression<&str>, out: &mut BTreeSet<String>) {
            match i {
                ast::InlineExpression::VariableReference { id } => {
                    out.insert(id.name.to_string());
                }
                ast::InlineExpression::Placeable { expression } => {
                    vars_of_expression(expression, out)
                }
                ast::InlineExpression::FunctionReference { arguments, .. } => {
                    for a in &arguments.positional {
                        vars_of_inline(a, out);
                    }
                }
                _ => {}
            }
        }
        let dir = LOCALES.get_dir(tag).expect("the language's folder");
        let mut out = BTreeMap::new();
        for file in dir.files() {
            let source = file.contents_utf8().expect("UTF-8");
            let res = fluent_syntax::parser::parse(source)
                .unwrap_or_else(|(_, e)| panic!("{:?}: {e:?}", file.path()));
            for entry in res.body {
                if let ast::Entry::Message(m) = entry {
                    let mut vars = BTreeSet::new();
                    if let Some(v) = &m.value {
                        vars_of_pattern(v, &mut vars);
                    }
                    assert!(
                        out.insert(m.id.name.to_string(), vars).is_none(),
                        "{tag}: `{}` twice",
                        m.id.name
                    );
                    for a in &m.attributes {
                        let mut vars = BTreeSet::new();
                        vars_of_pattern(&a.value, &mut vars);
                        out.insert(format!("{}.{}", m.id.name, a.id.name), vars);
                    }
                }
            }
        }
        out
    }

    #[test]
    fn every_language_has_the_same_messages_and_variables() {
        let en = messages(FALLBACK);
        assert!(!en.is_empty(), "{en:?}");
        let catalog = load().expect("the locale files load");
        let mut others = 0;
        for tag in catalog.tags().filter(|&t| t != FALLBACK) {
            others += 1;
            let other = messages(tag);
            let missing: Vec<_> = en.keys().filter(|k| !other.contains_key(*k)).collect();
            let extra: Vec<_> = other.keys().filter(|k| !en.contains_key(*k)).collect();
            assert!(missing.is_empty(), "{tag} lacks {missing:?}");
            assert!(extra.is_empty(), "{tag} has unknown {extra:?}");
            for (id, vars) in &en {
                assert_eq!(&other[id], vars, "{tag}: the variables of `{id}`");
            }
        }
        assert!(others >= 1, "Japanese at least");
    }

    #[test]
    fn every_message_id_used_in_the_code_exists() {
        // Every `text!("…"` and `tr(…, "…")` of src/ names a message of the English file.
        let en = messages(FALLBACK);
        let mut used = BTreeSet::new();
        let mut stack = vec![std::path::PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/src"
        ))];
        while let Some(p) = stack.pop() {
            for e in std::fs::read_dir(&p).expect("src") {
                let path = e.expect("entry").path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|x| x == "rs") {
                    let source = std::fs::read_to_string(&path).expect("source");
                    // Code only: documentation may show the macro with a placeholder id.
                    let code: String = source
                        .lines()
                        .filter(|l| !l.trim_start().starts_with("//"))
                        .collect::<Vec<_>>()
                        .join("\n");
                    for (i, _) in code.match_indices("text!(\"") {
                        let rest = &code[i + 7..];
                        if let Some(end) = rest.find('"') {
                            used.insert(rest[..end].to_string());
                        }
                    }
                }
            }
        }
        used.remove("…");
        assert!(!used.is_empty());
        let unknown: Vec<_> = used.iter().filter(|u| !en.contains_key(*u)).collect();
        assert!(
            unknown.is_empty(),
            "message ids used but not defined: {unknown:?}"
        );
    }

    /// A mention of a member who had their data deleted reads "a former member" in the reader's
    /// language, inside any text; other mentions and look-alikes stay as they are.
    #[test]
    fn a_former_member_is_named_so_in_every_text() {
        let former = 987_654_321_000_001_u64;
        note_former_members([former]);
        let t = crate::text!(
            "option-unreadable",
            option = format!("<@{former}> <@1> <@{former}x <@"),
            command = "move3"
        );
        let en = t.render(Lang::EN);
        assert!(
            en.contains("a former member <@1> <@987654321000001x <@")
                && !en.contains(&format!("<@{former}>")),
            "{en}"
        );
        assert!(t.render(Lang::of("ja")).contains("元メンバー <@1>"));
        assert_eq!(
            Text::raw(format!("<@{former}>")).render(Lang::EN),
            "a former member"
        );
        note_member_returned(former);
        assert!(t.render(Lang::EN).contains(&format!("<@{former}> <@1>")));
    }

    #[test]
    fn languages_are_chosen_from_discord_locales() {
        let c = load().expect("the locale files load");
        assert_eq!(c.lang("ja").tag(), "ja");
        assert_eq!(c.lang("en-GB").tag(), "en-US");
        assert_eq!(
            c.lang("pt-BR").tag(),
            "en-US",
            "a language without a file: English"
        );
        assert_eq!(c.lang("").tag(), "en-US");
    }

    #[test]
    fn texts_render_with_their_arguments_and_fall_back() {
        let t = crate::text!("option-unreadable", option = "<@1>", command = "move3");
        let en = t.render(Lang::EN);
        assert!(en.contains("<@1>") && en.contains("move3"), "{en}");
        assert!(!en.contains('\u{2068}'), "no isolation marks: {en:?}");
        let ja = t.render(Lang::of("ja"));
        assert!(ja.contains("<@1>") && ja != en, "{ja}");
        assert_eq!(
            Text::new("no-such-message").render(Lang::EN),
            "no-such-message"
        );
    }

    /// A sample value for variable `name` of a Japanese message: words where the code passes
    /// Japanese words, a mention where it passes a member, else a number.
    fn japanese_sample(name: &str) -> &'static str {
        match name {
            "colour" => "白",
            "level" => "ふつう",
            "result" => "白の勝ち（連結）",
            "state" | "status" => "進行中",
            "words" => "b3 にディスクを置く",
            "language" => "日本語",
            "format" => "総当たり",
            "rated" => "レーティング対象",
            "range" => "1から3まで",
            "left" => "3日",
            "how" => "（連結）",
            "error" | "why" => "合法手ではありません",
            "when" => "開始時",
            "title" => "inpHeXion",
            "who" | "opponent" | "challenger" | "name" | "a" | "b" | "winner" | "loser"
            | "other" | "asker" | "player" | "white" | "black" | "to_move" | "first" | "second" => {
                "<@1>"
            }
            _ => "7",
        }
    }

    /// A Japanese character: kana, kanji, or full-width punctuation.
    fn is_japanese(c: char) -> bool {
        matches!(c, '\u{3000}'..='\u{30ff}' | '\u{4e00}'..='\u{9fff}' | '\u{ff00}'..='\u{ffef}')
    }

    /// What reads wrong in a Japanese text: a space between Japanese words, a space between a
    /// number and its counter, an English command or option name, the ordinal 第N手 (the texts
    /// say N手目), or another spelling of ゾンネボーン.
    fn japanese_faults(
        text: &str,
        commands: &BTreeSet<String>,
        options: &BTreeSet<String>,
    ) -> Vec<String> {
        let mut faults = Vec::new();
        // Spaces inside a code span are what the member types (`/サーバー スレッド`).
        let prose: String = text
            .split('`')
            .enumerate()
            .map(|(i, part)| if i % 2 == 0 { part } else { "x" })
            .collect();
        let chars: Vec<char> = prose.chars().collect();
        for (i, w) in chars.windows(3).enumerate() {
            if w[1] == ' ' && is_japanese(w[0]) && is_japanese(w[2]) && !matches!(w[0], '？' | '！')
            {
                faults.push(format!("a space in `{}`", w.iter().collect::<String>()));
            }
            if w[0].is_ascii_digit()
                && w[1] == ' '
                && "手局日件人点枚時週分秒回行文ラペマ".contains(w[2])
            {
                faults.push(format!(
                    "a space before a counter in `{}`",
                    w.iter().collect::<String>()
                ));
            }
            if w[0] == '第' && w[1] == ' ' {
                faults.push("a space after 第".to_string());
            }
            if w[0] == '第' {
                let rest: String = chars[i + 1..]
                    .iter()
                    .take_while(|c| c.is_ascii_digit() || matches!(c, ' ' | '*'))
                    .collect();
                if chars.get(i + 1 + rest.chars().count()) == Some(&'手') {
                    faults.push("第N手 (the texts say N手目)".to_string());
                }
            }
        }
        // Japanese punctuation after Japanese words: `：`, not `: ` (`12手目: …`).
        for w in chars.windows(2) {
            if is_japanese(w[0]) && w[1] == ':' {
                faults.push(format!(
                    "an ASCII colon in `{}`",
                    w.iter().collect::<String>()
                ));
            }
        }
        if text.contains("ゾンネボルン") {
            faults.push("ゾンネボルン (the texts say ゾンネボーン)".to_string());
        }
        let word_end =
            |rest: &str| !rest.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_');
        for name in commands {
            let cited = format!("/{name}");
            if text
                .match_indices(&cited)
                .any(|(at, _)| word_end(&text[at + cited.len()..]))
            {
                faults.push(format!("the English command `{cited}`"));
            }
        }
        for name in options {
            if text.contains(&format!("`{name}`")) || text.contains(&format!(" {name}:")) {
                faults.push(format!("the English option `{name}`"));
            }
        }
        faults
    }

    /// Every English text, rendered, has no stray space: none doubled, none before a stop or a
    /// comma or after an opening bracket.
    #[test]
    fn english_texts_have_no_stray_spaces() {
        let c = load().expect("the locale files load");
        let mut faults = Vec::new();
        for (id, vars) in messages("en-US") {
            let (message, attr) = match id.split_once('.') {
                Some((message, attr)) => (message, Some(attr)),
                None => (id.as_str(), None),
            };
            let mut args = FluentArgs::new();
            for v in &vars {
                let sample = match v.as_str() {
                    "words" | "mv" | "played" | "better" => "Place a disc on b3",
                    "who" | "name" | "a" | "b" | "first" | "second" => "<@1>",
                    _ => "7",
                };
                args.set(v.clone(), sample);
            }
            let text = c
                .format(Lang::EN, message, attr, Some(&args))
                .unwrap_or_else(|| panic!("en: `{id}` renders"));
            let prose: String = text
                .split('`')
                .enumerate()
                .filter(|(i, _)| i % 2 == 0)
                .map(|(_, part)| part)
                .collect::<Vec<_>>()
                .join("x");
            for bad in ["  ", " .", " ,", " :", " ;", " )", "( "] {
                if prose.lines().any(|l| l.trim_start().contains(bad)) {
                    faults.push(format!("{id}: `{bad}` in {text}"));
                }
            }
        }
        assert!(faults.is_empty(), "{}", faults.join("\n"));
    }

    /// A message that quotes a move in notation (a code span holding `mv`, `played` or
    /// `better`) says it in words too (`words`, from `play::picker::describe`): notation alone
    /// is for players who read the rules' coordinates, not for every reader. The one exception is
    /// `caption-notation`, the small print under `caption-played`, which says the move in words.
    #[test]
    fn moves_are_cited_in_words() {
        let c = load().expect("the locale files load");
        let (notation, words) = ("z9-y9", "Push the disc on z9 to y9");
        let mut faults = Vec::new();
        let mut quoting = 0;
        for tag in [FALLBACK, "ja"] {
            let lang = Lang::of(tag);
            for (id, vars) in messages(tag) {
                let (message, attr) = match id.split_once('.') {
                    Some((message, attr)) => (message, Some(attr)),
                    None => (id.as_str(), None),
                };
                let mut args = FluentArgs::new();
                for v in &vars {
                    let sample = match v.as_str() {
                        "mv" | "played" | "better" => notation,
                        "words" => words,
                        _ => "7",
                    };
                    args.set(v.clone(), sample);
                }
                let text = c
                    .format(lang, message, attr, Some(&args))
                    .unwrap_or_else(|| panic!("{tag}: `{id}` renders"));
                if !text.contains(&format!("`{notation}`")) {
                    continue;
                }
                quoting += 1;
                if !text.contains(words) && id != "caption-notation" {
                    faults.push(format!("{tag}: {id}: notation without words: {text}"));
                }
            }
        }
        // The small print, the picker's confirmation and the answer to a move, in each language.
        assert!(quoting >= 6, "{quoting} texts quote a move");
        assert!(faults.is_empty(), "{}", faults.join("\n"));
    }

    #[test]
    fn japanese_texts_read_as_japanese() {
        let c = load().expect("the locale files load");
        let ja = Lang::of("ja");
        assert_eq!(ja.tag(), "ja");
        // The English names, from the English catalogue, so that a new command is checked too.
        let (mut commands, mut options) = (BTreeSet::new(), BTreeSet::new());
        for id in c.message_ids(Lang::EN, "") {
            let Some(name) = c.get_exact(Lang::EN, id, Some("name")) else {
                continue;
            };
            if id.starts_with("cmd-") || id == "entry-point" {
                commands.insert(name);
            } else if id.starts_with("opt-") {
                options.insert(name);
            }
        }
        assert!(
            commands.contains("board") && options.contains("opponent"),
            "{commands:?} {options:?}"
        );
        let mut faults = Vec::new();
        let mut rendered = 0;
        for (id, vars) in messages("ja") {
            let (message, attr) = match id.split_once('.') {
                Some((message, attr)) => (message, Some(attr)),
                None => (id.as_str(), None),
            };
            let mut args = FluentArgs::new();
            for v in &vars {
                args.set(v.clone(), japanese_sample(v));
            }
            let text = c
                .format(ja, message, attr, Some(&args))
                .unwrap_or_else(|| panic!("ja: `{id}` renders"));
            rendered += 1;
            for fault in japanese_faults(&text, &commands, &options) {
                faults.push(format!("{id}: {fault}: {text}"));
            }
        }
        assert!(rendered > 300, "{rendered} texts");
        assert!(
            faults.is_empty(),
            "{} faults:\n{}",
            faults.len(),
            faults.join("\n")
        );
    }
}
