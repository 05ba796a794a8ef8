//! Settings from the environment and `.env`, validated at start.
//!
//! Every problem is reported as one line naming the setting and how to fix it. The token is kept
//! in [`Token`], whose `Debug` and `Display` never show it; a database URL is shown only with its
//! password hidden ([`crate::db::redact_url`]). A new setting is read in [`Config::from_lookup`],
//! with a [`ConfigError`] of its own, and listed in [`SETTINGS`] (which `hexcord bot --help`
//! prints, and a test holds to what the code reads and to `.env.example`, where README sends
//! its readers).

use std::fmt;

use thiserror::Error;

/// The bot token. Printing it (`{:?}` or `{}`) shows `[redacted]`.
#[derive(Clone, PartialEq, Eq)]
pub struct Token(String);

impl Token {
    /// The secret itself: for talking to Discord, and as the key of the buttons' seals.
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
    /// Checked when set; required by the bot only ([`Config::token`]). Unset, `hexcord` plays
    /// locally ([`crate::web::local`]).
    pub discord_token: Option<Token>,
    /// `sqlite://hexcord.db` unless set (the file is created on first start), or
    /// `postgres://…`. Shown only through [`crate::db::redact_url`].
    pub database_url: String,
    /// Register the commands in this one server (instantly) instead of globally.
    pub dev_guild_id: Option<u64>,
    /// Another Discord API base (the tests' fake Discord); unset in production.
    pub api_base: Option<String>,
    /// Tests only: a certificate (DER or PEM file) trusted for Discord's TLS, the fake
    /// Discord's own authority.
    pub api_ca: Option<std::path::PathBuf>,
    /// Tests only: a file holding the current Unix time, read instead of the system clock.
    pub clock_file: Option<std::path::PathBuf>,
    /// How often deadlines, reminders and challenge expiry are scanned.
    pub timer_interval: std::time::Duration,
    /// The gateway shards this process runs (`SHARD_COUNT`, `SHARD_RANGE`).
    pub shards: Shards,
    /// Where the web board listens (`WEB_ADDR`; default [`DEFAULT_WEB_ADDR`]); `None`: off.
    pub web_addr: Option<std::net::SocketAddr>,
    /// `WEB_ADDR` was left unset: the default address. When another process (a second shard, or
    /// the process being replaced) already listens there, this one runs without the web board.
    pub web_addr_is_default: bool,
    /// The address players reach the web board at (`PUBLIC_URL`, without a final `/`); unset:
    /// `http://` and the address the web board listens on, when others can reach it
    /// ([`Config::page_url`]).
    pub public_url: Option<String>,
    /// The application's OAuth2 client secret (`DISCORD_CLIENT_SECRET`): when set, the game page
    /// also opens inside Discord as an Activity ([`crate::web::activity`]). Never shown.
    pub client_secret: Option<Token>,
    /// The application's public key (`DISCORD_PUBLIC_KEY`, 32 bytes): requests through
    /// Discord's Activity proxy are checked against it.
    pub public_key: Option<[u8; 32]>,
    /// `SERVER_MEMBERS_INTENT=on`: the bot asks Discord for members leaving a server (the
    /// privileged Server Members intent, which the application must have switched on in the
    /// Developer Portal), and withdraws them from that server's tournaments.
    pub members_intent: bool,
    /// `METRICS_TOKEN`: who presents it as `Authorization: Bearer` may read `/metrics` from
    /// anywhere; without it, only requests from this machine may ([`crate::metrics`]).
    pub metrics_token: Option<Token>,
}

/// The gateway shards a process runs: `first..=last` of `count` in all. Discord sends each
/// server's events to shard `(server id >> 22) % count`, and direct messages to shard 0.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Shards {
    pub count: u32,
    pub first: u32,
    pub last: u32,
}

impl Shards {
    /// One shard, this process: the default.
    pub const ALL_OF_ONE: Shards = Shards {
        count: 1,
        first: 0,
        last: 0,
    };

    /// Whether this process runs shard 0: it registers the commands (once for all processes)
    /// and receives the direct messages.
    pub fn runs_first(&self) -> bool {
        self.first == 0
    }

    /// Whether this process runs every shard.
    pub fn runs_all(&self) -> bool {
        self.first == 0 && self.last + 1 == self.count
    }

