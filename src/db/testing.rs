//! Test databases: a fresh SQLite file, or a fresh database on a throwaway PostgreSQL cluster
//! that the tests start themselves from the installed server binaries (no Docker, no mock).
//!
//! One cluster serves all the tests of a test binary: `initdb` into a temporary folder, then
//! `pg_ctl start` listening on 127.0.0.1 at a free port (and on a socket in that folder), as the
//! user `nobody` when the tests run as root (PostgreSQL refuses to run as root). It is stopped
//! (`pg_ctl stop -m immediate`) and its folder removed when the test process ends, however it
//! ends: a watchdog shell, started beside it, waits for its standard input to close (the test
//! process holds the other end) and then cleans up.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;

use sqlx::Connection;

use super::{connect, Pool};

/// A fresh SQLite database in a temporary file (removed with the returned guard).
pub async fn temp_db() -> (Pool, TempFile) {
    let path = temp_path("db");
    let pool = connect(&format!("sqlite://{}", path.display()))
        .await
        .expect("temp database");
    (pool, TempFile(path))
}

/// What is logged on this thread while it lives, at every level, as plain text: to check what
/// reaches the log. A test on tokio's default runtime (one thread) sees all its own logs.
pub struct Logs {
    text: std::sync::Arc<std::sync::Mutex<Vec<u8>>>,
    _scope: tracing::subscriber::DefaultGuard,
}

impl Logs {
    pub fn capture() -> Logs {
        let text = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let sink = text.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_max_level(tracing::Level::TRACE)
            .with_ansi(false)
            .with_writer(move || LogSink(sink.clone()))
            .finish();
        Logs {
            text,
            _scope: tracing::subscriber::set_default(subscriber),
        }
    }

    /// Everything logged so far.
    pub fn text(&self) -> String {
        let bytes = match self.text.lock() {
            Ok(t) => t.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        };
        String::from_utf8_lossy(&bytes).into_owned()
    }
}

