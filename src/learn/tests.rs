use std::collections::HashSet;

use super::*;
use crate::i18n::{catalog, Lang};

fn all_places() -> Vec<Place> {
    GameKind::ALL.iter().flat_map(|&k| places(k)).collect()
}

fn exists(id: &str) {
    for lang in [Lang::EN, Lang::of("ja")] {
        assert!(
            catalog().get_exact(lang, id, None).is_some(),
            "no text {id} in {}",
            lang.tag()
        );
    }
}

#[test]
fn the_course_reads_and_every_game_has_stages_of_levels() {
    let course = course().expect("the course reads");
    for kind in GameKind::ALL {
        let stages = course.stages(kind);
        assert!(stages.len() >= 7, "{kind:?} has {} stages", stages.len());
        let mut ids = HashSet::new();
        for s in stages {
            assert!((3..=8).contains(&s.levels.len()), "{}", s.id);
            exists(&format!("learn-{}-{}", kind.name(), s.id));
            for l in &s.levels {
                assert!(ids.insert(l.id.clone()), "level {} twice", l.id);
                assert!(l.target >= 1 && l.solution.len() <= l.target, "{}", l.id);
            }
        }
    }
    for p in all_places() {
        assert_eq!(find(&p.key()).map(|f| f.key()), Some(p.key()));
        exists(&p.goal().id);
    }
    assert!(find("inphexion/no-such-level").is_none());
    assert!(find("chess/first-disc").is_none());
    assert!(find("nonsense").is_none());
}

/// Plays `moves` of the learner in `place` as a member would, the replies following; returns
/// each verdict.
fn walk(place: &Place, moves: &[String]) -> Vec<Verdict> {
    let mut played = Vec::new();
    let mut out = Vec::new();
    for (i, m) in moves.iter().enumerate() {
        let v =
            judge(place, &played, m, i + 1).unwrap_or_else(|e| panic!("{}: {m}: {e}", place.key()));
        if let Verdict::Next { mv, reply } = &v {
            played.push(mv.clone());
            played.push(reply.clone());
        }
        out.push(v);
    }
    out
}

#[test]
fn every_level_is_solved_by_its_solution_within_its_target_with_legal_replies() {
    for p in all_places() {
        let l = p.level;
        p.start().unwrap_or_else(|e| panic!("{}: {e}", p.key()));
        let verdicts = walk(&p, &l.solution);
        let (last, before) = verdicts.split_last().expect("a solution");
        for v in before {
            assert!(matches!(v, Verdict::Next { .. }), "{}: {v:?}", p.key());
        }
        assert!(
            matches!(last, Verdict::Done { stars: 3, .. }),
            "{}: {last:?}",
            p.key()
        );
        // Every scripted reply answers a move of the solution, and is played (legal).
        for (m, r) in &l.replies {
            assert!(
                verdicts
                    .iter()
                    .any(|v| matches!(v, Verdict::Next { mv, reply } if mv == m && reply == r)),
                "{}: the scripted reply {r} to {m} is not played by the solution",
                p.key()
            );
        }
    }
}

#[test]
fn every_named_wrong_move_is_refused_with_its_reason() {
    let mut named = 0;
    for p in all_places() {
        let start = p.start().expect("starts");
        for w in &p.level.wrong {
            named += 1;
            let why = format!("learn-{}-{}-{}", p.kind.name(), p.level.id, w.why);
            exists(&why);
            let v = judge(&p, &[], &w.mv, 1).expect("judged");
            assert!(
                matches!(&v, Verdict::Refused { why: t } if t.id == why),
                "{}: {} gave {v:?}",
                p.key(),
                w.mv
            );
            // A legal named move does not reach the goal; the others the rules refuse.
            if let Ok(mv) = start.position().parse_move(&w.mv) {
                let mut after = start.position().clone();
                after.play(&mv).expect("legal");
                let learner = start.position().to_move();
                assert!(!reaches(
                    &p.level.goal,
                    start.position(),
                    &mv,
                    &after,
                    learner
                ));
            }
        }
    }
    assert!(named >= 10, "{named} named wrong moves");
}

