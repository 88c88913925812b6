//! The daemon's record of the games it published: for each game, the sheets
//! it was read from (the name each was dropped under, its name in archive/,
//! its headers) and the files it was put in. A sheet that arrives later finds
//! here the other copy of its game, read alone until then, and the outputs
//! the game read from both copies replaces.
//!
//! The records live in one SQLite database, `<state>/games.db`, with the
//! indexes that find a sheet's partner: each sheet's file (its bytes' hash
//! and place), the copies' blocks (its round and board, its players' names,
//! keyed by the pairings in force), the runs of moves of a game read alone,
//! and the round and board of each game published. Nothing of them is held
//! in memory: a daemon's memory does not grow with the games it published,
//! and every daemon on one inbox sees every other's change at once. A change
//! of a record, with its indexes, is one transaction: whole or not at all,
//! whatever the moment of a kill or a panic.
//!
//! Every look and every change is made under one lock, `<state>/games.lock`,
//! held by one worker of one daemon at a time (like the round file's): the
//! look for a partner, the outputs and the record are one step for every
//! daemon on the inbox.
//!
//! A record is written *pending* before the game's outputs, and made final
//! after them. A pending record another daemon left (it was killed between
//! the two) tells a sheet of the same game to wait: the killed daemon's file
//! is still claimed and is done again (its outputs found already written),
//! after which the sheet finds the game's final record.

use std::collections::BTreeSet;
use std::fs::{self, File, OpenOptions};
use std::hash::{Hash, Hasher};
use std::io;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

use rusqlite::{Connection, OptionalExtension, params};
use serde::{Deserialize, Serialize};

use crate::cost::{MOST_COPY_CANDIDATES, SAME_GAME_PLIES};
use crate::emit::file::Staging;
use crate::pairing::Tournament;
use crate::pairing::matching::keyed;
use crate::reconstruct::by_moves::{same_game_by_moves, windows};
use crate::reconstruct::copies::CopyKey;
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

/// The headers a sheet is told among the records by (see [`CopyKey`] and
/// the pairings' [`keyed`]): the index keeps these, not the whole sheet.
const KEY_HEADERS: [&str; 9] = ["Event", "Round", "Board", "White", "Black", "Result", "FEN", "SetUp", "Variant"];

/// Which version of the index's numbers a database holds: a build that
/// numbers blocks or runs of moves otherwise files them again.
const INDEX_VERSION: i64 = 1;

/// The index of blocks is keyed by no known pairings (a record put by a
/// daemon with other pairings): filed again at the next look.
const UNKEYED: i64 = i64::MIN;

const SCHEMA: &str = "
    CREATE TABLE IF NOT EXISTS record (
        name TEXT PRIMARY KEY,
        stamp INTEGER NOT NULL UNIQUE,
        pending INTEGER NOT NULL,
        sheets INTEGER NOT NULL,
        two_copies INTEGER NOT NULL,
        folder TEXT NOT NULL,
        rounds TEXT NOT NULL,
        heads TEXT NOT NULL,
        keyed TEXT NOT NULL,
        body TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS record_pending ON record(pending, sheets);
    CREATE TABLE IF NOT EXISTS sheet_at (
        hash TEXT NOT NULL, idx INTEGER NOT NULL, stamp INTEGER NOT NULL,
        PRIMARY KEY (hash, idx, stamp)) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS sheet_at_stamp ON sheet_at(stamp);
    CREATE TABLE IF NOT EXISTS board_at (
        round INTEGER NOT NULL, board INTEGER NOT NULL, stamp INTEGER NOT NULL, sheets INTEGER NOT NULL,
        PRIMARY KEY (round, board, stamp)) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS board_at_stamp ON board_at(stamp);
    CREATE TABLE IF NOT EXISTS block_at (
        block INTEGER NOT NULL, stamp INTEGER NOT NULL,
        PRIMARY KEY (block, stamp)) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS block_at_stamp ON block_at(stamp);
    CREATE TABLE IF NOT EXISTS window_at (
        window INTEGER NOT NULL, stamp INTEGER NOT NULL,
        PRIMARY KEY (window, stamp)) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS window_at_stamp ON window_at(stamp);
    CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
";

/// A sheet of a record as the index tells it: its file and its key headers.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Head {
    dropped: String,
    hash: String,
    headers: Vec<(String, String)>,
}

/// The headers of [`KEY_HEADERS`] among `headers`.
fn key_headers(headers: &[(String, String)]) -> Vec<(String, String)> {
    let key = |k: &str| KEY_HEADERS.iter().any(|h| h.eq_ignore_ascii_case(k));
    headers.iter().filter(|(k, _)| key(k)).cloned().collect()
}

impl Head {
    fn of(s: &SheetRecord) -> Head {
        Head { dropped: s.dropped.clone(), hash: s.hash.clone(), headers: key_headers(&s.headers) }
    }

    fn sheet(&self) -> Sheet {
        Sheet { headers: self.headers.clone(), ..Sheet::default() }
    }

