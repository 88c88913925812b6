//! One claimed file from start to finish: read, convert, route each game to
//! pgn/, review/ or rejected/, add validated games to their round's file, and
//! last archive the original and drop the claim. Why every step can be done
//! again after a crash without writing anything twice is in [the daemon's
//! module doc](super).

use std::collections::BTreeMap;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use tracing::info;

use crate::convert::Options;
use crate::emit::file::{Staging, replace_staged};
use crate::emit::report::{FindingReport, GameReport, Status};
use crate::finding::{Finding, ReportLanguage, quoted};
use crate::sheet::Sheet;

use super::Folders;
use super::annotate::{with_comment, with_tag};
use super::games::RoundEntry;
use super::names::{game_name, part, split_ext};
use super::place::{link_new, link_only, place_new};
use super::round::{Judged, Round};

/// The tag that names, in a review game's PGN, the file it was dropped as.
pub const SOURCE_TAG: &str = "SourceFile";

/// What processing a file needs, shared by the workers: where the outputs go,
/// how to convert, how outputs are staged (synced, and their temporary files
/// in the daemon's private work folder).
#[derive(Debug, Clone)]
pub struct ProcessConfig {
    pub folders: Folders,
    pub options: Options,
    pub staging: Staging,
    /// Which sheets were published where, shared by the workers.
    pub games: std::sync::Arc<super::games::Games>,
    /// The tournament's pairings as last loaded (from the config or a TRF
    /// dropped into the inbox).
    pub pairings: std::sync::Arc<super::pairings::Pairings>,
}

impl ProcessConfig {
    /// The conversion options with the pairings loaded now, if any.
    pub fn options_now(&self) -> Options {
        let mut o = self.options.clone();
        if let Some(t) = self.pairings.current() {
            o.pairings = Some(t);
        }
        o
    }
}

/// A failure that concerns one file and comes from outside it (a folder that
/// cannot be written, a full disk): the file stays claimed and is retried.
#[derive(Debug, thiserror::Error)]
#[error("{}: {source}", path.display())]
pub struct FileError {
    /// The path the failing operation was about.
    pub path: PathBuf,
    pub source: io::Error,
}

/// Where one file went.
#[derive(Debug, Default)]
pub struct Outcome {
    /// The name it was dropped under.
    pub name: String,
    /// The files written, or found already written (full paths).
    pub outputs: Vec<PathBuf>,
    /// The game statuses, in file order, as routed (empty for an unreadable file).
    pub statuses: Vec<Status>,
    /// How many findings of each code the file's games have.
    pub findings: BTreeMap<&'static str, usize>,
    /// Why the file could not be read, if it could not.
    pub error: Option<String>,
    /// A link, pipe or device that could not be moved out of the inbox: left
    /// there, and not taken again while it stays one.
    pub left_in_inbox: bool,
    /// The statuses of earlier readings its games replaced (a game read
    /// again with both copies): no longer where they were counted.
    pub replaced: Vec<Status>,
    /// For a TRF: what was loaded.
    pub loaded: Option<String>,
    /// The rounds and boards its games were published as.
    pub boards: Vec<(u32, u32)>,
}

impl Outcome {
    /// The folder the file's games went to, for the log line: `pgn`, `review`,
    /// `rejected`, or several joined with `+`.
    pub fn routed(&self) -> String {
        if self.left_in_inbox {
            return "inbox".into();
        }
        if self.loaded.is_some() {
            let decision = super::decide::is_decision_file(&self.name);
            return if decision { "decision" } else { "pairings" }.into();
        }
        if self.error.is_some() {
            return "rejected".into();
        }
        let mut to: Vec<&str> = Vec::new();
        for s in &self.statuses {
            let f = folder_of(*s);
            if !to.contains(&f) {
                to.push(f);
            }
        }
        if to.is_empty() { "rejected".into() } else { to.join("+") }
    }
}

pub fn folder_of(s: Status) -> &'static str {
    match s {
        Status::Validated => "pgn",
        Status::Review => "review",
        Status::Rejected => "rejected",
    }
}

