//! The arbiter's decisions applied to the games the daemon published: a
//! game as the desk shows it (read again from archive/,
//! with each move as written), a decision's reading previewed, and a
//! decision carried out: the game written again where it now goes (pgn/ and
//! its round's file, or rejected/), its review files gone, the decision kept
//! in `decisions/<name>.yaml`.

use std::fs;
use std::io;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use tracing::info;

#[cfg(feature = "desk")]
use crate::convert::games_together;
use crate::convert::{Input, Options, read_inputs};
use crate::decision::{Action, Decision, DecisionError, decided_among};
use crate::emit::file::replace_staged;
#[cfg(feature = "desk")]
use crate::emit::report::GameReport;
use crate::emit::report::Status;
use crate::sheet::Sheet;

use super::games::{GameRecord, Which, hash};
use super::kept::{id_of, kept_decisions, kept_for};
use super::outcome::{FileError, Outcome, ProcessConfig, archive, folder_of, io_at, reject};
use super::publish::replace;
use super::route::unrecorded;

/// A game as the desk shows it.
#[cfg(feature = "desk")]
#[derive(Debug, Clone)]
pub(crate) struct Shown {
    /// Changes whenever the game is published again (its other copy came,
    /// a decision): a decision made on an older version is refused.
    pub version: String,
    /// The game as read now (or as a decision would make it), `written` filled.
    pub report: GameReport,
    /// The files it was read from, as dropped.
    pub sheets: Vec<String>,
}

/// What a decision did.
#[derive(Debug, Clone)]
pub(crate) struct Decided {
    pub status: Status,
    /// The game's files now (its PGN in pgn/, or its `.error.txt`).
    pub files: Vec<PathBuf>,
    /// `decisions/<name>.yaml`.
    pub kept: PathBuf,
}

