//! Properties over generated input (proptest): any legal game, typed in any
//! supported language, format and layout, reads back to its moves; with slips
//! in it, the game read is still a legal one; any bytes, under any format's
//! name or as a collection, never panic.

use proptest::prelude::*;
use scoresheet::convert::{Options, convert, convert_collection};
use scoresheet::ingest::Format;
use scoresheet::notation::LANGUAGES;
use scoresheet_dev::check::replays;
use scoresheet_dev::generate::noisy_sheet;
use shakmaty::san::{San, SanPlus};
use shakmaty::{Chess, Position};

/// A legal game from the start: at each ply the move `picks[i]` points at
/// among the legal ones, until the picks or the game end.
fn legal_game(picks: &[u16]) -> Vec<String> {
    let mut pos = Chess::default();
    let mut sans = Vec::new();
    for &p in picks {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[p as usize % moves.len()];
        sans.push(SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string());
    }
    sans
}

const FORMATS: [Format; 5] = [Format::Text, Format::Yaml, Format::Csv, Format::Tsv, Format::Pgn];

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn any_legal_game_in_any_language_and_format_reads_back_to_its_moves(
        picks in prop::collection::vec(any::<u16>(), 1..90),
        language in 0..LANGUAGES.len(),
        format in 0..FORMATS.len(),
        seed in any::<u64>(),
    ) {
        let sans = legal_game(&picks);
        let lang = &LANGUAGES[language];
        let sheet = noisy_sheet(&sans, seed, 0.0, lang, FORMATS[format]);
        // The language given, as `--language` gives it: a short random game
        // may read as well in letters it was not typed in.
        let opts = Options { language: Some(lang), ..Options::default() };
        let report = convert(&sheet.file_name, sheet.text.as_bytes(), &opts);
        prop_assert!(report.error.is_none(), "{:?}\n{}", report.error, sheet.text);
        prop_assert_eq!(report.games.len(), 1, "{}", sheet.text);
        prop_assert_eq!(&report.games[0].moves, &sans, "{} {}\n{}", lang.code, sheet.file_name, sheet.text);
    }

    #[test]
    fn a_sheet_with_slips_reads_to_a_legal_game(
        picks in prop::collection::vec(any::<u16>(), 1..70),
        language in 0..LANGUAGES.len(),
        format in 0..FORMATS.len(),
        seed in any::<u64>(),
        rate in 0.0f64..0.4,
    ) {
        let sans = legal_game(&picks);
        let sheet = noisy_sheet(&sans, seed, rate, &LANGUAGES[language], FORMATS[format]);
        let report = convert(&sheet.file_name, sheet.text.as_bytes(), &Options::default());
        for g in &report.games {
            prop_assert!(replays(g), "{:?}\n{}", g.moves, sheet.text);
            prop_assert!(g.moves.iter().all(|m| m.parse::<San>().is_ok()));
        }
    }

    #[test]
    fn a_collection_read_a_game_at_a_time_reads_as_the_whole_file(
        games in prop::collection::vec(prop::collection::vec(any::<u16>(), 0..60), 1..6),
        blank_lines in 0..3usize,
    ) {
        let pgn: String = games
            .iter()
            .enumerate()
            .map(|(i, picks)| {
                let moves: Vec<String> = legal_game(picks)
                    .iter()
                    .enumerate()
                    .map(|(p, m)| if p % 2 == 0 { format!("{}. {m}", p / 2 + 1) } else { m.clone() })
                    .collect();
                format!("[Event \"E\"]\n[Round \"{i}\"]\n{}\n{} *\n{}", "\n".repeat(blank_lines), moves.join(" "), "\n".repeat(blank_lines))
            })
            .collect();
        let whole = convert("c.pgn", pgn.as_bytes(), &Options::default());
        let mut streamed = Vec::new();
        let read = convert_collection(pgn.as_bytes(), &Options::default(), |g| streamed.push(g));
        prop_assert_eq!(whole.error, read.err().map(|e| e.to_string()), "{}", pgn);
        prop_assert_eq!(whole.games.len(), streamed.len(), "{}", pgn);
        for (a, b) in whole.games.iter().zip(&streamed) {
            prop_assert_eq!(&a.moves, &b.moves);
            prop_assert_eq!(&a.pgn, &b.pgn);
            prop_assert_eq!(a.status, b.status);
        }
    }

    #[test]
    fn any_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..600), name in 0..6usize) {
        let name = ["a.txt", "a.yaml", "a.csv", "a.tsv", "a.pgn", "a"][name];
        let report = convert(name, &bytes, &Options::default());
        for g in &report.games {
            prop_assert!(replays(g));
        }
        let _ = convert_collection(&bytes[..], &Options::default(), |g| assert!(replays(&g)));
    }

    #[test]
    fn any_text_of_chess_tokens_never_panics(
        tokens in prop::collection::vec(
            prop_oneof![
                "[1-9][0-9]?\\.{0,3}",
                "[KQRBNCDTALSF]?[a-h]?[1-8]?x?[a-h][1-8](=[QRBN])?[+#]?",
                "(O-O|0-0|O-O-O|\\?\\?|\\.\\.\\.|1-0|0-1|1/2-1/2|\\*|\\{|\\}|\\(|\\)|\\[|\\]|\\n)",
                "[A-Za-z]{1,8}:?",
            ],
            0..80,
        ),
        name in 0..5usize,
    ) {
        let text = tokens.join(" ");
        let name = ["a.txt", "a.yaml", "a.csv", "a.tsv", "a.pgn"][name];
        let report = convert(name, text.as_bytes(), &Options::default());
        for g in &report.games {
            prop_assert!(replays(g), "{text}");
        }
    }
}
