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
use std::process::Command;
use std::thread::sleep;
use std::time::Duration;

use scoresheet_dev::corpus::{CorpusGame, load};
use scoresheet_dev::typed::{Form, typed};

mod daemon_support;
use daemon_support::{names, start_via, start_with as start, wait_for};

/// Folders directly in `dir`.
fn folders_in(dir: &Path) -> Vec<String> {
    let mut out: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
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
        logs.push(daemon.log_path().to_path_buf());
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
    // The event's folder: a safe prefix of its name and a hash of all of it.
    let events = folders_in(&root.join("pgn"));
    assert!(events.len() == 1 && events[0].starts_with("evil-"), "{events:?}");
    let rounds = names(&root.join("pgn").join(&events[0]));
    assert!(rounds.len() == 1 && rounds[0].starts_with("round-1-"), "{rounds:?}");
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
    let path = daemon.log_path().to_path_buf();
    daemon.stop();
    let log = fs::read_to_string(path).unwrap();
    // The line for the file (progress lines count `done` too).
    let line: serde_json::Value = log
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("JSON log line"))
        .find(|l| l["fields"]["message"] == "done")
        .expect("a line for the file");
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
    let paths = [first.log_path().to_path_buf(), second.log_path().to_path_buf()];
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
fn a_link_dropped_in_the_inbox_is_moved_to_rejected_and_never_followed() {
    let (t, root) = setup();
    let secret = t.path().join("secret.txt");
    fs::write(&secret, "1.e4 e5 2.Cf3 Cc6 1-0\n").unwrap();
    let daemon = start(&root, &[]);
    let inbox = root.join("inbox");
    std::os::unix::fs::symlink(&secret, inbox.join("link.txt")).unwrap();
    drop_file(&inbox, "plain.txt", b"1.d4 d5 2.c4 e6 1/2-1/2\n");
    wait_for("the plain file", || names(&root.join("archive")).len() == 1);
    wait_for("the link's reason", || root.join("rejected/link.txt.error.txt").exists());
    daemon.stop();
    assert_eq!(names(&root.join("archive")), ["plain.txt"], "a link holds no bytes to archive");
    assert!(names(&root.join("pgn")).iter().all(|n| !n.contains("link")));
    assert!(fs::symlink_metadata(inbox.join("link.txt")).is_err(), "the inbox is left clean");
    let moved = fs::symlink_metadata(root.join("rejected/link.txt")).unwrap();
    assert!(moved.file_type().is_symlink(), "the link itself is moved, not what it points to");
    let why = fs::read_to_string(root.join("rejected/link.txt.error.txt")).unwrap();
    assert!(why.contains("link.txt") && why.contains("not a plain file"), "{why}");
    assert_eq!(fs::read_to_string(&secret).unwrap(), "1.e4 e5 2.Cf3 Cc6 1-0\n");
}

/// Whether this process reads files whatever their mode (root): a file
/// made unreadable is read all the same.
fn reads_any_file(dir: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let probe = dir.join("probe");
    fs::write(&probe, "x").unwrap();
    fs::set_permissions(&probe, fs::Permissions::from_mode(0o000)).unwrap();
    let read = fs::read(&probe).is_ok();
    fs::remove_file(&probe).unwrap();
    read
}

