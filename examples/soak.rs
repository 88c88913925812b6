//! The soak run of the drop-folder daemon: generated sheets pushed through
//! `scoresheet watch` as a busy event would, counted at the end.
//!
//! 1. One daemon, `--sheets` sheets (50,000 by default) dropped with at most
//!    `--backlog` waiting in the inbox, the daemon killed with SIGKILL halfway
//!    and started again. Printed: the throughput, the daemon's peak RSS at
//!    10,000 sheets and at the end, and how many sheets were lost (not
//!    archived, or no game published) or published twice.
//! 2. Four daemons sharing one inbox, `--shared` sheets (10,000): each sheet
//!    processed once.
//!
//! Each sheet is a corpus game typed as a hand-typed PGN in one of several
//! languages, with slips at a rate of 3%, a round of 200 boards per round
//! number, players of its own (its outputs are named after them).
//!
//! ```text
//! cargo build --release && cargo run --release --example soak
//! cargo run --release --example soak -- --sheets 2000 --shared 1000
//! ```

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use scoresheet::notation::LANGUAGES;
use scoresheet_dev::corpus::load;
use scoresheet_dev::generate::{Tags, derive_seed, noisy_sheet_tagged};

const BOARDS: usize = 200;
const LANGS: [&str; 5] = ["en", "es", "de", "fr", "it"];

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let arg = |name: &str, default: usize| -> usize {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let (sheets, shared, backlog) = (arg("--sheets", 50_000), arg("--shared", 10_000), arg("--backlog", 400));
    let bin = std::env::current_exe()?
        .parent()
        .and_then(Path::parent)
        .map(|d| d.join("scoresheet"))
        .ok_or_else(|| anyhow::anyhow!("no target folder"))?;
    anyhow::ensure!(bin.exists(), "{} is missing: cargo build --release first", bin.display());
    let games: Vec<Vec<String>> = load(Some(2000)).into_iter().map(|g| g.sans).collect();

    let root = tempfile::tempdir()?;
    println!("one daemon, {sheets} sheets, killed with SIGKILL at {} and started again", sheets / 2);
    let mut run = Soak::new(root.path(), &bin, &games)?;
    run.start(1)?;
    let started = Instant::now();
    let mut rss_10k = None;
    let mut killed = false;
    for i in 0..sheets {
        run.drop_sheet(i)?;
        // The archive is counted every hundred sheets: a listing of it costs.
        if i % 100 < 99 {
            continue;
        }
        let archived = run.wait_below(i + 1, backlog)?;
        if !killed && archived >= sheets / 2 {
            run.kill_and_restart()?;
            killed = true;
        }
        if rss_10k.is_none() && archived >= 10_000.min(sheets) {
            rss_10k = Some(run.peak_rss());
        }
    }
    run.wait_all(sheets)?;
    let secs = started.elapsed().as_secs_f64();
    let rss_end = run.peak_rss();
    let (lost, twice) = run.count(sheets)?;
    run.stop();
    println!(
        "  {sheets} sheets in {secs:.0} s: {:.0} sheets/s; peak RSS {} KB at 10,000 sheets, {} KB at {sheets}; \
         {lost} lost, {twice} published twice",
        sheets as f64 / secs,
        rss_10k.flatten().unwrap_or(0),
        rss_end.unwrap_or(0)
    );

    let root = tempfile::tempdir()?;
    println!("four daemons on one inbox, {shared} sheets");
    let mut run = Soak::new(root.path(), &bin, &games)?;
    run.start(4)?;
    let started = Instant::now();
    for i in 0..shared {
        run.drop_sheet(i)?;
        if i % 100 == 99 {
            run.wait_below(i + 1, backlog)?;
        }
    }
    run.wait_all(shared)?;
    let secs = started.elapsed().as_secs_f64();
    let (lost, twice) = run.count(shared)?;
    run.stop();
    println!(
        "  {shared} sheets in {secs:.0} s: {:.0} sheets/s; {lost} lost, {twice} published twice",
        shared as f64 / secs
    );
    anyhow::ensure!(lost == 0 && twice == 0, "sheets lost or published twice");
    Ok(())
}

/// A daemon root being soaked, and its daemons.
struct Soak<'g> {
    root: PathBuf,
    bin: PathBuf,
    games: &'g [Vec<String>],
    daemons: Vec<Child>,
}

impl<'g> Soak<'g> {
    fn new(root: &Path, bin: &Path, games: &'g [Vec<String>]) -> anyhow::Result<Self> {
        // No desk (four daemons would want one port), no fsync (the disk's
        // speed is not the daemon's), a short settle (files are renamed in).
        std::fs::write(
            root.join("soak.yaml"),
            "desk:\n  enabled: false\nwatch:\n  fsync: false\n  settle_ms: 100\n  scan_interval_secs: 2\n",
        )?;
        std::fs::create_dir_all(root.join("inbox"))?;
        Ok(Soak { root: root.to_path_buf(), bin: bin.to_path_buf(), games, daemons: Vec::new() })
    }

    fn start(&mut self, n: usize) -> anyhow::Result<()> {
        for _ in 0..n {
            let child = Command::new(&self.bin)
                .args(["--config", "soak.yaml", "watch", "--root", "."])
                .current_dir(&self.root)
                .env("RUST_LOG", "error")
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()?;
            self.daemons.push(child);
        }
        Ok(())
    }

