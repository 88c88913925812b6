//! The findings' messages in English, the report's default language.

use super::messages::Messages;
use super::values::{At, CopyEntry, CopyMove, Ending, NamedPairing, NotRead, ResultAt, SheetPairing, Why, ply_label};
use crate::notation::Notation;
use crate::sheet::{GameResult, Invisible, MAX_HEADERS};
use crate::start::SetUpError;

/// The English table.
pub(crate) struct English;

/// Where a finding is, as a person names it: `move 9... (line 14, column 8)`.
fn label(at: &At) -> String {
    if at.line > 0 {
        format!("move {} (line {}, column {})", at.move_label(), at.line, at.col)
    } else {
        format!("move {}", at.move_label())
    }
}

/// `1 entry`, `3 entries`.
fn entries(n: usize) -> String {
    format!("{n} {}", if n == 1 { "entry" } else { "entries" })
}

/// The ending and its Law.
fn ending(e: Ending) -> &'static str {
    match e {
        Ending::Checkmate => "checkmate, Art. 5.1.1",
        Ending::Stalemate => "stalemate, Art. 5.2.1",
        Ending::NoMate => "neither side can checkmate, Art. 5.2.2",
        Ending::FivefoldRepetition => "the same position for the fifth time, a draw without a claim, Art. 9.6.1",
        Ending::SeventyFiveMoves => {
            "75 moves by each player without a capture or a pawn move, a draw without a claim, Art. 9.6.2"
        }
    }
}

/// A notation's name: `English descriptive`.
fn notation(n: Notation) -> &'static str {
    match n {
        Notation::EnglishDescriptive => "English descriptive",
        Notation::SpanishDescriptive => "Spanish descriptive",
        Notation::FrenchDescriptive => "French descriptive",
        Notation::IccfNumeric => "ICCF numeric",
    }
}

/// A pairing: `round 2, board 3: Navara, David - Carlsen, Magnus`.
fn pairing(p: &NamedPairing) -> String {
    p.said("round", "board")
}

/// What a sheet gives of its pairing: `round 2, board 35, A - B`.
fn sheet_pairing(p: &SheetPairing) -> String {
    p.said("round", "board")
}

fn copy_entry(e: &CopyEntry) -> &str {
    match e {
        CopyEntry::Written(w) => w,
        CopyEntry::NotWritten => "(not written)",
        CopyEntry::Ended => "(nothing more)",
    }
}

fn copy_move(m: &CopyMove) -> &str {
    match m {
        CopyMove::Move(m) => m,
        CopyMove::GameEnds => "the game ending here",
    }
}

/// The results a record gives, each with where: `1-0 (the Result header),
/// 0-1 (after the moves)`, or a copy's file.
fn results_said(results: &[(GameResult, ResultAt)]) -> String {
    super::values::results_said(results, |w| match w {
        ResultAt::Header => "the Result header".to_string(),
        ResultAt::AfterMoves => "after the moves".to_string(),
        ResultAt::Copy(file) => file.clone(),
    })
}

impl Messages for English {
    fn illegal_move(&self, at: &At, written: &str, fen: &str, unread: usize) -> String {
        format!(
            "{}: \"{written}\" fits no legal move here; the game is kept up to this point, the last position the \
             record supports ({fen}); the {} from here on cannot be reconstructed",
            label(at),
            entries(unread)
        )
    }

    fn non_algebraic(&self, at: &At, written: &str, read: Option<(Notation, u32)>) -> String {
        match read {
            None => format!(
                "{}: from \"{written}\" on the record is in descriptive notation (P-K4, CAR3), which is not read in \
                 this language; the game is kept up to this point",
                label(at)
            ),
            Some((system, moves)) => format!(
                "{}: from \"{written}\" on the record is in {} notation ({moves} moves), read as such; FIDE \
                 recognises only algebraic notation (Appendix C): this sheet cannot serve as evidence, and the \
                 player must be told to record in algebraic notation",
                label(at),
                notation(system)
            ),
        }
    }

    fn mixed_notation(&self, at: &At, system: Notation, algebraic: u32) -> String {
        format!(
            "{}: the sheet mixes notations: algebraic for the first {algebraic} moves, {} from here",
            label(at),
            notation(system)
        )
    }

