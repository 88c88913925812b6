//! The repair search measured on sheets made by `scoresheet_dev::generate` from
//! real games (corpus games 5000..5300, one fixed seed each, in the dev sheets'
//! mix of languages and formats), and regression sheets named after what was
//! typed.
//!
//! `cargo test --release --test repair -- --nocapture` prints the figures.
//!
//! The ceilings and floors below are ratchets, measured when the test was
//! written: lower a ceiling or raise a floor when the reader gets better,
//! never the other way. The aims: at most one silently wrong game per 600
//! sheets, move accuracy as high as it goes.

use std::sync::OnceLock;

use scoresheet::convert::{Options, convert};
use scoresheet::emit::report::{FileReport, GameReport, Status};
use scoresheet::finding::Severity;
use scoresheet_dev::corpus::{CorpusGame, load_range, shown, source};
use scoresheet_dev::generate::{Noisy, derive_seed};
use scoresheet_dev::noisy::{fault_triples, noisy};
use scoresheet_dev::slips::{legal_slips, only_legal_slips, undetectable};

/// The status but for `result-missing`: these sheets are parts of games
/// with no result written, which the arbiter establishes (Art. 8.7); what is
/// checked here is how the moves were read.
fn moves_status(g: &GameReport) -> Status {
    let only_result = g.findings.iter().all(|f| f.severity < Severity::Warning || f.code == "result-missing");
    if g.status == Status::Review && only_result { Status::Validated } else { g.status }
}

/// Corpus games the sheets are made from.
const FIRST: usize = 5000;
const SHEETS: usize = 300;
/// Fault rate per move of the noisy sheets.
const RATE: f64 = 0.05;
const SEED: u64 = 0x5EED_0003;

/// Noisy sheets validated but not the game played, other than legal slips (a
/// slip that alone makes another legal move the rest of the game never
/// contradicts: read strictly, with repairs off, the clean sheet with that one
/// slip is a legal game; see `scoresheet_dev::slips::legal_slips`) and undetectable sheets (the
/// whole sheet as written, read strictly, is another legal game). Measured 3 of
/// 300 when written: a legal slip contradicted much later, where the reader
/// repaired the later entries instead (`e4` for 2.c4, `f6` for 1...Nf6), and a
/// missing move filled in wrongly. 1 once readings in doubt were ordered by
/// their plausibility and tied readings all read every way. A ratchet: the
/// aim is at most one per 600 sheets.
const SILENT_WRONG_CEILING: usize = 1;
/// Noisy sheets validated wrong in all, legal slips included. Measured 9 of
/// 300 (6 legal slips); 5 (3) once a repair is weighed against a single
/// earlier slip that would explain it; 7 (6) once an earlier slip that leaves
/// every repair in place no longer counts as a rival (it explains nothing, and
/// had sent games to review by chance), with capitals confused in handwriting
/// (T/7, C/G, N/H/A, R/P, L/I, f/4) added to the generator.
const SILENT_WRONG_ALL_CEILING: usize = 7;
/// Move accuracy over the noisy sheets (plies read right / plies). Measured
/// 0.9555 (22803/23866) at f988822, 0.9550 with the search edits then in
/// progress; 0.9799 with windows re-read from steps in doubt, from further
/// back, and single earlier slips weighed. The floor leaves 0.005 for changes
/// of the costs. 0.9873 with readings in doubt ordered by plausibility: the
/// floor raised to 0.982. 0.9893 with check signs read as evidence: 0.985.
const MOVE_ACCURACY_FLOOR: f64 = 0.985;

fn games() -> &'static [CorpusGame] {
    static GAMES: OnceLock<Vec<CorpusGame>> = OnceLock::new();
    GAMES.get_or_init(|| {
        let games = load_range(FIRST, SHEETS);
        assert_eq!(games.len(), SHEETS, "games from {}", source(FIRST, SHEETS).map(|s| shown(s.0)).unwrap_or_default());
        games
    })
}

