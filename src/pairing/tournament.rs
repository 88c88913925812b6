//! What a tournament is made of, as its TRF gives it: the players, the
//! pairings of each round, and the lookups among them. [`super::trf`] reads
//! one; [`super::matching`] finds a sheet's pairing in it.

use crate::sheet::GameResult;

/// One player of the tournament (a `001` record).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Player {
    /// The starting rank number, which the pairings refer to.
    pub start: u32,
    /// `m` or `w` (blank when not given).
    pub sex: String,
    /// FIDE title as the TRF writes it (`g`, `m`, `GM`, `WIM` ...), upper-cased.
    pub title: String,
    /// `Surname, First names`, as the TRF spells it.
    pub name: String,
    /// FIDE rating; 0 when unrated.
    pub rating: u32,
    pub federation: String,
    /// FIDE id; 0 when none.
    pub fide_id: u64,
    /// As written (`YYYY/MM/DD` or a year).
    pub birth: String,
    /// Points as written (`4.5`).
    pub points: String,
    /// Rank; 0 when not given.
    pub rank: u32,
}

/// One game of a round: the two players' start numbers, in their colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pairing {
    pub round: u32,
    /// The pairing's place in its round, from 1, as pairing programs order
    /// boards (the TRF has no board field): by the higher score of the two
    /// players before the round, then the sum of their scores, then the
    /// better starting rank of the two.
    pub board: u32,
    pub white: u32,
    pub black: u32,
    /// The result the TRF gives; `None` while unplayed, or for a forfeit
    /// (no game on the board).
    pub result: Option<GameResult>,
    /// A forfeit (`+` or `-` with the colours): paired and numbered as a
    /// board, but no game is played on it.
    pub forfeit: bool,
}

/// The fewest letters of an event's name found inside another's for the
/// two to be one event ([`Tournament::is_event_of`]): `Open` alone is in
/// too many names.
const MIN_EVENT_INSIDE: usize = 8;

/// A tournament read from a TRF: its name (`012`), players and pairings.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Tournament {
    pub name: String,
    /// `012`, `022` and `042` as written: the tournament's name, city and
    /// first day, for a broadcast's `Site` and `Date`.
    pub site: String,
    pub date: String,
    /// The time control (TRF26 record `222`), as PGN's `TimeControl` writes
    /// it (`5400+30`); `None` when the TRF gives none or none PGN can say.
    pub time_control: Option<String>,
    pub players: Vec<Player>,
    /// Every round's pairings, by round, then board.
    pub pairings: Vec<Pairing>,
    /// The players' names made ready for matching sheets, worked out at
    /// the first match (a sheet is weighed against every player of its
    /// round: the TRF's side of each comparison is done once, not per sheet).
    pub(crate) heard: HeardNames,
}

/// The players' names made ready for matching ([`super::names::Heard`]),
/// in the players' order; no part of what a tournament is: two tournaments
/// are equal whatever either has worked out.
#[derive(Debug, Clone, Default)]
pub(crate) struct HeardNames(std::sync::OnceLock<Vec<super::names::Heard>>);

impl PartialEq for HeardNames {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for HeardNames {}

impl Tournament {
    /// Whether a sheet's `Event` is this tournament's, read loosely (its
    /// letters and digits, folded, as the round files name an event): the
    /// same, or one holding the other whole (`Open de Hanoi 2026`). A sheet
    /// that gives no event is any tournament's; a TRF that names none is
    /// every sheet's.
    pub fn is_event_of(&self, sheet_event: Option<&str>) -> bool {
        let folded = |s: &str| crate::fold::words(s).concat();
        let mine = folded(&self.name);
        let theirs = sheet_event.map(folded).filter(|e| !e.is_empty());
        match theirs {
            None => true,
            Some(e) => {
                let (short, long) = if e.len() <= mine.len() { (&e, &mine) } else { (&mine, &e) };
                mine.is_empty() || e == mine || (short.len() >= MIN_EVENT_INSIDE && long.contains(short.as_str()))
            }
        }
    }

    /// The player of a start number.
    pub fn player(&self, start: u32) -> Option<&Player> {
        self.player_at(start).map(|i| &self.players[i])
    }

    /// Where the player of a start number is listed. Players are listed by
    /// start number as a rule: looked up in place first (a pairing is read
    /// for every board of a round, each time a sheet is matched), then
    /// searched.
    fn player_at(&self, start: u32) -> Option<usize> {
        let listed = (start as usize).checked_sub(1).filter(|&i| self.players.get(i).is_some_and(|p| p.start == start));
        listed.or_else(|| self.players.iter().position(|p| p.start == start))
    }

    /// The name of the player of a start number, made ready for matching.
    pub(crate) fn heard(&self, start: u32) -> Option<&super::names::Heard> {
        let all = self.heard.0.get_or_init(|| self.players.iter().map(|p| super::names::Heard::of(&p.name)).collect());
        all.get(self.player_at(start)?)
    }

    /// The pairings of a round.
    pub fn round(&self, round: u32) -> impl Iterator<Item = &Pairing> {
        self.pairings.iter().filter(move |p| p.round == round)
    }

    /// The pairing at a round's board.
    pub fn at(&self, round: u32, board: u32) -> Option<&Pairing> {
        self.round(round).find(|p| p.board == board)
    }

    /// The pairing as a finding names it: round, board and players' names
    /// (`?` for a player the TRF does not list).
    pub fn describe(&self, p: &Pairing) -> crate::finding::NamedPairing {
        let name = |s: u32| self.player(s).map_or("?", |p| p.name.as_str()).to_string();
        crate::finding::NamedPairing { round: p.round, board: p.board, white: name(p.white), black: name(p.black) }
    }
}
