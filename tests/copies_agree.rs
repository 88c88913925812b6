//! Two copies consistent with one reading settle what one copy alone leaves
//! in doubt; copies that name different moves, or that both lack a move,
//! do not. Each case is what a player typed on one copy, the other copy
//! being the game as played.

use scoresheet::convert::{Input, Options, convert_together};
use scoresheet::emit::report::{GameReport, Status};
use scoresheet::finding::Weight;

/// A game of 50 moves from the committed corpus games.
fn game() -> Vec<String> {
    let games = scoresheet_dev::corpus::load_range(0, 400);
    let g = games.iter().find(|g| g.sans.len() >= 100).expect("a game of 50 moves");
    g.sans[..100].to_vec()
}

fn record(sans: &[Option<&str>]) -> String {
    let mut out = String::from("Event: Open\nRound: 2\nBoard: 3\nWhite: Navara, David\nBlack: Carlsen, Magnus\n\n");
    for (i, san) in sans.iter().enumerate() {
        if i % 2 == 0 {
            out.push_str(&format!("{}. ", i / 2 + 1));
        }
        if let Some(s) = san {
            out.push_str(s);
        }
        out.push(if i % 2 == 1 { '\n' } else { ' ' });
    }
    out.push_str("1-0\n");
    out
}

/// The game read from copy a (written as `a`) and copy b (as `b`).
fn read(a: &[Option<&str>], b: &[Option<&str>]) -> GameReport {
    let (a, b) = (record(a), record(b));
    let inputs: [Input; 2] = [("a.txt".into(), Ok(a.into_bytes())), ("b.txt".into(), Ok(b.into_bytes()))];
    let (mut reports, _) = convert_together(&inputs, &Options::default());
    let g = reports[0].games.remove(0);
    assert_eq!(g.sheets.as_ref().map(|s| s.len()), Some(2), "read as one game of two copies");
    g
}

fn doubts(g: &GameReport) -> Vec<&str> {
    g.findings.iter().filter(|f| f.weight == Weight::Doubt).map(|f| f.code).collect()
}

/// The ply of a quiet piece move from move 11 on.
fn quiet_piece_move(sans: &[String]) -> usize {
    (20..sans.len())
        .find(|&k| {
            sans[k].starts_with(['N', 'B', 'R', 'Q']) && !sans[k].contains(['x', '+', '#']) && sans[k].len() == 3
        })
        .expect("a quiet piece move")
}

#[test]
fn an_illegible_box_on_one_copy_is_the_move_the_other_copy_names() {
    let sans = game();
    let as_played: Vec<Option<&str>> = sans.iter().map(|s| Some(s.as_str())).collect();
    for k in [quiet_piece_move(&sans), 41, 60] {
        let mut a = as_played.clone();
        a[k] = Some("??");
        let g = read(&a, &as_played);
        assert_eq!(g.moves, sans, "box {k} illegible");
        assert_eq!(g.status, Status::Validated, "box {k} illegible: {:?}", doubts(&g));
    }
}

#[test]
fn a_box_left_empty_on_one_copy_is_the_move_the_other_copy_names() {
    let sans = game();
    let as_played: Vec<Option<&str>> = sans.iter().map(|s| Some(s.as_str())).collect();
    let k = quiet_piece_move(&sans);
    let mut b = as_played.clone();
    b[k] = None;
    let g = read(&as_played, &b);
    assert_eq!(g.moves, sans);
    assert_eq!(g.status, Status::Validated, "{:?}", doubts(&g));
}

#[test]
fn a_move_both_copies_leave_illegible_stays_in_doubt_where_several_fit() {
    let sans = game();
    let as_played: Vec<Option<&str>> = sans.iter().map(|s| Some(s.as_str())).collect();
    let k = quiet_piece_move(&sans);
    let mut a = as_played.clone();
    a[k] = Some("??");
    let mut b = as_played.clone();
    b[k] = Some("X");
    let g = read(&a, &b);
    // Neither copy says which move was played there: an arbiter decides,
    // unless the rest of the game allows one move only.
    if g.status == Status::Validated {
        assert_eq!(g.moves, sans, "validated, so the only move the rest of the game allows");
    } else {
        assert!(!doubts(&g).is_empty(), "a game in review names its doubt");
    }
}

#[test]
fn two_copies_naming_two_different_legal_moves_go_to_review() {
    let sans = game();
    let as_played: Vec<Option<&str>> = sans.iter().map(|s| Some(s.as_str())).collect();
    // The last move, a legal other move written on one copy: nothing after
    // it tells which was played.
    let last = sans.len() - 1;
    let mut pos = shakmaty::Chess::default();
    use shakmaty::Position;
    for s in &sans[..last] {
        let m = s.parse::<shakmaty::san::SanPlus>().unwrap().san.to_move(&pos).unwrap();
        pos.play_unchecked(m);
    }
    let other = pos
        .legal_moves()
        .into_iter()
        .map(|m| shakmaty::san::San::from_move(&pos, m).to_string())
        .find(|s| s.trim_end_matches(['+', '#']) != sans[last].trim_end_matches(['+', '#']))
        .expect("another legal move");
    let mut b = as_played.clone();
    b[last] = Some(&other);
    let g = read(&as_played, &b);
    assert_eq!(g.status, Status::Review, "{} or {other}", sans[last]);
    // The doubt names both moves, whichever finding says it.
    let said: String = g.findings.iter().filter(|f| f.weight == Weight::Doubt).map(|f| f.message.as_str()).collect();
    let bare = |s: &str| s.trim_end_matches(['+', '#']).to_string();
    assert!(said.contains(&bare(&sans[last])) && said.contains(&bare(&other)), "{said}");
}
