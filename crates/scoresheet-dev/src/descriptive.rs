//! A writer of descriptive notation, to test the reader on games written as
//! older players and books write them: English (`P-K4`, `Kt - K B 3`,
//! `P. to K.'s 4th.`), Spanish (`P4R`, `CAR3`) and French (`P4R`, `C3FR`).
//!
//! Each move is written as a careful writer would: the bare form (`N-B3`,
//! `PxP`) when it names one legal move, else the first of, in order, the
//! long square name (`N-KB3`), the victim's file (`PxQP`), the mover's file
//! or wing (`QPxP`, `QR-Q1`), the mover's rank or square (`R(1)-Q1`,
//! `N(Q2)-B4`) that does. What a form can mean is decided by [`Form::matches`],
//! a matcher of its own (not the reader's): [`Writer::form`] only returns a form
//! that names exactly one legal move, and panics otherwise.
//!
//! ```
//! use scoresheet_dev::descriptive::{Writer, Layout};
//!
//! let sans: Vec<String> = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6", "dxc6"].map(String::from).into();
//! let en = Writer::preset("en-compact").unwrap();
//! assert_eq!(en.entries(&sans).unwrap(), ["P-K4", "P-K4", "N-KB3", "N-QB3", "B-N5", "P-QR3", "BxN", "QPxB"]);
//! let es = Writer::preset("es-rank-first").unwrap();
//! assert_eq!(es.entries(&sans).unwrap()[2..4], ["C3AR", "C3AD"]);
//! let sheet = en.sheet(&sans, &[("White", "A"), ("Black", "B")], "1-0", Layout::default());
//! assert!(sheet.starts_with("White: A\nBlack: B\n\n1. P-K4 P-K4 2. N-KB3"));
//! ```

use anyhow::{Context, Result};
use shakmaty::san::San;
use shakmaty::{CastlingSide, Chess, Color, File, Move, Position, Rank, Role, Square};

/// The language a [`Writer`] writes in: its piece letters and file names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    English,
    Spanish,
    French,
}

impl Language {
    /// The code a `Language:` header gives.
    pub fn code(self) -> &'static str {
        match self {
            Language::English => "en",
            Language::Spanish => "es",
            Language::French => "fr",
        }
    }

    /// The letter of a piece (English knight: `N`; see [`Writer::knight`]).
    fn letter(self, role: Role) -> &'static str {
        let i = [Role::King, Role::Queen, Role::Rook, Role::Bishop, Role::Knight, Role::Pawn]
            .iter()
            .position(|r| *r == role)
            .expect("a role");
        match self {
            Language::English => ["K", "Q", "R", "B", "N", "P"][i],
            Language::Spanish => ["R", "D", "T", "A", "C", "P"][i],
            Language::French => ["R", "D", "T", "F", "C", "P"][i],
        }
    }
}

/// How the moves are set: closed up (`N-KB3`), spaced as old books printed
/// them (`Kt - K B 3`), or in words (`K. Kt. to B.'s 3rd.`, English only).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    Compact,
    Spaced,
    Words,
}

/// A file as a move names it: by the piece that starts on it (`B`: the
/// bishop's file, either one) or with its side too (`KB`, Spanish `AR`).
/// The king's and the queen's files have one name only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Name {
    Short(File),
    Long(File),
}

impl Name {
    /// The files the name can mean.
    pub fn files(self) -> Vec<File> {
        match self {
            Name::Long(f) => vec![f],
            Name::Short(f) if matches!(f, File::D | File::E) => vec![f],
            Name::Short(f) => vec![f, File::new(7 - u32::from(f))],
        }
    }

    fn file(self) -> File {
        match self {
            Name::Short(f) | Name::Long(f) => f,
        }
    }

    /// A long name that says no more than the short one (`K`, `Q`).
    fn redundant(self) -> bool {
        matches!(self, Name::Long(File::D | File::E))
    }
}

/// How the moving piece is named.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mover {
    /// The piece alone: `N`, `P`.
    Bare,
    /// A pawn with its file: `QP`, `KBP`, Spanish `PD`.
    File(Name),
    /// A rook, knight or bishop by the side it started on: `QR`, `KKt`, Spanish `CR`.
    Wing(CastlingSide),
    /// The rank it stands on, from its side: `R(1)`, `N/5`.
    Rank(u8),
    /// The square it stands on, from its side: `N(Q2)`, `R(KB1)`.
    Square(Name, u8),
}

