//! Judging a window: how clearly its best reading is ahead of the others,
//! step by step, and the alternatives an arbiter is shown where it is not.

use shakmaty::{Chess, Move};

use super::arena::{Node, moves_of, path};
use super::searcher::{Searcher, san_at, sans};
use super::step::Step;
use crate::cost::{MAX_ALTERNATIVES, PLAUSIBLE_CLOSEST};

/// A ply of a window's best reading and the step (index into its steps) it
/// belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct PlyStep {
    pub(super) ply: usize,
    pub(super) step: usize,
}

/// What [`Searcher::judge`] makes of a beam.
#[derive(Debug, Clone)]
pub(super) struct Judgement {
    /// The smallest of `margins` (infinite when nothing was repaired or no rival survived).
    pub(super) margin: f32,
    /// For each step of the best reading: how much costlier the best reading
    /// that plays something else there is.
    pub(super) margins: Vec<f32>,
    /// The steps in doubt, at their first ply.
    pub(super) doubted: Vec<PlyStep>,
    /// The moves of the close readings, the best first.
    pub(super) close: Vec<Vec<Move>>,
    /// The first step where a close reading that puts a step in doubt parts
    /// from the best: a later window must start there to weigh them again.
    pub(super) unsettled: Option<usize>,
}

impl Judgement {
    /// Nothing to judge: no reading, or none repaired.
    fn clear() -> Judgement {
        Judgement {
            margin: f32::INFINITY,
            margins: Vec::new(),
            doubted: Vec::new(),
            close: Vec::new(),
            unsettled: None,
        }
    }

    /// Each step in doubt with the moves, in SAN, that the close readings play there.
    pub(super) fn doubts(&self, start: &Chess) -> Vec<(usize, Vec<String>)> {
        if self.doubted.is_empty() {
            return Vec::new();
        }
        let last = self.doubted.iter().map(|d| d.ply).max().unwrap_or(0);
        let lines: Vec<Vec<String>> =
            self.close.iter().map(|line| sans(start, &line[..line.len().min(last + 1)])).collect();
        self.doubted
            .iter()
            .map(|d| {
                let mut alternatives: Vec<String> = Vec::new();
                for san in lines.iter().filter_map(|line| line.get(d.ply)) {
                    if !alternatives.contains(san) {
                        alternatives.push(san.clone());
                    }
                }
                (d.step, alternatives)
            })
            .collect()
    }
}

/// The best reading of a beam, ply by ply.
struct Best {
    steps: Vec<Step>,
    moves: Vec<Move>,
    /// The step each ply belongs to.
    plies: Vec<PlyStep>,
    /// The plies the reading repaired (a skipped entry stands for the ply
    /// after it).
    repaired: Vec<PlyStep>,
}

impl Best {
    fn of(arena: &[Node], id: usize) -> Best {
        let steps = path(arena, id);
        let moves: Vec<Move> = steps.iter().flat_map(Step::moves).collect();
        let (mut plies, mut repaired) = (Vec::new(), Vec::new());
        let mut ply = 0;
        for (k, step) in steps.iter().enumerate() {
            let n = step.moves().count();
            let these = (ply..ply + n).map(|p| PlyStep { ply: p, step: k });
            plies.extend(these.clone());
            if step.cost() > 0.0 {
                if n == 0 {
                    repaired.push(PlyStep { ply, step: k });
                }
                repaired.extend(these);
            }
            ply += n;
        }
        Best { steps, moves, plies, repaired }
    }

    /// The first ply where `other` plays something else.
    fn parts_at(&self, other: &[Move]) -> Option<usize> {
        (0..self.moves.len().max(other.len())).find(|&p| other.get(p) != self.moves.get(p))
    }
}

/// The rivals of a best reading weighed so far.
struct Weighing {
    margins: Vec<f32>,
    close: Vec<Vec<Move>>,
    /// The repaired plies no rival has contradicted yet.
    open: Vec<PlyStep>,
    /// Plies read as written where an equally cheap reading plays something else.
    tied: Vec<PlyStep>,
    unsettled: Option<usize>,
}

impl Weighing {
    fn part_at(&mut self, k: usize) {
        self.unsettled = Some(self.unsettled.map_or(k, |u| u.min(k)));
    }
}