fn seed(i: usize) -> u64 {
    derive_seed(SEED, i as u64)
}

fn read(sheet: &Noisy) -> FileReport {
    convert(&sheet.file_name, sheet.text.as_bytes(), &Options::default())
}

/// One noisy sheet and what the reader made of it.
struct Outcome {
    sheet: Noisy,
    game: Option<GameReport>,
    /// The entries as written, read strictly, make another legal game.
    undetectable: bool,
    /// Wrong only where a slip alone made another legal move.
    legal_slips_only: bool,
}

impl Outcome {
    fn moves(&self) -> &[String] {
        self.game.as_ref().map_or(&[], |g| &g.moves)
    }

    fn validated_wrong(&self) -> bool {
        self.game.as_ref().is_some_and(|g| g.status == Status::Validated) && self.moves() != self.sheet.sans
    }

    /// A validated wrong game no reader could have told from the truth.
    fn excused(&self) -> bool {
        self.undetectable || self.legal_slips_only
    }

    fn describe(&self) -> String {
        let s = &self.sheet;
        let moves = self.moves();
        let ply = s.sans.iter().zip(moves).take_while(|(a, b)| a == b).count();
        let findings: Vec<String> = self
            .game
            .iter()
            .flat_map(|g| &g.findings)
            .map(|f| format!("{}@{:?} {:?}->{:?}", f.code, f.ply, f.written, f.replacement))
            .collect();
        let faults: Vec<String> = s
            .faults
            .iter()
            .map(|f| format!("{}@{} {:?} for {}", f.kind.name(), f.ply + 1, f.written, f.truth))
            .collect();
        format!(
            "{} [{}]: ply {} true {} read {}; faults {faults:?}; findings {findings:?}",
            s.file_name,
            s.language,
            ply + 1,
            s.sans.get(ply).map_or("(end)", String::as_str),
            moves.get(ply).map_or("(end)", String::as_str),
        )
    }
}

fn noisy_outcomes() -> &'static [Outcome] {
    static OUTCOMES: OnceLock<Vec<Outcome>> = OnceLock::new();
    OUTCOMES.get_or_init(|| {
        games()
            .iter()
            .enumerate()
            .map(|(i, g)| {
                let sheet = noisy(g, seed(i), RATE);
                let game = read(&sheet).games.into_iter().next();
                let mut o = Outcome { undetectable: false, legal_slips_only: false, sheet, game };
                if o.validated_wrong() {
                    let s = &o.sheet;
                    o.undetectable = undetectable(&s.entries(), s.language, &s.sans);
                    let slips = legal_slips(&s.sans, s.language, &fault_triples(s));
                    o.legal_slips_only = only_legal_slips(o.moves(), &s.sans, &slips);
                }
                o
            })
            .collect()
    })
}