    fn of_file(&self, (dropped, hash): (&str, &str)) -> bool {
        self.dropped == dropped || self.hash == hash
    }
}

/// What the index holds of a record: enough to tell whether it is a copy of
/// a sheet's game without reading the record whole.
#[derive(Debug)]
struct Indexed {
    pending: bool,
    heads: Vec<Head>,
    /// Each sheet's key headers with the pairings' tags ([`keyed`]).
    keyed: Vec<CopyKey>,
}

fn sql(e: rusqlite::Error) -> io::Error {
    io::Error::other(e)
}

/// Runs one statement, prepared once per connection.
fn run(conn: &Connection, statement: &str, values: impl rusqlite::Params) -> io::Result<usize> {
    conn.prepare_cached(statement).and_then(|mut st| st.execute(values)).map_err(sql)
}

fn json(e: serde_json::Error) -> io::Error {
    io::Error::other(e)
}

/// The records of a daemon's state folder, in its database: opened at the
/// first look.
#[derive(Debug)]
pub(crate) struct Games {
    state: PathBuf,
    lock: PathBuf,
    held: Mutex<Option<Held>>,
}

/// A daemon's connection to the records, and the pairings it last keyed
/// them by (held so that a load of other pairings is never taken for them).
struct Held {
    conn: Connection,
    /// The state folder, whose file system a flush flushes.
    dir: PathBuf,
    keyed_with: Option<(Option<Arc<Tournament>>, i64)>,
}

impl std::fmt::Debug for Held {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Held").finish_non_exhaustive()
    }
}

/// The records, read under the lock, which is held as long as this is.
pub(crate) struct Locked<'g> {
    held: MutexGuard<'g, Option<Held>>,
    changes: u64,
    _lock: File,
}

impl Games {
    /// The records under `state`.
    pub(crate) fn new(state: &Path) -> Games {
        Games { state: state.to_path_buf(), lock: state.join("games.lock"), held: Mutex::new(None) }
    }

    /// Takes the lock (the workers of this daemon take turns on the
    /// connection first).
    pub(crate) fn lock(&self) -> io::Result<Locked<'_>> {
        // A worker that panicked while holding the connection left no
        // transaction open: each change is one, rolled back when dropped.
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        super::folders::private_folder(&self.state)?;
        let lock = OpenOptions::new().create(true).truncate(false).write(true).open(&self.lock)?;
        lock.lock()?;
        if held.is_none() {
            *held = Some(Held { conn: open(&self.state)?, dir: self.state.clone(), keyed_with: None });
        }
        let conn = &held.as_ref().expect("opened above").conn;
        if !conn.is_autocommit() {
            // Left open by a worker whose end of it failed.
            conn.execute_batch("ROLLBACK").map_err(sql)?;
        }
        conn.execute_batch("BEGIN").map_err(sql)?;
        let mut locked = Locked { held, changes: 0, _lock: lock };
        locked.changes = locked.meta("changes")?.unwrap_or(0) as u64;
        Ok(locked)
    }
}

/// The database of `state`, made if it is not there: records an older
/// version kept one file each (`games/`, with its journal) are moved in.
fn open(state: &Path) -> io::Result<Connection> {
    let conn = Connection::open(state.join("games.db")).map_err(sql)?;
    conn.busy_timeout(std::time::Duration::from_secs(60)).map_err(sql)?;
    conn.pragma_update(None, "journal_mode", "WAL").map_err(sql)?;
    // Consistent through a power cut; a change is on disk at the next
    // flush ([`Locked::flush`]), or at once where it is put with `fsync`.
    conn.pragma_update(None, "synchronous", "NORMAL").map_err(sql)?;
    // 8 MB of pages: a daemon's memory stays bounded, and the indexes'
    // pages a look goes through are seldom read from the file again.
    conn.pragma_update(None, "cache_size", -8000).map_err(sql)?;
    conn.execute_batch(SCHEMA).map_err(sql)?;
    let version: Option<i64> =
        conn.query_row("SELECT value FROM meta WHERE key = 'version'", [], |r| r.get(0)).optional().map_err(sql)?;
    if version != Some(INDEX_VERSION) {
        set_meta(&conn, "keyed_with", UNKEYED)?;
        set_meta(&conn, "version", INDEX_VERSION)?;
    }
    let mut held = Held { conn, dir: state.to_path_buf(), keyed_with: None };
    move_in_files(&mut held, state)?;
    Ok(held.conn)
}

