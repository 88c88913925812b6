//! A whole Swiss run against a real pairing engine: the FIDE Dutch engine of
//! PyPI's `caissify-pairings` pairs every round from the TRF the daemon
//! wrote after the round before (`pgn/<event>/results.trf`), both copies of
//! every game are typed as volunteers type them and dropped into a running
//! `scoresheet watch`, the games sent to review are decided on the desk as
//! an arbiter with the paper would, and at the end the engine's checker,
//! the points, the round files and the broadcast feed are held against the
//! true tournament.
//!
//! The engine's side is `swiss/pair.py`, run with the Python that
//! [`python`] finds. What the tool checks is [`Figures`].

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use serde_json::Value;

use crate::corpus::{CorpusGame, try_load_range};
use crate::generate::{Rng, derive_seed};
use crate::http::{Reply, Request, form_value};
use crate::pairs::{Written, pair_as_written};
use crate::trf::{BuiltTrf, TrfGame, TrfPlayer};

/// The engine's driver, shipped beside this crate.
pub const PAIR_PY: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/swiss/pair.py");

/// What to install where no Python with the engine is found.
pub const INSTALL: &str = "the Swiss run needs Python with caissify-pairings 0.5.0 and python-chess 1.11.2: \
     python3 -m venv target/pairing-venv && target/pairing-venv/bin/pip install caissify-pairings==0.5.0 chess==1.11.2 \
     (in the workspace root; .ci/run does it), or name another Python in SCORESHEET_PAIRING_PYTHON";

/// The Python that runs the engine: `$SCORESHEET_PAIRING_PYTHON`, else the
/// workspace's `target/pairing-venv/bin/python`; refused, saying what to
/// install, unless it imports both `caissify_pairings` and `chess`.
pub fn python() -> Result<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let py = std::env::var_os("SCORESHEET_PAIRING_PYTHON")
        .map_or_else(|| root.join("target/pairing-venv/bin/python"), PathBuf::from);
    let ok = Command::new(&py)
        .args(["-c", "import caissify_pairings, chess"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        bail!("{} cannot import caissify_pairings and chess; {INSTALL}", py.display());
    }
    Ok(py)
}

/// The daemon's binary: `$SCORESHEET_BIN`, else `scoresheet` in the target
/// folder this program was built into (beside a binary, or above a test's
/// `deps/`).
pub fn daemon_bin() -> Result<PathBuf> {
    if let Some(b) = std::env::var_os("SCORESHEET_BIN") {
        return Ok(PathBuf::from(b));
    }
    let exe = std::env::current_exe()?;
    let found = exe.ancestors().skip(1).take(2).map(|d| d.join("scoresheet")).find(|b| b.is_file());
    found.with_context(|| {
        format!("no scoresheet binary beside {}: run `cargo build --release --bin scoresheet` first", exe.display())
    })
}

/// How the Swiss is run.
#[derive(Debug, Clone)]
pub struct Spec {
    pub seed: u64,
    /// Players (an odd number gives a pairing-allocated bye every round).
    pub players: usize,
    pub rounds: u32,
    /// The corpus games the players' names and the games come from:
    /// `first..first + pool` (the committed subset holds `0..2260`).
    pub first: usize,
    pub pool: usize,
    /// Faults per move of each copy.
    pub rate: f64,
    /// The share of copies with no result written.
    pub no_result: f64,
    /// The share of games with one copy dropped in the next round's wave.
    pub late: f64,
    /// The share of draws among the games.
    pub draws: f64,
    /// Keep the daemon's folders (their path is printed).
    pub keep: bool,
}

impl Spec {
    /// The small Swiss CI runs: 13 players, 4 rounds, committed games.
    pub fn small(seed: u64) -> Spec {
        Spec {
            seed,
            players: 13,
            rounds: 4,
            first: 0,
            pool: 600,
            rate: 0.04,
            no_result: 0.15,
            late: 0.1,
            draws: 0.3,
            keep: false,
        }
    }

    /// The large Swiss: 51 players, 9 rounds, corpus games from 10,000 on.
    pub fn large(seed: u64) -> Spec {
        Spec { players: 51, rounds: 9, first: 10_000, pool: 2_500, ..Spec::small(seed) }
    }

    /// The round whose wave the daemon is killed in (SIGKILL) midway.
    fn kill_round(&self) -> u32 {
        (self.rounds / 2).max(1)
    }

    /// The round one game of is a forfeit.
    fn forfeit_round(&self) -> u32 {
        self.rounds.min(2)
    }

    /// The round one player is absent from (a half-point bye), with an even
    /// number of players the only bye of the event.
    fn absent_round(&self) -> u32 {
        self.rounds.min(3)
    }
}

/// The event's name: a plain name, its folder's own.
pub const EVENT: &str = "Swiss_Open_2026";
const SITE: &str = "Sitges";
const DATE: &str = "2026/03/14";
const TIME_CONTROL: &str = "5400+30";

/// One game of the true tournament.
#[derive(Debug, Clone)]
pub struct Truth {
    /// `g0007`: its copies are `g0007-a.txt`, `g0007-b.pgn` ...
    pub id: String,
    pub round: u32,
    /// The board as the daemon's reader numbers the round's pairings.
    pub board: u32,
    pub white: u32,
    pub black: u32,
    pub sans: Vec<String>,
    /// `1-0`, `0-1`, `1/2-1/2`; a forfeit's is `+` for White or `-`.
    pub result: String,
    pub forfeit: bool,
}

