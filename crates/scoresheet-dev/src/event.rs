//! A whole event as an organizer collects it, and what came of it: both
//! players' copies of every game of an open built from corpus games, with
//! the event's TRF, written as real events write them, and the folders of a
//! run read back against the true games.
//!
//! The copies ([`crate::pairs::pair_as_written`]) give the round and board,
//! the round alone, or only the players' names (a third each), the names
//! written loosely; the boards written on the sheets are numbered as the
//! organizer's pairing program did (rotated within each round), not in the
//! order the TRF's lines give; and some copies write no result.
//!
//! [`read_back`] finds each game of a run's folders by its moves (the true
//! game sharing the longest opening with it), so names written loosely do
//! not matter, and [`Score`] counts what an organizer checks: every game in
//! one place, none published twice or both published and in review, the
//! round files, games published wrong, games read with both copies.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::corpus::{CorpusGame, read_pgn, replay};
use crate::generate::{Rng, derive_seed};
use crate::pairs::{Written, pair_as_written};
use crate::trf::BuiltTrf;

/// One copy of a game of the event.
#[derive(Debug, Clone)]
pub struct Copy {
    /// Its file name (`g0007-a.txt`).
    pub file: String,
    /// The game it is a copy of (`g0007`).
    pub game: String,
    pub text: String,
    /// The moves it was typed from: the game as far as this copy writes it
    /// (the longer copy's is the game the sheets can give).
    pub sans: Vec<String>,
}

/// How the event is written.
#[derive(Debug, Clone)]
pub struct Spec {
    pub seed: u64,
    /// Faults per move of each copy.
    pub rate: f64,
    /// The share of copies with no result written.
    pub no_result: f64,
    /// Copies as a large open's volunteers type them: names with federation
    /// codes, titles, a slip on each copy, initial and surname swapped
    /// ([`crate::pairs::typed_loosely`]); one copy in 8 games stopping 5 to
    /// 30 moves before the end; and (in [`open_of`] with `replay`) a last
    /// round that pairs the first round's players again.
    pub loose: bool,
}

impl Default for Spec {
    fn default() -> Spec {
        Spec { seed: 7, rate: 0.05, no_result: 0.15, loose: false }
    }
}

/// Mixed into the seed for the draws of which copies write no result.
const RESULT_STREAM: u64 = 0x7265_7375_6C74_5F73;

/// Rounds of an open built by [`open_of`].
pub const ROUNDS: usize = 8;

/// The games as an open of [`ROUNDS`] rounds: each game's moves kept, its
/// players and round given by a round robin of twice as many players as a
/// round has boards (each plays once a round, no two meet twice), the
/// players' names and ratings those of the games' own players.
pub fn open_of(games: &[CorpusGame]) -> Vec<CorpusGame> {
    open_replaying(games, false)
}

/// [`open_of`], where with `replay` the last round pairs the first round's
/// players again, colours reversed (a double round robin's second cycle):
/// two games between the same players in one event.
pub fn open_replaying(games: &[CorpusGame], replay: bool) -> Vec<CorpusGame> {
    let boards = games.len().div_ceil(ROUNDS).max(ROUNDS / 2 + 1);
    let mut names: Vec<(String, String)> = Vec::new();
    for g in games {
        for (side, elo) in [("White", "WhiteElo"), ("Black", "BlackElo")] {
            let tag = |k: &str| g.tags.iter().find(|(t, _)| t == k).map(|(_, v)| v.trim().to_string());
            let Some(name) = tag(side).filter(|n| !n.is_empty() && n != "?") else { continue };
            let person = |n: &str| n.to_lowercase().replace(' ', "");
            if !names.iter().any(|(n, _)| person(n) == person(&name)) {
                names.push((name, tag(elo).unwrap_or_default()));
            }
        }
    }
    let players = 2 * boards;
    let player = |i: usize| names.get(i).cloned().unwrap_or_else(|| (format!("Player{i:03}, A"), String::new()));
    games
        .iter()
        .enumerate()
        .map(|(k, g)| {
            let (round, board) = (k / boards, k % boards);
            let again = replay && round + 1 == ROUNDS;
            let paired = if again { 0 } else { round };
            // The circle method: player `players - 1` stays, the others turn.
            let turn = |i: usize| if i == players - 1 { i } else { (i + paired) % (players - 1) };
            let (a, b) =
                if board == 0 { (turn(players - 1), turn(0)) } else { (turn(board), turn(players - 1 - board)) };
            let ((white, welo), (black, belo)) =
                if (paired % 2 == 0) != again { (player(a), player(b)) } else { (player(b), player(a)) };
            let mut g = g.clone();
            let keep = |t: &str| !["White", "Black", "WhiteElo", "BlackElo", "Round", "Board"].contains(&t);
            g.tags.retain(|(t, _)| keep(t));
            g.tags.extend([
                ("White".into(), white),
                ("Black".into(), black),
                ("WhiteElo".into(), welo),
                ("BlackElo".into(), belo),
                ("Round".into(), (round + 1).to_string()),
            ]);
            g
        })
        .collect()
}

