//! Descriptive notation (`P-K4`, `N-KB3`, `PxP`; Spanish `PR4`, `CAR3`), which
//! older players still write: recognised, so that a sheet in it is reported as
//! such instead of being "repaired" into algebraic moves it never meant.
//! Each system ([`System`]) reads an entry into what it says ([`Said`]),
//! which the reader turns into readings for the side to move.

use arrayvec::ArrayVec;
use shakmaty::{Bitboard, CastlingSide, Color, File, Rank, Role, Square};

use super::meaning::{Reading, Target};
use crate::cost::WING_ELSEWHERE;

/// Whether an entry (its lexed core) is clearly descriptive: only capital
/// letters, digits 1–8 and `-`/`x`/`:`/`/`/`=`, at least two capitals, and a
/// mark no algebraic move has: a dash after a capital (`P-K4`), a capture of a
/// piece (`PxP`), three capitals in a row (`CAR3`), or a rank after a capital
/// that is not a file (`PR4`). `CF3` (a knight typed in capitals) is not.
pub(crate) fn looks_descriptive(core: &str) -> bool {
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
    // `P4R`, `C3AR`, `A5C`: a piece, a rank, then a file's letters.
    let rank_first =
        b.len() <= 4 && capital(b[0]) && b.get(1).is_some_and(u8::is_ascii_digit) && b[2..].iter().all(|&c| capital(c));
    dash || takes_piece || three || rank_after_piece || rank_first
}

/// Whether an entry can be descriptive though nothing marks it so (`PD4`,
/// `AD3`, typed algebraic in capitals, reads the same): only capitals,
/// digits and `-x:/=()`, two capitals or more.
fn may_be_descriptive(core: &str) -> bool {
    let b = core.as_bytes();
    b.iter().filter(|&&c| c.is_ascii_uppercase() && c != b'O').count() >= 2
        && b.iter().all(|&c| {
            c.is_ascii_uppercase() || matches!(c, b'1'..=b'8' | b'-' | b'x' | b':' | b'/' | b'=' | b'(' | b')')
        })
}

/// Whether the record from `cores[0]` on is in descriptive notation: at least
/// three clearly descriptive entries, a third of those left.
pub(crate) fn descriptive_from<'a>(cores: impl ExactSizeIterator<Item = &'a str>) -> bool {
    let n = cores.len();
    let d = cores.filter(|c| looks_descriptive(c)).count();
    d >= 3 && 3 * d >= n
}

#[cfg(test)]
mod tests {
    use super::*;

    use shakmaty::{Chess, Position, san::San};

    /// The SAN each entry reads as, played from the start (`?` where none fits exactly).
    fn read_line(system: &System, entries: &[&str]) -> Vec<String> {
        let mut pos = Chess::default();
        let mut out = Vec::new();
        let mut lexed: Vec<_> = entries.iter().map(|e| crate::notation::lex::lex(e)).collect();
        mark(&mut lexed);
        for l in &lexed {
            let mut readings = Vec::new();
            readings_into(&l.core, system, &mut readings);
            match crate::notation::reading::exact_move(&pos, &readings) {
                Some(m) => {
                    out.push(San::from_move(&pos, m).to_string());
                    pos.play_unchecked(m);
                }
                None => {
                    out.push("?".into());
                    break;
                }
            }
        }
        out
    }

