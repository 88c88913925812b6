//! `scoresheet watch` with the tournament's pairings: a TRF dropped into the
//! inbox or named in the config, a broken one refused, one that comes after
//! the sheets matching them again, and the boards of a round still without a
//! scoresheet. The real binary on real folders, as in `tests/daemon.rs`.

mod daemon_support;
use daemon_support::*;

use std::fs;
use std::path::Path;

use scoresheet_dev::corpus::{CorpusGame, load_range};
use scoresheet_dev::trf::{BuiltTrf, TrfGame, largest_event, loosely};

/// The games of the event with the most games among the test corpus's
/// first 2000, and the TRF built from them.
fn event() -> (Vec<CorpusGame>, BuiltTrf) {
    largest_event(load_range(0, 2000))
}

/// A text sheet of game `x` as a player writes it: the round only (no
/// board) and the names loosely.
fn written(games: &[CorpusGame], trf: &BuiltTrf, x: &TrfGame, k: usize) -> String {
    let mut s = format!(
        "Round: {}\nWhite: {}\nBlack: {}\n\n",
        x.round,
        loosely(&trf.player(x.white).name, k),
        loosely(&trf.player(x.black).name, k + 1)
    );
    for (i, san) in games[x.game].sans.iter().enumerate() {
        if i % 2 == 0 {
            s.push_str(&format!("{}. ", i / 2 + 1));
        }
        s.push_str(san);
        s.push(' ');
    }
    s.push_str(&games[x.game].result);
    s.push('\n');
    s
}

/// The first `n` games, by board, of the round with the most games.
fn round_one(trf: &BuiltTrf, n: usize) -> Vec<TrfGame> {
    let count = |r: u32| trf.games.iter().filter(|g| g.round == r).count();
    let busiest = trf.games.iter().map(|g| g.round).max_by_key(|&r| (count(r), std::cmp::Reverse(r))).unwrap();
    let mut r: Vec<TrfGame> = trf.games.iter().filter(|g| g.round == busiest).cloned().collect();
    r.sort_by_key(|g| g.board);
    r.truncate(n);
    r
}

/// The per-game PGNs in pgn/ and review/.
fn published(root: &std::path::Path) -> Vec<(String, String)> {
    let mut all = games_in(&root.join("pgn"));
    all.extend(games_in(&root.join("review")));
    all
}

#[test]
fn a_trf_dropped_first_gives_the_sheets_its_names_ratings_and_boards_and_a_broken_one_is_refused() {
    let (games, trf) = event();
    let round = round_one(&trf, 3);
    let n = round[0].round;
    let boards = trf.games.iter().filter(|g| g.round == n).count();
    assert!(boards >= 3, "round {n} has {boards} games");
    let (_t, root) = setup();
    let daemon = start(&root);
    let inbox = root.join("inbox");
    // A rating that is not a number: refused with its line and field.
    let mut broken = trf.text();
    let line = broken.lines().nth(1).unwrap().to_string();
    let mut bad: Vec<char> = line.chars().collect();
    bad[48..52].copy_from_slice(&['2', 'x', '0', '0']);
    broken = broken.replacen(&line, &bad.into_iter().collect::<String>(), 1);
    drop_file(&inbox, "broken.trf", broken.as_bytes());
    wait_for("the broken TRF", || names(&root.join("archive")).len() == 1);
    let why = fs::read_to_string(root.join("rejected/broken.trf.error.txt")).unwrap();
    assert!(why.contains("line 2") && why.contains("read without it"), "{why}");
    assert_eq!(fs::read(root.join("rejected/broken.trf")).unwrap(), broken.as_bytes());
    drop_file(&inbox, "event.trf", &trf.latin1());
    wait_for("the TRF", || names(&root.join("archive")).len() == 2);
    // Board 1 with both copies, board 2 with one, board 3 none.
    drop_file(&inbox, "b1-w.txt", written(&games, &trf, &round[0], 0).as_bytes());
    drop_file(&inbox, "b1-b.txt", written(&games, &trf, &round[0], 3).as_bytes());
    drop_file(&inbox, "b2-w.txt", written(&games, &trf, &round[1], 1).as_bytes());
    wait_for("the sheets", || names(&root.join("archive")).len() == 5);
    let log = daemon.stop();
    let all = published(&root);
    assert_eq!(all.len(), 2, "{:?}", all.iter().map(|g| &g.0).collect::<Vec<_>>());
    for x in &round[..2] {
        let (w, b) = (trf.player(x.white), trf.player(x.black));
        let (_, g) = all.iter().find(|(_, g)| tag(g, "Board") == Some(x.board.to_string())).expect("the board's game");
        assert_eq!(tag(g, "White").as_deref(), Some(w.name.as_str()), "{g}");
        assert_eq!(tag(g, "Black").as_deref(), Some(b.name.as_str()));
        assert_eq!(tag(g, "WhiteFideId"), Some(w.fide_id.to_string()));
        if b.rating > 0 {
            assert_eq!(tag(g, "BlackElo"), Some(b.rating.to_string()));
        }
    }
    let missing = fs::read_to_string(root.join(format!("review/round-{n}.missing.txt"))).unwrap();
    let mut without: Vec<u32> =
        trf.games.iter().filter(|g| g.round == n && g.board > round[1].board).map(|g| g.board).collect();
    without.sort_unstable();
    let without: Vec<String> = without.iter().map(u32::to_string).collect();
    assert!(missing.contains(&format!("boards without a scoresheet: {}\n", without.join(", "))), "{missing}");
    assert!(missing.contains(&format!("boards with one copy only: {}\n", round[1].board)), "{missing}");
    assert!(log.contains("pairings loaded") && log.contains("boards still without a scoresheet"), "{log}");
}

