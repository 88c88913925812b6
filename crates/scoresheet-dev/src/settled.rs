//! Pairs of copies an arbiter settles at a glance: both players' copies of
//! a corpus game, typed as they wrote them, where one copy's fault is
//! answered by the other copy, by legality or by a later move. Each pair
//! belongs to one [`Class`]; beside its fault, each copy may have a box
//! left illegible or a slip that names no legal move, at moves the other
//! copy writes exactly (so the two copies still determine the game).
//!
//! [`count`] reads a pair as `convert` reads two files and tallies it:
//! validated wrong, in review, and, of the pairs whose copies determine the
//! game, those validated with it.

use scoresheet::convert::{Input, Options, convert_together};
use scoresheet::emit::report::Status;
use scoresheet::notation::Language;
use shakmaty::san::{San, SanPlus};
use shakmaty::{Chess, Move, Position, Role, Square};

use crate::corpus::CorpusGame;
use crate::descriptive::Writer;
use crate::generate::{Rng, derive_seed, localize};

/// What one copy does that the other copy, legality or a later move answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {
    /// A slip that names no legal move, on a move the other copy writes
    /// exactly; no other legal move is one letter from the slip.
    SlipOnExact,
    /// The same, where another legal move is one letter from the slip: the
    /// copy alone would take that one.
    ImpossibleBesideLegal,
    /// Both copies leave a piece move's file out (`B5`); a later move, as
    /// written, allows only one of the moves that fit it.
    LaterMoveDecides,
    /// One copy writes two of its moves again, so its numbers run ahead.
    RepeatedMoves,
    /// One copy starts a few moves late, its first line numbered as played.
    StartsLate,
    /// One copy writes two moves of one side in each other's place.
    SwappedMoves,
    /// One copy stops a move short; the other writes the last move in
    /// another notation (descriptive, `:` for a capture, the long form).
    LastMoveOtherNotation,
    /// One copy leaves a box blank and stops early; the other writes every
    /// move exactly to the end.
    OneCopyGoesOn,
    /// One copy copied from the other, faults and all: the copies determine
    /// no more than one does.
    CopiedCopy,
}

impl Class {
    pub const ALL: [Class; 9] = [
        Class::SlipOnExact,
        Class::ImpossibleBesideLegal,
        Class::LaterMoveDecides,
        Class::RepeatedMoves,
        Class::StartsLate,
        Class::SwappedMoves,
        Class::LastMoveOtherNotation,
        Class::OneCopyGoesOn,
        Class::CopiedCopy,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Class::SlipOnExact => "slip-on-exact",
            Class::ImpossibleBesideLegal => "impossible-beside-legal",
            Class::LaterMoveDecides => "later-move-decides",
            Class::RepeatedMoves => "repeated-moves",
            Class::StartsLate => "starts-late",
            Class::SwappedMoves => "swapped-moves",
            Class::LastMoveOtherNotation => "last-move-other-notation",
            Class::OneCopyGoesOn => "one-copy-goes-on",
            Class::CopiedCopy => "copied-copy",
        }
    }
}

/// One copy as typed: its file name and text.
#[derive(Debug, Clone)]
pub struct Copy {
    pub file_name: String,
    pub text: String,
}

/// Two copies of one game and what an arbiter reads from them.
#[derive(Debug, Clone)]
pub struct SettledPair {
    pub class: Class,
    pub copies: [Copy; 2],
    /// The game (English SAN with check marks).
    pub truth: Vec<String>,
    /// Whether the copies, legality and the later moves determine every
    /// move of the game.
    pub determined: bool,
}

/// The copies' entries before they are typed: each copy's boxes in order
/// and the number of its first line.
struct Boxes {
    entries: [Vec<String>; 2],
    first: [usize; 2],
    determined: bool,
}

