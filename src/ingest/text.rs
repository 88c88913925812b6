//! Plain text sheets: optional `Key: value` header lines, then movetext.
//!
//! A file is read once, line by line, and [`RULES`] decide what each line
//! is: as the line arrives, whether a game starts at it or within it (asked
//! of the game so far, [`SoFar`]); then, in its game, what it is there
//! (asked of the game's reading, [`GameLines`]).

use super::error::IngestError;
use super::headers::{canonical, footer_kept, plausible_key, tag_name};
use super::movetext::{Dialect, read_movetext};
use super::printed::{
    Resignation, after_number, blacks_reply_before, draw_agreed, half_move_at_start, highest_half_move, is_prose,
    names_a_square, open_after, positioned, prose_within, resignation, resignation_apart, starts_with_word,
};
use crate::notation::language::{is_move_key, is_resign_word};
use crate::notation::lex::{is_castling_word, is_prose_word};
use crate::sheet::{GameResult, Sheet};

/// Reads a plain text file: one game, or several, one after another (a
/// game ends at its result where a new move 1 or headers follow, or where a
/// numbered heading starts the next: `Game 3`, `Partida 2`, `Партия №14`).
pub(crate) fn read(text: &str) -> Result<Vec<Sheet>, IngestError> {
    let text = &*super::damaged::dashes_put_back(text);
    let text = &*super::damaged::results_unbracketed(text);
    let text = &*super::glued::unglued(text);
    let text = &*list_marks_blanked(text);
    let text = &*rules_blanked(text);
    let mut file = FileLines::new();
    for (i, line) in text.split_inclusive('\n').enumerate() {
        file.take(i + 1, line);
    }
    let mut sheets = file.finish();
    footer_kept(&mut sheets);
    Ok(printed_once(shared_headings(sheets)))
}

/// Each game that starts past move 1 right after a game that starts at it,
/// given the moves before its first that the game before has (a heading
/// two games share: `1.f4 d5 2.Nf3 g6`, then `3.e3 …` and `3.g3 …`): those
/// entries, where the file has them, are its first.
fn shared_headings(mut sheets: Vec<Sheet>) -> Vec<Sheet> {
    for k in 1..sheets.len() {
        let Some(first) = sheets[k].entries.iter().find_map(|e| e.ply) else { continue };
        let before = &sheets[k - 1].entries;
        if first <= 1 || before.first().and_then(|e| e.ply) != Some(1) {
            continue;
        }
        let heading = before.iter().take_while(|e| e.ply.is_none_or(|p| p < first)).count();
        // The heading must reach the move before this game's first.
        let reaches = before[..heading].iter().filter_map(|e| e.ply).max().is_some_and(|p| p + 2 >= first);
        if heading > 0 && reaches {
            let mut entries = before[..heading].to_vec();
            entries.append(&mut sheets[k].entries);
            sheets[k].entries = entries;
        }
    }
    sheets
}

/// The sheets, a score printed twice read once: a sheet whose moves, as
/// written, are the first moves of the next one's and stop before them (a
/// heading's or a diagram's part score above the whole game) is that game,
/// said with [`Sheet::printed_twice`].
fn printed_once(sheets: Vec<Sheet>) -> Vec<Sheet> {
    let mut out: Vec<Sheet> = Vec::with_capacity(sheets.len());
    for mut sheet in sheets {
        let part = out.last().is_some_and(|p| {
            let texts = |s: &Sheet| s.entries.iter().map(|e| e.text.clone()).collect::<Vec<_>>();
            let (a, b) = (texts(p), texts(&sheet));
            a.len() >= 6 && a.len() < b.len() && b.starts_with(&a) && p.result.is_none()
        });
        if part {
            let p = out.pop().expect("the sheet before");
            sheet.printed_twice = Some(p.line);
            for (key, value) in p.headers {
                sheet.set_header(&key, &value);
            }
        }
        out.push(sheet);
    }
    out
}

/// A text file read line by line: the games read, the one being read, and
/// the lines waiting to know their game.
struct FileLines<'t> {
    /// The games read: those with entries (the last is kept in any case).
    sheets: Vec<Sheet>,
    /// The game being read.
    game: Game,
    /// That game as the file shows it so far: where the next one starts.
    so_far: SoFar,
    /// Lines that may head the next game (see [`HeadersBelow`]), with their
    /// numbers: a line after them tells which game they belong to.
    held: Vec<(usize, &'t str)>,
}

impl<'t> FileLines<'t> {
    fn new() -> Self {
        FileLines { sheets: Vec::new(), game: Game::new(1), so_far: SoFar::default(), held: Vec::new() }
    }

    /// Takes line `number`: where a game starts at it or within it, the
    /// game before ends there; the line goes to its game, or waits with the
    /// headers below a game's moves.
    fn take(&mut self, number: usize, line: &'t str) {
        let mut start = starts(&self.so_far, line);
        if matches!(start, Some(Start::NextGame)) {
            self.next_game_at(number, line);
            // The new game's first line, asked again: games may start
            // within it.
            start = starts(&self.so_far, line);
        }
        self.so_far.take_headers(line);
        self.so_far.take(line, start.as_ref());
        let within = match start {
            Some(Start::RunTogether(at) | Start::ToldWithin(at)) => at,
            _ => Vec::new(),
        };
        if within.is_empty() && self.so_far.headers.is_some() {
            self.held.push((number, line));
            return;
        }
        self.place_held();
        let mut from = 0;
        for at in within {
            // Up to a game that starts within the line, the game before's.
            self.game.read_line(number, &line[from..at]);
            self.next_game(number);
            from = at;
        }
        self.game.read_line(number, &line[from..]);
    }

    /// The next game starts at line `number`, or at the headers held above
    /// it where they are that game's.
    fn next_game_at(&mut self, number: usize, line: &str) {
        if !self.so_far.headers_head_next(line) {
            self.place_held();
        }
        let held = std::mem::take(&mut self.held);
        self.next_game(held.first().map_or(number, |&(first, _)| first));
        for (n, l) in held {
            self.game.read_line(n, l);
        }
        self.so_far = SoFar::default();
    }

    /// Ends the game being read (kept where it has entries) and starts the
    /// next at line `number`.
    fn next_game(&mut self, number: usize) {
        let sheet = std::mem::replace(&mut self.game, Game::new(number)).finish();
        if !sheet.entries.is_empty() {
            self.sheets.push(sheet);
        }
    }

    /// The lines held, read as the game being read's.
    fn place_held(&mut self) {
        for (n, l) in std::mem::take(&mut self.held) {
            self.game.read_line(n, l);
        }
    }

    fn finish(mut self) -> Vec<Sheet> {
        self.place_held();
        self.sheets.push(self.game.finish());
        self.sheets
    }
}

/// Where games start at a line as it arrives: the first rule of [`RULES`]
/// asked of the game so far that applies.
fn starts(so_far: &SoFar, line: &str) -> Option<Start> {
    RULES.iter().find_map(|rule| match rule.test() {
        Test::File(test) => test(so_far, line),
        Test::Game(_) => None,
    })
}

/// Where games start, as a rule asked of the game so far finds them.
enum Start {
    /// At the line, or at the headers held above it.
    NextGame,
    /// Within the line, at these bytes: games run together after a result
    /// (the whole line then measured as the last game's).
    RunTogether(Vec<usize>),
    /// Within the line, at these bytes: games told one after another (the
    /// line's part from the last measured as that game's).
    ToldWithin(Vec<usize>),
}

/// A game so far as the file shows it: what the rules of where a game
/// starts ask.
#[derive(Debug, Default)]
struct SoFar {
    /// A line of it holds a number, headers and headings aside: moves.
    numbered: bool,
    /// It ended (a result or a resignation), lines of words at most since.
    ended: bool,
    /// The highest move number it reached.
    reached: u32,
    /// The headers written after its moves, blank lines and remarks among
    /// them, up to this line.
    headers: Option<HeadersBelow>,
}

/// Headers written after a game's moves: the next game's where it starts
/// before a line of another kind comes.
#[derive(Debug, Clone, Copy)]
struct HeadersBelow {
    /// One names a key (`White: …`, `[Round "2"]`), not only the players
    /// (a line of prose may look like a players line).
    keyed: bool,
    /// The game had ended when they began (a result after its moves): none
    /// of them is its own.
    after_end: bool,
}

impl SoFar {
    /// Whether the headers held above `line`, where the next game starts at
    /// it, are that game's. A result line in the headers (`Result: 0-1`)
    /// ended no game: the headers above it are the next game's too.
    fn headers_head_next(&self, line: &str) -> bool {
        let header = names_a_header(line.trim());
        self.headers.is_some_and(|b| !self.ended || !header || b.after_end)
    }

    /// Takes a line into the headers below the moves where it is one of
    /// them, a blank line or a remark among them; another line ends them.
    fn take_headers(&mut self, line: &str) {
        let t = line.trim();
        let keyed = names_a_header(t) || tag_line(t).is_some();
        let heads = keyed || players_line(t).is_some();
        self.headers = match self.headers {
            _ if !self.numbered => None,
            None if heads => Some(HeadersBelow { keyed, after_end: self.ended }),
            Some(b) if heads || t.is_empty() || is_comment(t) => Some(HeadersBelow { keyed: b.keyed || keyed, ..b }),
            _ => None,
        };
    }

