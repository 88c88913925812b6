//! Games written in descriptive notation read move for move, by the same
//! search as algebraic ones, and reported as no evidence under FIDE
//! Appendix C. Real printed games in `tests/data/descriptive/` (their
//! sources in `SOURCES.md`).

use std::time::Instant;

use scoresheet::convert::{Options, convert};
use scoresheet::emit::report::{GameReport, Status};

fn read(name: &str, text: &str) -> GameReport {
    let start = Instant::now();
    let g = convert(name, text.as_bytes(), &Options::default()).games.remove(0);
    println!("{name}: {} plies read in {:.1} ms", g.moves.len(), start.elapsed().as_secs_f64() * 1000.0);
    g
}

#[test]
fn the_evergreen_game_as_printed_in_english_descriptive_notation() {
    let text = include_str!("data/descriptive/evergreen-1852-en.txt");
    let g = read("evergreen-1852-en.txt", text);
    let want = "e4 e5 Nf3 Nc6 Bc4 Bc5 b4 Bxb4 c3 Ba5 d4 exd4 O-O d3 Qb3 Qf6 e5 Qg6 Re1 Nge7 Ba3 b5 Qxb5 Rb8 \
                Qa4 Bb6 Nbd2 Bb7 Ne4 Qf5 Bxd3 Qh5 Nf6+ gxf6 exf6 Rg8 Rad1 Qxf3 Rxe7+ Nxe7 Qxd7+ Kxd7 Bf5+ Ke8 \
                Bd7+ Kf8 Bxe7#";
    assert_eq!(g.moves.join(" "), want);
    assert_eq!(g.result, "1-0");
    let f = g.findings.iter().find(|f| f.code == "non-algebraic-notation").expect("said");
    assert_eq!((f.ply, f.written.as_deref()), (Some(1), Some("P–K4")));
    assert!(f.message.contains("English descriptive notation (24 moves)"), "{}", f.message);
    // Read move for move: published, with Appendix C's notice for the
    // player (the sheet is no evidence in a dispute).
    assert_eq!(f.weight, scoresheet::finding::Weight::Notice);
    assert_eq!(g.status, Status::Validated);
    // `Q×P+` could take either pawn but for its check mark: no doubt left.
    assert!(g.findings.iter().all(|f| f.code != "ambiguous-repair"), "{:?}", g.findings);
}

