//! The two copies of one game, the players' two scoresheets, read together.
//!
//! Sheets are grouped into games by their headers (the same event, round and
//! board, or the same two players in the same round, names matched loosely).
//! That only finds candidates: a pair is one game only where the two
//! copies' readings alone agree ([`readings_agree`]); else each is read
//! alone, with `two-games-one-board`. A pair is read as one game: the games
//! the two readings propose (each copy's, and each way of taking the
//! stretches where they differ from one or the other) are weighed against
//! both copies, and the cheapest in sum is taken. Where the two copies are
//! both legible, say different moves, and the sum does not tell clearly
//! which is right, the game goes to review with `copies-disagree`.

use shakmaty::san::SanPlus;
use shakmaty::{Chess, Move, Position};

use super::budget::PairBudget;
use super::detect::{budget_spent, written_result};
use super::fit::with_searcher;
use super::game::{Game, Played, play};
use super::joint::{Doubt, Weigher, key, parting, sans_of, with_move_at};
use super::prior;
use super::settings::Settings;
use super::stages::reconstruct_within;
use crate::cost::{
    APART_PLIES, MORE_ENTRIES, MOST_COPY_CANDIDATES, MOST_SPLICED, MOST_VARIANTS, NEAR_NAME, PLAUSIBLE_PLIES, Params,
    SAME_NAME,
};
use crate::finding::{At, CopyEntry, CopyMove, Finding, ResultAt, Severity};
use crate::ingest::movetext::is_illegible_text;
use crate::notation::Language;
use crate::pairing::names::sound;
use crate::sheet::{GameResult, Sheet};
use crate::start::{SetUpError, Start};

/// The games of a set of sheets: each a list of one or two sheet indices, in
/// the order given; and the sheets that would be a third copy of a game
/// (`(third, first of the pair)`), which are read alone.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Grouping {
    pub games: Vec<Vec<usize>>,
    pub extra: Vec<(usize, usize)>,
    /// Sheets whose headers make them a copy of an earlier sheet's game but
    /// that give another starting position (`(sheet, earlier)`): each is
    /// read alone.
    pub apart: Vec<(usize, usize)>,
}

/// Groups sheets into games: a sheet joins the first earlier game it is a
/// copy of that has one sheet; a third copy is read alone and reported.
/// Then a sheet still alone that gives no round, or whose partner gives
/// none, joins the one other lone sheet of the same two players (and event,
/// where both give one) from another file (`files[i]`: sheet `i`'s): where
/// their only game among the sheets is this one, the names tell it. (Two
/// sheets of one file with the same players and no round are two games:
/// a match, or a round typed without its number.)
///
/// Sheets are compared through an index of their rounds, boards and names,
/// never each with every other: the work grows with the sheets.
pub(crate) fn group(sheets: &[&Sheet], files: &[usize]) -> Grouping {
    let keys: Vec<CopyKey> = sheets.iter().map(|s| CopyKey::of(s)).collect();
    let mut out = group_by_headers(&keys);
    pair_by_players(&keys, files, &mut out);
    out
}

/// Pairs the lone sheets that only their players tell apart (see [`group`]):
/// each with the one lone sheet its players fit, and only where that sheet's
/// players fit this one alone. A game keeps the place of its first sheet.
fn pair_by_players(keys: &[CopyKey], files: &[usize], out: &mut Grouping) {
    let lone: Vec<usize> = (0..out.games.len()).filter(|&g| out.games[g].len() == 1).collect();
    let mut index = CopyIndex::default();
    for &g in &lone {
        index.insert(&keys[out.games[g][0]], g);
    }
    let fits = |a: usize, b: usize| files.get(a) != files.get(b) && keys[a].same_game_by_players(&keys[b]);
    // Up to two partners: one is a pair, two are none.
    let partners = |g: usize| -> Vec<usize> {
        let a = out.games[g][0];
        let found = index.candidates(&keys[a]).into_iter().filter(|&h| h != g && fits(a, out.games[h][0]));
        found.take(2).collect()
    };
    let mut joined: Vec<(usize, usize)> = Vec::new();
    for &g in &lone {
        if let [h] = partners(g)[..]
            && g < h
            && partners(h) == [g]
        {
            joined.push((g, h));
        }
    }
    let mut gone = vec![false; out.games.len()];
    for &(g, h) in &joined {
        let second = out.games[h][0];
        out.games[g].push(second);
        gone[h] = true;
    }
    let mut k = 0;
    out.games.retain(|_| {
        k += 1;
        !gone[k - 1]
    });
}

/// [`group`] by the headers alone: round, event, board and players. (Both
/// copies of a game may come in one file, as a collection of a round's
/// sheets; whether they are one game's is for their readings, see
/// [`read_pair`]. Names alone or moves never join two sheets of one file.)
fn group_by_headers(keys: &[CopyKey]) -> Grouping {
    let mut out = Grouping::default();
    let mut game_of: Vec<usize> = Vec::with_capacity(keys.len());
    let mut index: CopyIndex<usize> = CopyIndex::default();
    for (i, key) in keys.iter().enumerate() {
        // The first earlier sheet of the same game; else the first whose
        // headers say so but whose start differs.
        let (mut partner, mut apart) = (None, None);
        for j in index.candidates(key).into_iter().filter(|&j| keys[j].same_headers(key)) {
            if keys[j].same_start(key) {
                partner = Some(j);
                break;
            }
            apart = apart.or(Some(j));
        }
        if let (None, Some(j)) = (partner, apart) {
            out.apart.push((i, j));
        }
        match partner.map(|j| game_of[j]) {
            Some(g) if out.games[g].len() == 1 => {
                out.games[g].push(i);
                game_of.push(g);
            }
            found => {
                if let Some(g) = found {
                    out.extra.push((i, out.games[g][0]));
                }
                game_of.push(out.games.len());
                out.games.push(vec![i]);
            }
        }
        index.insert(key, i);
    }
    out
}

/// Whether two sheets are copies of one game: the same round (both must give
/// it), the same event where both give one, and the same board where both
/// give one; then the same event and board with one player alike, or the
/// same two players; and
/// the same start (two copies of one game from different positions are not
/// one game's).
pub fn same_game(a: &Sheet, b: &Sheet) -> bool {
    CopyKey::of(a).same_game(&CopyKey::of(b))
}

/// What telling copies of one game apart compares of a sheet, worked out
/// once: its round and board, its event, its players' names as compared,
/// its start.
#[derive(Debug, Clone)]
pub(crate) struct CopyKey {
    round: Option<String>,
    board: Option<String>,
    event: Option<String>,
    /// Each player the sheet names, White's and Black's, where it names one.
    named: [Option<Name>; 2],
    start: Result<Start, SetUpError>,
}

impl CopyKey {
    pub(crate) fn of(s: &Sheet) -> CopyKey {
        let (round, board) = round_board(s).map_or((None, None), |(r, b)| (Some(r), b));
        CopyKey {
            round,
            board,
            event: s.header("Event").map(folded),
            named: ["White", "Black"].map(|k| player(s, k).map(Name::of)),
            start: Start::of(s),
        }
    }

    /// White's and Black's names, where the sheet names both.
    fn players(&self) -> Option<[&Name; 2]> {
        match &self.named {
            [Some(w), Some(b)] => Some([w, b]),
            _ => None,
        }
    }

    /// See [`same_game`].
    pub(crate) fn same_game(&self, other: &CopyKey) -> bool {
        self.same_headers(other) && self.same_start(other)
    }

