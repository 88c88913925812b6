//! What the program found in a game that a person may need to know. One typed
//! enum; the stable code, the severity, the weight, the message and the
//! fields of the report derive from it.
//!
//! The weight is the routing rule: a finding that puts the record in doubt
//! (which move was played, or which result) sends its game to review; every
//! other finding is a notice, which goes with the published game.
//!
//! Each is one `match` with no catch-all arm ([`Finding::code`],
//! [`Finding::severity`], [`Finding::weight`], [`Finding::message`] and the
//! report's fields), so a new kind of finding does not compile until it has
//! all of them. The JSON
//! report ([`crate::emit::report`]) and the PGN comments (`crate::emit::pgn`)
//! render every kind alike from these.

use serde::Serialize;

use crate::sheet::GameResult;

/// Where in the game and the file a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct At {
    /// Half-move, 1 = White's first move.
    pub ply: u32,
    /// 1-based line and column of the entry in the file (0 when not from an entry).
    pub line: usize,
    pub col: usize,
}

impl At {
    /// The move as a person names it: `9.` for White's ninth, `9...` for Black's.
    pub fn move_label(&self) -> String {
        let n = self.ply.div_ceil(2);
        if self.ply % 2 == 1 { format!("{n}.") } else { format!("{n}...") }
    }
}

/// The move-level fields of a finding, as the report shows them.
struct Parts<'a> {
    at: Option<At>,
    written: Option<&'a str>,
    replacement: Option<&'a str>,
    alternatives: &'a [String],
    /// The margin as stored; [`Finding::margin`] leaves out an infinite one.
    margin: Option<f32>,
}

/// Why a game of a collection was not read at all ([`Finding::GameNotRead`]).
#[derive(Debug, Clone, PartialEq)]
pub enum NotRead {
    /// Over the size a game may take, in bytes.
    TooLong { limit: usize },
    /// Bytes that are not text in any encoding a sheet is typed in.
    NotText,
    /// Text the reader cannot take (a tag that is not one): what it says.
    Malformed(String),
    /// The file could not be read from any further (the system's words).
    Io(String),
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

    /// The language of an ISO code (`en`, `es`).
    pub fn from_code(code: &str) -> Option<ReportLanguage> {
        Self::ALL.into_iter().find(|l| l.code() == code)
    }
}

/// Why the final position ends the game, with its Law (Art. 5, 9.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// Art. 5.1.1.
    Checkmate,
    /// Art. 5.2.1.
    Stalemate,
    /// Neither side can checkmate with the material left (Art. 5.2.2).
    NoMate,
    /// The same position on the board for the fifth time (Art. 9.6.1): a
    /// draw without a claim.
    FivefoldRepetition,
    /// 75 moves by each player without a capture or a pawn move (Art.
    /// 9.6.2): a draw without a claim, unless the last of them mates.
    SeventyFiveMoves,
}

