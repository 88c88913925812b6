//! Repair search: when an entry names no legal move, a beam search over legal
//! games re-reads a window of the sheet around it — from a few entries before
//! (a wrong but legal reading often shows only later) until the best reading is
//! clearly ahead — with every way the writer or typist could have erred:
//! a fuzzy reading of an entry, an entry written twice or stray (skipped), a
//! move not written (inserted), an illegible box (any legal move).

use rustc_hash::FxHashMap as HashMap;

use shakmaty::{Bitboard, CastlingSide, Chess, File, Move, MoveList, Position, Role, Square, attacks, san::San};

use crate::cost::{
    FULL_RANKS, MAX_ALTERNATIVES, MAX_FUZZY_LEN, MAX_TIED_INSERTS, PLAUSIBLE_CLOSEST, Params, TIE_BEAM_FACTOR,
    TIE_WIDTH_ILLEGIBLE,
};
use crate::notation::distance::{Rows, Written};
use crate::notation::forms::{Forms, fit, forms};
use crate::notation::lex::{CheckMark, Lexed};
use crate::notation::reading::{Reading, Target, exact_move};
use crate::notation::targets::Targets;
use crate::notation::{LANGUAGES, Language};
use crate::reconstruct::book::Book;
use crate::reconstruct::prior;

/// How much more than a node its children may cost.
#[derive(Debug, Clone, Copy)]
struct Budget {
    /// Readings of the entry.
    read: f32,
    /// A move not written, then the entry; `None`: not tried.
    insert: Option<f32>,
    /// Whether, where even the node's best reading of the entry pays as much
    /// as a move not written, the insertion may cost up to the beam's margin
    /// past that reading (the best few nodes only).
    widen: bool,
}

/// Whether a window gives up on its readings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GiveUp {
    /// It reads on.
    No,
    /// Its cheapest reading already adds more than a repair may.
    Costly,
    /// Its cheapest reading can no longer beat another already made (another
    /// language's).
    Beaten,
}

/// One step of a reconstruction.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Step {
    /// Entry `entry` read as `mv`, at `cost` (0: exactly as written).
    Read { entry: usize, mv: Move, cost: f32 },
    /// Entry `entry` is not a move of the game.
    Skip { entry: usize, cost: f32 },
    /// A move that was not written, then entry `entry` read as `mv`.
    InsertRead { inserted: Move, entry: usize, mv: Move, cost: f32 },
}

impl Step {
    pub fn cost(&self) -> f32 {
        match self {
            Step::Read { cost, .. } | Step::Skip { cost, .. } | Step::InsertRead { cost, .. } => *cost,
        }
    }

    /// The entry the step reads (or skips).
    pub fn entry(&self) -> usize {
        match *self {
            Step::Read { entry, .. } | Step::Skip { entry, .. } | Step::InsertRead { entry, .. } => entry,
        }
    }

    /// The moves this step adds to the game.
    pub fn moves(&self) -> impl Iterator<Item = Move> {
        let (a, b) = match *self {
            Step::Read { mv, .. } => (None, Some(mv)),
            Step::Skip { .. } => (None, None),
            Step::InsertRead { inserted, mv, .. } => (Some(inserted), Some(mv)),
        };
        a.into_iter().chain(b)
    }
}

/// The outcome of re-reading one window.
#[derive(Debug, Clone)]
pub struct Window {
    /// The steps of the best reading, from the window's first entry.
    pub steps: Vec<Step>,
    /// Entry the window ends before.
    pub end: usize,
    /// How much costlier the best different reading is (infinite when none survived).
    pub margin: f32,
    /// The same for each step: how much costlier the best reading that plays
    /// something else at that step is.
    pub margins: Vec<f32>,
    /// The steps whose best reading is not clearly ahead (index into `steps`)
    /// and the moves, in SAN, that the close readings play there.
    pub doubts: Vec<(usize, Vec<String>)>,
    /// The first step (index into `steps`) where a close reading that puts
    /// a step in doubt parts from the best: a later window must start there
    /// to weigh them again.
    pub unsettled: Option<usize>,
}

/// What [`Searcher::judge`] makes of a beam.
#[derive(Debug, Clone)]
struct Judgement {
    /// The smallest of `margins` (infinite when nothing was repaired or no rival survived).
    margin: f32,
    margins: Vec<f32>,
    /// The steps in doubt: (first ply of the step, step).
    doubted: Vec<(usize, usize)>,
    /// The moves of the close readings, the best first.
    close: Vec<Vec<Move>>,
    unsettled: Option<usize>,
}

impl Judgement {
    /// Each step in doubt with the moves, in SAN, that the close readings play there.
    fn doubts(&self, start: &Chess) -> Vec<(usize, Vec<String>)> {
        if self.doubted.is_empty() {
            return Vec::new();
        }
        let last = self.doubted.iter().map(|(p, _)| *p).max().unwrap_or(0);
        let lines: Vec<Vec<String>> =
            self.close.iter().map(|line| sans(start, &line[..line.len().min(last + 1)])).collect();
        self.doubted
            .iter()
            .map(|&(p, k)| {
                let mut alternatives: Vec<String> = Vec::new();
                for san in lines.iter().filter_map(|line| line.get(p)) {
                    if !alternatives.contains(san) {
                        alternatives.push(san.clone());
                    }
                }
                (k, alternatives)
            })
            .collect()
    }
}

struct Node {
    /// Rank in the beam, at the step before, of the node this one extends:
    /// positions are kept for the beam only, and made when a node enters it.
    from: usize,
    /// Identifies the moves played since the window started: two readings are
    /// merged only when they play the same moves (they differ in alignment
    /// only); readings that reach one position by different moves are
    /// different games and both are kept, so the runner-up is not lost.
    line: u64,
    cost: f32,
    parent: usize,
    step: Option<Step>,
}

const ROOT: usize = usize::MAX;

