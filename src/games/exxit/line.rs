//! The one-line position format of the protocol (`position`, `setpos`) and the text diagram.
use std::fmt;
use std::fmt::Write as _;

use super::grid::{index, TILE_LIMIT};
use super::position::{Position, DISCS};
use super::Options;
use crate::games::{BadPosition, Colour, GameKind};
use crate::hex::Hex;

fn name(c: Colour) -> &'static str {
    GameKind::Exxit.colour_name(c)
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.to_line())
    }
}

/// The legend line under the diagram's first line, saying what each cell's letters mean.
const DIAGRAM_LEGEND: &str = "legend: s/r silver/red tile, _ outer space; then S/R and a height \
     for a stack and its owner, . for no stack";

impl Position {
    /// Every cell holding a tile or a stack, sorted by q then r.
    fn occupied(&self) -> Vec<Hex> {
        let mut cells: Vec<Hex> = self.tiles().map(|(c, _)| c).collect();
        cells.extend(
            self.stacks()
                .filter(|(c, _)| self.tile_at(*c).is_none())
                .map(|(c, _)| c),
        );
        cells.sort_unstable();
        cells
    }

    /// The protocol's position line, e.g.
    /// `-1,1:./2 0,-1:1/12 0,0:2 1,-2:2 1,-1:1|tiles 35|hand 7/7|to-move red`.
    /// `|passes 1` follows when the last move was a pass (also the second, game-ending one),
    /// `|swapped` right after a swap.
    pub fn to_line(&self) -> String {
        let mut s = String::new();
        for (n, c) in self.occupied().into_iter().enumerate() {
            if n > 0 {
                s.push(' ');
            }
            let t = match self.tile_at(c) {
                None => '.',
                Some(Colour::First) => '1',
                Some(Colour::Second) => '2',
            };
            let _ = write!(s, "{c}:{t}");
            if let Some(st) = self.stack_at(c) {
                s.push('/');
                for d in st.discs() {
                    s.push(if d == Colour::First { '1' } else { '2' });
                }
            }
        }
        let _ = write!(
            s,
            "|tiles {}|hand {}/{}|to-move {}",
            self.supply,
            self.hand[0],
            self.hand[1],
            name(self.to_move)
        );
        if self.passes > 0 {
            // The protocol marks only that the last move was a pass: `|passes 1`, also after
            // the second pass that ends the game.
            s.push_str("|passes 1");
        }
        if self.swapped {
            s.push_str("|swapped");
        }
        s
    }

