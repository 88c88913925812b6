//! A PGN collection through `scoresheet convert`: a file over the inbox's size
//! limit is read one game at a time, and a person converting it gets what the
//! same games read as one small file give, the report written as it goes, a
//! game that cannot be read said and skipped, and one summary line.

use assert_cmd::Command;
use assert_cmd::cargo::cargo_bin_cmd;
use assert_fs::TempDir;
use assert_fs::prelude::*;
use serde_json::Value;

/// Three games: one clean, one typed in Spanish, one with an illegible box.
const GAMES: &str = "[Event \"Open\"]\n[White \"Ana\"]\n[Black \"Eva\"]\n[Result \"1-0\"]\n\n\
    1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n\n\
    [Event \"Open\"]\n[White \"Luis\"]\n[Black \"Juan\"]\n[Result \"0-1\"]\n\n\
    1. d4 Cf6 2. c4 e6 3. Cc3 Ab4 4. Dc2 O-O 5. a3 Axc3+ 6. Dxc3 b6 0-1\n\n\
    [Event \"Open\"]\n[White \"Rosa\"]\n[Black \"Marta\"]\n\n\
    1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 ? *\n";

fn scoresheet() -> Command {
    cargo_bin_cmd!("scoresheet")
}

/// A config whose inbox limit makes `GAMES` a collection.
fn small_limit(dir: &TempDir) -> String {
    dir.child("small.yaml").write_str("max_file_bytes: 200\n").unwrap();
    dir.path().join("small.yaml").display().to_string()
}

/// `convert ARGS` in `dir` under that config.
fn convert_small(dir: &TempDir, args: &[&str]) -> std::process::Output {
    let config = small_limit(dir);
    scoresheet().current_dir(dir.path()).args(["--config", &config, "convert"]).args(args).output().unwrap()
}

fn json(out: &[u8]) -> Value {
    serde_json::from_slice(out).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(out)))
}

#[test]
fn a_collection_reads_to_the_report_the_whole_file_gives() {
    let dir = TempDir::new().unwrap();
    dir.child("open.pgn").write_str(GAMES).unwrap();
    let whole = scoresheet().current_dir(dir.path()).args(["convert", "--json", "open.pgn"]).output().unwrap();
    let streamed = convert_small(&dir, &["--json", "open.pgn"]);
    let games = &json(&streamed.stdout)["files"][0]["games"];
    assert_eq!(games.as_array().map(Vec::len), Some(3));
    assert_eq!(games[1]["moves"][7], "O-O");
    assert_eq!(json(&streamed.stdout), json(&whole.stdout), "the same report, game by game");
    assert_eq!(streamed.status.code(), whole.status.code());
}

#[test]
fn a_collection_writes_its_pgn_as_the_whole_file_does() {
    let dir = TempDir::new().unwrap();
    dir.child("a/open.pgn").write_str(GAMES).unwrap();
    dir.child("b/open.pgn").write_str(GAMES).unwrap();
    let config = small_limit(&dir);
    scoresheet().current_dir(dir.path()).args(["convert", "--output", "wa", "a/open.pgn"]).assert().code(3);
    scoresheet()
        .current_dir(dir.path())
        .args(["--config", &config, "convert", "--output", "wb", "b/open.pgn"])
        .assert()
        .code(3);
    let read = |p: &str| std::fs::read_to_string(dir.path().join(p)).unwrap();
    assert_eq!(read("wb/open.pgn"), read("wa/open.pgn"));
    assert!(read("wb/open.pgn").contains("[White \"Rosa\"]"));
    assert!(dir.path().join("wb/open.review.html").exists(), "the unfinished game's review page");
    let names: Vec<String> = std::fs::read_dir(dir.path().join("wb"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.starts_with('.')), "no temporary file left: {names:?}");
}

