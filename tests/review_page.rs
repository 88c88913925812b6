//! `convert --output DIR` writes a review page beside each file with a game
//! in review, and an index of them: what an organizer without the daemon
//! hands the arbiter.

use std::fs;

use assert_cmd::cargo::cargo_bin_cmd;

fn convert_into(dir: &std::path::Path, files: &[(&str, &str)]) -> std::process::Output {
    let mut cmd = cargo_bin_cmd!("scoresheet");
    cmd.arg("convert").arg("--output").arg(dir.join("out"));
    for (name, text) in files {
        let path = dir.join(name);
        fs::write(&path, text).unwrap();
        cmd.arg(path);
    }
    cmd.output().unwrap()
}

const DOUBT: &str = "Event: Open\nRound: 2\nWhite: Navara\nBlack: Ana\n\n1.e4 e5 2.Cf3 ? 3.Ab5 a6 4.Aa4 Cf6\n";

#[test]
fn a_game_in_review_gets_a_page_with_the_board_and_the_alternatives_and_the_index_lists_it() {
    let t = tempfile::tempdir().unwrap();
    let out = convert_into(t.path(), &[("mesa3.txt", DOUBT), ("mesa4.txt", "1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 1-0\n")]);
    assert_eq!(out.status.code(), Some(3), "{}", String::from_utf8_lossy(&out.stderr));
    let dir = t.path().join("out");
    let page = fs::read_to_string(dir.join("mesa3.review.html")).expect("the review page");
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert!(page.contains("Navara – Ana"), "the players head the page");
    assert!(page.contains("ambiguous-repair"));
    // The board before 2...Nc6: the knight still on b8, the pawn on e5.
    assert_eq!(page.matches("<svg").count(), 1, "one board, at the one doubt");
    assert!(page.contains("♞") && page.contains("♙"));
    // The move read and each alternative the rest of the game allows.
    for m in ["Nc6", "c6", "b5"] {
        assert_eq!(page.matches(&format!("<span class=\"alt\">{m}</span>")).count(), 1, "{m} offered once");
    }
    // The moves as written beside the moves as read, with where each is.
    assert!(page.contains("<span title=\"line 6, column 11\">Cf3</span></td><td>Nf3</td>"), "{page}");
    assert!(page.contains("<span title=\"line 6, column 15\">?</span></td><td class=\"doubt\">Nc6</td>"));
    assert!(!fs::exists(dir.join("mesa4.review.html")).unwrap(), "a validated game has no page");
    let index = fs::read_to_string(dir.join("index.html")).expect("the index");
    assert!(index.contains("href=\"mesa3.review.html\"") && !index.contains("mesa4"), "{index}");
}

#[test]
fn the_page_needs_no_network_and_shows_text_from_the_sheet_as_text() {
    let t = tempfile::tempdir().unwrap();
    let sheet = DOUBT.replace("White: Navara", "White: <script>alert(1)</script><img src=x onerror=alert(2)>");
    convert_into(t.path(), &[("x.txt", &sheet)]);
    let page = fs::read_to_string(t.path().join("out/x.review.html")).unwrap();
    assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;"));
    assert!(!page.contains("<script") && !page.contains("<img"), "no markup from the sheet");
    for outside in ["http:", "https:", "//", "@import", "url("] {
        assert!(!page.replace("<!DOCTYPE", "").contains(outside), "{outside} in the page");
    }
}

#[test]
fn without_output_no_page_is_written() {
    let t = tempfile::tempdir().unwrap();
    let path = t.path().join("mesa3.txt");
    fs::write(&path, DOUBT).unwrap();
    cargo_bin_cmd!("scoresheet").arg("convert").arg(&path).output().unwrap();
    let mut names: Vec<String> =
        fs::read_dir(t.path()).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    assert_eq!(names, ["mesa3.pgn", "mesa3.txt"]);
}

#[test]
fn a_second_run_into_the_same_folder_keeps_each_pages_extension_and_says_each_clash() {
    let t = tempfile::tempdir().unwrap();
    convert_into(t.path(), &[("mesa3.txt", DOUBT)]);
    // Another run, another sheet in doubt under the same stem in another folder.
    fs::create_dir(t.path().join("b")).unwrap();
    let other = DOUBT.replace("Navara", "Shirov");
    let out = convert_into(t.path(), &[("b/mesa3.txt", &other)]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let dir = t.path().join("out");
    let page = fs::read_to_string(dir.join("mesa3.scoresheet.review.html")).expect("the second page, an HTML name");
    assert!(page.starts_with("<!DOCTYPE html>") && page.contains("Shirov"));
    let index = fs::read_to_string(dir.join("index.scoresheet.html")).expect("the second index, an HTML name");
    assert!(index.contains("href=\"mesa3.scoresheet.review.html\""), "the index lists this run's page: {index}");
    assert!(!fs::exists(dir.join("index.scoresheet.pgn")).unwrap(), "no HTML under a .pgn name");
    assert!(stderr.contains("its review page") && stderr.contains("mesa3.scoresheet.review.html"), "{stderr}");
    assert!(stderr.contains("the index of the review pages") && stderr.contains("index.scoresheet.html"), "{stderr}");
}

#[test]
fn the_index_links_a_page_whose_name_has_a_space_and_a_hash() {
    let t = tempfile::tempdir().unwrap();
    convert_into(t.path(), &[("mesa #5.txt", DOUBT)]);
    let dir = t.path().join("out");
    assert!(fs::exists(dir.join("mesa #5.review.html")).unwrap());
    let index = fs::read_to_string(dir.join("index.html")).expect("the index");
    assert!(index.contains("href=\"mesa%20%235.review.html\""), "{index}");
    assert!(index.contains("<p>1 file</p>"), "one file, not \"1 files\": {index}");
}

#[test]
fn the_summary_counts_a_file_not_read_apart_from_games_in_the_singular() {
    let t = tempfile::tempdir().unwrap();
    let out = convert_into(
        t.path(),
        &[("hoja.xlsx", "PK\u{3}\u{4}\u{0}\u{0}binary"), ("mesa.txt", "1.e4 e5 2.Nf3 Nc6 1-0\n")],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("2 files, 1 game: 1 validated, 0 for review, 0 rejected; 1 file not read"), "{stderr}");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn one_entry_left_unread_is_said_as_one_entry_in_english_and_spanish() {
    use scoresheet::finding::ReportLanguage::{En, Es};
    use scoresheet::{At, Finding};
    let at = At { ply: 41, line: 9, col: 4 };
    let fen = "8/8/8/8/8/8/8/K6k w - - 0 1".to_string();
    let illegal = |unread| Finding::IllegalMove { at, written: "Qz9".into(), fen: fen.clone(), unread };
    let budget = |unread| Finding::SearchBudget { at, written: "Qz9".into(), unread };
    let (one, three) = (illegal(1), illegal(3));
    assert!(one.message_in(En).contains("the 1 entry from here on cannot"), "{}", one.message());
    assert!(three.message_in(En).contains("the 3 entries from here on cannot"));
    assert!(one.message_in(Es).contains("la única anotación desde aquí no se puede reconstruir"));
    assert!(three.message_in(Es).contains("las 3 anotaciones desde aquí no se pueden reconstruir"));
    assert!(budget(1).message_in(En).contains("(1 entry from here not read)"), "{}", budget(1).message());
    assert!(budget(120).message_in(En).contains("(120 entries from here not read)"));
    assert!(budget(1).message_in(Es).contains("(1 anotación desde aquí sin leer)"));
    assert!(budget(2).message_in(Es).contains("(2 anotaciones desde aquí sin leer)"));
}
