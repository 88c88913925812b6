//! Measures the reader on typed sheets with a `truth.json`, and makes such
//! sheets from the development corpus (its folder named by
//! `SCORESHEET_CORPUS`, unless the games are among those committed) with
//! `scoresheet_dev::generate`.
//!
//! ```sh
//! cargo run --release -p scoresheet-dev --bin evaluate -- ../shared/corpus/sheets-dev
//! cargo run --release -p scoresheet-dev --bin evaluate -- --generate 600 --out /tmp/gen [--seed S] [--rate R] [--first K]
//! cargo run --release -p scoresheet-dev --bin evaluate -- /tmp/gen
//! cargo run --release -p scoresheet-dev --bin evaluate -- --pairs 300 --out /tmp/pairs [--seed S] [--rate R] [--first K] [--no-trf]
//! ```
//!
//! `--pairs N` makes both players' copies of N corpus games
//! (`scoresheet_dev::pairs`), writes them to the folder, and reads each copy
//! alone and the two together; the last line is `PAIRS pairs=.. exact=..
//! validated_wrong=.. alone_exact=.. either_exact=.. names_filled=..
//! ratings_filled=.. wrong_pairing=..`. By default the N games are an event:
//! its TRF (`scoresheet_dev::trf::BuiltTrf`) is written to the folder as
//! `event.trf`, each copy gives the round and board, the round alone or only
//! the players' names (written loosely), and the pairs are read with the
//! TRF; `names_filled` and `ratings_filled` are the games that got both
//! players' TRF names and every TRF rating, `wrong_pairing` those given
//! another game's pairing. `--no-trf` writes each pair in a round of its own
//! with names as the corpus has them and reads it without pairings. The
//! moves and faults of a copy are the same either way.
//!
//! `truth.json` is a list of `{file, lang, sans, written, injected: [{ply, type,
//! written, truth, alternatives?}], truncated, descriptive}` as in
//! `../shared/corpus/sheets-dev`, so `../shared/eval/score.py` reads generated
//! directories too. Every sheet goes through `scoresheet::convert::convert` on
//! one thread. As in score.py, a sheet whose entries as written, read strictly
//! under the true language, make a legal game other than the truth
//! ("undetectable") is left out of the figures. Of the games validated but
//! wrong, those wrong only where a slip alone made another legal move that the
//! rest of the game never contradicts (found by reading the clean sheet with
//! that one slip strictly) are counted apart as legal slips.
//!
//! The last line is `EVAL games=.. move_acc=.. exact=.. silent_wrong=.. review=.. secs=.. silent_wrong_not_slips=..`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use scoresheet::convert::{Options, convert};
use scoresheet::emit::report::{GameReport, Status};
use scoresheet::notation::Language;
use scoresheet::pairing::Tournament;
use scoresheet_dev::corpus::try_load_range;
use scoresheet_dev::generate::derive_seed;
use scoresheet_dev::noisy::noisy;
use scoresheet_dev::slips::{legal_slips, only_legal_slips, truth_faults, undetectable};
use scoresheet_dev::trf::BuiltTrf;
use serde_json::{Value, json};

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut dir = None;
    let mut generate = None;
    let mut pairs = None;
    let mut classes = None;
    let mut out = None;
    let mut seed = 2024u64;
    let mut rate = 0.05f64;
    let mut first = 10_000usize;
    let mut no_trf = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |name: &str| it.next().with_context(|| format!("{name} needs a value"));
        match a.as_str() {
            "--generate" => generate = Some(value("--generate")?.parse::<usize>()?),
            "--pairs" => pairs = Some(value("--pairs")?.parse::<usize>()?),
            "--classes" => classes = Some(value("--classes")?.parse::<usize>()?),
            "--out" => out = Some(PathBuf::from(value("--out")?)),
            "--seed" => seed = value("--seed")?.parse()?,
            "--rate" => rate = value("--rate")?.parse()?,
            "--first" => first = value("--first")?.parse()?,
            "--no-trf" => no_trf = true,
            "-h" | "--help" => {
                println!(
                    "usage: evaluate DIR\n       evaluate --generate N --out DIR [--seed S] [--rate R] [--first K]\n       \
                     evaluate --pairs N --out DIR [--seed S] [--rate R] [--first K] [--no-trf]"
                );
                return Ok(());
            }
            s if s.starts_with('-') => bail!("unknown option {s}"),
            s => dir = Some(PathBuf::from(s)),
        }
    }
    if let (Some(n), Some(out)) = (classes, &out) {
        return write_settled(n, out, seed, first);
    }
    if let (Some(n), Some(out)) = (pairs, &out) {
        return write_pairs(n, out, seed, rate, first, no_trf);
    }
    match (generate, out, dir) {
        (Some(n), Some(out), None) => write_sheets(n, &out, seed, rate, first),
        (None, None, Some(dir)) => evaluate(&dir),
        _ => bail!("usage: evaluate DIR | evaluate --generate N --out DIR [--seed S] [--rate R] [--first K]"),
    }
}

