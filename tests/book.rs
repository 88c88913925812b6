//! The shipped opening book is the one `examples/book.rs` counts from the
//! corpus, without the games the figures are measured on (the dev sheets', the
//! tests', the benchmarks' and the generated evaluation sets'): a book that
//! had seen those games would flatter every figure it touches.
//!
//! Reads the whole corpus: run with `cargo test --release -- --ignored`, as CI does.

mod common;

use scoresheet::reconstruct::book::{BUILTIN_RECIPE, Book, tally, write};

#[test]
#[ignore = "20,000 games: run with `cargo test --release -- --ignored`"]
fn the_builtin_book_is_the_corpus_without_the_games_measured() {
    let games = common::book_games(std::path::Path::new(common::DEV_TRUTH));
    assert!(games.len() > 14_000 && games.len() < 20_000 - 5000, "{} games", games.len());
    let built = write(tally(&games, BUILTIN_RECIPE));
    let shipped = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/data/book.bin")).unwrap();
    assert_eq!(Book::from_bytes(&built).unwrap().len(), Book::from_bytes(&shipped).unwrap().len());
    assert!(built == shipped, "data/book.bin differs from the book the corpus makes: rebuild it (examples/book.rs)");
}
