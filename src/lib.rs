//! scoresheet turns chess scoresheets typed by volunteers — plain text,
//! spreadsheet exports, YAML forms, hand-typed PGN, in the player's language —
//! into validated PGN.
//!
//! Data flows one way:
//! bytes → [`ingest`] → [`Sheet`] → [`notation`] readings → [`reconstruct`](mod@reconstruct)
//! (costs in [`Params`]) → [`Game`] with [`Finding`]s → [`emit`].
//! [`convert()`] runs the pipeline for one file and reports on it; the binary
//! and the daemon do the IO.
//!
//! ```
//! use scoresheet::{Options, Status, convert};
//! let report = convert("board-3.txt", b"1.e4 e5 2.Cf3 Cc6 3.Ab5 a6 1/2-1/2", &Options::default());
//! assert_eq!(report.games[0].status, Status::Validated);
//! assert_eq!(report.games[0].moves, ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]);
//! ```
//!
//! The stages one at a time: a sheet read, its game reconstructed (here with
//! a slip, `Clf3` for `Cf3`, the `l` read as a `1`), its findings judged.
//!
//! ```
//! use scoresheet::{Format, Settings, read, reconstruct};
//! let text = "White: Ruiz\nBlack: Martín\n1.d4 Cf6 2.c4 e6 3.Clf3 Ab4+ 0-1";
//! let sheets = read(text.as_bytes(), Format::Text, 1 << 20).unwrap();
//! assert_eq!(sheets[0].header("White"), Some("Ruiz"));
//! let game = reconstruct(&sheets[0], &Settings::default());
//! let sans: Vec<String> = game.moves.iter().map(|m| m.san.to_string()).collect();
//! assert_eq!(sans, ["d4", "Nf6", "c4", "e6", "Nf3", "Bb4+"]);
//! assert_eq!(game.language.code, "es");
//! for finding in &game.findings {
//!     println!("{:?}: {}", finding.severity(), finding.message());
//! }
//! ```
//!
//! # Features
//! - `cli`: the `scoresheet` command's own crates (arguments, the progress
//!   bar, logs);
//! - `daemon`: the `daemon` module, `scoresheet watch` (tokio, notify);
//! - `desk`: the arbiter's desk and the broadcast feed (axum).
//!
//! All three are on by default, and the command needs them. With
//! `default-features = false` the library reads, reconstructs, judges and
//! writes with none of those crates.

#![warn(unreachable_pub)]

mod bounds;
pub mod config;
pub mod convert;
mod cost;
#[cfg(feature = "daemon")]
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
mod start;

pub use config::Config;
pub use convert::{Options, convert};
pub use cost::{Costs, Edits, Limits, Params};
pub use emit::report::{FileReport, FindingReport, GameReport, Report, Status};
pub use finding::{At, Finding, Severity};
pub use ingest::{Format, IngestError, read};
pub use notation::{LANGUAGES, Language, Tag};
pub use reconstruct::{Game, Played, Settings, reconstruct};
pub use sheet::{Entry, GameResult, Sheet};

/// What the development crate (`scoresheet-dev`: the generator, the
/// evaluation, the opening book's builder) and the tests reach below the API:
/// no part of it, and it may change with any release.
#[doc(hidden)]
pub mod dev {
    pub use crate::cost::SAME_GAME_PLIES;
    pub use crate::emit::page::{Controls, EN, ES, Words, desk_game};
    pub use crate::notation::distance::{CONFUSABLE, look_alikes};
    pub use crate::notation::lex::{CheckMark, Lexed, lex};
    pub use crate::notation::reading::{Resolution, Target, readings, resolve};
    pub use crate::reconstruct::book::{Book, BookError, MAGIC, RECORD, move_code, position_key};
    pub use crate::reconstruct::budget::{FileBudget, PairBudget};
    pub use crate::reconstruct::by_moves::moves_agree;
    pub use crate::reconstruct::copies::{read_pair, same_game, same_player};
    pub use crate::reconstruct::fit::fit_cost;
    pub use crate::reconstruct::stages::reconstruct_within;
}
