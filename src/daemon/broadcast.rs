//! A round as a live broadcast reads it (lichess, chess.com): every board of
//! the round in board order, one PGN game each, built from the round file
//! (`pgn/<event>/round-<n>.pgn`, [`super::round`]) and the pairings loaded.
//! No IO here: the desk's `feed` serves what [`feed`] builds.
//!
//! With the TRF, the boards are its pairings of the round: a board whose
//! game is in the round file is served with that game's moves and result,
//! its tags completed from the TRF; a board with no game published yet (its
//! game waits in review, or no sheet came) is served with its players and
//! `*`, no moves, so a doubtful move is never broadcast. Byes and forfeits
//! are no boards. Games of the round file on no board of the TRF, and every
//! game when there is no TRF, are served as the round file has them. A game
//! whose White or Black would be empty, one letter or `?` is left out: a
//! broadcast shows it as a board of nobody.

use std::collections::HashSet;

use super::names::round_and_board;
use super::round::{split_games, tags_of};
use crate::pairing::matching::title;
use crate::pairing::{Pairing, Player, Tournament};

/// The tags every game of a feed starts with, in this order; the game's
/// other tags follow in their own.
const FRONT: [&str; 14] = [
    "Event",
    "Site",
    "Date",
    "Round",
    "White",
    "Black",
    "Result",
    "WhiteTitle",
    "BlackTitle",
    "WhiteElo",
    "BlackElo",
    "WhiteFideId",
    "BlackFideId",
    "TimeControl",
];

/// One game of the feed: its tags and its movetext (result included).
struct Served {
    tags: Vec<(String, String)>,
    movetext: String,
}

impl Served {
    /// A game of the round file, as it was written.
    fn read(game: &str) -> Served {
        let tags = tags_of(game).into_iter().map(|(k, v)| (k.to_string(), v)).collect();
        let mut from = 0;
        for line in game.split_inclusive('\n') {
            if !line.trim_start().starts_with('[') {
                break;
            }
            from += line.len();
        }
        Served { tags, movetext: game[from..].trim().to_string() }
    }

    fn tag(&self, k: &str) -> Option<&str> {
        self.tags.iter().find(|(key, _)| key == k).map(|(_, v)| v.as_str())
    }

    fn set(&mut self, k: &str, v: String) {
        match self.tags.iter_mut().find(|(key, _)| key == k) {
            Some((_, old)) => *old = v,
            None => self.tags.push((k.to_string(), v)),
        }
    }

    /// Sets `k` where the game has no value for it (none, blank or `?`).
    fn fill(&mut self, k: &str, v: Option<String>) {
        if let Some(v) = v.filter(|v| known(v))
            && !self.tag(k).is_some_and(known)
        {
            self.set(k, v);
        }
    }

    /// Its board: the `Board` tag, else the one in its round (`3.1`).
    fn board(&self) -> Option<u32> {
        let board = self.tag("Board").or_else(|| self.tag("Round").and_then(|r| round_and_board(r).1));
        board.and_then(|b| b.trim().parse().ok())
    }
}

/// Whether a tag's value says something (not blank, not `?`, not a date of
/// question marks).
fn known(v: &str) -> bool {
    let v = v.trim();
    !v.is_empty() && !v.chars().all(|c| matches!(c, '?' | '.'))
}

/// Whether a player's name can be shown: two letters or more, not `?`.
fn named(v: Option<&str>) -> bool {
    v.is_some_and(|v| known(v) && v.trim().chars().filter(|c| c.is_alphanumeric()).count() >= 2)
}

/// The feed of round `round` (as its round file is named: `3`): the games
/// of `round_file` (its text; empty when there is none yet) and the boards
/// of `trf`, which the caller gives only when the round file's event is the
/// TRF's ([`super::names::folder`] of its name). `time_control` is the
/// config's, for a TRF that gives none. An empty text when no game is left.
pub(crate) fn feed(round_file: &str, trf: Option<&Tournament>, round: &str, time_control: Option<&str>) -> String {
    let mut games: Vec<Option<Served>> = split_games(round_file).into_iter().map(|g| Some(Served::read(g))).collect();
    let mut out: Vec<Served> = Vec::new();
    let number = round.trim().parse::<u32>().ok();
    if let (Some(t), Some(n)) = (trf, number) {
        // A forfeit is a board where no game is played: none to broadcast.
        let mut pairings: Vec<&Pairing> = t.round(n).filter(|p| !p.forfeit).collect();
        pairings.sort_by_key(|p| p.board);
        for p in pairings {
            let at = games.iter().position(|g| g.as_ref().is_some_and(|g| g.board() == Some(p.board)));
            let served = match at.and_then(|i| games[i].take()) {
                Some(g) => completed(g, t, p),
                None => unplayed(t, p),
            };
            out.push(served);
        }
    }
    out.extend(games.into_iter().flatten());
    let mut text = String::new();
    for mut g in out {
        finish(&mut g, trf, round, time_control);
        if named(g.tag("White")) && named(g.tag("Black")) {
            write(&mut text, &g);
        }
    }
    text
}

