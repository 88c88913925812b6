//! The languages scoresheets are written in: each one's piece letters, header
//! keys, words for a draw and keys for the moves, in one table entry.
//!
//! FIDE Appendix C, E2: "each player is free to use the first letter of the name
//! commonly used in his country". A letter can name different pieces in different
//! languages (R is the king in Spanish and a rook in English), so a letter only means
//! something under a [`Language`]. Header keys and the words for a draw are read
//! in every language at once: the header is read before the language is known.
//!
//! Adding a language is adding one entry to [`LANGUAGES`]; the tests of this
//! module check that its letters are distinct and that its keys agree with
//! every other language's.

use shakmaty::Role;

/// A language's names for the pieces, the header keys its organizers type, and
/// its words for a drawn game, as written on a scoresheet.
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
    /// Header keys in this language, under the tag each stands for: lowercase,
    /// the usual spelling first, then others (without accents, plural).
    /// A tag's own name ("white", "timecontrol") is a key in every language and
    /// is not listed; a word two languages share is listed in both.
    pub headers: &'static [(Tag, &'static [&'static str])],
    /// Words for a drawn game, written as the result (lowercase).
    pub draws: &'static [&'static str],
    /// Castling in words, each form a whole word (`castles`, `enroque`,
    /// `Rochade`, `rošádu`), lowercase: never a prefix, which would take
    /// `roku` (Polish "year"), `Castro` or `Rocha` for castling.
    pub castling: &'static [&'static str],
    /// Keys a YAML form puts the moves under (lowercase).
    pub move_keys: &'static [&'static str],
    /// Words saying a player gave the game up (`resigns`, `aufgegeben`,
    /// `сдались`, or up to three: `gaf het op`), lowercase.
    pub resigns: &'static [&'static str],
    /// Words naming White and Black as the side that did something (`Las
    /// negras abandonan`, `Белые сдались`), lowercase.
    pub sides: [&'static [&'static str]; 2],
    /// Articles before the word for a side (`the`, `las`), lowercase.
    pub articles: &'static [&'static str],
    /// Words that make a resignation only talked about (`could`, `hätte`,
    /// `не`), lowercase.
    pub hedges: &'static [&'static str],
    /// Endings glued to a move with a dash, as the language's grammar puts
    /// them (Hungarian `Fd3-ra`, `Hc6!-tal`): taken off, lowercase.
    pub endings: &'static [&'static str],
    /// Words that join a last clause to the last move (Slovak `… Vf8-f1+ a
    /// mat.`): a note from there, never a move, lowercase.
    pub joiners: &'static [&'static str],
}

/// The PGN tags a header key can stand for. Their names are the keys every
/// language accepts, in any case: the one list shared by all languages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tag {
    Event,
    Site,
    Date,
    Round,
    Board,
    White,
    Black,
    Result,
    Language,
    WhiteElo,
    BlackElo,
    TimeControl,
    Eco,
    Annotator,
}

impl Tag {
    /// Every tag, in the order of the PGN standard's roster and then the others.
    pub const ALL: [Tag; 14] = [
        Tag::Event,
        Tag::Site,
        Tag::Date,
        Tag::Round,
        Tag::Board,
        Tag::White,
        Tag::Black,
        Tag::Result,
        Tag::Language,
        Tag::WhiteElo,
        Tag::BlackElo,
        Tag::TimeControl,
        Tag::Eco,
        Tag::Annotator,
    ];

    /// The PGN tag name.
    pub fn name(self) -> &'static str {
        match self {
            Tag::Event => "Event",
            Tag::Site => "Site",
            Tag::Date => "Date",
            Tag::Round => "Round",
            Tag::Board => "Board",
            Tag::White => "White",
            Tag::Black => "Black",
            Tag::Result => "Result",
            Tag::Language => "Language",
            Tag::WhiteElo => "WhiteElo",
            Tag::BlackElo => "BlackElo",
            Tag::TimeControl => "TimeControl",
            Tag::Eco => "ECO",
            Tag::Annotator => "Annotator",
        }
    }

    /// The tag a header key stands for in any of `languages` (any case,
    /// surrounding spaces ignored): its own name, or a key a language lists.
    /// No key stands for two tags (a test checks it), so the order of the
    /// languages does not matter.
    ///
    /// ```
    /// use scoresheet::notation::{LANGUAGES, Tag};
    /// assert_eq!(Tag::from_key(" Blancas ", LANGUAGES), Some(Tag::White));
    /// assert_eq!(Tag::from_key("TIMECONTROL", LANGUAGES), Some(Tag::TimeControl));
    /// assert_eq!(Tag::from_key("Nf3", LANGUAGES), None);
    /// ```
    pub fn from_key(key: &str, languages: &[Language]) -> Option<Tag> {
        let k = key.trim().to_lowercase();
        // `k` has no ASCII capital left: comparing without ASCII case is
        // comparing with the lowercase name.
        Tag::ALL
            .into_iter()
            .find(|t| t.name().eq_ignore_ascii_case(&k))
            .or_else(|| languages.iter().find_map(|l| l.header_tag(&k)))
    }
}

