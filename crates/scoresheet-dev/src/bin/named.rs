//! The time and peak memory of `convert` on one typed file of many short
//! games, each with its players named (a round typed into one file, as the
//! bound of one file in docs/daemon.md is held to): files of 1,000, 4,000
//! and 12,000 games (the last about 1 MiB, the daemon's `max_file_bytes`),
//! each converted by the binary in a process of its own.
//!
//! ```text
//! cargo build --release && cargo run --release -p scoresheet-dev --bin named -- [--bin target/release/scoresheet] [COUNT ...]
//! ```
//!
//! Prints, for each file, its games, size, time, time per 1,000 games and
//! peak RSS (`getrusage` of the child); nothing is asserted.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use scoresheet_dev::corpus::load_range;

/// A file of `count` games: players named, the first four moves of a corpus
/// game, a result. Games are the committed corpus games in turn; each
/// 2,000 a round of their own, so that no two games of a round have the
/// same two players.
fn named_file(count: usize) -> String {
    let corpus = load_range(0, 2000);
    let mut out = String::with_capacity(count * 90);
    for k in 0..count {
        let g = &corpus[k % corpus.len()];
        let tag = |t: &str| g.tags.iter().find(|(n, _)| n == t).map_or("?", |(_, v)| v.as_str()).to_string();
        let (white, black) = (tag("White"), format!("{} {}", tag("Black"), k % corpus.len()));
        let moves: Vec<String> =
            g.sans.chunks(2).take(2).enumerate().map(|(i, p)| format!("{}. {}", i + 1, p.join(" "))).collect();
        let _ = write!(
            out,
            "Round: {}\nWhite: {white}\nBlack: {black}\n{} {}\n\n",
            1 + k / 2000,
            moves.join(" "),
            g.result
        );
    }
    out
}

fn main() -> Result<()> {
    let mut args = std::env::args().skip(1);
    let (mut bin, mut counts) = (PathBuf::from("target/release/scoresheet"), Vec::new());
    while let Some(a) = args.next() {
        match a.as_str() {
            "--bin" => bin = args.next().context("--bin needs a path")?.into(),
            n => counts.push(n.parse::<usize>().with_context(|| format!("not a count of games: {n}"))?),
        }
    }
    if counts.is_empty() {
        counts = vec![1000, 4000, 12000];
    }
    if !bin.exists() {
        bail!("{} not found: cargo build --release first", bin.display());
    }
    let dir = tempfile::tempdir()?;
    println!("games\tbytes\ttime\tper 1,000\tpeak RSS");
    for count in counts {
        let path = dir.path().join(format!("named-{count}.txt"));
        let text = named_file(count);
        std::fs::write(&path, &text)?;
        let start = Instant::now();
        let child = Command::new(&bin)
            .args(["convert", "--json"])
            .arg(&path)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("running {}", bin.display()))?;
        let (status, peak_kb) = wait_with_peak(child.id())?;
        let secs = start.elapsed().as_secs_f64();
        if !matches!(status, 0 | 1 | 3) {
            bail!("convert of {count} games exited {status}");
        }
        let per = secs * 1000.0 / count as f64;
        println!("{count}\t{}\t{secs:.2} s\t{per:.3} s\t{:.0} MB", text.len(), peak_kb as f64 / 1024.0);
    }
    Ok(())
}

/// Waits for the child `pid`: its exit status and its peak RSS in KB.
fn wait_with_peak(pid: u32) -> Result<(i32, i64)> {
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value for wait4 to fill.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: pid is our own child's, not yet waited for; both pointers are to live locals.
    let got = unsafe { libc::wait4(pid as libc::pid_t, &mut status, 0, &mut usage) };
    if got < 0 {
        bail!("wait4: {}", std::io::Error::last_os_error());
    }
    Ok((libc::WEXITSTATUS(status), usage.ru_maxrss))
}
