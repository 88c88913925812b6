//! The library's modules form layers: no module uses one that uses it back,
//! among the top-level modules of `src/` and among the files of every folder
//! (`scoresheet_dev::layers` says what "uses" covers). A newcomer can then
//! read each file knowing only those below it. `cargo run -p scoresheet-dev
//! --bin layers` prints the layers.

use std::path::Path;

use scoresheet_dev::layers::{Modules, cycles, folders};

#[test]
fn no_module_uses_one_that_uses_it_back() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let modules = Modules::read(&src).unwrap();
    let mut found = Vec::new();
    for folder in std::iter::once(Vec::new()).chain(folders(&src).unwrap()) {
        let f: Vec<&str> = folder.iter().map(String::as_str).collect();
        for c in cycles(&modules.level(&f)) {
            found.push(format!("src/{}: {}", folder.join("/"), c.join(" ⇄ ")));
        }
    }
    assert!(found.is_empty(), "modules that use each other:\n{}", found.join("\n"));
}

#[test]
fn the_pipeline_goes_one_way() {
    // The order of the architecture: each stage may use those before it,
    // never one after.
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let g = Modules::read(&src).unwrap().level(&[]);
    let stages = ["notation", "sheet", "ingest", "reconstruct", "emit", "convert", "config", "daemon"];
    for (i, later) in stages.iter().enumerate() {
        for earlier in &stages[..i] {
            assert!(!g[*earlier].contains(*later), "{earlier} uses {later}, which comes after it");
        }
    }
}