    #[test]
    fn english_descriptive_in_its_forms() {
        let line = ["P-K4", "P-K4", "N-KB3", "N-QB3", "B-N5", "P-QR3", "BxN", "QPxB", "Castles", "B-Q3"];
        assert_eq!(read_line(&ENGLISH, &line), ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6", "dxc6", "O-O", "Bd6"]);
        let old = ["P. to K's 4th", "P-K4.", "Kt-KB3", "Kt—QB3", "B-Kt5", "P-QR3", "B x Kt ch", "QP x B"];
        assert_eq!(read_line(&ENGLISH, &old), ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6", "dxc6"]);
        assert_eq!(read_line(&ENGLISH, &["P-Q4", "P-Q4", "P-QB4", "PxP"]), ["d4", "d5", "c4", "dxc4"]);
        assert_eq!(read_line(&ENGLISH, &["P-KB4", "P-K4", "P-KN4", "Q-R5"]), ["f4", "e5", "g4", "Qh4"]);
    }

    #[test]
    fn spanish_and_french_descriptive_both_ways_round() {
        let sp = ["P4R", "P4R", "C3AR", "C3AD", "A5C", "P3TD", "AxC", "PDxA", "enroque", "A3D"];
        assert_eq!(read_line(&SPANISH, &sp), ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6", "dxc6", "O-O", "Bd6"]);
        // `PxA` could be b7 or d7 here: the knight's pawn is named.
        let compact = ["PR4", "PR4", "CAR3", "CAD3", "AC5", "PTD3", "AxC", "PCDxA"];
        assert_eq!(read_line(&SPANISH, &compact), ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6", "bxc6"]);
        // The queen's knight to K4, the king's rook to Q1: its side before its square.
        let said = SPANISH.read(&normalise("CD4R")).expect("read");
        assert_eq!((said.role, said.wing), (Role::Knight, Some(CastlingSide::QueenSide)));
        assert!(matches!(said.what, What::To { rank: 4, ref files, .. } if files[..] == [File::E]));
        // The 1930 FIDE rules' own example: the rook on KN4 to KN2.
        let said = FRENCH.read(&normalise("T4CR—2CR")).expect("read");
        assert_eq!((said.from.as_slice(), said.from_rank), (&[File::G][..], Some(4)));
        let said = FRENCH.read(&normalise("TR1D")).expect("read");
        assert_eq!((said.role, said.wing), (Role::Rook, Some(CastlingSide::KingSide)));
        let fr = ["P4R", "P4R", "C3FR", "C3FD", "F5C", "P3TD", "FxC", "PDxF"];
        assert_eq!(read_line(&FRENCH, &fr), ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6", "dxc6"]);
    }

    #[test]
    fn a_piece_told_apart_by_its_square_or_rank() {
        // Two knights can go to KB5 (f5), two rooks to QB1: the book says which.
        let knights = ["P-K4", "P-K4", "N-KB3", "N-QB3", "N-B3", "N-B3", "P-Q4", "PxP", "NxP", "P-Q3"];
        let mut line = knights.to_vec();
        line.extend(["N(Q4)-B5", "P-KN3"]);
        assert_eq!(read_line(&ENGLISH, &line)[10..], ["Nf5", "g6"]);
        line.truncate(10);
        line.extend(["N/4-B5", "P-KN3"]);
        assert_eq!(read_line(&ENGLISH, &line)[10..], ["Nf5", "g6"]);
        line.truncate(10);
        line.extend(["N(B3)-Q5", "B-K2"]);
        assert_eq!(read_line(&ENGLISH, &line)[10..], ["Nd5", "Be7"], "the knight on QB3, not the one on Q4");
        // `R(1)`: the rook on the first rank, counted from Black's side for Black.
        let rooks =
            ["P-K4", "P-K4", "N-KB3", "N-KB3", "B-K2", "B-K2", "P-QR4", "P-QR4", "R-R3", "R-R3", "R-K3", "R-K3"];
        let mut line = rooks.to_vec();
        line.extend(["R(1)-B1", "R(3)-B3"]);
        assert_eq!(read_line(&ENGLISH, &line)[12..], ["Rf1", "Rc6"]);
        line.truncate(12);
        line.push("R(2)-B1");
        assert_eq!(read_line(&ENGLISH, &line)[12..], ["?"], "no rook on the second rank");
        // A promotion is still one: `P-K8(Q)`, `P-Q8=N`.
        let said = ENGLISH.read(&normalise("P-K8(Q)")).expect("read");
        assert!(matches!(said.what, What::To { promotion: Some(Role::Queen), .. }));
        let said = ENGLISH.read(&normalise("PxR=N")).expect("read");
        assert!(matches!(said.what, What::Takes { promotion: Some(Role::Knight), .. }));
        let said = FRENCH.read(&normalise("PxC:D")).expect("read");
        assert!(matches!(said.what, What::Takes { victim: Role::Knight, promotion: Some(Role::Queen), .. }));
        let said = SPANISH.read(&normalise("A:C")).expect("read");
        assert!(matches!(said.what, What::Takes { victim: Role::Knight, promotion: None, .. }));
    }

    #[test]
    fn a_record_is_descriptive_from_its_start_where_its_first_moves_can_be() {
        // `PD4`, `Kt-KB3`, `C3AR` alone could be capitals typed for algebraic
        // moves; the record after them says what they are.
        for (line, system) in [
            (&["Kt-KB3", "P-Q4", "P-Q4", "Kt-KB3", "P-B4", "P-K3"][..], &ENGLISH),
            (&["C3AR", "C3AR", "P3CR", "P4D", "A2C", "P3R"][..], &SPANISH),
            (&["PD4", "PD4", "PAD4", "PR3", "CAD3", "CAR3"][..], &SPANISH),
        ] {
            let read = read_line(system, line);
            assert!(!read.contains(&"?".to_string()), "{line:?}: {read:?}");
            let mut lexed: Vec<_> = line.iter().map(|e| crate::notation::lex::lex(e)).collect();
            mark(&mut lexed);
            assert!(lexed.iter().all(|l| l.descriptive), "{line:?}");
        }
        // Castling before the first descriptive move is no start of it.
        let mut lexed: Vec<_> =
            ["e4", "e5", "O-O", "PAD3", "PD4", "CAR3", "CAD3"].iter().map(|e| crate::notation::lex::lex(e)).collect();
        mark(&mut lexed);
        assert_eq!(
            lexed.iter().map(|l| l.descriptive).collect::<Vec<_>>(),
            [false, false, false, true, true, true, true]
        );
    }

    #[test]
    fn descriptive_entries_are_told_from_algebraic_ones() {
        for d in ["P-K4", "N-KB3", "PxP", "PR4", "CAR3", "PAD4", "B-N5", "QxQ"] {
            assert!(looks_descriptive(d), "{d}");
        }
        for d in ["P4R", "C3AR", "A5C", "T1D"] {
            assert!(looks_descriptive(d), "{d}");
        }
        for a in ["e4", "Cf3", "CF3", "Nbd7", "0-0", "O-O-O", "exd5", "T1", "?", "e8Q"] {
            assert!(!looks_descriptive(a), "{a}");
        }
    }
}

/// A system of descriptive notation: the letters of the pieces and of the
/// files (each file named by the piece that starts on it), and whether the
/// rank comes before the file (`P4R`) or after (`P-K4`); both orders are read.
#[derive(Debug)]
pub(crate) struct System {
    /// Which it is, as a finding names it.
    pub notation: Notation,
    /// King, queen, rook, bishop, knight, pawn: each piece's spellings.
    pieces: [&'static [&'static str]; 6],
    /// The king's and the queen's side, as a file name begins (English
    /// `KB`, `side_first`) or ends (Spanish `AR`).
    king: &'static str,
    queen: &'static str,
    /// Words for castling (lowercase); without a side, either.
    castles: &'static [&'static str],
    side_first: bool,
}

const ORDER: [Role; 6] = [Role::King, Role::Queen, Role::Rook, Role::Bishop, Role::Knight, Role::Pawn];

/// English: `P-K4`, `N-KB3`, `Kt-KB3`, `PxP`, `QR-Q1`.
pub(crate) static ENGLISH: System = System {
    notation: Notation::EnglishDescriptive,
    pieces: [&["K"], &["Q"], &["R"], &["B"], &["KT", "N"], &["P"]],
    king: "K",
    queen: "Q",
    castles: &["castles", "castle"],
    side_first: true,
};

/// Spanish: `P4R`, `C3AR`, `PR4`, `CAR3`, `AxC`.
pub(crate) static SPANISH: System = System {
    notation: Notation::SpanishDescriptive,
    pieces: [&["R"], &["D"], &["T"], &["A"], &["C"], &["P"]],
    king: "R",
    queen: "D",
    castles: &["enroque", "enroca"],
    side_first: false,
};

/// French: `P4R`, `C3FR`, `F5C`, `PxP`.
pub(crate) static FRENCH: System = System {
    notation: Notation::FrenchDescriptive,
    pieces: [&["R"], &["D"], &["T"], &["F"], &["C"], &["P"]],
    king: "R",
    queen: "D",
    castles: &["roque"],
    side_first: false,
};

/// The descriptive system of a language, where it has one.
pub(crate) fn system_of(code: &str) -> Option<&'static System> {
    match code {
        "en" => Some(&ENGLISH),
        "es" => Some(&SPANISH),
        "fr" => Some(&FRENCH),
        _ => None,
    }
}

/// A file as descriptive notation names it: one file, or either of two (a
/// bishop's, knight's or rook's file without its side).
type Files = ArrayVec<File, 2>;

/// What a descriptive entry says, before the side that plays it is known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Said {
    pub role: Role,
    /// The mover's file, where written (`QR`, `KBP`, `PD`, `N(B3)`).
    pub from: Files,
    /// The mover's rank counted from its side, where written (`R(1)`, `N/5`).
    pub from_rank: Option<u8>,
    /// The king's or the queen's piece (`KB`, `QKt`, `QR`; Spanish `CR`,
    /// `TD`): the one that started on that side of the board.
    pub wing: Option<CastlingSide>,
    pub what: What,
}

/// A piece as an entry names it: the file and rank it stands on where
/// written (`QBP`, `N(Q4)`, `R/1`), or its wing (`QKt`).
struct Mover {
    files: Files,
    role: Role,
    rank: Option<u8>,
    wing: Option<CastlingSide>,
}

/// Where the move goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum What {
    /// To a square: its files and its rank counted from the mover's side.
    To { files: Files, rank: u8, promotion: Option<Role> },
    /// Takes a piece (on one of these files, and on this rank counted from
    /// the mover's side, where written: `BxP(Q4)`).
    Takes { victim: Role, files: Files, rank: Option<u8>, promotion: Option<Role> },
    /// Castles (a side, or either).
    Castles(Option<CastlingSide>),
}

