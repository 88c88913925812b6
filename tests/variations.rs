//! Variations typed in a game, in parentheses or brackets: kept out of the
//! game's moves, written to the PGN as variations where they replay legally
//! from their move, else as comments. Each test is named for what a user
//! typed; the PGN is read again by a strict PGN reader (pgn-reader), which
//! replays the variations too.

use std::ops::ControlFlow;

use pgn_reader::{Reader, SanPlus, Skip, Visitor};
use scoresheet::convert::{Options, convert};
use scoresheet::emit::report::GameReport;
use shakmaty::{Chess, Position};

fn game(name: &str, text: &str) -> GameReport {
    convert(name, text.as_bytes(), &Options::default()).games.remove(0)
}

/// The PGN with its lines joined.
fn flat(pgn: &str) -> String {
    pgn.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A game as a strict reader replays it: the mainline's SAN, and every
/// move of every variation legal from where it stands.
#[derive(Default)]
struct Replayed {
    mainline: Vec<String>,
    variation_moves: usize,
    /// The position and the one before the last move, at each depth
    /// entered (the mainline's first).
    stack: Vec<(Chess, Chess)>,
    pos: Chess,
    before: Chess,
}

struct Replay;

impl Visitor for Replay {
    type Tags = ();
    type Movetext = Replayed;
    type Output = Result<Replayed, String>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, _: ()) -> ControlFlow<Self::Output, Replayed> {
        ControlFlow::Continue(Replayed::default())
    }

    fn san(&mut self, g: &mut Replayed, san_plus: SanPlus) -> ControlFlow<Self::Output> {
        let Ok(m) = san_plus.san.to_move(&g.pos) else {
            return ControlFlow::Break(Err(format!("{san_plus} is not legal")));
        };
        g.before = g.pos.clone();
        g.pos.play_unchecked(m);
        match g.stack.is_empty() {
            true => g.mainline.push(san_plus.to_string()),
            false => g.variation_moves += 1,
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, g: &mut Replayed) -> ControlFlow<Self::Output, Skip> {
        g.stack.push((g.pos.clone(), g.before.clone()));
        g.pos = g.before.clone();
        ControlFlow::Continue(Skip(false))
    }

    fn end_variation(&mut self, g: &mut Replayed) -> ControlFlow<Self::Output> {
        match g.stack.pop() {
            Some((pos, before)) => (g.pos, g.before) = (pos, before),
            None => return ControlFlow::Break(Err("a `)` with no `(`".into())),
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, g: Replayed) -> Self::Output {
        Ok(g)
    }
}

/// Reads `g`'s PGN again: its mainline is the game's moves, its lines are
/// of 80 characters at most. The moves of its variations.
fn rereads(g: &GameReport) -> usize {
    for line in g.pgn.lines() {
        assert!(line.chars().count() <= 80, "a line of {} characters: {line}", line.chars().count());
    }
    let mut reader = Reader::new(std::io::Cursor::new(g.pgn.as_bytes()));
    let replayed = reader.read_game(&mut Replay).expect("reads").expect("a game").expect("every move legal");
    assert_eq!(replayed.mainline, g.moves, "{}", g.pgn);
    assert!(replayed.stack.is_empty(), "every variation closed: {}", g.pgn);
    replayed.variation_moves
}

#[test]
fn a_variation_in_parentheses_in_typed_text() {
    let g = game("partie.txt", "1. e4 e5 2. Nf3 (2. f4 exf4 3. Nf3) Nc6 3. Bb5 a6 1-0\n");
    assert_eq!(g.moves, ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]);
    assert!(flat(&g.pgn).contains("2. Nf3 (2. f4 exf4 3. Nf3) 2... Nc6 3. Bb5"), "{}", g.pgn);
    assert_eq!(rereads(&g), 3);
}

#[test]
fn a_variation_in_a_pgn_file() {
    let pgn = "[Event \"Club\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n\
               1. e4 e5 2. Nf3 Nc6 (2... d6 3. d4 {Philidor}) 3. Bb5 a6 1-0\n";
    let g = game("game.pgn", pgn);
    assert_eq!(g.moves, ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]);
    assert!(flat(&g.pgn).contains("2. Nf3 Nc6 (2... d6 3. d4 {Philidor}) 3. Bb5"), "{}", g.pgn);
    assert_eq!(rereads(&g), 2);
}

