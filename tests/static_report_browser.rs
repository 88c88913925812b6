//! The static review report (`convert --output DIR`) opened as files in
//! headless Chromium with the network out of reach: the index leads to the
//! game's page, which loads nothing from anywhere and draws its board.

use std::fs;
use std::process::Command;

mod browser_support;
use browser_support::Browser;

/// 2...Nc6 illegible: a game in review with one doubt.
const DOUBT: &str = "Event: Open\nRound: 2\nWhite: Navara\nBlack: Ana\n\n1.e4 e5 2.Cf3 ? 3.Ab5 a6 4.Aa4 Cf6\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_report_opens_from_files_without_a_network_and_draws_the_board_at_the_doubt() {
    let Some(browser) = Browser::start().await else { return };
    let t = tempfile::tempdir().unwrap();
    let (doubt, sure) = (t.path().join("mesa3.txt"), t.path().join("mesa4.txt"));
    fs::write(&doubt, DOUBT).unwrap();
    fs::write(&sure, "1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 1/2-1/2\n").unwrap();
    let out = t.path().join("out");
    let run = Command::new(env!("CARGO_BIN_EXE_scoresheet"))
        .arg("convert")
        .arg("--output")
        .arg(&out)
        .args([&doubt, &sure])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(3), "a game for review: {}", String::from_utf8_lossy(&run.stderr));

    // The index, opened as a file, lists the page of the game in review.
    browser.goto(&format!("file://{}", out.join("index.html").display())).await;
    assert!(browser.resources().await.is_empty(), "the index loads nothing: {:?}", browser.resources().await);
    assert!(!browser.has("a[href*=\"mesa4\"]").await, "a validated game has no page");
    browser.find("a[href=\"mesa3.review.html\"]").await.click().await.unwrap();
    browser.wait_until("the review page", "return location.href.endsWith('/mesa3.review.html')").await;

    // Nothing beside the page itself: no script, style, image or font.
    assert_eq!(browser.resources().await, Vec::<String>::new(), "the page loads nothing from anywhere");
    let text = browser.text().await;
    assert!(text.contains("Navara – Ana"), "the players head the page:\n{text}");
    assert!(text.contains("ambiguous-repair"), "the finding, in words:\n{text}");

    // One board, drawn: a square of some size with the 32 pieces of the
    // position before 2...Nc6, each glyph laid out with a width.
    let boards = browser.all("svg").await;
    assert_eq!(boards.len(), 1, "one board, at the one doubt");
    let (_, _, w, h) = boards[0].rectangle().await.unwrap();
    assert!(w > 200.0 && h > 200.0 && (w - h).abs() < 1.0, "the board is drawn square: {w}×{h}");
    let glyphs = browser
        .js("return Array.from(document.querySelectorAll('svg text'))\
             .filter(t => /[\\u2654-\\u265F]/.test(t.textContent))\
             .map(t => [t.textContent, t.getBBox().width, t.getBBox().height])")
        .await;
    let glyphs = glyphs.as_array().unwrap();
    assert_eq!(glyphs.len(), 32, "every piece on the board: {glyphs:?}");
    assert!(glyphs.iter().all(|g| g[1].as_f64().unwrap() > 5.0 && g[2].as_f64().unwrap() > 5.0), "{glyphs:?}");
    let knight_b8 = browser
        .js("return Array.from(document.querySelectorAll('svg text')).filter(t => t.textContent === '\u{265e}').length")
        .await;
    assert_eq!(knight_b8, 2, "both black knights still home before 2...Nc6");

    let shot = browser.screenshot("static-report").await;
    assert!(fs::metadata(&shot).unwrap().len() > 10_000, "a screenshot with something in it");
    browser.close().await;
}
