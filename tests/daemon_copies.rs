//! `scoresheet watch` with both players' copies of games: a copy whose other
//! copy comes later is published alone, then read again with both and its
//! outputs replaced; a third copy is said and read alone. The real binary on
//! real folders, as in `tests/daemon.rs`; the waits are deadlines against a
//! hang, not timings.

use std::collections::BTreeMap;
use std::thread::sleep;
use std::time::{Duration, Instant};

use scoresheet::dev::same_game;
use scoresheet::ingest::read_named;
use scoresheet_dev::corpus::load_range;
use scoresheet_dev::generate::derive_seed;
use scoresheet_dev::pairs::pair_of;

mod daemon_support;
use daemon_support::*;

const HEAD: &str = "Event: Open\nRound: 3\nBoard: 7\n";

#[test]
fn the_other_copy_arriving_takes_a_review_game_out_of_review_into_pgn() {
    let (_t, root) = setup();
    let daemon = start(&root);
    let inbox = root.join("inbox");
    // White's copy has a box nobody could read: alone, it goes to review.
    let white = format!(
        "{HEAD}White: Ana Pérez\nBlack: Bea Ruiz\n\n1.e4 e5 2.Cf3 Cc6 3.Ab5 ?? 4.Aa4 Cf6 5.0-0 Ae7 6.Te1 b5 7.Ab3 d6 1-0\n"
    );
    drop_file(&inbox, "mesa7-w.txt", white.as_bytes());
    wait_for("the first copy", || names(&root.join("archive")).len() == 1);
    assert_eq!(names(&root.join("review")), ["3-7-Ana_Pérez-Bea_Ruiz.json", "3-7-Ana_Pérez-Bea_Ruiz.pgn"]);
    assert!(games_in(&root.join("pgn")).is_empty());
    // Black's copy, in German, the names written another way.
    let black = format!(
        "{HEAD}White: Perez, A\nBlack: Ruiz, B\n\n1.e4 e5 2.Sf3 Sc6 3.Lb5 a6 4.La4 Sf6 5.0-0 Le7 6.Te1 b5 7.Lb3 d6 1-0\n"
    );
    drop_file(&inbox, "mesa7-b.txt", black.as_bytes());
    wait_for("the second copy", || names(&root.join("archive")).len() == 2);
    let log = daemon.stop();
    assert!(names(&root.join("review")).is_empty(), "left review: {:?}", names(&root.join("review")));
    let pgn = games_in(&root.join("pgn"));
    assert_eq!(pgn.len(), 1, "{pgn:?}");
    let text = &pgn[0].1;
    assert_eq!(tag(text, "Sheets").as_deref(), Some("mesa7-w.txt mesa7-b.txt"), "{text}");
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(words.contains("3. Bb5 a6"), "{text}");
    let round = round_file_games(&root.join("pgn"));
    assert_eq!(round.len(), 1, "{round:?}");
    assert!(round[0].contains("[Sheets \"mesa7-w.txt mesa7-b.txt\"]"), "{}", round[0]);
    let line = log.lines().find(|l| l.contains("the other copy arrived")).unwrap_or_else(|| panic!("{log}"));
    assert!(line.contains("review → pgn") && line.contains("mesa7-w.txt") && line.contains("mesa7-b.txt"), "{line}");
}

#[test]
fn a_third_copy_of_a_game_is_said_and_read_alone_not_merged() {
    let (_t, root) = setup();
    let daemon = start(&root);
    let inbox = root.join("inbox");
    let sheet = |white: &str| format!("{HEAD}White: {white}\nBlack: Ruiz, B\n\n1.e4 e5 2.Cf3 Cc6 3.Ab5 a6 1-0\n");
    drop_file(&inbox, "a.txt", sheet("Pérez, Ana").as_bytes());
    wait_for("the first", || names(&root.join("archive")).len() == 1);
    drop_file(&inbox, "b.txt", sheet("A. Perez").as_bytes());
    wait_for("the second", || names(&root.join("archive")).len() == 2);
    drop_file(&inbox, "c.txt", sheet("perez a").as_bytes());
    wait_for("the third", || names(&root.join("archive")).len() == 3);
    let log = daemon.stop();
    let pgn = games_in(&root.join("pgn"));
    assert_eq!(pgn.len(), 1, "one game in pgn/: {pgn:?}");
    assert_eq!(tag(&pgn[0].1, "Sheets").as_deref(), Some("a.txt b.txt"));
    assert_eq!(round_file_games(&root.join("pgn")).len(), 1);
    let review = games_in(&root.join("review"));
    assert_eq!(review.len(), 1, "{review:?}");
    assert!(review[0].1.contains("third-copy") && tag(&review[0].1, "SourceFile").as_deref() == Some("c.txt"));
    assert_eq!(tag(&review[0].1, "Sheets"), None, "read alone");
    assert!(log.lines().any(|l| l.contains("WARN") && l.contains("a third copy") && l.contains("c.txt")), "{log}");
}

