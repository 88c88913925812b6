//! The two copies of one corpus game, as both players would hand them in:
//! each typed with its own faults (its own seed), in its own language and
//! format, the players' names written loosely ("Navara,D", "D. Navara"), the
//! round on both. And their measure: each copy read alone and the two read
//! together ([`scoresheet::convert::convert_together`]).

use scoresheet::convert::{Input, Options, convert, convert_together};
use scoresheet::emit::report::{GameReport, Status};
use scoresheet::ingest::Format;

use crate::corpus::CorpusGame;
use crate::generate::{Noisy, Rng, Tags, derive_seed, noisy_sheet_tagged};
use crate::noisy::language_and_format;

/// Game `g` as two copies of round `round` (and, for an even round, board 1
/// written in the round as `Round: 4.1`), each with faults at `rate`.
pub fn pair_of(g: &CorpusGame, round: usize, seed: u64, rate: f64) -> [Noisy; 2] {
    [0, 1].map(|copy| copy_of(g, round, derive_seed(seed, copy), rate))
}

/// One copy: language, format and the way names are written drawn from `seed`.
fn copy_of(g: &CorpusGame, round: usize, seed: u64, rate: f64) -> Noisy {
    let mut rng = Rng::new(derive_seed(seed, 0));
    let (language, format) = language_and_format(&mut rng);
    let tag =
        |k: &str| g.tags.iter().find(|(n, v)| n == k && !v.trim().is_empty() && v.trim() != "?").map(|(_, v)| v.trim());
    let style = rng.below(4);
    let white = tag("White").map(|n| loosely(n, style));
    let black = tag("Black").map(|n| loosely(n, style));
    let result = (!g.result_contradicts_board()).then_some(g.result.as_str());
    let tags = Tags { event: tag("Event"), white: white.as_deref(), black: black.as_deref(), result };
    let mut noisy = noisy_sheet_tagged(&g.sans, &tags, seed, rate, language, format);
    let round = if round.is_multiple_of(2) { format!("{round}.1") } else { round.to_string() };
    noisy.text = with_round(&noisy.text, format, &round);
    noisy
}

/// A name as a player may write it: "Navara, David" as it is, "Navara,D",
/// "D. Navara" or "navara d".
pub fn loosely(name: &str, style: usize) -> String {
    let (surname, first) = match name.split_once(',') {
        Some((s, f)) => (s.trim(), f.trim()),
        None => match name.rsplit_once(' ') {
            Some((f, s)) => (s.trim(), f.trim()),
            None => (name.trim(), ""),
        },
    };
    let initial: String = first.chars().next().map(String::from).unwrap_or_default();
    match (style, initial.is_empty()) {
        (_, true) | (0, _) => name.to_string(),
        (1, _) => format!("{surname},{initial}"),
        (2, _) => format!("{initial}. {surname}"),
        _ => format!("{} {}", surname.to_lowercase(), initial.to_lowercase()),
    }
}

/// The sheet's text with the round written first, as its format writes a header.
fn with_round(text: &str, format: Format, round: &str) -> String {
    let line = match format {
        Format::Text => format!("Round: {round}\n"),
        Format::Csv => format!("Round,{round}\n"),
        Format::Tsv => format!("Round\t{round}\n"),
        Format::Yaml => format!("round: \"{round}\"\n"),
        Format::Pgn => format!("[Round \"{round}\"]\n"),
    };
    // A text sheet with no headers would take the round line for its first
    // header and then a blank line: keep one.
    if format == Format::Text && !text.contains(": ") {
        return format!("{line}\n{text}");
    }
    line + text
}

/// The figures of pairs read alone and together.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PairTally {
    pub pairs: usize,
    /// Pairs read as one game (not each alone).
    pub grouped: usize,
    /// The game read together is the whole game (the longer copy's moves).
    pub exact: usize,
    /// Read together: validated with other moves.
    pub validated_wrong: usize,
    /// Read together: sent to review.
    pub review: usize,
    /// Copies read alone (two per pair): exact, validated with other moves.
    pub alone_exact: usize,
    pub alone_validated_wrong: usize,
    /// Pairs where at least one copy alone is exact.
    pub either_exact: usize,
}

/// Reads a pair alone and together and counts it; what went wrong with the
/// pair read together, if anything.
pub fn count_pair(pair: &[Noisy; 2], opts: &Options, t: &mut PairTally) -> Option<String> {
    t.pairs += 1;
    let mut either = false;
    for copy in pair {
        let r = convert(&copy.file_name, copy.text.as_bytes(), opts);
        let exact = r.games.first().is_some_and(|g| g.moves == copy.sans);
        either |= exact;
        t.alone_exact += usize::from(exact);
        t.alone_validated_wrong += usize::from(!exact && r.games.first().is_some_and(validated));
    }
    t.either_exact += usize::from(either);
    let names = [format!("a-{}", pair[0].file_name), format!("b-{}", pair[1].file_name)];
    let inputs: Vec<Input> =
        pair.iter().zip(&names).map(|(c, n)| (n.clone(), Ok(c.text.as_bytes().to_vec()))).collect();
    let (reports, _) = convert_together(&inputs, opts);
    let Some(game) = reports[0].games.first() else { return Some("no game".into()) };
    t.grouped += usize::from(game.copy.is_some());
    let truth = if pair[0].sans.len() >= pair[1].sans.len() { &pair[0].sans } else { &pair[1].sans };
    let exact = &game.moves == truth;
    t.exact += usize::from(exact);
    t.validated_wrong += usize::from(!exact && validated(game));
    t.review += usize::from(game.status == Status::Review);
    let parted = || {
        let k = game.moves.iter().zip(truth).position(|(m, t)| m != t).unwrap_or(game.moves.len().min(truth.len()));
        let at = |v: &[String]| v.get(k).cloned().unwrap_or_else(|| "-".into());
        format!("ply {}: read {}, played {}", k + 1, at(&game.moves), at(truth))
    };
    match (game.copy.is_some(), exact, validated(game)) {
        (false, ..) => Some("not paired".into()),
        (true, false, true) => Some(format!("validated wrong, {}", parted())),
        (true, false, false) => Some(format!("not exact, {}", parted())),
        _ => None,
    }
}

fn validated(g: &GameReport) -> bool {
    g.status == Status::Validated
}
