//! An opening book: how often each move was played in a position, counted
//! over real games. It orders readings the sheet itself cannot tell apart
//! (`Dc6` one file or one rank off, an illegible third move) by which move
//! players choose there; it never makes a doubtful reading certain.
//!
//! The built-in book counts the first 30 plies of 14,945 games of the
//! development corpus, positions reached by 4 games or more, moves played
//! twice or more (`examples/book.rs` builds it; the games the tests, the
//! benchmarks and the evaluation read are left out, so that their figures
//! stay honest, and `tests/book.rs` checks that it is so).
//!
//! ```
//! use scoresheet::reconstruct::book::Book;
//! use shakmaty::{Chess, Position, san::San};
//! let book = Book::builtin();
//! let start = Chess::default();
//! let e4 = "e4".parse::<San>().unwrap().to_move(&start).unwrap();
//! let a3 = "a3".parse::<San>().unwrap().to_move(&start).unwrap();
//! assert!(book.log_prior(&start, &e4).unwrap() > book.log_prior(&start, &a3).unwrap());
//! ```

use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, EnPassantMode, Move, Position, Role, Square};

/// The first bytes of a book file: a name and a format version.
const MAGIC: &[u8; 8] = b"SSBOOK1\n";
/// A record: position key (u64), move (u16), times played (u16), little-endian.
const RECORD: usize = 12;
/// How strongly the uniform guess is mixed into a position's counts: a
/// position seen in few games says less about its moves than one seen in many.
const PSEUDO_GAMES: f32 = 3.0;
/// The uniform guess: about as many legal moves as an opening position has.
const UNIFORM: f32 = 1.0 / 30.0;

static BUILTIN: &[u8] = include_bytes!("../../data/book.bin");

/// A book file that is not one.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum BookError {
    #[error("not a scoresheet opening book (it must start with {:?})", String::from_utf8_lossy(MAGIC))]
    Magic,
    #[error("the book's records are cut short ({0} bytes after the header, not a multiple of {RECORD})")]
    Truncated(usize),
    #[error("the book's records are not sorted (record {0})")]
    Unsorted(usize),
}

/// Move counts by position, as sorted fixed-size records read in place.
#[derive(Clone, Copy)]
pub struct Book<'a> {
    records: &'a [[u8; RECORD]],
}

impl std::fmt::Debug for Book<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Book").field("records", &self.len()).finish()
    }
}

impl Book<'static> {
    /// The book shipped with the program.
    pub fn builtin() -> Book<'static> {
        // Checked once by a test, not on every call.
        Book { records: BUILTIN[MAGIC.len()..].as_chunks().0 }
    }
}

impl<'a> Book<'a> {
    /// A book from the bytes of a book file (see [`write()`]).
    pub fn from_bytes(bytes: &'a [u8]) -> Result<Book<'a>, BookError> {
        let body = bytes.strip_prefix(MAGIC.as_slice()).ok_or(BookError::Magic)?;
        let (records, rest) = body.as_chunks::<RECORD>();
        if !rest.is_empty() {
            return Err(BookError::Truncated(body.len()));
        }
        if let Some(i) = records.windows(2).position(|w| sort_key(&w[0]) >= sort_key(&w[1])) {
            return Err(BookError::Unsorted(i + 1));
        }
        Ok(Book { records })
    }

    /// The number of (position, move) records.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// The moves counted in `pos`: (move code, times played).
    fn moves(&self, pos: &Chess) -> impl Iterator<Item = (u16, u16)> + '_ {
        let key = position_key(pos);
        let first = self.records.partition_point(|r| record_key(r) < key);
        self.records[first..]
            .iter()
            .take_while(move |r| record_key(r) == key)
            .map(|r| (u16::from_le_bytes([r[8], r[9]]), u16::from_le_bytes([r[10], r[11]])))
    }

    /// How likely `mv` is in `pos`, as a natural log, where the book knows
    /// the position (`None` where it does not): the share of games that played
    /// it, mixed with a uniform guess so that a move no game played is
    /// unlikely, not impossible.
    pub fn log_prior(&self, pos: &Chess, mv: &Move) -> Option<f32> {
        let code = move_code(mv);
        let (mut total, mut played) = (0u32, 0u32);
        for (m, n) in self.moves(pos) {
            total += u32::from(n);
            if m == code {
                played = u32::from(n);
            }
        }
        (total > 0).then(|| ((played as f32 + PSEUDO_GAMES * UNIFORM) / (total as f32 + PSEUDO_GAMES)).ln())
    }

    /// How likely each of `lines` (moves from `start`) is by the book, as a
    /// natural log, over the same plies: as far as the longest stays in the
    /// book, each move the book does not know counted as one of thirty.
    /// `None` when the book does not know `start`: no line is told apart.
    pub fn line_scores(&self, start: &Chess, lines: &[&[Move]]) -> Option<Vec<f32>> {
        let mut scores = Vec::with_capacity(lines.len());
        let mut known = Vec::with_capacity(lines.len());
        for line in lines {
            let mut pos = start.clone();
            let (mut score, mut n) = (0.0, 0);
            for m in line.iter() {
                let Some(p) = self.log_prior(&pos, m) else { break };
                score += p;
                n += 1;
                pos.play_unchecked(*m);
            }
            scores.push(score);
            known.push(n);
        }
        let horizon = known.iter().copied().max().filter(|&h| h > 0)?;
        for (score, n) in scores.iter_mut().zip(known) {
            *score += (horizon - n) as f32 * UNIFORM.ln();
        }
        Some(scores)
    }
}

