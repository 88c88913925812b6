//! Output: PGN for the games, and the report (the JSON of `convert --json`).

pub mod pgn;
pub mod report;
