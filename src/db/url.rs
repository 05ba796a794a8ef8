//! Database URLs as they may be shown: never with their password, which is hidden by the URL's
//! grammar however it is written (unencoded `/`, `?`, `#`, `:` or `@` included), also inside a
//! driver's message; and whether an SQLite URL names a database in memory.

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

/// `password=` parameters of a URL's query hidden (everything after it, when one is there).
fn redact_params(url: &str) -> String {
    let Some((before, query)) = url.split_once('?') else {
        return url.to_string();
    };
    let lower = query.to_ascii_lowercase();
    let starts: Vec<usize> = lower
        .match_indices("password=")
        .map(|(i, _)| i)
        .filter(|&i| i == 0 || query.as_bytes()[i - 1] == b'&')
        .collect();
    let Some(&first) = starts.first() else {
        return url.to_string();
    };
    // From the first password on, a value may hold `&` itself: hide the rest of the query.
    format!("{before}?{}password=***", &query[..first])
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