/// The event of `games` (built into one tournament named `name`; see
/// [`open_of`] for an open's) and both copies of each of its games.
pub fn event(name: &str, games: &[CorpusGame], spec: &Spec) -> (BuiltTrf, Vec<Copy>) {
    let trf = BuiltTrf::from_games(name, games);
    let mut copies = Vec::with_capacity(2 * trf.games.len());
    let boards_in = |r: u32| trf.games.iter().filter(|x| x.round == r).count() as u32;
    for (k, x) in trf.games.iter().enumerate() {
        let g = &games[x.game];
        let seed = derive_seed(spec.seed, x.game as u64);
        let mut rng = Rng::new(derive_seed(seed ^ RESULT_STREAM, 0));
        let results = [!rng.chance(spec.no_result), !rng.chance(spec.no_result)];
        // The organizer's program numbered the boards its own way.
        let n = boards_in(x.round).max(1);
        let board = (x.board + x.round - 1) % n + 1;
        let mut stops = [None, None];
        let n = g.sans.len();
        if spec.loose && rng.chance(1.0 / 8.0) {
            let short = n.saturating_sub(2 * (5 + rng.below(26)));
            if short >= 24 {
                stops[rng.below(2)] = Some(short);
            }
        }
        let written = Written { event: Some(name), board, results, loose_names: spec.loose, stops };
        let id = format!("g{k:04}");
        for (c, noisy) in ["a", "b"].iter().zip(pair_as_written(g, &trf, x, seed, spec.rate, &written)) {
            let ext = noisy.file_name.rsplit('.').next().unwrap_or("txt").to_string();
            copies.push(Copy {
                file: format!("{id}-{c}.{ext}"),
                game: id.clone(),
                text: noisy.text,
                sans: noisy.sans.clone(),
            });
        }
    }
    (trf, copies)
}

/// Writes the copies, `event.trf` and `truth.json` (a list of `{file,
/// game, sans}`, as `event_check.py` reads it) into `dir`.
pub fn write(dir: &Path, trf: &BuiltTrf, copies: &[Copy]) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| dir.display().to_string())?;
    for c in copies {
        std::fs::write(dir.join(&c.file), &c.text).with_context(|| c.file.clone())?;
    }
    std::fs::write(dir.join("event.trf"), trf.utf8())?;
    let truth: Vec<serde_json::Value> =
        copies.iter().map(|c| serde_json::json!({"file": c.file, "game": c.game, "sans": c.sans})).collect();
    std::fs::write(dir.join("truth.json"), serde_json::to_string(&truth)?)?;
    Ok(())
}

/// A game found in an output file: its moves, and the sheets its `Sheets`
/// tag names.
#[derive(Debug, Clone)]
pub struct Found {
    pub path: PathBuf,
    pub sans: Vec<String>,
    pub sheets: usize,
}

/// The games of a run's folders: pgn/'s per-game files, its round files
/// (`pgn/<event>/round-<n>.pgn`), and review/'s games.
#[derive(Debug, Default)]
pub struct Outputs {
    pub per_game: Vec<Found>,
    pub rounds: Vec<Found>,
    pub review: Vec<Found>,
}

/// Reads the games of the folders under `root`.
pub fn read_back(root: &Path) -> Result<Outputs> {
    let pgn = root.join("pgn");
    let mut out = Outputs::default();
    for entry in std::fs::read_dir(&pgn).with_context(|| pgn.display().to_string())? {
        let p = entry?.path();
        if p.is_dir() {
            for f in std::fs::read_dir(&p)? {
                let f = f?.path();
                if f.extension().is_some_and(|e| e == "pgn") {
                    out.rounds.extend(games_of(&f)?);
                }
            }
        } else if p.extension().is_some_and(|e| e == "pgn") {
            out.per_game.extend(games_of(&p)?);
        }
    }
    let review = root.join("review");
    if review.is_dir() {
        for entry in std::fs::read_dir(&review)? {
            let p = entry?.path();
            if p.extension().is_some_and(|e| e == "pgn") {
                out.review.extend(games_of(&p)?);
            }
        }
    }
    Ok(out)
}

