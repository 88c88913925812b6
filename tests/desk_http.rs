//! The desk over plain HTTP (no browser): every route, with what a careless
//! or hostile client sends — ids that are no game or a path, bodies over the
//! limit, no token or a wrong one, no form token, a page of an older version
//! of the game. The real binary, on a free loopback port.

mod daemon_support;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use daemon_support::{Daemon, drop_file, names, setup, start_with, wait_for};
use scoresheet_dev::http::{Reply, Request};

/// The longest a reply may take to come.
const WAIT: std::time::Duration = std::time::Duration::from_secs(120);

/// Round 3, board 1, with 2...Nc6 illegible: one doubt.
const DOUBT: &str = "Event: Open\nRound: 3\nBoard: 1\nWhite: <script>alert(1)</script>\nBlack: Bea Ruiz\n\n\
1.e4 e5 2.Cf3 ? 3.Ab5 a6 4.Aa4 Cf6 5.0-0 Ae7 1-0\n";

struct Desk {
    daemon: Option<Daemon>,
    root: PathBuf,
    addr: String,
    _t: tempfile::TempDir,
}

/// The address a log line `desk listening … address=http://HOST:PORT/` gives.
fn address_in(log: &str) -> String {
    let line = log.lines().find(|l| l.contains("desk listening")).expect("the desk's line");
    let url = line.split_whitespace().find_map(|w| w.strip_prefix("address=")).expect("address=").trim_matches('"');
    url.trim_start_matches("http://").trim_end_matches('/').to_string()
}

impl Desk {
    fn start(desk: &str) -> Desk {
        let (t, root) = setup();
        let cfg = t.path().join("desk.yaml");
        fs::write(&cfg, format!("desk: {desk}\n")).unwrap();
        let daemon = start_with(&root, &["--config", cfg.to_str().unwrap()]);
        let served = !desk.contains("enabled: false");
        wait_for("the desk to listen", || !served || daemon.log().contains("desk listening"));
        let addr = if served { address_in(&daemon.log()) } else { String::new() };
        let d = Desk { daemon: Some(daemon), root, addr, _t: t };
        drop_file(&d.root.join("inbox"), "mesa1.txt", DOUBT.as_bytes());
        wait_for("the game in review", || names(&d.root.join("review")).len() == 2);
        d
    }

    fn get(&self, path: &str, cookies: &str) -> Reply {
        request(&self.addr, "GET", path, cookies, "")
    }

    fn post(&self, path: &str, cookies: &str, body: &str) -> Reply {
        request(&self.addr, "POST", path, cookies, body)
    }

    /// A POST that says where it comes from, as a browser does.
    fn post_from(&self, origin: &str, path: &str, cookies: &str, body: &str) -> Reply {
        request_with(&self.addr, "POST", path, cookies, body, &format!("Origin: {origin}\r\n"))
    }

    /// The one game's id, from the queue.
    fn id(&self) -> String {
        let page = self.get("/", "").body;
        let at = page.find("data-id=\"").expect("a game in the queue") + 9;
        page[at..at + 16].to_string()
    }
}

impl Drop for Desk {
    fn drop(&mut self) {
        if let Some(d) = self.daemon.take() {
            d.stop();
        }
    }
}

/// One HTTP/1.1 request on its own connection.
fn request(addr: &str, method: &str, path: &str, cookies: &str, body: &str) -> Reply {
    request_with(addr, method, path, cookies, body, "")
}

/// [`request`] with more header lines (`extra`, each ending in CRLF).
fn request_with(addr: &str, method: &str, path: &str, cookies: &str, body: &str, extra: &str) -> Reply {
    request_as(addr, addr, method, path, cookies, body, extra)
}

/// [`request_with`] naming `host` in its `Host` header, as a browser does
/// for a page of that name, whatever address the name led it to.
fn request_as(addr: &str, host: &str, method: &str, path: &str, cookies: &str, body: &str, extra: &str) -> Reply {
    Request { addr, host, method, path, cookies, body, extra }.send(WAIT).unwrap()
}

/// The form token a first visit gets, as a cookie and a form field.
fn first_visit(d: &Desk, id: &str) -> (String, String) {
    let page = d.get(&format!("/game/{id}"), "");
    let csrf = page.cookie("csrf").expect("a csrf cookie on the first visit");
    let at = page.body.find("name=\"version\" value=\"").expect("the version in the forms") + 22;
    let version = page.body[at..].split('"').next().unwrap().to_string();
    (csrf, version)
}

fn pgn_games(root: &Path) -> String {
    names(&root.join("pgn")).iter().map(|n| fs::read_to_string(root.join("pgn").join(n)).unwrap()).collect()
}

