//! The pipeline for one file, from bytes to report: ingest, reconstruct, judge,
//! emit. No IO: the caller reads the file and writes the outputs.

use std::borrow::Cow;

use crate::cost::{Params, SAME_GAME_PLIES};
use crate::emit::pgn;
use crate::emit::report::{FileReport, FindingReport, GameReport, Status};
use crate::finding::{Finding, NotRead, ReportLanguage, Why};
use crate::ingest;
use crate::notation::Language;
use crate::pairing::Paired;
use crate::pairing::matching::{keyed, sheet_pairing};
use crate::reconstruct::by_moves::pair_by_moves;
use crate::reconstruct::copies::{CopyKey, Grouping, group, read_pair};
use crate::reconstruct::{FileBudget, Game, PairBudget, Settings, reconstruct_within};
use crate::sheet::{GameResult, Sheet};

/// Settings of a conversion (from the config and the command line).
#[derive(Debug, Clone)]
pub struct Options {
    /// Piece letters for sheets without a `Language:` header; `None` infers them.
    pub language: Option<&'static Language>,
    /// Largest file accepted, in bytes.
    pub max_file_bytes: usize,
    /// Costs and limits of the repair search.
    pub params: Params,
    /// The tournament's pairings (`--pairings`): each sheet is matched to its
    /// game, and its PGN takes the pairings' names, ratings, round and board.
    pub pairings: Option<std::sync::Arc<crate::pairing::Tournament>>,
    /// The language of the findings' messages (the report's and the PGN
    /// comments'); the codes are the same in every language.
    pub report_language: ReportLanguage,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            language: None,
            max_file_bytes: 1 << 20,
            params: Params::default(),
            pairings: None,
            report_language: ReportLanguage::En,
        }
    }
}

impl Options {
    /// How each sheet of the file is read: these options with the built-in
    /// opening book.
    pub fn settings(&self) -> Settings {
        Settings { language: self.language, params: self.params, ..Settings::default() }
    }
}

/// Converts the bytes of one file named `path` (the name picks the format).
///
/// ```
/// use scoresheet::convert::{convert, Options};
/// use scoresheet::emit::report::Status;
/// let report = convert("seed.txt", b"1.d4 Cf6, 2.c4 e6, 3.Cc3 Ab4, 4.Ad2 0-0 1/2-1/2", &Options::default());
/// let game = &report.games[0];
/// assert_eq!(game.status, Status::Validated);
/// assert_eq!(game.language, "es");
/// assert_eq!(game.moves, ["d4", "Nf6", "c4", "e6", "Nc3", "Bb4", "Bd2", "O-O"]);
/// ```
pub fn convert(path: &str, bytes: &[u8], opts: &Options) -> FileReport {
    match ingest::read_named(path, bytes, opts.max_file_bytes) {
        Ok(sheets) => {
            // One budget of work for the file, its games' taken off it in turn.
            let mut budget = FileBudget::new(&opts.params.limits);
            let games = sheets.iter().map(|s| game_report_within(s, opts, &mut budget)).collect();
            FileReport { path: path.to_string(), error: None, games }
        }
        Err(e) => FileReport { path: path.to_string(), error: Some(e.to_string()), games: Vec::new() },
    }
}

/// Reads, judges and renders one sheet.
pub fn game_report(sheet: &Sheet, opts: &Options) -> GameReport {
    game_report_within(sheet, opts, &mut FileBudget::new(&opts.params.limits))
}

/// [`game_report`] within what is left of its file's budget of work.
fn game_report_within(sheet: &Sheet, opts: &Options, budget: &mut FileBudget) -> GameReport {
    report_of(sheet, reconstruct_within(sheet, &opts.settings(), budget), opts, None, None, Written::Always)
}

/// An arbiter's decision on a game, as its report takes it in (see
/// [`crate::decision`]): the moves it settled, and whether it rejected the game.
#[derive(Debug, Clone)]
pub(crate) struct Verdict {
    pub arbiter: String,
    /// The plies the arbiter fixed, and why (the note, or the doubt settled).
    pub fixed: Vec<(u32, Why)>,
    /// What the arbiter said of the whole game: accepted, with the note.
    pub said: Why,
    /// Rejected, for this reason.
    pub reject: Option<String>,
    /// Every doubt left is accepted as read (else those the arbiter did not
    /// fix stay, and the game stays in review while any does).
    pub accept: bool,
    /// The result the arbiter established: it settles every finding about
    /// the result.
    pub result: Option<GameResult>,
}

