//! The results handed back to the pairing program: `pgn/<event>/results.trf`
//! from `watch`, and `convert --pairings T --results-out F`. A round in
//! progress comes as pairing programs export it (opponent and colour, the
//! result blank, the points as they stood before the round) and goes back
//! with the results of the games read, in TRF-16 and TRF26, byte for byte
//! the given file but for the result columns and the points.

mod daemon_support;
use daemon_support::*;

use std::fs;
use std::path::Path;
use std::process::Command;

use scoresheet::pairing::Tournament;
use scoresheet::sheet::GameResult;
use scoresheet_dev::corpus::{CorpusGame, load_range};
use scoresheet_dev::trf::{BuiltTrf, TrfGame, largest_event};

fn event() -> (Vec<CorpusGame>, BuiltTrf) {
    largest_event(load_range(0, 2000))
}

/// The round with the most games.
fn busiest(trf: &BuiltTrf) -> u32 {
    let count = |r: u32| trf.games.iter().filter(|g| g.round == r).count();
    trf.games.iter().map(|g| g.round).max_by_key(|&r| (count(r), std::cmp::Reverse(r))).unwrap()
}

/// The TRF as a pairing program exports it while round `r` is played:
/// the rounds after it left out, round `r`'s results blank, the points
/// those of the rounds before. With `trf26`, the TRF26 records a pairing
/// program writes around the players (city, dates, time control, round
/// dates) and a comment.
fn in_progress(trf: &BuiltTrf, r: u32, trf26: bool) -> String {
    let mut out = String::new();
    for line in trf.text().lines() {
        if !line.starts_with("001") {
            out.push_str(line);
            out.push('\n');
            if trf26 {
                out.push_str("022 Sitges\n042 2026/12/01\n052 2026/12/09\n### exported while the round is played\n");
                out.push_str("132                                                                                        26/12/01  26/12/02\n");
                out.push_str("222 5400+30\n");
            }
            continue;
        }
        let mut chars: Vec<char> = line.chars().collect();
        chars.truncate(89 + 10 * r as usize);
        let before: f64 = (0..r as usize - 1)
            .map(|k| match chars.get(98 + 10 * k) {
                Some('1') => 1.0,
                Some('=') => 0.5,
                _ => 0.0,
            })
            .sum();
        let block = 91 + 10 * (r as usize - 1);
        let opponent: String = chars.get(block..block + 4).map(|c| c.iter().collect()).unwrap_or_default();
        if opponent.trim().parse::<u32>().is_ok_and(|o| o > 0) {
            chars[block + 7] = ' ';
        }
        let points: Vec<char> = format!("{before:>4.1}").chars().collect();
        chars[80..84].copy_from_slice(&points);
        out.push_str(chars.iter().collect::<String>().trim_end());
        out.push('\n');
    }
    out
}