#[test]
fn the_queue_and_a_game_page_and_their_filters() {
    let d = Desk::start("{listen: \"127.0.0.1:0\"}");
    let queue = d.get("/", "");
    assert_eq!(queue.status, 200);
    assert!(queue.header("content-type").unwrap().starts_with("text/html"));
    assert!(queue.body.contains("<table id=\"queue\">") && queue.body.contains("class=\"game\""));
    assert!(queue.body.contains("<tr data-round=\"3\">"), "the round's counts");
    assert!(d.get("/?round=3&finding=ambiguous-repair", "").body.contains("class=\"game\""));
    assert!(!d.get("/?round=9", "").body.contains("class=\"game\""), "no game of round 9");
    assert!(!d.get("/?status=validated", "").body.contains("class=\"game\""));
    let es = d.get("/?lang=es", "").body;
    assert!(es.contains("<html lang=\"es\">") && es.contains("Partidas por revisar"), "the queue in Spanish");
    let id = d.id();
    let game = d.get(&format!("/game/{id}"), "");
    assert_eq!(game.status, 200);
    for part in [
        "<form class=\"pick\"",
        "id=\"accept\"",
        "id=\"amend\"",
        "id=\"reject\"",
        "<svg class=\"board\"",
        "id=\"stepper\"",
    ] {
        assert!(game.body.contains(part), "{part} on the game page");
    }
    let es = d.get(&format!("/game/{id}?lang=es"), "").body;
    assert!(
        es.contains("Aceptar la partida como se leyó") && es.contains("Varias jugadas encajan"),
        "the game in Spanish"
    );
    assert!(es.contains("ambiguous-repair"), "the codes unchanged");
    // The header from the sheet is text, never markup.
    assert!(game.body.contains("&lt;script&gt;alert(1)&lt;/script&gt;") && !game.body.contains("<script>alert"));
    assert!(game.header("content-security-policy").unwrap().contains("default-src 'none'"));
}

#[test]
fn ids_that_are_no_game_or_a_path_are_not_found() {
    let d = Desk::start("{listen: \"127.0.0.1:0\"}");
    for path in
        ["/game/zz", "/game/..%2F..%2Fetc%2Fpasswd", "/game/0123456789abcdef", "/game/../../etc/passwd", "/nope"]
    {
        let r = d.get(path, "");
        assert_eq!(r.status, 404, "{path}");
        assert!(r.body.contains("id=\"error\""), "{path}");
    }
}

#[test]
fn forms_need_their_token_and_a_body_within_the_limit() {
    let d = Desk::start("{listen: \"127.0.0.1:0\"}");
    let id = d.id();
    let (csrf, version) = first_visit(&d, &id);
    let cookies = format!("csrf={csrf}; arbiter=Ana");
    let form = format!("action=accept&version={version}");
    assert_eq!(d.post(&format!("/game/{id}/decide"), &cookies, &form).status, 403, "no form token");
    let wrong = format!("{form}&csrf=00000000000000000000000000000000");
    assert_eq!(d.post(&format!("/game/{id}/decide"), &cookies, &wrong).status, 403, "a wrong one");
    let big = format!("{form}&csrf={csrf}&note={}", "x".repeat(20_000));
    assert_eq!(d.post(&format!("/game/{id}/decide"), &cookies, &big).status, 413, "over 16 KiB");
    assert_eq!(d.post("/arbiter", "", "name=Ana").status, 403, "the name form too");
    assert_eq!(names(&d.root.join("review")).len(), 2, "nothing decided");
}

