//! Variations typed in a game (`2. Nf3 (2. f4 exf4 3. Nf3) Nc6`), replayed
//! for the PGN: each is an alternative to the move it follows, or, where its
//! first move number says the other side's move (`2. Nf3 (2... d6)`), to the
//! move after. One that replays legally is written as a PGN variation in
//! English SAN, numbered as the export format wants; one that does not is
//! kept as a comment, as typed.

use shakmaty::san::SanPlus;
use shakmaty::{Chess, Position};

use super::san::san_text;
use crate::notation::lex::{lex, standalone_nag};
use crate::notation::reading::{Reading, exact_move, readings_into};
use crate::notation::{LANGUAGES, Language};
use crate::reconstruct::Game;
use crate::sheet::{GameResult, Sheet};

/// How deep variations within variations are replayed; deeper ones are
/// kept as comments (and the recursion stays shallow, whatever is typed).
const MAX_DEPTH: usize = 8;

/// What is written after a move of the game for the variations typed there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Written {
    /// A variation that replays: its tokens, the parentheses attached to the
    /// first and the last, each token free of whitespace (the PGN writer
    /// wraps lines between them).
    Line(Vec<String>),
    /// A variation that does not replay, as a comment: its text, as typed,
    /// in parentheses.
    Comment(String),
}

/// For each move of `game`, what its typed variations come to, in the order
/// typed; empty when the sheet has none.
pub(crate) fn of_game(sheet: &Sheet, game: &Game) -> Vec<Vec<Written>> {
    if sheet.entries.iter().all(|e| e.variations.is_empty()) {
        return Vec::new();
    }
    let mut out: Vec<Vec<Written>> = vec![Vec::new(); game.moves.len()];
    let mut pos = game.start.position.clone();
    let before = game.start.first_ply() - 1;
    let mut reader = Reader { lang: game.language, buf: Vec::with_capacity(4) };
    for (i, played) in game.moves.iter().enumerate() {
        let after = pos.clone().play(played.mv).unwrap_or_else(|_| pos.clone());
        let variations = played.entry.and_then(|e| sheet.entries.get(e)).map_or(&[][..], |e| &e.variations[..]);
        for text in variations {
            let ply = i as u32 + 1 + before;
            // `2. Nf3 (2... d6 3. d4)`: an alternative to the move after,
            // written after that one; there is none after the last move.
            let next = first_number(text) == Some(ply + 1);
            let replayed = match next {
                true if i + 1 < game.moves.len() => reader.line(text, &after, ply + 1, 0).map(|l| (i + 1, l)),
                true => None,
                false => reader.line(text, &pos, ply, 0).map(|l| (i, l)),
            };
            match replayed {
                Some((at, tokens)) => out[at].push(Written::Line(tokens)),
                None => out[i].push(Written::Comment(format!("({text})"))),
            }
        }
        pos = after;
    }
    out
}

/// One piece of a variation's text.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Token<'t> {
    /// A move number: the ply it numbers (`2.` 3, `2...` 4).
    Number(u32),
    /// An annotation glyph as a NAG.
    Nag(u8),
    /// `{...}`.
    Comment(&'t str),
    /// `(...)` or `[...]` within: a variation of the move before it.
    Nested(&'t str),
    /// Anything else: a move to read.
    Move(&'t str),
}

/// The tokens of a variation's text. Results and stray punctuation are left
/// out: a variation has none.
fn tokens(text: &str) -> Vec<Token<'_>> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        let (token, len) = match c {
            // A comment ends at the first `}`, as in PGN.
            '{' => {
                let end = rest.find('}').unwrap_or(rest.len());
                (Some(Token::Comment(rest[1..end].trim())), (end + 1).min(rest.len()))
            }
            '(' => enclosed(rest, '(', ')'),
            '[' => enclosed(rest, '[', ']'),
            c if c.is_whitespace() || matches!(c, ',' | ';' | ')' | ']' | '}') => (None, c.len_utf8()),
            _ => {
                let len = rest
                    .find(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '{' | '(' | '['))
                    .unwrap_or(rest.len());
                words(&rest[..len], &mut out);
                (None, len)
            }
        };
        out.extend(token);
        rest = &rest[len..];
    }
    out
}