    /// Whether two sheets, one of which gives no round, can be copies of
    /// one game by their players alone: the same White and the same Black
    /// (two players with the colours the other way round met in another
    /// game), no two events, the same start. Whether they are is for the one
    /// such pair among the sheets (see [`group`]).
    /// Or, both of one event's same round (no player plays two games in
    /// one), one player alike and the other at least loosely
    /// ([`Name::near`]): the other name is typed past knowing.
    pub(crate) fn same_game_by_players(&self, other: &CopyKey) -> bool {
        let one_unknown = self.round.is_none() || other.round.is_none();
        let by_players = one_unknown && self.same_players_and_event(other);
        (by_players || self.one_player_of_one_round(other)) && self.same_start(other)
    }

    /// Whether two sheets of one event's same round, on no two boards,
    /// name one player alike and the other at least loosely.
    fn one_player_of_one_round(&self, other: &CopyKey) -> bool {
        let given = |a: &Option<String>, b: &Option<String>| matches!((a, b), (Some(x), Some(y)) if x == y);
        let boards = !matches!((&self.board, &other.board), (Some(x), Some(y)) if x != y);
        if !(given(&self.round, &other.round) && given(&self.event, &other.event) && boards) {
            return false;
        }
        let (Some([wa, xa]), Some([wb, xb])) = (self.players(), other.players()) else { return false };
        let one = |a: &Name, b: &Name, c: &Name, d: &Name| a.same(b) && c.near(d);
        one(wa, wb, xa, xb) || one(xa, xb, wa, wb) || one(wa, xb, xa, wb) || one(xa, wb, wa, xb)
    }

    /// Whether two sheets give the same start, or the same reason why
    /// theirs cannot be used.
    fn same_start(&self, other: &CopyKey) -> bool {
        self.start == other.start
    }

    /// Whether two sheets name the same White and Black, and no two events.
    fn same_players_and_event(&self, other: &CopyKey) -> bool {
        if matches!((&self.event, &other.event), (Some(x), Some(y)) if x != y) {
            return false;
        }
        match (self.players(), other.players()) {
            (Some([wa, xa]), Some([wb, xb])) => wa.same(wb) && xa.same(xb),
            _ => false,
        }
    }

    /// Whether nothing two sheets write says they are two games, so that
    /// their moves may make them one: no two rounds, events or boards; the
    /// same start; and the players consistent: where both name both, one
    /// player the same ([`Name::same`]) and the other at least loosely alike
    /// ([`Name::near`]: typed past knowing, `Jdin` and `Yudn`), either
    /// colour first; else one player the same, and every player the sheet
    /// that names fewer names one of the other's. `Carlsen – Caruana` and
    /// `Karlsen, M – Ding` are two games whatever their moves: a game
    /// repeated move for move on two boards (a prepared line, a quick draw)
    /// is no copy.
    pub(crate) fn may_be_one_game(&self, other: &CopyKey) -> bool {
        let differ = |a: &Option<String>, b: &Option<String>| matches!((a, b), (Some(x), Some(y)) if x != y);
        if differ(&self.round, &other.round) || differ(&self.event, &other.event) || differ(&self.board, &other.board) {
            return false;
        }
        self.players_consistent(other) && self.same_start(other)
    }

    /// See [`CopyKey::may_be_one_game`].
    fn players_consistent(&self, other: &CopyKey) -> bool {
        if let (Some([wa, xa]), Some([wb, xb])) = (self.players(), other.players()) {
            let fit = |a: &Name, b: &Name, c: &Name, d: &Name| (a.same(b) && c.near(d)) || (a.near(b) && c.same(d));
            return fit(wa, wb, xa, xb) || fit(wa, xb, xa, wb);
        }
        let a: Vec<&Name> = self.named.iter().flatten().collect();
        let b: Vec<&Name> = other.named.iter().flatten().collect();
        let (fewer, more) = if a.len() <= b.len() { (a, b) } else { (b, a) };
        !fewer.is_empty() && fewer.iter().all(|x| more.iter().any(|y| x.same(y)))
    }

    /// Whether the headers of two sheets make them copies of one game (see
    /// [`same_game`]).
    fn same_headers(&self, other: &CopyKey) -> bool {
        let (Some(ra), Some(rb)) = (&self.round, &other.round) else { return false };
        if ra != rb {
            return false;
        }
        let (ea, eb) = (&self.event, &other.event);
        let players = match (self.players(), other.players()) {
            (Some([wa, xa]), Some([wb, xb])) => Some((wa.same(wb) && xa.same(xb)) || (wa.same(xb) && xa.same(wb))),
            _ => None,
        };
        // The same two players meet in the same round of two events (a convert
        // of a season's files): events written apart are two games.
        if matches!((ea, eb), (Some(x), Some(y)) if x != y) {
            return false;
        }
        let same_event = ea.is_some() && eb.is_some();
        // One player of the same event, round and board: the other's name
        // is typed past knowing (`Jdin`, `Yudn`), yet no player has two
        // games in one round.
        let one_player = match (self.players(), other.players()) {
            (Some([wa, xa]), Some([wb, xb])) => wa.same(wb) || xa.same(xb) || wa.same(xb) || xa.same(wb),
            _ => true,
        };
        match (&self.board, &other.board) {
            (Some(x), Some(y)) if x != y => false,
            (Some(_), Some(_)) if same_event => one_player,
            // Elsewhere, players written on both sheets must agree.
            _ => players.unwrap_or(false),
        }
    }

