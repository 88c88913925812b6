//! The arbiter's desk driven in headless Chromium: the real binary
//! (`scoresheet watch` with `desk.listen` on a free loopback port), sheets
//! dropped into its inbox, then an arbiter who gives a name, opens the queue
//! and a game, and decides it with the page's own buttons and fields; the
//! outcome read back from the folders. The waits are deadlines against a
//! hang, not timings.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use serde_json::Value;

mod browser_support;
mod daemon_support;
use browser_support::Browser;
use daemon_support::*;

const ARBITER: &str = "Ana López";

/// A sheet of round 3, board `board`, with 2...Nc6 illegible: one doubt
/// (Nc6, b6, c6, g6, h6, b5, c5 or f5, about as likely).
fn doubtful(board: u32, white: &str, black: &str) -> String {
    format!(
        "Event: Open\nRound: 3\nBoard: {board}\nWhite: {white}\nBlack: {black}\n\n\
         1.e4 e5 2.Cf3 ? 3.Ab5 a6 4.Aa4 Cf6 5.0-0 Ae7 1-0\n"
    )
}

/// The daemon with its desk, on a root of its own.
struct Desk {
    daemon: Option<Daemon>,
    root: PathBuf,
    /// `http://127.0.0.1:PORT/`, from the start-up log line.
    url: String,
    _t: tempfile::TempDir,
}

impl Desk {
    fn start() -> Desk {
        let (t, root) = setup();
        let cfg = t.path().join("desk.yaml");
        fs::write(&cfg, "desk: {listen: \"127.0.0.1:0\"}\n").unwrap();
        let daemon = start_with(&root, &["--config", cfg.to_str().unwrap()]);
        wait_for("the desk to listen", || daemon.log().contains("desk listening"));
        let log = daemon.log();
        let line = log.lines().find(|l| l.contains("desk listening")).unwrap();
        let url = line
            .split_whitespace()
            .find_map(|w| w.strip_prefix("address="))
            .unwrap_or_else(|| panic!("no address= in {line}"))
            .trim_matches('"')
            .to_string();
        assert!(url.starts_with("http://127.0.0.1:") && url.ends_with('/'), "{line}");
        Desk { daemon: Some(daemon), root, url, _t: t }
    }

    fn dir(&self, name: &str) -> PathBuf {
        self.root.join(name)
    }

    /// Drops the sheets and waits until each is archived and `review/`
    /// holds `review` games (a PGN and a JSON report each).
    fn drop_sheets(&self, sheets: &[(&str, &str)], review: usize) {
        let archived = names(&self.dir("archive")).len();
        for (name, text) in sheets {
            drop_file(&self.dir("inbox"), name, text.as_bytes());
        }
        wait_for("the sheets read", || names(&self.dir("archive")).len() == archived + sheets.len());
        wait_for("the games in review", || names(&self.dir("review")).len() == 2 * review);
    }

    fn stop(mut self) -> String {
        self.daemon.take().unwrap().stop()
    }
}

/// The id of the queue's game whose row shows `who`.
async fn id_in_queue(b: &Browser, who: &str) -> String {
    let ids = b
        .js(&format!(
            "return Array.from(document.querySelectorAll('#queue tr.game'))\
             .filter(r => r.innerText.includes({})).map(r => r.dataset.id)",
            serde_json::to_string(who).unwrap()
        ))
        .await;
    let ids: Vec<&str> = ids.as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
    assert_eq!(ids.len(), 1, "one row in the queue shows {who}: {ids:?}\n{}", b.text().await);
    let id = ids[0].to_string();
    assert!(id.len() == 16 && id.bytes().all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase()), "{id}");
    id
}

/// The queue, the arbiter's name given first on the form it shows.
async fn name_and_queue(b: &Browser, desk: &Desk) {
    b.goto(&desk.url).await;
    b.find("#arbiter-name").await.send_keys(ARBITER).await.unwrap();
    b.find("#arbiter-go").await.click().await.unwrap();
    b.wait_until("the name kept", &format!("return document.body.innerText.includes({})", Value::from(ARBITER))).await;
    assert!(!b.has("#arbiter-name").await, "the name form is gone once a name is given");
    b.find("#queue").await;
}

/// Opens game `id` from the queue with its link.
async fn open_game(b: &Browser, id: &str) {
    b.find(&format!("#queue tr.game[data-id=\"{id}\"] a.open")).await.click().await.unwrap();
    b.wait_until("the game page", &format!("return location.pathname === '/game/{id}'")).await;
    b.find("#moves").await;
}