#[test]
fn killed_again_and_again_while_other_copies_are_read_each_game_ends_once_read_with_both() {
    let (_t, root) = setup();
    let inbox = root.join("inbox");
    let sheet = |white: &str, n: usize| {
        format!(
            "Event: Open\nRound: 2\nBoard: {n}\nWhite: {white}{n}\nBlack: Negro{n}\n\n\
             1.e4 e5 2.Cf3 Cc6 3.Ab5 a6 4.Aa4 Cf6 5.0-0 Ae7 6.Te1 b5 7.Ab3 d6 1-0\n"
        )
    };
    let daemon = start(&root);
    for n in 1..=40 {
        drop_file(&inbox, &format!("{n}-w.txt"), sheet("Blanco", n).as_bytes());
    }
    wait_for("the first copies", || names(&root.join("archive")).len() == 40);
    daemon.kill9();
    // The other copies come in four waves, each cut short by a kill -9 at
    // a moment of its own.
    for (wave, pause) in [5u64, 20, 45, 80].into_iter().enumerate() {
        let daemon = start(&root);
        for n in wave * 10 + 1..=wave * 10 + 10 {
            drop_file(&inbox, &format!("{n}-b.txt"), sheet("blanco", n).as_bytes());
        }
        sleep(Duration::from_millis(pause));
        daemon.kill9();
    }
    let daemon = start(&root);
    wait_for("every copy", || names(&root.join("archive")).len() == 80);
    daemon.stop();
    let pgn = games_in(&root.join("pgn"));
    assert_eq!(pgn.len(), 40, "{:?}", pgn.iter().map(|g| &g.0).collect::<Vec<_>>());
    assert!(pgn.iter().all(|(_, g)| tag(g, "Sheets").is_some_and(|s| s.contains("-w.txt") && s.contains("-b.txt"))));
    assert_eq!(round_file_games(&root.join("pgn")).len(), 40);
    assert!(names(&root.join("review")).is_empty(), "{:?}", names(&root.join("review")));
    assert!(names(&inbox).is_empty());
}

/// The Done-when of the daemon with copies: both copies of corpus games
/// dropped in random order, half of the second copies in a later wave.
#[test]
fn copies_of_two_hundred_games_in_two_waves_each_game_ends_once_read_with_both() {
    let games = load_range(2000, 260);
    let games: Vec<_> = games.iter().filter(|g| g.sans.len() >= 4).take(200).collect();
    // Each game its own round: a game is told by its Round tag wherever it ends.
    let pairs: Vec<_> =
        games.iter().enumerate().map(|(i, g)| pair_of(g, i + 1, derive_seed(16, i as u64), 0.05)).collect();
    let file = |i: usize, copy: usize| {
        let ext = pairs[i][copy].file_name.rsplit('.').next().unwrap().to_string();
        format!("g{i:03}-{}.{ext}", ["a", "b"][copy])
    };
    // The games whose two copies are told to be one game by their headers.
    let paired: Vec<bool> = pairs
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let s = |c: usize| read_named(&file(i, c), p[c].text.as_bytes(), 1 << 20).unwrap();
            same_game(&s(0)[0], &s(1)[0])
        })
        .collect();
    let mut rng = 0x2545_F491_4F6C_DD1Du64;
    let mut next = |n: usize| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng % n as u64) as usize
    };
    let shuffle = |v: &mut Vec<(usize, usize)>, next: &mut dyn FnMut(usize) -> usize| {
        for i in (1..v.len()).rev() {
            v.swap(i, next(i + 1));
        }
    };
    let mut first: Vec<(usize, usize)> = (0..200).map(|i| (i, next(2))).collect();
    let later: Vec<(usize, usize)> = first.iter().map(|&(i, c)| (i, 1 - c)).collect();
    let (mut with, mut wave2): (Vec<_>, Vec<_>) = later.into_iter().partition(|&(i, _)| i % 2 == 0);
    first.append(&mut with);
    shuffle(&mut first, &mut next);
    shuffle(&mut wave2, &mut next);

    let (_t, root) = setup();
    let inbox = root.join("inbox");
    let started = Instant::now();
    let daemon = start(&root);
    for &(i, c) in &first {
        drop_file(&inbox, &file(i, c), pairs[i][c].text.as_bytes());
    }
    wait_for("the first wave", || names(&root.join("archive")).len() == first.len());
    let one = started.elapsed();
    // The event goes on past a restart of the daemon.
    daemon.stop();
    let daemon = start(&root);
    for &(i, c) in &wave2 {
        drop_file(&inbox, &file(i, c), pairs[i][c].text.as_bytes());
    }
    wait_for("the second wave", || names(&root.join("archive")).len() == 400);
    let log = daemon.stop();
    println!("first wave ({} files) {:.1?}, both waves {:.1?}", first.len(), one, started.elapsed());

    // Every game once, in pgn/ or review/, told by its round.
    let mut ends: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut both = 0;
    for dir in ["pgn", "review"] {
        for (n, text) in games_in(&root.join(dir)) {
            let round = tag(&text, "Round").unwrap_or_default();
            let round = round.split('.').next().unwrap().to_string();
            let sheets = tag(&text, "Sheets").unwrap_or_default();
            let i: usize = round.parse::<usize>().unwrap() - 1;
            if paired[i] {
                assert!(
                    sheets == format!("{} {}", file(i, 0), file(i, 1))
                        || sheets == format!("{} {}", file(i, 1), file(i, 0)),
                    "{dir}/{n}: Sheets \"{sheets}\""
                );
                both += 1;
            }
            ends.entry(round).or_default().push(format!("{dir}/{n}"));
        }
    }
    let paired_n = paired.iter().filter(|p| **p).count();
    let twice: Vec<_> = ends.iter().filter(|(_, v)| v.len() != 1).collect();
    assert!(twice.is_empty(), "games not ending once: {twice:?}");
    let unpaired: Vec<usize> = (0..200).filter(|&i| !paired[i]).collect();
    // A game whose copies are not told to be one ends twice (each copy alone):
    // none here.
    assert!(unpaired.is_empty(), "copies not grouped: {unpaired:?}");
    assert_eq!(ends.len(), 200);
    assert_eq!(both, paired_n);
    // The round files hold each validated game once, and only those.
    let mut in_rounds: Vec<String> =
        round_file_games(&root.join("pgn")).iter().map(|g| tag(g, "Round").unwrap_or_default()).collect();
    let n = in_rounds.len();
    in_rounds.sort();
    in_rounds.dedup();
    assert_eq!(in_rounds.len(), n, "a game twice in its round file");
    assert_eq!(n, games_in(&root.join("pgn")).len());
    let moved = log.matches("the other copy arrived").count();
    // Why the games in review are there: the codes of their findings.
    let mut codes: BTreeMap<String, usize> = BTreeMap::new();
    for n in names(&root.join("review")).iter().filter(|n| n.ends_with(".json")) {
        let text = std::fs::read_to_string(root.join("review").join(n)).unwrap();
        let json: serde_json::Value = serde_json::from_str(&text).unwrap();
        let findings = json["game"]["findings"].as_array().cloned().unwrap_or_default();
        for f in findings.iter().filter(|f| f["severity"] != "info") {
            *codes.entry(f["code"].as_str().unwrap_or("?").to_string()).or_default() += 1;
        }
    }
    println!("review/ findings (warning and error): {codes:?}");
    println!(
        "200 games: {} in pgn/, {} in review/, {both} read with both copies; {moved} replaced when the other copy came in the second wave",
        games_in(&root.join("pgn")).len(),
        games_in(&root.join("review")).len()
    );
    assert_eq!(moved, wave2.len(), "each second-wave copy replaces its game once");
}

