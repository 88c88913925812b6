//! Names and words folded for comparison: what a sheet, a TRF and the other
//! copy write of one name (`Ñandú`, `Nandu`; `Карякин`, `Karyakin`) folds
//! alike. The letters come from `any_ascii`, which writes Cyrillic as FIDE's
//! rating list does (`Karyakin Sergey`, `Nepomnyashchiy`, `Yan`).

/// The words of `s` folded: lower-case ASCII letters and digits, each letter
/// spelled in Latin (`Łódź` is `lodz`, `Straße` `strasse`, `Işık` `isik`),
/// split at anything else (`O'Kelly` is `o kelly`, `Vachier-Lagrave`
/// `vachier lagrave`).
pub(crate) fn words(s: &str) -> Vec<String> {
    let mut folded = String::with_capacity(s.len());
    for c in s.chars() {
        if c.is_ascii() {
            folded.push(if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { ' ' });
            continue;
        }
        let latin = any_ascii::any_ascii_char(c);
        if c.is_alphanumeric() {
            // A letter is letters: the marks its spelling has (`'` for the
            // soft sign `ь`, the Georgian ejective `კ`, the Ukrainian `ʼ`)
            // would split the word.
            folded.extend(latin.chars().filter(char::is_ascii_alphanumeric).map(|c| c.to_ascii_lowercase()));
        } else if !latin.is_empty() {
            // A symbol (`♔`, `😀`) is no part of a name; a combining accent
            // (no spelling) is part of its letter.
            folded.push(' ');
        }
    }
    folded.split_whitespace().map(str::to_string).collect()
}

/// `s` folded as one key, its words joined by a space: `Español` and
/// `espanol` name the same language.
pub(crate) fn key(s: &str) -> String {
    words(s).join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_in_latin_letters_fold_to_their_plain_letters() {
        assert_eq!(key("Română"), "romana");
        assert_eq!(key("Lietuvių"), "lietuviu");
        assert_eq!(key("Ærø"), "aero");
        assert_eq!(key("Łódź"), "lodz");
        assert_eq!(key("Straße"), "strasse");
        assert_eq!(key("Đukić, Þór"), "dukic thor");
    }

    #[test]
    fn turkish_dotless_and_dotted_i_are_both_i() {
        assert_eq!(key("Işık"), "isik");
        // `İ` lower-cased by Unicode is `i` and a combining dot: no word break.
        assert_eq!(key("İnan"), "inan");
    }

    #[test]
    fn cyrillic_is_spelled_as_fides_list_spells_it() {
        assert_eq!(key("Карякин Сергей"), "karyakin sergey");
        assert_eq!(key("Непомнящий Ян"), "nepomnyashchiy yan");
        assert_eq!(key("Тер-Петросян"), "ter petrosyan");
        assert_eq!(key("Фёдоров"), "fedorov");
        // The soft and hard signs are dropped, not a break between words.
        assert_eq!(key("Ильин"), "ilin");
        assert_eq!(key("Объедков"), "obedkov");
    }

    #[test]
    fn a_letter_and_its_combining_accent_fold_as_the_letter() {
        assert_eq!(key("Jose\u{301} Mari\u{301}a"), key("José María"));
        assert_eq!(key("José María"), "jose maria");
    }

    #[test]
    fn a_letter_spelled_with_a_mark_stays_one_word() {
        assert_eq!(words("კობალია"), ["kobalia"]);
        assert_eq!(words("Мар\u{2bc}яна"), ["maryana"]);
    }

    #[test]
    fn symbols_are_no_part_of_a_name() {
        assert_eq!(words("♔Kasparov 😀"), ["kasparov"]);
    }

    #[test]
    fn anything_but_letters_and_digits_splits_words() {
        assert_eq!(words("O'Kelly de Galway"), ["o", "kelly", "de", "galway"]);
        assert_eq!(words("Vachier-Lagrave,M."), ["vachier", "lagrave", "m"]);
        assert_eq!(words("O’Brien 2"), ["o", "brien", "2"]);
        assert!(words(" - , ").is_empty());
    }
}
