//! How to read sheets: the language, the costs, the opening book.

use super::book::Book;
use crate::cost::Params;
use crate::notation::Language;
use crate::start::Start;

/// How to read sheets.
#[derive(Debug, Clone, Copy)]
pub struct Settings {
    /// Piece letters for sheets without a `Language:` header (from the command
    /// line or the config); `None` infers them.
    pub language: Option<&'static Language>,
    pub params: Params,
    /// How often players chose moves in the opening, which orders readings
    /// in doubt (see `prior`); `None` orders them by the material check alone.
    pub book: Option<Book<'static>>,
}

impl Settings {
    /// These settings for a game that begins in `start`: the opening book
    /// knows games from the standard start only.
    pub(crate) fn for_start(&self, start: &Start) -> Settings {
        Settings { book: self.book.filter(|_| start.is_standard()), ..*self }
    }
}

impl Default for Settings {
    /// Languages inferred, the default costs, the built-in book.
    fn default() -> Self {
        Settings { language: None, params: Params::default(), book: Some(Book::builtin()) }
    }
}
