//! What a user types, in every layout, format and encoding the reader accepts,
//! and what comes out: the moves in English SAN, the PGN tags, the status.
//! Also: every sheet in `examples/sheets` converts validated to PGN that a
//! strict reader (pgn-reader + shakmaty) replays to exactly the reported moves.

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use pgn_reader::{Outcome, RawTag, Reader, SanPlus, Skip, Visitor};
use scoresheet::convert::{Options, convert};
use scoresheet::emit::report::{FileReport, GameReport, Status};
use scoresheet::finding::Severity;
use shakmaty::Chess;

/// The status but for `result-missing`: these sheets are parts of games
/// with no result written, which the arbiter establishes (Art. 8.7); what is
/// checked here is how the moves were read.
fn moves_status(g: &GameReport) -> Status {
    let only_result = g.findings.iter().all(|f| f.severity < Severity::Warning || f.code == "result-missing");
    if g.status == Status::Review && only_result { Status::Validated } else { g.status }
}

/// The FIDE example game of the seed, in English SAN.
const SEED: [&str; 33] = [
    "d4", "Nf6", "c4", "e6", "Nc3", "Bb4", "Bd2", "O-O", "e4", "d5", "exd5", "exd5", "cxd5", "Bxc3", "Bxc3", "Nxd5",
    "Nf3", "b6", "Qb3", "Nxc3", "bxc3", "c5", "Be2", "cxd4", "Nxd4", "Re8", "O-O", "Nd7", "a4", "Nc5", "Qb4", "Bb7",
    "a5",
];

/// The scholar's mate in English SAN.
const SCHOLARS_MATE: [&str; 7] = ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"];

const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

fn read(name: &str, bytes: &[u8]) -> FileReport {
    convert(name, bytes, &Options::default())
}

/// The only game of a file that must be read without a file error.
fn game(name: &str, text: &str) -> GameReport {
    game_of_bytes(name, text.as_bytes())
}

fn game_of_bytes(name: &str, bytes: &[u8]) -> GameReport {
    let report = read(name, bytes);
    assert_eq!(report.error, None, "{name} was refused");
    assert_eq!(report.games.len(), 1, "{name}: one game expected");
    report.games.into_iter().next().unwrap()
}

fn header<'a>(g: &'a GameReport, key: &str) -> &'a str {
    g.headers.get(key).and_then(|v| v.as_str()).unwrap_or_else(|| panic!("no {key} tag in {:?}", g.headers))
}

fn assert_validated(g: &GameReport, moves: &[&str]) {
    assert_eq!(g.moves, moves, "findings: {:?}", codes(g));
    assert_eq!(moves_status(g), Status::Validated, "findings: {:?}", codes(g));
}

fn codes(g: &GameReport) -> Vec<&str> {
    g.findings.iter().map(|f| f.code).collect()
}

/// The seven roster tags as (name, value), in the order of the report.
fn roster(g: &GameReport) -> Vec<(&str, &str)> {
    g.headers.iter().take(7).map(|(k, v)| (k.as_str(), v.as_str().unwrap_or_default())).collect()
}

// ---------------------------------------------------------------- txt layouts

#[test]
fn txt_fide_example_with_commas_between_numbered_pairs() {
    let g = game(
        "fide.txt",
        "1.d4 Cf6, 2.c4 e6, 3.Cc3 Ab4, 4.Ad2 0-0, 5.e4 d5, 6. exd5 exd5, 7.cxd5 Axc3, \
         8.Axc3 Cxd5, 9.Cf3 b6, 10.Db3 Cxc3, 11.bxc3 c5, 12.Ae2 cxd4, 13.Cxd4 Te8, \
         14.0-0 Cd7, 15.a4 Cc5, 16.Db4 Ab7, 17.a5",
    );
    assert_validated(&g, &SEED);
    assert_eq!(g.language, "es");
    assert_eq!(g.result, "*");
}

#[test]
fn txt_numbers_followed_by_a_space_1_d4_cf6_2_c4_e6() {
    let g = game("game.txt", "1. d4 Cf6 2. c4 e6 3. Cc3 Ab4 4. Ad2 0-0 5. e4 d5\n");
    assert_validated(&g, &SEED[..10]);
}

#[test]
fn txt_one_numbered_pair_per_line_separated_by_spaces() {
    let g = game("game.txt", "1 d4 Cf6\n2 c4 e6\n3 Cc3 Ab4\n4 Ad2 0-0\n5 e4 d5\n");
    assert_validated(&g, &SEED[..10]);
    let g = game("game.txt", "1.  d4    Cf6\n2.  c4    e6\n3.  Cc3   Ab4\n");
    assert_validated(&g, &SEED[..6]);
}

#[test]
fn txt_one_numbered_pair_per_line_separated_by_tabs() {
    let g = game("game.txt", "1\td4\tCf6\n2\tc4\te6\n3\tCc3\tAb4\n4\tAd2\t0-0\n5\te4\td5\n");
    assert_validated(&g, &SEED[..10]);
}

