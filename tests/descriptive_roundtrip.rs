//! Corpus games written in descriptive notation by a careful writer
//! (`scoresheet_dev::descriptive`), in each language and style it knows,
//! read back move for move: every entry names one legal move, so the
//! reader must give the game exactly, and say it was descriptive.
//!
//! `cargo test --release --test descriptive_roundtrip -- --nocapture` prints,
//! for each combination, the games read exactly and the time per sheet, and
//! each failure with its entry, the position before it and the truth.
//! `DESCRIPTIVE_DUMP=dir` also writes each sheet and its SAN there, for an
//! outside check of the writer.

use std::collections::BTreeMap;
use std::time::Instant;

use scoresheet::convert::{Options, convert};
use scoresheet::emit::report::GameReport;
use scoresheet_dev::corpus::{CorpusGame, load_range};
use scoresheet_dev::descriptive::{Form, Layout, PRESETS, What, Writer};
use shakmaty::san::San;
use shakmaty::{Chess, Position};

/// The sample: every 10th of the first 2000 corpus games (all in the
/// committed subset), 200 games.
fn sample() -> Vec<CorpusGame> {
    load_range(0, 2000).into_iter().step_by(10).collect()
}

/// The layout of the `i`-th sheet: a `Language:` line on half of them,
/// one move a line on a third, the players' names left off a quarter.
fn layout(i: usize) -> (Layout, bool) {
    (Layout { language_header: i.is_multiple_of(2), one_per_line: i.is_multiple_of(3) }, i % 4 != 3)
}

/// What went wrong with one sheet: where the reading left the truth.
struct Failure {
    cause: String,
    detail: String,
}

/// Compares a report with the truth; `None` when it is exact.
fn judge(g: &CorpusGame, entries: &[(String, Form)], report: &GameReport) -> Option<Failure> {
    let said = report.findings.iter().any(|f| f.code == "non-algebraic-notation");
    let doubt = report.findings.iter().find(|f| f.code == "ambiguous-repair");
    if report.moves == g.sans && said && doubt.is_none() {
        return None;
    }
    let ply =
        report.moves.iter().zip(&g.sans).position(|(a, b)| a != b).unwrap_or(report.moves.len().min(g.sans.len()));
    let ply = doubt.and_then(|d| d.ply).map_or(ply, |p| (p as usize).saturating_sub(1).min(ply));
    let mut pos = Chess::default();
    for san in &g.sans[..ply.min(g.sans.len())] {
        let m = San::from_ascii(san.as_bytes()).expect("SAN").to_move(&pos).expect("legal");
        pos.play_unchecked(m);
    }
    let cause = if report.moves == g.sans && doubt.is_some() {
        "read exactly, but with an ambiguous-repair".to_string()
    } else if report.moves == g.sans {
        "read exactly, but not said to be descriptive".to_string()
    } else {
        "a move read wrong".to_string()
    };
    let entry = entries.get(ply).map_or("(past the end)", |(s, _)| s.as_str());
    let step = entries.get(ply).map_or("-", |(_, f)| f.step());
    let promo = entries.get(ply).is_some_and(|(_, f)| {
        matches!(f.what, What::To { promotion: Some(_), .. } | What::Takes { promotion: Some(_), .. })
    });
    let cause = format!(
        "{cause}; the entry's form: {step}{}{}",
        if promo { ", promotion" } else { "" },
        if ply < 2 { ", first move" } else { "" }
    );
    let detail = format!(
        "game {} ply {}: wrote {entry:?} for {} in {}; read {:?}; findings {:?}",
        g.index,
        ply + 1,
        g.sans.get(ply).map_or("-", String::as_str),
        scoresheet_dev::descriptive::fen(&pos),
        report.moves.get(ply),
        report.findings.iter().map(|f| (f.code, f.ply, f.written.as_deref())).collect::<Vec<_>>(),
    );
    Some(Failure { cause, detail })
}

#[test]
fn corpus_games_written_in_descriptive_notation_read_back_exactly() {
    let games = sample();
    assert_eq!(games.len(), 200);
    let dump = std::env::var_os("DESCRIPTIVE_DUMP").map(std::path::PathBuf::from);
    let (mut total, mut exact_all) = (0, 0);
    let mut failures: BTreeMap<(String, &str), Vec<String>> = BTreeMap::new();
    for preset in PRESETS {
        let writer = Writer::preset(preset).expect("a preset");
        let (mut exact, mut ms) = (0, 0.0);
        for (i, g) in games.iter().enumerate() {
            let (layout, names) = layout(i);
            let tags = |k: &str| g.tags.iter().find(|(t, _)| t == k).map_or("?", |(_, v)| v.as_str());
            let headers = if names { vec![("White", tags("White")), ("Black", tags("Black"))] } else { vec![] };
            let text = writer.sheet(&g.sans, &headers, &g.result, layout);
            let name = format!("{preset}-{}.txt", g.index);
            if let Some(dir) = &dump {
                std::fs::create_dir_all(dir).expect("the dump folder");
                std::fs::write(dir.join(&name), &text).expect("the sheet");
                std::fs::write(dir.join(format!("{name}.san")), g.sans.join(" ")).expect("its moves");
            }
            let start = Instant::now();
            let mut report = convert(&name, text.as_bytes(), &Options::default());
            ms += start.elapsed().as_secs_f64() * 1000.0;
            let entries = writer.forms(&g.sans).expect("the entries");
            match judge(g, &entries, &report.games.remove(0)) {
                None => exact += 1,
                Some(f) => failures.entry((f.cause, preset)).or_default().push(f.detail),
            }
        }
        println!("{preset:>14}: {exact:>3} of {} games exact, {:.1} ms/sheet", games.len(), ms / games.len() as f64);
        total += games.len();
        exact_all += exact;
    }
    for ((cause, preset), list) in &failures {
        println!("\n{preset}: {cause} ({} sheets)", list.len());
        for d in list.iter().take(3) {
            println!("  {d}");
        }
    }
    assert_eq!(exact_all, total, "sheets not read back exactly (see the list above)");
}
