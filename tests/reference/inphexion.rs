//! A slow, plain second statement of the inpHeXion rules (rules I1–I19 of
//! `hexcord::games::inphexion`) and of the protocol's text formats, used only to check the fast engine.
//!
//! Everything here is recomputed from scratch with vectors of cells: no bitboards, no caches.
//! It shares no code with `src/`.

use std::collections::BTreeSet;
use std::sync::OnceLock;

/// A colour (I3).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Side {
    White,
    Black,
}

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Side::White => "white",
            Side::Black => "black",
        }
    }

    fn index(self) -> usize {
        match self {
            Side::White => 0,
            Side::Black => 1,
        }
    }
}

/// What a cell holds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Disc {
    Empty,
    Of(Side),
    /// I15: the neutral disc.
    Neutral,
}

/// A cell as (column, row), both from 0; `a1` is (0, 0) (I2).
pub type Cell = (usize, usize);

/// Why the game ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Reason {
    Connection,
    NoLegalMove,
    RelocationImpossible,
}

impl Reason {
    fn text(self) -> &'static str {
        match self {
            Reason::Connection => "connection",
            Reason::NoLegalMove => "no legal move",
            Reason::RelocationImpossible => "relocation impossible",
        }
    }
}

/// The N×N board, row by row.
#[derive(Clone, PartialEq, Eq, Debug)]
struct Board {
    n: usize,
    cells: Vec<Disc>,
}

impl Board {
    fn empty(n: usize) -> Board {
        Board {
            n,
            cells: vec![Disc::Empty; n * n],
        }
    }

    fn get(&self, c: Cell) -> Disc {
        self.cells[c.1 * self.n + c.0]
    }

    fn set(&mut self, c: Cell, d: Disc) {
        self.cells[c.1 * self.n + c.0] = d;
    }

    /// Every cell, in columns-then-rows order (a1, a2, …, b1, …).
    fn all_cells(&self) -> Vec<Cell> {
        let mut v = Vec::new();
        for col in 0..self.n {
            for row in 0..self.n {
                v.push((col, row));
            }
        }
        v
    }

    fn count(&self, d: Disc) -> usize {
        self.cells.iter().filter(|&&x| x == d).count()
    }

    fn empty_cells(&self) -> Vec<Cell> {
        self.all_cells()
            .into_iter()
            .filter(|&c| self.get(c) == Disc::Empty)
            .collect()
    }

    /// I2: the neighbours of (c, r) are (c±1, r), (c, r±1), (c+1, r−1), (c−1, r+1), on the board.
    fn neighbours(&self, c: Cell) -> &'static [Cell] {
        &neighbour_table(self.n)[c.1 * self.n + c.0]
    }

    /// I9: every on-board neighbour holds a disc of `x` (the edge counts as surrounding).
    fn surrounded_by(&self, c: Cell, x: Side) -> bool {
        self.neighbours(c)
            .iter()
            .all(|&nb| self.get(nb) == Disc::Of(x))
    }

    /// I3, I17: a chain of `side`'s discs joins its two edges (White: row 1 to row N; Black:
    /// column a to the last column). The neutral disc never counts (I15).
    fn has_chain(&self, side: Side) -> bool {
        let n = self.n;
        let starts_edge = |c: Cell| match side {
            Side::White => c.1 == 0,
            Side::Black => c.0 == 0,
        };
        let ends_edge = |c: Cell| match side {
            Side::White => c.1 == n - 1,
            Side::Black => c.0 == n - 1,
        };
        let mut seen = vec![false; n * n];
        let mut todo: Vec<Cell> = self
            .all_cells()
            .into_iter()
            .filter(|&c| starts_edge(c) && self.get(c) == Disc::Of(side))
            .collect();
        while let Some(c) = todo.pop() {
            if seen[c.1 * n + c.0] {
                continue;
            }
            seen[c.1 * n + c.0] = true;
            if ends_edge(c) {
                return true;
            }
            for &nb in self.neighbours(c) {
                if self.get(nb) == Disc::Of(side) && !seen[nb.1 * n + nb.0] {
                    todo.push(nb);
                }
            }
        }
        false
    }

    /// I17: the colour with a connecting chain (both cannot have one at once).
    fn winner(&self) -> Option<Side> {
        [Side::White, Side::Black]
            .into_iter()
            .find(|&s| self.has_chain(s))
    }
}

