//! The broadcast feed of `scoresheet watch` under load: starts the release
//! binary on a temporary root with a TRF of ROUNDS rounds of BOARDS boards,
//! the earlier rounds played (their games dropped first, not timed), drops
//! one sheet per board of the last round the way copy tools do (written as
//! `*.tmp`, then renamed) and times each from the rename to its game in the
//! feed (`/broadcast/<event>/round-<ROUNDS>.pgn`, polled): a drop costs what
//! its round holds, not the event. Then several clients poll
//! the whole round at once, plainly and with `If-None-Match`, and the
//! requests per second are printed with the daemon's memory (VmRSS).
//! Prints, asserts nothing.
//!
//! `cargo build --release && cargo run --release -p scoresheet-dev --bin feed -- [BOARDS] [CLIENTS] [SECONDS] [ROUNDS]`
//! (default 100 boards, 4 clients, 5 seconds a measure, 1 round).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread::sleep;
use std::time::{Duration, Instant};

type Result<T> = std::result::Result<T, Box<dyn std::error::Error + Send + Sync>>;

const EVENT: &str = "Bench Open";

/// Short games, each legal, so the boards do not all hold one game.
const GAMES: [&str; 4] = [
    "1.e4 e5 2.Bc4 Nc6 3.Qh5 Nf6 4.Qxf7# 1-0",
    "1.f3 e5 2.g4 Qh4# 0-1",
    "1.d4 d5 2.c4 e6 3.Nc3 Nf6 4.Bg5 Be7 5.e3 O-O 1/2-1/2",
    "1.e4 c5 2.Nf3 d6 3.d4 cxd4 4.Nxd4 Nf6 5.Nc3 a6 1-0",
];

/// A player's name of letters only (`Baab, Ana`), one per start number.
fn name(start: usize) -> String {
    let mut s = String::from("B");
    let mut n = start;
    for _ in 0..3 {
        s.push((b'a' + (n % 26) as u8) as char);
        n /= 26;
    }
    format!("{s}, Ana")
}

/// The game of every board of the rounds played: a draw, so that every
/// player has the same score and the boards keep their order.
const PLAYED: &str = "1.d4 d5 2.c4 e6 3.Nc3 Nf6 4.Bg5 Be7 5.e3 O-O 1/2-1/2";

/// `rounds` rounds, the last in progress: in each, board b is player 2b-1
/// (White) against 2b, drawn in the rounds played ([`PLAYED`]).
fn trf(boards: usize, rounds: usize) -> String {
    let mut s = format!("012 {EVENT}\n022 Sevilla\n042 2024/03/15\n");
    for start in 1..=2 * boards {
        let (opponent, colour) = if start % 2 == 1 { (start + 1, 'w') } else { (start - 1, 'b') };
        let mut line = format!(
            "001 {start:>4} m    {:<33} 2000 ESP {:>11} 1990/01/01  0.0 {start:>4}",
            name(start),
            3_000_000 + start
        );
        for r in 1..=rounds {
            let result = if r == rounds { ' ' } else { '=' };
            line.push_str(&format!("  {opponent:>4} {colour} {result}"));
        }
        s.push_str(line.trim_end());
        s.push('\n');
    }
    s
}

/// Board `board`'s sheet of `round`: of the round in progress where `last`,
/// else of a round played.
fn sheet(round: usize, board: usize, last: bool) -> String {
    let game = if last { GAMES[board % GAMES.len()] } else { PLAYED };
    format!(
        "Event: {EVENT}\nRound: {round}\nBoard: {board}\nWhite: {}\nBlack: {}\n\n{game}\n",
        name(2 * board - 1),
        name(2 * board),
    )
}

/// A kept-alive HTTP/1.1 connection to the feed.
struct Client {
    stream: BufReader<TcpStream>,
    addr: String,
}

impl Client {
    fn new(addr: &str) -> Result<Client> {
        let s = TcpStream::connect(addr)?;
        s.set_nodelay(true)?;
        Ok(Client { stream: BufReader::new(s), addr: addr.to_string() })
    }