#[test]
fn txt_game_ending_with_whites_move_12_and_blacks_box_empty() {
    let text = "1. d4 Cf6\n2. c4 e6\n3. Cc3 Ab4\n4. Ad2 0-0\n5. e4 d5\n6. exd5 exd5\n\
                7. cxd5 Axc3\n8. Axc3 Cxd5\n9. Cf3 b6\n10. Db3 Cxc3\n11. bxc3 c5\n12. Ae2\n";
    let g = game("game.txt", text);
    assert_validated(&g, &SEED[..23]);
    assert_eq!(g.moves.last().map(String::as_str), Some("Be2"));
    let g = game("game.txt", &text.replace(". ", "\t").replace(' ', "\t"));
    assert_validated(&g, &SEED[..23]);
}

#[test]
fn txt_black_move_written_after_12_dots() {
    // One box per line, Black's marked "n. ...", as some clubs type them.
    let g = game("game.txt", "1. d4\n1. ... Cf6\n2. c4\n2. ... e6\n3. Cc3\n3... Ab4\n");
    assert_validated(&g, &SEED[..6]);
    // A line broken after White's move, Black's continued with "3. ...".
    let g = game("game.txt", "1. e4 e5 2. Ac4 Cc6 3. Dh5\n3. ... Cf6 4. Dxf7++\n");
    assert_validated(&g, &SCHOLARS_MATE);
}

#[test]
fn txt_move_numbers_with_a_parenthesis_1_paren_d4() {
    let g = game("game.txt", "1) d4 Cf6 2) c4 e6 3) Cc3 Ab4 4) Ad2 0-0");
    assert_validated(&g, &SEED[..8]);
}

#[test]
fn txt_moves_without_numbers() {
    let g = game("game.txt", "d4 Cf6 c4 e6 Cc3 Ab4 Ad2 0-0 e4 d5");
    assert_validated(&g, &SEED[..10]);
}

// ------------------------------------------------------- header keys by language

/// A sheet with the seven keys in `keys` (Event ... Result order) and the
/// scholar's mate in `moves`.
fn sheet_with_keys(keys: [&str; 7], date: &str, moves: &str) -> String {
    let values = ["Club Open", "Town Hall", date, "3", "Doe, Jane", "Roe, Richard", "1-0"];
    let mut s: String = keys.iter().zip(values).map(|(k, v)| format!("{k}: {v}\n")).collect();
    s.push('\n');
    s.push_str(moves);
    s.push('\n');
    s
}

fn assert_roster_read(g: &GameReport) {
    assert_eq!(
        roster(g),
        [
            ("Event", "Club Open"),
            ("Site", "Town Hall"),
            ("Date", "2024.03.15"),
            ("Round", "3"),
            ("White", "Doe, Jane"),
            ("Black", "Roe, Richard"),
            ("Result", "1-0"),
        ]
    );
    assert_validated(g, &SCHOLARS_MATE);
}

#[test]
fn header_keys_in_english() {
    let text = sheet_with_keys(
        ["Event", "Site", "Date", "Round", "White", "Black", "Result"],
        "2024.03.15",
        "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7#",
    );
    assert_roster_read(&game("en.txt", &text));
}

#[test]
fn header_keys_in_spanish() {
    let text = sheet_with_keys(
        ["Torneo", "Lugar", "Fecha", "Ronda", "Blancas", "Negras", "Resultado"],
        "15/03/2024",
        "1. e4 e5, 2. Ac4 Cc6, 3. Dh5 Cf6, 4. Dxf7++",
    );
    assert_roster_read(&game("es.txt", &text));
}

#[test]
fn header_keys_in_french() {
    let text = sheet_with_keys(
        ["Tournoi", "Lieu", "Date", "Ronde", "Blancs", "Noirs", "Résultat"],
        "15/03/2024",
        "1. e4 e5 2. Fc4 Cc6 3. Dh5 Cf6 4. Dxf7#",
    );
    assert_roster_read(&game("fr.txt", &text));
}

#[test]
fn header_keys_in_german() {
    let text = sheet_with_keys(
        ["Turnier", "Ort", "Datum", "Runde", "Weiß", "Schwarz", "Ergebnis"],
        "15.03.2024",
        "1. e4 e5 2. Lc4 Sc6 3. Dh5 Sf6 4. Dxf7#",
    );
    assert_roster_read(&game("de.txt", &text));
}

#[test]
fn header_keys_in_italian() {
    let text = sheet_with_keys(
        ["Torneo", "Luogo", "Data", "Turno", "Bianco", "Nero", "Risultato"],
        "15/03/2024",
        "1. e4 e5 2. Ac4 Cc6 3. Dh5 Cf6 4. Dxf7#",
    );
    assert_roster_read(&game("it.txt", &text));
}

#[test]
fn header_keys_in_portuguese() {
    let text = sheet_with_keys(
        ["Torneio", "Local", "Data", "Rodada", "Brancas", "Pretas", "Resultado"],
        "15/03/2024",
        "1. e4 e5 2. Bc4 Cc6 3. Dh5 Cf6 4. Dxf7#",
    );
    let g = game("pt.txt", &text);
    assert_roster_read(&g);
    assert_eq!(g.language, "pt");
}

#[test]
fn header_keys_in_dutch() {
    let text = sheet_with_keys(
        ["Toernooi", "Plaats", "Datum", "Ronde", "Wit", "Zwart", "Uitslag"],
        "15-03-2024",
        "1. e4 e5 2. Lc4 Pc6 3. Dh5 Pf6 4. Dxf7#",
    );
    let g = game("nl.txt", &text);
    assert_roster_read(&g);
    assert_eq!(g.language, "nl");
}

