//! The detectors: what a reading of a sheet tells an arbiter, one finding
//! kind per function (the kinds themselves, with their codes, severities and
//! messages, are in [`crate::finding`]).

use shakmaty::san::{SanPlus, Suffix};
use shakmaty::{Chess, Color, Position};

use super::draft::Record;
use super::entries::{descriptive_at, is_illegible};
use super::game::{FIVEFOLD_PLIES, Game, ended_by_rule, key, san_of};
use super::step::Step;
use crate::cost::DESCRIPTIVE_NEAR;
use crate::finding::{At, Ending, Finding, ResultAt};
use crate::notation::lex::{CheckMark, Lexed};
use crate::sheet::{GameResult, Sheet};

/// Where entry `e` is, at ply `ply`.
fn at_entry(sheet: &Sheet, ply: u32, e: usize) -> At {
    At { ply, line: sheet.entries[e].line, col: sheet.entries[e].col }
}

/// A step whose best reading is not clearly ahead, at ply `ply` in `pos`:
/// the move read (or "nothing" for a skipped entry) and its rivals.
pub(super) fn ambiguous_repair(sheet: &Sheet, pos: &Chess, ply: u32, record: &Record, rivals: &[String]) -> Finding {
    let (written, at) = match record.step {
        Step::Read { entry, .. } | Step::Skip { entry, .. } => {
            (sheet.entries[entry].text.clone(), at_entry(sheet, ply, entry))
        }
        Step::InsertRead { entry, .. } => (String::new(), At { ply, ..at_entry(sheet, ply, entry) }),
    };
    let replacement = record.step.moves().next().map_or_else(|| "nothing".to_string(), |m| san_of(pos, m));
    Finding::AmbiguousRepair { at, written, replacement, alternatives: rivals.to_vec(), margin: record.margin }
}

/// An entry that is not a move of the game (`repeat`: the same as its neighbour).
pub(super) fn extra_entry(sheet: &Sheet, ply: u32, entry: usize, repeat: bool, margin: f32) -> Finding {
    Finding::ExtraEntry { at: at_entry(sheet, ply, entry), written: sheet.entries[entry].text.clone(), repeat, margin }
}

/// A move that was not written.
pub(super) fn missing_move(ply: u32, san: &SanPlus, margin: f32) -> Finding {
    Finding::MissingMove { at: At { ply, line: 0, col: 0 }, replacement: san.to_string(), margin }
}

/// An entry read as a move other than as written: an illegible box filled,
/// or a slip repaired (`fuzzy`).
pub(super) fn repaired_entry(
    sheet: &Sheet,
    l: &Lexed<'_>,
    ply: u32,
    entry: usize,
    fuzzy: bool,
    san: &SanPlus,
    margin: f32,
) -> Option<Finding> {
    let illegible = is_illegible(l);
    if !illegible && !fuzzy {
        return None;
    }
    let (at, written, replacement) = (at_entry(sheet, ply, entry), sheet.entries[entry].text.clone(), san.to_string());
    Some(if illegible {
        Finding::IllegibleEntry { at, written, replacement, margin }
    } else {
        Finding::TypoRepaired { at, written, replacement, margin }
    })
}

/// A check or mate sign the move read does not bear out.
pub(super) fn check_mark(sheet: &Sheet, l: &Lexed<'_>, ply: u32, entry: usize, san: &SanPlus) -> Option<Finding> {
    let gives = san.suffix;
    let claims_mate = l.check == Some(CheckMark::Mate) && gives != Some(Suffix::Checkmate);
    let claims_check = l.check == Some(CheckMark::Check) && gives.is_none();
    (claims_mate || claims_check).then(|| Finding::CheckMarkMismatch {
        at: at_entry(sheet, ply, entry),
        written: sheet.entries[entry].text.clone(),
        replacement: san.to_string(),
    })
}

/// The move numbers written against the plies read: the first entry whose
/// number disagrees with the ones before (once moves not written and
/// entries skipped are counted) is reported, once per game.
#[derive(Debug, Default)]
pub(super) struct Numbering {
    /// Ply read less ply written, at the last numbered entry.
    offset: Option<i64>,
    reported: bool,
}

impl Numbering {
    /// An entry skipped: the plies after it are one fewer than written.
    pub(super) fn skipped(&mut self) {
        self.offset = self.offset.map(|o| o - 1);
    }

