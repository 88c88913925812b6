//! What the program found in a game that a person may need to know. One typed
//! enum; the stable code, the severity and the message derive from it.

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

/// How much a finding matters: `info` leaves a game validated, `warning` and
/// `error` send it to an arbiter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warning,
    Error,
}

/// A finding about one game. `margin` of a repair: how much less likely (in
/// nats) the best different reading of the game is; infinite when none came close.
#[derive(Debug, Clone, PartialEq)]
pub enum Finding {
    /// No reading of the entry fits; the game is kept up to there.
    IllegalMove { at: At, written: String },
    /// From this entry on the record is in descriptive notation (`P-K4`,
    /// `CAR3`), which is not read: the game is kept up to there.
    NonAlgebraic { at: At, written: String },
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
    /// that costs more first, see [`crate::reconstruct::prior`]).
    AmbiguousRepair { at: At, written: String, replacement: String, alternatives: Vec<String>, margin: f32 },
    /// Moves are written after the game ended (checkmate or stalemate).
    MovesAfterEnd { at: At, written: String },
    /// `+` or `#` written where the move gives no such check.
    CheckMarkMismatch { at: At, written: String, replacement: String },
    /// The move numbers skip or repeat.
    NumberingError { at: At, written: String },
    /// No language was given; the sheet's piece letters were recognised as this one.
    LanguageInferred { code: &'static str, name: &'static str },
    /// The language given is not one the reader knows; it was inferred instead.
    UnknownLanguage { given: String },
    /// The result written contradicts the final position.
    ResultMismatch { written: GameResult, board: GameResult },
    /// The record stops with no result and the game not over on the board:
    /// the last moves were not written (FIDE Art. 8.4 lets a player with less
    /// than five minutes stop recording), or the sheet was handed in unfinished.
    IncompleteRecord { moves: u32 },
}