/// Where [`Logs`] writes.
struct LogSink(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl std::io::Write for LogSink {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        match self.0.lock() {
            Ok(mut t) => t.extend_from_slice(bytes),
            Err(poisoned) => poisoned.into_inner().extend_from_slice(bytes),
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A path for a new temporary SQLite file, unique in this process.
pub fn temp_path(ext: &str) -> PathBuf {
    static N: AtomicU32 = AtomicU32::new(0);
    let path = std::env::temp_dir().join(format!(
        "hexcord-test-{}-{}.{ext}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_file(&path);
    path
}

/// A temporary SQLite file, removed (with its WAL files) when dropped.
pub struct TempFile(pub PathBuf);

impl Drop for TempFile {
    fn drop(&mut self) {
        for ext in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{ext}", self.0.display()));
        }
    }
}

/// A fresh, migrated PostgreSQL database on the test cluster. The database goes with the
/// cluster at the end of the test process.
pub async fn pg_db() -> (Pool, String) {
    let url = new_pg_database().await;
    let pool = connect(&url)
        .await
        .expect("migrated PostgreSQL test database");
    (pool, url)
}

/// The URL of a fresh, empty (not migrated) PostgreSQL database on the test cluster.
pub async fn new_pg_database() -> String {
    static N: AtomicU32 = AtomicU32::new(0);
    let name = format!("test_{}", N.fetch_add(1, Ordering::Relaxed));
    cluster().new_database(&name).await
}

/// Runs an async test body twice: on a fresh SQLite file and on a fresh PostgreSQL database.
/// `both_backends! { async fn name(pool) { … } }` makes the tests `name::sqlite` and
/// `name::postgres`.
#[cfg(test)]
macro_rules! both_backends {
    ($(#[$meta:meta])* async fn $name:ident($pool:ident) $body:block) => {
        $(#[$meta])*
        mod $name {
            #[allow(unused_imports)]
            use super::*;

            async fn run($pool: $crate::db::Pool) $body

            #[tokio::test]
            async fn sqlite() {
                let (pool, _file) = $crate::db::testing::temp_db().await;
                run(pool).await;
            }

            #[tokio::test]
            async fn postgres() {
                let (pool, _url) = $crate::db::testing::pg_db().await;
                run(pool).await;
            }
        }
    };
}
#[cfg(test)]
pub(crate) use both_backends;

/// The PostgreSQL cluster of this test process.
pub struct Cluster {
    port: u16,
    /// The server's `pg_ctl`, data folder and options, to stop and start it again.
    bin: PathBuf,
    data: PathBuf,
    log: PathBuf,
    options: String,
    as_nobody: bool,
    /// The watchdog: closing its standard input (when the process ends, or on drop) stops the
    /// cluster. Nothing is ever written to it.
    watchdog: std::sync::Mutex<Child>,
}

impl Drop for Cluster {
    fn drop(&mut self) {
        if let Ok(mut watchdog) = self.watchdog.lock() {
            drop(watchdog.stdin.take());
            let _ = watchdog.wait();
        }
    }
}

impl Cluster {
    /// The URL of database `name` on this cluster (user `postgres`, trusted locally).
    pub fn url(&self, name: &str) -> String {
        format!("postgres://postgres@127.0.0.1:{}/{name}", self.port)
    }

    /// A fresh, empty database on this cluster: its URL.
    pub async fn new_database(&self, name: &str) -> String {
        sqlx::any::install_default_drivers();
        let mut admin = sqlx::AnyConnection::connect(&self.url("postgres"))
            .await
            .expect("connect to the test cluster");
        sqlx::raw_sql(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
            .execute(&mut admin)
            .await
            .expect("create a test database");
        let _ = admin.close().await;
        self.url(name)
    }

    /// Stops the server (fast: open connections are closed), as an outage would.
    pub fn stop(&self) {
        let mut stop = server_command(&self.bin, "pg_ctl", self.as_nobody);
        stop.arg("-D")
            .arg(&self.data)
            .args(["-w", "-m", "fast", "stop"]);
        run(stop, "pg_ctl stop").unwrap_or_else(|e| panic!("{e}"));
    }

    /// Starts the server again after [`Cluster::stop`].
    pub fn start(&self) {
        let mut start = server_command(&self.bin, "pg_ctl", self.as_nobody);
        start
            .arg("-D")
            .arg(&self.data)
            .arg("-l")
            .arg(&self.log)
            .args(["-w", "-o", &self.options, "start"]);
        run(start, "pg_ctl start").unwrap_or_else(|e| panic!("{e}"));
    }
}

/// The test cluster, started on first use. Panics with one line saying what to install when
/// the PostgreSQL server binaries are missing.
pub fn cluster() -> &'static Cluster {
    static CLUSTER: OnceLock<Cluster> = OnceLock::new();
    CLUSTER.get_or_init(|| start_cluster("main").unwrap_or_else(|e| panic!("{e}")))
}

/// A cluster of the caller's own (named `tag`), for a test that stops and starts the server:
/// the shared [`cluster`] stays up for the other tests. It stops when dropped.
pub fn own_cluster(tag: &str) -> Cluster {
    start_cluster(tag).unwrap_or_else(|e| panic!("{e}"))
}

/// The folder holding `initdb` and `pg_ctl`: the newest `/usr/lib/postgresql/N/bin`, else
/// the `PATH`.
fn server_binaries() -> Result<PathBuf, String> {
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let version = entry.file_name().to_str()?.parse::<u32>().ok()?;
            let bin = entry.path().join("bin");
            bin.join("initdb").is_file().then_some((version, bin))
        })
        .collect();
    versions.sort();
    if let Some((_, bin)) = versions.pop() {
        return Ok(bin);
    }
    std::env::var_os("PATH")
        .into_iter()
        .flat_map(|paths| std::env::split_paths(&paths).collect::<Vec<_>>())
        .find(|dir| dir.join("initdb").is_file() && dir.join("pg_ctl").is_file())
        .ok_or_else(|| {
            "PostgreSQL server binaries (initdb, pg_ctl) not found in /usr/lib/postgresql/*/bin or PATH: install them with `apt-get install -y postgresql`".to_string()
        })
}

/// Whether this process runs as root (PostgreSQL then runs as `nobody`).
fn running_as_root() -> bool {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata("/proc/self")
        .map(|m| m.uid() == 0)
        .unwrap_or(false)
}

/// A numeric id of `nobody` (`id -u nobody` or `id -g nobody`).
fn nobody_id(flag: &str) -> Result<u32, String> {
    let out = Command::new("id")
        .args([flag, "nobody"])
        .output()
        .map_err(|e| format!("id {flag} nobody: {e}"))?;
    String::from_utf8_lossy(&out.stdout)
        .trim()
        .parse()
        .map_err(|_| format!("no user `nobody` to run PostgreSQL as (id {flag} nobody failed)"))
}

/// A command running `program` of `bin`, as `nobody` when running as root.
fn server_command(bin: &Path, program: &str, as_nobody: bool) -> Command {
    if as_nobody {
        let mut c = Command::new("runuser");
        c.args(["-u", "nobody", "--"]).arg(bin.join(program));
        c
    } else {
        Command::new(bin.join(program))
    }
}

fn run(mut command: Command, what: &str) -> Result<(), String> {
    let out = command
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("{what}: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{what} failed: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

fn start_cluster(tag: &str) -> Result<Cluster, String> {
    let bin = server_binaries()?;
    let as_nobody = running_as_root();
    let dir = std::env::temp_dir().join(format!("hexcord-pg-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| format!("create {}: {e}", dir.display()))?;
    if as_nobody {
        std::os::unix::fs::chown(&dir, Some(nobody_id("-u")?), Some(nobody_id("-g")?))
            .map_err(|e| format!("chown {}: {e}", dir.display()))?;
    }
    let data = dir.join("data");
    let mut initdb = server_command(&bin, "initdb", as_nobody);
    initdb.arg("-D").arg(&data).args([
        "-U",
        "postgres",
        "--auth=trust",
        "--no-sync",
        "-E",
        "UTF8",
        "--locale=C",
    ]);
    run(initdb, "initdb")?;
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map_err(|e| format!("find a free port: {e}"))?
        .port();
    let options = format!(
        "-p {port} -c listen_addresses=127.0.0.1 -k {} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200",
        dir.display()
    );
    let mut start = server_command(&bin, "pg_ctl", as_nobody);
    start
        .arg("-D")
        .arg(&data)
        .arg("-l")
        .arg(dir.join("log"))
        .args(["-w", "-o", &options, "start"]);
    run(start, "pg_ctl start")?;
    // Stops the cluster and removes its folder once the test process's end closes the pipe.
    let stop = format!(
        "{runner}{pg_ctl} -D {data} -m immediate stop >/dev/null 2>&1; rm -rf {dir}",
        runner = if as_nobody {
            "runuser -u nobody -- "
        } else {
            ""
        },
        pg_ctl = bin.join("pg_ctl").display(),
        data = data.display(),
        dir = dir.display(),
    );
    let watchdog = Command::new("sh")
        .args(["-c", &format!("cat >/dev/null; {stop}")])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("start the cluster's watchdog: {e}"))?;
    Ok(Cluster {
        port,
        log: dir.join("log"),
        bin,
        data,
        options,
        as_nobody,
        watchdog: std::sync::Mutex::new(watchdog),
    })
}