// ----------------------------------------------------------------------- yaml

#[test]
fn yaml_with_the_moves_as_one_string() {
    let g = game(
        "game.yaml",
        "white: Doe, Jane\nblack: Roe, Richard\nresult: 1-0\n\
         moves: 1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7#\n",
    );
    assert_validated(&g, &SCHOLARS_MATE);
    assert_eq!(header(&g, "White"), "Doe, Jane");
    assert_eq!(header(&g, "Black"), "Roe, Richard");
    assert_eq!(g.result, "1-0");
}

#[test]
fn yaml_with_the_moves_as_white_black_pairs() {
    let g = game(
        "game.yml",
        "blancas: Pérez, Juan\nnegras: Núñez, Ana\nmoves:\n  - [e4, e5]\n  - [Ac4, Cc6]\n  \
         - - Dh5\n    - Cf6\n  - [Dxf7++]\n",
    );
    assert_validated(&g, &SCHOLARS_MATE);
    assert_eq!(header(&g, "White"), "Pérez, Juan");
    assert_eq!(header(&g, "Black"), "Núñez, Ana");
    assert_eq!(g.result, "1-0", "a checkmate decides the result");
}

#[test]
fn yaml_stream_with_two_games() {
    let report = read(
        "round3.yaml",
        b"---\nwhite: Doe, Jane\nblack: Roe, Richard\n\
          moves: 1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7#\n\
          ---\nwit: de Vries, Jan\nzwart: Jansen, Eva\nuitslag: remise\n\
          zetten:\n  - [d4, Pf6]\n  - [c4, e6]\n",
    );
    assert_eq!(report.error, None);
    assert_eq!(report.games.len(), 2);
    let (first, second) = (&report.games[0], &report.games[1]);
    assert_validated(first, &SCHOLARS_MATE);
    assert_eq!(header(first, "White"), "Doe, Jane");
    assert_eq!(first.result, "1-0");
    assert_validated(second, &["d4", "Nf6", "c4", "e6"]);
    assert_eq!(header(second, "White"), "de Vries, Jan");
    assert_eq!(header(second, "Black"), "Jansen, Eva");
    assert_eq!(second.result, "1/2-1/2");
    assert_eq!(second.language, "nl");
}

// ------------------------------------------------------------------ csv / tsv

#[test]
fn csv_separated_by_commas_with_quoted_names() {
    let g = game(
        "game.csv",
        "White,\"Doe, Jane\"\nBlack,\"Roe, Richard\"\n\n#,White,Black\n\
         1,e4,e5\n2,Bc4,Nc6\n3,Qh5,Nf6\n4,Qxf7#,\n",
    );
    assert_validated(&g, &SCHOLARS_MATE);
    assert_eq!(header(&g, "White"), "Doe, Jane");
    assert_eq!(header(&g, "Black"), "Roe, Richard");
}

#[test]
fn csv_separated_by_semicolons_as_excel_exports_in_europe() {
    let g = game(
        "partida.csv",
        "Blancas;Pérez, Juan\nNegras;Núñez, Ana\n\n#;Blancas;Negras\n\
         1;e4;e5\n2;Ac4;Cc6\n3;Dh5;Cf6\n4;Dxf7++;\n",
    );
    assert_validated(&g, &SCHOLARS_MATE);
    assert_eq!(header(&g, "White"), "Pérez, Juan");
    assert_eq!(header(&g, "Black"), "Núñez, Ana");
    assert_eq!(g.language, "es");
}

#[test]
fn csv_file_separated_by_tabs() {
    let g = game(
        "partie.csv",
        "Weiß\tMüller, Jan\nSchwarz\tSchmidt, Eva\n\nNr\tWeiß\tSchwarz\n\
         1\te4\te5\n2\tLc4\tSc6\n3\tDh5\tSf6\n4\tDxf7#\n",
    );
    assert_validated(&g, &SCHOLARS_MATE);
    assert_eq!(header(&g, "White"), "Müller, Jan");
    assert_eq!(header(&g, "Black"), "Schmidt, Eva");
}

#[test]
fn tsv_file() {
    let g = game("partie.tsv", "Weiß\tMüller, Jan\nSchwarz\tSchmidt, Eva\n\n1\td4\tSf6\n2\tc4\te6\n3\tSc3\tLb4\n");
    assert_validated(&g, &SEED[..6]);
    assert_eq!(header(&g, "White"), "Müller, Jan");
    assert_eq!(g.language, "de");
}

#[test]
fn csv_with_and_without_a_result_row() {
    let moves = "#,White,Black\n1,d4,Nf6\n2,c4,e6\n";
    let g = game("game.csv", moves);
    assert_validated(&g, &SEED[..4]);
    assert_eq!(g.result, "*");
    let g = game("game.csv", &format!("{moves}1-0\n"));
    assert_validated(&g, &SEED[..4]);
    assert_eq!(g.result, "1-0");
    assert_eq!(header(&g, "Result"), "1-0");
    let g = game("game.csv", &format!("{moves}Result,1/2-1/2\n"));
    assert_validated(&g, &SEED[..4]);
    assert_eq!(g.result, "1/2-1/2");
}

