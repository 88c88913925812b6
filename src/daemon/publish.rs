//! A file's sheets published as games, each read with the other copy of its
//! game where that came earlier ([`games`](super::games) keeps which sheets
//! went where). A sheet whose other copy has not come is read alone and
//! published as such; when the other copy comes, the game is read again
//! from both (the first from archive/) and its outputs are replaced: its
//! file put over the earlier one in the same folder (else placed in the new
//! folder and the earlier one removed), its board's game in the round file
//! replaced. One of the two copies dropped again (typed again, under its
//! name) is read again with the other the same way. A third copy of a game
//! is said and read alone, and goes to review rather than beside the game in
//! pgn/.
//!
//! Every step is done again after a crash without writing twice: the
//! records are looked at and changed under one lock, a pending record goes
//! before the outputs and the final one after, and outputs already there
//! with the same bytes are found, not written again.

use std::collections::HashMap;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use tracing::{info, warn};

use crate::convert::Options;
use crate::emit::file::replace_staged;
use crate::emit::report::{FindingReport, GameReport, Status};
use crate::finding::{ReportLanguage, Severity};
use crate::pairing::Tournament;
use crate::sheet::Sheet;

use super::annotate::with_comment;
use super::crash;
use super::games::{GameRecord, Known, Locked, RoundEntry, SheetRecord, hash, record_name};
use super::names::round_and_board;
use super::outcome::{FileError, Outcome, ProcessConfig, folder_of, io_at, same_pairings};
use super::place::link_new;
use super::placing::{Earlier, PlacingLog};
use super::reading::{Read, Reading, Standing};
use super::round::Round;
use super::route::{Intent, Placed, Placing, Replacing, route};

/// The code of the finding a third copy of a game goes to review with.
pub(crate) const THIRD_COPY: &str = "third-copy";

/// Each sheet's standing among the recorded games, and the record it names.
type Plan = Vec<Standing>;

/// Publishes the sheets of the claimed file `name` (its `bytes`) and links
/// it into archive/; the claim is left for the caller to remove. A sheet
/// whose game another daemon was killed while publishing makes the file
/// wait (an error: it stays claimed and is retried).
pub(crate) fn publish(
    cfg: &ProcessConfig,
    claimed: &Path,
    name: &str,
    bytes: &[u8],
    sheets: &[Sheet],
    out: &mut Outcome,
) -> Result<(), FileError> {
    let games = &cfg.games;
    let h = hash(bytes);
    let mut reading = Reading::new(cfg, name, sheets);
    let tied = tied_sheets(sheets, &cfg.options_now());
    // What an attempt cut short by a crash placed, to be replaced.
    let mut log = PlacingLog::of(&cfg.folders.state, name, &h);
    let earlier = log.read().map_err(io_at(&cfg.folders.state))?;
    // The sheets before `from` are published: a big file is published a
    // part at a time, the records' lock let go between parts.
    let mut from = 0;
    // The readings of the sheets not yet published, and the records' count
    // of changes when the last part was published: while no other change
    // comes, the next part is published as planned, not planned again.
    let mut ready: Option<(u64, Vec<Read>, Options)> = None;
    loop {
        let kept = ready.take().and_then(|(seen, reports, opts)| {
            let locked = games.lock().ok()?;
            (locked.changes() == seen && same_pairings(&opts, &cfg.options_now())).then_some((locked, reports, opts))
        });
        let planned = match kept {
            Some(k) => Some(k),
            None => planned(cfg, claimed, (name, &h), sheets, &mut reading, from)?,
        };
        let Some((mut locked, reports, opts)) = planned else { continue };
        let to = part_end(&tied, from);
        let part = (&reports[..], from..to);
        publish_locked(cfg, claimed, (name, &h), sheets, part, (&mut locked, &mut log, &earlier), out)?;
        if to < sheets.len() {
            from = to;
            ready = Some((locked.changes(), reports, opts));
            continue;
        }
        if let Some(t) = &opts.pairings {
            let mut rounds: Vec<u32> = out.boards.iter().map(|b| b.0).collect();
            rounds.sort_unstable();
            rounds.dedup();
            rounds_report(cfg, &mut locked, t, &rounds);
        }
        return log.done().map_err(io_at(&cfg.folders.state));
    }
}