/// Re-reads entries from `start` in position `pos`, where entry `failed` could
/// not be read exactly.
pub struct Searcher<'a> {
    pub lexed: &'a [Lexed<'a>],
    pub illegible: &'a [bool],
    pub strict: &'a [Vec<Reading>],
    pub lang: &'static Language,
    pub params: &'a Params,
    entries: Vec<Option<Entry>>,
    /// The nodes of the last window (kept for their room).
    arena: Vec<Node>,
    /// Readings already weighed, by [`fit_key`].
    fits: HashMap<u64, f32>,
    buf: Forms,
    no_moves: MoveList,
    /// Piece letters of the sheet's language and of English.
    pieces: Vec<char>,
    /// The substitution rows of the characters read so far.
    rows: Rows,
    /// How often players chose moves in the opening, for [`prior`].
    book: Option<Book<'a>>,
    /// Set once the plausibility has put a costlier reading first.
    prior_chose: std::cell::Cell<bool>,
}

impl<'a> Searcher<'a> {
    pub fn new(
        lexed: &'a [Lexed<'a>],
        illegible: &'a [bool],
        strict: &'a [Vec<Reading>],
        lang: &'static Language,
        params: &'a Params,
    ) -> Self {
        let entries = lexed.iter().map(|_| None).collect();
        Searcher {
            lexed,
            illegible,
            strict,
            lang,
            params,
            entries,
            arena: Vec::new(),
            fits: HashMap::default(),
            buf: Forms::default(),
            no_moves: MoveList::new(),
            rows: Rows::default(),
            pieces: lang.pieces.iter().chain(LANGUAGES[0].pieces.iter()).filter_map(|p| p[0].chars().next()).collect(),
            book: None,
            prior_chose: std::cell::Cell::new(false),
        }
    }

    /// The same searcher, with `book` for the plausibility of readings in doubt.
    pub fn with_book(mut self, book: Option<Book<'a>>) -> Self {
        self.book = book.filter(|_| self.params.limits.prior_reach > 0.0);
        self
    }

    /// How likely the book finds `mv` in `pos` (a natural log; 0 where it
    /// knows nothing of `pos`, or without a book).
    pub(crate) fn move_prior(&self, pos: &Chess, mv: &Move) -> f32 {
        self.book.and_then(|b| b.log_prior(pos, mv)).unwrap_or(0.0)
    }

    /// The plausibility's preference of `lines` (moves from `start`) costing
    /// `costs` (see [`prior`]): the index of the one whose plausibility less
    /// its cost is highest, of those within `prior_reach` of the cheapest;
    /// `None` when `prior_reach` is 0.
    pub(crate) fn prior_choice(&self, start: &Chess, lines: &[&[Move]], costs: &[f32]) -> Option<usize> {
        if self.params.limits.prior_reach <= 0.0 {
            return None;
        }
        let least = costs.iter().copied().fold(f32::INFINITY, f32::min);
        let scores = prior::line_scores(self.book.as_ref(), start, lines);
        tracing::trace!(?scores, ?costs, "readings weighed by their plausibility");
        let choice = (0..lines.len())
            .filter(|&i| costs[i] <= least + self.params.limits.prior_reach)
            .max_by(|&a, &b| (scores[a] - costs[a]).total_cmp(&(scores[b] - costs[b])).then(b.cmp(&a)));
        if choice.is_some_and(|i| costs[i] > least) {
            self.prior_chose.set(true);
        }
        choice
    }

    /// Whether the plausibility has put a costlier reading first (see
    /// [`Searcher::prior_choice`]).
    pub(crate) fn prior_chose(&self) -> bool {
        self.prior_chose.get()
    }

    /// The exact reading of entry `i` in `pos`, if it names exactly one move.
    pub(crate) fn exact(&self, pos: &Chess, i: usize) -> Option<Move> {
        if self.illegible[i] {
            return None;
        }
        exact_move(pos, &self.strict[i]).filter(|m| mark_cost(self.params, pos, self.lexed[i].check, m) == 0.0)
    }

    /// Beam search from entry `start` in `pos`; entry `failed` is the one that
    /// could not be read exactly.
    /// Ends with no steps as soon as `hopeless` gives up on the cost of the
    /// cheapest reading so far (a window grown past its close for want of a
    /// clear margin ends where it could first have closed, unless beaten).
    pub fn window(&mut self, pos: &Chess, start: usize, failed: usize, hopeless: impl Fn(f32) -> GiveUp) -> Window {
        let n = self.lexed.len();
        let p = *self.params;
        // The arena's room is kept from window to window.
        let mut arena = std::mem::take(&mut self.arena);
        arena.clear();
        arena.push(Node { from: 0, line: 0, cost: 0.0, parent: ROOT, step: None });
        let mut beam = vec![0usize];
        let mut next: Vec<usize> = Vec::new();
        // The position of each node of the beam, by rank.
        let mut positions = vec![pos.clone()];
        let mut children: Vec<Step> = Vec::new();
        let mut seen: HashMap<u64, usize> = HashMap::default();
        let mut i = start;
        let close_at = (failed + 1 + p.limits.ahead).min(n);
        let limit = (failed + 1 + p.limits.ahead_max).min(n);
        // The judgement that closed the window, when one did.
        let mut verdict = None;
        // Where the window could first have closed, in doubt: a window grown
        // past it that turns hopeless (the entries after the failure taken as
        // written, one of them wrongly) ends there instead, in doubt, and
        // the next window reads on; the game is not cut (sheet 392 of the
        // generated set).
        let mut could_close: Option<(Vec<usize>, usize, Judgement)> = None;
        loop {
            if i >= close_at {
                let judged = self.judge(&arena, &beam, pos);
                if judged.margin >= p.limits.review_margin || i >= limit {
                    verdict = Some(judged);
                    break;
                }
                if could_close.is_none() {
                    could_close = Some((beam.clone(), i, judged));
                }
            }
            next.clear();
            seen.clear();
            // Nodes are kept within the margin of the best of the next entry.
            // Where every node pays for this entry (the one that failed), a
            // node a little behind may still be the one a move not written
            // explains: among the best few, its insertion is weighed against
            // the best child so far, not against this entry's best node (sheet
            // 518: 30...hxg6 not written, then `Hf4` for 31.Bf4).
            let cutoff = arena[beam[0]].cost + p.limits.beam_margin;
            let mut best_child = f32::INFINITY;
            for (rank, &id) in beam.iter().enumerate() {
                let budget = cutoff - arena[id].cost;
                // Every node tied with the best tries a move not written: an
                // illegible box makes thirty readings alike, and the one a
                // move not written explains later may be any of them.
                let tied_with_best = arena[id].cost <= arena[beam[0]].cost && rank < MAX_TIED_INSERTS;
                let insert_budget = (rank < p.limits.insert_nodes || tied_with_best).then(|| {
                    if best_child.is_finite() && rank < FULL_RANKS {
                        budget.max(best_child + p.limits.beam_margin - arena[id].cost)
                    } else {
                        budget
                    }
                });
                let locked = i > failed + 1 || (rank >= FULL_RANKS && !tied_with_best && i != failed);
                let budget = Budget { read: budget, insert: insert_budget, widen: rank < FULL_RANKS };
                self.expand(&positions[rank], i, budget, locked, &mut children);
                for &step in &children {
                    let cost = arena[id].cost + step.cost();
                    best_child = best_child.min(cost);
                    let line = step.moves().fold(arena[id].line, |h, m| extend(h, &m));
                    let h = line;
                    match seen.get(&h) {
                        Some(&j) if arena[j].cost <= cost => continue,
                        Some(&j) => {
                            arena[j] = Node { from: rank, line, cost, parent: id, step: Some(step) };
                        }
                        None => {
                            seen.insert(h, arena.len());
                            next.push(arena.len());
                            arena.push(Node { from: rank, line, cost, parent: id, step: Some(step) });
                        }
                    }
                }
            }
            // Only the nodes within the margin are sorted: a stable sort keeps
            // them in the order it would among all.
            let best = next.iter().map(|&j| arena[j].cost).min_by(f32::total_cmp).unwrap_or(0.0);
            let give_up = if next.is_empty() { GiveUp::No } else { hopeless(best) };
            if give_up != GiveUp::No {
                if give_up == GiveUp::Costly
                    && let Some((kept, at, judged)) = could_close.take()
                {
                    (beam, i, verdict) = (kept, at, Some(judged));
                    break;
                }
                self.arena = arena;
                return Window {
                    steps: Vec::new(),
                    end: i,
                    margin: f32::INFINITY,
                    margins: Vec::new(),
                    doubts: Vec::new(),
                    unsettled: None,
                };
            }
            next.retain(|&j| arena[j].cost <= best + p.limits.beam_margin);
            next.sort_by(|a, b| arena[*a].cost.total_cmp(&arena[*b].cost));
            // Boxes nobody could read give every legal move the same cost: the
            // beam is not cut inside such a tie, which only later entries settle.
            let tied = next.partition_point(|&j| arena[j].cost <= best + TIE_WIDTH_ILLEGIBLE * p.costs.illegible);
            next.truncate(p.limits.beam.max(tied.min(TIE_BEAM_FACTOR * p.limits.beam)));
            positions = next
                .iter()
                .map(|&j| {
                    let mut pos = positions[arena[j].from].clone();
                    for m in arena[j].step.iter().flat_map(Step::moves) {
                        pos.play_unchecked(m);
                    }
                    pos
                })
                .collect();
            std::mem::swap(&mut beam, &mut next);
            i += 1;
            if beam.is_empty() || i >= n {
                break;
            }
        }
        let mut judged = verdict.unwrap_or_else(|| self.judge(&arena, &beam, pos));
        if !judged.doubted.is_empty() && self.prefer_plausible(&arena, &mut beam, pos) {
            judged = self.judge(&arena, &beam, pos);
        }
        self.more_alternatives(&arena, &beam, &mut judged);
        let doubts = judged.doubts(pos);
        let Judgement { margin, margins, unsettled, .. } = judged;
        if tracing::enabled!(tracing::Level::TRACE) {
            for &id in beam.iter().take(8) {
                let line: Vec<String> = path(&arena, id)
                    .iter()
                    .map(|s| format!("{}{:?}", s.cost(), s.moves().map(|m| m.to_string()).collect::<Vec<_>>()))
                    .collect();
                tracing::trace!(
                    start,
                    end = i,
                    failed,
                    margin,
                    cost = arena[id].cost,
                    line = line.join(" "),
                    "repair window"
                );
            }
        }
        let steps = beam.first().map(|&b| path(&arena, b)).unwrap_or_default();
        self.arena = arena;
        Window { steps, end: i, margin, margins, doubts, unsettled }
    }

    /// The judgement names one rival per doubt, the first it meets; an arbiter
    /// wants every move that fits (an illegible box may allow six). The other
    /// close readings that play something else at a doubted ply are added, up
    /// to [`MAX_ALTERNATIVES`] lines, in the beam's order.
    fn more_alternatives(&self, arena: &[Node], beam: &[usize], judged: &mut Judgement) {
        let Some(&best) = beam.first() else { return };
        if judged.doubted.is_empty() {
            return;
        }
        let limit = arena[best].cost + self.params.limits.review_margin;
        for &id in &beam[1..] {
            if judged.close.len() >= MAX_ALTERNATIVES || arena[id].cost >= limit {
                break;
            }
            let line = moves_of(arena, id);
            let new_at = |&(p, _): &(usize, usize)| {
                line.get(p).is_some_and(|m| judged.close.iter().all(|c| c.get(p) != Some(m)))
            };
            if judged.doubted.iter().any(new_at) {
                judged.close.push(line);
            }
        }
    }

    /// Puts first the close reading whose moves are the likelier (see
    /// [`Params::prior_reach`]); whether it moved one.
    fn prefer_plausible(&self, arena: &[Node], beam: &mut Vec<usize>, start: &Chess) -> bool {
        // The beam is sorted by cost; a few of the closest are weighed.
        let close: Vec<usize> = beam
            .iter()
            .take(PLAUSIBLE_CLOSEST)
            .take_while(|&&id| arena[id].cost <= arena[beam[0]].cost + self.params.limits.prior_reach)
            .copied()
            .collect();
        if close.len() < 2 {
            return false;
        }
        let lines: Vec<Vec<Move>> = close.iter().map(|&id| moves_of(arena, id)).collect();
        let refs: Vec<&[Move]> = lines.iter().map(Vec::as_slice).collect();
        let costs: Vec<f32> = close.iter().map(|&id| arena[id].cost).collect();
        match self.prior_choice(start, &refs, &costs) {
            Some(k) if k > 0 => {
                let id = beam.remove(k);
                beam.insert(0, id);
                true
            }
            _ => false,
        }
    }

    /// The cost of the cheapest way the entries from `start` on, read in
    /// `pos`, make exactly `moves` (or a first part of them, when the record
    /// stops early): every entry read as the next move, skipped, or read after
    /// a move that was not written. Lets a caller ask how well a given game
    /// fits the sheet, e.g. the game an arbiter settled on, next to the one
    /// the search found. Infinite when no alignment fits.
    pub fn align(&mut self, pos: &Chess, start: usize, moves: &[Move]) -> f32 {
        let p = *self.params;
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
                    p.costs.after_end
                } else if repeat {
                    p.costs.skip_repeat
                } else {
                    p.costs.skip
                };
                let down = row + width + j;
                dp[down] = dp[down].min(here + skip);
                let read = |j: usize, this: &mut Self| -> f32 {
                    if this.illegible[i] {
                        p.costs.illegible
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
                    dp[down + 2] = dp[down + 2].min(here + p.costs.insert + c);
                }
            }
        }
        dp[(n - start) * width..].iter().copied().fold(f32::INFINITY, f32::min)
    }

    /// What reading entry `entry` as `mv` in `pos` costs (infinite past `max_fit`).
    pub(crate) fn reading_cost(&mut self, pos: &Chess, entry: usize, mv: &Move) -> f32 {
        if self.illegible[entry] {
            return self.params.costs.illegible;
        }
        if self.exact(pos, entry) == Some(*mv) {
            return 0.0;
        }
        let legal = pos.legal_moves();
        let cost = self.fit(entry, mv, &legal, pos, f32::INFINITY);
        if cost <= self.params.limits.max_fit { cost } else { f32::INFINITY }
    }

    /// Single slips made before a repair that would explain it: for each of
    /// the first `tried` steps read exactly as written, each other legal move
    /// its entry could be read as, followed by the later entries read exactly
    /// as written where they can be (a skipped entry stays skipped, a move
    /// not written stays inserted, another repair stays when its move is still
    /// legal). `pos` is the position before `steps[0]`. Returns the rival
    /// readings of `steps[k..]` costing less than the current ones plus
    /// `slack`, and whose later steps cost less than the current ones (the
    /// slip explains a repair), as (k, steps, cost), cheapest first.
    ///
    /// A slip that makes another legal move (`a4` for `d4`) shows only when a
    /// later entry cannot be read, often beyond any window; the repair of that
    /// later entry is then weighed against the slip itself.
    pub fn slips(&mut self, pos: &Chess, steps: &[Step], tried: usize, slack: f32) -> Vec<(usize, Vec<Step>, f32)> {
        let mut after = vec![0.0f32; steps.len() + 1];
        // The costliest single step after each: a slip explains one repair,
        // so it must cost less than that one plus `slack`.
        let mut largest = vec![0.0f32; steps.len() + 1];
        for k in (0..steps.len()).rev() {
            after[k] = after[k + 1] + steps[k].cost();
            largest[k] = largest[k + 1].max(steps[k].cost());
        }
        let mut out = Vec::new();
        let mut p = pos.clone();
        for k in 0..tried.min(steps.len()) {
            let here = p.clone();
            for m in steps[k].moves() {
                p.play_unchecked(m);
            }
            let Step::Read { entry, mv, cost } = steps[k] else { continue };
            if cost > 0.0 || after[k + 1] <= 0.0 || self.illegible[entry] {
                continue;
            }
            let limit = (largest[k + 1] + slack).min(self.params.limits.max_fit);
            let moves = here.legal_moves();
            let quick = self.entry(entry).quick;
            for m in &moves {
                if *m == mv || quick.rules_out(m, limit) {
                    continue;
                }
                let c = self.fit(entry, m, &moves, &here, limit);
                if c >= limit {
                    continue;
                }
                let mut q = here.clone();
                q.play_unchecked(*m);
                let mut line = vec![Step::Read { entry, mv: *m, cost: c }];
                let mut total = c;
                for s in &steps[k + 1..] {
                    let Some(next) = self.follow(&q, s) else { break };
                    total += next.cost();
                    if total >= after[k] + slack {
                        break;
                    }
                    for m2 in next.moves() {
                        q.play_unchecked(m2);
                    }
                    line.push(next);
                }
                // A slip that leaves every later repair in place explains
                // nothing: it is one more slip, unlikely by its own cost.
                if line.len() == steps.len() - k && total - c < after[k + 1] {
                    out.push((k, line, total));
                }
            }
        }
        out.sort_by(|a, b| a.2.total_cmp(&b.2));
        out
    }

    /// Step `s` of a reading taken in another position `q`: read exactly as
    /// written if it can be, else as the step itself where that is legal.
    fn follow(&self, q: &Chess, s: &Step) -> Option<Step> {
        let legal = |m: &Move| q.is_legal(*m);
        match *s {
            Step::Skip { .. } => Some(*s),
            Step::Read { entry, mv, cost } => match self.exact(q, entry) {
                Some(m) if !self.illegible[entry] => Some(Step::Read { entry, mv: m, cost: 0.0 }),
                _ if cost > 0.0 && legal(&mv) => Some(*s),
                _ => None,
            },
            Step::InsertRead { inserted, entry, mv, cost } => {
                if !legal(&inserted) {
                    return None;
                }
                let mut r = q.clone();
                r.play_unchecked(inserted);
                match self.exact(&r, entry) {
                    Some(m) => Some(Step::InsertRead { inserted, entry, mv: m, cost: self.params.costs.insert }),
                    None if r.is_legal(mv) => Some(Step::InsertRead { inserted, entry, mv, cost }),
                    None => None,
                }
            }
        }
    }

    /// How clearly the best node is ahead, step by step: for each step the best
    /// reading had to repair, the cost gap to the cheapest node that plays
    /// something else at that step. A node that differs only where the best
    /// reads exactly stands for one more slip, and its own cost says how
    /// unlikely that is. A step is judged on its own rivals: a close call
    /// elsewhere in the window does not put a clear repair in doubt.
    ///
    /// Called at every entry while a window may close, so only the moves that
    /// differ are named (without check marks: the same reading of an entry
    /// may check in one line and not in another), and the alternatives are
    /// rendered by [`Judgement::doubts`], once the window has closed.
    fn judge(&self, arena: &[Node], beam: &[usize], start: &Chess) -> Judgement {
        let Some((&best, rest)) = beam.split_first() else {
            return Judgement {
                margin: f32::INFINITY,
                margins: Vec::new(),
                doubted: Vec::new(),
                close: Vec::new(),
                unsettled: None,
            };
        };
        let best_steps = path(arena, best);
        let best_moves: Vec<Move> = best_steps.iter().flat_map(Step::moves).collect();
        // Plies the best reading repaired, with the step they belong to.
        let mut repaired: Vec<(usize, usize)> = Vec::new();
        let mut ply = 0;
        // The step each ply of the best reading belongs to.
        let mut plies: Vec<(usize, usize)> = Vec::new();
        // Plies read as written where an equally cheap reading plays something else.
        let mut tied: Vec<(usize, usize)> = Vec::new();
        for (k, step) in best_steps.iter().enumerate() {
            let n = step.moves().count();
            plies.extend((ply..ply + n).map(|p| (p, k)));
            if step.cost() > 0.0 {
                if n == 0 {
                    repaired.push((ply, k));
                }
                repaired.extend((ply..ply + n).map(|p| (p, k)));
            }
            ply += n;
        }
        let mut margins = vec![f32::INFINITY; best_steps.len()];
        // A different move object with the same SAN (the same move from a
        // position that differs earlier, where the best reads exactly) is
        // not a different reading.
        let differs = |other: &[Move], p: usize| match (other.get(p), best_moves.get(p)) {
            (Some(a), Some(b)) => a != b && san_at(start, other, p) != san_at(start, &best_moves, p),
            (a, b) => a.is_some() || b.is_some(),
        };
        // The close readings (within the review margin), for the alternatives.
        let mut close: Vec<Vec<Move>> = vec![best_moves.clone()];
        let mut open = repaired.clone();
        let mut unsettled: Option<usize> = None;
        for &id in rest {
            if open.is_empty() {
                break;
            }
            let margin = arena[id].cost - arena[best].cost;
            if margin >= self.params.limits.review_margin {
                // Every later node costs more: this bounds the margin of every step still open.
                for &(_, k) in &open {
                    margins[k] = margins[k].min(margin);
                }
                open.clear();
                break;
            }
            let other = moves_of(arena, id);
            if !open.iter().any(|&(p, _)| other.get(p) != best_moves.get(p)) {
                // It differs only where the best reads as written: one more
                // slip, unlikely by its own cost, unless it is as cheap as the
                // best (it explains a repair of the best some other way).
                if margin < self.params.limits.tie_margin
                    && let Some(p) = (0..best_moves.len().max(other.len())).find(|&p| other.get(p) != best_moves.get(p))
                    && let Some(&(_, k)) = plies.get(p)
                    && margins[k].is_infinite()
                    && differs(&other, p)
                {
                    margins[k] = margin;
                    tied.push((p, k));
                    close.push(other);
                    unsettled = Some(unsettled.map_or(k, |u: usize| u.min(k)));
                }
                continue;
            }
            let before = open.len();
            open.retain(|&(p, k)| {
                let d = differs(&other, p);
                if d {
                    margins[k] = margins[k].min(margin);
                }
                !d
            });
            if open.len() < before
                && let Some(p) = (0..best_moves.len().max(other.len())).find(|&p| other.get(p) != best_moves.get(p))
            {
                let k = plies.get(p).map_or(best_steps.len().saturating_sub(1), |&(_, k)| k);
                unsettled = Some(unsettled.map_or(k, |u: usize| u.min(k)));
            }
            close.push(other);
        }
        let mut doubted: Vec<(usize, usize)> = Vec::new();
        for &(p, k) in repaired.iter().chain(&tied) {
            if margins[k] < self.params.limits.review_margin && !doubted.iter().any(|(_, d)| *d == k) {
                doubted.push((p, k));
            }
        }
        let margin = margins.iter().copied().fold(f32::INFINITY, f32::min);
        // Only a doubt left open makes the first place the readings part worth keeping.
        let unsettled = unsettled.filter(|_| !doubted.is_empty());
        Judgement { margin, margins, doubted, close, unsettled }
    }

    /// Every way to read entry `i` in `pos`, into `out` (a buffer reused across nodes).
    /// Past the failing entry (`locked`), an entry that reads exactly is taken
    /// as written: the window is there to find the slip, and doubting correct
    /// entries after it would only crowd the beam with one-more-slip readings.
    /// A move not written is tried before the entry only with an insertion budget.
    fn expand(&mut self, pos: &Chess, i: usize, budget: Budget, locked: bool, out: &mut Vec<Step>) {
        let p = *self.params;
        let Budget { read: budget, insert: insert_budget, widen } = budget;
        out.clear();
        if locked && let Some(mv) = self.exact(pos, i) {
            out.push(Step::Read { entry: i, mv, cost: 0.0 });
            return;
        }
        let moves = pos.legal_moves();
        let repeat = i > 0 && self.lexed[i].core == self.lexed[i - 1].core;
        if moves.is_empty() {
            out.push(Step::Skip { entry: i, cost: p.costs.after_end });
            return;
        }
        // Most moves are ruled out by the entry's tables, without a call.
        let illegible = self.illegible[i];
        let quick = if illegible { Quick::NONE } else { self.entry(i).quick };
        let mut cheapest = f32::INFINITY;
        for m in &moves {
            let cost = if illegible {
                p.costs.illegible
            } else if quick.rules_out(m, budget.min(p.limits.max_fit)) {
                f32::INFINITY
            } else {
                self.fit(i, m, &moves, pos, budget)
            };
            cheapest = cheapest.min(cost);
            if cost <= p.limits.max_fit && cost <= budget {
                out.push(Step::Read { entry: i, mv: *m, cost });
            }
        }
        let skip = if repeat { p.costs.skip_repeat } else { p.costs.skip };
        if skip <= budget {
            out.push(Step::Skip { entry: i, cost: skip });
        }
        // A move not written before an illegible box is read as well after
        // it, as the box's move with the next entry's insertion, at the same
        // cost: only the last box needs it.
        let insert_budget = insert_budget.filter(|_| !(illegible && i + 1 < self.lexed.len()));
        // Where even the best reading pays for this entry, a move not written
        // is weighed against that reading, not against the node (sheet 368 of
        // the generated set: `NeS` after a move not written, where skipping
        // the entry cost 7 and the insertion 6 + 2.5 was cut at 8).
        let own_best = cheapest.min(skip);
        let insert_budget = insert_budget
            .map(|b| if widen && own_best >= p.costs.insert { b.max(own_best + p.limits.beam_margin) } else { b });
        if let Some(insert_budget) = insert_budget
            && cheapest > self.params.limits.insert_trigger
            && p.costs.insert <= insert_budget
        {
            // The reading after a move not written must fit within the
            // budget the insertion leaves.
            let limit = p.costs.edits.confusable.min(p.limits.max_fit).min(insert_budget - p.costs.insert);
            // After the move not written, only moves to a square the entry
            // could name within `limit` (and castling) can be read: those
            // alone are made, not every legal move (the search's inner loop).
            let targets = if illegible { (Bitboard::FULL, Bitboard::EMPTY) } else { quick.admissible(limit) };
            let mut moves1 = MoveList::new();
            for m1 in &moves {
                let mut p1 = pos.clone();
                p1.play_unchecked(*m1);
                moves_to(&p1, targets, &mut moves1);
                for m2 in &moves1 {
                    let cost = if illegible {
                        p.costs.illegible
                    } else if quick.rules_out(m2, limit) {
                        f32::INFINITY
                    } else {
                        self.fit(i, m2, &moves1, &p1, limit)
                    };
                    if cost <= limit {
                        out.push(Step::InsertRead { inserted: *m1, entry: i, mv: *m2, cost: p.costs.insert + cost });
                    }
                }
            }
        }
    }

    /// Entry `i` prepared for fuzzy reading.
    fn entry(&mut self, i: usize) -> &Entry {
        let p = self.params;
        let (lexed, strict, lang, pieces, rows) =
            (&self.lexed[i], &self.strict[i], self.lang, &self.pieces, &mut self.rows);
        self.entries[i].get_or_insert_with(|| Entry::new(lexed, strict, lang, p, pieces, rows))
    }

    /// How far entry `i` is from move `m`: 0 when it reads exactly, else the
    /// weighted distance to the nearest form of the move.
    fn fit(&mut self, i: usize, m: &Move, moves: &MoveList, pos: &Chess, bound: f32) -> f32 {
        let c = self.fit_letters(i, m, moves, pos, bound);
        if c.is_finite() { c + mark_cost(self.params, pos, self.lexed[i].check, m) } else { c }
    }

    /// How far entry `i`'s letters are from move `m`, its check sign aside.
    fn fit_letters(&mut self, i: usize, m: &Move, moves: &MoveList, pos: &Chess, bound: f32) -> f32 {
        let p = self.params;
        self.entry(i);
        let entry = self.entries[i].as_ref().expect("prepared above");
        // A strict reading (exact, or loose: a lowercase piece letter, a pawn
        // letter, the promotion piece left out) costs what the reading costs.
        let castle = m.is_castle();
        if (castle || entry.quick.strict_to.contains(m.to()))
            && let Some(c) = self.strict[i].iter().filter(|r| r.matches(m)).map(|r| f32::from(r.cost)).reduce(f32::min)
        {
            // "Cf3" with two knights able (FIDE E9): the entry does not say
            // which; each costs a little, so that the choice is a repair the
            // rest of the game must settle.
            let alike =
                moves.iter().filter(|o| self.strict[i].iter().any(|r| f32::from(r.cost) == c && r.matches(o))).count();
            return if alike > 1 { c + p.costs.edits.light } else { c };
        }
        // A long run of characters is no slip of one move: reading it fuzzily
        // against every legal move would only cost time.
        let Some(written) = &entry.written else { return f32::INFINITY };
        // Every form of a move but castling names its destination square (a
        // pawn capture cut short names at least its file).
        if !castle {
            let to = m.to();
            let full = entry.quick.to_bound[usize::from(to)];
            let short = if m.is_capture() && m.role() == shakmaty::Role::Pawn {
                entry.quick.file_bound[usize::from(to.file())]
            } else {
                f32::INFINITY
            };
            if full.min(short) > bound.min(p.limits.max_fit) {
                return f32::INFINITY;
            }
        }
        // Only a piece that shares its destination with another of its kind
        // needs the (costly) disambiguation to be worked out.
        let san = San::disambiguate(*m, if may_share(pos, m) { moves } else { &self.no_moves });
        // The forms of a move are made of its SAN and its origin only: moves
        // that capture different pieces, or an en passant capture and a
        // plain one, share them.
        let key = fit_key(i, m.from(), &san);
        if let Some(&c) = self.fits.get(&key) {
            return c;
        }
        forms(m, &san, self.lang, &LANGUAGES[0], &mut self.buf);
        let c = fit(written, &self.buf, &p.costs.edits, p.limits.max_fit);
        self.fits.insert(key, c);
        c
    }
}

