use std::process::ExitCode;

fn main() -> ExitCode {
    match std::env::args().nth(1).as_deref() {
        None | Some("bot") => hexcord::bot::main(),
        Some(other) => {
            eprintln!("hexcord: unknown command `{other}`; run `hexcord` or `hexcord bot` to start the bot");
            ExitCode::from(2)
        }
    }
}
