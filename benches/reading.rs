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
//!
//! The `collection` group reads the same 2,000 corpus games as one clean PGN
//! in English: `pgn_reader_floor` is what no converter can do with less
//! (pgn-reader reads it, shakmaty replays each move and writes its SAN with
//! the check mark, the tags and numbers written back), and
//! `convert_collection_json` is `convert --json`'s work on it (every game
//! read, judged and its report serialised). Their ratio is the one the
//! README gives (the `ratio` program measures it on whole processes).
//!
//! `cargo bench --bench reading -- --warm-up-time 1 --measurement-time 5 collection`

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

/// The floor's visitor: tags kept, each move replayed and its SAN written.
struct Floor {
    out: String,
}

impl pgn_reader::Visitor for Floor {
    type Tags = Chess;
    type Movetext = (Chess, usize);
    type Output = ();

    fn begin_tags(&mut self) -> std::ops::ControlFlow<(), Chess> {
        std::ops::ControlFlow::Continue(Chess::default())
    }

    fn tag(&mut self, _: &mut Chess, name: &[u8], value: pgn_reader::RawTag<'_>) -> std::ops::ControlFlow<()> {
        let _ = writeln!(self.out, "[{} \"{}\"]", String::from_utf8_lossy(name), value.decode_utf8_lossy());
        std::ops::ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, pos: Chess) -> std::ops::ControlFlow<(), (Chess, usize)> {
        self.out.push('\n');
        std::ops::ControlFlow::Continue((pos, 0))
    }

    fn begin_variation(&mut self, _: &mut (Chess, usize)) -> std::ops::ControlFlow<(), pgn_reader::Skip> {
        std::ops::ControlFlow::Continue(pgn_reader::Skip(true))
    }

    fn san(&mut self, (pos, ply): &mut (Chess, usize), san: pgn_reader::SanPlus) -> std::ops::ControlFlow<()> {
        let m = san.san.to_move(pos).expect("a legal corpus move");
        if *ply % 2 == 0 {
            let _ = write!(self.out, "{}. ", *ply / 2 + 1);
        }
        let _ = write!(self.out, "{} ", SanPlus::from_move_and_play_unchecked(pos, m));
        *ply += 1;
        std::ops::ControlFlow::Continue(())
    }

    fn end_game(&mut self, _: (Chess, usize)) {
        self.out.push_str("\n\n");
    }
}

fn collection(c: &mut Criterion) {
    let games = load(Some(GAMES));
    let pgn: String = games.iter().map(|g| format!("{}\n\n", g.pgn.trim_end())).collect();
    let opts = Options::default();
    let mut read = 0;
    scoresheet::convert::convert_collection(pgn.as_bytes(), &opts, |g| {
        assert_eq!(g.moves, games[read].sans, "game {read} reads back");
        read += 1;
    })
    .expect("the collection reads");
    assert_eq!(read, GAMES);

    let mut group = c.benchmark_group("collection");
    group.sample_size(10);
    group.throughput(Throughput::Elements(GAMES as u64));
    group.bench_function("pgn_reader_floor", |b| {
        b.iter(|| {
            let mut floor = Floor { out: String::with_capacity(1 << 20) };
            let mut reader = pgn_reader::Reader::new(std::io::Cursor::new(pgn.as_bytes()));
            while reader.read_game(&mut floor).expect("in memory").is_some() {}
            black_box(floor.out.len())
        })
    });
    group.bench_function("convert_collection_json", |b| {
        b.iter(|| {
            let mut out = Vec::with_capacity(1 << 22);
            scoresheet::convert::convert_collection(pgn.as_bytes(), &opts, |g| {
                serde_json::to_writer(&mut out, &g).expect("in memory");
            })
            .expect("the collection reads");
            black_box(out.len())
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

criterion_group!(benches, reading, noisy, collection);
criterion_main!(benches);