/// The TRF's players of a pairing, as (White, Black) of `game`: the other
/// way round where the game's names are the pairing's swapped (the sheet's
/// colours are kept: `colours-reversed`).
fn sides<'t>(t: &'t Tournament, p: &Pairing, game: &Served) -> (Option<&'t Player>, Option<&'t Player>) {
    let (w, b) = (t.player(p.white), t.player(p.black));
    let key = |s: Option<&str>| -> String {
        s.unwrap_or("").chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect()
    };
    let name = |p: Option<&Player>| key(p.map(|p| p.name.as_str()));
    let (gw, gb) = (key(game.tag("White")), key(game.tag("Black")));
    let same = |a: &String, b: String| !a.is_empty() && *a == b;
    let straight = same(&gw, name(w)) || same(&gb, name(b));
    let swapped = same(&gw, name(b)) || same(&gb, name(w));
    if swapped && !straight { (b, w) } else { (w, b) }
}

/// A game of the round file on a board of the TRF: what its tags lack (a
/// player a sheet left out, a rating, the site) taken from the TRF.
fn completed(mut g: Served, t: &Tournament, p: &Pairing) -> Served {
    let (white, black) = sides(t, p, &g);
    for (side, player) in [("White", white), ("Black", black)] {
        let Some(player) = player else { continue };
        if !named(g.tag(side)) {
            g.set(side, player.name.clone());
        }
        players_tags(&mut g, side, player);
    }
    g.set("Board", p.board.to_string());
    g
}

/// A board of the TRF with no game published: its players, `*`, no move.
fn unplayed(t: &Tournament, p: &Pairing) -> Served {
    let mut g = Served { tags: vec![("Event".to_string(), t.name.clone())], movetext: "*".to_string() };
    for (side, player) in [("White", t.player(p.white)), ("Black", t.player(p.black))] {
        if let Some(player) = player {
            g.set(side, player.name.clone());
            players_tags(&mut g, side, player);
        }
    }
    g.set("Result", "*".to_string());
    g.set("Board", p.board.to_string());
    g
}

/// A player's Elo, FIDE id and title from the TRF, where the game has none.
fn players_tags(g: &mut Served, side: &str, player: &Player) {
    g.fill(&format!("{side}Elo"), (player.rating > 0).then(|| player.rating.to_string()));
    g.fill(&format!("{side}FideId"), (player.fide_id > 0).then(|| player.fide_id.to_string()));
    g.fill(&format!("{side}Title"), Some(title(&player.title).to_string()));
}

/// The tags every game of the feed has: the event, site and date (the
/// TRF's where the game has none), `Round "r.b"`, the result and the time
/// control (the TRF's, else the config's, else the game's own).
fn finish(g: &mut Served, trf: Option<&Tournament>, round: &str, time_control: Option<&str>) {
    g.fill("Event", trf.map(|t| t.name.clone()));
    g.fill("Site", trf.map(|t| t.site.clone()));
    g.fill("Date", trf.map(|t| pgn_date(&t.date)));
    for (k, none) in [("Event", "?"), ("Site", "?"), ("Date", "????.??.??")] {
        if !g.tag(k).is_some_and(known) {
            g.set(k, none.to_string());
        }
    }
    let r = g.tag("Round").map_or(round, |r| round_and_board(r).0).to_string();
    let r = if known(&r) { r } else { round.to_string() };
    match g.board() {
        Some(b) => g.set("Round", format!("{r}.{b}")),
        None => g.set("Round", r),
    }
    let result = g.tag("Result").filter(|r| ["1-0", "0-1", "1/2-1/2"].contains(r)).unwrap_or("*").to_string();
    g.set("Result", result);
    let tc = trf.and_then(|t| t.time_control.clone()).or_else(|| time_control.map(str::to_string));
    if let Some(tc) = tc {
        g.set("TimeControl", tc);
    }
}

/// A TRF's date (`2024/03/15`, `2024-03-15`) as PGN writes one
/// (`2024.03.15`); `????.??.??` when it is none.
fn pgn_date(date: &str) -> String {
    let parts: Vec<&str> = date.trim().split(['/', '-', '.']).collect();
    let digits = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_digit());
    match parts.as_slice() {
        [y, m, d] if digits(y, 4) && digits(m, 2) && digits(d, 2) => format!("{y}.{m}.{d}"),
        [y] if digits(y, 4) => format!("{y}.??.??"),
        _ => "????.??.??".to_string(),
    }
}