/// What the search needs of one entry, prepared the first time it is read
/// fuzzily.
struct Entry {
    quick: Quick,
    /// The entry prepared for the edit distance; `None` when it is too long to
    /// be read fuzzily.
    written: Option<Written>,
}

/// Tables that rule out most moves for an entry with a lookup or two.
#[derive(Clone, Copy)]
struct Quick {
    /// The destinations of the strict readings: only castling or a move to one
    /// of them can read strictly.
    strict_to: Bitboard,
    /// Per destination square: a lower bound of reading the entry as a move
    /// there (every form but castling and a short pawn capture names it).
    to_bound: [f32; 64],
    /// Per file: a lower bound of reading the entry as a pawn capture cut short to it.
    file_bound: [f32; 8],
    /// Per square: the lesser of its bound and its file's.
    floor: [f32; 64],
}

impl Quick {
    /// The squares a move must go to to be read within `limit`, castling
    /// aside: any move to the first, a pawn capture (cut short) to the second.
    fn admissible(&self, limit: f32) -> (Bitboard, Bitboard) {
        let mut full = self.strict_to;
        let mut short = Bitboard::EMPTY;
        for sq in Square::ALL {
            if self.to_bound[usize::from(sq)] <= limit {
                full.add(sq);
            } else if self.file_bound[usize::from(sq.file())] <= limit {
                short.add(sq);
            }
        }
        (full, short)
    }