#[test]
fn a_move_the_rules_forbid_is_answered_with_the_rule_and_changes_nothing() {
    let first_push = find("inphexion/first-push").expect("level");
    // Pushing one's own disc: rule I6, in words.
    let v = judge(&first_push, &[], "a1-a2", 1).expect("judged");
    let Verdict::Refused { why } = v else {
        panic!("{v:?}")
    };
    assert_eq!(why.id, "learn-illegal");
    let en = why.render(Lang::EN);
    let ja = why.render(Lang::of("ja"));
    assert!(!en.contains("(I"), "{en}");
    assert_ne!(en, ja);
    // Not notation at all.
    let v = judge(&first_push, &[], "hello", 1).expect("judged");
    assert!(matches!(v, Verdict::Refused { why } if why.id == "learn-bad-notation"));
    // EXXIT: a disc placed where a dance is forced (X10).
    let dance = find("exxit/first-dance").expect("level");
    let v = judge(&dance, &[], "1,-2", 1).expect("judged");
    let Verdict::Refused { why } = v else {
        panic!("{v:?}")
    };
    assert!(why.render(Lang::EN).len() > 20);
    assert!(!why.render(Lang::EN).contains("(X"));
}

#[test]
fn a_last_move_that_misses_starts_again_and_stars_count_every_try() {
    let connect = find("inphexion/white-connects").expect("level");
    // Legal, not the goal, not named: missed, said with the goal.
    let v = judge(&connect, &[], "a2-a1", 1).expect("judged");
    assert!(
        matches!(&v, Verdict::Missed { why } if why.id == "learn-missed"),
        "{v:?}"
    );
    // Completing the opponent's chain loses.
    let careful = find("inphexion/careful").expect("level");
    let v = judge(&careful, &[], "c2-c3", 1).expect("judged");
    assert!(matches!(v, Verdict::Refused { .. }));
    assert_eq!(stars(1, 1), 3);
    assert_eq!(stars(1, 2), 2);
    assert_eq!(stars(1, 5), 1);
    assert_eq!(stars(2, 3), 2);
    let v = judge(&connect, &[], "c3-b3", 3).expect("judged");
    assert_eq!(
        v,
        Verdict::Done {
            mv: "c3-b3".into(),
            stars: 1
        }
    );
    // A two-move level: a first move that is not the solution's is answered by the rule.
    let bait = find("exxit/bait").expect("level");
    let first = walk(&bait, &["0,0".to_string()]);
    assert!(matches!(&first[0], Verdict::Next { .. }), "{first:?}");
    // A stored attempt that no longer replays is an error, not a panic.
    assert!(judge(&bait, &["9,9".to_string()], "0,0", 1).is_err());
}

#[test]
fn several_moves_reach_a_goal_judged_by_the_rules() {
    // Every push of c3 connects White's edges.
    let connect = find("inphexion/white-connects").expect("level");
    for m in ["c3-b3", "c3-b4", "c3-d2", "c3-d3"] {
        assert!(
            matches!(judge(&connect, &[], m, 1), Ok(Verdict::Done { .. })),
            "{m}"
        );
    }
    // Any destination of the relocated disc.
    let corner = find("inphexion/corner").expect("level");
    for m in ["a2-b2 a1>e5", "a2-a3 a1>c3"] {
        assert!(
            matches!(judge(&corner, &[], m, 1), Ok(Verdict::Done { .. })),
            "{m}"
        );
    }
}

/// `reaches` for `goal` after `mv` in the EXXIT position `line`.
fn exxit_reaches(goal: &Goal, line: &str, mv: &str) -> bool {
    let options = Options::parse_line("exxit").expect("options");
    let game = Game::from_position(options, line).expect("position");
    let before = game.position();
    let m = before.parse_move(mv).expect("notation");
    let mut after = before.clone();
    after.play(&m).expect("legal");
    reaches(goal, before, &m, &after, before.to_move())
}

#[test]
fn no_dance_holds_when_the_opponent_has_no_dance_left() {
    let goal = Goal {
        no_dance: true,
        ..Goal::default()
    };
    // Red's disc on 0,0 reaches one step east: a silver disc on 1,0 is danced on, on 3,0 not.
    let line = "0,0:1/2 1,0:2 2,0:1 3,0:2|tiles 35|hand 8/7|to-move silver";
    assert!(exxit_reaches(&goal, line, "3,0"));
    assert!(!exxit_reaches(&goal, line, "1,0"));
}

#[test]
fn stacks_counts_the_stacks_the_learner_owns_covered_ones_included() {
    // Silver's two discs land on red's stacks on 1,0 and 2,0: both become silver's (X15).
    let line = "0,0:1/11 1,0:2/2 2,0:1/22|tiles 36|hand 6/5|to-move silver";
    let two = Goal {
        stacks: 2,
        ..Goal::default()
    };
    assert!(exxit_reaches(&two, line, "0,0-1,0"));
    let three = Goal {
        stacks: 3,
        ..Goal::default()
    };
    assert!(!exxit_reaches(&three, line, "0,0-1,0"));
}
