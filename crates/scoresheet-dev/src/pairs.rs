//! The two copies of one corpus game, as both players would hand them in:
//! each typed with its own faults (its own seed), in its own language and
//! format, the players' names written loosely ("Navara,D", "D. Navara"), the
//! round on both. And their measure: each copy read alone and the two read
//! together ([`scoresheet::convert::convert_together`]).
//!
//! Pairs of an event ([`pair_in_event`]) are games of a tournament built
//! from the games ([`crate::trf::BuiltTrf`]): each copy gives the round and
//! board, the round alone, or only the names, written as players write them
//! (now and then with a typo, in Cyrillic, or without the TRF's accents), and
//! [`count_pair_in_event`] counts whether the game read with the TRF got its
//! players' canonical names and ratings, and never another game's.

use scoresheet::convert::{Input, Options, convert, convert_together};
use scoresheet::emit::report::{FileReport, GameReport, Status};
use scoresheet::ingest::Format;

use crate::corpus::CorpusGame;
use crate::generate::{Noisy, Rng, Tags, derive_seed, noisy_sheet_tagged};
use crate::noisy::language_and_format;
use crate::trf::{BuiltTrf, TrfGame};

/// Game `g` as two copies of round `round` (and, for an even round, board 1
/// written in the round as `Round: 4.1`), each with faults at `rate`.
pub fn pair_of(g: &CorpusGame, round: usize, seed: u64, rate: f64) -> [Noisy; 2] {
    [0, 1].map(|copy| {
        let round = if round.is_multiple_of(2) { format!("{round}.1") } else { round.to_string() };
        copy_of(g, derive_seed(seed, copy), rate, |_, style| Header {
            place: Some(round),
            names: [tag(g, "White"), tag(g, "Black")].map(|n| n.map(|n| loosely(n, style))),
            event: tag(g, "Event"),
            result: true,
        })
    })
}

/// Game `x` of the event `trf` (built from the games, `g` being the game of
/// `x`) as two copies, each with faults at `rate` drawn as [`pair_of`] draws
/// them: the same seed gives the same moves, the same faults, the same
/// language and format. What differs is the header: each copy gives the
/// round and board (`Round: 3.12`), the round alone, or neither (where its
/// players meet only once), and writes the TRF's names loosely (see
/// [`written_name`]). These draws come from a stream of their own, so the
/// faults do not depend on them.
pub fn pair_in_event(g: &CorpusGame, trf: &BuiltTrf, x: &TrfGame, seed: u64, rate: f64) -> [Noisy; 2] {
    // The copies of an event's game name its event as its TRF does: a TRF
    // is read only for the sheets of its own event.
    let written = Written {
        event: Some(trf.name.as_str()),
        board: x.board,
        results: [true, true],
        loose_names: false,
        stops: [None, None],
    };
    pair_as_written(g, trf, x, seed, rate, &written)
}

/// What the copies of an event's game write besides the moves and the
/// names: the event, the board as the organizer's pairing program numbered
/// it (which need not be the board the TRF's order gives), and whether each
/// copy writes the result.
#[derive(Debug, Clone)]
pub struct Written<'a> {
    pub event: Option<&'a str>,
    pub board: u32,
    pub results: [bool; 2],
    /// Names written as a volunteer types them at a large open (see
    /// [`typed_loosely`]).
    pub loose_names: bool,
    /// The plies each copy writes, where it stops before the game's end (a
    /// player short of time stops recording).
    pub stops: [Option<usize>; 2],
}

