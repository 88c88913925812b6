//! A whole event through `scoresheet watch` ends as `convert` reads the same
//! files: the same games, each once, with the same moves and status. The
//! event is an open built from committed corpus games
//! (`scoresheet_dev::event`): both copies of each game, a third of them
//! without a round or board line, names written loosely, boards numbered
//! otherwise than the TRF's order, some copies without a result; and, typed
//! as a large open's volunteers type them, names with federation codes,
//! titles and a slip on each copy, copies stopping early, and two games
//! between the same players. Its copies are dropped in a random order in
//! two waves, with a kill -9 and a restart between them: each game ends with
//! the same copies, moves and status as `convert` gives it. The real binary
//! on real folders.

mod daemon_support;
use daemon_support::*;

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use scoresheet::convert::{Input, Options, convert_together};
use scoresheet::emit::report::Status;
use scoresheet::pairing::Tournament;
use scoresheet_dev::corpus::load_range;
use scoresheet_dev::event::{Copy, Spec, event, open_replaying, owner, read_back, score};
use scoresheet_dev::generate::Rng;

const GAMES: usize = 40;

/// What each game ends as: its status, its moves, and whether it was read
/// from both copies.
type Ends = BTreeMap<String, (Status, Vec<String>, bool)>;

/// The event's copies (`both`: each game's two, else its first only) and
/// its TRF; `loose`: typed as [`Spec::loose`] says.
fn the_event(both: bool, loose: bool) -> (Vec<Copy>, Vec<u8>) {
    let corpus: Vec<_> = load_range(1000, 60).into_iter().filter(|g| g.sans.len() >= 10).take(GAMES).collect();
    let (trf, copies) = event("Open", &open_replaying(&corpus, loose), &Spec { loose, ..Spec::default() });
    let copies = copies.into_iter().filter(|c| both || c.file.contains("-a.")).collect();
    (copies, trf.utf8())
}

/// What `convert` makes of the files: for each game (the true game's id),
/// its status and moves.
fn converted(copies: &[Copy], trf: Option<&[u8]>) -> Ends {
    let opts = Options { pairings: trf.map(|t| Arc::new(Tournament::parse(t).unwrap())), ..Options::default() };
    let inputs: Vec<Input> = copies.iter().map(|c| (c.file.clone(), Ok(c.text.clone().into_bytes()))).collect();
    let (reports, _) = convert_together(&inputs, &opts);
    let mut out = BTreeMap::new();
    for (c, r) in copies.iter().zip(&reports) {
        let g = &r.games[0];
        out.entry(c.game.clone()).or_insert((g.status, g.moves.clone(), g.sheets.is_some()));
    }
    out
}

/// What `watch` makes of the files dropped as the module doc says.
fn watched(copies: &[Copy], trf: Option<&[u8]>, root: &Path) -> Ends {
    let inbox = root.join("inbox");
    let mut order: Vec<&Copy> = copies.iter().collect();
    let mut rng = Rng::new(11);
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i + 1));
    }
    let daemon = start(root);
    if let Some(t) = trf {
        drop_file(&inbox, "event.trf", t);
        wait_for("the pairings", || names(&root.join("archive")).len() == 1);
    }
    let half = order.len() / 2;
    for c in &order[..half] {
        drop_file(&inbox, &c.file, c.text.as_bytes());
    }
    std::thread::sleep(std::time::Duration::from_millis(700));
    daemon.kill9();
    let daemon = start(root);
    for c in &order[half..] {
        drop_file(&inbox, &c.file, c.text.as_bytes());
    }
    let dropped = copies.len() + usize::from(trf.is_some());
    wait_for("every file", || names(&root.join("archive")).len() == dropped);
    daemon.stop();
    let truth: BTreeMap<String, Vec<String>> = copies.iter().map(|c| (c.game.clone(), c.sans.clone())).collect();
    let outputs = read_back(root).unwrap();
    let s = score(&truth, &outputs);
    assert_eq!(s.once, GAMES, "every game in one place, once: {s}");
    let mut out = BTreeMap::new();
    for (found, status) in outputs
        .per_game
        .iter()
        .map(|f| (f, Status::Validated))
        .chain(outputs.review.iter().map(|f| (f, Status::Review)))
    {
        if let Some(g) = owner(&truth, &found.sans) {
            out.insert(g.to_string(), (status, found.sans.clone(), found.sheets >= 2));
        }
    }
    out
}

fn same_as_convert(both: bool, with_trf: bool, loose: bool) {
    let (copies, trf) = the_event(both, loose);
    let trf = with_trf.then_some(trf.as_slice());
    let (_t, root) = setup();
    let want = converted(&copies, trf);
    let got = watched(&copies, trf, &root);
    assert_eq!(want.len(), GAMES);
    if both {
        let apart: Vec<&String> = want.iter().filter(|(_, w)| !w.2).map(|(g, _)| g).collect();
        assert!(apart.is_empty(), "games whose two copies convert read apart: {apart:?}");
    }
    let differ: Vec<String> = want
        .iter()
        .filter(|(g, w)| got.get(*g) != Some(w))
        .map(|(g, w)| format!("{g}: convert {:?} {}, watch {:?}", w.0, w.2, got.get(g).map(|x| (x.0, x.2))))
        .collect();
    assert!(differ.is_empty(), "{} of {GAMES} games differ:\n{}", differ.len(), differ.join("\n"));
}

#[test]
fn both_copies_of_an_event_through_watch_end_as_convert_reads_them_with_the_trf() {
    same_as_convert(true, true, false);
}

#[test]
fn both_copies_of_an_event_through_watch_end_as_convert_reads_them_without_a_trf() {
    same_as_convert(true, false, false);
}

#[test]
fn both_copies_with_names_typed_loosely_through_watch_are_paired_as_convert_pairs_them_without_a_trf() {
    same_as_convert(true, false, true);
}

#[test]
fn one_copy_per_game_through_watch_ends_as_convert_reads_it() {
    same_as_convert(false, true, false);
}

#[test]
fn rounds_written_3_1_and_3_2_are_boards_of_round_3s_file() {
    let (_t, root) = setup();
    let daemon = start(&root);
    let inbox = root.join("inbox");
    let sheet = |board: u32, white: &str| {
        format!("Event: Club\nRound: 3.{board}\nWhite: {white}\nBlack: Ruiz, B\n\n1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 1-0\n")
    };
    drop_file(&inbox, "board2.txt", sheet(2, "Pérez, Ana").as_bytes());
    drop_file(&inbox, "board1.txt", sheet(1, "Gómez, Eva").as_bytes());
    wait_for("both sheets", || names(&root.join("archive")).len() == 2);
    daemon.stop();
    let events: Vec<_> = std::fs::read_dir(root.join("pgn")).unwrap().flatten().filter(|e| e.path().is_dir()).collect();
    assert_eq!(events.len(), 1);
    let files: Vec<String> = names(&events[0].path()).into_iter().filter(|n| n.ends_with(".pgn")).collect();
    assert_eq!(files, ["round-3.pgn"], "one file for the round, not one per board");
    let games = round_file_games(&root.join("pgn"));
    assert_eq!(games.len(), 2);
    assert!(games[0].contains("Gómez") && games[1].contains("Pérez"), "in board order: {games:?}");
}
