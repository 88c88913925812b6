//! The fit of a given game: how unlikely a game the search did not find is
//! given what the sheet says (the evaluation's measure of a search miss).

use shakmaty::{Chess, Move, MoveList, Position};

use super::read::is_illegible;
use super::searcher::Searcher;
use crate::cost::Params;
use crate::notation::Language;
use crate::notation::lex::{Lexed, lex};
use crate::notation::reading::{Reading, readings};
use crate::sheet::Sheet;

/// How unlikely `moves` (a game from the start position) are given what the
/// sheet says, under `lang` and `params`: the cost of the cheapest alignment
/// of the entries to them (see `Searcher::align`). Next to
/// [`Game::cost`](super::Game::cost) it tells whether a game the search did
/// not find fits the sheet better (a search miss) or worse (the costs prefer
/// the other reading).
pub fn fit_cost(sheet: &Sheet, lang: &'static Language, params: &Params, moves: &[Move]) -> f32 {
    let lexed: Vec<Lexed> = sheet.entries.iter().map(|e| lex(&e.text)).collect();
    let illegible: Vec<bool> = lexed.iter().map(is_illegible).collect();
    let strict: Vec<Vec<Reading>> = lexed.iter().map(|l| readings(&l.core, lang)).collect();
    Searcher::new(&lexed, &illegible, strict, lang, params).align(&Chess::default(), 0, moves)
}

impl<'a> Searcher<'a> {
    /// The cost of the cheapest way the entries from `start` on, read in
    /// `pos`, make exactly `moves` (or a first part of them, when the record
    /// stops early): every entry read as the next move, skipped, or read after
    /// a move that was not written. Lets a caller ask how well a given game
    /// fits the sheet, e.g. the game an arbiter settled on, next to the one
    /// the search found. Infinite when no alignment fits.
    pub fn align(&mut self, pos: &Chess, start: usize, moves: &[Move]) -> f32 {
        let params = *self.params;
        let n = self.lexed.len();
        let m = moves.len();
        let mut positions = Vec::with_capacity(m + 1);
        positions.push(pos.clone());
        for mv in moves {
            let mut next = positions.last().expect("one at least").clone();
            if !next.is_legal(*mv) {
                break;
            }
            next.play_unchecked(*mv);
            positions.push(next);
        }
        let m = m.min(positions.len() - 1);
        let legal: Vec<MoveList> = positions.iter().map(|p| p.legal_moves()).collect();
        let width = m + 1;
        let mut dp = vec![f32::INFINITY; (n - start + 1) * width];
        dp[0] = 0.0;
        for i in start..n {
            let row = (i - start) * width;
            let repeat = i > 0 && self.lexed[i].core == self.lexed[i - 1].core;
            for j in 0..=m {
                let here = dp[row + j];
                if !here.is_finite() {
                    continue;
                }
                let skip = if legal[j].is_empty() {
                    params.costs.after_end
                } else if repeat {
                    params.costs.skip_repeat
                } else {
                    params.costs.skip
                };
                let down = row + width + j;
                dp[down] = dp[down].min(here + skip);
                let read = |j: usize, this: &mut Self| -> f32 {
                    if this.illegible[i] {
                        params.costs.illegible
                    } else if this.exact(&positions[j], i) == Some(moves[j]) {
                        0.0
                    } else {
                        this.fit(i, &moves[j], &legal[j], &positions[j], f32::INFINITY)
                    }
                };
                if j < m {
                    let c = read(j, self);
                    dp[down + 1] = dp[down + 1].min(here + c);
                }
                if j + 1 < m {
                    let c = read(j + 1, self);
                    dp[down + 2] = dp[down + 2].min(here + params.costs.insert + c);
                }
            }
        }
        dp[(n - start) * width..].iter().copied().fold(f32::INFINITY, f32::min)
    }
}