/// Game `g` as a pair of class `class`, drawn from `seed`; `None` where the
/// game offers no place for the class (too short, no such move).
pub fn settled_pair(g: &CorpusGame, class: Class, seed: u64) -> Option<SettledPair> {
    let mut rng = Rng::new(derive_seed(seed, 7));
    let n = g.sans.len();
    if n < 12 {
        return None;
    }
    let code = *rng.pick(&["en", "es", "de", "fr", "nl", "it", "pt", "pl"]);
    let language = Language::find(code)?;
    let zeros = rng.chance(0.5);
    let clean: Vec<String> = g.sans.iter().map(|s| localize(s, language, zeros)).collect();
    let moves = moves_of(&g.sans)?;
    let mut boxes = Boxes { entries: [clean.clone(), clean.clone()], first: [1, 1], determined: true };
    // The copy the class's fault is in.
    let c = rng.below(2);
    let mut busy: Vec<usize> = Vec::new();
    match class {
        Class::SlipOnExact | Class::ImpossibleBesideLegal => {
            let want_near = class == Class::ImpossibleBesideLegal;
            let (ply, slip) = (0..40).find_map(|_| {
                let ply = 2 + rng.below(n - 3);
                let slip = impossible_slip(&moves, ply, &g.sans[ply], want_near, &mut rng)?;
                Some((ply, slip))
            })?;
            boxes.entries[c][ply] = localize(&slip, language, zeros);
            busy.push(ply);
        }
        Class::LaterMoveDecides => {
            let (ply, left_out) = (0..60).find_map(|_| {
                let ply = 2 + rng.below(n - 6);
                Some((ply, file_left_out(&moves, &g.sans, ply)?))
            })?;
            let partial = localize(&left_out.written, language, zeros);
            boxes.entries = [0, 1].map(|k| {
                let mut e = boxes.entries[k].clone();
                e[ply] = partial.clone();
                e
            });
            boxes.determined = left_out.one;
            // The later moves that decide are written by both copies: no
            // other fault there, or one copy alone would decide.
            busy.push(ply);
            busy.extend(left_out.deciding);
        }
        Class::RepeatedMoves => {
            let ply = 2 * (2 + rng.below((n - 8) / 2));
            // Moves the players did repeat, written twice, read as played:
            // no sheet tells them from a repetition on the board.
            if repeats_legally(&moves, &g.sans, ply) {
                return None;
            }
            let again: Vec<String> = clean[ply..ply + 4].to_vec();
            boxes.entries[c].splice(ply + 4..ply + 4, again);
            busy.extend(ply..ply + 8);
        }
        Class::StartsLate => {
            let skipped = 2 * (1 + rng.below(3));
            boxes.entries[c].drain(..skipped);
            boxes.first[c] = skipped / 2 + 1;
            busy.extend(0..skipped);
        }
        Class::SwappedMoves => {
            let ply = (0..40).map(|_| 2 + rng.below(n - 5)).find(|&p| moves[p] != moves[p + 2])?;
            boxes.entries[c].swap(ply, ply + 2);
            // Where the swapped order is itself a legal line to the same
            // position, either order may have been played.
            boxes.determined = !swap_is_legal(&moves, ply);
            busy.extend(ply..ply + 3);
        }
        Class::LastMoveOtherNotation => {
            let last = other_notation(&g.sans, &moves, code, &mut rng)?;
            boxes.entries[c][n - 1] = last;
            boxes.entries[1 - c].truncate(n - 1);
            busy.push(n - 1);
        }
        Class::OneCopyGoesOn => {
            let stop = n - 2 - rng.below(n.min(24) / 3);
            let blank = 2 + rng.below(stop - 3);
            boxes.entries[1 - c].truncate(stop);
            boxes.entries[1 - c][blank] = rng.pick(&["?", "??", "---"]).to_string();
            // The moves past the short copy's end are the long copy's alone:
            // no other fault there, where nothing would answer it.
            busy.push(blank);
            busy.extend(stop - 1..n);
        }
        Class::CopiedCopy => {
            for _ in 0..1 + rng.below(2) {
                let ply = 2 + rng.below(n - 3);
                if let Some(slip) = impossible_slip(&moves, ply, &g.sans[ply], false, &mut rng) {
                    boxes.entries[0][ply] = localize(&slip, language, zeros);
                }
            }
            boxes.entries[1] = boxes.entries[0].clone();
            // One copy's slips are both copies': only what legality settles
            // is settled, which is not counted here.
            boxes.determined = false;
        }
    }
    if class != Class::CopiedCopy {
        background_faults(&mut boxes, &moves, &g.sans, (language, zeros), &busy, &mut rng);
    }
    let result = if g.result_contradicts_board() { None } else { Some(g.result.as_str()) };
    let names = [tag(g, "White").unwrap_or("White player"), tag(g, "Black").unwrap_or("Black player")];
    let round = 1 + rng.below(9);
    let copies = [0, 1].map(|k| Copy {
        file_name: format!("{}-{seed:016x}-{}.txt", class.name(), ["a", "b"][k]),
        text: typed(&boxes.entries[k], boxes.first[k], (names, round, result), code, rng.below(2)),
    });
    Some(SettledPair { class, copies, truth: g.sans.clone(), determined: boxes.determined })
}

