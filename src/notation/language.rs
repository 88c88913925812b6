//! Piece letters of the languages scoresheets are written in.
//!
//! FIDE Appendix C, E2: "each player is free to use the first letter of the name
//! commonly used in his country". A letter can name different pieces in different
//! languages (R is the king in Spanish and a rook in English), so a letter only means
//! something under a [`Language`].

use shakmaty::Role;

/// A language's names for the pieces, as typed on a scoresheet.
#[derive(Debug, PartialEq, Eq)]
pub struct Language {
    /// ISO 639-1 code, reported in the output.
    pub code: &'static str,
    /// English name of the language.
    pub name: &'static str,
    /// Other names a `Language:` header may use (lowercase, without accents).
    pub aliases: &'static [&'static str],
    /// Letters for king, queen, rook, bishop, knight, in that order. Several
    /// spellings are allowed per piece (Cyrillic and its Latin look-alikes).
    pub pieces: [&'static [&'static str]; 5],
    /// Letters some writers put before a pawn move.
    pub pawn: &'static [&'static str],
}

const ROLES: [Role; 5] = [Role::King, Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

/// Every language the reader knows, most common on sheets first: when two
/// languages read a sheet equally well, the earlier one is reported.
pub static LANGUAGES: &[Language] = &[
    lang(
        "en",
        "English",
        &["english", "ingles", "anglais", "englisch", "inglese", "engels", "angielski"],
        [&["K"], &["Q"], &["R"], &["B"], &["N"]],
        &["P"],
    ),
    lang(
        "es",
        "Spanish",
        &["spanish", "espanol", "castellano", "espagnol", "spanisch", "spagnolo"],
        [&["R"], &["D"], &["T"], &["A"], &["C"]],
        &["P"],
    ),
    lang(
        "de",
        "German",
        &["german", "deutsch", "aleman", "allemand", "tedesco", "duits"],
        [&["K"], &["D"], &["T"], &["L"], &["S"]],
        &["B"],
    ),
    lang(
        "fr",
        "French",
        &["french", "francais", "frances", "franzosisch", "francese", "frans"],
        [&["R"], &["D"], &["T"], &["F"], &["C"]],
        &["P"],
    ),
    lang(
        "it",
        "Italian",
        &["italian", "italiano", "italien", "italienisch"],
        [&["R"], &["D"], &["T"], &["A"], &["C"]],
        &["P"],
    ),
    lang(
        "pt",
        "Portuguese",
        &["portuguese", "portugues", "portugais", "portugiesisch", "portoghese"],
        [&["R"], &["D"], &["T"], &["B"], &["C"]],
        &["P"],
    ),
    lang(
        "nl",
        "Dutch",
        &["dutch", "nederlands", "vlaams", "flemish", "holandes", "neerlandais", "niederlandisch"],
        [&["K"], &["D"], &["T"], &["L"], &["P"]],
        &[],
    ),
    lang(
        "pl",
        "Polish",
        &["polish", "polski", "polaco", "polonais", "polnisch"],
        [&["K"], &["H"], &["W"], &["G"], &["S"]],
        &["P"],
    ),
    lang(
        "sv",
        "Swedish",
        &["swedish", "svenska", "sueco", "suedois", "schwedisch"],
        [&["K"], &["D"], &["T"], &["L"], &["S"]],
        &["B"],
    ),
    lang(
        "da",
        "Danish",
        &["danish", "dansk", "danes", "danois", "danisch"],
        [&["K"], &["D"], &["T"], &["L"], &["S"]],
        &["B"],
    ),
    lang(
        "no",
        "Norwegian",
        &["norwegian", "norsk", "nb", "nn", "bokmal", "noruego", "norvegien"],
        [&["K"], &["D"], &["T"], &["L"], &["S"]],
        &["B"],
    ),
    lang("eo", "Esperanto", &["esperanto"], [&["R"], &["D"], &["T"], &["K"], &["Ĉ"]], &["P"]),
    lang(
        "fi",
        "Finnish",
        &["finnish", "suomi", "finlandes", "finnois"],
        [&["K"], &["D"], &["T"], &["L"], &["R"]],
        &["S"],
    ),
    lang("is", "Icelandic", &["icelandic", "islenska", "islandes"], [&["K"], &["D"], &["H"], &["B"], &["R"]], &["P"]),
    lang(
        "cs",
        "Czech",
        &["czech", "cesky", "cestina", "checo", "tcheque", "tschechisch"],
        [&["K"], &["D"], &["V"], &["S"], &["J"]],
        &["P"],
    ),
    lang(
        "sk",
        "Slovak",
        &["slovak", "slovensky", "slovencina", "eslovaco"],
        [&["K"], &["D"], &["V"], &["S"], &["J"]],
        &["P"],
    ),
    lang(
        "hu",
        "Hungarian",
        &["hungarian", "magyar", "hungaro", "hongrois", "ungarisch"],
        [&["K"], &["V"], &["B"], &["F"], &["H"]],
        &["G"],
    ),
    lang(
        "ro",
        "Romanian",
        &["romanian", "romana", "rumano", "roumain", "rumanisch"],
        [&["R"], &["D"], &["T"], &["N"], &["C"]],
        &["P"],
    ),
    lang("ca", "Catalan", &["catalan", "catala"], [&["R"], &["D"], &["T"], &["A"], &["C"]], &["P"]),
    lang(
        "hr",
        "Croatian",
        &[
            "croatian",
            "hrvatski",
            "serbian",
            "srpski",
            "sr",
            "bosnian",
            "bs",
            "slovene",
            "slovenian",
            "slovenscina",
            "sl",
            "croata",
        ],
        [&["K"], &["D"], &["T"], &["L"], &["S"]],
        &["P"],
    ),
    lang("et", "Estonian", &["estonian", "eesti", "estonio"], [&["K"], &["L"], &["V"], &["O"], &["R"]], &["E"]),
    lang("tr", "Turkish", &["turkish", "turkce", "turco", "turc"], [&["Ş"], &["V"], &["K"], &["F"], &["A"]], &["P"]),
    lang("lv", "Latvian", &["latvian", "latviesu"], [&["K"], &["D"], &["T"], &["L"], &["Z"]], &["B"]),
    lang("lt", "Lithuanian", &["lithuanian", "lietuviu"], [&["K"], &["V"], &["B"], &["R"], &["Ž"]], &["P"]),
    // Cyrillic: the king is "Кр" where "К" is the knight; typists on a Latin
    // keyboard use the look-alike Latin letters, so those are accepted too.
    lang(
        "ru",
        "Russian",
        &["russian", "russkij", "русский", "ruso", "russe", "russisch"],
        [&["Кр", "Kp", "Kr", "KP"], &["Ф", "F"], &["Л"], &["С", "C"], &["К", "K"]],
        &[],
    ),
    lang(
        "uk",
        "Ukrainian",
        &["ukrainian", "українська", "ucraniano"],
        [&["Кр", "Kp", "Kr", "KP"], &["Ф", "F"], &["Т", "T"], &["С", "C"], &["К", "K"]],
        &[],
    ),
    lang(
        "bg",
        "Bulgarian",
        &["bulgarian", "български", "bulgaro"],
        [&["Ц"], &["Д"], &["Т", "T"], &["О", "O"], &["К", "K"]],
        &[],
    ),
];

const fn lang(
    code: &'static str,
    name: &'static str,
    aliases: &'static [&'static str],
    pieces: [&'static [&'static str]; 5],
    pawn: &'static [&'static str],
) -> Language {
    Language { code, name, aliases, pieces, pawn }
}

