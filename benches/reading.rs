//! Reading speed against the floor: the first 2,000 corpus games replayed from
//! their SANs by shakmaty alone, and the same games typed as Spanish sheets read
//! by the whole pipeline (decode, ingest, notation, replay, PGN and JSON report).
//!
//! `cargo bench --bench reading -- --warm-up-time 1 --measurement-time 5`

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use scoresheet::convert::{Options, convert};
use shakmaty::{Chess, Position, san::San};

#[path = "../tests/common/mod.rs"]
mod common;

const GAMES: usize = 2_000;

/// A typed sheet: file name and bytes.
type Sheet = (String, Vec<u8>);

fn sheets(games: &[common::CorpusGame], header: bool) -> Vec<Sheet> {
    games
        .iter()
        .map(|g| {
            let t = common::typed(g, common::Form::Spanish { header });
            (t.name, t.text.into_bytes())
        })
        .collect()
}

fn reading(c: &mut Criterion) {
    let games = common::load(Some(GAMES));
    assert_eq!(games.len(), GAMES);
    let sans: Vec<Vec<String>> = games.iter().map(|g| g.sans.clone()).collect();
    let declared = sheets(&games, true);
    let inferred = sheets(&games, false);
    let opts = Options::default();
    // Every sheet must read completely, or the comparison means nothing.
    for (name, bytes) in declared.iter().chain(&inferred) {
        let r = convert(name, bytes, &opts);
        assert!(r.error.is_none() && r.games.len() == 1, "{name}");
    }

    let mut group = c.benchmark_group("reading");
    group.throughput(Throughput::Elements(GAMES as u64));
    group.bench_function("bare_shakmaty_replay", |b| {
        b.iter(|| {
            for game in &sans {
                let mut pos = Chess::default();
                for s in game {
                    let san = San::from_ascii(s.as_bytes()).expect("SAN");
                    let m = san.to_move(&pos).expect("legal");
                    pos.play_unchecked(m);
                }
                black_box(&pos);
            }
        })
    });
    group.bench_function("scoresheet_read", |b| {
        b.iter(|| {
            for (name, bytes) in &declared {
                black_box(convert(name, black_box(bytes), &opts));
            }
        })
    });
    group.bench_function("scoresheet_read_inferred", |b| {
        b.iter(|| {
            for (name, bytes) in &inferred {
                black_box(convert(name, black_box(bytes), &opts));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, reading);
criterion_main!(benches);
