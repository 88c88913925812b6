//! The budget of work per game and per file: junk sheets a hostile tester
//! drops finish quickly, with a finding, and never hold a worker of the
//! daemon. Times are printed; the assertions are on work units, findings and
//! bounds generous enough for any machine.

use std::fs;
use std::path::Path;
use std::time::{Duration, Instant};

use scoresheet::config::Watch;
use scoresheet::convert::convert_together;
use scoresheet::daemon::{DaemonConfig, Folders, run};
use scoresheet::dev::read_pair;
use scoresheet::dev::{FileBudget, PairBudget, reconstruct_within};
use scoresheet::ingest::{Format, read};
use scoresheet::reconstruct::Settings;
use scoresheet::{Limits, Options, Status, convert};
use scoresheet_dev::generate::{Rng, long_game};

/// Far above any of these on any machine: unbounded, each would take minutes.
const GENEROUS: Duration = Duration::from_secs(30);

/// `K0: a`, `K1: a` ... one a line.
fn key_lines(n: usize) -> Vec<u8> {
    (0..n).map(|i| format!("K{i}: a\n")).collect::<String>().into_bytes()
}

/// `n` illegible boxes, numbered in pairs.
fn boxes(n: usize) -> Vec<u8> {
    (0..n)
        .map(|i| if i % 2 == 0 { format!("{}. ?", i / 2 + 1) } else { "?".into() })
        .collect::<Vec<_>>()
        .join(" ")
        .into_bytes()
}

/// Moves that each name a square, at random: most are no legal move, so
/// nearly every entry sends the search looking.
fn random_squares(n: usize, seed: u64) -> Vec<u8> {
    let mut x = seed;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let pieces = ["", "N", "B", "R", "Q", "K"];
    (0..n)
        .map(|_| {
            let r = next();
            let file = (b'a' + (r % 8) as u8) as char;
            let rank = (b'1' + ((r >> 8) % 8) as u8) as char;
            format!("{}{file}{rank}", pieces[((r >> 16) % 6) as usize])
        })
        .collect::<Vec<_>>()
        .join(" ")
        .into_bytes()
}

/// Reads the one game of `text` within a fresh file budget: the game and the
/// work it took.
fn read_game(text: &[u8]) -> (scoresheet::Game, u64) {
    let sheet = &read(text, Format::Text, 4 << 20).unwrap()[0];
    let settings = Settings::default();
    let mut budget = FileBudget::new(&settings.params.limits);
    let game = reconstruct_within(sheet, &settings, &mut budget);
    (game, budget.spent())
}

fn codes(game: &scoresheet::Game) -> Vec<&'static str> {
    game.findings.iter().map(|f| f.code()).collect()
}

fn timed<T>(what: &str, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let out = f();
    let took = start.elapsed();
    println!("{what}: {took:.2?}");
    assert!(took < GENEROUS, "{what} took {took:?}");
    out
}

#[test]
fn a_thousand_key_lines_are_not_read_as_moves() {
    for n in [1_000, 100_000] {
        let bytes = key_lines(n);
        let report = timed(&format!("{n} lines of `K0: a` ({} bytes)", bytes.len()), || {
            convert("junk.txt", &bytes, &Options { max_file_bytes: 4 << 20, ..Options::default() })
        });
        // Not a move among them: the file is turned away, not searched.
        let error = report.error.as_deref().unwrap_or_default();
        assert!(error.starts_with("no moves found: none of the file's"), "{error}");
    }
}

#[test]
fn a_note_typed_after_the_moves_is_kept_as_a_comment_not_read_as_moves() {
    let report = convert("note.txt", b"1.e4 e5 2.Cf3 Cc6\nNota: blancas en apuros\n3.Ab5 a6 1-0", &Options::default());
    let game = &report.games[0];
    assert_eq!(game.moves, ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]);
    assert_eq!(game.status, Status::Validated);
    let pgn = game.pgn.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(pgn.contains("Nc6 {Nota: blancas en apuros} 3. Bb5"), "{pgn}");
}

#[test]
fn a_sheet_of_150_illegible_boxes_stops_at_its_budget_with_a_finding() {
    let (game, work) = timed("150 illegible boxes", || read_game(&boxes(150)));
    println!("  work units: {work}, findings {:?}", codes(&game));
    assert!(codes(&game).contains(&"search-budget"));
    assert!(work <= Limits::default().work_per_game + 1_000_000, "{work} units");
}

