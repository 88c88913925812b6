//! Lexing one written entry: normalising look-alike characters and taking off
//! what is written after the move itself (check marks, annotation glyphs,
//! evaluation signs, the draw offer, "e.p.").

use std::borrow::Cow;

/// One entry with the decorations around the move taken off.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Lexed<'a> {
    /// The move itself, e.g. `Cxf3` or `0-0`, characters normalised: borrowed
    /// from the entry unless normalising changed it (most entries are ASCII).
    pub core: Cow<'a, str>,
    /// Numeric Annotation Glyphs of the annotations written after the move.
    pub nags: Vec<u8>,
    /// `+` (check) or `#`/`++` (mate) written after the move.
    pub check: Option<CheckMark>,
    /// `(=)`: the player offered a draw with this move (FIDE Appendix C.12).
    pub draw_offer: bool,
    /// `e.p.`, `a.p.` or `ep` was written.
    pub en_passant: bool,
    /// The entry is of a record in descriptive notation, from where it turns
    /// descriptive (`notation::descriptive::mark`): read as such too.
    pub descriptive: bool,
    /// The entry is of a record in ICCF numeric notation (`5254`): read as such.
    pub numeric: bool,
}

/// The check sign a writer put after a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckMark {
    Check,
    Mate,
}

/// Suffixes taken off the end of an entry, longest first so that `+/-` is not
/// read as a check followed by a dash.
const SUFFIXES: &[(&str, Suffix)] = &[
    ("(=)", Suffix::DrawOffer),
    ("+/=", Suffix::Nag(14)),
    ("=/+", Suffix::Nag(15)),
    ("+/-", Suffix::Nag(16)),
    ("-/+", Suffix::Nag(17)),
    ("e.p.", Suffix::EnPassant),
    ("a.p.", Suffix::EnPassant),
    ("i.p.", Suffix::EnPassant),
    ("e.p", Suffix::EnPassant),
    ("a.p", Suffix::EnPassant),
    ("!!", Suffix::Nag(3)),
    ("??", Suffix::Nag(4)),
    ("!?", Suffix::Nag(5)),
    ("?!", Suffix::Nag(6)),
    ("+-", Suffix::Nag(18)),
    ("-+", Suffix::Nag(19)),
    ("++", Suffix::Mate),
    ("ep", Suffix::EnPassant),
    ("!", Suffix::Nag(1)),
    ("?", Suffix::Nag(2)),
    ("±", Suffix::Nag(16)),
    ("∓", Suffix::Nag(17)),
    ("⩲", Suffix::Nag(14)),
    ("⩱", Suffix::Nag(15)),
    ("∞", Suffix::Nag(13)),
    ("#", Suffix::Mate),
    ("+", Suffix::Check),
    ("N", Suffix::Nag(146)),
    ("=", Suffix::Nag(10)),
];

#[derive(Clone, Copy)]
enum Suffix {
    Nag(u8),
    Check,
    Mate,
    DrawOffer,
    EnPassant,
}

/// The NAG of an annotation or evaluation written as a token of its own
/// (`Cf3 !?`, `+/=`), if it is one.
pub(crate) fn standalone_nag(token: &str) -> Option<u8> {
    // Every annotation is at most three bytes long and starts with a sign (or
    // N): a move is turned away at once.
    if token.len() > 3 || !token.starts_with(|c: char| !c.is_ascii() || matches!(c, '+' | '-' | '=' | '!' | '?' | 'N'))
    {
        return None;
    }
    SUFFIXES.iter().find_map(|(s, k)| match k {
        Suffix::Nag(n) if *s == token => Some(*n),
        _ => None,
    })
}

/// Whether a token written alone is the "e.p." after an en passant capture.
pub(crate) fn is_en_passant_mark(token: &str) -> bool {
    (2..=4).contains(&token.len())
        && token.starts_with(['e', 'a', 'i', 'E', 'A', 'I'])
        && ["e.p.", "e.p", "ep", "a.p.", "a.p", "i.p."].iter().any(|m| token.eq_ignore_ascii_case(m))
}

