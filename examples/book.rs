//! Builds the opening book (`data/book.bin`, see `scoresheet::reconstruct::book`)
//! from the development corpus.
//!
//! ```sh
//! cargo run --release --example book -- --truth ../shared/corpus/sheets-dev/truth.json --out data/book.bin
//! ```
//!
//! Left out, so that no figure measured on them is flattered by a book that
//! has seen the game: the games of the sheets in `--truth` (matched by their
//! first 40 moves), and the corpus games the tests, the benchmarks and the
//! evaluation's generated sheets are made from (`LEFT_OUT`).

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use scoresheet::reconstruct::book::{Book, move_code, position_key, write};
use shakmaty::san::San;
use shakmaty::{Chess, Position};

#[path = "../tests/common/mod.rs"]
mod common;

/// Corpus games read elsewhere: benchmarks and daemon tests (0..2000), the
/// generated sheets of `evaluate --first 2000` (2000..3200), the repair tests
/// (5000..5300), `evaluate`'s default generated sheets (10000..11000).
const LEFT_OUT: [std::ops::Range<usize>; 3] = [0..3200, 5000..5400, 10_000..11_000];
/// Plies counted from each game: the opening.
const PLIES: usize = 30;
/// A position is kept when this many games reached it.
const MIN_GAMES: u32 = 4;
/// A move is kept when this many games played it.
const MIN_PLAYED: u16 = 2;

fn main() -> Result<()> {
    let mut args = std::env::args().skip(1);
    let (mut truth, mut out) = (None, None);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--truth" => truth = args.next().map(PathBuf::from),
            "--out" => out = args.next().map(PathBuf::from),
            _ => bail!("usage: book --truth TRUTH.json --out BOOK"),
        }
    }
    let (Some(truth), Some(out)) = (truth, out) else { bail!("usage: book --truth TRUTH.json --out BOOK") };
    let text = std::fs::read_to_string(&truth).with_context(|| truth.display().to_string())?;
    let sheets: Vec<serde_json::Value> = serde_json::from_str(&text).with_context(|| truth.display().to_string())?;
    let opening = |sans: &[String]| sans.iter().take(40).cloned().collect::<Vec<_>>().join(" ");
    let seen: HashSet<String> = sheets
        .iter()
        .filter_map(|s| s["sans"].as_array())
        .map(|a| opening(&a.iter().filter_map(|v| v.as_str().map(String::from)).collect::<Vec<_>>()))
        .collect();

    let mut counts: HashMap<(u64, u16), u16> = HashMap::new();
    let mut games = 0;
    for g in common::load(None) {
        if LEFT_OUT.iter().any(|r| r.contains(&g.index)) || seen.contains(&opening(&g.sans)) {
            continue;
        }
        games += 1;
        let mut pos = Chess::default();
        for san in g.sans.iter().take(PLIES) {
            let Ok(m) = san
                .trim_end_matches(['+', '#'])
                .parse::<San>()
                .map_err(drop)
                .and_then(|s| s.to_move(&pos).map_err(drop))
            else {
                break;
            };
            let n = counts.entry((position_key(&pos), move_code(&m))).or_default();
            *n = n.saturating_add(1);
            pos.play_unchecked(m);
        }
    }
    let mut reached: HashMap<u64, u32> = HashMap::new();
    for (&(key, _), &n) in &counts {
        *reached.entry(key).or_default() += u32::from(n);
    }
    let kept: Vec<(u64, u16, u16)> = counts
        .into_iter()
        .filter(|&((key, _), n)| n >= MIN_PLAYED && reached[&key] >= MIN_GAMES)
        .map(|((key, code), n)| (key, code, n))
        .collect();
    let positions = kept.iter().map(|r| r.0).collect::<HashSet<_>>().len();
    let bytes = write(kept);
    let book = Book::from_bytes(&bytes)?;
    let tmp = out.with_extension("tmp");
    std::fs::write(&tmp, &bytes).with_context(|| tmp.display().to_string())?;
    std::fs::rename(&tmp, &out).with_context(|| out.display().to_string())?;
    println!(
        "{games} games, {positions} positions, {} moves, {} bytes written to {}",
        book.len(),
        bytes.len(),
        out.display()
    );
    Ok(())
}