const ROLES: [Role; 5] = [Role::King, Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

/// Every language the reader knows, most common on sheets first: when two
/// languages read a sheet equally well, the earlier one is reported.
pub static LANGUAGES: &[Language] = &[
    Language {
        code: "en",
        name: "English",
        aliases: &["english", "ingles", "anglais", "englisch", "inglese", "engels", "angielski"],
        pieces: [&["K"], &["Q"], &["R"], &["B"], &["N"]],
        pawn: &["P"],
        headers: &[
            (Tag::Event, &["tournament", "competition"]),
            (Tag::Site, &["place", "city"]),
            (Tag::Round, &["rd", "rnd"]),
            (Tag::Board, &["table"]),
            (Tag::Result, &["score"]),
            (Tag::Language, &["lang"]),
            (Tag::WhiteElo, &["white elo"]),
            (Tag::BlackElo, &["black elo"]),
            (Tag::TimeControl, &["time control"]),
        ],
        draws: &["draw"],
        castling: &["castles", "castle", "castled", "castling"],
        resigns: &["resigns", "resigned", "surrenders", "surrendered"],
        sides: [&["white"], &["black"]],
        articles: &["the"],
        hedges: &["could", "would", "should", "might", "can", "may", "not", "if"],
        move_keys: &["moves", "game"],
        endings: &[],
        joiners: &[],
    },
    Language {
        code: "es",
        name: "Spanish",
        aliases: &["spanish", "espanol", "castellano", "espagnol", "spanisch", "spagnolo"],
        pieces: [&["R"], &["D"], &["T"], &["A"], &["C"]],
        pawn: &["P"],
        headers: &[
            (Tag::Event, &["torneo", "competición", "competicion", "evento"]),
            (Tag::Site, &["lugar", "ciudad", "sede"]),
            (Tag::Date, &["fecha"]),
            (Tag::Round, &["ronda"]),
            (Tag::Board, &["mesa", "tablero"]),
            (Tag::White, &["blancas", "blanco"]),
            (Tag::Black, &["negras", "negro"]),
            (Tag::Result, &["resultado"]),
            (Tag::Language, &["idioma"]),
            (Tag::WhiteElo, &["elo blancas"]),
            (Tag::BlackElo, &["elo negras"]),
            (Tag::TimeControl, &["ritmo"]),
        ],
        draws: &["tablas", "tabla", "empate"],
        castling: &["enroque", "enroca", "enroco", "enroqué", "enrocó", "enrocan", "enroques"],
        resigns: &[
            "abandona",
            "abandonan",
            "abandonó",
            "abandonaron",
            "rinde",
            "rinden",
            "rindió",
            "rindieron",
            "se rinde",
            "se rinden",
            "se rindió",
            "se rindieron",
        ],
        sides: [&["blancas", "blanco", "blancos"], &["negras", "negro", "negros"]],
        articles: &["las", "los"],
        hedges: &["podría", "pudo", "no", "si"],
        move_keys: &["movimientos", "jugadas", "partida"],
        endings: &[],
        joiners: &[],
    },
    Language {
        code: "de",
        name: "German",
        aliases: &["german", "deutsch", "aleman", "allemand", "tedesco", "duits"],
        pieces: [&["K"], &["D"], &["T"], &["L"], &["S"]],
        pawn: &["B"],
        headers: &[
            (Tag::Event, &["turnier", "wettkampf"]),
            (Tag::Site, &["ort", "stadt"]),
            (Tag::Date, &["datum"]),
            (Tag::Round, &["runde"]),
            (Tag::Board, &["brett"]),
            (Tag::White, &["weiss", "weiß"]),
            (Tag::Black, &["schwarz"]),
            (Tag::Result, &["ergebnis"]),
            (Tag::Language, &["sprache"]),
            (Tag::WhiteElo, &["elo weiss"]),
            (Tag::BlackElo, &["elo schwarz"]),
            (Tag::TimeControl, &["bedenkzeit"]),
        ],
        draws: &["remis"],
        castling: &["rochade", "rochiert", "rochieren"],
        resigns: &["aufgegeben", "aufgabe", "gab auf", "gibt auf", "gaben auf", "geben auf", "gab … auf", "gibt … auf"],
        sides: [&["weiß", "weiss"], &["schwarz"]],
        articles: &["die"],
        hedges: &["hätte", "wäre", "nicht"],
        move_keys: &["züge", "zuge"],
        endings: &[],
        joiners: &[],
    },
    Language {
        code: "fr",
        name: "French",
        aliases: &["french", "francais", "frances", "franzosisch", "francese", "frans"],
        pieces: [&["R"], &["D"], &["T"], &["F"], &["C"]],
        pawn: &["P"],
        headers: &[
            (Tag::Event, &["tournoi"]),
            (Tag::Site, &["lieu", "ville"]),
            (Tag::Round, &["ronde"]),
            (Tag::Board, &["échiquier", "echiquier", "table"]),
            (Tag::White, &["blancs", "blanc"]),
            (Tag::Black, &["noirs", "noir"]),
            (Tag::Result, &["résultat", "resultat"]),
            (Tag::Language, &["langue"]),
            (Tag::WhiteElo, &["elo blancs"]),
            (Tag::BlackElo, &["elo noirs"]),
            (Tag::TimeControl, &["cadence"]),
        ],
        draws: &["nulle", "partie nulle", "remise"],
        castling: &["roque", "roquer", "roqué", "roques"],
        resigns: &["abandonne", "abandonnent", "abandon"],
        sides: [&["blancs", "blanc"], &["noirs", "noir"]],
        articles: &["les"],
        hedges: &["aurait", "pas"],
        move_keys: &["coups"],
        endings: &[],
        joiners: &[],
    },
    Language {
        code: "it",
        name: "Italian",
        aliases: &["italian", "italiano", "italien", "italienisch"],
        pieces: [&["R"], &["D"], &["T"], &["A"], &["C"]],
        pawn: &["P"],
        headers: &[
            (Tag::Event, &["torneo", "evento"]),
            (Tag::Site, &["luogo", "sede"]),
            (Tag::Date, &["data"]),
            (Tag::Round, &["turno"]),
            (Tag::Board, &["scacchiera", "tavolo"]),
            (Tag::White, &["bianco", "bianchi"]),
            (Tag::Black, &["nero", "neri"]),
            (Tag::Result, &["risultato"]),
            (Tag::Language, &["lingua"]),
            (Tag::TimeControl, &["ritmo"]),
        ],
        draws: &["patta", "pareggio"],
        castling: &[],
        resigns: &["abbandona", "abbandonano", "abbandonato", "arrende", "arrendono"],
        sides: [&["bianco", "bianchi"], &["nero", "neri"]],
        articles: &["il", "i"],
        hedges: &["avrebbe", "non"],
        move_keys: &["mosse"],
        endings: &[],
        joiners: &[],
    },
    Language {
        code: "pt",
        name: "Portuguese",
        aliases: &["portuguese", "portugues", "portugais", "portugiesisch", "portoghese"],
        pieces: [&["R"], &["D"], &["T"], &["B"], &["C"]],
        pawn: &["P"],
        headers: &[
            (Tag::Event, &["torneio", "evento"]),
            (Tag::Site, &["local", "lugar", "sede"]),
            (Tag::Date, &["data"]),
            (Tag::Round, &["rodada"]),
            (Tag::Board, &["tabuleiro", "mesa"]),
            (Tag::White, &["brancas", "branco"]),
            (Tag::Black, &["pretas", "preto"]),
            (Tag::Result, &["resultado"]),
            (Tag::Language, &["idioma"]),
            (Tag::TimeControl, &["ritmo"]),
        ],
        draws: &["empate"],
        castling: &["roque", "roques"],
        resigns: &["abandona", "abandonam", "abandonaram", "desiste", "desistem"],
        sides: [&["brancas", "branco"], &["pretas", "negras"]],
        articles: &["as", "os"],
        hedges: &[],
        move_keys: &["lances", "partida"],
        endings: &[],
        joiners: &[],
    },
    Language {
        code: "nl",
        name: "Dutch",
        aliases: &["dutch", "nederlands", "vlaams", "flemish", "holandes", "neerlandais", "niederlandisch"],
        pieces: [&["K"], &["D"], &["T"], &["L"], &["P"]],
        pawn: &[],
        headers: &[
            (Tag::Event, &["toernooi"]),
            (Tag::Site, &["plaats"]),
            (Tag::Date, &["datum"]),
            (Tag::Round, &["ronde"]),
            (Tag::Board, &["bord"]),
            (Tag::White, &["wit"]),
            (Tag::Black, &["zwart"]),
            (Tag::Result, &["uitslag"]),
            (Tag::Language, &["taal"]),
        ],
        draws: &["remise"],
        castling: &["rokade", "rokeert", "rokeren"],
        resigns: &[
            "opgegeven",
            "opgave",
            "gaf op",
            "geeft op",
            "gaven op",
            "geven op",
            "gaf het op",
            "geeft het op",
            "gaf … op",
            "geeft … op",
        ],
        sides: [&["wit"], &["zwart"]],
        articles: &[],
        hedges: &["kan", "kon", "zou", "niet"],
        move_keys: &["zetten"],
        endings: &[],
        joiners: &[],
    },
    Language {
        code: "pl",
        name: "Polish",
        aliases: &["polish", "polski", "polaco", "polonais", "polnisch"],
        pieces: [&["K"], &["H"], &["W"], &["G"], &["S"]],
        pawn: &["P"],
        headers: &[
            (Tag::Event, &["turniej"]),
            (Tag::Site, &["miejsce"]),
            (Tag::Date, &["data"]),
            (Tag::Round, &["runda"]),
            (Tag::Board, &["stol"]),
            (Tag::White, &["białe", "biale"]),
            (Tag::Black, &["czarne"]),
            (Tag::Result, &["wynik"]),
            (Tag::Language, &["język", "jezyk"]),
        ],
        draws: &["remis"],
        castling: &["roszada", "roszady", "roszadę", "roszadą", "roszadzie"],
        resigns: &["poddały", "poddał", "poddaje", "poddają"],
        sides: [&["białe", "biale"], &["czarne"]],
        articles: &[],
        hedges: &[],
        move_keys: &[],
        endings: &[],
        joiners: &["i"],
    },
    Language {
        code: "sv",
        name: "Swedish",
        aliases: &["swedish", "svenska", "sueco", "suedois", "schwedisch"],
        pieces: [&["K"], &["D"], &["T"], &["L"], &["S"]],
        pawn: &["B"],
        headers: &[
            (Tag::Date, &["datum"]),
            (Tag::Board, &["bord"]),
            (Tag::White, &["vit"]),
            (Tag::Black, &["svart"]),
            (Tag::Result, &["resultat"]),
            (Tag::Language, &["språk"]),
        ],
        draws: &["remi"],
        castling: &[],
        resigns: &["uppgav", "uppger", "uppg", "gav upp", "ger upp", "gav … upp"],
        sides: [&["vit"], &["svart"]],
        articles: &[],
        hedges: &[],
        move_keys: &[],
        endings: &[],
        joiners: &[],
    },
    Language {
        code: "da",
        name: "Danish",
        aliases: &["danish", "dansk", "danes", "danois", "danisch"],
        pieces: [&["K"], &["D"], &["T"], &["L"], &["S"]],
        pawn: &["B"],
        headers: &[
            (Tag::Date, &["datum"]),
            (Tag::Round, &["runde"]),
            (Tag::White, &["hvid"]),
            (Tag::Black, &["sort"]),
            (Tag::Result, &["resultat"]),
            (Tag::Language, &["sprog"]),
        ],
        draws: &["remis"],
        castling: &["rokade", "rokerer", "rokerede"],
        resigns: &["opgav", "opgiver", "gav op", "giver op", "gav … op"],
        sides: [&["hvid"], &["sort"]],
        articles: &[],
        hedges: &[],
        move_keys: &[],
        endings: &[],
        joiners: &[],
    },
    Language {
        code: "no",
        name: "Norwegian",
        aliases: &["norwegian", "norsk", "nb", "nn", "bokmal", "noruego", "norvegien"],
        pieces: [&["K"], &["D"], &["T"], &["L"], &["S"]],
        pawn: &["B"],
        headers: &[
            (Tag::Round, &["runde"]),
            (Tag::White, &["hvit"]),
            (Tag::Black, &["svart"]),
            (Tag::Result, &["resultat"]),
            (Tag::Language, &["språk"]),
        ],
        draws: &["remis"],
        castling: &["rokade", "rokerer", "rokerte"],
        resigns: &["oppga", "oppgir", "ga opp", "gir opp", "ga … opp"],
        sides: [&["hvit"], &["svart"]],
        articles: &[],
        hedges: &[],
        move_keys: &[],
        endings: &[],
        joiners: &[],
    },
    Language {
        code: "eo",
        name: "Esperanto",
        aliases: &["esperanto"],
        pieces: [&["R"], &["D"], &["T"], &["K"], &["Ĉ"]],
        pawn: &["P"],
        headers: &[],
        draws: &[],
        castling: &[],
        resigns: &[],
        sides: [&[], &[]],
        articles: &[],
        hedges: &[],
        move_keys: &[],
        endings: &[],
        joiners: &[],
    },
    Language {
        code: "fi",
        name: "Finnish",
        aliases: &["finnish", "suomi", "finlandes", "finnois"],
        pieces: [&["K"], &["D"], &["T"], &["L"], &["R"]],
        pawn: &["S"],
        headers: &[],
        draws: &[],
        castling: &[],
        resigns: &["luovutti", "luovuttaa"],
        sides: [&["valkea", "valkoinen"], &["musta"]],
        articles: &[],
        hedges: &[],
        move_keys: &[],
        endings: &[],
        joiners: &[],
    },
    Language {
        code: "is",
        name: "Icelandic",
        aliases: &["icelandic", "islenska", "islandes"],
        pieces: [&["K"], &["D"], &["H"], &["B"], &["R"]],
        pawn: &["P"],
        headers: &[],
        draws: &["jafntefli"],
        castling: &[],
        resigns: &["gafst"],
        sides: [&["hvítur", "hvítt"], &["svartur", "svart"]],
        articles: &[],
        hedges: &["gat", "hefði", "ekki"],
        move_keys: &[],
        endings: &[],
        joiners: &[],
    },
    Language {
        code: "cs",
        name: "Czech",
        aliases: &["czech", "cesky", "cestina", "checo", "tcheque", "tschechisch"],
        pieces: [&["K"], &["D"], &["V"], &["S"], &["J"]],
        pawn: &["P"],
        headers: &[(Tag::Date, &["datum"])],
        draws: &["remíza", "remiza"],
        castling: &["rošáda", "rošádu", "rošády", "rošádou", "rošádě", "rosada"],
        resigns: &["vzdal", "vzdali", "vzdávají", "se vzdal", "se vzdali", "se vzdávají"],
        sides: [&["bílý", "bílé"], &["černý", "černé"]],
        articles: &[],
        hedges: &[],
        move_keys: &[],
        endings: &[],
        joiners: &["a"],
    },
    Language {
        code: "sk",
        name: "Slovak",
        aliases: &["slovak", "slovensky", "slovencina", "eslovaco"],
        pieces: [&["K"], &["D"], &["V"], &["S"], &["J"]],
        pawn: &["P"],
        headers: &[],
        draws: &["remíza", "remiza"],
        castling: &["rošáda", "rošádu", "rošády", "rošádou", "rošáde", "rosada"],
        resigns: &["vzdal", "vzdali", "vzdáva", "sa vzdal", "sa vzdali", "sa vzdáva"],
        sides: [&["biely", "bieli"], &["čierny", "čierni"]],
        articles: &[],
        hedges: &[],
        move_keys: &[],
        endings: &[],
        joiners: &["a"],
    },
    Language {
        code: "hu",
        name: "Hungarian",
        aliases: &["hungarian", "magyar", "hungaro", "hongrois", "ungarisch"],
        pieces: [&["K"], &["V"], &["B"], &["F"], &["H"]],
        pawn: &["G"],
        headers: &[],
        draws: &["döntetlen", "remi"],
        castling: &[],
        resigns: &["feladta", "feladják", "feladásra", "feladott"],
        sides: [&["világos"], &["sötét"]],
        articles: &[],
        hedges: &[],
        move_keys: &[],
        endings: &[
            "ra", "re", "val", "vel", "tal", "tel", "nál", "nél", "ig", "ba", "be", "ban", "ben", "ból", "ből", "hoz",
            "hez", "höz", "on", "en", "ön", "t",
        ],
        joiners: &["és"],
    },
    Language {
        code: "ro",
        name: "Romanian",
        aliases: &["romanian", "romana", "rumano", "roumain", "rumanisch"],
        pieces: [&["R"], &["D"], &["T"], &["N"], &["C"]],
        pawn: &["P"],
        headers: &[],
        draws: &["remiză", "remiza"],
        castling: &[],
        resigns: &["abandonează", "abandonat", "cedează", "cedat"],
        sides: [&["albul", "albii", "albele"], &["negrul", "negrii", "negrele"]],
        articles: &[],
        hedges: &["putea", "ar", "nu"],
        move_keys: &[],
        endings: &[],
        joiners: &[],
    },
    Language {
        code: "ca",
        name: "Catalan",
        aliases: &["catalan", "catala"],
        pieces: [&["R"], &["D"], &["T"], &["A"], &["C"]],
        pawn: &["P"],
        headers: &[(Tag::Round, &["ronda"])],
        draws: &[],
        castling: &["enroc", "enroca"],
        resigns: &["abandonen", "abandona", "abandonaren", "rendeix", "rendir"],
        sides: [&["blanques", "blanc"], &["negres", "negre"]],
        articles: &[],
        hedges: &[],
        move_keys: &[],
        endings: &[],
        joiners: &[],
    },
    Language {
        code: "hr",
        name: "Croatian",
        aliases: &[
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
        pieces: [&["K"], &["D"], &["T"], &["L"], &["S"]],
        pawn: &["P"],
        headers: &[(Tag::Date, &["datum"]), (Tag::Board, &["stol"])],
        draws: &["remi"],
        castling: &["rokada", "rokadu", "rokade", "rokadom"],
        resigns: &["predao", "predaje"],
        sides: [&["bijeli"], &["crni"]],
        articles: &[],
        hedges: &[],
        move_keys: &[],
        endings: &[],
        joiners: &[],
    },
    Language {
        code: "et",
        name: "Estonian",
        aliases: &["estonian", "eesti", "estonio"],
        pieces: [&["K"], &["L"], &["V"], &["O"], &["R"]],
        pawn: &["E"],
        headers: &[],
        draws: &[],
        castling: &[],
        resigns: &[],
        sides: [&[], &[]],
        articles: &[],
        hedges: &[],
        move_keys: &[],
        endings: &[],
        joiners: &[],
    },
    Language {
        code: "tr",
        name: "Turkish",
        aliases: &["turkish", "turkce", "turco", "turc"],
        pieces: [&["Ş"], &["V"], &["K"], &["F"], &["A"]],
        pawn: &["P"],
        headers: &[],
        draws: &["berabere"],
        castling: &["rok"],
        resigns: &["terk"],
        sides: [&["beyaz"], &["siyah"]],
        articles: &[],
        hedges: &[],
        move_keys: &[],
        endings: &[],
        joiners: &[],
    },
    Language {
        code: "lv",
        name: "Latvian",
        aliases: &["latvian", "latviesu"],
        pieces: [&["K"], &["D"], &["T"], &["L"], &["Z"]],
        pawn: &["B"],
        headers: &[],
        draws: &[],
        castling: &[],
        resigns: &["padevās"],
        sides: [&["baltie"], &["melnie"]],
        articles: &[],
        hedges: &[],
        move_keys: &[],
        endings: &[],
        joiners: &[],
    },
    Language {
        code: "lt",
        name: "Lithuanian",
        aliases: &["lithuanian", "lietuviu"],
        pieces: [&["K"], &["V"], &["B"], &["R"], &["Ž"]],
        pawn: &["P"],
        headers: &[],
        draws: &[],
        castling: &[],
        resigns: &["pasidavė"],
        sides: [&["baltieji"], &["juodieji"]],
        articles: &[],
        hedges: &[],
        move_keys: &[],
        endings: &[],
        joiners: &[],
    },
    // Cyrillic: the king is "Кр" where "К" is the knight; typists on a Latin
    // keyboard use the look-alike Latin letters, so those are accepted too.
    Language {
        code: "ru",
        name: "Russian",
        aliases: &["russian", "russkij", "русский", "ruso", "russe", "russisch"],
        pieces: [&["Кр", "Kp", "Kr", "KP"], &["Ф", "F"], &["Л"], &["С", "C"], &["К", "K"]],
        pawn: &[],
        headers: &[],
        draws: &["ничья"],
        castling: &[],
        resigns: &["сдались", "сдался", "сдаются", "сдаётся", "сдается"],
        sides: [&["белые"], &["черные", "чёрные"]],
        articles: &[],
        hedges: &["не", "мог", "могли", "если"],
        move_keys: &[],
        endings: &[],
        joiners: &[],
    },
    Language {
        code: "uk",
        name: "Ukrainian",
        aliases: &["ukrainian", "українська", "ucraniano"],
        pieces: [&["Кр", "Kp", "Kr", "KP"], &["Ф", "F"], &["Т", "T"], &["С", "C"], &["К", "K"]],
        pawn: &[],
        headers: &[],
        draws: &[],
        castling: &[],
        resigns: &["здалися", "здався"],
        sides: [&["білі"], &["чорні"]],
        articles: &[],
        hedges: &[],
        move_keys: &[],
        endings: &[],
        joiners: &[],
    },
    Language {
        code: "bg",
        name: "Bulgarian",
        aliases: &["bulgarian", "български", "bulgaro"],
        pieces: [&["Ц"], &["Д"], &["Т", "T"], &["О", "O"], &["К", "K"]],
        pawn: &[],
        headers: &[],
        draws: &[],
        castling: &[],
        resigns: &[],
        sides: [&[], &[]],
        articles: &[],
        hedges: &[],
        move_keys: &[],
        endings: &[],
        joiners: &[],
    },
];

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
        // Folded alike: "Español", "espanol" and "Русский", "russkiy".
        let key = crate::fold::key(name);
        LANGUAGES.iter().find(|l| {
            l.code == key || crate::fold::key(l.name) == key || l.aliases.iter().any(|a| crate::fold::key(a) == key)
        })
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

    /// The tag a lowercase header key stands for in this language's own list
    /// (a tag's name is not in it: see [`Tag::from_key`]).
    pub fn header_tag(&self, key: &str) -> Option<Tag> {
        self.headers.iter().find(|(_, keys)| keys.contains(&key)).map(|(tag, _)| *tag)
    }

    /// The usual key for a tag in this language (lowercase), if it lists one.
    ///
    /// ```
    /// use scoresheet::notation::{Language, Tag};
    /// let es = Language::find("es").unwrap();
    /// assert_eq!(es.header_key(Tag::White), Some("blancas"));
    /// assert_eq!(es.header_key(Tag::Annotator), None);
    /// ```
    pub fn header_key(&self, tag: Tag) -> Option<&'static str> {
        self.headers.iter().find(|(t, _)| *t == tag).and_then(|(_, keys)| keys.first().copied())
    }
}

