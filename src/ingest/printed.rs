//! Movetext as books and bulletins print it, made into the entries a
//! scoresheet has: a move printed in words or with spaces (`P. to K's 4th.`,
//! `Kt - K B 3`, `A x C`, `O - O`) closed up into one entry, footnote marks
//! (`3d.[A]`) taken off, and lines of prose told from lines of moves.
//!
//! Every change keeps the line and the column of every entry: a move closed
//! up is followed by the spaces it lost, a mark taken off becomes spaces.

use std::borrow::Cow;
use std::sync::LazyLock;

use regex::{Captures, Regex};

use crate::notation::language::{draw_words, is_hedge, is_resign_word, resign_words_apart, side_word};

/// What may follow a piece to tell it apart: its square or rank in
/// parentheses, or its rank after `/` (`Kt(3)`, `R (Q 1)`, `N/5`).
const QUALIFIER: &str = r"(?: ?\((?:[QK] ?)?(?:(?:Kt|[RNBTACDF]) ?)?[1-8]?\.?\)| ?/ ?[1-8])?";

/// A descriptive move printed with spaces, as old books set them:
/// `P - K 4`, `Kt - K B 3`, `B x Kt ch`, `Q P x B`, `Kt (3) - B 5`.
static SPACED: LazyLock<Regex> = LazyLock::new(|| {
    // Each part starts and ends with a letter or a digit: a match never
    // takes in the space before or after it (`KB3 P-QB4` is two moves).
    let piece = r"(?:[QK] ?)?(?:Kt|KT|[RNB]) ?P|(?:[QK] ?)?(?:Kt|KT|[RNB])|[QK] ?P|Kt|[PKQRBN]";
    let square = r"(?:[QK] ?)?(?:(?:Kt|KT|[RNB]) ?)?[1-8]";
    let q = QUALIFIER;
    let pattern = format!(
        r"\b(?:{piece}){q} ?[-–—] ?(?:{square})\b(?: ch\b)?|\b(?:{piece}){q} ?[x×] ?(?:{piece})\b{q}(?: ch\b)?"
    );
    Regex::new(&pattern).expect("a valid pattern")
});

/// A page in the spaced style: a piece, a space, then a dash or an `x` and
/// a space (`P - K 4`, `B x Kt`).
static SPACED_STYLE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\b(?:Kt|[PKQRBN])(?: ?\([^)]{1,6}\))? [-–—x×] ").expect("a valid pattern"));

/// A Spanish or French descriptive move printed with spaces: `A x C`,
/// `PD x A`, `P x P`, `C - 3AR`, `D 4 FR`, `T 4 CR — 2 CR` (the rook on
/// CR4 to CR2: the 1930 FIDE rules print both). Capital letters around an `x` or before a rank are no algebraic
/// move, nor a name: closed up wherever they are.
static SPACED_SIDE_AFTER: LazyLock<Regex> = LazyLock::new(|| {
    let piece = r"[PRDTACF][RDTACF]{0,2}";
    let square = r"[1-8] ?[RDTACF]{1,2}\b";
    let pattern = format!(
        r"\b{piece} ?[1-8] ?[RDTACF]{{1,2}} ?[-–—] ?{square}|\b{piece} ?[x×:] ?{piece}\b|\b{piece} ?[-–—] ?{square}|\b{piece} {square}"
    );
    Regex::new(&pattern).expect("a valid pattern")
});

/// A move in the words of nineteenth-century books: `P. to K's 4th.`,
/// `K. Kt. to B's 3d.`, `Q. B. to his 5th.`, `Kt. takes Kt.`,
/// `P. takes K. P.`, `R. to K. sq.`, `Kt.(3) to B.'s 5th.`.
static WORDS: LazyLock<Regex> = LazyLock::new(|| {
    let unit = r"(?:Kt|K|Q|B|R|P)\.?(?:['’]s)?";
    let q = QUALIFIER;
    // A side, a piece, then the piece or pawn named: `K. Kt.`, `Q. B. P.`,
    // `K.'s Kt.`, `P.` (never `P. K.`: what follows is the next move's).
    let side = r"(?:K|Q)\.?(?:['’]s)? {0,2}";
    let named = r"(?:Kt|B|R)\.?(?:['’]s)?";
    let piece = format!(r"(?:(?:{side})?(?:{named} {{0,2}}P\.?|{named}|P\.?)|K\.?|Q\.?)");
    let square = format!(r"(?:(?:his|her) )?(?:{unit} {{0,2}}){{0,2}}(?:[1-8](?:st|nd|rd|d|th)?|[Ss]q(?:uare)?)\.?");
    let pattern = format!(r"\b{piece}{q} +to +{square}|\b{piece}{q} +takes +{piece}{q}(?:[ .]|$)");
    Regex::new(&pattern).expect("a valid pattern")
});

/// Castling with its side printed apart: `Castles KR`, `Castles (Q. R.)`,
/// and castling printed with spaces: `O - O`, `0 - 0 - 0`.
static CASTLING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\bCastles?\.? *\(?([KQ])\.? *R\.?\)?|\b[O0] - [O0](?: - [O0])?\b").expect("a valid pattern")
});

/// An algebraic capture typed with a space before or after its sign (`dx
/// e4`, `Cx e4`, `Dd1x Cg4`, `Cc6 x Cd4`, the piece taken named or not): one
/// move.
static SPACED_CAPTURE: LazyLock<Regex> = LazyLock::new(|| {
    // A space after the sign, or on both sides (`Qe4 xQb4` is a move and a
    // slip, not one capture).
    Regex::new(r"(?:^|[\s.)])(?:[A-Z][a-h]?[1-8]?|[a-h][1-8]?)(?: [x×:]|[x×:]) [A-Z]?[a-h][1-8](?:=[A-Z])?\b[+#!?]*")
        .expect("a valid pattern")
});

/// A capture in long form with a capital `X` between spaces (`f5 X e4`):
/// one move, not a move, an illegible box and a move; the mover names its
/// square.
static SPACED_CAPITAL_X: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?:^|[\s.)])[A-Z]?[a-h][1-8] X [A-Z]?[a-h][1-8]\b").expect("a valid pattern"));

/// A capture printed as a dash between spaces, as a newspaper's column
/// sets it when its `×` is lost: `c - d5`, `D - d5`, `A - c3` (the mover has
/// no square, so it is no long-form move), with what is glued after it
/// (`e - f1=D`, `D - f1?`).
static DASHED_CAPTURE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?:^|\s)[A-Z]?[a-h]? [-–] [a-h][1-8](?:=[A-Z])?\b[+#!?]*").expect("a valid pattern"));

/// En passant with a space in it: `a. p.` (al paso), `e. p.`.
static EN_PASSANT: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\b[aei]\. p\.").expect("a valid pattern"));

/// A move in long algebraic with spaces around its dash: `e2 - e4`,
/// `Cg1 - f3`.
static SPACED_LONG: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?:^|[\s.)])[A-Z]?[a-h][1-8] [-–—] [a-h][1-8]\b").expect("a valid pattern"));