/// What the run found: one line each when shown.
#[derive(Debug, Clone, Default)]
pub struct Figures {
    pub players: usize,
    pub rounds: u32,
    /// Games played (forfeits and byes not counted).
    pub games: usize,
    pub forfeits: usize,
    pub byes: usize,
    pub late_copies: usize,
    /// Games the desk listed to decide (in review or waiting for a copy).
    pub review: usize,
    /// Of them, decided through the desk's decision route.
    pub decided: usize,
    /// Published games whose result the arbiter gave (none or another was read).
    pub results_given: usize,
    /// Decisions the desk refused (each said on stderr).
    pub refused: usize,
    /// Games decided short of the true game: a fix the desk could not read
    /// the sheet past was left out (said on stderr).
    pub decided_short: usize,
    /// The engine checker's discrepancies on the daemon's final TRF (`None`:
    /// no TRF to check).
    pub discrepancies: Option<u64>,
    /// Players whose points in the daemon's final TRF (as the engine reads
    /// them) differ from the true ones.
    pub points_differ: usize,
    /// Games in their round file once, with the true moves and result.
    pub round_exact: usize,
    /// Games of the feed read back by python-chess with every tag right.
    pub feed_read: usize,
    /// Games in the feeds.
    pub feed_games: usize,
    /// Rounds whose feed holds exactly its round file's games.
    pub feeds_equal: u32,
}

impl Figures {
    /// Whether every check passed.
    pub fn ok(&self) -> bool {
        self.discrepancies == Some(0)
            && self.points_differ == 0
            && self.round_exact == self.games
            && self.feed_read == self.games
            && self.feed_games == self.games
            && self.feeds_equal == self.rounds
            && self.decided == self.review
            && self.refused == 0
            && self.decided_short == 0
    }
}

impl fmt::Display for Figures {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let yes = |b: bool| if b { "yes" } else { "no" };
        writeln!(f, "SWISS players={}", self.players)?;
        writeln!(f, "SWISS rounds={}", self.rounds)?;
        writeln!(
            f,
            "SWISS games={} forfeits={} byes={} late_copies={}",
            self.games, self.forfeits, self.byes, self.late_copies
        )?;
        writeln!(
            f,
            "SWISS review={} decided={} decided_short={} refused={}",
            self.review, self.decided, self.decided_short, self.refused
        )?;
        writeln!(f, "SWISS results_given={}", self.results_given)?;
        match self.discrepancies {
            Some(d) => writeln!(f, "SWISS checker_discrepancies={d}")?,
            None => writeln!(f, "SWISS checker_discrepancies=none-checked")?,
        }
        writeln!(f, "SWISS points_equal={} differ={}", yes(self.points_differ == 0), self.points_differ)?;
        writeln!(f, "SWISS round_files_once_exact={}/{}", self.round_exact, self.games)?;
        writeln!(f, "SWISS feeds_equal_round_files={}/{}", self.feeds_equal, self.rounds)?;
        write!(f, "SWISS feed_read_back={}/{} (feed games {})", self.feed_read, self.games, self.feed_games)
    }
}

/// The engine's driver.
struct Engine {
    python: PathBuf,
}

impl Engine {
    fn run(&self, args: &[&str]) -> Result<Value> {
        let out = Command::new(&self.python)
            .arg(PAIR_PY)
            .args(args)
            .stderr(Stdio::inherit())
            .output()
            .with_context(|| self.python.display().to_string())?;
        if !out.status.success() {
            bail!("pair.py {} failed: {}", args.join(" "), String::from_utf8_lossy(&out.stdout));
        }
        serde_json::from_slice(&out.stdout).with_context(|| format!("pair.py {}'s output", args.join(" ")))
    }

    /// Pairs the round after `from`'s into `to`; `(white, black or None for the bye)`.
    fn pair(&self, from: &Path, to: &Path, absent: &[u32]) -> Result<Vec<(u32, Option<u32>)>> {
        let absent = absent.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
        let v = self.run(&["pair", &from.to_string_lossy(), &to.to_string_lossy(), "--absent", &absent])?;
        let pairings = v["pairings"].as_array().context("pairings")?;
        Ok(pairings
            .iter()
            .map(|p| (p["white"].as_u64().unwrap_or(0) as u32, p["black"].as_u64().map(|b| b as u32)))
            .collect())
    }
}

/// The players: the first `n` people named in `games` (told by surname
/// and first initial, as sheets tell them), the rated first, numbered by
/// rating as [`BuiltTrf::from_games`] numbers them.
pub fn players_of(games: &[CorpusGame], n: usize) -> Vec<TrfPlayer> {
    let tag = |g: &CorpusGame, k: &str| g.tags.iter().find(|(t, _)| t == k).map(|(_, v)| v.trim().to_string());
    let person = |name: &str| {
        let name = name.to_lowercase();
        let (surname, given) = name.split_once(',').unwrap_or((&name, ""));
        (surname.trim().to_string(), given.trim().chars().next())
    };
    let mut seen = BTreeSet::new();
    let mut named: Vec<(String, u32)> = Vec::new();
    for g in games {
        for (side, elo) in [("White", "WhiteElo"), ("Black", "BlackElo")] {
            let Some(name) = tag(g, side).filter(|n| n.len() > 3 && n.is_ascii() && n.contains(',')) else { continue };
            let rating = tag(g, elo).and_then(|e| e.parse().ok()).unwrap_or(0);
            let name: String = name.chars().take(33).collect::<String>().trim_end().to_string();
            if rating >= 1000 && seen.insert(person(&name)) {
                named.push((name, rating));
            }
        }
    }
    named.truncate(n);
    named.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    // Start numbers, FIDE ids and titles as `BuiltTrf::from_games` gives them.
    named.into_iter().enumerate().map(|(i, (name, rating))| TrfPlayer::numbered(i, name, rating)).collect()
}

/// The TRF before round 1: the `012`, `022`, `042`, `222` and `XXR`
/// records, then the players.
pub fn initial_trf(players: &[TrfPlayer], rounds: u32) -> String {
    let trf = BuiltTrf { name: EVENT.into(), players: players.to_vec(), games: Vec::new() };
    let text = trf.text();
    let (first, rest) = text.split_once('\n').unwrap_or((&text, ""));
    format!("{first}\n022 {SITE}\n042 {DATE}\n222 {TIME_CONTROL}\nXXR {rounds}\n{rest}")
}

