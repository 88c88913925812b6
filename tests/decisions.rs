//! An arbiter's decisions: a move picked or typed fixes the game there and
//! the rest is read again; the decided game carries who decided and why;
//! a decision that does not fit changes nothing. Through the library, and
//! through the daemon (a `<name>.decision.yaml` dropped into the inbox).

mod daemon_support;

use std::fs;
use std::path::Path;

use daemon_support::{Daemon, names, start, wait_for};
use scoresheet::convert::{Input, Options};
use scoresheet::decision::{Decision, DecisionError, read_decided};
use scoresheet::emit::report::Status;

/// Black's second move is an illegible box: Nc6, d6, b6, … all fit.
const DOUBT: &str = "Event: Open\nRound: 3\nBoard: 7\nWhite: Ana\nBlack: Berta\n\n\
1.e4 e5 2.Cf3 ? 3.Ab5 a6 4.Aa4 Cf6 5.0-0 Ae7 1-0\n";

fn input(name: &str, text: &str) -> Vec<Input> {
    vec![(name.to_string(), Ok(text.as_bytes().to_vec()))]
}

/// The PGN on one line: its comments are wrapped at 80 columns.
fn flat(pgn: &str) -> String {
    pgn.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn decision(yaml: &str) -> Decision {
    Decision::parse(yaml).expect("a decision")
}

#[test]
fn an_alternative_picked_fixes_the_move_and_validates_the_game() {
    let d = decision("decision: accept\nmoves: {4: d6}\narbiter: Ana López\n");
    let got = read_decided(&input("mesa-7.txt", DOUBT), &Options::default(), (0, 0), &d).unwrap();
    let g = &got.report;
    assert_eq!(g.status, Status::Validated);
    // After d6, Bb5 is check: `a6` cannot be, the reader takes `c6`.
    assert_eq!(&g.moves[..6], ["e4", "e5", "Nf3", "d6", "Bb5+", "c6"], "the rest read again after d6");
    assert_eq!(got.replaced[3], "Nc6", "the reading it replaced");
    assert!(g.pgn.contains("[Annotator \"Ana López\"]"), "{}", g.pgn);
    assert!(flat(&g.pgn).contains("{arbiter Ana López: 2...d6, the sheet was ambiguous}"), "{}", g.pgn);
    assert!(!g.findings.iter().any(|f| f.code == "ambiguous-repair"), "the doubt is settled");
}

#[test]
fn amending_leaves_in_review_a_doubt_the_arbiter_did_not_see() {
    // After d6 the reader takes c6 for `a6` (Bb5 is check): a new doubt.
    let d = decision("decision: amend\nmoves: {4: d6}\narbiter: Ana\n");
    let got = read_decided(&input("mesa-7.txt", DOUBT), &Options::default(), (0, 0), &d).unwrap();
    assert_eq!(got.report.moves[3], "d6");
    assert_eq!(got.report.status, Status::Review);
    let left: Vec<u32> =
        got.report.findings.iter().filter(|f| f.code == "ambiguous-repair").filter_map(|f| f.ply).collect();
    assert_eq!(left, [6]);
}

#[test]
fn accepting_keeps_the_reading_and_says_who_accepted_each_doubt() {
    let d = decision("decision: accept\narbiter: Ana\nnote: checked with both players\n");
    let got = read_decided(&input("mesa-7.txt", DOUBT), &Options::default(), (0, 0), &d).unwrap();
    assert_eq!(got.report.moves, got.replaced);
    assert_eq!(got.report.status, Status::Validated);
    let pgn = flat(&got.report.pgn);
    assert!(pgn.contains("{arbiter Ana: 2...Nc6, ambiguous repair accepted}"), "{pgn}");
    assert!(pgn.contains("{arbiter Ana: checked with both players}"), "{pgn}");
}

#[test]
fn a_move_typed_as_the_sheet_writes_it_is_read_in_its_language() {
    // `Cc6` is Spanish for Nc6; `Ac4` for Bc4 at White's third move.
    let d = decision("decision: amend\nmoves: {\"3.\": Ac4}\narbiter: Ana\n");
    let got = read_decided(&input("mesa-7.txt", DOUBT), &Options::default(), (0, 0), &d).unwrap();
    assert_eq!(got.report.moves[4], "Bc4");
    let d = decision("decision: amend\nmoves: {\"2...\": Cc6}\narbiter: Ana\n");
    let got = read_decided(&input("mesa-7.txt", DOUBT), &Options::default(), (0, 0), &d).unwrap();
    assert_eq!(got.report.moves[3], "Nc6");
}

#[test]
fn an_illegal_or_unknown_move_is_refused_with_where_and_why() {
    let d = decision("decision: amend\nmoves: {4: Qd5}\narbiter: Ana\n");
    let err = read_decided(&input("mesa-7.txt", DOUBT), &Options::default(), (0, 0), &d).unwrap_err();
    assert!(matches!(err, DecisionError::Move { .. }), "{err}");
    assert!(err.to_string().starts_with("2... Qd5: not a legal move here"), "{err}");
    let d = decision("decision: amend\nmoves: {400: e4}\narbiter: Ana\n");
    let err = read_decided(&input("mesa-7.txt", DOUBT), &Options::default(), (0, 0), &d).unwrap_err();
    assert!(err.to_string().contains("has 10 moves"), "{err}");
}

#[test]
fn a_decision_file_needs_a_name_a_reason_to_reject_and_real_plies() {
    assert_eq!(Decision::parse("decision: accept\n"), Err(DecisionError::NoArbiter));
    assert_eq!(Decision::parse("decision: reject\narbiter: Ana\n"), Err(DecisionError::NoReason));
    assert!(matches!(Decision::parse("decision: amend\narbiter: A\nmoves: {x: e4}\n"), Err(DecisionError::Ply(_))));
    assert!(matches!(Decision::parse("decision: maybe\narbiter: A\n"), Err(DecisionError::Syntax(_))));
    let big = format!("decision: accept\narbiter: A\nnote: {}\n", "x".repeat(20_000));
    assert!(matches!(Decision::parse(&big), Err(DecisionError::Syntax(_))));
}

#[test]
fn a_rejection_sends_the_game_to_rejected_with_the_reason() {
    let d = decision("decision: reject\narbiter: Ana\nreason: the sheet is of another game\n");
    let got = read_decided(&input("mesa-7.txt", DOUBT), &Options::default(), (0, 0), &d).unwrap();
    assert_eq!(got.report.status, Status::Rejected);
    assert!(got.report.findings.iter().any(|f| f.message.contains("rejected: the sheet is of another game")));
}

fn read(p: &Path) -> String {
    fs::read_to_string(p).unwrap_or_default()
}

/// The review game's name in review/ (its `.pgn`, without the extension).
fn waiting(root: &Path) -> Vec<String> {
    names(&root.join("review")).into_iter().filter_map(|n| n.strip_suffix(".pgn").map(str::to_string)).collect()
}

/// A daemon on `root` with the sheet `DOUBT` read into review, and the game's name there.
fn a_game_in_review(root: &Path) -> (Daemon, String) {
    let daemon = start(root);
    fs::write(root.join("inbox").join("mesa-7.txt"), DOUBT).unwrap();
    wait_for("the game in review", || !waiting(root).is_empty());
    let name = waiting(root).remove(0);
    (daemon, name)
}

#[test]
fn a_decision_dropped_into_the_inbox_publishes_the_game_and_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    let (daemon, name) = a_game_in_review(&root);
    let inbox = root.join("inbox");

    // One naming no game, and one with an illegal move: refused, nothing changes.
    fs::write(inbox.join("nobody.decision.yaml"), "decision: accept\narbiter: Ana\n").unwrap();
    fs::write(inbox.join(format!("{name}.decision.yaml")), "decision: amend\nmoves: {4: Qd5}\narbiter: Ana\n").unwrap();
    wait_for("both refused", || {
        names(&root.join("rejected")).iter().filter(|n| n.ends_with(".error.txt")).count() == 2
    });
    let errors: String = names(&root.join("rejected"))
        .iter()
        .filter(|n| n.ends_with(".error.txt"))
        .map(|n| read(&root.join("rejected").join(n)))
        .collect();
    assert!(errors.contains("nobody: no game waiting in review/"), "{errors}");
    assert!(errors.contains("2... Qd5: not a legal move here"), "{errors}");
    assert_eq!(waiting(&root), std::slice::from_ref(&name), "still in review");

    fs::write(
        inbox.join(format!("{name}.decision.yaml")),
        "decision: accept\nmoves: {\"2...\": d6}\narbiter: Ana López\nnote: both players agree\n",
    )
    .unwrap();
    let round = root.join("pgn").join("Open").join("round-3.pgn");
    wait_for("the decided game in the round file", || read(&round).contains("Annotator"));
    let text = flat(&read(&round));
    assert!(text.contains("[Annotator \"Ana López\"]"), "{text}");
    assert!(text.contains("Nf3 d6 {arbiter Ana López: 2...d6, both players agree}"), "{text}");
    assert!(waiting(&root).is_empty(), "gone from review/");
    let kept = read(&root.join("decisions").join(format!("{name}.yaml")));
    assert!(kept.contains("arbiter: Ana López") && kept.contains("when:") && kept.contains("- Nc6"), "{kept}");
    let log = daemon.stop();
    assert!(log.contains("an arbiter decided a game: review → pgn"), "{log}");
}

