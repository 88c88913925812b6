//! Sheets read with the tournament's pairings (`convert --pairings FILE`, a
//! FIDE TRF-16): TRFs built from corpus games (tests/data), in UTF-8 and
//! Latin-1, and one broken.

use std::sync::Arc;

use assert_cmd::cargo::cargo_bin_cmd;
use assert_fs::TempDir;
use assert_fs::prelude::*;
use scoresheet::convert::{Options, convert};
use scoresheet::emit::report::{GameReport, Status};
use scoresheet::pairing::{Tournament, TrfError};
use scoresheet_dev::corpus::{CorpusGame, load_range};
use scoresheet_dev::trf::{BuiltTrf, TrfGame, largest_event, loosely};
use serde_json::Value;

/// The games of the event with the most games among the test corpus's
/// first 2000, and the TRF built from them.
fn event() -> (Vec<CorpusGame>, BuiltTrf) {
    largest_event(load_range(0, 2000))
}

/// A text sheet of a game, with the headers given.
fn sheet(game: &CorpusGame, headers: &[(&str, String)]) -> String {
    let mut s: String = headers.iter().map(|(k, v)| format!("{k}: {v}\n")).collect();
    s.push('\n');
    for (i, san) in game.sans.iter().enumerate() {
        if i % 2 == 0 {
            s.push_str(&format!("{}. ", i / 2 + 1));
        }
        s.push_str(san);
        s.push(' ');
    }
    s.push_str(&game.result);
    s.push('\n');
    s
}

fn with(t: Tournament) -> Options {
    Options { pairings: Some(Arc::new(t)), ..Options::default() }
}

fn read(text: &str, opts: &Options) -> GameReport {
    convert("sheet.txt", text.as_bytes(), opts).games.remove(0)
}

fn header<'a>(g: &'a GameReport, k: &str) -> Option<&'a str> {
    g.headers.get(k).and_then(Value::as_str)
}

fn codes(g: &GameReport) -> Vec<&str> {
    g.findings.iter().map(|f| f.code).collect()
}

/// The sheet of a built game as a player writes it: loose names, round and board.
fn written(games: &[CorpusGame], trf: &BuiltTrf, x: &TrfGame, k: usize, place: String) -> String {
    let headers = [
        ("Round", place),
        ("White", loosely(&trf.player(x.white).name, k)),
        ("Black", loosely(&trf.player(x.black).name, k + 1)),
    ];
    sheet(&games[x.game], &headers)
}

#[test]
fn a_trf_built_from_corpus_games_reads_back_in_utf8_and_latin1() {
    let (_, mut trf) = event();
    trf.rename(1, "Hernández, José");
    assert!(trf.games.len() >= 10, "{} games", trf.games.len());
    let utf8 = Tournament::parse(&trf.utf8()).unwrap();
    let latin1 = Tournament::parse(&trf.latin1()).unwrap();
    assert_ne!(trf.utf8(), trf.latin1(), "the accented name is encoded differently");
    assert_eq!(utf8, latin1);
    assert_eq!(utf8.name, trf.name);
    assert_eq!(utf8.players.len(), trf.players.len());
    assert_eq!(utf8.players[0].name, "Hernández, José");
    for (read, built) in utf8.players.iter().zip(&trf.players) {
        assert_eq!((read.start, read.rating, read.fide_id), (built.start, built.rating, built.fide_id));
    }
    let pairings: Vec<(u32, u32, u32, u32)> =
        utf8.pairings.iter().map(|p| (p.round, p.board, p.white, p.black)).collect();
    let built: Vec<(u32, u32, u32, u32)> = trf.games.iter().map(|g| (g.round, g.board, g.white, g.black)).collect();
    assert_eq!(pairings, built);
}

