//! `scoresheet watch` driven as organizers use it: the real binary on real
//! folders in a temporary directory, files dropped the way copy tools and
//! editors drop them, the daemon killed and restarted.
//!
//! The waits below are deadlines against a hang, not timings: every figure
//! about speed is printed by the `latency` tool of `crates/scoresheet-dev`.

use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

use scoresheet_dev::corpus::{CorpusGame, load};
use scoresheet_dev::typed::{Form, typed};

const DEADLINE: Duration = Duration::from_secs(240);

/// A daemon started on `root`, its log in `root/../log-<n>.txt`.
struct Daemon {
    child: Child,
    log: PathBuf,
}

fn start(root: &Path, args: &[&str]) -> Daemon {
    let n = fs::read_dir(root.parent().unwrap()).unwrap().count();
    let log = root.parent().unwrap().join(format!("log-{n}.txt"));
    let child = Command::new(env!("CARGO_BIN_EXE_scoresheet"))
        .arg("watch")
        .arg("--root")
        .arg(root)
        .args(args)
        .env("RUST_LOG", "info")
        .stdout(Stdio::null())
        .stderr(fs::File::create(&log).unwrap())
        .spawn()
        .expect("the binary starts");
    let daemon = Daemon { child, log };
    // Files dropped before the watcher is set up would only be seen by the
    // start-up scan: tests drop theirs once it watches.
    wait_for("the daemon to watch", || daemon.log().contains("watching"));
    daemon
}