    /// GET `path`: the status, the ETag and the body.
    fn get(&mut self, path: &str, etag: Option<&str>) -> Result<(u16, String, String)> {
        let cond = etag.map(|e| format!("If-None-Match: {e}\r\n")).unwrap_or_default();
        let req = format!("GET {path} HTTP/1.1\r\nHost: {}\r\n{cond}\r\n", self.addr);
        self.stream.get_mut().write_all(req.as_bytes())?;
        let (mut status, mut length, mut tag) = (0, 0, String::new());
        let mut line = String::new();
        loop {
            line.clear();
            if self.stream.read_line(&mut line)? == 0 {
                return Err("the connection closed".into());
            }
            let l = line.trim_end();
            if l.is_empty() {
                break;
            }
            if let Some(rest) = l.strip_prefix("HTTP/1.1 ") {
                status = rest.split(' ').next().unwrap_or("0").parse()?;
            } else if let Some((k, v)) = l.split_once(':') {
                match k.to_ascii_lowercase().as_str() {
                    "content-length" => length = v.trim().parse()?,
                    "etag" => tag = v.trim().to_string(),
                    _ => {}
                }
            }
        }
        let mut body = vec![0; length];
        self.stream.read_exact(&mut body)?;
        Ok((status, tag, String::from_utf8_lossy(&body).into_owned()))
    }
}

/// Whether board `b`'s game of `round` is in the feed with its moves.
fn has_game(feed: &str, round: usize, board: usize) -> bool {
    let marker = format!("[Round \"{round}.{board}\"]");
    feed.split("\n\n[Event ").any(|g| g.contains(&marker) && !g.trim_end().ends_with("\n\n*"))
}

/// Drops the games of the rounds before the last and waits until each is
/// archived; how many.
fn played_rounds(root: &Path, boards: usize, rounds: usize) -> Result<usize> {
    let inbox = root.join("inbox");
    let n = boards * (rounds - 1);
    for r in 1..rounds {
        for b in 1..=boards {
            let tmp_name = inbox.join(format!("r{r}-board-{b}.txt.tmp"));
            std::fs::write(&tmp_name, sheet(r, b, false))?;
            std::fs::rename(&tmp_name, inbox.join(format!("r{r}-board-{b}.txt")))?;
        }
    }
    let t = Instant::now();
    let archived = || {
        let played = |e: &std::fs::DirEntry| e.file_name().to_string_lossy().starts_with('r');
        std::fs::read_dir(root.join("archive")).map(|d| d.flatten().filter(played).count()).unwrap_or(0)
    };
    while archived() < n {
        if t.elapsed() > Duration::from_secs(3600) {
            return Err("the earlier rounds were not all read".into());
        }
        sleep(Duration::from_millis(200));
    }
    Ok(n)
}

fn vm_rss_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap_or("");
    line.split_whitespace().nth(1).and_then(|n| n.parse().ok()).unwrap_or(0)
}

fn start(bin: &Path, root: &Path) -> Result<(Child, String)> {
    let cfg = root.join("bench.yaml");
    std::fs::write(&cfg, "desk: {listen: \"127.0.0.1:0\"}\nbroadcast: {time_control: \"5400+30\"}\n")?;
    let log = root.join("log.txt");
    let daemon = Command::new(bin)
        .args(["watch", "--root"])
        .arg(root.join("event"))
        .arg("--config")
        .arg(&cfg)
        .env("RUST_LOG", "info")
        .stderr(std::fs::File::create(&log)?)
        .stdout(Stdio::null())
        .spawn()?;
    let t = Instant::now();
    loop {
        let text = std::fs::read_to_string(&log).unwrap_or_default();
        if let Some(l) = text.lines().find(|l| l.contains("broadcast listening") && text.contains("watching")) {
            let url = l.split_whitespace().find_map(|w| w.strip_prefix("address=")).ok_or("no address")?;
            let addr = url.trim_matches('"').trim_start_matches("http://").split('/').next().unwrap_or("");
            return Ok((daemon, addr.to_string()));
        }
        if t.elapsed() > Duration::from_secs(20) {
            return Err("the daemon did not start".into());
        }
        sleep(Duration::from_millis(20));
    }
}