/// A desk with one game in review, `file` of board 1 with `white` as White
/// and one doubt, its page open in the browser after a name was given.
async fn one_game_open(b: &Browser, file: &str, white: &str) -> (Desk, String) {
    let desk = Desk::start();
    desk.drop_sheets(&[(file, &doubtful(1, white, "Bea Ruiz"))], 1);
    name_and_queue(b, &desk).await;
    let id = id_in_queue(b, white).await;
    open_game(b, &id).await;
    (desk, id)
}

/// Clicks `button` and waits for the page it leads to.
async fn submit(b: &Browser, button: &str) {
    let before = b.js("return performance.timeOrigin").await;
    b.find(button).await.click().await.unwrap();
    let script = format!("return performance.timeOrigin !== {before} && document.readyState === 'complete'");
    b.wait_until(&format!("the page {button} leads to"), &script).await;
}

/// The HTTP status of the page shown.
async fn status(b: &Browser) -> u64 {
    b.js("return performance.getEntriesByType('navigation')[0].responseStatus").await.as_u64().unwrap()
}

/// After a decision: the queue, saying it was done.
async fn back_in_queue_after(b: &Browser, id: &str) {
    b.wait_until("the queue after the decision", &format!("return location.search === '?done={id}'")).await;
    b.find("#message").await;
}