impl Finding {
    /// The stable code of the finding, as in the JSON report.
    pub fn code(&self) -> &'static str {
        match self {
            Finding::IllegalMove { .. } => "illegal-move",
            Finding::NonAlgebraic { .. } => "non-algebraic-notation",
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
            Finding::IncompleteRecord { .. } => "incomplete-record",
        }
    }

    pub fn severity(&self) -> Severity {
        match self {
            Finding::IllegalMove { .. } | Finding::NonAlgebraic { .. } => Severity::Error,
            Finding::ExtraEntry { repeat: false, .. } => Severity::Warning,
            Finding::AmbiguousRepair { .. } | Finding::MovesAfterEnd { .. } | Finding::ResultMismatch { .. } => {
                Severity::Warning
            }
            Finding::IllegibleEntry { .. }
            | Finding::MissingMove { .. }
            | Finding::ExtraEntry { .. }
            | Finding::TypoRepaired { .. }
            | Finding::CheckMarkMismatch { .. }
            | Finding::NumberingError { .. }
            | Finding::LanguageInferred { .. }
            | Finding::UnknownLanguage { .. }
            | Finding::IncompleteRecord { .. } => Severity::Info,
        }
    }

    /// Where the finding is, for findings about one move.
    pub fn at(&self) -> Option<At> {
        match self {
            Finding::IllegalMove { at, .. }
            | Finding::NonAlgebraic { at, .. }
            | Finding::IllegibleEntry { at, .. }
            | Finding::MissingMove { at, .. }
            | Finding::ExtraEntry { at, .. }
            | Finding::TypoRepaired { at, .. }
            | Finding::AmbiguousRepair { at, .. }
            | Finding::MovesAfterEnd { at, .. }
            | Finding::CheckMarkMismatch { at, .. }
            | Finding::NumberingError { at, .. } => Some(*at),
            Finding::LanguageInferred { .. }
            | Finding::UnknownLanguage { .. }
            | Finding::ResultMismatch { .. }
            | Finding::IncompleteRecord { .. } => None,
        }
    }

    /// What was written in the box, for findings about one move.
    pub fn written(&self) -> Option<&str> {
        match self {
            Finding::IllegalMove { written, .. }
            | Finding::NonAlgebraic { written, .. }
            | Finding::IllegibleEntry { written, .. }
            | Finding::ExtraEntry { written, .. }
            | Finding::TypoRepaired { written, .. }
            | Finding::AmbiguousRepair { written, .. }
            | Finding::MovesAfterEnd { written, .. }
            | Finding::CheckMarkMismatch { written, .. }
            | Finding::NumberingError { written, .. } => Some(written),
            _ => None,
        }
    }

    /// The move the program read in place of what was written.
    pub fn replacement(&self) -> Option<&str> {
        match self {
            Finding::IllegibleEntry { replacement, .. }
            | Finding::MissingMove { replacement, .. }
            | Finding::TypoRepaired { replacement, .. }
            | Finding::AmbiguousRepair { replacement, .. }
            | Finding::CheckMarkMismatch { replacement, .. } => Some(replacement),
            _ => None,
        }
    }

    /// The legal moves that fit, when the program could not choose.
    pub fn alternatives(&self) -> &[String] {
        match self {
            Finding::AmbiguousRepair { alternatives, .. } => alternatives,
            _ => &[],
        }
    }

    /// For a repair: how much less likely the best different reading is, in nats
    /// (`None` when no other reading came close).
    pub fn margin(&self) -> Option<f32> {
        match self {
            Finding::IllegibleEntry { margin, .. }
            | Finding::MissingMove { margin, .. }
            | Finding::ExtraEntry { margin, .. }
            | Finding::TypoRepaired { margin, .. }
            | Finding::AmbiguousRepair { margin, .. } => margin.is_finite().then_some(*margin),
            _ => None,
        }
    }

    /// A sentence for the arbiter: what was written, what was read, why.
    pub fn message(&self) -> String {
        let label = |at: &At| {
            if at.line > 0 {
                format!("move {} (line {}, column {})", at.move_label(), at.line, at.col)
            } else {
                format!("move {}", at.move_label())
            }
        };
        match self {
            Finding::IllegalMove { at, written } => {
                format!("{}: \"{written}\" fits no legal move here; the game is kept up to this point", label(at))
            }
            Finding::NonAlgebraic { at, written } => format!(
                "{}: from \"{written}\" on the record is in descriptive notation (P-K4, CAR3), which is not \
                 read yet; the game is kept up to this point",
                label(at)
            ),
            Finding::IllegibleEntry { at, written, replacement, .. } => {
                format!(
                    "{}: written \"{written}\" (illegible), read as {replacement}: the only move the rest of the game allows",
                    label(at)
                )
            }
            Finding::MissingMove { at, replacement, .. } => {
                format!("{}: no move written, read as {replacement}: the rest of the game needs it", label(at))
            }
            Finding::ExtraEntry { at, written, repeat: true, .. } => {
                format!("{}: written \"{written}\" twice; the second is left out", label(at))
            }
            Finding::ExtraEntry { at, written, repeat: false, .. } => {
                format!("{}: written \"{written}\", which fits no move of the game here; left out", label(at))
            }
            Finding::TypoRepaired { at, written, replacement, .. } => {
                format!("{}: written \"{written}\", read as {replacement}: the only legal move that fits", label(at))
            }
            Finding::AmbiguousRepair { at, written, replacement, alternatives, margin } => {
                let others: Vec<&str> = alternatives.iter().filter(|a| *a != replacement).map(String::as_str).collect();
                let others =
                    if others.is_empty() { "another reading nearly as likely".to_string() } else { others.join(", ") };
                let why = if *margin < 0.0 { " (put first as the likelier move in the position)" } else { "" };
                format!(
                    "{}: written \"{written}\", read as {replacement}{why}, but the rest of the game also allows {others}",
                    label(at)
                )
            }
            Finding::MovesAfterEnd { at, written } => {
                format!("{}: \"{written}\" is written after the game had ended", label(at))
            }
            Finding::CheckMarkMismatch { at, written, replacement } => {
                format!("{}: written \"{written}\", but {replacement} gives no such check or mate", label(at))
            }
            Finding::NumberingError { at, written } => {
                format!("{}: the move number written before \"{written}\" does not follow", label(at))
            }
            Finding::LanguageInferred { code, name } => format!("piece letters read as {name} ({code})"),
            Finding::UnknownLanguage { given } => {
                format!("unknown language \"{given}\"; the language was inferred from the moves")
            }
            Finding::ResultMismatch { written, board } => {
                format!("the result written is {} but the final position gives {}", written.as_pgn(), board.as_pgn())
            }
            Finding::IncompleteRecord { moves } => format!(
                "the record stops after move {moves} with no result and the game not over: \
                 the last moves were not written (a player with less than five minutes may stop recording, \
                 FIDE Art. 8.4); the result is left as *"
            ),
        }
    }
}
