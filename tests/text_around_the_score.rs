//! What is printed around a score and is not moves, and text damaged by PDF
//! conversion: each test is a minimal input written after a real text of
//! `tests/real/` that showed the case.

use scoresheet::convert::{Options, convert};
use scoresheet::emit::report::{GameReport, Status};

fn games(text: &str) -> Vec<GameReport> {
    let report = convert("page.txt", text.as_bytes(), &Options::default());
    assert!(report.error.is_none(), "{:?}", report.error);
    report.games
}

fn one(text: &str) -> GameReport {
    let mut g = games(text);
    assert_eq!(g.len(), 1, "{:?}", g.iter().map(|g| &g.moves).collect::<Vec<_>>());
    g.remove(0)
}

const CARO_KANN: &str = "1. e4 c6 2. d4 d5 3. Nc3 dxe4 4. Nxe4 Bf5 5. Ng3 Bg6 6. h4 h6 7. Nf3 Nd7 8. h5 Bh7 9. Bd3 \
                         Bxd3 10. Qxd3 e6 1-0";

#[test]
fn a_newspaper_page_line_with_its_date_above_the_score_is_not_a_move() {
    let g = one(&format!("Diario del Norte - 14.01.2017, página 44\n{CARO_KANN}\n"));
    assert_eq!(g.status, Status::Validated);
    assert_eq!(&g.moves[..2], ["e4", "c6"]);
    assert_eq!(g.moves.len(), 20);
}

#[test]
fn a_players_line_with_the_openings_code_names_the_players() {
    let g = one("Novák – Horák C33\n1.e4 e5 2.f4 exf4 3.Jf3 g5 4.Sc4 g4 5.0-0 gxf3 6.Dxf3 Df6 7.e5 Dxe5 8.Sxf7+ Kxf7 \
         9.d4 Dxd4+ 10.Se3 Df6 11.Sxf4 1-0\n");
    assert_eq!(g.headers.get("White").and_then(|v| v.as_str()), Some("Novák"));
    assert_eq!(g.headers.get("Black").and_then(|v| v.as_str()), Some("Horák"));
    assert_eq!(&g.moves[..2], ["e4", "e5"]);
    assert_eq!(g.status, Status::Validated);
}

#[test]
fn a_problems_piece_list_before_a_game_is_not_read_as_moves() {
    let g =
        one("W.: Kg1, Qd1, Rf1, Nc3 (4)\nB.: Kg8, Rf8, Bc8, Pf7, g7 (5)\nMat w 2 posunięciach.\n\nPartia:\n1.e4 e5 \
         2.Sf3 Sc6 3.Gb5 a6 4.Ga4 Sf6 5.O-O Ge7 6.We1 b5 7.Gb3 d6 8.c3 O-O 1/2-1/2\n");
    assert_eq!(g.moves.len(), 16);
    assert_eq!(&g.moves[..2], ["e4", "e5"]);
    assert_eq!(g.status, Status::Validated);
}

#[test]
fn a_crosstable_printed_one_cell_per_line_above_the_game_does_not_cost_the_game() {
    let g = one(
        "Turnaj Praha 2019\n1\n2\n3\nNováková\nx\n½\n1\nHoráková\n½\nx\n0\n\nNováková – Horáková\n1.d4 Jf6 2.c4 e6 \
         3.Jc3 Sb4 4.e3 0-0 5.Sd3 d5 6.Jf3 c5 7.0-0 dxc4 8.Sxc4 Jbd7 1-0\n",
    );
    assert_eq!(g.moves.len(), 16);
    assert_eq!(g.status, Status::Validated);
    assert_eq!(g.result, "1-0");
}

#[test]
fn castling_and_results_with_their_dashes_lost_are_read_as_meant() {
    let g = one("1.d4 d5 2.c4 e6 3.Nc3 Nf6 4.Bg5 Be7 5.e3 O-O 6.Qc2 Nbd7 7.Nf3 c6 8.Bd3 dxc4 9.Bxc4 b5 10.Bd3 Bb7 \
         11.a3 a6 12.0 0 0 c5 0 1\n");
    assert_eq!(g.moves.last().map(String::as_str), Some("c5"));
    assert!(g.moves.contains(&"O-O-O".to_string()), "{:?}", g.moves);
    assert_eq!(g.result, "0-1");
    assert_eq!(g.status, Status::Validated);
}