/// [`pair_in_event`], the event, board and results written as `written` says.
pub fn pair_as_written(
    g: &CorpusGame,
    trf: &BuiltTrf,
    x: &TrfGame,
    seed: u64,
    rate: f64,
    written: &Written,
) -> [Noisy; 2] {
    [0, 1].map(|copy| {
        let stopped = written.stops[copy as usize].filter(|&k| k < g.sans.len()).map(|k| {
            let mut short = g.clone();
            short.sans.truncate(k);
            short
        });
        copy_of(stopped.as_ref().unwrap_or(g), derive_seed(seed, copy), rate, |copy_seed, _| {
            let mut rng = Rng::new(derive_seed(copy_seed ^ HEADER_STREAM, 0));
            // Names tell a game among a round's games, or the event's, only
            // where its players meet once in it.
            let place = match rng.below(3) {
                2 if meet_once(trf, x, false) => None,
                1 | 2 if meet_once(trf, x, true) => Some(x.round.to_string()),
                _ => Some(format!("{}.{}", x.round, written.board)),
            };
            let names = [x.white, x.black].map(|s| {
                let name = &trf.player(s).name;
                let loose =
                    |n: String, rng: &mut Rng| if written.loose_names { typed_loosely(&n, name, rng) } else { n };
                (name != "?").then(|| {
                    let n = written_name(name, &mut rng);
                    loose(n, &mut rng)
                })
            });
            Header { place, names, event: written.event, result: written.results[copy as usize] }
        })
    })
}

/// Whether the players of `x` meet in no other game of the event (of its
/// round, if `in_round`). Players are told by surname and first initial:
/// the corpus spells one player `Lahno,K` in one event and `Lahno, Kateri`
/// in another, two players of the built TRF (who may even play twice in a
/// round) whom no name on a sheet could tell apart.
fn meet_once(trf: &BuiltTrf, x: &TrfGame, in_round: bool) -> bool {
    let person = |start: u32| {
        let name = trf.player(start).name.to_lowercase();
        let (surname, given) = name.split_once(',').unwrap_or((&name, ""));
        (surname.trim().to_string(), given.trim().chars().next())
    };
    let players = |y: &TrfGame| {
        let (w, b) = (person(y.white), person(y.black));
        if w <= b { (w, b) } else { (b, w) }
    };
    let these = players(x);
    trf.games.iter().filter(|y| (!in_round || y.round == x.round) && players(y) == these).count() == 1
}

/// Mixed into a copy's seed for the draws of its header in an event.
const HEADER_STREAM: u64 = 0x6E61_6D65_735F_7472;

/// What a copy writes above its moves: the round (`3` or `3.12`), the
/// players' names as written, the event; and whether it writes the result.
struct Header<'a> {
    place: Option<String>,
    names: [Option<String>; 2],
    event: Option<&'a str>,
    result: bool,
}

/// A tag of the corpus game, when it says something.
fn tag<'g>(g: &'g CorpusGame, k: &str) -> Option<&'g str> {
    g.tags.iter().find(|(n, v)| n == k && !v.trim().is_empty() && v.trim() != "?").map(|(_, v)| v.trim())
}

/// One copy: language, format and the style of its names drawn from `seed`,
/// its header from `header` (given the seed and that style).
fn copy_of<'a>(g: &CorpusGame, seed: u64, rate: f64, header: impl FnOnce(u64, usize) -> Header<'a>) -> Noisy {
    let mut rng = Rng::new(derive_seed(seed, 0));
    let (language, format) = language_and_format(&mut rng);
    let style = rng.below(4);
    let Header { place, names: [white, black], event, result } = header(seed, style);
    // `*` is what the generator writes as no result (in PGN, the tag and the
    // token; elsewhere nothing).
    let result = if result { (!g.result_contradicts_board()).then_some(g.result.as_str()) } else { Some("*") };
    let tags = Tags { event, white: white.as_deref(), black: black.as_deref(), result };
    let mut noisy = noisy_sheet_tagged(&g.sans, &tags, seed, rate, language, format);
    if let Some(round) = place {
        noisy.text = with_round(&noisy.text, format, &round);
    }
    noisy
}

/// A TRF name (`Surname, First`) as a player writes it on a sheet: in one
/// of the [`loosely`] styles, and now and then without its accents (about
/// half the time, where it has any), in Cyrillic (1 in 12) or with a slip
/// of the pen in the surname (1 in 8, see [`typo`]).
pub fn written_name(trf_name: &str, rng: &mut Rng) -> String {
    let mut name = loosely(trf_name, rng.below(4));
    if !name.is_ascii() && rng.chance(0.5) {
        name = name.chars().map(unaccented).collect();
    }
    if rng.chance(1.0 / 12.0) {
        name = cyrillic(&name);
    }
    if rng.chance(1.0 / 8.0) {
        name = typo(&name, rng);
    }
    name
}