#[test]
fn a_decision_stands_when_the_other_copy_arrives_later() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    let daemon = start(&root);
    let inbox = root.join("inbox");
    fs::write(inbox.join("white.txt"), DOUBT).unwrap();
    wait_for("the game in review", || !waiting(&root).is_empty());
    let name = waiting(&root).remove(0);
    fs::write(
        inbox.join(format!("{name}.decision.yaml")),
        "decision: accept\nmoves: {4: d6}\narbiter: Ana\nnote: seen on the board\n",
    )
    .unwrap();
    let round = root.join("pgn").join("Open").join("round-3.pgn");
    wait_for("the decided game in the round file", || read(&round).contains("Annotator"));
    // Black's copy has the same illegible box: read with both copies, the
    // game is in doubt there again, and the arbiter's decision settles it.
    let black = DOUBT.replace("1.e4 e5", "1. e4   e5");
    fs::write(inbox.join("black.txt"), black).unwrap();
    wait_for("the game read with both copies", || read(&round).contains("[Sheets "));
    let text = flat(&read(&round));
    assert!(
        text.contains("[Annotator \"Ana\"]") && text.contains("d6 {arbiter Ana: 2...d6, seen on the board}"),
        "{text}"
    );
    assert!(waiting(&root).is_empty(), "not back in review");
    assert_eq!(text.matches("[Event ").count(), 1, "one game in the round file");
    daemon.stop();
}

