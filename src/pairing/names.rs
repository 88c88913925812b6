//! Names as scoresheets write them ("Navara,D", "D. Navara", "NAVRA",
//! "Навара Давид") compared with a TRF's `Surname, First names`.

/// FIDE's titles, as written beside a name (`GM Carlsen`, `Hou Yifan WGM`).
const TITLES: [&str; 8] = ["GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM"];

/// FIDE's federation codes, as written beside a name (`A UKR Petrov`).
const FEDERATIONS: &[&str] = &[
    "AFG", "AHO", "ALB", "ALG", "AND", "ANG", "ANT", "ARG", "ARM", "ARU", "AUS", "AUT", "AZE", "BAH", "BAN", "BAR",
    "BDI", "BEL", "BER", "BHU", "BIH", "BIZ", "BLR", "BOL", "BOT", "BRA", "BRN", "BRU", "BUL", "BUR", "CAF", "CAM",
    "CAN", "CAY", "CHA", "CHI", "CHN", "CIV", "CMR", "COD", "COL", "COM", "CPV", "CRC", "CRO", "CUB", "CYP", "CZE",
    "DEN", "DJI", "DMA", "DOM", "ECU", "EGY", "ENG", "ERI", "ESA", "ESP", "EST", "ETH", "FAI", "FID", "FIJ", "FIN",
    "FRA", "GAB", "GAM", "GCI", "GEO", "GEQ", "GER", "GHA", "GRE", "GRN", "GUA", "GUM", "GUY", "HAI", "HKG", "HON",
    "HUN", "INA", "IND", "IOM", "IRI", "IRL", "IRQ", "ISL", "ISR", "ISV", "ITA", "IVB", "JAM", "JCI", "JOR", "JPN",
    "KAZ", "KEN", "KGZ", "KOR", "KOS", "KSA", "KUW", "LAO", "LAT", "LBA", "LBN", "LBR", "LCA", "LES", "LIE", "LTU",
    "LUX", "MAC", "MAD", "MAR", "MAS", "MAW", "MDA", "MDV", "MEX", "MGL", "MKD", "MLI", "MLT", "MNC", "MNE", "MOZ",
    "MRI", "MTN", "MYA", "NAM", "NCA", "NED", "NEP", "NGR", "NIG", "NOR", "NRU", "NZL", "OMA", "PAK", "PAN", "PAR",
    "PER", "PHI", "PLE", "PLW", "PNG", "POL", "POR", "PUR", "QAT", "ROU", "RSA", "RUS", "RWA", "SCO", "SEN", "SEY",
    "SGP", "SKN", "SLE", "SLO", "SMR", "SOL", "SOM", "SRB", "SRI", "SSD", "STP", "SUD", "SUI", "SUR", "SVK", "SWE",
    "SWZ", "SYR", "TAN", "THA", "TJK", "TKM", "TLS", "TOG", "TPE", "TTO", "TUN", "TUR", "UAE", "UGA", "UKR", "URU",
    "USA", "UZB", "VAN", "VEN", "VIE", "VIN", "WLS", "YEM", "ZAM", "ZIM", "BHR", "CGO", "GBR", "MAL", "NMI",
];