/// Why a decision or a look at a game failed.
#[derive(Debug, thiserror::Error)]
pub(crate) enum DecideError {
    #[error("no game {0}")]
    NoGame(String),
    #[error("the game changed since the page was shown (its other copy arrived, or it was decided): look at it again")]
    Stale,
    #[error(transparent)]
    Decision(#[from] DecisionError),
    #[error("{0}")]
    Gone(String),
    #[error(transparent)]
    File(#[from] FileError),
}

/// Whether `id` can name a record: 16 lowercase hex digits (never a path).
pub(crate) fn is_id(id: &str) -> bool {
    id.len() == 16 && id.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// The record of game `id`, and its version.
#[cfg(feature = "desk")]
fn record_of(cfg: &ProcessConfig, id: &str) -> Result<(GameRecord, String), DecideError> {
    if !is_id(id) {
        return Err(DecideError::NoGame(id.to_string()));
    }
    let locked = cfg.games.lock().map_err(io_at(&cfg.folders.state))?;
    let record = locked.get(&format!("{id}.json")).filter(|r| !r.pending);
    let record = record.ok_or_else(|| DecideError::NoGame(id.to_string()))?;
    let version = version_of(cfg, id, &record);
    Ok((record, version))
}

/// A game's version: a hash of its record (its sheets, folder and files)
/// and of the decision kept for it (an amendment that leaves it in review
/// changes no file's name, but the game shown).
fn version_of(cfg: &ProcessConfig, id: &str, record: &GameRecord) -> String {
    let mut bytes = serde_json::to_vec(record).unwrap_or_default();
    if let Some(d) = kept_for(cfg, id) {
        bytes.extend(d.to_yaml().into_bytes());
    }
    hash(&bytes)
}

/// The files a record's game is read from, from archive/, and which sheet
/// of the first file it is.
pub(crate) fn inputs_of(cfg: &ProcessConfig, record: &GameRecord) -> Result<(Vec<Input>, (usize, usize)), DecideError> {
    let mut files: Vec<&str> = record.sheets.iter().map(|s| s.archived.as_str()).collect();
    files.dedup();
    let mut inputs: Vec<Input> = Vec::with_capacity(files.len());
    for f in &files {
        let path = cfg.folders.archive.join(f);
        match fs::read(&path) {
            Ok(b) => inputs.push((f.to_string(), Ok(b))),
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Err(DecideError::Gone(format!("the sheet {f} is gone from archive/")));
            }
            Err(e) => return Err(FileError { path, source: e }.into()),
        }
    }
    let index = record.sheets.first().map_or(0, |s| s.index);
    Ok((inputs, (0, index)))
}

/// A record's own sheets, out of its files in archive/: every sheet of the
/// files is read, but only the game's own are read as games (a file of
/// thousands of games costs its reading, never its other games' searches).
struct Own {
    /// Each with its file's index in `names`.
    sheets: Vec<(usize, Sheet)>,
    /// The files' names in archive/.
    names: Vec<String>,
    /// The record's first sheet, among `sheets`.
    target: usize,
    /// How many sheets the first file has (the game's name needs it: `<stem>-<k>`).
    count: usize,
}

impl Own {
    fn names(&self) -> Vec<&str> {
        self.names.iter().map(String::as_str).collect()
    }
}

fn own_sheets(cfg: &ProcessConfig, record: &GameRecord, opts: &Options) -> Result<Own, DecideError> {
    let (inputs, (_, index)) = inputs_of(cfg, record)?;
    let (reports, sheets) = read_inputs(&inputs, opts);
    if let Some(e) = reports.first().and_then(|r| r.error.clone()) {
        return Err(DecisionError::Unreadable(e).into());
    }
    let names: Vec<String> = inputs.into_iter().map(|(n, _)| n).collect();
    let count = sheets.iter().filter(|(f, _)| *f == 0).count();
    let mut place = vec![0usize; names.len()];
    let (mut own, mut target) = (Vec::new(), None);
    for (f, sheet) in sheets {
        let i = place[f];
        place[f] += 1;
        if record.sheets.iter().any(|s| s.archived == names[f] && s.index == i) {
            if f == 0 && i == index {
                target = Some(own.len());
            }
            own.push((f, sheet));
        }
    }
    let target = target.ok_or_else(|| DecideError::Gone("the game is no longer in its sheet".into()))?;
    Ok(Own { sheets: own, names, target, count })
}

/// The game of `record` as read now: as its kept decision makes it, if any.
#[cfg(feature = "desk")]
fn read_now(cfg: &ProcessConfig, id: &str, record: &GameRecord, opts: &Options) -> Result<GameReport, DecideError> {
    let own = own_sheets(cfg, record, opts)?;
    if let Some(d) = kept_for(cfg, id) {
        return Ok(decided_among(own.sheets.clone(), &own.names(), opts, own.target, &d)?.report);
    }
    Ok(games_together(&own.sheets, &own.names(), opts, None).0.swap_remove(own.target))
}

/// Game `id` as read now.
#[cfg(feature = "desk")]
pub(crate) fn show(cfg: &ProcessConfig, id: &str) -> Result<Shown, DecideError> {
    let (record, version) = record_of(cfg, id)?;
    let report = read_now(cfg, id, &record, &cfg.options_now())?;
    Ok(shown(version, &record, report))
}

#[cfg(feature = "desk")]
fn shown(version: String, record: &GameRecord, report: GameReport) -> Shown {
    Shown { version, report, sheets: record.sheets.iter().map(|s| s.dropped.clone()).collect() }
}

/// Game `id` as `decision` would make it, without writing anything; refused
/// (`Stale`) when the game is no longer at `version`.
#[cfg(feature = "desk")]
pub(crate) fn preview(cfg: &ProcessConfig, id: &str, version: &str, decision: &Decision) -> Result<Shown, DecideError> {
    let (record, now) = record_of(cfg, id)?;
    if now != version {
        return Err(DecideError::Stale);
    }
    let opts = cfg.options_now();
    let own = own_sheets(cfg, &record, &opts)?;
    let decided = decided_among(own.sheets.clone(), &own.names(), &opts, own.target, decision)?;
    Ok(shown(now, &record, decided.report))
}

/// Carries out `decision` on game `id` (at `version`, when the desk shows it
/// one; a file dropped into the inbox names none). Under the records' lock:
/// the decision is kept first (a kill after it leaves it to be applied
/// again), then the game is written where it now goes, then its record.
pub(crate) fn decide(
    cfg: &ProcessConfig,
    id: &str,
    version: Option<&str>,
    decision: &Decision,
) -> Result<Decided, DecideError> {
    if !is_id(id) {
        return Err(DecideError::NoGame(id.to_string()));
    }
    let state = &cfg.folders.state;
    let opts = cfg.options_now();
    let mut locked = cfg.games.lock().map_err(io_at(state))?;
    let key = format!("{id}.json");
    let record = locked.get(&key).filter(|r| !r.pending).ok_or_else(|| DecideError::NoGame(id.into()))?;
    if version.is_some_and(|v| v != version_of(cfg, id, &record)) {
        return Err(DecideError::Stale);
    }
    let own = own_sheets(cfg, &record, &opts)?;
    let merged = merged(cfg, id, decision);
    let decision = &merged;
    let decided = decided_among(own.sheets.clone(), &own.names(), &opts, own.target, decision)?;
    let name = record.files.first().and_then(|p| p.file_stem()).map(|s| s.to_string_lossy().into_owned());
    let name = name.unwrap_or_else(|| id.to_string());
    let kept = keep(cfg, id, &name, &record, decision, &decided.replaced)?;
    super::crash::step("decision.kept");
    let dropped = record.sheets.last().map_or("", |s| s.dropped.as_str()).to_string();
    let index = record.sheets.first().map_or(0, |s| s.index);
    let at = (index, own.count.max(index + 1));
    let placed = replace(cfg, &dropped, at, &decided.report, (&record, &mut unrecorded), &mut Outcome::default())?;
    super::crash::step("decision.placed");
    let updated = GameRecord {
        folder: folder_of(placed.status).to_string(),
        files: placed.files.clone(),
        round: placed.round,
        board: placed.board,
        result: placed.result.clone(),
        notices: placed.notices.clone(),
        ..record.clone()
    };
    locked.put(&key, &updated, &cfg.staging).map_err(io_at(state))?;
    super::crash::step("decision.recorded");
    info!(
        game = %name, arbiter = %decision.arbiter, decision = ?decision.decision, to = folder_of(placed.status),
        "an arbiter decided a game: {} → {}", record.folder, folder_of(placed.status)
    );
    Ok(Decided { status: placed.status, files: placed.files, kept })
}

/// `decision` with the moves an earlier decision on the game fixed (an
/// amendment that left the game in review) that it does not fix again.
fn merged(cfg: &ProcessConfig, id: &str, decision: &Decision) -> Decision {
    let mut d = decision.clone();
    if decision.decision == Action::Reject {
        return d;
    }
    if let Some(earlier) = kept_for(cfg, id) {
        d.result = d.result.or(earlier.result);
        let plies: Vec<u32> = d.fixed().unwrap_or_default().iter().map(|(p, _)| *p).collect();
        for (k, v) in earlier.moves {
            if crate::decision::ply_of(&k).is_ok_and(|p| !plies.contains(&p)) {
                d.moves.insert(k, v);
            }
        }
    }
    d
}

/// The decision kept as `decisions/<name>.yaml` (replaced at once), with
/// when it was made, the game and version it was made on, and the reading
/// it replaced.
fn keep(
    cfg: &ProcessConfig,
    id: &str,
    name: &str,
    record: &GameRecord,
    decision: &Decision,
    replaced: &[String],
) -> Result<PathBuf, DecideError> {
    let dir = &cfg.folders.decisions;
    fs::create_dir_all(dir).map_err(io_at(dir))?;
    let kept = Decision {
        game: Some(id.to_string()),
        when: Some(decision.when.clone().unwrap_or_else(now_utc)),
        replaced: Some(replaced.to_vec()),
        version: Some(version_of(cfg, id, record)),
        ..decision.clone()
    };
    // One decision per game: an earlier one for it is replaced.
    let path = kept_decisions(dir)
        .into_iter()
        .find(|(_, d)| d.game.as_deref() == Some(id))
        .map_or_else(|| dir.join(format!("{name}.yaml")), |(p, _)| p);
    replace_staged(&path, kept.to_yaml().as_bytes(), &cfg.staging).map_err(io_at(&path))?;
    Ok(path)
}

/// Now in UTC, RFC 3339, to the second.
fn now_utc() -> String {
    let secs = SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (days, rest) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil_from_days(days as i64);
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z", rest / 3600, rest % 3600 / 60, rest % 60)
}

/// The calendar date of a day count since 1970-01-01 (Howard Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// The game a decision dropped into the inbox as `file` names: its `game:`
/// (an id, or a name in review/), else the file's name before
/// `.decision.yaml`; the id of the game waiting under that name.
fn named_game(cfg: &ProcessConfig, file: &str, decision: &Decision) -> Result<String, DecideError> {
    let stem = file.strip_suffix(".decision.yaml").or_else(|| file.strip_suffix(".decision.yml")).unwrap_or(file);
    let wanted = decision.game.clone().unwrap_or_else(|| stem.to_string());
    let locked = cfg.games.lock().map_err(io_at(&cfg.folders.state))?;
    let mut found = None;
    locked
        .each(Which::Published, |n, r| {
            let named = id_of(n) == wanted
                || r.files.iter().any(|p| {
                    p.parent() == Some(&cfg.folders.review) && p.file_stem().is_some_and(|s| s == wanted.as_str())
                });
            if !named {
                return ControlFlow::Continue(());
            }
            found = Some((n.to_string(), r));
            ControlFlow::Break(())
        })
        .map_err(io_at(&cfg.folders.state))?;
    match found {
        Some((n, r)) if r.folder == "review" || decision.decision == Action::Reject || id_of(&n) == wanted => {
            Ok(id_of(&n).to_string())
        }
        _ => Err(DecideError::NoGame(format!("{wanted}: no game waiting in review/ under that name"))),
    }
}

/// A decision dropped into the inbox: carried out, or refused with a clear
/// message (a copy of it and its `.error.txt` in rejected/); either way the
/// file is archived and nothing else changes when it is refused.
pub(crate) fn dropped(
    cfg: &ProcessConfig,
    claimed: &Path,
    name: &str,
    bytes: &[u8],
    out: &mut Outcome,
) -> Result<(), FileError> {
    let carried = std::str::from_utf8(bytes)
        .map_err(|_| DecideError::Decision(DecisionError::Syntax("not UTF-8 text".into())))
        .and_then(|t| Decision::parse(t).map_err(DecideError::from))
        .and_then(|d| {
            let id = named_game(cfg, name, &d)?;
            decide(cfg, &id, None, &d)
        });
    match carried {
        Ok(decided) => {
            out.loaded = Some(format!("decision carried out: the game went to {}", folder_of(decided.status)));
            out.outputs.extend(decided.files);
            out.outputs.push(decided.kept);
        }
        Err(DecideError::File(e)) => return Err(e),
        Err(e) => {
            let why = format!("{e}; nothing was changed");
            reject(cfg, name, Some(bytes), claimed, &format!("{name}: {why}\n"), out)?;
            out.error = Some(why);
        }
    }
    archive(cfg, claimed, out)
}