/// The game's moves, where every SAN is legal in turn.
fn moves_of(sans: &[String]) -> Option<Vec<Move>> {
    let mut pos = Chess::default();
    let mut out = Vec::with_capacity(sans.len());
    for s in sans {
        let m = s.parse::<SanPlus>().ok()?.san.to_move(&pos).ok()?;
        pos.play_unchecked(m);
        out.push(m);
    }
    Some(out)
}

/// The position before ply `ply`.
fn position_at(moves: &[Move], ply: usize) -> Chess {
    let mut pos = Chess::default();
    moves[..ply].iter().for_each(|&m| pos.play_unchecked(m));
    pos
}

/// Whether `text` (English SAN) names a legal move in `pos`.
fn legal(pos: &Chess, text: &str) -> Option<Move> {
    text.parse::<SanPlus>().ok()?.san.to_move(pos).ok()
}

/// A slip of the move at `ply` (English SAN `san`): its destination's file
/// or rank changed so that it names no legal move; with `near`, only one
/// where another legal move's SAN is one letter from it, else only one where
/// none is.
fn impossible_slip(moves: &[Move], ply: usize, san: &str, near: bool, rng: &mut Rng) -> Option<String> {
    if san.starts_with('O') {
        return None;
    }
    let pos = position_at(moves, ply);
    let bare = san.trim_end_matches(['+', '#']);
    let suffix = &san[bare.len()..];
    let square_at = bare.char_indices().rev().find(|(_, ch)| ch.is_ascii_digit())?.0.checked_sub(1)?;
    let chars: Vec<char> = bare.chars().collect();
    for _ in 0..12 {
        let mut c = chars.clone();
        if rng.chance(0.5) {
            c[square_at] = (b'a' + rng.below(8) as u8) as char;
        } else {
            c[square_at + 1] = (b'1' + rng.below(8) as u8) as char;
        }
        let slip: String = c.iter().collect::<String>() + suffix;
        if slip == san || names_a_move(&pos, &slip, square_at) {
            continue;
        }
        let others = pos.legal_moves().into_iter().filter(|&m| m != moves[ply]).any(|m| {
            let s = San::from_move(&pos, m).to_string();
            one_letter_apart(&s, slip.trim_end_matches(['+', '#']))
        });
        if others == near {
            return Some(slip);
        }
    }
    None
}

/// Whether `slip` (English SAN, its destination's file at `square_at`)
/// names a legal move as written or with its capture sign put in or left
/// out (`Nd5` for a knight that takes on d5 is that capture, not a slip).
fn names_a_move(pos: &Chess, slip: &str, square_at: usize) -> bool {
    let mut with_x = slip.to_string();
    with_x.insert(square_at, 'x');
    let without_x = slip.replacen('x', "", 1);
    [slip, with_x.as_str(), without_x.as_str()].iter().any(|s| legal(pos, s).is_some())
}

/// Whether two strings of the same length differ in one character.
fn one_letter_apart(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.chars().zip(b.chars()).filter(|(x, y)| x != y).count() == 1
}

/// A piece move at `ply` written without its destination's file (`B5`),
/// where two moves or more fit that; and whether the later moves, replayed
/// as written, allow only the one played.
fn file_left_out(moves: &[Move], sans: &[String], ply: usize) -> Option<LeftOut> {
    let m = moves[ply];
    let role = m.role();
    if role == Role::Pawn || m.is_capture() || m.is_castle() || m.is_promotion() {
        return None;
    }
    let pos = position_at(moves, ply);
    let to = m.to();
    let fitting: Vec<Move> = pos
        .legal_moves()
        .into_iter()
        .filter(|x| x.role() == role && x.to().rank() == to.rank() && !x.is_capture())
        .collect();
    if fitting.len() < 2 {
        return None;
    }
    // The first later move, as written, that no longer fits after `first`.
    let stops = |first: Move| {
        let mut p = pos.clone();
        p.play_unchecked(first);
        sans[ply + 1..].iter().position(|s| match legal(&p, s) {
            Some(x) => {
                p.play_unchecked(x);
                false
            }
            None => true,
        })
    };
    let stops: Vec<Option<usize>> = fitting.iter().map(|&x| stops(x)).collect();
    let one = stops.iter().filter(|s| s.is_none()).count() == 1;
    let deciding = stops.into_iter().flatten().map(|k| ply + 1 + k).collect();
    let letter = role.upper_char();
    let rank = char::from(b'1' + u32::from(to.rank()) as u8);
    Some(LeftOut { written: format!("{letter}{rank}"), one, deciding })
}