impl Ending {
    /// The ending and its Law, in `lang`.
    pub fn said(self, lang: ReportLanguage) -> &'static str {
        match (self, lang) {
            (Ending::Checkmate, ReportLanguage::En) => "checkmate, Art. 5.1.1",
            (Ending::Checkmate, ReportLanguage::Es) => "jaque mate, Art. 5.1.1",
            (Ending::Stalemate, ReportLanguage::En) => "stalemate, Art. 5.2.1",
            (Ending::Stalemate, ReportLanguage::Es) => "rey ahogado, Art. 5.2.1",
            (Ending::NoMate, ReportLanguage::En) => "neither side can checkmate, Art. 5.2.2",
            (Ending::NoMate, ReportLanguage::Es) => "ningún bando puede dar mate, Art. 5.2.2",
            (Ending::FivefoldRepetition, ReportLanguage::En) => {
                "the same position for the fifth time, a draw without a claim, Art. 9.6.1"
            }
            (Ending::FivefoldRepetition, ReportLanguage::Es) => {
                "la misma posición por quinta vez, tablas sin reclamación, Art. 9.6.1"
            }
            (Ending::SeventyFiveMoves, ReportLanguage::En) => {
                "75 moves by each player without a capture or a pawn move, a draw without a claim, Art. 9.6.2"
            }
            (Ending::SeventyFiveMoves, ReportLanguage::Es) => {
                "75 jugadas de cada jugador sin captura ni movimiento de peón, tablas sin reclamación, Art. 9.6.2"
            }
        }
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
    /// `CAR3`). With `read`, it was read (in that system: so many moves),
    /// and the sheet cannot serve as evidence (Appendix C); without, its
    /// language has no descriptive system known and the game is kept up to
    /// there.
    NonAlgebraic { at: At, written: String, read: Option<(&'static str, u32)> },
    /// The sheet mixes notations: algebraic up to `at`'s move, descriptive
    /// (in `system`) from there.
    MixedNotation { at: At, system: &'static str, algebraic: u32 },
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
    /// another board than the sheet gives (`found`). `written` says what the
    /// sheet gives: round, board, players.
    PairingMismatch { written: String, found: Option<String>, candidates: Vec<String> },
    /// The result written differs from the TRF's result for the game's pairing.
    PairingResultMismatch { written: GameResult, pairing: GameResult, at: String },
    /// The record gives different results (`results`: each with where it is
    /// written, a header, the moves' end or a copy's file), and no pairing
    /// settles which: the arbiter establishes the result (Art. 8.7).
    ResultsDisagree { results: Vec<(GameResult, String)> },
    /// The result is the pairings' (`at`: the pairing): no result was
    /// written (`disagreed` false), or the copies or the sheet's header and
    /// moves gave different results and the pairings' is one of them.
    ResultFromPairings { result: GameResult, at: String, disagreed: bool },
    /// The sheet numbers its board otherwise than the pairings, in the
    /// TRF's order, number its players' game (`pairing`): the game is
    /// published on the TRF's board, so that every game of the round,
    /// whether its sheet writes a board or not, is numbered one way.
    BoardNumbered { written: String, pairing: String },
    /// The sheet's White is the pairing's Black: the colours are reversed.
    ColoursReversed { pairing: String },
    /// The two copies of the game (the players' two scoresheets) are both
    /// legible here and say different moves, and the rest of the game does
    /// not tell which is right: `written` and `read` are the first file's
    /// entry and move, `other_written` and `other_read` the second's.
    CopiesDisagree {
        at: At,
        written: String,
        read: String,
        other_written: String,
        other_read: String,
        files: [String; 2],
    },
    /// An arbiter decided this move: accepted the reading, picked an
    /// alternative, or typed the move (`why`: the doubt it settled, or the
    /// arbiter's note).
    /// The whole game's decision (accepted as read, rejected) has no `at`.
    ArbiterDecision { at: Option<At>, arbiter: String, played: Option<String>, why: String },
}

/// The most characters of what was written that a message quotes; longer
/// text is cut, with "…". A box or a header holds a few words: a message
/// quoting a 1 MB entry whole would be a 1 MB line in the PGN and on the
/// console. The report's `written` keeps the whole entry.
pub const QUOTED_CHARS: usize = 40;

/// The most characters of an arbiter's note or reason a decision keeps: a
/// reason is the arbiter's own words, kept whole (a form's body and a
/// decision file are bounded well below this anyway).
pub const NOTE_CHARS: usize = 2000;

/// `text` as a message quotes it: at most [`QUOTED_CHARS`] characters, then "…".
pub(crate) fn quoted(text: &str) -> std::borrow::Cow<'_, str> {
    cut(text, QUOTED_CHARS)
}

/// At most `max` characters of `text`, then "…" where it was cut.
pub(crate) fn cut(text: &str, max: usize) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &text[..at]).into(),
        None => text.into(),
    }
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
            Finding::ColoursReversed { .. } => Severity::Warning,
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

    /// The legal moves that fit, when the program could not choose.
    pub fn alternatives(&self) -> &[String] {
        self.parts().alternatives
    }

    /// For a repair: how much less likely the best different reading is, in nats
    /// (`None` when no other reading came close).
    pub fn margin(&self) -> Option<f32> {
        self.parts().margin.filter(|m| m.is_finite())
    }

    /// The fields of the report a finding fills, in one match with no
    /// catch-all: a new kind says here which it has.
    fn parts(&self) -> Parts<'_> {
        let none = Parts { at: None, written: None, replacement: None, alternatives: &[], margin: None };
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
                alternatives,
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
            Finding::PairingMismatch { candidates, .. } => Parts { alternatives: candidates, ..none },
            Finding::PairingResultMismatch { .. } => none,
            Finding::ResultsDisagree { .. } | Finding::ResultFromPairings { .. } | Finding::BoardNumbered { .. } => {
                none
            }
            Finding::ColoursReversed { .. } => none,
            Finding::CopiesDisagree { at, written, read, other_read, .. } => Parts {
                at: Some(*at),
                written: Some(written),
                replacement: Some(read),
                alternatives: std::slice::from_ref(other_read),
                ..none
            },
            Finding::ArbiterDecision { at, played, .. } => Parts { at: *at, replacement: played.as_deref(), ..none },
        }
    }

    /// An arbiter's decision as the PGN comment at its move says it:
    /// `arbiter Ana López: 23...Bd6, copies disagreed`.
    pub fn decision(&self) -> Option<String> {
        self.decision_in(ReportLanguage::En)
    }

    /// [`Finding::decision`] in `lang`: `árbitro Ana López: 23...Bd6, las
    /// copias diferían`. The arbiter's own note is kept as written.
    pub fn decision_in(&self, lang: ReportLanguage) -> Option<String> {
        let Finding::ArbiterDecision { at, arbiter, played, why } = self else { return None };
        let q = |w: &str| quoted(w).into_owned();
        let note = |w: &str| cut(w, NOTE_CHARS).into_owned();
        let (who, why) = match lang {
            ReportLanguage::En => ("arbiter", note(why)),
            ReportLanguage::Es => ("árbitro", note(&why_es(why))),
        };
        Some(match (at, played) {
            (Some(at), Some(played)) => format!("{who} {}: {}{played}, {why}", q(arbiter), at.move_label()),
            _ => format!("{who} {}: {why}", q(arbiter)),
        })
    }

    /// A sentence for the arbiter, in English: what was written, what was
    /// read, why.
    pub fn message(&self) -> String {
        self.message_in(ReportLanguage::En)
    }

    /// A sentence for the arbiter in `lang`: what was written, what was
    /// read, why, and the rule. Moves stay in English SAN, as in the PGN.
    pub fn message_in(&self, lang: ReportLanguage) -> String {
        match lang {
            ReportLanguage::En => self.message_en(),
            ReportLanguage::Es => self.message_es(),
        }
    }

    /// [`Finding::message`].
    fn message_en(&self) -> String {
        // One arm per kind, in one exhaustive match, so that a new kind cannot
        // go without its sentence: long, but each arm is one sentence. What
        // was written is quoted short; the report's `written` keeps it whole.
        let q = |w: &str| quoted(w).into_owned();
        match self {
            Finding::IllegalMove { at, written, fen, unread } => {
                let written = q(written);
                format!(
                    "{}: \"{written}\" fits no legal move here; the game is kept up to this point, the last position \
                     the record supports ({fen}); the {} from here on cannot be reconstructed",
                    label(at),
                    count_en(*unread, "entry", "entries")
                )
            }
            Finding::NonAlgebraic { at, written, read: None } => format!(
                "{}: from \"{}\" on the record is in descriptive notation (P-K4, CAR3), which is not \
                 read in this language; the game is kept up to this point",
                label(at),
                q(written)
            ),
            Finding::NonAlgebraic { at, written, read: Some((system, moves)) } => format!(
                "{}: from \"{}\" on the record is in {system} notation ({moves} moves), read as such; FIDE \
                 recognises only algebraic notation (Appendix C): this sheet cannot serve as evidence, and \
                 the player must be told to record in algebraic notation",
                label(at),
                q(written)
            ),
            Finding::IllegibleEntry { at, written, replacement, .. } => {
                let written = q(written);
                format!(
                    "{}: written \"{written}\" (illegible), read as {replacement}: the only move the rest of the game allows",
                    label(at)
                )
            }
            Finding::MissingMove { at, replacement, .. } => {
                format!("{}: no move written, read as {replacement}: the rest of the game needs it", label(at))
            }
            Finding::ExtraEntry { at, written, repeat: true, .. } => {
                let written = q(written);
                format!("{}: written \"{written}\" twice; the second is left out", label(at))
            }
            Finding::ExtraEntry { at, written, repeat: false, .. } => {
                let written = q(written);
                format!("{}: written \"{written}\", which fits no move of the game here; left out", label(at))
            }
            Finding::TypoRepaired { at, written, replacement, .. } => {
                let written = q(written);
                format!("{}: written \"{written}\", read as {replacement}: the only legal move that fits", label(at))
            }
            Finding::AmbiguousRepair { at, written, replacement, alternatives, margin } => {
                ambiguous_message(at, &q(written), replacement, alternatives, *margin)
            }
            Finding::MovesAfterEnd { at, written, ending } => {
                let written = q(written);
                format!(
                    "{}: \"{written}\" is written after the game had ended ({})",
                    label(at),
                    ending.said(ReportLanguage::En)
                )
            }
            Finding::CheckMarkMismatch { at, written, replacement } => {
                let written = q(written);
                format!("{}: written \"{written}\", but {replacement} gives no such check or mate", label(at))
            }
            Finding::NumberingError { at, written } => {
                let written = q(written);
                format!("{}: the move number written before \"{written}\" does not follow", label(at))
            }
            Finding::LanguageInferred { code, name } => format!("piece letters read as {name} ({code})"),
            Finding::UnknownLanguage { given } => {
                format!("unknown language \"{}\"; the language was inferred from the moves", q(given))
            }
            Finding::ResultMismatch { written, board, ending } => format!(
                "the result written is {} but the final position gives {} ({}); the result written is kept \
                 until an arbiter decides",
                written.as_pgn(),
                board.as_pgn(),
                ending.said(ReportLanguage::En)
            ),
            Finding::MixedNotation { at, system, algebraic } => format!(
                "{}: the sheet mixes notations: algebraic for the first {algebraic} moves, {system} from here",
                label(at)
            ),
            Finding::MixedLetters { at, own, other, moves } => format!(
                "{}: the sheet mixes two languages' piece letters: {own}, and from here {moves} moves in {other} \
                 letters; each were read as such, but a record keeps to one set of letters (Appendix C)",
                label(at)
            ),
            Finding::DrawOffer { at } => {
                format!("{}: the player offered a draw with this move, (=) (Art. 9.1.2)", label(at))
            }
            Finding::DrawClaim { at, repetition: true } => format!(
                "{}: the game was recorded as a draw where it could be claimed: the final position stood \
                 on the board for the third time (Art. 9.2)",
                label(at)
            ),
            Finding::DrawClaim { at, repetition: false } => format!(
                "{}: the game was recorded as a draw where it could be claimed: fifty moves by each side \
                 without a capture or a pawn move (Art. 9.3)",
                label(at)
            ),
            Finding::ResultMissing { moves, noted } => format!(
                "no result is written and the final position, after move {moves}, is not an ending of the game: \
                 the arbiter must establish the result (the players record the result and sign the scoresheets, \
                 Art. 8.7); the record may have stopped early (a player with less than five minutes may stop \
                 recording, Art. 8.4){}; the result is left as *",
                if *noted { "; a note follows the last move, and the score may go on in it" } else { "" }
            ),
            Finding::IncompleteRecord { .. } => incomplete_message(self, ReportLanguage::En),
            Finding::DuplicateBoard { board, round, other, parted, stops } => {
                duplicate_board_message(&q(board), &q(round), &q(other), *parted, *stops)
            }
            Finding::ScorePrintedTwice { line } => format!(
                "the moves from line {line} are this game's first moves printed once more; they are read as this \
                 game, not as a game of their own"
            ),
            Finding::MovesInNote { line, ply } => format!(
                "the score stops and a note below it (line {line}) goes on with the game from {}: the moves \
                 from there are read from the note; check that the game went on so",
                At { ply: *ply, line: 0, col: 0 }.move_label()
            ),
            Finding::GameNotRead { line, why } => match why {
                NotRead::TooLong { limit } => {
                    format!("the game from line {line} is not read: it is over {limit} bytes")
                }
                NotRead::NotText => format!("the game from line {line} is not read: its bytes are not text"),
                NotRead::Malformed(m) => format!("the game from line {line} is not read: {m}"),
                NotRead::Io(e) => format!("the file could not be read on from line {line}: {e}"),
            },
            Finding::EncodingGuessed { line } => format!(
                "the file is not all UTF-8 (from line {line}): the lines that are not were read as Windows-1252; \
                 check the accented letters of names (a file saved as UTF-8 is read without a guess)"
            ),
            Finding::InvisibleRemoved { removed } => format!(
                "{} invisible characters ({}) were dropped as the file was read, the first on line {}: they would \
                 stay in names and make moves unreadable",
                removed.count,
                invisible_kinds(removed, ReportLanguage::En),
                removed.line
            ),
            Finding::SetUpPosition { why } => format!(
                "the sheet's starting position cannot be used ({why}): no move is read, as from the standard \
                 start they would not be the game's; the arbiter must establish the position and the game"
            ),
            Finding::HeadersDropped { dropped, first } => format!(
                "the sheet has {} header fields; the first {} are kept, the other {dropped} left out (the first \
                 of them \"{}\")",
                dropped + crate::sheet::MAX_HEADERS,
                crate::sheet::MAX_HEADERS,
                q(first)
            ),
            Finding::SearchBudget { at, written, unread } => search_budget_message(at, &q(written), *unread),
            Finding::PairingMismatch { written, found, candidates } => {
                pairing_mismatch_message(&q(written), found.as_deref(), candidates)
            }
            Finding::PairingResultMismatch { written, pairing, at } => format!(
                "the result written is {} but the pairings file gives {} ({at})",
                written.as_pgn(),
                pairing.as_pgn()
            ),
            Finding::ResultsDisagree { results } => format!(
                "the record gives different results: {}; the arbiter establishes the result (Art. 8.7); the \
                 result is left as *",
                results_said(results, ReportLanguage::En)
            ),
            Finding::ResultFromPairings { result, at, disagreed: false } => {
                format!("no result is written: the result is the pairings', {} ({at})", result.as_pgn())
            }
            Finding::ResultFromPairings { result, at, disagreed: true } => format!(
                "the record gives different results: the pairings' is one of them and is taken, {} ({at})",
                result.as_pgn()
            ),
            Finding::BoardNumbered { written, pairing } => format!(
                "the sheet gives {}; the pairings, in the order of the pairings file, put these players at \
                 {pairing}: published on that board, so that the round's boards are numbered one way",
                q(written)
            ),
            Finding::ColoursReversed { pairing } => format!(
                "the sheet's White is Black in the pairings ({pairing}): the colours are reversed on the sheet or \
                 at the board"
            ),
            Finding::CopiesDisagree { at, written, read, other_written, other_read, files } => {
                copies_message(at, [&q(written), &q(other_written)], [read, other_read], files)
            }
            Finding::ArbiterDecision { at, .. } => {
                let said = self.decision_in(ReportLanguage::En).unwrap_or_default();
                match at {
                    Some(at) => format!("{}: {said}", label(at)),
                    None => said,
                }
            }
        }
    }
}

