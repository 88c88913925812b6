//! The messages of the findings: one table per report language, each a type
//! that implements [`Messages`] in its own file (`en.rs`, `es.rs`). The trait
//! has one method per kind of finding and none with a default, so a table
//! does not compile until it says every kind; no language's text is made from
//! another's. `Finding::message_in` picks the table and passes it the
//! finding's values, what was written already quoted short (see
//! [`super::values::quoted`]).

use super::values::{At, CopyEntry, CopyMove, Ending, NamedPairing, NotRead, ResultAt, SheetPairing, Why};
use crate::notation::Notation;
use crate::sheet::{GameResult, Invisible};
use crate::start::SetUpError;

/// A language's messages for the findings: what was written, what was read,
/// why, and the rule. Moves stay in English SAN, as in the PGN.
pub(crate) trait Messages {
    fn illegal_move(&self, at: &At, written: &str, fen: &str, unread: usize) -> String;
    /// `read`: the notation it was read in, and how many moves.
    fn non_algebraic(&self, at: &At, written: &str, read: Option<(Notation, u32)>) -> String;
    fn mixed_notation(&self, at: &At, notation: Notation, algebraic: u32) -> String;
    /// `own`, `other`: the two languages' names.
    fn mixed_letters(&self, at: &At, own: &str, other: &str, moves: u32) -> String;
    fn set_up_position(&self, why: &SetUpError) -> String;
    fn illegible_entry(&self, at: &At, written: &str, replacement: &str) -> String;
    fn missing_move(&self, at: &At, replacement: &str) -> String;
    fn extra_entry(&self, at: &At, written: &str, repeat: bool) -> String;
    fn typo_repaired(&self, at: &At, written: &str, replacement: &str) -> String;
    /// `others`: the moves allowed besides `replacement` (none: another
    /// reading nearly as likely); `put_first`: the book or the material check
    /// put `replacement` first, at a cost.
    fn ambiguous_repair(&self, at: &At, written: &str, replacement: &str, others: &[&str], put_first: bool) -> String;
    fn moves_after_end(&self, at: &At, written: &str, ending: Ending) -> String;
    fn check_mark_mismatch(&self, at: &At, written: &str, replacement: &str) -> String;
    fn numbering_error(&self, at: &At, written: &str) -> String;
    /// `code`, `name`: the language's ISO code and its name in English.
    fn language_inferred(&self, code: &str, name: &str) -> String;
    fn unknown_language(&self, given: &str) -> String;
    fn result_mismatch(&self, written: GameResult, board: GameResult, ending: Ending) -> String;
    fn draw_offer(&self, at: &At) -> String;
    fn draw_claim(&self, at: &At, repetition: bool) -> String;
    fn result_missing(&self, moves: u32, noted: bool) -> String;
    /// `from`: the first ply the copy lacks; `plausible`: Art. 8.4 explains
    /// the stop (the finding is info).
    fn incomplete_record(&self, file: &str, missing: u32, from: u32, other_ends: bool, plausible: bool) -> String;
    fn duplicate_board(&self, board: &str, round: &str, other: &str, parted: Option<u32>, stops: bool) -> String;
    fn encoding_guessed(&self, line: usize) -> String;
    fn invisible_removed(&self, removed: &Invisible) -> String;
    fn moves_in_note(&self, line: usize, ply: u32) -> String;
    fn score_printed_twice(&self, line: usize) -> String;
    fn game_not_read(&self, line: usize, why: &NotRead) -> String;
    fn headers_dropped(&self, dropped: usize, first: &str) -> String;
    fn search_budget(&self, at: &At, written: &str, unread: usize) -> String;
    fn pairing_mismatch(
        &self,
        written: &SheetPairing,
        found: Option<&NamedPairing>,
        candidates: &[NamedPairing],
    ) -> String;
    fn pairing_result_mismatch(&self, written: GameResult, pairing: GameResult, at: &NamedPairing) -> String;
    fn results_disagree(&self, results: &[(GameResult, ResultAt)]) -> String;
    fn result_from_pairings(&self, result: GameResult, at: &NamedPairing, disagreed: bool) -> String;
    fn board_numbered(&self, written: &SheetPairing, pairing: &NamedPairing) -> String;
    fn colours_reversed(&self, pairing: &NamedPairing) -> String;
    /// This sheet's file and the other's, what each gives, and the ply
    /// (from 1) where their moves part.
    fn two_games_one_board(&self, files: [&str; 2], written: [&SheetPairing; 2], parted: u32) -> String;
    /// Each sheet's file and what it gives.
    fn copies_joined_by_moves(&self, files: [&str; 2], written: [&SheetPairing; 2]) -> String;
    /// Each copy's entry and move there, and its file.
    fn copies_disagree(&self, at: &At, written: [&CopyEntry; 2], read: [&CopyMove; 2], files: [&str; 2]) -> String;
    /// `decision`: [`Messages::decision`]'s sentence.
    fn arbiter_decision(&self, at: Option<&At>, decision: &str) -> String;
    /// An arbiter's decision as the PGN comment at its move says it: who,
    /// the move (`played`, with where), and `why` ([`Messages::why`], cut).
    fn decision(&self, arbiter: &str, played: Option<(&At, &str)>, why: &str) -> String;
    /// Why an arbiter decided; the arbiter's own words as written.
    fn why(&self, why: &Why) -> String;
    /// `third-copy`, which the daemon finds: a third sheet of a game read
    /// from the two `files`.
    #[cfg_attr(not(feature = "daemon"), allow(dead_code))]
    fn third_copy(&self, files: &[&str]) -> String;
}
