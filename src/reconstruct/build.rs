//! Turning a reading's steps into the game's moves; the findings are raised
//! by [`detect`] as the moves are played.

use shakmaty::Chess;

use super::detect::{self, Numbering};
use super::draft::{Draft, Record};
use super::game::{Game, Played, play};
use super::step::Step;
use crate::cost::CUT_SHORT;
use crate::finding::Finding;
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
        if b.step(record, doubt.is_some(), ends) {
            // Nothing after it was read: the record ends in an entry that
            // fits no move, kept up to there (that finding says it).
            stop_at_end = Some(record.step.entry());
            break;
        }
        b.findings.extend(in_doubt);
    }
    let Builder { moves, mut findings, pos, .. } = b;
    let ply = moves.len() as u32 + 1;
    match draft.stop.or(stop_at_end) {
        Some(i) if draft.cut && draft.stop == Some(i) => findings.push(detect::search_budget(sheet, ply, i)),
        Some(i) => findings.extend(detect::stopped(sheet, lexed, (ply, &pos), i)),
        None => {}
    }
    if let Some(i) = draft.after_end {
        findings.push(detect::moves_after_end(sheet, ply, i));
    }
    let cost = draft.cost() + if draft.stop.is_some() { CUT_SHORT } else { 0.0 };
    let start = Start { position: draft.start.clone() };
    Game { language: lang, moves, findings, start, position: pos, result: GameResult::Unknown, cost }
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
    fn step(&mut self, record: &Record, doubted: bool, ends: impl Fn() -> bool) -> bool {
        let ply = self.moves.len() as u32 + 1;
        let margin = record.margin;
        match record.step {
            Step::Skip { entry, .. } => {
                self.numbering.skipped();
                let repeat = [entry.checked_sub(1), Some(entry + 1)]
                    .into_iter()
                    .flatten()
                    .any(|j| self.lexed.get(j).is_some_and(|o| o.core == self.lexed[entry].core));
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
