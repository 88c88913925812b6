//! How far the moves of two games agree, the figures behind telling copies
//! by their moves ([`scoresheet::dev::SAME_GAME_PLIES`]):
//! - **different games of one event**: every two games of each event of the
//!   development corpus (games with the same `Event` tag), the plies at
//!   which both play the same move; printed as the largest and how many
//!   pairs reach 20, 30 and 40 plies;
//! - **two copies of one game** (with `--copies DIR`, a folder written by
//!   `event --write`): each copy read alone by the library, and the plies
//!   at which its reading agrees with its other copy's; printed as how many
//!   pairs agree at 40 plies and more where both readings reach ply 40,
//!   and how many [`moves_agree`].
//!
//! `cargo run --release -p scoresheet-dev --bin agreement -- [--copies DIR]`
//! (needs `SCORESHEET_CORPUS`).

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context, Result};
use scoresheet::dev::moves_agree;
use scoresheet_dev::corpus;

/// Plies at which two games play the same move.
fn same_plies(a: &[String], b: &[String]) -> usize {
    a.iter().zip(b).filter(|(x, y)| x == y).count()
}

fn events() -> Result<()> {
    let games = corpus::try_load_range(0, corpus::CORPUS_GAMES)?;
    let tag = |g: &'_ corpus::CorpusGame, k: &str| g.tags.iter().find(|(t, _)| t == k).map(|(_, v)| v.clone());
    let mut by_event: BTreeMap<String, Vec<&corpus::CorpusGame>> = BTreeMap::new();
    for g in &games {
        by_event.entry(tag(g, "Event").unwrap_or_default()).or_default().push(g);
    }
    let (mut pairs, mut twins, mut most, mut reach) = (0usize, 0usize, (0usize, ""), [0usize; 3]);
    // The same among games that share a player.
    let (mut shared, mut most_shared) = (0usize, 0usize);
    // Games of one event with the very same moves, between other players.
    let (mut identical, mut longest_identical) = (0usize, 0usize);
    for (event, games) in &by_event {
        for (i, ga) in games.iter().enumerate() {
            for gb in &games[i + 1..] {
                let (a, b) = (&ga.sans, &gb.sans);
                let names = |g| [tag(g, "White"), tag(g, "Black")];
                // The same game entered twice in the corpus (the same players
                // and round) is no two games; identical moves between other
                // players are: a prepared line, a quick draw repeated.
                let entry = |g| (names(g), tag(g, "Round"));
                if a == b && entry(ga) == entry(gb) {
                    twins += 1;
                    continue;
                }
                if a == b {
                    identical += 1;
                    longest_identical = longest_identical.max(a.len());
                }
                pairs += 1;
                let n = same_plies(a, b);
                if n > most.0 {
                    most = (n, event.as_str());
                }
                let (na, nb) = (names(ga), names(gb));
                if na.iter().flatten().any(|x| nb.iter().flatten().any(|y| x == y)) {
                    shared += 1;
                    most_shared = most_shared.max(n);
                }
                for (k, at) in [20, 30, 40].iter().enumerate() {
                    reach[k] += usize::from(n >= *at);
                }
            }
        }
    }
    println!(
        "different games of one event: {} events, {pairs} pairs ({twins} twins left out); most plies alike {} ({}); \
         pairs alike at >=20: {}, >=30: {}, >=40: {}; of {shared} pairs with a player in common, most plies alike \
         {most_shared}; {identical} pairs identical between other players, the longest {longest_identical} plies",
        by_event.len(),
        most.0,
        most.1,
        reach[0],
        reach[1],
        reach[2]
    );
    Ok(())
}

fn copies(dir: &Path) -> Result<()> {
    let truth: Vec<serde_json::Value> =
        serde_json::from_slice(&std::fs::read(dir.join("truth.json")).context("truth.json")?)?;
    let opts = scoresheet::Options::default();
    let mut by_game: BTreeMap<String, Vec<Vec<String>>> = BTreeMap::new();
    for t in &truth {
        let (Some(file), Some(game)) = (t["file"].as_str(), t["game"].as_str()) else { continue };
        let bytes = std::fs::read(dir.join(file)).with_context(|| file.to_string())?;
        let report = scoresheet::convert(file, &bytes, &opts);
        if let Some(g) = report.games.first() {
            by_game.entry(game.to_string()).or_default().push(g.moves.clone());
        }
    }
    let (mut pairs, mut long, mut long_agree, mut agree, mut least) = (0, 0, 0, 0, usize::MAX);
    for readings in by_game.values().filter(|r| r.len() == 2) {
        let (a, b) = (&readings[0], &readings[1]);
        pairs += 1;
        let n = same_plies(a, b);
        if a.len().min(b.len()) >= 40 {
            long += 1;
            long_agree += usize::from(n >= 40);
            least = least.min(n);
        }
        agree += usize::from(moves_agree(a, b));
    }
    println!(
        "two copies of one game: {pairs} pairs; both reach ply 40: {long}, of which alike at >=40 plies: {long_agree} \
         (fewest alike {least}); moves_agree: {agree}"
    );
    Ok(())
}

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    events()?;
    if let Some(k) = args.iter().position(|a| a == "--copies") {
        let dir = args.get(k + 1).context("usage: agreement [--copies DIR]")?;
        copies(Path::new(dir))?;
    }
    Ok(())
}