/// The sheets from `from` on planned and read, and the records' lock held
/// on the plan still standing; `None` when the records or the pairings
/// changed while the sheets were read (to be planned again). A sheet whose
/// game another daemon was killed while publishing makes the file wait (an
/// error: it stays claimed and is retried).
fn planned<'g>(
    cfg: &'g ProcessConfig,
    claimed: &Path,
    (name, h): (&str, &str),
    sheets: &[Sheet],
    reading: &mut Reading<'_>,
    from: usize,
) -> Result<Option<(Locked<'g>, Vec<Read>, Options)>, FileError> {
    let (games, state) = (&cfg.games, &cfg.folders.state);
    // The pairings as they are now: a TRF loaded while the file is read
    // makes it read again.
    let opts = cfg.options_now();
    let pairings = opts.pairings.as_ref();
    let by_headers =
        plan_of(&mut games.lock().map_err(io_at(state))?, sheets, (name, h), pairings, from).map_err(io_at(state))?;
    if by_headers.iter().any(|(k, _)| *k == Known::Wait) {
        let why = "a copy of the same game was being published by a daemon that stopped: \
                   waiting for that file to be done again";
        return Err(FileError { path: claimed.to_path_buf(), source: io::Error::other(why) });
    }
    // The reading, the costly part, is done without the lock; if the
    // records changed meanwhile (the other copy came), the sheets whose
    // standing changed are read again.
    let mut reports = reading.all(&opts, &by_headers, &by_headers)?;
    // A sheet its headers find no game for is looked for by its moves.
    let sans: Vec<Option<Vec<String>>> = reports
        .iter()
        .map(|(k, g)| g.as_ref().filter(|g| *k == Known::New && g.sheets.is_none()))
        .map(|g| g.map(|g| g.moves.clone()))
        .collect();
    let plan =
        by_moves(&mut games.lock().map_err(io_at(state))?, by_headers.clone(), sheets, (name, h), &sans, pairings)
            .map_err(io_at(state))?;
    if plan != by_headers {
        let again = reading.all(&opts, &plan, &by_headers)?;
        for k in (0..plan.len()).filter(|&k| plan[k] != by_headers[k]) {
            reports[k] = again[k].clone();
        }
    }
    let mut locked = games.lock().map_err(io_at(state))?;
    let now = plan_of(&mut locked, sheets, (name, h), pairings, from).map_err(io_at(state))?;
    if by_moves(&mut locked, now, sheets, (name, h), &sans, pairings).map_err(io_at(state))? != plan
        || !same_pairings(&opts, &cfg.options_now())
    {
        return Ok(None);
    }
    Ok(Some((locked, reports, opts)))
}

/// How many sheets of a file are published under one hold of the records'
/// lock, at most (about 0.2 s of placing): a file of thousands of games
/// does not stop every other file of the event while it is placed.
const SHEETS_PER_HOLD: usize = 256;

/// For each sheet of the file, the earliest other sheet of it that its
/// headers make a copy of the same game (`convert`'s grouping, a third copy
/// included): the two are published in one part.
fn tied_sheets(sheets: &[Sheet], opts: &Options) -> Vec<Option<usize>> {
    let mut tied = vec![None; sheets.len()];
    if sheets.len() <= SHEETS_PER_HOLD {
        return tied;
    }
    let refs: Vec<&Sheet> = sheets.iter().collect();
    let grouping = crate::convert::grouping_of(&refs, &vec![0; sheets.len()], opts);
    for game in &grouping.games {
        for &k in game.iter().skip(1) {
            tied[k] = Some(game[0]);
        }
    }
    for &(third, first) in &grouping.extra {
        tied[third] = Some(first);
    }
    tied
}

/// Where the part of the file that starts at sheet `from` ends: after
/// [`SHEETS_PER_HOLD`] sheets, or later, never between two sheets `tied`.
fn part_end(tied: &[Option<usize>], from: usize) -> usize {
    let n = tied.len();
    // The earliest sheet each sheet from `t` on is tied to.
    let mut earliest = vec![usize::MAX; n + 1];
    for k in (0..n).rev() {
        earliest[k] = earliest[k + 1].min(tied[k].unwrap_or(usize::MAX));
    }
    let mut to = (from + SHEETS_PER_HOLD).min(n);
    while to < n && earliest[to] < to {
        to += 1;
    }
    to
}