#[test]
fn a_trf_arriving_after_the_sheets_matches_their_games_again() {
    let (games, trf) = event();
    let round = round_one(&trf, 2);
    let (_t, root) = setup();
    let daemon = start(&root);
    let inbox = root.join("inbox");
    for (k, x) in round.iter().enumerate() {
        drop_file(&inbox, &format!("s{k}.txt"), written(&games, &trf, x, k).as_bytes());
    }
    wait_for("the sheets", || names(&root.join("archive")).len() == 2);
    assert!(published(&root).iter().all(|(_, g)| tag(g, "WhiteFideId").is_none()));
    drop_file(&inbox, "event.trf", &trf.utf8());
    wait_for("the TRF", || names(&root.join("archive")).len() == 3);
    let log = daemon.stop();
    let all = published(&root);
    assert_eq!(all.len(), 2, "{:?}", all.iter().map(|g| &g.0).collect::<Vec<_>>());
    for x in &round {
        let w = trf.player(x.white);
        let found = all.iter().any(|(_, g)| {
            tag(g, "White").as_deref() == Some(w.name.as_str()) && tag(g, "WhiteFideId") == Some(w.fide_id.to_string())
        });
        assert!(found, "{all:?}");
    }
    assert!(log.contains("read again"), "{log}");
    // A restart keeps the pairings: a sheet dropped then is matched too.
    let daemon = start(&root);
    let x = &round_one(&trf, 3)[2];
    drop_file(&inbox, "s2.txt", written(&games, &trf, x, 2).as_bytes());
    wait_for("the sheet after the restart", || names(&root.join("archive")).len() == 4);
    daemon.stop();
    let w = trf.player(x.white);
    assert!(published(&root).iter().any(|(_, g)| tag(g, "WhiteFideId") == Some(w.fide_id.to_string())));
}

#[test]
fn the_pairings_named_in_the_config_are_loaded_at_start() {
    let (games, trf) = event();
    let x = &round_one(&trf, 1)[0];
    let (t, root) = setup();
    fs::write(root.join("event.trf"), trf.utf8()).unwrap();
    let config = t.path().join("config.yaml");
    fs::write(&config, "watch:\n  pairings: event.trf\n").unwrap();
    let daemon = start_with(&root, &["--config", config.to_str().unwrap()]);
    drop_file(&root.join("inbox"), "s.txt", written(&games, &trf, x, 0).as_bytes());
    wait_for("the sheet", || names(&root.join("archive")).len() == 1);
    let log = daemon.stop();
    assert!(log.contains("pairings loaded from the config"), "{log}");
    let w = trf.player(x.white);
    assert!(published(&root).iter().any(|(_, g)| tag(g, "WhiteFideId") == Some(w.fide_id.to_string())));
}

