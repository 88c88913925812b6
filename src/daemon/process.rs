//! One claimed file from start to finish: read, convert, route each game to
//! pgn/, review/ or rejected/, add validated games to their round's file, and
//! last archive the original and drop the claim. Why every step can be done
//! again after a crash without writing anything twice is in [the daemon's
//! module doc](super).

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::convert::{Options, convert};
use crate::emit::file::replace;
use crate::emit::report::{FileReport, GameReport, Status};
use crate::finding::Severity;

use super::Folders;
use super::names::{game_name, part};
use super::place::{link_new, place_new};
use super::round;

/// What processing a file needs, shared by the workers: where the outputs go,
/// how to convert, whether to sync outputs to disk.
#[derive(Debug, Clone)]
pub struct ProcessConfig {
    pub folders: Folders,
    pub options: Options,
    pub fsync: bool,
}

/// A failure that concerns one file and comes from outside it (a folder that
/// cannot be written, a full disk): the file stays claimed and is retried.
#[derive(Debug, thiserror::Error)]
#[error("{}: {source}", path.display())]
pub struct FileError {
    /// The path the failing operation was about.
    pub path: PathBuf,
    pub source: io::Error,
}

/// Where one file went.
#[derive(Debug, Default)]
pub struct Outcome {
    /// The name it was dropped under.
    pub name: String,
    /// The files written, or found already written (full paths).
    pub outputs: Vec<PathBuf>,
    /// The game statuses, in file order (empty for an unreadable file).
    pub statuses: Vec<Status>,
    /// Codes of the findings that are not informational.
    pub findings: Vec<&'static str>,
    /// Why the file could not be read, if it could not.
    pub error: Option<String>,
}

impl Outcome {
    /// The folder the file's games went to, for the log line: `pgn`, `review`,
    /// `rejected`, or several joined with `+`.
    pub fn routed(&self) -> String {
        if self.error.is_some() {
            return "rejected".into();
        }
        let mut to: Vec<&str> = Vec::new();
        for s in &self.statuses {
            let f = folder_of(*s);
            if !to.contains(&f) {
                to.push(f);
            }
        }
        if to.is_empty() { "rejected".into() } else { to.join("+") }
    }
}

fn folder_of(s: Status) -> &'static str {
    match s {
        Status::Validated => "pgn",
        Status::Review => "review",
        Status::Rejected => "rejected",
    }
}

fn io_at(path: &Path) -> impl FnOnce(io::Error) -> FileError + '_ {
    move |source| FileError { path: path.to_path_buf(), source }
}

/// Processes a claimed file; on success the claim is gone and the original is
/// in archive/.
pub fn process(cfg: &ProcessConfig, claimed: &Path) -> Result<Outcome, FileError> {
    let name = file_name(claimed);
    let (bytes, report) = read_claimed(cfg, claimed, &name)?;
    let mut out = Outcome { name: name.clone(), ..Outcome::default() };
    let error = report.error.clone().or_else(|| report.games.is_empty().then(|| "no game in the file".to_string()));
    if let Some(error) = error {
        out.error = Some(error.clone());
        reject(cfg, claimed, &name, bytes.as_deref(), &format!("{name}: {error}\n"), &mut out)?;
    } else {
        let stem = Path::new(&name).file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let count = report.games.len();
        for (i, game) in report.games.iter().enumerate() {
            out.statuses.push(game.status);
            out.findings.extend(game.findings.iter().filter(|x| x.severity != Severity::Info).map(|x| x.code));
            route(cfg, &name, &stem, (i, count), game, &mut out)?;
        }
    }
    archive(cfg, claimed, &mut out)?;
    Ok(out)
}

/// The bytes of a claimed file (`None`: not read into memory, for a file over
/// the limit or anything but a plain file) and its conversion.
fn read_claimed(cfg: &ProcessConfig, claimed: &Path, name: &str) -> Result<(Option<Vec<u8>>, FileReport), FileError> {
    let meta = fs::symlink_metadata(claimed).map_err(io_at(claimed))?;
    let size = meta.len();
    let limit = cfg.options.max_file_bytes;
    let unread = if !meta.file_type().is_file() {
        Some("not a plain file (a link, a pipe or a device); not read".to_string())
    } else if size > limit as u64 {
        Some(format!("file too large: {size} bytes (the limit is {limit})"))
    } else {
        None
    };
    if unread.is_some() {
        return Ok((None, FileReport { path: name.to_string(), error: unread, games: Vec::new() }));
    }
    let bytes = fs::read(claimed).map_err(io_at(claimed))?;
    let report = convert(name, &bytes, &cfg.options);
    Ok((Some(bytes), report))
}