/// A piece move written without its destination's file: what is written,
/// whether the later moves allow only the move played, and the later moves
/// that rule out each other move that fits.
struct LeftOut {
    written: String,
    one: bool,
    deciding: Vec<usize>,
}

/// Whether the game's moves as written (`sans`) with the four from `ply`
/// written again right after them are a legal line to the end.
fn repeats_legally(moves: &[Move], sans: &[String], ply: usize) -> bool {
    let mut pos = position_at(moves, ply + 4);
    sans[ply..ply + 4].iter().chain(&sans[ply + 4..]).all(|s| match legal(&pos, s) {
        Some(m) => {
            pos.play_unchecked(m);
            true
        }
        None => false,
    })
}

/// Whether the moves at `ply` and `ply + 2` played the other way round are
/// a legal line to the same position.
fn swap_is_legal(moves: &[Move], ply: usize) -> bool {
    let mut pos = position_at(moves, ply);
    let mut target = pos.clone();
    for &m in &moves[ply..ply + 3] {
        target.play_unchecked(m);
    }
    for m in [moves[ply + 2], moves[ply + 1], moves[ply]] {
        let Some(same) = pos.legal_moves().into_iter().find(|x| x.from() == m.from() && x.to() == m.to()) else {
            return false;
        };
        pos.play_unchecked(same);
    }
    // The same pieces on the same squares: an en passant right one order
    // gives and the other not is no sign of which was played.
    pos.board() == target.board() && pos.turn() == target.turn()
}

/// The game's last move written in another notation: descriptive (where
/// the sheet's language has a writer), or a capture with `:`, or the long
/// form (`Qd8-d1#`).
fn other_notation(sans: &[String], moves: &[Move], code: &str, rng: &mut Rng) -> Option<String> {
    let n = sans.len();
    let last = moves[n - 1];
    let descriptive = match code {
        "en" => Some("en-compact"),
        "es" => Some("es-rank-first"),
        "fr" => Some("fr-rank-first"),
        _ => None,
    };
    let language = Language::find(code)?;
    let letter = |role: Role| if role == Role::Pawn { String::new() } else { language.letter(role).to_string() };
    let suffix = &sans[n - 1][sans[n - 1].trim_end_matches(['+', '#']).len()..];
    let square = |sq: Square| sq.to_string();
    match rng.below(3) {
        0 if descriptive.is_some() => {
            let writer = Writer::preset(descriptive?)?;
            writer.entries(sans).ok()?.pop()
        }
        1 if last.is_capture() && !last.is_en_passant() && last.role() != Role::Pawn => {
            Some(format!("{}:{}{suffix}", letter(last.role()), square(last.to())))
        }
        _ if !last.is_castle() && last.promotion().is_none() => {
            let sep = if last.is_capture() { "x" } else { "-" };
            let from = last.from()?;
            Some(format!("{}{}{sep}{}{suffix}", letter(last.role()), square(from), square(last.to())))
        }
        _ => None,
    }
}

/// Beside the class's fault, each copy's own: now and then a box left
/// illegible, or a slip that names no legal move, at a move the other copy
/// writes exactly (none in `busy`, the class's moves).
fn background_faults(
    boxes: &mut Boxes,
    moves: &[Move],
    sans: &[String],
    (language, zeros): (&Language, bool),
    busy: &[usize],
    rng: &mut Rng,
) {
    let n = sans.len();
    let mut taken: Vec<usize> = busy.to_vec();
    for c in 0..2 {
        for _ in 0..rng.below(3) {
            let ply = 1 + rng.below(n - 2);
            if taken.iter().any(|&t| t.abs_diff(ply) <= 1) || boxes.entries[c].len() != n || boxes.first[c] != 1 {
                continue;
            }
            let fault = if rng.chance(0.4) {
                Some(rng.pick(&["?", "X", "--"]).to_string())
            } else {
                impossible_slip(moves, ply, &sans[ply], false, rng).map(|s| localize(&s, language, zeros))
            };
            if let Some(f) = fault {
                boxes.entries[c][ply] = f;
                taken.push(ply);
            }
        }
    }
}