/// I2: the on-board neighbours of every cell of an N×N board, row by row, built once per size.
fn neighbour_table(n: usize) -> &'static Vec<Vec<Cell>> {
    static TABLES: OnceLock<Vec<Vec<Vec<Cell>>>> = OnceLock::new();
    let tables = TABLES.get_or_init(|| {
        (0..=11)
            .map(|n| {
                let mut t = Vec::new();
                for row in 0..n as i64 {
                    for col in 0..n as i64 {
                        let deltas = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)];
                        let cells: Vec<Cell> = deltas
                            .iter()
                            .map(|(dc, dr)| (col + dc, row + dr))
                            .filter(|&(x, y)| x >= 0 && y >= 0 && x < n as i64 && y < n as i64)
                            .map(|(x, y)| (x as usize, y as usize))
                            .collect();
                        t.push(cells);
                    }
                }
                t
            })
            .collect()
    });
    &tables[n]
}

/// I2: `a1`-style cell names.
pub fn cell_name(c: Cell) -> String {
    format!("{}{}", (b'a' + c.0 as u8) as char, c.1 + 1)
}

fn parse_cell(text: &str, n: usize) -> Result<Cell, String> {
    let mut chars = text.chars();
    let letter = chars.next().ok_or("empty cell name")?;
    if !letter.is_ascii_lowercase() {
        return Err(format!("bad cell {text}"));
    }
    let col = (letter as u8 - b'a') as usize;
    let row: usize = chars
        .as_str()
        .parse()
        .map_err(|_| format!("bad cell {text}"))?;
    if col >= n || row == 0 || row > n {
        return Err(format!("cell {text} is off the board"));
    }
    Ok((col, row - 1))
}

/// I4: each player's hand at the start: ⌈N²/2⌉, one fewer with the neutral disc.
fn initial_hand(n: usize, neutral: bool) -> u32 {
    let h = (n * n).div_ceil(2) as u32;
    if neutral {
        h - 1
    } else {
        h
    }
}

/// One turn's choice before relocation destinations are chosen.
#[derive(Clone, PartialEq, Eq, Debug)]
enum Base {
    /// I5 or I8: a disc from hand on a cell.
    Place(Cell),
    /// I7.
    Swap,
    /// I6: the opponent disc at `from` moves to `to`; `relocate` are the discs that must be
    /// relocated (I10, sorted columns-then-rows), `destinations` the cells they may go to. Both
    /// are empty when nothing is relocated or when relocation is impossible (I14).
    Regular {
        from: Cell,
        to: Cell,
        relocate: Vec<Cell>,
        destinations: Vec<Cell>,
    },
}

impl Base {
    fn text(&self) -> String {
        match self {
            Base::Place(c) => cell_name(*c),
            Base::Swap => "swap".to_string(),
            Base::Regular { from, to, .. } => format!("{}-{}", cell_name(*from), cell_name(*to)),
        }
    }
}

/// The board after the disc move and placement of a regular move (I6, I16).
struct Placed {
    board: Board,
    /// I16, I17: the winner at the first connection check.
    winner: Option<Side>,
    /// I10: discs to relocate (before the destination choice), columns-then-rows.
    relocate: Vec<Cell>,
    /// I10: the empty cells after the placement.
    destinations: Vec<Cell>,
}

/// A whole game state of inpHeXion, as the protocol's `position` shows it plus the outcome.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Ref {
    n: usize,
    pie: bool,
    free_reply: bool,
    neutral: bool,
    board: Board,
    to_move: Side,
    hands: [u32; 2],
    /// I7: the position right after a swap.
    swapped: bool,
    outcome: Option<(Side, Reason)>,
}

