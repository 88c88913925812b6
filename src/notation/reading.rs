//! Readings of one entry: which moves the written text can stand for, each with
//! a cost. Cost 0 is the text read exactly as FIDE Appendix C writes moves; a
//! higher cost is a looser reading (a lowercase piece letter, a pawn letter, a
//! promotion without its piece). Resolving against a position picks the legal
//! moves of the cheapest readings that match any.

use shakmaty::{CastlingSide, Chess, Color, File, Move, MoveList, Position, Rank, Role, Square};

use super::language::Language;
use super::targets::{Few, Targets};
use crate::cost::{LOWERCASE_PIECE, PAWN_LETTER, PROMOTION_ASSUMED};

pub(crate) use super::meaning::Reading;
pub use super::meaning::Target;

/// The piece a figurine stands for (`♘` is a knight, whatever the language).
pub(crate) fn figurine(c: char) -> Option<Role> {
    FIGURINES.iter().find(|(f, _)| *f == c).map(|&(_, r)| r)
}

const FIGURINES: &[(char, Role)] = &[
    ('♔', Role::King),
    ('♚', Role::King),
    ('♕', Role::Queen),
    ('♛', Role::Queen),
    ('♖', Role::Rook),
    ('♜', Role::Rook),
    ('♗', Role::Bishop),
    ('♝', Role::Bishop),
    ('♘', Role::Knight),
    ('♞', Role::Knight),
    ('♙', Role::Pawn),
    ('♟', Role::Pawn),
];

/// Every reading of a lexed entry (see [`super::lex::lex`]) under a language.
///
/// ```
/// use scoresheet::dev::{Target, readings};
/// use scoresheet::notation::Language;
/// use shakmaty::{Role, Square};
/// let es = Language::find("es").unwrap();
/// let r = readings("Cxf3", es);
/// assert!(matches!(r[0].target, Target::Move { role: Role::Knight, to: Square::F3, capture: Some(true), .. }));
/// ```
pub fn readings(core: &str, lang: &Language) -> Vec<Reading> {
    // Room for the usual one or two readings, allocated at once.
    let mut out = Vec::with_capacity(2);
    readings_into(core, lang, &mut out);
    out
}

/// The readings of a lexed entry under `lang` into `out`: as algebraic
/// notation, or, for an entry of a record in descriptive notation that the
/// language's descriptive system reads, as that (for either side); an
/// entry that is clearly descriptive and reads as nothing algebraic, as
/// descriptive too.
pub(crate) fn readings_of(l: &super::lex::Lexed<'_>, lang: &Language, out: &mut Vec<Reading>) {
    out.clear();
    if l.numeric
        && let Some(r) = super::descriptive::numeric(&l.core)
    {
        out.push(r);
        return;
    }
    let system = super::descriptive::system_of(lang.code);
    if l.descriptive
        && let Some(system) = system
    {
        super::descriptive::readings_into(&l.core, system, out);
        if !out.is_empty() {
            return;
        }
    }
    readings_into(&l.core, lang, out);
    // One entry in descriptive notation in an algebraic record (`P4T`,
    // `QxR`, `K-B4`), often the last move written in a hurry: read as
    // such where nothing algebraic reads it, never dropped.
    if out.is_empty()
        && !l.descriptive
        && let Some(system) = system
        && super::descriptive::looks_descriptive(&l.core)
    {
        super::descriptive::readings_into(&l.core, system, out);
    }
}

