//! The development corpus of real games, each converted in three forms — its own
//! PGN, re-typed as a Spanish sheet and as a German sheet — must come back move
//! for move, validated, with a PGN that pgn-reader and shakmaty read back.
//!
//! The default tests read the corpus games committed in `tests/data`; the
//! full corpus is read only where SCORESHEET_CORPUS names its folder:
//! `SCORESHEET_CORPUS=DIR cargo test --release --workspace -- --ignored`.

use scoresheet_dev::check::run_corpus_check;
use std::path::Path;

use scoresheet_dev::corpus::{SUBSET, SUBSET_RANGES, corpus_file, load_range, read_games, require_corpus, shown};

#[test]
#[ignore = "needs the development corpus (SCORESHEET_CORPUS)"]
fn every_corpus_game_comes_back_move_for_move() {
    require_corpus();
    run_corpus_check(None);
}

#[test]
fn first_200_corpus_games_come_back_move_for_move() {
    run_corpus_check(Some(200));
}

#[test]
fn the_committed_games_are_the_ranges_the_tests_read() {
    let total: usize = SUBSET_RANGES.iter().map(|r| r.len()).sum();
    let games = read_games(Path::new(SUBSET), 0, 0, usize::MAX).unwrap();
    assert_eq!(games.len(), total, "games in {}", shown(SUBSET));
    for r in &SUBSET_RANGES {
        let games = load_range(r.start, r.len());
        assert_eq!(games.len(), r.len());
        assert!(games.iter().zip(r.clone()).all(|(g, i)| g.index == i));
    }
}

#[test]
#[ignore = "needs the development corpus (SCORESHEET_CORPUS)"]
fn the_committed_games_are_the_corpus_games() {
    require_corpus();
    let mut offset = 0;
    for r in &SUBSET_RANGES {
        let committed = read_games(Path::new(SUBSET), offset, r.start, r.len()).unwrap();
        let corpus = read_games(&corpus_file().unwrap(), r.start, r.start, r.len()).unwrap();
        assert_eq!(committed.len(), r.len());
        assert!(committed == corpus, "{}: games {r:?} differ from the corpus's", shown(SUBSET));
        offset += r.len();
    }
}

#[test]
fn retyping_uses_the_languages_letters() {
    use scoresheet_dev::typed::{GERMAN, SPANISH, retype};
    assert_eq!(retype("Nxf3+", SPANISH), "Cxf3+");
    assert_eq!(retype("Kxe2", SPANISH), "Rxe2");
    assert_eq!(retype("Rad1", SPANISH), "Tad1");
    assert_eq!(retype("exd8=Q#", SPANISH), "exd8=D#");
    assert_eq!(retype("O-O-O+", SPANISH), "0-0-0+");
    assert_eq!(retype("Bb5", GERMAN), "Lb5");
    assert_eq!(retype("Ng1", GERMAN), "Sg1");
    assert_eq!(retype("O-O", GERMAN), "0-0");
}
