//! The 600 typed sheets of real games in the development corpus's
//! sheets-dev, checked against their truth.json: what an organizer would
//! check by hand.
//!
//! They are not in the repository: run with
//! `SCORESHEET_CORPUS=DIR cargo test --release --workspace -- --ignored`.

use std::path::PathBuf;

use scoresheet::convert::{Options, convert};
use scoresheet::emit::report::Status;
use scoresheet_dev::corpus::dev_sheets;
use scoresheet_dev::slips::{legal_slips, only_legal_slips, truth_faults};
use serde_json::Value;

fn corpus() -> PathBuf {
    dev_sheets()
}

fn truth() -> Vec<Value> {
    let text = std::fs::read_to_string(corpus().join("truth.json")).expect("the dev sheets' truth.json");
    serde_json::from_str::<Value>(&text).unwrap().as_array().unwrap().clone()
}

fn is_clean(t: &Value) -> bool {
    t["injected"].as_array().is_some_and(Vec::is_empty) && t["truncated"] == false && t["descriptive"] == false
}

fn sans(t: &Value) -> Vec<String> {
    t["sans"].as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_string()).collect()
}

/// Languages with the same piece letters cannot be told apart by the moves.
fn same_letters(a: &str, b: &str) -> bool {
    let la = scoresheet::notation::Language::find(a).unwrap();
    let lb = scoresheet::notation::Language::find(b).unwrap();
    la.same_letters(lb)
}

#[test]
#[ignore = "needs the development corpus (SCORESHEET_CORPUS)"]
fn every_sheet_without_a_fault_is_validated_with_the_true_moves_and_language() {
    let mut checked = 0;
    for t in truth().iter().filter(|t| is_clean(t)) {
        let file = t["file"].as_str().unwrap();
        let bytes = std::fs::read(corpus().join(file)).unwrap();
        let report = convert(file, &bytes, &Options::default());
        assert_eq!(report.error, None, "{file}");
        let game = &report.games[0];
        assert_eq!(game.status, Status::Validated, "{file}: {:?}", game.findings);
        assert_eq!(game.moves, sans(t), "{file}");
        assert!(game.findings.iter().all(|f| f.severity == scoresheet::finding::Severity::Info), "{file}");
        assert!(
            same_letters(&game.language, t["lang"].as_str().unwrap()),
            "{file}: {} for {}",
            game.language,
            t["lang"]
        );
        checked += 1;
    }
    assert!(checked >= 200, "only {checked} clean sheets found");
}

#[test]
#[ignore = "needs the development corpus (SCORESHEET_CORPUS)"]
fn every_sheet_is_read_in_its_language_faults_and_descriptive_notation_and_all() {
    // Sheet 233 (Spanish, descriptive from move 2) was once read as Dutch: the
    // few algebraic moves before the descriptive ones happened to cost less
    // under Dutch letters.
    let mut wrong = Vec::new();
    for t in truth() {
        let file = t["file"].as_str().unwrap();
        let bytes = std::fs::read(corpus().join(file)).unwrap();
        let report = convert(file, &bytes, &Options::default());
        if let Some(game) = report.games.first()
            && !same_letters(&game.language, t["lang"].as_str().unwrap())
        {
            wrong.push(format!("{file}: {} for {}", game.language, t["lang"]));
        }
    }
    assert!(wrong.is_empty(), "{wrong:?}");
}

/// A slip that makes another legal game (written "Qe2" where Qc2 was played,
/// and Qe2 is legal too) cannot be seen on the sheet; eval/score.py leaves such
/// sheets out. They are found the same way: the entries as written, read
/// strictly under the true language, make a legal game that is not the truth.
fn undetectable(t: &Value) -> bool {
    let written: Vec<String> =
        t["written"].as_array().unwrap().iter().filter_map(Value::as_str).map(String::from).collect();
    scoresheet_dev::slips::undetectable(&written, t["lang"].as_str().unwrap(), &sans(t))
}