#[test]
fn both_copies_in_one_file_are_one_game_and_a_later_copy_is_a_third() {
    let (_t, root) = setup();
    let daemon = start(&root);
    let inbox = root.join("inbox");
    let game = |white: &str, moves: &str| {
        format!(
            "[Event \"Open\"]\n[Round \"5\"]\n[Board \"2\"]\n[White \"{white}\"]\n[Black \"Ruiz, B\"]\n\n{moves}\n\n"
        )
    };
    let both = game("Pérez, Ana", "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0")
        + &game("Perez, A", "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0");
    drop_file(&inbox, "both.pgn", both.as_bytes());
    wait_for("the file", || names(&root.join("archive")).len() == 1);
    let pgn = games_in(&root.join("pgn"));
    assert_eq!(pgn.len(), 1, "{pgn:?}");
    assert_eq!(tag(&pgn[0].1, "Sheets").as_deref(), Some("both.pgn both.pgn"));
    drop_file(
        &inbox,
        "c.txt",
        "Event: Open\nRound: 5\nBoard: 2\nWhite: A. Perez\nBlack: B. Ruiz\n\n1.e4 e5 2.Cf3 Cc6 3.Ab5 a6 1-0\n"
            .as_bytes(),
    );
    wait_for("the third", || names(&root.join("archive")).len() == 2);
    daemon.stop();
    assert_eq!(games_in(&root.join("pgn")).len(), 1);
    assert_eq!(round_file_games(&root.join("pgn")).len(), 1);
    let review = games_in(&root.join("review"));
    assert!(review.len() == 1 && review[0].1.contains("third-copy"), "{review:?}");
}

#[test]
fn two_daemons_on_one_inbox_read_each_game_once_with_both_copies() {
    let (_t, root) = setup();
    let inbox = root.join("inbox");
    let first = start(&root);
    let second = start(&root);
    let sheet = |white: &str, n: usize| {
        format!(
            "Event: Open\nRound: 6\nBoard: {n}\nWhite: {white}{n}\nBlack: Negro{n}\n\n1.e4 e5 2.Cf3 Cc6 3.Ab5 a6 1-0\n"
        )
    };
    for n in 1..=30 {
        drop_file(&inbox, &format!("{n}-w.txt"), sheet("Blanco", n).as_bytes());
        drop_file(&inbox, &format!("{n}-b.txt"), sheet("blanco", n).as_bytes());
    }
    wait_for("every copy", || names(&root.join("archive")).len() == 60);
    first.stop();
    second.stop();
    let pgn = games_in(&root.join("pgn"));
    assert_eq!(pgn.len(), 30, "{:?}", pgn.iter().map(|g| &g.0).collect::<Vec<_>>());
    assert!(pgn.iter().all(|(_, g)| tag(g, "Sheets").is_some_and(|s| s.contains("-w.txt") && s.contains("-b.txt"))));
    assert_eq!(round_file_games(&root.join("pgn")).len(), 30);
    assert!(names(&root.join("review")).is_empty(), "{:?}", names(&root.join("review")));
}

