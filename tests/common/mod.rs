//! Shared by `tests/corpus.rs`, `tests/repair.rs`, `benches/reading.rs` and
//! `examples/evaluate.rs`: the development corpus of real games, the games
//! re-typed as scoresheets (clean, or noisy through `scoresheet::generate`), and
//! the round-trip check.
//!
//! Each corpus game is read with pgn-reader and replayed with shakmaty to get
//! its mainline in canonical English SAN; that list is what the library must
//! give back from every form the game is typed in.

#![allow(dead_code)]

use std::fmt::Write as _;
use std::io::{BufRead, BufReader};
use std::ops::ControlFlow;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use flate2::read::GzDecoder;
use pgn_reader::{Outcome, RawTag, Reader, SanPlus, Visitor};
use scoresheet::convert::{Options, convert};
use scoresheet::emit::report::{FileReport, GameReport, Status};
use scoresheet::generate::{Noisy, Rng, Tags, derive_seed, noisy_sheet_tagged};
use scoresheet::ingest::Format;
use scoresheet::notation::Language;
use shakmaty::{Chess, Color, Position};

/// The development corpus, relative to the crate root.
pub const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/corpus/games-dev-20k.pgn.gz");
/// Number of games in [`CORPUS`].
pub const CORPUS_GAMES: usize = 20_000;

/// One game of the corpus.
#[derive(Debug, Clone)]
pub struct CorpusGame {
    /// 0-based position in the corpus.
    pub index: usize,
    /// The game's own PGN text (tags and movetext), as in the corpus.
    pub pgn: String,
    pub tags: Vec<(String, String)>,
    /// The mainline SANs as written in the corpus.
    pub written: Vec<String>,
    /// The mainline in canonical English SAN with check marks (shakmaty's).
    pub sans: Vec<String>,
    /// The result token of the movetext (`1-0`, `0-1`, `1/2-1/2`, `*`).
    pub result: String,
    /// The result the final position gives (checkmate or stalemate), if any.
    pub board: Option<&'static str>,
}

impl CorpusGame {
    /// Whether the written result contradicts a final checkmate or stalemate:
    /// the library must then send the game to review with `result-mismatch`.
    pub fn result_contradicts_board(&self) -> bool {
        self.board.is_some_and(|b| b != self.result)
    }
}

/// Games `start..start + count` of the corpus.
pub fn load_range(start: usize, count: usize) -> Vec<CorpusGame> {
    let mut games = load(Some(start + count));
    games.drain(..start.min(games.len()));
    games
}

/// Languages of generated sheets, about as often as in the dev sheets (and all
/// known to `../shared/eval/score.py`).
pub const NOISY_LANGUAGES: [(&str, f64); 9] = [
    ("es", 29.0),
    ("en", 25.0),
    ("de", 12.5),
    ("fr", 9.0),
    ("pt", 6.0),
    ("nl", 5.0),
    ("pl", 5.0),
    ("it", 5.0),
    ("sv", 4.0),
];

/// Formats of generated sheets, about as often as in the dev sheets.
pub const NOISY_FORMATS: [(Format, f64); 5] =
    [(Format::Text, 43.0), (Format::Yaml, 21.0), (Format::Csv, 15.0), (Format::Tsv, 6.0), (Format::Pgn, 15.0)];

/// Game `g` typed as a generated sheet: the seed picks the language and the
/// format, and the sheet carries the game's event, players and result (the
/// result is left to the final position when the corpus contradicts it).
pub fn noisy(g: &CorpusGame, seed: u64, rate: f64) -> Noisy {
    let mut rng = Rng::new(derive_seed(seed, 0));
    let code = NOISY_LANGUAGES[rng.weighted(&NOISY_LANGUAGES.map(|(_, w)| w))].0;
    let format = NOISY_FORMATS[rng.weighted(&NOISY_FORMATS.map(|(_, w)| w))].0;
    let language = Language::find(code).expect("a known language");
    let tag =
        |k: &str| g.tags.iter().find(|(n, v)| n == k && !v.trim().is_empty() && v.trim() != "?").map(|(_, v)| v.trim());
    let result = (!g.result_contradicts_board()).then_some(g.result.as_str());
    let tags = Tags { event: tag("Event"), white: tag("White"), black: tag("Black"), result };
    noisy_sheet_tagged(&g.sans, &tags, seed, rate, language, format)
}

