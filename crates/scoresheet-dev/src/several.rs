//! Files of several games, typed one after another as a volunteer types a
//! round into one file: each game with its own headers (players, round, a
//! result line or not), its moves, a result after them or not, and between
//! games blank lines, remarks and rules drawn before or after the headers.
//! In every input format and in any language's piece letters and header
//! keys. Each file comes with the games it holds, so that a test can check
//! that every game is read with its own players, round and result.
//!
//! ```
//! use scoresheet::ingest::Format;
//! use scoresheet::notation::Language;
//! use scoresheet_dev::several::{SeveralGame, several_file};
//! let game = |w: &str, b: &str, sans: &[&str], result: &str| SeveralGame {
//!     white: w.into(),
//!     black: b.into(),
//!     round: Some("2".into()),
//!     sans: sans.iter().map(|s| s.to_string()).collect(),
//!     result: result.into(),
//! };
//! let games = [game("Ana", "Eva", &["e4", "e5", "Nf3"], "1-0"), game("Rui", "Leo", &["d4", "d5"], "0-1")];
//! let file = several_file(&games, 7, Format::Text, Language::find("es").unwrap());
//! assert!(file.name.ends_with(".txt"));
//! assert!(file.text.contains("Ana") && file.text.contains("Cf3"));
//! ```

use std::fmt::Write;

use scoresheet::ingest::Format;
use scoresheet::notation::{Language, Tag};

use crate::corpus::CorpusGame;
use crate::generate::{Rng, localize};

/// One game of a file and what a reader must give back for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeveralGame {
    pub white: String,
    pub black: String,
    /// The round written in its headers, if any.
    pub round: Option<String>,
    /// The moves in English SAN.
    pub sans: Vec<String>,
    /// The game's result (`1-0`, `0-1`, `1/2-1/2`), written or not.
    pub result: String,
}

/// What the file writes of one game's result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Written {
    /// A result line among its headers.
    pub header: bool,
    /// The result after its moves.
    pub after: bool,
}

impl Written {
    /// Whether the result is written anywhere.
    pub fn any(self) -> bool {
        self.header || self.after
    }
}

/// A typed file of several games.
#[derive(Debug, Clone)]
pub struct SeveralFile {
    /// A file name whose extension gives the format.
    pub name: String,
    pub text: String,
    pub format: Format,
    pub language: &'static str,
    /// The games in the order typed, each with what the file writes of its result.
    pub games: Vec<(SeveralGame, Written)>,
}

/// Up to `count` games of `corpus` for one file, from `first` on: short
/// ones (at most `plies` moves, the game cut there), no two of the same two
/// players, none whose written result a final mate contradicts; the names
/// kept to letters, spaces, commas and full stops.
pub fn games_for_file(corpus: &[CorpusGame], first: usize, count: usize, plies: usize) -> Vec<SeveralGame> {
    let mut out: Vec<SeveralGame> = Vec::with_capacity(count);
    for g in corpus.iter().cycle().skip(first % corpus.len().max(1)).take(corpus.len()) {
        if out.len() == count {
            break;
        }
        let tag = |k: &str| g.tags.iter().find(|(t, _)| t == k).map(|(_, v)| plain_name(v)).unwrap_or_default();
        let (white, black) = (tag("White"), tag("Black"));
        let known = |n: &str| n.chars().filter(|c| c.is_alphabetic()).count() >= 3;
        let seen = out.iter().any(|o| o.white == white && o.black == black);
        if !known(&white) || !known(&black) || seen || g.result == "*" || g.result_contradicts_board() {
            continue;
        }
        let sans: Vec<String> = g.sans.iter().take(plies).cloned().collect();
        out.push(SeveralGame { white, black, round: None, sans, result: g.result.clone() });
    }
    out
}

