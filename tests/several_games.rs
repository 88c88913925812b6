//! A file of several games, as a volunteer types a round into one file:
//! every game comes out with its own players, round and result, whatever
//! the format, the language, the results written or not and what stands
//! between the games. Files made by `scoresheet_dev::several` from the
//! committed corpus games; each named by its seed where it fails.

use scoresheet::convert::{Options, convert, convert_together};
use scoresheet::emit::report::{GameReport, Status};
use scoresheet::ingest::Format;
use scoresheet::notation::LANGUAGES;
use scoresheet_dev::corpus::load_range;
use scoresheet_dev::generate::{Rng, derive_seed};
use scoresheet_dev::several::{SeveralFile, SeveralGame, Written, games_for_file, several_file};
use shakmaty::san::San;
use shakmaty::{Chess, Color, Position};

fn tag<'g>(g: &'g GameReport, k: &str) -> &'g str {
    g.headers.get(k).and_then(|v| v.as_str()).unwrap_or("?")
}

/// White and Black of each game read.
fn players(games: &[GameReport]) -> Vec<(&str, &str)> {
    games.iter().map(|g| (tag(g, "White"), tag(g, "Black"))).collect()
}

/// The result a reader must give: the one written, else the board's (a
/// mate), else none.
fn expected_result(g: &SeveralGame, written: Written) -> String {
    if written.any() {
        return g.result.clone();
    }
    let mut pos = Chess::default();
    for s in &g.sans {
        let m = s.parse::<San>().ok().and_then(|s| s.to_move(&pos).ok()).expect("a corpus move");
        pos.play_unchecked(m);
    }
    match (pos.is_checkmate(), pos.turn()) {
        (true, Color::White) => "0-1".into(),
        (true, Color::Black) => "1-0".into(),
        _ => "*".into(),
    }
}

/// What went wrong with game `k` of `file` as read, if anything: read under
/// another game's players, round or result, or with other moves while
/// validated.
fn fault(file: &SeveralFile, k: usize, read: &GameReport) -> Option<String> {
    let (g, written) = &file.games[k];
    let round = g.round.as_deref().unwrap_or("?");
    let own = tag(read, "White") == g.white && tag(read, "Black") == g.black && tag(read, "Round") == round;
    if !own {
        return Some(format!(
            "game {k} read as {} - {} round {} (it is {} - {} round {round})",
            tag(read, "White"),
            tag(read, "Black"),
            tag(read, "Round"),
            g.white,
            g.black
        ));
    }
    let result = expected_result(g, *written);
    if read.status == Status::Validated && (read.moves != g.sans || read.result != result) {
        return Some(format!("game {k} validated as {:?} {} (it is {:?} {result})", read.moves, read.result, g.sans));
    }
    None
}

#[test]
fn every_game_of_a_typed_file_keeps_its_own_players_round_and_result() {
    let corpus = load_range(0, 2260);
    let formats = [Format::Text, Format::Text, Format::Csv, Format::Tsv, Format::Yaml, Format::Pgn];
    let (mut games, mut validated, mut faults) = (0, 0, Vec::new());
    for i in 0..180u64 {
        let seed = derive_seed(0x05e7_e4a1, i);
        let mut rng = Rng::new(seed);
        let count = 1 + rng.below(20);
        let mut chosen = games_for_file(&corpus, rng.below(corpus.len()), count, 40);
        for (k, g) in chosen.iter_mut().enumerate() {
            g.round = Some(format!("{}", 1 + (i as usize + k) % 9));
        }
        let language = &LANGUAGES[rng.below(LANGUAGES.len())];
        let format = formats[i as usize % formats.len()];
        let file = several_file(&chosen, seed, format, language);
        let (reports, _) =
            convert_together(&[(file.name.clone(), Ok(file.text.clone().into_bytes()))], &Options::default());
        let read = &reports[0].games;
        games += file.games.len();
        if read.len() != file.games.len() {
            faults.push(format!(
                "{} ({}): {} games read of {}\n{}",
                file.name,
                language.code,
                read.len(),
                file.games.len(),
                file.text
            ));
            continue;
        }
        for (k, r) in read.iter().enumerate() {
            validated += usize::from(r.status == Status::Validated);
            if let Some(f) = fault(&file, k, r) {
                faults.push(format!("{} ({}): {f}\n{}", file.name, language.code, file.text));
            }
        }
    }
    println!("several games a file: {games} games in 180 files, {validated} validated, {} wrong or lost", faults.len());
    if std::env::var_os("SEVERAL_DUMP").is_some() {
        std::fs::write("/tmp/several-faults.txt", faults.join("\n=====\n")).unwrap();
    }
    assert!(faults.is_empty(), "{} faults; the first:\n{}", faults.len(), faults[0]);
    // Clean moves, every game's own headers: each is validated but where
    // the result written contradicts nothing and none is written (a notice).
    assert!(validated * 100 >= games * 95, "{validated} of {games} validated");
}