    /// Takes what a line tells of the game: its move numbers, and whether
    /// it ends the game. Where games start within it, the last is the game.
    fn take(&mut self, line: &str, start: Option<&Start>) {
        static ENDS: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
            regex::Regex::new(r"(?:^|\s)(?:1-0|0-1|1/2-1/2|½-½)(?:\[\d+\])?\s*$").expect("a valid pattern")
        });
        let t = line.trim();
        let (header, heading) = (names_a_header(t), is_heading(t));
        let t = match start {
            Some(Start::ToldWithin(at)) => at.last().map_or(t, |&k| line[k..].trim()),
            _ => t,
        };
        if matches!(start, Some(Start::RunTogether(_) | Start::ToldWithin(_))) {
            (self.numbered, self.ended, self.reached) = (true, false, 0);
        }
        if t.is_empty() {
            return;
        }
        let moves_line = t.bytes().any(|b| b.is_ascii_digit())
            && !header
            && !heading
            && players_line(t).is_none()
            && tag_line(t).is_none();
        self.numbered |= moves_line;
        // A game ended stays ended over the lines of words after it.
        let ends = ENDS.is_match(t) || resignation(t).is_some();
        self.ended = ends || (self.ended && !moves_line);
        if moves_line {
            // A line of moves, then words (`3 e3 Da5+ 0-1 « Plus courte partie … »`):
            // its moves up to the words.
            // Words, then moves (`The opening moves are: 1.e4 e6 2.d4 d5
            // 3.Nc3 Bb4.`): the moves after them.
            let notes = if is_prose(t) { prose_within(t) } else { Vec::new() };
            let moves_part = match notes.as_slice() {
                [] => t,
                [first, rest @ ..] if first.start == 0 => &t[first.end..rest.first().map_or(t.len(), |r| r.start)],
                [first, ..] => &t[..first.start],
            };
            self.reached =
                self.reached.max(highest_half_move(moves_part).div_ceil(2)).max(highest_bare_number(moves_part));
        }
    }
}

/// Whether a line starts with move 1: `1.`, `1 `, `1)`, or the move glued
/// to the number (`1d4 Cf6 2 Fg5`).
fn opens_at_move_one(t: &str) -> bool {
    t.starts_with("1.")
        || t.starts_with("1 ")
        || t.starts_with("1)")
        || t.starts_with("1\t")
        || (t.starts_with('1') && t[1..].starts_with(|c: char| matches!(c, 'a'..='h' | 'A'..='Z')))
}

/// Whether a line starts with Black's move 1: `1...`, `1. …`.
fn opens_at_blacks_move_one(t: &str) -> bool {
    ["1...", "1. ...", "1 ...", "1…", "1. …"].iter().any(|p| t.starts_with(p))
}

/// Whether a line's `Key:` is one a header has (`Black: …`, `Résultat: …`).
fn names_a_header(t: &str) -> bool {
    t.split_once(':').is_some_and(|(k, _)| canonical(k).is_some())
}

/// A line a typist leaves as a remark between games: `# board 3`,
/// `% copied by Ana`, `// round 2`, `; …`.
fn is_comment(line: &str) -> bool {
    line.starts_with(['#', '%', ';']) || line.starts_with("//")
}

/// Where games told one after another in a line of prose start (byte
/// offsets): at a move 1 outside brackets, after a result or a resignation
/// in words that ended a game that reached move 3 (`… 4.h3 Pe3 en Wit gaf
/// het op. … zet langer duurde: 1.d4 d5 2.b3 …`). `reached`: the move the
/// game the line starts in reached on the lines before; `ended`: whether it
/// ended there.
fn games_within(line: &str, reached: u32, ended: bool) -> Vec<usize> {
    let mut starts = Vec::new();
    let (mut from, mut reached, mut ended_before) = (0, reached, ended);
    let result = |w: &str| matches!(w.trim_end_matches(['.', ',', ';', ')']), "1-0" | "0-1" | "1/2-1/2" | "½-½");
    for (at, t) in positioned(line) {
        let opens = at > from && half_move_at_start(t) == Some(1) && open_after(0, &line[..at]) == 0;
        if !opens || !(moves_before(&line[at..]) || after_number(t).is_empty()) {
            continue;
        }
        let before = &line[from..at];
        let reach = reached.max(highest_half_move(before).div_ceil(2)).max(highest_bare_number(before));
        let ended = ended_before || resignation(before).is_some() || before.split_whitespace().any(result);
        if reach >= 3 && ended {
            starts.push(at);
            (from, reached, ended_before) = (at, 0, false);
        }
    }
    starts
}

/// The highest move number written without its full stop in `text`, a
/// move after it (`1 e4 c6 2 d4`, `1d4 Cf6 2 Fg5`): 0 where there is none.
fn highest_bare_number(text: &str) -> u32 {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let numbered = |(k, t): (usize, &&str)| {
        let digits = t.bytes().take_while(u8::is_ascii_digit).count();
        let n: u32 = t[..digits].parse().ok().filter(|n| (1..1000).contains(n))?;
        let glued = &t[digits..];
        let the_move = if glued.is_empty() { tokens.get(k + 1).copied()? } else { glued };
        move_shaped(the_move).then_some(n)
    };
    tokens.iter().enumerate().filter_map(numbered).max().unwrap_or(0)
}

/// `text` with the mark of each item of a list that starts with a move
/// number (`- 1 e4 c6 2 d4 d5 …`, `• 1.d4`) put to a space: the mark is no
/// box, and each item may be a game of its own.
fn list_marks_blanked(text: &str) -> std::borrow::Cow<'_, str> {
    let marked = |line: &str| {
        let t = line.trim_start();
        let mark = t.chars().next().filter(|c| matches!(c, '-' | '•' | '*' | '–'))?;
        let rest = &t[mark.len_utf8()..];
        (rest.starts_with(' ') && rest.trim_start().starts_with(|c: char| c.is_ascii_digit()))
            .then(|| line.len() - t.len()..line.len() - t.len() + mark.len_utf8())
    };
    if !text.split_inclusive('\n').any(|l| marked(l).is_some()) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        match marked(line) {
            Some(mark) => {
                out.push_str(&line[..mark.start]);
                out.push(' ');
                out.push_str(&line[mark.end..]);
            }
            None => out.push_str(line),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// `text` with each line drawn as a rule between games (`*****`, `-----`,
/// `=====`) put to spaces: it is no move, nor a result.
fn rules_blanked(text: &str) -> std::borrow::Cow<'_, str> {
    let rule = |line: &str| {
        let t = line.trim();
        let first = t.chars().next().filter(|c| matches!(c, '*' | '-' | '=' | '_' | '~' | '#' | '—' | '–'));
        first.is_some_and(|f| t.chars().count() >= 3 && t.chars().all(|c| c == f || c == ' '))
    };
    if !text.split_inclusive('\n').any(rule) {
        return std::borrow::Cow::Borrowed(text);
    }
    let lines = text.split_inclusive('\n');
    std::borrow::Cow::Owned(lines.map(|l| if rule(l) { blank(l).collect() } else { l.to_string() }).collect())
}

/// A result, then the next game's players (`Name,First - Name,First`, its
/// opening's code after them) and its move 1, on the same line.
static RUN_ON: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    let name = r"\p{Lu}[\p{L}.'’-]*,\s*\p{L}[\p{L}.'’-]*";
    regex::Regex::new(&format!(r"(?:1-0|0-1|1/2-1/2|½-½)\s+({name}\s+[-–—]\s+{name}(?:\s*\[[A-E]\d\d\])?\s+1\.)"))
        .expect("a valid pattern")
});

/// The players before move 1 on the line that starts a game run together
/// with the one before (see [`RUN_ON`]): White, Black and where the moves
/// start.
fn players_then_moves(line: &str) -> Option<(&str, &str, usize)> {
    let at = positioned(line).find(|(_, t)| t.starts_with("1."))?.0;
    let (white, black, _) = players_line(&line[..at]).filter(|_| at > 0)?;
    Some((white, black, at))
}

