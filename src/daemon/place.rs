//! Where the daemon's files land: outputs and originals are put under a name
//! nobody holds, never over another file, and putting the same thing again
//! finds it already there; old temporary files are swept. The guarantees these
//! give the daemon are stated once, in [the daemon's module doc](super).

use std::ffi::OsStr;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::emit::file::{Staging, TEMP_PREFIX, staged};

use super::names::{numbered, numbered_os};

/// Most `-2`, `-3` ... suffixes tried before giving up on a name.
const MAX_CLASHES: usize = 10_000;

/// Puts `bytes` into `dir` as `<stem><ext>`, or `<stem>-2<ext>` and so on when
/// another file holds the name; never overwrites. When one of those names
/// already holds exactly these bytes, that file is the answer and nothing is
/// written: processing the same sheet again (after a crash, or dropped twice)
/// does not produce it twice. The temporary file is staged as `staging` says
/// (in the daemon's private work folder when it can be).
pub(crate) fn place_new(dir: &Path, stem: &str, ext: &str, bytes: &[u8], staging: &Staging) -> io::Result<PathBuf> {
    let (mut tmp, mut scratch) = staging.stage(dir, bytes)?;
    let mut k = 1;
    while k <= MAX_CLASHES {
        let target = dir.join(numbered(stem, ext, k));
        match tmp.persist_noclobber(&target) {
            Ok(_) => return Ok(target),
            Err(e) if e.error.kind() == io::ErrorKind::AlreadyExists => {
                tmp = e.file;
                if fs::read(&target).is_ok_and(|have| have == bytes) {
                    return Ok(target);
                }
                k += 1;
            }
            // The scratch folder is on another file system: staged beside the target instead.
            Err(e) if scratch && e.error.kind() == io::ErrorKind::CrossesDevices => {
                drop(e.file);
                (tmp, scratch) = (staged(dir, bytes, staging.fsync)?, false);
            }
            Err(e) => return Err(e.error),
        }
    }
    Err(io::Error::other(format!("{MAX_CLASHES} files named {stem}{ext} already in {}", dir.display())))
}

/// The name [`place_new`] would put `bytes` under in `dir` now: the first
/// of `<stem><ext>`, `<stem>-2<ext>` ... that no file holds, or that holds
/// these bytes. Under the records' lock nothing else places files there, so
/// a change records the name before it places the file.
pub(crate) fn free_name(dir: &Path, stem: &str, ext: &str, bytes: &[u8]) -> PathBuf {
    (1..=MAX_CLASHES)
        .map(|k| dir.join(numbered(stem, ext, k)))
        .find(|t| match fs::read(t) {
            Ok(have) => have == bytes,
            Err(e) => e.kind() == io::ErrorKind::NotFound,
        })
        .unwrap_or_else(|| dir.join(numbered(stem, ext, 1)))
}

/// Removes temporary files older than `age` left in `dir` and its sub-folders
/// (one level: the per-event folders) by a daemon killed while writing. A live
/// daemon's temporary file lives for milliseconds. Returns how many went.
pub(crate) fn sweep(dir: &Path, age: std::time::Duration) -> usize {
    let mut removed = 0;
    let Ok(entries) = fs::read_dir(dir) else { return 0 };
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(kind) = entry.file_type() else { continue };
        if kind.is_dir() {
            removed += sweep_files(&path, age);
        }
    }
    removed + sweep_files(dir, age)
}

fn sweep_files(dir: &Path, age: std::time::Duration) -> usize {
    let Ok(entries) = fs::read_dir(dir) else { return 0 };
    entries
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(TEMP_PREFIX))
        .filter(|e| e.metadata().and_then(|m| m.modified()).is_ok_and(|t| t.elapsed().is_ok_and(|a| a > age)))
        .filter(|e| fs::remove_file(e.path()).is_ok())
        .count()
}

