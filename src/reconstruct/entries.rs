//! What a sheet's entries say before any move is read: their lexing, their
//! strict readings under a language, which boxes are illegible, where the
//! record turns descriptive.

use crate::cost::MOST_REPEATED;
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

/// Whether the `k` entries from `i` repeat, legibly, the `k` just before
/// them: moves written twice over.
pub(super) fn repeats_block(lexed: &[Lexed<'_>], i: usize, k: usize) -> bool {
    i >= k
        && i + k <= lexed.len()
        && (0..k).all(|t| !is_illegible(&lexed[i + t]) && lexed[i + t].core == lexed[i - k + t].core)
}

/// Whether entry `e` belongs to a block of 2 to [`MOST_REPEATED`] entries
/// written twice over (either time).
pub(super) fn in_repeated_block(lexed: &[Lexed<'_>], e: usize) -> bool {
    (2..=MOST_REPEATED).any(|k| ((e + 1).saturating_sub(k)..=e + k).any(|i| repeats_block(lexed, i, k)))
}

/// Whether entry `i` is descriptive notation and the record goes on in it.
pub(super) fn descriptive_at(lexed: &[Lexed<'_>], i: usize) -> bool {
    looks_descriptive(&lexed[i].core) && descriptive_from(lexed[i..].iter().map(|l| &*l.core))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_block_of_moves_written_twice_is_told_from_a_move_written_again() {
        let texts = ["Nf3", "Nxf3+", "Bxf3", "Qxg5", "Nf3", "Nxf3+", "Bxf3", "Qxg5", "Bxb7", "Rad8", "Bxb7"];
        let lexed: Vec<Lexed> = texts.iter().map(|t| lex(t)).collect();
        // Both times of the four-entry block, and nothing else.
        let marked: Vec<bool> = (0..lexed.len()).map(|e| in_repeated_block(&lexed, e)).collect();
        assert_eq!(marked, [true, true, true, true, true, true, true, true, false, false, false]);
    }
}