#[test]
fn sheets_giving_round_and_board_get_the_trf_names_ratings_and_ids() {
    let (games, trf) = event();
    let opts = with(Tournament::parse(&trf.utf8()).unwrap());
    for (k, x) in trf.games.iter().enumerate() {
        let g = read(&written(&games, &trf, x, k, format!("{}.{}", x.round, x.board)), &opts);
        let (w, b) = (trf.player(x.white), trf.player(x.black));
        assert_eq!(header(&g, "White"), Some(w.name.as_str()), "{:?}", g.headers);
        assert_eq!(header(&g, "Black"), Some(b.name.as_str()));
        assert_eq!(header(&g, "Round"), Some(x.round.to_string().as_str()));
        assert_eq!(header(&g, "Board"), Some(x.board.to_string().as_str()));
        assert_eq!(header(&g, "WhiteFideId"), Some(w.fide_id.to_string().as_str()));
        if w.rating > 0 {
            assert_eq!(header(&g, "WhiteElo"), Some(w.rating.to_string().as_str()));
        }
        assert!(!codes(&g).iter().any(|c| c.starts_with("pairing") || *c == "colours-reversed"), "{:?}", codes(&g));
        assert!(g.pgn.contains(&format!("[WhiteFideId \"{}\"]", w.fide_id)));
    }
}

#[test]
fn sheets_giving_only_names_are_matched_and_never_to_another_game() {
    let (games, trf) = event();
    let opts = with(Tournament::parse(&trf.utf8()).unwrap());
    let (mut matched, mut total) = (0, 0);
    for (with_round, k0) in [(true, 0), (false, 3)] {
        for (k, x) in trf.games.iter().enumerate() {
            let place = if with_round { x.round.to_string() } else { "?".to_string() };
            let g = read(&written(&games, &trf, x, k + k0, place), &opts);
            total += 1;
            if codes(&g).contains(&"pairing-mismatch") {
                // Without a round, two players who met twice in the same
                // colours cannot be told apart: the only sheets left unmatched.
                let twice = trf.games.iter().filter(|y| (y.white, y.black) == (x.white, x.black)).count() > 1;
                assert!(!with_round && twice, "{:?}", g.findings);
                assert!(header(&g, "WhiteFideId").is_none(), "a sheet not matched gets no TRF tags");
                continue;
            }
            assert_eq!(header(&g, "White"), Some(trf.player(x.white).name.as_str()), "{}", g.pgn);
            assert_eq!(header(&g, "Round"), Some(x.round.to_string().as_str()));
            assert_eq!(header(&g, "Board"), Some(x.board.to_string().as_str()));
            matched += 1;
        }
    }
    println!("matched by names alone: {matched} of {total} sheets (half of them without a round)");
}

#[test]
fn a_sheet_numbering_its_board_otherwise_is_matched_by_its_names_and_keeps_its_board() {
    let (games, trf) = event();
    let opts = with(Tournament::parse(&trf.utf8()).unwrap());
    let x = &trf.games[0];
    let other = trf.games.iter().find(|g| g.round == x.round && g.board != x.board).expect("two boards in a round");
    let g = read(&written(&games, &trf, x, 0, format!("{}.{}", x.round, other.board)), &opts);
    // The organizer's program numbered the boards otherwise than the TRF's
    // order: the players match the round's pairing, so it is told (the
    // board written is in the notice), and the game is published on the
    // TRF's board, as the copies that write none are.
    let f = g.findings.iter().find(|f| f.code == "board-numbered").expect("told");
    assert!(f.message.contains(&format!("board {}", other.board)), "{}", f.message);
    assert_eq!(g.status, Status::Validated, "{:?}", codes(&g));
    assert_eq!(header(&g, "Board"), Some(x.board.to_string().as_str()));
    assert_eq!(header(&g, "White"), Some(trf.player(x.white).name.as_str()));
}

