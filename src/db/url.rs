//! Database URLs as they may be shown: never with their password, which is hidden by the URL's
//! grammar however it is written (unencoded `/`, `?`, `#`, `:` or `@` included), also inside a
//! driver's message; as the driver is given them ([`driver_url`]: parameters in its spelling,
//! none it would log); and whether an SQLite URL names a database in memory.

use std::borrow::Cow;

/// The query parameters sqlx's PostgreSQL driver reads (sqlx 0.9, `PgConnectOptions`), in its
/// spelling, besides `options[NAME]`. It matches keys as written, and logs any other key with
/// its value: a `PassWord=` would reach the log. [`driver_url`] writes each key in this spelling
/// and refuses any other.
const PG_PARAMS: [&str; 18] = [
    "sslmode",
    "ssl-mode",
    "sslrootcert",
    "ssl-root-cert",
    "ssl-ca",
    "sslcert",
    "ssl-cert",
    "sslkey",
    "ssl-key",
    "statement-cache-capacity",
    "host",
    "hostaddr",
    "port",
    "dbname",
    "user",
    "password",
    "application_name",
    "options",
];

/// The query parameters sqlx's SQLite driver reads (it refuses any other itself).
const SQLITE_PARAMS: [&str; 4] = ["mode", "cache", "immutable", "vfs"];

/// The prefix of PostgreSQL's `options[NAME]=VALUE` (one run-time setting).
const PG_OPTION: &str = "options[";

/// A query key as the URL grammar reads it (`%XX` decoded, `+` a space), as written.
fn decode_key(raw: &str) -> String {
    let bytes = raw.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        let hex = bytes
            .get(i + 1..i + 3)
            .filter(|h| h.iter().all(u8::is_ascii_hexdigit))
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (b, hex) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
                continue;
            }
            (b'+', _) => out.push(b' '),
            (b, _) => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `key` (decoded) percent-encoded for a query, all but letters, digits and `-._~[]`.
fn encode_key(key: &str) -> String {
    key.bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'[' | b']' => {
                char::from(b).to_string()
            }
            b => format!("%{b:02X}"),
        })
        .collect()
}

/// `raw` (a query key as written) in the PostgreSQL driver's spelling, or `None` when it reads
/// no such key.
fn pg_key(raw: &str) -> Option<String> {
    let key = decode_key(raw);
    let lower = key.to_ascii_lowercase();
    if let Some(known) = PG_PARAMS.iter().find(|k| **k == lower) {
        return Some(known.to_string());
    }
    // `options[` is ASCII: the name after it starts at the same byte in `key`.
    let name = key.get(PG_OPTION.len()..)?;
    (lower.starts_with(PG_OPTION) && name.ends_with(']'))
        .then(|| encode_key(&format!("{PG_OPTION}{name}")))
}

/// `url` as sqlx's driver is given it. A PostgreSQL URL gets each query parameter's key in the
/// driver's spelling (`PassWord=` becomes `password=`, its value as written), and is refused
/// when a key is none the driver reads, or when it holds a `#` (which ends a URL, cutting a
/// password short): the driver would log such a key with its value. The refusal names the
/// parameter by its place, never by its key or value, either of which may be part of a
/// password. Other URLs are given as they are.
pub fn driver_url(url: &str) -> Result<Cow<'_, str>, String> {
    if super::Backend::of_url(url) != Some(super::Backend::Postgres) {
        return Ok(Cow::Borrowed(url));
    }
    const ENCODE: &str = "a password holding `&`, `=`, `?`, `#`, `%`, `+` or `/` must be percent-encoded (`&` as %26, `=` as %3D, `?` as %3F, `#` as %23, `%` as %25, `+` as %2B, `/` as %2F)";
    if url.contains('#') {
        return Err(format!(
            "DATABASE_URL holds a `#`, which ends a URL and would cut off what follows; {ENCODE}"
        ));
    }
    let Some((base, query)) = url.split_once('?') else {
        return Ok(Cow::Borrowed(url));
    };
    let mut params = Vec::new();
    for (n, piece) in query.split('&').filter(|p| !p.is_empty()).enumerate() {
        let (raw, value) = match piece.split_once('=') {
            Some((raw, value)) => (raw, Some(value)),
            None => (piece, None),
        };
        let Some(key) = pg_key(raw) else {
            return Err(format!(
                "parameter {} of its query (after `?`) is not one that PostgreSQL connections take: {}, or options[NAME]. Its name and value are not shown, as either may be part of a password; {ENCODE}",
                n + 1,
                PG_PARAMS.join(", ")
            ));
        };
        params.push(match value {
            Some(value) => format!("{key}={value}"),
            None => key,
        });
    }
    let given = format!("{base}?{}", params.join("&"));
    Ok(if given == url {
        Cow::Borrowed(url)
    } else {
        Cow::Owned(given)
    })
}

