//! The fit of a given game: how unlikely a game the search did not find is
//! given what the sheet says (the evaluation's measure of a search miss).

use shakmaty::{Chess, Move, MoveList, Position};

use super::entries::{is_illegible, lex_sheet, strict_of};
use super::searcher::Searcher;
use crate::cost::Params;
use crate::notation::Language;
use crate::notation::reading::Reading;
use crate::sheet::Sheet;

/// How unlikely `moves` (a game from the sheet's start, see
/// [`Start::of`](crate::start::Start::of)) are given what the
/// sheet says, under `lang` and `params`: the cost of the cheapest alignment
/// of the entries to them (see `Searcher::align`). Next to
/// [`Game::cost`](super::game::Game::cost) it tells whether a game the search did
/// not find fits the sheet better (a search miss) or worse (the costs prefer
/// the other reading). Infinite where the sheet's start cannot be used.
pub fn fit_cost(sheet: &Sheet, lang: &'static Language, params: &Params, moves: &[Move]) -> f32 {
    let Ok(start) = crate::start::Start::of(sheet) else { return f32::INFINITY };
    with_searcher(sheet, lang, params, |s| s.align(&start.position, 0, moves))
}

/// Runs `f` with a searcher of the sheet's entries under `lang`: for a
/// caller that weighs many games against one sheet, its caches kept.
pub(crate) fn with_searcher<R>(
    sheet: &Sheet,
    lang: &'static Language,
    params: &Params,
    f: impl FnOnce(&mut Searcher<'_>) -> R,
) -> R {
    let lexed = lex_sheet(sheet);
    let illegible: Vec<bool> = lexed.iter().map(is_illegible).collect();
    let strict: Vec<Vec<Reading>> = lexed.iter().map(|l| strict_of(l, lang)).collect();
    f(&mut Searcher::new(&lexed, &illegible, strict, lang, params))
}

impl<'a> Searcher<'a> {
    /// The cost of the cheapest way the entries from `start` on, read in
    /// `pos`, make exactly `moves` (or a first part of them, when the record
    /// stops early): every entry read as the next move, skipped, or read after
    /// one or two moves that were not written (a whole numbered move left out). Lets a caller ask how well a given game
    /// fits the sheet, e.g. the game an arbiter settled on, next to the one
    /// the search found. Infinite when no alignment fits.
    pub fn align(&mut self, pos: &Chess, start: usize, moves: &[Move]) -> f32 {
        self.alignment(pos, start, moves).cost
    }

    /// The cheapest alignment of the entries from `start` on to `moves`
    /// (see [`Searcher::align`]), with the entry each move was read from.
    pub(crate) fn alignment(&mut self, pos: &Chess, start: usize, moves: &[Move]) -> Alignment {
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
        // How each cell was reached: the moves the last entry added (0 when
        // skipped, 1 read, 2 or 3 read after one or two moves not written).
        let mut how = vec![0u8; dp.len()];
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
                let mut relax = |cell: usize, cost: f32, added: u8| {
                    if cost < dp[cell] {
                        dp[cell] = cost;
                        how[cell] = added;
                    }
                };
                relax(down, here + skip, 0);
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
                    relax(down + 1, here + c, 1);
                }
                if j + 1 < m {
                    let c = read(j + 1, self);
                    relax(down + 2, here + params.costs.insert + c, 2);
                }
                // A whole numbered move left out: both players' moves.
                if j + 2 < m {
                    let c = read(j + 2, self);
                    relax(down + 3, here + 2.0 * params.costs.insert + c, 3);
                }
            }
        }
        let last = (n - start) * width;
        let (j, cost) = dp[last..]
            .iter()
            .copied()
            .enumerate()
            .fold((0, f32::INFINITY), |b, (j, c)| if c < b.1 { (j, c) } else { b });
        let entries = if cost.is_finite() { read_back(&how, width, start..n, j) } else { vec![None; j] };
        Alignment { cost, entries }
    }
}

/// The entry each of the first `j` moves was read from, walking back from
/// the last entry through how each cell was reached (`how`, rows of `width`).
fn read_back(how: &[u8], width: usize, entries: std::ops::Range<usize>, mut j: usize) -> Vec<Option<usize>> {
    let start = entries.start;
    let mut out = vec![None; j];
    for i in entries.rev() {
        let added = how[(i - start + 1) * width + j] as usize;
        if added > 0 {
            out[j - 1] = Some(i);
            j -= added;
        }
    }
    out
}

/// The cheapest alignment of a sheet's entries to a game.
pub(crate) struct Alignment {
    pub cost: f32,
    /// For each move aligned (the game's first part when the record stops
    /// early), the entry read as it; `None` for a move that was not written.
    pub entries: Vec<Option<usize>>,
}
