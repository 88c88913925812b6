//! What the program found in a game that a person may need to know. One typed
//! enum; the stable code, the severity, the weight, the message and the
//! fields of the report derive from it.
//!
//! The weight is the routing rule: a finding that puts the record in doubt
//! (which move was played, or which result) sends its game to review; every
//! other finding is a notice, which goes with the published game.
//!
//! Each is one `match` with no catch-all arm ([`Finding::code`],
//! [`Finding::severity`], [`Finding::weight`], [`Finding::message_in`] and the
//! report's fields), so a new kind of finding does not compile until it has
//! all of them. The JSON
//! report ([`crate::emit::report`]) and the PGN comments (`crate::emit::pgn`)
//! render every kind alike from these.
//!
//! The files, bottom first: `values` (what a finding carries that a message
//! renders: where, a pairing, a copy's entry, why an arbiter decided),
//! `messages` → values (the `Messages` trait: one method per kind), `en` and
//! `es` → messages, values (one table per report language); `mod.rs` → all
//! of them (the findings, and the language's table each message is said from).

mod en;
mod es;
mod messages;
mod values;

use std::borrow::Cow;

use serde::Serialize;

use crate::sheet::GameResult;
use messages::Messages;

pub use crate::notation::Notation;
pub use values::{
    At, CopyEntry, CopyMove, Ending, NOTE_CHARS, NamedPairing, NotRead, QUOTED_CHARS, ResultAt, SheetPairing, Why,
};
pub(crate) use values::{cut, quoted};

/// The move-level fields of a finding, as the report shows them.
struct Parts<'a> {
    at: Option<At>,
    written: Option<&'a str>,
    replacement: Option<&'a str>,
    alternatives: Cow<'a, [String]>,
    /// The margin as stored; [`Finding::margin`] leaves out an infinite one.
    margin: Option<f32>,
}

/// How much a finding matters: `info` leaves a game validated, `warning` and
/// `error` send it to an arbiter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warning,
    Error,
}

/// What a finding does to its game: a doubt about its record (which move was
/// played, or which result) sends it to review, where an arbiter settles it;
/// a notice is published with the game, for the arbiter to know.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Weight {
    Doubt,
    Notice,
}

/// The language of the findings' messages (`report_language` in the config):
/// the codes are the same in every language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ReportLanguage {
    #[default]
    En,
    Es,
}

impl ReportLanguage {
    /// Every language, in the order the config lists them.
    pub const ALL: [ReportLanguage; 2] = [ReportLanguage::En, ReportLanguage::Es];

    /// Its ISO code, as the config writes it.
    pub fn code(self) -> &'static str {
        match self {
            ReportLanguage::En => "en",
            ReportLanguage::Es => "es",
        }
    }

    /// The table its messages are said from: each language's own.
    fn messages(self) -> &'static dyn Messages {
        match self {
            ReportLanguage::En => &en::English,
            ReportLanguage::Es => &es::Spanish,
        }
    }

    /// The message of `third-copy`, which the daemon finds: a third sheet of
    /// a game read from the two `files`.
    #[cfg_attr(not(feature = "daemon"), allow(dead_code))]
    pub(crate) fn third_copy(self, files: &[&str]) -> String {
        self.messages().third_copy(files)
    }

    /// The language of an ISO code (`en`, `es`).
    pub fn from_code(code: &str) -> Option<ReportLanguage> {
        Self::ALL.into_iter().find(|l| l.code() == code)
    }
}

/// The move a copy of a game must reach for the moves it lacks at the end
/// to be taken as Art. 8.4 allows (a player with less than five minutes on
/// the clock may stop recording): with the usual time controls (90 minutes
/// for 40 moves, or 90 with 30 seconds a move), a player is rarely below five
/// minutes before move 30, and a copy that stops earlier lacks moves a
/// player had to write. An `incomplete-record` that stops before it is a
/// warning.
pub const PLAUSIBLE_STOP: u32 = 30;