/// Whether an SQLite URL names a database in memory (`sqlite::memory:`, `mode=memory`), which
/// each pooled connection would see empty and which a restart loses.
pub fn sqlite_in_memory(url: &str) -> bool {
    let lower = url.to_ascii_lowercase();
    let rest = lower
        .strip_prefix("sqlite://")
        .or_else(|| lower.strip_prefix("sqlite:"))
        .unwrap_or(&lower);
    let (path, query) = rest.split_once('?').unwrap_or((rest, ""));
    path == ":memory:" || query.split('&').any(|p| p == "mode=memory")
}

/// `url` with its password (in the user part, or a `password=` parameter) replaced by `***`: the
/// only form in which a database URL is ever logged or shown.
///
/// A password is often written unencoded, holding `/`, `?`, `#`, `:` or even `@`; so the user
/// part is read by the URL's grammar from the outside in: it runs from `://` to the **last** `@`,
/// and the password from the first `:` in it. Where that last `@` is in fact inside a parameter,
/// more is hidden than needed, never less.
pub fn redact_url(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return redact_params(url);
    };
    match rest.rfind('@') {
        Some(at) => match rest[..at].split_once(':') {
            Some((user, _password)) if !user.contains(['/', '?', '#']) => {
                format!("{scheme}://{user}:***@{}", redact_params(&rest[at + 1..]))
            }
            // No password in a user part (`user@host`), or an `@` only inside the parameters.
            None if !rest[..at].contains(['/', '?', '#']) => {
                format!(
                    "{scheme}://{}@{}",
                    &rest[..at],
                    redact_params(&rest[at + 1..])
                )
            }
            _ => format!("{scheme}://{}", redact_params(rest)),
        },
        None => format!("{scheme}://{}", redact_params(rest)),
    }
}

/// A URL's query as it may be shown: the parameters the drivers read shown, any other hidden
/// whole (`***`: its key may be part of a password too), and from a `password=` on (however its
/// key is spelt) all of it hidden, as its value may hold `&` itself.
fn redact_params(url: &str) -> String {
    let Some((before, query)) = url.split_once('?') else {
        return url.to_string();
    };
    let mut shown = Vec::new();
    for piece in query.split('&') {
        let raw = piece.split_once('=').map_or(piece, |(raw, _)| raw);
        let key = decode_key(raw).to_ascii_lowercase();
        if key == "password" {
            shown.push("password=***".to_string());
            break;
        }
        let known = pg_key(raw).is_some() || SQLITE_PARAMS.contains(&key.as_str());
        shown.push(if known || piece.is_empty() {
            piece.to_string()
        } else {
            "***".to_string()
        });
    }
    format!("{before}?{}", shown.join("&"))
}

/// The password a database URL holds, when it holds one: to scrub it from a driver's message.
fn url_password(url: &str) -> Option<&str> {
    let (_, rest) = url.split_once("://")?;
    let at = rest.rfind('@')?;
    let (_, password) = rest[..at].split_once(':')?;
    Some(password).filter(|p| !p.is_empty())
}

