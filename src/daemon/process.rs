//! One claimed file from start to finish: read, convert, route each game to
//! pgn/, review/ or rejected/, add validated games to their round's file, and
//! last archive the original and drop the claim. Why every step can be done
//! again after a crash without writing anything twice is in [the daemon's
//! module doc](super).

use std::fs;
use std::io;
use std::path::Path;

use crate::emit::report::Status;
use crate::sheet::Sheet;

use super::names::is_decision_file;
use super::outcome::{FileError, Outcome, ProcessConfig, archive, file_name, io_at, place_copy, reject, unclaim};
use super::pairings::is_trf;
use super::place::{link_only, place_new, rename_new};
use super::publish::publish;

/// Processes a claimed file; on success the claim is gone and the original is
/// in archive/. `Ok(None)`: the file changed while it was read (a writer still
/// at it); nothing was written, it stays claimed, to be read again once quiet.
pub(crate) fn process(cfg: &ProcessConfig, claimed: &Path) -> Result<Option<Outcome>, FileError> {
    let name = file_name(claimed);
    let meta = fs::symlink_metadata(claimed).map_err(io_at(claimed))?;
    if !meta.file_type().is_file() {
        return move_out(cfg, claimed, &name, NOT_PLAIN).map(Some);
    }
    let read = match read_claimed(cfg, claimed, &name) {
        // Another user's file the daemon may not read: no retry would read it.
        Err(e) if e.source.kind() == io::ErrorKind::PermissionDenied => {
            return move_out(cfg, claimed, &name, &unreadable(&name, &meta)).map(Some);
        }
        read => read?,
    };
    let Some((bytes, read)) = read else { return Ok(None) };
    super::crash::step("read");
    let mut out = Outcome { name: name.clone(), ..Outcome::default() };
    if let (true, Some(bytes)) = (is_trf(&name), &bytes) {
        super::rematch::dropped(cfg, claimed, &name, bytes, &mut out)?;
        return Ok(Some(out));
    }
    if let (true, Some(bytes)) = (is_decision_file(&name), &bytes) {
        super::decide::dropped(cfg, claimed, &name, bytes, &mut out)?;
        return Ok(Some(out));
    }
    let read = read.and_then(|s| if s.is_empty() { Err("no game in the file".to_string()) } else { Ok(s) });
    match (bytes, read) {
        (Some(bytes), Ok(sheets)) => {
            publish(cfg, claimed, &name, &bytes, &sheets, &mut out)?;
            // Every rejected sheet has its copy beside its `.error.txt`.
            if out.statuses.contains(&Status::Rejected) {
                out.outputs.push(place_copy(cfg, &name, &bytes)?);
            }
            unclaim(claimed)?;
        }
        (bytes, read) => {
            let error = read.err().unwrap_or_default();
            out.error = Some(error.clone());
            reject(cfg, &name, bytes.as_deref(), claimed, &format!("{name}: {error}\n"), &mut out)?;
            archive(cfg, claimed, &mut out)?;
        }
    }
    Ok(Some(out))
}

/// What tells a file changed: its size, modification and change times.
fn fingerprint(path: &Path) -> io::Result<(u64, i64, i64, i64, i64)> {
    use std::os::unix::fs::MetadataExt;
    let m = fs::symlink_metadata(path)?;
    Ok((m.len(), m.mtime(), m.mtime_nsec(), m.ctime(), m.ctime_nsec()))
}

/// The bytes of a claimed plain file (`None` in the pair: not read, over the
/// size limit) and its sheets, or why it cannot be read; `None`: it changed
/// while being read.
type Read = Option<(Option<Vec<u8>>, Result<Vec<Sheet>, String>)>;

