//! Development tools of scoresheet, kept out of the library: the noisy-sheet
//! generator, the development corpus and the forms its games are typed in,
//! the two players' copies of a game ([`pairs`]), the round-trip check, the judgement of wrong readings no reader could
//! avoid, and the opening book's builder.
//!
//! The root package's tests and benchmarks use this crate; its binaries are
//! `evaluate` (measures the reader on typed sheets with a truth.json, and
//! makes generated ones), `book` (builds `data/book.bin`) and `latency`
//! (times the daemon from drop to PGN).

pub mod book;
pub mod check;
pub mod corpus;
pub mod descriptive;
pub mod event;
pub mod generate;
pub mod http;
pub mod layers;
pub mod noisy;
pub mod pairs;
pub mod settled;
pub mod several;
pub mod slips;
pub mod swiss;
pub mod trf;
pub mod typed;
