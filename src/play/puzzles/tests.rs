//! Judging answers against a puzzle's line, the starter set, and an answer's effects on both
//! backends.

use super::*;
use crate::db::testing::both_backends;
use crate::games::Options;
use crate::puzzles::Source;

/// A puzzle of three solver moves on a game of inpHeXion 5×5 after `ply` moves: its line is the
/// first legal move at each turn (the judge checks the line, not the engine).
fn line_puzzle(ply: usize) -> Puzzle {
    let mut game = Game::new(Options::parse_line("inphexion size=5").unwrap());
    for _ in 0..ply {
        let mv = game.legal_moves()[0];
        game.play(mv).unwrap();
    }
    let start = game.position().clone();
    let mut solution = Vec::new();
    for _ in 0..5 {
        let mv = game.legal_moves()[0];
        solution.push(mv.to_string());
        game.play(mv).unwrap();
    }
    Puzzle {
        variant: "inphexion size=5".into(),
        position: start.to_line(),
        to_move: start.to_move().index() as u8,
        solution,
        difficulty: 3,
        chance: 0.9,
        second: 0.3,
        source: Source::default(),
        proof: None,
    }
}

fn mv(puzzle: &Puzzle, step: usize, text: &str) -> Move {
    let game = at_step(puzzle, step).unwrap();
    game.legal_moves()
        .into_iter()
        .find(|m| m.to_string() == text)
        .unwrap()
}

fn other_move(puzzle: &Puzzle, step: usize) -> Move {
    let game = at_step(puzzle, step).unwrap();
    game.legal_moves()
        .into_iter()
        .find(|m| m.to_string() != puzzle.solution[step])
        .unwrap()
}

#[test]
fn a_line_in_words_reads_each_move_on_its_position_with_the_solvers_in_bold() {
    let puzzle = line_puzzle(2);
    let words = |step: usize| {
        let game = at_step(&puzzle, step).unwrap();
        let text = &puzzle.solution[step];
        super::super::picker::describe_notation(Lang::EN, game.position(), text).unwrap()
    };
    let s = &puzzle.solution;
    assert_eq!(
        line_words(Lang::EN, &puzzle, 0, 3),
        format!(
            "**{}** ({}) → {} ({}) → **{}** ({})",
            words(0),
            s[0],
            words(1),
            s[1],
            words(2),
            s[2]
        )
    );
    // The replies alone (what /puzzle says after a right move), and the rest of the line.
    assert_eq!(
        line_words(Lang::EN, &puzzle, 1, 2),
        format!("{} ({})", words(1), s[1])
    );
    assert!(line_words(Lang::EN, &puzzle, 3, 5).starts_with(&format!("{} ({})", words(3), s[3])));
    // Words, not notation: "Push the disc on a1 to a2".
    assert!(words(0).starts_with("Push the disc on"), "{}", words(0));
    // A line that stops replaying (a corrupt row) goes on in notation, turns alternating.
    let mut broken = puzzle.clone();
    broken.solution[1] = "z9".into();
    assert_eq!(
        line_words(Lang::EN, &broken, 0, 3),
        format!("**{}** ({}) → z9 → **{}**", words(0), s[0], s[2])
    );
}

#[test]
fn the_line_is_followed_with_the_bots_replies_and_ends_solved() {
    let p = line_puzzle(4);
    assert_eq!(p.solver_moves(), 3);
    let first = mv(&p, 0, &p.solution[0]);
    assert_eq!(
        judge(&p, 0, first),
        Ok(Verdict::Right {
            replies: vec![p.solution[1].clone()],
            step: 2
        })
    );
    let second = mv(&p, 2, &p.solution[2]);
    assert_eq!(
        judge(&p, 2, second),
        Ok(Verdict::Right {
            replies: vec![p.solution[3].clone()],
            step: 4
        })
    );
    assert_eq!(judge(&p, 4, mv(&p, 4, &p.solution[4])), Ok(Verdict::Solved));
    // Any other move, at any step, is wrong.
    for step in [0, 2, 4] {
        assert_eq!(judge(&p, step, other_move(&p, step)), Ok(Verdict::Wrong));
    }
}

