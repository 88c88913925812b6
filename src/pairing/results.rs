//! The results written back into the TRF the event was given, for the
//! pairing program to pair the next round from: each game's result in both
//! players' columns of its round (`1`, `0`, `=`), and each player's points
//! moved by what was written.
//!
//! Every other byte stays as given: the encoding (UTF-8, with or without a
//! BOM, or Latin-1), the line ends, the records this program does not read
//! (TRF26 records, `XX` extensions, `###` comments), forfeits and byes. A
//! result is written only where the TRF leaves it blank (a round in
//! progress, as pairing programs export it: opponent and colour, no
//! result); one the TRF already gives is never written over, even where it
//! differs (such a game is in review already: the TRF's result is said
//! there).
//!
//! Each player's points (columns 81–84) are counted again from the row, by
//! the TRF's own scoring where it gives one (TRF26 `162`, JaVaFo's `XXS`),
//! else FIDE's: a win, a forfeit win, a full-point or pairing-allocated bye
//! 1, a draw or a half-point bye ½. A field that already holds that number
//! is left as written.

use super::tournament::{Pairing, Tournament};
use super::trf::{BLOCK, ROUNDS_FROM, field};
use crate::sheet::GameResult;

/// Where in a round's block ([`BLOCK`] columns from [`ROUNDS_FROM`] on) the
/// colour and the result are (1-based, as the TRF's annex numbers them).
const COLOUR_AT: usize = 5;
const RESULT_AT: usize = 7;
/// The points field, columns 81–84.
const POINTS: (usize, usize) = (81, 84);

/// A played game's result, to be written into its round's columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scored {
    /// The round, from 1.
    pub round: u32,
    /// White's start number in the TRF.
    pub white: u32,
    /// Black's start number in the TRF.
    pub black: u32,
    /// The game's result.
    pub result: GameResult,
}

/// What writing the results did.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Written {
    /// The TRF with the results: the given bytes where nothing changed.
    pub bytes: Vec<u8>,
    /// Results written (a game counts once, whatever its two columns).
    pub filled: usize,
    /// Games whose result the TRF gives otherwise, left as the TRF has them.
    pub contradicted: Vec<Scored>,
}

impl Scored {
    /// The result of a game this program published, told by its tags: its
    /// round and board name a pairing of `t` whose players the tags name as
    /// the TRF does (a matched sheet takes the TRF's names). A game with no
    /// result, or of no pairing, has none.
    pub fn of<'a>(t: &Tournament, tag: impl Fn(&str) -> Option<&'a str>) -> Option<Scored> {
        let result = GameResult::parse(tag("Result")?).filter(|r| *r != GameResult::Unknown)?;
        let round_tag = tag("Round")?.trim();
        let (round, in_round) = round_tag.split_once('.').map_or((round_tag, None), |(r, b)| (r, Some(b)));
        let board = tag("Board").or(in_round)?.trim().parse().ok()?;
        let p: &Pairing = t.at(round.trim().parse().ok()?, board)?;
        let name = |s: u32| t.player(s).map(|p| p.name.as_str());
        let same = |side: &str, s: u32| tag(side).map(str::trim).is_some_and(|n| Some(n) == name(s));
        (same("White", p.white) && same("Black", p.black)).then_some(Scored {
            round: p.round,
            white: p.white,
            black: p.black,
            result,
        })
    }
}

