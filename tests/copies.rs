//! Both players' scoresheets of one game, given to one `convert` call, are
//! read together as one game.

use assert_cmd::cargo::cargo_bin_cmd;
use scoresheet::convert::{Input, Options, convert, convert_together};
use scoresheet::emit::report::{FileReport, GameReport, Status};
use scoresheet::finding::Severity;

/// The status but for `result-missing`: these copies are parts of games
/// with no result written, which the arbiter establishes (Art. 8.7); what is
/// checked here is how the moves were read.
fn doubts(g: &GameReport) -> Vec<&str> {
    let mut out: Vec<&str> = g.findings.iter().filter(|f| f.severity >= Severity::Warning).map(|f| f.code).collect();
    out.sort();
    out
}

fn moves_status(g: &GameReport) -> Status {
    let only_result = g.findings.iter().all(|f| f.severity < Severity::Warning || f.code == "result-missing");
    if g.status == Status::Review && only_result { Status::Validated } else { g.status }
}

fn input(name: &str, text: &str) -> Input {
    (name.to_string(), Ok(text.as_bytes().to_vec()))
}

fn together(inputs: &[Input]) -> (Vec<FileReport>, Vec<String>) {
    convert_together(inputs, &Options::default())
}

fn first(r: &FileReport) -> &GameReport {
    &r.games[0]
}

fn codes(g: &GameReport) -> Vec<&str> {
    g.findings.iter().map(|f| f.code).collect()
}

const HEAD_A: &str = "Event: Test Open\nRound: 3\nWhite: Navara, David\nBlack: Carlsen, Magnus\n\n";
const HEAD_B: &str = "Event: Test Open\nRound: 3\nWhite: D. Navara\nBlack: carlsen m\n\n";

#[test]
fn an_illegible_box_in_one_copy_is_settled_by_the_other() {
    let a = format!("{HEAD_A}1.e4 e5 2.Nf3 ? 3.Bb5 a6 4.Ba4 Nf6 5.O-O Be7\n");
    let b = format!("{HEAD_B}1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 4.Ba4 Nf6 5.O-O Be7\n");
    // Alone, the box is any of many moves.
    assert_eq!(convert("a.txt", a.as_bytes(), &Options::default()).games[0].status, Status::Review);
    let (reports, notes) = together(&[input("a.txt", &a), input("b.txt", &b)]);
    assert!(notes.is_empty());
    let g = first(&reports[0]);
    assert_eq!(g.moves[3], "Nc6");
    assert_eq!(moves_status(g), Status::Validated, "{:?}", codes(g));
    assert_eq!(g.sheets, Some(["a.txt".to_string(), "b.txt".to_string()]));
    assert_eq!((g.copy, first(&reports[1]).copy), (Some("a"), Some("b")));
    assert_eq!(first(&reports[1]).moves, g.moves);
}

#[test]
fn a_legal_slip_in_one_copy_is_caught_by_the_other() {
    // Copy a wrote Dd6 (Qd6) where copy b has Qd8: both legal, nothing later
    // tells them apart. Alone, copy a validates its slip.
    let a = format!("{}Language: es\n\n1.e4 d5 2.exd5 Dxd5 3.Cf3 Dd6 4.d4 Cf6 5.Ae2 e6\n", HEAD_A.trim_end());
    let b = format!("{HEAD_B}1.e4 d5 2.exd5 Qxd5 3.Nf3 Qd8 4.d4 Nf6 5.Be2 e6\n");
    assert_eq!(moves_status(&convert("a.txt", a.as_bytes(), &Options::default()).games[0]), Status::Validated);
    let (reports, _) = together(&[input("a.txt", &a), input("b.txt", &b)]);
    let g = first(&reports[0]);
    assert_ne!(g.status, Status::Validated, "a game one copy contradicts is not validated");
    let f = g.findings.iter().find(|f| f.code == "copies-disagree").expect("copies-disagree");
    assert_eq!(f.ply, Some(6));
    assert!(f.message.contains("a.txt") && f.message.contains("b.txt"), "{}", f.message);
    assert!(f.message.contains("Dd6") && f.message.contains("Qd8"), "{}", f.message);
}