// ------------------------------------------------------------------------ pgn

#[test]
fn pgn_typed_by_hand_with_two_games_in_foreign_letters() {
    let report = read(
        "round3.pgn",
        "[Event \"Stadtmeisterschaft\"]\n[White \"Müller, Jan\"]\n[Black \"Schmidt, Eva\"]\n\
         [Result \"1-0\"]\n\n1. e4 e5 2. Lc4 Sc6 3. Dh5 Sf6 4. Dxf7# 1-0\n\n\
         [Event \"Open de Paris\"]\n[White \"Dupont, Marie\"]\n[Black \"Martin, Luc\"]\n\
         [Result \"*\"]\n\n1. d4 Cf6 2. c4 e6 3. Cc3 Fb4 *\n"
            .as_bytes(),
    );
    assert_eq!(report.error, None);
    assert_eq!(report.games.len(), 2);
    let (de, fr) = (&report.games[0], &report.games[1]);
    assert_validated(de, &SCHOLARS_MATE);
    assert_eq!(de.language, "de");
    assert_eq!(header(de, "White"), "Müller, Jan");
    assert_eq!(de.result, "1-0");
    assert_validated(fr, &SEED[..6]);
    assert_eq!(fr.language, "fr");
    assert_eq!(header(fr, "Event"), "Open de Paris");
    assert_eq!(fr.result, "*");
}

// ------------------------------------------------------------------ encodings

const ACCENTED: &str = "Blancas: Núñez, José\nNegras: Peña, Íñigo\n\n1. e4 e5, 2. Ac4 Cc6, 3. Dh5 Cf6, 4. Dxf7++\n";

fn assert_accented_sheet(g: &GameReport) {
    assert_validated(g, &SCHOLARS_MATE);
    assert_eq!(header(g, "White"), "Núñez, José");
    assert_eq!(header(g, "Black"), "Peña, Íñigo");
}

#[test]
fn utf8_with_a_byte_order_mark() {
    let bytes = [b"\xEF\xBB\xBF".as_slice(), ACCENTED.as_bytes()].concat();
    let g = game_of_bytes("bom.txt", &bytes);
    assert_accented_sheet(&g);
    assert!(!g.pgn.contains('\u{feff}'));
}

#[test]
fn utf16_little_endian_with_a_byte_order_mark() {
    let bytes: Vec<u8> = [0xFF, 0xFE].into_iter().chain(ACCENTED.encode_utf16().flat_map(u16::to_le_bytes)).collect();
    assert_accented_sheet(&game_of_bytes("notepad.txt", &bytes));
}

#[test]
fn utf16_big_endian_with_a_byte_order_mark() {
    let bytes: Vec<u8> = [0xFE, 0xFF].into_iter().chain(ACCENTED.encode_utf16().flat_map(u16::to_be_bytes)).collect();
    assert_accented_sheet(&game_of_bytes("mac.txt", &bytes));
}

#[test]
fn windows_1252_from_an_old_windows_machine() {
    let (bytes, _, unmappable) = encoding_rs::WINDOWS_1252.encode(ACCENTED);
    assert!(!unmappable);
    assert!(std::str::from_utf8(&bytes).is_err(), "must not be UTF-8");
    assert_accented_sheet(&game_of_bytes("old.txt", &bytes));
    // A draw typed "½-½" is byte 0xBD in Windows-1252.
    let g = game_of_bytes("old.txt", b"Resultado: \xbd-\xbd\n\n1. d4 Cf6 2. c4 e6\n");
    assert_eq!(g.result, "1/2-1/2");
}

#[test]
fn a_file_typed_in_windows_1252_says_the_encoding_was_guessed() {
    // The moves are plain ASCII; the first byte that is not UTF-8 is the "ñ"
    // of the second line.
    let (bytes, _, _) = encoding_rs::WINDOWS_1252.encode(ACCENTED);
    let g = game_of_bytes("old.txt", &bytes);
    assert_accented_sheet(&g);
    let guessed: Vec<_> = g.findings.iter().filter(|f| f.code == "encoding-guessed").collect();
    assert_eq!(guessed.len(), 1, "{:?}", codes(&g));
    assert_eq!(guessed[0].severity, Severity::Info, "a guess that read well leaves the game validated");
    assert!(guessed[0].message.contains("Windows-1252") && guessed[0].message.contains("line 1"), "{guessed:?}");
    assert!(g.pgn.contains("{encoding-guessed: "), "the PGN says it too:\n{}", g.pgn);
    // Every game of the file says so.
    let pgn = encoding_rs::WINDOWS_1252.encode("[White \"Muñoz\"]\n\n1. e4 e5 *\n\n[White \"Peña\"]\n\n1. d4 d5 *\n").0;
    let report = read("two.pgn", &pgn);
    assert_eq!(report.games.len(), 2);
    for g in &report.games {
        assert!(codes(g).contains(&"encoding-guessed"), "{:?}", codes(g));
    }
    // UTF-8, UTF-16 and plain ASCII are not guesses.
    for (name, bytes) in [("utf8.txt", ACCENTED.as_bytes().to_vec()), ("ascii.txt", b"1. e4 e5 2. Nf3 Nc6".to_vec())] {
        let g = game_of_bytes(name, &bytes);
        assert!(!codes(&g).contains(&"encoding-guessed"), "{name}: {:?}", codes(&g));
    }
}