impl System {
    /// The piece spelt at the start of `s`, and its length.
    fn piece(&self, s: &str) -> Option<(Role, usize)> {
        let mut best: Option<(Role, usize)> = None;
        for (role, spellings) in ORDER.iter().zip(self.pieces) {
            for sp in spellings {
                if s.starts_with(sp) && best.is_none_or(|(_, n)| sp.len() > n) {
                    best = Some((*role, sp.len()));
                }
            }
        }
        best
    }

    /// The files a file name at the start of `s` names (`KB`, `QR`, `B`,
    /// Spanish `AR`, `D`), longest first, and its length.
    fn files(&self, s: &str) -> Option<(Files, usize)> {
        // English puts the side first (`KB`), Spanish and French after (`AR`).
        let side_first = self.side_first;
        for (side, k) in [(self.king, 0usize), (self.queen, 1)] {
            let rest = if side_first { s.strip_prefix(side) } else { None };
            if let Some((r, n)) = rest.and_then(|r| self.piece(r)).filter(|(r, _)| minor_or_rook(*r)) {
                return Some((Files::from_iter([home_files(r)[k]]), side.len() + n));
            }
            if !side_first
                && let Some((r, n)) = self.piece(s).filter(|(r, _)| minor_or_rook(*r))
                && s[n..].starts_with(side)
            {
                return Some((Files::from_iter([home_files(r)[k]]), n + side.len()));
            }
        }
        let (r, n) = self.piece(s)?;
        match r {
            Role::King => Some((Files::from_iter([File::E]), n)),
            Role::Queen => Some((Files::from_iter([File::D]), n)),
            Role::Pawn => None,
            r => Some((Files::from_iter(home_files(r)), n)),
        }
    }