#[test]
fn the_stopped_line_counts_a_game_a_decision_moved_where_it_is_now() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    let (daemon, name) = a_game_in_review(&root);
    let inbox = root.join("inbox");
    fs::write(inbox.join(format!("{name}.decision.yaml")), "decision: accept\nmoves: {4: d6}\narbiter: Ana\n").unwrap();
    wait_for("the decision carried out", || waiting(&root).is_empty());
    let log = daemon.stop();
    let stopped = log.lines().find(|l| l.contains("stopped")).unwrap();
    assert!(stopped.contains("pgn=1 review=0 rejected=0"), "{stopped}");
}

#[test]
fn a_move_fixed_on_a_game_of_two_copies_leaves_what_each_player_wrote_on_its_page() {
    use scoresheet::dev::{Controls, EN, desk_game};
    // White's copy ends 8...O-O, Black's 8...Bb7: the arbiter fixes Bb7.
    let head = "Event: Open\nRound: 3\nBoard: 7\nWhite: Ana\nBlack: Berta\n\n";
    let game = "1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 4.Ba4 Nf6 5.O-O Be7 6.Re1 b5 7.Bb3 d6 8.c3 O-O 1-0\n";
    let black = game.replace("O-O 1-0", "Bb7 1-0");
    let inputs: Vec<Input> = [("mesa7-w.txt", format!("{head}{game}")), ("mesa7-b.txt", format!("{head}{black}"))]
        .into_iter()
        .map(|(n, t)| (n.to_string(), Ok(t.into_bytes())))
        .collect();
    let d = decision("decision: amend\nmoves: {\"8...\": Bb7}\narbiter: Ana\n");
    let got = read_decided(&inputs, &Options::default(), (0, 0), &d).unwrap();
    assert_eq!(got.report.moves[15], "Bb7");
    let controls = Controls { id: "0", version: "0", csrf: "0", fixed: "", preview: true };
    let page = desk_game(&got.report, "mesa7-w.txt, mesa7-b.txt", &EN, &controls);
    let at = page.find("id=\"moves\"").expect("the moves");
    let moves = &page[at..at + page[at..].find("</table>").unwrap()];
    assert!(moves.contains("mesa7-b.txt") && moves.contains("mesa7-w.txt"), "both copies' columns: {moves}");
    // Each player's 8th move as the player wrote it, not the arbiter's.
    assert!(moves.contains(">O-O</span>") && moves.contains(">Bb7</span>"), "{moves}");
    assert!(!moves.contains('♗'), "the arbiter's move is not shown as written on a copy: {moves}");
}

