//! A TRF dropped into the inbox: loaded in place of the pairings before
//! (pairing programs write the file again each round), and the games
//! already published whose round it changes read again and their outputs
//! replaced, as for a game's other copy. A broken TRF is refused with its
//! line and field (to rejected/, with its `.error.txt`) and the sheets are
//! read without it. An arbiter's decision on a
//! game stands over the new reading.

use std::path::Path;
use std::sync::Arc;

use tracing::{info, warn};

use crate::convert::convert_together;
use crate::pairing::Tournament;

use super::decide::{DecideError, inputs_of};
use super::games::GameRecord;
use super::kept::kept_for;
use super::outcome::{FileError, Outcome, ProcessConfig, archive, folder_of, io_at, reject};
use super::pairings::Change;
use super::publish::{replace, rounds_report, same_pairings, unpublish};

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
    let joined = join_lone_copies(cfg, &change.new)?;
    let names: Vec<String> = {
        let locked = cfg.games.lock().map_err(io_at(state))?;
        let read = |n: &str, r: &GameRecord| !r.pending && (touched(r) || joined.iter().any(|j| j == n));
        locked.names().filter(|(n, r)| read(n, r)).map(|(n, _)| n.to_string()).collect()
    };
    let mut moved = 0;
    for n in &names {
        moved += usize::from(reread(cfg, n)?);
    }
    // A game read again before the round's other games were can find its
    // new board still held by one of them, numbered as before: once all are
    // read, those left in review are read once more.
    let in_review: Vec<&String> = {
        let locked = cfg.games.lock().map_err(io_at(state))?;
        names.iter().filter(|n| locked.get(n).is_some_and(|r| r.folder == "review")).collect()
    };
    for n in in_review {
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

/// Games read alone so far that the new pairings tell are the two copies of
/// one game (copies whose headers alone did not, read before the TRF came):
/// the later one's outputs are taken away and its sheet joins the earlier's
/// record, which [`rematch`] then reads with both copies. Returns the
/// records joined.
fn join_lone_copies(cfg: &ProcessConfig, t: &Arc<Tournament>) -> Result<Vec<String>, FileError> {
    let state = &cfg.folders.state;
    let mut locked = cfg.games.lock().map_err(io_at(state))?;
    let lone: Vec<String> =
        locked.names().filter(|(_, r)| !r.pending && r.sheets.len() == 1).map(|(n, _)| n.to_string()).collect();
    let mut joined = Vec::new();
    for n in &lone {
        let Some(first) = locked.lone_partner(n, t).filter(|m| m < n) else { continue };
        let (Some(mut a), Some(b)) = (locked.get(&first), locked.get(n)) else { continue };
        unpublish(cfg, &b)?;
        a.sheets.extend(b.sheets);
        locked.put(&first, &a, &cfg.staging).map_err(io_at(state))?;
        locked.remove(n, &cfg.staging).map_err(io_at(state))?;
        let name = a.sheets.last().map_or("", |s| s.dropped.as_str());
        info!(file = %name, other = %a.sheets[0].dropped, "the new pairings tell the two copies of one game: read together");
        joined.push(first);
    }
    Ok(joined)
}

/// Reads the game of record `n` again from its sheets in archive/ and puts
/// it in place of its outputs; whether it went to another folder.
fn reread(cfg: &ProcessConfig, n: &str) -> Result<bool, FileError> {
    let state = &cfg.folders.state;
    loop {
        let Some(record) = cfg.games.lock().map_err(io_at(state))?.get(n) else { return Ok(false) };
        let opts = cfg.options_now();
        let inputs = match inputs_of(cfg, &record) {
            Ok((inputs, _)) => inputs,
            Err(DecideError::File(e)) => return Err(e),
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
        if let Some(d) = kept_for(cfg, n) {
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
            notices: placed.notices,
            ..record.clone()
        };
        locked.put(n, &updated, &cfg.staging).map_err(io_at(state))?;
        return Ok(moved);
    }
}
