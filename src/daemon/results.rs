//! `pgn/<event>/results.trf`: the TRF the daemon was given, with the
//! results of the event's published games written in
//! ([`crate::pairing::results`]), for the pairing program to pair the next
//! round from. A game counts once it is in its round's file: published, or
//! decided on the desk; a board still in review keeps what the TRF had.
//!
//! It is written again whenever a round file of the event changes (a game
//! added, corrected or taken out) and whenever a TRF is loaded, from the
//! kept TRF and every round file of the event, under a lock of the event
//! (`<state>/rounds/<event>/results.lock`), taken after the round's own:
//! whoever writes last has read every round file written before, so the
//! file always ends with every round's results. It is replaced at once, and
//! only when its bytes change. The event is the one the TRF names: a
//! sheet matched to the TRF takes its name ([`crate::pairing::matching`]).

use std::fs::{self, OpenOptions};
use std::io;
use std::path::Path;

use tracing::{debug, warn};

use crate::emit::file::replace_staged;
use crate::pairing::Tournament;
use crate::pairing::results::{Scored, with_results};

use super::names::folder;
use super::outcome::{FileError, ProcessConfig, io_at};
use super::round::{split_games, tags_of};

/// The results file's name in the event's folder.
pub(crate) const RESULTS_FILE: &str = "results.trf";

/// Writes `pgn/<event>/results.trf` again when `event` (a game's `Event`)
/// is the kept TRF's tournament; nothing without a TRF.
pub(crate) fn refresh(cfg: &ProcessConfig, event: &str) -> Result<(), FileError> {
    let kept = cfg.pairings.kept_file();
    let given = match fs::read(kept) {
        Ok(b) => b,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(io_at(kept)(e)),
    };
    // The bytes read now, parsed here: the pairings and the bytes written
    // over are the same TRF even while another is being loaded.
    let Ok(t) = Tournament::parse(&given) else { return Ok(()) };
    let name = folder(&t.name, "event");
    if t.name.trim().is_empty() || name != folder(event, "event") {
        return Ok(());
    }
    let locks = cfg.folders.state.join("rounds").join(&name);
    fs::create_dir_all(&locks).map_err(io_at(&locks))?;
    let lock_path = locks.join("results.lock");
    let lock = OpenOptions::new().create(true).truncate(false).write(true).open(&lock_path);
    let lock = lock.map_err(io_at(&lock_path))?;
    lock.lock().map_err(io_at(&lock_path))?;
    let dir = cfg.folders.pgn.join(&name);
    let scored = published(&dir, &t).map_err(io_at(&dir))?;
    let written = with_results(&given, &scored);
    for g in &written.contradicted {
        debug!(event = %t.name, round = g.round, white = g.white, black = g.black, "a result the TRF gives otherwise is left as it is");
    }
    let target = dir.join(RESULTS_FILE);
    if fs::read(&target).is_ok_and(|now| now == written.bytes) {
        return Ok(());
    }
    fs::create_dir_all(&dir).map_err(io_at(&dir))?;
    replace_staged(&target, &written.bytes, &cfg.staging).map_err(io_at(&target))
}

/// The results of the games in the round files of `dir` that are pairings of `t`.
fn published(dir: &Path, t: &Tournament) -> io::Result<Vec<Scored>> {
    let entries = match fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    let mut scored = Vec::new();
    for entry in entries {
        let path = entry?.path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if !(name.starts_with("round-") && name.ends_with(".pgn")) {
            continue;
        }
        let text = match fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
            Err(e) => {
                warn!(file = %path.display(), error = %e, "a round file cannot be read for the results");
                continue;
            }
        };
        for game in split_games(&text) {
            let tags = tags_of(game);
            let tag = |k: &str| tags.iter().find(|(key, _)| *key == k).map(|(_, v)| v.as_str());
            scored.extend(Scored::of(t, tag));
        }
    }
    Ok(scored)
}
