//! Noisy scoresheets made from real games, to measure the reader.
//!
//! [`noisy_sheet`] types a game's moves as a volunteer would — in a language's
//! piece letters (castling `0-0` in most languages), in one of the file
//! formats — and puts in the slips real scoresheets have, each move with
//! probability `rate`. It returns the text and the truth: the moves, what was
//! written for each, every fault, and whether the last moves were left off.
//! Everything derives from the seed through a small splitmix64 generator
//! ([`Rng`]), so a seed names the same sheet on every machine. The seed picks the
//! layout and the style (castling with zeros, check marks written, a `Language:`
//! header on about half the sheets) apart from the faults, so a sheet made at
//! rate 0 and one made at any other rate from the same seed differ only by
//! their faults.
//!
//! The faults ([`FaultKind`], stable names as in the dev sheets' `truth.json`):
//!
//! | name | what the writer did | example (Spanish) |
//! |---|---|---|
//! | `chars` | a character misread or mistyped: confusable pairs (1/l/I/7, 0/O/o/D, 5/S, 8/B/3, 6/b/G, 9/g/q, 2/Z, c/e, h/b, f/t, a/d, 4/9), a character dropped, doubled or swapped, wrong case | `Cf3` → `Cf8`, `cf3`, `Cff3` |
//! | `square` | the destination one file or one rank off | `Cf3` → `Cg3` |
//! | `piece` | a wrong piece letter | `Cf3` → `Af3` |
//! | `x` | the capture `x` left out; a pawn capture cut short | `Cxd4` → `Cd4`, `exd5` → `ed`, `exd` |
//! | `disamb` | disambiguation left out, or written where none is needed | `Cbd7` → `Cd7`, `Cf3` → `Cgf3`, `Cg1-f3` |
//! | `english` | English piece letters on a non-English sheet | `Cf3` → `Nf3` |
//! | `illegible` | the box cannot be read | `?`, `??`, `X`, `---` |
//! | `omit` | the move is not written (the later ones move up a box) | |
//! | `dup` | the entry is written twice | `Cf3 Cf3` |
//!
//! ```
//! use scoresheet::convert::{Options, convert};
//! use scoresheet::emit::report::Status;
//! use scoresheet_dev::generate::noisy_sheet;
//! use scoresheet::ingest::Format;
//! use scoresheet::notation::Language;
//!
//! let sans: Vec<String> =
//!     ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7"].map(String::from).into();
//! let es = Language::find("es").unwrap();
//!
//! // At rate 0 the sheet is the game, typed in Spanish.
//! let clean = noisy_sheet(&sans, 7, 0.0, es, Format::Text);
//! assert!(clean.faults.is_empty() && !clean.truncated && clean.sans == sans);
//! assert!(clean.text.contains("Cf3") && clean.text.contains("Ab5"));
//! let report = convert(&clean.file_name, clean.text.as_bytes(), &Options::default());
//! assert_eq!(report.games[0].status, Status::Validated);
//! assert_eq!(report.games[0].moves, sans);
//!
//! // With faults: the same seed gives the same sheet, and the truth says what was done.
//! let noisy = noisy_sheet(&sans, 7, 0.4, es, Format::Csv);
//! assert_eq!(noisy.text, noisy_sheet(&sans, 7, 0.4, es, Format::Csv).text);
//! for f in &noisy.faults {
//!     assert_eq!(f.truth, noisy.sans[f.ply]);
//!     println!("ply {}: {} wrote {:?}", f.ply, f.kind.name(), f.written);
//! }
//! ```

use std::fmt::Write as _;

use shakmaty::san::San;
use shakmaty::{Chess, Move, Position, Role, Square};

use scoresheet::ingest::Format;
use scoresheet::notation::{Language, Tag};

/// A small deterministic random number generator (splitmix64): the same seed
/// gives the same numbers on every machine and every run.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    /// A number in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// `true` with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }

    /// One of `items` (not empty), each as likely.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// An index into `weights`, each as likely as its weight.
    pub fn weighted(&mut self, weights: &[f64]) -> usize {
        let total: f64 = weights.iter().sum();
        let mut x = self.unit() * total;
        for (i, w) in weights.iter().enumerate() {
            if x < *w {
                return i;
            }
            x -= w;
        }
        weights.len() - 1
    }
}

/// A legal game of about `plies` plies walked at random, captures put off
/// (nine times in ten) so that it lasts: each move as its SAN. Long records
/// no corpus game has, for the budget's bounds.
pub fn long_game(rng: &mut Rng, plies: usize) -> Vec<String> {
    let mut pos = Chess::default();
    let mut out = Vec::with_capacity(plies);
    while out.len() < plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let quiet: Vec<&Move> = moves.iter().filter(|m| !m.is_capture()).collect();
        let m = if quiet.is_empty() || rng.below(10) == 0 { *rng.pick(&moves) } else { **rng.pick(&quiet) };
        out.push(shakmaty::san::SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string());
    }
    out
}