impl Daemon {
    fn log(&self) -> String {
        fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// SIGTERM, and the exit status must be 0.
    fn stop(mut self) {
        let pid = self.child.id().to_string();
        assert!(Command::new("kill").args(["-TERM", &pid]).status().unwrap().success());
        let status = self.child.wait().unwrap();
        assert!(status.success(), "exit {status:?}; log:\n{}", self.log());
    }

    fn kill9(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

fn wait_for(what: &str, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < DEADLINE, "gave up waiting for {what}");
        sleep(Duration::from_millis(50));
    }
}

/// Files (not folders, not dotfiles) directly in `dir`.
fn names(dir: &Path) -> Vec<String> {
    let mut out: Vec<String> = fs::read_dir(dir)
        .map(|d| {
            d.flatten()
                .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| !n.starts_with('.'))
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

/// Files left in the work folder (claimed and not finished).
fn claimed(root: &Path) -> usize {
    let work = root.join(".work");
    fs::read_dir(&work)
        .map(|d| d.flatten().filter(|e| e.path().is_dir()).map(|e| names(&e.path()).len()).sum())
        .unwrap_or(0)
}

/// Drops a file the safe way copy tools do: written as `*.tmp`, then renamed.
fn drop_file(inbox: &Path, name: &str, bytes: &[u8]) {
    let tmp = inbox.join(format!("{name}.tmp"));
    fs::write(&tmp, bytes).unwrap();
    fs::rename(&tmp, inbox.join(name)).unwrap();
}

/// Sheet `i`: a real game typed in Spanish, with headers that name its output
/// `<round>-<board>-W<i>-B<i>.pgn`. Every 10th has a box no move fits (it goes
/// to review); every 50th is not a scoresheet at all (rejected).
fn sheet(i: usize, game: &CorpusGame) -> (String, Vec<u8>) {
    let name = format!("mesa-{i:04}.txt");
    if i % 50 == 49 {
        return (name, vec![0u8, 159, 146, 150, 0, 0, 1, 2]);
    }
    let typed = typed(game, Form::Spanish { header: false });
    let mut moves = typed.text;
    if i % 10 == 9 {
        moves = moves.replacen("2.", "2.Qq9 ", 1);
    }
    let text =
        format!("Torneo: Open\nRonda: {}\nMesa: {}\nBlancas: W{i}\nNegras: B{i}\n\n{moves}", i / 100 + 1, i % 100 + 1);
    (name, text.into_bytes())
}

fn output_stem(i: usize) -> String {
    format!("{}-{}-W{i}-B{i}", i / 100 + 1, i % 100 + 1)
}

/// Where sheet `i` ended: the folders that hold an output of it.
fn destinations(root: &Path, i: usize) -> Vec<&'static str> {
    let stem = output_stem(i);
    let mut at = Vec::new();
    for (dir, files) in [
        ("pgn", vec![format!("{stem}.pgn")]),
        ("review", vec![format!("{stem}.pgn")]),
        ("rejected", vec![format!("mesa-{i:04}.txt.error.txt"), format!("{stem}.error.txt")]),
    ] {
        let present = names(&root.join(dir));
        if files.iter().any(|f| present.contains(f)) {
            at.push(dir);
        }
    }
    at
}

/// Every file name in the output folders, to find anything written twice (`-2`).
fn all_outputs(root: &Path) -> Vec<String> {
    ["pgn", "review", "rejected", "archive"]
        .iter()
        .flat_map(|d| names(&root.join(d)).into_iter().map(move |n| format!("{d}/{n}")))
        .collect()
}

fn setup() -> (tempfile::TempDir, PathBuf) {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("root");
    fs::create_dir(&root).unwrap();
    (t, root)
}

#[test]
fn a_thousand_sheets_dropped_at_once_each_end_in_one_folder_and_in_the_archive() {
    let games = load(Some(1000));
    let (_t, root) = setup();
    let daemon = start(&root, &[]);
    let inbox = root.join("inbox");
    wait_for("the inbox", || inbox.is_dir());
    let sheets: Vec<(String, Vec<u8>)> = games.iter().enumerate().map(|(i, g)| sheet(i, g)).collect();
    // All copied in under temporary names first, then all renamed: the daemon
    // sees a thousand complete files arrive at once.
    for (name, bytes) in &sheets {
        fs::write(inbox.join(format!("{name}.tmp")), bytes).unwrap();
    }
    for (name, _) in &sheets {
        fs::rename(inbox.join(format!("{name}.tmp")), inbox.join(name)).unwrap();
    }
    wait_for("the archive to hold every sheet", || names(&root.join("archive")).len() >= sheets.len());
    wait_for("the work folder to empty", || claimed(&root) == 0);
    daemon.stop();

    assert!(names(&inbox).is_empty(), "inbox: {:?}", names(&inbox));
    let archive = root.join("archive");
    assert_eq!(names(&archive).len(), sheets.len(), "one archived original per sheet");
    let mut count: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, (name, bytes)) in sheets.iter().enumerate() {
        assert_eq!(&fs::read(archive.join(name)).unwrap(), bytes, "{name} archived exactly as received");
        let at = destinations(&root, i);
        assert_eq!(at.len(), 1, "{name} ended in {at:?}");
        *count.entry(at[0]).or_default() += 1;
        if i % 50 == 49 {
            assert_eq!(at, ["rejected"], "{name} is not a scoresheet");
        } else if i % 10 != 9 {
            assert_eq!(at, ["pgn"], "{name} is a clean sheet");
        }
    }
    println!("1,000 sheets: {count:?}");
    // The round files hold every validated game of their round, in board order.
    for round in 1..=10 {
        let text = fs::read_to_string(root.join(format!("pgn/Open/round-{round}.pgn"))).unwrap();
        let boards: Vec<u32> =
            text.lines().filter_map(|l| l.strip_prefix("[Board \"")?.strip_suffix("\"]")?.parse().ok()).collect();
        let expected: Vec<u32> = (0..100)
            .map(|k| (round - 1) * 100 + k)
            .filter(|&i| destinations(&root, i).contains(&"pgn"))
            .map(|i| (i % 100 + 1) as u32)
            .collect();
        assert_eq!(boards, expected, "round {round}");
    }
}

#[test]
fn a_sheet_written_slowly_in_pieces_is_read_once_and_complete() {
    let games = load(Some(1));
    let (_t, root) = setup();
    let daemon = start(&root, &[]);
    let inbox = root.join("inbox");
    wait_for("the inbox", || inbox.is_dir());
    let (_, bytes) = sheet(0, &games[0]);
    // Written under its final name, in pieces, with pauses longer than the
    // settle interval (500 ms): only the writer's close says it is complete.
    let mut f = fs::File::create(inbox.join("slow.txt")).unwrap();
    for piece in bytes.chunks(bytes.len() / 4 + 1) {
        f.write_all(piece).unwrap();
        f.flush().unwrap();
        sleep(Duration::from_millis(800));
    }
    drop(f);
    wait_for("the archive", || names(&root.join("archive")).len() == 1);
    daemon.stop();
    assert_eq!(fs::read(root.join("archive/slow.txt")).unwrap(), bytes);
    assert_eq!(all_outputs(&root), ["pgn/1-1-W0-B0.pgn", "archive/slow.txt"]);
    let pgn = fs::read_to_string(root.join("pgn/1-1-W0-B0.pgn")).unwrap();
    let last = games[0].sans.last().unwrap();
    assert!(pgn.contains(last.as_str()) && pgn.contains(&format!(" {}", games[0].result)), "{pgn}");
}

#[test]
fn killed_at_random_moments_twenty_times_nothing_is_lost_or_written_twice() {
    let games = load(Some(800));
    let (_t, root) = setup();
    let inbox = root.join("inbox");
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = |n: u64| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng % n
    };
    let mut dropped = 0;
    let mut logs = Vec::new();
    for round in 0..20 {
        let daemon = start(&root, &[]);
        logs.push(daemon.log.clone());
        wait_for("the inbox", || inbox.is_dir());
        let archived = names(&root.join("archive")).len();
        for _ in 0..40 {
            let (name, bytes) = sheet(dropped, &games[dropped]);
            drop_file(&inbox, &name, &bytes);
            dropped += 1;
        }
        // Killed while it works: once a file of this round is done, after a
        // random moment more.
        wait_for("a file of this round", || names(&root.join("archive")).len() > archived);
        sleep(Duration::from_millis(next(40)));
        daemon.kill9();
        if round % 5 == 4 {
            // Now and then a second daemon starts while files are still claimed.
            let other = start(&root, &[]);
            sleep(Duration::from_millis(next(300)));
            other.kill9();
        }
    }
    let daemon = start(&root, &[]);
    wait_for("every sheet archived", || names(&root.join("archive")).len() >= dropped);
    wait_for("the work folder to empty", || claimed(&root) == 0);
    daemon.stop();
    let outputs = all_outputs(&root);
    assert!(names(&inbox).is_empty(), "inbox: {:?}", names(&inbox));
    assert_eq!(names(&root.join("archive")).len(), dropped, "archive: one original each");
    for i in 0..dropped {
        assert_eq!(destinations(&root, i).len(), 1, "sheet {i}: {:?}", destinations(&root, i));
    }
    let twice: Vec<&String> = outputs.iter().filter(|n| n.contains("-2.") || n.ends_with("-2")).collect();
    assert!(twice.is_empty(), "written twice: {twice:?}");
    for round in 1..=8 {
        let text = fs::read_to_string(root.join(format!("pgn/Open/round-{round}.pgn"))).unwrap_or_default();
        let boards: Vec<&str> = text.lines().filter(|l| l.starts_with("[Board ")).collect();
        let mut unique = boards.clone();
        unique.dedup();
        assert_eq!(boards, unique, "round {round}: a game twice");
    }
    let took_over = logs.iter().filter(|l| fs::read_to_string(l).unwrap_or_default().contains("taking over")).count();
    println!("{dropped} sheets over 20 kills: {} outputs; {took_over} restarts took over claimed files", outputs.len());
}

