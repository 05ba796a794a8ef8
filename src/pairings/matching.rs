//! Sets of players as bit sets, and maximum matchings in general graphs (Edmonds' blossom
//! algorithm): the tests of whether a set of players can still be paired.

/// A set of small indices.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub(crate) struct Bits(Vec<u64>);

impl Bits {
    pub(crate) fn new(len: usize) -> Bits {
        Bits(vec![0; len.div_ceil(64).max(1)])
    }

    pub(crate) fn from_iter(len: usize, items: impl IntoIterator<Item = usize>) -> Bits {
        let mut b = Bits::new(len);
        for i in items {
            b.insert(i);
        }
        b
    }

    pub(crate) fn insert(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }

    pub(crate) fn remove(&mut self, i: usize) {
        self.0[i / 64] &= !(1 << (i % 64));
    }

    pub(crate) fn contains(&self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 == 1
    }

    pub(crate) fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The number of elements in both sets.
    pub(crate) fn common(&self, other: &Bits) -> usize {
        self.0
            .iter()
            .zip(&other.0)
            .map(|(a, b)| (a & b).count_ones() as usize)
            .sum()
    }

    pub(crate) fn union(&self, other: &Bits) -> Bits {
        Bits(self.0.iter().zip(&other.0).map(|(a, b)| a | b).collect())
    }

    pub(crate) fn is_subset(&self, other: &Bits) -> bool {
        self.0.iter().zip(&other.0).all(|(a, b)| a & !b == 0)
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(w, &word)| {
            let mut rest = word;
            std::iter::from_fn(move || {
                if rest == 0 {
                    return None;
                }
                let bit = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                Some(w * 64 + bit)
            })
        })
    }
}

const NONE: usize = usize::MAX;

/// A maximum matching of the graph with vertices `0..adj.len()` and adjacency lists `adj`
/// (symmetric): `mate[v]` is v's partner or `None`.
pub(crate) fn max_matching(adj: &[Vec<usize>]) -> Vec<Option<usize>> {
    let n = adj.len();
    let mut mate = vec![NONE; n];
    for v in 0..n {
        if mate[v] == NONE {
            if let Some(&u) = adj[v].iter().find(|&&u| mate[u] == NONE) {
                mate[v] = u;
                mate[u] = v;
            }
        }
    }
    let mut blossom = Blossom {
        adj,
        mate,
        parent: vec![NONE; n],
        base: (0..n).collect(),
        used: vec![false; n],
        in_blossom: vec![false; n],
        seen: vec![false; n],
        queue: Vec::with_capacity(n),
    };
    for root in 0..n {
        if blossom.mate[root] == NONE {
            if let Some(end) = blossom.augmenting_path(root) {
                blossom.augment(end);
            }
        }
    }
    blossom
        .mate
        .into_iter()
        .map(|m| (m != NONE).then_some(m))
        .collect()
}

/// The number of pairs of a maximum matching.
pub(crate) fn matching_size(adj: &[Vec<usize>]) -> usize {
    max_matching(adj).iter().filter(|m| m.is_some()).count() / 2
}

struct Blossom<'a> {
    adj: &'a [Vec<usize>],
    mate: Vec<usize>,
    parent: Vec<usize>,
    base: Vec<usize>,
    used: Vec<bool>,
    in_blossom: Vec<bool>,
    seen: Vec<bool>,
    queue: Vec<usize>,
}