/// Reads `entries` (in `lang`, with a `Language:` header) strictly, without
/// repairs: the moves, when they make a legal game to the end.
pub fn read_strictly(entries: &[String], lang: &str) -> Option<Vec<String>> {
    let text = format!("Language: {lang}\n{}", entries.join(" "));
    let mut strict = Options::default();
    strict.params.enabled = false;
    let report = convert("written.txt", text.as_bytes(), &strict);
    report.games.into_iter().next().filter(|g| g.status == Status::Validated).map(|g| g.moves)
}

/// Whether the entries as written, read strictly under the true language,
/// make a legal game that is not the truth: no reader can see the slips (as
/// ../shared/eval/score.py).
pub fn undetectable(written: &[String], lang: &str, sans: &[String]) -> bool {
    read_strictly(written, lang).is_some_and(|m| m != sans)
}

/// Fault types that write one wrong entry in place of the move.
pub const SLIP_TYPES: [&str; 6] = ["chars", "square", "piece", "x", "disamb", "english"];

/// The slips of a sheet that, alone on an otherwise clean sheet, make another
/// legal move that the rest of the game never contradicts: `(ply, the move
/// the slip makes)`. `faults` are `(ply, type, written)` as in truth.json.
/// Found by reading the clean sheet with that one slip strictly.
pub fn legal_slips(sans: &[String], lang: &str, faults: &[(usize, &str, &str)]) -> Vec<(usize, String)> {
    let Some(language) = Language::find(lang) else { return Vec::new() };
    let clean: Vec<String> = sans.iter().map(|s| scoresheet::generate::localize(s, language, true)).collect();
    let mut out = Vec::new();
    for &(ply, kind, written) in faults {
        if ply >= sans.len() || !SLIP_TYPES.contains(&kind) {
            continue;
        }
        let mut entries = clean.clone();
        entries[ply] = written.to_string();
        if let Some(moves) = read_strictly(&entries, lang)
            && moves.len() == sans.len()
            && moves[ply] != sans[ply]
        {
            out.push((ply, moves[ply].clone()));
        }
    }
    out
}

/// Whether `moves` differ from `sans` only where a legal slip (see
/// [`legal_slips`]) made the move read. Check marks are left out of the
/// comparison: a slip changes whether later moves give check, and a check mark
/// is not taken as evidence against a reading.
pub fn only_legal_slips(moves: &[String], sans: &[String], slips: &[(usize, String)]) -> bool {
    let bare = |s: &str| s.trim_end_matches(['+', '#']).to_string();
    moves.len() == sans.len()
        && moves
            .iter()
            .zip(sans)
            .enumerate()
            .filter(|(_, (m, s))| bare(m) != bare(s))
            .all(|(p, (m, _))| slips.iter().any(|(q, x)| *q == p && bare(x) == bare(m)))
}

/// The faults of a truth.json entry (its `injected` list) as `(ply, type, written)`.
pub fn truth_faults(injected: &[serde_json::Value]) -> Vec<(usize, &str, &str)> {
    injected
        .iter()
        .filter_map(|f| Some((f["ply"].as_u64()? as usize, f["type"].as_str()?, f["written"].as_str().unwrap_or(""))))
        .collect()
}

/// The faults of a generated sheet as `(ply, type, written)`.
pub fn fault_triples(n: &Noisy) -> Vec<(usize, &'static str, &str)> {
    n.faults.iter().map(|f| (f.ply, f.kind.name(), f.written.as_deref().unwrap_or(""))).collect()
}