    /// A square: file then rank (`KB3`, `AR3`) or rank then file (`3AR`, `4R`).
    fn square(&self, s: &str) -> Option<(Files, u8)> {
        let rank = |c: u8| (b'1'..=b'8').contains(&c).then(|| c - b'0');
        let b = s.as_bytes();
        if let Some(r) = b.first().copied().and_then(rank) {
            let (files, n) = self.files(&s[1..])?;
            return (n + 1 == s.len()).then_some((files, r));
        }
        let (files, n) = self.files(s)?;
        (b.len() == n + 1).then(|| rank(b[n]).map(|r| (files, r))).flatten()
    }

    /// A promotion written after the square: `(Q)`, `=Q`, `/Q`. What is in
    /// parentheses or after `/` and is not a piece alone tells a piece apart
    /// (`N(Q4)-B5`, `N/3-N5`): no promotion.
    fn promotion<'s>(&self, s: &'s str) -> Option<(&'s str, Option<Role>)> {
        // French books also write `PxC:D`; a `:` with nothing before it
        // that moves or takes is Spanish `A:C`, a capture.
        let colon = s.rfind(':').filter(|&i| s[..i].contains(['-', 'x', ':']));
        let Some(i) = s.rfind(['(', '=', '/']).or(colon) else { return Some((s, None)) };
        let p = s[i + 1..].trim_end_matches(')');
        match self.piece(p).filter(|(_, n)| *n == p.len()) {
            Some((r, _)) if matches!(r, Role::Queen | Role::Rook | Role::Bishop | Role::Knight) => {
                Some((&s[..i], Some(r)))
            }
            _ => Some((s, None)),
        }
    }

    /// A piece with the square it stands on written after it, as books tell
    /// two pieces apart: `N(Q4)`, `N(B3)`, `N/3`, `R(1)`, `P(Q4)`. The piece's
    /// part, and the files and the rank (from the mover's side) named.
    fn qualified<'s>(&self, s: &'s str) -> Option<(&'s str, Option<Files>, Option<u8>)> {
        let Some(i) = s.find(['(', '/']) else { return Some((s, None, None)) };
        let (base, inner) = (&s[..i], s[i + 1..].trim_end_matches(')'));
        if base.is_empty() || inner.is_empty() {
            return None;
        }
        if let [r @ b'1'..=b'8'] = inner.as_bytes() {
            return Some((base, None, Some(r - b'0')));
        }
        if let Some((files, rank)) = self.square(inner) {
            return Some((base, Some(files), Some(rank)));
        }
        let (files, n) = self.files(inner)?;
        (n == inner.len()).then_some((base, Some(files), None))
    }

    /// Reads a normalised entry (uppercase, no spaces or dots, `-`, `x`).
    pub(crate) fn read(&self, s: &str) -> Option<Said> {
        let lower = s.to_ascii_lowercase();
        for w in self.castles {
            if let Some(rest) = lower.strip_prefix(w) {
                let side = match rest.to_ascii_uppercase() {
                    r if r.is_empty() => None,
                    r if r == format!("{}{}", self.king, self.pieces[2][0]) || r == self.king => {
                        Some(CastlingSide::KingSide)
                    }
                    r if r == format!("{}{}", self.queen, self.pieces[2][0]) || r == self.queen => {
                        Some(CastlingSide::QueenSide)
                    }
                    _ => return None,
                };
                return Some(Said {
                    role: Role::King,
                    from: Files::new(),
                    from_rank: None,
                    wing: None,
                    what: What::Castles(side),
                });
            }
        }
        let (body, promotion) = self.promotion(s)?;
        let (mover, rest) = match body.find(['-', 'X', 'x', ':']) {
            Some(i) => (&body[..i], &body[i..]),
            // Compact: the piece, then the square (`PR4`, `CAR3`, `P4R`).
            None => return self.compact(body, promotion),
        };
        let Mover { files: from, role, rank: from_rank, wing } = self.mover(mover)?;
        let what = match rest.as_bytes()[0] {
            b'-' => {
                let (files, rank) = self.square(&rest[1..])?;
                What::To { files, rank, promotion }
            }
            _ => {
                // A piece taken named by its side (`BxQKt`) stands anywhere.
                let Mover { files, role: victim, rank, .. } = self.mover(&rest[1..])?;
                What::Takes { victim, files, rank, promotion }
            }
        };
        Some(Said { role, from, from_rank, wing, what })
    }

    /// `PR4`, `CAR3`, `P4R`, `C3AR`: a piece then its square; Spanish and
    /// French books also put the piece's side between them (`CD4R`, the
    /// queen's knight to K4; `TRD1`).
    fn compact(&self, s: &str, promotion: Option<Role>) -> Option<Said> {
        let (role, n) = self.piece(s)?;
        let what = |(files, rank)| What::To { files, rank, promotion };
        if let Some(square) = self.square(&s[n..]) {
            return Some(Said { role, from: Files::new(), from_rank: None, wing: None, what: what(square) });
        }
        if self.side_first || !minor_or_rook(role) {
            return None;
        }
        let rest = &s[n..];
        let (wing, m) = if rest.starts_with(self.king) {
            (CastlingSide::KingSide, self.king.len())
        } else if rest.starts_with(self.queen) {
            (CastlingSide::QueenSide, self.queen.len())
        } else {
            return None;
        };
        let square = self.square(&rest[m..])?;
        Some(Said { role, from: Files::new(), from_rank: None, wing: Some(wing), what: what(square) })
    }

    /// The piece that moves (or is taken), with the file and the rank it
    /// stands on where written, or its wing: `P`, `QP`, `KBP`, `QR`
    /// (English), `PD`, `TD`, `CR` (Spanish, French), `N(Q4)`, `R/1`.
    fn mover(&self, s: &str) -> Option<Mover> {
        // `T4CR` (-2CR): the piece on a square, as the 1930 FIDE rules write it.
        if let Some((role, n)) = self.piece(s)
            && n < s.len()
            && let Some((files, rank)) = self.square(&s[n..]).filter(|_| s.as_bytes()[n].is_ascii_digit())
        {
            return Some(Mover { files, role, rank: Some(rank), wing: None });
        }
        let (base, files, rank) = self.qualified(s)?;
        let (named, role) = match self.piece(base) {
            Some((r, n)) if n == base.len() => (Files::new(), r),
            _ if self.side_first => self.side_first_mover(base)?,
            _ => self.side_after_mover(base)?,
        };
        let (named, wing) = wing(role, named);
        Some(Mover { files: files.unwrap_or(named), role, rank, wing })
    }

    /// English names the file or the side first: `QP`, `KBP`, `QR`, `KKt`.
    fn side_first_mover(&self, s: &str) -> Option<(Files, Role)> {
        let (i, role) = (1..s.len())
            .rev()
            .find_map(|i| self.piece(&s[i..]).filter(|(_, n)| i + n == s.len()).map(|(r, _)| (i, r)))?;
        let (files, _) = self.files(&s[..i]).filter(|(_, n)| *n == i)?;
        Some((files, role))
    }

    /// Spanish and French name the piece, then its file: `PD`, `PAR`, `TD`.
    fn side_after_mover(&self, s: &str) -> Option<(Files, Role)> {
        let (r, n) = self.piece(s)?;
        let (files, m) = self.files(&s[n..])?;
        (n + m == s.len()).then_some((files, r))
    }
}

