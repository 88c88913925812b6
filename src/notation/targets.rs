//! Legal moves to chosen squares, made without a full move list.
//!
//! An entry names a destination square; reading it needs only the moves to
//! that square (or to the few squares a slip could have turned it into).
//! shakmaty's `san_candidates` and `is_legal` return or build a whole move
//! list (some 2 KB, copied on return) per call, which the repair search makes
//! millions of times; here the pins are worked out once per position.

use arrayvec::ArrayVec;
use shakmaty::attacks;
use shakmaty::{Bitboard, Board, CastlingSide, Chess, Color, Move, Piece, Position, Rank, Role, Square};

/// The legal moves of one position to given squares.
pub(crate) struct Targets<'a> {
    pos: &'a Chess,
    board: &'a Board,
    turn: Color,
    king: Square,
    /// Our pieces that shield our king from a slider: they move only along the line.
    pinned: Bitboard,
    in_check: bool,
    /// The square a pawn just skipped, if any: whether a capture there is
    /// legal is judged when one is made.
    ep: Option<Square>,
}

/// Moves to one square: a handful at most, bar a position built to have more.
pub(crate) type Few = ArrayVec<Move, 32>;

impl<'a> Targets<'a> {
    pub(crate) fn new(pos: &'a Chess) -> Self {
        let board = pos.board();
        let turn = pos.turn();
        let king = board.king_of(turn).expect("a king in standard chess");
        let snipers = (attacks::rook_attacks(king, Bitboard::EMPTY) & board.rooks_and_queens())
            | (attacks::bishop_attacks(king, Bitboard::EMPTY) & board.bishops_and_queens());
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers & pos.them() {
            let between = attacks::between(king, sniper) & board.occupied();
            if !between.more_than_one() {
                pinned |= between & pos.us();
            }
        }
        Targets { pos, board, turn, king, pinned, in_check: pos.is_check(), ep: pos.maybe_ep_square() }
    }

    /// The side to move.
    pub(crate) fn turn(&self) -> shakmaty::Color {
        self.turn
    }

    /// Adds the legal captures by `role` to `out` (as many as it holds).
    pub(crate) fn captures_by(&self, role: Role, out: &mut Few) {
        for m in self.pos.capture_moves() {
            if m.role() == role && out.try_push(m).is_err() {
                break;
            }
        }
    }

    /// Adds the legal moves of `role` to `to` (not castling) to `out`; with
    /// `pushes` false, a pawn only captures.
    pub(crate) fn add(&self, role: Role, to: Square, pushes: bool, out: &mut impl Extend<Move>) {
        if self.in_check {
            // Evasions are left to shakmaty: rare, and easy to get wrong.
            out.extend(self.pos.san_candidates(role, to).into_iter().filter(|m| pushes || m.is_capture()));
            return;
        }
        if self.pos.us().contains(to) {
            return;
        }
        match role {
            Role::Pawn => self.pawns(to, pushes, out),
            Role::King => self.king(to, out),
            _ => {
                let piece = Piece { color: self.turn, role };
                let capture = self.board.role_at(to);
                for from in attacks::attacks(to, piece, self.board.occupied()) & self.pos.our(role) {
                    if self.free(from, to) {
                        out.extend([Move::Normal { role, from, capture, to, promotion: None }]);
                    }
                }
            }
        }
    }

    /// Adds the legal moves of every piece to `to` (not castling) to `out`.
    pub(crate) fn add_all(&self, to: Square, out: &mut impl Extend<Move>) {
        if self.in_check {
            for role in Role::ALL {
                self.add(role, to, true, out);
            }
            return;
        }
        if self.pos.us().contains(to) {
            return;
        }
        let capture = self.board.role_at(to);
        // One look at the square finds every piece of ours that attacks it.
        let attackers = self.board.attacks_to(to, self.turn, self.board.occupied()) & self.pos.us();
        for from in attackers & !self.pos.our(Role::Pawn) {
            match self.board.role_at(from) {
                Some(Role::King) => self.king(to, out),
                Some(role) if self.free(from, to) => {
                    out.extend([Move::Normal { role, from, capture, to, promotion: None }]);
                }
                _ => {}
            }
        }
        self.pawns(to, true, out);
    }

    /// Whether a piece on `from` may leave it for `to`: not pinned, or along the pin.
    fn free(&self, from: Square, to: Square) -> bool {
        !self.pinned.contains(from) || attacks::aligned(from, to, self.king)
    }

    /// The king's move to `to` (not in check), if it is legal.
    fn king(&self, to: Square, out: &mut impl Extend<Move>) {
        let from = self.king;
        if attacks::king_attacks(to).contains(from)
            && self.board.attacks_to(to, !self.turn, self.board.occupied().without(from)).is_empty()
        {
            out.extend([Move::Normal { role: Role::King, from, capture: self.board.role_at(to), to, promotion: None }]);
        }
    }

