//! The `hexcord` command line.
use std::collections::HashSet;
use std::io;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{anyhow, bail, Context};
use clap::{Parser, Subcommand, ValueEnum};

use hexcord::arena;
use hexcord::config::Config;
use hexcord::engine::{self, Engine};
use hexcord::games::{Game, Options};
use hexcord::render::{self, Theme};

#[derive(Parser)]
#[command(
    name = "hexcord",
    version,
    about = "inpHeXion and EXXIT: a Discord bot and a game engine"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Run the Discord bot (the default): settings come from the environment or `.env`. Without
    /// DISCORD_TOKEN, play on this computer instead: the web page at WEB_ADDR alone.
    #[command(after_help = hexcord::config::settings_help())]
    Bot,
    /// Speak the engine text protocol on standard input and output (offline play, analysis).
    Engine,
    /// Draw a game record (the engine's `record` format) as a PNG, or as an animated GIF replay.
    Render(RenderArgs),
    /// Analyses a game record with the AI: prints each move's winning chances, loss and the
    /// AI's better move, and writes a chart of the winning chances with the turning points.
    Analyse(AnalyseArgs),
    /// Find puzzles (positions where exactly one move keeps a win or saves a loss) in game
    /// records, in the finished games of the database (`--database`) or in games of the bot
    /// against itself (`--self-play N`), and write them as JSON lines.
    Puzzles(PuzzlesArgs),
    /// Rebuild the bot's rating tables from the stored games (the database of `DATABASE_URL`).
    RecomputeRatings,
    /// Copy a whole SQLite database into a new PostgreSQL one (migrated first, and empty), then
    /// verify the copy: row counts, every game replays, the ratings recomputed equal those copied.
    MigrateData {
        /// The SQLite database to copy, e.g. `sqlite://hexcord.db` (left unchanged but for
        /// migrations this version of hexcord adds).
        #[arg(long)]
        from: String,
        /// The PostgreSQL database to fill, e.g. `postgres://hexcord:PASSWORD@localhost/hexcord`.
        #[arg(long)]
        to: String,
    },
    /// Write a consistent copy of the SQLite database of `DATABASE_URL` to FILE, while the bot
    /// runs (PostgreSQL: use `pg_dump`). The copy is checked before it gets its name.
    Backup {
        /// The new file (never overwritten).
        file: PathBuf,
    },
    /// Put a backup in place of the SQLite database of `DATABASE_URL`, after checking it. Every
    /// hexcord process using that database must be stopped; the replaced one is kept beside it.
    Restore {
        /// The backup made by `hexcord backup`.
        file: PathBuf,
    },
    /// Pair the next round of a Swiss tournament by the FIDE Dutch system, from a FIDE TRF file
    /// (TRF-2026: player lines 001, 142 rounds, 152 initial colour, 240 byes; or the older XXR,
    /// XXC white1 or black1). Prints the number of lines that
    /// follow, then `white black` a game by starting rank and `N 0` for the bye. Exit status 1
    /// when no valid pairing exists, 2 for bad input.
    Pairings {
        /// The TRF file (standard input when absent or `-`).
        file: Option<PathBuf>,
    },
    /// Play a match between two players and print A's wins, losses, draws and score; or, with
    /// `--ladder`, play again every match that rates the bot's levels and print them as
    /// `assets/bot-ratings.json`.
    Arena {
        /// The variant line, e.g. "exxit tiles=39" or "inphexion size=7".
        #[arg(long, default_value = "inphexion")]
        game: String,
        /// Player A: random, beginner, easy, medium, hard, weakbot, dumbot, smartbot, bestbot,
        /// playouts:N, ms:N, nodes:N, fixed:N, alphabeta:D, engine:PROGRAM ARGS.
        #[arg(long, required_unless_present = "ladder")]
        a: Option<String>,
        /// Player B (as A).
        #[arg(long, required_unless_present = "ladder")]
        b: Option<String>,
        /// The levels' rating matches (`hexcord::ai::strength`) instead of one match.
        #[arg(long, conflicts_with_all = ["a", "b", "game"])]
        ladder: bool,
        /// Number of games (colours alternate).
        #[arg(long, default_value_t = 100)]
        games: u32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, default_value_t = 2)]
        threads: usize,
    },
}