/// `findings` and `status` as `verdict` leaves them: each move the arbiter
/// fixed (and, accepting, each doubt left) becomes the arbiter's decision
/// there; the game goes to pgn/ when no doubt is left (or to rejected/ with
/// the reason).
fn judged_by(verdict: &Verdict, findings: &mut Vec<Finding>, game: &Game, sheet: &Sheet) -> Status {
    let arbiter = verdict.arbiter.clone();
    let decided = |at: crate::finding::At, why: Why| {
        let played = game.moves.get(at.ply as usize - 1).map(|m| pgn::san_text(m.san));
        Finding::ArbiterDecision { at: Some(at), arbiter: arbiter.clone(), played, why }
    };
    if let Some(reason) = &verdict.reject {
        findings.push(Finding::ArbiterDecision {
            at: None,
            arbiter: arbiter.clone(),
            played: None,
            why: Why::Rejected(reason.clone()),
        });
        return Status::Rejected;
    }
    let fixed = |ply: u32| verdict.fixed.iter().find(|(p, _)| *p == ply);
    let mut out: Vec<Finding> = Vec::with_capacity(findings.len() + verdict.fixed.len() + 2);
    if let Some(r) = verdict.result {
        findings.retain(|f| !f.is_about_result());
        out.push(Finding::ArbiterDecision { at: None, arbiter: arbiter.clone(), played: None, why: Why::Result(r) });
    }
    for f in findings.drain(..) {
        match f.at().filter(|at| at.ply >= 1 && at.ply as usize <= game.moves.len()) {
            Some(at) if verdict.accept && f.is_doubt() && fixed(at.ply).is_none() => {
                out.push(decided(at, Why::DoubtAccepted(f.code())));
            }
            Some(at) if fixed(at.ply).is_some() => {}
            _ => out.push(f),
        }
    }
    for (ply, why) in &verdict.fixed {
        let Some(m) = game.moves.get(*ply as usize - 1) else { continue };
        let entry = m.entry.and_then(|e| sheet.entries.get(e));
        let at = crate::finding::At { ply: *ply, line: entry.map_or(0, |e| e.line), col: entry.map_or(0, |e| e.col) };
        out.push(decided(at, why.clone()));
    }
    if verdict.accept {
        out.push(Finding::ArbiterDecision { at: None, arbiter, played: None, why: verdict.said.clone() });
    }
    let doubts = out.iter().any(Finding::is_doubt);
    *findings = out;
    if verdict.accept || !doubts { Status::Validated } else { Status::Review }
}

/// The report of `game`, read from `sheet` (for two copies, the one the game
/// is taken from, with both files named in `sheets_tag`): what was guessed
/// while reading the file, the pairings' tags and findings where there are
/// pairings, the status, the PGN.
fn report_of(
    sheet: &Sheet,
    mut game: Game,
    opts: &Options,
    sheets_tag: Option<String>,
    verdict: Option<&Verdict>,
    keep: Written,
) -> GameReport {
    game.findings.extend(read_findings(sheet));
    let paired = opts.pairings.as_deref().and_then(|t| crate::pairing::apply(t, sheet, &mut game.findings));
    if let Some(p) = &paired {
        result_from_pairing(&mut game, p);
    }
    let sheet = paired.as_ref().map_or(sheet, |p| &p.sheet);
    if let Some(r) = verdict.and_then(|v| v.result) {
        game.result = r;
    }
    let mut status = status(sheet, &game);
    if let Some(v) = verdict {
        let mut findings = std::mem::take(&mut game.findings);
        status = judged_by(v, &mut findings, &game, sheet);
        game.findings = findings;
    }
    // The tags and the moves' SANs are worked out once, for the PGN and the report.
    let mut tags = pgn::tags(sheet, &game);
    tags.extend(sheets_tag.map(|files| ("Sheets".to_string(), files)));
    tags.extend(verdict.map(|v| ("Annotator".to_string(), v.arbiter.clone())));
    let moves: Vec<String> = game.moves.iter().map(|m| pgn::san_text(m.san)).collect();
    let lang = opts.report_language;
    let pgn = pgn::write_with(sheet, &game, &tags, &moves, lang);
    let headers = tags.into_iter().map(|(k, v)| (k, serde_json::Value::String(v))).collect();
    let (written, unread) = match (keep, status) {
        (Written::ForReview, Status::Validated) => (Vec::new(), Vec::new()),
        _ => as_written(sheet, &game),
    };
    GameReport {
        status,
        language: game.language.code.to_string(),
        headers,
        moves,
        result: game.result.as_pgn().to_string(),
        pgn,
        findings: game.findings.iter().map(|f| finding_report(f, &game, lang)).collect(),
        sheets: None,
        copy: None,
        lines_in: None,
        written,
        unread,
        other_written: Vec::new(),
        other_unread: Vec::new(),
    }
}