/// A result drawn as the ratings make it likely: draws at `draws`, the
/// rest shared by the expected score.
fn drawn_result(rng: &mut Rng, white: u32, black: u32, draws: f64) -> &'static str {
    let d = f64::from(white) - f64::from(black);
    let expected = 1.0 / (1.0 + 10f64.powf(-d / 400.0));
    let u = rng.unit();
    if u < draws {
        "1/2-1/2"
    } else if u < draws + (1.0 - draws) * expected {
        "1-0"
    } else {
        "0-1"
    }
}

/// Sets the result column of `start`'s block in `round` of a TRF's text.
fn set_result(text: &str, start: u32, round: u32, result: char) -> String {
    let at = 98 + 10 * (round as usize - 1);
    text.lines()
        .map(|line| {
            let ours =
                line.starts_with("001") && line.get(4..8).and_then(|s| s.trim().parse::<u32>().ok()) == Some(start);
            if !ours {
                return line.to_string();
            }
            let mut chars: Vec<char> = line.chars().collect();
            if chars.len() <= at {
                chars.resize(at + 1, ' ');
            }
            chars[at] = result;
            chars.into_iter().collect()
        })
        .map(|l| l + "\n")
        .collect()
}

/// A running daemon, its log and the desk's address.
struct Daemon {
    child: Child,
    log: PathBuf,
    addr: String,
}

impl Daemon {
    fn start(bin: &Path, root: &Path, config: &Path, log: &Path) -> Result<Daemon> {
        let before = std::fs::read_to_string(log).map_or(0, |s| s.len());
        let out = std::fs::OpenOptions::new().create(true).append(true).open(log)?;
        let child = Command::new(bin)
            .args(["watch", "--root"])
            .arg(root)
            .arg("--config")
            .arg(config)
            .stdout(out.try_clone()?)
            .stderr(out)
            .stdin(Stdio::null())
            .spawn()
            .with_context(|| bin.display().to_string())?;
        let mut d = Daemon { child, log: log.to_path_buf(), addr: String::new() };
        let t0 = Instant::now();
        // This start's own line: the log holds the earlier starts' too.
        while d.addr.is_empty() {
            let text = std::fs::read_to_string(&d.log).unwrap_or_default();
            if let Some(a) = text.get(before..).and_then(address_in) {
                d.addr = a;
            } else if t0.elapsed() > Duration::from_secs(20) {
                bail!("the desk did not start listening; log {}", d.log.display());
            } else {
                std::thread::sleep(Duration::from_millis(50));
            }
        }
        Ok(d)
    }

    fn kill9(mut self) -> Result<()> {
        self.child.kill()?; // SIGKILL
        self.child.wait()?;
        Ok(())
    }

    /// SIGTERM: the daemon finishes what it holds and stops.
    fn stop(mut self) -> Result<()> {
        // SAFETY: a plain kill(2) on our own child's pid.
        unsafe { libc::kill(self.child.id() as i32, libc::SIGTERM) };
        self.child.wait()?;
        Ok(())
    }
}

/// The address a log line `desk listening … address=http://HOST:PORT/` gives.
fn address_in(log: &str) -> Option<String> {
    let line = log.lines().find(|l| l.contains("desk listening"))?;
    let url = line.split_whitespace().find_map(|w| w.strip_prefix("address="))?.trim_matches('"');
    Some(url.trim_start_matches("http://").trim_end_matches('/').to_string())
}

/// One HTTP/1.1 request to the desk on its own connection.
fn http(addr: &str, method: &str, path: &str, cookies: &str, body: &str) -> Result<Reply> {
    let request = Request { addr, host: addr, method, path, cookies, body, extra: "" };
    request.send(Duration::from_secs(120)).with_context(|| format!("the desk at {addr}: {method} {path}"))
}

fn html_unescape(s: &str) -> String {
    s.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&#39;", "'").replace("&amp;", "&")
}

/// A file dropped as an organizer's tools do: written under a hidden name,
/// then renamed into the inbox.
fn drop_file(inbox: &Path, name: &str, bytes: &[u8]) -> Result<()> {
    let tmp = inbox.join(format!(".{name}.tmp"));
    std::fs::write(&tmp, bytes).with_context(|| tmp.display().to_string())?;
    std::fs::rename(&tmp, inbox.join(name))?;
    Ok(())
}

/// Files left to the daemon: in the inbox and claimed in its work folders.
fn unfinished(root: &Path) -> usize {
    let visible = |d: &Path| {
        std::fs::read_dir(d)
            .map_or(0, |r| r.flatten().filter(|e| !e.file_name().to_string_lossy().starts_with('.')).count())
    };
    let claimed: usize =
        std::fs::read_dir(root.join(".work")).map_or(0, |r| r.flatten().map(|d| visible(&d.path())).sum());
    visible(&root.join("inbox")) + claimed
}

/// Waits until the daemon holds no file and its folders stood still for
/// `quiet` (at most 15 minutes); whether it came to rest.
fn settle(root: &Path, quiet: Duration) -> bool {
    let count = |d: &Path| std::fs::read_dir(d).map_or(0, |r| r.count());
    let modified = |d: &Path| std::fs::metadata(d).and_then(|m| m.modified()).ok();
    let state = || {
        let dirs = ["pgn", "review", "rejected", "archive", "decisions"];
        let n: Vec<usize> = dirs.iter().map(|d| count(&root.join(d))).collect();
        let times: Vec<_> = dirs.iter().map(|d| modified(&root.join(d))).collect();
        (unfinished(root), n, times)
    };
    let t0 = Instant::now();
    let (mut last, mut since) = (state(), Instant::now());
    while t0.elapsed() < Duration::from_secs(900) {
        std::thread::sleep(Duration::from_millis(150));
        let now = state();
        if now != last {
            (last, since) = (now, Instant::now());
        } else if now.0 == 0 && since.elapsed() >= quiet {
            return true;
        }
    }
    false
}