    /// The keys an index files the sheet under: its round and board, and
    /// each pair of its two players' name blocks (either colour first, as
    /// copies may swap them). Two sheets [`same_headers`](Self::same_headers)
    /// or [`same_game_by_players`](Self::same_game_by_players) finds alike
    /// share one.
    fn blocks(&self) -> Vec<Block> {
        let mut out = Vec::new();
        if let (Some(r), Some(b)) = (&self.round, &self.board) {
            out.push(Block::Board(r.clone(), b.clone()));
        }
        if let Some([w, b]) = self.players() {
            let (wb, bb) = (w.blocks(), b.blocks());
            // One player's, in a round: the other name may be typed past knowing.
            if let Some(r) = &self.round {
                out.extend(wb.iter().chain(&bb).map(|x| Block::Player(r.clone(), *x)));
            }
            for x in &wb {
                for y in &bb {
                    out.push(Block::Players(*x.min(y), *x.max(y)));
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }
}

impl CopyKey {
    /// The round the sheet gives, where it gives one: two sheets that give
    /// two rounds are never one game's copies.
    #[cfg(feature = "daemon")]
    pub(crate) fn round(&self) -> Option<&str> {
        self.round.as_deref()
    }

    /// The blocks of [`CopyKey::blocks`] as numbers, for an index kept on
    /// disk (the daemon's records): two keys that share a block share its
    /// number; a number two blocks share only adds a candidate, which is
    /// then compared.
    #[cfg(feature = "daemon")]
    pub(crate) fn block_numbers(&self) -> Vec<i64> {
        use std::hash::{Hash, Hasher};
        let mut out: Vec<i64> = self
            .blocks()
            .iter()
            .map(|b| {
                let mut h = rustc_hash::FxHasher::default();
                b.hash(&mut h);
                h.finish() as i64
            })
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// A key of [`CopyIndex`].
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Block {
    /// A round and a board.
    Board(String, String),
    /// Two players' name blocks (see [`Name::blocks`]), the lesser first.
    Players(u64, u64),
    /// A round and one player's name block.
    Player(String, u64),
}

/// Sheets (by any id) filed under their [`CopyKey::blocks`], so that the
/// sheets one may be a copy of are found without looking at the others.
#[derive(Debug)]
pub(crate) struct CopyIndex<T> {
    by_block: rustc_hash::FxHashMap<Block, Vec<T>>,
}

impl<T> Default for CopyIndex<T> {
    fn default() -> Self {
        CopyIndex { by_block: Default::default() }
    }
}

impl<T: Clone + Ord> CopyIndex<T> {
    pub(crate) fn insert(&mut self, key: &CopyKey, id: T) {
        for b in key.blocks() {
            self.by_block.entry(b).or_default().push(id.clone());
        }
    }

    /// The sheets that share a block with `key`, in order: at most
    /// [`MOST_COPY_CANDIDATES`] of each block, the first filed.
    pub(crate) fn candidates(&self, key: &CopyKey) -> Vec<T> {
        let mut out: Vec<T> = key
            .blocks()
            .iter()
            .filter_map(|b| self.by_block.get(b))
            .flat_map(|ids| ids.iter().take(MOST_COPY_CANDIDATES).cloned())
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// The round and board a sheet gives: `Round: 2.35` is round 2, board 35; a
/// `Board` header wins over the board in the round.
fn round_board(s: &Sheet) -> Option<(String, Option<String>)> {
    let round = s.header("Round").map(str::trim).filter(|r| !r.is_empty() && *r != "?")?;
    let (r, b) = match round.split_once('.') {
        Some((r, b)) => (r.trim(), Some(b.trim().to_string())),
        None => (round, None),
    };
    let board = s.header("Board").map(|b| b.trim().to_string()).filter(|b| !b.is_empty()).or(b);
    Some((r.to_string(), board))
}

/// The player a sheet's header `key` names, where it names one.
fn player<'s>(s: &'s Sheet, key: &str) -> Option<&'s str> {
    s.header(key).map(str::trim).filter(|n| !n.is_empty() && *n != "?")
}

/// A player's name as [`same_player`] compares it, worked out once: its
/// readings as (surname as it sounds, given names as they sound, and
/// whether the reading takes the name as typed the other way round about
/// its comma).
#[derive(Debug, Clone)]
struct Name {
    readings: Vec<(String, Vec<String>, bool)>,
    /// Written in Cyrillic: its initials say little about Latin ones.
    cyrillic: bool,
}

impl Name {
    fn of(name: &str) -> Name {
        let readings = name_readings(name)
            .into_iter()
            .map(|(s, given, swapped)| (sound(&s), given.iter().map(|g| sound(g)).collect(), swapped))
            .collect();
        Name { readings, cyrillic: name.chars().any(|c| matches!(c, '\u{400}'..='\u{4ff}')) }
    }

    /// See [`same_player`].
    fn same(&self, other: &Name) -> bool {
        self.alike(other, |sa, sb| {
            // A letter left out or doubled (`Pdersen`, `Panno`/`Pannno`)
            // costs Jaro–Winkler much in a short name; one edit is a slip.
            let one_slip = sa.chars().count().min(sb.chars().count()) >= 5 && strsim::damerau_levenshtein(sa, sb) <= 1;
            one_slip || strsim::jaro_winkler(sa, sb) >= SAME_NAME
        })
    }

    /// Whether two names are at least loosely alike ([`NEAR_NAME`]): the
    /// same player's, typed with slips past [`Name::same`]. Two initials
    /// still make two players (`Navara, David` is not `Navara, P`).
    fn near(&self, other: &Name) -> bool {
        self.alike(other, |sa, sb| strsim::jaro_winkler(sa, sb) >= NEAR_NAME)
    }

    /// Whether a reading of each name has surnames `alike` and given names
    /// that do not contradict ([`given_agree`]; those of a name in Cyrillic
    /// say little about Latin ones).
    /// Never where both names read the same surname as theirs and give it
    /// given names that contradict however they are read: `Smith, John` is
    /// not `Smith, Joan`, however `John` and `Joan` compare as surnames
    /// typed the other way.
    fn alike(&self, other: &Name, alike: impl Fn(&str, &str) -> bool) -> bool {
        let either_cyrillic = self.cyrillic || other.cyrillic;
        let agree = |ga: &[String], gb: &[String]| either_cyrillic || given_agree(ga, gb);
        let pairs = || self.readings.iter().flat_map(|a| other.readings.iter().map(move |b| (a, b)));
        // Read with the same surname, the given names contradict in every
        // reading that does so (`Le Quang Liem` is also `Liem` of `L. Liem`).
        let same_surname = || pairs().filter(|((sa, _, xa), (sb, _, xb))| !xa && !xb && sa == sb);
        let contradicted =
            same_surname().next().is_some() && same_surname().all(|((_, ga, _), (_, gb, _))| !agree(ga, gb));
        !contradicted && pairs().any(|((sa, ga, _), (sb, gb, _))| agree(ga, gb) && alike(sa, sb))
    }

    /// The blocks two names alike share one of: each reading's first two
    /// letters, and its last two. A slip that keeps a surname alike changes
    /// one end of it, seldom both.
    fn blocks(&self) -> Vec<u64> {
        // Up to two letters (each under 2^21), and which end (1: first, 2: last).
        let code = |end: u64, two: &[char]| two.iter().fold(0, |acc, &c| acc << 21 | u64::from(c)) | end << 62;
        let mut out: Vec<u64> = Vec::with_capacity(2 * self.readings.len());
        for (s, _, _) in &self.readings {
            let letters: Vec<char> = s.chars().collect();
            out.push(code(1, &letters[..letters.len().min(2)]));
            out.push(code(2, &letters[letters.len().saturating_sub(2)..]));
        }
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// Whether two written names are one player's: the surnames alike (see
/// `SAME_NAME`) and the first initials, where both give one, the same.
/// "Navara,D", "D. Navara", "Navara, David" and "navra d" are one player.
///
/// ```
/// use scoresheet::dev::same_player;
/// assert!(same_player("Navara,D", "D. Navara"));
/// assert!(same_player("Ivanchuk, Vassily", "vassily ivantchuk"));
/// assert!(same_player("Curt Von Bardeleben", "v. Bardeleben"));
/// assert!(same_player("van Wely, Loek", "Loek Van Wely"));
/// assert!(same_player("Pdersen,E", "E. Pedersen"));
/// assert!(same_player("A UKR Petrov", "A.Petrov"));
/// assert!(same_player("S RUS Ivanova", "Ivanova S"));
/// assert!(same_player("GM Carlsen, M", "Carlsen Magnus"));
/// assert!(same_player("D,Laylo", "Laylo, D"));
/// assert!(same_player("Bent,Larsen", "B. Larsen"));
/// assert!(!same_player("Shirov,A", "Short,N"));
/// // Two surnames with one initial are two players, whichever way round.
/// assert!(!same_player("Grchev,B", "Gundavaa,B"));
/// ```
pub fn same_player(a: &str, b: &str) -> bool {
    Name::of(a).same(&Name::of(b))
}

/// The ways to read a name as (surname, given names): "Surname, First" has
/// one; "First Surname" and "Surname First" are both tried.
fn name_readings(name: &str) -> Vec<(String, Vec<String>, bool)> {
    // A surname's particle ("von", "v.", "van", "de") is written or left out
    // at will: the name is read with its particles and without them ("Le",
    // "La" are also surnames of their own).
    let mut out = readings_of(name, false);
    for r in readings_of(name, true) {
        if !out.contains(&r) {
            out.push(r);
        }
    }
    out
}

/// [`name_readings`] of the name's words, its particles left out or not.
fn readings_of(name: &str, without_particles: bool) -> Vec<(String, Vec<String>, bool)> {
    let name = &crate::pairing::names::without_titles(name);
    let words = |s: &str| -> Vec<String> {
        let particle = |w: &String| without_particles && PARTICLES.contains(&w.as_str());
        let kept = |w: &String| !w.is_empty() && !particle(w);
        crate::fold::words(s).into_iter().filter(kept).collect()
    };
    if let Some((sur, first)) = name.split_once(',') {
        let sur = words(sur);
        let first = words(first);
        if !sur.is_empty() {
            // "D,Laylo", "Bent,Larsen": a name typed the other way round
            // about its comma is read that way too; an initial alone after
            // the comma ("Grchev,B") is no surname.
            let swapped = (first.concat().chars().count() > 1).then(|| (first.concat(), sur.clone(), true));
            return std::iter::once((sur.concat(), first, false)).chain(swapped).collect();
        }
    }
    let w = words(name);
    let initial_word = |w: &String| w.chars().count() == 1;
    let (Some(first), Some(last)) = (w.first(), w.last()) else { return Vec::new() };
    if w.len() == 1 {
        return vec![(first.clone(), Vec::new(), false)];
    }
    let n = w.len();
    // "larsen b", "van scheltinga t": the initial last; "D. Navara" first.
    if initial_word(last) {
        return vec![(w[..n - 1].concat(), vec![last.clone()], false)];
    }
    if initial_word(first) {
        return vec![(w[1..].concat(), vec![first.clone()], false)];
    }
    // "Bent Larsen" or "Larsen Bent", "Arturo Pomar Salamanca".
    vec![
        (last.clone(), w[..n - 1].to_vec(), false),
        (first.clone(), w[1..].to_vec(), false),
        (w[1..].concat(), vec![first.clone()], false),
        (w[..n - 1].concat(), vec![last.clone()], false),
    ]
}

/// Whether two names' given names (each as its words) can be one player's:
/// where both write some, word for word an initial of the other's word or
/// the same word, but for a slip in a word of five letters or more. `Li,
/// Wei` and `Li, Wen`, `Smith, John` and `Smith, Joan`, `Nguyen, Van An`
/// and `Nguyen, Van Anh` are two players each; `Navara, D` and `Navara,
/// David`, `So, Wesley` and `So, Weslley`, `St. Brie` and `Saint Brie` one.
fn given_agree(a: &[String], b: &[String]) -> bool {
    let word = |x: &String, y: &String| {
        let (n, m) = (x.chars().count(), y.chars().count());
        if n == 1 || m == 1 {
            return x.chars().next() == y.chars().next();
        }
        // Or one written short (`St.` for `Saint`, `Alex` for `Alexander`):
        // its letters in order in a longer name, the first the same.
        let (short, long) = if n <= m { (x, y) } else { (y, x) };
        let mut rest = long.chars();
        let abbreviated = short.chars().next() == long.chars().next() && short.chars().all(|c| rest.any(|l| l == c));
        x == y || (n.max(m) >= 5 && (strsim::damerau_levenshtein(x, y) <= 1 || abbreviated))
    };
    a.iter().zip(b).all(|(x, y)| word(x, y))
}

/// Particles of surnames, folded: left out when names are compared.
const PARTICLES: [&str; 14] =
    ["von", "v", "van", "der", "den", "de", "da", "di", "du", "del", "della", "dos", "le", "la"];

/// A header value compared loosely: letters and digits only, folded.
fn folded(s: &str) -> String {
    crate::fold::words(s).concat()
}

/// The game read from two copies, and which copy (0 or 1) its moves'
/// entries, its findings about moves and its tags are from.
#[derive(Debug, Clone)]
pub struct Joint {
    pub game: Game,
    pub base: usize,
    /// For each move of the game, the entry of the other copy (not `base`)
    /// read as it, where that copy writes it: the desk shows both copies'
    /// entries side by side. Empty where the copies were not weighed together.
    pub other: Vec<Option<usize>>,
    /// Where the two copies' readings are two games ([`readings_agree`]):
    /// the second copy's reading alone (`game` is then the first's, `base`
    /// 0, and nothing is weighed together), and the ply where they part.
    pub apart: Option<(Game, usize)>,
}

/// Reads two copies of one game together (`files` name them in messages),
/// each copy's reading within its own file's budget.
// Long because one weighing under both copies' searchers yields everything
// the decision needs at once; the decision itself is `decide`, with `rivals`
// and `languages` beside it.
pub fn read_pair(sheets: [&Sheet; 2], files: [&str; 2], settings: &Settings, mut budgets: PairBudget<'_>) -> Joint {
    let alone = [
        reconstruct_within(sheets[0], settings, budgets.of(0)),
        reconstruct_within(sheets[1], settings, budgets.of(1)),
    ];
    let ba = budgets.of(0);
    // Copies are grouped only where they give the same start (see
    // `same_game`); two that do not are never weighed as one game.
    if alone[0].start != alone[1].start {
        let [a, _] = alone;
        return Joint { game: a, base: 0, other: Vec::new(), apart: None };
    }
    if ba.exhausted() {
        // The file's budget is spent: the copies are not weighed together;
        // the copy read further is the game's reading, and says where its
        // budget ran out.
        let base = usize::from(alone[1].moves.len() > alone[0].moves.len());
        let mut game = alone.into_iter().nth(base).expect("two copies");
        budget_spent(sheets[base], &mut game);
        return Joint { game, base, other: Vec::new(), apart: None };
    }
    let start = &alone[0].start.position.clone();
    let settings = &settings.for_start(&alone[0].start);
    let own: [Vec<Move>; 2] = [moves_of(&alone[0]), moves_of(&alone[1])];
    // Only readings that stand on their own tell two games: a copy read
    // alone with many repairs (a layout the reader took amiss, boxes left
    // blank) is read right with the other copy.
    let sound = alone.iter().all(stands_alone);
    if sound && two_games(start, sheets, &own) {
        let parted = own[0].iter().zip(&own[1]).take_while(|(x, y)| x == y).count();
        let [a, b] = alone;
        return Joint { game: a, base: 0, other: Vec::new(), apart: Some((b, parted)) };
    }
    let mut games = candidates(start, &own[0], &own[1]);
    let flips = one_move_flips(start, &own[0], &own[1]).into_iter().chain(one_move_flips(start, &own[1], &own[0]));
    for g in flips.take(MOST_VARIANTS).chain(alone.iter().flat_map(variants).take(MOST_VARIANTS)) {
        if !games.contains(&g) {
            games.push(g);
        }
    }
    let params = &settings.params;
    // The weighing is work of the first copy's file, within what it has left.
    let meter = ba.game();
    let langs = languages(sheets, &alone, start, params);
    let (scored, (doubt, echo, echoed), one_names, (confirmed, paths), written, contradicted) =
        with_searcher(sheets[0], langs[0], params, Some(&meter), |a| {
            with_searcher(sheets[1], langs[1], params, Some(&meter), |b| {
                let mut w = Weigher::new(a, b, start);
                for g in games {
                    w.weigh(g);
                }
                w.weigh_read_on(&alone);
                w.climb(&alone);
                w.weigh_overruling();
                let scored = plausible_first(w.ranked(), settings, start);
                let one_names = w.one_copy_names(&scored, params.limits.review_margin);
                let confirmed = scored.first().map(|(_, g)| w.confirmed(g)).unwrap_or_default();
                let written = scored.first().map(|(_, g)| w.written(g)).unwrap_or_default();
                let paths = scored.first().map(|(_, g)| w.paths(g)).unwrap_or_default();
                // Where the copies write one slip letter for letter, the
                // sum counts one piece of evidence twice: the doubt is
                // looked for twice as far (see `echo_counted_twice`).
                let echoed = echoed(sheets, &paths);
                let echo = echo_counted_twice(&scored, &echoed, &confirmed);
                let reach = if echo { 2.0 } else { 1.0 } * params.limits.review_margin;
                let doubt = w.doubt(&scored, reach);
                let contradicted = scored.first().map_or(0.0, |(_, g)| {
                    if w.overruled_unweighed(g) { f32::INFINITY } else { w.contradiction(g, &alone) }
                });
                (scored, (doubt, echo, echoed), one_names, (confirmed, paths), written, contradicted)
            })
        });
    if scored.is_empty() {
        // Neither copy gave a move: the first is reported as read.
        let [a, _] = alone;
        return Joint { game: a, base: 0, other: Vec::new(), apart: None };
    }
    let margin = scored.get(1).map_or(f32::INFINITY, |s| s.0 - scored[0].0);
    let best = &scored[0].1;
    // A game one copy contradicts, or that one copy goes on past, is not
    // clearly ahead, however the others fare.
    let contradicted = contradicted > settings.params.limits.tie_margin || goes_on(sheets, &paths);
    // Where the near games only fill one copy's gap with another move than
    // the one the other copy names, the copies agree: no doubt there.
    let margin = if contradicted {
        0.0
    } else if one_names {
        margin.max(settings.params.limits.review_margin)
    } else {
        margin
    };
    let margin = if echo { margin / 2.0 } else { margin };
    let reach = if echo { 2.0 } else { 1.0 } * settings.params.limits.review_margin;
    let rival = if contradicted { vec![0.0; best.len()] } else { rivals(&scored, reach) };
    let mut joint = decide(sheets, files, alone, (best, doubt.as_ref(), &written, &echoed, &rival), margin, settings);
    ba.charge(&meter);
    if meter.out() {
        // Games the weighing did not reach may be nearer than those it did.
        budget_spent(sheets[joint.base], &mut joint.game);
    }
    // How many moves of the game each copy's entries cover.
    let reach = paths.each_ref().map(Vec::len);
    let seen = witnessed(sheets, &joint.game, &confirmed, &paths);
    incomplete(&mut joint.game, files, reach, &seen);
    joint.other = (0..joint.game.moves.len()).map(|k| paths[1 - joint.base].get(k).copied().flatten()).collect();
    pair_result(&mut joint.game, sheets, files);
    joint
}

/// How much more the cheapest game that plays another move there costs than
/// the cheapest of all (`scored[0]`), at each of its moves, looking no
/// further than twice `reach`: where the game is not clearly ahead, a
/// copy's doubt elsewhere is still settled by the other copy.
fn rivals(scored: &[(f32, Vec<Move>)], reach: f32) -> Vec<f32> {
    let (least, best) = (scored[0].0, &scored[0].1);
    let mut at = vec![f32::INFINITY; best.len()];
    for (c, g) in scored[1..].iter().take_while(|(c, _)| *c < least + 2.0 * reach) {
        for (_, r) in at.iter_mut().enumerate().filter(|(k, _)| g.get(*k) != best.get(*k)) {
            *r = r.min(c - least);
        }
    }
    at
}

/// The piece letters each copy is weighed under. Where the two copies'
/// readings alone inferred different languages, each copy takes the one
/// that reads the other copy's game cheaper: a copy misread alone (it starts
/// late, its lines are out of order) can make a language that is not the
/// sheet's look cheapest, and would pay for every piece letter against the
/// true game.
fn languages(sheets: [&Sheet; 2], alone: &[Game; 2], start: &Chess, params: &Params) -> [&'static Language; 2] {
    let langs = [alone[0].language, alone[1].language];
    if std::ptr::eq(langs[0], langs[1]) {
        return langs;
    }
    [0, 1].map(|c| {
        let other = moves_of(&alone[1 - c]);
        let fit = |lang| with_searcher(sheets[c], lang, params, None, |s| s.align(start, 0, &other));
        if fit(langs[1 - c]) < fit(langs[c]) { langs[1 - c] } else { langs[c] }
    })
}

/// The game's result from both copies: where one copy writes none, the
/// other's; where they write different ones, none, and the arbiter is told
/// (the result is never the first file's for being first). A result the
/// final position gives, or one copy's own header against its moves, stands
/// as each copy's reading left it.
fn pair_result(game: &mut Game, sheets: [&Sheet; 2], files: [&str; 2]) {
    let [a, b] = sheets.map(|s| written_result(s).ok().flatten());
    let decided =
        game.findings.iter().any(|f| matches!(f, Finding::ResultMismatch { .. } | Finding::ResultsDisagree { .. }));
    match (a, b) {
        (Some(x), Some(y)) if x != y && !decided => {
            game.findings.retain(|f| !matches!(f, Finding::ResultMissing { .. }));
            let results = vec![(x, ResultAt::Copy(files[0].to_string())), (y, ResultAt::Copy(files[1].to_string()))];
            game.findings.push(Finding::ResultsDisagree { results });
            game.result = GameResult::Unknown;
        }
        (Some(r), None) | (None, Some(r)) if game.result == GameResult::Unknown => {
            game.findings.retain(|f| !matches!(f, Finding::ResultMissing { .. }));
            game.result = r;
        }
        _ => {}
    }
}

/// Each copy that stops before the game read from both does: an
/// `incomplete-record` naming its file, how many moves it lacks and from
/// which (`reach`: how many moves of the game each copy's entries cover;
/// which moves each copy writes soundly and exactly, see [`witnessed`]). The game's `result-missing`, when its findings are the
/// shorter copy's (a game neither copy read alone), is said of the game's
/// last move.
fn incomplete(game: &mut Game, files: [&str; 2], reach: [usize; 2], (sound, exact): &Witnessed) {
    let plies = game.moves.len();
    for c in 0..2 {
        let Some(lacking) = plies.checked_sub(reach[c]).filter(|&n| n > 0) else { continue };
        game.findings.push(Finding::IncompleteRecord {
            file: files[c].to_string(),
            missing: lacking.div_ceil(2) as u32,
            from: reach[c] as u32 + 1,
            other_ends: reach[1 - c] >= plies,
            other_sound: sound[1 - c].len() >= plies && sound[1 - c][reach[c]..plies].iter().all(|&e| e),
            other_exact: exact[1 - c].len() >= plies && exact[1 - c][reach[c]..plies].iter().all(|&e| e),
        });
    }
    for f in &mut game.findings {
        if let Finding::ResultMissing { moves, .. } = f {
            *moves = (plies as u32 + game.start.first_ply() - 1).div_ceil(2);
        }
    }
}

/// For each copy and each move of the game: whether the copy writes it
/// soundly (an entry read as it that is not the entry before written again,
/// unless both are captures, `Rxe6 Rxe6`: a copy that wrote its last move
/// twice reads on as the other side's); and
/// whether soundly and exactly (`confirmed`) in a copy that skipped no move
/// of the game (one that skipped a move once may have skipped another where
/// the other copy cannot show it). `paths`: the entry each copy reads as
/// each move.
fn witnessed(
    sheets: [&Sheet; 2],
    game: &Game,
    confirmed: &[Vec<bool>; 2],
    paths: &[Vec<Option<usize>>; 2],
) -> Witnessed {
    let sound = [0, 1].map(|c| {
        let entries = &sheets[c].entries;
        (0..game.moves.len())
            .map(|k| {
                let Some(e) = paths[c].get(k).copied().flatten() else { return false };
                let capture = entries[e].text.contains(['x', 'X', ':', '×']);
                !(e > 0 && entries[e - 1].text == entries[e].text && !capture)
            })
            .collect::<Vec<bool>>()
    });
    let exact = [0, 1].map(|c| {
        let whole = paths[c].len() >= game.moves.len() && paths[c].iter().all(Option::is_some);
        sound[c].iter().enumerate().map(|(k, &s)| whole && s && confirmed[c].get(k) == Some(&true)).collect()
    });
    (sound, exact)
}

/// Which moves each copy writes soundly, and soundly and exactly.
type Witnessed = ([Vec<bool>; 2], [Vec<bool>; 2]);

/// The games weighed, the likeliest as chess first among those within
/// `prior_reach` of the cheapest: where two copies say two legal moves and
/// each slip costs the same (`d3` in one, `d4` in the other), the sheets
/// cannot tell, and the move players choose is shown first (its margin stays
/// below `review_margin`: the game goes to review either way). Each game is
/// compared with the cheapest over the plies from where they part. The
/// games begin in `start`.
fn plausible_first(mut scored: Vec<(f32, Vec<Move>)>, settings: &Settings, start: &Chess) -> Vec<(f32, Vec<Move>)> {
    let reach = settings.params.limits.prior_reach;
    let Some((least, best)) = scored.first().cloned() else { return scored };
    let mut choice: Option<(f32, usize)> = None;
    for (i, (cost, g)) in scored.iter().enumerate().skip(1).take_while(|(_, (c, _))| *c <= least + reach) {
        let k = g.iter().zip(&best).position(|(x, y)| x != y).unwrap_or(g.len().min(best.len()));
        let mut pos = start.clone();
        best[..k].iter().for_each(|&m| pos.play_unchecked(m));
        let end = |l: &[Move]| l.len().min(k + PLAUSIBLE_PLIES);
        let lines: [&[Move]; 2] = [&best[k..end(&best)], &g[k..end(g)]];
        let scores = prior::line_scores(settings.book.as_ref(), &pos, &lines);
        let gain = (scores[1] - scores[0]) - (cost - least);
        if gain > 0.0 && choice.is_none_or(|(b, _)| gain > b) {
            choice = Some((gain, i));
        }
    }
    if let Some((_, i)) = choice {
        let g = scored.remove(i);
        scored.insert(0, g);
    }
    scored
}

/// Whether a copy writes, past the last entry its alignment to the game reads
/// (`paths`), a legible entry that does not repeat one of the few before
/// it: that copy goes on where the game taken stops (the other copy
/// stopped early), and its last entries are left unread. A game never ends
/// one entry short of what a copy wrote without a doubt.
fn goes_on(sheets: [&Sheet; 2], paths: &[Vec<Option<usize>>; 2]) -> bool {
    // Past a mate the entries are moves the game cannot have: still not
    // the game as that copy wrote it (`Kd8` in one copy, `Kf8 Bxe7#` in
    // the other, both ending in mate).
    (0..2).any(|c| {
        let entries = &sheets[c].entries;
        let next = paths[c].iter().flatten().max().map_or(0, |&e| e + 1);
        (next..entries.len()).any(|e| {
            let text = &entries[e].text;
            !is_illegible_text(text) && !entries[e.saturating_sub(MORE_ENTRIES)..e].iter().any(|p| &p.text == text)
        })
    })
}

/// Game `x` with one move of `y` at the same ply where they differ, the
/// moves of `x` after it kept while they stay legal: a pawn on b6 for h6
/// leaves the positions apart for the rest of the game, and no stretch of
/// one copy alone is the game; the moves after it are the same.
fn one_move_flips(start: &Chess, x: &[Move], y: &[Move]) -> Vec<Vec<Move>> {
    let mut out = Vec::new();
    let sans = sans_of(start, x);
    for k in (0..x.len().min(y.len())).filter(|&k| x[k] != y[k]) {
        let g = with_move_at(start, x, &sans, k, y[k]);
        if g.len() > k {
            out.push(g);
        }
        if out.len() >= MOST_VARIANTS / 2 {
            break;
        }
    }
    out
}

/// A reading's game with another move where it was in doubt: each
/// alternative an `ambiguous-repair` lists put in place, the moves after it
/// kept while they stay legal. The doubts of one copy are where the other's
/// slip can hide (copy a's `d5` read as a5 or c5, copy b's `a5` a legal
/// slip for c5): the game neither reading took must be weighed too.
fn variants(game: &Game) -> Vec<Vec<Move>> {
    let start = &game.start.position;
    let moves = moves_of(game);
    let sans = sans_of(start, &moves);
    let mut out = Vec::new();
    for f in &game.findings {
        let Finding::AmbiguousRepair { at, alternatives, .. } = f else { continue };
        let Some(k) = (at.ply as usize).checked_sub(1).filter(|&k| k < moves.len()) else { continue };
        let mut pos = start.clone();
        for &m in &moves[..k] {
            pos.play_unchecked(m);
        }
        for alt in alternatives {
            let Ok(san) = alt.parse::<SanPlus>() else { continue };
            let Ok(mv) = san.san.to_move(&pos) else { continue };
            if mv != moves[k] {
                out.push(with_move_at(start, &moves, &sans, k, mv));
            }
        }
    }
    out
}

/// Whether two copies' readings alone (`own`, from `start`) are two games:
/// they do not agree ([`readings_agree`]), or they end apart
/// ([`ended_apart`]).
fn two_games(start: &Chess, sheets: [&Sheet; 2], own: &[Vec<Move>; 2]) -> bool {
    let js = junctions(start, &own[0], &own[1]);
    !readings_agree(&own[0], &own[1], &js) || ended_apart(sheets, own, &js)
}

/// Whether two copies' readings alone can be one game's, `js` the positions
/// both reach ([`junctions`]): see [`APART_PLIES`]. Readings too short to
/// tell agree.
///
/// Names and runs of moves only find the sheets that may be copies; this
/// says whether they are: `1. e4 e5 2. Nf3` and `1. d4 d5 2. c4` are two
/// games whatever the names, and so are two games that share an opening
/// and part for good.
fn readings_agree(a: &[Move], b: &[Move], js: &[(usize, usize)]) -> bool {
    let shorter = a.len().min(b.len());
    if shorter < APART_PLIES {
        return true;
    }
    // The same moves a few plies apart count too: a copy that starts at a
    // later move, or leaves moves out, is read alone with moves of its own
    // before the ones both write.
    let shifted = |d: usize| -> usize {
        let one = a.iter().skip(d).zip(b).filter(|(x, y)| x == y).count();
        one.max(b.iter().skip(d).zip(a).filter(|(x, y)| x == y).count())
    };
    let same = (0..=MOST_SHIFT).map(shifted).max().unwrap_or(0);
    let met = js.len() - 1;
    2 * same.max(met) >= shorter
}

/// How many plies apart [`readings_agree`] looks for the same moves.
const MOST_SHIFT: usize = 8;

/// Whether two copies, each writing a result of its own, end apart: each
/// reading goes on two plies or more past the last position both reach,
/// and the results differ. A copy that stops early stops within the game
/// and writes its result; one that ends elsewhere with another result is
/// another game's (a short draw whose opening a longer game shares).
fn ended_apart(sheets: [&Sheet; 2], own: &[Vec<Move>; 2], js: &[(usize, usize)]) -> bool {
    let (a, b) = (&own[0], &own[1]);
    let results = sheets.map(|s| written_result(s).ok().flatten());
    if !matches!(results, [Some(x), Some(y)] if x != y) {
        return false;
    }
    // The last position both reach, not the last move alike: `Nd6` after
    // `d4` and after `Re1` is one move in two games.
    let &(i, j) = js.last().expect("the start at least");
    a.len() >= i + 2 && b.len() >= j + 2
}

/// Whether a copy's reading alone stands on its own: no doubt, and a
/// repair at one ply in [`SOUND_PLIES_PER_REPAIR`] at most.
fn stands_alone(g: &Game) -> bool {
    let repair = |f: &&Finding| {
        matches!(
            f,
            Finding::ExtraEntry { .. }
                | Finding::IllegibleEntry { .. }
                | Finding::MissingMove { .. }
                | Finding::TypoRepaired { .. }
        )
    };
    let repairs = g.findings.iter().filter(repair).count();
    !g.findings.iter().any(Finding::is_doubt) && repairs * SOUND_PLIES_PER_REPAIR <= g.moves.len()
}

/// See [`stands_alone`].
const SOUND_PLIES_PER_REPAIR: usize = 5;

/// The moves of a reading.
fn moves_of(g: &Game) -> Vec<Move> {
    g.moves.iter().map(|p| p.mv).collect()
}

/// Where two games stand in the same position: `(i, j)`, the position after
/// `i` moves of `a` and `j` of `b`, both increasing. Positions, not plies: a
/// reading that dropped or added a move reaches the same position a ply
/// apart (1...e6 and 7...e5 against 1...e5), and the moves after it agree.
/// Both games begin in `start`.
fn junctions(start: &Chess, a: &[Move], b: &[Move]) -> Vec<(usize, usize)> {
    let keys = |moves: &[Move]| -> Vec<u64> {
        let mut pos = start.clone();
        let mut out = vec![key(&pos)];
        for &m in moves {
            pos.play_unchecked(m);
            out.push(key(&pos));
        }
        out
    };
    let (ka, kb) = (keys(a), keys(b));
    let mut out = vec![(0, 0)];
    for (i, k) in ka.iter().enumerate().skip(1) {
        let last = out.last().expect("one at least").1;
        if let Some(j) = (last + 1..kb.len()).find(|&j| kb[j] == *k) {
            out.push((i, j));
        }
    }
    out
}

/// The stretches where two games part: each copy's moves between two
/// positions both reach (the end of either game closing the last), in order;
/// the stretches where they agree are the same moves in both.
fn stretches(start: &Chess, a: &[Move], b: &[Move]) -> Vec<Stretch> {
    let js = junctions(start, a, b);
    let mut out = Vec::new();
    for w in js.windows(2) {
        let ((i1, j1), (i2, j2)) = (w[0], w[1]);
        let (sa, sb) = (&a[i1..i2], &b[j1..j2]);
        out.push(if sa == sb { Stretch::Agreed(sa.to_vec()) } else { Stretch::Parted([sa.to_vec(), sb.to_vec()]) });
    }
    let (i, j) = *js.last().expect("one at least");
    if i < a.len() || j < b.len() {
        out.push(Stretch::Parted([a[i..].to_vec(), b[j..].to_vec()]));
    }
    out
}

/// A stretch of two games: the same moves, or each copy's own.
enum Stretch {
    Agreed(Vec<Move>),
    Parted([Vec<Move>; 2]),
}

/// The games to weigh: both copies' readings, and each way of taking the
/// stretches where they part from one or the other (one copy's slip and the
/// other's are usually in different places; past [`MOST_SPLICED`] stretches,
/// each switch from one copy to the other); no game twice. Both begin in `start`.
fn candidates(start: &Chess, a: &[Move], b: &[Move]) -> Vec<Vec<Move>> {
    let parts = stretches(start, a, b);
    let parted = parts.iter().filter(|p| matches!(p, Stretch::Parted(_))).count();
    // Which copy each parted stretch is taken from, one list per candidate.
    let choices: Vec<Vec<usize>> = if parted <= MOST_SPLICED {
        (0..1usize << parted).map(|mask| (0..parted).map(|k| (mask >> k) & 1).collect()).collect()
    } else {
        // Each switch from one copy to the other, and each stretch alone
        // taken from the other copy (one slip in a long game read alike).
        let switches = (0..=parted)
            .flat_map(|at| [0, 1].map(|first| (0..parted).map(|k| if k < at { first } else { 1 - first }).collect()));
        let flips = (0..parted)
            .flat_map(|one| [0, 1].map(|base| (0..parted).map(|k| if k == one { 1 - base } else { base }).collect()));
        switches.chain(flips).collect()
    };
    let mut unique: Vec<Vec<Move>> = vec![a.to_vec(), b.to_vec()];
    for choice in choices {
        let mut g = Vec::with_capacity(a.len().max(b.len()));
        let mut k = 0;
        for p in &parts {
            match p {
                Stretch::Agreed(m) => g.extend_from_slice(m),
                Stretch::Parted(two) => {
                    g.extend_from_slice(&two[choice[k]]);
                    k += 1;
                }
            }
        }
        let g = legal_prefix(start, g.iter());
        if !unique.contains(&g) {
            unique.push(g);
        }
    }
    unique.retain(|g| !g.is_empty());
    unique
}

/// The moves from `start` up to the first that is not legal.
fn legal_prefix<'m>(start: &Chess, moves: impl Iterator<Item = &'m Move>) -> Vec<Move> {
    let mut pos = start.clone();
    let mut out = Vec::new();
    for &m in moves {
        if !pos.is_legal(m) {
            break;
        }
        pos.play_unchecked(m);
        out.push(m);
    }
    out
}

/// The game taken and its findings. A copy whose own reading is the game
/// lends it its entries and findings (the one validated alone first); a game
/// neither proposed has only the first copy's entries where it agrees with
/// that reading. It validates only where the copy it comes from validated
/// alone and the sum weighs it clearly ahead of every other candidate;
/// else, where the two readings part, `copies-disagree` sends it to review.
fn decide(
    sheets: [&Sheet; 2],
    files: [&str; 2],
    alone: [Game; 2],
    (best, doubt, written, echoed, rival): Evidence<'_>,
    margin: f32,
    settings: &Settings,
) -> Joint {
    let clean = |g: &Game| !g.findings.iter().any(doubts_moves);
    let owners: Vec<usize> = (0..2).filter(|&i| moves_of(&alone[i]) == best).collect();
    let base = owners.iter().copied().find(|&i| clean(&alone[i])).or(owners.first().copied());
    let parted = first_difference(&alone[0], &alone[1]);
    let clear = margin >= settings.params.limits.review_margin;
    let [a, b] = alone;
    let (mut game, base) = match base {
        Some(0) => (a.clone(), 0),
        Some(_) => (b.clone(), 1),
        None => (spliced(&a, best), 0),
    };
    // A doubt of the copy the game is from, at a move the other copy also
    // writes legibly (exactly or with a slip of its own), is settled when
    // no game near the cheapest plays another move there: its alternatives
    // were weighed against both copies. A move one copy alone has stays in
    // doubt: the other cannot tell what was played there. An entry that
    // says what this copy's does, letter for letter (`T1` in both: the same
    // doubt twice), counts once: it is settled only twice as far ahead.
    let review_margin = settings.params.limits.review_margin;
    let settled = |f: &Finding| {
        let ply = f.at().map_or(0, |at| at.ply as usize);
        let Some(k) = ply.checked_sub(1) else { return false };
        let echo = echoed.get(k) == Some(&true);
        let ahead = rival.get(k).is_some_and(|&r| r >= if echo { 2.0 * review_margin } else { review_margin });
        ((clear && !echo) || ahead)
            && matches!(f, Finding::AmbiguousRepair { .. })
            && written[1 - base].get(k) == Some(&true)
    };
    game.findings.retain(|f| !settled(f));
    // A game neither copy read alone takes each stretch from the copy that
    // reads it better: it stands only where every move is one a copy writes.
    let each_written = (0..best.len()).all(|k| written.iter().any(|w| w.get(k) == Some(&true)));
    let validated = base_validates(&game, owners.is_empty() && !each_written, clear);
    if !validated {
        // Where the copies' own readings part at a box one copy left
        // illegible, they do not disagree: the other copy's entry is read.
        let both_write = |k: &usize| written.iter().all(|w| w.get(*k) == Some(&true));
        let found = doubt
            .and_then(|d| doubt_finding(sheets, files, &game, d))
            .or_else(|| parted.filter(both_write).map(|ply| disagreement(sheets, files, [&a, &b], ply)));
        let ply = |f: &Finding| f.at().map(|at| at.ply);
        if let Some(f) = found.filter(|f| !game.findings.iter().any(|g| ply(g).is_some() && ply(g) == ply(f))) {
            game.findings.push(f);
        }
        // A game not validated says why, whatever the doubt found.
        if !game.findings.iter().any(doubts_moves) {
            let k = parted.or(doubt.map(|d| d.ply)).unwrap_or(0);
            game.findings.push(disagreement(sheets, files, [&a, &b], k));
        }
    }
    Joint { game, base, other: Vec::new(), apart: None }
}

/// What `decide` weighs: the cheapest game, its doubt, which moves each
/// copy writes legibly, which both write alike, and at each move how much
/// more the cheapest game that plays otherwise there costs.
type Evidence<'e> = (&'e [Move], Option<&'e Doubt>, &'e [Vec<bool>; 2], &'e [bool], &'e [f32]);

/// For each move of the game, whether both copies' entries read as it
/// (`paths`) are written alike, letter for letter: one copy then tells
/// nothing the other does not.
fn echoed(sheets: [&Sheet; 2], paths: &[Vec<Option<usize>>; 2]) -> Vec<bool> {
    let text = |c: usize, k: usize| paths[c].get(k).copied().flatten().map(|e| sheets[c].entries[e].text.trim());
    (0..paths[0].len().max(paths[1].len())).map(|k| text(0, k).is_some() && text(0, k) == text(1, k)).collect()
}

/// Whether the runner-up parts from the cheapest game at an entry both
/// copies write letter for letter and that the first copy does not write
/// exactly: a copy copied from the other, or two players who made one slip,
/// add the cost of one misreading twice, and the sum's margin then says
/// twice what the evidence does. It is halved, and the doubt looked for
/// twice as far.
fn echo_counted_twice(scored: &[(f32, Vec<Move>)], echoed: &[bool], confirmed: &[Vec<bool>; 2]) -> bool {
    let (Some((_, best)), Some((_, runner_up))) = (scored.first(), scored.get(1)) else { return false };
    parting(best, runner_up).is_some_and(|k| echoed.get(k) == Some(&true) && confirmed[0].get(k) != Some(&true))
}

/// Whether the joint game stands validated: clearly ahead in the sum, clean
/// where it is its own copy's reading, and not `unwritten` (a game neither
/// copy read alone with a move no copy writes).
fn base_validates(game: &Game, unwritten: bool, clear: bool) -> bool {
    !unwritten && clear && !game.findings.iter().any(doubts_moves)
}

/// Whether a finding puts the game's moves in doubt: a warning or an error,
/// but for `result-missing` (the result, not the moves, is for the arbiter;
/// the other copy cannot settle it).
fn doubts_moves(f: &Finding) -> bool {
    f.severity() >= Severity::Warning && !matches!(f, Finding::ResultMissing { .. })
}

/// The first ply (0-based) where two readings play different moves, or where
/// one stops and the other goes on.
fn first_difference(a: &Game, b: &Game) -> Option<usize> {
    parting(&moves_of(a), &moves_of(b))
}

/// A game neither copy read alone, built on the first copy's reading: its
/// entries where the moves agree with it, none elsewhere. The findings about
/// the whole game are kept, and the notices (a repaired slip, a move not
/// written) about moves before the two part: the arbiter is still told how
/// those entries were read. Its doubts and what it says past that were
/// about its own reading.
fn spliced(a: &Game, moves: &[Move]) -> Game {
    let mut pos = a.start.position.clone();
    let mut played = Vec::with_capacity(moves.len());
    for (k, &mv) in moves.iter().enumerate() {
        let same = a.moves.get(k).filter(|p| p.mv == mv && played.len() == k);
        let san = play(&mut pos, mv);
        played.push(match same {
            Some(p) => Played { san, ..p.clone() },
            None => Played { mv, san, entry: None, nags: Vec::new(), draw_offer: false },
        });
    }
    let agree = parting(&moves_of(a), moves).unwrap_or(moves.len()) as u32;
    let kept = |f: &&Finding| match f.at() {
        None => true,
        Some(at) => f.severity() < Severity::Warning && at.ply >= 1 && at.ply <= agree,
    };
    let findings = a.findings.iter().filter(kept).cloned().collect();
    let start = a.start.clone();
    Game { language: a.language, moves: played, findings, start, position: pos, result: a.result, cost: a.cost }
}

/// The finding of the joint game's doubt: `copies-disagree` where both
/// copies' entries there are legible and name different moves (or one names
/// none), else `ambiguous-repair` with the moves the near games play there.
/// `None` where the doubt is past the game's end and nothing tells.
fn doubt_finding(sheets: [&Sheet; 2], files: [&str; 2], game: &Game, d: &Doubt) -> Option<Finding> {
    let entry = |c: usize| d.entries[c].map(|e| &sheets[c].entries[e]);
    let text = |c: usize| entry(c).map_or(CopyEntry::NotWritten, |e| CopyEntry::Written(e.text.clone()));
    let mut pos = game.start.position.clone();
    game.moves.iter().take(d.ply).for_each(|p| pos.play_unchecked(p.mv));
    let san = |m: Move| super::game::san_of(&pos, m);
    let chosen = game.moves.get(d.ply).map(|p| p.san.to_string());
    let (line, col) = entry(0).or(entry(1)).map_or((0, 0), |e| (e.line, e.col));
    let at = At { ply: d.ply as u32 + 1, line, col };
    if d.legible == [true, true] && d.names[0] != d.names[1] {
        let read = |c: usize| d.names[c].map(san).or(chosen.clone()).map_or(CopyMove::GameEnds, CopyMove::Move);
        return Some(Finding::CopiesDisagree {
            at,
            written: text(0),
            read: read(0),
            other_written: text(1),
            other_read: read(1),
            files: files.map(str::to_string),
        });
    }
    let written = (0..2).find(|&c| d.legible[c]).and_then(entry).map_or_else(String::new, |e| e.text.clone());
    Some(Finding::AmbiguousRepair {
        at,
        written,
        replacement: chosen?,
        alternatives: d.alternatives.iter().map(|&m| san(m)).collect(),
        margin: d.margin,
    })
}

/// `copies-disagree` at ply `k` (0-based): each copy's entry and move there.
fn disagreement(sheets: [&Sheet; 2], files: [&str; 2], games: [&Game; 2], k: usize) -> Finding {
    let side = |i: usize| -> (CopyEntry, CopyMove, usize, usize) {
        match games[i].moves.get(k) {
            Some(p) => {
                let e = p.entry.map(|e| &sheets[i].entries[e]);
                let written = e.map_or(CopyEntry::NotWritten, |e| CopyEntry::Written(e.text.clone()));
                (written, CopyMove::Move(p.san.to_string()), e.map_or(0, |e| e.line), e.map_or(0, |e| e.col))
            }
            None => (CopyEntry::Ended, CopyMove::GameEnds, 0, 0),
        }
    };
    let (written, read, line, col) = side(0);
    let (other_written, other_read, ..) = side(1);
    Finding::CopiesDisagree {
        at: At { ply: k as u32 + 1, line, col },
        written,
        read,
        other_written,
        other_read,
        files: files.map(str::to_string),
    }
}