/// The rules that decide what a line is, tried in the order declared
/// ([`RULES`]): the first that applies decides, so each rule is written
/// for the lines the rules before it leave. The first rules are asked of a
/// line as it arrives, of the game so far in the file, and say where games
/// start; the line then goes to its game (headers below a game's moves wait
/// for a line that tells which game they belong to), where the others are
/// asked of the game's reading, and say what the line is in it.
#[derive(Debug, Clone, Copy)]
enum Rule {
    /// A numbered heading after a game's moves (`Partie 7`, `№ 12.`): the
    /// next game starts.
    HeadingAfterMoves,
    /// Move 1 after a game that ended (`1.c4 c5` below `… 1/2-1/2`).
    MoveOneAfterResult,
    /// A known header after a game that ended (`Black: Rossi` below `… 0-1`).
    HeaderAfterResult,
    /// White's move 1 after a game that reached move 3, a result written or
    /// not (a mate needs none).
    MoveOneAfterMoveThree,
    /// After a result, a White move the game played past move 1 (`3.g3 …`
    /// below `1.d4 d5 2.c4 e6 3.Nc3 … 1-0`): the next game goes on from a
    /// heading the two share.
    SharedHeadingGoesOn,
    /// Move 1 below headers written after a game's moves (`Round: 5`, then
    /// `1.e4`), a result written before them or not.
    MoveOneBelowHeaders,
    /// Games run together on one line, as PDF conversion leaves them: a
    /// result, the next game's players, its move 1 (`… 38.Qg7# 1-0
    /// Lind,Eva - Moreau,Paul [B12] 1.e4 c6 …`).
    GamesRunTogether,
    /// Games told one after another in a line of prose: a move 1 after a
    /// game that reached move 3 and ended, by a result or a resignation in
    /// words (`… 5.Qh5 and Black gave up. Then: 1.d4 d5 2.c4 …`).
    GamesToldWithin,
    /// In the reading where a note below a score that stops goes on with
    /// the game's moves (see [`Game`]): that note, words up to the move.
    NoteGoesOn,
    /// A line that closes a note of prose opened on a line before (`… the
    /// bishop was lost). 24.Qd2 Rc8`): prose up to the close, the rest a
    /// line of its own.
    NoteCloses,
    /// A PGN tag typed in a text sheet: `[Round "3"]`.
    Tag,
    /// A label or a sentence, a colon, then moves from move 1 on one line:
    /// `Score: 1.c4 e5 2.Nc3 Nf6`.
    LabelledMoves,
    /// Above the moves, the players, then move 1: `Lind,Eva - Moreau,Paul
    /// [B12] 1.e4 c6`.
    PlayersThenMoves,
    /// `Key: value`, a known key or, above the moves, any short name
    /// (`Round: 4`, `Weiß: Lind Schwarz: Moreau`); not a resignation after
    /// the moves (`White: resigns`).
    Headers,
    /// Above the moves, the players on a line of their own (`Lind - Moreau`,
    /// `Lind vs. Moreau, 1-0`), where none are named yet or the players line
    /// before named them (that one was a heading).
    Players,
    /// A line that starts with a word after a line that ended within a note
    /// of prose (`… the knight heads for the` then `outpost, as in the main
    /// game. 14. Qe2`): the note goes on up to the game's next move number.
    ParagraphGoesOn,
    /// A line without a move number after a note that ended in numbered
    /// moves (`… Black tries 15.Qe4+ Kd8 16.Qe8+` then `Kc7 17.Qxf7+`): the
    /// note's moves go on, prose.
    NoteMovesGoOn,
    /// Within a note opened among the moves on a line before: moves, the
    /// movetext reader reads the note past as a whole.
    InNoteOfMoves,
    /// Within a note of prose opened on a line before: prose.
    InNoteOfProse,
    /// After a line saying who resigned: what might have followed, kept,
    /// never played. Prose.
    AfterResignation,
    /// `Key: value` whose key no header has, nor a move (`Remark: …`,
    /// `K0: a`): prose.
    UnknownKey,
    /// A numbered heading (`Partie 7`): prose.
    Heading,
    /// Above the score, a line that does not read as moves: a page line
    /// with its date, a problem's piece list, a crosstable's cells. Prose.
    AboveTheScore,
    /// A note in brackets or parentheses that starts the line and goes on
    /// to the lines after: moves, the movetext reader reads it past whole.
    NoteOpens,
    /// A note that opens with another move for a half-move already played
    /// (`9...Be7, keeping the pawn` after `9...Nd7`): prose. A White move
    /// numbered again is Black's in a book's two columns (`12. Kt. takes
    /// P.` then `12. B. takes Kt.`).
    MovePlayedAgain,
    /// A numbered move, then the note on it (`14. Rxe6 fxe6. White has won
    /// the exchange.`): moves, the note among them.
    MovesThenNote,
    /// A line of prose.
    Prose,
    /// Moves with notes of prose among them (`12.Nd5 a typical jump
    /// 12...Bd8`).
    NotesAmongMoves,
    /// A last clause joined to the last move (`… Rf8-f1+ and mate.`): a note.
    JoinedClause,
    /// One algebraic move numbered for a half-move the game played, on a
    /// line of its own (`6.h3` after `6.Be2`): one of a list of
    /// alternatives printed one per line. Prose.
    Alternative,
    /// After the moves, names and numbers, no move (`A. Lind - P. Moreau,
    /// 1987`): prose.
    NamesOnly,
    /// Any other line: moves.
    Moves,
}

/// Every rule, in the order they are tried: as [`Rule`] declares them.
const RULES: [Rule; 32] = [
    Rule::HeadingAfterMoves,
    Rule::MoveOneAfterResult,
    Rule::HeaderAfterResult,
    Rule::MoveOneAfterMoveThree,
    Rule::SharedHeadingGoesOn,
    Rule::MoveOneBelowHeaders,
    Rule::GamesRunTogether,
    Rule::GamesToldWithin,
    Rule::NoteGoesOn,
    Rule::NoteCloses,
    Rule::Tag,
    Rule::LabelledMoves,
    Rule::PlayersThenMoves,
    Rule::Headers,
    Rule::Players,
    Rule::ParagraphGoesOn,
    Rule::NoteMovesGoOn,
    Rule::InNoteOfMoves,
    Rule::InNoteOfProse,
    Rule::AfterResignation,
    Rule::UnknownKey,
    Rule::Heading,
    Rule::AboveTheScore,
    Rule::NoteOpens,
    Rule::MovePlayedAgain,
    Rule::MovesThenNote,
    Rule::Prose,
    Rule::NotesAmongMoves,
    Rule::JoinedClause,
    Rule::Alternative,
    Rule::NamesOnly,
    Rule::Moves,
];

/// A rule's test, and what it is asked of.
#[derive(Clone, Copy)]
enum Test {
    /// Of a line as it arrives, of the game so far in the file: where games
    /// start at it or within it.
    File(fn(&SoFar, &str) -> Option<Start>),
    /// Of a line in its game, of the game's reading: what the line is.
    Game(for<'t> fn(&GameLines, &Looked<'t>) -> Option<Line<'t>>),
}