#[test]
fn three_games_typed_with_their_headers_and_no_results_after_their_moves() {
    let text = "White: A\nBlack: B\nResult: 1-0\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6\n\nWhite: C\nBlack: D\nResult: 0-1\n\n\
                1. d4 d5 2. c4 e6 3. Nc3 Nf6\n\nWhite: E\nBlack: F\nResult: 1/2-1/2\n\n1. c4 e5 2. Nc3 Nf6 3. g3 d5\n";
    let games = convert("three.txt", text.as_bytes(), &Options::default()).games;
    let read: Vec<(&str, &str, &str, &str)> =
        games.iter().map(|g| (tag(g, "White"), tag(g, "Black"), g.result.as_str(), g.moves[0].as_str())).collect();
    assert_eq!(read, [("A", "B", "1-0", "e4"), ("C", "D", "0-1", "d4"), ("E", "F", "1/2-1/2", "c4")]);
}

#[test]
fn a_short_game_then_the_next_games_headers_and_its_move_one() {
    let text = "Weiß: Kramer\nSchwarz: Lange\n1. e4 e5 2. Dh5\n\nWeiß: Otto\nSchwarz: Paul\n1. d4 d5\n";
    let games = convert("zwei.txt", text.as_bytes(), &Options::default()).games;
    let players = players(&games);
    assert_eq!(players, [("Kramer", "Lange"), ("Otto", "Paul")]);
    assert_eq!(games[1].moves, ["d4", "d5"]);
}

#[test]
fn headers_after_the_last_games_moves_are_that_games() {
    let text = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6\nResult: 1-0\nWhite: Ana\n";
    let games = convert("pie.txt", text.as_bytes(), &Options::default()).games;
    assert_eq!(games.len(), 1);
    assert_eq!((tag(&games[0], "White"), games[0].result.as_str()), ("Ana", "1-0"));
}

#[test]
fn a_players_line_and_a_rule_between_two_games_without_results() {
    let text = "Alpha - Beta\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6\n-----\nGamma - Delta\n1. d4 d5 2. c4 e6\n";
    let games = convert("raya.txt", text.as_bytes(), &Options::default()).games;
    let players = players(&games);
    assert_eq!(players, [("Alpha", "Beta"), ("Gamma", "Delta")]);
}

#[test]
fn a_spreadsheet_of_two_games_one_after_the_other() {
    let text = "White,A\nBlack,B\n#,White,Black\n1,e4,e5\n2,Nf3,Nc6\n3,Bb5,a6\n\nWhite,C\nBlack,D\nResult,0-1\n\
                #,White,Black\n1,d4,d5\n2,c4,e6\n";
    let games = convert("ronda.csv", text.as_bytes(), &Options::default()).games;
    let read: Vec<(&str, &str, usize)> =
        games.iter().map(|g| (tag(g, "White"), tag(g, "Black"), g.moves.len())).collect();
    assert_eq!(read, [("A", "B", 6), ("C", "D", 4)]);
    assert_eq!(games[1].result, "0-1");
}