pub fn io_at(path: &Path) -> impl FnOnce(io::Error) -> FileError + '_ {
    move |source| FileError { path: path.to_path_buf(), source }
}

/// Processes a claimed file; on success the claim is gone and the original is
/// in archive/. `Ok(None)`: the file changed while it was read (a writer still
/// at it); nothing was written, it stays claimed, to be read again once quiet.
pub fn process(cfg: &ProcessConfig, claimed: &Path) -> Result<Option<Outcome>, FileError> {
    let name = file_name(claimed);
    let meta = fs::symlink_metadata(claimed).map_err(io_at(claimed))?;
    if !meta.file_type().is_file() {
        return not_plain(cfg, claimed, &name).map(Some);
    }
    let Some((bytes, read)) = read_claimed(cfg, claimed, &name)? else { return Ok(None) };
    let mut out = Outcome { name: name.clone(), ..Outcome::default() };
    if let (true, Some(bytes)) = (super::pairings::is_trf(&name), &bytes) {
        super::pairings::dropped(cfg, claimed, &name, bytes, &mut out)?;
        return Ok(Some(out));
    }
    if let (true, Some(bytes)) = (super::decide::is_decision_file(&name), &bytes) {
        super::decide::dropped(cfg, claimed, &name, bytes, &mut out)?;
        return Ok(Some(out));
    }
    let read = read.and_then(|s| if s.is_empty() { Err("no game in the file".to_string()) } else { Ok(s) });
    match (bytes, read) {
        (Some(bytes), Ok(sheets)) => {
            super::publish::publish(cfg, claimed, &name, &bytes, &sheets, &mut out)?;
            // Every rejected sheet has its copy beside its `.error.txt`.
            if out.statuses.contains(&Status::Rejected) {
                out.outputs.push(place_copy(cfg, &name, &bytes)?);
            }
            unclaim(claimed)?;
        }
        (bytes, read) => {
            let error = read.err().unwrap_or_default();
            out.error = Some(error.clone());
            reject(cfg, &name, bytes.as_deref(), claimed, &format!("{name}: {error}\n"), &mut out)?;
            archive(cfg, claimed, &mut out)?;
        }
    }
    Ok(Some(out))
}

/// What tells a file changed: its size, modification and change times.
fn fingerprint(path: &Path) -> io::Result<(u64, i64, i64, i64, i64)> {
    use std::os::unix::fs::MetadataExt;
    let m = fs::symlink_metadata(path)?;
    Ok((m.len(), m.mtime(), m.mtime_nsec(), m.ctime(), m.ctime_nsec()))
}

/// The bytes of a claimed plain file (`None` in the pair: not read, over the
/// size limit) and its sheets, or why it cannot be read; `None`: it changed
/// while being read.
type Read = Option<(Option<Vec<u8>>, Result<Vec<Sheet>, String>)>;

fn read_claimed(cfg: &ProcessConfig, claimed: &Path, name: &str) -> Result<Read, FileError> {
    let before = fingerprint(claimed).map_err(io_at(claimed))?;
    let limit = cfg.options.max_file_bytes;
    if before.0 > limit as u64 {
        return Ok(Some((None, Err(format!("file too large: {} bytes (the limit is {limit})", before.0)))));
    }
    let bytes = fs::read(claimed).map_err(io_at(claimed))?;
    let sheets = crate::ingest::read_named(name, &bytes, limit).map_err(|e| e.to_string());
    // A writer that still had the file open can have written to it since the
    // claim (a rename does not stop it): what was read may be half of it.
    let after = fingerprint(claimed).map_err(io_at(claimed))?;
    if after != before || bytes.len() as u64 != after.0 {
        return Ok(None);
    }
    Ok(Some((Some(bytes), sheets)))
}

/// Where one game went: its status as routed, its files (but for its round's
/// file) and its place in its round's file.
#[derive(Debug)]
pub struct Placed {
    pub status: Status,
    pub files: Vec<PathBuf>,
    pub round: Option<RoundEntry>,
    /// The round and board the game's tags give (`Round "4.1"`: 4 and 1).
    pub board: Option<(u32, u32)>,
}