    /// Sheet `i`, renamed into the inbox at once.
    fn drop_sheet(&self, i: usize) -> anyhow::Result<()> {
        let sans = &self.games[i % self.games.len()];
        let lang = LANGUAGES.iter().find(|l| l.code == LANGS[i % LANGS.len()]).expect("a language");
        let (white, black) = (format!("W{i}"), format!("B{i}"));
        let tags = Tags { event: Some("Soak Open"), white: Some(&white), black: Some(&black), result: None };
        let sheet =
            noisy_sheet_tagged(sans, &tags, derive_seed(0x50A4, i as u64), 0.03, lang, scoresheet::ingest::Format::Pgn);
        let text = format!("[Round \"{}\"]\n[Board \"{}\"]\n{}", i / BOARDS + 1, i % BOARDS + 1, sheet.text);
        let name = format!("sheet-{i:06}.pgn");
        let hidden = self.root.join("inbox").join(format!(".{name}"));
        std::fs::write(&hidden, text)?;
        std::fs::rename(&hidden, self.root.join("inbox").join(name))?;
        Ok(())
    }

    /// Files in archive/.
    fn archived(&self) -> anyhow::Result<usize> {
        Ok(std::fs::read_dir(self.root.join("archive")).map(|d| d.count()).unwrap_or(0))
    }

    /// Waits while more than `backlog` of the `dropped` sheets are not
    /// archived; how many are.
    fn wait_below(&mut self, dropped: usize, backlog: usize) -> anyhow::Result<usize> {
        loop {
            let archived = self.archived()?;
            if dropped.saturating_sub(archived) <= backlog {
                return Ok(archived);
            }
            self.check_alive()?;
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits until all `n` sheets are archived and the inbox and claims are empty.
    fn wait_all(&mut self, n: usize) -> anyhow::Result<()> {
        let deadline = Instant::now() + Duration::from_secs(600);
        while self.archived()? < n || !empty(&self.root.join("inbox")) {
            self.check_alive()?;
            anyhow::ensure!(Instant::now() < deadline, "{} of {n} archived after ten minutes", self.archived()?);
            std::thread::sleep(Duration::from_millis(50));
        }
        Ok(())
    }

    fn check_alive(&mut self) -> anyhow::Result<()> {
        for d in &mut self.daemons {
            if let Some(status) = d.try_wait()? {
                anyhow::bail!("a daemon stopped: {status}");
            }
        }
        Ok(())
    }

    fn kill_and_restart(&mut self) -> anyhow::Result<()> {
        let n = self.daemons.len();
        for mut d in self.daemons.drain(..) {
            d.kill()?;
            d.wait()?;
        }
        self.start(n)
    }

    /// The peak RSS of the first daemon so far, in KB (Linux).
    fn peak_rss(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.daemons.first()?.id())).ok()?;
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().trim_end_matches(" kB").parse().ok())
    }

    /// Of sheets `0..n`: how many were lost (not in archive/, or no game
    /// of theirs in pgn/, review/ or rejected/) and how many were published
    /// more than once.
    fn count(&self, n: usize) -> anyhow::Result<(usize, usize)> {
        let mut published: HashMap<usize, usize> = HashMap::new();
        for folder in ["pgn", "review"] {
            for e in std::fs::read_dir(self.root.join(folder))? {
                let name = e?.file_name().to_string_lossy().into_owned();
                if let Some(i) = name.strip_suffix(".pgn").and_then(sheet_of) {
                    *published.entry(i).or_default() += 1;
                }
            }
        }
        let rejected: Vec<String> = std::fs::read_dir(self.root.join("rejected"))
            .map(|d| d.filter_map(|e| e.ok()).map(|e| e.file_name().to_string_lossy().into_owned()).collect())
            .unwrap_or_default();
        let archived: std::collections::HashSet<String> = std::fs::read_dir(self.root.join("archive"))?
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        let mut lost = 0;
        for i in 0..n {
            let in_rejected = rejected.iter().any(|r| r.starts_with(&format!("sheet-{i:06}")));
            if !archived.contains(&format!("sheet-{i:06}.pgn")) || (!published.contains_key(&i) && !in_rejected) {
                lost += 1;
            }
        }
        let twice = published.values().filter(|&&c| c > 1).count() + archived.len().saturating_sub(n);
        Ok((lost, twice))
    }

    fn stop(&mut self) {
        for d in &mut self.daemons {
            // SIGTERM: the daemon finishes what it holds and exits.
            let _ = Command::new("kill").arg(d.id().to_string()).status();
            let _ = d.wait();
        }
    }
}

/// The sheet a published game's file names: `<round>-<board>-W<i>-B<i>`
/// (`-2` after it were a second copy of it).
fn sheet_of(stem: &str) -> Option<usize> {
    let w = stem.split('-').find_map(|p| p.strip_prefix('W'))?;
    w.parse().ok()
}

/// Whether a folder holds no file but dotfiles.
fn empty(dir: &Path) -> bool {
    std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok()).all(|e| e.file_name().to_string_lossy().starts_with('.')))
        .unwrap_or(true)
}
