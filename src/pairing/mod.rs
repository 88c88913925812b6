//! The tournament's pairings, from a FIDE Tournament Report File (TRF-16):
//! the players and who played whom in each round (`trf`), the names as
//! scoresheets write them (`names`), and a sheet matched to its pairing,
//! its PGN tags filled from the TRF (`matching`), and the results written
//! back into the TRF (`results`).
//!
//! The files form layers, each using only those before it: `tournament`
//! (the players and pairings) and `names` use no sibling; `trf` reads a
//! `tournament`; `matching` finds a sheet's pairing in one, by `names`;
//! `results` writes games' results into a TRF's bytes, in `trf`'s columns.

pub(crate) mod matching;
pub(crate) mod names;
pub(crate) mod results;
mod tournament;
pub(crate) mod trf;

pub use matching::{Paired, apply};
pub use results::{Scored, Written, with_results};
pub use tournament::{Pairing, Player, Tournament};
pub use trf::TrfError;
