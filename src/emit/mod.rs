//! Output: PGN for the games, the report (the JSON of `convert --json`), the
//! review pages, and writing files at once.
//!
//! The files form layers, each using only those before it: `san`, `report`
//! and `file` use no sibling; `variation` spells moves with `san`; `pgn`
//! writes the game, its `variation`s within; `page` shows the `report`.

pub(crate) mod file;
pub(crate) mod page;
pub(crate) mod pgn;
pub mod report;
mod san;
pub(crate) mod variation;

pub use file::{replace, temporary};
pub use page::{Listed, index_page, review_page};