/// Reads the first `limit` games of the corpus (all when `None`).
pub fn load(limit: Option<usize>) -> Vec<CorpusGame> {
    let file = std::fs::File::open(CORPUS).unwrap_or_else(|e| panic!("{CORPUS}: {e}"));
    let reader = BufReader::new(GzDecoder::new(file));
    let limit = limit.unwrap_or(usize::MAX);
    let mut games = Vec::new();
    let mut chunk = String::new();
    let mut in_movetext = false;
    for line in reader.lines() {
        let line = line.unwrap_or_else(|e| panic!("{CORPUS}: {e}"));
        if line.starts_with('[') && in_movetext {
            games.push(parse_game(games.len(), std::mem::take(&mut chunk)));
            in_movetext = false;
            if games.len() >= limit {
                return games;
            }
        }
        if !line.trim().is_empty() && !line.starts_with('[') {
            in_movetext = true;
        }
        chunk.push_str(&line);
        chunk.push('\n');
    }
    if !chunk.trim().is_empty() && games.len() < limit {
        games.push(parse_game(games.len(), chunk));
    }
    games
}

#[derive(Default)]
struct RawGame {
    tags: Vec<(String, String)>,
    sans: Vec<SanPlus>,
    outcome: Option<Outcome>,
}

/// Collects the tags, the mainline and the result of one game.
struct Collect;

impl Visitor for Collect {
    type Tags = RawGame;
    type Movetext = RawGame;
    type Output = RawGame;

    fn begin_tags(&mut self) -> ControlFlow<RawGame, RawGame> {
        ControlFlow::Continue(RawGame::default())
    }

    fn tag(&mut self, tags: &mut RawGame, name: &[u8], value: RawTag<'_>) -> ControlFlow<RawGame> {
        tags.tags.push((String::from_utf8_lossy(name).into_owned(), value.decode_utf8_lossy().into_owned()));
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: RawGame) -> ControlFlow<RawGame, RawGame> {
        ControlFlow::Continue(tags)
    }

    fn san(&mut self, game: &mut RawGame, san_plus: SanPlus) -> ControlFlow<RawGame> {
        game.sans.push(san_plus);
        ControlFlow::Continue(())
    }

    fn outcome(&mut self, game: &mut RawGame, outcome: Outcome) -> ControlFlow<RawGame> {
        game.outcome = Some(outcome);
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, game: RawGame) -> RawGame {
        game
    }
}

/// Reads every game of a PGN text with pgn-reader.
fn read_pgn(text: &str) -> Vec<RawGame> {
    let mut reader = Reader::new(std::io::Cursor::new(text.as_bytes()));
    let mut out = Vec::new();
    while let Some(g) = reader.read_game(&mut Collect).expect("reading from memory") {
        out.push(g);
    }
    out
}

/// Replays SANs from the initial position: the canonical SANs, or the 0-based
/// ply of the first one that is not a legal move.
fn replay(sans: &[SanPlus]) -> Result<Vec<String>, usize> {
    replay_to(sans).map(|(sans, _)| sans)
}

/// [`replay`], and the final position.
fn replay_to(sans: &[SanPlus]) -> Result<(Vec<String>, Chess), usize> {
    let mut pos = Chess::default();
    let out = sans
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let m = s.san.to_move(&pos).map_err(|_| i)?;
            Ok(SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string())
        })
        .collect::<Result<_, usize>>()?;
    Ok((out, pos))
}

/// The result a checkmate or stalemate gives.
fn board_result(pos: &Chess) -> Option<&'static str> {
    if pos.is_checkmate() {
        Some(match pos.turn() {
            Color::White => "0-1",
            Color::Black => "1-0",
        })
    } else if pos.is_stalemate() {
        Some("1/2-1/2")
    } else {
        None
    }
}

fn parse_game(index: usize, pgn: String) -> CorpusGame {
    let mut raw = read_pgn(&pgn);
    assert_eq!(raw.len(), 1, "corpus game {index}: one game per chunk");
    let raw = raw.remove(0);
    let (sans, pos) = replay_to(&raw.sans)
        .unwrap_or_else(|ply| panic!("corpus game {index}: ply {} ({}) is not legal", ply + 1, raw.sans[ply]));
    let result = raw
        .outcome
        .map(|o| o.as_str().to_string())
        .or_else(|| raw.tags.iter().find(|(k, _)| k == "Result").map(|(_, v)| v.clone()))
        .unwrap_or_else(|| "*".to_string());
    CorpusGame {
        index,
        pgn,
        tags: raw.tags,
        written: raw.sans.iter().map(ToString::to_string).collect(),
        sans,
        result,
        board: board_result(&pos),
    }
}

