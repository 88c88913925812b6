//! From entries to a game. Each entry is read under the sheet's language; where
//! one names no legal move exactly, a repair search re-reads the sheet around it
//! (see [`search`]). When no language is given, the candidate languages replay
//! the sheet and the one that reads it best wins.

pub mod book;
pub mod prior;
pub mod search;

pub use crate::cost::Params;

use std::cell::OnceCell;

use shakmaty::san::{San, SanPlus, Suffix};
use shakmaty::{Chess, Color, Move, Position};

use crate::cost::{CUT_SHORT, DESCRIPTIVE_NEAR, LANGUAGES_TRIED, Limits, RUNNER_UP_SHARE, SETTLE_ROUNDS};
use crate::finding::{At, Finding, Severity};
use crate::ingest::movetext::ILLEGIBLE;
use crate::notation::descriptive::{descriptive_from, looks_descriptive};
use crate::notation::lex::{CheckMark, Lexed, lex};
use crate::notation::reading::{Reading, exact_move, readings, readings_into};
use crate::notation::{LANGUAGES, Language};
use crate::sheet::{GameResult, Sheet};
use book::Book;
use search::{GiveUp, Searcher, Step};

/// A move of the game and the entry it was read from.
#[derive(Debug, Clone)]
pub struct Played {
    pub mv: Move,
    /// English SAN with check marks, as written to the PGN.
    pub san: SanPlus,
    /// Index into the sheet's entries (`None` for a move that was not written).
    pub entry: Option<usize>,
    /// Annotation glyphs written with the move.
    pub nags: Vec<u8>,
    /// The player offered a draw with this move: `(=)`.
    pub draw_offer: bool,
}

/// The game read from a sheet.
#[derive(Debug, Clone)]
pub struct Game {
    pub language: &'static Language,
    pub moves: Vec<Played>,
    pub findings: Vec<Finding>,
    /// The position after the last move read.
    pub position: Chess,
    /// The result: the one written, else the one the final position gives.
    pub result: GameResult,
    /// How unlikely the reading is given what was written (0: exactly as written).
    pub cost: f32,
}

impl Game {
    /// Whether the record goes on in descriptive notation, where reading stopped.
    fn turns_descriptive(&self) -> bool {
        self.findings.iter().any(|f| matches!(f, Finding::NonAlgebraic { .. }))
    }
}

/// How to read sheets.
#[derive(Debug, Clone, Copy)]
pub struct Settings {
    /// Piece letters for sheets without a `Language:` header (from the command
    /// line or the config); `None` infers them.
    pub language: Option<&'static Language>,
    pub params: Params,
    /// How often players chose moves in the opening, which orders readings
    /// in doubt (see [`prior`]); `None` orders them by the material check alone.
    pub book: Option<Book<'static>>,
}

impl Default for Settings {
    /// Languages inferred, the default costs, the built-in book.
    fn default() -> Self {
        Settings { language: None, params: Params::default(), book: Some(Book::builtin()) }
    }
}

/// Reads a sheet into a game.
///
/// ```
/// use scoresheet::{ingest::{read, Format}, reconstruct::{reconstruct, Settings}};
/// let sheet = &read("1. e4 e5, 2. Ac4 Cc6, 3. Dh5 Cf6, 4. Dxf7++".as_bytes(), Format::Text, 1 << 20).unwrap()[0];
/// let game = reconstruct(sheet, &Settings::default());
/// assert_eq!(game.language.code, "es");
/// assert_eq!(game.moves.last().unwrap().san.to_string(), "Qxf7#");
/// assert_eq!(game.result.as_pgn(), "1-0");
/// ```
pub fn reconstruct(sheet: &Sheet, settings: &Settings) -> Game {
    let mut findings = Vec::new();
    let header = sheet.header("Language").filter(|l| !l.trim().is_empty());
    let declared = match header.map(|h| (h, Language::find(h))) {
        Some((_, Some(l))) => Some(l),
        Some((h, None)) => {
            findings.push(Finding::UnknownLanguage { given: h.to_string() });
            settings.language
        }
        None => settings.language,
    };
    let lexed: Vec<Lexed> = sheet.entries.iter().map(|e| lex(&e.text)).collect();
    let mut game = match declared {
        Some(lang) => read(sheet, &lexed, lang, settings, f32::INFINITY).expect("no finite ceiling, never given up"),
        None => {
            let g = infer(sheet, &lexed, settings);
            findings.push(Finding::LanguageInferred { code: g.language.code, name: g.language.name });
            g
        }
    };
    let p = &settings.params;
    // Not a record that turns descriptive: it stops there however it is read.
    if p.limits.second_look > 0.0
        && game.cost > p.limits.second_look
        && p.limits.second_look_margin > p.limits.beam_margin
        && !game.turns_descriptive()
    {
        let wide = Settings {
            params: Params { limits: Limits { beam_margin: p.limits.second_look_margin, ..p.limits }, ..*p },
            ..*settings
        };
        if let Some(mut second) = read(sheet, &lexed, game.language, &wide, game.cost)
            && second.cost < game.cost
        {
            // The windows went astray once on this sheet; their margins are
            // not to be trusted to validate it (a generated sheet was read
            // 4.5 nats dearer than the game, and validated). Where the two
            // readings differ, the arbiter is shown both.
            doubt_unless_agreed(sheet, &mut second, &game);
            game = second;
        }
    }
    findings.append(&mut game.findings);
    game.findings = findings;
    judge_result(sheet, &mut game);
    game
}

