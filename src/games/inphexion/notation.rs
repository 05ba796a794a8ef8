//! Move notation (the rules' "Move notation" in [`crate::games::inphexion`]): cells `a1`…, `swap`,
//! `FROM-TO SRC>DST …`.
use super::{Move, MAX_RELOCATIONS};
use crate::games::ParseMoveError;
use crate::hex::Hex;

/// A cell's name: column letter then 1-based row (`a1` is the top-left corner, I2).
pub fn cell_name(h: Hex) -> String {
    let col = u8::try_from(h.q)
        .ok()
        .filter(|&q| q < 26)
        .map_or('?', |q| (b'a' + q) as char);
    format!("{col}{}", h.r + 1)
}

/// Reads one cell at the start of `s` (lower case, no spaces): returns it and the rest.
fn cell<'a>(s: &'a str, input: &str, size: u8) -> Result<(Hex, &'a str), ParseMoveError> {
    let bytes = s.as_bytes();
    let Some(&c) = bytes.first() else {
        return Err(ParseMoveError::new(
            input,
            "a cell is missing at the end (a cell is a column letter and a row number, e.g. d4)",
        ));
    };
    if !c.is_ascii_lowercase() {
        return Err(ParseMoveError::new(
            input,
            format!("expected a cell (column letter and row number, e.g. d4) at `{s}`"),
        ));
    }
    let digits = bytes[1..].iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 {
        return Err(ParseMoveError::new(
            input,
            format!(
                "the column `{}` needs a row number, e.g. {}4",
                c as char, c as char
            ),
        ));
    }
    let num = &s[1..1 + digits];
    let row: u32 = num.parse().unwrap_or(u32::MAX);
    let q = (c - b'a') as u32;
    let n = size as u32;
    let last = (b'a' + size - 1) as char;
    if q >= n || row == 0 || row > n {
        return Err(ParseMoveError::new(
            input,
            format!(
                "{}{num} is not a cell of the {n}×{n} board (columns a–{last}, rows 1–{n}; I1, I2)",
                c as char
            ),
        ));
    }
    Ok((Hex::new(q as i32, row as i32 - 1), &s[1 + digits..]))
}

/// Parses tolerant move text for a board of side `size`.
pub(super) fn parse(text: &str, size: u8) -> Result<Move, ParseMoveError> {
    let s: String = text
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_ascii_lowercase();
    if s.is_empty() {
        return Err(ParseMoveError::new(
            text,
            "no move given: a move is a cell (d4), `swap`, or FROM-TO (c3-d3)",
        ));
    }
    if s == "swap" {
        return Ok(Move::swap());
    }
    let (from, rest) = cell(&s, text, size)?;
    if rest.is_empty() {
        return Move::place(from).ok_or_else(|| ParseMoveError::new(text, "cell out of range"));
    }
    let Some(rest) = rest.strip_prefix('-') else {
        return Err(ParseMoveError::new(
            text,
            format!("unexpected `{rest}` after the cell: a regular move is FROM-TO, e.g. c3-d3"),
        ));
    };
    let (to, mut rest) = cell(rest, text, size)?;
    let mut rels: Vec<(Hex, Hex)> = Vec::new();
    while !rest.is_empty() {
        let (src, r) = cell(rest, text, size)?;
        let Some(r) = r.strip_prefix('>') else {
            return Err(ParseMoveError::new(
                text,
                format!(
                    "a relocation is SOURCE>DEST, e.g. e5>a1; after {} `>` is missing",
                    cell_name(src)
                ),
            ));
        };
        let (dst, r) = cell(r, text, size)?;
        if rels.iter().any(|&(s, _)| s == src) {
            return Err(ParseMoveError::new(
                text,
                format!(
                    "{} is given two destinations: each relocated disc goes to one cell (I10)",
                    cell_name(src)
                ),
            ));
        }
        rels.push((src, dst));
        rest = r;
    }
    if rels.len() > MAX_RELOCATIONS {
        return Err(ParseMoveError::new(
            text,
            format!(
                "{} relocations: one move relocates at most {MAX_RELOCATIONS} discs (I10)",
                rels.len()
            ),
        ));
    }
    Move::regular(from, to, &rels).ok_or_else(|| ParseMoveError::new(text, "cell out of range"))
}