#[test]
fn a_move_the_writer_skipped_goes_before_the_box_that_holds_the_next_one() {
    // White's 4th move (Ba4) is not on the sheet: its box holds 4...Nf6.
    let skipped = "Event: Open\nRound: 3\nBoard: 8\nWhite: Ana\nBlack: Berta\n\n\
1.e4 e5 2.Cf3 Cc6 3.Ab5 a6 4.Cf6 5.0-0 Ae7 6.Te1 b5 7.Ab3 d6 8.c3 0-0 9.h3 Ca5 10.Ac2 c5 1-0\n";
    let played = [
        "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5", "Bb3", "d6", "c3", "O-O", "h3",
        "Na5", "Bc2", "c5",
    ];
    let d = decision("decision: accept\nmoves: {7: Ba4}\narbiter: Ana\n");
    let got = read_decided(&input("mesa-8.txt", skipped), &Options::default(), (0, 0), &d).unwrap();
    assert_eq!(got.report.moves, played, "the game as played, the skipped move put before 4...Nf6");
    assert_eq!(got.report.status, Status::Validated);
}

/// Two copies of a generated Swiss game (corpus game, both copies typed by
/// `scoresheet_dev::pairs`): the YAML copy stops at move 56; the text copy
/// skips White's 59th (h5) and writes 59...e3 in White's box.
const LONG_A: &str = r#"event: Swiss_Open_2026
white: S. Kurbonboeva
black: 'Vakhidov,T'
result: '0-1'
language: de
moves:
- - d4
  - Sf6
- - c4
  - e6
- - Sc3
  - Lb4
- - Dc2
  - '0-0'
- - a3
  - Lxc3+
- - Dxc3
  - d6
- - Sf3
  - b6
- - g3
  - Lb7
- - Kg2
  - Sbd7
- - '0-0'
  - De7
- - b3
  - c5
- - Lb2
  - Tac8
- - d5
  - Tfe8
- - dxe6
  - fxe6
- - Dd2
  - d5
- - Se1
  - Lc6
- - Sd3
  - dxc4
- - bxc4
  - Lxg2
- - Kxg2
  - e5
- - Dc2
  - Dd6
- - Tad1
  - Sb8
- - '43'
  - Dc7
- - Sf2
  - Sc6
- - e3
  - Tcd8
- - Se4
  - Sa5
- - Sxf6+
  - gxf6
- - Td5
  - Txd5
- - cxd5
  - b5
- - e4
  - Sc4
- - Lc1
  - Sd6
- - Le3
  - Tc8
- - f4
  - Dg7
- - Fxe5
  - fxe5
- - Lc1
  - Dg4
- - Te1
  - Tf8
- - De2
  - Dxe2+
- - Txe2
  - aS
- - Lb2
  - Sc4
- - Lc1
  - b4
- - Tc2
  - Sd6
- - Txc5
  - b3
- - Kh3
  - a4
- - Lb2
  - Sxe4
- - Tc7
  - Sf2+
- - Kh4
  - Sd3
- - Lc3
  - Td8
- - Kg5
  - Txd5
- - Kf6
  - Td6+
- - Kf5
  - Tb6
- - Tc8+
  - Kf7
- - Tc7+
  - Kf8
- - Ke4
  - b2
- - Lxb2
  - Sxb2
- - Txh7
  - Sc4
