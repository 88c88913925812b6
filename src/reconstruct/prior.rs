//! How plausible a line of moves is as chess, apart from what was written:
//! the opening book's counts (see [`book`](super::book)), and a penalty for a
//! move that leaves the piece it moved to be taken for less. Where the sheet
//! cannot tell two readings apart (`Dh6` a square off: Qh5, or Qxh6 into a
//! pawn's capture), the one a player would choose is put first. It orders
//! readings in doubt; it never settles one.

use shakmaty::{Bitboard, Board, Chess, Color, Move, Position, Role, Square};

use super::book::Book;
use crate::cost::{PRIOR_MOST, PRIOR_PER_PAWN, PRIOR_RECAPTURE};

/// Plausibility scores (natural logs, higher is likelier) of `lines`, moves
/// from `start`: the book's over the same plies where it knows `start`, plus
/// the penalty of every move that gives material away.
pub(crate) fn line_scores(book: Option<&Book<'_>>, start: &Chess, lines: &[&[Move]]) -> Vec<f32> {
    let mut scores = book.and_then(|b| b.line_scores(start, lines)).unwrap_or_else(|| vec![0.0; lines.len()]);
    for (score, line) in scores.iter_mut().zip(lines) {
        let mut pos = start.clone();
        let mut last: Option<Square> = None;
        for m in line.iter() {
            let moved = material_left_en_prise(&pos, m);
            if m.is_capture() && last == Some(taken_on(m)) {
                *score += PRIOR_RECAPTURE;
            }
            last = Some(m.to());
            pos.play_unchecked(*m);
            let left = moved.max(others_en_prise(&pos, m.to()));
            *score -= (left as f32 * PRIOR_PER_PAWN).min(PRIOR_MOST);
        }
    }
    scores
}

/// The square of the piece `m` takes: an en passant capture takes the pawn
/// that has just moved, beside its destination.
fn taken_on(m: &Move) -> Square {
    match *m {
        Move::EnPassant { from, to } => Square::from_coords(to.file(), from.rank()),
        _ => m.to(),
    }
}

/// Pawns' worth of material `mv` leaves to be won on the square it moves to
/// (0 when it gives nothing away): the piece moved, taken by the opponent's
/// cheapest attacker, less that attacker when we can take back, less what the
/// move itself took. A one-exchange look, no deeper.
pub(crate) fn material_left_en_prise(pos: &Chess, mv: &Move) -> i32 {
    let (Some(from), Role::Pawn | Role::Knight | Role::Bishop | Role::Rook | Role::Queen) = (mv.from(), mv.role())
    else {
        return 0;
    };
    if matches!(mv, Move::Castle { .. }) {
        return 0;
    }
    let to = mv.to();
    let mut occupied = pos.board().occupied();
    occupied.discard(from);
    occupied.add(to);
    if let Move::EnPassant { .. } = mv {
        occupied.discard(Square::from_coords(to.file(), from.rank()));
    }
    // The board is still the one before the move: the piece on `from` is the
    // one moved, not a defender.
    let moved = value(mv.promotion().unwrap_or(mv.role()));
    let lost = exchange_loss(pos.board(), to, pos.turn(), moved, occupied, Bitboard::from(from));
    let taken = mv.capture().map_or(0, value);
    (lost - taken).max(0)
}

/// Pawns' worth of material the side that has just moved in `pos` leaves to
/// be won elsewhere than on `moved_to`: the most any one of its pieces stands
/// to lose to the cheapest attacker (a knight left where a pawn attacks it).
fn others_en_prise(pos: &Chess, moved_to: Square) -> i32 {
    let board = pos.board();
    let owner = !pos.turn();
    let ours = board.by_color(owner) & !board.kings() & !Bitboard::from(moved_to);
    let mut most = 0;
    for sq in ours {
        let Some(role) = board.role_at(sq) else { continue };
        let v = value(role);
        if v > most {
            most = most.max(exchange_loss(board, sq, owner, v, board.occupied(), Bitboard::EMPTY));
        }
    }
    most
}

/// What `owner` stands to lose, in pawns, on `sq` holding a piece worth
/// `worth`, over `occupied`: all of it to any attacker when nothing guards it
/// (the king too), else the difference to the cheapest attacker. Pieces in
/// `not_defending` do not guard it.
fn exchange_loss(
    board: &Board,
    sq: Square,
    owner: Color,
    worth: i32,
    occupied: Bitboard,
    not_defending: Bitboard,
) -> i32 {
    let defended = (board.attacks_to(sq, owner, occupied) & !not_defending).any();
    // A piece captured on the square itself does not attack it.
    let mut attackers = board.attacks_to(sq, !owner, occupied) & !Bitboard::from(sq);
    if defended {
        // The king takes only what nothing guards.
        attackers &= !board.kings();
    }
    let Some(cheapest) = attackers.into_iter().filter_map(|s| board.role_at(s)).map(value).min() else {
        return 0;
    };
    if defended { (worth - cheapest).max(0) } else { worth }
}