#[test]
fn a_sheet_naming_players_of_no_pairing_gets_pairing_mismatch_with_the_candidates() {
    let (games, trf) = event();
    let opts = with(Tournament::parse(&trf.utf8()).unwrap());
    let x = &trf.games[0];
    let text = sheet(
        &games[x.game],
        &[("Round", x.round.to_string()), ("White", "Zzyzx,Q".into()), ("Black", "Quorbl,W".into())],
    );
    let g = read(&text, &opts);
    assert_eq!(codes(&g), ["language-inferred", "pairing-mismatch"]);
    assert_eq!(header(&g, "White"), Some("Zzyzx,Q"), "the sheet's names are kept");
    // Given its board, the board's pairing is the candidate.
    let text = text.replace(&format!("Round: {}\n", x.round), &format!("Round: {}.{}\n", x.round, x.board));
    let g = read(&text, &opts);
    let f = g.findings.iter().find(|f| f.code == "pairing-mismatch").unwrap();
    assert_eq!(
        f.alternatives,
        [format!("round {}, board {}: {} - {}", x.round, x.board, trf.player(x.white).name, trf.player(x.black).name)]
    );
}

#[test]
fn a_sheet_with_the_colours_reversed_gets_colours_reversed() {
    let (games, trf) = event();
    let opts = with(Tournament::parse(&trf.utf8()).unwrap());
    let x = &trf.games[0];
    let (w, b) = (&trf.player(x.white).name, &trf.player(x.black).name);
    let text = sheet(
        &games[x.game],
        &[("Round", format!("{}.{}", x.round, x.board)), ("White", b.clone()), ("Black", w.clone())],
    );
    let g = read(&text, &opts);
    assert!(codes(&g).contains(&"colours-reversed"), "{:?}", codes(&g));
    assert_eq!(g.status, Status::Review);
    assert_eq!(header(&g, "White"), Some(b.as_str()), "each player keeps the colour the sheet gives");
}

#[test]
fn a_result_written_other_than_the_trfs_is_an_error() {
    let (games, trf) = event();
    let opts = with(Tournament::parse(&trf.utf8()).unwrap());
    // A decisive game that does not end in mate: the result is only what is written.
    let x = trf.games.iter().find(|x| x.result == "1-0" && games[x.game].board.is_none()).expect("a game won by White");
    let text = written(&games, &trf, x, 0, format!("{}.{}", x.round, x.board));
    let text = text.trim_end().strip_suffix("1-0").unwrap().to_string() + "0-1\n";
    let g = read(&text, &opts);
    let f = g.findings.iter().find(|f| f.code == "pairing-result-mismatch").expect("the result differs");
    assert_eq!(f.severity, scoresheet::Severity::Error);
    assert!(f.message.contains("0-1") && f.message.contains("1-0"), "{}", f.message);
    let right = read(&written(&games, &trf, x, 0, format!("{}.{}", x.round, x.board)), &opts);
    assert!(!codes(&right).contains(&"pairing-result-mismatch"));
}

#[test]
fn a_broken_trf_is_refused_with_its_line_and_field() {
    let (_, trf) = event();
    let text = trf.text();
    // The third player's rating made unreadable.
    let lines: Vec<&str> = text.lines().collect();
    let mut broken: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    broken[3].replace_range(48..52, "2x00");
    let broken = broken.join("\n");
    let e = Tournament::parse(broken.as_bytes()).unwrap_err();
    assert!(matches!(e, TrfError::Field { line: 4, field: "rating", .. }), "{e}");
    assert!(e.to_string().starts_with("line 4, rating (columns 49–52)"), "{e}");
    // An opponent the other record does not confirm.
    let x = &trf.games[0];
    let mut wrong: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    let line = x.black as usize; // line 1 is the 012 record
    let col = 91 + 10 * (x.round as usize - 1) + 5;
    wrong[line].replace_range(col..col + 1, "w");
    let e = Tournament::parse(wrong.join("\n").as_bytes()).unwrap_err();
    assert!(matches!(e, TrfError::Round { .. }), "{e}");
    assert!(Tournament::parse(b"not a trf\n").is_err());
}

