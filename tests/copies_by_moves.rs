//! Two copies of one game told by their moves where their names, typed by
//! volunteers as they read them, do not tell them (`convert`); and games
//! alike only as far as an event's games are, or between the same players,
//! never paired by a guess. The games are real ones from the committed
//! corpus, long enough to be told by their moves.

use scoresheet::convert::{Input, Options, convert_together};
use scoresheet::dev::same_player;
use scoresheet::emit::report::FileReport;
use scoresheet_dev::corpus::{CorpusGame, load_range};

fn input(name: &str, text: &str) -> Input {
    (name.to_string(), Ok(text.as_bytes().to_vec()))
}

/// The sheets each file's game was read from (`None`: read alone).
fn sheets_of(inputs: &[Input]) -> Vec<Option<[String; 2]>> {
    let (reports, _): (Vec<FileReport>, _) = convert_together(inputs, &Options::default());
    reports.iter().map(|r| r.games[0].sheets.clone()).collect()
}

fn both(a: &str, b: &str) -> Option<[String; 2]> {
    Some([a.to_string(), b.to_string()])
}

/// Committed corpus games of at least 70 plies.
fn long_games() -> Vec<CorpusGame> {
    load_range(6000, 40).into_iter().filter(|g| g.sans.len() >= 70).collect()
}

/// A text sheet: the headers given, then the moves (the first `plies` of them).
fn sheet(headers: &str, sans: &[String], plies: usize) -> String {
    let mut s = format!("Event: Open\n{headers}\n");
    for (i, san) in sans.iter().take(plies).enumerate() {
        if i % 2 == 0 {
            s.push_str(&format!("{}. ", i / 2 + 1));
        }
        s.push_str(san);
        s.push(' ');
    }
    s.push('\n');
    s
}

#[test]
fn two_different_typos_of_one_name_on_copies_without_a_common_round_are_one_game() {
    let g = &long_games()[0];
    // `Jdin` on one copy, `Yudn` on the other, for Yudin; one copy gives no
    // round, so the names alone would have to tell the game, and they do not.
    assert!(!same_player("Jdin, S", "Yudn S"));
    let a = sheet("Round: 4\nWhite: Jdin, S\nBlack: Gelfand, B\n", &g.sans, usize::MAX);
    let b = sheet("White: Yudn S\nBlack: Gelfand, Boris\n", &g.sans, usize::MAX);
    assert_eq!(sheets_of(&[input("a.txt", &a), input("b.txt", &b)])[0], both("a.txt", "b.txt"));
}

#[test]
fn no_round_on_one_copy_and_names_that_do_not_match_are_one_game_by_their_moves() {
    let g = &long_games()[1];
    // Black's name typed past knowing on the copy that gives no round.
    assert!(!same_player("Kosintseva, N", "Kasyntsva"));
    let a = sheet("Round: 1\nWhite: Mamedyarov, S\nBlack: Kosintseva, N\n", &g.sans, usize::MAX);
    let b = sheet("White: Mamediarov Sh\nBlack: Kasyntsva\n", &g.sans, usize::MAX);
    assert_eq!(sheets_of(&[input("a.txt", &a), input("b.txt", &b)])[0], both("a.txt", "b.txt"));
    // Other players named, and the same moves: two sheets of other games
    // (or of one game, which the arbiter tells), never one by a guess.
    let c = sheet("White: Carlsen, M\nBlack: Nakamura, H\n", &g.sans, usize::MAX);
    assert_eq!(sheets_of(&[input("a.txt", &a), input("c.txt", &c)]), [None, None]);
    // Another round written: another game.
    let d = sheet("Round: 2\nWhite: Mamediarov Sh\nBlack: Kasyntsva\n", &g.sans, usize::MAX);
    assert_eq!(sheets_of(&[input("a.txt", &a), input("d.txt", &d)]), [None, None]);
}

#[test]
fn an_early_stopping_copy_with_names_typed_otherwise_is_read_with_the_whole_game() {
    let g = &long_games()[2];
    let a = sheet("Round: 6\nWhite: Jdin\nBlack: Petrov A\n", &g.sans, g.sans.len() - 20);
    let b = sheet("White: Yudn S\nBlack: A UKR Ptrov\n", &g.sans, usize::MAX);
    let (reports, _) = convert_together(&[input("a.txt", &a), input("b.txt", &b)], &Options::default());
    let game = &reports[0].games[0];
    assert_eq!(game.sheets, both("a.txt", "b.txt"));
    assert_eq!(game.moves, g.sans, "the whole game, from the copy that goes on");
}

