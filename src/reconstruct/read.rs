//! Reading a sheet under one language: each entry exactly where it can be,
//! and a repair window (see [`beam`](super::beam)) where one names no legal
//! move; then a slip made before the window is weighed (see
//! [`slips`](super::slips)). Every doubt left is then weighed on the whole
//! sheet by [`settle`](super::settle), which reads again with this reader: so
//! the reader sits below it, and [`language`](super::language) runs both.

use shakmaty::{Chess, Position};

use super::beam::{GiveUp, Window};
use super::book::Book;
use super::budget::Meter;
use super::draft::{Draft, Record};
use super::entries::{descriptive_at, strict_of};
use super::game::DrawRules;
use super::searcher::{Searcher, mark_cost};
use super::slips::reconsider;
use super::step::Step;
use crate::cost::{NAMELESS_RUN, Params};
use crate::notation::descriptive::looks_descriptive;
use crate::notation::descriptive::system_of;
use crate::notation::lex::Lexed;
use crate::notation::reading::readings_of;
use crate::notation::reading::{Reading, exact_move, readings_into};
use crate::notation::{LANGUAGES, Language};
use crate::sheet::Sheet;

/// What every reading of a sheet under one language shares, and the searcher
/// they share, made the first time an entry fails (most sheets are read
/// exactly, and never need one).
pub(super) struct Reader<'a> {
    pub sheet: &'a Sheet,
    pub lexed: &'a [Lexed<'a>],
    pub illegible: &'a [bool],
    pub lang: &'static Language,
    pub params: &'a Params,
    book: Option<Book<'static>>,
    searcher: Option<Searcher<'a>>,
    /// The work done, and its bound.
    pub meter: &'a Meter,
    /// The position the game begins in.
    start: Chess,
    /// The game's first ply in the sheet's numbering.
    first_ply: u32,
}

/// What a repair window makes of a failing entry.
enum Repair {
    /// Its reading, and the step it starts at.
    Window(Reread, usize),
    /// It cannot be repaired: the game stops there.
    Stop,
    /// The reading can no longer cost less than the ceiling.
    Beaten,
}

/// A window read from one start, before it is taken into the reading.
struct Reread {
    window: Window,
    /// The position at the window's start.
    start: Chess,
    /// What the window's reading costs more than the steps it replaces.
    added: f32,
}

