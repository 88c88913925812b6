//! Drop-to-PGN latency of `scoresheet watch` with the built-in config: starts
//! the release binary on a temporary root, drops sheets one at a time the way
//! copy tools do (written as `*.tmp`, then renamed), and times each from the
//! rename to its PGN appearing in pgn/. Prints the median, 90th percentile and
//! worst.
//!
//! `cargo build --release && cargo run --release -p scoresheet-dev --bin latency -- [SHEETS]`
//! (default 100 sheets, from examples/sheets/scholars-mate-es.txt with a board
//! number each).

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let n: usize = std::env::args().nth(1).map(|a| a.parse()).transpose()?.unwrap_or(100);
    // target/release/latency -> target/release/scoresheet
    let exe = std::env::current_exe()?;
    let bin: PathBuf = exe.parent().ok_or("no target folder")?.join("scoresheet");
    if !bin.exists() {
        return Err(format!("{} not found: run `cargo build --release` first", bin.display()).into());
    }
    let template =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/sheets/scholars-mate-es.txt"))?;
    let root = tempfile::tempdir()?;
    let mut daemon = Command::new(&bin)
        .args(["watch", "--root"])
        .arg(root.path())
        .env("RUST_LOG", "warn")
        .stderr(Stdio::inherit())
        .spawn()?;
    let inbox = root.path().join("inbox");
    let pgn = root.path().join("pgn");
    let start = Instant::now();
    while !inbox.is_dir() {
        if start.elapsed() > Duration::from_secs(10) {
            return Err("the daemon did not start".into());
        }
        sleep(Duration::from_millis(10));
    }
    sleep(Duration::from_millis(300));
    let mut times = Vec::with_capacity(n);
    for i in 0..n {
        let text = template.replace("Mesa: 7", &format!("Mesa: {}", i + 1));
        let target = pgn.join(format!("2-{}-Martín_Lucía-Ruiz_Pablo.pgn", i + 1));
        let tmp = inbox.join(format!("sheet-{i}.txt.tmp"));
        std::fs::write(&tmp, &text)?;
        let t = Instant::now();
        std::fs::rename(&tmp, inbox.join(format!("sheet-{i}.txt")))?;
        loop {
            if target.exists() {
                break;
            }
            if t.elapsed() > Duration::from_secs(30) {
                return Err(format!("sheet {i}: no PGN after 30 s").into());
            }
            sleep(Duration::from_micros(500));
        }
        times.push(t.elapsed());
    }
    let _ = Command::new("kill").args(["-TERM", &daemon.id().to_string()]).status();
    daemon.wait()?;
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "drop-to-PGN latency over {n} sheets: median {:.1} ms, p90 {:.1} ms, worst {:.1} ms",
        ms(times[n / 2]),
        ms(times[n * 9 / 10]),
        ms(times[n - 1])
    );
    Ok(())
}