impl Rule {
    /// The rule's test: `None` where it does not apply. One arm a rule, in
    /// the order of [`RULES`]: split, the table would no longer read as one.
    fn test(self) -> Test {
        match self {
            Rule::HeadingAfterMoves => {
                Test::File(|so_far, line| next_game_if(so_far.numbered && is_heading(line.trim())))
            }
            Rule::MoveOneAfterResult => Test::File(|so_far, line| {
                next_game_if(so_far.numbered && so_far.ended && opens_at_move_one(line.trim()))
            }),
            Rule::HeaderAfterResult => {
                Test::File(|so_far, line| next_game_if(so_far.numbered && so_far.ended && names_a_header(line.trim())))
            }
            Rule::MoveOneAfterMoveThree => Test::File(|so_far, line| {
                let t = line.trim();
                next_game_if(
                    so_far.numbered && so_far.reached >= 3 && opens_at_move_one(t) && !opens_at_blacks_move_one(t),
                )
            }),
            Rule::SharedHeadingGoesOn => Test::File(|so_far, line| {
                let t = line.trim();
                let played =
                    half_move_at_start(t).is_some_and(|p| p > 2 && p.div_ceil(2) <= so_far.reached && p % 2 == 1);
                next_game_if(so_far.numbered && so_far.ended && !opens_at_move_one(t) && played)
            }),
            Rule::MoveOneBelowHeaders => Test::File(|so_far, line| {
                let t = line.trim();
                let keyed = so_far.headers.is_some_and(|b| b.keyed);
                let one = opens_at_move_one(t) || opens_at_blacks_move_one(t);
                next_game_if(so_far.numbered && keyed && so_far.reached >= 1 && one)
            }),
            Rule::GamesRunTogether => Test::File(|_, line| {
                let at: Vec<usize> = RUN_ON.captures_iter(line).filter_map(|c| c.get(1)).map(|m| m.start()).collect();
                (!at.is_empty()).then_some(Start::RunTogether(at))
            }),
            Rule::GamesToldWithin => Test::File(|so_far, line| {
                let t = line.trim();
                let at = if names_a_header(t) || is_heading(t) {
                    Vec::new()
                } else {
                    games_within(line, so_far.reached, so_far.ended)
                };
                (!at.is_empty()).then_some(Start::ToldWithin(at))
            }),
            Rule::NoteGoesOn => Test::Game(|g, l| {
                g.from_note.as_ref().is_some_and(|f| f.line == l.number).then(|| g.paragraph_goes_on_in(l.text))
            }),
            Rule::NoteCloses => Test::Game(|g, l| {
                (g.notes.open > 0 && g.notes.in_prose)
                    .then(|| closed_at(g.notes.open, l.text))
                    .flatten()
                    .map(Line::ClosesNote)
            }),
            Rule::Tag => Test::Game(|g, l| {
                (g.notes.open == 0).then(|| tag_line(l.text)).flatten().map(|(key, value)| Line::Tag(key, value))
            }),
            Rule::LabelledMoves => {
                Test::Game(|g, l| (g.notes.open == 0).then(|| labelled_moves(l.text)).flatten().map(Line::Labelled))
            }
            Rule::PlayersThenMoves => Test::Game(|g, l| {
                let above = g.notes.open == 0 && !g.progress.started;
                let (white, black, at) = above.then(|| players_then_moves(l.text)).flatten()?;
                Some(Line::PlayersThenMoves(white, black, at))
            }),
            Rule::Headers => Test::Game(|g, l| {
                let (key, value) = (g.notes.open == 0).then(|| header_line(l.text, g.progress.started)).flatten()?;
                Some(Line::Headers(key, value))
            }),
            Rule::Players => Test::Game(|g, l| {
                let above = g.notes.open == 0 && !g.progress.started;
                let above = above && (g.sheet.header("White").is_none() || g.players_line_seen);
                let (white, black, result) = above.then(|| players_line(l.text)).flatten()?;
                Some(Line::Players(white, black, result))
            }),
            Rule::ParagraphGoesOn => Test::Game(|g, l| {
                (g.before.paragraph_goes_on && starts_with_word(l.text)).then(|| g.paragraph_goes_on_in(l.text))
            }),
            Rule::NoteMovesGoOn => Test::Game(|g, l| {
                let unnumbered = half_move_at_start(l.text).is_none() && !l.text.trim().is_empty();
                (g.before.note_moves_go_on && unnumbered).then_some(Line::Prose)
            }),
            Rule::InNoteOfMoves => Test::Game(|g, _| (g.notes.open > 0 && !g.notes.in_prose).then_some(Line::Moves)),
            Rule::InNoteOfProse => Test::Game(|g, _| (g.notes.open > 0).then_some(Line::Prose)),
            Rule::AfterResignation => Test::Game(|g, l| {
                let goes_on = g.end.resigned_in_prose.is_some_and(|at| half_move_at_start(l.text) == Some(at + 1));
                (g.end.resigned.is_some() && !goes_on).then_some(Line::Prose)
            }),
            Rule::UnknownKey => Test::Game(|_, l| not_movetext(l.text).then_some(Line::Prose)),
            Rule::Heading => Test::Game(|_, l| is_heading(l.text).then_some(Line::Prose)),
            Rule::AboveTheScore => Test::Game(|g, l| {
                (!g.progress.started && !l.text.trim().is_empty() && !opens_a_score(l.text)).then_some(Line::Prose)
            }),
            Rule::NoteOpens => Test::Game(|_, l| {
                (l.text.trim_start().starts_with(['(', '[']) && open_after(0, l.text) > 0).then_some(Line::Moves)
            }),
            Rule::MovePlayedAgain => Test::Game(|g, l| {
                let reached = g.progress.reached;
                let again = half_move_at_start(l.text).is_some_and(|p| p < reached || (p == reached && p % 2 == 0));
                (!l.notes().is_empty() && again).then_some(Line::Prose)
            }),
            Rule::MovesThenNote => Test::Game(|_, l| {
                let first = l.notes().first()?;
                moves_before(&l.text[..first.start]).then(|| Line::ProseWithin(l.notes().to_vec()))
            }),
            Rule::Prose => Test::Game(|_, l| is_prose(l.text).then_some(Line::Prose)),
            Rule::NotesAmongMoves => {
                Test::Game(|_, l| (!l.notes().is_empty()).then(|| Line::ProseWithin(l.notes().to_vec())))
            }
            Rule::JoinedClause => Test::Game(|_, l| {
                joined_clause(l.text)
                    .map(|at| Line::ProseWithin(std::iter::once(at..l.text.trim_end().len()).collect()))
            }),
            Rule::Alternative => {
                Test::Game(|g, l| (g.progress.started && g.one_move_played_again(l.text)).then_some(Line::Prose))
            }
            Rule::NamesOnly => Test::Game(|g, l| (g.progress.started && names_only(l.text)).then_some(Line::Prose)),
            Rule::Moves => Test::Game(|_, _| Some(Line::Moves)),
        }
    }
}

/// A rule's finding that the next game starts at the line, where `starts`.
fn next_game_if(starts: bool) -> Option<Start> {
    starts.then_some(Start::NextGame)
}

/// What a line of a text sheet is.
enum Line<'t> {
    /// `[FEN "..."]`: a PGN tag typed in a text sheet.
    Tag(&'t str, &'t str),
    /// `Key: value`, or two on one line (`Weiß: Reddmann Schwarz: Schmidt`).
    Headers(&'t str, &'t str),
    /// `Marshall - Capablanca`: White, Black and the result where written.
    Players(&'t str, &'t str, Option<GameResult>),
    /// `Chess Log: 1. d4 d5`: a label, then moves from this byte on.
    Labelled(usize),
    /// `Nowak,Jan - Kowalski,Piotr [C21] 1.e4 e5`: the players, then moves
    /// from this byte on.
    PlayersThenMoves(&'t str, &'t str, usize),
    /// A note, a heading, a date line: kept as a comment.
    Prose,
    /// Moves with prose among them, in these byte ranges.
    ProseWithin(Vec<std::ops::Range<usize>>),
    /// Moves, or what a note in brackets opened on a line before holds.
    Moves,
    /// The end of a note of prose from the lines before, up to this byte;
    /// then a line of its own.
    ClosesNote(usize),
}

/// A line as a game's rules look at it: its number, its text, and the notes
/// of prose among its moves, found once where a rule asks for them.
struct Looked<'t> {
    number: usize,
    text: &'t str,
    notes: std::cell::OnceCell<Vec<std::ops::Range<usize>>>,
}

impl<'t> Looked<'t> {
    fn new(number: usize, text: &'t str) -> Self {
        Looked { number, text, notes: std::cell::OnceCell::new() }
    }

    /// The notes of prose among the line's moves, in byte ranges.
    fn notes(&self) -> &[std::ops::Range<usize>] {
        self.notes.get_or_init(|| {
            let mut prose = prose_within(self.text);
            // `27. Rd1 27. Qe2 also loses. 27... Nf3+`: the move after a number
            // said again, told in words, is a note up to the game's next move.
            if let Some(note) = move_said_again(self.text) {
                prose.retain(|r| r.end <= note.start || r.start >= note.end);
                prose.push(note);
                prose.sort_by_key(|r| r.start);
            }
            prose
        })
    }
}

/// One game of a text file, its lines read as they come. Where the score
/// stops, no result written, and a note of prose below it goes on with the
/// next move (`… a pretty finish: 21. Rxh7+! Kxh7 22. Qh5+ and Black gave
/// up`), the lines from that note on are read a second way too, the note's
/// moves as the game's: the reading with more entries is the game. The
/// second is dropped as soon as the game's own moves go on.
struct Game {
    reading: GameLines,
    goes_on: Option<GoesOn>,
}

/// A game read from a note on as going on with the game's moves: its
/// movetext and headers before the note are the game's (which, its moves
/// begun, only grow), up to where they stood.
struct GoesOn {
    movetext_from: usize,
    headers_from: usize,
    reading: GameLines,
}

impl GoesOn {
    /// This reading whole, the game's part before the note put before it.
    fn after(self, game: &GameLines) -> GameLines {
        let GoesOn { movetext_from, headers_from, reading: mut again } = self;
        again.movetext.insert_str(0, &game.movetext[..movetext_from]);
        again.sheet.headers = game.sheet.headers[..headers_from].to_vec();
        for (key, value) in again.from_note.take().map(|f| f.headers).unwrap_or_default() {
            again.sheet.set_header(&key, &value);
        }
        again
    }
}

impl Game {
    fn new(line: usize) -> Self {
        Game { reading: GameLines::new(line), goes_on: None }
    }

    /// Reads line `number` (or the part of it that is this game's).
    fn read_line(&mut self, number: usize, line: &str) {
        let kind = self.reading.kind(number, line);
        // The reading as it stands before a note that may go on with the
        // game: the second reading starts from it.
        let may = self.goes_on.is_none() && self.reading.may_number_next(&kind, line);
        let before = may.then(|| self.reading.fork(number));
        let noted = self.reading.note_goes_on;
        self.reading.take_line(number, line, kind);
        if let Some(goes_on) = &mut self.goes_on {
            goes_on.reading.read_line(number, line);
        } else if let Some(mut goes_on) = before.filter(|_| self.reading.note_goes_on != noted) {
            goes_on.reading.read_line(number, line);
            self.goes_on = Some(goes_on);
        }
        // The game's own moves reached the note's: the score did not stop there.
        let reached = self.reading.progress.reached;
        if self.reading.note_goes_on.is_none_or(|n| n.1 <= reached) {
            self.goes_on = None;
        }
    }

    fn finish(self) -> Sheet {
        let Game { reading, goes_on } = self;
        let note = reading.note_goes_on;
        let Some(goes_on) = goes_on else { return reading.finish() };
        let again = goes_on.after(&reading);
        let (sheet, mut again) = (reading.finish(), again.finish());
        if again.entries.len() <= sheet.entries.len() {
            return sheet;
        }
        // Said, so that an arbiter checks the game went on as the prose tells.
        again.moves_in_note = note;
        again
    }
}

/// Reading one game of a text file, line by line.
#[derive(Clone)]
struct GameLines {
    sheet: Sheet,
    /// The movetext: header and prose lines blanked or braced, not removed,
    /// so that line and column numbers of the moves stay those of the file.
    movetext: String,
    progress: Progress,
    notes: Notes,
    before: LineBefore,
    end: Ending,
    /// White and Black were read from a line of their own (`A - B`).
    players_line_seen: bool,
    /// The first note of prose that numbers the move after the last the
    /// game reached, where no result was written before it: its line and
    /// that half-move.
    note_goes_on: Option<(usize, u32)>,
    /// In the reading where a note goes on with the game's moves (see
    /// [`Game`]): that note's line, and the headers set since.
    from_note: Option<FromNote>,
}