#[test]
fn a_double_round_robins_two_games_between_the_same_players_stay_two_games() {
    let games = long_games();
    let (g1, g2) = (&games[3], &games[4]);
    // No round on any sheet: the same two players, both games' two copies.
    let text = |white: &str, black: &str, g: &CorpusGame| {
        sheet(&format!("White: {white}\nBlack: {black}\n"), &g.sans, usize::MAX)
    };
    // The second cycle with colours reversed, and a play-off with the same colours.
    for (w2, b2) in [("Carlsen, M", "Navara, D"), ("Navara, D", "Carlsen, M")] {
        let inputs = [
            input("1a.txt", &text("Navara, David", "Carlsen, Magnus", g1)),
            input("2a.txt", &text(w2, b2, g2)),
            input("1b.txt", &text("D. Navara", "M. Carlsen", g1)),
            input("2b.txt", &text(w2, b2, g2)),
        ];
        let got = sheets_of(&inputs);
        assert_eq!(got[0], both("1a.txt", "1b.txt"), "{w2} v {b2}");
        assert_eq!(got[1], both("2a.txt", "2b.txt"), "{w2} v {b2}");
    }
}

#[test]
fn a_sheet_alike_only_as_far_as_two_games_of_an_event_are_is_never_paired() {
    let g = &long_games()[5];
    // 34 plies: as far as two different games of the corpus's events ever
    // agree (`agreement`), so no more than another game of the event.
    let a = sheet("Round: 3\nWhite: Jdin\nBlack: Petrov A\n", &g.sans, usize::MAX);
    let b = sheet("White: Yudn S\nBlack: A. Ptrov\n", &g.sans, 34);
    assert_eq!(sheets_of(&[input("a.txt", &a), input("b.txt", &b)]), [None, None]);
    // Past that, and most of its moves alike, it is the game's other copy.
    let c = sheet("White: Yudn S\nBlack: A. Ptrov\n", &g.sans, 44);
    assert_eq!(sheets_of(&[input("a.txt", &a), input("c.txt", &c)])[0], both("a.txt", "c.txt"));
}

/// A game as converted: its players, moves, whether it is validated, and
/// its findings' codes.
#[derive(Debug)]
struct Read {
    white: String,
    black: String,
    moves: Vec<String>,
    validated: bool,
    codes: Vec<String>,
}

/// The games of the files converted together, file by file.
fn games_of(inputs: &[Input]) -> Vec<Read> {
    let (reports, _) = convert_together(inputs, &Options::default());
    let tag =
        |g: &scoresheet::GameReport, k: &str| g.headers.get(k).and_then(|v| v.as_str()).unwrap_or_default().to_string();
    reports
        .iter()
        .flat_map(|r| &r.games)
        .map(|g| Read {
            white: tag(g, "White"),
            black: tag(g, "Black"),
            moves: g.moves.clone(),
            validated: g.status == scoresheet::Status::Validated,
            codes: g.findings.iter().map(|f| f.code.to_string()).collect(),
        })
        .collect()
}

const LI_FILE: &str = "Round: 3\nWhite: Li, Wei\nBlack: Wang, Hao\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 1-0\n\n\
                       Round: 3\nWhite: Li, Wen\nBlack: Wang, Hai\n\n1. d4 d5 2. c4 e6 3. Nc3 Nf6 0-1\n";

#[test]
fn li_wei_and_li_wen_of_one_round_typed_into_one_file_are_two_games() {
    let got = games_of(&[input("round3.txt", LI_FILE)]);
    assert_eq!(got.len(), 2);
    let seen = |g: &Read| (g.white.clone(), g.black.clone(), g.moves.len(), g.validated);
    assert_eq!(seen(&got[0]), ("Li, Wei".into(), "Wang, Hao".into(), 8, true));
    assert_eq!(seen(&got[1]), ("Li, Wen".into(), "Wang, Hai".into(), 6, true));
}

#[test]
fn given_names_a_letter_apart_are_two_players_even_in_two_files() {
    let g = &long_games()[6];
    let h = &long_games()[7];
    for (w1, b1, w2, b2) in [
        ("Li, Wei", "Wang, Hao", "Li, Wen", "Wang, Hai"),
        ("Smith, John", "Brown, Peter", "Smith, Joan", "Brown, Petra"),
        ("Nguyen, Van An", "Tran, Minh", "Nguyen, Van Anh", "Tran, Minh Duc"),
    ] {
        assert!(!same_player(w1, w2), "{w1} / {w2}");
        let a = sheet(&format!("Round: 3\nWhite: {w1}\nBlack: {b1}\n"), &g.sans, usize::MAX);
        let b = sheet(&format!("Round: 3\nWhite: {w2}\nBlack: {b2}\n"), &h.sans, usize::MAX);
        let got = games_of(&[input("a.txt", &a), input("b.txt", &b)]);
        assert_eq!((&got[0].moves, &got[1].moves), (&g.sans, &h.sans), "{w1} / {w2}");
        assert!(got.iter().all(|g| g.validated), "{w1} / {w2}: each validated under its own players: {got:?}");
    }
}

