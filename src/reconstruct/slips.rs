//! Earlier slips: a slip that makes another legal move (`a4` for `d4`) shows
//! only when a later entry cannot be read, often beyond any window; the
//! repairs of that later entry are then weighed against the slip itself.

use shakmaty::{Chess, Move, Position};

use super::draft::{Doubt, Draft, Record};
use super::searcher::{Searcher, sans};
use super::step::Step;
use crate::cost::Limits;

/// A single slip before a repair that would explain it.
#[derive(Debug, Clone)]
pub(crate) struct Slip {
    /// The step (counted from the steps given) read as another move.
    pub at: usize,
    /// The steps from there on, with the slip's reading first.
    pub line: Vec<Step>,
    /// What they cost.
    pub cost: f32,
}

/// Weighs the single slips before step `keep` that would explain the repairs
/// from there on (see [`Searcher::slips`]): the cheapest replaces the repairs
/// when it costs less (returns the new position), and a slip about as likely
/// as the repairs puts them in doubt.
pub(super) fn reconsider(
    searcher: &mut Searcher<'_>,
    draft: &mut Draft,
    keep: usize,
    floor: usize,
    limits: &Limits,
) -> Option<Chess> {
    let from = keep.saturating_sub(limits.deep_back).max(floor);
    let start = draft.position_at(from);
    let steps: Vec<Step> = draft.steps().skip(from).collect();
    let mut found = searcher.slips(&start, &steps, keep - from, limits.slip_margin);
    // Slips about as likely as one another: the likelier moves first.
    if found.len() > 1 {
        let lines: Vec<Vec<Move>> =
            found.iter().map(|s| steps[..s.at].iter().chain(&s.line).flat_map(Step::moves).collect()).collect();
        let refs: Vec<&[Move]> = lines.iter().map(Vec::as_slice).collect();
        let costs: Vec<f32> =
            found.iter().map(|s| steps[..s.at].iter().map(Step::cost).sum::<f32>() + s.cost).collect();
        if let Some(i) = searcher.prior_choice(&start, &refs, &costs).filter(|&i| i > 0) {
            let preferred = found.remove(i);
            found.insert(0, preferred);
        }
    }
    let slip = found.first()?;
    let k = from + slip.at;
    let mut at = start;
    for m in steps[..slip.at].iter().flat_map(Step::moves) {
        at.play_unchecked(m);
    }
    let current = draft.cost_of(k, draft.len());
    let ours = draft.moves(k, draft.len());
    let theirs: Vec<Move> = slip.line.iter().flat_map(Step::moves).collect();
    let (ours_sans, their_sans) = (sans(&at, &ours), sans(&at, &theirs));
    // A slip that costs a little more than the repairs it explains is still
    // taken, in doubt, where its moves are the likelier (`c4` for 1.e4).
    let likelier =
        slip.cost >= current && searcher.prior_choice(&at, &[&ours, &theirs], &[current, slip.cost]) == Some(1);
    if slip.cost < current || likelier {
        // The best other reading: the repairs, or the next slip.
        let rival = found.get(1).map_or(current, |r| r.cost.min(current));
        let mut alternatives: Vec<String> = their_sans.first().into_iter().chain(ours_sans.first()).cloned().collect();
        alternatives.dedup();
        draft.records.truncate(k);
        let mut after = at;
        for (n, s) in slip.line.iter().enumerate() {
            let margin = if n == 0 { rival - slip.cost } else { f32::INFINITY };
            draft.records.push(Record { margin, ..Record::sure(*s) });
            for m in s.moves() {
                after.play_unchecked(m);
            }
        }
        if rival - slip.cost < limits.review_margin {
            draft.raise(k, Doubt::kept(alternatives));
        }
        return Some(after);
    }
    // Keep the repairs, but in doubt: the first one the slip explains (reads
    // more cheaply), and what the slip would play there. The slip's line is
    // step for step the same shape, so plies line up.
    let mut ply = 0;
    for s in k..draft.len() {
        let cost = draft.records[s].step.cost();
        if cost > 0.0 && slip.line.get(s - k).is_some_and(|t| t.cost() < cost) {
            let r = &mut draft.records[s];
            if r.margin >= limits.review_margin && r.doubt.is_none() {
                r.margin = slip.cost - current;
                let mut alternatives: Vec<String> = ours_sans.get(ply).into_iter().cloned().collect();
                if let Some(san) = their_sans.get(ply).filter(|s| !alternatives.contains(s)) {
                    alternatives.push(san.clone());
                }
                draft.raise(s, Doubt::kept(alternatives));
            }
            break;
        }
        ply += draft.records[s].step.moves().count();
    }
    None
}

impl<'a> Searcher<'a> {
    /// Single slips made before a repair that would explain it: for each of
    /// the first `tried` steps read exactly as written, each other legal move
    /// its entry could be read as, followed by the later entries read exactly
    /// as written where they can be (a skipped entry stays skipped, a move
    /// not written stays inserted, another repair stays when its move is still
    /// legal). `pos` is the position before `steps[0]`. Returns the rival
    /// readings of `steps[k..]` costing less than the current ones plus
    /// `slack`, and whose later steps cost less than the current ones (the
    /// slip explains a repair), cheapest first.
    ///
    /// A slip that makes another legal move (`a4` for `d4`) shows only when a
    /// later entry cannot be read, often beyond any window; the repair of that
    /// later entry is then weighed against the slip itself.
    pub(crate) fn slips(&mut self, pos: &Chess, steps: &[Step], tried: usize, slack: f32) -> Vec<Slip> {
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
            self.spend(moves.len());
            if self.out() {
                break;
            }
            let quick = self.prepared(entry).quick;
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
                    out.push(Slip { at: k, line, cost: total });
                }
            }
        }
        out.sort_by(|a, b| a.cost.total_cmp(&b.cost));
        out
    }

    /// Step `s` of a reading taken in another position `q`: read exactly as
    /// written if it can be, else as the step itself where that is legal.
    pub(super) fn follow(&self, q: &Chess, s: &Step) -> Option<Step> {
        self.spend(1);
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
}