/// A Swiss in progress: the daemon, the engine, and the true tournament.
struct Run<'s> {
    spec: &'s Spec,
    engine: Engine,
    bin: PathBuf,
    root: PathBuf,
    /// The tool's own files: each round's TRFs, the feeds.
    work: PathBuf,
    config: PathBuf,
    log: PathBuf,
    daemon: Option<Daemon>,
    /// The players, and every game paired so far (the copies' names are
    /// written from it).
    trf: BuiltTrf,
    pool: Vec<CorpusGame>,
    used: BTreeSet<usize>,
    truth: Vec<Truth>,
    /// `(round, start, 'U' or 'H')`.
    byes: Vec<(u32, u32, char)>,
    /// Copies held back for the next round's wave: file name, text.
    late: Vec<(String, String)>,
    late_total: usize,
    /// Games the desk listed to decide, those decided, and those refused (why).
    listed: BTreeSet<String>,
    decided: BTreeSet<String>,
    refused: BTreeMap<String, String>,
    /// Games accepted short of the true game: a fix the desk refused.
    short: BTreeSet<String>,
    results_given: BTreeSet<String>,
    rng: Rng,
}

/// Runs the Swiss of `spec` from start to finish; its figures.
pub fn run(spec: &Spec) -> Result<Figures> {
    let python = python()?;
    let bin = daemon_bin()?;
    let pool: Vec<CorpusGame> = try_load_range(spec.first, spec.pool)?
        .into_iter()
        .filter(|g| g.sans.len() >= 20 && !g.result_contradicts_board() && g.drawn_by_rule().is_none())
        .collect();
    let players = players_of(&pool, spec.players);
    if players.len() < spec.players {
        bail!("corpus games {}.. name {} players, not {}", spec.first, players.len(), spec.players);
    }
    let dir = tempfile::Builder::new().prefix("swiss-").tempdir()?;
    let (root, work) = (dir.path().join("root"), dir.path().join("work"));
    std::fs::create_dir_all(&work)?;
    let config = dir.path().join("config.yaml");
    std::fs::write(&config, "desk: {listen: \"127.0.0.1:0\"}\n")?;
    std::fs::write(work.join("round-0.trf"), initial_trf(&players, spec.rounds))?;
    let log = dir.path().join("daemon.log");
    let daemon = Daemon::start(&bin, &root, &config, &log)?;
    let mut r = Run {
        spec,
        engine: Engine { python },
        bin,
        root,
        work,
        config,
        log,
        daemon: Some(daemon),
        trf: BuiltTrf { name: EVENT.into(), players, games: Vec::new() },
        pool,
        used: BTreeSet::new(),
        truth: Vec::new(),
        byes: Vec::new(),
        late: Vec::new(),
        late_total: 0,
        listed: BTreeSet::new(),
        decided: BTreeSet::new(),
        refused: BTreeMap::new(),
        short: BTreeSet::new(),
        results_given: BTreeSet::new(),
        rng: Rng::new(derive_seed(spec.seed, 0x5357_4953)),
    };
    let done = r.rounds().and_then(|()| r.figures());
    if let Some(d) = r.daemon.take() {
        d.stop()?;
    }
    if spec.keep || done.is_err() {
        eprintln!("kept {} (daemon log {})", dir.keep().display(), r.log.display());
    }
    done
}