#[test]
fn a_preview_then_a_decision_and_a_stale_one_refused() {
    let d = Desk::start("{listen: \"127.0.0.1:0\"}");
    let id = d.id();
    let (csrf, version) = first_visit(&d, &id);
    let cookies = format!("csrf={csrf}");

    let bad =
        d.post(&format!("/game/{id}/preview"), &cookies, &format!("csrf={csrf}&version={version}&ply=4&move=Qd5"));
    assert_eq!(bad.status, 422, "an illegal move");
    assert!(bad.body.contains("2... Qd5: not a legal move here"), "{}", bad.body);
    let shown =
        d.post(&format!("/game/{id}/preview"), &cookies, &format!("csrf={csrf}&version={version}&ply=4&move=d6"));
    assert_eq!(shown.status, 200);
    assert!(shown.body.contains("id=\"confirm\"") && shown.body.contains("name=\"moves\" value=\"4:d6\""));
    assert!(names(&d.root.join("pgn")).is_empty(), "a preview writes nothing");

    // No name yet: the desk asks for it on a page that keeps the decision.
    let confirm = format!("csrf={csrf}&version={version}&action=amend&moves=4:d6");
    let r = d.post(&format!("/game/{id}/decide"), &cookies, &confirm);
    assert_eq!(r.status, 200);
    assert!(r.body.contains(&format!("action=\"/game/{id}/decide\"")) && r.body.contains("id=\"arbiter-name\""));
    assert!(r.body.contains("name=\"moves\" value=\"4:d6\"") && r.body.contains("name=\"action\" value=\"amend\""));
    assert!(names(&d.root.join("pgn")).is_empty(), "nothing done before the name is given");

    let stale = format!("csrf={csrf}&version=0000000000000000&action=accept&name=Ana");
    let r = d.post(&format!("/game/{id}/decide"), &cookies, &stale);
    assert_eq!(r.status, 409, "a page of another version");
    assert!(r.body.contains("changed"));
    assert!(names(&d.root.join("pgn")).is_empty());

    // The name given: the decision kept is carried out, and the name kept.
    let r = d.post(&format!("/game/{id}/decide"), &cookies, &format!("{confirm}&name=Ana+L%C3%B3pez"));
    assert_eq!((r.status, r.header("location").as_deref()), (303, Some(&*format!("/?done={id}"))));
    let arbiter = r.cookie("arbiter").expect("the name kept");
    let cookies = format!("csrf={csrf}; arbiter={arbiter}");
    assert!(d.get("/", &cookies).body.contains("Ana López"), "the name shown");
    assert!(names(&d.root.join("review")).is_empty(), "out of review");
    let pgn = pgn_games(&d.root);
    assert!(pgn.contains("[Annotator \"Ana López\"]") && pgn.contains("{arbiter Ana López: 2...d6"), "{pgn}");
    assert!(d.get(&format!("/?done={id}"), &cookies).body.contains("id=\"message\""));
    // Done once: the same form again is of an older version.
    assert_eq!(d.post(&format!("/game/{id}/decide"), &cookies, &confirm).status, 409);
}

#[test]
fn with_a_token_every_request_needs_it() {
    let d = Desk::start("{listen: \"127.0.0.1:0\", token: \"a-long-enough-secret-token\"}");
    assert_eq!(request(&d.addr, "GET", "/", "", "").status, 401);
    assert_eq!(request(&d.addr, "GET", "/?token=wrong", "", "").status, 401);
    assert_eq!(request(&d.addr, "GET", "/game/0123456789abcdef", "desk_token=nope", "").status, 401);
    let r = request(&d.addr, "GET", "/?token=a-long-enough-secret-token&round=3", "", "");
    assert_eq!((r.status, r.header("location").as_deref()), (303, Some("/?round=3")), "the token leaves the URL");
    let kept = r.cookie("desk_token").expect("kept in a cookie");
    let r = request(&d.addr, "GET", "/", &format!("desk_token={kept}"), "");
    assert_eq!(r.status, 200);
    assert!(r.body.contains("class=\"game\""));
}

#[test]
fn the_desk_alone_serves_a_daemons_folders() {
    let d = Desk::start("{enabled: false}");
    assert!(!d.daemon.as_ref().unwrap().log().contains("desk listening"), "not served when not enabled");
    let log = d.root.parent().unwrap().join("desk-alone.txt");
    let mut desk = Command::new(env!("CARGO_BIN_EXE_scoresheet"))
        .args(["desk", "--listen", "127.0.0.1:0", "--root"])
        .arg(&d.root)
        .env("RUST_LOG", "info")
        .stdout(Stdio::null())
        .stderr(fs::File::create(&log).unwrap())
        .spawn()
        .unwrap();
    wait_for("the desk to listen", || fs::read_to_string(&log).unwrap_or_default().contains("desk listening"));
    let addr = address_in(&fs::read_to_string(&log).unwrap());
    let r = request(&addr, "GET", "/", "", "");
    assert_eq!(r.status, 200);
    assert!(r.body.contains("Bea Ruiz"), "the daemon's game in the queue");
    desk.kill().unwrap();
    desk.wait().unwrap();
}