    fn mixed_letters(&self, at: &At, own: &str, other: &str, moves: u32) -> String {
        format!(
            "{}: the sheet mixes two languages' piece letters: {own}, and from here {moves} moves in {other} \
             letters; each were read as such, but a record keeps to one set of letters (Appendix C)",
            label(at)
        )
    }

    fn set_up_position(&self, why: &SetUpError) -> String {
        format!(
            "the sheet's starting position cannot be used ({why}): no move is read, as from the standard start \
             they would not be the game's; the arbiter must establish the position and the game"
        )
    }

    fn illegible_entry(&self, at: &At, written: &str, replacement: &str) -> String {
        format!(
            "{}: written \"{written}\" (illegible), read as {replacement}: the only move the rest of the game allows",
            label(at)
        )
    }

    fn missing_move(&self, at: &At, replacement: &str) -> String {
        format!("{}: no move written, read as {replacement}: the rest of the game needs it", label(at))
    }

    fn extra_entry(&self, at: &At, written: &str, repeat: bool) -> String {
        if repeat {
            format!("{}: written \"{written}\" twice; the second is left out", label(at))
        } else {
            format!("{}: written \"{written}\", which fits no move of the game here; left out", label(at))
        }
    }

    fn typo_repaired(&self, at: &At, written: &str, replacement: &str) -> String {
        format!("{}: written \"{written}\", read as {replacement}: the only legal move that fits", label(at))
    }

    fn ambiguous_repair(&self, at: &At, written: &str, replacement: &str, others: &[&str], put_first: bool) -> String {
        let others = if others.is_empty() { "another reading nearly as likely".to_string() } else { others.join(", ") };
        let why = if put_first { " (put first as the likelier move in the position)" } else { "" };
        format!(
            "{}: written \"{written}\", read as {replacement}{why}, but the rest of the game also allows {others}",
            label(at)
        )
    }

    fn moves_after_end(&self, at: &At, written: &str, end: Ending) -> String {
        format!("{}: \"{written}\" is written after the game had ended ({})", label(at), ending(end))
    }

    fn check_mark_mismatch(&self, at: &At, written: &str, replacement: &str) -> String {
        format!("{}: written \"{written}\", but {replacement} gives no such check or mate", label(at))
    }

    fn numbering_error(&self, at: &At, written: &str) -> String {
        format!("{}: the move number written before \"{written}\" does not follow", label(at))
    }

    fn language_inferred(&self, code: &str, name: &str) -> String {
        format!("piece letters read as {name} ({code})")
    }

    fn unknown_language(&self, given: &str) -> String {
        format!("unknown language \"{given}\"; the language was inferred from the moves")
    }

    fn result_mismatch(&self, written: GameResult, board: GameResult, end: Ending) -> String {
        format!(
            "the result written is {} but the final position gives {} ({}); the result written is kept until an \
             arbiter decides",
            written.as_pgn(),
            board.as_pgn(),
            ending(end)
        )
    }

    fn draw_offer(&self, at: &At) -> String {
        format!("{}: the player offered a draw with this move, (=) (Art. 9.1.2)", label(at))
    }

    fn draw_claim(&self, at: &At, repetition: bool) -> String {
        if repetition {
            format!(
                "{}: the game was recorded as a draw where it could be claimed: the final position stood on the \
                 board for the third time (Art. 9.2)",
                label(at)
            )
        } else {
            format!(
                "{}: the game was recorded as a draw where it could be claimed: fifty moves by each side without a \
                 capture or a pawn move (Art. 9.3)",
                label(at)
            )
        }
    }

    fn result_missing(&self, moves: u32, noted: bool) -> String {
        format!(
            "no result is written and the final position, after move {moves}, is not an ending of the game: the \
             arbiter must establish the result (the players record the result and sign the scoresheets, Art. 8.7); \
             the record may have stopped early (a player with less than five minutes may stop recording, Art. \
             8.4){}; the result is left as *",
            if noted { "; a note follows the last move, and the score may go on in it" } else { "" }
        )
    }

