//! The web board under load: a move posted from a page until the opponent's page has the new
//! state on its event stream, with many games at once; and the page's first load.
//!
//! `cargo bench --bench web` (release build): the web board's server on 127.0.0.1 over a fresh
//! SQLite file, 50 inpHeXion 7×7 games at once (`WEB_GAMES`), each player posting 8 moves in
//! turn (`WEB_MOVES`) by their link, first pausing 0–2 s before each move, then as soon as the
//! previous move reached them; the time runs
//! from sending the `POST …/move` to the opponent's `GET …/events` stream carrying the state
//! with the move (p50, p99, max). Then the page's first load: the page, the files it names and
//! the State, each a new connection (time and bytes). Plain HTTP/1.1 over TCP, as a browser on
//! the same machine would send it.

use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use hexcord::clock::Clock;
use hexcord::db::{self, ChannelId, GuildId, UserId};
use hexcord::games::Options;
use hexcord::play::actions::{self, Answered, ChallengeRequest, Core};
use hexcord::play::links;
use hexcord::play::terms::ChallengeAnswer;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

fn env_or(key: &str, default: usize) -> usize {
    std::env::var(key)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

/// One request on a new connection; the whole answer (head and body) as bytes.
async fn http(addr: std::net::SocketAddr, request: String) -> Vec<u8> {
    let mut s = TcpStream::connect(addr).await.expect("connect");
    s.write_all(request.as_bytes()).await.expect("send");
    let mut out = Vec::new();
    s.read_to_end(&mut out).await.expect("read");
    out
}

fn get(path: &str) -> String {
    format!("GET {path} HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n")
}

/// A page's event stream: reads until it has shown `"version":n`.
struct Stream {
    socket: TcpStream,
    seen: String,
}

impl Stream {
    async fn open(addr: std::net::SocketAddr, game: i64) -> Stream {
        let mut socket = TcpStream::connect(addr).await.expect("connect");
        let req = format!("GET /api/game/{game}/events HTTP/1.1\r\nHost: bench\r\n\r\n");
        socket.write_all(req.as_bytes()).await.expect("send");
        Stream {
            socket,
            seen: String::new(),
        }
    }

    async fn until_version(&mut self, version: i64) {
        let mark = format!("\"version\":{version},");
        let mut buf = [0u8; 65536];
        loop {
            if let Some(i) = self.seen.find(&mark) {
                self.seen.drain(..i + mark.len());
                return;
            }
            let n = self.socket.read(&mut buf).await.expect("stream read");
            assert!(n > 0, "the event stream ended");
            self.seen.push_str(&String::from_utf8_lossy(&buf[..n]));
        }
    }
}

async fn started(core: &Core, a: UserId, b: UserId) -> i64 {
    let req = ChallengeRequest {
        guild_id: Some(GuildId(7)),
        channel_id: ChannelId(8),
        challenger: a,
        opponent: b,
        options: Options::parse_line("inphexion size=7").expect("options"),
        rated: false,
        seconds_per_move: 86_400,
        challenger_first: true,
        rematch_of: None,
        time_control: None,
        weekends_off: None,
    };
    let c = actions::open_challenge(core, &req)
        .await
        .expect("challenge");
    match actions::answer_challenge(core, c, b, ChallengeAnswer::Accept)
        .await
        .expect("accept")
    {
        Answered::Started { game, .. } => game,
        other => panic!("{other:?}"),
    }
}

/// Plays `moves` moves in game `id` from the pages: the player to move posts, the other's
/// stream must show it. The latencies.
async fn play(
    addr: std::net::SocketAddr,
    core: Core,
    id: i64,
    tokens: [String; 2],
    moves: usize,
    pauses: bool,
) -> Vec<Duration> {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::SmallRng::seed_from_u64(id as u64);
    let mut streams = [Stream::open(addr, id).await, Stream::open(addr, id).await];
    for s in &mut streams {
        s.until_version(0).await;
    }
    let mut times = Vec::new();
    for ply in 0..moves {
        let (_, game) = actions::load(&core.pool, id).await.expect("load");
        let legal = game.legal_notations();
        let mv = &legal[(ply * 7 + id as usize) % legal.len()];
        let seat = ply % 2;
        if pauses {
            tokio::time::sleep(Duration::from_millis(rng.random_range(0..2000))).await;
        }
        let body = format!("{{\"move\":\"{mv}\",\"version\":{ply}}}");
        let req = format!(
            "POST /api/game/{id}/move HTTP/1.1\r\nHost: bench\r\nConnection: close\r\nAuthorization: Bearer {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            tokens[seat],
            body.len()
        );
        let t0 = Instant::now();
        let answer = http(addr, req).await;
        assert!(
            answer.starts_with(b"HTTP/1.1 200"),
            "{}",
            String::from_utf8_lossy(&answer)
        );
        streams[1 - seat].until_version(ply as i64 + 1).await;
        times.push(t0.elapsed());
        streams[seat].until_version(ply as i64 + 1).await;
    }
    times
}

fn main() {
    let games = env_or("WEB_GAMES", 50);
    let moves = env_or("WEB_MOVES", 8);
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    rt.block_on(async {
        let (pool, _file) = db::testing::temp_db().await;
        let core = Core::new(pool, Clock::System);
        let mut players = Vec::new();
        for g in 0..games as u64 {
            let (a, b) = (UserId(1000 + 2 * g), UserId(1001 + 2 * g));
            for (u, name) in [(a, "ann"), (b, "bob")] {
                db::upsert_player(&core.pool, u, &format!("{name}{g}"), 0)
                    .await
                    .expect("player");
            }
            players.push((a, b));
        }
        let mut ids: Vec<(i64, [String; 2])> = Vec::new();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("listen");
        let addr = listener.local_addr().expect("address");
        let web = hexcord::web::Web::new(core.clone(), Arc::new(OnceLock::new()));
        // Every page of the bench comes from 127.0.0.1, where each player's would come from
        // their own address: the cap of live streams per client is lifted, the others kept.
        let limits = hexcord::web::Limits {
            streams_per_client: usize::MAX,
            ..hexcord::web::Limits::for_file_limit(4096)
        };
        tokio::spawn(hexcord::web::serve_with(listener, web, limits));

        // Players thinking 0–2 s before each move, then all moving at once as fast as they can.
        for pauses in [true, false] {
            let mut ids_now = Vec::new();
            for (a, b) in &players {
                let id = started(&core, *a, *b).await;
                let now = core.clock.now();
                let tokens = [
                    links::issue(&core.pool, id, *a, now).await.expect("token"),
                    links::issue(&core.pool, id, *b, now).await.expect("token"),
                ];
                ids_now.push((id, tokens));
            }
            let began = Instant::now();
            let tasks: Vec<_> = ids_now
                .iter()
                .cloned()
                .map(|(id, tokens)| tokio::spawn(play(addr, core.clone(), id, tokens, moves, pauses)))
                .collect();
            let mut all = Vec::new();
            for t in tasks {
                all.extend(t.await.expect("a game's task"));
            }
            let wall = began.elapsed();
            all.sort();
            println!(
                "move posted from a page → the opponent's event stream has it, {}: {} games at once, {} moves in {:.1} s: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms (target p99 < 100 ms)",
                if pauses { "players pausing 0–2 s" } else { "no pauses" },
                games,
                all.len(),
                wall.as_secs_f64(),
                percentile(&all, 0.5).as_secs_f64() * 1e3,
                percentile(&all, 0.99).as_secs_f64() * 1e3,
                all.last().copied().unwrap_or_default().as_secs_f64() * 1e3,
            );
            ids = ids_now;
        }

        // The first load of a page: the page, each file it names, the State.
        let id = ids[0].0;
        let t0 = Instant::now();
        let page = http(addr, get(&format!("/game/{id}"))).await;
        let text = String::from_utf8_lossy(&page).to_string();
        let mut bytes = page.len();
        let mut names: Vec<String> = text
            .match_indices("/assets/")
            .filter_map(|(i, _)| {
                text[i..]
                    .split(['"', '\'', ')', ' '])
                    .next()
                    .map(str::to_string)
            })
            .collect();
        names.sort();
        names.dedup();
        // The modules the scripts import (`import … from './picker.js'`), once each.
        let mut i = 0;
        while i < names.len() {
            let answer = http(addr, get(&names[i])).await;
            bytes += answer.len();
            if names[i].ends_with(".js") {
                let text = String::from_utf8_lossy(&answer).to_string();
                for line in text.lines().filter(|l| l.trim_start().starts_with("import")) {
                    let Some(at) = line.find("./") else { continue };
                    if let Some(name) = line[at + 2..].split(['"', '\'']).next() {
                        let path = format!("/assets/{name}");
                        if !names.contains(&path) {
                            names.push(path);
                        }
                    }
                }
            }
            i += 1;
        }
        bytes += http(addr, get(&format!("/api/game/{id}/state")))
            .await
            .len();
        println!(
            "the page's first load: {} requests ({}), {:.1} ms, {:.1} KB with headers",
            names.len() + 2,
            std::iter::once(format!("/game/{id}"))
                .chain(names.iter().cloned())
                .chain(std::iter::once(format!("/api/game/{id}/state")))
                .collect::<Vec<_>>()
                .join(", "),
            t0.elapsed().as_secs_f64() * 1e3,
            bytes as f64 / 1024.0
        );
    });
}