#[test]
fn a_sheet_the_daemons_user_cannot_read_goes_to_rejected_once_with_how_to_fix_it() {
    use std::os::unix::fs::PermissionsExt;
    let (t, root) = setup();
    // As root every file can be read: the daemon runs as `nobody` instead,
    // and the sheet is root's, mode 0600, as a sheet another user dropped.
    let privileged = reads_any_file(t.path());
    let wrapper: &[&str] = if privileged {
        fs::set_permissions(t.path(), fs::Permissions::from_mode(0o755)).unwrap();
        std::os::unix::fs::chown(&root, Some(65534), Some(65534)).unwrap();
        &["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    } else {
        &[]
    };
    let daemon = start_via(&root, wrapper, &[]);
    let inbox = root.join("inbox");
    let part = inbox.join(".secret.txt.part");
    fs::write(&part, "1.e4 e5 2.Cf3 Cc6 1-0\n").unwrap();
    fs::set_permissions(&part, fs::Permissions::from_mode(if privileged { 0o600 } else { 0o000 })).unwrap();
    fs::rename(&part, inbox.join("secret.txt")).unwrap();
    wait_for("the reason", || root.join("rejected/secret.txt.error.txt").exists());
    // A sheet dropped after it is read: the worker is free, nothing retried.
    drop_file(&inbox, "plain.txt", b"1.d4 d5 2.c4 e6 1/2-1/2\n");
    wait_for("the next sheet", || names(&root.join("archive")).len() == 1);
    let log_path = daemon.log_path().to_path_buf();
    daemon.stop();
    let why = fs::read_to_string(root.join("rejected/secret.txt.error.txt")).unwrap();
    assert!(why.starts_with("secret.txt: the daemon's user cannot read this file"), "{why}");
    assert!(why.contains("chmod a+r secret.txt") && why.contains("drop it as the user the daemon runs as"), "{why}");
    let kept = root.join("rejected/secret.txt");
    fs::set_permissions(&kept, fs::Permissions::from_mode(0o644)).unwrap();
    assert_eq!(fs::read(&kept).unwrap(), b"1.e4 e5 2.Cf3 Cc6 1-0\n", "kept as it came");
    assert_eq!(names(&root.join("archive")), ["plain.txt"], "none of its bytes were read");
    assert!(names(&inbox).is_empty(), "the inbox is left clean");
    let log = fs::read_to_string(log_path).unwrap();
    let lines: Vec<&str> = log.lines().filter(|l| l.contains("secret.txt")).collect();
    assert_eq!(lines.len(), 1, "one line: {lines:?}");
    assert!(lines[0].contains("to=rejected") && lines[0].contains("cannot read"), "{}", lines[0]);
    assert!(log.lines().any(|l| l.contains("stopped") && l.contains("retried=0")), "{log}");
}

#[test]
fn a_fifo_dropped_in_the_inbox_is_moved_to_rejected_and_never_opened() {
    let (_t, root) = setup();
    let daemon = start(&root, &[]);
    let inbox = root.join("inbox");
    assert!(Command::new("mkfifo").arg(inbox.join("pipe.txt")).status().unwrap().success());
    wait_for("the pipe's reason", || root.join("rejected/pipe.txt.error.txt").exists());
    drop_file(&inbox, "plain.txt", b"1.d4 d5 2.c4 e6 1/2-1/2\n");
    wait_for("the plain file: the workers are free", || names(&root.join("archive")).len() == 1);
    daemon.stop();
    use std::os::unix::fs::FileTypeExt;
    assert!(fs::symlink_metadata(root.join("rejected/pipe.txt")).unwrap().file_type().is_fifo());
    assert!(fs::read_dir(&inbox).unwrap().next().is_none(), "the inbox is left clean");
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
    // The extension kept: `mesa-\xf1-2.txt`.
    let second = std::ffi::OsStr::from_bytes(b"mesa-\xf1-2.txt");
    assert_eq!(fs::read_to_string(root.join("archive").join(second)).unwrap(), "1.d4 d5 1/2-1/2\n");
    assert_eq!(names(&root.join("pgn")).len(), 2);
}

/// A config whose settle interval (2 s) is far longer than a test writer's
/// pauses (0.3 s), so that a slow machine cannot make a pause look like the
/// end of the file.
fn slow_settle(root: &Path) -> String {
    let path = root.parent().unwrap().join("slow-settle.yaml");
    fs::write(&path, "watch: {settle_ms: 2000}\n").unwrap();
    path.display().to_string()
}

/// Runs `script` with `sh` in `dir`, as a volunteer's shell would.
fn shell(dir: &Path, script: &str) {
    let status = Command::new("sh").arg("-c").arg(script).current_dir(dir).status().unwrap();
    assert!(status.success(), "{script}");
}

#[test]
fn a_sheet_written_by_a_shell_in_two_steps_is_one_game_with_its_players_round_and_board() {
    let (_t, root) = setup();
    let config = slow_settle(&root);
    let daemon = start(&root, &["--config", &config]);
    shell(
        &root,
        "printf 'White: A\\nBlack: L\\nRound: 5\\nBoard: 3\\n\\n' > inbox/x.txt; sleep 0.3; \
         printf '1.e4 e5 2.Nf3 Nc6 1-0\\n' >> inbox/x.txt",
    );
    wait_for("the archive", || names(&root.join("archive")).len() == 1);
    sleep(Duration::from_millis(1000));
    daemon.stop();
    assert_eq!(all_outputs(&root), ["pgn/5-3-A-L.pgn", "archive/x.txt"]);
    let pgn = fs::read_to_string(root.join("pgn/5-3-A-L.pgn")).unwrap();
    for tag in ["[White \"A\"]", "[Black \"L\"]", "[Round \"5\"]", "[Board \"3\"]"] {
        assert!(pgn.contains(tag), "{tag} missing:\n{pgn}");
    }
    assert!(pgn.contains("2. Nf3 Nc6 1-0"), "{pgn}");
}

#[test]
fn a_writer_that_appends_with_pauses_is_read_once_whole() {
    let (_t, root) = setup();
    let config = slow_settle(&root);
    let daemon = start(&root, &["--config", &config]);
    // Each piece opened, written and closed; the pauses far shorter than the
    // settle interval.
    shell(
        &root,
        "printf 'White: Ana\\nBlack: Bea\\n\\n' > inbox/p.txt; sleep 0.3; printf '1.e4 e5 ' >> inbox/p.txt; \
         sleep 0.3; printf '2.Cf3 Cc6 ' >> inbox/p.txt; sleep 0.3; printf '3.Ab5 a6 1-0\\n' >> inbox/p.txt",
    );
    wait_for("the archive", || names(&root.join("archive")).len() == 1);
    sleep(Duration::from_millis(1000));
    daemon.stop();
    assert_eq!(all_outputs(&root), ["pgn/Ana-Bea.pgn", "archive/p.txt"]);
    let pgn = fs::read_to_string(root.join("pgn/Ana-Bea.pgn")).unwrap();
    assert!(pgn.split_whitespace().collect::<Vec<_>>().join(" ").contains("3. Bb5 a6 1-0"), "{pgn}");
}

#[test]
fn an_editors_save_to_a_temporary_name_then_a_rename_is_read_once_whole() {
    let (_t, root) = setup();
    let daemon = start(&root, &[]);
    // As vim and most editors save: a new file under another name, written
    // slowly, then renamed over the name.
    shell(
        &root,
        "printf 'White: Ana\\nBlack: Bea\\n\\n1.e4 e5 ' > inbox/.mesa.txt.swp; sleep 0.7; \
         printf '2.Cf3 Cc6 1-0\\n' >> inbox/.mesa.txt.swp; mv inbox/.mesa.txt.swp inbox/mesa.txt",
    );
    wait_for("the archive", || names(&root.join("archive")).len() == 1);
    daemon.stop();
    assert_eq!(all_outputs(&root), ["pgn/Ana-Bea.pgn", "archive/mesa.txt"]);
    assert!(fs::read_to_string(root.join("pgn/Ana-Bea.pgn")).unwrap().contains("2. Nf3 Nc6 1-0"));
}

/// A sheet for board `board` of round 4 of `event`.
fn board_sheet(event: &str, board: u32, white: &str, moves: &str) -> String {
    format!("Event: {event}\nRound: 4\nBoard: {board}\nWhite: {white}\nBlack: Negro\n\n{moves}\n")
}

/// The games of a round file, as (board, white, result).
fn round_games(path: &Path) -> Vec<(String, String, String)> {
    let text = fs::read_to_string(path).unwrap();
    let tag = |g: &str, k: &str| {
        g.lines().find_map(|l| Some(l.strip_prefix(&format!("[{k} \""))?.strip_suffix("\"]")?.to_string()))
    };
    text.split("\n\n[Event ")
        .map(|g| (tag(g, "Board").unwrap_or_default(), tag(g, "White").unwrap_or_default(), tag(g, "Result").unwrap()))
        .collect()
}

#[test]
fn two_events_whose_names_differ_only_after_forty_characters_get_round_files_of_their_own() {
    let (_t, root) = setup();
    let daemon = start(&root, &[]);
    let inbox = root.join("inbox");
    let long = "Campeonato Internacional de Ajedrez de Sitges Open";
    drop_file(&inbox, "a.txt", board_sheet(&format!("{long} A"), 1, "Ana", "1.e4 e5 1-0").as_bytes());
    drop_file(&inbox, "b.txt", board_sheet(&format!("{long} B"), 1, "Bea", "1.d4 d5 0-1").as_bytes());
    wait_for("the archive", || names(&root.join("archive")).len() == 2);
    daemon.stop();
    let events = folders_in(&root.join("pgn"));
    assert_eq!(events.len(), 2, "{events:?}");
    for e in &events {
        assert_eq!(round_games(&root.join("pgn").join(e).join("round-4.pgn")).len(), 1, "{e}");
    }
}

#[test]
fn a_corrected_sheet_dropped_again_for_a_board_replaces_its_game_in_the_round_file() {
    let (_t, root) = setup();
    let daemon = start(&root, &[]);
    let inbox = root.join("inbox");
    drop_file(&inbox, "mesa7.txt", board_sheet("Open", 7, "Ana", "1.e4 e5 2.Cf3 Cc6 1-0").as_bytes());
    wait_for("the first", || names(&root.join("archive")).len() == 1);
    // The result was wrong and the last moves missing: the sheet typed again.
    drop_file(&inbox, "mesa7.txt", board_sheet("Open", 7, "Ana", "1.e4 e5 2.Cf3 Cc6 3.Ab5 a6 0-1").as_bytes());
    wait_for("the second", || names(&root.join("archive")).len() == 2);
    daemon.stop();
    assert_eq!(round_games(&root.join("pgn/Open/round-4.pgn")), [("7".into(), "Ana".into(), "0-1".into())]);
    assert_eq!(names(&root.join("archive")), ["mesa7-2.txt", "mesa7.txt"], "both originals kept");
    assert!(names(&root.join("review")).is_empty());
    let log = fs::read_to_string(daemon_log(&root)).unwrap();
    assert!(log.contains("a correction replaces the board's game"), "{log}");
}

/// The log of the only daemon started on `root`.
fn daemon_log(root: &Path) -> PathBuf {
    fs::read_dir(root.parent().unwrap())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.file_name().unwrap().to_string_lossy().starts_with("log-"))
        .unwrap()
}