#[test]
fn two_copies_in_different_languages_and_formats_are_one_game() {
    let a = "Turnier: Test Open\nRunde: 3.12\nWeiß: Navara,D\nSchwarz: Carlsen,M\n\n\
             1.e4 c5 2.Sf3 d6 3.d4 cxd4 4.Sxd4 Sf6 5.Sc3 a6 6.Le2 e5\n";
    let b = "Torneo,Test Open\nRonda,3.12\nBlancas,\"D. Navara\"\nNegras,\"Magnus Carlsen\"\n\n\
             #,Blancas,Negras\n1,e4,c5\n2,Cf3,d6\n3,d4,cxd4\n4,Cxd4,Cf6\n5,Cc3,a6\n6,Ae2,e5\n";
    let (reports, _) = together(&[input("a.txt", a), input("b.csv", b)]);
    let g = first(&reports[0]);
    assert_eq!(moves_status(g), Status::Validated, "{:?}", codes(g));
    assert_eq!(g.moves, ["e4", "c5", "Nf3", "d6", "d4", "cxd4", "Nxd4", "Nf6", "Nc3", "a6", "Be2", "e5"]);
    assert_eq!(g.copy, Some("a"));
    assert!(g.pgn.contains("[Sheets \"a.txt b.csv\"]"), "{}", g.pgn);
    // The game is written once: in the first copy's PGN.
    assert!(reports[0].pgn().is_some());
    assert_eq!(reports[1].pgn(), None);
}

#[test]
fn a_third_copy_is_reported_and_read_alone() {
    let moves = "1.e4 e5 2.Nf3 Nc6 3.Bb5 a6\n";
    let (reports, notes) = together(&[
        input("a.txt", &format!("{HEAD_A}{moves}")),
        input("b.txt", &format!("{HEAD_B}{moves}")),
        input("c.txt", &format!("{HEAD_A}{moves}")),
    ]);
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(notes[0].contains("c.txt") && notes[0].contains("a.txt"), "{}", notes[0]);
    assert_eq!(first(&reports[0]).copy, Some("a"));
    assert_eq!(first(&reports[1]).copy, Some("b"));
    assert_eq!(first(&reports[2]).copy, None, "not merged");
    assert_eq!(moves_status(first(&reports[2])), Status::Validated);
}

#[test]
fn copies_giving_no_round_are_one_game_where_their_players_have_no_other() {
    let moves = "1.e4 e5 2.Nf3 Nc6 3.Bb5 a6\n";
    let a = format!("Event: Open\nWhite: Navara, David\nBlack: Carlsen, Magnus\n\n{moves}");
    let b = format!("Event: Open\nRound: 3\nWhite: Навара, Д\nBlack: magnus carlsen\n\n{moves}");
    let (reports, _) = together(&[input("a.txt", &a), input("b.txt", &b)]);
    assert_eq!(first(&reports[0]).sheets, Some(["a.txt".to_string(), "b.txt".to_string()]));
    // The same two players on three sheets without a round (they met twice):
    // the names cannot tell which two are one game; each is read alone.
    let (reports, _) = together(&[input("a.txt", &a), input("b.txt", &a), input("c.txt", &a)]);
    assert!(reports.iter().all(|r| first(r).sheets.is_none()), "never paired by a guess");
}

#[test]
fn a_federation_code_or_a_title_in_one_copys_names_is_not_part_of_them() {
    // One copy gives no round: only the names tell its game, written
    // `A UKR Petrov` and `GM S RUS Ivanova` on it, `A.Petrov` and
    // `Ivanova S` on the other.
    let moves = "1.d4 Nf6 2.c4 e6 3.Nc3 Bb4 4.Qc2 O-O\n";
    let a = format!("Event: Open\nWhite: A UKR Petrov\nBlack: GM S RUS Ivanova\n\n{moves}");
    let b = format!("Event: Open\nRound: 5\nWhite: A.Petrov\nBlack: Ivanova S\n\n{moves}");
    let (reports, _) = together(&[input("a.txt", &a), input("b.txt", &b)]);
    assert_eq!(first(&reports[0]).sheets, Some(["a.txt".to_string(), "b.txt".to_string()]));
    // Two players whose names differ only by the codes beside them are not
    // one player: `A UKR Petrov` is not `B UKR Sokolov`.
    let c = format!("Event: Open\nRound: 5\nWhite: B UKR Sokolov\nBlack: S RUS Ivanova\n\n{moves}");
    let (reports, _) = together(&[input("a.txt", &a), input("c.txt", &c)]);
    assert!(reports.iter().all(|r| first(r).sheets.is_none()), "paired by the codes");
}

