//! The arbiter's checks of a game's end, its record and its draws (Laws of
//! Chess, Art. 5, 8 and 9): the result written against the final position, a
//! result not written, a copy that lacks moves the game had, a draw that
//! could be claimed, a draw offered. The result written is never changed
//! silently. The messages in English or Spanish (`report_language`).

use scoresheet::config::Config;
use scoresheet::convert::{Input, Options, convert, convert_together};
use scoresheet::emit::report::{FindingReport, GameReport, Status};
use scoresheet::finding::ReportLanguage;

fn game(text: &str) -> GameReport {
    convert("mesa.txt", text.as_bytes(), &Options::default()).games.remove(0)
}

fn codes(g: &GameReport) -> Vec<(&str, String)> {
    g.findings.iter().filter(|f| f.code != "language-inferred").map(|f| (f.code, format!("{:?}", f.severity))).collect()
}

#[test]
fn a_mate_recorded_as_a_draw_is_an_error_and_the_result_is_kept() {
    let g = game("1.e4 e5 2.Bc4 Nc6 3.Qh5 Nf6 4.Qxf7# 1/2-1/2\n");
    assert_eq!(codes(&g), [("result-mismatch", "Error".to_string())]);
    assert_eq!(g.status, Status::Review);
    assert_eq!(g.result, "1/2-1/2", "the result written, not the board's");
    assert!(g.pgn.contains("[Result \"1/2-1/2\"]"));
    assert!(g.findings[1].message.contains("checkmate, Art. 5.1.1"), "{}", g.findings[1].message);
}

#[test]
fn a_stalemate_recorded_as_a_win_is_an_error() {
    // Sam Loyd's ten-move stalemate.
    let g = game(
        "1.e3 a5 2.Qh5 Ra6 3.Qxa5 h5 4.h4 Rah6 5.Qxc7 f6 6.Qxd7+ Kf7 7.Qxb7 Qd3 8.Qxb8 Qh7 9.Qxc8 Kg6 10.Qe6 1-0\n",
    );
    assert_eq!(codes(&g), [("result-mismatch", "Error".to_string())]);
    assert_eq!(g.result, "1-0");
    assert!(g.findings.iter().any(|f| f.message.contains("stalemate, Art. 5.2.1")));
}

#[test]
fn a_stalemate_or_a_mate_with_no_result_written_gives_the_boards() {
    let g = game("1.e4 e5 2.Bc4 Nc6 3.Qh5 Nf6 4.Qxf7#\n");
    assert_eq!((g.result.as_str(), g.status), ("1-0", Status::Validated));
    assert!(codes(&g).is_empty(), "the board gives the result: {:?}", codes(&g));
}

#[test]
fn a_draw_by_repetition_is_marked_claimable() {
    let g = game("1.Nf3 Nf6 2.Ng1 Ng8 3.Nf3 Nf6 4.Ng1 Ng8 1/2-1/2\n");
    assert_eq!(codes(&g), [("draw-claim", "Info".to_string())]);
    assert_eq!(g.status, Status::Validated, "a claimable draw needs no arbiter");
    let claim = &g.findings[1];
    assert_eq!(claim.ply, Some(8));
    assert!(claim.message.contains("third time (Art. 9.2)"), "{}", claim.message);
    // Twice is not three times; and a win is not a draw.
    assert!(codes(&game("1.Nf3 Nf6 2.Ng1 Ng8 3.Nf3 Nf6 1/2-1/2\n")).is_empty());
    assert!(codes(&game("1.Nf3 Nf6 2.Ng1 Ng8 3.Nf3 Nf6 4.Ng1 Ng8 1-0\n")).is_empty());
}

#[test]
fn a_draw_offer_is_marked_at_its_move() {
    let g = game("1.e4 e5 2.Nf3 (=) Nc6 3.Bb5 a6 1/2-1/2\n");
    let offer = g.findings.iter().find(|f| f.code == "draw-offer").expect("the offer");
    assert_eq!((offer.ply, offer.line, offer.col), (Some(3), Some(1), Some(11)));
    assert!(offer.message.contains("Art. 9.1.2"));
    assert_eq!(g.status, Status::Validated);
    let flat: String = g.pgn.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("2. Nf3 {draw-offer: move 2. (line 1, column 11): the player offered a draw"), "{flat}");
}