/// For each move, the entry it was read from; and each entry no move was
/// read from, after how many moves it comes.
fn as_written(sheet: &Sheet, game: &Game) -> (Vec<Option<crate::sheet::Entry>>, Vec<(usize, crate::sheet::Entry)>) {
    let written = game.moves.iter().map(|m| m.entry.and_then(|e| sheet.entries.get(e).cloned())).collect();
    let mut read: Vec<usize> = game.moves.iter().filter_map(|m| m.entry).collect();
    read.sort_unstable();
    let unread = sheet
        .entries
        .iter()
        .enumerate()
        .filter(|(i, _)| read.binary_search(i).is_err())
        .map(|(i, e)| (read.partition_point(|&k| k < i), e.clone()))
        .collect();
    (written, unread)
}

/// The pairings settle a result the record leaves open: none written (the
/// game would be published with `*`), or the copies (or a sheet's header
/// and moves) giving different results, the pairings' among them. Said,
/// with the pairing, as a notice.
fn result_from_pairing(game: &mut Game, paired: &Paired) {
    let Some(result) = paired.result.filter(|r| *r != GameResult::Unknown) else { return };
    let disagreed = game
        .findings
        .iter()
        .any(|f| matches!(f, Finding::ResultsDisagree { results } if results.iter().any(|(r, _)| *r == result)));
    let missing =
        game.result == GameResult::Unknown && game.findings.iter().any(|f| matches!(f, Finding::ResultMissing { .. }));
    if !(disagreed || missing) {
        return;
    }
    game.findings.retain(|f| {
        !matches!(
            f,
            Finding::ResultsDisagree { .. } | Finding::ResultMissing { .. } | Finding::PairingResultMismatch { .. }
        )
    });
    game.result = result;
    game.findings.push(Finding::ResultFromPairings { result, at: paired.at.clone(), disagreed });
}

/// A finding of `game` as reported: its message and move label number its
/// move as the sheet does (from the start's move number), its `ply` is the
/// game's own (1: the game's first move).
fn finding_report(f: &Finding, game: &Game, lang: ReportLanguage) -> FindingReport {
    match game.start.first_ply() - 1 {
        0 => FindingReport::of(f, lang),
        before => FindingReport { ply: f.at().map(|at| at.ply), ..FindingReport::of(&f.numbered_after(before), lang) },
    }
}

/// Which games' reports keep the entries as written (`GameReport::written`,
/// for the review page and the desk).
#[derive(Debug, Clone, Copy)]
enum Written {
    Always,
    /// Not a validated game's: a collection's pages show its games in review.
    ForReview,
}

/// What the reader guessed or left out while reading the file, about the
/// whole game.
fn read_findings(sheet: &Sheet) -> impl Iterator<Item = Finding> {
    let encoding = sheet.encoding_guessed.map(|line| Finding::EncodingGuessed { line });
    let headers = sheet
        .first_dropped
        .as_ref()
        .map(|first| Finding::HeadersDropped { dropped: sheet.headers_dropped, first: first.clone() });
    let note = sheet.moves_in_note.map(|(line, ply)| Finding::MovesInNote { line, ply });
    let twice = sheet.printed_twice.map(|line| Finding::ScorePrintedTwice { line });
    // What ingest dropped from the text, which the moves and headers no longer show.
    let invisible = sheet.invisible.map(|removed| Finding::InvisibleRemoved { removed });
    encoding.into_iter().chain(headers).chain(note).chain(twice).chain(invisible)
}

/// `validated` when no finding puts the record in doubt (its notices go with
/// it), `review` when one does and an arbiter must settle it, `rejected`
/// when no move could be read (a reading cut by its budget before its first
/// move is not that: it goes to review).
pub fn status(sheet: &Sheet, game: &Game) -> Status {
    let cut = game.findings.iter().any(|f| matches!(f, Finding::SearchBudget { .. }));
    if game.moves.is_empty() && !sheet.entries.is_empty() && !cut {
        Status::Rejected
    } else if game.findings.iter().any(Finding::is_doubt) {
        Status::Review
    } else {
        Status::Validated
    }
}