/// How unlikely `moves` (a game from the start position) are given what the
/// sheet says, under `lang` and `params`: the cost of the cheapest alignment
/// of the entries to them (see [`Searcher::align`]). Next to [`Game::cost`] it
/// tells whether a game the search did not find fits the sheet better (a
/// search miss) or worse (the costs prefer the other reading).
pub fn fit_cost(sheet: &Sheet, lang: &'static Language, params: &Params, moves: &[Move]) -> f32 {
    let lexed: Vec<Lexed> = sheet.entries.iter().map(|e| lex(&e.text)).collect();
    let illegible: Vec<bool> = lexed.iter().map(is_illegible).collect();
    let strict: Vec<Vec<Reading>> = lexed.iter().map(|l| readings(&l.core, lang)).collect();
    Searcher::new(&lexed, &illegible, &strict, lang, params).align(&Chess::default(), 0, moves)
}

/// The language is a hidden choice: the languages whose letters the sheet uses
/// replay it strictly; the best one or two are read with repairs, and the
/// reading that costs least wins (the earlier in [`LANGUAGES`] on a tie).
fn infer(sheet: &Sheet, lexed: &[Lexed<'_>], settings: &Settings) -> Game {
    let params = &settings.params;
    let mut letters: Vec<(char, usize)> = Vec::new();
    for l in lexed {
        if let Some(c) = l.core.chars().next().filter(|c| c.is_uppercase())
            && !l.core.chars().all(|c| matches!(c, 'O' | '0' | 'o' | '-'))
        {
            match letters.iter_mut().find(|(x, _)| *x == c) {
                Some((_, n)) => *n += 1,
                None => letters.push((c, 1)),
            }
        }
    }
    let coverage = |lang: &Language| letters.iter().filter(|(c, _)| lang.has_letter(*c)).map(|(_, n)| n).sum::<usize>();
    let mut groups: Vec<(&'static Language, usize, usize)> = Vec::new();
    for lang in LANGUAGES {
        if !groups.iter().any(|(g, _, _)| g.same_letters(lang)) {
            groups.push((lang, coverage(lang), 0));
        }
    }
    // Stable sorts: equal scores keep the table's order.
    groups.sort_by_key(|(_, c, _)| std::cmp::Reverse(*c));
    let best_coverage = groups[0].1;
    for (i, g) in groups.iter_mut().enumerate() {
        if g.1 == best_coverage || i < LANGUAGES_TRIED {
            g.2 = strict_plies(lexed, g.0);
        }
    }
    groups.sort_by_key(|(_, _, plies)| std::cmp::Reverse(*plies));
    let first = read(sheet, lexed, groups[0].0, settings, f32::INFINITY).expect("no finite ceiling, never given up");
    // A record in descriptive notation is read only up to where it turns
    // descriptive: how a few moves before cost under other letters says
    // little of the sheet's language, which its letters said better.
    if first.cost == 0.0 || first.turns_descriptive() || groups.len() < 2 || groups[1].2 * RUNNER_UP_SHARE < groups[0].2
    {
        return first;
    }
    // The second reading wins only if it costs less: it is given up as soon as it cannot.
    let ceiling = if params.costs.never_negative() { first.cost } else { f32::INFINITY };
    match read(sheet, lexed, groups[1].0, settings, ceiling) {
        Some(second) if second.cost < first.cost => second,
        _ => first,
    }
}

/// How many entries read exactly, one after the other, under `lang`.
fn strict_plies(lexed: &[Lexed<'_>], lang: &Language) -> usize {
    let mut pos = Chess::default();
    for (i, l) in lexed.iter().enumerate() {
        match exact_move(&pos, &readings(&l.core, lang)) {
            Some(mv) => pos.play_unchecked(mv),
            None => return i,
        }
    }
    lexed.len()
}

/// Reads the sheet under one language: exactly where it can, with the repair
/// search where it cannot, then weighs what the windows left in doubt against
/// the whole sheet (see [`settle`]). `None` once the reading is sure to cost
/// `ceiling` or more.
fn read(
    sheet: &Sheet,
    lexed: &[Lexed<'_>],
    lang: &'static Language,
    settings: &Settings,
    ceiling: f32,
) -> Option<Game> {
    let params = &settings.params;
    let illegible: Vec<bool> = lexed.iter().map(is_illegible).collect();
    // The readings of every entry, and the searcher, are only built once an
    // entry fails (most sheets are read exactly), then shared by every reading.
    let strict: OnceCell<Vec<Vec<Reading>>> = OnceCell::new();
    let cx = Context { sheet, lexed, illegible: &illegible, strict: &strict, lang, params, book: settings.book };
    let mut searcher: Option<Searcher> = None;
    let mut draft = read_from(cx, &mut searcher, ceiling, &[], 0)?;
    settle(cx, &mut searcher, &mut draft);
    let Draft { steps, margins, doubts, stop, after_end, .. } = draft;
    let mut game = build(sheet, lexed, lang, &steps, &margins, &doubts, params.limits.review_margin, stop, after_end);
    // The plausibility orders readings; it must never settle one. Where it put
    // a costlier reading first and the game came out clear, the costs alone
    // must say the same: a later window may have settled the doubt starting
    // from the reading it chose.
    if searcher.as_ref().is_some_and(Searcher::prior_chose)
        && game.findings.iter().all(|f| f.severity() == Severity::Info)
    {
        let plain = Settings {
            params: Params { limits: Limits { prior_reach: 0.0, ..params.limits }, ..*params },
            ..*settings
        };
        if let Some(costs_alone) = read(sheet, lexed, lang, &plain, f32::INFINITY) {
            doubt_unless_agreed(sheet, &mut game, &costs_alone);
        }
    }
    Some(game)
}

/// Puts `game` in review where the reading by costs alone, `costs_alone`,
/// plays other moves or is itself in doubt.
fn doubt_unless_agreed(sheet: &Sheet, game: &mut Game, costs_alone: &Game) {
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

/// What every reading of a sheet under one language shares.
#[derive(Clone, Copy)]
struct Context<'a> {
    sheet: &'a Sheet,
    lexed: &'a [Lexed<'a>],
    illegible: &'a [bool],
    /// The readings of every entry, made once an entry fails.
    strict: &'a OnceCell<Vec<Vec<Reading>>>,
    lang: &'static Language,
    params: &'a Params,
    book: Option<Book<'static>>,
}

impl<'a> Context<'a> {
    /// The searcher of a reading, made the first time one is needed.
    fn searcher<'s>(&self, slot: &'s mut Option<Searcher<'a>>) -> &'s mut Searcher<'a> {
        let Context { lexed, illegible, strict, lang, params, book, .. } = *self;
        slot.get_or_insert_with(|| {
            let strict = strict.get_or_init(|| lexed.iter().map(|l| readings(&l.core, lang)).collect());
            Searcher::new(lexed, illegible, strict, lang, params).with_book(book)
        })
    }
}

/// The steps of a reading, before they are built into a game.
struct Draft {
    steps: Vec<Step>,
    margins: Vec<f32>,
    doubts: Vec<Doubt>,
    stop: Option<usize>,
    after_end: Option<usize>,
}

/// A step of a reading whose best reading is not clearly ahead.
#[derive(Debug, Clone)]
struct Doubt {
    /// Index into the reading's steps.
    step: usize,
    /// The moves, in SAN, that the close readings play there.
    rivals: Vec<String>,
    /// Left as it is by [`settle`]: raised by a slip before a window (see
    /// [`reconsider`]), or where a rival read the sheet more cheaply than the
    /// window's best (the search missed it there, so its margins are not to
    /// be trusted).
    kept: bool,
}

impl Doubt {
    /// A window's doubt, which [`settle`] weighs again.
    fn open(step: usize, rivals: Vec<String>) -> Doubt {
        Doubt { step, rivals, kept: false }
    }

    /// A doubt [`settle`] leaves to the arbiter.
    fn kept(step: usize, rivals: Vec<String>) -> Doubt {
        Doubt { step, rivals, kept: true }
    }
}

/// Reads the entries from `first` on, after the steps `prefix` (which are
/// taken as given, never read again): exactly where it can, with the repair
/// search where it cannot. `None` once the reading is sure to cost `ceiling`
/// or more (the steps before a window's start are never read again, and no
/// step costs less than nothing).
fn read_from<'a>(
    cx: Context<'a>,
    searcher: &mut Option<Searcher<'a>>,
    ceiling: f32,
    prefix: &[Step],
    first: usize,
) -> Option<Draft> {
    let Context { sheet, lexed, illegible, lang, params, .. } = cx;
    let n = lexed.len();
    let floor = prefix.len();
    // An empty box before an entry (the numbering jumps): never read across it blindly.
    let gap_before = |i: usize| match (i.checked_sub(1).and_then(|j| sheet.entries[j].ply), sheet.entries[i].ply) {
        (Some(a), Some(b)) => b > a + 1,
        (None, Some(b)) => i == 0 && b > 1,
        _ => false,
    };
    // Most entries are read exactly, with one reused buffer.
    let mut buf: Vec<Reading> = Vec::with_capacity(4);
    let mut steps: Vec<Step> = Vec::with_capacity(n);
    steps.extend_from_slice(prefix);
    let mut margins: Vec<f32> = vec![f32::INFINITY; floor];
    // Where a window's best reading was not clearly ahead.
    let mut doubts: Vec<Doubt> = Vec::new();
    // Where each window's close readings part from its best (step index).
    let mut unsettled: Vec<usize> = Vec::new();
    let mut stop: Option<usize> = None;
    let mut after_end: Option<usize> = None;
    let mut pos = Chess::default();
    for m in prefix.iter().flat_map(Step::moves) {
        pos.play_unchecked(m);
    }
    let mut i = first;
    while i < n {
        if !gap_before(i) && !illegible[i] {
            readings_into(&lexed[i].core, lang, &mut buf);
            if let Some(mv) = exact_move(&pos, &buf)
                && search::mark_cost(params, &pos, lexed[i].check, &mv) == 0.0
            {
                pos.play_unchecked(mv);
                steps.push(Step::Read { entry: i, mv, cost: 0.0 });
                margins.push(f32::INFINITY);
                i += 1;
                continue;
            }
        }
        if pos.legal_moves().is_empty() {
            after_end = Some(i);
            break;
        }
        // Strict reading stops here; so does a record that goes on in
        // descriptive notation: it is not "repaired" into algebraic moves it never meant.
        if !params.enabled || descriptive_at(lexed, i) {
            stop = Some(i);
            break;
        }
        let searcher = cx.searcher(searcher);
        // A step left in doubt by an earlier window is read again with this
        // one: what made this entry fail may be what settles it.
        let doubted = doubts
            .iter()
            .map(|d| d.step)
            .chain(unsettled.iter().copied())
            .filter(|&s| s + params.limits.deep_back >= steps.len())
            .min();
        let keep = steps.len().saturating_sub(params.limits.back).min(doubted.unwrap_or(usize::MAX)).max(floor);
        // Summed in the order `build` sums all steps: the partial sum of costs
        // that are never negative only grows.
        if ceiling.is_finite() && steps[..keep].iter().map(Step::cost).sum::<f32>() >= ceiling {
            return None;
        }
        let never_negative = params.costs.never_negative();
        let mut reread = |keep: usize| {
            let start_entry = steps.get(keep).map_or(i, Step::entry);
            // Positions are not kept per move: the window's start is replayed.
            let mut start_pos = Chess::default();
            for m in steps[..keep].iter().flat_map(Step::moves) {
                start_pos.play_unchecked(m);
            }
            let old: f32 = steps[keep..].iter().map(Step::cost).sum();
            let before: f32 = steps[..keep].iter().map(Step::cost).sum();
            // A window is given up once its cheapest reading so far is hopeless:
            // no step costing less than nothing, the reading it ends with costs
            // at least as much. So is a reading that can no longer cost less
            // than `ceiling` (another language's).
            let over = std::cell::Cell::new(false);
            let window = searcher.window(&start_pos, start_entry, i, |cost| {
                over.set(never_negative && before + cost >= ceiling);
                if !never_negative {
                    GiveUp::No
                } else if over.get() {
                    GiveUp::Beaten
                } else if cost - old > params.limits.hopeless {
                    GiveUp::Costly
                } else {
                    GiveUp::No
                }
            });
            let added = window.steps.iter().map(Step::cost).sum::<f32>() - old;
            (window, start_pos, added, over.get())
        };
        let (mut window, mut start_pos, mut added, mut over) = reread(keep);
        let mut keep = keep;
        // A costly repair may be paying for a slip made long before: read
        // again from further back, and keep whichever adds less.
        let deep = steps.len().saturating_sub(params.limits.deep_back).max(floor);
        if deep < keep && (window.steps.is_empty() || added > params.limits.deep_trigger) {
            let (w, p, a, deep_over) = reread(deep);
            over |= deep_over;
            if !w.steps.is_empty() && w.end > i && (window.steps.is_empty() || a < added) {
                (window, start_pos, added, keep) = (w, p, a, deep);
            }
        }
        if window.steps.is_empty() && over {
            return None;
        }
        if window.steps.is_empty() || window.end <= i || added > params.limits.hopeless {
            stop = Some(i);
            break;
        }
        // Past the entry after the failing one, the window takes entries that
        // read exactly as written: a costly repair it made there may owe its
        // slip to one of them (sheet 485: `Db1` read as Qb1+, for Qxb7, then
        // `Df5+` read as Qf1). The window's reading is kept up to that entry,
        // and the next window reads back from it. (Cutting at every repair
        // there costs half as much time again, for little more.)
        if let Some(cut) = window.steps.iter().position(|s| s.entry() > i + 1 && s.cost() > params.limits.review_margin)
            && cut > 0
        {
            window.end = window.steps[cut].entry();
            window.steps.truncate(cut);
            window.margins.truncate(cut);
            window.doubts.retain(|(s, _)| *s < cut);
            window.unsettled = window.unsettled.filter(|u| *u < cut);
        }
        steps.truncate(keep);
        margins.truncate(keep);
        doubts.retain(|d| d.step < keep);
        unsettled.retain(|s| *s < keep);
        unsettled.extend(window.unsettled.map(|u| keep + u));
        let mut p = start_pos;
        for (k, s) in window.steps.iter().enumerate() {
            for m in s.moves() {
                p.play_unchecked(m);
            }
            steps.push(*s);
            margins.push(window.margins.get(k).copied().unwrap_or(f32::INFINITY));
        }
        doubts.extend(window.doubts.into_iter().map(|(at, rivals)| Doubt::open(keep + at, rivals)));
        pos = p;
        i = window.end;
        // A slip made before the window may explain its repairs more cheaply.
        if added > 0.0
            && keep > floor
            && let Some((k, p)) = reconsider(searcher, &mut steps, &mut margins, &mut doubts, keep, floor, params)
        {
            unsettled.retain(|s| *s < k);
            pos = p;
        }
    }
    Some(Draft { steps, margins, doubts, stop, after_end })
}

/// A window closes at most `ahead_max` entries past the one that failed, and
/// the rest of the sheet is then read as the best reading goes on: a rival
/// left close may well be contradicted by an entry further on (a knight put
/// on a3 instead of c3 cannot make the `Ne4` written twenty moves later).
/// Each doubt a window left is weighed again on the whole sheet: the rival
/// move is put in place of the chosen one and the rest of the sheet read
/// after it, with repairs; when every rival then costs the review margin
/// more than the reading found, the doubt is settled. Doubts raised by a
/// slip before a window, by a skipped entry or a move not written are left
/// as they are.
///
/// A rival that reads the whole sheet more cheaply than the reading found (the
/// window missed it) replaces it, but in doubt: a search that missed one
/// reading may have missed another as cheap. The new reading is weighed the
/// same way; the cost only falls, a few rounds at most.
fn settle<'a>(cx: Context<'a>, searcher: &mut Option<Searcher<'a>>, draft: &mut Draft) {
    for _ in 0..SETTLE_ROUNDS {
        match settle_once(cx, searcher, draft) {
            Some(better) => *draft = better,
            None => return,
        }
    }
}