/// Puts game `index` of `count` of the file `name` where its status sends it.
fn route(
    cfg: &ProcessConfig,
    name: &str,
    stem: &str,
    (index, count): (usize, usize),
    game: &GameReport,
    out: &mut Outcome,
) -> Result<(), FileError> {
    let f = &cfg.folders;
    let tag = |k: &str| game.headers.get(k).and_then(|v| v.as_str());
    let gname = game_name(tag, stem, index, count);
    match game.status {
        Status::Validated => {
            let p = place_new(&f.pgn, &gname, ".pgn", game.pgn.as_bytes(), cfg.fsync).map_err(io_at(&f.pgn))?;
            out.outputs.push(p);
            if let (Some(event), Some(round)) = (tag("Event"), tag("Round").filter(|r| *r != "?"))
                && !part(round).is_empty()
            {
                let r = round::add_game(&f.pgn, event, round, &game.pgn, cfg.fsync).map_err(io_at(&f.pgn))?;
                out.outputs.push(r);
            }
        }
        Status::Review => {
            let p = place_new(&f.review, &gname, ".pgn", game.pgn.as_bytes(), cfg.fsync).map_err(io_at(&f.review))?;
            // Named after the game it reports on, so replaced, not placed:
            // written again whenever its game is (or is found already) placed.
            let json = p.with_extension("json");
            replace(&json, review_report(name, game).as_bytes(), cfg.fsync).map_err(io_at(&json))?;
            out.outputs.push(p);
            out.outputs.push(json);
        }
        Status::Rejected => {
            let why = game.findings.iter().map(|x| format!("{}: {}\n", x.code, x.message)).collect::<String>();
            let text = format!("{name}, game {}: no move could be read\n{why}", index + 1);
            let p =
                place_new(&f.rejected, &gname, ".error.txt", text.as_bytes(), cfg.fsync).map_err(io_at(&f.rejected))?;
            out.outputs.push(p);
        }
    }
    Ok(())
}

fn file_name(path: &Path) -> String {
    path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
}

/// Rejects a claimed file for `why` (used when reading it failed unexpectedly)
/// and archives it.
pub fn reject_file(cfg: &ProcessConfig, claimed: &Path, why: &str) -> Result<Outcome, FileError> {
    let name = file_name(claimed);
    let bytes = fs::read(claimed).map_err(io_at(claimed))?;
    let mut out = Outcome { name: name.clone(), error: Some(why.to_string()), ..Outcome::default() };
    reject(cfg, claimed, &name, Some(&bytes), &format!("{name}: {why}\n"), &mut out)?;
    archive(cfg, claimed, &mut out)?;
    Ok(out)
}

/// Last: the original, exactly as received (bytes and name), is linked into
/// archive/, then the claim goes. Until then a crash leaves the file claimed,
/// to be processed again.
fn archive(cfg: &ProcessConfig, claimed: &Path, out: &mut Outcome) -> Result<(), FileError> {
    let dir = &cfg.folders.archive;
    let archived = link_new(claimed, dir, claimed.file_name().unwrap_or_default()).map_err(io_at(dir))?;
    out.outputs.push(archived);
    match fs::remove_file(claimed) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(FileError { path: claimed.to_path_buf(), source: e }),
    }
}

/// An unreadable file: a copy of it and `<name>.error.txt` in rejected/.
fn reject(
    cfg: &ProcessConfig,
    claimed: &Path,
    name: &str,
    bytes: Option<&[u8]>,
    why: &str,
    out: &mut Outcome,
) -> Result<(), FileError> {
    let dir = &cfg.folders.rejected;
    let copy = match bytes {
        Some(b) => place_new(dir, name, "", b, cfg.fsync),
        // Not read: linked, not copied through memory.
        None => link_new(claimed, dir, claimed.file_name().unwrap_or_default()),
    }
    .map_err(io_at(dir))?;
    let text = place_new(dir, &file_name(&copy), ".error.txt", why.as_bytes(), cfg.fsync).map_err(io_at(dir))?;
    out.outputs.push(text);
    Ok(())
}

/// The review report of one game: the file it came from and the game as `convert --json` reports it.
fn review_report(file: &str, game: &GameReport) -> String {
    let mut s = serde_json::to_string_pretty(&serde_json::json!({ "file": file, "game": game })).unwrap_or_default();
    s.push('\n');
    s
}
