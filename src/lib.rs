//! hexcord: inpHeXion and EXXIT on Discord — the rules engines, the pictures, the AI, the engine
//! protocol and the bot. This documentation is the developer guide (`cargo doc --open`); the
//! README is for the people who run the bot and play on it. The operators' details the README
//! points to are here too: storage, PostgreSQL, shards and backups in [`db`], the web board and
//! putting it on the internet in [`web`], Activities in [`web::activity`], the monitoring
//! figures in [`metrics`], Discord's rate limits in [`bot::rest`].
//!
//! # The layers
//!
//! ```text
//! Discord ──gateway, REST── bot/  commands/ (slash commands, one module per group; autocomplete)
//!                                 components (buttons, the picker's menus; the custom_id codec)
//!                                 delivery (posts the queue) · failure (why Discord refused)
//!                                 seal (keyed buttons) · mod.rs (the framework set-up, start-up)
//!                                   │ parse, call an action, answer the interaction
//!                                   ▼          web/ (axum: the board's page, its JSON and
//!                                   │          live events; moves by private link) ──┐
//!                                   ▼◄─────────────────────────────────────────────┘
//! play/ (no Discord)   actions/: one file per group of verbs; each decides, stores and enqueues
//!                      in one transaction · timers · opponent (the bot as a player) · schedule
//!                      access (who may do what) · picker (a move step by step)
//!                      the texts: words, terms, present
//!                                   │ uses
//!      ┌──────────────┬─────────────┴──┬────────────────┬──────────────┬───────────────┐
//!   db/ (sqlx)    games/ (rules)   render/ (PNG, GIF)   ai/ (search)   i18n (Fluent)   rating
//!   SQLite file    ▲    ▲            ▲     ▲              ▲                            clock
//!   or PostgreSQL  │    └─── hex ────┘     │              │                            config
//!                  └───────────────────────┴──────────────┘  render/ and ai/ build on games/
//! engine (the text protocol), arena, analysis, puzzles: more front ends on games/, ai/, render/
//! src/main.rs: the command line (bot, engine, render, analyse, puzzles, arena,
//! recompute-ratings, migrate-data); it owns the runtime, the logging and the configuration
//! ```
//!
//! - [`games`] knows nothing of Discord, SQL or pixels: positions, moves, notation and outcomes of
//!   both games behind one enum ([`games::Game`], [`games::Position`], [`games::Move`]). It depends
//!   on [`hex`] only. The rules as implemented are in [`games::inphexion`] and [`games::exxit`].
//! - [`render`] turns a position into a picture with imageproc: pure functions, no I/O.
//! - [`ai`] searches over a small trait that both games implement; [`analysis`], [`puzzles`]
//!   (cut from analysed games), [`arena`] and [`engine`] are front ends on it.
//! - [`learn`] is the course for newcomers: levels as data (`assets/learn/`), each move judged by
//!   the rules; [`play::learn`] stores a member's progress and `/learn` shows it.
//! - [`db`] owns every SQL statement, for both backends; [`db::MEMBER_DATA`] lists every column
//!   holding a member's id, for `/privacy` (what is stored, and what deleting it does).
//! - [`play`] holds everything a game needs that is not Discord: the [`play::actions`] (the game's
//!   verbs), the [`play::timers`], the bot [`play::opponent`], the [`play::schedule`] of deadlines
//!   and vacations, the [`play::access`] rules, the move [`play::picker`] and the texts of
//!   announcements ([`play::words`], [`play::terms`], [`play::present`]).
//! - [`bot`] is thin: it reads what Discord sent, calls an action and answers. Every other message
//!   goes through the delivery queue, which [`bot::delivery`] posts.
//! - [`web`] is another front end beside [`bot`], in the same process: a page per game where its
//!   players click their moves (through the same actions) and anyone watches it live. Without a
//!   token it runs alone ([`web::local`]): games against the bot or two players at one screen,
//!   started and played on its pages ([`play::local`]), nothing sent to Discord.
//! - [`i18n`] gives every text a person reads, in their language; [`rating`] is the Glicko-2 maths;
//!   [`standings`] a tournament's table; [`clock`] the time the bot acts on; [`time_control`] a
//!   correspondence game's clock (per-move or Fischer banks, weekends off in a time zone, pauses);
//!   [`config`] the settings.
//!
//! # Examples
//!
//! A game from its variant line, moves by their notation, a record and back:
//!
//! ```
//! use hexcord::games::{Game, Options};
//!
//! let mut game = Game::new(Options::parse_line("inphexion size=5 pie").unwrap());
//! game.play_text("c3").unwrap(); // White places a disc
//! assert!(game.legal_notations().contains(&"swap".to_string()));
//! game.play_text("c3-d3").unwrap(); // Black pushes it to d3 and takes c3
//! assert_eq!(game.ply(), 2);
//! assert!(game.play_text("a1").is_err()); // a placement now: refused, naming the rule (I5)
//!
//! let again = Game::from_record(&game.record()).unwrap();
//! assert_eq!(again.position().to_line(), game.position().to_line());
//! ```
//!
//! The AI's move in an EXXIT game, then the board as a PNG:
//!
//! ```
//! use hexcord::ai::{self, Budget};
//! use hexcord::games::{Game, Options};
//! use hexcord::render::{self, Theme};
//!
//! let mut game = Game::new(Options::parse_line("exxit tiles=19").unwrap());
//! for seed in 0..4 {
//!     let mv = ai::choose(game.position(), Budget::playouts(50), seed).unwrap();
//!     game.play(mv).unwrap();
//! }
//! let players = ["Alice".to_string(), "Bob".to_string()];
//! let png = render::render_png(&game, None, &players, Theme::Dark).unwrap();
//! assert!(png.starts_with(b"\x89PNG"));
//! ```
//!
//! # Conventions
//!
//! - **Errors.** The rules have small typed errors ([`games::MoveError`], [`games::IllegalMove`]).
//!   In the play layer a request refused is one [`play::Refusal`] (a [`i18n::Text`] shown to the
//!   member privately, in their language: nothing changed), carried in the layer's one error
//!   type, [`play::Error`]; anything else is [`play::Error::Internal`] (an `anyhow` error with its
//!   causes), logged while the member reads a short apology (or, when the database cannot be
//!   reached, that nothing was done). [`bot::BotError`] is the same type. Never show a member a
//!   raw SQL or HTTP error.
//! - **One transaction per action, with a version check.** An action loads the game, decides, and
//!   writes the change in one transaction whose write is conditional on the game's version (its
//!   ply count; [`db::record_move`]) or a row's status. Two requests racing on one game cannot both
//!   apply: the loser gets [`db::DbError::Conflict`], which becomes the refusal "the game changed".
//!   A cap (open challenges, games against the bot, vacation days) first takes the member's row
//!   ([`db::take_players`]), so requests arriving together are counted one after the other, on
//!   PostgreSQL as on SQLite.
//! - **The delivery queue (a transactional outbox).** Whatever a change must announce (the new
//!   board, a result, a reminder) is written with [`db::enqueue`] in the change's own transaction,
//!   and the action rings `Core::wake_delivery`. [`bot::delivery`] posts it later, in order per
//!   game, exactly once. An action never talks to Discord, so every decision is testable with a
//!   database file alone (`src/play/actions/tests.rs`).
//! - **Nothing important lives only in memory.** Timers, the queue and the bot's turns are rows,
//!   claimed by conditional writes or leases, so a restart or a second process handles each once.
//! - **Buttons** carry their state in the `custom_id` (`hx:<verb>:<id>…`, one codec:
//!   [`bot::components::Component`]) and are handled by the event handler, so they work after a
//!   restart. Buttons answering a request (a takeback, a call-off) also carry a seal
//!   ([`bot::seal`]).
//! - **Discord ids** are `u64` newtypes ([`db::UserId`] …), stored as `i64` in one place.
//! - **Texts** come from the Fluent files by message id ([`text!`], [`i18n::Text`]); no sentence a
//!   member reads is written in Rust.
//! - **Logs** with `tracing`. The token ([`config::Token`]) and a database password
//!   ([`db::redact_url`]) never appear in a log line or an error message.
//! - Types are nouns, functions verbs; no `utils` module.
//!
//! # How to add …
//!
//! **A command.**
//! 1. Write it in the module of its group under `src/bot/commands/`
//!    (`#[poise::command(slash_command)]`; its doc comment is its English description), and add
//!    it to the list in [`bot::commands::all`] (the order of `/help`). A command that makes
//!    sense in direct messages and group chats goes into its list of those too
//!    ([`bot::commands::Reach`], [`play::chats`]); every other one is offered in servers only.
//! 2. Give it `cmd-<name>` (with `.name`), `opt-<name>-<option>` and `choice-<option>-<n>` in
//!    `assets/locales/<language>/commands.ftl` for **every** language. English names are the
//!    code's; tests check that the files name every command, option and choice and that the doc
//!    comment equals the English description.
//! 3. Make it parse, call a [`play::actions`] function and answer. A new verb is a new function in
//!    the file of its group under `src/play/actions/` (one transaction, version check, `enqueue`),
//!    with its test in `src/play/actions/tests.rs`.
//! 4. List it in the README's command table (a test checks that the README names every command).
//!
//! **A table or a column.** A pair of migrations with the same version and name,
//! `migrations/sqlite/NNNN_name.sql` and `migrations/postgres/NNNN_name.sql` (the types map as
//! [`db`] says; a test compares the two schemas); the functions that read and write it in the
//! `src/db/` file of its group, re-exported by [`db`], named verb_noun, over an [`db::Executor`];
//! their tests with `both_backends!`. Never edit a migration already applied. `hexcord
//! migrate-data` copies a new table without more code.
//!
//! **A text.** A message in the `.ftl` file of its kind (`bot.ftl`: answers, announcements,
//! buttons; `commands.ftl`: command names, descriptions and their answers; `render.ftl`: words
//! drawn in pictures; `rules.ftl`: `/rules`) of every language, with the same variables; in the
//! code, `text!("id", name = value)` where the words are decided, rendered with
//! [`i18n::Text::render`] where the reader is known. Tests check that every language has the same
//! messages and variables and that every id the code uses exists.
//!
//! **A language.** A folder `assets/locales/<tag>/` (the tag as Discord names the locale: `fr`,
//! `pt-BR`) with the same files. Nothing else changes: the commands are registered with its names,
//! `/server language` offers it (`answer-language-name` is its own name), members whose client
//! uses it read it. Pictures draw Latin text with DejaVu Sans and Japanese with a subset of Noto
//! Sans CJK JP (`assets/fonts/subset.sh`); another script needs its glyphs added there
//! ([`render`]).
//!
//! # Tests
//!
//! Unit tests live beside the code; the rule tests name their rule (`i10_…`, `x16_…`).
//! `tests/reference/` is a slow, independent second implementation of both games written from the
//! rules, compared with the engines on random games (`compare_*.rs`) and on the perft data of
//! `tests/data/`; `tests/engine.rs` drives the real binary through the protocol transcripts of
//! `tests/data/protocol/`, `engine_fuzz.rs` feeds it random lines. The database tests run on a
//! fresh SQLite file and on a throwaway PostgreSQL cluster they start themselves ([`db`]).
//! `cargo test --test fake_discord` runs the real binary against a fake Discord
//! (`tests/fake_discord/`: REST and gateway on 127.0.0.1, every request checked against Discord's
//! OpenAPI description in `tests/data/discord/` and against [`bot::limits`]): whole games through commands, autocomplete and
//! buttons, restarts, `kill -9` between a move's commit and its board, a full disk, PostgreSQL
//! stopped mid-game, two processes sharing the shards. `benches/` holds the criterion benchmarks
//! and the bot's load tests; `examples/` a playout counter and render loops for profiling.
//!
//! # Performance
//!
//! The README's benchmark table has the current figures. Each is measured by (*bench X* is
//! `cargo bench --bench X`):
//!
//! - random playouts: `cargo run --release --example playouts -- GAME N`; benches `inphexion`
//!   and `exxit` for `neutral` and the legal moves;
//! - inpHeXion `easy` / `medium` moves: bench `ai`; EXXIT `medium` / `hard` depth and time:
//!   `cargo run --release --example exxit_depth -- NODES GAMES`;
//! - matches between levels and against random play or Boardspace's robots: `hexcord arena
//!   --game "inphexion size=7" --a easy --b random --games 100 --seed 7 --threads 2` and
//!   likewise (`--a beginner --games 40`; `--game "exxit tiles=39"`);
//! - PNG boards: bench `render`; puzzles from self-play: `hexcord puzzles --self-play 100 --game
//!   inphexion` (`exxit`); `/analysis`: bench `analysis`;
//! - the bot under 50 games at once: bench `bot`; the web board: bench `web`;
//! - Swiss rounds and standings: bench `pairings`; `hexcord pairings` on 3,000 players:
//!   `/usr/bin/time -v`;
//! - 500 games under Discord's rate limits: `SCALE_SETUPS=sqlite cargo bench --bench scale`, and
//!   `SCALE_SETUPS=postgres` for two processes on PostgreSQL.
//!
//! What keeps the bot fast:
//!
//! - A move's answer (read, replay, check, store with its board's queue row: one transaction)
//!   never waits for a picture: boards are drawn when the queue posts them, on every core but
//!   one ([`play::present`]), so a core is always free to answer interactions.
//! - A game in memory keeps its start and current positions only (an EXXIT position is about
//!   41 KB); `/board … ply` and replays replay the moves.
//! - The player to move is stored with each game, so `/games` and `/turn` are plain queries.
//! - Searches run on blocking threads with budgets of their own ([`ai`], [`play::opponent`]).
//!
//! `cargo bench --bench bot` runs the real binary against the fake Discord: it stores 10,000
//! finished random games for 200 players (and 200 active games of one member, for `/games`),
//! starts 50 games through `/challenge` and Accept, then plays 8 moves in each at once, first
//! with each member pausing 0–2 s before a move, then with no pause; the time runs from the
//! gateway event to the callback reaching the fake REST API, and the delay from a move's commit
//! to its board's post comes from the queue's own timestamps. `cargo bench --bench scale` loads
//! one process on SQLite and two on PostgreSQL with 500 games of 12 moves ([`bot::delivery`]
//! says what limits them). `cargo bench --bench web` times a move posted from a page until the
//! opponent's page has it on its event stream, 50 games at once, and the page's first load. Under `cargo test` both play a small version as a check.
//!
//! # Rule decisions
//!
//! Where the rules leave room, hexcord chooses: an EXXIT position line marks a pass with
//! `|passes 1` only (also after the second, game-ending pass), and a game ended by two passes is
//! written `over red wins: score 30-28 (passes)`; in EXXIT `expert` the six setup tiles are moves
//! `+CELL` taken from the supply, and with `pie` Red may swap after Silver's first move of normal
//! play; a game record may start from a set position (`setpos POSITION` on its second line) and may
//! end with `resign`.
pub mod ai;
pub mod analysis;
pub mod arena;
pub mod bot;
pub mod clock;
pub mod config;
pub mod db;
pub mod engine;
pub mod games;
pub mod hex;
pub mod i18n;
pub mod learn;
pub mod metrics;
pub mod pairings;
pub mod play;
pub mod puzzles;
pub mod rating;
pub mod render;
pub mod standings;
pub mod time_control;
pub mod web;

