//! The arbiter's checks of a game's end and its draws (Laws of Chess,
//! Art. 5 and 9): the result written against the final position, a draw
//! that could be claimed, a draw offered. The result written is never
//! changed silently.

use scoresheet::convert::{Options, convert};
use scoresheet::emit::report::{GameReport, Status};

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
fn a_game_not_over_with_no_result_is_an_incomplete_record() {
    let g = game("1.e4 e5 2.Nf3 Nc6 3.Bb5 a6\n");
    assert_eq!(codes(&g), [("incomplete-record", "Info".to_string())]);
    assert_eq!(g.result, "*");
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