#[test]
fn clean_generated_sheets_come_back_validated_and_exact() {
    let mut failures = Vec::new();
    let mut formats = std::collections::BTreeSet::new();
    for (i, g) in games().iter().enumerate() {
        let sheet = noisy(g, seed(i), 0.0);
        assert!(sheet.faults.is_empty() && !sheet.truncated && sheet.sans == g.sans);
        formats.insert(sheet.file_name.rsplit('.').next().unwrap().to_string());
        let report = read(&sheet);
        let ok = report.error.is_none()
            && report.games.len() == 1
            && report.games[0].status == Status::Validated
            && report.games[0].moves == g.sans
            && report.games[0].findings.iter().all(|f| f.severity == Severity::Info);
        if !ok {
            failures.push(format!("game {} as {}: {:?}\n{}", g.index, sheet.file_name, report, sheet.text));
        }
    }
    assert_eq!(formats.len(), 5, "every format is made: {formats:?}");
    assert!(failures.is_empty(), "{} of {SHEETS} clean sheets:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn noisy_sheets_are_never_validated_wrong() {
    let outcomes = noisy_outcomes();
    let wrong: Vec<&Outcome> = outcomes.iter().filter(|o| o.validated_wrong()).collect();
    let unexcused: Vec<String> = wrong.iter().filter(|o| !o.excused()).map(|o| o.describe()).collect();
    let faults: usize = outcomes.iter().map(|o| o.sheet.faults.len()).sum();
    println!(
        "{SHEETS} noisy sheets ({faults} faults): {} validated wrong, {} of them legal slips or undetectable, {} not",
        wrong.len(),
        wrong.iter().filter(|o| o.excused()).count(),
        unexcused.len()
    );
    for o in &wrong {
        println!("  {}{}", if o.excused() { "(legal slip) " } else { "" }, o.describe());
    }
    assert!(
        unexcused.len() <= SILENT_WRONG_CEILING,
        "validated but not the game, and no legal slip explains it ({} > {SILENT_WRONG_CEILING}):\n{}",
        unexcused.len(),
        unexcused.join("\n")
    );
    assert!(wrong.len() <= SILENT_WRONG_ALL_CEILING, "{} validated wrong in all", wrong.len());
}

#[test]
fn move_accuracy_on_noisy_sheets_holds() {
    let outcomes = noisy_outcomes();
    let plies: usize = outcomes.iter().map(|o| o.sheet.sans.len()).sum();
    let right: usize =
        outcomes.iter().map(|o| o.sheet.sans.iter().zip(o.moves()).filter(|(a, b)| a == b).count()).sum();
    let exact = outcomes.iter().filter(|o| o.moves() == o.sheet.sans).count();
    let review = outcomes.iter().filter(|o| o.game.as_ref().is_some_and(|g| g.status == Status::Review)).count();
    let accuracy = right as f64 / plies as f64;
    println!(
        "move accuracy {accuracy:.4} ({right}/{plies}), exact {exact}/{SHEETS}, review {review}/{SHEETS} (rate {RATE})"
    );
    assert!(accuracy >= MOVE_ACCURACY_FLOOR, "move accuracy {accuracy:.4} < {MOVE_ACCURACY_FLOOR}");
}

#[test]
fn every_fault_of_a_generated_sheet_is_where_the_truth_says() {
    for o in noisy_outcomes() {
        let s = &o.sheet;
        for f in &s.faults {
            assert_eq!(f.truth, s.sans[f.ply], "{}", s.file_name);
        }
        let dups = s.faults.iter().filter(|f| f.kind.name() == "dup").count();
        let omits = s.faults.iter().filter(|f| f.kind.name() == "omit").count();
        assert_eq!(s.entries().len(), s.sans.len() + dups - omits, "{}", s.file_name);
    }
}

// Regression sheets, named after what was typed.

fn one(name: &str, text: &str) -> GameReport {
    let report = convert(name, text.as_bytes(), &Options::default());
    assert_eq!(report.error, None, "{name}");
    assert_eq!(report.games.len(), 1, "{name}");
    report.games.into_iter().next().unwrap()
}

fn moves(s: &str) -> Vec<String> {
    s.split_whitespace().map(str::to_string).collect()
}

fn finding<'a>(g: &'a GameReport, code: &str) -> &'a scoresheet::emit::report::FindingReport {
    g.findings.iter().find(|f| f.code == code).unwrap_or_else(|| panic!("no {code} in {:?}", g.findings))
}

#[test]
fn clf3_with_knights_on_g1_and_g5_is_n1f3() {
    // Spanish: C is the knight; "l" stands for the rank "1" the writer wrote.
    let g = one("clf3.txt", "Language: es\n1.Cc3 d6, 2.Ce4 e6, 3.Cg5 h6, 4.Clf3 Cf6, 5.e3 Ae7\n");
    assert_eq!(moves_status(&g), Status::Validated, "{:?}", g.findings);
    assert_eq!(g.moves, moves("Nc3 d6 Ne4 e6 Ng5 h6 N1f3 Nf6 e3 Be7"));
    let f = finding(&g, "typo-repaired");
    assert_eq!(
        (f.severity, f.ply, f.written.as_deref(), f.replacement.as_deref()),
        (Severity::Info, Some(7), Some("Clf3"), Some("N1f3"))
    );
}