/// [`readings`] into a vector the caller keeps (it is cleared first), so that
/// reading many entries allocates once.
pub(crate) fn readings_into(core: &str, lang: &Language, out: &mut Vec<Reading>) {
    out.clear();
    if let Some(side) = castle(core) {
        out.push(Reading { target: Target::Castle(side), cost: 0, side: None, within: None });
        return;
    }
    let Some(first) = core.chars().next() else {
        return;
    };
    // A figurine is understood in every language.
    if !first.is_ascii()
        && let Some(&(_, role)) = FIGURINES.iter().find(|(f, _)| *f == first)
    {
        body(role, &core[first.len_utf8()..], lang, 0, out);
        return;
    }
    // A pawn move ("e4") starts with no piece letter: no search for spellings.
    if lang.has_letter(first)
        && let Some((role, n)) = lang.piece_prefix(core)
    {
        body(role, &core[n..], lang, 0, out);
    } else if lang.pawn.iter().any(|p| p.starts_with(first))
        && let Some(n) = lang.pawn_prefix(core)
    {
        body(Role::Pawn, &core[n..], lang, PAWN_LETTER, out);
    } else {
        body(Role::Pawn, core, lang, 0, out);
        // A lowercase piece letter: "nf3", or "cxd5" read as a knight capture.
        if first.is_ascii() {
            let upper = first.to_ascii_uppercase();
            if upper != first
                && lang.has_letter(upper)
                && let Some((role, 1)) = lang.piece_prefix(upper.encode_utf8(&mut [0; 4]))
            {
                body(role, &core[1..], lang, LOWERCASE_PIECE, out);
            }
            return;
        }
        // The uppercase of one character is at most three characters.
        let mut buf = [0u8; 12];
        let mut len = 0;
        for c in first.to_uppercase() {
            len += c.encode_utf8(&mut buf[len..]).len();
        }
        let upper = std::str::from_utf8(&buf[..len]).unwrap_or_default();
        let (head, rest) = core.split_at(first.len_utf8());
        if upper != head
            && upper.chars().next().is_some_and(|c| lang.has_letter(c))
            && let Some((role, n)) = lang.piece_prefix(upper)
            && n == upper.len()
        {
            body(role, rest, lang, LOWERCASE_PIECE, out);
        }
    }
}

/// Castling in any of the ways people write it: 0-0, O-O, o-o, with or without dashes.
fn castle(core: &str) -> Option<CastlingSide> {
    let mut letters = core.chars().filter(|c| *c != '-');
    let first = letters.next().filter(|c| matches!(c, '0' | 'O' | 'o'))?;
    let mut n = 1;
    for c in letters {
        if c != first || n == 3 {
            return None;
        }
        n += 1;
    }
    match n {
        2 => Some(CastlingSide::KingSide),
        3 => Some(CastlingSide::QueenSide),
        _ => None,
    }
}

/// Reads what follows the piece letter: `[file][rank][x|:|-]square[promotion]`.
fn body(role: Role, s: &str, lang: &Language, cost: u8, out: &mut Vec<Reading>) {
    let b = s.as_bytes();
    // Find the destination: the last file-rank pair.
    let Some(to_at) = (0..b.len().saturating_sub(1)).rev().find(|&i| is_file(b[i]) && is_rank(b[i + 1])) else {
        return;
    };
    let to = Square::from_coords(File::new(u32::from(b[to_at] - b'a')), Rank::new(u32::from(b[to_at + 1] - b'1')));
    let Some(promo) = promotion(&s[to_at + 2..], lang) else {
        return;
    };
    // Before the destination: optional origin file and rank, then a separator.
    let mut head = &b[..to_at];
    let mut capture = None;
    if let Some((&last, rest)) = head.split_last() {
        match last {
            b'x' | b':' | b'X' => {
                capture = Some(true);
                head = rest;
            }
            b'-' => head = rest,
            _ => {}
        }
    }
    let (from_file, from_rank) = match head {
        [] => (None, None),
        [f] if is_file(*f) => (Some(*f), None),
        [r] if is_rank(*r) => (None, Some(*r)),
        [f, r] if is_file(*f) && is_rank(*r) => (Some(*f), Some(*r)),
        _ => return,
    };
    let from_file = from_file.map(|f| File::new(u32::from(f - b'a')));
    let from_rank = from_rank.map(|r| Rank::new(u32::from(r - b'1')));
    if role == Role::Pawn {
        match (from_file, from_rank) {
            // "ee4" says nothing a pawn move could mean.
            (Some(f), None) if f == to.file() => return,
            (Some(f), None) if capture.is_none() && f != to.file() => capture = Some(true),
            _ => {}
        }
    }
    let last_rank = matches!(to.rank(), Rank::First | Rank::Eighth);
    let (promotion, promo_cost) = match promo {
        Some(r) if role == Role::Pawn && last_rank => (Some(r), 0),
        Some(_) => return,
        None if role == Role::Pawn && last_rank => (Some(Role::Queen), PROMOTION_ASSUMED),
        None => (None, 0),
    };
    out.push(Reading {
        target: Target::Move { role, from_file, from_rank, capture, to, promotion },
        cost: cost + promo_cost,
        side: None,
        within: None,
    });
}

