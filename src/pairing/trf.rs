//! The FIDE Tournament Report File (TRF-16, FIDE Handbook C.04 Annex 2):
//! fixed columns, one record a line, its kind in columns 1–3. Read here:
//! `012` (the tournament's name) and `001` (a player, with one 10-column
//! block per round from column 92: opponent, colour, result). Other records
//! are left alone.

use std::collections::HashMap;

use super::tournament::{Pairing, Player, Tournament};
use crate::sheet::GameResult;

/// Why a TRF was refused: where, and which field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TrfError {
    #[error("line {line}, {field} (columns {from}–{to}): {why}: \"{text}\"")]
    Field { line: usize, field: &'static str, from: usize, to: usize, text: String, why: &'static str },
    #[error("line {line}: start number {start} is already the player of line {first}")]
    DuplicateStart { line: usize, start: u32, first: usize },
    #[error("line {line}, round {round} (columns {from}–{to}): {why}")]
    Round { line: usize, round: u32, from: usize, to: usize, why: String },
    #[error("no player record (a line starting 001): not a TRF")]
    NoPlayers,
}

/// First column of round 1's block, and the width of a block.
pub(super) const ROUNDS_FROM: usize = 92;
pub(super) const BLOCK: usize = 10;

/// One round of one player, as written.
struct Played {
    line: usize,
    player: u32,
    round: u32,
    opponent: u32,
    colour: char,
    result: char,
}

impl Tournament {
    /// Reads a TRF's bytes (UTF-8, else Latin-1).
    pub fn parse(bytes: &[u8]) -> Result<Tournament, TrfError> {
        parse(bytes)
    }
}

/// Reads a TRF's bytes: UTF-8 (with or without a BOM), else Latin-1, as
/// pairing programs write both.
pub(crate) fn parse(bytes: &[u8]) -> Result<Tournament, TrfError> {
    let text = decode(bytes);
    let mut t = Tournament::default();
    let mut lines_of: HashMap<u32, usize> = HashMap::new();
    let mut played = Vec::new();
    // Each player's half-points in each round, for the boards' order.
    let mut halves: HashMap<u32, Vec<u32>> = HashMap::new();
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        let chars: Vec<char> = line.trim_end().chars().collect();
        let code: String = chars.iter().take(3).collect();
        match code.as_str() {
            "012" if t.name.is_empty() => t.name = field(&chars, 5, chars.len().max(5)),
            "022" if t.site.is_empty() => t.site = field(&chars, 5, chars.len().max(5)),
            "042" if t.date.is_empty() => t.date = field(&chars, 5, chars.len().max(5)),
            "222" if t.time_control.is_none() => t.time_control = time_control(&field(&chars, 5, chars.len().max(5))),
            "001" => {
                let (player, rounds, points) = player(n, &chars)?;
                halves.insert(player.start, points);
                if let Some(&first) = lines_of.get(&player.start) {
                    return Err(TrfError::DuplicateStart { line: n, start: player.start, first });
                }
                lines_of.insert(player.start, n);
                played.extend(rounds);
                t.players.push(player);
            }
            _ => {}
        }
    }
    if t.players.is_empty() {
        return Err(TrfError::NoPlayers);
    }
    t.pairings = pairings(&played, &lines_of)?;
    number_boards(&mut t.pairings, &halves);
    Ok(t)
}

fn decode(bytes: &[u8]) -> String {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        // Latin-1: each byte is the code point of the same number.
        Err(_) => bytes.iter().map(|&b| char::from(b)).collect(),
    }
}

/// Columns `from..=to` (1-based) of a line, trimmed; blank past its end.
pub(super) fn field(chars: &[char], from: usize, to: usize) -> String {
    let end = to.min(chars.len());
    if from > end {
        return String::new();
    }
    chars[from - 1..end].iter().collect::<String>().trim().to_string()
}

/// A number field; blank is `None`.
fn number<T: std::str::FromStr>(
    line: usize,
    chars: &[char],
    name: &'static str,
    from: usize,
    to: usize,
) -> Result<Option<T>, TrfError> {
    let text = field(chars, from, to);
    if text.is_empty() {
        return Ok(None);
    }
    text.parse().map(Some).map_err(|_| TrfError::Field { line, field: name, from, to, text, why: "not a number" })
}