/// What each sheet of the file is to the records. A record two sheets of
/// this one file would join takes the first; the second is a third copy.
/// The sheets before `from`, published already by an earlier part of this
/// attempt, are done and not looked up again.
fn plan_of(
    locked: &mut Locked<'_>,
    sheets: &[Sheet],
    (name, h): (&str, &str),
    pairings: Option<&std::sync::Arc<Tournament>>,
    from: usize,
) -> io::Result<Plan> {
    let mut plan: Plan = vec![(Known::Done(String::new()), None); from.min(sheets.len())];
    for (k, sheet) in sheets.iter().enumerate().skip(from) {
        let mut known = locked.known(sheet, name, h, k, pairings)?;
        if let Known::Partner(n) = &known
            && plan.iter().any(|(p, _)| *p == known)
        {
            known = Known::Third(n.clone());
        }
        let record = match &known {
            Known::Done(n) | Known::Partner(n) | Known::Third(n) => locked.get(n),
            Known::New | Known::Wait => None,
        };
        plan.push((known, record));
    }
    Ok(plan)
}

/// The plan with each new sheet whose moves read alone (`sans`) make it the
/// other copy of a game read alone so far
/// ([`Locked::partner_by_moves`]) made that game's partner, as `convert`
/// pairs them. Two sheets of the file do not take one game: the second is
/// left new.
fn by_moves(
    locked: &mut Locked<'_>,
    mut plan: Plan,
    sheets: &[Sheet],
    file: (&str, &str),
    sans: &[Option<Vec<String>>],
    pairings: Option<&std::sync::Arc<Tournament>>,
) -> io::Result<Plan> {
    for (k, sans) in sans.iter().enumerate() {
        let Some(sans) = sans.as_deref().filter(|_| plan[k].0 == Known::New) else { continue };
        let Some(n) = locked.partner_by_moves(&sheets[k], sans, pairings, file)? else { continue };
        let known = Known::Partner(n.clone());
        if plan.iter().all(|(p, _)| *p != known) {
            let record = locked.get(&n);
            plan[k] = (known, record);
        }
    }
    Ok(plan)
}

