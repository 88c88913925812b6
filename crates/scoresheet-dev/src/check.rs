//! The round-trip check: every corpus game, converted in each of its forms
//! ([`Form::all`]), must come back move for move, validated, in its language,
//! with its result and tags, and with a PGN that pgn-reader and shakmaty read
//! back.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use scoresheet::convert::{Options, convert};
use scoresheet::emit::report::{FileReport, GameReport, Status};

use crate::corpus::{CORPUS_GAMES, CorpusGame, load, read_pgn, replay, shown, source};
use crate::typed::{Form, Typed, typed};

/// Whether a game's moves (English SAN, as reported) replay from where it
/// starts: what any game the reader returns must do, however it read.
pub fn replays(g: &GameReport) -> bool {
    use shakmaty::Position;
    let mut pos = g.start().position;
    g.moves.iter().all(|s| {
        let Some(m) = s.parse::<shakmaty::san::SanPlus>().ok().and_then(|san| san.san.to_move(&pos).ok()) else {
            return false;
        };
        pos.play_unchecked(m);
        true
    })
}

/// A game that did not come back move for move from one form.
#[derive(Debug, Clone)]
pub struct Failure {
    pub index: usize,
    pub form: Form,
    /// What went wrong, one line each.
    pub problems: Vec<String>,
    /// The first ply (1-based) where the moves differ, if they do.
    pub ply: Option<usize>,
    pub expected: Option<String>,
    pub written: Option<String>,
    pub got: Option<String>,
    pub status: Option<Status>,
    pub language: Option<String>,
    /// `code (ply): message` of every finding.
    pub findings: Vec<String>,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "game {} [{}]", self.index, self.form.label())?;
        if let Some(s) = self.status {
            write!(f, " status {s:?}")?;
        }
        if let Some(l) = &self.language {
            write!(f, ", language {l}")?;
        }
        writeln!(f)?;
        if let Some(ply) = self.ply {
            let label = if ply % 2 == 1 { format!("{}.", ply.div_ceil(2)) } else { format!("{}...", ply / 2) };
            writeln!(
                f,
                "    first difference at ply {ply} ({label}): expected {}, typed {:?}, got {}",
                self.expected.as_deref().unwrap_or("(end of game)"),
                self.written.as_deref().unwrap_or(""),
                self.got.as_deref().unwrap_or("(nothing)"),
            )?;
        }
        for p in &self.problems {
            writeln!(f, "    {p}")?;
        }
        for x in &self.findings {
            writeln!(f, "    finding {x}")?;
        }
        Ok(())
    }
}

/// Converts game `g` typed in `form` and checks what comes back.
pub fn check_form(g: &CorpusGame, form: Form) -> Option<Failure> {
    let t = typed(g, form);
    let report = convert(&t.name, t.text.as_bytes(), &Options::default());
    let mut fail = Failure {
        index: g.index,
        form,
        problems: Vec::new(),
        ply: None,
        expected: None,
        written: None,
        got: None,
        status: None,
        language: None,
        findings: Vec::new(),
    };
    if check_report(g, &t, &report, &mut fail) {
        return None;
    }
    fail.problems.push(format!("typed text: {:?}", excerpt(&t.text)));
    Some(fail)
}