/// Where the move goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum What {
    /// To an empty square, its rank counted from the mover's side.
    To { name: Name, rank: u8, promotion: Option<Role> },
    /// Takes a piece, named alone, with its file, or with its square.
    Takes { victim: Role, name: Option<Name>, rank: Option<u8>, promotion: Option<Role> },
    /// Castles, on a side or without one.
    Castles(Option<CastlingSide>),
}

/// One move in descriptive notation, before it is spelt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Form {
    pub role: Role,
    pub mover: Mover,
    pub what: What,
    pub check: bool,
    pub en_passant: bool,
}

/// The side (king's or queen's) each rook, knight and bishop started on,
/// by the square it stands on: what `QR` or `KKt` names.
#[derive(Debug, Clone)]
pub struct Origins([Option<CastlingSide>; 64]);

impl Default for Origins {
    fn default() -> Origins {
        let mut o = [None; 64];
        for rank in [Rank::First, Rank::Eighth] {
            for file in [File::A, File::B, File::C, File::F, File::G, File::H] {
                let side = if file < File::E { CastlingSide::QueenSide } else { CastlingSide::KingSide };
                o[usize::from(Square::from_coords(file, rank))] = Some(side);
            }
        }
        Origins(o)
    }
}

impl Origins {
    /// The side the piece on `sq` started on, if it is one of the six.
    pub fn of(&self, sq: Square) -> Option<CastlingSide> {
        self.0[usize::from(sq)]
    }

    /// Follows `m`, played by `turn`: a promoted piece started nowhere.
    pub fn play(&mut self, m: &Move, turn: Color) {
        if let Move::Castle { king, rook } = *m {
            let side = if rook > king { CastlingSide::KingSide } else { CastlingSide::QueenSide };
            let origin = self.0[usize::from(rook)].take();
            self.0[usize::from(king)] = None;
            self.0[usize::from(side.rook_to(turn))] = origin;
            return;
        }
        let from = m.from().expect("not a drop");
        let origin = self.0[usize::from(from)].take();
        self.0[usize::from(m.to())] = if m.is_promotion() { None } else { origin };
    }
}

/// The rank `r` counted from `side`'s end of the board.
fn rank_of(side: Color, r: u8) -> Rank {
    Rank::new(u32::from(if side == Color::White { r - 1 } else { 8 - r }))
}

/// `sq`'s rank counted from `side`'s end of the board (1–8).
fn counted(side: Color, sq: Square) -> u8 {
    let r = u8::try_from(u32::from(sq.rank())).expect("a rank") + 1;
    if side == Color::White { r } else { 9 - r }
}

/// Whether `sq` is on the half of the board of `wing`'s pieces (for a
/// bishop: on the colour of the wing bishop's squares).
fn on_wing(role: Role, wing: CastlingSide, side: Color, sq: Square) -> bool {
    if role == Role::Bishop {
        let home = Square::from_coords(if wing == CastlingSide::KingSide { File::F } else { File::C }, side.backrank());
        return home.is_light() == sq.is_light();
    }
    (sq.file() >= File::E) == (wing == CastlingSide::KingSide)
}