/// The sheets of `part` published under the lock: a pending record for
/// each, its outputs, the original linked into archive/ (found there, for a
/// later part), the final records.
fn publish_locked(
    cfg: &ProcessConfig,
    claimed: &Path,
    (name, h): (&str, &str),
    sheets: &[Sheet],
    (reports, part): (&[Read], std::ops::Range<usize>),
    (locked, log, earlier): (&mut Locked<'_>, &mut PlacingLog, &HashMap<usize, Earlier>),
    out: &mut Outcome,
) -> Result<(), FileError> {
    let state = &cfg.folders.state;
    // The records are flushed to disk together: the pending ones before the
    // outputs, the final ones before the file is done.
    let deferred = Locked::deferred(&cfg.staging);
    let me = |k: usize, archived: &str| SheetRecord {
        dropped: name.to_string(),
        archived: archived.to_string(),
        index: k,
        hash: h.to_string(),
        headers: sheets[k].headers.clone(),
    };
    for (k, (known, _)) in reports.iter().enumerate().take(part.end).skip(part.start) {
        if !matches!(known, Known::Done(_)) {
            let pending = GameRecord::pending_of(vec![me(k, "")]);
            locked.put(&record_name(name, h, k), &pending, &deferred).map_err(io_at(state))?;
        }
    }
    // Flushed once, before the file's first outputs: a file published in
    // parts flushes its records once at each end, not at each part.
    if part.start == 0 {
        locked.flush(&cfg.staging).map_err(io_at(state))?;
    }
    crash::step("publish.pending");
    let placed = place_all(cfg, name, (sheets, reports, part.clone()), (locked, log, earlier), out)?;
    let dir = &cfg.folders.archive;
    let archived = link_new(claimed, dir, claimed.file_name().unwrap_or_default()).map_err(io_at(dir))?;
    crash::step("publish.archived");
    let archived_name = archived.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    out.outputs.push(archived);
    for ((k, (known, report)), slot) in reports.iter().enumerate().skip(part.start).zip(placed) {
        let mine = record_name(name, h, k);
        out.records.push(match (&slot, known) {
            (Slot::With(first), _) => record_name(name, h, *first),
            (_, Known::Done(n) | Known::Partner(n)) => n.clone(),
            _ => mine.clone(),
        });
        let p = match slot {
            Slot::Placed(p) => p,
            // Done already: a pending record of its own left by a kill goes
            // (its final record, for a game read alone, has the same name).
            Slot::Done => {
                if locked.get(&mine).is_some_and(|r| r.pending) {
                    locked.remove(&mine, &deferred).map_err(io_at(state))?;
                }
                continue;
            }
            // The other copy of a game of this file: its record names both.
            Slot::With(first) => {
                let at = record_name(name, h, first);
                if let Some(mut r) = locked.get(&at) {
                    r.sheets.push(me(k, &archived_name));
                    r.sans.clear();
                    locked.put(&at, &r, &deferred).map_err(io_at(state))?;
                }
                locked.remove(&mine, &deferred).map_err(io_at(state))?;
                continue;
            }
        };
        out.boards.extend(p.board);
        let mut record = GameRecord {
            sheets: vec![me(k, &archived_name)],
            folder: folder_of(p.status).to_string(),
            files: p.files,
            round: p.round,
            pending: false,
            board: p.board,
            result: p.result,
            notices: p.notices,
            // A game read alone is found by its moves by its other copy.
            sans: match (known, report) {
                (Known::New, Some(g)) if g.sheets.is_none() => g.moves.clone(),
                _ => Vec::new(),
            },
        };
        if let Known::Partner(n) = known {
            // The game's record now names both copies; this sheet's pending one goes.
            let first = locked.get(n).and_then(|r| r.other(name, k, &sheets[k].headers).cloned());
            record.sheets.splice(0..0, first);
            locked.put(n, &record, &deferred).map_err(io_at(state))?;
            locked.remove(&mine, &deferred).map_err(io_at(state))?;
        } else {
            locked.put(&mine, &record, &deferred).map_err(io_at(state))?;
        }
        crash::step("publish.record");
    }
    if part.end == reports.len() {
        locked.flush(&cfg.staging).map_err(io_at(state))?;
    }
    crash::step("publish.recorded");
    Ok(())
}

/// What became of one sheet of the file.
enum Slot {
    /// Published already.
    Done,
    /// Its game put where it goes.
    Placed(Placed),
    /// The second copy of the game of the file's sheet at this index, read
    /// with it (both copies in one file): put with it.
    With(usize),
}

/// The earlier sheet of this file whose game `report` (a copy `b`) is the
/// second copy of: the last copy `a` before it with the same game.
fn first_copy(name: &str, reports: &[Read], k: usize) -> Option<usize> {
    let g = reports[k].1.as_ref()?;
    let in_file = g.sheets.as_ref().is_some_and(|[a, b]| a == name && b == name);
    if !in_file || g.copy != Some("b") {
        return None;
    }
    (0..k)
        .rev()
        .find(|&j| reports[j].1.as_ref().is_some_and(|a| a.copy == Some("a") && a.sheets == g.sheets && a.pgn == g.pgn))
}

/// Each sheet's game put where it goes, as the plan says. Each file and
/// round-file game is told to the placing `log` before it is placed; what an
/// earlier attempt cut short by a crash told it (`earlier`) is replaced (put
/// over, or taken away), so that a redo that reads the sheet otherwise
/// (pairings loaded since) leaves nothing of the first reading.
fn place_all(
    cfg: &ProcessConfig,
    name: &str,
    (sheets, reports, part): (&[Sheet], &[Read], std::ops::Range<usize>),
    (locked, log, earlier): (&Locked<'_>, &mut PlacingLog, &HashMap<usize, Earlier>),
    out: &mut Outcome,
) -> Result<Vec<Slot>, FileError> {
    let count = reports.len();
    let state = &cfg.folders.state;
    let mut placed = Vec::with_capacity(part.len());
    for (k, (known, report)) in reports.iter().enumerate().take(part.end).skip(part.start) {
        let record = match known {
            Known::Done(n) | Known::Partner(n) | Known::Third(n) => locked.get(n),
            Known::New | Known::Wait => None,
        };
        // What the earlier attempts placed for this sheet, as the log told it.
        let earlier = match earlier.get(&k) {
            Some(e) => {
                GameRecord { files: e.files.clone(), round: e.round.clone(), ..GameRecord::pending_of(Vec::new()) }
            }
            None => GameRecord::pending_of(Vec::new()),
        };
        let mut intent = |p: Placing<'_>| log.add(k, p).map_err(io_at(state));
        let at = (k, count);
        let slot = match (known, report, record) {
            (Known::Done(_), _, Some(r)) => {
                done_already(cfg, &r, out);
                Slot::Done
            }
            (Known::Partner(_), Some(g), Some(r)) => {
                Slot::Placed(rejoin(cfg, (name, &sheets[k]), at, g, (&r, &earlier), &mut intent, out)?)
            }
            (Known::Third(_), Some(g), Some(r)) => {
                let third = third_copy(name, g, &r, cfg.options.report_language);
                Slot::Placed(replace(cfg, name, at, &third, (&earlier, &mut intent), out)?)
            }
            (Known::New, Some(g), _) => match first_copy(name, reports, k) {
                Some(first) => Slot::With(first),
                None => Slot::Placed(replace(cfg, name, at, g, (&earlier, &mut intent), out)?),
            },
            (_, Some(g), _) => Slot::Placed(replace(cfg, name, at, g, (&earlier, &mut intent), out)?),
            (_, None, _) => Slot::Done,
        };
        if let Slot::Placed(p) = &slot {
            out.statuses.push(p.status);
            crash::step("publish.placed");
        }
        placed.push(slot);
    }
    Ok(placed)
}

/// The outputs of a sheet published already (its file done again after a
/// crash, or the same file dropped twice), as its record gives them.
fn done_already(cfg: &ProcessConfig, record: &GameRecord, out: &mut Outcome) {
    out.outputs.extend(record.files.iter().cloned());
    if let Some(r) = &record.round {
        out.outputs.push(Round::path(&cfg.folders.pgn, &r.event, &r.round));
    }
    out.statuses.push(status_of(&record.folder));
}

/// The status of a record's folder.
pub(crate) fn status_of(folder: &str) -> Status {
    match folder {
        "pgn" => Status::Validated,
        "review" => Status::Review,
        _ => Status::Rejected,
    }
}

/// The game read from both copies put in place of its reading from the
/// first copy alone (`record`), and said in the log.
/// What an earlier attempt at this sheet placed (`earlier`, its pending
/// record) is replaced too.
fn rejoin(
    cfg: &ProcessConfig,
    (name, sheet): (&str, &Sheet),
    at: (usize, usize),
    joint: &GameReport,
    (record, earlier): (&GameRecord, &GameRecord),
    intent: &mut Intent<'_>,
    out: &mut Outcome,
) -> Result<Placed, FileError> {
    let mut both = record.clone();
    both.files.extend(earlier.files.iter().filter(|f| !record.files.contains(f)).cloned());
    both.round = earlier.round.clone().or(both.round);
    let placed = replace(cfg, name, at, joint, (&both, intent), out)?;
    let first = record.other(name, at.0, &sheet.headers).map_or("", |s| s.archived.as_str());
    let root = cfg.folders.pgn.parent().unwrap_or(Path::new(""));
    let shown = |p: &Path| p.strip_prefix(root).unwrap_or(p).display().to_string();
    let (was, now) = (record.folder.as_str(), folder_of(placed.status));
    let before: Vec<String> = record.files.iter().map(|p| shown(p)).collect();
    let after: Vec<String> = placed.files.iter().map(|p| shown(p)).collect();
    let what = match record.sheets.len() {
        1 => "the other copy arrived",
        _ if record.sheets.iter().any(|s| s.named(name, at.0)) => "a copy dropped again",
        _ => "a copy corrected under a new name replaces it",
    };
    info!(
        file = %name, other = %first, before = %before.join(", "), after = %after.join(", "),
        "{what}; read with both copies: {was} → {now}"
    );
    out.replaced.push(status_of(was));
    Ok(placed)
}

/// `game`, a new reading of the game of `record`, put in place of that
/// record's outputs: see the module doc.
pub(crate) fn replace(
    cfg: &ProcessConfig,
    name: &str,
    at: (usize, usize),
    game: &GameReport,
    (record, intent): (&GameRecord, &mut Intent<'_>),
    out: &mut Outcome,
) -> Result<Placed, FileError> {
    let tag = |k: &str| game.headers.get(k).and_then(|v| v.as_str());
    // The earlier game leaves its round's file here unless the new one goes
    // into the same file, where it takes its place in one write.
    let same_round = game.status == Status::Validated
        && record.round.as_ref().is_some_and(|r| {
            tag("Event") == Some(&r.event) && tag("Round").map(|t| round_and_board(t).0) == Some(r.round.as_str())
        });
    if let Some(r) = record.round.as_ref().filter(|_| !same_round) {
        leave_round(cfg, r)?;
    }
    let old = Replacing { files: &record.files, round: record.round.as_ref() };
    let placed = route(cfg, name, at, game, (old, intent), out)?;
    remove_files(record.files.iter().filter(|f| !placed.files.contains(f)))?;
    Ok(placed)
}

/// Takes a game's outputs away: its place in its round's file and its files
/// (a game whose sheet now joins another's record).
pub(crate) fn unpublish(cfg: &ProcessConfig, record: &GameRecord) -> Result<(), FileError> {
    if let Some(r) = &record.round {
        leave_round(cfg, r)?;
    }
    remove_files(record.files.iter())
}

/// Takes game `r` out of its round's file.
fn leave_round(cfg: &ProcessConfig, r: &RoundEntry) -> Result<(), FileError> {
    let pgn = &cfg.folders.pgn;
    let mut file = Round::open(pgn, &cfg.folders.state, &r.event, &r.round).map_err(io_at(pgn))?;
    file.remove(&r.game);
    file.save(&cfg.staging).map_err(io_at(pgn))?;
    super::results::refresh(cfg, &r.event)
}

/// Removes `files` (one already gone counts as removed).
fn remove_files<'f>(files: impl Iterator<Item = &'f PathBuf>) -> Result<(), FileError> {
    for f in files {
        match fs::remove_file(f) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(FileError { path: f.clone(), source: e }),
            _ => {}
        }
    }
    Ok(())
}

/// A third copy of a game read from two (`record`): read alone, said in the
/// log, and sent to review (with `third-copy`) rather than beside the game.
fn third_copy(name: &str, game: &GameReport, record: &GameRecord, lang: ReportLanguage) -> GameReport {
    let names: Vec<&str> = record.sheets.iter().map(|s| s.archived.as_str()).collect();
    let files = names.join(" and ");
    warn!(file = %name, game_of = %files, "a third copy of a game read from two copies: read alone, not merged");
    let mut g = game.clone();
    if g.status == Status::Rejected {
        return g;
    }
    let message = lang.third_copy(&names);
    g.status = Status::Review;
    g.pgn = with_comment(&g.pgn, &format!("{THIRD_COPY}: {message}"));
    g.findings.push(FindingReport {
        code: THIRD_COPY,
        severity: Severity::Warning,
        weight: crate::finding::Weight::Doubt,
        ply: None,
        move_label: None,
        written: None,
        replacement: None,
        alternatives: Vec::new(),
        message,
        margin: None,
        line: None,
        col: None,
        about_result: false,
        told: false,
    });
    g
}

/// For each of `rounds`, the boards of its pairings without a scoresheet
/// and those with one copy only, in `review/round-<n>.missing.txt` and a
/// log line, both when that changed. Said, not fatal: a failure is logged.
pub(crate) fn rounds_report(cfg: &ProcessConfig, locked: &mut Locked<'_>, t: &Tournament, rounds: &[u32]) {
    let list = |v: &[u32]| v.iter().map(u32::to_string).collect::<Vec<_>>().join(", ");
    // An event that collects one copy per game (no game read from two
    // players' copies: `GameRecord::two_copies`) waits for
    // no other copy: its boards are not listed as having one copy only.
    let told = |e: io::Error| tracing::warn!(error = %e, "cannot tell the boards without a scoresheet");
    let two_copies = match locked.any_two_copies() {
        Ok(t) => t,
        Err(e) => return told(e),
    };
    for &r in rounds.iter().filter(|&&r| t.round(r).next().is_some()) {
        let (mut missing, mut single) = (Vec::new(), Vec::new());
        let copies = match locked.copies_in(r) {
            Ok(c) => c,
            Err(e) => return told(e),
        };
        for p in t.round(r) {
            match copies.get(&p.board).copied().unwrap_or(0) {
                0 => missing.push(p.board),
                1 => single.push(p.board),
                _ => {}
            }
        }
        let single_text = match (two_copies, single.is_empty()) {
            (false, _) => "not counted (one copy per game: no game of the event has two)".to_string(),
            (true, true) => "none".to_string(),
            (true, false) => list(&single),
        };
        if !two_copies {
            single.clear();
        }
        let text = format!(
            "{}, round {r}\nboards without a scoresheet: {}\nboards with one copy only: {single_text}\n",
            t.name,
            if missing.is_empty() { "none".to_string() } else { list(&missing) },
        );
        let path = cfg.folders.review.join(format!("round-{r}.missing.txt"));
        if fs::read_to_string(&path).is_ok_and(|old| old == text) {
            continue;
        }
        if let Err(e) = replace_staged(&path, text.as_bytes(), &cfg.staging) {
            warn!(file = %path.display(), error = %e, "cannot write the round's missing boards");
        }
        if missing.is_empty() && single.is_empty() {
            continue;
        }
        info!(
            round = r, without_sheet = %list(&missing), one_copy = %list(&single),
            "round {r}: boards still without a scoresheet, and with one copy only"
        );
    }
}