#[test]
fn a_newer_trf_replaces_the_old_one_and_the_games_it_changes_are_read_again() {
    let (games, trf) = event();
    let x = round_one(&trf, 1)[0].clone();
    let mut older = trf.clone();
    let i = older.players.iter().position(|p| p.start == x.white).unwrap();
    older.players[i].rating = 1234;
    let (_t, root) = setup();
    let daemon = start(&root);
    let inbox = root.join("inbox");
    drop_file(&inbox, "v1.trf", &older.utf8());
    wait_for("the first TRF", || names(&root.join("archive")).len() == 1);
    drop_file(&inbox, "s.txt", written(&games, &trf, &x, 0).as_bytes());
    wait_for("the sheet", || names(&root.join("archive")).len() == 2);
    assert_eq!(tag(&published(&root)[0].1, "WhiteElo").as_deref(), Some("1234"));
    // The ratings corrected: the game of that round takes them.
    drop_file(&inbox, "v2.trf", &trf.utf8());
    wait_for("the second TRF", || names(&root.join("archive")).len() == 3);
    daemon.stop();
    let all = published(&root);
    assert_eq!(all.len(), 1, "{all:?}");
    let rating = trf.player(x.white).rating;
    assert_eq!(tag(&all[0].1, "WhiteElo"), (rating > 0).then(|| rating.to_string()), "{}", all[0].1);
    let round = round_file_games(&root.join("pgn"));
    assert!(round.len() <= 1 && round.iter().all(|g| !g.contains("1234")), "{round:?}");
}

/// A daemon on `root` that has read the TRF, then the sheets of `round`'s
/// first two boards, one copy each.
fn two_boards_read(root: &Path, games: &[CorpusGame], trf: &BuiltTrf, round: &[TrfGame]) -> Daemon {
    let daemon = start(root);
    let inbox = root.join("inbox");
    drop_file(&inbox, "event.trf", &trf.latin1());
    wait_for("the TRF", || names(&root.join("archive")).len() == 1);
    drop_file(&inbox, "b1.txt", written(games, trf, &round[0], 0).as_bytes());
    drop_file(&inbox, "b2.txt", written(games, trf, &round[1], 1).as_bytes());
    wait_for("the sheets", || names(&root.join("archive")).len() == 3);
    daemon
}

#[test]
fn an_event_that_collects_one_copy_per_game_lists_no_board_as_waiting_for_a_copy() {
    let (games, trf) = event();
    let round = round_one(&trf, 2);
    let n = round[0].round;
    let (_t, root) = setup();
    let daemon = two_boards_read(&root, &games, &trf, &round);
    let log = daemon.stop();
    let missing = fs::read_to_string(root.join(format!("review/round-{n}.missing.txt"))).unwrap();
    assert!(!missing.contains(&format!("boards with one copy only: {}", round[0].board)), "{missing}");
    assert!(missing.contains("boards with one copy only: not counted (one copy per game"), "{missing}");
    assert!(!log.contains("one_copy=1"), "{log}");
}

#[test]
fn two_copies_only_the_trf_tells_apart_are_read_together_when_it_comes_after_them() {
    let (games, trf) = event();
    let x = round_one(&trf, 1).remove(0);
    let (_t, root) = setup();
    let daemon = start(&root);
    let inbox = root.join("inbox");
    // White's copy names the players and no board; Black's gives the round
    // and board and no names, and stops after 15 moves, too few to tell
    // the copies by their moves: nothing on the two says they are one game.
    drop_file(&inbox, "w.txt", written(&games, &trf, &x, 0).as_bytes());
    let moves = written(&games, &trf, &x, 0);
    let moves: Vec<&str> = moves.split_once("\n\n").unwrap().1.split_whitespace().take(45).collect();
    let moves = moves.join(" ");
    drop_file(&inbox, "b.txt", format!("Round: {}\nBoard: {}\n\n{moves}", x.round, x.board).as_bytes());
    wait_for("both copies", || names(&root.join("archive")).len() == 2);
    assert_eq!(published(&root).len(), 2, "read apart before the pairings");
    drop_file(&inbox, "event.trf", &trf.latin1());
    wait_for("the TRF", || names(&root.join("archive")).len() == 3);
    let log = daemon.stop();
    let all = published(&root);
    assert_eq!(all.len(), 1, "one game: {:?}", all.iter().map(|g| &g.0).collect::<Vec<_>>());
    // Both copies, in file-name order as the daemon reads copies.
    assert_eq!(tag(&all[0].1, "Sheets").as_deref(), Some("b.txt w.txt"), "{}", all[0].1);
    assert_eq!(tag(&all[0].1, "Board"), Some(x.board.to_string()));
    assert!(log.contains("the new pairings tell the two copies of one game"), "{log}");
}

