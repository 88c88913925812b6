//! The per-round file `pgn/<event>/round-<n>.pgn`: every validated game of a
//! round in board order, rewritten whole each time a game joins it, for a live
//! broadcast that polls one PGN file.

use std::fs::{self, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};

use crate::emit::file::replace;

use super::names::part;

/// Adds a game (its PGN text) to the file of its round and returns the file.
/// A game already in the file is not added again. Writers of one round, in
/// this process or another daemon, take turns on a lock file beside it.
pub fn add_game(pgn_dir: &Path, event: &str, round: &str, game: &str, fsync: bool) -> io::Result<PathBuf> {
    let event = match part(event) {
        e if e.is_empty() => "event".to_string(),
        e => e,
    };
    let dir = pgn_dir.join(event);
    fs::create_dir_all(&dir)?;
    let round = part(round);
    let target = dir.join(format!("round-{round}.pgn"));
    let lock =
        OpenOptions::new().create(true).truncate(false).write(true).open(dir.join(format!(".round-{round}.lock")))?;
    lock.lock()?;
    let text = match fs::read_to_string(&target) {
        Ok(t) => t,
        Err(e) if e.kind() == io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(e),
    };
    let mut games = split_games(&text);
    let game = game.trim_end();
    if !games.contains(&game) {
        games.push(game);
        // Stable: games of one board (or none) stay in the order they came.
        games.sort_by_key(|g| board(g));
        let mut out = String::with_capacity(text.len() + game.len() + 2);
        for g in games {
            out.push_str(g);
            out.push_str("\n\n");
        }
        replace(&target, out.as_bytes(), fsync)?;
    }
    Ok(target)
}

/// The games of a PGN file this module wrote: each starts with its `[Event` tag.
fn split_games(text: &str) -> Vec<&str> {
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
fn board(game: &str) -> u32 {
    game.lines().find_map(|l| l.strip_prefix("[Board \"")?.strip_suffix("\"]")?.trim().parse().ok()).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(board: u32, white: &str) -> String {
        format!("[Event \"Open\"]\n[Round \"3\"]\n[White \"{white}\"]\n[Board \"{board}\"]\n\n1. e4 e5 *\n")
    }

    #[test]
    fn games_of_a_round_are_kept_in_board_order_and_never_twice() {
        let dir = tempfile::tempdir().unwrap();
        for (b, w) in [(12, "Ana"), (2, "Bea"), (7, "Cris"), (2, "Bea")] {
            add_game(dir.path(), "Open", "3", &game(b, w), false).unwrap();
        }
        let text = fs::read_to_string(dir.path().join("Open/round-3.pgn")).unwrap();
        let order: Vec<u32> = split_games(&text).iter().map(|g| board(g)).collect();
        assert_eq!(order, [2, 7, 12]);
        assert!(text.ends_with("*\n\n"));
    }
}
