//! Output names from a game's headers: `<round>-<board>-<white>-<black>`,
//! made safe to use as one file name whatever a header says.

use std::ffi::{OsStr, OsString};

/// Longest part taken from one header, in characters and in bytes.
const MAX_PART: usize = 40;
const MAX_PART_BYTES: usize = 60;
/// Longest file name most file systems take, in bytes.
const MAX_NAME_BYTES: usize = 255;

/// A header value as one safe part of a file name: letters and digits kept
/// (any script), everything else (path separators, `..`, control characters,
/// spaces, punctuation) folded into single `_`, no leading or trailing `_` or
/// `.`, at most 40 characters. Empty when nothing usable is left.
pub(crate) fn part(value: &str) -> String {
    let mut out = String::with_capacity(value.len().min(MAX_PART));
    let mut n = 0;
    for c in value.chars() {
        if n == MAX_PART || out.len() + c.len_utf8() > MAX_PART_BYTES {
            break;
        }
        let c = if c.is_alphanumeric() {
            c
        } else if c == '.' && !out.ends_with(['.', '_']) {
            '.'
        } else {
            '_'
        };
        if (c == '_' || c == '.') && (out.is_empty() || out.ends_with(['_', '.'])) {
            continue;
        }
        out.push(c);
        n += 1;
    }
    out.trim_end_matches(['_', '.']).to_string()
}

/// `<stem><ext>`, or `<stem>-<k><ext>` for the k-th of several files of one
/// name, the stem shortened (at a character boundary) to fit in a file name.
pub(crate) fn numbered(stem: &str, ext: &str, k: usize) -> String {
    let suffix = if k == 1 { String::new() } else { format!("-{k}") };
    let mut end = stem.len().min(MAX_NAME_BYTES.saturating_sub(suffix.len() + ext.len()));
    while !stem.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}{suffix}{ext}", &stem[..end])
}

/// Longest part of a hashed folder name taken from the value itself.
const FOLDER_PREFIX: usize = 32;

/// A folder name for a whole header value (an event, a round): the value
/// itself when it is already a safe part (`Open`, `4.1`), else a safe prefix
/// and a hash of the whole value (`Sitges_Open_A-3f9c01ab`). The two kinds
/// never meet (only the second has a `-`), and no truncation makes two values
/// share a folder. `fallback` names a value with nothing usable in it.
pub(crate) fn folder(value: &str, fallback: &str) -> String {
    let safe = part(value);
    if safe == value {
        return safe;
    }
    // FNV-1a: stable across builds and platforms, unlike std's hasher.
    let h = value.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3));
    let prefix: String = safe.chars().take(FOLDER_PREFIX).collect();
    let prefix = match prefix.trim_end_matches(['_', '.']) {
        "" => fallback,
        p => p,
    };
    format!("{prefix}-{:08x}", (h ^ (h >> 32)) as u32)
}

/// A file name as stem and extension (`mesa.txt`: `mesa`, `.txt`); a name
/// with no dot past its first character has no extension.
pub(crate) fn split_ext(name: &str) -> (String, String) {
    match name.rfind('.') {
        Some(i) if i > 0 => (name[..i].to_string(), name[i..].to_string()),
        _ => (name.to_string(), String::new()),
    }
}

/// The k-th free name for a file dropped as `name`, whatever its bytes:
/// `mesa.txt`, `mesa-2.txt` ... (a name that is not UTF-8 is cut at its last
/// `.` byte alike, and not shortened).
pub(crate) fn numbered_os(name: &OsStr, k: usize) -> OsString {
    use std::os::unix::ffi::{OsStrExt, OsStringExt};
    if k == 1 {
        return name.to_os_string();
    }
    if let Some(name) = name.to_str() {
        let (stem, ext) = split_ext(name);
        return numbered(&stem, &ext, k).into();
    }
    let bytes = name.as_bytes();
    let cut = match bytes.iter().rposition(|&b| b == b'.') {
        Some(i) if i > 0 => i,
        _ => bytes.len(),
    };
    let mut out = bytes[..cut].to_vec();
    out.extend_from_slice(format!("-{k}").as_bytes());
    out.extend_from_slice(&bytes[cut..]);
    OsString::from_vec(out)
}

