//! The round feed a live broadcast polls (`/broadcast/<event>/round-<n>.pgn`),
//! as a broadcast's server sees it: the real binary on a free loopback port,
//! the pairings and sheets dropped into its inbox, the feed read over plain
//! HTTP and every game in it read by a strict PGN reader.

mod daemon_support;

use std::fs;
use std::ops::ControlFlow;
use std::path::PathBuf;

use daemon_support::{Daemon, drop_file, names, setup, start_with, wait_for};
use pgn_reader::{Outcome, RawTag, Reader, SanPlus, Skip, Visitor};
use scoresheet_dev::http::{Reply, Request};
use shakmaty::{Chess, Position};

const EVENT: &str = "Spring Open";

/// A `001` record in TRF-16's columns, with its rounds (opponent, colour,
/// result; a blank result for a game in progress).
fn record(start: u32, title: &str, name: &str, rating: u32, id: u64, rounds: &[(u32, char, char)]) -> String {
    let mut s = format!("001 {start:>4} m{title:>3} {name:<33} {rating:>4} ESP {id:>11} 1990/01/01  0.0 {start:>4}");
    for (o, c, r) in rounds {
        s.push_str(&format!("  {o:>4} {c} {r}"));
    }
    s.trim_end().to_string()
}

/// Round 1 in progress: board 1 Navara–Ruiz Gil, board 2 Pérez Soto–Carlsen;
/// `more` players after them.
fn trf(more: &[String]) -> String {
    let mut lines = vec![
        format!("012 {EVENT}"),
        "022 Sevilla".to_string(),
        "042 2024/03/15".to_string(),
        record(1, "g", "Navara, David", 2690, 309095, &[(3, 'w', ' ')]),
        record(2, "g", "Carlsen, Magnus", 2830, 1503014, &[(4, 'b', ' ')]),
        record(3, "", "Ruiz Gil, Beatriz", 2100, 2200001, &[(1, 'b', ' ')]),
        record(4, "wf", "Pérez Soto, Ana", 1950, 2200002, &[(2, 'w', ' ')]),
    ];
    lines.extend(more.iter().cloned());
    lines.join("\n") + "\n"
}

/// Board 2's game from White's sheet, every move clear.
const BOARD_2: &str = "Event: Spring Open\nRound: 1\nBoard: 2\nWhite: Ana Pérez Soto\nBlack: Magnus Carlsen\n\n\
1.e4 e5 2.Bc4 Nc6 3.Qh5 Nf6 4.Qxf7# 1-0\n";

/// Board 1's game with 2...Nc6 illegible: a doubt, so it waits in review.
const BOARD_1_DOUBT: &str = "Event: Spring Open\nRound: 1\nBoard: 1\nWhite: David Navara\nBlack: Beatriz Ruiz Gil\n\n\
1.e4 e5 2.Cf3 ? 3.Ab5 a6 4.Aa4 Cf6 5.0-0 Ae7 1-0\n";

struct Event {
    daemon: Option<Daemon>,
    root: PathBuf,
    /// The feed's host and port, and the desk's (the same when the desk serves it).
    feed: String,
    desk: String,
    _t: tempfile::TempDir,
}

/// The address a log line `<what> listening … address=http://HOST:PORT/…` gives.
fn address_in(log: &str, what: &str) -> String {
    let line = log.lines().find(|l| l.contains(&format!("{what} listening"))).expect("the listening line");
    let url = line.split_whitespace().find_map(|w| w.strip_prefix("address=")).expect("address=").trim_matches('"');
    url.trim_start_matches("http://").split('/').next().unwrap().to_string()
}

impl Event {
    /// A daemon with `config` (YAML), the TRF dropped and kept.
    fn start(config: &str, trf_text: Option<&str>) -> Event {
        let (t, root) = setup();
        let cfg = t.path().join("config.yaml");
        fs::write(&cfg, config).unwrap();
        let daemon = start_with(&root, &["--config", cfg.to_str().unwrap()]);
        wait_for("the feed to listen", || daemon.log().contains("broadcast listening"));
        let log = daemon.log();
        let feed = address_in(&log, "broadcast");
        let desk = if log.contains("desk listening") { address_in(&log, "desk") } else { String::new() };
        let e = Event { daemon: Some(daemon), root, feed, desk, _t: t };
        if let Some(text) = trf_text {
            e.drop_trf(text);
        }
        e
    }