/// A reading from a note on (see [`GoesOn`]): the note's line, and the
/// headers set since, set at its end after the game's from before the note.
#[derive(Clone)]
struct FromNote {
    line: usize,
    headers: Vec<(String, String)>,
}

/// How far a game's moves have come.
#[derive(Clone, Copy, Default)]
struct Progress {
    /// A line of moves was read.
    started: bool,
    /// The highest half-move a move number of the game's moves so far
    /// names (numbers in notes aside).
    reached: u32,
}

/// Parentheses, brackets and braces opened on lines before and not
/// closed, and whether a line of prose opened them (the lines up to
/// the closing one are prose too) or a line of moves (the movetext
/// reader reads the note past as a whole).
#[derive(Clone, Copy, Default)]
struct Notes {
    open: usize,
    in_prose: bool,
}

/// What the line before left open for the next.
#[derive(Clone, Copy, Default)]
struct LineBefore {
    /// It was a note that ended in numbered moves.
    note_moves_go_on: bool,
    /// It ended within a note of prose: a paragraph that may go on at the
    /// start of the next line.
    paragraph_goes_on: bool,
}

/// How a game ended, as its lines tell.
#[derive(Clone, Default)]
struct Ending {
    /// A result was written among the moves (`... Bf6 0-1`).
    result_written: bool,
    /// The result a line of prose ends with (`Remis – ... 1/2-1/2`).
    prose_result: Option<GameResult>,
    /// Who resigned, where a line says so.
    resigned: Option<Resignation>,
    /// The half-move the game had reached when a line of prose of its own
    /// said who resigned: a line of moves that numbers the next one shows
    /// the words were about something else (`Mejor es 5...Axf3, abandona
    /// la pareja de alfiles`), and the score goes on.
    resigned_in_prose: Option<u32>,
    /// The half-move whose number stands before a resignation in its box's
    /// place: played, but not written there.
    untold: Option<u32>,
    /// The half-move reached when a note after it said the game was drawn
    /// (`og jafntefli samið`): the result if no move came after.
    drawn_at: Option<u32>,
}

/// Whether moves hold a result or a resignation (`... Bf6 0-1`, `1:0.`,
/// `17.uppg.`).
fn has_result(moves: &str) -> bool {
    moves.split_whitespace().any(|t| {
        let word = after_number(t);
        GameResult::parse(t.trim_end_matches(['.', ',', ';'])).is_some_and(|r| r != GameResult::Unknown)
            || super::printed::is_resignation(word)
    })
}

/// A numbered heading that starts a game: `Game 3`, `Partida 2`, `Partie
/// Nr. 5`, `Partij No 2995.`, `Партия №14.`, `№ 28.`.
fn is_heading(line: &str) -> bool {
    static HEADING: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(
            r"(?i)^\s*(?:(?:game|partida|partie|partita|partij|spiel|partie nr\.?|партия)\s*(?:№|no\.?|nr\.?)?\s*\d+|№\s*\d+)\b[.:]?",
        )
        .expect("a valid pattern")
    });
    HEADING.is_match(line)
}

impl GameLines {
    fn new(line: usize) -> Self {
        GameLines {
            sheet: Sheet { line, ..Sheet::default() },
            movetext: String::new(),
            progress: Progress::default(),
            notes: Notes::default(),
            before: LineBefore::default(),
            end: Ending::default(),
            players_line_seen: false,
            note_goes_on: None,
            from_note: None,
        }
    }

    /// Reads line `number` (or the part of it that is this game's).
    fn read_line(&mut self, number: usize, line: &str) {
        let kind = self.kind(number, line);
        self.take_line(number, line, kind);
    }

