//! Every move the desk offers as an alternative at a doubt is a legal move
//! of the position it is shown in: the position after the moves read before
//! that ply. Checked on the shipped examples and on 200 generated sheets
//! in review (corpus games with slips at a high rate, in every language and
//! format).

use scoresheet::convert::{Options, convert};
use scoresheet::emit::report::{GameReport, Status};
use scoresheet::ingest::Format;
use scoresheet::notation::LANGUAGES;
use scoresheet_dev::generate::noisy_sheet;
use shakmaty::san::SanPlus;
use shakmaty::{Chess, Position};

const FORMATS: [Format; 5] = [Format::Text, Format::Csv, Format::Tsv, Format::Yaml, Format::Pgn];

/// Each alternative of each finding of `g` that is not a legal move where
/// it is offered: `(ply, move)`.
fn illegal_alternatives(g: &GameReport) -> Vec<(u32, String)> {
    let mut out = Vec::new();
    for f in g.findings.iter().filter(|f| !f.alternatives.is_empty()) {
        let Some(ply) = f.ply else { continue };
        let mut pos = Chess::default();
        for san in g.moves.iter().take(ply as usize - 1) {
            let m = san.parse::<SanPlus>().unwrap().san.to_move(&pos).unwrap();
            pos.play_unchecked(m);
        }
        for alt in &f.alternatives {
            if !alt.parse::<SanPlus>().is_ok_and(|s| s.san.to_move(&pos).is_ok()) {
                out.push((ply, alt.clone()));
            }
        }
    }
    out
}

#[test]
fn the_shipped_examples_offer_only_legal_alternatives() {
    // `illegal-and-illegible-es.txt` once offered Qxh7+ with the queen on b4.
    let mut checked = 0;
    for dir in ["examples/sheets", "examples/faulty"] {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let bytes = std::fs::read(entry.path()).unwrap();
            let name = entry.file_name().to_string_lossy().into_owned();
            for g in convert(&name, &bytes, &Options::default()).games {
                if g.headers.get("FEN").is_some() {
                    continue;
                }
                assert_eq!(illegal_alternatives(&g), [], "{name}");
                checked += 1;
            }
        }
    }
    assert!(checked >= 13, "the examples' games: {checked}");
}

#[test]
fn two_hundred_generated_games_in_review_offer_only_legal_alternatives() {
    let games = scoresheet_dev::corpus::load_range(0, 1200);
    let (mut in_review, mut offered) = (0, 0);
    for (k, g) in games.iter().enumerate() {
        if in_review >= 200 {
            break;
        }
        let sheet = noisy_sheet(&g.sans, k as u64, 0.08, &LANGUAGES[k % LANGUAGES.len()], FORMATS[k % FORMATS.len()]);
        for r in convert(&sheet.file_name, sheet.text.as_bytes(), &Options::default()).games {
            if r.status != Status::Review {
                continue;
            }
            in_review += 1;
            offered += r.findings.iter().map(|f| f.alternatives.len()).sum::<usize>();
            assert_eq!(illegal_alternatives(&r), [], "game {k}: {}", sheet.text);
        }
    }
    assert!(in_review >= 200 && offered > 200, "{in_review} games in review, {offered} alternatives");
}
