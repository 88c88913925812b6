//! The budget of a reading: how much work the search may do on one game and
//! on one file, counted in work units that do not depend on the machine's
//! speed (a node of the search extended, a legal move weighed as the reading
//! of an entry, an entry read), with a wall-clock backstop. Past it the
//! search stops where it is and the game is kept as read up to there, with
//! `search-budget` (see [`Limits::work_per_game`]).

use std::cell::Cell;
use std::time::{Duration, Instant};

use crate::cost::{CLOCK_EVERY, Limits};

/// The work done on one game, and its bound.
#[derive(Debug)]
pub(crate) struct Meter {
    spent: Cell<u64>,
    limit: u64,
    deadline: Option<Instant>,
    /// The work at which the clock is looked at next: reading it at every
    /// unit would cost more than the unit.
    next_clock: Cell<u64>,
    out: Cell<bool>,
}

impl Meter {
    /// A meter that stops the search past `limit` units or `deadline`.
    pub(crate) fn new(limit: u64, deadline: Option<Instant>) -> Meter {
        Meter { spent: Cell::new(0), limit, deadline, next_clock: Cell::new(CLOCK_EVERY), out: Cell::new(false) }
    }

    /// Counts `n` units of work.
    #[inline]
    pub(crate) fn spend(&self, n: usize) {
        let spent = self.spent.get().saturating_add(n as u64);
        self.spent.set(spent);
        if spent > self.limit {
            self.out.set(true);
        } else if spent >= self.next_clock.get() {
            self.next_clock.set(spent.saturating_add(CLOCK_EVERY));
            if self.deadline.is_some_and(|d| Instant::now() >= d) {
                self.out.set(true);
            }
        }
    }

    /// Spends the whole budget at once (a bound other than work reached).
    pub(crate) fn exhaust(&self) {
        self.out.set(true);
    }

    /// Whether the budget is spent: the search stops.
    #[inline]
    pub(crate) fn out(&self) -> bool {
        self.out.get()
    }

    /// The work done so far.
    pub(crate) fn spent(&self) -> u64 {
        self.spent.get()
    }
}

/// What is left of one file's budget, shared by its games in turn: a file of
/// many games, each within its own budget, is bounded too.
///
/// ```
/// use scoresheet::dev::{FileBudget, reconstruct_within};
/// use scoresheet::reconstruct::Settings;
/// use scoresheet::ingest::{read, Format};
/// let sheets = read(b"1.e4 e5 2.Cf3 Cc6", Format::Text, 1 << 20).unwrap();
/// let settings = Settings::default();
/// let mut budget = FileBudget::new(&settings.params.limits);
/// let game = reconstruct_within(&sheets[0], &settings, &mut budget);
/// assert_eq!(game.moves.len(), 4);
/// assert!(budget.spent() > 0 && !budget.exhausted());
/// ```
#[derive(Debug, Clone)]
pub struct FileBudget {
    work_per_game: u64,
    left: u64,
    spent: u64,
    deadline: Option<Instant>,
}

impl FileBudget {
    /// The budget of a file whose reading starts now.
    pub fn new(limits: &Limits) -> FileBudget {
        let deadline = (limits.file_ms > 0).then(|| Instant::now() + Duration::from_millis(limits.file_ms));
        FileBudget { work_per_game: limits.work_per_game, left: limits.work_per_file, spent: 0, deadline }
    }

    /// The meter of the next game: its own budget, or what the file has left.
    pub(crate) fn game(&self) -> Meter {
        Meter::new(self.work_per_game.min(self.left), self.deadline)
    }

    /// Takes the work a game did off the file's budget.
    pub(crate) fn charge(&mut self, meter: &Meter) {
        self.spent = self.spent.saturating_add(meter.spent());
        self.left = self.left.saturating_sub(meter.spent());
    }

    /// The work done on the file so far, in work units.
    pub fn spent(&self) -> u64 {
        self.spent
    }

    /// Whether the file's budget is spent (its next games are read exactly
    /// where they can be, and not searched).
    pub fn exhausted(&self) -> bool {
        self.left == 0 || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// The budgets two copies of one game are read within: one file's, both
/// copies' work taken off it in turn, or each copy's own file's.
#[derive(Debug)]
pub enum PairBudget<'b> {
    /// Both copies are in one file.
    Shared(&'b mut FileBudget),
    /// Each copy's file.
    Apart([&'b mut FileBudget; 2]),
}

impl PairBudget<'_> {
    /// The budget copy `c` (0 or 1) is read within.
    pub(crate) fn of(&mut self, c: usize) -> &mut FileBudget {
        match self {
            PairBudget::Shared(b) => b,
            PairBudget::Apart(bs) => bs[c],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_meter_runs_out_past_its_limit_only() {
        let m = Meter::new(10, None);
        m.spend(10);
        assert!(!m.out());
        m.spend(1);
        assert!(m.out());
        assert_eq!(m.spent(), 11);
    }

    #[test]
    fn a_meter_runs_out_past_its_deadline() {
        let m = Meter::new(u64::MAX, Some(Instant::now()));
        m.spend(CLOCK_EVERY as usize);
        assert!(m.out());
    }

    #[test]
    fn a_file_gives_its_games_what_it_has_left() {
        let limits = Limits { work_per_game: 100, work_per_file: 150, ..Limits::default() };
        let mut file = FileBudget::new(&limits);
        let first = file.game();
        first.spend(100);
        file.charge(&first);
        let second = file.game();
        second.spend(51);
        assert!(second.out(), "50 left in the file");
        file.charge(&second);
        assert!(file.exhausted());
        assert_eq!(file.spent(), 151);
    }

    #[test]
    fn two_copies_in_one_file_share_its_budget() {
        let limits = Limits { work_per_game: 100, work_per_file: 150, ..Limits::default() };
        let mut file = FileBudget::new(&limits);
        let mut pair = PairBudget::Shared(&mut file);
        for c in 0..2 {
            let b = pair.of(c);
            let m = b.game();
            m.spend(100);
            b.charge(&m);
        }
        assert!(file.exhausted());
        assert_eq!(file.spent(), 200, "the second copy's work is the file's too");
    }
}