#[test]
fn a_file_of_utf8_lines_with_a_windows_1252_line_added_keeps_both_names_right() {
    // "White: López" saved as UTF-8; "Black: Pérez" added on an old Windows machine.
    let bytes = b"White: L\xc3\xb3pez\nBlack: P\xe9rez\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n";
    let g = game_of_bytes("mixed.txt", bytes);
    assert_eq!((header(&g, "White"), header(&g, "Black")), ("López", "Pérez"));
    assert!(!g.pgn.contains('Ã'), "{}", g.pgn);
    let guessed = g.findings.iter().find(|f| f.code == "encoding-guessed").expect("the guess is told");
    assert!(guessed.message.contains("line 2"), "{}", guessed.message);
    assert_eq!(g.status, Status::Validated, "{:?}", codes(&g));
}

#[test]
fn invisible_marks_pasted_into_a_name_and_the_moves_are_dropped_with_a_notice() {
    // A zero-width joiner and a right-to-left override in Black's name, a
    // left-to-right mark after two moves (as pasted from a chat).
    let text = "White: Núñez\nBlack: Pe\u{200D}ña \u{202E}Íñigo\n\n1. e4\u{200E} e5 2. Nf3 Nc6\u{200E} 3. Bb5 a6 1-0\n";
    let g = game("pasted.txt", text);
    assert_eq!(header(&g, "Black"), "Peña Íñigo");
    assert_eq!(g.moves, ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]);
    assert_eq!(g.status, Status::Validated, "{:?}", codes(&g));
    assert!(!g.pgn.contains(['\u{200D}', '\u{202E}', '\u{200E}']), "{}", g.pgn);
    let notice = g.findings.iter().find(|f| f.code == "invisible-characters").expect("the notice");
    assert_eq!(notice.severity, Severity::Info);
    let m = &notice.message;
    assert!(m.starts_with("4 invisible characters") && m.contains("zero-width"), "{m}");
    assert!(m.contains("marks of writing direction") && m.contains("line 2"), "{m}");
    // Lines stay; a column counts what an editor shows: "e5" is after a mark on its line.
    let e5 = g.written.iter().flatten().find(|e| e.text == "e5").expect("e5 as written");
    assert_eq!((e5.line, e5.col), (4, 7));
    // Of two games in one file, only the one whose lines had them says so.
    let two = format!("White: A\nBlack: B\n\n1. d4 d5 1-0\n\n{text}");
    let report = read("two.txt", two.as_bytes());
    let told: Vec<bool> =
        report.games.iter().map(|g| g.findings.iter().any(|f| f.code == "invisible-characters")).collect();
    assert_eq!(told, [false, true]);
}

#[test]
fn crlf_line_ends_in_text_and_csv() {
    let g = game("dos.txt", &ACCENTED.replace('\n', "\r\n"));
    assert_accented_sheet(&g);
    assert!(!g.pgn.contains('\r'));
    let g = game(
        "dos.csv",
        "Blancas;Núñez, José\r\nNegras;Peña, Íñigo\r\n\r\n#;Blancas;Negras\r\n\
         1;e4;e5\r\n2;Ac4;Cc6\r\n3;Dh5;Cf6\r\n4;Dxf7++;\r\n",
    );
    assert_accented_sheet(&g);
    assert!(!g.pgn.contains('\r'));
}

// ------------------------------------------------------------------ bad input

fn assert_refused(report: &FileReport, mentions: &str) {
    let error = report.error.as_deref().unwrap_or_else(|| {
        panic!("{} was accepted: {:?}", report.path, report.games.iter().map(|g| g.status).collect::<Vec<_>>())
    });
    assert!(error.contains(mentions), "the error \"{error}\" should mention \"{mentions}\"");
    assert!(report.games.is_empty());
    assert!(report.rejected());
}

#[test]
fn empty_file_is_refused() {
    assert_refused(&read("empty.txt", b""), "empty");
    assert_refused(&read("blank.txt", b"  \r\n\n\t\n"), "empty");
}

#[test]
fn binary_file_is_refused() {
    let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\x01\0\0\0\x01\0\x08\x06\0\0\0";
    assert_refused(&read("photo-of-sheet.txt", png), "binary");
}

#[test]
fn file_over_the_size_limit_is_refused_and_one_at_the_limit_read() {
    let text = b"1. d4 Cf6 2. c4 e6 3. Cc3 Ab4";
    let opts = Options { max_file_bytes: text.len() - 1, ..Options::default() };
    assert_refused(&convert("big.txt", text, &opts), &format!("{}", text.len() - 1));
    let opts = Options { max_file_bytes: text.len(), ..Options::default() };
    let report = convert("big.txt", text, &opts);
    assert_eq!(report.error, None);
    assert_eq!(report.games[0].moves, SEED[..6]);
}

#[test]
fn broken_yaml_is_refused_naming_the_line() {
    let report = read("broken.yaml", b"white: Doe, Jane\nmoves:\n  - [e4, e5\n  - [Bc4, Nc6]\nblack: Roe\n");
    let error = report.error.as_deref().expect("broken YAML accepted");
    assert!(error.starts_with("line "), "no line in \"{error}\"");
    let line: usize = error["line ".len()..].split(':').next().and_then(|n| n.parse().ok()).expect("a line number");
    assert!((3..=5).contains(&line), "line {line} in \"{error}\"");
    assert!(report.games.is_empty());
}

