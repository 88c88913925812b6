//! Bytes to text: UTF-8 with or without BOM, UTF-16 with BOM, Windows-1252
//! for the lines that are not UTF-8 (typed on an old Windows machine); the
//! invisible format characters dropped.

use super::error::IngestError;
use crate::sheet::Invisible;

/// A file's text, whether its encoding was guessed, and the invisible
/// characters dropped from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Decoded {
    pub text: String,
    /// The bytes were not UTF-8 and the lines that are not were read as
    /// Windows-1252: the line of the first byte that is not UTF-8. Nothing in
    /// the bytes says which 8-bit encoding they are in, so the reader says it
    /// guessed.
    pub guessed_from: Option<usize>,
    /// The invisible format characters dropped (see [`Invisible`]): one
    /// record per line that had any, in the order of the lines. Lines stay
    /// where they were; a column counts the characters shown, as an editor
    /// does, so only entries after such a character on its line move left.
    pub invisible: Vec<Invisible>,
}

/// Decodes a file's bytes; line ends are left as they are (the readers accept CRLF).
pub(crate) fn decode(bytes: &[u8]) -> Result<Decoded, IngestError> {
    let mut guessed_from = None;
    let text = if let Some(rest) = bytes.strip_prefix(b"\xEF\xBB\xBF") {
        String::from_utf8(rest.to_vec())
            .map_err(|e| IngestError::Encoding { line: line_of(rest, e.utf8_error().valid_up_to()) })?
    } else if bytes.starts_with(b"\xFF\xFE") || bytes.starts_with(b"\xFE\xFF") {
        let enc = if bytes[0] == 0xFF { encoding_rs::UTF_16LE } else { encoding_rs::UTF_16BE };
        let (text, _, malformed) = enc.decode(bytes);
        if malformed {
            return Err(IngestError::Encoding { line: 1 });
        }
        text.into_owned()
    } else {
        if looks_binary(bytes) {
            return Err(IngestError::Binary);
        }
        match std::str::from_utf8(bytes) {
            // The text is the bytes just checked: nothing more to look at.
            Ok(s) => return not_empty(s.to_string(), None),
            Err(e) => {
                guessed_from = Some(line_of(bytes, e.valid_up_to()));
                by_line(bytes)
            }
        }
    };
    if looks_binary(text.as_bytes()) {
        return Err(IngestError::Binary);
    }
    not_empty(text, guessed_from)
}

/// [`decode`], the bytes given: UTF-8 text (the common case) becomes the
/// text without a copy.
pub(crate) fn decode_owned(bytes: Vec<u8>) -> Result<Decoded, IngestError> {
    let marked = bytes.starts_with(b"\xEF\xBB\xBF") || bytes.starts_with(b"\xFF\xFE") || bytes.starts_with(b"\xFE\xFF");
    if marked || looks_binary(&bytes) {
        return decode(&bytes);
    }
    match String::from_utf8(bytes) {
        Ok(text) => not_empty(text, None),
        Err(e) => decode(e.as_bytes()),
    }
}

/// Bytes that are not all UTF-8, a line at a time: a line that is UTF-8
/// stays so (a file typed on two machines, or names pasted into a file of
/// another encoding), the others are read as Windows-1252. Read whole as
/// Windows-1252, the UTF-8 lines would turn `López` into `LÃ³pez`.
fn by_line(bytes: &[u8]) -> String {
    let mut text = String::with_capacity(bytes.len() + bytes.len() / 8);
    for line in bytes.split_inclusive(|&b| b == b'\n') {
        match std::str::from_utf8(line) {
            Ok(s) => text.push_str(s),
            Err(_) => text.push_str(&encoding_rs::WINDOWS_1252.decode_without_bom_handling(line).0),
        }
    }
    text
}

/// The text, unless there is nothing but whitespace in it.
fn not_empty(text: String, guessed_from: Option<usize>) -> Result<Decoded, IngestError> {
    let (text, invisible) = visible(text);
    if text.trim().is_empty() {
        return Err(IngestError::Empty);
    }
    Ok(Decoded { text: mended(narrowed(text)), guessed_from, invisible })
}