#[derive(clap::Args)]
struct RenderArgs {
    /// The game record file: the variant line, then one move a line.
    #[arg(required_unless_present = "gallery")]
    record: Option<PathBuf>,
    /// Draw the position after this many moves (default: the last).
    #[arg(long)]
    at: Option<usize>,
    #[arg(long, value_enum, default_value_t = ThemeArg::Dark)]
    theme: ThemeArg,
    /// Write an animated GIF of the whole game instead of one picture.
    #[arg(long)]
    replay: bool,
    /// The players' names, first colour first: `--players Alice Bob`.
    #[arg(long, value_delimiter = ',', num_args = 2)]
    players: Option<Vec<String>>,
    /// Output file (default: the record's name with .png or .gif).
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Write a picture of each interesting situation into this directory instead.
    #[arg(long, conflicts_with_all = ["record", "at", "replay", "output"])]
    gallery: Option<PathBuf>,
}

#[derive(clap::Args)]
struct PuzzlesArgs {
    /// Game records (as `/record` or the engine's `record` give them).
    records: Vec<PathBuf>,
    /// Also the finished games of the database of `DATABASE_URL`.
    #[arg(long)]
    database: bool,
    /// Also N games of the bot against itself (the variant of `--game`, the level of `--level`).
    #[arg(long, value_name = "N")]
    self_play: Option<u32>,
    /// The variant of the self-played games, e.g. "exxit tiles=39" or "inphexion size=7".
    #[arg(long, default_value = "inphexion")]
    game: String,
    /// The level of both sides in the self-played games.
    #[arg(long, default_value = "medium")]
    level: String,
    /// What is searched at each position of the analysis and after each judged move: Monte-Carlo
    /// playouts (inpHeXion, default 30000) or positions evaluated by the alpha-beta search
    /// (EXXIT, default 600000).
    #[arg(long)]
    budget: Option<u64>,
    /// The searches' (and the self-played games') seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Where to write the JSON lines (default: standard output).
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Instead of finding puzzles, prove those of a set of JSON lines by search to the end and
    /// write those that stand, each with its proof (a line cut before its first refuted move).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["records", "database", "self_play"])]
    prove: Option<PathBuf>,
    /// With --prove, the proof's budget: positions searched at most for each judged move
    /// (default: what the search for new puzzles uses).
    #[arg(long, value_name = "N", requires = "prove")]
    proof_budget: Option<u64>,
}

#[derive(clap::Args)]
struct AnalyseArgs {
    /// The game record (as `/record` or the engine's `record` give it).
    record: PathBuf,
    /// What is searched at each position: Monte-Carlo playouts (inpHeXion, default 30000) or
    /// positions evaluated by the alpha-beta search (EXXIT, default 600000).
    #[arg(long)]
    budget: Option<u64>,
    /// The searches' seed: equal budgets and seeds give equal analyses.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The chart's colours.
    #[arg(long, value_enum, default_value_t = ThemeArg::Dark)]
    theme: ThemeArg,
    /// The two players' names for the chart, first colour first: `--players Alice Bob`.
    #[arg(long, value_delimiter = ',', num_args = 2)]
    players: Option<Vec<String>>,
    /// Where to write the chart (default: the record's path with `.analysis.png`).
    #[arg(short, long)]
    output: Option<PathBuf>,
}

#[derive(Clone, Copy, ValueEnum)]
enum ThemeArg {
    Dark,
    Light,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command.unwrap_or(Command::Bot) {
        Command::Bot => return bot_main(),
        Command::Pairings { file } => return pairings_main(file),
        command => run(command),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hexcord: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// Logs to stderr, filtered by `RUST_LOG` (default `default`).
fn start_logging(default: &str) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default));
    let ansi = io::IsTerminal::is_terminal(&io::stderr());
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(ansi)
        .with_writer(io::stderr)
        .init();
}