#[test]
fn one_copy_of_a_pair_typed_again_is_read_again_with_the_other() {
    let (_t, root) = setup();
    let daemon = start(&root);
    let inbox = root.join("inbox");
    let moves = "1.e4 e5 2.Cf3 Cc6 3.Ab5 a6 4.Aa4 Cf6 5.0-0 Ae7";
    let sheet = |white: &str, moves: &str| format!("{HEAD}White: {white}\nBlack: Ruiz, B\n\n{moves}\n");
    // White's copy has the whole game; Black's stops a move short (an
    // incomplete record, told with the game) until it is typed again.
    drop_file(&inbox, "w.txt", sheet("Pérez, Ana", &format!("{moves} 6.Te1 b5 1-0")).as_bytes());
    wait_for("the first copy", || names(&root.join("archive")).len() == 1);
    drop_file(&inbox, "b.txt", sheet("A. Perez", moves).as_bytes());
    wait_for("the second copy", || names(&root.join("archive")).len() == 2);
    // Black's copy typed again: the next moves and the result were left out.
    drop_file(&inbox, "b.txt", sheet("A. Perez", &format!("{moves} 6.Te1 b5 1-0")).as_bytes());
    wait_for("the copy typed again", || names(&root.join("archive")).len() == 3);
    let log = daemon.stop();
    let pgn = games_in(&root.join("pgn"));
    assert_eq!(pgn.len(), 1, "{pgn:?}");
    let words = pgn[0].1.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(words.contains("6. Re1 b5 1-0") && tag(&pgn[0].1, "Sheets").as_deref() == Some("w.txt b.txt"), "{words}");
    let round = round_file_games(&root.join("pgn"));
    assert!(round.len() == 1 && round[0].contains("6. Re1 b5"), "{round:?}");
    assert!(log.contains("a copy dropped again; read with both copies: pgn → pgn"), "{log}");
    assert!(!words.contains("incomplete-record"), "the copy typed again has every move: {words}");
}

#[test]
fn a_copy_corrected_under_a_new_name_replaces_the_copy_it_corrects() {
    let (_t, root) = setup();
    let daemon = start(&root);
    let inbox = root.join("inbox");
    let sheet = |white: &str, sixth: &str| {
        format!(
            "{HEAD}White: {white}\nBlack: Ruiz, B\n\n1.e4 e5 2.Cf3 Cc6 3.Ab5 a6 4.Aa4 Cf6 5.0-0 Ae7 6.{sixth} b5 1-0\n"
        )
    };
    drop_file(&inbox, "w.txt", sheet("Pérez, Ana", "Tel").as_bytes());
    wait_for("White's copy", || names(&root.join("archive")).len() == 1);
    drop_file(&inbox, "b.txt", sheet("A. Perez", "Te1").as_bytes());
    wait_for("Black's copy", || names(&root.join("archive")).len() == 2);
    // White's copy typed again, its slip mended, under a name of its own.
    drop_file(&inbox, "w-corregida.txt", sheet("Pérez, Ana", "Te1").as_bytes());
    wait_for("the correction", || names(&root.join("archive")).len() == 3);
    let log = daemon.stop();
    let pgn = games_in(&root.join("pgn"));
    assert_eq!(pgn.len(), 1, "one game: {pgn:?}");
    assert_eq!(tag(&pgn[0].1, "Sheets").as_deref(), Some("b.txt w-corregida.txt"), "{}", pgn[0].1);
    assert!(games_in(&root.join("review")).is_empty(), "not a third copy: {:?}", names(&root.join("review")));
    assert_eq!(round_file_games(&root.join("pgn")).len(), 1);
    assert!(log.contains("a copy corrected under a new name replaces it"), "{log}");
}

#[test]
fn an_early_stopping_copy_is_never_published_alone_once_its_partner_has_come() {
    // A real game; one copy stops 15 moves before the end and gives no round
    // and the names typed otherwise: only the moves tell the two are one game.
    let g = load_range(6000, 40).into_iter().find(|g| g.sans.len() >= 80).unwrap();
    let text = |headers: &str, plies: usize| {
        let mut s = format!("Event: Open\n{headers}\n");
        for (i, san) in g.sans.iter().take(plies).enumerate() {
            if i % 2 == 0 {
                s.push_str(&format!("{}. ", i / 2 + 1));
            }
            s.push_str(san);
            s.push(' ');
        }
        s + "\n"
    };
    let short = text("White: Jdin\nBlack: A UKR Petrov\n", g.sans.len() - 30);
    let whole = text("Round: 5\nWhite: Yudn S\nBlack: Petrov, A\n", g.sans.len()) + &g.result + "\n";
    for order in [[("short.txt", &short), ("whole.txt", &whole)], [("whole.txt", &whole), ("short.txt", &short)]] {
        let (_t, root) = setup();
        let daemon = start(&root);
        let inbox = root.join("inbox");
        drop_file(&inbox, order[0].0, order[0].1.as_bytes());
        wait_for("the first copy", || names(&root.join("archive")).len() == 1);
        drop_file(&inbox, order[1].0, order[1].1.as_bytes());
        wait_for("the second copy", || names(&root.join("archive")).len() == 2);
        daemon.stop();
        let mut all = games_in(&root.join("pgn"));
        all.extend(games_in(&root.join("review")));
        assert_eq!(all.len(), 1, "{} first: {:?}", order[0].0, all.iter().map(|g| &g.0).collect::<Vec<_>>());
        let mut sheets: Vec<String> =
            tag(&all[0].1, "Sheets").unwrap_or_default().split(' ').map(String::from).collect();
        sheets.sort();
        assert_eq!(sheets, ["short.txt", "whole.txt"], "{}", all[0].1);
        let round = round_file_games(&root.join("pgn"));
        assert!(round.len() <= 1, "{round:?}");
    }
}

