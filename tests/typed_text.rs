//! Game texts as people type them on web pages and in bulletins: each test
//! is named for what a user typed, and asserts the game it gives.

use scoresheet::convert::{Options, convert};
use scoresheet::emit::report::GameReport;
use scoresheet::finding::Severity;

fn game(text: &str) -> GameReport {
    convert("partie.txt", text.as_bytes(), &Options::default()).games.remove(0)
}

#[test]
fn nf3_with_a_question_mark_typed_apart() {
    let g = game("1. e4 e5 2. Nf3 ? Nc6 3. Bb5 a6 1/2-1/2\n");
    assert_eq!(g.moves, ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]);
    assert!(g.pgn.contains("2. Nf3 $2 Nc6"), "{}", g.pgn);
    assert!(g.findings.iter().all(|f| f.code != "illegible-entry"), "{:?}", g.findings);
}

#[test]
fn a_variation_in_square_brackets() {
    let g = game("1. e4 e5 2. Nf3 [2. f4 exf4 3. Nf3] Nc6 3. Bb5 1-0\n");
    assert_eq!(g.moves, ["e4", "e5", "Nf3", "Nc6", "Bb5"]);
    let flat = g.pgn.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("2. Nf3 (2. f4 exf4 3. Nf3) 2... Nc6"), "kept as a variation: {flat}");
}

#[test]
fn captures_and_checks_typed_with_spaces() {
    let g = game(
        "Idioma: es\n\n1. e4 d5 2. ex d5 Dx d5 3. Cc3 Da5 4. d4 c6 5. Cf3 Af5 6. Ac4 e6 7. Ad2 Ab4 8. a3 Ax c3 9. Ax c3 Dc7 1/2-1/2\n",
    );
    assert_eq!(g.moves[2..4], ["exd5", "Qxd5"]);
    assert_eq!(g.moves[15..], ["Bxc3", "Bxc3", "Qc7"]);
    let g = game("1. e4 f5 2. Qh5 + g6 1-0\n");
    assert_eq!(g.moves, ["e4", "f5", "Qh5+", "g6"]);
    assert!(g.findings.iter().all(|f| f.code != "extra-entry"), "{:?}", g.findings);
}

#[test]
fn white_resigns_written_after_the_moves() {
    let g = game("1. f3 e5 2. g4 Qh4#\n");
    assert_eq!(g.result, "0-1");
    let g = game("1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7\nBlack resigns.\n");
    assert_eq!((g.moves.len(), g.result.as_str()), (8, "1-0"));
    let g = game("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 Resigns\n");
    assert_eq!(g.result, "0-1", "White, to move, gave up");
}

#[test]
fn the_players_written_above_the_moves() {
    for (text, white, black, result) in [
        ("Marshall - Capablanca\n1. d4 d5 2. c4 e6 1-0\n", "Marshall", "Capablanca", "1-0"),
        ("A vs B\n1. d4 d5 2. c4 e6 0-1\n", "A", "B", "0-1"),
        ("Tal, M. – Botvinnik, M., 1-0\n\n1. d4 d5 2. c4 e6\n", "Tal, M.", "Botvinnik, M.", "1-0"),
    ] {
        let g = game(text);
        assert_eq!(g.moves, ["d4", "d5", "c4", "e6"], "{text}");
        assert!(g.pgn.contains(&format!("[White \"{white}\"]")), "{text}: {}", g.pgn);
        assert!(g.pgn.contains(&format!("[Black \"{black}\"]")), "{text}: {}", g.pgn);
        assert_eq!(g.result, result, "{text}");
    }
}

#[test]
fn white_and_black_in_german_on_one_line() {
    let g = game("Weiß: Reddmann Schwarz: Schmidt\n\n1. e4 c5 2. Sf3 d6 1/2-1/2\n");
    assert!(g.pgn.contains("[White \"Reddmann\"]"), "{}", g.pgn);
    assert!(g.pgn.contains("[Black \"Schmidt\"]"), "{}", g.pgn);
    assert_eq!(g.moves, ["e4", "c5", "Nf3", "d6"]);
}

