//! `scoresheet watch` ended at each of its named steps (`daemon::crash`: a
//! test build aborts at `SCORESHEET_CRASH_AT=<step>`), then started again:
//! an event with two copies of most games, a TRF that comes mid-way (named
//! by the config of the restart, when it crashed before it: the redo then
//! reads the sheet with pairings its first attempt did not have), a
//! decision on the game left in review. After the restart the folders must be those of a
//! run never interrupted: no game lost, none twice, none both in pgn/ and
//! review/, nothing left waiting, the round file and `results.trf` the same.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use scoresheet_dev::corpus::load_range;

mod daemon_support;
use daemon_support::*;

const PLAYERS: [&str; 8] = [
    "Alonso, Ana",
    "Blanco, Berta",
    "Castro, Carla",
    "Diaz, Dora",
    "Estevez, Elena",
    "Fuentes, Flor",
    "Garcia, Gema",
    "Herrera, Hilda",
];

/// Round 1 of eight players, board `b` White `2b-1` against Black `2b`, no
/// result given yet.
fn trf() -> String {
    let mut lines = vec!["012 Open".to_string(), "042 2026/12/01".to_string()];
    for (k, name) in PLAYERS.iter().enumerate() {
        let n = k as u32 + 1;
        let (o, c) = if n % 2 == 1 { (n + 1, 'w') } else { (n - 1, 'b') };
        let line = format!("001 {n:>4} f    {name:<33} 1800 ESP {:>11} 2000/01/01 {:>4} {n:>4}  {o:>4} {c}", 0, "0.0");
        lines.push(line);
    }
    lines.join("\n") + "\n"
}

/// A copy of board `board`'s game; Black's writes the names short.
fn sheet(board: usize, sans: &[String], result: &str, black: bool) -> String {
    let (w, b) = (PLAYERS[2 * board - 2], PLAYERS[2 * board - 1]);
    let short = |n: &str| n.split_once(", ").map_or(n.to_string(), |(s, g)| format!("{s}, {}", &g[..1]));
    let (w, b) = if black { (short(w), short(b)) } else { (w.to_string(), b.to_string()) };
    let headers = format!("Event: Open\nRound: 1\nBoard: {board}\nWhite: {w}\nBlack: {b}\n");
    typed_sheet(&headers, sans, sans.len(), result)
}

/// The files of the event in the order they are dropped: White's copies of
/// boards 1 to 3 and the one copy of board 4 (a box nobody could read: it
/// waits in review), the TRF, Black's copies of boards 1 to 3 (board 3's
/// typed with a slip), the decision on board 4.
fn event() -> Vec<(String, String)> {
    let games = load_range(1200, 60);
    let long: Vec<_> = games.iter().filter(|g| g.sans.len() >= 30 && g.sans.len() <= 80).take(3).collect();
    let mut files = Vec::new();
    for (i, g) in long.iter().enumerate() {
        files.push((format!("b{}-white.txt", i + 1), sheet(i + 1, &g.sans, &g.result, false)));
    }
    let doubt = "Event: Open\nRound: 1\nBoard: 4\nWhite: Garcia, Gema\nBlack: Herrera, Hilda\n\n\
                 1.e4 e5 2.Cf3 ? 3.Ab5 a6 4.Aa4 Cf6 5.0-0 Ae7 1-0\n";
    files.push(("b4-white.txt".to_string(), doubt.to_string()));
    files.push(("open.trf".to_string(), trf()));
    for (i, g) in long.iter().enumerate() {
        let mut sans = g.sans.clone();
        if i == 2 {
            // A slip the other copy mends: the capital of a bishop typed small.
            if let Some(k) = sans.iter().position(|m| m.starts_with('B')) {
                sans[k] = format!("b{}", &sans[k][1..]);
            }
        }
        files.push((format!("b{}-black.txt", i + 1), sheet(i + 1, &sans, &g.result, true)));
    }
    files.push(("DECISION".to_string(), "decision: accept\nmoves: {\"2...\": Nc6}\narbiter: Ana\n".to_string()));
    files
}

/// Nothing left to do: the inbox empty, no file claimed by any daemon.
fn quiet(root: &Path) -> bool {
    let work = root.join(".work");
    let claimed = fs::read_dir(&work).map(|d| d.flatten().map(|e| names(&e.path()).len()).sum()).unwrap_or(0usize);
    names(&root.join("inbox")).is_empty() && claimed == 0
}

/// What a user checks of the folders once the event is in.
#[derive(Debug, PartialEq, Eq)]
struct State {
    /// Each game of pgn/ and review/: folder, players, result, sheets, moves.
    games: Vec<String>,
    /// The games of the round file.
    round: Vec<String>,
    results: String,
    /// The sheets and decisions kept in archive/ (each file dropped, once).
    archived: Vec<String>,
    /// Records still pending, files still in the inbox or claimed.
    waiting: usize,
}