#[test]
fn one_name_typed_past_knowing_on_the_same_event_round_and_board_is_one_game() {
    // `Jdin` on one copy, `Yudn S` on the other, for Yudin: the names do not
    // match, but the event, round and board are one, and so is Black.
    let moves = "1.e4 c5 2.Nf3 d6 3.d4 cxd4 4.Nxd4 Nf6\n";
    let a = format!("Event: Open\nRound: 4\nBoard: 7\nWhite: Jdin\nBlack: Petrov, A\n\n{moves}");
    let b = format!("Event: Open\nRound: 4\nBoard: 7\nWhite: Yudn S\nBlack: A. Petrov\n\n{moves}");
    let (reports, _) = together(&[input("a.txt", &a), input("b.txt", &b)]);
    assert_eq!(first(&reports[0]).sheets, Some(["a.txt".to_string(), "b.txt".to_string()]));
    // Neither name alike on one board: two games, never one by a guess.
    let c = format!("Event: Open\nRound: 4\nBoard: 7\nWhite: Yudn S\nBlack: Kasimdzhanov\n\n{moves}");
    let (reports, _) = together(&[input("a.txt", &a), input("c.txt", &c)]);
    assert!(reports.iter().all(|r| first(r).sheets.is_none()), "paired on the board alone");
}

#[test]
fn sheets_of_different_games_are_never_paired() {
    let moves = "1.e4 e5 2.Nf3 Nc6 3.Bb5 a6\n";
    let sheet = |event: &str, round: &str, white: &str, black: &str| {
        format!("Event: {event}\nRound: {round}\nWhite: {white}\nBlack: {black}\n\n{moves}")
    };
    let cases = [
        // Other players in the same round.
        (sheet("Open", "3", "Navara, David", "Carlsen, Magnus"), sheet("Open", "3", "Shirov, A", "Short, N")),
        // The same players in another round.
        (sheet("Open", "3", "Navara, David", "Carlsen, Magnus"), sheet("Open", "4", "Navara, D", "Carlsen, M")),
        // Another event.
        (sheet("Open", "3", "Navara, David", "Carlsen, Magnus"), sheet("Cup", "3", "Navara, D", "Carlsen, M")),
        // Another board of the same round.
        (sheet("Open", "3.1", "Navara, David", "Carlsen, Magnus"), sheet("Open", "3.2", "Navara, D", "Carlsen, M")),
        // A surname alike, another initial.
        (sheet("Open", "3", "Navara, David", "Carlsen, Magnus"), sheet("Open", "3", "Navara, P", "Carlsen, M")),
        // No round on one, and the same players in another event.
        (
            format!("Event: Open\nWhite: Navara, David\nBlack: Carlsen, Magnus\n\n{moves}"),
            format!("Event: Cup\nRound: 3\nWhite: Navara, D\nBlack: Carlsen, M\n\n{moves}"),
        ),
    ];
    for (a, b) in &cases {
        let (reports, notes) = together(&[input("a.txt", a), input("b.txt", b)]);
        assert!(notes.is_empty());
        for r in &reports {
            assert_eq!(first(r).copy, None, "paired:\n{a}\n{b}");
            assert_eq!(first(r).sheets, None);
        }
    }
}

#[test]
fn convert_given_both_copies_writes_one_pgn_naming_both() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), format!("{HEAD_A}1.e4 e5 2.Nf3 ? 3.Bb5 a6 1-0\n")).unwrap();
    std::fs::write(dir.path().join("b.txt"), format!("{HEAD_B}1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 1-0\n")).unwrap();
    let out =
        cargo_bin_cmd!("scoresheet").current_dir(dir.path()).args(["convert", "a.txt", "b.txt"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stdout));
    let pgn = std::fs::read_to_string(dir.path().join("a.pgn")).unwrap();
    assert!(pgn.contains("[Sheets \"a.txt b.txt\"]") && pgn.contains("2. Nf3 Nc6"), "{pgn}");
    assert!(!dir.path().join("b.pgn").exists(), "the game is written once");
}

#[test]
fn generated_pairs_of_copies_are_read_as_one_game_and_none_validated_wrong() {
    use scoresheet_dev::corpus::load_range;
    use scoresheet_dev::generate::derive_seed;
    use scoresheet_dev::pairs::{PairTally, count_pair, pair_of};
    let games = load_range(6000, 40);
    let mut t = PairTally::default();
    for (i, g) in games.iter().filter(|g| g.sans.len() >= 4).take(30).enumerate() {
        count_pair(&pair_of(g, i + 1, derive_seed(7, i as u64), 0.05), &Options::default(), &mut t);
    }
    println!("{t:?}");
    assert_eq!(t.grouped, t.pairs, "every pair is read as one game");
    assert_eq!(t.validated_wrong, 0);
    assert!(t.exact >= t.either_exact.saturating_sub(1), "read together is as good as the better copy: {t:?}");
}