#[test]
fn a_game_too_long_to_be_one_is_rejected_and_the_others_are_read() {
    let dir = TempDir::new().unwrap();
    let long = format!("[White \"Long\"]\n\n1. e4 {{{}}} e5 *\n\n", "z".repeat(100_000));
    dir.child("open.pgn").write_str(&format!("{long}{GAMES}")).unwrap();
    let out = convert_small(&dir, &["--json", "open.pgn"]);
    assert_eq!(out.status.code(), Some(1), "a game rejected");
    let games = json(&out.stdout)["files"][0]["games"].as_array().cloned().unwrap();
    assert_eq!(games.len(), 4);
    assert_eq!(games[0]["status"], "rejected");
    assert_eq!(games[0]["findings"][0]["code"], "game-not-read");
    assert!(games[0]["findings"][0]["message"].as_str().unwrap().contains("line 1"), "{}", games[0]);
    assert_eq!(games[3]["headers"]["White"], "Rosa");
}

#[test]
fn json_lines_give_one_object_per_game_naming_its_file() {
    let dir = TempDir::new().unwrap();
    dir.child("open.pgn").write_str(GAMES).unwrap();
    dir.child("empty.txt").write_str("  \n").unwrap();
    let out = convert_small(&dir, &["--json-lines", "open.pgn", "empty.txt"]);
    let lines: Vec<Value> = String::from_utf8(out.stdout).unwrap().lines().map(|l| json(l.as_bytes())).collect();
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert!(lines[..3].iter().all(|l| l["file"] == "open.pgn" && l["moves"].is_array()));
    assert_eq!(lines[2]["status"], "review");
    assert_eq!(lines[3]["file"], "empty.txt");
    assert_eq!(lines[3]["error"], "the file is empty");
}

#[test]
fn a_run_ends_with_one_summary_line_and_lists_games_only_when_asked() {
    let dir = TempDir::new().unwrap();
    dir.child("open.pgn").write_str(GAMES).unwrap();
    let quiet = convert_small(&dir, &["--output", "out", "open.pgn"]);
    let stderr = String::from_utf8_lossy(&quiet.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("1 file, 3 games: 2 validated, 1 for review, 0 rejected ("), "{stderr}");
    assert!(quiet.stdout.is_empty(), "{}", String::from_utf8_lossy(&quiet.stdout));
    let told = convert_small(&dir, &["--force", "-v", "--output", "out", "open.pgn"]);
    let stdout = String::from_utf8_lossy(&told.stdout);
    assert!(stdout.contains("open.pgn game 3: review, 10 moves"), "{stdout}");
    assert!(stdout.contains("-> out/open.pgn"), "{stdout}");
}

#[test]
fn a_sheet_over_the_inbox_limit_is_still_converted_from_the_command_line() {
    let dir = TempDir::new().unwrap();
    let config = small_limit(&dir);
    let sheet =
        format!("Blancas: {}\nNegras: Ruiz\n\n1. e4 e5, 2. Ac4 Cc6, 3. Dh5 Cf6, 4. Dxf7++\n", "Martín ".repeat(40));
    dir.child("mesa.txt").write_str(&sheet).unwrap();
    scoresheet().current_dir(dir.path()).args(["--config", &config, "convert", "mesa.txt"]).assert().code(0);
    assert!(dir.path().join("mesa.pgn").exists());
}

#[test]
fn a_line_longer_than_a_game_is_refused_naming_it() {
    let dir = TempDir::new().unwrap();
    dir.child("mesa.txt").write_str(&format!("1. e4 e5\n2. Cf3 {}\n", "Cc6 ".repeat(20_000))).unwrap();
    let out = scoresheet().current_dir(dir.path()).args(["convert", "mesa.txt"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("mesa.txt: rejected: line 2: the line is over 65536 bytes"), "{stderr}");
}

#[test]
fn a_game_with_a_broken_tag_is_rejected_naming_its_line_and_the_others_are_read() {
    let dir = TempDir::new().unwrap();
    dir.child("open.pgn").write_str(&format!("{GAMES}\n[White Ana\n\n1. e4 *\n\n{GAMES}")).unwrap();
    let out = convert_small(&dir, &["--json", "open.pgn"]);
    let games = json(&out.stdout)["files"][0]["games"].as_array().cloned().unwrap();
    assert_eq!(games.len(), 7);
    assert_eq!(
        (games[3]["status"].as_str(), games[3]["findings"][0]["code"].as_str()),
        (Some("rejected"), Some("game-not-read"))
    );
    assert!(games[3]["findings"][0]["message"].as_str().unwrap().contains("line 21"), "{}", games[3]);
    assert_eq!(games[6]["headers"]["White"], "Rosa");
}
