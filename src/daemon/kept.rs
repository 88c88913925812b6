//! The arbiter's decisions kept in decisions/, found by the game they
//! decide. Read when a game is published or read again, so below both.

use std::fs;
use std::path::{Path, PathBuf};

use tracing::warn;

use crate::decision::Decision;

use super::outcome::ProcessConfig;

/// The id of a record's file name: its name without `.json`.
pub(super) fn id_of(record: &str) -> &str {
    record.strip_suffix(".json").unwrap_or(record)
}

/// The decisions kept in `dir`; one that cannot be read is said and left out.
pub(crate) fn kept_decisions(dir: &Path) -> Vec<(PathBuf, Decision)> {
    let Ok(entries) = fs::read_dir(dir) else { return Vec::new() };
    let mut out = Vec::new();
    for e in entries.flatten() {
        let path = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') || !name.ends_with(".yaml") {
            continue;
        }
        match fs::read_to_string(&path)
            .map_err(|e| e.to_string())
            .and_then(|t| Decision::parse(&t).map_err(|e| e.to_string()))
        {
            Ok(d) => out.push((path, d)),
            Err(e) => warn!(decision = %path.display(), error = %e, "a kept decision cannot be read; left out"),
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// The decision kept for game `id` (a record's name without `.json`).
pub(crate) fn kept_for(cfg: &ProcessConfig, record: &str) -> Option<Decision> {
    let id = id_of(record);
    kept_decisions(&cfg.folders.decisions).into_iter().find(|(_, d)| d.game.as_deref() == Some(id)).map(|(_, d)| d)
}
