//! PGN in export format (PGN standard, section 8): the Seven Tag Roster in
//! order, then Board and the other tags; English SAN with move numbers; lines
//! of at most 80 characters; findings as comments at their move, then the
//! variations typed there (see [`super::variation`]).

use super::variation::Written;
use crate::finding::{Finding, ReportLanguage};
use crate::reconstruct::Game;
use crate::sheet::Sheet;

pub(crate) use super::san::san_text;

const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];
/// Headers that describe the sheet, not the game: not written as tags.
const NOT_TAGS: [&str; 1] = ["Language"];
/// Headers of the start, in any case: written from the game's start, as
/// the PGN standard spells them, where it is not the standard start.
const START_TAGS: [&str; 2] = ["FEN", "SetUp"];
const MAX_LINE: usize = 80;

/// The tags of a game in export order, with the roster's defaults filled in;
/// after the roster, for a game from a set-up position, `Variant` (Chess960),
/// `SetUp` and `FEN` (PGN standard, 9.7).
pub(crate) fn tags(sheet: &Sheet, game: &Game) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = ROSTER
        .iter()
        .map(|&k| {
            let v = match k {
                "Result" => game.result.as_pgn().to_string(),
                "Date" => sheet.header(k).map_or_else(|| "????.??.??".to_string(), pgn_date),
                _ => sheet.header(k).unwrap_or("?").to_string(),
            };
            (k.to_string(), v)
        })
        .collect();
    let chess960 = game.start.chess960();
    if chess960 {
        out.push(("Variant".into(), "Chess960".into()));
    }
    if !game.start.is_standard() {
        out.push(("SetUp".into(), "1".into()));
        out.push(("FEN".into(), game.start.fen()));
    }
    if let Some(b) = sheet.header("Board") {
        out.push(("Board".into(), b.into()));
    }
    let start_tag = |k: &str| {
        START_TAGS.iter().any(|t| t.eq_ignore_ascii_case(k)) || (chess960 && k.eq_ignore_ascii_case("Variant"))
    };
    for (k, v) in &sheet.headers {
        if !ROSTER.contains(&k.as_str())
            && k != "Board"
            && !NOT_TAGS.contains(&k.as_str())
            && !start_tag(k)
            && is_symbol(k)
        {
            out.push((k.clone(), v.clone()));
        }
    }
    out
}

/// Writes one game whose tags ([`tags`]) and move texts ([`san_text`] of each
/// move, one per move) the caller has already worked out; the findings'
/// comments in `lang`.
pub(crate) fn write_with(
    sheet: &Sheet,
    game: &Game,
    tags: &[(String, String)],
    sans: &[String],
    lang: ReportLanguage,
) -> String {
    debug_assert_eq!(sans.len(), game.moves.len(), "one SAN per move");
    let mut s = String::with_capacity(256 + 8 * game.moves.len());
    push_tags(&mut s, tags);
    s.push('\n');
    let mut w = Wrapper { out: s, line: 0 };
    // Comments before the first move: the sheet's own, then findings about the
    // whole game and about a move that could not be read first.
    for c in &sheet.comments {
        w.comment(c);
    }
    // Moves are numbered from the start's move number (`23... Rxe4 24. Qd2`),
    // in the findings' messages too.
    let before = game.start.first_ply() - 1;
    let comment = |f: &Finding| match before {
        0 => comment_of(f, lang),
        _ => comment_of(&f.numbered_after(before), lang),
    };
    for f in game.findings.iter().filter(|f| f.at().is_none_or(|_| game.moves.is_empty())) {
        w.comment(&comment(f));
    }
    let variations = super::variation::of_game(sheet, game);
    let mut need_number = true;
    let mut number = String::with_capacity(8);
    for (i, (played, san)) in game.moves.iter().zip(sans).enumerate() {
        let ply = i as u32 + 1;
        let numbered = ply + before;
        if numbered % 2 == 1 || need_number {
            number.clear();
            push_number(&mut number, numbered.div_ceil(2));
            number.push_str(if numbered % 2 == 1 { "." } else { "..." });
            w.token(&number);
        }
        w.token(san);
        for &n in &played.nags {
            number.clear();
            number.push('$');
            push_number(&mut number, u32::from(n));
            w.token(&number);
        }
        need_number = false;
        if let Some(e) = played.entry {
            for c in &sheet.entries[e].comments {
                w.comment(c);
                need_number = true;
            }
        }
        let last = i + 1 == game.moves.len();
        for f in game.findings.iter().filter(|f| f.at().is_some_and(|at| at.ply == ply || (last && at.ply > ply))) {
            w.comment(&comment(f));
            need_number = true;
        }
        // Variations after the comments about the move they are an
        // alternative to: those stay next to it.
        for v in variations.get(i).into_iter().flatten() {
            match v {
                Written::Line(tokens) => tokens.iter().for_each(|t| w.token(t)),
                Written::Comment(c) => w.comment(c),
            }
            need_number = true;
        }
    }
    w.token(game.result.as_pgn());
    let mut out = w.finish();
    out.push('\n');
    out
}

