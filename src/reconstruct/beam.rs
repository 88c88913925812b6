//! The beam over one window: when an entry names no legal move, a beam
//! search over legal games re-reads a window of the sheet around it — from a
//! few entries before (a wrong but legal reading often shows only later)
//! until the best reading is clearly ahead — with every way the writer or
//! typist could have erred: a fuzzy reading of an entry, an entry written
//! twice or stray (skipped), a move not written (inserted), an illegible box
//! (any legal move).

use rustc_hash::FxHashMap as HashMap;

use shakmaty::{Bitboard, Chess, MoveList, Position};

use super::arena::{Node, ROOT, extend, path};
use super::draft::{Doubt, Record};
use super::judge::Judgement;
use super::searcher::{Quick, Searcher, moves_to};
use super::step::Step;
use crate::cost::{FULL_RANKS, MAX_TIED_INSERTS, TIE_BEAM_FACTOR, TIE_WIDTH_ILLEGIBLE, WINDOW_NODES};

/// How much more than a node its children may cost.
#[derive(Debug, Clone, Copy)]
pub(super) struct Budget {
    /// Readings of the entry.
    pub(super) read: f32,
    /// A move not written, then the entry; `None`: not tried.
    pub(super) insert: Option<f32>,
    /// Whether, where even the node's best reading of the entry pays as much
    /// as a move not written, the insertion may cost up to the beam's margin
    /// past that reading (the best few nodes only).
    pub(super) widen: bool,
}

/// Whether a window gives up on its readings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum GiveUp {
    /// It reads on.
    No,
    /// Its cheapest reading already adds more than a repair may.
    Costly,
    /// Its cheapest reading can no longer beat another already made (another
    /// language's).
    Beaten,
}

/// The outcome of re-reading one window.
#[derive(Debug, Clone)]
pub(crate) struct Window {
    /// The steps of the best reading, from the window's first entry, with
    /// their margins, their doubts (open: [`settle`](super::settle) weighs
    /// them again) and the first step where a close reading that puts a step
    /// in doubt parts from the best (`unsettled`).
    pub records: Vec<Record>,
    /// Entry the window ends before.
    pub end: usize,
    /// Given up because its reading could no longer beat another already
    /// made ([`GiveUp::Beaten`]).
    pub beaten: bool,
}

/// The nodes of a window's beam at one entry, by rank, and their positions.
pub(super) struct Beam {
    pub(super) ids: Vec<usize>,
    pub(super) positions: Vec<Chess>,
}

/// Buffers a window reuses from entry to entry.
#[derive(Default)]
pub(super) struct Scratch {
    pub(super) next: Vec<usize>,
    pub(super) children: Vec<Step>,
    pub(super) seen: HashMap<u64, usize>,
}