/// A written name as a volunteer types it at a large open, on top of
/// [`written_name`]: the player's federation code beside it (1 in 5: `A
/// UKR Petrov`, `Petrov,A UKR`), a title before or after it (1 in 8), a
/// slip of its own in a letter (1 in 5: each copy's slip its own, so two
/// copies of one name may differ by two), or the initial and the surname
/// swapped about the comma (1 in 12: `A,Petrov`). A player's code is one
/// for the event: drawn from the TRF name.
pub fn typed_loosely(written: &str, trf_name: &str, rng: &mut Rng) -> String {
    const CODES: [&str; 10] = ["UKR", "RUS", "GER", "ESP", "IND", "USA", "NOR", "FRA", "ARM", "CHN"];
    let code = CODES[trf_name.bytes().fold(0usize, |h, b| h.wrapping_mul(31).wrapping_add(usize::from(b))) % 10];
    let mut name = written.to_string();
    if rng.chance(1.0 / 5.0) {
        name = typo(&name, rng);
    }
    if rng.chance(1.0 / 12.0)
        && let Some((surname, first)) = name.split_once(',')
    {
        name = format!("{},{}", first.trim(), surname.trim());
    }
    if rng.chance(1.0 / 5.0) {
        name = match (rng.below(3), name.split_once(' ')) {
            (0, Some((a, b))) => format!("{a} {code} {b}"),
            (1, _) => format!("{name} {code}"),
            _ => format!("{code} {name}"),
        };
    }
    if rng.chance(1.0 / 8.0) {
        let title = ["GM", "IM", "FM", "WGM"][rng.below(4)];
        name = if rng.chance(0.5) { format!("{title} {name}") } else { format!("{name} {title}") };
    }
    name
}

/// The letter without its accent (the few the built TRFs give names).
fn unaccented(c: char) -> char {
    match c {
        'á' | 'à' | 'ä' | 'â' | 'ã' => 'a',
        'é' | 'è' | 'ë' | 'ê' | 'ě' => 'e',
        'í' | 'ì' | 'ï' | 'î' => 'i',
        'ó' | 'ò' | 'ö' | 'ô' | 'ø' => 'o',
        'ú' | 'ù' | 'ü' | 'û' | 'ů' => 'u',
        'ñ' | 'ň' => 'n',
        'č' | 'ç' => 'c',
        'š' => 's',
        'ž' => 'z',
        'ř' => 'r',
        'Á' => 'A',
        'É' => 'E',
        'Š' => 'S',
        'Č' => 'C',
        'Ž' => 'Z',
        c => c,
    }
}

/// A Latin name spelled in Cyrillic letters, as a Russian-speaking player
/// writes an opponent's name.
///
/// ```
/// use scoresheet_dev::pairs::cyrillic;
/// assert_eq!(cyrillic("Kosintseva,N"), "Косинцева,Н");
/// assert_eq!(cyrillic("larsen b"), "ларсен б");
/// ```
pub fn cyrillic(name: &str) -> String {
    // Longest first: "shch" before "sh", "kh" before "k".
    const MULTI: [(&str, &str); 9] = [
        ("shch", "щ"),
        ("zh", "ж"),
        ("kh", "х"),
        ("ts", "ц"),
        ("ch", "ч"),
        ("sh", "ш"),
        ("yu", "ю"),
        ("ya", "я"),
        ("ye", "е"),
    ];
    let single = |c: char| -> Option<char> {
        let latin = "abvgdezijklmnoprstufhcyqw";
        let cyr = "абвгдезийклмнопрстуфхкыкв";
        latin.chars().position(|l| l == c).and_then(|i| cyr.chars().nth(i))
    };
    let lower: Vec<char> = name.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < lower.len() {
        let c = lower[i];
        let upper = c.is_uppercase();
        let rest: String = lower[i..].iter().take(4).flat_map(|c| c.to_lowercase()).collect();
        let (cyr, len) = match MULTI.iter().find(|(l, _)| rest.starts_with(l)) {
            Some((l, cyr)) => (cyr.to_string(), l.len()),
            None => match c.to_lowercase().next().and_then(single) {
                Some(cyr) => (cyr.to_string(), 1),
                None => (c.to_string(), 1),
            },
        };
        out.push_str(&if upper { cyr.to_uppercase() } else { cyr });
        i += len;
    }
    out
}

