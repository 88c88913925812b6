//! One attempt at a file's sheets, read once each: alone, or with the other
//! copy of its game. Publication looks at the records again before it
//! writes, and again if they changed meanwhile (another worker published the
//! other copy); a sheet whose standing did not change keeps its reading.
//!
//! A sheet read with its other copy is read with that one sheet, taken from
//! its file in archive/ (each file read once an attempt, only the sheets
//! needed kept), never with the two files whole: a file of thousands of
//! sheets, each a candidate copy of a game of another big file, costs its
//! own readings, not thousands of readings of both files. The two are read
//! together only where `convert`, given both files, groups them as one game
//! (by their headers or players: the sheets of both files are grouped, none
//! read), or where neither is grouped and their moves found them: the
//! records' index finds candidates, `convert`'s grouping decides. The
//! readings of one file's sheets with their copies are bounded by one
//! budget for the file, and one for each file the copies come from, as
//! `convert` bounds them.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::fs;
use std::io;
use std::sync::Arc;

use tracing::warn;

use crate::convert::{Options, games_together, games_within, grouping_of};
use crate::emit::report::GameReport;
use crate::reconstruct::FileBudget;
use crate::sheet::Sheet;

use super::games::{GameRecord, Known};
use super::kept::kept_for;
use super::outcome::{FileError, ProcessConfig, same_pairings};

/// What the records say of one sheet: its standing, and the record it names.
pub(crate) type Standing = (Known, Option<GameRecord>);

/// A sheet's standing as it can be carried out, and its game report (none
/// for a sheet published already).
/// The report is shared, not copied: the readings kept, the plan and the
/// file's games read alone hold one report of each game.
pub(crate) type Read = (Known, Option<Arc<GameReport>>);

/// The code of the finding of a sheet whose game is not the one its headers
/// pair it with.
const TWO_GAMES: &str = "two-games-one-board";

/// The readings of one attempt at a file.
pub(crate) struct Reading<'a> {
    cfg: &'a ProcessConfig,
    name: &'a str,
    sheets: &'a [Sheet],
    /// The options the readings below were made with: pairings loaded since
    /// make every sheet read again.
    opts: Option<Options>,
    /// The file's games read alone, read once, when one is first needed.
    alone: Option<Vec<Arc<GameReport>>>,
    /// Each sheet's reading, with the standing it was read for (and
    /// whether its moves found it).
    read: HashMap<usize, ((Standing, bool), Read)>,
    /// The other copies' sheets, by their name in archive/ and place in
    /// that file; `None`: gone, or not to be read.
    others: HashMap<(String, usize), Option<Sheet>>,
    /// How `convert` groups this file's sheets with each other file's, by
    /// its archived name.
    grouped: HashMap<String, Grouped>,
    /// The budgets of the readings with other copies: this file's
    /// (`false`), and each other copy's file's (`true`, its archived name).
    budgets: HashMap<(bool, String), FileBudget>,
}

impl<'a> Reading<'a> {
    /// An attempt at the file `name`, read as `sheets`.
    pub(crate) fn new(cfg: &'a ProcessConfig, name: &'a str, sheets: &'a [Sheet]) -> Self {
        Reading {
            cfg,
            name,
            sheets,
            opts: None,
            alone: None,
            read: HashMap::new(),
            others: HashMap::new(),
            grouped: HashMap::new(),
            budgets: HashMap::new(),
        }
    }

    /// Each sheet read as its standing in `plan` says, with `opts`: see
    /// [`Reading::one`]; a standing other than in `by_headers` was found by
    /// the sheet's moves. Sheets whose standing is the one they were read
    /// for are not read again; pairings loaded since make every one read
    /// again.
    pub(crate) fn all(
        &mut self,
        opts: &Options,
        plan: &[Standing],
        by_headers: &[Standing],
    ) -> Result<Vec<Read>, FileError> {
        if !self.opts.as_ref().is_some_and(|o| same_pairings(o, opts)) {
            *self = Reading { opts: Some(opts.clone()), ..Reading::new(self.cfg, self.name, self.sheets) };
        }
        // The other copies named, each of their files read once.
        let mut wanted: BTreeMap<String, BTreeSet<usize>> = BTreeMap::new();
        for (k, standing) in plan.iter().enumerate() {
            if let (Known::Partner(_), Some(r)) = standing
                && let Some(s) = r.other(self.name, k, &self.sheets[k].headers)
                && !self.others.contains_key(&(s.archived.clone(), s.index))
            {
                wanted.entry(s.archived.clone()).or_default().insert(s.index);
            }
        }
        for (archived, indices) in wanted {
            self.load(opts, &archived, &indices)?;
        }
        (0..plan.len()).map(|k| self.one(opts, k, (&plan[k], plan[k] != by_headers[k]))).collect()
    }

    /// Sheet `k`'s game report as its standing says (none for one already
    /// done), and the standing as it can be carried out: a sheet whose other
    /// copy cannot be read again (gone from archive/), or is not grouped
    /// with it, is new.
    fn one(&mut self, opts: &Options, k: usize, (standing, by_moves): (&Standing, bool)) -> Result<Read, FileError> {
        if let Some(((was, moves), read)) = self.read.get(&k)
            && was == standing
            && *moves == by_moves
        {
            return Ok(read.clone());
        }
        let read = match standing {
            (Known::Done(_), _) => (standing.0.clone(), None),
            (Known::Partner(n), Some(r)) => match self.together(opts, k, (n, r), by_moves) {
                Some(g) if g.sheets.is_some() => (standing.0.clone(), Some(Arc::new(g))),
                // Two games: this sheet's own, beside the published one, with
                // the doubt that names it; that game stays where it is.
                Some(g) => (Known::New, Some(Arc::new(g))),
                None => (Known::New, Some(self.alone(opts, k))),
            },
            _ => (standing.0.clone(), Some(self.alone(opts, k))),
        };
        self.read.insert(k, ((standing.clone(), by_moves), read.clone()));
        Ok(read)
    }

