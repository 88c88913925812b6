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
use shakmaty::san::{San, SanPlus};
use shakmaty::{Chess, Move, Position, Role};

use crate::convert::{Input, Options, Verdict, games_together, read_inputs};
use crate::emit::report::GameReport;
use crate::finding::{Weight, Why};
use crate::notation::Language;
use crate::notation::lex::lex;
use crate::notation::reading::{Resolution, readings, resolve};
use crate::reconstruct::with_searcher;
use crate::sheet::{Entry, GameResult, Sheet};
use crate::start::Start;

/// What the arbiter decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Action {
    /// The game as read (with any moves the decision fixes) is the game.
    Accept,
    /// These moves are the game's at their plies; the rest is read again,
    /// and the game stays in review while a doubt the arbiter did not see
    /// is left.
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
    /// The game's result, as the arbiter established it (`1-0`, `0-1`,
    /// `1/2-1/2`): where none was written, or the copies, the header and the
    /// moves, or the pairings, gave different ones.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
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
    #[error("`{0}` is not a result (1-0, 0-1 or 1/2-1/2)")]
    Result(String),
    #[error("the sheet cannot be read: {0}")]
    Unreadable(String),
}

/// Largest decision file read, in bytes.
pub const MAX_DECISION_BYTES: usize = 16 * 1024;