#[test]
fn a_page_shown_before_an_amendment_that_left_the_game_in_review_is_stale() {
    let d = Desk::start("{listen: \"127.0.0.1:0\"}");
    let id = d.id();
    let (csrf, version) = first_visit(&d, &id);
    // An amendment dropped into the inbox: after 2...d6 the `a6` written
    // next is read c6, a doubt nobody has seen, so the game stays in review.
    let name = names(&d.root.join("review")).iter().find_map(|n| n.strip_suffix(".pgn").map(str::to_string)).unwrap();
    drop_file(
        &d.root.join("inbox"),
        &format!("{name}.decision.yaml"),
        b"decision: amend\nmoves: {4: d6}\narbiter: Ana\n",
    );
    wait_for("the amendment kept", || !names(&d.root.join("decisions")).is_empty());
    assert_eq!(names(&d.root.join("review")).len(), 2, "still in review");
    let cookies = format!("csrf={csrf}; arbiter=Ana");
    let r = d.post(&format!("/game/{id}/decide"), &cookies, &format!("csrf={csrf}&version={version}&action=accept"));
    assert_eq!(r.status, 409, "the page showed the game before the amendment");
    // The page now shows the amended game, 2...d6 kept.
    let (_, now) = first_visit(&d, &id);
    assert_ne!(now, version);
    let r = d.post(&format!("/game/{id}/decide"), &cookies, &format!("csrf={csrf}&version={now}&action=accept"));
    assert_eq!(r.status, 303);
    let pgn = pgn_games(&d.root);
    assert!(pgn.contains("d6") && pgn.contains("[Annotator \"Ana\"]"), "{pgn}");
}

#[test]
fn a_game_published_without_a_result_gets_one_in_one_click() {
    let d = Desk::start("{listen: \"127.0.0.1:0\"}");
    // Round 3, board 2: every move read, no result written.
    let sheet = "Event: Open\nRound: 3\nBoard: 2\nWhite: Ana Pérez\nBlack: Bea Ruiz\n\n1.e4 e5 2.Nf3 Nc6 3.Bb5 a6\n";
    drop_file(&d.root.join("inbox"), "mesa2.txt", sheet.as_bytes());
    wait_for("the game published", || pgn_games(&d.root).contains("Ana Pérez"));
    assert!(pgn_games(&d.root).contains("[Result \"*\"]"), "published with *, a notice asking for the result");
    let all = d.get("/?status=all", "").body;
    let at = all.find("Ana Pérez").and_then(|k| all[..k].rfind("data-id=\"")).expect("the game listed") + 9;
    let id = all[at..at + 16].to_string();
    let (csrf, version) = first_visit(&d, &id);
    let page = d.get(&format!("/game/{id}"), &format!("csrf={csrf}")).body;
    assert!(page.contains("id=\"result\"") && page.contains("value=\"1/2-1/2\""), "one button per result");

    let cookies = format!("csrf={csrf}; arbiter=Ana");
    let r = d.post(
        &format!("/game/{id}/decide"),
        &cookies,
        &format!("csrf={csrf}&version={version}&action=result&result=0-1"),
    );
    assert_eq!((r.status, r.header("location").as_deref()), (303, Some(&*format!("/?done={id}"))), "{}", r.body);
    let pgn = pgn_games(&d.root);
    let ours: Vec<&str> = pgn.split("[Event ").filter(|g| g.contains("Ana Pérez")).collect();
    assert!(!ours.is_empty() && ours.iter().all(|g| g.contains("[Result \"0-1\"]")), "{pgn}");
    assert!(ours.iter().all(|g| !g.contains("result-missing") && g.contains("result 0-1")), "{pgn}");
    // A result that is none is refused, and nothing changes.
    let (_, version) = first_visit(&d, &id);
    let r = d.post(
        &format!("/game/{id}/decide"),
        &cookies,
        &format!("csrf={csrf}&version={version}&action=result&result=2-0"),
    );
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(pgn_games(&d.root).contains("[Result \"0-1\"]"));
}

/// How many games a list's tab on the queue page counts.
fn tab_count(page: &str, list: &str) -> usize {
    let at = page.find(&format!("data-list=\"{list}\"")).expect("the list's tab");
    let n = &page[at..];
    let n = &n[n.find("class=\"n\">").expect("its count") + 10..];
    n[..n.find('<').unwrap()].parse().unwrap()
}