#[test]
fn two_games_run_together_on_one_line_with_their_headers_are_two_games() {
    let g = games(
        "Kowalski,Piotr - Nowak,Jan [C50] 1.e4 e5 2.Nf3 Nc6 3.Bc4 Bc5 4.c3 Nf6 5.d4 exd4 6.cxd4 Bb4+ 1 0 \
         Nowak,Jan - Kowalski,Piotr [C21] 1.e4 e5 2.d4 exd4 3.c3 dxc3 4.Bc4 cxb2 5.Bxb2 d6 0 1\n",
    );
    assert_eq!(g.len(), 2, "{:?}", g.iter().map(|g| &g.moves).collect::<Vec<_>>());
    assert_eq!((g[0].moves.len(), g[0].result.as_str()), (12, "1-0"));
    assert_eq!((g[1].moves.len(), g[1].result.as_str()), (10, "0-1"));
    assert_eq!(g[1].headers.get("White").and_then(|v| v.as_str()), Some("Nowak,Jan"));
    assert!(g.iter().all(|g| g.status == Status::Validated));
}

#[test]
fn a_part_score_printed_above_the_whole_game_is_read_once_and_said() {
    let part = "1. e4 c6 2. d4 d5 3. Nc3 dxe4 4. Nxe4 Bf5 5.";
    let g = one(&format!("Hvítur á leik\n{part}\n\n{CARO_KANN}\n"));
    assert_eq!(g.moves.len(), 20);
    assert!(g.findings.iter().any(|f| f.code == "score-printed-twice"), "{:?}", g.findings);
    assert_eq!(g.status, Status::Validated);
}

#[test]
fn alternatives_listed_one_per_line_are_notes_and_the_game_goes_on() {
    let g = one("1.e4 e5 2.Nf3 Nc6 3.Bc4 Bc5\n4.Be2\n4.h3\n4.Nbd2\n4...Nf6\n5.d3 d6 6.O-O O-O 1/2-1/2\n");
    assert_eq!(g.moves, ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "Be2", "Nf6", "d3", "d6", "O-O", "O-O"]);
    assert_eq!(g.status, Status::Validated);
    assert!(g.pgn.contains("4.h3") || g.pgn.contains("4. h3"), "the alternatives kept: {}", g.pgn);
}

#[test]
fn two_games_that_share_a_heading_of_moves_are_two_games_from_it() {
    let g = games(
        "1.f4 d5 2.Nf3 g6\n3.e3 Bg7 4.d4 Nf6 5.Bd3 O-O 6.O-O c5 7.c3 b6 8.Qe2 Bb7 1-0\n3.g3 Bg7 4.Bg2 Nf6 5.O-O O-O \
         6.d3 c5 7.Qe1 Nc6 8.Na3 Rb8 0-1\n",
    );
    assert_eq!(g.len(), 2, "the second game is not lost");
    assert_eq!(&g[0].moves[4..6], ["e3", "Bg7"]);
    assert_eq!(&g[1].moves[..6], ["f4", "d5", "Nf3", "g6", "g3", "Bg7"]);
    assert_eq!((g[0].result.as_str(), g[1].result.as_str()), ("1-0", "0-1"));
    assert!(g.iter().all(|g| g.status == Status::Validated));
}

#[test]
fn hungarian_case_endings_and_a_dash_in_whites_box_are_read_as_the_moves() {
    // After a real column: `13.-, e5!` is Black's 13th, `Hde2-re` and
    // `Ff6!!-tal` moves with their case endings, and the game ends in the
    // resignation the prose tells.
    let g = one(
        "1.e4, c5 2.Hf3, Hc6 3.d4, cd 4.Hd4, g6 5.Hc3, Fg7 6.Fe3, d6 7.Vd2, Hf6 8.f3, 0-0 9.Fc4, Hd7 10. 0-0-0, Hb6 \
         11.Fb3, Ha5 12.Fh6?, Hbc4! 13.Vg5 után az alábbi állásban:\n\nHonfi 13.-, e5! Majd 14. Hde2-re, Ff6!!-tal \
         azonnali feladásra késztette vezért vesztő ellenfelét...\n",
    );
    assert_eq!(&g.moves[24..], ["Qg5", "e5", "Nde2", "Bf6"]);
    assert_eq!(g.result, "0-1");
}

