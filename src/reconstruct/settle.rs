//! Settling doubts on the whole sheet.
//!
//! A window closes at most `ahead_max` entries past the one that failed, and
//! the rest of the sheet is then read as the best reading goes on: a rival
//! left close may well be contradicted by an entry further on (a knight put
//! on a3 instead of c3 cannot make the `Ne4` written twenty moves later).
//! Each doubt a window left is weighed again on the whole sheet: the rival
//! move is put in place of the chosen one and the rest of the sheet read
//! after it, with repairs; when every rival then costs the review margin
//! more than the reading found, the doubt is settled. Doubts raised by a
//! slip before a window, by a skipped entry or a move not written are left
//! as they are.
//!
//! A rival that reads the whole sheet more cheaply than the reading found (the
//! window missed it) replaces it, but in doubt: a search that missed one
//! reading may have missed another as cheap. The new reading is weighed the
//! same way; the cost only falls, a few rounds at most.

use shakmaty::san::{San, SanPlus};
use shakmaty::{Chess, Move, Position};

use super::draft::{Doubt, Draft};
use super::game::{Game, play};
use super::read::Reader;
use super::step::Step;
use crate::cost::SETTLE_ROUNDS;
use crate::finding::{At, Finding, Severity};
use crate::sheet::Sheet;

/// A doubted step being weighed: a reading of entry `entry` as `chosen`, at
/// step `k` of the reading, in `pos`, after steps costing `before`.
struct Weighed {
    k: usize,
    entry: usize,
    chosen: Move,
    pos: Chess,
    before: f32,
}

/// A rival of a doubted step that reads the whole sheet within the ceiling.
struct Holding {
    /// The cost of the rival's whole reading.
    cost: f32,
    mv: Move,
    draft: Draft,
}

impl<'a> Reader<'a> {
    /// Weighs every doubt the windows left against the whole sheet (see the
    /// module's doc).
    pub(super) fn settle(&mut self, draft: &mut Draft) {
        for _ in 0..SETTLE_ROUNDS {
            if self.meter.out() {
                return;
            }
            match self.settle_once(draft) {
                Some(better) => *draft = better,
                None => return,
            }
        }
    }

    /// One round of [`Reader::settle`]: the cheaper reading a rival makes, if one does.
    fn settle_once(&mut self, draft: &mut Draft) -> Option<Draft> {
        let limits = self.params.limits;
        if draft.stop.is_some() || !draft.in_doubt() || !self.params.costs.never_negative() {
            return None;
        }
        let total = draft.cost();
        let ceiling = total + limits.review_margin;
        let mut settled: Vec<usize> = Vec::new();
        for k in draft.doubted() {
            let doubt = draft.records[k].doubt.as_ref().expect("a doubted step");
            if doubt.kept {
                continue;
            }
            // A move not written may be any of many that the window did not all
            // list: only a reading of an entry is settled so.
            let Step::Read { entry, mv: chosen, .. } = draft.records[k].step else { continue };
            let at = Weighed { k, entry, chosen, pos: draft.position_at(k), before: draft.cost_of(0, k) };
            let (candidates, refuted) = self.rivals(&at, &doubt.rivals, ceiling);
            let others = candidates.len();
            // None is read unless the window's rivals were all moves here.
            let holding = if refuted { self.hold(draft, &at, candidates, ceiling) } else { None };
            // Past the budget the rivals were not all read: the doubt stays.
            if self.meter.out() {
                break;
            }
            let refuted = refuted && holding.is_none();
            // A rival that ends the game early leaves entries unread, at no cost
            // here: it does not replace the reading.
            if let Some(h) = holding
                && h.cost < total
                && h.draft.after_end == draft.after_end
                && !self.prior_keeps(draft, total, &h.draft, h.cost)
            {
                return Some(replaced(draft, &at, h, &settled, total, limits.review_margin));
            }
            if refuted && others > 0 {
                settled.push(k);
            }
        }
        for k in settled {
            let r = &mut draft.records[k];
            r.doubt = None;
            r.margin = r.margin.max(limits.review_margin);
        }
        None
    }

    /// The rivals of the move chosen at a doubted step: those the window
    /// kept close (`named`), and every move the entry reads as cheaply enough
    /// to matter (the window's beam may have let some go: an illegible box
    /// reads as any legal move), those that read furthest first; and whether
    /// every rival the window named is still a move here (else the doubt
    /// cannot be settled).
    fn rivals(&mut self, at: &Weighed, named: &[String], ceiling: f32) -> (Vec<Move>, bool) {
        let Weighed { entry, chosen, ref pos, before, .. } = *at;
        let chosen_san = San::from_move(pos, chosen);
        let mut candidates: Vec<Move> = Vec::new();
        let mut refuted = true;
        for rival in named {
            match SanPlus::from_ascii(rival.as_bytes()).ok().map(|s| s.san) {
                Some(san) if san == chosen_san => {}
                Some(san) => match san.to_move(pos) {
                    Ok(mv) => candidates.push(mv),
                    Err(_) => refuted = false,
                },
                None => refuted = false,
            }
        }
        for mv in pos.legal_moves() {
            if mv != chosen
                && !candidates.contains(&mv)
                && before + self.searcher().reading_cost(pos, entry, &mv) < ceiling
            {
                candidates.push(mv);
            }
        }
        if candidates.len() > 1 {
            candidates = self.furthest_first(pos, entry, candidates);
        }
        (candidates, refuted)
    }

