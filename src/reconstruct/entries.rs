//! What a sheet's entries say before any move is read: their lexing, their
//! strict readings under a language, which boxes are illegible, where the
//! record turns descriptive.

use crate::ingest::movetext::is_illegible_text;
use crate::notation::Language;
use crate::notation::descriptive::{descriptive_from, looks_descriptive};
use crate::notation::lex::{Lexed, lex};
use crate::sheet::Sheet;

/// The entries of a sheet lexed, those of a record in descriptive notation
/// marked as such.
pub(crate) fn lex_sheet(sheet: &Sheet) -> Vec<Lexed<'_>> {
    let mut lexed: Vec<Lexed> = sheet.entries.iter().map(|e| lex(&e.text)).collect();
    crate::notation::descriptive::mark(&mut lexed);
    lexed
}

/// The readings of one lexed entry under `lang` (descriptive ones too, see
/// [`crate::notation::reading::readings_of`]).
pub(crate) fn strict_of(l: &Lexed<'_>, lang: &Language) -> Vec<crate::notation::reading::Reading> {
    let mut out = Vec::with_capacity(2);
    crate::notation::reading::readings_of(l, lang, &mut out);
    out
}

/// An illegible box (`?`, `X`, `---` ...) or an empty one: any legal move may fill it.
pub(super) fn is_illegible(l: &Lexed<'_>) -> bool {
    l.core.is_empty() || is_illegible_text(&l.core)
}

/// Whether entry `i` is descriptive notation and the record goes on in it.
pub(super) fn descriptive_at(lexed: &[Lexed<'_>], i: usize) -> bool {
    looks_descriptive(&lexed[i].core) && descriptive_from(lexed[i..].iter().map(|l| &*l.core))
}
