//! From entries to a game, stage by stage:
//!
//! 1. `infer`: the language, where none is given;
//! 2. `read`: each entry read exactly where it can be, a repair window where
//!    one names no legal move, owned by a `read::Reader`;
//! 3. `beam`: the beam search over one window, built on the
//!    `searcher`'s cost of reading one entry as one move;
//! 4. `judge`: how clearly a window's best reading is ahead, and the
//!    alternatives where it is not;
//! 5. `slips`: a slip made before a window that explains its repairs;
//! 6. `settle`: the doubts the windows left, weighed on the whole sheet;
//! 7. `build` and `detect`: the moves of the game and its findings.
//!
//! The state of a reading is a `draft::Draft`; what everything costs is in
//! [`crate::cost`]. `fit` weighs a given game against the sheet, for the
//! evaluation. `prior` and [`book`] order readings in doubt. [`copies`]
//! groups sheets into games and reads a game's two copies together.

mod beam;
pub mod book;
mod budget;
mod build;
pub mod copies;
mod detect;
mod draft;
mod fit;
mod infer;
mod joint;
mod judge;
pub(crate) mod prior;
mod read;
mod searcher;
mod settle;
mod slips;

pub use crate::cost::Params;
pub use budget::FileBudget;
// The evaluation weighs a given game against a sheet with the reader's own
// costs, which only the searcher (private) can compute.
pub use fit::fit_cost;
pub(crate) use fit::with_searcher;

use shakmaty::san::{San, SanPlus, Suffix};
use shakmaty::{Chess, Move, Position};

use crate::cost::Limits;
use crate::finding::Finding;
use crate::notation::Language;
use crate::notation::lex::{Lexed, lex};
use crate::sheet::{GameResult, Sheet};
use crate::start::{SetUpError, Start};
use book::Book;
use budget::Meter;
use read::read;
use settle::doubt_unless_agreed;

/// A move of the game and the entry it was read from.
#[derive(Debug, Clone)]
pub struct Played {
    pub mv: Move,
    /// English SAN with check marks, as written to the PGN.
    pub san: SanPlus,
    /// Index into the sheet's entries (`None` for a move that was not written).
    pub entry: Option<usize>,
    /// Annotation glyphs written with the move.
    pub nags: Vec<u8>,
    /// The player offered a draw with this move: `(=)`.
    pub draw_offer: bool,
}

/// The game read from a sheet.
#[derive(Debug, Clone)]
pub struct Game {
    pub language: &'static Language,
    pub moves: Vec<Played>,
    pub findings: Vec<Finding>,
    /// Where the game begins: the standard start, or the position its sheet
    /// sets up.
    pub start: Start,
    /// The position after the last move read.
    pub position: Chess,
    /// The result: the one written, else the one the final position gives.
    pub result: GameResult,
    /// How unlikely the reading is given what was written (0: exactly as written).
    pub cost: f32,
}

impl Game {
    /// Whether the record goes on in descriptive notation, where reading stopped.
    pub(crate) fn turns_descriptive(&self) -> bool {
        self.findings.iter().any(|f| matches!(f, Finding::NonAlgebraic { read: None, .. }))
    }
}

/// How to read sheets.
#[derive(Debug, Clone, Copy)]
pub struct Settings {
    /// Piece letters for sheets without a `Language:` header (from the command
    /// line or the config); `None` infers them.
    pub language: Option<&'static Language>,
    pub params: Params,
    /// How often players chose moves in the opening, which orders readings
    /// in doubt (see `prior`); `None` orders them by the material check alone.
    pub book: Option<Book<'static>>,
}

impl Settings {
    /// These settings for a game that begins in `start`: the opening book
    /// knows games from the standard start only.
    pub(crate) fn for_start(&self, start: &Start) -> Settings {
        Settings { book: self.book.filter(|_| start.is_standard()), ..*self }
    }
}

impl Default for Settings {
    /// Languages inferred, the default costs, the built-in book.
    fn default() -> Self {
        Settings { language: None, params: Params::default(), book: Some(Book::builtin()) }
    }
}

/// Reads a sheet into a game.
///
/// ```
/// use scoresheet::{ingest::{read, Format}, reconstruct::{reconstruct, Settings}};
/// let sheet = &read("1. e4 e5, 2. Ac4 Cc6, 3. Dh5 Cf6, 4. Dxf7++".as_bytes(), Format::Text, 1 << 20).unwrap()[0];
/// let game = reconstruct(sheet, &Settings::default());
/// assert_eq!(game.language.code, "es");
/// assert_eq!(game.moves.last().unwrap().san.to_string(), "Qxf7#");
/// assert_eq!(game.result.as_pgn(), "1-0");
/// ```
pub fn reconstruct(sheet: &Sheet, settings: &Settings) -> Game {
    reconstruct_within(sheet, settings, &mut FileBudget::new(&settings.params.limits))
}