/// The seed of the `i`-th of a series of sheets made from one seed.
pub fn derive_seed(seed: u64, i: u64) -> u64 {
    Rng::new(seed ^ i.wrapping_mul(0xD1B5_4A32_D192_ED03)).next_u64()
}

/// The kinds of slips a scoresheet has (see the [module](self) table).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FaultKind {
    Chars,
    Square,
    Piece,
    Capture,
    Disambiguation,
    English,
    Illegible,
    Omit,
    Duplicate,
}

impl FaultKind {
    pub const ALL: [FaultKind; 9] = [
        FaultKind::Chars,
        FaultKind::Square,
        FaultKind::Piece,
        FaultKind::Capture,
        FaultKind::Disambiguation,
        FaultKind::English,
        FaultKind::Illegible,
        FaultKind::Omit,
        FaultKind::Duplicate,
    ];

    /// The stable name, as the `type` of an injected fault in `truth.json`.
    pub fn name(self) -> &'static str {
        match self {
            FaultKind::Chars => "chars",
            FaultKind::Square => "square",
            FaultKind::Piece => "piece",
            FaultKind::Capture => "x",
            FaultKind::Disambiguation => "disamb",
            FaultKind::English => "english",
            FaultKind::Illegible => "illegible",
            FaultKind::Omit => "omit",
            FaultKind::Duplicate => "dup",
        }
    }

    /// The kind with this stable name.
    pub fn from_name(name: &str) -> Option<FaultKind> {
        FaultKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// How often the kind is drawn, roughly as often as in the dev sheets.
    fn weight(self) -> f64 {
        match self {
            FaultKind::Chars => 36.0,
            FaultKind::Capture => 9.0,
            FaultKind::Square => 9.0,
            FaultKind::Disambiguation => 8.0,
            FaultKind::Illegible => 8.0,
            FaultKind::Piece => 7.0,
            FaultKind::Omit => 7.0,
            FaultKind::English => 7.0,
            FaultKind::Duplicate => 5.0,
        }
    }
}

/// One slip put into a sheet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fault {
    /// The move it is at, 0-based into [`Noisy::sans`].
    pub ply: usize,
    pub kind: FaultKind,
    /// What was written for the move (`None` when it was not written).
    pub written: Option<String>,
    /// The move played, in English SAN.
    pub truth: String,
    /// For a box left illegible or not written: how many legal moves there
    /// keep the rest of the game legal (1 when the game settles it).
    pub alternatives: Option<usize>,
}

/// A generated sheet and its truth.
#[derive(Debug, Clone)]
pub struct Noisy {
    /// The file's text.
    pub text: String,
    /// A file name whose extension gives the format.
    pub file_name: String,
    /// ISO code of the language the sheet is written in.
    pub language: &'static str,
    pub format: Format,
    /// Whether the sheet names its language in a header.
    pub header: bool,
    /// The result written on the sheet (`*` when none is written).
    pub result: String,
    /// The moves on the sheet in English SAN: the game, less the moves left off
    /// when `truncated`. What a perfect reader gives back.
    pub sans: Vec<String>,
    /// What was written for each move of `sans`; `None` when it was not written.
    pub written: Vec<Option<String>>,
    /// The faults, by ply.
    pub faults: Vec<Fault>,
    /// Whether the last moves of the game were left off the sheet.
    pub truncated: bool,
}

impl Noisy {
    /// The boxes as they stand on the sheet, in order (a duplicated entry twice,
    /// a move not written not at all).
    pub fn entries(&self) -> Vec<String> {
        let mut out = Vec::with_capacity(self.written.len() + 2);
        for (ply, w) in self.written.iter().enumerate() {
            if let Some(w) = w {
                out.push(w.clone());
                if self.faults.iter().any(|f| f.ply == ply && f.kind == FaultKind::Duplicate) {
                    out.push(w.clone());
                }
            }
        }
        out
    }
}

/// Header values for a generated sheet; `None` leaves a field out (a missing
/// result is taken from the final position, or drawn from the seed).
#[derive(Debug, Clone, Copy, Default)]
pub struct Tags<'a> {
    pub event: Option<&'a str>,
    pub white: Option<&'a str>,
    pub black: Option<&'a str>,
    pub result: Option<&'a str>,
}

/// Types the game `sans` (English SAN from the initial position) as a sheet in
/// `language` and `format`, with a fault at each move with probability `rate`
/// (and, with probability `rate`, the last moves left off). Same arguments,
/// same sheet. See the [module](self) documentation.
pub fn noisy_sheet(sans: &[String], seed: u64, rate: f64, language: &Language, format: Format) -> Noisy {
    noisy_sheet_tagged(sans, &Tags::default(), seed, rate, language, format)
}

