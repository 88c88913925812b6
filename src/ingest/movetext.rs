//! Movetext in any layout people type: `1.d4 Cf6, 2.c4 e6`, `1. d4 Cf6`, one
//! numbered pair per line separated by spaces or tabs, `12. ... Cf6`, `1) d4`,
//! moves without numbers, PGN with comments, NAGs and variations.

use super::printed::{close_printed, is_resignation, side_named};
use crate::notation::language::is_article;
use crate::notation::lex::{is_en_passant_mark, standalone_nag};
use crate::sheet::{Entry, GameResult, Sheet};

/// Whether `;` starts a comment (PGN) or separates moves (plain text).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dialect {
    Plain,
    Pgn,
}

/// Texts typed in an illegible box.
pub(crate) const ILLEGIBLE: &[&str] =
    &["?", "??", "???", "X", "XX", "-", "--", "---", "—", "_", "__", "___", "…?", "...", "..", "…"];

/// Whether `t` is what people type in a box they could not or did not
/// fill: one of [`ILLEGIBLE`], or a run of dots (`........`, as books print
/// an omitted move).
pub(crate) fn is_illegible_text(t: &str) -> bool {
    ILLEGIBLE.contains(&t) || is_dots(t)
}

/// The NAG of an annotation typed as a box of its own that an illegible
/// box could also be (`?`, `??`, `?!`, `!?`).
fn standalone_glyph(t: &str) -> Option<u8> {
    match t {
        "?" => Some(2),
        "??" => Some(4),
        "!?" => Some(5),
        "?!" => Some(6),
        _ => None,
    }
}

/// Two or more dots or ellipses, and nothing else.
fn is_dots(t: &str) -> bool {
    t.len() >= 2 && t.chars().all(|c| matches!(c, '.' | '…'))
}

/// A check or mate written as a word or a sign of its own after the move, as
/// books print it (`NxN ch`, `B-K7 mate`, `e4 +`): the sign it stands for.
fn check_word(t: &str) -> Option<&'static str> {
    // No such word has a digit, nor more than ten letters: a move is not
    // looked at further.
    if t.len() > 12 || t.bytes().any(|b| b.is_ascii_digit()) {
        return None;
    }
    let w = t.trim_end_matches('.').to_ascii_lowercase().replace('.', "");
    match w.as_str() {
        "ch" | "check" | "disch" | "dblch" | "dbl" | "dis" | "+" | "jaque" | "j" | "échec" | "echec" => Some("+"),
        "mate" | "checkmate" | "mat" | "mate!" | "#" | "++" | "mate++" => Some("#"),
        _ => None,
    }
}

/// A box's text with what a printed page adds to a move taken off: the
/// full stop a sentence or a row ends with (`Kpe8-e7.`), footnote stars
/// (`Сf1-c4**`), and a mate written as a word or a cross glued on
/// (`Rd8mate`, `Кc3-d5×`: `#`).
fn as_written(typed: &str) -> String {
    let t = typed.strip_suffix('.').filter(|m| !m.is_empty() && !m.ends_with('.')).unwrap_or(typed);
    let t = t.trim_end_matches('*');
    let a_move = |m: &str| m.len() >= 2 && m.bytes().any(|b| b.is_ascii_digit());
    for mate in ["mate", "matt", "mat", "×"] {
        let cut = t.len().saturating_sub(mate.len());
        if t.is_char_boundary(cut) && t[cut..].eq_ignore_ascii_case(mate) && a_move(&t[..cut]) {
            return format!("{}#", &t[..cut]);
        }
    }
    if t.is_empty() { typed.to_string() } else { t.to_string() }
}

/// The characters of movetext still to read, with their byte offsets.
type Chars<'t> = std::iter::Peekable<std::str::CharIndices<'t>>;