    /// Reads `SHARD_COUNT` (default 1) and `SHARD_RANGE` (`first-last` or one shard; default
    /// all of them).
    fn parse(count: Option<String>, range: Option<String>) -> Result<Shards, ConfigError> {
        let count = match count {
            None => 1,
            Some(v) => match v.parse::<u32>() {
                Ok(n) if (1..=MAX_SHARDS).contains(&n) => n,
                _ => return Err(ConfigError::BadShardCount(v)),
            },
        };
        let Some(text) = range else {
            return Ok(Shards {
                count,
                first: 0,
                last: count - 1,
            });
        };
        let bad = || ConfigError::BadShardRange(text.clone(), count - 1);
        let (a, b) = match text.split_once('-') {
            Some((a, b)) => (a.trim(), b.trim()),
            None => (text.as_str(), text.as_str()),
        };
        let first = a.parse::<u32>().map_err(|_| bad())?;
        let last = b.parse::<u32>().map_err(|_| bad())?;
        if first > last || last >= count {
            return Err(bad());
        }
        Ok(Shards { count, first, last })
    }
}

impl fmt::Display for Shards {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.first == self.last {
            write!(f, "shard {} of {}", self.first, self.count)
        } else {
            write!(f, "shards {}-{} of {}", self.first, self.last, self.count)
        }
    }
}

/// The most shards `SHARD_COUNT` may name (far beyond any need: Discord asks for one per 2,500
/// servers at most).
pub const MAX_SHARDS: u32 = 4096;

impl fmt::Debug for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Config")
            .field("discord_token", &self.discord_token)
            .field("database_url", &crate::db::redact_url(&self.database_url))
            .field("dev_guild_id", &self.dev_guild_id)
            .field("api_base", &self.api_base)
            .field("api_ca", &self.api_ca)
            .field("clock_file", &self.clock_file)
            .field("timer_interval", &self.timer_interval)
            .field("shards", &self.shards)
            .field("web_addr", &self.web_addr)
            .field("web_addr_is_default", &self.web_addr_is_default)
            .field("members_intent", &self.members_intent)
            .field("public_url", &self.public_url)
            .field("client_secret", &self.client_secret)
            .field("public_key", &self.public_key.is_some())
            .field("metrics_token", &self.metrics_token)
            .finish()
    }
}

/// Deadlines are scanned once a minute unless `TIMER_INTERVAL_MS` says otherwise.
pub const DEFAULT_TIMER_INTERVAL_MS: u64 = 60_000;

pub const DEFAULT_DATABASE_URL: &str = "sqlite://hexcord.db";

/// The web board listens here unless `WEB_ADDR` says otherwise (or `off`).
pub const DEFAULT_WEB_ADDR: &str = "127.0.0.1:8787";

/// Every setting the bot reads, with what it is for: the one list `hexcord bot --help` shows and
/// `.env.example` follows (a test checks both against what [`Config::from_env`] reads).
pub const SETTINGS: &[(&str, &str)] = &[
    (
        "DISCORD_TOKEN",
        "the bot token (Developer Portal → Bot → Reset Token); unset: play locally on the web page at WEB_ADDR, without Discord",
    ),
    (
        "DATABASE_URL",
        "where games are stored: sqlite://hexcord.db (default) or postgres://…",
    ),
    (
        "DEV_GUILD_ID",
        "a server where the commands are registered at once (for trying the bot)",
    ),
    (
        "TIMER_INTERVAL_MS",
        "how often deadlines, reminders and expiry are checked (default 60000)",
    ),
    (
        "SHARD_COUNT",
        "several processes: the total number of gateway shards (default 1)",
    ),
    (
        "SHARD_RANGE",
        "several processes: the shards this one runs, `first-last` or one (default all)",
    ),
    (
        "WEB_ADDR",
        "where the web board listens (default 127.0.0.1:8787; `off` disables it)",
    ),
    (
        "PUBLIC_URL",
        "the web board's address for players, e.g. https://hexcord.example.org (default http://WEB_ADDR)",
    ),
    (
        "DISCORD_CLIENT_SECRET",
        "the game page inside Discord (an Activity): the OAuth2 client secret (Developer Portal → OAuth2)",
    ),
    (
        "DISCORD_PUBLIC_KEY",
        "with the Activity: the application's public key, to check requests through Discord's proxy",
    ),
    (
        "METRICS_TOKEN",
        "a secret that lets a monitor read /metrics from another machine (default: from this machine only)",
    ),
    (
        "SERVER_MEMBERS_INTENT",
        "`on`: withdraw members who leave a server from its tournaments (needs the Server Members intent, Developer Portal → Bot; default off)",
    ),
    (
        "RUST_LOG",
        "the log filter, e.g. `info` (default) or `hexcord=debug,serenity=warn`",
    ),
    (
        "DISCORD_API_BASE",
        "tests only: another Discord API base (the fake Discord)",
    ),
    (
        "DISCORD_API_CA",
        "tests only: a certificate file trusted for Discord's TLS (the fake Discord's)",
    ),
    (
        "HEXCORD_CLOCK_FILE",
        "tests only: a file holding the Unix time, read instead of the clock",
    ),
];