/// `message` (a driver's error) with the URL's password, should it quote it, hidden.
pub fn scrub_password(url: &str, message: &str) -> String {
    match url_password(url) {
        Some(p) => message.replace(p, "***"),
        None => message.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_in_database_urls_are_redacted() {
        for (url, shown) in [
            (
                "postgres://hexcord:s3cret@db.example:5432/hexcord",
                "postgres://hexcord:***@db.example:5432/hexcord",
            ),
            (
                "postgresql://u:p%40ss:w@host/db?sslmode=require",
                "postgresql://u:***@host/db?sslmode=require",
            ),
            (
                "postgres://host/db?user=u&password=s3cret",
                "postgres://host/db?user=u&password=***",
            ),
            (
                "postgres://hexcord@localhost/hexcord",
                "postgres://hexcord@localhost/hexcord",
            ),
            ("sqlite://hexcord.db", "sqlite://hexcord.db"),
            ("sqlite::memory:", "sqlite::memory:"),
            (
                "postgres://hexcord:S3cret/Slash@db.example/hexcord",
                "postgres://hexcord:***@db.example/hexcord",
            ),
            (
                "postgres://host/db?user=u&password=a&b=c",
                "postgres://host/db?user=u&password=***",
            ),
        ] {
            assert_eq!(redact_url(url), shown);
        }
    }

    /// Every character a generated password may hold, raw or percent-encoded, anywhere in it:
    /// nothing of the password is ever shown, and the host stays readable.
    #[test]
    fn passwords_with_any_character_are_redacted() {
        let specials = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~ ";
        for c in specials.chars() {
            for password in [
                format!("Zq{c}x9"),
                format!("{c}Zqx9"),
                format!("Zqx9{c}"),
                format!("Zq{c}{c}x9{c}"),
            ] {
                for url in [
                    format!("postgres://hexcord:{password}@db.example:5432/hexcord"),
                    format!("postgres://hexcord:{password}@db.example/hexcord?sslmode=require"),
                    format!("postgres://db.example/hexcord?user=hexcord&password={password}"),
                    format!("postgres://db.example/hexcord?password={password}:{password}@x"),
                ] {
                    let shown = redact_url(&url);
                    assert!(
                        !shown.contains("Zq") && !shown.contains("x9"),
                        "{url} -> {shown}"
                    );
                    assert!(shown.contains("***"), "{url} -> {shown}");
                    if !url.contains("/hexcord?") {
                        assert!(shown.contains("@db.example"), "{url} -> {shown}");
                    }
                }
            }
        }
    }

    /// What a password generator may write: letters, digits and every printable sign.
    const SPECIALS: &str = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~ ";

    /// `c` as a query value may hold it: percent-encoded where the URL's grammar would read it
    /// otherwise.
    fn in_query(c: char) -> String {
        match c {
            '&' | '#' | '%' | '+' | ' ' | '=' => format!("%{:02X}", c as u32),
            c => c.to_string(),
        }
    }

    /// Keys written in any case, or percent-encoded, reach the driver in its spelling, their
    /// values as written; and the driver reads the password whole, whatever it holds.
    #[test]
    fn query_keys_reach_the_driver_in_its_spelling() {
        for c in SPECIALS.chars() {
            let password = format!("Zq{c}x9{c}");
            let written = password.chars().map(in_query).collect::<String>();
            for key in [
                "password",
                "PassWord",
                "PASSWORD",
                "pAsSwOrD",
                "Pass%57ord",
                "pass%77ord",
            ] {
                let url = format!(
                    "postgres://127.0.0.1:1/hexcord?User=hexcord&{key}={written}&SSLMode=disable&Application_Name=hexcord"
                );
                let given = driver_url(&url).expect("known keys are taken");
                assert_eq!(
                    given,
                    format!("postgres://127.0.0.1:1/hexcord?user=hexcord&password={written}&sslmode=disable&application_name=hexcord"),
                    "{url}"
                );
                let options: sqlx::postgres::PgConnectOptions =
                    given.parse().expect("the driver reads it");
                assert_eq!(options.get_username(), "hexcord");
                assert_eq!(options.get_application_name(), Some("hexcord"));
                let debug = format!("{options:?}");
                assert!(
                    debug.contains(&format!("password: Some({password:?})")),
                    "{url}: {debug}"
                );
            }
        }
        // Every spelling sqlx takes, and a run-time setting.
        assert_eq!(
            driver_url("postgres://h/db?SSL-Mode=require&SSLRootCert=/ca.pem&Options%5BSearch_Path%5D=app&&DBName=x&Port=5433&HOSTADDR=127.0.0.1&Statement-Cache-Capacity=10&options=-c%20a%3Db").unwrap(),
            "postgres://h/db?ssl-mode=require&sslrootcert=/ca.pem&options[Search_Path]=app&dbname=x&port=5433&hostaddr=127.0.0.1&statement-cache-capacity=10&options=-c%20a%3Db"
        );
        // URLs without a query, and SQLite's, as they are.
        for url in [
            "postgres://u:p@h/db",
            "postgresql://h/db?",
            "sqlite://hexcord.db",
            "sqlite://hexcord.db?mode=rwc",
        ] {
            assert!(
                matches!(driver_url(url), Ok(Cow::Borrowed(u)) if u == url),
                "{url}"
            );
        }
    }

    /// A key the driver does not read, or a `#`, is refused by the parameter's place: neither the
    /// key nor the value (nor anything of the password) is in the refusal.
    #[test]
    fn unknown_query_keys_are_refused_without_their_value() {
        for c in SPECIALS.chars() {
            let written = in_query(c);
            for (url, place) in [
                (
                    format!("postgres://h/db?user=u&passwd=Zq{written}x9"),
                    "parameter 2 ",
                ),
                (format!("postgres://h/db?Zq{written}x9=1"), "parameter 1 "),
                (format!("postgres://h/db?Zq{written}x9"), "parameter 1 "),
                (
                    format!("postgres://h/db?sslmode=disable&pass word=Zq{written}x9&user=u"),
                    "parameter 2 ",
                ),
                // A password with an unencoded `&`: what follows it is no key.
                (
                    format!("postgres://h/db?password=Zq{written}&x9=1"),
                    "parameter 2 ",
                ),
                (
                    format!("postgres://h/db?options[=Zq{written}x9"),
                    "parameter 1 ",
                ),
            ] {
                let e = driver_url(&url).expect_err(&url);
                assert!(
                    e.contains(place) && e.contains("percent-encoded"),
                    "{url}: {e}"
                );
                assert!(
                    !e.contains("Zq") && !e.contains("x9") && !e.contains("passwd"),
                    "{url}: {e}"
                );
                // Shown in a log or an error, the URL hides the value too.
                let shown = redact_url(&url);
                assert!(!shown.contains("x9"), "{url} -> {shown}");
            }
        }
        let e = driver_url("postgres://h/db?user=u&password=Zq#x9").expect_err("a `#`");
        assert!(
            e.contains("%23") && !e.contains("Zq") && !e.contains("x9"),
            "{e}"
        );
    }

    #[test]
    fn a_drivers_message_quoting_the_password_is_scrubbed() {
        let url = "postgres://u:S3cret/Slash@db/x";
        assert_eq!(
            scrub_password(url, "invalid port number `S3cret/Slash`"),
            "invalid port number `***`"
        );
        assert_eq!(scrub_password("sqlite://a.db", "no"), "no");
    }
}