/// What stands between `open`, at the start of `text`, and the `close` that
/// matches it (nested ones within), as a nested variation; and the bytes it
/// takes.
fn enclosed(text: &str, open: char, close: char) -> (Option<Token<'_>>, usize) {
    let mut depth = 0usize;
    for (i, c) in text.char_indices() {
        if c == open {
            depth += 1;
        } else if c == close {
            depth -= 1;
            if depth == 0 {
                return (Some(Token::Nested(text[1..i].trim())), i + 1);
            }
        }
    }
    (Some(Token::Nested(text[1..].trim())), text.len())
}

/// The tokens of a word: a move number, the move stuck to it (`2.f4`,
/// `2...Nc6`), a NAG, a move.
fn words<'t>(word: &'t str, out: &mut Vec<Token<'t>>) {
    let digits = word.bytes().take_while(u8::is_ascii_digit).count();
    let rest = word[digits..].trim_start_matches(['.', '…', ')']);
    let marks = &word[digits..word.len() - rest.len()];
    // `2.`, `2...`, `2…`, `2)`, `2.f4`, or `2` alone as plain text numbers.
    if digits > 0
        && (!marks.is_empty() || rest.is_empty())
        && let Ok(n) = word[..digits].parse::<u32>()
        && (1..2000).contains(&n)
    {
        let black = marks.contains("..") || marks.contains('…');
        out.push(Token::Number(2 * n - 1 + u32::from(black)));
        if !rest.is_empty() {
            out.extend(word_token(rest));
        }
        return;
    }
    out.extend(word_token(word));
}

/// A word that is no move number: a NAG, a move, or nothing to keep (a
/// result, dots).
fn word_token(word: &str) -> Option<Token<'_>> {
    if is_dots(word) || GameResult::parse(word).is_some_and(|_| !matches!(word, "=" | "+-" | "-+")) {
        return None;
    }
    if let Some(n) = word.strip_prefix('$').and_then(|n| n.parse::<u8>().ok()).or_else(|| standalone_nag(word)) {
        return Some(Token::Nag(n));
    }
    Some(Token::Move(word))
}

/// Dots or ellipses and nothing else (`...` where Black's move follows).
fn is_dots(t: &str) -> bool {
    t.chars().all(|c| matches!(c, '.' | '…'))
}

/// The ply the first move number of a variation numbers, where a number
/// comes before its first move.
fn first_number(text: &str) -> Option<u32> {
    match tokens(text).into_iter().find(|t| matches!(t, Token::Number(_) | Token::Move(_)))? {
        Token::Number(ply) => Some(ply),
        _ => None,
    }
}

/// Reads the moves of variations.
struct Reader {
    /// The game's language: its piece letters first, then English.
    lang: &'static Language,
    buf: Vec<Reading>,
}

impl Reader {
    /// The tokens of `text` replayed from `pos`, where the move numbered
    /// `ply` is to be played; `None` unless every move is legal there.
    fn line(&mut self, text: &str, pos: &Chess, ply: u32, depth: usize) -> Option<Vec<String>> {
        let mut out = Vec::new();
        let mut pos = pos.clone();
        let mut ply = ply;
        // The position before the last move and its ply: where a nested
        // variation starts.
        let mut last: Option<(Chess, u32)> = None;
        let mut need_number = true;
        for token in tokens(text) {
            match token {
                Token::Number(_) => {}
                Token::Nag(n) if last.is_some() => out.push(format!("${n}")),
                Token::Nag(_) => {}
                Token::Comment(c) => need_number |= push_comment(&mut out, c),
                Token::Nested(t) => {
                    let nested =
                        last.as_ref().filter(|_| depth < MAX_DEPTH).and_then(|(p, n)| self.line(t, p, *n, depth + 1));
                    match nested {
                        Some(tokens) => out.extend(tokens),
                        None => _ = push_comment(&mut out, &format!("({t})")),
                    }
                    need_number = true;
                }
                Token::Move(word) => {
                    let lexed = lex(word);
                    let mv = self.read(&lexed.core, &pos)?;
                    if ply % 2 == 1 || need_number {
                        out.push(format!("{}{}", ply.div_ceil(2), if ply % 2 == 1 { "." } else { "..." }));
                    }
                    last = Some((pos.clone(), ply));
                    out.push(san_text(SanPlus::from_move_and_play_unchecked(&mut pos, mv)));
                    out.extend(lexed.nags.iter().map(|n| format!("${n}")));
                    ply += 1;
                    need_number = false;
                }
            }
        }
        last?;
        if let Some(first) = out.first_mut() {
            first.insert(0, '(');
        }
        if let Some(end) = out.last_mut() {
            end.push(')');
        }
        Some(out)
    }