#[test]
fn a_game_not_over_with_no_result_is_published_with_star_and_a_notice_asking_for_the_result() {
    let g = game("1.e4 e5 2.Nf3 Nc6 3.Bb5 a6\n");
    assert_eq!(codes(&g), [("result-missing", "Warning".to_string())], "one copy: no incomplete-record");
    assert_eq!(g.result, "*");
    assert!(g.pgn.contains("[Result \"*\"]") && g.pgn.trim_end().ends_with('*'), "{}", g.pgn);
    // Every move is read: the game is published, and the notice asks the
    // arbiter for the result (Art. 8.7).
    assert_eq!(g.status, Status::Validated);
    assert_eq!(g.findings[1].weight, scoresheet::finding::Weight::Notice);
    let m = &g.findings[1].message;
    assert!(m.contains("after move 3") && m.contains("Art. 8.7") && m.contains("Art. 8.4"), "{m}");
    // A result written is the players' (Art. 8.7): no finding.
    assert!(codes(&game("1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 1/2-1/2\n")).is_empty());
}

fn input(name: &str, text: &str) -> Input {
    (name.to_string(), Ok(text.as_bytes().to_vec()))
}

/// The first 60 moves of a long corpus game, as text with a result written.
fn sixty_moves() -> Vec<String> {
    let games = scoresheet_dev::corpus::load_range(0, 400);
    let g = games.iter().find(|g| g.sans.len() >= 124).expect("a game of 62 moves in the corpus");
    g.sans[..120].to_vec()
}

fn record(sans: &[String], result: &str) -> String {
    let mut out = String::new();
    for (i, san) in sans.iter().enumerate() {
        if i % 2 == 0 {
            out.push_str(&format!("{}.", i / 2 + 1));
        }
        out.push_str(san);
        out.push(if i % 2 == 1 { '\n' } else { ' ' });
    }
    format!("{out}\n{result}\n")
}

/// The game read from copy `a.txt` (all of `sans`) and copy `b.txt` (its first `b_moves` moves).
fn two_copies(sans: &[String], b_moves: usize, opts: &Options) -> GameReport {
    two_copies_written(sans, sans, b_moves, opts)
}

/// Copy a written as `a_written`, copy b the game's first `b_moves` moves.
fn two_copies_written(sans: &[String], a_written: &[String], b_moves: usize, opts: &Options) -> GameReport {
    let head = "Event: Open\nRound: 4\nBoard: 7\nWhite: Navara, David\nBlack: Carlsen, Magnus\n\n";
    let a = format!("{head}{}", record(a_written, "1-0"));
    let b = format!("{head}{}", record(&sans[..2 * b_moves], ""));
    let (mut reports, notes) = convert_together(&[input("a.txt", &a), input("b.txt", &b)], opts);
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(reports[0].games[0].sheets.as_ref().map(|s| s.len()), Some(2), "read as one game of two copies");
    reports[0].games.remove(0)
}

fn finding<'g>(g: &'g GameReport, code: &str) -> &'g FindingReport {
    g.findings.iter().find(|f| f.code == code).unwrap_or_else(|| panic!("no {code}: {:?}", codes(g)))
}

#[test]
fn a_copy_that_stops_at_move_45_of_60_lacks_15_moves_as_art_8_4_allows() {
    let sans = sixty_moves();
    let g = two_copies(&sans, 45, &Options::default());
    assert_eq!(g.moves, sans, "the game is the copy that goes on");
    assert_eq!(g.result, "1-0");
    let f = finding(&g, "incomplete-record");
    assert_eq!(f.severity, scoresheet::finding::Severity::Info, "{}", f.message);
    assert!(f.message.starts_with("b.txt: the record lacks 15 moves"), "{}", f.message);
    assert!(f.message.contains("from move 46. on") && f.message.contains("Art. 8.4"), "{}", f.message);
    assert_eq!(g.status, Status::Validated, "{:?}", codes(&g));
    assert!(g.findings.iter().all(|f| f.code != "result-missing"), "copy a gives the result");
}