    fn incomplete_record(&self, file: &str, missing: u32, from: u32, other_ends: bool, plausible: bool) -> String {
        let n = if missing == 1 { "1 move".to_string() } else { format!("{missing} moves") };
        let head = format!("{file}: the record lacks {n} of the game, from move {} on", ply_label(from));
        if plausible {
            format!(
                "{head}, the last ones, which the other copy has: a player with less than five minutes may stop \
                 recording (Art. 8.4)"
            )
        } else if !other_ends {
            format!(
                "{head}, and the other copy does not reach the end either: each player records the moves (Art. \
                 8.1), and only a player with less than five minutes may stop (Art. 8.4)"
            )
        } else {
            format!(
                "{head}: it stops at move {}, too early for a player short of time who stopped recording (Art. \
                 8.4); each player records the moves (Art. 8.1)",
                from.saturating_sub(1).div_ceil(2)
            )
        }
    }

    fn duplicate_board(&self, board: &str, round: &str, other: &str, parted: Option<u32>, stops: bool) -> String {
        let how = match (parted, stops) {
            (Some(ply), true) => format!(
                "the same players and moves, but this record stops before move {} where that one goes on",
                ply_label(ply)
            ),
            (Some(ply), false) => format!("the same players, but the moves part at move {}", ply_label(ply)),
            (None, _) => "other players".to_string(),
        };
        format!(
            "board {board} of round {round} already has a game in the round file ({other}) and this is another one \
             ({how}); it is not added: an arbiter must choose"
        )
    }

    fn encoding_guessed(&self, line: usize) -> String {
        format!(
            "the file is not all UTF-8 (from line {line}): the lines that are not were read as Windows-1252; check \
             the accented letters of names (a file saved as UTF-8 is read without a guess)"
        )
    }

    fn invisible_removed(&self, removed: &Invisible) -> String {
        let kinds = [
            (removed.zero_width, "zero-width"),
            (removed.direction, "marks of writing direction"),
            (removed.soft_hyphen, "soft hyphens"),
        ];
        let kinds: Vec<&str> = kinds.iter().filter(|(any, _)| *any).map(|&(_, k)| k).collect();
        format!(
            "{} invisible characters ({}) were dropped as the file was read, the first on line {}: they would stay \
             in names and make moves unreadable",
            removed.count,
            kinds.join(", "),
            removed.line
        )
    }

    fn moves_in_note(&self, line: usize, ply: u32) -> String {
        format!(
            "the score stops and a note below it (line {line}) goes on with the game from {}: the moves from there \
             are read from the note; check that the game went on so",
            ply_label(ply)
        )
    }

    fn score_printed_twice(&self, line: usize) -> String {
        format!(
            "the moves from line {line} are this game's first moves printed once more; they are read as this game, \
             not as a game of their own"
        )
    }

    fn game_not_read(&self, line: usize, why: &NotRead) -> String {
        match why {
            NotRead::TooLong { limit } => format!("the game from line {line} is not read: it is over {limit} bytes"),
            NotRead::NotText => format!("the game from line {line} is not read: its bytes are not text"),
            NotRead::Malformed(m) => format!("the game from line {line} is not read: {m}"),
            NotRead::Io(e) => format!("the file could not be read on from line {line}: {e}"),
        }
    }

    fn headers_dropped(&self, dropped: usize, first: &str) -> String {
        format!(
            "the sheet has {} header fields; the first {MAX_HEADERS} are kept, the other {dropped} left out (the \
             first of them \"{first}\")",
            dropped + MAX_HEADERS
        )
    }

    fn search_budget(&self, at: &At, written: &str, unread: usize) -> String {
        if unread == 0 {
            format!(
                "{}: the search for a reading went past its budget after \"{written}\", before every doubt was \
                 weighed; the reading may not be the best",
                label(at)
            )
        } else {
            format!(
                "{}: the search for a reading of \"{written}\" went past its budget; the game is kept as read up to \
                 this point ({} from here not read)",
                label(at),
                entries(unread)
            )
        }
    }

    fn pairing_mismatch(
        &self,
        written: &SheetPairing,
        found: Option<&NamedPairing>,
        candidates: &[NamedPairing],
    ) -> String {
        let written = sheet_pairing(written);
        match found {
            Some(found) => format!("the sheet gives {written}, but its players are paired at {}", pairing(found)),
            None if candidates.is_empty() => format!("no pairing of the pairings file matches the sheet ({written})"),
            None => format!(
                "no pairing of the pairings file matches the sheet ({written}) clearly; the nearest: {}",
                candidates.iter().map(pairing).collect::<Vec<_>>().join("; ")
            ),
        }
    }

