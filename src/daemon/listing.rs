//! The desk's lists: every published game as the queue lists it (its
//! players, round, codes, when it was published), kept in memory. A game is
//! read (its review report, its file's time) once, when its record changes;
//! a page of the queue then reads no file: with tens of thousands of games
//! in review/, each page costs what its 100 rows cost.

use std::collections::{HashMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use crate::decision::Decision;
use crate::emit::report::Status;

use super::games::GameRecord;
use super::kept::{id_of, kept_decisions};
use super::outcome::{FileError, ProcessConfig, io_at};
use super::publish::status_of;

/// One game of the queue.
#[derive(Debug, Clone)]
pub(crate) struct Waiting {
    /// Its id in URLs: the record's name (hex), never a path.
    pub id: String,
    /// Its name in review/ (or pgn/, rejected/): `<name>.pgn`.
    pub name: String,
    pub status: Status,
    pub round: String,
    pub white: String,
    pub black: String,
    /// The codes of its warnings and errors (for review games).
    pub codes: Vec<String>,
    /// When it was last published.
    pub modified: SystemTime,
    /// The files it was read from, as dropped.
    pub sheets: Vec<String>,
    /// Whether an arbiter decided it.
    pub decided: bool,
    /// The codes of the notices it was published with that the arbiter
    /// reads (a validated game's).
    pub notices: Vec<String>,
    /// Read from one copy while the event collects two (some game has two):
    /// the other copy may settle its doubt.
    pub waiting_copy: bool,
    /// Read from two copies with headers of their own (not one copy typed
    /// again): the event collects two copies.
    pub two_copies: bool,
}

/// The lists, brought up to date at each look.
#[derive(Debug, Default)]
pub(crate) struct Listing {
    index: Mutex<Index>,
}

#[derive(Debug, Default)]
struct Index {
    /// The records' change count they were last brought up to ([`super::games::Locked::changes`]).
    seen: Option<u64>,
    /// Each record's game, with the change that put the record in.
    games: HashMap<String, (u64, Waiting)>,
    /// When decisions/ last changed, and the games decided then.
    decisions: Option<Option<SystemTime>>,
    decided: HashSet<String>,
    /// Every game, newest first, as last handed out.
    sorted: Arc<Vec<Waiting>>,
}

impl Listing {
    /// Every published game, newest first. Only the records changed since
    /// the last look are read (every one, the first time).
    pub(crate) fn games(&self, cfg: &ProcessConfig) -> Result<Arc<Vec<Waiting>>, FileError> {
        let mut index = self.index.lock().unwrap_or_else(|e| e.into_inner());
        let decisions_changed = index.decisions_again(&cfg.folders.decisions);
        let changed = {
            let locked = cfg.games.lock().map_err(io_at(&cfg.folders.state))?;
            let now = locked.changes();
            if index.seen == Some(now) {
                None
            } else {
                index.seen = Some(now);
                let live = locked.stamps().map_err(io_at(&cfg.folders.state))?;
                let names: HashSet<&str> = live.iter().map(|(n, _)| n.as_str()).collect();
                index.games.retain(|n, _| names.contains(n.as_str()));
                let fresh = |n: &str, stamp: u64| index.games.get(n).is_some_and(|(s, _)| *s == stamp);
                let stale: Vec<(String, GameRecord, u64)> = live
                    .iter()
                    .filter(|(n, stamp)| !fresh(n, *stamp))
                    .filter_map(|(n, stamp)| Some((n.clone(), locked.get(n)?, *stamp)))
                    .collect();
                Some(stale)
            }
        };
        // The records' files are read without the records' lock.
        let Some(stale) = changed else {
            if decisions_changed {
                index.sort();
            }
            return Ok(index.sorted.clone());
        };
        for (n, r, stamp) in stale {
            let w = waiting(&n, &r);
            index.games.insert(n, (stamp, w));
        }
        index.sort();
        Ok(index.sorted.clone())
    }
}

impl Index {
    /// Reads decisions/ again if it changed since the last look; whether it did.
    fn decisions_again(&mut self, dir: &Path) -> bool {
        let modified = fs::metadata(dir).and_then(|m| m.modified()).ok();
        if self.decisions == Some(modified) {
            return false;
        }
        self.decisions = Some(modified);
        let kept: Vec<(PathBuf, Decision)> = kept_decisions(dir);
        self.decided = kept.into_iter().filter_map(|(_, d)| d.game).collect();
        true
    }

    /// The games in order, each with whether it is decided and waits for
    /// its other copy (which depend on other files and games).
    fn sort(&mut self) {
        // An event that collects one copy per game waits for no other copy.
        let two_copies = self.games.values().any(|(_, g)| g.two_copies);
        let mut all: Vec<Waiting> = self
            .games
            .values()
            .map(|(_, g)| Waiting {
                decided: self.decided.contains(&g.id),
                waiting_copy: two_copies && g.sheets.len() == 1 && g.status == Status::Review,
                ..g.clone()
            })
            .collect();
        all.sort_by(|a, b| b.modified.cmp(&a.modified).then_with(|| a.name.cmp(&b.name)));
        self.sorted = Arc::new(all);
    }
}

/// A review report (`{"file":…, "game":…}`), as much of it as the lists show.
#[derive(Debug, Default, serde::Deserialize)]
struct ReviewFile {
    #[serde(default)]
    game: ReviewGame,
}

#[derive(Debug, Default, serde::Deserialize)]
struct ReviewGame {
    #[serde(default)]
    headers: HashMap<String, serde_json::Value>,
    #[serde(default)]
    findings: Vec<ReviewFinding>,
}

#[derive(Debug, serde::Deserialize)]
struct ReviewFinding {
    code: String,
    severity: String,
}

/// One record as the queue lists it: its headers and codes from its review
/// report where it has one, else from its first sheet.
fn waiting(n: &str, r: &GameRecord) -> Waiting {
    let id = id_of(n).to_string();
    let first = r.files.first();
    let name = first.and_then(|p| p.file_stem()).map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let report = r.files.iter().find(|p| p.extension().is_some_and(|e| e == "json")).and_then(|p| review_json(p));
    let header = |k: &str| -> String {
        let from_report = report.as_ref().and_then(|g| g.headers.get(k)?.as_str().map(str::to_string));
        let from_sheet = || r.sheets.first()?.headers.iter().find(|(h, _)| h == k).map(|(_, v)| v.clone());
        from_report.or_else(from_sheet).unwrap_or_default()
    };
    let codes = report
        .as_ref()
        .map(|g| g.findings.iter().filter(|f| f.severity != "info").map(|f| f.code.clone()).collect())
        .unwrap_or_default();
    let modified =
        first.and_then(|p| fs::metadata(p).ok()).and_then(|m| m.modified().ok()).unwrap_or(SystemTime::UNIX_EPOCH);
    Waiting {
        decided: false,
        id,
        name,
        status: status_of(&r.folder),
        round: header("Round"),
        white: header("White"),
        black: header("Black"),
        codes,
        modified,
        sheets: r.sheets.iter().map(|s| s.dropped.clone()).collect(),
        notices: r.notices.clone(),
        waiting_copy: false,
        two_copies: r.two_copies(),
    }
}

/// The game of a review report.
fn review_json(path: &Path) -> Option<ReviewGame> {
    let file: ReviewFile = serde_json::from_slice(&fs::read(path).ok()?).ok()?;
    Some(file.game)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::daemon::games::SheetRecord;
    use crate::daemon::{DaemonConfig, Folders, process_config};

    fn record(white: &str, folder: &str, pending: bool) -> GameRecord {
        let headers =
            vec![("Round".into(), "2".into()), ("White".into(), white.into()), ("Black".into(), "Eva".into())];
        GameRecord {
            sheets: vec![SheetRecord {
                dropped: format!("{white}.txt"),
                archived: format!("{white}.txt"),
                index: 0,
                hash: "0".into(),
                headers,
            }],
            folder: folder.into(),
            files: Vec::new(),
            round: None,
            pending,
            board: None,
            result: None,
            notices: Vec::new(),
            sans: Vec::new(),
        }
    }

    fn whites(listing: &Listing, cfg: &ProcessConfig) -> Vec<(String, Status)> {
        let mut all: Vec<(String, Status)> =
            listing.games(cfg).unwrap().iter().map(|g| (g.white.clone(), g.status)).collect();
        all.sort_by(|a, b| a.0.cmp(&b.0));
        all
    }

    #[test]
    fn the_lists_follow_a_game_published_moved_and_removed() {
        let root = tempfile::tempdir().unwrap();
        let watch = crate::config::Watch::default();
        let folders = Folders::new(&watch, Some(root.path()));
        let cfg = process_config(&DaemonConfig { folders, options: Default::default(), watch });
        // Another handle on the records: the daemon's workers, beside the desk's.
        let daemon = crate::daemon::games::Games::new(&cfg.folders.state);
        let s = crate::emit::file::Staging::beside(false);
        let listing = Listing::default();
        daemon.lock().unwrap().put("a.json", &record("Ana", "review", false), &s).unwrap();
        daemon.lock().unwrap().put("b.json", &record("Bea", "review", true), &s).unwrap();
        assert_eq!(whites(&listing, &cfg), [("Ana".to_string(), Status::Review)], "a pending game is not listed");
        daemon.lock().unwrap().put("b.json", &record("Bea", "review", false), &s).unwrap();
        daemon.lock().unwrap().put("a.json", &record("Ana", "pgn", false), &s).unwrap();
        let both = [("Ana".to_string(), Status::Validated), ("Bea".to_string(), Status::Review)];
        assert_eq!(whites(&listing, &cfg), both, "published, and moved to pgn/");
        daemon.lock().unwrap().remove("a.json", &s).unwrap();
        assert_eq!(whites(&listing, &cfg), [("Bea".to_string(), Status::Review)], "removed");
    }
}
