//! Two copies of one game told by their moves, whatever their names.
//!
//! A volunteer types a name as it reads it (`Jdin` on one copy, `Yudn` on
//! the other); the moves are what both players wrote all game long. Two
//! sheets whose headers do not make them one game are its two copies when
//! each, read alone, plays the same moves at as many plies as no two
//! different games of one event do ([`SAME_GAME_PLIES`], [`SAME_GAME_SHARE`]),
//! nothing they write says otherwise (`CopyKey::may_be_one_game`), and
//! each is the only such sheet of the other: three sheets alike are left
//! alone, never paired by a guess.
//!
//! Sheets are found through an index of short runs of their moves past the
//! opening (`MoveIndex`), never each compared with every other. `convert`
//! (`pair_by_moves`) and `watch` (its records' index) use this one rule.

use rustc_hash::FxHashMap;

use super::copies::CopyKey;
use crate::cost::{MOST_COPY_CANDIDATES, MOVE_WINDOW, MOVE_WINDOWS_FROM, SAME_GAME_PLIES, SAME_GAME_SHARE};

/// Whether two readings (each copy's moves read alone, in SAN, from the same
/// start) play the same moves at enough plies to be one game's: at least
/// [`SAME_GAME_PLIES`], and `SAME_GAME_SHARE` of the shorter reading.
///
/// ```
/// # use scoresheet::dev::moves_agree;
/// let game: Vec<String> = (0..60).map(|i| format!("m{i}")).collect();
/// let mut copy = game[..50].to_vec();
/// copy[45] = "slip".into();
/// assert!(moves_agree(&game, &copy));
/// assert!(!moves_agree(&game, &game[..30]), "too short to tell");
/// let other: Vec<String> = game[..34].iter().cloned().chain((34..60).map(|i| format!("o{i}"))).collect();
/// assert!(!moves_agree(&game, &other), "an opening shared past move 17");
/// ```
pub fn moves_agree(a: &[String], b: &[String]) -> bool {
    let shorter = a.len().min(b.len());
    let same = a.iter().zip(b).filter(|(x, y)| x == y).count();
    same >= SAME_GAME_PLIES && same as f64 >= SAME_GAME_SHARE * shorter as f64
}

/// Whether two sheets are one game's copies by their moves: see the module doc.
pub(crate) fn same_game_by_moves(a: (&CopyKey, &[String]), b: (&CopyKey, &[String])) -> bool {
    a.0.may_be_one_game(b.0) && moves_agree(a.1, b.1)
}