#[test]
fn another_game_dropped_for_a_board_that_has_one_goes_to_review_as_a_duplicate_board() {
    let (_t, root) = setup();
    let daemon = start(&root, &[]);
    let inbox = root.join("inbox");
    drop_file(&inbox, "mesa7.txt", board_sheet("Open", 7, "Ana", "1.e4 e5 2.Cf3 Cc6 1-0").as_bytes());
    wait_for("the first", || names(&root.join("archive")).len() == 1);
    // Board 7 typed on a sheet of another game (other players: one player
    // alike on one board of one round is that player's one game).
    let other = board_sheet("Open", 7, "Cris", "1.d4 d5 1/2-1/2").replace("Black: Negro", "Black: Dora");
    drop_file(&inbox, "mesa8.txt", other.as_bytes());
    wait_for("the second", || names(&root.join("archive")).len() == 2);
    daemon.stop();
    assert_eq!(round_games(&root.join("pgn/Open/round-4.pgn")), [("7".into(), "Ana".into(), "1-0".into())]);
    assert_eq!(names(&root.join("review")), ["4-7-Cris-Dora.json", "4-7-Cris-Dora.pgn"]);
    let pgn = fs::read_to_string(root.join("review/4-7-Cris-Dora.pgn")).unwrap();
    let words = pgn.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(words.contains("{duplicate-board: board 7 of round 4") && words.contains("(Ana - Negro)"), "{pgn}");
    let json = fs::read_to_string(root.join("review/4-7-Cris-Dora.json")).unwrap();
    assert!(json.contains("\"code\": \"duplicate-board\"") && json.contains("\"status\": \"review\""), "{json}");
    assert!(!names(&root.join("pgn")).contains(&"4-7-Cris-Dora.pgn".to_string()));
}

