//! The development corpus of real games, read with pgn-reader and replayed
//! with shakmaty to get each game's mainline in canonical English SAN: what
//! the library must give back from every form the game is typed in.
//!
//! The games the default tests and the benchmarks read ([`SUBSET_RANGES`])
//! are committed in `tests/data`, so that a fresh clone tests on its own and
//! reads nothing outside the repository. The full development corpus (20,000
//! games and the typed dev sheets) is read only when asked for: the
//! environment variable [`CORPUS_VAR`] names its folder, for the `--ignored`
//! tests and the tools. Nothing here looks for it anywhere else, so a test
//! that needs it without saying so fails as it would on a fresh clone. A
//! game's index is its place in the full corpus whichever file it is read
//! from.

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::ops::{ControlFlow, Range};
use std::path::{Component, Path, PathBuf};

use anyhow::{Context, Result, bail};
use flate2::read::GzDecoder;
use pgn_reader::{Outcome, RawTag, Reader, SanPlus, Visitor};
use shakmaty::{Chess, Color, Position};

/// The environment variable naming the development corpus's folder (the one
/// holding [`CORPUS_FILE`] and [`DEV_SHEETS`]).
pub const CORPUS_VAR: &str = "SCORESHEET_CORPUS";
/// The full corpus's file name in that folder.
pub const CORPUS_FILE: &str = "games-dev-20k.pgn.gz";
/// Number of games in the full corpus.
pub const CORPUS_GAMES: usize = 20_000;
/// The folder of typed sheets of real games, with their `truth.json`, in
/// the corpus's folder.
pub const DEV_SHEETS: &str = "sheets-dev";

/// The corpus games committed with the repository: [`SUBSET_RANGES`], in order.
pub const SUBSET: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/corpus-games.pgn.gz");
/// The corpus games in [`SUBSET`]: the daemon tests, the corpus test and the
/// benchmarks (0..2260), the repair tests (5000..5300), the copies test
/// (6000..6040).
pub const SUBSET_RANGES: [Range<usize>; 3] = [0..2260, 5000..5300, 6000..6040];

/// The development corpus's folder, as [`CORPUS_VAR`] names it.
pub fn corpus_dir() -> Result<PathBuf> {
    let Some(dir) = std::env::var_os(CORPUS_VAR).filter(|d| !d.is_empty()) else {
        bail!(
            "the development corpus is not set: {CORPUS_VAR} names its folder \
             (the one holding {CORPUS_FILE} and {DEV_SHEETS}/)"
        );
    };
    let dir = PathBuf::from(dir);
    if !dir.is_dir() {
        bail!("{CORPUS_VAR}={}: no such folder", dir.display());
    }
    Ok(dir)
}

/// The development corpus's folder; panics saying how to name it. For the
/// tests that need all of it (all `#[ignore]`d).
pub fn require_corpus() -> PathBuf {
    corpus_dir().unwrap_or_else(|e| panic!("this test needs the development corpus: {e:#}"))
}

/// The full corpus's games file.
pub fn corpus_file() -> Result<PathBuf> {
    Ok(corpus_dir()?.join(CORPUS_FILE))
}

/// The dev sheets' folder; panics as [`require_corpus`].
pub fn dev_sheets() -> PathBuf {
    require_corpus().join(DEV_SHEETS)
}

/// The dev sheets' truth; panics as [`require_corpus`].
pub fn dev_truth() -> PathBuf {
    dev_sheets().join("truth.json")
}

/// `path` with its `..` taken out, for messages.
pub fn shown(path: impl AsRef<Path>) -> String {
    let mut out = PathBuf::new();
    for c in path.as_ref().components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out.display().to_string()
}

/// One game of the corpus.
#[derive(Debug, Clone, PartialEq, Eq)]
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
    /// The plies played when the game ended drawn by Art. 9.6 (the same
    /// position for the fifth time, or 75 moves by each player without a
    /// capture or a pawn move, no mate then), where its record goes on past
    /// that: the library must then read it to there and send it to review
    /// with `moves-after-end`. Players do play on now and then.
    pub fn drawn_by_rule(&self) -> Option<usize> {
        use shakmaty::EnPassantMode;
        use shakmaty::zobrist::Zobrist64;
        let mut pos = Chess::default();
        let mut seen = std::collections::HashMap::new();
        for (ply, san) in self.sans.iter().enumerate() {
            let m = san.parse::<shakmaty::san::SanPlus>().ok()?.san.to_move(&pos).ok()?;
            pos.play_unchecked(m);
            let count = seen.entry(pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal)).or_insert(0);
            *count += 1;
            let ended = *count >= 5 || (pos.halfmoves() >= 150 && !pos.is_checkmate());
            if ended {
                return (ply + 1 < self.sans.len()).then_some(ply + 1);
            }
        }
        None
    }

    /// Whether the written result contradicts a final checkmate or stalemate:
    /// the library must then send the game to review with `result-mismatch`.
    pub fn result_contradicts_board(&self) -> bool {
        self.board.is_some_and(|b| b != self.result)
    }
}

