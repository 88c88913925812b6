//! Header keys in the languages organizers type them in, mapped to PGN tag names.

/// PGN tag name and the keys (lowercase, accents kept and dropped) that mean it.
const KEYS: &[(&str, &[&str])] = &[
    (
        "Event",
        &[
            "event",
            "torneo",
            "tournoi",
            "turnier",
            "evento",
            "toernooi",
            "torneio",
            "tournament",
            "competition",
            "competición",
            "competicion",
            "wettkampf",
            "turniej",
        ],
    ),
    (
        "Site",
        &[
            "site", "lugar", "lieu", "ort", "luogo", "local", "plaats", "sede", "place", "city", "ciudad", "ville",
            "stadt", "miejsce",
        ],
    ),
    ("Date", &["date", "fecha", "datum", "data"]),
    ("Round", &["round", "ronda", "ronde", "runde", "turno", "rodada", "rd", "rnd", "runda"]),
    (
        "Board",
        &[
            "board",
            "mesa",
            "table",
            "brett",
            "scacchiera",
            "tabuleiro",
            "bord",
            "tablero",
            "tavolo",
            "échiquier",
            "echiquier",
            "stol",
        ],
    ),
    (
        "White",
        &[
            "white", "blancas", "blancs", "blanc", "blanco", "weiss", "weiß", "bianco", "bianchi", "brancas", "branco",
            "wit", "białe", "biale", "vit", "hvid", "hvit",
        ],
    ),
    (
        "Black",
        &[
            "black", "negras", "negro", "noirs", "noir", "schwarz", "nero", "neri", "pretas", "preto", "zwart",
            "czarne", "svart", "sort",
        ],
    ),
    ("Result", &["result", "resultado", "résultat", "resultat", "ergebnis", "risultato", "uitslag", "wynik", "score"]),
    (
        "Language",
        &["language", "idioma", "langue", "sprache", "lingua", "taal", "język", "jezyk", "lang", "språk", "sprog"],
    ),
    ("WhiteElo", &["whiteelo", "white elo", "elo blancas", "elo blancs", "elo weiss"]),
    ("BlackElo", &["blackelo", "black elo", "elo negras", "elo noirs", "elo schwarz"]),
    ("TimeControl", &["timecontrol", "time control", "ritmo", "cadence", "bedenkzeit"]),
    ("ECO", &["eco"]),
    ("Annotator", &["annotator"]),
];

/// The PGN tag a header key stands for, if it is one the reader knows.
///
/// ```
/// use scoresheet::ingest::headers::canonical;
/// assert_eq!(canonical("Blancas"), Some("White"));
/// assert_eq!(canonical(" RÉSULTAT "), Some("Result"));
/// assert_eq!(canonical("Scacchiera"), Some("Board"));
/// assert_eq!(canonical("Nf3"), None);
/// ```
pub fn canonical(key: &str) -> Option<&'static str> {
    let k = key.trim().to_lowercase();
    KEYS.iter().find(|(_, keys)| keys.contains(&k.as_str())).map(|(tag, _)| *tag)
}

/// Whether `key` can be a header key nobody listed: a short name of letters.
pub fn plausible_key(key: &str) -> bool {
    let k = key.trim();
    k.chars().count() >= 2
        && k.chars().count() <= 30
        && k.chars().next().is_some_and(char::is_alphabetic)
        && k.chars().all(|c| c.is_alphabetic() || c == ' ' || c == '_' || c == '-')
}

/// The tag name to use for a key: the PGN name when known, else the key itself
/// with spaces removed (PGN tag names are single symbols).
pub fn tag_name(key: &str) -> String {
    canonical(key)
        .map(str::to_string)
        .unwrap_or_else(|| key.trim().split([' ', '-']).filter(|w| !w.is_empty()).map(capitalize).collect())
}

fn capitalize(w: &str) -> String {
    let mut c = w.chars();
    c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
}