#[test]
fn a_joining_word_after_the_last_move_is_not_read_as_a_move() {
    let g =
        one("1.e2-e4 e7-e5 2.Jg1-f3 Jb8-c6 3.Sf1-c4 Jg8-f6 4.Jf3-g5 d7-d5 5.e4xd5 Jf6xd5 6.Jg5xf7 Ke8xf7 7.Dd1-f3+ \
         Kf7-e6 8.Jb1-c3 Jc6-b4 9.a2-a3 Jb4xc2+ 10.Ke1-d1 Jc2xa1 11.Jc3xd5 Ke6-d6 12.d2-d4 Sc8-e6 a mat.\n");
    assert_eq!(g.moves.len(), 24);
    assert_eq!(g.moves.last().map(String::as_str), Some("Be6"));
    assert!(g.findings.iter().all(|f| f.code != "illegal-move" && f.code != "typo-repaired"), "{:?}", g.findings);
}

#[test]
fn a_move_said_again_and_told_in_words_is_a_note_and_the_game_goes_on() {
    let g =
        one("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 \
         11. Nbd2 Bb7 12. Bc2 Re8 13. Nf1 Bf8 14. Ng3 g6 15. a4 c5 16. d5 c4 17. Bg5 h6 18. Be3 Nc5 19. Qd2 h5 \
         20. Red1 20. Qe2 also loses. 20... Nfxe4 21. Nxe4 Nxe4 0-1\n");
    assert_eq!(&g.moves[38..], ["Red1", "Nfxe4", "Nxe4", "Nxe4"]);
    assert_eq!(g.status, Status::Validated);
    assert!(g.pgn.contains("{20. Qe2 also loses.}"), "{}", g.pgn);
    // Which of two moves said for one number is the game's, where the words
    // do not lead back to it, is left to the reading: the second is kept.
    let g = one("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 8. h3 resigns.\n");
    assert!(!g.pgn.contains("{8. h3"), "{}", g.pgn);
}

#[test]
fn a_resignation_naming_the_player_gives_the_result_by_the_players_line() {
    // After White's move, the player named is Black's: 1-0, not the side to
    // move's loss by chance.
    let text = "Blancas: A. Délchev (Bulgaria, 2.629). Negras: D. Jojua (Georgia, 2.516). Defensa Siciliana (B42). \
                Abierto (Francia, 5-3-2011.\n1 e4 c5 2 Cf3 e6 3 d4 cxd4 4 Cxd4 a6 5 Cc3 b5 6 Ad3 d6 7 Cf5, y Jojua se \
                rindió.\n";
    let g = one(text);
    assert_eq!(g.result, "1-0");
    assert_eq!(g.moves.len(), 13);
    assert_eq!(g.headers.get("White").and_then(|v| v.as_str()), Some("A. Délchev"));
    assert_eq!(g.headers.get("Black").and_then(|v| v.as_str()), Some("D. Jojua"));
    // Named after Black's move, the one who resigned is still White's player.
    let g = one(&text.replace("7 Cf5, y Jojua", "7 Cf5 Ab7, y Délchev"));
    assert_eq!(g.result, "0-1");
}

#[test]
fn a_bracket_left_open_in_a_header_line_opens_no_note_over_the_moves() {
    let g = one("Negras: D. Jojua (Georgia, 2.516). Abierto de Cappelle (Francia, 5-3-2011.\n\
                 El traje oculta una camisa muy vieja: 1 e4 c5 2 Cf3 e6 3 d4 cxd4 4 Cxd4 a6 1-0\n");
    assert_eq!(g.moves.len(), 8);
    assert_eq!(g.status, Status::Validated);
}

