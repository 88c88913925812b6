//! One step of a reading: an entry read as a move, skipped, or read after
//! a move that was not written.

use shakmaty::Move;

/// One step of a reconstruction.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Step {
    /// Entry `entry` read as `mv`, at `cost` (0: exactly as written).
    Read { entry: usize, mv: Move, cost: f32 },
    /// Entry `entry` is not a move of the game.
    Skip { entry: usize, cost: f32 },
    /// A move that was not written, then entry `entry` read as `mv`.
    InsertRead { inserted: Move, entry: usize, mv: Move, cost: f32 },
}

impl Step {
    pub(crate) fn cost(&self) -> f32 {
        match self {
            Step::Read { cost, .. } | Step::Skip { cost, .. } | Step::InsertRead { cost, .. } => *cost,
        }
    }

    /// The entry the step reads (or skips).
    pub(crate) fn entry(&self) -> usize {
        match *self {
            Step::Read { entry, .. } | Step::Skip { entry, .. } | Step::InsertRead { entry, .. } => entry,
        }
    }

    /// The moves this step adds to the game.
    pub(crate) fn moves(&self) -> impl Iterator<Item = Move> {
        let (a, b) = match *self {
            Step::Read { mv, .. } => (None, Some(mv)),
            Step::Skip { .. } => (None, None),
            Step::InsertRead { inserted, mv, .. } => (Some(inserted), Some(mv)),
        };
        a.into_iter().chain(b)
    }
}
