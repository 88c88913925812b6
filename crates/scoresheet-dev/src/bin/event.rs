//! A whole event through `scoresheet watch`, as an organizer runs it, and
//! read back against the true games (`scoresheet_dev::event`).
//!
//! ```sh
//! # write an open of 200 corpus games, both copies of each, with its TRF
//! event --write DIR [--games 200] [--first 10000] [--seed 7] [--rate 0.05] [--no-result 0.15] [--loose]
//! # drop its copies into a daemon in a random order, in two waves with a
//! # kill -9 and a restart between them; the TRF first, after half the
//! # sheets, or never
//! event --run DIR --bin target/release/scoresheet [--trf first|half|none] [--order 7] [--keep]
//! ```
//!
//! The last line of a run is `EVENT games=.. once=.. published_twice=..
//! pgn_and_review=.. review_twice=.. lost=.. published=.. round_exact=..
//! published_wrong=.. review=.. review_exact=.. both_copies=..`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use scoresheet_dev::corpus::try_load_range;
use scoresheet_dev::event::{Spec, event, open_replaying, read_back, score, write};
use scoresheet_dev::generate::Rng;

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |flag: &str| args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1)).cloned();
    let number = |flag: &str, default: f64| -> Result<f64> {
        value(flag).map_or(Ok(default), |v| v.parse().with_context(|| format!("{flag} {v}")))
    };
    if let Some(dir) = value("--write") {
        let games = number("--games", 200.0)? as usize;
        let first = number("--first", 10_000.0)? as usize;
        let spec = Spec {
            seed: number("--seed", 7.0)? as u64,
            rate: number("--rate", 0.05)?,
            no_result: number("--no-result", 0.15)?,
            loose: args.iter().any(|a| a == "--loose"),
        };
        let corpus = try_load_range(first, games + games / 5 + 10)?;
        let corpus: Vec<_> = corpus.into_iter().filter(|g| g.sans.len() >= 4).take(games).collect();
        let (trf, copies) = event(&format!("Open {}", spec.seed), &open_replaying(&corpus, spec.loose), &spec);
        write(Path::new(&dir), &trf, &copies)?;
        println!("{} games, {} copies, event.trf and truth.json written to {dir}", trf.games.len(), copies.len());
        return Ok(());
    }
    let (Some(dir), Some(bin)) = (value("--run"), value("--bin")) else {
        bail!(
            "usage: event --write DIR [...] | event --run DIR --bin SCORESHEET [--trf first|half|none] [--order S] [--keep]"
        );
    };
    let trf_at = value("--trf").unwrap_or_else(|| "first".into());
    let order = number("--order", 7.0)? as u64;
    run(Path::new(&dir), Path::new(&bin), &trf_at, order, args.iter().any(|a| a == "--keep"))
}

