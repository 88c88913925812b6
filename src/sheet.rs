//! What ingest reads from a file: one [`Sheet`] per game, its headers and the
//! entries as written, each with where it stands in the file.

use crate::notation::language::draw_words;

/// One game as typed from a paper scoresheet, before any move is understood.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Sheet {
    /// Header fields under their PGN tag names (`Event`, `White`, `Board` ...),
    /// in the order they were written.
    pub headers: Vec<(String, String)>,
    /// The move boxes in the order written.
    pub entries: Vec<Entry>,
    /// The result written in the movetext, if any (a `Result` header is in `headers`).
    pub result: Option<GameResult>,
    /// Comments written before the first move (a variation written there,
    /// an alternative to no move, is one, in its parentheses or brackets).
    pub comments: Vec<String>,
    /// Line where this game starts in its file (1-based).
    pub line: usize,
    /// The file was not UTF-8 and was read as Windows-1252: the line of its
    /// first byte that is not UTF-8.
    pub encoding_guessed: Option<usize>,
    /// Invisible format characters dropped from this game's lines as the
    /// file was read (see [`Invisible`]).
    pub invisible: Option<Invisible>,
    /// Header fields past the first [`MAX_HEADERS`], left out: how many, and
    /// the key of the first (a count, not a copy of each: a form of a hundred
    /// thousand keys costs nothing more).
    pub headers_dropped: usize,
    pub first_dropped: Option<String>,
    /// A note of prose below a score that stops, whose moves were read as
    /// the game's from the next move on: its line and that half-move.
    pub moves_in_note: Option<(usize, u32)>,
    /// The line of a part of this game's score printed before it, read as
    /// this game (see [`crate::Finding::ScorePrintedTwice`]).
    pub printed_twice: Option<usize>,
}

/// Invisible format characters dropped from a file's text as it is read,
/// before any format is read: zero-width characters (U+200B to U+200D,
/// U+2060 to U+2064, U+FEFF past the start), marks of the direction of
/// writing (U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069) and soft
/// hyphens (U+00AD). Copied from a web page or a chat, they would stay in a
/// player's name and make a move unreadable; nobody sees them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Invisible {
    /// How many were dropped.
    pub count: usize,
    /// The line of the first (1-based).
    pub line: usize,
    /// Which kinds were among them.
    pub zero_width: bool,
    pub direction: bool,
    pub soft_hyphen: bool,
}

impl Invisible {
    /// The kind of invisible character `c` is, as a one-character record
    /// on `line`; `None` for any other character.
    pub fn of(c: char, line: usize) -> Option<Invisible> {
        let one = Invisible { count: 1, line, ..Invisible::default() };
        match c {
            '\u{200B}'..='\u{200D}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}' => {
                Some(Invisible { zero_width: true, ..one })
            }
            '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' => {
                Some(Invisible { direction: true, ..one })
            }
            '\u{00AD}' => Some(Invisible { soft_hyphen: true, ..one }),
            _ => None,
        }
    }

    /// Both records as one: the counts added, the first line kept.
    pub fn and(self, other: Invisible) -> Invisible {
        Invisible {
            count: self.count + other.count,
            line: if self.count == 0 { other.line } else { self.line.min(other.line) },
            zero_width: self.zero_width || other.zero_width,
            direction: self.direction || other.direction,
            soft_hyphen: self.soft_hyphen || other.soft_hyphen,
        }
    }

    /// The same record, its line moved down by `lines` (a piece of a
    /// collection decoded on its own).
    pub(crate) fn shifted(self, lines: usize) -> Invisible {
        Invisible { line: self.line + lines, ..self }
    }
}

/// The most header fields a sheet keeps. A sheet has a dozen; a form with
/// thousands of keys is not one, and each kept key is a PGN tag.
pub const MAX_HEADERS: usize = 64;

