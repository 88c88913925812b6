//! PGN in export format (PGN standard, section 8): the Seven Tag Roster in
//! order, then Board and the other tags; English SAN with move numbers; lines
//! of at most 80 characters; findings as comments at their move.

use crate::finding::Finding;
use crate::reconstruct::Game;
use crate::sheet::Sheet;

const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];
/// Headers that describe the sheet, not the game: not written as tags.
const NOT_TAGS: [&str; 1] = ["Language"];
const MAX_LINE: usize = 80;

/// The tags of a game in export order, with the roster's defaults filled in.
pub fn tags(sheet: &Sheet, game: &Game) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = ROSTER
        .iter()
        .map(|&k| {
            let v = match k {
                "Result" => game.result.as_pgn().to_string(),
                "Date" => sheet
                    .header(k)
                    .map_or_else(|| "????.??.??".to_string(), pgn_date),
                _ => sheet.header(k).unwrap_or("?").to_string(),
            };
            (k.to_string(), v)
        })
        .collect();
    if let Some(b) = sheet.header("Board") {
        out.push(("Board".into(), b.into()));
    }
    for (k, v) in &sheet.headers {
        if !ROSTER.contains(&k.as_str())
            && k != "Board"
            && !NOT_TAGS.contains(&k.as_str())
            && is_symbol(k)
        {
            out.push((k.clone(), v.clone()));
        }
    }
    out
}

/// Writes one game.
pub fn write(sheet: &Sheet, game: &Game) -> String {
    let mut s = String::new();
    for (k, v) in tags(sheet, game) {
        s.push_str(&format!(
            "[{k} \"{}\"]\n",
            v.replace('\\', "\\\\").replace('"', "\\\"")
        ));
    }
    s.push('\n');
    let mut w = Wrapper::default();
    // Comments before the first move: the sheet's own, then findings about the
    // whole game and about a move that could not be read first.
    let before: Vec<String> = sheet
        .comments
        .iter()
        .cloned()
        .chain(
            game.findings
                .iter()
                .filter(|f| f.at().is_none_or(|_| game.moves.is_empty()))
                .map(comment_of),
        )
        .collect();
    for c in &before {
        w.comment(c);
    }
    let mut need_number = true;
    for (i, played) in game.moves.iter().enumerate() {
        let ply = i as u32 + 1;
        if ply % 2 == 1 {
            w.token(&format!("{}.", ply.div_ceil(2)));
        } else if need_number {
            w.token(&format!("{}...", ply / 2));
        }
        w.token(&played.san.to_string());
        for n in &played.nags {
            w.token(&format!("${n}"));
        }
        need_number = false;
        let mut comments: Vec<String> = played.entry.map(|e| sheet.entries[e].comments.clone()).unwrap_or_default();
        if played.draw_offer {
            comments.push("(=) draw offered".into());
        }
        let last = i + 1 == game.moves.len();
        comments.extend(
            game.findings
                .iter()
                .filter(|f| {
                    f.at()
                        .is_some_and(|at| at.ply == ply || (last && at.ply > ply))
                })
                .map(comment_of),
        );
        for c in &comments {
            w.comment(c);
            need_number = true;
        }
    }
    w.token(game.result.as_pgn());
    let mut out = s + &w.finish();
    out.push('\n');
    out
}

fn comment_of(f: &Finding) -> String {
    format!("{}: {}", f.code(), f.message())
}

/// A PGN tag name is a symbol: letters, digits and `_+#=:-`.
fn is_symbol(k: &str) -> bool {
    k.chars().next().is_some_and(|c| c.is_ascii_alphanumeric())
        && k.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_+#=:-".contains(c))
}

/// A date in PGN form (`YYYY.MM.DD`, `??` for unknown parts) from the ways
/// sheets write it: `2023.10.04`, `2023-10-04`, `04/10/2023`, `4.10.2023`.
pub fn pgn_date(d: &str) -> String {
    let parts: Vec<&str> = d.trim().split(['.', '-', '/']).collect();
    let ok = |p: &str, n: usize| p.len() == n && p.chars().all(|c| c.is_ascii_digit() || c == '?');
    match parts.as_slice() {
        [y, m, dd] if ok(y, 4) && m.len() <= 2 && dd.len() <= 2 => format!("{y}.{m:0>2}.{dd:0>2}"),
        [dd, m, y] if ok(y, 4) && dd.len() <= 2 && m.len() <= 2 => format!("{y}.{m:0>2}.{dd:0>2}"),
        [y] if ok(y, 4) => format!("{y}.??.??"),
        _ => "????.??.??".into(),
    }
}

/// Lays tokens out in lines of at most 80 characters.
#[derive(Default)]
struct Wrapper {
    out: String,
    line: usize,
}

impl Wrapper {
    fn token(&mut self, t: &str) {
        let len = t.chars().count();
        if self.line > 0 && self.line + 1 + len > MAX_LINE {
            self.out.push('\n');
            self.line = 0;
        }
        if self.line > 0 {
            self.out.push(' ');
            self.line += 1;
        }
        self.out.push_str(t);
        self.line += len;
    }

    fn comment(&mut self, text: &str) {
        let clean = text.replace(['{', '}'], "");
        let words: Vec<&str> = clean.split_whitespace().collect();
        match words.as_slice() {
            [] => {}
            [one] => self.token(&format!("{{{one}}}")),
            [first, mid @ .., last] => {
                self.token(&format!("{{{first}"));
                for w in mid {
                    self.token(w);
                }
                self.token(&format!("{last}}}"));
            }
        }
    }

    fn finish(self) -> String {
        self.out
    }
}
