//! The engine never panics, and a failed command changes nothing, whatever line it reads.

use hexcord::ai::Budget;
use hexcord::engine::{self, Engine, Step};
use proptest::prelude::*;

/// A coordinate, often far outside any board (the edges of the integer range among them).
fn coord() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("-2147483648".to_string()),
        Just("2147483647".to_string()),
        Just("99999999999".to_string()),
        "-?[0-9]{1,2}",
        "-?[0-9]{3,10}",
    ]
}

/// An EXXIT position line, with one cell that may lie anywhere.
fn exxit_line() -> impl Strategy<Value = String> {
    (coord(), coord(), "(1|2|\\.)(/[12]{1,3})?", "[0-9]/[0-9]").prop_map(|(q, r, c, hand)| {
        format!("{q},{r}:{c} 0,-1:1 0,0:2 1,-2:2 1,-1:1|tiles 35|hand {hand}|to-move silver")
    })
}

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
        exxit_line(),
        (coord(), coord()).prop_map(|(q, r)| format!("{q},{r}")),
        (coord(), coord()).prop_map(|(q, r)| format!("+{q},{r}")),
        // Deep perft requests, which must be refused quickly.
        "(4[0-9]|[5-9][0-9]{1,9})",
        // Targets for `render` that are not regular files.
        Just("fifo".to_string()),
        Just("/dev/stdout".to_string()),
        Just("/dev/null".to_string()),
        Just(".".to_string()),
        // genmove budgets far beyond the caps, with few playouts so that it ends.
        "playouts=[1-9] ms=[0-9]{5,12}",
    ];
    (cmd, arg).prop_map(|(c, a)| format!("{c} {a}"))
}

/// `render PATH` writes files: keep them out of the repository, in a directory that also holds
/// a FIFO called `fifo` (which `render` must refuse rather than block on).
fn enter_temp_dir() {
    // Once for the whole binary: its tests run on parallel threads of one process, which has
    // one working directory.
    static READY: std::sync::Once = std::sync::Once::new();
    READY.call_once(|| {
        let dir = std::env::temp_dir().join(format!("hexcord-fuzz-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        std::env::set_current_dir(&dir).expect("temp dir as working directory");
        if !dir.join("fifo").exists() {
            let made = std::process::Command::new("mkfifo")
                .arg(dir.join("fifo"))
                .status()
                .expect("mkfifo runs");
            assert!(made.success(), "mkfifo");
        }
    });
}

/// Raw input lines: command lines, arbitrary bytes (often not UTF-8), and empty lines that end
/// a record after `load`.
fn raw_line() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        4 => line().prop_map(String::into_bytes),
        2 => prop::collection::vec(any::<u8>(), 0..24),
        1 => Just(b"load".to_vec()),
        1 => Just(Vec::new()),
        1 => Just(b"exxit tiles=19".to_vec()),
        1 => exxit_line().prop_map(|l| format!("setpos {l}").into_bytes()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn any_lines_get_answers_and_failures_change_nothing(lines in prop::collection::vec(line(), 1..40)) {
        // `render PATH` writes files: keep them out of the repository.
        enter_temp_dir();
        let mut engine = Engine::new().with_default_budget(Budget::playouts(20));
        let mut queue: std::collections::VecDeque<String> = lines.into();
        while let Some(l) = queue.pop_front() {
            let before = (engine.game().record(), engine.game().position().to_line(), engine.game().status());
            let mut more = || queue.pop_front().map(String::into_bytes);
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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]
    /// The whole protocol loop over raw bytes: it ends normally and every answer is well formed.
    #[test]
    fn any_bytes_get_well_formed_answers(lines in prop::collection::vec(raw_line(), 1..30)) {
        enter_temp_dir();
        let mut input = Vec::new();
        for l in &lines {
            input.extend_from_slice(l);
            input.push(b'\n');
        }
        let mut engine = Engine::new().with_default_budget(Budget::playouts(20));
        let mut out = Vec::new();
        engine::run(&input[..], &mut out, &mut engine).expect("the loop ends normally");
        let out = String::from_utf8(out).expect("UTF-8 answers");
        prop_assert!(out.ends_with("= bye\n\n"), "{}", out);
        for block in out.trim_end_matches('\n').split("\n\n") {
            prop_assert!(block.starts_with("= ") || block.starts_with("? "), "{:?}", block);
            prop_assert!(!block.contains("\u{89}PNG"), "a PNG in the stream");
        }
    }
}
