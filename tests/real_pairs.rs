//! Real independent transcriptions of one game, read together: for each game
//! in `tests/data/real-pairs`, two web pages' texts of its moves (each as the
//! page prints it, in its language and notation, under a header block that
//! pairs them), and the game as a reliable source gives it (`truth.json`).
//! The nearest thing we have to the two players' copies; see SOURCES.md.

use std::collections::BTreeMap;
use std::path::Path;

use scoresheet::convert::{Input, Options, convert_together};
use scoresheet::emit::report::Status;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/real-pairs");

/// Games whose two copies are not read as one game, and why: the consultation
/// game's Black is written "Duke Karl / Count Isouard" on one page and "Count
/// of Isouard & The Duke of Brunswick" on the other, names no loose match
/// takes for one.
const NOT_PAIRED: &[&str] = &["opera"];

/// The games read together exactly now; this must not fall. (Each copy read
/// alone, `scoresheet convert --json <game>-a.txt`, gives 16 of 30 exact; not
/// measured here, to keep the test fast.)
const EXACT_TOGETHER: usize = 12;

fn input(name: &str) -> Input {
    let bytes = std::fs::read(Path::new(DIR).join(name)).expect("a copy of the data set");
    (name.to_string(), Ok(bytes))
}

/// A move as compared: without check and mate signs.
fn bare(m: &str) -> &str {
    m.trim_end_matches(['+', '#'])
}

fn same_moves(read: &[String], truth: &[String]) -> bool {
    read.len() == truth.len() && read.iter().zip(truth).all(|(a, b)| bare(a) == bare(b))
}

#[test]
fn real_pairs_are_read_as_one_game_and_never_validated_wrong() {
    let truth: BTreeMap<String, Vec<String>> =
        serde_json::from_slice(&std::fs::read(Path::new(DIR).join("truth.json")).expect("truth.json"))
            .expect("truth.json is a map of games to moves");
    assert!(truth.len() >= 15, "the data set has {} games", truth.len());
    let opts = Options::default();
    let (mut paired, mut exact, mut validated) = (0, 0, 0);
    let mut wrong = Vec::new();
    let mut unpaired = Vec::new();
    for (game, moves) in &truth {
        let copies = [input(&format!("{game}-a.txt")), input(&format!("{game}-b.txt"))];
        let (reports, notes) = convert_together(&copies, &opts);
        assert!(notes.is_empty(), "{game}: {notes:?}");
        let g = &reports[0].games[0];
        if g.sheets.is_some() {
            paired += 1;
            assert_eq!(reports[1].games[0].moves, g.moves, "{game}: both copies' reports give the one game");
        } else {
            unpaired.push(game.as_str());
        }
        let right = same_moves(&g.moves, moves);
        exact += usize::from(right);
        if g.status == Status::Validated {
            validated += 1;
            if !right {
                wrong.push(format!("{game}: validated {:?}", g.moves));
            }
        }
    }
    println!(
        "real pairs: {} games, {paired} read as one game, {exact} exact together, {validated} validated, \
         {} validated wrong",
        truth.len(),
        wrong.len()
    );
    assert!(wrong.is_empty(), "validated with moves other than the game's: {wrong:#?}");
    assert_eq!(unpaired, NOT_PAIRED, "the games whose copies are not read as one game");
    assert!(exact >= EXACT_TOGETHER, "{exact} games read together exactly, fewer than {EXACT_TOGETHER}");
}