/// [`noisy_sheet`] with header values (event, players, result).
pub fn noisy_sheet_tagged(
    sans: &[String],
    tags: &Tags<'_>,
    seed: u64,
    rate: f64,
    language: &Language,
    format: Format,
) -> Noisy {
    let rate = if rate.is_finite() { rate.clamp(0.0, 1.0) } else { 0.0 };
    // Two streams: the layout and style do not depend on the rate.
    let mut style_rng = Rng::new(derive_seed(seed, 1));
    let mut rng = Rng::new(derive_seed(seed, 2));
    let english = language.code == "en";
    let style = Style {
        zeros: style_rng.chance(if english { 0.5 } else { 0.9 }),
        checks: style_rng.chance(0.85),
        header: style_rng.chance(0.5),
        layout: style_rng.below(3),
        localized_keys: style_rng.chance(0.5),
    };
    let game = Replay::of(sans);
    let result = match tags.result {
        Some(r) => r.to_string(),
        None => game.board_result().unwrap_or_else(|| *style_rng.pick(&["1-0", "0-1", "1/2-1/2"])).to_string(),
    };

    let mut n = sans.len();
    let truncated = rate > 0.0 && n >= 8 && rng.chance(rate);
    if truncated {
        n -= 1 + rng.below((n / 5).clamp(1, 10));
    }
    let sans = &sans[..n];
    let write = |san: &str| style.tidy(localize(san, language, style.zeros));
    let clean: Vec<String> = sans.iter().map(|s| write(s)).collect();
    let mut written: Vec<Option<String>> = clean.iter().cloned().map(Some).collect();
    let mut faults = Vec::new();
    let weights: Vec<f64> = FaultKind::ALL.iter().map(|k| k.weight()).collect();
    for ply in 0..n {
        if rate == 0.0 || !rng.chance(rate) {
            continue;
        }
        for _ in 0..8 {
            let kind = FaultKind::ALL[rng.weighted(&weights)];
            let slip = match kind {
                FaultKind::Omit if ply + 1 == n || n < 3 => None,
                FaultKind::Omit => Some(None),
                FaultKind::Duplicate => Some(Some(clean[ply].clone())),
                FaultKind::Illegible => Some(Some(rng.pick(&["?", "??", "X", "---"]).to_string())),
                FaultKind::Chars => chars_slip(&clean[ply], &mut rng).map(Some),
                FaultKind::English if english => None,
                FaultKind::English => Some(Some(style.tidy(localize(&sans[ply], english_letters(), style.zeros)))),
                _ => san_slip(kind, &sans[ply], game.moves.get(ply), &mut rng).map(|s| Some(write(&s))),
            };
            let Some(slip) = slip else { continue };
            if kind != FaultKind::Duplicate && slip.as_ref() == Some(&clean[ply]) {
                continue;
            }
            let alternatives =
                matches!(kind, FaultKind::Omit | FaultKind::Illegible).then(|| game.alternatives(ply)).flatten();
            if kind != FaultKind::Duplicate {
                written[ply] = slip.clone();
            }
            faults.push(Fault { ply, kind, written: slip, truth: sans[ply].clone(), alternatives });
            break;
        }
    }

    let mut noisy = Noisy {
        text: String::new(),
        file_name: format!("noisy-{seed:016x}.{}", extension(format)),
        language: language.code,
        format,
        header: style.header,
        result,
        sans: sans.to_vec(),
        written,
        faults,
        truncated,
    };
    noisy.text = render(&noisy, tags, &style, &mut style_rng);
    noisy
}

/// An English SAN written with `language`'s piece letters, castling with zeros
/// when `zeros`: `Nxf3+` → `Cxf3+`, `e8=Q` → `e8=D`, `O-O` → `0-0` (Spanish).
///
/// ```
/// use scoresheet_dev::generate::localize;
/// use scoresheet::notation::Language;
/// let de = Language::find("de").unwrap();
/// assert_eq!(localize("Nxf3+", de, true), "Sxf3+");
/// assert_eq!(localize("exd8=Q#", de, true), "exd8=D#");
/// assert_eq!(localize("O-O-O", de, true), "0-0-0");
/// assert_eq!(localize("O-O", de, false), "O-O");
/// ```
pub fn localize(san: &str, language: &Language, zeros: bool) -> String {
    if san.starts_with("O-O") {
        return if zeros { san.replace('O', "0") } else { san.to_string() };
    }
    let mut out = String::with_capacity(san.len() + 2);
    let mut after_eq = false;
    for (i, c) in san.chars().enumerate() {
        match english_role(c) {
            Some(role) if i == 0 || after_eq => out.push_str(language.letter(role)),
            _ => out.push(c),
        }
        after_eq = c == '=';
    }
    out
}