/// The text without its invisible format characters (see [`Invisible`]),
/// and a record of them for each line that had any. A byte order mark at
/// the start is no such character: it is left to the readers. Line breaks
/// are kept, so every line stays where it was.
fn visible(text: String) -> (String, Vec<Invisible>) {
    let body = text.strip_prefix('\u{FEFF}').unwrap_or(&text);
    if !body.contains(|c| Invisible::of(c, 0).is_some()) {
        return (text, Vec::new());
    }
    let mut out = String::with_capacity(text.len());
    let mut found: Vec<Invisible> = Vec::new();
    let mut line = 1;
    for (i, c) in text.char_indices() {
        if c == '\n' {
            line += 1;
        }
        match Invisible::of(c, line) {
            Some(_) if i == 0 && c == '\u{FEFF}' => out.push(c),
            Some(one) => match found.last_mut() {
                Some(last) if last.line == line => *last = last.and(one),
                _ => found.push(one),
            },
            None => out.push(c),
        }
    }
    (out, found)
}

/// The invisible characters dropped from the lines `from..to` of a file
/// (`to` past the last line: `None`), as one record.
pub(crate) fn invisible_within(found: &[Invisible], from: usize, to: Option<usize>) -> Option<Invisible> {
    found.iter().filter(|r| r.line >= from && to.is_none_or(|t| r.line < t)).copied().reduce(Invisible::and)
}

/// The text with the two mojibakes web pages serve most mended, when the
/// text shows either more than once: UTF-8 read as Windows-1252 (`posiciÃ³n`)
/// and accented letters shown as GBK pinyin read as Latin-1 (`posici¨®n`,
/// `Af4¨C`, as mirrors of Spanish newspapers print them). A word mended is
/// a word the reader knows (`se rindió`).
fn mended(text: String) -> String {
    let gbk = |c: char| u8::try_from(c as u32).ok().filter(|b| (0x40..=0xFE).contains(b));
    let pinyin = |c: char| -> Option<char> {
        let pair = [0xA8, gbk(c)?];
        let (s, _, bad) = encoding_rs::GBK.decode(&pair);
        let mut chars = s.chars();
        let m = chars.next().filter(|_| !bad && chars.next().is_none())?;
        match m {
            '–' | '―' => Some('–'),
            m if m.is_alphabetic() && (m as u32) < 0x250 => Some(m),
            _ => None,
        }
    };
    let pairs = text.split('¨').skip(1).filter(|rest| rest.chars().next().and_then(pinyin).is_some()).count();
    let text = if pairs >= 2 {
        let mut out = String::with_capacity(text.len());
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            match (c, chars.peek().copied().and_then(pinyin)) {
                ('¨', Some(m)) => {
                    out.push(m);
                    chars.next();
                }
                _ => out.push(c),
            }
        }
        out
    } else {
        text
    };
    let latin = text.matches(['Ã', 'Â']).count();
    if latin < 2 {
        return text;
    }
    // Back to the bytes Windows-1252 made of them; UTF-8 again when they are.
    let (bytes, _, unmappable) = encoding_rs::WINDOWS_1252.encode(&text);
    match (unmappable, std::str::from_utf8(&bytes)) {
        (false, Ok(s)) => s.to_string(),
        _ => text,
    }
}

/// The text with full-width forms (`１．ｅ４`, as Japanese and Chinese
/// keyboards type them, and the ideographic space) as their ASCII
/// characters, one for one: columns stay.
fn narrowed(text: String) -> String {
    let wide = |c: char| matches!(c, '\u{FF01}'..='\u{FF5E}' | '\u{3000}');
    if !text.contains(wide) {
        return text;
    }
    text.chars()
        .map(|c| match c {
            '\u{3000}' => ' ',
            c if wide(c) => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
            c => c,
        })
        .collect()
}

/// NUL bytes or many control characters: not something a person typed.
fn looks_binary(bytes: &[u8]) -> bool {
    let sample = &bytes[..bytes.len().min(8192)];
    let control = sample.iter().filter(|&&b| b < 0x20 && !matches!(b, b'\n' | b'\r' | b'\t' | 0x0C)).count();
    sample.contains(&0) || control * 20 > sample.len().max(1)
}

