//! The arbiter's decisions applied to the games the daemon published: the
//! queue of games, a game as the desk shows it (read again from archive/,
//! with each move as written), a decision's reading previewed, and a
//! decision carried out: the game written again where it now goes (pgn/ and
//! its round's file, or rejected/), its review files gone, the decision kept
//! in `decisions/<name>.yaml`.

use std::path::PathBuf;
use std::time::SystemTime;

use crate::decision::{Decision, DecisionError};
use crate::emit::report::{GameReport, Status};

use super::process::{FileError, ProcessConfig};

/// One game of the queue.
#[derive(Debug, Clone)]
pub struct Waiting {
    /// Its id in URLs: the record's name (hex), never a path.
    pub id: String,
    /// Its name in review/ (or pgn/, rejected/): `<name>.pgn`.
    pub name: String,
    pub status: Status,
    pub event: String,
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
}

/// A game as the desk shows it.
#[derive(Debug, Clone)]
pub struct Shown {
    pub id: String,
    /// Changes whenever the game is published again (its other copy came,
    /// a decision): a decision made on an older version is refused.
    pub version: String,
    pub name: String,
    /// The game as read now (or as a decision would make it), `written` filled.
    pub report: GameReport,
    pub status: Status,
    pub sheets: Vec<String>,
}

/// What a decision did.
#[derive(Debug, Clone)]
pub struct Decided {
    pub status: Status,
    /// The game's files now (its PGN in pgn/, or its `.error.txt`).
    pub files: Vec<PathBuf>,
    /// `decisions/<name>.yaml`.
    pub kept: PathBuf,
}

/// Why a decision or a look at a game failed.
#[derive(Debug, thiserror::Error)]
pub enum DecideError {
    #[error("no game {0}")]
    NoGame(String),
    #[error("the game changed since the page was shown (its other copy arrived, or it was decided): look at it again")]
    Stale,
    #[error(transparent)]
    Decision(#[from] DecisionError),
    #[error(transparent)]
    File(#[from] FileError),
}

/// Every published game, newest first.
pub fn queue(cfg: &ProcessConfig) -> Result<Vec<Waiting>, DecideError> {
    let _ = cfg;
    todo!()
}

/// Game `id` as read now.
pub fn show(cfg: &ProcessConfig, id: &str) -> Result<Shown, DecideError> {
    let _ = (cfg, id);
    todo!()
}

/// Game `id` as `decision` would make it, without writing anything; refused
/// (`Stale`) when the game is no longer at `version`.
pub fn preview(cfg: &ProcessConfig, id: &str, version: &str, decision: &Decision) -> Result<Shown, DecideError> {
    let _ = (cfg, id, version, decision);
    todo!()
}

/// Carries out `decision` on game `id` (at `version`, when the desk shows it
/// one; a file dropped into the inbox names none).
pub fn decide(
    cfg: &ProcessConfig,
    id: &str,
    version: Option<&str>,
    decision: &Decision,
) -> Result<Decided, DecideError> {
    let _ = (cfg, id, version, decision);
    todo!()
}