/// Writes both copies of `n` corpus games from `first` on, reads each alone
/// and the two together (with the event's TRF unless `no_trf`), and prints
/// the figures.
fn write_pairs(n: usize, out: &Path, seed: u64, rate: f64, first: usize, no_trf: bool) -> Result<()> {
    use scoresheet_dev::pairs::{PairTally, count_pair, count_pair_in_event, pair_in_event, pair_of};
    std::fs::create_dir_all(out).with_context(|| out.display().to_string())?;
    let t0 = Instant::now();
    let games = try_load_range(first, n + n / 10 + 10)?;
    let games: Vec<_> = games.into_iter().filter(|g| g.sans.len() >= 4).take(n).collect();
    let trf = (!no_trf).then(|| BuiltTrf::from_games("Generated pairs", &games));
    let mut opts = Options::default();
    if let Some(trf) = &trf {
        std::fs::write(out.join("event.trf"), trf.utf8())?;
        opts.pairings = Some(Arc::new(Tournament::parse(&trf.utf8())?));
    }
    let mut t = PairTally::default();
    let mut truth = serde_json::Map::new();
    for (i, g) in games.iter().enumerate() {
        let seed = derive_seed(seed, i as u64);
        // A game the TRF could not pair (a player against themself) is
        // written as without a TRF.
        let in_event = trf.as_ref().and_then(|trf| Some((trf, trf.games.iter().find(|x| x.game == i)?)));
        let pair = match in_event {
            Some((trf, x)) => pair_in_event(g, trf, x, seed, rate),
            None => pair_of(g, i + 1, seed, rate),
        };
        for (c, copy) in ["a", "b"].iter().zip(&pair) {
            let ext = copy.file_name.rsplit('.').next().unwrap_or("txt");
            std::fs::write(out.join(format!("pair-{i:05}-{c}.{ext}")), &copy.text)?;
        }
        let longer = if pair[0].sans.len() >= pair[1].sans.len() { &pair[0].sans } else { &pair[1].sans };
        truth.insert(format!("pair-{i:05}"), json!(longer));
        let miss = match in_event {
            Some((trf, x)) => count_pair_in_event(&pair, &opts, trf, x, &mut t),
            None => count_pair(&pair, &opts, &mut t),
        };
        if let Some(what) = miss {
            eprintln!("pair-{i:05}: {what}");
        }
    }
    std::fs::write(out.join("truth.json"), serde_json::to_string(&truth)?)?;
    let p = t.pairs;
    let names = match trf {
        Some(_) => format!(
            " in_trf={} names_filled={:.4} ratings_filled={:.4} wrong_pairing={}",
            t.in_trf,
            ratio(t.names_filled, t.in_trf),
            ratio(t.ratings_filled, t.rated),
            t.wrong_pairing
        ),
        None => " trf=none".to_string(),
    };
    println!(
        "PAIRS pairs={p} grouped={} exact={:.4} validated_wrong={} review={:.4} alone_exact={:.4} \
         alone_validated_wrong={} either_exact={:.4} miss_model={} (ties {}) miss_search={}{names} secs={:.1}",
        t.grouped,
        ratio(t.exact, p),
        t.validated_wrong,
        ratio(t.review, p),
        ratio(t.alone_exact, 2 * p),
        t.alone_validated_wrong,
        ratio(t.either_exact, p),
        t.miss_model,
        t.miss_tie,
        t.miss_search,
        t0.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Makes `n` pairs of copies an arbiter settles (`scoresheet_dev::settled`),
/// the classes in turn over corpus games `first..`, writes them to `out`,
/// reads each pair together and prints the figures of each class and of all.
fn write_settled(n: usize, out: &Path, seed: u64, first: usize) -> Result<()> {
    use scoresheet_dev::settled::{Class, SettledTally, count, settled_pair};
    std::fs::create_dir_all(out).with_context(|| out.display().to_string())?;
    let t0 = Instant::now();
    let games = try_load_range(first, 2 * n + 20)?;
    let opts = Options::default();
    let mut tallies: BTreeMap<Class, SettledTally> = BTreeMap::new();
    let mut made = 0;
    for (i, g) in games.iter().enumerate() {
        if made == n {
            break;
        }
        let class = Class::ALL[made % Class::ALL.len()];
        let Some(pair) = settled_pair(g, class, derive_seed(seed, i as u64)) else { continue };
        made += 1;
        for c in &pair.copies {
            std::fs::write(out.join(&c.file_name), &c.text)?;
        }
        if let Some(what) = count(&pair, &opts, tallies.entry(class).or_default()) {
            eprintln!("{} ({}): {what}", pair.copies[0].file_name, if pair.determined { "determined" } else { "open" });
        }
    }
    let mut all = SettledTally::default();
    let line = |name: &str, t: &SettledTally| {
        format!(
            "{name} pairs={} exact={:.4} validated_wrong={} review={:.4} determined={} determined_validated={}",
            t.pairs,
            ratio(t.exact, t.pairs),
            t.validated_wrong,
            ratio(t.review, t.pairs),
            t.determined,
            t.determined_validated
        )
    };
    for (class, t) in &tallies {
        println!("{}", line(&format!("CLASS {}", class.name()), t));
        all.add(t);
    }
    println!("{} secs={:.1}", line("SETTLED", &all), t0.elapsed().as_secs_f64());
    Ok(())
}

/// Writes `n` generated sheets of corpus games `first..` and their truth.json.
fn write_sheets(n: usize, out: &Path, seed: u64, rate: f64, first: usize) -> Result<()> {
    std::fs::create_dir_all(out).with_context(|| out.display().to_string())?;
    let t0 = Instant::now();
    // A few spare games: games too short to be a sheet are passed over.
    let games = try_load_range(first, n + n / 10 + 10)?;
    let mut truth = Vec::with_capacity(n);
    let mut faults = 0;
    for g in games.iter().filter(|g| g.sans.len() >= 4).take(n) {
        let i = truth.len();
        let sheet = noisy(g, derive_seed(seed, i as u64), rate);
        let ext = sheet.file_name.rsplit('.').next().unwrap_or("txt");
        let file = format!("sheet-{i:05}.{ext}");
        std::fs::write(out.join(&file), &sheet.text)?;
        faults += sheet.faults.len();
        let injected: Vec<Value> = sheet
            .faults
            .iter()
            .map(|f| {
                let mut v = json!({"ply": f.ply, "type": f.kind.name(), "written": f.written, "truth": f.truth});
                if let Some(a) = f.alternatives {
                    v["alternatives"] = json!(a);
                }
                v
            })
            .collect();
        truth.push(json!({
            "file": file,
            "game": g.index,
            "lang": sheet.language,
            "fmt": ext,
            "enc": "utf-8",
            "rate": rate,
            "result": sheet.result,
            "language_header": sheet.header,
            "sans": sheet.sans,
            "written": sheet.entries(),
            "injected": injected,
            "truncated": sheet.truncated,
            "descriptive": false,
        }));
    }
    if truth.len() < n {
        bail!("only {} usable games from corpus game {first} on", truth.len());
    }
    std::fs::write(out.join("truth.json"), serde_json::to_string_pretty(&truth)?)?;
    println!(
        "wrote {n} sheets ({faults} faults, rate {rate}, seed {seed}, corpus games from {first}) and truth.json to {} in {:.1?}",
        out.display(),
        t0.elapsed()
    );
    Ok(())
}

/// CPU time of this thread, when the system tells it.
fn thread_cpu() -> Option<Duration> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok().map(Duration::from_nanos)
}

fn same_letters(got: &str, want: &str) -> bool {
    match (Language::find(got), Language::find(want)) {
        (Some(a), Some(b)) => a.same_letters(b),
        _ => got == want,
    }
}

#[derive(Default)]
struct Tally {
    sheets: usize,
    games: usize,
    undetectable: usize,
    plies: usize,
    right: usize,
    exact: usize,
    noisy: usize,
    noisy_exact: usize,
    clean: usize,
    clean_exact: usize,
    clean_alarm: usize,
    truncated: usize,
    truncated_exact: usize,
    silent_wrong: Vec<String>,
    /// Of the silently wrong: wrong only where a slip made another legal move
    /// the rest of the game never contradicts.
    legal_slips: usize,
    review: usize,
    rejected: usize,
    file_errors: usize,
    language: usize,
    /// Per fault type: faults, of them the move at the ply read right.
    by_type: BTreeMap<String, (usize, usize)>,
    wall: Duration,
    cpu: Option<Duration>,
    /// Wall time of each sheet.
    times: Vec<(Duration, String)>,
}

fn evaluate(dir: &Path) -> Result<()> {
    let path = dir.join("truth.json");
    let text = std::fs::read_to_string(&path).with_context(|| path.display().to_string())?;
    let truth: Vec<Value> = serde_json::from_str(&text).with_context(|| path.display().to_string())?;
    // CONFIG=FILE: read with that config (e.g. other `repair:` costs).
    let opts = match std::env::var_os("CONFIG") {
        Some(f) => {
            let text = std::fs::read_to_string(&f).with_context(|| format!("{f:?}"))?;
            scoresheet::config::Config::parse(&text)?.options()?
        }
        None => Options::default(),
    };
    let mut t = Tally { cpu: Some(Duration::ZERO), ..Tally::default() };
    // EXPLAIN=1: for each game not validated exactly, the cost of the true
    // game next to the cost of the one read (a search miss when the truth is cheaper).
    let explain = std::env::var_os("EXPLAIN").is_some();
    for e in &truth {
        score_sheet(dir, e, &opts, explain, &mut t)?;
    }
    print_tally(dir, &t);
    Ok(())
}

/// Reads one sheet of the truth and counts it into `t`.
fn score_sheet(dir: &Path, e: &Value, opts: &Options, explain: bool, t: &mut Tally) -> Result<()> {
    let file = e["file"].as_str().context("truth entry without file")?;
    let sans: Vec<String> =
        e["sans"].as_array().into_iter().flatten().filter_map(|s| s.as_str().map(str::to_string)).collect();
    let bytes = std::fs::read(dir.join(file)).with_context(|| file.to_string())?;
    let (c0, w0) = (thread_cpu(), Instant::now());
    let report = convert(file, &bytes, opts);
    let took = w0.elapsed();
    t.wall += took;
    t.times.push((took, file.to_string()));
    t.cpu = match (t.cpu, c0, thread_cpu()) {
        (Some(sum), Some(a), Some(b)) => Some(sum + b.saturating_sub(a)),
        _ => None,
    };
    t.sheets += 1;
    let lang = e["lang"].as_str().unwrap_or("en");
    let written: Vec<String> =
        e["written"].as_array().into_iter().flatten().filter_map(|s| s.as_str().map(str::to_string)).collect();
    if undetectable(&written, lang, &sans) {
        t.undetectable += 1;
        return Ok(());
    }
    let game = report.games.first();
    let moves: &[String] = game.map_or(&[], |g| &g.moves);
    let status = game.map_or(Status::Rejected, |g| g.status);
    let injected = e["injected"].as_array().map_or(&[][..], Vec::as_slice);
    t.file_errors += usize::from(report.error.is_some());
    if explain && (moves != sans || status != Status::Validated) {
        explain_game(file, &bytes, lang, &sans, game, injected, &opts.params);
    }
    t.count(file, e, &sans, game);
    Ok(())
}

impl Tally {
    /// Counts one game read (`game`, of the sheet `file` whose truth is `e`)
    /// by what became of it.
    fn count(&mut self, file: &str, e: &Value, sans: &[String], game: Option<&GameReport>) {
        let t = self;
        let lang = e["lang"].as_str().unwrap_or("en");
        let moves: &[String] = game.map_or(&[], |g| &g.moves);
        let status = game.map_or(Status::Rejected, |g| g.status);
        let exact = moves == sans;
        let injected = e["injected"].as_array().map_or(&[][..], Vec::as_slice);
        let truncated = e["truncated"] == true;
        let clean = injected.is_empty() && !truncated && e["descriptive"] != true;
        t.games += 1;
        t.plies += sans.len();
        t.right += sans.iter().zip(moves).filter(|(a, b)| a == b).count();
        t.exact += usize::from(exact);
        match status {
            Status::Validated if !exact => {
                let ply = sans.iter().zip(moves).take_while(|(a, b)| a == b).count();
                let slips = legal_slips(sans, lang, &truth_faults(injected));
                let excused = only_legal_slips(moves, sans, &slips);
                t.legal_slips += usize::from(excused);
                t.silent_wrong.push(format!(
                    "{file}{}: ply {} true {} read {} ({} vs {} moves)",
                    if excused { " (legal slip)" } else { "" },
                    ply + 1,
                    sans.get(ply).map_or("(end)", String::as_str),
                    moves.get(ply).map_or("(end)", String::as_str),
                    sans.len(),
                    moves.len()
                ));
            }
            Status::Validated => {}
            Status::Review => t.review += 1,
            Status::Rejected => t.rejected += 1,
        }
        if clean {
            t.clean += 1;
            t.clean_exact += usize::from(exact);
            let alarm = game.is_none_or(|g| {
                g.status != Status::Validated
                    || g.findings.iter().any(|f| f.severity != scoresheet::finding::Severity::Info)
            });
            t.clean_alarm += usize::from(alarm);
        } else {
            t.noisy += 1;
            t.noisy_exact += usize::from(exact);
        }
        if truncated {
            t.truncated += 1;
            t.truncated_exact += usize::from(exact);
        }
        if let (Some(g), Some(lang)) = (game, e["lang"].as_str()) {
            t.language += usize::from(same_letters(&g.language, lang));
        }
        for f in injected {
            let kind = f["type"].as_str().unwrap_or("?").to_string();
            let right = f["ply"].as_u64().is_some_and(|p| {
                let p = p as usize;
                sans.get(p).is_some_and(|s| moves.get(p) == Some(s))
            });
            let slot = t.by_type.entry(kind).or_default();
            slot.0 += 1;
            slot.1 += usize::from(right);
        }
    }
}

/// Prints how the true game and the game read fit the sheet under the true language.
fn explain_game(
    file: &str,
    bytes: &[u8],
    lang: &str,
    sans: &[String],
    game: Option<&GameReport>,
    injected: &[Value],
    params: &scoresheet::Params,
) {
    use scoresheet::dev::fit_cost;
    let moves: &[String] = game.map_or(&[], |g| &g.moves);
    let status = game.map_or(Status::Rejected, |g| g.status);
    // Read as `convert` reads it (decoding, format), with the costs it read by.
    let Ok(sheets) = scoresheet::ingest::read_named(file, bytes, usize::MAX) else { return };
    let (Some(sheet), Some(language)) = (sheets.first(), Language::find(lang)) else { return };
    let to_moves = |sans: &[String]| {
        let mut pos = shakmaty::Chess::default();
        let mut out = Vec::new();
        for s in sans {
            let Ok(san) = s.parse::<shakmaty::san::SanPlus>() else { break };
            let Ok(m) = san.san.to_move(&pos) else { break };
            shakmaty::Position::play_unchecked(&mut pos, m);
            out.push(m);
        }
        out
    };
    let truth = fit_cost(sheet, language, params, &to_moves(sans));
    let ours = fit_cost(sheet, language, params, &to_moves(moves));
    let ply = sans.iter().zip(moves).take_while(|(a, b)| a == b).count();
    let faults: Vec<String> = injected
        .iter()
        .filter(|f| f["ply"].as_u64().is_some_and(|p| (p as usize).abs_diff(ply) <= 4))
        .map(|f| format!("{}@{} {}->{}", f["type"].as_str().unwrap_or("?"), f["ply"], f["written"], f["truth"]))
        .collect();
    let verdict = if truth + 0.01 < ours {
        "MISS"
    } else if (truth - ours).abs() <= 0.01 {
        "TIE"
    } else {
        "MODEL"
    };
    println!(
        "EXPLAIN {file} {status:?} {verdict} truth={truth:.2} ours={ours:.2} diff@{} true={} read={} faults={}",
        ply + 1,
        sans.get(ply).map_or("-", String::as_str),
        moves.get(ply).map_or("-", String::as_str),
        faults.join(" ")
    );
}

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 { 0.0 } else { a as f64 / b as f64 }
}