/// Makes `dir` impossible to write into: read-only where permissions bind,
/// and for root (whom they don't bind) a plain file where the folder was.
/// Returns how to undo it.
fn make_unwritable(dir: &Path) -> impl FnOnce() + use<> {
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(dir, fs::Permissions::from_mode(0o555)).unwrap();
    let probe = dir.join("probe");
    let binds = fs::write(&probe, b"").is_err();
    let _ = fs::remove_file(&probe);
    let dir = dir.to_path_buf();
    let aside = dir.with_extension("aside");
    if !binds {
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o755)).unwrap();
        fs::rename(&dir, &aside).unwrap();
        fs::write(&dir, b"not a folder").unwrap();
    }
    move || {
        if binds {
            fs::set_permissions(&dir, fs::Permissions::from_mode(0o755)).unwrap();
        } else {
            fs::remove_file(&dir).unwrap();
            fs::rename(&aside, &dir).unwrap();
        }
    }
}

#[test]
fn an_output_folder_that_cannot_be_written_keeps_the_file_and_retries_it() {
    let games = load(Some(2));
    let (t, root) = setup();
    let config = t.path().join("fast-retry.yaml");
    fs::write(&config, "watch:\n  retry_secs: 1\n").unwrap();
    let daemon = start(&root, &["--config", config.to_str().unwrap()]);
    let inbox = root.join("inbox");
    wait_for("the pgn folder", || root.join("pgn").is_dir());
    let undo = make_unwritable(&root.join("pgn"));
    let (name, bytes) = sheet(0, &games[0]);
    drop_file(&inbox, &name, &bytes);
    wait_for("the error in the log", || daemon.log().contains("cannot finish the file"));
    let log = daemon.log();
    assert!(log.contains("pgn"), "the log names the folder: {log}");
    assert!(names(&root.join("archive")).is_empty(), "not archived before its PGN is written");
    assert_eq!(claimed(&root), 1, "the file stays claimed");
    // The daemon is still running and still takes files.
    let (name2, bytes2) = sheet(49, &games[1]);
    drop_file(&inbox, &name2, &bytes2);
    wait_for("the other sheet (rejected)", || names(&root.join("rejected")).len() == 2);
    undo();
    wait_for("the retried file", || root.join(format!("pgn/{}.pgn", output_stem(0))).exists());
    wait_for("the archive", || names(&root.join("archive")).len() == 2);
    daemon.stop();
}

