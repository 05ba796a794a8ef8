//! A slow, plain second statement of the EXXIT rules (rules X1–X20 of `hexcord::games::exxit`)
//! and of the protocol's text formats, used only to check the fast engine.
//!
//! Tiles and stacks live in ordered maps keyed by axial cell; everything is recomputed from
//! scratch. It shares no code with `src/`.

use std::collections::{BTreeMap, BTreeSet};

/// A colour (X1).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub enum Side {
    Silver,
    Red,
}

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::Silver => Side::Red,
            Side::Red => Side::Silver,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Side::Silver => "silver",
            Side::Red => "red",
        }
    }

    fn index(self) -> usize {
        match self {
            Side::Silver => 0,
            Side::Red => 1,
        }
    }

    fn digit(self) -> char {
        match self {
            Side::Silver => '1',
            Side::Red => '2',
        }
    }

    fn from_digit(c: char) -> Option<Side> {
        match c {
            '1' => Some(Side::Silver),
            '2' => Some(Side::Red),
            _ => None,
        }
    }
}

/// An axial cell (q, r) (X4).
pub type Cell = (i32, i32);

/// X4, X16: the directions in the order W, NW, NE, E, SE, SW.
const DIRECTIONS: [Cell; 6] = [(-1, 0), (0, -1), (1, -1), (1, 0), (0, 1), (-1, 1)];

fn step(c: Cell, d: Cell, k: i32) -> Cell {
    (c.0 + d.0 * k, c.1 + d.1 * k)
}

fn neighbours(c: Cell) -> Vec<Cell> {
    DIRECTIONS.iter().map(|&d| step(c, d, 1)).collect()
}

fn cell_text(c: Cell) -> String {
    format!("{},{}", c.0, c.1)
}

/// Why the game ended by score (X19).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum End {
    Supply,
    Passes,
    Repetition,
}

/// A move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mv {
    /// X7: an expert setup tile.
    SetupTile(Cell),
    /// X12–X15: the stack on `from` dances in direction `dir` onto `target`.
    Dance { from: Cell, dir: Cell, target: Cell },
    /// X16.
    Expand(Cell),
    /// X17.
    Place(Cell),
    /// X18.
    Pass,
    /// X8.
    Swap,
}

impl Mv {
    fn text(self) -> String {
        match self {
            Mv::SetupTile(c) | Mv::Expand(c) => format!("+{}", cell_text(c)),
            Mv::Dance { from, target, .. } => format!("{}-{}", cell_text(from), cell_text(target)),
            Mv::Place(c) => cell_text(c),
            Mv::Pass => "pass".to_string(),
            Mv::Swap => "swap".to_string(),
        }
    }
}

/// A whole EXXIT game state: the position and what the end rules need of the history.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Ref {
    total_tiles: u32,
    expert: bool,
    pie: bool,
    tiles: BTreeMap<Cell, Side>,
    /// X3: discs bottom to top.
    stacks: BTreeMap<Cell, Vec<Side>>,
    supply: u32,
    hands: [u32; 2],
    to_move: Side,
    /// The last move was a pass (X19).
    last_pass: bool,
    /// Right after a swap (X8).
    swapped: bool,
    /// X19: how often each position (without the pass and swap marks) occurred.
    seen: BTreeMap<String, u32>,
    outcome: Option<End>,
}