/// A result printed with spaces: `1 : 0`, `½ - ½`, `0 -1`, `1 x 0`.
static SPACED_RESULT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:^|[\s}])(?:1/2|[01½]) ?[-:–—x×] ?(?:1/2|[01½])[.,]?(?:[\s{]|$)").expect("a valid pattern")
});

/// A footnote mark glued to a move: `3d.[A]`, `Kt-B3[12]`.
static FOOTNOTE: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\[(?:[A-Z]|\d{1,3})\]").expect("a valid pattern"));

/// `text` with each printed move closed up and footnote marks taken off
/// (columns kept); the English spaced forms only on a page in the spaced
/// style (three or more such moves), never in algebraic movetext.
pub(crate) fn close_printed(text: &str) -> Cow<'_, str> {
    let mut text = Cow::Borrowed(text);
    if FOOTNOTE.is_match(&text) {
        text = Cow::Owned(FOOTNOTE.replace_all(&text, |c: &Captures<'_>| " ".repeat(c[0].chars().count())).into());
    }
    if WORDS.is_match(&text) {
        text = Cow::Owned(close_matches(&text, &WORDS, in_words));
    }
    if CASTLING.is_match(&text) {
        text = Cow::Owned(CASTLING.replace_all(&text, |c: &Captures<'_>| closed(&castling(c), &c[0])).into());
    }
    if SPACED_STYLE.find_iter(&text).take(3).count() == 3 {
        text = Cow::Owned(close_matches(&text, &SPACED, str::to_string));
    }
    if SPACED_CAPTURE.find_iter(&text).any(|m| m.as_str().trim_start().contains(' ')) {
        let capture = |c: &Captures<'_>| closed_in_place(&c[0], str::to_string);
        text = Cow::Owned(SPACED_CAPTURE.replace_all(&text, capture).into());
    }
    if SPACED_CAPITAL_X.is_match(&text) {
        let capture = |c: &Captures<'_>| closed_in_place(&c[0], |m| m.replacen(" X ", "x", 1));
        text = Cow::Owned(SPACED_CAPITAL_X.replace_all(&text, capture).into());
    }
    // Only on a page in that style, three pawn moves on their file at least
    // (`e2 - e4`): elsewhere `e4 – c5` is two moves parted by a dash.
    let pawn_on_its_file = |m: &regex::Match<'_>| {
        let t = m.as_str().trim_start_matches(before_move);
        let b = t.as_bytes();
        b[0].is_ascii_lowercase() && b.get(t.len() - 2) == Some(&b[0])
    };
    if SPACED_LONG.find_iter(&text).filter(pawn_on_its_file).take(3).count() == 3 {
        let long = |c: &Captures<'_>| closed_in_place(&c[0], str::to_string);
        text = Cow::Owned(SPACED_LONG.replace_all(&text, long).into());
    }
    if DASHED_CAPTURE.find_iter(&text).filter(|m| m.as_str().trim().len() > 4).take(3).count() == 3 {
        let capture = |c: &Captures<'_>| closed_in_place(&c[0], |m| m.replacen(['-', '–'], "x", 1));
        text = Cow::Owned(DASHED_CAPTURE.replace_all(&text, capture).into());
    }
    if EN_PASSANT.is_match(&text) {
        text = Cow::Owned(EN_PASSANT.replace_all(&text, |c: &Captures<'_>| closed(&c[0], &c[0])).into());
    }
    if SPACED_RESULT.find_iter(&text).any(|m| m.as_str().trim().contains(' ')) {
        text = Cow::Owned(SPACED_RESULT.replace_all(&text, spaced_result).into());
    }
    if SPACED_SIDE_AFTER.find_iter(&text).any(|m| m.as_str().contains(' ')) {
        text = Cow::Owned(close_matches(&text, &SPACED_SIDE_AFTER, str::to_string));
    }
    text
}

/// What a match may start with before its move: whitespace, or the `.` or
/// `)` of a move number the move is glued to (`4.d4 x e5`).
fn before_move(c: char) -> bool {
    c.is_whitespace() || matches!(c, '.' | ')')
}

/// A move matched with spaces in it, closed up by `entry` where it stands:
/// what the match starts with before the move kept, the move padded to its
/// columns.
fn closed_in_place(m: &str, entry: impl Fn(&str) -> String) -> String {
    let lead = m.len() - m.trim_start_matches(before_move).len();
    format!("{}{}", &m[..lead], closed(&entry(&m[lead..]), &m[lead..]))
}

/// A result printed with spaces closed up where it is one (`1 : 0`, not
/// `0 - 0`), its whitespace around kept.
fn spaced_result(c: &Captures<'_>) -> String {
    let m = &c[0];
    // Up to a note's brace around it (`1 : 0.{Il Nero ...}`).
    let edge = |c: char| c.is_whitespace() || matches!(c, '{' | '}');
    let inner = m.trim_matches(edge);
    let lead = m.len() - m.trim_start_matches(edge).len();
    let tail = &m[lead + inner.len()..];
    let close = closed(inner, inner);
    match crate::sheet::GameResult::parse(close.trim()) {
        Some(r) if r != crate::sheet::GameResult::Unknown => format!("{}{close}{tail}", &m[..lead]),
        _ => m.to_string(),
    }
}

/// `text` with each match of `re` closed up into the entry `entry` makes of
/// it. A match that took in the piece of the next move (`B x Kt P - K 4`:
/// what follows starts with a dash, an `x`, `to` or `takes`) gives back its
/// last word while what is left is still a match.
fn close_matches(text: &str, re: &Regex, entry: impl Fn(&str) -> String) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    while let Some(m) = re.find_at(text, at) {
        let mut end = m.end();
        while moves_on_its_own(&text[end..]) {
            let Some(cut) = text[m.start()..end].trim_end().rfind(' ') else { break };
            let shorter = &text[m.start()..m.start() + cut];
            if !re.find(shorter).is_some_and(|s| s.range() == (0..shorter.len())) {
                break;
            }
            end = m.start() + cut;
        }
        out.push_str(&text[at..m.start()]);
        out.push_str(&closed(&entry(&text[m.start()..end]), &text[m.start()..end]));
        at = end;
    }
    out.push_str(&text[at..]);
    out
}

/// Whether `rest` goes on with a dash, an `x`, `to` or `takes`: the word
/// before it is the piece of a move of its own.
fn moves_on_its_own(rest: &str) -> bool {
    let r = rest.trim_start();
    r.starts_with(['-', '–', '—', '×']) || r.starts_with("x ") || r.starts_with("to ") || r.starts_with("takes ")
}

/// `entry` without its spaces, padded with spaces to as many characters
/// as `printed` had, so that what follows keeps its column.
fn closed(entry: &str, printed: &str) -> String {
    let entry: String = entry.chars().filter(|c| *c != ' ').collect();
    let pad = printed.chars().count().saturating_sub(entry.chars().count());
    format!("{entry}{}", " ".repeat(pad))
}

/// A move in words as descriptive notation writes it: `P. to K's 4th.` is
/// `P-K4`, `Q. B. to his 5th.` is `QB-QB5`, `Q. to her Kt.'s 3rd.` is
/// `Q-QKt3`, `Kt. takes Kt.` is `KtxKt`.
fn in_words(printed: &str) -> String {
    let printed = printed.split_whitespace().collect::<Vec<_>>().join(" ");
    let clean = |s: &str| -> String {
        s.replace("'s", "").replace("’s", "").chars().filter(|c| !matches!(c, '.' | ' ')).collect()
    };
    // `4th`, `3d`: the rank alone.
    let rank_alone = |s: String| match s.find(|c: char| c.is_ascii_digit()) {
        Some(i) => s[..=i].to_string(),
        None => s,
    };
    if let Some((piece, victim)) = printed.split_once(" takes ") {
        return format!("{}x{}", clean(piece), clean(victim.trim()));
    }
    let Some((piece, square)) = printed.split_once(" to ") else { return printed };
    let piece = clean(piece.trim());
    let square = square.trim();
    let square = match (square.strip_prefix("his "), square.strip_prefix("her ")) {
        // "his": the file of the piece itself; "her": the queen's side.
        (Some(rest), _) => format!("{}{}", piece.split('(').next().unwrap_or("").trim_end_matches('P'), clean(rest)),
        (_, Some(rest)) => format!("Q{}", clean(rest)),
        _ => clean(square),
    };
    format!("{piece}-{}", rank_alone(square))
}

/// Castling closed up: `Castles KR` is `CastlesKR`, `O - O` is `O-O`.
fn castling(c: &Captures<'_>) -> String {
    match c.get(1) {
        Some(side) => format!("Castles{}R", side.as_str()),
        None => c[0].replace(' ', ""),
    }
}

/// Words of movetext that are not prose: castling, captures, checks, the
/// possessives and ordinals of moves in words.
const MOVE_WORDS: &[&str] = &[
    "to", "takes", "castles", "castle", "ch", "check", "mate", "dis", "dbl", "his", "her", "sq", "enroque", "roque",
    "jaque", "mat", "ep",
];

/// Whether a line of a text sheet is prose (a note, a heading, a names
/// line) rather than moves: at least three words and as many as moves, or
/// words and no move at all. A word is a run of letters that is not a
/// piece or a square of any notation (`Kt`, `KB`, `CAR`); the words of
/// moves ([`MOVE_WORDS`]) count for neither.
pub(crate) fn is_prose(line: &str) -> bool {
    let (mut words, mut moves) = (0usize, 0usize);
    // What is in braces is a comment already, and what is in parentheses or
    // brackets a note or a variation the movetext reader keeps apart.
    let mut depth = 0usize;
    let outside: String = line
        .chars()
        .map(|c| {
            let was = depth;
            match c {
                '{' | '(' | '[' => depth += 1,
                '}' | ')' | ']' => depth = depth.saturating_sub(1),
                _ => {}
            }
            if was > 0 || depth > 0 { ' ' } else { c }
        })
        .collect();
    // A line that is all one note in parentheses (`(His best move.)`) is
    // told by what the note says.
    let outside = if outside.trim().is_empty() { line } else { &outside };
    let tokens: Vec<&str> = outside.split_whitespace().collect();
    let year = |t: &&str| is_date(t, t.trim_end_matches(['.', ',']));
    for (k, t) in tokens.iter().enumerate() {
        // `Londra, 5 novembre 1862`: a day of a date, not a move number.
        if t.parse::<u8>().is_ok_and(|d| (1..=31).contains(&d))
            && tokens.get(k + 1).is_some_and(|m| word_or_move(m) == Some(true))
            && tokens.get(k + 2).is_some_and(year)
        {
            continue;
        }
        match word_or_move(t) {
            Some(true) => words += 1,
            Some(false) => moves += 1,
            None => {}
        }
    }
    // `IL RISVEGLIO DEL GIOCATORE`: words and short capitals, and no digit
    // that any move has.
    let no_digit = !line.bytes().any(|b| b.is_ascii_digit());
    (words >= 3 && words >= moves) || (words >= 1 && moves == 0) || (words >= 2 && no_digit)
}

/// Where a line of moves has prose in it (`14. Q. to Q's 2nd. A good move;
/// preparing the way for Castling. 15. Kt. to B's 3rd.`): the byte ranges,
/// each from the first of three words in a row (with a one-letter word
/// before them, `A`, `I`, `y`) to the move number that goes on with the game
/// (one past the last before the prose: `4. f4 exf4. The proper play is 4.
/// ... d5. 5. Nf3` keeps `4. ... d5.` in the note) or the line's end.
pub(crate) fn prose_within(line: &str) -> Vec<std::ops::Range<usize>> {
    if line.contains(['{', '}']) {
        return Vec::new();
    }
    let tokens: Vec<(usize, &str)> = positioned(line).collect();
    let word = |(_, t): &(usize, &str)| word_or_move(t) == Some(true);
    // Prose starts outside any note in parentheses or brackets.
    let outside = |(at, t): &(usize, &str)| !t.starts_with(['(', '[']) && balanced(&line[..*at]);
    // The number of a move, alone or with its move (`19.`, `19.Кb4!`).
    let number = |t: &str| half_move_at_start(t).map(|p| p.div_ceil(2));
    // `floor`: where the tokens left after the last note start.
    let (mut ranges, mut i, mut floor) = (Vec::new(), 0, 0);
    // Three words, or two and a one-letter word (`è controversa (Leach).`)
    // or a word that may be a move's (`was required to maintain`).
    let words = |w: &[(usize, &str)]| {
        w.iter().all(|t| word(t) || one_letter(t.1) || word_or_move(t.1).is_none())
            && w.iter().filter(|t| word(t)).count() >= 2
    };
    // One or two words, then a move for a turn already played (`Better is
    // 4. ... Nf6`, `Of 22.Txc7`): a note that plays a line of its own.
    let retake = |i: usize, ranges: &[std::ops::Range<usize>]| {
        let k = (i..tokens.len().min(i + 3)).find(|&k| !(word(&tokens[k]) || one_letter(tokens[k].1)));
        k.filter(|&k| k > i).is_some_and(|k| {
            let at = tokens[k].0;
            half_move_at_start(&line[at..])
                .is_some_and(|p| balanced(&line[..at]) && p <= highest_half_move(&outside_notes(&line[..at], ranges)))
        })
    };
    while i + 3 <= tokens.len() {
        let found = words(&tokens[i..i + 3]) || (word(&tokens[i]) && retake(i, &ranges));
        if !(found && outside(&tokens[i])) {
            i += 1;
            continue;
        }
        // With the one-letter word before them (`A`, `I`, `y`, `и`), or the
        // dash that opens them (`Tb8 – Negrul cedează.`).
        let opens = |t: &str| one_letter(t) || matches!(t, "-" | "–" | "—");
        let start = if i > floor && opens(tokens[i - 1].1) { i - 1 } else { i };
        // `22.exd4 Of 22.Txc7 Pe2+ 23.Kh1 Txc7 en het paard ...`: moves for
        // a turn already played, right before the words, are the note's.
        let start = other_moves_from(&tokens[floor..start], line).map_or(start, |k| floor + k);
        // The game goes on at the half-move after the last it reached before
        // the note (`22…Txc5` after `22.exd4`), else at a greater number.
        let reached = highest_half_move(&outside_notes(&line[..tokens[start].0], &ranges));
        let outside_at = |at: usize| balanced(&line[..at]);
        // From the line, not the token: `10. ... Dxh4` spaces Black's dots apart.
        let resumes =
            |(at, _): &(usize, &str)| half_move_at_start(&line[*at..]) == Some(reached + 1) && outside_at(*at);
        let last = tokens[..start].iter().filter_map(|(_, t)| number(t)).next_back().unwrap_or(0);
        let goes_on = |(at, t): &(usize, &str)| number(t).is_some_and(|n| n > last) && outside_at(*at);
        let next = (reached > 0).then(|| resumption(&tokens[i..], line, reached, resumes)).flatten();
        let next = next.or_else(|| tokens[i..].iter().position(goes_on)).map(|k| i + k);
        let next = next.map(|k| k - usize::from(k > i + 1 && blacks_reply_before(&tokens[start..=k], line, reached)));
        let end = next.map_or(line.trim_end().len(), |k| tokens[k].0);
        // Not where it would cut a note in parentheses or brackets in two
        // (words within one are the reader's, read past as a note).
        if balanced(&line[tokens[start].0..end]) {
            ranges.push(tokens[start].0..end);
            i = next.unwrap_or(tokens.len());
            floor = i;
        } else {
            i += 1;
        }
    }
    two_words_at_end(&tokens, line, &mut ranges);
    quotations(&tokens, line, &mut ranges);
    named_after_a_dash(&tokens, line, &mut ranges);
    ranges
}

/// The half-move a move number at the start of `text` names (1 for `1.`, 16
/// for `8...` or `8…`), if it starts with one.
pub(crate) fn half_move_at_start(text: &str) -> Option<u32> {
    let t = text.trim_start();
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    let n: u32 = t[..digits].parse().ok().filter(|n| (1..1000).contains(n))?;
    let marks = &t[digits..];
    // `13.-, e5`: a dash in White's box, then Black's move.
    let mark = marks.split_whitespace().next().unwrap_or("");
    let dashed = matches!(mark.trim_end_matches([',', ';']), ".-" | ".–" | ".—");
    // `27...`, `27…`, `27. ...`, `27. …`, `27. ..`: Black's move.
    let after_dot = marks.strip_prefix('.').map_or("", str::trim_start);
    let black = marks.starts_with("...")
        || marks.starts_with('…')
        || (marks.starts_with(". ") && (after_dot.starts_with("..") || after_dot.starts_with('…')))
        || dashed;
    (black || marks.starts_with(['.', ')'])).then_some(2 * n - 1 + u32::from(black))
}

/// A token without the move number it starts with (`12.Nf3` → `Nf3`,
/// `12...` → ``, `10.0-0-0` → `0-0-0`): the move glued to it, if any.
pub(crate) fn after_number(token: &str) -> &str {
    // The number's digits, then its marks: castling glued to it keeps its
    // zeros (`10.0–0–0`).
    token.trim_start_matches(|c: char| c.is_ascii_digit()).trim_start_matches(['.', ')', '…'])
}

/// Whether a token names a square in algebraic (`e4`, `Fd3-ra`, `0-0` not).
pub(crate) fn names_a_square(token: &str) -> bool {
    token.as_bytes().windows(2).any(|w| matches!(w[0], b'a'..=b'h') && matches!(w[1], b'1'..=b'8'))
}

/// The highest half-move the moves of `text` stand at by its move numbers
/// (`12.Ca4 Fg4`: 24), those in notes in parentheses or brackets aside.
pub(crate) fn highest_half_move(text: &str) -> u32 {
    let a_move = |t: &str| {
        let t = t.trim_end_matches(['!', '?', '+', '#', ',', ';', '.']);
        (t.chars().any(|c| c.is_ascii_digit()) && t.chars().any(char::is_alphabetic)) || t.starts_with(['O', '0'])
    };
    let (mut depth, mut highest, mut next) = (0usize, 0, None::<u32>);
    // A capture typed with spaces (`Cb5 x Cd4`, `Dd1x Cg4`) is one move.
    let mut joined = false;
    for (at, t) in positioned(text) {
        let sign = matches!(t, "x" | "X" | ":" | "×");
        let joins = sign || (t.len() > 2 && t.ends_with(['x', ':', '×']));
        if std::mem::replace(&mut joined, joins) || sign {
            depth = open_after(depth, t);
            continue;
        }
        // From the text, not the token: `13. ... Axe5` spaces Black's dots apart.
        // A token that opens a note (`(15…D:b2`) is the note's.
        if depth == 0 && !t.starts_with(['(', '[', '{']) {
            if let Some(p) = half_move_at_start(&text[at..]) {
                let glued = after_number(t);
                next = Some(if a_move(glued) {
                    highest = highest.max(p);
                    p + 1
                } else {
                    p
                });
            } else if let Some(p) = next.filter(|_| a_move(t)) {
                highest = highest.max(p);
                next = Some(p + 1);
            } else if word_or_move(t) == Some(true) {
                // Words end the run of moves (`Ne5 defending f7`: no move).
                next = None;
            }
        }
        depth = open_after(depth, t);
    }
    highest
}

/// `13. Rh3 Kh8? Una mossa`: two words after the last move end the line, a
/// note that goes on below (three would have been found as one), added to
/// `ranges` past the last.
fn two_words_at_end(tokens: &[(usize, &str)], line: &str, ranges: &mut Vec<std::ops::Range<usize>>) {
    let after = ranges.last().map_or(0, |r| r.end);
    let word = |t: &str| word_or_move(t) == Some(true);
    if let [.., (_, last_move), (at, first), (_, second)] = tokens[..]
        && at >= after
        && word(first)
        && word(second)
        && word_or_move(last_move) == Some(false)
        // `22. ef+, ef.`: after a bare move number, the pawns' captures
        // written as their files.
        && !after_number(last_move).is_empty()
        && !first.starts_with(['(', '['])
        && balanced(&line[..at])
    {
        ranges.push(at..line.trim_end().len());
    }
}

/// `2. Кg1-f3 d7-d6 - Защита Филидора`: a dash, then only words to the
/// line's end, names what was played: a note added to `ranges` past the last.
fn named_after_a_dash(tokens: &[(usize, &str)], line: &str, ranges: &mut Vec<std::ops::Range<usize>>) {
    let after = ranges.last().map_or(0, |r| r.end);
    if let Some(k) = tokens.iter().rposition(|(at, t)| *at >= after && matches!(*t, "-" | "–" | "—"))
        && tokens.len() - k > 2
        && tokens[k + 1..].iter().all(|(_, t)| word_or_move(t) == Some(true))
    {
        ranges.push(tokens[k].0..line.trim_end().len());
    }
}

/// Adds to `ranges` (in order) each quotation with a word in it that no
/// note holds already (`18. Txf7!! “Bel colpo!”. 18. ... Rxf7.`): what
/// someone said, never a move.
fn quotations(tokens: &[(usize, &str)], line: &str, ranges: &mut Vec<std::ops::Range<usize>>) {
    const PAIRS: [(char, char); 5] = [('“', '”'), ('„', '“'), ('«', '»'), ('‹', '›'), ('"', '"')];
    let mut i = 0;
    while i < tokens.len() {
        let (at, t) = tokens[i];
        let Some(&(_, close)) = PAIRS.iter().find(|(open, _)| t.starts_with(*open)) else {
            i += 1;
            continue;
        };
        let closes = |k: usize| tokens[k].1.chars().skip(usize::from(k == i)).any(|c| c == close);
        let Some(k) = (i..tokens.len()).find(|&k| closes(k)) else { break };
        let end = tokens[k].0 + tokens[k].1.len();
        let spoken = tokens[i..=k].iter().any(|(_, t)| word_or_move(t) == Some(true));
        let free = ranges.iter().all(|r| r.end <= at || r.start >= end);
        if spoken && free && balanced(&line[..at]) && balanced(&line[at..end]) {
            let place = ranges.partition_point(|r| r.end <= at);
            ranges.insert(place, at..end);
        }
        i = k + 1;
    }
}

/// `text` with the notes found in it (`ranges`) blanked out: the moves of
/// the game alone.
fn outside_notes(text: &str, ranges: &[std::ops::Range<usize>]) -> String {
    let mut out = text.to_string();
    for r in ranges.iter().filter(|r| r.end <= text.len()) {
        out.replace_range(r.clone(), &" ".repeat(r.len()));
    }
    out
}

/// Which of `tokens` (from a note's words on) the game goes on at, by
/// `resumes` (a move number for the half-move after `reached`, outside
/// brackets): the first after a move or a sentence's end (else the first),
/// unless the note's moves run on from it and later
/// jump back to that number right after a move or a full stop (`11. ...
/// Axe5! 12. dxe5 g3 ... 25. Rxf3 h4-+. 12. Ah6+`): the note played a line
/// of its own, and the game goes on where the numbers go back.
fn resumption(
    tokens: &[(usize, &str)],
    line: &str,
    reached: u32,
    resumes: impl Fn(&(usize, &str)) -> bool,
) -> Option<usize> {
    // After a move or a sentence's end: `nebo 6. ... h6` (`or 6...h6`) is
    // another line of the note, `bílého. 6. ... exf3` the game.
    let after_stop = |k: usize| {
        k > 0 && (word_or_move(tokens[k - 1].1) == Some(false) || tokens[k - 1].1.ends_with(['.', '!', '?']))
    };
    // The game's last move with its result (`allowing… 22…Qf1+ 0–1. 22…Qf1+
    // 23.Kd2`): what follows is analysis.
    let result =
        |t: &str| matches!(t.trim_end_matches(['.', ',', ';']), "1-0" | "0-1" | "1–0" | "0–1" | "½-½" | "1/2-1/2");
    let ends = |k: usize| {
        let glued = usize::from(after_number(tokens[k].1).is_empty());
        tokens.get(k + 1 + glued).is_some_and(|t| result(t.1))
    };
    if let Some(last) = (0..tokens.len()).find(|&k| resumes(&tokens[k]) && ends(k)) {
        return Some(last);
    }
    let mut found = (0..tokens.len()).filter(|&k| resumes(&tokens[k]));
    let first = found.next()?;
    let first = if after_stop(first) { first } else { found.find(|&k| after_stop(k)).unwrap_or(first) };
    let word = |t: &(usize, &str)| word_or_move(t.1) == Some(true);
    let later = (first + 1..tokens.len())
        // The note's own moves only: no words of a note of its own between
        // (words in brackets within it are the note's: `(27. … Ka5 28. Dc3+
        // og svartur er mát í næsta leik)`).
        .take_while(|&k| {
            !balanced(&line[tokens[first].0..tokens[k].0]) || !tokens[k.saturating_sub(2)..=k].iter().all(word)
        })
        .find(|&k| {
            resumes(&tokens[k]) && after_stop(k) && highest_half_move(&line[tokens[first].0..tokens[k].0]) > reached
        });
    Some(later.unwrap_or(first))
}

/// Where, among `tokens` of a line before a note's words, moves begin that
/// go back to a turn already played on the line (`22.exd4 Of 22.Txc7`): the
/// move number's index, or that of the words right before it (`Of`, `Or`,
/// `Oder`, `Più contundente è`).
fn other_moves_from(tokens: &[(usize, &str)], line: &str) -> Option<usize> {
    let first = tokens.first()?.0;
    (1..tokens.len()).find_map(|k| {
        let at = tokens[k].0;
        let p = half_move_at_start(&line[at..])?;
        let before = highest_half_move(&line[first..at]);
        // With the words right before it (`Più contundente è 10. Cc3`).
        let words = tokens[..k].iter().rev().take_while(|(_, t)| word_or_move(t) == Some(true) || one_letter(t));
        (before > 0 && p <= before && balanced(&line[..at])).then(|| k - words.count())
    })
}

/// The parentheses, brackets and braces still open after `line`, `open` before it
/// (a closing one with none open, as in `1)`, counts for nothing).
pub(crate) fn open_after(open: usize, line: &str) -> usize {
    line.chars().fold(open, |n, c| match c {
        '(' | '[' | '{' => n + 1,
        ')' | ']' | '}' => n.saturating_sub(1),
        _ => n,
    })
}

/// Whether every parenthesis and bracket in `text` closes in it, and none
/// closes one opened before it.
fn balanced(text: &str) -> bool {
    let mut depth = 0usize;
    let mut after_digit = false;
    for c in text.chars() {
        match c {
            '(' | '[' => depth += 1,
            // The mark of a move number (`17) Dd4-f6`), with none open.
            ')' if after_digit && depth == 0 => {}
            ')' | ']' => match depth.checked_sub(1) {
                Some(d) => depth = d,
                None => return false,
            },
            _ => {}
        }
        after_digit = c.is_ascii_digit();
    }
    depth == 0
}

/// Whether the token before the last of `tokens` (a note, from its start,
/// and the move number that goes on with the game at White's move after
/// next) is Black's reply the note ends with (`... all'Alfiere. c6 10.
/// Bd3` after `9. Bb5+`): White's move was the last the game reached, the
/// token is a move, and the note numbers no move.
pub(crate) fn blacks_reply_before(tokens: &[(usize, &str)], line: &str, reached: u32) -> bool {
    let [note @ .., reply @ (_, before), (at, _)] = tokens else { return false };
    reached % 2 == 1
        && half_move_at_start(&line[*at..]) == Some(reached + 2)
        && word_or_move(before) == Some(false)
        // A note that plays moves of its own has its own replies (`Mieux :
        // 5.dxe5 dxe5 6.Cc3`).
        && note.iter().chain([reply]).all(|(at, _)| half_move_at_start(&line[*at..]).is_none())
}

/// The whitespace-parted tokens of `text`, each with its byte offset.
pub(crate) fn positioned(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split_whitespace().map(move |t| (t.as_ptr() as usize - text.as_ptr() as usize, t))
}

/// A word of one letter (`A`, `I`, `y`, `è`).
fn one_letter(t: &str) -> bool {
    t.chars().count() == 1 && t.chars().all(char::is_alphabetic)
}

/// Whether `line` starts with a word, not a move or a number.
pub(crate) fn starts_with_word(line: &str) -> bool {
    line.split_whitespace().next().is_some_and(|t| word_or_move(t) == Some(true))
}

/// What a token of a line counts as, its punctuation aside: a word
/// (`Some(true)`), a move or a number (`Some(false)`), or neither (nothing
/// but punctuation, or a word of moves: [`MOVE_WORDS`]).
fn word_or_move(token: &str) -> Option<bool> {
    let t = token.trim_matches(|c: char| !c.is_alphanumeric());
    if t.is_empty() || MOVE_WORDS.iter().any(|w| t.eq_ignore_ascii_case(w)) || is_date(token, t) {
        return None;
    }
    // A check or mate sign (`ef+,`): a move, never a word.
    if token.trim_end_matches(['.', ',', ';', ':', '!', '?']).ends_with(['+', '#']) {
        return Some(false);
    }
    // `Simp¨¢tica`: a word a page's wrong encoding put signs in.
    let garbled = |c: char| !c.is_alphanumeric() && !c.is_ascii() && !matches!(c, '–' | '—' | '×' | '…');
    if t.contains(garbled) {
        return Some(is_word(&t.replace(garbled, "")));
    }
    Some(is_word(t))
}

/// A year or a date (`1909,`, `12.03.1909`, `1909/03/12`), not a move
/// number (`19.`): `token` as written, `t` without its punctuation around.
fn is_date(token: &str, t: &str) -> bool {
    // `July 23, 1855`: a day of the month, a number and a comma.
    if token.ends_with(',') && t.len() <= 2 && t.bytes().all(|b| b.is_ascii_digit()) {
        return true;
    }
    let year =
        |y: &str| y.len() == 4 && (y.starts_with('1') || y.starts_with("20")) && y.bytes().all(|b| b.is_ascii_digit());
    let parts: Vec<&str> = t.split(['.', '/', '-']).collect();
    let numbers = parts.iter().all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
    (year(t) && !token.ends_with(['.', ')'])) || (parts.len() == 3 && numbers && parts.iter().any(|p| year(p)))
}

/// A run of two or more letters that names no move: a lowercase letter in
/// it (not `Kt`), or four capitals or more (`WHITE`).
fn is_word(t: &str) -> bool {
    // `Tennison-Gambit`, `Caro-Kann`: words joined by a hyphen.
    if t.contains('-') && !t.starts_with(['O', 'o', '0']) {
        let parts: Vec<&str> = t.split('-').collect();
        return parts.len() == 2 && parts.iter().all(|p| p.chars().count() >= 3 && is_word(p));
    }
    // `L'errore`, `all’Alfiere`: a word elided into the next (an English
    // possessive stays as it was: `Q's`, `B.'s` name squares).
    let elided = !t.ends_with("'s") && !t.ends_with("’s");
    let letters = t.chars().all(|c| c.is_alphabetic() || (elided && matches!(c, '\'' | '’'))) && t.chars().count() >= 2;
    let lower = t.chars().filter(|c| c.is_lowercase()).count();
    // A capture in descriptive notation (`PxP`, `KtxB`, `QxKt`) is a move.
    let (before, after) = t.split_once('x').unwrap_or(("", ""));
    let piece = |p: &str| !p.is_empty() && p.chars().count() <= 3 && p.starts_with(char::is_uppercase);
    if piece(before) && piece(after) && matches!(before.trim_start_matches(char::is_uppercase), "" | "t") {
        return false;
    }
    // Capitals (`QR`, `Кр`), not a script without case (`喬托`).
    let capitals = lower == 0 && t.chars().all(char::is_uppercase);
    let piece_like = t.chars().count() <= 3 && (capitals || matches!(t, "Kt" | "KKt" | "QKt" | "KtP"));
    letters && !piece_like
}

/// Words that say a player gave the game up.
/// Whether a token of movetext is a word of resignation (`Resigns.`,
/// `abandona`, `aufgegeben`): a player gave the game up.
pub(crate) fn is_resignation(token: &str) -> bool {
    let w = token.trim_matches(|c: char| !c.is_alphabetic()).to_lowercase();
    !w.is_empty() && is_resign_word(&w)
}

/// The side a token names (`Black`, `negras`, `Черные.`), its punctuation aside.
pub(crate) fn side_named(token: &str) -> Option<shakmaty::Color> {
    side_word(&token.trim_matches(|c: char| !c.is_alphabetic()).to_lowercase())
}

/// Who resigned, as a line of text says it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Resignation {
    /// The side the words name (`Black surrenders.`), where they name one.
    pub(crate) side: Option<shakmaty::Color>,
    /// The words before the word for giving up, lowercase: a player's name
    /// where no side is named (`y Jojua se rindió`).
    pub(crate) by: Vec<String>,
    /// The words after the word for giving up in its clause: a clause
    /// that goes on (`abandona la pareja de alfiles pero mantiene el
    /// material`) may be about something else given up.
    pub(crate) after: usize,
}

/// Who resigned, as a line of text says it: `Black surrenders.`, `White
/// resigns`, `Las negras abandonan`, `Weiß: aufgegeben`, `Белые сдались`,
/// `en zwart gaf op`, or a clause of a note (`Though material is even,
/// black resigns.`); no side where the words name none (`Resigns.`: the side
/// to move; `y Jojua se rindió`: the player named). A resignation only
/// talked about (`Black could have resigned here`) is none.
pub(crate) fn resignation(line: &str) -> Option<Resignation> {
    line.split(['.', ',', ';', '!', '?', '(', ')', '[', ']', '{', '}', '–', '—'])
        .find_map(resignation_clause)
        .or_else(|| resignation_apart(line, line.len()))
}

/// A resignation whose verb is written in two parts around the moves that
/// would have followed (`Schwarz gab wegen des Matts nach 23… Kxg8 24. Te8+
/// Tf8 25. Txf8# auf.`, `Zwart gaf na 25.Txf8 op.`): the side right before the
/// verb, the particle last in its sentence; the verb within the first
/// `within` bytes of `text` (a note's, the particle past it).
pub(crate) fn resignation_apart(text: &str, within: usize) -> Option<Resignation> {
    let tokens: Vec<(usize, &str)> = positioned(text).collect();
    let words: Vec<String> =
        tokens.iter().map(|(_, t)| t.trim_matches(|c: char| !c.is_alphabetic()).to_lowercase()).collect();
    let verbs = tokens.iter().take_while(|(at, _)| *at < within).count();
    let last_in_sentence = |j: usize| {
        tokens[j].1.ends_with(['.', '!'])
            || tokens.get(j + 1).is_none_or(|(_, n)| crate::sheet::GameResult::parse(n).is_some())
    };
    resign_words_apart().find_map(|(verb, particle)| {
        let k = (1..verbs).find(|&k| words[k] == verb)?;
        let side = side_word(&words[k - 1])?;
        (k + 1..tokens.len()).any(|j| words[j] == particle && last_in_sentence(j)).then_some(Resignation {
            side: Some(side),
            by: Vec::new(),
            after: 0,
        })
    })
}

/// Whether a line says the game was drawn: a clause with the word for a
/// draw (or two, `partie nulle`), at most two words before it and none that
/// makes it only talked about: `og jafntefli samið`, `Draw agreed.`, `y
/// tablas`; `27... Dg5 leads to a draw` is analysis.
pub(crate) fn draw_agreed(line: &str) -> bool {
    line.split(['.', ',', ';', '!', '?', '(', ')', '[', ']', '{', '}', '–', '—']).any(|clause| {
        let words: Vec<String> =
            clause.split(|c: char| !c.is_alphabetic()).filter(|w| !w.is_empty()).map(str::to_lowercase).collect();
        let draw = |k: usize| {
            draw_words()
                .any(|d| d == words[k] || words.get(k + 1).is_some_and(|next| d == format!("{} {next}", words[k])))
        };
        (0..words.len().min(3)).any(draw) && !words.iter().any(|w| is_hedge(w))
    })
}

/// A clause that says a player resigned: the word (or up to three, `gaf het op`) for
/// giving up with the words for a side right before it (a colon between them
/// at most), or with at most three words before it and none that makes it
/// only talked about (`could`, `hätte`, `не`).
fn resignation_clause(clause: &str) -> Option<Resignation> {
    let words: Vec<String> =
        clause.split(|c: char| !c.is_alphabetic()).filter(|w| !w.is_empty()).map(str::to_lowercase).collect();
    let (at, end) = (0..words.len()).find_map(|k| {
        (k + 1..=(k + 3).min(words.len())).find(|&end| is_resign_word(&words[k..end].join(" "))).map(|end| (k, end))
    })?;
    let (by, after) = (words[..at].to_vec(), words.len() - end);
    if let Some(side) = at.checked_sub(1).and_then(|k| side_word(&words[k])) {
        return Some(Resignation { side: Some(side), by, after });
    }
    (at <= 3 && !words[..at].iter().any(|w| is_hedge(w))).then_some(Resignation { side: None, by, after })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_in_words_become_entries_in_their_columns() {
        let printed = "1.  P. to K’s 4th.                1.  P. to K’s 4th.\n\
                       2.  K. B. to Q. B’s 4th.          2.  K. Kt. to B’s 3d.\n\
                       10.  Kt. takes Kt.                10.  B. takes Kt.\n\
                       16.  Q. to K. B’s 3d.[C]          16.  Q. B. to his 5th.\n\
                       17.  Q. to her Kt.'s 3rd.  R. to K. sq.  Castles (Q. R.)  Castles KR";
        let closed = close_printed(printed);
        let tokens: Vec<&str> = closed.split_whitespace().collect();
        assert_eq!(
            tokens,
            [
                "1.",
                "P-K4",
                "1.",
                "P-K4",
                "2.",
                "KB-QB4",
                "2.",
                "KKt-B3",
                "10.",
                "KtxKt",
                "10.",
                "BxKt",
                "16.",
                "Q-KB3",
                "16.",
                "QB-QB5",
                "17.",
                "Q-QKt3",
                "R-Ksq",
                "CastlesQR",
                "CastlesKR"
            ]
        );
        for (a, b) in printed.lines().zip(closed.lines()) {
            assert_eq!(a.chars().count(), b.chars().count(), "{b}");
        }
    }

    #[test]
    fn castling_printed_with_spaces_is_one_entry() {
        assert_eq!(close_printed("7. Q Kt - Q 2 O - O 8. O - O - O"), "7. Q Kt - Q 2 O-O   8. O-O-O    ");
    }

    #[test]
    fn prose_is_told_from_moves() {
        for prose in [
            "A lost move.  The logical continuation is Kt-B1-Kt3 and Castles.",
            "The threat KtxKt and BxB must be met in some way.",
            "(His best move.)",
            "WHITE. (Mr. S.)                  BLACK. (Mr. R.)",
            "| WHITE. | BLACK. |",
        ] {
            assert!(is_prose(prose), "{prose}");
        }
        for moves in [
            "1.  P-K4 P-K4 2.  Kt-KB3 Kt-QB3 3.  B-B4 B-B4",
            "12. ...  Castles KR 13.  Castles Kt-Kt5",
            "1.d4 Cf6, 2.c4 e6, 3.Cc3 Ab4",
            "1. P4R, P4R; 2. C3AR, C3AD",
            "16.  Q. to K. B’s 3d.          16.  Q. B. to his 5th.",
            "23. B-K7 mate",
            "1 e4 e5",
            "{Partida amistosa} 1.e4 {la mejor jugada} e5 2.Cf3 {desarrolla} Cc6",
        ] {
            assert!(!is_prose(moves), "{moves}");
        }
    }

    #[test]
    fn resignations_in_words() {
        use shakmaty::Color;
        let side = |line: &str| resignation(line).map(|r| r.side);
        assert_eq!(side("Black surrenders."), Some(Some(Color::Black)));
        assert_eq!(side("White resigns"), Some(Some(Color::White)));
        assert_eq!(side("Las negras abandonan."), Some(Some(Color::Black)));
        assert_eq!(side("Белые сдались"), Some(Some(Color::White)));
        assert_eq!(side("Resigns."), Some(None));
        assert_eq!(side("Black could have resigned here, but played on for twenty more moves."), None);
        assert_eq!(side("1. e4 e5"), None);
        let note = "Though material is even, black resigns. He notices that I can play Qd5+ on my next move.";
        assert_eq!(side(note), Some(Some(Color::Black)));
        assert_eq!(side("(winning the White queen, so White resigns immediately)"), Some(Some(Color::White)));
        assert_eq!(side("He decided to resign rather than play on."), None);
        assert_eq!(side("42 Th6+, y Capablanca se rindió en vista de 42 ..Ra5"), Some(None));
        assert_eq!(side("Black would have resigned after 12. Qh5"), None);
        assert_eq!(side("Weiß: aufgegeben"), Some(Some(Color::White)));
        assert_eq!(side("22.Tad1 en zwart gaf op."), Some(Some(Color::Black)));
        assert_eq!(side("Svart gav upp."), Some(Some(Color::Black)));
        let named = resignation("23 Dc7!, y Jojua se rindió.").expect("a resignation");
        assert_eq!((named.side, named.by), (None, vec!["y".to_string(), "jojua".into()]));
    }

    #[test]
    fn a_move_that_opens_a_note_is_the_notes() {
        let text = "15. a3 Da4. (15…D:b2 duce, după 16.Tb1 şi 17. Nb5, la pierderea unei figuri). ";
        assert_eq!(highest_half_move(text), 30);
        let line = format!("{text}16. h3 Cf6 17. Tc1 Db4. Mai departe câştigul e o chestiune de tehnică! 18. Dc2 Rg8");
        let notes: Vec<&str> = prose_within(&line).into_iter().map(|r| &line[r]).collect();
        assert_eq!(notes, ["Mai departe câştigul e o chestiune de tehnică! "]);
    }

    #[test]
    fn prose_among_moves_on_a_line_is_found() {
        let line = "14. Q. to Q's 2nd. A good move; preparing the way for Castling. 15. Kt. to B's 3rd.";
        let prose = prose_within(line).into_iter().map(|r| &line[r]).next();
        assert_eq!(prose, Some("A good move; preparing the way for Castling. "));
        assert!(prose_within("12. ...  Castles KR 13.  Castles Kt-Kt5").is_empty());
        assert!(prose_within("1. e4 e5 2. Nf3 Nc6").is_empty());
        let line = "4. f4 exf4. The proper play is 4. ... d5. (See p. 208). 5. Nf3 Nc6. Staunton here makes Black play 5. ... Qe7. 6. c3";
        let notes: Vec<&str> = prose_within(line).into_iter().map(|r| &line[r]).collect();
        assert_eq!(
            notes,
            ["The proper play is 4. ... d5. (See p. 208). ", "Staunton here makes Black play 5. ... Qe7. "]
        );
        assert!(is_prose("Nueva York, 1909") && is_prose("Hastings 12.08.1895") && is_prose("Paris, July 23, 1855"));
        assert!(!is_prose("1. 5254 7275 2. 1828 5755"), "ICCF numbers");
    }

    #[test]
    fn a_move_closed_up_leaves_the_next_move_its_piece() {
        // Spaced: `B x Kt` then `P - Q 4`, not `B x Kt P` (the knight's pawn).
        let text = "1. P - K 4 P - K 4 2. Kt - K B 3 Kt - Q B 3 3. B - Kt 5 P - Q R 3 4. B x Kt P - Q 4 5. B x Kt P";
        let closed = close_printed(text);
        let tokens: Vec<&str> = closed.split_whitespace().collect();
        assert_eq!(tokens[9..], ["4.", "BxKt", "P-Q4", "5.", "BxKtP"]);
        // In words: `P. takes P.` then `Kt. to B's 3rd.`.
        let closed = close_printed("7. P. takes P. Kt. to K. B.'s 3rd.");
        assert_eq!(closed.split_whitespace().collect::<Vec<_>>(), ["7.", "PxP", "Kt-KB3"]);
        // Compact moves are not spaced ones: nothing glued across a space.
        let compact = "1. P-K4 P-K4 2. N-KB3 N-QB3 3. RxQ Kt-QB6 4. K-R1 R-B2 5. DC2 TD-R1 6. PTD4 TR-D1";
        assert_eq!(close_printed(compact), compact);
    }

    #[test]
    fn a_piece_told_apart_in_spaced_and_worded_moves() {
        let text = "1. P - K 4 P - K 4 2. Kt - K B 3 Kt - Q B 3 3. Kt (3) - Q 2 R (1) - K 1 4. Q x Kt (K 4) B - K 2";
        let closed = close_printed(text);
        let tokens: Vec<&str> = closed.split_whitespace().collect();
        assert_eq!(tokens[7..], ["Kt(3)-Q2", "R(1)-K1", "4.", "QxKt(K4)", "B-K2"]);
        let closed = close_printed("16. Kt.(3) to B.'s 5th. R.(R1) to B.'s sq.");
        assert_eq!(closed.split_whitespace().collect::<Vec<_>>(), ["16.", "Kt(3)-B5", "R(R1)-Bsq"]);
    }
}
