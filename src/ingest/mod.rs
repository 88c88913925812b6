//! Bytes to [`Sheet`]s: the encoding, then the format (txt, yaml, csv/tsv, pgn).
//!
//! The files form layers, each using only those before it: `error`,
//! `headers` and `printed` use no sibling; `decode`, `glued` and `movetext`
//! build on them; each format's reader (`text`, `yaml`, `csv`, `pgn`) on
//! those; `stream` cuts a PGN stream into games for `pgn`; this file picks
//! the reader for a file and uses them all.
//!
//! ```
//! use scoresheet::ingest::{read, Format};
//! let sheets = read(b"Blancas: Capablanca\n1.d4 Cf6, 2.c4 e6", Format::Text, 1 << 20).unwrap();
//! assert_eq!(sheets[0].header("White"), Some("Capablanca"));
//! assert_eq!(sheets[0].entries[1].text, "Cf6");
//! ```

pub(crate) mod csv;
pub(crate) mod damaged;
pub(crate) mod decode;
mod error;
pub(crate) mod glued;
pub(crate) mod headers;
pub(crate) mod movetext;
pub(crate) mod pgn;
pub(crate) mod printed;
pub(crate) mod stream;
pub(crate) mod text;
pub(crate) mod yaml;

use crate::sheet::Sheet;

pub use error::IngestError;

/// The formats a sheet can be typed in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Text,
    Yaml,
    Csv,
    Tsv,
    Pgn,
}

impl Format {
    /// The format a file extension names, if any.
    pub fn from_extension(ext: &str) -> Option<Format> {
        match ext.to_ascii_lowercase().as_str() {
            "txt" | "text" => Some(Format::Text),
            "yaml" | "yml" => Some(Format::Yaml),
            "csv" => Some(Format::Csv),
            "tsv" | "tab" => Some(Format::Tsv),
            "pgn" => Some(Format::Pgn),
            _ => None,
        }
    }

    /// The format of a file from its name, else from its content.
    pub fn of(name: &str, text: &str) -> Format {
        std::path::Path::new(name)
            .extension()
            .and_then(|e| e.to_str())
            .and_then(Format::from_extension)
            .unwrap_or_else(|| Format::sniff(text))
    }

    /// Guesses the format from the content when the extension says nothing.
    pub fn sniff(text: &str) -> Format {
        let lines: Vec<&str> =
            text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).take(40).collect();
        let first = lines.first().copied().unwrap_or_default().trim_start_matches('\u{feff}');
        if first.starts_with('[') && first.ends_with(']') {
            return Format::Pgn;
        }
        if first == "---" || lines.iter().any(|l| l.starts_with("moves:") || l.starts_with("- - ")) {
            return Format::Yaml;
        }
        let numbered_rows = |sep: char| {
            lines
                .iter()
                .filter(|l| l.split(sep).next().is_some_and(|c| c.trim().parse::<u32>().is_ok()) && l.contains(sep))
                .count()
        };
        if numbered_rows(';') * 2 > lines.len()
            || numbered_rows(',') * 2 > lines.len() && !lines.iter().any(|l| l.contains(". ") || l.contains(", "))
        {
            return Format::Csv;
        }
        Format::Text
    }
}

/// Reads the games of one file in `format`. `limit` is the largest file
/// accepted, in bytes.
pub fn read(bytes: &[u8], format: Format, limit: usize) -> Result<Vec<Sheet>, IngestError> {
    read_as(bytes, limit, |_| format)
}

/// Reads the games of the file `name`, in the format its extension names,
/// else the one its content looks like ([`Format::of`]). `limit` is the
/// largest file accepted, in bytes.
///
/// ```
/// use scoresheet::ingest::{read_named, IngestError};
/// let sheets = read_named("mesa4.csv", b"1;e4;e5\n2;Cf3;Cc6\n", 1 << 20).unwrap();
/// assert_eq!(sheets[0].entries[2].text, "Cf3");
/// assert_eq!(read_named("big.txt", b"1.e4 e5", 4), Err(IngestError::TooLarge { size: 7, limit: 4 }));
/// ```
pub fn read_named(name: &str, bytes: &[u8], limit: usize) -> Result<Vec<Sheet>, IngestError> {
    read_as(bytes, limit, |text| Format::of(name, text))
}

/// The size check, the decoding and the reading, in the format `format` picks
/// from the decoded text.
fn read_as(bytes: &[u8], limit: usize, format: impl FnOnce(&str) -> Format) -> Result<Vec<Sheet>, IngestError> {
    if bytes.len() > limit {
        return Err(IngestError::TooLarge { size: bytes.len(), limit });
    }
    let decoded = decode::decode(bytes)?;
    let mut sheets = read_text(&decoded.text, format(&decoded.text))?;
    if let Some(line) = decoded.guessed_from {
        for s in &mut sheets {
            s.encoding_guessed = Some(line);
        }
    }
    invisible_by_game(&mut sheets, &decoded.invisible);
    Ok(sheets)
}

/// Each game told of the invisible characters dropped from its own lines:
/// from its first line to the next game's (the first game from the file's
/// start, the last to its end).
fn invisible_by_game(sheets: &mut [Sheet], found: &[crate::sheet::Invisible]) {
    if found.is_empty() {
        return;
    }
    let mut order: Vec<usize> = (0..sheets.len()).collect();
    order.sort_by_key(|&i| sheets[i].line);
    for (k, &i) in order.iter().enumerate() {
        let from = if k == 0 { 1 } else { sheets[i].line };
        let to = order.get(k + 1).map(|&j| sheets[j].line);
        sheets[i].invisible = decode::invisible_within(found, from, to);
    }
}

/// The most moves a record may have (each side's): past them it is refused.
pub const MAX_MOVES: usize = 1000;

/// Reads the games of an already decoded file.
pub fn read_text(text: &str, format: Format) -> Result<Vec<Sheet>, IngestError> {
    let text = text.trim_start_matches('\u{feff}');
    // No sheet has such a line; the readers' look at a line's neighbours
    // stays cheap on what is left.
    if let Some(n) = text.split('\n').position(|l| l.len() > stream::MAX_GAME_BYTES) {
        return Err(IngestError::Syntax {
            line: n + 1,
            message: format!("the line is over {} bytes; no sheet has such a line", stream::MAX_GAME_BYTES),
        });
    }
    let sheets = match format {
        Format::Text => text::read(text)?,
        Format::Yaml => yaml::read(text)?,
        Format::Csv => csv::read(text, false)?,
        Format::Tsv => csv::read(text, true)?,
        Format::Pgn => pgn::read(text)?,
    };
    if sheets.iter().all(|s| s.entries.is_empty()) {
        return Err(IngestError::NoMoves { lines: text.lines().count() });
    }
    // The longest game played has fewer than 300 moves: a record past
    // MAX_MOVES is not one, and reading it would cost time and memory with
    // its length.
    if let Some(e) = sheets.iter().find_map(|s| s.entries.get(2 * MAX_MOVES)) {
        return Err(IngestError::Syntax {
            line: e.line,
            message: format!("the record passes {MAX_MOVES} moves here; no game is that long"),
        });
    }
    Ok(sheets)
}
