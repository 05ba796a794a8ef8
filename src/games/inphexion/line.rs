//! The protocol's one-line position format (`position`, `setpos`) and the text diagram.
use super::position::Position;
use super::{Options, Piece};
use crate::games::{BadPosition, Colour, GameKind, Outcome, Reason};
use crate::hex::{CellSet, Hex};

impl Position {
    /// The protocol's position line.
    pub fn to_line(&self) -> String {
        let n = self.options.size;
        let mut s = String::with_capacity(n as usize * (n as usize + 1) + 40);
        for r in 0..n {
            if r > 0 {
                s.push('/');
            }
            for q in 0..n {
                s.push(match self.cell(Hex::new(q as i32, r as i32)) {
                    None => '.',
                    Some(Piece::White) => 'w',
                    Some(Piece::Black) => 'b',
                    Some(Piece::Neutral) => 'n',
                });
            }
        }
        s.push_str("|to-move ");
        s.push_str(GameKind::Inphexion.colour_name(self.to_move));
        s.push_str(&format!(
            "|hand {}/{}",
            self.hand(Colour::First),
            self.hand(Colour::Second)
        ));
        if self.swapped {
            s.push_str("|swapped");
        }
        s
    }

    /// Reads a position line (the protocol's `setpos`), checking everything the rules need.
    /// The phase follows from the board (see the module docs); the outcome is recomputed: a
    /// connection wins (I17), a side to move without a legal move loses (I18). A loss by I14
    /// leaves no trace on the board, so such a position reads as a game in play.
    pub fn from_line(options: &Options, line: &str) -> Result<Position, BadPosition> {
        let opts = Options::parse(
            &options
                .words()
                .iter()
                .map(String::as_str)
                .collect::<Vec<_>>(),
        )
        .map_err(|e| BadPosition::new(e.to_string()))?;
        let mut p = Position::new(&opts);
        p.neutral = CellSet::EMPTY;
        let n = opts.size as usize;
        let mut parts = line.trim().split('|');
        let board = parts.next().unwrap_or("").trim();
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != n {
            return Err(BadPosition::new(format!(
                "the board has {} rows separated by `/`; a {n}×{n} board has {n}",
                rows.len()
            )));
        }
        for (r, row) in rows.iter().enumerate() {
            let cells: Vec<char> = row.trim().chars().collect();
            if cells.len() != n {
                return Err(BadPosition::new(format!(
                    "row {} has {} cells; a {n}×{n} board has {n}",
                    r + 1,
                    cells.len()
                )));
            }
            for (q, ch) in cells.into_iter().enumerate() {
                let i = (r * n + q) as u8;
                match ch.to_ascii_lowercase() {
                    '.' => {}
                    'w' => p.white.insert(i),
                    'b' => p.black.insert(i),
                    'n' => p.neutral.insert(i),
                    other => {
                        return Err(BadPosition::new(format!(
                            "unknown cell letter `{other}` in row {} (use . w b n)",
                            r + 1
                        )))
                    }
                }
            }
        }
        let mut to_move = None;
        let mut hands = None;
        let mut swapped = false;
        for part in parts {
            let part = part.trim().to_ascii_lowercase();
            let words: Vec<&str> = part.split_whitespace().collect();
            match words.as_slice() {
                ["to-move", c] if to_move.is_none() => {
                    to_move = Some(match *c {
                        "white" => Colour::First,
                        "black" => Colour::Second,
                        _ => {
                            return Err(BadPosition::new(format!(
                                "`to-move {c}`: the side to move is white or black"
                            )))
                        }
                    })
                }
                ["hand", h] if hands.is_none() => {
                    let parsed = h
                        .split_once('/')
                        .and_then(|(a, b)| Some((a.parse::<u32>().ok()?, b.parse::<u32>().ok()?)));
                    hands = Some(parsed.ok_or_else(|| {
                        BadPosition::new(format!(
                            "`hand {h}`: the hands are written `hand WHITE/BLACK`, e.g. hand 12/12"
                        ))
                    })?);
                }
                ["swapped"] if !swapped => swapped = true,
                _ => {
                    return Err(BadPosition::new(format!(
                        "unexpected field `{part}`: after the board come `to-move COLOUR`, `hand W/B` and, only after a swap, `swapped`, each once"
                    )))
                }
            }
        }
        let to_move = to_move.ok_or_else(|| BadPosition::new("the `to-move` field is missing"))?;
        let (hw, hb) = hands.ok_or_else(|| BadPosition::new("the `hand W/B` field is missing"))?;
        if opts.neutral && p.neutral.len() != 1 {
            return Err(BadPosition::new(format!(
                "the neutral variant has exactly one neutral disc `n` on the board, not {} (I15)",
                p.neutral.len()
            )));
        }
        if !opts.neutral && !p.neutral.is_empty() {
            return Err(BadPosition::new(
                "a neutral disc `n` needs the neutral variant (I15)",
            ));
        }
        let init = opts.initial_hand();
        let (w, b) = (p.white.len(), p.black.len());
        for (name, count, hand) in [("white", w, hw), ("black", b, hb)] {
            if count > init {
                return Err(BadPosition::new(format!(
                    "{count} {name} discs on the board, more than the {init} a player has (I4)"
                )));
            }
            if hand != init - count {
                return Err(BadPosition::new(format!(
                    "{name}'s hand must be {} (the initial {init} minus {count} on the board), not {hand} (I4)",
                    init - count
                )));
            }
        }
        let expected = if w == b {
            Colour::First
        } else if w == b + 1 {
            Colour::Second
        } else {
            return Err(BadPosition::new(format!(
                "{w} white and {b} black discs cannot occur: White has as many discs as Black or one more (I5, I6)"
            )));
        };
        if to_move != expected {
            return Err(BadPosition::new(format!(
                "with {w} white and {b} black discs {} is to move, not {}",
                GameKind::Inphexion.colour_name(expected),
                GameKind::Inphexion.colour_name(to_move),
            )));
        }
        p.to_move = to_move;
        if swapped {
            if !opts.pie {
                return Err(BadPosition::new("`swapped` needs the pie variant (I7)"));
            }
            if !(w == 1 && b == 0) {
                return Err(BadPosition::new(
                    "`swapped` only follows a swap (I7): one white disc, no black disc, black to move",
                ));
            }
        }
        p.swapped = swapped;
        let wc = p.has_chain(Colour::First, p.white);
        let bc = p.has_chain(Colour::Second, p.black);
        p.outcome = match (wc, bc) {
            (true, true) => {
                return Err(BadPosition::new(
                    "both colours have a chain, which a Hex board cannot hold (I17)",
                ))
            }
            (true, false) => Some(Outcome::win(Colour::First, Reason::Connection)),
            (false, true) => Some(Outcome::win(Colour::Second, Reason::Connection)),
            (false, false) => None,
        };
        if p.outcome.is_none() && !p.has_any_move() {
            p.outcome = Some(Outcome::win(to_move.other(), Reason::NoLegalMove));
        }
        Ok(p)
    }