/// One round of [`settle`]: the cheaper reading a rival makes, if one does.
fn settle_once<'a>(cx: Context<'a>, slot: &mut Option<Searcher<'a>>, draft: &mut Draft) -> Option<Draft> {
    let params = cx.params;
    if draft.stop.is_some() || draft.doubts.is_empty() || !params.costs.never_negative() {
        return None;
    }
    let total: f32 = draft.steps.iter().map(Step::cost).sum();
    let ceiling = total + params.limits.review_margin;
    let mut settled: Vec<usize> = Vec::new();
    for doubt in &draft.doubts {
        let (k, rivals) = (doubt.step, &doubt.rivals);
        if doubt.kept {
            continue;
        }
        let mut pos = Chess::default();
        for m in draft.steps[..k].iter().flat_map(Step::moves) {
            pos.play_unchecked(m);
        }
        // A move not written may be any of many that the window did not all
        // list: only a reading of an entry is settled so.
        let Step::Read { entry, mv: chosen, .. } = draft.steps[k] else { continue };
        let before: f32 = draft.steps[..k].iter().map(Step::cost).sum();
        // The rivals: those the window kept close, and every move the entry
        // reads as cheaply enough to matter (the window's beam may have let
        // some go: an illegible box reads as any legal move).
        let chosen_san = San::from_move(&pos, chosen);
        let mut candidates: Vec<Move> = Vec::new();
        let mut refuted = true;
        for rival in rivals {
            match SanPlus::from_ascii(rival.as_bytes()).ok().map(|s| s.san) {
                Some(san) if san == chosen_san => {}
                Some(san) => match san.to_move(&pos) {
                    Ok(mv) => candidates.push(mv),
                    Err(_) => refuted = false,
                },
                None => refuted = false,
            }
        }
        for mv in pos.legal_moves() {
            if mv != chosen
                && !candidates.contains(&mv)
                && before + cx.searcher(slot).reading_cost(&pos, entry, &mv) < ceiling
            {
                candidates.push(mv);
            }
        }
        let others = candidates.len();
        // Those that read the most entries after them exactly are read first:
        // of twenty moves an illegible first box allows, the one the
        // thirty-seventh move needs (sheet 436) is found without reading
        // every other through.
        if candidates.len() > 1 {
            let searcher = cx.searcher(slot);
            let reach = |mv: &Move| {
                let mut p = pos.clone();
                p.play_unchecked(*mv);
                let mut j = entry + 1;
                while j < cx.lexed.len()
                    && let Some(m) = searcher.exact(&p, j)
                {
                    p.play_unchecked(m);
                    j += 1;
                }
                j
            };
            // As far as they reach alike, the move players choose more often first.
            let mut reached: Vec<(usize, f32, Move)> =
                candidates.iter().map(|m| (reach(m), searcher.move_prior(&pos, m), *m)).collect();
            reached.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.total_cmp(&a.1)));
            candidates = reached.into_iter().map(|(_, _, m)| m).collect();
        }
        // The rivals are read until one holds: one that reads the sheet more
        // cheaply replaces the reading; one that does not keeps the doubt.
        let mut holding: Option<(f32, Move, Draft)> = None;
        for mv in candidates {
            if !refuted {
                break;
            }
            let cost = cx.searcher(slot).reading_cost(&pos, entry, &mv);
            if before + cost >= ceiling {
                continue;
            }
            let prefix: Vec<Step> = draft.steps[..k].iter().copied().chain([Step::Read { entry, mv, cost }]).collect();
            let Some(rival) = read_from(cx, slot, ceiling, &prefix, entry + 1) else {
                continue;
            };
            let cost = rival.steps.iter().map(Step::cost).sum::<f32>();
            if rival.stop.is_none() && cost < ceiling {
                refuted = false;
                holding = Some((cost, mv, rival));
            }
        }
        // A rival that ends the game early leaves entries unread, at no cost
        // here: it does not replace the reading.
        if let Some((cost, mv, mut rival)) = holding
            && cost < total
            && rival.after_end == draft.after_end
            && !prior_keeps(cx, slot, draft, total, &rival, cost)
        {
            rival.margins[..k].copy_from_slice(&draft.margins[..k]);
            for &s in &settled {
                rival.margins[s] = rival.margins[s].max(params.limits.review_margin);
            }
            rival.margins[k] = total - cost;
            let mut doubts: Vec<Doubt> =
                draft.doubts.iter().filter(|d| d.step < k && !settled.contains(&d.step)).cloned().collect();
            // Never validated so: the window missed this reading, and may
            // have missed others as cheap.
            let san = |m: Move| play(&mut pos.clone(), m).to_string();
            doubts.push(Doubt::kept(k, vec![san(mv), san(chosen)]));
            doubts.append(&mut rival.doubts);
            rival.doubts = doubts;
            return Some(rival);
        }
        if refuted && others > 0 {
            settled.push(k);
        }
    }
    for k in settled {
        draft.doubts.retain(|d| d.step != k);
        draft.margins[k] = draft.margins[k].max(params.limits.review_margin);
    }
    None
}