impl Blossom<'_> {
    /// The lowest common ancestor of two outer vertices in the alternating tree.
    fn common_base(&mut self, mut a: usize, mut b: usize) -> usize {
        self.seen.iter_mut().for_each(|s| *s = false);
        loop {
            a = self.base[a];
            self.seen[a] = true;
            if self.mate[a] == NONE {
                break;
            }
            a = self.parent[self.mate[a]];
        }
        loop {
            b = self.base[b];
            if self.seen[b] {
                return b;
            }
            b = self.parent[self.mate[b]];
        }
    }

    fn mark_path(&mut self, mut v: usize, b: usize, mut child: usize) {
        while self.base[v] != b {
            self.in_blossom[self.base[v]] = true;
            self.in_blossom[self.base[self.mate[v]]] = true;
            self.parent[v] = child;
            child = self.mate[v];
            v = self.parent[self.mate[v]];
        }
    }

    /// Searches an augmenting path from the free vertex `root`; returns its other end.
    fn augmenting_path(&mut self, root: usize) -> Option<usize> {
        let n = self.adj.len();
        self.used.iter_mut().for_each(|u| *u = false);
        self.parent.iter_mut().for_each(|p| *p = NONE);
        for (i, b) in self.base.iter_mut().enumerate() {
            *b = i;
        }
        self.used[root] = true;
        self.queue.clear();
        self.queue.push(root);
        let mut head = 0;
        while head < self.queue.len() {
            let v = self.queue[head];
            head += 1;
            for k in 0..self.adj[v].len() {
                let to = self.adj[v][k];
                if self.base[v] == self.base[to] || self.mate[v] == to {
                    continue;
                }
                if to == root || (self.mate[to] != NONE && self.parent[self.mate[to]] != NONE) {
                    let b = self.common_base(v, to);
                    self.in_blossom.iter_mut().for_each(|x| *x = false);
                    self.mark_path(v, b, to);
                    self.mark_path(to, b, v);
                    for i in 0..n {
                        if self.in_blossom[self.base[i]] {
                            self.base[i] = b;
                            if !self.used[i] {
                                self.used[i] = true;
                                self.queue.push(i);
                            }
                        }
                    }
                } else if self.parent[to] == NONE {
                    self.parent[to] = v;
                    if self.mate[to] == NONE {
                        return Some(to);
                    }
                    let next = self.mate[to];
                    self.used[next] = true;
                    self.queue.push(next);
                }
            }
        }
        None
    }

    fn augment(&mut self, mut v: usize) {
        while v != NONE {
            let pv = self.parent[v];
            let next = self.mate[pv];
            self.mate[v] = pv;
            self.mate[pv] = v;
            v = next;
        }
    }
}

/// An edge weight for [`max_weight_matching`]: an ordered group (the weights are only added,
/// subtracted, compared and halved, and an even value halves exactly).
pub(crate) trait Weight:
    Copy + Ord + std::ops::Add<Output = Self> + std::ops::Sub<Output = Self>
{
    const ZERO: Self;
    /// Half of an even value.
    fn half(self) -> Self;
}

impl Weight for i64 {
    const ZERO: i64 = 0;
    fn half(self) -> i64 {
        self / 2
    }
}

/// A weight of several criteria compared in order (lexicographically): the first decides, the
/// next only between equals. Added and subtracted criterion by criterion, so the order is kept
/// by sums: a matching's weight is the list of its criteria's totals.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Lex<const N: usize>(pub(crate) [i128; N]);

impl<const N: usize> std::ops::Add for Lex<N> {
    type Output = Self;
    fn add(mut self, other: Self) -> Self {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a += b;
        }
        self
    }
}

impl<const N: usize> std::ops::Sub for Lex<N> {
    type Output = Self;
    fn sub(mut self, other: Self) -> Self {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a -= b;
        }
        self
    }
}

impl<const N: usize> Weight for Lex<N> {
    const ZERO: Self = Lex([0; N]);
    fn half(mut self) -> Self {
        for a in &mut self.0 {
            *a /= 2;
        }
        self
    }
}

