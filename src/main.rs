//! The `hexcord` command line.
use std::io;

use clap::{Parser, Subcommand};

use anyhow::anyhow;
use hexcord::ai::arena;
use hexcord::engine::{self, Engine};
use hexcord::games::Options;

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
    /// Speak the engine text protocol on standard input and output (offline play, analysis).
    Engine,
    /// Play a match between two players and print A's wins, losses, draws and score.
    Arena {
        /// The variant line, e.g. "exxit tiles=39" or "inphexion size=7".
        #[arg(long, default_value = "inphexion")]
        game: String,
        /// Player A: random, easy, medium, hard, playouts:N, ms:N, alphabeta:D, engine:PROGRAM ARGS.
        #[arg(long)]
        a: String,
        /// Player B (as A).
        #[arg(long)]
        b: String,
        /// Number of games (colours alternate).
        #[arg(long, default_value_t = 100)]
        games: u32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, default_value_t = 2)]
        threads: usize,
    },
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    match cli.command.unwrap_or(Command::Engine) {
        Command::Engine => {
            let stdin = io::stdin();
            let stdout = io::stdout();
            engine::run(stdin.lock(), stdout.lock(), &mut Engine::new())?;
        }
        Command::Arena {
            game,
            a,
            b,
            games,
            seed,
            threads,
        } => {
            let m = arena::Match {
                options: Options::parse_line(&game).map_err(|e| anyhow!("--game: {e}"))?,
                a: a.parse().map_err(|e| anyhow!("--a: {e}"))?,
                b: b.parse().map_err(|e| anyhow!("--b: {e}"))?,
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
