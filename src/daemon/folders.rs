//! The folders the daemon works in, and what keeps it from starting. A leaf:
//! every step of a file's way reads the folders, and this reads none of
//! them.

use std::path::{Path, PathBuf};

use crate::config::Watch;

/// The folders the daemon works in, all resolved against the root.
#[derive(Debug, Clone)]
pub struct Folders {
    pub inbox: PathBuf,
    pub pgn: PathBuf,
    pub review: PathBuf,
    pub rejected: PathBuf,
    pub archive: PathBuf,
    pub work: PathBuf,
    /// Private: which sheets were published where (`games`), the pairings.
    pub state: PathBuf,
    /// The arbiters' decisions, `<name>.yaml` each.
    pub decisions: PathBuf,
    /// The pairings file the config names (`watch.pairings`), if any.
    pub pairings: Option<PathBuf>,
}

impl Folders {
    /// The folders of a config, under `root` (else the config's root).
    pub fn new(watch: &Watch, root: Option<&Path>) -> Folders {
        let root = root.unwrap_or(&watch.root);
        let at = |p: &Path| root.join(p);
        Folders {
            inbox: at(&watch.inbox),
            pgn: at(&watch.pgn),
            review: at(&watch.review),
            rejected: at(&watch.rejected),
            archive: at(&watch.archive),
            work: at(&watch.work),
            state: at(&watch.state),
            decisions: at(&watch.decisions),
            pairings: watch.pairings.as_deref().map(at),
        }
    }

    pub(super) fn all(&self) -> [(&'static str, &Path); 8] {
        [
            ("inbox", &self.inbox),
            ("pgn", &self.pgn),
            ("review", &self.review),
            ("rejected", &self.rejected),
            ("archive", &self.archive),
            ("work", &self.work),
            ("state", &self.state),
            ("decisions", &self.decisions),
        ]
    }

    /// Makes every folder that is not there yet; the work folder private
    /// (`0700`: it holds files being processed and their temporary files).
    pub(super) fn create(&self) -> Result<(), DaemonError> {
        use std::os::unix::fs::DirBuilderExt;
        for (name, path) in self.all() {
            let mode = if name == "work" || name == "state" { 0o700 } else { 0o777 };
            std::fs::DirBuilder::new()
                .recursive(true)
                .mode(mode)
                .create(path)
                .map_err(|source| DaemonError::Folder { name, path: path.to_path_buf(), source })?;
        }
        Ok(())
    }
}

/// Makes `path` and any folder above it that is not there yet, each
/// private (`0700`): the state's and the work's folders, whoever comes first
/// (the desk's lists, served beside the daemon, may reach the records
/// before the daemon has made its folders).
pub(crate) fn private_folder(path: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    std::fs::DirBuilder::new().recursive(true).mode(0o700).create(path)
}

/// What stops the daemon (or keeps it from starting).
#[derive(Debug, thiserror::Error)]
pub enum DaemonError {
    #[error("cannot create the {name} folder {}: {source}", path.display())]
    Folder { name: &'static str, path: PathBuf, source: std::io::Error },
    #[error("cannot set up the work folder {}: {source}", path.display())]
    Work { path: PathBuf, source: std::io::Error },
    #[error("cannot watch {}: {source} (on a network share, try --poll)", path.display())]
    Watch { path: PathBuf, source: notify::Error },
}