    /// What line `number` is in this game: the first rule of [`RULES`] asked
    /// of a game's reading that applies.
    fn kind<'t>(&self, number: usize, line: &'t str) -> Line<'t> {
        let looked = Looked::new(number, line);
        let kind = RULES.iter().find_map(|rule| match rule.test() {
            Test::File(_) => None,
            Test::Game(test) => test(self, &looked),
        });
        kind.expect("the last rule takes any line")
    }

    /// Takes line `number` as `kind`, and what it leaves open for the next.
    fn take_line(&mut self, number: usize, line: &str, kind: Line<'_>) {
        if !line.trim().is_empty() {
            self.before.note_moves_go_on = matches!(kind, Line::Prose) && ends_in_numbered_moves(line);
        }
        self.before.paragraph_goes_on = match &kind {
            Line::Prose => !line.trim().is_empty(),
            Line::ProseWithin(notes) => notes.last().is_some_and(|n| n.end >= line.trim_end().len()),
            _ => false,
        };
        if self.notes.open == 0 {
            self.notes.in_prose = matches!(kind, Line::Prose);
        }
        // A header's brackets are its own (`Negras: D. Jojua (Georgia,
        // 2.516). … (Francia, 5-3-2011.`): they open no note.
        let header = matches!(kind, Line::Tag(..) | Line::Headers(..) | Line::Players(..));
        self.take(number, line, kind);
        if !header {
            self.notes.open = open_after(self.notes.open, line);
        }
    }

    fn take(&mut self, number: usize, line: &str, kind: Line<'_>) {
        match kind {
            Line::Tag(key, value) => {
                self.set_header(&tag_name(key), value);
                self.movetext.extend(blank(line));
            }
            Line::Headers(key, value) => self.headers(line, key, value),
            Line::Players(white, black, result) => self.players(line, white, black, result),
            Line::PlayersThenMoves(white, black, at) => {
                self.set_header("White", white);
                self.set_header("Black", black);
                self.movetext.extend(blank(&line[..at]));
                self.moves_from(number, &line[at..]);
            }
            Line::Labelled(at) => {
                // The label kept as a comment; the moves read as a line of
                // their own, a note after them found as on any line.
                let label = line[..at].trim();
                self.movetext.push('{');
                self.movetext.extend(label.chars().map(|c| if matches!(c, '{' | '}') { ' ' } else { c }));
                self.movetext.push('}');
                self.moves_from(number, &line[at..]);
            }
            Line::Prose => self.prose(number, line),
            Line::ClosesNote(at) => {
                self.prose(number, &line[..at]);
                let rest = &line[at..];
                self.notes.open = 0;
                let kind = self.kind(number, rest);
                self.notes.in_prose = matches!(kind, Line::Prose);
                self.take(number, rest, kind);
            }
            Line::ProseWithin(prose) => self.prose_within(line, prose),
            Line::Moves => self.moves(line),
        }
    }

    /// `Key: value` lines: each header taken, a `Result` as the result.
    fn headers(&mut self, line: &str, key: &str, value: &str) {
        for (key, value) in split_headers(key, value) {
            let tag = tag_name(key);
            if tag == "Result"
                && let Some(r) = GameResult::parse(value)
            {
                self.sheet.result = self.sheet.result.or(Some(r));
            }
            let value = if matches!(tag.as_str(), "White" | "Black") { player_name(value) } else { value };
            self.set_header(&tag, value);
        }
        self.movetext.extend(blank(line));
    }

    fn players(&mut self, line: &str, white: &str, black: &str, result: Option<GameResult>) {
        // A second such line before the moves names the players; the
        // first was a heading (`DEFESA SICILIANA - VARIANTE DO DRAGÃO`).
        if std::mem::replace(&mut self.players_line_seen, true) {
            self.sheet.headers.retain(|(k, _)| k != "White" && k != "Black");
        }
        self.set_header("White", white);
        self.set_header("Black", black);
        self.sheet.result = self.sheet.result.or(result);
        self.movetext.extend(blank(line));
    }

    /// The moves that follow a label or the players on their line, a note
    /// among them found as on any line.
    fn moves_from(&mut self, number: usize, rest: &str) {
        let prose = prose_within(rest);
        let kind = if prose.is_empty() { Line::Moves } else { Line::ProseWithin(prose) };
        self.take(number, rest, kind);
    }

    /// A line of moves, or of what a note opened among the moves holds.
    fn moves(&mut self, line: &str) {
        // The score goes on past words of giving up: they were no resignation.
        let at_start = line.split_whitespace().next().and_then(half_move_at_start);
        if self.end.resigned_in_prose.is_some_and(|at| at_start == Some(at + 1)) {
            (self.end.resigned, self.end.resigned_in_prose) = (None, None);
        }
        self.progress.started |= !line.trim().is_empty();
        self.end.result_written |= has_result(line);
        if self.notes.open == 0 {
            self.reach(line);
        }
        // `Bg4+ (winning the queen, so White resigns immediately)`.
        if line.contains(['(', '[']) {
            self.end.resigned = self.end.resigned.take().or_else(|| resignation(line));
        }
        self.movetext.push_str(line);
    }

    /// Whether taking a line of this kind may keep it as the note the game
    /// goes on in ([`Self::note_numbers_next`]): prose with a number, after
    /// moves and no result.
    fn may_number_next(&self, kind: &Line<'_>, line: &str) -> bool {
        matches!(kind, Line::Prose | Line::ClosesNote(_))
            && self.progress.started
            && !self.end.result_written
            && line.bytes().any(|b| b.is_ascii_digit())
    }

    /// A header set: in a reading from a note on, kept to be set at its end
    /// (see [`FromNote`]).
    fn set_header(&mut self, key: &str, value: &str) {
        match &mut self.from_note {
            Some(from_note) => from_note.headers.push((key.to_string(), value.to_string())),
            None => self.sheet.set_header(key, value),
        }
    }

    /// A reading from the note on line `number`, starting from this one as
    /// it stands: the movetext and headers so far not copied but shared, so
    /// that a copy costs little whatever came before.
    fn fork(&mut self, number: usize) -> GoesOn {
        let movetext = std::mem::take(&mut self.movetext);
        let headers = std::mem::take(&mut self.sheet.headers);
        let mut reading = self.clone();
        reading.from_note = Some(FromNote { line: number, headers: Vec::new() });
        let (movetext_from, headers_from) = (movetext.len(), headers.len());
        (self.movetext, self.sheet.headers) = (movetext, headers);
        GoesOn { movetext_from, headers_from, reading }
    }

    /// The game read: its movetext read as entries, and its result, as
    /// written, or as a resignation or a draw in words tells it.
    fn finish(self) -> Sheet {
        let GameLines { mut sheet, movetext, end, progress, .. } = self;
        let written = sheet.result.or(end.prose_result);
        sheet.result = None;
        // About one box per six characters of movetext ("Cf3+, "): the entries
        // are not moved again and again as they grow.
        sheet.entries.reserve(movetext.len() / 6);
        let line = sheet.line;
        read_movetext(&movetext, line, 1, Dialect::Plain, &mut sheet);
        let reached = progress.reached;
        sheet.result = sheet
            .result
            .or(written)
            .or_else(|| end.resigned.map(|r| loser_result(&sheet, &r)))
            .or_else(|| (end.drawn_at == Some(reached) && reached > 0).then_some(GameResult::Draw));
        sheet
    }

    /// Whether `line` is one algebraic move numbered for a half-move the game
    /// has played (`4.h3` after `4.Be2`, `4.Nbd2`): one of a list of
    /// alternatives printed one per line. (A book's two columns number
    /// Black's move as White's: descriptive, no square.)
    fn one_move_played_again(&self, line: &str) -> bool {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some(p) = tokens.first().and_then(|t| half_move_at_start(t)) else { return false };
        let glued = after_number(tokens[0]);
        let moves: Vec<&str> =
            std::iter::once(glued).chain(tokens[1..].iter().copied()).filter(|t| !t.is_empty()).collect();
        p <= self.progress.reached && moves.len() == 1 && names_a_square(moves[0]) && move_shaped(moves[0])
    }

    /// A line that starts with words after a line that ended within a note
    /// of prose (`naturalmente e' collocato in f6 ... con il Cc3. 5. cxd5`):
    /// the note goes on up to the move number that goes on with the game
    /// (the next, or White's after Black's reply: a later one is a note's).
    fn paragraph_goes_on_in<'t>(&self, line: &'t str) -> Line<'t> {
        let tokens: Vec<(usize, &str)> = positioned(line).collect();
        let reply = |k: usize| blacks_reply_before(&tokens[..=k], line, self.progress.reached);
        let goes_on = (0..tokens.len()).find_map(|k| {
            let at = tokens[k].0;
            (open_after(0, &line[..at]) == 0)
                .then(|| match half_move_at_start(&line[at..]) {
                    Some(p) if p == self.progress.reached + 1 => Some(k),
                    Some(p) if p == self.progress.reached + 2 && reply(k) => Some(k - 1),
                    _ => None,
                })
                .flatten()
        });
        let Some(k) = goes_on else { return Line::Prose };
        let at = tokens[k].0;
        let rest = prose_within(&line[at..]).into_iter().map(|r| r.start + at..r.end + at);
        Line::ProseWithin(std::iter::once(0..at).chain(rest).collect())
    }

    /// The half-moves `moves` reaches, taken where its numbers go on from
    /// the game's (a footnote's `25.` at move 13 is not the game's).
    fn reach(&mut self, moves: &str) {
        let first = moves.split_whitespace().find_map(half_move_at_start);
        if first.is_some_and(|p| self.progress.reached == 0 || p <= self.progress.reached + 4) {
            self.progress.reached = self.progress.reached.max(highest_half_move(moves));
        }
    }

    /// Keeps the first note, once moves were read, that numbers the move
    /// after the last the game reached (`... . 20. Hxf6! gxf6 21. Bd4!`
    /// after `19. Dxd3 Bf6`): the game may go on in it.
    fn note_numbers_next(&mut self, number: usize, note: &str) {
        let known = self.note_goes_on.is_some_and(|n| n.1 > self.progress.reached);
        // After a resignation the prose tells what might have followed, but
        // for a move whose box was left to the words of the resignation.
        let resigned = self.end.resigned.is_some() && self.end.untold != Some(self.progress.reached + 1);
        if !self.progress.started || known || self.end.result_written || resigned {
            return;
        }
        let next = positioned(note).any(|(at, _)| {
            half_move_at_start(&note[at..]) == Some(self.progress.reached + 1) && open_after(0, &note[..at]) == 0
        });
        if next {
            self.note_goes_on = Some((number, self.progress.reached + 1));
        }
    }

    /// A note saying the game was drawn, after the moves reached so far.
    fn draw_closing(&mut self, note: &str) {
        if self.progress.started && draw_agreed(note) {
            self.end.drawn_at = Some(self.progress.reached);
        }
    }

    /// The result a note ends with (`Remis – ... 1/2-1/2`, `... was het 1-0.`).
    fn result_closing(&mut self, note: &str) {
        let last = note.split_whitespace().next_back().unwrap_or("");
        if self.progress.started && last.contains(['-', '/', '½']) {
            self.end.prose_result =
                self.end.prose_result.or(GameResult::parse(last).filter(|r| *r != GameResult::Unknown));
        }
    }

    /// A line of prose, kept as a comment where it stands but not read as
    /// entries: each would be searched for a move it cannot be. Who
    /// resigned, or the result it ends with, is taken.
    fn prose(&mut self, number: usize, line: &str) {
        self.note_numbers_next(number, line);
        if self.end.resigned.is_none() {
            self.end.resigned = resignation(line);
            // Only words that name no side and go on in their clause: `Black
            // resigned.` ends the game, whatever the page prints after it.
            let reached = Some(self.progress.reached).filter(|_| self.progress.started);
            let talk = self.end.resigned.as_ref().filter(|r| r.side.is_none() && r.after >= 2);
            self.end.resigned_in_prose = talk.and(reached);
        }
        self.draw_closing(line);
        self.result_closing(line);
        let text: String = line.trim().chars().map(|c| if matches!(c, '{' | '}') { ' ' } else { c }).collect();
        self.movetext.push('{');
        self.movetext.push_str(&text);
        self.movetext.push('}');
        self.movetext.push_str(&line[line.trim_end().len()..]);
    }

    /// Moves with prose among them: the moves stay where they are, in their
    /// columns; each note is kept as a comment, its braces in the places of
    /// the spaces around it.
    fn prose_within(&mut self, line: &str, notes: Vec<std::ops::Range<usize>>) {
        self.progress.started = true;
        let mut at = 0;
        for part in notes.iter().scan(0, |from, note| Some(&line[std::mem::replace(from, note.end)..note.start])) {
            self.reach(part);
            self.end.result_written |= has_result(part);
        }
        for mut note in notes {
            // After a note saying who resigned, the rest of the line is what
            // might have followed: in the note, never played.
            // (`Schwarz gab wegen des Matts nach` … `25. Txf8# auf.`: the
            // verb's particle after the moves.)
            let resigned =
                resignation(&line[note.clone()]).or_else(|| resignation_apart(&line[note.start..], note.len()));
            self.result_closing(&line[note.clone()]);
            // A draw said in the line's last note, no move after it.
            let after = line[note.end..].trim();
            if after.is_empty() || GameResult::parse(after).is_some() {
                self.draw_closing(&line[note.clone()]);
            }
            if resigned.is_some() {
                note.end = line.trim_end().len();
                // `17) les blancs jouent et les noirs abandonnent !`: the
                // next move's number, its box left to words; the move may
                // be told below.
                let last = line[..note.start].split_whitespace().next_back().unwrap_or("");
                let bare = last.trim_end_matches(['.', ')', '…']);
                // (Played by the side that did not resign: `4) les blancs
                // abandonnent` is White giving up instead of a 4th move.)
                let mover = if self.progress.reached.is_multiple_of(2) {
                    shakmaty::Color::White
                } else {
                    shakmaty::Color::Black
                };
                let slot = bare.bytes().all(|b| b.is_ascii_digit())
                    && half_move_at_start(last) == Some(self.progress.reached + 1);
                if slot && resigned.as_ref().and_then(|r| r.side) == Some(!mover) {
                    self.end.untold = Some(self.progress.reached + 1);
                }
            }
            self.end.resigned = self.end.resigned.take().or(resigned.clone());
            let text = &line[note.clone()];
            let inner = text.trim_end();
            // The `{` takes the place of a space before the note where there
            // is one (any other whitespace is kept, and the `{` added).
            let before = &line[at..note.start];
            let open = before.ends_with([' ', '\t']);
            self.movetext.push_str(&before[..before.len() - usize::from(open)]);
            self.movetext.push('{');
            self.movetext.push_str(inner);
            self.movetext.push('}');
            // The whitespace after it, less what the `}` (and a `{` added) took.
            let taken = usize::from(!open) + 1;
            self.movetext.extend(text[inner.len()..].chars().skip(taken));
            at = note.end;
            if resigned.is_some() {
                break;
            }
        }
        self.movetext.push_str(&line[at..]);
    }
}

