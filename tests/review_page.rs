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

/// Both players' copies of one game, board 7 of round 3, read together as
/// `convert` reads two files given at once: the page of copy `name`'s game.
fn page_of_two_copies(white: &str, black: &str, lang: &scoresheet::dev::Words) -> String {
    use scoresheet::convert::{Options, convert_together};
    let head = "Event: Open\nRound: 3\nBoard: 7\nWhite: Ana Pérez\nBlack: Bea Ruiz\n\n";
    let input = |name: &str, moves: &str| (name.to_string(), Ok(format!("{head}{moves}\n").into_bytes()));
    let inputs = [input("sheets/mesa7-w.txt", white), input("sheets/mesa7-b.txt", black)];
    let (reports, _) = convert_together(&inputs, &Options::default());
    let game = &reports[0].games[0];
    assert_eq!(game.sheets.as_ref().map(|s| s.len()), Some(2), "read as one game of two copies");
    let controls = scoresheet::dev::Controls { id: "0", version: "0", csrf: "0", fixed: "", preview: false };
    scoresheet::dev::desk_game(game, "mesa7-w.txt, mesa7-b.txt", lang, &controls)
}

/// The row of the moves table that begins with the move number `label`.
fn row<'p>(page: &'p str, label: &str) -> &'p str {
    let at = page.find(&format!("<td>{label}</td>")).unwrap_or_else(|| panic!("no row {label}: {page}"));
    let start = page[..at].rfind("<tr").unwrap();
    &page[start..at + page[at..].find("</tr>").unwrap()]
}

const RUY: &str = "1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 4.Ba4 Nf6 5.O-O Be7 6.Re1 b5 7.Bb3 d6 8.c3 O-O 1-0";

#[test]
fn a_rook_move_one_copy_writes_re1_and_the_other_re8_shows_both_entries_beside_the_move_read() {
    use scoresheet::dev::{EN, ES};
    let page = page_of_two_copies(RUY, &RUY.replace("6.Re1", "6.Re8"), &EN);
    // Each copy's column is headed by its file's name, in the order of the names.
    let b = page.find("written in <span class=\"sheet\">mesa7-b.txt</span>").expect("copy b's heading");
    let w = page.find("written in <span class=\"sheet\">mesa7-w.txt</span>").expect("copy w's heading");
    assert!(b < w, "{page}");
    // White's 6th move: Black's copy wrote Re8, White's Re1, read Re1, the two entries marked.
    let six = row(&page, "6.");
    let (re8, re1, read) = (six.find(">Re8<").unwrap(), six.find(">Re1<").unwrap(), six.rfind(">Re1</td>"));
    assert!(re8 < re1 && read.is_some_and(|r| r > re1), "copy b, copy w, then the move read: {six}");
    assert_eq!(six.matches("class=\"differ\"").count(), 2, "both entries marked as differing: {six}");
    // Where both copies write the same, nothing is marked.
    let five = row(&page, "5...");
    assert_eq!(five.matches(">Be7</span>").count(), 2, "{five}");
    assert!(!five.contains("differ") && !five.contains("missing"), "{five}");
    assert!(page.contains("Both players' copies as written, beside the move read."));
    let es = page_of_two_copies(RUY, &RUY.replace("6.Re1", "6.Re8"), &ES);
    assert!(es.contains("escrito en <span class=\"sheet\">mesa7-b.txt</span>"), "{es}");
    assert!(row(&es, "6.").contains("las dos copias difieren"));
}

#[test]
fn a_copy_that_stops_early_shows_not_written_for_the_moves_only_the_other_copy_has() {
    use scoresheet::dev::EN;
    let page = page_of_two_copies(RUY, &RUY.replace("7.Bb3 d6 8.c3 O-O ", ""), &EN);
    let seven = row(&page, "7.");
    let (missing, bb3) = (seven.find("not written").unwrap(), seven.find(">Bb3<").unwrap());
    assert!(missing < bb3, "Black's copy (first column) does not write 7.Bb3: {seven}");
    assert_eq!(seven.matches("class=\"missing\"").count(), 1, "{seven}");
    assert!(seven.ends_with("<td>Bb3</td>"), "read from White's copy: {seven}");
    assert!(row(&page, "8...").contains("not written") && row(&page, "8...").contains(">O-O<"));
    assert!(!row(&page, "6.").contains("not written"), "the moves both write are written");
}

#[test]
fn a_game_of_one_sheet_keeps_its_written_and_read_columns() {
    let (reports, _) =
        scoresheet::convert::convert_together(&[("a.txt".into(), Ok(RUY.as_bytes().to_vec()))], &Default::default());
    let page = scoresheet::emit::review_page("a.txt", &reports[0].games);
    assert!(page.contains("<th>White written</th><th>read</th><th>Black written</th><th>read</th>"), "{page}");
    assert!(!page.contains("written in") && !page.contains("class=\"moves copies\""));
}
