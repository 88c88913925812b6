//! The daemon's record of the games it published: for each game, the sheets
//! it was read from (the name each was dropped under, its name in archive/,
//! its headers) and the files it was put in. A sheet that arrives later finds
//! here the other copy of its game, read alone until then, and the outputs
//! the game read from both copies replaces.
//!
//! One small JSON file per game in `<state>/games/`, each written to a
//! temporary name and renamed ([`replace_staged`]): a listing never shows a
//! half-written record, whatever the moment of a kill. Every look and every
//! change is made under one lock, `<state>/games.lock`, held by one worker
//! of one daemon at a time (like the round file's): the look for a partner,
//! the outputs and the record are one step for every daemon on the inbox.
//! The records are kept in memory; every change is first appended (the
//! record's name) to the journal `<state>/games.log`, under the lock, so a
//! daemon reads again only the records named past where it last read: what
//! another daemon (or one a kill cut short) changed, never a big event's
//! thousands of records for every sheet. They are indexed by the file and by
//! the copies' index (a sheet's round and board, its players' names): a
//! sheet's look for its game's other copy goes through the few records that
//! share one of those, never through every record.
//!
//! A record is written *pending* before the game's outputs, and made final
//! after them. A pending record another daemon left (it was killed between
//! the two) tells a sheet of the same game to wait: the killed daemon's file
//! is still claimed and is done again (its outputs found already written),
//! after which the sheet finds the game's final record.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

use serde::{Deserialize, Serialize};

use crate::cost::SAME_GAME_PLIES;
use crate::emit::file::{Staging, replace_staged};
use crate::pairing::Tournament;
use crate::pairing::matching::keyed;
use crate::reconstruct::by_moves::{MoveIndex, same_game_by_moves};
use crate::reconstruct::copies::{CopyIndex, CopyKey};
use crate::sheet::Sheet;

/// One sheet of a recorded game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct SheetRecord {
    /// The name the file was dropped under.
    pub dropped: String,
    /// Its name in archive/ (empty while the record is pending).
    pub archived: String,
    /// The sheet's place among the file's sheets, from 0.
    pub index: usize,
    /// A hash of the whole file's bytes ([`hash`]): the same file dropped
    /// again is this sheet, not its game's other copy.
    pub hash: String,
    /// The sheet's headers as read, for [`same_game`](crate::reconstruct::copies::same_game).
    pub headers: Vec<(String, String)>,
}

impl SheetRecord {
    /// The headers as a sheet, for [`same_game`](crate::reconstruct::copies::same_game).
    fn sheet(&self) -> Sheet {
        Sheet { headers: self.headers.clone(), ..Sheet::default() }
    }

    /// Whether this is sheet `index` of a file dropped as `dropped`.
    pub(crate) fn named(&self, dropped: &str, index: usize) -> bool {
        self.dropped == dropped && self.index == index
    }

    /// Whether this is sheet `index` of a file with these bytes.
    fn is(&self, hash: &str, index: usize) -> bool {
        self.hash == hash && self.index == index
    }
}

/// A game in its round's file: which file, and the game's text as put there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct RoundEntry {
    pub event: String,
    pub round: String,
    pub game: String,
}

/// One published game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct GameRecord {
    /// Its sheets: one, or the two copies it was read from.
    pub sheets: Vec<SheetRecord>,
    /// `pgn`, `review` or `rejected`.
    pub folder: String,
    /// The files it was put in (its PGN, a review game's `.json`, a rejected
    /// game's `.error.txt`), but for its round's file.
    pub files: Vec<PathBuf>,
    /// Its place in its round's file, for a game there.
    pub round: Option<RoundEntry>,
    /// Written before the outputs, made final after them.
    pub pending: bool,
    /// The round and board its game was published as (its PGN's tags).
    #[serde(default)]
    pub board: Option<(u32, u32)>,
    /// The result its game was published with (its PGN's `Result`): a TRF
    /// that comes to give the same result for its board changes nothing it
    /// was read from. `None` in records written before it was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
    /// The codes of the notices its game was published with that the desk
    /// lists for the arbiter ([`crate::finding::Finding::is_told`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notices: Vec<String>,
    /// The moves of its game (SAN) as read from its one sheet alone, for a
    /// game of one sheet: the other copy, whose names may be typed past
    /// knowing, finds it by them ([`crate::reconstruct::by_moves`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sans: Vec<String>,
}