/// A name with what a typist would not type on a sheet left out (ratings,
/// brackets, digits, hyphens as spaces).
fn plain_name(name: &str) -> String {
    let kept: String = name
        .chars()
        .map(|c| if c == '-' { ' ' } else { c })
        .filter(|c| c.is_alphabetic() || " ,.".contains(*c))
        .collect();
    kept.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// How the file's typist writes, drawn once per file.
struct Style {
    /// Text headers: `Key: value` lines (0), PGN tags (1), a players line (2).
    headers: usize,
    /// Moves: `1. e4 e5 2. Nf3` (0), `1.e4 e5, 2.Nf3` (1), a numbered pair a line (2).
    layout: usize,
    zeros: bool,
    /// Between games: a rule (`-----`), before the headers (0), after them (1), none (2).
    rule: usize,
    comments: bool,
    /// A round written on each game.
    rounds: bool,
    /// The result line's chance among a game's headers; after its moves.
    header_result: f64,
    after_result: f64,
}

/// Types `games` into one file of `format`, in `language`'s letters and
/// header keys; `seed` draws the style and, for each game, whether its
/// result is written among its headers (70%) and after its moves (two in
/// three), the rounds aside (each game keeps its own, or none).
pub fn several_file(games: &[SeveralGame], seed: u64, format: Format, language: &'static Language) -> SeveralFile {
    let mut rng = Rng::new(seed);
    let style = Style {
        headers: rng.below(3),
        layout: rng.below(3),
        zeros: rng.chance(0.5),
        rule: rng.below(3),
        comments: rng.chance(0.4),
        rounds: rng.chance(0.8),
        header_result: 0.7,
        after_result: 2.0 / 3.0,
    };
    let mut text = String::new();
    let mut out = Vec::with_capacity(games.len());
    for (k, g) in games.iter().enumerate() {
        let written = Written { header: rng.chance(style.header_result), after: rng.chance(style.after_result) };
        let round = style.rounds.then(|| g.round.clone().unwrap_or_else(|| "3".into()));
        let g = SeveralGame { round, ..g.clone() };
        let page = Page { g: &g, written, style: &style, language, first: k == 0 };
        match format {
            Format::Text => page.text(&mut text, &mut rng),
            Format::Csv | Format::Tsv => page.table(&mut text, format == Format::Csv),
            Format::Yaml => page.yaml(&mut text),
            Format::Pgn => page.pgn(&mut text),
        }
        out.push((g, written));
    }
    let ext = match format {
        Format::Text => "txt",
        Format::Csv => "csv",
        Format::Tsv => "tsv",
        Format::Yaml => "yaml",
        Format::Pgn => "pgn",
    };
    SeveralFile { name: format!("several-{seed:016x}.{ext}"), text, format, language: language.code, games: out }
}

/// One game of a file being typed.
struct Page<'a> {
    g: &'a SeveralGame,
    written: Written,
    style: &'a Style,
    language: &'static Language,
    first: bool,
}