    /// Rules nothing out.
    const NONE: Quick =
        Quick { strict_to: Bitboard::FULL, to_bound: [0.0; 64], file_bound: [0.0; 8], floor: [0.0; 64] };

    /// Whether reading the entry as `m` surely costs more than `limit`:
    /// neither castling nor a strict reading, and over the square's bound.
    #[inline]
    fn rules_out(&self, m: &Move, limit: f32) -> bool {
        let to = m.to();
        if self.strict_to.contains(to) {
            return false;
        }
        // Over the bound whether or not it is a pawn capture: most moves.
        if self.floor[usize::from(to)] > limit {
            return !m.is_castle();
        }
        if m.is_castle() {
            return false;
        }
        let full = self.to_bound[usize::from(to)];
        let short = if m.is_capture() && m.role() == shakmaty::Role::Pawn {
            self.file_bound[usize::from(to.file())]
        } else {
            f32::INFINITY
        };
        full.min(short) > limit
    }
}

impl Entry {
    fn new(
        lexed: &Lexed<'_>,
        strict: &[Reading],
        lang: &'static Language,
        p: &Params,
        pieces: &[char],
        rows: &mut Rows,
    ) -> Self {
        let mut strict_to = Bitboard::EMPTY;
        for r in strict {
            if let Target::Move { to, .. } = r.target {
                strict_to.add(to);
            }
        }
        let written = (lexed.core.len() <= MAX_FUZZY_LEN).then(|| {
            Written::with_rows(
                &normalize(&lexed.core, lang),
                &p.costs.edits,
                pieces,
                (p.costs.edits.piece, p.costs.edits.dropped_piece),
                rows,
            )
        });
        let mut to_bound = [f32::INFINITY; 64];
        let mut file_bound = [f32::INFINITY; 8];
        if let Some(w) = &written {
            for sq in Square::ALL {
                to_bound[usize::from(sq)] = w.lower_bound(&[sq.file().char(), sq.rank().char()]);
            }
            for f in File::ALL {
                file_bound[usize::from(f)] = w.lower_bound(&[f.char()]) + crate::cost::SHORTHAND;
            }
        }
        let floor = std::array::from_fn(|sq| to_bound[sq].min(file_bound[sq % 8]));
        Entry { quick: Quick { strict_to, to_bound, file_bound, floor }, written }
    }
}