    /// The pawn moves to `to` (not in check, `to` not ours): captures, and
    /// with `pushes` the moves straight ahead.
    fn pawns(&self, to: Square, pushes: bool, out: &mut impl Extend<Move>) {
        let pawns = self.pos.our(Role::Pawn);
        let occupied = self.board.occupied();
        let capture = self.board.role_at(to);
        let mut from = Bitboard::EMPTY;
        if capture.is_some() {
            from = attacks::pawn_attacks(!self.turn, to) & pawns;
        } else if pushes {
            let back = self.turn.fold_wb(-8, 8);
            if let Some(one) = to.offset(back) {
                if pawns.contains(one) {
                    from.add(one);
                } else if !occupied.contains(one)
                    && to.rank() == self.turn.relative_rank(Rank::Fourth)
                    && let Some(two) = one.offset(back)
                    && pawns.contains(two)
                {
                    from.add(two);
                }
            }
        }
        let last = to.rank() == self.turn.relative_rank(Rank::Eighth);
        for f in from.into_iter().filter(|&f| self.free(f, to)) {
            if last {
                out.extend([Role::Queen, Role::Rook, Role::Bishop, Role::Knight].map(|p| Move::Normal {
                    role: Role::Pawn,
                    from: f,
                    capture,
                    to,
                    promotion: Some(p),
                }));
            } else {
                out.extend([Move::Normal { role: Role::Pawn, from: f, capture, to, promotion: None }]);
            }
        }
        if self.ep == Some(to) {
            // A capture en passant can uncover the king along the rank: shakmaty judges it.
            for f in attacks::pawn_attacks(!self.turn, to) & pawns {
                let m = Move::EnPassant { from: f, to };
                if self.pos.is_legal(m) {
                    out.extend([m]);
                }
            }
        }
    }

    /// The legal moves of `role` to `to` (what the tests check `add` by).
    #[cfg(test)]
    pub(crate) fn to(&self, role: Role, to: Square) -> Few {
        let mut out = Few::new();
        self.add(role, to, true, &mut out);
        out
    }

    /// Adds the legal castling moves to `out`.
    pub(crate) fn castling(&self, side: CastlingSide, out: &mut impl Extend<Move>) {
        if self.pos.castles().has(self.turn, side) {
            out.extend(self.pos.castling_moves(side));
        }
    }
}

/// Every position of 300 random games of up to 160 plies (a fixed xorshift),
/// with its legal moves and the generator, for tests of move generation:
/// checks, pins, en passant, castling and promotions come up by the thousand.
#[cfg(test)]
pub(crate) fn random_positions(mut visit: impl FnMut(&Chess, &shakmaty::MoveList, &mut dyn FnMut() -> u64)) {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for _ in 0..300 {
        let mut pos = Chess::default();
        for _ in 0..160 {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            visit(&pos, &legal, &mut next);
            pos.play_unchecked(legal[(next() % legal.len() as u64) as usize]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::EnPassantMode;

    #[test]
    fn the_moves_to_a_square_are_the_legal_moves_there() {
        let (mut checked, mut ep, mut promotions, mut pinned) = (0, 0, 0, 0);
        random_positions(|pos, legal, _| {
            let targets = Targets::new(pos);
            pinned += targets.pinned.count();
            for to in Square::ALL {
                let mut all = Vec::new();
                targets.add_all(to, &mut all);
                let mut want_all: Vec<Move> =
                    legal.iter().filter(|m| m.to() == to && !m.is_castle()).copied().collect();
                all.sort_by_key(|m| (m.from(), m.promotion()));
                want_all.sort_by_key(|m| (m.from(), m.promotion()));
                assert_eq!(all, want_all, "{}", shakmaty::fen::Fen::from_position(pos, EnPassantMode::Legal));
                for role in Role::ALL {
                    let mut got: Vec<Move> = targets.to(role, to).to_vec();
                    let mut want: Vec<Move> =
                        legal.iter().filter(|m| m.role() == role && m.to() == to && !m.is_castle()).copied().collect();
                    got.sort_by_key(|m| (m.from(), m.promotion()));
                    want.sort_by_key(|m| (m.from(), m.promotion()));
                    assert_eq!(got, want, "{}", shakmaty::fen::Fen::from_position(pos, EnPassantMode::Legal));
                    checked += 1;
                    ep += want.iter().filter(|m| m.is_en_passant()).count();
                    promotions += want.iter().filter(|m| m.is_promotion()).count();
                }
            }
        });
        assert!(checked > 1_000_000 && ep > 0 && promotions > 0 && pinned > 0, "{checked} {ep} {promotions} {pinned}");
    }
}