/// The key of a position in a book: its Zobrist hash.
pub fn position_key(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// A move as 16 bits: from and to squares (castling as king to rook) and the
/// promotion piece.
pub fn move_code(mv: &Move) -> u16 {
    let from = mv.from().map_or(0, |s: Square| u16::from(s));
    let promotion = mv.promotion().map_or(0, |r: Role| r as u16);
    from | (u16::from(mv.to()) << 6) | (promotion << 12)
}

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
    let mut counts: std::collections::HashMap<(u64, u16), u16> = std::collections::HashMap::new();
    for game in games {
        let mut pos = Chess::default();
        for m in game.as_ref().iter().take(recipe.plies) {
            let n = counts.entry((position_key(&pos), move_code(m))).or_default();
            *n = n.saturating_add(1);
            pos.play_unchecked(*m);
        }
    }
    let mut reached: std::collections::HashMap<u64, u32> = std::collections::HashMap::new();
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

/// The position key of a record.
fn record_key(r: &[u8; RECORD]) -> u64 {
    u64::from_le_bytes([r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7]])
}

/// What records are sorted by: position key, then move code.
fn sort_key(r: &[u8; RECORD]) -> (u64, u16) {
    (record_key(r), u16::from_le_bytes([r[8], r[9]]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Position;
    use shakmaty::san::San;

    fn mv(pos: &Chess, san: &str) -> Move {
        san.parse::<San>().unwrap().to_move(pos).unwrap()
    }

    #[test]
    fn counts_come_back_as_shares() {
        let start = Chess::default();
        let mut after = start.clone();
        after.play_unchecked(mv(&start, "e4"));
        let counts = vec![
            (position_key(&start), move_code(&mv(&start, "e4")), 6),
            (position_key(&start), move_code(&mv(&start, "d4")), 2),
            (position_key(&after), move_code(&mv(&after, "c5")), 1),
        ];
        let bytes = write(counts);
        let book = Book::from_bytes(&bytes).unwrap();
        assert_eq!(book.len(), 3);
        let (e4, d4, a3) = (mv(&start, "e4"), mv(&start, "d4"), mv(&start, "a3"));
        let p = |m: &Move| book.log_prior(&start, m).unwrap().exp();
        assert!(p(&e4) > p(&d4) && p(&d4) > p(&a3), "{} {} {}", p(&e4), p(&d4), p(&a3));
        assert!((p(&e4) - (6.0 + 0.1) / 11.0).abs() < 1e-6);
        // A position no game reached is not in the book.
        let mut other = start.clone();
        other.play_unchecked(d4);
        assert_eq!(book.log_prior(&other, &mv(&other, "d5")), None);
        assert!(book.log_prior(&after, &mv(&after, "c5")).is_some());
    }

    #[test]
    fn lines_are_weighed_over_the_same_plies() {
        let start = Chess::default();
        let e4 = mv(&start, "e4");
        let mut after = start.clone();
        after.play_unchecked(e4);
        let c5 = mv(&after, "c5");
        let d4 = mv(&start, "d4");
        let bytes = write(vec![
            (position_key(&start), move_code(&e4), 6),
            (position_key(&start), move_code(&d4), 2),
            (position_key(&after), move_code(&c5), 5),
        ]);
        let book = Book::from_bytes(&bytes).unwrap();
        let mut after_d4 = start.clone();
        after_d4.play_unchecked(d4);
        let d5 = mv(&after_d4, "d5");
        let scores = book.line_scores(&start, &[&[e4, c5], &[d4, d5], &[e4]]).unwrap();
        let (e4c5, d4d5, e4_only) = (scores[0], scores[1], scores[2]);
        // d4 leaves the book after one move: its second counts as one of thirty.
        assert!((d4d5 - (book.log_prior(&start, &d4).unwrap() + (1.0f32 / 30.0).ln())).abs() < 1e-5);
        assert!(e4c5 > d4d5, "{scores:?}");
        assert!((e4_only - d4d5).abs() > 0.1 && e4_only > d4d5);
        assert_eq!(book.line_scores(&after_d4, &[&[d5]]), None);
    }

    #[test]
    fn files_that_are_not_books_are_refused() {
        assert_eq!(Book::from_bytes(b"PGN\n").unwrap_err(), BookError::Magic);
        let mut bytes = write(vec![(1, 2, 3)]);
        bytes.pop();
        assert_eq!(Book::from_bytes(&bytes).unwrap_err(), BookError::Truncated(11));
        let mut unsorted = write(vec![(1, 2, 3), (5, 1, 1)]);
        unsorted[MAGIC.len()..].rotate_left(RECORD);
        assert_eq!(Book::from_bytes(&unsorted).unwrap_err(), BookError::Unsorted(1));
    }

    proptest::proptest! {
        /// A book file is read in place: whatever its bytes, it is refused or
        /// read, never a panic, and a book read answers every question.
        #[test]
        fn any_bytes_are_refused_or_read(tail in proptest::collection::vec(proptest::num::u8::ANY, 0..200), magic: bool) {
            let bytes: Vec<u8> = if magic { MAGIC.iter().copied().chain(tail).collect() } else { tail };
            if let Ok(book) = Book::from_bytes(&bytes) {
                let start = Chess::default();
                for m in start.legal_moves() {
                    let _ = book.log_prior(&start, &m);
                }
            }
        }
    }

    #[test]
    fn the_builtin_book_knows_the_openings() {
        let book = Book::from_bytes(BUILTIN).unwrap();
        assert!(book.len() > 10_000, "{} records", book.len());
        let start = Chess::default();
        let first: Vec<f32> =
            ["e4", "d4", "h4"].iter().map(|s| book.log_prior(&start, &mv(&start, s)).unwrap()).collect();
        assert!(first[0] > first[2] && first[1] > first[2], "{first:?}");
    }
}
