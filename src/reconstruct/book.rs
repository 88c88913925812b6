//! An opening book: how often each move was played in a position, counted
//! over real games. It orders readings the sheet itself cannot tell apart
//! (`Dc6` one file or one rank off, an illegible third move) by which move
//! players choose there; it never makes a doubtful reading certain.
//!
//! The built-in book counts the first 30 plies of 14,945 games of the
//! development corpus, positions reached by 4 games or more, moves played
//! twice or more (the `book` tool of `crates/scoresheet-dev` builds it; the
//! games the tests, the benchmarks and the evaluation read are left out, so
//! that their figures stay honest, and `tests/book.rs` checks that it is so).
//!
//! ```
//! use scoresheet::dev::Book;
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
pub const MAGIC: &[u8; 8] = b"SSBOOK1\n";
/// The size of a record: position key ([`position_key`], u64), move
/// ([`move_code`], u16), times played (u16), little-endian, sorted by key then
/// move.
pub const RECORD: usize = 12;
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
    /// A book from the bytes of a book file: [`MAGIC`], then the records.
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
