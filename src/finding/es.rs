//! The findings' messages in Spanish (`report_language: es`), as an arbiter
//! in Spain writes them: `jugada 9... (línea 3, columna 7): escrito "Cf8",
//! leído como Nf3: la única jugada legal que encaja`.

use super::messages::Messages;
use super::values::{At, CopyEntry, CopyMove, Ending, NamedPairing, NotRead, ResultAt, SheetPairing, Why, ply_label};
use crate::notation::Notation;
use crate::sheet::{GameResult, Invisible, MAX_HEADERS};
use crate::start::SetUpError;

/// The Spanish table.
pub(crate) struct Spanish;

/// Where a finding is: `jugada 9... (línea 14, columna 8)`.
fn label(at: &At) -> String {
    if at.line > 0 {
        format!("jugada {} (línea {}, columna {})", at.move_label(), at.line, at.col)
    } else {
        format!("jugada {}", at.move_label())
    }
}

/// `1 anotación`, `3 anotaciones`.
fn entries(n: usize) -> String {
    if n == 1 { "1 anotación".to_string() } else { format!("{n} anotaciones") }
}

/// The ending and its Law.
fn ending(e: Ending) -> &'static str {
    match e {
        Ending::Checkmate => "jaque mate, Art. 5.1.1",
        Ending::Stalemate => "rey ahogado, Art. 5.2.1",
        Ending::NoMate => "ningún bando puede dar mate, Art. 5.2.2",
        Ending::FivefoldRepetition => "la misma posición por quinta vez, tablas sin reclamación, Art. 9.6.1",
        Ending::SeventyFiveMoves => {
            "75 jugadas de cada jugador sin captura ni movimiento de peón, tablas sin reclamación, Art. 9.6.2"
        }
    }
}

/// A notation's name: `descriptiva inglesa`.
fn notation(n: Notation) -> &'static str {
    match n {
        Notation::EnglishDescriptive => "descriptiva inglesa",
        Notation::SpanishDescriptive => "descriptiva española",
        Notation::FrenchDescriptive => "descriptiva francesa",
        Notation::IccfNumeric => "numérica ICCF",
    }
}

/// A language's name, by its ISO code; `None` for a code not listed here.
fn language(code: &str) -> Option<&'static str> {
    const NAMES: [(&str, &str); 27] = [
        ("en", "inglés"),
        ("es", "español"),
        ("de", "alemán"),
        ("fr", "francés"),
        ("it", "italiano"),
        ("pt", "portugués"),
        ("nl", "neerlandés"),
        ("pl", "polaco"),
        ("sv", "sueco"),
        ("da", "danés"),
        ("no", "noruego"),
        ("eo", "esperanto"),
        ("fi", "finés"),
        ("is", "islandés"),
        ("cs", "checo"),
        ("sk", "eslovaco"),
        ("hu", "húngaro"),
        ("ro", "rumano"),
        ("ca", "catalán"),
        ("hr", "croata"),
        ("et", "estonio"),
        ("tr", "turco"),
        ("lv", "letón"),
        ("lt", "lituano"),
        ("ru", "ruso"),
        ("uk", "ucraniano"),
        ("bg", "búlgaro"),
    ];
    NAMES.iter().find(|(c, _)| *c == code).map(|(_, n)| *n)
}

/// A pairing: `ronda 2, tablero 3: Navara, David - Carlsen, Magnus`.
fn pairing(p: &NamedPairing) -> String {
    p.said("ronda", "tablero")
}

/// What a sheet gives of its pairing: `ronda 2, tablero 35, A - B`.
fn sheet_pairing(p: &SheetPairing) -> String {
    p.said("ronda", "tablero")
}

fn copy_entry(e: &CopyEntry) -> &str {
    match e {
        CopyEntry::Written(w) => w,
        CopyEntry::NotWritten => "(no anotada)",
        CopyEntry::Ended => "(nada más)",
    }
}

fn copy_move(m: &CopyMove) -> &str {
    match m {
        CopyMove::Move(m) => m,
        CopyMove::GameEnds => "la partida termina aquí",
    }
}

/// The results a record gives, each with where: `1-0 (la cabecera Result),
/// 0-1 (tras las jugadas)`, or a copy's file.
fn results_said(results: &[(GameResult, ResultAt)]) -> String {
    super::values::results_said(results, |w| match w {
        ResultAt::Header => "la cabecera Result".to_string(),
        ResultAt::AfterMoves => "tras las jugadas".to_string(),
        ResultAt::Copy(file) => file.clone(),
    })
}