const LI_FILE: &str = "Round: 3\nWhite: Li, Wei\nBlack: Wang, Hao\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 1-0\n\n\
                       Round: 3\nWhite: Li, Wen\nBlack: Wang, Hai\n\n1. d4 d5 2. c4 e6 3. Nc3 Nf6 0-1\n";

/// The White and Black of each game in `dir`, sorted.
fn players_in(dir: &std::path::Path) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = games_in(dir)
        .iter()
        .map(|(_, t)| (tag(t, "White").unwrap_or_default(), tag(t, "Black").unwrap_or_default()))
        .collect();
    out.sort();
    out
}

#[test]
fn li_wei_and_li_wen_of_one_round_are_two_games_in_one_file_or_two_in_either_order() {
    let both = || vec![("Li, Wei".to_string(), "Wang, Hao".to_string()), ("Li, Wen".into(), "Wang, Hai".into())];
    let (_t, root) = setup();
    let daemon = start(&root);
    drop_file(&root.join("inbox"), "round3.txt", LI_FILE.as_bytes());
    wait_for("the file", || names(&root.join("archive")).len() == 1);
    daemon.stop();
    assert_eq!(players_in(&root.join("pgn")), both());
    // One sheet a file, in both orders: the first stays in pgn/ when the
    // second comes.
    let (wei, wen) = LI_FILE.split_at(LI_FILE.find("\n\nRound").expect("two games") + 2);
    for order in [[("wei.txt", wei), ("wen.txt", wen)], [("wen.txt", wen), ("wei.txt", wei)]] {
        let (_t, root) = setup();
        let daemon = start(&root);
        drop_file(&root.join("inbox"), order[0].0, order[0].1.as_bytes());
        wait_for("the first", || names(&root.join("archive")).len() == 1);
        let first = players_in(&root.join("pgn"));
        drop_file(&root.join("inbox"), order[1].0, order[1].1.as_bytes());
        wait_for("the second", || names(&root.join("archive")).len() == 2);
        daemon.stop();
        assert_eq!(first.len(), 1);
        assert_eq!(players_in(&root.join("pgn")), both(), "{order:?}");
        assert!(games_in(&root.join("review")).is_empty(), "{order:?}");
    }
}

#[test]
fn a_sheet_of_another_game_under_a_published_games_pairing_goes_beside_it_as_a_doubt() {
    let (_t, root) = setup();
    let daemon = start(&root);
    let inbox = root.join("inbox");
    let a = format!("{HEAD}White: Pérez, Ana\nBlack: Ruiz, Bea\n\n1.e4 e5 2.Cf3 Cc6 3.Ab5 a6 4.Aa4 Cf6 1-0\n");
    let b = format!("{HEAD}White: A. Perez\nBlack: B. Ruiz\n\n1.d4 d5 2.c4 e6 3.Cc3 Cf6 4.Ag5 Ae7 0-1\n");
    drop_file(&inbox, "a.txt", a.as_bytes());
    wait_for("the first", || names(&root.join("archive")).len() == 1);
    drop_file(&inbox, "b.txt", b.as_bytes());
    wait_for("the second", || names(&root.join("archive")).len() == 2);
    daemon.stop();
    let pgn = games_in(&root.join("pgn"));
    assert_eq!(pgn.len(), 1, "the first game stays published: {pgn:?}");
    assert!(pgn[0].1.contains("1. e4 e5"), "{}", pgn[0].1);
    assert_eq!(tag(&pgn[0].1, "Sheets"), None);
    let review = games_in(&root.join("review"));
    assert_eq!(review.len(), 1, "{review:?}");
    assert!(review[0].1.contains("two-games-one-board") && review[0].1.contains("1. d4 d5"), "{}", review[0].1);
}

/// A TRF of four players, three rounds, the third paired and unplayed:
/// `names[0]` – `names[1]` on board 1 and `names[2]` – `names[3]` on board 2.
fn four_player_trf(names: [&str; 4]) -> String {
    let player = |n: u32, name: &str, pts: &str, rounds: [(u32, char, &str); 3]| {
        let cells: String = rounds.iter().map(|(o, c, r)| format!("  {o:>4} {c} {r}")).collect();
        format!("001 {n:>4} m    {name:<33} 1800 CHN {:>11} 2000/01/01 {pts:>4} {n:>4}{cells}", 0)
            .trim_end()
            .to_string()
    };
    [
        "012 Open de Hanoi".to_string(),
        "042 2026/12/01".to_string(),
        player(1, names[0], "2.0", [(3, 'w', "1"), (4, 'b', "1"), (2, 'w', " ")]),
        player(2, names[1], "1.0", [(4, 'w', "="), (3, 'b', "="), (1, 'b', " ")]),
        player(3, names[2], "0.5", [(1, 'b', "0"), (2, 'w', "="), (4, 'w', " ")]),
        player(4, names[3], "0.5", [(2, 'b', "="), (1, 'w', "0"), (3, 'b', " ")]),
    ]
    .join("\n")
        + "\n"
}

