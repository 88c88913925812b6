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

use std::collections::{HashMap, HashSet};
use std::ops::ControlFlow;
use std::path::Path;
use std::sync::Arc;

use tracing::{info, warn};

use crate::convert::convert_together;
use crate::pairing::Tournament;
use crate::pairing::matching::may_be_one_of;
use crate::pairing::names::Heard;
use crate::sheet::GameResult;

use super::decide::{DecideError, inputs_of};
use super::games::{GameRecord, Which, hash, record_name};
use super::kept::kept_for;
use super::outcome::{FileError, Outcome, ProcessConfig, archive, folder_of, io_at, reject, same_pairings};
use super::pairings::Owed;
use super::publish::{replace, rounds_report, unpublish};
use super::route::{Replacing, route, unrecorded};

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
/// kept first: the games whose boards it changes ([`Change`]), added to any
/// re-read still owed. Done under the records' lock, so that a sheet
/// published meanwhile is either among these games or read with the new
/// pairings. The caller holds the turn
/// ([`super::pairings::Pairings::hold`]) and then calls [`finish`]. Returns
/// the pairings replaced.
pub(crate) fn load(cfg: &ProcessConfig, bytes: &[u8], t: Tournament) -> Result<Option<Arc<Tournament>>, FileError> {
    let state = &cfg.folders.state;
    let new = Arc::new(t);
    let locked = cfg.games.lock().map_err(io_at(state))?;
    let old = cfg.pairings.current();
    let change = Change::between(old.as_deref(), &new);
    let mut owed = cfg.pairings.owed().map_err(io_at(state))?.unwrap_or_default();
    owed.trf = hash(bytes);
    locked
        .each(Which::Published, |n, r| {
            if change.touches(&r) {
                owed.games.insert(n.to_string());
            }
            ControlFlow::Continue(())
        })
        .map_err(io_at(state))?;
    match change.every {
        true => owed.rounds.extend(new.pairings.iter().map(|p| p.round)),
        false => owed.rounds.extend(change.rounds()),
    }
    info!(
        every = change.every,
        boards = change.boards.len(),
        results = change.results.len(),
        "what the new pairings change"
    );
    cfg.pairings.owe(&owed, &cfg.staging).map_err(io_at(state))?;
    let old = cfg.pairings.install(bytes, new, &cfg.staging).map_err(io_at(state))?;
    super::crash::step("trf.kept");
    Ok(old)
}

/// What a new TRF changes for the games read with the one before: board by
/// board, the players (their start numbers, names and the tags they give a
/// game: rating, FIDE id, title), their colours, a forfeit, and the result
/// given. Points, ranks, federations and every other line change no game:
/// the results file, made from the TRF kept, follows them.
struct Change {
    /// The TRF changes every game: the first one, or another event.
    every: bool,
    /// Each board of either TRF whose pairing differs (players, colours,
    /// forfeit), by round and board.
    boards: HashSet<(u32, u32)>,
    /// Each board whose pairing is the same and whose result given differs,
    /// with the new result.
    results: HashMap<(u32, u32), Option<GameResult>>,
    /// The names of the players of the boards that changed, in either TRF,
    /// by round: a game matched to no board may be one of theirs now.
    players: HashMap<u32, Vec<Heard>>,
}

impl Change {
    fn between(old: Option<&Tournament>, new: &Tournament) -> Change {
        let Some(old) = old.filter(|o| o.name == new.name) else {
            return Change { every: true, boards: HashSet::new(), results: HashMap::new(), players: HashMap::new() };
        };
        let (was, now) = (boards_of(old), boards_of(new));
        let mut boards = HashSet::new();
        let mut results = HashMap::new();
        for (at, view) in &now {
            match was.get(at) {
                Some(before) if before.0 == view.0 && before.1 != view.1 => {
                    results.insert(*at, view.1);
                }
                Some(before) if before == view => {}
                _ => {
                    boards.insert(*at);
                }
            }
        }
        boards.extend(was.keys().filter(|at| !now.contains_key(at)));
        let mut players: HashMap<u32, Vec<Heard>> = HashMap::new();
        for t in [old, new] {
            for p in t.pairings.iter().filter(|p| boards.contains(&(p.round, p.board))) {
                let heard = [p.white, p.black].into_iter().filter_map(|s| t.heard(s)).cloned();
                players.entry(p.round).or_default().extend(heard);
            }
        }
        Change { every: false, boards, results, players }
    }