#[test]
fn a_move_that_wins_at_once_solves_and_a_damaged_line_is_an_error() {
    use rand::{Rng, SeedableRng};
    // A position of a seeded random game where the side to move can win at once: the win
    // solves a puzzle whose line says another move.
    let mut checked = false;
    'games: for seed in 0..200u64 {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
        let mut game = Game::new(Options::parse_line("inphexion size=5").unwrap());
        while !game.is_over() {
            let me = game.position().to_move();
            let moves = game.legal_moves();
            let wins: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|m| {
                    let mut g = game.clone();
                    g.play(*m).is_ok() && g.outcome().is_some_and(|o| o.winner == Some(me))
                })
                .collect();
            let other = moves.iter().find(|m| !wins.contains(m));
            if let (Some(&win), Some(&other)) = (wins.first(), other) {
                let pos = game.position();
                let p = Puzzle {
                    variant: "inphexion size=5".into(),
                    position: pos.to_line(),
                    to_move: me.index() as u8,
                    solution: vec![other.to_string()],
                    difficulty: 1,
                    chance: 1.0,
                    second: 0.0,
                    source: Source::default(),
                    proof: None,
                };
                assert_eq!(judge(&p, 0, win), Ok(Verdict::Solved));
                assert_eq!(judge(&p, 0, other), Ok(Verdict::Solved), "the line's move");
                checked = true;
                break 'games;
            }
            let mv = moves[rng.random_range(0..moves.len())];
            game.play(mv).unwrap();
        }
    }
    assert!(checked, "no position with a move that wins at once");
    // A line whose reply does not play is reported as an error, not judged.
    let mut bad = line_puzzle(4);
    bad.solution[1] = "zz9".into();
    let first = mv(&bad, 0, &bad.solution[0]);
    assert!(judge(&bad, 0, first).is_err());
    assert!(parse_set(&serde_json::to_string(&bad).unwrap()).is_err());
}

#[test]
fn every_line_of_the_starter_set_is_a_puzzle_that_replays() {
    let set = parse_set(STARTER).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        set.len(),
        STARTER.lines().filter(|l| !l.trim().is_empty()).count()
    );
    for p in &set {
        assert!(!p.solution.is_empty(), "{p:?}");
        assert!((1..=5).contains(&p.difficulty), "{p:?}");
        assert!(p.game().is_ok(), "{p:?}");
    }
    let err = parse_set("\n{\"variant\": 3}\n").unwrap_err();
    assert!(err.starts_with("line 2:"), "{err}");
}

both_backends! {
    async fn the_starter_set_is_imported_once_and_keeps_its_ratings(pool) {
        let set = parse_set(STARTER).unwrap();
        let mut conn = pool.acquire().await.unwrap();
        assert_eq!(import_starter(&mut conn, 10).await.unwrap(), set.len());
        let count = db::count_puzzles(&pool, None).await.unwrap();
        assert_eq!(count, set.len() as i64);
        // A rating moved by an attempt stays through the next import, which adds nothing.
        if count > 0 {
            sqlx::query("UPDATE puzzles SET rating = 1234.5").execute(&pool).await.unwrap();
        }
        assert_eq!(import_starter(&mut conn, 20).await.unwrap(), 0);
        assert_eq!(db::count_puzzles(&pool, None).await.unwrap(), count);
        let changed: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM puzzles WHERE rating <> 1234.5 OR created_at <> 10")
            .fetch_one(&pool)
            .await
            .unwrap();
        assert_eq!(changed, 0);
    }
}