/// A `001` record: the player, their games, and their half-points in each round.
fn player(line: usize, chars: &[char]) -> Result<(Player, Vec<Played>, Vec<u32>), TrfError> {
    let start = number::<u32>(line, chars, "start number", 5, 8)?.filter(|&s| s > 0).ok_or_else(|| {
        TrfError::Field { line, field: "start number", from: 5, to: 8, text: field(chars, 5, 8), why: "missing" }
    })?;
    let name = field(chars, 15, 47);
    if name.is_empty() {
        return Err(TrfError::Field { line, field: "name", from: 15, to: 47, text: name, why: "missing" });
    }
    let p = Player {
        start,
        sex: field(chars, 10, 10),
        title: field(chars, 11, 13).to_uppercase(),
        name,
        rating: number(line, chars, "rating", 49, 52)?.unwrap_or(0),
        federation: field(chars, 54, 56),
        fide_id: number(line, chars, "FIDE id", 58, 68)?.unwrap_or(0),
        birth: field(chars, 70, 79),
        points: field(chars, 81, 84),
        rank: number(line, chars, "rank", 86, 89)?.unwrap_or(0),
    };
    let mut rounds = Vec::new();
    let mut points = Vec::new();
    let mut from = ROUNDS_FROM;
    let mut round = 1;
    while from <= chars.len() {
        let to = from + BLOCK - 3;
        let opponent = number::<u32>(line, chars, "opponent", from, from + 3)?.unwrap_or(0);
        let colour = one_of(line, chars, "colour", from + 5, char::to_ascii_lowercase, "wb- ", "not w, b or -")?;
        let result =
            one_of(line, chars, "result", from + 7, char::to_ascii_uppercase, "10=+-WDLHFUZ ", "not a TRF result")?;
        // A forfeit may be written without a colour: no game was played.
        let forfeit = matches!(result, '+' | '-') && !matches!(colour, 'w' | 'b');
        if opponent > 0 && !forfeit {
            if !matches!(colour, 'w' | 'b') {
                let why = format!("player {start} meets {opponent} with no colour (w or b)");
                return Err(TrfError::Round { line, round, from, to, why });
            }
            rounds.push(Played { line, player: start, round, opponent, colour, result });
        }
        points.push(match result {
            '1' | '+' | 'W' | 'F' | 'U' => 2,
            '=' | 'D' | 'H' => 1,
            _ => 0,
        });
        from += BLOCK;
        round += 1;
    }
    Ok((p, rounds, points))
}

/// The rounds' games, each seen from White's record and checked against
/// Black's.
fn pairings(played: &[Played], lines_of: &HashMap<u32, usize>) -> Result<Vec<Pairing>, TrfError> {
    let of: HashMap<(u32, u32), &Played> = played.iter().map(|p| ((p.round, p.player), p)).collect();
    let block = |round: u32| {
        let from = ROUNDS_FROM + BLOCK * (round as usize - 1);
        (from, from + BLOCK - 3)
    };
    let mut out = Vec::new();
    for p in played {
        let me = p.player;
        let (from, to) = block(p.round);
        let Some(&other_line) = lines_of.get(&p.opponent) else {
            let why = format!("opponent {} of player {me} has no player record", p.opponent);
            return Err(TrfError::Round { line: p.line, round: p.round, from, to, why });
        };
        let agrees = of.get(&(p.round, p.opponent)).is_some_and(|o| o.opponent == me && o.colour != p.colour);
        if !agrees {
            let why = format!(
                "player {me} meets {} as {}, which player {}'s record (line {other_line}) does not say",
                p.opponent,
                if p.colour == 'w' { "White" } else { "Black" },
                p.opponent
            );
            return Err(TrfError::Round { line: p.line, round: p.round, from, to, why });
        }
        if p.colour == 'w' {
            let (result, forfeit) = (result_of(p.result), matches!(p.result, '+' | '-'));
            out.push(Pairing { round: p.round, board: 0, white: me, black: p.opponent, result, forfeit });
        }
    }
    Ok(out)
}

/// Numbers each round's boards as pairing programs order them (FIDE
/// C.04.2): by the higher score of the two players before the round, then
/// the sum of their scores, then the better starting rank of the two.
fn number_boards(pairings: &mut [Pairing], halves: &HashMap<u32, Vec<u32>>) {
    let before =
        |player: u32, round: u32| -> u32 { halves.get(&player).map_or(0, |h| h.iter().take(round as usize - 1).sum()) };
    pairings.sort_by_key(|p| {
        let (w, b) = (before(p.white, p.round), before(p.black, p.round));
        (p.round, std::cmp::Reverse(w.max(b)), std::cmp::Reverse(w + b), p.white.min(p.black))
    });
    for i in 0..pairings.len() {
        pairings[i].board =
            if i > 0 && pairings[i - 1].round == pairings[i].round { pairings[i - 1].board + 1 } else { 1 };
    }
}

/// PGN's `TimeControl` of a TRF26 `222` record; `None` when it says none PGN can.
pub(crate) fn time_control(text: &str) -> Option<String> {
    let pgn = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit() || b"+/:*-".contains(&b));
    pgn(text).then(|| text.to_string())
}

/// A result from White's record. A forfeit (`+`, `-`) has no game on the board.
fn result_of(c: char) -> Option<GameResult> {
    match c {
        '1' | 'W' => Some(GameResult::WhiteWins),
        '0' | 'L' => Some(GameResult::BlackWins),
        '=' | 'D' => Some(GameResult::Draw),
        _ => None,
    }
}

