//! The tournament's pairings in the daemon, as last loaded: a TRF named in
//! the config (`watch.pairings`) or dropped into the inbox (`rematch`), and
//! every sheet read from then on is matched to its pairing (its PGN takes
//! the TRF's names, ratings, round and board: [`crate::pairing::apply`]).
//!
//! The current TRF is kept in the state folder (`<state>/pairings.trf`,
//! replaced at once): a restart, or another daemon on the same folders,
//! reads the same pairings. At start the config's file is loaded when there
//! is no kept copy or the file is newer than it; a broken one is said and
//! the sheets are read with the pairings kept, or none.
//!
//! Loading a TRF owes a re-read of the games it changes, and that re-read is
//! journaled like any other work: before the kept TRF is replaced, the
//! records still to be read again and the new TRF's digest are written to
//! `<state>/pairings.reread` (replaced at once), and the file goes only when
//! every one of them is read again. A daemon that finds it at start (one was
//! killed in the middle) finishes the re-read first, with the pairings in
//! force. One daemon at a time loads a TRF or re-reads for one, under
//! `<state>/pairings.lock`.

use std::collections::BTreeSet;
use std::fs::{self, File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};
use std::time::SystemTime;

use serde::{Deserialize, Serialize};
use tracing::{error, warn};

use crate::emit::file::{Staging, replace_staged};
use crate::pairing::Tournament;

/// Which copy of the kept TRF is loaded: its size, time and inode.
type FileId = (u64, Option<SystemTime>, u64);

/// The pairings loaded, shared by the workers.
#[derive(Debug)]
pub(crate) struct Pairings {
    kept: PathBuf,
    /// The re-read still owed (`pairings.reread`), and the lock held while
    /// a TRF is loaded or its re-read done (`pairings.lock`).
    owed: PathBuf,
    lock: PathBuf,
    loaded: RwLock<(Option<FileId>, Option<Arc<Tournament>>)>,
}

/// The re-read a TRF loaded owes, as kept in `<state>/pairings.reread`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Owed {
    /// The digest of the TRF the games are read again for ([`super::games::hash`]).
    pub trf: String,
    /// The records of the games to read again.
    pub games: BTreeSet<String>,
    /// Every game is to be read again: the file could not be read (written
    /// by something else), so which games it named is not known.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub every: bool,
    /// The rounds whose boards the TRF changed: their reports of the boards
    /// still without a scoresheet are made again.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub rounds: BTreeSet<u32>,
}

fn file_id(path: &Path) -> Option<FileId> {
    use std::os::unix::fs::MetadataExt;
    let m = fs::metadata(path).ok()?;
    Some((m.len(), m.modified().ok(), m.ino()))
}

impl Pairings {
    /// The pairings kept in `state`, none loaded yet.
    pub(crate) fn new(state: &Path) -> Pairings {
        Pairings {
            kept: state.join("pairings.trf"),
            owed: state.join("pairings.reread"),
            lock: state.join("pairings.lock"),
            loaded: RwLock::new((None, None)),
        }
    }

    /// The kept TRF's file (`<state>/pairings.trf`).
    pub(crate) fn kept_file(&self) -> &Path {
        &self.kept
    }

    /// Waits for, then holds while the file lives, the turn to load a TRF
    /// or to re-read the games for one (this daemon's workers and any other
    /// daemon's on the folders).
    pub(crate) fn hold(&self) -> io::Result<File> {
        let lock = OpenOptions::new().create(true).truncate(false).write(true).open(&self.lock)?;
        lock.lock()?;
        Ok(lock)
    }

    /// Whether a re-read is owed that no daemon is doing (its daemon was
    /// killed): the file is there and nobody holds the turn. An error
    /// counts as owed (the job then says it).
    pub(crate) fn abandoned(&self) -> bool {
        if fs::symlink_metadata(&self.owed).is_err_and(|e| e.kind() == io::ErrorKind::NotFound) {
            return false;
        }
        let free = OpenOptions::new().create(true).truncate(false).write(true).open(&self.lock);
        free.map_or(true, |f| f.try_lock().is_ok())
    }

