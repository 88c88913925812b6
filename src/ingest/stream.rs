//! A PGN collection of any size read one game at a time: the bytes are cut
//! where a tag section follows movetext, the cuts the PGN reader itself makes,
//! so each piece reads to the very sheets the whole file would give, with the
//! file's own line numbers. Memory holds one game, never the file.

use std::io::BufRead;

use super::decode;
use super::error::IngestError;
use crate::sheet::{Invisible, Sheet};

/// The most bytes one game of a collection may take (its tags and movetext):
/// a game over 3,000 moves long with comments fits; a megabyte line is no
/// game, and is refused without being held.
pub(crate) const MAX_GAME_BYTES: usize = 64 * 1024;

/// One game's piece of a collection, or why it was not read.
#[derive(Debug)]
pub(crate) enum Piece {
    /// The sheets of the piece (one, unless a game had no movetext).
    Sheets(Vec<Sheet>),
    /// A game over [`MAX_GAME_BYTES`] (from `line`): skipped, the file goes on.
    TooLong { line: usize },
    /// Bytes that are not text (from `line`): skipped, the file goes on.
    Unreadable { line: usize, error: IngestError },
}

/// The games of a PGN collection read from `reader`, one [`Piece`] at a time.
/// An IO error ends the iteration with it.
pub(crate) struct PgnGames<R> {
    reader: R,
    /// Lines read so far.
    lines: usize,
    /// The line that starts the next piece, read past the end of the last.
    held: Option<Vec<u8>>,
    done: bool,
}

impl<R: BufRead> PgnGames<R> {
    pub(crate) fn new(reader: R) -> Self {
        PgnGames { reader, lines: 0, held: None, done: false }
    }

    /// The lines read so far.
    pub(crate) fn lines(&self) -> usize {
        self.lines
    }

    /// Appends the next line to `out`, at most `MAX_GAME_BYTES + 1` of its
    /// bytes (the rest read and dropped); false at the end.
    fn line_into(&mut self, out: &mut Vec<u8>) -> std::io::Result<bool> {
        if let Some(l) = self.held.take() {
            self.lines += 1;
            out.extend_from_slice(&l);
            return Ok(true);
        }
        let (mut any, mut kept) = (false, 0);
        loop {
            let buf = self.reader.fill_buf()?;
            if buf.is_empty() {
                break;
            }
            any = true;
            let (take, end) = match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (buf.len(), false),
            };
            let room = (MAX_GAME_BYTES + 1).saturating_sub(kept);
            out.extend_from_slice(&buf[..take.min(room)]);
            kept += take.min(room);
            self.reader.consume(take);
            if end {
                break;
            }
        }
        // The byte order mark the file may begin with is no part of its text.
        if self.lines == 0 && out.starts_with(b"\xEF\xBB\xBF") {
            out.drain(..3);
        }
        self.lines += usize::from(any);
        Ok(any)
    }

    /// The bytes of the next piece and its first line; `too_long` when they
    /// were over the limit (and not kept: the line is then that of its first
    /// line that is not blank).
    fn piece(&mut self) -> std::io::Result<Option<(Vec<u8>, usize, bool)>> {
        let mut bytes = Vec::with_capacity(2048);
        let (mut first, mut written) = (0, 0);
        let mut movetext = false;
        let mut too_long = false;
        loop {
            let start = bytes.len();
            if !self.line_into(&mut bytes)? {
                break;
            }
            let t = bytes[start..].trim_ascii_start();
            if t.starts_with(b"[") && movetext {
                self.held = Some(bytes.split_off(start));
                self.lines -= 1;
                break;
            }
            if first == 0 {
                first = self.lines;
            }
            if written == 0 && !t.trim_ascii().is_empty() {
                written = self.lines;
            }
            movetext |= !t.is_empty() && !t.starts_with(b"[");
            too_long |= bytes.len() > MAX_GAME_BYTES;
            if too_long {
                bytes.clear();
            }
        }
        let line = if too_long { written.max(first) } else { first };
        Ok((first > 0).then_some((bytes, line, too_long)))
    }
}

impl<R: BufRead> Iterator for PgnGames<R> {
    type Item = std::io::Result<Piece>;

    fn next(&mut self) -> Option<Self::Item> {
        while !self.done {
            let (bytes, line, too_long) = match self.piece() {
                Ok(Some(p)) => p,
                Ok(None) => break,
                Err(e) => {
                    self.done = true;
                    return Some(Err(e));
                }
            };
            if too_long {
                return Some(Ok(Piece::TooLong { line }));
            }
            if bytes.trim_ascii().is_empty() {
                continue;
            }
            match read_piece(bytes, line) {
                // Blanks of another script (no-break spaces): nothing to read.
                Piece::Unreadable { error: IngestError::Empty, .. } => continue,
                piece => return Some(Ok(piece)),
            }
        }
        None
    }
}

