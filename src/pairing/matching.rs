//! A sheet matched to its pairing in the TRF: by the round and board it
//! gives (`Round: 2.35` is round 2, board 35; or a `Board:` header), else by
//! its players' names among the round's pairings (among every round's when
//! it gives no round), in both colour orders. A matched sheet's PGN takes
//! the TRF's names, ratings, FIDE ids, titles, round and board.

use std::borrow::Cow;

use super::names::{Heard, Spoken};
use super::tournament::{Pairing, Tournament};
use crate::finding::{self, Finding, SheetPairing};
use crate::sheet::{GameResult, Sheet};

/// The least similarity for a name to be the player's (Jaro–Winkler, see
/// [`Spoken::likeness`]): "Navra" for "Navara, David" is 0.96, another player
/// with the same first letters about 0.75.
const SAME_NAME: f64 = 0.86;
/// How much better the best pairing's names must fit than the next one's
/// for the names alone to choose it.
const CLEAR: f64 = 0.03;
/// What a fit with the colours reversed loses against one in the sheet's
/// colours: two players who meet twice are told apart by the colours.
const REVERSED: f64 = 0.05;
/// Candidates a `pairing-mismatch` names.
const CANDIDATES: usize = 3;

/// The players a sheet names (`?` and blanks are no name).
struct Written<'a> {
    white: Option<&'a str>,
    black: Option<&'a str>,
    round: Option<u32>,
    board: Option<u32>,
}

impl<'a> Written<'a> {
    fn of(sheet: &'a Sheet) -> Self {
        let name = |k| sheet.header(k).map(str::trim).filter(|v| !v.is_empty() && *v != "?");
        let round = sheet.header("Round").map(str::trim);
        let (r, b) = match round.and_then(|r| r.split_once('.')) {
            Some((r, b)) => (Some(r), Some(b)),
            None => (round, None),
        };
        let board = sheet.header("Board").or(b).and_then(|b| b.trim().parse().ok());
        Written { white: name("White"), black: name("Black"), round: r.and_then(|r| r.trim().parse().ok()), board }
    }

    /// What the sheet gives, as a finding names it.
    fn describe(&self) -> SheetPairing {
        let name = |n: Option<&str>| n.unwrap_or("?").to_string();
        SheetPairing { round: self.round, board: self.board, white: name(self.white), black: name(self.black) }
    }
}

/// What a sheet gives of its pairing (round, board, players), as a
/// finding names it.
pub(crate) fn sheet_pairing(sheet: &Sheet) -> SheetPairing {
    Written::of(sheet).describe()
}

/// How well a sheet's names (`spoken`: White's and Black's, made ready)
/// fit a pairing: the mean similarity of the names it gives, in the
/// pairing's colours and reversed; `None` when it gives no name or one of
/// them is no near match.
fn fit(t: &Tournament, spoken: &[Option<Spoken>; 2], p: &Pairing) -> (Option<f64>, Option<f64>) {
    // A start number with no player is like no name.
    let name = |s: u32| t.heard(s);
    let score = |white: Option<&Heard>, black: Option<&Heard>| {
        let sims: Vec<f64> = [(&spoken[0], white), (&spoken[1], black)]
            .iter()
            .filter_map(|(written, trf)| written.as_ref().map(|x| trf.map_or(0.0, |h| x.likeness(h, SAME_NAME))))
            .collect();
        let ok = !sims.is_empty() && sims.iter().all(|&s| s >= SAME_NAME);
        ok.then(|| sims.iter().sum::<f64>() / sims.len() as f64)
    };
    (score(name(p.white), name(p.black)), score(name(p.black), name(p.white)))
}

/// Whether a name written on a sheet may be one of `players`' (as near as
/// matching takes a name for a player's).
#[cfg(feature = "daemon")]
pub(crate) fn may_be_one_of(written: &str, players: &[&Heard]) -> bool {
    Spoken::of(written).is_some_and(|w| players.iter().any(|p| w.likeness(p, SAME_NAME) >= SAME_NAME))
}