#[test]
fn a_variation_in_square_brackets() {
    let g = game("partie.txt", "1. d4 d5 2. c4 [2. Bf4 Nf6 3. e3] e6 3. Nc3 1/2-1/2\n");
    assert_eq!(g.moves, ["d4", "d5", "c4", "e6", "Nc3"]);
    assert!(flat(&g.pgn).contains("2. c4 (2. Bf4 Nf6 3. e3) 2... e6"), "{}", g.pgn);
    assert_eq!(rereads(&g), 3);
}

#[test]
fn a_variation_within_a_variation() {
    let g = game("partie.txt", "1. e4 e5 2. Nf3 (2. f4 exf4 3. Nf3 (3. Bc4 Qh4+ 4. Kf1) g5) Nc6 3. Bb5 1-0\n");
    assert_eq!(g.moves, ["e4", "e5", "Nf3", "Nc6", "Bb5"]);
    let want = "2. Nf3 (2. f4 exf4 3. Nf3 (3. Bc4 Qh4+ 4. Kf1) 3... g5) 2... Nc6";
    assert!(flat(&g.pgn).contains(want), "{}", g.pgn);
    assert_eq!(rereads(&g), 7);
}

#[test]
fn a_variation_in_german_letters() {
    let g = game("partie.txt", "Sprache: de\n\n1. e4 e5 2. Sf3 (2. Lc4 Sf6 3. d3) Sc6 3. Lb5 a6 1-0\n");
    assert_eq!(g.moves, ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]);
    assert!(flat(&g.pgn).contains("2. Nf3 (2. Bc4 Nf6 3. d3) 2... Nc6"), "{}", g.pgn);
    assert_eq!(rereads(&g), 3);
}

#[test]
fn a_variation_with_an_illegal_move_is_kept_as_a_comment() {
    let g = game("partie.txt", "1. e4 e5 2. Nf3 (2. f4 exf4 3. Qh8) [2. Ke3?] Nc6 3. Bb5 1-0\n");
    assert_eq!(g.moves, ["e4", "e5", "Nf3", "Nc6", "Bb5"]);
    assert!(flat(&g.pgn).contains("2. Nf3 {(2. f4 exf4 3. Qh8)} {(2. Ke3?)} 2... Nc6"), "{}", g.pgn);
    assert_eq!(rereads(&g), 0);
}

#[test]
fn a_variation_on_the_next_move_follows_that_move() {
    // Typed after White's move, numbered as Black's: an alternative to
    // Black's move, so written after it.
    let g = game("partie.txt", "1. e4 e5 2. Nf3 (2... d6 3. d4) Nc6 3. Bb5 1-0\n");
    assert!(flat(&g.pgn).contains("2. Nf3 Nc6 (2... d6 3. d4) 3. Bb5"), "{}", g.pgn);
    assert_eq!(rereads(&g), 2);
}

#[test]
fn a_variation_before_the_first_move_is_a_comment() {
    let g = game("partie.txt", "(1. d4 d5) 1. e4 e5 2. Nf3 1-0\n");
    assert_eq!(g.moves, ["e4", "e5", "Nf3"]);
    assert!(g.pgn.contains("{(1. d4 d5)}"), "{}", g.pgn);
    assert_eq!(rereads(&g), 0);
}

#[test]
fn the_moves_and_findings_are_those_of_the_game_without_its_variations() {
    let plain = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 1-0\n";
    let typed = "1. e4 e5 2. Nf3 (2. f4 exf4) Nc6 [2... d6 3. d4] 3. Bb5 (3. Bc4 Bc5 4. c3 Nf6 5. d4 exd4 \
                 6. cxd4 Bb4+ 7. Nc3 Nxe4 8. O-O Bxc3 9. d5 Bf6 10. Re1 Ne7 11. Rxe4 d6) a6 4. Ba4 (4. Bxc6 dxc6) \
                 Nf6 5. O-O (5. Qe2 b5 6. Bb3 Be7) Be7 1-0\n";
    let (a, b) = (game("partie.txt", plain), game("partie.txt", typed));
    assert_eq!(a.moves, b.moves);
    assert_eq!(a.result, b.result);
    let codes = |g: &GameReport| g.findings.iter().map(|f| (f.code, f.ply)).collect::<Vec<_>>();
    assert_eq!(codes(&a), codes(&b));
    let json = |g: &GameReport| {
        let mut v = serde_json::to_value(g).unwrap();
        v.as_object_mut().unwrap().remove("pgn");
        v
    };
    assert_eq!(json(&a), json(&b), "the JSON but its PGN");
    assert!(b.pgn.contains("(2. f4") && !a.pgn.contains("(2."));
    assert_eq!(rereads(&b), 2 + 2 + 18 + 2 + 4);
}
