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
        if self.ply % 2 == 1 {
            format!("{n}.")
        } else {
            format!("{n}...")
        }
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

/// A finding about one game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Finding {
    /// The entry names no legal move in the position.
    IllegalMove { at: At, written: String },
    /// The entry fits several legal moves equally well.
    AmbiguousMove {
        at: At,
        written: String,
        alternatives: Vec<String>,
    },
    /// The box holds "?", "X", "---" or similar.
    IllegibleMove { at: At, written: String },
    /// The numbering says a box was left empty here.
    MissingMove { at: At },
    /// Moves are written after the game ended (checkmate or stalemate).
    MovesAfterEnd { at: At, written: String },
    /// The entry was read loosely but only one legal move fits, e.g. a lowercase
    /// piece letter or a pawn letter.
    LooseReading {
        at: At,
        written: String,
        replacement: String,
        why: &'static str,
    },
    /// No language was given; the sheet's piece letters were recognised as this one.
    LanguageInferred {
        code: &'static str,
        name: &'static str,
    },
    /// The language given is not one the reader knows; it was inferred instead.
    UnknownLanguage { given: String },
    /// The result written contradicts the final position.
    ResultMismatch {
        written: GameResult,
        board: GameResult,
    },
}

impl Finding {
    /// The stable code of the finding, as in the JSON report.
    pub fn code(&self) -> &'static str {
        match self {
            Finding::IllegalMove { .. } => "illegal-move",
            Finding::AmbiguousMove { .. } => "ambiguous-move",
            Finding::IllegibleMove { .. } => "illegible-move",
            Finding::MissingMove { .. } => "missing-move",
            Finding::MovesAfterEnd { .. } => "moves-after-end",
            Finding::LooseReading { .. } => "loose-reading",
            Finding::LanguageInferred { .. } => "language-inferred",
            Finding::UnknownLanguage { .. } => "unknown-language",
            Finding::ResultMismatch { .. } => "result-mismatch",
        }
    }

    pub fn severity(&self) -> Severity {
        match self {
            Finding::IllegalMove { .. }
            | Finding::IllegibleMove { .. }
            | Finding::MissingMove { .. } => Severity::Error,
            Finding::AmbiguousMove { .. }
            | Finding::MovesAfterEnd { .. }
            | Finding::ResultMismatch { .. } => Severity::Warning,
            Finding::LooseReading { .. }
            | Finding::LanguageInferred { .. }
            | Finding::UnknownLanguage { .. } => Severity::Info,
        }
    }

    /// Where the finding is, for findings about one move.
    pub fn at(&self) -> Option<At> {
        match self {
            Finding::IllegalMove { at, .. }
            | Finding::AmbiguousMove { at, .. }
            | Finding::IllegibleMove { at, .. }
            | Finding::MissingMove { at }
            | Finding::MovesAfterEnd { at, .. }
            | Finding::LooseReading { at, .. } => Some(*at),
            _ => None,
        }
    }

    /// What was written in the box, for findings about one move.
    pub fn written(&self) -> Option<&str> {
        match self {
            Finding::IllegalMove { written, .. }
            | Finding::AmbiguousMove { written, .. }
            | Finding::IllegibleMove { written, .. }
            | Finding::MovesAfterEnd { written, .. }
            | Finding::LooseReading { written, .. } => Some(written),
            _ => None,
        }
    }

    /// The move the program put in place of what was written.
    pub fn replacement(&self) -> Option<&str> {
        match self {
            Finding::LooseReading { replacement, .. } => Some(replacement),
            _ => None,
        }
    }

    /// The legal moves that fit, when the program could not choose.
    pub fn alternatives(&self) -> &[String] {
        match self {
            Finding::AmbiguousMove { alternatives, .. } => alternatives,
            _ => &[],
        }
    }

    /// A sentence for the arbiter.
    pub fn message(&self) -> String {
        let label = |at: &At| {
            if at.line > 0 {
                format!(
                    "move {} (line {}, column {})",
                    at.move_label(),
                    at.line,
                    at.col
                )
            } else {
                format!("move {}", at.move_label())
            }
        };
        match self {
            Finding::IllegalMove { at, written } => format!(
                "{}: \"{written}\" is not a legal move here; the game is kept up to this point",
                label(at)
            ),
            Finding::AmbiguousMove {
                at,
                written,
                alternatives,
            } => {
                format!(
                    "{}: \"{written}\" fits several legal moves: {}",
                    label(at),
                    alternatives.join(", ")
                )
            }
            Finding::IllegibleMove { at, written } => format!(
                "{}: the box reads \"{written}\", no move can be read",
                label(at)
            ),
            Finding::MissingMove { at } => format!("{}: no move is written here", label(at)),
            Finding::MovesAfterEnd { at, written } => format!(
                "{}: \"{written}\" is written after the game had ended",
                label(at)
            ),
            Finding::LooseReading {
                at,
                written,
                replacement,
                why,
            } => format!("{}: \"{written}\" read as {replacement} ({why})", label(at)),
            Finding::LanguageInferred { code, name } => {
                format!("piece letters read as {name} ({code})")
            }
            Finding::UnknownLanguage { given } => {
                format!("unknown language \"{given}\"; the language was inferred from the moves")
            }
            Finding::ResultMismatch { written, board } => {
                format!(
                    "the result written is {} but the final position gives {}",
                    written.as_pgn(),
                    board.as_pgn()
                )
            }
        }
    }
}