impl Form {
    /// Whether the form can mean `m`, played by the side to move in `pos`.
    /// A wing (`QR`) is read both as the piece that started there and as a
    /// piece on that wing, so that a form counted as naming one move names
    /// one under either reading.
    pub fn matches(&self, pos: &Chess, origins: &Origins, m: &Move) -> bool {
        let side = pos.turn();
        if let What::Castles(c) = self.what {
            return m.castling_side().is_some_and(|s| c.is_none_or(|c| c == s));
        }
        let Some(from) = m.from() else { return false };
        if m.role() != self.role || m.is_castle() {
            return false;
        }
        let mover = match self.mover {
            Mover::Bare => true,
            Mover::File(name) => name.files().contains(&from.file()),
            Mover::Wing(w) => origins.of(from) == Some(w) || on_wing(self.role, w, side, from),
            Mover::Rank(r) => from.rank() == rank_of(side, r),
            Mover::Square(name, r) => name.files().contains(&from.file()) && from.rank() == rank_of(side, r),
        };
        mover
            && match self.what {
                What::To { name, rank, promotion } => {
                    !m.is_capture()
                        && m.promotion() == promotion
                        && m.to().rank() == rank_of(side, rank)
                        && name.files().contains(&m.to().file())
                }
                What::Takes { victim, name, rank, promotion } => {
                    // En passant: the victim stands beside the mover, on the square's file.
                    let at = if m.is_en_passant() { Square::from_coords(m.to().file(), from.rank()) } else { m.to() };
                    m.capture() == Some(victim)
                        && m.promotion() == promotion
                        && name.is_none_or(|n| n.files().contains(&at.file()))
                        && rank.is_none_or(|r| at.rank() == rank_of(side, r))
                }
                What::Castles(_) => unreachable!("handled above"),
            }
    }

    /// The step of the ladder the form was found at, for reports:
    /// `bare`, `long square`, `victim's file`, `mover's file`, `wing`,
    /// `mover's rank`, `mover's square`, `victim's square`, `castles`.
    pub fn step(&self) -> &'static str {
        match (self.mover, self.what) {
            (_, What::Castles(_)) => "castles",
            (Mover::File(_), _) => "mover's file",
            (Mover::Wing(_), _) => "wing",
            (Mover::Rank(_), _) => "mover's rank",
            (Mover::Square(..), _) => "mover's square",
            (_, What::Takes { rank: Some(_), .. }) => "victim's square",
            (_, What::Takes { name: Some(_), .. }) => "victim's file",
            (_, What::To { name: Name::Long(_), .. }) => "long square",
            _ => "bare",
        }
    }

    /// How many legal moves in `pos` the form can mean.
    pub fn count(&self, pos: &Chess, origins: &Origins) -> usize {
        pos.legal_moves().iter().filter(|m| self.matches(pos, origins, m)).count()
    }
}

/// How a check is marked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    /// `B-N5+`.
    Plus,
    /// `B-N5ch`, closed up.
    Ch,
    /// `B-N5 ch`, a word of its own (spaced and words styles: `ch`, `Ch.`).
    Word,
}

/// A writer of descriptive notation: a language and the habits of one
/// writer. [`Writer::preset`] names the ones the tests use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Writer {
    pub language: Language,
    pub style: Style,
    /// Spanish and French: the rank before the file (`P4R`, `C3AR`), or after (`PR4`).
    pub rank_first: bool,
    /// English knight: `N` or `Kt`.
    pub knight: &'static str,
    /// Every square by its long name (`P-KB4` where `P-B4` would do).
    pub long_squares: bool,
    /// A rook, knight or bishop named by its wing before a square's long
    /// name is tried: `KKt-B3` rather than `Kt-KB3`, as old books did.
    pub wing_first: bool,
    pub check: Check,
    /// Promotion in parentheses (`P-K8(Q)`) or after `=` (`P-K8=Q`).
    pub promotion_parens: bool,
    /// The mover's rank after `/` (`N/5-B3`) or in parentheses (`R(1)-Q1`).
    pub rank_slash: bool,
    /// English: castling as `Castles` (`Castles QR`) rather than `O-O`;
    /// French: `roque` where either side is meant.
    pub castles_word: bool,
}

/// The combinations [`Writer::preset`] knows, by name.
pub const PRESETS: [&str; 8] = [
    "en-compact",
    "en-compact-kt",
    "en-spaced",
    "en-words",
    "es-rank-first",
    "es-file-first",
    "fr-rank-first",
    "fr-file-first",
];