#[test]
fn a_resignation_in_two_words_after_the_last_move_ends_the_game() {
    // Dutch `gaf op`, Swedish `gav upp`: the verb and its particle.
    let g = one("1.e4 e5 2.Pf3 Pc6 3.Lb5 a6 4.La4 Pf6 5.O-O Le7 6.Te1 b5 7.Lb3 d6 8.c3 O-O 9.h3 Pb8 en wit gaf op.\n");
    assert_eq!(g.result, "0-1");
    let g = one(
        "1.e4 e5 2.Sf3 Sc6 3.Lb5 a6 4.La4 Sf6 5.O-O Le7 6.Te1 b5 7.Lb3 d6 8.c3 O-O 9.h3 Sb8 10.d4 Svart gav upp.\n",
    );
    assert_eq!(g.result, "1-0");
}

#[test]
fn a_draw_agreed_in_words_after_the_last_move_is_the_result() {
    let moves = "1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 4.Ba4 Nf6 5.O-O Be7 6.Re1 b5 7.Bb3 d6 8.c3 O-O";
    for said in ["Draw agreed.", "and a draw was agreed."] {
        let g = one(&format!("{moves} {said}\n"));
        assert_eq!(g.result, "1/2-1/2", "{said}");
    }
    let g =
        one("1. e4 e5 2. Rf3 Rc6 3. Bb5 a6 4. Ba4 Rf6 5. 0-0 Be7 6. He1 b5 7. Bb3 d6 8. c3 0-0 og jafntefli samið.\n");
    assert_eq!(g.result, "1/2-1/2");
    // Talked about, it is analysis: the result stays to be established.
    let g = one(&format!("{moves} White can draw here.\n"));
    assert_eq!(g.result, "*");
}

#[test]
fn blacks_move_numbered_with_a_spaced_ellipsis_in_prose_is_where_the_game_goes_on() {
    // `27. … Bb5 væri svarað með 28. Hf4!` is analysis; the game goes on at
    // the `27. … De6` that moves follow.
    let g = one("1. e4 e5 2. Rf3 Rc6 3. Bb5 a6 4. Ba4 Rf6 5. 0-0 Be7 6. He1 b5 7. Bb3 d6 8. c3 0-0 9. h3 Rb8 \
                 10. d4? hvítur gat unnið með því að leika 10. d3! þar eð 10. … Bb7 væri svarað með 11. Rbd2. \
                 10. … Rbd7 11. Rbd2 Bb7 12. Bc2 He8 13. Rf1 Bf8 og jafntefli samið.\n");
    assert_eq!(g.moves.len(), 26);
    assert_eq!(&g.moves[19..22], ["Nbd7", "Nbd2", "Bb7"]);
    assert_eq!(g.result, "1/2-1/2");
}

#[test]
fn a_full_stop_glued_to_the_next_move_number_is_the_end_of_a_sentence() {
    // `15.La3 (… Pre toga igrali su 15.Ta3).15...f4?` and `Sd7 .21.Sc6`.
    let g = one("1.d4 Sf6 2.c4 g6 3.Sc3 Lg7 4.e4 d6 5.Sf3 0-0 6.Le2 e5 7.0-0 Sc6 8.d5 Se7 9.b4 c6 10.Sd2 cd5 \
                 11.cd5 Se8 12.Sc4 f5 13.b5 Kh8 14.a4 Sg8 15.La3 ( U vreme kad je igrana ova partija, to je bio nov \
                 potez. Pre toga igrali su 15.Ta3).15...f4? 16.a5 h5 17.a6 b6 18.Sa2 Sgf6 19.f3 g5 20.Sb4 Sd7 \
                 .21.Sc6 Df6 22.De1 Tg8 1/2-1/2\n");
    assert_eq!(g.moves.len(), 44);
    assert_eq!(&g.moves[29..31], ["f4", "a5"]);
    assert_eq!(&g.moves[40..42], ["Nc6", "Qf6"]);
    assert_eq!(g.status, Status::Validated);
}