/// `hexcord bot`: settings, logs, the runtime, then the bot; without a token, local play
/// (`hexcord::web::local`), which logs only warnings unless `RUST_LOG` says otherwise, so that
/// its one line saying where to play stands alone. A bad setting is one line on stderr and exit
/// status 2.
fn bot_main() -> ExitCode {
    let config = match Config::from_env() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("hexcord: {e}");
            return ExitCode::from(2);
        }
    };
    let local = config.discord_token.is_none();
    start_logging(if local { "warn" } else { "info" });
    match run_bot(config, local) {
        Ok(()) => ExitCode::SUCCESS,
        // Once: the log goes to stderr too.
        Err(e) => {
            eprintln!("hexcord: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run_bot(config: Config, local: bool) -> anyhow::Result<()> {
    // Pictures (and the bot's searches) run on blocking threads. Capping them keeps memory flat
    // when many games ask for pictures at once: the extra work waits in a queue instead of each
    // piece holding its own image buffers and thread.
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .max_blocking_threads(2 * cores + 2)
        .build()
        .context("cannot start the async runtime")?;
    match local {
        true => runtime.block_on(hexcord::web::local::run(config)),
        false => runtime.block_on(hexcord::bot::run(config)),
    }
}

/// The commands other than the bot.
fn run(command: Command) -> anyhow::Result<()> {
    match command {
        Command::Bot => unreachable!("the bot is started by main"),
        Command::Pairings { .. } => unreachable!("the pairings are made by main"),
        Command::Engine => {
            let stdin = io::stdin();
            let stdout = io::stdout();
            engine::run(stdin.lock(), stdout.lock(), &mut Engine::new())?;
        }
        Command::Render(args) => run_render(args)?,
        Command::Analyse(args) => run_analyse(args)?,
        Command::Puzzles(args) => run_puzzles(args)?,
        Command::RecomputeRatings => recompute_ratings()?,
        Command::MigrateData { from, to } => migrate_data(&from, &to)?,
        Command::Backup { file } => backup(&file)?,
        Command::Restore { file } => restore(&file)?,
        Command::Arena {
            ladder: true,
            games,
            seed,
            threads,
            ..
        } => {
            let ladder = arena::ladder(games, seed, threads)?;
            println!("{}", serde_json::to_string_pretty(&ladder)?);
        }
        Command::Arena {
            game,
            a,
            b,
            games,
            seed,
            threads,
            ..
        } => {
            let m = arena::Match {
                options: Options::parse_line(&game).map_err(|e| anyhow!("--game: {e}"))?,
                a: a.unwrap_or_default()
                    .parse()
                    .map_err(|e| anyhow!("--a: {e}"))?,
                b: b.unwrap_or_default()
                    .parse()
                    .map_err(|e| anyhow!("--b: {e}"))?,
                games,
                seed,
                threads,
                progress: true,
            };
            println!("{}: A = {}, B = {}", m.options, m.a, m.b);
            println!("{}", arena::run(&m)?);
        }
    }
    Ok(())
}

/// `hexcord pairings [FILE]`: the next round's pairing on stdout; exit status 1 when no valid
/// pairing exists, 2 with one line on stderr for input that cannot be read (or output that cannot
/// be written). A reader that closes the pipe early ends the output quietly.
fn pairings_main(file: Option<PathBuf>) -> ExitCode {
    use hexcord::pairings::{self, PairingError};
    use io::Read;
    let (name, text) = match file.filter(|f| f.as_os_str() != "-") {
        Some(path) => {
            let name = path.display().to_string();
            match std::fs::read_to_string(&path) {
                Ok(text) => (name, text),
                Err(e) => {
                    eprintln!("hexcord: cannot read {name}: {e}");
                    return ExitCode::from(2);
                }
            }
        }
        None => {
            let mut text = String::new();
            if let Err(e) = io::stdin().read_to_string(&mut text) {
                eprintln!("hexcord: cannot read standard input: {e}");
                return ExitCode::from(2);
            }
            ("standard input".to_string(), text)
        }
    };
    let tournament = match pairings::parse(&text) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("hexcord: {name}: {e}");
            return ExitCode::from(2);
        }
    };
    match pairings::pair(&tournament) {
        Ok(round) => {
            use io::Write;
            let mut out = io::stdout().lock();
            match write!(out, "{round}").and_then(|()| out.flush()) {
                // A reader that stops early (`| head`) has what it wanted.
                Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
                    eprintln!("hexcord: cannot write the pairing: {e}");
                    ExitCode::from(2)
                }
                _ => ExitCode::SUCCESS,
            }
        }
        Err(e @ PairingError::NoValidPairing) => {
            eprintln!("hexcord: {name}: {e}");
            ExitCode::FAILURE
        }
        Err(e @ PairingError::TournamentOver { .. }) => {
            eprintln!("hexcord: {name}: {e}");
            ExitCode::from(2)
        }
    }
}

