//! Where `convert`'s outputs go: a name no input and no earlier output of the
//! run holds, and no file from before the run unless `--force`; each written
//! to a temporary file first and then given its name.

use std::collections::HashSet;
use std::io::Read;
use std::path::{Path, PathBuf};

use tempfile::NamedTempFile;

/// `<stem>.pgn` in the output folder (default: beside the input): the name an
/// output gets when nothing holds it.
pub(crate) fn wanted_target(file: &Path, output: Option<&Path>) -> PathBuf {
    let stem = file.file_stem().map_or_else(|| "sheet".into(), |s| s.to_os_string());
    let dir = output.map(Path::to_path_buf).unwrap_or_else(|| file.parent().map(Path::to_path_buf).unwrap_or_default());
    // Pushed, not `with_extension`: `r1.b3.txt` gives `r1.b3.pgn`, not `r1.pgn`.
    let mut name = stem;
    name.push(".pgn");
    dir.join(name)
}

/// Where a run's outputs go. An output never replaces an input of the run,
/// nor an output written earlier in the run (two inputs with one stem give
/// two files), nor, unless `--force`, a file that was there before the run:
/// that one is kept and the output gets the next free name. A file already
/// holding exactly the output's bytes is left as it is (converting again
/// gives no second copy).
pub(crate) struct Outputs {
    force: bool,
    inputs: HashSet<PathBuf>,
    /// The files this run's outputs are in.
    claimed: HashSet<PathBuf>,
}

/// An output placed: where, why not under the name wanted, and whether
/// the file there was left as it was.
pub(crate) struct Placed {
    pub path: PathBuf,
    pub renamed: Option<&'static str>,
    pub unchanged: bool,
}

/// Past this many names tried, the output is not written (exit 1).
const MAX_NAMES: usize = 1000;

impl Outputs {
    pub(crate) fn new(force: bool, inputs: &[PathBuf]) -> Self {
        let inputs = inputs.iter().flat_map(|p| [identity(p), p.canonicalize().ok()]).flatten().collect();
        Outputs { force, inputs, claimed: HashSet::new() }
    }

    /// Writes `bytes` at `wanted` or the first free name after it, at once.
    pub(crate) fn write(&mut self, wanted: &Path, bytes: &[u8]) -> std::io::Result<Placed> {
        use std::io::Write;
        let mut tmp = self.temporary(wanted)?;
        tmp.write_all(bytes)?;
        self.place(wanted, tmp)
    }

    /// A temporary file beside `wanted`, for an output written as it is made.
    pub(crate) fn temporary(&self, wanted: &Path) -> std::io::Result<NamedTempFile> {
        let dir = wanted.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
        scoresheet::emit::temporary(dir)
    }

    /// Gives the output written in `tmp` (a [`Outputs::temporary`] of
    /// `wanted`) the name `wanted` or the first free one after it
    /// (`<stem>.scoresheet.pgn`, then `<stem>.scoresheet-2.pgn` ...).
    pub(crate) fn place(&mut self, wanted: &Path, mut tmp: NamedTempFile) -> std::io::Result<Placed> {
        let mut renamed = None;
        for path in candidates(wanted).take(MAX_NAMES) {
            match self.holder(&path, tmp.path()) {
                Holder::Taken(why) => renamed = renamed.or(Some(why)),
                Holder::Same => {
                    self.claimed.extend(identity(&path));
                    return Ok(Placed { path, renamed, unchanged: true });
                }
                Holder::Free if self.force => {
                    tmp.persist(&path).map_err(|e| e.error)?;
                    self.claimed.extend(identity(&path));
                    return Ok(Placed { path, renamed, unchanged: false });
                }
                Holder::Free => match tmp.persist_noclobber(&path) {
                    // Taken in one step: a file made since the look is kept.
                    Err(e) if e.error.kind() == std::io::ErrorKind::AlreadyExists => {
                        renamed = renamed.or(Some("already exists (--force replaces it)"));
                        tmp = e.file;
                    }
                    Err(e) => return Err(e.error),
                    Ok(_) => {
                        self.claimed.extend(identity(&path));
                        return Ok(Placed { path, renamed, unchanged: false });
                    }
                },
            }
        }
        Err(std::io::Error::other(format!("{MAX_NAMES} names after it are taken")))
    }