/// A pairing chosen: the pairing, and whether the sheet has its colours reversed.
struct Choice<'t> {
    pairing: &'t Pairing,
    reversed: bool,
}

/// The pairing the names fit best, when one fits clearly better than the others.
fn by_names<'t>(
    t: &'t Tournament,
    w: &Written,
    spoken: &[Option<Spoken>; 2],
) -> Result<Choice<'t>, Vec<finding::NamedPairing>> {
    let pool = t.pairings.iter().filter(|p| w.round.is_none_or(|r| p.round == r));
    let mut scored: Vec<(f64, bool, &Pairing)> = pool
        .filter_map(|p| match fit(t, spoken, p) {
            (Some(a), Some(b)) if b - REVERSED > a => Some((b - REVERSED, true, p)),
            (Some(a), _) => Some((a, false, p)),
            (None, Some(b)) => Some((b - REVERSED, true, p)),
            (None, None) => None,
        })
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    match scored.as_slice() {
        [(best, reversed, p), rest @ ..] if rest.first().is_none_or(|n| best - n.0 >= CLEAR) => {
            Ok(Choice { pairing: p, reversed: *reversed })
        }
        _ => Err(scored.iter().take(CANDIDATES).map(|(_, _, p)| t.describe(p)).collect()),
    }
}

/// A sheet matched to its pairing.
#[derive(Debug, Clone)]
pub struct Paired {
    /// The sheet with the TRF's tags: round, board (the TRF's order), names
    /// and ratings. What tells its game among the event's.
    pub sheet: Sheet,
    /// The pairing's result, in the sheet's colours, where the TRF has one.
    pub result: Option<GameResult>,
    /// The pairing, as a finding names it.
    pub at: finding::NamedPairing,
}

/// Matches the sheet to its pairing. A sheet of another event
/// ([`Tournament::is_event_of`]) is left alone: no pairing, no finding.
/// Returns the sheet with the TRF's tags
/// when it matched, and adds the findings about the match: a sheet whose
/// players are paired in its round, on a board numbered otherwise, is told
/// so (a notice); one paired in another round, or in none, is a doubt. The
/// board published is the TRF's order's even so: copies that write no board
/// get that one, and one round numbered two ways would put two games on one
/// board.
pub fn apply(t: &Tournament, sheet: &Sheet, findings: &mut Vec<Finding>) -> Option<Paired> {
    // A sheet of another event is read as if no pairings were loaded.
    if !t.is_event_of(sheet.header("Event")) {
        return None;
    }
    let w = Written::of(sheet);
    let named = w.white.is_some() || w.black.is_some();
    // Made ready once: weighed against every player of the round. A name
    // given as `?` or blank is none; one with no word is like no one.
    let ready = |n: Option<&str>| n.map(|n| Spoken::of(n).unwrap_or_else(Spoken::nothing));
    let spoken = [ready(w.white), ready(w.black)];
    let at_board = w.round.zip(w.board).and_then(|(r, b)| t.at(r, b));
    let choice = match at_board {
        Some(p) if !named => Ok(Choice { pairing: p, reversed: false }),
        Some(p) => match fit(t, &spoken, p) {
            (Some(_), None) => Ok(Choice { pairing: p, reversed: false }),
            (None, Some(_)) => Ok(Choice { pairing: p, reversed: true }),
            (Some(a), Some(b)) => Ok(Choice { pairing: p, reversed: b > a }),
            (None, None) => by_names(t, &w, &spoken).map_err(|_| vec![t.describe(p)]),
        },
        None if named => by_names(t, &w, &spoken),
        None => Err(Vec::new()),
    };
    let choice = match choice {
        Ok(c) => c,
        Err(candidates) => {
            findings.push(Finding::PairingMismatch { written: w.describe(), found: None, candidates });
            return None;
        }
    };
    let p = choice.pairing;
    if w.round.is_some_and(|r| r != p.round) {
        findings.push(Finding::PairingMismatch {
            written: w.describe(),
            found: Some(t.describe(p)),
            candidates: Vec::new(),
        });
    } else if w.board.is_some_and(|b| b != p.board) {
        findings.push(Finding::BoardNumbered { written: w.describe(), pairing: t.describe(p) });
    }
    if choice.reversed {
        findings.push(Finding::ColoursReversed { pairing: t.describe(p) });
    }
    let written = sheet.result.or_else(|| sheet.header("Result").and_then(GameResult::parse));
    let pairing = p.result.map(|r| if choice.reversed { flipped(r) } else { r });
    if let (Some(written), Some(pairing)) = (written.filter(|r| *r != GameResult::Unknown), pairing)
        && written != pairing
    {
        findings.push(Finding::PairingResultMismatch { written, pairing, at: t.describe(p) });
    }
    let (white, black) = if choice.reversed { (p.black, p.white) } else { (p.white, p.black) };
    Some(Paired { sheet: tagged(sheet, t, p, (white, black)), result: pairing, at: t.describe(p) })
}