both_backends! {
    async fn a_starter_puzzle_no_longer_shipped_is_retired(pool) {
        // An older set held one more puzzle: a position a move after the first one's.
        let set = parse_set(STARTER).unwrap();
        let mut dropped = set[0].clone();
        let mut game = dropped.game().unwrap();
        let mv = game.legal_moves()[0];
        game.play(mv).unwrap();
        dropped.position = game.position().to_line();
        dropped.to_move = game.position().to_move().index() as u8;
        dropped.solution = vec![game.legal_moves()[0].to_string()];
        let mut conn = pool.acquire().await.unwrap();
        db::store_puzzles(&mut conn, std::slice::from_ref(&dropped), db::Origin::Starter, 5)
            .await
            .unwrap();
        let old: i64 = sqlx::query_scalar("SELECT id FROM puzzles").fetch_one(&pool).await.unwrap();
        // Nearest a newcomer's rating, and the first by number: given and posted first if it stood.
        sqlx::query("UPDATE puzzles SET rating = 1500").execute(&pool).await.unwrap();
        assert_eq!(import_starter(&mut conn, 10).await.unwrap(), set.len());
        assert_eq!(db::count_puzzles(&pool, None).await.unwrap(), set.len() as i64);
        let retired: Vec<i64> =
            sqlx::query_scalar("SELECT id FROM puzzles WHERE retired_at IS NOT NULL")
                .fetch_all(&pool)
                .await
                .unwrap();
        assert_eq!(retired, vec![old]);
        let given = db::next_puzzle(&mut conn, crate::db::UserId(77), crate::db::GuildId(5), None)
            .await
            .unwrap()
            .expect("a puzzle");
        assert_ne!(given.id, old);
        let posted = db::next_daily_puzzle(&pool, crate::db::GuildId(5))
            .await
            .unwrap()
            .expect("a puzzle");
        assert_ne!(posted, old);
        // The next start retires nothing more.
        assert_eq!(import_starter(&mut conn, 20).await.unwrap(), 0);
        let still: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM puzzles WHERE retired_at IS NOT NULL")
                .fetch_one(&pool)
                .await
                .unwrap();
        assert_eq!(still, 1);
    }
}

both_backends! {
    async fn an_answer_moves_on_solves_or_fails_once_and_only_for_its_member(pool) {
        let (ann, bob) = (UserId(11), UserId(12));
        let guild = GuildId(5);
        for (id, name) in [(ann, "ann"), (bob, "bob")] {
            db::upsert_player(&pool, id, name, 1).await.unwrap();
        }
        let (p1, p2) = (line_puzzle(4), line_puzzle(6));
        for p in [&p1, &p2] {
            db::store_puzzle(&pool, p, Origin::Starter, 1).await.unwrap().unwrap();
        }
        let given = give_puzzle(&pool, ann, guild, None, 5).await.unwrap();
        assert!(!given.resumed);
        let puzzle = given.puzzle.puzzle.clone();
        let attempt = given.attempt.id;
        // Asked again before answering: the same attempt, taken up again.
        let again = give_puzzle(&pool, ann, guild, Some(GameKind::Inphexion), 6).await.unwrap();
        assert!(again.resumed && again.attempt.id == attempt);
        // Bob's press on Ann's attempt, and an old step: refused, nothing changed.
        let first = mv(&puzzle, 0, &puzzle.solution[0]);
        for (who, step, want) in [(bob, 0, "puzzle-not-yours"), (ann, 2, "puzzle-stale")] {
            match answer_puzzle(&pool, attempt, who, step, first, 7).await {
                Err(Error::Refused(Refusal(t))) => assert_eq!(t.id, want),
                other => panic!("{other:?}"),
            }
        }
        // Right twice, then the last move: solved, rated once.
        let mut step = 0;
        loop {
            let m = mv(&puzzle, step as usize, &puzzle.solution[step as usize]);
            match answer_puzzle(&pool, attempt, ann, step, m, 8).await.unwrap() {
                Answered::Next { step: s, replies, .. } => {
                    assert_eq!(replies.len(), 1);
                    step = s;
                }
                Answered::Done { solved, rated, .. } => {
                    assert!(solved);
                    assert_eq!((rated.after.solved, rated.after.streak), (1, 1));
                    break;
                }
            }
        }
        assert_eq!(step, 4);
        let m = mv(&puzzle, 4, &puzzle.solution[4]);
        assert!(matches!(answer_puzzle(&pool, attempt, ann, 4, m, 9).await, Err(Error::Refused(_))));
        // The next puzzle (the other one), failed at once: the streak goes back to 0.
        let next = give_puzzle(&pool, ann, guild, None, 10).await.unwrap();
        assert_ne!(next.attempt.id, attempt);
        let wrong = other_move(&next.puzzle.puzzle, 0);
        match answer_puzzle(&pool, next.attempt.id, ann, 0, wrong, 11).await.unwrap() {
            Answered::Done { solved, rated, step, .. } => {
                assert!(!solved);
                assert_eq!(step, 0);
                assert_eq!((rated.after.solved, rated.after.failed, rated.after.streak, rated.after.best_streak), (1, 1, 0, 1));
                assert!(rated.after.rating < rated.before.rating);
            }
            other => panic!("{other:?}"),
        }
        // None left for Ann; Bob still has both.
        match give_puzzle(&pool, ann, guild, None, 12).await {
            Err(Error::Refused(Refusal(t))) => assert_eq!(t.id, "puzzle-none-left"),
            other => panic!("{other:?}"),
        }
        assert!(give_puzzle(&pool, bob, guild, None, 12).await.is_ok());
    }
}

