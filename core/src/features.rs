//! The feature graph: every feature of every placed tile is a node; nodes that join
//! across tile edges are merged (union–find), so each root stands for one city, road,
//! field or monastery on the board, with its running totals.

use serde::{Deserialize, Serialize};

use crate::tiles::KindId;

/// A node of the graph: one feature of one placed tile.
pub type NodeId = u32;

/// One node, and (when it is a root) the totals of the feature it stands for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Node {
    parent: NodeId,
    /// Next member of the same feature (a circular list through all members).
    next: NodeId,
    /// Members in this root's feature (valid at roots).
    size: u32,
    /// Index of the placed tile the node belongs to.
    pub tile: u32,
    /// Index of the feature within its tile type.
    pub feature: u8,
    /// The feature's kind.
    pub kind: KindId,
    /// Open edge ends (valid at roots): a road or city is closed when this is 0.
    open: u16,
    /// Pennants (valid at roots).
    pennants: u16,
    /// Figures standing on the feature (valid at roots).
    occupants: u16,
    /// Whether the feature has been scored (valid at roots).
    scored: bool,
}

impl Node {
    /// Open edge ends of the feature (read at its root, see [`FeatureGraph::feature`]).
    #[inline]
    pub fn open_ends(&self) -> u16 {
        self.open
    }

    /// Figures standing on the feature (read at its root).
    #[inline]
    pub fn occupants(&self) -> u16 {
        self.occupants
    }

    /// Whether the feature has been scored (read at its root).
    #[inline]
    pub fn is_scored(&self) -> bool {
        self.scored
    }
}

/// All features on the board.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FeatureGraph {
    nodes: Vec<Node>,
}

impl FeatureGraph {
    /// An empty graph with room for `nodes` nodes.
    pub fn with_capacity(nodes: usize) -> FeatureGraph {
        FeatureGraph {
            nodes: Vec::with_capacity(nodes),
        }
    }

    /// Number of nodes.
    #[inline]
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the graph is empty.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Adds a node for one feature of a newly placed tile.
    pub fn add(
        &mut self,
        tile: u32,
        feature: u8,
        kind: KindId,
        open: u16,
        pennants: u16,
    ) -> NodeId {
        let id = self.nodes.len() as NodeId;
        self.nodes.push(Node {
            parent: id,
            next: id,
            size: 1,
            tile,
            feature,
            kind,
            open,
            pennants,
            occupants: 0,
            scored: false,
        });
        id
    }

    /// The node itself.
    #[inline]
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id as usize]
    }

    /// The root standing for the feature `id` belongs to. Every node points at its root
    /// directly ([`FeatureGraph::union`] keeps it so): one look-up.
    #[inline]
    pub fn root(&self, id: NodeId) -> NodeId {
        let root = self.nodes[id as usize].parent;
        debug_assert_eq!(self.nodes[root as usize].parent, root, "parent is the root");
        root
    }

    /// Whether two nodes belong to the same feature.
    #[inline]
    pub fn same(&self, a: NodeId, b: NodeId) -> bool {
        self.root(a) == self.root(b)
    }

    /// Joins the features of `a` and `b`; returns the new root.
    pub fn union(&mut self, a: NodeId, b: NodeId) -> NodeId {
        let (ra, rb) = (self.root(a), self.root(b));
        if ra == rb {
            return ra;
        }
        let (big, small) = if self.nodes[ra as usize].size >= self.nodes[rb as usize].size {
            (ra, rb)
        } else {
            (rb, ra)
        };
        let s = self.nodes[small as usize].clone();
        let b = &mut self.nodes[big as usize];
        b.size += s.size;
        b.open += s.open;
        b.pennants += s.pennants;
        b.occupants += s.occupants;
        b.scored |= s.scored;
        // Every member of the smaller feature now points at the new root directly, so
        // `root` is a single look-up (each node moves O(log n) times over a game).
        let mut m = small;
        loop {
            self.nodes[m as usize].parent = big;
            m = self.nodes[m as usize].next;
            if m == small {
                break;
            }
        }
        // Splice the two circular member lists.
        let big_next = self.nodes[big as usize].next;
        self.nodes[big as usize].next = s.next;
        self.nodes[small as usize].next = big_next;
        big
    }

    /// Closes `n` open ends of a feature (two per edge joined).
    pub fn close_ends(&mut self, id: NodeId, n: u16) {
        let r = self.root(id) as usize;
        self.nodes[r].open = self.nodes[r].open.saturating_sub(n);
    }

    /// The root node of the feature `id` belongs to, holding the feature's totals.
    #[inline]
    pub fn feature(&self, id: NodeId) -> &Node {
        &self.nodes[self.root(id) as usize]
    }

    /// Open ends of the feature.
    #[inline]
    pub fn open_ends(&self, id: NodeId) -> u16 {
        self.nodes[self.root(id) as usize].open
    }

    /// Pennants in the feature.
    pub fn pennants(&self, id: NodeId) -> u16 {
        self.nodes[self.root(id) as usize].pennants
    }

    /// Figures standing on the feature.
    #[inline]
    pub fn occupants(&self, id: NodeId) -> u16 {
        self.nodes[self.root(id) as usize].occupants
    }

    /// Adjusts the figure count of a feature.
    pub fn add_occupants(&mut self, id: NodeId, delta: i32) {
        let r = self.root(id) as usize;
        self.nodes[r].occupants = (self.nodes[r].occupants as i32 + delta).max(0) as u16;
    }

    /// Whether the feature has been scored.
    #[inline]
    pub fn is_scored(&self, id: NodeId) -> bool {
        self.nodes[self.root(id) as usize].scored
    }

    /// Marks the feature as scored.
    pub fn mark_scored(&mut self, id: NodeId) {
        let r = self.root(id) as usize;
        self.nodes[r].scored = true;
    }

    /// Every node of the feature `id` belongs to (starting at the root).
    pub fn members(&self, id: NodeId) -> Members<'_> {
        let start = self.root(id);
        Members {
            graph: self,
            start,
            next: Some(start),
        }
    }

    /// The distinct placed tiles the feature covers, in ascending order.
    pub fn tiles(&self, id: NodeId) -> Vec<u32> {
        let mut t: Vec<u32> = self
            .members(id)
            .map(|n| self.nodes[n as usize].tile)
            .collect();
        t.sort_unstable();
        t.dedup();
        t
    }
}

/// Iterator over the members of a feature.
pub struct Members<'a> {
    graph: &'a FeatureGraph,
    start: NodeId,
    next: Option<NodeId>,
}

impl Iterator for Members<'_> {
    type Item = NodeId;
    fn next(&mut self) -> Option<NodeId> {
        let cur = self.next?;
        let n = self.graph.nodes[cur as usize].next;
        self.next = (n != self.start).then_some(n);
        Some(cur)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn union_merges_totals_and_members() {
        let mut g = FeatureGraph::default();
        let a = g.add(0, 0, 0, 1, 1);
        let b = g.add(1, 0, 0, 2, 0);
        let c = g.add(2, 0, 0, 1, 0);
        g.union(a, b);
        g.close_ends(a, 2);
        assert_eq!(g.open_ends(b), 1);
        g.union(c, b);
        assert_eq!(g.open_ends(a), 2);
        assert_eq!(g.pennants(c), 1);
        let mut m: Vec<_> = g.members(c).collect();
        m.sort();
        assert_eq!(m, vec![a, b, c]);
        assert_eq!(g.tiles(a), vec![0, 1, 2]);
    }
}
