//! The game read from a sheet, and the one way its moves are played and
//! written: in SAN with check marks.

use shakmaty::san::{San, SanPlus, Suffix};
use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, EnPassantMode, Move, Position};

use crate::finding::{Ending, Finding};
use crate::notation::Language;
use crate::sheet::GameResult;
use crate::start::Start;

/// A move of the game and the entry it was read from.
#[derive(Debug, Clone)]
pub struct Played {
    pub mv: Move,
    /// English SAN with check marks, as written to the PGN.
    pub san: SanPlus,
    /// Index into the sheet's entries (`None` for a move that was not written).
    pub entry: Option<usize>,
    /// Annotation glyphs written with the move.
    pub nags: Vec<u8>,
    /// The player offered a draw with this move: `(=)`.
    pub draw_offer: bool,
}

/// The game read from a sheet.
#[derive(Debug, Clone)]
pub struct Game {
    pub language: &'static Language,
    pub moves: Vec<Played>,
    pub findings: Vec<Finding>,
    /// Where the game begins: the standard start, or the position its sheet
    /// sets up.
    pub start: Start,
    /// The position after the last move read.
    pub position: Chess,
    /// The result: the one written, else the one the final position gives.
    pub result: GameResult,
    /// How unlikely the reading is given what was written (0: exactly as written).
    pub cost: f32,
}

impl Game {
    /// Whether the record goes on in descriptive notation, where reading stopped.
    pub(crate) fn turns_descriptive(&self) -> bool {
        self.findings.iter().any(|f| matches!(f, Finding::NonAlgebraic { read: None, .. }))
    }
}

/// The check mark of the position after a move: mate is looked for only after a check.
fn suffix(pos: &Chess) -> Option<Suffix> {
    if !pos.is_check() {
        None
    } else if pos.legal_moves().is_empty() {
        Some(Suffix::Checkmate)
    } else {
        Some(Suffix::Check)
    }
}

/// The SAN, with check marks, of a legal move in a position.
pub(crate) fn san_of(pos: &Chess, m: Move) -> String {
    play(&mut pos.clone(), m).to_string()
}

/// Plays a legal move and returns its SAN with check marks. Cheaper than
/// `SanPlus::from_move_and_play_unchecked`, which generates every legal move
/// after every move to tell mate: here that is done only after a check.
pub fn play(pos: &mut Chess, m: Move) -> SanPlus {
    let san = San::from_move(pos, m);
    pos.play_unchecked(m);
    SanPlus { san, suffix: suffix(pos) }
}

/// A position as Art. 9.2.2 tells positions apart: the same player to move,
/// the same pieces on the same squares, the same possible moves (castling
/// rights, an en passant capture only where one is legal).
pub(crate) fn key(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// The plies a position needs to stand on the board five times: each
/// player moves away and back at least twice between two of them.
pub(crate) const FIVEFOLD_PLIES: u32 = 16;

/// The plies of 75 moves by each player (Art. 9.6.2).
const SEVENTY_FIVE_PLIES: u32 = 150;

/// The positions of a game since its last capture or pawn move, to tell
/// where the game ended drawn without a claim (Art. 9.6): a position on the
/// board for the fifth time, or 75 moves by each player without a capture
/// or a pawn move. No earlier position can come again, and past 150 plies
/// the game has ended: what is kept and counted stays within 150 plies.
#[derive(Debug, Clone)]
pub(crate) struct DrawRules {
    keys: Vec<u64>,
    /// Whether a move was played: a set-up position is never itself an end.
    moved: bool,
}

impl DrawRules {
    /// From the game's first position.
    pub(super) fn new(start: &Chess) -> Self {
        DrawRules { keys: vec![key(start)], moved: false }
    }

    /// From `start`, after `moves` (each legal in turn).
    pub(super) fn after(start: &Chess, moves: impl IntoIterator<Item = Move>) -> (Self, Chess) {
        let (mut rules, mut pos) = (DrawRules::new(start), start.clone());
        for m in moves {
            pos.play_unchecked(m);
            rules.played(&pos);
        }
        (rules, pos)
    }

    /// The position after a move of the game.
    pub(super) fn played(&mut self, pos: &Chess) {
        if pos.halfmoves() == 0 {
            self.keys.clear();
        }
        self.keys.push(key(pos));
        self.moved = true;
    }

    /// Why the game ended at `pos`, the last position played, under Art.
    /// 9.6; a checkmate given there takes precedence (and is the board's
    /// own ending, not this one).
    pub(super) fn ended(&self, pos: &Chess) -> Option<Ending> {
        let last = *self.keys.last().filter(|_| self.moved)?;
        let ending = if pos.halfmoves() >= FIVEFOLD_PLIES && self.keys.iter().filter(|&&k| k == last).count() >= 5 {
            Ending::FivefoldRepetition
        } else if pos.halfmoves() >= SEVENTY_FIVE_PLIES {
            Ending::SeventyFiveMoves
        } else {
            return None;
        };
        (!pos.is_checkmate()).then_some(ending)
    }
}

/// The first ply after which a game of `moves` from `start` ended under
/// Art. 9.6, and why; `None` where it never did.
pub(crate) fn ended_by_rule(start: &Chess, moves: impl IntoIterator<Item = Move>) -> Option<(usize, Ending)> {
    let (mut rules, mut pos) = (DrawRules::new(start), start.clone());
    for (k, m) in moves.into_iter().enumerate() {
        pos.play_unchecked(m);
        rules.played(&pos);
        if let Some(ending) = rules.ended(&pos) {
            return Some((k + 1, ending));
        }
    }
    None
}