#[test]
fn a_copy_that_stops_at_move_10_of_60_is_a_warning_told_with_the_game_the_other_copy_writes_exactly() {
    let sans = sixty_moves();
    let g = two_copies(&sans, 10, &Options::default());
    assert_eq!(g.moves, sans);
    let f = finding(&g, "incomplete-record");
    assert_eq!(f.severity, scoresheet::finding::Severity::Warning, "{}", f.message);
    assert!(f.message.starts_with("b.txt: the record lacks 50 moves of the game, from move 11. on"), "{}", f.message);
    assert!(f.message.contains("Art. 8.1") && f.message.contains("Art. 8.4"), "{}", f.message);
    // The other copy writes each of the fifty moves exactly and skips none:
    // the game is not in doubt; the arbiter is told of the stop (Art. 8.1).
    assert_eq!(f.weight, scoresheet::finding::Weight::Notice);
    assert_eq!(g.status, Status::Validated, "{:?}", codes(&g));
}

#[test]
fn a_copy_that_stops_at_move_10_of_60_where_the_other_copy_has_a_slip_later_is_a_doubt() {
    let sans = sixty_moves();
    // Copy a writes one of the moves only it has with a slip: a capture
    // mark that is not there (`Nf3` as `Nxf3`), read as the move but not
    // exactly.
    let k = (20..sans.len())
        .find(|&k| sans[k].len() >= 3 && !sans[k].contains(['x', '+', '#', '=']))
        .expect("a quiet move");
    let mut written = sans.clone();
    written[k] = format!("{}x{}", &sans[k][..sans[k].len() - 2], &sans[k][sans[k].len() - 2..]);
    let g = two_copies_written(&sans, &written, 10, &Options::default());
    assert_eq!(g.moves, sans, "{written:?}");
    let f = finding(&g, "incomplete-record");
    // Fifty moves only one copy has, one of them read through a slip, where
    // the rules do not explain the other's stopping: in doubt.
    assert_eq!(f.weight, scoresheet::finding::Weight::Doubt, "{}", f.message);
    assert_eq!(g.status, Status::Review);
}

#[test]
fn the_messages_are_in_spanish_when_the_config_says_so_and_the_codes_are_not() {
    let opts = Config::parse("report_language: es\n").unwrap().options().unwrap();
    assert_eq!(opts.report_language, ReportLanguage::Es);
    let g = convert("mesa.txt", "1.e4 e5 2.Nf3 Nc6 3.Bb5 a6\n".as_bytes(), &opts).games.remove(0);
    assert_eq!(codes(&g), [("result-missing", "Warning".to_string())]);
    let m = &g.findings[1].message;
    assert!(m.starts_with("no hay resultado anotado") && m.contains("Art. 8.7"), "{m}");
    let flat: String = g.pgn.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("{result-missing: no hay resultado anotado"), "{flat}");
    // A repair says where, what was written and what it was read as.
    let g = convert("mesa.txt", "Language: es\n1.e4 e5 2.Cf8 Cc6 1-0\n".as_bytes(), &opts).games.remove(0);
    let typo = finding(&g, "typo-repaired");
    assert_eq!(
        typo.message,
        "jugada 2. (línea 2, columna 11): escrito \"Cf8\", leído como Nf3: la única jugada legal que encaja"
    );
    // Two copies: the file, the moves missing and the rule.
    let g = two_copies(&sixty_moves(), 45, &Options { report_language: ReportLanguage::Es, ..Options::default() });
    let f = finding(&g, "incomplete-record");
    assert!(f.message.starts_with("b.txt: a la planilla le faltan 15 jugadas de la partida, desde la jugada 46."));
    assert!(f.message.contains("Art. 8.4"), "{}", f.message);
    // English is the default; other languages are refused as any value out of range.
    assert_eq!(Options::default().report_language, ReportLanguage::En);
    let e = Config::parse("max_file_bytes: 2048\nreport_language: fr\n").unwrap_err().to_string();
    assert_eq!(e, "line 2: report_language is \"fr\", allowed: en or es");
}

#[test]
fn an_illegal_move_says_the_last_position_the_record_supports_and_what_is_lost() {
    // Entries that name no move after a real opening: reading stops there.
    let run: String = (10..300).map(|i| format!("K{i} a\n")).collect();
    let g = game(&format!("1.e4 e5 2.Nf3 Nc6 3.Bb5 a6\n{run}"));
    assert_eq!(g.moves.len(), 6);
    let f = g.findings.iter().find(|f| f.code == "illegal-move").expect("illegal-move");
    let after_a6 = "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4";
    assert!(f.message.contains(after_a6), "{}", f.message);
    assert!(f.message.contains("cannot be reconstructed"), "{}", f.message);
}

