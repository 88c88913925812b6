//! Lexing one written entry: normalising look-alike characters and taking off
//! what is written after the move itself (check marks, annotation glyphs,
//! evaluation signs, the draw offer, "e.p.").

/// One entry with the decorations around the move taken off.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Lexed {
    /// The move itself, e.g. `Cxf3` or `0-0`, characters normalised.
    pub core: String,
    /// Numeric Annotation Glyphs of the annotations written after the move.
    pub nags: Vec<u8>,
    /// `+` (check) or `#`/`++` (mate) written after the move.
    pub check: Option<CheckMark>,
    /// `(=)`: the player offered a draw with this move (FIDE Appendix C.12).
    pub draw_offer: bool,
    /// `e.p.`, `a.p.` or `ep` was written.
    pub en_passant: bool,
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
pub fn standalone_nag(token: &str) -> Option<u8> {
    SUFFIXES.iter().find_map(|(s, k)| match k {
        Suffix::Nag(n) if *s == token => Some(*n),
        _ => None,
    })
}

/// Whether a token written alone is the "e.p." after an en passant capture.
pub fn is_en_passant_mark(token: &str) -> bool {
    matches!(
        token.to_ascii_lowercase().as_str(),
        "e.p." | "e.p" | "ep" | "a.p." | "a.p" | "i.p."
    )
}

/// Maps characters people type for the same thing onto one: Cyrillic letters
/// that look like square letters, typographic dashes, the multiplication sign.
/// Uppercase Cyrillic is kept: it names pieces in Russian and Bulgarian.
pub fn normalize_char(c: char) -> char {
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
/// use scoresheet::notation::lex::{lex, CheckMark};
/// let l = lex("Dxf7++");
/// assert_eq!(l.core, "Dxf7");
/// assert_eq!(l.check, Some(CheckMark::Mate));
/// let l = lex("Cf3!?(=)");
/// assert_eq!((l.core.as_str(), l.nags.as_slice(), l.draw_offer), ("Cf3", &[5u8][..], true));
/// ```
pub fn lex(text: &str) -> Lexed {
    let mut core: String = text.trim().chars().map(normalize_char).collect();
    let mut out = Lexed::default();
    'strip: loop {
        let trimmed = core.trim_end();
        if trimmed.len() != core.len() {
            core.truncate(trimmed.len());
        }
        for (s, kind) in SUFFIXES {
            let Some(rest) = core.strip_suffix(s) else {
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
            core.truncate(rest.len());
            continue 'strip;
        }
        break;
    }
    out.core = core;
    out
}

/// Rules out suffix readings that would cut into the move itself.
fn suffix_fits(rest: &str, suffix: &str) -> bool {
    let last = rest.chars().next_back().unwrap_or(' ');
    match suffix {
        // "e8N" promotes to a knight; after a piece move ("Te1N") N is a novelty.
        "N" => !matches!(last, '1' | '8') || rest.chars().next().is_some_and(char::is_uppercase),
        // "e8=" is an unfinished promotion, not an evaluation.
        "=" => !matches!(last, '1' | '8'),
        // "ep" must follow a square ("exd6ep"), not be part of a word.
        "ep" | "e.p" | "a.p" => last.is_ascii_digit() || last == ' ',
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(
            (l.core.as_str(), l.check, l.nags),
            ("Dxf7", Some(CheckMark::Check), vec![1])
        );
    }

    #[test]
    fn knight_promotion_is_not_a_novelty() {
        let l = lex("e8N");
        assert_eq!(l.core, "e8N");
        assert!(l.nags.is_empty());
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
