//! The values a finding carries that a message renders: where it is, and what
//! the program worked out (a pairing, what a copy has at a move, why an
//! arbiter decided) as data, never as a sentence, so that each language's
//! table (`en.rs`, `es.rs`) says it in its own words.

use std::borrow::Cow;

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

/// `ply` as a person names it: `23...` (see [`At::move_label`]).
pub(crate) fn ply_label(ply: u32) -> String {
    At { ply, line: 0, col: 0 }.move_label()
}

/// Why a game of a collection was not read at all ([`Finding::GameNotRead`](super::Finding::GameNotRead)).
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

/// A pairing of the tournament's TRF, as a finding names it: its round,
/// board and players (`?` for a player the TRF does not list).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamedPairing {
    /// The round, from 1.
    pub round: u32,
    /// The board, from 1.
    pub board: u32,
    /// White's name as the TRF writes it.
    pub white: String,
    /// Black's name as the TRF writes it.
    pub black: String,
}

impl NamedPairing {
    /// As the report's `alternatives` list a `pairing-mismatch`'s nearest
    /// pairings: `round 2, board 3: A - B`. A field of the JSON, fixed as its
    /// codes are, not a message: the same in every report language.
    pub(crate) fn as_reported(&self) -> String {
        self.said("round", "board")
    }

    /// The pairing in a language's words for round and board:
    /// `round 2, board 3: A - B`.
    pub(crate) fn said(&self, round: &str, board: &str) -> String {
        format!("{round} {}, {board} {}: {} - {}", self.round, self.board, self.white, self.black)
    }
}

/// What a sheet gives of its pairing: the round and board where it writes
/// them, and its players (`?` where it names none).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SheetPairing {
    /// The round the sheet writes.
    pub round: Option<u32>,
    /// The board the sheet writes.
    pub board: Option<u32>,
    /// White's name as the sheet writes it.
    pub white: String,
    /// Black's name as the sheet writes it.
    pub black: String,
}

impl SheetPairing {
    /// What the sheet gives, in a language's words for round and board:
    /// `round 2, board 35, A - B` (each part only where the sheet writes it).
    pub(crate) fn said(&self, round: &str, board: &str) -> String {
        let mut parts = Vec::with_capacity(3);
        parts.extend(self.round.map(|r| format!("{round} {r}")));
        parts.extend(self.board.map(|b| format!("{board} {b}")));
        parts.push(self.players());
        parts.join(", ")
    }

    /// The players, `White - Black`, as a message quotes them: the names
    /// come from the sheet, so they are cut where the whole description
    /// would pass [`QUOTED_CHARS`], each number given counting with room for
    /// its word (`round 12, `: 8 characters and its digits). Counted so, a
    /// long name is cut at the same letter in every language.
    pub(crate) fn players(&self) -> String {
        let numbers: usize = [self.round, self.board].iter().flatten().map(|n| 8 + n.to_string().len()).sum();
        cut(&format!("{} - {}", self.white, self.black), QUOTED_CHARS.saturating_sub(numbers)).into_owned()
    }
}

/// What a copy has at the move where two copies part (`copies-disagree`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CopyEntry {
    /// An entry, as written.
    Written(String),
    /// No entry: the move was read from the rest of the copy.
    NotWritten,
    /// Nothing: the copy's game has ended before this move.
    Ended,
}

impl CopyEntry {
    /// As the report's `written` gives it: the entry, or a mark fixed in the
    /// JSON as its codes are (not a message: the same in every language).
    pub(crate) fn as_reported(&self) -> &str {
        match self {
            CopyEntry::Written(w) => w,
            CopyEntry::NotWritten => "(not written)",
            CopyEntry::Ended => "(nothing more)",
        }
    }

    /// The entry as a message quotes it (see [`quoted`]).
    pub(crate) fn quoted(&self) -> CopyEntry {
        match self {
            CopyEntry::Written(w) => CopyEntry::Written(quoted(w).into_owned()),
            other => other.clone(),
        }
    }
}

/// What a copy's entry was read as where two copies part: a move, or the
/// game's end (the copy's game ends there).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CopyMove {
    /// The move read, in SAN.
    Move(String),
    /// The copy's game ends at this entry.
    GameEnds,
}

impl CopyMove {
    /// As the report's `replacement` and `alternatives` give it: the move's
    /// SAN, or a mark fixed in the JSON as its codes are.
    pub(crate) fn as_reported(&self) -> &str {
        match self {
            CopyMove::Move(m) => m,
            CopyMove::GameEnds => "the game ending here",
        }
    }
}

/// Why an arbiter decided (`arbiter-decision`): the doubt the decision
/// settled, what it did to the game, or the arbiter's own note.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Why {
    /// The arbiter's own note, kept as written in every language.
    Note(String),
    /// The two copies named different moves there (`copies-disagree`).
    CopiesDisagreed,
    /// The sheet allowed more than one reading there (`ambiguous-repair`).
    SheetAmbiguous,
    /// Another doubt there, by its code.
    Doubt(&'static str),
    /// A move the arbiter gave where no doubt was.
    Decided,
    /// The whole game accepted, with no note.
    Accepted,
    /// A doubt left at a move, accepted as read: its code.
    DoubtAccepted(&'static str),
    /// The game rejected, for this reason (the arbiter's words).
    Rejected(String),
    /// The result the arbiter established.
    Result(GameResult),
}

/// Where a record writes a result (`results-disagree`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResultAt {
    /// The sheet's `Result` header.
    Header,
    /// After the sheet's last move.
    AfterMoves,
    /// A copy of the game, by its file's name.
    Copy(String),
}

impl ResultAt {
    /// A copy's file as a message quotes it (see [`quoted`]).
    pub(crate) fn quoted(&self) -> ResultAt {
        match self {
            ResultAt::Copy(file) => ResultAt::Copy(quoted(file).into_owned()),
            other => other.clone(),
        }
    }
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

/// The results a record gives, each with where it is written, in a
/// language's words for the places (`place`): `1-0 (the Result header), 0-1
/// (after the moves)`, or a copy's file.
pub(crate) fn results_said(results: &[(GameResult, ResultAt)], place: impl Fn(&ResultAt) -> String) -> String {
    results.iter().map(|(r, w)| format!("{} ({})", r.as_pgn(), place(w))).collect::<Vec<_>>().join(", ")
}

/// `text` as a message quotes it: at most [`QUOTED_CHARS`] characters, then "…".
pub(crate) fn quoted(text: &str) -> Cow<'_, str> {
    cut(text, QUOTED_CHARS)
}

/// At most `max` characters of `text`, then "…" where it was cut.
pub(crate) fn cut(text: &str, max: usize) -> Cow<'_, str> {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &text[..at]).into(),
        None => text.into(),
    }
}