/// A sheet as its game is told among the event's (what `convert` groups
/// and the daemon's records are looked through by): with the pairings, the
/// sheet with its pairing's tags; else as written.
pub(crate) fn keyed<'s>(sheet: &'s Sheet, pairings: Option<&Tournament>) -> Cow<'s, Sheet> {
    match pairings.and_then(|t| apply(t, sheet, &mut Vec::new())) {
        Some(p) => Cow::Owned(p.sheet),
        None => Cow::Borrowed(sheet),
    }
}

/// The result with the colours swapped.
fn flipped(r: GameResult) -> GameResult {
    match r {
        GameResult::WhiteWins => GameResult::BlackWins,
        GameResult::BlackWins => GameResult::WhiteWins,
        r => r,
    }
}

/// The sheet with the TRF's event, round, board and players' tags: the
/// event as the TRF names it, so that the games of one tournament share
/// one folder and one round file however their sheets spell it.
fn tagged(sheet: &Sheet, t: &Tournament, p: &Pairing, (white, black): (u32, u32)) -> Sheet {
    let (white, black) = (t.player(white), t.player(black));
    let mut s = sheet.clone();
    if !t.name.trim().is_empty() {
        put(&mut s, "Event", t.name.trim().to_string());
    }
    put(&mut s, "Round", p.round.to_string());
    put(&mut s, "Board", p.board.to_string());
    for (side, player) in [("White", white), ("Black", black)] {
        let Some(player) = player else { continue };
        put(&mut s, side, player.name.clone());
        if player.rating > 0 {
            put(&mut s, &format!("{side}Elo"), player.rating.to_string());
        }
        if player.fide_id > 0 {
            put(&mut s, &format!("{side}FideId"), player.fide_id.to_string());
        }
        if !player.title.is_empty() {
            put(&mut s, &format!("{side}Title"), title(&player.title).to_string());
        }
    }
    s
}

/// A header set to `value`, in its place when the sheet has it.
fn put(s: &mut Sheet, key: &str, value: String) {
    match s.headers.iter_mut().find(|(k, _)| k == key) {
        Some((_, v)) => *v = value,
        None => s.headers.push((key.to_string(), value)),
    }
}

/// A PGN title from the TRF's: the TRF-16 letters (`g`, `m`, `f`, `c`, and
/// `wg` ...) or the title itself.
pub(crate) fn title(trf: &str) -> &str {
    match trf {
        "G" => "GM",
        "M" => "IM",
        "F" => "FM",
        "C" => "CM",
        "WG" => "WGM",
        "WM" => "WIM",
        "WF" => "WFM",
        "WC" => "WCM",
        t => t,
    }
}