- - Ta7
  - Td6
- - Kf5
  - Td4
"#;
const LONG_B: &str = r#"Round: 3.3
Torneo: Swiss_Open_2026
Blancas: Kurbonboeva,Sarvinoz
Negras: Вахидов,Т NOR IM

1	d4	Cf6
2	c4	e6
3	Cc3	Ab4
4	Dc2	0-0
5	a3	Axc3
6	Axc3	d6
7	Cf3	b6
8	g3	Ab7
9	Ag2	Cbd7
10	0-0	De7
11	b3	c5
12	Ab2	Tac8
13	d5	Tfe8
14	dxe6	fxe6
15	Dd2	d5
16	Ce1	Ac6
17	Cd3	dxc4
18	bxc4	Axg1
19	Rxg2	e5
20	Dc2	Dd6
21	Tad1	Cb8
22	f3	Dc7
23	Cf2	Cc6
24	e3	Tcd8
25	Ce4	Ca5
26	Cxf6	gxf6
27	Td5	Txd5
28	cxd5	b5
29	e4	Cc4
30	Ac1	Cd6
31	Ae3	Tc8
32	f4	Dg7
33	fxe5	fxe5
34	Ac1	Dg4
35	Te1	Tf8
36	De2	Dxe2
37	Txe2	a5
38	Ab2	Cc4
39	Ac1	b4
40	Tc2	Cd6
41	Txc5	b3
42	Rh3	a4
43	AbZ	Cxe4
44	Tc7	Cf2
45	Rh4	Cd3
46	Ac3	Td8
47	Rg5	Txd5
48	Rf6	Td6
49	Rf5	Tb6
50	Tc8	Rf7
51	Tc7	Rf8
52	Rf5e4	b2
53	Axb2	Cxb2
54	Txh7	Cc4
55	Ta7	Td6
56	Pf5	Td3
57	Rf6	Re8
58	h4	e4
59	e3
0-1
"#;

#[test]
fn a_last_move_skipped_by_the_only_copy_that_writes_it_keeps_the_move_after_it() {
    let inputs: Vec<Input> = vec![
        ("g0014-a.yaml".to_string(), Ok(LONG_A.as_bytes().to_vec())),
        ("g0014-b.txt".to_string(), Ok(LONG_B.as_bytes().to_vec())),
    ];
    let played: Vec<&str> = "d4 Nf6 c4 e6 Nc3 Bb4 Qc2 O-O a3 Bxc3 Qxc3 d6 Nf3 b6 g3 Bb7 Bg2 Nbd7 O-O Qe7 b3 c5 Bb2 Rac8 d5 Rfe8 dxe6 fxe6 Qd2 d5 Ne1 Bc6 Nd3 dxc4 bxc4 Bxg2 Kxg2 e5 Qc2 Qd6 Rad1 Nb8 f3 Qc7 Nf2 Nc6 e3 Rcd8 Ne4 Na5 Nxf6 gxf6 Rd5 Rxd5 cxd5 b5 e4 Nc4 Bc1 Nd6 Be3 Rc8 f4 Qg7 fxe5 fxe5 Bc1 Qg4 Re1 Rf8 Qe2 Qxe2 Rxe2 a5 Bb2 Nc4 Bc1 b4 Rc2 Nd6 Rxc5 b3 Kh3 a4 Bb2 Nxe4 Rc7 Nf2 Kh4 Nd3 Bc3 Rd8 Kg5 Rxd5 Kf6 Rd6 Kf5 Rb6 Rc8 Kf7 Rc7 Kf8 Ke4 b2 Bxb2 Nxb2 Rxh7 Nc4 Ra7 Rd6 Kf5 Rd4 Kf6 Ke8 h4 e4 h5 e3".split(' ').collect();
    let d = decision("decision: accept\nmoves: {112: Rd4, 117: h5}\nresult: 0-1\narbiter: Ana\n");
    let got = read_decided(&inputs, &Options::default(), (0, 0), &d).unwrap();
    let bare: Vec<String> = got.report.moves.iter().map(|m| m.trim_end_matches(['+', '#']).to_string()).collect();
    assert_eq!(bare, played, "h5 put before the box that holds e3, which stays the game's last move");
}
