use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::*;
use crate::games::Options;

/// A small budget: the solver finds a win in one whatever the budget.
const SMALL: AnalysisBudget = AnalysisBudget {
    playouts: 800,
    nodes: 5_000,
};

/// The legal moves of `pos` that win at once for the side to move.
fn winning_moves(pos: &Position) -> Vec<Move> {
    let me = pos.to_move();
    pos.legal_moves()
        .into_iter()
        .filter(|m| {
            let mut p = pos.clone();
            p.play(m).is_ok() && p.outcome().is_some_and(|o| o.winner == Some(me))
        })
        .collect()
}

/// A finished game in which a player misses a win in one: random moves until the first position
/// where the side to move can win at once, then a move that does not win and after which the
/// opponent can win at once, then the opponent's win. Returns the game and the number of the
/// missed move.
fn missed_win(line: &str) -> (Game, usize) {
    for seed in 0..400u64 {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut game = Game::new(Options::parse_line(line).unwrap());
        while !game.is_over() {
            let pos = game.position().clone();
            let wins = winning_moves(&pos);
            if !wins.is_empty() {
                let blunder = pos
                    .legal_moves()
                    .into_iter()
                    .filter(|m| !wins.contains(m))
                    .find_map(|m| {
                        let mut p = pos.clone();
                        p.play(&m).ok()?;
                        let reply = *winning_moves(&p).first()?;
                        Some((m, reply))
                    });
                let Some((m, reply)) = blunder else { break };
                let number = game.ply() + 1;
                game.play(m).unwrap();
                game.play(reply).unwrap();
                assert!(game.is_over());
                return (game, number);
            }
            let moves = game.legal_moves();
            let m = moves[rng.random_range(0..moves.len())];
            game.play(m).unwrap();
        }
    }
    panic!("no game with a missed win in one found for {line}");
}

fn check_missed_win(line: &str) {
    let (game, number) = missed_win(line);
    let mut calls = Vec::new();
    let a = analyse(&game, SMALL, 7, |done, total| calls.push((done, total)));
    assert_eq!(a.positions.len(), game.ply() + 1);
    assert_eq!(a.moves.len(), game.ply());
    assert_eq!(
        calls.last(),
        Some(&(game.ply() + 1, game.ply() + 1)),
        "{line}"
    );
    assert!(calls.windows(2).all(|w| w[0].0 < w[1].0));
    assert_eq!(
        a.turning_points.first(),
        Some(&number),
        "{line}: {}",
        a.table()
    );
    let m = a.move_number(number).unwrap();
    assert!(m.loss > 0.99, "{line}: {m:?}");
    // The better move wins at once.
    let before = game.position_at(number - 1).unwrap().into_owned();
    let better = before.parse_move(m.better.as_deref().unwrap()).unwrap();
    assert!(winning_moves(&before).contains(&better), "{line}: {m:?}");
    // The final position is decided.
    let last = a.positions.last().unwrap();
    assert!(last.first_chance == 0.0 || last.first_chance == 1.0);
    assert!(a.table().contains("turning points: "));
}

#[test]
fn a_missed_win_in_one_is_the_first_turning_point_in_inphexion() {
    check_missed_win("inphexion size=5");
}

#[test]
fn a_missed_win_in_one_is_the_first_turning_point_in_exxit() {
    check_missed_win("exxit tiles=19");
}

#[test]
fn analyses_are_deterministic_and_round_trip_through_json() {
    let mut rng = SmallRng::seed_from_u64(3);
    let mut game = Game::new(Options::parse_line("inphexion size=4").unwrap());
    while !game.is_over() && game.ply() < 12 {
        let moves = game.legal_moves();
        game.play(moves[rng.random_range(0..moves.len())]).unwrap();
    }
    let a = analyse(&game, SMALL, 11, |_, _| {});
    let b = analyse(&game, SMALL, 11, |_, _| {});
    assert_eq!(a, b);
    let json = serde_json::to_string(&a).unwrap();
    let back: Analysis = serde_json::from_str(&json).unwrap();
    assert_eq!(back, a);
    for m in &a.moves {
        assert!((0.0..=1.0).contains(&m.before) && (0.0..=1.0).contains(&m.after));
        assert!(m.loss >= 0.0);
    }
}

#[test]
fn the_chart_is_a_png_of_the_expected_size() {
    let (game, _) = missed_win("inphexion size=5");
    let a = analyse(&game, SMALL, 1, |_, _| {});
    let players = ["Alice".to_string(), "Bob".to_string()];
    for theme in Theme::ALL {
        let png = chart_png(&a, &players, theme).unwrap();
        assert_eq!(&png[1..4], b"PNG");
        let img = image::load_from_memory(&png).unwrap();
        assert_eq!(
            (img.width(), img.height()),
            (render::chart::WIDTH, render::chart::HEIGHT)
        );
    }
    // A game without moves still gives a chart.
    let empty = analyse(
        &Game::new(Options::parse_line("exxit").unwrap()),
        SMALL,
        1,
        |_, _| {},
    );
    assert!(empty.moves.is_empty());
    assert!(chart_png(&empty, &players, Theme::Dark).is_ok());
}