impl Ref {
    /// A new game from a variant line such as `exxit tiles=29 expert`.
    pub fn new(variant_line: &str) -> Result<Ref, String> {
        let mut words = variant_line.split_whitespace();
        match words.next() {
            Some(w) if w.eq_ignore_ascii_case("exxit") => {}
            Some(w) => return Err(format!("unknown option: {w}")),
            None => return Err("unknown option: (empty line)".to_string()),
        }
        let (mut total, mut expert, mut pie) = (39u32, false, false);
        for w in words {
            let w = w.to_ascii_lowercase();
            if let Some(v) = w.strip_prefix("tiles=") {
                // X6: 39, 29 or 19.
                total = match v.parse::<u32>() {
                    Ok(x) if x == 39 || x == 29 || x == 19 => x,
                    _ => return Err(format!("bad option: {w} (X6)")),
                };
            } else if w == "expert" {
                expert = true;
            } else if w == "pie" {
                pie = true;
            } else {
                return Err(format!("unknown option: {w}"));
            }
        }
        let mut tiles = BTreeMap::new();
        if !expert {
            // X5: the standard diamond.
            tiles.insert((0, -1), Side::Silver);
            tiles.insert((1, -1), Side::Silver);
            tiles.insert((0, 0), Side::Red);
            tiles.insert((1, -2), Side::Red);
        }
        let supply = total - tiles.len() as u32;
        let mut r = Ref {
            total_tiles: total,
            expert,
            pie,
            tiles,
            stacks: BTreeMap::new(),
            supply,
            hands: [8, 8],
            to_move: Side::Silver,
            last_pass: false,
            swapped: false,
            seen: BTreeMap::new(),
            outcome: None,
        };
        r.seen.insert(r.core_line(), 1);
        Ok(r)
    }

    /// A game from a protocol `position` line (the protocol's `setpos`); history starts afresh.
    pub fn from_position(variant_line: &str, line: &str) -> Result<Ref, String> {
        let mut r = Ref::new(variant_line)?;
        let fields: Vec<&str> = line.trim().split('|').collect();
        if fields.len() < 4 {
            return Err("a position has at least 4 fields separated by |".to_string());
        }
        let mut tiles = BTreeMap::new();
        let mut stacks = BTreeMap::new();
        for token in fields[0].split_whitespace() {
            let (cell, content) = token.split_once(':').ok_or(format!("bad cell {token}"))?;
            let (q, rr) = cell.split_once(',').ok_or(format!("bad cell {token}"))?;
            let c: Cell = (
                q.parse().map_err(|_| format!("bad cell {token}"))?,
                rr.parse().map_err(|_| format!("bad cell {token}"))?,
            );
            let (t, s) = match content.split_once('/') {
                Some((t, s)) => (t, Some(s)),
                None => (content, None),
            };
            match t {
                "." => {}
                "1" | "2" => {
                    let side = Side::from_digit(t.chars().next().unwrap_or('?')).ok_or("tile")?;
                    tiles.insert(c, side);
                }
                _ => return Err(format!("bad tile in {token}")),
            }
            match s {
                None if t == "." => return Err(format!("{token}: nothing there")),
                None => {}
                Some(s) => {
                    let discs: Option<Vec<Side>> = s.chars().map(Side::from_digit).collect();
                    match discs {
                        Some(d) if !d.is_empty() => {
                            stacks.insert(c, d);
                        }
                        _ => return Err(format!("bad stack in {token}")),
                    }
                }
            }
        }
        let supply: u32 = fields[1]
            .strip_prefix("tiles ")
            .and_then(|x| x.parse().ok())
            .ok_or("bad tiles field")?;
        let (h1, h2) = fields[2]
            .strip_prefix("hand ")
            .and_then(|h| h.split_once('/'))
            .ok_or("bad hand field")?;
        let hands = [
            h1.parse::<u32>().map_err(|_| "bad hand")?,
            h2.parse::<u32>().map_err(|_| "bad hand")?,
        ];
        r.to_move = match fields[3] {
            "to-move silver" => Side::Silver,
            "to-move red" => Side::Red,
            other => return Err(format!("bad side to move: {other}")),
        };
        for extra in &fields[4..] {
            match *extra {
                "passes 1" => r.last_pass = true,
                "swapped" if r.pie => r.swapped = true,
                _ => return Err(format!("unknown field {extra}")),
            }
        }
        // X1: tiles and discs that exist.
        if tiles.len() as u32 + supply != r.total_tiles {
            return Err("the supply does not match the tiles in the world".to_string());
        }
        for side in [Side::Silver, Side::Red] {
            let on_board: usize = stacks
                .values()
                .map(|s: &Vec<Side>| s.iter().filter(|&&d| d == side).count())
                .sum();
            if on_board as u32 + hands[side.index()] != 8 {
                return Err("hands do not add up to 8 per colour".to_string());
            }
        }
        // X2: a stack stands on a tile or in outer space.
        for c in stacks.keys() {
            if !tiles.contains_key(c) && !neighbours(*c).iter().any(|n| tiles.contains_key(n)) {
                return Err(format!("stack on {} touches no tile", cell_text(*c)));
            }
        }
        r.tiles = tiles;
        r.stacks = stacks;
        r.supply = supply;
        r.hands = hands;
        r.seen = BTreeMap::new();
        r.seen.insert(r.core_line(), 1);
        if r.supply == 0 && !r.in_setup() {
            // X19.
            r.outcome = Some(End::Supply);
        }
        Ok(r)
    }

    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// The position without the pass and swap marks: what X19's repetition compares.
    fn core_line(&self) -> String {
        let mut cells: BTreeSet<Cell> = self.tiles.keys().copied().collect();
        cells.extend(self.stacks.keys().copied());
        let mut parts = Vec::new();
        for c in cells {
            let t = match self.tiles.get(&c) {
                Some(s) => s.digit(),
                None => '.',
            };
            let mut p = format!("{}:{}", cell_text(c), t);
            if let Some(s) = self.stacks.get(&c) {
                p.push('/');
                p.extend(s.iter().map(|d| d.digit()));
            }
            parts.push(p);
        }
        format!(
            "{}|tiles {}|hand {}/{}|to-move {}",
            parts.join(" "),
            self.supply,
            self.hands[0],
            self.hands[1],
            self.to_move.name()
        )
    }

