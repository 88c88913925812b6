//! Readings of one entry: which moves the written text can stand for, each with
//! a cost. Cost 0 is the text read exactly as FIDE Appendix C writes moves; a
//! higher cost is a looser reading (a lowercase piece letter, a pawn letter, a
//! promotion without its piece). Resolving against a position picks the legal
//! moves of the cheapest readings that match any.

use shakmaty::{CastlingSide, Chess, File, Move, MoveList, Position, Rank, Role, Square};

use super::language::Language;

/// What a reading says about the move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// `0-0` or `0-0-0`.
    Castle(CastlingSide),
    /// A piece or pawn move to a square.
    Move {
        role: Role,
        from_file: Option<File>,
        from_rank: Option<Rank>,
        /// `Some(true)` when `x` or `:` was written; `None` when nothing says.
        capture: Option<bool>,
        to: Square,
        promotion: Option<Role>,
    },
}

/// One way of reading an entry, with what it costs to believe it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reading {
    pub target: Target,
    pub cost: u8,
}

/// Cost of reading a lowercase letter as a piece ("nf3").
pub const COST_LOWERCASE_PIECE: u8 = 1;
/// Cost of a pawn letter before a pawn move ("Pe4").
pub const COST_PAWN_LETTER: u8 = 1;
/// Cost of a promotion written without its piece: a queen is assumed.
pub const COST_PROMOTION_ASSUMED: u8 = 1;

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
/// use scoresheet::notation::{Language, reading::{readings, Target}};
/// use shakmaty::{Role, Square};
/// let es = Language::find("es").unwrap();
/// let r = readings("Cxf3", es);
/// assert!(matches!(r[0].target, Target::Move { role: Role::Knight, to: Square::F3, capture: Some(true), .. }));
/// ```
pub fn readings(core: &str, lang: &Language) -> Vec<Reading> {
    let mut out = Vec::new();
    if let Some(side) = castle(core) {
        out.push(Reading {
            target: Target::Castle(side),
            cost: 0,
        });
        return out;
    }
    // A figurine is understood in every language.
    if let Some(c) = core.chars().next()
        && let Some(&(_, role)) = FIGURINES.iter().find(|(f, _)| *f == c)
    {
        body(role, &core[c.len_utf8()..], lang, 0, &mut out);
        return out;
    }
    if let Some((role, n)) = lang.piece_prefix(core) {
        body(role, &core[n..], lang, 0, &mut out);
    } else if let Some(n) = lang.pawn_prefix(core) {
        body(Role::Pawn, &core[n..], lang, COST_PAWN_LETTER, &mut out);
    } else {
        body(Role::Pawn, core, lang, 0, &mut out);
        // A lowercase piece letter: "nf3", or "cxd5" read as a knight capture.
        let upper: String = core.chars().take(1).flat_map(char::to_uppercase).collect();
        if !upper.is_empty() && upper != core[..core.chars().next().map_or(0, char::len_utf8)] {
            let rest = &core[core.chars().next().map_or(0, char::len_utf8)..];
            if let Some((role, n)) = lang.piece_prefix(&upper)
                && n == upper.len()
            {
                body(role, rest, lang, COST_LOWERCASE_PIECE, &mut out);
            }
        }
    }
    out
}

/// Castling in any of the ways people write it: 0-0, O-O, o-o, with or without dashes.
fn castle(core: &str) -> Option<CastlingSide> {
    let s: String = core.chars().filter(|c| *c != '-').collect();
    match s.as_str() {
        "00" | "OO" | "oo" => Some(CastlingSide::KingSide),
        "000" | "OOO" | "ooo" => Some(CastlingSide::QueenSide),
        _ => None,
    }
}

/// Reads what follows the piece letter: `[file][rank][x|:|-]square[promotion]`.
fn body(role: Role, s: &str, lang: &Language, cost: u8, out: &mut Vec<Reading>) {
    let b = s.as_bytes();
    // Find the destination: the last file-rank pair.
    let Some(to_at) = (0..b.len().saturating_sub(1))
        .rev()
        .find(|&i| is_file(b[i]) && is_rank(b[i + 1]))
    else {
        return;
    };
    let to = Square::from_coords(
        File::new(u32::from(b[to_at] - b'a')),
        Rank::new(u32::from(b[to_at + 1] - b'1')),
    );
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
        None if role == Role::Pawn && last_rank => (Some(Role::Queen), COST_PROMOTION_ASSUMED),
        None => (None, 0),
    };
    out.push(Reading {
        target: Target::Move {
            role,
            from_file,
            from_rank,
            capture,
            to,
            promotion,
        },
        cost: cost + promo_cost,
    });
}

/// The promotion written after the destination: `D`, `=D`, `(D)`, `/D`, in the
/// sheet's letters, a figurine, or lowercase. `Some(None)` when nothing is written.
fn promotion(s: &str, lang: &Language) -> Option<Option<Role>> {
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
    /// Whether the legal move `m` is what this reading says.
    pub fn matches(&self, m: &Move) -> bool {
        match (self.target, *m) {
            (Target::Castle(side), m) => m.castling_side() == Some(side),
            (
                Target::Move {
                    role: Role::King,
                    from_file,
                    to,
                    ..
                },
                Move::Castle { king, rook },
            ) => {
                // "Ke1-g1" for castling: the king's own two-square move.
                let side = if rook.file() > king.file() {
                    CastlingSide::KingSide
                } else {
                    CastlingSide::QueenSide
                };
                to == side.king_to(if king.rank() == Rank::First {
                    shakmaty::Color::White
                } else {
                    shakmaty::Color::Black
                }) && from_file.is_none_or(|f| f == king.file())
            }
            (
                Target::Move {
                    role,
                    from_file,
                    from_rank,
                    capture,
                    to,
                    promotion,
                },
                m,
            ) => {
                let Some(from) = m.from() else { return false };
                m.role() == role
                    && m.to() == to
                    && m.promotion() == promotion
                    && from_file.is_none_or(|f| f == from.file())
                    && from_rank.is_none_or(|r| r == from.rank())
                    && capture.is_none_or(|c| c == m.is_capture())
                    // A pawn written without its file ("e5") is a push, never a capture.
                    && !(role == Role::Pawn && from_file.is_none() && m.is_capture())
            }
        }
    }

    /// The legal moves in `pos` that could match this reading.
    fn candidates(&self, pos: &Chess) -> MoveList {
        match self.target {
            Target::Move { role, to, .. } if role != Role::King => pos.san_candidates(role, to),
            _ => pos.legal_moves(),
        }
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
    let mut costs: Vec<u8> = readings.iter().map(|r| r.cost).collect();
    costs.sort_unstable();
    costs.dedup();
    for cost in costs {
        let mut found: Vec<Move> = Vec::new();
        for r in readings.iter().filter(|r| r.cost == cost) {
            for m in r.candidates(pos) {
                if r.matches(&m) && !found.contains(&m) {
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