/// Piece letters for king, queen, rook, bishop, knight.
pub const SPANISH: [char; 5] = ['R', 'D', 'T', 'A', 'C'];
pub const GERMAN: [char; 5] = ['K', 'D', 'T', 'L', 'S'];

/// An English SAN written with another language's piece letters, castling
/// with zeros as FIDE writes it: `Nxf3+` → `Cxf3+`, `e8=Q` → `e8=D`, `O-O` → `0-0`.
pub fn retype(san: &str, letters: [char; 5]) -> String {
    if let Some(rest) = san.strip_prefix("O-O-O") {
        return format!("0-0-0{rest}");
    }
    if let Some(rest) = san.strip_prefix("O-O") {
        return format!("0-0{rest}");
    }
    san.chars()
        .map(|c| match c {
            'K' => letters[0],
            'Q' => letters[1],
            'R' => letters[2],
            'B' => letters[3],
            'N' => letters[4],
            c => c,
        })
        .collect()
}

/// The forms a game is typed in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// The corpus PGN itself.
    Pgn,
    /// Spanish `.txt`: `1.d4 Cf6, 2.c4 e6`; `header` says whether `Language: es` is written.
    Spanish { header: bool },
    /// German `.txt`: one numbered pair per line, tab-separated.
    German { header: bool },
}

impl Form {
    /// The three forms of game `index`: the header is left out of the Spanish
    /// sheet of every odd game and of the German sheet of every even game.
    pub fn all(index: usize) -> [Form; 3] {
        [
            Form::Pgn,
            Form::Spanish { header: index.is_multiple_of(2) },
            Form::German { header: !index.is_multiple_of(2) },
        ]
    }

    pub fn label(self) -> &'static str {
        match self {
            Form::Pgn => "pgn",
            Form::Spanish { header: true } => "es",
            Form::Spanish { header: false } => "es-inferred",
            Form::German { header: true } => "de",
            Form::German { header: false } => "de-inferred",
        }
    }

    /// The language the library must report.
    pub fn language(self) -> &'static str {
        match self {
            Form::Pgn => "en",
            Form::Spanish { .. } => "es",
            Form::German { .. } => "de",
        }
    }
}

/// A game typed in one form.
#[derive(Debug, Clone)]
pub struct Typed {
    pub form: Form,
    /// File name given to `convert` (its extension picks the format).
    pub name: String,
    pub text: String,
    /// What was typed for each ply.
    pub tokens: Vec<String>,
}