/// Reads movetext into `sheet`. `text` starts at `line` (1-based) and column `col`.
/// Returns the byte offset where the game ended (a result token in PGN), or `text.len()`.
pub(crate) fn read_movetext(text: &str, line: usize, col: usize, dialect: Dialect, sheet: &mut Sheet) -> usize {
    let closed = if dialect == Dialect::Plain { close_printed(text) } else { std::borrow::Cow::Borrowed(text) };
    let text = &*closed;
    let mut r = Reader {
        sheet,
        since_number: 0,
        next_ply: None,
        after_number: false,
        before_number: None,
        line,
        col,
        last_token_line: 0,
        first_on_line: false,
        after_end: None,
        dialect,
        dash: None,
    };
    let mut chars = text.char_indices().peekable();
    let mut token = String::new();
    let mut token_at = (line, col);
    while let Some((i, c)) = chars.next() {
        match c {
            '{' => {
                r.flush(&mut token, token_at);
                r.brace_comment(&mut chars);
                continue;
            }
            ';' if dialect == Dialect::Pgn => {
                r.flush(&mut token, token_at);
                r.line_comment(&mut chars);
                continue;
            }
            '(' => {
                r.parenthesis(&text[i..], &mut chars, &mut token);
                continue;
            }
            // `[2. f4 exf4 3. Nf3]`: a variation in brackets, as web pages
            // print them, kept apart, never in the game.
            '[' if dialect == Dialect::Plain && token.is_empty() => {
                r.bracket(&mut chars);
                continue;
            }
            // `;` parts moves in plain text (`1. P4R, P4R; 2. C3AR`), `|` the
            // columns of a table.
            c if c.is_whitespace() || c == ',' || (matches!(c, ';' | '|') && dialect == Dialect::Plain) => {
                if r.flush(&mut token, token_at) && dialect == Dialect::Pgn {
                    return i;
                }
                r.advance(c);
                continue;
            }
            _ => {}
        }
        if token.is_empty() {
            token_at = (r.line, r.col);
        }
        token.push(c);
        r.advance(c);
        // The plain ASCII characters that follow in the token ("Cf3+") are
        // taken at once: none of them needs a look of its own.
        let from = i + c.len_utf8();
        let run = text.as_bytes()[from..].iter().take_while(|&&b| plain(b)).count();
        if run > 0 {
            token.push_str(&text[from..from + run]);
            r.col += run;
            chars.nth(run - 1);
        }
    }
    r.flush(&mut token, token_at);
    if let Some((dash, at)) = r.dash.take() {
        r.classify(&dash, at, false);
    }
    if r.sheet.result.is_none() {
        r.row_ends();
    }
    if let Some(tail) = r.after_end.take() {
        r.comment(tail);
    }
    // `18) bxc5, …` closing a game still in play: the box not yet filled
    // is no move.
    if r.sheet.result.is_none()
        && r.sheet.entries.len() > 1
        && let Some(unfilled) = r.sheet.entries.pop_if(|e| is_dots(&e.text))
    {
        r.comments_of(unfilled);
    }
    text.len()
}

impl Reader<'_> {
    /// `{...}`, its `{` just read: kept as a comment of the entry before.
    fn brace_comment(&mut self, chars: &mut Chars<'_>) {
        let mut body = String::new();
        self.advance('{');
        for (_, c) in chars.by_ref() {
            self.advance(c);
            if c == '}' {
                break;
            }
            body.push(c);
        }
        self.comment(body.split_whitespace().collect::<Vec<_>>().join(" "));
    }

    /// `[...]`, its `[` just read (nested ones within): a variation of the
    /// entry before.
    fn bracket(&mut self, chars: &mut Chars<'_>) {
        let body = self.nested(chars, '[', ']');
        self.variation(body, ('[', ']'));
    }

    /// A variation typed after the last entry, kept with it. Before any
    /// entry it is an alternative to no move: a comment of the sheet, in
    /// the `marks` it was typed in.
    fn variation(&mut self, body: String, marks: (char, char)) {
        let body = body.trim();
        if body.is_empty() {
            return;
        }
        match self.sheet.entries.last_mut() {
            Some(e) => e.variations.push(body.to_string()),
            None => {
                let words = body.split_whitespace().collect::<Vec<_>>().join(" ");
                self.sheet.comments.push(format!("{}{words}{}", marks.0, marks.1));
            }
        }
    }

    /// What stands between `open`, just read, and the `close` that matches
    /// it (others nested within), read past.
    fn nested(&mut self, chars: &mut Chars<'_>, open: char, close: char) -> String {
        let (mut body, mut depth) = (String::new(), 1);
        self.advance(open);
        for (_, c) in chars.by_ref() {
            self.advance(c);
            depth = if c == open {
                depth + 1
            } else if c == close {
                depth - 1
            } else {
                depth
            };
            if depth == 0 {
                break;
            }
            body.push(c);
        }
        body
    }

    /// `; ...` to the end of the line (PGN), its `;` just read.
    fn line_comment(&mut self, chars: &mut Chars<'_>) {
        let mut body = String::new();
        while let Some(&(_, c)) = chars.peek() {
            if c == '\n' {
                break;
            }
            body.push(c);
            self.advance(c);
            chars.next();
        }
        self.comment(body.trim().to_string());
    }

    /// A `(`, just read, that starts `rest`: part of the token it is
    /// attached to (`d8(D)`, `Tf1(=)`); alone, `(=)` is the draw offer and
    /// anything else a variation of the entry before.
    fn parenthesis(&mut self, rest: &str, chars: &mut Chars<'_>, token: &mut String) {
        if !token.is_empty() {
            token.push('(');
            self.advance('(');
            while let Some(&(_, c)) = chars.peek() {
                token.push(c);
                self.advance(c);
                chars.next();
                if c == ')' {
                    break;
                }
            }
            return;
        }
        if rest.starts_with("(=)") {
            self.advance('(');
            for _ in 0..2 {
                let (_, c) = chars.next().unwrap_or((0, ' '));
                self.advance(c);
            }
            self.draw_offer();
            return;
        }
        let body = self.nested(chars, '(', ')');
        self.variation(body, ('(', ')'));
    }
}