impl Writer {
    /// A writer by name (one of [`PRESETS`]).
    pub fn preset(name: &str) -> Option<Writer> {
        let base = Writer {
            language: Language::English,
            style: Style::Compact,
            rank_first: true,
            knight: "N",
            long_squares: false,
            wing_first: false,
            check: Check::Plus,
            promotion_parens: false,
            rank_slash: false,
            castles_word: false,
        };
        let w = match name {
            "en-compact" => base,
            "en-compact-kt" => Writer {
                knight: "Kt",
                long_squares: true,
                check: Check::Ch,
                promotion_parens: true,
                rank_slash: true,
                castles_word: true,
                ..base
            },
            "en-spaced" => {
                Writer { style: Style::Spaced, knight: "Kt", check: Check::Word, castles_word: true, ..base }
            }
            "en-words" => Writer {
                style: Style::Words,
                knight: "Kt",
                wing_first: true,
                check: Check::Word,
                promotion_parens: true,
                castles_word: true,
                ..base
            },
            "es-rank-first" => Writer { language: Language::Spanish, ..base },
            "es-file-first" => {
                Writer { language: Language::Spanish, rank_first: false, promotion_parens: true, ..base }
            }
            "fr-rank-first" => Writer { language: Language::French, castles_word: true, ..base },
            "fr-file-first" => Writer { language: Language::French, rank_first: false, ..base },
            _ => return None,
        };
        Some(w)
    }

    /// The entries of a game given in SAN, from the starting position.
    pub fn entries(&self, sans: &[String]) -> Result<Vec<String>> {
        Ok(self.forms(sans)?.into_iter().map(|(s, _)| s).collect())
    }

    /// The entries of a game given in SAN, each with its form.
    pub fn forms(&self, sans: &[String]) -> Result<Vec<(String, Form)>> {
        let mut pos = Chess::default();
        let mut origins = Origins::default();
        let mut out = Vec::with_capacity(sans.len());
        for (ply, san) in sans.iter().enumerate() {
            let m = San::from_ascii(san.as_bytes())
                .ok()
                .and_then(|s| s.to_move(&pos).ok())
                .with_context(|| format!("ply {}: {san} is no legal move", ply + 1))?;
            let form = self.form(&pos, &origins, &m);
            out.push((self.spell(&form), form));
            origins.play(&m, pos.turn());
            pos.play_unchecked(m);
        }
        Ok(out)
    }
}

impl Writer {
    /// The form of `m` (legal in `pos`) a careful writer writes: the first
    /// of the ladder (see the [module](self)) that names `m` and no other
    /// legal move.
    pub fn form(&self, pos: &Chess, origins: &Origins, m: &Move) -> Form {
        let check = {
            let mut after = pos.clone();
            after.play_unchecked(*m);
            after.is_check()
        };
        let en_passant = m.is_en_passant();
        let unique = |f: &Form| f.matches(pos, origins, m) && f.count(pos, origins) == 1;
        let found = if let Some(side) = m.castling_side() {
            // `Castles` alone where only one side can, else its side.
            let sides = if self.castles_word || self.language == Language::French { vec![None] } else { vec![] };
            sides
                .into_iter()
                .chain([Some(side)])
                .map(|c| Form { role: Role::King, mover: Mover::Bare, what: What::Castles(c), check, en_passant })
                .find(unique)
        } else {
            self.ladder(pos, origins, m)
                .into_iter()
                .map(|(mover, what)| Form { role: m.role(), mover, what, check, en_passant })
                .find(unique)
        };
        found.unwrap_or_else(|| panic!("no descriptive form names {m:?} alone in {}", fen(pos)))
    }

