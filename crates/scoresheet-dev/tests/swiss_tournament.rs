//! A whole Swiss against the FIDE Dutch engine of caissify-pairings
//! (`scoresheet_dev::swiss`): paired round by round from the TRF the daemon
//! writes, every game through a running `scoresheet watch`, the games in
//! review decided on the desk, then the engine's checker, the points, the
//! round files and the broadcast feed held against the true tournament.
//!
//! The small Swiss reads the corpus games committed with the repository;
//! the large one needs `SCORESHEET_CORPUS` (ignored by default). Both need
//! Python with caissify-pairings and python-chess ([`swiss::INSTALL`]) and
//! the daemon's binary, which `cargo test --release --workspace` builds.

use scoresheet_dev::swiss::{self, Spec};

/// Runs `spec`, printing its figures, and fails on any check that failed.
fn swiss_run(spec: &Spec) {
    let figures = swiss::run(spec).unwrap_or_else(|e| panic!("{e:#}"));
    println!("{figures}");
    assert!(figures.ok(), "a check of the Swiss failed (the lines above and stderr say which):\n{figures}");
}

#[test]
fn a_small_swiss_through_the_daemon_matches_the_engine_and_the_true_games() {
    swiss_run(&Spec::small(7));
}

/// Larger than the small one, and kept to about a minute and a half in CI;
/// the 51 players and 9 rounds of [`Spec::large`] are the `tournament`
/// tool's default (docs/measuring.md).
#[test]
#[ignore = "needs SCORESHEET_CORPUS: 31 players, 7 rounds of corpus games"]
fn a_larger_swiss_of_corpus_games_matches_the_engine_and_the_true_games() {
    scoresheet_dev::corpus::require_corpus();
    swiss_run(&Spec { players: 31, rounds: 7, ..Spec::large(7) });
}
