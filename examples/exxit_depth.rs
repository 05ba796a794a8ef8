//! How deep EXXIT's alpha-beta search (`medium`, `hard`) gets: plays games of the search against
//! itself at a budget of evaluated positions and prints, per stage of the game, the depth of the
//! deepest completed iteration, the time per move and the positions evaluated per second.
//! `cargo run --release --example exxit_depth -- [NODES [GAMES]]` (defaults: hard's budget, 2).
use std::time::Instant;

use hexcord::ai::{deep, HARD_NODES};
use hexcord::games::exxit::{Options, Position};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let nodes: u64 = args
        .get(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(HARD_NODES);
    let games: u32 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(2);
    // Per stage (plies 0–39, 40–79, 80+): moves searched, sum of depths, min and max depth,
    // seconds and positions.
    let mut stages = [(0u32, 0u32, u32::MAX, 0u32, 0f64, 0u64); 3];
    let mut times = Vec::new();
    for _ in 0..games {
        let mut p = Position::new(&Options::default());
        let mut ply = 0usize;
        while !p.is_over() {
            let t = Instant::now();
            let Some(c) = deep::search(&p, nodes, None, None) else {
                break;
            };
            let s = t.elapsed().as_secs_f64();
            if c.depth > 0 {
                let st = &mut stages[(ply / 40).min(2)];
                st.0 += 1;
                st.1 += c.depth;
                st.2 = st.2.min(c.depth);
                st.3 = st.3.max(c.depth);
                st.4 += s;
                st.5 += c.nodes;
                times.push(s);
            }
            p.play(&c.mv);
            ply += 1;
        }
        println!("game over after {ply} plies: {}", p.to_line());
    }
    for (i, (n, sum, lo, hi, secs, pos)) in stages.iter().enumerate() {
        if *n == 0 {
            continue;
        }
        println!(
            "plies {}: {n} moves, depth mean {:.1} (min {lo}, max {hi}), {:.0} ms a move, {:.2} M \
             positions a second",
            ["0-39", "40-79", "80+"][i],
            *sum as f64 / *n as f64,
            secs * 1000.0 / *n as f64,
            *pos as f64 / secs / 1e6
        );
    }
    times.sort_by(f64::total_cmp);
    if !times.is_empty() {
        println!(
            "nodes {nodes}: median {:.0} ms a move, 90th percentile {:.0} ms",
            times[times.len() / 2] * 1000.0,
            times[times.len() * 9 / 10] * 1000.0
        );
    }
}