/// Why a sheet's start cannot be used.
fn set_up(why: &SetUpError) -> String {
    match why {
        SetUpError::Unreadable { fen, why } => format!("el FEN \"{fen}\" no se puede leer: {why}"),
        SetUpError::Illegal { fen, why } => format!("el FEN \"{fen}\" no es una posición legal: {why}"),
        SetUpError::NotGiven { variant } => {
            format!("Variant \"{variant}\" sin FEN: no se conoce la posición de partida")
        }
        SetUpError::OtherRules { variant } => {
            format!("Variant \"{variant}\" no es ajedrez: solo se leen partidas de ajedrez y de Chess960")
        }
    }
}

impl Messages for Spanish {
    fn illegal_move(&self, at: &At, written: &str, fen: &str, unread: usize) -> String {
        format!(
            "{}: \"{written}\" no corresponde a ninguna jugada legal aquí; la partida se conserva hasta este punto, \
             la última posición que la planilla permite establecer ({fen}); {} desde aquí no {} reconstruir",
            label(at),
            if unread == 1 { "la única anotación".to_string() } else { format!("las {unread} anotaciones") },
            if unread == 1 { "se puede" } else { "se pueden" }
        )
    }

    fn non_algebraic(&self, at: &At, written: &str, read: Option<(Notation, u32)>) -> String {
        match read {
            None => format!(
                "{}: desde \"{written}\" la planilla está en notación descriptiva (P-K4, CAR3), que no se lee en \
                 este idioma; la partida se conserva hasta este punto",
                label(at)
            ),
            Some((system, moves)) => format!(
                "{}: desde \"{written}\" la planilla está en notación {} ({moves} jugadas), leída como tal; la FIDE \
                 solo reconoce la notación algebraica (Apéndice C): esta planilla no puede servir como prueba, y \
                 debe indicarse al jugador que anote en notación algebraica",
                label(at),
                notation(system)
            ),
        }
    }

    fn mixed_notation(&self, at: &At, system: Notation, algebraic: u32) -> String {
        format!(
            "{}: la planilla mezcla notaciones: algebraica en las primeras {algebraic} jugadas, {} desde aquí",
            label(at),
            notation(system)
        )
    }

    fn mixed_letters(&self, at: &At, own: &str, other: &str, moves: u32) -> String {
        format!(
            "{}: la planilla mezcla las letras de piezas de dos idiomas: las suyas ({own}) y, desde aquí, {moves} \
             jugadas con las de otro ({other}); cada una se leyó así, pero una planilla se lleva con unas solas \
             letras (Apéndice C)",
            label(at)
        )
    }

    fn set_up_position(&self, why: &SetUpError) -> String {
        format!(
            "la posición de partida de la planilla no se puede usar ({}): no se lee ninguna jugada, pues desde la \
             posición inicial no serían las de la partida; el árbitro debe establecer la posición y la partida",
            set_up(why)
        )
    }

    fn illegible_entry(&self, at: &At, written: &str, replacement: &str) -> String {
        format!(
            "{}: escrito \"{written}\" (ilegible), leído como {replacement}: la única jugada que permite el resto de \
             la partida",
            label(at)
        )
    }

    fn missing_move(&self, at: &At, replacement: &str) -> String {
        format!("{}: no se anotó ninguna jugada, leída como {replacement}: el resto de la partida la exige", label(at))
    }

    fn extra_entry(&self, at: &At, written: &str, repeat: bool) -> String {
        if repeat {
            format!("{}: \"{written}\" escrito dos veces; se omite la segunda", label(at))
        } else {
            format!(
                "{}: escrito \"{written}\", que no corresponde a ninguna jugada de la partida aquí; se omite",
                label(at)
            )
        }
    }

    fn typo_repaired(&self, at: &At, written: &str, replacement: &str) -> String {
        format!("{}: escrito \"{written}\", leído como {replacement}: la única jugada legal que encaja", label(at))
    }