#[test]
fn the_lists_to_decide_waiting_notices_and_published_match_the_folders() {
    let d = Desk::start("{listen: \"127.0.0.1:0\"}");
    // Alone, the game in doubt is to decide: no game of the event has two copies.
    let page = d.get("/", "").body;
    assert_eq!((tab_count(&page, "review"), tab_count(&page, "waiting")), (1, 0), "one copy per game so far");
    let inbox = d.root.join("inbox");
    // Board 2 from both players; board 3 from one, every move read, no result.
    let game = |white: &str, board: u32, tail: &str| {
        format!(
            "Event: Open\nRound: 3\nBoard: {board}\nWhite: {white}\nBlack: Carla Gil\n\n1.e4 c5 2.Nf3 d6 3.d4 cxd4 {tail}\n"
        )
    };
    drop_file(&inbox, "b2-w.txt", game("Dora Sanz", 2, "1-0").as_bytes());
    drop_file(&inbox, "b2-b.txt", game("D. Sanz", 2, "1-0").as_bytes());
    drop_file(&inbox, "b3.txt", game("Eva Toro", 3, "").as_bytes());
    wait_for("board 2 read from both copies, board 3 published", || {
        let all = d.get("/?status=all", "").body;
        // The copies listed in the order they came, whichever that was.
        let both = all.contains("b2-w.txt, b2-b.txt") || all.contains("b2-b.txt, b2-w.txt");
        both && all.contains("Eva Toro")
    });
    let page = d.get("/", "").body;
    let counts: Vec<usize> =
        ["review", "waiting", "notices", "validated", "rejected"].iter().map(|l| tab_count(&page, l)).collect();
    // The game in doubt now waits for its other copy (the event collects two).
    assert_eq!(counts, [0, 1, 1, 2, 0], "to decide, waiting, notices, published, rejected");
    let json = |dir: &str, ext: &str| names(&d.root.join(dir)).iter().filter(|n| n.ends_with(ext)).count();
    assert_eq!(json("review", ".json"), counts[0] + counts[1], "review/ holds the games to decide and waiting");
    assert_eq!(json("pgn", ".pgn"), counts[3], "pgn/ holds each published game once");
    let notices = d.get("/?status=notices", "").body;
    assert!(notices.contains("Eva Toro") && notices.contains("result-missing"), "the notice listed with its game");
    let round = d.get("/?status=waiting&round=3", "").body;
    assert!(round.contains("class=\"game\"") && round.contains("mesa1.txt"), "the game waiting, by round");
}

#[test]
fn a_rejections_reason_is_kept_whole() {
    let d = Desk::start("{listen: \"127.0.0.1:0\"}");
    let id = d.id();
    let (csrf, version) = first_visit(&d, &id);
    let reason =
        "the sheet belongs to the board five game of round two, typed into the wrong file by the volunteer at the desk";
    let body = format!("csrf={csrf}&version={version}&action=reject&name=Ana&reason={}", reason.replace(' ', "+"));
    let r = d.post(&format!("/game/{id}/decide"), &format!("csrf={csrf}"), &body);
    assert_eq!(r.status, 303, "{}", r.body);
    let dir = d.root.join("rejected");
    wait_for("the game rejected", || names(&dir).iter().any(|n| n.ends_with(".error.txt")));
    let why: String = names(&dir)
        .iter()
        .filter(|n| n.ends_with(".error.txt"))
        .map(|n| fs::read_to_string(dir.join(n)).unwrap())
        .collect();
    assert!(why.contains(reason), "the reason whole: {why}");
}

#[test]
fn the_desk_listens_on_a_host_name() {
    let d = Desk::start("{listen: \"localhost:0\"}");
    assert!(d.get("/", "").body.contains("<table id=\"queue\">"), "served at {}", d.addr);
}

#[test]
fn a_form_from_another_origin_a_forged_cookie_pair_or_no_token_is_refused() {
    let d = Desk::start("{listen: \"127.0.0.1:0\"}");
    let id = d.id();
    let (csrf, version) = first_visit(&d, &id);
    let decide = format!("/game/{id}/decide");
    let accept = |token: &str| format!("csrf={token}&version={version}&action=reject&reason=forged&name=Mallory");
    // A page served from another port of this host posts with the desk's
    // own cookie (cookies are shared across ports): its Origin gives it away.
    let r = d.post_from("http://127.0.0.1:18999", &decide, &format!("csrf={csrf}"), &accept(&csrf));
    assert_eq!(r.status, 403, "another origin");
    // That page sets a cookie pair of its own and posts the same value.
    let forged = "0123456789abcdef0123456789abcdef";
    assert_eq!(d.post(&decide, &format!("csrf={forged}; arbiter=Mallory"), &accept(forged)).status, 403);
    let signed_looking = format!("{forged}.{}", "ab".repeat(32));
    assert_eq!(d.post(&decide, &format!("csrf={signed_looking}"), &accept(&signed_looking)).status, 403);
    // No token at all.
    assert_eq!(d.post(&decide, "", &format!("version={version}&action=accept&name=Mallory")).status, 403);
    assert!(names(&d.root.join("rejected")).is_empty(), "nothing decided");
    // The desk's own page, its origin given: carried out.
    let own = format!("http://{}", d.addr);
    let r = d.post_from(&own, &decide, &format!("csrf={csrf}"), &accept(&csrf).replace("Mallory", "Ana"));
    assert_eq!(r.status, 303, "{}", r.body);
}