/// Appends the tag pairs, one a line, their values escaped.
fn push_tags(s: &mut String, tags: &[(String, String)]) {
    for (k, v) in tags {
        s.push('[');
        s.push_str(k);
        s.push_str(" \"");
        if v.contains(['\\', '"']) {
            for c in v.chars() {
                match c {
                    '\\' => s.push_str("\\\\"),
                    '"' => s.push_str("\\\""),
                    c => s.push(c),
                }
            }
        } else {
            s.push_str(v);
        }
        s.push_str("\"]\n");
    }
}

/// Appends a number in decimal.
fn push_number(s: &mut String, n: u32) {
    let mut digits = [0u8; 10];
    let mut i = digits.len();
    let mut n = n;
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in &digits[i..] {
        s.push(char::from(d));
    }
}

/// A finding as a PGN comment: its code (the same in every language) and
/// its message in `lang`.
pub(crate) fn comment_of(f: &Finding, lang: ReportLanguage) -> String {
    match f {
        // `{arbiter Ana López: 23...Bd6, copies disagreed}`: the decision says who.
        Finding::ArbiterDecision { .. } => f.decision_in(lang).unwrap_or_default(),
        _ => format!("{}: {}", f.code(), f.message_in(lang)),
    }
}

/// A PGN tag name is a symbol: letters, digits and `_+#=:-`.
fn is_symbol(k: &str) -> bool {
    k.chars().next().is_some_and(|c| c.is_ascii_alphanumeric())
        && k.chars().all(|c| c.is_ascii_alphanumeric() || "_+#=:-".contains(c))
}

/// A date in PGN form (`YYYY.MM.DD`, `??` for unknown parts) from the ways
/// sheets write it: `2023.10.04`, `2023-10-04`, `04/10/2023`, `4.10.2023`.
pub(crate) fn pgn_date(d: &str) -> String {
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
        let len = char_count(t);
        self.space_for(len);
        self.out.push_str(t);
        self.line += len;
    }

    /// Starts a new line when a token of `len` characters does not fit on
    /// this one, else puts the space before it.
    fn space_for(&mut self, len: usize) {
        if self.line > 0 && self.line + 1 + len > MAX_LINE {
            self.out.push('\n');
            self.line = 0;
        }
        if self.line > 0 {
            self.out.push(' ');
            self.line += 1;
        }
    }

    /// A token made of `t` between `open` and `close` (the braces of a comment).
    fn token_in(&mut self, open: &str, t: &str, close: &str) {
        let len = open.len() + char_count(t) + close.len();
        self.space_for(len);
        self.out.push_str(open);
        self.out.push_str(t);
        self.out.push_str(close);
        self.line += len;
    }

    fn comment(&mut self, text: &str) {
        let clean;
        let text = if text.contains(['{', '}']) {
            clean = text.replace(['{', '}'], "");
            clean.as_str()
        } else {
            text
        };
        let mut words = text.split_whitespace().peekable();
        let Some(first) = words.next() else {
            return;
        };
        if words.peek().is_none() {
            self.token_in("{", first, "}");
            return;
        }
        self.token_in("{", first, "");
        while let Some(w) = words.next() {
            if words.peek().is_none() {
                self.token_in("", w, "}");
            } else {
                self.token(w);
            }
        }
    }

    fn finish(self) -> String {
        self.out
    }
}

/// Characters in `t`, counted without decoding when it is ASCII.
fn char_count(t: &str) -> usize {
    if t.is_ascii() { t.len() } else { t.chars().count() }
}