fn english_letters() -> &'static Language {
    Language::find("en").expect("English is a known language")
}

fn english_role(c: char) -> Option<Role> {
    match c {
        'K' => Some(Role::King),
        'Q' => Some(Role::Queen),
        'R' => Some(Role::Rook),
        'B' => Some(Role::Bishop),
        'N' => Some(Role::Knight),
        _ => None,
    }
}

/// How one writer writes, drawn once per sheet.
struct Style {
    /// Castling with zeros.
    zeros: bool,
    /// `+` written after checks.
    checks: bool,
    /// A `Language:` header.
    header: bool,
    /// Which of the layouts of the format.
    layout: usize,
    /// Header keys in the sheet's language (else English).
    localized_keys: bool,
}

impl Style {
    fn tidy(&self, s: String) -> String {
        if self.checks { s } else { s.trim_end_matches('+').to_string() }
    }
}

/// The game replayed: the position before each move and the move, up to the
/// first SAN that is not legal.
struct Replay {
    positions: Vec<Chess>,
    moves: Vec<Move>,
    sans: Vec<San>,
    /// The position after the last move, when every move was legal.
    end: Option<Chess>,
}

impl Replay {
    fn of(sans: &[String]) -> Replay {
        let mut pos = Chess::default();
        let mut r = Replay { positions: Vec::new(), moves: Vec::new(), sans: Vec::new(), end: None };
        for s in sans {
            let Some(m) = San::from_ascii(s.as_bytes()).ok().and_then(|san| {
                r.sans.push(san);
                san.to_move(&pos).ok()
            }) else {
                return r;
            };
            r.positions.push(pos.clone());
            r.moves.push(m);
            pos.play_unchecked(m);
        }
        r.end = Some(pos);
        r
    }

    fn board_result(&self) -> Option<&'static str> {
        let pos = self.end.as_ref()?;
        if pos.is_checkmate() {
            Some(if pos.turn().is_white() { "0-1" } else { "1-0" })
        } else if pos.is_stalemate() {
            Some("1/2-1/2")
        } else {
            None
        }
    }

    /// How many legal moves at `ply` keep the rest of the game legal.
    fn alternatives(&self, ply: usize) -> Option<usize> {
        let pos = self.positions.get(ply)?;
        self.end.as_ref()?;
        let rest = &self.sans[ply + 1..];
        let fits = pos
            .legal_moves()
            .iter()
            .filter(|m| {
                let mut p = pos.clone();
                p.play_unchecked(**m);
                rest.iter().all(|s| match s.to_move(&p) {
                    Ok(m) => {
                        p.play_unchecked(m);
                        true
                    }
                    Err(_) => false,
                })
            })
            .count();
        Some(fits)
    }
}

/// The check mark at the end of a SAN, and the SAN without it.
fn split_suffix(san: &str) -> (&str, &str) {
    let at = san.find(['+', '#']).unwrap_or(san.len());
    san.split_at(at)
}

/// A slip made on the English SAN (`square`, `piece`, `x`, `disamb`), still in
/// English letters; `None` when the kind does not apply to the move.
fn san_slip(kind: FaultKind, san: &str, played: Option<&Move>, rng: &mut Rng) -> Option<String> {
    let (core, suffix) = split_suffix(san);
    let San::Normal { role, file, rank, capture, to, promotion } = San::from_ascii(core.as_bytes()).ok()? else {
        return None;
    };
    let normal = |role, file, rank, capture, to| San::Normal { role, file, rank, capture, to, promotion };
    let out = match kind {
        FaultKind::Square => {
            let steps = [(-1, 0), (1, 0), (0, -1), (0, 1)];
            let (df, dr) = *rng.pick(&steps);
            let f = to.file().offset(df)?;
            let r = to.rank().offset(dr)?;
            format!("{}{suffix}", normal(role, file, rank, capture, Square::from_coords(f, r)))
        }
        FaultKind::Piece => {
            if role == Role::Pawn {
                return None;
            }
            let others: Vec<Role> = [Role::King, Role::Queen, Role::Rook, Role::Bishop, Role::Knight]
                .into_iter()
                .filter(|r| *r != role)
                .collect();
            format!("{}{suffix}", normal(*rng.pick(&others), file, rank, capture, to))
        }
        FaultKind::Capture => {
            if !capture {
                return None;
            }
            match (role, file, promotion) {
                (Role::Pawn, Some(from), None) => match rng.below(3) {
                    0 => format!("{}{}", from.char(), to.file().char()),
                    1 => format!("{}x{}", from.char(), to.file().char()),
                    _ => format!("{}{suffix}", normal(role, file, rank, false, to)),
                },
                _ => format!("{}{suffix}", normal(role, file, rank, false, to)),
            }
        }
        FaultKind::Disambiguation => {
            if role != Role::Pawn && (file.is_some() || rank.is_some()) {
                return format!("{}{suffix}", normal(role, None, None, capture, to)).into();
            }
            let from = played?.from()?;
            let long = |dash: &str| {
                let letter = if role == Role::Pawn { String::new() } else { role.upper_char().to_string() };
                let sep = if capture { "x" } else { dash };
                let promo = promotion.map(|p| format!("={}", p.upper_char())).unwrap_or_default();
                format!("{letter}{from}{sep}{to}{promo}{suffix}")
            };
            let choice = if matches!(role, Role::Pawn | Role::King) { 2 + rng.below(2) } else { rng.below(4) };
            match choice {
                0 => format!("{}{suffix}", normal(role, Some(from.file()), None, capture, to)),
                1 => format!("{}{suffix}", normal(role, None, Some(from.rank()), capture, to)),
                2 => long("-"),
                _ => long(""),
            }
        }
        _ => return None,
    };
    Some(out)
}

