//! The opening book's builder: counts the moves of corpus games into the
//! records `scoresheet::dev::Book` reads (`data/book.bin` is
//! made by the `book` binary of this crate).

use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::path::Path;

use scoresheet::dev::{MAGIC, RECORD, move_code, position_key};
use shakmaty::{Chess, Move, Position};

use crate::corpus::load;

/// How a book is made from games (see [`tally`]).
#[derive(Debug, Clone, Copy)]
pub struct Recipe {
    /// Moves counted from each game: the opening.
    pub plies: usize,
    /// A position is kept when this many games reached it.
    pub min_games: u32,
    /// A move is kept when this many games played it there.
    pub min_played: u16,
}

/// The recipe of the built-in book.
pub const BUILTIN_RECIPE: Recipe = Recipe { plies: 30, min_games: 4, min_played: 2 };

/// The records of a book counted over `games` (each the moves of one game from
/// the start), as [`write()`] takes them.
pub fn tally<G: AsRef<[Move]>>(games: impl IntoIterator<Item = G>, recipe: Recipe) -> Vec<(u64, u16, u16)> {
    let mut counts: HashMap<(u64, u16), u16> = HashMap::new();
    for game in games {
        let mut pos = Chess::default();
        for m in game.as_ref().iter().take(recipe.plies) {
            let n = counts.entry((position_key(&pos), move_code(m))).or_default();
            *n = n.saturating_add(1);
            pos.play_unchecked(*m);
        }
    }
    let mut reached: HashMap<u64, u32> = HashMap::new();
    for (&(key, _), &n) in &counts {
        *reached.entry(key).or_default() += u32::from(n);
    }
    counts
        .into_iter()
        .filter(|&((key, _), n)| n >= recipe.min_played && reached[&key] >= recipe.min_games)
        .map(|((key, code), n)| (key, code, n))
        .collect()
}

/// The bytes of a book file holding `counts`: (position key, move code, times played).
pub fn write(mut counts: Vec<(u64, u16, u16)>) -> Vec<u8> {
    counts.sort_unstable();
    counts.dedup_by_key(|(k, m, _)| (*k, *m));
    let mut out = Vec::with_capacity(MAGIC.len() + counts.len() * RECORD);
    out.extend_from_slice(MAGIC);
    for (key, code, n) in counts {
        out.extend_from_slice(&key.to_le_bytes());
        out.extend_from_slice(&code.to_le_bytes());
        out.extend_from_slice(&n.to_le_bytes());
    }
    out
}

/// Corpus games read elsewhere, left out of the opening book: benchmarks and
/// daemon tests (0..2000), the generated sheets of `evaluate --first 2000`
/// (2000..3200), the repair tests (5000..5300), `evaluate`'s default
/// generated sheets (10000..11000).
pub const LEFT_OUT_OF_BOOK: [Range<usize>; 3] = [0..3200, 5000..5400, 10_000..11_000];

/// The games the opening book is counted from, as moves: the corpus less
/// [`LEFT_OUT_OF_BOOK`] and the games of the sheets in `truth` (a truth.json,
/// matched by their first 40 moves).
pub fn book_games(truth: &Path) -> Vec<Vec<Move>> {
    let text = std::fs::read_to_string(truth).unwrap_or_else(|e| panic!("{}: {e}", truth.display()));
    let sheets: Vec<serde_json::Value> =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", truth.display()));
    let opening = |sans: &mut dyn Iterator<Item = String>| sans.take(40).collect::<Vec<_>>().join(" ");
    let seen: HashSet<String> = sheets
        .iter()
        .filter_map(|s| s["sans"].as_array())
        .map(|a| opening(&mut a.iter().filter_map(|v| v.as_str().map(String::from))))
        .collect();
    load(None)
        .into_iter()
        .filter(|g| {
            !LEFT_OUT_OF_BOOK.iter().any(|r| r.contains(&g.index))
                && !seen.contains(&opening(&mut g.sans.iter().cloned()))
        })
        .map(|g| {
            let mut pos = Chess::default();
            let mut moves = Vec::with_capacity(g.sans.len());
            for san in &g.sans {
                let Ok(m) =
                    san.parse::<shakmaty::san::SanPlus>().map_err(drop).and_then(|s| s.san.to_move(&pos).map_err(drop))
                else {
                    break;
                };
                pos.play_unchecked(m);
                moves.push(m);
            }
            moves
        })
        .collect()
}
