//! The language choice: when no language is given, the languages whose
//! letters the sheet uses replay it strictly; the best one or two are read
//! with repairs, and the reading that costs least wins.

use shakmaty::{Chess, Position};

use super::budget::Meter;
use super::entries::strict_of;
use super::game::Game;
use super::language::read;
use super::settings::Settings;
use crate::cost::{LANGUAGES_TRIED, RUNNER_UP_SHARE};
use crate::notation::lex::Lexed;
use crate::notation::reading::exact_move;
use crate::notation::{LANGUAGES, Language};
use crate::sheet::Sheet;

/// The language is a hidden choice: the languages whose letters the sheet uses
/// replay it strictly; the best one or two are read with repairs, and the
/// reading that costs least wins (the earlier in [`LANGUAGES`] on a tie).
pub(super) fn infer(sheet: &Sheet, lexed: &[Lexed<'_>], start: &Chess, settings: &Settings, meter: &Meter) -> Game {
    let params = &settings.params;
    let mut letters: Vec<(char, usize)> = Vec::new();
    for l in lexed {
        if let Some(c) = l.core.chars().next().filter(|c| c.is_uppercase())
            && !l.core.chars().all(|c| matches!(c, 'O' | '0' | 'o' | '-'))
        {
            match letters.iter_mut().find(|(x, _)| *x == c) {
                Some((_, n)) => *n += 1,
                None => letters.push((c, 1)),
            }
        }
    }
    let coverage = |lang: &Language| letters.iter().filter(|(c, _)| lang.has_letter(*c)).map(|(_, n)| n).sum::<usize>();
    let mut groups: Vec<(&'static Language, usize, usize)> = Vec::new();
    for lang in LANGUAGES {
        if !groups.iter().any(|(g, _, _)| g.same_letters(lang)) {
            groups.push((lang, coverage(lang), 0));
        }
    }
    // Stable sorts: equal scores keep the table's order.
    groups.sort_by_key(|(_, c, _)| std::cmp::Reverse(*c));
    let best_coverage = groups[0].1;
    // Letters that cover every piece letter written are read first: a sheet
    // they read at no cost, every entry exactly as written (as a clean PGN
    // is), no others can replay further, and the first of equals wins: it
    // needs no other reading, nor the others' replays.
    let mut whole = None;
    if best_coverage == letters.iter().map(|(_, n)| n).sum::<usize>() && params.costs.always_positive() {
        let first = read(sheet, lexed, groups[0].0, start, settings, f32::INFINITY, meter)
            .expect("no finite ceiling, never given up");
        if first.cost == 0.0 && !first.turns_descriptive() {
            return first;
        }
        whole = Some(first);
    }
    for (i, g) in groups.iter_mut().enumerate() {
        if g.1 == best_coverage || i < LANGUAGES_TRIED {
            g.2 = strict_plies(lexed, g.0, start);
        }
    }
    let leader = groups[0].0;
    groups.sort_by_key(|(_, _, plies)| std::cmp::Reverse(*plies));
    // The reading already made, if the sheet's letters are still the first.
    let first = whole.take().filter(|_| std::ptr::eq(groups[0].0, leader)).unwrap_or_else(|| {
        read(sheet, lexed, groups[0].0, start, settings, f32::INFINITY, meter)
            .expect("no finite ceiling, never given up")
    });
    if done(&first, meter, groups.len()) || groups[1].2 * RUNNER_UP_SHARE < groups[0].2 {
        return first;
    }
    // The second reading wins only if it costs less: it is given up as soon as it cannot.
    let ceiling = if params.costs.never_negative() { first.cost } else { f32::INFINITY };
    match read(sheet, lexed, groups[1].0, start, settings, ceiling, meter) {
        Some(second) if second.cost < first.cost && !meter.out() => second,
        _ => first,
    }
}

/// Whether the first reading is the sheet's without trying another
/// language's: it costs nothing, the budget is spent, or there is no other.
/// A record in descriptive notation is read only up to where it turns
/// descriptive: how a few moves before cost under other letters says little
/// of the sheet's language, which its letters said better.
fn done(first: &Game, meter: &Meter, groups: usize) -> bool {
    first.cost == 0.0 || meter.out() || first.turns_descriptive() || groups < 2
}

/// How many entries read exactly, one after the other from `start`, under `lang`.
fn strict_plies(lexed: &[Lexed<'_>], lang: &Language, start: &Chess) -> usize {
    let mut pos = start.clone();
    for (i, l) in lexed.iter().enumerate() {
        match exact_move(&pos, &strict_of(l, lang)) {
            Some(mv) => pos.play_unchecked(mv),
            None => return i,
        }
    }
    lexed.len()
}