#[test]
fn a_note_in_prose_that_plays_on_past_the_games_next_number_leaves_the_game_where_it_comes_back() {
    // The note plays `27. Re6+ Kc6 (… og svartur er mát í næsta leik) 28.
    // Dc5#.`; the game goes on at the second `27. Re6+`.
    let g = one("1. e4 c5 2. Rf3 e6 3. d4 cxd4 4. Rxd4 a6 5. Rc3 Dc7 6. Bd3 Rf6 7. f4 Bb4 8. 0-0 b5 9. Bd2 Bc5 \
                 10. Rce2 e5 11. fxe5 Dxe5 12. c3 Rxe4 13. Bf4 Dd5 14. Bxe4 Dxe4 15. Rg3 Dd5 16. He1+ Kd8 17. He5 Dc4 \
                 18. b3 Dxc3 19. Hxc5 Dxc5 20. Hc1 Db6 21. Bc7+ Dxc7 22. Hxc7 Kxc7 23. Dg4 Bb7 24. Rgf5 g6 \
                 25. Df4+ Kb6 26. De3! besti leikurinn þar eð núna hótar hvítur mát. 26. … Rc6 svartur hefði orðið mát eftir 26. … gxf5 27. Re6+ \
                 Kc6 (27. … Ka5 28. Dc3+ og svartur er mát í næsta leik) 28. Dc5#. 27. Re6+ Ka5 28. Dc3+ Kb6 \
                 29. Dc5+ Ka5 30. Rd6! og svartur gafst upp.\n");
    assert_eq!(g.moves.len(), 59);
    assert_eq!(&g.moves[52..55], ["Ne6+", "Ka5", "Qc3+"]);
    assert_eq!(g.result, "1-0");
}

#[test]
fn a_dash_that_opens_the_words_of_a_resignation_fills_no_box() {
    // `41. Dd3 Rg8 Tb8 – Negrul cedează.`: White's last move, then Black
    // resigns; the dash is the sentence's, not Black's box.
    let g = one("1. d4 d5 2. Cf3 Cf6 3. c4 e6 4. Cc3 Ne7 5. Ng5 Cbd7 6. e3 0-0 7. Tc1 c6 8. Dc2 d:c4 9. N:c4 Cd5 \
                 10. N:e7 D:e7 11. 0-0 b6 12. C:d5 c:d5 13. Nd3 h6 14. Dc7! Db4 15. a3 Da4. (15…D:b2 duce, după \
                 16.Tb1 şi 17. Nb5, la pierderea unei figuri). 16. h3 Cf6 Tc6 – Negrul cedează. (Rubrică de Ştefan \
                 Danciu)\n\ncapablanca 5\n");
    assert_eq!(g.moves.len(), 33);
    assert_eq!(g.moves.last().map(String::as_str), Some("Rc6"));
    assert_eq!(g.result, "1-0");
}

#[test]
fn pawn_captures_written_as_their_files_after_a_bare_number_are_moves() {
    // A column that prints a few moves per paragraph: `22. ef+, ef.` alone.
    let g = one("1. e4, e5, 2. f4, d5, 3. Sf3, dxe4, 4. Sxe5, Ld6, 5. Lc4, Lxe5.\n\n\
                 Beli je izgubio figuru.\n\n6. fe, Dd4.\n\nCrni napada.\n\n7. Lxf7+, Ke7.\n\n8. d3, ed.\n\n\
                 9. cd, Sf6. 1/2-1/2\n");
    assert_eq!(&g.moves[10..12], ["fxe5", "Qd4"]);
    assert_eq!(&g.moves[14..16], ["d3", "exd3"]);
    assert_eq!(g.moves.len(), 18);
}

