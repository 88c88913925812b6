//! A FIDE TRF-16 built from corpus games: the players of the games, their
//! start numbers by rating, and the games put into rounds (the games' own
//! `Round` where each player plays once in it, else the first round where
//! neither player has a game yet), in UTF-8 or Latin-1. The tests read
//! sheets of these games against it.

use crate::corpus::CorpusGame;

/// The games of the event with the most games among `games` (the first of
/// those with as many, by name), and the TRF built from them.
pub fn largest_event(games: Vec<CorpusGame>) -> (Vec<CorpusGame>, BuiltTrf) {
    let event = |g: &CorpusGame| g.tags.iter().find(|(k, _)| k == "Event").map(|(_, v)| v.clone()).unwrap_or_default();
    let mut counts: Vec<(String, usize)> = Vec::new();
    for g in &games {
        let e = event(g);
        match counts.iter_mut().find(|(x, _)| *x == e) {
            Some((_, n)) => *n += 1,
            None => counts.push((e, 1)),
        }
    }
    counts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let name = counts.first().map(|c| c.0.clone()).unwrap_or_default();
    let chosen: Vec<CorpusGame> = games.into_iter().filter(|g| event(g) == name).collect();
    let trf = BuiltTrf::from_games(&name, &chosen);
    (chosen, trf)
}

/// A player of the built tournament.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrfPlayer {
    pub start: u32,
    /// `Surname, First`, as the TRF writes it (at most 33 characters).
    pub name: String,
    pub rating: u32,
    /// Made up from the start number: the corpus has no FIDE ids.
    pub fide_id: u64,
    /// From the rating (GM from 2500, IM from 2400), as the corpus has no titles.
    pub title: &'static str,
}

/// One game of the built tournament, with the corpus game it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrfGame {
    pub round: u32,
    /// Its place in the round, as the reader numbers boards
    /// ([`scoresheet::pairing::Pairing::board`]).
    pub board: u32,
    pub white: u32,
    pub black: u32,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
    /// Index of the game in the slice it was built from.
    pub game: usize,
}

/// A tournament built from games.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuiltTrf {
    pub name: String,
    pub players: Vec<TrfPlayer>,
    pub games: Vec<TrfGame>,
}

fn tag<'a>(g: &'a CorpusGame, k: &str) -> Option<&'a str> {
    g.tags.iter().find(|(t, _)| t == k).map(|(_, v)| v.as_str())
}

/// A player's name as the TRF holds it: trimmed, at most 33 characters.
fn name_of(tag: Option<&str>) -> String {
    tag.unwrap_or("?").trim().chars().take(33).collect::<String>().trim_end().to_string()
}

impl TrfPlayer {
    /// The player at place `i` (from 0) of a list by rating: start number
    /// `i + 1`, a FIDE id made from it, a title by the rating.
    pub fn numbered(i: usize, name: String, rating: u32) -> TrfPlayer {
        let title = match rating {
            2500.. => "GM",
            2400.. => "IM",
            _ => "",
        };
        TrfPlayer { start: i as u32 + 1, name, rating, fide_id: 4_100_000 + 17 * (i as u64 + 1), title }
    }
}

impl BuiltTrf {
    /// The tournament of `games` (each game's White and Black tags are its players).
    pub fn from_games(name: &str, games: &[CorpusGame]) -> BuiltTrf {
        let mut rated: Vec<(String, u32)> = Vec::new();
        for g in games {
            for (side, elo) in [("White", "WhiteElo"), ("Black", "BlackElo")] {
                let n = name_of(tag(g, side));
                let r = tag(g, elo).and_then(|e| e.parse().ok()).unwrap_or(0);
                match rated.iter_mut().find(|(x, _)| *x == n) {
                    Some((_, old)) => *old = (*old).max(r),
                    None => rated.push((n, r)),
                }
            }
        }
        rated.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let players: Vec<TrfPlayer> =
            rated.into_iter().enumerate().map(|(i, (name, rating))| TrfPlayer::numbered(i, name, rating)).collect();
        let start = |n: Option<&str>| players.iter().find(|p| p.name == name_of(n)).map_or(0, |p| p.start);
        let mut out: Vec<TrfGame> = Vec::new();
        for (i, g) in games.iter().enumerate() {
            let (white, black) = (start(tag(g, "White")), start(tag(g, "Black")));
            if white == black {
                continue; // a player against themself: no pairing
            }
            let busy = |r: u32| {
                out.iter().any(|x| x.round == r && [x.white, x.black].iter().any(|s| *s == white || *s == black))
            };
            let own =
                tag(g, "Round").and_then(|r| r.split('.').next()?.parse::<u32>().ok()).filter(|&r| r > 0 && !busy(r));
            let round = own.unwrap_or_else(|| (1..).find(|&r| !busy(r)).unwrap_or(1));
            out.push(TrfGame { round, board: 0, white, black, result: g.result.clone(), game: i });
        }
        let mut built = BuiltTrf { name: name.to_string(), players, games: out };
        built.number_boards();
        built
    }