impl<'a> Searcher<'a> {
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
    pub(super) fn judge(&self, arena: &[Node], beam: &[usize], start: &Chess) -> Judgement {
        let Some((&best_id, rest)) = beam.split_first() else {
            return Judgement::clear();
        };
        let limits = &self.params.limits;
        let best = Best::of(arena, best_id);
        // A different move object with the same SAN (the same move from a
        // position that differs earlier, where the best reads exactly) is
        // not a different reading.
        let differs = |other: &[Move], p: usize| match (other.get(p), best.moves.get(p)) {
            (Some(a), Some(b)) => a != b && san_at(start, other, p) != san_at(start, &best.moves, p),
            (a, b) => a.is_some() || b.is_some(),
        };
        let mut w = Weighing {
            margins: vec![f32::INFINITY; best.steps.len()],
            // The close readings (within the review margin), for the alternatives.
            close: vec![best.moves.clone()],
            open: best.repaired.clone(),
            tied: Vec::new(),
            unsettled: None,
        };
        for &id in rest {
            if w.open.is_empty() {
                break;
            }
            let margin = arena[id].cost - arena[best_id].cost;
            if margin >= limits.review_margin {
                // Every later node costs more: this bounds the margin of every step still open.
                for d in &w.open {
                    w.margins[d.step] = w.margins[d.step].min(margin);
                }
                w.open.clear();
                break;
            }
            let other = moves_of(arena, id);
            if !w.open.iter().any(|d| other.get(d.ply) != best.moves.get(d.ply)) {
                // It differs only where the best reads as written: one more
                // slip, unlikely by its own cost, unless it is as cheap as the
                // best (it explains a repair of the best some other way).
                if margin < limits.tie_margin
                    && let Some(p) = best.parts_at(&other)
                    && let Some(&PlyStep { step: k, .. }) = best.plies.get(p)
                    && w.margins[k].is_infinite()
                    && differs(&other, p)
                {
                    w.margins[k] = margin;
                    w.tied.push(PlyStep { ply: p, step: k });
                    w.close.push(other);
                    w.part_at(k);
                }
                continue;
            }
            let before = w.open.len();
            let margins = &mut w.margins;
            w.open.retain(|d| {
                let parts = differs(&other, d.ply);
                if parts {
                    margins[d.step] = margins[d.step].min(margin);
                }
                !parts
            });
            if w.open.len() < before
                && let Some(p) = best.parts_at(&other)
            {
                w.part_at(best.plies.get(p).map_or(best.steps.len().saturating_sub(1), |d| d.step));
            }
            w.close.push(other);
        }
        self.verdict_of(&best, w)
    }

    /// The judgement of the rivals weighed: the steps whose margin is under
    /// the review margin are in doubt.
    fn verdict_of(&self, best: &Best, w: Weighing) -> Judgement {
        let Weighing { margins, close, tied, unsettled, .. } = w;
        let mut doubted: Vec<PlyStep> = Vec::new();
        for d in best.repaired.iter().chain(&tied) {
            if margins[d.step] < self.params.limits.review_margin && !doubted.iter().any(|o| o.step == d.step) {
                doubted.push(*d);
            }
        }
        let margin = margins.iter().copied().fold(f32::INFINITY, f32::min);
        // Only a doubt left open makes the first place the readings part worth keeping.
        let unsettled = unsettled.filter(|_| !doubted.is_empty());
        Judgement { margin, margins, doubted, close, unsettled }
    }

    /// The judgement names one rival per doubt, the first it meets; an arbiter
    /// wants every move that fits (an illegible box may allow six). The other
    /// close readings that play something else at a doubted ply are added, up
    /// to [`MAX_ALTERNATIVES`] lines, in the beam's order.
    pub(super) fn more_alternatives(&self, arena: &[Node], beam: &[usize], judged: &mut Judgement) {
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
            let new_at =
                |d: &PlyStep| line.get(d.ply).is_some_and(|m| judged.close.iter().all(|c| c.get(d.ply) != Some(m)));
            if judged.doubted.iter().any(new_at) {
                judged.close.push(line);
            }
        }
    }

    /// Puts first the close reading whose moves are the likelier (see
    /// [`Limits::prior_reach`](crate::cost::Limits::prior_reach)); whether it moved one.
    pub(super) fn prefer_plausible(&mut self, arena: &[Node], beam: &mut Vec<usize>, start: &Chess) -> bool {
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
}