#[test]
fn a_trf_arriving_after_li_wei_and_li_wen_puts_each_game_on_its_own_board() {
    let (_t, root) = setup();
    let daemon = start(&root);
    let inbox = root.join("inbox");
    drop_file(&inbox, "round3.txt", LI_FILE.as_bytes());
    wait_for("the sheets", || names(&root.join("archive")).len() == 1);
    drop_file(&inbox, "open.trf", four_player_trf(["Li, Wei", "Wang, Hao", "Li, Wen", "Wang, Hai"]).as_bytes());
    let boards = || {
        let mut b: Vec<String> = games_in(&root.join("pgn")).iter().filter_map(|(_, t)| tag(t, "Board")).collect();
        b.sort();
        b
    };
    wait_for("both games on their boards", || boards() == ["1", "2"]);
    daemon.stop();
    let pgn = games_in(&root.join("pgn"));
    let board_of = |white: &str| {
        pgn.iter().find(|(_, t)| tag(t, "White").as_deref() == Some(white)).and_then(|(_, t)| tag(t, "Board"))
    };
    assert_eq!(board_of("Li, Wei").as_deref(), Some("1"), "{pgn:?}");
    assert_eq!(board_of("Li, Wen").as_deref(), Some("2"), "{pgn:?}");
    assert!(games_in(&root.join("review")).is_empty());
    let missing = std::fs::read_to_string(root.join("review/round-3.missing.txt")).unwrap_or_default();
    assert!(missing.contains("boards without a scoresheet: none"), "{missing}");
}

/// Each game in pgn/ and review/: its folder, players and result, sorted.
fn placed(root: &std::path::Path) -> Vec<String> {
    let mut out: Vec<String> = ["pgn", "review"]
        .iter()
        .flat_map(|f| {
            games_in(&root.join(f)).into_iter().map(move |(_, t)| {
                let v = |k| tag(&t, k).unwrap_or_default();
                format!("{f}: {} - {} {}", v("White"), v("Black"), v("Result"))
            })
        })
        .collect();
    out.sort();
    out
}

/// The same placement as `convert` concludes from the files, with the
/// pairings of `dir/open.trf`: each game once
/// (a game of two copies is reported for each), validated in pgn/, the rest
/// in review/.
fn placed_by_convert(dir: &std::path::Path, files: &[(&str, String)]) -> Vec<String> {
    let paths: Vec<std::path::PathBuf> = files.iter().map(|(n, _)| dir.join(n)).collect();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_scoresheet"))
        .arg("convert")
        .arg("--json")
        .arg("--pairings")
        .arg(dir.join("open.trf"))
        .args(&paths)
        .output()
        .expect("convert runs");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("convert's JSON");
    let mut seen = std::collections::BTreeSet::new();
    for g in json["files"].as_array().into_iter().flatten().flat_map(|f| f["games"].as_array().into_iter().flatten()) {
        let v = |k: &str| g["headers"][k].as_str().unwrap_or_default().to_string();
        let folder = if g["status"] == "validated" { "pgn" } else { "review" };
        seen.insert(format!("{folder}: {} - {} {}", v("White"), v("Black"), v("Result")));
    }
    seen.into_iter().collect()
}

/// A TRF of event `event`, its players `names` (start numbers from 1) and
/// three rounds: the first two drawn, the third paired and unplayed, each
/// round as its (White, Black) start numbers.
fn three_round_trf(event: &str, names: &[&str], rounds: [&[(u32, u32)]; 3]) -> String {
    let mut lines = vec![format!("012 {event}"), "042 2026/12/01".to_string()];
    for (k, name) in names.iter().enumerate() {
        let n = k as u32 + 1;
        let cells: String = rounds
            .iter()
            .enumerate()
            .map(|(r, pairs)| {
                let (o, c) = pairs
                    .iter()
                    .find_map(|&(w, b)| (w == n).then_some((b, 'w')).or((b == n).then_some((w, 'b'))))
                    .expect("every player paired");
                format!("  {o:>4} {c} {}", if r < 2 { "=" } else { " " })
            })
            .collect();
        let line = format!("001 {n:>4} m    {name:<33} 1800 NOR {:>11} 2000/01/01 {:>4} {n:>4}{cells}", 0, "1.0");
        lines.push(line.trim_end().to_string());
    }
    lines.join("\n") + "\n"
}