/// `given` (a TRF's bytes) with `games`' results written in. A game is
/// written only where both players' rows pair them so and neither column
/// holds another result.
pub fn with_results(given: &[u8], games: &[Scored]) -> Written {
    let (bom, body) = match given.strip_prefix(b"\xEF\xBB\xBF") {
        Some(rest) => (&given[..3], rest),
        None => (&given[..0], given),
    };
    let latin1 = std::str::from_utf8(body).is_err();
    let lines: Vec<&[u8]> = body.split_inclusive(|&b| b == b'\n').collect();
    let mut rows: Vec<Option<Row>> = lines.iter().map(|l| Row::of(split_end(l).0, latin1)).collect();
    // Each start number's row, so that a game finds its two at once.
    let row_of: std::collections::HashMap<u32, usize> =
        rows.iter().enumerate().filter_map(|(i, r)| Some((r.as_ref()?.start, i))).collect();
    let scoring = Scoring::of(&lines, latin1);
    let mut out = Written { bytes: bom.to_vec(), ..Written::default() };
    for g in games.iter().filter(|g| g.result != GameResult::Unknown && g.round > 0) {
        let (Some(&w), Some(&b)) = (row_of.get(&g.white), row_of.get(&g.black)) else { continue };
        let (Some(white), Some(black)) = (rows[w].as_ref(), rows[b].as_ref()) else { continue };
        match (white.column(g), black.column(g)) {
            (Column::Blank(_) | Column::Same, Column::Blank(_) | Column::Same) => {}
            (Column::NotPaired, _) | (_, Column::NotPaired) => continue,
            _ => {
                out.contradicted.push(*g);
                continue;
            }
        }
        let mut wrote = false;
        for i in [w, b] {
            if let Some(row) = rows[i].as_mut() {
                wrote |= row.fill(g);
            }
        }
        out.filled += usize::from(wrote);
    }
    for (line, row) in lines.iter().zip(&mut rows) {
        if let Some(row) = row.as_mut() {
            row.count_points(&scoring);
        }
        match row.as_ref().filter(|r| r.changed) {
            Some(row) => {
                out.bytes.extend(row.encode(latin1));
                out.bytes.extend_from_slice(split_end(line).1);
            }
            None => out.bytes.extend_from_slice(line),
        }
    }
    out
}

/// A line without its end (`\n` or `\r\n`), and the end.
fn split_end(line: &[u8]) -> (&[u8], &[u8]) {
    let body = line.strip_suffix(b"\n").unwrap_or(line);
    let body = body.strip_suffix(b"\r").unwrap_or(body);
    line.split_at(body.len())
}

/// A player's `001` record, as characters (columns).
struct Row {
    chars: Vec<char>,
    start: u32,
    changed: bool,
}

/// A game's result column in one player's row.
enum Column {
    /// Blank (a round in progress): the result goes here, as this character.
    Blank(char),
    /// It already holds this game's result (the game read again).
    Same,
    /// It holds another result: left as it is.
    Other,
    /// The row does not pair the player so in that round.
    NotPaired,
}

impl Row {
    fn of(text: &[u8], latin1: bool) -> Option<Row> {
        if !text.starts_with(b"001") {
            return None;
        }
        let chars: Vec<char> = if latin1 {
            text.iter().map(|&b| char::from(b)).collect()
        } else {
            std::str::from_utf8(text).ok()?.chars().collect()
        };
        let start = field(&chars, 5, 8).parse().ok()?;
        Some(Row { chars, start, changed: false })
    }

    fn at(&self, column: usize) -> char {
        self.chars.get(column - 1).copied().unwrap_or(' ')
    }

    fn set(&mut self, column: usize, c: char) {
        if self.chars.len() < column {
            self.chars.resize(column, ' ');
        }
        self.chars[column - 1] = c;
        self.changed = true;
    }

    /// The column of `g`'s round in this row, and the result it would get.
    fn column(&self, g: &Scored) -> Column {
        let from = ROUNDS_FROM + BLOCK * (g.round as usize - 1);
        let white = g.white == self.start;
        let (opponent, colour) = if white { (g.black, 'w') } else { (g.white, 'b') };
        let paired = field(&self.chars, from, from + 3).parse::<u32>().ok() == Some(opponent)
            && self.at(from + COLOUR_AT).eq_ignore_ascii_case(&colour);
        let mine = match g.result {
            GameResult::Draw => '=',
            GameResult::WhiteWins if white => '1',
            GameResult::BlackWins if !white => '1',
            _ => '0',
        };
        match self.at(from + RESULT_AT) {
            _ if !paired => Column::NotPaired,
            ' ' => Column::Blank(mine),
            c if c == mine => Column::Same,
            _ => Column::Other,
        }
    }

    /// Writes `g`'s result into its blank column; whether it did.
    fn fill(&mut self, g: &Scored) -> bool {
        let Column::Blank(mine) = self.column(g) else { return false };
        self.set(ROUNDS_FROM + BLOCK * (g.round as usize - 1) + RESULT_AT, mine);
        true
    }