/// A move after its number said again, then words, then the number of the
/// game's next half-move: `27. Rd1 27. Qe2 also loses. 27... Nf3+` (the
/// second `27.` up to `27...`). Where the words stop without the game's
/// next number (`8. ... Sxd7. 8. ... Jxd7!! a bílý se vzdal`), which move is
/// the game's the numbers do not tell: none.
fn move_said_again(line: &str) -> Option<std::ops::Range<usize>> {
    let tokens: Vec<(usize, &str)> = positioned(line).filter(|&(at, _)| open_after(0, &line[..at]) == 0).collect();
    // Each move number with the index of its move's token.
    let numbered: Vec<(usize, u32, usize)> = tokens
        .iter()
        .enumerate()
        .filter_map(|(i, &(_, t))| {
            let p = half_move_at_start(t)?;
            let bare = after_number(t);
            let m = if bare.is_empty() {
                i + 1 + usize::from(tokens.get(i + 1).is_some_and(|(_, n)| matches!(*n, "..." | "…")))
            } else {
                i
            };
            Some((i, p, m))
        })
        .collect();
    for w in numbered.windows(3) {
        let [(_, p, m), (j, q, n), (k, r, _)] = [w[0], w[1], w[2]];
        // The first number's move alone before the second number.
        if !(p == q && r == p + 1 && m + 1 == j && n < k) {
            continue;
        }
        let words = tokens[n + 1..k].iter().filter(|(_, t)| is_word(t)).count();
        let sentence = tokens[..k].last().is_some_and(|(_, t)| t.ends_with('.'));
        if words >= 1 && sentence {
            return Some(tokens[j].0..tokens[k - 1].0 + tokens[k - 1].1.len());
        }
    }
    None
}

/// A word of three letters or more that names no move (`also`, `loses`).
fn is_word(t: &str) -> bool {
    let t = t.trim_matches(|c: char| !c.is_alphanumeric());
    t.chars().count() >= 3 && t.chars().all(char::is_alphabetic) && !move_shaped(t)
}

/// Where a last clause joined to the last move starts (`… Vf8-f1+ a mat.`,
/// `… Hd5 i wygrały.`): a joining word of a language's table (see
/// [`crate::notation::Language::joiners`]) after a move, then words only.
fn joined_clause(line: &str) -> Option<usize> {
    let tokens: Vec<(usize, &str)> = positioned(line).collect();
    let k = tokens.iter().rposition(|(_, t)| crate::notation::language::is_joiner(&t.to_lowercase()))?;
    let after_move = k > 0 && tokens[k - 1].1.bytes().any(|b| b.is_ascii_digit());
    let words = &tokens[k + 1..];
    let only_words = !words.is_empty()
        && words.iter().all(|(_, t)| {
            let w = t.trim_matches(|c: char| !c.is_alphanumeric());
            w.chars().count() >= 2 && w.chars().all(char::is_alphabetic) && !move_shaped(w)
        });
    (after_move && only_words).then_some(tokens[k].0)
}

/// Where the notes open before `line` (`open` of them) close in it: the
/// byte after the closing parenthesis or bracket.
fn closed_at(open: usize, line: &str) -> Option<usize> {
    let mut depth = open;
    for (i, c) in line.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            _ => {}
        }
        if depth == 0 {
            return Some(i + c.len_utf8());
        }
    }
    None
}

/// Whether a line ends in moves with a move number among its last tokens
/// (`... noir : 15.De4+! Rd8 16.De8+`).
fn ends_in_numbered_moves(line: &str) -> bool {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let a_move = |t: &&&str| {
        let t = t.trim_end_matches(|c: char| !c.is_alphanumeric());
        t.len() >= 2 && t.bytes().any(|b| b.is_ascii_digit()) && t.chars().filter(|c| c.is_alphabetic()).count() <= 4
    };
    let last = tokens.iter().rev().take_while(a_move).count();
    last > 0 && tokens[tokens.len() - last..].iter().any(|t| half_move_at_start(t).is_some())
}

/// Whether the start of a line is a move number and a move: `9. Kpe1:d2`,
/// `12...Nf6`, `1 d4 Cf6`, `1d4 Cf6`.
fn moves_before(start: &str) -> bool {
    let mut tokens = start.split_whitespace();
    let Some(first) = tokens.next() else { return false };
    let rest = after_number(first);
    let digits = first.bytes().take_while(u8::is_ascii_digit).count();
    let numbered = half_move_at_start(first).is_some() || (1..=3).contains(&digits);
    let a_move =
        |t: &str| t.chars().any(|c| c.is_ascii_digit()) && t.chars().filter(|c| c.is_alphabetic()).count() <= 4;
    numbered && (if rest.is_empty() { tokens.next().is_some_and(a_move) } else { a_move(rest) })
}

/// A token shaped like a move in any notation the reader knows, its signs
/// aside: `e4`, `Sf3`, `Кре1`, `exd5`, `ed`, `Jg1-f3`, `O-O`, `0-0-0`, `P-K4`,
/// `Kt-B3`, `PxP`, `♘f3`. Not a name, a year, an opening's code (`C33`), a
/// crosstable's cell (`½`, `x`) or a word of one letter.
fn move_shaped(token: &str) -> bool {
    static MOVE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(
            r"^(?:[O0o]-[O0o](?:-[O0o])?|\p{Lu}?\p{Ll}?[a-h]?[1-8]?[x:×—–-]?[a-h][1-8](?:=?\p{Lu})?|[a-h][x:]?[a-h][1-8]?|(?:Kt|[PNBRQK])[-x×](?:Kt|[PNBRQK])?[A-Z]{0,2}[1-8]?|[♔-♟][a-h]?[1-8]?[x:]?[a-h][1-8])$",
        )
        .expect("a valid pattern")
    });
    MOVE.is_match(token.trim_end_matches(['!', '?', '+', '#', ',', ';', '.']))
}

/// Whether a line holds names and numbers and nothing a move may be
/// (`W. Muir-F. Stratholt, 1934`, `HOLLANDSCHE PARTIJ`): a name of three
/// letters or more among them.
fn names_only(line: &str) -> bool {
    fn bare(t: &str) -> &str {
        t.trim_matches(|c: char| matches!(c, '.' | ',' | ';' | ':' | '(' | ')' | '"' | '“' | '”'))
    }
    let number = |t: &str| !t.is_empty() && t.chars().all(|c| c.is_ascii_digit() || matches!(c, '.' | '/' | '-'));
    let word = |t: &str| {
        t.chars().all(|c| c.is_alphabetic() || matches!(c, '-' | '.' | '\'' | '’'))
            && !move_shaped(t)
            && !t.chars().all(|c| matches!(c, 'O' | 'o' | '0' | '-'))
    };
    // A name is a word no move is (`Stratholt`; not `AxC`, `PDxA`, `Axg`),
    // and castling in words is a move.
    let name = |t: &str| t.starts_with(char::is_uppercase) && is_prose_word(t);
    let tokens: Vec<&str> = line.split_whitespace().map(bare).filter(|t| !t.is_empty()).collect();
    tokens.iter().any(|t| word(t) && name(t))
        && tokens.iter().all(|t| {
            (word(t) && !is_castling_word(t) && !is_resign_word(&t.to_lowercase()))
                || (number(t) && GameResult::parse(t).is_none())
        })
}

