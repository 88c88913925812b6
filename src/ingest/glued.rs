//! Moves copied without the spaces between them (`1.d4Nf62.c4b63.Nc3Bb7`),
//! as a page whose moves stood in separate boxes gives them when copied:
//! spaced out again before the lines are read.

use std::borrow::Cow;
use std::sync::LazyLock;

use regex::Regex;

/// A square, then a move number glued to it, then the next move (`f62.c4`,
/// `b63.N`, `f514...g`): what two moves and a number run together look like.
static GLUED: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"[a-h][1-8][+#!?]*\d{1,3}(?:\.\.\.|…|\.)[a-hA-Z0O]").expect("a valid pattern"));

/// Two boxes of one row run together where a space was lost, the space
/// due at each pattern's empty group: castling and the next move
/// (`5. 0-0Rbd7`), castling or a move and the next number (`O-O-O11.`,
/// `Td615.`), two piece moves (`Rh1Tg6`).
static RUN_TOGETHER: LazyLock<[Regex; 3]> = LazyLock::new(|| {
    let castling = r"(?:O-O-O|O-O|0-0-0|0-0)";
    let piece_move = r"[A-Z][a-h1-8]?[x:]?[a-h][1-8]";
    [
        format!(r"\b{castling}[+#!?]*(){piece_move}\b"),
        format!(r"(?:\b{castling}|\b[A-Z]?[a-h]?[x:]?[a-h][1-8])[+#!?]*()\d{{1,3}}\.(?:\s|$)"),
        format!(r"\b{piece_move}[+#!?]*(){piece_move}\b"),
    ]
    .map(|p| Regex::new(&p).expect("a valid pattern"))
});

/// One unit at the start of a run: a move number, a result, castling or a
/// move in short algebraic (with a piece letter of any language), with its
/// signs. Short: `c4b6` is two pawn moves and `Qc2d5` a queen's and a pawn's.
static UNIT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^(?:\d{1,3}(?:\.\.\.|…|\.)|(?:1|0|½|1/2)[-–](?:1|0|½|1/2)|(?:O-O-O|O-O|0-0-0|0-0)[+#]*[!?]*|(?:[A-Z](?:[a-h]|[1-8])?[x:]?[a-h][1-8]|[a-h](?:[x:][a-h])?[1-8](?:=[A-Z])?)[+#]*[!?]*)",
    )
    .expect("a valid pattern")
});

/// A word at the start of a run (`Questa`, `dell'ala`).
static WORD: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^[\p{L}'’]+").expect("a valid pattern"));

/// `text` with the moves, numbers and words of glued runs parted by a space,
/// where the text has such a run; else `text` as it is. Lines
/// stay where they are (the columns after a run count the spaces put in):
/// `1.d4Nf62.c4b6 Bene.` is read as `1. d4 Nf6 2. c4 b6 Bene.`.
pub(crate) fn unglued(text: &str) -> Cow<'_, str> {
    if !GLUED.is_match(text) {
        return boxes_parted(text);
    }
    let mut out = String::with_capacity(text.len() + text.len() / 4);
    let mut at = 0;
    for (start, token) in super::printed::positioned(text) {
        out.push_str(&text[at..start]);
        // Words alone are left as they are, punctuation and all.
        if token.bytes().any(|b| b.is_ascii_digit()) {
            out.push_str(&parted(token));
        } else {
            out.push_str(token);
        }
        at = start + token.len();
    }
    out.push_str(&text[at..]);
    Cow::Owned(out)
}

/// `text` with a space put where two boxes of a row run together (see
/// [`RUN_TOGETHER`]), the rest as it is.
fn boxes_parted(text: &str) -> Cow<'_, str> {
    let mut gaps: Vec<usize> =
        RUN_TOGETHER.iter().flat_map(|p| p.captures_iter(text).filter_map(|c| c.get(1)).map(|g| g.start())).collect();
    if gaps.is_empty() {
        return Cow::Borrowed(text);
    }
    gaps.sort_unstable();
    gaps.dedup();
    let mut out = String::with_capacity(text.len() + gaps.len());
    let mut at = 0;
    for gap in gaps {
        out.push_str(&text[at..gap]);
        out.push(' ');
        at = gap;
    }
    out.push_str(&text[at..]);
    Cow::Owned(out)
}

/// One glued run parted into its moves, numbers and words; punctuation
/// stays with what it follows (`Cc3.5.cxd5` is `Cc3. 5. cxd5`).
fn parted(run: &str) -> String {
    let mut pieces: Vec<&str> = Vec::new();
    // The piece being made: its start and end in `run`.
    let (mut from, mut i) = (0, 0);
    while i < run.len() {
        let rest = &run[i..];
        let unit = UNIT.find(rest).or_else(|| WORD.find(rest));
        match unit {
            Some(m) => {
                if i > from {
                    pieces.push(&run[from..i]);
                }
                from = i;
                i += m.end();
            }
            None => i += rest.chars().next().map_or(1, char::len_utf8),
        }
    }
    if i > from {
        pieces.push(&run[from..i]);
    }
    pieces.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_numbers_and_words_run_together_are_parted() {
        assert_eq!(
            unglued("1.d4Nf62.c4b63.Nc3Bb74.Qc2d5Questa mossa\n"),
            "1. d4 Nf6 2. c4 b6 3. Nc3 Bb7 4. Qc2 d5 Questa mossa\n"
        );
        assert_eq!(
            unglued("con il Cc3.5.cxd5Nxd56.Nf3e6 e 10.Bd30-0Il Re 13.Rh3Kh8?Una f514...gxh615.Qd2e il 24.Qxc61–0"),
            "con il Cc3. 5. cxd5 Nxd5 6. Nf3 e6 e 10. Bd3 0-0 Il Re 13. Rh3 Kh8? Una f5 14... gxh6 15. Qd2 e il 24. Qxc6 1–0"
        );
    }

    #[test]
    fn two_boxes_of_a_row_run_together_are_parted() {
        assert_eq!(unglued("4. Bg2 b5 5. 0-0Rbd7 6. a4"), "4. Bg2 b5 5. 0-0 Rbd7 6. a4");
        assert_eq!(unglued("12. O-O-O Kb8"), "12. O-O-O Kb8");
        let run = "10. Aa3 O-O-O11. Axf8 Thxf8 14. gxf3 Td615. Te1 f5 19. Rh1Tg6 20. Ac4";
        assert_eq!(unglued(run), "10. Aa3 O-O-O 11. Axf8 Thxf8 14. gxf3 Td6 15. Te1 f5 19. Rh1 Tg6 20. Ac4");
        let prose = "5. 0-0Rbd7 Pardubice 2015 (2.465) chess24.com";
        assert_eq!(unglued(prose), "5. 0-0 Rbd7 Pardubice 2015 (2.465) chess24.com");
    }

    #[test]
    fn text_with_its_spaces_is_left_as_it_is() {
        let text = "1. d4 Nf6 2. c4 b6 (2...e6) 3. Nc3 Bb7, dell'ala 1862: 1-0";
        assert!(matches!(unglued(text), Cow::Borrowed(_)));
        assert_eq!(unglued("7.Fxc4 b58.Fd3 a6"), "7. Fxc4 b5 8. Fd3 a6");
    }
}
