//! One sheet read into a game, the stages run in order: its start, its
//! language (declared or inferred), a second look with a wider margin where
//! the reading cost much, and the findings on the whole game.

use shakmaty::Chess;

use super::budget::{FileBudget, Meter};
use super::entries::lex_sheet;
use super::game::Game;
use super::language::read;
use super::settings::Settings;
use super::settle::doubt_unless_agreed;
use super::{detect, infer};
use crate::cost::{Limits, Params};
use crate::finding::Finding;
use crate::notation::Language;
use crate::sheet::{GameResult, Sheet};
use crate::start::{SetUpError, Start};

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
/// A sheet is read from the start it gives (see `Start::of`); one whose
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
