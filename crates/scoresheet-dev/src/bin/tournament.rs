//! A whole Swiss against a real pairing engine (`scoresheet_dev::swiss`):
//! the FIDE Dutch engine of caissify-pairings pairs each round from the
//! TRF the daemon wrote, both copies of every game go through a running
//! `scoresheet watch`, the desk decides the games in review, and the end
//! is checked against the true tournament.
//!
//! ```sh
//! SCORESHEET_PAIRING_PYTHON=/path/to/python SCORESHEET_CORPUS=DIR \
//!   tournament [--seed 7] [--players 51] [--rounds 9] [--first 10000] [--pool 2500] \
//!              [--rate 0.04] [--no-result 0.15] [--late 0.1] [--small] [--keep]
//! ```
//!
//! It prints one `SWISS` line per figure and exits 1 when a check fails.

use anyhow::{Context, Result};
use scoresheet_dev::swiss::{Spec, run};

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |flag: &str| args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1)).cloned();
    let number = |flag: &str, default: f64| -> Result<f64> {
        value(flag).map_or(Ok(default), |v| v.parse().with_context(|| format!("{flag} {v}")))
    };
    let seed = number("--seed", 7.0)? as u64;
    let base = if args.iter().any(|a| a == "--small") { Spec::small(seed) } else { Spec::large(seed) };
    let spec = Spec {
        players: number("--players", base.players as f64)? as usize,
        rounds: number("--rounds", f64::from(base.rounds))? as u32,
        first: number("--first", base.first as f64)? as usize,
        pool: number("--pool", base.pool as f64)? as usize,
        rate: number("--rate", base.rate)?,
        no_result: number("--no-result", base.no_result)?,
        late: number("--late", base.late)?,
        keep: args.iter().any(|a| a == "--keep"),
        ..base
    };
    let t0 = std::time::Instant::now();
    let figures = run(&spec)?;
    println!("SWISS seed={} seconds={:.0}", spec.seed, t0.elapsed().as_secs_f64());
    println!("{figures}");
    if !figures.ok() {
        std::process::exit(1);
    }
    Ok(())
}
