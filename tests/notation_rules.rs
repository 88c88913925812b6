//! The notation rules a scoresheet is typed in: FIDE Laws of Chess, Appendix C
//! (rules E1–E12 and their examples), the signs annotators add, the results,
//! and the piece letters of every language the reader knows.
//!
//! Every test types what a person would write on a sheet and checks what a
//! person would check: the English moves, the status, the findings, the PGN.
//! The expected moves were worked out on a board, not copied from a run.

use scoresheet::convert::{Options, convert};
use scoresheet::dev::lex;
use scoresheet::dev::{Resolution, Target, readings, resolve};
use scoresheet::emit::report::{FindingReport, GameReport, Status};
use scoresheet::finding::Severity;
use scoresheet::notation::{LANGUAGES, Language};
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, Chess, File, Rank, Role, Square};

/// The status but for `result-missing`: these sheets are parts of games
/// with no result written, which the arbiter establishes (Art. 8.7); what is
/// checked here is how the moves were read.
fn moves_status(g: &GameReport) -> Status {
    let only_result = g.findings.iter().all(|f| f.severity < Severity::Warning || f.code == "result-missing");
    if g.status == Status::Review && only_result { Status::Validated } else { g.status }
}

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

/// Converts one typed sheet (a .txt file) and returns its only game.
fn sheet(text: &str) -> GameReport {
    let report = convert("sheet.txt", text.as_bytes(), &Options::default());
    assert!(report.error.is_none(), "{text:?} could not be read: {:?}", report.error);
    assert_eq!(report.games.len(), 1, "{text:?} should hold one game");
    report.games.into_iter().next().unwrap()
}

/// A sheet whose first line fixes the language.
fn sheet_in(code: &str, moves: &str) -> GameReport {
    sheet(&format!("Language: {code}\n{moves}\n"))
}

fn spanish(moves: &str) -> GameReport {
    sheet_in("es", moves)
}

fn english(moves: &str) -> GameReport {
    sheet_in("en", moves)
}

/// The finding codes of a game.
fn codes(g: &GameReport) -> Vec<&'static str> {
    g.findings.iter().map(|f| f.code).collect()
}

/// Asserts the game was read move for move with nothing for an arbiter to see.
#[track_caller]
fn assert_validated(g: &GameReport, moves: &[&str]) {
    assert_eq!(g.moves, moves, "moves; findings: {:?}", g.findings);
    assert_eq!(moves_status(g), Status::Validated, "findings: {:?}", g.findings);
    assert!(
        !codes(g)
            .iter()
            .any(|c| matches!(*c, "illegal-move" | "ambiguous-repair" | "illegible-entry" | "missing-move")),
        "findings: {:?}",
        g.findings
    );
}

/// The PGN movetext and tags with every run of whitespace made one space, so
/// that line wrapping does not matter.
fn flat_pgn(g: &GameReport) -> String {
    g.pgn.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The comment written right after `token` in the PGN, if there is one.
fn comment_after(g: &GameReport, token: &str) -> Option<String> {
    let flat = flat_pgn(g);
    let at = flat.find(&format!(" {token} {{"))?;
    let rest = &flat[at + token.len() + 3..];
    let end = rest.find('}')?;
    Some(rest[..end].to_string())
}

/// The finding about the entry written `written` at half-move `ply`.
fn finding_at<'a>(g: &'a GameReport, ply: u32, written: &str) -> Option<&'a FindingReport> {
    g.findings.iter().find(|f| f.ply == Some(ply) && f.written.as_deref() == Some(written))
}

/// An entry read loosely (a lowercase piece letter, a pawn letter, a promotion
/// without its piece) where only one legal move fits: the game stays validated
/// and an information finding at the move says what it was read as.
#[track_caller]
fn assert_read_loosely(g: &GameReport, ply: u32, written: &str, read_as: &str) {
    assert_eq!(moves_status(g), Status::Validated, "findings: {:?}", g.findings);
    let f = finding_at(g, ply, written)
        .unwrap_or_else(|| panic!("no finding about {written:?} at ply {ply}: {:?}", g.findings));
    assert_eq!(f.severity, Severity::Info, "{f:?}");
    assert_eq!(f.replacement.as_deref(), Some(read_as), "{f:?}");
    assert_eq!(g.moves[ply as usize - 1], read_as);
}

/// FIDE's illegal entry: `illegal-move` at its half-move, the game to review,
/// and every move before it kept, nothing after.
#[track_caller]
fn assert_illegal_move(g: &GameReport, ply: u32, written: &str, before: &[&str]) {
    assert_eq!(g.moves, before, "findings: {:?}", g.findings);
    assert_eq!(g.status, Status::Review, "findings: {:?}", g.findings);
    let f = g
        .findings
        .iter()
        .find(|f| f.code == "illegal-move")
        .unwrap_or_else(|| panic!("no illegal-move: {:?}", g.findings));
    assert_eq!(f.ply, Some(ply), "{f:?}");
    assert_eq!(f.written.as_deref(), Some(written), "{f:?}");
}

/// An entry that names no legal move as written is never passed: the game is
/// not validated, a warning or an error at its half-move names what was
/// written, and the moves before it are kept as written.
#[track_caller]
fn assert_flagged(g: &GameReport, ply: u32, written: &str, before: &[&str]) {
    assert_ne!(g.status, Status::Validated, "findings: {:?}", g.findings);
    assert!(
        g.moves.len() >= before.len() && g.moves[..before.len()] == *before,
        "moves before ply {ply} should be {before:?}, got {:?}",
        g.moves
    );
    let f = finding_at(g, ply, written)
        .unwrap_or_else(|| panic!("no finding about {written:?} at ply {ply}: {:?}", g.findings));
    assert!(f.severity >= Severity::Warning, "{f:?}");
}

fn lang(code: &str) -> &'static Language {
    Language::find(code).unwrap_or_else(|| panic!("language {code} is known"))
}