/// Reads a sheet into a game within its own budget of work and what is left
/// of its file's (`budget`, which the work done is taken off). Past either the
/// search stops where it is: the game is kept as read up to there, with
/// `search-budget`.
///
/// A sheet is read from the start it gives (see [`Start::of`]); one whose
/// start cannot be used is not read at all: its game has no moves and says
/// why (`set-up-position`).
pub fn reconstruct_within(sheet: &Sheet, settings: &Settings, budget: &mut FileBudget) -> Game {
    let start = match Start::of(sheet) {
        Ok(start) => start,
        Err(e) => return unread(sheet, settings, e),
    };
    let meter = budget.game();
    let mut game = read_within(sheet, &start, settings, &meter);
    budget.charge(&meter);
    tracing::debug!(work = meter.spent(), cut = meter.out(), "game read");
    if meter.out() {
        detect::budget_spent(sheet, &mut game);
    }
    detect::judge_result(sheet, &mut game);
    game
}

/// The game of a sheet whose start cannot be used (`why`): no move is read
/// (from the standard start they would not be the game's); the result is the
/// one written.
fn unread(sheet: &Sheet, settings: &Settings, why: SetUpError) -> Game {
    let language = sheet.header("Language").and_then(Language::find).or(settings.language);
    let written = sheet.result.or_else(|| sheet.header("Result").and_then(GameResult::parse));
    Game {
        language: language.unwrap_or(&crate::notation::LANGUAGES[0]),
        moves: Vec::new(),
        findings: vec![Finding::SetUpPosition { why }],
        start: Start::standard(),
        position: Chess::default(),
        result: written.unwrap_or(GameResult::Unknown),
        cost: 0.0,
    }
}

/// [`reconstruct_within`] without the result check, from `start`, under `meter`.
fn read_within(sheet: &Sheet, start: &Start, settings: &Settings, meter: &Meter) -> Game {
    let settings = &settings.for_start(start);
    let start = &start.position;
    let mut findings = Vec::new();
    let header = sheet.header("Language").filter(|l| !l.trim().is_empty());
    let declared = match header.map(|h| (h, Language::find(h))) {
        Some((_, Some(l))) => Some(l),
        Some((h, None)) => {
            findings.push(Finding::UnknownLanguage { given: h.to_string() });
            settings.language
        }
        None => settings.language,
    };
    let lexed = lex_sheet(sheet);
    let mut game = match declared {
        Some(lang) => {
            read(sheet, &lexed, lang, start, settings, f32::INFINITY, meter).expect("no finite ceiling, never given up")
        }
        None => {
            let g = infer::infer(sheet, &lexed, start, settings, meter);
            findings.push(Finding::LanguageInferred { code: g.language.code, name: g.language.name });
            g
        }
    };
    let params = &settings.params;
    // Not a record that turns descriptive: it stops there however it is read.
    // Nor one whose budget is spent.
    if params.limits.second_look > 0.0
        && !meter.out()
        && game.cost > params.limits.second_look
        && params.limits.second_look_margin > params.limits.beam_margin
        && !game.turns_descriptive()
    {
        let wide = Settings {
            params: Params {
                limits: Limits { beam_margin: params.limits.second_look_margin, ..params.limits },
                ..*params
            },
            ..*settings
        };
        if let Some(mut second) = read(sheet, &lexed, game.language, start, &wide, game.cost, meter)
            && second.cost < game.cost
            && !meter.out()
        {
            // The windows went astray once on this sheet; their margins are
            // not to be trusted to validate it (a generated sheet was read
            // 4.5 nats dearer than the game, and validated). Where the two
            // readings differ, the arbiter is shown both.
            doubt_unless_agreed(sheet, &mut second, &game);
            game = second;
        }
    }
    findings.append(&mut game.findings);
    game.findings = findings;
    detect::descriptive(sheet, &lexed, &mut game);
    detect::other_letters(sheet, &lexed, &mut game);
    game
}

/// The entries of a sheet lexed, those of a record in descriptive notation
/// marked as such.
pub(crate) fn lex_sheet(sheet: &Sheet) -> Vec<Lexed<'_>> {
    let mut lexed: Vec<Lexed> = sheet.entries.iter().map(|e| lex(&e.text)).collect();
    crate::notation::descriptive::mark(&mut lexed);
    lexed
}

/// The readings of one lexed entry under `lang` (descriptive ones too, see
/// [`crate::notation::reading::readings_of`]).
pub(crate) fn strict_of(l: &Lexed<'_>, lang: &Language) -> Vec<crate::notation::reading::Reading> {
    let mut out = Vec::with_capacity(2);
    crate::notation::reading::readings_of(l, lang, &mut out);
    out
}

/// The check mark of the position after a move: mate is looked for only after a check.
fn suffix(pos: &Chess) -> Option<Suffix> {
    if !pos.is_check() {
        None
    } else if pos.legal_moves().is_empty() {
        Some(Suffix::Checkmate)
    } else {
        Some(Suffix::Check)
    }
}

/// The SAN, with check marks, of a legal move in a position.
pub(crate) fn san_of(pos: &Chess, m: Move) -> String {
    play(&mut pos.clone(), m).to_string()
}

/// Plays a legal move and returns its SAN with check marks. Cheaper than
/// `SanPlus::from_move_and_play_unchecked`, which generates every legal move
/// after every move to tell mate: here that is done only after a check.
pub fn play(pos: &mut Chess, m: Move) -> SanPlus {
    let san = San::from_move(pos, m);
    pos.play_unchecked(m);
    SanPlus { san, suffix: suffix(pos) }
}