    /// The forms of `m` a careful writer tries, in order.
    fn ladder(&self, pos: &Chess, origins: &Origins, m: &Move) -> Vec<(Mover, What)> {
        let side = pos.turn();
        let from = m.from().expect("not a drop");
        let rank = counted(side, from);
        let mut movers = vec![Mover::Bare];
        match m.role() {
            Role::Pawn => movers.extend([Mover::File(Name::Short(from.file())), Mover::File(Name::Long(from.file()))]),
            Role::Rook | Role::Knight | Role::Bishop => {
                // A wing names the piece only where it started there and still stands there.
                if let Some(w) = origins.of(from).filter(|w| on_wing(m.role(), *w, side, from)) {
                    movers.push(Mover::Wing(w));
                }
            }
            _ => {}
        }
        movers.extend([
            Mover::Rank(rank),
            Mover::Square(Name::Short(from.file()), rank),
            Mover::Square(Name::Long(from.file()), rank),
        ]);
        let promotion = m.promotion();
        let whats: Vec<What> = match m.capture() {
            Some(victim) => {
                let at = if m.is_en_passant() { Square::from_coords(m.to().file(), from.rank()) } else { m.to() };
                let (f, r) = (at.file(), counted(side, at));
                let mut takes = vec![What::Takes { victim, name: None, rank: None, promotion }];
                // A piece taken is named by its square, never by a file alone:
                // `xKN` would be read as the king's knight.
                if victim == Role::Pawn {
                    takes.extend([Some(Name::Short(f)), Some(Name::Long(f))].map(|name| What::Takes {
                        victim,
                        name,
                        rank: None,
                        promotion,
                    }));
                }
                takes.push(What::Takes { victim, name: Some(Name::Long(f)), rank: Some(r), promotion });
                takes
            }
            None => {
                let (f, rank) = (m.to().file(), counted(side, m.to()));
                let names = if self.long_squares { vec![Name::Long(f)] } else { vec![Name::Short(f), Name::Long(f)] };
                names.into_iter().map(|name| What::To { name, rank, promotion }).collect()
            }
        };
        let mut whats: Vec<What> = whats.into_iter().map(plain_what).collect();
        whats.dedup();
        let mut out: Vec<(Mover, What)> = Vec::new();
        if self.wing_first
            && let Some(&wing) = movers.iter().find(|m| matches!(m, Mover::Wing(_)))
        {
            // Old books: `K. Kt. to B.'s 3rd.` before `Kt. to K. B.'s 3rd.`.
            out.extend([(Mover::Bare, whats[0]), (wing, whats[0])]);
        }
        let mut movers: Vec<Mover> = movers.into_iter().map(plain_mover).collect();
        movers.dedup();
        out.extend(movers.into_iter().flat_map(|mv| whats.iter().map(move |w| (mv, *w))));
        out
    }
}

/// The king's and the queen's files by their one name.
fn plain(name: Name) -> Name {
    if name.redundant() { Name::Short(name.file()) } else { name }
}

fn plain_what(w: What) -> What {
    match w {
        What::To { name, rank, promotion } => What::To { name: plain(name), rank, promotion },
        What::Takes { victim, name, rank, promotion } => What::Takes { victim, name: name.map(plain), rank, promotion },
        w => w,
    }
}

fn plain_mover(m: Mover) -> Mover {
    match m {
        Mover::File(n) => Mover::File(plain(n)),
        Mover::Square(n, r) => Mover::Square(plain(n), r),
        m => m,
    }
}

/// The position's FEN, for messages.
pub fn fen(pos: &Chess) -> String {
    shakmaty::fen::Fen::from_position(pos, shakmaty::EnPassantMode::Legal).to_string()
}

/// The piece that starts on a file: the file's name (`B` for c and f).
fn home_role(f: File) -> Role {
    match f {
        File::A | File::H => Role::Rook,
        File::B | File::G => Role::Knight,
        File::C | File::F => Role::Bishop,
        File::D => Role::Queen,
        _ => Role::King,
    }
}

fn king_side(f: File) -> bool {
    f >= File::E
}

/// `1st`, `2nd`, `3rd`, `4th`...; the first rank is `sq.` (square) in old books.
fn ordinal(r: u8) -> String {
    match r {
        1 => "sq.".to_string(),
        2 => "2nd".to_string(),
        3 => "3rd".to_string(),
        r => format!("{r}th"),
    }
}

