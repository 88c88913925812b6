//! A config the user wrote, as `scoresheet` reads it at start: a value outside
//! its range is refused with its line and what is allowed, exit 2, before any
//! file is read or any folder made.

use std::path::Path;
use std::time::Duration;

use assert_cmd::Command;
use assert_cmd::cargo::cargo_bin_cmd;
use assert_fs::TempDir;
use assert_fs::prelude::*;
use scoresheet::config::{Config, ConfigError};

/// A sheet with an illegible box the rest of the game does not settle: with
/// the built-in config it goes to review.
const ILLEGIBLE_DE: &str = "Weiß: Müller, Jan\nSchwarz: Schmidt, Eva\n\n\
                            1. e4 e5 2. Lc4 Sc6 3. Dh5 ? 4. Dxf7#\n";

fn scoresheet() -> Command {
    let mut c = cargo_bin_cmd!("scoresheet");
    // A refused config stops the program at once; a daemon that started
    // anyway would run until killed.
    c.timeout(Duration::from_secs(60));
    c
}

/// Runs `convert` on the illegible sheet with `config`; its exit status and stderr.
fn convert_with(dir: &TempDir, config: &str) -> (Option<i32>, String) {
    dir.child("c.yaml").write_str(config).unwrap();
    dir.child("mesa.txt").write_str(ILLEGIBLE_DE).unwrap();
    let out =
        scoresheet().current_dir(dir.path()).args(["--config", "c.yaml", "convert", "mesa.txt"]).output().unwrap();
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
}

/// The message of a refused config's text.
fn refusal(text: &str) -> String {
    match Config::parse(text) {
        Ok(_) => panic!("accepted: {text}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_negative_review_margin_is_refused_and_the_doubtful_game_not_written() {
    let dir = TempDir::new().unwrap();
    let (code, stderr) = convert_with(&dir, "repair: {limits: {review_margin: -100}}\n");
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("c.yaml"), "names the config: {stderr}");
    assert!(
        stderr.contains("line 1: repair.limits.review_margin is -100, allowed: 1.5 to beam_margin (8)"),
        "{stderr}"
    );
    assert!(!dir.path().join("mesa.pgn").exists(), "nothing is read with a refused config");

    // With the floor itself the repair is still doubted: the game goes to review.
    let (code, stderr) = convert_with(&dir, "repair: {limits: {review_margin: 1.5}}\n");
    assert_eq!(code, Some(3), "a game for review: {stderr}");
    let json = scoresheet()
        .current_dir(dir.path())
        .args(["--config", "c.yaml", "convert", "--json", "mesa.txt"])
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(report["files"][0]["games"][0]["status"], "review");
}

#[test]
fn a_review_margin_below_the_floor_or_past_the_beam_margin_is_refused_with_its_line() {
    let text = "# tuned\nrepair:\n  limits:\n    review_margin: 1.0\n";
    let e = refusal(text);
    assert!(e.starts_with("line 4: repair.limits.review_margin is 1, allowed: 1.5 to beam_margin (8)"), "{e}");
    // A rival costlier than the beam's margin is dropped before it is weighed:
    // a review margin past it would pass a doubtful repair as sure.
    let e = refusal("repair:\n  limits:\n    beam_margin: 2.0\n    review_margin: 3.0\n");
    assert!(e.starts_with("line 4: repair.limits.review_margin is 3, allowed: 1.5 to beam_margin (2)"), "{e}");
    assert!(Config::parse("repair: {limits: {review_margin: 8.0}}").is_ok());
}

#[test]
fn a_chatty_log_level_is_refused_with_the_levels() {
    let e = refusal("log:\n  format: json\n  level: chatty\n");
    assert!(
        e.starts_with("line 3: log.level is \"chatty\", allowed: one of off, error, warn, info, debug, trace"),
        "{e}"
    );
    for ok in ["debug", "WARN", "info,scoresheet=debug", "scoresheet::daemon=trace"] {
        assert!(Config::parse(&format!("log: {{level: \"{ok}\"}}")).is_ok(), "{ok}");
    }
    for bad in ["", "scoresheet", "info,chatty", "scoresheet=loud"] {
        assert!(Config::parse(&format!("log: {{level: \"{bad}\"}}")).is_err(), "{bad}");
    }
}

#[test]
fn a_million_workers_are_refused_before_the_daemon_starts() {
    let dir = TempDir::new().unwrap();
    dir.child("c.yaml").write_str("watch:\n  workers: 1000000\n").unwrap();
    let root = dir.path().join("drop");
    let out = scoresheet()
        .current_dir(dir.path())
        .args(["--config", "c.yaml", "watch", "--root", root.to_str().unwrap()])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("line 2: watch.workers is 1000000, allowed: 0 to 64"), "{stderr}");
    assert!(!root.exists(), "no folder is made with a refused config");
    assert!(Config::parse("watch: {workers: 64}").is_ok());
}