    /// The re-read still owed, if any.
    pub(crate) fn owed(&self) -> io::Result<Option<Owed>> {
        let bytes = match fs::read(&self.owed) {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e),
        };
        Ok(Some(serde_json::from_slice(&bytes).unwrap_or_else(|e| {
            warn!(file = %self.owed.display(), error = %e, "the re-read owed cannot be read: every game is read again");
            Owed { every: true, ..Owed::default() }
        })))
    }

    /// Keeps `owed` as the re-read still owed, replaced at once.
    pub(crate) fn owe(&self, owed: &Owed, staging: &Staging) -> io::Result<()> {
        let mut text = serde_json::to_vec_pretty(owed).map_err(io::Error::other)?;
        text.push(b'\n');
        replace_staged(&self.owed, &text, staging)
    }

    /// The re-read owed is done: its file goes.
    pub(crate) fn paid(&self) -> io::Result<()> {
        match fs::remove_file(&self.owed) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        }
    }

    /// The pairings now: the kept TRF, read again when it changed (another
    /// daemon on the same folders loaded one).
    pub(crate) fn current(&self) -> Option<Arc<Tournament>> {
        let id = file_id(&self.kept);
        {
            let loaded = self.loaded.read().unwrap_or_else(|e| e.into_inner());
            if loaded.0 == id {
                return loaded.1.clone();
            }
        }
        let mut loaded = self.loaded.write().unwrap_or_else(|e| e.into_inner());
        let parsed = fs::read(&self.kept).ok().and_then(|b| Tournament::parse(&b).ok()).map(Arc::new);
        // A kept copy that cannot be read keeps the pairings loaded before.
        if parsed.is_some() || id.is_none() {
            *loaded = (id, parsed.or_else(|| loaded.1.clone()));
        }
        loaded.1.clone()
    }

    /// Keeps `bytes` (a TRF read as `new`) as the current pairings; the
    /// re-read it owes is to be written first ([`Pairings::owe`]). Returns
    /// the pairings it replaces.
    pub(super) fn install(
        &self,
        bytes: &[u8],
        new: Arc<Tournament>,
        staging: &Staging,
    ) -> io::Result<Option<Arc<Tournament>>> {
        let old = self.current();
        replace_staged(&self.kept, bytes, staging)?;
        *self.loaded.write().unwrap_or_else(|e| e.into_inner()) = (file_id(&self.kept), Some(new));
        Ok(old)
    }

    /// At start: the config's file (its bytes, read) when there are no
    /// pairings kept or it is newer, to be loaded as a dropped TRF is. A
    /// config's file that is broken is said (line and field) and the sheets
    /// are read with the kept pairings, or none.
    pub(crate) fn start(&self, config: Option<&Path>, limit: usize) -> Option<(Vec<u8>, Tournament)> {
        let kept = self.current();
        let path = config?;
        let newer = |p: &Path| fs::metadata(p).and_then(|m| m.modified()).ok();
        if kept.is_some() && newer(path) <= newer(&self.kept) {
            return None;
        }
        let bytes = match fs::metadata(path) {
            Ok(m) if m.len() > limit as u64 => Err(format!("file too large: {} bytes (the limit is {limit})", m.len())),
            Ok(_) => fs::read(path).map_err(|e| e.to_string()),
            Err(e) => Err(e.to_string()),
        };
        match bytes.and_then(|b| Tournament::parse(&b).map(|t| (b, t)).map_err(|e| e.to_string())) {
            Ok(loaded) => Some(loaded),
            Err(e) => {
                error!(file = %path.display(), error = %e, "the pairings file is refused; the sheets are read without it");
                None
            }
        }
    }
}

/// Whether `name` is a TRF by its extension.
pub(crate) fn is_trf(name: &str) -> bool {
    Path::new(name).extension().is_some_and(|e| e.eq_ignore_ascii_case("trf"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_re_read_owed_is_kept_until_paid_and_one_written_by_something_else_owes_every_game() {
        let state = tempfile::tempdir().unwrap();
        let p = Pairings::new(state.path());
        let staging = Staging::beside(false);
        assert_eq!(p.owed().unwrap(), None);
        assert!(!p.abandoned(), "nothing owed");
        let owed = Owed { trf: "abc".into(), games: ["a.json".to_string()].into(), every: false, rounds: [3].into() };
        p.owe(&owed, &staging).unwrap();
        assert_eq!(p.owed().unwrap(), Some(owed));
        {
            let _turn = p.hold().unwrap();
            assert!(!p.abandoned(), "a daemon is at it");
        }
        assert!(p.abandoned(), "owed, and nobody at it");
        fs::write(state.path().join("pairings.reread"), "not json").unwrap();
        assert!(p.owed().unwrap().unwrap().every);
        p.paid().unwrap();
        assert_eq!(p.owed().unwrap(), None);
    }
}