#[test]
fn question_mark_where_only_e5_keeps_the_game_legal_is_e5() {
    // 4.dxe5 needs a black pawn on e5, and 2...d6 3...Bg4 leave only 1...e5.
    let g = one("illegible.txt", "Language: en\n1.e4 ? 2.Nf3 d6 3.d4 Bg4 4.dxe5 Bxf3 5.Qxf3 dxe5\n");
    assert_eq!(moves_status(&g), Status::Validated, "{:?}", g.findings);
    assert_eq!(g.moves, moves("e4 e5 Nf3 d6 d4 Bg4 dxe5 Bxf3 Qxf3 dxe5"));
    let f = finding(&g, "illegible-entry");
    assert_eq!((f.ply, f.written.as_deref(), f.replacement.as_deref()), (Some(2), Some("?"), Some("e5")));
}

#[test]
fn e5_left_out_and_the_rest_pins_it_down_is_a_missing_move() {
    // The moves after the gap move up a box: Cf3 stands in Black's box.
    let g = one("omitted.txt", "Language: es\n1.e4 Cf3, 2.d6 d4, 3.Ag4 dxe5, 4.Axf3 Dxf3, 5.dxe5 Ac4\n");
    assert_eq!(moves_status(&g), Status::Validated, "{:?}", g.findings);
    assert_eq!(g.moves, moves("e4 e5 Nf3 d6 d4 Bg4 dxe5 Bxf3 Qxf3 dxe5 Bc4"));
    let f = finding(&g, "missing-move");
    assert_eq!((f.severity, f.ply, f.replacement.as_deref()), (Severity::Info, Some(2), Some("e5")));
}

#[test]
fn cf3_written_twice_is_an_extra_entry() {
    let g = one("twice.txt", "Language: es\n1.e4 e5, 2.Cf3 Cf3, 3.Cc6 Ab5, 4.a6 Aa4, 5.Cf6 0-0\n");
    assert_eq!(moves_status(&g), Status::Validated, "{:?}", g.findings);
    assert_eq!(g.moves, moves("e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O"));
    let f = finding(&g, "extra-entry");
    assert_eq!((f.severity, f.written.as_deref()), (Severity::Info, Some("Cf3")));
}

/// The Breyer Ruy Lopez to 10...Nbd7, with `extra` written after 5...Be7
/// and `six` as move 6.
fn ruy_lopez_with(extra: &str, six: &str) -> String {
    format!(
        "Language: en\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 {extra}6. {six} b5 7. Bb3 d6 \
         8. c3 O-O 9. h3 Nb8 10. d4 Nbd7\n"
    )
}

const BREYER: &str = "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 Nb8 d4 Nbd7";

#[test]
fn moves_4_and_5_written_twice_over_are_left_out_as_written_twice() {
    let g = one("twice-over.txt", &ruy_lopez_with("4. Ba4 Nf6 5. O-O Be7 ", "Re1"));
    assert_eq!(moves_status(&g), Status::Validated, "{:?}", g.findings);
    assert_eq!(g.moves, moves(BREYER));
    let left_out: Vec<_> = g.findings.iter().filter(|f| f.code == "extra-entry").collect();
    assert_eq!(left_out.len(), 4, "{left_out:?}");
    assert!(left_out.iter().all(|f| f.severity == Severity::Info), "{left_out:?}");
}

