//! Hand-typed PGN: tag pairs, then movetext with foreign piece letters; several games.

use super::error::IngestError;
use super::headers::tag_name;
use super::movetext::{Dialect, read_movetext};
use crate::sheet::{GameResult, Sheet};

/// Reads every game of a PGN file.
pub(crate) fn read(text: &str) -> Result<Vec<Sheet>, IngestError> {
    read_from(text, 0)
}

/// Reads every game of a piece of a PGN file that follows `before` lines of it.
pub(crate) fn read_from(text: &str, before: usize) -> Result<Vec<Sheet>, IngestError> {
    let mut games = Vec::new();
    let mut lines = text.split_inclusive('\n').enumerate().map(|(n, l)| (n + before, l)).peekable();
    while lines.peek().is_some() {
        let mut sheet = Sheet::default();
        // Tag section.
        while let Some(&(n, line)) = lines.peek() {
            let t = line.trim();
            if t.is_empty() && sheet.headers.is_empty() {
                lines.next();
                continue;
            }
            if !t.starts_with('[') {
                break;
            }
            if sheet.line == 0 {
                sheet.line = n + 1;
            }
            let Some((key, value)) = tag(t) else {
                return Err(IngestError::Syntax {
                    line: n + 1,
                    message: format!("a tag must look like [Key \"value\"], found {t}"),
                });
            };
            let key = tag_name(&key);
            if key == "Result" {
                sheet.result = None;
            }
            sheet.set_header(&key, &value);
            lines.next();
        }
        // Movetext, up to the next tag section.
        let Some(&(first, _)) = lines.peek() else {
            break;
        };
        if sheet.line == 0 {
            sheet.line = first + 1;
        }
        let mut movetext = String::new();
        while let Some(&(_, line)) = lines.peek() {
            if line.trim_start().starts_with('[') && !movetext.trim().is_empty() {
                break;
            }
            movetext.push_str(line);
            lines.next();
        }
        read_movetext(&movetext, first + 1, 1, Dialect::Pgn, &mut sheet);
        if sheet.result.is_none() {
            sheet.result = sheet.header("Result").and_then(GameResult::parse);
        }
        if !sheet.entries.is_empty() || !sheet.headers.is_empty() {
            games.push(sheet);
        }
    }
    Ok(games)
}

/// `[Key "value"]`, with `\"` and `\\` escapes in the value.
fn tag(t: &str) -> Option<(String, String)> {
    let inner = t.strip_prefix('[')?.trim_end().strip_suffix(']')?.trim();
    let key_end = inner.find(|c: char| c.is_whitespace() || c == '"')?;
    let (key, rest) = (&inner[..key_end], inner[key_end..].trim());
    let body = rest.strip_prefix('"').and_then(|r| r.strip_suffix('"')).unwrap_or(rest);
    let mut value = String::new();
    let mut esc = false;
    for c in body.chars() {
        if esc {
            value.push(c);
            esc = false;
        } else if c == '\\' {
            esc = true;
        } else {
            value.push(c);
        }
    }
    Some((key.to_string(), value))
}