/// The two copies' entries and moves where they part, and the files.
fn copies_message(at: &At, written: [&str; 2], read: [&String; 2], files: &[String; 2]) -> String {
    format!(
        "{}: the two copies differ: {} has \"{}\" ({}), {} has \"{}\" ({}); the rest of the game does not tell \
         which is right",
        label(at),
        quoted(&files[0]),
        written[0],
        read[0],
        quoted(&files[1]),
        written[1],
        read[1]
    )
}

/// Where a finding is, as a person names it: `move 9... (line 14, column 8)`.
/// The results a record gives, each with where: `1-0 (the Result header),
/// 0-1 (after the moves)`, or a copy's file.
fn results_said(results: &[(GameResult, String)], lang: ReportLanguage) -> String {
    let place = |w: &str| match (w, lang) {
        (RESULT_HEADER, ReportLanguage::En) => "the Result header".to_string(),
        (RESULT_HEADER, ReportLanguage::Es) => "la cabecera Result".to_string(),
        (RESULT_AFTER_MOVES, ReportLanguage::En) => "after the moves".to_string(),
        (RESULT_AFTER_MOVES, ReportLanguage::Es) => "tras las jugadas".to_string(),
        (file, _) => quoted(file).into_owned(),
    };
    results.iter().map(|(r, w)| format!("{} ({})", r.as_pgn(), place(w))).collect::<Vec<_>>().join(", ")
}