/// The one character at column `at` of a round's block, case folded by `fold`
/// as TRF writes it (colours lower, results upper), refused unless in `allowed`.
fn one_of(
    line: usize,
    chars: &[char],
    name: &'static str,
    at: usize,
    fold: fn(&char) -> char,
    allowed: &str,
    why: &'static str,
) -> Result<char, TrfError> {
    let c = fold(&field(chars, at, at).chars().next().unwrap_or(' '));
    if allowed.contains(c) {
        Ok(c)
    } else {
        Err(TrfError::Field { line, field: name, from: at, to: at, text: c.to_string(), why })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `001` record in the TRF's columns, with its rounds (opponent, colour, result).
    pub(crate) fn record(
        start: u32,
        title: &str,
        name: &str,
        rating: u32,
        id: u64,
        rounds: &[(u32, char, char)],
    ) -> String {
        let mut s =
            format!("001 {start:>4} m{title:>3} {name:<33} {rating:>4} CZE {id:>11} 1985/03/27  1.0 {start:>4}");
        for (o, c, r) in rounds {
            s.push_str(&format!("  {o:>4} {c} {r}"));
        }
        s
    }

    fn two() -> String {
        format!(
            "012 Test Open\n{}\n{}\n",
            record(1, "GM", "Navara, David", 2690, 309095, &[(2, 'w', '1')]),
            record(2, "GM", "Carlsen, Magnus", 2830, 1503014, &[(1, 'b', '0')])
        )
    }

    #[test]
    fn a_two_player_trf_reads() {
        let t = parse(two().as_bytes()).unwrap();
        assert_eq!(t.name, "Test Open");
        assert_eq!(t.players[0].name, "Navara, David");
        assert_eq!(t.players[0].rating, 2690);
        assert_eq!(t.players[1].fide_id, 1503014);
        assert_eq!(t.players[1].title, "GM");
        assert_eq!(
            t.pairings,
            [Pairing { round: 1, board: 1, white: 1, black: 2, result: Some(GameResult::WhiteWins), forfeit: false }]
        );
    }

    #[test]
    fn a_record_the_opponent_does_not_confirm_is_refused() {
        let broken = two().replace("   1 b 0", "   1 w 0");
        let e = parse(broken.as_bytes()).unwrap_err();
        assert!(matches!(e, TrfError::Round { line: 2, round: 1, .. }), "{e}");
    }

    #[test]
    fn a_forfeit_without_a_colour_is_no_game_and_a_bye_no_pairing() {
        let text = format!(
            "{}\n{}\n{}\n",
            record(1, "", "A, B", 0, 0, &[(2, '-', '+'), (0, '-', 'H')]),
            record(2, "", "C, D", 0, 0, &[(1, '-', '-'), (3, 'w', '=')]),
            record(3, "", "E, F", 0, 0, &[(0, '-', 'U'), (2, 'b', '=')])
        );
        let t = parse(text.as_bytes()).unwrap();
        assert_eq!(
            t.pairings,
            [Pairing { round: 2, board: 1, white: 2, black: 3, result: Some(GameResult::Draw), forfeit: false }]
        );
        // With its colours, a forfeit is a board of its round, where no game is played.
        let text = format!(
            "{}\n{}\n",
            record(1, "", "A, B", 0, 0, &[(2, 'w', '+')]),
            record(2, "", "C, D", 0, 0, &[(1, 'b', '-')])
        );
        let t = parse(text.as_bytes()).unwrap();
        assert_eq!(t.pairings, [Pairing { round: 1, board: 1, white: 1, black: 2, result: None, forfeit: true }]);
    }

    #[test]
    fn boards_go_by_the_score_before_the_round_then_the_starting_rank() {
        // Round 1: 3 beats 1, 4 beats 2. Round 2: the leaders 3 and 4 on board 1.
        let text = [
            record(1, "", "A, A", 0, 0, &[(3, 'w', '0'), (2, 'w', '=')]),
            record(2, "", "B, B", 0, 0, &[(4, 'b', '0'), (1, 'b', '=')]),
            record(3, "", "C, C", 0, 0, &[(1, 'b', '1'), (4, 'w', '1')]),
            record(4, "", "D, D", 0, 0, &[(2, 'w', '1'), (3, 'b', '0')]),
        ]
        .join("\n");
        let t = parse(text.as_bytes()).unwrap();
        let boards: Vec<(u32, u32, u32, u32)> =
            t.pairings.iter().map(|p| (p.round, p.board, p.white, p.black)).collect();
        assert_eq!(boards, [(1, 1, 1, 3), (1, 2, 4, 2), (2, 1, 3, 4), (2, 2, 1, 2)]);
    }

    #[test]
    fn a_rating_that_is_no_number_is_refused_with_its_line_and_columns() {
        let broken = two().replace("2830", "28x0");
        let e = parse(broken.as_bytes()).unwrap_err();
        assert_eq!(e.to_string(), "line 3, rating (columns 49–52): not a number: \"28x0\"");
    }
}