/// Every language's words for a drawn game, in the order of [`LANGUAGES`]
/// (a word two languages share comes twice).
pub(crate) fn draw_words() -> impl Iterator<Item = &'static str> {
    LANGUAGES.iter().flat_map(|l| l.draws.iter().copied())
}

/// Whether a lowercase ending is one a language glues to a move (`ra` of
/// `Fd3-ra`).
pub(crate) fn is_move_ending(ending: &str) -> bool {
    LANGUAGES.iter().any(|l| l.endings.contains(&ending))
}

/// Whether a word is castling in words in some language's table, whole
/// (`Castles`, `enroque`, `Rochade`, `rošádu`), its punctuation aside. A
/// side closed up after it in print (`CastlesKR`) is not part of the word.
pub(crate) fn is_castling_word(word: &str) -> bool {
    let word = word.trim_matches(|c: char| !c.is_alphanumeric());
    let chars: Vec<char> = word.chars().collect();
    let end = (1..chars.len()).find(|&i| chars[i].is_uppercase() && chars[i - 1].is_lowercase()).unwrap_or(chars.len());
    let lower: String = chars[..end].iter().collect::<String>().to_lowercase();
    LANGUAGES.iter().any(|l| l.castling.contains(&lower.as_str()))
}

/// Whether a lowercase word joins a last clause to the last move in some
/// language (`a` of `… Vf8-f1+ a mat.`).
pub(crate) fn is_joiner(word: &str) -> bool {
    LANGUAGES.iter().any(|l| l.joiners.contains(&word))
}

