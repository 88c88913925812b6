//! Inputs the fuzzers found (`fuzz/`): each read by the whole pipeline under
//! its name (the extension picks the format) and as a PGN collection, without
//! a panic, every game read replaying legally. A crash or hang a fuzzer finds
//! is added here before it is mended.

use scoresheet::convert::{Options, convert, convert_collection};
use scoresheet_dev::check::replays;

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