    /// Reads a position line (the protocol's `setpos`), checking what the rules can hold.
    pub fn from_line(options: &Options, line: &str) -> Result<Position, BadPosition> {
        let bad = |why: String| Err(BadPosition::new(why));
        let mut parts = line.trim().split('|');
        let cells_part = parts.next().unwrap_or("");
        let mut p = Position::empty(options);
        p.supply = 0;
        let mut supply = None;
        let mut hand = None;
        let mut to_move = None;
        for field in parts {
            let field = field.trim();
            let (key, value) = field.split_once(' ').unwrap_or((field, ""));
            let value = value.trim();
            match key {
                "tiles" => {
                    supply = Some(value.parse::<u8>().map_err(|_| {
                        BadPosition::new(format!("`tiles {value}`: the supply is a number"))
                    })?)
                }
                "hand" => {
                    let h = value.split_once('/').and_then(|(a, b)| {
                        Some((a.trim().parse::<u8>().ok()?, b.trim().parse::<u8>().ok()?))
                    });
                    let Some(h) = h else {
                        return bad(format!("`hand {value}`: write `hand SILVER/RED`, e.g. 8/8"));
                    };
                    hand = Some(h);
                }
                "to-move" => {
                    to_move = Some(match value {
                        "silver" => Colour::First,
                        "red" => Colour::Second,
                        _ => return bad(format!("`to-move {value}`: silver or red")),
                    })
                }
                "passes" => {
                    p.passes = match value {
                        "1" => 1,
                        "2" => 2,
                        _ => return bad(format!("`passes {value}`: 1 or 2")),
                    }
                }
                "swapped" if value.is_empty() => {
                    if !options.pie {
                        return bad("`swapped` without the pie variant (X8)".to_string());
                    }
                    p.swapped = true;
                }
                _ => return bad(format!("unknown field `{field}`")),
            }
        }
        let Some(supply) = supply else {
            return bad("the `|tiles N` field (the supply) is missing".to_string());
        };
        let Some((h0, h1)) = hand else {
            return bad("the `|hand S/R` field is missing".to_string());
        };
        let Some(to_move) = to_move else {
            return bad("the `|to-move silver|red` field is missing".to_string());
        };
        let mut on_board = [0u32; 2];
        let mut outer = Vec::new();
        let mut seen: Vec<Hex> = Vec::new();
        for tok in cells_part.split_whitespace() {
            let Some((cell, content)) = tok.split_once(':') else {
                return bad(format!(
                    "`{tok}`: a cell is written `q,r:T` or `q,r:T/STACK`"
                ));
            };
            let c = cell
                .split_once(',')
                .and_then(|(q, r)| Some(Hex::new(q.parse().ok()?, r.parse().ok()?)));
            let Some(c) = c else {
                return bad(format!("`{tok}`: bad cell `{cell}`"));
            };
            if seen.contains(&c) {
                return bad(format!("cell {c} appears twice"));
            }
            seen.push(c);
            let (t, st) = content.split_once('/').unwrap_or((content, ""));
            let tile = match t {
                "1" => Some(Colour::First),
                "2" => Some(Colour::Second),
                "." => None,
                _ => {
                    return bad(format!(
                        "`{tok}`: the tile is 1 (silver), 2 (red) or . (none)"
                    ))
                }
            };
            if tile.is_none() && st.is_empty() {
                return bad(format!(
                    "`{tok}`: a cell without tile is listed only with a stack"
                ));
            }
            if content.contains('/') && st.is_empty() {
                return bad(format!("`{tok}`: empty stack after `/`"));
            }
            let lim = if tile.is_some() {
                TILE_LIMIT
            } else {
                TILE_LIMIT + 1
            };
            // `unsigned_abs`: `i32::MIN.abs()` overflows.
            if c.q.unsigned_abs() > lim as u32 || c.r.unsigned_abs() > lim as u32 {
                return bad(match tile {
                    Some(_) => format!("the tile on {c} lies too far from 0,0"),
                    None => format!("the stack on {c} touches no tile (X2)"),
                });
            }
            let Some(i) = index(c) else {
                return bad(format!("cell {c} is out of range"));
            };
            if let Some(col) = tile {
                if p.n_tiles as usize >= 39 || p.n_tiles >= options.tiles {
                    return bad(format!(
                        "more tiles than the {} of this game (X1, X6)",
                        options.tiles
                    ));
                }
                p.put_tile_raw(i, col);
            }
            if !st.is_empty() {
                if st.len() > 16 {
                    return bad(format!("the stack on {c} is taller than all 16 discs"));
                }
                let mut bits = 0u16;
                for (k, ch) in st.chars().enumerate() {
                    match ch {
                        '1' => on_board[0] += 1,
                        '2' => {
                            on_board[1] += 1;
                            bits |= 1 << k;
                        }
                        _ => {
                            return bad(format!(
                                "`{tok}`: a stack's discs are 1 (silver) or 2 (red)"
                            ))
                        }
                    }
                }
                if on_board[0] > DISCS as u32 || on_board[1] > DISCS as u32 {
                    return bad(format!(
                        "{} silver and {} red discs so far; each player has 8 (X1)",
                        on_board[0], on_board[1]
                    ));
                }
                p.set_stack(i, st.len() as u8, bits);
                if tile.is_none() {
                    outer.push((c, i));
                }
            }
        }
        for (k, (col, held)) in [(Colour::First, h0), (Colour::Second, h1)]
            .into_iter()
            .enumerate()
        {
            if on_board[k] > DISCS as u32 {
                return bad(format!(
                    "{} discs of {} on the board; each player has 8 (X1)",
                    on_board[k],
                    name(col)
                ));
            }
            if on_board[k] + held as u32 != DISCS as u32 {
                return bad(format!(
                    "{}'s hand {held} and {} discs on the board do not add up to 8 (X1)",
                    name(col),
                    on_board[k]
                ));
            }
        }
        p.hand = [h0, h1];
        for (c, _) in outer {
            let touching = c.neighbours().iter().any(|n| p.tile_at(*n).is_some());
            if !touching {
                return bad(format!("the stack on {c} touches no tile (X2)"));
            }
        }
        if supply as u32 + p.n_tiles as u32 != options.tiles as u32 {
            return bad(format!(
                "supply {supply} and {} tiles in the world do not make the game's {} (X1, X6)",
                p.n_tiles, options.tiles
            ));
        }
        p.supply = supply;
        for (c, _) in p.tiles() {
            if c.q.abs() + supply as i32 > TILE_LIMIT || c.r.abs() + supply as i32 > TILE_LIMIT {
                return bad(format!(
                    "the tile on {c} with {supply} tiles to come could leave the area this engine \
                     handles (|q|, |r| up to {TILE_LIMIT})"
                ));
            }
        }
        if p.in_setup() {
            if on_board != [0, 0] {
                return bad("no discs are played during the expert setup (X7)".to_string());
            }
            let expect = if p.n_tiles.is_multiple_of(2) {
                Colour::First
            } else {
                Colour::Second
            };
            if to_move != expect {
                return bad(format!(
                    "with {} setup tiles laid, {} puts the next (X7)",
                    p.n_tiles,
                    name(expect)
                ));
            }
        }
        if p.swapped && to_move != Colour::Second {
            return bad("after a swap red moves (X8)".to_string());
        }
        p.to_move = to_move;
        p.reset_history();
        Ok(p)
    }