/// Where a result is written, in [`Finding::ResultsDisagree`]: the sheet's
/// `Result` header, or the end of its moves (else a copy's file name).
pub const RESULT_HEADER: &str = "header";
/// See [`RESULT_HEADER`].
pub const RESULT_AFTER_MOVES: &str = "moves";

fn label(at: &At) -> String {
    if at.line > 0 {
        format!("move {} (line {}, column {})", at.move_label(), at.line, at.col)
    } else {
        format!("move {}", at.move_label())
    }
}

fn ambiguous_message(at: &At, written: &str, replacement: &str, alternatives: &[String], margin: f32) -> String {
    let others: Vec<&str> = alternatives.iter().filter(|a| *a != replacement).map(String::as_str).collect();
    let others = if others.is_empty() { "another reading nearly as likely".to_string() } else { others.join(", ") };
    let why = if margin < 0.0 { " (put first as the likelier move in the position)" } else { "" };
    format!(
        "{}: written \"{written}\", read as {replacement}{why}, but the rest of the game also allows {others}",
        label(at)
    )
}

fn duplicate_board_message(board: &str, round: &str, other: &str, parted: Option<u32>, stops: bool) -> String {
    let label = |ply: u32| At { ply, line: 0, col: 0 }.move_label();
    let how = match (parted, stops) {
        (Some(ply), true) => {
            format!(
                "the same players and moves, but this record stops before move {} where that one goes on",
                label(ply)
            )
        }
        (Some(ply), false) => format!("the same players, but the moves part at move {}", label(ply)),
        (None, _) => "other players".to_string(),
    };
    format!(
        "board {board} of round {round} already has a game in the round file ({other}) and this is another one \
         ({how}); it is not added: an arbiter must choose"
    )
}