#[test]
fn broken_csv_with_an_unbalanced_quote_is_refused_naming_the_line() {
    let report = read("broken.csv", b"#,White,Black\n1,e4,e5\n2,\"Bc4,Nc6\n3,Qh5,Nf6\n4,Qxf7#,\n");
    assert_refused(&report, "line 3");
}

#[test]
fn a_long_entry_is_quoted_short_in_the_pgn_and_the_messages_and_a_megabyte_line_refused() {
    let flood = "Cx".repeat(500_000);
    let report = read("flood.txt", format!("1. e4 e5\n2. {flood} Cc6 3. Ac4 Cf6\n").as_bytes());
    assert_eq!(report.error.as_deref(), Some("line 2: the line is over 65536 bytes; no sheet has such a line"));
    // Within the limit of a line, the longest entry is read and quoted short.
    let long = "Cx".repeat(30_000);
    let report = read("flood.txt", format!("1. e4 e5 2. {long} Cc6 3. Ac4 Cf6\n").as_bytes());
    assert_eq!(report.error, None);
    let g = &report.games[0];
    let about: Vec<_> = g.findings.iter().filter(|f| f.written.as_deref() == Some(long.as_str())).collect();
    assert!(!about.is_empty(), "a finding about the long entry: {:?}", codes(g));
    let head: String = long.chars().take(40).collect();
    for f in &about {
        assert!(f.message.contains(&format!("\"{head}…\"")), "{}", &f.message[..f.message.len().min(300)]);
        assert!(f.message.len() < 1_000, "{}: a message of {} bytes", f.code, f.message.len());
    }
    // The PGN: every line within the export format's 80 characters.
    let widest = g.pgn.lines().map(|l| l.chars().count()).max().unwrap_or(0);
    assert!(widest <= 80 && g.pgn.len() < 10_000, "PGN of {} bytes, widest line {widest}", g.pgn.len());
    // A header value is quoted short too.
    let g = game("lang.txt", &format!("Language: {long}\n\n1. e4 e5 2. Cf3 Cc6\n"));
    let unknown = g.findings.iter().find(|f| f.code == "unknown-language").expect("unknown-language");
    assert!(unknown.message.len() < 1_000, "a message of {} bytes", unknown.message.len());
}

#[test]
fn a_yaml_form_with_100000_keys_keeps_64_headers_and_says_so() {
    let mut yaml: String = (0..100_000).map(|i| format!("K{i}: a\n")).collect();
    yaml.push_str("moves: \"1.e4 e5 2.Nf3 Nc6\"\n");
    let started = std::time::Instant::now();
    let g = game("form.yaml", &yaml);
    println!("100,000 keys read in {:.2} s", started.elapsed().as_secs_f64());
    assert_eq!(g.moves, ["e4", "e5", "Nf3", "Nc6"]);
    // The roster's seven tags, then the first 64 fields of the sheet.
    assert_eq!(g.headers.len(), 7 + 64, "{:?}", g.headers.keys().take(10).collect::<Vec<_>>());
    assert_eq!(header(&g, "K63"), "a");
    assert!(!g.headers.contains_key("K64"));
    assert_eq!(g.pgn.lines().filter(|l| l.starts_with('[')).count(), 7 + 64);
    let dropped = g.findings.iter().find(|f| f.code == "headers-dropped").expect("a headers-dropped finding");
    assert_eq!(dropped.severity, Severity::Warning, "the PGN lacks fields the sheet has: a person looks");
    assert!(dropped.message.contains("left out") && dropped.message.contains("\"K"), "{}", dropped.message);
    // The moves and the result are not in doubt: published, the notice with it.
    assert_eq!(g.status, Status::Validated);
    // A sheet with a usual number of fields keeps them all, and says nothing.
    let g = game("form.yaml", "white: A\nblack: B\nevent: Open\nround: 3\nboard: 7\nmoves: 1.e4 e5\n");
    assert!(!codes(&g).contains(&"headers-dropped"));
    assert_eq!(header(&g, "Board"), "7");
}

#[test]
fn garbage_never_panics() {
    // (file, bytes, whether it must be refused as a whole)
    let inputs: [(&str, &[u8], bool); 10] = [
        ("odd-utf16.txt", b"\xFF\xFE1\x00.\x00 \x00e", true),
        ("only-bom.txt", b"\xEF\xBB\xBF", true),
        ("only-dashes.yaml", b"---\n", true),
        ("moves-map.yaml", b"moves:\n  a: b\n", true),
        ("list.yaml", b"- e4\n- e5\n", true),
        ("quote.csv", b"\"", true),
        ("titles.csv", b"#,White,Black\n", true),
        ("open-tag.pgn", b"[Event \"x\n1. e4", true),
        ("huge-number.txt", b"9999999999. e4 e5 4294967296... Nf3", false),
        ("unicode.txt", "1. \u{e9}4 \u{bd} \u{2658}f3 \u{216b} {".as_bytes(), false),
    ];
    for (name, bytes, refused) in inputs {
        let report =
            std::panic::catch_unwind(|| read(name, bytes)).unwrap_or_else(|_| panic!("{name} made the reader panic"));
        assert_eq!(report.path, name);
        assert!(report.error.is_some() || !report.games.is_empty(), "{name}: neither error nor game");
        if refused {
            assert!(report.error.is_some(), "{name} was not refused");
        }
    }
}