/// The promotion written after the destination: `D`, `=D`, `(D)`, `/D`, in the
/// sheet's letters, a figurine, or lowercase. `Some(None)` when nothing is written.
fn promotion(s: &str, lang: &Language) -> Option<Option<Role>> {
    if s.is_empty() {
        return Some(None);
    }
    let s = s.trim_start_matches(['=', '(', '/']).trim_end_matches(')');
    if s.is_empty() {
        return Some(None);
    }
    let role = if let Some(&(_, r)) = FIGURINES.iter().find(|(f, _)| s.starts_with(*f)) {
        r
    } else {
        let upper = s.to_uppercase();
        let (r, n) = lang.piece_prefix(&upper)?;
        if n != upper.len() {
            return None;
        }
        r
    };
    matches!(role, Role::Queen | Role::Rook | Role::Bishop | Role::Knight).then_some(Some(role))
}

fn is_file(c: u8) -> bool {
    (b'a'..=b'h').contains(&c)
}

fn is_rank(c: u8) -> bool {
    (b'1'..=b'8').contains(&c)
}

impl Reading {
    /// Whether the legal move `m`, played by `turn`, is what this reading says.
    pub fn matches(&self, turn: Color, m: &Move) -> bool {
        if self.side.is_some_and(|s| s != turn) || self.within.is_some_and(|w| m.from().is_none_or(|f| !w.contains(f)))
        {
            return false;
        }
        match (self.target, *m) {
            (Target::Castle(side), m) => m.castling_side() == Some(side),
            (Target::Move { role: Role::King, from_file, to, .. }, Move::Castle { king, rook }) => {
                // "Ke1-g1" for castling: the king's own two-square move.
                let side = if rook.file() > king.file() { CastlingSide::KingSide } else { CastlingSide::QueenSide };
                to == side.king_to(if king.rank() == Rank::First {
                    shakmaty::Color::White
                } else {
                    shakmaty::Color::Black
                }) && from_file.is_none_or(|f| f == king.file())
            }
            (Target::Move { role, from_file, from_rank, capture, to, promotion }, m) => {
                let Some(from) = m.from() else { return false };
                m.role() == role
                    && m.to() == to
                    && m.promotion() == promotion
                    && from_file.is_none_or(|f| f == from.file())
                    && from_rank.is_none_or(|r| r == from.rank())
                    && capture.is_none_or(|c| c == m.is_capture())
                    // A pawn written without its file ("e5") is a push, never a capture.
                    && !(role == Role::Pawn && from_file.is_none() && m.is_capture() && self.side.is_none())
            }
            (Target::FromTo { from, to, .. }, Move::Castle { king, rook }) => {
                let side = if rook.file() > king.file() { CastlingSide::KingSide } else { CastlingSide::QueenSide };
                from == king && to == side.king_to(turn)
            }
            (Target::FromTo { from, to, promotion }, m) => {
                m.from() == Some(from)
                    && m.to() == to
                    && (m.promotion() == promotion || (promotion.is_none() && m.promotion() == Some(Role::Queen)))
            }
            (Target::Takes { role, from_file, from_rank, victim, victim_file, victim_rank, promotion }, m) => {
                let Some(from) = m.from() else { return false };
                m.role() == role
                    && m.capture() == Some(victim)
                    && from_file.is_none_or(|f| f == from.file())
                    && from_rank.is_none_or(|r| r == from.rank())
                    && victim_file.is_none_or(|f| f == m.to().file())
                    && victim_rank.is_none_or(|r| r == m.to().rank())
                    && (m.promotion() == promotion || (promotion.is_none() && m.promotion() == Some(Role::Queen)))
            }
        }
    }

    /// The legal moves in `pos` that could match this reading.
    fn candidates(&self, pos: &Chess) -> MoveList {
        match self.target {
            Target::Move { role, to, .. } if role != Role::King => pos.san_candidates(role, to),
            Target::Takes { .. } | Target::FromTo { .. } | Target::Move { .. } | Target::Castle(_) => pos.legal_moves(),
        }
    }