/// `1 entry`, `3 entries`.
fn count_en(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn search_budget_message(at: &At, written: &str, unread: usize) -> String {
    if unread == 0 {
        format!(
            "{}: the search for a reading went past its budget after \"{written}\", before every doubt was \
             weighed; the reading may not be the best",
            label(at)
        )
    } else {
        format!(
            "{}: the search for a reading of \"{written}\" went past its budget; the game is kept as read up to \
             this point ({} from here not read)",
            label(at),
            count_en(unread, "entry", "entries")
        )
    }
}

fn pairing_mismatch_message(written: &str, found: Option<&str>, candidates: &[String]) -> String {
    match found {
        Some(found) => format!("the sheet gives {written}, but its players are paired at {found}"),
        None if candidates.is_empty() => format!("no pairing of the pairings file matches the sheet ({written})"),
        None => format!(
            "no pairing of the pairings file matches the sheet ({written}) clearly; the nearest: {}",
            candidates.join("; ")
        ),
    }
}

impl Finding {
    /// [`Finding::message`] in Spanish, as an arbiter in Spain writes it:
    /// `jugada 9... (línea 3, columna 7): escrito "Cf8", leído como Nf3: la
    /// única jugada legal que encaja`. One arm per kind, as in English.
    fn message_es(&self) -> String {
        let q = |w: &str| quoted(w).into_owned();
        let l = label_es;
        match self {
            Finding::IllegalMove { at, written, fen, unread } => format!(
                "{}: \"{}\" no corresponde a ninguna jugada legal aquí; la partida se conserva hasta este punto, la \
                 última posición que la planilla permite establecer ({fen}); {} desde aquí no {} reconstruir",
                l(at),
                q(written),
                if *unread == 1 { "la única anotación".to_string() } else { format!("las {unread} anotaciones") },
                if *unread == 1 { "se puede" } else { "se pueden" }
            ),
            Finding::NonAlgebraic { at, written, read: None } => format!(
                "{}: desde \"{}\" la planilla está en notación descriptiva (P-K4, CAR3), que no se lee en este \
                 idioma; la partida se conserva hasta este punto",
                l(at),
                q(written)
            ),
            Finding::NonAlgebraic { at, written, read: Some((system, moves)) } => format!(
                "{}: desde \"{}\" la planilla está en notación {} ({moves} jugadas), leída como tal; la FIDE solo \
                 reconoce la notación algebraica (Apéndice C): esta planilla no puede servir como prueba, y debe \
                 indicarse al jugador que anote en notación algebraica",
                l(at),
                q(written),
                system_es(system)
            ),
            Finding::IllegibleEntry { at, written, replacement, .. } => format!(
                "{}: escrito \"{}\" (ilegible), leído como {replacement}: la única jugada que permite el resto de \
                 la partida",
                l(at),
                q(written)
            ),
            Finding::MissingMove { at, replacement, .. } => {
                format!(
                    "{}: no se anotó ninguna jugada, leída como {replacement}: el resto de la partida la exige",
                    l(at)
                )
            }
            Finding::ExtraEntry { at, written, repeat: true, .. } => {
                format!("{}: \"{}\" escrito dos veces; se omite la segunda", l(at), q(written))
            }
            Finding::ExtraEntry { at, written, repeat: false, .. } => format!(
                "{}: escrito \"{}\", que no corresponde a ninguna jugada de la partida aquí; se omite",
                l(at),
                q(written)
            ),
            Finding::TypoRepaired { at, written, replacement, .. } => format!(
                "{}: escrito \"{}\", leído como {replacement}: la única jugada legal que encaja",
                l(at),
                q(written)
            ),
            Finding::AmbiguousRepair { at, written, replacement, alternatives, margin } => {
                let others: Vec<&str> = alternatives.iter().filter(|a| *a != replacement).map(String::as_str).collect();
                let others = if others.is_empty() {
                    "otra lectura casi igual de probable".to_string()
                } else {
                    others.join(", ")
                };
                let why =
                    if *margin < 0.0 { " (puesta primero como la jugada más probable en la posición)" } else { "" };
                format!(
                    "{}: escrito \"{}\", leído como {replacement}{why}, pero el resto de la partida también admite \
                     {others}",
                    l(at),
                    q(written)
                )
            }
            Finding::MovesAfterEnd { at, written, ending } => format!(
                "{}: \"{}\" está anotado cuando la partida ya había terminado ({})",
                l(at),
                q(written),
                ending.said(ReportLanguage::Es)
            ),
            Finding::CheckMarkMismatch { at, written, replacement } => {
                format!("{}: escrito \"{}\", pero {replacement} no da ese jaque ni mate", l(at), q(written))
            }
            Finding::NumberingError { at, written } => {
                format!("{}: el número de jugada escrito antes de \"{}\" no sigue la numeración", l(at), q(written))
            }
            Finding::LanguageInferred { code, name } => {
                format!("letras de las piezas leídas en {} ({code})", language_es(code).unwrap_or(name))
            }
            Finding::UnknownLanguage { given } => {
                format!("idioma desconocido \"{}\"; el idioma se dedujo de las jugadas", q(given))
            }
            Finding::ResultMismatch { written, board, ending } => format!(
                "el resultado anotado es {} pero la posición final da {} ({}); se conserva el resultado anotado \
                 hasta que un árbitro decida",
                written.as_pgn(),
                board.as_pgn(),
                ending.said(ReportLanguage::Es)
            ),
            Finding::MixedNotation { at, system, algebraic } => format!(
                "{}: la planilla mezcla notaciones: algebraica en las primeras {algebraic} jugadas, {} desde aquí",
                l(at),
                system_es(system)
            ),
            Finding::MixedLetters { at, own, other, moves } => format!(
                "{}: la planilla mezcla las letras de piezas de dos idiomas: las suyas ({own}) y, desde aquí, {moves} \
                 jugadas con las de otro ({other}); cada una se leyó así, pero una planilla se lleva con unas solas \
                 letras (Apéndice C)",
                l(at)
            ),
            Finding::DrawOffer { at } => {
                format!("{}: el jugador ofreció tablas con esta jugada, (=) (Art. 9.1.2)", l(at))
            }
            Finding::DrawClaim { at, repetition: true } => format!(
                "{}: la partida se anotó como tablas donde podían reclamarse: la posición final se dio en el \
                 tablero por tercera vez (Art. 9.2)",
                l(at)
            ),
            Finding::DrawClaim { at, repetition: false } => format!(
                "{}: la partida se anotó como tablas donde podían reclamarse: cincuenta jugadas de cada bando sin \
                 captura ni movimiento de peón (Art. 9.3)",
                l(at)
            ),
            Finding::ResultMissing { moves, noted } => format!(
                "no hay resultado anotado y la posición final, tras la jugada {moves}, no pone fin a la partida: el \
                 árbitro debe establecer el resultado (los jugadores anotan el resultado y firman las planillas, \
                 Art. 8.7); la planilla pudo dejar de anotarse antes (un jugador con menos de cinco minutos puede \
                 dejar de anotar, Art. 8.4){}; el resultado queda como *",
                if *noted { "; tras la última jugada sigue una nota, donde la partida puede continuar" } else { "" }
            ),
            Finding::IncompleteRecord { .. } => incomplete_message(self, ReportLanguage::Es),
            Finding::DuplicateBoard { board, round, other, parted, stops } => {
                let label = |ply: u32| At { ply, line: 0, col: 0 }.move_label();
                let how = match (parted, stops) {
                    (Some(ply), true) => format!(
                        "los mismos jugadores y jugadas, pero esta planilla se detiene antes de la jugada {} donde \
                         aquella continúa",
                        label(*ply)
                    ),
                    (Some(ply), false) => {
                        format!("los mismos jugadores, pero las jugadas se separan en la jugada {}", label(*ply))
                    }
                    (None, _) => "otros jugadores".to_string(),
                };
                format!(
                    "el tablero {} de la ronda {} ya tiene una partida en el archivo de la ronda ({}) y esta es otra \
                     ({how}); no se añade: un árbitro debe elegir",
                    q(board),
                    q(round),
                    q(other)
                )
            }
            Finding::ScorePrintedTwice { line } => format!(
                "las jugadas desde la línea {line} son las primeras de esta partida impresas otra vez; se leen como \
                 esta partida, no como una partida aparte"
            ),
            Finding::MovesInNote { line, ply } => format!(
                "la anotación se detiene y una nota debajo (línea {line}) sigue con la partida desde {}: las \
                 jugadas desde allí se leen de la nota; compruebe que la partida siguió así",
                At { ply: *ply, line: 0, col: 0 }.move_label()
            ),
            Finding::GameNotRead { line, why } => match why {
                NotRead::TooLong { limit } => {
                    format!("la partida desde la línea {line} no se lee: tiene más de {limit} bytes")
                }
                NotRead::NotText => format!("la partida desde la línea {line} no se lee: sus bytes no son texto"),
                NotRead::Malformed(m) => format!("la partida desde la línea {line} no se lee: {m}"),
                NotRead::Io(e) => format!("el archivo no se pudo leer más allá de la línea {line}: {e}"),
            },
            Finding::EncodingGuessed { line } => format!(
                "el archivo no está todo en UTF-8 (desde la línea {line}): las líneas que no lo están se leyeron \
                 como Windows-1252; compruebe las letras acentuadas de los nombres (un archivo guardado en UTF-8 se \
                 lee sin suposiciones)"
            ),
            Finding::InvisibleRemoved { removed } => format!(
                "se quitaron {} caracteres invisibles ({}) al leer el archivo, el primero en la línea {}: quedarían \
                 en los nombres y harían ilegibles las jugadas",
                removed.count,
                invisible_kinds(removed, ReportLanguage::Es),
                removed.line
            ),
            Finding::SetUpPosition { why } => format!(
                "la posición de partida de la planilla no se puede usar ({}): no se lee ninguna jugada, pues \
                 desde la posición inicial no serían las de la partida; el árbitro debe establecer la posición y \
                 la partida",
                set_up_es(why)
            ),
            Finding::HeadersDropped { dropped, first } => format!(
                "la planilla tiene {} campos de cabecera; se conservan los {} primeros y se omiten los otros \
                 {dropped} (el primero de ellos \"{}\")",
                dropped + crate::sheet::MAX_HEADERS,
                crate::sheet::MAX_HEADERS,
                q(first)
            ),
            Finding::SearchBudget { at, written, unread: 0 } => format!(
                "{}: la búsqueda de una lectura agotó su presupuesto tras \"{}\", antes de sopesar todas las dudas; \
                 puede que la lectura no sea la mejor",
                l(at),
                q(written)
            ),
            Finding::SearchBudget { at, written, unread } => format!(
                "{}: la búsqueda de una lectura de \"{}\" agotó su presupuesto; la partida se conserva tal como se \
                 leyó hasta este punto ({} desde aquí sin leer)",
                l(at),
                q(written),
                if *unread == 1 { "1 anotación".to_string() } else { format!("{unread} anotaciones") }
            ),
            Finding::PairingMismatch { written, found, candidates } => {
                let written = pairing_es(&q(written));
                match found {
                    Some(found) => {
                        format!(
                            "la planilla indica {written}, pero sus jugadores están emparejados en {}",
                            pairing_es(found)
                        )
                    }
                    None if candidates.is_empty() => format!(
                        "ningún emparejamiento del archivo de emparejamientos coincide con la planilla ({written})"
                    ),
                    None => format!(
                        "ningún emparejamiento del archivo de emparejamientos coincide claramente con la planilla \
                         ({written}); los más cercanos: {}",
                        candidates.iter().map(|c| pairing_es(c)).collect::<Vec<_>>().join("; ")
                    ),
                }
            }
            Finding::PairingResultMismatch { written, pairing, at } => format!(
                "el resultado anotado es {} pero el archivo de emparejamientos da {} ({})",
                written.as_pgn(),
                pairing.as_pgn(),
                pairing_es(at)
            ),
            Finding::ResultsDisagree { results } => format!(
                "la planilla da resultados distintos: {}; el árbitro establece el resultado (Art. 8.7); el \
                 resultado queda como *",
                results_said(results, ReportLanguage::Es)
            ),
            Finding::ResultFromPairings { result, at, disagreed: false } => format!(
                "no hay resultado anotado: el resultado es el de los emparejamientos, {} ({})",
                result.as_pgn(),
                pairing_es(at)
            ),
            Finding::ResultFromPairings { result, at, disagreed: true } => format!(
                "la planilla da resultados distintos: el de los emparejamientos es uno de ellos y se toma, {} ({})",
                result.as_pgn(),
                pairing_es(at)
            ),
            Finding::BoardNumbered { written, pairing } => format!(
                "la planilla da {}; los emparejamientos, en el orden del archivo, ponen a estos jugadores en {}: se \
                 publica en ese tablero, para que los tableros de la ronda se numeren de una sola manera",
                pairing_es(&q(written)),
                pairing_es(pairing)
            ),
            Finding::ColoursReversed { pairing } => format!(
                "las blancas de la planilla son las negras del emparejamiento ({}): los colores están invertidos en \
                 la planilla o en el tablero",
                pairing_es(pairing)
            ),
            Finding::CopiesDisagree { at, written, read, other_written, other_read, files } => format!(
                "{}: las dos copias difieren: {} tiene \"{}\" ({}), {} tiene \"{}\" ({}); el resto de la partida no \
                 dice cuál es la correcta",
                l(at),
                quoted(&files[0]),
                placeholder_es(&q(written)),
                placeholder_es(read),
                quoted(&files[1]),
                placeholder_es(&q(other_written)),
                placeholder_es(other_read)
            ),
            Finding::ArbiterDecision { at, .. } => {
                let said = self.decision_in(ReportLanguage::Es).unwrap_or_default();
                match at {
                    Some(at) => format!("{}: {said}", l(at)),
                    None => said,
                }
            }
        }
    }
}

/// Where a finding is, in Spanish: `jugada 9... (línea 14, columna 8)`.
fn label_es(at: &At) -> String {
    if at.line > 0 {
        format!("jugada {} (línea {}, columna {})", at.move_label(), at.line, at.col)
    } else {
        format!("jugada {}", at.move_label())
    }
}

/// "1 move", "15 moves"; in Spanish "1 jugada", "15 jugadas".
fn moves_word(n: u32, lang: ReportLanguage) -> String {
    match (lang, n) {
        (ReportLanguage::En, 1) => "1 move".to_string(),
        (ReportLanguage::En, n) => format!("{n} moves"),
        (ReportLanguage::Es, 1) => "1 jugada".to_string(),
        (ReportLanguage::Es, n) => format!("{n} jugadas"),
    }
}

/// The message of an `incomplete-record`: which copy, how many moves it
/// lacks and from which, and the rule that explains it or does not.
fn incomplete_message(f: &Finding, lang: ReportLanguage) -> String {
    let Finding::IncompleteRecord { file, missing, from, other_ends, .. } = f else { return String::new() };
    let file = quoted(file);
    let from_label = At { ply: *from, line: 0, col: 0 }.move_label();
    let reached = from.saturating_sub(1).div_ceil(2);
    let n = moves_word(*missing, lang);
    let plausible = f.severity() == Severity::Info;
    match lang {
        ReportLanguage::En => {
            let head = format!("{file}: the record lacks {n} of the game, from move {from_label} on");
            if plausible {
                format!(
                    "{head}, the last ones, which the other copy has: a player with less than five minutes may \
                     stop recording (Art. 8.4)"
                )
            } else if !other_ends {
                format!(
                    "{head}, and the other copy does not reach the end either: each player records the moves \
                     (Art. 8.1), and only a player with less than five minutes may stop (Art. 8.4)"
                )
            } else {
                format!(
                    "{head}: it stops at move {reached}, too early for a player short of time who stopped \
                     recording (Art. 8.4); each player records the moves (Art. 8.1)"
                )
            }
        }
        ReportLanguage::Es => {
            let head = format!("{file}: a la planilla le faltan {n} de la partida, desde la jugada {from_label}");
            if plausible {
                format!(
                    "{head}, las últimas, que la otra copia tiene: un jugador con menos de cinco minutos puede dejar \
                     de anotar (Art. 8.4)"
                )
            } else if !other_ends {
                format!(
                    "{head}, y la otra copia tampoco llega al final: cada jugador anota las jugadas (Art. 8.1), y \
                     solo un jugador con menos de cinco minutos puede dejar de anotar (Art. 8.4)"
                )
            } else {
                format!(
                    "{head}: se detiene en la jugada {reached}, demasiado pronto para un jugador apurado de tiempo \
                     que dejó de anotar (Art. 8.4); cada jugador anota las jugadas (Art. 8.1)"
                )
            }
        }
    }
}

/// A notation system's name in Spanish.
fn system_es(system: &str) -> &str {
    match system {
        "English descriptive" => "descriptiva inglesa",
        "Spanish descriptive" => "descriptiva española",
        "French descriptive" => "descriptiva francesa",
        crate::notation::descriptive::NUMERIC => "numérica ICCF",
        other => other,
    }
}

/// A language's name in Spanish, by its ISO code.
fn language_es(code: &str) -> Option<&'static str> {
    const NAMES: [(&str, &str); 27] = [
        ("en", "inglés"),
        ("es", "español"),
        ("de", "alemán"),
        ("fr", "francés"),
        ("it", "italiano"),
        ("pt", "portugués"),
        ("nl", "neerlandés"),
        ("pl", "polaco"),
        ("sv", "sueco"),
        ("da", "danés"),
        ("no", "noruego"),
        ("eo", "esperanto"),
        ("fi", "finés"),
        ("is", "islandés"),
        ("cs", "checo"),
        ("sk", "eslovaco"),
        ("hu", "húngaro"),
        ("ro", "rumano"),
        ("ca", "catalán"),
        ("hr", "croata"),
        ("et", "estonio"),
        ("tr", "turco"),
        ("lv", "letón"),
        ("lt", "lituano"),
        ("ru", "ruso"),
        ("uk", "ucraniano"),
        ("bg", "búlgaro"),
    ];
    NAMES.iter().find(|(c, _)| *c == code).map(|(_, n)| *n)
}