#[test]
fn a_long_run_of_entries_that_name_no_move_is_not_searched() {
    // `K0 a` without the colon: entries, but none names a move (900 lines:
    // 1,800 entries, under the 1,000 moves a record may have).
    let text: String = (0..900).map(|i| format!("K{i} a\n")).collect();
    let (game, work) = timed("900 lines of `K0 a`", || read_game(text.as_bytes()));
    assert!(game.moves.is_empty());
    assert_eq!(codes(&game)[1..], ["illegal-move"]);
    assert!(work < 100_000, "{work} units: searched");
    // After a real game, the run is where reading stops; the moves stay.
    let text = format!("1.e4 e5 2.Nf3 Nc6 3.Bb5 a6\n{text}");
    let (game, work) = read_game(text.as_bytes());
    assert_eq!(game.moves.len(), 6);
    assert!(codes(&game).contains(&"illegal-move"));
    assert!(work < 100_000, "{work} units: searched");
}

#[test]
fn moves_that_send_the_search_looking_at_every_entry_stop_at_the_budget() {
    let (game, work) = timed("2,000 random moves", || read_game(&random_squares(2000, 7)));
    println!("  work units: {work}, moves kept {}", game.moves.len());
    // Spent while reading (the game kept up to there) or weighing its doubts.
    assert!(codes(&game).contains(&"search-budget"), "{:?}", codes(&game));
    // The units spent past the budget: at most one window's entry.
    assert!(work <= Limits::default().work_per_game + 1_000_000, "{work} units");
}

#[test]
fn a_file_of_many_junk_games_shares_one_budget() {
    let game = String::from_utf8(random_squares(2000, 11)).unwrap();
    let pgn: String = (0..4).map(|i| format!("[Round \"{i}\"]\n\n{game} *\n\n")).collect();
    let limits = Limits::default();
    let sheets = read(pgn.as_bytes(), Format::Pgn, 4 << 20).unwrap();
    let settings = Settings::default();
    let mut budget = FileBudget::new(&limits);
    let games: Vec<_> = timed("4 junk games in one file", || {
        sheets.iter().map(|s| reconstruct_within(s, &settings, &mut budget)).collect()
    });
    println!("  work units: {}", budget.spent());
    assert!(budget.exhausted());
    assert!(budget.spent() <= limits.work_per_file + 2_000_000, "{} units", budget.spent());
    assert!(games.iter().all(|g| codes(g).contains(&"search-budget")));
}

/// Waits up to `GENEROUS` for `done`.
fn wait_for(what: &str, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < GENEROUS, "gave up waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .map(|d| d.flatten().filter(|e| e.path().is_file()).map(|e| e.file_name().to_string_lossy().into()).collect())
        .unwrap_or_default();
    names.retain(|n: &String| !n.starts_with('.'));
    names.sort();
    names
}

/// The daemon on `root` in this process, two workers, until the sender is dropped.
fn daemon(root: &Path) -> (std::thread::JoinHandle<usize>, tokio::sync::oneshot::Sender<()>) {
    let watch = Watch { workers: 2, settle_ms: 100, ..Watch::default() };
    let config = DaemonConfig { folders: Folders::new(&watch, Some(root)), options: Options::default(), watch };
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let handle = std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
        runtime.block_on(async {
            run(config, async {
                stopped.await.ok();
            })
            .await
            .unwrap()
            .done
        })
    });
    (handle, stop)
}

fn drop_file(inbox: &Path, name: &str, bytes: &[u8]) {
    let tmp = inbox.join(format!(".{name}.part"));
    fs::write(&tmp, bytes).unwrap();
    fs::rename(&tmp, inbox.join(name)).unwrap();
}

#[test]
fn a_real_sheet_dropped_behind_two_junk_files_is_done_at_once_and_the_junk_is_not_redone() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let (handle, stop) = daemon(root);
    let inbox = root.join("inbox");
    wait_for("the inbox", || inbox.is_dir());
    // Let the watcher settle on the inbox before dropping.
    std::thread::sleep(Duration::from_millis(300));
    // Each would hold a worker for minutes, unbounded: lines that are no movetext.
    drop_file(&inbox, "junk-1.txt", &key_lines(1000));
    let nameless: String = (0..1000).map(|i| format!("K{i} a\n")).collect();
    drop_file(&inbox, "junk-2.txt", nameless.as_bytes());
    std::thread::sleep(Duration::from_millis(50));
    let start = Instant::now();
    drop_file(&inbox, "mesa-7.txt", b"Blancas: Ana\nNegras: Luis\n\n1.e4 e5 2.Cf3 Cc6 3.Ab5 a6 1-0\n");
    wait_for("the real sheet", || files(&root.join("pgn")).len() == 1);
    let took = start.elapsed();
    println!("the real sheet behind two junk files: done in {took:.2?}");
    // And one that spends its budget: to review, with the finding.
    drop_file(&inbox, "junk-3.txt", &random_squares(2000, 3));
    wait_for("every file archived", || files(&root.join("archive")).len() == 4);
    let rejected = files(&root.join("rejected"));
    assert_eq!(rejected.iter().filter(|n| n.ends_with(".error.txt")).count(), 2, "{rejected:?}");
    let review = files(&root.join("review"));
    let reports: String = review
        .iter()
        .filter(|n| n.ends_with(".json"))
        .map(|n| fs::read_to_string(root.join("review").join(n)).unwrap())
        .collect();
    assert_eq!(reports.matches("\"search-budget\"").count(), 1, "{review:?}");
    drop(stop);
    assert_eq!(handle.join().unwrap(), 4);

    // Restarted, the daemon finds nothing to do again: the junk files
    // finished within their budget and were archived.
    let (handle, stop) = daemon(root);
    std::thread::sleep(Duration::from_millis(1500));
    drop(stop);
    assert_eq!(handle.join().unwrap(), 0, "a file done before the restart was done again");
    assert_eq!(files(&root.join("archive")).len(), 4);
    assert_eq!(files(&root.join("review")).len(), review.len());
}