/// [`SETTINGS`] as `hexcord bot --help` lists them.
pub fn settings_help() -> String {
    let width = SETTINGS.iter().map(|(k, _)| k.len()).max().unwrap_or(0);
    let mut out = String::from(
        "Settings (from the environment, or a .env file in the working folder; see .env.example):\n",
    );
    for (key, what) in SETTINGS {
        out.push_str(&format!("  {key:width$}  {what}\n"));
    }
    out
}

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
    /// Holds the URL with its password redacted.
    #[error("DATABASE_URL `{0}` is an SQLite database in memory, which would lose every game at each restart (and give each connection an empty database of its own): use a file, e.g. `DATABASE_URL=sqlite://hexcord.db`")]
    MemoryDatabase(String),
    #[error("DEV_GUILD_ID must be a server id (a number; right-click the server with Developer Mode on → Copy Server ID), got `{0}`")]
    BadGuildId(String),
    #[error("DISCORD_API_BASE must be an http(s) URL such as `http://127.0.0.1:3000` (leave it unset to use Discord), got `{0}`")]
    BadApiBase(String),
    #[error("TIMER_INTERVAL_MS must be a number of milliseconds from 10 to 3600000 (default 60000), got `{0}`")]
    BadTimerInterval(String),
    #[error("SHARD_COUNT must be the total number of gateway shards, from 1 to 4096 (default 1), got `{0}`")]
    BadShardCount(String),
    #[error("SHARD_RANGE must name the shards this process runs, `first-last` (e.g. `0-3`) or one shard number, between 0 and {1} (SHARD_COUNT − 1), got `{0}`")]
    BadShardRange(String, u32),
    #[error("WEB_ADDR must be an address and port to listen on, such as `127.0.0.1:8787` (the default) or `0.0.0.0:8787`, or `off` to run without the web board, got `{0}`")]
    BadWebAddr(String),
    #[error("PUBLIC_URL must be the http(s) address players open the web board at, such as `https://hexcord.example.org` (no path), got `{0}`")]
    BadPublicUrl(String),
    #[error("DISCORD_CLIENT_SECRET looks malformed ({0}): copy it again from the Developer Portal (your application → OAuth2 → Client Secret → Reset Secret)")]
    BadClientSecret(&'static str),
    #[error("METRICS_TOKEN must be at least 16 characters without spaces (a monitor sends it as `Authorization: Bearer …`), e.g. the output of `openssl rand -hex 24`")]
    BadMetricsToken,
    #[error("DISCORD_PUBLIC_KEY must be the application's public key, 64 hexadecimal digits (Developer Portal → your application → General Information → Public Key)")]
    BadPublicKey,
    #[error("SERVER_MEMBERS_INTENT must be `on` or `off` (the default), got `{0}`")]
    BadMembersIntent(String),
    #[error("the .env file could not be read: {0} (each line is KEY=value; see .env.example)")]
    DotEnv(String),
}

impl Config {
    /// The bot token, which only the bot needs.
    pub fn token(&self) -> Result<&Token, ConfigError> {
        self.discord_token.as_ref().ok_or(ConfigError::MissingToken)
    }

