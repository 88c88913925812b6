//! Output: PGN for the games, the report (the JSON of `convert --json`), and
//! writing files at once.

pub mod file;
pub(crate) mod pgn;
pub mod report;