/// Links `from` into `dir` under a free name (never overwriting, not through
/// memory): `name`, else `name-2` and so on, before the extension
/// (`mesa.txt`, `mesa-2.txt`). A name that already links to this very file
/// counts as done: archiving it again after a crash links nothing twice.
/// Where a link cannot be made it is copied instead, by [`place_new`]
/// (synced to disk whatever the config says): see [`copies_instead`].
pub(crate) fn link_new(from: &Path, dir: &Path, name: &OsStr) -> io::Result<PathBuf> {
    link_else_copy(from, dir, name, link_only)
}

/// [`link_new`] with the linking given: a link refused for a cause a copy
/// does not have is a copy.
fn link_else_copy(
    from: &Path,
    dir: &Path,
    name: &OsStr,
    link: impl Fn(&Path, &Path, &OsStr) -> io::Result<PathBuf>,
) -> io::Result<PathBuf> {
    match link(from, dir, name) {
        Err(e) if copies_instead(&e) => copy_new(from, dir, name),
        r => r,
    }
}

/// Whether a hard link refused with `e` is made as a copy instead: across
/// file systems (an archive on a share), a file another user owns where the
/// kernel protects hard links (`fs.protected_hardlinks`, Debian's default:
/// a daemon running as its own user archiving a file someone else dropped),
/// a file system without links, a file with too many links.
pub(crate) fn copies_instead(e: &io::Error) -> bool {
    const EPERM: i32 = 1;
    const EXDEV: i32 = 18;
    const EMLINK: i32 = 31;
    const EOPNOTSUPP: i32 = 95;
    matches!(e.kind(), io::ErrorKind::CrossesDevices | io::ErrorKind::PermissionDenied | io::ErrorKind::Unsupported)
        || e.raw_os_error().is_some_and(|c| [EPERM, EXDEV, EMLINK, EOPNOTSUPP].contains(&c))
}

/// [`link_new`] with no copy: for a link, a pipe or a device, which is moved
/// as it is, never read or followed. Across file systems it fails.
pub(crate) fn link_only(from: &Path, dir: &Path, name: &OsStr) -> io::Result<PathBuf> {
    use std::os::unix::fs::MetadataExt;
    let id = |p: &Path| fs::symlink_metadata(p).map(|m| (m.dev(), m.ino()));
    let own = id(from)?;
    for k in 1..MAX_CLASHES {
        let to = dir.join(numbered_os(name, k));
        // `hard_link` does not follow a link: the link itself is linked.
        match fs::hard_link(from, &to) {
            Ok(()) => return Ok(to),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                if id(&to).is_ok_and(|t| t == own) {
                    return Ok(to);
                }
            }
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::other(format!("no free name for {} in {}", name.to_string_lossy(), dir.display())))
}

/// Moves `from` into `dir` under the first of `name`, `name-2`, … nobody
/// holds, never over another file: for a file the daemon may not link (a
/// file of another user it cannot read, where the kernel protects hard
/// links). Across file systems it fails.
pub(crate) fn rename_new(from: &Path, dir: &Path, name: &OsStr) -> io::Result<PathBuf> {
    for k in 1..MAX_CLASHES {
        let to = dir.join(numbered_os(name, k));
        // tempfile's rename that refuses an existing target; the path is
        // kept whatever happens (never removed as a temporary file is).
        match tempfile::TempPath::try_from_path(from)?.persist_noclobber(&to) {
            Ok(()) => return Ok(to),
            Err(e) => {
                let _ = e.path.keep();
                if e.error.kind() != io::ErrorKind::AlreadyExists {
                    return Err(e.error);
                }
            }
        }
    }
    Err(io::Error::other(format!("no free name for {} in {}", name.to_string_lossy(), dir.display())))
}