#[test]
fn zero_poll_and_scan_intervals_are_refused() {
    let e = refusal("watch:\n  poll: true\n  poll_interval_ms: 0\n  scan_interval_secs: 0\n");
    assert!(e.starts_with("line 3: watch.poll_interval_ms is 0, allowed: 50 to 60000"), "{e}");
    let e = refusal("watch: {poll_interval_ms: 50, scan_interval_secs: 0}");
    assert!(e.starts_with("line 1: watch.scan_interval_secs is 0, allowed: 1 to 86400"), "{e}");
    let e = refusal("watch: {settle_ms: 0}");
    assert!(e.contains("watch.settle_ms is 0, allowed: 50 to 60000"), "{e}");
    assert!(Config::parse("watch: {poll_interval_ms: 50, scan_interval_secs: 1, settle_ms: 50}").is_ok());
}

#[test]
fn a_negative_cost_is_refused() {
    let e = refusal("repair:\n  costs:\n    skip: 7.0\n    edits:\n      transpose: -0.5\n");
    assert!(e.starts_with("line 5: repair.costs.edits.transpose is -0.5, allowed: 0 to 100"), "{e}");
    let e = refusal("repair: {costs: {false_check: -1}}");
    assert!(e.starts_with("line 1: repair.costs.false_check is -1, allowed: 0 to 100"), "{e}");
    // 0 is a cost: `false_check: 0` leaves the check signs out of the reading.
    assert!(Config::parse("repair: {costs: {false_check: 0}}").is_ok());
}

#[test]
fn a_value_that_is_no_number_at_all_is_refused() {
    let e = refusal("repair:\n  limits:\n    beam_margin: .nan\n");
    assert!(e.starts_with("line 3: repair.limits.beam_margin is NaN"), "{e}");
    let e = refusal("repair: {limits: {hopeless: .inf}}");
    assert!(e.starts_with("line 1: repair.limits.hopeless is inf, allowed: 0 to 1000"), "{e}");
    let e = refusal("max_file_bytes: 0\n");
    assert!(e.starts_with("line 1: max_file_bytes is 0, allowed: 1 to 67108864"), "{e}");
    let e = refusal("repair: {limits: {beam: 0}}");
    assert!(e.contains("repair.limits.beam is 0, allowed: 1 to 10000"), "{e}");
}

#[test]
fn an_unknown_language_in_the_config_is_refused_with_its_line_and_the_codes() {
    let e = refusal("# the event's sheets\nlanguage: klingon\n");
    assert!(e.starts_with("line 2: language is \"klingon\", allowed: an ISO code or a name of one of en, es,"), "{e}");
    assert!(Config::parse("language: Español").is_ok());
}

#[test]
fn an_unknown_log_format_is_refused_with_the_formats() {
    let e = refusal("log:\n  format: xml\n");
    assert!(e.starts_with("line 2:") && e.contains("human") && e.contains("json"), "{e}");
}

#[test]
fn every_value_the_shipped_config_gives_is_in_range() {
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("config/default.yaml");
    let text = std::fs::read_to_string(shipped).unwrap();
    let config = Config::parse(&text).expect("the shipped config is accepted");
    assert!(config.check().is_ok());
    assert!(matches!(Config::parse("watch: {workers: 65}"), Err(ConfigError::Invalid { line: Some(1), .. })));
}

#[test]
fn a_budget_of_work_that_would_cut_real_sheets_is_refused() {
    let e = refusal("repair: {limits: {work_per_game: 0}}\n");
    assert!(e.contains("repair.limits.work_per_game is 0, allowed: 10000000 to"), "{e}");
    let e = refusal("repair: {limits: {file_ms: 1}}\n");
    assert!(e.contains("repair.limits.file_ms is 1, allowed: 1000 to 600000"), "{e}");
    let e = refusal("repair: {limits: {work_per_game: 20000000, work_per_file: 10000000}}\n");
    assert!(e.contains("repair.limits.work_per_file is 10000000, allowed: 20000000 to"), "{e}");
}