/// The files a piece starts on: the king's side's, then the queen's.
fn home_files(r: Role) -> [File; 2] {
    match r {
        Role::Rook => [File::H, File::A],
        Role::Knight => [File::G, File::B],
        Role::Bishop => [File::F, File::C],
        Role::Queen => [File::D, File::D],
        _ => [File::E, File::E],
    }
}

/// A rook, knight or bishop named by a side alone (`QR`, `KKt`, `KB`;
/// Spanish `TD`, `CR`) is the piece that started on that side, not a file:
/// its wing, and no file.
fn wing(role: Role, from: Files) -> (Files, Option<CastlingSide>) {
    match (minor_or_rook(role), from.as_slice()) {
        (true, [File::E]) => (Files::new(), Some(CastlingSide::KingSide)),
        (true, [File::D]) => (Files::new(), Some(CastlingSide::QueenSide)),
        _ => (from, None),
    }
}

/// Where the `wing` piece of `side` stands, as far as the position can
/// tell without the game's history: a bishop never leaves the colour of
/// the square it started on; a rook or a knight is taken to be on its side
/// of the board (a reading without it is also made, at a cost).
fn wing_squares(role: Role, wing: CastlingSide, side: Color) -> Bitboard {
    if role == Role::Bishop {
        let home = Square::from_coords(home_files(role)[usize::from(wing == CastlingSide::QueenSide)], side.backrank());
        return if Bitboard::LIGHT_SQUARES.contains(home) { Bitboard::LIGHT_SQUARES } else { Bitboard::DARK_SQUARES };
    }
    let files = if wing == CastlingSide::KingSide {
        [File::E, File::F, File::G, File::H]
    } else {
        [File::A, File::B, File::C, File::D]
    };
    files.into_iter().map(Bitboard::from_file).fold(Bitboard::EMPTY, |a, b| a | b)
}

