//! Why a file could not be read: one error for the decoding and every
//! format's reader, which each return it.

/// Why a file could not be read at all. Each names the line where it can.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum IngestError {
    #[error("the file is empty")]
    Empty,
    #[error("the file is binary, not a typed scoresheet")]
    Binary,
    #[error("the file is {size} bytes, over the limit of {limit} bytes")]
    TooLarge { size: usize, limit: usize },
    #[error("line {line}: the text is neither UTF-8, UTF-16 nor Windows-1252")]
    Encoding { line: usize },
    #[error("line {line}: {message}")]
    Syntax { line: usize, message: String },
    /// Every line was a header, a note or blank (`lines` of them).
    #[error("no moves found: none of the file's {lines} lines holds a move")]
    NoMoves { lines: usize },
    /// The file could not be read from (the system's words).
    #[error("cannot read: {0}")]
    Io(String),
}

impl IngestError {
    /// The line the error is at, when it is at one.
    pub fn line(&self) -> Option<usize> {
        match self {
            IngestError::Encoding { line } | IngestError::Syntax { line, .. } => Some(*line),
            _ => None,
        }
    }
}
