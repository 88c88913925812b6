//! Plain text sheets: optional `Key: value` header lines, then movetext.

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
    let starts = game_starts(text);
    let mut sheets = Vec::with_capacity(starts.len());
    for (k, &(line, at)) in starts.iter().enumerate() {
        let end = starts.get(k + 1).map_or(text.len(), |&(_, e)| e);
        // Read from its first line: line numbers stay the file's.
        let sheet = read_game(&text[at..end], line)?;
        if !sheet.entries.is_empty() || starts.len() == 1 || k + 1 == starts.len() {
            sheets.push(sheet);
        }
    }
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

/// Where each game of a text file starts: its line (1-based) and byte offset.
fn game_starts(text: &str) -> Vec<(usize, usize)> {
    static ENDS: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"(?:^|\s)(?:1-0|0-1|1/2-1/2|½-½)(?:\[\d+\])?\s*$").expect("a valid pattern")
    });
    let (mut starts, mut moves, mut ended) = (vec![(1, 0)], false, false);
    // The highest move number of the game so far: a game that reached move 3
    // and a line that starts again at `1.` (White's move) is the next game,
    // a result written or not (a mate needs none).
    let mut reached = 0;
    let mut at = 0;
    // The headers written after the game's moves, blank lines and remarks
    // among them, up to this line.
    let mut block: Option<Headers> = None;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let t = line.trim();
        // `1.`, `1 `, `1)`, or the move glued to the number (`1d4 Cf6 2 Fg5`).
        let first_move = t.starts_with("1.")
            || t.starts_with("1 ")
            || t.starts_with("1)")
            || t.starts_with("1\t")
            || (t.starts_with('1') && t[1..].starts_with(|c: char| matches!(c, 'a'..='h' | 'A'..='Z')));
        let blacks_first = ["1...", "1. ...", "1 ...", "1…", "1. …"].iter().any(|p| t.starts_with(p));
        let header = t.split_once(':').is_some_and(|(k, _)| canonical(k).is_some());
        let heading = is_heading(t);
        // After a result, a line that numbers a move the game played goes
        // on from a heading the two games share (`1.f4 d5 2.Nf3 g6`, then
        // `3.e3 … 1-0` and `3.g3 … 0-1`).
        let heading_again = ended
            && !first_move
            && half_move_at_start(t).is_some_and(|p| p > 2 && p.div_ceil(2) <= reached && p % 2 == 1);
        // Headers after the moves and then a move 1: the next game's, its
        // own result written or not.
        let headed = block.is_some_and(|b| b.keyed) && reached >= 1 && (first_move || blacks_first);
        let again = (first_move && !blacks_first && reached >= 3) || heading_again || headed;
        if moves && ((ended && (first_move || header)) || heading || again) {
            // A result line in the headers (`Result: 0-1`) ended no game:
            // the headers above it are the next game's too.
            let from = block.filter(|b| !ended || !header || b.after_end).map(|b| b.from);
            starts.push(from.unwrap_or((i + 1, at)));
            (moves, ended, reached) = (false, false, 0);
        }
        let keyed = header || tag_line(t).is_some();
        let heads = keyed || players_line(t).is_some();
        block = match block {
            _ if !moves => None,
            None if heads => Some(Headers { from: (i + 1, at), keyed, after_end: ended }),
            Some(b) if heads || t.is_empty() || is_comment(t) => Some(Headers { keyed: b.keyed || keyed, ..b }),
            _ => None,
        };
        // Games run together on one line, as PDF conversion leaves them:
        // `… 31.Dh7# 1-0 Nowak,Jan - Kowalski,Piotr [C21] 1.e4 e5 …`.
        let run_on = starts.len();
        for next in RUN_ON.captures_iter(line).filter_map(|c| c.get(1)) {
            starts.push((i + 1, at + next.start()));
            (moves, ended, reached) = (true, false, 0);
        }
        let run_on = starts.len() > run_on;
        // Games told one after another within the line: the rest of the
        // line is the last one's.
        let within = if header || heading || run_on { Vec::new() } else { games_within(line, reached, ended) };
        for &next in &within {
            starts.push((i + 1, at + next));
            (moves, ended, reached) = (true, false, 0);
        }
        let t = within.last().map_or(t, |&k| line[k..].trim());
        if !t.is_empty() {
            let moves_line = t.bytes().any(|b| b.is_ascii_digit())
                && !header
                && !heading
                && players_line(t).is_none()
                && tag_line(t).is_none();
            moves |= moves_line;
            // A game ended stays ended over the lines of words after it.
            let ends = ENDS.is_match(t) || resignation(t).is_some();
            ended = ends || (ended && !moves_line);
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
                reached = reached.max(highest_half_move(moves_part).div_ceil(2)).max(highest_bare_number(moves_part));
            }
        }
        at += line.len();
    }
    starts
}