    /// Whether the game of record `r` is to be read again: its board's
    /// pairing changed, or its result given differs from the one it was
    /// published with. A game in review may be matched to no board (or to
    /// the one its sheet writes): read again too where a sheet of it names
    /// a player of a board of its round that changed (of any round, for a
    /// game of no round), or names none.
    fn touches(&self, r: &GameRecord) -> bool {
        if self.every {
            return true;
        }
        let board = r.board.is_some_and(|at| {
            self.boards.contains(&at)
                || self
                    .results
                    .get(&at)
                    .is_some_and(|given| given.is_none() || r.result.as_deref().and_then(GameResult::parse) != *given)
        });
        if board || r.folder == "pgn" {
            return board;
        }
        // A game of no round may be a game of any round.
        let players: Vec<&Heard> = match round_of(r) {
            Some(n) => self.players.get(&n).into_iter().flatten().collect(),
            None => self.players.values().flatten().collect(),
        };
        if players.is_empty() {
            return false;
        }
        r.sheets.iter().any(|s| {
            let named: Vec<&str> = ["White", "Black"]
                .iter()
                .filter_map(|k| s.headers.iter().find(|(h, _)| h == k).map(|(_, v)| v.as_str()))
                .filter(|v| !v.trim().is_empty() && v.trim() != "?")
                .collect();
            named.is_empty() || named.iter().any(|v| may_be_one_of(v, &players))
        })
    }

    /// The rounds whose boards changed (their missing-boards report is made again).
    fn rounds(&self) -> impl Iterator<Item = u32> + '_ {
        self.boards.iter().chain(self.results.keys()).map(|&(round, _)| round)
    }
}

/// Each board of `t` (by round and board): its pairing as it bears on the
/// games read there (players with their tags, colours, forfeit), and the
/// result given.
fn boards_of(t: &Tournament) -> HashMap<(u32, u32), (String, Option<GameResult>)> {
    let tags = |n: u32| t.player(n).map(|p| (&p.name, p.rating, p.fide_id, &p.title));
    t.pairings
        .iter()
        .map(|p| {
            let view = format!("{} {} {} {:?} {:?}", p.white, p.black, p.forfeit, tags(p.white), tags(p.black));
            ((p.round, p.board), (view, p.result))
        })
        .collect()
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
        owed.games = locked.published(false).map_err(io_at(state))?.into_iter().collect();
    }
    if let Some(t) = cfg.pairings.current() {
        join_lone_copies(cfg, &t, &mut owed)?;
    }
    let names: Vec<String> = owed.games.iter().cloned().collect();
    let mut moved = 0;
    for n in &names {
        moved += usize::from(reread(cfg, n)?);
        super::crash::step("trf.reread");
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
        let mut rounds: Vec<u32> = match owed.every {
            true => t.pairings.iter().map(|p| p.round).collect(),
            false => owed.rounds.iter().copied().collect(),
        };
        rounds.dedup();
        let mut locked = cfg.games.lock().map_err(io_at(state))?;
        rounds_report(cfg, &mut locked, &t, &rounds);
    }
    cfg.pairings.paid().map_err(io_at(state))?;
    super::crash::step("trf.paid");
    // The results file follows the TRF loaded even where no game moved.
    if let Some(t) = cfg.pairings.current() {
        super::results::refresh(cfg, &t.name)?;
    }
    info!(games = names.len(), moved, "the games whose boards the new pairings change were read again");
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
    let lone: Vec<String> = locked.published(true).map_err(io_at(state))?;
    let mut pairs: Vec<(String, String)> = Vec::new();
    for n in lone {
        if let Some(first) = locked.lone_partner(&n, t).map_err(io_at(state))?.filter(|m| *m < n) {
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
    let placed = route(
        cfg,
        &sheet.dropped,
        (sheet.index, *count),
        game,
        (Replacing::default(), &mut unrecorded),
        &mut Outcome::default(),
    )?;
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
        result: placed.result,
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
        let placed =
            replace(cfg, name, (first.index, count), &game, (&record, &mut unrecorded), &mut Outcome::default())?;
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
            result: placed.result,
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