/// The legal moves of `pos` that go to a square of `full`, the pawn
/// captures to a square of `short`, and castling, into `out` (in no
/// particular order): the moves an entry could name within a limit (see
/// [`Quick::admissible`]). With few squares this is much cheaper than all
/// legal moves, most of which the caller would rule out.
fn moves_to(pos: &Chess, (full, short): (Bitboard, Bitboard), out: &mut MoveList) {
    out.clear();
    if full == Bitboard::FULL {
        out.extend(pos.legal_moves());
        return;
    }
    if pos.is_check() {
        out.extend(
            pos.legal_moves().into_iter().filter(|m| {
                full.contains(m.to()) || (short.contains(m.to()) && m.role() == Role::Pawn && m.is_capture())
            }),
        );
        return;
    }
    let targets = Targets::new(pos);
    let free = !pos.us();
    for to in full & free {
        targets.add_all(to, out);
    }
    // A file named alone (`ed`) is a pawn capture: only squares one of our
    // pawns attacks and that hold a capture can be it.
    let mut reach = Bitboard::EMPTY;
    for sq in pos.our(Role::Pawn) {
        reach |= attacks::pawn_attacks(pos.turn(), sq);
    }
    let prey = pos.them() | pos.maybe_ep_square().map_or(Bitboard::EMPTY, Bitboard::from_square);
    for to in short & !full & free & reach & prey {
        targets.add(Role::Pawn, to, false, out);
    }
    for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
        targets.castling(side, out);
    }
}