/// Moves the records kept one file each in `<state>/games/` into the
/// database, then removes them and their journal.
fn move_in_files(held: &mut Held, state: &Path) -> io::Result<()> {
    let dir = state.join("games");
    let entries = match fs::read_dir(&dir) {
        Ok(e) => e,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
    };
    let mut records = Vec::new();
    for entry in entries {
        let name = entry?.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') || !name.ends_with(".json") {
            continue;
        }
        match serde_json::from_slice::<GameRecord>(&fs::read(dir.join(&name))?) {
            Ok(r) => records.push((name, r)),
            Err(e) => {
                tracing::warn!(record = %dir.join(&name).display(), error = %e, "an unreadable game record is left out")
            }
        }
    }
    let tx = held.conn.transaction().map_err(sql)?;
    let mut changes = meta_of(&tx, "changes")?.unwrap_or(0);
    for (name, r) in &records {
        changes = insert(&tx, name, r, changes, None)?;
    }
    set_meta(&tx, "changes", changes)?;
    set_meta(&tx, "keyed_with", UNKEYED)?;
    tx.commit().map_err(sql)?;
    tracing::info!(records = records.len(), "game records moved into games.db");
    fs::remove_dir_all(&dir)?;
    match fs::remove_file(state.join("games.log")) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

fn meta_of(conn: &Connection, key: &str) -> io::Result<Option<i64>> {
    conn.prepare_cached("SELECT value FROM meta WHERE key = ?1")
        .and_then(|mut st| st.query_row([key], |r| r.get(0)).optional())
        .map_err(sql)
}

fn set_meta(conn: &Connection, key: &str, value: i64) -> io::Result<()> {
    run(conn, "INSERT OR REPLACE INTO meta VALUES (?1, ?2)", params![key, value]).map(drop)
}

/// A number that stands for `pairings` (none, or a TRF's): the same for
/// the same pairings in every daemon of this build.
fn fingerprint(pairings: Option<&Tournament>) -> i64 {
    let mut h = rustc_hash::FxHasher::default();
    (INDEX_VERSION, env!("CARGO_PKG_VERSION")).hash(&mut h);
    // What a sheet's keyed headers depend on: the event's name, the boards
    // and the players' names; never their points or ranks, so that a TRF
    // dropped again with new points keeps the index.
    if let Some(t) = pairings {
        t.name.hash(&mut h);
        for p in &t.pairings {
            (p.round, p.board, p.white, p.black, p.forfeit, format!("{:?}", p.result)).hash(&mut h);
        }
        for p in &t.players {
            (p.start, &p.name).hash(&mut h);
        }
    }
    // Never the mark of no known pairings.
    (h.finish() as i64).max(UNKEYED + 1)
}

/// Whether a record is filed by its moves: a game of one sheet, published.
fn by_moves(r: &GameRecord) -> bool {
    !r.pending && r.sheets.len() == 1 && r.sans.len() >= SAME_GAME_PLIES
}

/// Puts record `name` in, filed under the change after `changes` (which it
/// returns), its blocks keyed by `pairings` where given (else left for the
/// next look to file). The caller has taken out the one it replaces.
fn insert(
    conn: &Connection,
    name: &str,
    record: &GameRecord,
    changes: i64,
    pairings: Option<Option<&Tournament>>,
) -> io::Result<i64> {
    let stamp = changes + 1;
    let heads: Vec<Head> = record.sheets.iter().map(Head::of).collect();
    let keyed_heads: Vec<Vec<(String, String)>> = match pairings {
        Some(p) => heads.iter().map(|h| key_headers(&keyed(&h.sheet(), p).headers)).collect(),
        None => Vec::new(),
    };
    run(
        conn,
        "INSERT INTO record VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
        params![
            name,
            stamp,
            record.pending,
            record.sheets.len() as i64,
            record.two_copies(),
            record.folder,
            rounds_of(&keyed_heads),
            serde_json::to_string(&heads).map_err(json)?,
            serde_json::to_string(&keyed_heads).map_err(json)?,
            serde_json::to_string(record).map_err(json)?,
        ],
    )?;
    for s in &record.sheets {
        run(conn, "INSERT OR IGNORE INTO sheet_at VALUES (?1, ?2, ?3)", params![s.hash, s.index as i64, stamp])?;
    }
    if !record.pending
        && let Some((round, board)) = record.board
    {
        run(
            conn,
            "INSERT INTO board_at VALUES (?1, ?2, ?3, ?4)",
            params![round, board, stamp, record.sheets.len() as i64],
        )?;
    }
    if pairings.is_some() {
        file_blocks(conn, stamp, &keyed_heads)?;
    }
    if by_moves(record) {
        for w in windows(&record.sans) {
            run(conn, "INSERT OR IGNORE INTO window_at VALUES (?1, ?2)", params![w as i64, stamp])?;
        }
    }
    Ok(stamp)
}

/// The rounds a record's sheets give, keyed (`keyed_heads`), as the index
/// keeps them: `|3|` for round 3; empty where a sheet gives none or the
/// sheets are not keyed yet (a copy of any round).
fn rounds_of(keyed_heads: &[Vec<(String, String)>]) -> String {
    let mut out = String::from("|");
    for h in keyed_heads {
        let key = CopyKey::of(&Sheet { headers: h.clone(), ..Sheet::default() });
        let Some(r) = key.round() else { return String::new() };
        out.push_str(r);
        out.push('|');
    }
    if keyed_heads.is_empty() { String::new() } else { out }
}

