//! A judged game put where its status sends it: pgn/ and its round's file,
//! review/ with its report, or rejected/ with why; over its earlier reading
//! where it is read again.

use std::path::{Path, PathBuf};

use tracing::info;

use crate::emit::file::{Staging, replace_staged};
use crate::emit::report::{FindingReport, GameReport, Status};
use crate::finding::{Finding, ReportLanguage, quoted};

use super::annotate::{with_comment, with_tag};
use super::games::RoundEntry;
use super::names::{game_name, part, round_and_board};
use super::outcome::{FileError, Outcome, ProcessConfig, io_at};
use super::place::{free_name, place_new};
use super::round::{Judged, Round};

/// The tag that names, in a review game's PGN, the file it was dropped as.
pub(crate) const SOURCE_TAG: &str = "SourceFile";

/// Where one game went: its status as routed, its files (but for its round's
/// file) and its place in its round's file.
#[derive(Debug)]
pub(crate) struct Placed {
    pub status: Status,
    pub files: Vec<PathBuf>,
    pub round: Option<RoundEntry>,
    /// The round and board the game's tags give (`Round "4.1"`: 4 and 1).
    pub board: Option<(u32, u32)>,
    /// The result its tags give.
    pub result: Option<String>,
    /// The codes of its notices the desk lists, once each.
    pub notices: Vec<String>,
}

/// What a game read again replaces: the files of its earlier reading (put
/// over where they go to the same folder, else removed by the caller) and
/// its place in its round's file (taken out where the new one goes in).
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Replacing<'a> {
    pub files: &'a [PathBuf],
    pub round: Option<&'a RoundEntry>,
}

/// What a change is about to place: a file, or a game in its round's file.
/// Told before it is placed, so that the change records it first and a redo
/// after a crash replaces exactly it.
pub(crate) enum Placing<'a> {
    File(&'a Path),
    Round(&'a RoundEntry),
}

/// Where a change records what it is about to place ([`Placing`]).
pub(crate) type Intent<'i> = dyn FnMut(Placing<'_>) -> Result<(), FileError> + 'i;