fn recompute_ratings() -> anyhow::Result<()> {
    let config = Config::from_env()?;
    let url = config.database_url;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let pool = hexcord::db::connect(&url).await?;
        let mut tx = pool.begin().await?;
        hexcord::db::recompute_ratings(&mut tx).await?;
        tx.commit().await?;
        let n = hexcord::db::all_ratings(&pool).await?.len();
        println!("{n} ratings rebuilt in {}", hexcord::db::redact_url(&url));
        anyhow::Ok(())
    })
}

fn migrate_data(from: &str, to: &str) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let report = runtime.block_on(hexcord::db::migrate_data(from, to))?;
    println!(
        "{} copied to {}",
        hexcord::db::redact_url(from),
        hexcord::db::redact_url(to)
    );
    println!("{report}");
    Ok(())
}

/// `DATABASE_URL` from the environment or `.env`, for the commands that need no token.
fn database_url() -> anyhow::Result<String> {
    Ok(Config::from_env()?.database_url)
}

fn backup(file: &std::path::Path) -> anyhow::Result<()> {
    let url = database_url()?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let contents = runtime.block_on(hexcord::db::backup::backup(&url, file))?;
    println!("{} written and checked: {contents}", file.display());
    Ok(())
}

fn restore(file: &std::path::Path) -> anyhow::Result<()> {
    let url = database_url()?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let (contents, kept) = runtime.block_on(hexcord::db::backup::restore(file, &url))?;
    println!(
        "{} restored from {}: {contents}",
        hexcord::db::redact_url(&url),
        file.display()
    );
    if let Some(kept) = kept {
        println!("the database it replaced is kept as {}", kept.display());
    }
    Ok(())
}

fn run_analyse(args: AnalyseArgs) -> anyhow::Result<()> {
    use hexcord::analysis::{self, AnalysisBudget};
    let text = std::fs::read_to_string(&args.record)
        .with_context(|| format!("cannot read {}", args.record.display()))?;
    let game = Game::from_record(&text)
        .with_context(|| format!("bad record {}", args.record.display()))?;
    let budget = match args.budget {
        Some(0) => bail!("--budget must be at least 1"),
        Some(n) => AnalysisBudget::uniform(n),
        None => AnalysisBudget::DEFAULT,
    };
    let theme = match args.theme {
        ThemeArg::Dark => Theme::Dark,
        ThemeArg::Light => Theme::Light,
    };
    let players: [String; 2] = match args.players {
        Some(p) if p.len() == 2 => [p[0].clone(), p[1].clone()],
        _ => [1, 2].map(|i| format!("Player {i}")),
    };
    let terminal = io::IsTerminal::is_terminal(&io::stderr());
    let started = std::time::Instant::now();
    let a = analysis::analyse(&game, budget, args.seed, |done, total| {
        if terminal {
            eprint!("\ranalysing: {done}/{total} positions");
        }
    });
    if terminal {
        eprintln!();
    }
    print!("{}", a.table());
    println!(
        "{} positions in {:.1} s ({} per position, seed {})",
        a.positions.len(),
        started.elapsed().as_secs_f64(),
        a.budget,
        a.seed
    );
    let png = analysis::chart_png(&a, &players, theme)?;
    let out = args
        .output
        .unwrap_or_else(|| args.record.with_extension("analysis.png"));
    hexcord::engine::write_file(&out, &png)
        .with_context(|| format!("cannot write {}", out.display()))?;
    println!("{}", out.display());
    Ok(())
}