#[test]
fn a_page_whose_name_points_at_the_desk_is_refused_and_decides_nothing() {
    let d = Desk::start("{listen: \"127.0.0.1:0\", hosts: [desk.example.org]}");
    let id = d.id();
    let (csrf, version) = first_visit(&d, &id);
    let port = d.addr.rsplit(':').next().unwrap();
    let evil = format!("evil.example:{port}");
    // A page of evil.example whose name now leads to 127.0.0.1: to the
    // browser it is the desk's own origin, and it holds a form token.
    let form = format!("csrf={csrf}&version={version}&action=reject&reason=rebound&name=Mallory");
    let origin = format!("Origin: http://{evil}\r\n");
    let decide = format!("/game/{id}/decide");
    let r = request_as(&d.addr, &evil, "POST", &decide, &format!("csrf={csrf}"), &form, &origin);
    assert_eq!(r.status, 421, "{}", r.body);
    assert!(r.body.contains("desk.hosts"), "the refusal says why: {}", r.body);
    for path in ["/", &format!("/game/{id}"), "/arbiter", "/nope"] {
        assert_eq!(request_as(&d.addr, &evil, "GET", path, "", "", "").status, 421, "GET {path}");
    }
    assert!(names(&d.root.join("rejected")).is_empty(), "nothing rejected");
    assert!(names(&d.root.join("decisions")).is_empty(), "no decision kept");
    assert_eq!(names(&d.root.join("review")).len(), 2, "the game still in review");
    // The desk's own names: its address, localhost, and the name listed.
    for host in [d.addr.clone(), format!("localhost:{port}"), format!("desk.example.org:{port}")] {
        let r = request_as(&d.addr, &host, "GET", "/", "", "", "");
        assert_eq!(r.status, 200, "{host}");
        assert!(r.body.contains("class=\"game\""), "{host}");
    }
}

#[test]
fn a_back_address_that_leaves_the_desk_goes_to_the_queue() {
    let d = Desk::start("{listen: \"127.0.0.1:0\"}");
    let id = d.id();
    let (csrf, _) = first_visit(&d, &id);
    let cookies = format!("csrf={csrf}");
    let name_to = |back: &str| {
        let r = d.post("/arbiter", &cookies, &format!("csrf={csrf}&name=Ana&back={back}"));
        assert_eq!(r.status, 303, "{back}: {}", r.body);
        r.header("location").unwrap()
    };
    // A tab, a newline, a space or a backslash a browser drops or turns
    // into `/`, and addresses of another site.
    for back in ["/%09/evil.example", "/%0A/evil.example", "/%20/evil.example", "/%5Cevil.example", "//evil.example"] {
        assert_eq!(name_to(back), "/", "{back}");
    }
    assert_eq!(name_to("https%3A%2F%2Fevil.example%2F"), "/");
    assert_eq!(name_to(&format!("%2Fgame%2F{id}")), format!("/game/{id}"), "a page of the desk is kept");
    let page = d.get("/arbiter?back=/%09/evil.example", &cookies).body;
    assert!(page.contains("name=\"back\" value=\"/\""), "the form's back target: {page}");
}

#[test]
fn giving_a_name_on_a_filtered_list_comes_back_to_it() {
    let d = Desk::start("{listen: \"127.0.0.1:0\"}");
    let list = d.get("/?status=all&round=3&finding=ambiguous-repair", "");
    let csrf = list.cookie("csrf").unwrap();
    let at = list.body.find("name=\"back\" value=\"").expect("the name form on the list") + 19;
    let back = list.body[at..].split('"').next().unwrap().replace("&amp;", "&");
    assert_eq!(back, "/?status=all&round=3&finding=ambiguous-repair");
    let form = format!("csrf={csrf}&name=Ana&back={}", back.replace('&', "%26").replace('?', "%3F"));
    let r = d.post("/arbiter", &format!("csrf={csrf}"), &form);
    assert_eq!((r.status, r.header("location")), (303, Some(back)), "the list with its filters");
}

#[test]
fn one_game_is_counted_as_one_game() {
    let d = Desk::start("{listen: \"127.0.0.1:0\"}");
    let en = d.get("/", "").body;
    assert!(en.contains("<p id=\"count\">1 game</p>"), "{en}");
    let es = d.get("/?lang=es", "").body;
    assert!(es.contains("<p id=\"count\">1 partida</p>"), "{es}");
    assert!(d.get("/?status=validated", "").body.contains("<p id=\"count\">0 games</p>"));
}