    /// A move not written: the plies after it are one more than written.
    pub(super) fn inserted(&mut self) {
        self.offset = self.offset.map(|o| o + 1);
    }

    /// Entry `entry` read as ply `ply`.
    pub(super) fn read(&mut self, sheet: &Sheet, ply: u32, entry: usize) -> Option<Finding> {
        let declared = sheet.entries[entry].ply?;
        let observed = ply as i64 - declared as i64;
        let finding = match self.offset {
            Some(o) if o != observed && !self.reported => {
                self.reported = true;
                Some(Finding::NumberingError {
                    at: at_entry(sheet, ply, entry),
                    written: sheet.entries[entry].text.clone(),
                })
            }
            _ => None,
        };
        self.offset = Some(observed);
        finding
    }
}

/// Reading stopped at entry `i`, at ply `ply`: the record turns descriptive
/// there, or the entry names no legal move in `pos` (and a descriptive entry
/// just after it is said too).
pub(super) fn stopped(sheet: &Sheet, lexed: &[Lexed<'_>], (ply, pos): (u32, &Chess), i: usize) -> Vec<Finding> {
    let (at, written) = (at_entry(sheet, ply, i), sheet.entries[i].text.clone());
    if descriptive_at(lexed, i) {
        return vec![Finding::NonAlgebraic { at, written, read: None }];
    }
    // What an arbiter establishes: the last position the record supports,
    // and how much of it cannot be reconstructed from there.
    let fen = shakmaty::fen::Fen::from_position(pos, shakmaty::EnPassantMode::Legal).to_string();
    let mut found = vec![Finding::IllegalMove { at, written, fen, unread: sheet.entries.len() - i }];
    // A slip just before the record turns descriptive: say that too.
    if let Some(j) = (i + 1..lexed.len().min(i + 1 + DESCRIPTIVE_NEAR)).find(|&j| descriptive_at(lexed, j)) {
        let (at, written) = (at_entry(sheet, ply, j), sheet.entries[j].text.clone());
        found.push(Finding::NonAlgebraic { at, written, read: None });
    }
    found
}

/// The search went past its budget at entry `i`, at ply `ply`: the game is
/// kept as read up to there.
pub(super) fn search_budget(sheet: &Sheet, ply: u32, i: usize) -> Finding {
    Finding::SearchBudget {
        at: at_entry(sheet, ply, i),
        written: sheet.entries[i].text.clone(),
        unread: sheet.entries.len() - i,
    }
}

/// The budget was spent on a game whose reading did not stop for it (it was
/// spent weighing doubts, on a second look or another language): said at its
/// last move, once.
pub(super) fn budget_spent(sheet: &Sheet, game: &mut Game) {
    if game.findings.iter().any(|f| matches!(f, Finding::SearchBudget { .. })) {
        return;
    }
    let ply = game.moves.len() as u32;
    let last = game.moves.iter().rev().find_map(|m| m.entry);
    let (at, written) = match last {
        Some(e) => (at_entry(sheet, ply, e), sheet.entries[e].text.clone()),
        None => (At { ply: ply.max(1), line: sheet.line, col: 1 }, String::new()),
    };
    game.findings.push(Finding::SearchBudget { at, written, unread: 0 });
}

/// A record read in descriptive notation (from its first marked entry): said
/// once, at that entry, with the system and how many moves were read in it.
pub(super) fn descriptive(sheet: &Sheet, lexed: &[Lexed<'_>], game: &mut Game) {
    let numeric = lexed.iter().position(|l| l.numeric);
    let Some(first) = lexed.iter().position(|l| l.descriptive).or(numeric) else { return };
    let system = match numeric {
        Some(_) => crate::notation::Notation::IccfNumeric,
        None => match crate::notation::descriptive::system_of(game.language.code) {
            Some(s) => s.notation,
            None => return,
        },
    };
    let moves = game.moves.iter().filter(|m| m.entry.is_some_and(|e| e >= first)).count() as u32;
    let ply = game.moves.iter().position(|m| m.entry.is_some_and(|e| e >= first)).map_or(1, |k| k as u32 + 1);
    let (at, written) = (at_entry(sheet, ply, first), sheet.entries[first].text.clone());
    game.findings.insert(0, Finding::NonAlgebraic { at, written, read: Some((system, moves.div_ceil(2))) });
    let before = game.moves.iter().filter(|m| m.entry.is_some_and(|e| e < first)).count() as u32;
    if before > 0 {
        game.findings.insert(1, Finding::MixedNotation { at, system, algebraic: before.div_ceil(2) });
    }
}

/// How many moves in another language's letters make a sheet of mixed
/// letters: one or two are slips of a player who reads books in English
/// (each read at a cost, `typo-repaired`); three or more, and a fifth of
/// the piece moves or more, are a second set of letters.
const MIXED_LETTERS: usize = 3;
const MIXED_LETTERS_SHARE: usize = 5;

/// Moves that only English letters read on a sheet in another language
/// (`Nf6`, `Bb5` on a Spanish sheet): said once, at the first, where there
/// are [`MIXED_LETTERS`] or more.
pub(super) fn other_letters(sheet: &Sheet, lexed: &[Lexed<'_>], game: &mut Game) {
    let Some(english) = crate::notation::Language::find("en") else { return };
    if game.language.pieces == english.pieces {
        return;
    }
    let (mut pos, mut readings, mut found) = (game.start.position.clone(), Vec::new(), Vec::new());
    let mut piece_moves = 0;
    for (k, m) in game.moves.iter().enumerate() {
        piece_moves += usize::from(m.mv.role() != shakmaty::Role::Pawn && !m.mv.is_castle());
        if let Some(e) = m.entry.filter(|&e| !lexed[e].descriptive && !lexed[e].numeric) {
            let reads = |lang, readings: &mut Vec<_>| {
                crate::notation::reading::readings_into(&lexed[e].core, lang, readings);
                crate::notation::reading::exact_move(&pos, readings) == Some(m.mv)
            };
            if !reads(game.language, &mut readings) && reads(english, &mut readings) {
                found.push((k as u32 + 1, e));
            }
        }
        pos.play_unchecked(m.mv);
    }
    if let [(ply, e), ..] = found[..]
        && found.len() >= MIXED_LETTERS
        && found.len() * MIXED_LETTERS_SHARE >= piece_moves
    {
        let at = at_entry(sheet, ply, e);
        let (own, other, moves) = (game.language.name, english.name, found.len() as u32);
        game.findings.push(Finding::MixedLetters { at, own, other, moves });
    }
}

/// Entries written after the game ended (as `ending` says), from entry `i`.
pub(super) fn moves_after_end(sheet: &Sheet, ply: u32, i: usize, ending: Ending) -> Finding {
    Finding::MovesAfterEnd { at: at_entry(sheet, ply, i), written: sheet.entries[i].text.clone(), ending }
}

/// The result: as written, checked against the final position (checkmate,
/// stalemate, neither side able to checkmate: Art. 5; a draw without a
/// claim: Art. 9.6); a draw recorded where one could be claimed (Art. 9.2,
/// 9.3); each draw offered (Art. 9.1.2).
pub(super) fn judge_result(sheet: &Sheet, game: &mut Game) {
    let complete = !game.findings.iter().any(|f| {
        matches!(f, Finding::IllegalMove { .. } | Finding::NonAlgebraic { .. })
            || matches!(f, Finding::SearchBudget { unread, .. } if *unread > 0)
    });
    draw_offers(sheet, game);
    let board = board_result(game, complete);
    let written = match written_result(sheet) {
        Ok(w) => w,
        Err([header, moves]) => {
            let results = vec![(header, ResultAt::Header), (moves, ResultAt::AfterMoves)];
            game.findings.push(Finding::ResultsDisagree { results });
            game.result = GameResult::Unknown;
            return;
        }
    };
    game.result = match (written, board) {
        (Some(w), Some((b, ending))) if w != b && complete => {
            game.findings.push(Finding::ResultMismatch { written: w, board: b, ending });
            w
        }
        (Some(w), _) => w,
        (None, Some((b, _))) => b,
        // No result the players signed (Art. 8.7) and none the board gives:
        // the arbiter establishes it. Whether the record lacks moves the game
        // had cannot be told from one copy (see `copies::incomplete`).
        (None, None) => {
            if complete && !game.moves.is_empty() {
                // The last move's number, as the sheet numbers it.
                let last = game.moves.len() as u32 + game.start.first_ply() - 1;
                // A printed score's note after its last move may go on with it.
                let noted = game
                    .moves
                    .last()
                    .and_then(|m| m.entry)
                    .and_then(|e| sheet.entries.get(e))
                    .is_some_and(|e| !e.comments.is_empty() || !e.variations.is_empty());
                game.findings.push(Finding::ResultMissing { moves: last.div_ceil(2), noted });
            }
            GameResult::Unknown
        }
    };
    // A draw the rules made without a claim was not claimed.
    let automatic = matches!(board, Some((_, Ending::FivefoldRepetition | Ending::SeventyFiveMoves)));
    if game.result == GameResult::Draw && complete && !automatic {
        draw_claim(sheet, game);
    }
}

/// The result the final position gives, and why. A dead position other
/// than bare material, or a flag fall, is the arbiter's to judge. The
/// reading stops where the game ended drawn without a claim (Art. 9.6), so
/// that is told from the final position too; a checkmate there takes
/// precedence.
fn board_result(game: &Game, complete: bool) -> Option<(GameResult, Ending)> {
    let pos = &game.position;
    let automatic = || {
        // No position stands five times in fewer plies without a capture or
        // a pawn move: most games are not replayed.
        (pos.halfmoves() >= FIVEFOLD_PLIES)
            .then(|| ended_by_rule(&game.start.position, game.moves.iter().map(|m| m.mv)))
            .flatten()
            .filter(|&(end, _)| end == game.moves.len())
            .map(|(_, ending)| (GameResult::Draw, ending))
    };
    match (pos.legal_moves().is_empty(), pos.is_check(), pos.turn()) {
        (true, true, Color::White) => Some((GameResult::BlackWins, Ending::Checkmate)),
        (true, true, Color::Black) => Some((GameResult::WhiteWins, Ending::Checkmate)),
        (true, false, _) if complete => Some((GameResult::Draw, Ending::Stalemate)),
        _ => automatic().or_else(|| {
            (complete && !game.moves.is_empty() && pos.is_insufficient_material())
                .then_some((GameResult::Draw, Ending::NoMate))
        }),
    }
}

/// The result a sheet writes, after its moves or in its `Result` header
/// (`*` is no result); or the two when they differ (`[header, moves]`):
/// the result is then the arbiter's to establish (Art. 8.7).
pub(crate) fn written_result(sheet: &Sheet) -> Result<Option<GameResult>, [GameResult; 2]> {
    let known = |r: Option<GameResult>| r.filter(|r| *r != GameResult::Unknown);
    let moves = known(sheet.result);
    let header = known(sheet.header("Result").and_then(GameResult::parse));
    match (header, moves) {
        (Some(h), Some(m)) if h != m => Err([h, m]),
        (h, m) => Ok(m.or(h)),
    }
}

/// Where the game's last move is.
fn last_at(sheet: &Sheet, game: &Game) -> At {
    let ply = game.moves.len() as u32;
    match game.moves.last().and_then(|m| m.entry) {
        Some(e) => at_entry(sheet, ply, e),
        None => At { ply, line: 0, col: 0 },
    }
}

/// A draw recorded where it could be claimed: the final position for the
/// third time, or the fifty-move count reached.
fn draw_claim(sheet: &Sheet, game: &mut Game) {
    if game.moves.is_empty() {
        return;
    }
    let mut pos = game.start.position.clone();
    let mut seen = vec![key(&pos)];
    for m in &game.moves {
        pos.play_unchecked(m.mv);
        seen.push(key(&pos));
    }
    let last = *seen.last().expect("one position at least");
    let at = last_at(sheet, game);
    if seen.iter().filter(|&&k| k == last).count() >= 3 {
        game.findings.push(Finding::DrawClaim { at, repetition: true });
    } else if game.position.halfmoves() >= 100 {
        game.findings.push(Finding::DrawClaim { at, repetition: false });
    }
}

/// Each move written with `(=)`: the player offered a draw.
fn draw_offers(sheet: &Sheet, game: &mut Game) {
    let offers: Vec<Finding> = game
        .moves
        .iter()
        .enumerate()
        .filter(|(_, m)| m.draw_offer)
        .map(|(i, m)| {
            let ply = i as u32 + 1;
            let at = m.entry.map_or(At { ply, line: 0, col: 0 }, |e| at_entry(sheet, ply, e));
            Finding::DrawOffer { at }
        })
        .collect();
    game.findings.extend(offers);
}