impl Language {
    /// The language with this ISO code or name (any case, accents ignored).
    ///
    /// ```
    /// use scoresheet::notation::Language;
    /// assert_eq!(Language::find("Español").unwrap().code, "es");
    /// assert_eq!(Language::find("DE").unwrap().name, "German");
    /// assert!(Language::find("Klingon").is_none());
    /// ```
    pub fn find(name: &str) -> Option<&'static Language> {
        let key = fold(name.trim());
        LANGUAGES.iter().find(|l| l.code == key || fold(l.name) == key || l.aliases.iter().any(|a| fold(a) == key))
    }

    /// The piece a letter at the start of `s` names in this language, and the
    /// number of bytes it takes. The longest spelling wins ("Кр" before "К").
    pub fn piece_prefix(&self, s: &str) -> Option<(Role, usize)> {
        let mut best: Option<(Role, usize)> = None;
        for (role, spellings) in ROLES.iter().zip(self.pieces.iter()) {
            for sp in spellings.iter() {
                if s.starts_with(sp) && best.is_none_or(|(_, n)| sp.len() > n) {
                    best = Some((*role, sp.len()));
                }
            }
        }
        best
    }

    /// The pawn letter at the start of `s`, if this language has one there and
    /// it is not also a piece letter.
    pub fn pawn_prefix(&self, s: &str) -> Option<usize> {
        self.pawn.iter().find(|p| s.starts_with(*p) && self.piece_prefix(s).is_none()).map(|p| p.len())
    }

    /// The language's letter for a piece (its first spelling), used to show
    /// what the writer would have written.
    pub fn letter(&self, role: Role) -> &'static str {
        match role {
            Role::Pawn => "",
            _ => self.pieces[ROLES.iter().position(|r| *r == role).unwrap_or(0)][0],
        }
    }

    /// Whether this language names the pieces exactly as `other` does; such
    /// languages cannot be told apart by the moves (German and Swedish).
    pub fn same_letters(&self, other: &Language) -> bool {
        self.pieces == other.pieces
    }

    /// Whether `c` starts a piece letter in this language.
    pub fn has_letter(&self, c: char) -> bool {
        self.pieces.iter().any(|sp| sp.iter().any(|s| s.starts_with(c)))
    }
}