/// Maps characters people type for the same thing onto one: Cyrillic letters
/// that look like square letters, typographic dashes, the multiplication sign.
/// Uppercase Cyrillic is kept: it names pieces in Russian and Bulgarian.
pub(crate) fn normalize_char(c: char) -> char {
    match c {
        '×' | 'х' => 'x',
        '–' | '—' | '−' | '‒' | '‐' => '-',
        'а' => 'a',
        'с' => 'c',
        'е' => 'e',
        'һ' => 'h',
        '０'..='９' => char::from_u32(c as u32 - '０' as u32 + '0' as u32).unwrap_or(c),
        c => c,
    }
}

/// Splits an entry into the move and what is written after it.
///
/// ```
/// use scoresheet::dev::{lex, CheckMark};
/// let l = lex("Dxf7++");
/// assert_eq!(l.core, "Dxf7");
/// assert_eq!(l.check, Some(CheckMark::Mate));
/// let l = lex("Cf3!?(=)");
/// assert_eq!((&*l.core, l.nags.as_slice(), l.draw_offer), ("Cf3", &[5u8][..], true));
/// ```
pub fn lex(text: &str) -> Lexed<'_> {
    // An entry has seldom whitespace around it: no need to trim then.
    let bare = |b: Option<&u8>| b.is_some_and(u8::is_ascii_graphic);
    let text = if bare(text.as_bytes().first()) && bare(text.as_bytes().last()) { text } else { text.trim() };
    let text = without_ending(text);
    // ASCII text has nothing to normalise: no copy is made until the core is known.
    if !text.is_ascii() {
        let normalized: String = text.chars().map(normalize_char).collect();
        let l = lex_ascii_or_normalized(&normalized);
        return Lexed { core: Cow::Owned(l.core.into_owned()), ..l };
    }
    lex_ascii_or_normalized(text)
}

/// `text` without an ending its language glues to a move with a dash
/// (`Fd3-ra`, `Hc6!-tal`: see [`crate::notation::Language::endings`]).
fn without_ending(text: &str) -> &str {
    let Some(dash) = text.rfind(['-', '–']) else { return text };
    let (before, ending) = (&text[..dash], &text[dash..].trim_start_matches(['-', '–']));
    let ending = ending.trim_end_matches(['.', ',', ';']);
    let a_move = before.bytes().any(|b| b.is_ascii_digit());
    if a_move && !ending.is_empty() && crate::notation::language::is_move_ending(&ending.to_lowercase()) {
        before
    } else {
        text
    }
}

/// [`lex`] of text whose characters are already normalised.
fn lex_ascii_or_normalized(text: &str) -> Lexed<'_> {
    let mut core = text;
    let mut out = Lexed::default();
    'strip: loop {
        if !core.as_bytes().last().is_some_and(u8::is_ascii_graphic) {
            core = core.trim_end();
        }
        // Every suffix ends in one of these: most entries end in a square.
        let Some(last) = core.chars().next_back() else {
            break;
        };
        if !matches!(last, '!' | '?' | '+' | '#' | '=' | 'N' | '-' | 'p' | '.' | ')' | '±' | '∓' | '⩲' | '⩱' | '∞')
        {
            break;
        }
        for (s, kind) in SUFFIXES {
            let Some(rest) = strip_short(core, s) else {
                continue;
            };
            if rest.is_empty() || !suffix_fits(rest, s) {
                continue;
            }
            match kind {
                Suffix::Nag(n) => out.nags.insert(0, *n),
                Suffix::Check => out.check = out.check.or(Some(CheckMark::Check)),
                Suffix::Mate => out.check = Some(CheckMark::Mate),
                Suffix::DrawOffer => out.draw_offer = true,
                Suffix::EnPassant => out.en_passant = true,
            }
            core = rest;
            continue 'strip;
        }
        break;
    }
    out.core = Cow::Borrowed(core);
    out
}