#[test]
fn spanish_and_french_descriptive_sheets_in_both_orders() {
    let es = "Idioma: es\n\n1. P4R P4R 2. C3AR C3AD 3. A5C P3TD 4. AxC PDxA 5. O-O A3D 1-0\n";
    let g = read("es.txt", es);
    assert_eq!(g.moves, ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6", "dxc6", "O-O", "Bd6"]);
    assert!(g.findings[0].message.contains("Spanish descriptive"), "{:?}", g.findings);
    let es_compact = "1 PR4 PR4\n2 CAR3 CAD3\n3 AC5 PTD3\n4 AxC PDxA\n";
    assert_eq!(read("es2.txt", es_compact).moves[6..], ["Bxc6", "dxc6"]);
    let fr = "Langue: fr\n\n1. P4R P4R 2. C3FR C3FD 3. F5C P3TD 4. FxC PDxF 5. roque F3D\n";
    let g = read("fr.txt", fr);
    assert_eq!(g.moves, ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6", "dxc6", "O-O", "Bd6"]);
    assert!(g.findings[0].message.contains("French descriptive"), "{:?}", g.findings);
}

#[test]
fn a_capture_the_position_does_not_settle_goes_to_review_with_both_moves() {
    // 4...PxA: the b- or the d-pawn takes on c6, and nothing later tells.
    let g = read("pxa.txt", "Idioma: es\n\n1. P4R P4R 2. C3AR C3AD 3. A5C P3TD 4. AxC PxA 5. O-O A3D\n");
    let doubt = g.findings.iter().find(|f| f.code == "ambiguous-repair").expect("a doubt");
    assert_eq!(doubt.ply, Some(8));
    let mut alts = doubt.alternatives.clone();
    alts.sort();
    assert_eq!(alts, ["bxc6", "dxc6"]);
    assert_eq!(g.status, Status::Review);
}

#[test]
fn iccf_numeric_notation_is_read_and_reported_as_no_evidence() {
    // 5254 is e2-e4; 5171 castles (the king's move); 1716 is a7-a6, not a move number.
    let g = read("iccf.txt", "1. 5254 5755\n2. 7163 2836\n3. 6125 1716\n4. 5171 7866 1-0\n");
    assert_eq!(g.moves, ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "O-O", "Nf6"]);
    let f = g.findings.iter().find(|f| f.code == "non-algebraic-notation").expect("said");
    assert!(f.message.contains("ICCF numeric notation (4 moves)"), "{}", f.message);
    assert_eq!(g.status, Status::Validated, "read: a notice");
    assert!(g.findings.iter().all(|f| f.code != "numbering-error"), "{:?}", g.findings);
}

#[test]
fn moves_printed_with_spaces_as_old_books_set_them() {
    let text = "1. P - K 4  P - K 4  2. Kt - K B 3  Kt - Q B 3  3. B - Kt 5  P - Q R 3\n4. B x Kt ch  Q P x B\n";
    let g = read("spaced.txt", text);
    assert_eq!(g.moves, ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6", "dxc6"]);
    let f = g.findings.iter().find(|f| f.code == "non-algebraic-notation").expect("said");
    // The columns are the page's: `P - K 4` starts at column 4.
    assert_eq!((f.written.as_deref(), f.line, f.col), (Some("P-K4"), Some(1), Some(4)));
    assert!(g.findings.iter().all(|f| f.code != "extra-entry" && f.code != "numbering-error"), "{:?}", g.findings);
    // Moves typed close together, two to a line, are two moves each.
    let g = read("close.txt", "1.N-KB3 P-QB4, 2.P-QB4 N-KB3, 3.N-QB3 N-QB3, 4.P-KN3 P-Q4\n");
    assert_eq!(g.moves, ["Nf3", "c5", "c4", "Nf6", "Nc3", "Nc6", "g3", "d5"]);
}

/// Files of `tests/data/descriptive/` whose printed text is not the game:
/// a misprint or a page that lost its characters (`SOURCES.md` says where).
/// These go to review, never validated; the others read move for move.
const DAMAGED: &[(&str, &str)] = &[
    ("staunton-textbook-giuoco-piano-en", "the book prints 5. P. to Q. R.'s 4th. for P. to Q.'s 4th. (its erratum)"),
    ("capablanca-burn-1911-en", "the web copy lost every ×: `P P` for P×P"),
];

#[test]
fn real_printed_games_read_move_for_move() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/descriptive");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("the folder")
        .filter_map(|e| e.ok()?.file_name().into_string().ok()?.strip_suffix(".txt").map(str::to_string))
        .collect();
    names.sort();
    assert!(names.len() >= 11, "{names:?}");
    let (mut exact, mut total) = (0, 0);
    for name in &names {
        let text = std::fs::read_to_string(dir.join(format!("{name}.txt"))).expect("the game");
        let truth = std::fs::read_to_string(dir.join(format!("{name}.san"))).expect("its moves");
        let mut want: Vec<&str> = truth.split_whitespace().collect();
        let result = want.pop().expect("a result");
        let g = read(name, &text);
        let notation = g.findings.iter().find(|f| f.code == "non-algebraic-notation");
        assert!(notation.is_some(), "{name}: {:?}", g.findings);
        total += 1;
        match DAMAGED.iter().find(|(n, _)| n == name) {
            Some((_, why)) => {
                assert_ne!(g.moves, want, "{name} ({why}) reads exactly: take it off the list");
                assert_eq!(g.status, Status::Review, "{name}");
            }
            None => {
                assert_eq!(g.moves, want, "{name}");
                assert_eq!(g.result, result, "{name}");
                // The notation alone is a notice: a game in review is so
                // for a doubt of its own.
                let doubts = g.findings.iter().any(|f| f.weight == scoresheet::finding::Weight::Doubt);
                assert_eq!(g.status == Status::Review, doubts, "{name}: {:?}", g.findings);
                exact += 1;
            }
        }
    }
    println!("real printed games: {exact} of {total} read move for move, the other {} damaged in print", total - exact);
}
