//! From entries to a game: every entry is read under the sheet's language and
//! must name exactly one legal move. When no language is given, each candidate
//! language replays the sheet and the one that reads the most wins.

use shakmaty::{Chess, Color, Move, Position, san::SanPlus};

use crate::finding::{At, Finding};
use crate::ingest::movetext::ILLEGIBLE;
use crate::notation::reading::{self, Resolution, readings};
use crate::notation::{LANGUAGES, Language, lex::lex};
use crate::sheet::{GameResult, Sheet};

/// A move of the game and the entry it was read from.
#[derive(Debug, Clone)]
pub struct Played {
    pub mv: Move,
    /// English SAN with check marks, as written to the PGN.
    pub san: SanPlus,
    /// Index into the sheet's entries.
    pub entry: usize,
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
    /// The position after the last move read.
    pub position: Chess,
    /// The result: the one written, else the one the final position gives.
    pub result: GameResult,
}

/// Where the language comes from when the sheet has no `Language:` header.
#[derive(Debug, Clone, Copy, Default)]
pub struct LanguageChoice {
    /// Given on the command line or in the config.
    pub given: Option<&'static Language>,
}

/// Reads a sheet into a game.
///
/// ```
/// use scoresheet::{ingest::{read, Format}, reconstruct::{reconstruct, LanguageChoice}};
/// let sheet = &read("1. e4 e5, 2. Ac4 Cc6, 3. Dh5 Cf6, 4. Dxf7++".as_bytes(), Format::Text, 1 << 20).unwrap()[0];
/// let game = reconstruct(sheet, LanguageChoice::default());
/// assert_eq!(game.language.code, "es");
/// assert_eq!(game.moves.last().unwrap().san.to_string(), "Qxf7#");
/// assert_eq!(game.result.as_pgn(), "1-0");
/// ```
pub fn reconstruct(sheet: &Sheet, choice: LanguageChoice) -> Game {
    let mut findings = Vec::new();
    let header = sheet.header("Language").filter(|l| !l.trim().is_empty());
    let declared = match header.map(|h| (h, Language::find(h))) {
        Some((_, Some(l))) => Some(l),
        Some((h, None)) => {
            findings.push(Finding::UnknownLanguage {
                given: h.to_string(),
            });
            choice.given
        }
        None => choice.given,
    };
    let lexed: Vec<_> = sheet.entries.iter().map(|e| lex(&e.text)).collect();
    let mut game = match declared {
        Some(lang) => replay(sheet, &lexed, lang),
        None => {
            let g = infer(sheet, &lexed);
            findings.push(Finding::LanguageInferred {
                code: g.language.code,
                name: g.language.name,
            });
            g
        }
    };
    findings.append(&mut game.findings);
    game.findings = findings;
    judge_result(sheet, &mut game);
    game
}