/// A pairing as the pairings code describes it (`round 2, board 3: A - B`),
/// its leading words in Spanish (`ronda 2, tablero 3: A - B`); the players'
/// names are left as they are.
fn pairing_es(text: &str) -> String {
    let mut rest = text;
    let mut out = String::with_capacity(text.len() + 8);
    for (en, es) in [("round ", "ronda "), ("board ", "tablero ")] {
        if let Some(after) = rest.strip_prefix(en) {
            out.push_str(es);
            let end = after.find([',', ':']).unwrap_or(after.len());
            out.push_str(&after[..end]);
            rest = &after[end..];
            if let Some(r) = rest.strip_prefix(", ").filter(|r| r.starts_with("board ")) {
                out.push_str(", ");
                rest = r;
            }
        }
    }
    out.push_str(rest);
    out
}

/// What the two copies' reader writes where a copy has no entry or no move,
/// in Spanish.
fn placeholder_es(text: &str) -> &str {
    match text {
        "(not written)" => "(no anotada)",
        "(nothing more)" => "(nada más)",
        "the game ending here" => "la partida termina aquí",
        other => other,
    }
}

/// Why an arbiter decided, in Spanish where the program wrote it (the doubt
/// settled, a game accepted or rejected); the arbiter's own note as written.
fn why_es(why: &str) -> std::borrow::Cow<'_, str> {
    match why {
        "copies disagreed" => "las copias diferían".into(),
        "the sheet was ambiguous" => "la planilla era ambigua".into(),
        "decided by the arbiter" => "decidido por el árbitro".into(),
        "accepted" => "aceptada".into(),
        _ => match (why.strip_suffix(" accepted"), why.strip_prefix("rejected: ")) {
            (Some(code), _) if code.chars().all(|c| c.is_ascii_lowercase() || c == ' ') => {
                format!("aceptado ({})", code.replace(' ', "-")).into()
            }
            (_, Some(reason)) => format!("rechazada: {reason}").into(),
            _ => why.into(),
        },
    }
}