fn value(role: Role) -> i32 {
    match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::san::San;
    use shakmaty::{CastlingMode, Chess};

    #[test]
    fn a_queen_left_to_be_taken_for_nothing_is_less_plausible() {
        use shakmaty::{CastlingMode, fen::Fen, san::San};
        // White to move; nothing guards d8 from Black's king.
        let fen: Fen = "4k3/6p1/8/8/8/8/8/3Q2K1 w - - 0 40".parse().unwrap();
        let pos: Chess = fen.into_position(CastlingMode::Standard).unwrap();
        let mv = |s: &str| s.parse::<San>().unwrap().to_move(&pos).unwrap();
        let s = line_scores(None, &pos, &[&[mv("Qh5")], &[mv("Qa4+")], &[mv("Qd8+")]]);
        assert_eq!(s[0], s[1]);
        assert!(s[2] < s[0]); // the queen is taken for nothing
    }

    fn at(fen: &str) -> Chess {
        fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap()
    }

    fn loss(fen: &str, san: &str) -> i32 {
        let pos = at(fen);
        material_left_en_prise(&pos, &san.parse::<San>().unwrap().to_move(&pos).unwrap())
    }

    #[test]
    fn material_given_away_on_the_square_moved_to() {
        // A queen takes a pawn a pawn guards: 9 lost, 1 won.
        assert_eq!(loss("6k1/6p1/7p/8/8/8/8/2Q3K1 w - - 0 1", "Qxh6"), 8);
        assert_eq!(loss("6k1/6p1/7p/8/8/8/8/2Q3K1 w - - 0 1", "Qc4"), 0);
        // A knight where a pawn attacks it: taken back, it still costs 3 for 1.
        assert_eq!(loss("6k1/8/8/8/2p5/8/P2N4/6K1 w - - 0 1", "Nb3"), 2);
        assert_eq!(loss("6k1/8/8/8/2p5/8/P2N4/6K1 w - - 0 1", "Nf3"), 0);
        // Undefended where a pawn attacks it: all 3.
        assert_eq!(loss("6k1/2p5/8/3N4/8/8/8/6K1 w - - 0 1", "Nb6"), 3);
        // A rook where a rook attacks it, undefended, check or not.
        assert_eq!(loss("r5k1/8/8/8/8/8/8/1R4K1 w - - 0 1", "Rb8+"), 5);
        assert_eq!(loss("3r2k1/8/8/8/8/8/8/1R4K1 w - - 0 1", "Rd1"), 5);
        assert_eq!(loss("3r2k1/8/8/8/8/8/8/1R4K1 w - - 0 1", "Rb4"), 0);
        // Rook for rook is a trade, not a loss.
        assert_eq!(loss("3rk3/8/8/8/8/8/8/3R2K1 w - - 0 1", "Rxd8+"), 0);
        // The king takes what nothing guards, and cannot take what is guarded.
        assert_eq!(loss("4k3/8/8/8/8/8/8/3Q2K1 w - - 0 1", "Qd8+"), 9);
        assert_eq!(loss("4k3/R7/8/8/8/8/8/3Q2K1 w - - 0 1", "Qd7+"), 0);
        // Castling and king moves give nothing away (the king cannot move into check).
        assert_eq!(loss("6k1/8/8/8/8/8/8/4K2R w K - 0 1", "O-O"), 0);
        assert_eq!(loss("6k1/8/8/8/8/8/8/4K2R w K - 0 1", "Kd1"), 0);
    }

    #[test]
    fn a_line_that_hangs_a_piece_scores_lower() {
        let pos = at("6k1/6p1/7p/8/8/8/8/2Q3K1 w - - 0 1");
        let mv = |s: &str| s.parse::<San>().unwrap().to_move(&pos).unwrap();
        let s = line_scores(None, &pos, &[&[mv("Qxh6")], &[mv("Qc4")]]);
        assert_eq!(s[1], 0.0);
        assert_eq!(s[0], -PRIOR_MOST);
    }

    #[test]
    fn taking_en_passant_is_taking_back_as_much_as_a_plain_capture() {
        // Dev sheet 518: 16...f5 17.exf6 (en passant) against 16...f6 17.exf6.
        let pos = at("2kn1rr1/pp1b1ppp/4p1n1/q2pP2N/P1pP2B1/2P5/2PBQPPP/R4RK1 b - - 13 16");
        let line = |sans: &[&str]| {
            let mut p = pos.clone();
            let mut out = Vec::new();
            for s in sans {
                let m = s.parse::<San>().unwrap().to_move(&p).unwrap();
                p.play_unchecked(m);
                out.push(m);
            }
            out
        };
        let (ep, plain) = (line(&["f5", "exf6"]), line(&["f6", "exf6"]));
        let s = line_scores(None, &pos, &[&ep, &plain]);
        assert_eq!(s[0], s[1]);
        assert_eq!(s[0], PRIOR_RECAPTURE);
    }
}
