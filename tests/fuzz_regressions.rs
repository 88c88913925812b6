//! Inputs the fuzzers found (`fuzz/`): each read by the whole pipeline under
//! its name (the extension picks the format) and as a PGN collection, without
//! a panic, every game read replaying legally. A crash or hang a fuzzer finds
//! is added here before it is mended.

use scoresheet::convert::{Options, convert, convert_collection};
use scoresheet::emit::report::GameReport;
use shakmaty::Position;
use shakmaty::san::SanPlus;

fn replays(g: &GameReport) -> bool {
    let mut pos = g.start().position;
    g.moves.iter().all(|s| {
        let Some(m) = s.parse::<SanPlus>().ok().and_then(|san| san.san.to_move(&pos).ok()) else { return false };
        pos.play_unchecked(m);
        true
    })
}

#[test]
fn every_kept_fuzz_input_reads_without_a_panic_to_legal_games() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fuzz");
    let mut read = 0;
    for entry in std::fs::read_dir(&dir).expect("tests/data/fuzz") {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name.ends_with(".md") {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let report = convert(&name, &bytes, &Options::default());
        assert!(report.games.iter().all(replays), "{name}");
        let _ = convert_collection(&bytes[..], &Options::default(), |g| assert!(replays(&g), "{name}"));
        read += 1;
    }
    assert!(read > 0, "no input in {}", dir.display());
}