/// Types game `g` in `form`.
pub fn typed(g: &CorpusGame, form: Form) -> Typed {
    let name = |ext| format!("game-{:05}.{ext}", g.index);
    match form {
        Form::Pgn => Typed { form, name: name("pgn"), text: g.pgn.clone(), tokens: g.written.clone() },
        Form::Spanish { header } => {
            let tokens: Vec<String> = g.sans.iter().map(|s| retype(s, SPANISH)).collect();
            let mut text = String::new();
            if header {
                text.push_str("Language: es\n");
            }
            let pairs: Vec<&[String]> = tokens.chunks(2).collect();
            for (i, pair) in pairs.iter().enumerate() {
                let _ = write!(text, "{}.{}", i + 1, pair.join(" "));
                if i + 1 < pairs.len() {
                    // Ten moves a line, as a person types a long game.
                    text.push_str(if (i + 1) % 10 == 0 { ",\n" } else { ", " });
                }
            }
            let _ = writeln!(text, " {}", g.result);
            Typed { form, name: name("txt"), text, tokens }
        }
        Form::German { header } => {
            let tokens: Vec<String> = g.sans.iter().map(|s| retype(s, GERMAN)).collect();
            let mut text = String::new();
            if header {
                text.push_str("Language: de\n");
            }
            for (i, pair) in tokens.chunks(2).enumerate() {
                let _ = writeln!(text, "{}\t{}", i + 1, pair.join("\t"));
            }
            let _ = writeln!(text, "{}", g.result);
            Typed { form, name: name("txt"), text, tokens }
        }
    }
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
    let expected_status = if contradicts { Status::Review } else { Status::Validated };
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
    if game.moves != g.sans {
        let i = game.moves.iter().zip(&g.sans).take_while(|(a, b)| a == b).count();
        fail.ply = Some(i + 1);
        fail.expected = g.sans.get(i).cloned();
        fail.written = t.tokens.get(i).cloned();
        fail.got = game.moves.get(i).cloned();
        fail.problems.push(format!("{} moves read, expected {}", game.moves.len(), g.sans.len()));
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
    check_emitted(g, game, fail);
    fail.problems.is_empty()
}

/// The PGN written must read back (pgn-reader) and replay (shakmaty) to the moves.
fn check_emitted(g: &CorpusGame, game: &GameReport, fail: &mut Failure) {
    let raw = read_pgn(&game.pgn);
    let [back] = raw.as_slice() else {
        fail.problems.push(format!("emitted PGN reads as {} games: {:?}", raw.len(), excerpt(&game.pgn)));
        return;
    };
    match replay(&back.sans) {
        Ok(sans) if sans == g.sans => {}
        Ok(sans) => {
            let i = sans.iter().zip(&g.sans).take_while(|(a, b)| a == b).count();
            fail.problems.push(format!(
                "emitted PGN replays to {} moves, expected {}; ply {}: {:?}, expected {:?}",
                sans.len(),
                g.sans.len(),
                i + 1,
                sans.get(i),
                g.sans.get(i)
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
    assert_eq!(games.len(), expected, "games read from {CORPUS}");
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

/// Corpus games read elsewhere, left out of the opening book: benchmarks and
/// daemon tests (0..2000), the generated sheets of `evaluate --first 2000`
/// (2000..3200), the repair tests (5000..5300), `evaluate`'s default
/// generated sheets (10000..11000).
pub const LEFT_OUT_OF_BOOK: [std::ops::Range<usize>; 3] = [0..3200, 5000..5400, 10_000..11_000];

/// The dev sheets' truth, relative to the crate root.
pub const DEV_TRUTH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/corpus/sheets-dev/truth.json");

/// The games the opening book is counted from, as moves: the corpus less
/// [`LEFT_OUT_OF_BOOK`] and the games of the sheets in `truth` (a truth.json,
/// matched by their first 40 moves).
pub fn book_games(truth: &std::path::Path) -> Vec<Vec<shakmaty::Move>> {
    let text = std::fs::read_to_string(truth).unwrap_or_else(|e| panic!("{}: {e}", truth.display()));
    let sheets: Vec<serde_json::Value> =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", truth.display()));
    let opening = |sans: &mut dyn Iterator<Item = String>| sans.take(40).collect::<Vec<_>>().join(" ");
    let seen: std::collections::HashSet<String> = sheets
        .iter()
        .filter_map(|s| s["sans"].as_array())
        .map(|a| opening(&mut a.iter().filter_map(|v| v.as_str().map(String::from))))
        .collect();
    load(None)
        .into_iter()
        .filter(|g| {
            !LEFT_OUT_OF_BOOK.iter().any(|r| r.contains(&g.index))
                && !seen.contains(&opening(&mut g.sans.iter().cloned()))
        })
        .map(|g| {
            let mut pos = Chess::default();
            let mut moves = Vec::with_capacity(g.sans.len());
            for san in &g.sans {
                let Ok(m) =
                    san.parse::<shakmaty::san::SanPlus>().map_err(drop).and_then(|s| s.san.to_move(&pos).map_err(drop))
                else {
                    break;
                };
                pos.play_unchecked(m);
                moves.push(m);
            }
            moves
        })
        .collect()
}
