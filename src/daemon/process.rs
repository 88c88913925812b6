//! One claimed file from start to finish: read, convert, route each game to
//! pgn/, review/ or rejected/, add validated games to their round's file, and
//! last move the original to archive/. Every step can be done again after a
//! crash without writing anything twice (see [`place_new`]).

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::convert::{Options, convert};
use crate::emit::report::{GameReport, Status};

use super::Folders;
use super::names::game_name;
use super::place::{place_new, replace};
use super::round;

/// What processing needs, shared by the workers.
#[derive(Debug, Clone)]
pub struct Context {
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
pub fn process(ctx: &Context, claimed: &Path) -> Result<Outcome, FileError> {
    let name = claimed.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let meta = fs::symlink_metadata(claimed).map_err(io_at(claimed))?;
    let size = meta.len();
    // Not read into memory: a file over the limit, or anything but a plain file.
    let unread = if !meta.file_type().is_file() {
        Some("not a plain file (a link, a pipe or a device); not read".to_string())
    } else if size > ctx.options.max_file_bytes as u64 {
        Some(format!("file too large: {size} bytes (the limit is {})", ctx.options.max_file_bytes))
    } else {
        None
    };
    let bytes = if unread.is_some() { None } else { Some(fs::read(claimed).map_err(io_at(claimed))?) };
    let mut out = Outcome { name: name.clone(), ..Outcome::default() };
    let report = match (&bytes, unread) {
        (Some(b), _) => convert(&name, b, &ctx.options),
        (None, error) => crate::emit::report::FileReport { path: name.clone(), error, games: Vec::new() },
    };
    let f = &ctx.folders;
    let error = report.error.clone().or_else(|| report.games.is_empty().then(|| "no game in the file".to_string()));
    if let Some(error) = error {
        out.error = Some(error.clone());
        reject(ctx, claimed, &name, bytes.as_deref(), &format!("{name}: {error}\n"), &mut out)?;
    } else {
        let stem = Path::new(&name).file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let count = report.games.len();
        for (i, game) in report.games.iter().enumerate() {
            let tag = |k: &str| game.headers.get(k).and_then(|v| v.as_str());
            let gname = game_name(tag, &stem, i, count);
            out.statuses.push(game.status);
            out.findings
                .extend(game.findings.iter().filter(|x| x.severity != crate::finding::Severity::Info).map(|x| x.code));
            match game.status {
                Status::Validated => {
                    let p = place_new(&f.pgn, &gname, ".pgn", game.pgn.as_bytes(), ctx.fsync).map_err(io_at(&f.pgn))?;
                    out.outputs.push(p);
                    if let (Some(event), Some(round)) = (tag("Event"), tag("Round").filter(|r| *r != "?"))
                        && !super::names::part(round).is_empty()
                    {
                        let r = round::add_game(&f.pgn, event, round, &game.pgn, ctx.fsync).map_err(io_at(&f.pgn))?;
                        out.outputs.push(r);
                    }
                }
                Status::Review => {
                    let p = place_new(&f.review, &gname, ".pgn", game.pgn.as_bytes(), ctx.fsync)
                        .map_err(io_at(&f.review))?;
                    let json = p.with_extension("json");
                    replace(&json, review_report(&name, game).as_bytes(), ctx.fsync).map_err(io_at(&json))?;
                    out.outputs.push(p);
                    out.outputs.push(json);
                }
                Status::Rejected => {
                    let why = game.findings.iter().map(|x| format!("{}: {}\n", x.code, x.message)).collect::<String>();
                    let text = format!("{name}, game {}: no move could be read\n{why}", i + 1);
                    let p = place_new(&f.rejected, &gname, ".error.txt", text.as_bytes(), ctx.fsync)
                        .map_err(io_at(&f.rejected))?;
                    out.outputs.push(p);
                }
            }
        }
    }
    archive(ctx, claimed, &mut out)?;
    Ok(out)
}

/// Rejects a claimed file for `why` (used when reading it failed unexpectedly)
/// and archives it.
pub fn reject_file(ctx: &Context, claimed: &Path, why: &str) -> Result<Outcome, FileError> {
    let name = claimed.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let bytes = fs::read(claimed).map_err(io_at(claimed))?;
    let mut out = Outcome { name: name.clone(), error: Some(why.to_string()), ..Outcome::default() };
    reject(ctx, claimed, &name, Some(&bytes), &format!("{name}: {why}\n"), &mut out)?;
    archive(ctx, claimed, &mut out)?;
    Ok(out)
}

/// Last: the original, exactly as received (bytes and name), is linked into
/// archive/, then the claim goes.
fn archive(ctx: &Context, claimed: &Path, out: &mut Outcome) -> Result<(), FileError> {
    let dir = &ctx.folders.archive;
    let archived = put_new(claimed, dir, claimed.file_name().unwrap_or_default()).map_err(io_at(dir))?;
    out.outputs.push(archived);
    match fs::remove_file(claimed) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(FileError { path: claimed.to_path_buf(), source: e }),
    }
}

