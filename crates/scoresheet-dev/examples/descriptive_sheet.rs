//! Prints a corpus game written in descriptive notation:
//! `cargo run --release -p scoresheet-dev --example descriptive_sheet -- PRESET INDEX [LAYOUT]`,
//! `LAYOUT` the sheet's number in the round-trip test's sample (its layout).

use scoresheet_dev::corpus::load_range;
use scoresheet_dev::descriptive::{Layout, Writer};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [preset, index, rest @ ..] = args.as_slice() else {
        eprintln!("usage: descriptive_sheet PRESET INDEX [LAYOUT]");
        std::process::exit(2);
    };
    let writer = Writer::preset(preset).expect("a preset name");
    let g = load_range(index.parse().expect("a game index"), 1).remove(0);
    let i: usize = rest.first().map_or(0, |s| s.parse().expect("a number"));
    let layout = Layout { language_header: i.is_multiple_of(2), one_per_line: i.is_multiple_of(3) };
    let tag = |k: &str| g.tags.iter().find(|(t, _)| t == k).map_or("?", |(_, v)| v.as_str());
    let headers = if i % 4 != 3 { vec![("White", tag("White")), ("Black", tag("Black"))] } else { vec![] };
    print!("{}", writer.sheet(&g.sans, &headers, &g.result, layout));
}