/// What a game read again replaces: the files of its earlier reading (put
/// over where they go to the same folder, else removed by the caller) and
/// its place in its round's file (taken out where the new one goes in).
#[derive(Debug, Default, Clone, Copy)]
pub struct Replacing<'a> {
    pub files: &'a [PathBuf],
    pub round: Option<&'a RoundEntry>,
}

/// The game's file in `dir`: over the earlier reading's file of the same
/// kind in that folder, else under a name nobody holds ([`place_new`]).
fn put_game(
    dir: &Path,
    gname: &str,
    ext: &str,
    bytes: &[u8],
    old: Replacing,
    staging: &Staging,
) -> io::Result<PathBuf> {
    let same = |p: &&PathBuf| p.parent() == Some(dir) && p.to_string_lossy().ends_with(ext);
    match old.files.iter().find(same) {
        Some(p) => replace_staged(p, bytes, staging).map(|()| p.clone()),
        None => place_new(dir, gname, ext, bytes, staging),
    }
}

/// Puts game `index` of `count` of the file `name` where its status sends it
/// (over `old`, its earlier reading, where there is one), and returns where
/// it went (a validated game whose board already has another game in the
/// round file goes to review). Its files are added to `out` too.
pub fn route(
    cfg: &ProcessConfig,
    name: &str,
    (index, count): (usize, usize),
    game: &GameReport,
    old: Replacing,
    out: &mut Outcome,
) -> Result<Placed, FileError> {
    let f = &cfg.folders;
    let stem = Path::new(name).file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let tag = |k: &str| game.headers.get(k).and_then(|v| v.as_str());
    let gname = game_name(tag, &stem, index, count);
    game.findings.iter().for_each(|x| *out.findings.entry(x.code).or_default() += 1);
    let mut placed = Placed { status: game.status, files: Vec::new(), round: None, board: board_of(&tag) };
    match game.status {
        Status::Validated => {
            let round = (tag("Event"), tag("Round").filter(|r| *r != "?" && !part(r).is_empty()));
            if let (Some(event), Some(round)) = round {
                validated_in_round(cfg, name, &gname, (event, round), game, old, &mut placed, out)?;
            } else {
                let p =
                    put_game(&f.pgn, &gname, ".pgn", game.pgn.as_bytes(), old, &cfg.staging).map_err(io_at(&f.pgn))?;
                placed.files.push(p);
            }
        }
        Status::Review => review(cfg, name, &gname, game, old, &mut placed)?,
        Status::Rejected => {
            let why = game.findings.iter().map(|x| format!("{}: {}\n", x.code, x.message)).collect::<String>();
            let by_arbiter = game.findings.iter().any(|x| x.code == "arbiter-decision");
            let what = if by_arbiter { "rejected by the arbiter" } else { "no move could be read" };
            let players = format!("{} – {}", tag("White").unwrap_or("?"), tag("Black").unwrap_or("?"));
            let text = format!("{name}, game {} ({players}): {what}\n{why}", index + 1);
            let p = put_game(&f.rejected, &gname, ".error.txt", text.as_bytes(), old, &cfg.staging)
                .map_err(io_at(&f.rejected))?;
            placed.files.push(p);
        }
    }
    out.outputs.extend(placed.files.iter().cloned());
    if let Some(r) = &placed.round {
        out.outputs.push(Round::path(&f.pgn, &r.event, &r.round));
    }
    Ok(placed)
}

/// The round and board a game's tags give.
fn board_of<'a>(tag: &impl Fn(&str) -> Option<&'a str>) -> Option<(u32, u32)> {
    let (round, in_round) = match tag("Round")?.split_once('.') {
        Some((r, b)) => (r, Some(b)),
        None => (tag("Round")?, None),
    };
    let board = tag("Board").or(in_round)?;
    Some((round.trim().parse().ok()?, board.trim().parse().ok()?))
}