    /// The protocol's `position` line.
    pub fn position_line(&self) -> String {
        let mut line = self.core_line();
        if self.last_pass {
            line.push_str("|passes 1");
        }
        if self.swapped {
            line.push_str("|swapped");
        }
        line
    }

    /// X20: 2 points per tile of the largest island, 1 per tile of the others.
    fn score(&self, side: Side) -> u32 {
        let mine: BTreeSet<Cell> = self
            .tiles
            .iter()
            .filter(|(_, &s)| s == side)
            .map(|(&c, _)| c)
            .collect();
        let mut seen = BTreeSet::new();
        let mut sizes = Vec::new();
        for &start in &mine {
            if seen.contains(&start) {
                continue;
            }
            let mut size = 0;
            let mut todo = vec![start];
            seen.insert(start);
            while let Some(c) = todo.pop() {
                size += 1;
                for n in neighbours(c) {
                    if mine.contains(&n) && seen.insert(n) {
                        todo.push(n);
                    }
                }
            }
            sizes.push(size);
        }
        sizes.iter().sum::<u32>() + sizes.iter().max().copied().unwrap_or(0)
    }

    /// The protocol's `status` text.
    pub fn status(&self) -> String {
        let Some(end) = self.outcome else {
            return format!("to-move {}", self.to_move.name());
        };
        let (s, r) = (self.score(Side::Silver), self.score(Side::Red));
        let suffix = match end {
            End::Supply => "",
            End::Passes => " (passes)",
            End::Repetition => " (repetition)",
        };
        if s == r {
            format!("over draw: score {s}-{r}{suffix}")
        } else if s > r {
            format!("over silver wins: score {s}-{r}{suffix}")
        } else {
            format!("over red wins: score {r}-{s}{suffix}")
        }
    }

    /// X7: the expert setup lasts until six tiles lie.
    fn in_setup(&self) -> bool {
        self.expert && self.tiles.len() < 6
    }

    /// X8: red may swap right after silver's first move of normal play. That position is the
    /// only one with red to move, the setup's supply, and hands 7/8 (silver's first move always
    /// places a disc; red's first move must place one; only an expansion returns discs).
    fn may_swap(&self) -> bool {
        let setup_tiles = if self.expert { 6 } else { 4 };
        self.pie
            && !self.in_setup()
            && !self.swapped
            && self.to_move == Side::Red
            && self.supply == self.total_tiles - setup_tiles
            && self.hands == [7, 8]
    }