/// A hash of a file's bytes (FNV-1a, 64 bits, in hex): stable across builds.
pub(crate) fn hash(bytes: &[u8]) -> String {
    let h = bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3));
    format!("{h:016x}")
}

/// The records of a daemon's state folder: read from disk once, then kept
/// in memory and brought up to date from the journal each time the lock is
/// taken.
#[derive(Debug)]
pub(crate) struct Games {
    dir: PathBuf,
    lock: PathBuf,
    journal: PathBuf,
    cache: Mutex<Cache>,
}

#[derive(Debug, Default)]
struct Cache {
    /// How far into the journal the records are read, and which file it is
    /// (its inode: a journal removed and begun again is read from its
    /// start); `None`: not read yet.
    read_to: Option<(u64, u64)>,
    /// By file name, in the order records are looked through; each without
    /// its game's text in the round file (the largest part of a record, and
    /// needed only to replace that game: [`Locked::get`] reads it).
    records: BTreeMap<String, GameRecord>,
    /// The records each file's sheet (its bytes' hash, its place) is in.
    by_file: HashMap<(String, usize), BTreeSet<String>>,
    /// The pairings the records' sheets are keyed by (the TRF's round, board
    /// and names: [`keyed`]), held so that a load of other pairings is never
    /// taken for them; each record's sheets keyed so, and the copies' index
    /// of them: a sheet's look for its game's other copy goes through the
    /// records that share its round and board or its players' names.
    keyed_with: Option<Arc<Tournament>>,
    keys: HashMap<String, Vec<CopyKey>>,
    index: CopyIndex<String>,
    /// The records of one sheet by their moves read alone ([`GameRecord::sans`]).
    moves: MoveIndex<String>,
    /// How many times a record was put in or taken out, ever (kept when the
    /// records are read again whole): the desk's lists are brought up to
    /// date from it, never by reading every record.
    changes: u64,
    /// The change that last put each record in.
    stamps: HashMap<String, u64>,
    /// The published records of each round and board, with their sheets'
    /// count: a round's boards without a scoresheet are told without
    /// looking through every record.
    by_board: HashMap<(u32, u32), BTreeMap<String, usize>>,
    /// How many published records are read from two players' copies
    /// ([`GameRecord::two_copies`]).
    two_copies: usize,
}

impl Cache {
    fn insert(&mut self, name: &str, mut record: GameRecord) {
        self.take(name);
        if let Some(r) = record.round.as_mut() {
            r.game = String::new();
        }
        self.changes += 1;
        self.stamps.insert(name.to_string(), self.changes);
        for s in &record.sheets {
            self.by_file.entry((s.hash.clone(), s.index)).or_default().insert(name.to_string());
        }
        if !record.pending {
            if let Some(at) = record.board {
                self.by_board.entry(at).or_default().insert(name.to_string(), record.sheets.len());
            }
            self.two_copies += usize::from(record.two_copies());
        }
        self.file_keys(name, &record);
        self.records.insert(name.to_string(), record);
    }

    /// Files the record's sheets in the index, keyed by the pairings held.
    fn file_keys(&mut self, name: &str, record: &GameRecord) {
        let pairings = self.keyed_with.as_deref();
        let keys: Vec<CopyKey> = record.sheets.iter().map(|s| CopyKey::of(&keyed(&s.sheet(), pairings))).collect();
        for k in &keys {
            self.index.insert(k, name.to_string());
        }
        self.keys.insert(name.to_string(), keys);
        if by_moves(record) {
            self.moves.insert(&record.sans, name.to_string());
        }
    }

