//! What a file's publication is about to place, told before it is placed:
//! each file of a sheet's game and its game in the round file, appended as
//! one line to `<state>/placing/<file>.log` (one `write`, no flush: a kill
//! leaves it whole, as the kernel has it). A redo after a crash reads it and
//! puts its new reading over exactly those files (or takes them away), even
//! where it reads the sheet otherwise than the first attempt. The log goes
//! once the file is published.
//!
//! A line a record would hold costs a record's write (a temporary file, a
//! rename, the journal): 12,000 games took 8 s more. A line appended costs
//! one `write`.

use std::collections::HashMap;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::games::{RoundEntry, record_name};
use super::route::Placing;

/// What an earlier attempt placed for one sheet, by the log.
#[derive(Debug, Default)]
pub(crate) struct Earlier {
    pub files: Vec<PathBuf>,
    pub round: Option<RoundEntry>,
}

/// One line of the log.
#[derive(Serialize, Deserialize)]
struct Line {
    /// The sheet's place in the file.
    k: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    file: Option<PathBuf>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    round: Option<RoundEntry>,
}

/// The placing log of one file dropped (its name and bytes' hash).
pub(crate) struct PlacingLog {
    path: PathBuf,
    file: Option<File>,
}

impl PlacingLog {
    /// The log of the file dropped as `dropped` with bytes that hash to `hash`.
    pub(crate) fn of(state: &Path, dropped: &str, hash: &str) -> PlacingLog {
        let name = record_name(dropped, hash, usize::MAX).replace(".json", ".log");
        PlacingLog { path: state.join("placing").join(name), file: None }
    }

    /// What the earlier attempts placed, by sheet; nothing when none did.
    pub(crate) fn read(&self) -> io::Result<HashMap<usize, Earlier>> {
        let text = match fs::read_to_string(&self.path) {
            Ok(t) => t,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(HashMap::new()),
            Err(e) => return Err(e),
        };
        let mut out: HashMap<usize, Earlier> = HashMap::new();
        // A line a crash cut short (none should be: each is one write) is skipped.
        for line in text.lines().filter_map(|l| serde_json::from_str::<Line>(l).ok()) {
            let e = out.entry(line.k).or_default();
            if let Some(f) = line.file.filter(|f| !e.files.contains(f)) {
                e.files.push(f);
            }
            if line.round.is_some() {
                e.round = line.round;
            }
        }
        Ok(out)
    }

    /// Tells that sheet `k`'s game is about to place `what`.
    pub(crate) fn add(&mut self, k: usize, what: Placing<'_>) -> io::Result<()> {
        let line = match what {
            Placing::File(f) => Line { k, file: Some(f.to_path_buf()), round: None },
            Placing::Round(r) => Line { k, file: None, round: Some(r.clone()) },
        };
        let mut text = serde_json::to_vec(&line).map_err(io::Error::other)?;
        text.push(b'\n');
        let file = match &mut self.file {
            Some(f) => f,
            None => {
                if let Some(dir) = self.path.parent() {
                    super::folders::private_folder(dir)?;
                }
                self.file.insert(OpenOptions::new().create(true).append(true).open(&self.path)?)
            }
        };
        file.write_all(&text)
    }

    /// The file is published: its log goes.
    pub(crate) fn done(self) -> io::Result<()> {
        match fs::remove_file(&self.path) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        }
    }
}
