//! Move notation (X rules, "Move notation"): tolerant reading; writing is `Display` on `Move`.
use super::Move;
use crate::games::ParseMoveError;
use crate::hex::Hex;

/// The largest coordinate the notation accepts (far beyond any reachable world).
const MAX_COORD: i32 = 9999;

/// Reads a move; spaces are ignored and letters may be in any case.
pub(crate) fn parse_move(text: &str) -> Result<Move, ParseMoveError> {
    let s: String = text
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_ascii_lowercase();
    let err = |why: &str| ParseMoveError::new(text, why);
    match s.as_str() {
        "" => return Err(err("empty move")),
        "pass" => return Ok(Move::Pass),
        "swap" => return Ok(Move::Swap),
        _ => {}
    }
    let b = s.as_bytes();
    if let Some(rest) = b.strip_prefix(b"+") {
        let (c, used) = cell(rest).map_err(|w| err(&w))?;
        if used != rest.len() {
            return Err(err("unexpected text after the cell of `+CELL`"));
        }
        return Ok(Move::Expand(c));
    }
    let (from, used) = cell(b).map_err(|w| err(&w))?;
    let rest = &b[used..];
    if rest.is_empty() {
        return Ok(Move::Place(from));
    }
    let Some(rest) = rest.strip_prefix(b"-") else {
        return Err(err(
            "expected a cell `q,r`, `+q,r`, a dance `q,r-q,r`, `pass` or `swap`",
        ));
    };
    let (target, used) = cell(rest).map_err(|w| err(&w))?;
    if used != rest.len() {
        return Err(err("unexpected text after the dance's target"));
    }
    Ok(Move::Dance { from, target })
}

/// A cell `q,r` at the start of `b`, and the bytes it used.
fn cell(b: &[u8]) -> Result<(Hex, usize), String> {
    let (q, n1) = int(b)?;
    if b.get(n1) != Some(&b',') {
        return Err("a cell is written `q,r`, e.g. `0,-1`".to_string());
    }
    let (r, n2) = int(&b[n1 + 1..])?;
    Ok((Hex::new(q, r), n1 + 1 + n2))
}

fn int(b: &[u8]) -> Result<(i32, usize), String> {
    let mut i = 0;
    let neg = b.first() == Some(&b'-');
    if neg {
        i += 1;
    }
    let start = i;
    let mut v: i32 = 0;
    while let Some(d) = b.get(i).filter(|d| d.is_ascii_digit()) {
        v = v * 10 + i32::from(d - b'0');
        if v > MAX_COORD {
            return Err("coordinate out of range".to_string());
        }
        i += 1;
    }
    if i == start {
        return Err("a cell is written `q,r` with whole numbers, e.g. `0,-1`".to_string());
    }
    Ok((if neg { -v } else { v }, i))
}