/// The name without the titles and federation codes written beside it
/// (`GM A UKR Petrov` is `A Petrov`): they are not part of the name. Each
/// counts only in capitals, and only where two words or more are left. A
/// surname may be written in capitals too (`VAN DER WIEL John`, `NIELSEN
/// PER`): a code next to another word in capitals is part of that surname,
/// and in a name all in capitals only a code at its end and a title at
/// either end count.
pub(crate) fn without_titles(name: &str) -> String {
    // Each word with the byte it starts at.
    let mut tokens: Vec<(usize, &str)> = Vec::new();
    let mut start = None;
    for (i, c) in name.char_indices().chain([(name.len(), ' ')]) {
        match (c.is_alphanumeric() && i < name.len(), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                tokens.push((s, &name[s..i]));
                start = None;
            }
            _ => {}
        }
    }
    let capitals = |t: &str| t.chars().all(|c| c.is_ascii_uppercase());
    let title = |t: &str| capitals(t) && TITLES.contains(&t);
    let code = |t: &str| capitals(t) && FEDERATIONS.contains(&t);
    // A word of a surname written in capitals.
    let surname_in_capitals =
        |t: &str| t.chars().count() >= 2 && !t.chars().any(char::is_lowercase) && !title(t) && !code(t);
    let all_capitals = tokens.iter().all(|(_, t)| !t.chars().any(char::is_lowercase));
    let last = tokens.len().saturating_sub(1);
    let dropped: Vec<bool> = tokens
        .iter()
        .enumerate()
        .map(|(i, (_, t))| {
            let beside_capitals = [i.checked_sub(1), Some(i + 1)]
                .into_iter()
                .flatten()
                .filter_map(|j| tokens.get(j))
                .any(|(_, n)| surname_in_capitals(n));
            if all_capitals {
                (title(t) && (i == 0 || i == last)) || (code(t) && i == last && i > 0)
            } else {
                title(t) || (code(t) && !beside_capitals)
            }
        })
        .collect();
    if tokens.len() - dropped.iter().filter(|&&d| d).count() < 2 {
        return name.to_string();
    }
    let mut out = name.to_string();
    for ((start, t), _) in tokens.iter().zip(&dropped).filter(|(_, d)| **d) {
        out.replace_range(*start..start + t.len(), &" ".repeat(t.len()));
    }
    out
}

/// The words of a player's name, folded as [`words`] does, without the
/// titles and federation codes written beside it ([`without_titles`]).
pub(crate) fn name_words(name: &str) -> Vec<String> {
    words(&without_titles(name))
}

/// A name folded for comparison ([`crate::fold::words`]): lower case,
/// accents and Cyrillic spelled in Latin letters, words split at anything
/// that is not a letter or digit.
pub(crate) fn words(name: &str) -> Vec<String> {
    crate::fold::words(name)
}

/// A TRF name read as (surname, given names), folded: "Surname, First" has
/// one reading. Without a comma the TRF's order is surname first ("Le Quang
/// Liem"), but a name copied from elsewhere may be "First Surname" ("Bent
/// Larsen"): both readings.
fn readings(trf_name: &str) -> Vec<(Vec<String>, Vec<String>)> {
    let trf_name = &without_titles(trf_name);
    match trf_name.split_once(',') {
        Some((s, g)) => vec![(words(s), words(g))],
        None => {
            let w = words(trf_name);
            let mut out = vec![(w[..w.len().min(1)].to_vec(), w[w.len().min(1)..].to_vec())];
            if w.len() > 1 {
                out.push((w[w.len() - 1..].to_vec(), w[..w.len() - 1].to_vec()));
            }
            out
        }
    }
}

