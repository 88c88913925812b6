//! Turning a reading's steps into the game's moves; the findings are raised
//! by [`detect`] as the moves are played.

use shakmaty::{Chess, Position};

use super::detect::{self, Numbering};
use super::draft::{Draft, Record};
use super::game::{Game, Played, ended_by_rule, play};
use super::step::Step;
use crate::cost::CUT_SHORT;
use crate::finding::{Ending, Finding};
use crate::notation::Language;
use crate::notation::lex::Lexed;
use crate::sheet::{GameResult, Sheet};
use crate::start::Start;

/// The game being built from a reading.
struct Builder<'a> {
    sheet: &'a Sheet,
    lexed: &'a [Lexed<'a>],
    pos: Chess,
    moves: Vec<Played>,
    findings: Vec<Finding>,
    numbering: Numbering,
}

/// Whether `san` names a legal move in `pos`.
fn legal_here(pos: &Chess, san: &str) -> bool {
    san.parse::<shakmaty::san::SanPlus>().is_ok_and(|s| s.san.to_move(pos).is_ok())
}

/// Turns the steps of a reading into the game's moves and findings.
pub(super) fn build(
    sheet: &Sheet,
    lexed: &[Lexed<'_>],
    lang: &'static Language,
    draft: &Draft,
    review_margin: f32,
) -> Game {
    let mut b = Builder {
        sheet,
        lexed,
        pos: draft.start.clone(),
        moves: Vec::with_capacity(draft.len()),
        findings: Vec::new(),
        numbering: Numbering::default(),
    };
    let mut stop_at_end: Option<usize> = None;
    for (k, record) in draft.records.iter().enumerate() {
        let doubt = doubt_of(record, review_margin);
        // An entry the record stops at is the `illegal-move`'s to tell: one
        // finding for it, not a doubt beside it.
        let stops_here = matches!(record.step, Step::Skip { .. }) && draft.stop == Some(record.step.entry());
        let in_doubt = doubt.filter(|_| !stops_here).map(|rivals| {
            // Only moves of this position are offered (the desk's buttons).
            let legal: Vec<String> = rivals.iter().filter(|r| legal_here(&b.pos, r)).cloned().collect();
            detect::ambiguous_repair(sheet, &b.pos, b.moves.len() as u32 + 1, record, &legal)
        });
        let ends =
            || draft.stop.is_none() && draft.records[k + 1..].iter().all(|r| matches!(r.step, Step::Skip { .. }));
        if b.step(record, (doubt.is_some(), || exact_around(draft, k)), ends) {
            // Nothing after it was read: the record ends in an entry that
            // fits no move, kept up to there (that finding says it).
            stop_at_end = Some(record.step.entry());
            break;
        }
        b.findings.extend(in_doubt);
    }
    let Builder { mut moves, mut findings, mut pos, .. } = b;
    let (mut stop, mut after_end) = (draft.stop.or(stop_at_end), draft.after_end);
    let rule = ended_by_rule(&draft.start, moves.iter().map(|m| m.mv));
    if let Some((end, _)) = rule.filter(|&(end, _)| end < moves.len()) {
        // A window read past a draw without a claim (Art. 9.6): the game
        // ends there, as the exact reading would have stopped it.
        after_end = first_entry_after(draft, &moves[..end], stop);
        stop = None;
        moves.truncate(end);
        findings.retain(|f| f.at().is_none_or(|at| at.ply as usize <= end));
        pos = draft.start.clone();
        moves.iter().for_each(|m| pos.play_unchecked(m.mv));
    }
    let ply = moves.len() as u32 + 1;
    match stop {
        Some(i) if draft.cut && draft.stop == Some(i) => findings.push(detect::search_budget(sheet, ply, i)),
        Some(i) => findings.extend(detect::stopped(sheet, lexed, (ply, &pos), i)),
        None => {}
    }
    if let Some(i) = after_end {
        let ending = rule.map_or_else(|| board_ending(&pos), |(_, ending)| ending);
        findings.push(detect::moves_after_end(sheet, ply, i, ending));
    }
    let cost = draft.cost() + if draft.stop.is_some() { CUT_SHORT } else { 0.0 };
    let start = Start { position: draft.start.clone() };
    Game { language: lang, moves, findings, start, position: pos, result: GameResult::Unknown, cost }
}

/// Whether the moves read nearest record `k`, before and after it (skipped
/// entries passed over), are read exactly as written, where there are any.
fn exact_around(draft: &Draft, k: usize) -> bool {
    let exact = |r: &Record| match r.step {
        Step::Read { cost, .. } => cost == 0.0,
        Step::InsertRead { .. } => false,
        Step::Skip { .. } => true,
    };
    let moved = |r: &&Record| !matches!(r.step, Step::Skip { .. });
    let before = draft.records[..k].iter().rev().find(moved);
    let after = draft.records[k + 1..].iter().find(moved);
    before.is_none_or(exact) && after.is_none_or(exact)
}

/// The first entry written after the moves `kept` (a skipped one
/// included), else the one the reading stopped at (`stop`).
fn first_entry_after(draft: &Draft, kept: &[Played], stop: Option<usize>) -> Option<usize> {
    let last = kept.iter().filter_map(|m| m.entry).max();
    draft.records.iter().map(|r| r.step.entry()).chain(stop).find(|&e| last.is_none_or(|l| e > l))
}

/// How the position with no legal move ended the game: a checkmate or a
/// stalemate.
fn board_ending(pos: &Chess) -> Ending {
    if pos.is_check() { Ending::Checkmate } else { Ending::Stalemate }
}

/// The rivals of a step in doubt: the doubt the search raised, or none named
/// where a repair's window was not clearly ahead (in doubt even where a later
/// window named another step as the first to differ).
fn doubt_of(record: &Record, review_margin: f32) -> Option<&[String]> {
    match &record.doubt {
        Some(d) => Some(&d.rivals),
        None => (record.margin < review_margin && record.step.cost() > 0.0).then_some(&[]),
    }
}

impl Builder<'_> {
    /// Plays one step; `true` where it is a skipped entry that ends the
    /// record (`ends`: no step but skips follows, and reading did not stop).
    /// `exact_around`: the moves read next to it, before and after, are
    /// read exactly as written ([`exact_around`]).
    fn step(
        &mut self,
        record: &Record,
        (doubted, exact_around): (bool, impl Fn() -> bool),
        ends: impl Fn() -> bool,
    ) -> bool {
        let ply = self.moves.len() as u32 + 1;
        let margin = record.margin;
        match record.step {
            Step::Skip { entry, .. } => {
                self.numbering.skipped();
                // Written twice: the same as the entry beside it, or one of
                // a block written twice over whose moves read exactly around
                // it (else the repairs around it may have read another game
                // in its place: a legible move left out is a doubt).
                let repeat = [entry.checked_sub(1), Some(entry + 1)]
                    .into_iter()
                    .flatten()
                    .any(|j| self.lexed.get(j).is_some_and(|o| o.core == self.lexed[entry].core))
                    || (super::entries::in_repeated_block(self.lexed, entry) && exact_around());
                if !repeat && ends() {
                    return true;
                }
                if !doubted {
                    self.findings.push(detect::extra_entry(self.sheet, ply, entry, repeat, margin));
                }
            }
            Step::InsertRead { inserted, entry, mv, .. } => {
                let san = play(&mut self.pos, inserted);
                if !doubted {
                    self.findings.push(detect::missing_move(ply, &san, margin));
                }
                self.moves.push(Played { mv: inserted, san, entry: None, nags: Vec::new(), draw_offer: false });
                self.numbering.inserted();
                self.read(entry, mv, false, doubted, margin);
            }
            Step::Read { entry, mv, cost } => self.read(entry, mv, cost > 0.0, doubted, margin),
        }
        false
    }

    /// Plays the move entry `entry` was read as (`fuzzy`: not as written).
    fn read(&mut self, entry: usize, mv: shakmaty::Move, fuzzy: bool, doubted: bool, margin: f32) {
        let ply = self.moves.len() as u32 + 1;
        let (sheet, l) = (self.sheet, &self.lexed[entry]);
        let san = play(&mut self.pos, mv);
        if !doubted {
            self.findings.extend(detect::repaired_entry(sheet, l, ply, entry, fuzzy, &san, margin));
        }
        self.findings.extend(detect::check_mark(sheet, l, ply, entry, &san));
        self.findings.extend(self.numbering.read(sheet, ply, entry));
        let e = &sheet.entries[entry];
        let nags = l.nags.iter().chain(&e.nags).copied().collect();
        self.moves.push(Played { mv, san, entry: Some(entry), nags, draw_offer: l.draw_offer || e.draw_offer });
    }
}
