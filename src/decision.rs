//! An arbiter's decision on a game in review: accept the reading, fix moves
//! (an alternative picked at a doubt, or a move typed), or reject the game.
//! Made at the desk or dropped into the inbox as `<name>.decision.yaml`, and
//! kept in `decisions/<name>.yaml` so that a game read again has it applied
//! again. No IO: the daemon reads and writes the files.
//!
//! ```
//! use scoresheet::decision::{Decision, Action};
//! let d = Decision::parse("decision: amend\nmoves: {46: Bd6}\narbiter: Ana López\nnote: copies disagreed\n").unwrap();
//! assert_eq!(d.decision, Action::Amend);
//! assert_eq!(d.fixed().unwrap(), vec![(46, "Bd6".to_string())]);
//! ```

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// What the arbiter decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Action {
    /// The game as read (with any moves the decision fixes) is the game.
    Accept,
    /// These moves are the game's at their plies; the rest is read again.
    Amend,
    /// Not usable: rejected, with a reason.
    Reject,
}

/// A decision, as its YAML file holds it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Decision {
    pub decision: Action,
    /// Moves fixed by the arbiter, by ply (`46`: Black's 23rd) or move label
    /// (`"23..."`, `"23."`), as SAN or as the sheet writes moves.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub moves: BTreeMap<String, String>,
    /// Who decided.
    #[serde(default)]
    pub arbiter: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Why a game is rejected.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The game decided, as review/ names it (`<name>.pgn`) or by its id;
    /// a file dropped into the inbox names it by its own name otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
    /// When it was made (UTC, RFC 3339), written by the program.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub when: Option<String>,
    /// The moves of the reading it replaced (SAN), written by the program.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replaced: Option<Vec<String>>,
    /// The version of the game it was made on, written by the program.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
}

/// Why a decision cannot be applied.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DecisionError {
    #[error("not a decision file: {0}")]
    Syntax(String),
    #[error("`{0}` is not a ply (46) or a move (23. or 23...)")]
    Ply(String),
    #[error("{label} {typed}: {why}")]
    Move { label: String, typed: String, why: String },
    #[error("a decision needs the arbiter's name (arbiter:)")]
    NoArbiter,
    #[error("a rejection needs a reason (reason:)")]
    NoReason,
}

/// Largest decision file read, in bytes.
pub const MAX_DECISION_BYTES: usize = 16 * 1024;

impl Decision {
    /// Reads a decision file.
    pub fn parse(text: &str) -> Result<Decision, DecisionError> {
        if text.len() > MAX_DECISION_BYTES {
            return Err(DecisionError::Syntax(format!("over {MAX_DECISION_BYTES} bytes")));
        }
        let d: Decision = serde_yaml::from_str(text).map_err(|e| DecisionError::Syntax(e.to_string()))?;
        if d.arbiter.trim().is_empty() {
            return Err(DecisionError::NoArbiter);
        }
        if d.decision == Action::Reject && d.reason.as_deref().is_none_or(|r| r.trim().is_empty()) {
            return Err(DecisionError::NoReason);
        }
        d.fixed()?;
        Ok(d)
    }

    /// The decision as its YAML file.
    pub fn to_yaml(&self) -> String {
        serde_yaml::to_string(self).unwrap_or_default()
    }

    /// The fixed moves by ply, in order.
    pub fn fixed(&self) -> Result<Vec<(u32, String)>, DecisionError> {
        let mut out: Vec<(u32, String)> =
            self.moves.iter().map(|(k, v)| Ok((ply_of(k)?, v.trim().to_string()))).collect::<Result<_, _>>()?;
        out.sort_by_key(|(p, _)| *p);
        Ok(out)
    }
}

/// A ply from how a decision names it: `46`, `23.` (White's) or `23...` (Black's).
pub fn ply_of(key: &str) -> Result<u32, DecisionError> {
    let k = key.trim();
    let bad = || DecisionError::Ply(key.to_string());
    let (n, black) = if let Some(n) = k.strip_suffix("...").or_else(|| k.strip_suffix('…')) {
        (n, Some(true))
    } else if let Some(n) = k.strip_suffix('.') {
        (n, Some(false))
    } else {
        (k, None)
    };
    let n: u32 = n.trim().parse().map_err(|_| bad())?;
    if n == 0 || n > 2000 {
        return Err(bad());
    }
    Ok(match black {
        None => n,
        Some(false) => 2 * n - 1,
        Some(true) => 2 * n,
    })
}