/// Requests per second of `clients` kept-alive clients polling `path` for
/// `secs`, conditional (`If-None-Match`) or not.
fn poll_rate(addr: &str, path: &str, clients: usize, secs: u64, conditional: bool) -> Result<f64> {
    let count = Arc::new(AtomicU64::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let mut threads = Vec::new();
    for _ in 0..clients {
        let (count, stop, addr, path) = (count.clone(), stop.clone(), addr.to_string(), path.to_string());
        threads.push(std::thread::spawn(move || -> Result<()> {
            let mut c = Client::new(&addr)?;
            let (_, etag, _) = c.get(&path, None)?;
            let etag = conditional.then_some(etag);
            while !stop.load(Ordering::Relaxed) {
                let (status, _, _) = c.get(&path, etag.as_deref())?;
                if status != 200 && status != 304 {
                    return Err(format!("status {status}").into());
                }
                count.fetch_add(1, Ordering::Relaxed);
            }
            Ok(())
        }));
    }
    let t = Instant::now();
    sleep(Duration::from_secs(secs));
    stop.store(true, Ordering::Relaxed);
    for th in threads {
        th.join().map_err(|_| "a client panicked")??;
    }
    Ok(count.load(Ordering::Relaxed) as f64 / t.elapsed().as_secs_f64())
}

fn main() -> Result<()> {
    let arg = |i: usize, default: u64| -> Result<u64> {
        Ok(std::env::args().nth(i).map(|a| a.parse()).transpose()?.unwrap_or(default))
    };
    let (boards, clients, secs) = (arg(1, 100)? as usize, arg(2, 4)? as usize, arg(3, 5)?);
    let rounds = (arg(4, 1)? as usize).max(1);
    let exe = std::env::current_exe()?;
    let bin: PathBuf = exe.parent().ok_or("no target folder")?.join("scoresheet");
    if !bin.exists() {
        return Err(format!("{} not found: run `cargo build --release` first", bin.display()).into());
    }
    let tmp = tempfile::tempdir()?;
    let (mut daemon, addr) = start(&bin, tmp.path())?;
    let root = tmp.path().join("event");
    let inbox = root.join("inbox");
    let trf_text = trf(boards, rounds);
    std::fs::write(inbox.join(".pairings.trf.tmp"), &trf_text)?;
    std::fs::rename(inbox.join(".pairings.trf.tmp"), inbox.join("pairings.trf"))?;
    let kept = root.join(".state/pairings.trf");
    let t = Instant::now();
    while std::fs::read_to_string(&kept).ok().as_deref() != Some(trf_text.as_str()) {
        if t.elapsed() > Duration::from_secs(30) {
            return Err("the TRF was not loaded".into());
        }
        sleep(Duration::from_millis(10));
    }
    // The client connects once they are in: the feed closes a connection
    // idle for 10 s.
    let played = played_rounds(&root, boards, rounds)?;
    let mut client = Client::new(&addr)?;
    let (_, _, list) = client.get("/broadcast/", None)?;
    let last = format!("/round-{rounds}.pgn");
    let url = list.lines().find(|l| l.ends_with(&last)).ok_or("the last round not listed")?;
    let path = url.split_once(addr.as_str()).ok_or("not this address")?.1.to_string();
    let rss_before = vm_rss_kb(daemon.id());

    let mut times = Vec::with_capacity(boards);
    let mut etag: Option<String> = None;
    let mut feed = String::new();
    for b in 1..=boards {
        let tmp_name = inbox.join(format!("board-{b}.txt.tmp"));
        std::fs::write(&tmp_name, sheet(rounds, b, true))?;
        let t = Instant::now();
        std::fs::rename(&tmp_name, inbox.join(format!("board-{b}.txt")))?;
        loop {
            let (status, tag, body) = client.get(&path, etag.as_deref())?;
            if status == 200 {
                (etag, feed) = (Some(tag), body);
            }
            if has_game(&feed, rounds, b) {
                break;
            }
            if t.elapsed() > Duration::from_secs(60) {
                return Err(format!("board {b}: not in the feed after 60 s").into());
            }
            sleep(Duration::from_millis(1));
        }
        times.push(t.elapsed());
    }
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let pick = |q: f64| times[((times.len() as f64 * q) as usize).min(times.len() - 1)];
    println!("{played} games already in the event ({} rounds)", rounds - 1);
    println!(
        "drop to feed over {boards} sheets: p50 {:.1} ms, p99 {:.1} ms, worst {:.1} ms",
        ms(pick(0.5)),
        ms(pick(0.99)),
        ms(times[times.len() - 1])
    );
    println!("feed of {boards} boards: {} bytes", feed.len());
    let rss_loaded = vm_rss_kb(daemon.id());
    let full = poll_rate(&addr, &path, clients, secs, false)?;
    let rss_full = vm_rss_kb(daemon.id());
    let cond = poll_rate(&addr, &path, clients, secs, true)?;
    let rss_cond = vm_rss_kb(daemon.id());
    println!("{clients} clients polling for {secs} s: {full:.0} requests/s (200, whole round), VmRSS {rss_full} kB");
    println!("{clients} clients polling for {secs} s: {cond:.0} requests/s (304, If-None-Match), VmRSS {rss_cond} kB");
    println!("VmRSS: {rss_before} kB with the TRF loaded, {rss_loaded} kB after the {boards} games");
    let _ = Command::new("kill").args(["-TERM", &daemon.id().to_string()]).status();
    daemon.wait()?;
    Ok(())
}