fn minor_or_rook(r: Role) -> bool {
    matches!(r, Role::Rook | Role::Bishop | Role::Knight)
}

/// An entry as descriptive notation reads it: uppercase, without spaces,
/// dots, apostrophes and `ch`, dashes and `to` as `-`, `x` kept lowercase.
pub(crate) fn normalise(core: &str) -> String {
    // `K's`: the possessive goes first, before its apostrophe does.
    let mut s = core.replace(['—', '–', '−'], "-").replace("'s", "").replace("’s", "").replace("'S", "");
    for w in [" to ", " TO "] {
        s = s.replace(w, "-");
    }
    let mut out: String = s
        .chars()
        .filter(|c| !c.is_whitespace() && !matches!(c, '.' | '\'' | '’' | '+'))
        .map(|c| if c == 'x' || c == 'X' || c == '×' { 'x' } else { c.to_ascii_uppercase() })
        .collect();
    for tail in ["CH", "DBLCH", "DISCH"] {
        if out.len() > tail.len() + 1 && out.ends_with(tail) {
            out.truncate(out.len() - tail.len());
        }
    }
    // `R-K.Sq.`: the first rank, in old books.
    if out.ends_with("SQ") {
        out.truncate(out.len() - 2);
        out.push('1');
    }
    // `P-K's 4th`, `Kt to B 3rd`: the ordinal's letters go.
    for ord in ["ST", "ND", "RD", "TH"] {
        if out.len() > 3 && out.ends_with(ord) && out.as_bytes()[out.len() - 3].is_ascii_digit() {
            out.truncate(out.len() - 2);
        }
    }
    out
}