#[test]
fn a_web_server_can_read_the_outputs_and_the_work_folder_stays_private() {
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let (t, root) = setup();
    // What any program's new file gets under this umask (0644 under 022).
    let probe = t.path().join("probe");
    fs::write(&probe, b"").unwrap();
    let ordinary = mode(&probe);
    let daemon = start(&root, &[]);
    let inbox = root.join("inbox");
    drop_file(&inbox, "mesa.txt", board_sheet("Open", 1, "Ana", "1.e4 e5 1-0").as_bytes());
    drop_file(&inbox, "junk.txt", b"\x00\x01\x02 not a sheet");
    wait_for("the archive", || names(&root.join("archive")).len() == 2);
    let own: Vec<PathBuf> =
        fs::read_dir(root.join(".work")).unwrap().flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect();
    assert_eq!(own.len(), 1);
    assert_eq!(mode(&own[0]), 0o700, "a daemon's work folder is its own");
    daemon.stop();
    assert_eq!(mode(&root.join(".work")), 0o700);
    for out in ["pgn/4-1-Ana-Negro.pgn", "pgn/Open/round-4.pgn", "rejected/junk.txt.error.txt", "rejected/junk.txt"] {
        assert_eq!(mode(&root.join(out)), ordinary, "{out}");
    }
}