/// Entry `i` read as a move from `from` with SAN `san`, in one word: hashed
/// millions of times, it must be cheap to hash.
fn fit_key(i: usize, from: Option<Square>, san: &San) -> u64 {
    let role = |r: Option<Role>| r.map_or(0, |r| r as u64);
    let san_bits = match *san {
        San::Normal { role: r, file, rank, capture, to, promotion } => {
            1 | (r as u64) << 2
                | file.map_or(0, |f| 1 + f as u64) << 5
                | rank.map_or(0, |r| 1 + r as u64) << 9
                | u64::from(capture) << 13
                | (to as u64) << 14
                | role(promotion) << 20
        }
        San::Castle(side) => 2 | (side as u64) << 2,
        San::Put { role: r, to } => 3 | (r as u64) << 2 | (to as u64) << 14,
        San::Null => 0,
    };
    (i as u64) << 32 | from.map_or(0, |f| 1 + f as u64) << 24 | san_bits
}

/// What reading an entry with check sign `mark` as `m` in `pos` costs for
/// the sign: [`Params::false_check`] where it claims a check (or mate) that
/// `m` does not give, else nothing.
pub(crate) fn mark_cost(params: &Params, pos: &Chess, mark: Option<CheckMark>, m: &Move) -> f32 {
    if mark.is_none() || params.costs.false_check == 0.0 {
        return 0.0;
    }
    let mut after = pos.clone();
    after.play_unchecked(*m);
    if after.is_check() { 0.0 } else { params.costs.false_check }
}