impl Run<'_> {
    fn rounds(&mut self) -> Result<()> {
        for round in 1..=self.spec.rounds {
            let t0 = Instant::now();
            self.round(round)?;
            eprintln!("round {round} done in {:.0} s", t0.elapsed().as_secs_f64());
        }
        // The last round's late copies come after its games were decided.
        let late = std::mem::take(&mut self.late);
        for (name, text) in &late {
            drop_file(&self.root.join("inbox"), name, text.as_bytes())?;
        }
        self.settle_and_decide()?;
        Ok(())
    }

    /// One round: paired by the engine, the forfeit written, the copies
    /// typed and dropped, the games decided, the results awaited.
    fn round(&mut self, round: u32) -> Result<()> {
        let from = if round == 1 {
            self.work.join("round-0.trf")
        } else {
            let given = self.results_trf()?;
            let kept = self.work.join(format!("results-{}.trf", round - 1));
            std::fs::copy(&given, &kept).with_context(|| given.display().to_string())?;
            kept
        };
        let to = self.work.join(format!("round-{round}.trf"));
        let absent: Vec<u32> =
            if round == self.spec.absent_round() { vec![self.spec.players as u32 / 2 + 1] } else { Vec::new() };
        let pairs = self.engine.pair(&from, &to, &absent)?;
        self.byes.extend(absent.iter().map(|&s| (round, s, 'H')));
        self.byes.extend(pairs.iter().filter(|(_, b)| b.is_none()).map(|&(w, _)| (round, w, 'U')));
        let text = std::fs::read_to_string(&to)?;
        let text = self.games_of(round, &text)?;
        std::fs::write(&to, &text)?;
        let copies = self.copies_of(round);
        let inbox = self.root.join("inbox");
        drop_file(&inbox, &format!("round-{round}.trf"), text.as_bytes())?;
        self.wait_idle(Duration::from_secs(60));
        let mut wave: Vec<(String, String)> = std::mem::take(&mut self.late);
        wave.extend(copies);
        for i in (1..wave.len()).rev() {
            wave.swap(i, self.rng.below(i + 1));
        }
        let half = if round == self.spec.kill_round() { wave.len() / 2 } else { wave.len() };
        for (name, text) in &wave[..half] {
            drop_file(&inbox, name, text.as_bytes())?;
        }
        if half < wave.len() {
            std::thread::sleep(Duration::from_millis(400));
            eprintln!("round {round}: kill -9 after {half} of {} copies", wave.len());
            self.daemon.take().context("a daemon")?.kill9()?;
            self.daemon = Some(Daemon::start(&self.bin, &self.root, &self.config, &self.log)?);
            for (name, text) in &wave[half..] {
                drop_file(&inbox, name, text.as_bytes())?;
            }
        }
        self.settle_and_decide()?;
        self.await_results(round)
    }

    /// The round's games: the forfeit written into the TRF's `text` (which
    /// is returned), and each other pairing given its true result and a
    /// corpus game with it.
    fn games_of(&mut self, round: u32, text: &str) -> Result<String> {
        let numbered = scoresheet::pairing::Tournament::parse(text.as_bytes()).context("the engine's TRF")?;
        let mut pairings: Vec<_> = numbered.round(round).cloned().collect();
        pairings.sort_by_key(|p| p.board);
        let mut text = text.to_string();
        if round == self.spec.forfeit_round()
            && let Some(p) = pairings.pop()
        {
            text = set_result(&set_result(&text, p.white, round, '+'), p.black, round, '-');
            let id = format!("g{:04}", self.truth.len());
            let (white, black, board) = (p.white, p.black, p.board);
            self.truth.push(Truth {
                id,
                round,
                board,
                white,
                black,
                sans: Vec::new(),
                result: "+".into(),
                forfeit: true,
            });
        }
        for p in pairings {
            let rating = |s: u32| self.trf.player(s).rating;
            let result = drawn_result(&mut self.rng, rating(p.white), rating(p.black), self.spec.draws);
            let game = self.corpus_game(result)?;
            let id = format!("g{:04}", self.truth.len());
            let sans = self.pool[game].sans.clone();
            let (white, black, board) = (p.white, p.black, p.board);
            self.trf.games.push(TrfGame { round, board, white, black, result: result.into(), game });
            self.truth.push(Truth { id, round, board, white, black, sans, result: result.into(), forfeit: false });
        }
        Ok(text)
    }

    /// An unused game of the pool with `result`, drawn at random.
    fn corpus_game(&mut self, result: &str) -> Result<usize> {
        let free: Vec<usize> =
            (0..self.pool.len()).filter(|i| !self.used.contains(i) && self.pool[*i].result == result).collect();
        if free.is_empty() {
            bail!("the pool has no unused game with {result}: give more games (--pool)");
        }
        let k = free[self.rng.below(free.len())];
        self.used.insert(k);
        Ok(k)
    }

    /// Both copies of each game of `round`, typed with the generator's
    /// slips, names written loosely, some copies stopping early; the late
    /// ones are held back for the next wave. The on-time copies: name, text.
    fn copies_of(&mut self, round: u32) -> Vec<(String, String)> {
        let mut out = Vec::new();
        let games: Vec<TrfGame> = self.trf.games.iter().filter(|g| g.round == round).cloned().collect();
        for x in &games {
            let t = self.truth.iter().find(|t| t.round == round && t.white == x.white && !t.forfeit).cloned();
            let Some(t) = t else { continue };
            let mut g = self.pool[x.game].clone();
            g.tags.retain(|(k, _)| !["White", "Black", "WhiteElo", "BlackElo", "Round", "Board"].contains(&k.as_str()));
            g.tags.push(("White".into(), self.trf.player(x.white).name.clone()));
            g.tags.push(("Black".into(), self.trf.player(x.black).name.clone()));
            let seed =
                derive_seed(self.spec.seed, 1000 + self.truth.iter().position(|y| y.id == t.id).unwrap_or(0) as u64);
            let mut rng = Rng::new(derive_seed(seed, 0x6C61_7465));
            let results = [!rng.chance(self.spec.no_result), !rng.chance(self.spec.no_result)];
            // Both copies write the whole game: a slip in moves only one copy
            // writes (the other stopped early) is one no program or arbiter
            // can see, and the checks here are that every game comes out as
            // played (`event --loose` measures early-stopping copies).
            let stops = [None, None];
            let late_copy = rng.below(2);
            let late = rng.chance(self.spec.late);
            let written = Written { event: Some(EVENT), board: x.board, results, loose_names: true, stops };
            let copies = pair_as_written(&g, &self.trf, x, seed, self.spec.rate, &written);
            // The true game is what the longer copy writes (a copy may stop
            // early, or the typist leave the last moves off): no sheet holds
            // the rest, and the arbiter's paper is the sheets.
            let longer = copies.iter().map(|c| c.sans.clone()).max_by_key(Vec::len).unwrap_or_default();
            // A copy comes late only where the other writes as much: the
            // game is then whole with the copy on time alone.
            let late = late && copies[1 - late_copy].sans.len() >= copies[late_copy].sans.len();
            if let Some(truth) = self.truth.iter_mut().find(|y| y.id == t.id) {
                truth.sans = longer;
            }
            for (c, noisy) in copies.into_iter().enumerate() {
                let ext = noisy.file_name.rsplit('.').next().unwrap_or("txt").to_string();
                let name = format!("{}-{}.{ext}", t.id, ["a", "b"][c]);
                if late && c == late_copy {
                    self.late_total += 1;
                    self.late.push((name, noisy.text));
                } else {
                    out.push((name, noisy.text));
                }
            }
        }
        out
    }
}

/// A row of the desk's queue: the game's id, its sheets (as dropped) and
/// where it is (`review`, `pgn` ...).
struct Row {
    id: String,
    sheets: Vec<String>,
    folder: String,
}

/// The rows of a queue page's table.
fn rows_of(page: &str) -> Vec<Row> {
    page.split("<tr class=\"game\" data-id=\"")
        .skip(1)
        .filter_map(|row| {
            let id = row.get(..16)?.to_string();
            let row = &row[..row.find("</tr>").unwrap_or(row.len())];
            let cells: Vec<&str> = row.split("<td>").skip(1).map(|c| c.split("</td>").next().unwrap_or("")).collect();
            let sheets = cells.get(3).map(|c| html_unescape(c).split(", ").map(str::to_string).collect())?;
            Some(Row { id, sheets, folder: cells.get(4).map(|c| html_unescape(c)).unwrap_or_default() })
        })
        .collect()
}