/// The Done-when of a TRF's re-read after a crash: a daemon killed with
/// SIGKILL as it begins to read the event's games again with a new TRF,
/// then again a quarter and half way through the re-read a restart
/// finishes, ends with every game once, read with the pairings.
#[test]
fn killed_at_several_points_of_the_re_read_a_trf_brings_every_game_ends_read_with_its_pairings() {
    let (games, trf) = event();
    let n = trf.games.len();
    let (_t, root) = setup();
    let inbox = root.join("inbox");
    let daemon = start(&root);
    for (k, x) in trf.games.iter().enumerate() {
        drop_file(&inbox, &format!("g{k:03}.txt"), written(&games, &trf, x, k).as_bytes());
    }
    wait_for("the sheets", || names(&root.join("archive")).len() == n);
    daemon.stop();
    assert!(published(&root).iter().all(|(_, g)| tag(g, "WhiteFideId").is_none()));
    let owed = root.join(".state/pairings.reread");
    let changes = || record_changes(&root);
    // Killed as soon as the re-read is owed, then a quarter and half way
    // through the re-read each restart finishes.
    let daemon = start(&root);
    drop_file(&inbox, "event.trf", &trf.utf8());
    wait_for("the re-read to be owed", || owed.exists() || names(&root.join("archive")).len() > n);
    daemon.kill9();
    let mut cut_short = usize::from(owed.exists());
    // What the restarts logged: one of them finished the re-read.
    let mut logs = String::new();
    for part in [4, 2] {
        let daemon = start(&root);
        let at = changes() + n / part;
        wait_for("part of the re-read", || changes() >= at || !owed.exists());
        logs += &daemon.log();
        daemon.kill9();
        cut_short += usize::from(owed.exists());
    }
    println!("{n} games; {cut_short} of 3 kills cut the re-read short");
    // The first kill lands while the re-read is owed; the later ones land
    // in it where the machine is slow enough to see it under way (26 games
    // are read again in tens of milliseconds): each restart must finish it.
    assert!(cut_short >= 1, "the kills came after the re-read was done: {cut_short} cut it short");
    let daemon = start(&root);
    wait_for("the re-read finished", || !owed.exists() && names(&root.join("archive")).len() == n + 1);
    let log = daemon.stop();
    logs += &log;
    assert!(logs.contains("finishing the re-read"), "{logs}");
    // Every board has its game: no round has a line of boards without one.
    assert!(!log.contains("boards still without a scoresheet"), "{log}");
    let all = published(&root);
    let shown = || all.iter().map(|g| &g.0).collect::<Vec<_>>();
    assert_eq!(all.len(), n, "each game once: {:?}", shown());
    for x in &trf.games {
        let (w, b) = (trf.player(x.white), trf.player(x.black));
        let found = all.iter().filter(|(_, g)| {
            tag(g, "WhiteFideId") == Some(w.fide_id.to_string())
                && tag(g, "BlackFideId") == Some(b.fide_id.to_string())
                && tag(g, "Board") == Some(x.board.to_string())
                && tag(g, "WhiteElo") == (w.rating > 0).then(|| w.rating.to_string())
        });
        assert_eq!(found.count(), 1, "round {} board {}: {:?}", x.round, x.board, shown());
    }
    let validated = games_in(&root.join("pgn")).len();
    assert_eq!(round_file_games(&root.join("pgn")).len(), validated, "one game per board in the round files");
}