    /// The boards as the reader numbers them (the TRF has no board field):
    /// read back from the TRF written, so the two cannot differ.
    fn number_boards(&mut self) {
        let read = scoresheet::pairing::Tournament::parse(&self.utf8()).expect("a built TRF reads back");
        for g in &mut self.games {
            g.board = read.round(g.round).find(|p| (p.white, p.black) == (g.white, g.black)).map_or(0, |p| p.board);
        }
        self.games.sort_by_key(|g| (g.round, g.board));
    }

    /// The player of a start number.
    pub fn player(&self, start: u32) -> &TrfPlayer {
        &self.players[start as usize - 1]
    }

    /// Gives a player another name (to try accents, or names of another script).
    pub fn rename(&mut self, start: u32, name: &str) {
        self.players[start as usize - 1].name = name.to_string();
    }

    /// The TRF text: `012`, then a `001` record per player in the TRF's columns.
    pub fn text(&self) -> String {
        let rounds = self.games.iter().map(|g| g.round).max().unwrap_or(0);
        let mut s = format!("012 {}\n", self.name);
        for p in &self.players {
            let mut points = 0.0;
            let mut blocks = String::new();
            for r in 1..=rounds {
                let game = self.games.iter().find(|g| g.round == r && (g.white == p.start || g.black == p.start));
                let Some(g) = game else {
                    blocks.push_str("  0000 - -");
                    continue;
                };
                let white = g.white == p.start;
                let (opp, colour) = if white { (g.black, 'w') } else { (g.white, 'b') };
                let res = match (g.result.as_str(), white) {
                    ("1-0", true) | ("0-1", false) => '1',
                    ("1-0", false) | ("0-1", true) => '0',
                    ("1/2-1/2", _) => '=',
                    _ => ' ',
                };
                points += match res {
                    '1' => 1.0,
                    '=' => 0.5,
                    _ => 0.0,
                };
                blocks.push_str(&format!("  {opp:>4} {colour} {res}"));
            }
            // The points have four columns: from 100 on, whole points only
            // (a player of a built event may have more games than any real one).
            let points = if points < 99.75 { format!("{points:.1}") } else { format!("{points:.0}") };
            s.push_str(&format!(
                "001 {:>4} m{:>3} {:<33} {:>4} {:<3} {:>11} {:<10} {:>4} {:>4}{blocks}\n",
                p.start, p.title, p.name, p.rating, "FID", p.fide_id, "", points, p.start
            ));
        }
        s
    }

    /// The TRF in UTF-8.
    pub fn utf8(&self) -> Vec<u8> {
        self.text().into_bytes()
    }

    /// The TRF in Latin-1 (a character past U+00FF written `?`).
    pub fn latin1(&self) -> Vec<u8> {
        self.text().chars().map(|c| u8::try_from(u32::from(c)).unwrap_or(b'?')).collect()
    }
}

/// The way a player writes an opponent's name on a sheet, `k` choosing
/// one: `Navara,D`, `D. Navara`, `NAVARA David`, `David Navara`, `Navara`,
/// or the surname with one letter dropped (`Navra`).
pub fn loosely(trf_name: &str, k: usize) -> String {
    let (surname, given) = trf_name.split_once(',').map_or((trf_name, ""), |(s, g)| (s.trim(), g.trim()));
    let initial: String = given.chars().take(1).collect();
    match k % 6 {
        0 if !initial.is_empty() => format!("{surname},{initial}"),
        1 if !initial.is_empty() => format!("{initial}. {surname}"),
        2 => format!("{} {given}", surname.to_uppercase()).trim().to_string(),
        3 => format!("{given} {surname}").trim().to_string(),
        5 if surname.chars().count() >= 6 => {
            let cut = surname.chars().count() / 2;
            surname.chars().enumerate().filter(|(i, _)| *i != cut).map(|(_, c)| c).collect()
        }
        _ => surname.to_string(),
    }
}
