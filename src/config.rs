//! Settings from the environment and `.env`, validated at start.
//!
//! Every problem is reported as one line naming the setting and how to fix it. The token is kept
//! in [`Token`], whose `Debug` and `Display` never show it.

use std::fmt;

use thiserror::Error;

/// The bot token. Printing it (`{:?}` or `{}`) shows `[redacted]`.
#[derive(Clone, PartialEq, Eq)]
pub struct Token(String);

impl Token {
    /// The secret itself, for the one place that talks to Discord.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Token([redacted])")
    }
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[redacted]")
    }
}

/// The settings of every subcommand (the bot needs all of them; `recompute-ratings` only the
/// database).
#[derive(Clone)]
pub struct Config {
    /// Checked when set; required by the bot only ([`Config::token`]).
    pub discord_token: Option<Token>,
    /// `sqlite://hexcord.db` unless set (the file is created on first start), or
    /// `postgres://…`. Shown only through [`crate::db::redact_url`].
    pub database_url: String,
    /// Register the commands in this one server (instantly) instead of globally.
    pub dev_guild_id: Option<u64>,
    /// Another Discord API base (the tests' fake Discord); unset in production.
    pub api_base: Option<String>,
    /// Tests only: a file holding the current Unix time, read instead of the system clock.
    pub clock_file: Option<std::path::PathBuf>,
    /// How often deadlines, reminders and challenge expiry are scanned.
    pub timer_interval: std::time::Duration,
}

impl fmt::Debug for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Config")
            .field("discord_token", &self.discord_token)
            .field("database_url", &crate::db::redact_url(&self.database_url))
            .field("dev_guild_id", &self.dev_guild_id)
            .field("api_base", &self.api_base)
            .field("clock_file", &self.clock_file)
            .field("timer_interval", &self.timer_interval)
            .finish()
    }
}

/// Deadlines are scanned once a minute unless `TIMER_INTERVAL_MS` says otherwise.
pub const DEFAULT_TIMER_INTERVAL_MS: u64 = 60_000;

pub const DEFAULT_DATABASE_URL: &str = "sqlite://hexcord.db";

/// A setting that is missing or malformed: the message says which and how to fix it.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
pub enum ConfigError {
    #[error("DISCORD_TOKEN is not set: put `DISCORD_TOKEN=<your bot token>` in .env (Discord Developer Portal → your application → Bot → Reset Token)")]
    MissingToken,
    #[error("DISCORD_TOKEN looks malformed ({0}): copy the bot token again from the Developer Portal (Bot → Reset Token)")]
    BadToken(&'static str),
    /// Holds the URL with its password redacted.
    #[error("DATABASE_URL must start with `sqlite:` (a file, e.g. `DATABASE_URL=sqlite://hexcord.db`) or `postgres://` (e.g. `DATABASE_URL=postgres://hexcord:PASSWORD@localhost/hexcord`), got `{0}`")]
    BadDatabaseUrl(String),
    #[error("DEV_GUILD_ID must be a server id (a number; right-click the server with Developer Mode on → Copy Server ID), got `{0}`")]
    BadGuildId(String),
    #[error("DISCORD_API_BASE must be an http(s) URL such as `http://127.0.0.1:3000` (leave it unset to use Discord), got `{0}`")]
    BadApiBase(String),
    #[error("TIMER_INTERVAL_MS must be a number of milliseconds from 10 to 3600000 (default 60000), got `{0}`")]
    BadTimerInterval(String),
    #[error("the .env file could not be read: {0} (each line is KEY=value; see .env.example)")]
    DotEnv(String),
}

impl Config {
    /// The bot token, which only the bot needs.
    pub fn token(&self) -> Result<&Token, ConfigError> {
        self.discord_token.as_ref().ok_or(ConfigError::MissingToken)
    }

    /// Reads `.env` (when present) into the environment, then the settings from the environment.
    pub fn from_env() -> Result<Config, ConfigError> {
        match dotenvy::dotenv() {
            Ok(_) => {}
            Err(e) if e.not_found() => {}
            Err(e) => return Err(ConfigError::DotEnv(e.to_string())),
        }
        Config::from_lookup(|key| std::env::var(key).ok())
    }