/// The look-alike slips this generator makes: a chosen part of the reader's
/// table (`scoresheet::dev::CONFUSABLE`), the pairs typists of real
/// sheets confuse most, so that the generated sets keep their make-up when
/// the reader learns more look-alikes. A test keeps every pair here one the
/// reader knows.
const CONFUSABLE: &[&[char]] = &[
    &['1', 'l', 'I', '7'],
    &['0', 'O', 'o', 'D'],
    &['5', 'S'],
    &['8', 'B', '3'],
    &['6', 'b', 'G'],
    &['9', 'g', 'q'],
    &['2', 'Z'],
    &['c', 'e'],
    &['h', 'b'],
    &['f', 't'],
    &['a', 'd'],
    &['4', '9'],
    // Handwritten capitals and the letter f.
    &['T', '7'],
    &['C', 'G'],
    &['N', 'H'],
    &['A', 'H'],
    &['R', 'P'],
    &['L', 'I'],
    &['f', '4'],
];

fn confusable_with(c: char) -> Vec<char> {
    let mut out: Vec<char> =
        CONFUSABLE.iter().filter(|g| g.contains(&c)).flat_map(|g| g.iter().copied()).filter(|x| *x != c).collect();
    out.dedup();
    out
}

/// A character slip in the written entry; `None` when none changes it.
fn chars_slip(clean: &str, rng: &mut Rng) -> Option<String> {
    let chars: Vec<char> = clean.chars().collect();
    if chars.is_empty() {
        return None;
    }
    for _ in 0..8 {
        let mut c = chars.clone();
        match rng.weighted(&[45.0, 15.0, 15.0, 10.0, 15.0]) {
            0 => {
                let at: Vec<usize> = (0..c.len()).filter(|i| !confusable_with(c[*i]).is_empty()).collect();
                if at.is_empty() {
                    continue;
                }
                let i = *rng.pick(&at);
                c[i] = *rng.pick(&confusable_with(c[i]));
            }
            1 if c.len() > 1 => {
                c.remove(rng.below(c.len()));
            }
            2 => {
                let i = rng.below(c.len());
                c.insert(i, c[i]);
            }
            3 if c.len() > 1 => {
                let i = rng.below(c.len() - 1);
                c.swap(i, i + 1);
            }
            4 => {
                let at: Vec<usize> = (0..c.len()).filter(|i| c[*i].is_alphabetic()).collect();
                if at.is_empty() {
                    continue;
                }
                let i = *rng.pick(&at);
                let x = c[i];
                c[i] = if x.is_uppercase() {
                    x.to_lowercase().next().unwrap_or(x)
                } else {
                    x.to_uppercase().next().unwrap_or(x)
                };
            }
            _ => continue,
        }
        let s: String = c.into_iter().collect();
        if s != clean && !s.trim().is_empty() {
            return Some(s);
        }
    }
    None
}

fn extension(format: Format) -> &'static str {
    match format {
        Format::Text => "txt",
        Format::Yaml => "yaml",
        Format::Csv => "csv",
        Format::Tsv => "tsv",
        Format::Pgn => "pgn",
    }
}

/// The header keys of a sheet in `code`'s language: the usual key of each tag
/// in the library's language table, capitalised as people write them;
/// English for every key unless the language lists all five.
fn header_keys(code: &str) -> [String; 5] {
    let tags = [Tag::Event, Tag::White, Tag::Black, Tag::Result, Tag::Language];
    match Language::find(code).map(|l| tags.map(|t| l.header_key(t))) {
        Some([Some(a), Some(b), Some(c), Some(d), Some(e)]) => [a, b, c, d, e].map(capitalized),
        _ => tags.map(|t| t.name().to_string()),
    }
}