/// Why a sheet's start cannot be used, in Spanish.
/// The kinds of invisible characters dropped, in `lang`: `zero-width, marks
/// of direction`.
fn invisible_kinds(removed: &crate::sheet::Invisible, lang: ReportLanguage) -> String {
    let names: [(bool, &str, &str); 3] = [
        (removed.zero_width, "zero-width", "de anchura cero"),
        (removed.direction, "marks of writing direction", "marcas de dirección de escritura"),
        (removed.soft_hyphen, "soft hyphens", "guiones blandos"),
    ];
    let said: Vec<&str> = names
        .iter()
        .filter(|(any, ..)| *any)
        .map(|&(_, en, es)| if lang == ReportLanguage::Es { es } else { en })
        .collect();
    said.join(", ")
}

fn set_up_es(why: &crate::start::SetUpError) -> String {
    use crate::start::SetUpError as E;
    match why {
        E::Unreadable { fen, why } => format!("el FEN \"{fen}\" no se puede leer: {why}"),
        E::Illegal { fen, why } => format!("el FEN \"{fen}\" no es una posición legal: {why}"),
        E::NotGiven { variant } => {
            format!("Variant \"{variant}\" sin FEN: no se conoce la posición de partida")
        }
        E::OtherRules { variant } => {
            format!("Variant \"{variant}\" no es ajedrez: solo se leen partidas de ajedrez y de Chess960")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
            Finding::PairingMismatch {
                written: "round 2, board 35".into(),
                found: None,
                candidates: vec!["round 2, board 3: Navara, David - Carlsen, Magnus".into()],
            },
            Finding::PairingResultMismatch {
                written: GameResult::WhiteWins,
                pairing: GameResult::Draw,
                at: "round 2, board 3".into(),
            },
            Finding::ColoursReversed { pairing: "round 2, board 3: Navara, David - Carlsen, Magnus".into() },
            Finding::CopiesDisagree {
                at,
                written: "Dd3".into(),
                read: "Qd3".into(),
                other_written: "Qc3".into(),
                other_read: "Qc3".into(),
                files: ["a.txt".into(), "b.csv".into()],
            },
            Finding::ResultsDisagree {
                results: vec![
                    (GameResult::WhiteWins, RESULT_HEADER.into()),
                    (GameResult::BlackWins, RESULT_AFTER_MOVES.into()),
                ],
            },
            Finding::ResultFromPairings { result: GameResult::Draw, at: "round 2, board 3".into(), disagreed: false },
            Finding::BoardNumbered {
                written: "round 2, board 7".into(),
                pairing: "round 2, board 3: Navara, David - Carlsen, Magnus".into(),
            },
            Finding::ArbiterDecision {
                at: Some(at),
                arbiter: "Ana López".into(),
                played: Some("Bd6".into()),
                why: "copies disagreed".into(),
            },
            Finding::NonAlgebraic { at, written: "P-K4".into(), read: Some(("English descriptive", 40)) },
            Finding::MixedNotation { at, system: "Spanish descriptive", algebraic: 4 },
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
            })
            .collect();
        assert!((0..36).all(|k| kinds.contains(&k)));
    }

    #[test]
    fn codes_are_distinct_kebab_case_words() {
        let mut codes: Vec<&str> = one_of_each().iter().map(Finding::code).collect();
        codes.dedup(); // the two extra entries
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
                Warning, Warning, Warning, Warning, Warning, Error, Warning, Error, Info, Info
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
