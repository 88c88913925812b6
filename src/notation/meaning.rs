//! What one reading of an entry says: the move it names ([`Target`]) and
//! what believing it costs ([`Reading`]). The algebraic reader
//! ([`super::reading`]) and the descriptive one ([`super::descriptive`])
//! both make them; whether a legal move is the one a reading says is the
//! algebraic reader's, which resolves readings against a position.

use shakmaty::{Bitboard, CastlingSide, Color, File, Rank, Role, Square};

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
    /// A piece (on a file or a rank, where written) takes a piece (on a
    /// file or a rank, where written): descriptive notation's `BxN`, `QPxB`,
    /// `PxP`, `N(Q2)xP`, `BxP(Q4)`.
    Takes {
        role: Role,
        from_file: Option<File>,
        from_rank: Option<Rank>,
        victim: Role,
        victim_file: Option<File>,
        victim_rank: Option<Rank>,
        promotion: Option<Role>,
    },
    /// From a square to a square: ICCF numeric notation's `5254` (e2-e4),
    /// castling as the king's move.
    FromTo { from: Square, to: Square, promotion: Option<Role> },
}

/// One way of reading an entry, with what it costs to believe it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reading {
    pub target: Target,
    pub cost: u8,
    /// The side whose move it can be: descriptive notation counts ranks from
    /// the mover's side (`P-K4` is e4 for White, e5 for Black); `None` for
    /// algebraic notation.
    pub side: Option<Color>,
    /// The squares the moving piece may stand on, where the notation names
    /// a piece by where it started (descriptive `KB`, `QKt`, Spanish `CR`);
    /// `None`: any.
    pub within: Option<Bitboard>,
}
