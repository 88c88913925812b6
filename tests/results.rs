//! A game's result as the record gives it: a result in doubt is a doubt,
//! never the first file's for coming first; no result written (or `*`) is
//! published with `*` and a notice asking the arbiter for it; the pairings
//! settle a result the record leaves open. Each test is named for what was
//! typed.

use std::sync::Arc;

use scoresheet::convert::{Input, Options, convert, convert_together};
use scoresheet::emit::report::{GameReport, Status};
use scoresheet::finding::Weight;
use scoresheet::pairing::Tournament;
use scoresheet_dev::corpus::load_range;
use scoresheet_dev::trf::BuiltTrf;

const MOVES: &str = "1.e4 e5 2.Cf3 Cc6 3.Ab5 a6 4.Aa4 Cf6 5.0-0 Ae7";

fn one(text: &str) -> GameReport {
    convert("sheet.txt", text.as_bytes(), &Options::default()).games.remove(0)
}

fn codes(g: &GameReport) -> Vec<&str> {
    g.findings.iter().map(|f| f.code).collect()
}

fn both(a: (&str, String), b: (&str, String), opts: &Options) -> GameReport {
    let inputs: Vec<Input> = [a, b].into_iter().map(|(n, t)| (n.to_string(), Ok(t.into_bytes()))).collect();
    convert_together(&inputs, opts).0.remove(0).games.remove(0)
}

fn copy(white: &str, black: &str, round: &str, moves: &str) -> String {
    format!("Event: Open\nRound: {round}\nWhite: {white}\nBlack: {black}\n\n{moves}\n")
}

#[test]
fn two_copies_ending_1_0_and_0_1_go_to_review_whichever_file_comes_first() {
    let w = ("w.txt", copy("Pérez, Ana", "Ruiz, B", "3", &format!("{MOVES} 1-0")));
    let b = ("b.txt", copy("A. Perez", "Ruiz, B", "3", &format!("{MOVES} 0-1")));
    for (first, second) in [(w.clone(), b.clone()), (b, w)] {
        let g = both(first, second, &Options::default());
        assert_eq!(g.sheets.as_ref().map(|s| s.len()), Some(2), "read as one game");
        assert_eq!(g.status, Status::Review, "{:?}", codes(&g));
        assert_eq!(g.result, "*", "no copy's result wins for coming first");
        let f = g.findings.iter().find(|f| f.code == "results-disagree").expect("said");
        assert_eq!(f.weight, Weight::Doubt);
        assert!(f.message.contains("1-0 (w.txt)") && f.message.contains("0-1 (b.txt)"), "{}", f.message);
    }
}

#[test]
fn a_result_header_of_1_0_with_0_1_after_the_moves_goes_to_review() {
    let g = one(&format!("Result: 1-0\n\n{MOVES} 0-1\n"));
    assert_eq!(g.status, Status::Review);
    assert_eq!(g.result, "*");
    let f = g.findings.iter().find(|f| f.code == "results-disagree").expect("said");
    assert!(f.message.contains("1-0 (the Result header), 0-1 (after the moves)"), "{}", f.message);
}

#[test]
fn a_pgn_result_tag_of_1_0_with_a_star_in_the_movetext_keeps_the_1_0() {
    let pgn = b"[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n";
    let g = convert("sheet.pgn", pgn, &Options::default()).games.remove(0);
    assert_eq!(g.result, "1-0", "`*` is no result: the tag's stands");
    assert_eq!(g.status, Status::Validated, "{:?}", codes(&g));
    assert!(codes(&g).iter().all(|c| *c != "results-disagree" && *c != "result-missing"));
}

#[test]
fn a_sheet_ending_in_a_star_is_published_like_one_with_no_result() {
    let star = one(&format!("{MOVES} *\n"));
    let none = one(&format!("{MOVES}\n"));
    for g in [&star, &none] {
        assert_eq!(g.status, Status::Validated, "{:?}", codes(g));
        assert_eq!(g.result, "*");
        let f = g.findings.iter().find(|f| f.code == "result-missing").expect("the arbiter is asked for it");
        assert_eq!(f.weight, Weight::Notice);
    }
    assert_eq!(codes(&star), codes(&none));
}

/// A one-game event of a corpus game with a decisive result, its TRF, and
/// the players' names as the TRF has them.
fn event() -> (Options, String, String, &'static str, &'static str) {
    let games = load_range(0, 200);
    let g = games.iter().find(|g| g.result == "1-0" && g.sans.len() >= 20).expect("a game White won").clone();
    let trf = BuiltTrf::from_games("Open", std::slice::from_ref(&g));
    let x = &trf.games[0];
    let (white, black) = (trf.player(x.white).name.clone(), trf.player(x.black).name.clone());
    let opts = Options { pairings: Some(Arc::new(Tournament::parse(&trf.utf8()).unwrap())), ..Options::default() };
    let moves: Vec<String> = g
        .sans
        .iter()
        .enumerate()
        .map(|(i, s)| if i % 2 == 0 { format!("{}.{s}", i / 2 + 1) } else { s.clone() })
        .collect();
    let text = moves.join(" ");
    let round = format!("{}.{}", x.round, x.board);
    (opts, format!("Round: {round}\nWhite: {white}\nBlack: {black}\nLanguage: en\n\n{text}"), round, "1-0", "0-1")
}

#[test]
fn the_pairings_give_the_result_a_sheet_leaves_out() {
    let (opts, sheet, _, won, _) = event();
    let g = convert("board.txt", format!("{sheet}\n").as_bytes(), &opts).games.remove(0);
    assert_eq!(g.result, won);
    assert_eq!(g.status, Status::Validated, "{:?}", codes(&g));
    let f = g.findings.iter().find(|f| f.code == "result-from-pairings").expect("said");
    assert_eq!(f.weight, Weight::Notice);
    assert!(codes(&g).iter().all(|c| *c != "result-missing"), "{:?}", codes(&g));
}

#[test]
fn the_pairings_settle_two_copies_ending_1_0_and_0_1() {
    let (opts, sheet, _, won, lost) = event();
    let g = both(("w.txt", format!("{sheet} {won}\n")), ("b.txt", format!("{sheet} {lost}\n")), &opts);
    assert_eq!(g.result, won, "{:?}", codes(&g));
    assert_eq!(g.status, Status::Validated, "{:?}", codes(&g));
    assert!(codes(&g).contains(&"result-from-pairings"), "{:?}", codes(&g));
    // Without the pairings, the same copies go to review.
    let g = both(("w.txt", format!("{sheet} {won}\n")), ("b.txt", format!("{sheet} {lost}\n")), &Options::default());
    assert_eq!(g.status, Status::Review);
}

#[test]
fn a_result_written_against_the_pairings_goes_to_review() {
    let (opts, sheet, _, _, lost) = event();
    let g = convert("board.txt", format!("{sheet} {lost}\n").as_bytes(), &opts).games.remove(0);
    assert_eq!(g.status, Status::Review);
    assert!(codes(&g).contains(&"pairing-result-mismatch"), "{:?}", codes(&g));
}