/// A matching of maximum total weight in the graph with vertices `0..n` and the weighted edges
/// `edges` (no vertex twice in one edge): `mate[v]` is v's partner or `None`. Edges of negative
/// weight are never taken; to prefer the most pairs, put their number first in a [`Lex`] weight.
///
/// Edmonds' primal-dual blossom algorithm in O(n³) (after Galil, "Efficient algorithms for
/// finding maximum matching in graphs", 1986), with the dual variables kept doubled so integer
/// weights stay integer.
pub(crate) fn max_weight_matching<W: Weight>(
    n: usize,
    edges: &[(usize, usize, W)],
) -> Vec<Option<usize>> {
    if edges.is_empty() {
        return vec![None; n];
    }
    let mut neighbend = vec![Vec::new(); n];
    let mut endpoint = Vec::with_capacity(2 * edges.len());
    for (k, &(i, j, _)) in edges.iter().enumerate() {
        endpoint.push(i);
        endpoint.push(j);
        neighbend[i].push(2 * k + 1);
        neighbend[j].push(2 * k);
    }
    let top = edges.iter().map(|e| e.2).fold(W::ZERO, std::cmp::max);
    let mut m = Weighted {
        n,
        edges,
        endpoint,
        neighbend,
        mate: vec![NONE; n],
        label: vec![0; 2 * n],
        labelend: vec![NONE; 2 * n],
        inblossom: (0..n).collect(),
        blossomparent: vec![NONE; 2 * n],
        blossomchilds: vec![Vec::new(); 2 * n],
        blossombase: (0..n).chain(std::iter::repeat_n(NONE, n)).collect(),
        blossomendps: vec![Vec::new(); 2 * n],
        bestedge: vec![NONE; 2 * n],
        blossombestedges: vec![None; 2 * n],
        unused: (n..2 * n).collect(),
        dual: std::iter::repeat_n(top, n)
            .chain(std::iter::repeat_n(W::ZERO, n))
            .collect(),
        allowedge: vec![false; edges.len()],
        queue: Vec::new(),
    };
    m.solve();
    m.mate
        .iter()
        .map(|&p| (p != NONE).then(|| m.endpoint[p]))
        .collect()
}

/// The state of [`max_weight_matching`]. Vertices are `0..n`, blossoms `n..2n`; an edge `k`
/// has the endpoints `2k` and `2k + 1`, and `mate[v]` is the endpoint of v's partner.
struct Weighted<'a, W> {
    n: usize,
    edges: &'a [(usize, usize, W)],
    endpoint: Vec<usize>,
    neighbend: Vec<Vec<usize>>,
    mate: Vec<usize>,
    /// 0 unlabelled, 1 outer (S), 2 inner (T); 5 marks a blossom while a path is scanned.
    label: Vec<u8>,
    labelend: Vec<usize>,
    inblossom: Vec<usize>,
    blossomparent: Vec<usize>,
    blossomchilds: Vec<Vec<usize>>,
    blossombase: Vec<usize>,
    blossomendps: Vec<Vec<usize>>,
    bestedge: Vec<usize>,
    blossombestedges: Vec<Option<Vec<usize>>>,
    unused: Vec<usize>,
    dual: Vec<W>,
    allowedge: Vec<bool>,
    queue: Vec<usize>,
}