/// The keys a reading is filed under: each run of [`MOVE_WINDOW`] plies from
/// [`MOVE_WINDOWS_FROM`] on, with where it starts. Two readings that
/// [`moves_agree`] share one unless every such run holds a slip.
pub(crate) fn windows(sans: &[String]) -> Vec<u64> {
    use std::hash::{Hash, Hasher};
    let mut out: Vec<u64> = (MOVE_WINDOWS_FROM..)
        .step_by(MOVE_WINDOW)
        .take_while(|&k| k + MOVE_WINDOW <= sans.len())
        .map(|k| {
            let mut h = rustc_hash::FxHasher::default();
            (k, &sans[k..k + MOVE_WINDOW]).hash(&mut h);
            h.finish()
        })
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Readings (by any id) filed under their [`windows`], so that the readings
/// one may agree with are found without looking at the others.
#[derive(Debug)]
pub(crate) struct MoveIndex<T> {
    by_window: FxHashMap<u64, Vec<T>>,
}

impl<T> Default for MoveIndex<T> {
    fn default() -> Self {
        MoveIndex { by_window: FxHashMap::default() }
    }
}

impl<T: Clone + Ord> MoveIndex<T> {
    pub(crate) fn insert(&mut self, sans: &[String], id: T) {
        for w in windows(sans) {
            self.by_window.entry(w).or_default().push(id.clone());
        }
    }

    /// The readings that share a window with `sans`, in order: at most
    /// [`MOST_COPY_CANDIDATES`] of each window, the first filed.
    pub(crate) fn candidates(&self, sans: &[String]) -> Vec<T> {
        let mut out: Vec<T> = windows(sans)
            .iter()
            .filter_map(|w| self.by_window.get(w))
            .flat_map(|ids| ids.iter().take(MOST_COPY_CANDIDATES).cloned())
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// The pairs among `lone` sheets (each its key, its reading alone and its
/// file) that are one game's copies by their moves, each the only such
/// sheet of the other: `(i, j)` with `i < j`, indices into `lone`. Two
/// sheets of one file are two games.
pub(crate) fn pair_by_moves(lone: &[(&CopyKey, &[String], usize)]) -> Vec<(usize, usize)> {
    let mut index = MoveIndex::default();
    for (i, (_, sans, _)) in lone.iter().enumerate() {
        index.insert(sans, i);
    }
    let fits = |i: usize, j: usize| {
        let (a, b) = (&lone[i], &lone[j]);
        a.2 != b.2 && same_game_by_moves((a.0, a.1), (b.0, b.1))
    };
    // Up to two partners: one is a pair, two are none.
    let partners = |i: usize| -> Vec<usize> {
        let found = index.candidates(lone[i].1).into_iter();
        found.filter(|&j| j != i && fits(i, j)).take(2).collect()
    };
    let mut pairs = Vec::new();
    for i in 0..lone.len() {
        if let [j] = partners(i)[..]
            && i < j
            && partners(j) == [i]
        {
            pairs.push((i, j));
        }
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sheet::Sheet;

    fn key(headers: &[(&str, &str)]) -> CopyKey {
        let mut s = Sheet::default();
        for (k, v) in headers {
            s.set_header(k, v);
        }
        CopyKey::of(&s)
    }

    fn game(seed: &str, len: usize) -> Vec<String> {
        (0..len).map(|i| format!("{seed}{i}")).collect()
    }

    #[test]
    fn copies_alike_in_moves_are_paired_once_and_three_alike_are_not() {
        let k = key(&[("White", "Yudin, S"), ("Black", "Petrov, A")]);
        let other = key(&[("White", "Yudinn S"), ("Black", "A UKR Petrov")]);
        let (a, b, c) = (game("a", 80), game("a", 60), game("c", 80));
        let pairs = pair_by_moves(&[(&k, &a, 0), (&other, &c, 1), (&other, &b, 2)]);
        assert_eq!(pairs, [(0, 2)]);
        let three = [(&k, &a[..], 0), (&other, &b[..], 1), (&other, &a[..], 2)];
        assert!(pair_by_moves(&three).is_empty(), "three alike: no guess");
        assert!(pair_by_moves(&[(&k, &a, 0), (&other, &b, 0)]).is_empty(), "two sheets of one file: two games");
    }

    #[test]
    fn a_game_that_is_the_start_of_another_with_one_player_alike_is_another_game() {
        let carlsen = key(&[("White", "Carlsen, Magnus"), ("Black", "Caruana, Fabiano"), ("Round", "3")]);
        let karlsen = key(&[("White", "Karlsen, M"), ("Black", "Ding, Liren")]);
        let game = game("a", 131);
        assert!(!same_game_by_moves((&carlsen, &game), (&karlsen, &game[..46])));
        let only_one = key(&[("White", "Karlsen, M")]);
        assert!(same_game_by_moves((&carlsen, &game), (&only_one, &game[..46])), "one the same, the other absent");
    }

    #[test]
    fn a_round_board_or_event_written_otherwise_keeps_two_sheets_apart() {
        let a = game("a", 80);
        for (x, y) in [
            (("Round", "3"), ("Round", "4")),
            (("Event", "Open A"), ("Event", "Open B")),
            (("White", "Carlsen, M"), ("White", "Nakamura, H")),
        ] {
            let (ka, kb) = (key(&[x, ("Black", "Caruana, F")]), key(&[y, ("Black", "Caruana, F")]));
            assert!(!same_game_by_moves((&ka, &a), (&kb, &a)), "{x:?} {y:?}");
        }
        let (ka, kb) = (
            key(&[("White", "Carlsen, M"), ("Black", "Caruana, F")]),
            key(&[("White", "Ding, L"), ("Black", "So, W")]),
        );
        assert!(!same_game_by_moves((&ka, &a), (&kb, &a)), "other players on both sides");
    }
}
