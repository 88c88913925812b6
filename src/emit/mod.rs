//! Output: PGN for the games, the report (the JSON of `convert --json`), the
//! review pages, and writing files at once.

pub mod file;
pub mod page;
pub(crate) mod pgn;
pub mod report;
pub(crate) mod variation;
