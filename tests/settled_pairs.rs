//! Both players' copies of a game that an arbiter settles at a glance: one
//! copy's fault is answered by the other copy, by legality or by a later
//! move. Each test is one thing a player typed, in a game from the corpus
//! games committed with the repository, and checks what the arbiter checks:
//! the game read from the two copies is the game as played, and it is
//! published (validated). Where the two copies cannot tell the game (one
//! copied from the other, faults and all), it is never validated wrong.

use scoresheet::convert::{Input, Options, convert_together};
use scoresheet::emit::report::{GameReport, Status};
use scoresheet::finding::Weight;

/// The moves of corpus game `index` (English SAN), from the committed games.
fn corpus_game(index: usize) -> Vec<String> {
    let games = scoresheet_dev::corpus::load_range(index, 1);
    assert_eq!(games.len(), 1, "corpus game {index}");
    games.into_iter().next().unwrap().sans
}

/// A copy's boxes, each as the game's move written exactly.
fn exact(sans: &[String]) -> Vec<Option<String>> {
    sans.iter().cloned().map(Some).collect()
}

/// The boxes of a copy that writes every move exactly but ply `k`'s, where
/// it writes `written`.
fn but(sans: &[String], k: usize, written: &str) -> Vec<Option<String>> {
    let mut boxes = exact(sans);
    boxes[k] = Some(written.into());
    boxes
}

/// A copy as typed: its headers, then its boxes in numbered pairs from
/// move `first` (a blank box for `None`), then the result.
fn typed(first: usize, boxes: &[Option<String>], result: &str) -> String {
    let mut out = String::from("Event: Open\nRound: 2\nBoard: 3\nWhite: Navara, David\nBlack: Carlsen, Magnus\n\n");
    for (i, pair) in boxes.chunks(2).enumerate() {
        let written: Vec<&str> = pair.iter().map(|b| b.as_deref().unwrap_or("")).collect();
        out.push_str(&format!("{}. {}\n", first + i, written.join(" ")));
    }
    out.push_str(result);
    out.push('\n');
    out
}

/// The game read from the two copies' texts, given in this order.
fn read(a: &str, b: &str) -> GameReport {
    let inputs: [Input; 2] = [("a.txt".into(), Ok(a.as_bytes().to_vec())), ("b.txt".into(), Ok(b.as_bytes().to_vec()))];
    let (mut reports, _) = convert_together(&inputs, &Options::default());
    let g = reports[0].games.remove(0);
    assert_eq!(g.sheets.as_ref().map(|s| s.len()), Some(2), "read as one game of two copies");
    g
}

/// What the arbiter is shown: the status, the first move read other than
/// played, and each finding (code, weight, move, message).
fn shown(g: &GameReport, played: &[String]) -> String {
    let k = g.moves.iter().zip(played).position(|(r, p)| r != p).unwrap_or(g.moves.len().min(played.len()));
    let at = |v: &[String]| v.get(k).cloned().unwrap_or_else(|| "-".into());
    let mut out = format!("{:?}; ", g.status);
    if g.moves == played {
        out.push_str("the moves as played");
    } else {
        out.push_str(&format!("ply {}: read {}, played {}", k + 1, at(&g.moves), at(played)));
    }
    for f in &g.findings {
        let at = f.move_label.as_deref().unwrap_or("-");
        out.push_str(&format!("\n  {} ({:?}, {at}): {}", f.code, f.weight, f.message));
    }
    out
}

/// The arbiter's check: the game as played, published; what is wrong if not.
fn not_published_as_played(g: &GameReport, played: &[String]) -> Option<String> {
    (g.moves != played || g.status != Status::Validated).then(|| shown(g, played))
}

/// Fails with what the arbiter is shown unless the game is the one played,
/// published.
fn assert_published_as_played(g: &GameReport, played: &[String]) {
    if let Some(wrong) = not_published_as_played(g, played) {
        panic!("{wrong}");
    }
}

/// The arbiter's check where the copies may not tell the game: never
/// published with other moves; in review with its doubt named.
fn validated_wrong(g: &GameReport, played: &[String]) -> Option<String> {
    match g.status {
        Status::Validated => (g.moves != played).then(|| format!("validated wrong: {}", shown(g, played))),
        _ => (!g.findings.iter().any(|f| f.weight == Weight::Doubt))
            .then(|| format!("no doubt named: {}", shown(g, played))),
    }
}

