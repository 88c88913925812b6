//! Algebraic notation as written on scoresheets (FIDE Laws of Chess, Appendix C):
//! the languages (piece letters, header keys, words for a draw), lexing one
//! entry, the readings of an entry, and the legal moves to the squares an entry names.
//!
//! The files form layers, each using only those before it: `language`,
//! `lex`, `distance`, `targets` and `meaning` (what a reading says) use no
//! sibling; `forms` (the ways a move could be written) weighs spellings
//! with `language` and `distance`; `descriptive` reads lexed entries into
//! `meaning`s; `reading` reads algebraic entries, hands descriptive and
//! numeric ones to `descriptive`, and resolves readings in a position with
//! `targets`.

pub(crate) mod descriptive;
pub(crate) mod distance;
pub(crate) mod forms;
pub(crate) mod language;
pub(crate) mod lex;
mod meaning;
pub(crate) mod reading;
pub(crate) mod targets;

pub use descriptive::Notation;
pub use language::{LANGUAGES, Language, Tag};