#[test]
fn an_entry_read_as_no_move_is_shown_among_the_moves_as_written() {
    let d = Desk::start("{listen: \"127.0.0.1:0\"}");
    // 6.Qz9 names no square: read as nothing, and the game goes to review.
    let sheet = "Event: Open\nRound: 3\nBoard: 4\nWhite: Ana Pérez\nBlack: Bea Ruiz\n\n\
                 1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 4.Ba4 Nf6 5.O-O Be7 6.Qz9 b5 7.Bb3 d6 1-0\n";
    drop_file(&d.root.join("inbox"), "mesa4.txt", sheet.as_bytes());
    wait_for("the game in review", || names(&d.root.join("review")).len() == 4);
    let all = d.get("/?status=review", "").body;
    let at = all.find("Ana Pérez").and_then(|k| all[..k].rfind("data-id=\"")).expect("the game listed") + 9;
    let page = d.get(&format!("/game/{}", &all[at..at + 16]), "").body;
    let moves = &page[page.find("id=\"moves\"").expect("the moves table")..];
    let moves = &moves[..moves.find("</table>").unwrap()];
    let row = moves.split("<tr").find(|r| r.contains("Qz9")).expect("Qz9 in the moves as written");
    assert!(row.contains("class=\"unread\"") && row.contains("not read as a move") && row.contains("line 7"), "{row}");
    // In its place: after 5...Be7, before 6.
    let (qz9, be7, six) =
        (moves.find("Qz9").unwrap(), moves.find(">Be7<").unwrap(), moves.find("<td>6.</td>").unwrap());
    assert!(be7 < qz9 && qz9 < six, "{moves}");
}

#[test]
fn a_game_in_review_can_be_given_its_result_in_one_click() {
    let d = Desk::start("{listen: \"127.0.0.1:0\"}");
    let id = d.id();
    // Its result, 1-0, is written and in no doubt; its moves are.
    let page = d.get(&format!("/game/{id}"), "").body;
    assert!(page.contains("id=\"result\"") && page.contains("value=\"0-1\""), "the result buttons");
    let (csrf, version) = first_visit(&d, &id);
    let r = d.post(
        &format!("/game/{id}/decide"),
        &format!("csrf={csrf}; arbiter=Ana"),
        &format!("csrf={csrf}&version={version}&action=result&result=1/2-1/2"),
    );
    assert_eq!(r.status, 303, "{}", r.body);
    // The moves' doubt stays: still in review, with the result given.
    let review = d.root.join("review");
    let pgn = names(&review).into_iter().find(|n| n.ends_with(".pgn")).expect("still in review");
    assert!(fs::read_to_string(review.join(pgn)).unwrap().contains("[Result \"1/2-1/2\"]"));
}

/// Round 5, board `b`: every move read, a result written.
fn clean_game(b: usize) -> String {
    format!("Event: Open\nRound: 5\nBoard: {b}\nWhite: White {b:03}\nBlack: Black {b:03}\n\n1.e4 e5 2.Nf3 Nc6 1-0\n\n")
}

/// The ids of the games a queue page lists.
fn listed(page: &str) -> Vec<String> {
    page.match_indices("class=\"game\" data-id=\"")
        .map(|(k, m)| page[k + m.len()..k + m.len() + 16].to_string())
        .collect()
}

#[test]
fn a_long_list_is_shown_a_hundred_games_a_page() {
    let d = Desk::start("{listen: \"127.0.0.1:0\"}");
    let file: String = (1..=130).map(clean_game).collect();
    drop_file(&d.root.join("inbox"), "round5.txt", file.as_bytes());
    wait_for("130 games published", || names(&d.root.join("pgn")).len() >= 130);
    let one = d.get("/?status=validated&round=5", "").body;
    assert!(one.contains("<p id=\"count\">130 games</p>"), "the list's whole count");
    let first = listed(&one);
    assert_eq!(first.len(), 100);
    assert!(!one.contains("class=\"previous\""), "no page before the first");
    let next = one.find("class=\"next\"").map(|k| &one[k..]).expect("a link to page 2");
    let href = next[next.find("href=\"").unwrap() + 6..].split('"').next().unwrap().replace("&amp;", "&");
    assert_eq!(href, "/?status=validated&round=5&page=2", "the filters kept");
    let two = d.get(&href, "").body;
    let second = listed(&two);
    assert_eq!(second.len(), 30);
    assert!(two.contains("class=\"previous\"") && !two.contains("class=\"next\""));
    let mut all: Vec<&String> = first.iter().chain(&second).collect();
    all.sort();
    all.dedup();
    assert_eq!(all.len(), 130, "every game once");
    assert_eq!(listed(&d.get("/?status=validated&round=5&page=99", "").body), second, "past the end: the last");
    // A game of the file, opened from page 2, is its own.
    let at = two.find(&format!("data-id=\"{}\"", second[0])).unwrap();
    let white = two[at..].split("<a class=\"open\"").nth(1).unwrap().split('>').nth(1).unwrap().split(" – ").next();
    let game = d.get(&format!("/game/{}", second[0]), "").body;
    assert!(game.contains(&format!("<h1>{}", white.unwrap())), "the page of the game listed");
}

