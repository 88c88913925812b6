//! The development corpus of real games, each converted in three forms — its own
//! PGN, re-typed as a Spanish sheet and as a German sheet — must come back move
//! for move, validated, with a PGN that pgn-reader and shakmaty read back.
//!
//! The full corpus runs in CI with `cargo test --release -- --ignored`.

mod common;

#[test]
#[ignore = "20,000 games: run with `cargo test --release -- --ignored`"]
fn every_corpus_game_comes_back_move_for_move() {
    common::run_corpus_check(None);
}

#[test]
fn first_200_corpus_games_come_back_move_for_move() {
    common::run_corpus_check(Some(200));
}

#[test]
fn retyping_uses_the_languages_letters() {
    use common::{GERMAN, SPANISH, retype};
    assert_eq!(retype("Nxf3+", SPANISH), "Cxf3+");
    assert_eq!(retype("Kxe2", SPANISH), "Rxe2");
    assert_eq!(retype("Rad1", SPANISH), "Tad1");
    assert_eq!(retype("exd8=Q#", SPANISH), "exd8=D#");
    assert_eq!(retype("O-O-O+", SPANISH), "0-0-0+");
    assert_eq!(retype("Bb5", GERMAN), "Lb5");
    assert_eq!(retype("Ng1", GERMAN), "Sg1");
    assert_eq!(retype("O-O", GERMAN), "0-0");
}