#[test]
fn a_move_written_twice_over_then_rel_for_re1_is_a_doubt_not_a_repetition() {
    // The moves written twice are left out, but the move after them is a
    // repair: the reading around them is not exact, so leaving out two
    // legible entries is not known to be harmless.
    let g = one("twice-then-typo.txt", &ruy_lopez_with("5. O-O Be7 ", "Rel"));
    assert_eq!(g.status, Status::Review, "{:?}", g.findings);
    assert!(g.findings.iter().any(|f| f.code == "extra-entry" && f.severity >= Severity::Warning), "{:?}", g.findings);
}

#[test]
fn a_legible_knight_move_that_fits_nothing_is_not_dropped_from_a_validated_game() {
    // `Nd4` stands between 8.c3 and 8...O-O: a move of the game, or a stray
    // entry, the sheet cannot say.
    let text = ruy_lopez_with("", "Re1").replace("8. c3 O-O", "8. c3 Nd4 O-O");
    let g = one("stray-knight.txt", &text);
    assert_eq!(g.status, Status::Review, "{:?}", g.findings);
}

#[test]
fn question_mark_where_g3_and_ke2_both_answer_the_check_goes_to_review() {
    // 2...Qh4+: only 3.g3 and 3.Ke2 are legal, and the rest allows both.
    let g = one("two-fit.txt", "Language: en\n1.e4 e5 2.f4 Qh4+ 3.? Nc6 4.Nf3\n");
    assert_eq!(g.status, Status::Review, "{:?}", g.findings);
    let f = g.findings.iter().find(|f| f.ply == Some(5) && f.severity >= Severity::Warning).expect("a warning at 3.");
    for m in ["g3", "Ke2"] {
        assert!(f.alternatives.iter().any(|a| a == m), "{m} not in {:?}", f.alternatives);
    }
}

#[test]
fn question_mark_at_move_3_of_a_giuoco_piano_is_bc4_first_but_in_review() {
    // 3.Bc4, 3.Be2 and more fit the rest of the game: no sheet can say which
    // was played. The opening book puts first the move players choose there,
    // and the game stays in review, with or without the book.
    let sheet = "Language: es\n1. e4 e5 2. Cf3 Cc6 3. ? Cf6 4. d3 Ac5 5. c3 d6 6. 0-0 0-0\n";
    let g = one("giuoco.txt", sheet);
    assert_eq!(g.status, Status::Review, "{:?}", g.findings);
    assert_eq!(g.moves[4], "Bc4");
    let f = g.findings.iter().find(|f| f.ply == Some(5) && f.severity >= Severity::Warning).expect("a warning at 3.");
    // Every move that fits is named for the arbiter, not only the nearest.
    for m in ["Be2", "Bb5"] {
        assert!(f.alternatives.iter().any(|a| a == m), "{m} not in {:?}", f.alternatives);
    }
    let mut opts = Options::default();
    opts.params.limits.prior_reach = 0.0;
    let without = convert("giuoco.txt", sheet.as_bytes(), &opts);
    assert_eq!(without.games[0].status, Status::Review);
}

#[test]
fn question_mark_where_be2_rules_out_ke2_is_g3() {
    // The same, but 6.Be2 needs e2 empty: only 3.g3 fits.
    let g = one("one-fit.txt", "Language: en\n1.e4 e5 2.f4 Qh4+ 3.? Nc6 4.Nf3 Nf6 5.d3 d6 6.Be2 Be7\n");
    assert_eq!(moves_status(&g), Status::Validated, "{:?}", g.findings);
    assert_eq!(g.moves[4], "g3");
}

