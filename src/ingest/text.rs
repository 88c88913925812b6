//! Plain text sheets: optional `Key: value` header lines, then movetext.

use super::IngestError;
use super::headers::{canonical, plausible_key, tag_name};
use super::movetext::{Dialect, read_movetext};
use crate::sheet::{GameResult, Sheet};

/// Reads a plain text sheet (one game).
pub fn read(text: &str) -> Result<Vec<Sheet>, IngestError> {
    let mut sheet = Sheet { line: 1, ..Sheet::default() };
    // Header lines are blanked (not removed) so that line and column numbers of
    // the moves stay those of the file.
    let mut movetext = String::with_capacity(text.len());
    let mut moves_started = false;
    for line in text.split_inclusive('\n') {
        if let Some((key, value)) = header_line(line, moves_started) {
            let tag = tag_name(key);
            if tag == "Result"
                && let Some(r) = GameResult::parse(value)
            {
                sheet.result = sheet.result.or(Some(r));
            }
            sheet.set_header(&tag, value);
            movetext.extend(line.chars().map(|c| if c == '\n' { '\n' } else { ' ' }));
        } else {
            moves_started |= !line.trim().is_empty();
            movetext.push_str(line);
        }
    }
    let written = sheet.result;
    sheet.result = None;
    // About one box per six characters of movetext ("Cf3+, "): the entries
    // are not moved again and again as they grow.
    sheet.entries.reserve(movetext.len() / 6);
    read_movetext(&movetext, 1, 1, Dialect::Plain, &mut sheet);
    sheet.result = sheet.result.or(written);
    Ok(vec![sheet])
}

/// `Key: value`, where the key is one a header can have. Before the moves any
/// short name is a key; after them only known ones (`Result: 1-0` at the end).
fn header_line(line: &str, moves_started: bool) -> Option<(&str, &str)> {
    let (key, value) = line.split_once(':')?;
    let known = canonical(key).is_some();
    (known || (!moves_started && plausible_key(key))).then(|| (key.trim(), value.trim()))
}