fn run_puzzles(args: PuzzlesArgs) -> anyhow::Result<()> {
    use hexcord::analysis::{self, AnalysisBudget};
    use hexcord::puzzles;
    use io::Write;
    let budget = match args.budget {
        Some(0) => bail!("--budget must be at least 1"),
        Some(n) => AnalysisBudget::uniform(n),
        None => AnalysisBudget::DEFAULT,
    };
    let nodes = match args.proof_budget {
        Some(0) => bail!("--proof-budget must be at least 1"),
        Some(n) => n,
        None => puzzles::PROOF_NODES,
    };
    // Opened once the input is read, so that bad input leaves no file behind.
    let open = |output: &Option<PathBuf>| -> anyhow::Result<Box<dyn Write>> {
        Ok(match output {
            Some(path) => Box::new(io::BufWriter::new(
                std::fs::File::create(path)
                    .with_context(|| format!("cannot write {}", path.display()))?,
            )),
            None => Box::new(io::stdout().lock()),
        })
    };
    if let Some(path) = &args.prove {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        return prove_puzzles(&text, nodes, budget, args.seed, || open(&args.output));
    }
    let self_play = match args.self_play {
        Some(n) => {
            let options = Options::parse_line(&args.game).map_err(|e| anyhow!("--game: {e}"))?;
            let level: hexcord::ai::Level =
                args.level.parse().map_err(|e| anyhow!("--level: {e}"))?;
            Some((n, options, level))
        }
        None => None,
    };
    // Every source is read before anything is searched, so a bad one costs no time.
    let mut games: Vec<(String, Option<i64>, Game)> = Vec::new();
    for path in &args.records {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let game =
            Game::from_record(&text).with_context(|| format!("bad record {}", path.display()))?;
        games.push((path.display().to_string(), None, game));
    }
    if args.database {
        let url = database_url()?;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let stored = runtime.block_on(async {
            let pool = hexcord::db::connect(&url).await?;
            let mut conn = pool.acquire().await?;
            let ids = hexcord::db::finished_game_ids(&mut *conn).await?;
            let mut stored = Vec::with_capacity(ids.len());
            for id in ids {
                match hexcord::db::load_game(&mut conn, id).await {
                    Ok(Some((_, game))) => stored.push((format!("game {id}"), Some(id), game)),
                    Ok(None) => {}
                    // A damaged game is left out, not the whole run.
                    Err(e) => eprintln!("game {id} left out: {e}"),
                }
            }
            anyhow::Ok(stored)
        })?;
        games.extend(stored);
    }
    if games.is_empty() && self_play.is_none() {
        bail!("give game records, --database, --self-play N or --prove FILE");
    }
    let mut out = open(&args.output)?;
    let started = std::time::Instant::now();
    let total = games.len() + self_play.as_ref().map_or(0, |s| s.0 as usize);
    let (mut done, mut found, mut positions) = (0usize, 0usize, 0usize);
    // Each position is written once in a run (two games can reach the same one).
    let mut written: HashSet<(String, String)> = HashSet::new();
    let mut each = |name: &str, id: Option<i64>, game: &Game| -> anyhow::Result<()> {
        let a = analysis::analyse(game, budget, args.seed, |_, _| {});
        let mut list = puzzles::find(game, &a, budget, args.seed);
        list.retain(|p| written.insert((p.variant.clone(), p.position.clone())));
        done += 1;
        positions += a.positions.len();
        found += list.len();
        for p in &mut list {
            p.source.game = id;
            writeln!(out, "{}", serde_json::to_string(p)?)?;
        }
        out.flush()?;
        // A line a game, also into a file: long runs can be followed.
        eprintln!(
            "{done}/{total} {name}: {} puzzles ({found} in {:.0} s)",
            list.len(),
            started.elapsed().as_secs_f64()
        );
        Ok(())
    };
    for (name, id, game) in &games {
        each(name, *id, game)?;
    }
    if let Some((n, options, level)) = &self_play {
        for k in 0..*n {
            let seed = args.seed.wrapping_add(u64::from(k));
            let game = puzzles::self_play(options, *level, seed);
            each(&format!("self-play {}", k + 1), None, &game)?;
        }
    }
    let secs = started.elapsed().as_secs_f64();
    eprintln!(
        "{found} puzzles from {done} games ({positions} positions) in {secs:.1} s: {:.1} per 100 \
         games, {:.1} s a game",
        found as f64 * 100.0 / done.max(1) as f64,
        secs / done.max(1) as f64
    );
    Ok(())
}