#[test]
fn a_review_game_names_the_sheet_it_came_from() {
    let (_t, root) = setup();
    let daemon = start(&root, &[]);
    let inbox = root.join("inbox");
    // Two boxes left blank that the rest of the game does not settle.
    drop_file(&inbox, "mesa 12.txt", b"White: Ana\nBlack: Bea\n\n1.e4 e5 2.? Cc6 3.? a6 1-0\n");
    wait_for("the archive", || names(&root.join("archive")).len() == 1);
    daemon.stop();
    assert_eq!(names(&root.join("review")), ["Ana-Bea.json", "Ana-Bea.pgn"]);
    let pgn = fs::read_to_string(root.join("review/Ana-Bea.pgn")).unwrap();
    assert!(pgn.contains("[SourceFile \"mesa 12.txt\"]\n"), "{pgn}");
}

#[test]
fn a_rejected_descriptive_sheet_has_its_copy_beside_its_reason() {
    let (_t, root) = setup();
    let daemon = start(&root, &[]);
    let inbox = root.join("inbox");
    // Descriptive notation in a language whose descriptive system is not read.
    let sheet = b"Language: de\nWhite: Ana\nBlack: Bea\n\n1. P-K4 P-K4 2. N-KB3 N-QB3 1-0\n";
    drop_file(&inbox, "desc.txt", sheet);
    wait_for("the archive", || names(&root.join("archive")).len() == 1);
    daemon.stop();
    assert_eq!(names(&root.join("rejected")), ["Ana-Bea.error.txt", "desc.txt"]);
    assert_eq!(fs::read(root.join("rejected/desc.txt")).unwrap(), sheet);
}

#[test]
fn a_name_dropped_again_keeps_its_extension_in_archive_and_rejected() {
    let (_t, root) = setup();
    let daemon = start(&root, &[]);
    let inbox = root.join("inbox");
    drop_file(&inbox, "scholars-mate-es.txt", b"\x00\x01 one");
    wait_for("the first", || names(&root.join("archive")).len() == 1);
    drop_file(&inbox, "scholars-mate-es.txt", b"\x00\x01 two");
    wait_for("the second", || names(&root.join("archive")).len() == 2);
    daemon.stop();
    assert_eq!(names(&root.join("archive")), ["scholars-mate-es-2.txt", "scholars-mate-es.txt"]);
    assert_eq!(
        names(&root.join("rejected")),
        [
            "scholars-mate-es-2.txt",
            "scholars-mate-es-2.txt.error.txt",
            "scholars-mate-es.txt",
            "scholars-mate-es.txt.error.txt"
        ]
    );
}