    fn take(&mut self, name: &str) {
        if let Some(keys) = self.keys.remove(name) {
            let id = name.to_string();
            for k in &keys {
                self.index.remove(k, &id);
            }
        }
        let Some(old) = self.records.remove(name) else { return };
        if by_moves(&old) {
            self.moves.remove(&old.sans, &name.to_string());
        }
        self.changes += 1;
        self.stamps.remove(name);
        if !old.pending {
            if let Some(at) = old.board
                && let Some(names) = self.by_board.get_mut(&at)
            {
                names.remove(name);
                if names.is_empty() {
                    self.by_board.remove(&at);
                }
            }
            self.two_copies -= usize::from(old.two_copies());
        }
        for s in &old.sheets {
            if let Some(names) = self.by_file.get_mut(&(s.hash.clone(), s.index)) {
                names.remove(name);
            }
        }
    }

    /// Keys the records by `pairings`, where they are keyed by others: once
    /// for each load of a TRF, not for each sheet.
    fn key_with(&mut self, pairings: Option<&Arc<Tournament>>) {
        let same = match (&self.keyed_with, pairings) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        };
        if same {
            return;
        }
        self.keyed_with = pairings.cloned();
        self.index = CopyIndex::default();
        self.moves = MoveIndex::default();
        self.keys.clear();
        let records = std::mem::take(&mut self.records);
        for (name, r) in &records {
            self.file_keys(name, r);
        }
        self.records = records;
    }

    /// Record `name` as it is on disk now (gone: taken out).
    fn reread(&mut self, dir: &Path, name: &str) -> io::Result<()> {
        match read_record(&dir.join(name))? {
            Some(r) => self.insert(name, r),
            None => self.take(name),
        }
        Ok(())
    }
}

/// Whether a record is filed by its moves: a game of one sheet, published.
fn by_moves(r: &GameRecord) -> bool {
    !r.pending && r.sheets.len() == 1 && r.sans.len() >= SAME_GAME_PLIES
}

/// The records, read under the lock, which is held as long as this is.
pub(crate) struct Locked<'g> {
    dir: PathBuf,
    journal: PathBuf,
    cache: MutexGuard<'g, Cache>,
    _lock: File,
}

impl Games {
    /// The records under `state`.
    pub(crate) fn new(state: &Path) -> Games {
        Games {
            dir: state.join("games"),
            lock: state.join("games.lock"),
            journal: state.join("games.log"),
            cache: Mutex::new(Cache::default()),
        }
    }

    /// Takes the lock (the workers of this daemon take turns on the cache
    /// first) and brings the records up to date.
    pub(crate) fn lock(&self) -> io::Result<Locked<'_>> {
        // A worker that panicked while holding the cache left it as it was:
        // it is read again below from where the journal was last read.
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        super::folders::private_folder(&self.dir)?;
        let lock = OpenOptions::new().create(true).truncate(false).write(true).open(&self.lock)?;
        lock.lock()?;
        let (length, id) = match fs::metadata(&self.journal) {
            Ok(m) => (m.len(), std::os::unix::fs::MetadataExt::ino(&m)),
            Err(e) if e.kind() == io::ErrorKind::NotFound => (0, 0),
            Err(e) => return Err(e),
        };
        match cache.read_to {
            Some((at, was)) if was == id && at == length => {}
            Some((at, was)) if was == id && at < length => {
                let mut journal = File::open(&self.journal)?;
                journal.seek(io::SeekFrom::Start(at))?;
                let mut named = String::new();
                journal.take(length - at).read_to_string(&mut named)?;
                let names: BTreeSet<&str> = named.lines().filter(|n| !n.is_empty()).collect();
                for name in names {
                    cache.reread(&self.dir, name)?;
                }
            }
            _ => {
                *cache = Cache { changes: cache.changes + 1, ..Cache::default() };
                for (name, r) in read_records(&self.dir)? {
                    cache.insert(&name, r);
                }
            }
        }
        cache.read_to = Some((length, id));
        Ok(Locked { dir: self.dir.clone(), journal: self.journal.clone(), cache, _lock: lock })
    }
}