#[test]
fn two_games_in_one_text_file() {
    let text = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n1. d4 d5 2. c4 e6 0-1\n";
    let games = convert("two.txt", text.as_bytes(), &Options::default()).games;
    let read: Vec<(Vec<String>, String)> = games.into_iter().map(|g| (g.moves, g.result)).collect();
    assert_eq!(read.len(), 2, "{read:?}");
    assert_eq!(read[0].0, ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]);
    assert_eq!(read[1], (vec!["d4".into(), "d5".into(), "c4".into(), "e6".into()], "0-1".to_string()));
    // The second game's findings give the file's lines.
    let text = "1. e4 e5 2. Nf3 Nc6 1-0\n\n1. d4 d5 2. c4 Qxx9 0-1\n";
    let games = convert("two.txt", text.as_bytes(), &Options::default()).games;
    let f = games[1].findings.iter().find(|f| f.written.as_deref() == Some("Qxx9")).expect("the bad entry");
    assert_eq!((f.line, f.col), (Some(3), Some(16)));
}

#[test]
fn numbered_games_on_a_textbook_page() {
    let text = "Партия №14.\n1. e4 e5 2. Nf3 Nc6\n\nПартия №15.\n1. d4 d5 2. c4 c6\n\nGame 3\nWhite: A\nBlack: B\n1. c4 e5 1/2-1/2\n";
    let games = convert("book.txt", text.as_bytes(), &Options::default()).games;
    let moves: Vec<String> = games.iter().map(|g| g.moves.join(" ")).collect();
    assert_eq!(moves, ["e4 e5 Nf3 Nc6", "d4 d5 c4 c6", "c4 e5"]);
    assert!(games[2].pgn.contains("[White \"A\"]"));
}

#[test]
fn a_set_up_position_is_read_from_that_position() {
    // An odds game (White without the queen's rook), as a page gives it.
    let odds = "1nbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w Qk - 0 1";
    for text in [
        format!("FEN: {odds}\n\n1. e4 e5 2. Nf3 Nc6 1-0\n"),
        format!("[FEN \"{odds}\"]\n[SetUp \"1\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n"),
    ] {
        let g = game(&text);
        assert_eq!(g.moves, ["e4", "e5", "Nf3", "Nc6"], "{text}");
        assert_eq!(format!("{:?}", g.status), "Validated", "{text}: {:?}", g.findings);
        assert!(g.pgn.contains(&format!("[FEN \"{odds}\"]")), "{}", g.pgn);
    }
    // Chess960 without its position cannot be read: it is never read from
    // the standard start.
    let g = game("Variant: Chess960\n\n1. e4 e5 2. Nf3 Nc6 1-0\n");
    let f = g.findings.iter().find(|f| f.code == "set-up-position").expect("said");
    assert_eq!(format!("{:?}", f.severity), "Error");
    assert_eq!(format!("{:?}", g.status), "Rejected");
    let standard = "FEN: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n\n1. e4 e5 2. Nf3 Nc6 1-0\n";
    assert_eq!(format!("{:?}", game(standard).status), "Validated");
    let pgn = format!("[Event \"?\"]\n[FEN \"{odds}\"]\n[SetUp \"1\"]\n\n1. e4 e5 1-0\n");
    let g = convert("odds.pgn", pgn.as_bytes(), &Options::default()).games.remove(0);
    assert_eq!(g.moves, ["e4", "e5"]);
    assert!(g.findings.iter().all(|f| f.code != "set-up-position"), "{:?}", g.findings);
}

