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

use super::games::hash;
use super::names::folder;
use super::outcome::{FileError, ProcessConfig, io_at};
use super::round::{RoundScores, split_games, tags_of};

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
    super::folders::private_folder(&locks).map_err(io_at(&locks))?;
    let lock_path = locks.join("results.lock");
    let lock = OpenOptions::new().create(true).truncate(false).write(true).open(&lock_path);
    let lock = lock.map_err(io_at(&lock_path))?;
    lock.lock().map_err(io_at(&lock_path))?;
    let dir = cfg.folders.pgn.join(&name);
    let scored = published(&dir, (&t, &hash(&given)), &cfg.scores).map_err(io_at(&dir))?;
    let written = with_results(&given, &scored);
    for g in &written.contradicted {
        debug!(event = %t.name, round = g.round, white = g.white, black = g.black, "a result the TRF gives otherwise is left as it is");
    }
    let target = dir.join(RESULTS_FILE);
    if fs::read(&target).is_ok_and(|now| now == written.bytes) {
        return Ok(());
    }
    fs::create_dir_all(&dir).map_err(io_at(&dir))?;
    replace_staged(&target, &written.bytes, &cfg.staging).map_err(io_at(&target))?;
    super::crash::step("results.written");
    Ok(())
}

/// The results of the games in the round files of `dir` that are pairings
/// of `t` (whose TRF's bytes hash to `trf`): each round file read only when
/// it changed since `kept` last read it.
fn published(dir: &Path, (t, trf): (&Tournament, &str), kept: &RoundScores) -> io::Result<Vec<Scored>> {
    let entries = match fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    let mut kept = kept.0.lock().unwrap_or_else(|e| e.into_inner());
    let mut scored = Vec::new();
    for entry in entries {
        let path = entry?.path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if !(name.starts_with("round-") && name.ends_with(".pgn")) {
            continue;
        }
        let version = match fs::metadata(&path) {
            Ok(m) => (m.len(), m.modified().ok(), std::os::unix::fs::MetadataExt::ino(&m)),
            Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
            Err(e) => return Err(e),
        };
        if let Some((with, v, games)) = kept.get(&path)
            && with == trf
            && *v == version
        {
            scored.extend_from_slice(games);
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
        let mut games = Vec::new();
        for game in split_games(&text) {
            let tags = tags_of(game);
            let tag = |k: &str| tags.iter().find(|(key, _)| *key == k).map(|(_, v)| v.as_str());
            games.extend(Scored::of(t, tag));
        }
        scored.extend_from_slice(&games);
        kept.insert(path, (trf.to_string(), version, games));
    }
    Ok(scored)
}