/// A finding about one game. `margin` of a repair: how much less likely (in
/// nats) the best different reading of the game is; infinite when none came close.
#[derive(Debug, Clone, PartialEq)]
pub enum Finding {
    /// No reading of the entry fits; the game is kept up to there: `fen`
    /// is the last position the record supports, and the `unread` entries
    /// from this one on cannot be reconstructed.
    IllegalMove { at: At, written: String, fen: String, unread: usize },
    /// From this entry on the record is in descriptive notation (`P-K4`,
    /// `CAR3`). With `read`, it was read (in that notation: so many moves),
    /// and the sheet cannot serve as evidence (Appendix C); without, its
    /// language has no descriptive system known and the game is kept up to
    /// there.
    NonAlgebraic { at: At, written: String, read: Option<(Notation, u32)> },
    /// The sheet mixes notations: algebraic up to `at`'s move, another
    /// (`system`) from there.
    MixedNotation { at: At, system: Notation, algebraic: u32 },
    /// The sheet mixes two languages' piece letters: its own (`own`, a
    /// language's name) and, from `at` on, `moves` moves that only `other`'s
    /// letters read (`Nf6` on a Spanish sheet). Code `mixed-notation`.
    MixedLetters { at: At, own: &'static str, other: &'static str, moves: u32 },
    /// The sheet gives a start of its own (`FEN`, `Variant`) that cannot be
    /// used: a FEN that cannot be read or sets up no legal position, a
    /// Chess960 game without its FEN, a variant of other rules. No move is
    /// read (from the standard start they would not be the game's); `why`
    /// names the FEN or variant and what is wrong with it.
    SetUpPosition { why: crate::start::SetUpError },
    /// The box holds "?", "X", "---" or is empty; the move was read from the rest of the game.
    IllegibleEntry { at: At, written: String, replacement: String, margin: f32 },
    /// A move was not written; the rest of the game says which it was.
    MissingMove { at: At, replacement: String, margin: f32 },
    /// An entry that is not a move of the game: written twice (`repeat`: the
    /// same as its neighbour, info), or stray (a warning: an entry was dropped).
    ExtraEntry { at: At, written: String, repeat: bool, margin: f32 },
    /// A slip of the pen or the keyboard, repaired: only this move fits.
    TypoRepaired { at: At, written: String, replacement: String, margin: f32 },
    /// A repair the rest of the game does not settle: the alternatives are
    /// listed; `margin` is how much less likely the nearest of them is, when
    /// known (negative where the book or the material check put a reading
    /// that costs more first, see `crate::reconstruct::prior`).
    AmbiguousRepair { at: At, written: String, replacement: String, alternatives: Vec<String>, margin: f32 },
    /// Moves are written after the game ended: `ending` says how
    /// (checkmate, stalemate, or a draw without a claim, Art. 9.6).
    MovesAfterEnd { at: At, written: String, ending: Ending },
    /// `+` or `#` written where the move gives no such check.
    CheckMarkMismatch { at: At, written: String, replacement: String },
    /// The move numbers skip or repeat.
    NumberingError { at: At, written: String },
    /// No language was given; the sheet's piece letters were recognised as this one.
    LanguageInferred { code: &'static str, name: &'static str },
    /// The language given is not one the reader knows; it was inferred instead.
    UnknownLanguage { given: String },
    /// The result written contradicts the final position: `ending` says
    /// why the board gives `board` (checkmate, stalemate, neither side can
    /// checkmate), with its Law.
    ResultMismatch { written: GameResult, board: GameResult, ending: Ending },
    /// A player offered a draw with this move: `(=)` written after it
    /// (Art. 9.1.2).
    DrawOffer { at: At },
    /// The game was recorded as a draw where one could be claimed: the
    /// final position on the board for the third time (Art. 9.2), or fifty
    /// moves by each side without a capture or a pawn move (Art. 9.3).
    DrawClaim { at: At, repetition: bool },
    /// No result is written and the final position (after `moves` moves) is
    /// not an ending of the game: the arbiter establishes the result (the
    /// players record it and sign, Art. 8.7). The record may have stopped
    /// early (Art. 8.4 lets a player with less than five minutes stop
    /// recording), or the sheet was handed in unfinished. With `noted`, a
    /// note follows the last move read (a printed score's), where the score
    /// may go on: the moves are in doubt too.
    ResultMissing { moves: u32, noted: bool },
    /// The copy in `file` lacks moves the game had: it stops `missing` moves
    /// short, from ply `from` on, where the game read from both copies goes
    /// on (`other_ends`: the other copy has the game to its end;
    /// `other_sound`: each of those moves is written in that copy, and not
    /// as the entry before written again; `other_exact`: written exactly,
    /// too, in a copy that skipped no move). Info where
    /// Art. 8.4 explains it (a player short of time stops recording the last
    /// moves of a long game, see [`PLAUSIBLE_STOP`]), else a warning.
    IncompleteRecord { file: String, missing: u32, from: u32, other_ends: bool, other_sound: bool, other_exact: bool },
    /// The round file already has another game for this board (other
    /// players, or moves that part at ply `parted` before either record
    /// stops): this one is not added to it, and an arbiter chooses.
    /// With `stops`, the moves agree but this record stops at ply `parted`
    /// where the round file's goes on (a page of the sheet, not a correction).
    DuplicateBoard { board: String, round: String, other: String, parted: Option<u32>, stops: bool },
    /// The file's bytes are not UTF-8 and were read as Windows-1252 (from the
    /// line of the first byte that is not UTF-8): accented letters may be wrong.
    EncodingGuessed { line: usize },
    /// Invisible format characters were dropped from the game's lines as
    /// the file was read (see [`crate::sheet::Invisible`]): how many, of
    /// which kinds, from which line.
    InvisibleRemoved { removed: crate::sheet::Invisible },
    /// The score stops, no result written, and a note of prose below it
    /// (on `line`) goes on with the next move (half-move `ply`): the moves
    /// from there were read from the note, which may tell what might have
    /// been.
    MovesInNote { line: usize, ply: u32 },
    /// The text prints the game's moves twice: the first print, from
    /// `line`, stops before the game does (a heading's or a diagram's part
    /// score) and is read as this game, not as a game of its own.
    ScorePrintedTwice { line: usize },
    /// A game of a collection (from `line`) that could not be read at all:
    /// `why` (over the size a game may take, bytes that are not text). The
    /// file's other games are read.
    GameNotRead { line: usize, why: NotRead },
    /// The sheet has more header fields than a sheet keeps
    /// ([`crate::sheet::MAX_HEADERS`]): `dropped` were left out, the first
    /// of them `first`.
    HeadersDropped { dropped: usize, first: String },
    /// The search went past its budget of work (see
    /// [`Limits::work_per_game`](crate::cost::Limits::work_per_game)) at
    /// this entry: the game is kept as read up to there, and the `unread`
    /// entries from it on were not read. With `unread` 0 the reading was
    /// complete, but its doubts were not all weighed.
    SearchBudget { at: At, written: String, unread: usize },
    /// The sheet matches no pairing of the TRF (`found` is `None`: the
    /// nearest pairings are the `candidates`), or its players are paired on
    /// another board than the sheet gives (`found`). `written` is what the
    /// sheet gives: round, board, players.
    PairingMismatch { written: SheetPairing, found: Option<NamedPairing>, candidates: Vec<NamedPairing> },
    /// The result written differs from the TRF's result for the game's
    /// pairing (`at`).
    PairingResultMismatch { written: GameResult, pairing: GameResult, at: NamedPairing },
    /// The record gives different results (`results`: each with where it is
    /// written, the header, the moves' end or a copy's file), and no pairing
    /// settles which: the arbiter establishes the result (Art. 8.7).
    ResultsDisagree { results: Vec<(GameResult, ResultAt)> },
    /// The result is the pairings' (`at`: the pairing): no result was
    /// written (`disagreed` false), or the copies or the sheet's header and
    /// moves gave different results and the pairings' is one of them.
    ResultFromPairings { result: GameResult, at: NamedPairing, disagreed: bool },
    /// The sheet numbers its board otherwise than the pairings, in the
    /// TRF's order, number its players' game (`pairing`): the game is
    /// published on the TRF's board, so that every game of the round,
    /// whether its sheet writes a board or not, is numbered one way.
    BoardNumbered { written: SheetPairing, pairing: NamedPairing },
    /// The sheet's White is the pairing's Black: the colours are reversed.
    ColoursReversed { pairing: NamedPairing },
    /// Two sheets that their headers give as one game's copies are two
    /// games: their moves read apart from move `parted` on (a ply, from 1)
    /// and never agree. `files` are this sheet's and the other's, `written`
    /// what each gives (round, board, players), in that order. The names or
    /// round on one of them are wrong, or the same players met twice: an
    /// arbiter tells whose game each is.
    TwoGamesOneBoard { files: [String; 2], written: [SheetPairing; 2], parted: u32 },
    /// The game was read from two sheets that their headers did not make
    /// one game's copies: their moves did, and their names do not
    /// contradict. `files` and `written` (round, board, players) are each
    /// sheet's, the game's moves taken from the first.
    CopiesJoinedByMoves { files: [String; 2], written: [SheetPairing; 2] },
    /// The two copies of the game (the players' two scoresheets) are both
    /// legible here and say different moves (or one has none), and the rest
    /// of the game does not tell which is right: `written` and `read` are the
    /// first file's entry and move, `other_written` and `other_read` the
    /// second's.
    CopiesDisagree {
        at: At,
        written: CopyEntry,
        read: CopyMove,
        other_written: CopyEntry,
        other_read: CopyMove,
        files: [String; 2],
    },
    /// An arbiter decided this move: accepted the reading, picked an
    /// alternative, or typed the move (`why`: the doubt it settled, or the
    /// arbiter's note).
    /// The whole game's decision (accepted as read, rejected, its result) has no `at`.
    ArbiterDecision { at: Option<At>, arbiter: String, played: Option<String>, why: Why },
}