/// A validated game of a round: into pgn/ and the round file, one game per
/// board (see `round`), its earlier reading taken out of the round file
/// first. Both are written under the round's lock, so the judgement and the
/// writes are one step for every daemon.
#[allow(clippy::too_many_arguments)]
fn validated_in_round(
    cfg: &ProcessConfig,
    name: &str,
    gname: &str,
    (event, round): (&str, &str),
    game: &GameReport,
    old: Replacing,
    placed: &mut Placed,
    out: &mut Outcome,
) -> Result<(), FileError> {
    let pgn = &cfg.folders.pgn;
    let mut file = Round::open(pgn, event, round).map_err(io_at(pgn))?;
    if let Some(o) = old.round.filter(|o| o.event == event && o.round == round) {
        file.remove(&o.game);
    }
    let judged = file.judge(&game.pgn);
    if let Judged::Conflict(finding) = judged {
        file.save(&cfg.staging).map_err(io_at(pgn))?;
        *out.findings.entry(finding.code()).or_default() += 1;
        placed.status = Status::Review;
        return review(cfg, name, gname, &flagged(game, &finding, cfg.options.report_language), old, placed);
    }
    let p = put_game(pgn, gname, ".pgn", game.pgn.as_bytes(), old, &cfg.staging).map_err(io_at(pgn))?;
    placed.files.push(p);
    let r = file.put(&game.pgn, &judged, &cfg.staging).map_err(io_at(pgn))?;
    if let Judged::Correction(old) = &judged {
        let board = game.headers.get("Board").and_then(|v| v.as_str()).unwrap_or("?");
        let (board, round, old) = (quoted(board), quoted(round), quoted(old));
        info!(
            file = %name, %round, %board, replaced = %old, round_file = %r.display(),
            "a correction replaces the board's game in the round file (the earlier sheet stays in archive/)"
        );
    }
    placed.round = Some(RoundEntry { event: event.to_string(), round: round.to_string(), game: game.pgn.clone() });
    Ok(())
}

/// `game` sent to review for `finding`, which the daemon found: the finding in
/// its report and, as a comment before the first move, in its PGN.
fn flagged(game: &GameReport, finding: &Finding, lang: ReportLanguage) -> GameReport {
    let mut g = game.clone();
    g.status = Status::Review;
    g.pgn = with_comment(&g.pgn, &crate::emit::pgn::comment_of(finding, lang));
    g.findings.push(FindingReport::of(finding, lang));
    g
}

/// A review game: its PGN (naming the file it came from) and its JSON report.
fn review(
    cfg: &ProcessConfig,
    name: &str,
    gname: &str,
    game: &GameReport,
    old: Replacing,
    placed: &mut Placed,
) -> Result<(), FileError> {
    let dir = &cfg.folders.review;
    let mut game = game.clone();
    game.pgn = with_tag(&game.pgn, SOURCE_TAG, name);
    game.headers.entry(SOURCE_TAG).or_insert_with(|| name.into());
    let p = put_game(dir, gname, ".pgn", game.pgn.as_bytes(), old, &cfg.staging).map_err(io_at(dir))?;
    // Named after the game it reports on, so replaced, not placed: written
    // again whenever its game is (or is found already) placed.
    let json = p.with_extension("json");
    replace_staged(&json, review_report(name, &game).as_bytes(), &cfg.staging).map_err(io_at(&json))?;
    placed.files.push(p);
    placed.files.push(json);
    Ok(())
}

fn file_name(path: &Path) -> String {
    path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
}

/// Rejects a claimed file for `why` (used when reading it failed unexpectedly)
/// and archives it.
pub fn reject_file(cfg: &ProcessConfig, claimed: &Path, why: &str) -> Result<Outcome, FileError> {
    let name = file_name(claimed);
    let bytes = fs::read(claimed).map_err(io_at(claimed))?;
    let mut out = Outcome { name: name.clone(), error: Some(why.to_string()), ..Outcome::default() };
    reject(cfg, &name, Some(&bytes), claimed, &format!("{name}: {why}\n"), &mut out)?;
    archive(cfg, claimed, &mut out)?;
    Ok(out)
}