/// The name with a slip in its longest word, never its first letter: a
/// letter dropped, doubled, or two swapped ("Navara" → "Navra", "Navaara",
/// "Nvaara"). A word shorter than 5 letters is left as it is.
pub fn typo(name: &str, rng: &mut Rng) -> String {
    let words: Vec<&str> = name.split(|c: char| !c.is_alphabetic()).collect();
    let Some(word) = words.iter().copied().max_by_key(|w| w.chars().count()) else { return name.to_string() };
    let letters: Vec<char> = word.chars().collect();
    if letters.len() < 5 {
        return name.to_string();
    }
    let at = 1 + rng.below(letters.len() - 2);
    let mut slipped = letters.clone();
    match rng.below(3) {
        0 => {
            slipped.remove(at);
        }
        1 => slipped.insert(at, letters[at]),
        _ => slipped.swap(at, at + 1),
    }
    name.replacen(word, &slipped.into_iter().collect::<String>(), 1)
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
    /// Read with the event's TRF ([`count_pair_in_event`]): the games of the
    /// TRF, those whose every report has both players' TRF names, the games
    /// with a rated player, those whose reports have every TRF rating, and
    /// the games with a report given another pairing's tags.
    pub in_trf: usize,
    pub names_filled: usize,
    pub rated: usize,
    pub ratings_filled: usize,
    pub wrong_pairing: usize,
    /// Read together and not exact: the whole game costs both copies at
    /// least what the game read costs (the sheets themselves prefer the
    /// reading, or tie: no search finds the game), or less (a search miss).
    pub miss_model: usize,
    pub miss_search: usize,
    /// Of `miss_model`, those where the two cost the same.
    pub miss_tie: usize,
}

/// Reads a pair alone and together and counts it; what went wrong with the
/// pair read together, if anything.
pub fn count_pair(pair: &[Noisy; 2], opts: &Options, t: &mut PairTally) -> Option<String> {
    read_pair(pair, opts, t).0
}

/// [`count_pair`] for a pair of game `x` of the event `trf`, read with the
/// TRF in `opts`; and whether the game got its players' TRF names and
/// ratings (and never another pairing's). What went wrong, if anything.
pub fn count_pair_in_event(
    pair: &[Noisy; 2],
    opts: &Options,
    trf: &BuiltTrf,
    x: &TrfGame,
    t: &mut PairTally,
) -> Option<String> {
    let (miss, reports) = read_pair(pair, opts, t);
    let games: Vec<&GameReport> = reports.iter().flat_map(|r| &r.games).collect();
    let players = [trf.player(x.white), trf.player(x.black)];
    let header = |g: &GameReport, k: &str| g.headers.get(k).and_then(|v| v.as_str()).map(str::to_string);
    let sides = ["White", "Black"];
    let names_ok = |g: &&GameReport| sides.iter().zip(&players).all(|(s, p)| header(g, s).as_ref() == Some(&p.name));
    let rated: Vec<(&str, String)> =
        sides.iter().zip(&players).filter(|(_, p)| p.rating > 0).map(|(s, p)| (*s, p.rating.to_string())).collect();
    let ratings_ok = |g: &&GameReport| rated.iter().all(|(s, r)| header(g, &format!("{s}Elo")).as_ref() == Some(r));
    // A report took a pairing when it has the TRF's FIDE ids; another
    // game's when its round or board is not this game's.
    let place = [x.round.to_string(), x.board.to_string()];
    let wrong = |g: &&GameReport| {
        let took = header(g, "WhiteFideId").is_some() || header(g, "BlackFideId").is_some();
        took && [header(g, "Round"), header(g, "Board")] != place.clone().map(Some)
    };
    t.in_trf += 1;
    let names = !games.is_empty() && games.iter().all(names_ok);
    t.names_filled += usize::from(names);
    t.rated += usize::from(!rated.is_empty());
    let ratings = !rated.is_empty() && !games.is_empty() && games.iter().all(ratings_ok);
    t.ratings_filled += usize::from(ratings);
    let wrong = games.iter().any(wrong);
    t.wrong_pairing += usize::from(wrong);
    let told = |g: &GameReport| {
        let h = |k: &str| header(g, k).unwrap_or_else(|| "-".into());
        format!("{} - {} (round {}, board {})", h("White"), h("Black"), h("Round"), h("Board"))
    };
    let names_miss = (!names || wrong).then(|| {
        let read: Vec<String> = games.iter().map(|g| told(g)).collect();
        format!(
            "{}: read {}; TRF {} - {} (round {}, board {}); written {}",
            if wrong { "wrong pairing" } else { "names not filled" },
            read.join(" / "),
            players[0].name,
            players[1].name,
            x.round,
            x.board,
            pair.iter().map(written_header).collect::<Vec<_>>().join(" / ")
        )
    });
    match (miss, names_miss) {
        (Some(a), Some(b)) => Some(format!("{a}; {b}")),
        (a, b) => a.or(b),
    }
}