/// The files of one call as given: a name (which picks the format) and its
/// bytes, or why they could not be read.
pub type Input = (String, Result<Vec<u8>, String>);

/// The reports of a set of files converted together: their sheets grouped
/// into games, and a game's two copies (in one file or two) read as one (see
/// `crate::reconstruct::copies`). One report per file, in order; and a line
/// for each sheet that would be a third copy of a game, which is read alone.
pub fn convert_together(inputs: &[Input], opts: &Options) -> (Vec<FileReport>, Vec<String>) {
    let (mut reports, sheets) = read_inputs(inputs, opts);
    let names: Vec<&str> = inputs.iter().map(|(n, _)| n.as_str()).collect();
    let (games, notes) = games_together(&sheets, &names, opts, None);
    for ((f, _), g) in sheets.iter().zip(games) {
        reports[*f].games.push(g);
    }
    (reports, notes)
}

/// The sheets of the files (each with its file's index), and a report for
/// each file without its games (with its error where it cannot be read).
pub(crate) fn read_inputs(inputs: &[Input], opts: &Options) -> (Vec<FileReport>, Vec<(usize, Sheet)>) {
    let mut reports = Vec::with_capacity(inputs.len());
    let mut sheets: Vec<(usize, Sheet)> = Vec::new();
    for (f, (path, bytes)) in inputs.iter().enumerate() {
        let read = bytes
            .as_deref()
            .map_err(Clone::clone)
            .and_then(|b| ingest::read_named(path, b, opts.max_file_bytes).map_err(|e| e.to_string()));
        match read {
            Ok(s) => sheets.extend(s.into_iter().map(|s| (f, s))),
            Err(e) => reports.push(FileReport { path: path.clone(), error: Some(e), games: Vec::new() }),
        }
        if reports.len() == f {
            reports.push(FileReport { path: path.clone(), error: None, games: Vec::new() });
        }
    }
    (reports, sheets)
}

/// The game report of each sheet (files named by `names`, a sheet's file by
/// its index), read grouped into games (see [`convert_together`]); the game
/// of sheet `verdict.0` as its arbiter decided. And the notes of third copies.
pub(crate) fn games_together(
    sheets: &[(usize, Sheet)],
    names: &[&str],
    opts: &Options,
    verdict: Option<(usize, &Verdict)>,
) -> (Vec<GameReport>, Vec<String>) {
    let mut budgets: Vec<Option<FileBudget>> = names.iter().map(|_| None).collect();
    games_within(sheets, names, opts, verdict, &mut budgets)
}

/// [`games_together`] within the files' budgets as they are (`budgets[f]`:
/// file `f`'s, started at its first sheet where it is `None`): a caller that
/// reads a file's sheets in several calls keeps the file within one budget.
pub(crate) fn games_within(
    sheets: &[(usize, Sheet)],
    names: &[&str],
    opts: &Options,
    verdict: Option<(usize, &Verdict)>,
    budgets: &mut [Option<FileBudget>],
) -> (Vec<GameReport>, Vec<String>) {
    // With pairings, a sheet is grouped as the pairing it is matched to: a
    // copy that gives only the players' names finds its partner by the TRF.
    let keyed: Vec<_> = sheets.iter().map(|(_, s)| keyed(s, opts.pairings.as_deref())).collect();
    let files: Vec<usize> = sheets.iter().map(|(f, _)| *f).collect();
    let grouping = group(&keyed.iter().map(AsRef::as_ref).collect::<Vec<_>>(), &files);
    // A file's budget (its clock included) starts when its first sheet is read.
    let mut games: Vec<Option<GameReport>> = vec![None; sheets.len()];
    let verdict_of = |i: usize| verdict.filter(|(k, _)| *k == i).map(|(_, v)| v);
    for g in &grouping.games {
        match g[..] {
            [i] => {
                let (sheet, budget) = (&sheets[i].1, started(budgets, sheets[i].0, opts));
                let game = reconstruct_within(sheet, &opts.settings(), budget);
                games[i] = Some(report_of(sheet, game, opts, None, verdict_of(i), Written::Always));
            }
            [i, j] => {
                let v = verdict_of(i).or(verdict_of(j));
                let [a, b] = pair_reports([&sheets[i], &sheets[j]], names, opts, budgets, (v, false));
                games[i] = Some(a);
                games[j] = Some(b);
            }
            _ => unreachable!("a game has one or two copies"),
        }
    }
    // Sheets read alone that are two copies of one game by their moves,
    // whatever their names: read again together.
    for [i, j] in pairs_by_moves(&grouping, &keyed, &files, &games) {
        let v = verdict_of(i).or(verdict_of(j));
        let [a, b] = pair_reports([&sheets[i], &sheets[j]], names, opts, budgets, (v, true));
        games[i] = Some(a);
        games[j] = Some(b);
    }
    let games = games.into_iter().map(|g| g.expect("every sheet is in a game")).collect();
    let name = |i: usize| -> &str { names[sheets[i].0] };
    let thirds = grouping.extra.iter().map(|&(third, first)| {
        format!("{}: a third copy of the game of {}; read alone, not merged", name(third), name(first))
    });
    let apart = grouping.apart.iter().map(|&(other, first)| {
        format!(
            "{}: a copy of the game of {} by its headers, but it gives another starting position; read alone, \
             not merged",
            name(other),
            name(first)
        )
    });
    let notes = thirds.chain(apart).collect();
    (games, notes)
}