impl Finding {
    /// The stable code of the finding, as in the JSON report.
    pub fn code(&self) -> &'static str {
        match self {
            Finding::IllegalMove { .. } => "illegal-move",
            Finding::NonAlgebraic { .. } => "non-algebraic-notation",
            Finding::MixedNotation { .. } | Finding::MixedLetters { .. } => "mixed-notation",
            Finding::SetUpPosition { .. } => "set-up-position",
            Finding::IllegibleEntry { .. } => "illegible-entry",
            Finding::MissingMove { .. } => "missing-move",
            Finding::ExtraEntry { .. } => "extra-entry",
            Finding::TypoRepaired { .. } => "typo-repaired",
            Finding::AmbiguousRepair { .. } => "ambiguous-repair",
            Finding::MovesAfterEnd { .. } => "moves-after-end",
            Finding::CheckMarkMismatch { .. } => "check-mark-mismatch",
            Finding::NumberingError { .. } => "numbering-error",
            Finding::LanguageInferred { .. } => "language-inferred",
            Finding::UnknownLanguage { .. } => "unknown-language",
            Finding::ResultMismatch { .. } => "result-mismatch",
            Finding::DrawOffer { .. } => "draw-offer",
            Finding::DrawClaim { .. } => "draw-claim",
            Finding::ResultMissing { .. } => "result-missing",
            Finding::IncompleteRecord { .. } => "incomplete-record",
            Finding::DuplicateBoard { .. } => "duplicate-board",
            Finding::EncodingGuessed { .. } => "encoding-guessed",
            Finding::InvisibleRemoved { .. } => "invisible-characters",
            Finding::MovesInNote { .. } => "moves-in-note",
            Finding::ScorePrintedTwice { .. } => "score-printed-twice",
            Finding::GameNotRead { .. } => "game-not-read",
            Finding::HeadersDropped { .. } => "headers-dropped",
            Finding::SearchBudget { .. } => "search-budget",
            Finding::PairingMismatch { .. } => "pairing-mismatch",
            Finding::PairingResultMismatch { .. } => "pairing-result-mismatch",
            Finding::ResultsDisagree { .. } => "results-disagree",
            Finding::ResultFromPairings { .. } => "result-from-pairings",
            Finding::BoardNumbered { .. } => "board-numbered",
            Finding::ColoursReversed { .. } => "colours-reversed",
            Finding::TwoGamesOneBoard { .. } => "two-games-one-board",
            Finding::CopiesJoinedByMoves { .. } => "copies-joined-by-moves",
            Finding::CopiesDisagree { .. } => "copies-disagree",
            Finding::ArbiterDecision { .. } => "arbiter-decision",
        }
    }

    /// How much the finding matters; an extra entry that repeats its
    /// neighbour is info, a stray one a warning.
    pub fn severity(&self) -> Severity {
        match self {
            Finding::IllegalMove { .. } | Finding::NonAlgebraic { read: None, .. } => Severity::Error,
            // Read: the game is there, but the sheet is no evidence.
            Finding::NonAlgebraic { read: Some(_), .. } => Severity::Warning,
            Finding::MixedNotation { .. } | Finding::MixedLetters { .. } => Severity::Warning,
            // Never passed: the game read is not the game played.
            Finding::SetUpPosition { .. } => Severity::Error,
            Finding::ExtraEntry { repeat: false, .. } => Severity::Warning,
            Finding::AmbiguousRepair { .. } | Finding::MovesAfterEnd { .. } => Severity::Warning,
            // The result the players signed is not the one the board gives:
            // it is not published until an arbiter decides.
            Finding::ResultMismatch { .. } => Severity::Error,
            Finding::DrawOffer { .. } | Finding::DrawClaim { .. } => Severity::Info,
            Finding::IllegibleEntry { .. }
            | Finding::MissingMove { .. }
            | Finding::ExtraEntry { .. }
            | Finding::TypoRepaired { .. }
            | Finding::CheckMarkMismatch { .. }
            | Finding::NumberingError { .. }
            | Finding::LanguageInferred { .. }
            | Finding::UnknownLanguage { .. } => Severity::Info,
            // No result the players signed: the arbiter establishes one.
            Finding::ResultMissing { .. } => Severity::Warning,
            Finding::IncompleteRecord { from, other_ends, .. } => {
                if *other_ends && from.saturating_sub(1).div_ceil(2) >= PLAUSIBLE_STOP {
                    Severity::Info
                } else {
                    Severity::Warning
                }
            }
            Finding::DuplicateBoard { .. } => Severity::Warning,
            Finding::EncodingGuessed { .. } | Finding::InvisibleRemoved { .. } => Severity::Info,
            Finding::MovesInNote { .. } => Severity::Warning,
            Finding::ScorePrintedTwice { .. } => Severity::Info,
            Finding::GameNotRead { .. } => Severity::Error,
            // The PGN lacks fields the sheet has: a person decides whether
            // they mattered.
            Finding::HeadersDropped { .. } => Severity::Warning,
            Finding::SearchBudget { .. } => Severity::Warning,
            Finding::PairingMismatch { .. } => Severity::Warning,
            // The TRF is what the tournament rates: a result that differs
            // from it is corrected on one of the two before publication.
            Finding::PairingResultMismatch { .. } => Severity::Error,
            Finding::ResultsDisagree { .. } => Severity::Error,
            Finding::ResultFromPairings { .. } | Finding::BoardNumbered { .. } => Severity::Info,
            Finding::ColoursReversed { .. } | Finding::TwoGamesOneBoard { .. } => Severity::Warning,
            Finding::CopiesJoinedByMoves { .. } => Severity::Info,
            Finding::CopiesDisagree { .. } => Severity::Warning,
            // A person decided: the doubt is settled.
            Finding::ArbiterDecision { .. } => Severity::Info,
        }
    }

    /// Whether the finding puts the game's record in doubt (see [`Weight`]).
    /// Doubts: which move was played (a move no reading fits, a repair the
    /// game does not settle, copies naming different moves, entries not
    /// read), which result (written against the board, the pairings or
    /// itself), and which game it is (a board already taken, a start that
    /// cannot be used). Everything else is told and the game published.
    pub fn weight(&self) -> Weight {
        match self {
            Finding::IllegalMove { .. }
            | Finding::SetUpPosition { .. }
            | Finding::AmbiguousRepair { .. }
            | Finding::MovesAfterEnd { .. }
            | Finding::ResultMismatch { .. }
            | Finding::DuplicateBoard { .. }
            | Finding::MovesInNote { .. }
            | Finding::GameNotRead { .. }
            | Finding::SearchBudget { .. }
            | Finding::PairingResultMismatch { .. }
            | Finding::ResultsDisagree { .. }
            | Finding::ColoursReversed { .. }
            | Finding::TwoGamesOneBoard { .. }
            | Finding::CopiesDisagree { .. } => Weight::Doubt,
            // Descriptive notation not read: the game stops there.
            Finding::NonAlgebraic { read: None, .. } => Weight::Doubt,
            // A stray entry may stand for a move the reading left out; a
            // word of prose stands for none.
            Finding::ExtraEntry { repeat: false, written, .. } if !crate::notation::lex::is_prose_word(written) => {
                Weight::Doubt
            }
            // Matched to no pairing: whose game it is is open.
            Finding::PairingMismatch { .. } => Weight::Doubt,
            // Read: the game is known; the player is told to use algebraic
            // notation (Appendix C).
            Finding::NonAlgebraic { read: Some(_), .. }
            | Finding::MixedNotation { .. }
            | Finding::MixedLetters { .. } => Weight::Notice,
            // Published with `*`: the arbiter gives the result. Unless a note
            // after the last move may hold more of the score.
            Finding::ResultMissing { noted: true, .. } => Weight::Doubt,
            Finding::ResultMissing { noted: false, .. } => Weight::Notice,
            // The other copy has the moves this one lacks, none of them the
            // entry before written again:
            // told, the game published, where the rules explain the stop
            // (the last moves of a long game, Art. 8.4) or each of those
            // moves is written exactly in a copy that skipped none; else the
            // moves only one copy has are in doubt (a stray entry at its end
            // read as a move, a move skipped where the other copy stopped).
            Finding::IncompleteRecord { other_ends: true, other_sound: true, other_exact, .. }
                if *other_exact || self.severity() == Severity::Info =>
            {
                Weight::Notice
            }
            Finding::IncompleteRecord { .. } => Weight::Doubt,
            Finding::ExtraEntry { .. }
            | Finding::IllegibleEntry { .. }
            | Finding::MissingMove { .. }
            | Finding::TypoRepaired { .. }
            | Finding::CheckMarkMismatch { .. }
            | Finding::NumberingError { .. }
            | Finding::LanguageInferred { .. }
            | Finding::ScorePrintedTwice { .. }
            | Finding::UnknownLanguage { .. }
            | Finding::DrawOffer { .. }
            | Finding::DrawClaim { .. }
            | Finding::EncodingGuessed { .. }
            | Finding::InvisibleRemoved { .. }
            | Finding::HeadersDropped { .. }
            | Finding::ResultFromPairings { .. }
            | Finding::BoardNumbered { .. }
            | Finding::CopiesJoinedByMoves { .. }
            | Finding::ArbiterDecision { .. } => Weight::Notice,
        }
    }

    /// Whether the finding is about the game's result, not its moves: a
    /// result the arbiter establishes settles it.
    pub fn is_about_result(&self) -> bool {
        matches!(
            self,
            Finding::ResultMissing { noted: false, .. }
                | Finding::ResultMismatch { .. }
                | Finding::ResultsDisagree { .. }
                | Finding::PairingResultMismatch { .. }
                | Finding::ResultFromPairings { .. }
        )
    }

    /// Whether a notice is one the desk lists for the arbiter to read with
    /// the published game: what the players did (a notation, a record
    /// stopped, a draw offered or claimed, no result) and what the pairings
    /// changed; not the reading's own repairs (a slip read, a box left
    /// empty, the language guessed), which the PGN tells.
    pub fn is_told(&self) -> bool {
        let repair = matches!(
            self,
            Finding::ExtraEntry { .. }
                | Finding::IllegibleEntry { .. }
                | Finding::MissingMove { .. }
                | Finding::TypoRepaired { .. }
                | Finding::CheckMarkMismatch { .. }
                | Finding::NumberingError { .. }
                | Finding::LanguageInferred { .. }
                | Finding::UnknownLanguage { .. }
                | Finding::EncodingGuessed { .. }
                | Finding::InvisibleRemoved { .. }
                | Finding::ArbiterDecision { .. }
        );
        !self.is_doubt() && !repair
    }

    /// Whether the finding sends its game to review ([`Finding::weight`]).
    pub fn is_doubt(&self) -> bool {
        self.weight() == Weight::Doubt
    }

    /// Where the finding is, for findings about one move.
    pub fn at(&self) -> Option<At> {
        self.parts().at
    }

    /// The finding as a game that begins after `before` plies of the
    /// sheet's numbering says it: its move (and a copy's first move missing)
    /// numbered as on the sheet (`23...` in a game from a FEN at Black's
    /// 23rd move), for its message and move label; its `ply` stays the
    /// game's own.
    pub(crate) fn numbered_after(&self, before: u32) -> Finding {
        let mut f = self.clone();
        match &mut f {
            Finding::IllegalMove { at, .. }
            | Finding::NonAlgebraic { at, .. }
            | Finding::MovesAfterEnd { at, .. }
            | Finding::NumberingError { at, .. }
            | Finding::IllegibleEntry { at, .. }
            | Finding::TypoRepaired { at, .. }
            | Finding::MissingMove { at, .. }
            | Finding::ExtraEntry { at, .. }
            | Finding::AmbiguousRepair { at, .. }
            | Finding::CheckMarkMismatch { at, .. }
            | Finding::DrawOffer { at }
            | Finding::DrawClaim { at, .. }
            | Finding::MixedNotation { at, .. }
            | Finding::MixedLetters { at, .. }
            | Finding::SearchBudget { at, .. }
            | Finding::CopiesDisagree { at, .. }
            | Finding::ArbiterDecision { at: Some(at), .. } => at.ply += before,
            Finding::IncompleteRecord { from, .. } => *from += before,
            _ => {}
        }
        f
    }

    /// What was written in the box, for findings about one move.
    pub fn written(&self) -> Option<&str> {
        self.parts().written
    }

    /// The move the program read in place of what was written.
    pub fn replacement(&self) -> Option<&str> {
        self.parts().replacement
    }

    /// The legal moves that fit, when the program could not choose (a
    /// `pairing-mismatch`'s nearest pairings).
    pub fn alternatives(&self) -> Vec<String> {
        self.parts().alternatives.into_owned()
    }

    /// For a repair: how much less likely the best different reading is, in nats
    /// (`None` when no other reading came close).
    pub fn margin(&self) -> Option<f32> {
        self.parts().margin.filter(|m| m.is_finite())
    }

    /// The fields of the report a finding fills, in one match with no
    /// catch-all: a new kind says here which it has.
    fn parts(&self) -> Parts<'_> {
        let none = Parts { at: None, written: None, replacement: None, alternatives: Cow::Borrowed(&[]), margin: None };
        match self {
            Finding::IllegalMove { at, written, .. }
            | Finding::NonAlgebraic { at, written, .. }
            | Finding::MovesAfterEnd { at, written, .. }
            | Finding::NumberingError { at, written } => Parts { at: Some(*at), written: Some(written), ..none },
            Finding::IllegibleEntry { at, written, replacement, margin }
            | Finding::TypoRepaired { at, written, replacement, margin } => Parts {
                at: Some(*at),
                written: Some(written),
                replacement: Some(replacement),
                margin: Some(*margin),
                ..none
            },
            Finding::MissingMove { at, replacement, margin } => {
                Parts { at: Some(*at), replacement: Some(replacement), margin: Some(*margin), ..none }
            }
            Finding::ExtraEntry { at, written, repeat: _, margin } => {
                Parts { at: Some(*at), written: Some(written), margin: Some(*margin), ..none }
            }
            Finding::AmbiguousRepair { at, written, replacement, alternatives, margin } => Parts {
                at: Some(*at),
                written: Some(written),
                replacement: Some(replacement),
                alternatives: Cow::Borrowed(alternatives),
                margin: Some(*margin),
            },
            Finding::CheckMarkMismatch { at, written, replacement } => {
                Parts { at: Some(*at), written: Some(written), replacement: Some(replacement), ..none }
            }
            Finding::LanguageInferred { .. }
            | Finding::UnknownLanguage { .. }
            | Finding::ResultMismatch { .. }
            | Finding::ResultMissing { .. }
            | Finding::IncompleteRecord { .. } => none,
            Finding::DrawOffer { at }
            | Finding::DrawClaim { at, .. }
            | Finding::MixedNotation { at, .. }
            | Finding::MixedLetters { at, .. } => Parts { at: Some(*at), ..none },
            Finding::DuplicateBoard { .. } => none,
            Finding::EncodingGuessed { .. }
            | Finding::InvisibleRemoved { .. }
            | Finding::MovesInNote { .. }
            | Finding::GameNotRead { .. }
            | Finding::ScorePrintedTwice { .. } => none,
            Finding::HeadersDropped { .. } | Finding::SetUpPosition { .. } => none,
            Finding::SearchBudget { at, written, unread: _ } => Parts { at: Some(*at), written: Some(written), ..none },
            Finding::PairingMismatch { candidates, .. } => {
                Parts { alternatives: candidates.iter().map(NamedPairing::as_reported).collect(), ..none }
            }
            Finding::PairingResultMismatch { .. } => none,
            Finding::ResultsDisagree { .. } | Finding::ResultFromPairings { .. } | Finding::BoardNumbered { .. } => {
                none
            }
            Finding::ColoursReversed { .. }
            | Finding::TwoGamesOneBoard { .. }
            | Finding::CopiesJoinedByMoves { .. } => none,
            Finding::CopiesDisagree { at, written, read, other_read, .. } => Parts {
                at: Some(*at),
                written: Some(written.as_reported()),
                replacement: Some(read.as_reported()),
                alternatives: Cow::Owned(vec![other_read.as_reported().to_string()]),
                ..none
            },
            Finding::ArbiterDecision { at, played, .. } => Parts { at: *at, replacement: played.as_deref(), ..none },
        }
    }
}