impl Ref {
    /// A new game from a variant line such as `inphexion size=5 pie`.
    pub fn new(variant_line: &str) -> Result<Ref, String> {
        let mut words = variant_line.split_whitespace();
        match words.next() {
            Some(w) if w.eq_ignore_ascii_case("inphexion") => {}
            Some(w) => return Err(format!("unknown option: {w}")),
            None => return Err("unknown option: (empty line)".to_string()),
        }
        let (mut n, mut pie, mut free_reply, mut neutral) = (7usize, false, false, false);
        for w in words {
            let w = w.to_ascii_lowercase();
            if let Some(v) = w.strip_prefix("size=") {
                // I1: N from 4 to 11.
                n = match v.parse::<usize>() {
                    Ok(x) if (4..=11).contains(&x) => x,
                    _ => return Err(format!("bad option: {w} (I1)")),
                };
            } else if w == "pie" {
                pie = true;
            } else if w == "free-reply" {
                free_reply = true;
            } else if w == "neutral" {
                neutral = true;
            } else {
                return Err(format!("unknown option: {w}"));
            }
        }
        // I15: the neutral disc only on odd sizes.
        if neutral && n % 2 == 0 {
            return Err("bad option: neutral needs an odd size (I15)".to_string());
        }
        let mut board = Board::empty(n);
        if neutral {
            // I15: it starts on the centre cell.
            board.set((n / 2, n / 2), Disc::Neutral);
        }
        let h = initial_hand(n, neutral);
        Ok(Ref {
            n,
            pie,
            free_reply,
            neutral,
            board,
            to_move: Side::White,
            hands: [h, h],
            swapped: false,
            outcome: None,
        })
    }

    /// A game from a protocol `position` line (the protocol's `setpos`).
    pub fn from_position(variant_line: &str, line: &str) -> Result<Ref, String> {
        let mut r = Ref::new(variant_line)?;
        let fields: Vec<&str> = line.trim().split('|').collect();
        if fields.len() < 3 || fields.len() > 4 {
            return Err("a position has 3 or 4 fields separated by |".to_string());
        }
        let rows: Vec<&str> = fields[0].split('/').collect();
        if rows.len() != r.n {
            return Err(format!("{} rows instead of {}", rows.len(), r.n));
        }
        let mut board = Board::empty(r.n);
        for (row, text) in rows.iter().enumerate() {
            let chars: Vec<char> = text.chars().collect();
            if chars.len() != r.n {
                return Err(format!("row {} has {} cells", row + 1, chars.len()));
            }
            for (col, ch) in chars.into_iter().enumerate() {
                let d = match ch {
                    '.' => Disc::Empty,
                    'w' => Disc::Of(Side::White),
                    'b' => Disc::Of(Side::Black),
                    'n' => Disc::Neutral,
                    _ => return Err(format!("unknown letter {ch}")),
                };
                board.set((col, row), d);
            }
        }
        let neutrals = board.count(Disc::Neutral);
        if neutrals != usize::from(r.neutral) {
            return Err("the neutral disc must be there exactly with the variant (I15)".into());
        }
        r.to_move = match fields[1] {
            "to-move white" => Side::White,
            "to-move black" => Side::Black,
            other => return Err(format!("bad side to move: {other}")),
        };
        let hands = fields[2]
            .strip_prefix("hand ")
            .and_then(|h| h.split_once('/'))
            .ok_or("bad hand field")?;
        let hw: u32 = hands.0.parse().map_err(|_| "bad hand")?;
        let hb: u32 = hands.1.parse().map_err(|_| "bad hand")?;
        let initial = initial_hand(r.n, r.neutral) as usize;
        let w = board.count(Disc::Of(Side::White));
        let b = board.count(Disc::Of(Side::Black));
        if w > initial || b > initial || hw as usize != initial - w || hb as usize != initial - b {
            return Err("hands must be the initial hand minus the discs on the board".into());
        }
        // White moves exactly when both have placed as many discs.
        if (r.to_move == Side::White) != (w == b) {
            return Err("the side to move does not match the disc counts".into());
        }
        if fields.len() == 4 {
            if fields[3] != "swapped" || !r.pie || r.to_move != Side::Black || b != 0 {
                return Err("`swapped` only right after a swap (I7)".into());
            }
            r.swapped = true;
        }
        r.board = board;
        r.hands = [hw, hb];
        // I17, I18: a position can already be over.
        if let Some(w) = r.board.winner() {
            r.outcome = Some((w, Reason::Connection));
        } else if r.base_moves().is_empty() {
            r.outcome = Some((r.to_move.other(), Reason::NoLegalMove));
        }
        Ok(r)
    }