    fn ambiguous_repair(&self, at: &At, written: &str, replacement: &str, others: &[&str], put_first: bool) -> String {
        let others =
            if others.is_empty() { "otra lectura casi igual de probable".to_string() } else { others.join(", ") };
        let why = if put_first { " (puesta primero como la jugada más probable en la posición)" } else { "" };
        format!(
            "{}: escrito \"{written}\", leído como {replacement}{why}, pero el resto de la partida también admite \
             {others}",
            label(at)
        )
    }

    fn moves_after_end(&self, at: &At, written: &str, end: Ending) -> String {
        format!("{}: \"{written}\" está anotado cuando la partida ya había terminado ({})", label(at), ending(end))
    }

    fn check_mark_mismatch(&self, at: &At, written: &str, replacement: &str) -> String {
        format!("{}: escrito \"{written}\", pero {replacement} no da ese jaque ni mate", label(at))
    }

    fn numbering_error(&self, at: &At, written: &str) -> String {
        format!("{}: el número de jugada escrito antes de \"{written}\" no sigue la numeración", label(at))
    }

    fn language_inferred(&self, code: &str, name: &str) -> String {
        format!("letras de las piezas leídas en {} ({code})", language(code).unwrap_or(name))
    }

    fn unknown_language(&self, given: &str) -> String {
        format!("idioma desconocido \"{given}\"; el idioma se dedujo de las jugadas")
    }

    fn result_mismatch(&self, written: GameResult, board: GameResult, end: Ending) -> String {
        format!(
            "el resultado anotado es {} pero la posición final da {} ({}); se conserva el resultado anotado hasta \
             que un árbitro decida",
            written.as_pgn(),
            board.as_pgn(),
            ending(end)
        )
    }

    fn draw_offer(&self, at: &At) -> String {
        format!("{}: el jugador ofreció tablas con esta jugada, (=) (Art. 9.1.2)", label(at))
    }

    fn draw_claim(&self, at: &At, repetition: bool) -> String {
        if repetition {
            format!(
                "{}: la partida se anotó como tablas donde podían reclamarse: la posición final se dio en el tablero \
                 por tercera vez (Art. 9.2)",
                label(at)
            )
        } else {
            format!(
                "{}: la partida se anotó como tablas donde podían reclamarse: cincuenta jugadas de cada bando sin \
                 captura ni movimiento de peón (Art. 9.3)",
                label(at)
            )
        }
    }

    fn result_missing(&self, moves: u32, noted: bool) -> String {
        format!(
            "no hay resultado anotado y la posición final, tras la jugada {moves}, no pone fin a la partida: el \
             árbitro debe establecer el resultado (los jugadores anotan el resultado y firman las planillas, Art. \
             8.7); la planilla pudo dejar de anotarse antes (un jugador con menos de cinco minutos puede dejar de \
             anotar, Art. 8.4){}; el resultado queda como *",
            if noted { "; tras la última jugada sigue una nota, donde la partida puede continuar" } else { "" }
        )
    }

    fn incomplete_record(&self, file: &str, missing: u32, from: u32, other_ends: bool, plausible: bool) -> String {
        let n = if missing == 1 { "1 jugada".to_string() } else { format!("{missing} jugadas") };
        let head = format!("{file}: a la planilla le faltan {n} de la partida, desde la jugada {}", ply_label(from));
        if plausible {
            format!(
                "{head}, las últimas, que la otra copia tiene: un jugador con menos de cinco minutos puede dejar de \
                 anotar (Art. 8.4)"
            )
        } else if !other_ends {
            format!(
                "{head}, y la otra copia tampoco llega al final: cada jugador anota las jugadas (Art. 8.1), y solo \
                 un jugador con menos de cinco minutos puede dejar de anotar (Art. 8.4)"
            )
        } else {
            format!(
                "{head}: se detiene en la jugada {}, demasiado pronto para un jugador apurado de tiempo que dejó de \
                 anotar (Art. 8.4); cada jugador anota las jugadas (Art. 8.1)",
                from.saturating_sub(1).div_ceil(2)
            )
        }
    }

    fn duplicate_board(&self, board: &str, round: &str, other: &str, parted: Option<u32>, stops: bool) -> String {
        let how = match (parted, stops) {
            (Some(ply), true) => format!(
                "los mismos jugadores y jugadas, pero esta planilla se detiene antes de la jugada {} donde aquella \
                 continúa",
                ply_label(ply)
            ),
            (Some(ply), false) => {
                format!("los mismos jugadores, pero las jugadas se separan en la jugada {}", ply_label(ply))
            }
            (None, _) => "otros jugadores".to_string(),
        };
        format!(
            "el tablero {board} de la ronda {round} ya tiene una partida en el archivo de la ronda ({other}) y esta \
             es otra ({how}); no se añade: un árbitro debe elegir"
        )
    }