#[test]
fn convert_with_pairings_fills_the_pgn_and_a_broken_trf_is_said_and_left_out() {
    let (games, mut trf) = event();
    trf.rename(trf.games[0].white, "Hernández, José");
    let x = trf.games[0].clone();
    let dir = TempDir::new().unwrap();
    dir.child("t.trf").write_binary(&trf.latin1()).unwrap();
    let text = written(&games, &trf, &x, 1, format!("{}.{}", x.round, x.board)).replace("Hernández", "Hernandez");
    dir.child("s.txt").write_str(&text).unwrap();
    let out = cargo_bin_cmd!("scoresheet")
        .current_dir(dir.path())
        .args(["convert", "--pairings", "t.trf", "s.txt"])
        .output()
        .unwrap();
    let pgn = std::fs::read_to_string(dir.path().join("s.pgn")).unwrap();
    assert!(pgn.contains("[White \"Hernández, José\"]"), "{pgn}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(pgn.contains(&format!("[Board \"{}\"]", x.board)));

    let mut broken = trf.text();
    broken = broken.replacen("001    2", "001    x", 1);
    dir.child("bad.trf").write_str(&broken).unwrap();
    let out = cargo_bin_cmd!("scoresheet")
        .current_dir(dir.path())
        .args(["convert", "--json", "--pairings", "bad.trf", "s.txt"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("bad.trf: line 3, start number (columns 5–8)"), "{stderr}");
    assert_eq!(out.status.code(), Some(1), "the TRF is a file refused");
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    let game = &json["files"][0]["games"][0];
    assert!(game["headers"].get("WhiteFideId").is_none(), "read without the pairings");
    assert_eq!(game["moves"].as_array().unwrap().len(), games[x.game].sans.len());
}

/// How the dev sheets' own names (as their players typed them) match the
/// pairings of their events, each event's TRF built from the true games of
/// its dev sheets (truth.json): given the round, and given no round at all.
#[test]
#[ignore = "needs the development corpus (SCORESHEET_CORPUS)"]
fn dev_sheets_are_matched_to_the_pairings_of_their_events() {
    use scoresheet_dev::corpus::{dev_sheets, dev_truth};
    let truth: Vec<Value> = serde_json::from_str(&std::fs::read_to_string(dev_truth()).unwrap()).unwrap();
    let mut events: std::collections::BTreeMap<String, Vec<(scoresheet::Sheet, CorpusGame)>> = Default::default();
    for (i, t) in truth.iter().enumerate() {
        let file = t["file"].as_str().unwrap();
        let bytes = std::fs::read(dev_sheets().join(file)).unwrap();
        let Ok(mut sheets) = scoresheet::ingest::read_named(file, &bytes, 1 << 20) else { continue };
        let sheet = sheets.remove(0);
        let text = |k: &str| t[k].as_str().unwrap_or("?").to_string();
        let game = CorpusGame {
            index: i,
            pgn: String::new(),
            tags: vec![("White".into(), text("white")), ("Black".into(), text("black"))],
            written: Vec::new(),
            sans: Vec::new(),
            result: text("result"),
            board: None,
        };
        events.entry(sheet.header("Event").unwrap_or("?").to_string()).or_default().push((sheet, game));
    }
    // [given the round, no round, no round among all 600]: (right, not matched, wrong)
    let mut counts = [(0, 0, 0); 3];
    // The whole set as one tournament too: its names told apart among every
    // pairing of it.
    let all: Vec<(scoresheet::Sheet, CorpusGame)> = events.values().flatten().cloned().collect();
    let mut events: Vec<(String, Vec<(scoresheet::Sheet, CorpusGame)>)> = events.into_iter().collect();
    events.push(("all".into(), all));
    for (e, (name, sheets)) in events.iter().enumerate() {
        let whole = e + 1 == events.len();
        let games: Vec<CorpusGame> = sheets.iter().map(|(_, g)| g.clone()).collect();
        let trf = BuiltTrf::from_games(name, &games);
        let opts = with(Tournament::parse(&trf.utf8()).unwrap());
        for (k, (sheet, _)) in sheets.iter().enumerate() {
            let Some(x) = trf.games.iter().find(|x| x.game == k) else { continue };
            let mut sheet = sheet.clone();
            sheet.headers.retain(|(k, _)| k != "Board" && k != "Round");
            let kinds = if whole { 2..3 } else { 0..2 };
            for (with_round, count) in
                counts.iter_mut().enumerate().filter(|(i, _)| kinds.contains(i)).map(|(i, c)| (i == 0, c))
            {
                let mut s = sheet.clone();
                if with_round {
                    s.headers.push(("Round".into(), x.round.to_string()));
                }
                let g = scoresheet::convert::game_report(&s, &opts);
                let right = header(&g, "White") == Some(trf.player(x.white).name.as_str())
                    && header(&g, "Black") == Some(trf.player(x.black).name.as_str())
                    && header(&g, "Round") == Some(x.round.to_string().as_str());
                if right {
                    count.0 += 1;
                } else if header(&g, "WhiteFideId").is_none() {
                    count.1 += 1;
                    let m: Vec<&String> =
                        g.findings.iter().filter(|f| f.code == "pairing-mismatch").map(|f| &f.message).collect();
                    println!("not matched: {m:?}");
                } else {
                    count.2 += 1;
                    println!("matched wrongly: {:?}", g.headers);
                }
            }
        }
    }
    for (what, (right, none, wrong)) in
        ["given the round", "given no round", "given no round, all in one TRF"].iter().zip(counts)
    {
        println!("dev sheets {what}: {right} matched right, {none} not matched, {wrong} matched wrongly");
    }
    assert_eq!(counts.iter().map(|c| c.2).sum::<usize>(), 0, "no sheet matched to another game");
}

