//! scoresheet turns chess scoresheets typed by volunteers — plain text,
//! spreadsheet exports, YAML forms, hand-typed PGN, in the player's language —
//! into validated PGN.
//!
//! Data flows one way:
//! bytes → [`ingest`] → [`Sheet`] → [`notation`] readings → [`reconstruct`](mod@reconstruct)
//! (costs in [`cost`]) → [`Game`] with [`Finding`]s → [`emit`].
//! [`convert()`] runs the pipeline for one file and reports on it; the binary
//! and the [`daemon`] do the IO.
//!
//! ```
//! use scoresheet::{Options, Status, convert};
//! let report = convert("board-3.txt", b"1.e4 e5 2.Cf3 Cc6 3.Ab5 a6 1/2-1/2", &Options::default());
//! assert_eq!(report.games[0].status, Status::Validated);
//! assert_eq!(report.games[0].moves, ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]);
//! ```

mod bounds;
pub mod config;
pub mod convert;
pub mod cost;
pub mod daemon;
pub mod decision;
pub mod emit;
pub mod finding;
mod fold;
pub mod ingest;
pub mod notation;
pub mod pairing;
pub mod reconstruct;
pub mod sheet;
pub mod start;

pub use config::Config;
pub use convert::{Options, convert};
pub use cost::{Costs, Edits, Limits, Params};
pub use emit::report::{FileReport, FindingReport, GameReport, Report, Status};
pub use finding::{At, Finding, Severity};
pub use ingest::{Format, IngestError, read};
pub use notation::{LANGUAGES, Language, Tag};
pub use reconstruct::{Game, Played, Settings, reconstruct};
pub use sheet::{Entry, GameResult, Sheet};
