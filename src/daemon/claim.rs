//! The work folder: each daemon's own locked sub-folder, claiming a file from
//! the inbox into it, and taking over the claims of daemons that died. Why
//! this keeps a file from being processed twice or lost (claim by rename,
//! takeover) is stated in [the daemon's module doc](super).

use std::fs::{self, File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// This daemon's private part of the work folder.
#[derive(Debug)]
pub(crate) struct WorkDir {
    root: PathBuf,
    dir: PathBuf,
    id: String,
    /// Held (locked) for the daemon's life; the kernel frees it if we die.
    _lock: File,
}

impl WorkDir {
    /// Makes a new sub-folder of `root` for this daemon and locks it.
    pub(crate) fn create(root: &Path) -> io::Result<WorkDir> {
        super::folders::private_folder(root)?;
        let nanos = SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).unwrap_or_default().as_nanos();
        let id = format!("{}-{nanos}", std::process::id());
        // Locked under a name recovery ignores, then renamed: a `.lock` file
        // anyone can see is already locked by its daemon.
        let starting = root.join(format!("{id}.starting"));
        let lock = OpenOptions::new().create_new(true).write(true).open(&starting)?;
        lock.try_lock().map_err(io::Error::other)?;
        let dir = root.join(&id);
        // Private, whatever the umask: it holds the files being processed.
        std::os::unix::fs::DirBuilderExt::mode(&mut fs::DirBuilder::new(), 0o700).create(&dir)?;
        fs::rename(&starting, root.join(format!("{id}.lock")))?;
        Ok(WorkDir { root: root.to_path_buf(), dir, id, _lock: lock })
    }

    /// The folder claimed files are in.
    pub(crate) fn dir(&self) -> &Path {
        &self.dir
    }

    /// The folder this daemon's temporary files are written in before they
    /// are renamed into an output folder: inside its own folder (a dotted
    /// name, never a claim), so a dead daemon's go with its folder when its
    /// claims are taken over.
    pub(crate) fn scratch(&self) -> io::Result<PathBuf> {
        let scratch = self.dir.join(SCRATCH);
        fs::create_dir_all(&scratch)?;
        Ok(scratch)
    }

    /// Claims `file` from the inbox. `Ok(None)`: it is gone (another daemon
    /// took it, or it was removed).
    pub(crate) fn claim(&self, file: &Path) -> io::Result<Option<PathBuf>> {
        let Some(name) = file.file_name() else { return Ok(None) };
        let to = self.dir.join(name);
        // The scheduler never runs two files of one name at once, so nothing of
        // ours is overwritten; a leftover of that name waits for its own turn.
        if to.exists() {
            return Err(io::Error::new(io::ErrorKind::AlreadyExists, format!("{} is still in progress", to.display())));
        }
        match fs::rename(file, &to) {
            Ok(()) => {
                super::crash::step("claim");
                Ok(Some(to))
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Takes over the claimed files of daemons that died: moves them into this
    /// daemon's folder and returns them. A file whose name is `busy` here (a
    /// file of that name is queued or in progress) stays where it is for a
    /// later pass; nothing is ever overwritten.
    pub(crate) fn recover(&self, busy: impl Fn(&std::ffi::OsStr) -> bool) -> io::Result<Vec<PathBuf>> {
        let mut taken = Vec::new();
        for entry in fs::read_dir(&self.root)? {
            let path = entry?.path();
            let Some(id) = path.file_name().and_then(|n| n.to_str()).and_then(|n| n.strip_suffix(".lock")) else {
                continue;
            };
            if id == self.id {
                continue;
            }
            let Ok(lock) = OpenOptions::new().write(true).open(&path) else { continue };
            if lock.try_lock().is_err() {
                continue; // alive
            }
            let dead = self.root.join(id);
            let mut left = false;
            for file in files_in(&dead).unwrap_or_default() {
                let name = file.file_name().unwrap_or_default();
                let to = self.dir.join(name);
                // Linked, then unlinked: unlike a rename, a link never replaces a file.
                if busy(name) || fs::hard_link(&file, &to).is_err() {
                    left = true;
                    continue;
                }
                fs::remove_file(&file)?;
                taken.push(to);
            }
            if !left {
                // Leftover temporary files of the dead daemon go with its folder.
                let _ = fs::remove_dir_all(&dead);
                let _ = fs::remove_file(&path);
            }
        }
        Ok(taken)
    }
}

/// The scratch folder's name in a daemon's folder.
const SCRATCH: &str = ".tmp";

impl Drop for WorkDir {
    fn drop(&mut self) {
        // A clean stop leaves nothing behind once every claimed file is done.
        let _ = fs::remove_dir_all(self.dir.join(SCRATCH));
        if fs::remove_dir(&self.dir).is_ok() {
            let _ = fs::remove_file(self.root.join(format!("{}.lock", self.id)));
        }
    }
}

/// The claimed files in a daemon's folder: everything but folders (its
/// scratch folder), links and pipes too, which go on to rejected/.
fn files_in(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        if !entry.file_type()?.is_dir() {
            out.push(entry.path());
        }
    }
    out.sort();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_claim_wins_and_a_dead_daemons_files_are_taken_over() {
        let root = tempfile::tempdir().unwrap();
        let inbox = root.path().join("inbox");
        fs::create_dir(&inbox).unwrap();
        fs::write(inbox.join("a.txt"), "1. e4 e5").unwrap();
        let work = root.path().join("work");
        let first = WorkDir::create(&work).unwrap();
        let second = WorkDir::create(&work).unwrap();
        let claimed = first.claim(&inbox.join("a.txt")).unwrap().unwrap();
        assert!(second.claim(&inbox.join("a.txt")).unwrap().is_none());
        assert!(second.recover(|_| false).unwrap().is_empty(), "a live daemon's files are not taken");
        // The first daemon dies with a file claimed: its lock is freed (its
        // folder, not empty, stays).
        drop(first);
        assert!(second.recover(|n| n == "a.txt").unwrap().is_empty(), "a name in progress waits");
        let taken = second.recover(|_| false).unwrap();
        assert_eq!(taken.len(), 1);
        assert_eq!(fs::read_to_string(&taken[0]).unwrap(), "1. e4 e5");
        assert!(!claimed.exists());
    }
}