/// Headers written after a game's moves (see [`game_starts`]).
#[derive(Debug, Clone, Copy)]
struct Headers {
    /// Their first line (1-based) and byte offset: where the next game
    /// starts, if one does before a line of another kind.
    from: (usize, usize),
    /// One names a key (`White: …`, `[Round "2"]`), not only the players
    /// (a line of prose may look like a players line).
    keyed: bool,
    /// The game had ended when they began (a result after its moves): none
    /// of them is its own.
    after_end: bool,
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

/// Reading one game of a text file, line by line.
struct GameLines {
    sheet: Sheet,
    /// The movetext: header and prose lines blanked or braced, not removed,
    /// so that line and column numbers of the moves stay those of the file.
    movetext: String,
    moves_started: bool,
    /// Who resigned, where a line says so.
    resigned: Option<Resignation>,
    /// The half-move reached when a note after it said the game was drawn
    /// (`og jafntefli samið`): the result if no move came after.
    drawn_at: Option<u32>,
    /// The result a line of prose ends with (`Remis – ... 1/2-1/2`).
    prose_result: Option<GameResult>,
    /// Parentheses, brackets and braces opened on lines before and not
    /// closed, and whether a line of prose opened them (the lines up to
    /// the closing one are prose too) or a line of moves (the movetext
    /// reader reads the note past as a whole).
    open: usize,
    open_in_prose: bool,
    /// White and Black were read from a line of their own (`A - B`).
    players_line_seen: bool,
    /// The line before was a note that ended in numbered moves.
    note_moves_go_on: bool,
    /// The line before ended within a note of prose: a paragraph that may
    /// go on at the start of this line.
    paragraph_goes_on: bool,
    /// The highest half-move a move number of the game's moves so far
    /// names (numbers in notes aside).
    reached: u32,
    /// The line being read (1-based, the file's).
    line: usize,
    /// The first note of prose that numbers the move after the last the
    /// game reached, where no result was written before it: its line and
    /// that half-move.
    note_goes_on: Option<(usize, u32)>,
    /// A result was written among the moves (`... Bf6 0-1`).
    result_written: bool,
    /// The half-move whose number stands before a resignation in its box's
    /// place: played, but not written there.
    untold: Option<u32>,
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

/// Reads one game of a text file, its text starting at line `line`.
fn read_game(text: &str, line: usize) -> Result<Sheet, IngestError> {
    let mut sheet = read_game_with(text, line, None)?;
    // The score stops, no result written, and a paragraph below goes on
    // with the next move (`Staðan kom upp ... 20. Hxf6! gxf6 21. Bd4! ...
    // og svartur gafst upp`): the game is read again with that paragraph's
    // moves as the game's.
    let Some(note) = sheet.moves_in_note.take() else { return Ok(sheet) };
    let mut again = read_game_with(text, line, Some(note.0))?;
    if again.entries.len() <= sheet.entries.len() {
        return Ok(sheet);
    }
    // Said, so that an arbiter checks the game went on as the prose tells.
    again.moves_in_note = Some(note);
    Ok(again)
}

/// [`read_game`], the line `goes_on` (if any) read as a paragraph that goes
/// on with the game's moves.
fn read_game_with(text: &str, line: usize, goes_on: Option<usize>) -> Result<Sheet, IngestError> {
    let mut g = GameLines {
        sheet: Sheet { line, ..Sheet::default() },
        movetext: String::with_capacity(text.len()),
        moves_started: false,
        resigned: None,
        drawn_at: None,
        prose_result: None,
        open: 0,
        open_in_prose: false,
        reached: 0,
        players_line_seen: false,
        note_moves_go_on: false,
        paragraph_goes_on: false,
        line,
        note_goes_on: None,
        result_written: false,
        untold: None,
    };
    for (k, line) in text.split_inclusive('\n').enumerate() {
        g.line = g.sheet.line + k;
        let mut kind = g.kind(line);
        // `... noir : 15.De4+! Rd8 16.De8+` then `Rc7 17.Dxf7+ Fe7`: a note's
        // moves that go on to the next line, which starts with no number.
        let unnumbered = half_move_at_start(line).is_none() && !line.trim().is_empty();
        if g.note_moves_go_on && unnumbered && matches!(kind, Line::Moves | Line::ProseWithin(_)) {
            kind = Line::Prose;
        }
        if g.paragraph_goes_on
            && matches!(kind, Line::Moves | Line::ProseWithin(_) | Line::Prose)
            && starts_with_word(line)
        {
            kind = g.paragraph_goes_on_in(line);
        }
        if goes_on == Some(g.line) {
            kind = g.paragraph_goes_on_in(line);
        }
        if !line.trim().is_empty() {
            g.note_moves_go_on = matches!(kind, Line::Prose) && ends_in_numbered_moves(line);
        }
        g.paragraph_goes_on = match &kind {
            Line::Prose => !line.trim().is_empty(),
            Line::ProseWithin(notes) => notes.last().is_some_and(|n| n.end >= line.trim_end().len()),
            _ => false,
        };
        if g.open == 0 {
            g.open_in_prose = matches!(kind, Line::Prose);
        }
        // A header's brackets are its own (`Negras: D. Jojua (Georgia,
        // 2.516). … (Francia, 5-3-2011.`): they open no note.
        let header = matches!(kind, Line::Tag(..) | Line::Headers(..) | Line::Players(..));
        g.take(line, kind);
        if !header {
            g.open = open_after(g.open, line);
        }
    }
    let GameLines { mut sheet, movetext, resigned, drawn_at, prose_result, note_goes_on, reached, .. } = g;
    sheet.moves_in_note = note_goes_on.filter(|n| n.1 == reached + 1);
    let written = sheet.result.or(prose_result);
    sheet.result = None;
    // About one box per six characters of movetext ("Cf3+, "): the entries
    // are not moved again and again as they grow.
    sheet.entries.reserve(movetext.len() / 6);
    read_movetext(&movetext, line, 1, Dialect::Plain, &mut sheet);
    sheet.result = sheet
        .result
        .or(written)
        .or_else(|| resigned.map(|r| loser_result(&sheet, &r)))
        .or_else(|| (drawn_at == Some(reached) && reached > 0).then_some(GameResult::Draw));
    Ok(sheet)
}

impl GameLines {
    fn kind<'t>(&self, line: &'t str) -> Line<'t> {
        if self.open > 0 {
            if !self.open_in_prose {
                return Line::Moves;
            }
            // A note of prose that goes on from the line before: the part up
            // to where it closes is prose, the rest a line of its own.
            return closed_at(self.open, line).map_or(Line::Prose, Line::ClosesNote);
        }
        if let Some((key, value)) = tag_line(line) {
            return Line::Tag(key, value);
        }
        if let Some(at) = labelled_moves(line) {
            return Line::Labelled(at);
        }
        if !self.moves_started
            && let Some((white, black, at)) = players_then_moves(line)
        {
            return Line::PlayersThenMoves(white, black, at);
        }
        if let Some((key, value)) = header_line(line, self.moves_started) {
            return Line::Headers(key, value);
        }
        if !self.moves_started
            && (self.sheet.header("White").is_none() || self.players_line_seen)
            && let Some((white, black, result)) = players_line(line)
        {
            return Line::Players(white, black, result);
        }
        // After a line saying who resigned, what is printed is what might
        // have followed: kept, never played.
        if self.resigned.is_some() || not_movetext(line) || is_heading(line) {
            return Line::Prose;
        }
        // Above the score, a line is moves only where it reads as moves: a
        // page line with its date, a problem's piece list, a crosstable's
        // cells are not.
        if !self.moves_started && !line.trim().is_empty() && !opens_a_score(line) {
            return Line::Prose;
        }
        // A note in brackets or parentheses that starts the line and goes on
        // to the lines after: the movetext reader reads it past as a whole.
        if line.trim_start().starts_with(['(', '[']) && open_after(0, line) > 0 {
            return Line::Moves;
        }
        let mut prose = prose_within(line);
        // `27. Rd1 27. Qe2 also loses. 27... Nf3+`: the move after a number
        // said again, told in words, is a note up to the game's next move.
        if let Some(note) = move_said_again(line) {
            prose.retain(|r| r.end <= note.start || r.start >= note.end);
            prose.push(note);
            prose.sort_by_key(|r| r.start);
        }
        match prose.first() {
            // `8...Fd7, déplaçant une pièce ...` after `8...Re7`: a note that
            // opens with another move for a half-move already played.
            // (A White move numbered again is Black's in a book's two
            // columns: `13. B. takes B.` then `13. P. takes B.`.)
            Some(_)
                if half_move_at_start(line).is_some_and(|p| p < self.reached || (p == self.reached && p % 2 == 0)) =>
            {
                Line::Prose
            }
            // `9. Kpe1:d2 Kpe8:d8. Белые сдались ввиду потери фигуры.`: a
            // numbered move, then the note on it.
            Some(first) if moves_before(&line[..first.start]) => Line::ProseWithin(prose),
            _ if is_prose(line) => Line::Prose,
            Some(_) => Line::ProseWithin(prose),
            // `… Vf8-f1+ a mat.`: a last clause joined to the last move.
            None if let Some(at) = joined_clause(line) => {
                Line::ProseWithin(std::iter::once(at..line.trim_end().len()).collect())
            }
            // `4.h3` on a line of its own after `4.Be2`: an alternative.
            None if self.moves_started && self.one_move_played_again(line) => Line::Prose,
            // `W. Muir-F. Stratholt, 1934`: names and numbers, no move.
            None if self.moves_started && names_only(line) => Line::Prose,
            None => Line::Moves,
        }
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
        p <= self.reached && moves.len() == 1 && names_a_square(moves[0]) && move_shaped(moves[0])
    }

