//! Perft from the standard EXXIT start, against tests/data/exxit_perft.txt
//! (`exxit tiles=39 | DEPTH | COUNT | DISTINCT`).
use hexcord::games::exxit::{Options as ExxitOptions, Position};
use hexcord::games::{Game, Options};

fn table() -> Vec<(String, u32, u64, u64)> {
    let text = std::fs::read_to_string("tests/data/exxit_perft.txt").expect("perft data");
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('|').map(str::trim).collect();
            assert_eq!(f.len(), 4, "{l}");
            (
                f[0].to_string(),
                f[1].parse().expect("depth"),
                f[2].parse().expect("count"),
                f[3].parse().expect("distinct"),
            )
        })
        .collect()
}

#[test]
fn perft_matches_the_table() {
    let rows = table();
    assert!(rows.len() >= 6);
    for (variant, depth, count, distinct) in rows {
        let words: Vec<&str> = variant.split_whitespace().skip(1).collect();
        let p = Position::new(&ExxitOptions::parse(&words).expect("options"));
        assert_eq!(p.perft(depth), count, "{variant} depth {depth}");
        assert_eq!(
            p.distinct_successors(depth),
            distinct,
            "{variant} depth {depth}"
        );
    }
}

/// The same count through the game-agnostic front, with moves as text and every position
/// rebuilt from its line (so nothing outside the line influences the moves).
fn perft_by_text(game: &Game, depth: u32) -> u64 {
    if depth == 0 || game.is_over() {
        return 1;
    }
    let line = game.position().to_line();
    let mut n = 0;
    for m in game.legal_notations() {
        let mut g = Game::from_position(game.options().clone(), &line).expect("line");
        g.play_text(&m).expect("legal move");
        n += perft_by_text(&g, depth - 1);
    }
    n
}

#[test]
fn perft_through_text_agrees() {
    for (variant, depth, count, _) in table().into_iter().filter(|r| r.1 <= 6) {
        let game = Game::new(Options::parse_line(&variant).expect("options"));
        assert_eq!(
            perft_by_text(&game, depth),
            count,
            "{variant} depth {depth}"
        );
    }
}