/// Every record in `dir`. A record that cannot be read (not JSON: written
/// by something else) is left out, and said.
fn read_records(dir: &Path) -> io::Result<Vec<(String, GameRecord)>> {
    let mut records = Vec::new();
    for entry in fs::read_dir(dir)? {
        let name = entry?.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') || !name.ends_with(".json") {
            continue;
        }
        if let Some(r) = read_record(&dir.join(&name))? {
            records.push((name, r));
        }
    }
    Ok(records)
}

/// The record in the file `path`, if there is one to read.
fn read_record(path: &Path) -> io::Result<Option<GameRecord>> {
    let text = match fs::read(path) {
        Ok(t) => t,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    match serde_json::from_slice::<GameRecord>(&text) {
        Ok(r) => Ok(Some(r)),
        Err(e) => {
            tracing::warn!(record = %path.display(), error = %e, "an unreadable game record is left out");
            Ok(None)
        }
    }
}

impl GameRecord {
    /// The pending record of a game about to be published from `sheets`:
    /// nothing placed yet.
    pub(crate) fn pending_of(sheets: Vec<SheetRecord>) -> GameRecord {
        GameRecord {
            sheets,
            folder: String::new(),
            files: Vec::new(),
            round: None,
            pending: true,
            board: None,
            result: None,
            notices: Vec::new(),
            sans: Vec::new(),
        }
    }

    /// The sheet of this game other than sheet `index` of the file dropped
    /// as `dropped` (whose headers are `headers`): the other copy. A sheet
    /// under a new name that corrects one of two copies
    /// ([`GameRecord::corrected`]) has the copy it does not correct.
    pub(crate) fn other(&self, dropped: &str, index: usize, headers: &[(String, String)]) -> Option<&SheetRecord> {
        let named = self.sheets.iter().any(|s| s.named(dropped, index));
        match self.corrected(headers).filter(|_| !named) {
            Some(i) => self.sheets.get(1 - i),
            None => self.sheets.iter().find(|s| !s.named(dropped, index)),
        }
    }

    /// Whether the game is read from two players' copies: two sheets that
    /// write different headers. A sheet typed again under a new name with
    /// the very headers of the one copy read so far is read with it, but it
    /// is that copy corrected: no sign that the event collects two copies.
    pub(crate) fn two_copies(&self) -> bool {
        self.sheets.len() > 1 && self.sheets.iter().any(|s| s.headers != self.sheets[0].headers)
    }

    /// Which of a game's two copies a sheet with these headers corrects:
    /// the one copy whose headers it writes exactly as that copy did (the
    /// same form typed again, the moves mended). Two copies typed with the
    /// same headers leave it open: the sheet is then a third copy.
    pub(crate) fn corrected(&self, headers: &[(String, String)]) -> Option<usize> {
        if self.sheets.len() != 2 {
            return None;
        }
        match [0, 1].map(|i| self.sheets[i].headers == headers) {
            [true, false] => Some(0),
            [false, true] => Some(1),
            _ => None,
        }
    }
}

/// What a sheet of a file dropped is to the recorded games.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Known {
    /// No recorded game is its game: read alone.
    New,
    /// This very sheet is recorded already (the file done again after a
    /// crash, or dropped twice): nothing to publish. The record's file name.
    Done(String),
    /// The other copy of its game, read alone so far, or read with an
    /// earlier version of this sheet (dropped again under its name, typed
    /// again): the record's file name.
    Partner(String),
    /// Its game has two copies already (the record's file name): read alone, not merged.
    Third(String),
    /// A daemon was killed while publishing a sheet of its game: wait for
    /// that file to be done again.
    Wait,
}