    pub fn size(&self) -> usize {
        self.n
    }

    pub fn to_move(&self) -> Side {
        self.to_move
    }

    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// The protocol's `position` line.
    pub fn position_line(&self) -> String {
        let mut rows = Vec::new();
        for row in 0..self.n {
            let mut s = String::new();
            for col in 0..self.n {
                s.push(match self.board.get((col, row)) {
                    Disc::Empty => '.',
                    Disc::Of(Side::White) => 'w',
                    Disc::Of(Side::Black) => 'b',
                    Disc::Neutral => 'n',
                });
            }
            rows.push(s);
        }
        let mut line = format!(
            "{}|to-move {}|hand {}/{}",
            rows.join("/"),
            self.to_move.name(),
            self.hands[0],
            self.hands[1]
        );
        if self.swapped {
            line.push_str("|swapped");
        }
        line
    }

    /// The protocol's `status` text.
    pub fn status(&self) -> String {
        match self.outcome {
            Some((w, why)) => format!("over {} wins: {}", w.name(), why.text()),
            None => format!("to-move {}", self.to_move.name()),
        }
    }

    /// I4: the mover's hand.
    fn hand(&self) -> u32 {
        self.hands[self.to_move.index()]
    }

    /// I15: what counts as an opponent disc of the mover (the neutral disc does, for everyone).
    fn is_opponent_disc(&self, d: Disc) -> bool {
        d == Disc::Of(self.to_move.other()) || d == Disc::Neutral
    }

    /// I5: White's first move places a disc (not with the neutral disc: I15).
    fn is_first_placement(&self) -> bool {
        !self.neutral
            && self.to_move == Side::White
            && self.board.count(Disc::Empty) == self.n * self.n
    }

    /// I7, I8: Black's first turn, not yet used up by a swap.
    fn is_black_first_turn(&self) -> bool {
        self.to_move == Side::Black && self.board.count(Disc::Of(Side::Black)) == 0 && !self.swapped
    }

    /// I6: the regular moves' (from, to) pairs: an opponent disc and one of its empty neighbours.
    fn disc_moves(&self) -> Vec<(Cell, Cell)> {
        let mut v = Vec::new();
        if self.hand() == 0 {
            // I4: no disc to place.
            return v;
        }
        for from in self.board.all_cells() {
            if !self.is_opponent_disc(self.board.get(from)) {
                continue;
            }
            for &to in self.board.neighbours(from) {
                if self.board.get(to) == Disc::Empty {
                    v.push((from, to));
                }
            }
        }
        v
    }

    /// I6, I16, I10: the board after moving `from`→`to` and placing on `from`, the first
    /// connection check, and the discs that must be relocated.
    fn place_regular(&self, from: Cell, to: Cell) -> Placed {
        let mover = self.to_move;
        let before = &self.board;
        let mut board = before.clone();
        board.set(to, before.get(from));
        board.set(from, Disc::Of(mover));
        let winner = board.winner();
        let mut relocate = Vec::new();
        if winner.is_none() {
            for c in board.all_cells() {
                if !self.is_opponent_disc(board.get(c)) || !board.surrounded_by(c, mover) {
                    continue;
                }
                // I10 Decision: only discs not surrounded by the mover before this move. The moved
                // disc was on `from` before.
                let earlier = if c == to { from } else { c };
                if !before.surrounded_by(earlier, mover) {
                    relocate.push(c);
                }
            }
        }
        let destinations = board.empty_cells();
        Placed {
            board,
            winner,
            relocate,
            destinations,
        }
    }

