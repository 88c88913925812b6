//! The fit of a given game: how unlikely a game the search did not find is
//! given what the sheet says (the evaluation's measure of a search miss).

use shakmaty::{Chess, Move, MoveList, Position};

use super::budget::Meter;
use super::entries::{is_illegible, lex_sheet, repeats_block, strict_of};
use super::searcher::Searcher;
use crate::cost::{MOST_REPEATED, Params};
use crate::notation::Language;
use crate::notation::reading::Reading;
use crate::sheet::Sheet;

/// How unlikely `moves` (a game from the sheet's start, see
/// `Start::of`) are given what the
/// sheet says, under `lang` and `params`: the cost of the cheapest alignment
/// of the entries to them (see `Searcher::align`). Next to
/// [`Game::cost`](super::game::Game::cost) it tells whether a game the search did
/// not find fits the sheet better (a search miss) or worse (the costs prefer
/// the other reading). Infinite where the sheet's start cannot be used.
pub fn fit_cost(sheet: &Sheet, lang: &'static Language, params: &Params, moves: &[Move]) -> f32 {
    let Ok(start) = crate::start::Start::of(sheet) else { return f32::INFINITY };
    with_searcher(sheet, lang, params, None, |s| s.align(&start.position, 0, moves))
}

/// Runs `f` with a searcher of the sheet's entries under `lang`: for a
/// caller that weighs many games against one sheet, its caches kept; its
/// work counted on `meter` where one is given.
pub(crate) fn with_searcher<R>(
    sheet: &Sheet,
    lang: &'static Language,
    params: &Params,
    meter: Option<&Meter>,
    f: impl FnOnce(&mut Searcher<'_>) -> R,
) -> R {
    let lexed = lex_sheet(sheet);
    let illegible: Vec<bool> = lexed.iter().map(is_illegible).collect();
    let strict: Vec<Vec<Reading>> = lexed.iter().map(|l| strict_of(l, lang)).collect();
    let mut searcher = Searcher::new(&lexed, &illegible, strict, lang, params);
    searcher.first_ply = sheet.entries.first().and_then(|e| e.ply);
    f(&mut match meter {
        Some(m) => searcher.with_meter(m),
        None => searcher,
    })
}

impl<'a> Searcher<'a> {
    /// The cost of the cheapest way the entries from `start` on, read in
    /// `pos`, make exactly `moves` (or a first part of them, when the record
    /// stops early): every entry read as the next move, skipped, or read after
    /// one or two moves that were not written (a whole numbered move left out). Lets a caller ask how well a given game
    /// fits the sheet, e.g. the game an arbiter settled on, next to the one
    /// the search found. Infinite when no alignment fits.
    pub(crate) fn align(&mut self, pos: &Chess, start: usize, moves: &[Move]) -> f32 {
        self.alignment(pos, start, moves).cost
    }

    /// The cheapest alignment of the entries from `start` on to `moves`
    /// (see [`Searcher::align`]), with the entry each move was read from.
    ///
    /// Only alignments within [`DRIFT`] plies of the diagonal (each entry
    /// one move) are weighed, and the game's end: a record that drifts
    /// further has skipped or left out more moves than any sheet read right,
    /// and the table grows with the record, not with its square.
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
        let band = Band { m };
        let rows = n - start + 1;
        let mut dp = vec![f32::INFINITY; rows * Band::WIDTH];
        // How each cell was reached (see [`Step`]).
        let mut how = vec![Step::Skipped as u8; dp.len()];
        dp[band.cell(0, 0).expect("the origin is on the diagonal")] = 0.0;
        // A copy that starts late numbers its first line as played: the
        // moves before it are left out once, not one by one.
        if let Some(cell) = self.late_start(pos, start, m).and_then(|j| band.cell(0, j)) {
            dp[cell] = params.costs.insert;
        }
        let blocks = self.repeated_blocks();
        for i in start..n {
            let r = i - start;
            let repeat = i > 0 && self.lexed[i].core == self.lexed[i - 1].core;
            for j in band.columns(r) {
                let here = dp[band.cell(r, j).expect("a column of the row")];
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
                let mut relax = |row: usize, j: usize, cost: f32, step: u8| {
                    if let Some(cell) = band.cell(row, j)
                        && cost < dp[cell]
                    {
                        dp[cell] = cost;
                        how[cell] = step;
                    }
                };
                relax(r + 1, j, here + skip, Step::Skipped as u8);
                // Moves written again as a block (a line copied twice): one slip.
                for &k in blocks[i].iter().filter(|&&k| i >= start + k) {
                    relax(r + k, j, here + params.costs.skip_repeat, Step::Repeated as u8 + k as u8);
                }
                let read = |j: usize, this: &mut Self| -> f32 {
                    this.spend(1);
                    if this.illegible[i] {
                        params.costs.illegible
                    } else if this.exact(&positions[j], i) == Some(moves[j]) {
                        0.0
                    } else {
                        this.fit(i, &moves[j], &legal[j], &positions[j], f32::INFINITY)
                    }
                };
                if j < m && band.cell(r + 1, j + 1).is_some() {
                    let c = read(j, self);
                    relax(r + 1, j + 1, here + c, 1);
                }
                if j + 1 < m && band.cell(r + 1, j + 2).is_some() {
                    let c = read(j + 1, self);
                    relax(r + 1, j + 2, here + params.costs.insert + c, 2);
                }
                // A whole numbered move left out: both players' moves.
                if j + 2 < m && band.cell(r + 1, j + 3).is_some() {
                    let c = read(j + 2, self);
                    relax(r + 1, j + 3, here + 2.0 * params.costs.insert + c, 3);
                }
                if j + 2 < m && i + 2 < n && self.swapped(&positions, moves, i, j) {
                    relax(r + 3, j + 3, here + params.costs.swap, Step::Swapped as u8);
                }
            }
        }
        let last = n - start;
        let (j, cost) = band
            .columns(last)
            .map(|j| (j, dp[band.cell(last, j).expect("a column of the row")]))
            .fold((0, f32::INFINITY), |b, (j, c)| if c < b.1 { (j, c) } else { b });
        let entries = if cost.is_finite() { read_back(&how, &band, start..n, j) } else { vec![None; j] };
        Alignment { cost, entries }
    }

    /// The move a record that starts late begins at: its first entry
    /// numbered past the first move of a game from the standard start.
    fn late_start(&self, pos: &Chess, start: usize, m: usize) -> Option<usize> {
        let standard = pos.board() == Chess::default().board() && pos.turn() == shakmaty::Color::White;
        let j = (self.first_ply? as usize).checked_sub(1)?;
        (start == 0 && standard && j > 0 && j < m).then_some(j)
    }

    /// Whether entry `i` belongs to the second time of a block written twice
    /// over: skipping it is the slip of a line copied again, not a move left
    /// out.
    pub(super) fn written_again(&mut self, i: usize) -> bool {
        let blocks = self.repeated_blocks();
        (i.saturating_sub(MOST_REPEATED - 1)..=i).any(|s| blocks[s].iter().any(|&k| i < s + k))
    }

    /// For each entry, the lengths (2 to [`MOST_REPEATED`]) of the blocks of
    /// entries from it that repeat the entries just before it, legibly:
    /// moves written twice over. Worked out once per searcher: every game
    /// weighed against the sheet asks for them.
    fn repeated_blocks(&mut self) -> std::rc::Rc<[Vec<usize>]> {
        if let Some(b) = &self.repeated {
            return b.clone();
        }
        let n = self.lexed.len();
        let blocks: std::rc::Rc<[Vec<usize>]> =
            (0..n).map(|i| (2..=MOST_REPEATED).filter(|&k| repeats_block(self.lexed, i, k)).collect()).collect();
        self.repeated = Some(blocks.clone());
        blocks
    }

    /// Whether entries `i` and `i + 2` name, exactly, moves `j + 2` and `j`
    /// of `moves` (and entry `i + 1` move `j + 1`): two moves of one side
    /// written in each other's place.
    fn swapped(&self, positions: &[Chess], moves: &[Move], i: usize, j: usize) -> bool {
        // The first check fails at nearly every cell: it goes first.
        moves[j] != moves[j + 2]
            && self.names(&positions[j], i + 2) == Some(moves[j])
            && self.names(&positions[j + 2], i) == Some(moves[j + 2])
            && self.names(&positions[j + 1], i + 1) == Some(moves[j + 1])
    }
}