/// How sheets (each of file `files[i]`) are grouped into games, as
/// [`games_together`] groups them before reading any: by their headers,
/// keyed by the pairings, and by their players.
#[cfg(feature = "daemon")]
pub(crate) fn grouping_of(sheets: &[&Sheet], files: &[usize], opts: &Options) -> Grouping {
    let keyed: Vec<_> = sheets.iter().map(|s| keyed(s, opts.pairings.as_deref())).collect();
    group(&keyed.iter().map(AsRef::as_ref).collect::<Vec<_>>(), files)
}

/// The games of `grouping` read from one sheet (their reports in `games`)
/// that are two copies of one game by their moves
/// ([`crate::reconstruct::by_moves`]), as sheet indices, the earlier first.
/// Two sheets of one file (`files[i]`: sheet `i`'s) are never paired.
fn pairs_by_moves(
    grouping: &Grouping,
    keyed: &[Cow<'_, Sheet>],
    files: &[usize],
    games: &[Option<GameReport>],
) -> Vec<[usize; 2]> {
    let long = |i: usize| games[i].as_ref().is_some_and(|g| g.moves.len() >= SAME_GAME_PLIES);
    let lone: Vec<usize> = grouping.games.iter().filter(|g| g.len() == 1 && long(g[0])).map(|g| g[0]).collect();
    let keys: Vec<CopyKey> = lone.iter().map(|&i| CopyKey::of(&keyed[i])).collect();
    let read: Vec<(&CopyKey, &[String], usize)> = lone
        .iter()
        .zip(&keys)
        .map(|(&i, k)| (k, games[i].as_ref().map_or(&[][..], |g| &g.moves[..]), files[i]))
        .collect();
    pair_by_moves(&read).into_iter().map(|(x, y)| [lone[x], lone[y]]).collect()
}

/// File `f`'s budget, started now if it was not.
fn started<'b>(budgets: &'b mut [Option<FileBudget>], f: usize, opts: &Options) -> &'b mut FileBudget {
    budgets[f].get_or_insert_with(|| FileBudget::new(&opts.params.limits))
}