/// An unreadable file: a copy of it and `<name>.error.txt` in rejected/.
fn reject(
    ctx: &Context,
    claimed: &Path,
    name: &str,
    bytes: Option<&[u8]>,
    why: &str,
    out: &mut Outcome,
) -> Result<(), FileError> {
    let dir = &ctx.folders.rejected;
    let copy = match bytes {
        Some(b) => place_new(dir, name, "", b, ctx.fsync),
        // Not read: linked, not copied through memory.
        None => put_new(claimed, dir, claimed.file_name().unwrap_or_default()),
    }
    .map_err(io_at(dir))?;
    let copy_name = copy.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let text = place_new(dir, &copy_name, ".error.txt", why.as_bytes(), ctx.fsync).map_err(io_at(dir))?;
    out.outputs.push(text);
    Ok(())
}

/// The review report of one game: the file it came from and the game as `convert --json` reports it.
fn review_report(file: &str, game: &GameReport) -> String {
    let mut s = serde_json::to_string_pretty(&serde_json::json!({ "file": file, "game": game })).unwrap_or_default();
    s.push('\n');
    s
}

/// A file linked under a free name in `dir` (never overwriting, not through
/// memory): `name`, else `name-2` and so on. A name that already links to
/// this very file counts as done: processing it again after a crash links
/// nothing twice.
fn put_new(from: &Path, dir: &Path, name: &std::ffi::OsStr) -> io::Result<PathBuf> {
    use std::os::unix::fs::MetadataExt;
    let id = |p: &Path| fs::symlink_metadata(p).map(|m| (m.dev(), m.ino()));
    let own = id(from)?;
    for k in 1..10_000 {
        let to = match name.to_str() {
            Some(name) => dir.join(super::names::numbered(name, "", k)),
            // A name that is not UTF-8 is kept as it is (`-2` ... appended).
            None if k == 1 => dir.join(name),
            None => {
                let mut n = name.to_os_string();
                n.push(format!("-{k}"));
                dir.join(n)
            }
        };
        match fs::hard_link(from, &to) {
            Ok(()) => return Ok(to),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                if id(&to).is_ok_and(|t| t == own) {
                    return Ok(to);
                }
            }
            // A folder on another file system (an archive on a share): copied,
            // through a temporary file, never overwriting.
            Err(e) if e.kind() == io::ErrorKind::CrossesDevices => return copy_new(from, dir, name),
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::other(format!("no free name for {} in {}", name.to_string_lossy(), dir.display())))
}

/// [`put_new`] across file systems: a copy, placed as outputs are; a name that
/// already holds the same bytes counts as done.
fn copy_new(from: &Path, dir: &Path, name: &std::ffi::OsStr) -> io::Result<PathBuf> {
    let bytes = fs::read(from)?;
    place_new(dir, &name.to_string_lossy(), "", &bytes, true)
}
