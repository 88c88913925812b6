//! The arena of partial games a window's beam grows: each node one step
//! on from its parent, walked back to read a reading's steps or moves.

use shakmaty::Move;

use super::step::Step;

pub(super) struct Node {
    /// Rank in the beam, at the step before, of the node this one extends:
    /// positions are kept for the beam only, and made when a node enters it.
    pub(super) from: usize,
    /// Identifies the moves played since the window started: two readings are
    /// merged only when they play the same moves (they differ in alignment
    /// only); readings that reach one position by different moves are
    /// different games and both are kept, so the runner-up is not lost.
    pub(super) line: u64,
    pub(super) cost: f32,
    pub(super) parent: usize,
    pub(super) step: Option<Step>,
}

pub(super) const ROOT: usize = usize::MAX;

/// Extends the hash of a line of moves by one move.
pub(super) fn extend(h: u64, m: &Move) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = rustc_hash::FxHasher::default();
    h.hash(&mut hasher);
    m.hash(&mut hasher);
    hasher.finish().rotate_left(17) ^ 0x9e37_79b9_7f4a_7c15
}

pub(super) fn path(arena: &[Node], id: usize) -> Vec<Step> {
    let mut steps = Vec::with_capacity(depth(arena, id));
    let mut id = id;
    while id != ROOT {
        if let Some(s) = arena[id].step {
            steps.push(s);
        }
        id = arena[id].parent;
    }
    steps.reverse();
    steps
}

/// The moves played from the window's start to node `id`.
pub(super) fn moves_of(arena: &[Node], mut id: usize) -> Vec<Move> {
    // A step plays two moves at most: one allocation.
    let mut moves = Vec::with_capacity(2 * depth(arena, id));
    while id != ROOT {
        if let Some(s) = arena[id].step {
            // Walked backwards: the moves of a step are pushed in reverse.
            let mut m = s.moves();
            let (a, b) = (m.next(), m.next());
            moves.extend(b.into_iter().chain(a));
        }
        id = arena[id].parent;
    }
    moves.reverse();
    moves
}

/// How many steps lead to node `id`.
pub(super) fn depth(arena: &[Node], mut id: usize) -> usize {
    let mut n = 0;
    while id != ROOT {
        n += 1;
        id = arena[id].parent;
    }
    n
}