#[test]
fn a_check_sign_puts_first_the_move_that_gives_check() {
    // `Dc5+`: Qc5 is legal but gives no check; Qe5+ (c read for e) does.
    // Typed sheets hardly ever mark a check that is not one, so the sign
    // weighs for Qe5+; both fit, so the arbiter sees both.
    let g = one("check-sign.txt", "Language: es\n1.e4 d5 2.exd5 Dxd5 3.Cc3 Dc5+ 4.Ae2 Cf6\n");
    assert_eq!(g.moves[5], "Qe5+", "{:?}", g.findings);
    assert_eq!(g.status, Status::Review, "{:?}", g.findings);
    let f = finding(&g, "ambiguous-repair");
    assert!(f.alternatives.iter().any(|a| a == "Qc5"), "{:?}", f.alternatives);
    // Without the sign, the entry reads exactly as written.
    let g = one("no-sign.txt", "Language: es\n1.e4 d5 2.exd5 Dxd5 3.Cc3 Dc5 4.Ae2 Cf6\n");
    assert_eq!((moves_status(&g), g.moves[5].as_str()), (Status::Validated, "Qc5"), "{:?}", g.findings);
    // With the signs left out of the reading, the sign is only reported.
    let mut opts = Options::default();
    opts.params.costs.false_check = 0.0;
    let r = convert("check-sign.txt", "Language: es\n1.e4 d5 2.exd5 Dxd5 3.Cc3 Dc5+ 4.Ae2 Cf6\n".as_bytes(), &opts);
    assert_eq!(r.games[0].moves[5], "Qc5");
    assert!(r.games[0].findings.iter().any(|f| f.code == "check-mark-mismatch"));
}

#[test]
fn a_record_that_stops_without_a_result_is_published_asking_the_arbiter_for_its_result() {
    // From one copy, a record that stops early cannot be told from a game
    // not finished: the result is missing (Art. 8.7), not the moves. The game
    // is published with `*`, and the notice asks the arbiter for the result.
    let g = one("time-trouble.txt", "1.e4 e5 2.Cf3 Cc6 3.Ab5 a6");
    assert_eq!(g.status, Status::Validated);
    assert_eq!(g.result, "*");
    let f = finding(&g, "result-missing");
    assert!(f.message.contains("after move 3") && f.message.contains("8.4"), "{}", f.message);
    assert!(g.findings.iter().all(|f| f.code != "incomplete-record"), "one copy: no incomplete-record");
    // A result written, or a game over on the board, is not missing.
    for text in ["1.e4 e5 2.Cf3 Cc6 3.Ab5 a6 1-0", "1.f3 e5 2.g4 Dh4"] {
        let g = one("complete.txt", text);
        assert!(g.findings.iter().all(|f| f.code != "result-missing"), "{text}");
    }
}

#[test]
fn a_clear_typo_next_to_an_open_question_is_repaired_not_put_in_doubt() {
    // 4.Nt3 can only be 4.Nf3; 3.? stays open between g3 and Ke2. The arbiter
    // is asked about 3.? alone, with both moves, and told Nt3 was read as Nf3.
    let g = one("typo-and-question.txt", "Language: en\n1.e4 e5 2.f4 Qh4+ 3.? Nc6 4.Nt3 Nf6\n");
    assert_eq!(g.status, Status::Review, "{:?}", g.findings);
    let doubts: Vec<_> = g.findings.iter().filter(|f| f.code == "ambiguous-repair").collect();
    assert_eq!(doubts.len(), 1, "{doubts:?}");
    assert_eq!(doubts[0].ply, Some(5));
    assert!(doubts[0].alternatives.len() >= 2, "{:?}", doubts[0].alternatives);
    let typo = finding(&g, "typo-repaired");
    assert_eq!((typo.ply, typo.written.as_deref(), typo.replacement.as_deref()), (Some(7), Some("Nt3"), Some("Nf3")));
}

