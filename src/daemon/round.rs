//! The per-round file `pgn/<event>/round-<n>.pgn`: every validated game of a
//! round in board order, one game per board, rewritten whole each time a game
//! joins it, for a live broadcast that polls one PGN file.
//!
//! The event's folder is named from its whole name ([`names::folder`]): two
//! events that differ anywhere never share a round file.
//!
//! A game for a board that already has one in the round file is judged
//! against it ([`Round::judge`]):
//! - a **correction** (or the same game read again), which replaces it: the
//!   same players (White and Black, letters and digits compared without
//!   case), and moves that agree as far as the board's game goes, at least
//!   (the last moves or the result added or changed, a tag fixed);
//! - a **different game**, which is not added and goes to review with
//!   `duplicate-board`: other players, moves that part before either record
//!   stops (a move changed in the middle: a mistyped board number and a real
//!   correction look alike there, so an arbiter chooses), or a record that
//!   stops where the board's game goes on (a first page: it would drop moves).
//!
//! A game with no board number is added as it is (nothing to compare it with).

use std::collections::HashMap;
use std::fs::{self, File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::SystemTime;

use crate::emit::file::{Staging, replace_staged};
use crate::finding::Finding;
use crate::pairing::Scored;

use super::names::{folder, part, round_and_board};

/// The round file of one event and round, locked for as long as it is held:
/// writers of one round, in this process or another daemon, take turns on a
/// lock file in the private state folder (`<state>/rounds/<event>/`), never
/// among the outputs a broadcast or a web server lists.
pub(crate) struct Round {
    target: PathBuf,
    text: String,
    /// A game was taken out ([`Round::remove`]): the file is to be written.
    dirty: bool,
    _lock: File,
}

/// A round file's version: its length, time and inode (a round file is
/// replaced whole, under a new inode, each time it is written).
pub(super) type Version = (u64, Option<SystemTime>, u64);

/// The results each round file holds, kept for the version of the file and
/// the TRF they were read with: the results file is written again whenever
/// a round file changes, and reads again only the round files that did.
#[derive(Debug, Default)]
pub(crate) struct RoundScores(pub(super) Mutex<HashMap<PathBuf, RoundRead>>);

/// A round file's results as read: with the TRF (its bytes' hash) and the
/// file's version they were read for.
pub(super) type RoundRead = (String, Version, Vec<Scored>);

/// What a game is to the round file.
#[derive(Debug, PartialEq)]
pub(crate) enum Judged {
    /// No game of its board yet: added.
    New,
    /// Exactly this game is in the file already.
    Already,
    /// A correction of the game the board has, whose White and Black are given.
    Correction(String),
    /// Another game for a board that has one: not added.
    Conflict(Finding),
}

impl Round {
    /// The round file of `event` and `round` under `pgn_dir`.
    pub(crate) fn path(pgn_dir: &Path, event: &str, round: &str) -> PathBuf {
        pgn_dir.join(folder(event, "event")).join(format!("round-{}.pgn", folder(round, "round")))
    }

    /// Locks (under `state`) and reads the round file of `event` and `round`
    /// under `pgn_dir`.
    pub(crate) fn open(pgn_dir: &Path, state: &Path, event: &str, round: &str) -> io::Result<Round> {
        let event = folder(event, "event");
        let (dir, locks) = (pgn_dir.join(&event), state.join("rounds").join(&event));
        fs::create_dir_all(&dir)?;
        super::folders::private_folder(&locks)?;
        let round = folder(round, "round");
        let target = dir.join(format!("round-{round}.pgn"));
        let lock = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(locks.join(format!("round-{round}.lock")))?;
        lock.lock()?;
        let text = match fs::read_to_string(&target) {
            Ok(t) => t,
            Err(e) if e.kind() == io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(e),
        };
        Ok(Round { target, text, dirty: false, _lock: lock })
    }

    /// What `game` (its PGN text) is to this round's file.
    pub(crate) fn judge(&self, game: &str) -> Judged {
        let game = game.trim_end();
        let games = split_games(&self.text);
        if games.contains(&game) {
            return Judged::Already;
        }
        let new = Parsed::of(game);
        let Some(board) = new.board() else { return Judged::New };
        // The tags alone tell a game's board: only the board's game is read whole.
        let Some(old) = games.iter().find(|g| Parsed::tags_of(g).board() == Some(board)).map(|g| Parsed::of(g)) else {
            return Judged::New;
        };
        let players = |g: &Parsed| format!("{} - {}", g.tag("White").unwrap_or("?"), g.tag("Black").unwrap_or("?"));
        let same_players = ["White", "Black"].iter().all(|k| same_name(new.tag(k), old.tag(k)));
        let parted = new.moves.iter().zip(&old.moves).position(|(a, b)| a != b);
        // A correction goes at least as far as the game it replaces: a record
        // that stops earlier (a first page, a sheet cut short) would drop moves.
        let stops = parted.is_none() && new.moves.len() < old.moves.len();
        if same_players && parted.is_none() && !stops {
            return Judged::Correction(players(&old));
        }
        let parted = if stops { Some(new.moves.len()) } else { parted };
        Judged::Conflict(Finding::DuplicateBoard {
            board: board.to_string(),
            round: new.tag("Round").unwrap_or("?").to_string(),
            other: players(&old),
            parted: if same_players { parted.map(|p| p as u32 + 1) } else { None },
            stops: same_players && stops,
        })
    }

    /// Puts `game` into the file as `judged` says (a conflict is never put)
    /// and returns the file.
    pub(crate) fn put(self, game: &str, judged: &Judged, staging: &Staging) -> io::Result<PathBuf> {
        let game = game.trim_end();
        let mut games = split_games(&self.text);
        match judged {
            Judged::Already | Judged::Conflict(_) if !self.dirty => return Ok(self.target),
            Judged::Already | Judged::Conflict(_) => {}
            Judged::New => games.push(game),
            Judged::Correction(_) => {
                let board = Parsed::tags_of(game).board().map(str::to_string);
                let at = games.iter().position(|g| Parsed::tags_of(g).board().map(str::to_string) == board);
                match at {
                    Some(i) => games[i] = game,
                    None => games.push(game),
                }
            }
        }
        // Stable: games with no board stay in the order they came.
        games.sort_by_cached_key(|g| board_number(g));
        let mut out = String::with_capacity(self.text.len() + game.len() + 2);
        for g in games {
            out.push_str(g);
            out.push_str("\n\n");
        }
        replace_staged(&self.target, out.as_bytes(), staging)?;
        super::crash::step("round.saved");
        Ok(self.target)
    }
}

impl Round {
    /// Takes `game` (its text as put) out of the file, when it is there: the
    /// game it was is replaced by a reading of it from both copies. Written
    /// by the next [`Round::put`] or [`Round::save`].
    pub(crate) fn remove(&mut self, game: &str) {
        let game = game.trim_end();
        let games = split_games(&self.text);
        if !games.contains(&game) {
            return;
        }
        let kept: String = games.iter().filter(|g| **g != game).map(|g| format!("{g}\n\n")).collect();
        self.text = kept;
        self.dirty = true;
    }

    /// Writes the file when a game was taken out.
    pub(crate) fn save(self, staging: &Staging) -> io::Result<PathBuf> {
        if self.dirty {
            replace_staged(&self.target, self.text.as_bytes(), staging)?;
            super::crash::step("round.saved");
        }
        Ok(self.target)
    }
}

/// Adds a game (its PGN text) to the file of its round as [`Round::judge`]
/// says, and returns the file and the judgement.
#[cfg(test)]
fn add_game(pgn_dir: &Path, event: &str, round: &str, game: &str) -> io::Result<(PathBuf, Judged)> {
    let r = Round::open(pgn_dir, &pgn_dir.join(".state"), event, round)?;
    let judged = r.judge(game);
    let path = r.put(game, &judged, &Staging::beside(false))?;
    Ok((path, judged))
}

/// Two names for one player: the same letters and digits, case aside.
fn same_name(a: Option<&str>, b: Option<&str>) -> bool {
    let key = |s: Option<&str>| part(s.unwrap_or("?")).to_lowercase().replace(['_', '.'], "");
    key(a) == key(b)
}

/// The tags of a game this program wrote (its text), unescaped, in order.
pub(crate) fn tags_of(game: &str) -> Vec<(&str, String)> {
    Parsed::tags(game).0
}

/// The tags and moves of a game this program wrote.
struct Parsed<'a> {
    tags: Vec<(&'a str, String)>,
    moves: Vec<&'a str>,
}

impl<'a> Parsed<'a> {
    fn of(game: &'a str) -> Parsed<'a> {
        let (tags, moves_from) = Self::tags(game);
        Parsed { tags, moves: movetext(&game[moves_from..]) }
    }

    /// The tags alone (no moves): what a game's board is told by.
    fn tags_of(game: &'a str) -> Parsed<'a> {
        Parsed { tags: Self::tags(game).0, moves: Vec::new() }
    }

    /// The tags, and where the movetext starts.
    fn tags(game: &'a str) -> (Vec<(&'a str, String)>, usize) {
        let mut tags = Vec::new();
        let mut moves_from = 0;
        for line in game.split_inclusive('\n') {
            let Some(t) = line.trim().strip_prefix('[').and_then(|t| t.strip_suffix(']')) else { break };
            if let Some((k, v)) = t.split_once(' ') {
                let v = v.trim().trim_start_matches('"').trim_end_matches('"');
                tags.push((k, v.replace("\\\"", "\"").replace("\\\\", "\\")));
            }
            moves_from += line.len();
        }
        (tags, moves_from)
    }

    fn tag(&self, k: &str) -> Option<&str> {
        self.tags.iter().find(|(key, _)| *key == k).map(|(_, v)| v.as_str())
    }

    /// The game's board: its `Board` tag, else the one in its round (`3.1`).
    fn board(&self) -> Option<&str> {
        let board = self.tag("Board").or_else(|| self.tag("Round").and_then(|r| round_and_board(r).1));
        board.filter(|b| *b != "?")
    }
}

/// The SAN moves of a movetext: comments, move numbers, NAGs and the result left out.
fn movetext(text: &str) -> Vec<&str> {
    let mut moves = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        if let Some(open) = rest.find('{') {
            moves.extend(rest[..open].split_whitespace());
            rest = rest[open..].find('}').map_or("", |close| &rest[open + close + 1..]);
        } else {
            moves.extend(rest.split_whitespace());
            rest = "";
        }
    }
    let number = |t: &str| t.trim_end_matches('.').bytes().all(|b| b.is_ascii_digit()) && t.ends_with('.');
    moves.retain(|t| !number(t) && !t.starts_with('$') && !["1-0", "0-1", "1/2-1/2", "*"].contains(t));
    moves
}

/// The games of a PGN file this module wrote: each starts with its `[Event` tag.
pub(crate) fn split_games(text: &str) -> Vec<&str> {
    let mut games = Vec::new();
    let mut start = 0;
    let mut from = 0;
    while let Some(k) = text[from..].find("\n\n[Event ") {
        let at = from + k;
        games.push(text[start..at].trim());
        start = at + 2;
        from = start;
    }
    let last = text[start..].trim();
    if !last.is_empty() {
        games.push(last);
    }
    games
}

/// Sort key: the `Board` tag's number; games without one go last.
fn board_number(game: &str) -> u32 {
    Parsed::tags_of(game).board().and_then(|b| b.trim().parse().ok()).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(board: u32, white: &str, moves: &str) -> String {
        format!("[Event \"Open\"]\n[Round \"3\"]\n[White \"{white}\"]\n[Black \"X\"]\n[Board \"{board}\"]\n\n{moves}\n")
    }

    fn read(dir: &Path) -> String {
        fs::read_to_string(dir.join("Open/round-3.pgn")).unwrap()
    }

    #[test]
    fn games_of_a_round_are_kept_in_board_order_and_never_twice() {
        let dir = tempfile::tempdir().unwrap();
        for (b, w) in [(12, "Ana"), (2, "Bea"), (7, "Cris"), (2, "Bea")] {
            add_game(dir.path(), "Open", "3", &game(b, w, "1. e4 e5 *")).unwrap();
        }
        let text = read(dir.path());
        let order: Vec<u32> = split_games(&text).iter().map(|g| board_number(g)).collect();
        assert_eq!(order, [2, 7, 12]);
        assert!(text.ends_with("*\n\n"));
    }

    #[test]
    fn a_correction_replaces_the_boards_game_and_another_game_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        add_game(dir.path(), "Open", "3", &game(7, "Ana", "1. e4 e5 2. Nf3 *")).unwrap();
        // The result added, a move more, a comment: the same game, corrected.
        let fixed = game(7, "ana", "1. e4 e5 {x} 2. Nf3 Nc6 1-0");
        assert_eq!(add_game(dir.path(), "Open", "3", &fixed).unwrap().1, Judged::Correction("Ana - X".into()));
        assert_eq!(split_games(&read(dir.path())), [fixed.trim_end()]);
        // Other moves from move 2 on, or other players: another game.
        let other = add_game(dir.path(), "Open", "3", &game(7, "Ana", "1. e4 e5 2. Bc4 1-0")).unwrap().1;
        assert!(matches!(other, Judged::Conflict(Finding::DuplicateBoard { parted: Some(3), .. })), "{other:?}");
        let other = add_game(dir.path(), "Open", "3", &game(7, "Bea", "1. e4 e5 *")).unwrap().1;
        assert!(matches!(other, Judged::Conflict(Finding::DuplicateBoard { parted: None, .. })), "{other:?}");
        assert_eq!(split_games(&read(dir.path())), [fixed.trim_end()], "neither was added");
    }

    #[test]
    fn a_first_page_dropped_after_the_whole_sheet_does_not_replace_the_game() {
        let dir = tempfile::tempdir().unwrap();
        let whole = game(7, "Ana", "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0");
        add_game(dir.path(), "Open", "3", &whole).unwrap();
        let page = add_game(dir.path(), "Open", "3", &game(7, "Ana", "1. e4 e5 2. Nf3 *")).unwrap().1;
        assert!(
            matches!(page, Judged::Conflict(Finding::DuplicateBoard { parted: Some(4), stops: true, .. })),
            "{page:?}"
        );
        assert_eq!(split_games(&read(dir.path())), [whole.trim_end()], "the whole game stays");
    }

    #[test]
    fn events_that_differ_after_a_long_common_start_get_folders_of_their_own() {
        let dir = tempfile::tempdir().unwrap();
        let long = "Campeonato Internacional de Ajedrez Sitges Open";
        let (a, _) = add_game(dir.path(), &format!("{long} A"), "4", &game(1, "Ana", "1. e4 *")).unwrap();
        let (b, _) = add_game(dir.path(), &format!("{long} B"), "4", &game(1, "Bea", "1. d4 *")).unwrap();
        assert_ne!(a, b);
        assert_eq!(split_games(&fs::read_to_string(&a).unwrap()).len(), 1);
    }
}