fn print_tally(dir: &Path, t: &Tally) {
    let g = t.games;
    println!("{}: {} sheets, {} undetectable left out", dir.display(), t.sheets, t.undetectable);
    println!("{:<28} {:>10} {:>10}", "", "count", "rate");
    let row =
        |name: &str, n: usize, of: usize| println!("{name:<28} {:>10} {:>10.4}", format!("{n}/{of}"), ratio(n, of));
    row("games", g, t.sheets);
    row("move accuracy (plies)", t.right, t.plies);
    row("games exact", t.exact, g);
    row("  clean sheets exact", t.clean_exact, t.clean);
    row("  clean sheets alarmed", t.clean_alarm, t.clean);
    row("  noisy sheets exact", t.noisy_exact, t.noisy);
    row("  truncated sheets exact", t.truncated_exact, t.truncated);
    row("silently wrong (validated)", t.silent_wrong.len(), g);
    row("  of them legal slips", t.legal_slips, t.silent_wrong.len());
    row("review", t.review, g);
    row("rejected", t.rejected, g);
    row("file errors", t.file_errors, g);
    row("language right", t.language, g);
    println!("fault plies read right, by type:");
    for (k, (n, right)) in &t.by_type {
        row(&format!("  {k}"), *right, *n);
    }
    let per = |d: Duration| d.as_secs_f64() * 1e3 / t.sheets.max(1) as f64;
    match t.cpu {
        Some(cpu) => println!(
            "time per sheet: {:.3} ms CPU, {:.3} ms wall (total {:.2} s wall, one thread)",
            per(cpu),
            per(t.wall),
            t.wall.as_secs_f64()
        ),
        None => {
            println!("time per sheet: {:.3} ms wall (total {:.2} s, one thread)", per(t.wall), t.wall.as_secs_f64())
        }
    }
    let mut times = t.times.clone();
    times.sort();
    if let Some((median, _)) = times.get(times.len() / 2) {
        let slowest: Vec<String> =
            times.iter().rev().take(5).map(|(d, f)| format!("{f} {:.0} ms", d.as_secs_f64() * 1e3)).collect();
        println!("median {:.2} ms; slowest: {}", median.as_secs_f64() * 1e3, slowest.join(", "));
    }
    for s in t.silent_wrong.iter().take(15) {
        println!("SILENT-WRONG {s}");
    }
    println!(
        "EVAL games={g} move_acc={:.4} exact={:.4} silent_wrong={} review={:.4} secs={:.2} silent_wrong_not_slips={}",
        ratio(t.right, t.plies),
        ratio(t.exact, g),
        t.silent_wrong.len(),
        ratio(t.review, g),
        t.wall.as_secs_f64(),
        t.silent_wrong.len() - t.legal_slips
    );
}