#[test]
fn txt_with_a_stray_word_after_the_last_move() {
    let g = game("game.txt", "1. e4 e5 2. Cf3 Cc6 3. Ab5 a6 4. Aa4 Zz9\n");
    assert_eq!(g.moves, ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4"]);
    let about_entries: Vec<(&str, Option<&str>)> =
        g.findings.iter().filter(|f| f.ply.is_some()).map(|f| (f.code, f.written.as_deref())).collect();
    assert_eq!(about_entries.len(), 1, "{about_entries:?}");
    assert_eq!(about_entries[0].1, Some("Zz9"), "{about_entries:?}");
}

// ------------------------------------------------------------------- examples

fn examples(folder: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples").join(folder);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
}

fn convert_file(path: &Path) -> FileReport {
    let bytes = std::fs::read(path).unwrap();
    read(&path.display().to_string(), &bytes)
}

/// A game as a strict PGN reader sees it: tags in order, the mainline SAN as
/// written, each replayed with shakmaty, and the result token.
#[derive(Default)]
struct Replayed {
    tags: Vec<(String, String)>,
    sans: Vec<String>,
    outcome: Option<String>,
    problems: Vec<String>,
    pos: Chess,
}

struct Replay;

impl Visitor for Replay {
    type Tags = Vec<(String, String)>;
    type Movetext = Replayed;
    type Output = Replayed;

    fn begin_tags(&mut self) -> ControlFlow<Replayed, Self::Tags> {
        ControlFlow::Continue(Vec::new())
    }

    fn tag(&mut self, tags: &mut Self::Tags, name: &[u8], value: RawTag<'_>) -> ControlFlow<Replayed> {
        tags.push((String::from_utf8_lossy(name).into_owned(), value.decode_utf8_lossy().into_owned()));
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Replayed, Replayed> {
        ControlFlow::Continue(Replayed { tags, ..Replayed::default() })
    }

    fn san(&mut self, game: &mut Replayed, san_plus: SanPlus) -> ControlFlow<Replayed> {
        let written = san_plus.to_string();
        match san_plus.san.to_move(&game.pos) {
            Ok(m) => {
                let canonical = SanPlus::from_move_and_play_unchecked(&mut game.pos, m);
                if canonical.to_string() != written {
                    game.problems.push(format!("{written} is not standard SAN ({canonical})"));
                }
                game.sans.push(written);
                ControlFlow::Continue(())
            }
            Err(e) => {
                game.problems.push(format!("{written}: {e}"));
                ControlFlow::Break(std::mem::take(game))
            }
        }
    }

    fn begin_variation(&mut self, game: &mut Replayed) -> ControlFlow<Replayed, Skip> {
        game.problems.push("a variation in the mainline".into());
        ControlFlow::Continue(Skip(true))
    }

    fn outcome(&mut self, game: &mut Replayed, outcome: Outcome) -> ControlFlow<Replayed> {
        game.outcome = Some(outcome.to_string());
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, game: Replayed) -> Replayed {
        game
    }
}

/// Checks a PGN file against the games of its report with the strict reader.
fn check_pgn_file(path: &Path, report: &FileReport) {
    let name = path.display();
    let pgn = report.pgn().unwrap_or_else(|| panic!("{name}: no PGN"));
    for line in pgn.lines() {
        assert!(line.chars().count() <= 80, "{name}: a line of {} characters: {line}", line.chars().count());
    }
    let mut reader = Reader::new(std::io::Cursor::new(pgn.as_bytes()));
    for (i, g) in report.games.iter().enumerate() {
        let replayed = reader
            .read_game(&mut Replay)
            .unwrap_or_else(|e| panic!("{name} game {}: {e}", i + 1))
            .unwrap_or_else(|| panic!("{name}: game {} missing from the PGN", i + 1));
        assert_eq!(replayed.problems, Vec::<String>::new(), "{name} game {}", i + 1);
        let names: Vec<&str> = replayed.tags.iter().map(|(k, _)| k.as_str()).collect();
        assert!(names.len() >= 7 && names[..7] == ROSTER, "{name} game {}: tags {names:?}", i + 1);
        assert_eq!(replayed.sans, g.moves, "{name} game {}", i + 1);
        assert_eq!(replayed.outcome.as_deref(), Some(g.result.as_str()));
        let result_tag = &replayed.tags[6].1;
        assert_eq!(result_tag, &g.result, "{name} game {}", i + 1);
        for (k, v) in &replayed.tags {
            assert_eq!(g.headers.get(k).and_then(|v| v.as_str()), Some(v.as_str()));
        }
    }
    assert!(reader.read_game(&mut Replay).unwrap().is_none(), "{name}: more games in the PGN than in the report");
}

#[test]
fn every_example_sheet_converts_validated_to_strict_pgn() {
    let files = examples("sheets");
    let mut languages = std::collections::BTreeSet::new();
    let mut extensions = std::collections::BTreeSet::new();
    for path in &files {
        let report = convert_file(path);
        let name = path.display();
        assert_eq!(report.error, None, "{name}");
        assert!(!report.games.is_empty(), "{name}");
        for g in &report.games {
            assert_eq!(moves_status(g), Status::Validated, "{name}: {:?}", g.findings);
            assert!(!g.moves.is_empty(), "{name}");
            assert_ne!(header(g, "White"), "?", "{name}: no White player");
            assert_ne!(header(g, "Black"), "?", "{name}: no Black player");
            languages.insert(g.language.clone());
        }
        check_pgn_file(path, &report);
        extensions.insert(path.extension().unwrap().to_string_lossy().into_owned());
    }
    assert!(languages.len() >= 5, "languages: {languages:?}");
    for ext in ["txt", "yaml", "csv", "tsv", "pgn"] {
        assert!(extensions.contains(ext), "no .{ext} example");
    }
}

#[test]
fn example_fide_sheet_reads_as_the_seed_game() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/sheets");
    let report = convert_file(&dir.join("fide-example-es.txt"));
    let g = &report.games[0];
    assert_validated(g, &SEED);
    assert_eq!(g.language, "es");
    let report = convert_file(&dir.join("scholars-mate-es.txt"));
    let g = &report.games[0];
    assert_validated(g, &SCHOLARS_MATE);
    assert_eq!(g.result, "1-0");
}

#[test]
fn example_sheets_include_windows_1252_and_crlf_files() {
    let files = examples("sheets");
    let bytes: Vec<Vec<u8>> = files.iter().map(|p| std::fs::read(p).unwrap()).collect();
    assert!(bytes.iter().any(|b| std::str::from_utf8(b).is_err()), "no Windows-1252 example");
    assert!(bytes.iter().any(|b| b.windows(2).any(|w| w == b"\r\n")), "no CRLF example");
}

#[test]
fn example_faulty_sheet_goes_to_review() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/faulty/illegal-and-illegible-es.txt");
    {
        let report = convert_file(&path);
        assert_eq!(report.error, None);
        let g = &report.games[0];
        assert_eq!(g.status, Status::Review, "{}", path.display());
        // Both faulty boxes are pointed out, at least one as needing a person.
        for written in ["?", "Dxh7"] {
            assert!(
                g.findings.iter().any(|f| f.written.as_deref() == Some(written)),
                "no finding about {written}: {:?}",
                codes(g)
            );
        }
        assert!(g.findings.iter().any(|f| f.severity >= Severity::Warning && f.ply.is_some()));
        // What was read before the problem is still written, as valid PGN.
        check_pgn_file(&path, &report);
    }
}

