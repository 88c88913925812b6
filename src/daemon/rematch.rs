//! A TRF dropped into the inbox: loaded in place of the pairings before
//! (pairing programs write the file again each round), and the games
//! already published whose round it changes read again and their outputs
//! replaced, as for a game's other copy. A broken TRF is refused with its
//! line and field (to rejected/, with its `.error.txt`) and the sheets are
//! read without it. An arbiter's decision on a
//! game stands over the new reading.
//!
//! The re-read is journaled ([`super::pairings`]): the games it owes are
//! kept before the new TRF is, and forgotten only once every one is read
//! again; a daemon killed in the middle finishes it at its next start
//! ([`resume`]). Reading a game again is the same whether it was read with
//! these pairings already or not: its outputs are replaced, never added.

use std::path::Path;
use std::sync::Arc;

use tracing::{info, warn};

use crate::convert::convert_together;
use crate::pairing::Tournament;

use super::decide::{DecideError, inputs_of};
use super::games::{GameRecord, hash, record_name};
use super::kept::kept_for;
use super::outcome::{FileError, Outcome, ProcessConfig, archive, folder_of, io_at, reject};
use super::pairings::Owed;
use super::publish::{replace, rounds_report, same_pairings, unpublish};
use super::route::{Replacing, route};

/// A TRF dropped into the inbox (its bytes read): loaded and kept, the games
/// its changes touch read again, the file archived; a broken one refused
/// with its line and field, to rejected/ with its `.error.txt`, and archived.
pub(crate) fn dropped(
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
            let _turn = cfg.pairings.hold().map_err(io_at(state))?;
            let old = load(cfg, bytes, t)?;
            let before = old.as_ref().map(|o| o.name.clone()).unwrap_or_default();
            info!(file = %name, %event, players, rounds, replaces = %before, "pairings loaded");
            let n = finish(cfg)?;
            out.loaded = Some(format!("pairings of {event}: {players} players, {rounds} rounds; {n} games read again"));
        }
    }
    archive(cfg, claimed, out)
}

/// Loads `bytes` (read as `t`) as the pairings in force, the re-read it owes
/// kept first: the games of every round whose pairings it changes, and every
/// game that gives no round, added to any re-read still owed. Done under
/// the records' lock, so that a sheet published meanwhile is either among
/// these games or read with the new pairings. The caller holds the turn
/// ([`super::pairings::Pairings::hold`]) and then calls [`finish`]. Returns
/// the pairings replaced.
pub(crate) fn load(cfg: &ProcessConfig, bytes: &[u8], t: Tournament) -> Result<Option<Arc<Tournament>>, FileError> {
    let state = &cfg.folders.state;
    let new = Arc::new(t);
    let locked = cfg.games.lock().map_err(io_at(state))?;
    let old = cfg.pairings.current();
    let touched = |r: &GameRecord| match (round_of(r), &old) {
        (Some(n), Some(old)) => round_view(old, n) != round_view(&new, n),
        _ => true,
    };
    let mut owed = cfg.pairings.owed().map_err(io_at(state))?.unwrap_or_default();
    owed.trf = hash(bytes);
    owed.games.extend(locked.names().filter(|(_, r)| !r.pending && touched(r)).map(|(n, _)| n.to_string()));
    cfg.pairings.owe(&owed, &cfg.staging).map_err(io_at(state))?;
    cfg.pairings.install(bytes, new, &cfg.staging).map_err(io_at(state))
}

