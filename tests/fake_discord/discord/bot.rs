//! The real `hexcord` binary, started against the fake Discord.

use std::process::Stdio;

use super::Discord;
use crate::server::GUILD_ID;

/// The real binary, run against the fake.
pub struct Bot {
    child: tokio::process::Child,
}

impl Bot {
    pub async fn start(d: &Discord) -> Bot {
        Bot::start_with(d, &[]).await
    }

    /// The bot with more settings (`extra` overrides the test's defaults).
    pub async fn start_with(d: &Discord, extra: &[(&str, &str)]) -> Bot {
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(d.dir.join("bot.log"))
            .expect("log file");
        let web_port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_hexcord"))
            .arg("bot")
            .current_dir(&d.dir)
            .env("DISCORD_TOKEN", "fake-token-for-the-test.ABCDEFGHIJKLMNOP")
            .env("DISCORD_API_BASE", &d.fake.base)
            .env(
                "DISCORD_API_CA",
                concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/discord/tls/ca.der"),
            )
            .env("DATABASE_URL", &d.db_url)
            .env("DEV_GUILD_ID", GUILD_ID.to_string())
            // `E2E_RUST_LOG` sets the bot's log filter when looking into a failure.
            .env(
                "RUST_LOG",
                std::env::var("E2E_RUST_LOG").unwrap_or_else(|_| "warn,hexcord=info".into()),
            )
            // The web board on a port of its own (several bots run at once), its links to it.
            .env("WEB_ADDR", format!("127.0.0.1:{web_port}"))
            .env("PUBLIC_URL", format!("http://127.0.0.1:{web_port}"))
            .envs(d.clock.iter().flat_map(|c| {
                [
                    ("HEXCORD_CLOCK_FILE", c.display().to_string()),
                    ("TIMER_INTERVAL_MS", "100".to_string()),
                ]
            }))
            .envs(extra.iter().map(|(k, v)| (k.to_string(), v.to_string())))
            .stdout(Stdio::from(log.try_clone().expect("log")))
            // Through a pipe copied by the test: the log keeps coming while the bot's own file
            // writes are limited (`limit_file_size`).
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("the hexcord binary starts");
        if let Some(mut err) = child.stderr.take() {
            let mut log = tokio::fs::File::from_std(log);
            tokio::spawn(async move {
                let _ = tokio::io::copy(&mut err, &mut log).await;
            });
        }
        Bot { child }
    }

    pub async fn restart(d: &Discord, old: Bot) -> Bot {
        drop(old);
        Bot::start(d).await
    }

    /// The bot's process id while it runs.
    pub fn pid(&self) -> Option<u32> {
        self.child.id()
    }

    /// Limits the size of every file the bot writes (`None`: no limit): its writes fail as on
    /// a full disk. Only the soft limit changes, so no privilege is needed to lift it again.
    pub fn limit_file_size(&self, bytes: Option<u64>) {
        let pid = self.pid().expect("the bot runs");
        let limit = bytes.map_or("unlimited".to_string(), |b| b.to_string());
        let status = std::process::Command::new("prlimit")
            .arg("--pid")
            .arg(pid.to_string())
            .arg(format!("--fsize={limit}:"))
            .status()
            .expect("prlimit runs");
        assert!(status.success(), "prlimit --fsize={limit}");
    }

    pub async fn kill(&mut self) {
        let _ = self.child.kill().await;
    }
}