/// `key` with its first letter upper case (`blancas` → `Blancas`).
fn capitalized(key: &str) -> String {
    let mut chars = key.chars();
    chars.next().map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

/// What every format writes of a sheet.
struct Page<'a> {
    noisy: &'a Noisy,
    tags: &'a Tags<'a>,
    style: &'a Style,
    entries: Vec<String>,
    /// Header keys: event, white, black, result, language.
    keys: [String; 5],
    result: Option<String>,
}

impl Page<'_> {
    /// The header fields given, under the sheet's keys.
    fn fields(&self) -> Vec<(&str, &str)> {
        let tags = self.tags;
        let language = self.style.header.then_some((&*self.keys[4], self.noisy.language));
        [(&*self.keys[0], tags.event), (&*self.keys[1], tags.white), (&*self.keys[2], tags.black)]
            .into_iter()
            .filter_map(|(k, v)| Some((k, v?)))
            .chain(language)
            .collect()
    }
}

/// Writes the sheet's text in its format.
fn render(noisy: &Noisy, tags: &Tags<'_>, style: &Style, rng: &mut Rng) -> String {
    let keys = if style.localized_keys { header_keys(noisy.language) } else { header_keys("en") };
    let result = (noisy.result != "*").then(|| {
        if noisy.result == "1/2-1/2" && noisy.format != Format::Pgn && rng.chance(0.2) {
            "½-½".to_string()
        } else {
            noisy.result.clone()
        }
    });
    let page = Page { noisy, tags, style, entries: noisy.entries(), keys, result };
    let mut t = String::new();
    match noisy.format {
        Format::Text => render_text(&page, &mut t),
        Format::Csv | Format::Tsv => render_table(&page, &mut t),
        Format::Yaml => render_yaml(&page, &mut t),
        Format::Pgn => render_pgn(&page, &mut t),
    }
    t
}

/// `Key: value` lines, then the moves in the sheet's layout.
fn render_text(page: &Page<'_>, t: &mut String) {
    let Page { entries, result, style, .. } = page;
    let fields = page.fields();
    for (k, v) in &fields {
        let _ = writeln!(t, "{k}: {v}");
    }
    if !t.is_empty() {
        t.push('\n');
    }
    let pairs: Vec<&[String]> = entries.chunks(2).collect();
    for (i, pair) in pairs.iter().enumerate() {
        let last = i + 1 == pairs.len();
        match style.layout {
            // 1.d4 Cf6, 2.c4 e6, ten moves a line.
            0 => {
                let _ = write!(t, "{}.{}", i + 1, pair.join(" "));
                if !last {
                    t.push_str(if (i + 1) % 10 == 0 { ",\n" } else { ", " });
                }
            }
            // 1. d4 Cf6 2. c4 e6, eight moves a line.
            1 => {
                let _ = write!(t, "{}. {}", i + 1, pair.join(" "));
                if !last {
                    t.push(if (i + 1) % 8 == 0 { '\n' } else { ' ' });
                }
            }
            // One numbered pair a line.
            _ => {
                let _ = write!(t, "{}\t{}", i + 1, pair.join("\t"));
                if !last {
                    t.push('\n');
                }
            }
        }
    }
    t.push('\n');
    if let Some(r) = &result {
        let _ = writeln!(t, "{r}");
    }
}

/// Key/value rows, a header row, a row per move number, the result row.
fn render_table(page: &Page<'_>, t: &mut String) {
    let Page { noisy, entries, result, keys, .. } = page;
    let fields = page.fields();
    let sep = if noisy.format == Format::Csv { ',' } else { '\t' };
    let cell = |s: &str| {
        if s.contains([sep, '"', '\n']) { format!("\"{}\"", s.replace('"', "\"\"")) } else { s.to_string() }
    };
    for (k, v) in &fields {
        let _ = writeln!(t, "{}{sep}{}", cell(k), cell(v));
    }
    if !t.is_empty() {
        t.push('\n');
    }
    let _ = writeln!(t, "#{sep}{}{sep}{}", cell(&keys[1]), cell(&keys[2]));
    for (i, pair) in entries.chunks(2).enumerate() {
        let cells: Vec<String> = pair.iter().map(|s| cell(s)).collect();
        let _ = writeln!(t, "{}{sep}{}", i + 1, cells.join(&sep.to_string()));
    }
    if let Some(r) = &result {
        let _ = writeln!(t, "{}{sep}{}", cell(&keys[3]), cell(r));
    }
}

