//! Names as scoresheets write them ("Navara,D", "D. Navara", "NAVRA",
//! "Навара Давид") compared with a TRF's `Surname, First names`.

/// A name folded for comparison: lower case, accents and Cyrillic spelled in
/// Latin letters, words split at anything that is not a letter or digit.
pub fn words(name: &str) -> Vec<String> {
    let mut folded = String::with_capacity(name.len());
    for c in name.chars().flat_map(char::to_lowercase) {
        match fold(c) {
            Some(s) => folded.push_str(s),
            None if c.is_alphanumeric() => folded.push(c),
            None => folded.push(' '),
        }
    }
    folded.split_whitespace().map(str::to_string).collect()
}

/// The Latin spelling of a lower-case letter with an accent, or of a
/// Cyrillic one (the transliteration FIDE's rating list uses, near enough).
fn fold(c: char) -> Option<&'static str> {
    Some(match c {
        'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' | 'ā' | 'ă' | 'ą' => "a",
        'æ' => "ae",
        'ç' | 'ć' | 'č' => "c",
        'ď' | 'đ' => "d",
        'è' | 'é' | 'ê' | 'ë' | 'ě' | 'ē' | 'ę' => "e",
        'ğ' => "g",
        'ì' | 'í' | 'î' | 'ï' | 'ī' | 'ı' => "i",
        'ł' | 'ľ' | 'ĺ' => "l",
        'ñ' | 'ń' | 'ň' => "n",
        'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' | 'ō' | 'ő' => "o",
        'œ' => "oe",
        'ř' | 'ŕ' => "r",
        'ś' | 'š' | 'ş' | 'ș' => "s",
        'ß' => "ss",
        'ť' | 'ţ' | 'ț' => "t",
        'ù' | 'ú' | 'û' | 'ü' | 'ů' | 'ū' | 'ű' => "u",
        'ý' | 'ÿ' => "y",
        'ź' | 'ž' | 'ż' => "z",
        'а' => "a",
        'б' => "b",
        'в' => "v",
        'г' => "g",
        'д' => "d",
        'е' | 'ё' | 'э' => "e",
        'ж' => "zh",
        'з' => "z",
        'и' => "i",
        'й' | 'ы' => "y",
        'к' => "k",
        'л' => "l",
        'м' => "m",
        'н' => "n",
        'о' => "o",
        'п' => "p",
        'р' => "r",
        'с' => "s",
        'т' => "t",
        'у' => "u",
        'ф' => "f",
        'х' => "kh",
        'ц' => "ts",
        'ч' => "ch",
        'ш' => "sh",
        'щ' => "shch",
        'ъ' | 'ь' => "",
        'ю' => "yu",
        'я' => "ya",
        // Apostrophes and hyphens join a name's parts: "O'Kelly", "Vachier-Lagrave".
        '\'' | '’' | '-' => " ",
        _ => return None,
    })
}

/// The ways a sheet may write a TRF name, folded: surname and first names
/// in both orders, with initials, and the surname alone.
fn forms(trf_name: &str) -> Vec<String> {
    let (surname, given) = match trf_name.split_once(',') {
        Some((s, g)) => (words(s), words(g)),
        // Without a comma the TRF's order is still surname first.
        None => {
            let w = words(trf_name);
            let (s, g) = w.split_at(w.len().min(1));
            (s.to_vec(), g.to_vec())
        }
    };
    let s = surname.join(" ");
    let mut out = vec![s.clone()];
    if !given.is_empty() {
        let g = given.join(" ");
        let initials: String =
            given.iter().filter_map(|w| w.chars().next()).map(String::from).collect::<Vec<_>>().join(" ");
        let first = given[0].chars().next().map(String::from).unwrap_or_default();
        out.extend([
            format!("{s} {g}"),
            format!("{g} {s}"),
            format!("{s} {initials}"),
            format!("{initials} {s}"),
            format!("{s} {first}"),
            format!("{first} {s}"),
        ]);
    }
    out
}

/// How alike a name written on a sheet is to a TRF name, from 0 to 1
/// (Jaro–Winkler on the nearest of the TRF name's forms).
pub fn similarity(written: &str, trf_name: &str) -> f64 {
    let w = words(written).join(" ");
    if w.is_empty() {
        return 0.0;
    }
    forms(trf_name).iter().map(|f| strsim::jaro_winkler(&w, f)).fold(0.0, f64::max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ways_a_sheet_writes_a_name_match_it() {
        for w in ["Navara,D", "D. Navara", "NAVARA David", "David Navara", "Navra", "navara", "Навара Давид"]
        {
            let s = similarity(w, "Navara, David");
            assert!(s >= 0.9, "{w}: {s}");
        }
        assert!(similarity("Vachier-Lagrave,M", "Vachier-Lagrave, Maxime") > 0.99);
        assert!(similarity("Hernández", "Hernandez, Elvis") > 0.99);
    }

    #[test]
    fn other_players_do_not() {
        for (w, t) in [("Navara,D", "Nakamura, Hikaru"), ("Carlsen", "Caruana, Fabiano"), ("So,W", "Giri, Anish")] {
            let s = similarity(w, t);
            assert!(s < 0.85, "{w} ~ {t}: {s}");
        }
    }
}