/// How a cell of the alignment table was reached from the row before (or
/// rows before): 1 to 3 are the moves the entry added (read after 0 to 2
/// moves not written).
#[repr(u8)]
enum Step {
    /// The entry is no move of the game.
    Skipped = 0,
    /// Three entries read as three moves, the first and the last in each
    /// other's place.
    Swapped = 4,
    /// A block of `k` entries written again, skipped: `Repeated + k`.
    Repeated = 10,
}

/// How far from the diagonal (entry `r` read as move `r`) an alignment may
/// go, in plies: 48 moves skipped or left out, each costing more than any
/// doubt's margin.
const DRIFT: usize = 96;

/// The cells of an alignment table kept: in each row, the columns within
/// [`DRIFT`] of the diagonal, and the game's end (`m`: entries past it are
/// skipped, however many).
struct Band {
    m: usize,
}

impl Band {
    /// Cells per row: the band, and one for the end when it lies outside.
    const WIDTH: usize = 2 * DRIFT + 2;

    /// Where cell (`r`, `j`) is kept, if it is.
    fn cell(&self, r: usize, j: usize) -> Option<usize> {
        if j > self.m {
            None
        } else if j + DRIFT >= r && j <= r + DRIFT {
            Some(r * Self::WIDTH + j + DRIFT - r)
        } else if j == self.m {
            Some(r * Self::WIDTH + Self::WIDTH - 1)
        } else {
            None
        }
    }

