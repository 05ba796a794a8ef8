//! The slow reference rules (tests/reference/) checked against the protocol transcripts, the perft
//! data files and a few hand-made positions, rule by rule.

mod reference;

use reference::{check_transcript, exxit, inphexion};

#[test]
fn reference_reproduces_transcripts() {
    for name in ["inphexion", "exxit"] {
        let path = format!("{}/tests/data/protocol/{name}.txt", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
        let n = check_transcript(name, &text);
        assert!(n > 20, "{path}: only {n} exchanges");
    }
}