fn excerpt(s: &str) -> String {
    match s.char_indices().nth(300) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

fn check_report(g: &CorpusGame, t: &Typed, report: &FileReport, fail: &mut Failure) -> bool {
    if let Some(e) = &report.error {
        fail.problems.push(format!("file error: {e}"));
        return false;
    }
    let [game] = report.games.as_slice() else {
        fail.problems.push(format!("{} games read, expected 1", report.games.len()));
        return false;
    };
    fail.status = Some(game.status);
    fail.language = Some(game.language.clone());
    fail.findings = game
        .findings
        .iter()
        .map(|f| match f.ply {
            Some(p) => format!("{} (ply {p}): {}", f.code, f.message),
            None => format!("{}: {}", f.code, f.message),
        })
        .collect();
    let contradicts = g.result_contradicts_board();
    // A game played on past a draw by Art. 9.6 is read to there.
    let drawn = g.drawn_by_rule();
    let sans = &g.sans[..drawn.unwrap_or(g.sans.len())];
    let expected_status = if contradicts || drawn.is_some() { Status::Review } else { Status::Validated };
    if drawn.is_some() && !game.findings.iter().any(|f| f.code == "moves-after-end") {
        fail.problems.push("no moves-after-end: the game went on past a draw by Art. 9.6".into());
    }
    if game.status != expected_status {
        fail.problems.push(format!("status {:?}, expected {expected_status:?}", game.status));
    }
    if contradicts && !game.findings.iter().any(|f| f.code == "result-mismatch") {
        fail.problems.push(format!(
            "no result-mismatch: {} is written but the final position gives {}",
            g.result,
            g.board.unwrap_or("?")
        ));
    }
    if game.moves != sans {
        let i = game.moves.iter().zip(sans).take_while(|(a, b)| a == b).count();
        fail.ply = Some(i + 1);
        fail.expected = sans.get(i).cloned();
        fail.written = t.tokens.get(i).cloned();
        fail.got = game.moves.get(i).cloned();
        fail.problems.push(format!("{} moves read, expected {}", game.moves.len(), sans.len()));
    }
    // Without a header the language shows only in the piece letters: a sheet
    // of pawn moves and castling can be read in any language.
    let letters_say = match t.form {
        Form::Pgn => false,
        Form::Spanish { header } | Form::German { header } => {
            header || t.tokens.iter().any(|s| s.starts_with(|c: char| c.is_ascii_uppercase()))
        }
    };
    if letters_say && game.language != t.form.language() {
        fail.problems.push(format!("language {}, expected {}", game.language, t.form.language()));
    }
    if game.result != g.result {
        fail.problems.push(format!("result {}, expected {}", game.result, g.result));
    }
    if t.form == Form::Pgn {
        // Header values are trimmed, and a tag with an empty value
        // ([WhiteElo ""]) is not carried over.
        for (k, v) in g.tags.iter().filter(|(_, v)| !v.trim().is_empty()) {
            let got = game.headers.get(k).and_then(|x| x.as_str());
            if got != Some(v.trim()) {
                fail.problems.push(format!("tag {k}: {got:?}, expected {v:?}"));
            }
        }
    }
    check_emitted(g, sans, game, fail);
    fail.problems.is_empty()
}

/// The PGN written must read back (pgn-reader) and replay (shakmaty) to the
/// moves `sans` of `g`.
fn check_emitted(g: &CorpusGame, sans: &[String], game: &GameReport, fail: &mut Failure) {
    let raw = read_pgn(&game.pgn);
    let [back] = raw.as_slice() else {
        fail.problems.push(format!("emitted PGN reads as {} games: {:?}", raw.len(), excerpt(&game.pgn)));
        return;
    };
    match replay(&back.sans) {
        Ok(got) if got == sans => {}
        Ok(got) => {
            let i = got.iter().zip(sans).take_while(|(a, b)| a == b).count();
            fail.problems.push(format!(
                "emitted PGN replays to {} moves, expected {}; ply {}: {:?}, expected {:?}",
                got.len(),
                sans.len(),
                i + 1,
                got.get(i),
                sans.get(i)
            ));
        }
        Err(i) => fail.problems.push(format!("emitted PGN: ply {} ({}) is not legal", i + 1, back.sans[i])),
    }
    let outcome = back.outcome.map(|o| o.as_str());
    if outcome != Some(g.result.as_str()) {
        fail.problems.push(format!("emitted PGN ends with {outcome:?}, expected {}", g.result));
    }
}

/// Checks every game in every form on `threads` threads; failures by game and form.
pub fn check_all(games: &[CorpusGame], threads: usize) -> Vec<Failure> {
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    const CHUNK: usize = 64;
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| {
                let mut local = Vec::new();
                loop {
                    let start = next.fetch_add(CHUNK, Ordering::Relaxed);
                    if start >= games.len() {
                        break;
                    }
                    for g in &games[start..(start + CHUNK).min(games.len())] {
                        local.extend(Form::all(g.index).into_iter().filter_map(|f| check_form(g, f)));
                    }
                }
                failures.lock().unwrap().extend(local);
            });
        }
    });
    let mut failures = failures.into_inner().unwrap();
    failures.sort_by_key(|f| (f.index, f.form.label()));
    failures
}

/// Loads `limit` games, checks them all, prints timings and the first failures,
/// and panics if any game failed.
pub fn run_corpus_check(limit: Option<usize>) {
    let t0 = std::time::Instant::now();
    let games = load(limit);
    let expected = limit.unwrap_or(CORPUS_GAMES).min(CORPUS_GAMES);
    assert_eq!(
        games.len(),
        expected,
        "games read from {}",
        source(0, expected).map(|s| shown(s.0)).unwrap_or_default()
    );
    let load_time = t0.elapsed();
    let plies: usize = games.iter().map(|g| g.sans.len()).sum();
    let rewritten = games.iter().filter(|g| g.written != g.sans).count();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let t1 = std::time::Instant::now();
    let failures = check_all(&games, threads);
    let check_time = t1.elapsed();
    let conversions = games.len() * 3;
    println!(
        "corpus: {} games, {plies} plies ({rewritten} games written with non-canonical SAN), loaded in {:.2?}",
        games.len(),
        load_time
    );
    println!(
        "checked {conversions} conversions on {threads} threads in {check_time:.2?}: {:.0} games/s ({:.0} conversions/s); total {:.2?}",
        games.len() as f64 / check_time.as_secs_f64(),
        conversions as f64 / check_time.as_secs_f64(),
        t0.elapsed()
    );
    if failures.is_empty() {
        return;
    }
    let failed_games = {
        let mut v: Vec<usize> = failures.iter().map(|f| f.index).collect();
        v.dedup();
        v.len()
    };
    let mut by_form: Vec<(&str, usize)> = Vec::new();
    for f in &failures {
        match by_form.iter_mut().find(|(l, _)| *l == f.form.label()) {
            Some((_, n)) => *n += 1,
            None => by_form.push((f.form.label(), 1)),
        }
    }
    // CORPUS_SHOW=n prints the first n failures (10 by default).
    let show = std::env::var("CORPUS_SHOW").ok().and_then(|n| n.parse().ok()).unwrap_or(10);
    println!("first failures:");
    for f in failures.iter().take(show) {
        print!("{f}");
    }
    panic!("{} failures in {failed_games} of {} games (by form: {by_form:?})", failures.len(), games.len());
}