impl Decision {
    /// A decision by `arbiter` fixing `moves` (ply or move label → move).
    pub fn new(decision: Action, moves: BTreeMap<String, String>, arbiter: &str) -> Decision {
        Decision {
            decision,
            moves,
            arbiter: arbiter.to_string(),
            note: None,
            reason: None,
            result: None,
            game: None,
            when: None,
            replaced: None,
            version: None,
        }
    }

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

/// A game as a decision makes it: read again with the arbiter's moves fixed
/// at their plies (the rest of the game read again after each), and judged
/// as the arbiter said.
#[derive(Debug, Clone)]
pub struct Decided {
    /// The game as decided: its PGN with the `Annotator` tag and a comment
    /// at each decided move; its status where it now goes.
    pub report: GameReport,
    /// The moves (SAN) of the reading it replaced.
    pub replaced: Vec<String>,
}

/// Reads sheet `index` of file `file` of `inputs` (with the other copy of
/// its game, where one is among them) as `decision` says.
///
/// ```
/// use scoresheet::convert::Options;
/// use scoresheet::decision::{Decision, read_decided};
/// use scoresheet::emit::report::Status;
/// let sheet = b"1.e4 e5 2.Cf3 Cc6 3.Ab5 a6 4.Aa4 Cf6".to_vec();
/// let d = Decision::parse("decision: accept\nmoves: {\"3.\": Bc4}\narbiter: Ana\n").unwrap();
/// let got = read_decided(&[("mesa-1.txt".into(), Ok(sheet))], &Options::default(), (0, 0), &d).unwrap();
/// assert_eq!(got.report.moves[4], "Bc4");
/// assert_eq!(got.report.status, Status::Validated);
/// assert!(got.report.pgn.contains("[Annotator \"Ana\"]"));
/// assert!(got.report.pgn.contains("{arbiter Ana: 3.Bc4,"));
/// ```
pub fn read_decided(
    inputs: &[Input],
    opts: &Options,
    (file, index): (usize, usize),
    decision: &Decision,
) -> Result<Decided, DecisionError> {
    let (reports, sheets) = read_inputs(inputs, opts);
    if let Some(e) = reports.get(file).and_then(|r| r.error.clone()) {
        return Err(DecisionError::Unreadable(e));
    }
    let t = sheets
        .iter()
        .enumerate()
        .filter(|(_, (f, _))| *f == file)
        .nth(index)
        .map(|(i, _)| i)
        .ok_or_else(|| DecisionError::Unreadable(format!("no game {} in the file", index + 1)))?;
    let names: Vec<&str> = inputs.iter().map(|(n, _)| n.as_str()).collect();
    decided_among(sheets, &names, opts, t, decision)
}

/// [`read_decided`] on sheets already read (each with its file's index in
/// `names`): sheet `t` of them, with its game's other copy where it is
/// among them.
pub(crate) fn decided_among(
    mut sheets: Vec<(usize, Sheet)>,
    names: &[&str],
    opts: &Options,
    t: usize,
    decision: &Decision,
) -> Result<Decided, DecisionError> {
    let names = names.to_vec();
    let originals: Vec<Sheet> = sheets.iter().map(|(_, s)| s.clone()).collect();
    let mut all = games_together(&sheets, &names, opts, None).0;
    let before = all[t].clone();
    let mut whys: Vec<(u32, Why)> = Vec::new();
    if decision.decision != Action::Reject {
        for (ply, typed) in decision.fixed()? {
            let current = &all[t];
            let lang = Language::find(&current.language).unwrap_or(&crate::notation::LANGUAGES[0]);
            let moves = replay(&current.start().position, &current.moves);
            let label = label(ply);
            let Some(pos) = moves.get(ply as usize - 1).map(|(p, _)| p.clone()) else {
                let why = format!("the game as read has {} moves", current.moves.len());
                return Err(DecisionError::Move { label, typed, why });
            };
            let mv = resolve_typed(&pos, &typed, lang).map_err(|why| DecisionError::Move {
                label: label.clone(),
                typed: typed.clone(),
                why,
            })?;
            let san = crate::reconstruct::san_of(&pos, mv);
            whys.push((ply, why_of(decision, &before, ply)));
            if current.moves.get(ply as usize - 1) == Some(&san) {
                continue;
            }
            let played: Vec<Move> = moves.iter().filter_map(|(_, m)| *m).collect();
            // The move goes in its box, or, where the writer skipped it,
            // before the box, in one copy or both: the first that reads the
            // move there and keeps the game as long as it was read (a box
            // overwritten that held the next move would cut it short), else
            // the one of those reading the move that keeps the most of it.
            let copies = copies_of(&all, t);
            let read_before = all[t].moves.len();
            let mut best: Option<(Vec<(usize, Sheet)>, Readings)> = None;
            for skipped in 0..1usize << copies.len() {
                let mut tried = sheets.clone();
                for (k, &i) in copies.iter().enumerate() {
                    let how = if skipped >> k & 1 == 1 { Put::Before } else { Put::In };
                    write_in(&mut tried[i].1, ply, &figurine_long(&pos, mv), &played, (lang, opts), how);
                }
                let read = games_together(&tried, &names, opts, None).0;
                if read[t].moves.get(ply as usize - 1) != Some(&san) {
                    continue;
                }
                let whole = read[t].moves.len() >= read_before;
                if best.as_ref().is_none_or(|b| read[t].moves.len() > b.1[t].moves.len()) {
                    best = Some((tried, read));
                }
                if whole {
                    break;
                }
            }
            let Some((tried, read)) = best else {
                let why = "the rest of the sheet cannot be read after it".to_string();
                return Err(DecisionError::Move { label, typed: san, why });
            };
            (sheets, all) = (tried, read);
        }
    }
    let result = match decision.result.as_deref().map(str::trim).filter(|r| !r.is_empty()) {
        Some(r) => match GameResult::parse(r) {
            Some(GameResult::Unknown) | None => return Err(DecisionError::Result(r.to_string())),
            known => known,
        },
        None => None,
    };
    let verdict = Verdict {
        result,
        arbiter: decision.arbiter.trim().to_string(),
        fixed: whys,
        said: decision.note.clone().map_or(Why::Accepted, Why::Note),
        accept: decision.decision == Action::Accept,
        reject: (decision.decision == Action::Reject).then(|| decision.reason.clone().unwrap_or_default()),
    };
    let mut report = games_together(&sheets, &names, opts, Some((t, &verdict))).0.swap_remove(t);
    let copies: Vec<(&str, &Sheet)> =
        copies_of(&all, t).into_iter().map(|i| (names[sheets[i].0], &originals[i])).collect();
    restore_written(&mut report, &copies);
    Ok(Decided { report, replaced: before.moves })
}

/// `46` as a person names it: `23...`.
fn label(ply: u32) -> String {
    crate::finding::At { ply, line: 0, col: 0 }.move_label()
}

/// Why the arbiter fixed `ply`: the note, else the doubt it settled.
fn why_of(decision: &Decision, before: &GameReport, ply: u32) -> Why {
    if let Some(n) = decision.note.as_deref().filter(|n| !n.trim().is_empty()) {
        return Why::Note(n.trim().to_string());
    }
    let doubt = before.findings.iter().find(|f| f.ply == Some(ply) && f.weight == Weight::Doubt);
    match doubt.map(|f| f.code) {
        Some("copies-disagree") => Why::CopiesDisagreed,
        Some("ambiguous-repair") => Why::SheetAmbiguous,
        Some(code) => Why::Doubt(code),
        None => Why::Decided,
    }
}

/// The position before each move of `moves` (SAN, played from `start`),
/// with the move, and the position after the last (with no move).
fn replay(start: &Chess, moves: &[String]) -> Vec<(Chess, Option<Move>)> {
    let mut pos = start.clone();
    let mut out = Vec::with_capacity(moves.len() + 1);
    for m in moves {
        let Some(mv) = m.parse::<SanPlus>().ok().and_then(|s| s.san.to_move(&pos).ok()) else { break };
        out.push((pos.clone(), Some(mv)));
        pos.play_unchecked(mv);
    }
    out.push((pos, None));
    out
}

/// The legal move typed: SAN, or as the sheet writes moves (its language).
fn resolve_typed(pos: &Chess, typed: &str, lang: &Language) -> Result<Move, String> {
    let typed = typed.trim();
    if typed.is_empty() {
        return Err("no move typed".to_string());
    }
    if let Some(mv) = typed.parse::<SanPlus>().ok().and_then(|s| s.san.to_move(pos).ok()) {
        return Ok(mv);
    }
    let lexed = lex(typed);
    match resolve(pos, &readings(&lexed.core, lang)) {
        Resolution::Unique { mv, .. } => Ok(mv),
        Resolution::Ambiguous(ms) => {
            let sans: Vec<String> = ms.iter().map(|m| crate::reconstruct::san_of(pos, *m)).collect();
            Err(format!("could be {}: type one of them", sans.join(" or ")))
        }
        Resolution::None => Err(format!("not a legal move here ({} to move)", pos.turn())),
    }
}

/// The sheets of the game of sheet `t`: it and its other copy, if any.
fn copies_of(all: &[GameReport], t: usize) -> Vec<usize> {
    let mut out = vec![t];
    if let Some(files) = &all[t].sheets {
        let other = if all[t].copy == Some("a") { "b" } else { "a" };
        out.extend(
            all.iter()
                .enumerate()
                .filter(|(i, g)| *i != t && g.sheets.as_ref() == Some(files) && g.copy == Some(other))
                .map(|(i, _)| i),
        );
        out.truncate(2);
    }
    out
}

/// A move in long algebraic notation with a figurine for its piece
/// (`♗f8-d6`, `d7-d6`, `e7-e8=♕`): read as exactly that move whatever the
/// sheet's language, where a short `d6` could still be read as a slip for
/// `Bd6`.
fn figurine_long(pos: &Chess, mv: Move) -> String {
    let figure = |r: Role| match r {
        Role::King => "♔",
        Role::Queen => "♕",
        Role::Rook => "♖",
        Role::Bishop => "♗",
        Role::Knight => "♘",
        Role::Pawn => "",
    };
    match mv {
        Move::Castle { king, rook } => if rook.file() > king.file() { "O-O" } else { "O-O-O" }.to_string(),
        Move::Normal { role, from, capture, to, promotion } => {
            let sep = if capture.is_some() { "x" } else { "-" };
            let promoted = promotion.map(|p| format!("={}", figure(p))).unwrap_or_default();
            format!("{}{from}{sep}{to}{promoted}", figure(role))
        }
        Move::EnPassant { from, to } => format!("{from}x{to}"),
        Move::Put { .. } => San::from_move(pos, mv).to_string(),
    }
}

/// The games of a decision's sheets, as read together.
type Readings = Vec<GameReport>;

/// Where an arbiter's move goes on a sheet: in the box of its ply (over
/// what the writer put there), or before it (the writer skipped the move).
#[derive(Clone, Copy)]
enum Put {
    In,
    Before,
}

/// Puts `text` in the sheet's box for `ply` of the game `played`: the entry
/// its cheapest alignment reads there, else the box its numbering puts
/// there, else a new box before the next move's; `put` before that box
/// rather than in it.
fn write_in(sheet: &mut Sheet, ply: u32, text: &str, played: &[Move], how: (&'static Language, &Options), put: Put) {
    let (lang, opts) = how;
    let start = Start::of(sheet).unwrap_or_default();
    let entries = with_searcher(sheet, lang, &opts.params, None, |s| s.alignment(&start.position, 0, played).entries);
    let k = ply as usize - 1;
    let aligned = entries.get(k).copied().flatten();
    // The sheet numbers its boxes from the start's move number.
    let numbered_ply = ply + start.first_ply() - 1;
    let numbered = || sheet.entries.iter().position(|e| e.ply == Some(numbered_ply));
    match (aligned.or_else(numbered), put) {
        (Some(e), Put::In) => {
            sheet.entries[e].text = text.to_string();
            return;
        }
        (Some(e), Put::Before) => {
            let entry =
                Entry { text: text.to_string(), comments: Vec::new(), nags: Vec::new(), ..sheet.entries[e].clone() };
            sheet.entries.insert(e, entry);
            return;
        }
        (None, _) => {}
    }
    let next = entries.iter().skip(k).flatten().next().copied().unwrap_or(sheet.entries.len());
    let near = sheet.entries.get(next).or(sheet.entries.last()).cloned().unwrap_or_default();
    let entry =
        Entry { text: text.to_string(), ply: Some(numbered_ply), comments: Vec::new(), nags: Vec::new(), ..near };
    sheet.entries.insert(next, entry);
}

/// The moves as written, as the copies (`copies`: each one's file and sheet
/// before the arbiter's moves were put in its boxes) had them: a box put in
/// is shown as not written. Each copy's entries are looked up in its own
/// file's sheets, since another file has other entries at the same line.
fn restore_written(report: &mut GameReport, copies: &[(&str, &Sheet)]) {
    let base = report.lines_in.clone();
    let of = |own: bool| -> Vec<&Sheet> {
        let named = |f: &str| base.as_deref().is_none_or(|b| (f == b) == own);
        let sheets: Vec<&Sheet> = copies.iter().filter(|(f, _)| named(f)).map(|(_, s)| *s).collect();
        // Both copies in one file: its sheets are told apart by their lines.
        if sheets.is_empty() { copies.iter().map(|(_, s)| *s).collect() } else { sheets }
    };
    let (own, other) = (of(true), of(false));
    for (written, unread, sheets) in
        [(&mut report.written, &mut report.unread, &own), (&mut report.other_written, &mut report.other_unread, &other)]
    {
        for w in written.iter_mut() {
            *w = w.as_ref().and_then(|e| original(e, sheets));
        }
        let kept = std::mem::take(unread).into_iter().filter_map(|(at, e)| Some((at, original(&e, sheets)?)));
        *unread = kept.collect();
    }
}

/// The entry `e` of a sheet read with the arbiter's moves as the player wrote
/// it, from `originals`; `None` for a box the arbiter's move was put in.
fn original(e: &Entry, originals: &[&Sheet]) -> Option<Entry> {
    let o = originals.iter().flat_map(|s| &s.entries).find(|o| o.line == e.line && o.col == e.col)?;
    (o.text == e.text || e.ply.is_none() || o.ply == e.ply).then(|| o.clone())
}
