//! What the workers share (the folders, the options, the records, the
//! pairings) and what becomes of one file: where its games went, the
//! failures that keep it claimed, and its last steps, archived or rejected.
//! Every step above reads and writes through these; they call none of them.

use std::collections::BTreeMap;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::convert::Options;
use crate::emit::file::Staging;
use crate::emit::report::Status;

use super::Folders;
use super::games::Games;
use super::names::{is_decision_file, split_ext};
use super::pairings::Pairings;
use super::place::{link_new, place_new};

/// What processing a file needs, shared by the workers: where the outputs go,
/// how to convert, how outputs are staged (synced, and their temporary files
/// in the daemon's private work folder).
#[derive(Debug, Clone)]
pub(crate) struct ProcessConfig {
    pub folders: Folders,
    pub options: Options,
    pub staging: Staging,
    /// Which sheets were published where, shared by the workers.
    pub games: std::sync::Arc<Games>,
    /// The tournament's pairings as last loaded (from the config or a TRF
    /// dropped into the inbox).
    pub pairings: std::sync::Arc<Pairings>,
    /// The results each round file holds, read once for each version of it.
    pub scores: std::sync::Arc<super::round::RoundScores>,
}

impl ProcessConfig {
    /// The conversion options with the pairings loaded now, if any.
    pub(crate) fn options_now(&self) -> Options {
        let mut o = self.options.clone();
        if let Some(t) = self.pairings.current() {
            o.pairings = Some(t);
        }
        o
    }
}

/// Whether two options have the same pairings (the same load of them).
pub(crate) fn same_pairings(a: &Options, b: &Options) -> bool {
    match (&a.pairings, &b.pairings) {
        (Some(x), Some(y)) => std::sync::Arc::ptr_eq(x, y),
        (None, None) => true,
        _ => false,
    }
}

/// A failure that concerns one file and comes from outside it (a folder that
/// cannot be written, a full disk): the file stays claimed and is retried.
#[derive(Debug, thiserror::Error)]
#[error("{}: {source}", path.display())]
pub(crate) struct FileError {
    /// The path the failing operation was about.
    pub path: PathBuf,
    pub source: io::Error,
}

/// Where one file went.
#[derive(Debug, Default)]
pub(crate) struct Outcome {
    /// The name it was dropped under.
    pub name: String,
    /// The files written, or found already written (full paths).
    pub outputs: Vec<PathBuf>,
    /// The game statuses, in file order, as routed (empty for an unreadable file).
    pub statuses: Vec<Status>,
    /// How many findings of each code the file's games have.
    pub findings: BTreeMap<&'static str, usize>,
    /// Why the file could not be read, if it could not.
    pub error: Option<String>,
    /// A link, pipe or device that could not be moved out of the inbox: left
    /// there, and not taken again while it stays one.
    pub left_in_inbox: bool,
    /// The statuses of earlier readings its games replaced (a game read
    /// again with both copies): no longer where they were counted.
    pub replaced: Vec<Status>,
    /// For a TRF: what was loaded.
    pub loaded: Option<String>,
    /// The rounds and boards its games were published as.
    pub boards: Vec<(u32, u32)>,
    /// The records of its games (in the state folder): where they are now
    /// tells where its games went, whatever moved them since.
    pub records: Vec<String>,
}

impl Outcome {
    /// The folder the file's games went to, for the log line: `pgn`, `review`,
    /// `rejected`, or several joined with `+`.
    pub(crate) fn routed(&self) -> String {
        if self.left_in_inbox {
            return "inbox".into();
        }
        if self.loaded.is_some() {
            let decision = is_decision_file(&self.name);
            return if decision { "decision" } else { "pairings" }.into();
        }
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

pub(crate) fn folder_of(s: Status) -> &'static str {
    match s {
        Status::Validated => "pgn",
        Status::Review => "review",
        Status::Rejected => "rejected",
    }
}

pub(crate) fn io_at(path: &Path) -> impl FnOnce(io::Error) -> FileError + '_ {
    move |source| FileError { path: path.to_path_buf(), source }
}

/// A path's file name, for messages and outputs.
pub(super) fn file_name(path: &Path) -> String {
    path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
}

/// Last: the original, exactly as received (bytes and name), is linked into
/// archive/, then the claim goes. Until then a crash leaves the file claimed,
/// to be processed again.
pub(crate) fn archive(cfg: &ProcessConfig, claimed: &Path, out: &mut Outcome) -> Result<(), FileError> {
    let dir = &cfg.folders.archive;
    let archived = link_new(claimed, dir, claimed.file_name().unwrap_or_default()).map_err(io_at(dir))?;
    out.outputs.push(archived);
    unclaim(claimed)
}

pub(crate) fn unclaim(claimed: &Path) -> Result<(), FileError> {
    match fs::remove_file(claimed) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(FileError { path: claimed.to_path_buf(), source: e }),
    }
}

/// A copy of the original in rejected/, under its name (`-2` before the
/// extension for another file of that name).
pub(super) fn place_copy(cfg: &ProcessConfig, name: &str, bytes: &[u8]) -> Result<PathBuf, FileError> {
    let dir = &cfg.folders.rejected;
    let (stem, ext) = split_ext(name);
    place_new(dir, &stem, &ext, bytes, &cfg.staging).map_err(io_at(dir))
}

/// An unreadable file: a copy of it and `<name>.error.txt` in rejected/.
pub(crate) fn reject(
    cfg: &ProcessConfig,
    name: &str,
    bytes: Option<&[u8]>,
    claimed: &Path,
    why: &str,
    out: &mut Outcome,
) -> Result<(), FileError> {
    let dir = &cfg.folders.rejected;
    let copy = match bytes {
        Some(b) => place_copy(cfg, name, b)?,
        // Not read (over the size limit): linked, not copied through memory.
        None => link_new(claimed, dir, claimed.file_name().unwrap_or_default()).map_err(io_at(dir))?,
    };
    out.outputs.push(copy.clone());
    let text = place_new(dir, &file_name(&copy), ".error.txt", why.as_bytes(), &cfg.staging).map_err(io_at(dir))?;
    out.outputs.push(text);
    Ok(())
}