/// The ways a sheet may write a name read as `surname` and `given` names:
/// surname and first names in both orders, with initials, and the surname
/// alone.
fn forms(surname: &[String], given: &[String]) -> Vec<String> {
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

/// A folded name as it sounds, near enough, for comparing: the letters
/// that Latin spellings and their Cyrillic transliteration write
/// differently made one (`Winter`/`Винтер`, `Hracek`/`Хракек`,
/// `Jakovenko`/`Яковенко`, `Lokvenc`/`Локвенк`). Both sides are keyed
/// alike, so the loss is only of differences.
pub(crate) fn sound(folded: &str) -> String {
    let mut s: String = folded
        .chars()
        .map(|c| match c {
            'w' => 'v',
            'c' | 'q' => 'k',
            'j' => 'y',
            c => c,
        })
        .collect();
    // After c → k: "ch" (ч) and "kh" (х) both become "h".
    s = s.replace("kh", "h");
    s
}

/// What a name written with an initial that none of a reading's given
/// names has loses against that reading: "Ivanov,A" is not "Ivanov, Igor",
/// though it is as near to the surname alone as "Ivanov, Alexander" is.
const OTHER_INITIAL: f64 = 0.1;

/// How alike a name written on a sheet is to a TRF name, from 0 to 1
/// ([`Spoken::likeness`]).
#[cfg(test)]
pub(crate) fn similarity(written: &str, trf_name: &str) -> f64 {
    Spoken::of(written).map_or(0.0, |w| w.likeness(&Heard::of(trf_name), 0.0))
}

/// How many times each letter, digit and space a folded name holds (the
/// rest counted together): how many characters two names can match at
/// most, without the cost of matching them.
#[derive(Debug, Clone)]
struct Letters([u16; 38]);

impl Letters {
    fn of(s: &str) -> Letters {
        let mut n = [0u16; 38];
        for c in s.chars() {
            let i = match c {
                'a'..='z' => c as usize - 'a' as usize,
                '0'..='9' => 26 + c as usize - '0' as usize,
                ' ' => 36,
                _ => 37,
            };
            n[i] = n[i].saturating_add(1);
        }
        Letters(n)
    }

    /// The most Jaro–Winkler can give strings of `len` characters with
    /// these letters: every common character matched, none transposed,
    /// the longest prefix.
    fn most(&self, other: &Letters, (a, b): (usize, usize)) -> f64 {
        if a == 0 || b == 0 {
            return 0.0;
        }
        let common: u32 = self.0.iter().zip(&other.0).map(|(x, y)| u32::from(*x.min(y))).sum();
        let m = f64::from(common);
        let jaro = ((m / a as f64 + m / b as f64 + 1.0) / 3.0).min(1.0);
        jaro + 0.4 * (1.0 - jaro)
    }
}

/// A string ready to be weighed: as it sounds, its length and its letters.
#[derive(Debug, Clone)]
struct Sounded {
    text: String,
    len: usize,
    letters: Letters,
}

impl Sounded {
    fn of(text: String) -> Sounded {
        Sounded { len: text.chars().count(), letters: Letters::of(&text), text }
    }

    /// Jaro–Winkler to `other`, where it may reach `floor`; else a value
    /// below `floor`, not worked out.
    fn jaro_winkler(&self, other: &Sounded, floor: f64) -> f64 {
        let most = self.letters.most(&other.letters, (self.len, other.len));
        if most < floor { most } else { strsim::jaro_winkler(&self.text, &other.text) }
    }
}

/// A name written on a sheet, made ready to be weighed against many TRF
/// names ([`Spoken::likeness`]): folded and sounded once.
pub(crate) struct Spoken {
    whole: Sounded,
    /// Without its initials (empty when it is initials only).
    bare: Sounded,
    initials: Vec<char>,
    /// Written in Latin letters: its initials say something of the given names.
    latin: bool,
}

/// A TRF name made ready to be weighed against written ones: for each
/// reading of it, its forms as they sound, and its given names' initials.
#[derive(Debug, Clone)]
pub(crate) struct Heard(Vec<(Vec<Sounded>, Vec<char>)>);

impl Heard {
    pub(crate) fn of(trf_name: &str) -> Heard {
        let reading = |(surname, given): (Vec<String>, Vec<String>)| {
            let sounded = forms(&surname, &given).iter().map(|f| Sounded::of(sound(f))).collect();
            (sounded, given.iter().filter_map(|g| g.chars().next()).collect())
        };
        Heard(readings(trf_name).into_iter().map(reading).collect())
    }
}

impl Spoken {
    /// The name written, made ready; `None` when it has no word.
    pub(crate) fn of(written: &str) -> Option<Spoken> {
        let w = name_words(written);
        if w.is_empty() {
            return None;
        }
        let long: Vec<&str> = w.iter().filter(|x| x.chars().count() > 1).map(String::as_str).collect();
        Some(Spoken {
            whole: Sounded::of(sound(&w.join(" "))),
            bare: Sounded::of(sound(&long.join(" "))),
            initials: w.iter().filter(|x| x.chars().count() == 1).filter_map(|x| x.chars().next()).collect(),
            // Initials transliterated from Cyrillic say little about the Latin ones.
            latin: !written.chars().any(|c| matches!(c, '\u{400}'..='\u{4ff}')),
        })
    }

    /// A name with no word: like no one.
    pub(crate) fn nothing() -> Spoken {
        let none = || Sounded::of(String::new());
        Spoken { whole: none(), bare: none(), initials: Vec::new(), latin: true }
    }

    /// How alike this written name is to the TRF name `trf`, from 0 to 1:
    /// Jaro–Winkler on the nearest of the TRF name's forms, the written name
    /// taken whole and without its initials; less `OTHER_INITIAL` when it
    /// gives initials and none is a given name's. Exact where it is
    /// `floor` or more; else some value below `floor` (the forms that
    /// cannot reach it are not weighed).
    pub(crate) fn likeness(&self, trf: &Heard, floor: f64) -> f64 {
        if self.whole.len == 0 {
            return 0.0;
        }
        trf.0
            .iter()
            .map(|(sounded, given_initials)| {
                let best = sounded
                    .iter()
                    .flat_map(|f| {
                        let bare = (self.bare.len > 0).then(|| self.bare.jaro_winkler(f, floor));
                        [Some(self.whole.jaro_winkler(f, floor)), bare].into_iter().flatten()
                    })
                    .fold(0.0, f64::max);
                let other = self.latin
                    && !self.initials.is_empty()
                    && !given_initials.is_empty()
                    && !self.initials.iter().any(|i| given_initials.contains(i));
                if other { best - OTHER_INITIAL } else { best }
            })
            .fold(0.0, f64::max)
    }
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
    fn a_trf_name_without_a_comma_is_read_surname_first_and_last() {
        for w in ["Liem,L", "L. Liem", "liem l", "Le Quang Liem", "Le,Q"] {
            let s = similarity(w, "Le Quang Liem");
            assert!(s >= 0.9, "{w}: {s}");
        }
        assert!(similarity("vinh b", "Bui Vinh") > 0.99);
        assert!(similarity("Larsen,B", "Bent Larsen") > 0.99);
    }

    #[test]
    fn names_in_cyrillic_match_their_latin_spelling() {
        for (w, t) in [
            ("Винтер,В", "Winter, William"),
            ("Хракек, Збынек", "Hracek, Zbynek"),
            ("Й. Локвенк", "Lokvenc, Josef"),
            ("Виллов,Й", "Willow,Jonah B"),
            ("К. Нов", "Comp Now"),
            ("Ткачиев,В", "Tkachiev, Vladislav"),
        ] {
            let s = similarity(w, t);
            assert!(s >= 0.95, "{w} ~ {t}: {s}");
        }
    }

    #[test]
    fn an_initial_of_another_given_name_is_another_player() {
        let (right, other) = (similarity("Ivanov,A", "Ivanov, Alexander"), similarity("Ivanov,A", "Ivanov, Igor"));
        assert!(right - other > 0.09, "{right} {other}");
        assert!(similarity("Ivanov", "Ivanov, Igor") > 0.99, "no initial, no conflict");
    }

    #[test]
    fn titles_and_federation_codes_are_not_part_of_a_name() {
        for (w, t) in [
            ("A UKR Petrov", "Petrov, Alexei"),
            ("S RUS Ivanova", "Ivanova, Svetlana"),
            ("GM Carlsen, Magnus", "Carlsen, Magnus"),
            ("Hou Yifan WGM", "Hou, Yifan"),
            ("Petrov, A (UKR)", "Petrov, Alexei"),
            ("PETROV A UKR", "Petrov, Alexei"),
        ] {
            let s = similarity(w, t);
            assert!(s > 0.95, "{w} ~ {t}: {s}");
        }
        assert_eq!(name_words("GM A UKR Petrov"), ["a", "petrov"]);
        // Capitals of a name's own words stay: a Per, a Can, a Kim.
        assert_eq!(name_words("NIELSEN PER"), ["nielsen", "per"]);
        assert_eq!(name_words("Can, Emre"), ["can", "emre"]);
        assert_eq!(name_words("Gm Ivanov"), ["gm", "ivanov"]);
        assert_eq!(name_words("O’Kelly ‘IRL’ A"), ["o", "kelly", "a"]);
        // A surname in capitals keeps a word that is also a code (Vanuatu).
        assert_eq!(name_words("VAN DER WIEL John TH"), ["van", "der", "wiel", "john", "th"]);
        assert_eq!(name_words("VAN DER WIEL JOHN"), ["van", "der", "wiel", "john"]);
        assert_eq!(name_words("CARLSEN Magnus NOR"), ["carlsen", "magnus"]);
    }

    #[test]
    fn other_players_do_not() {
        for (w, t) in [("Navara,D", "Nakamura, Hikaru"), ("Carlsen", "Caruana, Fabiano"), ("So,W", "Giri, Anish")] {
            let s = similarity(w, t);
            assert!(s < 0.85, "{w} ~ {t}: {s}");
        }
    }
}
