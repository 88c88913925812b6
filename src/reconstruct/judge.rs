//! Judging a window: how clearly its best reading is ahead of the others,
//! step by step, and the alternatives an arbiter is shown where it is not.

use shakmaty::{Chess, Move};

use super::beam::{Node, moves_of, path};
use super::searcher::{Searcher, Step, san_at, sans};
use crate::cost::{MAX_ALTERNATIVES, PLAUSIBLE_CLOSEST};

/// What [`Searcher::judge`] makes of a beam.
#[derive(Debug, Clone)]
pub(super) struct Judgement {
    /// The smallest of `margins` (infinite when nothing was repaired or no rival survived).
    pub(super) margin: f32,
    pub(super) margins: Vec<f32>,
    /// The steps in doubt: (first ply of the step, step).
    pub(super) doubted: Vec<(usize, usize)>,
    /// The moves of the close readings, the best first.
    pub(super) close: Vec<Vec<Move>>,
    pub(super) unsettled: Option<usize>,
}

impl Judgement {
    /// Each step in doubt with the moves, in SAN, that the close readings play there.
    pub(super) fn doubts(&self, start: &Chess) -> Vec<(usize, Vec<String>)> {
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