/// `text` without the short `suffix` it ends with, compared byte by byte
/// from the end (most suffixes differ from the text in their last byte).
fn strip_short<'a>(text: &'a str, suffix: &str) -> Option<&'a str> {
    let at = text.len().checked_sub(suffix.len())?;
    let tail = &text.as_bytes()[at..];
    if tail.iter().rev().zip(suffix.as_bytes().iter().rev()).all(|(a, b)| a == b) { text.get(..at) } else { None }
}

/// Rules out suffix readings that would cut into the move itself.
fn suffix_fits(rest: &str, suffix: &str) -> bool {
    let last = rest.chars().next_back().unwrap_or(' ');
    match suffix {
        // After `=`, `/` or `(` N is the promotion piece ("b8=N", "exf8=N+");
        // so it is after the last rank of a pawn move ("e8N"). After a piece
        // move ("Te1N") N is a novelty.
        "N" => {
            !matches!(last, '=' | '/' | '(')
                && (!matches!(last, '1' | '8') || rest.chars().next().is_some_and(char::is_uppercase))
        }
        // "e8=" is an unfinished promotion, not an evaluation.
        "=" => !matches!(last, '1' | '8'),
        // "ep" must follow a square ("exd6ep"), not be part of a word.
        "ep" | "e.p" | "a.p" => last.is_ascii_digit() || last == ' ',
        _ => true,
    }
}

/// Whether a token is a word of prose printed among the moves
/// (`Pozitia`, `dupa`, `Korčnoj-Ivkov`): four letters or more, no digit, two
/// lower-case letters running that no move has (not `exd`, `KtxP`), and no
/// castling in words. Such a token stands for no move.
pub(crate) fn is_prose_word(written: &str) -> bool {
    let t = written.trim_matches(|c: char| !c.is_alphanumeric());
    let letters: Vec<char> = t.chars().collect();
    let no_move_letter = |c: char| c.is_lowercase() && !matches!(c, 'a'..='h' | 'x');
    letters.iter().filter(|c| c.is_alphabetic()).count() >= 4
        && letters.iter().all(|&c| c.is_alphabetic() || matches!(c, '-' | '\'' | '’'))
        && letters.windows(2).any(|w| no_move_letter(w[0]) && no_move_letter(w[1]))
        && !t.to_lowercase().starts_with("kt")
        && !is_castling_word(t)
}

