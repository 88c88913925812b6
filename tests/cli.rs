//! The `scoresheet convert` command as a user runs it: where the PGN goes,
//! what `--json` prints, the exit status, and what is left on disk.

use std::path::Path;

use assert_cmd::Command;
use assert_cmd::cargo::cargo_bin_cmd;
use assert_fs::TempDir;
use assert_fs::prelude::*;
use serde_json::Value;

const SCHOLARS_MATE_ES: &str = "Torneo: Torneo escolar\nBlancas: Martín, Lucía\n\
                                Negras: Ruiz, Pablo\n\n1. e4 e5, 2. Ac4 Cc6, 3. Dh5 Cf6, 4. Dxf7++\n";

const FIDE_EXAMPLE_ES: &str = "Blancas: García, Ana\nNegras: López, Pedro\n\n\
    1.d4 Cf6, 2.c4 e6, 3.Cc3 Ab4, 4.Ad2 0-0, 5.e4 d5, 6. exd5 exd5, 7.cxd5 Axc3,\n\
    8.Axc3 Cxd5, 9.Cf3 b6, 10.Db3 Cxc3, 11.bxc3 c5, 12.Ae2 cxd4, 13.Cxd4 Te8,\n\
    14.0-0 Cd7, 15.a4 Cc5, 16.Db4 Ab7, 17.a5 1-0\n";

/// A sheet with an illegible box: converts, status review, with a finding.
const ILLEGIBLE_DE: &str = "Weiß: Müller, Jan\nSchwarz: Schmidt, Eva\n\n\
                            1. e4 e5 2. Lc4 Sc6 3. Dh5 ? 4. Dxf7#\n";

fn scoresheet() -> Command {
    cargo_bin_cmd!("scoresheet")
}

/// The names of the files in `dir`, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    names
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn assert_stderr_mentions(out: &std::process::Output, what: &str) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(what), "stderr does not mention {what}: {stderr}");
}

fn json_of(stdout: &[u8]) -> Value {
    let text = std::str::from_utf8(stdout).expect("stdout is UTF-8");
    serde_json::from_str(text.trim_end()).unwrap_or_else(|e| panic!("{e}: {text}"))
}

#[test]
fn convert_file_writes_stem_pgn_beside_it() {
    let dir = TempDir::new().unwrap();
    let sheet = dir.child("mesa7.txt");
    sheet.write_str(SCHOLARS_MATE_ES).unwrap();

    scoresheet().current_dir(dir.path()).args(["convert", "mesa7.txt"]).assert().success();

    let pgn = read(&dir.path().join("mesa7.pgn"));
    assert!(pgn.starts_with("[Event \"Torneo escolar\"]\n"), "{pgn}");
    assert!(pgn.contains("[White \"Martín, Lucía\"]\n"), "{pgn}");
    assert!(pgn.contains("4. Qxf7# 1-0"), "{pgn}");
    assert_eq!(listing(dir.path()), ["mesa7.pgn", "mesa7.txt"]);
}

#[test]
fn convert_with_a_path_in_another_folder_writes_beside_the_input() {
    let dir = TempDir::new().unwrap();
    dir.child("ronda1/mesa1.yaml")
        .write_str("white: Doe, Jane\nmoves: 1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7#\n")
        .unwrap();

    scoresheet().current_dir(dir.path()).args(["convert", "ronda1/mesa1.yaml"]).assert().success();

    assert_eq!(listing(dir.path()), ["ronda1"]);
    assert_eq!(listing(&dir.path().join("ronda1")), ["mesa1.pgn", "mesa1.yaml"]);
    assert!(read(&dir.path().join("ronda1/mesa1.pgn")).contains("4. Qxf7# 1-0"));
}