/// One move box as written.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Entry {
    /// The text of the box, e.g. `Cxf3+` or `??`.
    pub text: String,
    /// 1-based line and column of the text in the file.
    pub line: usize,
    pub col: usize,
    /// The half-move the sheet's numbering puts this box at (1 = White's first),
    /// when there is numbering.
    pub ply: Option<u32>,
    /// Annotation glyphs written as tokens of their own after the move.
    pub nags: Vec<u8>,
    /// `{comments}` written after the move.
    pub comments: Vec<String>,
    /// A `(=)` written after the move: the player offered a draw.
    pub draw_offer: bool,
    /// Variations written after the move, in `( )` or (in plain text) `[ ]`:
    /// the text within, nested variations as typed. Never read as moves of
    /// the game; the PGN writer replays them where they fit.
    pub variations: Vec<String>,
}

/// The result of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameResult {
    WhiteWins,
    BlackWins,
    Draw,
    /// `*`: unfinished or unknown.
    Unknown,
}

impl GameResult {
    /// The result of a game `loser` gave up.
    pub(crate) fn lost_by(loser: shakmaty::Color) -> GameResult {
        match loser {
            shakmaty::Color::White => GameResult::BlackWins,
            shakmaty::Color::Black => GameResult::WhiteWins,
        }
    }

    /// Reads a result as people write it: `1-0`, `0-1`, `1/2-1/2`, `½-½`,
    /// `0.5-0.5`, `1:0`, or a word for a draw.
    ///
    /// ```
    /// use scoresheet::sheet::GameResult;
    /// assert_eq!(GameResult::parse("½-½"), Some(GameResult::Draw));
    /// assert_eq!(GameResult::parse("Tablas"), Some(GameResult::Draw));
    /// assert_eq!(GameResult::parse("0-0"), None);
    /// ```
    pub fn parse(s: &str) -> Option<GameResult> {
        // A token of movetext has no whitespace around it: no need to trim.
        let bare = |b: Option<&u8>| b.is_some_and(u8::is_ascii_graphic);
        let s = if bare(s.as_bytes().first()) && bare(s.as_bytes().last()) { s } else { s.trim() };
        let first = s.chars().next()?;
        if first.is_alphabetic() {
            // Only a word for a draw starts with a letter, and none has a
            // digit: a move ("Cf3", "e4") is turned away without looking further.
            if s.bytes().any(|b| b.is_ascii_digit()) {
                return None;
            }
            // The words are each language's `draws`; a sentence's full stop aside.
            let s = s.strip_suffix('.').unwrap_or(s);
            let draw = if s.is_ascii() {
                draw_words().any(|w| s.eq_ignore_ascii_case(w))
            } else {
                draw_words().any(|w| s.chars().flat_map(char::to_lowercase).eq(w.chars()))
            };
            return draw.then_some(GameResult::Draw);
        }
        // A sign, compared without whitespace, with dashes and colons as `-`
        // and commas as `.`; built on the stack (every sign is shorter than
        // the buffer), given up at the first character no sign has.
        let mut buf = [0u8; 16];
        let mut len = 0;
        for c in s.chars().filter(|c| !c.is_whitespace()) {
            let c = match c {
                // (`1 x 0`, as Brazilian columns print a result.)
                '–' | '—' | ':' | '-' | 'x' | '×' => b'-',
                ',' | '.' => b'.',
                '0' | '1' | '2' | '5' | '/' | '+' | '=' | '*' => c as u8,
                '½' => b'h',
                _ => return None,
            };
            if len == buf.len() {
                return None;
            }
            buf[len] = c;
            len += 1;
        }
        match &buf[..len] {
            b"1-0" | b"+-" | b"1-0." => Some(GameResult::WhiteWins),
            b"0-1" | b"-+" | b"0-1." => Some(GameResult::BlackWins),
            b"1/2-1/2" | b"h-h" | b"0.5-0.5" | b"h" | b"1/2" | b"=" | b"h-1/2" | b"1/2-h" | b"h-h." | b"1/2-1/2." => {
                Some(GameResult::Draw)
            }
            b"*" => Some(GameResult::Unknown),
            _ => None,
        }
    }