/// Whether a word is castling in words, in any language: a whole word of
/// a language's table ([`crate::notation::language::is_castling_word`]).
pub(crate) fn is_castling_word(word: &str) -> bool {
    crate::notation::language::is_castling_word(word)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ending_glued_to_a_move_is_taken_off() {
        assert_eq!(lex("Fd3-ra").core, "Fd3");
        let l = lex("Hc6!-tal");
        assert_eq!((&*l.core, l.nags.as_slice()), ("Hc6", &[1u8][..]));
        assert_eq!(lex("e2-e4").core, "e2-e4", "long algebraic keeps its dash");
        assert_eq!(lex("0-0").core, "0-0");
    }

    #[test]
    fn check_and_mate_signs() {
        assert_eq!(lex("Dh5+").check, Some(CheckMark::Check));
        assert_eq!(lex("Dxf7#").check, Some(CheckMark::Mate));
        assert_eq!(lex("Dxf7++").core, "Dxf7");
    }

    #[test]
    fn glyphs_and_evaluations_become_nags() {
        assert_eq!(lex("e4!").nags, vec![1]);
        assert_eq!(lex("e4?").nags, vec![2]);
        assert_eq!(lex("e4!!").nags, vec![3]);
        assert_eq!(lex("e4??").nags, vec![4]);
        assert_eq!(lex("e4!?").nags, vec![5]);
        assert_eq!(lex("e4?!").nags, vec![6]);
        assert_eq!(lex("Cf3+/=").nags, vec![14]);
        assert_eq!(lex("Cf3=/+").nags, vec![15]);
        assert_eq!(lex("Cf3±").nags, vec![16]);
        assert_eq!(lex("Cf3∓").nags, vec![17]);
        assert_eq!(lex("Cf3+-").nags, vec![18]);
        assert_eq!(lex("Cf3-+").nags, vec![19]);
        assert_eq!(lex("Cf3N").nags, vec![146]);
        let l = lex("Dxf7+!");
        assert_eq!((&*l.core, l.check, l.nags), ("Dxf7", Some(CheckMark::Check), vec![1]));
    }

    #[test]
    fn knight_promotion_is_not_a_novelty() {
        let l = lex("e8N");
        assert_eq!(l.core, "e8N");
        assert!(l.nags.is_empty());
    }

    #[test]
    fn english_knight_under_promotion_keeps_its_n() {
        for (w, core) in [("b8=N", "b8=N"), ("a1=N", "a1=N"), ("exf8=N", "exf8=N"), ("b8/N", "b8/N"), ("b8(N", "b8(N")]
        {
            let l = lex(w);
            assert_eq!(l.core, core, "{w}");
            assert!(l.nags.is_empty(), "{w}");
        }
        let l = lex("exf8=N+");
        assert_eq!((&*l.core, l.check, l.nags.as_slice()), ("exf8=N", Some(CheckMark::Check), &[][..]));
        let l = lex("exf8=N#");
        assert_eq!((&*l.core, l.check), ("exf8=N", Some(CheckMark::Mate)));
        let l = lex("b1=N!?");
        assert_eq!((&*l.core, l.nags.as_slice()), ("b1=N", &[5u8][..]));
    }

    #[test]
    fn n_after_a_piece_move_is_a_novelty() {
        for (w, core) in [("Te1N", "Te1"), ("Re1N", "Re1"), ("Cf3N", "Cf3"), ("Re8N", "Re8")] {
            let l = lex(w);
            assert_eq!(l.core, core, "{w}");
            assert_eq!(l.nags, vec![146], "{w}");
        }
        let l = lex("Re1+N");
        assert_eq!((&*l.core, l.check, l.nags.as_slice()), ("Re1", Some(CheckMark::Check), &[146u8][..]));
    }

    #[test]
    fn ascii_and_normalised_entries_lex_alike() {
        for (w, core) in [("  Cf3  ", "Cf3"), ("e4", "e4"), ("Cf3 +", "Cf3"), ("ｅ４", "ｅ4"), ("Т×е4+", "Тxe4")]
        {
            assert_eq!(lex(w).core, core, "{w}");
        }
        assert_eq!(lex("").core, "");
        assert_eq!(lex("+").core, "+");
    }

    #[test]
    fn standalone_marks() {
        assert_eq!(standalone_nag("!?"), Some(5));
        assert_eq!(standalone_nag("+/="), Some(14));
        assert_eq!(standalone_nag("±"), Some(16));
        assert_eq!(standalone_nag("N"), Some(146));
        assert_eq!(standalone_nag("Cf3"), None);
        assert_eq!(standalone_nag("+"), None);
        assert_eq!(standalone_nag(""), None);
        for t in ["e.p.", "E.P.", "ep", "Ep", "a.p", "i.p."] {
            assert!(is_en_passant_mark(t), "{t}");
        }
        for t in ["e4", "exd6", "e.p.x", "", "i.p"] {
            assert!(!is_en_passant_mark(t), "{t}");
        }
    }

    #[test]
    fn en_passant_suffix_forms() {
        for w in ["exd6e.p.", "exd6 e.p.", "exd6a.p.", "exd6ep"] {
            let l = lex(w);
            assert_eq!(l.core, "exd6", "{w}");
            assert!(l.en_passant, "{w}");
        }
    }

    #[test]
    fn draw_offer_is_marked() {
        let l = lex("Tf1(=)");
        assert_eq!(l.core, "Tf1");
        assert!(l.draw_offer);
    }

    #[test]
    fn cyrillic_lookalikes_and_dashes() {
        assert_eq!(lex("Кrе4").core, "Кre4");
        assert_eq!(lex("e2–e4").core, "e2-e4");
        assert_eq!(lex("Л×е4").core, "Лxe4");
    }
}