/// Whether the plausibility prefers the reading a window chose to a cheaper rival
/// read on the whole sheet (the window put it first, see
/// [`Params::prior_reach`]); the doubt stays either way.
fn prior_keeps<'a>(
    cx: Context<'a>,
    slot: &mut Option<Searcher<'a>>,
    draft: &Draft,
    total: f32,
    rival: &Draft,
    cost: f32,
) -> bool {
    let ours: Vec<Move> = draft.steps.iter().flat_map(Step::moves).collect();
    let theirs: Vec<Move> = rival.steps.iter().flat_map(Step::moves).collect();
    cx.searcher(slot).prior_choice(&Chess::default(), &[&ours, &theirs], &[total, cost]) == Some(0)
}

/// Weighs the single slips before step `keep` that would explain the repairs
/// from there on (see [`Searcher::slips`]): the cheapest replaces the repairs
/// when it costs less (returns the slip's step and the new position), and a slip about as likely
/// as the repairs puts them in doubt.
fn reconsider(
    searcher: &mut Searcher<'_>,
    steps: &mut Vec<Step>,
    margins: &mut Vec<f32>,
    doubts: &mut Vec<Doubt>,
    keep: usize,
    floor: usize,
    params: &Params,
) -> Option<(usize, Chess)> {
    let from = keep.saturating_sub(params.limits.deep_back).max(floor);
    let mut start = Chess::default();
    for m in steps[..from].iter().flat_map(Step::moves) {
        start.play_unchecked(m);
    }
    let mut found = searcher.slips(&start, &steps[from..], keep - from, params.limits.slip_margin);
    // Slips about as likely as one another: the likelier moves first.
    if found.len() > 1 {
        let lines: Vec<Vec<Move>> = found
            .iter()
            .map(|(k, line, _)| steps[from..from + k].iter().chain(line).flat_map(Step::moves).collect())
            .collect();
        let refs: Vec<&[Move]> = lines.iter().map(Vec::as_slice).collect();
        let costs: Vec<f32> =
            found.iter().map(|(k, _, cost)| steps[from..from + k].iter().map(Step::cost).sum::<f32>() + cost).collect();
        if let Some(i) = searcher.prior_choice(&start, &refs, &costs).filter(|&i| i > 0) {
            let preferred = found.remove(i);
            found.insert(0, preferred);
        }
    }
    let (k, line, cost) = found.first()?;
    let k = from + k;
    let mut at = start;
    for m in steps[from..k].iter().flat_map(Step::moves) {
        at.play_unchecked(m);
    }
    let current: f32 = steps[k..].iter().map(Step::cost).sum();
    let ours: Vec<Move> = steps[k..].iter().flat_map(Step::moves).collect();
    let theirs: Vec<Move> = line.iter().flat_map(Step::moves).collect();
    let (ours_sans, their_sans) = (search::sans(&at, &ours), search::sans(&at, &theirs));
    // A slip that costs a little more than the repairs it explains is still
    // taken, in doubt, where its moves are the likelier (`c4` for 1.e4).
    let likelier = *cost >= current && searcher.prior_choice(&at, &[&ours, &theirs], &[current, *cost]) == Some(1);
    if *cost < current || likelier {
        // The best other reading: the repairs, or the next slip.
        let rival = found.get(1).map_or(current, |r| r.2.min(current));
        let mut alternatives: Vec<String> = their_sans.first().into_iter().chain(ours_sans.first()).cloned().collect();
        alternatives.dedup();
        margins.truncate(k);
        doubts.retain(|d| d.step < k);
        steps.truncate(k);
        let mut p = at;
        for (n, s) in line.iter().enumerate() {
            steps.push(*s);
            margins.push(if n == 0 { rival - cost } else { f32::INFINITY });
            for m in s.moves() {
                p.play_unchecked(m);
            }
        }
        if rival - cost < params.limits.review_margin {
            doubts.push(Doubt::kept(k, alternatives));
        }
        return Some((k, p));
    }
    // Keep the repairs, but in doubt: the first one the slip explains (reads
    // more cheaply), and what the slip would play there. The slip's line is
    // step for step the same shape, so plies line up.
    let mut ply = 0;
    for s in k..steps.len() {
        if steps[s].cost() > 0.0 && line.get(s - k).is_some_and(|t| t.cost() < steps[s].cost()) {
            if margins[s] >= params.limits.review_margin && !doubts.iter().any(|d| d.step == s) {
                margins[s] = cost - current;
                let mut alternatives: Vec<String> = ours_sans.get(ply).into_iter().cloned().collect();
                if let Some(san) = their_sans.get(ply).filter(|s| !alternatives.contains(s)) {
                    alternatives.push(san.clone());
                }
                doubts.push(Doubt::kept(s, alternatives));
            }
            break;
        }
        ply += steps[s].moves().count();
    }
    None
}

