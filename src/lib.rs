//! scoresheet turns chess scoresheets typed by volunteers — plain text,
//! spreadsheet exports, YAML forms, hand-typed PGN, in the player's language —
//! into validated PGN.
//!
//! Data flows one way:
//! bytes → [`ingest`] → [`sheet::Sheet`] → [`notation`] readings →
//! [`reconstruct`] → [`reconstruct::Game`] with [`finding::Finding`]s → [`emit`].
//! [`convert`] runs the pipeline for one file; the binary does the IO.

pub mod config;
pub mod convert;
pub mod cost;
pub mod daemon;
pub mod emit;
pub mod finding;
pub mod ingest;
pub mod notation;
pub mod reconstruct;
pub mod sheet;