    fn on_desk() -> Event {
        Event::start("desk: {listen: \"127.0.0.1:0\"}\nbroadcast: {time_control: \"5400+30\"}\n", Some(&trf(&[])))
    }

    fn drop_trf(&self, text: &str) {
        drop_file(&self.root.join("inbox"), "pairings.trf", text.as_bytes());
        let kept = self.root.join(".state/pairings.trf");
        wait_for("the TRF kept", || fs::read_to_string(&kept).is_ok_and(|k| k == text));
    }

    fn drop_sheet(&self, name: &str, text: &str) {
        drop_file(&self.root.join("inbox"), name, text.as_bytes());
        wait_for("the sheet archived", || names(&self.root.join("archive")).iter().any(|n| n == name));
    }

    fn get(&self, path: &str, extra: &str) -> Reply {
        request(&self.feed, &self.feed, "GET", path, "", extra)
    }

    /// The address of round 1's feed, as the list at `/broadcast/` gives it.
    fn round_1(&self) -> String {
        let list = self.get("/broadcast/", "");
        assert_eq!(list.status, 200);
        let url = list.body.lines().find(|l| l.ends_with("/round-1.pgn")).expect("round 1 listed").to_string();
        url.split_once(&self.feed).expect("an address of this feed").1.to_string()
    }

    /// The feed of round 1 once `ready` holds for its games.
    fn feed_when(&self, what: &str, ready: impl Fn(&[Game]) -> bool) -> Vec<Game> {
        let path = self.round_1();
        let mut games = Vec::new();
        wait_for(what, || {
            let r = self.get(&path, "");
            games = read_games(&r.body);
            r.status == 200 && ready(&games)
        });
        games
    }
}

impl Drop for Event {
    fn drop(&mut self) {
        if let Some(d) = self.daemon.take() {
            d.stop();
        }
    }
}

/// One HTTP/1.1 request on its own connection to `addr`, naming `host`.
fn request(addr: &str, host: &str, method: &str, path: &str, body: &str, extra: &str) -> Reply {
    let wait = std::time::Duration::from_secs(120);
    Request { addr, host, method, path, cookies: "", body, extra }.send(wait).unwrap()
}

/// A game of the feed as a strict PGN reader reads it: its tags, its moves
/// replayed from the start (every one legal), its result token.
#[derive(Debug, Default)]
struct Game {
    tags: Vec<(String, String)>,
    sans: Vec<String>,
    outcome: Option<String>,
    illegal: Vec<String>,
    pos: Chess,
}

impl Game {
    fn tag(&self, k: &str) -> Option<&str> {
        self.tags.iter().find(|(key, _)| key == k).map(|(_, v)| v.as_str())
    }
}

struct Replay;

impl Visitor for Replay {
    type Tags = Vec<(String, String)>;
    type Movetext = Game;
    type Output = Game;

    fn begin_tags(&mut self) -> ControlFlow<Game, Self::Tags> {
        ControlFlow::Continue(Vec::new())
    }