    /// Every choice of the mover before relocation destinations (ignores the outcome).
    fn base_moves(&self) -> Vec<Base> {
        let mut v = Vec::new();
        if self.hand() == 0 {
            // I4, I18.
            return v;
        }
        if self.is_first_placement() {
            // I5: any cell.
            for c in self.board.all_cells() {
                v.push(Base::Place(c));
            }
            return v;
        }
        if self.is_black_first_turn() {
            if self.pie {
                // I7.
                v.push(Base::Swap);
            }
            if self.free_reply {
                // I8: any empty cell.
                for c in self.board.empty_cells() {
                    v.push(Base::Place(c));
                }
            }
        }
        for (from, to) in self.disc_moves() {
            let p = self.place_regular(from, to);
            // I14: impossible relocation is written without destinations.
            let possible = p.destinations.len() >= p.relocate.len();
            let (relocate, destinations) = if possible && !p.relocate.is_empty() {
                (p.relocate, p.destinations)
            } else {
                (Vec::new(), Vec::new())
            };
            v.push(Base::Regular {
                from,
                to,
                relocate,
                destinations,
            });
        }
        v
    }

    /// Every legal move in canonical notation, sorted in byte order; empty when over.
    pub fn legal(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.is_over() {
            return out;
        }
        for b in self.base_moves() {
            let text = b.text();
            match &b {
                Base::Regular {
                    relocate,
                    destinations,
                    ..
                } if !relocate.is_empty() => {
                    for a in assignments(relocate, destinations) {
                        out.push(with_relocations(&text, &a));
                    }
                }
                _ => out.push(text),
            }
        }
        out.sort();
        out
    }

    /// The number of legal moves, without listing them.
    pub fn legal_count(&self) -> u64 {
        if self.is_over() {
            return 0;
        }
        self.base_moves()
            .iter()
            .map(|b| match b {
                Base::Regular {
                    relocate,
                    destinations,
                    ..
                } => arrangements(destinations.len() as u64, relocate.len() as u64),
                _ => 1,
            })
            .sum()
    }

    /// A uniformly random base choice, then uniformly random destinations, in canonical notation.
    /// `pick(k)` returns a number below k. None when the game is over.
    pub fn random_move(&self, pick: &mut dyn FnMut(usize) -> usize) -> Option<String> {
        if self.is_over() {
            return None;
        }
        let bases = self.base_moves();
        if bases.is_empty() {
            return None;
        }
        let b = &bases[pick(bases.len())];
        let text = b.text();
        match b {
            Base::Regular {
                relocate,
                destinations,
                ..
            } if !relocate.is_empty() => {
                let mut free = destinations.clone();
                let mut pairs = Vec::new();
                for &s in relocate {
                    let d = free.remove(pick(free.len()));
                    pairs.push((s, d));
                }
                Some(with_relocations(&text, &pairs))
            }
            _ => Some(text),
        }
    }

    /// Plays a move given in canonical notation.
    pub fn play(&mut self, canonical_move: &str) -> Result<(), String> {
        if self.is_over() {
            return Err("the game is over".to_string());
        }
        let mut tokens = canonical_move.split(' ');
        let head = tokens.next().unwrap_or("");
        let mut pairs = Vec::new();
        for t in tokens {
            let (s, d) = t.split_once('>').ok_or(format!("bad relocation {t}"))?;
            pairs.push((parse_cell(s, self.n)?, parse_cell(d, self.n)?));
        }
        let base = self
            .base_moves()
            .into_iter()
            .find(|b| b.text() == head)
            .ok_or(format!("{head} is not legal here"))?;
        if let Base::Regular {
            relocate,
            destinations,
            ..
        } = &base
        {
            let sources: Vec<Cell> = pairs.iter().map(|p| p.0).collect();
            if &sources != relocate {
                return Err("the relocated discs are not the ones listed (I10)".to_string());
            }
            let dests: BTreeSet<Cell> = pairs.iter().map(|p| p.1).collect();
            if dests.len() != pairs.len() || !dests.iter().all(|d| destinations.contains(d)) {
                return Err("relocation destinations must be different empty cells (I10)".into());
            }
        } else if !pairs.is_empty() {
            return Err("only a regular move relocates".to_string());
        }
        self.apply(&base, &pairs);
        Ok(())
    }