    /// A readable diagram: rows shifted right, White's edges (top, bottom) marked `W`, Black's
    /// (left, right) marked `B`, then whose turn it is and the hands.
    pub fn diagram(&self) -> String {
        let n = self.options.size as usize;
        let mut s = String::new();
        s.push_str("    ");
        for q in 0..n {
            s.push((b'a' + q as u8) as char);
            s.push(' ');
        }
        s.push_str("  (White joins top and bottom, Black left and right)\n");
        s.push_str("    ");
        s.push_str(&"W ".repeat(n));
        s.push('\n');
        for r in 0..n {
            s.push_str(&format!("{:>2}  {}B ", r + 1, " ".repeat(r)));
            for q in 0..n {
                s.push(match self.cell(Hex::new(q as i32, r as i32)) {
                    None => '.',
                    Some(Piece::White) => 'w',
                    Some(Piece::Black) => 'b',
                    Some(Piece::Neutral) => 'n',
                });
                s.push(' ');
            }
            s.push_str(&format!("B  {}\n", r + 1));
        }
        s.push_str(&format!("{}    ", " ".repeat(n + 2)));
        s.push_str(&"W ".repeat(n));
        s.push('\n');
        let who = |c: Colour| GameKind::Inphexion.colour_name(c);
        match self.outcome {
            Some(o) => s.push_str(&format!("over: {}", o.describe(GameKind::Inphexion))),
            None => s.push_str(&format!("{} to move", who(self.to_move))),
        }
        s.push_str(&format!(
            "; hands white {} black {}",
            self.hand(Colour::First),
            self.hand(Colour::Second)
        ));
        if self.swapped {
            s.push_str("; swapped");
        }
        s.push('\n');
        s
    }
}
