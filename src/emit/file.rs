//! Writing a file at once. The bytes go to a temporary file in the target's
//! folder, flushed to disk when asked, which is then given its final name: a
//! reader never sees half a file, and a crash leaves at most a temporary file
//! (named with [`TEMP_PREFIX`], so that it can be told apart and swept).
//!
//! `convert` replaces its outputs ([`replace`]); the daemon never overwrites
//! one and links each under a free name instead (`daemon::place`).

use std::io::{self, Write};
use std::path::Path;

use tempfile::NamedTempFile;

/// Temporary files start with this (and are skipped by anyone listing the folder).
pub const TEMP_PREFIX: &str = ".scoresheet-";

/// `bytes` in a new temporary file in `dir` (synced to disk when `fsync`),
/// for the caller to give its name: renamed over the target, or linked under a
/// name nobody holds.
pub(crate) fn staged(dir: &Path, bytes: &[u8], fsync: bool) -> io::Result<NamedTempFile> {
    let mut tmp = tempfile::Builder::new().prefix(TEMP_PREFIX).tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    if fsync {
        tmp.as_file().sync_all()?;
    }
    Ok(tmp)
}

/// Writes `bytes` to `target` at once, replacing the file there if there is
/// one (a temporary file beside it, then a rename). When it fails, no
/// temporary file is left.
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// let target = dir.path().join("mesa.pgn");
/// scoresheet::emit::file::replace(&target, b"1. e4 *\n", false).unwrap();
/// scoresheet::emit::file::replace(&target, b"1. d4 *\n", false).unwrap();
/// assert_eq!(std::fs::read(&target).unwrap(), b"1. d4 *\n");
/// assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
/// ```
pub fn replace(target: &Path, bytes: &[u8], fsync: bool) -> io::Result<()> {
    // A bare file name has an empty parent: the current folder.
    let dir = target.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    staged(dir, bytes, fsync)?.persist(target).map_err(|e| e.error)?;
    Ok(())
}