/// Fails naming each case (what was written) whose check failed.
fn assert_none(failed: Vec<String>) {
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

#[test]
fn a_slip_naming_no_legal_move_is_the_move_the_other_copy_writes() {
    // Adams–Vaganian, Manila 1990: 28. Rd1, White's one rook from e1. One
    // copy writes `28. Rd8`, which no rook plays and no other legal move is
    // one letter from; the other writes `28. Rd1`.
    let sans = corpus_game(68);
    assert_eq!(sans[54], "Rd1");
    let b = but(&sans, 54, "Rd8");
    let g = read(&typed(1, &exact(&sans), "1-0"), &typed(1, &b, "1-0"));
    assert_published_as_played(&g, &sans);
    assert!(g.findings.iter().all(|f| f.code != "copies-disagree"), "{}", shown(&g, &sans));
}

#[test]
fn an_impossible_check_beside_a_legal_one_is_the_check_the_other_copy_writes() {
    // 44. Qe5+; one copy writes `Qc5+` (or `Qh5+`, `Qb5+`), which no queen
    // plays, though the checks Qd5+ and Qf5+ are one letter from it, and
    // Qf5+ leaves every later move legal: that copy alone cannot tell. The
    // other copy writes `Qe5+`, as near the slip as any legal check.
    let sans = corpus_game(407);
    assert_eq!(sans[86], "Qe5+");
    let mut failed = Vec::new();
    for slip in ["Qc5+", "Qh5+", "Qb5+"] {
        let b = but(&sans, 86, slip);
        let g = read(&typed(1, &exact(&sans), "1-0"), &typed(1, &b, "1-0"));
        failed.extend(not_published_as_played(&g, &sans).map(|w| format!("{slip}: {w}")));
    }
    assert_none(failed);
}

#[test]
fn an_impossible_check_nearer_another_legal_check_is_never_published_as_either() {
    // `Qg5+` is one file from Qf5+, a legal check, and two from the other
    // copy's `Qe5+`: the slip says Qf5+ as much as the other copy says
    // Qe5+ (either copy may hold the slip). The game may go to review, but
    // is never published with a move that was not played.
    let sans = corpus_game(407);
    let b = but(&sans, 86, "Qg5+");
    let g = read(&typed(1, &exact(&sans), "1-0"), &typed(1, &b, "1-0"));
    assert_none(validated_wrong(&g, &sans).into_iter().collect());
}

#[test]
fn a_bishop_move_both_copies_write_without_its_file_is_the_one_a_later_capture_allows() {
    // Adams–Nisipeanu: 14. Bg5, written `B5` on both copies. Bb5 and Bf5
    // fit it as well, but only the bishop on g5 plays 17. Bxe7, which both
    // copies write; no other move to the fifth rank leaves the game legal.
    let sans = corpus_game(221);
    assert_eq!((sans[26].as_str(), sans[32].as_str()), ("Bg5", "Bxe7"));
    let both = but(&sans, 26, "B5");
    let g = read(&typed(1, &both, "1/2-1/2"), &typed(1, &both, "1/2-1/2"));
    assert_published_as_played(&g, &sans);
}

#[test]
fn moves_written_twice_so_that_one_copy_numbers_run_two_ahead() {
    // One copy writes 15. Qxd3 Qd7 16. Be3 Rad8 again as moves 17 and 18,
    // then the game on from 19 (move 17 as played).
    let sans = corpus_game(68);
    let mut b = exact(&sans);
    let again: Vec<Option<String>> = b[28..32].to_vec();
    b.splice(32..32, again);
    let g = read(&typed(1, &exact(&sans), "1-0"), &typed(1, &b, "1-0"));
    assert_published_as_played(&g, &sans);
}

#[test]
fn a_copy_whose_first_line_is_move_three() {
    // Adams–Vaganian again: one copy leaves out 1. e4 e6 2. d4 d5 and
    // starts `3. Nd2 c5`, numbered as played.
    let sans = corpus_game(68);
    let late = exact(&sans[4..]);
    let g = read(&typed(1, &exact(&sans), "1-0"), &typed(3, &late, "1-0"));
    assert_published_as_played(&g, &sans);
}

#[test]
fn two_white_moves_written_in_each_others_place_on_one_copy() {
    // Written `20. Rde1 Na5 21. Re2` for 20. Re2 Na5 21. Rde1 (the rook on
    // e1 is still there at move 20), and `24. Qd3 Nd6 25. Qc2` for 24. Qc2
    // Nd6 25. Qd3 (each legal where it is written, but no queen on c2
    // reaches b5 at move 26).
    let sans = corpus_game(68);
    assert_eq!((sans[38].as_str(), sans[40].as_str()), ("Re2", "Rde1"));
    assert_eq!((sans[46].as_str(), sans[48].as_str()), ("Qc2", "Qd3"));
    let mut failed = Vec::new();
    for ply in [38, 46] {
        let mut b = exact(&sans);
        b.swap(ply, ply + 2);
        let g = read(&typed(1, &b, "1-0"), &typed(1, &exact(&sans), "1-0"));
        failed.extend(not_published_as_played(&g, &sans).map(|w| format!("{}. swapped: {w}", ply / 2 + 1)));
    }
    assert_none(failed);
}

#[test]
fn a_mate_in_descriptive_notation_on_the_only_copy_that_writes_it() {
    // Alekhine–Bogoljubow: 52. Rh1#, written `RKR1#` or `R-KR1#` (the rook
    // also reaches QR1, but mates only on KR1); the other copy stops a
    // move short.
    let sans = corpus_game(349);
    let last = sans.len() - 1;
    assert_eq!(sans[last], "Rh1#");
    let mut failed = Vec::new();
    for written in ["RKR1#", "R-KR1#"] {
        let a = but(&sans, last, written);
        let g = read(&typed(1, &a, "1-0"), &typed(1, &exact(&sans[..last]), "1-0"));
        failed.extend(not_published_as_played(&g, &sans).map(|w| format!("{written}: {w}")));
    }
    assert_none(failed);
}

#[test]
fn a_mate_written_with_a_colon_or_in_long_form_on_the_only_copy_that_writes_it() {
    // Anand–Leenhouts: 37. Qxh5#, the queen from h1; the other copy stops
    // a move short.
    let sans = corpus_game(850);
    let last = sans.len() - 1;
    assert_eq!(sans[last], "Qxh5#");
    let mut failed = Vec::new();
    for written in ["Q:h5#", "Qh1xh5#", "Qh1:h5#"] {
        let a = but(&sans, last, written);
        let g = read(&typed(1, &exact(&sans[..last]), "1-0"), &typed(1, &a, "1-0"));
        failed.extend(not_published_as_played(&g, &sans).map(|w| format!("{written}: {w}")));
    }
    assert_none(failed);
}

#[test]
fn a_last_move_only_one_copy_writes_where_the_other_left_a_box_blank() {
    // One copy leaves 16... Rad8 blank and stops before White's last move,
    // 58. Be3; the other writes every move exactly. The record is
    // incomplete (a notice for the player), the game is not in doubt.
    let sans = corpus_game(68);
    let last = sans.len() - 1;
    assert_eq!((sans[31].as_str(), sans[last].as_str()), ("Rad8", "Be3"));
    let mut b = exact(&sans[..last]);
    b[31] = None;
    let g = read(&typed(1, &exact(&sans), "1-0"), &typed(1, &b, "1-0"));
    assert_published_as_played(&g, &sans);
    let incomplete = g.findings.iter().find(|f| f.code == "incomplete-record");
    assert!(incomplete.is_some_and(|f| f.weight == Weight::Notice), "a notice: {}", shown(&g, &sans));
}

#[test]
fn the_same_impossible_check_on_a_copy_copied_from_the_other() {
    // 44. Qe5+ written `Qc5+` (or `Qg5+`, `Qh5+`, `Qb5+`) on both copies:
    // Qd5+, Qe5+ and Qf5+ are each one letter from it, and Qf5+ leaves
    // every later move legal.
    let sans = corpus_game(407);
    let mut failed = Vec::new();
    for slip in ["Qc5+", "Qg5+", "Qh5+", "Qb5+"] {
        let both = but(&sans, 86, slip);
        let g = read(&typed(1, &both, "1-0"), &typed(1, &both, "1-0"));
        failed.extend(validated_wrong(&g, &sans).map(|w| format!("{slip}: {w}")));
    }
    assert_none(failed);
}

#[test]
fn the_same_slip_on_a_copy_copied_from_the_other_where_one_move_fits() {
    // 28. Rd1 written `Rd8` on both copies: no other legal move is one
    // letter from it, and the game goes on from Rd1.
    let sans = corpus_game(68);
    let both = but(&sans, 54, "Rd8");
    let g = read(&typed(1, &both, "1-0"), &typed(1, &both, "1-0"));
    assert_none(validated_wrong(&g, &sans).into_iter().collect());
}

#[test]
fn slips_and_illegible_boxes_on_both_copies_each_answered_by_the_other() {
    // Copy a: 28. Rd8 for Rd1 and 40... `??` for f5; copy b: 19. Nbc4 for
    // Nbd4 and 48... h5 left blank. Each at a move the other writes exactly.
    let sans = corpus_game(68);
    let (mut a, mut b) = (exact(&sans), exact(&sans));
    a[54] = Some("Rd8".into());
    a[79] = Some("??".into());
    b[36] = Some("Nbc4".into());
    b[95] = None;
    let g = read(&typed(1, &a, "1-0"), &typed(1, &b, "1-0"));
    assert_published_as_played(&g, &sans);
}

#[test]
fn the_same_rook_move_with_a_file_both_rooks_need_on_a_copy_copied_from_the_other() {
    // 32... Rff6 written `Rff8` on both copies, and 27. Ree2 written
    // `Ree8`: no rook goes to the square written, and the one rook that
    // can reach the file's look-alike square (Rf3 for a 3 read as an 8)
    // needs no file. The file written says both rooks could go to the
    // square meant: the look-alike alone does not settle it.
    let mut failed = Vec::new();
    for (game, k, slip) in [(111, 63, "Rff8"), (87, 52, "Ree8")] {
        let sans = corpus_game(game);
        let both = but(&sans, k, slip);
        let g = read(&typed(1, &both, "1-0"), &typed(1, &both, "1-0"));
        failed.extend(validated_wrong(&g, &sans).map(|w| format!("game {game}, {slip}: {w}")));
    }
    assert_none(failed);
}

#[test]
fn a_copy_starting_at_move_four_settles_the_box_the_other_left_illegible() {
    // One copy starts `4. ...`, numbered as played, and writes every move
    // after; the other writes every move but one, left `X`, where a piece
    // went on from the square it had just reached (`19. Qxb7 ... 20. Qd5+`):
    // alone, the box reads as another move, the piece going straight to its
    // second square.
    let mut failed = Vec::new();
    for (game, k) in [(24, 49), (40, 36), (48, 64), (52, 51), (71, 70), (86, 39)] {
        let sans = corpus_game(game);
        let late = exact(&sans[6..]);
        let g = read(&typed(4, &late, "1-0"), &typed(1, &but(&sans, k, "X"), "1-0"));
        failed.extend(not_published_as_played(&g, &sans).map(|w| format!("game {game}, ply {}: {w}", k + 1)));
    }
    assert_none(failed);
}

#[test]
fn a_box_one_copy_left_illegible_stays_settled_by_the_other_while_another_move_is_in_doubt() {
    // Both copies leave one box `X` that several moves fill (36... Qxa3
    // among them); the first copy also leaves an earlier or later box `X`,
    // which the second writes, and which alone several moves would fill.
    // The arbiter is asked about the box both left, not the one the second
    // copy answers.
    let sans = corpus_game(407);
    let mut failed = Vec::new();
    for (both, one) in [(71, 29), (71, 44), (80, 47), (83, 65)] {
        let (mut a, mut b) = (exact(&sans), exact(&sans));
        for boxes in [&mut a, &mut b] {
            boxes[both] = Some("X".into());
        }
        a[one] = Some("X".into());
        let g = read(&typed(1, &a, "1-0"), &typed(1, &b, "1-0"));
        let number = |ply: usize| format!("{}.", ply / 2 + 1);
        let asked = |f: &&scoresheet::emit::report::FindingReport| f.weight == Weight::Doubt;
        let at_one = g
            .findings
            .iter()
            .filter(asked)
            .any(|f| f.move_label.as_deref().is_some_and(|l| l.starts_with(&number(one))));
        if g.status != Status::Review || at_one {
            failed.push(format!("X at ply {} on both, {} on one: {}", both + 1, one + 1, shown(&g, &sans)));
        }
    }
    assert_none(failed);
}