#[test]
fn one_events_sheets_a_copy_joined_by_moves_and_a_late_trf_in_ten_orders_with_kill_9s_end_as_convert_reads_them() {
    let games = load_range(6000, 40);
    let long: Vec<_> = games.iter().filter(|g| g.sans.len() >= 90).collect();
    let (g, h) = (&long[0], &long[1]);
    let files: Vec<(&str, String)> = vec![
        ("round3.txt", LI_FILE.to_string()),
        (
            "a1.txt",
            typed_sheet(
                "Event: Open\nRound: 3\nBoard: 1\nWhite: Carlsen, Magnus\nBlack: Caruana, Fabiano\n",
                &g.sans,
                usize::MAX,
                "",
            ),
        ),
        (
            "a2.txt",
            typed_sheet("Event: Open\nRound: 3\nWhite: Carlsen, M\nBlack: Caruana F\n", &g.sans, usize::MAX, ""),
        ),
        ("p.txt", typed_sheet("Event: Open\nWhite: Karlsen, M\nBlack: Ding, Liren\n", &g.sans, 46, "1-0")),
        (
            "h1.txt",
            typed_sheet(
                "Event: Open\nRound: 3\nBoard: 2\nWhite: Navara, David\nBlack: Shirov, Alexei\n",
                &h.sans,
                usize::MAX,
                &h.result,
            ),
        ),
        (
            "h2.txt",
            typed_sheet(
                // No round: joined to h1 by its moves alone.
                "Event: Open\nWhite: Nbvra D\nBlack: Shirov, Alexei\n",
                &h.sans,
                usize::MAX,
                &h.result,
            ),
        ),
    ];
    // The event's TRF, which comes after the sheets: round 3 pairs every
    // game, the prefix game's players included.
    let players = [
        "Li, Wei",
        "Wang, Hao",
        "Li, Wen",
        "Wang, Hai",
        "Carlsen, Magnus",
        "Caruana, Fabiano",
        "Navara, David",
        "Shirov, Alexei",
        "Karlsen, Mats",
        "Ding, Liren",
    ];
    let r1: &[(u32, u32)] = &[(1, 3), (2, 5), (4, 6), (7, 9), (8, 10)];
    let r2: &[(u32, u32)] = &[(1, 4), (3, 5), (2, 6), (7, 10), (8, 9)];
    let r3: &[(u32, u32)] = &[(1, 2), (3, 4), (5, 6), (7, 8), (9, 10)];
    let trf = three_round_trf("Open", &players, [r1, r2, r3]);
    let dir = tempfile::tempdir().unwrap();
    for (n, text) in &files {
        std::fs::write(dir.path().join(n), text).unwrap();
    }
    std::fs::write(dir.path().join("open.trf"), &trf).unwrap();
    let want = placed_by_convert(dir.path(), &files);
    assert_eq!(want.iter().filter(|p| p.starts_with("pgn")).count(), 5, "convert: {want:?}");
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    for round in 0..10 {
        let mut order: Vec<usize> = (0..files.len()).collect();
        for i in (1..order.len()).rev() {
            order.swap(i, next(i + 1));
        }
        let cut = 1 + next(files.len() - 1);
        let (_t, root) = setup();
        let daemon = start(&root);
        for &i in &order[..cut] {
            drop_file(&root.join("inbox"), files[i].0, files[i].1.as_bytes());
        }
        // Killed while the first wave is read, or just after.
        sleep(Duration::from_millis(next(300) as u64));
        daemon.kill9();
        let daemon = start(&root);
        for &i in &order[cut..] {
            drop_file(&root.join("inbox"), files[i].0, files[i].1.as_bytes());
        }
        wait_for("every sheet", || names(&root.join("archive")).len() == files.len());
        // Before the TRF, h2 is h1's copy by its moves alone, and says so.
        wait_for("h1 and h2 joined", || {
            games_in(&root.join("pgn"))
                .iter()
                .any(|(_, t)| t.contains("Navara") && t.contains("copies-joined-by-moves"))
        });
        // The TRF comes late, once every sheet is read.
        drop_file(&root.join("inbox"), "open.trf", trf.as_bytes());
        wait_for("the TRF", || names(&root.join("archive")).len() == files.len() + 1);
        daemon.stop();
        let got = placed(&root);
        let order: Vec<&str> = order.iter().map(|&i| files[i].0).collect();
        let why: Vec<String> = games_in(&root.join("review"))
            .iter()
            .flat_map(|(_, t)| {
                t.split('{').skip(1).map(|c| c.split('}').next().unwrap_or("").replace('\n', " ")).collect::<Vec<_>>()
            })
            .filter(|c| !c.starts_with("language") && !c.starts_with("typo"))
            .collect();
        assert_eq!(got, want, "order {round}: {order:?}, killed after {cut}; in review: {why:?}");
        let navara = games_in(&root.join("pgn")).into_iter().find(|(_, t)| t.contains("Navara")).expect("h");
        let sheets = tag(&navara.1, "Sheets").unwrap_or_default();
        assert!(sheets.contains("h1.txt") && sheets.contains("h2.txt"), "order {round}: {}", navara.1);
    }
}

#[test]
fn a_trf_that_pairs_two_joined_sheets_apart_publishes_each_as_its_own_game() {
    // Names a syllable apart and a game that is the other's first moves:
    // without pairings, one game's two copies; the TRF pairs them on two
    // boards.
    let games = load_range(6000, 40);
    let g = games.iter().find(|g| g.sans.len() >= 60).expect("a long game");
    let short = typed_sheet("Round: 3\nWhite: Kakaka, Ann\nBlack: Lokaka, Bob\n", &g.sans, 12, "1/2-1/2");
    let long = typed_sheet("Round: 3\nWhite: Kakadra, Ann\nBlack: Lokadra, Bob\n", &g.sans, usize::MAX, &g.result);
    let (_t, root) = setup();
    let daemon = start(&root);
    let inbox = root.join("inbox");
    drop_file(&inbox, "short.txt", short.as_bytes());
    drop_file(&inbox, "long.txt", long.as_bytes());
    wait_for("the sheets", || names(&root.join("archive")).len() == 2);
    let all = || [games_in(&root.join("pgn")), games_in(&root.join("review"))].concat();
    assert_eq!(all().len(), 1, "read as one game without pairings: {:?}", all());
    drop_file(
        &inbox,
        "open.trf",
        four_player_trf(["Kakaka, Ann", "Lokaka, Bob", "Kakadra, Ann", "Lokadra, Bob"]).as_bytes(),
    );
    wait_for("two games", || all().len() == 2);
    daemon.stop();
    let mut whites: Vec<String> = all().iter().filter_map(|(_, t)| tag(t, "White")).collect();
    whites.sort();
    assert_eq!(whites, ["Kakadra, Ann", "Kakaka, Ann"]);
    let moves = |white: &str| {
        let text = all().into_iter().find(|(_, t)| tag(t, "White").as_deref() == Some(white)).expect("its game").1;
        text.split_whitespace()
            .filter(|w| w.ends_with('.') && w.chars().next().is_some_and(|c| c.is_ascii_digit()))
            .count()
    };
    assert_eq!(moves("Kakaka, Ann"), 6, "the short game's own six moves");
    assert!(moves("Kakadra, Ann") >= 30);
}