/// An ASCII character that goes into the token it is in and moves on one
/// column: not whitespace (as `char::is_whitespace` has it), not a separator,
/// not the start of a comment or of something in parentheses.
fn plain(b: u8) -> bool {
    b.is_ascii() && !matches!(b, b'\t' | b'\n' | 0x0B | 0x0C | b'\r' | b' ' | b',' | b';' | b'|' | b'{' | b'(')
}

struct Reader<'a> {
    sheet: &'a mut Sheet,
    /// Entries read since the last move number.
    since_number: usize,
    /// The half-move the next box stands at, from the last move number seen.
    next_ply: Option<u32>,
    /// The last token was a move number: what follows it is a box.
    after_number: bool,
    /// `next_ply` before the last move number.
    before_number: Option<u32>,
    line: usize,
    col: usize,
    /// The line of the token before, and whether this one is the first of its line.
    last_token_line: usize,
    first_on_line: bool,
    /// Once a player resigned (or the result is written) in plain text, what
    /// follows: the moves that might have come, kept as a comment, never played.
    after_end: Option<String>,
    dialect: Dialect,
    /// A dash after White's move of a row, kept until the next token tells
    /// whether it parts the row's moves or fills Black's box.
    dash: Option<(String, (usize, usize))>,
}

impl Reader<'_> {
    fn advance(&mut self, c: char) {
        if c == '\n' {
            self.line += 1;
            self.col = 1;
        } else if c != '\r' {
            self.col += 1;
        }
    }

    fn comment(&mut self, text: String) {
        if text.is_empty() {
            return;
        }
        match self.sheet.entries.last_mut() {
            Some(e) => e.comments.push(text),
            None => self.sheet.comments.push(text),
        }
    }

    /// The comments of an entry that was no box, kept on the entry before.
    fn comments_of(&mut self, gone: Entry) {
        for c in gone.comments {
            self.comment(c);
        }
    }

    fn draw_offer(&mut self) {
        if let Some(e) = self.sheet.entries.last_mut() {
            e.draw_offer = true;
        }
    }

    /// Classifies a finished token. Returns true when it was a result token.
    fn flush(&mut self, token: &mut String, at: (usize, usize)) -> bool {
        if token.is_empty() {
            return false;
        }
        // The buffer is kept for the next token: no allocation per token.
        let result = self.token(token, at);
        token.clear();
        result
    }

    fn token(&mut self, t: &str, at: (usize, usize)) -> bool {
        // `.21.Sc6`, `15.Ta3).15...f4?`: a full stop glued to the next move's
        // number ends the sentence or note before it.
        let bare = t.trim_start_matches('.');
        let (t, at) = if bare.len() < t.len() && bare.starts_with(|c: char| c.is_ascii_digit()) {
            (bare, (at.0, at.1 + t.len() - bare.len()))
        } else {
            (t, at)
        };
        let after_number = std::mem::take(&mut self.after_number);
        self.first_on_line = at.0 != self.last_token_line;
        self.last_token_line = at.0;
        if let Some(tail) = self.after_end.as_mut() {
            if !tail.is_empty() {
                tail.push(' ');
            }
            tail.push_str(t);
            return false;
        }
        if let Some((dash, dash_at)) = self.dash.take() {
            // `1. e4 – c5;`: a dash between the two moves of a row parts
            // them; before a number, a result or nothing, it filled Black's box.
            let castles = t.trim_end_matches(|c: char| !c.is_alphanumeric()).starts_with("0-0");
            let a_move_follows =
                (castles || !t.starts_with(|c: char| c.is_ascii_digit())) && GameResult::parse(t).is_none();
            if !a_move_follows {
                self.classify(&dash, dash_at, false);
            }
        }
        let black_next = self.since_number <= 1 && self.next_ply.is_some_and(|p| p % 2 == 0);
        if self.dialect == Dialect::Plain && matches!(t, "-" | "–" | "—") && black_next && !after_number {
            self.dash = Some((t.to_string(), at));
            return false;
        }
        let result = self.classify(t, at, after_number);
        if result && self.dialect == Dialect::Plain && !self.sheet.entries.is_empty() {
            self.after_end = Some(String::new());
        }
        result
    }

    fn classify(&mut self, t: &str, (line, col): (usize, usize), after_number: bool) -> bool {
        if let Some(result) = GameResult::parse(t)
            && !matches!(t, "=" | "+-" | "-+")
        {
            self.row_ends();
            self.sheet.result = Some(result);
            return true;
        }
        // A move number, alone or stuck to the move: "12", "12.", "12...", "1)", "1.d4".
        let digits = t.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 {
            let rest = &t[digits..];
            let dots = rest.trim_start_matches(['.', ')', '…']);
            let marks = &rest[..rest.len() - dots.len()];
            // `13.-, e5`, `21.-, d5`: a dash in White's box, played above:
            // the number of Black's move.
            let dashed = !marks.is_empty() && matches!(dots.trim_end_matches([',', ';']), "-" | "–" | "—");
            let (dots, marks) = if dashed { ("", "...") } else { (dots, marks) };
            let plain_number = rest.is_empty();
            let number = t[..digits].parse::<u32>().ok().filter(|n| (1..2000).contains(n));
            // `65` or `96` where a box is (right after a move number, or in
            // Black's box of a row, not numbered as the next row) is a move
            // with a letter written like a digit (b5, g6), not a number.
            let garbled_move = plain_number
                && t.len() == 2
                && matches!(t.as_bytes()[1], b'1'..=b'8')
                && (after_number
                    || self.next_ply.is_some_and(|p| p % 2 == 0 && number != Some(p / 2) && number != Some(p / 2 + 1)));
            // `5254` where a box is: a move in ICCF numeric notation (e2-e4).
            let numeric_move = plain_number
                && t.len() == 4
                && t.bytes().all(|b| matches!(b, b'1'..=b'8'))
                && (after_number || self.next_ply.is_some_and(|p| number != Some(p / 2) && number != Some(p / 2 + 1)));
            if (plain_number || !marks.is_empty())
                && !garbled_move
                && !numeric_move
                && let Some(n) = number
            {
                // Books in two columns number Black's move again (`1. P-K4 |
                // 1. P-K4`): the number of the move whose Black box is next,
                // one entry after the last number. More entries after it
                // than the row has boxes, one of them a `?` (`2. Nf3 ? Nc6
                // 3.`, `8...Re7 ? 9.`), that `?` was the annotation of the
                // move before, not a box.
                let overshot = self.next_ply == Some(2 * n);
                if overshot && self.since_number >= 2 && self.annotation_not_a_box() {
                    self.next_ply = Some(2 * n - 1);
                }
                let black = marks.contains("..") || marks.contains('…') || (overshot && self.since_number == 1);
                self.since_number = 0;
                self.before_number = self.next_ply;
                self.next_ply = Some(2 * n - 1 + u32::from(black));
                if !dots.is_empty() {
                    let c = col + t[..t.len() - dots.len()].chars().count();
                    self.classify(dots, (line, c), true);
                    return false;
                }
                self.after_number = true;
                return false;
            }
        }
        // "12 ..." after White's 12th move (or opening a record that starts
        // there) is the ellipsis before Black's; a "..." anywhere else fills
        // a box the writer could not or did not fill ("1 ... d5", "12 ... Nf6"
        // after 11...Be7, "Nf3 ..." in Black's box): an illegible entry, kept
        // so the moves after it stay in their boxes.
        let ellipsis = after_number
            && match (self.before_number, self.next_ply) {
                (Some(b), Some(p)) => b == p + 1 || (b == p && p % 2 == 0),
                (None, Some(p)) => p > 1,
                _ => false,
            };
        if is_dots(t) && !after_number && self.placeholder(line) {
            return false;
        }
        // `14) a3, …` then `14) …, Cd4;`: Black's box left for the row that
        // repeats the number, a mark on both rows.
        if is_dots(t) && after_number && self.repeated_row() {
            return false;
        }
        if is_dots(t) && ellipsis {
            if let Some(p) = self.next_ply.as_mut() {
                *p += u32::from(*p % 2 == 1);
            }
            self.after_number = after_number;
            return false;
        }
        // `38. R-Q8 ch Resigns`: the side to move gave up; nothing after it is played.
        if is_resignation(t) {
            let loser = self.named_before(line).unwrap_or_else(|| {
                let white_to_move = self.next_ply.map_or(self.sheet.entries.len().is_multiple_of(2), |p| p % 2 == 1);
                if white_to_move { shakmaty::Color::White } else { shakmaty::Color::Black }
            });
            self.sheet.result = Some(GameResult::lost_by(loser));
            return true;
        }
        // A full stop left alone (`4th (best).`): punctuation, no box; a
        // slash between the pairs of a newspaper's column (`1 d4, d5 / 2 c4`).
        if t == "." || t == "/" {
            return false;
        }
        if let Some(n) = t.strip_prefix('$').and_then(|n| n.parse::<u8>().ok()) {
            self.nag(n);
            return false;
        }
        if let Some(n) = standalone_nag(t)
            && !ILLEGIBLE.contains(&t)
        {
            self.nag(n);
            return false;
        }
        if let Some(sign) = check_word(t)
            && let Some(e) = self.sheet.entries.last_mut()
        {
            // `dis ch`, `ch mate`: one sign for the words together.
            if sign == "#" && e.text.ends_with('+') {
                e.text.pop();
            }
            if !e.text.ends_with(['+', '#']) {
                e.text.push_str(sign);
            }
            return false;
        }
        if is_en_passant_mark(t) && !self.sheet.entries.is_empty() {
            if let Some(e) = self.sheet.entries.last_mut() {
                e.text.push_str(" e.p.");
            }
            return false;
        }
        self.sheet.entries.push(Entry { text: as_written(t), line, col, ply: self.next_ply, ..Entry::default() });
        self.since_number += 1;
        if let Some(p) = self.next_ply.as_mut() {
            *p += 1;
        }
        false
    }

    /// The side named just before a resignation on its line (`Черные
    /// сдались`, `Las negras abandonan`): those words taken back from the
    /// entries, and the side they name.
    fn named_before(&mut self, line: usize) -> Option<shakmaty::Color> {
        let last = self.sheet.entries.last().filter(|e| e.line == line)?;
        let side = side_named(&last.text)?;
        self.take_back();
        if self.sheet.entries.last().is_some_and(|e| e.line == line && is_article(&e.text.to_lowercase())) {
            self.take_back();
        }
        Some(side)
    }

    /// The last entry was no box: taken back, and its half-move freed.
    fn take_back(&mut self) {
        self.sheet.entries.pop();
        self.since_number = self.since_number.saturating_sub(1);
        if let Some(p) = self.next_ply.as_mut() {
            *p = p.saturating_sub(1);
        }
    }

    /// A table's column placeholder: `1. e4 ...` then, on the next line,
    /// `... e5` (Black's move in its own row). The `...` at the start of the
    /// line marks the column, not a box; with one at the end of the row
    /// before, that one was a mark too. Whether this `...` was one.
    fn placeholder(&mut self, line: usize) -> bool {
        let black_next = self.next_ply.is_some_and(|p| p % 2 == 0);
        let Some(last) = self.sheet.entries.last() else { return false };
        if !self.first_on_line || last.line >= line {
            return false;
        }
        if is_dots(&last.text) && last.ply.is_some_and(|p| p % 2 == 0) {
            self.take_back();
            return true;
        }
        black_next
    }

    /// A `…` right after a move number that repeats the row whose Black box
    /// was left as `…` on a line before: that box was a mark, taken back,
    /// and Black's move comes next. Whether it was so.
    fn repeated_row(&mut self) -> bool {
        let Some(white) = self.next_ply.filter(|p| p % 2 == 1) else { return false };
        let last = self.sheet.entries.last();
        if !last.is_some_and(|e| is_dots(&e.text) && e.ply == Some(white + 1) && e.line < self.line) {
            return false;
        }
        self.sheet.entries.pop();
        self.next_ply = Some(white + 1);
        true
    }

    /// The record ends (a result, or the text's end): a last row with more
    /// entries than boxes, one of them a `?` alone (`19 Te2 ? Txf2 0-1`),
    /// had the annotation of the move before it, not a box.
    fn row_ends(&mut self) {
        let Some(next) = self.next_ply else { return };
        let start = next.saturating_sub(u32::try_from(self.since_number).unwrap_or(u32::MAX));
        let boxes = if start % 2 == 1 { 2 } else { 1 };
        if self.since_number > boxes && self.annotation_not_a_box() {
            self.next_ply = Some(next - 1);
            self.since_number -= 1;
        }
    }

    /// Of the last three entries, the one that is a `?`, `??`, `?!` or `!?`
    /// alone becomes the annotation of the entry before it, and the entry
    /// after it takes its box. Whether one was.
    fn annotation_not_a_box(&mut self) -> bool {
        let entries = &mut self.sheet.entries;
        let n = entries.len();
        // A glyph in the first box has no entry before it to annotate.
        let Some((k, nag)) =
            (n.saturating_sub(2).max(1)..n).find_map(|k| Some((k, standalone_glyph(&entries[k].text)?)))
        else {
            return false;
        };
        entries.remove(k);
        entries[k - 1].nags.push(nag);
        for p in entries[k..].iter_mut().filter_map(|e| e.ply.as_mut()) {
            *p = p.saturating_sub(1);
        }
        true
    }

    fn nag(&mut self, n: u8) {
        if let Some(e) = self.sheet.entries.last_mut() {
            e.nags.push(n);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Sheet {
        let mut s = Sheet::default();
        read_movetext(text, 1, 1, Dialect::Plain, &mut s);
        s
    }

    fn texts(s: &Sheet) -> Vec<&str> {
        s.entries.iter().map(|e| e.text.as_str()).collect()
    }

    #[test]
    fn a_box_written_as_two_digits_is_a_move_not_a_number() {
        // Dev sheets 356 and 592: `65` for b5 in Black's box, `95` for g5
        // right after a move number. Numbers that follow on stay numbers.
        let s = read("16 Ae2  65\n17 e5 Cd7\n18. 95 Cb6\n19 f4\n20 f5 gxf5");
        assert_eq!(texts(&s), ["Ae2", "65", "e5", "Cd7", "95", "Cb6", "f4", "f5", "gxf5"]);
        let plies: Vec<_> = s.entries.iter().map(|e| e.ply).collect();
        assert_eq!(plies, [31, 32, 33, 34, 35, 36, 37, 39, 40].map(Some));
    }

    #[test]
    fn fide_example_with_commas() {
        let s = read("1.d4 Cf6, 2.c4 e6, 3.Cc3 Ab4, 4.Ad2 0-0");
        assert_eq!(texts(&s), ["d4", "Cf6", "c4", "e6", "Cc3", "Ab4", "Ad2", "0-0"]);
        assert_eq!(s.entries[7].ply, Some(8));
    }

    #[test]
    fn tab_pairs_with_an_empty_black_box() {
        let s = read("1\te4\te5\n2\tCf3\n3\tAc4\tCc6\n");
        assert_eq!(texts(&s), ["e4", "e5", "Cf3", "Ac4", "Cc6"]);
        assert_eq!(s.entries[3].ply, Some(5));
        assert_eq!((s.entries[3].line, s.entries[3].col), (3, 3));
    }

    #[test]
    fn black_continuation_and_parenthesis_numbers() {
        let s = read("12. ... Cf6 13. e5");
        assert_eq!(s.entries[0].ply, Some(24));
        let s = read("12...Cf6");
        assert_eq!(s.entries[0].ply, Some(24));
        let s = read("1) d4 d5 2) c4");
        assert_eq!(texts(&s), ["d4", "d5", "c4"]);
        let s = read("12. Ae2 {a comment} 12... Cf6 13. e5");
        assert_eq!(texts(&s), ["Ae2", "Cf6", "e5"]);
        assert_eq!(s.entries[1].ply, Some(24));
    }

    #[test]
    fn an_ellipsis_in_a_box_is_an_illegible_entry() {
        // Dev sheets 197, 280, 452, 598: the box left as "..." is kept, so
        // the moves after it stay in their boxes (a box dropped reads as a
        // move not written).
        for (text, want) in [
            ("1 ...  d5\n2 c4 e6", vec!["...", "d5", "c4", "e6"]),
            ("23. Cf3 Cd7 24. ... Sd5 25. a3", vec!["Cf3", "Cd7", "...", "Sd5", "a3"]),
            ("3. Cf3 ... 4. Cc3 d5", vec!["Cf3", "...", "Cc3", "d5"]),
            ("19\tSd7\tSf6\n20\t...\tdxe4\n21\tAxe4", vec!["Sd7", "Sf6", "...", "dxe4", "Axe4"]),
        ] {
            let s = read(text);
            assert_eq!(texts(&s), want, "{text}");
            let plies: Vec<u32> = s.entries.iter().filter_map(|e| e.ply).collect();
            assert!(plies.windows(2).all(|w| w[1] == w[0] + 1), "{text}: {plies:?}");
        }
    }

    #[test]
    fn comments_nags_variations_and_draw_offer() {
        let mut s = Sheet::default();
        read_movetext("1. e4 {best by test} e5 $1 (1... c5 2. Nf3) 2. Nf3 (=) Nc6 1-0", 1, 1, Dialect::Pgn, &mut s);
        assert_eq!(texts(&s), ["e4", "e5", "Nf3", "Nc6"]);
        assert_eq!(s.entries[0].comments, ["best by test"]);
        assert_eq!(s.entries[1].nags, [1]);
        assert_eq!(s.entries[1].variations, ["1... c5 2. Nf3"]);
        assert!(s.entries[2].draw_offer);
        assert_eq!(s.result, Some(GameResult::WhiteWins));
    }

    #[test]
    fn a_draw_offer_typed_against_the_next_move_leaves_it_whole() {
        let mut s = Sheet::default();
        read_movetext("1. e4 e5 2. Nf3 (=)Nc6 3. Bb5", 1, 1, Dialect::Plain, &mut s);
        assert_eq!(texts(&s), ["e4", "e5", "Nf3", "Nc6", "Bb5"]);
        assert!(s.entries[2].draw_offer);
        assert_eq!((s.entries[3].line, s.entries[3].col), (1, 20));
    }

    #[test]
    fn illegible_box_is_an_entry() {
        let s = read("1 Sg1-f3  Sg8-f6\n2 c2-c4  c7-c5\n3 ?  g7-g6");
        assert_eq!(texts(&s)[4..], ["?", "g7-g6"]);
    }

    #[test]
    fn lines_and_columns_count_characters() {
        let s = read("1.e4 e5,  2.Сf3 b1(D)\n3.Кxf7+ {ok} d5 $1\t4.0-0");
        let at: Vec<(&str, usize, usize)> = s.entries.iter().map(|e| (e.text.as_str(), e.line, e.col)).collect();
        assert_eq!(
            at,
            [
                ("e4", 1, 3),
                ("e5", 1, 6),
                ("Сf3", 1, 13),
                ("b1(D)", 1, 17),
                ("Кxf7+", 2, 3),
                ("d5", 2, 14),
                ("0-0", 2, 22)
            ]
        );
        assert_eq!(s.entries[4].comments, ["ok"]);
        assert_eq!(s.entries[5].nags, [1]);
        assert_eq!(s.entries[6].ply, Some(7));
    }

    #[test]
    fn check_and_mate_written_as_words_go_with_their_move() {
        let s = read("6. NxN ch QxN 9. R-K1 dis. ch. K-B1 23. B-K7 mate 7. e4 + e5 8. Qh5 ch mate");
        assert_eq!(texts(&s), ["NxN+", "QxN", "R-K1+", "K-B1", "B-K7#", "e4+", "e5", "Qh5#"]);
    }

    #[test]
    fn a_resignation_ends_the_game_with_its_result() {
        let mut s = read("1. P-K4 P-K4 2. Q-R5 K-K2 3. QxKP mate");
        assert_eq!(s.result, None);
        s = read("1. e4 e5 2. Qh5 Ke7 3. Qxe5+ Resigns");
        assert_eq!((s.entries.len(), s.result), (5, Some(GameResult::WhiteWins)));
        s = read("1. e4 e5 2. Qh5 Ke7 abandonan.");
        assert_eq!(s.result, Some(GameResult::BlackWins), "White to move gave up");
    }

    #[test]
    fn an_annotation_typed_apart_is_no_box() {
        let s = read("1. e4 e5 2. Nf3 ? Nc6 3. Bb5 a6");
        assert_eq!(texts(&s), ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]);
        assert_eq!(s.entries[2].nags, [2]);
        let plies: Vec<u32> = s.entries.iter().filter_map(|e| e.ply).collect();
        assert_eq!(plies, [1, 2, 3, 4, 5, 6]);
        // In a box of its own row, a `?` is the illegible box it looks like.
        let s = read("1. e4 e5 2. Nf3 ? 3. Bb5 a6");
        assert_eq!(texts(&s), ["e4", "e5", "Nf3", "?", "Bb5", "a6"]);
    }

    #[test]
    fn a_variation_in_brackets_is_kept_with_its_move() {
        let s = read("1. e4 e5 2. Nf3 [2. f4 exf4 3. Nf3] Nc6 3. Bb5");
        assert_eq!(texts(&s), ["e4", "e5", "Nf3", "Nc6", "Bb5"]);
        assert_eq!(s.entries[2].variations, ["2. f4 exf4 3. Nf3"]);
        assert!(s.entries[2].comments.is_empty());
        assert_eq!(s.entries[3].ply, Some(4));
    }

    #[test]
    fn variations_in_parentheses_are_kept_with_their_move_in_both_dialects() {
        let text = "1. e4 e5 2. Nf3 (2. f4 exf4 (2... d5) 3. Nf3) (2. Bc4) Nc6 {ok} 3. Bb5 (=) a6";
        for dialect in [Dialect::Plain, Dialect::Pgn] {
            let mut s = Sheet::default();
            read_movetext(text, 1, 1, dialect, &mut s);
            assert_eq!(texts(&s), ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"], "{dialect:?}");
            assert_eq!(s.entries[2].variations, ["2. f4 exf4 (2... d5) 3. Nf3", "2. Bc4"], "{dialect:?}");
            assert_eq!(s.entries[3].comments, ["ok"]);
            assert!(s.entries[4].draw_offer && s.entries[4].variations.is_empty(), "{dialect:?}");
            let plies: Vec<u32> = s.entries.iter().filter_map(|e| e.ply).collect();
            assert_eq!(plies, [1, 2, 3, 4, 5, 6]);
        }
    }

    #[test]
    fn a_variation_before_the_first_move_is_a_comment_of_the_sheet() {
        let s = read("(1. d4  d5) [1. c4] 1. e4 e5");
        assert_eq!(texts(&s), ["e4", "e5"]);
        assert_eq!(s.comments, ["(1. d4 d5)", "[1. c4]"]);
        assert!(s.entries.iter().all(|e| e.variations.is_empty()));
    }

    #[test]
    fn a_promotion_in_parentheses_is_no_variation() {
        let s = read("1. e4 e5 2. d8(D) b1(Q) 3. Nf3");
        assert_eq!(texts(&s), ["e4", "e5", "d8(D)", "b1(Q)", "Nf3"]);
        assert!(s.entries.iter().all(|e| e.variations.is_empty()));
    }

    #[test]
    fn a_capture_typed_with_a_space_is_one_move() {
        let s = read("1. e4 d5 2. ex d5 Dx d5 3. Cc3 Dd8 4. d4 Cf6 5. Ax f6");
        assert_eq!(texts(&s)[2..4], ["exd5", "Dxd5"]);
        assert_eq!(texts(&s)[8], "Axf6");
        assert_eq!((s.entries[3].line, s.entries[3].col), (1, 19), "each keeps its column");
    }

    #[test]
    fn a_row_of_dots_is_an_omitted_move() {
        // Books print White's move left out as `........` where a comment
        // splits a move; elsewhere the dots fill a box.
        let s = read("6. Castles {a comment}\n6. ........ P-Q3 7. P-Q4 ........ 8. P-K5");
        assert_eq!(texts(&s), ["Castles", "P-Q3", "P-Q4", "........", "P-K5"]);
        assert_eq!(s.entries[1].ply, Some(12));
        assert!(is_illegible_text("........") && !is_illegible_text("."));
    }

    #[test]
    fn spanish_and_french_moves_printed_with_spaces_are_closed_up() {
        let s = read("4. A x C, PD x A; 5. O-O, A3D; 6. C - 3AR, P x P");
        assert_eq!(texts(&s), ["AxC", "PDxA", "O-O", "A3D", "C-3AR", "PxP"]);
        assert_eq!(texts(&read("1. P 4 R P 4 R 2. D 4 FR T 4 CR — 2 CR")), ["P4R", "P4R", "D4FR", "T4CR—2CR"]);
        assert_eq!((s.entries[1].line, s.entries[1].col), (1, 11), "each keeps its column");
        // A players' line is not a move.
        assert_eq!(texts(&read("A - C 1. e4 e5")), ["A", "-", "C", "e4", "e5"]);
    }

    #[test]
    fn promotion_in_parentheses_stays_with_its_move() {
        let s = read("50 Rb6 b1(Q)");
        assert_eq!(texts(&s), ["Rb6", "b1(Q)"]);
    }
}
