//! The game read from a sheet, and the one way its moves are played and
//! written: in SAN with check marks.

use shakmaty::san::{San, SanPlus, Suffix};
use shakmaty::{Chess, Move, Position};

use crate::finding::Finding;
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