/// `hexcord puzzles --prove`: each puzzle of `text` proven with `nodes` per judged move; those
/// that stand written to the output `open` gives (opened once every line has been read), a line
/// on standard error for each.
fn prove_puzzles(
    text: &str,
    nodes: u64,
    budget: hexcord::analysis::AnalysisBudget,
    seed: u64,
    open: impl FnOnce() -> anyhow::Result<Box<dyn io::Write>>,
) -> anyhow::Result<()> {
    use hexcord::puzzles::{self, Puzzle};
    let started = std::time::Instant::now();
    let mut set: Vec<(usize, Puzzle)> = Vec::new();
    for (k, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let p: Puzzle = serde_json::from_str(line).with_context(|| format!("line {}", k + 1))?;
        p.game().map_err(|e| anyhow!("line {}: {e}", k + 1))?;
        set.push((k, p));
    }
    let mut out = open()?;
    let (mut kept, mut total) = (0, 0);
    for (k, p) in set {
        let t = std::time::Instant::now();
        let (stands, found) = puzzles::keep_proven(&p, nodes, budget, seed)
            .map_err(|e| anyhow!("line {}: {e}", k + 1))?;
        total += 1;
        let verdict = match (&stands, found.refuted_at) {
            (_, Some(at)) => format!(
                "move {} refuted (winning: {}); {}",
                at + 1,
                if found.winning.is_empty() {
                    "none".to_string()
                } else {
                    found.winning.join(", ")
                },
                match &stands {
                    Some(s) => format!("cut to {} moves", s.solution.len()),
                    None => "dropped".to_string(),
                }
            ),
            (Some(s), None) => s.proof.map(|p| p.to_string()).unwrap_or_default(),
            (None, None) => "dropped".to_string(),
        };
        eprintln!(
            "line {} {} {}: {verdict} ({} positions, at most {} a move; {:.1} s)",
            k + 1,
            p.variant,
            p.solution.join(" "),
            found.nodes,
            found.most,
            t.elapsed().as_secs_f64()
        );
        if let Some(s) = stands {
            kept += 1;
            writeln!(out, "{}", serde_json::to_string(&s)?)?;
        }
    }
    out.flush()?;
    eprintln!(
        "{kept} of {total} puzzles stand, proven in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

fn run_render(args: RenderArgs) -> anyhow::Result<()> {
    if let Some(dir) = args.gallery {
        let written = render::gallery(&dir)
            .with_context(|| format!("cannot write the gallery into {}", dir.display()))?;
        for path in written {
            println!("{}", path.display());
        }
        return Ok(());
    }
    let Some(record) = args.record else {
        bail!("give a game record file, or --gallery DIR");
    };
    let text = std::fs::read_to_string(&record)
        .with_context(|| format!("cannot read {}", record.display()))?;
    let game =
        Game::from_record(&text).with_context(|| format!("bad record {}", record.display()))?;
    let theme = match args.theme {
        ThemeArg::Dark => Theme::Dark,
        ThemeArg::Light => Theme::Light,
    };
    let players: [String; 2] = match args.players {
        Some(p) if p.len() == 2 => [p[0].clone(), p[1].clone()],
        _ => [1, 2].map(|i| format!("Player {i}")),
    };
    let (bytes, ext) = if args.replay {
        (render::replay(&game, &players, theme)?, "gif")
    } else {
        (render::render_png(&game, args.at, &players, theme)?, "png")
    };
    let out = args.output.unwrap_or_else(|| record.with_extension(ext));
    // Through a temporary file and a rename, refusing FIFOs, devices and links, as the
    // engine's `render` does.
    hexcord::engine::write_file(&out, &bytes)
        .with_context(|| format!("cannot write {}", out.display()))?;
    println!("{}", out.display());
    Ok(())
}