/// Tries the languages whose letters the sheet uses, best covered first, and
/// keeps the one that reads the most moves (the earliest in [`LANGUAGES`] on a tie).
fn infer(sheet: &Sheet, lexed: &[crate::notation::lex::Lexed]) -> Game {
    let mut letters: Vec<(char, usize)> = Vec::new();
    for l in lexed {
        if let Some(c) = l
            .core
            .chars()
            .next()
            .filter(|c| c.is_uppercase() && !l.core.starts_with("O-O"))
            && !matches!(l.core.as_str(), "OO" | "OOO")
        {
            match letters.iter_mut().find(|(x, _)| *x == c) {
                Some((_, n)) => *n += 1,
                None => letters.push((c, 1)),
            }
        }
    }
    let coverage = |lang: &Language| {
        letters
            .iter()
            .filter(|(c, _)| lang.has_letter(*c))
            .map(|(_, n)| n)
            .sum::<usize>()
    };
    let mut groups: Vec<(&'static Language, usize)> = Vec::new();
    for lang in LANGUAGES {
        if !groups.iter().any(|(g, _)| g.same_letters(lang)) {
            groups.push((lang, coverage(lang)));
        }
    }
    // Stable: equal coverage keeps the table's order.
    groups.sort_by_key(|(_, c)| std::cmp::Reverse(*c));
    let best_coverage = groups[0].1;
    let mut best: Option<Game> = None;
    for (i, (lang, cov)) in groups.iter().enumerate() {
        let done = best
            .as_ref()
            .is_some_and(|b| b.moves.len() == sheet.entries.len());
        if done && (*cov < best_coverage || i > 0 && *cov == 0) {
            break;
        }
        let g = replay(sheet, lexed, lang);
        if best.as_ref().is_none_or(|b| g.moves.len() > b.moves.len()) {
            best = Some(g);
        }
    }
    best.unwrap_or_else(|| replay(sheet, lexed, &LANGUAGES[0]))
}

/// Replays the entries under one language, stopping at the first entry that
/// does not name exactly one legal move.
fn replay(sheet: &Sheet, lexed: &[crate::notation::lex::Lexed], lang: &'static Language) -> Game {
    let mut pos = Chess::default();
    let mut moves = Vec::with_capacity(sheet.entries.len());
    let mut findings = Vec::new();
    for (i, (entry, lexed)) in sheet.entries.iter().zip(lexed).enumerate() {
        let ply = moves.len() as u32 + 1;
        let at = At {
            ply,
            line: entry.line,
            col: entry.col,
        };
        if entry.ply.is_some_and(|p| p > ply) {
            findings.push(Finding::MissingMove {
                at: At {
                    line: 0,
                    col: 0,
                    ..at
                },
            });
            break;
        }
        if ILLEGIBLE.contains(&lexed.core.as_str()) || lexed.core.is_empty() {
            findings.push(Finding::IllegibleMove {
                at,
                written: entry.text.clone(),
            });
            break;
        }
        match reading::resolve(&pos, &readings(&lexed.core, lang)) {
            Resolution::Unique { mv, cost } => {
                let san = SanPlus::from_move_and_play_unchecked(&mut pos, mv);
                if cost > 0 {
                    findings.push(Finding::LooseReading {
                        at,
                        written: entry.text.clone(),
                        replacement: san.to_string(),
                        why: "the only legal move this can stand for",
                    });
                }
                let nags = lexed.nags.iter().chain(&entry.nags).copied().collect();
                moves.push(Played {
                    mv,
                    san,
                    entry: i,
                    nags,
                    draw_offer: lexed.draw_offer || entry.draw_offer,
                });
            }
            Resolution::Ambiguous(ms) => {
                let alternatives = ms
                    .iter()
                    .map(|m| SanPlus::from_move(pos.clone(), *m).to_string())
                    .collect();
                findings.push(Finding::AmbiguousMove {
                    at,
                    written: entry.text.clone(),
                    alternatives,
                });
                break;
            }
            Resolution::None => {
                let written = entry.text.clone();
                // Checkmate and stalemate end the game (Art. 5.1.1, 5.2.1); nothing after counts.
                findings.push(if pos.legal_moves().is_empty() {
                    Finding::MovesAfterEnd { at, written }
                } else {
                    Finding::IllegalMove { at, written }
                });
                break;
            }
        }
    }
    Game {
        language: lang,
        moves,
        findings,
        position: pos,
        result: GameResult::Unknown,
    }
}

/// The result: as written, checked against a final checkmate or stalemate.
fn judge_result(sheet: &Sheet, game: &mut Game) {
    let complete = game.moves.len() == sheet.entries.len();
    // Only checkmate and stalemate settle a result by the board; a dead position
    // or a flag fall is the arbiter's to judge.
    let pos = &game.position;
    let board = match (pos.legal_moves().is_empty(), pos.is_check(), pos.turn()) {
        (true, true, Color::White) => Some(GameResult::BlackWins),
        (true, true, Color::Black) => Some(GameResult::WhiteWins),
        (true, false, _) if complete => Some(GameResult::Draw),
        _ => None,
    };
    let written = sheet.result;
    game.result = match (written, board) {
        (Some(w), Some(b)) if w != b && complete => {
            game.findings.push(Finding::ResultMismatch {
                written: w,
                board: b,
            });
            w
        }
        (Some(w), _) => w,
        (None, Some(b)) => b,
        (None, None) => GameResult::Unknown,
    };
}