#[cfg(test)]
mod tests {
    /// A version as numbers, `1.94.0` and `1.94` as `[1, 94, 0]`.
    fn version(text: &str) -> Vec<u64> {
        let mut numbers: Vec<u64> = text.split('.').map(|n| n.parse().unwrap_or(0)).collect();
        numbers.resize(3, 0);
        numbers
    }

    /// The minimum Rust that `Cargo.toml` declares is what the locked dependencies need: none
    /// asks for a newer one, and the newest any asks for is the one declared. (The project's own
    /// use of the standard library is held to it by clippy's `incompatible_msrv` lint.)
    #[test]
    fn the_declared_minimum_rust_is_what_the_locked_dependencies_need() {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let out = std::process::Command::new(cargo)
            // Not offline: the metadata of every platform's dependencies is read, and a fresh
            // cargo home holds only this platform's (cargo fetches the others from the registry).
            .args(["metadata", "--locked", "--format-version", "1"])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .expect("cargo metadata runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let metadata: serde_json::Value =
            serde_json::from_slice(&out.stdout).expect("cargo metadata's JSON");
        let ours = version(env!("CARGO_PKG_RUST_VERSION"));
        let mut newest = (Vec::new(), String::new());
        for package in metadata["packages"].as_array().expect("packages") {
            if let Some(needs) = package["rust_version"].as_str() {
                let needs = version(needs);
                if needs > newest.0 {
                    newest = (needs, package["name"].as_str().unwrap_or("?").to_string());
                }
            }
        }
        let declared = env!("CARGO_PKG_RUST_VERSION");
        assert!(
            newest.0 <= ours,
            "{} needs Rust {:?}, newer than the {declared} in Cargo.toml",
            newest.1,
            newest.0
        );
        assert_eq!(
            ours[..2],
            newest.0[..2],
            "Cargo.toml declares Rust {declared}, but the newest any locked dependency needs is {:?} ({})",
            newest.0,
            newest.1
        );
    }
}
