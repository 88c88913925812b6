//! Spreadsheet exports: optional key/value rows, a header row, rows of
//! number, white, black (separated by `,`, `;` or tab), an optional result row.

use super::error::IngestError;
use super::headers::{canonical, footer_kept, plausible_key, tag_name};
use crate::sheet::{Entry, GameResult, Sheet};

/// Reads a CSV or TSV file of one game or several, one after another: a
/// game's key rows (other than its result) after another's moves, or a move
/// row numbered 1 after its moves, start the next. `tab` forces the tab
/// separator (.tsv).
pub(crate) fn read(text: &str, tab: bool) -> Result<Vec<Sheet>, IngestError> {
    let sep = if tab { b'\t' } else { separator(text) };
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(sep)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let mut sheets = Vec::new();
    let mut sheet = Sheet { line: 1, ..Sheet::default() };
    let mut moves_started = false;
    let mut next_ply = 1;
    for record in reader.records() {
        let record = record.map_err(|e| IngestError::Syntax {
            line: e.position().map_or(1, |p| p.line() as usize),
            message: format!("CSV: {e}"),
        })?;
        let line = record.position().map_or(1, |p| p.line() as usize);
        // A quote left open swallows the rest of the file into one cell.
        if record.iter().any(|c| c.contains('\n')) {
            return Err(IngestError::Syntax { line, message: "CSV: a quote opened here is never closed".into() });
        }
        let cells: Vec<&str> = record.iter().collect();
        let Some(first) = cells.iter().position(|c| !c.is_empty()) else {
            continue;
        };
        let head = cells[first];
        let number = head.trim_end_matches(['.', ')']).parse::<u32>().ok();
        let title = |k: usize| cells.get(k).is_some_and(|c| canonical(c).is_some());
        let key_row = canonical(head).is_some_and(|t| t != "Result") && !title(first + 1) && !title(first + 2);
        if moves_started && (key_row || number == Some(1) && next_ply > 2) {
            sheets.push(std::mem::replace(&mut sheet, Sheet { line, ..Sheet::default() }));
            (moves_started, next_ply) = (false, 1);
        }
        if let Some(n) = number
            && (1..2000).contains(&n)
        {
            // A move row: number, white, black.
            moves_started = true;
            next_ply = 2 * n - 1;
            for (side, cell) in cells.iter().enumerate().skip(first + 1).take(2) {
                let ply = 2 * n - 1 + (side - first - 1) as u32;
                push(&mut sheet, cell, line, col_of(&cells, side), ply);
                next_ply = ply + 1;
            }
        } else if let Some(tag) = canonical(head) {
            let value = cells.get(first + 1).copied().unwrap_or_default();
            if tag == "Result" {
                sheet.result = GameResult::parse(value).or(sheet.result);
            }
            // The header row of the move table reuses "White"/"Black" as titles.
            if !(moves_started
                || canonical(value).is_some()
                || cells.len() > first + 2 && canonical(cells[first + 2]).is_some())
            {
                sheet.set_header(tag, value);
            }
        } else if cells.len() == 1 + first && GameResult::parse(head).is_some() {
            sheet.result = GameResult::parse(head);
        } else if !moves_started && cells.len() == first + 2 && plausible_key(head) {
            sheet.set_header(&tag_name(head), cells[first + 1]);
        } else if moves_started || head == "#" {
            // Column titles ("#", "Nr", "Move") or, once moves started, a row of
            // moves without a number.
            if moves_started && cells[first..].iter().all(|c| c.chars().any(|c| c.is_ascii_digit()) || c.is_empty()) {
                for (side, cell) in cells.iter().enumerate().skip(first).take(2) {
                    push(&mut sheet, cell, line, col_of(&cells, side), next_ply);
                    next_ply += 1;
                }
            }
        }
    }
    sheets.push(sheet);
    footer_kept(&mut sheets);
    Ok(sheets)
}

fn push(sheet: &mut Sheet, cell: &str, line: usize, col: usize, ply: u32) {
    if cell.is_empty() {
        return;
    }
    if let Some(r) = GameResult::parse(cell)
        && cell != "="
    {
        sheet.result = Some(r);
        return;
    }
    sheet.entries.push(Entry { text: cell.to_string(), line, col, ply: Some(ply), ..Entry::default() });
}

/// Column of cell `i` (1-based), counting cell widths and separators (approximate
/// where cells were quoted or padded).
fn col_of(cells: &[&str], i: usize) -> usize {
    1 + cells[..i].iter().map(|c| c.chars().count() + 1).sum::<usize>()
}

/// The separator used: the one of `;`, tab, `,` that most lines contain.
fn separator(text: &str) -> u8 {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).take(50).collect();
    let count = |c: char| lines.iter().filter(|l| l.contains(c)).count();
    [b'\t', b';', b','].into_iter().max_by_key(|&s| (count(s as char), s == b'\t')).unwrap_or(b',')
}