    fn tag(&mut self, tags: &mut Self::Tags, name: &[u8], value: RawTag<'_>) -> ControlFlow<Game> {
        tags.push((String::from_utf8_lossy(name).into_owned(), value.decode_utf8_lossy().into_owned()));
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Game, Game> {
        ControlFlow::Continue(Game { tags, ..Game::default() })
    }

    fn san(&mut self, game: &mut Game, san_plus: SanPlus) -> ControlFlow<Game> {
        match san_plus.san.to_move(&game.pos) {
            Ok(m) => {
                game.pos.play_unchecked(m);
                game.sans.push(san_plus.to_string());
            }
            Err(e) => game.illegal.push(format!("{san_plus}: {e}")),
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _: &mut Game) -> ControlFlow<Game, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn outcome(&mut self, game: &mut Game, outcome: Outcome) -> ControlFlow<Game> {
        game.outcome = Some(outcome.to_string());
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, game: Game) -> Game {
        game
    }
}

/// Every game of a feed, each checked as a broadcast needs it: the Seven
/// Tag Roster first, its moves legal, its result token its `Result`, two
/// real players.
fn read_games(pgn: &str) -> Vec<Game> {
    let mut reader = Reader::new(std::io::Cursor::new(pgn.as_bytes()));
    let mut games = Vec::new();
    while let Some(g) = reader.read_game(&mut Replay).expect("the feed reads as PGN") {
        let keys: Vec<&str> = g.tags.iter().take(7).map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["Event", "Site", "Date", "Round", "White", "Black", "Result"], "{pgn}");
        assert!(g.illegal.is_empty(), "{:?} in\n{pgn}", g.illegal);
        assert_eq!(g.outcome.as_deref(), g.tag("Result"), "{pgn}");
        for side in ["White", "Black"] {
            let name = g.tag(side).unwrap_or("");
            assert!(name.chars().filter(|c| c.is_alphanumeric()).count() >= 2, "{side} {name:?} in\n{pgn}");
        }
        games.push(g);
    }
    games
}

fn players(g: &Game) -> (String, String, String) {
    let t = |k: &str| g.tag(k).unwrap_or("").to_string();
    (t("Round"), t("White"), t("Black"))
}

#[test]
fn a_poll_before_any_sheet_serves_every_board_from_the_pairings() {
    let e = Event::on_desk();
    let path = e.round_1();
    let r = e.get(&path, "");
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-type").as_deref(), Some("application/x-chess-pgn; charset=utf-8"));
    assert_eq!(r.header("cache-control").as_deref(), Some("no-cache"));
    assert!(r.header("set-cookie").is_none(), "no cookie");
    let games = read_games(&r.body);
    let seen: Vec<_> = games.iter().map(players).collect();
    assert_eq!(
        seen,
        [
            ("1.1".into(), "Navara, David".into(), "Ruiz Gil, Beatriz".into()),
            ("1.2".into(), "Pérez Soto, Ana".into(), "Carlsen, Magnus".into())
        ]
    );
    for g in &games {
        assert!(g.sans.is_empty() && g.tag("Result") == Some("*"), "no game yet: {g:?}");
        assert_eq!((g.tag("Event"), g.tag("Site"), g.tag("Date")), (Some(EVENT), Some("Sevilla"), Some("2024.03.15")));
        assert_eq!(g.tag("TimeControl"), Some("5400+30"), "the config's: the TRF gives none");
    }
    let g = &games[1];
    let tags = |ks: [&str; 6]| ks.map(|k| g.tag(k).unwrap_or("").to_string());
    assert_eq!(
        tags(["WhiteElo", "BlackElo", "WhiteFideId", "BlackFideId", "WhiteTitle", "BlackTitle"]),
        ["1950", "2830", "2200002", "1503014", "WFM", "GM"]
    );
    // The list as a page of links, for a person.
    let page = e.get("/broadcast/", "Accept: text/html\r\n");
    assert!(page.body.contains(&format!("href=\"{path}\"")), "{}", page.body);
}

#[test]
fn a_poll_after_one_copy_serves_its_game() {
    let e = Event::on_desk();
    e.drop_sheet("board2-white.txt", BOARD_2);
    let games = e.feed_when("board 2's game in the feed", |g| g.len() == 2 && !g[1].sans.is_empty());
    assert_eq!(games[1].sans, ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"]);
    assert_eq!(games[1].tag("Result"), Some("1-0"));
    assert_eq!(players(&games[1]), ("1.2".into(), "Pérez Soto, Ana".into(), "Carlsen, Magnus".into()));
    assert_eq!(games[1].tag("WhiteTitle"), Some("WFM"));
    assert!(games[0].sans.is_empty() && games[0].tag("Result") == Some("*"), "board 1 still waits");
}

#[test]
fn a_game_leaving_review_enters_the_feed() {
    let e = Event::on_desk();
    e.drop_sheet("board1.txt", BOARD_1_DOUBT);
    wait_for("the game in review", || names(&e.root.join("review")).iter().any(|n| n.ends_with(".json")));
    let games = e.feed_when("the feed", |g| g.len() == 2);
    assert!(games[0].sans.is_empty() && games[0].tag("Result") == Some("*"), "a doubtful move is never broadcast");
    // The arbiter accepts the reading at the desk.
    let queue = request(&e.desk, &e.desk, "GET", "/", "", "").body;
    let at = queue.find("data-id=\"").expect("a game in the queue") + 9;
    let id = &queue[at..at + 16];
    let page = request(&e.desk, &e.desk, "GET", &format!("/game/{id}"), "", "");
    let csrf = page.header("set-cookie").unwrap().split(';').next().unwrap().trim_start_matches("csrf=").to_string();
    let at = page.body.find("name=\"version\" value=\"").expect("the version") + 22;
    let version = page.body[at..].split('"').next().unwrap();
    let form = format!("csrf={csrf}&version={version}&action=accept&name=Ana");
    let r =
        request(&e.desk, &e.desk, "POST", &format!("/game/{id}/decide"), &form, &format!("Cookie: csrf={csrf}\r\n"));
    assert_eq!(r.status, 303, "{}", r.body);
    let games = e.feed_when("the decided game in the feed", |g| g.len() == 2 && !g[0].sans.is_empty());
    assert_eq!(games[0].sans.len(), 10);
    assert_eq!(games[0].tag("Result"), Some("1-0"));
    assert_eq!(players(&games[0]), ("1.1".into(), "Navara, David".into(), "Ruiz Gil, Beatriz".into()));
}

#[test]
fn a_conditional_get_gives_304_until_the_round_changes() {
    let e = Event::on_desk();
    let path = e.round_1();
    let first = e.get(&path, "");
    let etag = first.header("etag").expect("an ETag");
    let modified = first.header("last-modified").expect("a Last-Modified");
    let if_none = format!("If-None-Match: {etag}\r\n");
    let if_since = format!("If-Modified-Since: {modified}\r\n");
    for extra in [&if_none, &if_since] {
        let r = e.get(&path, extra);
        assert_eq!((r.status, r.body.as_str()), (304, ""), "{extra}");
        assert_eq!(r.header("etag").as_deref(), Some(etag.as_str()));
    }
    // A game of another round changes nothing of round 1.
    let round_2 = BOARD_2.replace("Round: 1", "Round: 2").replace("Board: 2", "Board: 1");
    e.drop_sheet("other-round.txt", &round_2);
    assert_eq!(e.get(&path, &if_none).status, 304, "another round's game");
    e.drop_sheet("board2-white.txt", BOARD_2);
    e.feed_when("board 2's game in the feed", |g| g.len() == 2 && !g[1].sans.is_empty());
    let changed = e.get(&path, &if_none);
    assert_eq!(changed.status, 200, "the round changed");
    assert_ne!(changed.header("etag"), Some(etag));
    assert_eq!(e.get(&path, &if_since).status, 200, "modified since");
    let now = format!("If-None-Match: {}\r\n", changed.header("etag").unwrap());
    assert_eq!(e.get(&path, &now).status, 304);
}

#[test]
fn a_player_missing_from_a_sheet_is_filled_from_the_trf() {
    let e = Event::on_desk();
    let no_white = BOARD_2.replace("White: Ana Pérez Soto\n", "");
    e.drop_sheet("board2-black.txt", &no_white);
    let games = e.feed_when("board 2's game in the feed", |g| g.len() == 2 && !g[1].sans.is_empty());
    assert_eq!(players(&games[1]), ("1.2".into(), "Pérez Soto, Ana".into(), "Carlsen, Magnus".into()));
    assert_eq!((games[1].tag("WhiteElo"), games[1].tag("WhiteFideId")), (Some("1950"), Some("2200002")));
}

#[test]
fn a_round_with_a_bye_serves_every_board_and_no_bye() {
    // Eva Toro has a bye; Luis Gil and Marta Sanz's game is a forfeit.
    let more = [
        record(5, "", "Toro, Eva", 1800, 2200005, &[(0, '-', 'U')]),
        record(6, "", "Gil, Luis", 1700, 2200006, &[(7, 'w', '+')]),
        record(7, "", "Sanz, Marta", 1600, 2200007, &[(6, 'b', '-')]),
    ];
    let e =
        Event::start("desk: {listen: \"127.0.0.1:0\"}\nbroadcast: {time_control: \"5400+30\"}\n", Some(&trf(&more)));
    e.drop_sheet("board2-white.txt", BOARD_2);
    let games = e.feed_when("board 2's game in the feed", |g| g.iter().any(|g| !g.sans.is_empty()));
    let seen: Vec<_> = games.iter().map(players).collect();
    assert_eq!(
        seen,
        [
            ("1.1".into(), "Navara, David".into(), "Ruiz Gil, Beatriz".into()),
            ("1.2".into(), "Pérez Soto, Ana".into(), "Carlsen, Magnus".into())
        ],
        "the two boards played, no bye, no forfeit"
    );
}

#[test]
fn the_feed_needs_no_desk_token_and_answers_only_to_its_hosts() {
    let e = Event::start(
        "desk: {listen: \"127.0.0.1:0\", token: \"a-long-enough-secret-token\"}\n\
         broadcast: {hosts: [feed.example.org]}\n",
        Some(&trf(&[])),
    );
    let path = e.round_1();
    assert_eq!(e.get(&path, "").status, 200, "no token asked");
    let public = request(&e.feed, "feed.example.org", "GET", &path, "", "");
    assert_eq!(public.status, 200, "its public name");
    assert_eq!(request(&e.feed, "evil.example", "GET", &path, "", "").status, 421);
    assert_eq!(request(&e.feed, "feed.example.org", "GET", "/", "", "").status, 421, "nothing of the desk");
    assert_eq!(request(&e.feed, &e.feed, "GET", "/", "", "").status, 401, "the desk still needs its token");
    for bad in
        ["/broadcast/..%2F.state/round-1.pgn", "/broadcast/Nope/round-1.pgn", &path.replace("round-1", "round-9")]
    {
        assert_eq!(e.get(bad, "").status, 404, "{bad}");
    }
}

#[test]
fn the_feed_alone_serves_the_rounds_and_nothing_of_the_desk() {
    let e = Event::start(
        "desk: {enabled: false}\nbroadcast: {listen: \"127.0.0.1:0\", hosts: [feed.example.org]}\n",
        Some(&trf(&[])),
    );
    assert!(!e.daemon.as_ref().unwrap().log().contains("desk listening"));
    e.drop_sheet("board2-white.txt", BOARD_2);
    let games = e.feed_when("board 2's game in the feed", |g| g.len() == 2 && !g[1].sans.is_empty());
    assert_eq!(games[1].tag("TimeControl"), None, "none in the TRF or the config");
    assert_eq!(e.get("/", "").status, 404, "no desk");
    assert_eq!(request(&e.feed, "evil.example", "GET", "/broadcast/", "", "").status, 421);
}

#[test]
fn a_request_with_two_host_headers_is_refused_with_400() {
    let e = Event::on_desk();
    let r = request(&e.feed, &e.feed, "GET", "/broadcast/", "", "Host: evil.example\r\n");
    assert_eq!(r.status, 400, "{}", r.body);
    assert_eq!(e.get("/broadcast/", "").status, 200);
}

#[test]
fn clients_holding_half_open_connections_keep_out_no_poll_and_no_sheet_and_are_closed() {
    use std::io::{Read, Write};
    // Few descriptors, so that the held connections go past the server's
    // cap (the descriptors less those kept for the workers).
    let (t, root) = setup();
    let cfg = t.path().join("config.yaml");
    fs::write(&cfg, "desk: {listen: \"127.0.0.1:0\"}\n").unwrap();
    let daemon =
        daemon_support::start_via(&root, &["prlimit", "--nofile=320:320"], &["--config", cfg.to_str().unwrap()]);
    wait_for("the feed to listen", || daemon.log().contains("broadcast listening"));
    let feed = address_in(&daemon.log(), "broadcast");
    // A request line and a header each, never the blank line that ends them.
    let held: Vec<std::net::TcpStream> = (0..200)
        .map(|_| {
            let mut s = std::net::TcpStream::connect(&feed).unwrap();
            s.write_all(format!("GET /broadcast/ HTTP/1.1\r\nHost: {feed}\r\n").as_bytes()).unwrap();
            s
        })
        .collect();
    let poll = request(&feed, &feed, "GET", "/broadcast/", "", "");
    assert_eq!(poll.status, 200, "{}", poll.body);
    drop_file(&root.join("inbox"), "late.txt", BOARD_2.as_bytes());
    wait_for("the sheet read meanwhile", || names(&root.join("pgn")).iter().any(|n| n.ends_with(".pgn")));
    // Every held connection is closed by the server: at the cap, or once
    // its headers are overdue.
    for mut s in held {
        s.set_read_timeout(Some(std::time::Duration::from_secs(60))).unwrap();
        let mut buf = [0u8; 256];
        let closed = loop {
            match s.read(&mut buf) {
                Ok(0) => break true,
                Ok(_) => continue,
                Err(e) => break !matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut),
            }
        };
        assert!(closed, "a held connection left open");
    }
    let log = daemon.stop();
    assert!(!log.contains("Too many open files"), "{log}");
}