/// What the desk's game page shows: the form token, the version, the moves
/// as read and the result.
struct GamePage {
    csrf: String,
    version: String,
    moves: Vec<String>,
    result: String,
}

fn game_page(reply: &Reply) -> Option<GamePage> {
    let csrf = reply.cookie("csrf")?;
    let at = reply.body.find("name=\"version\" value=\"")? + 22;
    let version = reply.body[at..].split('"').next()?.to_string();
    let at = reply.body.find("data-moves=\"")? + 12;
    let moves = html_unescape(reply.body[at..].split('"').next()?).split_whitespace().map(str::to_string).collect();
    let result = ["1-0", "0-1", "1/2-1/2", "*"]
        .into_iter()
        .find(|r| reply.body.contains(&format!("</table><p>{r}</p>")))
        .unwrap_or("*")
        .to_string();
    Some(GamePage { csrf, version, moves, result })
}

/// A fix `112:Nc4` as the desk's messages name it: `56... Nc4`.
fn label_of(fix: &str) -> String {
    let (ply, san) = fix.split_once(':').unwrap_or((fix, ""));
    let ply: u32 = ply.parse().unwrap_or(0);
    if ply % 2 == 1 { format!("{}. {san}", ply.div_ceil(2)) } else { format!("{}... {san}", ply / 2) }
}

/// The plies an arbiter with the paper fixes: each where the reading
/// differs from the true game, and those the reading lacks (`46:Bd6`).
fn fixes(read: &[String], truth: &[String]) -> Vec<String> {
    let bare = |s: &str| s.trim_end_matches(['+', '#']).to_string();
    truth
        .iter()
        .enumerate()
        .filter(|(i, san)| read.get(*i).map(|r| bare(r)) != Some(bare(san)))
        .map(|(i, san)| format!("{}:{}", i + 1, bare(san)))
        .collect()
}

