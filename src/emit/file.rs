//! Writing a file at once. The bytes go to a temporary file, flushed to disk
//! when asked, which is then given its final name: a reader never sees half a
//! file, and a crash leaves at most a temporary file. The temporary file is in
//! a private scratch folder when the caller has one on the target's file
//! system (the daemon's work folder: nothing half-written ever shows in an
//! output folder), else beside the target, named with [`TEMP_PREFIX`] so that
//! it is hidden from listings and can be told apart and swept.
//!
//! Outputs are created readable as the umask allows (`0644` under umask
//! `022`), as any program's files are: a web server publishing them must be
//! able to read them.
//!
//! `convert` replaces its outputs ([`replace`]); the daemon never overwrites
//! one and links each under a free name instead (`daemon::place`).

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use tempfile::NamedTempFile;

/// Temporary files start with this (and are skipped by anyone listing the folder).
pub(crate) const TEMP_PREFIX: &str = ".scoresheet-";

/// How outputs are written: synced to disk or not, and where their temporary
/// files go first (`None`: beside the target).
#[derive(Debug, Clone, Default)]
pub(crate) struct Staging {
    pub fsync: bool,
    pub scratch: Option<PathBuf>,
}

impl Staging {
    /// Beside the target, synced when `fsync`.
    pub(crate) fn beside(fsync: bool) -> Staging {
        Staging { fsync, scratch: None }
    }

    /// `bytes` in a new temporary file for a file of `dir`: in the scratch
    /// folder when there is one, else in `dir`. The flag says whether it is in
    /// the scratch folder (a rename from there may cross file systems: then
    /// [`staged`] in `dir` instead).
    pub(crate) fn stage(&self, dir: &Path, bytes: &[u8]) -> io::Result<(NamedTempFile, bool)> {
        use std::os::unix::fs::MetadataExt;
        // Only where a rename from there can succeed: else each output would
        // be written (and synced) twice.
        let device = |p: &Path| std::fs::metadata(p).map(|m| m.dev()).ok();
        if let Some(scratch) = &self.scratch
            && device(scratch).is_some_and(|d| Some(d) == device(dir))
            && let Ok(tmp) = staged(scratch, bytes, self.fsync)
        {
            return Ok((tmp, true));
        }
        Ok((staged(dir, bytes, self.fsync)?, false))
    }
}

/// `bytes` in a new temporary file in `dir` (synced to disk when `fsync`),
/// for the caller to give its name: renamed over the target, or linked under a
/// name nobody holds. Created `0666` less the umask, not tempfile's `0600`.
pub(crate) fn staged(dir: &Path, bytes: &[u8], fsync: bool) -> io::Result<NamedTempFile> {
    use std::os::unix::fs::PermissionsExt;
    let mut tmp = tempfile::Builder::new()
        .prefix(TEMP_PREFIX)
        .permissions(std::fs::Permissions::from_mode(0o666))
        .tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    if fsync {
        tmp.as_file().sync_all()?;
    }
    Ok(tmp)
}

/// A new empty temporary file in `dir`, named with `TEMP_PREFIX` and
/// created `0666` less the umask: an output too large to hold in memory is
/// written into it as it is made, then given its name (`persist`, or
/// `persist_noclobber` where no file may be replaced).
pub fn temporary(dir: &Path) -> io::Result<NamedTempFile> {
    staged(dir, &[], false)
}

/// Writes `bytes` to `target` at once, replacing the file there if there is
/// one (a temporary file beside it, then a rename). When it fails, no
/// temporary file is left.
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// let target = dir.path().join("mesa.pgn");
/// scoresheet::emit::replace(&target, b"1. e4 *\n", false).unwrap();
/// scoresheet::emit::replace(&target, b"1. d4 *\n", false).unwrap();
/// assert_eq!(std::fs::read(&target).unwrap(), b"1. d4 *\n");
/// assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
/// ```
pub fn replace(target: &Path, bytes: &[u8], fsync: bool) -> io::Result<()> {
    replace_staged(target, bytes, &Staging::beside(fsync))
}

/// Writes `bytes` to `target` at once, only if no file is there: the name
/// is taken in one step (no other writer can slip in between a look and the
/// write). An `AlreadyExists` error when the name is held; no temporary file
/// is left either way.
#[cfg(feature = "daemon")]
pub(crate) fn create_new(target: &Path, bytes: &[u8], fsync: bool) -> io::Result<()> {
    let dir = target.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    staged(dir, bytes, fsync)?.persist_noclobber(target).map(|_| ()).map_err(|e| e.error)
}

/// [`replace`], the temporary file staged as `staging` says.
pub(crate) fn replace_staged(target: &Path, bytes: &[u8], staging: &Staging) -> io::Result<()> {
    // A bare file name has an empty parent: the current folder.
    let dir = target.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let (tmp, scratch) = staging.stage(dir, bytes)?;
    match tmp.persist(target) {
        Ok(_) => Ok(()),
        Err(e) if scratch && e.error.kind() == io::ErrorKind::CrossesDevices => {
            staged(dir, bytes, staging.fsync)?.persist(target).map_err(|e| e.error)?;
            Ok(())
        }
        Err(e) => Err(e.error),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(feature = "daemon")]
    #[test]
    fn a_name_held_is_not_written_over_and_no_temporary_file_is_left() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("mesa.pgn");
        create_new(&target, b"1. e4 *\n", false).unwrap();
        let held = create_new(&target, b"1. d4 *\n", false).unwrap_err();
        assert_eq!(held.kind(), std::io::ErrorKind::AlreadyExists);
        assert_eq!(std::fs::read(&target).unwrap(), b"1. e4 *\n");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    use std::os::unix::fs::PermissionsExt;

    /// The mode a new file gets under the process's umask (read from a file
    /// made the ordinary way, so the test does not change the umask).
    fn ordinary_mode(dir: &Path) -> u32 {
        let probe = dir.join("probe");
        std::fs::write(&probe, b"").unwrap();
        let mode = std::fs::metadata(&probe).unwrap().permissions().mode() & 0o777;
        std::fs::remove_file(probe).unwrap();
        mode
    }

    #[test]
    fn an_output_is_as_readable_as_any_file_the_umask_allows() {
        let dir = tempfile::tempdir().unwrap();
        let want = ordinary_mode(dir.path());
        let target = dir.path().join("mesa.pgn");
        replace(&target, b"1. e4 *\n", false).unwrap();
        assert_eq!(std::fs::metadata(&target).unwrap().permissions().mode() & 0o777, want);
        let scratch = tempfile::tempdir().unwrap();
        let staging = Staging { fsync: false, scratch: Some(scratch.path().to_path_buf()) };
        replace_staged(&target, b"1. d4 *\n", &staging).unwrap();
        assert_eq!(std::fs::metadata(&target).unwrap().permissions().mode() & 0o777, want);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1, "staged in the scratch folder");
    }
}