#[tokio::test]
async fn puzzles_found_later_are_stored_with_the_game_and_a_failure_is_logged() {
    let (pool, _file) = crate::db::testing::temp_db().await;
    let (ann, bob) = (UserId(11), UserId(12));
    for (id, name) in [(ann, "ann"), (bob, "bob")] {
        db::upsert_player(&pool, id, name, 1).await.unwrap();
    }
    let game = db::insert_game(
        &pool,
        &db::NewGame {
            guild_id: Some(GuildId(5)),
            channel_id: db::ChannelId(6),
            options: &Options::parse_line("inphexion size=5").unwrap(),
            players: [ann, bob],
            rated: true,
            now: 1,
            seconds_per_move: 86_400,
            deadline_at: None,
            clock: None,
        },
    )
    .await
    .unwrap();
    let core = crate::play::actions::Core::new(pool.clone(), crate::clock::Clock::System);
    let found = vec![line_puzzle(4), line_puzzle(6)];
    let given = found.clone();
    assert_eq!(
        find_later(&core, game, [ann, bob], move || given)
            .await
            .unwrap(),
        Some(2)
    );
    for p in &found {
        let id: i64 = sqlx::query_scalar("SELECT id FROM puzzles WHERE position = $1")
            .bind(&p.position)
            .fetch_one(&pool)
            .await
            .unwrap();
        let row = db::fetch_puzzle(&pool, id).await.unwrap().unwrap();
        assert_eq!(
            row.origin,
            Origin::Game {
                game,
                players: [ann, bob]
            }
        );
        assert_eq!(row.puzzle.source.game, Some(game));
    }
    // Found again (the analysis asked again): nothing new.
    let again = found.clone();
    assert_eq!(
        find_later(&core, game, [ann, bob], move || again)
            .await
            .unwrap(),
        Some(0)
    );
    // A search that fails is logged with the game, not lost.
    let logs = crate::db::testing::Logs::capture();
    let failed = find_later(&core, game, [ann, bob], || panic!("search failed"))
        .await
        .unwrap();
    assert_eq!(failed, None);
    let text = logs.text();
    assert!(
        text.contains("finding the game's puzzles failed")
            && text.contains(&format!("game={game}")),
        "{text}"
    );
}