    /// A line that starts with words after a line that ended within a note
    /// of prose (`naturalmente e' collocato in f6 ... con il Cc3. 5. cxd5`):
    /// the note goes on up to the move number that goes on with the game
    /// (the next, or White's after Black's reply: a later one is a note's).
    fn paragraph_goes_on_in<'t>(&self, line: &'t str) -> Line<'t> {
        let tokens: Vec<(usize, &str)> = positioned(line).collect();
        let reply = |k: usize| blacks_reply_before(&tokens[..=k], line, self.reached);
        let goes_on = (0..tokens.len()).find_map(|k| {
            let at = tokens[k].0;
            (open_after(0, &line[..at]) == 0)
                .then(|| match half_move_at_start(&line[at..]) {
                    Some(p) if p == self.reached + 1 => Some(k),
                    Some(p) if p == self.reached + 2 && reply(k) => Some(k - 1),
                    _ => None,
                })
                .flatten()
        });
        let Some(k) = goes_on else { return Line::Prose };
        let at = tokens[k].0;
        let rest = prose_within(&line[at..]).into_iter().map(|r| r.start + at..r.end + at);
        Line::ProseWithin(std::iter::once(0..at).chain(rest).collect())
    }

    fn take(&mut self, line: &str, kind: Line<'_>) {
        match kind {
            Line::Tag(key, value) => {
                self.sheet.set_header(&tag_name(key), value);
                self.movetext.extend(blank(line));
            }
            Line::Headers(key, value) => {
                for (key, value) in split_headers(key, value) {
                    let tag = tag_name(key);
                    if tag == "Result"
                        && let Some(r) = GameResult::parse(value)
                    {
                        self.sheet.result = self.sheet.result.or(Some(r));
                    }
                    let value = if matches!(tag.as_str(), "White" | "Black") { player_name(value) } else { value };
                    self.sheet.set_header(&tag, value);
                }
                self.movetext.extend(blank(line));
            }
            Line::Players(white, black, result) => {
                // A second such line before the moves names the players; the
                // first was a heading (`DEFESA SICILIANA - VARIANTE DO DRAGÃO`).
                if std::mem::replace(&mut self.players_line_seen, true) {
                    self.sheet.headers.retain(|(k, _)| k != "White" && k != "Black");
                }
                self.sheet.set_header("White", white);
                self.sheet.set_header("Black", black);
                self.sheet.result = self.sheet.result.or(result);
                self.movetext.extend(blank(line));
            }
            Line::PlayersThenMoves(white, black, at) => {
                self.sheet.set_header("White", white);
                self.sheet.set_header("Black", black);
                self.movetext.extend(blank(&line[..at]));
                let rest = &line[at..];
                let prose = prose_within(rest);
                let kind = if prose.is_empty() { Line::Moves } else { Line::ProseWithin(prose) };
                self.take(rest, kind);
            }
            Line::Labelled(at) => {
                // The label kept as a comment; the moves read as a line of
                // their own, a note after them found as on any line.
                let label = line[..at].trim();
                self.movetext.push('{');
                self.movetext.extend(label.chars().map(|c| if matches!(c, '{' | '}') { ' ' } else { c }));
                self.movetext.push('}');
                let rest = &line[at..];
                let prose = prose_within(rest);
                let kind = if prose.is_empty() { Line::Moves } else { Line::ProseWithin(prose) };
                self.take(rest, kind);
            }
            Line::Prose => self.prose(line),
            Line::ClosesNote(at) => {
                self.prose(&line[..at]);
                let rest = &line[at..];
                self.open = 0;
                let kind = self.kind(rest);
                self.open_in_prose = matches!(kind, Line::Prose);
                self.take(rest, kind);
            }
            Line::ProseWithin(prose) => self.prose_within(line, prose),
            Line::Moves => {
                self.moves_started |= !line.trim().is_empty();
                self.result_written |= has_result(line);
                if self.open == 0 {
                    self.reach(line);
                }
                // `Bg4+ (winning the queen, so White resigns immediately)`.
                if line.contains(['(', '[']) {
                    self.resigned = self.resigned.take().or_else(|| resignation(line));
                }
                self.movetext.push_str(line);
            }
        }
    }

    /// The half-moves `moves` reaches, taken where its numbers go on from
    /// the game's (a footnote's `25.` at move 13 is not the game's).
    fn reach(&mut self, moves: &str) {
        let first = moves.split_whitespace().find_map(half_move_at_start);
        if first.is_some_and(|p| self.reached == 0 || p <= self.reached + 4) {
            self.reached = self.reached.max(highest_half_move(moves));
        }
    }

    /// Keeps the first note, once moves were read, that numbers the move
    /// after the last the game reached (`... . 20. Hxf6! gxf6 21. Bd4!`
    /// after `19. Dxd3 Bf6`): the game may go on in it.
    fn note_numbers_next(&mut self, note: &str) {
        let known = self.note_goes_on.is_some_and(|n| n.1 > self.reached);
        // After a resignation the prose tells what might have followed, but
        // for a move whose box was left to the words of the resignation.
        let resigned = self.resigned.is_some() && self.untold != Some(self.reached + 1);
        if !self.moves_started || known || self.result_written || resigned {
            return;
        }
        let next = positioned(note).any(|(at, _)| {
            half_move_at_start(&note[at..]) == Some(self.reached + 1) && open_after(0, &note[..at]) == 0
        });
        if next {
            self.note_goes_on = Some((self.line, self.reached + 1));
        }
    }

    /// The result a note ends with (`Remis – ... 1/2-1/2`, `... was het 1-0.`).
    /// A note saying the game was drawn, after the moves reached so far.
    fn draw_closing(&mut self, note: &str) {
        if self.moves_started && draw_agreed(note) {
            self.drawn_at = Some(self.reached);
        }
    }

    fn result_closing(&mut self, note: &str) {
        let last = note.split_whitespace().next_back().unwrap_or("");
        if self.moves_started && last.contains(['-', '/', '½']) {
            self.prose_result = self.prose_result.or(GameResult::parse(last).filter(|r| *r != GameResult::Unknown));
        }
    }

    /// A line of prose, kept as a comment where it stands but not read as
    /// entries: each would be searched for a move it cannot be. Who
    /// resigned, or the result it ends with, is taken.
    fn prose(&mut self, line: &str) {
        self.note_numbers_next(line);
        self.resigned = self.resigned.take().or_else(|| resignation(line));
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
        self.moves_started = true;
        let mut at = 0;
        for part in notes.iter().scan(0, |from, note| Some(&line[std::mem::replace(from, note.end)..note.start])) {
            self.reach(part);
            self.result_written |= has_result(part);
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
                let mover =
                    if self.reached.is_multiple_of(2) { shakmaty::Color::White } else { shakmaty::Color::Black };
                let slot =
                    bare.bytes().all(|b| b.is_ascii_digit()) && half_move_at_start(last) == Some(self.reached + 1);
                if slot && resigned.as_ref().and_then(|r| r.side) == Some(!mover) {
                    self.untold = Some(self.reached + 1);
                }
            }
            self.resigned = self.resigned.take().or(resigned.clone());
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