/// A YAML form: the headers, then the moves as pairs.
fn render_yaml(page: &Page<'_>, t: &mut String) {
    let Page { noisy, tags, style, entries, result, .. } = page;
    for (k, v) in [("event", tags.event), ("white", tags.white), ("black", tags.black)] {
        if let Some(v) = v {
            let _ = writeln!(t, "{k}: {}", yaml_scalar(v));
        }
    }
    if let Some(r) = &result {
        let _ = writeln!(t, "result: {}", yaml_scalar(r));
    }
    if style.header {
        let _ = writeln!(t, "language: {}", noisy.language);
    }
    t.push_str("moves:\n");
    for pair in entries.chunks(2) {
        for (j, e) in pair.iter().enumerate() {
            let _ = writeln!(t, "{} {}", if j == 0 { "- -" } else { "  -" }, yaml_scalar(e));
        }
    }
}

/// Hand-typed PGN: the tags, then the moves in lines under 80 characters.
fn render_pgn(page: &Page<'_>, t: &mut String) {
    let Page { noisy, tags, style, entries, .. } = page;
    let quote = |s: &str| s.replace('\\', "\\\\").replace('"', "\\\"");
    for (k, v) in [("Event", tags.event), ("White", tags.white), ("Black", tags.black)] {
        if let Some(v) = v {
            let _ = writeln!(t, "[{k} \"{}\"]", quote(v));
        }
    }
    let _ = writeln!(t, "[Result \"{}\"]", noisy.result);
    if style.header {
        let _ = writeln!(t, "[Language \"{}\"]", noisy.language);
    }
    t.push('\n');
    let mut line = String::new();
    let spaced = style.layout == 1;
    let tokens = entries.chunks(2).enumerate().flat_map(|(i, pair)| {
        let mut v = Vec::with_capacity(3);
        let first = pair[0].clone();
        if spaced {
            v.push(format!("{}.", i + 1));
            v.push(first);
        } else {
            v.push(format!("{}.{first}", i + 1));
        }
        v.extend(pair.get(1).cloned());
        v
    });
    for tok in tokens.chain(std::iter::once(noisy.result.clone())) {
        if !line.is_empty() && line.chars().count() + 1 + tok.chars().count() > 79 {
            t.push_str(&line);
            t.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&tok);
    }
    t.push_str(&line);
    t.push('\n');
}