#[test]
fn a_copy_that_stops_early_gives_the_game_of_the_copy_that_goes_on() {
    let a = format!("{HEAD_A}1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 4.Ba4 Nf6 5.O-O Be7 6.Re1 b5 7.Bb3 d6\n");
    let b = format!("{HEAD_B}1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 4.Ba4\n");
    let (reports, _) = together(&[input("a.txt", &b), input("b.txt", &a)]);
    let g = first(&reports[0]);
    assert_eq!(g.moves.len(), 14, "{:?}", g.moves);
    // The copy that stops (a.txt) lacks 4 moves of a 7-move game: too early
    // for a player short of time (Art. 8.4), so an arbiter looks.
    assert_eq!(doubts(g), ["incomplete-record", "result-missing"], "{:?}", g.findings);
    let f = g.findings.iter().find(|f| f.code == "incomplete-record").unwrap();
    assert!(f.message.starts_with("a.txt: the record lacks 4 moves of the game, from move 4..."), "{}", f.message);
}

const RUY: &str = "1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 4.Ba4 Nf6 5.O-O Be7 6.Re1 b5 7.Bb3 d6 8.c3 O-O 9.h3 Nb8 \
                   10.d4 Nbd7 11.Nbd2 Bb7 12.Bc2 Re8 13.Nf1 Bf8 14.Ng3 g6";

fn ruy_moves() -> Vec<String> {
    RUY.split_whitespace().map(|t| t.rsplit('.').next().unwrap().to_string()).collect()
}

#[test]
fn a_box_one_copy_left_blank_is_the_move_the_other_wrote_though_that_copy_stops_early() {
    // Copy a left 9.h3 blank: a3, d3, h4 ... keep the rest legal as well.
    // Copy b wrote h3 but stops after move 10. Neither alone is the game.
    let a = format!("{HEAD_A}{}\n", RUY.replace("9.h3", "9.?"));
    let b = format!("{HEAD_B}{}\n", &RUY[..RUY.find("11.").unwrap()]);
    let alone_a = &convert("a.txt", a.as_bytes(), &Options::default()).games[0];
    assert_eq!(alone_a.status, Status::Review, "alone, the box is in doubt");
    let (reports, _) = together(&[input("a.txt", &a), input("b.txt", &b)]);
    let g = first(&reports[0]);
    assert_eq!(g.moves, ruy_moves(), "{:?}", codes(g));
    // Copy b settles the box; that it stops at move 10 of 14 is for the arbiter.
    assert_eq!(doubts(g), ["incomplete-record", "result-missing"], "copy b settles the box: {:?}", g.findings);
    assert_eq!(g.lines_in.as_deref(), Some("a.txt"), "the moves are copy a's reading");
}

#[test]
fn a_copy_that_dropped_a_move_is_read_with_the_other_that_stops_early() {
    // Copy a dropped 9...Nb8, so every entry after it stands a ply off; copy
    // b has every move to 11...Bb7, then stops. The game is b's moves, then
    // a's last entries read on from where b stops.
    let a = format!("{HEAD_A}{}\n", RUY.replace(" Nb8", ""));
    let b = format!("{HEAD_B}{}\n", &RUY[..RUY.find("12.").unwrap()]);
    let (reports, _) = together(&[input("a.txt", &a), input("b.txt", &b)]);
    let g = first(&reports[0]);
    assert_eq!(g.moves, ruy_moves(), "{:?}", codes(g));
}

#[test]
fn two_legible_copies_naming_two_legal_moves_go_to_review_at_that_move_with_both() {
    // 13.Nf1 in copy a, 13.Nb3 in copy b: both legal, and 14.Ng3 follows
    // from f1 only, so the rest of the game tells: Nf1.
    let a = format!("{HEAD_A}{RUY}\n");
    let b = format!("{HEAD_B}{}\n", RUY.replace("13.Nf1", "13.Nb3"));
    let (reports, _) = together(&[input("a.txt", &a), input("b.txt", &b)]);
    let g = first(&reports[0]);
    assert_eq!(g.moves, ruy_moves());
    // 10...Nbd7 in copy a, Nfd7 in copy b: either knight may go, nothing
    // after tells which, and the two slips cost alike.
    let b = format!("{HEAD_B}{}\n", RUY.replace("Nbd7", "Nfd7"));
    let (reports, _) = together(&[input("a.txt", &a), input("b.txt", &b)]);
    let g = first(&reports[0]);
    assert_eq!(g.status, Status::Review, "{:?}", codes(g));
    let f = g.findings.iter().find(|f| f.code == "copies-disagree").expect("copies-disagree");
    assert_eq!(f.ply, Some(20), "{}", f.message);
    assert!(f.message.contains("Nbd7") && f.message.contains("Nfd7"), "{}", f.message);
}
