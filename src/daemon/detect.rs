//! When a file in the inbox is ready to be read. A file renamed into the inbox,
//! or closed by its writer, is complete; one merely seen (by a scan, by a
//! creation, or by the poll watcher) is read once its size and modification
//! time stay the same over the settle interval. A file the OS says a writer
//! opened waits for the writer to close it (or, should that event be missed,
//! for a long quiet spell).

use std::collections::HashMap;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use notify::event::{AccessKind, AccessMode, CreateKind, EventKind, ModifyKind, RenameMode};

/// Names that are never read: dotfiles and the temporary names editors and
/// copy tools use while writing.
pub fn ignored(name: &OsStr) -> bool {
    let name = name.to_string_lossy();
    name.starts_with('.')
        || name.ends_with('~')
        || [".tmp", ".part", ".swp", ".crdownload", ".partial"].iter().any(|s| name.to_ascii_lowercase().ends_with(s))
}

#[derive(Debug)]
struct Seen {
    /// A writer opened the file and has not closed it (as far as events say).
    open: bool,
    size: u64,
    mtime: Option<SystemTime>,
    /// Since when size and mtime have stayed as they are.
    since: Instant,
}

/// Files seen in the inbox and not yet handed out.
#[derive(Debug)]
pub struct Detector {
    inbox: PathBuf,
    settle: Duration,
    stale_open: Duration,
    seen: HashMap<PathBuf, Seen>,
}

/// What the detector makes of an event about one path.
#[derive(Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Complete: read it now.
    Ready,
    /// Watch it until it settles.
    Wait,
    /// Nothing to do.
    Ignore,
}

impl Detector {
    pub fn new(inbox: PathBuf, settle: Duration, stale_open: Duration) -> Detector {
        Detector { inbox, settle, stale_open, seen: HashMap::new() }
    }

    /// Whether `path` is a file of the inbox this daemon reads.
    pub fn concerns(&self, path: &Path) -> bool {
        path.parent() == Some(self.inbox.as_path()) && path.file_name().is_some_and(|n| !ignored(n))
    }

    /// Takes in an event about `path`.
    pub fn event(&mut self, kind: &EventKind, path: &Path, now: Instant) -> Verdict {
        if !self.concerns(path) {
            return Verdict::Ignore;
        }
        match kind {
            EventKind::Access(AccessKind::Close(AccessMode::Write))
            | EventKind::Modify(ModifyKind::Name(RenameMode::To | RenameMode::Both | RenameMode::Any)) => {
                if regular(path) {
                    self.seen.remove(path);
                    Verdict::Ready
                } else {
                    self.seen.remove(path);
                    Verdict::Ignore
                }
            }
            EventKind::Modify(ModifyKind::Name(RenameMode::From)) | EventKind::Remove(_) => {
                self.seen.remove(path);
                Verdict::Ignore
            }
            EventKind::Create(CreateKind::File) | EventKind::Modify(ModifyKind::Data(_)) => {
                self.watch(path, true, now);
                Verdict::Wait
            }
            EventKind::Create(_) | EventKind::Modify(_) | EventKind::Any | EventKind::Other => {
                self.watch(path, false, now);
                Verdict::Wait
            }
            EventKind::Access(_) => Verdict::Ignore,
        }
    }

    /// A file found by a scan (or an event that says nothing about writers).
    pub fn found(&mut self, path: &Path, now: Instant) {
        if self.concerns(path) && !self.seen.contains_key(path) {
            self.watch(path, false, now);
        }
    }

    fn watch(&mut self, path: &Path, opened: bool, now: Instant) {
        let (size, mtime) = stat(path);
        let e = self.seen.entry(path.to_path_buf()).or_insert(Seen { open: opened, size, mtime, since: now });
        e.open |= opened;
        if (e.size, e.mtime) != (size, mtime) {
            (e.size, e.mtime, e.since) = (size, mtime, now);
        }
    }

    /// The files that have settled by `now`; they are no longer watched.
    pub fn settled(&mut self, now: Instant) -> Vec<PathBuf> {
        let mut ready = Vec::new();
        self.seen.retain(|path, e| {
            // Gone, or not a plain file (a link, a pipe, a device): never read.
            if !regular(path) {
                return false;
            }
            let (size, mtime) = stat(path);
            if (size, mtime) != (e.size, e.mtime) {
                (e.size, e.mtime, e.since) = (size, mtime, now);
                return true;
            }
            let quiet = now.duration_since(e.since);
            if quiet >= if e.open { self.stale_open } else { self.settle } {
                ready.push(path.clone());
                return false;
            }
            true
        });
        ready.sort();
        ready
    }

    /// Files being watched.
    pub fn len(&self) -> usize {
        self.seen.len()
    }
}

/// A plain file, not followed through a link: a link or a pipe dropped in
/// the inbox is never read (it could point anywhere, or block forever).
fn regular(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_file())
}

fn stat(path: &Path) -> (u64, Option<SystemTime>) {
    match std::fs::symlink_metadata(path) {
        Ok(m) => (m.len(), m.modified().ok()),
        Err(_) => (0, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use notify::event::DataChange;

    #[test]
    fn temporary_and_lock_names_are_ignored() {
        use std::ffi::OsStr;
        assert!(
            ignored(OsStr::new("mesa12.txt.tmp")) && ignored(OsStr::new(".~lock.x#")) && ignored(OsStr::new("a.txt~"))
        );
        assert!(!ignored(OsStr::new("mesa12.txt")));
    }

    #[test]
    fn a_file_open_for_writing_waits_for_its_close() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("slow.txt");
        std::fs::write(&path, "1. e4").unwrap();
        let mut d = Detector::new(dir.path().to_path_buf(), Duration::from_millis(10), Duration::from_secs(60));
        let t0 = Instant::now();
        assert_eq!(d.event(&EventKind::Create(CreateKind::File), &path, t0), Verdict::Wait);
        assert_eq!(d.event(&EventKind::Modify(ModifyKind::Data(DataChange::Any)), &path, t0), Verdict::Wait);
        assert!(d.settled(t0 + Duration::from_secs(5)).is_empty(), "quiet, but still open");
        let close = EventKind::Access(AccessKind::Close(AccessMode::Write));
        assert_eq!(d.event(&close, &path, t0), Verdict::Ready);
        assert_eq!(d.len(), 0);
    }

    #[test]
    fn a_scanned_file_is_read_once_it_settles_and_temporary_names_never() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("mesa1.txt");
        let tmp = dir.path().join("mesa2.txt.tmp");
        std::fs::write(&path, "1. e4").unwrap();
        std::fs::write(&tmp, "1. e4").unwrap();
        let mut d = Detector::new(dir.path().to_path_buf(), Duration::from_millis(500), Duration::from_secs(60));
        let t0 = Instant::now();
        d.found(&path, t0);
        d.found(&tmp, t0);
        assert_eq!(d.len(), 1);
        assert!(d.settled(t0 + Duration::from_millis(100)).is_empty());
        assert_eq!(d.settled(t0 + Duration::from_millis(600)), [path]);
    }
}