impl<W: Weight> Weighted<'_, W> {
    fn slack(&self, k: usize) -> W {
        let (i, j, w) = self.edges[k];
        self.dual[i] + self.dual[j] - w - w
    }

    fn leaves(&self, b: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut stack = vec![b];
        while let Some(t) = stack.pop() {
            if t < self.n {
                out.push(t);
            } else {
                stack.extend(self.blossomchilds[t].iter().rev());
            }
        }
        out
    }

    fn assign_label(&mut self, w: usize, t: u8, p: usize) {
        let b = self.inblossom[w];
        self.label[w] = t;
        self.label[b] = t;
        self.labelend[w] = p;
        self.labelend[b] = p;
        self.bestedge[w] = NONE;
        self.bestedge[b] = NONE;
        if t == 1 {
            let leaves = self.leaves(b);
            self.queue.extend(leaves);
        } else {
            let base = self.blossombase[b];
            let mb = self.mate[base];
            self.assign_label(self.endpoint[mb], 1, mb ^ 1);
        }
    }

    /// The base of the blossom closed by an edge between outer vertices `v` and `w`, or
    /// `NONE` when the edge joins two trees (an augmenting path).
    fn scan_blossom(&mut self, mut v: usize, mut w: usize) -> usize {
        let mut path = Vec::new();
        let mut base = NONE;
        while v != NONE || w != NONE {
            let mut b = self.inblossom[v];
            if self.label[b] & 4 != 0 {
                base = self.blossombase[b];
                break;
            }
            path.push(b);
            self.label[b] = 5;
            if self.labelend[b] == NONE {
                v = NONE;
            } else {
                v = self.endpoint[self.labelend[b]];
                b = self.inblossom[v];
                v = self.endpoint[self.labelend[b]];
            }
            if w != NONE {
                std::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.label[b] = 1;
        }
        base
    }

    fn add_blossom(&mut self, base: usize, k: usize) {
        let (mut v, mut w, _) = self.edges[k];
        let bb = self.inblossom[base];
        let mut bv = self.inblossom[v];
        let mut bw = self.inblossom[w];
        let b = self.unused.pop().expect("a free blossom slot");
        self.blossombase[b] = base;
        self.blossomparent[b] = NONE;
        self.blossomparent[bb] = b;
        let mut path = Vec::new();
        let mut endps = Vec::new();
        while bv != bb {
            self.blossomparent[bv] = b;
            path.push(bv);
            endps.push(self.labelend[bv]);
            v = self.endpoint[self.labelend[bv]];
            bv = self.inblossom[v];
        }
        path.push(bb);
        path.reverse();
        endps.reverse();
        endps.push(2 * k);
        while bw != bb {
            self.blossomparent[bw] = b;
            path.push(bw);
            endps.push(self.labelend[bw] ^ 1);
            w = self.endpoint[self.labelend[bw]];
            bw = self.inblossom[w];
        }
        self.label[b] = 1;
        self.labelend[b] = self.labelend[bb];
        self.dual[b] = W::ZERO;
        for v in self.leaves_of(&path) {
            if self.label[self.inblossom[v]] == 2 {
                self.queue.push(v);
            }
            self.inblossom[v] = b;
        }
        let mut bestedgeto = vec![NONE; 2 * self.n];
        for &bv in &path {
            let lists: Vec<Vec<usize>> = match self.blossombestedges[bv].take() {
                Some(list) => vec![list],
                None => self
                    .leaves(bv)
                    .into_iter()
                    .map(|v| self.neighbend[v].iter().map(|p| p / 2).collect())
                    .collect(),
            };
            for list in lists {
                for k in list {
                    let (mut i, mut j, _) = self.edges[k];
                    if self.inblossom[j] == b {
                        std::mem::swap(&mut i, &mut j);
                    }
                    let _ = i;
                    let bj = self.inblossom[j];
                    if bj != b
                        && self.label[bj] == 1
                        && (bestedgeto[bj] == NONE || self.slack(k) < self.slack(bestedgeto[bj]))
                    {
                        bestedgeto[bj] = k;
                    }
                }
            }
            self.bestedge[bv] = NONE;
        }
        let best: Vec<usize> = bestedgeto.into_iter().filter(|&k| k != NONE).collect();
        self.bestedge[b] = NONE;
        for &k in &best {
            if self.bestedge[b] == NONE || self.slack(k) < self.slack(self.bestedge[b]) {
                self.bestedge[b] = k;
            }
        }
        self.blossombestedges[b] = Some(best);
        self.blossomchilds[b] = path;
        self.blossomendps[b] = endps;
    }

    fn leaves_of(&self, blossoms: &[usize]) -> Vec<usize> {
        blossoms.iter().flat_map(|&t| self.leaves(t)).collect()
    }

    fn expand_blossom(&mut self, b: usize, endstage: bool) {
        let childs = self.blossomchilds[b].clone();
        for &s in &childs {
            self.blossomparent[s] = NONE;
            if s < self.n {
                self.inblossom[s] = s;
            } else if endstage && self.dual[s] == W::ZERO {
                self.expand_blossom(s, endstage);
            } else {
                for v in self.leaves(s) {
                    self.inblossom[v] = s;
                }
            }
        }
        if !endstage && self.label[b] == 2 {
            let len = childs.len() as isize;
            let at = |j: isize| j.rem_euclid(len) as usize;
            let entrychild = self.inblossom[self.endpoint[self.labelend[b] ^ 1]];
            let mut j = childs
                .iter()
                .position(|&c| c == entrychild)
                .expect("the entry child") as isize;
            let (jstep, endptrick) = if j & 1 == 1 {
                j -= len;
                (1, 0)
            } else {
                (-1, 1)
            };
            let endps = self.blossomendps[b].clone();
            let mut p = self.labelend[b];
            while j != 0 {
                self.label[self.endpoint[p ^ 1]] = 0;
                let q = endps[at(j - endptrick as isize)] ^ endptrick ^ 1;
                self.label[self.endpoint[q]] = 0;
                self.assign_label(self.endpoint[p ^ 1], 2, p);
                self.allowedge[endps[at(j - endptrick as isize)] / 2] = true;
                j += jstep;
                p = endps[at(j - endptrick as isize)] ^ endptrick;
                self.allowedge[p / 2] = true;
                j += jstep;
            }
            let bv = childs[at(j)];
            self.label[self.endpoint[p ^ 1]] = 2;
            self.label[bv] = 2;
            self.labelend[self.endpoint[p ^ 1]] = p;
            self.labelend[bv] = p;
            self.bestedge[bv] = NONE;
            j += jstep;
            while childs[at(j)] != entrychild {
                let bv = childs[at(j)];
                if self.label[bv] == 1 {
                    j += jstep;
                    continue;
                }
                if let Some(v) = self.leaves(bv).into_iter().find(|&v| self.label[v] != 0) {
                    self.label[v] = 0;
                    let mb = self.mate[self.blossombase[bv]];
                    self.label[self.endpoint[mb]] = 0;
                    self.assign_label(v, 2, self.labelend[v]);
                }
                j += jstep;
            }
        }
        self.label[b] = 0;
        self.labelend[b] = NONE;
        self.blossomchilds[b] = Vec::new();
        self.blossomendps[b] = Vec::new();
        self.blossombase[b] = NONE;
        self.blossombestedges[b] = None;
        self.bestedge[b] = NONE;
        self.unused.push(b);
    }

    /// Swaps matched and unmatched edges on the path through blossom `b` from vertex `v` to
    /// its base, making `v` the base.
    fn augment_blossom(&mut self, b: usize, v: usize) {
        let mut t = v;
        while self.blossomparent[t] != b {
            t = self.blossomparent[t];
        }
        if t >= self.n {
            self.augment_blossom(t, v);
        }
        let childs = self.blossomchilds[b].clone();
        let endps = self.blossomendps[b].clone();
        let len = childs.len() as isize;
        let at = |j: isize| j.rem_euclid(len) as usize;
        let i = childs.iter().position(|&c| c == t).expect("a child");
        let mut j = i as isize;
        let (jstep, endptrick) = if i & 1 == 1 {
            j -= len;
            (1, 0)
        } else {
            (-1, 1)
        };
        while j != 0 {
            j += jstep;
            let t = childs[at(j)];
            let p = endps[at(j - endptrick as isize)] ^ endptrick;
            if t >= self.n {
                self.augment_blossom(t, self.endpoint[p]);
            }
            j += jstep;
            let t = childs[at(j)];
            if t >= self.n {
                self.augment_blossom(t, self.endpoint[p ^ 1]);
            }
            self.mate[self.endpoint[p]] = p ^ 1;
            self.mate[self.endpoint[p ^ 1]] = p;
        }
        self.blossomchilds[b].rotate_left(i);
        self.blossomendps[b].rotate_left(i);
        self.blossombase[b] = self.blossombase[self.blossomchilds[b][0]];
    }

    fn augment_matching(&mut self, k: usize) {
        let (v, w, _) = self.edges[k];
        for (mut s, mut p) in [(v, 2 * k + 1), (w, 2 * k)] {
            loop {
                let bs = self.inblossom[s];
                if bs >= self.n {
                    self.augment_blossom(bs, s);
                }
                self.mate[s] = p;
                if self.labelend[bs] == NONE {
                    break;
                }
                let t = self.endpoint[self.labelend[bs]];
                let bt = self.inblossom[t];
                s = self.endpoint[self.labelend[bt]];
                let j = self.endpoint[self.labelend[bt] ^ 1];
                if bt >= self.n {
                    self.augment_blossom(bt, j);
                }
                self.mate[j] = self.labelend[bt];
                p = self.labelend[bt] ^ 1;
            }
        }
    }

    fn solve(&mut self) {
        let n = self.n;
        for _ in 0..n {
            self.label.iter_mut().for_each(|l| *l = 0);
            self.bestedge.iter_mut().for_each(|e| *e = NONE);
            for b in n..2 * n {
                self.blossombestedges[b] = None;
            }
            self.allowedge.iter_mut().for_each(|a| *a = false);
            self.queue.clear();
            for v in 0..n {
                if self.mate[v] == NONE && self.label[self.inblossom[v]] == 0 {
                    self.assign_label(v, 1, NONE);
                }
            }
            let mut augmented = false;
            loop {
                while let Some(v) = (!augmented).then(|| self.queue.pop()).flatten() {
                    for idx in 0..self.neighbend[v].len() {
                        let p = self.neighbend[v][idx];
                        let k = p / 2;
                        let w = self.endpoint[p];
                        if self.inblossom[v] == self.inblossom[w] {
                            continue;
                        }
                        let mut kslack = W::ZERO;
                        if !self.allowedge[k] {
                            kslack = self.slack(k);
                            if kslack <= W::ZERO {
                                self.allowedge[k] = true;
                            }
                        }
                        if self.allowedge[k] {
                            if self.label[self.inblossom[w]] == 0 {
                                self.assign_label(w, 2, p ^ 1);
                            } else if self.label[self.inblossom[w]] == 1 {
                                let base = self.scan_blossom(v, w);
                                if base != NONE {
                                    self.add_blossom(base, k);
                                } else {
                                    self.augment_matching(k);
                                    augmented = true;
                                    break;
                                }
                            } else if self.label[w] == 0 {
                                self.label[w] = 2;
                                self.labelend[w] = p ^ 1;
                            }
                        } else if self.label[self.inblossom[w]] == 1 {
                            let b = self.inblossom[v];
                            if self.bestedge[b] == NONE || kslack < self.slack(self.bestedge[b]) {
                                self.bestedge[b] = k;
                            }
                        } else if self.label[w] == 0
                            && (self.bestedge[w] == NONE || kslack < self.slack(self.bestedge[w]))
                        {
                            self.bestedge[w] = k;
                        }
                    }
                }
                if augmented {
                    break;
                }
                // The dual change: the smallest that makes an edge tight, a vertex dual zero
                // (the end) or an inner blossom's dual zero.
                let mut deltatype = 1;
                let mut delta = *self.dual[..n].iter().min().expect("vertices");
                let mut deltaedge = NONE;
                let mut deltablossom = NONE;
                for v in 0..n {
                    if self.label[self.inblossom[v]] == 0 && self.bestedge[v] != NONE {
                        let d = self.slack(self.bestedge[v]);
                        if d < delta {
                            delta = d;
                            deltatype = 2;
                            deltaedge = self.bestedge[v];
                        }
                    }
                }
                for b in 0..2 * n {
                    if self.blossomparent[b] == NONE
                        && self.label[b] == 1
                        && self.bestedge[b] != NONE
                    {
                        let d = self.slack(self.bestedge[b]).half();
                        if d < delta {
                            delta = d;
                            deltatype = 3;
                            deltaedge = self.bestedge[b];
                        }
                    }
                }
                for b in n..2 * n {
                    if self.blossombase[b] != NONE
                        && self.blossomparent[b] == NONE
                        && self.label[b] == 2
                        && self.dual[b] < delta
                    {
                        delta = self.dual[b];
                        deltatype = 4;
                        deltablossom = b;
                    }
                }
                for v in 0..n {
                    match self.label[self.inblossom[v]] {
                        1 => self.dual[v] = self.dual[v] - delta,
                        2 => self.dual[v] = self.dual[v] + delta,
                        _ => {}
                    }
                }
                for b in n..2 * n {
                    if self.blossombase[b] != NONE && self.blossomparent[b] == NONE {
                        match self.label[b] {
                            1 => self.dual[b] = self.dual[b] + delta,
                            2 => self.dual[b] = self.dual[b] - delta,
                            _ => {}
                        }
                    }
                }
                match deltatype {
                    2 => {
                        self.allowedge[deltaedge] = true;
                        let (mut i, j, _) = self.edges[deltaedge];
                        if self.label[self.inblossom[i]] == 0 {
                            i = j;
                        }
                        self.queue.push(i);
                    }
                    3 => {
                        self.allowedge[deltaedge] = true;
                        let (i, _, _) = self.edges[deltaedge];
                        self.queue.push(i);
                    }
                    4 => self.expand_blossom(deltablossom, false),
                    _ => break,
                }
            }
            if !augmented {
                break;
            }
            for b in n..2 * n {
                if self.blossomparent[b] == NONE
                    && self.blossombase[b] != NONE
                    && self.label[b] == 1
                    && self.dual[b] == W::ZERO
                {
                    self.expand_blossom(b, true);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(n: usize, edges: &[(usize, usize)]) -> Vec<Vec<usize>> {
        let mut adj = vec![Vec::new(); n];
        for &(a, b) in edges {
            adj[a].push(b);
            adj[b].push(a);
        }
        adj
    }

    #[test]
    fn blossom_finds_the_odd_cycle_augmentation() {
        // A triangle 0-1-2 with tails 2-3 and 0-4... the greedy start 0-1 must be undone.
        let adj = graph(6, &[(0, 1), (1, 2), (2, 0), (2, 3), (0, 4), (1, 5)]);
        assert_eq!(matching_size(&adj), 3);
        let adj = graph(5, &[(0, 1), (1, 2), (2, 3), (3, 4), (4, 0)]);
        assert_eq!(matching_size(&adj), 2);
    }

    #[test]
    fn matching_agrees_with_brute_force_on_small_graphs() {
        fn brute(n: usize, adj: &[Vec<usize>], free: u32) -> usize {
            let Some(v) = (0..n).find(|&v| free >> v & 1 == 1) else {
                return 0;
            };
            let rest = free & !(1 << v);
            let mut best = brute(n, adj, rest);
            for &u in &adj[v] {
                if rest >> u & 1 == 1 {
                    best = best.max(1 + brute(n, adj, rest & !(1 << u)));
                }
            }
            best
        }
        let mut seed = 7u64;
        for _ in 0..300 {
            let n = 2 + (seed % 9) as usize;
            let mut edges = Vec::new();
            for a in 0..n {
                for b in a + 1..n {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    if seed >> 61 < 3 {
                        edges.push((a, b));
                    }
                }
            }
            let adj = graph(n, &edges);
            assert_eq!(
                matching_size(&adj),
                brute(n, &adj, (1 << n) - 1),
                "{edges:?}"
            );
            seed = seed.wrapping_add(3);
        }
    }

    /// The heaviest matching's weight by trying every matching.
    fn brute_weight<W: Weight>(n: usize, edges: &[(usize, usize, W)], free: u32) -> W {
        let Some(v) = (0..n).find(|&v| free >> v & 1 == 1) else {
            return W::ZERO;
        };
        let rest = free & !(1 << v);
        let mut best = brute_weight(n, edges, rest);
        for &(a, b, w) in edges {
            let u = if a == v {
                b
            } else if b == v {
                a
            } else {
                continue;
            };
            if rest >> u & 1 == 1 {
                best = best.max(w + brute_weight(n, edges, rest & !(1 << u)));
            }
        }
        best
    }

    fn matching_weight<W: Weight>(edges: &[(usize, usize, W)], mate: &[Option<usize>]) -> W {
        let mut total = W::ZERO;
        for (v, m) in mate.iter().enumerate() {
            if let Some(u) = *m {
                assert_eq!(mate[u], Some(v), "a symmetric matching");
                if v < u {
                    let w = edges
                        .iter()
                        .filter(|e| (e.0, e.1) == (v, u) || (e.0, e.1) == (u, v))
                        .map(|e| e.2)
                        .max()
                        .expect("a matched pair is an edge");
                    total = total + w;
                }
            }
        }
        total
    }

    fn random_edges(seed: &mut u64, n: usize, density: u64) -> Vec<(usize, usize, u64)> {
        let mut edges = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                *seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                if (*seed >> 60) < density {
                    edges.push((a, b, *seed >> 33));
                }
            }
        }
        edges
    }

    #[test]
    fn weighted_matching_agrees_with_brute_force() {
        let mut seed = 11u64;
        for round in 0..600 {
            let n = 1 + round % 11;
            // Few distinct weights make ties and blossoms frequent.
            let spread = [3, 10, 1000][round % 3];
            let edges: Vec<(usize, usize, i64)> =
                random_edges(&mut seed, n, 4 + (round as u64 % 12))
                    .into_iter()
                    .map(|(a, b, r)| (a, b, (r % spread) as i64 - (spread as i64) / 4))
                    .collect();
            let mate = max_weight_matching(n, &edges);
            assert_eq!(
                matching_weight(&edges, &mate),
                brute_weight(n, &edges, (1 << n) - 1),
                "{n} {edges:?}"
            );
        }
    }

    #[test]
    fn lexicographic_weights_put_the_first_criterion_first() {
        // The most pairs first, then the least cost of the first criterion, then the second.
        let mut seed = 5u64;
        for round in 0..400 {
            let n = 2 + round % 10;
            let edges: Vec<(usize, usize, Lex<3>)> =
                random_edges(&mut seed, n, 6 + (round as u64 % 10))
                    .into_iter()
                    .map(|(a, b, r)| (a, b, Lex([1, -((r % 3) as i128), -((r / 3 % 4) as i128)])))
                    .collect();
            let mate = max_weight_matching(n, &edges);
            let got = matching_weight(&edges, &mate);
            assert_eq!(got, brute_weight(n, &edges, (1 << n) - 1), "{n} {edges:?}");
            let pairs = mate.iter().filter(|m| m.is_some()).count() / 2;
            let adj = {
                let mut adj = vec![Vec::new(); n];
                for &(a, b, _) in &edges {
                    adj[a].push(b);
                    adj[b].push(a);
                }
                adj
            };
            assert_eq!(pairs, matching_size(&adj));
        }
    }

    #[test]
    fn weighted_matching_of_a_large_complete_graph_is_perfect() {
        let n = 120;
        let mut edges = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                edges.push((a, b, Lex([1, -(((a * 7 + b * 13) % 5) as i128)])));
            }
        }
        let mate = max_weight_matching(n, &edges);
        assert!(mate.iter().all(|m| m.is_some()));
        // Every vertex can meet a partner of cost 0, (a*7+b*13) % 5 == 0, so the best has none.
        assert_eq!(matching_weight(&edges, &mate), Lex([60, 0]));
    }

    #[test]
    fn bits_iterate_in_order() {
        let b = Bits::from_iter(200, [3, 64, 199, 0]);
        assert_eq!(b.iter().collect::<Vec<_>>(), vec![0, 3, 64, 199]);
        assert_eq!(b.len(), 4);
        assert!(Bits::from_iter(200, [3]).is_subset(&b));
    }
}