/// A copy's round and names as written, for a message.
fn written_header(copy: &Noisy) -> String {
    let sheets = scoresheet::ingest::read_named(&copy.file_name, copy.text.as_bytes(), 1 << 20).unwrap_or_default();
    sheets.first().map_or_else(
        || "unreadable".into(),
        |s| {
            let h = |k: &str| s.header(k).unwrap_or("-").to_string();
            format!("[{} | {} - {}]", h("Round"), h("White"), h("Black"))
        },
    )
}

/// Reads a pair alone and together and counts it: what went wrong with the
/// pair read together, if anything, and the reports read together.
fn read_pair(pair: &[Noisy; 2], opts: &Options, t: &mut PairTally) -> (Option<String>, Vec<FileReport>) {
    t.pairs += 1;
    let mut either = false;
    let mut languages = Vec::with_capacity(2);
    for copy in pair {
        let r = convert(&copy.file_name, copy.text.as_bytes(), opts);
        languages.push(r.games.first().map_or_else(|| "en".to_string(), |g| g.language.clone()));
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
    let mut miss = judge(pair, &reports, t);
    if let Some(m) = miss.as_mut().filter(|m| m.contains("ply")) {
        let game = &reports[0].games[0];
        let truth = if pair[0].sans.len() >= pair[1].sans.len() { &pair[0].sans } else { &pair[1].sans };
        let (truth_cost, read_cost) =
            (both_cost(pair, &languages, opts, truth), both_cost(pair, &languages, opts, &game.moves));
        let cheaper = truth_cost < read_cost - 0.01;
        let tie = !cheaper && truth_cost <= read_cost + 0.01;
        t.miss_search += usize::from(cheaper);
        t.miss_model += usize::from(!cheaper);
        t.miss_tie += usize::from(tie);
        m.push_str(match (cheaper, tie) {
            (true, _) => " (a search miss)",
            (_, true) => " (the game played and the reading cost the sheets the same)",
            _ => " (the sheets prefer the reading)",
        });
    }
    (miss, reports)
}

/// Counts the pair read together (`reports`); what went wrong, if anything.
fn judge(pair: &[Noisy; 2], reports: &[FileReport], t: &mut PairTally) -> Option<String> {
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

/// What game `sans` costs both copies, each under the language it was read in.
fn both_cost(pair: &[Noisy; 2], languages: &[String], opts: &Options, sans: &[String]) -> f32 {
    use shakmaty::{Chess, Position, san::San};
    let mut pos = Chess::default();
    let mut moves = Vec::with_capacity(sans.len());
    for s in sans {
        let Some(m) = s.parse::<San>().ok().and_then(|s| s.to_move(&pos).ok()) else { break };
        pos.play_unchecked(m);
        moves.push(m);
    }
    pair.iter()
        .zip(languages)
        .map(|(copy, code)| {
            let lang = scoresheet::LANGUAGES.iter().find(|l| l.code == *code).unwrap_or(&scoresheet::LANGUAGES[0]);
            let sheets = scoresheet::ingest::read_named(&copy.file_name, copy.text.as_bytes(), 1 << 20);
            let sheet = sheets.ok().and_then(|s| s.into_iter().next());
            sheet.map_or(f32::INFINITY, |s| scoresheet::dev::fit_cost(&s, lang, &opts.params, &moves))
        })
        .sum()
}

fn validated(g: &GameReport) -> bool {
    g.status == Status::Validated
}
