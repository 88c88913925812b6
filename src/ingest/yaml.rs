//! YAML forms: header fields as keys and `moves` as a movetext string or a list
//! of `[white, black]` pairs; several games as a YAML stream.

use serde::Deserialize;
use serde_yaml::Value;

use super::error::IngestError;
use super::headers::tag_name;
use super::movetext::{Dialect, read_movetext};
use crate::notation::language::is_move_key;
use crate::sheet::{Entry, GameResult, Sheet};

/// Reads every document of a YAML stream as a game.
pub(crate) fn read(text: &str) -> Result<Vec<Sheet>, IngestError> {
    let mut games = Vec::new();
    let mut finder = Finder::new(text);
    for doc in serde_yaml::Deserializer::from_str(text) {
        let value = Value::deserialize(doc).map_err(|e| IngestError::Syntax {
            line: e.location().map_or(1, |l| l.line()),
            message: format!("YAML: {e}"),
        })?;
        let Value::Mapping(map) = value else {
            if value.is_null() {
                continue;
            }
            return Err(IngestError::Syntax {
                line: finder.line(),
                message: "a YAML game must be a mapping of fields and moves".into(),
            });
        };
        let mut sheet = Sheet { line: finder.line(), ..Sheet::default() };
        let mut moves = None;
        for (k, v) in map {
            let key = scalar(&k).unwrap_or_default();
            if is_move_key(&key.to_lowercase()) {
                moves = Some(v);
            } else if let Some(value) = scalar(&v) {
                sheet.set_header(&tag_name(&key), &value);
            }
        }
        match moves {
            Some(Value::String(s)) => {
                let head: String = s.chars().take(12).collect();
                let (line, col) = finder.find(head.lines().next().unwrap_or_default());
                read_movetext(&s, line, col, Dialect::Plain, &mut sheet);
            }
            Some(Value::Sequence(items)) => read_pairs(&items, &mut sheet, &mut finder)?,
            Some(Value::Null) | None => {}
            Some(_) => {
                return Err(IngestError::Syntax {
                    line: finder.line(),
                    message: "`moves` must be a string or a list of [white, black] pairs".into(),
                });
            }
        }
        if sheet.result.is_none() {
            sheet.result = sheet.header("Result").and_then(GameResult::parse);
        }
        games.push(sheet);
    }
    Ok(games)
}

/// `moves` as a list: each item a `[white, black]` pair, a single move, or a
/// string of movetext.
fn read_pairs(items: &[Value], sheet: &mut Sheet, finder: &mut Finder) -> Result<(), IngestError> {
    for (i, item) in items.iter().enumerate() {
        let first_ply = 2 * i as u32 + 1;
        match item {
            Value::Sequence(pair) => {
                for (side, cell) in pair.iter().take(2).enumerate() {
                    push(sheet, finder, cell, first_ply + side as u32);
                }
            }
            Value::String(s) if s.split_whitespace().count() > 1 => {
                let (line, col) = finder.find(s);
                read_movetext(s, line, col, Dialect::Plain, sheet);
            }
            _ => {
                let ply = sheet.entries.last().and_then(|e| e.ply).map_or(1, |p| p + 1);
                push(sheet, finder, item, ply);
            }
        }
    }
    Ok(())
}

fn push(sheet: &mut Sheet, finder: &mut Finder, cell: &Value, ply: u32) {
    let Some(text) = scalar(cell) else { return };
    let text = text.trim();
    if text.is_empty() {
        return;
    }
    if let Some(r) = GameResult::parse(text)
        && text != "="
    {
        sheet.result = Some(r);
        return;
    }
    let (line, col) = finder.find(text);
    sheet.entries.push(Entry { text: text.to_string(), line, col, ply: Some(ply), ..Entry::default() });
}

fn scalar(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// Finds where values stand in the source, moving forward through it: the
/// YAML parser does not report positions of values.
struct Finder<'a> {
    text: &'a str,
    at: usize,
    line: usize,
    line_start: usize,
}

impl<'a> Finder<'a> {
    fn new(text: &'a str) -> Self {
        Finder { text, at: 0, line: 1, line_start: 0 }
    }

    fn find(&mut self, needle: &str) -> (usize, usize) {
        if let Some(i) = self.text[self.at..].find(needle) {
            self.move_to(self.at + i);
        }
        let pos = (self.line, 1 + self.text[self.line_start..self.at].chars().count());
        // Past the value, or as far as it is long where it was not found as
        // written (the parser's value differs from the source's bytes): never
        // into the middle of a character.
        let mut to = (self.at + needle.len()).min(self.text.len());
        while !self.text.is_char_boundary(to) {
            to += 1;
        }
        self.move_to(to);
        pos
    }

    fn move_to(&mut self, to: usize) {
        for (i, b) in self.text.as_bytes()[self.at..to].iter().enumerate() {
            if *b == b'\n' {
                self.line += 1;
                self.line_start = self.at + i + 1;
            }
        }
        self.at = to;
    }

    fn line(&self) -> usize {
        self.line
    }
}
