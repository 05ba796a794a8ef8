//! The `hexcord` command line.
use std::io;

use clap::{Parser, Subcommand};

use hexcord::engine::{self, Engine};

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
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    match cli.command.unwrap_or(Command::Engine) {
        Command::Engine => {
            let stdin = io::stdin();
            let stdout = io::stdout();
            engine::run(stdin.lock(), stdout.lock(), &mut Engine::new())?;
        }
    }
    Ok(())
}
