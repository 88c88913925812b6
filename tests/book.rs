//! The opening book file: what the builder (`scoresheet_dev::book`) writes,
//! the reader (`scoresheet::reconstruct::book`) reads; and the shipped book is
//! the one the `book` tool counts from the corpus, without the games the
//! figures are measured on (the dev sheets', the tests', the benchmarks' and
//! the generated evaluation sets'): a book that had seen those games would
//! flatter every figure it touches.
//!
//! The rebuild reads the whole corpus: run with
//! `SCORESHEET_CORPUS=DIR cargo test --release --workspace -- --ignored`.

use scoresheet::dev::{Book, BookError, MAGIC, RECORD, move_code, position_key};
use scoresheet_dev::book::{BUILTIN_RECIPE, tally, write};
use scoresheet_dev::corpus::dev_truth;
use shakmaty::san::San;
use shakmaty::{Chess, Move, Position};

#[test]
#[ignore = "needs the development corpus (SCORESHEET_CORPUS)"]
fn the_builtin_book_is_the_corpus_without_the_games_measured() {
    let games = scoresheet_dev::book::book_games(&dev_truth());
    assert!(games.len() > 14_000 && games.len() < 20_000 - 5000, "{} games", games.len());
    let built = write(tally(&games, BUILTIN_RECIPE));
    let shipped = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/data/book.bin")).unwrap();
    assert_eq!(Book::from_bytes(&built).unwrap().len(), Book::from_bytes(&shipped).unwrap().len());
    assert!(
        built == shipped,
        "data/book.bin differs from the book the corpus makes: rebuild it (cargo run --release -p scoresheet-dev --bin book)"
    );
}

fn mv(pos: &Chess, san: &str) -> Move {
    san.parse::<San>().unwrap().to_move(pos).unwrap()
}

#[test]
fn counts_come_back_as_shares() {
    let start = Chess::default();
    let mut after = start.clone();
    after.play_unchecked(mv(&start, "e4"));
    let counts = vec![
        (position_key(&start), move_code(&mv(&start, "e4")), 6),
        (position_key(&start), move_code(&mv(&start, "d4")), 2),
        (position_key(&after), move_code(&mv(&after, "c5")), 1),
    ];
    let bytes = write(counts);
    let book = Book::from_bytes(&bytes).unwrap();
    assert_eq!(book.len(), 3);
    let (e4, d4, a3) = (mv(&start, "e4"), mv(&start, "d4"), mv(&start, "a3"));
    let p = |m: &Move| book.log_prior(&start, m).unwrap().exp();
    assert!(p(&e4) > p(&d4) && p(&d4) > p(&a3), "{} {} {}", p(&e4), p(&d4), p(&a3));
    assert!((p(&e4) - (6.0 + 0.1) / 11.0).abs() < 1e-6);
    // A position no game reached is not in the book.
    let mut other = start.clone();
    other.play_unchecked(d4);
    assert_eq!(book.log_prior(&other, &mv(&other, "d5")), None);
    assert!(book.log_prior(&after, &mv(&after, "c5")).is_some());
}

#[test]
fn lines_are_weighed_over_the_same_plies() {
    let start = Chess::default();
    let e4 = mv(&start, "e4");
    let mut after = start.clone();
    after.play_unchecked(e4);
    let c5 = mv(&after, "c5");
    let d4 = mv(&start, "d4");
    let bytes = write(vec![
        (position_key(&start), move_code(&e4), 6),
        (position_key(&start), move_code(&d4), 2),
        (position_key(&after), move_code(&c5), 5),
    ]);
    let book = Book::from_bytes(&bytes).unwrap();
    let mut after_d4 = start.clone();
    after_d4.play_unchecked(d4);
    let d5 = mv(&after_d4, "d5");
    let scores = book.line_scores(&start, &[&[e4, c5], &[d4, d5], &[e4]]).unwrap();
    let (e4c5, d4d5, e4_only) = (scores[0], scores[1], scores[2]);
    // d4 leaves the book after one move: its second counts as one of thirty.
    assert!((d4d5 - (book.log_prior(&start, &d4).unwrap() + (1.0f32 / 30.0).ln())).abs() < 1e-5);
    assert!(e4c5 > d4d5, "{scores:?}");
    assert!((e4_only - d4d5).abs() > 0.1 && e4_only > d4d5);
    assert_eq!(book.line_scores(&after_d4, &[&[d5]]), None);
}

#[test]
fn files_that_are_not_books_are_refused() {
    assert_eq!(Book::from_bytes(b"PGN\n").unwrap_err(), BookError::Magic);
    let mut bytes = write(vec![(1, 2, 3)]);
    bytes.pop();
    assert_eq!(Book::from_bytes(&bytes).unwrap_err(), BookError::Truncated(11));
    let mut unsorted = write(vec![(1, 2, 3), (5, 1, 1)]);
    unsorted[MAGIC.len()..].rotate_left(RECORD);
    assert_eq!(Book::from_bytes(&unsorted).unwrap_err(), BookError::Unsorted(1));
}