    /// The columns kept in row `r`, in order.
    fn columns(&self, r: usize) -> impl Iterator<Item = usize> + use<> {
        let m = self.m;
        let (lo, hi) = (r.saturating_sub(DRIFT).min(m), (r + DRIFT).min(m));
        // The end is always kept, and only it once the band has passed it.
        (lo..(hi + 1).min(m)).chain(std::iter::once(m))
    }
}

/// The entry each of the first `j` moves was read from, walking back from
/// the last entry through how each cell was reached (`how`, kept as `band`
/// keeps it).
fn read_back(how: &[u8], band: &Band, entries: std::ops::Range<usize>, mut j: usize) -> Vec<Option<usize>> {
    let start = entries.start;
    let mut out = vec![None; j];
    let mut row = entries.len();
    while row > 0 {
        let step = how[band.cell(row, j).expect("a cell on the path")];
        let i = start + row - 1;
        match step {
            0 => row -= 1,
            1..=3 => {
                out[j - 1] = Some(i);
                j -= step as usize;
                row -= 1;
            }
            s if s == Step::Swapped as u8 => {
                out[j - 3] = Some(i);
                out[j - 2] = Some(i - 1);
                out[j - 1] = Some(i - 2);
                j -= 3;
                row -= 3;
            }
            s => row -= (s - Step::Repeated as u8) as usize,
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

#[cfg(test)]
mod tests {
    use shakmaty::san::San;
    use shakmaty::{Chess, Move, Position};

    use super::*;
    use crate::ingest::{Format, read};

    /// A legal game of `plies` plies walked at random, captures put off so
    /// that it lasts.
    fn walk(plies: usize) -> Vec<Move> {
        let (mut x, mut pos, mut out) = (0x9E37_79B9_7F4A_7C15_u64, Chess::default(), Vec::new());
        while out.len() < plies {
            let moves = pos.legal_moves();
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let quiet: Vec<&Move> = moves.iter().filter(|m| !m.is_capture()).collect();
            let m = if quiet.is_empty() { moves[x as usize % moves.len()] } else { *quiet[x as usize % quiet.len()] };
            pos.play_unchecked(m);
            out.push(m);
        }
        out
    }

    /// The record of `moves`, numbered, without the numbered moves `leave_out` names.
    fn text(moves: &[Move], leave_out: impl Fn(usize) -> bool) -> String {
        let mut pos = Chess::default();
        let mut out = String::new();
        for (k, &m) in moves.iter().enumerate() {
            let san = San::from_move(&pos, m);
            pos.play_unchecked(m);
            if leave_out(k / 2) {
                continue;
            }
            if k % 2 == 0 {
                out += &format!("{}. ", k / 2 + 1);
            }
            out += &format!("{san} ");
        }
        out
    }

    fn cost(sheet_text: &str, moves: &[Move]) -> f32 {
        let sheet = &read(sheet_text.as_bytes(), Format::Text, 1 << 20).unwrap()[0];
        fit_cost(sheet, &crate::notation::LANGUAGES[0], &Params::default(), moves)
    }

    #[test]
    fn a_long_record_aligns_whole_along_its_diagonal() {
        let game = walk(600);
        assert_eq!(cost(&text(&game, |_| false), &game), 0.0);
    }

    #[test]
    fn numbered_moves_left_out_in_a_long_record_cost_their_insertions() {
        let game = walk(600);
        let insert = Params::default().costs.insert;
        // Ten whole moves left out, one every 30: the record drifts twenty
        // plies from its diagonal, within the band.
        let c = cost(&text(&game, |m| m % 30 == 29), &game);
        assert!(c > 0.0 && c <= 20.0 * insert, "{c}");
    }

    #[test]
    fn a_record_far_longer_than_the_game_skips_its_entries_past_the_end() {
        let game = walk(600);
        let after_end = Params::default().costs.after_end;
        // Past the band, the game's end is still kept: the extra entries are
        // read as written after it.
        let short = &game[..100];
        let c = cost(&text(&game, |_| false), short);
        assert!(c.is_finite() && c <= 500.0 * Params::default().costs.skip, "{c}");
        assert!(c >= 500.0 * after_end.min(Params::default().costs.skip_repeat), "{c}");
    }
}
