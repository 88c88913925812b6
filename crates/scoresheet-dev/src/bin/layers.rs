//! Prints how the library's modules use each other, folder by folder, in
//! layers (each module after those it uses), and any cycle; exits 1 if
//! there is one.
//!
//! ```sh
//! cargo run -p scoresheet-dev --bin layers [-- SRC]
//! ```

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use scoresheet_dev::layers::{Modules, cycles, folders};

fn main() -> Result<ExitCode> {
    let src = std::env::args()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../src")));
    let modules = Modules::read(&src)?;
    let mut found = 0;
    for folder in std::iter::once(Vec::new()).chain(folders(&src)?) {
        let f: Vec<&str> = folder.iter().map(String::as_str).collect();
        let g = modules.level(&f);
        let name = if folder.is_empty() { "src/".to_string() } else { format!("src/{}/", folder.join("/")) };
        println!("{name}");
        for (depth, names) in layered(&g) {
            let row: Vec<String> = names
                .iter()
                .map(|n| {
                    let to: Vec<&str> = g[n].iter().map(String::as_str).collect();
                    if to.is_empty() { n.clone() } else { format!("{n} → {}", to.join(", ")) }
                })
                .collect();
            println!("  {depth}: {}", row.join("; "));
        }
        for c in cycles(&g) {
            found += 1;
            println!("  CYCLE: {}", c.join(" ⇄ "));
        }
    }
    println!("{found} cycles");
    Ok(if found == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

/// The modules by depth: 0 uses none of its siblings, each other one level
/// above the deepest it uses (a cycle's members are cut where met again).
fn layered(g: &BTreeMap<String, BTreeSet<String>>) -> BTreeMap<usize, Vec<String>> {
    fn depth(
        g: &BTreeMap<String, BTreeSet<String>>,
        v: &str,
        seen: &mut Vec<String>,
        memo: &mut BTreeMap<String, usize>,
    ) -> usize {
        if let Some(d) = memo.get(v) {
            return *d;
        }
        if seen.iter().any(|s| s == v) {
            return 0;
        }
        seen.push(v.to_string());
        let d = g[v].iter().map(|w| depth(g, w, seen, memo) + 1).max().unwrap_or(0);
        seen.pop();
        memo.insert(v.to_string(), d);
        d
    }
    let mut memo = BTreeMap::new();
    let mut out: BTreeMap<usize, Vec<String>> = BTreeMap::new();
    for v in g.keys() {
        let d = depth(g, v, &mut Vec::new(), &mut memo);
        out.entry(d).or_default().push(v.clone());
    }
    out
}