fn state(root: &Path) -> State {
    let mut games = Vec::new();
    for folder in ["pgn", "review"] {
        for (_, t) in games_in(&root.join(folder)) {
            let v = |k| tag(&t, k).unwrap_or_default();
            let moves = moves_of(&t);
            games.push(format!("{folder}: {} - {} {} [{}] {moves}", v("White"), v("Black"), v("Result"), v("Sheets")));
        }
    }
    games.sort();
    let mut round = round_file_games(&root.join("pgn"));
    round.sort();
    let results = fs::read_to_string(root.join("pgn").join("Open").join("results.trf")).unwrap_or_default();
    let pending = pending_records(root);
    let waiting = pending + usize::from(!quiet(root));
    // The TRF is archived where it was dropped into the inbox, not where the
    // config named it.
    let archived = names(&root.join("archive")).into_iter().filter(|n| !n.ends_with(".trf")).collect();
    State { games, round, results, archived, waiting }
}

/// What `got` has that `want` has not, and the other way round.
fn difference(want: &State, got: &State) -> String {
    let apart = |a: &[String], b: &[String]| -> Vec<String> { a.iter().filter(|x| !b.contains(x)).cloned().collect() };
    let mut out = String::new();
    for (what, w, g) in [
        ("games", &want.games, &got.games),
        ("round file", &want.round, &got.round),
        ("archive", &want.archived, &got.archived),
    ] {
        let (missing, extra) = (apart(w, g), apart(g, w));
        if !missing.is_empty() || !extra.is_empty() || w.len() != g.len() {
            out += &format!("{what}: missing {missing:#?}, extra {extra:#?}, {} for {}\n", g.len(), w.len());
        }
    }
    if want.results != got.results {
        out += &format!("results.trf: {}\n", got.results);
    }
    if want.waiting != got.waiting {
        out += &format!("waiting: {}\n", got.waiting);
    }
    out
}

/// The event dropped file by file into a daemon that ends at `step` (none:
/// never), started again each time it ends; its state once all is in, and
/// whether it ended.
fn run(step: Option<&str>) -> (State, bool) {
    let (_t, root) = setup();
    let env: Vec<(&str, &str)> = step.map(|s| ("SCORESHEET_CRASH_AT", s)).into_iter().collect();
    let mut daemon = start_env(&root, &[], &[], &env);
    let inbox = root.join("inbox");
    let mut crashed = false;
    let files = event();
    let mut trf_in = false;
    for (name, text) in &files {
        if name == "open.trf" && trf_in {
            continue;
        }
        let name = match name.as_str() {
            // The decision names the game of board 4 in review/.
            "DECISION" => {
                let review = games_in(&root.join("review"));
                let Some((n, _)) = review.iter().find(|(_, t)| tag(t, "White").is_some_and(|w| w.contains("Garcia")))
                else {
                    panic!("board 4 waits in review: {review:?}")
                };
                format!("{}.decision.yaml", n.trim_end_matches(".pgn"))
            }
            n => n.to_string(),
        };
        trf_in |= name == "open.trf";
        drop_file(&inbox, &name, text.as_bytes());
        let done = |d: &Daemon| d.log().contains(&format!("done file={name} "));
        wait_for(&format!("{name} done, or the daemon ended"), || done(&daemon) || daemon.exited());
        if daemon.exited() {
            crashed = true;
            // The TRF comes while the daemon is down, named by its config,
            // which loads it before anything else: the redo reads the sheet
            // with pairings its first attempt did not have.
            daemon = match trf_in {
                true => start(&root),
                false => {
                    fs::write(root.join("open.trf"), trf()).unwrap();
                    let config = root.parent().unwrap().join("config.yaml");
                    fs::write(&config, "watch:\n  pairings: open.trf\n").unwrap();
                    trf_in = true;
                    start_with(&root, &["--config", config.to_str().unwrap()])
                }
            };
            wait_for(&format!("{name} done after the restart"), || done(&daemon) && quiet(&root));
        }
    }
    wait_for("all done", || quiet(&root));
    let log = daemon.stop();
    assert!(!log.contains("panicked"), "{log}");
    (state(&root), crashed)
}

/// Every named step of `daemon::crash`, some at a later time they are
/// reached (`#n`: the n-th time in the daemon's life). The first four sheets are read before the TRF (a crash there restarts with
/// it), the next ones after it, each with its game's other copy.
const STEPS: &[&str] = &[
    "claim",
    "claim#6",
    "read",
    "read#6",
    "publish.pending",
    "publish.pending#6",
    "publish.placed",
    "publish.placed#5",
    "publish.placed#6",
    "publish.archived",
    "publish.archived#5",
    "publish.record",
    "publish.record#6",
    "publish.recorded#7",
    "round.saved#2",
    "results.written",
    "trf.kept",
    "trf.reread",
    "trf.reread#3",
    "trf.paid",
    "decision.kept",
    "decision.placed",
    "decision.recorded",
];

#[test]
fn ended_at_every_named_step_and_started_again_the_event_ends_as_if_never_interrupted() {
    let (want, crashed) = run(None);
    assert!(!crashed);
    assert_eq!(want.waiting, 0, "{want:#?}");
    assert_eq!(want.games.iter().filter(|g| g.starts_with("pgn:")).count(), 4, "{want:#?}");
    assert!(!want.results.is_empty(), "{want:#?}");
    let mut failed: BTreeMap<&str, String> = BTreeMap::new();
    for step in STEPS {
        let (got, crashed) = run(Some(step));
        if !crashed {
            failed.insert(step, "never reached".to_string());
        } else if got != want {
            failed.insert(step, difference(&want, &got));
        }
    }
    assert!(failed.is_empty(), "want {want:#?}\nfailed at {} steps: {failed:#?}", failed.len());
}