    /// The legal moves in `pos` that could match this reading, found without
    /// generating every legal move: a castling reading needs only the castling
    /// moves of its side, a king move only the king's moves to its square and
    /// the castling that takes the king there ("Re1-g1"). The same moves that
    /// match as among [`Self::candidates`], possibly in another order.
    fn quick_candidates(&self, targets: &Targets<'_>) -> Few {
        let mut moves = Few::new();
        match self.target {
            Target::Castle(side) => targets.castling(side, &mut moves),
            Target::Move { role: Role::King, to, .. } => {
                targets.add(Role::King, to, true, &mut moves);
                if matches!(to.rank(), Rank::First | Rank::Eighth) {
                    let side = match to.file() {
                        File::G => Some(CastlingSide::KingSide),
                        File::C => Some(CastlingSide::QueenSide),
                        _ => None,
                    };
                    if let Some(side) = side {
                        targets.castling(side, &mut moves);
                    }
                }
            }
            Target::Move { role, to, .. } => targets.add(role, to, true, &mut moves),
            Target::Takes { role, .. } => targets.captures_by(role, &mut moves),
            Target::FromTo { to, .. } => {
                targets.add_all(to, &mut moves);
                for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
                    targets.castling(side, &mut moves);
                }
            }
        }
        moves
    }
}

/// What the readings of an entry come to in a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resolution {
    /// Exactly one legal move fits the cheapest readings that fit any.
    Unique { mv: Move, cost: u8 },
    /// Several legal moves fit equally well.
    Ambiguous(Vec<Move>),
    /// No legal move fits.
    None,
}

/// Resolves readings against a position: the cheapest tier of readings that
/// matches any legal move decides.
pub fn resolve(pos: &Chess, readings: &[Reading]) -> Resolution {
    // The tiers of cost from the cheapest up, without collecting them.
    let mut below: Option<u8> = None;
    let targets = Targets::new(pos);
    while let Some(cost) = readings.iter().map(|r| r.cost).filter(|&c| below.is_none_or(|b| c > b)).min() {
        below = Some(cost);
        match tier_match(&targets, readings, cost) {
            // Several moves fit: listed as every legal move orders them.
            Err(Several) => return Resolution::Ambiguous(tier(pos, readings, cost)),
            Ok(Some(mv)) => return Resolution::Unique { mv, cost },
            Ok(None) => {}
        }
    }
    Resolution::None
}

/// The one legal move the readings that cost nothing match, if exactly one
/// does: [`resolve`]'s `Unique { cost: 0, .. }`, without weighing the
/// costlier readings when it is not.
pub(crate) fn exact_move(pos: &Chess, readings: &[Reading]) -> Option<Move> {
    if !readings.iter().any(|r| r.cost == 0) {
        return None;
    }
    tier_match(&Targets::new(pos), readings, 0).ok().flatten()
}

/// More than one legal move fits a tier of readings.
struct Several;

/// The legal move the readings of cost `cost` match, if any, unless several do.
fn tier_match(targets: &Targets<'_>, readings: &[Reading], cost: u8) -> Result<Option<Move>, Several> {
    let mut found: Option<Move> = None;
    for r in readings.iter().filter(|r| r.cost == cost) {
        for m in &r.quick_candidates(targets) {
            if !r.matches(targets.turn(), m) || found == Some(*m) {
                continue;
            }
            if found.is_some() {
                return Err(Several);
            }
            found = Some(*m);
        }
    }
    Ok(found)
}

