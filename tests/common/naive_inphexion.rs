//! A slow, independent inpHeXion reference: a plain array board, neighbours from `Hex`, chains
//! by depth-first search, and every move produced as text with its resulting board. It shares no
//! code with the engine besides the geometry of `Hex`.
#![allow(dead_code)]
use hexcord::hex::Hex;

#[derive(Clone, Debug)]
pub struct Naive {
    pub n: i32,
    pub pie: bool,
    pub free_reply: bool,
    pub neutral: bool,
    /// 0 empty, 1 white, 2 black, 3 neutral; index r * n + q.
    pub board: Vec<u8>,
    pub to_move: u8,
    pub swapped: bool,
    pub over: bool,
}

fn name(n: i32, i: usize) -> String {
    let q = i as i32 % n;
    let r = i as i32 / n;
    format!("{}{}", (b'a' + q as u8) as char, r + 1)
}

impl Naive {
    pub fn new(n: i32, pie: bool, free_reply: bool, neutral: bool) -> Naive {
        let mut board = vec![0; (n * n) as usize];
        if neutral {
            board[((n / 2) * n + n / 2) as usize] = 3;
        }
        Naive {
            n,
            pie,
            free_reply,
            neutral,
            board,
            to_move: 1,
            swapped: false,
            over: false,
        }
    }

    /// From the board part of a position line, the side to move and the swapped flag.
    pub fn from_parts(n: i32, pie: bool, free_reply: bool, neutral: bool, line: &str) -> Naive {
        let mut s = Naive::new(n, pie, free_reply, neutral);
        let mut parts = line.split('|');
        let rows = parts.next().unwrap_or("");
        s.board = rows
            .chars()
            .filter(|&c| c != '/')
            .map(|c| match c {
                'w' => 1,
                'b' => 2,
                'n' => 3,
                _ => 0,
            })
            .collect();
        for p in parts {
            if p == "to-move black" {
                s.to_move = 2;
            }
            if p == "swapped" {
                s.swapped = true;
            }
        }
        s
    }

    fn nbrs(&self, i: usize) -> Vec<usize> {
        let h = Hex::new(i as i32 % self.n, i as i32 / self.n);
        h.neighbours()
            .into_iter()
            .filter(|x| x.q >= 0 && x.r >= 0 && x.q < self.n && x.r < self.n)
            .map(|x| (x.r * self.n + x.q) as usize)
            .collect()
    }

    fn surrounded(&self, b: &[u8], i: usize, by: u8) -> bool {
        self.nbrs(i).iter().all(|&j| b[j] == by)
    }

    fn chain(&self, b: &[u8], c: u8) -> bool {
        let n = self.n as usize;
        let start: Vec<usize> = (0..n).map(|k| if c == 1 { k } else { k * n }).collect();
        let mut seen = vec![false; n * n];
        let mut stack: Vec<usize> = start.into_iter().filter(|&i| b[i] == c).collect();
        while let Some(i) = stack.pop() {
            if seen[i] {
                continue;
            }
            seen[i] = true;
            let (q, r) = (i % n, i / n);
            if (c == 1 && r == n - 1) || (c == 2 && q == n - 1) {
                return true;
            }
            for j in self.nbrs(i) {
                if b[j] == c && !seen[j] {
                    stack.push(j);
                }
            }
        }
        false
    }

    fn count(&self, c: u8) -> usize {
        self.board.iter().filter(|&&x| x == c).count()
    }

    fn init_hand(&self) -> usize {
        ((self.n * self.n + 1) / 2) as usize - usize::from(self.neutral)
    }

    fn next(&self, board: Vec<u8>, over: bool) -> Naive {
        let mut s = self.clone();
        s.board = board;
        s.to_move = 3 - self.to_move;
        s.swapped = false;
        s.over = over;
        s
    }

    /// Every legal move as canonical text, with the position after it. A side without moves is
    /// not marked over here: an empty list means the game is over.
    pub fn moves(&self) -> Vec<(String, Naive)> {
        let mut out = Vec::new();
        if self.over {
            return out;
        }
        let m = self.to_move;
        let o = 3 - m;
        let (w, b) = (self.count(1), self.count(2));
        let cells = self.board.len();
        if !self.neutral && w == 0 && b == 0 {
            for i in 0..cells {
                let mut nb = self.board.clone();
                nb[i] = m;
                out.push((name(self.n, i), self.next(nb, false)));
            }
            return out;
        }
        let has_hand = self.init_hand() > self.count(m);
        if m == 2 && !self.swapped && w == 1 && b == 0 {
            if self.pie {
                let mut s = self.clone();
                s.swapped = true;
                out.push(("swap".to_string(), s));
            }
            if self.free_reply && has_hand {
                for i in 0..cells {
                    if self.board[i] == 0 {
                        let mut nb = self.board.clone();
                        nb[i] = m;
                        out.push((name(self.n, i), self.next(nb, false)));
                    }
                }
            }
        }
        if !has_hand {
            return out;
        }
        let target = |x: u8| x == o || x == 3;
        for f in 0..cells {
            if !target(self.board[f]) {
                continue;
            }
            for t in self.nbrs(f) {
                if self.board[t] != 0 {
                    continue;
                }
                let mut nb = self.board.clone();
                nb[t] = nb[f];
                nb[f] = m;
                let bare = format!("{}-{}", name(self.n, f), name(self.n, t));
                if self.chain(&nb, m) || self.chain(&nb, o) {
                    out.push((bare, self.next(nb, true)));
                    continue;
                }
                let mut lifted: Vec<usize> = (0..cells)
                    .filter(|&c| {
                        target(nb[c])
                            && self.surrounded(&nb, c, m)
                            && !(target(self.board[c]) && self.surrounded(&self.board, c, m))
                    })
                    .collect();
                // Canonical order: columns then rows.
                lifted.sort_by_key(|&c| (c % self.n as usize, c / self.n as usize));
                let empties: Vec<usize> = (0..cells).filter(|&c| nb[c] == 0).collect();
                if lifted.is_empty() {
                    out.push((bare, self.next(nb, false)));
                } else if empties.len() < lifted.len() {
                    out.push((bare, self.next(nb, true)));
                } else {
                    let mut chosen = Vec::new();
                    self.assign(&nb, &bare, &lifted, &empties, &mut chosen, &mut out);
                }
            }
        }
        out
    }

    fn assign(
        &self,
        nb: &[u8],
        bare: &str,
        lifted: &[usize],
        empties: &[usize],
        chosen: &mut Vec<usize>,
        out: &mut Vec<(String, Naive)>,
    ) {
        if chosen.len() == lifted.len() {
            let mut b2 = nb.to_vec();
            let mut text = bare.to_string();
            for (k, &s) in lifted.iter().enumerate() {
                b2[chosen[k]] = nb[s];
                b2[s] = 0;
                text.push_str(&format!(" {}>{}", name(self.n, s), name(self.n, chosen[k])));
            }
            // The sources were emptied above; sources are never destinations.
            let over = self.chain(&b2, 3 - self.to_move);
            out.push((text, self.next(b2, over)));
            return;
        }
        for &e in empties {
            if !chosen.contains(&e) {
                chosen.push(e);
                self.assign(nb, bare, lifted, empties, chosen, out);
                chosen.pop();
            }
        }
    }

    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 || self.over {
            return 1;
        }
        let ms = self.moves();
        if ms.is_empty() {
            return 1;
        }
        if depth == 1 {
            return ms.len() as u64;
        }
        ms.iter().map(|(_, s)| s.perft(depth - 1)).sum()
    }
}