    /// The PGN result token.
    pub fn as_pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }
}

impl Sheet {
    /// The value of a header by its PGN tag name.
    pub fn header(&self, key: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// Sets a header, keeping the first value when a sheet repeats a key.
    /// Control characters (a newline in a YAML value) become spaces: a PGN
    /// tag is one line. Past [`MAX_HEADERS`] fields a new key is left out
    /// (`headers_dropped` counts them, `first_dropped` names the first).
    pub fn set_header(&mut self, key: &str, value: &str) {
        let value = value.trim();
        if value.is_empty() || self.header(key).is_some() {
            return;
        }
        if self.headers.len() >= MAX_HEADERS {
            self.headers_dropped += 1;
            self.first_dropped.get_or_insert_with(|| key.to_string());
            return;
        }
        let value: String = value.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
        self.headers.push((key.to_string(), value));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reading of results as it was before the allocation-free one.
    fn parse_by_copies(s: &str) -> Option<GameResult> {
        let t: String = s.trim().chars().filter(|c| !c.is_whitespace()).collect::<String>().to_lowercase();
        let t = t.replace(['–', '—', ':'], "-").replace(',', ".");
        match t.as_str() {
            "1-0" | "+-" | "1-0." => Some(GameResult::WhiteWins),
            "0-1" | "-+" | "0-1." => Some(GameResult::BlackWins),
            "1/2-1/2" | "½-½" | "0.5-0.5" | "½" | "1/2" | "=" | "½-1/2" | "1/2-½" | "½-½." | "1/2-1/2." => {
                Some(GameResult::Draw)
            }
            "*" => Some(GameResult::Unknown),
            _ => {
                let w = s.trim().trim_end_matches('.').to_lowercase();
                draw_words().any(|d| d == w).then_some(GameResult::Draw)
            }
        }
    }

    #[test]
    fn results_read_as_before() {
        let texts = [
            "1-0",
            "0-1",
            "1/2-1/2",
            "½-½",
            "0.5-0.5",
            "0,5-0,5",
            "½",
            "1/2",
            "=",
            "½-1/2",
            "1/2-½",
            "*",
            "+-",
            "-+",
            "1-0.",
            "1:0",
            "0:1",
            "1–0",
            "0—1",
            " 1 - 0 ",
            "\u{a0}½ - ½\u{a0}",
            "1 /2-1/ 2",
            "1-0 1-0",
            "2-0",
            "1-1",
            "0-0",
            "0-0-0",
            "O-O",
            "e4",
            "Cf3",
            "Dxf7++",
            "1.d4",
            "12...",
            "..",
            "$1",
            "!?",
            "",
            " ",
            "draw",
            "Draw",
            "DRAW",
            "tablas",
            "Tablas",
            "TABLA",
            "remis",
            "Remise",
            "partie nulle",
            "Partie Nulle",
            "partie  nulle",
            "patta",
            "empate",
            "remíza",
            "REMÍZA",
            "remiza",
            "pareggio",
            "remi",
            "döntetlen",
            "DÖNTETLEN",
            "berabere",
            "ничья",
            "Ничья",
            "НИЧЬЯ",
            "draw1",
            "drawn",
            "Σ",
            "ΣΣ",
            "tablas!",
            "1-0\n",
            "\t0-1",
        ];
        for t in texts {
            assert_eq!(GameResult::parse(t), parse_by_copies(t), "{t:?}");
        }
    }

    #[test]
    fn every_languages_draw_words_read_as_a_draw() {
        for l in crate::notation::LANGUAGES {
            for w in l.draws {
                let written: String = w.chars().flat_map(char::to_uppercase).collect();
                assert_eq!(GameResult::parse(w), Some(GameResult::Draw), "{}: {w}", l.code);
                assert_eq!(GameResult::parse(&written), Some(GameResult::Draw), "{}: {written}", l.code);
            }
        }
    }
}