    /// X12–X14: the stacks after the stack on `from` dances toward `dir`, the target, and
    /// whether discs fell into outer space; None when the dance is impossible.
    fn dance(&self, from: Cell, dir: Cell) -> Option<(BTreeMap<Cell, Vec<Side>>, Cell, bool)> {
        let mover = self.to_move;
        // X12: a stack of the mover on a tile.
        let stack = self.stacks.get(&from)?;
        if !self.tiles.contains_key(&from) || stack.last() != Some(&mover) {
            return None;
        }
        let h = stack.len() as i32;
        // X13: the first occupied cell is an opponent stack no taller than h within h steps,
        // and every cell before it is an empty tile.
        let mut target = None;
        for k in 1..=h {
            let c = step(from, dir, k);
            if !self.tiles.contains_key(&c) {
                // X13/X14: a cell without a tile before (or at) the target.
                return None;
            }
            if let Some(s) = self.stacks.get(&c) {
                if s.last() != Some(&mover.other()) || s.len() as i32 > h {
                    return None;
                }
                target = Some(c);
                break;
            }
        }
        let target = target?;
        // X12: lift the stack, drop one disc per cell, bottom first, from the neighbour on.
        let mut stacks = self.stacks.clone();
        let discs = stacks.remove(&from)?;
        let mut i = 0usize;
        let mut k = 1;
        let mut outer = false;
        while i < discs.len() {
            let c = step(from, dir, k);
            if self.tiles.contains_key(&c) {
                // X13: onto empty or occupied tiles alike.
                stacks.entry(c).or_default().push(discs[i]);
                i += 1;
                k += 1;
            } else {
                // X14: all the rest fall on an empty outer-space cell as one stack.
                if stacks.contains_key(&c) {
                    return None;
                }
                stacks.insert(c, discs[i..].to_vec());
                outer = true;
                break;
            }
        }
        Some((stacks, target, outer))
    }

    /// X10: every possible dance, keeping only those into outer space if there are any.
    fn dances(&self) -> Vec<Mv> {
        let mut all = Vec::new();
        let mut outer_ones = Vec::new();
        for &from in self.stacks.keys() {
            for dir in DIRECTIONS {
                if let Some((_, target, outer)) = self.dance(from, dir) {
                    let m = Mv::Dance { from, dir, target };
                    all.push(m);
                    if outer {
                        outer_ones.push(m);
                    }
                }
            }
        }
        if outer_ones.is_empty() {
            all
        } else {
            outer_ones
        }
    }

    /// X2: a cell without a tile touching the world.
    fn tiles_touching(&self, c: Cell) -> usize {
        neighbours(c)
            .iter()
            .filter(|n| self.tiles.contains_key(n))
            .count()
    }

    /// X16: an outer-space stack touching two or more tiles.
    fn expandable(&self, c: Cell) -> bool {
        !self.tiles.contains_key(&c) && self.stacks.contains_key(&c) && self.tiles_touching(c) >= 2
    }

    /// Every legal move (ignores the outcome).
    fn moves(&self) -> Vec<Mv> {
        if self.in_setup() {
            // X7: the first tile on (0,0), then any empty cell touching a tile.
            if self.tiles.is_empty() {
                return vec![Mv::SetupTile((0, 0))];
            }
            let mut cells = BTreeSet::new();
            for &c in self.tiles.keys() {
                for n in neighbours(c) {
                    if !self.tiles.contains_key(&n) {
                        cells.insert(n);
                    }
                }
            }
            return cells.into_iter().map(Mv::SetupTile).collect();
        }
        let mut v = self.dances();
        if v.is_empty() {
            // X11: build.
            for &c in self.stacks.keys() {
                if self.expandable(c) && self.supply > 0 {
                    v.push(Mv::Expand(c));
                }
            }
            if self.hands[self.to_move.index()] > 0 {
                for &c in self.tiles.keys() {
                    if !self.stacks.contains_key(&c) {
                        v.push(Mv::Place(c));
                    }
                }
            }
        }
        if v.is_empty() {
            // X18.
            v.push(Mv::Pass);
        }
        if self.may_swap() {
            v.push(Mv::Swap);
        }
        v
    }

