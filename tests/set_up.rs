//! Games that begin in a position of their own: an endgame or a study given
//! by its FEN, an odds game, Chess960. Each test is named for what a user
//! gives, and asserts what they check: the moves read, the status, and the
//! PGN's tags and move numbers (read again by a strict PGN reader).

use std::ops::ControlFlow;

use pgn_reader::{RawTag, Reader, SanPlus, Skip, Visitor};
use scoresheet::convert::{Options, convert};
use scoresheet::emit::report::{GameReport, Status};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position};

fn game(name: &str, text: &str) -> GameReport {
    convert(name, text.as_bytes(), &Options::default()).games.remove(0)
}

fn codes(g: &GameReport) -> Vec<&str> {
    g.findings.iter().map(|f| f.code).collect()
}

fn tag<'g>(g: &'g GameReport, k: &str) -> Option<&'g str> {
    g.headers.get(k).and_then(|v| v.as_str())
}

/// The PGN with its lines joined: move numbers are checked across line breaks.
fn flat(pgn: &str) -> String {
    pgn.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The moves of the first game of `pgn` as a strict PGN reader replays them
/// from its `FEN` tag (Chess960 castling where `Variant` says so).
fn replayed(pgn: &str) -> Vec<String> {
    let mut reader = Reader::new(std::io::Cursor::new(pgn.as_bytes()));
    reader.read_game(&mut Replay).expect("reads").expect("a game").expect("every move legal")
}

struct Replay;

struct Game {
    pos: Chess,
    sans: Vec<String>,
}

impl Visitor for Replay {
    type Tags = Vec<(String, String)>;
    type Movetext = Game;
    type Output = Result<Vec<String>, String>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(Vec::new())
    }

    fn tag(&mut self, tags: &mut Self::Tags, name: &[u8], value: RawTag<'_>) -> ControlFlow<Self::Output> {
        tags.push((String::from_utf8_lossy(name).into_owned(), value.decode_utf8_lossy().into_owned()));
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Game> {
        let get = |k: &str| tags.iter().find(|(t, _)| t == k).map(|(_, v)| v.clone());
        let mode = CastlingMode::from_chess960(get("Variant").as_deref() == Some("Chess960"));
        let pos = match get("FEN") {
            Some(fen) => match fen.parse::<Fen>().ok().and_then(|f| f.into_position::<Chess>(mode).ok()) {
                Some(pos) => pos,
                None => return ControlFlow::Break(Err(format!("FEN {fen}"))),
            },
            None => Chess::default(),
        };
        ControlFlow::Continue(Game { pos, sans: Vec::new() })
    }

    fn san(&mut self, game: &mut Game, san_plus: SanPlus) -> ControlFlow<Self::Output> {
        match san_plus.san.to_move(&game.pos) {
            Ok(m) => {
                game.pos.play_unchecked(m);
                game.sans.push(san_plus.to_string());
                ControlFlow::Continue(())
            }
            Err(e) => ControlFlow::Break(Err(format!("{san_plus}: {e}"))),
        }
    }

    fn begin_variation(&mut self, _: &mut Game) -> ControlFlow<Self::Output, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn end_game(&mut self, game: Game) -> Self::Output {
        Ok(game.sans)
    }
}

/// An endgame: White's rook and king against Black's king and pawns.
const ENDGAME: &str = "6k1/5p1p/6p1/8/8/8/5PPP/4R1K1 w - - 0 31";

#[test]
fn an_endgame_typed_from_its_fen_line() {
    let g = game("endgame.txt", &format!("FEN: {ENDGAME}\n\n31. Te8+ Kg7 32. Te7 Kf6 33. Txf7+ Kxf7 0-1\n"));
    assert_eq!(g.moves, ["Re8+", "Kg7", "Re7", "Kf6", "Rxf7+", "Kxf7"]);
    assert_eq!(g.status, Status::Validated, "{:?}", g.findings);
    assert_eq!(g.language, "de");
    assert_eq!(tag(&g, "SetUp"), Some("1"));
    assert_eq!(tag(&g, "FEN"), Some(ENDGAME));
    let pgn = flat(&g.pgn);
    assert!(pgn.contains("[Result \"0-1\"] [SetUp \"1\"] [FEN \""), "after the roster: {pgn}");
    assert!(pgn.contains("31. Re8+ Kg7 32. Re7 Kf6 33. Rxf7+ Kxf7 0-1"), "{pgn}");
    // A PGN reader replays it from its FEN; our own reader reads it again.
    assert_eq!(replayed(&g.pgn), g.moves);
    let again = game("endgame.pgn", &g.pgn);
    assert_eq!(again.moves, g.moves);
    assert_eq!(tag(&again, "FEN"), Some(ENDGAME));
}

/// Black to move at move 23.
const BLACK_TO_MOVE: &str = "6k1/5p1p/6p1/8/8/8/5PPP/4R1K1 b - - 0 23";

#[test]
fn black_to_move_at_move_23_numbered_every_way_or_not_at_all() {
    let moves = ["Kg7", "Re7", "Kf6", "Rxf7+", "Kxf7"];
    for typed in [
        "23... Kg7 24. Re7 Kf6 25. Rxf7+ Kxf7 0-1",
        "23. ... Kg7 24. Re7 Kf6 25. Rxf7+ Kxf7 0-1",
        "23...Kg7 24.Re7 Kf6 25.Rxf7+ Kxf7 0-1",
        "Kg7 Re7 Kf6 Rxf7+ Kxf7 0-1",
    ] {
        let g = game("ending.txt", &format!("FEN: {BLACK_TO_MOVE}\n\n{typed}\n"));
        assert_eq!(g.moves, moves, "{typed}");
        assert!(!codes(&g).contains(&"numbering-error"), "{typed}: {:?}", g.findings);
        assert_eq!(g.status, Status::Validated, "{typed}: {:?}", g.findings);
        assert!(flat(&g.pgn).contains("23... Kg7 24. Re7 Kf6 25. Rxf7+ Kxf7 0-1"), "{}", g.pgn);
        assert_eq!(replayed(&g.pgn), moves);
    }
}

#[test]
fn a_numbering_that_jumps_in_a_game_from_a_fen_is_still_said() {
    let g = game("ending.txt", &format!("FEN: {BLACK_TO_MOVE}\n\n23... Kg7 24. Re7 Kf6 26. Rxf7+ Kxf7 0-1\n"));
    assert_eq!(g.moves, ["Kg7", "Re7", "Kf6", "Rxf7+", "Kxf7"]);
    assert!(codes(&g).contains(&"numbering-error"), "{:?}", g.findings);
}

#[test]
fn a_study_in_pgn_with_setup_and_fen_tags() {
    let pgn = format!(
        "[Event \"Study\"]\n[White \"White to play\"]\n[Black \"?\"]\n[Result \"1-0\"]\n[SetUp \"1\"]\n\
         [FEN \"{ENDGAME}\"]\n\n31. Re8+ Kg7 32. Re7 Kf6 33. Rxf7+ Kxf7 1-0\n"
    );
    let g = game("study.pgn", &pgn);
    assert_eq!(g.moves, ["Re8+", "Kg7", "Re7", "Kf6", "Rxf7+", "Kxf7"]);
    assert_eq!(tag(&g, "FEN"), Some(ENDGAME));
    assert_eq!(g.pgn.matches("[FEN ").count(), 1, "{}", g.pgn);
    assert_eq!(g.pgn.matches("[SetUp ").count(), 1, "{}", g.pgn);
    assert_eq!(replayed(&g.pgn), g.moves);
}

#[test]
fn a_yaml_form_with_a_fen_key() {
    let yaml = format!(
        "white: Doe, Jane\nblack: Roe, Richard\nfen: \"{BLACK_TO_MOVE}\"\nresult: 0-1\n\
         moves: 23... Kg7 24. Re7 Kf6 25. Rxf7+ Kxf7\n"
    );
    let g = game("ending.yaml", &yaml);
    assert_eq!(g.moves, ["Kg7", "Re7", "Kf6", "Rxf7+", "Kxf7"]);
    assert_eq!(g.status, Status::Validated, "{:?}", g.findings);
    assert_eq!(tag(&g, "FEN"), Some(BLACK_TO_MOVE));
    assert!(!g.pgn.contains("[Fen "), "the form's key is not a tag of its own: {}", g.pgn);
}

#[test]
fn an_odds_game_in_spanish_with_a_slip_is_repaired_from_its_start() {
    // White plays without the queen's knight: `Cxd2` names the king's knight
    // (from the standard start it would name two), `exd5` is a slip for exd4.
    let odds = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR w KQkq - 0 1";
    let text = format!(
        "FEN: {odds}\n\n1. e4 e5 2. Cf3 Cc6 3. Ac4 Ac5 4. c3 Cf6 5. d4 exd5 6. cxd4 Ab4+ 7. Ad2 Axd2+ \
         8. Cxd2 d5 9. exd5 Cxd5 10. O-O O-O 1/2-1/2\n"
    );
    let g = game("odds.txt", &text);
    assert_eq!(g.language, "es");
    assert_eq!(g.moves[9], "exd4");
    assert_eq!(g.moves[14], "Nxd2");
    assert_eq!(g.moves.len(), 20);
    let typo = g.findings.iter().find(|f| f.code == "typo-repaired").expect("the slip is said");
    assert_eq!((typo.written.as_deref(), typo.ply), (Some("exd5"), Some(10)));
    assert_eq!(g.status, Status::Validated, "{:?}", g.findings);
    assert_eq!(tag(&g, "FEN"), Some(odds));
    assert_eq!(replayed(&g.pgn), g.moves);
}

#[test]
fn chess960_with_x_fen_or_shredder_castling() {
    let moves = "1. c3 c6 2. Bc2 Bc7 3. b3 b6 4. Bb2 Bb7 5. O-O-O O-O-O *";
    let x_fen = "rbbknnqr/pppppppp/8/8/8/8/PPPPPPPP/RBBKNNQR w KQkq - 0 1";
    let shredder = "rbbknnqr/pppppppp/8/8/8/8/PPPPPPPP/RBBKNNQR w HAha - 0 1";
    for text in [
        format!("Variant: Chess960\nFEN: {x_fen}\n\n{moves}\n"),
        format!("variant: chess 960\n[FEN \"{x_fen}\"]\n\n{moves}\n"),
        format!("[Variant \"Fischerandom\"]\n[SetUp \"1\"]\n[FEN \"{shredder}\"]\n\n{moves}\n"),
        format!("FEN: {shredder}\n\n{moves}\n"),
    ] {
        let g = game("960.txt", &text);
        assert_eq!(g.moves, ["c3", "c6", "Bc2", "Bc7", "b3", "b6", "Bb2", "Bb7", "O-O-O", "O-O-O"], "{text}");
        assert_eq!(g.status, Status::Validated, "{text}: {:?}", g.findings);
        assert_eq!(tag(&g, "Variant"), Some("Chess960"), "{text}");
        assert_eq!(tag(&g, "FEN"), Some(x_fen), "{text}");
        assert_eq!(g.pgn.matches("[Variant ").count(), 1, "{}", g.pgn);
        assert_eq!(replayed(&g.pgn), g.moves);
    }
}

#[test]
fn a_start_that_cannot_be_used_is_never_read_from_the_standard_start() {
    for (given, says) in [
        ("FEN: 8/8/8/8 w - - 0 1", "8/8/8/8 w - - 0 1"),
        ("[FEN \"4k3/8/8/8/8/8/8/K6K w - - 0 1\"]", "4k3/8/8/8/8/8/8/K6K w - - 0 1"),
        ("Variant: Chess960", "starting position is not known"),
    ] {
        let g = game("bad.txt", &format!("{given}\n\n1. e4 e5 2. Nf3 Nc6 1-0\n"));
        let f = g.findings.iter().find(|f| f.code == "set-up-position").expect("said");
        assert_eq!(format!("{:?}", f.severity), "Error");
        assert!(f.message.contains(says), "{given}: {}", f.message);
        assert_eq!(g.status, Status::Rejected, "{given}");
        assert!(g.moves.is_empty(), "{given}: no move read from the standard start");
        assert!(!g.pgn.contains("[FEN "), "{}", g.pgn);
    }
}

#[test]
fn the_standard_start_given_as_a_fen_is_read_as_without_it() {
    let moves = "1. e4 e5 2. Cf3 Cc6 3. Ab5 a6 1/2-1/2\n";
    let plain = convert("game.txt", moves.as_bytes(), &Options::default());
    for given in [
        "FEN: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n\n",
        "[SetUp \"1\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n\n",
    ] {
        let with = convert("game.txt", format!("{given}{moves}").as_bytes(), &Options::default());
        let json = |r: &scoresheet::FileReport| serde_json::to_value(&r.games).expect("serializes");
        assert_eq!(json(&with), json(&plain), "{given}");
    }
}

#[test]
fn two_copies_of_a_game_from_a_fen_are_read_together() {
    use scoresheet::convert::convert_together;
    let head =
        |white: &str| format!("Event: Endings\nRound: 2\nWhite: {white}\nBlack: Roe, Richard\nFEN: {ENDGAME}\n\n");
    // Copy a has an illegible box that copy b settles.
    let a = format!("{}31. Re8+ ? 32. Re7 Kf6 33. Rxf7+ Kxf7 0-1\n", head("Doe, Jane"));
    let b = format!("{}31. Re8+ Kg7 32. Re7 Kf6 33. Rxf7+ Kxf7 0-1\n", head("J. Doe"));
    let inputs = [("a.txt".to_string(), Ok(a.into_bytes())), ("b.txt".to_string(), Ok(b.into_bytes()))];
    let (reports, notes) = convert_together(&inputs, &Options::default());
    assert!(notes.is_empty(), "{notes:?}");
    let g = &reports[0].games[0];
    assert_eq!(g.sheets, Some(["a.txt".to_string(), "b.txt".to_string()]));
    assert_eq!(g.moves, ["Re8+", "Kg7", "Re7", "Kf6", "Rxf7+", "Kxf7"]);
    assert_eq!(g.status, Status::Validated, "{:?}", g.findings);
    assert_eq!(tag(g, "FEN"), Some(ENDGAME));
    assert_eq!(replayed(&g.pgn), g.moves);
}

#[test]
fn findings_name_the_move_as_the_sheet_numbers_it() {
    let g = game("ending.txt", &format!("FEN: {BLACK_TO_MOVE}\n\n23... Kg7 24. Re7 Kf5 25. Rxf7+ Kxf7\n"));
    assert_eq!(g.moves, ["Kg7", "Re7", "Kf6", "Rxf7+", "Kxf7"]);
    // `Kf5` is Kf6 or Kf8: the doubt is said at the game's third ply.
    let slip = g.findings.iter().find(|f| f.code == "ambiguous-repair").expect("the slip is said");
    assert_eq!(slip.ply, Some(3), "the game's own ply");
    assert_eq!(slip.move_label.as_deref(), Some("24..."));
    assert!(slip.message.starts_with("move 24... (line 3"), "{}", slip.message);
    assert!(flat(&g.pgn).contains("{ambiguous-repair: move 24..."), "{}", g.pgn);
    let missing = g.findings.iter().find(|f| f.code == "result-missing").expect("no result written");
    assert!(missing.message.contains("after move 25"), "{}", missing.message);
}

#[test]
fn two_copies_that_give_different_starts_are_read_alone_and_said() {
    use scoresheet::convert::convert_together;
    let head = "Event: Endings\nRound: 2\nWhite: Doe, Jane\nBlack: Roe, Richard\n";
    let a = format!("{head}FEN: {ENDGAME}\n\n31. Re8+ Kg7 32. Re7 Kf6 0-1\n");
    let b = format!("{head}\n1. e4 e5 2. Nf3 Nc6 0-1\n");
    let inputs = [("a.txt".to_string(), Ok(a.into_bytes())), ("b.txt".to_string(), Ok(b.into_bytes()))];
    let (reports, notes) = convert_together(&inputs, &Options::default());
    assert_eq!(reports[0].games[0].sheets, None, "not joined");
    assert_eq!(reports[0].games[0].moves, ["Re8+", "Kg7", "Re7", "Kf6"]);
    assert_eq!(reports[1].games[0].moves, ["e4", "e5", "Nf3", "Nc6"]);
    assert!(notes.iter().any(|n| n.contains("b.txt") && n.contains("another starting position")), "{notes:?}");
}

#[test]
fn a_spreadsheet_with_a_fen_row_and_black_first() {
    let csv = format!("White,\"Doe, Jane\"\nFEN,{BLACK_TO_MOVE}\nResult,0-1\n\n#,White,Black\n23,,Kg7\n24,Re7,Kf6\n");
    let g = game("ending.csv", &csv);
    assert_eq!(g.moves, ["Kg7", "Re7", "Kf6"]);
    assert_eq!(g.status, Status::Validated, "{:?}", g.findings);
    assert_eq!(tag(&g, "FEN"), Some(BLACK_TO_MOVE));
    assert!(flat(&g.pgn).contains("23... Kg7 24. Re7 Kf6 0-1"), "{}", g.pgn);
}

#[test]
fn the_review_page_numbers_moves_from_the_fen() {
    let g = game("ending.txt", &format!("FEN: {BLACK_TO_MOVE}\n\n23... Kg7 24. Re7 Kf5 25. Rxf7+ Kxf7\n"));
    let page = scoresheet::emit::review_page("ending.txt", std::slice::from_ref(&g));
    // Black's 23rd move opens the table, White's cells before it empty.
    assert!(page.contains("<tr><td>23.</td><td></td><td></td><td"), "{page}");
    assert!(page.contains("<tr><td>24.</td>"), "{page}");
    assert!(!page.contains("<tr><td>1.</td>"), "{page}");
}