/// The sheets of one piece whose first line is the file's `line`.
fn read_piece(bytes: Vec<u8>, line: usize) -> Piece {
    let shifted = |l: usize| l + line - 1;
    let decoded = match decode::decode_owned(bytes) {
        Ok(d) => d,
        Err(IngestError::Encoding { line: l }) => {
            return Piece::Unreadable { line: shifted(l), error: IngestError::Encoding { line: shifted(l) } };
        }
        Err(error) => return Piece::Unreadable { line, error },
    };
    let text = decoded.text.trim_start_matches('\u{feff}');
    match super::pgn::read_from(text, line - 1) {
        Ok(mut sheets) => {
            let invisible = decoded.invisible.iter().map(|r| r.shifted(line - 1)).reduce(Invisible::and);
            for s in &mut sheets {
                s.encoding_guessed = decoded.guessed_from.map(shifted);
                s.invisible = invisible;
            }
            Piece::Sheets(sheets)
        }
        Err(error) => Piece::Unreadable { line: error.line().unwrap_or(line), error },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_game_of_a_collection_keeps_its_lines_in_the_file() {
        let pgn = "[White \"A\"]\n\n1. e4 e5 1-0\n\n[White \"B\"]\n\n1. d4 d5 0-1\n";
        let games: Vec<_> = PgnGames::new(pgn.as_bytes()).collect();
        let Ok(Piece::Sheets(second)) = &games[1] else { panic!("{games:?}") };
        assert_eq!(second[0].header("White"), Some("B"));
        assert_eq!(second[0].entries[0].line, 7);
    }

    fn pieces(text: &str) -> Vec<Piece> {
        PgnGames::new(text.as_bytes()).map(Result::unwrap).collect()
    }

    #[test]
    fn pieces_read_as_the_whole_file_does() {
        let pgn = "\n[Event \"a\"]\n[White \"X\"]\n\n1. e4 e5\n2. Nf3 1-0\n[Event \"b\"]\n1. d4 *\n\n\n";
        let whole = super::super::pgn::read(pgn).unwrap();
        let streamed: Vec<Sheet> = pieces(pgn)
            .into_iter()
            .flat_map(|p| match p {
                Piece::Sheets(s) => s,
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(streamed, whole);
    }

    #[test]
    fn a_byte_order_mark_and_blank_lines_of_other_scripts_are_no_game() {
        let pgn = "\u{feff}[Event \"a\"]\n[Site \"X\"]\n\n1. e4 *\n\u{a0}\n\n[Event \"b\"]\n\n1. d4 *\n";
        let got = pieces(pgn);
        let events: Vec<_> = got
            .iter()
            .flat_map(|p| match p {
                Piece::Sheets(s) => s.iter().map(|s| (s.header("Event"), s.header("Site"), s.line)).collect::<Vec<_>>(),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(events, [(Some("a"), Some("X"), 1), (Some("b"), None, 7)]);
    }

    #[test]
    fn a_game_over_the_limit_is_skipped_and_the_next_read() {
        let long = format!("[Event \"long\"]\n\n1. e4 {{{}}} e5 *\n", "x".repeat(3 * MAX_GAME_BYTES));
        let pgn = format!("[Event \"a\"]\n\n1. e4 *\n\n{long}\n[Event \"c\"]\n\n1. d4 *\n");
        let got = pieces(&pgn);
        assert!(matches!(got[1], Piece::TooLong { line: 5 }), "{got:?}");
        let Piece::Sheets(last) = &got[2] else { panic!("{got:?}") };
        assert_eq!((last[0].header("Event"), last[0].entries[0].line), (Some("c"), 11));
    }

    #[test]
    fn a_piece_not_utf8_names_its_line_in_the_file() {
        let pgn = b"[Event \"a\"]\n\n1. e4 *\n\n[White \"Mu\xf1oz\"]\n\n1. d4 *\n";
        let got: Vec<Piece> = PgnGames::new(&pgn[..]).map(Result::unwrap).collect();
        let Piece::Sheets(s) = &got[1] else { panic!("{got:?}") };
        assert_eq!((s[0].header("White"), s[0].encoding_guessed), (Some("Muñoz"), Some(5)));
    }

    #[test]
    fn invisible_characters_of_a_collection_are_told_on_their_own_game_at_their_line_in_the_file() {
        let pgn = "[Event \"a\"]\n\n1. e4 *\n\n[White \"Mu\u{200B}ñoz\"]\n\n1. d4\u{200E} d5 *\n";
        let got = pieces(pgn);
        let [Piece::Sheets(a), Piece::Sheets(b)] = &got[..] else { panic!("{got:?}") };
        assert_eq!(a[0].invisible, None);
        assert_eq!((b[0].header("White"), b[0].entries[1].text.as_str()), (Some("Muñoz"), "d5"));
        assert_eq!(b[0].invisible.map(|r| (r.count, r.line)), Some((2, 5)));
    }
}