    /// Those that read the most entries after them exactly first: of twenty
    /// moves an illegible first box allows, the one the thirty-seventh move
    /// needs (sheet 436) is found without reading every other through. As far
    /// as they reach alike, the move players choose more often first.
    fn furthest_first(&mut self, pos: &Chess, entry: usize, candidates: Vec<Move>) -> Vec<Move> {
        let n = self.lexed.len();
        let searcher = self.searcher();
        let reach = |mv: &Move| {
            let mut p = pos.clone();
            p.play_unchecked(*mv);
            let mut j = entry + 1;
            while j < n
                && let Some(m) = searcher.exact(&p, j)
            {
                searcher.spend(1);
                p.play_unchecked(m);
                j += 1;
            }
            j
        };
        let mut reached: Vec<(usize, f32, Move)> =
            candidates.iter().map(|m| (reach(m), searcher.move_prior(pos, m), *m)).collect();
        reached.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.total_cmp(&a.1)));
        reached.into_iter().map(|(_, _, m)| m).collect()
    }

    /// Reads the rivals of a doubted step until one holds: one that reads the
    /// whole sheet within `ceiling` (and does not stop early).
    fn hold(&mut self, draft: &Draft, at: &Weighed, candidates: Vec<Move>, ceiling: f32) -> Option<Holding> {
        let Weighed { k, entry, ref pos, before, .. } = *at;
        for mv in candidates {
            if self.meter.out() {
                return None;
            }
            let cost = self.searcher().reading_cost(pos, entry, &mv);
            if before + cost >= ceiling {
                continue;
            }
            let prefix: Vec<Step> = draft.steps().take(k).chain([Step::Read { entry, mv, cost }]).collect();
            let Some(rival) = self.read_from(ceiling, &prefix, entry + 1) else {
                continue;
            };
            let cost = rival.cost();
            if rival.stop.is_none() && cost < ceiling {
                return Some(Holding { cost, mv, draft: rival });
            }
        }
        None
    }

    /// Whether the plausibility prefers the reading a window chose to a
    /// cheaper rival read on the whole sheet (the window put it first, see
    /// [`Limits::prior_reach`](crate::cost::Limits::prior_reach)); the doubt
    /// stays either way.
    fn prior_keeps(&mut self, draft: &Draft, total: f32, rival: &Draft, cost: f32) -> bool {
        let ours = draft.moves(0, draft.len());
        let theirs = rival.moves(0, rival.len());
        self.searcher().prior_choice(&draft.start, &[&ours, &theirs], &[total, cost]) == Some(0)
    }
}

/// The rival's reading in place of `draft`: the steps before `k` keep their
/// margins and doubts (those settled this round are settled), and step `k`
/// is in doubt, never validated so: the window missed this reading, and may
/// have missed others as cheap.
fn replaced(draft: &Draft, at: &Weighed, rival: Holding, settled: &[usize], total: f32, review_margin: f32) -> Draft {
    let Weighed { k, chosen, ref pos, .. } = *at;
    let Holding { cost, mv, draft: mut new } = rival;
    for (r, old) in new.records.iter_mut().zip(&draft.records[..k]) {
        r.margin = old.margin;
    }
    for &s in settled {
        if let Some(r) = new.records.get_mut(s) {
            r.margin = r.margin.max(review_margin);
        }
    }
    new.records[k].margin = total - cost;
    // The doubts in the order they were raised: those before `k` (but the
    // ones settled this round), this one, then the rival's own.
    let theirs = new.take_doubts();
    for j in draft.doubted().into_iter().filter(|&j| j < k && !settled.contains(&j)) {
        new.raise(j, draft.records[j].doubt.clone().expect("a doubted step"));
    }
    let san = |m: Move| play(&mut pos.clone(), m).to_string();
    new.raise(k, Doubt::kept(vec![san(mv), san(chosen)]));
    for (j, doubt) in theirs {
        new.raise(j, doubt);
    }
    new
}

/// Puts `game` in review where the reading by costs alone, `costs_alone`,
/// plays other moves or is itself in doubt.
pub(super) fn doubt_unless_agreed(sheet: &Sheet, game: &mut Game, costs_alone: &Game) {
    let common = game.moves.len().min(costs_alone.moves.len());
    let differs_at = game.moves.iter().zip(&costs_alone.moves).position(|(a, b)| a.san != b.san);
    let differs_at = differs_at.or((game.moves.len() != costs_alone.moves.len()).then_some(common));
    let Some(i) = differs_at else {
        // The same moves: its own doubts, if any, are the game's.
        game.findings.extend(costs_alone.findings.iter().filter(|f| f.severity() > Severity::Info).cloned());
        return;
    };
    // A game that ends before the other is flagged at its last move.
    let i = i.min(game.moves.len().saturating_sub(1));
    let Some(played) = game.moves.get(i) else { return };
    let (written, line, col) = played.entry.map_or((String::new(), 0, 0), |e| {
        (sheet.entries[e].text.clone(), sheet.entries[e].line, sheet.entries[e].col)
    });
    let replacement = played.san.to_string();
    let other = costs_alone.moves.get(i).map_or_else(|| "the game ending here".to_string(), |m| m.san.to_string());
    game.findings.push(Finding::AmbiguousRepair {
        at: At { ply: i as u32 + 1, line, col },
        written,
        replacement: replacement.clone(),
        alternatives: vec![replacement, other],
        margin: costs_alone.cost - game.cost,
    });
}
