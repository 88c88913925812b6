//! `convert --json` against the floor (the `floor` program: pgn-reader,
//! shakmaty, SAN written back) on one PGN file, side by side in one run: the
//! two are run in turn, `runs` times each, and the median CPU time (user +
//! system) of each, their ratio and the peak RSS of `convert` are printed.
//!
//! `cargo build --release --workspace && target/release/ratio games.pgn 5`

use std::path::PathBuf;
use std::process::{Command, Stdio};

/// CPU seconds and peak RSS (KB) of the children waited for so far.
fn children() -> (f64, i64) {
    // SAFETY: getrusage fills the struct it is given; an all-zero rusage is valid.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut u) };
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    (secs(u.ru_utime) + secs(u.ru_stime), u.ru_maxrss)
}

/// The CPU time of one run of `cmd`, its output thrown away.
fn cpu(cmd: &mut Command) -> anyhow::Result<f64> {
    let (before, _) = children();
    let status = cmd.stdout(Stdio::null()).stderr(Stdio::null()).status()?;
    // 3: games for review; the run is complete.
    anyhow::ensure!(status.success() || status.code() == Some(3), "{cmd:?}: {status}");
    Ok(children().0 - before)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let file = args.next().ok_or_else(|| anyhow::anyhow!("usage: ratio FILE.pgn [RUNS]"))?;
    let runs: usize = args.next().map(|r| r.parse()).transpose()?.unwrap_or(5);
    let bin = std::env::current_exe()?.parent().map(PathBuf::from).unwrap_or_default();
    let (mut floor, mut convert) = (Vec::new(), Vec::new());
    for _ in 0..runs {
        floor.push(cpu(Command::new(bin.join("floor")).arg(&file))?);
        convert.push(cpu(Command::new(bin.join("scoresheet")).args(["convert", "--json"]).arg(&file))?);
    }
    let (f, c) = (median(floor), median(convert));
    // The peak RSS of any child, the floor's being far below: `convert`'s.
    let rss = children().1;
    println!("floor {f:.2} s, convert --json {c:.2} s: {:.2}x the floor; peak RSS {} KB", c / f, rss);
    Ok(())
}