#[test]
fn a_record_past_a_thousand_moves_is_refused_at_the_line_where_it_passes() {
    // One megabyte of `e4 e5` lines: once 2.6 s and 837 MB, read as one game.
    let text = "e4 e5\n".repeat(166_666);
    let err = read(text.as_bytes(), Format::Text, 4 << 20).unwrap_err();
    assert_eq!(err.line(), Some(1001), "{err}");
    assert!(err.to_string().contains("passes 1000 moves"), "{err}");
    // A thousand moves exactly is still a record.
    let moves: String = (1..=1000).map(|n| format!("{n}. ?? ??\n")).collect();
    assert!(read(moves.as_bytes(), Format::Text, 4 << 20).is_ok());
}

/// One copy of game `round` as a text sheet: every `every`-th move written
/// with a wrong rank, from `shift` on.
fn long_copy(round: usize, moves: &[String], every: usize, shift: usize) -> String {
    let written: Vec<String> = moves
        .iter()
        .enumerate()
        .map(|(k, m)| {
            if !(k + shift).is_multiple_of(every) {
                return m.clone();
            }
            let s: String = m.chars().filter(|c| !"+#".contains(*c)).collect();
            match s.chars().last() {
                Some(r @ '1'..='7') => format!("{}{}", &s[..s.len() - 1], (r as u8 + 1) as char),
                _ => m.clone(),
            }
        })
        .collect();
    let lines: Vec<String> =
        written.chunks(2).enumerate().map(|(i, pair)| format!("{}. {}", i + 1, pair.join(" "))).collect();
    format!("Round: {round}\nWhite: Alpha{round}, Ann\nBlack: Beta{round}, Bob\n\n{}\n\n", lines.join("\n"))
}

#[test]
fn both_copies_of_many_long_games_in_one_file_share_its_budget() {
    let text: String = (1..=5)
        .map(|r| {
            let game = long_game(&mut Rng::new(r as u64 * 7919), 900);
            long_copy(r, &game, 9, 0) + &long_copy(r, &game, 11, 4)
        })
        .collect();
    let sheets = read(text.as_bytes(), Format::Text, 4 << 20).unwrap();
    assert_eq!(sheets.len(), 10);
    let limits = Limits::default();
    let settings = Settings::default();
    let mut budget = FileBudget::new(&limits);
    let games: Vec<_> = timed("5 games of 900 plies, both copies in one file", || {
        sheets
            .chunks(2)
            .map(|pair| {
                let shared = PairBudget::Shared(&mut budget);
                read_pair([&pair[0], &pair[1]], ["a.txt", "a.txt"], &settings, shared).game
            })
            .collect()
    });
    println!(
        "  work units: {}; moves read: {:?}",
        budget.spent(),
        games.iter().map(|g| g.moves.len()).collect::<Vec<_>>()
    );
    // Both copies and their weighing together are the file's work: at most
    // the file's budget and one window's entry past it.
    assert!(budget.spent() <= limits.work_per_file + 2_000_000, "{} units", budget.spent());
    assert!(budget.exhausted());
    let last = games.last().unwrap();
    assert!(codes(last).contains(&"search-budget"), "{:?}", codes(last));
    // Cut by the budget is a doubt for the arbiter, not a file that cannot be read.
    let report = convert_together(&[("a.txt".into(), Ok(text.into_bytes()))], &Options::default()).0;
    let statuses: Vec<Status> = report[0].games.iter().map(|g| g.status).collect();
    assert!(!statuses.contains(&Status::Rejected), "{statuses:?}");
}