/// A text sheet of game `x`: round and board, the TRF's names, the moves and result.
fn sheet(games: &[CorpusGame], trf: &BuiltTrf, x: &TrfGame) -> String {
    let mut s = format!(
        "Event: {}\nRound: {}.{}\nWhite: {}\nBlack: {}\n\n",
        trf.name,
        x.round,
        x.board,
        trf.player(x.white).name,
        trf.player(x.black).name
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

/// The columns (1-based, by line) where `a` and `b` differ; they must have the same lines.
fn changed_columns(a: &str, b: &str) -> Vec<(usize, usize)> {
    let (la, lb): (Vec<&str>, Vec<&str>) = (a.lines().collect(), b.lines().collect());
    assert_eq!(la.len(), lb.len(), "the same lines");
    let mut out = Vec::new();
    for (n, (x, y)) in la.iter().zip(&lb).enumerate() {
        let (x, y): (Vec<char>, Vec<char>) = (x.chars().collect(), y.chars().collect());
        for c in 0..x.len().max(y.len()) {
            if x.get(c).unwrap_or(&' ') != y.get(c).unwrap_or(&' ') {
                out.push((n + 1, c + 1));
            }
        }
    }
    out
}

/// What a pairing program checks of the file it is handed back: it reads,
/// the games read have their results in round `r`, the others are still
/// blank, and nothing changed but round `r`'s result columns and the points.
fn check_results(given: &str, back: &str, trf: &BuiltTrf, r: u32, read: &[&TrfGame]) {
    let t = Tournament::parse(back.as_bytes()).expect("the results file reads");
    for x in trf.games.iter().filter(|g| g.round == r) {
        let p = t.round(r).find(|p| (p.white, p.black) == (x.white, x.black)).expect("the pairing kept");
        let want = read.iter().any(|g| (g.white, g.black) == (x.white, x.black)).then(|| GameResult::parse(&x.result));
        assert_eq!(p.result, want.flatten(), "round {r}, {} - {}", x.white, x.black);
    }
    let result_column = 91 + 10 * (r as usize - 1) + 8;
    for (line, column) in changed_columns(given, back) {
        assert!((81..=84).contains(&column) || column == result_column, "line {line}, column {column} changed");
    }
    // Each player's points: those before the round and the game read.
    for p in &t.players {
        let before =
            Tournament::parse(given.as_bytes()).unwrap().player(p.start).unwrap().points.parse::<f64>().unwrap();
        let won: f64 = read
            .iter()
            .filter(|g| g.white == p.start || g.black == p.start)
            .map(|g| match (g.result.as_str(), g.white == p.start) {
                ("1/2-1/2", _) => 0.5,
                ("1-0", true) | ("0-1", false) => 1.0,
                _ => 0.0,
            })
            .sum();
        assert_eq!(p.points.parse::<f64>().unwrap(), before + won, "player {}", p.start);
    }
}

#[test]
fn watch_hands_back_a_trf26_round_in_progress_with_the_results_of_the_games_read() {
    let (games, trf) = event();
    let r = busiest(&trf);
    let given = in_progress(&trf, r, true);
    let round: Vec<&TrfGame> = trf.games.iter().filter(|g| g.round == r).collect();
    assert!(round.len() >= 3, "round {r} has {} games", round.len());
    let (_t, root) = setup();
    let daemon = start(&root);
    let inbox = root.join("inbox");
    drop_file(&inbox, "round.trf", given.as_bytes());
    wait_for("the TRF", || names(&root.join("archive")).len() == 1);
    // Two boards read; the others still being played.
    let read = &round[..2];
    for (k, x) in read.iter().enumerate() {
        drop_file(&inbox, &format!("b{k}.txt"), sheet(&games, &trf, x).as_bytes());
    }
    // The event's folder, whatever it is named from the TRF's name.
    let results_in = |root: &Path| -> Option<std::path::PathBuf> {
        let dirs = fs::read_dir(root.join("pgn")).ok()?;
        dirs.flatten().map(|e| e.path().join("results.trf")).find(|p| p.exists())
    };
    let done = || {
        results_in(&root)
            .and_then(|p| fs::read(p).ok())
            .and_then(|b| Tournament::parse(&b).ok())
            .is_some_and(|t| t.round(r).filter(|p| p.result.is_some()).count() == read.len())
    };
    wait_for("the results of the two boards", done);
    daemon.stop();
    let back = fs::read_to_string(results_in(&root).unwrap()).unwrap();
    check_results(&given, &back, &trf, r, read);
    assert!(back.contains("222 5400+30\n") && back.contains("### exported while"), "the TRF26 records kept");
}

#[test]
fn convert_writes_the_results_into_a_latin1_trf16_round_in_progress() {
    let (games, trf) = event();
    let r = busiest(&trf);
    let given = in_progress(&trf, r, false);
    let latin1: Vec<u8> = given.chars().map(|c| u8::try_from(u32::from(c)).unwrap_or(b'?')).collect();
    let dir = tempfile::tempdir().unwrap();
    let (trf_path, out) = (dir.path().join("round.trf"), dir.path().join("results.trf"));
    fs::write(&trf_path, &latin1).unwrap();
    let round: Vec<&TrfGame> = trf.games.iter().filter(|g| g.round == r).collect();
    let read = &round[..2];
    let mut files = Vec::new();
    for (k, x) in read.iter().enumerate() {
        let f = dir.path().join(format!("b{k}.txt"));
        fs::write(&f, sheet(&games, &trf, x)).unwrap();
        files.push(f);
    }
    let run = Command::new(env!("CARGO_BIN_EXE_scoresheet"))
        .args(["convert", "--output"])
        .arg(dir.path().join("pgn"))
        .arg("--pairings")
        .arg(&trf_path)
        .arg("--results-out")
        .arg(&out)
        .args(&files)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{said}");
    assert!(said.contains("2 results written"), "{said}");
    let back = fs::read(&out).unwrap();
    assert!(std::str::from_utf8(&back).is_err() || latin1.is_ascii(), "Latin-1 stays Latin-1");
    let text = |b: &[u8]| b.iter().map(|&c| char::from(c)).collect::<String>();
    check_results(&text(&latin1), &text(&back), &trf, r, read);
    // Without --pairings, --results-out is refused by the command line.
    let lone = Command::new(env!("CARGO_BIN_EXE_scoresheet"))
        .args(["convert", "--results-out"])
        .arg(dir.path().join("x.trf"))
        .arg(&files[0])
        .output()
        .unwrap();
    assert!(!lone.status.success());
    assert!(!Path::new(&dir.path().join("x.trf")).exists());
}

#[test]
fn the_shipped_pairings_take_the_shipped_sheets_result_on_board_seven() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (trf, sheet) =
        (root.join("examples/pairings/torneo-escolar.trf"), root.join("examples/sheets/scholars-mate-es.txt"));
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("results.trf");
    let run = Command::new(env!("CARGO_BIN_EXE_scoresheet"))
        .args(["convert", "--json", "--pairings"])
        .arg(&trf)
        .arg("--results-out")
        .arg(&out)
        .arg(&sheet)
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let (given, back) = (fs::read_to_string(&trf).unwrap(), fs::read_to_string(&out).unwrap());
    let t = Tournament::parse(back.as_bytes()).unwrap();
    let seventh = t.at(2, 7).expect("round 2 has seven boards");
    assert_eq!((seventh.white, seventh.black, seventh.result), (13, 14, Some(GameResult::WhiteWins)));
    assert_eq!(t.round(2).filter(|p| p.result.is_none()).count(), 6, "the other boards still to come");
    assert_eq!((t.players[12].points.as_str(), t.players[13].points.as_str()), ("1.5", "0.5"));
    let changed = changed_columns(&given, &back);
    assert!(changed.iter().all(|&(_, c)| c == 109 || (81..=84).contains(&c)), "{changed:?}");
}