    /// The points field counted again from the row's blocks; left as
    /// written where it already says so.
    fn count_points(&mut self, scoring: &Scoring) {
        let blocks = self.chars.len().saturating_sub(ROUNDS_FROM - 1).div_ceil(BLOCK);
        let tenths: u32 = (0..blocks).map(|k| scoring.tenths(self.at(ROUNDS_FROM + BLOCK * k + RESULT_AT))).sum();
        let given = field(&self.chars, POINTS.0, POINTS.1);
        if given.parse::<f64>().is_ok_and(|p| (p * 10.0).round() as u32 == tenths) {
            return;
        }
        let points = f64::from(tenths) / 10.0;
        // Four columns: from 100 on, whole points only.
        let text = if points < 99.95 { format!("{points:>4.1}") } else { format!("{points:>4.0}") };
        for (i, c) in text.chars().take(POINTS.1 - POINTS.0 + 1).enumerate() {
            self.set(POINTS.0 + i, c);
        }
    }

    fn encode(&self, latin1: bool) -> Vec<u8> {
        if latin1 {
            self.chars.iter().map(|&c| u8::try_from(u32::from(c)).unwrap_or(b'?')).collect()
        } else {
            self.chars.iter().collect::<String>().into_bytes()
        }
    }
}

/// What each result of a round's block is worth, in tenths of a point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Scoring {
    win: u32,
    draw: u32,
    loss: u32,
    forfeit_win: u32,
    forfeit_loss: u32,
    full_bye: u32,
    half_bye: u32,
    zero_bye: u32,
    pairing_bye: u32,
}

impl Scoring {
    /// FIDE's, changed by the TRF's `162` (TRF26: a code `W D L A P` at
    /// column 6, 15, 24 … and its points in the four columns after) and
    /// `XXS` (JaVaFo: `W=3 D=1 PAB=1` …) records.
    fn of(lines: &[&[u8]], latin1: bool) -> Scoring {
        let mut s = Scoring {
            win: 10,
            draw: 5,
            loss: 0,
            forfeit_win: 10,
            forfeit_loss: 0,
            full_bye: 10,
            half_bye: 5,
            zero_bye: 0,
            pairing_bye: 10,
        };
        let tenths = |t: &str| t.trim().parse::<f64>().ok().filter(|p| *p >= 0.0).map(|p| (p * 10.0).round() as u32);
        for line in lines {
            let text: String = if latin1 {
                line.iter().map(|&b| char::from(b)).collect()
            } else {
                String::from_utf8_lossy(line).into_owned()
            };
            let chars: Vec<char> = split_end(text.as_bytes()).0.iter().map(|&b| char::from(b)).collect();
            if text.starts_with("162") {
                let mut at = 6;
                while at <= chars.len() {
                    let code = chars[at - 1];
                    if let Some(v) = tenths(&field(&chars, at + 1, at + 4)) {
                        s.set_162(code, v);
                    }
                    at += 9;
                }
            } else if let Some(rest) = text.strip_prefix("XXS") {
                for (code, v) in rest.split_whitespace().filter_map(|kv| kv.split_once('=')) {
                    if let Some(v) = tenths(v) {
                        s.set_xxs(code, v);
                    }
                }
            }
        }
        s
    }

    fn set_162(&mut self, code: char, v: u32) {
        match code {
            'W' => (self.win, self.forfeit_win, self.full_bye) = (v, v, v),
            'D' => (self.draw, self.half_bye) = (v, v),
            'L' => self.loss = v,
            'A' => (self.zero_bye, self.forfeit_loss) = (v, v),
            'P' => self.pairing_bye = v,
            _ => {}
        }
    }

    fn set_xxs(&mut self, code: &str, v: u32) {
        match code {
            "W" | "WW" | "BW" => (self.win, self.forfeit_win, self.full_bye) = (v, v, v),
            "D" | "WD" | "BD" => (self.draw, self.half_bye) = (v, v),
            "WL" | "BL" => self.loss = v,
            "FW" => self.forfeit_win = v,
            "FL" => self.forfeit_loss = v,
            "FPB" => self.full_bye = v,
            "HPB" => self.half_bye = v,
            "ZPB" => self.zero_bye = v,
            "PAB" => self.pairing_bye = v,
            _ => {}
        }
    }

