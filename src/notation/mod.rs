//! Algebraic notation as written on scoresheets (FIDE Laws of Chess, Appendix C):
//! the languages' piece letters, lexing one entry, and the readings of an entry.

pub mod descriptive;
pub mod distance;
pub mod forms;
pub mod language;
pub mod lex;
pub mod reading;

pub use language::{LANGUAGES, Language};