#[test]
fn a_fen_tag_typed_in_a_pgn_is_kept_and_the_moves_read_from_its_position() {
    let report =
        read("fen.pgn", b"[Event \"x\"]\n[SetUp \"1\"]\n[FEN \"8/8/8/8/8/8/8/K6k w - - 0 1\"]\n\n1. e4 e5 *\n");
    let g = &report.games[0];
    assert_eq!(g.pgn.matches("[SetUp \"1\"]").count(), 1, "{}", g.pgn);
    assert_eq!(g.pgn.matches("[FEN \"8/8/8/8/8/8/8/K6k w - - 0 1\"]").count(), 1, "{}", g.pgn);
    // Two bare kings: `e4` is no move there, and it is never read from the standard start.
    assert!(g.moves.is_empty());
    assert!(g.findings.iter().any(|f| f.code == "illegal-move"), "{:?}", codes(g));
    assert_eq!(g.status, Status::Rejected);
}

#[test]
fn a_newline_inside_a_yaml_header_stays_on_one_pgn_tag_line() {
    let report = read("nl.yaml", b"event: \"Open\\nRound 2\"\nwhite: \"A\\u0000B\"\nmoves: 1.e4 e5\n");
    let pgn = &report.games[0].pgn;
    assert!(pgn.contains("[Event \"Open Round 2\"]"), "{pgn}");
    assert!(pgn.lines().all(|l| !l.chars().any(char::is_control)), "{pgn:?}");
}

/// A YAML bomb (aliases nine deep, nine each: 387 million strings if expanded)
/// and nesting 1,000 deep are refused at once, naming a line, in little memory.
#[test]
fn yaml_bombs_and_deep_nesting_are_refused_with_their_line() {
    let mut bomb = String::from("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
    for i in 1..10u8 {
        let (name, prev) = ((b'a' + i) as char, (b'a' + i - 1) as char);
        bomb.push_str(&format!("{name}: &{name} [{}]\n", vec![format!("*{prev}"); 9].join(",")));
    }
    bomb.push_str("moves: *j\n");
    let deep: String = (0..1000).map(|i| format!("{}b:\n", " ".repeat(i + 1))).collect();
    for (name, text) in [("bomb.yaml", bomb), ("deep.yaml", format!("a:\n{deep}"))] {
        let report = read(name, text.as_bytes());
        let error = report.error.as_deref().unwrap_or_else(|| panic!("{name} accepted"));
        assert!(error.starts_with("line ") && error.contains("limit exceeded"), "{name}: {error}");
        assert!(report.games.is_empty());
    }
}