/// Every name in `dir` and its sub-folders, dotfiles included.
fn everything_in(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for e in fs::read_dir(dir).into_iter().flatten().flatten() {
        out.push(e.file_name().to_string_lossy().into_owned());
        if e.path().is_dir() {
            out.extend(everything_in(&e.path()));
        }
    }
    out
}

#[test]
fn a_listing_of_the_output_folders_never_shows_a_half_written_file_even_after_kill_9() {
    let games = load(Some(200));
    let (_t, root) = setup();
    let daemon = start(&root, &[]);
    let inbox = root.join("inbox");
    for (i, g) in games.iter().enumerate() {
        let (name, bytes) = sheet(i, g);
        drop_file(&inbox, &name, &bytes);
    }
    // Listed as a web server would, over and over while the daemon writes,
    // then once more after it is killed in the middle.
    let outputs = ["pgn", "review", "rejected", "archive"].map(|d| root.join(d));
    let mut seen = Vec::new();
    wait_for("half the sheets", || {
        seen.extend(outputs.iter().flat_map(|d| everything_in(d)).filter(|n| n.starts_with(".scoresheet-")));
        names(&root.join("archive")).len() >= 100
    });
    daemon.kill9();
    seen.extend(outputs.iter().flat_map(|d| everything_in(d)).filter(|n| n.starts_with(".scoresheet-")));
    assert!(seen.is_empty(), "temporary files seen in the output folders: {seen:?}");
}

#[test]
fn the_log_counts_findings_per_code_and_the_stop_line_gives_the_split() {
    let games = load(Some(10));
    let (_t, root) = setup();
    let daemon = start(&root, &[]);
    let inbox = root.join("inbox");
    for (i, g) in games.iter().enumerate() {
        let (name, bytes) = sheet(i, g);
        drop_file(&inbox, &name, &bytes);
    }
    drop_file(&inbox, "junk.txt", b"\x00\x01 not a sheet");
    wait_for("the archive", || names(&root.join("archive")).len() == 11);
    wait_for("a progress line", || daemon.log().contains("progress"));
    let path = daemon.log_path().to_path_buf();
    daemon.stop();
    let log = fs::read_to_string(path).unwrap();
    let done = log.lines().find(|l| l.contains("file=mesa-0000.txt")).unwrap();
    assert!(done.contains("findings=language-inferred×1"), "{done}");
    assert!(log.lines().all(|l| l.chars().count() < 1000), "a line past 1,000 characters");
    let stopped = log.lines().find(|l| l.contains("stopped")).unwrap();
    for part in ["done=11", "pgn=9", "review=1", "rejected=1", "waiting=0"] {
        assert!(stopped.contains(part), "{part} missing: {stopped}");
    }
    let progress = log.lines().find(|l| l.contains("progress")).unwrap();
    assert!(progress.contains("pgn=") && progress.contains("waiting="), "{progress}");
}

#[test]
fn a_file_name_with_a_newline_cannot_forge_a_line_of_the_log() {
    let (_t, root) = setup();
    let daemon = start(&root, &[]);
    drop_file(&root.join("inbox"), "a\nINFO scoresheet::daemon: forged.txt", b"1.e4 e5 2.Nf3 Nc6 1-0\n");
    wait_for("the file", || names(&root.join("archive")).len() == 1);
    let log = daemon.stop();
    assert!(log.lines().all(|l| !l.starts_with("INFO scoresheet::daemon: forged")), "{log}");
    assert!(log.contains("file=a\\nINFO scoresheet::daemon: forged.txt"), "the name shown escaped: {log}");
}