    /// Sheet `k`'s game read alone, as `convert` reads the file.
    fn alone(&mut self, opts: &Options, k: usize) -> Arc<GameReport> {
        let (name, sheets) = (self.name, self.sheets);
        let games = self.alone.get_or_insert_with(|| {
            // The sheets as the file was read, not read from its bytes again.
            let sheets: Vec<(usize, Sheet)> = sheets.iter().map(|s| (0, s.clone())).collect();
            games_together(&sheets, &[name], opts, None).0.into_iter().map(Arc::new).collect()
        });
        Arc::clone(&games[k])
    }

    /// Sheet `k` read with its other copy, the sheet of `record` other than
    /// it, from archive/; `None` when that cannot be. Where the two
    /// readings are two games, this sheet's game read alone, with
    /// `two-games-one-board` (its `sheets` is `None`).
    fn together(
        &mut self,
        opts: &Options,
        k: usize,
        (n, record): (&str, &GameRecord),
        by_moves: bool,
    ) -> Option<GameReport> {
        let (name, sheet) = (self.name, &self.sheets[k]);
        let first = record.other(name, k, &sheet.headers)?;
        let other = self.others.get(&(first.archived.clone(), first.index)).cloned().flatten()?;
        if !self.grouped.get(&first.archived).is_some_and(|g| g.joins(k, first.index, by_moves)) {
            return None;
        }
        let names = [first.archived.as_str(), name];
        let files = names.map(str::to_string);
        let pair = vec![(0, other), (1, sheet.clone())];
        // An arbiter's decision on the game stands: applied to the new reading.
        if let Some(d) = kept_for(self.cfg, n) {
            match crate::decision::decided_among(pair.clone(), &names, opts, 1, &d) {
                Ok(decided) => return Some(decided.report).filter(|g| g.sheets.as_ref() == Some(&files)),
                Err(e) => {
                    warn!(file = %name, error = %e, "the arbiter's decision no longer fits the game read with both copies")
                }
            }
        }
        let keys = [(true, files[0].clone()), (false, files[1].clone())];
        let mut budgets = keys.clone().map(|key| self.budgets.remove(&key));
        let (mut games, _) = games_within(&pair, &names, opts, None, &mut budgets);
        for (key, b) in keys.into_iter().zip(budgets) {
            self.budgets.extend(b.map(|b| (key, b)));
        }
        let game = games.swap_remove(1);
        let apart = |g: &GameReport| g.sheets.is_none() && g.findings.iter().any(|f| f.code == TWO_GAMES);
        Some(game).filter(|g| g.sheets.as_ref() == Some(&files) || apart(g))
    }

    /// Sheets `indices` of the file `archived` in archive/, kept in
    /// `others` (the rest of a big file is not held); `None` for each where
    /// the file is gone, or cannot be read as it was.
    fn load(&mut self, opts: &Options, archived: &str, indices: &BTreeSet<usize>) -> Result<(), FileError> {
        let path = self.cfg.folders.archive.join(archived);
        let sheets = match fs::read(&path) {
            Ok(bytes) => match crate::ingest::read_named(archived, &bytes, opts.max_file_bytes) {
                Ok(sheets) => Some(sheets),
                Err(e) => {
                    warn!(file = %self.name, other = %path.display(), error = %e, "the other copy cannot be read again: read alone");
                    None
                }
            },
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                warn!(file = %self.name, other = %path.display(), "the other copy is gone from archive/: read alone");
                None
            }
            Err(e) => return Err(FileError { path, source: e }),
        };
        for &i in indices {
            let s = sheets.as_ref().and_then(|all| all.get(i).cloned());
            self.others.insert((archived.to_string(), i), s);
        }
        if let Some(theirs) = &sheets {
            self.grouped.insert(archived.to_string(), Grouped::of(theirs, self.sheets, opts));
        }
        Ok(())
    }
}

/// How `convert` groups the sheets of two files, theirs and this one's,
/// before reading any ([`grouping_of`]).
struct Grouped {
    /// This file's sheets grouped with one of theirs: by index, theirs.
    with: HashMap<usize, usize>,
    /// The sheets grouped with none: this file's, and theirs.
    lone: [HashSet<usize>; 2],
}

impl Grouped {
    fn of(theirs: &[Sheet], ours: &[Sheet], opts: &Options) -> Grouped {
        let n = theirs.len();
        let sheets: Vec<&Sheet> = theirs.iter().chain(ours).collect();
        let files: Vec<usize> = (0..sheets.len()).map(|i| usize::from(i >= n)).collect();
        let mut out = Grouped { with: HashMap::new(), lone: [HashSet::new(), HashSet::new()] };
        for game in grouping_of(&sheets, &files, opts).games {
            match game[..] {
                [i] if i >= n => drop(out.lone[0].insert(i - n)),
                [i] => drop(out.lone[1].insert(i)),
                [i, j] if i < n && j >= n => drop(out.with.insert(j - n, i)),
                [i, j] if j < n && i >= n => drop(out.with.insert(i - n, j)),
                _ => {}
            }
        }
        out
    }

    /// Whether this file's sheet `k` is read with their sheet `i`: grouped
    /// with it, or, found by their moves, both grouped with none.
    fn joins(&self, k: usize, i: usize, by_moves: bool) -> bool {
        self.with.get(&k) == Some(&i) || (by_moves && self.lone[0].contains(&k) && self.lone[1].contains(&i))
    }
}
