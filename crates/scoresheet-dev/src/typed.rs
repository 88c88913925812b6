//! Corpus games re-typed as scoresheets by rule: a Spanish sheet of numbered
//! pairs and a German sheet of tab-separated pairs, with or without a
//! `Language:` header, beside the game's own PGN.

use std::fmt::Write as _;

use crate::corpus::CorpusGame;

/// Piece letters for king, queen, rook, bishop, knight.
pub const SPANISH: [char; 5] = ['R', 'D', 'T', 'A', 'C'];
pub const GERMAN: [char; 5] = ['K', 'D', 'T', 'L', 'S'];

/// An English SAN written with another language's piece letters, castling
/// with zeros as FIDE writes it: `Nxf3+` → `Cxf3+`, `e8=Q` → `e8=D`, `O-O` → `0-0`.
pub fn retype(san: &str, letters: [char; 5]) -> String {
    if let Some(rest) = san.strip_prefix("O-O-O") {
        return format!("0-0-0{rest}");
    }
    if let Some(rest) = san.strip_prefix("O-O") {
        return format!("0-0{rest}");
    }
    san.chars()
        .map(|c| match c {
            'K' => letters[0],
            'Q' => letters[1],
            'R' => letters[2],
            'B' => letters[3],
            'N' => letters[4],
            c => c,
        })
        .collect()
}

/// The forms a game is typed in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// The corpus PGN itself.
    Pgn,
    /// Spanish `.txt`: `1.d4 Cf6, 2.c4 e6`; `header` says whether `Language: es` is written.
    Spanish { header: bool },
    /// German `.txt`: one numbered pair per line, tab-separated.
    German { header: bool },
}

impl Form {
    /// The three forms of game `index`: the header is left out of the Spanish
    /// sheet of every odd game and of the German sheet of every even game.
    pub fn all(index: usize) -> [Form; 3] {
        [
            Form::Pgn,
            Form::Spanish { header: index.is_multiple_of(2) },
            Form::German { header: !index.is_multiple_of(2) },
        ]
    }

    /// A short name of the form, for reports.
    pub fn label(self) -> &'static str {
        match self {
            Form::Pgn => "pgn",
            Form::Spanish { header: true } => "es",
            Form::Spanish { header: false } => "es-inferred",
            Form::German { header: true } => "de",
            Form::German { header: false } => "de-inferred",
        }
    }

    /// The language the library must report.
    pub fn language(self) -> &'static str {
        match self {
            Form::Pgn => "en",
            Form::Spanish { .. } => "es",
            Form::German { .. } => "de",
        }
    }
}

/// A game typed in one form.
#[derive(Debug, Clone)]
pub struct Typed {
    pub form: Form,
    /// File name given to `convert` (its extension picks the format).
    pub name: String,
    pub text: String,
    /// What was typed for each ply.
    pub tokens: Vec<String>,
}

/// Types game `g` in `form`.
pub fn typed(g: &CorpusGame, form: Form) -> Typed {
    let name = |ext| format!("game-{:05}.{ext}", g.index);
    match form {
        Form::Pgn => Typed { form, name: name("pgn"), text: g.pgn.clone(), tokens: g.written.clone() },
        Form::Spanish { header } => {
            let tokens: Vec<String> = g.sans.iter().map(|s| retype(s, SPANISH)).collect();
            let mut text = String::new();
            if header {
                text.push_str("Language: es\n");
            }
            let pairs: Vec<&[String]> = tokens.chunks(2).collect();
            for (i, pair) in pairs.iter().enumerate() {
                let _ = write!(text, "{}.{}", i + 1, pair.join(" "));
                if i + 1 < pairs.len() {
                    // Ten moves a line, as a person types a long game.
                    text.push_str(if (i + 1) % 10 == 0 { ",\n" } else { ", " });
                }
            }
            let _ = writeln!(text, " {}", g.result);
            Typed { form, name: name("txt"), text, tokens }
        }
        Form::German { header } => {
            let tokens: Vec<String> = g.sans.iter().map(|s| retype(s, GERMAN)).collect();
            let mut text = String::new();
            if header {
                text.push_str("Language: de\n");
            }
            for (i, pair) in tokens.chunks(2).enumerate() {
                let _ = writeln!(text, "{}\t{}", i + 1, pair.join("\t"));
            }
            let _ = writeln!(text, "{}", g.result);
            Typed { form, name: name("txt"), text, tokens }
        }
    }
}