#[test]
fn games_listed_one_per_item_with_bare_move_numbers_are_each_a_game() {
    let text = "Quelques parties miniatures célèbres\n\
                - Mat du lion\n\
                - 1d4 Cf6 2 Fg5 c6 3 e3 Da5+ 0-1 « Plus courte partie décisive jamais jouée » selon Tim Krabbé[1]\n\
                - 1 e4 c6 2 d4 d5 3 Cc3 dxe4 4 Cxe4 Cd7 5 De2!? Cgf6?? 6 Cd6#[2]\n\
                - 1 e4 e5 2. Cf3 Cf6 3. Cxe5 d6 4. Cf3 Cxe4 5. Cc3 Ff5?? 6. De2 1-0[3]\n";
    let g = games(text);
    let moves: Vec<usize> = g.iter().map(|g| g.moves.len()).collect();
    assert_eq!(moves, [6, 11, 11]);
    assert_eq!(g.iter().map(|g| g.result.as_str()).collect::<Vec<_>>(), ["0-1", "1-0", "1-0"]);
    assert!(g.iter().all(|g| g.status == Status::Validated));
}

#[test]
fn games_told_one_after_another_in_a_paragraph_are_each_a_game() {
    let text = "De kortste partij duurde volgens Lazard zelf een zet langer: 1.d4 d5 2.b3 Pf6 3.Pd2 e5 4.dxe5 Pg4 \
                5.h3 Pe3 en Wit gaf het op. Hier heeft 5.h3 nog een pointe. In Montjanu - Choare, Boekarest 1948: \
                1.d4 Pf6 2.Pd2 e5 3.dxe5 Pg4 4.Pgf3 Le7 5.h3 Pe3 en Wit gaf het op. Deze partij is vaker gespeeld.\n\
                Combe - Hasenfuss, Folkestone 1933\n\
                Beiden waren sterke spelers. 1.d4 c5 2.c4 cxd4 3.Pf3 e5 4.Pxe5 Da5+ en Wit gaf het op.\n";
    let g = games(text);
    let moves: Vec<usize> = g.iter().map(|g| g.moves.len()).collect();
    assert_eq!(moves, [10, 10, 8]);
    assert!(g.iter().all(|g| g.result == "0-1"));
    assert_eq!(&g[2].moves[..2], ["d4", "c5"]);
}

#[test]
fn a_note_in_prose_with_a_word_a_move_may_hold_ends_where_the_game_goes_on() {
    // `to` is also a word of descriptive moves; `10.0–0–0` keeps its zeros
    // after the number; the game's last move, its result, then analysis.
    let g = one("1.e4 c5 2.Nf3 d6 3.d4 cxd4 4.Nxd4 Nf6 5.Nc3 a6 6.Bg5 e6 7.f4 Qc7 8.Qf3 b5 9.Bxf6 gxf6 \
                 10.0–0–0 Bb7? Better was 10…b4 asking questions of the c3 knight. 11.Qh5 Ke7 12.f5 Qc5 13.Bxb5 \
                 axb5 14.Ndxb5 Ra6 15.Rhe1 Nd7 16.Rd4 Bc6 17.Nc7? 17.a4 was required to maintain equality. \
                 17…Qxd4 18.fxe6 Ne5 19.Nxa6 Qb6 The point. White’s knight is trapped. 20.Nd5+ Bxd5 21.exd5 Qxa6 \
                 22.Rxe5 Removing the defender of f7 in a final gamble, but allowing… 22…Qf1+ 0–1. 22…Qf1+ 23.Kd2 \
                 (or 23.Qd1 Qxd1+ 24.Kxd1 fxe5) 23…fxe5 and Black’s queen defends f7.\n");
    assert_eq!(g.moves.len(), 44);
    assert_eq!(g.moves[18..20], ["O-O-O", "Bb7"]);
    assert_eq!(g.moves[33..35], ["Qxd4", "fxe6"]);
    assert_eq!(g.moves.last().map(String::as_str), Some("Qf1+"));
    assert_eq!(g.result, "0-1");
    assert_eq!(g.status, Status::Validated);
}

