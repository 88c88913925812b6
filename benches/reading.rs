//! Reading speed against the floor: the first 2,000 corpus games replayed from
//! their SANs by shakmaty alone, and the same games typed as Spanish sheets read
//! by the whole pipeline (decode, ingest, notation, replay, PGN and JSON report).
//!
//! The ratio that matters is `scoresheet_read / bare_shakmaty_replay`;
//! `scoresheet_read_moves_only` is the reading alone (ingest and replay, no PGN
//! or report written). The two
//! `shakmaty_replay_with_*san_out` functions are reference points: the bare
//! replay plus writing each move's SAN with its check mark, through shakmaty's
//! `SanPlus` (which generates all legal moves after every move) and cheaply.
//!
//! The `noisy` group reads 200 corpus games as sheets made by
//! `scoresheet_dev::generate`, clean (rate 0) and with faults (rate 0.05, the same
//! seeds, so the same languages, formats and layouts), both through `convert`:
//! `noisy/noisy_200 / noisy/clean_200` is what the repair search costs per game
//! (the target: at most 5×).
//!
//! `cargo bench --bench reading -- --warm-up-time 1 --measurement-time 5`
//! `cargo bench --bench reading -- --warm-up-time 1 --measurement-time 5 noisy`

use std::fmt::Write as _;
use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use scoresheet::convert::{Options, convert};
use shakmaty::{
    Chess, Position,
    san::{San, SanPlus},
};

use scoresheet_dev::corpus::{CorpusGame, load};
use scoresheet_dev::generate::derive_seed;
use scoresheet_dev::typed::{Form, typed};

const GAMES: usize = 2_000;

/// A typed sheet: file name and bytes.
type Sheet = (String, Vec<u8>);

fn sheets(games: &[CorpusGame], header: bool) -> Vec<Sheet> {
    games
        .iter()
        .map(|g| {
            let t = typed(g, Form::Spanish { header });
            (t.name, t.text.into_bytes())
        })
        .collect()
}

fn reading(c: &mut Criterion) {
    let games = load(Some(GAMES));
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
    // Reference point, not part of the ratio: the bare replay that also writes
    // each move's SAN with its check mark, as any PGN writer must.
    group.bench_function("shakmaty_replay_with_san_out", |b| {
        let mut out = String::with_capacity(1 << 12);
        b.iter(|| {
            for game in &sans {
                let mut pos = Chess::default();
                out.clear();
                for s in game {
                    let m = San::from_ascii(s.as_bytes()).expect("SAN").to_move(&pos).expect("legal");
                    let _ = write!(out, "{} ", SanPlus::from_move_and_play_unchecked(&mut pos, m));
                }
                black_box(&out);
            }
        })
    });
    // Reference point: the same with a cheap check mark (legal moves are only
    // generated when the move gives check) and no formatting machinery.
    group.bench_function("shakmaty_replay_with_cheap_san_out", |b| {
        let mut out = String::with_capacity(1 << 12);
        b.iter(|| {
            for game in &sans {
                let mut pos = Chess::default();
                out.clear();
                for s in game {
                    let m = San::from_ascii(s.as_bytes()).expect("SAN").to_move(&pos).expect("legal");
                    San::from_move(&pos, m).append_to_string(&mut out);
                    pos.play_unchecked(m);
                    if pos.is_check() {
                        out.push(if pos.is_checkmate() { '#' } else { '+' });
                    }
                    out.push(' ');
                }
                black_box(&out);
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
    // The reading alone, without writing PGN and the report: bytes to the
    // game's legal moves, like the bare replay (which starts from SAN strings).
    let settings = scoresheet::reconstruct::Settings::default();
    group.bench_function("scoresheet_read_moves_only", |b| {
        b.iter(|| {
            for (_, bytes) in &declared {
                let sheets = scoresheet::ingest::read(black_box(bytes), scoresheet::ingest::Format::Text, 1 << 20);
                for sheet in sheets.iter().flatten() {
                    black_box(scoresheet::reconstruct::reconstruct(sheet, &settings));
                }
            }
        })
    });
    // Where the reading's time goes: ingest alone (decode, headers, entries).
    group.bench_function("scoresheet_ingest_only", |b| {
        b.iter(|| {
            for (_, bytes) in &declared {
                black_box(scoresheet::ingest::read(black_box(bytes), scoresheet::ingest::Format::Text, 1 << 20)).ok();
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

const NOISY_GAMES: usize = 200;
const NOISY_RATE: f64 = 0.05;
const NOISY_SEED: u64 = 0xBE9C_0003;

/// Generated sheets of the first 200 corpus games, at `rate`.
fn generated(games: &[CorpusGame], rate: f64) -> Vec<Sheet> {
    games
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let n = scoresheet_dev::noisy::noisy(g, derive_seed(NOISY_SEED, i as u64), rate);
            (n.file_name, n.text.into_bytes())
        })
        .collect()
}

fn noisy(c: &mut Criterion) {
    let games = load(Some(NOISY_GAMES));
    assert_eq!(games.len(), NOISY_GAMES);
    let clean = generated(&games, 0.0);
    let noisy = generated(&games, NOISY_RATE);
    let opts = Options::default();
    // The clean sheets must read back exactly, or the ratio means nothing.
    for ((name, bytes), g) in clean.iter().zip(&games) {
        let r = convert(name, bytes, &opts);
        assert!(r.error.is_none() && r.games.len() == 1 && r.games[0].moves == g.sans, "{name}");
    }

    let mut group = c.benchmark_group("noisy");
    // A pass over the noisy sheets takes about a second: ten samples suffice.
    group.sample_size(10);
    group.throughput(Throughput::Elements(NOISY_GAMES as u64));
    group.bench_function("clean_200", |b| {
        b.iter(|| {
            for (name, bytes) in &clean {
                black_box(convert(name, black_box(bytes), &opts));
            }
        })
    });
    group.bench_function("noisy_200", |b| {
        b.iter(|| {
            for (name, bytes) in &noisy {
                black_box(convert(name, black_box(bytes), &opts));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, reading, noisy);
criterion_main!(benches);