#[test]
fn copies_joined_by_their_moves_are_published_once_saying_so() {
    let games = load_range(6000, 40);
    let g = games.iter().find(|g| g.sans.len() >= 70).expect("a long game");
    let a = typed_sheet("Round: 4\nWhite: Jdin, S\nBlack: Gelfand, B\n", &g.sans, usize::MAX, &g.result);
    let b = typed_sheet("White: Yudn S\nBlack: Gelfand, Boris\n", &g.sans, usize::MAX, &g.result);
    let (_t, root) = setup();
    let daemon = start(&root);
    drop_file(&root.join("inbox"), "a.txt", a.as_bytes());
    wait_for("the first", || names(&root.join("archive")).len() == 1);
    drop_file(&root.join("inbox"), "b.txt", b.as_bytes());
    wait_for("the second", || names(&root.join("archive")).len() == 2);
    daemon.stop();
    let pgn = games_in(&root.join("pgn"));
    assert_eq!(pgn.len(), 1, "{pgn:?}");
    assert_eq!(tag(&pgn[0].1, "Sheets").as_deref(), Some("a.txt b.txt"));
    let text = pgn[0].1.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(text.contains("copies-joined-by-moves") && text.contains("Yudn S"), "{text}");
    assert!(games_in(&root.join("review")).is_empty());
}

#[test]
fn a_rounds_white_copies_in_one_file_then_its_black_copies_in_another_are_read_as_convert_reads_both() {
    // More sheets than one hold of the records' lock publishes: each file is
    // published in parts.
    let games = load_range(0, 400);
    let games: Vec<_> = games.iter().filter(|g| g.sans.len() >= 12).take(300).collect();
    assert_eq!(games.len(), 300);
    let head = |b: usize| format!("Event: Open\nRound: 4\nBoard: {b}\nWhite: Player {b}a\nBlack: Player {b}b");
    // White's copies each have a box nobody could read: alone, some go to review.
    let mut white = String::new();
    let mut black = String::new();
    for (i, g) in games.iter().enumerate() {
        let mut sans = g.sans.clone();
        sans[5] = "??".to_string();
        white.push_str(&typed_sheet(&head(i + 1), &sans, sans.len(), "*"));
        white.push('\n');
        black.push_str(&typed_sheet(&head(i + 1), &g.sans, g.sans.len(), "*"));
        black.push('\n');
    }
    let (t, root) = setup();
    // The budgets in work only, not the clock: a loaded machine reads as an idle one.
    let config = t.path().join("config.yaml");
    std::fs::write(&config, "repair:\n  limits:\n    file_ms: 600000\n").unwrap();
    let daemon = start_with(&root, &["--config", config.to_str().unwrap()]);
    let inbox = root.join("inbox");
    drop_file(&inbox, "round4-white.txt", white.as_bytes());
    // Done, not archived: a file of many sheets is archived with its first part.
    wait_for("the white copies", || daemon.log().contains("done file=round4-white.txt "));
    let alone = games_in(&root.join("review")).len();
    assert_eq!(games_in(&root.join("pgn")).len() + alone, 300, "each read alone first");
    assert!(alone > 0, "a box nobody could read sends some to review");
    drop_file(&inbox, "round4-black.txt", black.as_bytes());
    wait_for("the black copies", || daemon.log().contains("done file=round4-black.txt "));
    daemon.stop();
    // Each game once, read with both copies.
    let games: Vec<(&str, String)> = ["pgn", "review"]
        .into_iter()
        .flat_map(|f| games_in(&root.join(f)).into_iter().map(move |(_, t)| (f, t)))
        .collect();
    assert_eq!(games.len(), 300);
    for (_, text) in &games {
        assert_eq!(tag(text, "Sheets").as_deref(), Some("round4-white.txt round4-black.txt"), "{text}");
    }
    // Each where `convert` puts it, read as `convert` reads the two files
    // (within the same budgets: some pairs reach `search-budget` in both).
    let dir = tempfile::tempdir().unwrap();
    let files = [("round4-white.txt", white), ("round4-black.txt", black)];
    for (n, t) in &files {
        std::fs::write(dir.path().join(n), t).unwrap();
    }
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_scoresheet"))
        .arg("convert")
        .arg("--json")
        .arg("--config")
        .arg(&config)
        .args(files.iter().map(|(n, _)| dir.path().join(n)))
        .output()
        .expect("convert runs");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("convert's JSON");
    let mut by_convert: Vec<String> = json["files"][1]["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            let folder = if g["status"] == "validated" { "pgn" } else { "review" };
            format!("{folder}: {}", moves_of(g["pgn"].as_str().unwrap()))
        })
        .collect();
    let mut by_watch: Vec<String> = games.iter().map(|(f, t)| format!("{f}: {}", moves_of(t))).collect();
    by_convert.sort();
    by_watch.sort();
    assert_eq!(by_watch, by_convert);
}