#[test]
fn a_sheet_that_turns_to_english_letters_is_mixed_notation_once() {
    // Spanish letters for the first moves, English from move 4 on.
    let text = "Idioma: es\n\n1.e4 e5 2.Cf3 Cc6 3.Ab5 a6 4.Ba4 Nf6 5.O-O Be7 6.Re1 b5 7.Bb3 d6 1/2-1/2\n";
    let g = game(text);
    assert_eq!(g.moves.join(" "), "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6");
    let mixed: Vec<_> = g.findings.iter().filter(|f| f.code == "mixed-notation").collect();
    assert_eq!(mixed.len(), 1, "{:?}", g.findings);
    assert_eq!((mixed[0].ply, mixed[0].written.as_deref()), (Some(7), None));
    assert!(mixed[0].message.contains("Spanish, and from here 5 moves in English letters"), "{}", mixed[0].message);
    assert_eq!(g.status, Status::Review);
    // One English letter on a Spanish sheet is a slip, not a second set of letters.
    let g = game("Idioma: es\n\n1.e4 e5 2.Cf3 Cc6 3.Ab5 a6 4.Aa4 Nf6 5.O-O Ae7 1/2-1/2\n");
    assert!(g.findings.iter().all(|f| f.code != "mixed-notation"), "{:?}", g.findings);
}

/// Both sides' knights out and back `moves` times, numbered, as typed: the
/// standard position stands again every four plies.
fn shuffle(moves: usize, result: &str) -> String {
    let sans = ["Nf3", "Nf6", "Ng1", "Ng8"];
    let mut out = String::new();
    for n in 1..=moves {
        let k = 2 * ((n - 1) % 2);
        out.push_str(&format!("{n}.{} {} ", sans[k], sans[k + 1]));
    }
    format!("{out}{result}\n")
}

#[test]
fn a_shuffle_of_eight_moves_written_1_0_is_a_draw_by_fivefold_repetition_at_ply_16() {
    let g = game(&shuffle(8, "1-0"));
    assert_eq!(codes(&g), [("result-mismatch", "Error".to_string())]);
    assert_eq!(g.status, Status::Review, "the result written is not the one the rules give");
    assert_eq!(g.moves.len(), 16, "{:?}", g.moves);
    assert_eq!(g.result, "1-0", "the result written is kept until an arbiter decides");
    let m = &finding(&g, "result-mismatch").message;
    assert!(m.contains("gives 1/2-1/2") && m.contains("fifth time") && m.contains("Art. 9.6.1"), "{m}");
    // Four times is not five.
    assert!(codes(&game(&shuffle(7, "1-0"))).is_empty());
}

#[test]
fn the_twelve_move_shuffle_written_1_0_ends_at_ply_16_and_the_rest_is_written_after_the_end() {
    let text = shuffle(12, "1-0");
    let g = game(&text);
    assert_eq!(g.status, Status::Review);
    assert_eq!(g.moves.len(), 16, "the game ended at ply 16: {:?}", g.moves);
    assert!(g.pgn.contains("8. Ng1 Ng8") && !g.pgn.contains("9. Nf3"), "{}", g.pgn);
    let after = finding(&g, "moves-after-end");
    let col = text.find("9.Nf3").unwrap() + 3;
    assert_eq!((after.ply, after.line, after.col), (Some(17), Some(1), Some(col)));
    assert!(after.message.contains("\"Nf3\"") && after.message.contains("Art. 9.6.1"), "{}", after.message);
    assert!(finding(&g, "result-mismatch").message.contains("Art. 9.6.1"));
    // Spanish names the rule too.
    let opts = Options { report_language: ReportLanguage::Es, ..Options::default() };
    let es = convert("mesa.txt", text.as_bytes(), &opts).games.remove(0);
    let after = es.findings.iter().find(|f| f.code == "moves-after-end").expect("moves-after-end");
    assert!(after.message.contains("quinta vez") && after.message.contains("Art. 9.6.1"), "{}", after.message);
}