#[test]
fn a_table_with_dots_in_the_empty_column() {
    let g = game("White Black\n1. e4 ...\n... e5\n2. Nf3 ...\n... Nc6\n3. Bb5 ...\n... a6\n4. Ba4 Nf6 1-0\n");
    assert_eq!(g.moves, ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6"]);
    assert!(g.findings.iter().all(|f| f.severity == Severity::Info), "{:?}", g.findings);
    // Black's move in its own row after White's, no placeholder in the row above.
    let g = game("1. e4\n... e5\n2. Nf3\n... Nc6\n1/2-1/2\n");
    assert_eq!(g.moves, ["e4", "e5", "Nf3", "Nc6"]);
    assert!(g.findings.iter().all(|f| f.code != "illegible-entry"), "{:?}", g.findings);
}

#[test]
fn results_written_with_colons_spaces_and_a_full_stop() {
    let moves = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6";
    for (end, want) in [
        ("1 : 0", "1-0"),
        ("1:0", "1-0"),
        ("0 - 1.", "0-1"),
        ("0:1", "0-1"),
        ("½:½", "1/2-1/2"),
        ("½ - ½", "1/2-1/2"),
        ("remis", "1/2-1/2"),
        ("Remis.", "1/2-1/2"),
    ] {
        let g = game(&format!("{moves} {end}\n"));
        assert_eq!((g.moves.len(), g.result.as_str()), (6, want), "{end}: {:?}", g.findings);
    }
}

#[test]
fn resignations_in_german_russian_spanish_and_italian() {
    for (text, want) in [
        ("1. e4 e5 2. Sf3 Sc6 3. Lb5 a6 aufgegeben", "0-1"),
        ("1. e4 e5 2. Sf3 Sc6 3. Lb5 a6 Weiß: aufgegeben", "0-1"),
        ("1. e4 e5 2. Кf3 Кc6 3. Сb5 a6 Белые сдались.", "0-1"),
        ("1. e4 e5 2. Cf3 Cc6 3. Ab5 a6 Las negras abandonan.", "1-0"),
        ("1. e4 e5 2. Cf3 Cc6 3. Ab5 a6 Il Nero abbandona", "1-0"),
    ] {
        let g = game(&format!("{text}\n"));
        assert_eq!(g.moves, ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"], "{text}");
        assert_eq!(g.result, want, "{text}");
        assert!(g.findings.iter().all(|f| f.code != "extra-entry"), "{text}: {:?}", g.findings);
    }
}

#[test]
fn moves_printed_after_black_resigned_are_not_played() {
    // What would have followed, as the page prints it after the resignation.
    for text in [
        "1. e4 e5 2. Кf3 Кc6 3. Сb5 a6 Черные сдались. 4. Сxc6 dxc6 5. Кxe5\n",
        "1. e4 e5 2. Кf3 Кc6 3. Сb5 a6\nЧерные сдались.\n4. Сxc6 dxc6 5. Кxe5\n",
    ] {
        let g = game(text);
        assert_eq!(g.moves, ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"], "{text}");
        assert_eq!(g.result, "1-0", "{text}");
        let flat = g.pgn.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(flat.contains("dxc6"), "kept as a comment: {flat}");
        assert!(!flat.contains("4. Bxc6"), "never played: {flat}");
    }
}

#[test]
fn move_numbers_in_full_width_digits_and_ordinal_dots() {
    for text in [
        "１. e4 e5 ２. Nf3 Nc6 ３. Bb5 a6 1-0\n",
        "1 . e4 e5 2 . Nf3 Nc6 3 . Bb5 a6 1-0\n",
        "1) e4 e5, 2) Nf3 Nc6, 3) Bb5 a6, 1-0\n",
    ] {
        let g = game(text);
        assert_eq!(g.moves, ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"], "{text}");
        assert!(g.findings.iter().all(|f| f.severity == Severity::Info), "{text}: {:?}", g.findings);
    }
}

#[test]
fn a_long_algebraic_game_with_a_full_stop_after_each_move() {
    let g = game("1. e2-e4 e7-e5. 2. Кg1-f3 Кb8-c6. 3. Крe1-e2. Крe8-e7. 1/2-1/2\n");
    assert_eq!(g.moves, ["e4", "e5", "Nf3", "Nc6", "Ke2", "Ke7"]);
    assert!(g.findings.iter().all(|f| f.code != "typo-repaired"), "{:?}", g.findings);
}

#[test]
fn a_place_and_a_year_above_the_moves() {
    let g = game("Marshall - Capablanca\nNueva York, 1909\n\n1. d4 d5 2. c4 e6 3. Nc3 Nf6 1-0\n");
    assert_eq!(g.moves, ["d4", "d5", "c4", "e6", "Nc3", "Nf6"]);
    assert!(g.findings.iter().all(|f| f.severity == Severity::Info), "{:?}", g.findings);
}

#[test]
fn a_second_game_after_a_line_saying_who_resigned() {
    let text = "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#\n\n1. d4 d5 2. c4 e6\nWhite resigns.\n\n1. c4 e5 1/2-1/2\n";
    let games = convert("three.txt", text.as_bytes(), &Options::default()).games;
    let read: Vec<(String, String)> = games.into_iter().map(|g| (g.moves.join(" "), g.result)).collect();
    assert_eq!(
        read,
        [
            ("e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7#".to_string(), "1-0".to_string()),
            ("d4 d5 c4 e6".to_string(), "0-1".to_string()),
            ("c4 e5".to_string(), "1/2-1/2".to_string())
        ]
    );
}

#[test]
fn a_newspaper_column_with_slashes_and_captures_as_spaced_dashes() {
    let g = game(
        "Blancas: S. Kishnev. Negras: R. Rabiega.\n1 d4, d5 / 2 c4, Cc6 (un contraataque) / 3 c - d5, D - d5 / 4 e3, e5 / 5 Cc3, Ab4 / 6 Ad2, A - c3 / 7 A - c3, e - d4 / 8 Ce2, Cf6 / 9 C - d4, 0-0 / 10 Ae2, D - g2 / 11 Af3, Dg6 / 12 C - c6, b - c6 y las negras abandonaron.\n",
    );
    assert_eq!(g.moves[4..8], ["cxd5", "Qxd5", "e3", "e5"]);
    assert_eq!(g.moves.len(), 24);
    assert_eq!(g.result, "1-0");
    let g = game("1 e4, e5 / 2 d4, d5 / 3 e - d5, e4 / 4 d5, c5 / 5 d - c6 a. p., b - c6 / 6 Ad3, Cf6 1-0\n");
    assert_eq!(g.moves[8..10], ["dxc6", "bxc6"]);
}

#[test]
fn notes_between_the_moves_that_name_other_moves() {
    let text = "1. e4 e5 2. Bc4 Bc5 3. b4 Bxb4 4. f4 exf4. The proper play is 4. ... d5. (See Staunton's Handbook p. 208). 5. Nf3 Nc6. Staunton here makes Black play 5. ... Qe7. 6. c3 Bc5 1-0\n";
    let g = game(text);
    assert_eq!(g.moves, ["e4", "e5", "Bc4", "Bc5", "b4", "Bxb4", "f4", "exf4", "Nf3", "Nc6", "c3", "Bc5"]);
    assert!(g.findings.iter().all(|f| f.severity == Severity::Info), "{:?}", g.findings);
}

#[test]
fn a_correspondence_game_in_play_with_rows_split_by_notes() {
    let text = "IL RISVEGLIO DEL GIOCATORE\n\n1) e4, e5;\n2) Cf3, Cc6;\n3) Ab5, …\n\nIl nero ha deciso di muovere il pedone:\n\n3) …, a6;\n4) Aa4, …\n";
    let g = game(text);
    assert_eq!(g.moves, ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4"]);
    assert_eq!(g.result, "*");
    assert!(g.findings.iter().all(|f| f.code != "illegible-entry" && f.code != "extra-entry"), "{:?}", g.findings);
}

#[test]
fn long_algebraic_naming_the_piece_taken_with_spaces() {
    let g = game(
        "Langue: fr\n1) e2-e4 c7-c5 2) Cg1-f3 Cb8-c6 3) d2-d4 c5xd4 4) Cf3 x d4 g7-g6 5) Cd4 x Cc6 b7 x Cc6 1-0\n",
    );
    assert_eq!(g.moves[6..], ["Nxd4", "g6", "Nxc6", "bxc6"]);
    let g = game("Langue: fr\n1) e2-e4 e7-e5 2) Cg1-f3 Cg8-f6 3) Cf3 x e5 Cf6 x e4 1/2-1/2\n");
    assert_eq!(g.moves, ["e4", "e5", "Nf3", "Nf6", "Nxe5", "Nxe4"]);
}

#[test]
fn a_note_that_opens_with_another_move_for_the_same_turn() {
    let text = "1.d4 d6 2.e3 c5 3.Cf3 Dc7 4.Fc4 e5 5.d5 ?!\n5...e4 6.Cfd2 Cd7 ?\n6...Cf6, défendant le pion, était meilleur.\n7.Cxe4 Cb6 8.Fb5+ Re7 0-1\n";
    let g = game(text);
    assert_eq!(g.moves[10..], ["Nfd2", "Nd7", "Nxe4", "Nb6", "Bb5+", "Ke7"]);
    assert!(g.pgn.contains("Nd7 $2"), "the `?` is Cd7's: {}", g.pgn);
}

#[test]
fn a_dash_between_the_two_moves_of_each_row_and_a_heading_above_the_players() {
    let text = "DEFESA SICILIANA - VARIANTE DO DRAGÃO\nKORCHNOY x KARPOV, 1974.\n1. e4 – c5;\n2. Cf3 – d6;\n3. d4 – cxd4;\n4. Cxd4 – Cf6;\n5. Cc3 – g6;\n6. Be3 – Bg7;\n7. f3 – 0-0;\n8. Dd2 - ...\nAs pretas pensaram muito.\n8. ... – Cc6;\n";
    let g = game(text);
    assert_eq!(g.moves[12..], ["f3", "O-O", "Qd2", "Nc6"]);
    assert!(g.pgn.contains("[White \"KORCHNOY\"]") && g.pgn.contains("[Black \"KARPOV\"]"), "{}", g.pgn);
    assert!(g.findings.iter().all(|f| f.code != "illegible-entry" && f.code != "extra-entry"), "{:?}", g.findings);
    // A dash where Black's box is, before the next row: that box was left empty.
    let g = game("1. e4 e5 2. Nf3 – 3. Bb5 a6\n");
    assert!(g.findings.iter().any(|f| f.ply == Some(4) && f.written.as_deref() == Some("–")), "{:?}", g.findings);
    assert_eq!(g.moves[4..], ["Bb5", "a6"]);
}

#[test]
fn long_algebraic_with_spaces_around_each_dash() {
    let g = game("Lingua: it\n1.e2 - e4, e7 - e5 2.Cg1 - f3, d7 - d6 3.d2 - d4, Ac8 - g4 4.d4 x e5, Ag4 x f3 1-0\n");
    assert_eq!(g.moves, ["e4", "e5", "Nf3", "d6", "d4", "Bg4", "dxe5", "Bxf3"]);
    assert!(g.findings.iter().all(|f| f.severity == Severity::Info), "{:?}", g.findings);
}

#[test]
fn footnote_stars_and_mate_glued_to_the_move() {
    let g = game(
        "1. e2-e4 e7-e5\n2. Кg1-f3 d7-d6\n3. Сf1-c4** Кb8-c6\n4. Кb1-c3 Сc8-g4\n5. Кf3:e5?? Сg4:d1??***\n6. Сc4:f7+ Крe8-e7\n7. Кc3-d5×\n",
    );
    assert_eq!(g.moves[10..], ["Bxf7+", "Ke7", "Nd5#"]);
    assert_eq!(g.result, "1-0", "the mate is the result");
    let g = game("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7mate\n");
    assert_eq!(g.moves[6], "Qxf7#");
}

#[test]
fn a_sentence_above_the_moves_and_castling_with_an_en_dash() {
    let g = game(
        "Played from a Giuoco Piano.\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. 0–0 Nf6 5. d3 d6 6. Bg5 h6 7. B×f6 Q×f6 1/2-1/2\n",
    );
    assert_eq!(g.moves[6..], ["O-O", "Nf6", "d3", "d6", "Bg5", "h6", "Bxf6", "Qxf6"]);
    assert!(g.findings.iter().all(|f| f.severity == Severity::Info), "{:?}", g.findings);
}

#[test]
fn a_note_whose_moves_go_on_to_the_next_line() {
    let text = "1.e4 e5 2.Cf3 Cc6 3.Fc4 Fc5 4.c3 Cf6 5.d4 exd4\nLes blancs pouvaient jouer plus simplement : 5.d3 d6 6.0-0\nFb6 7.Fb3 et les blancs sont bien.\n6.cxd4 Fb4+ 0-1\n";
    let g = game(text);
    assert_eq!(g.moves[8..], ["d4", "exd4", "cxd4", "Bb4+"]);
    assert!(g.findings.iter().all(|f| f.severity == Severity::Info), "{:?}", g.findings);
}

#[test]
fn an_opening_named_after_a_dash_at_the_end_of_a_row() {
    let g = game("1. e2-e4 e7-e5\n2. Кg1-f3 d7-d6 - Защита Филидора\n3. Сf1-c4 Кb8-c6 1-0\n");
    assert_eq!(g.moves, ["e4", "e5", "Nf3", "d6", "Bc4", "Nc6"]);
    assert!(g.findings.iter().all(|f| f.severity == Severity::Info), "{:?}", g.findings);
}

#[test]
fn russian_pieces_typed_with_latin_letters_and_a_misprinted_square() {
    // Кр, К and С typed as the Latin Kp, K and C, as on most Russian pages;
    // the book printed the bishop's square as c4 where it stood on a4.
    let g = game(
        "1. e2-e4 e7-e5\n2. Kg1-f3 Kb8-c6\n3. Cf1-b5 a7-a6\n4. Cb5-a4 Kg8-f6\n5. Cc4-b3 Cf8-e7\n6. 0-0 0-0\n7. Kpg1-h1 d7-d6\n",
    );
    assert_eq!(g.moves[8..], ["Bb3", "Be7", "O-O", "O-O", "Kh1", "d6"]);
    let repair = g.findings.iter().find(|f| f.code == "typo-repaired").expect("the square is a repair");
    assert_eq!((repair.written.as_deref(), repair.ply), (Some("Cc4-b3"), Some(9)));
}

#[test]
fn a_note_that_plays_a_line_of_its_own_without_brackets() {
    // The note goes back to move 4, plays on past the game's move 5, and the
    // game goes on where the numbers go back: `5. ... Nf6` after `h6.`.
    let g = game(
        "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. c3 d6. Better is 4. ... Nf6 5. d4 exd4 6. cxd4 Bb4+ 7. Bd2 Bxd2+ 8. Nbxd2 d5 9. exd5 Nxd5 10. Qb3 Na5 11. Qa4+ c6 12. Bxd5 Qxd5 13. O-O O-O 14. Rfe1 h6. 5. d4 exd4 6. cxd4 Bb6 7. Nc3 Nf6 1/2-1/2\n",
    );
    assert_eq!(
        g.moves,
        ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "c3", "d6", "d4", "exd4", "cxd4", "Bb6", "Nc3", "Nf6"]
    );
    assert_eq!(g.status, scoresheet::emit::report::Status::Validated, "{:?}", g.findings);
}

#[test]
fn a_quotation_between_the_moves() {
    let g = game(
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O “Bel colpo!”. 5. ... Be7 6. Re1 b5 1 : 0. “Il Nero abbandona”.\n",
    );
    assert_eq!(g.moves, ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5"]);
    assert_eq!(g.result, "1-0");
    assert!(g.pgn.contains("{“Bel colpo!”.}"), "{}", g.pgn);
}

#[test]
fn moves_copied_without_spaces_between_them() {
    let g = game("1.d4Nf62.c4e63.Nc3Bb44.Qc2O-OBuona mossa, che tiene la coppia.5.a3Bxc3+6.Qxc3b61–0\n");
    assert_eq!(g.moves, ["d4", "Nf6", "c4", "e6", "Nc3", "Bb4", "Qc2", "O-O", "a3", "Bxc3+", "Qxc3", "b6"]);
    assert_eq!((g.result.as_str(), g.status), ("1-0", scoresheet::emit::report::Status::Validated), "{:?}", g.findings);
}

#[test]
fn a_note_over_several_lines_that_ends_with_blacks_reply() {
    // The note starts after White's 9th and goes on below; Black's reply
    // follows its last words, unnumbered, and then White's 10th.
    let g = game(
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Una mossa\n\
         utile, che toglie la casa g4 all'Alfiere nero e\n\
         prepara d4. Na5 10. Bc2 c5 11. d4 Qc7 1/2-1/2\n",
    );
    assert_eq!(g.moves[16..], ["h3", "Na5", "Bc2", "c5", "d4", "Qc7"]);
    assert_eq!(g.status, scoresheet::emit::report::Status::Validated, "{:?}", g.findings);
}

#[test]
fn a_capture_with_a_capital_x_between_its_squares() {
    let g = game("Partij No 12.\n\n1. e2-e4 f7-f5\n2. d2-d4 f5 X e4\n3. Pb1-c3 Pg8-f6\n");
    assert_eq!(g.moves, ["e4", "f5", "d4", "fxe4", "Nc3", "Nf6"]);
    assert!(g.findings.iter().all(|f| f.code != "illegible-entry" && f.code != "extra-entry"), "{:?}", g.findings);
}

#[test]
fn a_question_mark_typed_apart_in_the_last_row_before_the_result() {
    let g = game("1.e4, d5 ; 2.exd5, Cf6 ; 3.d4, Cxd5 ; 4 Cf3 ? (2. Ac4 era meglio), Ag4 0-1\n");
    assert_eq!(g.moves, ["e4", "d5", "exd5", "Nf6", "d4", "Nxd5", "Nf3", "Bg4"]);
    assert!(g.findings.iter().all(|f| f.code != "illegible-entry"), "{:?}", g.findings);
}

#[test]
fn the_last_moves_told_only_in_a_paragraph_below_the_score() {
    // The score stops at move 5, no result; the paragraph below goes on
    // with 6. and says Black resigned: the game is read on from there, and
    // an arbiter checks it went on so.
    let g = game(
        "1. e4 c5 2. Nf3 e6 3. d4 cxd4 4. Nxd4 Nc6 5. Nc3 Qc7\n\n\
         The position arose in the Open last week, where the American had White. 6. Be2 Nf6 7. O-O and Black resigned.\n",
    );
    assert_eq!(g.moves[10..], ["Be2", "Nf6", "O-O"]);
    assert_eq!((g.result.as_str(), g.status), ("1-0", scoresheet::emit::report::Status::Review));
    let note = g.findings.iter().find(|f| f.code == "moves-in-note").expect("the note is said");
    assert!(note.message.contains("line 3") && note.message.contains("6."), "{}", note.message);
    // A score that ends with its result: the prose below is a note.
    let g = game("1. e4 c5 2. Nf3 e6 3. d4 cxd4 4. Nxd4 Nc6 5. Nc3 Qc7 0-1\n\nThen came 6. Be2 Nf6 7. O-O and more.\n");
    assert_eq!(g.moves.len(), 10);
}

#[test]
fn a_puzzle_whose_last_move_is_told_below_the_resignation() {
    // Move 4's box holds the words; the move is told in the paragraph below.
    let g = game(
        "1) e2-e4 e7-e5 2) Ff1-c4 Cb8-c6 3) Dd1-h5 Cg8-f6 4) les blancs jouent et les noirs abandonnent !\n\n\
         Lequel ?\n\n4) Dh5xf7 ! et c'est mat.\n",
    );
    assert_eq!(g.moves, ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"]);
    assert_eq!(g.result, "1-0");
    let note = g.findings.iter().find(|f| f.code == "moves-in-note").expect("the note is said");
    assert!(note.message.contains("line 5") && note.message.contains("from 4."), "{}", note.message);
    // Moves printed after a resignation in the move's own box are what
    // might have followed: `4)` is White's, who resigned, and `4) Dh5xf7`
    // below is never played.
    let g = game(
        "1) e2-e4 e7-e5 2) Ff1-c4 Cb8-c6 3) Dd1-h5 Cg8-f6 4) les blancs abandonnent !\n\n4) Dh5xf7 ! aurait été mat.\n",
    );
    assert_eq!(g.moves.len(), 6);
}

#[test]
fn abandona_la_pareja_de_alfiles_inside_a_note_does_not_end_the_game() {
    // A word for giving up inside a sentence, and the score goes on: the
    // game is the fifteen plies written, White mating.
    let text = "1. e4 e5 2. Nf3 Nc6 3. Bc4 d6 4. Nc3 Bg4\n5. h3 Bh5\n\
                Mejor es 5...Axf3, abandona la pareja de alfiles pero mantiene el material.\n\
                6. Nxe5 Bxd1 7. Bxf7+ Ke7 8. Nd5#\n";
    let g = game(text);
    assert_eq!(g.moves.len(), 15, "{:?}", g.moves);
    assert_eq!(g.moves.last().map(String::as_str), Some("Nd5#"));
    assert_eq!(g.result, "1-0");
}