#[test]
fn one_pairing_written_on_two_sheets_of_two_games_is_two_games_for_an_arbiter() {
    // The same players and round on both sheets, and moves apart from the
    // first: not one game whose copies disagree, but two, both kept.
    let games = long_games();
    let (g, h) = (&games[8], &games[9]);
    let a = sheet("Round: 5\nWhite: Navara, David\nBlack: Carlsen, Magnus\n", &g.sans, usize::MAX);
    let b = sheet("Round: 5\nWhite: D. Navara\nBlack: M. Carlsen\n", &h.sans, usize::MAX);
    let got = games_of(&[input("a.txt", &a), input("b.txt", &b)]);
    assert_eq!((&got[0].moves, &got[1].moves), (&g.sans, &h.sans));
    for game in &got {
        assert!(!game.validated && game.codes.iter().any(|c| c == "two-games-one-board"), "{game:?}");
        assert!(!game.codes.iter().any(|c| c == "copies-disagree"), "{game:?}");
    }
}

#[test]
fn karlsen_ding_the_start_of_carlsen_caruana_stays_its_own_game() {
    let g = load_range(6000, 40).into_iter().find(|g| g.sans.len() >= 90).expect("a long game");
    let a = sheet("Round: 3\nWhite: Carlsen, Magnus\nBlack: Caruana, Fabiano\n", &g.sans, usize::MAX);
    let b = format!("{}1-0\n", sheet("White: Karlsen, M\nBlack: Ding, Liren\n", &g.sans, 46));
    let got = games_of(&[input("a.txt", &a), input("b.txt", &b)]);
    assert_eq!(got.len(), 2);
    assert_eq!((got[0].black.as_str(), got[0].moves.len()), ("Caruana, Fabiano", g.sans.len()));
    assert_eq!((got[1].black.as_str(), got[1].moves.len()), ("Ding, Liren", 46));
    assert!(got.iter().all(|g| !g.codes.iter().any(|c| c == "copies-joined-by-moves")), "{got:?}");
}

#[test]
fn copies_joined_by_their_moves_say_so_with_what_each_sheet_wrote() {
    let g = &long_games()[0];
    let a = sheet("Round: 4\nWhite: Jdin, S\nBlack: Gelfand, B\n", &g.sans, usize::MAX);
    let b = sheet("White: Yudn S\nBlack: Gelfand, Boris\n", &g.sans, usize::MAX);
    let (reports, _) = convert_together(&[input("a.txt", &a), input("b.txt", &b)], &Options::default());
    let game = &reports[0].games[0];
    let joined = game.findings.iter().find(|f| f.code == "copies-joined-by-moves").expect("the join is said");
    for said in ["a.txt", "b.txt", "Jdin, S", "Yudn S", "round 4"] {
        assert!(joined.message.contains(said), "{said}: {}", joined.message);
    }
    assert_eq!(game.status, scoresheet::Status::Validated, "a notice: {:?}", game.findings);
}

#[test]
fn a_short_draw_whose_opening_a_longer_game_shares_is_its_own_game_under_names_alike() {
    // Names a syllable apart read as one player's, no round: only the
    // readings can tell. The short game ends, drawn, two plies past the
    // opening both play; the long one goes on and is won.
    let games = load_range(0, 2000);
    let common = |a: &[String], b: &[String]| a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let (long, short, k) = games
        .iter()
        .flat_map(|g| games.iter().map(move |h| (g, h)))
        .map(|(g, h)| (g, h, common(&g.sans, &h.sans)))
        .find(|(g, h, k)| (8..=20).contains(k) && g.sans.len() >= k + 20 && h.sans.len() >= k + 2)
        .expect("two games sharing an opening");
    let a = format!("{}1/2-1/2\n", sheet("White: Zekaka, Ann\nBlack: Drakaka, Bob\n", &short.sans, k + 2));
    let b = format!("{}1-0\n", sheet("White: Zekadra, Ann\nBlack: Drakadra, Bob\n", &long.sans, usize::MAX));
    let got = games_of(&[input("a.txt", &a), input("b.txt", &b)]);
    assert_eq!(got[0].moves, short.sans[..k + 2], "{got:?}");
    assert_eq!(got[1].moves, long.sans, "{got:?}");
}