    fn encoding_guessed(&self, line: usize) -> String {
        format!(
            "el archivo no está todo en UTF-8 (desde la línea {line}): las líneas que no lo están se leyeron como \
             Windows-1252; compruebe las letras acentuadas de los nombres (un archivo guardado en UTF-8 se lee sin \
             suposiciones)"
        )
    }

    fn invisible_removed(&self, removed: &Invisible) -> String {
        let kinds = [
            (removed.zero_width, "de anchura cero"),
            (removed.direction, "marcas de dirección de escritura"),
            (removed.soft_hyphen, "guiones blandos"),
        ];
        let kinds: Vec<&str> = kinds.iter().filter(|(any, _)| *any).map(|&(_, k)| k).collect();
        format!(
            "se quitaron {} caracteres invisibles ({}) al leer el archivo, el primero en la línea {}: quedarían en \
             los nombres y harían ilegibles las jugadas",
            removed.count,
            kinds.join(", "),
            removed.line
        )
    }

    fn moves_in_note(&self, line: usize, ply: u32) -> String {
        format!(
            "la anotación se detiene y una nota debajo (línea {line}) sigue con la partida desde {}: las jugadas \
             desde allí se leen de la nota; compruebe que la partida siguió así",
            ply_label(ply)
        )
    }

    fn score_printed_twice(&self, line: usize) -> String {
        format!(
            "las jugadas desde la línea {line} son las primeras de esta partida impresas otra vez; se leen como esta \
             partida, no como una partida aparte"
        )
    }

    fn game_not_read(&self, line: usize, why: &NotRead) -> String {
        match why {
            NotRead::TooLong { limit } => {
                format!("la partida desde la línea {line} no se lee: tiene más de {limit} bytes")
            }
            NotRead::NotText => format!("la partida desde la línea {line} no se lee: sus bytes no son texto"),
            NotRead::Malformed(m) => format!("la partida desde la línea {line} no se lee: {m}"),
            NotRead::Io(e) => format!("el archivo no se pudo leer más allá de la línea {line}: {e}"),
        }
    }

    fn headers_dropped(&self, dropped: usize, first: &str) -> String {
        format!(
            "la planilla tiene {} campos de cabecera; se conservan los {MAX_HEADERS} primeros y se omiten los otros \
             {dropped} (el primero de ellos \"{first}\")",
            dropped + MAX_HEADERS
        )
    }

    fn search_budget(&self, at: &At, written: &str, unread: usize) -> String {
        if unread == 0 {
            format!(
                "{}: la búsqueda de una lectura agotó su presupuesto tras \"{written}\", antes de sopesar todas las \
                 dudas; puede que la lectura no sea la mejor",
                label(at)
            )
        } else {
            format!(
                "{}: la búsqueda de una lectura de \"{written}\" agotó su presupuesto; la partida se conserva tal \
                 como se leyó hasta este punto ({} desde aquí sin leer)",
                label(at),
                entries(unread)
            )
        }
    }

    fn pairing_mismatch(
        &self,
        written: &SheetPairing,
        found: Option<&NamedPairing>,
        candidates: &[NamedPairing],
    ) -> String {
        let written = sheet_pairing(written);
        match found {
            Some(found) => {
                format!("la planilla indica {written}, pero sus jugadores están emparejados en {}", pairing(found))
            }
            None if candidates.is_empty() => {
                format!("ningún emparejamiento del archivo de emparejamientos coincide con la planilla ({written})")
            }
            None => format!(
                "ningún emparejamiento del archivo de emparejamientos coincide claramente con la planilla \
                 ({written}); los más cercanos: {}",
                candidates.iter().map(pairing).collect::<Vec<_>>().join("; ")
            ),
        }
    }

    fn pairing_result_mismatch(&self, written: GameResult, pairing: GameResult, at: &NamedPairing) -> String {
        format!(
            "el resultado anotado es {} pero el archivo de emparejamientos da {} (ronda {}, tablero {})",
            written.as_pgn(),
            pairing.as_pgn(),
            at.round,
            at.board
        )
    }