    /// The address members are given for the web board listening on `bound`: `PUBLIC_URL`, else
    /// `http://` and `bound` when that is an address others can reach (neither loopback nor
    /// unspecified); `None`: no links are offered, as none would open.
    pub fn page_url(&self, bound: std::net::SocketAddr) -> Option<String> {
        match &self.public_url {
            Some(url) => Some(url.clone()),
            None if bound.ip().is_loopback() || bound.ip().is_unspecified() => None,
            None => Some(format!("http://{bound}")),
        }
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
        match crate::db::Backend::of_url(&database_url) {
            None => {
                return Err(ConfigError::BadDatabaseUrl(crate::db::redact_url(
                    &database_url,
                )))
            }
            Some(crate::db::Backend::Sqlite) if crate::db::sqlite_in_memory(&database_url) => {
                return Err(ConfigError::MemoryDatabase(crate::db::redact_url(
                    &database_url,
                )))
            }
            Some(_) => {}
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
        let api_ca = set("DISCORD_API_CA").map(std::path::PathBuf::from);
        let clock_file = set("HEXCORD_CLOCK_FILE").map(std::path::PathBuf::from);
        let timer_ms = match set("TIMER_INTERVAL_MS") {
            None => DEFAULT_TIMER_INTERVAL_MS,
            Some(v) => match v.parse::<u64>() {
                Ok(ms) if (10..=3_600_000).contains(&ms) => ms,
                _ => return Err(ConfigError::BadTimerInterval(v)),
            },
        };
        let shards = Shards::parse(set("SHARD_COUNT"), set("SHARD_RANGE"))?;
        let web_addr_is_default = set("WEB_ADDR").is_none();
        let web_addr = match set("WEB_ADDR") {
            Some(v) if v.eq_ignore_ascii_case("off") => None,
            v => {
                let text = v.unwrap_or_else(|| DEFAULT_WEB_ADDR.to_string());
                Some(text.parse().map_err(|_| ConfigError::BadWebAddr(text))?)
            }
        };
        let public_url = match set("PUBLIC_URL") {
            None => None,
            Some(v) => {
                let rest = v
                    .strip_prefix("https://")
                    .or_else(|| v.strip_prefix("http://"));
                match rest.map(|r| r.trim_end_matches('/')) {
                    Some(host)
                        if !host.is_empty()
                            && !host.contains(['/', '?', '#', ' ', '"', '<', '>']) =>
                    {
                        Some(v.trim_end_matches('/').to_string())
                    }
                    _ => return Err(ConfigError::BadPublicUrl(v)),
                }
            }
        };
        let client_secret = match set("DISCORD_CLIENT_SECRET") {
            None => None,
            Some(v) if v.chars().any(|c| c.is_whitespace() || c.is_control()) => {
                return Err(ConfigError::BadClientSecret("it contains spaces"))
            }
            Some(v) if v.len() < 16 => return Err(ConfigError::BadClientSecret("it is too short")),
            Some(v) => Some(Token(v)),
        };
        let public_key = match set("DISCORD_PUBLIC_KEY") {
            None => None,
            Some(v) => Some(parse_public_key(&v).ok_or(ConfigError::BadPublicKey)?),
        };
        let metrics_token = match set("METRICS_TOKEN") {
            None => None,
            Some(v) if v.len() < 16 || !v.chars().all(|c| c.is_ascii_graphic()) => {
                return Err(ConfigError::BadMetricsToken)
            }
            Some(v) => Some(Token(v)),
        };
        let members_intent = match set("SERVER_MEMBERS_INTENT") {
            None => false,
            Some(v) if v.eq_ignore_ascii_case("on") => true,
            Some(v) if v.eq_ignore_ascii_case("off") => false,
            Some(v) => return Err(ConfigError::BadMembersIntent(v)),
        };
        Ok(Config {
            discord_token: token.map(Token),
            database_url,
            dev_guild_id,
            api_base,
            api_ca,
            clock_file,
            timer_interval: std::time::Duration::from_millis(timer_ms),
            shards,
            web_addr,
            web_addr_is_default,
            public_url,
            client_secret,
            public_key,
            members_intent,
            metrics_token,
        })
    }
}

/// 64 hexadecimal digits as 32 bytes.
fn parse_public_key(text: &str) -> Option<[u8; 32]> {
    let bytes = text.as_bytes();
    if bytes.len() != 64 {
        return None;
    }
    let mut key = [0u8; 32];
    for (i, pair) in bytes.chunks(2).enumerate() {
        let pair = std::str::from_utf8(pair).ok()?;
        key[i] = u8::from_str_radix(pair, 16).ok()?;
    }
    Some(key)
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
        assert_eq!(c.web_addr, Some(DEFAULT_WEB_ADDR.parse().unwrap()));
        assert!(c.web_addr_is_default);
        assert_eq!(c.public_url, None);
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
            ("DATABASE_URL", "sqlite://games/hexcord.db"),
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
        assert_eq!(c.database_url, "sqlite://games/hexcord.db");
    }