fn position(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .unwrap_or_else(|e| panic!("{fen}: {e}"))
        .into_position(CastlingMode::Standard)
        .unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// How an entry written under a language resolves in the position `fen`.
fn resolution(fen: &str, code: &str, written: &str) -> Resolution {
    let pos = position(fen);
    let lexed = lex(written);
    resolve(&pos, &readings(&lexed.core, lang(code)))
}

/// The English SAN (with check marks) of the one legal move `written` names.
#[track_caller]
fn san_in(fen: &str, code: &str, written: &str) -> String {
    match resolution(fen, code, written) {
        Resolution::Unique { mv, .. } => SanPlus::from_move(position(fen), mv).to_string(),
        other => panic!("{written:?} in {fen} should name one move, got {other:?}"),
    }
}

/// The English SAN of every move that fits equally well, sorted.
#[track_caller]
fn ambiguous_in(fen: &str, code: &str, written: &str) -> Vec<String> {
    match resolution(fen, code, written) {
        Resolution::Ambiguous(ms) => {
            let pos = position(fen);
            let mut sans: Vec<String> =
                ms.into_iter().map(|m| SanPlus::from_move(pos.clone(), m).to_string()).collect();
            sans.sort();
            sans
        }
        other => panic!("{written:?} in {fen} should be ambiguous, got {other:?}"),
    }
}

const ROLES: [Role; 5] = [Role::King, Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

// ---------------------------------------------------------------------------
// E1, E2: piece letters
// ---------------------------------------------------------------------------

#[test]
fn spanish_letters_r_d_t_a_c_for_king_queen_rook_bishop_knight_e1() {
    let g = spanish("1.e4 e5 2.Cf3 Cc6 3.Ac4 Ac5 4.De2 De7 5.Rf1 Cf6 6.Tg1 Tf8");
    assert_validated(&g, &["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "Qe2", "Qe7", "Kf1", "Nf6", "Rg1", "Rf8"]);
    assert_eq!(g.language, "es");
}

#[test]
fn french_fou_fb5_is_the_bishop_e2() {
    let g = sheet_in("fr", "1.e4 e5 2.Cf3 Cc6 3.Fb5 a6 4.Fa4 Cf6 5.Rf1");
    assert_validated(&g, &["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "Kf1"]);
    assert_eq!(g.language, "fr");
}

#[test]
fn french_fb5_without_a_header_is_read_as_french() {
    // F is the bishop only in French, Hungarian and Turkish; C is the knight in
    // French: only French reads every letter of this sheet.
    let g = sheet("1.e4 e5 2.Cf3 Cc6 3.Fb5 a6 4.Fa4 Cf6");
    assert_eq!(g.moves, ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6"]);
    assert_eq!(g.language, "fr");
    assert_eq!(moves_status(&g), Status::Validated);
}

#[test]
fn dutch_loper_lb5_is_the_bishop_and_paard_pf3_the_knight_e2() {
    let g = sheet_in("nl", "1.e4 e5 2.Pf3 Pc6 3.Lb5 a6");
    assert_validated(&g, &["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]);
    assert_eq!(g.language, "nl");
}

#[test]
fn dutch_lb5_without_a_header_is_read_as_dutch() {
    let g = sheet("1.e4 e5 2.Pf3 Pc6 3.Lb5 a6 4.La4 Pf6");
    assert_eq!(g.moves, ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6"]);
    assert_eq!(g.language, "nl");
    assert_eq!(moves_status(&g), Status::Validated);
}

/// A short game using all five piece letters, both colours, no check.
fn five_letter_game(l: &Language) -> String {
    let [k, q, r, b, n] = ROLES.map(|role| l.letter(role));
    format!("1.e4 e5 2.{n}f3 {n}c6 3.{b}c4 {b}c5 4.{q}e2 {q}e7 5.{k}f1 {n}f6 6.{r}g1 {r}f8")
}

const FIVE_LETTER_GAME_SAN: [&str; 12] =
    ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "Qe2", "Qe7", "Kf1", "Nf6", "Rg1", "Rf8"];

#[test]
fn every_language_letters_typed_with_a_language_header_give_english_san() {
    let mut wrong = Vec::new();
    for l in LANGUAGES {
        let text = five_letter_game(l);
        let g = sheet_in(l.code, &text);
        if g.moves != FIVE_LETTER_GAME_SAN || moves_status(&g) != Status::Validated || g.language != l.code {
            wrong.push(format!(
                "{} ({}): {text:?} gave {:?}, status {:?}, language {}, findings {:?}",
                l.code,
                l.name,
                g.moves,
                g.status,
                g.language,
                codes(&g)
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn every_language_is_found_by_its_code_and_its_english_name() {
    for l in LANGUAGES {
        assert_eq!(Language::find(l.code).map(|x| x.code), Some(l.code));
        assert_eq!(Language::find(l.name).map(|x| x.code), Some(l.code));
    }
}

#[test]
fn german_springer_s_and_laufer_l() {
    let g = sheet_in("de", "1.e4 e5 2.Sf3 Sc6 3.Lb5 a6 4.La4 Sf6 5.0-0 Le7 6.Te1 b5");
    assert_validated(&g, &["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5"]);
}

#[test]
fn polish_hetman_h_wieza_w_goniec_g_skoczek_s() {
    let g = sheet_in("pl", "1.e4 e5 2.Sf3 Sc6 3.Gc4 Gc5 4.He2 He7 5.Kf1 Sf6 6.Wg1 Wf8");
    assert_validated(&g, &FIVE_LETTER_GAME_SAN);
}

#[test]
fn esperanto_kuriero_k_is_the_bishop_and_cevalo_c_circumflex_the_knight() {
    let g = sheet_in("eo", "1.e4 e5 2.Ĉf3 Ĉc6 3.Kc4 Kc5 4.De2 De7 5.Rf1 Ĉf6 6.Tg1 Tf8");
    assert_validated(&g, &FIVE_LETTER_GAME_SAN);
}

#[test]
fn russian_cyrillic_kr_king_f_queen_l_rook_s_bishop_k_knight() {
    let g = sheet_in("ru", "1.e4 e5 2.Кf3 Кc6 3.Сc4 Сc5 4.Фe2 Фe7 5.Крf1 Кf6 6.Лg1 Лf8");
    assert_validated(&g, &FIVE_LETTER_GAME_SAN);
    assert_eq!(g.language, "ru");
}

#[test]
fn russian_latin_lookalikes_kp_king_c_bishop_k_knight_f_queen() {
    let g = sheet_in("ru", "1.e4 e5 2.Kf3 Kc6 3.Cc4 Cc5 4.Fe2 Fe7 5.Kpf1 Kf6");
    assert_validated(&g, &["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "Qe2", "Qe7", "Kf1", "Nf6"]);
}

#[test]
fn russian_cyrillic_letters_without_a_header_are_read_as_russian() {
    // Л (rook) is Russian only: Ukrainian writes the rook Т.
    let g = sheet("1.e4 e5 2.Кf3 Кc6 3.Сc4 Сc5 4.Фe2 Фe7 5.Крf1 Кf6 6.Лg1 Лf8");
    assert_eq!(g.moves, FIVE_LETTER_GAME_SAN);
    assert_eq!(g.language, "ru");
    assert_eq!(moves_status(&g), Status::Validated);
}

#[test]
fn russian_all_cyrillic_squares_typed_on_a_cyrillic_keyboard() {
    // "Сс4": Cyrillic С (bishop) then Cyrillic с (looks like the file c);
    // "е5": Cyrillic е for the file e.
    let g = sheet_in("ru", "1.е4 е5 2.Кf3 Кс6 3.Сс4 Сс5");
    assert_validated(&g, &["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5"]);
}

// ---------------------------------------------------------------------------
// Figurines
// ---------------------------------------------------------------------------

#[test]
fn white_figurines_king_queen_rook_bishop_knight() {
    let g = sheet("1.e4 e5 2.♘f3 ♘c6 3.♗c4 ♗c5 4.♕e2 ♕e7 5.♔f1 ♘f6 6.♖g1 ♖f8");
    assert_validated(&g, &FIVE_LETTER_GAME_SAN);
}

#[test]
fn black_figurines_king_queen_rook_bishop_knight() {
    let g = sheet("1.e4 e5 2.♞f3 ♞c6 3.♝c4 ♝c5 4.♛e2 ♛e7 5.♚f1 ♞f6 6.♜g1 ♜f8");
    assert_validated(&g, &FIVE_LETTER_GAME_SAN);
}

#[test]
fn figurines_in_a_spanish_sheet_with_a_header() {
    let g = spanish("1.e4 e5 2.♘f3 ♞c6 3.♗b5 a6 4.♗xc6 dxc6");
    assert_validated(&g, &["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6", "dxc6"]);
}

// ---------------------------------------------------------------------------
// E3: pawns have no letter
// ---------------------------------------------------------------------------

#[test]
fn pawn_moves_e5_d4_a5_have_no_letter_e3() {
    let g = spanish("1.d4 e5 2.h3 a5");
    assert_validated(&g, &["d4", "e5", "h3", "a5"]);
}

#[test]
fn spanish_pawn_written_with_a_p_pe4_is_read_loosely_as_e4() {
    // P (peón) is the Spanish pawn letter FIDE leaves out: Pe4 can only be e4.
    let g = spanish("1.Pe4 e5");
    assert_eq!(g.moves, ["e4", "e5"]);
    assert_read_loosely(&g, 1, "Pe4", "e4");
}

// ---------------------------------------------------------------------------
// E4–E6: squares
// ---------------------------------------------------------------------------

#[test]
fn every_one_of_the_64_squares_is_one_letter_and_one_number_e4_e5_e6() {
    let es = lang("es");
    for (fi, file) in ('a'..='h').enumerate() {
        for (ri, rank) in ('1'..='8').enumerate() {
            let written = format!("D{file}{rank}");
            let square = Square::from_coords(File::new(fi as u32), Rank::new(ri as u32));
            let r = readings(&written, es);
            assert_eq!(r.len(), 1, "{written}: {r:?}");
            assert!(
                matches!(
                    r[0].target,
                    Target::Move {
                        role: Role::Queen,
                        to,
                        from_file: None,
                        from_rank: None,
                        promotion: None,
                        ..
                    } if to == square
                ),
                "{written} should be the queen to {square}: {r:?}"
            );
        }
    }
}

#[test]
fn squares_are_named_from_whites_side_for_black_too_e4_e5() {
    // Black's "e5" is the pawn from e7 to e5 (not a square counted from Black's
    // side): White's knight can take it there on move 3.
    let g = spanish("1.e4 e5 2.Cf3 Cc6 3.Cxe5 Cxe5");
    assert_validated(&g, &["e4", "e5", "Nf3", "Nc6", "Nxe5", "Nxe5"]);
}

// ---------------------------------------------------------------------------
// E7: piece moves Ae5, Cf3, Td1
// ---------------------------------------------------------------------------

/// White: Ke1, Ra1, Bc3, Ng1; Black: Ke8.
const E7: &str = "4k3/8/8/8/8/2B5/8/R3K1N1 w - - 0 1";

#[test]
fn spanish_bishop_ae5_knight_cf3_rook_td1_e7() {
    assert_eq!(san_in(E7, "es", "Ae5"), "Be5");
    assert_eq!(san_in(E7, "es", "Cf3"), "Nf3");
    assert_eq!(san_in(E7, "es", "Td1"), "Rd1");
}

#[test]
fn spanish_piece_moves_ae5_cf3_td1_in_a_game() {
    // 7.Td1 is the a1 rook (b1, c1, d1 are empty); the h1 rook is blocked by f1.
    let g = spanish("1.d4 d5 2.Af4 Cf6 3.Cf3 e6 4.Ae5 Ae7 5.Cc3 0-0 6.Dd3 c5 7.Td1 Cc6");
    assert_validated(
        &g,
        &["d4", "d5", "Bf4", "Nf6", "Nf3", "e6", "Be5", "Be7", "Nc3", "O-O", "Qd3", "c5", "Rd1", "Nc6"],
    );
}

#[test]
fn spanish_rook_td1_when_the_rook_is_already_there_is_flagged() {
    // After 7.0-0-0 the a1 rook stands on d1 and the h1 rook is blocked by f1.
    let g = spanish("1.d4 d5 2.Af4 Cf6 3.Cf3 e6 4.Ae5 Ae7 5.Cc3 0-0 6.Dd3 c5 7.0-0-0 Cc6 8.Td1");
    assert_flagged(
        &g,
        15,
        "Td1",
        &["d4", "d5", "Bf4", "Nf6", "Nf3", "e6", "Be5", "Be7", "Nc3", "O-O", "Qd3", "c5", "O-O-O", "Nc6"],
    );
}

// ---------------------------------------------------------------------------
// E8: captures
// ---------------------------------------------------------------------------

/// White: Ke1, Ra1, Bc3, Ng1; Black: Ke8, pawns e5 and f3, knight d1.
const E8: &str = "4k3/8/8/4p3/8/2B2p2/8/R2nK1N1 w - - 0 1";

#[test]
fn spanish_piece_captures_axe5_cxf3_txd1_e8() {
    assert_eq!(san_in(E8, "es", "Axe5"), "Bxe5");
    assert_eq!(san_in(E8, "es", "Cxf3"), "Nxf3");
    assert_eq!(san_in(E8, "es", "Txd1"), "Rxd1");
}

#[test]
fn spanish_capture_written_without_x_ae5_still_takes_on_e5() {
    assert_eq!(san_in(E8, "es", "Ae5"), "Bxe5");
    assert_eq!(san_in(E8, "es", "Cf3"), "Nxf3");
}

#[test]
fn colon_as_capture_sign_a_colon_e5_and_t_colon_d1() {
    assert_eq!(san_in(E8, "es", "A:e5"), "Bxe5");
    assert_eq!(san_in(E8, "es", "T:d1"), "Rxd1");
}

/// White: Ke1, pawns a4, d4, g2, bishop d3; Black: Ke8, pawns b5, e5, f3.
const E8_PAWNS: &str = "4k3/8/8/1p2p3/P2P4/3B1p2/6P1/4K3 w - - 0 1";

#[test]
fn spanish_pawn_captures_dxe5_gxf3_axb5_e8() {
    assert_eq!(san_in(E8_PAWNS, "es", "dxe5"), "dxe5");
    assert_eq!(san_in(E8_PAWNS, "es", "gxf3"), "gxf3");
    // "a" is the file, not a lowercase A (alfil): the bishop d3 could also take b5.
    assert_eq!(san_in(E8_PAWNS, "es", "axb5"), "axb5");
    // Capital A is the bishop, and it gives check along c6-d7-e8.
    assert_eq!(san_in(E8_PAWNS, "es", "Axb5"), "Bxb5+");
}

#[test]
fn pawn_captures_in_a_spanish_game_dxe5_gxf3_axb5() {
    // 6.gxf3: the g2 pawn takes the checking knight (the g1 knight and the d1
    // queen could take too; the file letter names the pawn).
    let g = spanish("1.a4 b5 2.axb5 e5 3.d4 Cc6 4.dxe5 Cd4 5.e3 Cf3+ 6.gxf3");
    assert_validated(&g, &["a4", "b5", "axb5", "e5", "d4", "Nc6", "dxe5", "Nd4", "e3", "Nf3+", "gxf3"]);
}

#[test]
fn spanish_en_passant_exd6_e_p_with_a_space() {
    // After 2...d5 the e5 pawn takes en passant; 3...cxd6 then proves the white
    // pawn stands on d6.
    let g = spanish("1.e4 Cf6 2.e5 d5 3.exd6 e.p. cxd6");
    assert_validated(&g, &["e4", "Nf6", "e5", "d5", "exd6", "cxd6"]);
}

#[test]
fn spanish_en_passant_exd6_a_p_and_glued_e_p() {
    let g = spanish("1.e4 Cf6 2.e5 d5 3.exd6 a.p. exd6");
    assert_validated(&g, &["e4", "Nf6", "e5", "d5", "exd6", "exd6"]);
    let g = spanish("1.e4 Cf6 2.e5 d5 3.exd6e.p. exd6");
    assert_validated(&g, &["e4", "Nf6", "e5", "d5", "exd6", "exd6"]);
}

#[test]
fn en_passant_with_a_colon_e5_colon_d6() {
    let g = spanish("1.e4 Cf6 2.e5 d5 3.e:d6");
    assert_validated(&g, &["e4", "Nf6", "e5", "d5", "exd6"]);
}

// ---------------------------------------------------------------------------
// E9: two identical pieces can reach the same square
// ---------------------------------------------------------------------------

/// Knights g1 and d2 (example 1).
const KNIGHTS_G1_D2: &str = "4k3/8/8/8/8/8/3N4/4K1N1 w - - 0 1";
const KNIGHTS_G1_D2_TAKE: &str = "4k3/8/8/8/8/5p2/3N4/4K1N1 w - - 0 1";
/// Knights g5 and g1 (example 2).
const KNIGHTS_G5_G1: &str = "4k3/8/8/6N1/8/8/8/4K1N1 w - - 0 1";
const KNIGHTS_G5_G1_TAKE: &str = "4k3/8/8/6N1/8/5p2/8/4K1N1 w - - 0 1";
/// Knights h2 and d4 (example 3).
const KNIGHTS_H2_D4: &str = "4k3/8/8/8/3N4/8/7N/4K3 w - - 0 1";
const KNIGHTS_H2_D4_TAKE: &str = "4k3/8/8/8/3N4/5p2/7N/4K3 w - - 0 1";

#[test]
fn spanish_knights_g1_and_d2_cgf3_and_cdf3_e9_example_1() {
    assert_eq!(san_in(KNIGHTS_G1_D2, "es", "Cgf3"), "Ngf3");
    assert_eq!(san_in(KNIGHTS_G1_D2, "es", "Cdf3"), "Ndf3");
}

#[test]
fn spanish_knights_g5_and_g1_c5f3_and_c1f3_e9_example_2() {
    assert_eq!(san_in(KNIGHTS_G5_G1, "es", "C5f3"), "N5f3");
    assert_eq!(san_in(KNIGHTS_G5_G1, "es", "C1f3"), "N1f3");
}

#[test]
fn spanish_knights_h2_and_d4_chf3_and_cdf3_e9_example_3() {
    assert_eq!(san_in(KNIGHTS_H2_D4, "es", "Chf3"), "Nhf3");
    assert_eq!(san_in(KNIGHTS_H2_D4, "es", "Cdf3"), "Ndf3");
}

#[test]
fn spanish_knights_g1_and_d2_take_on_f3_cgxf3_and_cdxf3() {
    assert_eq!(san_in(KNIGHTS_G1_D2_TAKE, "es", "Cgxf3"), "Ngxf3");
    assert_eq!(san_in(KNIGHTS_G1_D2_TAKE, "es", "Cdxf3"), "Ndxf3");
}

#[test]
fn spanish_knights_g5_and_g1_take_on_f3_c5xf3_and_c1xf3() {
    assert_eq!(san_in(KNIGHTS_G5_G1_TAKE, "es", "C5xf3"), "N5xf3");
    assert_eq!(san_in(KNIGHTS_G5_G1_TAKE, "es", "C1xf3"), "N1xf3");
}

#[test]
fn spanish_knights_h2_and_d4_take_on_f3_chxf3_and_cdxf3() {
    assert_eq!(san_in(KNIGHTS_H2_D4_TAKE, "es", "Chxf3"), "Nhxf3");
    assert_eq!(san_in(KNIGHTS_H2_D4_TAKE, "es", "Cdxf3"), "Ndxf3");
}

#[test]
fn spanish_cf3_with_two_knights_able_to_go_is_ambiguous_in_each_example() {
    assert_eq!(ambiguous_in(KNIGHTS_G1_D2, "es", "Cf3"), ["Ndf3", "Ngf3"]);
    assert_eq!(ambiguous_in(KNIGHTS_G5_G1, "es", "Cf3"), ["N1f3", "N5f3"]);
    assert_eq!(ambiguous_in(KNIGHTS_H2_D4, "es", "Cf3"), ["Ndf3", "Nhf3"]);
    assert_eq!(ambiguous_in(KNIGHTS_G5_G1_TAKE, "es", "Cxf3"), ["N1xf3", "N5xf3"]);
}

#[test]
fn spanish_knight_from_rank_two_c2f3_where_the_file_was_preferred() {
    // Knights h2 and d4 are on different files and ranks: FIDE prefers the file
    // (Chf3) but the rank (C2f3) names the same knight unambiguously.
    assert_eq!(san_in(KNIGHTS_H2_D4, "es", "C2f3"), "Nhf3");
    assert_eq!(san_in(KNIGHTS_H2_D4, "es", "C4f3"), "Ndf3");
}

#[test]
fn spanish_knight_written_with_the_wrong_origin_cef3_or_c3f3_fits_no_move() {
    assert_eq!(resolution(KNIGHTS_G1_D2, "es", "Cef3"), Resolution::None);
    assert_eq!(resolution(KNIGHTS_G5_G1, "es", "C3f3"), Resolution::None);
}

#[test]
fn spanish_cgf3_in_a_game_after_cd2() {
    // 2.Cd2 can only be the b1 knight; then both knights reach f3.
    let g = spanish("1.d4 d5 2.Cd2 Cf6 3.Cgf3 e6");
    assert_validated(&g, &["d4", "d5", "Nd2", "Nf6", "Ngf3", "e6"]);
    let g = spanish("1.d4 d5 2.Cd2 Cf6 3.Cdf3 e6");
    assert_validated(&g, &["d4", "d5", "Nd2", "Nf6", "Ndf3", "e6"]);
}

#[test]
fn spanish_cf3_with_knights_g1_and_d2_in_a_game_needs_review() {
    // E9: with knights on g1 and d2 "Cf3" does not say which one moved.
    let g = spanish("1.d4 d5 2.Cd2 Cf6 3.Cf3 e6");
    assert_eq!(g.status, Status::Review, "findings: {:?}", g.findings);
    assert_eq!(g.moves[..4], ["d4", "d5", "Nd2", "Nf6"]);
    let f = finding_at(&g, 5, "Cf3").unwrap_or_else(|| panic!("no finding about Cf3 at ply 5: {:?}", g.findings));
    assert!(f.severity >= Severity::Warning, "{f:?}");
    for knight in ["Ndf3", "Ngf3"] {
        assert!(f.alternatives.iter().any(|a| a == knight), "{knight} missing from {f:?}");
    }
}

#[test]
fn over_disambiguated_cgf3_and_cg8f6_with_one_knight_able_is_plain_nf3() {
    let g = spanish("1.e4 e5 2.Cgf3 Cbc6 3.Af1c4 Cg8f6 4.Cf3g5 d5");
    assert_validated(&g, &["e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6", "Ng5", "d5"]);
}

// ---------------------------------------------------------------------------
// E10: two pawns can take the same piece
// ---------------------------------------------------------------------------

/// White pawns c4 and e4, knight f4; black pawn d5.
const E10: &str = "4k3/8/8/3p4/2P1PN2/8/8/4K3 w - - 0 1";

#[test]
fn spanish_pawns_c4_and_e4_take_on_d5_cxd5_and_exd5_e10() {
    assert_eq!(san_in(E10, "es", "cxd5"), "cxd5");
    assert_eq!(san_in(E10, "es", "exd5"), "exd5");
    // Capital C is the knight on f4, which also reaches d5.
    assert_eq!(san_in(E10, "es", "Cxd5"), "Nxd5");
}

#[test]
fn spanish_pawns_c4_and_e4_take_on_d5_in_a_game() {
    let g = spanish("1.e4 d5 2.c4 e6 3.cxd5 exd5");
    assert_validated(&g, &["e4", "d5", "c4", "e6", "cxd5", "exd5"]);
    let g = spanish("1.e4 d5 2.c4 e6 3.exd5 exd5");
    assert_validated(&g, &["e4", "d5", "c4", "e6", "exd5", "exd5"]);
}

// ---------------------------------------------------------------------------
// E11: promotions
// ---------------------------------------------------------------------------

/// White pawns d7 and f7; kings g1 (white) and a2 (black).
const WHITE_PROMOTES: &str = "8/3P1P2/8/8/8/8/k7/6K1 w - - 0 1";
/// Black pawns b2 and g2; kings h1 (black) and a8 (white).
const BLACK_PROMOTES: &str = "K7/8/8/8/8/8/1p4p1/7k b - - 0 1";

#[test]
fn spanish_promotions_d8_d_f8_c_b1_a_g1_t_e11() {
    assert_eq!(san_in(WHITE_PROMOTES, "es", "d8=D"), "d8=Q");
    assert_eq!(san_in(WHITE_PROMOTES, "es", "f8=C"), "f8=N");
    assert_eq!(san_in(BLACK_PROMOTES, "es", "b1=A"), "b1=B");
    assert_eq!(san_in(BLACK_PROMOTES, "es", "g1=T"), "g1=R");
}

#[test]
fn spanish_promotion_with_check_d8_d_plus_is_d8_q_plus() {
    // The new queen on d8 checks the king on h8 along the eighth rank.
    let fen = "7k/3P4/8/8/8/8/8/6K1 w - - 0 1";
    for written in ["d8=D+", "d8D+", "d8(D)+", "d8=D"] {
        assert_eq!(san_in(fen, "es", written), "d8=Q+", "{written}");
    }
}

#[test]
fn spanish_promotion_forms_d8d_d8_paren_d_d8_slash_d() {
    for written in ["d8D", "d8(D)", "d8/D", "d8=D", "d8=♕"] {
        assert_eq!(san_in(WHITE_PROMOTES, "es", written), "d8=Q", "{written}");
    }
    for written in ["f8C", "f8(C)", "f8/C"] {
        assert_eq!(san_in(WHITE_PROMOTES, "es", written), "f8=N", "{written}");
    }
}

#[test]
fn promotion_to_a_king_d8_r_in_spanish_or_d8_k_in_english_is_no_move() {
    assert_eq!(resolution(WHITE_PROMOTES, "es", "d8=R"), Resolution::None);
    assert_eq!(resolution(WHITE_PROMOTES, "en", "d8=K"), Resolution::None);
}

#[test]
fn spanish_promotion_in_a_game_bxa8_d_in_every_form() {
    for form in ["bxa8=D", "bxa8D", "bxa8(D)", "bxa8/D"] {
        let g = spanish(&format!("1.e4 d5 2.exd5 c6 3.dxc6 Cf6 4.cxb7 Cbd7 5.{form}"));
        assert_validated(&g, &["e4", "d5", "exd5", "c6", "dxc6", "Nf6", "cxb7", "Nbd7", "bxa8=Q"]);
    }
    let g = spanish("1.e4 d5 2.exd5 c6 3.dxc6 Cf6 4.cxb7 Cbd7 5.bxc8=C");
    assert_eq!(g.moves.last().map(String::as_str), Some("bxc8=N"));
}

#[test]
fn promotion_written_without_its_piece_is_a_queen_read_loosely() {
    let g = spanish("1.e4 d5 2.exd5 c6 3.dxc6 Cf6 4.cxb7 Cbd7 5.bxa8");
    assert_eq!(g.moves.last().map(String::as_str), Some("bxa8=Q"));
    assert_read_loosely(&g, 9, "bxa8", "bxa8=Q");
}

// ---------------------------------------------------------------------------
// E12: the draw offer (=)
// ---------------------------------------------------------------------------

#[test]
fn spanish_draw_offer_written_after_the_move_is_a_pgn_comment_e12() {
    let g = spanish("1.e4 e5 2.Cf3 (=) Cc6");
    assert_validated(&g, &["e4", "e5", "Nf3", "Nc6"]);
    let c = comment_after(&g, "Nf3").expect("a comment after Nf3");
    assert!(c.contains("(=)"), "comment {c:?}");
    // An offer is not a result.
    assert_eq!(g.result, "*");
}

#[test]
fn spanish_draw_offer_glued_to_the_move_cf3_paren_eq() {
    let g = spanish("1.e4 e5 2.Cf3(=) Cc6");
    assert_validated(&g, &["e4", "e5", "Nf3", "Nc6"]);
    let c = comment_after(&g, "Nf3").expect("a comment after Nf3");
    assert!(c.contains("(=)"), "comment {c:?}");
    assert!(comment_after(&g, "e5").is_none());
}

#[test]
fn spanish_draw_offer_by_black_then_accepted_tablas() {
    let g = spanish("1.e4 e5 2.Cf3 Cc6(=) tablas");
    assert_validated(&g, &["e4", "e5", "Nf3", "Nc6"]);
    let c = comment_after(&g, "Nc6").expect("a comment after Nc6");
    assert!(c.contains("(=)"), "comment {c:?}");
    assert_eq!(g.result, "1/2-1/2");
}

// ---------------------------------------------------------------------------
// Castling
// ---------------------------------------------------------------------------

#[test]
fn castling_kingside_0_0_and_o_o_and_lowercase_o_o() {
    for (white, black) in [("0-0", "0-0"), ("O-O", "O-O"), ("o-o", "o-o"), ("0-0", "O-O")] {
        let g = spanish(&format!("1.e4 e5 2.Cf3 Cc6 3.Ac4 Ac5 4.{white} Cf6 5.d3 {black}"));
        assert_validated(&g, &["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "O-O", "Nf6", "d3", "O-O"]);
    }
}

#[test]
fn castling_queenside_0_0_0_and_o_o_o() {
    for form in ["0-0-0", "O-O-O", "o-o-o"] {
        let g = spanish(&format!("1.d4 d5 2.Cc3 Cc6 3.Af4 Af5 4.Dd2 Dd7 5.{form} {form}"));
        assert_validated(&g, &["d4", "d5", "Nc3", "Nc6", "Bf4", "Bf5", "Qd2", "Qd7", "O-O-O", "O-O-O"]);
    }
}

#[test]
fn castling_0_0_while_in_check_is_flagged() {
    // 3...Axf2+ checks the king on e1: White may not castle out of check.
    let g = spanish("1.e4 e5 2.Cf3 Ac5 3.Ac4 Axf2+ 4.0-0");
    assert_flagged(&g, 7, "0-0", &["e4", "e5", "Nf3", "Bc5", "Bc4", "Bxf2+"]);
}

// ---------------------------------------------------------------------------
// Long algebraic, `:`, check and mate signs
// ---------------------------------------------------------------------------

#[test]
fn english_long_form_ng1f3_ng1_f3_e2_e4_and_long_captures() {
    let g = english("1.e2-e4 e7-e5 2.Ng1-f3 Nb8c6 3.Bf1-c4 Ng8-f6 4.Nf3xe5 Nc6xe5");
    assert_validated(&g, &["e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6", "Nxe5", "Nxe5"]);
    let g = english("1.e2e4 e7e5 2.Ng1f3 Nb8c6");
    assert_validated(&g, &["e4", "e5", "Nf3", "Nc6"]);
}

#[test]
fn long_form_with_colon_capture_e4_colon_d5_and_dd8_colon_d5() {
    let g = spanish("1.e2-e4 d7-d5 2.e4:d5 Dd8:d5");
    assert_validated(&g, &["e4", "d5", "exd5", "Qxd5"]);
}

#[test]
fn short_colon_capture_e_colon_d5_and_d_colon_d5() {
    let g = spanish("1.e4 d5 2.e:d5 D:d5 3.Cc3 Da5");
    assert_validated(&g, &["e4", "d5", "exd5", "Qxd5", "Nc3", "Qa5"]);
}

#[test]
fn long_form_with_the_wrong_origin_nb1_f3_is_flagged_at_ply_3() {
    // Only the g1 knight reaches f3; the b1 knight goes to a3, c3 or d2.
    let g = english("1.e2-e4 e7-e5 2.Nb1-f3 Nc6");
    assert_flagged(&g, 3, "Nb1-f3", &["e4", "e5"]);
}

#[test]
fn an_impossible_first_move_e2_e5_is_flagged_at_ply_1() {
    let g = english("1.e2-e5 e7-e5");
    assert_flagged(&g, 1, "e2-e5", &[]);
}

#[test]
fn check_sign_is_optional_ab5_gives_bb5_plus() {
    // After 1...d5 the diagonal b5-e8 is open: Ab5 is check.
    let g = spanish("1.e4 d5 2.Ab5 c6");
    assert_validated(&g, &["e4", "d5", "Bb5+", "c6"]);
    let g = spanish("1.e4 d5 2.Ab5+ c6");
    assert_validated(&g, &["e4", "d5", "Bb5+", "c6"]);
    assert!(flat_pgn(&g).contains("2. Bb5+ c6"), "{}", g.pgn);
}

#[test]
fn mate_written_double_plus_hash_or_nothing_is_qxf7_mate() {
    for mate in ["Dxf7++", "Dxf7#", "Dxf7", "Dxf7+"] {
        let g = spanish(&format!("1.e4 e5 2.Ac4 Cc6 3.Dh5 Cf6 4.{mate}"));
        assert_validated(&g, &["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"]);
        assert_eq!(g.result, "1-0", "{mate}");
    }
}

// ---------------------------------------------------------------------------
// Annotations: glyphs, evaluations, comments
// ---------------------------------------------------------------------------

#[test]
fn move_glyphs_good_bad_brilliant_blunder_interesting_dubious_become_nags_1_to_6() {
    let g = spanish("1.e4! e5? 2.Cf3!! Cc6?? 3.Ab5!? a6?!");
    assert_validated(&g, &["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]);
    let pgn = flat_pgn(&g);
    assert!(pgn.contains("1. e4 $1 e5 $2 2. Nf3 $3 Nc6 $4 3. Bb5 $5 a6 $6"), "{pgn}");
    let movetext = &pgn[pgn.rfind(']').unwrap() + 1..];
    assert!(!movetext.contains('!') && !movetext.contains('?'), "{pgn}");
}

#[test]
fn evaluation_signs_become_nags_14_to_19_and_novelty_146() {
    let g = spanish("1.e4+/= e5=/+ 2.Cf3± Cc6∓ 3.Ab5+- a6-+ 4.Aa4N Cf6");
    assert_validated(&g, &["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6"]);
    let pgn = flat_pgn(&g);
    assert!(pgn.contains("1. e4 $14 e5 $15 2. Nf3 $16 Nc6 $17 3. Bb5 $18 a6 $19 4. Ba4 $146 Nf6"), "{pgn}");
}

#[test]
fn spanish_novelty_after_a_rook_move_to_the_first_rank_te1n() {
    // Only a pawn promotes: "Te1N" is the rook to e1 marked as a novelty.
    let g = spanish("1.e4 e5 2.Cf3 Cc6 3.Ac4 Ac5 4.0-0 Cf6 5.Te1N d6");
    assert_validated(&g, &["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "O-O", "Nf6", "Re1", "d6"]);
    assert!(flat_pgn(&g).contains("5. Re1 $146 d6"), "{}", g.pgn);
}

#[test]
fn english_novelty_after_a_rook_move_to_the_first_rank_re1n() {
    let g = english("1.e4 e5 2.Nf3 Nc6 3.Bc4 Bc5 4.O-O Nf6 5.Re1N d6");
    assert_validated(&g, &["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "O-O", "Nf6", "Re1", "d6"]);
    assert!(flat_pgn(&g).contains("5. Re1 $146 d6"), "{}", g.pgn);
}

#[test]
fn ascii_evaluation_signs_plus_slash_minus_and_minus_slash_plus_are_16_and_17() {
    let g = spanish("1.e4+/- e5-/+ 2.Cf3");
    assert_validated(&g, &["e4", "e5", "Nf3"]);
    assert!(flat_pgn(&g).contains("1. e4 $16 e5 $17 2. Nf3"), "{}", g.pgn);
}

#[test]
fn glyphs_written_apart_from_the_move_e4_space_bang_question() {
    let g = spanish("1.e4 !? e5 +/= 2.Cf3 ! Cc6");
    assert_validated(&g, &["e4", "e5", "Nf3", "Nc6"]);
    assert!(flat_pgn(&g).contains("1. e4 $5 e5 $14 2. Nf3 $1 Nc6"), "{}", g.pgn);
}

#[test]
fn glyph_after_a_check_or_mate_sign_ab5_plus_bang_and_dxf7_hash_bang_bang() {
    let g = spanish("1.e4 d5 2.Ab5+! c6");
    assert_validated(&g, &["e4", "d5", "Bb5+", "c6"]);
    assert!(flat_pgn(&g).contains("2. Bb5+ $1 c6"), "{}", g.pgn);
    let g = spanish("1.e4 e5 2.Ac4 Cc6 3.Dh5 Cf6?? 4.Dxf7#!!");
    assert_eq!(g.moves.last().map(String::as_str), Some("Qxf7#"));
    assert!(flat_pgn(&g).contains("3. Qh5 Nf6 $4 4. Qxf7# $3"), "{}", g.pgn);
}

#[test]
fn knight_promotion_e8n_is_not_a_novelty_sign() {
    let g = english("1.e4 d5 2.exd5 c6 3.dxc6 Nf6 4.cxb7 Nbd7 5.bxa8N");
    assert_eq!(g.moves.last().map(String::as_str), Some("bxa8=N"));
    assert!(!g.pgn.contains("$146"), "{}", g.pgn);
}

#[test]
fn comments_in_braces_are_kept_at_their_moves() {
    let g = spanish("{Partida amistosa} 1.e4 {la mejor jugada} e5 2.Cf3 {desarrolla} Cc6");
    assert_validated(&g, &["e4", "e5", "Nf3", "Nc6"]);
    let pgn = flat_pgn(&g);
    let before = pgn.find("{Partida amistosa}").expect("the opening comment");
    let first = pgn.find("1. e4").expect("the first move");
    assert!(before < first, "{pgn}");
    assert_eq!(comment_after(&g, "e4").as_deref(), Some("la mejor jugada"));
    assert_eq!(comment_after(&g, "Nf3").as_deref(), Some("desarrolla"));
}

// ---------------------------------------------------------------------------
// Results
// ---------------------------------------------------------------------------

#[test]
fn results_written_1_0_0_1_and_draws_in_every_form() {
    let cases = [
        ("1-0", "1-0"),
        ("0-1", "0-1"),
        ("1/2-1/2", "1/2-1/2"),
        ("½-½", "1/2-1/2"),
        ("0.5-0.5", "1/2-1/2"),
        ("tablas", "1/2-1/2"),
        ("Tablas", "1/2-1/2"),
        ("remis", "1/2-1/2"),
        ("nulle", "1/2-1/2"),
        ("patta", "1/2-1/2"),
    ];
    for (written, pgn_result) in cases {
        let g = spanish(&format!("1.e4 e5 2.Cf3 Cc6 {written}"));
        assert_validated(&g, &["e4", "e5", "Nf3", "Nc6"]);
        assert_eq!(g.result, pgn_result, "{written}");
        let pgn = flat_pgn(&g);
        assert!(pgn.contains(&format!("[Result \"{pgn_result}\"]")), "{written}: {pgn}");
        assert!(pgn.ends_with(&format!("2. Nf3 Nc6 {pgn_result}")), "{written}: {pgn}");
    }
}

#[test]
fn no_result_written_and_no_mate_is_an_unknown_result() {
    let g = spanish("1.e4 e5 2.Cf3 Cc6");
    assert_eq!(g.result, "*");
    assert!(flat_pgn(&g).ends_with("2. Nf3 Nc6 *"), "{}", g.pgn);
}

#[test]
fn result_in_a_resultado_header() {
    let g = sheet("Language: es\nResultado: 0-1\n1.f3 e5 2.g4 Dh4#\n");
    assert_validated(&g, &["f3", "e5", "g4", "Qh4#"]);
    assert_eq!(g.result, "0-1");
}

#[test]
fn fools_mate_without_a_result_is_0_1_from_the_board() {
    let g = spanish("1.f3 e5 2.g4 Dh4++");
    assert_validated(&g, &["f3", "e5", "g4", "Qh4#"]);
    assert_eq!(g.result, "0-1");
}

#[test]
fn scholars_mate_with_0_1_written_is_a_result_mismatch_for_review() {
    // White mated Black: a written 0-1 contradicts the board.
    let g = spanish("1.e4 e5 2.Ac4 Cc6 3.Dh5 Cf6 4.Dxf7++ 0-1");
    assert_eq!(g.moves, ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"]);
    assert_eq!(g.status, Status::Review);
    assert!(codes(&g).contains(&"result-mismatch"), "{:?}", g.findings);
}

#[test]
fn a_move_written_after_mate_is_moves_after_end() {
    let g = english("1.e4 e5 2.Qh5 Nc6 3.Bc4 Nf6 4.Qxf7# Nd4");
    assert_eq!(g.moves, ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"]);
    assert_eq!(g.status, Status::Review);
    let f = g.findings.iter().find(|f| f.code == "moves-after-end").expect("moves-after-end");
    assert_eq!(f.ply, Some(8));
}

// ---------------------------------------------------------------------------
// Language inference and loose readings
// ---------------------------------------------------------------------------

#[test]
fn r_without_a_header_is_the_spanish_king_when_only_that_is_legal_re2() {
    // English Re2 (a rook to e2) is impossible; Spanish Re2 is the king.
    let g = sheet("1.e4 e5 2.Re2 Cc6");
    assert_eq!(g.moves, ["e4", "e5", "Ke2", "Nc6"]);
    assert_eq!(g.language, "es");
    assert_eq!(moves_status(&g), Status::Validated);
    assert!(codes(&g).contains(&"language-inferred"));
}

#[test]
fn r_without_a_header_is_the_english_rook_when_only_that_is_legal_ra3() {
    // English Ra3 (the a1 rook through a2) is legal after 1.a4; a king cannot go to a3.
    let g = sheet("1.a4 e5 2.Ra3 Nc6");
    assert_eq!(g.moves, ["a4", "e5", "Ra3", "Nc6"]);
    assert_eq!(g.language, "en");
    assert_eq!(moves_status(&g), Status::Validated);
}

#[test]
fn seed_spanish_game_without_a_header_is_inferred_spanish() {
    let g = sheet("1.d4 Cf6, 2.c4 e6, 3.Cc3 Ab4, 4.Ad2 0-0");
    assert_eq!(g.language, "es");
    assert_eq!(g.moves, ["d4", "Nf6", "c4", "e6", "Nc3", "Bb4", "Bd2", "O-O"]);
}

#[test]
fn idioma_espanol_header_fixes_spanish() {
    let g = sheet("Idioma: Español\n1.e4 e5 2.Re2 Cc6\n");
    assert_validated(&g, &["e4", "e5", "Ke2", "Nc6"]);
    assert_eq!(g.language, "es");
    assert!(!codes(&g).contains(&"language-inferred"));
}

#[test]
fn german_s_and_l_without_a_header_are_read_as_german() {
    let g = sheet("1.e4 e5 2.Sf3 Sc6 3.Lb5 a6");
    assert_eq!(g.moves, ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]);
    assert_eq!(g.language, "de");
    assert_eq!(moves_status(&g), Status::Validated);
}

#[test]
fn english_lowercase_nf3_at_move_one_is_the_knight() {
    for text in ["Language: en\n1.nf3 d5", "1.nf3 d5"] {
        let g = sheet(text);
        assert_eq!(g.moves, ["Nf3", "d5"], "{text:?}");
        assert_read_loosely(&g, 1, "nf3", "Nf3");
    }
}

#[test]
fn spanish_lowercase_cf3_at_move_one_is_the_knight() {
    // "cf3" cannot be a c-pawn taking on f3, so only the knight (caballo) is left.
    let g = spanish("1.cf3 d5");
    assert_eq!(g.moves, ["Nf3", "d5"]);
    assert_read_loosely(&g, 1, "cf3", "Nf3");
}

#[test]
fn english_lowercase_bc4_with_no_pawn_able_to_take_is_the_bishop() {
    // No b-pawn can take on c4 (nothing stands there), so "bc4" is Bc4.
    let g = english("1.e4 e5 2.bc4 Nc6");
    assert_eq!(g.moves, ["e4", "e5", "Bc4", "Nc6"]);
    assert_read_loosely(&g, 3, "bc4", "Bc4");
}

#[test]
fn english_lowercase_bxc3_is_the_pawn_when_the_pawn_can_take() {
    // After 4...Bxc3 both the b2 pawn and the d2 bishop can take on c3: the
    // lowercase b is the pawn's file, the capital B the bishop.
    let g = english("1.d4 Nf6 2.c4 e6 3.Nc3 Bb4 4.Bd2 Bxc3 5.bxc3");
    assert_validated(&g, &["d4", "Nf6", "c4", "e6", "Nc3", "Bb4", "Bd2", "Bxc3", "bxc3"]);
    let g = english("1.d4 Nf6 2.c4 e6 3.Nc3 Bb4 4.Bd2 Bxc3 5.Bxc3");
    assert_eq!(g.moves.last().map(String::as_str), Some("Bxc3"));
}

// ---------------------------------------------------------------------------
// Illegal entries
// ---------------------------------------------------------------------------

#[test]
fn spanish_queen_capture_dxh7_no_queen_can_make_is_never_validated() {
    // No white queen move reaches h7 on move 2 (d1-h5 is the only diagonal
    // open), and nothing close to "Dxh7" is legal: an arbiter must see it.
    let g = spanish("1.e4 e5 2.Dxh7 Cc6 3.Cf3");
    assert_flagged(&g, 3, "Dxh7", &["e4", "e5"]);
}

#[test]
fn spanish_last_entry_that_fits_nothing_keeps_the_game_up_to_there() {
    let g = spanish("1.e4 e5 2.Dxh7");
    assert_illegal_move(&g, 3, "Dxh7", &["e4", "e5"]);
    let pgn = flat_pgn(&g);
    assert!(pgn.contains("1. e4 e5 {illegal-move"), "{pgn}");
}

#[test]
fn english_king_ke3_one_rank_off_is_repaired_as_ke2_and_says_so() {
    // The king on e1 cannot reach e3; Ke2 is the only king move it can mean.
    let g = english("1.e4 e5 2.Ke3 Nc6 3.Nf3");
    assert_eq!(g.moves, ["e4", "e5", "Ke2", "Nc6", "Nf3"], "findings: {:?}", g.findings);
    let f = finding_at(&g, 3, "Ke3").unwrap_or_else(|| panic!("no finding about Ke3: {:?}", g.findings));
    assert_eq!(f.replacement.as_deref(), Some("Ke2"), "{f:?}");
    assert!(flat_pgn(&g).contains("Ke2 {typo-repaired"), "{}", flat_pgn(&g));
}

#[test]
fn spanish_black_knight_cf5_that_no_knight_reaches_goes_to_review() {
    // Neither black knight (b8, g8) reaches f5: Nf6 and f5 both fit a slip.
    let g = spanish("1.e4 e5 2.Cf3 Cf5 3.Ac4");
    assert_flagged(&g, 4, "Cf5", &["e4", "e5", "Nf3"]);
    let f = finding_at(&g, 4, "Cf5").unwrap();
    assert!(f.alternatives.len() >= 2, "{f:?}");
}

#[test]
fn a_move_ignoring_a_check_is_flagged_and_blocking_it_is_read() {
    // 4.Ab5+ checks along c6-d7-e8: 4...Cc6 blocks it, 4...Cf6 ignores it.
    let g = spanish("1.e4 d5 2.exd5 Dxd5 3.Cc3 Dd8 4.Ab5+ Cf6");
    assert_ne!(g.status, Status::Validated, "findings: {:?}", g.findings);
    assert_eq!(g.moves[..5], ["e4", "d5", "exd5", "Qxd5", "Nc3"]);
    let g = spanish("1.e4 d5 2.exd5 Dxd5 3.Cc3 Dd8 4.Ab5+ Cc6");
    assert_validated(&g, &["e4", "d5", "exd5", "Qxd5", "Nc3", "Qd8", "Bb5+", "Nc6"]);
}

// ---------------------------------------------------------------------------
// The seeds' example games
// ---------------------------------------------------------------------------

#[test]
fn fide_appendix_c_spanish_example_game_to_move_17() {
    let g = sheet(
        "1.d4 Cf6, 2.c4 e6, 3.Cc3 Ab4, 4.Ad2 0-0, 5.e4 d5, 6. exd5 exd5, 7.cxd5 Axc3, \
         8.Axc3 Cxd5, 9.Cf3 b6, 10.Db3 Cxc3, 11.bxc3 c5, 12.Ae2 cxd4, 13.Cxd4 Te8, \
         14.0-0 Cd7, 15.a4 Cc5, 16.Db4 Ab7, 17.a5",
    );
    assert_validated(
        &g,
        &[
            "d4", "Nf6", "c4", "e6", "Nc3", "Bb4", "Bd2", "O-O", "e4", "d5", "exd5", "exd5", "cxd5", "Bxc3", "Bxc3",
            "Nxd5", "Nf3", "b6", "Qb3", "Nxc3", "bxc3", "c5", "Be2", "cxd4", "Nxd4", "Re8", "O-O", "Nd7", "a4", "Nc5",
            "Qb4", "Bb7", "a5",
        ],
    );
    assert_eq!(g.language, "es");
    assert_eq!(g.result, "*");
    assert!(flat_pgn(&g).contains("17. a5 *"), "{}", g.pgn);
}

#[test]
fn encyclopedia_scholars_mate_spanish_dxf7_double_plus_is_1_0() {
    let g = sheet("1. e4 e5, 2. Ac4 Cc6, 3. Dh5 Cf6, 4. Dxf7++");
    assert_validated(&g, &["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"]);
    assert_eq!(g.language, "es");
    assert_eq!(g.result, "1-0");
    let pgn = flat_pgn(&g);
    assert!(pgn.contains("[Result \"1-0\"]"), "{pgn}");
    assert!(pgn.ends_with("4. Qxf7# 1-0"), "{pgn}");
}

#[test]
fn encyclopedia_dd7_is_the_queen_from_d1_to_d7() {
    // "23. Dd7": the white queen moves from d1 to d7 (here on an open d-file).
    let fen = "4k3/8/8/8/8/8/8/3QK3 w - - 0 1";
    assert_eq!(san_in(fen, "es", "Dd7"), "Qd7+");
}