impl Locked<'_> {
    /// Appends `name` to the journal before its record changes: a change a
    /// kill cuts short is then read again by every daemon, never hidden by
    /// a cache.
    fn journal(&mut self, name: &str) -> io::Result<()> {
        let mut journal = OpenOptions::new().create(true).append(true).open(&self.journal)?;
        // One write of one short line: whole, whatever moment a kill comes at.
        journal.write_all(format!("{name}\n").as_bytes())?;
        let m = journal.metadata()?;
        self.cache.read_to = Some((m.len(), std::os::unix::fs::MetadataExt::ino(&m)));
        Ok(())
    }

    /// Every record, with its file's name; each without its game's text in
    /// the round file (`round.game` is empty: [`Locked::get`] has it).
    pub(crate) fn names(&self) -> impl Iterator<Item = (&str, &GameRecord)> {
        self.cache.records.iter().map(|(n, r)| (n.as_str(), r))
    }

    /// The most sheets a published game of round `round`, board `board` is
    /// read from (0: none is published there).
    pub(crate) fn copies_at(&self, round: u32, board: u32) -> usize {
        self.cache.by_board.get(&(round, board)).and_then(|n| n.values().max().copied()).unwrap_or(0)
    }

    /// Whether some published game is read from two players' copies.
    pub(crate) fn any_two_copies(&self) -> bool {
        self.cache.two_copies > 0
    }

    /// How many changes the records have seen so far: while it stays the
    /// same, so do they.
    pub(crate) fn changes(&self) -> u64 {
        self.cache.changes
    }

    /// Every record, as [`Locked::names`] gives them, with the change that
    /// last put it in ([`Locked::changes`]): a record whose stamp is the same
    /// is the same.
    #[cfg(feature = "desk")]
    pub(crate) fn stamped(&self) -> impl Iterator<Item = (&str, &GameRecord, u64)> {
        let stamps = &self.cache.stamps;
        self.names().map(move |(n, r)| (n, r, stamps.get(n).copied().unwrap_or(0)))
    }

    /// The record in the file `name`, whole, as the disk has it (the cache
    /// says which there are; under the lock the two agree).
    pub(crate) fn get(&self, name: &str) -> Option<GameRecord> {
        if !self.cache.records.contains_key(name) {
            return None;
        }
        read_record(&self.dir.join(name)).ok().flatten()
    }

    /// What sheet `index` of the file dropped as `dropped`, whose bytes hash
    /// to `hash`, is to the records. A sheet dropped again under the name of
    /// an earlier copy of its game (a correction typed again) is a new
    /// reading of that copy, not the other copy: of a game read alone it is
    /// [`Known::New`] (the round file takes it as a correction), of a game
    /// read from two copies it is read with the other one. Of several games
    /// it could be a copy of, the last in the records' order is taken.
    pub(crate) fn known(
        &mut self,
        sheet: &Sheet,
        dropped: &str,
        hash: &str,
        index: usize,
        pairings: Option<&Arc<Tournament>>,
    ) -> Known {
        let records = &self.cache.records;
        let mut done = self.cache.by_file.get(&(hash.to_string(), index)).into_iter().flatten();
        if let Some(n) = done.find(|n| records.get(*n).is_some_and(|r| !r.pending)) {
            return Known::Done(n.clone());
        }
        let mine = |r: &GameRecord| r.pending && r.sheets.iter().any(|s| s.is(hash, index) && s.dropped == dropped);
        let key = keyed(sheet, pairings.map(|t| &**t));
        let found = self.copies_of(&key, pairings, (dropped, hash));
        let mut known = Known::New;
        for n in found {
            let r = &self.cache.records[&n];
            if mine(r) {
                continue;
            }
            if r.pending {
                return Known::Wait;
            }
            let again = r.sheets.iter().any(|s| s.dropped == dropped && s.index == index);
            known = match (r.sheets.len(), again) {
                // A copy of a game read alone dropped again: read alone again.
                (1, true) => continue,
                (1, false) => Known::Partner(n.clone()),
                // One of a game's two copies dropped again, or a sheet that
                // corrects one under a new name: read with the other.
                (_, true) => Known::Partner(n.clone()),
                (_, false) if r.corrected(&sheet.headers).is_some() => Known::Partner(n.clone()),
                (_, false) => Known::Third(n.clone()),
            };
        }
        known
    }

    /// The records whose game the sheet keyed as `key` is a copy of, as
    /// `convert` groups sheets: the same round and players (or board), the
    /// pairings' tags standing for what a sheet does not write; else, where
    /// one of the two gives no round, the one game read alone so far of the
    /// same two players, from another file than `file` (the name it was
    /// dropped under, its bytes' hash): two sheets of one file with the same
    /// players and no round are two games. Found through the copies' index.
    fn copies_of(&mut self, key: &Sheet, pairings: Option<&Arc<Tournament>>, file: (&str, &str)) -> Vec<String> {
        self.cache.key_with(pairings);
        let key = CopyKey::of(key);
        let same_file = |r: &GameRecord| r.sheets.iter().any(|s| s.dropped == file.0 || s.hash == file.1);
        let (mut by_headers, mut by_players) = (Vec::new(), Vec::new());
        for n in self.cache.index.candidates(&key) {
            let (Some(r), Some(k)) = (self.cache.records.get(&n), self.cache.keys.get(&n)) else { continue };
            if k.iter().any(|s| s.same_game(&key)) {
                by_headers.push(n);
            } else if r.sheets.len() == 1 && !same_file(r) && k.iter().any(|s| s.same_game_by_players(&key)) {
                by_players.push(n);
            }
        }
        if by_headers.is_empty() && by_players.len() == 1 { by_players } else { by_headers }
    }

    /// The other game read alone so far that the record `name`, a game read
    /// alone, is the other copy of by `pairings` (the same pairing, or the
    /// same players where only one game of theirs is possible), where that
    /// game has only `name` as such a copy: copies read before the pairings
    /// came that only the pairings tell are one game's.
    pub(crate) fn lone_partner(&mut self, name: &str, pairings: &Arc<Tournament>) -> Option<String> {
        let lone = |r: &GameRecord| !r.pending && r.sheets.len() == 1;
        let partners = |me: &mut Self, n: &str| -> Vec<String> {
            let Some(r) = me.cache.records.get(n).filter(|r| lone(r)) else { return Vec::new() };
            let key = keyed(&r.sheets[0].sheet(), Some(&**pairings)).into_owned();
            let file = (r.sheets[0].dropped.clone(), r.sheets[0].hash.clone());
            let found = me.copies_of(&key, Some(pairings), (&file.0, &file.1));
            found.into_iter().filter(|m| m != n && me.cache.records.get(m).is_some_and(lone)).collect()
        };
        match &partners(self, name)[..] {
            [other] if partners(self, other) == [name] => Some(other.clone()),
            _ => None,
        }
    }

    /// The game of one sheet that a sheet (keyed as `sheet` by `pairings`)
    /// whose moves read alone are `sans` is the other copy of by their
    /// moves ([`crate::reconstruct::by_moves`]), as `convert` pairs them:
    /// the one such record, which has no other such game. Found through the
    /// records' index of moves.
    /// A game of the sheet's own file (`file`: the name it was dropped
    /// under, its bytes' hash) is never its partner.
    pub(crate) fn partner_by_moves(
        &mut self,
        sheet: &Sheet,
        sans: &[String],
        pairings: Option<&Arc<Tournament>>,
        file: (&str, &str),
    ) -> Option<String> {
        if sans.len() < SAME_GAME_PLIES {
            return None;
        }
        self.cache.key_with(pairings);
        let key = CopyKey::of(&keyed(sheet, pairings.map(|t| &**t)));
        let cache = &self.cache;
        let alike = |key: &CopyKey, sans: &[String], me: Option<&str>| -> Vec<String> {
            let found = cache.moves.candidates(sans).into_iter().filter(|n| Some(n.as_str()) != me);
            let agree = |n: &String| {
                let (Some(r), Some(k)) = (cache.records.get(n), cache.keys.get(n)) else { return false };
                let same_file = r.sheets.iter().any(|s| s.dropped == file.0 || s.hash == file.1);
                !same_file && by_moves(r) && k.first().is_some_and(|k| same_game_by_moves((k, &r.sans), (key, sans)))
            };
            found.filter(agree).take(2).collect()
        };
        let [n] = &alike(&key, sans, None)[..] else { return None };
        let (r, k) = (cache.records.get(n)?, cache.keys.get(n)?.first()?);
        alike(k, &r.sans, Some(n)).is_empty().then(|| n.clone())
    }

    /// How the records put until the next [`Locked::flush`] are written:
    /// not flushed to disk one by one where one flush of the file system
    /// stands for all of them (a flush each cost 7 s of the 13 s of a file
    /// of 12,000 games).
    pub(crate) fn deferred(staging: &Staging) -> Staging {
        Staging { fsync: staging.fsync && !FLUSH_ALL, ..staging.clone() }
    }

    /// Flushes to disk the records put with [`Locked::deferred`] staging
    /// (`staging` as it was before), in one step: before the outputs they
    /// announce are placed, and before the file is done.
    pub(crate) fn flush(&self, staging: &Staging) -> io::Result<()> {
        if staging.fsync && FLUSH_ALL {
            sync_file_system(&self.dir)?;
        }
        Ok(())
    }

    /// Writes (or replaces) the record of file `name`.
    pub(crate) fn put(&mut self, name: &str, record: &GameRecord, staging: &Staging) -> io::Result<()> {
        self.journal(name)?;
        let mut text = serde_json::to_vec_pretty(record).map_err(io::Error::other)?;
        text.push(b'\n');
        replace_staged(&self.dir.join(name), &text, staging)?;
        self.cache.insert(name, record.clone());
        Ok(())
    }

    /// Removes the pending records of the file dropped as `dropped` with
    /// bytes that hash to `hash`: an attempt that ended in a panic (the file
    /// rejected) leaves none for its game's other copy to wait on forever.
    /// Returns how many there were.
    pub(crate) fn forget_pending(&mut self, dropped: &str, hash: &str, staging: &Staging) -> io::Result<usize> {
        let mine = |r: &GameRecord| r.pending && r.sheets.iter().any(|s| s.dropped == dropped && s.hash == hash);
        let names: Vec<String> = self.names().filter(|(_, r)| mine(r)).map(|(n, _)| n.to_string()).collect();
        for n in &names {
            self.remove(n, staging)?;
        }
        Ok(names.len())
    }

    /// Removes the record of file `name` (none there counts as done).
    pub(crate) fn remove(&mut self, name: &str, _staging: &Staging) -> io::Result<()> {
        if !self.cache.records.contains_key(name) {
            return Ok(());
        }
        self.journal(name)?;
        match fs::remove_file(self.dir.join(name)) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
            _ => {}
        }
        self.cache.take(name);
        Ok(())
    }
}

