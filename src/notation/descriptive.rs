//! Descriptive notation (`P-K4`, `N-KB3`, `PxP`; Spanish `PR4`, `CAR3`), which
//! older players still write: recognised, so that a sheet in it is reported as
//! such instead of being "repaired" into algebraic moves it never meant.
//! Reading it is not done yet.

/// Whether an entry (its lexed core) is clearly descriptive: only capital
/// letters, digits 1–8 and `-`/`x`/`:`/`/`/`=`, at least two capitals, and a
/// mark no algebraic move has: a dash after a capital (`P-K4`), a capture of a
/// piece (`PxP`), three capitals in a row (`CAR3`), or a rank after a capital
/// that is not a file (`PR4`). `CF3` (a knight typed in capitals) is not.
pub fn looks_descriptive(core: &str) -> bool {
    let b = core.as_bytes();
    let capital = |c: u8| c.is_ascii_uppercase() && c != b'O';
    if b.iter().filter(|&&c| capital(c)).count() < 2
        || !b.iter().all(|&c| capital(c) || matches!(c, b'1'..=b'8' | b'-' | b'x' | b':' | b'/' | b'='))
    {
        return false;
    }
    let pairs = b.windows(2);
    let dash = pairs.clone().any(|w| capital(w[0]) && w[1] == b'-');
    let takes_piece = b.windows(3).any(|w| capital(w[0]) && matches!(w[1], b'x' | b':') && capital(w[2]));
    let three = b.windows(3).any(|w| w.iter().all(|&c| capital(c)));
    let rank_after_piece = pairs.into_iter().any(|w| capital(w[0]) && w[0] > b'H' && w[1].is_ascii_digit());
    dash || takes_piece || three || rank_after_piece
}

/// Whether the record from `cores[0]` on is in descriptive notation: at least
/// three clearly descriptive entries, a third of those left.
pub fn descriptive_from<'a>(cores: impl ExactSizeIterator<Item = &'a str>) -> bool {
    let n = cores.len();
    let d = cores.filter(|c| looks_descriptive(c)).count();
    d >= 3 && 3 * d >= n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptive_entries_are_told_from_algebraic_ones() {
        for d in ["P-K4", "N-KB3", "PxP", "PR4", "CAR3", "PAD4", "B-N5", "QxQ"] {
            assert!(looks_descriptive(d), "{d}");
        }
        for a in ["e4", "Cf3", "CF3", "Nbd7", "0-0", "O-O-O", "exd5", "T1", "?"] {
            assert!(!looks_descriptive(a), "{a}");
        }
    }
}