impl<'a> Searcher<'a> {
    /// Beam search from entry `start` in `pos`; entry `failed` is the one that
    /// could not be read exactly.
    /// Ends with no steps as soon as `hopeless` gives up on the cost of the
    /// cheapest reading so far (a window grown past its close for want of a
    /// clear margin ends where it could first have closed, unless beaten).
    pub(crate) fn window(
        &mut self,
        pos: &Chess,
        start: usize,
        failed: usize,
        hopeless: impl Fn(f32) -> GiveUp,
    ) -> Window {
        let n = self.lexed.len();
        let limits = self.params.limits;
        // The arena's room is kept from window to window.
        let mut arena = std::mem::take(&mut self.arena);
        arena.clear();
        arena.push(Node { from: 0, line: 0, cost: 0.0, parent: ROOT, step: None });
        let mut beam = Beam { ids: vec![0], positions: vec![pos.clone()] };
        let mut scratch = Scratch::default();
        let mut i = start;
        let close_at = (failed + 1 + limits.ahead).min(n);
        let limit = (failed + 1 + limits.ahead_max).min(n);
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
                let judged = self.judge(&arena, &beam.ids, pos);
                if judged.margin >= limits.review_margin || i >= limit {
                    verdict = Some(judged);
                    break;
                }
                if could_close.is_none() {
                    could_close = Some((beam.ids.clone(), i, judged));
                }
            }
            self.extend_beam(&mut arena, &beam, i, failed, &mut scratch);
            // Past the budget the window ends with no reading: the game stops
            // at its failing entry. The nodes a window makes are its memory.
            if arena.len() > WINDOW_NODES {
                self.exhaust();
            }
            if self.out() {
                self.arena = arena;
                return Window { records: Vec::new(), end: i, beaten: false };
            }
            let next = &mut scratch.next;
            let best = next.iter().map(|&j| arena[j].cost).min_by(f32::total_cmp).unwrap_or(0.0);
            let give_up = if next.is_empty() { GiveUp::No } else { hopeless(best) };
            if give_up != GiveUp::No {
                if give_up == GiveUp::Costly
                    && let Some((kept, at, judged)) = could_close.take()
                {
                    (beam.ids, i, verdict) = (kept, at, Some(judged));
                    break;
                }
                self.arena = arena;
                return Window { records: Vec::new(), end: i, beaten: give_up == GiveUp::Beaten };
            }
            beam.positions = self.prune(&arena, next, &beam.positions, best);
            std::mem::swap(&mut beam.ids, next);
            i += 1;
            if beam.ids.is_empty() || i >= n {
                break;
            }
        }
        let records = self.verdict(&arena, &mut beam.ids, verdict, pos);
        self.trace_window(&arena, &beam.ids, start, i, failed);
        self.arena = arena;
        Window { records, end: i, beaten: false }
    }

    /// Extends every node of `beam` by the readings of entry `i`, into
    /// `scratch.next`: readings that play the same moves are merged, the
    /// cheaper kept. Nodes are kept within the margin of the best of the
    /// next entry. Where every node pays for this entry (the one that
    /// failed), a node a little behind may still be the one a move not
    /// written explains: among the best few, its insertion is weighed against
    /// the best child so far, not against this entry's best node (sheet 518:
    /// 30...hxg6 not written, then `Hf4` for 31.Bf4).
    pub(super) fn extend_beam(
        &mut self,
        arena: &mut Vec<Node>,
        beam: &Beam,
        i: usize,
        failed: usize,
        scratch: &mut Scratch,
    ) {
        let limits = self.params.limits;
        let Scratch { next, children, seen } = scratch;
        next.clear();
        seen.clear();
        let cutoff = arena[beam.ids[0]].cost + limits.beam_margin;
        let mut best_child = f32::INFINITY;
        for (rank, &id) in beam.ids.iter().enumerate() {
            let budget = cutoff - arena[id].cost;
            // Every node tied with the best tries a move not written: an
            // illegible box makes thirty readings alike, and the one a
            // move not written explains later may be any of them.
            let tied_with_best = arena[id].cost <= arena[beam.ids[0]].cost && rank < MAX_TIED_INSERTS;
            let insert_budget = (rank < limits.insert_nodes || tied_with_best).then(|| {
                if best_child.is_finite() && rank < FULL_RANKS {
                    budget.max(best_child + limits.beam_margin - arena[id].cost)
                } else {
                    budget
                }
            });
            let locked = i > failed + 1 || (rank >= FULL_RANKS && !tied_with_best && i != failed);
            let budget = Budget { read: budget, insert: insert_budget, widen: rank < FULL_RANKS };
            self.expand(&beam.positions[rank], i, budget, locked, children);
            for &step in children.iter() {
                let cost = arena[id].cost + step.cost();
                best_child = best_child.min(cost);
                let line = step.moves().fold(arena[id].line, |h, m| extend(h, &m));
                let node = Node { from: rank, line, cost, parent: id, step: Some(step) };
                match seen.get(&line) {
                    Some(&j) if arena[j].cost <= cost => continue,
                    Some(&j) => arena[j] = node,
                    None => {
                        seen.insert(line, arena.len());
                        next.push(arena.len());
                        arena.push(node);
                    }
                }
            }
        }
    }

    /// Keeps the nodes of `next` within the margin of `best`, cheapest first,
    /// and makes their positions from those of the nodes they extend.
    pub(super) fn prune(&self, arena: &[Node], next: &mut Vec<usize>, positions: &[Chess], best: f32) -> Vec<Chess> {
        let params = self.params;
        // Only the nodes within the margin are sorted: a stable sort keeps
        // them in the order it would among all.
        next.retain(|&j| arena[j].cost <= best + params.limits.beam_margin);
        next.sort_by(|a, b| arena[*a].cost.total_cmp(&arena[*b].cost));
        // Boxes nobody could read give every legal move the same cost: the
        // beam is not cut inside such a tie, which only later entries settle.
        let tied = next.partition_point(|&j| arena[j].cost <= best + TIE_WIDTH_ILLEGIBLE * params.costs.illegible);
        next.truncate(params.limits.beam.max(tied.min(TIE_BEAM_FACTOR * params.limits.beam)));
        next.iter()
            .map(|&j| {
                let mut pos = positions[arena[j].from].clone();
                for m in arena[j].step.iter().flat_map(Step::moves) {
                    pos.play_unchecked(m);
                }
                pos
            })
            .collect()
    }

    /// The best reading of a closed window, judged (the judgement that
    /// closed it, or one made now), the likelier first among close readings,
    /// with every alternative an arbiter wants.
    pub(super) fn verdict(
        &mut self,
        arena: &[Node],
        beam: &mut Vec<usize>,
        verdict: Option<Judgement>,
        pos: &Chess,
    ) -> Vec<Record> {
        let mut judged = verdict.unwrap_or_else(|| self.judge(arena, beam, pos));
        if !judged.doubted.is_empty() && self.prefer_plausible(arena, beam, pos) {
            judged = self.judge(arena, beam, pos);
        }
        self.more_alternatives(arena, beam, &mut judged);
        let doubts = judged.doubts(pos);
        let steps = beam.first().map(|&b| path(arena, b)).unwrap_or_default();
        let mut records: Vec<Record> = steps
            .into_iter()
            .enumerate()
            .map(|(k, step)| Record {
                step,
                margin: judged.margins.get(k).copied().unwrap_or(f32::INFINITY),
                doubt: None,
                unsettled: judged.unsettled == Some(k),
            })
            .collect();
        for (raised, (k, rivals)) in (0..).zip(doubts) {
            records[k].doubt = Some(Doubt::open(rivals, raised));
        }
        records
    }

    /// The best readings of a window, at trace level.
    pub(super) fn trace_window(&self, arena: &[Node], beam: &[usize], start: usize, end: usize, failed: usize) {
        if !tracing::enabled!(tracing::Level::TRACE) {
            return;
        }
        const TRACED: usize = 8;
        for &id in beam.iter().take(TRACED) {
            let line: Vec<String> = path(arena, id)
                .iter()
                .map(|s| format!("{}{:?}", s.cost(), s.moves().map(|m| m.to_string()).collect::<Vec<_>>()))
                .collect();
            tracing::trace!(start, end, failed, cost = arena[id].cost, line = line.join(" "), "repair window");
        }
    }

    /// Every way to read entry `i` in `pos`, into `out` (a buffer reused across nodes).
    /// Past the failing entry (`locked`), an entry that reads exactly is taken
    /// as written: the window is there to find the slip, and doubting correct
    /// entries after it would only crowd the beam with one-more-slip readings.
    /// A move not written is tried before the entry only with an insertion budget.
    pub(super) fn expand(&mut self, pos: &Chess, i: usize, budget: Budget, locked: bool, out: &mut Vec<Step>) {
        let params = *self.params;
        let Budget { read: budget, insert: insert_budget, widen } = budget;
        out.clear();
        self.spend(1);
        if locked && let Some(mv) = self.exact(pos, i) {
            out.push(Step::Read { entry: i, mv, cost: 0.0 });
            return;
        }
        let moves = pos.legal_moves();
        self.spend(moves.len());
        let repeat = (i > 0 && self.lexed[i].core == self.lexed[i - 1].core) || self.written_again(i);
        if moves.is_empty() {
            out.push(Step::Skip { entry: i, cost: params.costs.after_end });
            return;
        }
        // Most moves are ruled out by the entry's tables, without a call.
        let illegible = self.illegible[i];
        let quick = if illegible { Quick::NONE } else { self.prepared(i).quick };
        let mut cheapest = f32::INFINITY;
        for m in &moves {
            let cost = if illegible {
                params.costs.illegible
            } else if quick.rules_out(m, budget.min(params.limits.max_fit)) {
                f32::INFINITY
            } else {
                self.fit(i, m, &moves, pos, budget)
            };
            cheapest = cheapest.min(cost);
            if cost <= params.limits.max_fit && cost <= budget {
                out.push(Step::Read { entry: i, mv: *m, cost });
            }
        }
        let skip = if repeat { params.costs.skip_repeat } else { params.costs.skip };
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
        let insert_budget = insert_budget.map(|b| {
            if widen && own_best >= params.costs.insert { b.max(own_best + params.limits.beam_margin) } else { b }
        });
        if let Some(insert_budget) = insert_budget
            && cheapest > self.params.limits.insert_trigger
            && params.costs.insert <= insert_budget
        {
            // The reading after a move not written must fit within the
            // budget the insertion leaves.
            let limit =
                params.costs.edits.confusable.min(params.limits.max_fit).min(insert_budget - params.costs.insert);
            self.insertions(pos, i, &moves, quick, limit, out);
        }
    }

    /// Every move not written before entry `i` in `pos`, followed by a reading
    /// of the entry within `limit`, into `out`. After the move not written,
    /// only moves to a square the entry could name within `limit` (and
    /// castling) can be read: those alone are made, not every legal move (the
    /// search's inner loop).
    fn insertions(&mut self, pos: &Chess, i: usize, moves: &MoveList, quick: Quick, limit: f32, out: &mut Vec<Step>) {
        let costs = self.params.costs;
        let illegible = self.illegible[i];
        let targets = if illegible { (Bitboard::FULL, Bitboard::EMPTY) } else { quick.admissible(limit) };
        let mut moves1 = MoveList::new();
        for m1 in moves {
            let mut p1 = pos.clone();
            p1.play_unchecked(*m1);
            moves_to(&p1, targets, &mut moves1);
            self.spend(1 + moves1.len());
            for m2 in &moves1 {
                let cost = if illegible {
                    costs.illegible
                } else if quick.rules_out(m2, limit) {
                    f32::INFINITY
                } else {
                    self.fit(i, m2, &moves1, &p1, limit)
                };
                if cost <= limit {
                    out.push(Step::InsertRead { inserted: *m1, entry: i, mv: *m2, cost: costs.insert + cost });
                }
            }
        }
    }
}