/// An accented spelling of a name, as an organiser's TRF may hold it where
/// the sheets (and the corpus) write it without: `Lahno,K` → `Láhno,K`.
fn accented(name: &str) -> String {
    let mut done = false;
    name.chars()
        .map(|c| match c {
            'a' if !done => {
                done = true;
                'á'
            }
            'e' if !done => {
                done = true;
                'é'
            }
            c => c,
        })
        .collect()
}

#[test]
fn generated_pairs_read_with_their_trf_get_the_canonical_names_and_ratings_and_never_another_games() {
    use scoresheet_dev::generate::derive_seed;
    use scoresheet_dev::pairs::{PairTally, count_pair_in_event, pair_in_event};
    let games: Vec<CorpusGame> = load_range(5000, 50).into_iter().filter(|g| g.sans.len() >= 4).take(40).collect();
    let mut trf = BuiltTrf::from_games("Generated pairs", &games);
    // A few players with accents in the TRF: their sheets write them with
    // or without.
    for start in [1, 4, 9] {
        let name = accented(&trf.player(start).name);
        trf.rename(start, &name);
    }
    let opts = with(Tournament::parse(&trf.utf8()).unwrap());
    let mut t = PairTally::default();
    let mut headers: Vec<(Option<String>, String)> = Vec::new();
    for (i, g) in games.iter().enumerate() {
        let x = trf.games.iter().find(|x| x.game == i).expect("every game is paired");
        let pair = pair_in_event(g, &trf, x, derive_seed(5, i as u64), 0.05);
        for copy in &pair {
            let sheet = scoresheet::ingest::read_named(&copy.file_name, copy.text.as_bytes(), 1 << 20).unwrap();
            let h = |k: &str| sheet[0].header(k).map(str::to_string);
            headers
                .push((h("Round"), format!("{} {}", h("White").unwrap_or_default(), h("Black").unwrap_or_default())));
        }
        let miss = count_pair_in_event(&pair, &opts, &trf, x, &mut t);
        assert!(miss.as_ref().is_none_or(|m| !m.contains("names") && !m.contains("pairing")), "game {i}: {miss:?}");
    }
    println!("{t:?}");
    assert_eq!((t.in_trf, t.grouped), (40, 40), "every pair is read as one game");
    assert_eq!(t.names_filled, t.in_trf, "every game has its players' TRF names");
    assert_eq!(t.ratings_filled, t.rated, "and their TRF ratings");
    assert_eq!(t.wrong_pairing, 0, "no sheet is given another game's pairing");
    // The copies wrote their places and names in every way.
    let unplaced = headers.iter().filter(|(r, _)| r.is_none()).count();
    let boards = headers.iter().filter(|(r, _)| r.as_ref().is_some_and(|r| r.contains('.'))).count();
    assert!(unplaced >= 5 && boards >= 5 && headers.len() - unplaced - boards >= 5, "{headers:?}");
    let has = |f: fn(char) -> bool| headers.iter().any(|(_, n)| n.chars().any(f));
    assert!(has(|c| matches!(c, 'а'..='я' | 'А'..='Я')), "some names in Cyrillic");
    assert!(has(|c| matches!(c, 'á' | 'é')), "some with the TRF's accents");
}

