//! The engine never panics, and a failed command changes nothing, whatever line it reads.

use hexcord::ai::Budget;
use hexcord::engine::{Engine, Step};
use proptest::prelude::*;

/// Lines that look like commands, with arguments drawn from notation-like and arbitrary text.
fn line() -> impl Strategy<Value = String> {
    let cmd = prop::sample::select(vec![
        "new", "play", "legal", "status", "board", "position", "setpos", "record", "load", "undo",
        "resign", "genmove", "perft", "render", "NEW", "Play", "", "#",
    ]);
    let arg = prop_oneof![
        Just(String::new()),
        Just("inphexion size=5 pie".to_string()),
        Just("inphexion size=4 free-reply".to_string()),
        Just("inphexion size=5 neutral".to_string()),
        Just("exxit tiles=19".to_string()),
        Just("exxit expert pie".to_string()),
        "[a-k][0-9]{1,2}",
        "[a-k][0-9]-[a-k][0-9]( [a-k][0-9]>[a-k][0-9]){0,2}",
        "[+]?-?[0-9],-?[0-9]",
        "-?[0-9],-?[0-9]--?[0-9],-?[0-9]",
        "(swap|pass|seed=[0-9]+|playouts=[0-9]{1,2}|[0-3])",
        "[ -~]{0,30}",
        "\\PC{0,20}",
    ];
    (cmd, arg).prop_map(|(c, a)| format!("{c} {a}"))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn any_lines_get_answers_and_failures_change_nothing(lines in prop::collection::vec(line(), 1..40)) {
        // `render PATH` writes files: keep them out of the repository.
        let dir = std::env::temp_dir().join(format!("hexcord-fuzz-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        std::env::set_current_dir(&dir).expect("temp dir as working directory");
        let mut engine = Engine::new().with_default_budget(Budget::playouts(20));
        let mut queue: std::collections::VecDeque<String> = lines.into();
        while let Some(l) = queue.pop_front() {
            let before = (engine.game().record(), engine.game().position().to_line(), engine.game().status());
            let mut more = || queue.pop_front();
            match engine.execute(&l, &mut more) {
                Step::Silent => prop_assert!(l.trim().is_empty() || l.trim().starts_with('#')),
                Step::Quit(_) => break,
                Step::Answer(r) => {
                    prop_assert!(!r.to_wire().contains("\n\n"), "an answer holds no empty line: {:?}", r);
                    if !r.ok {
                        let after = (engine.game().record(), engine.game().position().to_line(), engine.game().status());
                        prop_assert_eq!(before, after, "failed `{}` changed the state", l);
                    }
                }
            }
        }
    }
}