#[test]
fn headers_that_name_paths_cannot_write_outside_the_folders() {
    let (t, root) = setup();
    let daemon = start(&root, &[]);
    let inbox = root.join("inbox");
    wait_for("the inbox", || inbox.is_dir());
    let evil = "Event: ../../../evil\nRound: ../1\nBoard: /etc\nWhite: ../../etc/passwd\nBlack: ..\\..\\boot.ini\n\n1.e4 e5 2.Cf3 Cc6 1-0\n";
    drop_file(&inbox, "evil.txt", evil.as_bytes());
    wait_for("the archive", || names(&root.join("archive")).len() == 1);
    daemon.stop();
    let outside: Vec<String> =
        names(t.path()).into_iter().filter(|n| !n.starts_with("log-") && !n.ends_with(".yaml")).collect();
    assert!(outside.is_empty(), "written beside the root: {outside:?}");
    let folders: Vec<String> = fs::read_dir(t.path())
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(folders, ["root"]);
    assert_eq!(names(&root.join("pgn")), ["1-etc-etc_passwd-boot.ini.pgn"]);
    assert!(root.join("pgn/evil/round-1.pgn").is_file());
}

#[test]
fn poll_mode_reads_dropped_files_too() {
    let games = load(Some(1));
    let (_t, root) = setup();
    let daemon = start(&root, &["--poll", "--log-format", "json"]);
    let inbox = root.join("inbox");
    wait_for("the inbox", || inbox.is_dir());
    let (name, bytes) = sheet(0, &games[0]);
    drop_file(&inbox, &name, &bytes);
    wait_for("the PGN", || root.join(format!("pgn/{}.pgn", output_stem(0))).exists());
    wait_for("the archive", || names(&root.join("archive")).len() == 1);
    let path = daemon.log.clone();
    daemon.stop();
    let log = fs::read_to_string(path).unwrap();
    let done = log.lines().find(|l| l.contains("\"done\"")).expect("a line for the file");
    let line: serde_json::Value = serde_json::from_str(done).expect("JSON log line");
    assert_eq!(line["fields"]["file"], name.as_str());
    assert_eq!(line["fields"]["to"], "pgn");
}

#[test]
fn an_invalid_config_is_refused_at_start_with_its_line_and_field() {
    let (t, root) = setup();
    let config = t.path().join("bad.yaml");
    fs::write(&config, "language: es\nwatch:\n  inbx: drop\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_scoresheet"))
        .args(["watch", "--root", root.to_str().unwrap(), "--config", config.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("line 3") && err.contains("inbx"), "{err}");
}

#[test]
fn two_daemons_on_one_folder_never_process_a_file_twice() {
    let games = load(Some(200));
    let (_t, root) = setup();
    let first = start(&root, &[]);
    let second = start(&root, &[]);
    let inbox = root.join("inbox");
    wait_for("the inbox", || inbox.is_dir());
    sleep(Duration::from_millis(300));
    for (i, g) in games.iter().enumerate() {
        let (name, bytes) = sheet(i, g);
        drop_file(&inbox, &name, &bytes);
    }
    wait_for("every sheet archived", || names(&root.join("archive")).len() >= games.len());
    wait_for("the work folder to empty", || claimed(&root) == 0);
    let paths = [first.log.clone(), second.log.clone()];
    first.stop();
    second.stop();
    let logs = paths.map(|p| fs::read_to_string(p).unwrap());
    let mut per_daemon = [0; 2];
    for i in 0..games.len() {
        let needle = format!("file=mesa-{i:04}.txt");
        let times: Vec<usize> =
            logs.iter().map(|l| l.lines().filter(|x| x.contains(" done ") && x.contains(&needle)).count()).collect();
        assert_eq!(times.iter().sum::<usize>(), 1, "sheet {i} processed {times:?} times");
        per_daemon[times[1]] += 1;
        assert_eq!(destinations(&root, i).len(), 1);
    }
    println!("200 sheets shared by two daemons: {} and {}", per_daemon[0], per_daemon[1]);
}