    /// Plays a checked choice with its relocation pairs (source, destination).
    fn apply(&mut self, base: &Base, pairs: &[(Cell, Cell)]) {
        let mover = self.to_move;
        match base {
            Base::Swap => {
                // I7: colours change hands; the player now holding Black moves next.
                self.swapped = true;
                return;
            }
            Base::Place(c) => {
                // I5, I8.
                self.board.set(*c, Disc::Of(mover));
                self.hands[mover.index()] -= 1;
            }
            Base::Regular { from, to, .. } => {
                // I16 order: move, place, check, relocate, check.
                let p = self.place_regular(*from, *to);
                self.board = p.board;
                self.hands[mover.index()] -= 1;
                if let Some(w) = p.winner {
                    // I17 (the mover may complete the opponent's chain).
                    self.outcome = Some((w, Reason::Connection));
                } else if p.destinations.len() < p.relocate.len() {
                    // I14: the mover loses, the discs stay.
                    self.outcome = Some((mover.other(), Reason::RelocationImpossible));
                } else {
                    // I10: lift them all, then put each on its chosen cell (I13: once only).
                    let lifted: Vec<Disc> = pairs.iter().map(|&(s, _)| self.board.get(s)).collect();
                    for &(s, _) in pairs {
                        self.board.set(s, Disc::Empty);
                    }
                    for (&(_, d), disc) in pairs.iter().zip(lifted) {
                        self.board.set(d, disc);
                    }
                    if let Some(w) = self.board.winner() {
                        // I16, I17: second check.
                        self.outcome = Some((w, Reason::Connection));
                    }
                }
            }
        }
        // I16: the turn passes even when the game has ended.
        self.to_move = mover.other();
        self.swapped = false;
        if self.outcome.is_none() && self.base_moves().is_empty() {
            // I18: no legal move loses.
            self.outcome = Some((self.to_move.other(), Reason::NoLegalMove));
        }
    }

    /// Every (choice, relocation pairs) that is a legal move.
    fn expanded_moves(&self) -> Vec<(Base, Vec<(Cell, Cell)>)> {
        let mut v = Vec::new();
        for b in self.base_moves() {
            match &b {
                Base::Regular {
                    relocate,
                    destinations,
                    ..
                } if !relocate.is_empty() => {
                    for a in assignments(relocate, destinations) {
                        v.push((b.clone(), a));
                    }
                }
                _ => v.push((b.clone(), Vec::new())),
            }
        }
        v
    }

    /// The number of move sequences of length `depth` (a finished game counts 1 and stops).
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 || self.is_over() {
            return 1;
        }
        if depth == 1 {
            return self.legal_count();
        }
        let mut total = 0;
        for (b, pairs) in self.expanded_moves() {
            let mut next = self.clone();
            next.apply(&b, &pairs);
            total += next.perft(depth - 1);
        }
        total
    }
}

/// `base s>d s>d …` with the pairs sorted by source, columns-then-rows.
fn with_relocations(base: &str, pairs: &[(Cell, Cell)]) -> String {
    let mut sorted = pairs.to_vec();
    sorted.sort();
    let mut s = base.to_string();
    for (src, dst) in sorted {
        s.push_str(&format!(" {}>{}", cell_name(src), cell_name(dst)));
    }
    s
}

/// Every injective assignment of `sources` to `destinations`.
fn assignments(sources: &[Cell], destinations: &[Cell]) -> Vec<Vec<(Cell, Cell)>> {
    if sources.is_empty() {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for (i, &d) in destinations.iter().enumerate() {
        let mut rest = destinations.to_vec();
        rest.remove(i);
        for mut tail in assignments(&sources[1..], &rest) {
            tail.insert(0, (sources[0], d));
            out.push(tail);
        }
    }
    out
}

/// The number of ordered choices of k items among n.
fn arrangements(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    (0..k).map(|i| n - i).product()
}