    #[test]
    fn the_activity_settings_are_read_checked_and_never_shown() {
        let secret = "AbCdEfGhIjKlMnOpQrStUvWxYz012345";
        let key = "0f".repeat(32);
        let c = config(&[
            ("DISCORD_TOKEN", TOKEN),
            ("DISCORD_CLIENT_SECRET", secret),
            ("DISCORD_PUBLIC_KEY", &key),
        ])
        .unwrap();
        assert_eq!(c.client_secret.as_ref().map(Token::expose), Some(secret));
        assert_eq!(c.public_key, Some([0x0f; 32]));
        assert!(!format!("{c:?}").contains(secret));
        let c = config(&[("DISCORD_TOKEN", TOKEN)]).unwrap();
        assert!(c.client_secret.is_none() && c.public_key.is_none());
        assert!(c.metrics_token.is_none());
        let watch = "d1e2a3d4b5e6e7f8a9b0c1d2";
        let c = config(&[("DISCORD_TOKEN", TOKEN), ("METRICS_TOKEN", watch)]).unwrap();
        assert_eq!(c.metrics_token.as_ref().map(Token::expose), Some(watch));
        assert!(!format!("{c:?}").contains(watch));
        for (k, v) in [
            ("METRICS_TOKEN", "short"),
            ("METRICS_TOKEN", "a long token with spaces in it"),
            ("DISCORD_CLIENT_SECRET", "x1y2"),
            ("DISCORD_CLIENT_SECRET", "has a space in the middle of it"),
            ("DISCORD_PUBLIC_KEY", "0f0f"),
            ("DISCORD_PUBLIC_KEY", &"zz".repeat(32)),
        ] {
            let e = config(&[("DISCORD_TOKEN", TOKEN), (k, v)])
                .map(|_| ())
                .unwrap_err()
                .to_string();
            assert!(e.contains(k) && !e.contains(v), "{e}");
        }
    }

    #[test]
    fn the_web_board_can_move_or_be_off_and_its_public_url_is_checked() {
        let c = config(&[
            ("DISCORD_TOKEN", TOKEN),
            ("WEB_ADDR", "0.0.0.0:9000"),
            ("PUBLIC_URL", "https://hexcord.example.org/"),
        ])
        .unwrap();
        assert_eq!(c.web_addr, Some("0.0.0.0:9000".parse().unwrap()));
        assert_eq!(c.public_url.as_deref(), Some("https://hexcord.example.org"));
        let at = |a: &str| a.parse::<std::net::SocketAddr>().unwrap();
        // PUBLIC_URL's links, else the address listened on when others can reach it, else none.
        assert_eq!(
            c.page_url(at("0.0.0.0:9000")).as_deref(),
            Some("https://hexcord.example.org")
        );
        let local = config(&[("DISCORD_TOKEN", TOKEN)]).unwrap();
        assert_eq!(local.page_url(at("127.0.0.1:8787")), None);
        assert_eq!(local.page_url(at("[::1]:8787")), None);
        assert_eq!(local.page_url(at("0.0.0.0:8787")), None);
        assert_eq!(
            local.page_url(at("192.168.1.20:8787")).as_deref(),
            Some("http://192.168.1.20:8787")
        );
        let off = config(&[("DISCORD_TOKEN", TOKEN), ("WEB_ADDR", "OFF")]).unwrap();
        assert_eq!(off.web_addr, None);
        for bad in ["localhost", "8787", "1.2.3.4:x"] {
            let e = config(&[("DISCORD_TOKEN", TOKEN), ("WEB_ADDR", bad)]).unwrap_err();
            assert!(e.to_string().starts_with("WEB_ADDR"), "{e}");
        }
        for bad in [
            "hexcord.org",
            "ftp://x",
            "https://",
            "https://x/a b",
            "http://x/<",
        ] {
            let e = config(&[("DISCORD_TOKEN", TOKEN), ("PUBLIC_URL", bad)]).unwrap_err();
            assert!(e.to_string().starts_with("PUBLIC_URL"), "{bad}: {e}");
        }
    }

