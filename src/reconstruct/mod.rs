//! From entries to a game. The files form layers, listed here from the
//! bottom: each uses only files above it in this list, never one below, so
//! every arrow points up the list (and nothing uses this file, the top).
//!
//! - `step`: one step of a reading: an entry read, skipped, or read after a move not written;
//! - `game`: the game read ([`Game`], [`Played`]), its moves played and written by [`play`], where the
//!   rules end it drawn (Art. 9.6);
//! - `book`, `budget`, `prior`: the opening book, the budget of work, the plausibility of a line;
//! - `settings`: how to read sheets ([`Settings`]);
//! - `entries`: what the entries say before any move is read (lexed, strict readings, illegible, descriptive);
//! - `arena`: the nodes of a window's beam, partial games walked back to their steps;
//! - `searcher`: what reading one entry as one move costs, with the tables and caches that make it cheap;
//! - `draft`: the state of a reading, its steps and their doubts, before they are built into a game;
//! - `judge`: how clearly a window's best reading is ahead, and the alternatives where it is not;
//! - `beam`: the beam search over one repair window;
//! - `slips`: a slip made before a window that explains its repairs;
//! - `fit`: a given game weighed against the sheet, for the evaluation;
//! - `joint`: the search over games that weighs both copies of one game;
//! - `detect`: the findings, one kind per function;
//! - `build`: a reading's steps made into the game's moves and findings;
//! - `read`: the `read::Reader`: each entry read exactly where it can be, a window where one names no move;
//! - `settle`: the doubts the windows left, weighed on the whole sheet (read again by the reader);
//! - `language`: a sheet read under one language: read, its doubts settled, built;
//! - `infer`: the language, where none is given;
//! - `stages`: [`reconstruct`]: one sheet's start, language, second look and findings on the whole game;
//! - `copies`: sheets grouped into games, and a game's two copies read together;
//! - `by_moves`: two copies of one game told by their moves, whatever their names;
//! - this file: declares the files and re-exports what the rest of the crate uses.
//!
//! What everything costs is in `crate::cost`.

mod arena;
mod beam;
pub(crate) mod book;
pub(crate) mod budget;
mod build;
pub(crate) mod by_moves;
pub(crate) mod copies;
mod detect;
mod draft;
mod entries;
pub(crate) mod fit;
mod game;
mod infer;
mod joint;
mod judge;
mod language;
pub(crate) mod prior;
mod read;
mod searcher;
mod settings;
mod settle;
mod slips;
pub(crate) mod stages;
mod step;

pub use crate::cost::Params;
pub(crate) use budget::{FileBudget, PairBudget};
pub(crate) use fit::with_searcher;
pub(crate) use game::san_of;
pub use game::{Game, Played, play};
pub use settings::Settings;
pub use stages::reconstruct;
pub(crate) use stages::reconstruct_within;
