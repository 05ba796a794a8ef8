//! Slow reference implementations of both games' rules, written straight from the rules (the docs
//! of `hexcord::games::inphexion` and `hexcord::games::exxit`) and the protocol (`hexcord::engine`),
//! sharing no code with `src/`. Integration tests include this with `mod reference;`.
#![allow(dead_code)]

pub mod exxit;
pub mod inphexion;

/// Either game's reference, behind the commands of the protocol that it models.
#[derive(Clone, Debug)]
pub enum AnyRef {
    Inphexion(inphexion::Ref),
    Exxit(exxit::Ref),
}

impl AnyRef {
    /// A new game from a variant line (`inphexion size=5`, `exxit tiles=29 pie`).
    pub fn new(variant_line: &str) -> Result<AnyRef, String> {
        let game = variant_line
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        match game.as_str() {
            "inphexion" => inphexion::Ref::new(variant_line).map(AnyRef::Inphexion),
            "exxit" => exxit::Ref::new(variant_line).map(AnyRef::Exxit),
            _ => Err(format!("unknown option: {game}")),
        }
    }

    pub fn from_position(variant_line: &str, line: &str) -> Result<AnyRef, String> {
        let game = variant_line
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        match game.as_str() {
            "inphexion" => inphexion::Ref::from_position(variant_line, line).map(AnyRef::Inphexion),
            "exxit" => exxit::Ref::from_position(variant_line, line).map(AnyRef::Exxit),
            _ => Err(format!("unknown option: {game}")),
        }
    }

    pub fn legal(&self) -> Vec<String> {
        match self {
            AnyRef::Inphexion(r) => r.legal(),
            AnyRef::Exxit(r) => r.legal(),
        }
    }

    pub fn play(&mut self, canonical_move: &str) -> Result<(), String> {
        match self {
            AnyRef::Inphexion(r) => r.play(canonical_move),
            AnyRef::Exxit(r) => r.play(canonical_move),
        }
    }

    pub fn position_line(&self) -> String {
        match self {
            AnyRef::Inphexion(r) => r.position_line(),
            AnyRef::Exxit(r) => r.position_line(),
        }
    }

    pub fn status(&self) -> String {
        match self {
            AnyRef::Inphexion(r) => r.status(),
            AnyRef::Exxit(r) => r.status(),
        }
    }

    pub fn perft(&self, depth: u32) -> u64 {
        match self {
            AnyRef::Inphexion(r) => r.perft(depth),
            AnyRef::Exxit(r) => r.perft(depth),
        }
    }
}

/// A small deterministic generator (SplitMix64) for seeded random games.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `k` (k > 0).
    pub fn below(&mut self, k: usize) -> usize {
        (self.next_u64() % k as u64) as usize
    }
}

/// One exchange of a transcript: the command and its answer lines.
#[derive(Clone, Debug)]
pub struct Exchange {
    /// 1-based line of the command.
    pub line: usize,
    pub command: String,
    pub answer: Vec<String>,
}

/// Reads a transcript: each command, its answer lines, then an empty line; blank lines and `#`
/// lines between exchanges are skipped.
pub fn read_transcript(text: &str) -> Vec<Exchange> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i];
        if l.trim().is_empty() || l.starts_with('#') {
            i += 1;
            continue;
        }
        let mut answer = Vec::new();
        let mut j = i + 1;
        while j < lines.len() && !lines[j].is_empty() {
            answer.push(lines[j].to_string());
            j += 1;
        }
        out.push(Exchange {
            line: i + 1,
            command: l.to_string(),
            answer,
        });
        i = j;
    }
    out
}

/// Lower case without white space: how the protocol's tolerant notation compares.
pub fn squeeze(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// Walks a transcript with the reference and checks every answer of the commands it models
/// (`new`, `play`, `legal`, `position`, `status`, `perft`, `setpos`, `undo`). Returns the number
/// of exchanges checked; panics on the first difference, naming the transcript line.
pub fn check_transcript(name: &str, text: &str) -> usize {
    let mut variant = String::new();
    // The current state is the last one; undo pops.
    let mut states: Vec<AnyRef> = Vec::new();
    let mut checked = 0;
    for ex in read_transcript(text) {
        let at = format!("{name}:{} `{}`", ex.line, ex.command);
        assert_eq!(ex.answer.len(), 1, "{at}: one answer line expected");
        let answer = ex.answer[0].as_str();
        let (verb, rest) = match ex.command.split_once(' ') {
            Some((v, r)) => (v, r.trim()),
            None => (ex.command.as_str(), ""),
        };
        let ok = answer.starts_with("= ");
        let payload = answer.get(2..).unwrap_or("");
        match verb {
            "new" => match AnyRef::new(rest) {
                Ok(r) => {
                    assert_eq!(answer, "= ok", "{at}");
                    variant = rest.to_string();
                    states = vec![r];
                }
                Err(e) => {
                    assert!(!ok, "{at}: the reference refused: {e}");
                    let kind = e.split(':').next().unwrap_or("");
                    assert!(
                        answer.starts_with(&format!("? {kind}:")),
                        "{at}: reference error `{e}`"
                    );
                }
            },
            "setpos" => match AnyRef::from_position(&variant, rest) {
                Ok(r) => {
                    assert_eq!(answer, "= ok", "{at}");
                    states = vec![r];
                }
                Err(e) => assert!(answer.starts_with("? bad position"), "{at}: {e}"),
            },
            "undo" => {
                if states.len() > 1 {
                    states.pop();
                    assert_eq!(answer, "= ok", "{at}");
                } else {
                    assert_eq!(answer, "? nothing to undo", "{at}");
                }
            }
            "play" => {
                let current = states.last().expect("`new` first").clone();
                if ok {
                    assert_eq!(squeeze(rest), squeeze(payload), "{at}: not the same move");
                    let mut next = current;
                    next.play(payload)
                        .unwrap_or_else(|e| panic!("{at}: the reference refused: {e}"));
                    states.push(next);
                } else {
                    let mut next = current;
                    assert!(
                        next.play(&squeeze(rest)).is_err(),
                        "{at}: the reference accepted it"
                    );
                }
            }
            "legal" => {
                let r = states.last().expect("`new` first");
                assert!(ok, "{at}");
                assert_eq!(payload, r.legal().join(" "), "{at}");
            }
            "position" => {
                let r = states.last().expect("`new` first");
                assert_eq!(payload, r.position_line(), "{at}");
            }
            "status" => {
                let r = states.last().expect("`new` first");
                assert_eq!(payload, r.status(), "{at}");
            }
            "perft" => {
                let r = states.last().expect("`new` first");
                let depth: u32 = rest.parse().expect("perft depth");
                assert_eq!(payload, r.perft(depth).to_string(), "{at}");
            }
            _ => panic!("{at}: a command the reference does not model"),
        }
        checked += 1;
    }
    checked
}
