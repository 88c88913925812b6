//! The tournament's pairings in the daemon: a TRF named in the config
//! (`watch.pairings`) or dropped into the inbox is loaded, and every sheet
//! read from then on is matched to its pairing (its PGN takes the TRF's
//! names, ratings, round and board: [`crate::pairing::apply`]). A broken TRF
//! is refused with its line and field (to rejected/, with its `.error.txt`)
//! and the sheets are read without it. A TRF loaded later replaces the one
//! before (pairing programs write the file again each round); the games
//! already published whose round it changes are read again and their
//! outputs replaced, as for a game's other copy.
//!
//! The current TRF is kept in the state folder (`<state>/pairings.trf`,
//! replaced at once): a restart, or another daemon on the same folders,
//! reads the same pairings. At start the config's file is loaded when there
//! is no kept copy or the file is newer than it.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};
use std::time::SystemTime;

use tracing::{error, info, warn};

use crate::convert::convert_together;
use crate::emit::file::{Staging, replace_staged};
use crate::pairing::Tournament;

use super::games::GameRecord;
use super::process::{FileError, Outcome, ProcessConfig, archive, folder_of, io_at, reject};
use super::publish::{replace, rounds_report, same_pairings};

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
    fn install(&self, bytes: &[u8], t: Tournament, staging: &Staging) -> io::Result<Change> {
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

/// A TRF dropped into the inbox (its bytes read): loaded and kept, the games
/// its changes touch read again, the file archived; a broken one refused
/// with its line and field, to rejected/ with its `.error.txt`, and archived.
pub fn dropped(
    cfg: &ProcessConfig,
    claimed: &Path,
    name: &str,
    bytes: &[u8],
    out: &mut Outcome,
) -> Result<(), FileError> {
    match Tournament::parse(bytes) {
        Err(e) => {
            let why = format!("{e}; the sheets are read without it");
            reject(cfg, name, Some(bytes), claimed, &format!("{name}: {why}\n"), out)?;
            out.error = Some(why);
        }
        Ok(t) => {
            let (event, players) = (t.name.clone(), t.players.len());
            let rounds = t.pairings.iter().map(|p| p.round).max().unwrap_or(0);
            let state = &cfg.folders.state;
            let change = cfg.pairings.install(bytes, t, &cfg.staging).map_err(io_at(state))?;
            let before = change.old.as_ref().map(|o| o.name.clone()).unwrap_or_default();
            info!(file = %name, %event, players, rounds, replaces = %before, "pairings loaded");
            let n = rematch(cfg, &change)?;
            out.loaded = Some(format!("pairings of {event}: {players} players, {rounds} rounds; {n} games read again"));
        }
    }
    archive(cfg, claimed, out)
}

/// The pairings of round `r` as they bear on its games: boards, players
/// (with all their details) and results.
fn round_view(t: &Tournament, r: u32) -> Vec<String> {
    t.round(r).map(|p| format!("{p:?} {:?} {:?}", t.player(p.white), t.player(p.black))).collect()
}

/// The round a record's game is of: as matched, else as its first sheet writes it.
fn round_of(r: &GameRecord) -> Option<u32> {
    r.board.map(|(round, _)| round).or_else(|| {
        let h = r.sheets.first()?.headers.iter().find(|(k, _)| k == "Round")?;
        h.1.split('.').next()?.trim().parse().ok()
    })
}

/// Reads again the recorded games whose round the change touches (every
/// game of a round whose pairings differ, and every game that gives no
/// round), and replaces their outputs. Returns how many were read again.
pub fn rematch(cfg: &ProcessConfig, change: &Change) -> Result<usize, FileError> {
    let state = &cfg.folders.state;
    let touched = |r: &GameRecord| match (round_of(r), &change.old) {
        (Some(n), Some(old)) => round_view(old, n) != round_view(&change.new, n),
        _ => true,
    };
    let names: Vec<String> = {
        let locked = cfg.games.lock().map_err(io_at(state))?;
        locked.names().filter(|(_, r)| !r.pending && touched(r)).map(|(n, _)| n.to_string()).collect()
    };
    let mut moved = 0;
    for n in &names {
        moved += usize::from(reread(cfg, n)?);
    }
    let rounds: Vec<u32> = {
        let mut r: Vec<u32> = change.new.pairings.iter().map(|p| p.round).collect();
        r.dedup();
        r
    };
    let mut locked = cfg.games.lock().map_err(io_at(state))?;
    rounds_report(cfg, &mut locked, &change.new, &rounds);
    if !names.is_empty() {
        info!(games = names.len(), moved, "the games of the rounds the new pairings change were read again");
    }
    Ok(names.len())
}

/// Reads the game of record `n` again from its sheets in archive/ and puts
/// it in place of its outputs; whether it went to another folder.
fn reread(cfg: &ProcessConfig, n: &str) -> Result<bool, FileError> {
    let state = &cfg.folders.state;
    loop {
        let Some(record) = cfg.games.lock().map_err(io_at(state))?.get(n) else { return Ok(false) };
        let opts = cfg.options_now();
        let inputs = match super::decide::inputs_of(cfg, &record) {
            Ok((inputs, _)) => inputs,
            Err(super::decide::DecideError::File(e)) => return Err(e),
            Err(e) => {
                warn!(record = %n, error = %e, "cannot read the sheet again with the new pairings");
                return Ok(false);
            }
        };
        let (mut reports, _) = convert_together(&inputs, &opts);
        let first = &record.sheets[0];
        let games = reports.swap_remove(0).games;
        let count = games.len();
        let Some(mut game) = games.into_iter().nth(first.index) else { return Ok(false) };
        // An arbiter's decision on the game stands: applied to the new reading.
        if let Some(d) = super::decide::kept_for(cfg, n) {
            match crate::decision::read_decided(&inputs, &opts, (0, first.index), &d) {
                Ok(decided) => game = decided.report,
                Err(e) => warn!(record = %n, error = %e, "the arbiter's decision no longer fits the game read again"),
            }
        }
        let mut locked = cfg.games.lock().map_err(io_at(state))?;
        if locked.get(n).as_ref() != Some(&record) || !same_pairings(&opts, &cfg.options_now()) {
            continue;
        }
        let name = record.sheets.last().map_or("", |s| s.dropped.as_str());
        let placed = replace(cfg, name, (first.index, count), &game, &record, &mut Outcome::default())?;
        let now = folder_of(placed.status);
        let moved = now != record.folder;
        if moved {
            info!(file = %name, "read again with the new pairings: {} → {now}", record.folder);
        }
        let updated = GameRecord {
            folder: now.to_string(),
            files: placed.files,
            round: placed.round,
            board: placed.board,
            ..record.clone()
        };
        locked.put(n, &updated, &cfg.staging).map_err(io_at(state))?;
        return Ok(moved);
    }
}