    /// A result character's worth (TRF's codes; `W D L` are games of less
    /// than a move, worth what the game's result is).
    fn tenths(&self, c: char) -> u32 {
        match c.to_ascii_uppercase() {
            '1' | 'W' => self.win,
            '=' | 'D' => self.draw,
            '0' | 'L' => self.loss,
            '+' => self.forfeit_win,
            '-' => self.forfeit_loss,
            'F' => self.full_bye,
            'H' => self.half_bye,
            'Z' => self.zero_bye,
            'U' => self.pairing_bye,
            _ => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pairing::trf::parse;

    /// A `001` record in the TRF's columns (as `trf`'s tests write them).
    fn record(start: u32, name: &str, points: &str, rounds: &[(u32, char, char)]) -> String {
        let mut s =
            format!("001 {start:>4} m    {name:<33} 2000 CZE {:>11} 1985/03/27 {points:>4} {start:>4}", 1000 + start);
        for (o, c, r) in rounds {
            s.push_str(&format!("  {o:>4} {c} {r}"));
        }
        s
    }

    fn four_in_round_two() -> String {
        // Round 1 played; round 2 paired, its results blank.
        [
            "012 Test Open".to_string(),
            "### a comment the program leaves alone".to_string(),
            record(1, "Ana, A", "1.0", &[(3, 'w', '1'), (2, 'b', ' ')]),
            record(2, "Bea, B", "0.5", &[(4, 'b', '='), (1, 'w', ' ')]),
            record(3, "Cris, C", "0.0", &[(1, 'b', '0'), (4, 'w', ' ')]),
            record(4, "Dora, D", "0.5", &[(2, 'w', '='), (3, 'b', ' ')]),
        ]
        .join("\r\n")
            + "\r\n"
    }

    #[test]
    fn a_round_in_progress_gets_its_results_in_both_columns_and_the_points_move() {
        let given = four_in_round_two();
        let t = parse(given.as_bytes()).unwrap();
        assert_eq!(t.pairings.iter().filter(|p| p.round == 2 && p.result.is_none()).count(), 2, "two boards to come");
        let games = [
            Scored { round: 2, white: 2, black: 1, result: GameResult::BlackWins },
            Scored { round: 2, white: 3, black: 4, result: GameResult::Draw },
        ];
        let w = with_results(given.as_bytes(), &games);
        assert_eq!((w.filled, w.contradicted.len()), (2, 0));
        let text = String::from_utf8(w.bytes).unwrap();
        let read = parse(text.as_bytes()).unwrap();
        let points: Vec<&str> = read.players.iter().map(|p| p.points.as_str()).collect();
        assert_eq!(points, ["2.0", "0.5", "0.5", "1.0"]);
        let round2: Vec<_> = read.round(2).map(|p| (p.white, p.black, p.result)).collect();
        assert!(round2.contains(&(2, 1, Some(GameResult::BlackWins))), "{round2:?}");
        assert!(round2.contains(&(3, 4, Some(GameResult::Draw))), "{round2:?}");
        // Byte for byte the same but for the result columns and the points.
        let changed: Vec<usize> =
            given.bytes().zip(text.bytes()).enumerate().filter(|(_, (a, b))| a != b).map(|(i, _)| i).collect();
        assert_eq!(given.len(), text.len());
        for i in changed {
            let line_start = given[..i].rfind('\n').map_or(0, |k| k + 1);
            let column = i - line_start + 1;
            assert!((81..=84).contains(&column) || column == 109, "column {column} changed");
        }
    }

    #[test]
    fn a_result_the_trf_gives_otherwise_is_never_written_over() {
        let given = four_in_round_two().replace("   1 w  ", "   1 w 1");
        let games = [Scored { round: 2, white: 2, black: 1, result: GameResult::BlackWins }];
        let w = with_results(given.as_bytes(), &games);
        assert_eq!(w.filled, 0);
        assert_eq!(w.contradicted, games);
        // The pairings and results as given; the points counted from them.
        let (before, after) = (parse(given.as_bytes()).unwrap(), parse(&w.bytes).unwrap());
        assert_eq!(before.pairings, after.pairings);
        assert_eq!(after.players[0].points, "1.0", "Ana's loss as the TRF has it");
        assert_eq!(after.players[1].points, "1.5", "Bea's win as the TRF has it");
    }

    #[test]
    fn a_game_the_trf_does_not_pair_so_writes_nothing() {
        let given = four_in_round_two();
        // Colours reversed: not the pairing the TRF has.
        let games = [Scored { round: 2, white: 1, black: 2, result: GameResult::WhiteWins }];
        assert_eq!(with_results(given.as_bytes(), &games).bytes, given.as_bytes());
    }

    #[test]
    fn byes_and_forfeits_count_as_the_trfs_scoring_says() {
        let rows = [
            record(1, "Ana, A", "0.0", &[(0, '-', 'U'), (2, 'w', ' ')]),
            record(2, "Bea, B", "0.0", &[(3, 'w', '+'), (1, 'b', ' ')]),
            record(3, "Cris, C", "0.0", &[(2, 'b', '-'), (0, '-', 'H')]),
        ];
        let fide = format!("012 Open\n{}\n", rows.join("\n"));
        let games = [Scored { round: 2, white: 1, black: 2, result: GameResult::WhiteWins }];
        let points = |text: &str| -> Vec<String> {
            let w = with_results(text.as_bytes(), &games);
            parse(&w.bytes).unwrap().players.iter().map(|p| p.points.clone()).collect()
        };
        assert_eq!(points(&fide), ["2.0", "1.0", "0.5"]);
        // Three points a win, one a draw and a half-point bye, a pairing bye worth a draw.
        let three = fide.replace("012 Open\n", "012 Open\nXXS W=3 D=1 PAB=1\n");
        assert_eq!(points(&three), ["4.0", "3.0", "1.0"]);
        let trf26 = fide.replace("012 Open\n", "012 Open\n162  W 3.0    D 1.0    P 1.0\n");
        assert_eq!(points(&trf26), ["4.0", "3.0", "1.0"]);
    }

    #[test]
    fn latin1_stays_latin1_and_a_trimmed_blank_result_is_written() {
        let given = format!(
            "012 Übung\n{}\n{}\n",
            record(1, "Müller, Jörg", "0.0", &[(2, 'w', ' ')]).trim_end(),
            record(2, "Núñez, Íñigo", "0.0", &[(1, 'b', ' ')]).trim_end()
        );
        let latin1: Vec<u8> = given.chars().map(|c| c as u32 as u8).collect();
        let games = [Scored { round: 1, white: 1, black: 2, result: GameResult::Draw }];
        let w = with_results(&latin1, &games);
        assert_eq!(w.filled, 1);
        assert!(std::str::from_utf8(&w.bytes).is_err(), "still Latin-1");
        let read = parse(&w.bytes).unwrap();
        assert_eq!(read.players[0].name, "Müller, Jörg");
        assert_eq!(read.pairings[0].result, Some(GameResult::Draw));
        assert_eq!((read.players[0].points.as_str(), read.players[1].points.as_str()), ("0.5", "0.5"));
    }

    #[test]
    fn a_published_game_is_told_by_its_round_board_and_the_trfs_names() {
        let t = parse(four_in_round_two().as_bytes()).unwrap();
        let p = t.round(2).find(|p| p.white == 2).unwrap();
        let tags = |white: &'static str| {
            let board = p.board.to_string();
            move |k: &str| -> Option<String> {
                match k {
                    "Round" => Some("2".into()),
                    "Board" => Some(board.clone()),
                    "White" => Some(white.into()),
                    "Black" => Some("Ana, A".into()),
                    "Result" => Some("0-1".into()),
                    _ => None,
                }
            }
        };
        let named = tags("Bea, B");
        let scored = Scored::of(&t, |k| named(k).map(|v| &*Box::leak(v.into_boxed_str())));
        assert_eq!(scored, Some(Scored { round: 2, white: 2, black: 1, result: GameResult::BlackWins }));
        let other = tags("Dora, D");
        assert_eq!(
            Scored::of(&t, |k| other(k).map(|v| &*Box::leak(v.into_boxed_str()))),
            None,
            "not the TRF's players"
        );
    }
}