#[test]
fn a_numbered_item_of_words_above_the_score_is_not_its_start() {
    let g = one(
        "Szachy w klubie\n\n10. Turniej o Puchar Bieszczadów. Solina 1-10 X 1972. 1. Plachetka (CSRS) - 9,5 p. z 12, \
         2. J. Konikowski - 9p.\n\nW. Schinzel – Z. Chojnicki\n1.e4 e5 2.Sf3 Sc6 3.Gc4 Gc5 4.c3 Sf6 5.d4 exd4 6.cxd4 \
         Gb4+ 7.Sc3 Sxe4 8.O-O Sxc3 9.bxc3 Gxc3 10.Ha4 d5 1–0\n",
    );
    assert_eq!(g.headers.get("White").and_then(|v| v.as_str()), Some("W. Schinzel"));
    assert_eq!(g.moves.len(), 20);
    assert!(g.pgn.contains("10. Turniej"), "the item's number is kept in its comment: {}", g.pgn);
    assert_eq!(g.status, Status::Validated);
}

#[test]
fn a_capture_printed_with_a_dash_keeps_its_mark_and_a_surname_of_two_words_resigns() {
    let g = one(
        "Blancas: G. Mac Donnell (Irlanda).\nNegras: H. Bird (Reino Unido).\n1 e4, e5 2 f4, e - f4 3 Cf3, g5 4 Ac4, \
         g4 5 0-0, g - f3 6 D - f3, Df6 7 e5, D - e5 8 d3, Ah6 9 Cc3, Ce7 10 Ad2, Cbc6 11 Tae1, Df5 12 Cd5, Rd8 \
         13 D - f4?! (mejor 13 Dh3) 13... D - f4 14 A - f4, A - f4 15 T - f4, y Bird se rindió.\n",
    );
    assert_eq!(g.moves[24..], ["Qxf4", "Qxf4", "Bxf4", "Bxf4", "Rxf4"]);
    assert!(g.pgn.contains("Qxf4 $6"), "the mark is kept as its NAG: {}", g.pgn);
    assert_eq!(g.result, "1-0");
    assert_eq!(g.headers.get("White").and_then(|v| v.as_str()), Some("G. Mac Donnell"));
}

#[test]
fn a_player_of_two_names_resigning_in_spanish_loses() {
    let g =
        one("Blancas: G. Mac Donnell (Irlanda).\nNegras: H. Bird (Reino Unido).\n1 e4, e5 2 f4, exf4 3 Cf3, g5 4 h4, \
         g4 5 Ce5, h5 6 Ac4, Ch6 7 d4, d6 8 Cd3, f3 9 g3, f5, y Mac Donnell se rindió porque apenas podía jugar.\n");
    assert_eq!(g.moves.len(), 18);
    assert_eq!(g.result, "0-1");
}

#[test]
fn a_result_alone_in_brackets_ends_the_game_and_the_moves_told_after_it_are_analysis() {
    let g = one("1.e4 c5 2.Nf3 d6 3.Bb5+ Bd7 4.Bxd7+ Qxd7 5.c4 Nc6 6.Nc3 g6 7.d4 cxd4 8.Nxd4 Bg7 9.Be3 Nf6 10.f3 O-O \
         11.O-O a6 12.Qd2 Rfc8 13.b3 Qd8 14.Rac1 Nxd4 15.Bxd4 b5 16.cxb5 axb5 17.Nxb5 Rxc1 18.Rxc1 Qb8 (1-0). A \
         continuação seria 18...Qxb5 19.Rc8+ Rxc8 20.Qxd6\n");
    assert_eq!(g.moves.len(), 36);
    assert_eq!(g.result, "1-0");
    assert_eq!(g.status, Status::Validated);
}

#[test]
fn a_german_resignation_whose_particle_follows_the_moves_that_would_have_come() {
    let g =
        one("1.e4 e5 2.Sf3 Sc6 3.Lc4 Lc5 4.c3 Sf6 5.d4 exd4 6.cxd4 Lb4+ 7.Sc3 Sxe4 8.O-O Sxc3 9.bxc3 Lxc3 10.Db3 d5 \
         11.Lxd5 O-O 12.Lxf7+ Txf7 13.Dxc3 Schwarz gab wegen des Figurenverlusts nach 13... Lg4 14. Se5 Sxe5 15. \
         dxe5 auf.\n");
    assert_eq!(g.moves.len(), 25, "{:?}", g.moves);
    assert_eq!(g.result, "1-0");
}

