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

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};
use std::time::SystemTime;

use tracing::{error, info};

use crate::emit::file::{Staging, replace_staged};
use crate::pairing::Tournament;

/// Which copy of the kept TRF is loaded: its size, time and inode.
type FileId = (u64, Option<SystemTime>, u64);

/// The pairings loaded, shared by the workers.
#[derive(Debug)]
pub struct Pairings {
    kept: PathBuf,
    loaded: RwLock<(Option<FileId>, Option<Arc<Tournament>>)>,
}

/// A TRF loaded in place of another (or of none): the games of the rounds
/// where they differ are read again.
#[derive(Debug, Clone)]
pub struct Change {
    pub old: Option<Arc<Tournament>>,
    pub new: Arc<Tournament>,
}

fn file_id(path: &Path) -> Option<FileId> {
    use std::os::unix::fs::MetadataExt;
    let m = fs::metadata(path).ok()?;
    Some((m.len(), m.modified().ok(), m.ino()))
}

impl Pairings {
    /// The pairings kept in `state`, none loaded yet.
    pub fn new(state: &Path) -> Pairings {
        Pairings { kept: state.join("pairings.trf"), loaded: RwLock::new((None, None)) }
    }

    /// The pairings now: the kept TRF, read again when it changed (another
    /// daemon on the same folders loaded one).
    pub fn current(&self) -> Option<Arc<Tournament>> {
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

    /// Keeps `bytes` (a TRF read as `t`) as the current pairings.
    pub(super) fn install(&self, bytes: &[u8], t: Tournament, staging: &Staging) -> io::Result<Change> {
        let old = self.current();
        replace_staged(&self.kept, bytes, staging)?;
        let new = Arc::new(t);
        *self.loaded.write().unwrap_or_else(|e| e.into_inner()) = (file_id(&self.kept), Some(new.clone()));
        Ok(Change { old, new })
    }

    /// At start: the kept pairings, or the config's file when there are none
    /// kept or it is newer. A config's file that is broken is said (line and
    /// field) and the sheets are read with the kept pairings, or none.
    pub fn start(&self, config: Option<&Path>, limit: usize, staging: &Staging) -> Option<Change> {
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
        let loaded = bytes.and_then(|b| Tournament::parse(&b).map(|t| (b, t)).map_err(|e| e.to_string()));
        match loaded {
            Ok((bytes, t)) => {
                let (name, players) = (t.name.clone(), t.players.len());
                match self.install(&bytes, t, staging) {
                    Ok(change) => {
                        info!(file = %path.display(), event = %name, players, "pairings loaded from the config");
                        Some(change)
                    }
                    Err(e) => {
                        error!(file = %path.display(), error = %e, "cannot keep the pairings in the state folder");
                        None
                    }
                }
            }
            Err(e) => {
                error!(file = %path.display(), error = %e, "the pairings file is refused; the sheets are read without it");
                None
            }
        }
    }
}

/// Whether `name` is a TRF by its extension.
pub fn is_trf(name: &str) -> bool {
    Path::new(name).extension().is_some_and(|e| e.eq_ignore_ascii_case("trf"))
}