/// A tag of the corpus game, when it says something.
fn tag<'g>(g: &'g CorpusGame, k: &str) -> Option<&'g str> {
    g.tags.iter().find(|(n, v)| n == k && !v.trim().is_empty() && v.trim() != "?").map(|(_, v)| v.trim())
}

/// A copy typed as a text file: its headers, then its entries in numbered
/// pairs from move `first` (one pair a line, or eight a line).
fn typed(
    entries: &[String],
    first: usize,
    (names, round, result): ([&str; 2], usize, Option<&str>),
    code: &str,
    layout: usize,
) -> String {
    let mut t = format!("White: {}\nBlack: {}\nRound: {round}\nLanguage: {code}\n\n", names[0], names[1]);
    for (i, pair) in entries.chunks(2).enumerate() {
        let sep = if layout == 0 || (i + 1) % 8 == 0 { "\n" } else { " " };
        t.push_str(&format!("{}. {}{sep}", first + i, pair.join(" ")));
    }
    if !t.ends_with('\n') {
        t.push('\n');
    }
    if let Some(r) = result {
        t.push_str(r);
        t.push('\n');
    }
    t
}

/// The figures of pairs of each class read together.
#[derive(Debug, Clone, Default)]
pub struct SettledTally {
    pub pairs: usize,
    pub exact: usize,
    pub validated_wrong: usize,
    pub review: usize,
    /// Pairs whose copies determine the game, and of them those validated
    /// with the game.
    pub determined: usize,
    pub determined_validated: usize,
}

impl SettledTally {
    pub fn add(&mut self, other: &SettledTally) {
        self.pairs += other.pairs;
        self.exact += other.exact;
        self.validated_wrong += other.validated_wrong;
        self.review += other.review;
        self.determined += other.determined;
        self.determined_validated += other.determined_validated;
    }
}

/// Reads `pair` as `convert` reads its two files together and counts it in
/// `t`; what went wrong, if anything.
pub fn count(pair: &SettledPair, opts: &Options, t: &mut SettledTally) -> Option<String> {
    let inputs: Vec<Input> =
        pair.copies.iter().map(|c| (c.file_name.clone(), Ok(c.text.as_bytes().to_vec()))).collect();
    let (reports, _) = convert_together(&inputs, opts);
    let mut one = SettledTally { pairs: 1, determined: usize::from(pair.determined), ..Default::default() };
    let miss = match reports.first().and_then(|r| r.games.first()) {
        None => Some("no game".to_string()),
        Some(game) => {
            let exact = game.moves == pair.truth;
            let validated = game.status == Status::Validated;
            one.exact = usize::from(exact);
            one.validated_wrong = usize::from(validated && !exact);
            one.review = usize::from(game.status == Status::Review);
            one.determined_validated = usize::from(pair.determined && validated && exact);
            let k = game
                .moves
                .iter()
                .zip(&pair.truth)
                .position(|(a, b)| a != b)
                .unwrap_or(game.moves.len().min(pair.truth.len()));
            let at = |v: &[String]| v.get(k).cloned().unwrap_or_else(|| "-".into());
            let codes: Vec<&str> = game
                .findings
                .iter()
                .filter(|f| f.severity >= scoresheet::finding::Severity::Warning)
                .map(|f| f.code)
                .collect();
            match (game.copy.is_some(), exact, validated) {
                (false, ..) => Some("not paired".into()),
                (true, false, true) => Some(format!(
                    "validated wrong, ply {}: read {}, played {}",
                    k + 1,
                    at(&game.moves),
                    at(&pair.truth)
                )),
                (true, true, false) if pair.determined => Some(format!("determined, in review: {}", codes.join(" "))),
                (true, false, false) if pair.determined => Some(format!(
                    "determined, in review and not exact at ply {}: read {}, played {}; {}",
                    k + 1,
                    at(&game.moves),
                    at(&pair.truth),
                    codes.join(" ")
                )),
                _ => None,
            }
        }
    };
    t.add(&one);
    miss
}