    /// A readable diagram: the extent, a legend line, then one row per r, each cell as tile
    /// letter (`s`, `r`, `_` for outer space) followed by the stack's owner (`S`/`R`) and height;
    /// then the stacks in full, the supply, hands, scores and the side to move.
    pub fn diagram(&self) -> String {
        let mut out = String::new();
        if let Some((lo, hi)) = self.bounds() {
            let _ = writeln!(
                out,
                "q from {} to {}, rows r from {} to {}",
                lo.q, hi.q, lo.r, hi.r
            );
            out.push_str(DIAGRAM_LEGEND);
            out.push('\n');
            for r in lo.r..=hi.r {
                let mut row = " ".repeat((2 * (r - lo.r)) as usize);
                let _ = write!(row, "{r:>4} ");
                for q in lo.q..=hi.q {
                    let c = Hex::new(q, r);
                    let t = match self.tile_at(c) {
                        Some(Colour::First) => 's',
                        Some(Colour::Second) => 'r',
                        None if self.is_outer_space(c) => '_',
                        None => ' ',
                    };
                    match self.stack_at(c) {
                        Some(st) => {
                            let o = if st.owner() == Colour::First {
                                'S'
                            } else {
                                'R'
                            };
                            let _ = write!(row, "{t}{o}{:<2}", st.height());
                        }
                        None => {
                            let _ = write!(row, "{t}{}", if t == ' ' { "   " } else { ".  " });
                        }
                    }
                }
                out.push_str(row.trim_end());
                out.push('\n');
            }
        } else {
            out.push_str("(the world is empty)\n");
        }
        let mut stacks: Vec<_> = self.stacks().collect();
        stacks.sort_unstable_by_key(|(c, _)| *c);
        for (c, st) in stacks {
            let discs: String = st
                .discs()
                .map(|d| if d == Colour::First { 's' } else { 'r' })
                .collect();
            let _ = writeln!(out, "stack {c}: {discs} (bottom to top)");
        }
        let sc = self.score();
        let _ = writeln!(
            out,
            "supply {}, hands silver {} red {}, score silver {} red {}, {} to move",
            self.supply,
            self.hand[0],
            self.hand[1],
            sc[0],
            sc[1],
            name(self.to_move)
        );
        out
    }
}