#[test]
fn convert_with_output_dir_writes_there_and_creates_it() {
    let dir = TempDir::new().unwrap();
    dir.child("in/fide.txt").write_str(FIDE_EXAMPLE_ES).unwrap();

    scoresheet().current_dir(dir.path()).args(["convert", "--output", "out/pgn", "in/fide.txt"]).assert().success();

    assert_eq!(listing(&dir.path().join("in")), ["fide.txt"]);
    let pgn = read(&dir.path().join("out/pgn/fide.pgn"));
    assert!(pgn.contains("[White \"García, Ana\"]"), "{pgn}");
    assert!(pgn.contains("17. a5 1-0"), "{pgn}");
}

#[test]
fn convert_json_prints_one_document_with_the_report_shape() {
    let dir = TempDir::new().unwrap();
    dir.child("mesa3.txt").write_str(ILLEGIBLE_DE).unwrap();

    let out = scoresheet().current_dir(dir.path()).args(["convert", "--json", "mesa3.txt"]).output().unwrap();
    assert_eq!(out.status.code(), Some(3), "a game for review");
    let doc = json_of(&out.stdout);

    let files = doc["files"].as_array().expect("files: [...]");
    assert_eq!(files.len(), 1);
    let file = &files[0];
    assert_eq!(file["path"], "mesa3.txt");
    assert!(file["error"].is_null());
    let games = file["games"].as_array().expect("games: [...]");
    assert_eq!(games.len(), 1);
    let game = &games[0];
    assert_eq!(game["status"], "review");
    assert_eq!(game["language"], "de");
    assert_eq!(game["headers"]["White"], "Müller, Jan");
    assert_eq!(game["headers"]["Black"], "Schmidt, Eva");
    let moves: Vec<&str> = game["moves"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
    assert_eq!(moves[..5], ["e4", "e5", "Bc4", "Nc6", "Qh5"]);
    assert!(["*", "1-0"].contains(&game["result"].as_str().unwrap()));
    assert!(game["pgn"].as_str().unwrap().starts_with("[Event \"?\"]\n"));

    let findings = game["findings"].as_array().expect("findings: [...]");
    for f in findings {
        for key in ["code", "severity", "ply", "move", "written", "replacement", "alternatives", "message"] {
            assert!(f.get(key).is_some(), "finding without {key}: {f}");
        }
        assert!(f["code"].is_string() && f["message"].is_string());
        assert!(["info", "warning", "error"].contains(&f["severity"].as_str().unwrap()));
        assert!(f["alternatives"].is_array());
    }
    let illegible = findings
        .iter()
        .find(|f| f["written"] == "?")
        .unwrap_or_else(|| panic!("no finding about the \"?\" box in {findings:?}"));
    assert_ne!(illegible["severity"], "info");
    assert_eq!(illegible["ply"], 6);
    assert_eq!(illegible["move"], "3...");
    assert!(illegible["message"].as_str().unwrap().contains("3..."));

    // With --json and no --output nothing is written.
    assert_eq!(listing(dir.path()), ["mesa3.txt"]);
}

#[test]
fn convert_json_with_output_writes_the_pgn_too() {
    let dir = TempDir::new().unwrap();
    dir.child("mesa7.txt").write_str(SCHOLARS_MATE_ES).unwrap();

    let out = scoresheet()
        .current_dir(dir.path())
        .args(["convert", "--json", "--output", "out", "mesa7.txt"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let doc = json_of(&out.stdout);
    let game = &doc["files"][0]["games"][0];
    assert_eq!(game["status"], "validated");
    assert_eq!(read(&dir.path().join("out/mesa7.pgn")), game["pgn"].as_str().unwrap());
}

#[test]
fn exit_status_is_0_when_every_game_is_validated() {
    let dir = TempDir::new().unwrap();
    dir.child("a.txt").write_str(SCHOLARS_MATE_ES).unwrap();
    dir.child("b.txt").write_str(FIDE_EXAMPLE_ES).unwrap();

    scoresheet().current_dir(dir.path()).args(["convert", "a.txt", "b.txt"]).assert().code(0);
}

#[test]
fn exit_status_is_3_when_a_game_is_for_review_and_none_rejected() {
    let dir = TempDir::new().unwrap();
    dir.child("a.txt").write_str(SCHOLARS_MATE_ES).unwrap();
    // A game with an illegible box is read for review: written, but an arbiter must look.
    dir.child("b.txt").write_str(ILLEGIBLE_DE).unwrap();

    scoresheet().current_dir(dir.path()).args(["convert", "a.txt", "b.txt"]).assert().code(3);
    scoresheet().current_dir(dir.path()).args(["convert", "--json", "b.txt"]).assert().code(3);
    assert!(dir.path().join("b.pgn").is_file());
}

#[test]
fn exit_status_is_1_when_a_file_is_rejected_beside_one_for_review() {
    let dir = TempDir::new().unwrap();
    dir.child("b.txt").write_str(ILLEGIBLE_DE).unwrap();
    dir.child("empty.txt").touch().unwrap();

    scoresheet().current_dir(dir.path()).args(["convert", "b.txt", "empty.txt"]).assert().code(1);
}

#[test]
fn help_gives_the_exit_statuses() {
    for args in [&["convert", "--help"][..], &["--help"]] {
        let out = scoresheet().args(args).assert().success().get_output().clone();
        let help = String::from_utf8_lossy(&out.stdout);
        for line in [
            "0  every game validated",
            "1  a file or a game rejected",
            "2  usage or config error",
            "3  a game for review",
        ] {
            assert!(help.contains(line), "{args:?} --help does not say \"{line}\": {help}");
        }
    }
}

#[test]
fn exit_status_is_1_when_a_file_is_empty() {
    let dir = TempDir::new().unwrap();
    dir.child("empty.txt").touch().unwrap();

    let out = scoresheet().current_dir(dir.path()).args(["convert", "empty.txt"]).assert().code(1).get_output().clone();
    assert_stderr_mentions(&out, "empty.txt");
    assert_eq!(listing(dir.path()), ["empty.txt"]);
}

#[test]
fn exit_status_is_1_when_a_file_does_not_exist() {
    let dir = TempDir::new().unwrap();
    let out = scoresheet().current_dir(dir.path()).args(["convert", "--json", "missing.txt"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let doc = json_of(&out.stdout);
    assert_eq!(doc["files"][0]["path"], "missing.txt");
    assert!(doc["files"][0]["error"].is_string());
}

#[test]
fn exit_status_is_2_on_an_unknown_flag() {
    let dir = TempDir::new().unwrap();
    dir.child("a.txt").write_str(SCHOLARS_MATE_ES).unwrap();

    let out = scoresheet()
        .current_dir(dir.path())
        .args(["convert", "--outptu", "out", "a.txt"])
        .assert()
        .code(2)
        .get_output()
        .clone();
    assert_stderr_mentions(&out, "--outptu");
    assert_eq!(listing(dir.path()), ["a.txt"]);
}

#[test]
fn exit_status_is_2_on_an_unknown_language() {
    let dir = TempDir::new().unwrap();
    dir.child("a.txt").write_str(SCHOLARS_MATE_ES).unwrap();

    let out = scoresheet()
        .current_dir(dir.path())
        .args(["convert", "--language", "klingon", "a.txt"])
        .assert()
        .code(2)
        .get_output()
        .clone();
    assert_stderr_mentions(&out, "klingon");
    assert_eq!(listing(dir.path()), ["a.txt"]);
}

#[test]
fn exit_status_is_2_on_a_config_with_an_unknown_field() {
    let dir = TempDir::new().unwrap();
    dir.child("a.txt").write_str(SCHOLARS_MATE_ES).unwrap();
    dir.child("bad.yaml").write_str("watch:\n  inbx: drop\n").unwrap();

    let out = scoresheet()
        .current_dir(dir.path())
        .args(["--config", "bad.yaml", "convert", "a.txt"])
        .assert()
        .code(2)
        .get_output()
        .clone();
    assert_stderr_mentions(&out, "bad.yaml");
    assert_eq!(listing(dir.path()), ["a.txt", "bad.yaml"]);
}

#[test]
fn language_flag_reads_sheets_in_that_language() {
    let dir = TempDir::new().unwrap();
    // Italian and Spanish use the same letters: --language decides the name.
    dir.child("a.txt").write_str("1. e4 e5 2. Ac4 Cc6 3. Dh5 Cf6 4. Dxf7#\n").unwrap();

    let out =
        scoresheet().current_dir(dir.path()).args(["convert", "--json", "--language", "it", "a.txt"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let game = &json_of(&out.stdout)["files"][0]["games"][0];
    assert_eq!(game["language"], "it");
    assert_eq!(game["status"], "validated");
}

#[test]
fn a_bad_file_among_good_ones_does_not_stop_the_run() {
    let dir = TempDir::new().unwrap();
    dir.child("mesa1.txt").write_str(SCHOLARS_MATE_ES).unwrap();
    dir.child("mesa2.txt").touch().unwrap();
    dir.child("mesa3.csv").write_str("#,White,Black\n1,d4,Nf6\n2,c4,e6\n").unwrap();

    let out = scoresheet()
        .current_dir(dir.path())
        .args(["convert", "--json", "--output", "out", "mesa1.txt", "mesa2.txt", "mesa3.csv"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let doc = json_of(&out.stdout);
    let files = doc["files"].as_array().unwrap();
    let paths: Vec<&str> = files.iter().map(|f| f["path"].as_str().unwrap()).collect();
    assert_eq!(paths, ["mesa1.txt", "mesa2.txt", "mesa3.csv"]);
    assert!(files[0]["error"].is_null());
    assert!(files[1]["error"].is_string());
    assert!(files[2]["error"].is_null());

    // mesa3 has no result written: its game is read and published with `*`,
    // the notice (result-missing) asking the arbiter for the result; no
    // review page.
    assert_eq!(listing(&dir.path().join("out")), ["mesa1.pgn", "mesa3.pgn"]);
    assert!(read(&dir.path().join("out/mesa3.pgn")).contains("1. d4 Nf6 2. c4 e6 *"));
}

#[test]
fn no_tmp_or_partial_file_is_left_in_the_output_folder() {
    let dir = TempDir::new().unwrap();
    dir.child("a.txt").write_str(SCHOLARS_MATE_ES).unwrap();
    dir.child("b.txt").write_str(FIDE_EXAMPLE_ES).unwrap();
    dir.child("c.txt").touch().unwrap();

    scoresheet()
        .current_dir(dir.path())
        .args(["convert", "--output", "out", "a.txt", "b.txt", "c.txt"])
        .assert()
        .code(1);
    assert_eq!(listing(&dir.path().join("out")), ["a.pgn", "b.pgn"]);
}

#[test]
fn no_tmp_file_is_left_when_the_pgn_cannot_be_written() {
    let dir = TempDir::new().unwrap();
    dir.child("a.txt").write_str(SCHOLARS_MATE_ES).unwrap();
    // Where a.pgn should go there is a folder, and --force asks to replace it: the write fails.
    dir.child("out/a.pgn").create_dir_all().unwrap();

    let out = scoresheet()
        .current_dir(dir.path())
        .args(["convert", "--force", "--output", "out", "a.txt"])
        .assert()
        .code(1)
        .get_output()
        .clone();
    assert_stderr_mentions(&out, "a.pgn");
    assert_eq!(listing(&dir.path().join("out")), ["a.pgn"]);
    assert!(dir.path().join("out/a.pgn").is_dir());
}

#[test]
fn converting_a_corrected_sheet_again_keeps_the_old_pgn_and_says_where_the_new_one_is() {
    let dir = TempDir::new().unwrap();
    let sheet = dir.child("mesa.txt");
    sheet.write_str(SCHOLARS_MATE_ES).unwrap();
    scoresheet().current_dir(dir.path()).args(["convert", "mesa.txt"]).assert().success();
    sheet.write_str(FIDE_EXAMPLE_ES).unwrap();
    let out =
        scoresheet().current_dir(dir.path()).args(["convert", "mesa.txt"]).assert().success().get_output().clone();

    assert_stderr_mentions(&out, "mesa.pgn already exists");
    assert_stderr_mentions(&out, "mesa.scoresheet.pgn written instead");
    assert!(read(&dir.path().join("mesa.pgn")).contains("Qxf7#"));
    assert!(read(&dir.path().join("mesa.scoresheet.pgn")).contains("17. a5 1-0"));
    assert_eq!(listing(dir.path()), ["mesa.pgn", "mesa.scoresheet.pgn", "mesa.txt"]);
}

#[test]
fn converting_again_with_force_replaces_the_old_pgn() {
    let dir = TempDir::new().unwrap();
    let sheet = dir.child("mesa.txt");
    sheet.write_str(SCHOLARS_MATE_ES).unwrap();
    scoresheet().current_dir(dir.path()).args(["convert", "mesa.txt"]).assert().success();
    sheet.write_str(FIDE_EXAMPLE_ES).unwrap();
    scoresheet().current_dir(dir.path()).args(["convert", "--force", "mesa.txt"]).assert().success();

    let pgn = read(&dir.path().join("mesa.pgn"));
    assert!(pgn.contains("17. a5 1-0"), "{pgn}");
    assert!(!pgn.contains("Qxf7#"), "{pgn}");
    assert_eq!(listing(dir.path()), ["mesa.pgn", "mesa.txt"]);
}

#[test]
fn converting_the_same_sheet_twice_leaves_one_pgn() {
    let dir = TempDir::new().unwrap();
    dir.child("mesa.txt").write_str(SCHOLARS_MATE_ES).unwrap();
    scoresheet().current_dir(dir.path()).args(["convert", "--output", "out", "mesa.txt"]).assert().success();
    let first = read(&dir.path().join("out/mesa.pgn"));
    scoresheet().current_dir(dir.path()).args(["convert", "--output", "out", "mesa.txt"]).assert().success();

    assert_eq!(listing(&dir.path().join("out")), ["mesa.pgn"]);
    assert_eq!(read(&dir.path().join("out/mesa.pgn")), first);
}

/// Three hand-typed games, kept beside a sheet of the same stem.
const THREE_GAMES_PGN: &str = "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 1-0\n\n\
                               [White \"C\"]\n[Black \"D\"]\n\n1. d4 d5 0-1\n\n\
                               [White \"E\"]\n[Black \"F\"]\n\n1. c4 c5 *\n";

#[test]
fn converting_a_sheet_beside_a_hand_typed_pgn_of_its_name_keeps_the_pgn() {
    let dir = TempDir::new().unwrap();
    dir.child("side/game.pgn").write_str(THREE_GAMES_PGN).unwrap();
    dir.child("side/game.txt").write_str(SCHOLARS_MATE_ES).unwrap();

    let out = scoresheet()
        .current_dir(dir.path())
        .args(["convert", "-v", "side/game.txt"])
        .assert()
        .code(0)
        .get_output()
        .clone();

    assert_eq!(read(&dir.path().join("side/game.pgn")), THREE_GAMES_PGN);
    assert!(read(&dir.path().join("side/game.scoresheet.pgn")).contains("4. Qxf7# 1-0"));
    assert_stderr_mentions(&out, "side/game.pgn already exists");
    assert_stderr_mentions(&out, "side/game.scoresheet.pgn written instead");
    assert!(String::from_utf8_lossy(&out.stdout).contains("-> side/game.scoresheet.pgn"));
}

#[test]
fn converting_a_sheet_and_a_pgn_of_one_stem_into_one_folder_writes_both() {
    let dir = TempDir::new().unwrap();
    dir.child("multi.txt").write_str(SCHOLARS_MATE_ES).unwrap();
    dir.child("multi.pgn").write_str(THREE_GAMES_PGN).unwrap();

    let out = scoresheet()
        .current_dir(dir.path())
        .args(["convert", "--output", "o2", "multi.txt", "multi.pgn"])
        .assert()
        .code(0)
        .get_output()
        .clone();

    assert_eq!(listing(&dir.path().join("o2")), ["multi.pgn", "multi.scoresheet.pgn"]);
    assert!(read(&dir.path().join("o2/multi.pgn")).contains("4. Qxf7# 1-0"));
    assert_eq!(read(&dir.path().join("o2/multi.scoresheet.pgn")).matches("[White ").count(), 3);
    assert_stderr_mentions(&out, "o2/multi.pgn holds an earlier output of this run");
}

#[test]
fn converting_three_sheets_of_one_name_from_three_folders_writes_three_files() {
    let dir = TempDir::new().unwrap();
    for folder in ["a", "b", "c"] {
        dir.child(format!("{folder}/mesa.txt")).write_str(SCHOLARS_MATE_ES).unwrap();
    }
    for force in [false, true] {
        let mut cmd = scoresheet();
        cmd.current_dir(dir.path()).args(["convert", "--output", "out"]);
        if force {
            // --force replaces the files of the first run, never one of its own.
            cmd.arg("--force");
        }
        cmd.args(["a/mesa.txt", "b/mesa.txt", "c/mesa.txt"]).assert().code(0);
        assert_eq!(listing(&dir.path().join("out")), ["mesa.pgn", "mesa.scoresheet-2.pgn", "mesa.scoresheet.pgn"]);
    }
}

#[test]
fn converting_with_force_a_sheet_and_the_hand_typed_pgn_beside_it_keeps_the_pgn() {
    let dir = TempDir::new().unwrap();
    dir.child("game.pgn").write_str(THREE_GAMES_PGN).unwrap();
    dir.child("game.txt").write_str(SCHOLARS_MATE_ES).unwrap();

    scoresheet().current_dir(dir.path()).args(["convert", "--force", "game.txt", "game.pgn"]).assert().code(0);

    // An input is never replaced, not even with --force (game.pgn is read after game.txt).
    assert_eq!(read(&dir.path().join("game.pgn")), THREE_GAMES_PGN);
    assert!(read(&dir.path().join("game.scoresheet.pgn")).contains("4. Qxf7# 1-0"));
    assert_eq!(read(&dir.path().join("game.scoresheet-2.pgn")).matches("[White ").count(), 3);
}

#[test]
fn converting_sheets_named_with_dots_keeps_the_whole_name() {
    let dir = TempDir::new().unwrap();
    dir.child("r1.b3.txt").write_str(SCHOLARS_MATE_ES).unwrap();
    dir.child("r1.b4.txt").write_str(FIDE_EXAMPLE_ES).unwrap();

    scoresheet()
        .current_dir(dir.path())
        .args(["convert", "--output", "out", "r1.b3.txt", "r1.b4.txt"])
        .assert()
        .code(0);

    assert_eq!(listing(&dir.path().join("out")), ["r1.b3.pgn", "r1.b4.pgn"]);
}

#[test]
fn converting_a_fifo_refuses_it_and_converts_the_other_files() {
    let dir = TempDir::new().unwrap();
    dir.child("a.txt").write_str(SCHOLARS_MATE_ES).unwrap();
    let made = std::process::Command::new("mkfifo").arg(dir.path().join("pipe.txt")).status().unwrap();
    assert!(made.success());

    // Nobody writes to the FIFO: opening it would wait for ever (the limit only ends a hang).
    let out = scoresheet()
        .current_dir(dir.path())
        .args(["convert", "--output", "out", "pipe.txt", "a.txt"])
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .code(1)
        .get_output()
        .clone();

    assert_stderr_mentions(&out, "pipe.txt: rejected: not a regular file (a FIFO)");
    assert_eq!(listing(&dir.path().join("out")), ["a.pgn"]);
}

#[test]
fn converting_a_folder_or_a_device_refuses_it_and_converts_the_other_files() {
    let dir = TempDir::new().unwrap();
    dir.child("a.txt").write_str(SCHOLARS_MATE_ES).unwrap();
    dir.child("ronda.txt").create_dir_all().unwrap();

    let out = scoresheet()
        .current_dir(dir.path())
        .args(["convert", "--json", "--output", "out", "ronda.txt", "/dev/null", "a.txt"])
        .output()
        .unwrap();

    assert_eq!(out.status.code(), Some(1));
    let doc = json_of(&out.stdout);
    assert_eq!(doc["files"][0]["error"], "not a regular file (a folder); not read");
    assert_eq!(doc["files"][1]["error"], "not a regular file (a device); not read");
    assert!(doc["files"][2]["error"].is_null());
    assert_eq!(listing(&dir.path().join("out")), ["a.pgn"]);
}

#[test]
fn the_input_sheet_is_never_modified() {
    let dir = TempDir::new().unwrap();
    let inputs: [(&str, &[u8]); 4] = [
        ("mesa1.txt", SCHOLARS_MATE_ES.as_bytes()),
        ("mesa2.csv", b"Blancas;P\xe9rez\r\n1;e4;e5\r\n2;Ac4;Cc6\r\n"),
        ("mesa3.yaml", b"\xEF\xBB\xBFmoves: [[e4, e5], [Ac4]]\n"),
        ("mesa4.txt", ILLEGIBLE_DE.as_bytes()),
    ];
    for (name, bytes) in inputs {
        dir.child(name).write_binary(bytes).unwrap();
    }
    let names: Vec<&str> = inputs.iter().map(|(n, _)| *n).collect();
    // 3: mesa4's game is for review.
    scoresheet().current_dir(dir.path()).arg("convert").args(&names).assert().code(3);
    for (name, bytes) in inputs {
        assert_eq!(std::fs::read(dir.path().join(name)).unwrap(), bytes, "{name}");
    }
}

#[test]
fn a_hand_typed_pgn_is_not_overwritten_by_its_conversion() {
    let dir = TempDir::new().unwrap();
    let typed = "[Event \"Stadtmeisterschaft\"]\n[White \"Müller, Jan\"]\n\
                 [Black \"Schmidt, Eva\"]\n\n1. e4 e5 2. Lc4 Sc6 3. Dh5 Sf6 4. Dxf7# 1-0\n";
    dir.child("runde3.pgn").write_str(typed).unwrap();

    let _ = scoresheet().current_dir(dir.path()).args(["convert", "runde3.pgn"]).output().unwrap();

    assert_eq!(read(&dir.path().join("runde3.pgn")), typed);
    let written = read(&dir.path().join("runde3.scoresheet.pgn"));
    assert!(written.contains("4. Qxf7# 1-0"), "{written}");
}

#[test]
fn verbose_lists_every_finding_of_a_validated_game_its_repairs_too() {
    let dir = TempDir::new().unwrap();
    dir.child("mesa.txt").write_str("Blancas: Pérez\nNegras: Ruiz\n\n1.e4 e5 2.Clf3 Cc6 1-0\n").unwrap();
    let out = scoresheet().current_dir(dir.path()).args(["convert", "-v", "mesa.txt"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let told = String::from_utf8_lossy(&out.stdout);
    assert!(told.contains("mesa.txt: validated"), "{told}");
    assert!(told.contains("typo-repaired") && told.contains("written \"Clf3\", read as Nf3"), "{told}");
}