    fn pairing_result_mismatch(&self, written: GameResult, pairing: GameResult, at: &NamedPairing) -> String {
        format!(
            "the result written is {} but the pairings file gives {} (round {}, board {})",
            written.as_pgn(),
            pairing.as_pgn(),
            at.round,
            at.board
        )
    }

    fn results_disagree(&self, results: &[(GameResult, ResultAt)]) -> String {
        format!(
            "the record gives different results: {}; the arbiter establishes the result (Art. 8.7); the result is \
             left as *",
            results_said(results)
        )
    }

    fn result_from_pairings(&self, result: GameResult, at: &NamedPairing, disagreed: bool) -> String {
        if disagreed {
            format!(
                "the record gives different results: the pairings' is one of them and is taken, {} ({})",
                result.as_pgn(),
                pairing(at)
            )
        } else {
            format!("no result is written: the result is the pairings', {} ({})", result.as_pgn(), pairing(at))
        }
    }

    fn board_numbered(&self, written: &SheetPairing, at: &NamedPairing) -> String {
        format!(
            "the sheet gives {}; the pairings, in the order of the pairings file, put these players at {}: \
             published on that board, so that the round's boards are numbered one way",
            sheet_pairing(written),
            pairing(at)
        )
    }

    fn colours_reversed(&self, at: &NamedPairing) -> String {
        format!(
            "the sheet's White is Black in the pairings ({}): the colours are reversed on the sheet or at the board",
            pairing(at)
        )
    }

    fn two_games_one_board(&self, files: [&str; 2], written: [&SheetPairing; 2], parted: u32) -> String {
        format!(
            "{} ({}) and {} ({}) are given as one game's two copies, but their moves are two games (they part at \
             move {} and never agree): the names, round or board on one of them are wrong, or the players met \
             twice; both are kept, each as its sheet reads it, for an arbiter to tell whose game each is",
            files[0],
            sheet_pairing(written[0]),
            files[1],
            sheet_pairing(written[1]),
            ply_label(parted)
        )
    }

    fn copies_joined_by_moves(&self, files: [&str; 2], written: [&SheetPairing; 2]) -> String {
        format!(
            "read from two copies that their headers do not pair: {} gives {}, {} gives {}; their moves agree and \
             their names do not contradict, so they were taken as one game's",
            files[0],
            sheet_pairing(written[0]),
            files[1],
            sheet_pairing(written[1])
        )
    }

    fn copies_disagree(&self, at: &At, written: [&CopyEntry; 2], read: [&CopyMove; 2], files: [&str; 2]) -> String {
        format!(
            "{}: the two copies differ: {} has \"{}\" ({}), {} has \"{}\" ({}); the rest of the game does not tell \
             which is right",
            label(at),
            files[0],
            copy_entry(written[0]),
            copy_move(read[0]),
            files[1],
            copy_entry(written[1]),
            copy_move(read[1])
        )
    }

    fn arbiter_decision(&self, at: Option<&At>, decision: &str) -> String {
        match at {
            Some(at) => format!("{}: {decision}", label(at)),
            None => decision.to_string(),
        }
    }

    fn decision(&self, arbiter: &str, played: Option<(&At, &str)>, why: &str) -> String {
        match played {
            Some((at, played)) => format!("arbiter {arbiter}: {}{played}, {why}", at.move_label()),
            None => format!("arbiter {arbiter}: {why}"),
        }
    }

    fn why(&self, why: &Why) -> String {
        match why {
            Why::Note(note) => note.clone(),
            Why::CopiesDisagreed => "copies disagreed".to_string(),
            Why::SheetAmbiguous => "the sheet was ambiguous".to_string(),
            Why::Doubt(code) => code.replace('-', " "),
            Why::Decided => "decided by the arbiter".to_string(),
            Why::Accepted => "accepted".to_string(),
            Why::DoubtAccepted(code) => format!("{} accepted", code.replace('-', " ")),
            Why::Rejected(reason) => format!("rejected: {reason}"),
            Why::Result(r) => format!("result {}", r.as_pgn()),
        }
    }

    fn third_copy(&self, files: &[&str]) -> String {
        format!(
            "a third copy of the game read from {}: read alone, not merged; an arbiter chooses",
            files.join(" and ")
        )
    }
}