/// Lowercase, accents stripped: "Español" and "espanol" name the same language.
fn fold(s: &str) -> String {
    s.chars()
        .flat_map(char::to_lowercase)
        .map(|c| match c {
            'á' | 'à' | 'â' | 'ä' | 'ã' | 'å' => 'a',
            'é' | 'è' | 'ê' | 'ë' => 'e',
            'í' | 'ì' | 'î' | 'ï' => 'i',
            'ó' | 'ò' | 'ô' | 'ö' | 'õ' => 'o',
            'ú' | 'ù' | 'û' | 'ü' => 'u',
            'ç' => 'c',
            'ñ' => 'n',
            'š' => 's',
            'č' => 'c',
            'ž' => 'z',
            c => c,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn at_least_25_languages_each_with_five_distinct_piece_letters() {
        assert!(LANGUAGES.len() >= 25);
        for l in LANGUAGES {
            let firsts: Vec<_> = l.pieces.iter().map(|p| p[0]).collect();
            let mut dedup = firsts.clone();
            dedup.sort();
            dedup.dedup();
            assert_eq!(dedup.len(), 5, "{} repeats a letter", l.code);
        }
    }

    #[test]
    fn r_is_the_king_in_spanish_and_a_rook_in_english() {
        let es = Language::find("es").unwrap();
        let en = Language::find("en").unwrap();
        assert_eq!(es.piece_prefix("Re1"), Some((Role::King, 1)));
        assert_eq!(en.piece_prefix("Re1"), Some((Role::Rook, 1)));
    }

    #[test]
    fn russian_kr_is_the_king_and_k_the_knight() {
        let ru = Language::find("ru").unwrap();
        assert_eq!(ru.piece_prefix("Крg1"), Some((Role::King, 4)));
        assert_eq!(ru.piece_prefix("Кf3"), Some((Role::Knight, 2)));
        assert_eq!(ru.piece_prefix("Kpg1"), Some((Role::King, 2)));
        assert_eq!(ru.piece_prefix("Kf3"), Some((Role::Knight, 1)));
    }

    #[test]
    fn german_and_swedish_share_letters() {
        let de = Language::find("deutsch").unwrap();
        let sv = Language::find("svenska").unwrap();
        assert!(de.same_letters(sv));
        assert!(!de.same_letters(Language::find("nl").unwrap()));
    }
}