/// An illegible box (`?`, `X`, `---` ...) or an empty one: any legal move may fill it.
fn is_illegible(l: &Lexed<'_>) -> bool {
    l.core.is_empty() || ILLEGIBLE.contains(&&*l.core)
}

/// Whether entry `i` is descriptive notation and the record goes on in it.
fn descriptive_at(lexed: &[Lexed<'_>], i: usize) -> bool {
    looks_descriptive(&lexed[i].core) && descriptive_from(lexed[i..].iter().map(|l| &*l.core))
}

/// Turns the steps of a reading into the game's moves and findings.
#[allow(clippy::too_many_arguments)]
fn build(
    sheet: &Sheet,
    lexed: &[Lexed<'_>],
    lang: &'static Language,
    steps: &[Step],
    margins: &[f32],
    doubts: &[Doubt],
    review_margin: f32,
    stop: Option<usize>,
    after_end: Option<usize>,
) -> Game {
    let mut pos = Chess::default();
    let mut moves: Vec<Played> = Vec::with_capacity(steps.len());
    let mut findings = Vec::new();
    let mut offset: Option<i64> = None;
    let mut numbering_reported = false;
    let mut stop_at_end: Option<usize> = None;
    let at_entry = |ply: u32, e: usize| At { ply, line: sheet.entries[e].line, col: sheet.entries[e].col };
    for (k, step) in steps.iter().enumerate() {
        let margin = margins[k];
        // A repair whose window was not clearly ahead is in doubt even where a
        // later window named another step as the first to differ.
        let unsure = (margin < review_margin && step.cost() > 0.0).then(Vec::new);
        let doubt = doubts.iter().find(|d| d.step == k).map(|d| d.rivals.clone()).or(unsure);
        let ply = moves.len() as u32 + 1;
        if let Some(rivals) = &doubt {
            let alternatives: Vec<String> = rivals.clone();
            let (written, at) = match *step {
                Step::Read { entry, .. } | Step::Skip { entry, .. } => {
                    (sheet.entries[entry].text.clone(), at_entry(ply, entry))
                }
                Step::InsertRead { entry, .. } => (String::new(), At { ply, ..at_entry(ply, entry) }),
            };
            let replacement = step.moves().next().map_or_else(|| "nothing".to_string(), |m| san_of(&pos, m));
            findings.push(Finding::AmbiguousRepair { at, written, replacement, alternatives, margin });
        }
        let entry = step.entry();
        let text = &sheet.entries[entry].text;
        match *step {
            Step::Skip { .. } => {
                offset = offset.map(|o| o - 1);
                let repeat = [entry.checked_sub(1), Some(entry + 1)]
                    .into_iter()
                    .flatten()
                    .any(|j| lexed.get(j).is_some_and(|o| o.core == lexed[entry].core));
                let last = steps[k + 1..].iter().all(|s| matches!(s, Step::Skip { .. }));
                if !repeat && last && stop.is_none() {
                    // Nothing after it was read: the record ends in an entry
                    // that fits no move, kept up to there.
                    stop_at_end = Some(entry);
                    break;
                }
                if doubt.is_none() {
                    findings.push(Finding::ExtraEntry {
                        at: at_entry(ply, entry),
                        written: text.clone(),
                        repeat,
                        margin,
                    });
                }
                continue;
            }
            Step::InsertRead { inserted, .. } => {
                let san = play(&mut pos, inserted);
                if doubt.is_none() {
                    findings.push(Finding::MissingMove {
                        at: At { ply, line: 0, col: 0 },
                        replacement: san.to_string(),
                        margin,
                    });
                }
                moves.push(Played { mv: inserted, san, entry: None, nags: Vec::new(), draw_offer: false });
                offset = offset.map(|o| o + 1);
            }
            Step::Read { .. } => {}
        }
        let (Step::Read { mv, cost, .. } | Step::InsertRead { mv, cost, .. }) = *step else { continue };
        let ply = moves.len() as u32 + 1;
        let at = at_entry(ply, entry);
        let l = &lexed[entry];
        let san = play(&mut pos, mv);
        let fuzzy = matches!(step, Step::Read { .. }) && cost > 0.0;
        if doubt.is_none() {
            if is_illegible(l) {
                findings.push(Finding::IllegibleEntry {
                    at,
                    written: text.clone(),
                    replacement: san.to_string(),
                    margin,
                });
            } else if fuzzy {
                findings.push(Finding::TypoRepaired {
                    at,
                    written: text.clone(),
                    replacement: san.to_string(),
                    margin,
                });
            }
        }
        let gives = san.suffix;
        let claims_mate = l.check == Some(CheckMark::Mate) && gives != Some(shakmaty::san::Suffix::Checkmate);
        let claims_check = l.check == Some(CheckMark::Check) && gives.is_none();
        if claims_mate || claims_check {
            findings.push(Finding::CheckMarkMismatch { at, written: text.clone(), replacement: san.to_string() });
        }
        if let Some(declared) = sheet.entries[entry].ply {
            let observed = ply as i64 - declared as i64;
            match offset {
                Some(o) if o != observed && !numbering_reported => {
                    findings.push(Finding::NumberingError { at, written: text.clone() });
                    numbering_reported = true;
                }
                _ => {}
            }
            offset = Some(observed);
        }
        let e = &sheet.entries[entry];
        let nags = l.nags.iter().chain(&e.nags).copied().collect();
        moves.push(Played { mv, san, entry: Some(entry), nags, draw_offer: l.draw_offer || e.draw_offer });
    }
    let ply = moves.len() as u32 + 1;
    if let Some(i) = stop.or(stop_at_end) {
        let (at, written) = (at_entry(ply, i), sheet.entries[i].text.clone());
        if descriptive_at(lexed, i) {
            findings.push(Finding::NonAlgebraic { at, written });
        } else {
            findings.push(Finding::IllegalMove { at, written });
            // A slip just before the record turns descriptive: say that too.
            if let Some(j) = (i + 1..lexed.len().min(i + 1 + DESCRIPTIVE_NEAR)).find(|&j| descriptive_at(lexed, j)) {
                findings.push(Finding::NonAlgebraic { at: at_entry(ply, j), written: sheet.entries[j].text.clone() });
            }
        }
    }
    if let Some(i) = after_end {
        findings.push(Finding::MovesAfterEnd { at: at_entry(ply, i), written: sheet.entries[i].text.clone() });
    }
    let cost = steps.iter().map(Step::cost).sum::<f32>() + if stop.is_some() { CUT_SHORT } else { 0.0 };
    Game { language: lang, moves, findings, position: pos, result: GameResult::Unknown, cost }
}

/// The check mark of the position after a move: mate is looked for only after a check.
fn suffix(pos: &Chess) -> Option<Suffix> {
    if !pos.is_check() {
        None
    } else if pos.legal_moves().is_empty() {
        Some(Suffix::Checkmate)
    } else {
        Some(Suffix::Check)
    }
}

/// The SAN, with check marks, of a legal move in a position.
fn san_of(pos: &Chess, m: Move) -> String {
    play(&mut pos.clone(), m).to_string()
}

/// Plays a legal move and returns its SAN with check marks. Cheaper than
/// `SanPlus::from_move_and_play_unchecked`, which generates every legal move
/// after every move to tell mate: here that is done only after a check.
pub fn play(pos: &mut Chess, m: Move) -> SanPlus {
    let san = San::from_move(pos, m);
    pos.play_unchecked(m);
    SanPlus { san, suffix: suffix(pos) }
}

/// The result: as written, checked against a final checkmate or stalemate.
fn judge_result(sheet: &Sheet, game: &mut Game) {
    let complete =
        !game.findings.iter().any(|f| matches!(f, Finding::IllegalMove { .. } | Finding::NonAlgebraic { .. }));
    // Only checkmate and stalemate settle a result by the board; a dead position
    // or a flag fall is the arbiter's to judge.
    let pos = &game.position;
    let board = match (pos.legal_moves().is_empty(), pos.is_check(), pos.turn()) {
        (true, true, Color::White) => Some(GameResult::BlackWins),
        (true, true, Color::Black) => Some(GameResult::WhiteWins),
        (true, false, _) if complete => Some(GameResult::Draw),
        _ => None,
    };
    let written = sheet.result.or_else(|| sheet.header("Result").and_then(GameResult::parse));
    game.result = match (written, board) {
        (Some(w), Some(b)) if w != b && complete => {
            game.findings.push(Finding::ResultMismatch { written: w, board: b });
            w
        }
        (Some(w), _) => w,
        (None, Some(b)) => b,
        (None, None) => {
            if complete && !game.moves.is_empty() {
                game.findings.push(Finding::IncompleteRecord { moves: game.moves.len().div_ceil(2) as u32 });
            }
            GameResult::Unknown
        }
    };
}