/// Marks the entries of a record in descriptive notation, from the first
/// that is and after which the record goes on in it.
pub(crate) fn mark(lexed: &mut [super::lex::Lexed<'_>]) {
    // Algebraic moves have a small letter (`Nf3`, `e4`): a record without an
    // entry of capitals is not looked at further.
    let capitals = |c: &str| {
        c.bytes().any(|b| b.is_ascii_uppercase() && b != b'O')
            && c.bytes().all(|b| !b.is_ascii_lowercase() || matches!(b, b'x' | b't'))
    };
    if !lexed.iter().any(|l| capitals(&l.core)) {
        mark_numeric(lexed);
        return;
    }
    // `BxN`: the lexer took the knight for the novelty sign `N`.
    let knight = |l: &super::lex::Lexed<'_>| -> String {
        if l.nags.last() == Some(&NOVELTY) && l.core.ends_with(['x', 'X', '-']) {
            format!("{}N", l.core)
        } else {
            l.core.to_string()
        }
    };
    // `Kt` is the knight of old books: as `N`, the entry's letters are capitals.
    let cores: Vec<String> = lexed.iter().map(knight).collect();
    let tested: Vec<String> = cores.iter().map(|c| c.replace("Kt", "N")).collect();
    let first = (0..tested.len())
        .find(|&i| looks_descriptive(&tested[i]) && descriptive_from(tested[i..].iter().map(String::as_str)));
    let Some(mut first) = first else {
        mark_numeric(lexed);
        return;
    };
    // The entries before it that read as descriptive too (`1. PD4 PD4 2. P4AD`):
    // the record is descriptive from its start.
    // Castling and blank boxes belong to no notation: passed over, never a start.
    for j in (0..first).rev() {
        if may_be_descriptive(&tested[j]) {
            first = j;
        } else if !castling_or_blank(&tested[j]) {
            break;
        }
    }
    for (l, core) in lexed[first..].iter_mut().zip(&cores[first..]) {
        if *core != l.core {
            l.nags.pop();
            l.core = std::borrow::Cow::Owned(core.clone());
        }
        l.descriptive = true;
    }
}

/// Castling (`O-O`, `0-0-0`) or an empty or illegible box: no notation's own.
fn castling_or_blank(core: &str) -> bool {
    core.is_empty() || core.bytes().all(|c| matches!(c, b'O' | b'0' | b'-' | b'?' | b'.' | b'X'))
}

/// ICCF numeric notation, the moves of a record in it marked: three or more
/// entries that read as such, a third or more of the entries.
fn mark_numeric(lexed: &mut [super::lex::Lexed<'_>]) {
    let n = lexed.iter().filter(|l| numeric(&l.core).is_some()).count();
    if n >= 3 && 3 * n >= lexed.len() {
        lexed.iter_mut().filter(|l| numeric(&l.core).is_some()).for_each(|l| l.numeric = true);
    }
}

/// A notation other than algebraic that a record is read in: a system of
/// descriptive notation, or ICCF's numeric one. Each report language names
/// it in its own words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Notation {
    EnglishDescriptive,
    SpanishDescriptive,
    FrenchDescriptive,
    IccfNumeric,
}