/// Whether another piece of the kind of `m` could also go to its destination
/// in `pos`: only then is the (costly) disambiguation worked out. Every
/// piece that has a legal move there attacks the square, so a `false` here is
/// sure; a `true` leaves it to the legal moves.
fn may_share(pos: &Chess, m: &Move) -> bool {
    let role = m.role();
    if matches!(role, shakmaty::Role::Pawn | shakmaty::Role::King) {
        return false;
    }
    let piece = shakmaty::Piece { color: pos.turn(), role };
    (shakmaty::attacks::attacks(m.to(), piece, pos.board().occupied()) & pos.our(role)).more_than_one()
}

/// The written entry as compared with forms: figurines become the language's
/// letters, castling zeros become letters O.
fn normalize(core: &str, lang: &Language) -> Vec<char> {
    if core.len() >= 2 && core.chars().all(|c| matches!(c, '0' | 'O' | 'o' | '-')) {
        return core.chars().map(|c| if c == '-' { '-' } else { 'O' }).collect();
    }
    let mut out = String::new();
    for c in core.chars() {
        let role = match c {
            '♔' | '♚' => Some(shakmaty::Role::King),
            '♕' | '♛' => Some(shakmaty::Role::Queen),
            '♖' | '♜' => Some(shakmaty::Role::Rook),
            '♗' | '♝' => Some(shakmaty::Role::Bishop),
            '♘' | '♞' => Some(shakmaty::Role::Knight),
            _ => None,
        };
        match role {
            Some(r) => out.push_str(lang.letter(r)),
            None => out.push(c),
        }
    }
    out.chars().collect()
}