#[test]
fn a_folder_dropped_into_the_inbox_goes_to_rejected_whole_with_why() {
    let (_t, root) = setup();
    let daemon = start(&root, &[]);
    let folder = root.join("inbox").join("ronda 3");
    fs::create_dir(&folder).unwrap();
    fs::write(folder.join("mesa1.txt"), "1.e4 e5 2.Nf3 Nc6 1-0\n").unwrap();
    let rejected = root.join("rejected");
    wait_for("the folder moved", || rejected.join("ronda 3").join("mesa1.txt").exists());
    let log = daemon.stop();
    assert!(!folder.exists(), "out of the inbox");
    let why = fs::read_to_string(rejected.join("ronda 3.error.txt")).expect("why");
    assert!(why.contains("a folder, not a file") && why.contains("Drop the sheets"), "{why}");
    assert!(log.contains("a folder dropped into the inbox"), "{log}");
}

#[test]
fn the_example_sheet_goes_to_the_round_file_the_readme_names_with_nothing_else_in_pgn() {
    let (_t, root) = setup();
    let daemon = start(&root, &[]);
    let sheet = fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/sheets/scholars-mate-es.txt")).unwrap();
    drop_file(&root.join("inbox"), "scholars-mate-es.txt", &sheet);
    wait_for("the sheet", || names(&root.join("archive")).len() == 1);
    daemon.stop();
    let mut listed = everything_in(&root.join("pgn"));
    listed.sort();
    let event = "Torneo_escolar_de_primavera-da8ceed7";
    assert_eq!(listed, ["2-7-Martín_Lucía-Ruiz_Pablo.pgn", event, "round-2.pgn"], "no lock among the outputs");
    let readme = fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    assert!(readme.contains(&format!("`pgn/{event}/round-2.pgn`")), "the README names the round file");
}

#[test]
fn every_folder_watch_makes_in_the_checkout_is_in_gitignore() {
    let (_t, root) = setup();
    let daemon = start(&root, &[]);
    daemon.stop();
    let ignored = fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/.gitignore")).unwrap();
    let mut made: Vec<String> =
        fs::read_dir(&root).unwrap().flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect();
    made.sort();
    assert_eq!(made.len(), 8, "{made:?}");
    for folder in made {
        assert!(ignored.lines().any(|l| l == format!("/{folder}/")), "{folder} is not in .gitignore");
    }
}

/// A volunteer types a round's games into one file, each with its headers
/// and no result after its moves: `watch` publishes each game under its own
/// players and result, as `convert` does.
#[test]
fn three_games_typed_into_one_file_are_each_published_under_their_own_players() {
    let text = "White: A\nBlack: B\nResult: 1-0\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6\n\nWhite: C\nBlack: D\nResult: 0-1\n\n\
                1. d4 d5 2. c4 e6 3. Nc3 Nf6\n\nWhite: E\nBlack: F\nResult: 1/2-1/2\n\n1. c4 e5 2. Nc3 Nf6 3. g3 d5\n";
    let (_t, root) = setup();
    let daemon = start(&root, &[]);
    let inbox = root.join("inbox");
    wait_for("the inbox", || inbox.is_dir());
    drop_file(&inbox, "three.txt", text.as_bytes());
    wait_for("the archive", || names(&root.join("archive")).len() == 1);
    daemon.stop();
    let pgn = root.join("pgn");
    let mut games: Vec<(String, String, String, String)> = daemon_support::games_in(&pgn)
        .iter()
        .map(|(_, g)| {
            let t = |k: &str| daemon_support::tag(g, k).unwrap_or_default();
            // The first move: after `1. ` in the movetext (a comment may come first).
            let movetext: Vec<&str> = g.lines().filter(|l| !l.starts_with('[')).collect();
            let movetext = movetext.join(" ");
            let first = movetext.split_once("1. ").and_then(|(_, rest)| rest.split_whitespace().next());
            (t("White"), t("Black"), t("Result"), first.unwrap_or_default().to_string())
        })
        .collect();
    games.sort();
    let want = [("A", "B", "1-0", "e4"), ("C", "D", "0-1", "d4"), ("E", "F", "1/2-1/2", "c4")]
        .map(|(w, b, r, m)| (w.to_string(), b.to_string(), r.to_string(), m.to_string()));
    assert_eq!(games, want);
}