/// Whether a record whose sheets give `rounds` ([`rounds_of`]) may be a
/// copy of a sheet keyed as `key`: no two rounds given apart.
fn may_share_round(rounds: &str, key: &CopyKey) -> bool {
    match key.round() {
        Some(r) if !rounds.is_empty() => rounds.contains(&format!("|{r}|")),
        _ => true,
    }
}

/// Files the record of `stamp` under the blocks of its sheets' keyed headers.
fn file_blocks(conn: &Connection, stamp: i64, keyed_heads: &[Vec<(String, String)>]) -> io::Result<()> {
    let mut blocks = BTreeSet::new();
    for h in keyed_heads {
        let key = CopyKey::of(&Sheet { headers: h.clone(), ..Sheet::default() });
        blocks.extend(key.block_numbers());
    }
    let mut put = conn.prepare_cached("INSERT INTO block_at VALUES (?1, ?2)").map_err(sql)?;
    for b in blocks {
        put.execute(params![b, stamp]).map_err(sql)?;
    }
    Ok(())
}

/// Takes record `name` and its index entries out; whether there was one.
fn take(conn: &Connection, name: &str) -> io::Result<bool> {
    let stamp: Option<i64> = conn
        .prepare_cached("SELECT stamp FROM record WHERE name = ?1")
        .and_then(|mut st| st.query_row([name], |r| r.get(0)).optional())
        .map_err(sql)?;
    let Some(stamp) = stamp else { return Ok(false) };
    for table in ["sheet_at", "board_at", "block_at", "window_at", "record"] {
        run(conn, &format!("DELETE FROM {table} WHERE stamp = ?1"), [stamp])?;
    }
    Ok(true)
}

/// The lock's read of the database ends with it: committed (it holds no
/// change but those already committed), or rolled back where a panic
/// unwinds through it.
impl Drop for Locked<'_> {
    fn drop(&mut self) {
        if let Some(held) = self.held.as_ref() {
            let end = if std::thread::panicking() { "ROLLBACK" } else { "COMMIT" };
            if let Err(e) = held.conn.execute_batch(end) {
                tracing::warn!(error = %e, "cannot end the read of the game records");
            }
        }
    }
}

/// Flushes the database's write-ahead log (where every change is written
/// first) to disk.
fn sync_log(state: &Path) -> io::Result<()> {
    match File::open(state.join("games.db-wal")) {
        Ok(f) => f.sync_data(),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    }
}

/// Which records [`Locked::each`] goes through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Which {
    Published,
    Pending,
}

