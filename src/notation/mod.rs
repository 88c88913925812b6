//! Algebraic notation as written on scoresheets (FIDE Laws of Chess, Appendix C):
//! the languages (piece letters, header keys, words for a draw), lexing one
//! entry, the readings of an entry, and the legal moves to the squares an entry names.

pub(crate) mod descriptive;
pub(crate) mod distance;
pub(crate) mod forms;
pub mod language;
pub mod lex;
pub mod reading;
pub(crate) mod targets;

pub use distance::{CONFUSABLE, look_alikes};
pub use language::{LANGUAGES, Language, Tag};