    fn results_disagree(&self, results: &[(GameResult, ResultAt)]) -> String {
        format!(
            "la planilla da resultados distintos: {}; el árbitro establece el resultado (Art. 8.7); el resultado \
             queda como *",
            results_said(results)
        )
    }

    fn result_from_pairings(&self, result: GameResult, at: &NamedPairing, disagreed: bool) -> String {
        if disagreed {
            format!(
                "la planilla da resultados distintos: el de los emparejamientos es uno de ellos y se toma, {} ({})",
                result.as_pgn(),
                pairing(at)
            )
        } else {
            format!(
                "no hay resultado anotado: el resultado es el de los emparejamientos, {} ({})",
                result.as_pgn(),
                pairing(at)
            )
        }
    }

    fn board_numbered(&self, written: &SheetPairing, at: &NamedPairing) -> String {
        format!(
            "la planilla da {}; los emparejamientos, en el orden del archivo, ponen a estos jugadores en {}: se \
             publica en ese tablero, para que los tableros de la ronda se numeren de una sola manera",
            sheet_pairing(written),
            pairing(at)
        )
    }

    fn colours_reversed(&self, at: &NamedPairing) -> String {
        format!(
            "las blancas de la planilla son las negras del emparejamiento ({}): los colores están invertidos en la \
             planilla o en el tablero",
            pairing(at)
        )
    }

    fn two_games_one_board(&self, files: [&str; 2], written: [&SheetPairing; 2], parted: u32) -> String {
        format!(
            "{} ({}) y {} ({}) se dan como las dos copias de una partida, pero sus jugadas son dos partidas (se \
             separan en la jugada {} y no vuelven a coincidir): los nombres, la ronda o el tablero de una de ellas \
             están mal, o los jugadores se enfrentaron dos veces; se guardan las dos, cada una como la lee su \
             planilla, para que un árbitro diga de quién es cada partida",
            files[0],
            sheet_pairing(written[0]),
            files[1],
            sheet_pairing(written[1]),
            ply_label(parted)
        )
    }

    fn copies_joined_by_moves(&self, files: [&str; 2], written: [&SheetPairing; 2]) -> String {
        format!(
            "leída de dos copias que sus encabezados no emparejan: {} da {}, {} da {}; sus jugadas coinciden y sus \
             nombres no se contradicen, así que se tomaron como una misma partida",
            files[0],
            sheet_pairing(written[0]),
            files[1],
            sheet_pairing(written[1])
        )
    }

    fn copies_disagree(&self, at: &At, written: [&CopyEntry; 2], read: [&CopyMove; 2], files: [&str; 2]) -> String {
        format!(
            "{}: las dos copias difieren: {} tiene \"{}\" ({}), {} tiene \"{}\" ({}); el resto de la partida no dice \
             cuál es la correcta",
            label(at),
            files[0],
            copy_entry(written[0]),
            copy_move(read[0]),
            files[1],
            copy_entry(written[1]),
            copy_move(read[1])
        )
    }

    fn arbiter_decision(&self, at: Option<&At>, decision: &str) -> String {
        match at {
            Some(at) => format!("{}: {decision}", label(at)),
            None => decision.to_string(),
        }
    }

    fn decision(&self, arbiter: &str, played: Option<(&At, &str)>, why: &str) -> String {
        match played {
            Some((at, played)) => format!("árbitro {arbiter}: {}{played}, {why}", at.move_label()),
            None => format!("árbitro {arbiter}: {why}"),
        }
    }

    fn why(&self, why: &Why) -> String {
        match why {
            Why::Note(note) => note.clone(),
            Why::CopiesDisagreed => "las copias diferían".to_string(),
            Why::SheetAmbiguous => "la planilla era ambigua".to_string(),
            Why::Doubt(code) => format!("jugada en duda ({code})"),
            Why::Decided => "decidido por el árbitro".to_string(),
            Why::Accepted => "aceptada".to_string(),
            Why::DoubtAccepted(code) => format!("aceptado ({code})"),
            Why::Rejected(reason) => format!("rechazada: {reason}"),
            Why::Result(r) => format!("resultado {}", r.as_pgn()),
        }
    }

    fn third_copy(&self, files: &[&str]) -> String {
        format!(
            "una tercera copia de la partida leída de {}: leída sola, sin combinar; un árbitro elige",
            files.join(" y ")
        )
    }
}