/// The name (without extension) for game `index` of `count` in a file whose
/// stem is `stem`: `<round>-<board>-<white>-<black>` when both players are
/// named (round and board when given), else the stem (`<stem>-<n>` for one of
/// several games).
pub(crate) fn game_name<'a>(tag: impl Fn(&str) -> Option<&'a str>, stem: &str, index: usize, count: usize) -> String {
    let get = |k: &str| tag(k).map(part).filter(|v| !v.is_empty());
    if let (Some(white), Some(black)) = (get("White"), get("Black")) {
        let mut parts: Vec<String> = Vec::with_capacity(4);
        // `Round 3.1` is round 3, board 1, as in the round files.
        let (round, board) = tag("Round").map(round_and_board).map_or((None, None), |(r, b)| (Some(r), b));
        parts.extend(round.map(part).filter(|v| !v.is_empty()));
        parts.extend(get("Board").or_else(|| board.map(part).filter(|v| !v.is_empty())));
        parts.push(white);
        parts.push(black);
        return parts.join("-");
    }
    let stem = match part(stem) {
        s if s.is_empty() => "sheet".to_string(),
        s => s,
    };
    if count > 1 { format!("{stem}-{}", index + 1) } else { stem }
}

/// Whether a file dropped into the inbox is a decision.
pub(crate) fn is_decision_file(name: &str) -> bool {
    name.ends_with(".decision.yaml") || name.ends_with(".decision.yml")
}

/// A `Round` tag's round and board: `3.1` is round 3, board 1 (both
/// numbers); any other is the round alone.
pub(crate) fn round_and_board(round: &str) -> (&str, Option<&str>) {
    let numeric = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    match round.trim().split_once('.') {
        Some((r, b)) if numeric(r.trim()) && numeric(b.trim()) => (r.trim(), Some(b.trim())),
        _ => (round.trim(), None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_part_keeps_letters_digits_and_single_separators() {
        assert_eq!(part("../../etc/passwd"), "etc_passwd");
        assert_eq!(part("Carlsen, Magnus"), "Carlsen_Magnus");
        assert_eq!(part("Pérez\u{0}\n"), "Pérez");
        assert_eq!(part("?"), "");
    }

    #[test]
    fn a_numbered_name_stays_within_the_limit() {
        assert_eq!(numbered("mesa.txt", ".error.txt", 2), "mesa.txt-2.error.txt");
        assert_eq!(numbered(&"é".repeat(200), ".pgn", 1).len(), 254);
        assert_eq!(numbered_os(OsStr::new("mesa.txt"), 2), "mesa-2.txt");
        assert_eq!(numbered_os(OsStr::new("README"), 3), "README-3");
        assert_eq!(numbered_os(OsStr::new("mesa.txt"), 1), "mesa.txt");
    }

    #[test]
    fn a_folder_is_named_by_the_whole_value() {
        assert_eq!(folder("Open", "event"), "Open");
        let long = "Campeonato Internacional de Ajedrez Sitges Open";
        let (a, b) = (folder(&format!("{long} A"), "event"), folder(&format!("{long} B"), "event"));
        assert_ne!(a, b);
        assert!(a.starts_with("Campeonato_Internacional_de_Ajed-") && a.len() < 50, "{a}");
        assert_ne!(folder("Open A", "event"), folder("Open_A", "event"));
        assert!(folder("../..", "event").starts_with("event-"));
    }

    #[test]
    fn a_game_is_named_by_round_board_and_players() {
        let tags = |k: &str| match k {
            "Round" => Some("3"),
            "Board" => Some("12"),
            "White" => Some("Pérez, Ana"),
            "Black" => Some("../../etc/passwd"),
            _ => None,
        };
        assert_eq!(game_name(tags, "sheet", 0, 1), "3-12-Pérez_Ana-etc_passwd");
        assert_eq!(game_name(|_| None, "sheet", 1, 2), "sheet-2");
        // `Round: 3.12` written on a sheet: round 3, board 12, as in the round file.
        let dotted = |k: &str| match k {
            "Round" => Some("3.12"),
            "White" => Some("Pérez, Ana"),
            "Black" => Some("Ruiz"),
            _ => None,
        };
        assert_eq!(game_name(dotted, "sheet", 0, 1), "3-12-Pérez_Ana-Ruiz");
    }

    #[test]
    fn no_header_can_name_a_path_outside_the_folder() {
        for evil in ["../../etc/passwd", "..", ".", "/", "a/../../b", "C:\\Windows\\system32", ".hidden", "..\\..\\x"] {
            let p = part(evil);
            assert!(!p.contains(['/', '\\']) && !p.contains("..") && !p.starts_with('.'), "{evil} -> {p}");
        }
    }

    #[test]
    fn long_and_control_filled_headers_are_bounded() {
        let p = part(&"x\u{7}".repeat(500));
        assert!(p.chars().count() <= MAX_PART && !p.chars().any(char::is_control), "{p}");
    }

    #[test]
    fn unknown_tags_fall_back_to_the_stem() {
        let tags = |k: &str| match k {
            "White" => Some("?"),
            "Black" => Some("Kasparov"),
            _ => None,
        };
        assert_eq!(game_name(tags, "mesa 4.txt", 0, 1), "mesa_4.txt");
        assert_eq!(game_name(|_| None, "...", 0, 1), "sheet");
    }
}