    /// Every legal move in canonical notation, sorted in byte order; empty when over.
    pub fn legal(&self) -> Vec<String> {
        if self.is_over() {
            return Vec::new();
        }
        let mut v: Vec<String> = self.moves().into_iter().map(Mv::text).collect();
        v.sort();
        v
    }

    /// Plays a move given in canonical notation.
    pub fn play(&mut self, canonical_move: &str) -> Result<(), String> {
        if self.is_over() {
            return Err("the game is over".to_string());
        }
        let m = self
            .moves()
            .into_iter()
            .find(|m| m.text() == canonical_move)
            .ok_or(format!("{canonical_move} is not legal here"))?;
        self.apply(m);
        Ok(())
    }

    /// X16: converts the outer-space stack on `c` to a tile of `colour`, then the chain
    /// depth-first in the order W, NW, NE, E, SE, SW while the supply lasts.
    fn convert(&mut self, c: Cell, colour: Side) {
        if let Some(discs) = self.stacks.remove(&c) {
            for d in discs {
                self.hands[d.index()] += 1;
            }
        }
        self.tiles.insert(c, colour);
        self.supply -= 1;
        for dir in DIRECTIONS {
            let n = step(c, dir, 1);
            if self.supply > 0 && self.expandable(n) {
                self.convert(n, colour);
            }
        }
    }

    fn apply(&mut self, m: Mv) {
        let mover = self.to_move;
        match m {
            Mv::Swap => {
                // X8: the player now holding red moves next.
                self.swapped = true;
                self.record_and_check(false);
                return;
            }
            Mv::SetupTile(c) => {
                // X7.
                self.tiles.insert(c, mover);
                self.supply -= 1;
            }
            Mv::Dance { from, dir, .. } => {
                // X12–X15.
                if let Some((stacks, _, _)) = self.dance(from, dir) {
                    self.stacks = stacks;
                }
            }
            Mv::Expand(c) => self.convert(c, mover),
            Mv::Place(c) => {
                // X17.
                self.stacks.insert(c, vec![mover]);
                self.hands[mover.index()] -= 1;
            }
            Mv::Pass => {}
        }
        let second_pass = m == Mv::Pass && self.last_pass;
        self.to_move = mover.other();
        self.swapped = false;
        self.last_pass = m == Mv::Pass;
        self.record_and_check(second_pass);
    }

    /// X19: the end rules, in the order supply, passes, repetition.
    fn record_and_check(&mut self, second_pass: bool) {
        let key = self.core_line();
        let count = self.seen.entry(key).or_insert(0);
        *count += 1;
        let third = *count >= 3;
        if self.supply == 0 && !self.in_setup() {
            self.outcome = Some(End::Supply);
        } else if second_pass {
            self.outcome = Some(End::Passes);
        } else if third {
            self.outcome = Some(End::Repetition);
        }
    }

    /// Plays a random legal move; `pick(k)` returns a number below k. Returns its notation.
    pub fn random_move(&self, pick: &mut dyn FnMut(usize) -> usize) -> Option<String> {
        let l = self.legal();
        if l.is_empty() {
            None
        } else {
            Some(l[pick(l.len())].clone())
        }
    }

    /// The number of move sequences of length `depth` (a finished game counts 1 and stops).
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 || self.is_over() {
            return 1;
        }
        let mut total = 0;
        for m in self.moves() {
            let mut next = self.clone();
            next.apply(m);
            total += next.perft(depth - 1);
        }
        total
    }

    /// The number of distinct position lines at the ends of the move sequences that `perft`
    /// counts (a finished game's position counts where it stopped).
    pub fn distinct(&self, depth: u32) -> usize {
        let mut set = BTreeSet::new();
        self.collect(depth, &mut set);
        set.len()
    }

    fn collect(&self, depth: u32, set: &mut BTreeSet<String>) {
        if depth == 0 || self.is_over() {
            set.insert(self.position_line());
            return;
        }
        for m in self.moves() {
            let mut next = self.clone();
            next.apply(m);
            next.collect(depth - 1, set);
        }
    }
}