impl Locked<'_> {
    fn conn(&self) -> &Connection {
        &self.held.as_ref().expect("opened by lock").conn
    }

    fn meta(&self, key: &str) -> io::Result<Option<i64>> {
        meta_of(self.conn(), key)
    }

    /// The names of the published records, and of those of one sheet.
    pub(crate) fn published(&self, lone: bool) -> io::Result<Vec<String>> {
        let q = if lone {
            "SELECT name FROM record WHERE pending = 0 AND sheets = 1 ORDER BY name"
        } else {
            "SELECT name FROM record WHERE pending = 0 ORDER BY name"
        };
        let mut st = self.conn().prepare(q).map_err(sql)?;
        st.query_map([], |r| r.get(0)).map_err(sql)?.collect::<Result<_, _>>().map_err(sql)
    }

    /// Goes through every record of `which` (each read whole), in the order
    /// of their names, until `f` breaks.
    pub(crate) fn each(&self, which: Which, mut f: impl FnMut(&str, GameRecord) -> ControlFlow<()>) -> io::Result<()> {
        let mut st =
            self.conn().prepare("SELECT name, body FROM record WHERE pending = ?1 ORDER BY name").map_err(sql)?;
        let mut rows = st.query([which == Which::Pending]).map_err(sql)?;
        while let Some(row) = rows.next().map_err(sql)? {
            let (name, body): (String, String) = (row.get(0).map_err(sql)?, row.get(1).map_err(sql)?);
            let Some(record) = parsed(&name, &body) else { continue };
            if f(&name, record).is_break() {
                break;
            }
        }
        Ok(())
    }

    /// The folder of each of the published records named.
    pub(crate) fn folders(&self, names: &[&str]) -> io::Result<Vec<String>> {
        let mut st =
            self.conn().prepare_cached("SELECT folder FROM record WHERE name = ?1 AND pending = 0").map_err(sql)?;
        let mut out = Vec::new();
        for n in names {
            if let Some(f) = st.query_row([n], |r| r.get(0)).optional().map_err(sql)? {
                out.push(f);
            }
        }
        Ok(out)
    }

    /// Every published record's name with the change that last put it in
    /// ([`Locked::changes`]): a record whose stamp is the same is the same.
    #[cfg(feature = "desk")]
    pub(crate) fn stamps(&self) -> io::Result<Vec<(String, u64)>> {
        let mut st = self.conn().prepare("SELECT name, stamp FROM record WHERE pending = 0").map_err(sql)?;
        let rows = st.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)? as u64))).map_err(sql)?;
        rows.collect::<Result<_, _>>().map_err(sql)
    }

    /// For each board of round `round` a published game is on, the most
    /// sheets such a game is read from.
    pub(crate) fn copies_in(&self, round: u32) -> io::Result<std::collections::HashMap<u32, usize>> {
        let mut st = self
            .conn()
            .prepare_cached("SELECT board, MAX(sheets) FROM board_at WHERE round = ?1 GROUP BY board")
            .map_err(sql)?;
        let rows = st.query_map([round], |r| Ok((r.get::<_, u32>(0)?, r.get::<_, i64>(1)? as usize))).map_err(sql)?;
        rows.collect::<Result<_, _>>().map_err(sql)
    }

    /// Whether some published game is read from two players' copies.
    pub(crate) fn any_two_copies(&self) -> io::Result<bool> {
        self.conn()
            .query_row("SELECT EXISTS (SELECT 1 FROM record WHERE two_copies = 1 AND pending = 0)", [], |r| r.get(0))
            .map_err(sql)
    }

    /// How many changes the records have seen so far: while it stays the
    /// same, so do they.
    pub(crate) fn changes(&self) -> u64 {
        self.changes
    }

    /// The record in the file `name`, whole.
    pub(crate) fn get(&self, name: &str) -> Option<GameRecord> {
        let body: Option<String> = self
            .conn()
            .prepare_cached("SELECT body FROM record WHERE name = ?1")
            .and_then(|mut st| st.query_row([name], |r| r.get(0)).optional())
            .ok()
            .flatten();
        parsed(name, &body?)
    }

    /// What the index holds of record `name`, its sheets keyed by the
    /// pairings the index is keyed by.
    fn indexed(&self, name: &str) -> io::Result<Option<Indexed>> {
        let row: Option<(bool, String, String)> = self
            .conn()
            .prepare_cached("SELECT pending, heads, keyed FROM record WHERE name = ?1")
            .and_then(|mut st| st.query_row([name], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?))).optional())
            .map_err(sql)?;
        let Some((pending, heads, keyed_heads)) = row else { return Ok(None) };
        let heads: Vec<Head> = serde_json::from_str(&heads).map_err(json)?;
        let keyed_heads: Vec<Vec<(String, String)>> = serde_json::from_str(&keyed_heads).map_err(json)?;
        let keyed =
            keyed_heads.into_iter().map(|headers| CopyKey::of(&Sheet { headers, ..Sheet::default() })).collect();
        Ok(Some(Indexed { pending, heads, keyed }))
    }

    /// The names of the records filed under `keys` in `table` (its column
    /// `column`): at most [`MOST_COPY_CANDIDATES`] of each key, the first
    /// filed; in the order of their names. Of those, only the ones that may
    /// share a round with `key` (told without reading them).
    fn filed_under(&self, table: &str, column: &str, keys: &[i64], key: &CopyKey) -> io::Result<Vec<String>> {
        let q = format!(
            "SELECT r.name, r.rounds FROM (SELECT stamp FROM {table} WHERE {column} = ?1 ORDER BY stamp LIMIT ?2) \
             AS f JOIN record AS r ON r.stamp = f.stamp"
        );
        let mut st = self.conn().prepare_cached(&q).map_err(sql)?;
        let mut out = Vec::new();
        for k in keys {
            let rows = st
                .query_map(params![k, MOST_COPY_CANDIDATES as i64], |r| {
                    Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
                })
                .map_err(sql)?;
            for row in rows {
                let (n, rounds) = row.map_err(sql)?;
                if may_share_round(&rounds, key) {
                    out.push(n);
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        Ok(out)
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
    ) -> io::Result<Known> {
        let done: Option<String> = self
            .conn()
            .prepare_cached(
                "SELECT r.name FROM sheet_at AS s JOIN record AS r ON r.stamp = s.stamp \
                 WHERE s.hash = ?1 AND s.idx = ?2 AND r.pending = 0 ORDER BY r.name LIMIT 1",
            )
            .and_then(|mut st| st.query_row(params![hash, index as i64], |r| r.get(0)).optional())
            .map_err(sql)?;
        if let Some(n) = done {
            return Ok(Known::Done(n));
        }
        let key = keyed(sheet, pairings.map(|t| &**t));
        let found = self.copies_of(&key, pairings, (dropped, hash))?;
        let mut known = Known::New;
        for n in found {
            let Some(r) = self.get(&n) else { continue };
            let mine = r.pending && r.sheets.iter().any(|s| s.is(hash, index) && s.dropped == dropped);
            if mine {
                continue;
            }
            if r.pending {
                return Ok(Known::Wait);
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
        Ok(known)
    }

    /// Keys the index's blocks by `pairings`, where they are keyed by
    /// others: once for each load of a TRF, not for each sheet.
    fn key_with(&mut self, pairings: Option<&Arc<Tournament>>) -> io::Result<()> {
        let held = self.held.as_mut().expect("opened by lock");
        let known = match (&held.keyed_with, pairings) {
            (Some((Some(a), fp)), Some(b)) if Arc::ptr_eq(a, b) => Some(*fp),
            (Some((None, fp)), None) => Some(*fp),
            _ => None,
        };
        let fp = known.unwrap_or_else(|| fingerprint(pairings.map(|t| &**t)));
        held.keyed_with = Some((pairings.cloned(), fp));
        if self.meta("keyed_with")? == Some(fp) {
            return Ok(());
        }
        self.change(false, |conn| {
            run(conn, "DELETE FROM block_at", [])?;
            let rows: Vec<(i64, String)> = {
                let mut st = conn.prepare("SELECT stamp, heads FROM record").map_err(sql)?;
                st.query_map([], |r| Ok((r.get(0)?, r.get(1)?))).map_err(sql)?.collect::<Result<_, _>>().map_err(sql)?
            };
            for (stamp, heads) in rows {
                let heads: Vec<Head> = serde_json::from_str(&heads).map_err(json)?;
                let keyed_heads: Vec<Vec<(String, String)>> =
                    heads.iter().map(|h| key_headers(&keyed(&h.sheet(), pairings.map(|t| &**t)).headers)).collect();
                let text = serde_json::to_string(&keyed_heads).map_err(json)?;
                let rounds = rounds_of(&keyed_heads);
                run(conn, "UPDATE record SET keyed = ?1, rounds = ?2 WHERE stamp = ?3", params![text, rounds, stamp])?;
                file_blocks(conn, stamp, &keyed_heads)?;
            }
            set_meta(conn, "keyed_with", fp)
        })
    }

    /// Makes the changes `f` writes one step: committed whole (and, where
    /// `fsync`, on disk) or rolled back whole. Between changes the looks of
    /// one lock share one read of the database.
    fn change<T>(&mut self, fsync: bool, f: impl FnOnce(&Connection) -> io::Result<T>) -> io::Result<T> {
        let held = self.held.as_mut().expect("opened by lock");
        match f(&held.conn) {
            Ok(v) => {
                held.conn.execute_batch("COMMIT").map_err(sql)?;
                if fsync {
                    sync_log(&held.dir)?;
                }
                held.conn.execute_batch("BEGIN").map_err(sql)?;
                Ok(v)
            }
            Err(e) => {
                held.conn.execute_batch("ROLLBACK; BEGIN").map_err(sql)?;
                Err(e)
            }
        }
    }

    /// The records whose game the sheet keyed as `key` is a copy of, as
    /// `convert` groups sheets: the same round and players (or board), the
    /// pairings' tags standing for what a sheet does not write; else, where
    /// one of the two gives no round, the one game read alone so far of the
    /// same two players, from another file than `file` (the name it was
    /// dropped under, its bytes' hash): two sheets of one file with the same
    /// players and no round are two games. Found through the copies' index.
    fn copies_of(
        &mut self,
        key: &Sheet,
        pairings: Option<&Arc<Tournament>>,
        file: (&str, &str),
    ) -> io::Result<Vec<String>> {
        self.key_with(pairings)?;
        let key = CopyKey::of(key);
        let (mut by_headers, mut by_players) = (Vec::new(), Vec::new());
        for n in self.filed_under("block_at", "block", &key.block_numbers(), &key)? {
            let Some(r) = self.indexed(&n)? else { continue };
            if r.keyed.iter().any(|s| s.same_game(&key)) {
                by_headers.push(n);
            } else if r.heads.len() == 1
                && !r.heads.iter().any(|h| h.of_file(file))
                && r.keyed.iter().any(|s| s.same_game_by_players(&key))
            {
                by_players.push(n);
            }
        }
        Ok(if by_headers.is_empty() && by_players.len() == 1 { by_players } else { by_headers })
    }

    /// The other game read alone so far that the record `name`, a game read
    /// alone, is the other copy of by `pairings` (the same pairing, or the
    /// same players where only one game of theirs is possible), where that
    /// game has only `name` as such a copy: copies read before the pairings
    /// came that only the pairings tell are one game's.
    pub(crate) fn lone_partner(&mut self, name: &str, pairings: &Arc<Tournament>) -> io::Result<Option<String>> {
        let partners = |me: &mut Self, n: &str| -> io::Result<Vec<String>> {
            let Some(r) = me.indexed(n)?.filter(|r| !r.pending && r.heads.len() == 1) else { return Ok(Vec::new()) };
            let key = keyed(&r.heads[0].sheet(), Some(&**pairings)).into_owned();
            let found = me.copies_of(&key, Some(pairings), (&r.heads[0].dropped, &r.heads[0].hash))?;
            let mut out = Vec::new();
            for m in found {
                if m != n && me.indexed(&m)?.is_some_and(|r| !r.pending && r.heads.len() == 1) {
                    out.push(m);
                }
            }
            Ok(out)
        };
        Ok(match &partners(self, name)?[..] {
            [other] if partners(self, other)? == [name] => Some(other.clone()),
            _ => None,
        })
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
    ) -> io::Result<Option<String>> {
        if sans.len() < SAME_GAME_PLIES {
            return Ok(None);
        }
        self.key_with(pairings)?;
        let key = CopyKey::of(&keyed(sheet, pairings.map(|t| &**t)));
        let [n] = &self.alike_by_moves(&key, sans, None, file)?[..] else { return Ok(None) };
        let (Some(r), Some(k)) = (self.get(n), self.indexed(n)?) else { return Ok(None) };
        let Some(k) = k.keyed.first() else { return Ok(None) };
        Ok(self.alike_by_moves(k, &r.sans, Some(n), file)?.is_empty().then(|| n.clone()))
    }

    /// The games of one sheet, not `me` nor of `file`, that a sheet keyed
    /// as `key` with moves `sans` is a copy of by its moves: two at most
    /// (two are as many as none to its caller).
    fn alike_by_moves(
        &self,
        key: &CopyKey,
        sans: &[String],
        me: Option<&str>,
        file: (&str, &str),
    ) -> io::Result<Vec<String>> {
        let numbers: Vec<i64> = windows(sans).into_iter().map(|w| w as i64).collect();
        let mut found = Vec::new();
        for n in self.filed_under("window_at", "window", &numbers, key)? {
            if Some(n.as_str()) == me {
                continue;
            }
            let (Some(r), Some(k)) = (self.get(&n), self.indexed(&n)?) else { continue };
            let same_file = r.sheets.iter().any(|s| s.dropped == file.0 || s.hash == file.1);
            if !same_file
                && by_moves(&r)
                && k.keyed.first().is_some_and(|k| same_game_by_moves((k, &r.sans), (key, sans)))
            {
                found.push(n);
                if found.len() > 1 {
                    break;
                }
            }
        }
        Ok(found)
    }

    /// How the records put until the next [`Locked::flush`] are written:
    /// not flushed to disk one by one where one flush of the file system
    /// stands for all of them.
    pub(crate) fn deferred(staging: &Staging) -> Staging {
        Staging { fsync: staging.fsync && !FLUSH_ALL, ..staging.clone() }
    }

    /// Flushes to disk the records put with [`Locked::deferred`] staging
    /// (`staging` as it was before), in one step: before the outputs they
    /// announce are placed, and before the file is done.
    pub(crate) fn flush(&self, staging: &Staging) -> io::Result<()> {
        if staging.fsync && FLUSH_ALL {
            sync_file_system(&self.held.as_ref().expect("opened by lock").dir)?;
        }
        Ok(())
    }

    /// Writes (or replaces) the record of file `name`: one transaction,
    /// flushed to disk at its end where `staging` says so.
    pub(crate) fn put(&mut self, name: &str, record: &GameRecord, staging: &Staging) -> io::Result<()> {
        let fp = self.meta("keyed_with")?;
        let pairings = match &self.held.as_ref().expect("opened by lock").keyed_with {
            Some((p, mine)) if Some(*mine) == fp => Some(p.clone()),
            _ => None,
        };
        let was = self.changes as i64;
        let changes = self.change(staging.fsync, |conn| {
            let changes = was + i64::from(take(conn, name)?);
            let changes = insert(conn, name, record, changes, pairings.as_ref().map(|p| p.as_deref()))?;
            set_meta(conn, "changes", changes)?;
            if pairings.is_none() {
                set_meta(conn, "keyed_with", UNKEYED)?;
            }
            Ok(changes)
        })?;
        self.changes = changes as u64;
        Ok(())
    }

    /// Removes the pending records of the file dropped as `dropped` with
    /// bytes that hash to `hash`: an attempt that ended in a panic (the file
    /// rejected) leaves none for its game's other copy to wait on forever.
    /// Returns how many there were.
    pub(crate) fn forget_pending(&mut self, dropped: &str, hash: &str, staging: &Staging) -> io::Result<usize> {
        let mut names = Vec::new();
        self.each(Which::Pending, |n, r| {
            if r.sheets.iter().any(|s| s.dropped == dropped && s.hash == hash) {
                names.push(n.to_string());
            }
            ControlFlow::Continue(())
        })?;
        for n in &names {
            self.remove(n, staging)?;
        }
        Ok(names.len())
    }

    /// Removes the record of file `name` (none there counts as done).
    pub(crate) fn remove(&mut self, name: &str, staging: &Staging) -> io::Result<()> {
        let was = self.changes as i64;
        let changes = self.change(staging.fsync, |conn| {
            if !take(conn, name)? {
                return Ok(was);
            }
            set_meta(conn, "changes", was + 1)?;
            Ok(was + 1)
        })?;
        self.changes = changes as u64;
        Ok(())
    }
}

/// The record `name` holds as `body`; one that cannot be read is left out,
/// and said.
fn parsed(name: &str, body: &str) -> Option<GameRecord> {
    match serde_json::from_str(body) {
        Ok(r) => Some(r),
        Err(e) => {
            tracing::warn!(record = name, error = %e, "an unreadable game record is left out");
            None
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
        assert_eq!(two.lock().unwrap().known(&a, "b.txt", "x", 0, None).unwrap(), Known::Partner("a.json".into()));
        two.lock().unwrap().remove("a.json", &s).unwrap();
        assert_eq!(one.lock().unwrap().known(&a, "b.txt", "x", 0, None).unwrap(), Known::New, "removed by the other");
        one.lock().unwrap().put("c.json", &record(&sheet("4", "1", "Eva"), "c.txt", false), &s).unwrap();
        let mut locked = two.lock().unwrap();
        locked.put("d.json", &record(&sheet("4", "2", "Rosa"), "d.txt", false), &s).unwrap();
        locked.put("e.json", &record(&sheet("4", "3", "Luis"), "e.txt", false), &s).unwrap();
        drop(locked);
        assert_eq!(one.lock().unwrap().published(false).unwrap(), ["c.json", "d.json", "e.json"]);
    }

    #[test]
    fn the_records_an_older_version_kept_one_file_each_are_moved_in() {
        let state = tempfile::tempdir().unwrap();
        let dir = state.path().join("games");
        fs::create_dir_all(&dir).unwrap();
        let a = sheet("3", "7", "Ana");
        fs::write(dir.join("a.json"), serde_json::to_vec(&record(&a, "w.txt", false)).unwrap()).unwrap();
        fs::write(dir.join("x.json"), b"not a record").unwrap();
        fs::write(state.path().join("games.log"), b"a.json\n").unwrap();
        let games = Games::new(state.path());
        let mut locked = games.lock().unwrap();
        assert_eq!(locked.published(false).unwrap(), ["a.json"], "the unreadable one left out");
        assert_eq!(
            locked.known(&sheet("3", "7", "ana"), "b.txt", "x", 0, None).unwrap(),
            Known::Partner("a.json".into())
        );
        assert!(!dir.exists() && !state.path().join("games.log").exists());
    }

    #[test]
    fn a_sheet_finds_its_partner_a_third_copy_and_itself() {
        let state = tempfile::tempdir().unwrap();
        let games = Games::new(state.path());
        let s = Staging::beside(false);
        let a = sheet("3", "7", "Ana");
        let mut locked = games.lock().unwrap();
        assert_eq!(locked.known(&a, "w.txt", &hash(b"w.txt"), 0, None).unwrap(), Known::New);
        locked.put("a.json", &record(&a, "w.txt", false), &s).unwrap();
        drop(locked);
        let mut locked = games.lock().unwrap();
        assert_eq!(
            locked.known(&a, "w.txt", &hash(b"w.txt"), 0, None).unwrap(),
            Known::Done("a.json".into()),
            "itself"
        );
        let b = sheet("3", "7", "ana");
        assert_eq!(locked.known(&b, "b.txt", "x", 0, None).unwrap(), Known::Partner("a.json".into()));
        assert_eq!(locked.known(&b, "w.txt", "x", 0, None).unwrap(), Known::New, "the same name again: a correction");
        assert_eq!(locked.known(&sheet("4", "7", "Ana"), "b.txt", "x", 0, None).unwrap(), Known::New, "another round");
        drop(locked);
        let mut locked = games.lock().unwrap();
        let mut both = record(&a, "w.txt", false);
        both.sheets.push(SheetRecord { dropped: "b.txt".into(), ..both.sheets[0].clone() });
        locked.put("a.json", &both, &s).unwrap();
        assert_eq!(locked.known(&b, "c.txt", "y", 0, None).unwrap(), Known::Third("a.json".into()));
        assert_eq!(
            locked.known(&b, "b.txt", "y", 0, None).unwrap(),
            Known::Partner("a.json".into()),
            "one copy typed again"
        );
        locked.put("p.json", &record(&sheet("5", "1", "Cris"), "p.txt", true), &s).unwrap();
        assert_eq!(locked.known(&sheet("5", "1", "Cris"), "q.txt", "z", 0, None).unwrap(), Known::Wait);
        assert_eq!(
            locked.known(&sheet("5", "1", "Cris"), "p.txt", &hash(b"p.txt"), 0, None).unwrap(),
            Known::New,
            "its own"
        );
        // The attempt at p.txt ended in a panic: its pending record goes, and
        // the other copy is read, not made to wait.
        assert_eq!(locked.forget_pending("p.txt", &hash(b"p.txt"), &s).unwrap(), 1);
        assert_eq!(locked.known(&sheet("5", "1", "Cris"), "q.txt", "z", 0, None).unwrap(), Known::New);
        assert_eq!(locked.forget_pending("w.txt", &hash(b"w.txt"), &s).unwrap(), 0, "a published game stays");
        assert!(locked.get("a.json").is_some());
    }
}
