//! Header keys in the languages organizers type them in, mapped to PGN tag names.
//! The keys themselves are in each language's entry of [`LANGUAGES`].

use crate::notation::{LANGUAGES, Tag};
use crate::sheet::Sheet;

/// The PGN tag a header key stands for, if it is one the reader knows.
pub(crate) fn canonical(key: &str) -> Option<&'static str> {
    Tag::from_key(key, LANGUAGES).map(Tag::name)
}

/// Whether `key` can be a header key nobody listed: a short name of letters.
pub(crate) fn plausible_key(key: &str) -> bool {
    let k = key.trim();
    k.chars().count() >= 2
        && k.chars().count() <= 30
        && k.chars().next().is_some_and(char::is_alphabetic)
        && k.chars().all(|c| c.is_alphabetic() || c == ' ' || c == '_' || c == '-')
}

/// The tag name to use for a key: the PGN name when known, else the key itself
/// with spaces removed (PGN tag names are single symbols).
pub(crate) fn tag_name(key: &str) -> String {
    canonical(key)
        .map(str::to_string)
        .unwrap_or_else(|| key.trim().split([' ', '-']).filter(|w| !w.is_empty()).map(capitalize).collect())
}

fn capitalize(w: &str) -> String {
    let mut c = w.chars();
    c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
}

/// Headers after the last game's moves and no moves after them (`Result:
/// 1-0`, then `White: Ana`) are that game's, where it writes none of them:
/// the sheet they were read into, of no moves, is no game.
pub(crate) fn footer_kept(sheets: &mut Vec<Sheet>) {
    if sheets.len() < 2 || !sheets.last().is_some_and(|s| s.entries.is_empty()) {
        return;
    }
    let footer = sheets.pop().expect("two sheets");
    let game = sheets.last_mut().expect("one left");
    if !game.entries.is_empty() {
        for (key, value) in footer.headers {
            game.set_header(&key, &value);
        }
        game.result = game.result.or(footer.result);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_of_any_language_name_their_tag() {
        assert_eq!(canonical("Blancas"), Some("White"));
        assert_eq!(canonical(" RÉSULTAT "), Some("Result"));
        assert_eq!(canonical("Scacchiera"), Some("Board"));
        assert_eq!(canonical("Nf3"), None);
    }
}