/// The SAN, without check mark, of the move at ply `p` of a line played from `start`.
fn san_at(start: &Chess, line: &[Move], p: usize) -> San {
    let mut pos = start.clone();
    for m in &line[..p] {
        pos.play_unchecked(*m);
    }
    San::from_move(&pos, line[p])
}

/// Extends the hash of a line of moves by one move.
fn extend(h: u64, m: &Move) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = rustc_hash::FxHasher::default();
    h.hash(&mut hasher);
    m.hash(&mut hasher);
    hasher.finish().rotate_left(17) ^ 0x9e37_79b9_7f4a_7c15
}

/// The SAN of the move at ply `p` (0-based from `start`) of a line of moves.
/// The SAN, with check marks, of each move of a line played from `start`.
pub(crate) fn sans(start: &Chess, moves: &[Move]) -> Vec<String> {
    let mut pos = start.clone();
    moves.iter().map(|m| super::play(&mut pos, *m).to_string()).collect()
}

fn path(arena: &[Node], id: usize) -> Vec<Step> {
    let mut steps = Vec::with_capacity(depth(arena, id));
    let mut id = id;
    while id != ROOT {
        if let Some(s) = arena[id].step {
            steps.push(s);
        }
        id = arena[id].parent;
    }
    steps.reverse();
    steps
}

/// The moves played from the window's start to node `id`.
fn moves_of(arena: &[Node], mut id: usize) -> Vec<Move> {
    // A step plays two moves at most: one allocation.
    let mut moves = Vec::with_capacity(2 * depth(arena, id));
    while id != ROOT {
        if let Some(s) = arena[id].step {
            // Walked backwards: the moves of a step are pushed in reverse.
            let mut m = s.moves();
            let (a, b) = (m.next(), m.next());
            moves.extend(b.into_iter().chain(a));
        }
        id = arena[id].parent;
    }
    moves.reverse();
    moves
}

/// How many steps lead to node `id`.
fn depth(arena: &[Node], mut id: usize) -> usize {
    let mut n = 0;
    while id != ROOT {
        n += 1;
        id = arena[id].parent;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::targets::random_positions;
    use shakmaty::EnPassantMode;

    #[test]
    fn moves_to_finds_the_legal_moves_to_its_squares() {
        let (mut positions, mut seen_ep, mut seen_promotion, mut seen_castle) = (0, 0, 0, 0);
        let mut out = MoveList::new();
        random_positions(|pos, legal, next| {
            for _ in 0..3 {
                // Sparse squares, as an entry names: a few of 64.
                let full = Bitboard(next() & next() & next());
                let short = Bitboard(next() & next() & next()) & !full;
                moves_to(pos, (full, short), &mut out);
                let mut got: Vec<Move> = out.to_vec();
                let mut want: Vec<Move> = legal
                    .iter()
                    .filter(|m| {
                        full.contains(m.to())
                            || m.is_castle()
                            || (short.contains(m.to()) && m.role() == Role::Pawn && m.is_capture())
                    })
                    .copied()
                    .collect();
                let key = |m: &Move| (m.from(), m.to(), m.promotion(), m.is_castle());
                got.sort_by_key(key);
                want.sort_by_key(key);
                assert_eq!(got, want, "{}", shakmaty::fen::Fen::from_position(pos, EnPassantMode::Legal));
                positions += 1;
                seen_ep += want.iter().filter(|m| m.is_en_passant()).count();
                seen_promotion += want.iter().filter(|m| m.is_promotion()).count();
                seen_castle += want.iter().filter(|m| m.is_castle()).count();
            }
        });
        assert!(positions > 10_000 && seen_ep > 0 && seen_promotion > 0 && seen_castle > 0);
    }
}