#[test]
fn a_fivefold_shuffle_written_as_a_draw_or_with_no_result_is_a_draw_no_one_claimed() {
    for written in ["1/2-1/2", "", "*"] {
        let g = game(&shuffle(8, written));
        assert_eq!(g.result, "1/2-1/2", "{written:?}");
        assert_eq!(g.status, Status::Validated, "{written:?}: {:?}", codes(&g));
        assert!(codes(&g).is_empty(), "no claim: the rules drew it ({written:?}): {:?}", codes(&g));
    }
}

/// A walk of `plies` plies from the standard position, the same for every
/// run (a seeded generator), with no capture, no pawn move, no check, and
/// no position a fifth time: the game the 75-move rule ends.
fn quiet_walk(plies: usize) -> Vec<String> {
    use shakmaty::{Chess, EnPassantMode, Position, san::SanPlus, zobrist::Zobrist64};
    let mut pos = Chess::default();
    let key = |p: &Chess| p.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0;
    let mut seen = std::collections::HashMap::<u64, usize>::new();
    *seen.entry(key(&pos)).or_default() += 1;
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut sans = Vec::new();
    for _ in 0..plies {
        let quiet: Vec<_> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| !m.is_capture() && m.role() != shakmaty::Role::Pawn)
            .filter(|m| {
                let mut next = pos.clone();
                next.play_unchecked(*m);
                !next.is_check() && seen.get(&key(&next)).copied().unwrap_or(0) < 4
            })
            .collect();
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let m = quiet[(seed >> 33) as usize % quiet.len()];
        sans.push(SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string());
        *seen.entry(key(&pos)).or_default() += 1;
    }
    sans
}

#[test]
fn seventy_five_moves_each_without_a_capture_or_a_pawn_move_end_the_game_drawn() {
    let walk = quiet_walk(160);
    for written in ["*", ""] {
        // Exactly 75 moves each: the game ends at its last move.
        let g = game(&record(&walk[..150], written));
        assert_eq!(g.moves, walk[..150], "{written:?}");
        assert_eq!((g.result.as_str(), g.status), ("1/2-1/2", Status::Validated), "{written:?}: {:?}", codes(&g));
        assert!(codes(&g).is_empty(), "{:?}", codes(&g));
        // Five more moves each: written after the end.
        let g = game(&record(&walk, written));
        assert_eq!(g.moves, walk[..150]);
        assert_eq!((g.result.as_str(), g.status), ("1/2-1/2", Status::Review));
        let after = finding(&g, "moves-after-end");
        assert_eq!((after.ply, after.written.as_deref()), (Some(151), Some(walk[150].as_str())));
        assert!(after.message.contains("75 moves") && after.message.contains("Art. 9.6.2"), "{}", after.message);
    }
    // Written as a win: the rule is named.
    let g = game(&record(&walk[..150], "0-1"));
    assert!(finding(&g, "result-mismatch").message.contains("Art. 9.6.2"), "{:?}", codes(&g));
    // One move short of 75 each: not over.
    let g = game(&record(&walk[..149], ""));
    assert_eq!(codes(&g), [("result-missing", "Warning".to_string())]);
}

#[test]
fn a_mate_on_the_move_that_completes_seventy_five_takes_precedence() {
    // 149 plies without a capture or a pawn move already, White to move.
    let head = "FEN: 6k1/5ppp/8/8/8/8/8/R5K1 w - - 149 100\n\n";
    let g = game(&format!("{head}100. Ra8# 1-0\n"));
    assert_eq!((g.result.as_str(), g.status), ("1-0", Status::Validated), "{:?}", codes(&g));
    assert!(codes(&g).is_empty(), "{:?}", codes(&g));
    let g = game(&format!("{head}100. Ra8#\n"));
    assert_eq!(g.result, "1-0", "the board's result, the mate");
    // Not a mate: the 75th move ends the game drawn.
    let g = game(&format!("{head}100. Rb1\n"));
    assert_eq!((g.result.as_str(), g.status), ("1/2-1/2", Status::Validated), "{:?}", codes(&g));
    let g = game(&format!("{head}100. Rb1 Kf8 101. Rb8#\n"));
    assert_eq!(g.moves, ["Rb1"], "the mate came after the end");
    assert_eq!(finding(&g, "moves-after-end").written.as_deref(), Some("Kf8"));
}