/// The game's file in `dir`: over the earlier reading's file of the same
/// kind in that folder, else under a name nobody holds ([`place_new`]); the
/// name told to `intent` before the file is placed.
fn put_game(
    dir: &Path,
    (gname, ext): (&str, &str),
    bytes: &[u8],
    old: Replacing,
    (staging, intent): (&Staging, &mut Intent<'_>),
) -> Result<PathBuf, FileError> {
    let same = |p: &&PathBuf| p.parent() == Some(dir) && p.to_string_lossy().ends_with(ext);
    if let Some(p) = old.files.iter().find(same) {
        intent(Placing::File(p))?;
        replace_staged(p, bytes, staging).map_err(io_at(dir))?;
        return Ok(p.clone());
    }
    let target = free_name(dir, gname, ext, bytes);
    intent(Placing::File(&target))?;
    let placed = place_new(dir, gname, ext, bytes, staging).map_err(io_at(dir))?;
    if placed != target {
        // Another writer took the name meanwhile: the name placed is told too.
        intent(Placing::File(&placed))?;
    }
    Ok(placed)
}

/// No record of what is placed: a change that is redone reads the same.
pub(crate) fn unrecorded(_: Placing<'_>) -> Result<(), FileError> {
    Ok(())
}

/// Puts game `index` of `count` of the file `name` where its status sends it
/// (over `old`, its earlier reading, where there is one), and returns where
/// it went (a validated game whose board already has another game in the
/// round file goes to review). Its files are added to `out` too.
pub(crate) fn route(
    cfg: &ProcessConfig,
    name: &str,
    (index, count): (usize, usize),
    game: &GameReport,
    (old, intent): (Replacing, &mut Intent<'_>),
    out: &mut Outcome,
) -> Result<Placed, FileError> {
    let f = &cfg.folders;
    let stem = Path::new(name).file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let tag = |k: &str| game.headers.get(k).and_then(|v| v.as_str());
    let gname = game_name(tag, &stem, index, count);
    game.findings.iter().for_each(|x| *out.findings.entry(x.code).or_default() += 1);
    let mut notices: Vec<String> = Vec::new();
    for f in game.findings.iter().filter(|f| f.told) {
        if !notices.iter().any(|c| c == f.code) {
            notices.push(f.code.to_string());
        }
    }
    let result = tag("Result").map(str::to_string);
    let mut placed =
        Placed { status: game.status, files: Vec::new(), round: None, board: board_of(&tag), result, notices };
    match game.status {
        Status::Validated => {
            // `Round "3.1"` is round 3's file, board 1.
            let round = tag("Round").map(|r| round_and_board(r).0);
            let round = (tag("Event"), round.filter(|r| *r != "?" && !part(r).is_empty()));
            if let (Some(event), Some(round)) = round {
                validated_in_round(cfg, name, &gname, (event, round), game, (old, intent), &mut placed, out)?;
            } else {
                let p = put_game(&f.pgn, (&gname, ".pgn"), game.pgn.as_bytes(), old, (&cfg.staging, intent))?;
                placed.files.push(p);
            }
        }
        Status::Review => review(cfg, name, &gname, game, (old, intent), &mut placed)?,
        Status::Rejected => {
            let why = game.findings.iter().map(|x| format!("{}: {}\n", x.code, x.message)).collect::<String>();
            let by_arbiter = game.findings.iter().any(|x| x.code == "arbiter-decision");
            let what = if by_arbiter { "rejected by the arbiter" } else { "no move could be read" };
            let players = format!("{} – {}", tag("White").unwrap_or("?"), tag("Black").unwrap_or("?"));
            let text = format!("{name}, game {} ({players}): {what}\n{why}", index + 1);
            let p = put_game(&f.rejected, (&gname, ".error.txt"), text.as_bytes(), old, (&cfg.staging, intent))?;
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
    (old, intent): (Replacing, &mut Intent<'_>),
    placed: &mut Placed,
    out: &mut Outcome,
) -> Result<(), FileError> {
    let pgn = &cfg.folders.pgn;
    let mut file = Round::open(pgn, &cfg.folders.state, event, round).map_err(io_at(pgn))?;
    if let Some(o) = old.round.filter(|o| o.event == event && o.round == round) {
        file.remove(&o.game);
    }
    let judged = file.judge(&game.pgn);
    if let Judged::Conflict(finding) = judged {
        file.save(&cfg.staging).map_err(io_at(pgn))?;
        super::results::refresh(cfg, event)?;
        *out.findings.entry(finding.code()).or_default() += 1;
        placed.status = Status::Review;
        return review(cfg, name, gname, &flagged(game, &finding, cfg.options.report_language), (old, intent), placed);
    }
    let p = put_game(pgn, (gname, ".pgn"), game.pgn.as_bytes(), old, (&cfg.staging, intent))?;
    placed.files.push(p);
    let entry = RoundEntry { event: event.to_string(), round: round.to_string(), game: game.pgn.clone() };
    intent(Placing::Round(&entry))?;
    let r = file.put(&game.pgn, &judged, &cfg.staging).map_err(io_at(pgn))?;
    super::results::refresh(cfg, event)?;
    if let Judged::Correction(old) = &judged {
        let board = game.headers.get("Board").and_then(|v| v.as_str()).unwrap_or("?");
        let (board, round, old) = (quoted(board), quoted(round), quoted(old));
        info!(
            file = %name, %round, %board, replaced = %old, round_file = %r.display(),
            "a correction replaces the board's game in the round file (the earlier sheet stays in archive/)"
        );
    }
    placed.round = Some(entry);
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
    (old, intent): (Replacing, &mut Intent<'_>),
    placed: &mut Placed,
) -> Result<(), FileError> {
    let dir = &cfg.folders.review;
    let mut game = game.clone();
    game.pgn = with_tag(&game.pgn, SOURCE_TAG, name);
    game.headers.entry(SOURCE_TAG).or_insert_with(|| name.into());
    let p = put_game(dir, (gname, ".pgn"), game.pgn.as_bytes(), old, (&cfg.staging, intent))?;
    // Named after the game it reports on, so replaced, not placed: written
    // again whenever its game is (or is found already) placed.
    let json = p.with_extension("json");
    intent(Placing::File(&json))?;
    replace_staged(&json, review_report(name, &game).as_bytes(), &cfg.staging).map_err(io_at(&json))?;
    placed.files.push(p);
    placed.files.push(json);
    Ok(())
}

/// The review report of one game: the file it came from and the game as `convert --json` reports it.
fn review_report(file: &str, game: &GameReport) -> String {
    let mut s = serde_json::to_string_pretty(&serde_json::json!({ "file": file, "game": game })).unwrap_or_default();
    s.push('\n');
    s
}