/// The reports of a game read from two copies: one for each copy's file,
/// alike but for `copy`; the PGN names both files in a `Sheets` tag. Copies
/// paired by their moves (`by_moves`) say so (`copies-joined-by-moves`).
/// Where the two readings are two games, each sheet's is reported alone,
/// with `two-games-one-board` naming the other.
fn pair_reports(
    copies: [&(usize, Sheet); 2],
    names: &[&str],
    opts: &Options,
    budgets: &mut [Option<FileBudget>],
    (verdict, by_moves): (Option<&Verdict>, bool),
) -> [GameReport; 2] {
    let files = copies.map(|(f, _)| names[*f]);
    let sheets = copies.map(|(_, s)| s);
    let (fa, fb) = (copies[0].0, copies[1].0);
    // The two copies are read in the order of their files' names, whatever
    // order they came in: `watch` gets them in any order and must read the
    // game as `convert` does.
    let order = if fa != fb && file_name(files[1]) < file_name(files[0]) { [1, 0] } else { [0, 1] };
    let (ra, rb) = (copies[order[0]].0, copies[order[1]].0);
    let read = [sheets[order[0]], sheets[order[1]]];
    let named = [files[order[0]], files[order[1]]];
    let mut joint = if ra == rb {
        // Both copies in one file: each is read within what the file has
        // left, the work of both taken off it.
        read_pair(read, named, &opts.settings(), PairBudget::Shared(started(budgets, ra, opts)))
    } else {
        started(budgets, ra, opts);
        started(budgets, rb, opts);
        let (lo, hi) = budgets.split_at_mut(ra.max(rb));
        let (x, y) = (&mut lo[ra.min(rb)], &mut hi[0]);
        let (x, y) = (x.as_mut().expect("started"), y.as_mut().expect("started"));
        let pair = if ra < rb { [x, y] } else { [y, x] };
        read_pair(read, named, &opts.settings(), PairBudget::Apart(pair))
    };
    // Copy `k`'s file and what it writes, then the other's.
    let said = |k: usize| {
        let files = [file_name(files[k]), file_name(files[1 - k])].map(str::to_string);
        (files, [sheet_pairing(sheets[k]), sheet_pairing(sheets[1 - k])])
    };
    if let Some((other, parted)) = joint.apart.take() {
        let games = [(order[0], joint.game), (order[1], other)];
        return games.map(|(k, mut game)| {
            let (files, written) = said(k);
            game.findings.push(Finding::TwoGamesOneBoard { files, written, parted: parted as u32 + 1 });
            report_of(sheets[k], game, opts, None, verdict, Written::Always)
        });
    }
    joint.base = order[joint.base];
    if by_moves {
        let (files, written) = said(joint.base);
        joint.game.findings.push(Finding::CopiesJoinedByMoves { files, written });
    }
    let sheets_tag = files.map(file_name).join(" ");
    let base = with_headers_of(sheets[joint.base], sheets[1 - joint.base]);
    let (other_written, other_unread) = other_as_written(sheets[1 - joint.base], &joint.other);
    let report = GameReport {
        sheets: Some(files.map(str::to_string)),
        copy: Some("a"),
        lines_in: Some(files[joint.base].to_string()),
        other_written,
        other_unread,
        ..report_of(&base, joint.game, opts, Some(sheets_tag), verdict, Written::Always)
    };
    [report.clone(), GameReport { copy: Some("b"), ..report }]
}

/// The other copy of a game read from two as the pages show it: for each
/// move the entry read as it (`read_as`, from `Joint::other`), and each entry
/// read as no move, after how many moves it comes. Nothing where the copies
/// were not weighed together (`read_as` empty): the game is then one copy's.
fn other_as_written(
    other: &Sheet,
    read_as: &[Option<usize>],
) -> (Vec<Option<crate::sheet::Entry>>, Vec<(usize, crate::sheet::Entry)>) {
    if read_as.is_empty() {
        return (Vec::new(), Vec::new());
    }
    let written = read_as.iter().map(|e| e.and_then(|e| other.entries.get(e).cloned())).collect();
    // The copy is aligned by its moves, not its order: an entry comes after
    // the last move read from an entry before it.
    let mut unread: Vec<(usize, crate::sheet::Entry)> = other
        .entries
        .iter()
        .enumerate()
        .filter(|(i, _)| !read_as.contains(&Some(*i)))
        .map(|(i, e)| (read_as.iter().rposition(|r| r.is_some_and(|j| j < i)).map_or(0, |k| k + 1), e.clone()))
        .collect();
    unread.sort_by_key(|(at, _)| *at);
    (written, unread)
}

/// `sheet` with the headers it does not write taken from the game's other
/// copy: a copy that gives no round, board or event is published with the
/// other's (its own are kept where it writes them).
fn with_headers_of(sheet: &Sheet, other: &Sheet) -> Sheet {
    let mut s = sheet.clone();
    let blank = |v: &str| v.trim().is_empty() || v.trim() == "?";
    for (k, v) in &other.headers {
        if !blank(v) && s.header(k).is_none_or(blank) {
            s.headers.retain(|(key, _)| key != k);
            s.set_header(k, v);
        }
    }
    s
}