#[test]
fn a_dutch_resignation_written_around_the_move_that_would_have_come() {
    let g =
        one("1.e4 e5 2.Pf3 Pc6 3.Lc4 Lc5 4.c3 Pf6 5.d4 exd4 6.cxd4 Lb4+ 7.Pc3 Pxe4 8.O-O Pxc3 9.bxc3 Lxc3 10.Db3 d5 \
         11.Lxd5 O-O 12.Lxf7+ Txf7 13.Dxc3 en zwart gaf na 13...Lg4 14.Pe5 op.\n");
    assert_eq!(g.moves.len(), 25, "{:?}", g.moves);
    assert_eq!(g.result, "1-0");
}

#[test]
fn a_result_printed_as_brazilian_columns_print_it_is_the_result() {
    for written in ["1 x 0", "(1 x 0)", "1x0"] {
        let g = one(&format!(
            "1.e4 c5 2.Cf3 d6 3.Bb5+ Bd7 4.Bxd7+ Dxd7 5.c4 Cc6 6.Cc3 g6 7.d4 cxd4 8.Cxd4 Bg7 9.Be3 Cf6 10.f3 O-O \
             11.O-O a6 12.Dd2 Tfc8 13.b3 Dd8 14.Tac1 Cxd4 15.Bxd4 b5 16.cxb5 axb5 17.Cxb5 Txc1 18.Txc1 Db8 {written}\n"
        ));
        assert_eq!((g.result.as_str(), g.moves.len()), ("1-0", 36), "{written}");
        assert_eq!(g.status, Status::Validated, "{written}");
    }
}

#[test]
fn the_openings_moves_told_in_a_sentence_above_the_games_are_no_game_of_their_own() {
    let g = games(
        "Wonderful Winawer Wins\n\nThe opening moves of the Winawer, just in case you didn't know are: 1.e4 e6 2.d4 d5 \
         3.Nc3 Bb4.\n\n**************************\n\nW. Muir-F. Stratholt, 1934\n1.e4 e6 2.d4 d5 3.Nc3 Bb4 4.e5 c5 \
         5.Bd2 cxd4 6.Nb5 Bc5 7.b4 Bf8 8.Qg4 g6 9.Nf3 Nc6 10.Bd3 a6 1-0\n\nR. Steiner-V. Walsh\ncorres.\n\n1.e4 Nc6 \
         2.d4 d5 3.Nc3 e6 4.Nf3 Bb4 5.Bd3 Nf6 6.Bg5 b6 7.O-O Bxc3 8.bxc3 dxe4 9.Bxe4 Qd6 1-0\n",
    );
    let read: Vec<(usize, Status)> = g.iter().map(|g| (g.moves.len(), g.status)).collect();
    assert_eq!(read, [(20, Status::Validated), (18, Status::Validated)]);
}

#[test]
fn a_last_box_typed_short_on_a_line_of_its_own_is_a_move_not_a_name() {
    let g = one("1\te4\te5\n2\tCf3\tCc6\n3\tAb5\ta6\n4\tAxc\n1-0\n");
    assert!(g.moves.len() == 7 || g.status != Status::Validated, "{:?} {:?}", g.moves, g.status);
}

#[test]
fn words_that_only_begin_like_castling_are_no_castling() {
    // `roku` (Polish "year"), the players Castro and Rocha: none of them castling.
    let g = one(
        "Partia rozegrana w roku 1936 w Warszawie.\nCastro – Rocha\n1.e4 e5 2.Sf3 Sc6 3.Gb5 a6 4.Ga4 Sf6 5.O-O Ge7 \
         6.We1 b5 7.Gb3 d6 8.c3 O-O 1-0\n",
    );
    assert_eq!(g.headers.get("White").and_then(|v| v.as_str()), Some("Castro"));
    assert_eq!(g.headers.get("Black").and_then(|v| v.as_str()), Some("Rocha"));
    assert_eq!(g.moves.len(), 16);
    assert_eq!(g.status, Status::Validated);
}