/// Whether a line above the score may hold its first moves: two tokens or
/// more shaped like moves (`1.d4 Jf6`, `Korčnoj-Ivkov 1.d4`, `e4 d5 (The
/// Centre Counter)`, OCR's `2.Kgl — ЇЗ`), or one with at most one other word
/// (`1. e4`, `4.Be2`). Not a page line (`Diario del Norte - 14.01.2017,
/// página 44`), a problem's piece list (`W.: Kg1, Qd1, Rf1, Nc3 (4)`) or a
/// crosstable's cells (`1`, `½`, `Nováková`).
fn opens_a_score(line: &str) -> bool {
    let tokens: Vec<&str> = positioned(line)
        .filter(|&(at, t)| open_after(0, &line[..at]) == 0 && !t.starts_with(['(', '[']))
        .map(|(_, t)| t)
        .collect();
    let listed = tokens.iter().filter(|t| t.ends_with(',') && t.starts_with(char::is_uppercase) && move_shaped(t));
    let number = |t: &&str| half_move_at_start(t).is_some() || (t.len() <= 3 && t.bytes().all(|b| b.is_ascii_digit()));
    if listed.count() >= 2 && !tokens.iter().any(number) {
        return false;
    }
    let movish = |t: &&&str| {
        let bare = t.trim_matches(|c: char| !c.is_alphanumeric());
        let letter_and_digit = bare.chars().any(|c| c.is_ascii_digit()) && bare.chars().any(char::is_alphabetic);
        move_shaped(t) || (letter_and_digit && bare.chars().count() <= 8)
    };
    // A move number and what follows it (`1. ? ?`, `1. 5254 5755`, `1. P - K
    // 4`, `1.  P. to K's 4th.`): the readers of each notation decide.
    // (Not a date: `25.08.2011 05:43 | Trade Fair`.)
    let date = |t: &&str| {
        let marks = t.trim_start_matches(|c: char| c.is_ascii_digit());
        marks.starts_with(['.', ')']) && marks[1..].starts_with(|c: char| c.is_ascii_digit())
    };
    let numbered = tokens.first().is_some_and(|t| half_move_at_start(t).is_some() && !date(t));
    // (Not a numbered item of words: `10. Turniej o Puchar Bieszczadów.`,
    // `1. Plachetka (CSRS) - 9,5 p.`; castling in words is a move.)
    let second = line.split_whitespace().nth(1);
    let worded = tokens.first().is_some_and(|t| after_number(t).is_empty())
        && second.is_some_and(|w| is_word(w) && w.starts_with(char::is_uppercase) && !is_castling_word(w));
    if numbered && second.is_some() {
        return !worded;
    }
    let moves = tokens.iter().filter(movish).count();
    let numbers = tokens.iter().filter(|t| !movish(t) && number(t)).count();
    moves >= 2 || (moves == 1 && tokens.len() - numbers <= 2)
}

/// `Chess Log: 1. d4 d5 2. Bf4`, `... del verano de 2010: 1 d4 d5 2 Cf3`: a
/// label or a sentence, a colon, and moves from move 1 on one line. Where
/// the moves start.
fn labelled_moves(line: &str) -> Option<usize> {
    line.match_indices(':').map(|(i, _)| i + 1).find(|&at| {
        let v = line[at..].trim_start();
        let numbered = v.starts_with("1.") || v.starts_with("1 ") || v.starts_with("1)");
        let numbers = v.split_whitespace().take(12).filter(|t| t.starts_with(|c: char| c.is_ascii_digit())).count();
        numbered && numbers >= 3 && !line[..at - 1].trim().is_empty()
    })
}

/// A `Key: value` line whose key is none a header has, nor a move (`K0: a`,
/// `Nota: ...`): a key of letters, digits, spaces, `_` and `-` that starts
/// with a letter and names no square, then `:` and a space or the line's end.
fn not_movetext(line: &str) -> bool {
    let Some((key, value)) = line.split_once(':') else { return false };
    let k = key.trim();
    let b = k.as_bytes();
    let square = b.windows(2).any(|w| matches!(w[0].to_ascii_lowercase(), b'a'..=b'h') && matches!(w[1], b'1'..=b'8'));
    let castle = k.chars().all(|c| matches!(c, 'O' | 'o' | '0' | '-'));
    (2..=30).contains(&k.chars().count())
        && k.chars().next().is_some_and(char::is_alphabetic)
        && k.chars().all(|c| c.is_alphanumeric() || matches!(c, ' ' | '_' | '-'))
        && !square
        && !castle
        && !is_move_key(&k.to_lowercase())
        && value.chars().next().is_none_or(char::is_whitespace)
}

/// A PGN tag pair on a line of its own: `[FEN "8/8/8/8/8/8/8/K6k w - - 0 1"]`.
fn tag_line(line: &str) -> Option<(&str, &str)> {
    let inner = line.trim().strip_prefix('[')?.strip_suffix(']')?;
    let (key, value) = inner.split_once(char::is_whitespace)?;
    let value = value.trim().strip_prefix('"')?.strip_suffix('"')?;
    (key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') && !key.is_empty()).then_some((key, value))
}

/// A header's value cut where another known header starts in it:
/// `Weiß: Reddmann Schwarz: Schmidt` is White and Black.
fn split_headers<'a>(key: &'a str, value: &'a str) -> Vec<(&'a str, &'a str)> {
    let mut out = Vec::new();
    let (mut key, mut value) = (key, value);
    // A later `Key:` whose key, a word alone, is a known header.
    while let Some((at, next)) = value.match_indices(':').find_map(|(i, _)| {
        let before = value[..i].trim_end();
        let start = before.rfind(char::is_whitespace).map_or(0, |j| j + 1);
        (start > 0 && canonical(&before[start..]).is_some()).then_some((start, &before[start..]))
    }) {
        let colon = value[at..].find(':').map_or(value.len(), |c| at + c);
        out.push((key, value[..at].trim()));
        key = next;
        value = value[colon + 1..].trim();
    }
    out.push((key, value));
    out
}

/// A player's name in a header line, without what a text prints after it:
/// `D. Jojua (Georgia, 2.516). Defensa Siciliana (B42).` is `D. Jojua`.
fn player_name(value: &str) -> &str {
    let name = value.split_once(" (").map_or(value, |(name, _)| name).trim();
    if name.is_empty() { value } else { name }
}

/// A line of the players above the moves: `Marshall - Capablanca`,
/// `Anderssen vs. Dufresne`, `Tal – Botvinnik, 1-0`: White, Black and the
/// result where written.
fn players_line(line: &str) -> Option<(&str, &str, Option<GameResult>)> {
    static PLAYERS: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        let name = r"[\p{L}](?:[\p{L}.,' ]*[\p{L}.])?";
        // A rating after a name (`Rouze,X (1780)`), the opening's code after
        // the pair (`[B30]`, `Novák – Horák C33`), a place and year (`KORCHNOY x KARPOV, 1974.`,
        // `Leonhardt, P. – N. N., Hamburg 1912`).
        let rating = r"(?:\s*\(\d{3,4}\))?";
        regex::Regex::new(&format!(
            r"^\s*({name}){rating}\s+(-|–|—|vs\.?|v\.?|x|×)\s+({name}){rating}\s*(?:\[[A-E]\d\d\]|[A-E]\d\d)?\s*(?:[,;]\s*(?:(?<result>1-0|0-1|1/2-1/2|½-½)|[\p{{L}}. ]*\d{{4}}\.?))?\s*$"
        ))
        .expect("a valid pattern")
    });
    let c = PLAYERS.captures(line)?;
    let (white, black) = (c.get(1)?.as_str().trim_end_matches(','), c.get(3)?.as_str().trim_end_matches(','));
    // `O - O` is castling, not two players; `A x C` a capture.
    if [white, black].iter().any(|n| n.eq_ignore_ascii_case("o")) {
        return None;
    }
    if matches!(&c[2], "x" | "×") && [white, black].iter().any(|n| n.chars().filter(|c| c.is_alphabetic()).count() < 3)
    {
        return None;
    }
    Some((white, black, c.name("result").and_then(|r| GameResult::parse(r.as_str()))))
}

/// `Key: value`, where the key is one a header can have. Before the moves any
/// short name is a key; after them only known ones (`Result: 1-0` at the end).
fn header_line(line: &str, moves_started: bool) -> Option<(&str, &str)> {
    let (key, value) = line.split_once(':')?;
    // `Weiß: aufgegeben` after the moves: White resigned.
    if moves_started && resignation(line).is_some() {
        return None;
    }
    let known = canonical(key).is_some();
    (known || (!moves_started && plausible_key(key))).then(|| (key.trim(), value.trim()))
}

/// The result of a resignation: the side named lost; else the player named
/// (`y Jojua se rindió`, Jojua Black's player); else the side to move after
/// the last entry.
fn loser_result(sheet: &Sheet, r: &Resignation) -> GameResult {
    let names = |tag: &str| -> Vec<String> {
        sheet.header(tag).unwrap_or("").split(|c: char| !c.is_alphabetic()).map(str::to_lowercase).collect()
    };
    let (white, black) = (names("White"), names("Black"));
    let named = |name: &[String]| r.by.iter().any(|w| w.chars().count() >= 3 && name.contains(w));
    let by_name = match (named(&white), named(&black)) {
        (true, false) => Some(shakmaty::Color::White),
        (false, true) => Some(shakmaty::Color::Black),
        _ => None,
    };
    let last_ply = sheet.entries.iter().rev().find_map(|e| e.ply).unwrap_or(0);
    let to_move = if last_ply % 2 == 1 { shakmaty::Color::Black } else { shakmaty::Color::White };
    GameResult::lost_by(r.side.or(by_name).unwrap_or(to_move))
}

/// `line` blanked: its characters spaces, its line break kept, so that the
/// lines after it keep their numbers.
fn blank(line: &str) -> impl Iterator<Item = char> + '_ {
    line.chars().map(|c| if c == '\n' { '\n' } else { ' ' })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rules_are_tried_as_declared_those_of_the_file_first() {
        assert!(RULES.iter().enumerate().all(|(k, &rule)| rule as usize == k));
        assert_eq!(RULES.len(), Rule::Moves as usize + 1);
        // A line is asked where games start as it arrives, what it is once
        // in its game.
        let file = RULES.iter().take_while(|r| matches!(r.test(), Test::File(_))).count();
        assert!(file > 0 && RULES[file..].iter().all(|r| matches!(r.test(), Test::Game(_))));
    }
}