/// [`link_new`] across file systems: a copy, placed as outputs are; a name
/// that already holds the same bytes counts as done.
fn copy_new(from: &Path, dir: &Path, name: &OsStr) -> io::Result<PathBuf> {
    let bytes = fs::read(from)?;
    let (stem, ext) = super::names::split_ext(&name.to_string_lossy());
    place_new(dir, &stem, &ext, &bytes, &Staging::beside(true))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_another_user_dropped_is_archived_by_copy_where_a_link_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let (from, archive) = (dir.path().join("mesa.txt"), dir.path().join("archive"));
        fs::create_dir(&archive).unwrap();
        fs::write(&from, b"1.e4 e5").unwrap();
        // The kernel's answer to a link of another user's file under
        // `fs.protected_hardlinks`: EPERM.
        let refused = |_: &Path, _: &Path, _: &OsStr| -> io::Result<PathBuf> { Err(io::Error::from_raw_os_error(1)) };
        let to = link_else_copy(&from, &archive, OsStr::new("mesa.txt"), refused).unwrap();
        assert_eq!(to, archive.join("mesa.txt"));
        assert_eq!(fs::read(&to).unwrap(), b"1.e4 e5");
        assert_eq!(fs::read(&from).unwrap(), b"1.e4 e5", "the original is not touched");
        // Done again after a crash: the same bytes there count as done.
        assert_eq!(link_else_copy(&from, &archive, OsStr::new("mesa.txt"), refused).unwrap(), to);
        assert_eq!(fs::read_dir(&archive).unwrap().count(), 1);
        for code in [1, 18, 31, 95] {
            assert!(copies_instead(&io::Error::from_raw_os_error(code)), "errno {code}");
        }
        assert!(!copies_instead(&io::Error::from_raw_os_error(28)), "a full disk is not copied around");
        assert!(!copies_instead(&io::Error::from(io::ErrorKind::NotFound)));
    }

    #[test]
    fn temporary_files_a_killed_daemon_left_are_swept_once_old() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(dir.path().join("Open")).unwrap();
        let old = dir.path().join("Open").join(format!("{TEMP_PREFIX}abc"));
        let young = dir.path().join(format!("{TEMP_PREFIX}def"));
        let game = dir.path().join("1-1-A-B.pgn");
        for p in [&old, &young, &game] {
            fs::write(p, b"x").unwrap();
        }
        let hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
        fs::File::options().write(true).open(&old).unwrap().set_modified(hour_ago).unwrap();
        fs::File::options().write(true).open(&game).unwrap().set_modified(hour_ago).unwrap();
        assert_eq!(sweep(dir.path(), std::time::Duration::from_secs(600)), 1);
        assert!(!old.exists() && young.exists() && game.exists());
    }

    #[test]
    fn a_clash_never_overwrites_and_the_same_bytes_are_not_written_twice() {
        let dir = tempfile::tempdir().unwrap();
        let s = Staging::beside(false);
        let a = place_new(dir.path(), "1-1-A-B", ".pgn", b"game one", &s).unwrap();
        let b = place_new(dir.path(), "1-1-A-B", ".pgn", b"game two", &s).unwrap();
        let again = place_new(dir.path(), "1-1-A-B", ".pgn", b"game two", &s).unwrap();
        assert_eq!(a.file_name().unwrap(), "1-1-A-B.pgn");
        assert_eq!(b.file_name().unwrap(), "1-1-A-B-2.pgn");
        assert_eq!(again, b);
        assert_eq!(fs::read(&a).unwrap(), b"game one");
        let names: Vec<_> = fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names.len(), 2, "no temporary file left: {names:?}");
    }

    #[test]
    fn a_name_linked_again_keeps_its_extension() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        fs::write(&a, b"one").unwrap();
        fs::write(&b, b"two").unwrap();
        let out = dir.path().join("out");
        fs::create_dir(&out).unwrap();
        assert_eq!(link_new(&a, &out, OsStr::new("mesa.txt")).unwrap(), out.join("mesa.txt"));
        assert_eq!(link_new(&b, &out, OsStr::new("mesa.txt")).unwrap(), out.join("mesa-2.txt"));
        assert_eq!(link_new(&b, &out, OsStr::new("mesa.txt")).unwrap(), out.join("mesa-2.txt"), "done already");
    }
}
