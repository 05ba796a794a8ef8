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

    #[test]
    fn bits_iterate_in_order() {
        let b = Bits::from_iter(200, [3, 64, 199, 0]);
        assert_eq!(b.iter().collect::<Vec<_>>(), vec![0, 3, 64, 199]);
        assert_eq!(b.len(), 4);
        assert!(Bits::from_iter(200, [3]).is_subset(&b));
    }
}