/// Whether a lowercase word says, in any language, that a player gave the
/// game up.
pub(crate) fn is_resign_word(word: &str) -> bool {
    LANGUAGES.iter().any(|l| l.resigns.contains(&word))
}

/// The words for giving up that are written in two parts with words between
/// them (`gab … auf`: `Schwarz gab wegen des Matts nach 23… Kxg8 auf`), in
/// any language: each as its verb and its particle.
pub(crate) fn resign_words_apart() -> impl Iterator<Item = (&'static str, &'static str)> {
    // Parted once: every line of a text is asked.
    static APART: std::sync::LazyLock<Vec<(&str, &str)>> = std::sync::LazyLock::new(|| {
        LANGUAGES.iter().flat_map(|l| l.resigns).filter_map(|r| r.split_once(" … ")).collect()
    });
    APART.iter().copied()
}

/// Whether a lowercase word is an article before a side's word, in any
/// language (`the`, `las`).
pub(crate) fn is_article(word: &str) -> bool {
    LANGUAGES.iter().any(|l| l.articles.contains(&word))
}

/// Whether a lowercase word makes a resignation only talked about, in any
/// language (`could`, `hätte`, `не`).
pub(crate) fn is_hedge(word: &str) -> bool {
    LANGUAGES.iter().any(|l| l.hedges.contains(&word))
}