/// One game in export order: the front tags, the game's others, the moves.
fn write(out: &mut String, g: &Served) {
    let front: HashSet<&str> = FRONT.into_iter().collect();
    let ordered = FRONT.iter().filter_map(|k| g.tags.iter().find(|(key, _)| key == k));
    let rest = g.tags.iter().filter(|(k, _)| !front.contains(k.as_str()));
    for (k, v) in ordered.chain(rest) {
        out.push('[');
        out.push_str(k);
        out.push_str(" \"");
        for c in v.chars().filter(|c| !c.is_control()) {
            if c == '"' || c == '\\' {
                out.push('\\');
            }
            out.push(c);
        }
        out.push_str("\"]\n");
    }
    out.push('\n');
    out.push_str(&g.movetext);
    out.push_str("\n\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn player(start: u32, name: &str, rating: u32, title: &str) -> Player {
        Player {
            start,
            name: name.into(),
            rating,
            fide_id: 1000 + u64::from(start),
            title: title.into(),
            ..Player::default()
        }
    }

    fn open() -> Tournament {
        Tournament {
            name: "Spring Open".into(),
            site: "Sevilla".into(),
            date: "2024/03/15".into(),
            time_control: Some("5400+30".into()),
            players: vec![
                player(1, "Navara, David", 2690, "G"),
                player(2, "Carlsen, Magnus", 2830, "GM"),
                player(3, "Ruiz, Bea", 0, ""),
                player(4, "Pérez, Ana", 1800, "WF"),
            ],
            pairings: vec![
                Pairing { round: 2, board: 1, white: 2, black: 1, result: None, forfeit: false },
                Pairing { round: 2, board: 2, white: 3, black: 4, result: None, forfeit: false },
            ],
            ..Tournament::default()
        }
    }

    fn tag(game: &str, k: &str) -> Option<String> {
        tags_of(game).into_iter().find(|(key, _)| *key == k).map(|(_, v)| v)
    }

    #[test]
    fn every_board_of_the_trf_is_served_in_board_order_the_missing_ones_with_a_star() {
        let round = "[Event \"Spring Open\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"2\"]\n\
            [White \"Ruiz, Bea\"]\n[Black \"?\"]\n[Result \"1-0\"]\n[Board \"2\"]\n\n1. e4 e5 2. Qh5 Nc6 1-0\n\n";
        let text = feed(round, Some(&open()), "2", Some("90"));
        let games = split_games(&text);
        assert_eq!(games.len(), 2, "{text}");
        assert_eq!(tag(games[0], "Round").as_deref(), Some("2.1"));
        assert_eq!(tag(games[0], "White").as_deref(), Some("Carlsen, Magnus"));
        assert_eq!(tag(games[0], "WhiteTitle").as_deref(), Some("GM"));
        assert_eq!(tag(games[0], "BlackTitle").as_deref(), Some("GM"), "TRF-16's g");
        assert!(games[0].ends_with("\n\n*"), "no moves: {}", games[0]);
        assert_eq!(tag(games[1], "Black").as_deref(), Some("Pérez, Ana"), "filled from the TRF");
        assert_eq!(tag(games[1], "BlackElo").as_deref(), Some("1800"));
        assert_eq!(tag(games[1], "WhiteElo"), None, "unrated");
        assert_eq!(tag(games[1], "Site").as_deref(), Some("Sevilla"));
        assert_eq!(tag(games[1], "Date").as_deref(), Some("2024.03.15"));
        assert_eq!(tag(games[1], "TimeControl").as_deref(), Some("5400+30"), "the TRF's before the config's");
        assert!(games[1].ends_with("1. e4 e5 2. Qh5 Nc6 1-0"));
        let names: Vec<&str> = tags_of(games[1]).into_iter().map(|(k, _)| k).collect();
        assert_eq!(names[..7], ["Event", "Site", "Date", "Round", "White", "Black", "Result"]);
    }

    #[test]
    fn without_a_trf_the_round_file_is_served_and_nameless_games_dropped() {
        let round = "[Event \"Club\"]\n[Round \"4\"]\n[White \"Ana\"]\n[Black \"Bea\"]\n[Result \"*\"]\n[Board \"3\"]\n\n1. d4 *\n\n\
            [Event \"Club\"]\n[Round \"4\"]\n[White \"X\"]\n[Black \"Bea\"]\n[Result \"0-1\"]\n\n1. d4 0-1\n\n";
        let text = feed(round, None, "4", Some("600+5"));
        let games = split_games(&text);
        assert_eq!(games.len(), 1, "{text}");
        assert_eq!(tag(games[0], "Round").as_deref(), Some("4.3"));
        assert_eq!(tag(games[0], "TimeControl").as_deref(), Some("600+5"));
        assert_eq!(feed("", None, "4", None), "");
    }

    #[test]
    fn a_game_whose_colours_the_sheet_reversed_keeps_them_with_its_players_ratings() {
        let round = "[Event \"Spring Open\"]\n[Round \"2\"]\n[White \"Navara, David\"]\n[Black \"Carlsen, Magnus\"]\n\
            [Result \"0-1\"]\n[Board \"1\"]\n\n1. e4 0-1\n\n";
        let text = feed(round, Some(&open()), "2", None);
        let first = split_games(&text)[0];
        assert_eq!(tag(first, "White").as_deref(), Some("Navara, David"));
        assert_eq!(tag(first, "WhiteElo").as_deref(), Some("2690"));
        assert_eq!(tag(first, "BlackElo").as_deref(), Some("2830"));
    }

    #[test]
    fn a_trf_date_becomes_a_pgn_date() {
        assert_eq!(pgn_date("2024/03/15"), "2024.03.15");
        assert_eq!(pgn_date("2024"), "2024.??.??");
        assert_eq!(pgn_date("15 March"), "????.??.??");
    }
}