fn line_of(bytes: &[u8], offset: usize) -> usize {
    1 + bytes[..offset.min(bytes.len())].iter().filter(|&&b| b == b'\n').count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_bom_is_dropped() {
        assert_eq!(decode(b"\xEF\xBB\xBF1.e4 e5").unwrap().text, "1.e4 e5");
    }

    #[test]
    fn utf16_le_and_be_with_bom() {
        let le: Vec<u8> =
            [0xFF, 0xFE].into_iter().chain("1.e4 Cf6".encode_utf16().flat_map(u16::to_le_bytes)).collect();
        let be: Vec<u8> =
            [0xFE, 0xFF].into_iter().chain("1.e4 Cf6".encode_utf16().flat_map(u16::to_be_bytes)).collect();
        let plain = Decoded { text: "1.e4 Cf6".into(), guessed_from: None, invisible: Vec::new() };
        assert_eq!(decode(&le).unwrap(), plain);
        assert_eq!(decode(&be).unwrap(), plain);
    }

    #[test]
    fn windows_1252_when_not_utf8() {
        // "Résultat: ½-½" as typed on an old Windows machine.
        let bytes = b"R\xe9sultat: \xbd-\xbd";
        let d = decode(bytes).unwrap();
        assert_eq!((d.text.as_str(), d.guessed_from), ("Résultat: ½-½", Some(1)));
        let bytes = b"Blancas: Gonz\xc3\xa1lez\nNegras: Mu\xf1oz\n";
        assert_eq!(decode(bytes).unwrap().guessed_from, Some(2), "the line of the first byte that is not UTF-8");
        assert_eq!(decode("Blancas: González".as_bytes()).unwrap().guessed_from, None);
    }

    #[test]
    fn a_file_of_utf8_and_windows_1252_lines_keeps_each_line_in_its_own() {
        // "White: López" saved as UTF-8, "Black: Pérez" added in Windows-1252.
        let bytes = b"White: L\xc3\xb3pez\nBlack: P\xe9rez\n1.e4 e5\n";
        let d = decode(bytes).unwrap();
        assert_eq!(d.text, "White: López\nBlack: Pérez\n1.e4 e5\n");
        assert_eq!(d.guessed_from, Some(2), "the encoding of the second line was guessed");
        // The other way round, and with CRLF line ends.
        let d = decode(b"Blancas: P\xe9rez\r\nNegras: L\xc3\xb3pez Mu\xc3\xb1oz\r\n").unwrap();
        assert_eq!(d.text, "Blancas: Pérez\r\nNegras: López Muñoz\r\n");
        assert!(!d.text.contains('Ã'));
    }

    #[test]
    fn invisible_format_characters_are_dropped_and_counted_by_line() {
        let text = "\u{FEFF}Black: \u{202E}Pé\u{200D}rez\n1.e4\u{200E} e5 2.Nf3\u{00AD}\n";
        let d = decode(text.as_bytes()).unwrap();
        assert_eq!(d.text, "Black: Pérez\n1.e4 e5 2.Nf3\n", "a byte order mark is no invisible character");
        let one = Invisible { count: 1, line: 2, direction: true, ..Invisible::default() };
        assert_eq!(
            d.invisible,
            [
                Invisible { count: 2, line: 1, zero_width: true, direction: true, ..Invisible::default() },
                Invisible { count: 2, soft_hyphen: true, ..one },
            ]
        );
        assert_eq!(invisible_within(&d.invisible, 2, None).map(|r| (r.count, r.line)), Some((2, 2)));
        assert_eq!(invisible_within(&d.invisible, 1, None).map(|r| (r.count, r.line)), Some((4, 1)));
        assert_eq!(invisible_within(&d.invisible, 1, Some(2)).map(|r| r.count), Some(2));
        assert!(decode("1.e4 e5".as_bytes()).unwrap().invisible.is_empty());
        // Nothing but invisible characters is an empty file.
        assert!(matches!(decode("\u{200B}\u{200B}\n".as_bytes()), Err(IngestError::Empty)));
    }

    #[test]
    fn full_width_forms_are_read_as_ascii() {
        let d = decode("１． ｅ４　ｅ５ ２．Ｎｆ３".as_bytes()).unwrap();
        assert_eq!(d.text, "1. e4 e5 2.Nf3");
    }

    #[test]
    fn mojibake_of_web_pages_is_mended() {
        let pinyin = "C¨®mo aprovechar un error: 2 Af4¨C c5, y Galkin se rindi¨®.";
        assert_eq!(decode(pinyin.as_bytes()).unwrap().text, "Cómo aprovechar un error: 2 Af4– c5, y Galkin se rindió.");
        let latin = "posiciÃ³n ganada; las negras abandonaron despuÃ©s de 30 Cf3";
        assert_eq!(decode(latin.as_bytes()).unwrap().text, "posición ganada; las negras abandonaron después de 30 Cf3");
        // One such pair alone is left as typed: it may be what was meant.
        assert_eq!(decode("Ã la carte".as_bytes()).unwrap().text, "Ã la carte");
    }

    #[test]
    fn binary_and_empty_are_refused() {
        assert!(matches!(decode(b"\x7fELF\x02\x01\x01\0\0\0"), Err(IngestError::Binary)));
        assert!(matches!(decode(b"  \r\n\n"), Err(IngestError::Empty)));
    }
}