impl Run<'_> {
    fn addr(&self) -> String {
        self.daemon.as_ref().map(|d| d.addr.clone()).unwrap_or_default()
    }

    /// The daemon's `pgn/<event>/results.trf`.
    fn results_trf(&self) -> Result<PathBuf> {
        let pgn = self.root.join("pgn");
        let found = std::fs::read_dir(&pgn)
            .with_context(|| pgn.display().to_string())?
            .flatten()
            .map(|e| e.path().join("results.trf"))
            .find(|p| p.is_file());
        found.with_context(|| format!("daemon: no results.trf in any event folder of {}", pgn.display()))
    }

    /// Waits until the daemon holds no file (at most `most`).
    fn wait_idle(&self, most: Duration) {
        let t0 = Instant::now();
        while unfinished(&self.root) > 0 && t0.elapsed() < most {
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// The wave read, then every game the desk lists to decide decided, a
    /// pass at a time while a pass decides something (a decision may bring
    /// a game's other copy back into play).
    fn settle_and_decide(&mut self) -> Result<()> {
        for _ in 0..4 {
            if !settle(&self.root, Duration::from_secs(2)) {
                bail!("daemon: the folders did not come to rest in 15 minutes");
            }
            if self.decide_pass()? == 0 {
                return Ok(());
            }
        }
        Ok(())
    }

    /// The queue's rows of every list an arbiter works through.
    fn queue(&self) -> Result<Vec<Row>> {
        let mut rows = Vec::new();
        for list in ["review", "waiting", "notices"] {
            for page in 1.. {
                let reply = http(&self.addr(), "GET", &format!("/?status={list}&page={page}"), "", "")?;
                let got = rows_of(&reply.body);
                let more = reply.body.contains(&format!("page={}\"", page + 1));
                rows.extend(got);
                if !more {
                    break;
                }
            }
        }
        Ok(rows)
    }

    /// One pass over the queue; the decisions made.
    fn decide_pass(&mut self) -> Result<usize> {
        let mut made = 0;
        let mut seen = BTreeSet::new();
        for row in self.queue()? {
            if !seen.insert(row.id.clone()) {
                continue;
            }
            let game = row.sheets.iter().find_map(|s| self.truth.iter().find(|t| s.starts_with(&format!("{}-", t.id))));
            let Some(t) = game.cloned() else {
                eprintln!("desk: game {} of sheets {:?} is none of the event's", row.id, row.sheets);
                continue;
            };
            let review = row.folder == "review";
            if review {
                self.listed.insert(t.id.clone());
            }
            if self.decide(&row, &t, review)? {
                made += 1;
            }
        }
        Ok(made)
    }

    /// Decides game `row` (true game `t`) as an arbiter with the paper: a
    /// game in review is accepted with its wrong moves and result fixed; a
    /// published one is given its result where none or another was read.
    fn decide(&mut self, row: &Row, t: &Truth, review: bool) -> Result<bool> {
        let reply = http(&self.addr(), "GET", &format!("/game/{}", row.id), "", "")?;
        let Some(page) = game_page(&reply) else {
            self.refused.insert(t.id.clone(), format!("game page {} unreadable (status {})", row.id, reply.status));
            return Ok(false);
        };
        let result_wrong = page.result != t.result;
        if !review && !result_wrong {
            return Ok(false);
        }
        // A published game's moves are not the arbiter's to change here: a
        // game published wrong is for the checks to count.
        let mut moves = if review { fixes(&page.moves, &t.sans) } else { Vec::new() };
        let result = result_wrong.then_some(t.result.as_str());
        let mut done = self.post_decision(&row.id, &page, &moves, result)?;
        // A fix the desk cannot read the sheet past: the arbiter accepts
        // the game with the fixes before it and the result, so the event
        // goes on; the round file's check then counts the game as wrong.
        if let Err(why) = &done
            && let Some(k) = moves.iter().position(|m| why.contains(&label_of(m)))
        {
            eprintln!("desk refused {} at {}: accepted with the {k} fixes before it", t.id, moves[k]);
            self.short.insert(t.id.clone());
            moves.truncate(k);
            let again = http(&self.addr(), "GET", &format!("/game/{}", row.id), "", "")?;
            let page = game_page(&again).unwrap_or(page);
            done = self.post_decision(&row.id, &page, &moves, result)?;
        }
        if let Err(why) = done {
            eprintln!("desk refused {} ({}): {why}", t.id, row.id);
            self.refused.insert(t.id.clone(), why);
            return Ok(false);
        }
        self.refused.remove(&t.id);
        if review {
            self.decided.insert(t.id.clone());
        } else {
            self.results_given.insert(t.id.clone());
        }
        Ok(true)
    }

    /// Posts a decision on game `id` (`action=accept`, `moves`, `result`)
    /// with the page's token and version; the error page's words if refused.
    fn post_decision(
        &self,
        id: &str,
        page: &GamePage,
        moves: &[String],
        result: Option<&str>,
    ) -> Result<std::result::Result<(), String>> {
        let mut body = format!(
            "csrf={}&version={}&name=Swiss+arbiter&action=accept&moves={}",
            form_value(&page.csrf),
            form_value(&page.version),
            form_value(&moves.join(","))
        );
        if let Some(r) = result {
            body.push_str(&format!("&result={}", form_value(r)));
        }
        let cookie = format!("csrf={}", page.csrf);
        let done = http(&self.addr(), "POST", &format!("/game/{id}/decide"), &cookie, &body)?;
        if done.status == 303 {
            return Ok(Ok(()));
        }
        let why = done.body.split("id=\"error\"").nth(1).unwrap_or(&done.body);
        let why = why.split("</p>").next().unwrap_or(why).trim_start_matches('>');
        Ok(Err(format!("status {}: {}", done.status, html_unescape(why))))
    }

    /// Waits (at most 30 s) until the daemon's results.trf gives every
    /// player paired in `round` a result there; says which lack one.
    fn await_results(&self, round: u32) -> Result<()> {
        let at = 98 + 10 * (round as usize - 1);
        let t0 = Instant::now();
        loop {
            let path = self.results_trf()?;
            let text = std::fs::read_to_string(&path)?;
            let missing: Vec<String> = text
                .lines()
                .filter(|l| l.starts_with("001"))
                .filter(|l| l.chars().nth(at).is_none_or(|c| c == ' '))
                .map(|l| l.get(4..8).unwrap_or("?").trim().to_string())
                .collect();
            if missing.is_empty() {
                return Ok(());
            }
            if t0.elapsed() > Duration::from_secs(30) {
                eprintln!("daemon: results.trf gives no result in round {round} to players {}", missing.join(" "));
                return Ok(());
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    }
}

/// A game of a PGN file as the checks see it: moves, result, tags.
struct Found {
    sans: Vec<String>,
    result: String,
}

fn games_in(text: &str) -> Vec<Found> {
    crate::corpus::read_pgn(text)
        .into_iter()
        .map(|g| Found {
            sans: crate::corpus::replay(&g.sans).unwrap_or_default(),
            result: g.tag("Result").unwrap_or("*").to_string(),
        })
        .collect()
}

/// PGN's date of the TRF's `042` (`2026/03/14` → `2026.03.14`).
fn pgn_date(trf: &str) -> String {
    trf.replace(['/', '-'], ".")
}

impl Run<'_> {
    /// The checks at the end.
    fn figures(&mut self) -> Result<Figures> {
        let played: Vec<&Truth> = self.truth.iter().filter(|t| !t.forfeit).collect();
        let mut f = Figures {
            players: self.trf.players.len(),
            rounds: self.spec.rounds,
            games: played.len(),
            forfeits: self.truth.len() - played.len(),
            byes: self.byes.len(),
            late_copies: self.late_total,
            review: self.listed.len(),
            decided: self.decided.intersection(&self.listed).count(),
            results_given: self.results_given.len(),
            refused: self.refused.len(),
            decided_short: self.short.len(),
            ..Figures::default()
        };
        for (id, why) in &self.refused {
            eprintln!("refused {id}: {why}");
        }
        // The true games beside the run's folders, for looking into a miss.
        let truth: Vec<Value> = self
            .truth
            .iter()
            .map(|t| {
                serde_json::json!({"id": t.id, "round": t.round, "board": t.board, "white": t.white,
                "black": t.black, "result": t.result, "sans": t.sans})
            })
            .collect();
        std::fs::write(self.work.join("truth.json"), serde_json::to_string(&truth)?)?;
        let last = self.results_trf()?;
        let kept = self.work.join("results-final.trf");
        std::fs::copy(&last, &kept)?;
        let report = self.engine.run(&["check", &kept.to_string_lossy()])?;
        let summary = &report["summary"];
        let missing = u64::from(self.spec.rounds).saturating_sub(summary["rounds_checked"].as_u64().unwrap_or(0));
        f.discrepancies = summary["total_discrepancies"].as_u64().map(|d| d + missing);
        for r in report["rounds"].as_array().into_iter().flatten().filter(|r| r["match"] != true) {
            eprintln!("checker: round {} {}", r["round"], r["discrepancies"]);
        }
        f.points_differ = self.points_differ(&kept)?;
        let event = last.parent().context("the event folder")?.to_path_buf();
        f.round_exact = self.round_files(&event)?;
        let folder = event.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        self.feeds(&event, &folder, &mut f)?;
        Ok(f)
    }
}

impl Run<'_> {
    /// Each player's true points: games, the forfeit, the byes (`U` 1, `H` ½).
    fn true_points(&self) -> BTreeMap<u32, f64> {
        let mut points: BTreeMap<u32, f64> = self.trf.players.iter().map(|p| (p.start, 0.0)).collect();
        let mut add = |s: u32, x: f64| *points.entry(s).or_default() += x;
        for t in &self.truth {
            let (w, b) = match t.result.as_str() {
                "1-0" | "+" => (1.0, 0.0),
                "0-1" => (0.0, 1.0),
                _ => (0.5, 0.5),
            };
            add(t.white, w);
            add(t.black, b);
        }
        for &(_, s, kind) in &self.byes {
            add(s, if kind == 'U' { 1.0 } else { 0.5 });
        }
        points
    }

    /// Players whose points in `trf`, as the engine's reader reads them,
    /// are not the true ones.
    fn points_differ(&self, trf: &Path) -> Result<usize> {
        let read = self.engine.run(&["read", &trf.to_string_lossy()])?;
        let truth = self.true_points();
        let mut differ = 0;
        for (start, want) in &truth {
            let got = read["players"]
                .as_array()
                .into_iter()
                .flatten()
                .find(|p| p["start"].as_u64() == Some(u64::from(*start)))
                .and_then(|p| p["points"].as_f64());
            if got.is_none_or(|g| (g - want).abs() > 0.01) {
                eprintln!("points: player {start} has {got:?} in results.trf, truly {want}");
                differ += 1;
            }
        }
        Ok(differ)
    }

    /// Games in their round file once, with the true moves and result.
    fn round_files(&self, event: &Path) -> Result<usize> {
        let all: BTreeMap<String, Vec<String>> =
            self.truth.iter().filter(|t| !t.forfeit).map(|t| (t.id.clone(), t.sans.clone())).collect();
        let mut exact = 0;
        for round in 1..=self.spec.rounds {
            let text = std::fs::read_to_string(event.join(format!("round-{round}.pgn"))).unwrap_or_default();
            let games = games_in(&text);
            for t in self.truth.iter().filter(|t| t.round == round && !t.forfeit) {
                let found: Vec<&Found> =
                    games.iter().filter(|g| crate::event::owner(&all, &g.sans) == Some(t.id.as_str())).collect();
                let right = found.len() == 1 && found[0].sans == t.sans && found[0].result == t.result;
                if right {
                    exact += 1;
                } else {
                    let what: Vec<String> = found
                        .iter()
                        .map(|g| format!("{} plies of {}, {}", g.sans.len(), t.sans.len(), g.result))
                        .collect();
                    eprintln!("round file {round}: {} ({}) {} times: {what:?}", t.id, t.result, found.len());
                }
            }
        }
        Ok(exact)
    }

    /// Each round's feed against its round file, and every feed game's tags
    /// as python-chess reads them.
    fn feeds(&self, event: &Path, folder: &str, f: &mut Figures) -> Result<()> {
        let mut files = Vec::new();
        for round in 1..=self.spec.rounds {
            let reply = http(&self.addr(), "GET", &format!("/broadcast/{folder}/round-{round}.pgn"), "", "")?;
            if reply.status != 200 {
                eprintln!("feed: round {round} answered {}", reply.status);
                continue;
            }
            let file = self.work.join(format!("feed-{round}.pgn"));
            std::fs::write(&file, &reply.body)?;
            files.push(file.to_string_lossy().into_owned());
            let key = |g: &Found| (g.sans.clone(), g.result.clone());
            let mut feed: Vec<_> = games_in(&reply.body).iter().map(key).collect();
            let text = std::fs::read_to_string(event.join(format!("round-{round}.pgn"))).unwrap_or_default();
            let mut file: Vec<_> = games_in(&text).iter().map(key).collect();
            feed.sort();
            file.sort();
            f.feed_games += feed.len();
            if feed == file {
                f.feeds_equal += 1;
            } else {
                eprintln!("feed: round {round} holds {} games, its round file {}", feed.len(), file.len());
            }
        }
        if files.is_empty() {
            return Ok(());
        }
        let mut args = vec!["tags"];
        args.extend(files.iter().map(String::as_str));
        let read = self.engine.run(&args)?;
        for g in read.as_array().into_iter().flatten() {
            if self.tags_right(g) {
                f.feed_read += 1;
            }
        }
        Ok(())
    }

    /// Whether a feed game read by python-chess (`{tags, plies, errors}`)
    /// has every tag of its pairing right, and the true game's plies.
    fn tags_right(&self, g: &Value) -> bool {
        let tag = |k: &str| g["tags"][k].as_str().unwrap_or("").to_string();
        let round = tag("Round");
        let t = self.truth.iter().find(|t| !t.forfeit && format!("{}.{}", t.round, t.board) == round);
        let Some(t) = t else {
            eprintln!("feed: a game of Round \"{round}\" is no pairing's ({} - {})", tag("White"), tag("Black"));
            return false;
        };
        let (w, b) = (self.trf.player(t.white), self.trf.player(t.black));
        let mut want: Vec<(&str, String)> = vec![
            ("Event", EVENT.into()),
            ("Site", SITE.into()),
            ("Date", pgn_date(DATE)),
            ("White", w.name.clone()),
            ("Black", b.name.clone()),
            ("WhiteFideId", w.fide_id.to_string()),
            ("BlackFideId", b.fide_id.to_string()),
            ("WhiteElo", w.rating.to_string()),
            ("BlackElo", b.rating.to_string()),
            ("TimeControl", TIME_CONTROL.into()),
            ("Result", t.result.clone()),
        ];
        want.extend(
            [("WhiteTitle", w.title), ("BlackTitle", b.title)]
                .into_iter()
                .filter(|(_, v)| !v.is_empty())
                .map(|(k, v)| (k, v.to_string())),
        );
        let wrong: Vec<String> =
            want.iter().filter(|(k, v)| tag(k) != *v).map(|(k, v)| format!("{k} \"{}\" not \"{v}\"", tag(k))).collect();
        let errors = g["errors"].as_array().map_or(0, Vec::len);
        let plies = g["plies"].as_u64() == Some(t.sans.len() as u64);
        if !wrong.is_empty() || errors > 0 || !plies {
            eprintln!(
                "feed: {} (Round {round}): {} python-chess errors {errors}, plies right {plies}",
                t.id,
                wrong.join(", ")
            );
        }
        wrong.is_empty() && errors == 0 && plies
    }
}
