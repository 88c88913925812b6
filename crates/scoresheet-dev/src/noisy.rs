//! Corpus games typed as generated sheets ([`crate::generate`]) in the dev
//! sheets' mix of languages and formats.

use scoresheet::ingest::Format;
use scoresheet::notation::Language;

use crate::corpus::CorpusGame;
use crate::generate::{Noisy, Rng, Tags, derive_seed, noisy_sheet_tagged};

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

/// A language and a format drawn as often as in the dev sheets.
pub(crate) fn language_and_format(rng: &mut Rng) -> (&'static Language, Format) {
    let code = NOISY_LANGUAGES[rng.weighted(&NOISY_LANGUAGES.map(|(_, w)| w))].0;
    let format = NOISY_FORMATS[rng.weighted(&NOISY_FORMATS.map(|(_, w)| w))].0;
    (Language::find(code).expect("a known language"), format)
}

/// Game `g` typed as a generated sheet: the seed picks the language and the
/// format, and the sheet carries the game's event, players and result (the
/// result is left to the final position when the corpus contradicts it).
pub fn noisy(g: &CorpusGame, seed: u64, rate: f64) -> Noisy {
    let mut rng = Rng::new(derive_seed(seed, 0));
    let (language, format) = language_and_format(&mut rng);
    let tag =
        |k: &str| g.tags.iter().find(|(n, v)| n == k && !v.trim().is_empty() && v.trim() != "?").map(|(_, v)| v.trim());
    let result = (!g.result_contradicts_board()).then_some(g.result.as_str());
    let tags = Tags { event: tag("Event"), white: tag("White"), black: tag("Black"), result };
    noisy_sheet_tagged(&g.sans, &tags, seed, rate, language, format)
}

/// The faults of a generated sheet as `(ply, type, written)`.
pub fn fault_triples(n: &Noisy) -> Vec<(usize, &'static str, &str)> {
    n.faults.iter().map(|f| (f.ply, f.kind.name(), f.written.as_deref().unwrap_or(""))).collect()
}