fn read_claimed(cfg: &ProcessConfig, claimed: &Path, name: &str) -> Result<Read, FileError> {
    let before = fingerprint(claimed).map_err(io_at(claimed))?;
    let limit = cfg.options.max_file_bytes;
    if before.0 > limit as u64 {
        return Ok(Some((None, Err(format!("file too large: {} bytes (the limit is {limit})", before.0)))));
    }
    let bytes = fs::read(claimed).map_err(io_at(claimed))?;
    let sheets = crate::ingest::read_named(name, &bytes, limit).map_err(|e| e.to_string());
    // A writer that still had the file open can have written to it since the
    // claim (a rename does not stop it): what was read may be half of it.
    let after = fingerprint(claimed).map_err(io_at(claimed))?;
    if after != before || bytes.len() as u64 != after.0 {
        return Ok(None);
    }
    Ok(Some((Some(bytes), sheets)))
}

/// Rejects a claimed file for `why` (used when reading it failed unexpectedly)
/// and archives it.
pub(crate) fn reject_file(cfg: &ProcessConfig, claimed: &Path, why: &str) -> Result<Outcome, FileError> {
    let name = file_name(claimed);
    let bytes = fs::read(claimed).map_err(io_at(claimed))?;
    // What the attempt left waiting goes with it.
    let state = &cfg.folders.state;
    let mut locked = cfg.games.lock().map_err(io_at(state))?;
    locked.forget_pending(&name, &super::games::hash(&bytes), &cfg.staging).map_err(io_at(state))?;
    drop(locked);
    let mut out = Outcome { name: name.clone(), error: Some(why.to_string()), ..Outcome::default() };
    reject(cfg, &name, Some(&bytes), claimed, &format!("{name}: {why}\n"), &mut out)?;
    archive(cfg, claimed, &mut out)?;
    Ok(out)
}

/// Why a link, a pipe or a device is not read.
const NOT_PLAIN: &str = "not a plain file (a link, a pipe or a device): never read or followed";

/// Why a file the daemon's user may not read is not read, and how to have it read.
fn unreadable(name: &str, meta: &fs::Metadata) -> String {
    use std::os::unix::fs::MetadataExt;
    format!(
        "the daemon's user cannot read this file (permission denied: it belongs to user id {}, mode {:04o}); \
         it is kept here as it came, unread. Make it readable to the daemon's user (`chmod a+r {name}`), \
         or drop it as the user the daemon runs as, and drop it into the inbox again",
        meta.uid(),
        meta.mode() & 0o7777
    )
}

/// A file that is not read (a link, a pipe or a device, or a file the
/// daemon's user may not read) moved as it is into rejected/ with its
/// `.error.txt` saying `why` (not into archive/: none of its bytes were
/// read). Where it cannot be moved (rejected/ on another file system), it
/// goes back to the inbox and is left there, said once in the log.
fn move_out(cfg: &ProcessConfig, claimed: &Path, name: &str, why: &str) -> Result<Outcome, FileError> {
    let dir = &cfg.folders.rejected;
    let mut out = Outcome { name: name.to_string(), error: Some(why.to_string()), ..Outcome::default() };
    let own = claimed.file_name().unwrap_or_default();
    // Another user's file may not be linked (protected hard links): renamed.
    let moved = link_only(claimed, dir, own).or_else(|e| match e.kind() {
        std::io::ErrorKind::PermissionDenied => rename_new(claimed, dir, own),
        _ => Err(e),
    });
    match moved {
        Ok(moved) => {
            let text = format!("{name}: {why}\n");
            let t =
                place_new(dir, &file_name(&moved), ".error.txt", text.as_bytes(), &cfg.staging).map_err(io_at(dir))?;
            out.outputs.extend([moved, t]);
        }
        // Any other failure (permissions, a full disk) is an outside cause:
        // retried like any file's.
        Err(e) if e.kind() != std::io::ErrorKind::CrossesDevices => return Err(io_at(dir)(e)),
        Err(e) => {
            let inbox = &cfg.folders.inbox;
            let back =
                link_only(claimed, inbox, own).or_else(|_| rename_new(claimed, inbox, own)).map_err(io_at(inbox))?;
            out.error = Some(format!("{why}; cannot be moved to {}: {e}; left in the inbox", dir.display()));
            out.outputs.push(back);
            out.left_in_inbox = true;
        }
    }
    unclaim(claimed)?;
    Ok(out)
}