fn run(dir: &Path, bin: &Path, trf_at: &str, order: u64, keep: bool) -> Result<()> {
    let truth: Vec<serde_json::Value> = serde_json::from_str(&std::fs::read_to_string(dir.join("truth.json"))?)?;
    let mut games: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut files = Vec::new();
    for t in &truth {
        let game = t["game"].as_str().unwrap_or_default().to_string();
        let sans: Vec<String> = serde_json::from_value(t["sans"].clone())?;
        if sans.len() > games.get(&game).map_or(0, Vec::len) {
            games.insert(game, sans);
        }
        files.push(dir.join(t["file"].as_str().unwrap_or_default()));
    }
    let mut rng = Rng::new(order);
    for i in (1..files.len()).rev() {
        files.swap(i, rng.below(i + 1));
    }
    let root = tempfile::Builder::new().prefix("event-").tempdir()?;
    let inbox = root.path().join("inbox");
    let log = root.path().join("daemon.log");
    let trf = dir.join("event.trf");
    let t0 = Instant::now();
    let mut daemon = start(bin, root.path(), &log)?;
    wait_for(|| inbox.is_dir(), Duration::from_secs(10))?;
    if trf_at == "first" {
        drop_file(&trf, &inbox)?;
        std::thread::sleep(Duration::from_secs(1));
    }
    let half = files.len() / 2;
    for f in &files[..half] {
        drop_file(f, &inbox)?;
    }
    if trf_at == "half" {
        drop_file(&trf, &inbox)?;
    }
    std::thread::sleep(Duration::from_millis(1500));
    daemon.kill()?; // SIGKILL
    daemon.wait()?;
    let mut daemon = start(bin, root.path(), &log)?;
    for f in &files[half..] {
        drop_file(f, &inbox)?;
    }
    let settled = settle(&inbox, root.path());
    // SIGTERM: the daemon finishes what it holds and stops.
    unsafe { libc::kill(daemon.id() as i32, libc::SIGTERM) };
    daemon.wait()?;
    let outputs = read_back(root.path())?;
    let s = score(&games, &outputs);
    println!(
        "{} games, {} copies, TRF {trf_at}, settled {settled}, {:.0} s; root {}",
        games.len(),
        files.len(),
        t0.elapsed().as_secs_f64(),
        root.path().display()
    );
    println!("{s}");
    for (id, what) in &s.missed {
        eprintln!("missed {id}: {what}");
    }
    if keep {
        let kept = root.keep();
        eprintln!("kept {}", kept.display());
    }
    Ok(())
}

fn start(bin: &Path, root: &Path, log: &PathBuf) -> Result<Child> {
    let out = std::fs::OpenOptions::new().create(true).append(true).open(log)?;
    Command::new(bin)
        .args(["watch", "--root"])
        .arg(root)
        .stdout(out.try_clone()?)
        .stderr(out)
        .stdin(Stdio::null())
        .spawn()
        .with_context(|| bin.display().to_string())
}

/// A file dropped as an organizer's tools do: written under a hidden name,
/// then renamed into the inbox.
fn drop_file(src: &Path, inbox: &Path) -> Result<()> {
    let name = src.file_name().context("a file name")?.to_string_lossy().into_owned();
    let tmp = inbox.join(format!(".{name}.tmp"));
    std::fs::copy(src, &tmp).with_context(|| src.display().to_string())?;
    std::fs::rename(&tmp, inbox.join(name))?;
    Ok(())
}

fn wait_for(ready: impl Fn() -> bool, most: Duration) -> Result<()> {
    let t0 = Instant::now();
    while !ready() {
        if t0.elapsed() > most {
            bail!("the daemon did not start");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    Ok(())
}

/// Waits until the inbox is empty and no output folder changed for three
/// seconds (at most 15 minutes); whether it came to rest.
fn settle(inbox: &Path, root: &Path) -> bool {
    let count = |d: &Path| std::fs::read_dir(d).map_or(0, |r| r.count());
    let visible = |d: &Path| {
        std::fs::read_dir(d)
            .map_or(0, |r| r.flatten().filter(|e| !e.file_name().to_string_lossy().starts_with('.')).count())
    };
    let state = || {
        let left = visible(inbox);
        let outputs: usize = ["pgn", "review", "rejected", "archive"].iter().map(|d| count(&root.join(d))).sum();
        // Files claimed and not yet done are in the daemons' work folders.
        let claimed: usize =
            std::fs::read_dir(root.join(".work")).map_or(0, |r| r.flatten().map(|d| visible(&d.path())).sum());
        (left + claimed, outputs)
    };
    let t0 = Instant::now();
    let (mut last, mut since) = (state(), Instant::now());
    while t0.elapsed() < Duration::from_secs(900) {
        std::thread::sleep(Duration::from_millis(200));
        let now = state();
        if now != last {
            (last, since) = (now, Instant::now());
        } else if now.0 == 0 && since.elapsed() >= Duration::from_secs(3) {
            return true;
        }
    }
    false
}