/// Last: the original, exactly as received (bytes and name), is linked into
/// archive/, then the claim goes. Until then a crash leaves the file claimed,
/// to be processed again.
pub fn archive(cfg: &ProcessConfig, claimed: &Path, out: &mut Outcome) -> Result<(), FileError> {
    let dir = &cfg.folders.archive;
    let archived = link_new(claimed, dir, claimed.file_name().unwrap_or_default()).map_err(io_at(dir))?;
    out.outputs.push(archived);
    unclaim(claimed)
}

pub fn unclaim(claimed: &Path) -> Result<(), FileError> {
    match fs::remove_file(claimed) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(FileError { path: claimed.to_path_buf(), source: e }),
    }
}

/// A copy of the original in rejected/, under its name (`-2` before the
/// extension for another file of that name).
fn place_copy(cfg: &ProcessConfig, name: &str, bytes: &[u8]) -> Result<PathBuf, FileError> {
    let dir = &cfg.folders.rejected;
    let (stem, ext) = split_ext(name);
    place_new(dir, &stem, &ext, bytes, &cfg.staging).map_err(io_at(dir))
}

/// An unreadable file: a copy of it and `<name>.error.txt` in rejected/.
pub fn reject(
    cfg: &ProcessConfig,
    name: &str,
    bytes: Option<&[u8]>,
    claimed: &Path,
    why: &str,
    out: &mut Outcome,
) -> Result<(), FileError> {
    let dir = &cfg.folders.rejected;
    let copy = match bytes {
        Some(b) => place_copy(cfg, name, b)?,
        // Not read (over the size limit): linked, not copied through memory.
        None => link_new(claimed, dir, claimed.file_name().unwrap_or_default()).map_err(io_at(dir))?,
    };
    out.outputs.push(copy.clone());
    let text = place_new(dir, &file_name(&copy), ".error.txt", why.as_bytes(), &cfg.staging).map_err(io_at(dir))?;
    out.outputs.push(text);
    Ok(())
}

/// A link, a pipe or a device: never read or followed, moved as it is into
/// rejected/ with its `.error.txt` (not into archive/: it holds no bytes of
/// its own). Where it cannot be moved (rejected/ on another file system), it
/// goes back to the inbox and is left there, said once in the log.
fn not_plain(cfg: &ProcessConfig, claimed: &Path, name: &str) -> Result<Outcome, FileError> {
    let dir = &cfg.folders.rejected;
    let why = "not a plain file (a link, a pipe or a device): never read or followed";
    let mut out = Outcome { name: name.to_string(), error: Some(why.to_string()), ..Outcome::default() };
    match link_only(claimed, dir, claimed.file_name().unwrap_or_default()) {
        Ok(moved) => {
            let text = format!("{name}: {why}\n");
            let t =
                place_new(dir, &file_name(&moved), ".error.txt", text.as_bytes(), &cfg.staging).map_err(io_at(dir))?;
            out.outputs.extend([moved, t]);
        }
        // Any other failure (permissions, a full disk) is an outside cause:
        // retried like any file's.
        Err(e) if e.kind() != std::io::ErrorKind::CrossesDevices => return Err(io_at(dir)(e)),
        Err(e) => {
            let inbox = &cfg.folders.inbox;
            let back = link_only(claimed, inbox, claimed.file_name().unwrap_or_default()).map_err(io_at(inbox))?;
            out.error = Some(format!("{why}; cannot be moved to {}: {e}; left in the inbox", dir.display()));
            out.outputs.push(back);
            out.left_in_inbox = true;
        }
    }
    unclaim(claimed)?;
    Ok(out)
}

/// The review report of one game: the file it came from and the game as `convert --json` reports it.
fn review_report(file: &str, game: &GameReport) -> String {
    let mut s = serde_json::to_string_pretty(&serde_json::json!({ "file": file, "game": game })).unwrap_or_default();
    s.push('\n');
    s
}