/// Game `b` of round `r`, its 2...Nc6 illegible: one doubt, so in review.
fn doubtful_game(r: usize, b: usize) -> String {
    format!(
        "Event: Open\nRound: {r}\nBoard: {b}\nWhite: White {r:03}-{b:03}\nBlack: Black {r:03}-{b:03}\n\n\
         1.e4 e5 2.Nf3 ? 3.Bb5 a6 4.Ba4 Nf6 1-0\n\n"
    )
}

/// The time of one GET, in milliseconds, and its reply.
fn timed(d: &Desk, path: &str) -> (f64, Reply) {
    let start = std::time::Instant::now();
    let r = d.get(path, "");
    (start.elapsed().as_secs_f64() * 1000.0, r)
}

/// Figures, not a check: 25,000 games in review (250 files of 100 games,
/// one round each, dropped into the inbox and read by the daemon), then the
/// time of each desk page. `cargo test --release --test desk_http --
/// --ignored --nocapture desk_pages_with`
#[test]
#[ignore = "figures: fills review/ with 25,000 games (minutes)"]
fn desk_pages_with_25000_games_in_review() {
    let (files, per_file) = (250, 100);
    let d = Desk::start("{listen: \"127.0.0.1:0\"}");
    let started = std::time::Instant::now();
    for r in 1..=files {
        let text: String = (1..=per_file).map(|b| doubtful_game(r + 10, b)).collect();
        drop_file(&d.root.join("inbox"), &format!("round-{r}.txt"), text.as_bytes());
    }
    let games = files * per_file + 1;
    let in_review = || fs::read_dir(d.root.join("review")).map_or(0, |e| e.count()) / 2;
    while in_review() < games {
        assert!(started.elapsed().as_secs() < 3600, "gave up: {} in review", in_review());
        std::thread::sleep(std::time::Duration::from_secs(2));
    }
    println!("filled: {games} games in review in {:.0} s", started.elapsed().as_secs_f64());
    // The first look reads every game that came since the desk last looked.
    let pages = games.div_ceil(100);
    let (build, first) = timed(&d, "/");
    assert!(first.body.contains(&format!("<p id=\"count\">{games} games</p>")), "every game listed");
    println!("GET / (first look since the games came)    {build:8.1} ms");
    let mut middle_id = String::new();
    for (what, path) in [
        ("GET / (list page 1)", "/".to_string()),
        ("GET /?page=M (a middle page)", format!("/?page={}", pages / 2)),
        ("GET /?page=L (the last page)", format!("/?page={pages}")),
        ("GET /?round=R&finding=... (filtered)", "/?round=135&finding=ambiguous-repair".to_string()),
    ] {
        let (ms, r) = timed(&d, &path);
        assert_eq!(r.status, 200, "{path}");
        if path.contains("page=") && middle_id.is_empty() {
            middle_id = listed(&r.body)[50].clone();
        }
        println!("{what:43}{ms:8.1} ms");
    }
    for _ in 0..2 {
        let (ms, r) = timed(&d, &format!("/game/{middle_id}"));
        assert_eq!(r.status, 200);
        assert!(r.body.contains("id=\"stepper\""), "the game's page");
        println!("{:43}{ms:8.1} ms", "GET /game/ID (a game of a middle page)");
    }
}

#[test]
fn a_desk_whose_address_is_taken_stops_watch_unless_the_config_makes_it_optional() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap();
    let (t, root) = setup();
    let cfg = t.path().join("config.yaml");
    fs::write(&cfg, format!("desk: {{listen: \"{addr}\"}}\n")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_scoresheet"))
        .args(["watch", "--root", root.to_str().unwrap(), "--config", cfg.to_str().unwrap()])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{said}");
    assert!(said.contains(&format!("the desk cannot listen on {addr}")), "{said}");
    // Made optional: said, and the sheets are read without the desk.
    fs::write(&cfg, format!("desk: {{listen: \"{addr}\", optional: true}}\n")).unwrap();
    let daemon = start_with(&root, &["--config", cfg.to_str().unwrap()]);
    drop_file(&root.join("inbox"), "a.txt", b"1.e4 e5 2.Nf3 Nc6 1-0\n");
    wait_for("the sheet", || names(&root.join("archive")).len() == 1);
    let log = daemon.stop();
    assert!(log.contains("the desk is not served; the daemon goes on without it"), "{log}");
}