/// The dev sheets validated but not the game played, under `opts`: (the
/// reader's errors, legal slips never contradicted).
fn validated_wrong(opts: &Options) -> (Vec<String>, Vec<String>) {
    // A slip that turns one legal move into another and is never contradicted
    // later (written "Dd3" for the last move Qc3, Qd3 legal too) cannot be
    // seen on the sheet even when other faults are: such games are counted
    // apart from the reader's own errors.
    let (mut wrong, mut unseen) = (Vec::new(), Vec::new());
    for t in truth().iter().filter(|t| !undetectable(t)) {
        let file = t["file"].as_str().unwrap();
        let bytes = std::fs::read(corpus().join(file)).unwrap();
        let report = convert(file, &bytes, opts);
        if let Some(g) = report.games.first()
            && g.status == Status::Validated
            && g.moves != sans(t)
        {
            let faults = truth_faults(t["injected"].as_array().unwrap());
            let slips = legal_slips(&sans(t), t["lang"].as_str().unwrap(), &faults);
            if only_legal_slips(&g.moves, &sans(t), &slips) {
                unseen.push(file.to_string());
            } else {
                wrong.push(file.to_string());
            }
        }
    }
    (wrong, unseen)
}

#[test]
#[ignore = "needs the development corpus (SCORESHEET_CORPUS)"]
fn no_sheet_is_validated_unless_it_is_the_game_played() {
    let (wrong, unseen) = validated_wrong(&Options::default());
    eprintln!(
        "validated, not the game: {} reader errors {wrong:?}; {} slips never contradicted {unseen:?}",
        wrong.len(),
        unseen.len()
    );
    // The aim is at most one such game in all. These ceilings are what
    // the reader achieves now, a ratchet: lower them, never raise them. (The
    // second was raised once, from 5 to 6: sheet 269's 51...Kf8 for Kf7, two
    // moves from the end, went to review only because its "..." box was
    // dropped on reading; kept as an illegible box, nothing contradicts the slip.)
    assert!(wrong.is_empty(), "validated but not the game, and the sheet shows it ({}): {wrong:?}", wrong.len());
    assert!(unseen.len() <= 6, "validated a legal slip never contradicted ({}): {unseen:?}", unseen.len());
}

#[test]
#[ignore = "needs the development corpus (SCORESHEET_CORPUS)"]
fn few_determinable_sheets_are_sent_to_review() {
    // Every game in review costs an arbiter's time. Of the games that
    // legality alone settles (no omitted or illegible move with several legal
    // fits, not descriptive), the aim is that at most 5% go to review. A game read wrong must go there; one read right should not.
    let (mut right, mut wrong) = (Vec::new(), Vec::new());
    let mut determinable = 0;
    for t in truth() {
        let settled = t["injected"].as_array().unwrap().iter().all(|f| f["alternatives"].as_u64().unwrap_or(1) <= 1);
        if t["descriptive"] == true || t["undetectable"] == true || !settled {
            continue;
        }
        determinable += 1;
        let file = t["file"].as_str().unwrap();
        let bytes = std::fs::read(corpus().join(file)).unwrap();
        let report = convert(file, &bytes, &Options::default());
        if let Some(g) = report.games.first()
            && g.status == Status::Review
        {
            if g.moves == sans(&t) { &mut right } else { &mut wrong }.push(file.to_string());
        }
    }
    eprintln!(
        "of {determinable} determinable sheets, in review: {} read right, {} read wrong",
        right.len(),
        wrong.len()
    );
    // Ratchets on what the reader achieves now (63, 67 before check signs
    // were read as evidence; the target is 5%, 27): lower them, never raise them.
    let sent = right.len() + wrong.len();
    assert!(sent <= 63, "{sent} determinable sheets sent to review; read right: {right:?}; read wrong: {wrong:?}");
    // The reading an arbiter sees first is the game played, as often as the
    // sheet and the moves players choose allow (27 read wrong before the
    // opening book and the material check ordered readings in doubt; 14 now).
    assert!(wrong.len() <= 14, "{} sheets in review read wrong: {wrong:?}", wrong.len());
}

#[test]
#[ignore = "needs the development corpus (SCORESHEET_CORPUS)"]
fn the_plausibility_of_the_moves_never_validates_a_reading() {
    // The opening book and the material check order readings in doubt; a
    // later window may then settle the doubt from the reading they chose
    // (sheet 525, with the reach raised to the review margin: 3...d6 written
    // for a6, the book's a6 put first, then 36.Rd5 validated from it). However
    // far they reach, the games validated wrong must be no more than without
    // them.
    let mut far = Options::default();
    far.params.limits.prior_reach = far.params.limits.review_margin;
    let mut off = Options::default();
    off.params.limits.prior_reach = 0.0;
    let (far_wrong, far_unseen) = validated_wrong(&far);
    let (off_wrong, off_unseen) = validated_wrong(&off);
    assert!(far_wrong.len() <= off_wrong.len(), "{far_wrong:?} against {off_wrong:?} without the prior");
    assert!(far_unseen.len() <= off_unseen.len(), "{far_unseen:?} against {off_unseen:?} without the prior");
}