/// The side a lowercase word names, in any language: `negras` is Black.
pub(crate) fn side_word(word: &str) -> Option<shakmaty::Color> {
    LANGUAGES.iter().find_map(|l| {
        let [white, black] = l.sides;
        if white.contains(&word) {
            Some(shakmaty::Color::White)
        } else {
            black.contains(&word).then_some(shakmaty::Color::Black)
        }
    })
}

/// Whether a lowercase key of a YAML form holds the moves, in any language.
pub(crate) fn is_move_key(key: &str) -> bool {
    LANGUAGES.iter().any(|l| l.move_keys.contains(&key))
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
    fn a_language_is_found_by_its_name_written_with_or_without_accents() {
        assert_eq!(Language::find("Română").map(|l| l.code), Some("ro"));
        assert_eq!(Language::find("Lietuvių").map(|l| l.code), Some("lt"));
        assert_eq!(Language::find("Español").map(|l| l.code), Some("es"));
        assert_eq!(Language::find(" espanol ").map(|l| l.code), Some("es"));
        assert_eq!(Language::find("Русский").map(|l| l.code), Some("ru"));
        assert_eq!(Language::find("Türkçe").map(|l| l.code), Some("tr"));
        assert_eq!(Language::find("Íslenska").map(|l| l.code), Some("is"));
        assert_eq!(Language::find("klingon"), None);
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

    /// Keys as the reader compares them: it lowercases and trims what was written.
    fn all_keys() -> impl Iterator<Item = (&'static Language, Tag, &'static str)> {
        LANGUAGES.iter().flat_map(|l| l.headers.iter().flat_map(move |(t, keys)| keys.iter().map(move |k| (l, *t, *k))))
    }

    #[test]
    fn every_languages_header_keys_stand_for_their_tag() {
        for (l, tag, key) in all_keys() {
            assert_eq!(key, key.trim().to_lowercase(), "{}: key {key:?} is not lowercase and trimmed", l.code);
            assert_eq!(Tag::from_key(key, LANGUAGES), Some(tag), "{}: {key}", l.code);
            let written: String = key.chars().flat_map(char::to_uppercase).collect();
            assert_eq!(Tag::from_key(&format!(" {written} "), LANGUAGES), Some(tag), "{}: {written}", l.code);
        }
        for tag in Tag::ALL {
            assert_eq!(Tag::from_key(tag.name(), LANGUAGES), Some(tag));
            assert_eq!(Tag::from_key(&tag.name().to_lowercase(), LANGUAGES), Some(tag));
        }
    }

    #[test]
    fn no_key_stands_for_two_tags() {
        for (l, tag, key) in all_keys() {
            assert!(
                Tag::ALL.iter().all(|t| !t.name().eq_ignore_ascii_case(key)),
                "{}: {key} is a tag's own name, accepted in every language",
                l.code
            );
            for (m, other, _) in all_keys().filter(|(_, _, k)| *k == key) {
                assert_eq!(tag, other, "{key} is {tag:?} in {} but {other:?} in {}", l.code, m.code);
            }
        }
    }

    #[test]
    fn a_new_language_entry_is_picked_up_by_the_header_reader() {
        static FINNISH: Language = Language {
            code: "fi",
            name: "Finnish",
            aliases: &[],
            pieces: [&["K"], &["D"], &["T"], &["L"], &["R"]],
            pawn: &[],
            headers: &[(Tag::White, &["valkea", "valkoiset"]), (Tag::Black, &["musta"])],
            draws: &[],
            castling: &[],
            resigns: &[],
            sides: [&[], &[]],
            articles: &[],
            hedges: &[],
            move_keys: &[],
            endings: &[],
            joiners: &[],
        };
        let with = std::slice::from_ref(&FINNISH);
        assert_eq!(Tag::from_key("Valkoiset", with), Some(Tag::White));
        assert_eq!(Tag::from_key("MUSTA", with), Some(Tag::Black));
        assert_eq!(Tag::from_key("White", with), Some(Tag::White));
        assert_eq!(FINNISH.header_key(Tag::White), Some("valkea"));
        assert_eq!(Tag::from_key("Valkoiset", LANGUAGES), None);
    }

    #[test]
    fn the_usual_keys_are_the_first_listed() {
        let keys = |code| {
            let l = Language::find(code).unwrap();
            [Tag::Event, Tag::White, Tag::Black, Tag::Result, Tag::Language].map(|t| l.header_key(t))
        };
        assert_eq!(keys("de"), ["turnier", "weiss", "schwarz", "ergebnis", "sprache"].map(Some));
        assert_eq!(keys("pl"), ["turniej", "białe", "czarne", "wynik", "język"].map(Some));
        // English keys are the tags' own names, which no language lists.
        assert_eq!(keys("en")[1], None);
    }

    #[test]
    fn draw_words_and_move_keys_are_lowercase_words() {
        for l in LANGUAGES {
            for w in l.draws.iter().chain(l.move_keys).chain(l.resigns).chain(l.sides.iter().copied().flatten()) {
                assert_eq!(*w, w.to_lowercase(), "{}: {w}", l.code);
                // The reading of a result takes a token with a digit, or not
                // starting with a letter, for no word.
                assert!(w.starts_with(char::is_alphabetic) && !w.contains(|c: char| c.is_ascii_digit()), "{w}");
            }
            for k in l.move_keys {
                assert_eq!(Tag::from_key(k, LANGUAGES), None, "{}: {k} holds the moves, not a header", l.code);
                assert!(is_move_key(k));
            }
        }
        assert!(draw_words().any(|w| w == "remis"));
    }

    #[test]
    fn castling_in_words_is_a_whole_word_of_a_languages_table() {
        for w in ["Castles", "castles.", "enroque", "Rochade", "rošádu", "roszadę", "rokade", "CastlesKR", "rok"] {
            assert!(is_castling_word(w), "{w}");
        }
        for w in ["roku", "Castro", "Rocha", "Castillo", "Rochefort", "enrollment", "rokiem", "roque-fort"] {
            assert!(!is_castling_word(w), "{w}");
        }
    }
}