impl Writer {
    /// The letter of a piece.
    fn letter(&self, role: Role) -> &'static str {
        if role == Role::Knight && self.language == Language::English {
            self.knight
        } else {
            self.language.letter(role)
        }
    }

    /// The side's letter: `K`/`Q` in English, `R`/`D` in Spanish and French.
    fn side_letter(&self, king: bool) -> &'static str {
        self.letter(if king { Role::King } else { Role::Queen })
    }

    /// A file's name in units: `["K", "B"]`, Spanish `["A", "R"]`.
    fn file_units(&self, name: Name) -> Vec<&'static str> {
        let (f, long) = match name {
            Name::Short(f) => (f, false),
            Name::Long(f) => (f, !matches!(f, File::D | File::E)),
        };
        let home = self.letter(home_role(f));
        match (long, self.language) {
            (false, _) => vec![home],
            (true, Language::English) => vec![self.side_letter(king_side(f)), home],
            (true, _) => vec![home, self.side_letter(king_side(f))],
        }
    }

    /// Units joined as the style sets them: `KB`, `K B`, `K. B.`.
    fn join(&self, units: &[&str]) -> String {
        match self.style {
            Style::Compact => units.concat(),
            Style::Spaced => units.join(" "),
            Style::Words => units.iter().map(|u| format!("{u}.")).collect::<Vec<_>>().join(" "),
        }
    }

    /// A square: `KB3`, `K B 3`, `K. B.'s 3rd`; Spanish `3AR` or `AR3`.
    fn square(&self, name: Name, rank: u8) -> String {
        let file = self.file_units(name).concat();
        match (self.language, self.style) {
            (Language::English, Style::Compact) => format!("{file}{rank}"),
            (Language::English, Style::Spaced) => format!("{} {rank}", self.join(&self.file_units(name))),
            (Language::English, Style::Words) => {
                format!("{}'s {}", self.join(&self.file_units(name)), ordinal(rank))
            }
            _ if self.rank_first => format!("{rank}{file}"),
            _ => format!("{file}{rank}"),
        }
    }

    /// A square a piece stands on, told apart: `(Q2)`, `/5`, Spanish `(2D)`.
    fn qualifier(&self, name: Option<Name>, rank: u8) -> String {
        let inner = match name {
            None => rank.to_string(),
            Some(n) if self.language == Language::English => format!("{}{rank}", self.file_units(n).concat()),
            Some(n) => Writer { style: Style::Compact, ..self.clone() }.square(n, rank),
        };
        if self.rank_slash { format!("/{inner}") } else { format!("({inner})") }
    }

    /// The moving (or taken) piece as named: `N`, `QP`, `KKt`, `R(1)`, Spanish `PAR`, `CR`.
    fn mover(&self, role: Role, mover: Mover) -> String {
        let piece = self.letter(role);
        let english = self.language == Language::English;
        let units: Vec<&str> = match mover {
            Mover::Bare => vec![piece],
            Mover::File(n) if english => [self.file_units(n), vec![piece]].concat(),
            Mover::File(n) => [vec![piece], self.file_units(n)].concat(),
            Mover::Wing(w) if english => vec![self.side_letter(w == CastlingSide::KingSide), piece],
            Mover::Wing(w) => vec![piece, self.side_letter(w == CastlingSide::KingSide)],
            Mover::Rank(r) => return format!("{}{}", self.join(&[piece]), self.qualifier(None, r)),
            Mover::Square(n, r) => return format!("{}{}", self.join(&[piece]), self.qualifier(Some(n), r)),
        };
        if english { self.join(&units) } else { units.concat() }
    }
}

impl Writer {
    /// The form as this writer spells it.
    pub fn spell(&self, form: &Form) -> String {
        let english = self.language == Language::English;
        let mut s = match form.what {
            What::Castles(side) => self.castles(side),
            What::To { name, rank, promotion } => {
                let mover = self.mover(form.role, form.mover);
                let square = self.square(name, rank);
                let body = match (english, self.style) {
                    (true, Style::Compact) => format!("{mover}-{square}"),
                    (true, Style::Spaced) => format!("{mover} - {square}"),
                    // `P. to K.'s 4th.`; `R. to K.'s sq.` has its period.
                    (true, Style::Words) if square.ends_with('.') => format!("{mover} to {square}"),
                    (true, Style::Words) => format!("{mover} to {square}."),
                    // Spanish and French close a bare piece up with its square
                    // (`P4R`), and a wing's piece as books print it (`CD4R`,
                    // the queen's knight to K4); one named by its file or
                    // square takes a dash (`PD-4R`, `C(3AD)-4R`).
                    (false, _) if matches!(form.mover, Mover::Bare | Mover::Wing(_)) => format!("{mover}{square}"),
                    (false, _) => format!("{mover}-{square}"),
                };
                format!("{body}{}", self.promotion(promotion))
            }
            What::Takes { victim, name, rank, promotion } => {
                let mover = self.mover(form.role, form.mover);
                let victim = match (name, rank) {
                    (Some(n), Some(r)) => format!("{}{}", self.mover(victim, Mover::Bare), self.qualifier(Some(n), r)),
                    (Some(n), None) => self.mover(victim, Mover::File(n)),
                    (None, _) => self.mover(victim, Mover::Bare),
                };
                let body = match (english, self.style) {
                    (true, Style::Spaced) => format!("{mover} x {victim}"),
                    (true, Style::Words) => format!("{mover} takes {victim}"),
                    _ => format!("{mover}x{victim}"),
                };
                format!("{body}{}", self.promotion(promotion))
            }
        };
        if form.en_passant {
            s.push_str(" e.p.");
        }
        if form.check {
            let word = s.ends_with(|c: char| c.is_ascii_alphabetic() || c == '.' || c == ')');
            s.push_str(match (self.style, self.check) {
                (Style::Words, _) => " Ch.",
                (_, Check::Word) => " ch",
                (_, Check::Ch) if word => " ch",
                (_, Check::Ch) => "ch",
                (_, Check::Plus) => "+",
            });
        }
        s
    }