#[test]
fn a_file_over_the_size_limit_is_rejected_unread_and_still_archived() {
    let (t, root) = setup();
    let config = t.path().join("small.yaml");
    fs::write(&config, "max_file_bytes: 100\n").unwrap();
    let daemon = start(&root, &["--config", config.to_str().unwrap()]);
    let inbox = root.join("inbox");
    wait_for("the inbox", || inbox.is_dir());
    let big = "1.e4 e5 2.Cf3 Cc6 ".repeat(20);
    drop_file(&inbox, "big.txt", big.as_bytes());
    wait_for("the archive", || names(&root.join("archive")).len() == 1);
    daemon.stop();
    assert_eq!(fs::read_to_string(root.join("archive/big.txt")).unwrap(), big);
    assert_eq!(fs::read_to_string(root.join("rejected/big.txt")).unwrap(), big);
    let why = fs::read_to_string(root.join("rejected/big.txt.error.txt")).unwrap();
    assert!(why.contains("big.txt") && why.contains("too large"), "{why}");
}

#[test]
fn a_name_dropped_again_is_read_again_even_after_another_daemon_took_it_first() {
    let (_t, root) = setup();
    let first = start(&root, &[]);
    let second = start(&root, &[]);
    let inbox = root.join("inbox");
    let text = |round: usize, i: usize| format!("White: A{i}\nBlack: B{i}\nRound: {round}\n\n1.e4 e5 2.Cf3 Cc6 1-0\n");
    for i in 0..6 {
        drop_file(&inbox, &format!("m{i}.txt"), text(1, i).as_bytes());
    }
    wait_for("the first six", || names(&root.join("archive")).len() == 6);
    // Whichever daemon lost a race for a name must still read that name later.
    first.stop();
    for i in 0..6 {
        drop_file(&inbox, &format!("m{i}.txt"), text(2, i).as_bytes());
    }
    wait_for("the six dropped again", || names(&root.join("archive")).len() == 12);
    second.stop();
    assert_eq!(names(&root.join("pgn")).len(), 12);
}

#[test]
fn a_link_dropped_in_the_inbox_is_never_followed() {
    let (t, root) = setup();
    let secret = t.path().join("secret.txt");
    fs::write(&secret, "1.e4 e5 2.Cf3 Cc6 1-0\n").unwrap();
    let daemon = start(&root, &[]);
    let inbox = root.join("inbox");
    std::os::unix::fs::symlink(&secret, inbox.join("link.txt")).unwrap();
    drop_file(&inbox, "plain.txt", b"1.d4 d5 2.c4 e6 1/2-1/2\n");
    wait_for("the plain file", || names(&root.join("archive")).len() == 1);
    // Longer than the settle interval: the link had every chance to be read.
    sleep(Duration::from_millis(1500));
    daemon.stop();
    assert_eq!(names(&root.join("archive")), ["plain.txt"]);
    assert!(names(&root.join("pgn")).iter().all(|n| !n.contains("link")));
    assert!(fs::symlink_metadata(inbox.join("link.txt")).unwrap().file_type().is_symlink());
}

#[test]
fn a_file_name_typed_on_an_old_windows_machine_is_archived_under_that_very_name() {
    use std::os::unix::ffi::OsStrExt;
    let (_t, root) = setup();
    let daemon = start(&root, &[]);
    let inbox = root.join("inbox");
    // "mesa-ñ.txt" in Windows-1252: not UTF-8.
    let name = std::ffi::OsStr::from_bytes(b"mesa-\xf1.txt");
    let tmp = inbox.join("latin1.tmp");
    fs::write(&tmp, "1.e4 e5 2.Cf3 Cc6 1-0\n").unwrap();
    fs::rename(&tmp, inbox.join(name)).unwrap();
    wait_for("the archive", || fs::read_dir(root.join("archive")).unwrap().count() == 1);
    // The same name dropped again, other content: read again, archived beside it.
    fs::write(&tmp, "1.d4 d5 1/2-1/2\n").unwrap();
    fs::rename(&tmp, inbox.join(name)).unwrap();
    wait_for("the second", || fs::read_dir(root.join("archive")).unwrap().count() == 2);
    daemon.stop();
    assert_eq!(fs::read_to_string(root.join("archive").join(name)).unwrap(), "1.e4 e5 2.Cf3 Cc6 1-0\n");
    let mut second = name.to_os_string();
    second.push("-2");
    assert_eq!(fs::read_to_string(root.join("archive").join(second)).unwrap(), "1.d4 d5 1/2-1/2\n");
    assert_eq!(names(&root.join("pgn")).len(), 2);
}