#[test]
fn a_sheet_typed_again_under_a_new_name_does_not_make_an_event_collect_two_copies() {
    let (games, trf) = event();
    let round = round_one(&trf, 2);
    let n = round[0].round;
    let (_t, root) = setup();
    let daemon = two_boards_read(&root, &games, &trf, &round);
    let inbox = root.join("inbox");
    // Board 1's sheet typed again, its headers as before, under a new name.
    let again = written(&games, &trf, &round[0], 0).replace("\n\n", "\n\n\n");
    drop_file(&inbox, "b1-fixed.txt", again.as_bytes());
    wait_for("the sheet typed again", || names(&root.join("archive")).len() == 4);
    let log = daemon.stop();
    assert!(log.contains("the other copy arrived; read with both copies"), "read with the copy it corrects: {log}");
    let missing = fs::read_to_string(root.join(format!("review/round-{n}.missing.txt"))).unwrap();
    assert!(missing.contains("boards with one copy only: not counted (one copy per game"), "{missing}");
    assert!(!log.contains(&format!("one_copy={}", round[1].board)), "{log}");
}

/// `trf`'s text with player `start`'s points written as `points` (columns
/// 81 to 84 of its `001` line), nothing else changed.
fn with_points(trf: &BuiltTrf, start: u32, points: &str) -> Vec<u8> {
    let text = trf.text();
    let lines: Vec<String> = text
        .lines()
        .map(|l| {
            let mine = l.starts_with("001") && l[4..8].trim() == start.to_string();
            if mine { format!("{}{points:>4}{}", &l[..80], &l[84..]) } else { l.to_string() }
        })
        .collect();
    (lines.join("\n") + "\n").into_bytes()
}

/// How many games the last TRF loaded read again, as its log line says.
fn read_again(log: &str) -> Option<usize> {
    let line = log.lines().rev().find(|l| l.contains("new pairings change were read again"))?;
    line.split("games=").nth(1)?.split_whitespace().next()?.parse().ok()
}

#[test]
fn a_trf_dropped_again_with_points_changed_reads_no_game_and_one_swapping_two_boards_reads_those_two() {
    let (games, trf) = event();
    let round = round_one(&trf, 3);
    assert_eq!(round.len(), 3);
    let (_t, root) = setup();
    let daemon = start(&root);
    let inbox = root.join("inbox");
    drop_file(&inbox, "event.trf", &trf.utf8());
    wait_for("the TRF", || names(&root.join("archive")).len() == 1);
    for (k, x) in round.iter().enumerate() {
        drop_file(&inbox, &format!("b{}.txt", x.board), written(&games, &trf, x, k).as_bytes());
    }
    wait_for("the sheets", || names(&root.join("archive")).len() == 1 + round.len());
    assert_eq!(games_in(&root.join("pgn")).len(), round.len(), "{:?}", games_in(&root.join("review")));
    // The pairing program's export again, a player's points changed only.
    drop_file(&inbox, "points.trf", &with_points(&trf, round[0].white, "9.5"));
    wait_for("the TRF with new points", || names(&root.join("archive")).len() == 2 + round.len());
    assert_eq!(read_again(&daemon.log()), Some(0), "{}", daemon.log());
    // Boards 2 and 3 swap their Black players: only their games are read again.
    let mut swapped = trf.clone();
    let at = |b: u32| swapped.games.iter().position(|g| g.round == round[0].round && g.board == b).unwrap();
    let (i, j) = (at(round[1].board), at(round[2].board));
    let (bi, bj) = (swapped.games[i].black, swapped.games[j].black);
    swapped.games[i].black = bj;
    swapped.games[j].black = bi;
    drop_file(&inbox, "swap.trf", &swapped.utf8());
    wait_for("the TRF with two boards swapped", || names(&root.join("archive")).len() == 3 + round.len());
    let log = daemon.stop();
    assert_eq!(read_again(&log), Some(2), "{log}");
    // The other game stays published as it was.
    let pgn = games_in(&root.join("pgn"));
    for x in round.iter().filter(|x| ![round[1].board, round[2].board].contains(&x.board)) {
        let white = &trf.player(x.white).name;
        assert!(pgn.iter().any(|(_, g)| tag(g, "White").as_deref() == Some(white.as_str())), "{white}: {pgn:?}");
    }
}