impl<'a> Reader<'a> {
    pub(super) fn new(
        sheet: &'a Sheet,
        lexed: &'a [Lexed<'a>],
        illegible: &'a [bool],
        lang: &'static Language,
        params: &'a Params,
        book: Option<Book<'static>>,
        meter: &'a Meter,
    ) -> Self {
        let (start, first_ply) = (Chess::default(), 1);
        Reader { sheet, lexed, illegible, lang, params, book, searcher: None, meter, start, first_ply }
    }

    /// The same reader, for a game that begins in `start`.
    pub(super) fn begins_in(self, start: &Chess) -> Self {
        Reader { start: start.clone(), first_ply: crate::start::first_ply(start), ..self }
    }

    /// The searcher, made the first time it is needed.
    pub(super) fn searcher(&mut self) -> &mut Searcher<'a> {
        let Reader { lexed, illegible, lang, params, book, meter, .. } = *self;
        self.searcher.get_or_insert_with(|| {
            let strict: Vec<Vec<Reading>> = lexed.iter().map(|l| strict_of(l, lang)).collect();
            Searcher::new(lexed, illegible, strict, lang, params).with_book(book).with_meter(meter)
        })
    }

    /// Whether the plausibility has put a costlier reading first anywhere.
    pub(super) fn prior_chose(&self) -> bool {
        self.searcher.as_ref().is_some_and(|s| s.prior_chose)
    }

    /// Reads the entries from `first` on, after the steps `prefix` (which are
    /// taken as given, never read again): exactly where it can, with the
    /// repair search where it cannot. `None` once the reading is sure to cost
    /// `ceiling` or more (the steps before a window's start are never read
    /// again, and no step costs less than nothing).
    pub(super) fn read_from(&mut self, ceiling: f32, prefix: &[Step], first: usize) -> Option<Draft> {
        let (lexed, limits) = (self.lexed, self.params.limits);
        let n = lexed.len();
        let floor = prefix.len();
        let mut draft = Draft::starting_with(&self.start, prefix, n);
        let (mut rules, mut pos) = self.rules_after(&draft);
        // Most entries are read exactly, with one reused buffer.
        let mut buf: Vec<Reading> = Vec::with_capacity(4);
        let mut i = first;
        while i < n {
            self.meter.spend(1);
            // A draw without a claim (Art. 9.6) ends the game as a mate does.
            if rules.ended(&pos).is_some() {
                draft.after_end = Some(i);
                break;
            }
            if let Some(mv) = self.exact_at(&pos, i, &mut buf) {
                pos.play_unchecked(mv);
                rules.played(&pos);
                draft.records.push(Record::sure(Step::Read { entry: i, mv, cost: 0.0 }));
                i += 1;
                continue;
            }
            if pos.legal_moves().is_empty() {
                draft.after_end = Some(i);
                break;
            }
            // Strict reading stops here; so does a record that goes on in
            // descriptive notation: it is not "repaired" into algebraic moves it never meant.
            if !self.params.enabled || (descriptive_at(lexed, i) && system_of(self.lang.code).is_none()) {
                draft.stop = Some(i);
                break;
            }
            // The budget spent, the game is kept as read up to here; a long
            // run of entries that name no move is no record of moves, and is
            // not searched.
            if self.meter.out() || nameless_run(lexed, self.illegible, i) {
                draft.stop = Some(i);
                draft.cut = self.meter.out();
                break;
            }
            // A step left in doubt by an earlier window is read again with this
            // one: what made this entry fail may be what settles it.
            let len = draft.len();
            let doubted = (len.saturating_sub(limits.deep_back)..len)
                .find(|&s| draft.records[s].doubt.is_some() || draft.records[s].unsettled);
            let keep = len.saturating_sub(limits.back).min(doubted.unwrap_or(usize::MAX)).max(floor);
            if ceiling.is_finite() && draft.cost_of(0, keep) >= ceiling {
                return None;
            }
            let (window, keep) = match self.repair(&draft, keep, floor, i, ceiling) {
                Repair::Window(window, keep) => (window, keep),
                Repair::Stop => {
                    draft.stop = Some(i);
                    draft.cut = self.meter.out();
                    break;
                }
                Repair::Beaten => return None,
            };
            let Reread { window, start, added } = window;
            // Positions are not kept per step: the window's moves are played
            // from its start.
            pos = start;
            for m in window.records.iter().flat_map(|r| r.step.moves()) {
                pos.play_unchecked(m);
            }
            draft.records.truncate(keep);
            draft.extend(window.records);
            i = window.end;
            // A slip made before the window may explain its repairs more cheaply.
            if added > 0.0
                && keep > floor
                && !self.meter.out()
                && let Some(after) = reconsider(self.searcher(), &mut draft, keep, floor, &limits)
            {
                pos = after;
            }
            // The steps changed: the positions are counted again (a window
            // read past a draw without a claim is cut when the game is built).
            rules = self.rules_after(&draft).0;
        }
        Some(draft)
    }

    /// The positions of `draft`'s moves, for Art. 9.6, and its last position.
    fn rules_after(&self, draft: &Draft) -> (DrawRules, Chess) {
        DrawRules::after(&self.start, draft.records.iter().flat_map(|r| r.step.moves()))
    }

    /// Entry `i` read exactly in `pos`: not across an empty box before it,
    /// not an illegible box, and with a check sign that holds.
    fn exact_at(&self, pos: &Chess, i: usize, buf: &mut Vec<Reading>) -> Option<shakmaty::Move> {
        if gap_before(self.sheet, i, self.first_ply) || self.illegible[i] {
            return None;
        }
        readings_of(&self.lexed[i], self.lang, buf);
        exact_move(pos, buf).filter(|mv| mark_cost(self.params, pos, self.lexed[i].check, mv) == 0.0)
    }

    /// The repair window for failing entry `failed`, read from step `keep`
    /// and, where that one costs much, from further back: the window to take
    /// and the step it starts at.
    fn repair(&mut self, draft: &Draft, keep: usize, floor: usize, failed: usize, ceiling: f32) -> Repair {
        let limits = self.params.limits;
        let mut best = self.reread(draft, keep, failed, ceiling);
        let mut keep = keep;
        let mut beaten = best.window.beaten;
        // A costly repair may be paying for a slip made long before: read
        // again from further back, and keep whichever adds less.
        let deep = draft.len().saturating_sub(limits.deep_back).max(floor);
        if deep < keep && (best.window.records.is_empty() || best.added > limits.deep_trigger) {
            let d = self.reread(draft, deep, failed, ceiling);
            beaten |= d.window.beaten;
            if !d.window.records.is_empty()
                && d.window.end > failed
                && (best.window.records.is_empty() || d.added < best.added)
            {
                (best, keep) = (d, deep);
            }
        }
        if best.window.records.is_empty() && beaten {
            return Repair::Beaten;
        }
        if best.window.records.is_empty() || best.window.end <= failed || best.added > limits.hopeless {
            return Repair::Stop;
        }
        // Past the entry after the failing one, the window takes entries that
        // read exactly as written: a costly repair it made there may owe its
        // slip to one of them (sheet 485: `Db1` read as Qb1+, for Qxb7, then
        // `Df5+` read as Qf1). The window's reading is kept up to that entry,
        // and the next window reads back from it. (Cutting at every repair
        // there costs half as much time again, for little more.)
        let w = &mut best.window;
        if let Some(cut) =
            w.records.iter().position(|r| r.step.entry() > failed + 1 && r.step.cost() > limits.review_margin)
            && cut > 0
        {
            w.end = w.records[cut].step.entry();
            w.records.truncate(cut);
        }
        Repair::Window(best, keep)
    }

    /// Reads a window from step `keep` of `draft` for failing entry `failed`.
    fn reread(&mut self, draft: &Draft, keep: usize, failed: usize, ceiling: f32) -> Reread {
        let start_entry = draft.records.get(keep).map_or(failed, |r| r.step.entry());
        let start = draft.position_at(keep);
        let old = draft.cost_of(keep, draft.len());
        let before = draft.cost_of(0, keep);
        let never_negative = self.params.costs.never_negative();
        let hopeless = self.params.limits.hopeless;
        // A window is given up once its cheapest reading so far is hopeless:
        // no step costing less than nothing, the reading it ends with costs
        // at least as much. So is a reading that can no longer cost less
        // than `ceiling` (another language's).
        let window = self.searcher().window(&start, start_entry, failed, |cost| {
            if !never_negative {
                GiveUp::No
            } else if before + cost >= ceiling {
                GiveUp::Beaten
            } else if cost - old > hopeless {
                GiveUp::Costly
            } else {
                GiveUp::No
            }
        });
        let added = window.records.iter().map(|r| r.step.cost()).sum::<f32>() - old;
        Reread { window, start, added }
    }
}

/// An empty box before entry `i` (the numbering jumps): never read across it
/// blindly. The game's first move is ply `first_ply` of the sheet's numbering.
fn gap_before(sheet: &Sheet, i: usize, first_ply: u32) -> bool {
    match (i.checked_sub(1).and_then(|j| sheet.entries[j].ply), sheet.entries[i].ply) {
        (Some(a), Some(b)) => b > a + 1,
        (None, Some(b)) => i == 0 && b > first_ply,
        _ => false,
    }
}

/// Whether the entries from `i` on are a run of [`NAMELESS_RUN`] or more that
/// name no move in any language (not an illegible box, not descriptive
/// notation): junk, or text that is no record of moves.
fn nameless_run(lexed: &[Lexed<'_>], illegible: &[bool], i: usize) -> bool {
    let mut buf = Vec::new();
    let mut nameless = |j: usize| {
        let core = &*lexed[j].core;
        !illegible[j]
            && !looks_descriptive(core)
            && LANGUAGES.iter().all(|l| {
                readings_into(core, l, &mut buf);
                buf.is_empty()
            })
    };
    i + NAMELESS_RUN <= lexed.len() && (i..i + NAMELESS_RUN).all(&mut nameless)
}