/// An entry in ICCF numeric notation: the file and rank (1–8 each) of the
/// square left and of the square reached, and a promotion digit (1 queen,
/// 2 rook, 3 bishop, 4 knight): `5254` is e2-e4, `57585` no move.
pub(crate) fn numeric(core: &str) -> Option<Reading> {
    let b = core.as_bytes();
    if !(b.len() == 4 || b.len() == 5) || !b[..4].iter().all(|c| (b'1'..=b'8').contains(c)) {
        return None;
    }
    let sq = |f: u8, r: u8| Square::from_coords(File::new(u32::from(f - b'1')), Rank::new(u32::from(r - b'1')));
    let promotion = match b.get(4) {
        None => None,
        Some(b'1') => Some(Role::Queen),
        Some(b'2') => Some(Role::Rook),
        Some(b'3') => Some(Role::Bishop),
        Some(b'4') => Some(Role::Knight),
        Some(_) => return None,
    };
    let target = Target::FromTo { from: sq(b[0], b[1]), to: sq(b[2], b[3]), promotion };
    Some(Reading { target, cost: 0, side: None, within: None })
}

/// The NAG of `N`, a novelty.
const NOVELTY: u8 = 146;

/// The readings of a descriptive entry under `system`, one for each side
/// and each square it can name; none when it is not descriptive.
pub(crate) fn readings_into(core: &str, system: &System, out: &mut Vec<Reading>) {
    let Some(said) = system.read(&normalise(core)) else { return };
    // A file or a rank not written is any: one `None`.
    let any = |files: &Files| -> ArrayVec<Option<File>, 2> {
        if files.is_empty() { ArrayVec::from_iter([None]) } else { files.iter().map(|f| Some(*f)).collect() }
    };
    for side in [Color::White, Color::Black] {
        // Ranks are counted from the mover's side: White's 4 is the 4th, Black's the 5th.
        let rank = |r: u8| Rank::new(u32::from(if side == Color::White { r - 1 } else { 8 - r }));
        let from_rank = said.from_rank.map(rank);
        // A wing's rook or knight off its side of the board: read at a cost.
        let wings: ArrayVec<(Option<Bitboard>, u8), 2> = match said.wing {
            None => ArrayVec::from_iter([(None, 0)]),
            Some(w) if said.role == Role::Bishop => ArrayVec::from_iter([(Some(wing_squares(said.role, w, side)), 0)]),
            Some(w) => ArrayVec::from_iter([(Some(wing_squares(said.role, w, side)), 0), (None, WING_ELSEWHERE)]),
        };
        for (from_file, (within, cost)) in
            any(&said.from).into_iter().flat_map(|f| wings.clone().into_iter().map(move |w| (f, w)))
        {
            let mut push = |target| out.push(Reading { target, cost, side: Some(side), within });
            match &said.what {
                What::Castles(Some(c)) => push(Target::Castle(*c)),
                What::Castles(None) => {
                    push(Target::Castle(CastlingSide::KingSide));
                    push(Target::Castle(CastlingSide::QueenSide));
                }
                What::To { files, rank: r, promotion } => {
                    for file in files {
                        let to = Square::from_coords(*file, rank(*r));
                        let last = matches!(to.rank(), Rank::First | Rank::Eighth);
                        let promotion = match promotion {
                            None if said.role == Role::Pawn && last => Some(Role::Queen),
                            p => *p,
                        };
                        let capture = Some(false);
                        push(Target::Move { role: said.role, from_file, from_rank, capture, to, promotion });
                    }
                }
                What::Takes { victim, files, rank: r, promotion } => {
                    for victim_file in any(files) {
                        push(Target::Takes {
                            role: said.role,
                            from_file,
                            from_rank,
                            victim: *victim,
                            victim_file,
                            victim_rank: r.map(rank),
                            promotion: *promotion,
                        });
                    }
                }
            }
        }
    }
}
