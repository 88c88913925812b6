//! A sheet read under one language, start to end: the reader's draft, its
//! doubts settled on the whole sheet, the game built, and checked against
//! a reading by the costs alone where the plausibility chose. Apart from the
//! reader ([`read`](super::read)), which [`settle`](super::settle) reads
//! again with, so that each file only uses those below it.

use shakmaty::Chess;

use super::budget::Meter;
use super::build::build;
use super::entries::is_illegible;
use super::game::Game;
use super::read::Reader;
use super::settings::Settings;
use super::settle::doubt_unless_agreed;
use crate::cost::{Limits, Params};
use crate::finding::Severity;
use crate::notation::Language;
use crate::notation::lex::Lexed;
use crate::sheet::Sheet;

/// Reads the sheet under one language: exactly where it can, with the repair
/// search where it cannot, then weighs what the windows left in doubt against
/// the whole sheet. `None` once the reading is sure to cost `ceiling` or more.
/// The work is counted on `meter`: once it is spent the search stops.
pub(super) fn read(
    sheet: &Sheet,
    lexed: &[Lexed<'_>],
    lang: &'static Language,
    start: &Chess,
    settings: &Settings,
    ceiling: f32,
    meter: &Meter,
) -> Option<Game> {
    let params = &settings.params;
    let illegible: Vec<bool> = lexed.iter().map(is_illegible).collect();
    let mut reader = Reader::new(sheet, lexed, &illegible, lang, params, settings.book, meter).begins_in(start);
    let mut draft = reader.read_from(ceiling, &[], 0)?;
    reader.settle(&mut draft);
    let mut game = build(sheet, lexed, lang, &draft, params.limits.review_margin);
    // The plausibility orders readings; it must never settle one. Where it put
    // a costlier reading first and the game came out clear, the costs alone
    // must say the same: a later window may have settled the doubt starting
    // from the reading it chose.
    if reader.prior_chose() && !meter.out() && game.findings.iter().all(|f| f.severity() == Severity::Info) {
        let plain = Settings {
            params: Params { limits: Limits { prior_reach: 0.0, ..params.limits }, ..*params },
            ..*settings
        };
        if let Some(costs_alone) = read(sheet, lexed, lang, start, &plain, f32::INFINITY, meter)
            && !meter.out()
        {
            doubt_unless_agreed(sheet, &mut game, &costs_alone);
        }
    }
    Some(game)
}