    /// Reads the settings through `get` (the environment, or a map in tests).
    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> Result<Config, ConfigError> {
        let set = |key: &str| {
            get(key)
                .map(|v| v.trim().to_string())
                .filter(|v| !v.is_empty())
        };
        let token = set("DISCORD_TOKEN");
        if let Some(token) = &token {
            if token.chars().any(|c| c.is_whitespace() || c.is_control()) {
                return Err(ConfigError::BadToken("it contains spaces"));
            }
            if token.len() < 20 {
                return Err(ConfigError::BadToken("it is too short"));
            }
            if token.to_ascii_lowercase().starts_with("bot ") {
                return Err(ConfigError::BadToken("leave out the `Bot ` prefix"));
            }
        }
        let database_url = set("DATABASE_URL").unwrap_or_else(|| DEFAULT_DATABASE_URL.to_string());
        if crate::db::Backend::of_url(&database_url).is_none() {
            return Err(ConfigError::BadDatabaseUrl(crate::db::redact_url(
                &database_url,
            )));
        }
        let dev_guild_id = match set("DEV_GUILD_ID") {
            None => None,
            Some(v) => match v.parse::<u64>() {
                Ok(id) if id > 0 => Some(id),
                _ => return Err(ConfigError::BadGuildId(v)),
            },
        };
        let api_base = match set("DISCORD_API_BASE") {
            None => None,
            Some(v) if v.starts_with("http://") || v.starts_with("https://") => {
                Some(v.trim_end_matches('/').to_string())
            }
            Some(v) => return Err(ConfigError::BadApiBase(v)),
        };
        let clock_file = set("HEXCORD_CLOCK_FILE").map(std::path::PathBuf::from);
        let timer_ms = match set("TIMER_INTERVAL_MS") {
            None => DEFAULT_TIMER_INTERVAL_MS,
            Some(v) => match v.parse::<u64>() {
                Ok(ms) if (10..=3_600_000).contains(&ms) => ms,
                _ => return Err(ConfigError::BadTimerInterval(v)),
            },
        };
        Ok(Config {
            discord_token: token.map(Token),
            database_url,
            dev_guild_id,
            api_base,
            clock_file,
            timer_interval: std::time::Duration::from_millis(timer_ms),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    const TOKEN: &str = "MTIzNDU2Nzg5MDEyMzQ1Njc4.Gabcde.abcdefghijklmnopqrstuvwxyz0123";

    fn config(pairs: &[(&str, &str)]) -> Result<Config, ConfigError> {
        let map: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        // The bot's view: the token is required.
        Config::from_lookup(|k| map.get(k).cloned()).and_then(|c| c.token().map(|_| c.clone()))
    }

    #[test]
    fn defaults_apply_when_only_the_token_is_set() {
        let c = config(&[("DISCORD_TOKEN", TOKEN)]).unwrap();
        assert_eq!(c.database_url, DEFAULT_DATABASE_URL);
        assert_eq!(c.dev_guild_id, None);
        assert_eq!(c.api_base, None);
        assert_eq!(c.clock_file, None);
        assert_eq!(c.timer_interval.as_millis(), 60_000);
        assert_eq!(c.token().map(Token::expose), Ok(TOKEN));
    }

    #[test]
    fn the_token_never_shows_in_debug_or_errors() {
        let c = config(&[("DISCORD_TOKEN", TOKEN)]).unwrap();
        let shown = format!("{c:?} {}", c.token().unwrap());
        assert!(!shown.contains(TOKEN), "{shown}");
        assert!(shown.contains("redacted"));
        let e = config(&[("DISCORD_TOKEN", "Bot abcdefghijklmnopqrstuvwxyz")]).unwrap_err();
        assert!(!e.to_string().contains("abcdefghijklmnopqrstuvwxyz"));
    }

    #[test]
    fn each_bad_setting_is_named_in_one_line() {
        let cases: [(&[(&str, &str)], &str); 6] = [
            (&[], "DISCORD_TOKEN"),
            (&[("DISCORD_TOKEN", "short")], "DISCORD_TOKEN"),
            (
                &[
                    ("DISCORD_TOKEN", TOKEN),
                    ("DATABASE_URL", "mysql://u:s3cret@x/db"),
                ],
                "DATABASE_URL",
            ),
            (
                &[("DISCORD_TOKEN", TOKEN), ("DEV_GUILD_ID", "my server")],
                "DEV_GUILD_ID",
            ),
            (
                &[("DISCORD_TOKEN", TOKEN), ("DISCORD_API_BASE", "localhost")],
                "DISCORD_API_BASE",
            ),
            (
                &[("DISCORD_TOKEN", TOKEN), ("TIMER_INTERVAL_MS", "5")],
                "TIMER_INTERVAL_MS",
            ),
        ];
        for (pairs, key) in cases {
            let msg = config(pairs).unwrap_err().to_string();
            assert!(msg.starts_with(key), "{msg}");
            assert!(!msg.contains('\n'));
        }
    }

    #[test]
    fn commands_other_than_the_bot_need_no_token() {
        let c =
            Config::from_lookup(|k| (k == "DATABASE_URL").then(|| "sqlite://x.db".into())).unwrap();
        assert_eq!(c.database_url, "sqlite://x.db");
        assert_eq!(c.token().unwrap_err(), ConfigError::MissingToken);
    }

    #[test]
    fn optional_settings_are_read() {
        let c = config(&[
            ("DISCORD_TOKEN", TOKEN),
            ("DEV_GUILD_ID", "123456789012345678"),
            ("DISCORD_API_BASE", "http://127.0.0.1:4000/"),
            ("DATABASE_URL", "sqlite::memory:"),
            ("HEXCORD_CLOCK_FILE", "/tmp/clock"),
            ("TIMER_INTERVAL_MS", "200"),
        ])
        .unwrap();
        assert_eq!(
            c.clock_file.as_deref(),
            Some(std::path::Path::new("/tmp/clock"))
        );
        assert_eq!(c.timer_interval.as_millis(), 200);
        assert_eq!(c.dev_guild_id, Some(123456789012345678));
        assert_eq!(c.api_base.as_deref(), Some("http://127.0.0.1:4000"));
        assert_eq!(c.database_url, "sqlite::memory:");
    }

    #[test]
    fn a_postgres_url_is_accepted_and_its_password_never_shown() {
        let url = "postgres://hexcord:s3cret@localhost/hexcord";
        let c = Config::from_lookup(|k| (k == "DATABASE_URL").then(|| url.into())).unwrap();
        assert_eq!(c.database_url, url);
        let shown = format!("{c:?}");
        assert!(
            !shown.contains("s3cret") && shown.contains("hexcord:***@localhost"),
            "{shown}"
        );
        let e =
            Config::from_lookup(|k| (k == "DATABASE_URL").then(|| "mysql://u:s3cret@x/db".into()))
                .unwrap_err()
                .to_string();
        assert!(!e.contains("s3cret") && e.contains("DATABASE_URL"), "{e}");
    }
}