fn games_of(path: &Path) -> Result<Vec<Found>> {
    let text = std::fs::read_to_string(path).with_context(|| path.display().to_string())?;
    Ok(read_pgn(&text)
        .into_iter()
        .map(|g| {
            let sans = replay(&g.sans).unwrap_or_default();
            let sheets = g.tag("Sheets").map_or(1, |s| s.split_whitespace().count());
            Found { path: path.to_path_buf(), sans, sheets }
        })
        .collect())
}

/// What an organizer checks of a run.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Score {
    pub games: usize,
    /// Games found exactly once over pgn/'s per-game files and review/.
    pub once: usize,
    /// Games with two per-game files or more in pgn/.
    pub published_twice: usize,
    /// Games both in pgn/ and in review/.
    pub pgn_and_review: usize,
    /// Games twice or more in review/.
    pub review_twice: usize,
    pub published: usize,
    /// Published games that their round file holds once, as the true game.
    pub round_exact: usize,
    /// Games in pgn/ (per-game or round file) with other moves than the true game's.
    pub published_wrong: usize,
    pub in_review: usize,
    /// Games in review/ whose reading is already the true game.
    pub review_exact: usize,
    /// Games found (in pgn/ or review/) read from both copies.
    pub both_copies: usize,
    /// Games found nowhere.
    pub lost: usize,
    /// Each game that an organizer would find wrong: its id and what
    /// (`twice`, `lost`, `wrong`, `one copy`), for looking into.
    pub missed: Vec<(String, &'static str)>,
}

/// The true game (`game id → moves`) a game read is: the one sharing the
/// longest opening with it, where that is 12 plies or the whole of one.
pub fn owner<'t>(truth: &'t BTreeMap<String, Vec<String>>, sans: &[String]) -> Option<&'t str> {
    let (id, full) = truth.iter().max_by_key(|(_, full)| prefix(sans, full))?;
    let needed = 12.min(full.len()).min(sans.len().max(1));
    (prefix(sans, full) >= needed).then_some(id.as_str())
}

/// Scores `outputs` against the true games (`game id → moves`).
pub fn score(truth: &BTreeMap<String, Vec<String>>, outputs: &Outputs) -> Score {
    let owner = |sans: &[String]| owner(truth, sans);
    let mut by: BTreeMap<&str, [Vec<&Found>; 3]> = BTreeMap::new();
    for (k, list) in [&outputs.per_game, &outputs.rounds, &outputs.review].into_iter().enumerate() {
        for f in list {
            if let Some(id) = owner(&f.sans) {
                by.entry(id).or_default()[k].push(f);
            }
        }
    }
    let mut s = Score { games: truth.len(), ..Score::default() };
    for (id, full) in truth {
        let empty: [Vec<&Found>; 3] = Default::default();
        let [pg, rd, rv] = by.get(id.as_str()).unwrap_or(&empty);
        s.once += usize::from(pg.len() + rv.len() == 1);
        s.published_twice += usize::from(pg.len() >= 2);
        s.pgn_and_review += usize::from(!pg.is_empty() && !rv.is_empty());
        s.review_twice += usize::from(rv.len() >= 2);
        s.lost += usize::from(pg.is_empty() && rv.is_empty());
        if !pg.is_empty() {
            s.published += 1;
            s.round_exact += usize::from(rd.len() == 1 && &rd[0].sans == full);
        }
        s.published_wrong += usize::from(pg.iter().chain(rd).any(|f| &f.sans != full));
        if !rv.is_empty() {
            s.in_review += 1;
            s.review_exact += usize::from(rv.iter().all(|f| &f.sans == full));
        }
        let both = pg.iter().chain(rv).any(|f| f.sheets >= 2);
        s.both_copies += usize::from(both);
        let wrong = pg.iter().chain(rd).any(|f| &f.sans != full);
        let lost = pg.is_empty() && rv.is_empty();
        let what = [(pg.len() + rv.len() > 1, "twice"), (lost, "lost"), (wrong, "wrong"), (!both && !lost, "one copy")];
        s.missed.extend(what.iter().filter(|(bad, _)| *bad).map(|(_, w)| (id.clone(), *w)));
    }
    s
}

fn prefix(a: &[String], b: &[String]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let share = |n: usize, of: usize| if of == 0 { 0.0 } else { n as f64 / of as f64 };
        write!(
            f,
            "EVENT games={} once={:.4} published_twice={} pgn_and_review={} review_twice={} lost={} published={:.4} \
             round_exact={:.4} published_wrong={} review={:.4} review_exact={:.4} both_copies={:.4}",
            self.games,
            share(self.once, self.games),
            self.published_twice,
            self.pgn_and_review,
            self.review_twice,
            self.lost,
            share(self.published, self.games),
            share(self.round_exact, self.published),
            self.published_wrong,
            share(self.in_review, self.games),
            share(self.review_exact, self.in_review),
            share(self.both_copies, self.games),
        )
    }
}