    /// The one legal move a written move is in `pos`, read exactly (cost
    /// 0) with the game's letters, else with English ones.
    fn read(&mut self, core: &str, pos: &Chess) -> Option<shakmaty::Move> {
        let english = LANGUAGES.iter().find(|l| l.code == "en");
        for lang in std::iter::once(self.lang).chain(english.filter(|e| e.code != self.lang.code)) {
            readings_into(core, lang, &mut self.buf);
            if let Some(mv) = exact_move(pos, &self.buf) {
                return Some(mv);
            }
        }
        None
    }
}

/// Appends a comment's words, the first after `{`, the last before `}`
/// (braces within taken out). Whether there was one.
fn push_comment(out: &mut Vec<String>, text: &str) -> bool {
    let clean = text.replace(['{', '}'], " ");
    let words: Vec<&str> = clean.split_whitespace().collect();
    if words.is_empty() {
        return false;
    }
    let from = out.len();
    out.extend(words.iter().map(|w| w.to_string()));
    out[from].insert(0, '{');
    if let Some(end) = out.last_mut() {
        end.push('}');
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn english() -> &'static Language {
        Language::find("en").unwrap()
    }

    fn replay(text: &str, ply: u32) -> Option<String> {
        let mut reader = Reader { lang: english(), buf: Vec::new() };
        reader.line(text, &Chess::default(), ply, 0).map(|t| t.join(" "))
    }

    #[test]
    fn numbers_glyphs_comments_and_nested_variations_are_told_apart() {
        let t = tokens("2.f4 exf4!? {a {gambit}} 3…Nf3 (3. Bc4) [3. d4] $1 1-0 ...");
        assert_eq!(
            t,
            [
                Token::Number(3),
                Token::Move("f4"),
                Token::Move("exf4!?"),
                Token::Comment("a {gambit"),
                Token::Number(6),
                Token::Move("Nf3"),
                Token::Nested("3. Bc4"),
                Token::Nested("3. d4"),
                Token::Nag(1)
            ]
        );
        assert_eq!(first_number("{idea} 2... d6"), Some(4));
        assert_eq!(first_number("f4 2. d4"), None);
    }

    #[test]
    fn a_line_is_numbered_as_the_export_format_wants() {
        assert_eq!(replay("1. d4 d5 2. c4", 1).as_deref(), Some("(1. d4 d5 2. c4)"));
        assert_eq!(replay("1... d5 {why not} d4", 1), None, "d5 is not White's move");
        let from_black = {
            let mut r = Reader { lang: english(), buf: Vec::new() };
            let pos = Chess::default().play(shakmaty::Move::Normal {
                role: shakmaty::Role::Pawn,
                from: shakmaty::Square::E2,
                capture: None,
                to: shakmaty::Square::E4,
                promotion: None,
            });
            r.line("1... c5 {Sicilian} 2. Nf3 (2. c3) d6!", &pos.unwrap(), 2, 0).map(|t| t.join(" "))
        };
        assert_eq!(from_black.as_deref(), Some("(1... c5 {Sicilian} 2. Nf3 (2. c3) 2... d6 $1)"));
    }

    #[test]
    fn a_nested_variation_that_does_not_replay_is_a_comment_within() {
        assert_eq!(replay("1. e4 (1. e5) e5", 1).as_deref(), Some("(1. e4 {(1. e5)} 1... e5)"));
        assert_eq!(replay("(1. d4) 1. e4", 1).as_deref(), Some("({(1. d4)} 1. e4)"), "no move before it");
        assert_eq!(replay("{just words}", 1), None, "no move");
    }

    #[test]
    fn variations_nested_past_the_limit_are_comments() {
        let mut text = "1. e4".to_string();
        for _ in 0..10_000 {
            text = format!("1. e4 ({text})");
        }
        let line = replay(&text, 1).unwrap();
        let comment = line.find('{').unwrap();
        assert_eq!(line[..comment].matches("(1. e4").count(), MAX_DEPTH + 1, "{}", &line[..comment]);
        assert!(line[comment..].starts_with("{(1. e4 (1. e4"));
    }
}