#[test]
fn two_copies_one_giving_only_the_names_are_one_game_through_the_trf() {
    let (games, trf) = event();
    let opts = with(Tournament::parse(&trf.utf8()).unwrap());
    // Players who meet once in the event: their names tell the game.
    let once = |x: &&TrfGame| {
        trf.games
            .iter()
            .filter(|y| [y.white, y.black].contains(&x.white) && [y.white, y.black].contains(&x.black))
            .count()
            == 1
    };
    let x = trf.games.iter().find(once).expect("a pairing met once");
    let a = written(&games, &trf, x, 0, format!("{}.{}", x.round, x.board));
    let b = written(&games, &trf, x, 1, "?".into());
    let inputs = [("a.txt".to_string(), Ok(a.into_bytes())), ("b.txt".to_string(), Ok(b.into_bytes()))];
    let (reports, notes) = scoresheet::convert::convert_together(&inputs, &opts);
    assert!(notes.is_empty(), "{notes:?}");
    let g = &reports[1].games[0];
    assert_eq!(g.sheets, Some(["a.txt".to_string(), "b.txt".to_string()]), "read as one game");
    assert_eq!(header(g, "White"), Some(trf.player(x.white).name.as_str()));
    assert_eq!(header(g, "Board"), Some(x.board.to_string().as_str()));
    // Without the pairings too: the players' only game among the sheets.
    let (reports, _) = scoresheet::convert::convert_together(&inputs, &Options::default());
    assert_eq!(reports[1].games[0].sheets, Some(["a.txt".to_string(), "b.txt".to_string()]));
}

#[test]
fn a_clean_sheet_of_another_event_is_read_as_if_no_trf_were_loaded() {
    let (games, trf) = event();
    let opts = with(Tournament::parse(&trf.utf8()).expect("the built TRF"));
    let g = &games[0];
    // Another event's game, whose players the TRF does not know.
    let other = [
        ("Event", "Campeonato de Madrid".to_string()),
        ("Round", "3".to_string()),
        ("White", "Pérez, Ana".to_string()),
        ("Black", "Ruiz, Bea".to_string()),
    ];
    let report = read(&sheet(g, &other), &opts);
    assert_eq!(report.status, Status::Validated, "{:?}", report.findings);
    assert!(report.findings.iter().all(|f| !f.code.starts_with("pairing")), "{:?}", report.findings);
    assert_eq!(header(&report, "Event"), Some("Campeonato de Madrid"));
    // The same sheet giving no event, or the TRF's event, is read against it.
    for event in [None, Some(trf.name.clone())] {
        let mut headers = other[1..].to_vec();
        headers.extend(event.map(|e| ("Event", e)));
        let report = read(&sheet(g, &headers), &opts);
        assert!(report.findings.iter().any(|f| f.code == "pairing-mismatch"), "{:?}", report.findings);
    }
}
