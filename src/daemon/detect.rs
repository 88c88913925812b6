//! When a file in the inbox is ready to be read. A file renamed into the
//! inbox is complete at once (a copy tool's or an editor's last step). Any
//! other is read once its size and modification time have stayed the same
//! for the settle interval after its last write or close: a close is a hint,
//! not proof (a shell's `>` then `>>` closes the file twice, and a sheet
//! written in two steps is whole only after the second). A file the OS says a
//! writer opened waits for the writer to close it (or, should that event be
//! missed, for a long quiet spell). A link, a pipe or a device is never read:
//! it is handed out at once, to be moved to rejected/.

use std::collections::HashMap;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use notify::event::{AccessKind, AccessMode, CreateKind, EventKind, ModifyKind, RenameMode};

/// Names that are never read: dotfiles and the temporary names editors and
/// copy tools use while writing.
pub(crate) fn ignored(name: &OsStr) -> bool {
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
pub(crate) struct Detector {
    inbox: PathBuf,
    settle: Duration,
    stale_open: Duration,
    seen: HashMap<PathBuf, Seen>,
}

/// What the detector makes of an event about one path.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// Complete: read it now.
    Ready,
    /// Watch it until it settles.
    Wait,
    /// Nothing to do.
    Ignore,
}

impl Detector {
    pub(crate) fn new(inbox: PathBuf, settle: Duration, stale_open: Duration) -> Detector {
        Detector { inbox, settle, stale_open, seen: HashMap::new() }
    }

    /// Whether `path` is a file of the inbox this daemon reads.
    pub(crate) fn concerns(&self, path: &Path) -> bool {
        path.parent() == Some(self.inbox.as_path()) && path.file_name().is_some_and(|n| !ignored(n))
    }

    /// Takes in an event about `path`.
    pub(crate) fn event(&mut self, kind: &EventKind, path: &Path, now: Instant) -> Verdict {
        if !self.concerns(path) {
            return Verdict::Ignore;
        }
        match kind_of(path) {
            Kind::Gone | Kind::Folder => {
                self.seen.remove(path);
                return Verdict::Ignore;
            }
            Kind::Special => {
                self.seen.remove(path);
                return Verdict::Ready;
            }
            Kind::Plain => {}
        }
        match kind {
            EventKind::Modify(ModifyKind::Name(RenameMode::To | RenameMode::Both | RenameMode::Any)) => {
                self.seen.remove(path);
                Verdict::Ready
            }
            // The writer closed it: quiet from now on, it is read after the settle interval.
            EventKind::Access(AccessKind::Close(AccessMode::Write)) => {
                self.watch(path, false, now);
                if let Some(e) = self.seen.get_mut(path) {
                    (e.open, e.since) = (false, now);
                }
                Verdict::Wait
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
    pub(crate) fn found(&mut self, path: &Path, now: Instant) {
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
    pub(crate) fn settled(&mut self, now: Instant) -> Vec<PathBuf> {
        let mut ready = Vec::new();
        self.seen.retain(|path, e| {
            match kind_of(path) {
                Kind::Gone | Kind::Folder => return false,
                // Never read: handed out to be moved to rejected/.
                Kind::Special => {
                    ready.push(path.clone());
                    return false;
                }
                Kind::Plain => {}
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
    pub(crate) fn len(&self) -> usize {
        self.seen.len()
    }
}

/// What a name of the inbox is, not followed through a link.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Gone,
    Folder,
    Plain,
    /// A link, a pipe, a device or a socket: never read (it could point
    /// anywhere, or block forever).
    Special,
}

pub(crate) fn kind_of(path: &Path) -> Kind {
    match std::fs::symlink_metadata(path) {
        Err(_) => Kind::Gone,
        Ok(m) if m.is_dir() => Kind::Folder,
        Ok(m) if m.file_type().is_file() => Kind::Plain,
        Ok(_) => Kind::Special,
    }
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
        let t1 = t0 + Duration::from_secs(5);
        assert_eq!(d.event(&close, &path, t1), Verdict::Wait, "a close is a hint, not proof");
        assert!(d.settled(t1 + Duration::from_millis(5)).is_empty());
        assert_eq!(d.settled(t1 + Duration::from_millis(10)), [path]);
        assert_eq!(d.len(), 0);
    }

    #[test]
    fn a_file_written_in_two_steps_is_read_after_the_second() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.txt");
        let mut d = Detector::new(dir.path().to_path_buf(), Duration::from_millis(500), Duration::from_secs(60));
        let close = EventKind::Access(AccessKind::Close(AccessMode::Write));
        let t0 = Instant::now();
        std::fs::write(&path, "White: A\n\n").unwrap();
        d.event(&EventKind::Create(CreateKind::File), &path, t0);
        assert_eq!(d.event(&close, &path, t0), Verdict::Wait);
        let t1 = t0 + Duration::from_millis(300);
        assert!(d.settled(t1).is_empty());
        std::fs::write(&path, "White: A\n\n1.e4 e5 1-0\n").unwrap();
        d.event(&EventKind::Modify(ModifyKind::Data(DataChange::Any)), &path, t1);
        assert_eq!(d.event(&close, &path, t1), Verdict::Wait);
        assert!(d.settled(t0 + Duration::from_millis(600)).is_empty(), "quiet only since the second close");
        assert_eq!(d.settled(t1 + Duration::from_millis(500)), [path]);
    }

    #[test]
    fn a_link_or_a_pipe_is_handed_out_at_once_to_be_rejected() {
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("link.txt");
        std::os::unix::fs::symlink("/etc/passwd", &link).unwrap();
        let mut d = Detector::new(dir.path().to_path_buf(), Duration::from_millis(500), Duration::from_secs(60));
        let t0 = Instant::now();
        assert_eq!(d.event(&EventKind::Create(CreateKind::File), &link, t0), Verdict::Ready);
        d.found(&link, t0);
        assert_eq!(d.settled(t0), [link]);
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