/// A PGN text on one line, as a reader sees it (the writer wraps lines).
fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Files under `root` in a folder named `decisions`, as (path, text).
fn decisions(root: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    let mut dirs = vec![root.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for e in fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else if d.file_name().is_some_and(|n| n == "decisions") {
                out.push((p.clone(), fs::read_to_string(&p).unwrap_or_default()));
            }
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_alternative_clicked_then_confirmed_puts_the_game_into_pgn_and_the_round_file() {
    let Some(b) = Browser::start().await else { return };
    let desk = Desk::start();
    desk.drop_sheets(
        &[
            ("mesa1.txt", &doubtful(1, "Ana Pérez", "Bea Ruiz")),
            ("mesa2.txt", &doubtful(2, "Carla Gil", "Dora Sanz")),
            ("mesa3.txt", "Event: Open\nRound: 3\nBoard: 3\nWhite: Eva\nBlack: Fe\n\n1.e4 e5 2.Cf3 Cc6 1-0\n"),
        ],
        2,
    );
    name_and_queue(&b, &desk).await;
    assert_eq!(b.all("#queue tr.game").await.len(), 2, "the two games in review, not the validated one");
    let counts = b.find("#counts tr[data-round=\"3\"]").await.text().await.unwrap();
    assert!(counts.contains('1') && counts.contains('2'), "round 3: 1 validated, 2 in review: {counts}");
    b.screenshot("desk-queue").await;

    let id = id_in_queue(&b, "Pérez").await;
    open_game(&b, &id).await;
    assert!(b.resources().await.is_empty(), "the page loads nothing beside itself: {:?}", b.resources().await);
    assert!(b.has("#stepper").await, "the move list to step through");
    // ← steps back from the last move, → forward again.
    let step = "return document.querySelector('#stepper .step-move').textContent";
    assert_eq!(b.js(step).await.as_str(), Some("5... Be7"));
    b.js("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowLeft'})); return 0").await;
    assert_eq!(b.js(step).await.as_str(), Some("5. O-O"), "one move back");
    b.js("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight'})); return 0").await;
    assert_eq!(b.js(step).await.as_str(), Some("5... Be7"), "and forward");
    // The one doubt, 2...Nc6 as read: its board, the entry, the alternatives.
    let doubts = b.all("div.doubt").await;
    assert_eq!(doubts.len(), 1, "one doubt");
    assert_eq!(doubts[0].attr("data-ply").await.unwrap().as_deref(), Some("4"));
    let (_, _, w, h) = b.find("div.doubt svg.board").await.rectangle().await.unwrap();
    assert!(w > 100.0 && h > 100.0, "the board is drawn: {w}×{h}");
    let alts = b.js("return Array.from(document.querySelectorAll('div.doubt button.alt')).map(e => e.value)").await;
    let alts: Vec<&str> = alts.as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
    assert!(alts.contains(&"Nc6") && alts.contains(&"c6"), "the reading and its alternatives: {alts:?}");
    b.screenshot("desk-game").await;

    // One click on the alternative: the game read again with it, shown.
    submit(&b, "div.doubt[data-ply=\"4\"] button.alt[value=\"c6\"]").await;
    assert_eq!(status(&b).await, 200, "{}", b.text().await);
    let moves = b.find("#moves").await.text().await.unwrap();
    assert!(moves.contains("c6"), "the game as it now reads: {moves}");
    assert!(names(&desk.dir("review")).len() == 4, "nothing decided before the confirmation");
    b.screenshot("desk-preview").await;
    submit(&b, "#confirm-go").await;
    back_in_queue_after(&b, &id).await;
    assert_eq!(b.all("#queue tr.game").await.len(), 1, "one game left to decide");

    // Out of review, into pgn/ and the round file, with who decided what.
    wait_for("the game out of review", || names(&desk.dir("review")).len() == 2);
    assert!(!fs::read_to_string(desk.dir("review").join(&names(&desk.dir("review"))[0])).unwrap().contains("Pérez"));
    let decided: Vec<String> = games_in(&desk.dir("pgn"))
        .into_iter()
        .map(|(_, g)| g)
        .filter(|g| tag(g, "White").as_deref() == Some("Ana Pérez"))
        .collect();
    assert_eq!(decided.len(), 1, "{decided:?}");
    let game = flat(&decided[0]);
    assert_eq!(tag(&decided[0], "Annotator").as_deref(), Some(ARBITER), "{game}");
    assert!(game.contains("2. Nf3 c6"), "{game}");
    assert!(game.contains(&format!("{{arbiter {ARBITER}: 2...c6")), "{game}");
    let round = fs::read_to_string(desk.dir("pgn").join("Open/round-3.pgn")).unwrap();
    let ours: Vec<String> = round.split("\n\n[Event ").filter(|g| g.contains("Ana Pérez")).map(flat).collect();
    assert_eq!(ours.len(), 1, "{round}");
    assert!(ours[0].contains(&format!("[Annotator \"{ARBITER}\"]")) && ours[0].contains("2. Nf3 c6"), "{round}");
    assert!(ours[0].contains(&format!("{{arbiter {ARBITER}: 2...c6")), "{round}");
    // The decision is kept, naming who made it.
    let kept = decisions(&desk.root);
    assert_eq!(kept.len(), 1, "{kept:?}");
    assert!(kept[0].1.contains(ARBITER) && kept[0].1.contains("c6"), "{kept:?}");
    // The sheet itself is untouched in the archive.
    let archived = desk.dir("archive").join("mesa1.txt");
    assert_eq!(fs::read_to_string(archived).unwrap(), doubtful(1, "Ana Pérez", "Bea Ruiz"));
    desk.stop();
    b.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_typed_as_the_sheet_writes_it_amends_the_game_and_an_illegal_one_is_refused() {
    let Some(b) = Browser::start().await else { return };
    let (desk, id) = one_game_open(&b, "mesa1.txt", "Ana Pérez").await;

    // 2...Dh5: the black queen cannot get there.
    b.find("#amend-ply").await.send_keys("2...").await.unwrap();
    b.find("#amend-move").await.send_keys("Dh5").await.unwrap();
    submit(&b, "#amend-go").await;
    assert_eq!(status(&b).await, 422);
    let error = b.find("#error").await.text().await.unwrap();
    assert!(error.contains("Dh5"), "the error names the move: {error}");
    assert_eq!(names(&desk.dir("review")).len(), 2, "nothing changed");

    // 2...Ac5, in the sheet's Spanish: Bc5, shown, then confirmed.
    b.goto(&format!("{}game/{id}", desk.url)).await;
    b.find("#amend-ply").await.send_keys("2...").await.unwrap();
    b.find("#amend-move").await.send_keys("Ac5").await.unwrap();
    submit(&b, "#amend-go").await;
    assert_eq!(status(&b).await, 200, "{}", b.text().await);
    assert!(b.find("#moves").await.text().await.unwrap().contains("Bc5"));
    submit(&b, "#confirm-go").await;
    back_in_queue_after(&b, &id).await;

    wait_for("the game out of review", || names(&desk.dir("review")).is_empty());
    let pgn = games_in(&desk.dir("pgn"));
    assert_eq!(pgn.len(), 1, "{pgn:?}");
    let game = flat(&pgn[0].1);
    assert_eq!(tag(&pgn[0].1, "Annotator").as_deref(), Some(ARBITER), "{game}");
    assert!(game.contains("2. Nf3 Bc5 {") && game.contains("3. Bb5 a6"), "{game}");
    assert!(game.contains(&format!("{{arbiter {ARBITER}: 2...Bc5")), "{game}");
    assert!(flat(&round_file_games(&desk.dir("pgn")).concat()).contains("2. Nf3 Bc5"));
    desk.stop();
    b.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rejected_game_goes_to_rejected_with_its_reason() {
    let Some(b) = Browser::start().await else { return };
    let (desk, id) = one_game_open(&b, "mesa1.txt", "Ana Pérez").await;
    b.find("#reject-reason").await.send_keys("the sheet is not this game's").await.unwrap();
    submit(&b, "#reject-go").await;
    back_in_queue_after(&b, &id).await;
    assert!(b.all("#queue tr.game").await.is_empty(), "nothing left to decide");

    wait_for("the game out of review", || names(&desk.dir("review")).is_empty());
    let rejected: Vec<String> = names(&desk.dir("rejected"))
        .iter()
        .map(|n| fs::read_to_string(desk.dir("rejected").join(n)).unwrap())
        .collect();
    assert!(rejected.iter().any(|t| t.contains("Ana Pérez")), "the game in rejected/: {rejected:?}");
    assert!(rejected.iter().any(|t| t.contains("the sheet is not this game's")), "its reason: {rejected:?}");
    assert!(games_in(&desk.dir("pgn")).is_empty(), "not in pgn/");
    desk.stop();
    b.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_decision_on_a_game_read_again_since_its_page_was_shown_is_refused() {
    let Some(b) = Browser::start().await else { return };
    let (desk, _) = one_game_open(&b, "mesa1-w.txt", "Ana Pérez").await;

    // Black's copy arrives while the page is open: the game is read again
    // with both (the same box illegible in both, so still in review).
    let black = "Event: Open\nRound: 3\nBoard: 1\nWhite: Perez, A\nBlack: Ruiz, B\n\n\
                 1.e4 e5 2.Sf3 ?? 3.Lb5 a6 4.La4 Sf6 5.0-0 Le7 1-0\n";
    let review_pgn = || {
        names(&desk.dir("review"))
            .iter()
            .filter(|n| n.ends_with(".pgn"))
            .map(|n| fs::read_to_string(desk.dir("review").join(n)).unwrap())
            .collect::<Vec<_>>()
    };
    let shown = review_pgn();
    desk.drop_sheets(&[("mesa1-b.txt", black)], 1);
    wait_for("the game read with both copies", || review_pgn() != shown);
    let before = review_pgn();
    assert!(before.iter().any(|g| g.contains("mesa1-b.txt")), "read with Black's copy: {before:?}");

    submit(&b, "#accept-go").await;
    assert_eq!(status(&b).await, 409);
    let error = b.find("#error").await.text().await.unwrap();
    assert!(error.to_lowercase().contains("changed"), "the page says the game changed: {error}");
    assert_eq!(review_pgn(), before, "still in review, as it was");
    assert!(games_in(&desk.dir("pgn")).is_empty(), "nothing written to pgn/");
    assert!(decisions(&desk.root).is_empty(), "no decision kept");
    desk.stop();
    b.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn markup_in_a_sheet_header_is_shown_as_text_and_never_run() {
    let Some(b) = Browser::start().await else { return };
    let evil = "<script>alert(1)</script>";
    let (desk, _) = one_game_open(&b, "mesa1.txt", evil).await;
    assert!(b.text().await.contains(evil), "the header shown as the sheet writes it:\n{}", b.text().await);
    assert!(b.client.get_alert_text().await.is_err(), "no alert opened");
    let run = b.js("return Array.from(document.scripts).some(s => s.text.includes('alert(1)'))").await;
    assert_eq!(run, Value::Bool(false), "no script from the sheet in the page");
    desk.stop();
    b.close().await;
}

/// Both players' copies of board 7: White's as played; Black's with 6.Re8
/// for 6.Re1 (no rook can go there) and 8...Bb7 for 8...O-O (both legal:
/// nothing after tells which was played, so the game is in review).
fn two_copies() -> [(&'static str, String); 2] {
    let head = "Event: Open\nRound: 3\nBoard: 7\nWhite: Ana Pérez\nBlack: Bea Ruiz\n\n";
    let game = "1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 4.Ba4 Nf6 5.O-O Be7 6.Re1 b5 7.Bb3 d6 8.c3 O-O 1-0\n";
    let black = game.replace("6.Re1", "6.Re8").replace("O-O 1-0", "Bb7 1-0");
    [("mesa7-w.txt", format!("{head}{game}")), ("mesa7-b.txt", format!("{head}{black}"))]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_of_two_copies_shows_what_each_player_wrote_beside_the_move_read() {
    let Some(b) = Browser::start().await else { return };
    let desk = Desk::start();
    let [(wn, w), (bn, bl)] = two_copies();
    desk.drop_sheets(&[(wn, &w), (bn, &bl)], 1);
    name_and_queue(&b, &desk).await;
    let id = id_in_queue(&b, "Pérez").await;
    open_game(&b, &id).await;
    // A column for each copy, headed by its file, both in view beside the move read.
    let headings = b.js("return Array.from(document.querySelectorAll('#moves th.copy')).map(e => e.innerText)").await;
    let headings: Vec<&str> = headings.as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
    assert_eq!(headings, ["written in mesa7-b.txt", "written in mesa7-w.txt"]);
    for c in ["#copy-1", "#copy-2"] {
        let (x, _, width, _) = b.find(c).await.rectangle().await.unwrap();
        assert!(x >= 0.0 && x + width <= 1280.0, "{c} within the window: {x} + {width}");
    }
    // White's 6th move: each copy's entry, the two marked, then the move read.
    let row = "return Array.from(document.querySelectorAll('#moves tr')).find(r => r.cells[0] && \
               r.cells[0].innerText === '6.').innerText.split('\\t')";
    let six = b.js(row).await;
    let six: Vec<&str> = six.as_array().unwrap().iter().map(|v| v.as_str().unwrap().trim()).collect();
    assert_eq!(six, ["6.", "Re8", "Re1", "Re1"], "number, Black's copy, White's copy, as read");
    assert_eq!(b.all("#moves tr.w td.differ").await.len(), 2, "the two entries of 6. marked as differing");
    // Every entry of each copy is in its column: read as a move, or shown
    // where it stands as not read as one.
    for (column, text) in [(1, &bl), (2, &w)] {
        let cells = b
            .js(&format!(
                "return Array.from(document.querySelectorAll('#moves tr')).filter(r => r.cells.length === 4 && r.cells[0].tagName === 'TD')\
                 .map(r => r.cells[{column}].innerText.replace(' not read as a move', ''))\
                 .filter(t => t !== '' && t !== 'not written')"
            ))
            .await;
        let mut shown: Vec<&str> = cells.as_array().unwrap().iter().map(|v| v.as_str().unwrap().trim()).collect();
        let moves = text.lines().last().unwrap().split_whitespace().filter(|e| *e != "1-0");
        let mut written: Vec<&str> = moves.map(|e| e.rsplit('.').next().unwrap()).collect();
        shown.sort_unstable();
        written.sort_unstable();
        assert_eq!(shown, written, "column {column}");
    }
    b.screenshot("desk-two-copies").await;
    desk.stop();
    b.close().await;
}

/// `scoresheet ARGS` on a fresh root; its exit status and stderr, within
/// the deadline.
fn exit_of(args: &[&str], config: &str) -> (Option<i32>, String) {
    let (t, root) = setup();
    let cfg = t.path().join("desk.yaml");
    fs::write(&cfg, config).unwrap();
    let err = t.path().join("stderr.txt");
    let mut child = Command::new(env!("CARGO_BIN_EXE_scoresheet"))
        .args(args)
        .arg("--root")
        .arg(&root)
        .arg("--config")
        .arg(&cfg)
        .stdout(Stdio::null())
        .stderr(fs::File::create(&err).unwrap())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > DEADLINE {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("{args:?} still running: it was meant to refuse to start");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    (status.code(), fs::read_to_string(err).unwrap())
}

#[test]
fn a_desk_on_a_non_loopback_address_without_a_token_is_refused_at_start() {
    for cmd in ["watch", "desk"] {
        let (code, stderr) = exit_of(&[cmd], "desk: {listen: \"0.0.0.0:0\"}\n");
        assert_eq!(code, Some(2), "{cmd}: {stderr}");
        assert!(stderr.contains("desk.token"), "{cmd}: the message names desk.token: {stderr}");
    }
}