#[test]
fn a_sheet_in_descriptive_notation_is_read_and_reported_as_no_evidence() {
    let g = one("descriptive-en.txt", "1. P-K4 P-K4 2. N-KB3 N-QB3 3. B-N5 P-QR3 4. BxN QPxB\n");
    assert_eq!(g.moves, ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6", "dxc6"]);
    // Read move for move: published, with Appendix C's notice (the sheet is
    // no evidence in a dispute; the player is told to use algebraic).
    assert_eq!(g.status, Status::Validated);
    let f = finding(&g, "non-algebraic-notation");
    assert_eq!(f.weight, scoresheet::finding::Weight::Notice);
    assert_eq!((f.ply, f.written.as_deref()), (Some(1), Some("P-K4")));
    assert!(
        f.message.contains("English descriptive notation (4 moves)") && f.message.contains("Appendix C"),
        "{}",
        f.message
    );
    assert!(g.findings.iter().all(|f| f.code != "ambiguous-repair" && f.code != "typo-repaired"), "{:?}", g.findings);
}

#[test]
fn a_record_that_turns_descriptive_is_read_on_in_it() {
    let g = one("mixed-es.txt", "1.d4 Cf6 2.c4 e6 3.Cc3 Ab4 4.e3 b6 5.Ce2 ATD3 6.CCR3 AxC+ 7.PxA PD4\n");
    // Every move read: published, the two notations said.
    assert_eq!(g.status, Status::Validated, "{:?}", g.findings);
    assert_eq!(&g.moves[9..], ["Ba6", "Ng3", "Bxc3+", "bxc3", "d5"]);
    let f = finding(&g, "non-algebraic-notation");
    assert_eq!((f.ply, f.written.as_deref()), (Some(10), Some("ATD3")));
    assert!(g.findings.iter().all(|f| f.code != "illegal-move" && f.code != "typo-repaired"), "{:?}", g.findings);
    let mixed = finding(&g, "mixed-notation");
    assert_eq!(mixed.ply, Some(10));
    assert!(
        mixed.message.contains("algebraic for the first 5 moves, Spanish descriptive from here"),
        "{}",
        mixed.message
    );
}

#[test]
fn a_record_that_turns_descriptive_in_a_language_without_a_system_is_kept_up_to_there() {
    // German descriptive is not read: the game stops where it turns.
    let g = one("mixed-de.txt", "Language: de\n1.d4 Sf6 2.c4 e6 3.Sc3 Lb4 4.e3 b6 5.Se2 LTD3 6.SSR3 LxS+ 7.PxL PD4\n");
    assert_eq!(g.moves.len(), 9);
    let f = finding(&g, "non-algebraic-notation");
    assert_eq!(f.severity, scoresheet::Severity::Error);
}

#[test]
fn a4_written_for_d4_and_noticed_only_at_15_d5_is_weighed_not_passed() {
    // Dev sheet 50: 1.a4 is legal and the game goes on legally until 15.d5,
    // which a pawn still on d2 cannot play. Reading 15.d5 as 15.d4 costs about
    // as much as reading 1.a4 as 1.d4 (a/d look alike), so the arbiter is
    // asked — with both first moves — instead of being handed 1.a4 ... 15.d4.
    let text = "Language: en\n1.a4 d5 2.c4 c6 3.Nf3 Nf6 4.Qc2 dxc4 5.Qxc4 Bf5 6.g3 e6 7.Bg2 Be7 8.O-O O-O \
                9.Rd1 Nbd7 10.e3 Qc7 11.h3 Rad8 12.Qe2 e5 13.Nc3 h6 14.e4 Bh7 15.d5 Bb4 16.Ne1 Nc5 \
                17.dxc6 Rxd1 18.Nxd1 Bxe1 19.Qxe1 Qxc6 20.f3 Nd3\n";
    let g = one("a4-for-d4.txt", text);
    assert_eq!(g.status, Status::Review, "{:?}", g.findings);
    let f = finding(&g, "ambiguous-repair");
    assert!(f.alternatives.contains(&"d4".to_string()) && f.alternatives.contains(&"a4".to_string()), "{f:?}");
    // 1.d4 is the cheaper of the two (a confusable pair against a rank off),
    // and the finding says by how much: less than the review margin.
    assert_eq!((g.moves[0].as_str(), g.moves[28].as_str()), ("d4", "d5"), "{:?}", g.moves);
    let margin = f.margin.expect("an ambiguous repair states its margin");
    assert!(margin > 0.0 && margin < 3.0, "{margin}");
}

#[test]
fn a4_that_may_be_move_1_or_move_5_goes_to_review() {
    // Dev sheet 270: 1.a4 ... 5.a4 with d4 never written. 1.d4 ... 5.a4 and
    // 1.a4 ... 5.d4 cost the same; a later window must not settle it by
    // re-reading only from move 5.
    let text = "Language: en\n1.a4 d5 2.Nf3 c6 3.c4 Nf6 4.Nc3 dxc4 5.a4 Bf5 6.e3 e6 7.Bxc4 Bb4 8.O-O Nbd7 \
                9.Qe2 Bg6 10.e4 O-O 11.Bd3 Bh5 12.Rd1 e5 13.Be3 Qe7 14.h3 exd4 15.Bxd4 Rfe8 16.Re1 Bxf3 \
                17.Qxf3 Ne5 18.Qg3 Rad8 19.Bxe5 Nh5 20.Qf3 Qxe5 21.Bc4 Nf6 22.Re2 Rd4 23.Bd3 g6 24.g3 h5\n";
    let g = one("a4-twice.txt", text);
    assert_eq!(g.status, Status::Review, "{:?}", g.findings);
    let f = finding(&g, "ambiguous-repair");
    assert!(f.alternatives.contains(&"d4".to_string()) && f.alternatives.contains(&"a4".to_string()), "{f:?}");
}

/// A sheet of `tests/sheets/`, read with the default options.
fn sheet_file(name: &str) -> GameReport {
    let path = format!("{}/tests/sheets/{name}", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).expect("a shipped test sheet");
    let mut report = convert(&path, &bytes, &Options::default());
    assert_eq!(report.games.len(), 1, "{path}");
    report.games.remove(0)
}

#[test]
fn generated_sheet_368_a_recapture_not_written_before_a_typo_is_found() {
    // 27...Qh4 written twice, then 28.Rxc1 not written and `NeS` for 28...Ne5:
    // skipping `NeS` costs 7, the move not written and the typo 6 + 2.5. The
    // insertion was cut at 8 and the search bought a cheaper-looking line by
    // reading 24.Rfd1, written right, as Rfe1 (validated, and wrong).
    let g = sheet_file("generated-77-368.txt");
    assert_eq!(g.moves.len(), 106, "{:?}", g.findings);
    assert_eq!((g.moves[46].as_str(), g.moves[54].as_str(), g.moves[55].as_str()), ("Rfd1", "Rxc1", "Ne5"));
    assert!(g.findings.iter().all(|f| f.ply != Some(47)), "{:?}", g.findings);
}

#[test]
fn generated_sheet_392_a_window_that_turns_hopeless_does_not_cut_the_game() {
    // 31.Ta1 for Rb1, then 38...Bd5 not written, which slides the columns: a
    // window grown for want of a clear margin took 38...Re7 as written and
    // became hopeless. It now ends where it could first close, and the game
    // is read to its end, not stopped at move 31 with `illegal-move`.
    let g = sheet_file("generated-392.txt");
    assert_eq!(g.moves.len(), 109, "{:?}", g.findings);
    assert_eq!(g.moves[60], "Rb1");
    assert!(g.findings.iter().all(|f| f.code != "illegal-move"), "{:?}", g.findings);
}

#[test]
fn generated_sheet_256_slips_in_both_first_moves_are_found_on_a_second_look() {
    // `c4` for 1.e4 and `e5` for 1...e6: both legal, so the first entry to
    // fail is 7.e5, twelve plies on. The windows took 1.c4 e5 and paid for it
    // all game (a reading 45 nats dearer than the truth); a second reading
    // with a wider beam finds both slips.
    let g = sheet_file("generated-77-256.csv");
    assert_eq!((g.moves.len(), g.moves[0].as_str(), g.moves[1].as_str()), (66, "e4", "e6"), "{:?}", g.findings);
}
