//! The whole pipeline on any bytes, under each format's name: read,
//! reconstruct, judge, write PGN, the review page and the JSON report.
//! Whatever it reads, its PGN is legal: every game's moves replay.
#![no_main]

use libfuzzer_sys::fuzz_target;
use scoresheet::convert::{Options, convert};

const NAMES: [&str; 6] = ["sheet.txt", "sheet.yaml", "sheet.csv", "sheet.tsv", "sheet.pgn", "sheet"];

fuzz_target!(|data: &[u8]| {
    let Some((&pick, bytes)) = data.split_first() else { return };
    let name = NAMES[pick as usize % NAMES.len()];
    // A small budget of work: the search's bound is what is tested, and
    // each input then takes milliseconds, not seconds.
    let mut opts = Options::default();
    opts.params.limits.work_per_game = 200_000;
    opts.params.limits.work_per_file = 1_000_000;
    let report = convert(name, bytes, &opts);
    for g in &report.games {
        let mut pos = g.start().position;
        for san in &g.moves {
            let m = san.parse::<shakmaty::san::SanPlus>().expect("a SAN").san.to_move(&pos).expect("a legal move");
            shakmaty::Position::play_unchecked(&mut pos, m);
        }
    }
    let _ = serde_json::to_string(&report);
    let _ = scoresheet::emit::review_page(name, &report.games);
});