/// A YAML scalar, quoted when it would not read back as the same string.
fn yaml_scalar(s: &str) -> String {
    let plain = s.chars().next().is_some_and(char::is_alphabetic)
        && !s.contains([':', '#', '\'', '"', '{', '}', '[', ']', ',', '&', '*', '!', '|', '>', '%', '@', '`'])
        && !s.ends_with(' ')
        && !matches!(s.to_lowercase().as_str(), "y" | "n" | "yes" | "no" | "on" | "off" | "true" | "false" | "null");
    if plain { s.to_string() } else { format!("'{}'", s.replace('\'', "''")) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use scoresheet::convert::{Options, convert};
    use scoresheet::emit::report::Status;

    #[test]
    fn every_look_alike_slip_made_is_one_the_reader_knows() {
        for group in CONFUSABLE {
            for &a in *group {
                for &b in group.iter().filter(|&&b| b != a) {
                    assert!(scoresheet::dev::look_alikes(a).contains(&b), "{a} for {b}");
                }
            }
        }
    }

    fn game(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    /// Morphy's opera game: long castling, disambiguation, checks, mate.
    fn opera() -> Vec<String> {
        game(
            "e4 e5 Nf3 d6 d4 Bg4 dxe5 Bxf3 Qxf3 dxe5 Bc4 Nf6 Qb3 Qe7 Nc3 c6 Bg5 b5 Nxb5 cxb5 Bxb5+ Nbd7 \
             O-O-O Rd8 Rxd7 Rxd7 Rd1 Qe6 Bxd7+ Nxd7 Qb8+ Nxb8 Rd8#",
        )
    }

    /// A promotion with capture, short castling, pieces that need disambiguation.
    fn promotion() -> Vec<String> {
        game(
            "e4 d5 exd5 c6 dxc6 Nf6 cxb7 Nbd7 bxa8=Q Qc7 Nf3 e5 Bc4 Bd6 O-O O-O Qxa7 Nb6 Nc3 Bg4 d3 Rb8 Qa5 Nxc4 dxc4 Rc8 Re1",
        )
    }

    const FORMATS: [Format; 5] = [Format::Text, Format::Csv, Format::Tsv, Format::Yaml, Format::Pgn];

    #[test]
    fn the_games_are_legal() {
        for g in [opera(), promotion()] {
            let r = Replay::of(&g);
            assert_eq!(r.moves.len(), g.len());
        }
        assert_eq!(Replay::of(&opera()).board_result(), Some("1-0"));
    }

    #[test]
    fn same_seed_same_sheet() {
        let es = Language::find("es").unwrap();
        for format in FORMATS {
            for seed in 0..20 {
                let a = noisy_sheet(&opera(), seed, 0.3, es, format);
                let b = noisy_sheet(&opera(), seed, 0.3, es, format);
                assert_eq!(a.text, b.text);
                assert_eq!(a.faults, b.faults);
                assert_eq!(a.written, b.written);
                assert_eq!(a.file_name, b.file_name);
            }
        }
        let texts: Vec<String> = (0..20).map(|s| noisy_sheet(&opera(), s, 0.3, es, Format::Text).text).collect();
        assert!(texts.iter().skip(1).any(|t| *t != texts[0]), "the seed changes the sheet");
    }

    #[test]
    fn rate_zero_is_the_game_typed_cleanly_and_reads_back_validated() {
        for code in ["en", "es", "de", "fr", "it", "pt", "nl", "pl", "sv", "ru", "cs", "hu"] {
            let language = Language::find(code).unwrap();
            for (i, g) in [opera(), promotion()].iter().enumerate() {
                for (j, format) in FORMATS.into_iter().enumerate() {
                    for seed in 0..4u64 {
                        let seed = seed * 100 + (i * 10 + j) as u64;
                        let n = noisy_sheet(g, seed, 0.0, language, format);
                        assert!(n.faults.is_empty() && !n.truncated);
                        assert_eq!(&n.sans, g);
                        assert!(n.written.iter().all(Option::is_some));
                        assert_eq!(n.entries().len(), g.len());
                        let r = convert(&n.file_name, n.text.as_bytes(), &Options::default());
                        assert_eq!(r.error, None, "{code} {}:\n{}", n.file_name, n.text);
                        let got = &r.games[0];
                        assert_eq!(got.status, Status::Validated, "{code}:\n{}\n{:?}", n.text, got.findings);
                        assert_eq!(&got.moves, g, "{code}:\n{}", n.text);
                        if n.header {
                            assert!(language.same_letters(Language::find(&got.language).unwrap()), "{code}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn faults_are_recorded_where_they_are() {
        let pl = Language::find("pl").unwrap();
        let mut kinds = std::collections::BTreeSet::new();
        for seed in 0..200 {
            let g = if seed % 2 == 0 { opera() } else { promotion() };
            let n = noisy_sheet(&g, seed, 0.25, pl, FORMATS[seed as usize % 5]);
            assert_eq!(n.sans[..], g[..n.sans.len()]);
            assert_eq!(n.truncated, n.sans.len() < g.len());
            let clean: Vec<String> = n.sans.iter().map(|s| localize(s, pl, true)).collect();
            let mut last = None;
            for f in &n.faults {
                assert!(last < Some(f.ply), "one fault a move, in order");
                last = Some(f.ply);
                kinds.insert(f.kind);
                assert_eq!(f.truth, n.sans[f.ply]);
                match f.kind {
                    FaultKind::Omit => assert_eq!((&f.written, &n.written[f.ply]), (&None, &None)),
                    FaultKind::Duplicate => assert_eq!(f.written, n.written[f.ply]),
                    _ => {
                        assert_eq!(f.written, n.written[f.ply]);
                        let w = f.written.as_deref().unwrap();
                        assert!(w != clean[f.ply] && w != clean[f.ply].trim_end_matches('+'), "{f:?}");
                    }
                }
                if matches!(f.kind, FaultKind::Omit | FaultKind::Illegible) {
                    let a = f.alternatives.unwrap();
                    assert!(a >= 1, "the move played always fits: {f:?}");
                }
            }
            let dups = n.faults.iter().filter(|f| f.kind == FaultKind::Duplicate).count();
            let omits = n.faults.iter().filter(|f| f.kind == FaultKind::Omit).count();
            assert_eq!(n.entries().len(), n.sans.len() + dups - omits);
        }
        assert_eq!(kinds.len(), FaultKind::ALL.len(), "every kind is made: {kinds:?}");
        for k in FaultKind::ALL {
            assert_eq!(FaultKind::from_name(k.name()), Some(k));
        }
    }

    #[test]
    fn an_illegible_last_move_has_many_alternatives_and_an_early_one_few() {
        let r = Replay::of(&opera());
        assert!(r.alternatives(opera().len() - 1).unwrap() > 1);
        // 1...e5 is pinned down by 4.dxe5.
        assert_eq!(r.alternatives(1), Some(1));
    }

    #[test]
    fn the_prng_is_splitmix64() {
        // First output of splitmix64 seeded with 0 (reference value).
        assert_eq!(Rng::new(0).next_u64(), 0xE220_A839_7B1D_CDAF);
        let mut r = Rng::new(5);
        assert!((0..1000).all(|_| r.below(7) < 7));
    }
}
