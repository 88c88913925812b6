//! The state of a reading: its steps, each with what the search made of it,
//! before they are built into a game.

use shakmaty::{Chess, Move, Position};

use super::step::Step;

/// A step of a reading whose best reading is not clearly ahead.
#[derive(Debug, Clone)]
pub(crate) struct Doubt {
    /// The moves, in SAN, that the close readings play there.
    pub rivals: Vec<String>,
    /// Left as it is by [`settle`](super::settle): raised by a slip before a
    /// window (see [`reconsider`](super::slips::reconsider)), or where a rival
    /// read the sheet more cheaply than the window's best (the search missed
    /// it there, so its margins are not to be trusted).
    pub kept: bool,
    /// When it was raised in its reading: [`settle`](super::settle) weighs
    /// doubts in the order they were raised (a window's after those before
    /// it), and the first rival that reads the sheet more cheaply wins.
    pub raised: u32,
}

impl Doubt {
    /// A window's doubt, which [`settle`](super::settle) weighs again.
    pub(crate) fn open(rivals: Vec<String>, raised: u32) -> Doubt {
        Doubt { rivals, kept: false, raised }
    }

    /// A doubt [`settle`](super::settle) leaves to the arbiter.
    pub(crate) fn kept(rivals: Vec<String>) -> Doubt {
        Doubt { rivals, kept: true, raised: 0 }
    }
}

/// One step of a reading and how sure the search is of it.
#[derive(Debug, Clone)]
pub(crate) struct Record {
    pub step: Step,
    /// How much costlier the best reading that plays something else here is
    /// (infinite: none came close, or the step was read exactly).
    pub margin: f32,
    /// Set where the best reading is not clearly ahead.
    pub doubt: Option<Doubt>,
    /// A window's close readings part from its best here: a later window
    /// must start no later, to weigh them again (used while reading only).
    pub unsettled: bool,
}

impl Record {
    /// A step nobody doubts (read exactly, or taken as given).
    pub(crate) fn sure(step: Step) -> Record {
        Record { step, margin: f32::INFINITY, doubt: None, unsettled: false }
    }
}

/// A reading of the sheet under one language.
#[derive(Debug, Clone)]
pub(crate) struct Draft {
    pub records: Vec<Record>,
    /// The entry reading stopped at (it names no legal move, or the record
    /// turns descriptive there).
    pub stop: Option<usize>,
    /// The first entry written after the game ended.
    pub after_end: Option<usize>,
    /// Reading stopped at `stop` because the budget of work was spent.
    pub cut: bool,
    /// The next doubt's [`Doubt::raised`].
    raised: u32,
    /// The position the game begins in.
    pub start: Chess,
}

impl Draft {
    /// A reading of a game that begins in `start`, its first steps
    /// `prefix`, taken as given.
    pub(super) fn starting_with(start: &Chess, prefix: &[Step], capacity: usize) -> Draft {
        let mut records = Vec::with_capacity(capacity.max(prefix.len()));
        records.extend(prefix.iter().copied().map(Record::sure));
        Draft { records, stop: None, after_end: None, cut: false, raised: 0, start: start.clone() }
    }

    pub(super) fn len(&self) -> usize {
        self.records.len()
    }

    pub(super) fn steps(&self) -> impl Iterator<Item = Step> + '_ {
        self.records.iter().map(|r| r.step)
    }

    /// The moves of steps `from..to`.
    pub(super) fn moves(&self, from: usize, to: usize) -> Vec<Move> {
        self.records[from..to].iter().flat_map(|r| r.step.moves()).collect()
    }

    /// The cost of steps `from..to`, summed front to back (as every total of a
    /// reading is: the partial sums of costs never negative only grow).
    pub(super) fn cost_of(&self, from: usize, to: usize) -> f32 {
        self.records[from..to].iter().map(|r| r.step.cost()).sum()
    }

    /// The cost of the whole reading.
    pub(super) fn cost(&self) -> f32 {
        self.cost_of(0, self.len())
    }

    /// The position before step `k`: positions are not kept per step, the
    /// steps are replayed from the start.
    pub(super) fn position_at(&self, k: usize) -> Chess {
        let mut pos = self.start.clone();
        for m in self.records[..k].iter().flat_map(|r| r.step.moves()) {
            pos.play_unchecked(m);
        }
        pos
    }

    /// The steps left in doubt, in the order their doubts were raised.
    pub(super) fn doubted(&self) -> Vec<usize> {
        let mut steps: Vec<(u32, usize)> =
            self.records.iter().enumerate().filter_map(|(k, r)| Some((r.doubt.as_ref()?.raised, k))).collect();
        steps.sort_unstable();
        steps.into_iter().map(|(_, k)| k).collect()
    }

    /// Puts step `k` in doubt, raised after every doubt so far.
    pub(super) fn raise(&mut self, k: usize, mut doubt: Doubt) {
        doubt.raised = self.raised;
        self.raised += 1;
        self.records[k].doubt = Some(doubt);
    }

    /// Takes every doubt out, in the order they were raised: the next one
    /// raised is the first.
    pub(super) fn take_doubts(&mut self) -> Vec<(usize, Doubt)> {
        let order = self.doubted();
        self.raised = 0;
        order.into_iter().map(|k| (k, self.records[k].doubt.take().expect("a doubted step"))).collect()
    }

    /// Takes `records` (a window's reading) in after the
    /// steps kept, their doubts raised after every doubt so far, in the
    /// order they were raised there.
    pub(super) fn extend(&mut self, records: Vec<Record>) {
        let first = self.len();
        self.records.extend(records);
        let mut raised: Vec<(u32, usize)> =
            (first..self.len()).filter_map(|k| Some((self.records[k].doubt.as_ref()?.raised, k))).collect();
        raised.sort_unstable();
        for (_, k) in raised {
            let doubt = self.records[k].doubt.take().expect("a doubt");
            self.raise(k, doubt);
        }
    }

    /// Whether any step is in doubt.
    pub(super) fn in_doubt(&self) -> bool {
        self.records.iter().any(|r| r.doubt.is_some())
    }
}