    /// A promotion: `=Q`, `(Q)`, words `(Q.)`.
    fn promotion(&self, promotion: Option<Role>) -> String {
        let Some(role) = promotion else { return String::new() };
        let piece = self.letter(role);
        match self.style {
            Style::Words => format!(" ({piece}.)"),
            Style::Spaced => format!(" ({piece})"),
            Style::Compact if self.promotion_parens => format!("({piece})"),
            Style::Compact => format!("={piece}"),
        }
    }

    /// Castling: `O-O`, `O-O-O`, `Castles`, `Castles QR`, French `roque`.
    fn castles(&self, side: Option<CastlingSide>) -> String {
        let zeros = |s: CastlingSide| {
            let z = if s == CastlingSide::KingSide { ["O", "O"].as_slice() } else { ["O", "O", "O"].as_slice() };
            z.join(if self.style == Style::Spaced { " - " } else { "-" })
        };
        match (self.language, side) {
            (Language::English, None) if self.style == Style::Words => "Castles.".to_string(),
            (Language::English, None) => "Castles".to_string(),
            (Language::English, Some(s)) if self.castles_word => {
                let k = self.side_letter(s == CastlingSide::KingSide);
                match self.style {
                    Style::Words => format!("Castles ({k}. R.)"),
                    Style::Spaced => format!("Castles {k} R"),
                    Style::Compact => format!("Castles {k}R"),
                }
            }
            (Language::French, None) => "roque".to_string(),
            (_, Some(s)) => zeros(s),
            (_, None) => unreachable!("only English and French castle without a side"),
        }
    }
}

/// How a sheet is laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Layout {
    /// A `Language:` header line.
    pub language_header: bool,
    /// One move (White's and Black's entries) to a line, else all on one line.
    pub one_per_line: bool,
}

impl Writer {
    /// A sheet of the game: the `headers` (`White`, `Black`...) and a
    /// `Language:` line where asked, then the numbered moves, then `result`.
    pub fn sheet(&self, sans: &[String], headers: &[(&str, &str)], result: &str, layout: Layout) -> String {
        let entries = self.entries(sans).unwrap_or_else(|e| panic!("{e:#}"));
        let mut out = String::new();
        for (k, v) in headers {
            out.push_str(&format!("{k}: {v}\n"));
        }
        if layout.language_header {
            out.push_str(&format!("Language: {}\n", self.language.code()));
        }
        if !out.is_empty() {
            out.push('\n');
        }
        let moves: Vec<String> = entries
            .chunks(2)
            .enumerate()
            .map(|(i, pair)| match layout.one_per_line {
                true => format!("{}. {}", i + 1, pair.join("   ")),
                false => format!("{}. {}", i + 1, pair.join(" ")),
            })
            .collect();
        out.push_str(&moves.join(if layout.one_per_line { "\n" } else { " " }));
        out.push_str(if layout.one_per_line { "\n" } else { " " });
        out.push_str(result);
        out.push('\n');
        out
    }
}