/// The file games `start..start + count` are read from, and the place of
/// game `start` in it: [`SUBSET`] when it holds them all, else the full
/// corpus, which must then be named by [`CORPUS_VAR`].
pub fn source(start: usize, count: usize) -> Result<(PathBuf, usize)> {
    let mut offset = 0;
    for r in &SUBSET_RANGES {
        if r.start <= start && start.saturating_add(count) <= r.end {
            return Ok((PathBuf::from(SUBSET), offset + start - r.start));
        }
        offset += r.len();
    }
    let end = start.saturating_add(count);
    let file = corpus_file()
        .with_context(|| format!("corpus games {start}..{end} are not among those committed ({SUBSET_RANGES:?})"))?;
    Ok((file, start))
}

/// Games `start..start + count` of the corpus (fewer where the corpus ends).
pub fn try_load_range(start: usize, count: usize) -> Result<Vec<CorpusGame>> {
    let (file, offset) = source(start, count)?;
    read_games(&file, offset, start, count)
        .with_context(|| format!("corpus games {start}..{}", start.saturating_add(count)))
}

/// Games `start..start + count` of the corpus; panics with the reason when it
/// cannot read them.
pub fn load_range(start: usize, count: usize) -> Vec<CorpusGame> {
    try_load_range(start, count).unwrap_or_else(|e| panic!("{e:#}"))
}

/// Reads the first `limit` games of the corpus (all when `None`).
pub fn load(limit: Option<usize>) -> Vec<CorpusGame> {
    load_range(0, limit.unwrap_or(usize::MAX))
}

/// `count` games of a corpus file from its `offset`-th (0-based), numbered
/// from `first`.
pub fn read_games(file: &Path, offset: usize, first: usize, count: usize) -> Result<Vec<CorpusGame>> {
    let chunks = read_chunks(file, offset, count)?;
    Ok(chunks.into_iter().enumerate().map(|(i, pgn)| parse_game(first + i, pgn)).collect())
}

/// The PGN texts of `count` games of a gzipped PGN file from its `skip`-th:
/// a game ends where a tag line follows movetext.
fn read_chunks(file: &Path, skip: usize, count: usize) -> Result<Vec<String>> {
    let reader = BufReader::new(GzDecoder::new(File::open(file).with_context(|| shown(file))?));
    let mut out = Vec::new();
    let mut ended = 0;
    let mut chunk = String::new();
    let mut in_movetext = false;
    for line in reader.lines() {
        let line = line.with_context(|| shown(file))?;
        if line.starts_with('[') && in_movetext {
            let game = std::mem::take(&mut chunk);
            if ended >= skip {
                out.push(game);
                if out.len() >= count {
                    return Ok(out);
                }
            }
            ended += 1;
            in_movetext = false;
        }
        if !line.trim().is_empty() && !line.starts_with('[') {
            in_movetext = true;
        }
        chunk.push_str(&line);
        chunk.push('\n');
    }
    if !chunk.trim().is_empty() && ended >= skip && out.len() < count {
        out.push(chunk);
    }
    Ok(out)
}

#[derive(Default)]
pub(crate) struct RawGame {
    pub(crate) sans: Vec<SanPlus>,
    pub(crate) outcome: Option<Outcome>,
    tags: Vec<(String, String)>,
}

impl RawGame {
    /// The value of tag `name`, if the game has it.
    pub(crate) fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }
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
pub(crate) fn read_pgn(text: &str) -> Vec<RawGame> {
    let mut reader = Reader::new(std::io::Cursor::new(text.as_bytes()));
    let mut out = Vec::new();
    while let Some(g) = reader.read_game(&mut Collect).expect("reading from memory") {
        out.push(g);
    }
    out
}

/// Replays SANs from the initial position: the canonical SANs, or the 0-based
/// ply of the first one that is not a legal move.
pub(crate) fn replay(sans: &[SanPlus]) -> Result<Vec<String>, usize> {
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