impl Finding {
    /// An arbiter's decision as the PGN comment at its move says it:
    /// `arbiter Ana López: 23...Bd6, copies disagreed`.
    pub fn decision(&self) -> Option<String> {
        self.decision_in(ReportLanguage::En)
    }

    /// [`Finding::decision`] in `lang`: `árbitro Ana López: 23...Bd6, las
    /// copias diferían`. The arbiter's own note is kept as written, cut at
    /// [`NOTE_CHARS`].
    pub fn decision_in(&self, lang: ReportLanguage) -> Option<String> {
        let Finding::ArbiterDecision { at, arbiter, played, why } = self else { return None };
        let m = lang.messages();
        let why = cut(&m.why(why), NOTE_CHARS).into_owned();
        Some(m.decision(&quoted(arbiter), at.as_ref().zip(played.as_deref()), &why))
    }

    /// A sentence for the arbiter, in English: what was written, what was
    /// read, why.
    pub fn message(&self) -> String {
        self.message_in(ReportLanguage::En)
    }

    /// A sentence for the arbiter in `lang`: what was written, what was
    /// read, why, and the rule. Moves stay in English SAN, as in the PGN.
    /// Said by `lang`'s table, from the finding's values; what was written
    /// is quoted short here, once for every language (the report's
    /// `written` keeps it whole).
    pub fn message_in(&self, lang: ReportLanguage) -> String {
        // One arm per kind, in one exhaustive match, so that a new kind cannot
        // go without its message: long, but each arm is one call.
        let m = lang.messages();
        let q = |w: &str| quoted(w).into_owned();
        match self {
            Finding::IllegalMove { at, written, fen, unread } => m.illegal_move(at, &q(written), fen, *unread),
            Finding::NonAlgebraic { at, written, read } => m.non_algebraic(at, &q(written), *read),
            Finding::MixedNotation { at, system, algebraic } => m.mixed_notation(at, *system, *algebraic),
            Finding::MixedLetters { at, own, other, moves } => m.mixed_letters(at, own, other, *moves),
            Finding::SetUpPosition { why } => m.set_up_position(why),
            Finding::IllegibleEntry { at, written, replacement, .. } => m.illegible_entry(at, &q(written), replacement),
            Finding::MissingMove { at, replacement, .. } => m.missing_move(at, replacement),
            Finding::ExtraEntry { at, written, repeat, .. } => m.extra_entry(at, &q(written), *repeat),
            Finding::TypoRepaired { at, written, replacement, .. } => m.typo_repaired(at, &q(written), replacement),
            Finding::AmbiguousRepair { at, written, replacement, alternatives, margin } => {
                let others: Vec<&str> = alternatives.iter().filter(|a| *a != replacement).map(String::as_str).collect();
                m.ambiguous_repair(at, &q(written), replacement, &others, *margin < 0.0)
            }
            Finding::MovesAfterEnd { at, written, ending } => m.moves_after_end(at, &q(written), *ending),
            Finding::CheckMarkMismatch { at, written, replacement } => {
                m.check_mark_mismatch(at, &q(written), replacement)
            }
            Finding::NumberingError { at, written } => m.numbering_error(at, &q(written)),
            Finding::LanguageInferred { code, name } => m.language_inferred(code, name),
            Finding::UnknownLanguage { given } => m.unknown_language(&q(given)),
            Finding::ResultMismatch { written, board, ending } => m.result_mismatch(*written, *board, *ending),
            Finding::DrawOffer { at } => m.draw_offer(at),
            Finding::DrawClaim { at, repetition } => m.draw_claim(at, *repetition),
            Finding::ResultMissing { moves, noted } => m.result_missing(*moves, *noted),
            Finding::IncompleteRecord { file, missing, from, other_ends, .. } => {
                let plausible = self.severity() == Severity::Info;
                m.incomplete_record(&q(file), *missing, *from, *other_ends, plausible)
            }
            Finding::DuplicateBoard { board, round, other, parted, stops } => {
                m.duplicate_board(&q(board), &q(round), &q(other), *parted, *stops)
            }
            Finding::EncodingGuessed { line } => m.encoding_guessed(*line),
            Finding::InvisibleRemoved { removed } => m.invisible_removed(removed),
            Finding::MovesInNote { line, ply } => m.moves_in_note(*line, *ply),
            Finding::ScorePrintedTwice { line } => m.score_printed_twice(*line),
            Finding::GameNotRead { line, why } => m.game_not_read(*line, why),
            Finding::HeadersDropped { dropped, first } => m.headers_dropped(*dropped, &q(first)),
            Finding::SearchBudget { at, written, unread } => m.search_budget(at, &q(written), *unread),
            Finding::PairingMismatch { written, found, candidates } => {
                m.pairing_mismatch(written, found.as_ref(), candidates)
            }
            Finding::PairingResultMismatch { written, pairing, at } => {
                m.pairing_result_mismatch(*written, *pairing, at)
            }
            Finding::ResultsDisagree { results } => {
                let results: Vec<(GameResult, ResultAt)> = results.iter().map(|(r, w)| (*r, w.quoted())).collect();
                m.results_disagree(&results)
            }
            Finding::ResultFromPairings { result, at, disagreed } => m.result_from_pairings(*result, at, *disagreed),
            Finding::BoardNumbered { written, pairing } => m.board_numbered(written, pairing),
            Finding::ColoursReversed { pairing } => m.colours_reversed(pairing),
            Finding::TwoGamesOneBoard { files, written, parted } => {
                m.two_games_one_board([&q(&files[0]), &q(&files[1])], [&written[0], &written[1]], *parted)
            }
            Finding::CopiesJoinedByMoves { files, written } => {
                m.copies_joined_by_moves([&q(&files[0]), &q(&files[1])], [&written[0], &written[1]])
            }
            Finding::CopiesDisagree { at, written, read, other_written, other_read, files } => m.copies_disagree(
                at,
                [&written.quoted(), &other_written.quoted()],
                [read, other_read],
                [&q(&files[0]), &q(&files[1])],
            ),
            Finding::ArbiterDecision { at, .. } => {
                m.arbiter_decision(at.as_ref(), &self.decision_in(lang).unwrap_or_default())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Round 2, board 3 of the TRF.
    fn navara() -> NamedPairing {
        NamedPairing { round: 2, board: 3, white: "Navara, David".into(), black: "Carlsen, Magnus".into() }
    }

    /// What a sheet of round 2 gives: its board, its White.
    fn sheet_pairing(board: u32, white: &str) -> SheetPairing {
        SheetPairing { round: Some(2), board: Some(board), white: white.into(), black: "?".into() }
    }

    /// One finding of each kind; `kinds_are_all_here` keeps the list whole.
    fn one_of_each() -> Vec<Finding> {
        let at = At { ply: 9, line: 3, col: 7 };
        let w = || "Cf8".to_string();
        let r = || "Nf3".to_string();
        vec![
            Finding::IllegalMove { at, written: w(), fen: "8/8/8/8/8/8/8/K6k w - - 0 1".into(), unread: 3 },
            Finding::NonAlgebraic { at, written: "P-K4".into(), read: None },
            Finding::IllegibleEntry { at, written: "?".into(), replacement: r(), margin: 4.0 },
            Finding::MissingMove { at, replacement: r(), margin: f32::INFINITY },
            Finding::ExtraEntry { at, written: w(), repeat: true, margin: 2.0 },
            Finding::ExtraEntry { at, written: w(), repeat: false, margin: 2.0 },
            Finding::TypoRepaired { at, written: w(), replacement: r(), margin: 3.0 },
            Finding::AmbiguousRepair {
                at,
                written: w(),
                replacement: r(),
                alternatives: vec![r(), "Nd2".into()],
                margin: -0.5,
            },
            Finding::MovesAfterEnd { at, written: w(), ending: Ending::FivefoldRepetition },
            Finding::CheckMarkMismatch { at, written: "Nf3+".into(), replacement: r() },
            Finding::NumberingError { at, written: w() },
            Finding::LanguageInferred { code: "es", name: "Spanish" },
            Finding::UnknownLanguage { given: "Klingon".into() },
            Finding::ResultMismatch {
                written: GameResult::WhiteWins,
                board: GameResult::Draw,
                ending: Ending::Stalemate,
            },
            Finding::DrawOffer { at },
            Finding::DrawClaim { at, repetition: true },
            Finding::IncompleteRecord {
                file: "b.csv".into(),
                missing: 15,
                from: 91,
                other_ends: true,
                other_sound: true,
                other_exact: false,
            },
            Finding::DuplicateBoard {
                board: "7".into(),
                round: "4".into(),
                other: "A - B".into(),
                parted: Some(23),
                stops: false,
            },
            Finding::EncodingGuessed { line: 2 },
            Finding::HeadersDropped { dropped: 3, first: "Sponsor".into() },
            Finding::SearchBudget { at, written: "Kh1".into(), unread: 120 },
            Finding::PairingMismatch { written: sheet_pairing(35, "?"), found: None, candidates: vec![navara()] },
            Finding::PairingResultMismatch { written: GameResult::WhiteWins, pairing: GameResult::Draw, at: navara() },
            Finding::ColoursReversed { pairing: navara() },
            Finding::CopiesDisagree {
                at,
                written: CopyEntry::Written("Dd3".into()),
                read: CopyMove::Move("Qd3".into()),
                other_written: CopyEntry::Written("Qc3".into()),
                other_read: CopyMove::Move("Qc3".into()),
                files: ["a.txt".into(), "b.csv".into()],
            },
            Finding::ResultsDisagree {
                results: vec![(GameResult::WhiteWins, ResultAt::Header), (GameResult::BlackWins, ResultAt::AfterMoves)],
            },
            Finding::ResultFromPairings { result: GameResult::Draw, at: navara(), disagreed: false },
            Finding::BoardNumbered { written: sheet_pairing(7, "Navara"), pairing: navara() },
            Finding::ArbiterDecision {
                at: Some(at),
                arbiter: "Ana López".into(),
                played: Some("Bd6".into()),
                why: Why::CopiesDisagreed,
            },
            Finding::NonAlgebraic { at, written: "P-K4".into(), read: Some((Notation::EnglishDescriptive, 40)) },
            Finding::MixedNotation { at, system: Notation::SpanishDescriptive, algebraic: 4 },
            Finding::ResultMissing { moves: 30, noted: false },
            Finding::IncompleteRecord {
                file: "b.csv".into(),
                missing: 50,
                from: 21,
                other_ends: true,
                other_sound: true,
                other_exact: false,
            },
            Finding::MixedLetters { at, own: "Spanish", other: "English", moves: 4 },
            Finding::SetUpPosition {
                why: crate::start::SetUpError::Unreadable {
                    fen: "8/8/8/8 w - - 0 1".into(),
                    why: "invalid fen".into(),
                },
            },
            Finding::MovesInNote { line: 5, ply: 39 },
            Finding::GameNotRead { line: 120, why: NotRead::TooLong { limit: 65536 } },
            Finding::ScorePrintedTwice { line: 3 },
            Finding::InvisibleRemoved {
                removed: crate::sheet::Invisible {
                    count: 3,
                    line: 2,
                    zero_width: true,
                    direction: true,
                    soft_hyphen: false,
                },
            },
            Finding::TwoGamesOneBoard {
                files: ["a.txt".into(), "b.txt".into()],
                written: [sheet_pairing(7, "Li, Wei"), sheet_pairing(7, "Li, Wen")],
                parted: 1,
            },
            Finding::CopiesJoinedByMoves {
                files: ["a.txt".into(), "b.txt".into()],
                written: [sheet_pairing(7, "Carlsen, M"), sheet_pairing(7, "Karlsen M")],
            },
        ]
    }

    #[test]
    fn kinds_are_all_here() {
        // A new kind fails to compile here: give it the next number, widen the
        // range below and add one of it to `one_of_each`.
        let kinds: Vec<u8> = one_of_each()
            .iter()
            .map(|f| match f {
                Finding::IllegalMove { .. } => 0,
                Finding::NonAlgebraic { .. } => 1,
                Finding::IllegibleEntry { .. } => 2,
                Finding::MissingMove { .. } => 3,
                Finding::ExtraEntry { .. } => 4,
                Finding::TypoRepaired { .. } => 5,
                Finding::AmbiguousRepair { .. } => 6,
                Finding::MovesAfterEnd { .. } => 7,
                Finding::CheckMarkMismatch { .. } => 8,
                Finding::NumberingError { .. } => 9,
                Finding::LanguageInferred { .. } => 10,
                Finding::UnknownLanguage { .. } => 11,
                Finding::ResultMismatch { .. } => 12,
                Finding::IncompleteRecord { .. } => 13,
                Finding::DuplicateBoard { .. } => 14,
                Finding::EncodingGuessed { .. } => 15,
                Finding::HeadersDropped { .. } => 16,
                Finding::SearchBudget { .. } => 17,
                Finding::PairingMismatch { .. } => 18,
                Finding::PairingResultMismatch { .. } => 19,
                Finding::ColoursReversed { .. } => 20,
                Finding::CopiesDisagree { .. } => 21,
                Finding::ArbiterDecision { .. } => 22,
                Finding::DrawOffer { .. } => 23,
                Finding::DrawClaim { .. } => 24,
                Finding::MixedNotation { .. } => 25,
                Finding::ResultMissing { .. } => 26,
                Finding::MixedLetters { .. } => 27,
                Finding::SetUpPosition { .. } => 28,
                Finding::MovesInNote { .. } => 29,
                Finding::GameNotRead { .. } => 30,
                Finding::ResultsDisagree { .. } => 31,
                Finding::ResultFromPairings { .. } => 32,
                Finding::BoardNumbered { .. } => 33,
                Finding::ScorePrintedTwice { .. } => 34,
                Finding::InvisibleRemoved { .. } => 35,
                Finding::TwoGamesOneBoard { .. } => 36,
                Finding::CopiesJoinedByMoves { .. } => 37,
            })
            .collect();
        assert!((0..38).all(|k| kinds.contains(&k)));
    }

    #[test]
    fn codes_are_distinct_kebab_case_words() {
        let mut codes: Vec<&str> = one_of_each().iter().map(Finding::code).collect();
        codes.dedup(); // the two extra entries
        let by_moves = codes.pop();
        let two_games = codes.pop();
        let invisible = codes.pop();
        let twice = codes.pop();
        let not_read = codes.pop();
        let moves_in_note = codes.pop();
        let set_up = codes.pop();
        codes.pop(); // mixed-notation again, of letters
        codes.pop(); // a second incomplete-record, a warning
        codes.remove(codes.len() - 3); // a second non-algebraic-notation, read
        codes.extend(set_up);
        codes.extend(moves_in_note);
        codes.extend(not_read);
        codes.extend(twice);
        codes.extend(invisible);
        codes.extend(two_games);
        codes.extend(by_moves);
        for c in &codes {
            assert!(c.split('-').all(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_lowercase())), "{c}");
        }
        let n = codes.len();
        codes.sort();
        codes.dedup();
        assert_eq!(codes.len(), n, "two kinds share a code");
    }

    #[test]
    fn a_finding_about_a_move_says_where_in_its_message() {
        for f in one_of_each() {
            let m = f.message();
            match f.at() {
                Some(at) => assert!(m.starts_with(&format!("move {} (line 3, column 7): ", at.move_label())), "{m}"),
                None => assert!(!m.starts_with("move "), "{m}"),
            }
            if let Some(w) = f.written() {
                assert!(m.contains(w), "{m} does not quote {w}");
            }
            if let Some(r) = f.replacement() {
                assert!(m.contains(r), "{m} does not name {r}");
            }
        }
    }

    #[test]
    fn every_kind_has_a_spanish_message_that_says_where_and_what() {
        for f in one_of_each() {
            let (en, es) = (f.message(), f.message_in(ReportLanguage::Es));
            assert_eq!(en, f.message_in(ReportLanguage::En));
            assert_ne!(es, en, "{}: no Spanish", f.code());
            match f.at() {
                Some(at) => {
                    assert!(es.starts_with(&format!("jugada {} (línea 3, columna 7): ", at.move_label())), "{es}")
                }
                None => assert!(!es.starts_with("jugada "), "{es}"),
            }
            if let Some(w) = f.written() {
                assert!(es.contains(&format!("\"{w}\"")), "{es} does not quote {w}");
            }
            if let Some(r) = f.replacement() {
                assert!(es.contains(r), "{es} does not name {r}");
            }
            for word in [" move ", "written", "the game", " read "] {
                assert!(!es.contains(word), "{}: English left in {es}", f.code());
            }
        }
        let typo = &one_of_each()[6];
        assert_eq!(
            typo.message_in(ReportLanguage::Es),
            "jugada 5. (línea 3, columna 7): escrito \"Cf8\", leído como Nf3: la única jugada legal que encaja"
        );
    }

    #[test]
    fn the_rules_are_named_in_both_languages() {
        let all = one_of_each();
        let rules = [
            (13, "Art. 5.2.1"),
            (15, "Art. 9.2"),
            (16, "Art. 8.4"),
            (31, "Art. 8.7"),
            (31, "Art. 8.4"),
            (32, "Art. 8.1"),
            (25, "Art. 8.7"),
            (8, "Art. 9.6.1"),
        ];
        for (i, rule) in rules {
            for lang in ReportLanguage::ALL {
                let m = all[i].message_in(lang);
                assert!(m.contains(rule), "{lang:?} {}: {m}", all[i].code());
            }
        }
        let read = all[29].message_in(ReportLanguage::Es);
        assert!(read.contains("Apéndice C") && read.contains("descriptiva inglesa"), "{read}");
        let incomplete = all[16].message_in(ReportLanguage::Es);
        assert!(incomplete.starts_with("b.csv: a la planilla le faltan 15 jugadas"), "{incomplete}");
        assert!(all[16].message().contains("from move 46. on"), "{}", all[16].message());
        assert_eq!(all[16].severity(), Severity::Info, "the last moves of a long game, Art. 8.4");
        assert_eq!(all[32].severity(), Severity::Warning, "a copy that stops at move 10");
        let decision = all[28].message_in(ReportLanguage::Es);
        assert!(decision.contains("árbitro Ana López: 5.Bd6, las copias diferían"), "{decision}");
        let pairing = all[21].message_in(ReportLanguage::Es);
        assert!(pairing.contains("ronda 2, tablero 35") && pairing.contains("ronda 2, tablero 3: Navara"), "{pairing}");
        assert_eq!(ReportLanguage::from_code("es"), Some(ReportLanguage::Es));
        assert_eq!(ReportLanguage::from_code("fr"), None);
    }

    /// Every way an arbiter's decision can give its reason.
    fn every_why() -> Vec<Why> {
        vec![
            Why::Note("la otra copia lo confirma".into()),
            Why::CopiesDisagreed,
            Why::SheetAmbiguous,
            Why::Doubt("illegal-move"),
            Why::Decided,
            Why::Accepted,
            Why::DoubtAccepted("ambiguous-repair"),
            Why::Rejected("hoja rota".into()),
            Why::Result(GameResult::Draw),
        ]
    }

    /// Findings whose messages have parts `one_of_each` does not show: a
    /// copy with no entry there or none left, each reason of a decision.
    fn more_of_each() -> Vec<Finding> {
        let at = At { ply: 9, line: 3, col: 7 };
        let mut more = vec![Finding::CopiesDisagree {
            at,
            written: CopyEntry::NotWritten,
            read: CopyMove::Move("Qd3".into()),
            other_written: CopyEntry::Ended,
            other_read: CopyMove::GameEnds,
            files: ["a.txt".into(), "b.csv".into()],
        }];
        for why in every_why() {
            let played = Some("Bd6".to_string());
            more.push(Finding::ArbiterDecision {
                at: Some(at), arbiter: "Ana López".into(), played, why: why.clone()
            });
            more.push(Finding::ArbiterDecision { at: None, arbiter: "Ana López".into(), played: None, why });
        }
        more
    }

    /// The words of a finding's English message that are its template's,
    /// not its values': three letters or more, in no quoted value of the
    /// finding (a name, what was written, a file), and not one that both
    /// languages spell alike (a tag, a Law's abbreviation, an example of a
    /// notation).
    fn template_words(f: &Finding, en: &str) -> Vec<String> {
        const SHARED: [&str; 14] = [
            "art", "fide", "iccf", "fen", "result", "variant", "windows", "utf", "final", "legal", "bytes", "chess960",
            "car3", "mate",
        ];
        let debug = format!("{f:?}");
        let values: Vec<&str> = debug.split('"').skip(1).step_by(2).collect();
        let words = |t: &str| -> Vec<String> {
            t.split(|c: char| !c.is_alphanumeric()).filter(|w| w.chars().count() >= 3).map(str::to_lowercase).collect()
        };
        let values: Vec<String> = values.iter().flat_map(|v| words(v)).collect();
        let mut out = words(en);
        out.retain(|w| !values.contains(w) && !SHARED.contains(&w.as_str()) && !w.chars().all(|c| c.is_ascii_digit()));
        out
    }

    #[test]
    fn every_language_says_every_kind_in_its_own_words() {
        // A table that lacks a kind does not compile; this catches one that
        // says nothing, or says it with the English template's words.
        for f in one_of_each().into_iter().chain(more_of_each()) {
            let en = f.message_in(ReportLanguage::En);
            let template = template_words(&f, &en);
            for lang in ReportLanguage::ALL {
                let m = f.message_in(lang);
                assert!(!m.trim().is_empty(), "{lang:?} {}: no message", f.code());
                if lang == ReportLanguage::En {
                    continue;
                }
                let words: Vec<String> = template_words(&f, &m);
                let left: Vec<&String> = template.iter().filter(|w| words.contains(w)).collect();
                assert!(left.is_empty(), "{lang:?} {}: English {left:?} left in {m}", f.code());
            }
        }
        for lang in ReportLanguage::ALL {
            let third = lang.third_copy(&["a.txt", "b.txt"]);
            assert!(third.contains("a.txt") && third.contains("b.txt"), "{lang:?}: {third}");
            if lang != ReportLanguage::En {
                assert!(!third.contains(" and ") && !third.contains("copy"), "{lang:?}: {third}");
            }
        }
    }

    #[test]
    fn a_decision_gives_its_reason_in_the_report_language_and_the_note_as_written() {
        let decided = |why: Why| Finding::ArbiterDecision { at: None, arbiter: "Ana".into(), played: None, why };
        let said: Vec<[String; 2]> = every_why()
            .into_iter()
            .map(|why| ReportLanguage::ALL.map(|l| decided(why.clone()).decision_in(l).unwrap_or_default()))
            .collect();
        assert_eq!(said[0], ["arbiter Ana: la otra copia lo confirma", "árbitro Ana: la otra copia lo confirma"]);
        assert_eq!(said[3], ["arbiter Ana: illegal move", "árbitro Ana: jugada en duda (illegal-move)"]);
        assert_eq!(said[5], ["arbiter Ana: accepted", "árbitro Ana: aceptada"]);
        assert_eq!(said[6], ["arbiter Ana: ambiguous repair accepted", "árbitro Ana: aceptado (ambiguous-repair)"]);
        assert_eq!(said[7], ["arbiter Ana: rejected: hoja rota", "árbitro Ana: rechazada: hoja rota"]);
        assert_eq!(said[8], ["arbiter Ana: result 1/2-1/2", "árbitro Ana: resultado 1/2-1/2"]);
        // A note that reads like the program's own words stays the arbiter's.
        let note = decided(Why::Note("accepted".into())).decision_in(ReportLanguage::Es);
        assert_eq!(note.as_deref(), Some("árbitro Ana: accepted"));
        let long = decided(Why::Note("n".repeat(NOTE_CHARS + 5))).decision_in(ReportLanguage::Es).unwrap_or_default();
        assert!(long.ends_with(&format!("{}…", "n".repeat(10))) && long.chars().count() < NOTE_CHARS + 20);
    }

    #[test]
    fn a_copy_without_an_entry_is_said_in_each_language_and_reported_as_ever() {
        let f = &more_of_each()[0];
        assert_eq!(f.written(), Some("(not written)"));
        assert_eq!(f.replacement(), Some("Qd3"));
        assert_eq!(f.alternatives(), ["the game ending here"]);
        let es = f.message_in(ReportLanguage::Es);
        assert!(
            es.contains("a.txt tiene \"(no anotada)\" (Qd3), b.csv tiene \"(nada más)\" (la partida termina aquí)"),
            "{es}"
        );
        let en = f.message();
        assert!(
            en.contains("a.txt has \"(not written)\" (Qd3), b.csv has \"(nothing more)\" (the game ending here)"),
            "{en}"
        );
    }

    #[test]
    fn a_sheets_long_names_are_cut_at_the_same_letter_in_every_language() {
        let long = "Navara-Fernández de la Vega, David Alejandro";
        let written = SheetPairing { round: Some(2), board: Some(35), white: long.into(), black: "?".into() };
        let f = Finding::PairingMismatch { written, found: None, candidates: Vec::new() };
        let en = f.message();
        assert!(en.contains("(round 2, board 35, Navara-Fernández de l…)"), "{en}");
        let es = f.message_in(ReportLanguage::Es);
        assert!(es.contains("(ronda 2, tablero 35, Navara-Fernández de l…)"), "{es}");
        // The nearest pairings, as the report lists them, are the same in every language.
        let near =
            Finding::PairingMismatch { written: sheet_pairing(35, "?"), found: None, candidates: vec![navara()] };
        assert_eq!(near.alternatives(), ["round 2, board 3: Navara, David - Carlsen, Magnus"]);
    }

    #[test]
    fn repairs_report_a_finite_margin_only() {
        let margins: Vec<Option<f32>> = one_of_each().iter().map(Finding::margin).collect();
        assert_eq!(margins[2], Some(4.0));
        assert_eq!(margins[3], None, "an infinite margin: no other reading came close");
        assert_eq!(margins[7], Some(-0.5));
        assert_eq!(margins[0], None);
        assert_eq!(one_of_each()[7].alternatives(), ["Nf3", "Nd2"]);
    }

    #[test]
    fn a_long_entry_is_quoted_short_in_every_message() {
        let long = "Cf3".repeat(400_000);
        let cut: String = long.chars().take(QUOTED_CHARS).collect();
        for f in one_of_each() {
            let mut f = f;
            match &mut f {
                Finding::IllegalMove { written, .. }
                | Finding::NonAlgebraic { written, .. }
                | Finding::IllegibleEntry { written, .. }
                | Finding::ExtraEntry { written, .. }
                | Finding::TypoRepaired { written, .. }
                | Finding::AmbiguousRepair { written, .. }
                | Finding::MovesAfterEnd { written, .. }
                | Finding::CheckMarkMismatch { written, .. }
                | Finding::NumberingError { written, .. } => *written = long.clone(),
                Finding::UnknownLanguage { given } => *given = long.clone(),
                Finding::HeadersDropped { first, .. } => *first = long.clone(),
                Finding::CopiesDisagree { written, .. } => *written = CopyEntry::Written(long.clone()),
                _ => continue,
            }
            for lang in ReportLanguage::ALL {
                let m = f.message_in(lang);
                assert!(m.contains(&format!("\"{cut}…\"")), "{}: {}", f.code(), &m[..m.len().min(200)]);
                assert!(m.chars().count() < 400, "{}: {} characters", f.code(), m.chars().count());
            }
        }
        assert_eq!(quoted("Cf3"), "Cf3");
        let exact: String = "é".repeat(QUOTED_CHARS);
        assert_eq!(quoted(&exact), exact, "as long as allowed: not cut");
    }

    #[test]
    fn severities() {
        use Severity::*;
        let sev: Vec<Severity> = one_of_each().iter().map(Finding::severity).collect();
        assert_eq!(
            sev,
            [
                Error, Error, Info, Info, Info, Warning, Info, Warning, Warning, Info, Info, Info, Info, Error, Info,
                Info, Info, Warning, Info, Warning, Warning, Warning, Error, Warning, Warning, Error, Info, Info, Info,
                Warning, Warning, Warning, Warning, Warning, Error, Warning, Error, Info, Info, Warning, Info
            ]
        );
    }

    #[test]
    fn only_doubts_about_the_moves_the_result_or_the_game_send_it_to_review() {
        let doubts: Vec<&str> = one_of_each().iter().filter(|f| f.is_doubt()).map(Finding::code).collect();
        assert_eq!(
            doubts,
            [
                "illegal-move",
                "non-algebraic-notation",
                "extra-entry",
                "ambiguous-repair",
                "moves-after-end",
                "result-mismatch",
                "duplicate-board",
                "search-budget",
                "pairing-mismatch",
                "pairing-result-mismatch",
                "colours-reversed",
                "copies-disagree",
                "results-disagree",
                "incomplete-record",
                "set-up-position",
                "moves-in-note",
                "game-not-read",
                "two-games-one-board",
            ]
        );
        // Told, and published with the game: Appendix C's warning, two
        // notations, a result not written, a board numbered otherwise, draws
        // claimed or offered; a copy that stops in the last moves of a long
        // game where the other goes on (Art. 8.4).
        let notices = ["result-missing", "mixed-notation", "board-numbered", "draw-claim", "draw-offer"];
        assert!(one_of_each().iter().filter(|f| notices.contains(&f.code())).all(|f| !f.is_doubt()));
        let read = one_of_each().into_iter().find(|f| matches!(f, Finding::NonAlgebraic { read: Some(_), .. }));
        assert!(read.is_some_and(|f| !f.is_doubt()), "descriptive notation read: Appendix C's notice");
        // A printed score's note after the last move may hold more of it.
        assert!(Finding::ResultMissing { moves: 30, noted: true }.is_doubt());
        let stop = |from, other_sound, other_exact| Finding::IncompleteRecord {
            file: "b.csv".into(),
            missing: 5,
            from,
            other_ends: true,
            other_sound,
            other_exact,
        };
        assert!(!stop(91, true, false).is_doubt(), "the last moves of a long game, Art. 8.4");
        assert!(stop(91, false, false).is_doubt(), "the other copy's last entry written twice");
        // A copy that stops early: its moves are the other copy's alone,
        // in doubt unless that copy writes each exactly.
        assert!(stop(21, true, false).is_doubt(), "a slip only one copy has, the other stopped early");
        assert!(!stop(21, true, true).is_doubt(), "the other copy has the moves, each written exactly");
        assert!(stop(21, false, true).is_doubt(), "the other copy's last entry written twice");
    }
}