/// The legal moves that the readings of one cost match, in the order of
/// [`Reading::candidates`].
fn tier(pos: &Chess, readings: &[Reading], cost: u8) -> Vec<Move> {
    let mut found: Vec<Move> = Vec::new();
    for r in readings.iter().filter(|r| r.cost == cost) {
        for m in r.candidates(pos) {
            if r.matches(pos.turn(), &m) && !found.contains(&m) {
                found.push(m);
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Position};

    use super::*;

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap()
    }

    /// Resolution by trying every legal move, as it was before the quick candidates.
    fn resolve_by_legal_moves(pos: &Chess, readings: &[Reading]) -> Resolution {
        let mut costs: Vec<u8> = readings.iter().map(|r| r.cost).collect();
        costs.sort_unstable();
        costs.dedup();
        for cost in costs {
            let mut found: Vec<Move> = Vec::new();
            for r in readings.iter().filter(|r| r.cost == cost) {
                for m in pos.legal_moves() {
                    if r.matches(pos.turn(), &m) && !found.contains(&m) {
                        found.push(m);
                    }
                }
            }
            match found.len() {
                0 => continue,
                1 => return Resolution::Unique { mv: found[0], cost },
                _ => return Resolution::Ambiguous(found),
            }
        }
        Resolution::None
    }

    #[test]
    fn castling_written_every_way() {
        for (w, side) in [
            ("0-0", Some(CastlingSide::KingSide)),
            ("O-O", Some(CastlingSide::KingSide)),
            ("oo", Some(CastlingSide::KingSide)),
            ("0-0-0", Some(CastlingSide::QueenSide)),
            ("OOO", Some(CastlingSide::QueenSide)),
            ("o-o-o", Some(CastlingSide::QueenSide)),
            ("0-O", None),
            ("0", None),
            ("0-0-0-0", None),
            ("--", None),
            ("", None),
        ] {
            assert_eq!(castle(w), side, "{w}");
        }
    }

    #[test]
    fn king_moves_and_castling_resolve_as_against_every_legal_move() {
        let es = Language::find("es").unwrap();
        let en = Language::find("en").unwrap();
        let positions = [
            "r3k2r/pppq1ppp/2n2n2/3pp3/3PP3/2N2N2/PPPQ1PPP/R3K2R w KQkq - 0 1",
            "r3k2r/pppq1ppp/2n2n2/3pp3/3PP3/2N2N2/PPPQ1PPP/R3K2R b KQkq - 0 1",
            "r3k2r/pppq1ppp/2n2n2/3pp3/1b1PP3/2N2N2/PPPQ1PPP/R3K2R w KQkq - 0 1",
            "4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1",
            "8/8/8/4k3/8/8/8/4K3 w - - 0 1",
        ];
        let written = [
            "0-0", "0-0-0", "O-O", "Rg1", "Re1-g1", "Re1-c1", "Rc1", "Rf1", "Rd1", "Re2", "Rxe2", "Kg1", "Ke1-g1",
            "Kf1", "Kd2", "Rxf7", "Rd7", "Re7", "Rf8", "Rg8", "Re8-g8", "Txe2", "Th1-f1", "Cd5", "Ab5", "e5", "a3",
        ];
        for fen in positions {
            let p = pos(fen);
            for w in written {
                for lang in [es, en] {
                    let r = readings(w, lang);
                    let resolved = resolve_by_legal_moves(&p, &r);
                    assert_eq!(resolve(&p, &r), resolved, "{fen} {w} {}", lang.code);
                    let exact = match resolved {
                        Resolution::Unique { mv, cost: 0 } => Some(mv),
                        _ => None,
                    };
                    assert_eq!(exact_move(&p, &r), exact, "{fen} {w} {}", lang.code);
                }
            }
        }
    }

    #[test]
    fn ambiguity_lists_moves_as_every_legal_move_orders_them() {
        let en = Language::find("en").unwrap();
        let p = pos("4k3/8/8/8/8/8/8/R4RK1 w - - 0 1");
        let r = readings("Rd1", en);
        assert!(matches!(resolve(&p, &r), Resolution::Ambiguous(_)));
        assert_eq!(resolve(&p, &r), resolve_by_legal_moves(&p, &r));
    }

    #[test]
    fn lowercase_and_pawn_letters() {
        let es = Language::find("es").unwrap();
        let r = readings("cf3", es);
        assert!(r.iter().any(|r| matches!(r.target, Target::Move { role: Role::Knight, .. }) && r.cost == 1));
        let r = readings("Pe4", es);
        assert!(matches!(r[..], [Reading { target: Target::Move { role: Role::Pawn, .. }, cost: PAWN_LETTER, .. }]));
        let r = readings("♘f3", es);
        assert!(matches!(r[..], [Reading { target: Target::Move { role: Role::Knight, .. }, cost: 0, .. }]));
        let ru = Language::find("ru").unwrap();
        let r = readings("Крg1", ru);
        assert!(matches!(r[..], [Reading { target: Target::Move { role: Role::King, .. }, cost: 0, .. }]));
        let r = readings("кf3", ru);
        assert!(r.iter().any(|r| matches!(r.target, Target::Move { role: Role::Knight, .. }) && r.cost == 1));
        assert!(readings("", es).is_empty());
    }
}