    /// Who holds `path`, for an output now in the file `output`.
    fn holder(&self, path: &Path, output: &Path) -> Holder {
        let ids = [identity(path), path.canonicalize().ok()];
        if ids.iter().flatten().any(|id| self.inputs.contains(id)) {
            return Holder::Taken("is an input of this run");
        }
        if ids.iter().flatten().any(|id| self.claimed.contains(id)) {
            return Holder::Taken("holds an earlier output of this run");
        }
        match std::fs::symlink_metadata(path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Holder::Free,
            _ if self.force => Holder::Free,
            Ok(m) if m.is_file() && same_bytes(path, output).unwrap_or(false) => Holder::Same,
            _ => Holder::Taken("already exists (--force replaces it)"),
        }
    }
}

/// What holds a name an output could take.
enum Holder {
    Free,
    /// A file from before the run with the very bytes of the output.
    Same,
    Taken(&'static str),
}

/// `dir/name.pgn`, `dir/name.scoresheet.pgn`, `dir/name.scoresheet-2.pgn` ...:
/// each keeps the output's own extension (`index.scoresheet.html`,
/// `mesa.scoresheet.review.html`).
fn candidates(wanted: &Path) -> impl Iterator<Item = PathBuf> {
    let name = wanted.file_name().unwrap_or_default().to_string_lossy().into_owned();
    let suffix = [".review.html", ".html", ".pgn", ".json"]
        .into_iter()
        .find(|s| name.len() > s.len() && name.ends_with(s))
        .map_or_else(
            || wanted.extension().map_or(String::new(), |e| format!(".{}", e.to_string_lossy())),
            str::to_string,
        );
    let base = name[..name.len() - suffix.len()].to_string();
    let wanted = wanted.to_path_buf();
    (1..).map(move |n| match n {
        1 => wanted.clone(),
        2 => wanted.with_file_name(format!("{base}.scoresheet{suffix}")),
        _ => wanted.with_file_name(format!("{base}.scoresheet-{}{suffix}", n - 1)),
    })
}

/// A path's folder made absolute, with its own name: two spellings of one
/// place (`out/a.pgn`, `./out/../out/a.pgn`) are one file.
fn identity(path: &Path) -> Option<PathBuf> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    Some(dir.canonicalize().ok()?.join(path.file_name()?))
}

/// Whether two files hold the same bytes (read a block at a time: an output
/// may be larger than memory).
fn same_bytes(a: &Path, b: &Path) -> std::io::Result<bool> {
    let (fa, fb) = (std::fs::File::open(a)?, std::fs::File::open(b)?);
    if fa.metadata()?.len() != fb.metadata()?.len() {
        return Ok(false);
    }
    let (mut ra, mut rb) = (std::io::BufReader::new(fa), std::io::BufReader::new(fb));
    let (mut ba, mut bb) = (vec![0u8; 1 << 16], vec![0u8; 1 << 16]);
    loop {
        let n = ra.read(&mut ba)?;
        if n == 0 {
            return Ok(true);
        }
        rb.read_exact(&mut bb[..n])?;
        if ba[..n] != bb[..n] {
            return Ok(false);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clash_name_keeps_the_outputs_own_extension() {
        let names = |w: &str| candidates(Path::new(w)).take(3).map(|p| p.display().to_string()).collect::<Vec<_>>();
        assert_eq!(names("out/a.pgn"), ["out/a.pgn", "out/a.scoresheet.pgn", "out/a.scoresheet-2.pgn"]);
        assert_eq!(
            names("out/index.html"),
            ["out/index.html", "out/index.scoresheet.html", "out/index.scoresheet-2.html"]
        );
        assert_eq!(
            names("out/X.review.html"),
            ["out/X.review.html", "out/X.scoresheet.review.html", "out/X.scoresheet-2.review.html"]
        );
        assert_eq!(names("r1.b3.pgn")[1], "r1.b3.scoresheet.pgn");
    }
}
