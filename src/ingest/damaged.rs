//! Text damaged by conversion from PDF, read as it was meant (and a result
//! printed alone in brackets read as the result it is): the dashes of
//! castling and of results lost (`6.0 0`, `12.0 0 0`, `… 31.Dh7# 1 0`).
//! Each dash is put back in the place of the space it became, so that lines
//! and columns stay the file's.

use std::borrow::Cow;
use std::sync::LazyLock;

use regex::Regex;

use crate::sheet::GameResult;

/// A result alone in brackets: `(1-0)`, `[0:1]`, `{½–½}`, `(1 x 0)`.
static BRACKETED_RESULT: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"[(\[{] ?(?:1/2|[01½]) ?[-–:x×] ?(?:1/2|[01½]) ?[)\]}]").expect("a valid pattern"));

/// `text` with a result printed alone in brackets (`18.Te5+ (1-0). A
/// continuação seria 18...Rf6`) read as the result it is, its brackets
/// made spaces: it ends the game, and the moves told after it are analysis.
pub(crate) fn results_unbracketed(text: &str) -> Cow<'_, str> {
    if !BRACKETED_RESULT.is_match(text) {
        return Cow::Borrowed(text);
    }
    let open = |m: &regex::Captures<'_>| {
        let m = &m[0];
        let inner = &m[m.char_indices().nth(1).map_or(0, |(i, _)| i)..m.len() - 1];
        match GameResult::parse(inner) {
            Some(r) if r != GameResult::Unknown => format!(" {inner} "),
            _ => m.to_string(),
        }
    };
    BRACKETED_RESULT.replace_all(text, open)
}

/// `text` with `0 0` and `0 0 0` read as castling where a move stands (after
/// a move number, or after White's move), and `1 0`, `0 1`, `½ ½` read as a
/// result where one fits (after a move, at the end of a line or before the
/// next game's move 1 or header); else `text` as it is.
pub(crate) fn dashes_put_back(text: &str) -> Cow<'_, str> {
    if !text.contains("0 0") && !text.contains("1 0") && !text.contains("0 1") && !text.contains("½ ½") {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut changed = false;
    for line in text.split_inclusive('\n') {
        let mended = line_mended(line);
        changed |= mended != line;
        out.push_str(&mended);
    }
    if changed { Cow::Owned(out) } else { Cow::Borrowed(text) }
}

/// One line, its lost dashes put back.
fn line_mended(line: &str) -> String {
    let tokens: Vec<(usize, &str)> = super::printed::positioned(line).collect();
    let mut bytes = line.as_bytes().to_vec();
    let mut k = 0;
    while k < tokens.len() {
        let zero = |j: usize| tokens.get(j).is_some_and(|(_, t)| *t == "0" || t.trim_end_matches(['+', '#']) == "0");
        let spaced = |j: usize| tokens[j].0 + tokens[j].1.len() + 1 == tokens[j + 1].0;
        let after_move = k > 0 && move_or_number(tokens[k - 1].1);
        // `6.0 0`: the first zero glued to its move number.
        let numbered_zero = super::printed::half_move_at_start(tokens[k].1).is_some() && {
            let t = tokens[k].1.trim_start_matches(|c: char| c.is_ascii_digit());
            matches!(t, ".0" | ")0")
        };
        // Castling: `0 0 0` before `0 0`; a result that follows stays one.
        if ((after_move && zero(k)) || numbered_zero) && zero(k + 1) && spaced(k) {
            let long = zero(k + 2) && spaced(k + 1) && !is_result_at(&tokens, k + 1);
            let n = if long { 3 } else { 2 };
            for j in k..k + n - 1 {
                bytes[tokens[j].0 + tokens[j].1.len()] = b'-';
            }
            k += n;
            continue;
        }
        if k > 0 && move_like(tokens[k - 1].1) && is_result_at(&tokens, k) && spaced(k) {
            // `½ ½`: the space after the first `½` (two bytes).
            bytes[tokens[k].0 + tokens[k].1.len()] = b'-';
            k += 2;
            continue;
        }
        k += 1;
    }
    String::from_utf8(bytes).unwrap_or_else(|_| line.to_string())
}

/// Whether tokens `k` and `k + 1` are a result with its dash lost, where a
/// result fits: the line ends after it, or the next game starts (`1.`, a
/// name and a comma, `[`).
fn is_result_at(tokens: &[(usize, &str)], k: usize) -> bool {
    let (Some((_, a)), Some((_, b))) = (tokens.get(k), tokens.get(k + 1)) else { return false };
    let b = b.trim_end_matches(['.', ',', ';']);
    let pair = matches!((*a, b), ("1", "0") | ("0", "1") | ("½", "½"));
    let next = tokens.get(k + 2).map(|(_, t)| *t);
    let ends = next.is_none_or(|t| {
        t.starts_with("1.")
            || t.starts_with('[')
            || t.starts_with('(')
            || t.chars().next().is_some_and(char::is_uppercase)
    });
    pair && ends
}

/// A move or a move number: what castling may follow.
fn move_or_number(t: &str) -> bool {
    super::printed::half_move_at_start(t).is_some() || move_like(t)
}

/// A token with a square in it, or castling: a move.
fn move_like(t: &str) -> bool {
    super::printed::names_a_square(t) || t.starts_with(['O', '0'])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_result_alone_in_brackets_is_a_result() {
        assert_eq!(results_unbracketed("18.Te5+ (1-0). A continuação"), "18.Te5+  1-0 . A continuação");
        assert_eq!(results_unbracketed("Ba3# [0:1]"), "Ba3#  0:1 ");
        assert_eq!(results_unbracketed("Dh7# (1 x 0)"), "Dh7#  1 x 0 ");
        // Castling in brackets is castling.
        assert_eq!(results_unbracketed("(0-0)"), "(0-0)");
        // A note that holds a result with more is a note.
        assert_eq!(results_unbracketed("(Knorre - Czigorin, 0-1)"), "(Knorre - Czigorin, 0-1)");
    }

    #[test]
    fn castling_and_results_with_their_dashes_lost_are_read_as_meant() {
        assert_eq!(dashes_put_back("6.0 0 Nxe4 7.cxd4"), "6.0-0 Nxe4 7.cxd4");
        assert_eq!(dashes_put_back("10.Nc3 0 0 1 0\n"), "10.Nc3 0-0 1-0\n");
        assert_eq!(dashes_put_back("12.0 0 0 c5 0 1"), "12.0-0-0 c5 0-1");
        assert_eq!(
            dashes_put_back("31.Dh7# 1 0 Nowak,Jan - Kowalski,Piotr [C21] 1.e4"),
            "31.Dh7# 1-0 Nowak,Jan - Kowalski,Piotr [C21] 1.e4"
        );
        assert_eq!(dashes_put_back("41.Kf2 ½ ½"), "41.Kf2 ½-½");
    }

    #[test]
    fn numbers_that_are_no_castling_nor_result_are_left_as_they_are() {
        for text in ["Round 1 0 points", "Score: 1 0 1 ½", "1 0", "Table 3: 0 0", "2.Nf3 10 moves"] {
            assert_eq!(dashes_put_back(text), text);
        }
    }
}