impl Page<'_> {
    /// A header key in the file's language (English where it has none).
    fn key(&self, tag: Tag) -> String {
        let key = self.language.header_key(tag).unwrap_or(tag.name());
        let mut c = key.chars();
        c.next().map_or_else(String::new, |f| f.to_uppercase().chain(c).collect())
    }

    fn moves(&self) -> Vec<String> {
        self.g.sans.iter().map(|s| localize(s, self.language, self.style.zeros)).collect()
    }

    /// The headers as `(tag, value)`: players, round, result where written.
    fn fields(&self) -> Vec<(Tag, String)> {
        let mut f = vec![(Tag::White, self.g.white.clone()), (Tag::Black, self.g.black.clone())];
        f.extend(self.g.round.clone().map(|r| (Tag::Round, r)));
        if self.written.header {
            f.push((Tag::Result, self.g.result.clone()));
        }
        f
    }

    fn text(&self, t: &mut String, rng: &mut Rng) {
        if !self.first {
            t.push_str(["\n", "\n\n", "\n\n\n"][rng.below(3)]);
        }
        let rule = || "-".repeat(20) + "\n";
        if !self.first && self.style.rule == 0 {
            t.push_str(&rule());
        }
        if self.style.comments && rng.chance(0.5) {
            let _ = writeln!(t, "# {} - {}", self.g.white, self.g.black);
        }
        match self.style.headers {
            0 => self.fields().iter().for_each(|(k, v)| {
                let _ = writeln!(t, "{}: {v}", self.key(*k));
            }),
            1 => self.fields().iter().for_each(|(k, v)| {
                let _ = writeln!(t, "[{} \"{v}\"]", k.name());
            }),
            _ => {
                let _ = writeln!(t, "{} - {}", self.g.white, self.g.black);
                self.fields().iter().filter(|(k, _)| matches!(k, Tag::Round | Tag::Result)).for_each(|(k, v)| {
                    let _ = writeln!(t, "{}: {v}", self.key(*k));
                });
            }
        }
        if self.style.rule == 1 {
            t.push_str(&rule());
        } else if rng.chance(0.5) {
            t.push('\n');
        }
        let moves = self.moves();
        let pairs: Vec<&[String]> = moves.chunks(2).collect();
        for (i, pair) in pairs.iter().enumerate() {
            let last = i + 1 == pairs.len();
            let _ = match self.style.layout {
                0 => write!(t, "{}. {}{}", i + 1, pair.join(" "), if last { "" } else { " " }),
                1 => write!(t, "{}.{}{}", i + 1, pair.join(" "), if last { "" } else { ", " }),
                _ => write!(t, "{}\t{}{}", i + 1, pair.join("\t"), if last { "" } else { "\n" }),
            };
        }
        if self.written.after {
            t.push_str(if rng.chance(0.5) { " " } else { "\n" });
            t.push_str(&self.g.result);
        }
        t.push('\n');
    }

    fn table(&self, t: &mut String, csv: bool) {
        let sep = if csv { ',' } else { '\t' };
        if !self.first {
            t.push('\n');
        }
        for (k, v) in self.fields() {
            let v = if v.contains([sep, '"']) { format!("\"{}\"", v.replace('"', "\"\"")) } else { v };
            let _ = writeln!(t, "{}{sep}{v}", self.key(k));
        }
        let _ = writeln!(t, "#{sep}{}{sep}{}", self.key(Tag::White), self.key(Tag::Black));
        for (i, pair) in self.moves().chunks(2).enumerate() {
            let _ = writeln!(t, "{}{sep}{}", i + 1, pair.join(&sep.to_string()));
        }
        if self.written.after {
            let _ = writeln!(t, "{}{sep}{}", self.key(Tag::Result), self.g.result);
        }
    }

    fn yaml(&self, t: &mut String) {
        if !self.first {
            t.push_str("---\n");
        }
        if self.style.comments {
            let _ = writeln!(t, "# {} - {}", self.g.white, self.g.black);
        }
        for (k, v) in self.fields() {
            let _ = writeln!(t, "{}: '{}'", k.name().to_lowercase(), v.replace('\'', "''"));
        }
        let mut moves: String = self
            .moves()
            .chunks(2)
            .enumerate()
            .map(|(i, p)| format!("{}. {}", i + 1, p.join(" ")))
            .collect::<Vec<_>>()
            .join(" ");
        if self.written.after {
            let _ = write!(moves, " {}", self.g.result);
        }
        let _ = writeln!(t, "moves: '{moves}'");
    }

    fn pgn(&self, t: &mut String) {
        if !self.first {
            t.push('\n');
        }
        for (k, v) in self.fields() {
            let _ = writeln!(t, "[{} \"{}\"]", k.name(), v.replace('"', "'"));
        }
        t.push('\n');
        let moves = self.moves();
        for (i, pair) in moves.chunks(2).enumerate() {
            let _ = write!(t, "{}{}. {}", if i > 0 { " " } else { "" }, i + 1, pair.join(" "));
        }
        if self.written.after {
            let _ = write!(t, " {}", self.g.result);
        }
        t.push('\n');
    }
}