/// At start: a re-read a TRF owes that a killed daemon left unfinished is
/// finished, with the pairings in force. Returns how many games were read
/// again (none when nothing was owed).
pub(crate) fn resume(cfg: &ProcessConfig) -> Result<usize, FileError> {
    let state = &cfg.folders.state;
    let _turn = cfg.pairings.hold().map_err(io_at(state))?;
    match cfg.pairings.owed().map_err(io_at(state))? {
        None => Ok(0),
        Some(owed) => {
            info!(games = owed.games.len(), trf = %owed.trf, "finishing the re-read the pairings loaded last owe");
            finish(cfg)
        }
    }
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

/// Reads again the games the re-read owed names (with the pairings in
/// force; the caller holds the turn) and replaces their outputs, then
/// forgets it. Returns how many were read again.
fn finish(cfg: &ProcessConfig) -> Result<usize, FileError> {
    let state = &cfg.folders.state;
    let Some(mut owed) = cfg.pairings.owed().map_err(io_at(state))? else { return Ok(0) };
    if owed.every {
        let locked = cfg.games.lock().map_err(io_at(state))?;
        owed.games = locked.names().filter(|(_, r)| !r.pending).map(|(n, _)| n.to_string()).collect();
    }
    if let Some(t) = cfg.pairings.current() {
        join_lone_copies(cfg, &t, &mut owed)?;
    }
    let names: Vec<String> = owed.games.iter().cloned().collect();
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
    if let Some(t) = cfg.pairings.current() {
        let mut rounds: Vec<u32> = t.pairings.iter().map(|p| p.round).collect();
        rounds.dedup();
        let mut locked = cfg.games.lock().map_err(io_at(state))?;
        rounds_report(cfg, &mut locked, &t, &rounds);
    }
    cfg.pairings.paid().map_err(io_at(state))?;
    // The results file follows the TRF loaded even where no game moved.
    if let Some(t) = cfg.pairings.current() {
        super::results::refresh(cfg, &t.name)?;
    }
    if !names.is_empty() {
        info!(games = names.len(), moved, "the games of the rounds the new pairings change were read again");
    }
    Ok(names.len())
}

/// Games read alone so far that the new pairings tell are the two copies of
/// one game (copies whose headers alone did not, read before the TRF came):
/// the later one's outputs are taken away and its sheet joins the earlier's
/// record, which [`finish`] then reads with both copies: it is added to the
/// re-read owed, kept, before any record changes.
fn join_lone_copies(cfg: &ProcessConfig, t: &Arc<Tournament>, owed: &mut Owed) -> Result<(), FileError> {
    let state = &cfg.folders.state;
    let mut locked = cfg.games.lock().map_err(io_at(state))?;
    let lone: Vec<String> =
        locked.names().filter(|(_, r)| !r.pending && r.sheets.len() == 1).map(|(n, _)| n.to_string()).collect();
    let mut pairs: Vec<(String, String)> = Vec::new();
    for n in lone {
        if let Some(first) = locked.lone_partner(&n, t).filter(|m| *m < n) {
            pairs.push((first, n));
        }
    }
    if pairs.iter().any(|(first, _)| !owed.games.contains(first)) {
        owed.games.extend(pairs.iter().map(|(first, _)| first.clone()));
        cfg.pairings.owe(owed, &cfg.staging).map_err(io_at(state))?;
    }
    for (first, n) in &pairs {
        let (Some(mut a), Some(b)) = (locked.get(first), locked.get(n)) else { continue };
        unpublish(cfg, &b)?;
        a.sheets.extend(b.sheets);
        a.sans.clear();
        locked.put(first, &a, &cfg.staging).map_err(io_at(state))?;
        locked.remove(n, &cfg.staging).map_err(io_at(state))?;
        let name = a.sheets.last().map_or("", |s| s.dropped.as_str());
        info!(file = %name, other = %a.sheets[0].dropped, "the new pairings tell the two copies of one game: read together");
    }
    Ok(())
}

/// The second sheet of a game that the new pairings tell apart from the
/// first, `(sheet, its game read alone, its file's sheet count)`, published
/// as a game of its own under a record of its own. Every step can be done
/// again: a re-read cut short by a kill is finished at the next start (the
/// outputs found already written, the record put again), and the first
/// sheet's record, which still names both until then, is changed last.
fn apart(
    cfg: &ProcessConfig,
    locked: &mut super::games::Locked<'_>,
    (sheet, game, count): &(super::games::SheetRecord, crate::emit::report::GameReport, usize),
) -> Result<(), FileError> {
    let state = &cfg.folders.state;
    let placed =
        route(cfg, &sheet.dropped, (sheet.index, *count), game, Replacing::default(), &mut Outcome::default())?;
    info!(
        file = %sheet.dropped,
        "the new pairings tell this sheet's game from the one it was read with: published apart, {}",
        folder_of(placed.status)
    );
    let record = GameRecord {
        sheets: vec![sheet.clone()],
        folder: folder_of(placed.status).to_string(),
        files: placed.files,
        round: placed.round,
        pending: false,
        board: placed.board,
        notices: placed.notices,
        sans: game.moves.clone(),
    };
    let n = record_name(&sheet.dropped, &sheet.hash, sheet.index);
    locked.put(&n, &record, &cfg.staging).map_err(io_at(state))
}

/// Reads the game of record `n` again from its sheets in archive/ and puts
/// it in place of its outputs; whether it went to another folder. Two
/// sheets the new pairings tell apart become two games (see [`apart`]).
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
        // The pairings tell the two sheets apart: each is its own game.
        let second = match &record.sheets[..] {
            [_, b] if reports[0].games.get(first.index).is_some_and(|g| g.sheets.is_none()) => {
                let f = usize::from(b.archived != first.archived);
                reports.get(f).and_then(|r| Some((b.clone(), r.games.get(b.index)?.clone(), r.games.len())))
            }
            _ => None,
        };
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
        let name = match &second {
            Some(_) => first.dropped.as_str(),
            None => record.sheets.last().map_or("", |s| s.dropped.as_str()),
        };
        let placed = replace(cfg, name, (first.index, count), &game, &record, &mut Outcome::default())?;
        if let Some(other) = &second {
            apart(cfg, &mut locked, other)?;
        }
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
            // A game of one sheet is found by its moves as read now.
            sans: if record.sheets.len() == 1 || second.is_some() { game.moves.clone() } else { Vec::new() },
            sheets: if second.is_some() { vec![first.clone()] } else { record.sheets.clone() },
            ..record.clone()
        };
        locked.put(n, &updated, &cfg.staging).map_err(io_at(state))?;
        return Ok(moved);
    }
}
