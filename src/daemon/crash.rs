//! The named steps of the daemon's changes, where a test build can end the
//! process as a kill would, to prove that every change is done again after
//! a crash without a game lost, published twice or waiting forever.
//!
//! The steps, in the order a change takes them:
//!
//! | step | just after |
//! |---|---|
//! | `claim` | a file is claimed (moved into the daemon's work folder) |
//! | `read` | the claimed file is read into sheets |
//! | `publish.pending` | its games' pending records are written and flushed |
//! | `publish.placed` | each game is put in its folder (and round file) |
//! | `publish.archived` | the original is linked into archive/ |
//! | `publish.record` | each game's final record is written |
//! | `publish.recorded` | the final records are flushed |
//! | `round.saved` | a round's file is written |
//! | `results.written` | `results.trf` is written |
//! | `trf.kept` | a TRF is kept as the pairings in force, its re-reads owed |
//! | `trf.reread` | each game a TRF changes is read again |
//! | `trf.paid` | the re-reads owed are done |
//! | `decision.kept` | an arbiter's decision is kept in decisions/ |
//! | `decision.placed` | the decided game is put where it goes |
//! | `decision.recorded` | the decided game's record is written |
//!
//! Built only with the `crash-points` feature, which the tests turn on (a
//! feature of the development crate) and the release binary never has:
//! `SCORESHEET_CRASH_AT=<step>` (or `<step>#<n>`, the n-th time the step is
//! reached) aborts the process there. Without the feature each step is
//! nothing.

/// Marks the end of step `name` (see the module doc).
#[cfg(feature = "crash-points")]
pub(crate) fn step(name: &str) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static REACHED: AtomicUsize = AtomicUsize::new(0);
    let Ok(wanted) = std::env::var("SCORESHEET_CRASH_AT") else { return };
    let (wanted, nth) = match wanted.split_once('#') {
        Some((w, n)) => (w.to_string(), n.parse().unwrap_or(1)),
        None => (wanted, 1),
    };
    if wanted == name && REACHED.fetch_add(1, Ordering::SeqCst) + 1 == nth {
        eprintln!("crash point {name} reached: the process ends here");
        std::process::abort();
    }
}

/// Marks the end of step `name`: nothing in this build.
#[cfg(not(feature = "crash-points"))]
#[inline(always)]
pub(crate) fn step(_name: &str) {}