/// Whether one call flushes every file of a file system to disk.
const FLUSH_ALL: bool = cfg!(all(target_os = "linux", target_env = "gnu"));

/// Flushes every file of the file system `dir` is on to disk (`syncfs`).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn sync_file_system(dir: &Path) -> io::Result<()> {
    use std::os::fd::AsRawFd;
    let f = File::open(dir)?;
    // SAFETY: `syncfs` reads nothing but the open descriptor it is given.
    match unsafe { libc::syncfs(f.as_raw_fd()) } {
        0 => Ok(()),
        _ => Err(io::Error::last_os_error()),
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn sync_file_system(_dir: &Path) -> io::Result<()> {
    Ok(())
}

/// The record file's name for sheet `index` of a file dropped as `dropped`
/// with these bytes: the same on every redo.
pub(crate) fn record_name(dropped: &str, hash: &str, index: usize) -> String {
    format!("{}.json", self::hash(format!("{dropped}\0{hash}\0{index}").as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sheet(round: &str, board: &str, white: &str) -> Sheet {
        let mut s = Sheet::default();
        s.set_header("Event", "Open");
        s.set_header("Round", round);
        s.set_header("Board", board);
        s.set_header("White", white);
        s.set_header("Black", "Negro");
        s
    }

    fn record(s: &Sheet, dropped: &str, pending: bool) -> GameRecord {
        GameRecord {
            sheets: vec![SheetRecord {
                dropped: dropped.into(),
                archived: dropped.into(),
                index: 0,
                hash: hash(dropped.as_bytes()),
                headers: s.headers.clone(),
            }],
            folder: "pgn".into(),
            files: Vec::new(),
            round: None,
            pending,
            board: None,
            result: None,
            notices: Vec::new(),
            sans: Vec::new(),
        }
    }

    #[test]
    fn a_change_by_another_daemon_is_seen_and_one_of_its_own_kept() {
        let state = tempfile::tempdir().unwrap();
        let (one, two) = (Games::new(state.path()), Games::new(state.path()));
        let s = Staging::beside(false);
        let a = sheet("3", "7", "Ana");
        one.lock().unwrap().put("a.json", &record(&a, "w.txt", false), &s).unwrap();
        assert_eq!(two.lock().unwrap().known(&a, "b.txt", "x", 0, None), Known::Partner("a.json".into()));
        two.lock().unwrap().remove("a.json", &s).unwrap();
        assert_eq!(one.lock().unwrap().known(&a, "b.txt", "x", 0, None), Known::New, "removed by the other");
        // The journal removed and begun again by the other: read from its start.
        one.lock().unwrap().put("c.json", &record(&sheet("4", "1", "Eva"), "c.txt", false), &s).unwrap();
        fs::remove_file(state.path().join("games.log")).unwrap();
        let mut locked = two.lock().unwrap();
        locked.put("d.json", &record(&sheet("4", "2", "Rosa"), "d.txt", false), &s).unwrap();
        locked.put("e.json", &record(&sheet("4", "3", "Luis"), "e.txt", false), &s).unwrap();
        drop(locked);
        let names: Vec<String> = one.lock().unwrap().names().map(|(n, _)| n.to_string()).collect();
        assert_eq!(names, ["c.json", "d.json", "e.json"]);
    }

    #[test]
    fn a_sheet_finds_its_partner_a_third_copy_and_itself() {
        let state = tempfile::tempdir().unwrap();
        let games = Games::new(state.path());
        let s = Staging::beside(false);
        let a = sheet("3", "7", "Ana");
        let mut locked = games.lock().unwrap();
        assert_eq!(locked.known(&a, "w.txt", &hash(b"w.txt"), 0, None), Known::New);
        locked.put("a.json", &record(&a, "w.txt", false), &s).unwrap();
        drop(locked);
        let mut locked = games.lock().unwrap();
        assert_eq!(locked.known(&a, "w.txt", &hash(b"w.txt"), 0, None), Known::Done("a.json".into()), "itself");
        let b = sheet("3", "7", "ana");
        assert_eq!(locked.known(&b, "b.txt", "x", 0, None), Known::Partner("a.json".into()));
        assert_eq!(locked.known(&b, "w.txt", "x", 0, None), Known::New, "the same name again: a correction");
        assert_eq!(locked.known(&sheet("4", "7", "Ana"), "b.txt", "x", 0, None), Known::New, "another round");
        drop(locked);
        let mut locked = games.lock().unwrap();
        let mut both = record(&a, "w.txt", false);
        both.sheets.push(SheetRecord { dropped: "b.txt".into(), ..both.sheets[0].clone() });
        locked.put("a.json", &both, &s).unwrap();
        assert_eq!(locked.known(&b, "c.txt", "y", 0, None), Known::Third("a.json".into()));
        assert_eq!(locked.known(&b, "b.txt", "y", 0, None), Known::Partner("a.json".into()), "one copy typed again");
        locked.put("p.json", &record(&sheet("5", "1", "Cris"), "p.txt", true), &s).unwrap();
        assert_eq!(locked.known(&sheet("5", "1", "Cris"), "q.txt", "z", 0, None), Known::Wait);
        assert_eq!(locked.known(&sheet("5", "1", "Cris"), "p.txt", &hash(b"p.txt"), 0, None), Known::New, "its own");
        // The attempt at p.txt ended in a panic: its pending record goes, and
        // the other copy is read, not made to wait.
        assert_eq!(locked.forget_pending("p.txt", &hash(b"p.txt"), &s).unwrap(), 1);
        assert_eq!(locked.known(&sheet("5", "1", "Cris"), "q.txt", "z", 0, None), Known::New);
        assert_eq!(locked.forget_pending("w.txt", &hash(b"w.txt"), &s).unwrap(), 0, "a published game stays");
        assert!(locked.get("a.json").is_some());
    }
}