    #[test]
    fn an_sqlite_database_in_memory_is_refused_in_one_line() {
        for url in [
            "sqlite::memory:",
            "sqlite://:memory:",
            "SQLITE::memory:",
            "sqlite://hexcord.db?mode=memory",
            "sqlite:x.db?cache=shared&mode=memory",
        ] {
            let e = config(&[("DISCORD_TOKEN", TOKEN), ("DATABASE_URL", url)]).unwrap_err();
            assert!(matches!(e, ConfigError::MemoryDatabase(_)), "{url}: {e}");
            let line = e.to_string();
            assert!(
                !line.contains('\n') && line.contains("sqlite://hexcord.db"),
                "{line}"
            );
        }
        for url in ["sqlite://memory.db", "sqlite://hexcord.db?mode=rwc"] {
            assert!(
                config(&[("DISCORD_TOKEN", TOKEN), ("DATABASE_URL", url)]).is_ok(),
                "{url}"
            );
        }
    }

    #[test]
    fn shards_default_to_all_and_ranges_are_checked() {
        let shards = |pairs: &[(&str, &str)]| {
            let mut all = vec![("DISCORD_TOKEN", TOKEN)];
            all.extend_from_slice(pairs);
            config(&all).map(|c| c.shards)
        };
        assert_eq!(shards(&[]), Ok(Shards::ALL_OF_ONE));
        assert!(Shards::ALL_OF_ONE.runs_all() && Shards::ALL_OF_ONE.runs_first());
        let twelve = shards(&[("SHARD_COUNT", "12")]).unwrap();
        assert_eq!((twelve.first, twelve.last, twelve.count), (0, 11, 12));
        assert!(twelve.runs_all());
        let middle = shards(&[("SHARD_COUNT", "12"), ("SHARD_RANGE", "4-7")]).unwrap();
        assert_eq!((middle.first, middle.last), (4, 7));
        assert!(!middle.runs_first() && !middle.runs_all());
        assert_eq!(middle.to_string(), "shards 4-7 of 12");
        let one = shards(&[("SHARD_COUNT", "2"), ("SHARD_RANGE", "1")]).unwrap();
        assert_eq!((one.first, one.last), (1, 1));
        assert_eq!(one.to_string(), "shard 1 of 2");
        for (count, range) in [("0", ""), ("two", ""), ("5000", "")] {
            let e = shards(&[("SHARD_COUNT", count), ("SHARD_RANGE", range)]).unwrap_err();
            assert!(e.to_string().starts_with("SHARD_COUNT"), "{e}");
        }
        for range in ["12", "3-2", "a-b", "0-12", "-1", "1-"] {
            let e = shards(&[("SHARD_COUNT", "12"), ("SHARD_RANGE", range)]).unwrap_err();
            let text = e.to_string();
            assert!(
                text.starts_with("SHARD_RANGE") && text.contains("11"),
                "{range}: {text}"
            );
        }
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

    /// One list of settings: what the code reads, what `--help` lists and what `.env.example`
    /// shows are the same keys.
    #[test]
    fn every_setting_is_listed_once_everywhere() {
        let source = include_str!("config.rs");
        let mut read: Vec<&str> = source
            .match_indices("set(\"")
            .filter_map(|(i, _)| source[i + 5..].split('"').next())
            .collect();
        read.push("RUST_LOG");
        read.sort_unstable();
        read.dedup();
        let mut listed: Vec<&str> = SETTINGS.iter().map(|(k, _)| *k).collect();
        listed.sort_unstable();
        assert_eq!(read, listed);
        let example = include_str!("../.env.example");
        let mut shown: Vec<&str> = example
            .lines()
            .filter(|l| !l.starts_with('#'))
            .filter_map(|l| l.split_once('=').map(|(k, _)| k.trim()))
            .collect();
        shown.sort_unstable();
        assert_eq!(shown, listed);
        let help = settings_help();
        assert!(listed.iter().all(|k| help.contains(k)), "{help}");
    }
}