/// The last part of a path, as the PGN names a file.
fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// Converts a PGN collection of any size read from `reader`, one game at a
/// time, in flat memory: each game is read alone (a budget of its own, never
/// merged with another copy, as files in one call can be) and handed to
/// `each` as soon as it is judged. A game that cannot be read (over
/// `MAX_GAME_BYTES`, not text) is a rejected game with `game-not-read`, and
/// the file goes on. The error is
/// the file's, when it cannot be read at all (nothing but blanks, binary, an
/// IO error before its first game); an IO error later ends it with a
/// `game-not-read`.
///
/// ```
/// use scoresheet::convert::{convert_collection, Options};
/// use scoresheet::emit::report::Status;
/// let pgn = "[White \"Ana\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n[White \"Eva\"]\n\n1. d4 d5 *\n";
/// let mut games = Vec::new();
/// convert_collection(pgn.as_bytes(), &Options::default(), |g| games.push(g)).unwrap();
/// assert_eq!(games.len(), 2);
/// assert_eq!(games[1].moves, ["d4", "d5"]);
/// assert!(games.iter().all(|g| g.status == Status::Validated));
/// ```
pub fn convert_collection(
    reader: impl std::io::BufRead,
    opts: &Options,
    each: impl FnMut(GameReport),
) -> Result<(), ingest::IngestError> {
    use crate::ingest::stream::{PgnGames, Piece};
    let mut out = Emitted { each, held: Vec::new(), moves: false, games: 0 };
    let mut pieces = PgnGames::new(reader);
    // `while let`, not `for`: the lines read are asked of it at the end.
    #[allow(clippy::while_let_on_iterator)]
    while let Some(piece) = pieces.next() {
        let (line, why) = match piece {
            Ok(Piece::Sheets(sheets)) => {
                for sheet in &sheets {
                    let game = reconstruct_within(sheet, &opts.settings(), &mut FileBudget::new(&opts.params.limits));
                    let report = report_of(sheet, game, opts, None, None, Written::ForReview);
                    out.push(report, !sheet.entries.is_empty());
                }
                continue;
            }
            Ok(Piece::TooLong { line }) => (line, NotRead::TooLong { limit: crate::ingest::stream::MAX_GAME_BYTES }),
            Ok(Piece::Unreadable { error: e @ (ingest::IngestError::Binary | ingest::IngestError::Empty), .. })
                if out.games == 0 =>
            {
                return Err(e);
            }
            Ok(Piece::Unreadable { line, error }) => (
                line,
                match error {
                    ingest::IngestError::Binary | ingest::IngestError::Encoding { .. } => NotRead::NotText,
                    ingest::IngestError::Syntax { message, .. } => NotRead::Malformed(message),
                    other => NotRead::Malformed(other.to_string()),
                },
            ),
            Err(e) if out.games == 0 => return Err(ingest::IngestError::Io(e.to_string())),
            Err(e) => (pieces.lines() + 1, NotRead::Io(e.to_string())),
        };
        out.push(not_read(line, why, opts.report_language), true);
    }
    match (out.games, out.moves) {
        (0, _) => Err(ingest::IngestError::Empty),
        // As a whole file: no game with a move is no sheet.
        (_, false) => Err(ingest::IngestError::NoMoves { lines: pieces.lines() }),
        _ => Ok(()),
    }
}

/// The games of a collection handed on as they come; those before the first
/// with a move held (a thousand at most) until one comes: a file of headers
/// alone is no sheet, as when it is read whole.
struct Emitted<F> {
    each: F,
    held: Vec<GameReport>,
    /// A game with a move has come (or too many without one).
    moves: bool,
    games: usize,
}

impl<F: FnMut(GameReport)> Emitted<F> {
    const MOST_HELD: usize = 1000;

    fn push(&mut self, game: GameReport, moves: bool) {
        self.games += 1;
        if !self.moves && !moves && self.held.len() < Self::MOST_HELD {
            self.held.push(game);
            return;
        }
        self.moves = true;
        for g in self.held.drain(..) {
            (self.each)(g);
        }
        (self.each)(game);
    }
}

/// The report of a game that could not be read at all.
fn not_read(line: usize, why: NotRead, lang: ReportLanguage) -> GameReport {
    GameReport {
        status: Status::Rejected,
        language: String::new(),
        headers: serde_json::Map::new(),
        moves: Vec::new(),
        result: GameResult::Unknown.as_pgn().to_string(),
        pgn: String::new(),
        findings: vec![FindingReport::of(&Finding::GameNotRead { line, why }, lang)],
        sheets: None,
        copy: None,
        lines_in: None,
        written: Vec::new(),
        unread: Vec::new(),
        other_written: Vec::new(),
        other_unread: Vec::new(),
    }
}
