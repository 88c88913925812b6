//! What ingest reads from a file: one [`Sheet`] per game, its headers and the
//! entries as written, each with where it stands in the file.

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
    /// Comments written before the first move.
    pub comments: Vec<String>,
    /// Line where this game starts in its file (1-based).
    pub line: usize,
}

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

/// Words for a draw in the languages headers are written in.
const DRAW_WORDS: &[&str] = &[
    "draw",
    "tablas",
    "tabla",
    "remis",
    "remise",
    "nulle",
    "partie nulle",
    "patta",
    "empate",
    "remíza",
    "remiza",
    "pareggio",
    "remi",
    "döntetlen",
    "berabere",
    "ничья",
];

impl GameResult {
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
        let s = s.trim();
        let first = s.chars().next()?;
        // No result sign starts with a letter and no word for a draw has a
        // digit: a move ("Cf3", "e4") is turned away without looking further.
        if first.is_ascii_alphabetic() && s.bytes().any(|b| b.is_ascii_digit()) {
            return None;
        }
        // The signs compared without whitespace, in lowercase, with dashes and
        // colons as `-` and commas as `.`; built on the stack (every sign is
        // shorter than the buffer, so a longer text is none of them).
        let mut buf = [0u8; 16];
        let mut len = 0;
        let mut fits = true;
        for c in s.chars().filter(|c| !c.is_whitespace()).flat_map(char::to_lowercase) {
            let c = match c {
                '–' | '—' | ':' => '-',
                ',' => '.',
                c => c,
            };
            if len + c.len_utf8() > buf.len() {
                fits = false;
                break;
            }
            len += c.encode_utf8(&mut buf[len..]).len();
        }
        if fits {
            match std::str::from_utf8(&buf[..len]) {
                Ok("1-0" | "+-" | "1-0.") => return Some(GameResult::WhiteWins),
                Ok("0-1" | "-+") => return Some(GameResult::BlackWins),
                Ok("1/2-1/2" | "½-½" | "0.5-0.5" | "½" | "1/2" | "=" | "½-1/2" | "1/2-½") => {
                    return Some(GameResult::Draw);
                }
                Ok("*") => return Some(GameResult::Unknown),
                _ => {}
            }
        }
        DRAW_WORDS.iter().any(|w| s.chars().flat_map(char::to_lowercase).eq(w.chars())).then_some(GameResult::Draw)
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
    pub fn set_header(&mut self, key: &str, value: &str) {
        let value = value.trim();
        if value.is_empty() || self.header(key).is_some() {
            return;
        }
        self.headers.push((key.to_string(), value.to_string()));
    }
}
